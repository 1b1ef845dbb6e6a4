"""Instance weights on every surface (issue 40, item 1): Orange's scorers
read ``Table.W``, ``ReliefFSelector.fit`` takes ``sample_weight``, the
command line a weight column (``--weight NAME``, or the file's weight
flag), the significance tests and the wrappers pass the weights to every
run, and the widgets say that they use them.  An instance of weight w
counts as w copies of itself, so integer weights give the weights of the
table with each row repeated w times (doc/semantics.md, "Instance
weights")."""
import json

import numpy as np
import pytest
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.widgets.tests.base import WidgetTest

from orangecontrib.relief import stats
from orangecontrib.relief.cli import main
from orangecontrib.relief.core import relieff
from orangecontrib.relief.scoring import (DReliefF, IReliefF, ReliefF,
                                          table_weights)
from orangecontrib.relief.sklearn import (IterSelector, ReliefFSelector,
                                          TuRFSelector, VLSSelector)
from orangecontrib.relief.widgets.owrelieff import OWReliefF
from orangecontrib.relief.wrappers.iterated import Iter, iter_relief
from orangecontrib.relief.wrappers.turf import TuRF, turf
from orangecontrib.relief.wrappers.vls import VLS, vls

TOLERANCE = 1e-12


def arrays(seed=0, n=30, regression=False, missing=True):
    """Numeric and nominal features (some missing), a class or a number,
    and integer weights 0, 1, 2, 3 (each at least once)."""
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.random(n), rng.random(n),
                         rng.integers(0, 3, n), rng.integers(0, 2, n)])
    X = X.astype(float)
    if missing:
        X[rng.random(X.shape) < 0.08] = np.nan
    signal = np.nan_to_num(X[:, 0]) + np.nan_to_num(X[:, 2]) / 2
    y = signal + 0.1 * rng.random(n) if regression \
        else (signal > np.median(signal)).astype(float)
    weights = rng.integers(0, 4, n)
    weights[:4] = [0, 1, 2, 3]
    return X, y, weights


def domain(regression=False):
    return Domain([ContinuousVariable("x0"), ContinuousVariable("x1"),
                   DiscreteVariable("c2", values=("a", "b", "c")),
                   DiscreteVariable("c3", values=("u", "v"))],
                  ContinuousVariable("target") if regression
                  else DiscreteVariable("class", values=("no", "yes")))


def tables(regression=False, missing=True, seed=0):
    """(the table with Table.W, the table with each row repeated w
    times)."""
    X, y, weights = arrays(seed, regression=regression, missing=missing)
    weighted = Table.from_numpy(domain(regression), X, y,
                                W=weights.astype(float))
    rows = np.repeat(np.arange(len(y)), weights)
    return weighted, Table.from_numpy(domain(regression), X[rows], y[rows])


# -- Orange's scorers: Table.W --------------------------------------------

SCORERS = {
    "ReliefF k": lambda: ReliefF(k_nearest=3),
    "ReliefF surf": lambda: ReliefF(neighbours="surf"),
    "ReliefF multisurf": lambda: ReliefF(neighbours="multisurf"),
    "Relief-E, rank weights": lambda: ReliefF(k_nearest=4, misses="any",
                                              weight_by_distance=True),
}


@pytest.mark.parametrize("name", SCORERS)
@pytest.mark.parametrize("regression", [False, True])
def test_scorers_read_table_w_as_repeated_rows(name, regression):
    weighted, repeated = tables(regression)
    scorer = SCORERS[name]()
    np.testing.assert_allclose(scorer(weighted), scorer(repeated), rtol=0,
                               atol=TOLERANCE)


def test_irelief_scorer_reads_table_w():
    weighted, repeated = tables(missing=False)
    scorer = IReliefF(sigma=0.5, max_iterations=5, tolerance=1e-300,
                      damping=None)
    with pytest.warns(UserWarning, match="did not converge"):
        got = scorer(weighted)
    with pytest.warns(UserWarning, match="did not converge"):
        expected = scorer(repeated)
    np.testing.assert_allclose(got, expected, rtol=0, atol=TOLERANCE)


def test_rank_s_call_and_one_feature_use_the_weights():
    weighted, repeated = tables()
    scorer = ReliefF(k_nearest=3)
    np.testing.assert_allclose(scorer.score_data(weighted)[0],
                               scorer(repeated), rtol=0, atol=TOLERANCE)
    assert scorer(weighted, "c2") == pytest.approx(scorer(repeated, "c2"),
                                                   abs=TOLERANCE)


def test_weights_all_one_are_no_weights():
    weighted, _ = tables()
    with weighted.unlocked():
        weighted.W[:] = 1.0
    plain = Table.from_numpy(weighted.domain, weighted.X, weighted.Y)
    assert table_weights(weighted) is None
    np.testing.assert_array_equal(ReliefF()(weighted), ReliefF()(plain))


@pytest.mark.parametrize("value, message", [
    (-1.0, ">= 0"), (np.nan, "finite"), (np.inf, "finite")])
def test_bad_table_weights_are_named(value, message):
    weighted, _ = tables()
    with weighted.unlocked():
        weighted.W[5] = value
    with pytest.raises(ValueError, match=r"Table\.W.*" + message):
        ReliefF()(weighted)


def test_weka_refuses_weights_with_a_sentence():
    weighted, _ = tables()
    with pytest.raises(ValueError, match="Weka.*ignores instance weights"):
        ReliefF(compat="weka")(weighted)


def test_feedback_variant_uses_the_weights():
    weighted, repeated = tables(missing=False)
    plain = Table.from_numpy(weighted.domain, weighted.X, weighted.Y)
    assert np.abs(DReliefF()(weighted) - DReliefF()(plain)).max() > 1e-6


# -- the significance tests ------------------------------------------------

def test_permutation_test_keeps_each_weight_with_its_row():
    """The observed weights are the weighted run's, and a row of weight 0
    is drawn as the row removed: the same p-values, to the bit."""
    X, y, weights = arrays()
    kept = weights > 0
    options = dict(k_nearest=3, n_permutations=9, permutation_seed=3)
    got = stats.permutation_test(X, y, instance_weights=np.minimum(
        weights, 1), **options)
    removed = stats.permutation_test(X[kept], y[kept], **options)
    np.testing.assert_array_equal(got.p_values, removed.p_values)
    np.testing.assert_array_equal(got.weights, removed.weights)
    weighted = stats.permutation_test(X, y, instance_weights=weights,
                                      **options)
    np.testing.assert_allclose(
        weighted.weights, relieff(X, y, k_nearest=3,
                                  instance_weights=weights).weights,
        rtol=0, atol=0)
    assert weighted.p_max_t is not None


def test_feature_permutation_draws_among_rows_of_positive_weight():
    X, y, weights = arrays()
    kept = weights > 0
    options = dict(k_nearest=3, n_permutations=4, permute="feature",
                   permutation_seed=5)
    got = stats.permutation_test(X, y, instance_weights=np.minimum(
        weights, 1), **options)
    removed = stats.permutation_test(X[kept], y[kept], **options)
    np.testing.assert_array_equal(got.p_values, removed.p_values)


def test_stability_draws_each_row_with_its_weight():
    X, y, weights = arrays()
    kept = weights > 0
    options = dict(k_nearest=3, n_resamples=4, resample_seed=2, top_k=2)
    got = stats.stability(X, y, instance_weights=np.minimum(weights, 1),
                          **options)
    removed = stats.stability(X[kept], y[kept], **options)
    np.testing.assert_array_equal(got.ranks, removed.ranks)
    weighted = stats.stability(X, y, instance_weights=weights, **options)
    assert weighted.ranks.shape == (4, X.shape[1])


def test_scorer_significance_uses_table_w():
    weighted, repeated = tables()
    test = ReliefF(k_nearest=3).significance(weighted, n_permutations=5)
    np.testing.assert_allclose(test.weights, ReliefF(k_nearest=3)(repeated),
                               rtol=0, atol=TOLERANCE)


@pytest.mark.parametrize("test", ["npdr", "npdr_permutation"])
def test_npdr_through_the_scorer_uses_table_w(test):
    """(tests/test_npdr_instance_weights.py has NPDR's numbers.)"""
    weighted, repeated = tables(missing=False)
    got = ReliefF(k_nearest=3).significance(weighted, test,
                                            n_permutations=3)
    expected = ReliefF(k_nearest=3).significance(repeated, test,
                                                 n_permutations=3)
    np.testing.assert_allclose(got.t, expected.t, rtol=1e-9, atol=1e-9)


# -- the wrappers ----------------------------------------------------------

def test_wrappers_pass_the_weights_to_every_run():
    X, y, weights = arrays()
    rows = np.repeat(np.arange(len(y)), weights)
    for run in (lambda **o: turf(remove=0.25, **o)[0],
                lambda **o: iter_relief(max_iter=3, **o)[0],
                lambda **o: vls(num_feature_subset=3, size_feature_subset=2,
                                random_state=1, **o)[0]):
        got = run(X=X, y=y, k_nearest=3, instance_weights=weights)
        expected = run(X=X[rows], y=y[rows], k_nearest=3)
        np.testing.assert_allclose(got, expected, rtol=0, atol=1e-10)


def test_wrapper_scorers_read_table_w():
    weighted, repeated = tables()
    for wrapper in (TuRF(ReliefF(k_nearest=3), remove=0.25),
                    Iter(ReliefF(k_nearest=3), max_iter=3),
                    VLS(ReliefF(k_nearest=3), num_feature_subset=3,
                        size_feature_subset=2, random_state=1)):
        np.testing.assert_allclose(wrapper(weighted), wrapper(repeated),
                                   rtol=0, atol=1e-10)


# -- scikit-learn: sample_weight -------------------------------------------

def test_selector_sample_weight_equals_repeated_rows():
    X, y, weights = arrays()
    rows = np.repeat(np.arange(len(y)), weights)
    got = ReliefFSelector(n_neighbors=3).fit(X, y, sample_weight=weights)
    expected = ReliefFSelector(n_neighbors=3).fit(X[rows], y[rows])
    np.testing.assert_allclose(got.feature_importances_,
                               expected.feature_importances_, rtol=0,
                               atol=TOLERANCE)
    for cls in (TuRFSelector, IterSelector, VLSSelector):
        outer = cls(ReliefFSelector(n_neighbors=3))
        np.testing.assert_allclose(
            outer.fit(X, y, sample_weight=weights).feature_importances_,
            cls(ReliefFSelector(n_neighbors=3)).fit(
                X[rows], y[rows]).feature_importances_, rtol=0, atol=1e-10)


def test_selector_threshold_test_takes_sample_weight():
    X, y, weights = arrays()
    selector = ReliefFSelector(n_neighbors=3, threshold="p:0.5",
                               n_permutations=9)
    selector.fit(X, y, sample_weight=weights)
    assert selector.p_values_.shape == (X.shape[1],)


@pytest.mark.parametrize("weights, message", [
    (lambda n: np.r_[-1.0, np.ones(n - 1)], "[Nn]egative"),
    (lambda n: np.r_[np.nan, np.ones(n - 1)], "NaN"),
    (lambda n: np.ones(n - 1), "shape"),
])
def test_selector_checks_sample_weight_as_scikit_learn(weights, message):
    X, y, _ = arrays()
    with pytest.raises(ValueError, match=message):
        ReliefFSelector().fit(X, y, sample_weight=weights(len(y)))


# -- the command line ------------------------------------------------------

def write_tab(path, X, y, weights=None, flag=""):
    names = ["x0", "x1", "c2", "c3"]
    kinds = ["continuous"] * 2 + ["a b c", "u v"]
    header = names + (["w"] if weights is not None else []) + ["class"]
    types = kinds + (["continuous"] if weights is not None else []) \
        + ["no yes"]
    flags = [""] * 4 + ([flag] if weights is not None else []) + ["class"]
    lines = ["\t".join(header), "\t".join(types), "\t".join(flags)]
    for i in range(len(y)):
        values = ["?" if np.isnan(v) else repr(float(v)) for v in X[i, :2]]
        values += ["?" if np.isnan(X[i, 2]) else "abc"[int(X[i, 2])],
                   "?" if np.isnan(X[i, 3]) else "uv"[int(X[i, 3])]]
        if weights is not None:
            values.append(f"{weights[i]:g}")
        values.append(("no", "yes")[int(y[i])])
        lines.append("\t".join(values))
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def cli_weights(capsys, *argv):
    assert main(["score", *argv, "--format", "json", "--k", "3"]) == 0
    out = json.loads(capsys.readouterr().out)
    return {row["feature"]: row["weight"] for row in out}


def test_command_line_weight_column(tmp_path, capsys):
    X, y, weights = arrays()
    rows = np.repeat(np.arange(len(y)), weights)
    plain = write_tab(tmp_path / "w.tab", X, y, weights)
    marked = write_tab(tmp_path / "marked.tab", X, y, weights, "weight")
    repeated = write_tab(tmp_path / "r.tab", X[rows], y[rows])
    expected = cli_weights(capsys, repeated)
    got = cli_weights(capsys, plain, "--weight", "w")
    assert set(got) == {"x0", "x1", "c2", "c3"}      # w is no feature
    for name, value in expected.items():
        assert got[name] == pytest.approx(value, abs=1e-9)
    assert cli_weights(capsys, marked) == got
    unweighted = cli_weights(capsys, plain)          # w is a feature
    assert "w" in unweighted


def test_command_line_weight_errors(tmp_path, capsys):
    X, y, weights = arrays()
    weights = weights.astype(float)
    weights[3] = -2
    bad = write_tab(tmp_path / "bad.tab", X, y, weights)
    assert main(["score", bad, "--weight", "w"]) != 0
    err = capsys.readouterr().err
    assert "weight column 'w'" in err and ">= 0" in err
    assert main(["score", bad, "--weight", "nope"]) != 0
    assert "no column 'nope'" in capsys.readouterr().err
    assert main(["score", bad, "--weight", "c2"]) != 0
    assert "not numeric" in capsys.readouterr().err


# -- the widgets -----------------------------------------------------------

class TestWidgetWithWeights(WidgetTest):
    def setUp(self):
        self.widget = self.create_widget(OWReliefF)

    def test_weights_used_end_to_end(self):
        weighted, repeated = tables()
        widget = self.widget
        widget.k_nearest = 3
        self.send_signal(widget.Inputs.data, weighted)
        self.wait_until_finished(timeout=60000)
        self.assertTrue(widget.Information.instance_weights.is_shown())
        self.assertIn("Instance weights are used.",
                      str(widget.Information.instance_weights))
        scores = self.get_output(widget.Outputs.scores)
        np.testing.assert_allclose(scores.X[:, 0],
                                   ReliefF(k_nearest=3)(repeated), rtol=0,
                                   atol=TOLERANCE)
        scorer = self.get_output(widget.Outputs.scorer)
        np.testing.assert_allclose(scorer(weighted), scores.X[:, 0], rtol=0,
                                   atol=0)

    def test_weka_refusal_is_an_error_message(self):
        weighted, _ = tables()
        widget = self.widget
        self.send_signal(widget.Inputs.data, weighted)
        self.wait_until_finished(timeout=60000)
        widget.controls.weka_compat.setChecked(True)
        self.wait_until_finished(timeout=60000)
        self.assertTrue(widget.Error.compute_failed.is_shown())
        self.assertIn("ignores instance weights",
                      str(widget.Error.compute_failed))
        self.assertIsNone(self.get_output(widget.Outputs.scores))
