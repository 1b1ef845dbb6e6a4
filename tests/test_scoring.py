"""The Orange scorers: Scorer conventions, SelectBestFeatures, Rank, CorrAl."""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from Orange.data import (ContinuousVariable, DiscreteVariable, Domain,
                         StringVariable, Table)
from Orange.preprocess.fss import SelectBestFeatures
from Orange.widgets.data.owrank import OWRank
from Orange.widgets.tests.base import WidgetTest

from orangecontrib.relief import (DReliefF, IReliefF, Iter, PDReliefF,
                                  ReliefF, ReliefWarning, RReliefF, TuRF,
                                  VLS, relieff, scoring, stats)
from orangecontrib.relief.scoring import SelectSignificant
from orangecontrib.relief.datasets import corral
from devices import (TOLERANCE, needs_cuda, no_gpu,  # noqa: F401
                     recording_engine, recording_runs, tiny)
from orangecontrib.relief.core import engine

SCORERS = [ReliefF, DReliefF, PDReliefF]


def mixed_table(n=40, seed=0, missing=True, regression=False):
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.random(n), rng.integers(0, 3, n), rng.random(n),
                         rng.integers(0, 2, n)]).astype(float)
    if missing:
        X[rng.random(X.shape) < 0.1] = np.nan
    attrs = [ContinuousVariable("x1"), DiscreteVariable("d1", "abc"),
             ContinuousVariable("x2"), DiscreteVariable("d2", "ab")]
    if regression:
        y = X[:, 0] * 3 + rng.random(n)
        y = np.nan_to_num(y, nan=1.0)
        class_var = ContinuousVariable("y")
    else:
        y = (np.nan_to_num(X[:, 0]) > 0.5).astype(float)
        class_var = DiscreteVariable("y", ("no", "yes"))
    metas = np.array([[f"row {i}"] for i in range(n)], dtype=object)
    domain = Domain(attrs, class_var, [StringVariable("name")])
    return Table.from_numpy(domain, X, y, metas)


@pytest.mark.parametrize("Scorer", SCORERS)
def test_scorer_equals_engine_and_conventions(Scorer):
    table = mixed_table()
    scorer = Scorer(k_nearest=5)
    weights = scorer(table)
    expected = relieff(table.X, table.Y, [False, True, False, True],
                       variant=scorer.variant, k_nearest=5).weights
    np.testing.assert_array_equal(weights, expected)
    assert weights.shape == (4,)
    # one feature, in the context of all (by name, by variable, by index)
    assert scorer(table, "d1") == weights[1]
    assert scorer(table, table.domain["x2"]) == weights[2]
    assert scorer(table, 3) == weights[3]
    # Rank's call: 1 x n_attributes; Scorer's convention: 1-D
    np.testing.assert_array_equal(scorer.score_data(table), weights[None, :])
    np.testing.assert_array_equal(scorer.score_data(table, None), weights)
    assert scorer.score_data(table, "d1") == weights[1]


def test_names_and_repr():
    """Column names short enough for Rank's columns: the algorithm, with k
    where it is not 10, or the rule; ReliefF and RReliefF always say k, so
    neither can be taken for Orange's own (a 50-instance sample)."""
    assert [S().name for S in SCORERS + [RReliefF]] == \
        ["ReliefF k10", "dReliefF", "pdReliefF", "RReliefF k10"]
    assert ReliefF(neighbours="multisurf").name == "MultiSURF"
    assert ReliefF(neighbours="surf*").name == "SURF*"
    assert PDReliefF(neighbours="multisurf").name == "pdReliefF (MultiSURF)"
    assert RReliefF(neighbours="surf").name == "RReliefF (SURF)"
    assert ReliefF(k_nearest=5).name == "ReliefF k5"
    assert DReliefF(k_nearest=5).name == "dReliefF k5"
    assert repr(PDReliefF(k_nearest=5, T=0.5)) == \
        "PDReliefF(k_nearest=5, T=0.5)"


def test_numeric_class_switches_to_rrelieff():
    table = mixed_table(regression=True)
    w = ReliefF(k_nearest=5)(table)
    np.testing.assert_array_equal(w, RReliefF(k_nearest=5)(table))
    expected = relieff(table.X, table.Y, [False, True, False, True],
                       regression=True, k_nearest=5).weights
    np.testing.assert_array_equal(w, expected)
    assert w[0] == w.max()              # y depends on x1
    assert PDReliefF(k_nearest=5).score_table(table).regression


def test_rrelieff_by_name_needs_numeric_class():
    with pytest.raises(ValueError, match="numeric target"):
        RReliefF()(mixed_table())


def test_select_best_features():
    table = corral()
    for Scorer in SCORERS:
        selected = SelectBestFeatures(method=Scorer(k_nearest=5), k=4)(table)
        assert {v.name for v in selected.domain.attributes} == \
            {"A0", "A1", "B0", "B1"}, Scorer


def test_bad_input():
    table = mixed_table()
    no_class = table.transform(Domain(table.domain.attributes))
    with pytest.raises(ValueError, match="target variable"):
        ReliefF()(no_class)
    with pytest.raises(ValueError, match="k_nearest"):
        ReliefF(k_nearest=0)
    with pytest.raises(ValueError, match="n_iterations"):
        ReliefF(n_iterations=1000)(table)
    with pytest.raises(ValueError, match="misses"):
        DReliefF(misses="nearest")
    with pytest.raises(ValueError, match="at least two instances"):
        ReliefF()(table[:0])
    # NaN in the class: those rows are dropped, with a warning
    with table.unlocked(table.Y):
        table.Y[:3] = np.nan
    with pytest.warns(ReliefWarning, match="3 instance"):
        w = ReliefF(k_nearest=5)(table)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReliefWarning)
        np.testing.assert_array_equal(w, ReliefF(k_nearest=5)(table[3:]))
    # one class value: all zeros, with a warning
    one_class = table[3:].copy()
    with one_class.unlocked(one_class.Y):
        one_class.Y[:] = 1
    with pytest.warns(ReliefWarning, match="only one class"):
        np.testing.assert_array_equal(ReliefF()(one_class), 0)


def test_sparse_table():
    table = mixed_table(missing=False)
    X = table.X.copy()
    X[:, [0, 2]] *= np.random.default_rng(0).random((len(X), 2)) < 0.3
    dense = Table.from_numpy(table.domain, X, table.Y, table.metas)
    sparse = Table.from_numpy(table.domain, sp.csr_matrix(X), table.Y,
                              table.metas)
    np.testing.assert_allclose(ReliefF()(sparse), ReliefF()(dense),
                               atol=1e-15)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_corral_160_rows_like_the_paper(seed):
    """Seed Table corral (k=5): all three rank Irrelevant last; separability
    grows from ReliefF to dReliefF to pdReliefF (measured: 0.166, 0.25-0.27,
    0.31-0.32 for seeds 0-2)."""
    table = corral(160)
    names = [v.name for v in table.domain.attributes]
    separability = []
    for Scorer in SCORERS:
        w = dict(zip(names, Scorer(k_nearest=5, random_state=seed)(table)))
        assert min(w, key=w.get) == "Irrelevant", Scorer
        separability.append(min(w["A0"], w["A1"], w["B0"], w["B1"])
                            - max(w["Irrelevant"], w["Correlated"]))
    assert 0 < separability[0] < separability[1] < separability[2]


def test_corral_32_rows_relieff_prefers_correlated():
    w = ReliefF(k_nearest=5)(corral(32))
    assert np.argmax(w) == 5        # Correlated, the paper's trap


class TestRankWidget(WidgetTest):
    def setUp(self):
        self.widget = self.create_widget(OWRank)

    def test_scorer_columns_equal_scorer_output(self):
        table = mixed_table()
        scorers = [ReliefF(k_nearest=5), DReliefF(k_nearest=5),
                   PDReliefF(k_nearest=5)]
        self.send_signal(self.widget.Inputs.data, table)
        for i, scorer in enumerate(scorers, start=1):
            self.send_signal(self.widget.Inputs.scorer, scorer, i)
        self.wait_until_finished()
        scores = self.get_output(self.widget.Outputs.scores)
        names = [v.name for v in scores.domain.attributes]
        for scorer in scorers:
            column = scores.get_column(names.index(scorer.name))
            np.testing.assert_allclose(column, scorer(table), atol=1e-15)

    def test_regression_data(self):
        table = mixed_table(regression=True)
        self.send_signal(self.widget.Inputs.data, table)
        self.send_signal(self.widget.Inputs.scorer, ReliefF(k_nearest=5), 1)
        self.wait_until_finished()
        scores = self.get_output(self.widget.Outputs.scores)
        names = [v.name for v in scores.domain.attributes]
        np.testing.assert_allclose(
            scores.get_column(names.index("ReliefF k5")),
            ReliefF(k_nearest=5)(table), atol=1e-15)


def test_class_smaller_than_k_is_named_by_its_value():
    """The warning about a class not bigger than k names the class by its
    value (yes/no), not by its code, and lists at most five of many."""
    rng = np.random.default_rng(0)
    X = rng.random((14, 2))
    y = np.array([0.0] * 5 + [1.0] * 9)
    table = Table.from_numpy(
        Domain([ContinuousVariable("a"), ContinuousVariable("b")],
               DiscreteVariable("play", ("no", "yes"))), X, y)
    with pytest.warns(ReliefWarning) as caught:
        ReliefF(k_nearest=10)(table)
    text = str(caught[0].message)
    assert "classes 'no' (5 instances), 'yes' (9 instances)" in text
    assert "code" not in text and "[0, 1]" not in text
    # 1,000 classes of two instances each: five are named, then a count
    n_classes = 1000
    many = Table.from_numpy(
        Domain([ContinuousVariable("a")],
               DiscreteVariable("c", [f"c{i}" for i in range(n_classes)])),
        np.arange(2 * n_classes, dtype=float)[:, None],
        np.arange(2 * n_classes, dtype=float) % n_classes)
    with pytest.warns(ReliefWarning) as caught:
        ReliefF(k_nearest=2, n_iterations=1)(many)
    text = str(caught[0].message)
    assert "'c0' (2 instances)" in text and "'c4' (2 instances)" in text
    assert "'c5'" not in text and "995 more" in text
    assert len(text) < 300


# -- device= ------------------------------------------------------------------

def tiny_table(regression=False):
    """20 rows x 4 features (2 numeric, 2 nominal): the GPU simulator is
    slow (tests/devices.py)."""
    X, y, _ = tiny(regression=regression)
    attrs = [ContinuousVariable("x1"), ContinuousVariable("x2"),
             DiscreteVariable("d1", "abc"), DiscreteVariable("d2", "abc")]
    class_var = ContinuousVariable("y") if regression \
        else DiscreteVariable("y", ("no", "yes"))
    return Table.from_numpy(Domain(attrs, class_var), X, y)


@needs_cuda
@pytest.mark.parametrize("Scorer, regression",
                         [(ReliefF, False), (RReliefF, True)])
def test_device_cuda_gives_the_cpu_weights(Scorer, regression):
    table = tiny_table(regression)
    scorer = Scorer(k_nearest=3, device="cuda")
    assert scorer.device == "cuda" and scorer._options()["device"] == "cuda"
    np.testing.assert_allclose(scorer(table),
                               Scorer(k_nearest=3, device="cpu")(table),
                               rtol=0, atol=TOLERANCE)


@needs_cuda
def test_device_cuda_for_the_feedback_variants():
    # (one visit at a time on the GPU: the slowest under the simulator)
    table = tiny_table()[:10]
    for Scorer in (DReliefF, PDReliefF):
        np.testing.assert_allclose(
            Scorer(k_nearest=2, device="cuda")(table),
            Scorer(k_nearest=2)(table), rtol=0, atol=TOLERANCE)


def test_device_auto_without_a_gpu_runs_on_the_cpu_and_says_so(no_gpu):
    table = tiny_table()
    with pytest.warns(ReliefWarning, match="runs on the CPU: no CUDA GPU"):
        auto = ReliefF(k_nearest=3, device="auto")(table)
    np.testing.assert_array_equal(auto, ReliefF(k_nearest=3)(table))


def test_device_cuda_without_a_gpu_says_what_is_missing(no_gpu):
    with pytest.raises(RuntimeError, match="no CUDA GPU was found"):
        ReliefF(k_nearest=3, device="cuda")(tiny_table())


def test_bad_device_names_the_choices():
    for Scorer in SCORERS + [RReliefF]:
        with pytest.raises(ValueError, match="'cpu', 'cuda' or 'auto'"):
            Scorer(device="gpu")
    assert ReliefF().device is None          # the environment's, at run time
    assert "device" not in repr(ReliefF())
    assert repr(ReliefF(device="cuda")) == "ReliefF(device='cuda')"
    # I-RELIEF runs on the CPU, whatever the environment says
    assert IReliefF()._options()["device"] == "cpu"


@needs_cuda
def test_device_cuda_does_not_cover_weka():
    with pytest.raises(ValueError, match="compat='weka'"):
        ReliefF(device="cuda", compat="weka")(tiny_table())


def test_a_clusters_device_is_checked():
    """On a cluster the workers' GPUs run the tasks (test_distributed.py);
    the scorer checks the value when made."""
    assert ReliefF(device="cuda", client=object()).device == "cuda"
    with pytest.raises(ValueError, match="'cpu', 'cuda' or 'auto'"):
        ReliefF(device="gpu", client=object())


def test_wrappers_keep_the_scorers_device(monkeypatch):
    """TuRF, Iter and VLS rerun (copies of) their scorer: each run is told
    the scorer's device."""
    devices = []
    monkeypatch.setattr(scoring, "relieff", recording_engine(devices))
    table = tiny_table()
    for wrapper in (TuRF(ReliefF(k_nearest=3, device="cuda"), remove=0.5),
                    Iter(DReliefF(k_nearest=3, device="cuda"), max_iter=2),
                    VLS(ReliefF(k_nearest=3, device="cuda"),
                        num_feature_subset=2, size_feature_subset=2)):
        devices.clear()
        wrapper(table)
        assert len(devices) >= 2 and set(devices) == {"cuda"}, wrapper.name


@pytest.mark.filterwarnings("ignore::orangecontrib.relief.ReliefWarning")
def test_significance_and_select_significant_keep_the_device(monkeypatch):
    told = []
    monkeypatch.setattr(stats, "relieff", recording_engine(told))
    monkeypatch.setattr(engine, "run_setup", recording_runs(told))
    table = tiny_table()
    scorer = ReliefF(k_nearest=3, device="cuda")
    SelectSignificant(scorer, alpha=0.5, n_permutations=3)(table)
    assert told == ["cuda"] * 4            # the test's fit and 3 refits
    scorer.stability(table, n_resamples=2)
    assert told == ["cuda"] * 7
    # NPDR takes the scorers' options, device included (and runs on the CPU)
    assert scorer.significance(table, method="npdr").p_values.shape == (4,)
