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

from .diffs import JIT, from_zero, nominal_diff, numeric_diff
from .distances import FAST
from .sparse import stored_range


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


@njit(**JIT)
def _add_diffs_missing(xr, xj, cr, cj, gr, gj, tables, scale, out, offset):
    """The same with RELIEF-D for missing values."""
    a_num = xr.shape[0]
    for f in range(a_num):
        out[offset + f] += scale * numeric_diff(f, xr[f], xj[f], gr, gj,
                                                tables)
    for g in range(cr.shape[0]):
        out[offset + a_num + g] += scale * nominal_diff(g, cr[g], cj[g], gr,
                                                        gj, tables)


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
            d_target = abs(target[r] - target[chosen[i]])
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
        cd = abs(target[r] - target[j]) * c if regression else 0.0
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
def update(r, chosen, coef, n_chosen, data, regression, scratch, upd,
           grouped=False):
    """Add the update of visiting R to ``upd`` (see the module docstring).
    ``scratch``: zeros, one per feature, for sparse data.  ``grouped``: the
    neighbours come in runs of equal coefficients (a radius rule's groups):
    each run's diffs are summed before one multiplication."""
    if data.sparse:
        update_sparse(r, chosen, coef, n_chosen, data.rows, data.target,
                      regression, scratch, upd, 0, scratch.shape[0])
        return
    if grouped and not regression and not data.has_missing:
        _update_in_runs(r, chosen, coef, n_chosen, data.num, data.nom, upd)
        return
    num, nom, group, target = data.num, data.nom, data.group, data.target
    a = (upd.shape[0] - 1) // 2 if regression else upd.shape[0]
    for i in range(n_chosen):
        j = chosen[i]
        scale, offset, d_target = coef[i], 0, 0.0
        if regression:
            d_target = abs(target[r] - target[j])
            upd[0] += d_target * coef[i]
            offset = 1
        for part in range(2 if regression else 1):
            # (the dense call gets no missing-value tables: passing that
            # tuple of arrays cost more than the arithmetic on 50 features)
            if data.has_missing:
                _add_diffs_missing(num[r], num[j], nom[r], nom[j], group[r],
                                   group[j], data.missing, scale, upd,
                                   offset)
            else:
                _add_diffs_dense(num, nom, r, j, scale, upd, offset)
            scale, offset = d_target * coef[i], 1 + a


@njit(**FAST)
def _sum_diffs(num, nom, r, rows, acc_num, acc_nom):
    """acc += diff(A, R, I_j) for every j of ``rows`` (dense, no missing
    values): numeric |x_R - x_j| and nominal mismatch counts, vectorised
    over the features."""
    xr, cr = num[r], nom[r]
    for j in rows:
        xj, cj = num[j], nom[j]
        for f in range(xr.shape[0]):
            acc_num[f] += abs(xr[f] - xj[f])
        for g in range(cr.shape[0]):
            acc_nom[g] += cr[g] != cj[g]


@njit(**JIT)
def _update_in_runs(r, chosen, coef, n_chosen, num, nom, upd):
    """upd += sum over the neighbours of coef * diff, the neighbours of each
    run of equal coefficients summed first (hundreds of neighbours within a
    radius: one multiplication per feature and run, not per neighbour)."""
    a_num = num.shape[1]
    acc_num = np.empty(a_num)
    acc_nom = np.empty(nom.shape[1], np.int64)
    i = 0
    while i < n_chosen:
        e = i + 1
        while e < n_chosen and coef[e] == coef[i]:
            e += 1
        acc_num[:] = 0.0
        acc_nom[:] = 0
        _sum_diffs(num, nom, r, chosen[i:e], acc_num, acc_nom)
        c = coef[i]
        for f in range(a_num):
            upd[f] += c * acc_num[f]
        for g in range(acc_nom.shape[0]):
            upd[a_num + g] += c * np.float64(acc_nom[g])
        i = e


@njit(**JIT)
def add_rows(rows, total):
    """total += rows[0] + rows[1] + ..., in that order."""
    for i in range(rows.shape[0]):
        for f in range(total.shape[0]):
            total[f] += rows[i, f]
