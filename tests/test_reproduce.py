"""The paper-reproduction script: a quick run writes a report with real numbers."""
import re
import warnings

import numpy as np
import pytest

from orangecontrib.relief import ReliefF, ReliefWarning, datasets
from orangecontrib.relief.paper import reproduce
from orangecontrib.relief.evaluation import weight_quality, wrapper_curve


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("reproduction") / "doc" / "reproduction.md"
    assert reproduce.main(["--quick", "--out", str(out)]) == 0
    return out


def _table_rows(text, first_cell):
    """Cells of the Markdown table rows whose first cell is ``first_cell``."""
    rows = []
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0] == first_cell:
            rows.append(cells)
    return rows


def test_report_has_every_section(report):
    text = report.read_text(encoding="utf-8")
    for heading in ("## Modulo-p-I", "### Modulo-2-2", "### Modulo-4-3", "## CorrAl",
                    "## LED24", "## MONK-1", "## MONK-3", "## Wrapper curves",
                    "## The seed's real data", "### lung cancer",
                    "## What agrees, what does not"):
        assert heading in text
    assert "Quick run" in text


def test_tables_hold_numbers_next_to_the_paper(report):
    text = report.read_text(encoding="utf-8")
    number = re.compile(r"^-?\d+\.\d+$")
    # CorrAl: ours (3 columns) then the paper's (3 columns)
    b0 = _table_rows(text, "B0")[0]
    assert all(number.match(cell) for cell in b0[1:]), b0
    assert b0[4:] == ["0.259", "0.272", "0.272"]
    # the numbers are the scorer's own: ReliefF with k = 5 on the 32-row CorrAl
    data = datasets.corral(32)
    weights = ReliefF(k_nearest=5)(data)
    index = [var.name for var in data.domain.attributes].index("B0")
    assert float(b0[1]) == pytest.approx(weights[index], abs=5e-4)
    separability = _table_rows(text, "**separability**")[0]
    assert float(separability[1]) == pytest.approx(
        weight_quality(weights, data).separability, abs=5e-4)
    assert separability[4:] == ["-0.153", "0.230", "0.228"]
    # LED24 and MONK tables: s and u of ours next to the paper's
    for row in _table_rows(text[:text.index("## The seed's real data")], "ReliefF"):
        values = [cell for cell in row[1:] if number.match(cell)]
        assert len(values) >= 2, row
    monk_rows = [row for row in _table_rows(text, "ReliefF") if "A1, A2, A5, A3, A6, A4" in row]
    assert monk_rows, "MONK-1's published ReliefF order is listed"


def test_modulo_table_and_plots(report):
    text = report.read_text(encoding="utf-8")
    rows = _table_rows(text, "4")       # R = 4 of the quick grid, both problems
    assert len(rows) == 2
    for row in rows:
        means = [float(cell.split("±")[0]) for cell in row[1:4]]
        assert all(np.isfinite(means)) and all(-2 <= m <= 2 for m in means)
        assert row[4] in ("ReliefF", "dReliefF", "pdReliefF")
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert len(images) == 4             # two Modulo plots, one wrapper, one real-data plot
    for image in images:
        path = report.parent / image
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert path.stat().st_size > 5000


def test_wrapper_table_best_accuracy_matches_curve(report):
    text = report.read_text(encoding="utf-8")
    rows = [row for row in _table_rows(text, "dReliefF") if row[1] in ("honest", "paper")]
    assert {row[1] for row in rows} == {"honest", "paper"}
    for row in rows:
        best_size, best, all_features = int(row[2]), float(row[3]), float(row[4])
        assert 1 <= best_size <= 6
        assert best >= all_features     # the best size is at least as good as all features


REAL_HEADER = ["scorer", "paper", "seed protocol, leave-one-out", "seed protocol, 5-fold",
               "honest, leave-one-out", "honest, 5-fold"]


def _real_table(text):
    """The best-accuracy table of the lung-cancer section: header and rows."""
    section = text[text.index("### lung cancer"):]
    lines = section.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| scorer | paper"))
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows[0], rows[2:]


def test_real_data_table_next_to_the_paper(report):
    text = report.read_text(encoding="utf-8")
    header, rows = _real_table(text)
    assert header == REAL_HEADER
    by_scorer = {row[0]: row for row in rows}
    assert by_scorer["ReliefF"][1] == "93.75 (28)"
    assert by_scorer["dReliefF"][1] == "96.88 (37)"
    assert by_scorer["pdReliefF"][1] == "96.88 (33)"
    assert by_scorer["all 56 features"][1] == "43.75"
    cell = re.compile(r"^(\d+\.\d\d) \((\d+)\)$")
    for name in ("ReliefF", "dReliefF", "pdReliefF"):
        for value in by_scorer[name][2:]:
            match = cell.match(value)
            assert match, value
            assert 0 <= float(match.group(1)) <= 100 and 1 <= int(match.group(2)) <= 56
    # the numbers are computed: the seed protocol's leave-one-out best for ReliefF with
    # the quick settings (k = 5), recomputed here
    data = datasets.lung_cancer()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReliefWarning)   # full runs: k = 10 >= 9 rows
        curve, = wrapper_curve(data, ReliefF(k_nearest=5), learner="1nn-vote", folds="loo",
                               protocol="paper")
    size, accuracy = reproduce.pooled_best(curve)
    assert by_scorer["ReliefF"][2] == f"{100 * accuracy:.2f} ({size})"
    # all features: one number per scheme, the same for both protocols
    all_row = by_scorer["all 56 features"]
    assert all_row[2] == all_row[4] and all_row[3] == all_row[5]
    assert float(all_row[2]) == pytest.approx(100 * curve.pooled_accuracy[-1], abs=0.005)


class _Recorder:
    """Wraps a scorer and records the row ids of every table it scores."""

    def __init__(self, scorer):
        self.scorer = scorer
        self.name = scorer.friendly_name
        self.ids_seen = []

    def __call__(self, data):
        self.ids_seen.append(frozenset(data.ids.tolist()))
        return self.scorer(data)


def test_real_data_honest_protocol_never_scores_the_held_out_row():
    recorders = []

    def make_scorers():
        made = [_Recorder(scorer) for scorer in reproduce._scorers(5)]
        recorders.extend(made)
        return made

    settings = dict(reproduce.SETTINGS["quick"], real_split_seeds=1, real_random_orders=1)
    result = reproduce.real_data_experiment(settings, lambda message: None,
                                            make_scorers=make_scorers)["lung cancer"]
    all_ids = recorders[0].ids_seen[0]          # the first scorer call: weights on all rows
    assert len(all_ids) == 32
    kinds = {"all rows": 0, "leave-one-out": 0, "5-fold": 0}
    for recorder in recorders:
        seen = recorder.ids_seen
        if seen == [all_ids]:                       # weights on all rows (seed protocol)
            kinds["all rows"] += 1
            continue
        held_out = [all_ids - ids for ids in seen]
        assert all(ids < all_ids for ids in seen)   # never the whole table
        assert sorted(map(len, held_out)) in ([1] * 32, [6, 6, 6, 7, 7])
        # every row is held out exactly once, and then not scored
        assert frozenset().union(*held_out) == all_ids
        assert sum(map(len, held_out)) == len(all_ids)
        kinds["leave-one-out" if len(seen) == 32 else "5-fold"] += 1
    # weights once, seed protocol leave-one-out and 5-fold (3 scorers each); honest
    # leave-one-out and 5-fold (3 scorers each)
    assert kinds == {"all rows": 9, "leave-one-out": 3, "5-fold": 3}
    honest = result["curves"]["honest", "loo"]
    assert [len(curve.fold_orders) for curve in honest] == [32, 32, 32]
