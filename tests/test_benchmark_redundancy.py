"""benchmarks/redundancy.py (the head-to-head of doc/redundancy.md) on tiny
data, and how it measures copies."""
import importlib.util
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def redundancy():
    spec = importlib.util.spec_from_file_location(
        "redundancy_benchmark", ROOT / "benchmarks" / "redundancy.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_quick_run_writes_tables_and_plot(redundancy, tmp_path, monkeypatch):
    monkeypatch.setitem(redundancy.QUICK, "led_rows", 80)
    monkeypatch.setitem(redundancy.QUICK, "modulo_rows", 80)
    monkeypatch.setitem(redundancy.QUICK, "gametes_rows", 80)
    out, png = tmp_path / "r.md", tmp_path / "r.png"
    results = redundancy.main(["--quick", "--seeds", "2",
                               "--scan-iterations", "2", "--out", str(out),
                               "--plot", str(png)])
    text = out.read_text()
    for method in redundancy.METHODS:
        assert f"| {method} |" in text
    assert "### CorrAl" in text and "σ = 0.5" in text
    assert png.stat().st_size > 10_000
    corral = results["CorrAl"]
    assert list(corral) == ["0 copies of Correlated", "4 copies of Correlated"]
    rows = corral["0 copies of Correlated"]["ReliefF"]
    assert len(rows) == 2 and all(-2 <= r["s"] <= r["u"] <= 2 for r in rows)
    assert all(0 <= r["R"] <= 1 and 0 <= r["acc"] <= 1 for r in rows)


def test_copies_of_relevant_features_are_left_out_of_s_and_u(redundancy):
    from orangecontrib.relief.datasets import corral
    from orangecontrib.relief.datasets.redundant import with_copies
    table = with_copies(corral(), ["A0", "Correlated"], copies=1)
    # A0, A1, B0, B1, Irrelevant, Correlated, A0_copy1, Correlated_copy1
    weights = np.array([0.5, 0.4, 0.3, 0.2, 0.0, 0.1, 0.9, 0.25])
    found = redundancy.measures(table, weights, folds=2, seed=0)
    # the copy of A0 (0.9) counts on neither side; Correlated's copy does
    assert found["s"] == pytest.approx(0.2 - 0.25)
    assert found["u"] == pytest.approx(0.5 - 0.25)
    # the top 4 are A0_copy1, A0, A1, B0: A0 and its copy are redundant
    assert found["R"] > 0.5


def test_tables_go_between_the_markers(redundancy, tmp_path):
    path = tmp_path / "doc.md"
    path.write_text(f"# Title\n\nprose\n\n{redundancy.START}\nold\n"
                    f"{redundancy.END}\n\nmore prose\n")
    redundancy.write_generated(path, "new tables\n")
    assert path.read_text() == (f"# Title\n\nprose\n\n{redundancy.START}\n"
                                f"new tables\n{redundancy.END}\n\n"
                                "more prose\n")
    fresh = tmp_path / "fresh.md"
    redundancy.write_generated(fresh, "tables\n")
    assert fresh.read_text() == "tables\n"
