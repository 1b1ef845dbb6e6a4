"""ReliefF and RReliefF with the best k (CORElearn's ReliefFbestK and
RReliefFbestK, Robnik-Sikonja's ``attrEval``): every feature's largest
estimate over k = 1 ... K.

For each k the estimate is this package's ReliefF (or RReliefF) with
``k_nearest=k`` and every instance visited (``doc/semantics.md``: equal
influences, instances tied with the k-th share its slots, a group smaller
than k gives all its members); the result is, feature by feature, the
largest of them.  K is the size of the largest class (classification, as
CORElearn) or n - 1 (regression).  One pass over the visits computes every
k at once: a visit's neighbours of each group sorted by distance, the
running sums of their diffs give every k's mean (``_means_for_every_k``).
The diffs, distances, class factors and the estimate are the engine's
(``vectorised.diffs``, ``vectorised.distances``, ``neighbours.group_sign``,
``estimates.estimate``): memory O(K a + n a), time O(n^2 a).
"""
import numpy as np

from .core.backends.base import neighbourhood, to_features
from .core.backends.runtime import in_batches
from .core.backends.vectorised import diffs, distances
from .core.contract.distances import TIE_RTOL
from .core.contract.estimates import estimate
from .core.contract.neighbours import group_sign
from .core.contract.prepare import prepare
from .core.messages import collect_warnings
from .core.result import ReliefResult

__all__ = ["best_k"]


def _means_for_every_k(ranked, diff_rows, k_max):
    """(k_max, a): row k - 1 is the mean of the diffs of the k nearest
    (``ranked`` their distances, increasing; ``diff_rows`` their diffs), the
    instances tied with the k-th sharing its slots; for k beyond the group's
    size, the mean of all its members."""
    m = ranked.shape[0]
    sums = np.vstack([np.zeros(diff_rows.shape[1]),
                      np.cumsum(diff_rows, axis=0)])
    # each position's run of ties [start, end) (within TIE_RTOL of its first)
    start = np.zeros(m, np.int64)
    for i in range(1, m):
        tied = ranked[i] <= ranked[start[i - 1]] * (1 + TIE_RTOL)
        start[i] = start[i - 1] if tied else i
    end = np.empty(m, np.int64)
    end[-1] = m
    for i in range(m - 2, -1, -1):
        end[i] = end[i + 1] if start[i + 1] == start[i] else i + 1
    k = np.arange(1, min(k_max, m) + 1)
    s, e = start[k - 1], end[k - 1]
    taken = sums[s] + ((k - s) / (e - s))[:, None] * (sums[e] - sums[s])
    out = np.empty((k_max, diff_rows.shape[1]))
    out[:k.shape[0]] = taken / k[:, None]
    out[k.shape[0]:] = sums[m] / m
    return out


def best_k(X, y, nominal=None, *, regression=False, k_max=None,
           progress=None):
    """Every feature's largest ReliefF (RReliefF) estimate over k = 1 ...
    ``k_max`` (default: the largest class's size, or n - 1), every instance
    visited; ``progress(fraction)`` as the engine's (may raise to cancel).
    Returns a ``ReliefResult`` (no trace)."""
    with collect_warnings():
        prep = prepare(X, y, nominal, regression)
    n, a = prep.group.shape[0], prep.n_used
    if k_max is None:
        k_max = n - 1 if regression else int(prep.class_counts.max())
    k_max = max(1, min(int(k_max), n - 1))
    hood = neighbourhood(prep, regression, "per_class", k_max, False, 1.0)
    width = 1 + 2 * a if regression else a
    total = np.zeros((k_max, width))
    for r in in_batches(range(n), progress):
        dist = distances(prep, [r])[0]
        others = np.arange(n) != r
        for g in range(hood.n_groups):
            members = np.flatnonzero(others & (prep.group == g))
            if not members.shape[0]:
                continue
            order = members[np.argsort(dist[members], kind="stable")]
            d = diffs(prep, r, order)
            if regression:
                d_target = np.abs(prep.target[r] - prep.target[order])
                d = np.column_stack([d_target, d, d_target[:, None] * d])
            sign = group_sign(hood.mode, g, prep.group[r], hood.class_factor)
            total += sign * _means_for_every_k(dist[order], d, k_max)
    estimates = np.empty((k_max, a))
    for k in range(k_max):
        estimate(total[k], n, regression, estimates[k])
    weights = to_features(estimates.max(axis=0)[None, :], prep)[0]
    return ReliefResult(weights=weights, trace=None, trace_steps=None,
                        n_iterations=n, T=None, regression=regression,
                        n_dropped=prep.n_dropped)
