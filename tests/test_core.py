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
    distance_weights(W1, 2, 1 if variant == "drelieff" else 2, T, w)
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
    distance_weights(W2, 3, 1 if variant == "drelieff" else 2, T, w)
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
    distance_weights(np.array([0.5, -1.0, np.nan]), 1, 1, 0.0, w)
    np.testing.assert_array_equal(w, [1, 1, 1])       # t = 1: all ones
    distance_weights(np.array([-0.5, -1.0, 0.0]), 4, 1, 0.0, w)
    np.testing.assert_array_equal(w, [1, 1, 1])       # all zero: all ones
    distance_weights(np.array([0.5, -1.0, np.nan]), 4, 1, 0.0, w)
    np.testing.assert_array_equal(w, [0.5, 0, 0])     # NaN counts as 0
    assert default_T(100) == pytest.approx(2 / math.log(100))


def random_problem(seed, n=24, a=5, n_classes=3, missing=0.1, ties=True):
    rng = np.random.default_rng(seed)
    nominal = np.array([f % 2 == 1 for f in range(a)])
    X = np.where(nominal, rng.integers(0, 3, (n, a)),
                 rng.integers(0, 4, (n, a)) if ties else rng.random((n, a)))
    X = X.astype(float)
    X[rng.random((n, a)) < missing] = np.nan
    y = rng.integers(0, n_classes, n).astype(float)
    return X, y, nominal


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


def test_blocking_and_tiling_do_not_change_the_weights(monkeypatch):
    """Several tiles of other rows, blocks of visited rows with a remainder,
    one and two threads: the same weights as a plain one-row-at-a-time run."""
    from orangecontrib.relief.core import kernels
    X, y, nominal = random_problem(6, n=71, a=6, missing=0.0)
    reference = reference_relief(X, y, nominal, k=4)
    monkeypatch.setattr(kernels, "TILE_BYTES", 8 * 6 * 16)     # 16-row tiles
    monkeypatch.setattr(kernels, "BY_FEATURE_TILE", 16)
    monkeypatch.setattr(kernels, "BLOCK_ROWS", 12)
    numeric = np.zeros(6, bool)     # numeric data is screened by feature
    reference_numeric = reference_relief(X, y, numeric, k=4)
    for n_jobs in (1, 2):
        w = relieff(X, y, nominal, k_nearest=4, n_jobs=n_jobs).weights
        np.testing.assert_allclose(w, reference, rtol=1e-10, atol=1e-12)
        w = relieff(X, y, numeric, k_nearest=4, n_jobs=n_jobs).weights
        np.testing.assert_allclose(w, reference_numeric, rtol=1e-10,
                                   atol=1e-12)


@pytest.mark.parametrize("variant", ["relieff", "drelieff", "pdrelieff"])
def test_float32_screen_chooses_the_float64_neighbours(variant, monkeypatch):
    """Distances that differ by ~1e-9 (more than TIE_RTOL) are equal in
    float32: the screen must still pick the float64 neighbours."""
    from orangecontrib.relief.core import engine, kernels
    rng = np.random.default_rng(11)
    X = rng.integers(0, 4, (48, 5)) + 1e-8 * rng.random((48, 5))
    y = rng.integers(0, 2, 48).astype(float)
    nominal = np.zeros(5, bool)
    expected = reference_relief(X, y, nominal, variant=variant, k=3)
    # the test can fail: float32-rounded data choose other neighbours
    rounded = reference_relief(X.astype(np.float32), y, nominal,
                               variant=variant, k=3)
    assert np.abs(rounded - expected).max() > 1e-3
    prep = engine.prepare(X, y, nominal, False)
    assert engine._screening_copy(prep).dtype == np.float32
    assert engine._screening_copy(prep).shape == X.shape
    for n_jobs in (1, 2):
        w = relieff(X, y, nominal, variant=variant, k_nearest=3,
                    n_jobs=n_jobs).weights
        np.testing.assert_allclose(w, expected, rtol=1e-10, atol=1e-12)
    if variant != "relieff":            # the uint16 screen
        monkeypatch.setattr(engine, "QUANTISED_MIN_BYTES", 0)
        w = relieff(X, y, nominal, variant=variant, k_nearest=3).weights
        np.testing.assert_allclose(w, expected, rtol=1e-10, atol=1e-12)
    else:   # ReliefF's row-major blocks (min form) instead of by feature
        monkeypatch.setattr(kernels, "BY_FEATURE_MAX", 0)
        w = relieff(X, y, nominal, k_nearest=3).weights
        np.testing.assert_allclose(w, expected, rtol=1e-10, atol=1e-12)
    # no float32 copy (ReliefF's blocks read the float64 data)
    monkeypatch.setattr(engine, "SCREEN_MAX_FEATURES", 0)
    w = relieff(X, y, nominal, variant=variant, k_nearest=3).weights
    np.testing.assert_allclose(w, expected, rtol=1e-10, atol=1e-12)


def test_wide_data_sums_the_screen_in_parts():
    """More numeric features than kernels.MIN_FORM_CHUNK: ReliefF's float32
    sums are taken in parts; the weights are still the float64 ones."""
    from orangecontrib.relief.core import kernels
    rng = np.random.default_rng(12)
    a = kernels.MIN_FORM_CHUNK + 100
    X = rng.integers(0, 3, (40, a)) + 1e-7 * rng.random((40, a))
    y = (X[:, 0] + X[:, 1] + rng.random(40) > 2.5).astype(float)
    expected = reference_relief(X, y, np.zeros(a, bool), k=3)
    w = relieff(X, y, k_nearest=3).weights
    np.testing.assert_allclose(w, expected, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("kinds", ["numeric", "nominal", "mixed"])
@pytest.mark.parametrize("variant", ["relieff", "drelieff", "pdrelieff"])
def test_screened_runs_agree_with_reference(kinds, variant, monkeypatch):
    """Complete data (the float32 screen is on) full of distance ties."""
    from orangecontrib.relief.core import engine
    X, y, nominal = random_problem(8, n=60, a=6, missing=0.0)
    nominal[:] = {"numeric": False, "nominal": True, "mixed": nominal}[kinds]
    X[:, nominal] = np.minimum(X[:, nominal], 2)    # codes 0..2
    prep = engine.prepare(X, y, nominal, False)
    assert engine._screening_copy(prep).shape[0] == 60
    expected = reference_relief(X, y, nominal, variant=variant, k=4)
    w = relieff(X, y, nominal, variant=variant, k_nearest=4).weights
    np.testing.assert_allclose(w, expected, rtol=1e-10, atol=1e-12)
    monkeypatch.setattr(engine, "QUANTISED_MIN_BYTES", 0)   # uint16 screen
    w = relieff(X, y, nominal, variant=variant, k_nearest=4).weights
    np.testing.assert_allclose(w, expected, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("copy", ["float32", "float32 in parts", "float64",
                                  "float32 weighted", "uint16 weighted",
                                  "float32 weighted, tables",
                                  "uint16 weighted, tables"])
def test_screen_error_bound_holds(copy):
    """The screening distances are within their proven bounds of the float64
    distances (kernels.min_form_bound for ReliefF's tiled blocks,
    kernels.screen_bound otherwise, plus the rounding of the weights when
    the nominal part comes from lookup tables), on values spread over many
    binades, with nominal features too."""
    from orangecontrib.relief.core import engine, kernels
    rng = np.random.default_rng(5)
    n, a = 64, 300
    nominal = np.arange(a) >= 250
    X = np.where(nominal, rng.integers(0, 3, (n, a)), rng.random((n, a)) ** 8)
    weighted = "weighted" in copy
    unit = 1 / 65535 if copy.startswith("uint16") else 0.0
    if unit:    # every value 0.49 steps off the grid, all pairs one way
        X[:4, :250] = (rng.integers(40000, 65000, (4, 250)) + 0.49) * unit
        X[4:, :250] = (rng.integers(1000, 30000, (60, 250)) - 0.49) * unit
        X[-2, :250], X[-1, :250] = 0.0, 1.0         # range exactly [0, 1]
    prep = engine.prepare(X, rng.integers(0, 2, n), nominal, False)
    num, nom = prep.num, prep.nom
    screen_copy = (engine._quantised_copy(prep) if unit
                   else num if copy == "float64"
                   else engine._screening_copy(prep))
    w = rng.random(a) if weighted else np.ones(a)
    w32 = np.empty(a, np.float32)
    planes = (engine.pack_planes(nom) if copy.endswith("tables")
              else (np.zeros((0, 0), np.uint64), 1))
    tables = np.empty((planes[0].shape[1] // planes[1] * 8, 256), np.uint32)
    sums = np.empty((2, 4, n), np.uint64)       # two parts, four rows
    c_err, gamma, lut = kernels._weighted_screen(num, screen_copy, w, unit,
                                                 w32, planes, tables, sums,
                                                 np.arange(250))
    assert np.array_equal(w32, np.where(np.arange(a) < 250, w * (unit or 1),
                                        w).astype(np.float32))
    if copy.endswith("tables"):
        # the weights' rounding is in the bound; the nominal features are
        # summed exactly, so only the numeric ones widen it
        c_num, gamma_num = kernels.screen_bound(num, w, True, unit, True)
        assert 0 < c_err - c_num < 1e-6 * w[250:].sum()
        assert gamma == gamma_num
        assert gamma < 1.1 * 251 * 2.0 ** -24    # (a = 300)
    elif weighted:
        assert (c_err, gamma) == kernels.screen_bound(num, w, True, unit)
    else:
        c_err, gamma = kernels.screen_bound(num, w, False, unit)
    exact = np.empty(n)
    screened = np.empty((4, n))
    rows = np.arange(4)
    by_feature = np.empty((4, n))
    if not weighted:
        row_sums = screen_copy.sum(axis=1, dtype=np.float64)
        # sums in float32 over all 250 numeric features, or over parts of
        # 64 (the last one shorter), added in float64
        chunk = 64 if copy.endswith("parts") else kernels.MIN_FORM_CHUNK
        kernels._distances_tiled(rows, screen_copy, row_sums,
                                 engine.pack_planes(nom), screened, 16, chunk)
        c0, c1 = kernels.min_form_bound(250, copy != "float64", chunk)
        numeric = np.ascontiguousarray(screen_copy.T, dtype=np.float32)
        kernels._distances_tiled_by_feature(rows, numeric, by_feature,
                                            np.empty((4, 16), np.float32))
    if weighted:    # in two parts (the tables' too), as dReliefF does
        kernels._screen_distances_rows(rows, screen_copy, nom, w32, lut,
                                       screened, 2)
    for i in rows:
        for j in range(n):
            exact[j] = kernels._exact_distance(i, j, num, nom, w, weighted)
        exact[i] = 0.0
        error = np.abs(screened[i] - exact)
        if weighted:
            assert np.all(error <= c_err + gamma * screened[i])
        else:
            bound = c0 + c1 * row_sums[i]
            assert np.all(error <= bound)
            # the bound is not loose by orders of magnitude either
            assert error.max() > bound * (0 if copy == "float64" else 1e-4)
        assert error.max() > 0          # the sums did round
        if unit:    # the rounding to uint16 steps needs its term of c
            c_without = c_err - 1.1 * unit * w[:250].sum()
            assert np.any(error > c_without + gamma * screened[i])
        if not weighted:
            numeric_only = exact - np.array(
                [np.count_nonzero(nom[i] != nom[j]) for j in range(n)])
            error = np.abs(by_feature[i] - numeric_only)
            assert np.all(error <= c_err + gamma * by_feature[i])


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
    from orangecontrib.relief.core.prepare import prepare
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


def sparse_problem(seed, n=150, a=80, regression=False):
    """Sparse data with what trips up sparse distances: duplicated rows,
    all-zero rows, explicitly stored zeros and a nominal column."""
    import scipy.sparse as sp
    rng = np.random.default_rng(seed)
    X = np.round(rng.random((n, a)) * (rng.random((n, a)) < 0.1), 2)
    X[:, 0] = (rng.random(n) < 0.5) * rng.random(n)
    X[:, 5] = (X[:, 5] > 0) * rng.integers(1, 4, n)
    X[10:20] = X[0]                               # duplicates
    X[20:25] = 0.0                                # empty rows
    nominal = np.arange(a) == 5
    y = (X[:, 0] + X[:, 1] > 0.4).astype(float)
    if regression:
        y = X[:, 0] + 0.3 * rng.random(n)
    Xs = sp.csr_matrix(X)
    Xs.data[::7] = 0.0                            # stored zeros
    np.testing.assert_array_equal(Xs.toarray(), np.where(
        Xs.toarray() == 0, 0, X))
    return Xs, y, nominal


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


@pytest.mark.parametrize("variant", [1, 2])
@pytest.mark.parametrize("lazy_rtol", [0.0, 0.05])
def test_tracked_row_sums_follow_the_weights(variant, lazy_rtol):
    """After every step the tracked per-row sums give sum_A w_A diff(A, 0,
    x_jA) for that step's distance weights, as a fresh computation does:
    exactly when nothing may wait, and within the returned bound (times the
    row's unweighted sum) when changes wait."""
    from orangecontrib.relief.core import kernels
    from orangecontrib.relief.core.prepare import prepare
    X, y, nominal = sparse_problem(4)
    prep = prepare(X, y, nominal, False)
    n, a = X.shape[0], prep.sp[3].shape[0]
    T = 0.7
    rule = (kernels.MODE_PER_CLASS, 3, np.ones(3), np.ones((2, 2)))
    data = (prep.num, prep.nom, False, prep.group, prep.missing.as_tuple())
    tracked = (np.zeros((2, 3, n)), np.zeros((3, a)), np.zeros(n),
               kernels.feature_parts(prep.sp[4], 2), np.zeros(a),
               np.array([lazy_rtol]), np.zeros(0, np.int64))
    assert 0 < tracked[3][1] < a
    total = np.zeros(a)
    order = np.random.default_rng(0).permutation(n)
    current, w = np.zeros(a), np.empty(a)
    fresh, tracked_base = np.empty(n), np.empty(n)
    pending, walked = np.zeros(2), np.zeros(2, np.int64)
    # (no earlier visit's update to apply first)
    no_update = (-1, -1, np.zeros(0, np.int64), np.zeros(0), np.zeros(a),
                 np.zeros(a), 2, variant, T)
    n_positive, n_waiting = 0, 0
    for t0 in range(n):
        kernels.feedback_batch(
            order[t0:t0 + 1], t0, variant, T, data, np.zeros((0, 0),
                                                             np.float32),
            0.0, (np.zeros((0, 0), np.uint64), 1), prep.sp, True, tracked,
            rule, 2, np.zeros(n), False, 1,
            total, 0, np.empty((0, a)))
        t = t0 + 2
        kernels.estimate(total, t - 1, False, current)
        if not kernels.distance_weights(current, t, variant, T, w):
            continue
        n_positive += 1
        kernels._sparse_row_base(prep.sp, w, True, fresh)
        coefs = kernels._row_base_coefficients(total, t, variant, T, False)
        theta = tracked[5][0] * w @ tracked[4] / tracked[4].sum()
        kernels._track_row_base_parallel(prep.sp, w, total, False, coefs,
                                         theta, tracked[1], tracked[0],
                                         tracked[3], pending, walked, -1,
                                         np.empty((2, 0)), no_update)
        kernels._feedback_row_base(tracked[0], coefs, tracked_base)
        bound = pending.max() * tracked[2]
        n_waiting += bound.max() > 0
        assert np.all(np.abs(tracked_base - fresh)
                      <= bound + 1e-12 * fresh.max())
    assert n_positive > n // 2
    assert (n_waiting > n // 4) == (lazy_rtol > 0)


@pytest.mark.parametrize("regression", [False, True])
@pytest.mark.parametrize("coefs", [(0.0, 0.25, 0.0), (0.1, 0.3, -0.7)])
def test_pending_changes_are_those_of_the_tracked_sums(regression, coefs):
    """kernels._pending_changes (branch-free) gives, for each feature of a
    range, the change e_A = sum_q |c_q (s_q(A) - applied_q(A))| of its
    tracked sums s(A) (kernels._tracked_sums), or -1 when nothing changed:
    features with w_A <= 0 count s(A) = 0; with c0 = 0 (dReliefF) the
    count s0 is 0 too.  ``applied`` holds only what the tracking can put
    there: s(A)[q] is always 0 for the counts with c0 = 0 and for s2 in
    classification."""
    from orangecontrib.relief.core import kernels
    rng = np.random.default_rng(11)
    a, f0, f1 = 300, 40, 250
    w = rng.normal(size=a)
    w[::7] = 0.0
    total = rng.normal(size=1 + 2 * a if regression else a)
    applied = np.zeros((3, a))
    for f in range(a):      # a third unchanged, the rest changed
        s = kernels._tracked_sums(f, w, total, regression, coefs[0])
        applied[:, f] = s if f % 3 == 0 else np.array(s) + rng.normal(
            size=3) * (rng.random(3) < 0.5)
        if coefs[0] == 0.0:
            applied[0, f] = 0.0
        if not regression:
            applied[2, f] = 0.0
    out = np.full(f1 - f0, np.nan)
    kernels._pending_changes(w, total, regression, coefs, applied, f0, f1,
                             out)
    for f in range(f0, f1):
        s = kernels._tracked_sums(f, w, total, regression, coefs[0])
        d = np.array(s) - applied[:, f]
        expected = (abs(coefs[0] * d[0]) + abs(coefs[1] * d[1])
                    + abs(coefs[2] * d[2])) if np.any(d != 0) else -1.0
        assert out[f - f0] == expected, f
    assert np.sum(out == -1.0) >= (f1 - f0) // 3


@pytest.mark.parametrize("variant", [1, 2])
@pytest.mark.parametrize("regression", [False, True])
def test_feedback_weights_are_distance_weights_of_the_estimate(variant,
                                                               regression):
    """kernels._feedback_weights, one pass over the features, gives the
    same numbers (bit for bit) as estimate followed by distance_weights,
    including the first step and all-non-positive estimates (all 1)."""
    from orangecontrib.relief.core import kernels
    rng = np.random.default_rng(12)
    a = 203
    total = rng.normal(size=1 + 2 * a if regression else a)
    if regression:
        total[0] = 7.0
    current, expected, w = np.empty(a), np.empty(a), np.empty(a)
    for t, tot in [(1, total), (2, total), (17, total), (9, -np.abs(total))]:
        if regression and t == 9:
            continue
        if t > 1:
            kernels.estimate(tot, t - 1, regression, current)
        positive = kernels.distance_weights(current, t, variant, 0.8,
                                            expected)
        assert kernels._feedback_weights(tot, t, variant, 0.8, regression,
                                         np.empty(a), w) == positive
        assert np.array_equal(w, expected), t
    if variant == 1 and not regression:     # the last case: none positive
        assert np.all(w == 1.0)


def test_dot_with_running_sums():
    from orangecontrib.relief.core import kernels
    rng = np.random.default_rng(13)
    for m in (0, 1, 3, 4, 1001):
        x, y = rng.random(m), rng.random(m)
        assert kernels._dot(x, y) == pytest.approx(float(x @ y), rel=1e-13,
                                                   abs=0)


@pytest.mark.parametrize("variant", ["drelieff", "pdrelieff"])
@pytest.mark.parametrize("regression", [False, True])
def test_sparse_feedback_with_waiting_changes_equals_dense(
        variant, regression, monkeypatch):
    """However much of the row sums' change is left pending, screening with
    its bound picks the neighbours of the exact distances."""
    from orangecontrib.relief.core import engine
    X, y, nominal = sparse_problem(5, regression=regression)
    dense = relieff(X.toarray(), y, nominal, variant=variant,
                    regression=regression).weights
    running_row_sums = engine._running_row_sums
    for lazy_rtol in (0.0, 0.01, 0.3):
        monkeypatch.setattr(engine, "_running_row_sums",
                            lambda prep, _, grouped: running_row_sums(
                                prep, lazy_rtol, grouped))
        sparse = relieff(X, y, nominal, variant=variant,
                         regression=regression).weights
        np.testing.assert_allclose(sparse, dense, rtol=0, atol=1e-12)


@pytest.mark.parametrize("variant", ["drelieff", "pdrelieff"])
@pytest.mark.parametrize("kinds", ["numeric", "mixed"])
def test_grouped_feedback_visits_equal_one_at_a_time(variant, kinds,
                                                     monkeypatch):
    """Dense feedback variants screen groups of visits with the weights of
    the group's first visit, widened by the weights' drift; whatever the
    group size, the neighbours (and weights) are those of one visit at a
    time with exact distances, through both the widened screens and the
    visits that fall back to their own pass."""
    from orangecontrib.relief.core import engine, kernels
    rng = np.random.default_rng(8)
    n, a = 150, 70
    X = rng.random((n, a))
    nominal = np.zeros(a, bool)
    if kinds == "mixed":
        nominal[::3] = True
        X[:, nominal] = rng.integers(0, 3, (n, nominal.sum()))
    y = ((X[:, 1] + X[:, 2] > 1) ^ (rng.random(n) < 0.1)).astype(float)
    expected = reference_relief(X, y, nominal, variant=variant, k=5)
    running_row_sums = engine._running_row_sums
    states = []

    def start_grouped(prep, lazy_rtol, grouped):
        assert not grouped                  # a small copy: no groups
        tracked = running_row_sums(prep, lazy_rtol, True)
        # size, patience, calm groups, largest size
        tracked[5][:4] = (kernels.GROUP_MAX, 1, 0, kernels.GROUP_MAX)
        states.append(tracked)
        return tracked

    monkeypatch.setattr(engine, "_running_row_sums", start_grouped)
    for n_jobs in (1, 2):
        w = relieff(X, y, nominal, variant=variant, k_nearest=5,
                    n_jobs=n_jobs).weights
        np.testing.assert_allclose(w, expected, rtol=1e-10, atol=1e-12)
    # some visits fell back (the patience grew), and groups went on
    size, patience = states[-1][5][:2]
    assert patience > 1 and size >= 1
    # dReliefF's zero weights were moved to the end of the screening copy
    # (pdReliefF's, 1/t^T and more, are all positive)
    a_num = a - nominal.sum()
    moved = states[-1][6] != np.arange(a_num)
    assert moved.any() if variant == "drelieff" else not moved.any()


def test_screen_order_leaves_zero_weights_out():
    """kernels._screen_order: once the zero weights before the last positive
    one have cost REORDER_SCREENS screens, the copy's columns (and its
    column order) are sorted by the key, largest first; the screen then
    sums only the positive columns, and its distances still bound the
    float64 ones."""
    from orangecontrib.relief.core import engine, kernels
    rng = np.random.default_rng(21)
    n, a = 50, 40
    X = rng.random((n, a))
    prep = engine.prepare(X, rng.integers(0, 2, n), np.zeros(a, bool), False)
    copy = engine._screening_copy(prep)
    original = copy.copy()
    key = rng.normal(size=a)
    w = np.where(key > 0, key, 0.0)
    n_positive = (w > 0).sum()
    span = np.flatnonzero(w > 0).max() + 1
    assert span - n_positive > 5
    order = np.arange(a)
    control = np.array([1.0, 1.0, 0.0, 1.0, 0.0])
    # waste below the cost of a new order: it only adds up
    rows = int(kernels.REORDER_SCREENS * a / (span - n_positive)) - 1
    kernels._screen_order(copy, order, w, key, rows, control, 2)
    np.testing.assert_array_equal(order, np.arange(a))
    np.testing.assert_array_equal(copy, original)
    assert control[4] == pytest.approx(rows * (span - n_positive) / a)
    # one screen's worth more
    rows = int(np.ceil(a / (span - n_positive)))
    kernels._screen_order(copy, order, w, key, rows, control, 2)
    np.testing.assert_array_equal(order, np.argsort(-key, kind="stable"))
    np.testing.assert_array_equal(copy, original[:, order])
    assert control[4] == 0.0
    assert (w[order[:n_positive]] > 0).all()
    assert (w[order[n_positive:]] == 0).all()
    # with positive weights first, nothing is wasted
    kernels._screen_order(copy, order, w, key, 1000, control, 1)
    assert control[4] == 0.0
    w32 = np.empty(a, np.float32)
    planes = (np.zeros((0, 0), np.uint64), 1)
    c_err, gamma, lut = kernels._weighted_screen(
        prep.num, copy, w, 0.0, w32, planes, np.empty((0, 256), np.uint32),
        np.empty((2, 3, 0), np.uint64), order)
    assert lut[6] == n_positive         # the columns summed
    np.testing.assert_array_equal(w32, w[order].astype(np.float32))
    rows = np.array([0, 7, 9])
    screened = np.empty((3, n))
    kernels._screen_distances_rows(rows, copy, prep.nom, w32, lut, screened,
                                   2)
    for i, r in enumerate(rows):
        exact = np.abs(prep.num - prep.num[r]) @ w
        exact[r] = 0.0
        assert np.all(np.abs(screened[i] - exact)
                      <= c_err + gamma * screened[i])
        assert np.abs(screened[i] - exact).max() > 0    # float32 sums


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


@pytest.mark.parametrize("variant", [1, 2])
def test_update_and_screen_nominal_is_the_serial_steps(variant):
    """kernels._update_and_screen_nominal (all-nominal data, one parallel
    region): the update of the previous visit added to the running sums bit
    for bit as ``_update`` adds it (per feature, neighbour after neighbour),
    the distance weights of ``_feedback_weights``, and screening distances
    within the returned bound (c, gamma) of the exact weighted mismatch
    counts; -1 when no weight is positive."""
    from orangecontrib.relief.core import kernels, nominal
    rng = np.random.default_rng(14)
    n, a, t = 150, 70, 9        # two words of 64 features: uneven parts
    nom = rng.integers(0, 3, (n, a)).astype(np.int8)
    planes, n_bits = nominal.pack_planes(nom)
    total = rng.normal(size=a)
    r, chosen = 3, np.array([10, 4, 77, 120, 31], np.int64)
    coef = np.array([-0.2, -0.3, 0.25, 0.25, 0.5])
    expected_total = total.copy()
    update = np.zeros(a)
    for j, s in zip(chosen, coef):
        update += np.where(nom[r] != nom[j], s, 0.0)
    expected_total += update
    expected_w = np.empty(a)
    kernels._feedback_weights(expected_total, t, variant, 0.7, False,
                              np.empty(a), expected_w)
    rows = np.array([3, 99], np.int64)
    tables = np.empty(nominal.table_shape(planes, n_bits), np.uint32)
    for n_parts in (1, 2):
        tot, w = total.copy(), np.full(a, np.nan)
        sums = np.empty((n_parts, 2, n), np.uint64)
        out = np.full((2, n), np.nan)
        c, gamma = kernels._update_and_screen_nominal(
            rows, nom, planes, n_bits, r, chosen, coef, len(chosen), tot, t,
            variant, 0.7, w, tables, sums, np.zeros((n_parts, 2)), out)
        assert np.array_equal(tot, expected_total)
        assert np.array_equal(w, expected_w)
        assert 0 < c < 1e-6 * w.sum() and 0 < gamma < 1e-14
        for i, row in enumerate(rows):
            exact = np.sum(expected_w * (nom != nom[row]), axis=1)
            assert np.all(np.abs(out[i] - exact) <= c + gamma * out[i])
        # no positive weight (dReliefF): nothing but the update is done
        if variant == 1:
            tot = -np.abs(total) - 1.0
            c, _ = kernels._update_and_screen_nominal(
                rows, nom, planes, n_bits, r, chosen, coef, 0, tot, t,
                variant, 0.7, w, tables, sums, np.zeros((n_parts, 2)), out)
            assert c == -1.0


@pytest.mark.parametrize("variant", ["drelieff", "pdrelieff"])
@pytest.mark.parametrize("kind", ["nominal", "sparse"])
def test_updates_left_to_the_next_parallel_region(kind, variant,
                                                  monkeypatch):
    """All-nominal data on two threads, and sparse data whose sums are kept
    exact (dReliefF), leave each visit's update to the next visit's
    parallel region: the same weights and trace, bit for bit, on one thread
    and two, and those of the dense reference, across batches and with
    traced visits (which update at once)."""
    from orangecontrib.relief.core import engine, kernels
    if kind == "nominal":
        rng = np.random.default_rng(15)
        X = rng.integers(0, 3, (90, 70)).astype(float)
        y = (X[:, 0] + X[:, 1] + rng.integers(0, 2, 90) > 2).astype(float)
        nominal, dense = np.ones(70, bool), X
    else:
        X, y, nominal = sparse_problem(4, n=90)
        dense = X.toarray()
    expected = reference_relief(dense, y, nominal, variant=variant, k=4)
    monkeypatch.setattr(kernels, "PARALLEL_ROW_TERMS", 0)
    monkeypatch.setattr(engine, "FIRST_BATCH_TERMS", 40 * 90 * X.shape[1])
    runs = [relieff(X, y, nominal, variant=variant, k_nearest=4,
                    n_jobs=n_jobs, trace_every=7) for n_jobs in (1, 2)]
    for res in runs:
        np.testing.assert_allclose(res.weights, expected, rtol=1e-10,
                                   atol=1e-12)
    assert np.array_equal(runs[0].weights, runs[1].weights)
    assert np.array_equal(runs[0].trace, runs[1].trace)
    untraced = relieff(X, y, nominal, variant=variant, k_nearest=4).weights
    np.testing.assert_allclose(untraced, expected, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("variant", ["drelieff", "pdrelieff"])
@pytest.mark.parametrize("seed", [4, 5, 16])
def test_sparse_feedback_with_rounding_residues_equals_dense(seed, variant):
    """sparse_problem(16, n=90), dReliefF, k=4: after the first visit the
    estimate of feature 9 is 1.39e-17 (0 in exact arithmetic).  The second
    visit is an empty row: as a distance weight, the residue kept rows
    stored only in feature 9 (and zero-weight features) ~1e-17 away from
    it in the dense computation, where the sparse one (B_R + B_j -
    overlap, rounded to 0 below TIE_RTOL of its terms) saw them tied with
    the other empty rows: other neighbours, weights 1.1e-2 apart.  Weights
    within rounding of 0 are 0 (kernels.residue)."""
    from orangecontrib.relief.core import kernels
    X, y, nominal = sparse_problem(seed, n=90)
    if seed == 16:
        first = relieff(X.toarray(), y, nominal, variant="drelieff",
                        k_nearest=4, n_iterations=1).weights
        assert 0 < first[9] < kernels.residue(2)
    expected = reference_relief(X.toarray(), y, nominal, variant=variant,
                                k=4)
    for data in (X, X.toarray()):
        w = relieff(data, y, nominal, variant=variant, k_nearest=4).weights
        np.testing.assert_allclose(w, expected, rtol=1e-10, atol=1e-12)
