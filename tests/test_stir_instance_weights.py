"""STIR, the redundancy from updates and NPDR's permutation null model with
instance weights (issue 40, item 1): an instance of weight w counts as w
copies of itself, so integer weights give the statistics of the table with
each row repeated w times (doc/semantics.md, "Instance weights"; the
sums: ``pair_sums.add_copy_pair_sums``)."""
import json

import numpy as np
import pytest
from numpy.testing import assert_allclose
from Orange.widgets.tests.base import WidgetTest

from orangecontrib.relief import stats
from orangecontrib.relief.cli import main
from orangecontrib.relief.core import relieff
from orangecontrib.relief.scoring import DReliefF, ReliefF
from orangecontrib.relief.stats.npdr_parts import (Covariates, Permuter,
                                                   strata, weighted_quantiles)
from orangecontrib.relief.widgets.owdrelieff import OWDReliefF
from orangecontrib.relief.widgets.owrelieff import OWReliefF
from stir_reference import reference_stir
from test_instance_weights_surfaces import arrays, tables, write_tab

NOMINAL = [False, False, True, True]
TOLERANCE = 1e-12
RULES = {"k": dict(k_nearest=3), "multisurf": dict(neighbours="multisurf")}


def repeated(X, y, weights):
    rows = np.repeat(np.arange(len(y)), weights)
    return X[rows], y[rows]


def assert_same_test(got, expected):
    """The same STIR statistics: weights, t, p-values and pair counts."""
    assert got.df == pytest.approx(expected.df, rel=TOLERANCE)
    for field in ("weights", "t", "p_values", "q_values"):
        assert_allclose(getattr(got, field), getattr(expected, field),
                        rtol=TOLERANCE, atol=TOLERANCE, err_msg=field)


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("missing", [False, True])
def test_stir_integer_weights_are_repeated_rows(rule, missing):
    """Weights 0-3 on numeric and nominal features; without missing
    values the compiled weighted loop gathers the sums, with them the NumPy
    backend (``vectorised``) does."""
    X, y, weights = arrays(missing=missing)
    got = stats.stir(X, y, NOMINAL, instance_weights=weights, **RULES[rule])
    assert_same_test(got, stats.stir(*repeated(X, y, weights), NOMINAL,
                                     **RULES[rule]))


@pytest.mark.parametrize("rule", RULES)
def test_stir_numpy_backend_equals_the_compiled_loop(rule):
    X, y, _ = arrays(missing=False)
    weights = np.random.default_rng(1).uniform(0.2, 2.5, len(y))
    weights[0] = 0.0
    got = stats.stir(X, y, NOMINAL, instance_weights=weights,
                     kernels="vectorised", **RULES[rule])
    assert_same_test(got, stats.stir(X, y, NOMINAL, instance_weights=weights,
                                     kernels="compiled", **RULES[rule]))


def test_stir_weights_against_the_reference_on_repeated_rows():
    """tests/stir_reference.py (loop by loop, sharing no code with the
    engine) on the repeated table."""
    X, y, weights = arrays(missing=True, n=16)
    got = stats.stir(X, y, NOMINAL, instance_weights=weights, k_nearest=3)
    Xr, yr = repeated(X, y, weights)
    ref = reference_stir(Xr, yr, NOMINAL, k=3)
    assert got.df == pytest.approx(ref["df"], rel=TOLERANCE)
    assert_allclose(got.weights, ref["weights"], atol=TOLERANCE)
    assert_allclose(got.t, ref["t"], rtol=1e-10, atol=1e-10)
    assert_allclose(got.p_values, ref["p"], rtol=1e-10, atol=TOLERANCE)


@pytest.mark.filterwarnings("ignore:k_nearest=100")
def test_fractional_weights_follow_the_definition():
    """Every other instance a neighbour (k above the total weight), two
    classes: a visit of weight w_R with a neighbour j of share
    s = w_j / (its group's weight) counts w_R s pairs, and its copies
    add w_R s^2 / w_j to sum w^2 (doc/semantics.md)."""
    rng = np.random.default_rng(3)
    n = 9
    X = np.column_stack([rng.random(n), rng.integers(0, 3, n)]).astype(float)
    y = np.array([0, 1] * 4 + [1], float)
    w = rng.uniform(0.3, 2.6, n)
    sums = relieff(X, y, [False, True], k_nearest=100, statistics=True,
                   instance_weights=w).pair_sums
    d = np.stack([np.abs(X[:, None, 0] - X[None, :, 0]) / np.ptp(X[:, 0]),
                  (X[:, None, 1] != X[None, :, 1]).astype(float)], axis=-1)
    expected = {key: 0.0 for key in ("W_hit", "Q_hit", "W_miss", "Q_miss")}
    expected.update({key: np.zeros(2) for key in
                     ("S1_hit", "S2_hit", "S1_miss", "S2_miss")})
    for r in range(n):
        copies = w.copy()
        copies[r] = max(w[r] - 1, 0.0)       # R's own copies are hits
        for g, members in (("hit", (y == y[r]) & (copies > 0)),
                           ("miss", y != y[r])):
            share = np.where(members, copies, 0.0) / copies[members].sum()
            expected["W_" + g] += w[r] * share.sum()
            expected["Q_" + g] += w[r] * np.sum(share[members] ** 2
                                                / copies[members])
            expected["S1_" + g] += w[r] * share @ d[r]
            expected["S2_" + g] += w[r] * share @ d[r] ** 2
    for key, value in expected.items():
        assert_allclose(sums[key], value, rtol=1e-13, err_msg=key)


def test_stir_weights_through_the_scorer_and_the_command_line(tmp_path,
                                                              capsys):
    assert stats.TESTS["stir"].unsupported(instance_weights=True) is None
    weighted, repeated_table = tables(missing=False)
    got = ReliefF(k_nearest=3).significance(weighted, "stir")
    assert_same_test(got, ReliefF(k_nearest=3).significance(repeated_table,
                                                            "stir"))
    X, y, weights = arrays(missing=False)

    def p_values(*argv):
        assert main(["score", *argv, "--test", "stir", "--k", "3",
                     "--format", "json"]) == 0
        return {row["feature"]: row["p"]
                for row in json.loads(capsys.readouterr().out)}
    plain = p_values(write_tab(tmp_path / "w.tab", X, y, weights),
                     "--weight", "w")
    rows = p_values(write_tab(tmp_path / "r.tab", *repeated(X, y, weights)))
    assert plain.keys() == rows.keys()
    assert_allclose([plain[f] for f in rows], list(rows.values()),
                    rtol=1e-10, atol=TOLERANCE)


def test_stir_weights_bad_input_gets_a_sentence():
    X, y, weights = arrays(missing=False)
    for bad, words in ((weights[:-1], "one weight per row"),
                       (-weights, ">= 0"),
                       (np.where(weights == 1, np.nan, weights), "finite"),
                       (np.where(weights == 1, np.inf, weights), "finite"),
                       (["a"] * len(y), "numbers, one per row")):
        with pytest.raises(ValueError, match=words):
            stats.stir(X, y, NOMINAL, instance_weights=bad)
    with pytest.raises(ValueError, match="regression"):
        stats.stir(X, y, NOMINAL, instance_weights=weights, regression=True)
    with pytest.raises(ValueError, match="dense data and no trace"):
        relieff(X, y, NOMINAL, statistics=True, trace_every=5,
                instance_weights=weights)


# -- the redundancy from updates ----------------------------------------------

@pytest.mark.parametrize("missing", [False, True])
def test_redundancy_integer_weights_are_repeated_rows(missing):
    weighted, repeated_table = tables(missing=missing)
    got = ReliefF(k_nearest=3).redundancy(weighted)
    expected = ReliefF(k_nearest=3).redundancy(repeated_table)
    np.testing.assert_array_equal(got.features, expected.features)
    assert_allclose(got.matrix, expected.matrix, atol=TOLERANCE)
    assert_allclose(got.weights, expected.weights, atol=TOLERANCE)


def test_redundancy_of_sequential_variants_refuses_weights():
    weighted, _ = tables()
    with pytest.raises(ValueError, match="variant='relieff'"):
        DReliefF().redundancy(weighted)


# -- NPDR's permutation null model --------------------------------------------

def covariate_data(seed=0, n=40):
    rng = np.random.default_rng(seed)
    C = np.column_stack([rng.normal(size=n), rng.integers(0, 3, n)])
    covariates = Covariates(C, np.array([False, True]), ("a", "b"))
    weights = rng.integers(1, 4, n)
    rows = np.repeat(np.arange(n), weights)
    return (covariates, weights.astype(float), rows,
            Covariates(C[rows], covariates.nominal, covariates.names), rng)


def test_npdr_null_model_integer_weights_are_repeated_rows():
    covariates, w, rows, repeated_covariates, rng = covariate_data()
    C = covariates.values
    levels = np.linspace(0, 1, 5)[1:-1]
    assert_allclose(weighted_quantiles(C[:, 0], w, levels),
                    np.quantile(C[rows, 0], levels), rtol=0, atol=0)
    np.testing.assert_array_equal(strata(covariates, 4, w)[rows],
                                  strata(repeated_covariates, 4))
    y = ((C[:, 0] + rng.normal(size=len(w)) > 0)
         + (C[:, 1] == 2)).astype(float)
    model = Permuter(y, covariates, False, 3, 1, weights=w)
    assert_allclose(model.cumulative[rows],
                    Permuter(y[rows], repeated_covariates, False, 3,
                             1).cumulative, atol=1e-9)
    number = 2 * C[:, 0] + rng.normal(size=len(w))
    model = Permuter(number, covariates, True, 3, 1, weights=w)
    expected = Permuter(number[rows], repeated_covariates, True, 3, 1)
    assert_allclose(model.fitted[rows], expected.fitted, atol=TOLERANCE)
    assert_allclose(model.residuals[rows], expected.residuals,
                    atol=TOLERANCE)
    drawn = model.draw()        # each residual moves, the weights stay
    assert_allclose(np.sort(drawn - model.fitted), np.sort(model.residuals))


@pytest.mark.filterwarnings("ignore:NPDR cannot estimate")
def test_npdr_permutation_fits_its_null_model_with_the_weights(monkeypatch):
    """The run's Permuter gets the weights of the rows it draws (weight 0
    and missing targets left out), and the observed statistic is the
    repeated table's; the draws themselves keep every weight with its row,
    so the p-values equal the repeated table's in distribution only."""
    made = []

    class Spy(Permuter):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append((args, kwargs))
    monkeypatch.setattr(stats, "Permuter", Spy)
    X, y, weights = arrays(missing=False, regression=True)
    C = np.random.default_rng(5).normal(size=(len(y), 1))
    got = stats.npdr_permutation(X, y, NOMINAL, covariates=C, k_nearest=3,
                                 n_permutations=3, instance_weights=weights,
                                 regression=True)
    (drawn_y, _, regression, _, _, _, used), _ = made[0]
    assert regression
    np.testing.assert_array_equal(used, weights[weights > 0])
    Xr, yr = repeated(X, y, weights)
    rows = np.repeat(np.arange(len(y)), weights)
    expected = stats.npdr(Xr, yr, NOMINAL, covariates=C[rows], k_nearest=3,
                          regression=True)
    assert_allclose(drawn_y, y[weights > 0])
    assert_allclose(got.t, expected.t, rtol=1e-9, atol=1e-9)


# -- the widgets --------------------------------------------------------------

class TestWidgetsWithWeights(WidgetTest):
    def test_stir_p_values_of_table_w(self):
        weighted, repeated_table = tables(missing=False)
        widget = self.create_widget(OWReliefF)
        widget.k_nearest = 3
        widget.significance_test = "stir"
        self.send_signal(widget.Inputs.data, weighted, widget=widget)
        self.wait_until_finished(widget, timeout=60000)
        self.assertFalse(widget.Error.compute_failed.is_shown())
        scores = self.get_output(widget.Outputs.scores, widget=widget)
        assert_allclose(scores.get_column("p"), ReliefF(k_nearest=3)
                        .significance(repeated_table, "stir").p_values,
                        rtol=1e-10, atol=TOLERANCE)

    def test_skip_redundant_with_weights(self):
        """ReliefF measures redundancy with weights; dReliefF says why it
        cannot."""
        weighted, _ = tables()
        for widget_class, available in ((OWReliefF, True),
                                        (OWDReliefF, False)):
            widget = self.create_widget(widget_class)
            widget.data = weighted
            reason = widget.skip_unavailable()
            self.assertEqual(reason is None, available, reason)
            if not available:
                self.assertIn("Instance weights", reason)


def test_stir_weights_stay_on_the_cpu():
    """The GPU's update kernel writes the unweighted pair sums: with
    instance weights device="cuda" refuses STIR's sums and device="auto"
    computes them on the CPU, so no wrong sum of squares is given."""
    from orangecontrib.relief.core.backends.cuda import backend as cuda
    from orangecontrib.relief.core.engine import start
    rng = np.random.default_rng(1)
    X = rng.random((16, 4))
    y = (X[:, 0] > .5).astype(float)
    nominal = np.zeros(4, bool)
    weights = rng.integers(0, 4, 16).astype(float)
    with pytest.raises(ValueError, match="STIR's sums"):
        relieff(X, y, nominal, statistics=True, instance_weights=weights,
                device="cuda")
    setup = start(X, y, nominal, statistics=True, instance_weights=weights)
    assert "STIR's sums" in cuda.auto_declines(setup)
    auto = relieff(X, y, nominal, statistics=True, instance_weights=weights,
                   device="auto")
    cpu = relieff(X, y, nominal, statistics=True, instance_weights=weights)
    assert auto.device == "cpu"
    assert auto.pair_sums["Q_hit"] == cpu.pair_sums["Q_hit"]
