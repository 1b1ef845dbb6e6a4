"""orangecontrib.relief.stats: STIR, permutation p-values, multiple testing
and stability."""
import math
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from scipy import stats as scipy_stats

from orangecontrib.relief.core import ReliefWarning, relieff
from orangecontrib.relief.stats import (benjamini_hochberg, bonferroni,
                                        kuncheva_index, npdr,
                                        npdr_permutation, permutation_test,
                                        stability, stir,
                                        unreachable_threshold)
from devices import (TOLERANCE, needs_cuda, no_gpu,  # noqa: F401
                     recording_engine, tiny)
from stir_reference import reference_stir

# The hand-worked table of test_stir_reference.py (its comments hold every
# pair, weight and sum): k = 2, A1 numeric on [0, 1], A2 nominal.
HAND_X = np.array([[0.75, 0], [1.00, 1], [0.75, 1],
                   [0.25, 1], [1.00, 0], [0.00, 1]])
HAND_Y = np.array([0, 0, 0, 1, 1, 1.0])
HAND_NOMINAL = np.array([False, True])


def test_stir_hand_table():
    # A1: mean_miss - mean_hit = 13/24 - 5/12 = 1/8, pooled variance
    #     31249/298368 over n_M = 288/23 and n_H = 12 effective pairs:
    #     t = 0.125 / sqrt(31249/298368 * 47/288) = 0.956127
    # A2: 5/24 - 2/3 = -11/24, pooled variance 57559/298368:
    #     t = -2.583142; df = 288/23 + 12 - 2 = 518/23
    result = stir(HAND_X, HAND_Y, HAND_NOMINAL, k_nearest=2)
    t = [0.125 / math.sqrt(31249 / 298368 * 47 / 288),
         (-11 / 24) / math.sqrt(57559 / 298368 * 47 / 288)]
    np.testing.assert_allclose(result.t, t, rtol=1e-12)
    assert result.df == pytest.approx(518 / 23, rel=1e-13)
    np.testing.assert_allclose(result.p_values,
                               scipy_stats.t.sf(t, 518 / 23), rtol=1e-11)
    np.testing.assert_allclose(result.p_values, [0.174579846498,
                                                 0.991607864149], rtol=1e-10)
    np.testing.assert_allclose(result.weights, [1 / 8, -11 / 24], atol=1e-15)


def _mixed(seed, n=30, a=5, n_classes=2, missing=0.0):
    rng = np.random.default_rng(seed)
    X = rng.random((n, a)).round(1)
    X[:, 3:] = rng.integers(0, 3, (n, a - 3))
    X[rng.random((n, a)) < missing] = np.nan
    y = rng.integers(0, n_classes, n).astype(float)
    nominal = np.arange(a) >= 3
    return X, y, nominal


@pytest.mark.parametrize("seed, n_classes, missing, options, reference", [
    (1, 2, 0.0, {}, {}),
    (2, 3, 0.1, {}, {}),
    (3, 3, 0.1, dict(misses="any"), dict(misses="any")),
    (4, 2, 0.0, dict(k_nearest=3, weight_by_distance=True),
     dict(k=3, weighted=True)),
    (5, 2, 0.1, dict(n_iterations=17, random_state=4),
     dict(m=17, seed=4)),
])
def test_stir_equals_the_reference(seed, n_classes, missing, options,
                                   reference):
    X, y, nominal = _mixed(seed, n_classes=n_classes, missing=missing)
    with pytest.warns() if n_classes == 3 else _nothing():
        ours = stir(X, y, nominal, **options)
    ref = reference_stir(X, y, nominal, **reference)
    np.testing.assert_allclose(ours.weights, ref["weights"], atol=1e-15)
    np.testing.assert_allclose(ours.t, ref["t"], rtol=1e-11)
    np.testing.assert_allclose(ours.p_values, ref["p"], rtol=1e-10,
                               atol=1e-14)
    assert ours.df == pytest.approx(ref["df"], rel=1e-12)


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_stir_sparse_equals_dense_and_constant_feature_p_is_1():
    X, y, _ = _mixed(6)
    X = np.c_[X[:, :3], np.full(len(X), 2.0)]
    X[X < 0.4] = 0
    dense = stir(X, y)
    sparse = stir(sp.csr_matrix(X), y)
    np.testing.assert_allclose(sparse.p_values, dense.p_values, rtol=1e-12)
    assert dense.weights[3] == 0 and dense.p_values[3] == 1.0


@pytest.mark.parametrize("options, message", [
    (dict(regression=True), "no regression form"),
    (dict(variant="drelieff"), "use permutation_test"),
    (dict(neighbours="multisurf*"), "starred rules"),
    (dict(compat="weka"), "compat=None"),
])
def test_stir_refuses_what_it_does_not_test(options, message):
    X, y, nominal = _mixed(1)
    with pytest.raises(ValueError, match=message):
        stir(X, y, nominal, **options)


def test_benjamini_hochberg_and_bonferroni_by_hand():
    p = np.array([0.01, 0.04, 0.03, 0.20, np.nan])
    # sorted 0.01 0.03 0.04 0.20 (m = 4): p m / rank = 0.04 0.06 0.0533 0.2,
    # then the minimum from the right: 0.04 0.0533 0.0533 0.2
    np.testing.assert_allclose(benjamini_hochberg(p),
                               [0.04, 0.16 / 3, 0.16 / 3, 0.2, np.nan])
    np.testing.assert_allclose(benjamini_hochberg(p[:4]),
                               scipy_stats.false_discovery_control(p[:4]))
    np.testing.assert_allclose(bonferroni(p), [0.04, 0.16, 0.12, 0.8,
                                               np.nan])


def test_kuncheva_index_by_hand():
    # a = 4, k = 2: one shared feature gives (1 * 4 - 4) / (2 * 2) = 0,
    # the same set 1, disjoint sets -1
    assert kuncheva_index([{0, 1}, {0, 2}], 4) == 0
    assert kuncheva_index([{0, 1}, {0, 1}], 4) == 1
    assert kuncheva_index([{0, 1}, {2, 3}], 4) == -1
    assert kuncheva_index([{0, 1}, {0, 1}, {2, 3}], 4) == pytest.approx(
        (1 - 1 - 1) / 3)
    with pytest.raises(ValueError, match="0 < k < 4"):
        kuncheva_index([{0, 1, 2, 3}, {0, 1, 2, 3}], 4)


def _signal(seed=0, n=60):
    rng = np.random.default_rng(seed)
    X = rng.random((n, 5))
    y = (X[:, 0] + 0.3 * rng.random(n) > 0.65).astype(float)
    return X, y


@pytest.mark.parametrize("variant", ["relieff", "drelieff", "pdrelieff"])
def test_permutation_test_finds_the_signal(variant):
    X, y = _signal()
    result = permutation_test(X, y, n_permutations=19, variant=variant,
                              k_nearest=5)
    np.testing.assert_array_equal(
        result.weights, relieff(X, y, variant=variant, k_nearest=5).weights)
    # p = (1 + #{null >= observed}) / 20: the relevant feature beats every
    # permutation
    assert result.p_values[0] == pytest.approx(1 / 20)
    assert result.p_max_t[0] == pytest.approx(1 / 20)
    assert np.all(result.p_max_t >= result.p_values)
    np.testing.assert_allclose(result.q_values,
                               benjamini_hochberg(result.p_values))
    assert np.all((result.p_values * 20) % 1 < 1e-9)    # multiples of 1/20


def test_permutation_test_regression_seeded_and_progress():
    rng = np.random.default_rng(1)
    X = rng.random((40, 4))
    y = X[:, 1] + 0.1 * rng.random(40)
    y[3] = np.nan
    seen = []
    first = permutation_test(X, y, n_permutations=9, regression=True,
                             progress=seen.append)
    again = permutation_test(X, y, n_permutations=9, regression=True)
    np.testing.assert_array_equal(first.p_values, again.p_values)
    assert seen == [pytest.approx(i / 9) for i in range(1, 10)]
    assert first.p_values[1] == pytest.approx(0.1)


def test_permutation_p_is_calibrated_on_null_data():
    """Features independent of the class: the share of p ≤ 0.05 over many
    features is near 0.05 (valid by construction; 400 null features here,
    so 0.05 +- 0.022 covers two standard errors)."""
    rng = np.random.default_rng(7)
    shares = []
    for _ in range(4):
        X = rng.random((40, 100))
        y = rng.integers(0, 2, 40).astype(float)
        p = permutation_test(X, y, n_permutations=39, k_nearest=5,
                             permutation_seed=int(rng.integers(1000))).p_values
        shares.append(np.mean(p <= 0.05))
    assert abs(np.mean(shares) - 0.05) < 0.022


def test_permutation_cancel_and_bad_input():
    X, y = _signal()

    def cancel(fraction):
        raise RuntimeError("cancelled")
    with pytest.raises(RuntimeError, match="cancelled"):
        permutation_test(X, y, n_permutations=5, progress=cancel)
    with pytest.raises(ValueError, match="n_permutations"):
        permutation_test(X, y, n_permutations=0)


@pytest.mark.parametrize("kind", ["fdr", "p", "fwer"])
def test_unreachable_threshold_by_hand(kind):
    # R = 19: the smallest p is 1/20 = 0.05, and neither a q nor a max-T p
    # is below it, so nothing passes "< 0.05"; R = 20 gives 1/21 < 0.05
    sentence = unreachable_threshold(kind, 0.05, 19, 10)
    assert "1/20 = 0.05" in sentence
    assert "use at least 20 permutations" in sentence
    assert unreachable_threshold(kind, 0.05, 20, 10) is None
    assert unreachable_threshold(kind, 0.05, 99, 10) is None
    # alpha = 0.01: 1/100 is not below it, 1/101 is
    assert "at least 100 permutations" in unreachable_threshold(kind, 0.01,
                                                               99, 3)
    assert unreachable_threshold(kind, 0.01, 100, 3) is None


def test_unreachable_threshold_fdr_and_bonferroni_by_hand():
    # BH: q = (1/(R + 1)) m / j; a feature alone at the smallest p (j = 1)
    # of m = 10 needs 10 / (R + 1) < 0.05, R + 1 > 200
    assert "(200 for one of the 10 features" in unreachable_threshold(
        "fdr", 0.05, 19, 10)
    assert "for one of" not in unreachable_threshold("fdr", 0.05, 19, 1)
    # Bonferroni: 10 / (R + 1) < 0.05 needs R = 200 (10/200 is not below)
    sentence = unreachable_threshold("bonferroni", 0.05, 199, 10)
    assert "10/200 = 0.05" in sentence and "at least 200 permutations" \
        in sentence
    assert unreachable_threshold("bonferroni", 0.05, 200, 10) is None
    assert unreachable_threshold("bonferroni", 0.05, 19, 1) is not None
    assert unreachable_threshold("bonferroni", 0.05, 20, 1) is None


def test_unreachable_threshold_matches_the_permutation_test():
    """A feature that beats every permutation gets exactly the smallest p:
    with R = 19 even it has no p, q or max-T p below 0.05; with R = 20 its
    p and max-T p are 1/21."""
    X, y = _signal()
    for R, reachable in ((19, False), (20, True)):
        result = permutation_test(X, y, n_permutations=R, k_nearest=5)
        assert result.p_values[0] == 1 / (R + 1)
        for kind, values in (("p", result.p_values), ("fdr", result.q_values),
                             ("fwer", result.p_max_t)):
            assert np.all(values >= 1 / (R + 1))
            assert (unreachable_threshold(kind, 0.05, R, 5) is None) \
                == reachable
        assert bool(np.any(result.p_values < 0.05)) == reachable
        assert bool(np.any(result.p_max_t < 0.05)) == reachable


@pytest.mark.parametrize("args, message", [
    (("q", 0.05, 99, 3), "kind must be"),
    (("fdr", 0, 99, 3), "alpha must be a positive number"),
    (("fdr", float("nan"), 99, 3), "alpha must be a positive number"),
    (("fdr", 0.05, 0, 3), "n_permutations"),
    (("fdr", 0.05, 99, 0), "n_features"),
])
def test_unreachable_threshold_bad_input(args, message):
    with pytest.raises(ValueError, match=message):
        unreachable_threshold(*args)


def test_stability_ranks_and_consistency():
    X, y = _signal()
    seen = []
    result = stability(X, y, n_resamples=8, top_k=1, progress=seen.append,
                       k_nearest=5)
    assert result.ranks.shape == (8, 5)
    assert np.all(np.sort(result.ranks, axis=1) == np.arange(1, 6))
    # the relevant feature is first in every resample: rank 1, interval
    # [1, 1], always in the top 1, and the top-1 sets identical
    assert result.mean_rank[0] == 1 and result.rank_high[0] == 1
    assert result.top_k_frequency[0] == 1 and result.kuncheva == 1
    np.testing.assert_allclose(result.mean_rank, result.ranks.mean(axis=0))
    assert seen[-1] == 1
    again = stability(X, y, n_resamples=8, top_k=1, k_nearest=5)
    np.testing.assert_array_equal(result.ranks, again.ranks)
    boot = stability(X, y, n_resamples=4, bootstrap=True, k_nearest=5,
                     variant="pdrelieff")
    assert boot.top_k == 2 and boot.ranks.shape == (4, 5)


@pytest.mark.parametrize("options, message", [
    (dict(n_resamples=1), "at least 2"), (dict(fraction=0), "fraction"),
    (dict(top_k=5), "smaller than the number of features"),
])
def test_stability_bad_input(options, message):
    X, y = _signal()
    with pytest.raises(ValueError, match=message):
        stability(X, y, **options)


def test_feature_permutation_is_the_per_feature_null():
    """permute="feature" permutes one column at a time: on data where two
    features carry the class, an independent feature's p is not small
    (the class-permutation null can make it so: doc/statistics.md), the
    relevant ones get the smallest p, and sparse storage gives the same
    draws and p-values."""
    rng = np.random.default_rng(3)
    X = rng.integers(0, 2, (120, 6)).astype(float)
    y = (X[:, 0].astype(bool) ^ X[:, 1].astype(bool)).astype(float)
    X = np.c_[X, np.zeros(120)]                 # a constant feature
    seen = []
    result = permutation_test(X, y, permute="feature", n_permutations=19,
                              progress=seen.append, k_nearest=5)
    assert result.method == "permutation (feature)"
    assert result.p_max_t is None
    np.testing.assert_allclose(result.p_values[:2], 1 / 20)
    assert result.p_values[6] == 1.0            # constant: not refitted
    assert len(seen) == 19 * 6 and seen[-1] == 1
    sparse = permutation_test(sp.csr_matrix(X), y, permute="feature",
                              n_permutations=19, k_nearest=5)
    np.testing.assert_array_equal(sparse.p_values, result.p_values)
    with pytest.raises(ValueError, match="permute must be"):
        permutation_test(X, y, permute="rows")


@pytest.mark.parametrize("rule", ["k", "multisurf"])
def test_engine_pair_sums_compiled_vectorised_and_weights_unchanged(rule):
    X, y, nominal = _mixed(8, n_classes=3, missing=0.1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = relieff(X, y, nominal, neighbours=rule)
        compiled = relieff(X, y, nominal, neighbours=rule, statistics=True,
                           kernels="compiled")
        fast = relieff(X, y, nominal, neighbours=rule, statistics=True,
                       kernels="vectorised")
    np.testing.assert_array_equal(compiled.weights, plain.weights)
    for key, value in compiled.pair_sums.items():
        np.testing.assert_allclose(fast.pair_sums[key], value, rtol=1e-12,
                                   atol=1e-13, err_msg=key)
    # the weight is mean_miss - mean_hit: (S1_miss - S1_hit) / m
    sums = compiled.pair_sums
    np.testing.assert_allclose((sums["S1_miss"] - sums["S1_hit"]) / len(y),
                               plain.weights, atol=1e-15)
    with pytest.raises(ValueError, match="classification"):
        relieff(X, X[:, 0], statistics=True, regression=True)
    with pytest.raises(ValueError, match="no trace"):
        relieff(X, y, nominal, statistics=True, trace_every=5)


# -- device= ------------------------------------------------------------------

@needs_cuda
def test_permutation_refits_on_the_gpu_give_the_cpu_p_values():
    X, y, nominal = tiny()
    gpu = permutation_test(X, y, nominal, n_permutations=3, k_nearest=3,
                           device="cuda")
    cpu = permutation_test(X, y, nominal, n_permutations=3, k_nearest=3)
    np.testing.assert_allclose(gpu.weights, cpu.weights, rtol=0,
                               atol=TOLERANCE)
    np.testing.assert_array_equal(gpu.p_values, cpu.p_values)


@needs_cuda
@pytest.mark.parametrize("sparse", [False, True])
def test_stir_on_the_gpu_gives_the_cpu_test(sparse):
    """Dense data: STIR's sums from the GPU's run; sparse data: the weights
    from the GPU, the sums from the CPU's path (which takes no device)."""
    X, y, nominal = tiny()
    if sparse:
        X = sp.csr_matrix(np.where(X < 0.5, 0.0, X))
    gpu = stir(X, y, nominal, k_nearest=3, device="cuda")
    cpu = stir(X, y, nominal, k_nearest=3)
    np.testing.assert_allclose(gpu.weights, cpu.weights, rtol=0,
                               atol=TOLERANCE)
    np.testing.assert_allclose(gpu.t, cpu.t, rtol=1e-10, atol=1e-12)


def test_device_reaches_every_refit(monkeypatch):
    import orangecontrib.relief.stats as stats_module
    told = []
    monkeypatch.setattr(stats_module, "relieff", recording_engine(told))
    X, y, nominal = tiny()
    permutation_test(X, y, nominal, n_permutations=2, k_nearest=3,
                     device="cuda")
    permutation_test(X, y, nominal, n_permutations=2, k_nearest=3,
                     permute="feature", device="cuda")
    stability(X, y, nominal, n_resamples=2, k_nearest=3, device="cuda")
    assert len(told) > 3 + 3 + 3 and set(told) == {"cuda"}


@pytest.mark.filterwarnings("ignore::orangecontrib.relief.ReliefWarning")
def test_npdr_takes_the_scorers_device_and_runs_on_the_cpu():
    X, y, nominal = tiny()
    for test in (npdr, npdr_permutation):
        options = dict(n_permutations=3) if test is npdr_permutation else {}
        np.testing.assert_array_equal(
            test(X, y, nominal, k_nearest=3, device="cuda", **options)
            .p_values, test(X, y, nominal, k_nearest=3, **options).p_values)


def test_device_auto_without_a_gpu_refits_on_the_cpu(no_gpu):
    X, y, nominal = tiny()
    with pytest.warns(ReliefWarning, match="runs on the CPU") as caught:
        auto = permutation_test(X, y, nominal, n_permutations=3,
                                k_nearest=3, device="auto")
    assert sum("runs on the CPU" in str(w.message) for w in caught) == 1
    cpu = permutation_test(X, y, nominal, n_permutations=3, k_nearest=3)
    np.testing.assert_array_equal(auto.p_values, cpu.p_values)
    with pytest.raises(ValueError, match="'cpu', 'cuda' or 'auto'"):
        permutation_test(X, y, nominal, device="gpu")
