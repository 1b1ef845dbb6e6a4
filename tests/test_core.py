"""The engine against Weka, hand computations, a naive reference and
invariants (doc/semantics.md)."""
import math
import warnings
from pathlib import Path

import numpy as np
import pytest
from Orange.data import Table

from orangecontrib.relief.core import (ReliefWarning, default_T,
                                       distance_weights, ranking, relieff)
from problems import random_problem, sparse_problem
from reference import reference_relief

DATA = Path(__file__).parent / "data"
GOLDEN = ["binary_s7", "mixed_s7", "multiclass_s7", "regression_s7"]
WEKA_OPTIONS = {"k10": dict(k_nearest=10),
                "k5": dict(k_nearest=5),
                "k10_weighted_sigma2": dict(k_nearest=10,
                                            weight_by_distance=True,
                                            sigma=2.0)}


def golden(name):
    rows = (DATA / f"{name}.weka.tsv").read_text().strip().split("\n")[1:]
    return {line.split("\t")[0]: np.array(line.split("\t")[1:], float)
            for line in rows}


def seed_visiting_first(n, row):
    """A random_state whose visiting order starts with ``row``."""
    return next(s for s in range(1000)
                if np.random.default_rng(s).permutation(n)[0] == row)


@pytest.mark.parametrize("name", GOLDEN)
@pytest.mark.parametrize("option", sorted(WEKA_OPTIONS))
def test_weka_golden(name, option):
    """Weka's ReliefFAttributeEval weights (data/golden, made by Weka) to 1e-12."""
    table = Table(str(DATA / f"{name}.tab"))
    nominal = [v.is_discrete for v in table.domain.attributes]
    result = relieff(table.X, table.Y, nominal,
                     regression=table.domain.class_var.is_continuous,
                     **WEKA_OPTIONS[option])
    expected = golden(name)[option]
    assert result.weights.shape == expected.shape
    np.testing.assert_allclose(result.weights, expected, rtol=0, atol=1e-12)


# Hand-computed: x and z numeric on [0, 1]; R = row 0.  Hits H1 and H2 are
# both at distance 0.2 from R, H3 at 1.0; misses M4 at 1.1 and M5 at 1.3.
TIES = np.array([[0.0, 0.0, 0],    # R
                 [0.2, 0.0, 0],    # H1
                 [0.0, 0.2, 0],    # H2
                 [0.5, 0.5, 0],    # H3
                 [1.0, 0.1, 1],    # M4
                 [0.3, 1.0, 1]])   # M5


def visit_row0(data, **options):
    """The weights after visiting row 0 only (m = 1)."""
    seed = seed_visiting_first(len(data), 0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReliefWarning)   # k >= class size
        return relieff(data[:, :-1], data[:, -1], n_iterations=1,
                       random_state=seed, **options).weights


def test_tied_kth_neighbours_share_the_slot():
    # k=1: H1 and H2 tie for the one hit slot, each counts 1/2:
    #   x: -(0.5 * 0.2 + 0.5 * 0.0) + diff(M4) 1.0 = 0.9
    #   z: -(0.5 * 0.0 + 0.5 * 0.2) + diff(M4) 0.1 = 0.0
    np.testing.assert_allclose(visit_row0(TIES, k_nearest=1), [0.9, 0.0],
                               atol=1e-15)
    # the same with H1 and H2 swapped: weights do not depend on row order
    swapped = TIES[[0, 2, 1, 3, 4, 5]]
    np.testing.assert_allclose(visit_row0(swapped, k_nearest=1), [0.9, 0.0],
                               atol=1e-15)


def test_four_tied_instances_share_two_slots():
    # R at 0; four hits at distance 0.5 (x = +-0.5 on two features), k=2:
    # each tied hit counts 2/4; the miss class has one instance.
    data = np.array([[0.5, 0.5, 0],     # R
                     [1.0, 0.5, 0],     # dx 0.5
                     [0.0, 0.5, 0],     # dx 0.5
                     [0.5, 1.0, 0],     # dz 0.5
                     [0.5, 0.0, 0],     # dz 0.5
                     [1.0, 1.0, 1]])    # miss: dx 0.5, dz 0.5
    # hits: x: -(0.5 + 0.5 + 0 + 0) * (1/2) / 2 = -0.25, z likewise;
    # miss (one found, averaged by 1): +0.5 each
    np.testing.assert_allclose(visit_row0(data, k_nearest=2), [0.25, 0.25],
                               atol=1e-15)


def test_class_smaller_than_k_contributes_all_averaged_by_count():
    # k=3: hits H1, H2, H3 (all three); misses: only M4, M5 exist, so their
    # mean is over 2, not 3.
    expected_x = -(0.2 + 0.0 + 0.5) / 3 + (1.0 + 0.3) / 2
    expected_z = -(0.0 + 0.2 + 0.5) / 3 + (0.1 + 1.0) / 2
    np.testing.assert_allclose(visit_row0(TIES, k_nearest=3),
                               [expected_x, expected_z], atol=1e-15)


def test_rank_weights_with_ties_share_mean_influence():
    # k=3, sigma=1: H1, H2 tie at ranks 0 and 1 -> each (1 + e^-1) / 2;
    # H3 at rank 2 -> e^-4; the normaliser is 1 + e^-1 + e^-4.  Misses: two
    # found, ranks 0 (M4) and 1 (M5), normaliser 1 + e^-1.
    e1, e4 = math.exp(-1), math.exp(-4)
    tie = (1 + e1) / 2
    hit_norm, miss_norm = 1 + e1 + e4, 1 + e1
    expected_x = -(tie * 0.2 + tie * 0.0 + e4 * 0.5) / hit_norm \
        + (1.0 * 1.0 + e1 * 0.3) / miss_norm
    expected_z = -(tie * 0.0 + tie * 0.2 + e4 * 0.5) / hit_norm \
        + (1.0 * 0.1 + e1 * 1.0) / miss_norm
    np.testing.assert_allclose(
        visit_row0(TIES, k_nearest=3, weight_by_distance=True, sigma=1.0),
        [expected_x, expected_z], atol=1e-15)


# RELIEF-D by hand: x numeric on [0, 1], g nominal.  Class laws of the known
# values: x|c0 = {0, 1, 0}, x|c1 = {0.5, 0.25}; P(g=0|c0) = 2/3,
# P(g=1|c0) = 1/3, P(g=0|c1) = P(g=1|c1) = 1/2.
NAN = np.nan
MISSING = np.array([[NAN, NAN, 0],     # 0
                    [0.0, 0, 0],       # 1
                    [1.0, 1, 0],       # 2
                    [0.0, 0, 0],       # 3
                    [0.5, 0, 1],       # 4
                    [NAN, 1, 1],       # 5
                    [0.25, NAN, 1]])   # 6


def visit_missing(row):
    # k=10 takes every instance of each class: no neighbour selection, the
    # weight is -mean diff(hits) + mean diff(misses).
    seed = seed_visiting_first(len(MISSING), row)
    with pytest.warns(ReliefWarning):
        return relieff(MISSING[:, :2], MISSING[:, 2], [False, True],
                       n_iterations=1, random_state=seed,
                       k_nearest=10).weights


def test_relief_d_when_the_visited_instance_is_missing():
    # R = row 0 (both values missing, class c0).
    # hits 1, 2, 3: x: E|X_c0 - v| = 1/3, 2/3, 1/3 -> mean 4/9
    #               g: 1 - P(v|c0) = 1/3, 2/3, 1/3 -> mean 4/9
    # misses: 4 (0.5, 0): x E|X_c0 - 0.5| = 1/2; g 1 - P(0|c0) = 1/3
    #         5 (?, 1):   x both missing E|X_c0 - X_c1| = 2.75/6 = 11/24;
    #                     g 1 - P(1|c0) = 2/3
    #         6 (0.25, ?): x E|X_c0 - 0.25| = 5/12;
    #                     g both missing 1 - (2/3 * 1/2 + 1/3 * 1/2) = 1/2
    #   x: mean (1/2 + 11/24 + 5/12) = 11/24; g: mean (1/3 + 2/3 + 1/2) = 1/2
    np.testing.assert_allclose(visit_missing(0),
                               [-4 / 9 + 11 / 24, -4 / 9 + 1 / 2],
                               atol=1e-15)


def test_relief_d_when_the_neighbour_is_missing():
    # R = row 4 (0.5, 0, class c1); the missing side's class is used.
    # hits: 5 (?, 1): x E|X_c1 - 0.5| = 0.125, g 1
    #       6 (0.25, ?): x 0.25, g 1 - P(0|c1) = 1/2   -> means 0.1875, 0.75
    # misses 0 (?, ?): x E|X_c0 - 0.5| = 1/2, g 1 - P(0|c0) = 1/3;
    #        1, 2, 3: x 0.5 each; g 0, 1, 0          -> means 0.5, 1/3
    np.testing.assert_allclose(visit_missing(4),
                               [-0.1875 + 0.5, -0.75 + 1 / 3], atol=1e-15)


# dReliefF / pdReliefF by hand, k=1, x and z on [0, 1].
FEEDBACK_ROWS = {"A": (0.0, 0.0, 0), "R2": (1.0, 1.0, 1), "H1": (0.0, 0.3, 0),
                 "H2": (0.8, 0.0, 0), "M1": (0.5, 0.0, 1),
                 "M2": (0.0, 1.0, 1)}


def feedback_data():
    """Rows placed so that seed 0 visits A, R2, H1 first."""
    order = np.random.default_rng(0).permutation(6)
    data = np.empty((6, 3))
    for position, name in zip(order, FEEDBACK_ROWS):
        data[position] = FEEDBACK_ROWS[name]
    return data


@pytest.mark.parametrize("variant", ["drelieff", "pdrelieff"])
def test_feedback_steps_1_2_3(variant):
    data = feedback_data()
    T = default_T(6)
    result = relieff(data[:, :2], data[:, 2], variant=variant, k_nearest=1,
                     trace_every=1)
    W1, W2, W3 = result.trace[:3]
    # step 1 (plain distance): R = A; nearest hit H1 (0.3), miss M1 (0.5)
    #   update (0 - 0 + 0.5, -0.3 + 0) -> W1 = (0.5, -0.3)
    np.testing.assert_allclose(W1, [0.5, -0.3], atol=1e-15)
    w = np.empty(2)
    distance_weights(W1, 2, 1 if variant == "drelieff" else 2, T, w, 6)
    if variant == "drelieff":
        np.testing.assert_allclose(w, [0.5, 0.0])           # max(0, W1)
    else:                                                   # f(W1, 2)
        np.testing.assert_allclose(w, [0.5 / 2 ** T + 0.5,
                                       1.3 / 2 ** T - 0.3])
        np.testing.assert_allclose(w, [0.73065, 0.29970], atol=1e-5)
    # step 2: R = R2 (1, 1), class 1.  Weighted distances to the hits:
    #   M1 (diffs 0.5, 1): d 0.25 / pd 0.665;  M2 (1, 0): d 0.5 / pd 0.731
    #   -> hit M1.  Misses: H2 (0.2, 1) nearest for both.
    #   update (-0.5 + 0.2, -1 + 1) = (-0.3, 0) -> W2 = (0.1, -0.15)
    # (plain ReliefF would take hit M2 and get W2 = (-0.15, 0.35))
    np.testing.assert_allclose(W2, [0.1, -0.15], atol=1e-15)
    distance_weights(W2, 3, 1 if variant == "drelieff" else 2, T, w, 6)
    if variant == "drelieff":
        np.testing.assert_allclose(w, [0.1, 0.0])
    else:
        np.testing.assert_allclose(w, [0.36403, 0.18738], atol=1e-5)
    # step 3: R = H1 (0, 0.3), class 0: hit A, miss M2 for both variants
    #   update (0 + 0, -0.3 + 0.7) -> W3 = (0.2 / 3, 0.1 / 3)
    np.testing.assert_allclose(W3, [0.2 / 3, 0.1 / 3], atol=1e-15)
    plain = relieff(data[:, :2], data[:, 2], k_nearest=1, trace_every=1)
    np.testing.assert_allclose(plain.trace[1], [-0.15, 0.35], atol=1e-15)


def test_ranking_best_first_ties_in_order_nan_last():
    assert ranking([0.1, np.nan, 0.3, 0.1, -0.2]).tolist() == [2, 0, 3, 4, 1]
    assert ranking([]).tolist() == []


def test_distance_weights_rules():
    w = np.empty(3)
    distance_weights(np.array([0.5, -1.0, np.nan]), 1, 1, 0.0, w, 10)
    np.testing.assert_array_equal(w, [1, 1, 1])       # t = 1: all ones
    distance_weights(np.array([-0.5, -1.0, 0.0]), 4, 1, 0.0, w, 10)
    np.testing.assert_array_equal(w, [1, 1, 1])       # all zero: all ones
    distance_weights(np.array([0.5, -1.0, np.nan]), 4, 1, 0.0, w, 10)
    np.testing.assert_array_equal(w, [0.5, 0, 0])     # NaN counts as 0
    assert default_T(100) == pytest.approx(2 / math.log(100))


CASES = [
    dict(),
    dict(k=3, weighted=True, sigma=1.5),
    dict(k=2, misses="any"),
    dict(variant="drelieff", k=3),
    dict(variant="pdrelieff", k=3),
    dict(variant="pdrelieff", k=2, T=0.7, m=15, seed=3),
    dict(regression=True, k=4),
    dict(regression=True, variant="pdrelieff", k=3, weighted=True),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: ",".join(
    f"{k}={v}" for k, v in c.items()) or "plain")
@pytest.mark.parametrize("data_seed", [0, 1])
def test_agrees_with_naive_reference(case, data_seed):
    """Missing values, ties and every option, against tests/reference.py."""
    X, y, nominal = random_problem(data_seed)
    if case.get("regression"):
        y = y + np.random.default_rng(data_seed).random(len(y))
    y[2] = np.nan                       # a missing class: dropped
    expected = reference_relief(X, y, nominal, **case)
    options = dict(regression=case.get("regression", False),
                   variant=case.get("variant", "relieff"),
                   n_iterations=case.get("m"), k_nearest=case.get("k", 10),
                   random_state=case.get("seed", 0),
                   misses=case.get("misses", "per_class"),
                   weight_by_distance=case.get("weighted", False),
                   sigma=case.get("sigma", 2.0), T=case.get("T"))
    with pytest.warns(ReliefWarning):
        result = relieff(X, y, nominal, **options)
    np.testing.assert_allclose(result.weights, expected, rtol=1e-10,
                               atol=1e-12)
    assert result.n_dropped == 1


def test_row_permutation_does_not_change_relieff():
    X, y, nominal = random_problem(5, n=40, missing=0.05)
    base = relieff(X, y, nominal, k_nearest=3).weights
    perm = np.random.default_rng(1).permutation(len(y))
    permuted = relieff(X[perm], y[perm], nominal, k_nearest=3).weights
    np.testing.assert_allclose(permuted, base, rtol=0, atol=1e-14)


@pytest.mark.parametrize("variant", ["relieff", "pdrelieff"])
def test_column_permutation_permutes_the_weights(variant):
    """Ties are found whatever order the diffs are summed in."""
    X, y, nominal = random_problem(4, n=40, a=7, missing=0.1)
    options = dict(k_nearest=3, weight_by_distance=True, variant=variant)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReliefWarning)
        base = relieff(X, y, nominal, **options).weights
        cols = np.random.default_rng(0).permutation(X.shape[1])
        permuted = relieff(X[:, cols], y, nominal[cols], **options).weights
    np.testing.assert_allclose(permuted, base[cols], rtol=0, atol=1e-14)


def test_rescaling_a_numeric_feature_changes_nothing():
    rng = np.random.default_rng(2)
    X = rng.random((60, 4))
    y = (X[:, 0] + X[:, 1] > 1).astype(float)
    base = relieff(X, y, k_nearest=5).weights
    X2 = X.copy()
    X2[:, 1] = X2[:, 1] * 1000 - 7
    np.testing.assert_allclose(relieff(X2, y, k_nearest=5).weights, base,
                               atol=1e-12)


def test_duplicated_feature_gets_equal_weights():
    X, y, nominal = random_problem(7, n=40, missing=0.0)
    X = np.hstack([X, X[:, [0, 1]]])
    nominal = np.concatenate([nominal, nominal[[0, 1]]])
    for variant in ["relieff", "drelieff", "pdrelieff"]:
        w = relieff(X, y, nominal, k_nearest=3, variant=variant).weights
        assert w[0] == pytest.approx(w[-2], abs=1e-14)
        assert w[1] == pytest.approx(w[-1], abs=1e-14)


class _VisitAll(np.random.RandomState):
    """Makes Orange's relieff visit every row once, in order."""
    def randint(self, high, size=None, dtype=int):
        return np.arange(high, dtype=dtype)


@pytest.mark.parametrize("n_classes", [2, 3])
def test_agrees_with_orange_builtin(n_classes):
    """Continuous data without ties, every class bigger than k: Orange's
    division by m*k equals ours."""
    from Orange.preprocess._relieff import relieff as orange_relieff
    rng = np.random.default_rng(n_classes)
    X = rng.random((90, 6))
    y = (np.floor(X[:, 0] * n_classes) + (rng.random(90) < 0.1)) % n_classes
    k = 5
    assert np.bincount(y.astype(int)).min() > k
    theirs = np.asarray(orange_relieff(X, y, len(y), k, np.zeros(6, bool),
                                       _VisitAll()))
    ours = relieff(X, y, k_nearest=k).weights
    np.testing.assert_allclose(ours, theirs, atol=1e-12)


def test_constant_and_all_missing_features():
    rng = np.random.default_rng(0)
    X = rng.random((20, 4))
    X[:, 1] = 3.0                 # constant: weight 0
    X[:, 2] = np.nan              # all missing: weight NaN
    X[::3, 1] = np.nan            # constant with some missing: still 0
    y = (X[:, 0] > 0.5).astype(float)
    with pytest.warns(ReliefWarning, match="no known value"):
        w = relieff(X, y, k_nearest=3).weights
    assert w[1] == 0 and np.isnan(w[2]) and w[0] > 0
    # they do not change the others
    np.testing.assert_allclose(w[[0, 3]],
                               relieff(X[:, [0, 3]], y, k_nearest=3).weights,
                               atol=1e-15)


def test_input_arrays_are_not_modified():
    X, y, nominal = random_problem(8, n=30, missing=0.2)
    X_before, y_before = X.copy(), y.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReliefWarning)
        relieff(X, y, nominal, k_nearest=3)
        relieff(X, y, nominal, k_nearest=3, variant="pdrelieff")
    np.testing.assert_array_equal(X, X_before)
    np.testing.assert_array_equal(y, y_before)


def test_one_class_gives_zeros_with_warning():
    X = np.random.default_rng(0).random((10, 3))
    with pytest.warns(ReliefWarning, match="only one class"):
        w = relieff(X, np.zeros(10)).weights
    np.testing.assert_array_equal(w, 0)


def test_constant_target_gives_zeros_with_warning():
    X = np.random.default_rng(0).random((10, 3))
    with pytest.warns(ReliefWarning, match="constant"):
        w = relieff(X, np.ones(10), regression=True).weights
    np.testing.assert_array_equal(w, 0)


@pytest.mark.parametrize("options, message", [
    (dict(k_nearest=0), "k_nearest"),
    (dict(k_nearest=2.5), "k_nearest"),
    (dict(n_iterations=0), "n_iterations"),
    (dict(n_iterations=11), "n_iterations"),
    (dict(variant="xrelieff"), "variant"),
    (dict(misses="some"), "misses"),
    (dict(weight_by_distance=True, sigma=0), "sigma"),
    (dict(variant="pdrelieff", T=-1), "T"),
    (dict(trace_every=0), "trace_every"),
    (dict(n_jobs=0), "n_jobs"),
])
def test_bad_options_raise_clear_errors(options, message):
    X = np.random.default_rng(0).random((10, 3))
    y = np.arange(10) % 2
    with pytest.raises(ValueError, match=message):
        relieff(X, y, **options)


def test_bad_data_raises_clear_errors():
    X = np.random.default_rng(0).random((10, 3))
    with pytest.raises(ValueError, match="at least two instances"):
        relieff(X[:0], np.zeros(0))
    with pytest.raises(ValueError, match="at least two instances"), \
            pytest.warns(ReliefWarning):
        relieff(X, np.full(10, np.nan))
    with pytest.raises(ValueError, match="one class value per row"):
        relieff(X, np.zeros(9))
    with pytest.raises(ValueError, match="integer codes"):
        relieff(X, np.linspace(0, 1, 10))
    with pytest.raises(ValueError, match="one flag per feature"):
        relieff(X, np.arange(10) % 2, nominal=[True])
    with pytest.raises(ValueError, match="Nominal features"):
        relieff(X, np.arange(10) % 2, nominal=[True, False, False])


@pytest.mark.parametrize("bad", [-1.0, 2.5, np.inf, 2.0 ** 40])
def test_nominal_codes_must_be_non_negative_integers(bad):
    X = np.tile([[0.0, 1.0], [2.0, 0.0], [1.0, 1.0]], (4, 1))
    X[5, 0] = bad
    with pytest.raises(ValueError, match="Nominal features"):
        relieff(X, np.arange(12) % 2, nominal=[True, False])


def test_prepare_codes_and_ranges():
    """One pass finds each column's known count and range (NaN skipped) and
    turns nominal columns into int8 codes, or int32 past 127, -1 = missing;
    any memory layout of X gives the same."""
    from orangecontrib.relief.core.contract.prepare import prepare
    X = np.array([[0.0, 5.0, 3.0, np.nan, 7.0],
                  [1.0, np.nan, 3.0, np.nan, 2.0],
                  [np.nan, -1.0, 3.0, np.nan, 300.0],
                  [2.0, 4.0, 3.0, np.nan, 2.0]])
    y = np.array([0, 1, 0, 1])
    nominal = [True, False, False, True, True]
    with pytest.warns(ReliefWarning, match="no known value"):
        prep = prepare(X, y, nominal)
    assert prep.used.tolist() == [1, 0, 4]      # numeric first, then nominal
    assert prep.constant.tolist() == [2] and prep.all_missing.tolist() == [3]
    np.testing.assert_array_equal(
        prep.num[:, 0], [1.0, np.nan, 0.0, 5 / 6])   # (x - min) / range
    assert prep.nom.dtype == np.int32                   # code 300
    assert prep.nom.tolist() == [[0, 7], [1, 2], [-1, 300], [2, 2]]
    assert prep.has_missing
    for layout in (np.asfortranarray(X), np.hstack([X, X])[:, :5]):
        with pytest.warns(ReliefWarning):
            other = prepare(layout, y, nominal)
        np.testing.assert_array_equal(other.num, prep.num)
        np.testing.assert_array_equal(other.nom, prep.nom)
    with pytest.warns(ReliefWarning):
        small = prepare(X[:, [0, 3]], y, [True, True])
    assert small.nom.dtype == np.int8
    assert small.nom[:, 0].tolist() == [0, 1, -1, 2]


@pytest.mark.parametrize("variant", ["relieff", "drelieff", "pdrelieff"])
@pytest.mark.parametrize("options", [dict(), dict(regression=True),
                                     dict(weight_by_distance=True, k_nearest=3)])
def test_sparse_input_equals_dense(variant, options):
    """Zeros are values; a nominal column's 0 is a category."""
    import scipy.sparse as sp
    rng = np.random.default_rng(0)
    X = rng.random((60, 30)) * (rng.random((60, 30)) < 0.2)
    X[:, 3] = (X[:, 3] > 0) * rng.integers(1, 3, 60)
    X[:, 7] = 0.0                                     # constant: weight 0
    nominal = np.zeros(30, bool)
    nominal[3] = True
    y = (X[:, 0] + X[:, 1] > 0.3).astype(float)
    if options.get("regression"):
        y = X[:, 0] * 2 + rng.random(60)
    dense = relieff(X, y, nominal, variant=variant, **options).weights
    sparse = relieff(sp.csr_matrix(X), y, nominal, variant=variant,
                     **options).weights
    np.testing.assert_allclose(sparse, dense, rtol=0, atol=1e-14)
    assert sparse[7] == 0
    # without a nominal mask every feature is numeric
    np.testing.assert_allclose(
        relieff(sp.csr_matrix(X), y, variant=variant, **options).weights,
        relieff(X, y, variant=variant, **options).weights, rtol=0, atol=1e-14)


@pytest.mark.parametrize("variant", ["drelieff", "pdrelieff"])
@pytest.mark.parametrize("regression", [False, True])
def test_sparse_feedback_running_sums_equal_dense(variant, regression):
    """The feedback variants on sparse data keep per-row weighted sums up to
    date incrementally (kernels._track_row_base): over a long run they give
    the dense weights, whatever the number of threads."""
    X, y, nominal = sparse_problem(3, regression=regression)
    dense = relieff(X.toarray(), y, nominal, variant=variant,
                    regression=regression).weights
    for n_jobs in (1, 2):
        sparse = relieff(X, y, nominal, variant=variant,
                         regression=regression, n_jobs=n_jobs).weights
        np.testing.assert_allclose(sparse, dense, rtol=0, atol=1e-12)


def test_sparse_with_missing_values_is_scored_as_dense():
    import scipy.sparse as sp
    X, y, nominal = random_problem(1, n=30, missing=0.1, ties=False)
    with pytest.warns(ReliefWarning, match="as dense"):
        w = relieff(sp.csr_matrix(X), y, nominal).weights
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReliefWarning)
        np.testing.assert_array_equal(w, relieff(X, y, nominal).weights)


def test_trace_progress_and_cancel():
    X, y, nominal = random_problem(3, n=50, missing=0.0)
    seen = []
    result = relieff(X, y, nominal, trace_every=7, progress=seen.append)
    assert result.trace_steps.tolist() == [7, 14, 21, 28, 35, 42, 49, 50]
    np.testing.assert_allclose(result.trace[-1], result.weights)
    # asking for a trace does not change the sums
    np.testing.assert_array_equal(relieff(X, y, nominal).weights,
                                  result.weights)
    assert seen[-1] == 1.0 and all(np.diff(seen) > 0)
    # the trace is the estimate of a run that stopped there: the first t
    # instances of the visiting order are those of a run with m = t
    for t, point in zip(result.trace_steps, result.trace):
        np.testing.assert_allclose(
            point, relieff(X, y, nominal, n_iterations=int(t)).weights,
            atol=1e-14)
    for variant in ["drelieff", "pdrelieff"]:
        run = relieff(X, y, nominal, variant=variant, T=0.5, trace_every=10)
        np.testing.assert_allclose(
            run.trace[1], relieff(X, y, nominal, variant=variant, T=0.5,
                                  n_iterations=20).weights, atol=1e-14)

    class Stop(Exception):
        pass

    def cancel(fraction):
        raise Stop
    with pytest.raises(Stop):
        relieff(X, y, nominal, progress=cancel)


@pytest.mark.parametrize("variant", ["drelieff", "pdrelieff"])
def test_tie_shared_rounding_residue_is_not_a_distance_weight(variant):
    """An ID column (every value distinct: every diff is 1) has the update
    -1 + 1 = 0 at every visit, exactly.  With two other nominal columns of
    2 and 3 values, hundreds of neighbours tie at the k-th distance and
    share its slots; the rounded shares of ~300 hits and misses left
    1.8e-15 after the first visit on this table (seed 9) -- above the old
    cut t 2^-52 = 4.4e-16, so at visit 2 the residue was a distance weight
    and chose other neighbours.  The cut is now a bound of that rounding,
    t 2^-52 + (n + 2) 2^-50 (estimates.residue), and the weights are those
    of exact arithmetic, where the ID column weighs 0: the same as with the
    ID column left out."""
    rng = np.random.default_rng(9)
    n = 600
    X = np.column_stack([rng.permutation(n), rng.integers(0, 2, n),
                         rng.integers(0, 3, n)]).astype(float)
    y = rng.integers(0, 2, n).astype(float)
    nominal = np.ones(3, bool)
    first = relieff(X, y, nominal, variant=variant, n_iterations=1,
                    random_state=0).weights
    assert 2.0 ** -51 < abs(first[0]) < (n + 2) * 2.0 ** -50
    full = relieff(X, y, nominal, variant=variant)
    without_id = relieff(X[:, 1:], y, nominal[1:], variant=variant)
    np.testing.assert_allclose(full.weights[1:], without_id.weights,
                               rtol=0, atol=1e-15)
    assert abs(full.weights[0]) < 1e-14
