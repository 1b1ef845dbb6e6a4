"""Cost-sensitive ReliefF (Robnik-Sikonja 2003, "Experiments with
cost-sensitive feature evaluation"; CORElearn's ReliefFexpC, ReliefFavgC,
ReliefFpe and ReliefFpa): ReliefFexpRank's neighbours (k = 70, influence
exp(-(rank / 20)^2)) whose groups count with factors from a cost matrix
C[i, j], the cost of predicting class j for an instance of class i,

    W[A] = (1/m) sum_R sum_groups F[class(R), g] * mean_g diff(A, R, .)

with P(j) the class frequencies, c the number of classes and

* expC: F[i, j] = P(j) C(i, j) / (1 - P(i)), F[i, i] = -E_i,
  E_i = sum_{j != i} P(j) C(i, j) / (1 - P(i)) (the expected cost);
* avgC: F[i, j] = C(i, j) / (c - 1), F[i, i] = -A_i,
  A_i = sum_{j != i} C(i, j) / (c - 1) (the average cost);
* pe: F[i, j] = p_j / (1 - p_i), F[i, i] = -1, p_i = P(i) E_i / sum_k P(k) E_k
  (priors from expected costs);
* pa: the same with p_i = A_i / sum_k A_k (priors from average costs);
* kukar (Kukar et al. 1999; CORElearn's ReliefKukar): Kira and Rendell's
  Relief, the nearest hit and the nearest miss of any other class, the miss
  weighted by E_i / sum_k P(k) E_k of the visited instance's class i, with
  E_i as in expC and P Laplace's (count + 1) / (n + c), as CORElearn's.

``sampled`` (CORElearn's ReliefFsmp, its ``stratifiedExpCostSample``) is
ReliefFexpRank (F[i, j] = P(j) / (1 - P(i)), F[i, i] = -1) whose m visits
are drawn by the expected cost: class i gets m_i = floor(m q_i) - floor(m
q_(i-1)) of them (q the cumulative sum of pe's p_i = P(i) E_i / sum_k P(k)
E_k), each of its n_i instances m_i // n_i times and m_i mod n_i more of
them drawn without replacement; W[A] the visits' summed updates over m.
With every cost 1, p = P, and with m = n every instance is visited once:
ReliefFexpRank.

With every cost 1 (CORElearn's default) expC and pe are ReliefFexpRank.
The shares are the engine's (``vectorised.neighbours``: groups, k nearest,
tie rule, rank weights), and so are the diffs and distances.
"""
import numpy as np

from .core.backends.base import neighbourhood, to_features
from .core.backends.runtime import in_batches
from .core.backends.vectorised import diffs, distances, neighbours
from .core.contract.prepare import prepare
from .core.messages import collect_warnings
from .core.options import random_generator
from .core.result import ReliefResult

__all__ = ["KINDS", "cost_factors", "cost_sensitive", "cost_priors",
           "stratified_visits", "sampled"]

KINDS = ("expC", "avgC", "pe", "pa", "kukar")


def cost_factors(kind, costs, priors):
    """F (classes x classes) of ``kind`` for the cost matrix ``costs`` and
    the class frequencies ``priors`` (see the module's docstring)."""
    each, mean = _mean_costs(kind, costs, priors)
    if kind in ("expC", "avgC"):
        return _with_diagonal(each, -mean)
    if kind == "kukar":         # (the misses' weight of each class)
        return mean / (priors * mean).sum()
    if kind == "pe":
        return _relieff_factors(cost_priors(costs, priors))
    return _relieff_factors(mean / mean.sum())


def cost_priors(costs, priors):
    """pe's p_i = P(i) E_i / sum_k P(k) E_k (E_i the expected cost of
    class i, see the module's docstring): also ReliefFsmp's probabilities
    of the classes' visits."""
    p = priors * _mean_costs("pe", costs, priors)[1]
    return p / p.sum()


def _mean_costs(kind, costs, priors):
    """(the factors of the misses, C(i, j) times P(j) / (1 - P(i)) for the
    expected costs, over c - 1 for the average; their sums over j != i:
    E_i or A_i)."""
    c = priors.shape[0]
    if kind in ("expC", "pe", "kukar"):
        each = costs * priors[None, :] / (1 - priors)[:, None]
    else:
        each = costs / max(c - 1, 1)
    return each, np.where(~np.eye(c, dtype=bool), each, 0).sum(axis=1)


def _relieff_factors(p):
    """ReliefF's F[i, j] = p_j / (1 - p_i), F[i, i] = -1."""
    return _with_diagonal(p[None, :] / (1 - p)[:, None],
                          -np.ones(p.shape[0]))


def _with_diagonal(matrix, diagonal):
    out = np.array(matrix, dtype=float)
    np.fill_diagonal(out, diagonal)
    return out


def _checked_costs(costs, codes):
    """The cost matrix of the classes present (``codes``: theirs in the
    caller's coding); by default every cost 1."""
    if costs is None:
        return np.ones((codes.shape[0], codes.shape[0]))
    costs = np.asarray(costs, dtype=float)
    need = int(codes.max()) + 1
    if costs.ndim != 2 or costs.shape[0] != costs.shape[1] \
            or costs.shape[0] < need:
        raise ValueError(f"costs must be a square matrix of at least "
                         f"{need} x {need} (the class codes); got shape "
                         f"{costs.shape}.")
    if not np.all(np.isfinite(costs)) or np.any(costs < 0):
        raise ValueError("costs must be finite and non-negative (the cost "
                         "of predicting class j for class i).")
    return costs[np.ix_(codes, codes)]


def cost_sensitive(X, y, nominal=None, regression=False, *, costs=None,
                   kind="expC", k_nearest=70, sigma=20.0, progress=None):
    """Cost-sensitive ReliefF of ``kind`` (``KINDS``) with the cost matrix
    ``costs`` (rows: the true class, columns: the predicted one, by class
    code; None: every cost 1), every instance visited;
    ``progress(fraction)`` as the engine's (may raise to cancel).  Returns
    a ``ReliefResult`` (no trace)."""
    if regression:
        raise ValueError("Cost-sensitive ReliefF is defined for a class; "
                         "for a numeric target use RReliefF.")
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}; got "
                         f"{kind!r}.")
    with collect_warnings():
        prep = prepare(X, y, nominal)
    n = prep.group.shape[0]
    costs = _checked_costs(costs, prep.class_codes)
    if kind == "kukar":
        laplace = (prep.class_counts + 1) / (n + prep.n_classes)
        return _relief(prep, cost_factors(kind, costs, laplace), progress)
    factors = cost_factors(kind, costs, prep.class_counts / n)
    total = _visits(prep, factors, np.ones(n, dtype=int), k_nearest, sigma,
                    progress)
    return _result(prep, total, n)


def _visits(prep, factors, times, k_nearest, sigma, progress):
    """The summed updates of ReliefFexpRank's visits (k nearest of each
    class, rank weights of width ``sigma``) whose hit and miss groups count
    with ``factors``: instance r visited ``times[r]`` times; ``progress``
    between batches of visits (``runtime.in_batches``)."""
    hood = neighbourhood(prep, False, "per_class", k_nearest, True, sigma)
    # (the misses' coefficients come with F[class(R), C]; the hits' with -1)
    hood = hood._replace(class_factor=factors)
    total = np.zeros(prep.n_used)
    for r in in_batches(np.flatnonzero(times), progress):
        chosen, coef = neighbours(r, distances(prep, [r])[0], prep.group,
                                  hood)
        gr = prep.group[r]
        hits = prep.group[chosen] == gr
        coef[hits] *= -factors[gr, gr]
        if times[r] != 1:
            coef *= times[r]
        total += coef @ diffs(prep, r, chosen)
    return total


def stratified_visits(group, p, m, rng):
    """How many times each instance is visited (an int array like
    ``group``, the class codes 0 ... c - 1) when m visits are stratified by
    the classes' probabilities ``p`` (CORElearn's
    ``stratifiedExpCostSample``): class i gets floor(m q_i) - floor(m
    q_(i-1)) of them (q the cumulative p, its last 1), each of its n_i
    instances that number // n_i times, and the remainder drawn from them
    without replacement with ``rng``."""
    cumulative = np.cumsum(p)
    cumulative[-1] = 1.0
    bounds = np.floor(m * np.concatenate([[0.0], cumulative])).astype(int)
    times = np.zeros(group.shape[0], dtype=int)
    for i, count in enumerate(np.diff(bounds)):
        members = np.flatnonzero(group == i)
        if members.shape[0] == 0:
            continue
        times[members] += count // members.shape[0]
        extra = count % members.shape[0]
        times[rng.choice(members, extra, replace=False)] += 1
    return times


def sampled(X, y, nominal=None, regression=False, *, costs=None,
            n_iterations=None, random_state=0, k_nearest=70, sigma=20.0,
            progress=None):
    """CORElearn's ReliefFsmp: ReliefFexpRank with ``n_iterations`` visits
    (None: n) stratified by the classes' expected costs (``cost_priors``,
    ``stratified_visits``; drawn with ``default_rng(random_state)``);
    ``progress(fraction)`` as the engine's (may raise to cancel).  See the
    module's docstring; returns a ``ReliefResult`` (no trace)."""
    if regression:
        raise ValueError("ReliefFsmp is defined for a class; for a numeric "
                         "target use RReliefF.")
    rng = random_generator(random_state)
    with collect_warnings():
        prep = prepare(X, y, nominal)
    n = prep.group.shape[0]
    m = n if n_iterations is None else n_iterations
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 1:
        raise ValueError("n_iterations must be a whole number of visits "
                         f"of at least 1 (None: every instance); got "
                         f"{n_iterations!r}.")
    costs = _checked_costs(costs, prep.class_codes)
    priors = prep.class_counts / n
    times = stratified_visits(prep.group, cost_priors(costs, priors), int(m),
                              rng)
    total = _visits(prep, _relieff_factors(priors), times, k_nearest, sigma,
                    progress)
    return _result(prep, total, int(m))


def _relief(prep, miss_weights, progress):
    """Kira and Rendell's Relief (the engine's k = 1, misses of any class),
    the miss of a visit of class i weighted by ``miss_weights[i]``;
    ``progress`` between batches of visits."""
    n = prep.group.shape[0]
    hood = neighbourhood(prep, False, "any", 1, False, 1.0)
    total = np.zeros(prep.n_used)
    for r in in_batches(range(n), progress):
        chosen, coef = neighbours(r, distances(prep, [r])[0], prep.group,
                                  hood)
        misses = prep.group[chosen] != prep.group[r]
        coef[misses] *= miss_weights[prep.group[r]]
        total += coef @ diffs(prep, r, chosen)
    return _result(prep, total, n)


def _result(prep, total, m):
    """The ``ReliefResult`` of the ``m`` visits' summed updates
    ``total``."""
    weights = to_features((total / m)[None, :], prep)[0]
    return ReliefResult(weights=weights, trace=None, trace_steps=None,
                        n_iterations=m, T=None, regression=False,
                        n_dropped=prep.n_dropped)
