"""tests/rules_reference.py: hand computations, the project's reference, and
the peers (skrebate 0.8.4, fast-select 0.3.0) where their definitions coincide.

Run with `-s` to see the measured differences to the peers.  Notation in the
comments: (f0, f1) are per-feature diffs, d the distance, T the radius.
"""
import math
import time
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import spearmanr

from reference import reference_relief
from rules_reference import _Data, reference_rules, reference_turf

GAMETES = (Path(__file__).resolve().parents[1].parent / "shared" / "data"
           / "GAMETES_Epistasis_2-Way_20atts_0.4H_EDM-1_1.tsv")

# ---------------------------------------------------------------------------
# Case B: two classes, f0 numeric (range 4), f1 nominal.
#   I0 = (0, 0) c0   I1 = (1, 0) c0   I2 = (4, 1) c1   I3 = (3, 1) c1   I4 = (4, 0) c0
# diffs (f0, f1) and d = f0 + f1:
#   0-1 (.25, 0) .25   0-2 (1, 1) 2      0-3 (.75, 1) 1.75   0-4 (1, 0) 1
#   1-2 (.75, 1) 1.75  1-3 (.5, 1) 1.5   1-4 (.75, 0) .75    2-3 (.25, 0) .25
#   2-4 (0, 1) 1       3-4 (.25, 1) 1.25
# SURF radius: T = (sum of the 10 pair distances) / 10 = 11.5 / 10 = 1.15
# near (d < 1.15) / far (d > 1.15), h = hit, m = miss:
#   I0: near {1h, 4h}       far {2m, 3m}
#   I1: near {0h, 4h}       far {2m, 3m}
#   I2: near {3h, 4m}       far {0m, 1m}
#   I3: near {2h}           far {0m, 1m, 4m}
#   I4: near {0h, 1h, 2m}   far {3m}
# ---------------------------------------------------------------------------
XB = np.array([[0, 0], [1, 0], [4, 1], [3, 1], [4, 0]], float)
YB = np.array([0, 0, 1, 1, 0], float)
NOMB = [False, True]


def test_surf_hand_case_b():
    # I0: -mean hits (.25,0),(1,0) = -(.625, 0)
    # I1: -mean (.25,0),(.75,0)    = -(.5, 0)
    # I2: -(.25, 0) + (0, 1)       = (-.25, 1)
    # I3: -(.25, 0)
    # I4: -mean (1,0),(.75,0) + (0,1) = (-.875, 1)
    # sum (-2.5, 2) / 5
    w = reference_rules(XB, YB, NOMB, rule="surf")
    np.testing.assert_allclose(w, [-0.5, 0.4], atol=1e-15)


def test_surf_star_hand_case_b():
    # far misses, "opposite" form: - mean diff (there are no far hits here)
    #   I0: -mean (1,1),(.75,1)          = -(.875, 1)
    #   I1: -mean (.75,1),(.5,1)         = -(.625, 1)
    #   I2: -mean (1,1),(.75,1)          = -(.875, 1)
    #   I3: -mean (.75,1),(.5,1),(.25,1) = -(.5, 1)
    #   I4: -(.25, 1)
    # far sum (-3.125, -5); with SURF's near sum (-2.5, 2): (-5.625, -3) / 5
    w = reference_rules(XB, YB, NOMB, rule="surf*")
    np.testing.assert_allclose(w, [-1.125, -0.6], atol=1e-15)
    # "sameness" form: + mean (1 - diff) over far misses = 1 - mean diff per
    # visit: far sum (5 - 3.125, 5 - 5) = (1.875, 0): (-2.5 + 1.875, 2) / 5.
    # Every visit had a far miss group and no far hit group, so the two forms
    # differ by exactly 1 per visit, for every feature.
    w = reference_rules(XB, YB, NOMB, rule="surf*", far_form="sameness")
    np.testing.assert_allclose(w, [-0.125, 0.4], atol=1e-15)


def test_multisurf_hand_case_b():
    # per instance: mean T_R and population sd s_R of its 4 distances
    # I0: d (to 1,2,3,4) = .25, 2, 1.75, 1   T = 1.25
    #     squares of deviations 1 + .5625 + .25 + .0625 = 1.875; s = sqrt(1.875/4)
    #     = .684653, s/2 = .342327: near d < .907673 {1h}; far d > 1.592327 {2m, 3m}
    # I1: d (0,2,3,4) = .25, 1.75, 1.5, .75  T = 1.0625, s = sqrt(1.421875/4)
    #     = .596216: near d < .764392 {0h, 4h}; far d > 1.360608 {2m, 3m}
    # I2: d (0,1,3,4) = 2, 1.75, .25, 1 (as I0): near {3h}; far {0m, 1m}; 4 dead band
    # I3: d (0,1,2,4) = 1.75, 1.5, .25, 1.25  T = 1.1875, s = sqrt(1.296875/4)
    #     = .569402: near d < .902799 {2h}; far d > 1.472201 {0m, 1m}
    # I4: d (0,1,2,3) = 1, .75, 1, 1.25  T = 1, s = sqrt(.125/4) = .176777:
    #     near d < .911612 {1h}; far d > 1.088388 {3m}
    # MultiSURF (near only): -(.25,0) -(.5,0) -(.25,0) -(.25,0) -(.75,0) = (-2, 0); /5
    w = reference_rules(XB, YB, NOMB, rule="multisurf")
    np.testing.assert_allclose(w, [-0.4, 0.0], atol=1e-15)
    # MultiSURF* far ("sameness"): + mean (1 - diff) over far misses
    #   I0: 1-(1,1)=(0,0), 1-(.75,1)=(.25,0): (.125, 0)
    #   I1: (.25,0),(.5,0): (.375, 0)     I2: as I0 (.125, 0)
    #   I3: (.25,0),(.5,0): (.375, 0)     I4: 1-(.25,1) = (.75, 0)
    # far sum (1.75, 0); (-2 + 1.75, 0) / 5
    w = reference_rules(XB, YB, NOMB, rule="multisurf*")
    np.testing.assert_allclose(w, [-0.05, 0.0], atol=1e-15)


def test_distance_weights_move_the_radius():
    # w = (1, 0): d = f0 diff only. Pair distances .25 1 .75 1 .75 .5 .75 .25 0 .25,
    # T = 5.5 / 10 = .55. near (d < .55):
    #   I0 {1h}  I1 {0h, 3m}  I2 {3h, 4m}  I3 {1m, 2h, 4m}  I4 {2m, 3m}
    # updates (diffs of both features; w only chooses the neighbours):
    #   I0: -(.25, 0)
    #   I1: -(.25, 0) + (.5, 1) = (.25, 1)
    #   I2: -(.25, 0) + (0, 1)  = (-.25, 1)
    #   I3: -(.25, 0) + mean (.5,1),(.25,1) = (.125, 1)
    #   I4: mean (0,1),(.25,1) = (.125, 1)
    # sum (0, 4) / 5
    w = reference_rules(XB, YB, NOMB, rule="surf", w=[1.0, 0.0])
    np.testing.assert_allclose(w, [0.0, 0.8], atol=1e-15)


# ---------------------------------------------------------------------------
# Case C: three classes, two nominal features.
#   I0 = (0, 0) a   I1 = (0, 1) a   I2 = (1, 0) b   I3 = (1, 1) b   I4 = (2, 0) c
#   P(a) = P(b) = 2/5, P(c) = 1/5
# distances: d01 1, d02 1, d03 2, d04 1, d12 2, d13 1, d14 2, d23 1, d24 1, d34 2
# SURF: T = 14 / 10 = 1.4; near = the pairs at 1, far = the pairs at 2.
# Every diff at distance 1 is (1, 0) between classes and (0, 1) within a class;
# every diff at distance 2 is (1, 1).
# miss factors P(C) / (1 - P(class(R))): R in a: b 2/3, c 1/3; R in b: a 2/3,
# c 1/3; R in c: a 1/2, b 1/2.
# ---------------------------------------------------------------------------
XC = np.array([[0, 0], [0, 1], [1, 0], [1, 1], [2, 0]], float)
YC = np.array([0, 0, 1, 1, 2], float)
NOMC = [True, True]


def test_surf_hand_case_c_per_class_and_any():
    # I0: near {1 hit, 2 b, 4 c}: -(0,1) + 2/3 (1,0) + 1/3 (1,0) = (1, -1)
    # I1: near {0 hit, 3 b}:      -(0,1) + 2/3 (1,0)            = (2/3, -1)
    #     (no near miss of class c: that group adds nothing, and b keeps 2/3)
    # I2: near {0 a, 3 hit, 4 c}: (1, -1)
    # I3: near {1 a, 2 hit}:      (2/3, -1)
    # I4: near {0 a, 2 b}, no hit: 1/2 (1,0) + 1/2 (1,0) = (1, 0)
    # sum (13/3, -4) / 5
    w = reference_rules(XC, YC, NOMC, rule="surf")
    np.testing.assert_allclose(w, [13 / 15, -0.8], atol=1e-15)
    # misses="any": one pooled miss group, mean (1, 0) whenever there is a
    # miss: (1,-1) x 4 + (1, 0) = (5, -4) / 5
    w = reference_rules(XC, YC, NOMC, rule="surf", misses="any")
    np.testing.assert_allclose(w, [1.0, -0.8], atol=1e-15)


def test_surf_star_hand_case_c():
    # far ("opposite"): - factor * mean diff for far misses, all diffs (1, 1):
    #   I0: far {3 b}:      -2/3 (1,1)                 I1: far {2 b, 4 c}: -(2/3 + 1/3) (1,1)
    #   I2: far {1 a}:      -2/3 (1,1)                 I3: far {0 a, 4 c}: -(1,1)
    #   I4: far {1 a, 3 b}: -(1/2 + 1/2) (1,1)
    # far sum -(13/3)(1,1); with the near sum (13/3, -4): (0, -25/3) / 5
    w = reference_rules(XC, YC, NOMC, rule="surf*")
    np.testing.assert_allclose(w, [0.0, -5 / 3], atol=1e-15)
    # pooled misses: far sum -(5, 5): (5 - 5, -4 - 5) / 5
    w = reference_rules(XC, YC, NOMC, rule="surf*", misses="any")
    np.testing.assert_allclose(w, [0.0, -1.8], atol=1e-15)


def test_multisurf_hand_case_c():
    # I0: d = 1, 1, 2, 1: T = 1.25, s = sqrt(.75/4) = .433013: near d < 1.033494
    #     = {1, 2, 4}, far d > 1.466506 = {3}: the same sets as SURF's
    # I1: d = 1, 2, 1, 2: T = 1.5, s = .5: near d < 1.25 {0, 3}, far d > 1.75 {2, 4}
    # I2 as I0 ({0, 3, 4} / {1}), I3 and I4 as I1 ({1, 2} / {0, 4}; {0, 2} / {1, 3})
    # so MultiSURF = SURF here: (13/15, -0.8).
    w = reference_rules(XC, YC, NOMC, rule="multisurf")
    np.testing.assert_allclose(w, [13 / 15, -0.8], atol=1e-15)
    # MultiSURF* far ("sameness"): every far diff is (1, 1), 1 - diff = (0, 0),
    # so the far sets add nothing: MultiSURF* = MultiSURF here, while SURF*'s
    # "opposite" form on the same far sets gave (0, -5/3).
    w = reference_rules(XC, YC, NOMC, rule="multisurf*")
    np.testing.assert_allclose(w, [13 / 15, -0.8], atol=1e-15)


def test_missing_value_relief_d_hand():
    # f0 nominal with I1's value missing, f1 numeric (range 2), two classes:
    #   I0 = (0, 0) c0   I1 = (?, 1) c0   I2 = (1, 2) c1   I3 = (1, 0) c1   I4 = (1, 2) c0
    # P(f0 | c0) from I0, I4: 0 -> 1/2, 1 -> 1/2, so diff(f0, I1, v) = 1 - 1/2 = .5
    # diffs (f0, f1): 0-1 (.5,.5) 0-2 (1,1) 0-3 (1,0) 0-4 (1,1) 1-2 (.5,.5)
    #   1-3 (.5,.5) 1-4 (.5,.5) 2-3 (0,1) 2-4 (0,0) 3-4 (0,1)
    # d: 1 2 1 2 1 1 1 1 0 1, T = 11 / 10 = 1.1; near (d < 1.1):
    #   I0 {1h, 3m}  I1 {0h, 2m, 3m, 4h}  I2 {1m, 3h, 4m}  I3 {0m, 1m, 2h, 4m}  I4 {1h, 2m, 3m}
    # I0: -(.5,.5) + (1,0) = (.5, -.5)
    # I1: -mean (.5,.5),(.5,.5) + mean (.5,.5),(.5,.5) = (0, 0)
    # I2: -(0,1) + mean (.5,.5),(0,0) = (.25, -.75)
    # I3: -(0,1) + mean (1,0),(.5,.5),(0,1) = (.5, -.5)
    # I4: -(.5,.5) + mean (0,0),(0,1) = (-.5, 0)
    # sum (.75, -1.75) / 5
    X = np.array([[0, 0], [np.nan, 1], [1, 2], [1, 0], [1, 2]])
    y = np.array([0, 0, 1, 1, 0], float)
    w = reference_rules(X, y, [True, False], rule="surf")
    np.testing.assert_allclose(w, [0.15, -0.35], atol=1e-15)


# Case F: regression, two numeric features (range 4), y = 0, 1, 2, 4 (range 4).
#   I0 = (0, 0)  I1 = (1, 2)  I2 = (2, 1)  I3 = (4, 4)
# diffs (f0, f1), d, diff(C): 0-1 (.25,.5) .75 .25   0-2 (.5,.25) .75 .5
#   0-3 (1,1) 2 1   1-2 (.25,.25) .5 .25   1-3 (.75,.5) 1.25 .75   2-3 (.5,.75) 1.25 .5
XF = np.array([[0, 0], [1, 2], [2, 1], [4, 4]], float)
YF = np.array([0, 1, 2, 4], float)


def test_surf_regression_hand():
    # T = 6.5 / 6 = 1.083333; near: I0 {1, 2}, I1 {0, 2}, I2 {0, 1}, I3 {} (influence 1/2)
    # I0: NdC (.25+.5)/2 = .375, NdA (.375, .375), NdCdA ((.0625+.25)/2, (.125+.125)/2) = (.15625, .125)
    # I1: NdC .25, NdA (.25, .375), NdCdA (.0625, .09375)
    # I2: NdC .375, NdA (.375, .25), NdCdA (.15625, .09375)
    # totals NdC 1, NdA (1, 1), NdCdA (.375, .3125), m = 4:
    # W = NdCdA/NdC - (NdA - NdCdA)/(m - NdC) = (.375 - .625/3, .3125 - .6875/3)
    w = reference_rules(XF, YF, [False, False], rule="surf", regression=True)
    np.testing.assert_allclose(w, [1 / 6, 1 / 12], atol=1e-15)


def test_multisurf_regression_hand():
    # I0: d .75 .75 2, T 7/6, s = sqrt(1.041667/3) = .589256: near d < .872039 {1, 2}
    # I1: d .75 .5 1.25, T 5/6, s = sqrt(.291667/3) = .311805: near d < .677431 {2}
    # I2: as I1: near {1}
    # I3: d 2 1.25 1.25, T 1.5, s = sqrt(.375/3) = .353553: near d < 1.323223 {1, 2}
    # I0 as in SURF: .375, (.375, .375), (.15625, .125)
    # I1, I2: 1-2 alone: .25, (.25, .25), (.0625, .0625) each
    # I3: 3-1, 3-2 at 1/2: .625, (.625, .625), ((.5625+.25)/2, (.375+.375)/2) = (.40625, .375)
    # totals NdC 1.5, NdA (1.5, 1.5), NdCdA (.6875, .625):
    # W = (.6875/1.5 - .8125/2.5, .625/1.5 - .875/2.5) = (2/15, 1/15)
    w = reference_rules(XF, YF, [False, False], rule="multisurf",
                        regression=True)
    np.testing.assert_allclose(w, [2 / 15, 1 / 15], atol=1e-15)


def test_starred_rules_have_no_regression_form():
    for rule in ("surf*", "multisurf*"):
        with pytest.raises(NotImplementedError):
            reference_rules(XF, YF, [False, False], rule=rule, regression=True)


def test_boundary_instances_are_in_neither_set():
    # three instances on a line, one feature (range 2): d01 = .5, d02 = 1,
    # d12 = .5, T = 2/3. No distance equals T; force T = .5 with the radius
    # hook: every pair at .5 is on the radius, so only the pair at 1 (0-2) is
    # far and nothing is near.
    X = np.array([[0.0], [1.0], [2.0]])
    y = np.array([0, 1, 1], float)
    assert np.all(reference_rules(X, y, [False], rule="surf", radius=0.5) == 0)
    # SURF*: I0's far miss I2 (diff 1): -1; I2's far miss I0: -1. (-2)/3
    w = reference_rules(X, y, [False], rule="surf*", radius=0.5)
    np.testing.assert_allclose(w, [-2 / 3], atol=1e-15)
    # MultiSURF on I1: d = .5, .5: T = .5, s = 0: both on the boundary -> none.
    # I0: d .5 (I1), 1 (I2): T .75, s .25: near d < .625 {I1 miss}: +.5
    # I2: d 1 (I0), .5 (I1): near {I1 hit}: -.5.  Sum 0.
    w = reference_rules(X, y, [False], rule="multisurf")
    np.testing.assert_allclose(w, [0.0], atol=1e-15)


# ---------------------------------------------------------------------------
# The reference against the project's own reference (tests/reference.py):
# with an infinite radius every instance is near, which is ReliefF with
# k >= n - 1 (all hits, all misses of every class, each group averaged).
# ---------------------------------------------------------------------------
def _random_data(seed, n=9, regression=False, classes=3):
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.integers(0, 3, n).astype(float),
                         rng.normal(size=n).round(1),
                         rng.integers(0, 2, n).astype(float)])
    X[rng.random(X.shape) < 0.15] = np.nan
    X[0, 0] = 0.0          # keep every feature with a known value
    y = rng.normal(size=n) if regression else \
        (np.arange(n) % classes).astype(float)
    return X, y, [True, False, True]


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("misses", ["per_class", "any"])
def test_infinite_radius_is_relieff_with_all_neighbours(seed, misses):
    X, y, nominal = _random_data(seed)
    expected = reference_relief(X, y, nominal, k=len(y) - 1, misses=misses)
    got = reference_rules(X, y, nominal, rule="surf", radius=math.inf,
                          misses=misses)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("variant", ["drelieff", "pdrelieff"])
def test_infinite_radius_feedback_bookkeeping(variant):
    X, y, nominal = _random_data(3, classes=2)
    expected = reference_relief(X, y, nominal, k=len(y) - 1, variant=variant)
    got = reference_rules(X, y, nominal, rule="surf", radius=math.inf,
                          variant=variant)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-14)


def test_infinite_radius_regression_is_rrelieff():
    X, y, nominal = _random_data(4, regression=True)
    expected = reference_relief(X, y, nominal, regression=True, k=len(y) - 1)
    got = reference_rules(X, y, nominal, rule="surf", radius=math.inf,
                          regression=True)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-14)


def test_feedback_variant_changes_the_neighbourhoods():
    # dReliefF's first visit uses all-one weights, so with m = 1 it is plain
    # SURF; from visit 2 on the running estimate weights the distances, and
    # the radius and the sets change with them.
    rng = np.random.default_rng(7)
    X = rng.random((12, 3))
    y = (X[:, 0] > 0.5).astype(float)
    for variant in ("drelieff", "pdrelieff"):
        np.testing.assert_array_equal(
            reference_rules(X, y, [False] * 3, rule="surf", m=1,
                            variant=variant, T=1.0),
            reference_rules(X, y, [False] * 3, rule="surf", m=1))
    plain = reference_rules(X, y, [False] * 3, rule="surf")
    fed = reference_rules(X, y, [False] * 3, rule="surf", variant="drelieff")
    assert np.all(np.isfinite(fed)) and not np.allclose(plain, fed)


@pytest.mark.parametrize("rule", ["surf", "surf*", "multisurf", "multisurf*"])
def test_invariances(rule):
    X, y, nominal = _random_data(5, n=8, classes=2)
    base = reference_rules(X, y, nominal, rule=rule)
    perm = np.random.default_rng(1).permutation(len(y))
    np.testing.assert_allclose(
        reference_rules(X[perm], y[perm], nominal, rule=rule), base,
        rtol=1e-10, atol=1e-12)
    scaled = X.copy()
    scaled[:, 1] = 10 * scaled[:, 1] + 3
    np.testing.assert_allclose(
        reference_rules(scaled, y, nominal, rule=rule), base,
        rtol=1e-10, atol=1e-12)


def test_turf_schedule():
    # 3 features, remove_fraction 1/3: one feature per iteration (a/n with
    # a = 3, n = 3); each feature keeps the estimate of the last iteration that
    # scored it; the last survivor keeps the 2-feature estimate.
    X = np.column_stack([XB, [0, 1, 0, 1, 1]])
    nominal = NOMB + [True]
    full = reference_rules(X, YB, nominal, rule="surf")
    weights, removed = reference_turf(X, YB, nominal, rule="surf",
                                      remove_fraction=1 / 3)
    first = int(np.argmin(full))
    assert removed[0] == first
    assert weights[first] == full[first]
    rest = [f for f in range(3) if f != first]
    second = reference_rules(X[:, rest], YB, [nominal[f] for f in rest],
                             rule="surf")
    np.testing.assert_array_equal(weights[rest], second)
    assert len(removed) == 2 and removed[1] == rest[int(np.argmin(second))]


# ---------------------------------------------------------------------------
# The peers.  skrebate 0.8.4 agrees exactly where the definitions coincide
# (two classes, no missing values, all-nominal or all-numeric data); fast-select
# 0.3.0 pools the misses (misses="any") and returns float32.
# ---------------------------------------------------------------------------
RULES = ["surf", "surf*", "multisurf", "multisurf*"]


def _gametes(n=200, seed=1):
    if not GAMETES.exists():
        pytest.skip(f"{GAMETES} not found")
    data = np.genfromtxt(GAMETES, delimiter="\t", skip_header=1)
    rows = np.sort(np.random.default_rng(seed).choice(len(data), n,
                                                      replace=False))
    return data[rows, :-1], data[rows, -1]


def _continuous(n=120, a=6, seed=5):
    rng = np.random.default_rng(seed)
    X = rng.random((n, a))
    y = ((X[:, 0] + X[:, 1] + 0.3 * rng.random(n)) > 1.1).astype(float)
    return X, y


def _multiclass(n=120, a=5, seed=5):
    rng = np.random.default_rng(seed)
    rng.random((n, 6))                    # the stream of _continuous, skipped
    rng.random(n)
    X = rng.random((n, a))
    y = np.floor(2.1 * X[:, 0] + 0.9 * rng.random(n)).astype(float)
    return X, y


def _skrebate(rule, X, y):
    skrebate = pytest.importorskip("skrebate")
    cls = {"surf": skrebate.SURF, "surf*": skrebate.SURFstar,
           "multisurf": skrebate.MultiSURF,
           "multisurf*": skrebate.MultiSURFstar}[rule]
    est = cls(n_features_to_select=X.shape[1], n_jobs=1)
    start = time.perf_counter()
    w = est.fit(X.copy(), y.copy()).feature_importances_
    return np.asarray(w, float), time.perf_counter() - start


def _fast_select(rule, X, y):
    fs = pytest.importorskip("fast_select")
    cls = fs.SURF if rule.startswith("surf") else fs.MultiSURF
    est = cls(n_features_to_select=X.shape[1], use_star=rule.endswith("*"),
              backend="cpu", n_jobs=1)
    start = time.perf_counter()
    w = est.fit(X, y).feature_importances_
    return np.asarray(w, float), time.perf_counter() - start


_CACHE = {}


def _cached_reference(data, rule, misses="per_class"):
    """reference_rules on one of the peer data sets, computed once."""
    key = (data, rule, misses)
    if key not in _CACHE:
        X, y = {"gametes": _gametes, "continuous": _continuous,
                "multiclass": _multiclass}[data]()
        nominal = [data == "gametes"] * X.shape[1]
        _CACHE[key] = reference_rules(X, y, nominal, rule=rule, misses=misses)
    return _CACHE[key]


def _report(label, rule, ref, peer):
    diff = float(np.max(np.abs(ref - peer)))
    rho = float(spearmanr(ref, peer)[0])
    print(f"\n{label:34s} {rule:11s} max|diff| {diff:.3g}  Spearman {rho:.6f}")
    return diff, rho


@pytest.mark.parametrize("rule", RULES)
def test_skrebate_gametes(rule):
    pytest.importorskip("skrebate")
    X, y = _gametes()
    ref = _cached_reference("gametes", rule)
    peer, _ = _skrebate(rule, X, y)
    diff, rho = _report("skrebate GAMETES 200x20", rule, ref, peer)
    assert diff < 1e-12 and rho > 0.9999


@pytest.mark.parametrize("rule", RULES)
def test_skrebate_continuous(rule):
    pytest.importorskip("skrebate")
    X, y = _continuous()
    n = len(y)
    ref = _cached_reference("continuous", rule)
    peer, _ = _skrebate(rule, X, y)
    diff, rho = _report("skrebate continuous 120x6", rule, ref, peer)
    if rule.startswith("multisurf"):
        assert diff < 1e-12
        return
    # SURF, SURF*: skrebate's radius is the mean of the whole n x n distance
    # matrix, zero diagonal included: T (n - 1) / n (surf.py L126-131).  With
    # that radius the reference agrees exactly.
    data = _Data(X, y, [False] * X.shape[1], False)
    ones = np.ones(X.shape[1])
    T = np.mean([data.dist(i, j, ones) for i in range(n)
                 for j in range(i + 1, n)])
    emulated = reference_rules(X, y, [False] * X.shape[1], rule=rule,
                               radius=T * (n - 1) / n)
    diff2, _ = _report("skrebate, radius T(n-1)/n", rule, emulated, peer)
    assert diff2 < 1e-12


def _skrebate_multiclass_model(X, y, rule):
    """skrebate 0.8.4's multi-class near update (scoring_utils.py L299-425):
    per R, hits -sum diff / h, misses (C - 1) / M^2 sum_C M_C sum_{misses of C}
    diff, with M_C the near misses of class C and M their total; / n."""
    n, a = X.shape
    data = _Data(X, y, [False] * a, False)
    ones = np.ones(a)
    D = np.array([[data.dist(i, j, ones) for j in range(n)] for i in range(n)])
    classes = np.unique(y)
    out = np.zeros(a)
    for r in range(n):
        others = [j for j in range(n) if j != r]
        d = D[r, others]
        if rule == "surf":
            T = D.sum() / n ** 2          # skrebate's mean, diagonal included
            near = [j for j in others if D[r, j] < T]
        else:
            near = [j for j in others if D[r, j] < d.mean() - d.std() / 2]
        hits = [j for j in near if y[j] == y[r]]
        misses = [j for j in near if y[j] != y[r]]
        for f in range(a):
            total = 0.0
            if misses:
                acc = 0.0
                for c in classes:
                    if c == y[r]:
                        continue
                    mc = [j for j in misses if y[j] == c]
                    acc += sum(data.diff(f, r, j) for j in mc) * len(mc) / len(misses) \
                        * (len(classes) - 1)
                total += acc / len(misses)
            if hits:
                total -= sum(data.diff(f, r, j) for j in hits) / len(hits)
            out[f] += total / n
    return out


@pytest.mark.parametrize("rule", ["surf", "multisurf"])
def test_skrebate_multiclass_weighting(rule):
    # Three classes: the paper rule (ReliefF's P(C)/(1 - P(class)) factors)
    # and skrebate differ; skrebate is reproduced by its own formula.
    pytest.importorskip("skrebate")
    X, y = _multiclass()
    assert len(np.unique(y)) == 3
    ref = reference_rules(X, y, [False] * X.shape[1], rule=rule)
    peer, _ = _skrebate(rule, X, y)
    _report("skrebate 3 classes (paper rule)", rule, ref, peer)
    model = _skrebate_multiclass_model(X, y, rule)
    diff, _ = _report("skrebate 3 classes (its formula)", rule, model, peer)
    assert diff < 1e-12


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("data", ["gametes", "continuous", "multiclass"])
def test_fast_select(rule, data):
    pytest.importorskip("fast_select")
    X, y = {"gametes": _gametes, "continuous": _continuous,
            "multiclass": _multiclass}[data]()
    # two classes: pooled and per-class misses are the same rule
    misses = "any" if data == "multiclass" else "per_class"
    ref = _cached_reference(data, rule, misses)
    peer, _ = _fast_select(rule, X, y)
    diff, rho = _report(f"fast-select {data} (misses=any)", rule, ref, peer)
    # float32 accumulation (and float32 distances in MultiSURF)
    assert diff < 1e-5 and rho > 0.999
