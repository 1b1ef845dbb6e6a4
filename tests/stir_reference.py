"""A deliberately naive, loop-by-loop reference for STIR significance tests.

STIR (Le, Urbanowicz, Moore & McKinney, Bioinformatics 35(8):1358-1365,
2019) tests, for every feature, whether the mean diff between a visited
instance and its nearest misses exceeds the mean diff between it and its
nearest hits: a one-sided pooled-variance ("pseudo") t-test over all
(visited instance, neighbour) pairs.  doc/stir_notes.md explains the
statistic, where it comes from and why the weighted form below is the one
proposed for the engine.

This file follows doc/semantics.md for everything Relief already defines
(diff functions with RELIEF-D missing values, neighbours with ties sharing
the remaining slots, rank influences exp(-(r/sigma)^2), the factors
P(C)/(1 - P(class(R))) of per-class misses) and adds the STIR test on top.
It shares no code with the engine or with tests/reference.py (whose
neighbour choice is not exposed); test_stir_reference.py checks that its
weights equal tests/reference.py's.

Every pair (R, j) gets a weight w:

  hit pair:                 w = influence of j among R's hits / total influence
  miss pair (per class):    w = P(C) / (1 - P(class(R))) * influence of j among
                                R's misses of class C / their total influence
  miss pair (misses="any"): w = influence of j among R's misses / total influence

so the weights of a visited instance's hits sum to 1, and so do those of its
misses.  With all influences 1 and k neighbours in every group, w = 1/k,
which is STIR's weight (its "one_over_k" factors).

For each group g in {hit, miss} and feature a:

  mean_g = sum w d / sum w
  var_g  = sum w (d - mean_g)^2 / sum w        (population form, as STIR's R code)
  n_g    = (sum w)^2 / sum w^2                 (Kish's effective number of pairs;
                                                = number of pairs when all w equal)
  s_p^2  = ((n_miss - 1) var_miss + (n_hit - 1) var_hit) / (n_miss + n_hit - 2)
  t      = (mean_miss - mean_hit) / (s_p sqrt(1/n_miss + 1/n_hit))
  df     = n_miss + n_hit - 2
  p      = P(T_df >= t)                         (one-sided, upper tail)

The reference computes these in two passes over the stored pairs, and
separately accumulates the one-pass sufficient sums an engine would keep
(sum w, sum w^2 per group; sum w d, sum w d^2 per group and feature);
`statistic_from_sums` turns the sums into the same t and p.
"""
import math

import numpy as np
from scipy import stats

TIE_RTOL = 1e-10  # as tests/reference.py and kernels.TIE_RTOL


def _diff_function(X, cls, nominal):
    """The contract's diff(A, I1, I2), RELIEF-D for missing values."""
    known = ~np.isnan(X)

    def law(f, c):
        vals = X[known[:, f] & (cls == c), f]
        return vals if len(vals) else X[known[:, f], f]

    lo, rng = {}, {}
    for f in range(X.shape[1]):
        if known[:, f].any():
            lo[f] = X[known[:, f], f].min()
            rng[f] = X[known[:, f], f].max() - lo[f]

    def diff(f, i, j):
        xi, xj = X[i, f], X[j, f]
        if nominal[f]:
            if not math.isnan(xi) and not math.isnan(xj):
                return float(xi != xj)
            if math.isnan(xi) and math.isnan(xj):
                li, lj = law(f, cls[i]), law(f, cls[j])
                total = 0.0
                for u in np.union1d(li, lj):
                    total += np.mean(li == u) * np.mean(lj == u)
                return 1.0 - total
            if math.isnan(xi):
                return 1.0 - np.mean(law(f, cls[i]) == xj)
            return 1.0 - np.mean(law(f, cls[j]) == xi)
        if rng[f] == 0:
            return 0.0
        if not math.isnan(xi) and not math.isnan(xj):
            return abs(xi - xj) / rng[f]
        if math.isnan(xi) and math.isnan(xj):
            li, lj = law(f, cls[i]), law(f, cls[j])
            return np.mean(np.abs(li[:, None] - lj[None, :])) / rng[f]
        if math.isnan(xi):
            return np.mean(np.abs(law(f, cls[i]) - xj)) / rng[f]
        return np.mean(np.abs(law(f, cls[j]) - xi)) / rng[f]

    return diff, rng


def _influences(members, dist, k, rank_w):
    """Normalised influences of the k nearest of `members` (ties shared).

    Instances at the same distance as the one at the current rank share the
    slots that are left; a neighbour's influence is the mean rank weight of
    the ranks its tie group occupies; the influences are divided by their
    total, so they sum to 1.
    """
    members = sorted(members, key=lambda j: dist[j])
    influence = {}
    pos = 0
    while pos < len(members) and pos < k:
        start = dist[members[pos]]
        tied = [j for j in members[pos:] if dist[j] <= start * (1 + TIE_RTOL)]
        slots = min(len(tied), k - pos)
        share = sum(rank_w[pos:pos + slots]) / len(tied)
        for j in tied:
            influence[j] = share
        pos += len(tied)
    norm = sum(rank_w[:min(k, len(members))])
    return {j: inf / norm for j, inf in influence.items() if inf > 0}


def stir_pairs(X, y, nominal, k=10, m=None, seed=0, misses="per_class",
               weighted=False, sigma=2.0):
    """Every (visited instance, neighbour) pair of plain ReliefF.

    Returns (pairs, info): pairs is a list of (r, j, group, w, diffs) with
    group "hit" or "miss", w the pair weight (module docstring) and diffs the
    per-feature diffs (NaN for features without a known value); info holds
    the number of visited instances and the usable features.
    """
    X = np.asarray(X, float)
    y = np.asarray(y, float)
    keep = ~np.isnan(y)
    X, y = X[keep], y[keep]
    n, a = X.shape
    m = n if m is None else m
    cls = y.astype(int)
    counts = np.bincount(cls)
    diff, rng = _diff_function(X, cls, nominal)
    usable = sorted(rng)
    rank_w = [math.exp(-(r / sigma) ** 2) if weighted else 1.0
              for r in range(k)]

    pairs = []
    order = np.random.default_rng(seed).permutation(n)[:m]
    for r in order:
        # plain ReliefF distance: every usable feature with weight 1
        dist = {}
        for j in range(n):
            if j != r:
                dist[j] = sum(diff(f, r, j) for f in usable)
        hits = [j for j in dist if cls[j] == cls[r]]
        if misses == "any":
            miss_groups = {None: [j for j in dist if cls[j] != cls[r]]}
        elif misses == "per_class":
            miss_groups = {c: [j for j in dist if cls[j] == c]
                           for c in range(len(counts)) if c != cls[r]}
        else:
            raise ValueError(misses)

        if hits:
            for j, d in _influences(hits, dist, k, rank_w).items():
                pairs.append((r, j, "hit", d, _diffs(diff, usable, a, r, j)))
        for c, members in miss_groups.items():
            if not members:
                continue
            if c is None:
                factor = 1.0
            else:
                # P(C) / (1 - P(class(R))), class frequencies in the data
                factor = counts[c] / (n - counts[cls[r]])
            for j, d in _influences(members, dist, k, rank_w).items():
                pairs.append((r, j, "miss", factor * d,
                              _diffs(diff, usable, a, r, j)))
    return pairs, {"m": m, "usable": usable, "n_features": a, "range": rng}


def _diffs(diff, usable, a, r, j):
    out = np.full(a, np.nan)
    for f in usable:
        out[f] = diff(f, r, j)
    return out


def statistic_from_sums(sums, m):
    """STIR's t, df and one-sided p from the one-pass sums.

    sums: W_hit, Q_hit, W_miss, Q_miss (sum of weights and of squared
    weights, scalars) and S1_hit, S2_hit, S1_miss, S2_miss (per feature:
    sum w d and sum w d^2).  This is the arithmetic an engine would do after
    its pass; see doc/stir_notes.md for the numerical caveats (a one-pass
    variance that should be 0 can come out at +-1e-17).
    """
    out = {}
    for g in ("hit", "miss"):
        W, Q = sums["W_" + g], sums["Q_" + g]
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = sums["S1_" + g] / W
            var = sums["S2_" + g] / W - mean ** 2
        var = np.where(var < 0, 0.0, var)
        out["mean_" + g], out["var_" + g] = mean, var
        out["n_" + g] = W * W / Q if Q > 0 else 0.0
    t, df, p = _t_test(out["mean_miss"], out["mean_hit"], out["var_miss"],
                       out["var_hit"], out["n_miss"], out["n_hit"])
    out.update(t=t, df=df, p=p,
               weights=(sums["S1_miss"] - sums["S1_hit"]) / m)
    return out


def _t_test(mean_m, mean_h, var_m, var_h, n_m, n_h):
    mean_m, mean_h = np.atleast_1d(mean_m), np.atleast_1d(mean_h)
    var_m, var_h = np.atleast_1d(var_m), np.atleast_1d(var_h)
    df = n_m + n_h - 2
    t = np.full(len(mean_m), np.nan)
    p = np.full(len(mean_m), np.nan)
    if df <= 0:
        return t, df, p
    for f in range(len(mean_m)):
        delta = mean_m[f] - mean_h[f]
        sp2 = ((n_m - 1) * var_m[f] + (n_h - 1) * var_h[f]) / df
        if math.isnan(delta) or math.isnan(sp2):
            continue
        se = math.sqrt(sp2 * (1 / n_m + 1 / n_h))
        if se > 0:
            t[f] = delta / se
        elif delta != 0:
            t[f] = math.copysign(math.inf, delta)
        else:
            continue  # 0/0: a feature with all diffs equal (e.g. constant)
        p[f] = stats.t.sf(t[f], df)
    return t, df, p


def reference_stir(X, y, nominal, k=10, m=None, seed=0, misses="per_class",
                   weighted=False, sigma=2.0, regression=False):
    """STIR for plain ReliefF under doc/semantics.md.

    X: n x a with NaN for missing values; y: class codes (rows with a NaN
    class are dropped); nominal: per-feature bool; k: neighbours per group
    (ties shared); m: visited instances (None = all); misses: "per_class"
    (ReliefF, with P(C)/(1 - P(class)) factors) or "any" (STIR's R code:
    the k nearest of all other classes together); weighted/sigma: rank
    influences exp(-(r/sigma)^2).

    Returns a dict of per-feature arrays: weights (the contract's ReliefF
    weight, (sum_miss w d - sum_hit w d)/m), mean_hit, mean_miss, var_hit,
    var_miss, t, p; scalars n_hit, n_miss (effective numbers of pairs), df,
    pairs_hit, pairs_miss (plain counts of pairs), m; and sums (the one-pass
    sufficient sums of `statistic_from_sums`).
    """
    if regression:
        raise NotImplementedError(
            "STIR has no regression form (doc/stir_notes.md)")
    pairs, info = stir_pairs(X, y, nominal, k=k, m=m, seed=seed,
                             misses=misses, weighted=weighted, sigma=sigma)
    a, m = info["n_features"], info["m"]
    unusable = [f for f in range(a) if f not in info["usable"]]

    res = {"m": m}
    # -- two passes over the stored pairs: means, then variances --
    for g in ("hit", "miss"):
        group = [(w, d) for (_, _, grp, w, d) in pairs if grp == g]
        total_w = sum(w for w, _ in group)
        total_w2 = sum(w * w for w, _ in group)
        mean = np.full(a, np.nan)
        var = np.full(a, np.nan)
        for f in info["usable"]:
            if total_w == 0:
                continue
            mean[f] = sum(w * d[f] for w, d in group) / total_w
            var[f] = sum(w * (d[f] - mean[f]) ** 2 for w, d in group) / total_w
        res["mean_" + g], res["var_" + g] = mean, var
        res["n_" + g] = total_w ** 2 / total_w2 if total_w2 > 0 else 0.0
        res["pairs_" + g] = len(group)
    t, df, p = _t_test(res["mean_miss"], res["mean_hit"], res["var_miss"],
                       res["var_hit"], res["n_miss"], res["n_hit"])
    res.update(t=t, df=df, p=p)

    # -- the contract's ReliefF weight --
    weights = np.zeros(a)
    for (_, _, g, w, d) in pairs:
        for f in info["usable"]:
            weights[f] += (w if g == "miss" else -w) * d[f]
    weights /= m
    for f in info["usable"]:
        if info["range"][f] == 0:
            weights[f] = 0.0
    weights[unusable] = np.nan
    res["weights"] = weights

    # -- the one-pass sums an engine would accumulate --
    sums = {"W_hit": 0.0, "Q_hit": 0.0, "W_miss": 0.0, "Q_miss": 0.0,
            "S1_hit": np.zeros(a), "S2_hit": np.zeros(a),
            "S1_miss": np.zeros(a), "S2_miss": np.zeros(a)}
    for (_, _, g, w, d) in pairs:
        sums["W_" + g] += w
        sums["Q_" + g] += w * w
        for f in range(a):
            sums["S1_" + g][f] += w * d[f]
            sums["S2_" + g][f] += w * d[f] * d[f]
    res["sums"] = sums
    return res
