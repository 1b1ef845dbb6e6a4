"""Which features say the same thing, from Relief's own run (issue 42).

The seed paper (Prat Masramon & Belanche 2005) asks whether an *equal
sequence of weight actualizations* means that two features are redundant.
Relief's estimate is the mean of one update per visited instance R,

    u_R[A] = - mean_hits diff(A, R, H) + sum_C prior_C mean_misses(C) diff(A, R, M),

so the engine's trace with ``trace_every=1`` (W̄_t after every visit) holds
those updates: u_t = t W̄_t - (t - 1) W̄_{t-1}.  No second pass over pairs of
instances is needed; the only cost is keeping the m × a trace.

``update_redundancy`` is the correlation of two features' update sequences,
cut at 0: an exact copy moves with its original at every visit (1), an
independent feature does not (about 0), and two interacting features (XOR,
Modulo-p) take turns explaining a miss, so their updates are anti-correlated
(0).  ``select_non_redundant`` walks down the ranking and skips a feature
whose updates follow those of a feature already kept.
"""
from dataclasses import dataclass

import numpy as np

from ..core import engine, ranking, relieff
from ..core.contract.prepare import check_instance_weights
from ..core.variants import variant

__all__ = ["visit_updates", "update_redundancy", "relief_redundancy",
           "select_non_redundant", "RedundancyResult", "TOP", "THRESHOLD"]

#: features whose redundancy is measured by default (the top t by weight)
TOP = 50
#: a feature whose update correlation with a kept one reaches this is
#: skipped.  Measured (doc/redundancy.md): copies 0.80-1 (exact, noisy,
#: exp(3x), 4 bins of a numeric feature), independent features below 0.3,
#: but GAMETES' interacting P1 and P2 0.45-0.57: 0.5 dropped P2 in 5 of 10
#: samples, 0.65 in none
THRESHOLD = 0.65
#: ``relieff``'s options that go to ``engine.run_setup``, not to its plan
RUN_OPTIONS = ("progress", "status", "kernels", "device")
#: the trace is m × a floats; above this many the run would need too much memory
MAX_TRACE_VALUES = 200_000_000


def visit_updates(trace, weights=None):
    """The per-visit updates u_t (rows) from a trace of the running estimate
    W̄_t recorded after every visit (``relieff(trace_every=1)``):
    u_t = t W̄_t - (t - 1) W̄_{t-1} (classification: W̄_t is the mean of the
    first t updates).  With the visited instances' ``weights`` (instance
    weights, in visiting order) W̄_t divides by their running sum V_t, and
    u_t = (V_t W̄_t - V_{t-1} W̄_{t-1}) / w_t is the update of one copy."""
    trace = np.asarray(trace, dtype=float)
    if weights is None:
        sums = trace * np.arange(1, len(trace) + 1)[:, None]
        return np.diff(sums, axis=0, prepend=0.0)
    sums = trace * np.cumsum(weights)[:, None]
    return np.diff(sums, axis=0, prepend=0.0) / weights[:, None]


def update_redundancy(updates, weights=None):
    """Redundancy of every pair of columns of ``updates`` (visits × features):
    the Pearson correlation of their update sequences, cut at 0, with 1 on
    the diagonal.  A feature whose updates never vary (constant, or never
    differing) is redundant with nothing (0).  With ``weights`` (one per
    visit: instance weights) a visit counts as that many copies of its
    update, so integer weights give the correlation of the repeated rows'
    updates."""
    updates = np.asarray(updates, dtype=float)
    if weights is None:
        rows = updates - updates.mean(axis=0)
        count = len(updates)
    else:
        rows = (updates - np.average(updates, axis=0, weights=weights)) \
            * np.sqrt(weights)[:, None]
        count = np.sum(weights)
    norms = np.sqrt((rows ** 2).sum(axis=0))
    scale = np.max(np.abs(updates), initial=0.0)
    varies = norms > 1e-12 * max(scale, 1e-300) * np.sqrt(count)
    unit = np.zeros_like(rows)
    unit[:, varies] = rows[:, varies] / norms[varies]
    matrix = np.clip(unit.T @ unit, 0.0, 1.0)
    np.fill_diagonal(matrix, 1.0)
    return matrix


@dataclass
class RedundancyResult:
    """A Relief run with the redundancy of its top features.

    Attributes
    ----------
    weights : ndarray (n_features,)
        The run's weights (unchanged by measuring redundancy).
    features : ndarray (t,)
        The top t features, best first (``core.ranking``).
    matrix : ndarray (t, t)
        ``update_redundancy`` among them, in the order of ``features``.
    n_iterations : int
        m, the number of visited instances.
    """
    weights: np.ndarray
    features: np.ndarray
    matrix: np.ndarray
    n_iterations: int

    def select(self, n_select, threshold=THRESHOLD):
        """``select_non_redundant`` on this run."""
        return select_non_redundant(self.weights, self.features,
                                    self.matrix, n_select, threshold)


def relief_redundancy(X, y, nominal=None, *, top=TOP, **options):
    """Run ``core.relieff`` (classification, any visiting variant) and measure
    the redundancy of its ``top`` best features from the updates of the same
    run (``visit_updates``, ``update_redundancy``).  ``options`` are
    ``relieff``'s keyword arguments (not ``trace_every``, ``regression`` or
    ``variant="irelief"``, which have no per-visit updates).  With
    ``instance_weights`` an instance of weight w counts as w visits with
    its update (ReliefF; ``visit_updates``, ``update_redundancy``), so
    integer weights give the redundancy of the repeated rows."""
    if isinstance(top, bool) or not isinstance(top, (int, np.integer)) \
            or top < 1:
        raise ValueError(f"top must be a whole number of features >= 1; "
                         f"got {top!r}.")
    if options.get("regression"):
        raise ValueError("Redundancy from Relief's updates needs a class: "
                         "RReliefF's estimate is not a mean of per-visit "
                         "updates.")
    if not variant(options.get("variant", "relieff")).visits:
        raise ValueError("I-RELIEF has no visits, so no per-visit updates to "
                         "compare; use variant 'relieff', 'drelieff' or "
                         "'pdrelieff' to measure redundancy.")
    if "trace_every" in options:
        raise ValueError("relief_redundancy records the trace itself; leave "
                         "out trace_every.")
    weighted = check_instance_weights(options.get("instance_weights"),
                                      np.shape(X)[0]) is not None
    if weighted and variant(options.get("variant", "relieff")).sequential:
        raise ValueError("dReliefF and pdReliefF visit each copy of a "
                         "weighted instance as a step of its own, and the "
                         "trace keeps one point per instance; redundancy "
                         "from their updates does not take instance "
                         "weights yet: leave them out, or use "
                         "variant='relieff'.")
    n, a = np.shape(X)
    m = options.get("n_iterations") or n
    if m * a > MAX_TRACE_VALUES:
        raise ValueError(f"Measuring redundancy keeps one update per visit "
                         f"and feature ({m} × {a} values); visit fewer "
                         f"instances (n_iterations) or score fewer features.")
    result, visit_weights = _traced_run(X, y, nominal, weighted, options)
    features = ranking(result.weights)[:min(top, a)]
    updates = visit_updates(result.trace[:, features], visit_weights)
    return RedundancyResult(result.weights, features,
                            update_redundancy(updates, visit_weights),
                            result.n_iterations)


def _traced_run(X, y, nominal, weighted, options):
    """(the run with a trace point after every visit, the instance weights
    of its visits in visiting order or None), planned with
    ``engine.start`` where there are weights to read from its plan."""
    if not weighted:
        return relieff(X, y, nominal, trace_every=1, **options), None
    run = {key: options[key] for key in RUN_OPTIONS if key in options}
    setup = engine.start(X, y, nominal, trace_every=1,
                         **{key: value for key, value in options.items()
                            if key not in RUN_OPTIONS})
    weights = setup.prep.instance_weights    # (None: all 1 once 0s left)
    return engine.run_setup(setup, **run), \
        None if weights is None else weights[setup.order]


def select_non_redundant(weights, features, matrix, n_select,
                         threshold=THRESHOLD):
    """Choose ``n_select`` features among ``features`` (best first), each
    adding what the chosen ones do not already say: walk down the ranking and
    skip a feature whose redundancy (``matrix``, in the order of
    ``features``) with a chosen one reaches ``threshold``.  When too few
    remain, the skipped ones fill the rest, least redundant first.

    Returns the chosen feature indices (in the order chosen) and, for each
    of ``features``, the feature it is redundant with (-1 for none: a chosen
    feature, or one below the threshold with every chosen one).
    """
    if not 0 < threshold <= 1:
        raise ValueError(f"The redundancy threshold must be in (0, 1]; got "
                         f"{threshold!r}.")
    features = np.asarray(features)
    matrix = np.asarray(matrix, dtype=float)
    n_select = min(int(n_select), len(features))
    chosen, skipped = [], []
    redundant_with = np.full(len(features), -1)
    for i in range(len(features)):
        if len(chosen) == n_select:
            break
        if not np.isfinite(weights[features[i]]):
            continue
        similar = [j for j in chosen if matrix[i, j] >= threshold]
        if similar:
            redundant_with[i] = features[max(similar,
                                             key=lambda j: matrix[i, j])]
            skipped.append(i)
        else:
            chosen.append(i)
    if len(chosen) < n_select:
        fill = sorted(skipped, key=lambda i: matrix[i, chosen].max())
        for i in fill[:n_select - len(chosen)]:
            chosen.append(i)
            redundant_with[i] = -1
    for i in range(len(features)):       # the rest, for a "redundant with" column
        if i not in chosen and redundant_with[i] < 0 and chosen:
            j = max(chosen, key=lambda c: matrix[i, c])
            if matrix[i, j] >= threshold:
                redundant_with[i] = features[j]
    return features[chosen], redundant_with
