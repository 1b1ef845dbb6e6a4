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

With every cost 1 (CORElearn's default) expC and pe are ReliefFexpRank.
The shares are the engine's (``vectorised.neighbours``: groups, k nearest,
tie rule, rank weights), and so are the diffs and distances.
"""
import numpy as np

from .core.backends.base import neighbourhood, to_features
from .core.backends.vectorised import diffs, distances, neighbours
from .core.contract.prepare import prepare
from .core.messages import collect_warnings
from .core.result import ReliefResult

__all__ = ["KINDS", "cost_factors", "cost_sensitive"]

KINDS = ("expC", "avgC", "pe", "pa", "kukar")


def cost_factors(kind, costs, priors):
    """F (classes x classes) of ``kind`` for the cost matrix ``costs`` and
    the class frequencies ``priors`` (see the module's docstring)."""
    c = priors.shape[0]
    off = ~np.eye(c, dtype=bool)
    if kind in ("expC", "pe", "kukar"):
        each = costs * priors[None, :] / (1 - priors)[:, None]
    else:
        each = costs / max(c - 1, 1)
    mean = np.where(off, each, 0).sum(axis=1)
    if kind in ("expC", "avgC"):
        return _with_diagonal(each, -mean)
    if kind == "kukar":         # (the misses' weight of each class)
        return mean / (priors * mean).sum()
    p = priors * mean if kind == "pe" else mean
    p = p / p.sum()
    return _with_diagonal(p[None, :] / (1 - p)[:, None], -np.ones(c))


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
                   kind="expC", k_nearest=70, sigma=20.0):
    """Cost-sensitive ReliefF of ``kind`` (``KINDS``) with the cost matrix
    ``costs`` (rows: the true class, columns: the predicted one, by class
    code; None: every cost 1), every instance visited.  Returns a
    ``ReliefResult`` (no trace)."""
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
        return _relief(prep, cost_factors(kind, costs, laplace))
    factors = cost_factors(kind, costs, prep.class_counts / n)
    hood = neighbourhood(prep, False, "per_class", k_nearest, True, sigma)
    # (the misses' coefficients come with F[class(R), C]; the hits' with -1)
    hood = hood._replace(class_factor=factors)
    total = np.zeros(prep.n_used)
    for r in range(n):
        chosen, coef = neighbours(r, distances(prep, [r])[0], prep.group,
                                  hood)
        gr = prep.group[r]
        hits = prep.group[chosen] == gr
        coef[hits] *= -factors[gr, gr]
        total += coef @ diffs(prep, r, chosen)
    return _result(prep, total)


def _relief(prep, miss_weights):
    """Kira and Rendell's Relief (the engine's k = 1, misses of any class),
    the miss of a visit of class i weighted by ``miss_weights[i]``."""
    n = prep.group.shape[0]
    hood = neighbourhood(prep, False, "any", 1, False, 1.0)
    total = np.zeros(prep.n_used)
    for r in range(n):
        chosen, coef = neighbours(r, distances(prep, [r])[0], prep.group,
                                  hood)
        misses = prep.group[chosen] != prep.group[r]
        coef[misses] *= miss_weights[prep.group[r]]
        total += coef @ diffs(prep, r, chosen)
    return _result(prep, total)


def _result(prep, total):
    """The ``ReliefResult`` of the visits' summed updates ``total``."""
    n = prep.group.shape[0]
    weights = to_features((total / n)[None, :], prep)[0]
    return ReliefResult(weights=weights, trace=None, trace_steps=None,
                        n_iterations=n, T=None, regression=False,
                        n_dropped=prep.n_dropped)
