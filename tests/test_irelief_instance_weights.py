"""I-RELIEF with instance weights (core/irelief.py): an instance of weight
c counts as c copies of itself, so integer weights give the weights of the
table with each row repeated c times (doc/semantics.md, "Instance
weights")."""
import warnings

import numpy as np
import pytest

from orangecontrib.relief.core import irelief as irelief_module
from orangecontrib.relief.core import relieff
from orangecontrib.relief.core.irelief import irelief
from test_irelief import CASES, case_data

#: Iterations compared (a tolerance no run meets: each runs them all).
ITERATIONS = 5
RUN = dict(max_iterations=ITERATIONS, tolerance=1e-300, damping=None)


def counts_for(n, seed=0):
    """Integer weights 0, 1, 2, 3 (each at least once)."""
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, 4, n)
    counts[:4] = [0, 1, 2, 3]
    return counts


def repeated(X, y, counts):
    rows = np.repeat(np.arange(X.shape[0]), counts)
    return X[rows], y[rows]


def quietly(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "I-RELIEF did not converge")
        return function(*args, **kwargs)


#: The cases: CASES (missing values of numeric features take RELIEF-D's
#: weighted laws) and missing values in nominal features only.
WEIGHTED_CASES = dict(CASES, **{
    "nominal, missing": dict(CASES["nominal"], missing=0.15)})


def weighted_case(name):
    return case_data(**WEIGHTED_CASES[name])


@pytest.mark.parametrize("name", WEIGHTED_CASES)
@pytest.mark.parametrize("pairs", [True, False])
@pytest.mark.parametrize("sigma, inliers", [(0.5, True), (0.2, False)])
def test_integer_weights_equal_repeated_rows(monkeypatch, name, pairs,
                                             sigma, inliers):
    """Every iteration's weights, one margin at a time and by pairs (the
    pairs take dense data without missing values; the others run
    RELIEF-D's diffs: the weights change the laws of a missing value as
    repeated rows do, and an instance's own copies are at its RELIEF-D
    distance to itself, not 0, with that diff in its margin)."""
    monkeypatch.setattr(irelief_module, "PAIRS", pairs)
    X, y, nominal = weighted_case(name)
    counts = counts_for(X.shape[0])
    weighted = quietly(irelief, X, y, nominal, sigma=sigma, inliers=inliers,
                       instance_weights=counts, **RUN)
    Xr, yr = repeated(X, y, counts)
    expected = quietly(irelief, Xr, yr, nominal, sigma=sigma,
                       inliers=inliers, **RUN)
    assert weighted.iterations == expected.iterations == ITERATIONS
    np.testing.assert_allclose(weighted.trace, expected.trace, rtol=0,
                               atol=1e-12)
    np.testing.assert_allclose(weighted.changes, expected.changes, rtol=0,
                               atol=1e-12)


def test_an_instance_alone_in_its_class_with_copies():
    """Its own copies are its only hits, at distance 0: with ``inliers`` it
    then has a margin (gamma from those hits), as the repeated table
    gives; without copies it has none."""
    X, y, nominal = case_data(**CASES["nominal"])
    y = y.copy()
    y[0] = 2                                   # a class of one instance
    counts = np.ones(X.shape[0])
    counts[0] = 3
    weighted = quietly(irelief, X, y, nominal, sigma=0.5,
                       instance_weights=counts, **RUN)
    Xr, yr = repeated(X, y, counts.astype(int))
    expected = quietly(irelief, Xr, yr, nominal, sigma=0.5, **RUN)
    np.testing.assert_allclose(weighted.trace, expected.trace, rtol=0,
                               atol=1e-12)
    alone = quietly(irelief, X, y, nominal, sigma=0.5, **RUN)
    assert np.abs(alone.trace[1] - weighted.trace[1]).max() > 1e-6


@pytest.mark.parametrize("pairs", [True, False])
def test_weight_zero_removes_the_instance(monkeypatch, pairs):
    monkeypatch.setattr(irelief_module, "PAIRS", pairs)
    X, y, nominal = case_data(**CASES["nominal"])
    counts = np.ones(X.shape[0])
    counts[[1, 5, 6]] = 0
    weighted = quietly(irelief, X, y, nominal, sigma=0.5,
                       instance_weights=counts, **RUN)
    kept = counts > 0
    expected = quietly(irelief, X[kept], y[kept], nominal, sigma=0.5, **RUN)
    np.testing.assert_allclose(weighted.trace, expected.trace, rtol=0,
                               atol=1e-12)


@pytest.mark.parametrize("name", CASES)
def test_all_ones_is_the_unweighted_run(name):
    X, y, nominal = case_data(**CASES[name])
    ones = quietly(irelief, X, y, nominal, sigma=0.5,
                   instance_weights=np.ones(X.shape[0]), **RUN)
    plain = quietly(irelief, X, y, nominal, sigma=0.5, **RUN)
    np.testing.assert_array_equal(ones.trace, plain.trace)


def test_fractional_weights_are_continuous():
    """w = 2.0 is w = 2; 1.999999 and 0.999999 move the weights by little;
    a fraction changes them."""
    X, y, nominal = case_data(**CASES["numeric"])
    counts = counts_for(X.shape[0]).astype(float)

    def run(weights):
        return quietly(irelief, X, y, nominal, sigma=0.5,
                       instance_weights=weights, **RUN).trace
    whole = run(counts)
    np.testing.assert_array_equal(run(counts.astype(int)), whole)
    for i in (2, 1):            # weight 2 (own copy) and 1 (none)
        near = counts.copy()
        near[i] -= 1e-6
        assert np.abs(run(near) - whole).max() < 1e-4
    half = counts.copy()
    half[2] = 0.5
    assert np.abs(run(half) - whole).max() > 1e-6


def test_relieff_variant_irelief_takes_the_weights():
    X, y, nominal = weighted_case("mixed, missing, 3 classes")
    counts = counts_for(X.shape[0])
    through = quietly(relieff, X, y, nominal, variant="irelief", sigma=0.5,
                      instance_weights=counts, max_iterations=ITERATIONS,
                      tolerance=1e-300, damping=None)
    direct = quietly(irelief, X, y, nominal, sigma=0.5,
                     instance_weights=counts, **RUN)
    np.testing.assert_array_equal(through.trace, direct.trace)


def test_one_class_of_positive_weight_gives_zeros():
    X, y, nominal = case_data(**CASES["numeric"])
    counts = np.where(y == 0, 1.0, 0.0)
    with pytest.warns(UserWarning, match="only one class"):
        result = irelief(X, y, nominal, instance_weights=counts)
    np.testing.assert_array_equal(result.weights, 0.0)


@pytest.mark.parametrize("weights, message", [
    (lambda n: -np.ones(n), ">= 0"),
    (lambda n: np.r_[np.nan, np.ones(n - 1)], "NaN|finite|missing"),
    (lambda n: np.r_[np.inf, np.ones(n - 1)], "finite|inf"),
    (lambda n: np.ones(n - 1), "one|length|rows"),
    (lambda n: np.zeros(n), "zero|0"),
])
def test_bad_weights_are_refused(weights, message):
    X, y, nominal = case_data(**CASES["numeric"])
    with pytest.raises(ValueError, match=message):
        irelief(X, y, nominal, instance_weights=weights(X.shape[0]))
