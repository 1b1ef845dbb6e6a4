"""ReliefF with merit (CORElearn's ReliefFmerit, ``attrEval``): ReliefF's
rank-weighted neighbours (k = 70, influence exp(-(rank / 20)^2)), each
neighbour's diff of a feature divided by its distance,

    W[A] = (1/m) sum_R sum_groups sign * sum_j share_j diff(A, R, j) / d(R, j)

so that a feature counts by its part of the neighbour's difference; the
shares are the engine's (``vectorised.neighbours``: the groups, their k
nearest, the tie rule, the rank weights and the miss factors, written once
in ``neighbours``), and so are the diffs and distances.  A neighbour at
distance 0 (a duplicate: every diff 0) adds 0.
"""
import numpy as np

from .core.backends.base import neighbourhood, to_features
from .core.backends.runtime import in_batches
from .core.backends.vectorised import diffs, distances, neighbours
from .core.contract.prepare import prepare
from .core.messages import collect_warnings
from .core.result import ReliefResult

__all__ = ["merit"]

K_NEAREST = 70
SIGMA = 20.0


def merit(X, y, nominal=None, regression=False, k_nearest=K_NEAREST,
          sigma=SIGMA, progress=None):
    """ReliefFmerit of every feature, every instance visited;
    ``progress(fraction)`` as the engine's (may raise to cancel).  Returns
    a ``ReliefResult`` (no trace)."""
    if regression:
        raise ValueError("ReliefF with merit is defined for a class; for a "
                         "numeric target use RReliefF.")
    with collect_warnings():
        prep = prepare(X, y, nominal)
    n = prep.group.shape[0]
    hood = neighbourhood(prep, False, "per_class", k_nearest, True, sigma)
    total = np.zeros(prep.n_used)
    for r in in_batches(range(n), progress):
        dist = distances(prep, [r])[0]
        chosen, coef = neighbours(r, dist, prep.group, hood)
        apart = dist[chosen] > 0
        total += (coef[apart] / dist[chosen][apart]) @ \
            diffs(prep, r, chosen[apart])
    weights = to_features((total / n)[None, :], prep)[0]
    return ReliefResult(weights=weights, trace=None, trace_steps=None,
                        n_iterations=n, T=None, regression=False,
                        n_dropped=prep.n_dropped)
