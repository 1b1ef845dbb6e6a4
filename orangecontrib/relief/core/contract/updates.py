"""The update of one visit: what R and its neighbours add to the weight sums.

Classification (seed Fig. relieff): W[A] += sum over the chosen neighbours of
coef * diff(A, R, N), the coefficients from ``neighbours.select`` (negative
for hits, P(C)/(1 - P(class(R))) times the share for misses of class C).
Regression (RReliefF): an update row holds ``[N_dC, N_dA (a), N_dCdA (a)]``,
N_dC += diff(C) d_j, N_dA += diff(A) d_j, N_dCdA += diff(C) diff(A) d_j.
``estimates.estimate`` turns the sums into weights.
"""
import numpy as np
from numba import njit
from numba.extending import register_jitable

from .diffs import (JIT, NO_REFCOUNTS, column_diff, from_zero,
                    looked_up_numeric_diff, target_diff)
from .distances import FAST
from .sparse import stored_range

# Nominal mismatch counts of a radius rule's update are summed in int16 over
# at most this many rows (an even number: pairs stay whole), then added to
# int64: on GAMETES (1,600 x 1,000 SNPs) the update took 0.091 ms a visit with
# int64 counts, 0.052 with int32, 0.032 with int16.
COUNT_ROWS = 32766


@njit(**FAST)
def _add_diffs_dense(num, nom, r, j, scale, out, offset):
    """out[offset + A] += scale * diff(A, R, I_j), no missing values.

    On row views and slices of ``out``: indexing the 2-D arrays and ``out``
    directly kept LLVM from vectorising (about 7 ns per nominal term on
    GAMETES, 0.4 ns this way)."""
    a_num, a_nom = num.shape[1], nom.shape[1]
    xr, xj = num[r], num[j]
    o = out[offset:offset + a_num]
    for f in range(a_num):
        o[f] += scale * abs(xr[f] - xj[f])
    cr, cj = nom[r], nom[j]
    o = out[offset + a_num:offset + a_num + a_nom]
    for g in range(a_nom):
        o[g] += scale if cr[g] != cj[g] else 0.0


@register_jitable(inline="always")
def target_sum(r, chosen, coef, begin, end, target, total):
    """total + sum_e diff(C, R, I_e) coef_e over the neighbours
    chosen[begin:end] (RReliefF's N_dC terms; ``diffs.target_diff``: one
    target normalised by its range, or several).  Written once for the CPU
    and the GPU (``register_jitable``)."""
    for e in range(begin, end):
        total += target_diff(target, r, chosen[e]) * coef[e]
    return total


@register_jitable(inline="always")
def feature_update(f, r, chosen, coef, begin, end, num, nom, group,
                   num_sorted, num_prefix, num_start, num_pstart, num_count,
                   num_both, nom_prob, nom_both, target, regression, near,
                   joint):
    """(near + sum_e coef_e d_e, joint + sum_e (diff(C) coef_e) d_e),
    d_e = diff(A, R, I_e) of kernel column f (RELIEF-D where a value is
    missing), over the neighbours chosen[begin:end] in order: ReliefF's
    W[A] terms, or RReliefF's N_dA and (``regression``) N_dCdA.  The CPU's
    update with missing values and the GPU's ``updates`` kernel (one
    thread a feature) call this one function."""
    for e in range(begin, end):
        j, c = chosen[e], coef[e]
        d = column_diff(f, r, j, num, nom, group, num_sorted, num_prefix,
                        num_start, num_pstart, num_count, num_both, nom_prob,
                        nom_both)
        near += c * d
        if regression:
            joint += (target_diff(target, r, j) * c) * d
    return near, joint


@njit(**JIT)
def update_sparse(r, chosen, coef, n_chosen, rows, target, regression,
                  scratch, upd, f0, f1):
    """``update`` for sparse rows, on the features [f0, f1): diff(A, R, J)
    = b_R(A) + (diff(A, R, J) - b_R(A)), where b_R(A) = diff(A, R, 0) is
    added once for all neighbours (times the sum of their coefficients) and
    the second term is non-zero only where J has a stored value.  R's
    values are spread into ``scratch`` (a zeros, left as zeros), so a
    neighbour costs its stored entries and no merge.  N_dC (regression)
    goes with the range that starts at 0."""
    indices, values, nominal = rows.indices, rows.values, rows.nominal
    a = scratch.shape[0]
    off1, off2 = (1, 1 + a) if regression else (0, 0)
    sum_c = sum_cd = 0.0
    for i in range(n_chosen):
        sum_c += coef[i]
        if regression:
            d_target = target_diff(target, r, chosen[i])
            if f0 == 0:
                upd[0] += d_target * coef[i]
            sum_cd += d_target * coef[i]
    start, stop = stored_range(rows, r, f0, f1)
    for p in range(start, stop):
        f = indices[p]
        scratch[f] = values[p]
        b = from_zero(values[p], nominal[f])
        upd[off1 + f] += sum_c * b
        if regression:
            upd[off2 + f] += sum_cd * b
    for i in range(n_chosen):
        j = chosen[i]
        c = coef[i]
        cd = target_diff(target, r, j) * c if regression else 0.0
        start_j, stop_j = stored_range(rows, j, f0, f1)
        for q in range(start_j, stop_j):
            f = indices[q]
            u, v = scratch[f], values[q]
            if nominal[f]:
                d = (1.0 if u != v else 0.0) - (1.0 if u != 0 else 0.0)
            else:
                d = abs(u - v) - abs(u)
            upd[off1 + f] += c * d
            if regression:
                upd[off2 + f] += cd * d
    for p in range(start, stop):
        scratch[indices[p]] = 0.0


@njit(**JIT)
def move_sparse_update(r, chosen, n_chosen, rows, regression, upd, total,
                       f0, f1):
    """total += upd and upd = 0 where ``update_sparse`` on [f0, f1) can have
    written: the features stored in R or in a chosen neighbour (and N_dC).
    A visit touches a few hundred of the 20,000 features of a text corpus;
    two passes over all of them cost more than the update itself."""
    a = (upd.shape[0] - 1) // 2 if regression else upd.shape[0]
    first = 1 if regression else 0
    if regression and f0 == 0:
        total[0] += upd[0]
        upd[0] = 0.0
    for i in range(-1, n_chosen):
        j = r if i < 0 else chosen[i]
        start, stop = stored_range(rows, j, f0, f1)
        for p in range(start, stop):
            f = first + rows.indices[p]
            total[f] += upd[f]          # (a feature met again adds 0)
            upd[f] = 0.0
            if regression:
                total[a + f] += upd[a + f]
                upd[a + f] = 0.0


@njit(**JIT)
def update(r, chosen, coef, n_chosen, data, regression, scratch, upd, runs):
    """Add the update of visiting R to ``upd`` (see the module docstring).
    ``scratch``: zeros, one per feature, for sparse data.  ``runs``: empty,
    or the ends in ``chosen`` of runs of neighbours of equal coefficients
    (a radius rule's buckets, ``neighbours.Buffers``): each run's diffs are
    summed before one multiplication."""
    if data.sparse:
        update_sparse(r, chosen, coef, n_chosen, data.rows, data.target,
                      regression, scratch, upd, 0, scratch.shape[0])
        return
    if runs.shape[0] > 0 and not regression and not data.has_missing:
        _update_in_runs(r, chosen, coef, runs, data.num, data.nom, upd)
        return
    num, nom, group, target = data.num, data.nom, data.group, data.target
    a = (upd.shape[0] - 1) // 2 if regression else upd.shape[0]
    first = 1 if regression else 0
    if regression:
        upd[0] = target_sum(r, chosen, coef, 0, n_chosen, target, upd[0])
    if data.has_missing:
        _missing_update(r, chosen, coef, n_chosen, num, nom, group,
                        data.missing, data.expected, target, regression, upd,
                        a, first)
        return
    for i in range(n_chosen):
        j = chosen[i]
        _add_diffs_dense(num, nom, r, j, coef[i], upd, first)
        if regression:
            _add_diffs_dense(num, nom, r, j,
                             target_diff(target, r, j) * coef[i], upd,
                             1 + a)


@njit(**NO_REFCOUNTS)
def _missing_update(r, chosen, coef, n_chosen, num, nom, group, t, expected,
                    target, regression, upd, a, first):
    """``update`` of dense data with missing values (RELIEF-D's tables
    ``t``): ``feature_update`` for each of the a features, or for a
    numeric one ``looked_up_update`` where the ``expected`` values are
    looked up (``prepare.Expectations``); without reference counts
    (``diffs.NO_REFCOUNTS``)."""
    looked_up = expected.values.shape[0] > 0
    for f in range(a):
        near, joint = upd[first + f], upd[1 + a + f] if regression else 0.0
        if looked_up and f < num.shape[1]:
            near, joint = looked_up_update(
                f, r, chosen, coef, n_chosen, num, group, expected.values,
                expected.column, t.num_both, target, regression, near, joint)
        else:
            near, joint = feature_update(
                f, r, chosen, coef, 0, n_chosen, num, nom, group,
                t.num_sorted, t.num_prefix, t.num_start, t.num_pstart,
                t.num_count, t.num_both, t.nom_prob, t.nom_both, target,
                regression, near, joint)
        upd[first + f] = near
        if regression:
            upd[1 + a + f] = joint


@register_jitable(inline="always")
def looked_up_update(f, r, chosen, coef, n_chosen, num, group, expected,
                     column, num_both, target, regression, near, joint):
    """``feature_update`` of numeric column f over the neighbours
    chosen[:n_chosen], E|X - v| looked up (``diffs.looked_up_numeric_diff``):
    the same sums in the same order, without a search per term with one
    value missing."""
    for e in range(n_chosen):
        j, c = chosen[e], coef[e]
        d = looked_up_numeric_diff(f, r, j, num[r, f], num[j, f], group[r],
                                   group[j], expected, column, num_both)
        near += c * d
        if regression:
            joint += (target_diff(target, r, j) * c) * d
    return near, joint


@njit(inline="always", **FAST)
def _sum_diff(xr, cr, xj, cj, acc_num, acc_nom):
    """acc += diff(A, R, J) (dense, no missing values): numeric |x_R - x_J|
    and nominal mismatch counts, vectorised over the features."""
    for f in range(xr.shape[0]):
        acc_num[f] += abs(xr[f] - xj[f])
    for g in range(cr.shape[0]):
        acc_nom[g] += cr[g] != cj[g]


@njit(inline="always", **FAST)
def _sum_diff_pair(xr, cr, xp, cp, xj, cj, acc_num, acc_nom):
    """acc += diff(A, R, P) + diff(A, R, J), the pair added first: one load
    and store of ``acc`` for two neighbours."""
    for f in range(xr.shape[0]):
        acc_num[f] += abs(xr[f] - xp[f]) + abs(xr[f] - xj[f])
    for g in range(cr.shape[0]):
        acc_nom[g] += (cr[g] != cp[g]) + (cr[g] != cj[g])


@njit(**FAST)
def _sum_diffs(num, nom, r, rows, acc_num, acc_nom):
    """acc += diff(A, R, I_j) for the rows j of ``rows``, in that order, in
    pairs (the first and second, the third and fourth, ...; an odd last one
    alone), as ``_sum_block_diffs`` pairs them."""
    xr, cr = num[r], nom[r]
    m = rows.shape[0]
    for q in range(0, m - 1, 2):
        p, j = rows[q], rows[q + 1]
        _sum_diff_pair(xr, cr, num[p], nom[p], num[j], nom[j], acc_num,
                       acc_nom)
    if m % 2:
        j = rows[m - 1]
        _sum_diff(xr, cr, num[j], nom[j], acc_num, acc_nom)


@njit(**JIT)
def _add_run(coef, acc_num, acc_nom, upd):
    """upd += coef * (the summed diffs of a run of neighbours)."""
    a_num = acc_num.shape[0]
    for f in range(a_num):
        upd[f] += coef * acc_num[f]
    for g in range(acc_nom.shape[0]):
        upd[a_num + g] += coef * np.float64(acc_nom[g])


@njit(**JIT)
def _update_in_runs(r, chosen, coef, ends, num, nom, upd):
    """upd += sum over the neighbours of coef * diff, the neighbours of each
    run (chosen[previous end:ends[b]], equal coefficients) summed first
    (hundreds of neighbours within a radius: one multiplication per feature
    and run, not per neighbour); nominal mismatches counted in int16 over
    COUNT_ROWS neighbours at a time."""
    acc_num = np.empty(num.shape[1])
    acc_nom = np.empty(nom.shape[1], np.int64)
    counts = np.empty(nom.shape[1], np.int16)
    i = 0
    for b in range(ends.shape[0]):
        e = ends[b]
        if e > i:
            acc_num[:] = 0.0
            acc_nom[:] = 0
            for s0 in range(i, e, COUNT_ROWS):
                counts[:] = 0
                _sum_diffs(num, nom, r, chosen[s0:min(e, s0 + COUNT_ROWS)],
                           acc_num, counts)
                for g in range(counts.shape[0]):
                    acc_nom[g] += counts[g]
            _add_run(coef[i], acc_num, acc_nom, upd)
        i = e


@njit(**FAST)
def _sum_block_diffs(rows, codes, num, nom, acc_num, counts, waiting, j0,
                     j1):
    """acc_num[i, c] += diff(A, R_i, I_j) (and the nominal mismatches to
    ``counts``) for every other row j in [j0, j1) whose bucket for visit i
    is c (codes[i, j] = c >= 0), for each visit i of the block: row j is
    loaded once for all of them.  Each bucket's rows are added in ascending
    j and in pairs, as ``_sum_diffs`` adds them: the first of a pair waits
    in ``waiting[i, c]`` (visits x buckets; -1: none) for the second."""
    for j in range(j0, j1):
        xj, cj = num[j], nom[j]
        for i in range(rows.shape[0]):
            c = codes[i, j]
            if c < 0:
                continue
            p = waiting[i, c]
            if p < 0:
                waiting[i, c] = j
            else:
                _sum_diff_pair(num[rows[i]], nom[rows[i]], num[p], nom[p], xj,
                               cj, acc_num[i, c], counts[i, c])
                waiting[i, c] = -1


@njit(**JIT)
def _add_counts(acc_nom, counts):
    """acc_nom += counts (block x buckets x features), in place."""
    for i in range(counts.shape[0]):
        for c in range(counts.shape[1]):
            a, d = acc_nom[i, c], counts[i, c]
            for g in range(d.shape[0]):
                a[g] += d[g]


@njit(**FAST)
def _add_waiting(rows, num, nom, acc_num, counts, waiting):
    """The rows left waiting for a pair (each bucket's odd last row)."""
    for i in range(rows.shape[0]):
        for c in range(waiting.shape[1]):
            p = waiting[i, c]
            if p >= 0:
                _sum_diff(num[rows[i]], nom[rows[i]], num[p], nom[p],
                          acc_num[i, c], counts[i, c])


@njit(**JIT)
def update_block(rows, codes, shares, num, nom, acc_num, acc_nom, counts,
                 upd):
    """upd[i] += the radius-rule update of visiting rows[i], for a block of
    visits at once (dense, no missing values): ``codes[i, j]`` is row j's
    bucket for visit i (-1: none; ``neighbours.Buffers``), ``shares[i, b]``
    bucket b's coefficient (0: empty).  Each bucket's diffs are summed in
    ascending j, as ``_update_in_runs`` sums them, so the weights are those
    of one visit at a time.  Work space (block x buckets x features):
    ``acc_num``, ``acc_nom`` (int64) and ``counts`` (int16, nominal
    mismatches of COUNT_ROWS rows at a time: sixteen to a vector register)."""
    n = num.shape[0]
    acc_num[:] = 0.0
    acc_nom[:] = 0
    waiting = np.full(shares.shape, -1, np.int64)
    for j0 in range(0, n, COUNT_ROWS):
        counts[:] = 0
        _sum_block_diffs(rows, codes, num, nom, acc_num, counts, waiting, j0,
                         min(n, j0 + COUNT_ROWS))
        _add_counts(acc_nom, counts)
    counts[:] = 0
    _add_waiting(rows, num, nom, acc_num, counts, waiting)
    _add_counts(acc_nom, counts)
    for i in range(rows.shape[0]):
        for b in range(shares.shape[1]):
            if shares[i, b] != 0.0:
                _add_run(shares[i, b], acc_num[i, b], acc_nom[i, b], upd[i])
