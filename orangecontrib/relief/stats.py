"""Which features are real?  Significance and stability of Relief weights.

Relief gives a weight per feature; these functions answer the two questions
that follow: how many features to keep, and whether the ranking would be the
same on other data.  ``doc/statistics.md`` says what each test is, what it
costs and how well it is calibrated.

- ``permutation_test``: R refits with the target permuted (seeded); for each
  feature p = (1 + #{null >= observed}) / (R + 1), valid by construction for
  every variant (ReliefF, dReliefF, pdReliefF, RReliefF) and rule; also the
  max-statistic (family-wise) p of Westfall & Young.
- ``stir``: STIR (Le, Urbanowicz, Moore & McKinney, Bioinformatics 35(8),
  2019), a one-sided pooled t-test of the mean miss diff against the mean
  hit diff over all (visited instance, neighbour) pairs, weighted by the
  neighbours' influences, from one run (no refits); ReliefF classification
  only.  It treats the pairs as independent, which they are not: a fast
  screen, not a decision (its calibration is measured in the docs).
- ``stability``: B subsample (or bootstrap) refits: each feature's mean rank
  with a 90 % interval, its frequency in the top k, and Kuncheva's
  consistency index of the top-k sets.
- ``benjamini_hochberg``, ``bonferroni``, ``kuncheva_index``.
- ``unreachable_threshold``: whether R permutations can give any feature a
  p (or q) below a threshold at all -- the sentence to say when they cannot.

The data arguments are those of ``core.relieff`` (X, y, nominal and its
keyword options, e.g. ``variant="pdrelieff"``, ``neighbours="multisurf"``,
``regression=True``).
"""
import math
from dataclasses import dataclass
from itertools import combinations
from typing import Optional

import numpy as np
import scipy.sparse as sp
from scipy import stats as scipy_stats

from .core import engine, quiet_warnings, ranking, relieff, vectorised
from .core.registry import Entry, lookup
from .core.rules import rule

__all__ = ["permutation_test", "stir", "stability", "benjamini_hochberg",
           "bonferroni", "kuncheva_index", "unreachable_threshold",
           "Significance", "Stability", "Test", "TESTS", "find_test"]


@dataclass
class Significance:
    """Per-feature weights and p-values (arrays of length a; NaN for a
    feature with no known value).  ``q_values``: Benjamini-Hochberg;
    ``p_bonferroni``: p times the number of tested features (at most 1);
    ``p_max_t``: the permutation test's family-wise p (max statistic);
    ``t``, ``df``: STIR's statistic and degrees of freedom."""
    method: str
    weights: np.ndarray
    p_values: np.ndarray
    q_values: np.ndarray
    p_bonferroni: np.ndarray
    p_max_t: Optional[np.ndarray] = None
    t: Optional[np.ndarray] = None
    df: Optional[float] = None
    n_permutations: int = 0


@dataclass
class Stability:
    """Ranks over ``n_resamples`` refits (1 = best): each feature's mean rank,
    its 5th and 95th percentile (a 90 % interval), how often it was among
    the ``top_k`` best, and Kuncheva's consistency index of the top-k sets
    (1: always the same set, about 0: as by chance).  ``weights``: the
    weights on all the data; ``ranks``: resamples x features."""
    weights: np.ndarray
    mean_rank: np.ndarray
    rank_low: np.ndarray
    rank_high: np.ndarray
    top_k_frequency: np.ndarray
    top_k: int
    kuncheva: float
    ranks: np.ndarray
    n_resamples: int


def benjamini_hochberg(p_values):
    """Benjamini-Hochberg q-values (step-up, monotone, at most 1) of the
    p-values that are not NaN; NaN stays NaN."""
    p = np.asarray(p_values, dtype=float)
    q = np.full(p.shape, np.nan)
    known = np.flatnonzero(~np.isnan(p))
    if known.size == 0:
        return q
    order = known[np.argsort(p[known], kind="stable")]
    m = order.size
    scaled = p[order] * m / np.arange(1, m + 1)
    q[order] = np.minimum(1.0, np.minimum.accumulate(scaled[::-1])[::-1])
    return q


def bonferroni(p_values):
    """p times the number of p-values that are not NaN, at most 1."""
    p = np.asarray(p_values, dtype=float)
    return np.minimum(1.0, p * np.count_nonzero(~np.isnan(p)))


THRESHOLD_KINDS = {"fdr": "Benjamini-Hochberg q", "p": "p",
                   "fwer": "family-wise (max-statistic) p",
                   "bonferroni": "Bonferroni p"}


def _smallest(kind, n_permutations, n_features, alone):
    """The smallest value of ``kind`` R permutations can give a feature:
    p = (1 + #{null >= observed}) / (R + 1) is at least 1 / (R + 1), and so
    is the max-statistic p; a Bonferroni p is m times p (at most 1); a BH q,
    p_(j) m / j at its smallest, is p when all m features share the
    smallest p, m / (R + 1) when one feature has it ``alone``."""
    p = 1 / (n_permutations + 1)
    if kind == "bonferroni" or (kind == "fdr" and alone):
        return min(1.0, p * n_features)
    return p


def _needed(kind, alpha, n_features, alone=False):
    """The fewest permutations whose smallest ``kind`` is below alpha."""
    scale = n_features if kind == "bonferroni" or alone else 1
    R = max(1, math.floor(scale / alpha) - 1)
    while not _smallest(kind, R, n_features, alone) < alpha:
        R += 1
    return R


def unreachable_threshold(kind, alpha, n_permutations, n_features):
    """A sentence saying why no feature can pass ``kind < alpha`` with
    ``n_permutations`` (R) permutations, or None when one can.

    A permutation p-value is (1 + #{null >= observed}) / (R + 1), so never
    below 1 / (R + 1), and neither is the max-statistic (family-wise) p
    (``kind="fwer"``); ``"p"`` compares p itself.  A Bonferroni p is m p
    (m = ``n_features``), so at least m / (R + 1).  A Benjamini-Hochberg q
    (``"fdr"``) is p_(j) m / j for some j features sharing the smallest p:
    below alpha only if (1 / (R + 1)) m / j < alpha, which needs
    1 / (R + 1) < alpha even when all m features share it.  The sentence
    gives the smallest attainable value and the R that would be needed.
    With STIR (no permutations) there is no such limit."""
    if kind not in THRESHOLD_KINDS:
        raise ValueError(f"kind must be one of {', '.join(THRESHOLD_KINDS)}"
                         f"; got {kind!r}.")
    if isinstance(alpha, bool) or not isinstance(
            alpha, (int, float, np.integer, np.floating)) or not alpha > 0:
        raise ValueError(f"alpha must be a positive number (e.g. 0.05); "
                         f"got {alpha!r}.")
    R = _whole(n_permutations, "n_permutations")
    m = _whole(n_features, "n_features")
    smallest = _smallest(kind, R, m, alone=False)
    if smallest < alpha:
        return None
    what = THRESHOLD_KINDS[kind]
    floor = f"1/{R + 1} = {1 / (R + 1):.3g}"
    if kind == "bonferroni":
        floor += (f" and the smallest Bonferroni p of {m} feature(s) "
                  f"{m}/{R + 1} = {smallest:.3g}")
    elif kind == "fdr":
        floor += " and no q is smaller than the smallest p"
    sentence = (f"With {R} permutations the smallest p-value is {floor}, so "
                f"no feature can have a {what} below {alpha:g}; use at least "
                f"{_needed(kind, alpha, m)} permutations")
    if kind == "fdr" and m > 1:
        sentence += (f" ({_needed(kind, alpha, m, alone=True)} for one of "
                     f"the {m} features to pass on its own)")
    return sentence + "."


def kuncheva_index(sets, n_features):
    """Kuncheva's consistency index (2007), averaged over all pairs of the
    equally sized feature ``sets``: (r a - k^2) / (k (a - k)), r the size of
    a pair's intersection, k the sets' size, a ``n_features``."""
    sets = [set(s) for s in sets]
    k = len(sets[0])
    if not 0 < k < n_features or any(len(s) != k for s in sets):
        raise ValueError(f"Kuncheva's index needs sets of one size k with "
                         f"0 < k < {n_features} (the number of features).")
    if len(sets) < 2:
        raise ValueError("Kuncheva's index needs at least two sets.")
    pairs = [(len(s & t) * n_features - k * k) / (k * (n_features - k))
             for s, t in combinations(sets, 2)]
    return float(np.mean(pairs))


def _whole(n, what):
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"{what} must be a whole number of at least 1; "
                         f"got {n!r}.")
    return int(n)


def _known_target(y):
    y = np.asarray(y, dtype=float)
    return y, np.flatnonzero(~np.isnan(y))


def _refit(X, y, nominal, options):
    """The weights of a refit; its warnings are those of the first fit."""
    with quiet_warnings():
        return relieff(X, y, nominal, **options).weights


def _report(progress, done, total):
    if progress is not None:
        progress(done / total)      # may raise to cancel


def permutation_test(X, y, nominal=None, *, n_permutations=99,
                     permute="target", permutation_seed=0, progress=None,
                     **relieff_options):
    """Permutation p-values of the weights of ``core.relieff(X, y, nominal,
    **relieff_options)``, each null draw a refit with the same options
    (``random_state``, if given, is the visiting order's seed, as in
    ``relieff``; the permutations are drawn from
    ``default_rng(permutation_seed)``).

    ``permute="target"``: the target is permuted among the rows where it is
    known, ``n_permutations`` times.  This tests the complete null (no
    feature is related to the target); it is exact there, but a feature
    that is independent of everything can still get a small p when other
    features carry the class: the neighbourhoods the real class defines
    give irrelevant features weights unlike those of a permuted class
    (measured in doc/statistics.md).  ``permute="feature"``: each feature's
    own column is permuted (the rest of the data as it is), ``n_permutations``
    times per feature: the null of "this feature is independent of the
    target and of the other features", the question feature selection
    asks, at a times the cost (a the number of features).

    ``progress(fraction)`` after every refit may raise to cancel.  Returns
    a ``Significance`` (``p_max_t`` only for ``permute="target"``, whose
    refits give a joint null of all features)."""
    R = _whole(n_permutations, "n_permutations")
    if permute not in ("target", "feature"):
        raise ValueError(f"permute must be 'target' or 'feature'; got "
                         f"{permute!r}.")
    y, known = _known_target(y)
    observed = relieff(X, y, nominal, **relieff_options).weights
    rng = np.random.default_rng(permutation_seed)
    if permute == "target":
        null = np.empty((R, observed.shape[0]))
        permuted = y.copy()
        for i in range(R):
            permuted[known] = y[rng.permutation(known)]
            null[i] = _refit(X, permuted, nominal, relieff_options)
            _report(progress, i + 1, R)
    else:
        null = _feature_nulls(X, y, nominal, observed, R, rng, progress,
                              relieff_options)
    with np.errstate(invalid="ignore"):
        # (a rounding residue must not beat the observed weight: compare
        # with a relative 1e-12)
        margin = observed - 1e-12 * np.abs(observed)
        p = (1 + np.sum(null >= margin, axis=0)) / (R + 1)
        largest = np.nanmax(np.where(np.isnan(null), -np.inf, null), axis=1)
        p_max_t = (1 + np.sum(largest[:, None] >= margin, axis=0)) / (R + 1)
    p[np.isnan(observed)] = np.nan
    p_max_t = np.where(np.isnan(observed), np.nan, p_max_t) \
        if permute == "target" else None
    return Significance(f"permutation ({permute})", observed, p,
                        benjamini_hochberg(p), bonferroni(p),
                        p_max_t=p_max_t, n_permutations=R)


def _feature_nulls(X, y, nominal, observed, R, rng, progress, options):
    """null[r, f]: the weight of feature f after its column alone was
    permuted (draw r); features without a weight to test (constant, no
    known value) are not refitted."""
    a = observed.shape[0]
    null = np.zeros((R, a))
    tested = [f for f in range(a) if not np.isnan(observed[f])
              and observed[f] != 0.0]
    sparse = sp.issparse(X)
    X = X.tocsc() if sparse else np.asarray(X, dtype=float)
    done, total = 0, R * max(len(tested), 1)
    for f in tested:
        column = X[:, [f]].toarray().ravel() if sparse else X[:, f].copy()
        for r in range(R):
            if sparse:
                shuffled = sp.hstack(
                    [X[:, :f], sp.csc_matrix(rng.permutation(column)[:, None]),
                     X[:, f + 1:]], format="csr")
            else:
                shuffled = X.copy()
                shuffled[:, f] = rng.permutation(column)
            null[r, f] = _refit(shuffled, y, nominal, options)[f]
            done += 1
            _report(progress, done, total)
    null[:, np.isnan(observed)] = np.nan
    return null


def stir(X, y, nominal=None, *, progress=None, **relieff_options):
    """STIR p-values of ReliefF's weights (classification), from the pairs of
    one run: for every feature the weighted pooled t-test of the miss diffs
    against the hit diffs (doc/statistics.md; tests/stir_reference.py).
    A pair's weight is the neighbour's influence in the update (1/k for
    plain ReliefF; tied neighbours' shares; P(C)/(1 - P(class(R))) for the
    misses of class C), so the miss and hit weights of a visit each sum to
    1 and mean_miss - mean_hit is the ReliefF weight.  Computed on the
    engine's vectorised path.  Returns a ``Significance``."""
    if relieff_options.get("regression"):
        raise ValueError("STIR has no regression form (its authors' NPDR "
                         "tests another statistic); for RReliefF use "
                         "permutation_test.")
    if relieff_options.get("variant", "relieff") != "relieff":
        raise ValueError("STIR tests the pairs of ReliefF, whose neighbours "
                         "do not depend on the run so far; for dReliefF and "
                         "pdReliefF use permutation_test.")
    if rule(relieff_options.get("neighbours", "k")).far:
        raise ValueError("STIR compares near misses with near hits; the "
                         "starred rules also score far instances. Use "
                         "'k', 'surf' or 'multisurf', or permutation_test.")
    if relieff_options.get("compat") is not None:
        raise ValueError("STIR is not part of Weka's ReliefF; use "
                         "compat=None.")
    if relieff_options.get("trace_every"):
        raise ValueError("stir() gives no trace; leave trace_every out.")
    if sp.issparse(X):
        weights = relieff(X, y, nominal, **relieff_options).weights
        sums = _sparse_pair_sums(X, y, nominal, progress, relieff_options)
    else:
        result = relieff(X, y, nominal, statistics=True, progress=progress,
                         **relieff_options)
        weights, sums = result.weights, result.pair_sums
    t, df, p = _pooled_t(sums)
    p[np.isnan(weights)] = np.nan
    t[np.isnan(weights)] = np.nan
    return Significance("stir", weights, p, benjamini_hochberg(p),
                        bonferroni(p), t=t, df=df)


def _sparse_pair_sums(X, y, nominal, progress, options):
    """STIR's sums on sparse data, densified for the vectorised path (the
    compiled kernels gather them on dense data)."""
    keep = {key: value for key, value in options.items()
            if key not in ("n_jobs", "progress", "status", "kernels",
                           "compat")}
    with quiet_warnings():     # (relieff has said them)
        setup = engine.start(X, y, nominal, **keep)
    if setup.hood is None:
        raise ValueError("STIR needs at least one feature with two values "
                         "and two classes.")
    dense = vectorised.dense_view(setup.prep)
    if dense is None:
        raise ValueError("STIR's sums on sparse data this large are not "
                         "computed; use dense data or permutation_test.")
    ones = np.ones(dense.n_used)
    total = np.zeros(4 * dense.n_used + 4)
    order = setup.order
    for start in range(0, order.shape[0], vectorised.BLOCK):
        block = order[start:start + vectorised.BLOCK]
        dist = vectorised.distances(dense, block)
        for b, r in enumerate(block):
            total += vectorised.pair_sums(dense, setup.hood, r, dist[b], ones)
        _report(progress, min(start + len(block), order.shape[0]),
                order.shape[0])
    return engine.pair_sums_by_feature(total, setup.prep)


def _pooled_t(sums):
    """STIR's t, df and one-sided p (upper tail) per feature from the
    one-pass sums; a feature whose diffs are all equal (0/0) gets p = 1."""
    moments = {}
    for g in ("hit", "miss"):
        W, Q = sums["W_" + g], sums["Q_" + g]
        if W <= 0:
            raise ValueError(f"STIR needs {g}s: every visited instance had "
                             f"none (too few instances of a class).")
        mean = sums["S1_" + g] / W
        # (a variance that is 0 in exact arithmetic can round to +-1e-17:
        # one of a few ulps of the mean square counts as 0)
        square = sums["S2_" + g] / W
        var = square - mean ** 2
        var[var <= 64 * np.finfo(float).eps * square] = 0.0
        moments[g] = (mean, var, W * W / Q)
    (mean_m, var_m, n_m), (mean_h, var_h, n_h) = moments["miss"], \
        moments["hit"]
    df = n_m + n_h - 2
    if df <= 0:
        raise ValueError("STIR needs more than two (visit, neighbour) pairs.")
    pooled = ((n_m - 1) * var_m + (n_h - 1) * var_h) / df
    se = np.sqrt(pooled * (1 / n_m + 1 / n_h))
    delta = mean_m - mean_h
    tiny = 64 * np.finfo(float).eps * np.maximum(mean_m, mean_h)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(se > 0, delta / se,
                     np.where(np.abs(delta) <= tiny, np.nan,
                              np.sign(delta) * np.inf))
    p = np.where(np.isnan(t), 1.0, scipy_stats.t.sf(t, df))
    return t, float(df), p


def stability(X, y, nominal=None, *, n_resamples=50, fraction=0.632,
              bootstrap=False, top_k=None, resample_seed=0, progress=None,
              **relieff_options):
    """Refit on ``n_resamples`` random subsamples of ``fraction`` of the rows
    (without replacement; with ``bootstrap``, n rows drawn with
    replacement), seeded by ``resample_seed``, and summarise the ranks
    (``Stability``).  ``top_k`` (default: 10, or half the features when
    there are fewer than 20) is the size of the sets whose consistency is
    measured.  ``progress(fraction)`` after each refit may raise to
    cancel."""
    B = _whole(n_resamples, "n_resamples")
    if B < 2:
        raise ValueError("stability needs at least 2 resamples.")
    if not 0 < fraction <= 1:
        raise ValueError(f"fraction must be in (0, 1]; got {fraction!r}.")
    y, known = _known_target(y)
    weights = relieff(X, y, nominal, **relieff_options).weights
    a = weights.shape[0]
    if a < 2:
        raise ValueError("stability ranks features: it needs at least two.")
    if top_k is None:
        top_k = 10 if a >= 20 else max(1, a // 2)
    top_k = _whole(top_k, "top_k")
    if top_k >= a:
        raise ValueError(f"top_k must be smaller than the number of "
                         f"features ({a}); got {top_k}.")
    size = known.shape[0] if bootstrap else int(round(fraction
                                                      * known.shape[0]))
    if size < 4:
        raise ValueError(f"A resample of {size} rows is too small; use a "
                         f"larger fraction or more data.")
    rng = np.random.default_rng(resample_seed)
    ranks = np.empty((B, a))
    for i in range(B):
        rows = np.sort(rng.choice(known, size, replace=bootstrap))
        resampled = _refit(X[rows], y[rows], nominal, relieff_options)
        ranks[i, ranking(resampled)] = np.arange(1, a + 1)
        _report(progress, i + 1, B)
    tops = [np.flatnonzero(row <= top_k) for row in ranks]
    return Stability(
        weights=weights, mean_rank=ranks.mean(axis=0),
        rank_low=np.percentile(ranks, 5, axis=0),
        rank_high=np.percentile(ranks, 95, axis=0),
        top_k_frequency=(ranks <= top_k).mean(axis=0), top_k=top_k,
        kuncheva=kuncheva_index(tops, a), ranks=ranks, n_resamples=B)


# -- the registry of significance tests ---------------------------------------

@dataclass(frozen=True)
class Test(Entry):
    """One significance test of the weights, as the scorers, the widgets, the
    scikit-learn selector and the command line offer it (by ``name``).

    ``function(X, y, nominal, *, n_permutations, permutation_seed, progress,
    **relieff_options)`` returns a ``Significance``; ``refits_per_feature``:
    R refits per feature (else R in all, or one run when not
    ``permutations``); ``family_wise``: it gives the max-statistic p
    (``p_max_t``); ``variants``, ``regression``, ``far_rules``, ``weka``:
    what it supports."""
    function: object
    permutations: bool = True
    refits_per_feature: bool = False
    family_wise: bool = False
    variants: tuple = ("relieff", "drelieff", "pdrelieff")
    regression: bool = True
    far_rules: bool = True
    weka: bool = True

    def cost(self, n_permutations, n_features):
        """The test's cost in runs of the scorer."""
        if not self.permutations:
            return 1
        return n_permutations * (n_features if self.refits_per_feature
                                 else 1)

    def unsupported(self, variant="relieff", regression=False,
                    neighbours="k", compat=None):
        """Why the test does not apply to these options, or None."""
        if variant not in self.variants:
            return f"{self.display_name} tests {', '.join(self.variants)} only"
        if regression and not self.regression:
            return f"{self.display_name} has no regression form"
        if rule(neighbours).far and not self.far_rules:
            return f"{self.display_name} does not score far instances"
        if compat is not None and not self.weka:
            return f"{self.display_name} is not part of Weka's ReliefF"
        return None

    def run(self, X, y, nominal=None, *, n_permutations=99,
            permutation_seed=0, progress=None, **relieff_options):
        """The test's ``Significance`` of ``core.relieff``'s weights."""
        if not self.permutations:
            return self.function(X, y, nominal, progress=progress,
                                 **relieff_options)
        return self.function(X, y, nominal, n_permutations=n_permutations,
                             permutation_seed=permutation_seed,
                             progress=progress, **relieff_options)


def _class_permutation(X, y, nominal=None, **options):
    return permutation_test(X, y, nominal, permute="target", **options)


def _feature_permutation(X, y, nominal=None, **options):
    return permutation_test(X, y, nominal, permute="feature", **options)


#: The tests by name, in menu order (saved settings and options name them).
TESTS = {test.name: test for test in (
    Test("feature_permutation", "Permutation, each feature",
         "each feature's column is shuffled R times and refitted: is the "
         "feature better than an irrelevant one? (R runs per feature)",
         _feature_permutation, refits_per_feature=True),
    Test("permutation", "Permutation of the class",
         "R refits with the class shuffled: is anything related to the "
         "class? (irrelevant features can pass when others carry the class)",
         _class_permutation, family_wise=True),
    Test("stir", "STIR (one run; a fast screen)",
         "STIR's t-test of ReliefF's neighbour pairs from one run; it "
         "treats the pairs as independent, so it finds too much on small "
         "data (doc: statistics)",
         stir, permutations=False, variants=("relieff",), regression=False,
         far_rules=False, weka=False),
)}


def find_test(method="permutation", permute="target"):
    """The registered test named ``method``; ``method="permutation"`` with
    ``permute="feature"`` is ``"feature_permutation"`` (the scorers'
    spelling)."""
    if method == "permutation" and permute == "feature":
        method = "feature_permutation"
    elif permute not in ("target", "feature"):
        raise ValueError(f"permute must be 'target' or 'feature'; got "
                         f"{permute!r}.")
    return lookup(TESTS, method, "method")
