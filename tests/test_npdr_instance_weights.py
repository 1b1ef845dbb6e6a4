"""NPDR with instance weights (stats.npdr, npdr_parts.weighted_pair_rows):
the weighted regression of the pairs the table with each row repeated w
times has, so integer weights give that table's coefficients, standard
errors, statistics and degrees of freedom (doc/statistics.md, "Instance
weights")."""
import warnings

import numpy as np
import pytest

from orangecontrib.relief import stats

TOLERANCE = 1e-9


def data(seed=0, n=40, regression=False, missing=False):
    """Three numeric features and two nominal ones (nominal values
    missing where asked; with ``missing="all"``, values of any feature), a
    class or a number told by the first two, one covariate, and integer
    weights 0, 1, 2, 3."""
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.random((n, 3)), rng.integers(0, 3, (n, 2))])
    nominal = np.array([False, False, False, True, True])
    if missing:
        columns = slice(None) if missing == "all" else slice(3, None)
        X[:, columns][rng.random((n, X[:, columns].shape[1])) < 0.1] = \
            np.nan
    signal = np.nan_to_num(X[:, 0] + X[:, 1]) + 0.3 * rng.random(n)
    y = signal if regression else (signal > np.median(signal)).astype(float)
    covariate = rng.random(n)
    weights = rng.integers(0, 4, n)
    weights[:4] = [0, 1, 2, 3]
    return X, y, nominal, covariate, weights


def repeated(weights, *arrays):
    rows = np.repeat(np.arange(len(weights)), weights)
    return [a[rows] for a in arrays]


def quietly(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def assert_same(got, expected):
    for field in ("weights", "standard_errors", "t", "p_values"):
        np.testing.assert_allclose(getattr(got, field),
                                   getattr(expected, field), rtol=1e-9,
                                   atol=TOLERANCE, err_msg=field)
    assert got.df == pytest.approx(expected.df, abs=1e-9)


CASES = {
    "class-blind k": dict(k_nearest=5),
    "separate hits and misses": dict(k_nearest=4, separate_hit_miss=True),
    "misses of any class": dict(k_nearest=4, separate_hit_miss=True,
                                misses="any"),
    "surf": dict(neighbours="surf"),
    "multisurf": dict(neighbours="multisurf"),
    "regression": dict(k_nearest=5, regression=True),
    "nominal missing": dict(k_nearest=5, missing=True),
    "missing values": dict(k_nearest=5, missing="all"),
    "missing values, surf": dict(neighbours="surf", missing="all"),
    "covariate": dict(k_nearest=5, covariate=True),
}


@pytest.mark.parametrize("name", CASES)
def test_integer_weights_equal_repeated_rows(name):
    options = dict(CASES[name])
    missing = options.pop("missing", False)
    with_covariate = options.pop("covariate", False)
    X, y, nominal, covariate, weights = data(
        regression=options.get("regression", False), missing=missing)
    if with_covariate:
        options["covariates"] = covariate
    got = quietly(stats.npdr, X, y, nominal, instance_weights=weights,
                  **options)
    Xr, yr, cr = repeated(weights, X, y, covariate)
    if with_covariate:
        options["covariates"] = cr
    expected = quietly(stats.npdr, Xr, yr, nominal, **options)
    assert_same(got, expected)
    assert got.n_pairs < expected.n_pairs       # the pairs, once each


def test_weight_zero_removes_the_row():
    X, y, nominal, _, weights = data()
    ones = np.minimum(weights, 1)
    kept = ones > 0
    got = quietly(stats.npdr, X, y, nominal, instance_weights=ones,
                  k_nearest=5)
    expected = quietly(stats.npdr, X[kept], y[kept], nominal, k_nearest=5)
    assert_same(got, expected)


def test_permutation_test_keeps_weights_with_rows():
    """A weight 0 draws as the row removed, to the bit; integer weights
    give the weighted statistic."""
    X, y, nominal, covariate, weights = data()
    ones = np.minimum(weights, 1)
    kept = ones > 0
    options = dict(k_nearest=5, n_permutations=5, permutation_seed=1)
    got = quietly(stats.npdr_permutation, X, y, nominal,
                  instance_weights=ones, **options)
    removed = quietly(stats.npdr_permutation, X[kept], y[kept], nominal,
                      **options)
    np.testing.assert_array_equal(got.p_values, removed.p_values)
    weighted = quietly(stats.npdr_permutation, X, y, nominal,
                       instance_weights=weights, **options)
    one_run = quietly(stats.npdr, X, y, nominal, instance_weights=weights,
                      k_nearest=5)
    np.testing.assert_array_equal(weighted.t, one_run.t)


def test_all_ones_is_the_unweighted_run():
    X, y, nominal, _, weights = data()
    got = stats.npdr(X, y, nominal, k_nearest=5,
                     instance_weights=np.ones(len(y)))
    expected = stats.npdr(X, y, nominal, k_nearest=5)
    np.testing.assert_array_equal(got.t, expected.t)




@pytest.mark.parametrize("bad, message", [
    (lambda n: -np.ones(n), ">= 0"), (lambda n: np.ones(n - 1), "rows"),
    (lambda n: np.r_[np.nan, np.ones(n - 1)], "finite")])
def test_bad_weights_are_refused(bad, message):
    X, y, nominal, _, _ = data()
    with pytest.raises(ValueError, match=message):
        stats.npdr(X, y, nominal, instance_weights=bad(len(y)))
