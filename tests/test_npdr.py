"""NPDR (stats.npdr, stats.npdr_permutation): equality with the loop-by-loop
reference (tests/npdr_reference.py), a table worked by hand, invariants,
covariates, permutations and bad input."""
import math
import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats as scipy_stats

from orangecontrib.relief.stats import npdr_parts
from orangecontrib.relief import stats
from orangecontrib.relief.core import ReliefWarning
from orangecontrib.relief.core.backends.vectorised import NPDR_FIRST_USE
from orangecontrib.relief.datasets import confounded
from orangecontrib.relief.stats.npdr_parts import Covariates, Permuter, strata
from npdr_reference import reference_npdr


def mixed(seed, n=36, regression=False, missing=0.0, n_classes=2):
    """Numeric (rounded: ties) and nominal features, a target related to
    feature 0, two covariates (numeric, nominal)."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, 5)).round(2)
    X[:, 3] = rng.integers(0, 3, n)
    X[:, 4] = rng.integers(0, 2, n)
    X[rng.random(X.shape) < missing] = np.nan
    signal = np.nan_to_num(X[:, 0], nan=0.5) + 0.6 * rng.random(n)
    y = signal if regression else \
        np.digitize(signal, np.quantile(signal, np.linspace(0, 1, n_classes
                                                            + 1)[1:-1]))
    covariates = np.column_stack([rng.normal(size=n), rng.integers(0, 3, n)])
    return X, y.astype(float), np.arange(5) >= 3, covariates


CASES = [
    dict(),
    dict(regression=True),
    dict(covariates=True),
    dict(covariates=True, regression=True),
    dict(rule="multisurf"),
    dict(rule="multisurf", regression=True, covariates=True),
    dict(rule="surf", covariates=True),
    dict(separate=True),
    dict(separate=True, covariates=True, n_classes=3),
    dict(separate=True, misses="any", n_classes=3),
    dict(missing=0.1),
    dict(missing=0.1, separate=True),
    dict(missing=0.1, regression=True, covariates=True),
    dict(k=1),
]


@pytest.mark.parametrize("case", CASES, ids=[
    "-".join(f"{key}={value}" for key, value in case.items()) or "default"
    for case in CASES])
def test_equals_the_loop_by_loop_reference(case):
    seed = CASES.index(case)
    regression = case.get("regression", False)
    X, y, nominal, C = mixed(seed, regression=regression,
                             missing=case.get("missing", 0.0),
                             n_classes=case.get("n_classes", 2))
    covariates = C if case.get("covariates") else None
    k = case.get("k", 5)
    want = reference_npdr(
        X, y, nominal, covariates=covariates,
        covariate_nominal=[False, True], k=k, rule=case.get("rule", "k"),
        separate=case.get("separate", False),
        misses=case.get("misses", "per_class"), regression=regression)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReliefWarning)
        got = stats.npdr(
            X, y, nominal, covariates=covariates,
            covariate_nominal=None if covariates is None else [False, True],
            k_nearest=k, neighbours=case.get("rule", "k"),
            separate_hit_miss=case.get("separate", False),
            misses=case.get("misses", "per_class"), regression=regression)
    assert got.n_pairs == want["pairs"]
    assert got.df == pytest.approx(want["df"], rel=1e-14)
    assert_allclose(got.weights, want["coefficient"], rtol=1e-8, atol=1e-10)
    assert_allclose(got.standard_errors, want["se"], rtol=1e-8, atol=1e-10)
    assert_allclose(got.t, want["t"], rtol=1e-8, atol=1e-10)
    assert_allclose(got.p_values, want["p"], rtol=1e-8, atol=1e-12)
    assert_allclose(got.q_values, want["q"], rtol=1e-8, atol=1e-12)


FIRST_USE_CASES = CASES + [dict(separation=True), dict(n_iterations=20)]


@pytest.mark.parametrize("case", FIRST_USE_CASES, ids=[
    "-".join(f"{key}={value}" for key, value in case.items()) or "default"
    for case in FIRST_USE_CASES])
def test_first_use_kernels_equal_the_compiled_ones(case, monkeypatch):
    """NPDR's first use (``vectorised.NPDR_FIRST_USE``: the NumPy path's
    pairs, the fits' source as plain Python with NumPy loops over the
    pairs) gives the compiled kernels' pairs, coefficients, standard
    errors, statistics and p-values to 1e-12 on every case above, a
    diverged fit and a visited subset."""
    seed = FIRST_USE_CASES.index(case)
    regression = case.get("regression", False)
    X, y, nominal, C = mixed(seed, regression=regression,
                             missing=case.get("missing", 0.0),
                             n_classes=case.get("n_classes", 2))
    if case.get("separation"):
        X[:, 4] = y
    covariates = C if case.get("covariates") else None
    visits = []

    def rows(*args):
        visits.append(args[-1].shape[0])
        return NPDR_FIRST_USE.rows(*args)
    monkeypatch.setattr(npdr_parts, "NPDR_FIRST_USE",
                        NPDR_FIRST_USE._replace(rows=rows))
    results = {}
    for kernels in ("compiled", "vectorised"):
        monkeypatch.setenv("ORANGE3_RELIEF_KERNELS", kernels)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ReliefWarning)
            results[kernels] = stats.npdr(
                X, y, nominal, covariates=covariates,
                covariate_nominal=None if covariates is None
                else [False, True],
                k_nearest=case.get("k", 5), neighbours=case.get("rule", "k"),
                separate_hit_miss=case.get("separate", False),
                misses=case.get("misses", "per_class"), regression=regression,
                n_iterations=case.get("n_iterations"), random_state=4)
    compiled, first = results["compiled"], results["vectorised"]
    assert sum(visits) == case.get("n_iterations", X.shape[0])  # the path ran
    assert first.n_pairs == compiled.n_pairs
    assert first.df == pytest.approx(compiled.df, rel=1e-14)
    for name in ("weights", "standard_errors", "t", "p_values", "q_values"):
        assert_allclose(getattr(first, name), getattr(compiled, name),
                        rtol=1e-12, atol=1e-12, err_msg=name)


def test_visited_subset_equals_the_reference():
    X, y, nominal, _ = mixed(20)
    got = stats.npdr(X, y, nominal, k_nearest=4, n_iterations=20,
                     random_state=3)
    visited = np.sort(np.random.default_rng(3).permutation(36)[:20])
    want = reference_npdr(X, y, nominal, k=4, visited=visited)
    assert got.n_pairs == want["pairs"]
    assert_allclose(got.p_values, want["p"], rtol=1e-8)


# A numeric target worked by hand: features A on [0, 4] and B on [0, 1].
# Rows (A, B, y):  0: (0, 0, 0)   1: (1, 1, 2)   2: (2, 0, 3)   3: (4, 1, 7)
# Distances |dA|/4 + |dB|: d01 = 1.25, d02 = 0.5, d03 = 2, d12 = 1.25,
# d13 = 0.75, d23 = 1.5.  With k = 1: 0 -> 2, 1 -> 3, 2 -> 0, 3 -> 1, so
# the pairs (0,2), (2,0) have diffs A 0.5, B 0 and outcome |dy| = 3, and
# (1,3), (3,1) diffs A 0.75, B 0 and outcome 5.  A: the line through
# (0.5, 3) and (0.75, 5) fits exactly, b_A = 8 with no residual, so se = 0,
# t = +inf and p = 0.  B: its diffs are all 0, so p = 1.
HAND_X = np.array([[0, 0], [1, 1], [2, 0], [4, 1.0]])
HAND_Y = np.array([0, 2, 3, 7.0])


def test_hand_worked_regression():
    with pytest.warns(ReliefWarning, match="cannot estimate"):
        result = stats.npdr(HAND_X, HAND_Y, regression=True, k_nearest=1)
    assert result.n_pairs == 4
    assert result.df == 2
    assert result.weights[0] == pytest.approx(8.0, rel=1e-12)
    assert result.t[0] == math.inf
    assert result.p_values[0] == 0.0
    assert math.isnan(result.weights[1]) and result.p_values[1] == 1.0


def test_hand_worked_least_squares():
    """Least squares with a residual, by the formulas for one regressor on
    pairs counted by hand (a tie shares its slot)."""
    X = np.array([[0.0], [1], [2], [4], [8]])
    y = np.array([0.0, 1, 3, 4, 9])
    # k = 1 on one feature (range 8): 0 -> 1, 1 -> 0 and 2 tied (1/8 each:
    # half a slot each), 2 -> 1, 3 -> 2, 4 -> 3.
    pairs = [(0, 1, 1), (1, 0, .5), (1, 2, .5), (2, 1, 1), (3, 2, 1),
             (4, 3, 1)]
    d = np.array([abs(X[i, 0] - X[j, 0]) / 8 for i, j, _ in pairs])
    o = np.array([abs(y[i] - y[j]) for i, j, _ in pairs])
    w = np.array([share for _, _, share in pairs])
    mean_d, mean_o = np.dot(w, d) / w.sum(), np.dot(w, o) / w.sum()
    sxx = np.dot(w, (d - mean_d) ** 2)
    b = np.dot(w, (d - mean_d) * (o - mean_o)) / sxx
    resid = o - (mean_o - b * mean_d) - b * d
    df = w.sum() - 2                                   # 5 - 2 = 3
    se = math.sqrt(np.dot(w, resid ** 2) / df / sxx)
    result = stats.npdr(X, y, regression=True, k_nearest=1)
    assert result.n_pairs == 6 and result.df == 3
    assert result.weights[0] == pytest.approx(b, rel=1e-12)
    assert result.standard_errors[0] == pytest.approx(se, rel=1e-12)
    assert result.p_values[0] == pytest.approx(
        scipy_stats.t.sf(b / se, df), rel=1e-10)


def test_logistic_equals_a_direct_likelihood_fit():
    """The coefficient maximises the pairs' likelihood: scipy's optimiser on
    the same pairs (the reference's Newton steps aside)."""
    from scipy.optimize import minimize
    X, y, nominal, _ = mixed(7)
    result = stats.npdr(X, y, nominal, k_nearest=5)
    want = reference_npdr(X, y, nominal, k=5)
    assert_allclose(result.weights, want["coefficient"], rtol=1e-8)
    # one feature by hand: the likelihood is maximal at the coefficient
    from npdr_reference import reference_pairs
    pairs, diff, _ = reference_pairs(X, y, nominal, k=5)
    d = np.array([diff(0, i, j) for i, j, _ in pairs])
    o = np.array([float(y[i] != y[j]) for i, j, _ in pairs])

    def minus_loglik(beta):
        eta = beta[0] + beta[1] * d
        return -np.sum(o * eta - np.logaddexp(0, eta))
    fitted = minimize(minus_loglik, [0.0, 0.0], method="BFGS",
                      options=dict(gtol=1e-10)).x
    assert result.weights[0] == pytest.approx(fitted[1], rel=1e-5)


# -- invariants ---------------------------------------------------------------

def test_row_order_and_numeric_scale_do_not_matter():
    X, y, nominal, C = mixed(3, n=40)
    base = stats.npdr(X, y, nominal, covariates=C,
                      covariate_nominal=[False, True], k_nearest=6)
    order = np.random.default_rng(1).permutation(40)
    permuted = stats.npdr(X[order], y[order], nominal, covariates=C[order],
                          covariate_nominal=[False, True], k_nearest=6)
    assert_allclose(permuted.p_values, base.p_values, rtol=1e-10)
    assert_allclose(permuted.weights, base.weights, rtol=1e-10)
    scaled = X.copy()
    scaled[:, 0] = 1000 * X[:, 0] - 7
    Cs = C.copy()
    Cs[:, 0] = 50 * C[:, 0] + 3
    rescaled = stats.npdr(scaled, y, nominal, covariates=Cs,
                          covariate_nominal=[False, True], k_nearest=6)
    assert_allclose(rescaled.p_values, base.p_values, rtol=1e-9)
    assert_allclose(rescaled.weights, base.weights, rtol=1e-9)


def test_target_scale_and_sparse_input():
    """A numeric target in other units scales the coefficients, not t or
    p; a sparse X gives the dense result."""
    import scipy.sparse as sp
    X, y, nominal, _ = mixed(16, regression=True)
    base = stats.npdr(X, y, nominal, regression=True, k_nearest=5)
    scaled = stats.npdr(X, 10 * y + 3, nominal, regression=True,
                        k_nearest=5)
    assert_allclose(scaled.t, base.t, rtol=1e-9)
    assert_allclose(scaled.weights, 10 * base.weights, rtol=1e-9)
    dense = np.nan_to_num(X)
    assert_array_equal(stats.npdr(sp.csr_matrix(dense), y, nominal,
                                  regression=True, k_nearest=5).p_values,
                       stats.npdr(dense, y, nominal, regression=True,
                                  k_nearest=5).p_values)


def test_covariates_take_no_part_in_the_distance():
    """Pairs come from the features alone: a wild covariate changes no
    pair, and without covariates the same pairs give the same fits."""
    X, y, nominal, C = mixed(4)
    plain = stats.npdr(X, y, nominal, k_nearest=5)
    wild = C.copy()
    wild[:, 0] *= 1e6
    adjusted = stats.npdr(X, y, nominal, covariates=wild, k_nearest=5,
                          covariate_nominal=[False, True])
    assert adjusted.n_pairs == plain.n_pairs
    assert adjusted.df == plain.df - 2
    assert adjusted.covariates == ("covariate 0", "covariate 1")
    assert not np.allclose(adjusted.p_values, plain.p_values)


def test_a_feature_equal_to_a_covariate_cannot_be_estimated():
    X, y, nominal, C = mixed(5)
    X[:, 1] = C[:, 0]
    with pytest.warns(ReliefWarning, match="combination of the covariates"):
        result = stats.npdr(X, y, nominal, covariates=C[:, 0], k_nearest=5)
    assert result.p_values[1] == 1.0 and math.isnan(result.weights[1])


def test_constant_and_unknown_features():
    X, y, nominal, _ = mixed(6)
    X[:, 1] = 3.0
    X[:, 2] = np.nan
    with pytest.warns(ReliefWarning):
        result = stats.npdr(X, y, nominal, k_nearest=5)
    assert result.p_values[1] == 1.0
    assert math.isnan(result.p_values[2]) and math.isnan(result.q_values[2])
    assert not np.isnan(result.p_values[[0, 3, 4]]).any()


def test_separation_uses_the_likelihood_ratio():
    """A nominal feature equal to the class separates hits from misses:
    Newton's method diverges, the coefficient is +inf and the statistic the
    signed root of the likelihood-ratio statistic (large: p tiny), with a
    warning."""
    X, y, nominal, _ = mixed(8, n=40)
    X[:, 4] = y
    with pytest.warns(ReliefWarning, match="did not converge"):
        result = stats.npdr(X, y, nominal, k_nearest=5)
    assert result.weights[4] == math.inf
    assert math.isnan(result.standard_errors[4])
    assert result.t[4] > 4 and result.p_values[4] < 1e-4


def test_missing_target_rows_are_left_out():
    X, y, nominal, C = mixed(9)
    y2 = y.copy()
    y2[[3, 10]] = np.nan
    with pytest.warns(ReliefWarning, match="2 instance"):
        got = stats.npdr(X, y2, nominal, covariates=C, k_nearest=5,
                         covariate_nominal=[False, True])
    keep = ~np.isnan(y2)
    want = stats.npdr(X[keep], y[keep], nominal, covariates=C[keep],
                      covariate_nominal=[False, True], k_nearest=5)
    assert_array_equal(got.p_values, want.p_values)


def test_hit_and_miss_neighbourhoods_bias_irrelevant_features():
    """Why the default is class-blind: with ReliefF's separate hit and miss
    neighbourhoods the misses are farther than the hits in every feature,
    so irrelevant features look relevant (doc/statistics.md)."""
    found = {False: 0, True: 0}
    for seed in range(4):
        table = confounded(n_instances=400, n_irrelevant=6,
                           random_state=seed)
        X, y = table.X[:, 1:], table.Y      # noise1..6 are columns 4..9
        for apart in found:
            result = stats.npdr(X, y, k_nearest=50,
                                separate_hit_miss=apart)
            found[apart] += int(np.sum(result.p_values[4:] < 0.05))
    assert found[False] <= 1 and found[True] >= 5


def test_adjusting_removes_a_confounder():
    """conf1, conf2 follow age, which drives the class: unadjusted NPDR
    finds them, NPDR's permutation test adjusted for age does not, and
    still finds the real features."""
    table = confounded(n_instances=300, n_irrelevant=30, random_state=0)
    X, y, age = table.X[:, 1:], table.Y, table.X[:, 0]
    plain = stats.npdr(X, y, k_nearest=40)
    adjusted = stats.npdr_permutation(X, y, covariates=age, k_nearest=40,
                                      n_permutations=49)
    # real1, real2, conf1, conf2, noise...
    assert np.all(plain.q_values[2:4] < 0.01)
    assert np.all(adjusted.p_values[2:4] > 0.1)
    assert np.all(adjusted.p_values[:2] <= 0.04)


def test_results_do_not_depend_on_threads():
    X, y, nominal, C = mixed(10, n=60)
    one = stats.npdr(X, y, nominal, covariates=C, n_jobs=1, k_nearest=5,
                     covariate_nominal=[False, True])
    two = stats.npdr(X, y, nominal, covariates=C, n_jobs=2, k_nearest=5,
                     covariate_nominal=[False, True])
    assert_array_equal(one.p_values, two.p_values)


def test_progress_and_cancel():
    X, y, nominal, _ = mixed(11)
    seen = []
    stats.npdr(X, y, nominal, k_nearest=5, progress=seen.append)
    assert seen and seen == sorted(seen) and seen[-1] == 1.0

    def cancel(fraction):
        if fraction > 0.3:
            raise InterruptedError      # (as a widget's Cancel does)
    with pytest.raises(InterruptedError):
        stats.npdr_permutation(X, y, nominal, n_permutations=9,
                               progress=cancel)


# -- permutations -------------------------------------------------------------

def test_permutation_p_values():
    X, y, nominal, C = mixed(12)
    result = stats.npdr_permutation(X, y, nominal, covariates=C,
                                    covariate_nominal=[False, True],
                                    k_nearest=5, n_permutations=19,
                                    permutation_seed=4)
    one_run = stats.npdr(X, y, nominal, covariates=C, k_nearest=5,
                         covariate_nominal=[False, True])
    assert_array_equal(result.t, one_run.t)
    assert_allclose(result.p_values * 20, np.round(result.p_values * 20))
    assert np.all(result.p_max_t >= result.p_values)
    again = stats.npdr_permutation(X, y, nominal, covariates=C,
                                   covariate_nominal=[False, True],
                                   k_nearest=5, n_permutations=19,
                                   permutation_seed=4)
    assert_array_equal(again.p_values, result.p_values)
    assert result.n_permutations == 19
    assert result.p_values[0] == 1 / 20      # the feature the target follows


def test_permutation_with_separate_neighbourhoods_finds_them_again():
    X, y, nominal, _ = mixed(13)
    result = stats.npdr_permutation(X, y, nominal, k_nearest=5,
                                    separate_hit_miss=True,
                                    n_permutations=9)
    assert result.p_values.shape == (5,)


def test_class_draws_keep_the_strata():
    rng = np.random.default_rng(0)
    C = np.column_stack([rng.normal(size=60), rng.integers(0, 2, 60)])
    covariates = Covariates(C, np.array([False, True]), ("a", "b"))
    y = rng.integers(0, 2, 60).astype(float)
    stratum = strata(covariates, 3)
    assert len(np.unique(stratum)) == 6
    permuter = Permuter(y, covariates, False, 3, seed=1, draws="strata")
    for _ in range(5):
        drawn = permuter.draw()
        for s in np.unique(stratum):
            rows = stratum == s
            assert sorted(drawn[rows]) == sorted(y[rows])


def test_class_draws_from_the_covariates_model():
    """class_draws="model": each class is drawn from the multinomial
    logistic regression of the class on the covariates -- the maximum
    likelihood fit (its score is 0), so the draws keep the share of each
    class among the instances of each covariate value."""
    from orangecontrib.relief.stats.npdr_parts import (class_probabilities,
                                                       design)
    rng = np.random.default_rng(0)
    group = rng.integers(0, 2, 400)
    y = np.where(rng.random(400) < np.where(group == 1, 0.8, 0.3), 2.0, 5.0)
    covariates = Covariates(group[:, None].astype(float), np.array([True]),
                            ("group",))
    P = class_probabilities(design(covariates),
                            (y == 5).astype(int), 2)
    for g in (0, 1):     # saturated: the fitted share is the observed one
        assert P[group == g, 0].mean() == pytest.approx(
            np.mean(y[group == g] == 2), abs=1e-6)
    permuter = Permuter(y, covariates, False, 5, seed=3)
    drawn = np.array([permuter.draw() for _ in range(200)])
    assert set(np.unique(drawn)) == {2.0, 5.0}
    assert np.mean(drawn[:, group == 1] == 2) == pytest.approx(
        np.mean(y[group == 1] == 2), abs=0.02)
    with pytest.raises(ValueError, match="class_draws must be"):
        stats.npdr_permutation(np.random.default_rng(0).random((20, 2)),
                               np.arange(20) % 2, class_draws="exact")


def test_numeric_draws_are_freedman_lane():
    rng = np.random.default_rng(0)
    C = rng.normal(size=(50, 1))
    y = 2 * C[:, 0] + rng.normal(size=50)
    covariates = Covariates(C, np.array([False]), ("a",))
    drawn = Permuter(y, covariates, True, 5, seed=1).draw()
    D = np.column_stack([np.ones(50), C])
    fitted = D @ np.linalg.lstsq(D, y, rcond=None)[0]
    assert_allclose(np.sort(drawn - fitted), np.sort(y - fitted))
    assert not np.allclose(drawn, y)


# -- the registry and bad input -----------------------------------------------

def test_registered_tests_adjust_for_covariates():
    X, y, nominal, C = mixed(14)
    for name in ("npdr", "npdr_permutation"):
        test = stats.TESTS[name]
        assert test.covariates and test.unsupported(covariates=True) is None
        got = test.run(X, y, nominal, n_permutations=9, k_nearest=5,
                       covariates=C[:, 0])
        assert got.covariates == ("covariate 0",)
    with pytest.raises(ValueError, match="does not adjust for covariates"):
        stats.TESTS["stir"].run(X, y, nominal, covariates=C[:, 0])
    assert stats.TESTS["stir"].unsupported(covariates=True) is not None
    assert stats.TESTS[stats.NPDR_DEFAULT].permutations


@pytest.mark.parametrize("change, message", [
    (dict(covariates=np.ones(36)), "constant"),
    (dict(covariates="class"), "the target itself"),
    (dict(covariates="relabelled class"), "the target itself"),
    (dict(covariates="missing"), "missing in 1 instance"),
    (dict(covariates=np.zeros((35, 1))), "one row per instance"),
    (dict(covariates="inf"), "inf"),
    (dict(covariates=np.arange(36.0) / 2, covariate_nominal=[True]),
     "codes"),
    (dict(covariates=np.arange(36.0), covariate_nominal=[True, False]),
     "one flag per covariate"),
    (dict(neighbours="multisurf*"), "far instances"),
    (dict(weight_by_distance=True), "weight_by_distance"),
    (dict(compat="weka"), "Weka"),
    (dict(separate_hit_miss=True, regression=True), "no hits and misses"),
    (dict(k_nearest=0), "k_nearest"),
    (dict(n_iterations=100), "n_iterations"),
])
def test_bad_input_says_what_to_change(change, message):
    X, y, nominal, _ = mixed(15)
    if isinstance(change.get("covariates"), str):
        kind = change["covariates"]
        one_bad = np.where(np.arange(36) == 3, np.nan, np.arange(36.0))
        column = {"class": y, "relabelled class": 5 - 2 * y,
                  "missing": one_bad,
                  "inf": np.where(np.isnan(one_bad), np.inf, one_bad)}[kind]
        change = dict(change, covariates=column)
    if change.get("regression"):
        y = X[:, 0]
    with pytest.raises(ValueError, match=message):
        stats.npdr(X, y, nominal, **change)


def test_every_pair_a_hit_is_an_error():
    X = np.array([[0.0], [0.1], [0.2], [5.0], [5.1], [5.2]])
    y = np.array([0, 0, 0, 1, 1, 1.0])
    with pytest.raises(ValueError, match="Every neighbour pair is a hit"):
        stats.npdr(X, y, k_nearest=2)
