"""benchmarks/redundancy_selection.py (doc/redundancy.md, "Non-redundant
selection") on tiny data, and its mRMR, BELIEF and measures."""
import importlib
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def selection():
    """The benchmark as a module (it puts benchmarks/ on the path itself,
    for the head-to-head it builds on)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    return importlib.import_module("redundancy_selection")


def test_quick_run_writes_its_section_and_plot(selection, tmp_path,
                                               monkeypatch):
    for key in ("led_rows", "modulo_rows", "gametes_rows", "numeric_rows"):
        monkeypatch.setitem(selection.QUICK, key, 80)
    out, png = tmp_path / "r.md", tmp_path / "r.png"
    out.write_text("# kept\n\ntext before\n")
    methods = ["ReliefF", "mRMR", "BELIEF", "ReliefF-nonred"]
    results = selection.main(["--quick", "--seeds", "2", "--methods",
                              *methods, "--out", str(out), "--plot",
                              str(png)])
    text = out.read_text()
    assert text.startswith("# kept\n\ntext before\n")
    assert text.count(selection.START) == 1
    assert "| BELIEF | ReliefF-nonred |" in text and "| LED | 2 exact | 7 |" in text
    assert png.stat().st_size > 10_000
    led = results[("LED", "2 exact", 7)]
    assert led["ReliefF"]["dup"] == [4 / 7, 4 / 7]     # three pairs and one
    assert led["ReliefF-nonred"]["dup"] == [0.0, 0.0]
    selection.main(["--quick", "--seeds", "2", "--methods", "ReliefF",
                    "--out", str(out)])
    assert out.read_text().count(selection.START) == 1   # rewritten, not added


def test_mrmr_skips_a_copy(selection):
    table = selection.numeric_table(300, True, 0)
    names = [table.domain.attributes[i].name
             for i in selection.mrmr(table, 3)]
    groups = [{"x0", "x0_copy"}, {"x1", "x1_exp"}, {"x2", "x2_bins"}]
    assert [len(set(names) & g) for g in groups] == [1, 1, 1]


def test_belief_keeps_one_of_each_copy_group(selection):
    """BELIEF's relevance - mean collision redundancy keeps one of each
    numeric copy group (exact, exp, four bins), where ReliefF keeps two."""
    table = selection.numeric_table(300, True, 0)
    groups = [{"x0", "x0_copy"}, {"x1", "x1_exp"}, {"x2", "x2_bins"}]
    for method, expected in (("BELIEF", [1, 1, 1]), ("ReliefF", None)):
        names = {table.domain.attributes[i].name
                 for i in selection.top_r(method, table, 3, 0)}
        found = [len(names & g) for g in groups]
        if expected:
            assert found == expected
        else:
            assert max(found) == 2      # the benchmark has something to fix


def test_belief_scales_both_terms(selection):
    assert selection.scaled(np.array([2.0, 4.0, 3.0])).tolist() == \
        [0.0, 1.0, 0.5]
    assert selection.scaled(np.array([0.3, 0.3])).tolist() == [0.0, 0.0]


def test_measures_count_repeated_groups(selection):
    table = selection.numeric_table(200, True, 1)
    index = {v.name: i for i, v in enumerate(table.domain.attributes)}
    chosen = np.array([index[n] for n in ("x0", "x0_copy", "x1")])
    assert selection.measures(table, chosen, 3, 0)["dup"] == pytest.approx(1 / 3)


def test_measure_comparison_helpers(selection):
    import redundancy_measures as measures
    assert measures.auc(np.array([0.9, 0.1, 0.5]),
                        np.array([True, False, False])) == 1.0
    assert measures.auc(np.array([0.5, 0.5]), np.array([True, False])) == 0.5
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, (60, 4)).astype(float)
    X[:, 3] = X[:, 0]
    y = X[:, 0].copy()
    cosine = measures.collisions(X, y, np.ones(4, bool), np.arange(4))
    assert cosine[0, 3] == pytest.approx(1.0)
    assert cosine[1, 2] < 0.9
