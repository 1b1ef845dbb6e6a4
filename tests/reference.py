"""A deliberately naive, loop-by-loop reading of doc/semantics.md.

It shares no code with the engine and is slow; the tests compare the engine
with it on small random data (missing values, ties, every variant).
"""
import math

import numpy as np


def semantics_diff(X, cls, nominal):
    """diff(f, i, j) as doc/semantics.md defines it on the rows of X (NaN
    missing) with class codes ``cls``; also the features with a known value
    and each one's range ({feature: max - min})."""
    known = ~np.isnan(X)
    usable = [f for f in range(X.shape[1]) if known[:, f].any()]
    lo = {f: X[known[:, f], f].min() for f in usable}
    rng = {f: X[known[:, f], f].max() - lo[f] for f in usable}

    def law(f, c):
        vals = X[known[:, f] & (cls == c), f]
        return vals if len(vals) else X[known[:, f], f]

    def diff(f, i, j):
        xi, xj = X[i, f], X[j, f]
        if nominal[f]:
            if not np.isnan(xi) and not np.isnan(xj):
                return float(xi != xj)
            if np.isnan(xi) and np.isnan(xj):
                li, lj = law(f, cls[i]), law(f, cls[j])
                values = np.union1d(li, lj)
                return 1 - sum(np.mean(li == u) * np.mean(lj == u)
                               for u in values)
            if np.isnan(xi):
                return 1 - np.mean(law(f, cls[i]) == xj)
            return 1 - np.mean(law(f, cls[j]) == xi)
        if rng[f] == 0:
            return 0.0
        if not np.isnan(xi) and not np.isnan(xj):
            return abs(xi - xj) / rng[f]
        if np.isnan(xi) and np.isnan(xj):
            li, lj = law(f, cls[i]), law(f, cls[j])
            return np.mean(np.abs(li[:, None] - lj[None, :])) / rng[f]
        if np.isnan(xi):
            return np.mean(np.abs(law(f, cls[i]) - xj)) / rng[f]
        return np.mean(np.abs(law(f, cls[j]) - xi)) / rng[f]
    return diff, usable, rng


def reference_relief(X, y, nominal, regression=False, variant="relieff",
                     m=None, k=10, seed=0, misses="per_class", weighted=False,
                     sigma=2.0, T=None, distance_weights=None):
    keep = ~np.isnan(y)
    X, y = np.asarray(X, float)[keep], np.asarray(y, float)[keep]
    n, a = X.shape
    m = n if m is None else m
    cls = np.zeros(n, int) if regression else y.astype(int)
    diff, usable, rng = semantics_diff(X, cls, nominal)

    if regression:
        t_rng = y.max() - y.min()
        target = (y - y.min()) / t_rng
    counts = np.bincount(cls)
    rank_w = [math.exp(-(r / sigma) ** 2) if weighted else 1.0
              for r in range(k)]
    if T is None and variant == "pdrelieff":
        T = 2 / math.log(m)

    sums = np.zeros(a)
    ndc, nda, ndcda = 0.0, np.zeros(a), np.zeros(a)

    def current(t):
        if regression:
            return ndcda / ndc - (nda - ndcda) / (t - ndc)
        return sums / t

    order = np.random.default_rng(seed).permutation(n)[:m]
    for t, r in enumerate(order, start=1):
        w = np.zeros(a)
        if t > 1 and variant != "relieff":
            est = current(t - 1)
            for f in usable:
                v = est[f]
                if variant == "pdrelieff":
                    v = (1 - v) / t ** T + v
                # (within rounding of 0: 0, as the engine's
                # estimates.residue)
                w[f] = v if v > t * 2.0 ** -52 + (n + 2) * 2.0 ** -50 \
                    else 0.0
        if not (w > 0).any():
            w[usable] = 1.0
        if distance_weights is not None:     # Iter's fixed weights
            varying = [f for f in usable if rng[f] > 0]
            w = w * np.asarray(distance_weights, float)
            if not (w[varying] > 0).any():
                w = np.asarray(distance_weights, float).copy()
        dist = {j: sum(w[f] * diff(f, r, j) for f in usable)
                for j in range(n) if j != r}
        if regression:
            groups = {0: list(dist)}
        elif misses == "any":
            groups = {"hit": [j for j in dist if cls[j] == cls[r]],
                      "miss": [j for j in dist if cls[j] != cls[r]]}
        else:
            groups = {c: [j for j in dist if cls[j] == c]
                      for c in range(len(counts))}
        for g, members in groups.items():
            if not members:
                continue
            members = sorted(members, key=lambda j: dist[j])
            # ranks, with ties sharing the ranks they occupy
            influence, pos = {}, 0
            while pos < len(members) and pos < k:
                start = dist[members[pos]]
                tied = [j for j in members[pos:]
                        if dist[j] <= start * (1 + 1e-10)]
                slots = min(len(tied), k - pos)
                share = sum(rank_w[pos:pos + slots]) / len(tied)
                for j in tied:
                    influence[j] = share
                pos += len(tied)
            norm = sum(rank_w[:min(k, len(members))])
            for j, inf in influence.items():
                d = inf / norm
                if regression:
                    dc = abs(target[r] - target[j])
                    ndc += dc * d
                    for f in usable:
                        nda[f] += diff(f, r, j) * d
                        ndcda[f] += dc * diff(f, r, j) * d
                    continue
                if g == cls[r] or g == "hit":
                    sign = -1.0
                elif g == "miss":
                    sign = 1.0
                else:
                    sign = counts[g] / (n - counts[cls[r]])
                for f in usable:
                    sums[f] += sign * d * diff(f, r, j)
    weights = current(m)
    for f in range(a):
        if f not in usable:
            weights[f] = np.nan
        elif rng[f] == 0:
            weights[f] = 0.0
    return weights
