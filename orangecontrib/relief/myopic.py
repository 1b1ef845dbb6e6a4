"""Myopic ReliefF as CORElearn computes it (``attrEval``'s MyopicReliefF):
ReliefF's limit with every instance a neighbour, in closed form
(``paper.classic.myopic_relieff``: Robnik-Sikonja & Kononenko 2003, eq.
12), from each feature's class x value counts over the rows where it is
known.  A numeric feature gets the best of its binary splits, as CORElearn
scores numeric features with its impurity measures
(``binaryEvaluateNumericAttributes``): the values sorted, a split between
two different values with at least ``min_node_weight`` = 2 rows (CORElearn's
``minNodeWeightEst``) on each side.
"""
import numpy as np

from .core.backends.base import to_features
from .core.backends.runtime import in_batches, progress_part
from .core.contract.prepare import prepare
from .core.messages import collect_warnings
from .core.result import ReliefResult

__all__ = ["myopic"]

MIN_NODE_WEIGHT = 2


def _best_split(values, group, n_classes, score, progress=None):
    """The largest ``score(counts)`` over the binary splits of the known
    ``values`` (classes x {left, right} counts); NaN when there is none;
    ``progress`` between batches of splits (``runtime.in_batches``)."""
    order = np.argsort(values, kind="stable")
    values, group = values[order], group[order]
    left = np.cumsum(np.eye(n_classes)[group], axis=0)     # first j + 1 rows
    total = left[-1]
    best = np.nan
    for j in in_batches(range(MIN_NODE_WEIGHT,
                              values.shape[0] - MIN_NODE_WEIGHT), progress):
        if values[j] != values[j - 1]:
            counts = np.column_stack([left[j - 1], total - left[j - 1]])
            est = score(counts)
            if not best >= est:
                best = est
    return best


def myopic(X, y, nominal=None, regression=False, progress=None):
    """Myopic ReliefF of every feature (classification);
    ``progress(fraction)`` as the engine's (may raise to cancel), a part
    for each feature (a numeric one's between batches of its splits).
    Returns a ``ReliefResult`` (no trace); a feature without a split (one
    value) gets 0, one with no known value NaN."""
    from .paper.classic import myopic_relieff
    if regression:
        raise ValueError("Myopic ReliefF is defined for a class; for a "
                         "numeric target use RReliefF.")
    with collect_warnings():
        prep = prepare(X, y, nominal)
    a_num, c = prep.num.shape[1], prep.n_classes
    a = prep.n_used
    out = np.zeros(a)
    if progress is not None:
        progress(0.0)
    for f in range(a):
        part = progress_part(progress, f / a, (f + 1) / a)
        if f < a_num:
            known = ~np.isnan(prep.num[:, f])
            out[f] = _best_split(prep.num[known, f], prep.group[known], c,
                                 myopic_relieff, part)
            continue
        codes = prep.nom[:, f - a_num].astype(np.int64)
        known = codes >= 0
        counts = np.zeros((c, codes[known].max() + 1))
        np.add.at(counts, (prep.group[known], codes[known]), 1)
        out[f] = myopic_relieff(counts)
        if part is not None:
            part(1.0)
    out[np.isnan(out)] = 0.0
    return ReliefResult(weights=to_features(out[None, :], prep)[0],
                        trace=None, trace_steps=None,
                        n_iterations=prep.group.shape[0], T=None,
                        regression=False, n_dropped=prep.n_dropped)
