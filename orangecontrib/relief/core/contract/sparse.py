"""Distances on sparse rows (CSR, zeros are values), and the running row sums
that let dReliefF / pdReliefF keep them cheap.

With b(A, v) = diff(A, 0, v) and the weighted row sums B_j = sum_A w_A
b(A, x_jA), the distance is delta(R, I_j) = B_R + B_j - overlap_j, where the
overlap corrects the features stored in both rows (``overlaps``): a visit
costs n plus the stored entries of the columns R has values in, not n a.

The feedback variants change the weights at every visit, so B_j would cost
every stored entry each time.  Instead, per-row sums of the tracked
quantities s(A) (``track_row_sums``) follow the weights feature by feature:
only the columns whose weight changed are walked, and pdReliefF lets small
changes wait (the neighbours are then screened with the bound this leaves).
"""
from typing import NamedTuple

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from .diffs import JIT, from_zero
from .distances import TIE_RTOL
from .nominal import trailing_zeros

# Walks over sparse columns in scattered order request the columns this many
# steps ahead (and up to PREFETCH_LINES cache lines of each) before they are
# needed: a walk is bound by memory latency, not by arithmetic (measured on
# 200 random columns of a 5,000 x 20,000 1 % matrix: 8.0 -> 4.5 ns per entry).
PREFETCH_AHEAD = 4
PREFETCH_LINES = 4


class RowSums(NamedTuple):
    """The sparse feedback variants' running sums, kept from batch to batch
    (``track_row_sums``): ``sums[c, q, j]`` = row j's sum over the features
    of part c of diff(A, 0, x_jA) s_q(A), for the s(A) in ``applied``
    (3 x a); ``full_base`` the rows' unweighted sums B_j (largest
    ``max_full``), ``col_base`` the columns' sums of diff(A, 0, x) (total
    ``sum_col``); ``split`` the parts' feature boundaries
    (``feature_parts``).  Empty for dense data."""
    sums: np.ndarray
    applied: np.ndarray
    full_base: np.ndarray
    split: np.ndarray
    col_base: np.ndarray
    max_full: float
    sum_col: float


@intrinsic
def _prefetch(typingctx, array, index):
    """Ask for the cache line of ``array[index]`` (LLVM ``prefetch``: a hint,
    no effect on results, never faults)."""
    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        data = context.make_array(array_type)(context, builder, args[0])
        pointer = cgutils.get_item_pointer(context, builder, array_type, data,
                                           [args[1]], wraparound=False)
        byte_pointer = ir.IntType(8).as_pointer()
        int32 = ir.IntType(32)
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [
                byte_pointer, int32, int32, int32]), "llvm.prefetch.p0i8")
        builder.call(function, [builder.bitcast(pointer, byte_pointer),
                                ir.Constant(int32, 0),    # read
                                ir.Constant(int32, 3),    # keep in all caches
                                ir.Constant(int32, 1)])   # data
        return context.get_dummy_value()
    return types.void(array, index), codegen


@njit(inline="always", **JIT)
def prefetch_column(rows, f):
    """Prefetch the start of column f of the CSC part (rows and values)."""
    start, stop = rows.col_ptr[f], rows.col_ptr[f + 1]
    for line in range(PREFETCH_LINES):
        if start + 16 * line < stop:
            _prefetch(rows.col_rows, start + 16 * line)
        if start + 8 * line < stop:
            _prefetch(rows.col_values, start + 8 * line)


@njit(**JIT)
def stored_range(rows, j, f0, f1):
    """The positions of row j's stored entries of the features [f0, f1)
    (the column indices of a row are sorted)."""
    start, stop = rows.indptr[j], rows.indptr[j + 1]
    if f0 <= 0 and f1 >= rows.nominal.shape[0]:
        return start, stop
    row = rows.indices[start:stop]
    return (start + np.searchsorted(row, np.uint32(f0)),
            start + np.searchsorted(row, np.uint32(f1)))


@njit(**JIT)
def overlaps(r, rows, w, weighted, out, f0, f1, prefetch):
    """out[j] = sum over the features stored in both R and I_j of
    w_A (b_R + b_j - diff(A, R, I_j)), where b is the difference from zero:
    what B_R + B_j over-count in their distance.  Costs n plus the stored
    entries of the columns R has values in; only R's features in [f0, f1)
    (the sum of the ranges' ``out`` is the whole).  ``prefetch``: request
    the columns a few walks ahead."""
    col_ptr, col_rows, col_values = rows.col_ptr, rows.col_rows, \
        rows.col_values
    out[:] = 0.0
    start, end = stored_range(rows, r, f0, f1)
    for p in range(start, end):
        if prefetch and p + PREFETCH_AHEAD < end:
            prefetch_column(rows, rows.indices[p + PREFETCH_AHEAD])
        f = rows.indices[p]
        v = rows.values[p]
        nominal = rows.nominal[f]
        wf = w[f] if weighted else 1.0
        bv = from_zero(v, nominal)
        for q in range(col_ptr[f], col_ptr[f + 1]):
            u = col_values[q]
            d = (1.0 if v != u else 0.0) if nominal else abs(v - u)
            out[col_rows[q]] += wf * (bv + from_zero(u, nominal) - d)


@njit(**JIT)
def distances(base_r, row_base, overlap, zero, out):
    """out[j] = sum_A w_A diff(A, R, I_j) = B_R + B_j - overlap_j.  The
    subtraction (and the running sums behind B in the feedback variants)
    leave rounding errors of order eps (B_R + max B_j), so results up to
    ``zero`` (TIE_RTOL times that) are 0: equal rows stay exact ties, as in
    the dense computation."""
    for j in range(out.shape[0]):
        d = base_r + row_base[j] - overlap[j]
        out[j] = d if d > zero else 0.0


@njit(**JIT)
def row_sum(j, rows, w, weighted):
    """B_j = sum over I_j's stored features of w_A diff(A, 0, x_jA)."""
    s = 0.0
    for p in range(rows.indptr[j], rows.indptr[j + 1]):
        f = rows.indices[p]
        b = from_zero(rows.values[p], rows.nominal[f])
        s += w[f] * b if weighted else b
    return s


@njit(**JIT)
def row_sums(rows, w, weighted, out):
    """out[j] = B_j for every row (``row_sum``)."""
    for j in range(out.shape[0]):
        out[j] = row_sum(j, rows, w, weighted)


@njit(**JIT)
def column_sums(rows, out):
    """out[A] = sum over the rows of diff(A, 0, x_jA)."""
    for f in range(out.shape[0]):
        s = 0.0
        for q in range(rows.col_ptr[f], rows.col_ptr[f + 1]):
            s += from_zero(rows.col_values[q], rows.nominal[f])
        out[f] = s


@njit(**JIT)
def zero_below(base_r, max_base, eps, max_full):
    """The distance up to which a sparse distance counts as 0
    (``distances``): TIE_RTOL times the largest B_R + B_j (``max_base``: the
    largest B_j, known within ``eps`` times the largest unweighted sum)."""
    return TIE_RTOL * (base_r + max_base + eps * max_full)


@njit(**JIT)
def start_row_sums(rows, n, split):
    """``RowSums`` before the first visit: all sums 0, in the parts of the
    features given by ``split``."""
    a = rows.nominal.shape[0]
    full_base, col_base = np.zeros(n), np.zeros(a)
    row_sums(rows, np.ones(a), False, full_base)
    column_sums(rows, col_base)
    return RowSums(np.zeros((split.shape[0] - 1, 3, n)), np.zeros((3, a)),
                   full_base, split, col_base, full_base.max(),
                   col_base.sum())


def feature_parts(col_ptr, n_parts):
    """Boundaries of ``n_parts`` ranges of features with about equal numbers
    of stored entries (``col_ptr`` is the CSC column pointer)."""
    a = col_ptr.shape[0] - 1
    targets = np.linspace(0, col_ptr[-1], n_parts + 1)[1:-1]
    inner = np.minimum(np.searchsorted(col_ptr, targets), a)
    return np.concatenate([[0], inner, [a]]).astype(np.int64)


# ---------------------------------------------------------------------------
# Running row sums of the feedback variants

@njit(**JIT)
def _tracked(f, w, total, regression, c0):
    """s(A) of feature f (``track_row_sums``): 0 when w_A <= 0, and its
    count s0 is 0 when c0 is (dReliefF needs no counts)."""
    a = w.shape[0]
    if not w[f] > 0.0:
        return 0.0, 0.0, 0.0
    s0 = 1.0 if c0 != 0.0 else 0.0
    s1 = total[1 + f] if regression else total[f]
    s2 = total[1 + a + f] if regression else 0.0
    return s0, s1, s2


@njit(**JIT)
def pending_changes(w, total, regression, coefs, applied, f0, f1, out):
    """out[A - f0] = e_A, the change of feature A in [f0, f1) that
    ``track_row_sums`` has not applied (``_tracked``), or -1 where there is
    none.  Branch-free: a branch on w_A > 0 was mispredicted often.

    Relies on what ``_tracked`` makes of ``applied``: for classification
    its row 2 stays 0, and so does row 0 when c0 = 0 (dReliefF); those rows
    are not read then (a third less to read at every step)."""
    a = w.shape[0]
    c0, c1, c2 = coefs
    wp, a1 = w[f0:f1], applied[1, f0:f1]
    if not regression:
        s1 = total[f0:f1]
        if c0 == 0.0:
            for i in range(f1 - f0):
                d1 = s1[i] * np.float64(wp[i] > 0.0) - a1[i]
                out[i] = abs(c1 * d1) if d1 != 0.0 else -1.0
            return
        a0 = applied[0, f0:f1]
        for i in range(f1 - f0):
            on = np.float64(wp[i] > 0.0)
            d0 = on - a0[i]
            d1 = s1[i] * on - a1[i]
            e = abs(c0 * d0) + abs(c1 * d1)
            out[i] = e if (d0 != 0.0) | (d1 != 0.0) else -1.0
        return
    counted = 1.0 if c0 != 0.0 else 0.0
    s1 = total[1 + f0:1 + f1]
    s2 = total[1 + a + f0:1 + a + f1]
    a0, a2 = applied[0, f0:f1], applied[2, f0:f1]
    for i in range(f1 - f0):
        on = np.float64(wp[i] > 0.0)     # (the totals are finite)
        d0 = counted * on - a0[i]
        d1 = s1[i] * on - a1[i]
        d2 = s2[i] * on - a2[i]
        e = abs(c0 * d0) + abs(c1 * d1) + abs(c2 * d2)
        changed = (d0 != 0.0) | (d1 != 0.0) | (d2 != 0.0)
        out[i] = e if changed else -1.0


@njit(**JIT)
def _columns_to_walk(errors, theta, f0, todo):
    """Write the features f0 + i with errors[i] > theta, in order, to
    ``todo``; return how many.  The comparisons of 64 features go into the
    bits of a word first (as in ``neighbours._within``)."""
    n_todo = 0
    m = errors.shape[0]
    for i0 in range(0, m, 64):
        word = np.uint64(0)
        for b in range(min(64, m - i0)):
            word |= np.uint64(errors[i0 + b] > theta) << np.uint64(b)
        while word:
            todo[n_todo] = f0 + i0 + np.int64(trailing_zeros(word))
            n_todo += 1
            word &= word - np.uint64(1)
    return n_todo


@njit(**JIT)
def track_row_sums(rows, w, total, regression, coefs, theta, applied, sums,
                   f0, f1, prefetch):
    """Keep ``sums[:, j]`` close to ``sum over features A in [f0, f1) with
    w_A > 0 of diff(A, 0, x_jA) * s(A)``, where s(A) = (1, total[A], 0) for
    classification and (1, N_dA, N_dCdA) for regression: the distance
    weights of dReliefF and pdReliefF are w_A = coefs . s(A) with the same
    coefficients for every feature (``estimates.row_sum_coefficients``).

    ``applied`` (3 x a) holds the s(A) the sums include.  A feature whose
    pending change would move a row's weighted sum by more than ``theta``
    per unit of diff (e_A = sum_q |coefs_q (s_q(A) - applied_q(A))|) has its
    column walked now; the others wait, so a step costs the stored entries
    of the features that changed enough, not of all that changed.  Returns
    the largest e_A left pending (then every row's weighted sum from
    ``sums`` is within that times sum_A diff(A, 0, x_jA) of the true one;
    the feedback loop screens with this bound) and the number of stored
    entries walked."""
    col_ptr, col_rows, col_values = rows.col_ptr, rows.col_rows, \
        rows.col_values
    c0 = coefs[0]
    errors = np.empty(f1 - f0)
    pending_changes(w, total, regression, coefs, applied, f0, f1, errors)
    # the largest change left waiting, in a pass of its own (inside the
    # mask loop, this maximum's chain of dependent steps took 4x its time);
    # with theta = 0 nothing waits
    pending = 0.0
    if theta > 0.0:
        for e in errors:
            pending = max(pending, e if e <= theta else 0.0)
    todo = np.empty(f1 - f0, np.int64)
    n_todo = _columns_to_walk(errors, theta, f0, todo)
    walked = 0
    for i in range(n_todo):
        if prefetch and i + PREFETCH_AHEAD < n_todo:
            prefetch_column(rows, todo[i + PREFETCH_AHEAD])
        f = todo[i]
        walked += col_ptr[f + 1] - col_ptr[f]
        nominal = rows.nominal[f]
        target = _tracked(f, w, total, regression, c0)
        # one pass per changed sum (s(A)[0] changes only when A joins or
        # leaves): a scatter into one array is about twice as fast as into
        # several
        for q in range(3):
            delta = target[q] - applied[q, f]
            applied[q, f] = target[q]
            if delta == 0.0:
                continue
            out = sums[q]
            if nominal:
                for p in range(col_ptr[f], col_ptr[f + 1]):
                    if col_values[p] != 0:
                        out[col_rows[p]] += delta
            else:
                for p in range(col_ptr[f], col_ptr[f + 1]):
                    out[col_rows[p]] += delta * abs(col_values[p])
    return pending, walked


@njit(**JIT)
def tracked_row_sums(sums, coefs, out):
    """out[j] = sum_A w_A diff(A, 0, x_jA) from the parts' sums of
    ``track_row_sums`` (within their pending bound)."""
    out[:] = 0.0
    for part in sums:
        for q in range(3):
            c = coefs[q]
            if c != 0.0:
                values = part[q]
                for j in range(out.shape[0]):
                    out[j] += c * values[j]
