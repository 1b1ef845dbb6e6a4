"""The engine's steps in vectorised NumPy, for small data before the numba
kernels are compiled (``engine``, ``warmup``).

A fresh installation has no compiled kernels, and compiling them takes tens
of seconds; NumPy needs none.  On small data (n^2 a below ``SMALL_TERMS``)
this path gives a first result in a fraction of a second while the kernels
compile in the background.  It follows the same contract step by step (one
visit: the diffs to every instance, their weighted sum, the neighbours with
tied slots shared, the update), without screens, so its weights equal the
compiled ones to rounding (about 1e-15): sums are added in another order.

It covers what a first use needs: dense data (small sparse data is
densified; zeros are values either way), numeric and nominal features,
missing values (RELIEF-D), classification and regression, ReliefF,
Relief-E, rank weights, every neighbourhood rule, dReliefF and pdReliefF.
"""
import dataclasses

import numpy as np
from scipy.spatial.distance import cdist

from .distances import TIE_RTOL
from .estimates import VARIANT_PD
from .neighbours import (MODE_ANY, MODE_REGRESSION, RULE_K,
                         RULE_MULTISURF_STAR, RULE_SURF, RULE_SURF_STAR)


# ReliefF's visits whose distances are computed together.
BLOCK = 64
# Sparse data is densified for this path up to this many values.
DENSE_MAX_VALUES = 5_000_000


def dense_view(prep):
    """``prep`` with dense arrays this path reads: itself for dense data, a
    densified copy of small sparse data (values already divided by their
    range: diffs are |x - y| either way), or None for large sparse data."""
    if not prep.sparse:
        return prep
    n, a = prep.group.shape[0], prep.n_used
    if n * a > DENSE_MAX_VALUES:
        return None
    rows = prep.sp
    X = np.zeros((n, a))
    for i in range(n):
        start, stop = rows.indptr[i], rows.indptr[i + 1]
        X[i, rows.indices[start:stop]] = rows.values[start:stop]
    nominal = rows.nominal
    return dataclasses.replace(
        prep, num=np.ascontiguousarray(X[:, ~nominal]),
        nom=np.ascontiguousarray(X[:, nominal]).astype(np.int32),
        sparse=False)


def _expected_abs(law, prefix, v):
    """E|X - v| for X uniform over the sorted sample ``law`` (prefix sums
    ``prefix``), for every value of ``v`` (RELIEF-D, numeric); the same
    arithmetic as ``diffs.expected_abs``."""
    count = law.shape[0]
    below = np.searchsorted(law, v, side="left")
    sum_below = prefix[below]
    sum_all = prefix[count]
    return (v * below - sum_below + (sum_all - sum_below)
            - v * (count - below)) / count


def _law(tables, f, c):
    """The sorted known values of numeric feature f in class c, and their
    prefix sums (``prepare.MissingTables``)."""
    start, count = tables.num_start[f, c], tables.num_count[f, c]
    pstart = tables.num_pstart[f, c]
    return (tables.num_sorted[start:start + count],
            tables.num_prefix[pstart:pstart + count + 1])


def _numeric_missing(f, r, x, group, tables, xr, cr):
    """diff(f, R, I_j) of numeric feature f for the values ``x`` of rows of
    classes ``group``, R's value xr and class cr, with RELIEF-D where a value
    is missing."""
    out = np.abs(x - xr)
    known = x == x
    if xr == xr:
        for c in np.unique(group[~known]):
            law, prefix = _law(tables, f, c)
            out[~known & (group == c)] = _expected_abs(law, prefix, xr)
        return out
    law, prefix = _law(tables, f, cr)
    out[known] = _expected_abs(law, prefix, x[known])
    out[~known] = tables.num_both[f, cr, group[~known]]
    return out


def _nominal_missing(g, codes, group, tables, cr, gr):
    """diff(g, R, I_j) of nominal feature g for the ``codes`` of rows of
    classes ``group``, R's code cr and class gr, with RELIEF-D where a code
    is missing (-1)."""
    known = codes >= 0
    out = (codes != cr).astype(float)
    if cr >= 0:
        out[~known] = 1.0 - tables.nom_prob[g, group[~known], cr]
    else:
        out[known] = 1.0 - tables.nom_prob[g, gr, codes[known]]
        out[~known] = tables.nom_both[g, gr, group[~known]]
    return out


def diffs(prep, r, rows=slice(None)):
    """diff(A, R, I_j) for the instances j of ``rows`` (all by default) and
    every kernel column A (numeric columns first, then nominal;
    doc/semantics.md), one row per instance."""
    num, nom, group = prep.num[rows], prep.nom[rows], prep.group[rows]
    a_num = num.shape[1]
    out = np.empty((num.shape[0], a_num + nom.shape[1]))
    np.abs(num - prep.num[r], out=out[:, :a_num])
    out[:, a_num:] = nom != prep.nom[r]
    if prep.has_missing:
        xr, cr, gr = prep.num[r], prep.nom[r], prep.group[r]
        for f in np.flatnonzero(np.isnan(prep.num).any(axis=0)):
            out[:, f] = _numeric_missing(f, r, num[:, f], group,
                                         prep.missing, xr[f], gr)
        for g in np.flatnonzero((prep.nom < 0).any(axis=0)):
            out[:, a_num + g] = _nominal_missing(g, nom[:, g], group,
                                                 prep.missing, cr[g], gr)
    return out


def distances(prep, rows, w=None):
    """len(rows) x n: sum_A w_A diff(A, R, I_j) from each of ``rows`` (w_A = 1
    when ``w`` is None), by scipy's ``cdist`` on complete data."""
    if prep.has_missing:
        return np.array([diffs(prep, r) @ (np.ones(prep.n_used) if w is None
                                           else w) for r in rows])
    a_num, a_nom = prep.num.shape[1], prep.nom.shape[1]
    out = np.zeros((len(rows), prep.group.shape[0]))
    if a_num:
        out += cdist(prep.num[rows], prep.num, "cityblock",
                     w=None if w is None else w[:a_num])
    if a_nom:
        w_nom = np.ones(a_nom) if w is None else w[a_num:]
        total = w_nom.sum()
        if total > 0:
            out += total * cdist(prep.nom[rows], prep.nom, "hamming",
                                 w=w_nom)
    return out


def _group_shares(members, dist, k, rank_weights, sign):
    """(rows, coefficients) of one neighbour group: the k nearest of
    ``members``, those tied with the k-th sharing its slots, each with sign
    times its share of the rank influences (``neighbours._shares``)."""
    order = np.argsort(dist, kind="stable")
    d = dist[order]
    m = d.shape[0]
    if m > k:
        m = int(np.searchsorted(d, d[k - 1] * (1 + TIE_RTOL), side="right"))
    norm = rank_weights[:min(k, m)].sum()
    rows, coefs = [], []
    i = 0
    while i < m:
        limit = d[i] * (1 + TIE_RTOL)
        e = i + 1
        while e < m and d[e] <= limit:
            e += 1
        ties = e - i
        slots = max(0, min(ties, k - i))
        influence = rank_weights[i:i + slots].sum()
        rows.extend(members[order[i:e]])
        coefs.extend([sign * influence / ties / norm] * ties)
        i = e
    return rows, coefs


def _groups(r, group, hood):
    """(members mask, sign) of R's neighbour groups: hits, the misses of
    each other class (or of all together), or every instance in
    regression."""
    others = np.arange(group.shape[0]) != r
    gr = group[r]
    if hood.mode == MODE_REGRESSION:
        return [(others, 1.0)]
    if hood.mode == MODE_ANY:
        return [(others & (group == gr), -1.0),
                (others & (group != gr), 1.0)]
    return [(others & (group == g),
             -1.0 if g == gr else hood.class_factor[gr, g])
            for g in range(hood.n_groups)]


def neighbours(r, dist, group, hood):
    """R's neighbours and their signed influences (``neighbours.select``
    without a screen)."""
    chosen, coef = [], []
    for mask, sign in _groups(r, group, hood):
        members = np.flatnonzero(mask)
        if members.shape[0]:
            rows, coefs = _group_shares(members, dist[members], hood.k,
                                        hood.rank_weights, sign)
            chosen.extend(rows)
            coef.extend(coefs)
    return np.array(chosen, dtype=np.int64), np.array(coef)


def radius_neighbours(r, dist, group, hood, w):
    """``neighbours`` for the radius rules (``neighbours._within_radius``):
    each group's members strictly inside the radius (sign / their count),
    and for the starred rules those strictly beyond the far threshold
    (-sign / their count); a distance within TIE_RTOL |centre| of a
    threshold is on it, in neither set.  Returns (chosen, coef, constant):
    MultiSURF*'s far groups, which score sameness, add their sign to every
    feature."""
    others = np.arange(dist.shape[0]) != r
    if hood.rule in (RULE_SURF, RULE_SURF_STAR):
        centre = float(np.dot(w, hood.pair_means))
        low = high = centre
    else:
        d = dist[others]
        centre = d.sum() / d.shape[0]
        half = np.sqrt(((d - centre) ** 2).sum() / d.shape[0]) / 2
        low, high = centre - half, centre + half
    tol = TIE_RTOL * abs(centre)
    starred = hood.rule in (RULE_SURF_STAR, RULE_MULTISURF_STAR)
    chosen, coef, constant = [], [], 0.0
    for mask, sign in _groups(r, group, hood):
        sets = [(np.flatnonzero(mask & (dist < low - tol)), sign)]
        if starred:
            far = np.flatnonzero(mask & (dist > high + tol))
            sets.append((far, -sign))
            if far.shape[0] and hood.rule == RULE_MULTISURF_STAR:
                constant += sign
        for members, s in sets:
            if members.shape[0]:
                chosen.extend(members)
                coef.extend([s / members.shape[0]] * members.shape[0])
    return np.array(chosen, dtype=np.int64), np.array(coef), constant


def _visit(prep, hood, r, dist, target, regression, w):
    """The update row of visiting R whose distances (weighted by ``w``) to
    every instance are ``dist``."""
    constant = 0.0
    if hood.rule == RULE_K:
        chosen, coef = neighbours(r, dist, prep.group, hood)
    else:
        chosen, coef, constant = radius_neighbours(r, dist, prep.group,
                                                   hood, w)
    d = diffs(prep, r, chosen)
    a = d.shape[1]
    upd = np.full(1 + 2 * a if regression else a, constant)
    for i, (j, c) in enumerate(zip(chosen, coef)):
        if regression:
            d_target = abs(target[r] - target[j])
            upd[0] += d_target * c
            upd[1:1 + a] += c * d[i]
            upd[1 + a:] += (d_target * c) * d[i]
        else:
            upd += c * d[i]
    return upd


def estimate(total, t, regression):
    """``estimates.estimate`` in NumPy (the same arithmetic)."""
    if not regression:
        return total / t
    a = (total.shape[0] - 1) // 2
    ndc, nda, ndcda = total[0], total[1:1 + a], total[1 + a:]
    first = ndcda / ndc if ndc != 0 else np.zeros(a)
    second = (nda - ndcda) / (t - ndc) if t - ndc != 0 else np.zeros(a)
    return first - second


def distance_weights(total, t, variant, T, regression, n):
    """``estimates.feedback_weights`` in NumPy: w_A at step t from W_{t-1}
    (dReliefF: max(0, W); pdReliefF: max(0, (1 - W)/t^T + W)); weights
    within ``estimates.residue(t, n)`` of 0 are 0; all 1 at t = 1 or when
    none is positive."""
    a = (total.shape[0] - 1) // 2 if regression else total.shape[0]
    if t == 1:
        return np.ones(a)
    current = estimate(total, t - 1, regression)
    if variant == VARIANT_PD:
        current = (1.0 - current) * (1.0 / t ** T) + current
    tiny = t * 2.0 ** -52 + (n + 2) * 2.0 ** -50     # (estimates.residue)
    w = np.where(current > tiny, current, 0.0)   # (NaN: 0)
    return w if (w > 0).any() else np.ones(a)


def relief_rows(prep, hood, rows, regression, out):
    """ReliefF: out[b] = the update of visiting rows[b] (and, in a wider
    row, the visit's STIR sums, as ``pairsums.add_pair_sums``)."""
    target = prep.target if regression else None
    a = prep.n_used
    ones = np.ones(a)
    width = 1 + 2 * a if regression else a
    with_sums = out.shape[1] > width
    for start in range(0, len(rows), BLOCK):
        block = rows[start:start + BLOCK]
        dist = distances(prep, block)
        for b, r in enumerate(block):
            out[start + b, :width] = _visit(prep, hood, r, dist[b], target,
                                            regression, ones)
            if with_sums:
                out[start + b, width:] = pair_sums(prep, hood, r, dist[b],
                                                   ones)


def pair_sums(prep, hood, r, dist, w):
    """STIR's sums of visiting R (layout of ``pairsums``): per group (hits:
    negative coefficients, misses: positive) sum w d and sum w d^2 per
    feature, then sum w and sum w^2, w = |coef|."""
    if hood.rule == RULE_K:
        chosen, coef = neighbours(r, dist, prep.group, hood)
    else:
        chosen, coef, _ = radius_neighbours(r, dist, prep.group, hood, w)
    d = diffs(prep, r, chosen)
    parts, scalars = [], []
    for mask in (coef < 0, coef > 0):
        weight = np.abs(coef[mask])
        parts += [weight @ d[mask], weight @ (d[mask] ** 2)]
        scalars += [weight.sum(), (weight * weight).sum()]
    return np.concatenate(parts + [scalars])


def feedback_rows(prep, hood, rows, t_done, variant, T, regression, total,
                  trace_every, trace):
    """dReliefF / pdReliefF: visit ``rows`` in order, each with distance
    weights from the estimate so far (``feedback.feedback_batch``); returns
    the number of trace rows written."""
    target = prep.target if regression else None
    written = 0
    for b, r in enumerate(rows):
        t = t_done + b + 1
        w = distance_weights(total, t, variant, T, regression,
                             prep.group.shape[0])
        total += _visit(prep, hood, r, distances(prep, [r], w)[0], target,
                        regression, w)
        if trace_every and t % trace_every == 0:
            trace[written] = estimate(total, t, regression)
            written += 1
    return written
