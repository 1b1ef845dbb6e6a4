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
- ``npdr``: NPDR (Le, Dawkins & McKinney, Bioinformatics 36(9), 2020),
  for every feature the regression of the neighbour pairs' outcome
  difference (hit/miss: logistic; ``|y_i - y_j|``: linear) on the pair's
  diff of the feature and of the covariates; one-sided p of the
  coefficient, from one run.  ``npdr_permutation``: the same statistic
  against R draws of the target that keep the covariates' part (a class
  from its logistic regression on the covariates, or permuted within
  their strata; Freedman-Lane for a numeric target).
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
import inspect
import math
from contextlib import contextmanager
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Optional

import numpy as np
import scipy.sparse as sp
from scipy import stats as scipy_stats

from ..core import engine, quiet_warnings, ranking, relieff
from ..core.backends import vectorised
from ..core.backends.base import plan
from ..core.backends.cuda.backend import check_device, kept_data
from ..core.contract.prepare import (check_instance_weights, several_targets,
                                     with_target)
from ..core.registry import Entry, lookup
from ..core.messages import warn
from ..core.options import (is_real, random_generator, results_rows,
                            whole_number)
from ..core.rules import names, rule
from ..core.variants import VARIANTS, named
from .npdr_parts import (CLASS_DRAWS, Permuter, Problem, check_covariates,
                         check_npdr_options, dense_features, one_sided_p,
                         pair_outcome)

__all__ = ["permutation_test", "stir", "npdr", "npdr_permutation",
           "stability", "benjamini_hochberg",
           "bonferroni", "kuncheva_index", "unreachable_threshold",
           "Significance", "Stability", "Test", "TESTS", "find_test",
           "NPDR_DEFAULT"]


@dataclass
class Significance:
    """Per-feature weights and p-values (arrays of length a; NaN for a
    feature with no known value).  ``q_values``: Benjamini-Hochberg;
    ``p_bonferroni``: p times the number of tested features (at most 1);
    ``p_max_t``: the permutation test's family-wise p (max statistic);
    ``t``, ``df``: STIR's and NPDR's statistic and degrees of freedom.
    NPDR's ``weights`` are its coefficients (``standard_errors`` theirs),
    over ``n_pairs`` neighbour pairs, adjusted for ``covariates``."""
    method: str
    weights: np.ndarray
    p_values: np.ndarray
    q_values: np.ndarray
    p_bonferroni: np.ndarray
    p_max_t: Optional[np.ndarray] = None
    t: Optional[np.ndarray] = None
    df: Optional[float] = None
    n_permutations: int = 0
    standard_errors: Optional[np.ndarray] = None
    n_pairs: int = 0
    covariates: tuple = ()

    def on_columns(self, columns, n_columns):
        """This result for a table of ``n_columns`` features of which
        ``columns`` are the tested ones: the per-feature arrays in those
        places, NaN in the others (e.g. covariates among the attributes)."""
        placed = {}
        for field in ("weights", "p_values", "q_values", "p_bonferroni",
                      "p_max_t", "t", "standard_errors"):
            values = getattr(self, field)
            if values is not None:
                placed[field] = np.full(n_columns, np.nan)
                placed[field][columns] = values
        return replace(self, **placed)


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
    if not is_real(alpha) or not alpha > 0:
        raise ValueError(f"alpha must be a positive number (e.g. 0.05); "
                         f"got {alpha!r}.")
    R = whole_number(n_permutations, "n_permutations")
    m = whole_number(n_features, "n_features")
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


def _known_target(y):
    """y as floats and its rows with a known target (of several targets:
    with one known at least; a permutation moves a row's targets
    together)."""
    y = np.asarray(y, dtype=float)
    unknown = np.isnan(y) if y.ndim == 1 else np.isnan(y).all(axis=1)
    return y, np.flatnonzero(~unknown)


def _drawn_rows(X, y, options):
    """(y as floats, the rows that permutations and resamples draw from,
    the checked instance weights of ``options`` or None): the rows with a
    known target and, with instance weights, a positive weight (a row of
    weight 0 is not in the data, as ``prepare`` leaves it out), so that
    weight 0 draws as the row removed."""
    y, known = _known_target(y)
    weights = check_instance_weights(options.get("instance_weights"),
                                     np.shape(X)[0])
    if weights is not None:
        known = known[weights[known] > 0]
    return y, known, weights


def _refit(X, y, nominal, options):
    """The weights of a refit; its warnings are those of the first fit."""
    with quiet_warnings():
        return relieff(X, y, nominal, **options).weights


# What a GPU run takes besides the plan's options (``engine.run_setup``)
_RUN_OPTIONS = ("device", "kernels", "status")


@contextmanager
def _target_refits(X, y, nominal, options, known):
    """``refit(target)``: the weights of a refit with ``target`` for the
    rows ``known`` (``_drawn_rows``).  On the GPU (``device="cuda"``,
    dense data) X is prepared once and kept on the device: each refit is
    planned on the same prepared data with its target
    (``prepare.with_target``, the numbers of a whole ``prepare``), and its
    run sends only the target's arrays (``kept_data``).  Elsewhere each refit is a whole ``relieff``."""
    accepted = set(inspect.signature(engine.relieff_options).parameters)
    accepted |= {"feature_names", "class_names", *_RUN_OPTIONS}
    if (check_device(options.get("device")) != "cuda" or sp.issparse(X)
            or set(options) - accepted or options.get("compat") is not None
            or options.get("variant", "relieff") not in named(visits=True)):
        def whole(target):
            permuted = y.copy()
            permuted[known] = target
            return _refit(X, permuted, nominal, options)
        yield whole
        return
    run = {key: options[key] for key in _RUN_OPTIONS if key in options}
    planned = {key: value for key, value in options.items()
               if key not in _RUN_OPTIONS}
    with quiet_warnings():
        first = engine.start(X, y, nominal, **planned)
    regression = first.options.regression

    def refit(target):
        with quiet_warnings():
            setup = plan(with_target(first.prep, target, regression),
                         first.options)
            return engine.run_setup(setup, **run).weights
    with kept_data():
        yield refit


def _report(progress, done, total):
    if progress is not None:
        progress(done / total)      # may raise to cancel


def permutation_test(X, y, nominal=None, *, n_permutations=99,
                     permute="target", permutation_seed=0, progress=None,
                     **relieff_options):
    """Permutation p-values of the weights of ``core.relieff(X, y, nominal,
    **relieff_options)``, each null draw a refit with the same options
    (``random_state``, if given, is the visiting order's seed, as in
    ``relieff``, and ``device="cuda"`` runs every refit on the GPU; the
    permutations are drawn from ``default_rng(permutation_seed)``).

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
    R = whole_number(n_permutations, "n_permutations")
    if permute not in ("target", "feature"):
        raise ValueError(f"permute must be 'target' or 'feature'; got "
                         f"{permute!r}.")
    y, known, weights = _drawn_rows(X, y, relieff_options)
    observed = relieff(X, y, nominal, **relieff_options).weights
    rng = random_generator(permutation_seed, "permutation_seed")
    if permute == "target":
        null = results_rows(R, observed.shape[0], "n_permutations")
        permuted = y.copy()
        with _target_refits(X, y, nominal, relieff_options, known) as refit:
            for i in range(R):
                permuted[known] = y[rng.permutation(known)]
                null[i] = refit(permuted[known])
                _report(progress, i + 1, R)
    else:
        null = _feature_nulls(X, y, nominal, observed, R, rng, progress,
                              relieff_options, weights)
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


def _feature_nulls(X, y, nominal, observed, R, rng, progress, options,
                   weights=None):
    """null[r, f]: the weight of feature f after its column alone was
    permuted (draw r); features without a weight to test (constant, no
    known value) are not refitted.  With instance ``weights`` the column
    is permuted among the rows of positive weight (each weight stays with
    its row; a row of weight 0 is not in the data)."""
    a = observed.shape[0]
    null = results_rows(R, a, "n_permutations", zeros=True)
    tested = [f for f in range(a) if not np.isnan(observed[f])
              and observed[f] != 0.0]
    sparse = sp.issparse(X)
    X = X.tocsc() if sparse else np.asarray(X, dtype=float)
    done, total = 0, R * max(len(tested), 1)
    rows = None if weights is None else np.flatnonzero(weights > 0)
    for f in tested:
        column = X[:, [f]].toarray().ravel() if sparse else X[:, f].copy()
        for r in range(R):
            if rows is not None:
                shuffled = _permuted_rows(X, f, column, rows, rng)
            elif sparse:
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


def _permuted_rows(X, f, column, rows, rng):
    """X (dense, or sparse as CSR) with the values of feature f permuted
    among ``rows`` alone."""
    values = column.copy()
    values[rows] = column[rng.permutation(rows)]
    if sp.issparse(X):
        return sp.hstack([X[:, :f], sp.csc_matrix(values[:, None]),
                          X[:, f + 1:]], format="csr")
    shuffled = X.copy()
    shuffled[:, f] = values
    return shuffled


def stir(X, y, nominal=None, *, progress=None, **relieff_options):
    """STIR p-values of ReliefF's weights (classification), from the pairs of
    one run: for every feature the weighted pooled t-test of the miss diffs
    against the hit diffs (doc/statistics.md; tests/stir_reference.py).
    A pair's weight is the neighbour's influence in the update (1/k for
    plain ReliefF; tied neighbours' shares; P(C)/(1 - P(class(R))) for the
    misses of class C), so the miss and hit weights of a visit each sum to
    1 and mean_miss - mean_hit is the ReliefF weight.  The sums come from
    the run on dense data (on the GPU with ``device="cuda"``); on sparse
    data from the engine's vectorised path on the CPU.  With
    ``instance_weights`` an instance of weight w counts as w copies of
    itself: a visit of weight w_R with a neighbour of share s counts
    w_R s pairs (doc/semantics.md, "Instance weights"; the run densifies
    sparse data).  Returns a ``Significance``."""
    if relieff_options.get("regression"):
        raise ValueError("STIR has no regression form (its authors' NPDR "
                         "tests another statistic); for RReliefF use "
                         "permutation_test.")
    if relieff_options.get("variant", "relieff") not in STIR_VARIANTS:
        raise ValueError("STIR tests the pairs of ReliefF, whose neighbours "
                         "do not depend on the run so far; for dReliefF and "
                         "pdReliefF use permutation_test.")
    if rule(relieff_options.get("neighbours", "k")).far:
        raise ValueError("STIR compares near misses with near hits; the "
                         "starred rules also score far instances. Use "
                         f"{names(far=False)}, or permutation_test.")
    if relieff_options.get("compat") is not None:
        raise ValueError("STIR is not part of Weka's ReliefF; use "
                         "compat=None.")
    if relieff_options.get("trace_every"):
        raise ValueError("stir() gives no trace; leave trace_every out.")
    if sp.issparse(X) and check_instance_weights(
            relieff_options.get("instance_weights"), X.shape[0]) is None:
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
                           "compat", "device")}
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


# -- NPDR ---------------------------------------------------------------------

def npdr(X, y, nominal=None, *, covariates=None, covariate_nominal=None,
         covariate_names=None, regression=False, neighbours="k",
         k_nearest=10, separate_hit_miss=False, misses="per_class",
         n_iterations=None, random_state=0, n_jobs=None, progress=None,
         feature_names=None, variant="relieff", weight_by_distance=False,
         sigma=2.0, T=None, compat=None, class_names=None, device=None,
         instance_weights=None):
    """NPDR, nearest-neighbour projected-distance regression (Le, Dawkins &
    McKinney, Bioinformatics 36(9), 2020): for every feature A, over the
    (instance, neighbour) pairs (i, j)::

        classification: logit P(miss_ij) = b0 + b_A diff(A, I_i, I_j)
                                           + sum_C g_C diff(C, I_i, I_j)
        regression:     |y_i - y_j| = b0 + b_A diff(A, I_i, I_j)
                                      + sum_C g_C diff(C, I_i, I_j) + e

    (miss_ij = 1 when the classes differ; C the ``covariates``), and the
    one-sided p of t = b_A / se(b_A) on the residual degrees of freedom
    (pairs less coefficients), as npdr's ``diffRegression`` reports it;
    q: Benjamini-Hochberg.  It treats the pairs as independent observations
    (doc/statistics.md measures what that does; ``npdr_permutation`` is
    the calibrated version).

    Neighbours are the engine's (``neighbours``: "k" with ``k_nearest``,
    "surf" or "multisurf"; ties at the k-th share its slots, so a pair
    counts its share) over the features only: ``covariates`` (n x c
    values, ``covariate_nominal`` marks the nominal ones, given as codes)
    take no part in the distance.  By default they are found without the
    class (npdr's ``separate.hitmiss.nbds = FALSE``); ``separate_hit_miss``
    takes ReliefF's k nearest hits and k nearest misses of each class
    (``misses="any"``: of all classes together).  ``n_iterations`` visits
    that many instances, drawn with ``random_state``; all by default.
    ``variant``, ``sigma``, ``T``, ``class_names`` and ``device`` are
    accepted for the scorers' sake and do not change the result (NPDR's
    neighbours and regressions run on the CPU).

    Returns a ``Significance``: ``weights`` are the coefficients b_A per
    unit of diff (a feature's full range), ``standard_errors``, ``t``,
    ``df``.  A feature whose diffs do not vary over the pairs, or are a
    combination of the covariates' diffs, gets p = 1 and coefficient NaN;
    one with no known value NaN.

    ``instance_weights`` (``relieff``'s): the weighted regression of the
    pairs that the table with each row repeated w times has, each pair
    once per copy (``npdr_parts.weighted_pair_rows``): a pair of instances
    i and j counts w_i times j's slots among i's neighbours (within a
    radius, w_i w_j times), and i's pairs with its own w_i - 1 copies
    (every diff and the outcome 0) take part; the degrees of freedom are
    the pairs' total weight less the coefficients; missing values take
    RELIEF-D's weighted laws (``doc/semantics.md``)."""
    problem, y, _ = _npdr_problem(
        X, y, nominal, covariates, covariate_nominal, covariate_names,
        regression, neighbours, k_nearest, separate_hit_miss, misses,
        n_iterations, random_state, n_jobs, feature_names, variant,
        weight_by_distance, sigma, T, compat, _phase(progress, 0, 0.5),
        instance_weights)
    fits = problem.fits(pair_outcome(y, problem.pairs, regression),
                        _phase(progress, 0.5, 1.0))
    _warn_fits(fits, feature_names)
    p = _npdr_p(fits, one_sided_p(fits.statistics, fits.df))
    return _npdr_significance("npdr", fits, p, problem)


def npdr_permutation(X, y, nominal=None, *, n_permutations=99,
                     permutation_seed=0, class_draws="model", strata_bins=5,
                     covariates=None,
                     covariate_nominal=None, covariate_names=None,
                     regression=False, neighbours="k", k_nearest=10,
                     separate_hit_miss=False, misses="per_class",
                     n_iterations=None, random_state=0, n_jobs=None,
                     progress=None, feature_names=None, variant="relieff",
                     weight_by_distance=False, sigma=2.0, T=None,
                     compat=None, class_names=None, device=None,
                     instance_weights=None):
    """NPDR's statistic t = b_A / se(b_A) (``npdr``, the same options)
    against ``n_permutations`` (R) draws of the target under the null that
    no feature adds to the covariates: p = (1 + #{t* >= t}) / (R + 1), and
    the family-wise p of the largest t* (``p_max_t``).

    The draws keep the covariates' part of the target: without covariates
    the target is permuted; a numeric target is Freedman and Lane's fitted
    values plus permuted residuals of the least-squares fit of y on the
    covariates; a class, with ``class_draws="model"``, is drawn for each
    instance from the multinomial logistic regression of the class on the
    covariates (nominal ones as indicators), with ``"strata"`` permuted
    within the covariates' strata (the combinations of nominal covariates'
    values and of numeric covariates' ``strata_bins`` quantile bins; it
    leaves the class's dependence on a covariate within a bin out of the
    draws: doc/statistics.md measures it).  With class-blind
    neighbourhoods (the default) the pairs do not depend on the target, so
    each draw only refits the regressions on the same pairs; with
    ``separate_hit_miss`` each draw finds its own neighbours.  Draws come
    from ``default_rng(permutation_seed)``.  ``instance_weights`` as
    ``npdr`` takes them, each kept with its row by the draws, whose null
    model of the covariates' part is fitted with them as on the repeated
    rows (``npdr_parts.Permuter``)."""
    R = whole_number(n_permutations, "n_permutations")
    bins = whole_number(strata_bins, "strata_bins")
    if class_draws not in CLASS_DRAWS:
        raise ValueError(f"class_draws must be one of "
                         f"{', '.join(map(repr, CLASS_DRAWS))}; got "
                         f"{class_draws!r}.")
    problem, y, checked = _npdr_problem(
        X, y, nominal, covariates, covariate_nominal, covariate_names,
        regression, neighbours, k_nearest, separate_hit_miss, misses,
        n_iterations, random_state, n_jobs, feature_names, variant,
        weight_by_distance, sigma, T, compat,
        _phase(progress, 0, 1 / (R + 2)), instance_weights)
    fits = problem.fits(pair_outcome(y, problem.pairs, regression))
    _warn_fits(fits, feature_names)
    observed = fits.statistics
    permuter = Permuter(y, checked, regression, bins, permutation_seed,
                        class_draws, problem.prep.instance_weights)
    null = results_rows(R, observed.shape[0], "n_permutations")
    for r in range(R):
        drawn = permuter.draw()
        with quiet_warnings():
            refit = problem.permuted(drawn)
            null[r] = refit.fits(pair_outcome(drawn, refit.pairs,
                                              regression)).statistics
        _report(progress, r + 2, R + 2)
    null = np.where(np.isnan(null), -np.inf, null)
    with np.errstate(invalid="ignore"):
        margin = observed - 1e-12 * np.abs(observed)
        p = (1 + np.sum(null >= margin, axis=0)) / (R + 1)
        p_max_t = (1 + np.sum(null.max(axis=1)[:, None] >= margin,
                              axis=0)) / (R + 1)
    p = _npdr_p(fits, p)
    p_max_t = np.where(np.isnan(p), np.nan,
                       np.where(fits.aliased, 1.0, p_max_t))
    return _npdr_significance("npdr (permutation)", fits, p, problem,
                              p_max_t=p_max_t, n_permutations=R)


def _phase(progress, start, stop):
    """A progress callback for the part [start, stop] of a run."""
    if progress is None:
        return None
    return lambda fraction: progress(start + fraction * (stop - start))


def _npdr_problem(X, y, nominal, covariates, covariate_nominal,
                  covariate_names, regression, neighbours, k_nearest,
                  separate_hit_miss, misses, n_iterations, random_state,
                  n_jobs, feature_names, variant, weight_by_distance, sigma,
                  T, compat, progress, instance_weights=None):
    """The checked inputs' NPDR ``Problem`` (rows with a missing target
    left out, with a warning, and rows of instance weight 0), the known
    target and the ``Covariates``."""
    check_npdr_options(regression, neighbours, k_nearest, separate_hit_miss,
                       misses, variant, weight_by_distance, sigma, T, compat,
                       n_jobs)
    X = dense_features(X)
    y = as_target(y, X.shape[0])
    checked = None if covariates is None else check_covariates(
        covariates, covariate_nominal, covariate_names, y, regression)
    known = ~np.isnan(y)
    if not known.all():
        warn(f"{int((~known).sum())} instance(s) with a missing class "
             f"value were left out.", stacklevel=3)
    weights = check_instance_weights(instance_weights, X.shape[0])
    if weights is not None:
        known &= weights > 0        # (not in the data)
        weights = weights[known]
    if not known.all():
        X, y = X[known], y[known]
        if checked is not None:
            checked = checked._replace(values=checked.values[known])
    problem = Problem(X, y, nominal, checked, regression=regression,
                      neighbours=neighbours, k_nearest=k_nearest,
                      separate_hit_miss=separate_hit_miss, misses=misses,
                      n_iterations=n_iterations, random_state=random_state,
                      n_jobs=n_jobs, feature_names=feature_names,
                      progress=progress, instance_weights=weights)
    return problem, y, checked


def as_target(y, n):
    """y as floats, one per row, without infinite values."""
    y = np.asarray(y, dtype=float).ravel()
    if y.shape[0] != n:
        raise ValueError(f"X has {n} rows but y has {y.shape[0]} values; "
                         f"give one target value per row.")
    if np.isinf(y).any():
        raise ValueError("The target y holds +inf or -inf; replace them by "
                         "NaN (missing) or finite numbers.")
    return y


def _warn_fits(fits, names):
    """Say which features NPDR could not fit as it should."""
    def listed(mask):
        shown = [repr(str(names[f])) if names is not None else str(f)
                 for f in np.flatnonzero(mask)[:5]]
        more = int(mask.sum()) - len(shown)
        return ", ".join(shown) + (f" and {more} more" if more > 0 else "")
    tested = ~np.isnan(fits.statistics) | fits.aliased
    aliased = fits.aliased & tested
    if aliased.any():
        warn(f"NPDR cannot estimate the coefficient of feature(s) "
             f"{listed(aliased)}: their differences over the neighbour "
             f"pairs are constant or a combination of the covariates'; "
             f"their p is 1.", stacklevel=3)
    if fits.diverged.any():
        warn(f"The logistic fit of feature(s) {listed(fits.diverged)} did "
             f"not converge (their differences separate hits from misses); "
             f"their statistic is the signed root of the likelihood-ratio "
             f"statistic.", stacklevel=3)


def _npdr_p(fits, p):
    """p with the features NPDR could not fit at 1, and NaN where a
    feature has no known value."""
    p = np.where(fits.aliased, 1.0, p)
    return np.where(np.isnan(fits.statistics) & ~fits.aliased, np.nan, p)


def _npdr_significance(method, fits, p, problem, **extra):
    return Significance(
        method, fits.coefficients, p, benjamini_hochberg(p), bonferroni(p),
        t=fits.statistics, df=fits.df, standard_errors=fits.standard_errors,
        n_pairs=int(problem.pairs.first.shape[0]),
        covariates=() if problem.covariates is None
        else problem.covariates.names, **extra)


def stability(X, y, nominal=None, *, n_resamples=50, fraction=0.632,
              bootstrap=False, top_k=None, resample_seed=0, progress=None,
              **relieff_options):
    """Refit on ``n_resamples`` random subsamples of ``fraction`` of the rows
    (without replacement; with ``bootstrap``, n rows drawn with
    replacement), seeded by ``resample_seed``, and summarise the ranks
    (``Stability``).  ``top_k`` (default: 10, or half the features when
    there are fewer than 20) is the size of the sets whose consistency is
    measured.  With ``instance_weights`` (``relieff``'s) the rows of
    positive weight are drawn, each with its weight.  ``progress(fraction)``
    after each refit may raise to cancel."""
    B = whole_number(n_resamples, "n_resamples")
    if B < 2:
        raise ValueError("stability needs at least 2 resamples.")
    if not 0 < fraction <= 1:
        raise ValueError(f"fraction must be in (0, 1]; got {fraction!r}.")
    y, known, instance_weights = _drawn_rows(X, y, relieff_options)
    weights = relieff(X, y, nominal, **relieff_options).weights
    a = weights.shape[0]
    if a < 2:
        raise ValueError("stability ranks features: it needs at least two.")
    if top_k is None:
        top_k = 10 if a >= 20 else max(1, a // 2)
    top_k = whole_number(top_k, "top_k")
    if top_k >= a:
        raise ValueError(f"top_k must be smaller than the number of "
                         f"features ({a}); got {top_k}.")
    size = known.shape[0] if bootstrap else int(round(fraction
                                                      * known.shape[0]))
    if size < 4:
        raise ValueError(f"A resample of {size} rows is too small; use a "
                         f"larger fraction or more data.")
    rng = random_generator(resample_seed, "resample_seed")
    ranks = results_rows(B, a, "n_resamples")
    for i in range(B):
        rows = np.sort(rng.choice(known, size, replace=bootstrap))
        options = relieff_options if instance_weights is None else dict(
            relieff_options, instance_weights=instance_weights[rows])
        resampled = _refit(X[rows], y[rows], nominal, options)
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
    what it supports; ``covariates``: it adjusts for covariates
    (``function`` then takes ``covariates``, ``covariate_nominal`` and
    ``covariate_names``, and they take no part in the distance);
    ``several_targets``: it takes a y of several targets (multi-target
    RReliefF; the permutation tests permute the rows of targets
    together); ``instance_weights``: it takes ``relieff``'s instance
    weights."""
    function: object
    permutations: bool = True
    refits_per_feature: bool = False
    family_wise: bool = False
    variants: tuple = ("relieff", "drelieff", "pdrelieff")
    regression: bool = True
    far_rules: bool = True
    weka: bool = True
    covariates: bool = False
    several_targets: bool = True
    instance_weights: bool = True

    def cost(self, n_permutations, n_features):
        """The test's cost in runs of the scorer."""
        if not self.permutations:
            return 1
        return n_permutations * (n_features if self.refits_per_feature
                                 else 1)

    def unsupported(self, variant="relieff", regression=False,
                    neighbours="k", compat=None, covariates=False,
                    several_targets=False, instance_weights=False):
        """Why the test does not apply to these options (``covariates``,
        ``instance_weights``: whether any are given; ``several_targets``:
        whether the data has several), or None."""
        if several_targets and not self.several_targets:
            return (f"{self.display_name} takes one target (its pairs' "
                    "statistics are one class's or one target's)")
        if variant not in self.variants:
            return f"{self.display_name} tests {', '.join(self.variants)} only"
        if regression and not self.regression:
            return f"{self.display_name} has no regression form"
        if rule(neighbours).far and not self.far_rules:
            return f"{self.display_name} does not score far instances"
        if compat is not None and not self.weka:
            return f"{self.display_name} is not part of Weka's ReliefF"
        if covariates and not self.covariates:
            return f"{self.display_name} does not adjust for covariates"
        if instance_weights and not self.instance_weights:
            return f"{self.display_name} does not take instance weights"
        return None

    def run(self, X, y, nominal=None, *, n_permutations=99,
            permutation_seed=0, progress=None, covariates=None,
            **relieff_options):
        """The test's ``Significance`` of ``core.relieff``'s weights
        (``covariates``, for a test that takes them, as ``npdr``'s)."""
        if several_targets(y, relieff_options.get("nominal_targets")):
            why = self.unsupported(several_targets=True)
            if why is not None:
                raise ValueError(f"y has several targets, but {why}; use a "
                                 "permutation test.")
        if covariates is not None:
            if not self.covariates:
                adjusting = [repr(name) for name, test in TESTS.items()
                             if test.covariates]
                raise ValueError(f"{self.display_name} does not adjust for "
                                 f"covariates; use {' or '.join(adjusting)}.")
            relieff_options["covariates"] = covariates
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


#: The variants the permutation tests refit: every registered one (a refit
#: is a run, I-RELIEF's too).
PERMUTED_VARIANTS = tuple(VARIANTS)
#: STIR's: its pairs are those of independent visits (ReliefF's).
STIR_VARIANTS = named(sequential=False, visits=True)

#: The tests by name, in menu order (saved settings and options name them).
TESTS = {test.name: test for test in (
    Test("feature_permutation", "Permutation, each feature",
         "each feature's column is shuffled R times and refitted: is the "
         "feature better than an irrelevant one? (R runs per feature)",
         _feature_permutation, refits_per_feature=True,
         variants=PERMUTED_VARIANTS),
    Test("permutation", "Permutation of the class",
         "R refits with the class shuffled: is anything related to the "
         "class? (irrelevant features can pass when others carry the class)",
         _class_permutation, family_wise=True, variants=PERMUTED_VARIANTS),
    Test("stir", "STIR (one run; a fast screen)",
         "STIR's t-test of ReliefF's neighbour pairs from one run; it "
         "treats the pairs as independent, so it finds too much on small "
         "data (doc: statistics)",
         stir, permutations=False, variants=STIR_VARIANTS, regression=False,
         far_rules=False, weka=False, several_targets=False),
    Test("npdr_permutation", "NPDR, permutations (covariates)",
         "NPDR regresses each feature's differences over the neighbour "
         "pairs, adjusted for the covariates' differences; p from R "
         "permutations (draws) of the target that keep the covariates' "
         "part (R refits of the regressions)",
         npdr_permutation, family_wise=True, far_rules=False, weka=False,
         covariates=True, several_targets=False),
    Test("npdr", "NPDR (one run; a fast screen)",
         "NPDR's one-sided p of each feature's coefficient from one run, "
         "as the R package npdr reports it; it treats the pairs as "
         "independent (doc: statistics)",
         npdr, permutations=False, far_rules=False, weka=False,
         covariates=True, several_targets=False),
)}


#: The calibrated NPDR test: the one the widgets, the selector and the
#: command line use when covariates are given and no test is named.
NPDR_DEFAULT = "npdr_permutation"


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
