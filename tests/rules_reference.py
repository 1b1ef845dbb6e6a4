"""A deliberately naive reference of the radius neighbourhood rules.

SURF (Greene et al. 2009), SURF* (Greene et al. 2010), MultiSURF* (Granizo-
Mackenzie & Moore 2013), MultiSURF (Urbanowicz et al. 2018) and TuRF (Moore &
White 2007), written loop by loop on top of the project's contract
(doc/semantics.md) for diff, missing values, class priors and the feedback
variants.  It shares no code with the engine, nor with tests/reference.py (whose
diff is a closure, not importable); it is slow: O(n^2 a) per visit for SURF's
global radius, so keep n to a few hundred rows.  What each rule means, and where
the peers differ from it, is written in doc/neighbourhood_rules_notes.md.

Definitions used (R the visited instance, d(R, j) = sum_A w_A diff(A, R, j)):

* SURF, SURF*: one radius T for the whole run, the mean of d(i, j) over all
  n(n-1)/2 unordered pairs of distinct rows (all rows, not only the visited ones).
* MultiSURF, MultiSURF*: per visited R, T_R = mean_j d(R, j) over the n-1 other
  rows, sigma_R their standard deviation (population, ddof=0, by default),
  D_R = sigma_R / 2.
* near set: d(R, j) < T (SURF, SURF*) or d(R, j) < T_R - D_R (MultiSURF, MultiSURF*).
  far set (starred rules): d(R, j) > T, or d(R, j) > T_R + D_R.  Strict on both
  sides: an instance on a boundary is in neither set, and so is every instance in
  MultiSURF*'s dead band [T_R - D_R, T_R + D_R].
* update of one visit, classification (misses="per_class", ReliefF's rule):
      - mean_{near hits} diff
      + sum_{C != class(R)} P(C)/(1 - P(class(R))) * mean_{near misses of C} diff
  each group averaged by the number of its members that were found; an empty
  group adds nothing.  misses="any" (Relief-E, one pooled miss group): + mean over
  all near misses.  The weights are the sum over visits divided by m.
* far update (starred rules), two forms, `far_form`:
      "opposite" (SURF*'s): + mean_{far hits} diff - sum_C factor_C mean_{far misses of C} diff
      "sameness" (MultiSURF*'s): - mean_{far hits} (1 - diff) + sum_C factor_C mean_{far misses of C} (1 - diff)
  They differ by a constant per visit (the same for every feature) whenever a far
  group is empty; with every group present they are equal.
* regression (SURF and MultiSURF only): RReliefF's bookkeeping with the near set as
  the neighbours, each with influence 1/|near|: N_dC += diff(C)/|near|,
  N_dA += diff(A)/|near|, N_dCdA += diff(C) diff(A)/|near|,
  W = N_dCdA/N_dC - (N_dA - N_dCdA)/(m - N_dC); a term with a zero denominator is 0.

Choices made where the papers are silent (each also in the notes):

1. diff and missing values are the project's (range-normalised numeric diff,
   overlap for nominal features, RELIEF-D), in the distance and in the updates.
   The papers define SNP data without missing values.
2. "On the radius": a distance within a relative 1e-10 of a threshold (scaled by
   the mean distance T, or T_R) counts as equal to it, and is in neither set, so
   that rounding in the mean cannot move an instance across.
3. A near or far group with no member adds nothing; the other miss classes keep
   their P(C)/(1 - P(class(R))) factors (no renormalisation over the classes found).
4. sigma is the population standard deviation (ddof=0; `ddof` changes it).
5. With a visited subset (m < n) the radius still uses all n rows.
6. Feedback variants: the distance weights of visit t are computed as in
   tests/reference.py (dReliefF: max(0, W_{t-1}); pdReliefF: the f(w, t) blend;
   residue <= t 2^-52 + (n + 2) 2^-50 counts as 0; all-zero weights mean all ones), and the
   radius of that visit is computed from those weighted distances (SURF: the mean
   over all pairs again, with the visit's weights).
7. The starred rules have no regression form here (RReliefF's ratio has no
   agreed "far" counterpart): NotImplementedError.
8. Constant features get weight 0 and features with no known value NaN, as in
   the contract.
"""
import math

import numpy as np

RULES = ("surf", "surf*", "multisurf", "multisurf*")
BOUNDARY_RTOL = 1e-10


class _Data:
    """The contract's diff, computed one pair and one feature at a time."""

    def __init__(self, X, y, nominal, regression):
        self.X = X
        self.n, self.a = X.shape
        self.nominal = [bool(v) for v in nominal]
        self.regression = regression
        self.cls = np.zeros(self.n, int) if regression else y.astype(int)
        self.known = ~np.isnan(X)
        self.usable = [f for f in range(self.a) if self.known[:, f].any()]
        self.span = {}
        for f in self.usable:
            vals = [X[i, f] for i in range(self.n) if self.known[i, f]]
            self.span[f] = max(vals) - min(vals)
        self.laws = {}

    def law(self, f, c):
        """Known values of feature f in class c (all known values if none)."""
        key = (f, c)
        if key not in self.laws:
            vals = [self.X[i, f] for i in range(self.n)
                    if self.known[i, f] and self.cls[i] == c]
            if not vals:
                vals = [self.X[i, f] for i in range(self.n) if self.known[i, f]]
            self.laws[key] = vals
        return self.laws[key]

    def diff(self, f, i, j):
        vi, vj = self.X[i, f], self.X[j, f]
        mi, mj = not self.known[i, f], not self.known[j, f]
        if self.nominal[f]:
            if not mi and not mj:
                return 0.0 if vi == vj else 1.0
            if mi and mj:
                li, lj = self.law(f, self.cls[i]), self.law(f, self.cls[j])
                same = 0.0
                for u in set(li) | set(lj):
                    same += (li.count(u) / len(li)) * (lj.count(u) / len(lj))
                return 1.0 - same
            # one missing: 1 - P(known value | class of the one missing)
            lst, v = (self.law(f, self.cls[i]), vj) if mi else \
                (self.law(f, self.cls[j]), vi)
            return 1.0 - lst.count(v) / len(lst)
        span = self.span[f]
        if span == 0:
            return 0.0
        if not mi and not mj:
            return abs(vi - vj) / span
        if mi and mj:
            li, lj = self.law(f, self.cls[i]), self.law(f, self.cls[j])
            total = 0.0
            for u in li:
                for v in lj:
                    total += abs(u - v)
            return total / (len(li) * len(lj)) / span
        lst, v = (self.law(f, self.cls[i]), vj) if mi else \
            (self.law(f, self.cls[j]), vi)
        return sum(abs(u - v) for u in lst) / len(lst) / span

    def dist(self, i, j, w):
        total = 0.0
        for f in self.usable:
            if w[f] != 0:
                total += w[f] * self.diff(f, i, j)
        return total


def _distance_weights(variant, w, t, estimate, usable, a, T, n):
    """The per-feature distance weights of visit t (1-based)."""
    out = np.zeros(a)
    if variant == "relieff":
        if w is None:
            out[usable] = 1.0
        else:
            for f in usable:
                v = float(w[f])
                out[f] = v if v > 0 else 0.0   # NaN and negatives count as 0
    elif t > 1:
        for f in usable:
            v = estimate[f]
            if variant == "pdrelieff":
                v = (1 - v) / t ** T + v
            # (within rounding of 0: 0, as the engine's estimates.residue)
            out[f] = v if v > t * 2.0 ** -52 + (n + 2) * 2.0 ** -50 else 0.0
    if not (out > 0).any():
        out[usable] = 1.0
    return out


def reference_rules(X, y, nominal, rule="surf", regression=False, m=None,
                    seed=0, misses="per_class", w=None, variant="relieff",
                    T=None, ddof=0, far_form=None, radius=None,
                    deviations=0.5):
    """Weights of `rule` ("surf", "surf*", "multisurf", "multisurf*").

    w: fixed per-feature distance weights (variant="relieff" only; None = all 1).
    variant: "relieff", "drelieff" or "pdrelieff" (weights from the running
    estimate, as in tests/reference.py; T as there).
    far_form: "opposite" or "sameness"; default "opposite" for surf*, "sameness"
    for multisurf*.
    radius: a testing hook: a fixed global radius that replaces SURF's and
    SURF*'s mean (e.g. float("inf") to make every instance near).
    deviations: how many standard deviations MultiSURF's thresholds sit from
    the mean (its authors' 1/2; other values: a rule defined by fields).
    """
    if rule not in RULES:
        raise ValueError(f"rule must be one of {RULES}")
    star = rule.endswith("*")
    if regression and star:
        raise NotImplementedError("the starred rules have no regression form")
    if far_form is None:
        far_form = "sameness" if rule == "multisurf*" else "opposite"
    if variant != "relieff" and w is not None:
        raise ValueError("w is for variant='relieff'; the feedback variants "
                         "compute their own")
    X = np.asarray(X, float)
    y = np.asarray(y, float)
    keep = ~np.isnan(y)
    X, y = X[keep], y[keep]
    data = _Data(X, y, nominal, regression)
    n, a = data.n, data.a
    m = n if m is None else m
    if variant == "pdrelieff" and T is None:
        T = 2 / math.log(m)
    usable = data.usable
    cls = data.cls
    counts = [int((cls == c).sum()) for c in range(int(cls.max()) + 1)]
    if regression:
        y_span = y.max() - y.min()

    sums = [0.0] * a
    ndc, nda, ndcda = 0.0, [0.0] * a, [0.0] * a

    def estimate(t):
        est = np.zeros(a)
        for f in range(a):
            if regression:
                left = ndcda[f] / ndc if ndc != 0 else 0.0
                right = (nda[f] - ndcda[f]) / (t - ndc) if t != ndc else 0.0
                est[f] = left - right
            else:
                est[f] = sums[f] / t
        return est

    global_radius = {}   # weights (as a tuple) -> SURF's mean over all pairs

    def surf_radius(wv):
        if radius is not None:
            return radius
        key = tuple(wv)
        if key not in global_radius:
            total, pairs = 0.0, 0
            for i in range(n):
                for j in range(i + 1, n):
                    total += data.dist(i, j, wv)
                    pairs += 1
            global_radius[key] = total / pairs
        return global_radius[key]

    order = np.random.default_rng(seed).permutation(n)[:m]
    for t, r in enumerate(order, start=1):
        r = int(r)
        est = estimate(t - 1) if t > 1 and variant != "relieff" else None
        wv = _distance_weights(variant, w, t, est, usable, a, T, n)
        others = [j for j in range(n) if j != r]
        d = {j: data.dist(r, j, wv) for j in others}
        if rule in ("surf", "surf*"):
            centre = surf_radius(wv)
            low = high = centre
        else:
            centre = sum(d.values()) / len(others)
            var = sum((d[j] - centre) ** 2 for j in others) / (len(others) - ddof)
            half = math.sqrt(var) * deviations
            low, high = centre - half, centre + half
        tol = BOUNDARY_RTOL * abs(centre) if math.isfinite(centre) else 0.0
        near = [j for j in others if d[j] < low - tol]
        far = [j for j in others if d[j] > high + tol] if star else []

        if regression:
            if not near:
                continue
            share = 1.0 / len(near)
            for j in near:
                dc = abs(y[r] - y[j]) / y_span
                ndc += dc * share
                for f in usable:
                    df = data.diff(f, r, j)
                    nda[f] += df * share
                    ndcda[f] += dc * df * share
            continue

        def groups(members):
            """(sign-free factor, members) per hit/miss group."""
            hits = [j for j in members if cls[j] == cls[r]]
            out = [("hit", 1.0, hits)]
            if misses == "any":
                out.append(("miss", 1.0,
                            [j for j in members if cls[j] != cls[r]]))
            else:
                for c in range(len(counts)):
                    if c != cls[r]:
                        factor = counts[c] / (n - counts[cls[r]])
                        out.append(("miss", factor,
                                    [j for j in members if cls[j] == c]))
            return out

        for kind, factor, members in groups(near):
            if not members:
                continue
            sign = -1.0 if kind == "hit" else 1.0
            for f in usable:
                mean = sum(data.diff(f, r, j) for j in members) / len(members)
                sums[f] += sign * factor * mean
        for kind, factor, members in groups(far):
            if not members:
                continue
            for f in usable:
                if far_form == "opposite":
                    sign = 1.0 if kind == "hit" else -1.0
                    mean = sum(data.diff(f, r, j) for j in members) / len(members)
                else:
                    sign = -1.0 if kind == "hit" else 1.0
                    mean = sum(1.0 - data.diff(f, r, j)
                               for j in members) / len(members)
                sums[f] += sign * factor * mean

    weights = estimate(m)
    for f in range(a):
        if f not in usable:
            weights[f] = np.nan
        elif data.span[f] == 0:
            weights[f] = 0.0
    return weights


def reference_turf(X, y, nominal, rule="surf", remove_fraction=0.05,
                   n_iterations=None, n_keep=1, **kwargs):
    """TuRF (Moore & White 2007) around reference_rules.

    Each iteration scores the remaining features and removes the
    round(remove_fraction * a) lowest-scored ones (a = the original number of
    features: "a/n" of the paper, n = 1/remove_fraction iterations by default);
    every feature's result is its estimate in the last iteration in which it
    was scored ("return last estimate for each attribute").  It stops after
    n_iterations, or when at most n_keep features remain (never removing
    below n_keep).  Ties at the cut remove the lower column index first.
    Returns (weights, removal_order), the order worst first.
    """
    X = np.asarray(X, float)
    a = X.shape[1]
    per_step = max(1, int(round(remove_fraction * a)))
    if n_iterations is None:
        n_iterations = max(1, int(round(1 / remove_fraction)))
    active = list(range(a))
    last = np.full(a, np.nan)
    removed = []
    for _ in range(n_iterations):
        if len(active) <= n_keep:
            break
        sub = reference_rules(X[:, active], y, [nominal[f] for f in active],
                              rule=rule, **kwargs)
        for pos, f in enumerate(active):
            last[f] = sub[pos]
        ranked = sorted(range(len(active)),
                        key=lambda p: (-np.inf if np.isnan(sub[p]) else sub[p],
                                       active[p]))
        worst = [active[p] for p in ranked[:min(per_step, len(active) - n_keep)]]
        removed.extend(worst)
        drop = set(worst)
        active = [f for f in active if f not in drop]
    return last, removed
