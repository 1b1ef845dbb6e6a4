"""Iter (orangecontrib/relief/wrappers/iterated.py): the rule that turns weights into
distance weights, the runs and their stopping rule."""
import numpy as np
import pytest

from orangecontrib.relief.wrappers.iterated import _runs, transformed


def test_transformed_weights():
    np.testing.assert_array_equal(transformed([0.2, -0.1, 0.4, np.nan]),
                                  [0.5, 0.0, 1.0, 0.0])
    # nothing positive: every feature counts (skrebate: all 0)
    np.testing.assert_array_equal(transformed([-0.2, 0.0]), [1.0, 1.0])


class Recorder:
    """score(distance weights) of a small linear map, recording its calls:
    W(v) = 0.5 v + b, whose transformed fixed point Iter approaches."""

    def __init__(self, base):
        self.base, self.calls = np.asarray(base, float), []

    def __call__(self, distance):
        self.calls.append(None if distance is None else distance.copy())
        if distance is None:
            return self.base.copy()
        return 0.5 * distance + self.base


def test_runs_move_the_distance_weights_by_beta():
    score = Recorder([0.4, -0.2, 0.1])
    weights, runs = _runs(score, max_iter=4, convergence_threshold=0.0,
                          beta=0.1)
    assert len(runs) == len(score.calls) == 4 and score.calls[0] is None
    v1 = transformed(score.base)
    np.testing.assert_allclose(score.calls[1], v1)
    w1 = 0.5 * v1 + score.base
    v2 = v1 + 0.1 * (transformed(w1) - v1)
    np.testing.assert_allclose(score.calls[2], v2)
    w2 = 0.5 * v2 + score.base
    v3 = v2 + 0.1 * (transformed(w2) - v2)
    np.testing.assert_allclose(score.calls[3], v3)
    np.testing.assert_allclose(weights, 0.5 * v3 + score.base)
    np.testing.assert_array_equal(runs[-1][1], weights)


def test_stops_when_no_weight_moves_by_the_threshold():
    score = Recorder([0.4, -0.2, 0.1])
    seen = []
    weights, runs = _runs(score, max_iter=50, convergence_threshold=1e-3,
                          beta=0.5, progress=seen.append)
    assert 2 < len(runs) < 50
    last, before = runs[-1][1], runs[-2][1]
    assert np.abs(last - before).max() < 1e-3
    assert np.abs(before - runs[-3][1]).max() >= 1e-3
    assert seen[-1] == 1.0 and seen[0] == 1 / 50


@pytest.mark.parametrize("options, message", [
    (dict(max_iter=0), "max_iter"),
    (dict(convergence_threshold=-1), "convergence_threshold"),
    (dict(beta=0), "beta"),
    (dict(beta=1.5), "beta"),
])
def test_options_are_checked(options, message):
    settings = dict(max_iter=10, convergence_threshold=1e-4, beta=0.1)
    settings.update(options)
    with pytest.raises(ValueError, match=message):
        _runs(Recorder([0.1]), **settings)


# ---------------------------------------------------------------------------
# The engine's fixed distance weights (relieff(distance_weights=...)), which
# Iter's runs use, against tests/reference.py

import scipy.sparse as sp  # noqa: E402

from orangecontrib.relief.core import relieff  # noqa: E402
from orangecontrib.relief.wrappers.iterated import iter_relief  # noqa: E402
from problems import random_problem  # noqa: E402
from reference import reference_relief  # noqa: E402


def dense_problem(seed=0, n=60, a=6):
    """Continuous, no missing values: the screened path of the loop."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, a))
    y = ((X[:, 0] + X[:, 1] > 1) ^ (rng.random(n) < 0.1)).astype(float)
    return X, y, np.zeros(a, bool)


@pytest.mark.parametrize("variant", ["relieff", "drelieff", "pdrelieff"])
@pytest.mark.parametrize("kernels", ["compiled", "vectorised"])
@pytest.mark.parametrize("problem", ["missing, ties", "dense"])
def test_distance_weights_equal_the_reference(variant, kernels, problem):
    X, y, nominal = random_problem(3, n=30, a=5) if problem != "dense" \
        else dense_problem()
    v = np.random.default_rng(1).random(X.shape[1])
    v[1] = 0.0
    found = relieff(X, y, nominal, variant=variant, k_nearest=4,
                    distance_weights=v, kernels=kernels).weights
    expected = reference_relief(X, y, nominal, variant=variant, k=4,
                                distance_weights=v)
    np.testing.assert_allclose(found, expected, rtol=0, atol=1e-13)
    # the weights matter: without them the result differs
    assert np.abs(relieff(X, y, nominal, variant=variant,
                          k_nearest=4).weights - found).max() > 1e-3


def test_distance_weights_regression_and_sparse():
    X, y, nominal = random_problem(4, n=30, a=5)
    target = np.nan_to_num(X[:, 0]) + np.random.default_rng(0).random(30)
    v = np.array([1.0, 0.5, 0.0, 2.0, 1.0])
    found = relieff(X, target, nominal, regression=True, k_nearest=4,
                    distance_weights=v).weights
    expected = reference_relief(X, target, nominal, regression=True, k=4,
                                distance_weights=v)
    np.testing.assert_allclose(found, expected, rtol=0, atol=1e-13)
    Xd, yd, nd = dense_problem()
    Xd[Xd < 0.4] = 0.0
    v = np.linspace(0.1, 1, Xd.shape[1])
    np.testing.assert_array_equal(
        relieff(sp.csr_matrix(Xd), yd, nd, distance_weights=v).weights,
        relieff(Xd, yd, nd, distance_weights=v).weights)


def test_unit_distance_weights_change_nothing():
    X, y, nominal = dense_problem()
    ones = np.ones(X.shape[1])
    np.testing.assert_allclose(relieff(X, y, distance_weights=ones).weights,
                               relieff(X, y).weights, rtol=0, atol=1e-14)
    np.testing.assert_array_equal(
        relieff(X, y, variant="drelieff", distance_weights=ones).weights,
        relieff(X, y, variant="drelieff").weights)


@pytest.mark.parametrize("options, message", [
    (dict(distance_weights=[1, 2]), "has 2 entries but the data has 6"),
    (dict(distance_weights=-np.ones(6)), "finite weight >= 0"),
    (dict(distance_weights=np.zeros(6)), "0 for every feature that varies"),
    (dict(distance_weights=np.ones(6), compat="weka"), "compat=None"),
    (dict(distance_weights=np.ones(6), statistics=True), "statistics=False"),
    (dict(distance_weights=np.ones(6), variant="irelief"),
     "distance_weights has no meaning"),
])
def test_distance_weights_are_checked(options, message):
    X, y, nominal = dense_problem()
    with pytest.raises(ValueError, match=message):
        relieff(X, y, **options)


def test_not_on_a_cluster():
    from orangecontrib.relief.distributed import check_cluster_options
    with pytest.raises(ValueError, match="distance_weights runs on one"):
        check_cluster_options("relieff", None, np.ones(3))
    with pytest.raises(ValueError, match="I-RELIEF runs on one"):
        check_cluster_options("irelief")


def test_iter_relief_reruns_the_engine():
    X, y, nominal = dense_problem()
    weights, runs = iter_relief(X, y, max_iter=3, convergence_threshold=0.0,
                                variant="drelieff", k_nearest=5)
    w0 = relieff(X, y, variant="drelieff", k_nearest=5).weights
    v1 = transformed(w0)
    w1 = relieff(X, y, variant="drelieff", k_nearest=5,
                 distance_weights=v1).weights
    v2 = v1 + 0.1 * (transformed(w1) - v1)
    w2 = relieff(X, y, variant="drelieff", k_nearest=5,
                 distance_weights=v2).weights
    np.testing.assert_array_equal(runs[0][1], w0)
    np.testing.assert_array_equal(runs[1][0], v1)
    np.testing.assert_array_equal(weights, w2)
    with pytest.raises(ValueError, match="I-RELIEF already iterates"):
        iter_relief(X, y, variant="irelief")


def test_iter_agrees_with_skrebate():
    skrebate = pytest.importorskip("skrebate")
    X, y, nominal = dense_problem(n=80, a=8)
    theirs = skrebate.Iter(skrebate.ReliefF(n_neighbors=5), max_iter=4,
                           convergence_threshold=0.0)
    theirs.fit(X.copy(), y.copy())
    ours, runs = iter_relief(X, y, max_iter=4, convergence_threshold=0.0,
                             k_nearest=5)
    assert len(runs) == 4
    np.testing.assert_allclose(ours, theirs.feature_importances_, rtol=0,
                               atol=1e-12)


def test_orange_wrapper_equals_the_arrays():
    from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
    from Orange.preprocess.score import InfoGain
    from orangecontrib.relief import DReliefF, Iter
    X, y, nominal = dense_problem()
    domain = Domain([ContinuousVariable(f"x{i}") for i in range(X.shape[1])],
                    DiscreteVariable("class", values=("0", "1")))
    table = Table.from_numpy(domain, X, y)
    scorer = Iter(DReliefF(k_nearest=5), max_iter=3)
    expected, runs = iter_relief(X, y, max_iter=3, variant="drelieff",
                                 k_nearest=5)
    weights, found = scorer.score_table(table)
    np.testing.assert_array_equal(weights, expected)
    assert len(found) == len(runs)
    assert scorer.name == "Iter (dReliefF k5)"
    assert scorer.scorer.distance_weights is None     # a copy was changed
    with pytest.raises(ValueError, match="InfoGain takes none"):
        Iter(InfoGain())
