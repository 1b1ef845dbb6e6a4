"""A deliberately naive, loop-by-loop reference of NPDR.

NPDR, nearest-neighbour projected-distance regression (Le, Dawkins &
McKinney, Bioinformatics 36(9):2770-2777, 2020; the R package insilico/npdr,
its ``npdr`` and ``diffRegression``): for every feature A, a regression over
the (instance, neighbour) pairs (i, j) of the pair's outcome difference on
its projected difference diff(A, I_i, I_j) and the covariates' differences:

    classification:  logit P(miss_ij) = b0 + b_A d_A + sum_C g_C d_C
                     (miss_ij = 1 when class(i) != class(j), else 0)
    regression:      |y_i - y_j|      = b0 + b_A d_A + sum_C g_C d_C + e

and the one-sided p = P(T_df >= b_A / se(b_A)) with df = (number of pairs)
- (number of coefficients), for both forms, as ``diffRegression`` computes
it (``pt(beta_zscore, df.residual, lower.tail = FALSE)``).

Written from those definitions and doc/semantics.md, sharing no code with
the package:

* diff: numeric |v1 - v2| / (max - min) over the known values; nominal 0/1;
  a missing value by RELIEF-D: the expected diff under the law of the
  feature's known values -- in the instance's class with hit and miss
  neighbourhoods, over all instances with class-blind ones (then nothing
  but the outcome depends on the class);
* distance: the sum of the features' diffs (the covariates are not
  features: they take no part);
* neighbours of every instance R (or of the m visited ones): the k nearest
  of a group, instances tied with the k-th (within a relative 1e-10) sharing
  the slots left, a pair weighing its share of a slot (1 without ties); the
  group is all other instances (class-blind, npdr's default) or the hits and
  the misses of each other class (``separate``; ReliefF's groups); MultiSURF:
  every instance closer than mean - sd/2 of R's distances to the others
  (population sd), SURF: closer than the mean distance over all pairs, less
  a relative 1e-10 of the centre, each pair weighing 1;
* covariate diffs: nominal 0/1, numeric |c_i - c_j| / (max - min);
* fits: weighted (each pair by its weight), logistic by Newton's method on
  the full p x p system (numpy.linalg.solve) to convergence, least squares
  by the normal equations; se from the inverse information, times the
  residual variance sum w r^2 / (sum w - p) for least squares;
* separation (a logistic fit whose coefficient runs off to +-infinity:
  Newton's method does not converge in 200 steps): the coefficient is
  +-inf, its se undefined, and the statistic the signed root of the
  likelihood-ratio statistic against the fit without the feature.
"""
import math

import numpy as np
from scipy import stats

TIE_RTOL = 1e-10


def _diff_table(X, nominal, laws_by):
    """A function diff(f, i, j) under the contract, and each feature's
    range (None when it has no known value).  A missing value is replaced
    by a draw from the law of the feature's known values (among the
    instances with the same ``laws_by``, or all when there are none), and
    diff is the expected base diff -- 1 - sum P(u) P(u) for two missing
    nominal values, E|X - v| / range for one missing numeric value, ..."""
    known = ~np.isnan(X)
    ranges = []
    for f in range(X.shape[1]):
        values = X[known[:, f], f]
        ranges.append(values.max() - values.min() if values.size else None)

    def values_of(f, i):
        if known[i, f]:
            return X[i:i + 1, f]
        same = X[known[:, f] & (laws_by == laws_by[i]), f]
        return same if same.size else X[known[:, f], f]

    def diff(f, i, j):
        if not nominal[f] and not ranges[f]:
            return 0.0
        left, right = values_of(f, i), values_of(f, j)
        pairs = left[:, None] - right[None, :]
        if nominal[f]:
            return float(np.mean(pairs != 0))
        return float(np.mean(np.abs(pairs))) / ranges[f]

    return diff, ranges


def _k_nearest(members, dist, k):
    """{j: slot share} of the k nearest of ``members`` (ties share)."""
    members = sorted(members, key=lambda j: dist[j])
    shares = {}
    taken = 0
    while taken < min(k, len(members)):
        first = dist[members[taken]]
        tied = [j for j in members[taken:]
                if dist[j] <= first * (1 + TIE_RTOL)]
        slots = min(len(tied), k - taken)
        for j in tied:
            shares[j] = slots / len(tied)
        taken += len(tied)
    return shares


def reference_pairs(X, y, nominal, k=10, rule="k", separate=False,
                    misses="per_class", visited=None, regression=False):
    """[(i, j, weight)] of every visited instance i (all by default) and
    its neighbours j (module docstring)."""
    n, a = X.shape
    blind = regression or not separate
    laws_by = np.zeros(n, int) if blind else y.astype(int)
    diff, ranges = _diff_table(X, nominal, laws_by)
    usable = [f for f in range(a) if ranges[f]]
    distance = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            if i != j:
                distance[i, j] = sum(diff(f, i, j) for f in usable)
    if rule == "surf":
        radius = sum(distance[i, j] for i in range(n)
                     for j in range(i + 1, n)) / (n * (n - 1) / 2)
    pairs = []
    for i in (range(n) if visited is None else visited):
        others = [j for j in range(n) if j != i]
        dist = {j: distance[i, j] for j in others}
        if rule in ("surf", "multisurf"):
            if rule == "multisurf":
                values = np.array([dist[j] for j in others])
                centre = values.mean()
                low = centre - math.sqrt(np.mean((values - centre) ** 2)) / 2
            else:
                centre = low = radius
            low -= TIE_RTOL * abs(centre)
            pairs += [(i, j, 1.0) for j in others if dist[j] < low]
            continue
        if blind:
            groups = [others]
        elif misses == "any":
            groups = [[j for j in others if y[j] == y[i]],
                      [j for j in others if y[j] != y[i]]]
        else:
            groups = [[j for j in others if y[j] == c]
                      for c in np.unique(y)]
        for members in groups:
            for j, share in _k_nearest(members, dist, k).items():
                pairs.append((i, j, share))
    return pairs, diff, usable


def _logistic(D, o, w):
    """Newton's method for the weighted logistic regression of o on D;
    (coefficients, inverse information, log-likelihood, converged)."""
    beta = np.zeros(D.shape[1])
    share = np.dot(w, o) / w.sum()
    beta[0] = math.log(share / (1 - share))
    for _ in range(200):
        eta = D @ beta
        mu = 1 / (1 + np.exp(-eta))
        info = D.T @ (D * (w * mu * (1 - mu))[:, None])
        step = np.linalg.solve(info, D.T @ (w * (o - mu)))
        beta = beta + step
        if np.max(np.abs(step)) < 1e-13 * (1 + np.max(np.abs(beta))):
            break
    else:
        eta = D @ beta
        return beta, None, float(np.dot(w, o * eta
                                        - np.logaddexp(0, eta))), False
    eta = D @ beta
    mu = 1 / (1 + np.exp(-eta))
    info = D.T @ (D * (w * mu * (1 - mu))[:, None])
    loglik = float(np.dot(w, o * eta - np.logaddexp(0, eta)))
    return beta, np.linalg.inv(info), loglik, True


def _least_squares(D, o, w):
    """Weighted least squares by the normal equations; (coefficients,
    (D'WD)^-1, residual sum of squares)."""
    info = D.T @ (D * w[:, None])
    beta = np.linalg.solve(info, D.T @ (w * o))
    resid = o - D @ beta
    return beta, np.linalg.inv(info), float(np.dot(w, resid * resid))


def reference_npdr(X, y, nominal=None, covariates=None,
                   covariate_nominal=None, k=10, rule="k", separate=False,
                   misses="per_class", visited=None, regression=False):
    """NPDR per feature: dict of arrays ``coefficient``, ``se``, ``t``,
    ``p``, ``q`` (Benjamini-Hochberg), and ``df``, ``pairs``.  Features
    that cannot be fitted (constant diffs over the pairs) get NaN and
    p = 1."""
    X = np.asarray(X, float)
    y = np.asarray(y, float)
    n, a = X.shape
    nominal = np.zeros(a, bool) if nominal is None else np.asarray(nominal)
    pairs, diff, usable = reference_pairs(X, y, nominal, k, rule, separate,
                                          misses, visited, regression)
    first = np.array([i for i, _, _ in pairs])
    second = np.array([j for _, j, _ in pairs])
    w = np.array([share for _, _, share in pairs])
    if regression:
        o = np.abs(y[first] - y[second])
    else:
        o = (y[first] != y[second]).astype(float)
    Z = np.zeros((len(pairs), 0))
    if covariates is not None:
        C = np.asarray(covariates, float).reshape(n, -1)
        cn = np.zeros(C.shape[1], bool) if covariate_nominal is None \
            else np.asarray(covariate_nominal)
        Z = np.column_stack([
            (C[first, c] != C[second, c]).astype(float) if cn[c] else
            np.abs(C[first, c] - C[second, c]) / np.ptp(C[:, c])
            for c in range(C.shape[1])])
    df = w.sum() - 2 - Z.shape[1]
    out = {name: np.full(a, np.nan) for name in ("coefficient", "se", "t",
                                                "p")}
    for f in range(a):
        if f not in usable:
            out["p"][f] = 1.0 if any(not np.isnan(v) for v in X[:, f]) \
                else np.nan
            continue
        d = np.array([diff(f, i, j) for i, j, _ in pairs])
        D = np.column_stack([np.ones(len(pairs)), d, Z])
        if np.ptp(d) == 0:
            out["p"][f] = 1.0
            continue
        if regression:
            beta, inverse, rss = _least_squares(D, o, w)
            se = math.sqrt(rss / df * inverse[1, 1])
        else:
            beta, inverse, loglik, converged = _logistic(D, o, w)
            if not converged:
                null_loglik = _logistic(np.delete(D, 1, axis=1), o, w)[2]
                sign = math.copysign(1.0, beta[1])
                out["coefficient"][f] = sign * math.inf
                out["t"][f] = sign * math.sqrt(max(0.0, 2 * (loglik
                                                            - null_loglik)))
                out["p"][f] = stats.t.sf(out["t"][f], df)
                continue
            se = math.sqrt(inverse[1, 1])
        out["coefficient"][f] = beta[1]
        out["se"][f] = se
        out["t"][f] = beta[1] / se
        out["p"][f] = stats.t.sf(beta[1] / se, df)
    out["q"] = _benjamini_hochberg(out["p"])
    out["df"] = df
    out["pairs"] = len(pairs)
    return out


def _benjamini_hochberg(p):
    """q_(i) = min over j >= i of p_(j) m / j, at most 1 (NaN left out)."""
    q = np.full(len(p), np.nan)
    tested = [f for f in range(len(p)) if not np.isnan(p[f])]
    ordered = sorted(tested, key=lambda f: p[f])
    m = len(ordered)
    running = 1.0
    for rank in range(m, 0, -1):
        f = ordered[rank - 1]
        running = min(running, p[f] * m / rank)
        q[f] = running
    return q
