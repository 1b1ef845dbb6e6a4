"""CORElearn's RReliefFwithMSE (``estimationReg::Combination`` in its
``estimatorReg.cpp``): RReliefFexpRank's weights and the MSE of the mean's
estimates, each scaled to [0, 1] by its min and max over the features,
combined as

    W[A] = w R[A] + (1 - w) M[A],   w = exp(-1 / (n / 50)^2)

(n the instances with a known target: RReliefF's share grows with the data,
w = 0.37 at n = 50, 0.96 at 250).  M[A] (``mse_of_mean``, CORElearn's
``MSEofMean``) is minus the smallest p_L var_L + p_R var_R over the binary
splits of the feature's known values: a numeric feature split between two
of its sorted distinct values, a nominal one between its values sorted by
their mean target (as CART); var the target's variance in a side, p its
share.  A feature with no split (one known value) gets minus the target's
variance of its known rows (CORElearn: -1.797e308, which its scaling then
turns into 0 for that feature and a degenerate scale for the others); a
scale of range 0 (every feature equal) gives 0.
"""
import numpy as np

from .core import relieff
from .core.backends.runtime import in_batches, progress_part
from .core.result import ReliefResult

__all__ = ["mse_of_mean", "with_mse", "RELIEF_EXAMPLES"]

#: CORElearn's ``neccessaryReliefExamples``: n at which w = exp(-1)
RELIEF_EXAMPLES = 50
#: the part of the progress of RReliefFwithMSE's run of the engine (O(n^2)
#: against the MSE's O(n log n) per feature)
RELIEF_SHARE = 0.9


def mse_of_mean(X, y, nominal=None, progress=None):
    """Minus each feature's smallest weighted variance of ``y`` over its
    binary splits (see the module's docstring); X's nominal columns
    (``nominal``) hold value codes, NaN a missing value;
    ``progress(fraction)`` as the engine's, between batches of features."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    nominal = np.zeros(X.shape[1], dtype=bool) if nominal is None \
        else np.asarray(nominal, dtype=bool)
    out = np.empty(X.shape[1])
    for f in in_batches(range(X.shape[1]), progress):
        known = ~np.isnan(X[:, f])
        values, target = X[known, f], y[known]
        if nominal[f]:
            _, inverse = np.unique(values, return_inverse=True)
            means = np.bincount(inverse, target) / np.bincount(inverse)
            values = np.argsort(np.argsort(means, kind="stable"))[inverse]
        out[f] = -_best_split(values, target)
    return out


def _best_split(values, target):
    """The smallest p_L var_L + p_R var_R over the splits between the
    distinct sorted ``values`` (no split: the variance of ``target``)."""
    order = np.argsort(values, kind="stable")
    values, target = values[order], target[order]
    n = target.shape[0]
    if n == 0:
        return 0.0
    ends = np.flatnonzero(np.diff(values) != 0) + 1     # left sizes
    if ends.shape[0] == 0:
        return _variance(target.sum(), (target ** 2).sum(), n)
    sums, squares = np.cumsum(target), np.cumsum(target ** 2)
    left = ends.astype(float)
    estimate = (left / n) * _variance(sums[ends - 1], squares[ends - 1],
                                      left) \
        + ((n - left) / n) * _variance(sums[-1] - sums[ends - 1],
                                       squares[-1] - squares[ends - 1],
                                       n - left)
    return float(estimate.min())


def _variance(total, squares, count):
    """E[y^2] - E[y]^2 from the sums, 0 where it is not positive."""
    variance = squares / count - (total / count) ** 2
    return np.where(variance > 0, variance, 0.0)


def _scaled(estimates):
    """``estimates`` scaled to [0, 1] by their min and max (range 0: 0)."""
    low, span = estimates.min(), estimates.max() - estimates.min()
    if not span > 0:
        return np.zeros_like(estimates)
    return (estimates - low) / span


def with_mse(X, y, nominal=None, regression=True, *, relief_options,
             progress=None):
    """RReliefFwithMSE on (X, y): ``relieff`` with ``relief_options``
    (RReliefFexpRank's keywords) combined with ``mse_of_mean`` as the
    module's docstring says; a ``ReliefResult`` (no trace).
    ``progress(fraction)`` as the engine's (may raise to cancel): the
    engine's run reports 0 ... RELIEF_SHARE, the MSE the rest."""
    if not regression:
        raise ValueError("RReliefFwithMSE is defined for a numeric target; "
                         "for a class use ReliefF.")
    relief = relieff(X, y, nominal, **relief_options,
                     progress=progress_part(progress, 0.0, RELIEF_SHARE))
    y = np.asarray(y, dtype=float)
    if np.ndim(y) != 1:
        raise ValueError("RReliefFwithMSE takes one numeric target.")
    rows = np.isfinite(y)
    X = np.asarray(X, dtype=float)[rows]
    n = int(rows.sum())
    w = np.exp(-1.0 / (n / RELIEF_EXAMPLES) ** 2)
    mse = mse_of_mean(X, y[rows], nominal,
                      progress_part(progress, RELIEF_SHARE, 1.0))
    weights = w * _scaled(relief.weights) + (1 - w) * _scaled(mse)
    return ReliefResult(weights=weights, trace=None, trace_steps=None,
                        n_iterations=relief.n_iterations, T=None,
                        regression=True, n_dropped=relief.n_dropped)
