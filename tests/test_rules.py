"""The engine's neighbourhood rules (``neighbours=``) and TuRF: hand-computed
tiny tables, and agreement with the independent loop-by-loop reference of
``doc/semantics.md`` ("Neighbourhood rules") in ``tests/rules_reference.py``
on every rule x variant x data kind.  (The reference itself is checked by hand
and against skrebate and fast-select in ``test_rules_reference.py``.)"""
import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose

from orangecontrib.relief.core.backends.compiled import layouts
from orangecontrib.relief.core import relieff
from orangecontrib.relief.core.rules import RULES as RULE_REGISTRY
from orangecontrib.relief.core.contract.prepare import prepare
from orangecontrib.relief.core.speedups import Speedups
from orangecontrib.relief.wrappers.turf import turf
from rules_reference import reference_rules, reference_turf

RULES = ["surf", "surf*", "multisurf", "multisurf*"]
VARIANTS = ["relieff", "drelieff", "pdrelieff"]

# Case B of test_rules_reference.py (its comments hold the arithmetic):
# f0 numeric (range 4), f1 nominal, classes 0 0 1 1 0; SURF's T = 1.15.
XB = np.array([[0, 0], [1, 0], [4, 1], [3, 1], [4, 0]], float)
YB = np.array([0, 0, 1, 1, 0], float)
NOMB = np.array([False, True])


@pytest.mark.parametrize("rule, expected", [
    ("surf", [-0.5, 0.4]),          # near sums (-2.5, 2) / 5
    ("surf*", [-1.125, -0.6]),      # + far, "opposite" (-3.125, -5) / 5
    ("multisurf", [-0.4, 0.0]),     # near sums (-2, 0) / 5
    ("multisurf*", [-0.05, 0.0]),   # + far, "sameness" (1.75, 0) / 5
])
def test_hand_case(rule, expected):
    w = relieff(XB, YB, NOMB, neighbours=rule).weights
    assert_allclose(w, expected, atol=1e-15)


def test_boundary_instances_are_in_neither_set():
    # One numeric feature 0, 1, 3 (range 3), classes 0 0 1.
    # diffs: d01 = 1/3, d02 = 1, d12 = 2/3; SURF's T = (1/3 + 1 + 2/3) / 3
    # = 2/3, so I1-I2 lies on the radius (to rounding): in neither set.
    # SURF:  I0 near {I1 hit} -1/3; I1 near {I0 hit} -1/3; I2 near {}:
    #        (-2/3) / 3 = -2/9.  (Were d12 near: I1 +2/3, I2 +2/3.)
    # SURF*: far ("opposite", -diff for far misses): I0 {I2} -1, I2 {I0} -1;
    #        (-2/3 - 2) / 3 = -8/9.
    X = np.array([[0.0], [1.0], [3.0]])
    y = np.array([0, 0, 1])
    assert_allclose(relieff(X, y, neighbours="surf").weights, [-2 / 9],
                    rtol=1e-14)
    assert_allclose(relieff(X, y, neighbours="surf*").weights, [-8 / 9],
                    rtol=1e-14)


def test_distance_weights_move_the_radius():
    # dReliefF's first visit has w = 1 and later visits their estimate: the
    # radius is the mean of the *weighted* distances (the reference's rule)
    for rule in RULES:
        engine = relieff(XB, YB, NOMB, neighbours=rule,
                         variant="drelieff").weights
        assert_allclose(engine, reference_rules(XB, YB, NOMB, rule=rule,
                                                variant="drelieff"),
                        atol=1e-14)


def _data(kind, seed=0, n=36, a=5):
    """Small tables of each kind the contract distinguishes."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, a)).round(2)
    nominal = np.zeros(a, bool)
    regression = False
    if kind in ("nominal", "mixed"):
        cols = slice(None) if kind == "nominal" else slice(0, 2)
        X[:, cols] = rng.integers(0, 3, X[:, cols].shape)
        nominal[cols] = True
    y = ((X[:, 0] > X[:, 0].mean()) ^ (X[:, 1] > X[:, 1].mean())).astype(
        float)
    if kind == "missing3":
        y = rng.integers(0, 3, n).astype(float)
        y[X[:, 2] > 0.8] = 2
        X[rng.random((n, a)) < 0.1] = np.nan
    if kind == "regression":
        y = X[:, 0] + 0.5 * X[:, 1] + 0.1 * rng.random(n)
        regression = True
    return X, y, nominal, regression


@pytest.mark.parametrize("kind", ["numeric", "nominal", "mixed", "missing3",
                                  "regression"])
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("rule", RULES)
def test_equals_the_reference(kind, variant, rule):
    X, y, nominal, regression = _data(kind)
    if regression and rule.endswith("*"):
        with pytest.raises(ValueError, match="does not define"):
            relieff(X, y, nominal, regression=True, neighbours=rule)
        return
    engine = relieff(X, y, nominal, regression=regression, variant=variant,
                     neighbours=rule).weights
    expected = reference_rules(X, y, nominal, rule=rule,
                               regression=regression, variant=variant)
    assert_allclose(engine, expected, atol=1e-13, rtol=0)


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("misses", ["per_class", "any"])
def test_sampled_visits_and_misses_any(rule, misses):
    X, y, nominal, _ = _data("missing3", seed=1)
    engine = relieff(X, y, nominal, neighbours=rule, n_iterations=20,
                     random_state=5, misses=misses, variant="pdrelieff")
    expected = reference_rules(X, y, nominal, rule=rule, m=20, seed=5,
                               misses=misses, variant="pdrelieff")
    assert_allclose(engine.weights, expected, atol=1e-13, rtol=0)


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_sparse_equals_dense(rule, variant):
    X, y, _, _ = _data("numeric", seed=2)
    X[X < 0.5] = 0.0
    dense = relieff(X, y, variant=variant, neighbours=rule).weights
    sparse = relieff(sp.csr_matrix(X), y, variant=variant,
                     neighbours=rule).weights
    assert_allclose(sparse, dense, atol=1e-14, rtol=0)


def test_option_errors():
    X, y, nominal, _ = _data("numeric")
    with pytest.raises(ValueError, match="neighbours must be one of"):
        relieff(X, y, neighbours="knn")
    with pytest.raises(ValueError, match="weight_by_distance ranks"):
        relieff(X, y, neighbours="surf", weight_by_distance=True)
    with pytest.raises(ValueError, match="only the k nearest"):
        relieff(X, y, neighbours="multisurf", compat="weka")


@pytest.mark.parametrize("rule", ["surf", "multisurf*"])
def test_turf_equals_the_reference(rule):
    X, y, nominal, _ = _data("mixed", n=40, a=10)
    weights, removed = turf(X, y, nominal, remove=0.2, neighbours=rule)
    expected, order = reference_turf(X, y, nominal, rule=rule,
                                     remove_fraction=0.2)
    assert removed == order
    assert_allclose(weights, expected, atol=1e-13, rtol=0, equal_nan=True)


@pytest.mark.parametrize("rule", RULES)
def test_row_order_does_not_matter(rule):
    """ReliefF visiting every instance: the weights are sums over the
    visits, whatever their order (to rounding)."""
    X, y, nominal, _ = _data("mixed", seed=4)
    order = np.random.default_rng(1).permutation(len(y))
    a = relieff(X, y, nominal, neighbours=rule).weights
    b = relieff(X[order], y[order], nominal, neighbours=rule).weights
    assert_allclose(b, a, atol=1e-14, rtol=0)


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_scaling_and_duplicated_features(rule, variant):
    """Rescaling a numeric feature changes no weight (diffs are divided by
    the range); a duplicated feature's copies get equal weights."""
    X, y, nominal, _ = _data("mixed", seed=5)
    base = relieff(X, y, nominal, neighbours=rule, variant=variant).weights
    scaled = X.copy()
    scaled[:, 3] = 1000 * scaled[:, 3] - 7
    assert_allclose(relieff(scaled, y, nominal, neighbours=rule,
                            variant=variant).weights, base,
                    atol=1e-13, rtol=0)
    wide = np.c_[X, X[:, 3]]
    w = relieff(wide, y, np.r_[nominal, False], neighbours=rule,
                variant=variant).weights
    assert w[3] == pytest.approx(w[-1], abs=1e-15)


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("kind", ["numeric", "mixed", "three classes"])
@pytest.mark.parametrize("together", [True, False])
def test_blocks_of_visits_change_no_weight(rule, kind, together,
                                           monkeypatch):
    """Dense data without missing values: a radius rule visits blocks of
    RADIUS_BLOCK_VISITS instances that share the distance pass, and on big
    data (here: forced, ``together``) also the update pass
    (``updates.update_block``); a chunk ends in blocks of four and single
    visits.  Bit for bit the weights of one visit at a time
    (``Speedups(blocks=False)``, and ``block_update=False``), on one and two
    threads, with all n or 37 sampled visits (two blocks, a block of four
    and a single visit), and the reference's weights."""
    monkeypatch.setattr(layouts, "BLOCK_UPDATE_MIN_BYTES",
                        0 if together else 10 ** 12)
    X, y, nominal, _ = _data("numeric" if kind == "three classes" else kind,
                             seed=6, n=75, a=7)
    if kind == "three classes":
        y[X[:, 2] > 0.7] = 2
    prep = prepare(X, y, nominal, False)
    blocks = layouts.blocks(prep, Speedups(), RULE_REGISTRY[rule].uses_k)
    assert blocks.size == layouts.RADIUS_BLOCK_VISITS > 4
    assert blocks.update_together == together
    for m in (None, 37):
        one_at_a_time = relieff(X, y, nominal, neighbours=rule, n_iterations=m,
                                speedups=Speedups(blocks=False)).weights
        for n_jobs in (1, 2):
            w = relieff(X, y, nominal, neighbours=rule, n_iterations=m,
                        n_jobs=n_jobs).weights
            assert np.array_equal(w, one_at_a_time), (m, n_jobs)
        w = relieff(X, y, nominal, neighbours=rule, n_iterations=m,
                    speedups=Speedups(block_update=False)).weights
        assert np.array_equal(w, one_at_a_time)
        expected = reference_rules(X, y, nominal, rule=rule, m=m, seed=0)
        assert_allclose(one_at_a_time, expected, atol=1e-13, rtol=0)
