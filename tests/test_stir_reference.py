"""Checks of tests/stir_reference.py (doc/stir_notes.md).

1. A six-row table worked by hand: every pair, the means, variances,
   effective numbers of pairs, t and p.
2. The reference against an independent transcription of STIR's published
   pseudo t-test (the arithmetic of insilico/STIR R/stir.R) on data without
   ties, and against scipy's pooled t-test.
3. Numbers printed by the STIR package itself: its p-values, Holm
   adjustments and Cohen's d follow from its t statistics with the degrees of
   freedom and pair counts the notes describe.
4. Consistency with the contract: the reference's weights are
   tests/reference.py's ReliefF weights (missing values, nominal features,
   ties, three classes, rank influences), and the one-pass sums give the same
   t and p as the two-pass computation.
"""
import math
from fractions import Fraction as F

import numpy as np
import pytest
from scipy import stats

from reference import reference_relief
from stir_reference import reference_stir, statistic_from_sums, stir_pairs

# ---------------------------------------------------------------------------
# 1. The hand-worked table
# ---------------------------------------------------------------------------
#
# row   A1 (numeric)  A2 (nominal)  class
#  0       0.75           0           0
#  1       1.00           1           0
#  2       0.75           1           0
#  3       0.25           1           1
#  4       1.00           0           1
#  5       0.00           1           1
#
# A1 ranges over [0, 1], so diff(A1) = |difference|; diff(A2) = 0 if equal
# else 1.  Distance = diff(A1) + diff(A2):
#
#         0     1     2     3     4     5
#   0     -   1.25  1.00  1.50  0.25  1.75
#   1   1.25    -   0.25  0.75  1.00  1.00
#   2   1.00  0.25    -   0.50  1.25  0.75
#   3   1.50  0.75  0.50    -   1.75  0.25
#   4   0.25  1.00  1.25  1.75    -   2.00
#   5   1.75  1.00  0.75  0.25  2.00    -
#
# k = 2.  Each class has 3 rows, so every row's 2 hits are the other two rows
# of its class (influence 1 each, weight w = 1/2).  Misses, nearest first:
#   R0: 4 (0.25), 3 (1.50)            [5 at 1.75 is out]
#   R1: 3 (0.75), then 4 and 5 both at 1.00 for the one slot left:
#       a tie, so 4 and 5 each get influence 1/2, weight 1/4; 3 gets 1/2
#   R2: 3 (0.50), 5 (0.75)
#   R3: 2 (0.50), 1 (0.75)
#   R4: 0 (0.25), 1 (1.00)
#   R5: 2 (0.75), 1 (1.00)
#
# The pairs (R, j): w, diff(A1), diff(A2)
#   hits                          misses
#   (0,1) 1/2  0.25  1            (0,3) 1/2  0.50  1
#   (0,2) 1/2  0     1            (0,4) 1/2  0.25  0
#   (1,0) 1/2  0.25  1            (1,3) 1/2  0.75  0
#   (1,2) 1/2  0.25  0            (1,4) 1/4  0     1
#   (2,0) 1/2  0     1            (1,5) 1/4  1     0
#   (2,1) 1/2  0.25  0            (2,3) 1/2  0.50  0
#   (3,4) 1/2  0.75  1            (2,5) 1/2  0.75  0
#   (3,5) 1/2  0.25  0            (3,1) 1/2  0.75  0
#   (4,3) 1/2  0.75  1            (3,2) 1/2  0.50  0
#   (4,5) 1/2  1     1            (4,0) 1/2  0.25  0
#   (5,3) 1/2  0.25  0            (4,1) 1/2  0     1
#   (5,4) 1/2  1     1            (5,1) 1/2  1     0
#                                 (5,2) 1/2  0.75  0
#
# Weights: hits  W_H = 12 * 1/2 = 6,  Q_H = sum w^2 = 12 * 1/4 = 3
#          misses W_M = 11 * 1/2 + 2 * 1/4 = 6,  Q_M = 11/4 + 2/16 = 23/8
# Effective numbers of pairs n = W^2 / Q:  n_H = 36/3 = 12,
#          n_M = 36 / (23/8) = 288/23 = 12.5217...  (13 pairs, two at half weight)
# df = n_M + n_H - 2 = 518/23 = 22.5217...
#
# A1, hits:   sum w d   = (0.25+0+0.25+0.25+0+0.25+0.75+0.25+0.75+1+0.25+1)/2
#                       = 5/2                          -> mean_H = (5/2)/6 = 5/12
#             sum w d^2 = (6 * 0.0625 + 2 * 0.5625 + 2 * 1)/2 = 7/4
#             var_H = (7/4)/6 - (5/12)^2 = 7/24 - 25/144 = 17/144
# A1, misses: sum w d   = (0.5+0.25+0.75+0.5+0.75+0.75+0.5+0.25+0+1+0.75)/2
#                         + (0 + 1)/4 = 3 + 1/4 = 13/4 -> mean_M = 13/24
#             sum w d^2 = (0.25+0.0625+0.5625+0.25+0.5625+0.5625+0.25+0.0625
#                          +0+1+0.5625)/2 + (0 + 1)/4 = 33/16 + 1/4 = 37/16
#             var_M = (37/16)/6 - (13/24)^2 = 37/96 - 169/576 = 53/576
# A1: weight = 13/24 - 5/12 = 1/8
#     s_p^2 = ((288/23 - 1) * 53/576 + (12 - 1) * 17/144) / (518/23)
#           = (14045/13248 + 187/144) / (518/23) = 31249/298368 = 0.104733...
#     1/n_M + 1/n_H = 23/288 + 24/288 = 47/288
#     SE = sqrt(31249/298368 * 47/288) = sqrt(0.0170918...) = 0.130735...
#     t = 0.125 / 0.130735 = 0.956127,  p = P(T_22.52 >= 0.956127) = 0.174580
#
# A2, hits:   diffs 1,1,1,0,1,0,1,0,1,1,0,1 (eight 1s), all w = 1/2
#             sum w d = sum w d^2 = 4 -> mean_H = 2/3, var_H = 2/3 - 4/9 = 2/9
# A2, misses: 1s at (0,3), (4,1) with w = 1/2 and (1,4) with w = 1/4
#             sum w d = sum w d^2 = 5/4 -> mean_M = 5/24,
#             var_M = 5/24 - 25/576 = 95/576
# A2: weight = 5/24 - 2/3 = -11/24
#     s_p^2 = ((265/23) * 95/576 + 11 * 2/9) / (518/23) = 57559/298368
#     SE = sqrt(57559/298368 * 47/288) = 0.177432...
#     t = -0.458333 / 0.177432 = -2.583142,  p = 0.991608 (hits differ more)

HAND_X = np.array([[0.75, 0], [1.00, 1], [0.75, 1],
                   [0.25, 1], [1.00, 0], [0.00, 1]])
HAND_Y = np.array([0, 0, 0, 1, 1, 1.0])
HAND_NOMINAL = [False, True]


def test_hand_table_pairs():
    pairs, _ = stir_pairs(HAND_X, HAND_Y, HAND_NOMINAL, k=2)
    got = sorted((g, int(r), int(j), w, d[0], d[1])
                 for r, j, g, w, d in pairs)
    expected = sorted(
        [("hit", r, j, 0.5, d1, d2) for r, j, d1, d2 in [
            (0, 1, .25, 1), (0, 2, 0, 1), (1, 0, .25, 1), (1, 2, .25, 0),
            (2, 0, 0, 1), (2, 1, .25, 0), (3, 4, .75, 1), (3, 5, .25, 0),
            (4, 3, .75, 1), (4, 5, 1, 1), (5, 3, .25, 0), (5, 4, 1, 1)]]
        + [("miss", r, j, w, d1, d2) for r, j, w, d1, d2 in [
            (0, 3, .5, .5, 1), (0, 4, .5, .25, 0), (1, 3, .5, .75, 0),
            (1, 4, .25, 0, 1), (1, 5, .25, 1, 0), (2, 3, .5, .5, 0),
            (2, 5, .5, .75, 0), (3, 1, .5, .75, 0), (3, 2, .5, .5, 0),
            (4, 0, .5, .25, 0), (4, 1, .5, 0, 1), (5, 1, .5, 1, 0),
            (5, 2, .5, .75, 0)]])
    assert got == expected


def test_hand_table_statistics():
    res = reference_stir(HAND_X, HAND_Y, HAND_NOMINAL, k=2)
    exact = {
        "mean_hit": [F(5, 12), F(2, 3)], "var_hit": [F(17, 144), F(2, 9)],
        "mean_miss": [F(13, 24), F(5, 24)],
        "var_miss": [F(53, 576), F(95, 576)],
        "weights": [F(1, 8), F(-11, 24)],
    }
    for key, values in exact.items():
        np.testing.assert_allclose(res[key], [float(v) for v in values],
                                   rtol=1e-14, atol=1e-15, err_msg=key)
    assert res["n_hit"] == pytest.approx(12, rel=1e-14, abs=0)
    assert res["n_miss"] == pytest.approx(288 / 23, rel=1e-14, abs=0)
    assert res["df"] == pytest.approx(518 / 23, rel=1e-14, abs=0)
    assert (res["pairs_hit"], res["pairs_miss"]) == (12, 13)

    # t from the hand fractions above, p from Student's t with df = 518/23
    se = [math.sqrt(31249 / 298368 * 47 / 288),
          math.sqrt(57559 / 298368 * 47 / 288)]
    t = [0.125 / se[0], (-11 / 24) / se[1]]
    np.testing.assert_allclose(t, [0.956126570938, -2.583141875662],
                               rtol=1e-11)
    np.testing.assert_allclose(res["t"], t, rtol=1e-12)
    np.testing.assert_allclose(res["p"], [0.174579846498, 0.991607864149],
                               rtol=1e-10)
    np.testing.assert_allclose(res["p"], stats.t.sf(t, 518 / 23),
                               rtol=1e-12)


def test_hand_table_sums():
    res = reference_stir(HAND_X, HAND_Y, HAND_NOMINAL, k=2)
    s = res["sums"]
    assert (s["W_hit"], s["Q_hit"]) == (6, 3)
    assert s["W_miss"] == pytest.approx(6) and s["Q_miss"] == 23 / 8
    np.testing.assert_allclose(s["S1_hit"], [5 / 2, 4])
    np.testing.assert_allclose(s["S2_hit"], [7 / 4, 4])
    np.testing.assert_allclose(s["S1_miss"], [13 / 4, 5 / 4])
    np.testing.assert_allclose(s["S2_miss"], [37 / 16, 5 / 4])


# ---------------------------------------------------------------------------
# 2. STIR's published pseudo t-test, transcribed from its definition
# ---------------------------------------------------------------------------

def stir_as_published(X, y, k):
    """STIR with fixed k as the R package computes it (doc/stir_notes.md).

    Numeric features only, no missing values.  Attributes are min-max scaled,
    the distance is Manhattan, ties are broken by row index (R's order() is
    stable), the k nearest hits and the k nearest misses of every row are
    taken, and every pair gets the factor 1/k.  Then, with m rows and
    N = m k pairs per group:
        mu    = sum_pairs (d / k) / m
        var   = sum_pairs (1/k) (d - mu)^2 / m           (population form)
        s_p   = sqrt(((N_M - 1) var_M + (N_H - 1) var_H) / (N_M + N_H - 2))
        t     = (mu_M - mu_H) / (s_p sqrt(1/N_M + 1/N_H))
        df    = N_M + N_H - 2,   p = upper tail of Student's t
        Cohen's d = t sqrt(1/N_M + 1/N_H);  "OriRelief" = (mu_M - mu_H) / m
    """
    X = np.asarray(X, float)
    m = len(y)
    Z = (X - X.min(0)) / (X.max(0) - X.min(0))
    D = np.abs(Z[:, None, :] - Z[None, :, :]).sum(2)
    diffs = {"hit": [], "miss": []}
    for i in range(m):
        order = [j for j in np.argsort(D[i], kind="stable") if j != i]
        hits = [j for j in order if y[j] == y[i]][:k]
        misses = [j for j in order if y[j] != y[i]][:k]
        assert len(hits) == len(misses) == k
        diffs["hit"] += [np.abs(Z[i] - Z[j]) for j in hits]
        diffs["miss"] += [np.abs(Z[i] - Z[j]) for j in misses]
    mu, var, N = {}, {}, {}
    for g in diffs:
        d = np.array(diffs[g])
        N[g] = len(d)
        mu[g] = (d / k).sum(0) / m
        var[g] = ((d - mu[g]) ** 2 / k).sum(0) / m
    df = N["miss"] + N["hit"] - 2
    sp = np.sqrt(((N["miss"] - 1) * var["miss"] + (N["hit"] - 1) * var["hit"])
                 / df)
    t = (mu["miss"] - mu["hit"]) / (sp * math.sqrt(1 / N["miss"] + 1 / N["hit"]))
    return {"t": t, "p": stats.t.sf(t, df), "df": df, "mu": mu, "var": var,
            "N": N, "diffs": diffs,
            "cohen_d": t * math.sqrt(1 / N["miss"] + 1 / N["hit"]),
            "ori_relief": (mu["miss"] - mu["hit"]) / m}


def _continuous_data(seed, n=14, a=3):
    rng = np.random.default_rng(seed)
    y = np.array([0] * (n // 2) + [1] * (n - n // 2), float)
    X = rng.normal(size=(n, a))
    X[:, 0] += 1.2 * y  # one feature with a main effect
    return X, y


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_reference_equals_published_stir_without_ties(seed):
    X, y = _continuous_data(seed)
    k = 3
    pub = stir_as_published(X, y, k)
    for misses in ("per_class", "any"):  # the same with two classes
        res = reference_stir(X, y, [False] * X.shape[1], k=k, misses=misses)
        np.testing.assert_allclose(res["t"], pub["t"], rtol=1e-12)
        np.testing.assert_allclose(res["p"], pub["p"], rtol=1e-10)
        assert res["df"] == pytest.approx(pub["df"], rel=1e-14, abs=0)
        assert (res["pairs_hit"], res["pairs_miss"]) == (len(y) * k,) * 2
        assert res["n_hit"] == pytest.approx(len(y) * k, rel=1e-14, abs=0)
        np.testing.assert_allclose(res["mean_miss"], pub["mu"]["miss"])
        np.testing.assert_allclose(res["var_hit"], pub["var"]["hit"])
        # the numerator is the ReliefF weight; STIR's "OriRelief" output
        # divides it by m once more
        np.testing.assert_allclose(res["weights"],
                                   pub["mu"]["miss"] - pub["mu"]["hit"])
        np.testing.assert_allclose(res["weights"] / len(y), pub["ori_relief"])


def test_published_stir_versus_scipy_pooled_t():
    # STIR's variances divide by N (not N - 1) inside the pooled formula, so
    # with N pairs in each group its t is the textbook pooled t times
    # sqrt(N / (N - 1)).
    X, y = _continuous_data(3)
    k = 3
    pub = stir_as_published(X, y, k)
    N = len(y) * k
    textbook = stats.ttest_ind(np.array(pub["diffs"]["miss"]),
                               np.array(pub["diffs"]["hit"]),
                               equal_var=True, alternative="greater")
    np.testing.assert_allclose(pub["t"], textbook.statistic * math.sqrt(N / (N - 1)),
                               rtol=1e-12)
    assert (textbook.df == pub["df"]).all()


def test_hand_table_as_stir_codes_it():
    # STIR's R code breaks R1's tie (rows 4 and 5 at distance 1.00) by row
    # index: it keeps row 4 (A1 diff 0, A2 diff 1) and drops row 5.  Then all
    # 24 pairs have w = 1/2, N = 12 per group, df = 22, and for A1
    #   mean_M = (0.5+0.25+0.75+0+0.5+0.75+0.5+0.75+0.25+0+1+0.75)/12 = 1/2
    #   var_M  = 3/32, mean_H = 5/12, var_H = 17/144
    #   t = (1/2 - 5/12) / sqrt((3/32 + 17/144)/2 * 2/12) = 0.627250,
    #   p = 0.268476
    # instead of the reference's tie-shared 0.956127 / 0.174580: with ties
    # STIR depends on the row order; the contract averages over it.
    pub = stir_as_published(HAND_X, HAND_Y, k=2)  # A2 as 0/1: same diffs
    assert pub["mu"]["miss"][0] == pytest.approx(0.5)
    assert pub["var"]["miss"][0] == pytest.approx(3 / 32)
    assert pub["t"][0] == pytest.approx(0.627250048187, rel=1e-11, abs=0)
    assert pub["p"][0] == pytest.approx(0.268475772230, rel=1e-10, abs=0)


# ---------------------------------------------------------------------------
# 3. Numbers printed by the STIR package
# ---------------------------------------------------------------------------
# insilico/STIR, vignettes/final.mat.csv at commit 02aa9eb (2018-07-09, "Changed
# the way stir t-test is computed"): STIR on a simulated case-control set of
# m = 100 rows and 1000 attributes.  Columns: ReliefF neighbourhoods with
# k = 16 (t, p) and multiSURF (t, p, Cohen's d).  The data were not saved, but
# the printed p-values and effect sizes follow from t alone:
#   fixed k:   p = P(T >= t), df = 2 m k - 2 = 3198
#   multiSURF: 1875 pairs in one group and 1939 in the other, df = 3812,
#              d = t sqrt(1/1875 + 1/1939)
# (the pair counts are the only integers that reproduce d / t).
PUBLISHED_CSV = [
    # attribute, t (k=16), p (k=16), t (multiSURF), p (multiSURF), cohen.d
    ("simvar32", 14.4566892472017, 3.0971299611163e-46,
     13.6919508854623, 5.41265052814553e-42, 0.443471930466405),
    ("simvar16", 11.2834591036425, 2.77515354383023e-29,
     10.9402837705274, 9.42714023391986e-28, 0.354347514401141),
    ("simvar48", 10.4030064616783, 2.99004943205017e-25,
     9.99637476593488, 1.52394125393576e-23, 0.323775015861454),
    ("simvar38", 9.30568898608498, 1.19974653114624e-20,
     8.90425851705274, 4.07704382107711e-19, 0.288402196806156),
    ("simvar100", 9.09838855433624, 7.86111845067817e-20,
     8.53404248789233, 1.00562845981565e-17, 0.276411179710433),
]

# inst/example/STIRexample.md (2018-07-18), ReliefF with k = 16, m = 100:
# t, p and "t.pval.adj" of the ten best of 1000 attributes, as printed.
PUBLISHED_MD = [
    (10.436254, 2.132324e-25, 2.132324e-22),
    (8.747637, 1.729603e-18, 1.727874e-15),
    (8.464474, 1.931650e-17, 1.927787e-14),
    (7.929971, 1.501494e-15, 1.496989e-12),
    (7.895881, 1.964286e-15, 1.956429e-12),
    (7.738830, 6.678804e-15, 6.645410e-12),
    (7.629877, 1.540153e-14, 1.530912e-11),
    (7.573471, 2.363406e-14, 2.346862e-11),
    (7.543726, 2.958625e-14, 2.934956e-11),
    (7.515995, 3.645166e-14, 3.612360e-11),
]


def test_published_p_values_follow_from_t():
    for _, t16, p16, tms, pms, d in PUBLISHED_CSV:
        assert stats.t.sf(t16, 2 * 100 * 16 - 2) == pytest.approx(p16, rel=1e-11, abs=0)
        assert stats.t.sf(tms, 1875 + 1939 - 2) == pytest.approx(pms, rel=1e-11, abs=0)
        assert tms * math.sqrt(1 / 1875 + 1 / 1939) == pytest.approx(d, rel=1e-12, abs=0)
    for t, p, _ in PUBLISHED_MD:
        # printed to 7 significant digits; t's 6 decimals move p by ~5e-6
        assert stats.t.sf(t, 3198) == pytest.approx(p, rel=1e-5, abs=0)


def test_published_adjustment_is_holm_not_bh():
    # The R code's comment says Benjamini-Hochberg, but p.adjust's default
    # is Holm: the i-th smallest of 1000 p-values is multiplied by 1001 - i.
    for i, (_, p, adjusted) in enumerate(PUBLISHED_MD, start=1):
        assert p * (1001 - i) == pytest.approx(adjusted, rel=1e-6, abs=0)
    _, p2, adj2 = PUBLISHED_MD[1]
    assert p2 * 1000 / 2 != pytest.approx(adj2, rel=1e-3, abs=0)  # not BH


# ---------------------------------------------------------------------------
# 4. Consistency with the contract and with the one-pass sums
# ---------------------------------------------------------------------------

def _mixed_data(seed, n=16, n_classes=2, missing=0.1):
    rng = np.random.default_rng(seed)
    y = rng.integers(n_classes, size=n).astype(float)
    y[:n_classes] = np.arange(n_classes)  # every class present
    X = np.column_stack([
        rng.integers(3, size=n),             # nominal: many ties
        np.round(2 * rng.normal(size=n) + 2 * y) / 2,  # numeric, coarse
        rng.integers(2, size=n),             # nominal, binary
        rng.integers(4, size=n) / 3,         # numeric noise, coarse
    ]).astype(float)  # coarse values: many distance ties
    X[rng.uniform(size=X.shape) < missing] = np.nan
    return X, y, [True, False, True, False]


CASES = [
    dict(seed=0, n_classes=2, k=3),
    dict(seed=1, n_classes=3, k=2),
    dict(seed=2, n_classes=3, k=3, misses="any"),
    dict(seed=3, n_classes=2, k=4, weighted=True, sigma=1.5),
    dict(seed=4, n_classes=3, k=3, weighted=True, missing=0.0),
]


@pytest.mark.parametrize("case", CASES)
def test_weights_are_the_contract_relieff_weights(case):
    case = dict(case)
    X, y, nominal = _mixed_data(case.pop("seed"), n_classes=case.pop("n_classes"),
                                missing=case.pop("missing", 0.1))
    res = reference_stir(X, y, nominal, **case)
    expected = reference_relief(X, y, nominal, **case)
    np.testing.assert_allclose(res["weights"], expected, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("case", CASES)
def test_one_pass_sums_give_the_same_statistic(case):
    case = dict(case)
    X, y, nominal = _mixed_data(case.pop("seed"), n_classes=case.pop("n_classes"),
                                missing=case.pop("missing", 0.1))
    res = reference_stir(X, y, nominal, **case)
    from_sums = statistic_from_sums(res["sums"], res["m"])
    for key in ("mean_hit", "mean_miss", "var_hit", "var_miss", "t", "p",
                "weights"):
        np.testing.assert_allclose(from_sums[key], res[key], rtol=1e-9,
                                   atol=1e-13, err_msg=key)
    assert from_sums["df"] == pytest.approx(res["df"], rel=1e-12, abs=0)
    # every visited row has hits and misses here, so the weight is
    # mean_miss - mean_hit
    np.testing.assert_allclose(res["weights"],
                               res["mean_miss"] - res["mean_hit"], atol=1e-14)


def test_miss_weights_per_instance_sum_to_one_with_class_priors():
    X, y, nominal = _mixed_data(1, n_classes=3)
    pairs, info = stir_pairs(X, y, nominal, k=2)
    per_row = {}
    for r, _, g, w, _ in pairs:
        per_row.setdefault((r, g), 0.0)
        per_row[(r, g)] += w
    np.testing.assert_allclose(list(per_row.values()), 1.0, rtol=1e-12)
    res = reference_stir(X, y, nominal, k=2)
    # unequal prior factors make the misses worth fewer than their count
    assert res["n_miss"] < res["pairs_miss"]


def test_all_influences_one_gives_pair_counts():
    # no ties, k neighbours in every group: n_g is the number of pairs m k
    X, y = _continuous_data(5, n=12)
    res = reference_stir(X, y, [False] * 3, k=4, m=7, seed=3)
    assert res["pairs_hit"] == res["pairs_miss"] == 7 * 4
    assert res["n_hit"] == pytest.approx(28, rel=1e-14, abs=0)
    assert res["n_miss"] == pytest.approx(28, rel=1e-14, abs=0)
    assert res["df"] == pytest.approx(54, rel=1e-14, abs=0)


def test_degenerate_features():
    # A0 constant: every diff 0, weight 0, t and p undefined (0/0, as R's NaN)
    # A1 separates the classes perfectly: hit diffs all 0, miss diffs all 1,
    #    pooled variance 0 -> t = +inf, p = 0 (as R: 1/0 = Inf, pt(Inf) = 0)
    # A2 has no known value: weight, t and p NaN
    X = np.array([[5.0, 0, np.nan], [5, 0, np.nan], [5, 0, np.nan],
                  [5, 1, np.nan], [5, 1, np.nan], [5, 1, np.nan]])
    y = np.array([0, 0, 0, 1, 1, 1.0])
    res = reference_stir(X, y, [False, True, False], k=2)
    assert res["weights"][0] == 0 and math.isnan(res["t"][0])
    assert math.isnan(res["p"][0])
    assert res["weights"][1] == pytest.approx(1, rel=1e-14, abs=0)
    assert res["t"][1] == math.inf
    assert res["p"][1] == 0
    assert all(math.isnan(res[key][2]) for key in ("weights", "t", "p"))
