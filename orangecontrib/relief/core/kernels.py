"""The hot loops of the Relief engine, compiled with numba.

One visit of an instance R (seed Fig. relieff) is three steps, each a small
function here: the distances from R to every instance (eq. relief_distance, or
the weighted eq. weighted_distance), the k nearest hits and misses with ties at
the k-th distance shared fractionally, and the update of the running sums.
ReliefF visits instances independently, so the engine runs ``relief_rows`` on
chunks of instances in several threads (the kernels release the GIL); the
feedback variants depend on the previous step, so ``feedback_batch`` runs them
in order and, for long rows, spreads each distance row over threads instead.

Kernel layout: ``num`` (n x a_num, normalised, NaN missing) and ``nom`` (n x
a_nom codes, -1 missing); per-feature vectors hold the numeric features first,
then the nominal ones.  An update row holds, for classification, the a weight
sums; for regression ``[N_dC, N_dA (a), N_dCdA (a)]`` (RReliefF).
"""
import numpy as np
from llvmlite import ir
from numba import njit, prange, types
from numba.core import cgutils
from numba.extending import intrinsic

from .nominal import (fill_tables, mismatches_block4, table_unit,
                      trailing_zeros, weighted_mismatch_sums)

_JIT = dict(cache=True, nogil=True)
# In the ``parallel=True`` kernels, a NumPy reduction, array expression or
# ``np.zeros`` outside the ``prange`` becomes a parallel loop of its own, with
# a fork and join of the threads (~2 us each: three of them were 5 % of a
# pdReliefF visit on GAMETES): write those as plain loops.
# For the sums over features without missing values: reassociation lets LLVM
# use SIMD; every pair of rows still gets the same sequence of operations.
_FAST = dict(cache=True, nogil=True,
             fastmath={"reassoc", "nsz", "contract", "arcp"})

MODE_PER_CLASS, MODE_ANY, MODE_REGRESSION = 0, 1, 2
VARIANT_RELIEFF, VARIANT_D, VARIANT_PD = 0, 1, 2

# The feedback variants split one distance row over threads, which costs a
# barrier per visited instance: worth it for rows of this many terms (on an
# idle 2-core machine, dReliefF on 5,000 x 200 took 2.46 s serial and 1.14 s
# split; on a busy machine a barrier can wait for a descheduled thread).
PARALLEL_ROW_TERMS = 250_000

# ReliefF's distance buffer: visited rows that share a pass over the data
# (a multiple of 4, at most BLOCK_ROWS, and at most BLOCK_BYTES per thread),
# and the tile of other rows that stays in cache meanwhile (TILE_BYTES).
BLOCK_ROWS = 16
BLOCK_BYTES = 8_000_000
TILE_BYTES = 256 * 1024
# ReliefF's tiled distances sum at most this many features in float32 before
# adding to float64, which keeps their error bound (``min_form_bound``)
# small on wide data.
MIN_FORM_CHUNK = 4096
# Numeric data with at most BY_FEATURE_MAX features (and no nominal ones) is
# screened feature by feature, in tiles of BY_FEATURE_TILE other rows.
BY_FEATURE_MAX = 64
BY_FEATURE_TILE = 1024

# The dense screened feedback variants compute the screening distances of up
# to GROUP_MAX consecutive visits in one pass over the data, with the
# distance weights of the first (``feedback_batch``), when the screening copy
# is at least GROUP_MIN_BYTES: a pass over data in cache is not bound by
# memory, and groups only cost (measured on 2 cores: pdReliefF on 10,000 x
# 500, a 10 MB copy, 17.2 -> 11.2 s; dReliefF on 5,000 x 200, 4 MB, 0.72 ->
# 0.94 s).
GROUP_MAX = 16
GROUP_MIN_BYTES = 8_000_000
# A new column order of the screening copy (``_screen_order``) costs about
# as much as this many screens of the whole copy (measured on 2 cores:
# 2.8 ms against 0.62 ms on 10,000 x 500 uint16, 5.5 ms against 1.4 ms on
# 2,000 x 5,000).
REORDER_SCREENS = 4.0

# The sparse feedback variants' waiting threshold (``feedback_batch``) stays
# within these multiples of the mean distance weight.
LAZY_MIN, LAZY_MAX = 1e-6, 1.0

# Walks over sparse columns in scattered order request the columns this many
# steps ahead (and up to PREFETCH_LINES cache lines of each) before they are
# needed: a walk is bound by memory latency, not by arithmetic (measured on
# 200 random columns of a 5,000 x 20,000 1 % matrix: 8.0 -> 4.5 ns per entry).
PREFETCH_AHEAD = 4
PREFETCH_LINES = 4

# Distances within this relative difference are the same distance (a tie):
# sums of the same diffs in another feature order differ only by rounding.
TIE_RTOL = 1e-10

# _neighbours finds each group's k-th distance among the rows within the
# k-th distance of every SAMPLE_STEP-th row (on rows of at least
# SAMPLE_MIN_ROWS): the heaps' branches see a few hundred rows, not all.
SAMPLE_STEP = 8
SAMPLE_MIN_ROWS = 256


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


@njit(**_JIT)
def _prefetch_column(cptr, crows, cvals, f):
    """Prefetch the start of column f of a CSC matrix (rows and values)."""
    start, stop = cptr[f], cptr[f + 1]
    for line in range(PREFETCH_LINES):
        if start + 16 * line < stop:
            _prefetch(crows, start + 16 * line)
        if start + 8 * line < stop:
            _prefetch(cvals, start + 8 * line)


@njit(**_JIT)
def _expected_abs(sorted_vals, prefix, start, pstart, count, v):
    """E|X - v| for X uniform over a sorted sample (RELIEF-D, numeric)."""
    lo, hi = start, start + count
    while lo < hi:
        mid = (lo + hi) >> 1
        if sorted_vals[mid] < v:
            lo = mid + 1
        else:
            hi = mid
    below = lo - start
    sum_below = prefix[pstart + below]
    sum_all = prefix[pstart + count]
    return (v * below - sum_below + (sum_all - sum_below)
            - v * (count - below)) / count


@njit(**_JIT)
def _num_diff(f, a, b, ca, cb, mt):
    """diff of numeric feature f; ca, cb are the rows' classes (eq. relief_d)."""
    if a == a:
        if b == b:
            return abs(a - b)
        return _expected_abs(mt[0], mt[1], mt[2][f, cb], mt[3][f, cb],
                             mt[4][f, cb], a)
    if b == b:
        return _expected_abs(mt[0], mt[1], mt[2][f, ca], mt[3][f, ca],
                             mt[4][f, ca], b)
    return mt[5][f, ca, cb]


@njit(**_JIT)
def _nom_diff(g, a, b, ca, cb, mt):
    """diff of nominal feature g: overlap, or RELIEF-D when a value is missing."""
    if a >= 0:
        if b >= 0:
            return 0.0 if a == b else 1.0
        return 1.0 - mt[6][g, cb, a]
    if b >= 0:
        return 1.0 - mt[6][g, ca, b]
    return mt[7][g, ca, cb]


@njit(**_FAST)
def _l1(x, y):
    s = 0.0
    for f in range(x.shape[0]):
        s += abs(x[f] - y[f])
    return s


@njit(**_FAST)
def _l1_weighted(x, y, w, zero):
    s = zero
    for f in range(x.shape[0]):
        s += w[f] * abs(x[f] - y[f])
    return s


@njit(**_FAST)
def _mismatches(x, y):
    count = 0
    for g in range(x.shape[0]):
        count += x[g] != y[g]
    return count


@njit(**_FAST)
def _mismatches_weighted(x, y, w, zero):
    s = zero
    for g in range(x.shape[0]):
        # (a product, not a select: 2-3x faster here, one row at a time;
        # the four-row loop of _screen_distances is faster with the select)
        s += w[g] * (x[g] != y[g])
    return s


@njit(**_JIT)
def _distances(r, num, nom, w, weighted, has_missing, group, mt, out, j0, j1):
    """out[j] = sum_A w_A diff(A, R, I_j) for j in [j0, j1)."""
    a_num, a_nom = num.shape[1], nom.shape[1]
    xr, cr, gr = num[r], nom[r], group[r]
    w_num, w_nom = w[:a_num], w[a_num:]
    zero = np.zeros(1, w.dtype)[0]
    for j in range(j0, j1):
        xj, cj = num[j], nom[j]
        if has_missing:
            s = 0.0
            gj = group[j]
            for f in range(a_num):
                d = _num_diff(f, xr[f], xj[f], gr, gj, mt)
                s += w[f] * d if weighted else d
            for g in range(a_nom):
                d = _nom_diff(g, cr[g], cj[g], gr, gj, mt)
                s += w[a_num + g] * d if weighted else d
        elif weighted:
            s = (_l1_weighted(xr, xj, w_num, zero)
                 + _mismatches_weighted(cr, cj, w_nom, zero))
        else:
            s = _l1(xr, xj) + _mismatches(cr, cj)
        out[j] = s


@njit(**_FAST)
def _min_sums_block4(rows, num, f0, f1, zero, out, j0, j1):
    """out[i, j] += sum_f min(num[rows[i], f], num[j, f]) over the features
    f in [f0, f1), for i < 4 and j in [j0, j1), summed in the type of
    ``zero`` (float32 for the screening copy).

    ``_distances_tiled`` turns these into distances with
    |x - y| = x + y - 2 min(x, y): a min and an add per term instead of a
    subtract, an abs and an add (1.6-1.9x more terms per second on AVX2).
    A 4 x 2 register tile: four visited rows against two other rows, so the
    eight sums and the loaded values fit in AVX2's 16 vector registers (a
    4 x 4 tile spilled sums to the stack at every feature)."""
    x0, x1 = num[rows[0], f0:f1], num[rows[1], f0:f1]
    x2, x3 = num[rows[2], f0:f1], num[rows[3], f0:f1]
    width = f1 - f0
    j = j0
    while j + 2 <= j1:
        y0, y1 = num[j, f0:f1], num[j + 1, f0:f1]
        s00 = s01 = s10 = s11 = s20 = s21 = s30 = s31 = zero
        for f in range(width):
            v0, v1 = y0[f], y1[f]
            u = x0[f]
            s00 += min(u, v0)
            s01 += min(u, v1)
            u = x1[f]
            s10 += min(u, v0)
            s11 += min(u, v1)
            u = x2[f]
            s20 += min(u, v0)
            s21 += min(u, v1)
            u = x3[f]
            s30 += min(u, v0)
            s31 += min(u, v1)
        out[0, j] += s00
        out[0, j + 1] += s01
        out[1, j] += s10
        out[1, j + 1] += s11
        out[2, j] += s20
        out[2, j + 1] += s21
        out[3, j] += s30
        out[3, j + 1] += s31
        j += 2
    if j < j1:
        y0 = num[j, f0:f1]
        s00 = s10 = s20 = s30 = zero
        for f in range(width):
            v0 = y0[f]
            s00 += min(x0[f], v0)
            s10 += min(x1[f], v0)
            s20 += min(x2[f], v0)
            s30 += min(x3[f], v0)
        out[0, j] += s00
        out[1, j] += s10
        out[2, j] += s20
        out[3, j] += s30


@njit(**_JIT)
def _distances_tiled(rows, num, row_sums, planes, out, tile, chunk):
    """Screening distances from each of ``rows`` (a multiple of 4) to every
    row: numeric terms from ``num`` (values in [0, 1], ``row_sums`` their
    float64 sums per row) as S_R + S_j - 2 sum_f min(x_Rf, x_jf), the sum
    taken in float64 over parts of ``chunk`` features, within
    ``min_form_bound`` of the float64 distances; nominal mismatch counts
    (exact) from their bit-planes (``planes = (bits, n_bits)``,
    ``nominal.pack_planes``).

    The other rows are walked in tiles of ``tile`` rows that stay in cache
    while every group of four visited rows passes over them, so the data is
    read from memory once per ``len(rows)`` visited rows, not once per four.
    """
    bits, n_bits = planes
    n = out.shape[1]
    zero = np.zeros(1, num.dtype)[0]
    for j0 in range(0, n, tile):
        j1 = min(n, j0 + tile)
        for b in range(0, rows.shape[0], 4):
            block = out[b:b + 4]
            block[:, j0:j1] = 0.0
            for f0 in range(0, num.shape[1], chunk):
                _min_sums_block4(rows[b:b + 4], num, f0,
                                 min(num.shape[1], f0 + chunk), zero, block,
                                 j0, j1)
            for i in range(4):
                s_r = row_sums[rows[b + i]]
                for j in range(j0, j1):
                    block[i, j] = s_r + row_sums[j] - 2.0 * block[i, j]
            if bits.shape[1] > 0:
                mismatches_block4(rows[b:b + 4], bits, n_bits, block, j0, j1)


@njit(**_FAST)
def _distances_block4_by_feature(rows, num_t, out, j0, j1, acc):
    """Numeric distances sum_f |x_Rf - x_jf| from rows[i] (i < 4) to rows j
    in [j0, j1), for data stored feature by feature (``num_t`` is a x n): the
    loop runs along other rows, so SIMD needs no sum across lanes per pair,
    which dominates when a is small (here the min form of
    ``_min_sums_block4`` gains nothing: the sums' loads and stores bound
    it).  ``acc`` (4 x at least j1 - j0) holds the running sums in
    ``num_t``'s type."""
    a = num_t.shape[0]
    width = j1 - j0
    acc0, acc1, acc2, acc3 = acc[0], acc[1], acc[2], acc[3]
    for t in range(width):
        acc0[t] = 0
        acc1[t] = 0
        acc2[t] = 0
        acc3[t] = 0
    for f in range(a):
        column = num_t[f]
        u0, u1 = column[rows[0]], column[rows[1]]
        u2, u3 = column[rows[2]], column[rows[3]]
        others = column[j0:j1]
        for t in range(width):
            v = others[t]
            acc0[t] += abs(u0 - v)
            acc1[t] += abs(u1 - v)
            acc2[t] += abs(u2 - v)
            acc3[t] += abs(u3 - v)
    for t in range(width):
        out[0, j0 + t] = acc0[t]
        out[1, j0 + t] = acc1[t]
        out[2, j0 + t] = acc2[t]
        out[3, j0 + t] = acc3[t]


@njit(**_JIT)
def _distances_tiled_by_feature(rows, num_t, out, acc):
    """Numeric distances from each of ``rows`` (a multiple of 4) to every
    row, for feature-major data, in tiles of ``acc.shape[1]`` other rows
    (within ``screen_bound`` of the float64 ones)."""
    n, tile = num_t.shape[1], acc.shape[1]
    for j0 in range(0, n, tile):
        j1 = min(n, j0 + tile)
        for b in range(0, rows.shape[0], 4):
            _distances_block4_by_feature(rows[b:b + 4], num_t, out[b:b + 4],
                                         j0, j1, acc)


@njit(**_FAST)
def _l1_weighted_float32(x, y, w):
    """sum_A w_A |x_A - y_A| in float32, for a float32 or a uint16 copy."""
    s = np.float32(0)
    for f in range(x.shape[0]):
        s += w[f] * abs(np.float32(x[f]) - np.float32(y[f]))
    return s


@njit(**_FAST)
def _screen_distances(r, copy, nom, w32, lut, out, j0, j1):
    """Weighted screening distances from R to rows [j0, j1) of the float32
    or uint16 screening copy of the numeric data (dense, nothing missing);
    ``w32`` holds the numeric weights times the copy's unit (in the copy's
    column order), then the nominal weights.  Only the first ``lut[6]``
    columns are summed: the others have weight 0 (``_screen_order``).
    Four other rows at a time, so R's values and the weights are loaded
    once for four rows.  When ``lut`` (``_weighted_screen``)
    holds bit-planes, the nominal features are left out: their part comes
    from lookup tables (``_screen_distances_rows``)."""
    tabled = lut[0].shape[1] > 0
    a_num, span = copy.shape[1], lut[6]
    a_nom = 0 if tabled else nom.shape[1]
    xr, cr = copy[r], nom[r, :a_nom]
    w_num, w_nom = w32[:span], w32[a_num:a_num + a_nom]
    zero = np.float32(0)
    j = j0
    while j + 4 <= j1:
        y0, y1, y2, y3 = copy[j], copy[j + 1], copy[j + 2], copy[j + 3]
        s0 = s1 = s2 = s3 = zero
        for f in range(span):
            u, wf = np.float32(xr[f]), w_num[f]
            s0 += wf * abs(u - np.float32(y0[f]))
            s1 += wf * abs(u - np.float32(y1[f]))
            s2 += wf * abs(u - np.float32(y2[f]))
            s3 += wf * abs(u - np.float32(y3[f]))
        d0, d1, d2, d3 = (nom[j, :a_nom], nom[j + 1, :a_nom],
                          nom[j + 2, :a_nom], nom[j + 3, :a_nom])
        for g in range(a_nom):
            u, wg = cr[g], w_nom[g]
            s0 += wg if u != d0[g] else zero
            s1 += wg if u != d1[g] else zero
            s2 += wg if u != d2[g] else zero
            s3 += wg if u != d3[g] else zero
        out[j], out[j + 1], out[j + 2], out[j + 3] = s0, s1, s2, s3
        j += 4
    for j in range(j, j1):
        out[j] = (_l1_weighted_float32(xr[:span], copy[j, :span], w_num)
                  + _mismatches_weighted(cr, nom[j, :a_nom], w_nom, zero))


@njit(parallel=True, **_JIT)
def _screen_distances_rows(rows, copy, nom, w32, lut, out, n_chunks):
    """Screening distances from each of ``rows`` to every row (out[i] for
    rows[i]) in ``n_chunks`` parallel parts.

    Part c computes ``_screen_distances`` to the c-th range of the other
    rows, walked in tiles of about TILE_BYTES that stay in cache while every
    one of ``rows`` passes over them (the data is read from memory once for
    all of ``rows``).  With bit-planes in ``lut = (planes, n_bits, tables,
    unit, w_nom, sums, span)`` (``_weighted_screen``), part c also fills the
    lookup tables of the c-th range of their words (``nominal.fill_tables``)
    and sums them into ``sums[c]`` for every row
    (``nominal.weighted_mismatch_sums``): the tables are built by all
    threads (on GAMETES 1,600 x 1,000 a serial build took a tenth of
    dReliefF's time).  ``out`` then gets unit times the whole integer sum,
    the same number as from one pass over all words."""
    n = copy.shape[0]
    planes, n_bits, tables, unit, w_nom, sums, _ = lut
    tabled = planes.shape[1] > 0
    n_words = planes.shape[1] // n_bits
    row_bytes = copy.itemsize * copy.shape[1] + (
        8 * planes.shape[1] if tabled else nom.itemsize * nom.shape[1])
    tile = max(16, TILE_BYTES // max(row_bytes, 1))
    m = rows.shape[0]
    for c in prange(n_chunks):
        c0, c1 = c * n // n_chunks, (c + 1) * n // n_chunks
        for j0 in range(c0, c1, tile):
            j1 = min(c1, j0 + tile)
            for i in range(m):
                _screen_distances(rows[i], copy, nom, w32, lut, out[i], j0,
                                  j1)
        if tabled:
            k0, k1 = c * n_words // n_chunks, (c + 1) * n_words // n_chunks
            fill_tables(w_nom, unit, tables, 8 * k0, 8 * k1)
            part = sums[c]
            part[:m] = 0
            for j0 in range(0, n, tile):
                j1 = min(n, j0 + tile)
                for i in range(m):
                    weighted_mismatch_sums(rows[i], planes, n_bits, tables,
                                           part[i], j0, j1, k0, k1)
    if tabled:
        for i in range(m):
            for j in range(n):
                total = sums[0, i, j]
                for c in range(1, n_chunks):
                    total += sums[c, i, j]
                out[i, j] += unit * np.float64(total)


@njit(parallel=True, **_JIT)
def _update_and_screen_nominal(rows, nom, planes, n_bits, r, chosen, coef,
                               n_chosen, total, t, variant, T, w, tables,
                               sums, parts, out):
    """All-nominal data, classification: the previous visit's update (of R
    = ``r`` by its ``n_chosen`` neighbours), the distance weights of step
    ``t`` and the screening distances from ``rows`` to every row, in one
    parallel region instead of three serial steps and one region.

    Part c takes the c-th range of the bit-planes' words and their
    features: it adds the update to ``total`` (per feature and neighbour in
    the order ``_update`` uses: the same sums), computes those features'
    w_A (as ``_feedback_weights``), rounds them with its own unit
    (``table_unit`` of the part; no part waits for the largest weight of
    another), fills their lookup tables and sums them for every row.
    ``out[i]`` = the sum over the parts of unit_c times part c's integer
    sum.  ``parts[c] = (positive weights, rounding error)``.  Returns (c,
    gamma) of ``_neighbours``'s screen, or (-1, 0) when every w_A <= 0 (the
    caller then uses weights 1, as ``distance_weights``)."""
    n = planes.shape[0]
    a = w.shape[0]
    n_parts = sums.shape[0]
    n_words = planes.shape[1] // n_bits
    m = rows.shape[0]
    tile = max(16, TILE_BYTES // (8 * planes.shape[1]))
    values = sums.view(np.float64)
    for c in prange(n_parts):
        k0, k1 = c * n_words // n_parts, (c + 1) * n_words // n_parts
        f0, f1 = min(64 * k0, a), min(64 * k1, a)
        if n_chosen > 0:
            upd = np.zeros(f1 - f0)
            cr = nom[r, f0:f1]
            for i in range(n_chosen):
                cj, s = nom[chosen[i], f0:f1], coef[i]
                for g in range(f1 - f0):
                    upd[g] += s if cr[g] != cj[g] else 0.0
            for g in range(f1 - f0):
                total[f0 + g] += upd[g]
        positive = _weights_of_range(total, t, variant, T, w, f0, f1)
        unit, error = table_unit(w[f0:f1])
        parts[c, 0], parts[c, 1] = positive, error
        fill_tables(w, unit, tables, 8 * k0, 8 * k1)
        part = sums[c]
        part[:m] = 0
        for j0 in range(0, n, tile):
            j1 = min(n, j0 + tile)
            for i in range(m):
                weighted_mismatch_sums(rows[i], planes, n_bits, tables,
                                       part[i], j0, j1, k0, k1)
        # unit times the integer sums, in place (exact below 2^53; from
        # int64, one instruction each, where uint64 takes a branch)
        own, exact = values[c], part.view(np.int64)
        for i in range(m):
            for j in range(n):
                own[i, j] = unit * np.float64(exact[i, j])
    n_positive, error = 0.0, 0.0
    for c in range(n_parts):
        n_positive += parts[c, 0]
        error += parts[c, 1]
    if n_positive == 0:
        return -1.0, 0.0
    for i in range(m):
        o = out[i]
        for j in range(n):
            o[j] = values[0, i, j]
        for c in range(1, n_parts):
            v = values[c, i]
            for j in range(n):
                o[j] += v[j]
    # each product and each addition rounds once, by at most 2^-53 D~
    return error, 1.1 * 2 * n_parts * 2.0 ** -53


@njit(parallel=True, **_JIT)
def _distances_parallel(r, num, nom, w, weighted, has_missing, group, mt, out,
                        n_chunks):
    n = num.shape[0]
    for c in prange(n_chunks):
        _distances(r, num, nom, w, weighted, has_missing, group, mt, out,
                   c * n // n_chunks, (c + 1) * n // n_chunks)


@njit(**_JIT)
def _sparse_base(v, nominal):
    """diff(A, 0, v): what a stored value differs from an implicit zero."""
    if nominal:
        return 1.0 if v != 0 else 0.0
    return abs(v)


@njit(**_JIT)
def _stored_range(sp, j, f0, f1):
    """The positions of row j's stored entries of the features [f0, f1)
    (the column indices of a row are sorted)."""
    indptr, indices = sp[0], sp[1]
    start, stop = indptr[j], indptr[j + 1]
    if f0 <= 0 and f1 >= sp[3].shape[0]:
        return start, stop
    row = indices[start:stop]
    return (start + np.searchsorted(row, np.uint32(f0)),
            start + np.searchsorted(row, np.uint32(f1)))


@njit(**_JIT)
def _sparse_overlaps(r, sp, w, weighted, out, f0, f1):
    """Sparse rows (CSR, zeros are values): out[j] = sum over the features
    stored in both R and I_j of w_A (b_R + b_j - diff(A, R, I_j)), where b
    is the difference from zero: what B_R + B_j (the rows' weighted sums of
    b) over-count in their distance.  Costs n plus the stored entries of the
    columns R has values in; only R's features in [f0, f1) (the sum of the
    ranges' ``out`` is the whole)."""
    indptr, indices, values, col_nominal, cptr, crows, cvals = sp
    out[:] = 0.0
    start, end = _stored_range(sp, r, f0, f1)
    for p in range(start, end):
        if p + PREFETCH_AHEAD < end:
            _prefetch_column(cptr, crows, cvals, indices[p + PREFETCH_AHEAD])
        f = indices[p]
        v = values[p]
        nominal = col_nominal[f]
        wf = w[f] if weighted else 1.0
        bv = _sparse_base(v, nominal)
        for q in range(cptr[f], cptr[f + 1]):
            u = cvals[q]
            d = (1.0 if v != u else 0.0) if nominal else abs(v - u)
            out[crows[q]] += wf * (bv + _sparse_base(u, nominal) - d)


@njit(**_JIT)
def _sparse_distances(base_r, row_base, overlap, zero, out):
    """out[j] = sum_A w_A diff(A, R, I_j) = B_R + B_j - overlap_j on sparse
    rows (``_sparse_overlaps``).  The subtraction (and the running sums
    behind B in the feedback variants) leave rounding errors of order eps
    (B_R + max B_j), so results up to ``zero`` (TIE_RTOL times that) are 0:
    equal rows stay exact ties, as in the dense computation."""
    for j in range(out.shape[0]):
        d = base_r + row_base[j] - overlap[j]
        out[j] = d if d > zero else 0.0


@njit(**_JIT)
def _weighted_row_sum(j, sp, w, weighted):
    """B_j = sum over I_j's stored features of w_A diff(A, 0, x_jA)."""
    indptr, indices, values, col_nominal = sp[0], sp[1], sp[2], sp[3]
    s = 0.0
    for p in range(indptr[j], indptr[j + 1]):
        f = indices[p]
        b = _sparse_base(values[p], col_nominal[f])
        s += w[f] * b if weighted else b
    return s


@njit(**_JIT)
def _sparse_row_base(sp, w, weighted, out):
    """out[j] = B_j for every row (``_weighted_row_sum``)."""
    for j in range(out.shape[0]):
        out[j] = _weighted_row_sum(j, sp, w, weighted)


@njit(**_JIT)
def _sparse_col_base(sp, out):
    """out[A] = sum over the rows of diff(A, 0, x_jA)."""
    col_nominal, cptr, cvals = sp[3], sp[4], sp[6]
    for f in range(out.shape[0]):
        s = 0.0
        for q in range(cptr[f], cptr[f + 1]):
            s += _sparse_base(cvals[q], col_nominal[f])
        out[f] = s


@njit(**_JIT)
def _tracked_sums(f, w, total, regression, c0):
    """s(A) of feature f (``_track_row_base``): 0 when w_A <= 0, and its
    count s0 is 0 when c0 is (dReliefF needs no counts)."""
    a = w.shape[0]
    if not w[f] > 0.0:
        return 0.0, 0.0, 0.0
    s0 = 1.0 if c0 != 0.0 else 0.0
    s1 = total[1 + f] if regression else total[f]
    s2 = total[1 + a + f] if regression else 0.0
    return s0, s1, s2


@njit(**_JIT)
def _pending_changes(w, total, regression, coefs, applied, f0, f1, out):
    """out[A - f0] = e_A, the change of feature A in [f0, f1) that
    ``_track_row_base`` has not applied (``_tracked_sums``), or -1 where
    there is none.  Branch-free: with the bit-mask compaction in
    ``_track_row_base`` it halves the check of all (e.g. 20,000) features
    at every step, where a branch on w_A > 0 was mispredicted often.

    Relies on what ``_tracked_sums`` makes of ``applied``: for
    classification its row 2 stays 0, and so does row 0 when c0 = 0
    (dReliefF); those rows are not read then (a third less to read at
    every step)."""
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


@njit(**_JIT)
def _track_row_base(sp, w, total, regression, coefs, theta, applied, sums,
                    f0, f1):
    """Keep ``sums[:, j]`` close to ``sum over features A in [f0, f1) with
    w_A > 0 of diff(A, 0, x_jA) * s(A)``, where s(A) = (1, total[A], 0) for
    classification and (1, N_dA, N_dCdA) for regression: the distance
    weights of dReliefF and pdReliefF are w_A = coefs . s(A) with the same
    coefficients for every feature (``_row_base_coefficients``).

    ``applied`` (3 x a) holds the s(A) the sums include.  A feature whose
    pending change would move a row's weighted sum by more than ``theta``
    per unit of diff (e_A = sum_q |coefs_q (s_q(A) - applied_q(A))|) has its
    column walked now; the others wait, so a step costs the stored entries
    of the features that changed enough, not of all that changed.  Returns
    the largest e_A left pending (then every row's weighted sum from
    ``sums`` is within that times sum_A diff(A, 0, x_jA) of the true one;
    ``feedback_batch`` screens with this bound) and the number of stored
    entries walked."""
    col_nominal, cptr, crows, cvals = sp[3], sp[4], sp[5], sp[6]
    c0 = coefs[0]
    errors = np.empty(f1 - f0)
    _pending_changes(w, total, regression, coefs, applied, f0, f1, errors)
    # the largest change left waiting, in a pass of its own (in the loop
    # below, this maximum's chain of dependent steps took 4x its time);
    # with theta = 0 nothing waits
    pending = 0.0
    if theta > 0.0:
        for e in errors:
            pending = max(pending, e if e <= theta else 0.0)
    # which columns to walk, in order: the comparisons of 64 features go
    # into the bits of a word first (as in ``_within``)
    todo = np.empty(f1 - f0, np.int64)
    n_todo = 0
    for i0 in range(0, f1 - f0, 64):
        word = np.uint64(0)
        for b in range(min(64, f1 - f0 - i0)):
            word |= np.uint64(errors[i0 + b] > theta) << np.uint64(b)
        while word:
            todo[n_todo] = f0 + i0 + np.int64(trailing_zeros(word))
            n_todo += 1
            word &= word - np.uint64(1)
    # pass 2: the walks, each column requested a few walks ahead
    walked = 0
    for i in range(n_todo):
        if i + PREFETCH_AHEAD < n_todo:
            _prefetch_column(cptr, crows, cvals, todo[i + PREFETCH_AHEAD])
        f = todo[i]
        walked += cptr[f + 1] - cptr[f]
        nominal = col_nominal[f]
        target = _tracked_sums(f, w, total, regression, c0)
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
                for p in range(cptr[f], cptr[f + 1]):
                    if cvals[p] != 0:
                        out[crows[p]] += delta
            else:
                for p in range(cptr[f], cptr[f + 1]):
                    out[crows[p]] += delta * abs(cvals[p])
    return pending, walked


@njit(parallel=True, **_JIT)
def _track_row_base_parallel(sp, w, total, regression, coefs, theta, applied,
                             sums, split, pending, walked, r, overlaps,
                             previous):
    """``_track_row_base`` on the features [split[c], split[c + 1]) into
    ``sums[c]`` for each part c, the parts on separate threads; pending[c]
    and walked[c] get the part's bound and entries walked.  With ``r`` >= 0,
    each part also computes R's ``_sparse_overlaps`` over its features into
    ``overlaps[c]`` (one thread alone took a seventh of dReliefF's time on
    a text corpus).  The parts are fixed by the data (``feature_parts``), so
    the rounding, and so the result, does not depend on the number of
    threads.

    ``previous = (n_chosen, r, chosen, coef, scratch, upd, t, variant, T)``
    with n_chosen >= 0 (classification): first the update of that earlier
    visit (``_update_sparse``, then ``_move_sparse_update``) and the
    distance weights ``w`` of step t (``_weights_of_range``), each part on
    its features, so that these serial steps run on all threads too.
    Returns the number of positive weights computed so."""
    n_parts = sums.shape[0]
    n_prev, r_prev, chosen, coef, scratch, upd, t, variant, T = previous
    # (a local array, returned: numba 0.68's parallel loop dropped the
    # counts stored into an array taken from the ``previous`` tuple)
    counts = np.empty(n_parts, np.int64)
    for c in prange(n_parts):
        f0, f1 = split[c], split[c + 1]
        counts[c] = 0
        if n_prev >= 0:
            _update_sparse(r_prev, chosen, coef, n_prev, sp, total, False,
                           scratch, upd, f0, f1)
            _move_sparse_update(r_prev, chosen, n_prev, sp, False, upd,
                                total, f0, f1)
            counts[c] = _weights_of_range(total, t, variant, T, w, f0, f1)
        if r >= 0:
            _sparse_overlaps(r, sp, w, True, overlaps[c], f0, f1)
        pending[c], walked[c] = _track_row_base(
            sp, w, total, regression, coefs, theta, applied, sums[c],
            split[c], split[c + 1])
    n_positive = 0
    for c in range(n_parts):
        n_positive += counts[c]
    return n_positive


def feature_parts(col_ptr, n_parts):
    """Boundaries of ``n_parts`` ranges of features with about equal numbers
    of stored entries (``col_ptr`` is the CSC column pointer)."""
    a = col_ptr.shape[0] - 1
    targets = np.linspace(0, col_ptr[-1], n_parts + 1)[1:-1]
    inner = np.minimum(np.searchsorted(col_ptr, targets), a)
    return np.concatenate([[0], inner, [a]]).astype(np.int64)


@njit(**_JIT)
def _row_base_coefficients(total, t, variant, T, regression):
    """(c0, c1, c2) with w_A = c0 + c1 s1(A) + c2 s2(A) for the features with
    w_A > 0 at step t (``distance_weights``): w_A = s + (1 - s) W_A with
    s = 1 / t^T for pdReliefF and 0 for dReliefF, and W_A = total[A] / (t -
    1), or for regression c1 N_dA + c2 N_dCdA with the coefficients of
    ``estimate``."""
    s = 1.0 / t ** T if variant == VARIANT_PD else 0.0
    visits = t - 1
    if regression:
        ndc = total[0]
        first = 1.0 / ndc if ndc != 0 else 0.0
        second = 1.0 / (visits - ndc) if visits - ndc != 0 else 0.0
        return s, -second * (1 - s), (first + second) * (1 - s)
    return s, (1 - s) / visits, 0.0


@njit(**_JIT)
def _feedback_row_base(sums, coefs, out):
    """out[j] = sum_A w_A diff(A, 0, x_jA) from the parts' sums of
    ``_track_row_base`` (within their pending bound)."""
    out[:] = 0.0
    for part in sums:
        for q in range(3):
            c = coefs[q]
            if c != 0.0:
                values = part[q]
                for j in range(out.shape[0]):
                    out[j] += c * values[j]


@njit(**_FAST)
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


@njit(**_JIT)
def _add_diffs_missing(xr, xj, cr, cj, gr, gj, mt, scale, out, offset):
    """The same with RELIEF-D for missing values."""
    a_num = xr.shape[0]
    for f in range(a_num):
        out[offset + f] += scale * _num_diff(f, xr[f], xj[f], gr, gj, mt)
    for g in range(cr.shape[0]):
        out[offset + a_num + g] += scale * _nom_diff(g, cr[g], cj[g], gr, gj,
                                                     mt)


@njit(**_JIT)
def _update_sparse(r, chosen, coef, n_chosen, sp, target, regression,
                   scratch, upd, f0, f1):
    """``_update`` for sparse rows, on the features [f0, f1): diff(A, R, J)
    = b_R(A) + (diff(A, R, J) - b_R(A)), where b_R(A) = diff(A, R, 0) is
    added once for all neighbours (times the sum of their coefficients) and
    the second term is non-zero only where J has a stored value.  R's
    values are spread into ``scratch`` (a zeros, left as zeros), so a
    neighbour costs its stored entries and no merge.  N_dC (regression)
    goes with the range that starts at 0."""
    indptr, indices, values, col_nominal = sp[0], sp[1], sp[2], sp[3]
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
    start, stop = _stored_range(sp, r, f0, f1)
    for p in range(start, stop):
        f = indices[p]
        scratch[f] = values[p]
        b = _sparse_base(values[p], col_nominal[f])
        upd[off1 + f] += sum_c * b
        if regression:
            upd[off2 + f] += sum_cd * b
    for i in range(n_chosen):
        j = chosen[i]
        c = coef[i]
        cd = abs(target[r] - target[j]) * c if regression else 0.0
        start_j, stop_j = _stored_range(sp, j, f0, f1)
        for q in range(start_j, stop_j):
            f = indices[q]
            u, v = scratch[f], values[q]
            if col_nominal[f]:
                d = (1.0 if u != v else 0.0) - (1.0 if u != 0 else 0.0)
            else:
                d = abs(u - v) - abs(u)
            upd[off1 + f] += c * d
            if regression:
                upd[off2 + f] += cd * d
    for p in range(start, stop):
        scratch[indices[p]] = 0.0


@njit(**_JIT)
def _move_sparse_update(r, chosen, n_chosen, sp, regression, upd, total, f0,
                        f1):
    """total += upd and upd = 0 where ``_update_sparse`` on [f0, f1) can
    have written: the features stored in R or in a chosen neighbour (and
    N_dC).  A visit touches a few hundred of the 20,000 features of a text
    corpus; two passes over all of them cost more than the update
    itself."""
    indices = sp[1]
    a = (upd.shape[0] - 1) // 2 if regression else upd.shape[0]
    first = 1 if regression else 0
    if regression and f0 == 0:
        total[0] += upd[0]
        upd[0] = 0.0
    for i in range(-1, n_chosen):
        j = r if i < 0 else chosen[i]
        start, stop = _stored_range(sp, j, f0, f1)
        for p in range(start, stop):
            f = first + indices[p]
            total[f] += upd[f]          # (a feature met again adds 0)
            upd[f] = 0.0
            if regression:
                total[a + f] += upd[a + f]
                upd[a + f] = 0.0


@njit(**_JIT)
def _exact_distance(r, j, num, nom, w, weighted):
    """The float64 distance from R to I_j (dense, no missing values)."""
    a_num = num.shape[1]
    if weighted:
        return (_l1_weighted(num[r], num[j], w[:a_num], 0.0)
                + _mismatches_weighted(nom[r], nom[j], w[a_num:], 0.0))
    return _l1(num[r], num[j]) + _mismatches(nom[r], nom[j])


@njit(**_JIT)
def _candidate_distance(r, j, screen):
    """The float64 distance that decides a screened candidate: dense rows
    (``_exact_distance``), or ``sparse_rows = (True, sp, B_R, overlap,
    zero, slack)``: B_R + B_j - overlap_j with B_j summed afresh from row
    j."""
    num, nom, w, weighted = screen[3], screen[4], screen[5], screen[6]
    sparse, sp, base_r, overlap, zero = screen[7][:5]
    if sparse:
        d = base_r + _weighted_row_sum(j, sp, w, weighted) - overlap[j]
        return d if d > zero else 0.0
    return _exact_distance(r, j, num, nom, w, weighted)


@njit(**_JIT)
def screen_bound(num, w, weighted, unit, tabled=False):
    """(c, gamma) with |D~ - D| <= c + gamma D~ between a float32 screening
    distance D~ and the float64 distance D (u = 2^-24).

    Unweighted (ReliefF's feature-major screen, sums in float32): a numeric
    term |x - y| <= 1 is off by at most 3u (both values rounded to float32,
    then the difference).
    Weighted (feedback variants, float32 weights too): add u w_A for the
    weight and u w_A for the product, also to nominal terms; with a uint16
    copy (``unit`` = 1/65535, values rounded to the nearest step) a numeric
    term is instead off by at most w_A (unit + 2u).  A sum of a non-negative
    terms in any order is off by at most (a - 1) u times the sum; the factor
    1.1 covers second-order terms and the float64 rounding.

    ``tabled``: the nominal features are not in the float32 sum but added
    as unit times an exact integer sum (``_screen_distances_rows``; their
    rounding to multiples of unit is not included here): two float64
    roundings, 2^-53 D~ each.
    """
    a_num = num.shape[1]
    a = a_num if tabled else w.shape[0]
    u = 2.0 ** -24
    numeric_err = 1.1 * (unit + 2 * u) if unit > 0 else 5.5 * u
    c_err = 0.0
    for f in range(a):
        if weighted:
            c_err += (numeric_err if f < a_num else 2.2 * u) * w[f]
        elif f < a_num:
            c_err += 3.3 * u
    if tabled:
        return c_err, 1.1 * (a_num * (u + 2.0 ** -53) + 2 * 2.0 ** -53)
    return c_err, 1.1 * a * (u + 2.0 ** -53)


@njit(**_JIT)
def min_form_bound(a_num, rounded, chunk):
    """(c0, c1) with |D~ - D| <= c0 + c1 S_R for ``_distances_tiled``'s
    D~ = S_R + S_j - 2 M~ from R (S: float64 row sums of the copy, M~ the
    sum of min(x_Rf, x_jf) in the copy's type) and the float64 distance D.

    ``rounded`` (a float32 copy, u = 2^-24): each value is off by at most
    u (values in [0, 1]), so each term |x - y| by at most 2u: c0 gets
    2u a.  With exact values (the float64 data, u = 2^-53) M = sum min is
    exact, so S_R + S_j - 2M equals the sum of |x - y| of the values used.
    Summing L non-negative terms in any order is off by at most (L - 1) u
    times the sum; M is summed in parts of L = ``chunk`` features and
    M <= S_R: c1 = 2 (L - 1) u.  The float64 row sums, the sum of the chunks
    and the final two operations add at most (a + 2) 2^-53 (S_R + S_j + 2M)
    <= 4 a (a + 2) 2^-53 to c0; the factor 1.1 covers second-order terms.
    """
    u = 2.0 ** -24 if rounded else 2.0 ** -53
    c0 = (2 * u * a_num if rounded else 0.0) \
        + 4.0 * a_num * (a_num + 2) * 2.0 ** -53
    return 1.1 * c0, 1.1 * 2 * max(min(a_num, chunk) - 1, 0) * u


@njit(**_JIT)
def _group_of(group, j, gr, any_miss):
    """Row j's neighbour group (``_neighbours``)."""
    return (1 if group[j] != gr else 0) if any_miss else group[j]


@njit(**_JIT)
def _smallest(dist, rows, n_rows, skip, group, gr, any_miss, heap, counts,
              kth):
    """Add ``dist[rows[q]]``, q < n_rows, to max-heaps ``heap[g, :counts[g]]``
    of the k smallest distances of each group, but not rows that are
    multiples of ``skip`` (> 0); ``kth[g]`` = the k-th smallest (inf while
    a group has fewer).  The hot loop only compares with the largest k-th
    distance of any group."""
    k = heap.shape[1]
    top = kth.max()
    for q in range(n_rows):
        j = rows[q]
        d = dist[j]
        if not d < top or (skip > 0 and j % skip == 0):
            continue
        g = _group_of(group, j, gr, any_miss)
        if not d < kth[g]:
            continue
        c = counts[g]
        if c == k:
            heap[g, 0] = d
            i = 0
            while True:
                left = 2 * i + 1
                if left >= k:
                    break
                big = left
                if left + 1 < k and heap[g, left + 1] > heap[g, left]:
                    big = left + 1
                if heap[g, big] > heap[g, i]:
                    heap[g, big], heap[g, i] = heap[g, i], heap[g, big]
                    i = big
                else:
                    break
        else:
            i = c
            heap[g, i] = d
            while i > 0:
                p = (i - 1) >> 1
                if heap[g, p] < heap[g, i]:
                    heap[g, p], heap[g, i] = heap[g, i], heap[g, p]
                    i = p
                else:
                    break
            counts[g] = c + 1
        if counts[g] == k:
            kth[g] = heap[g, 0]
            top = kth.max()


@njit(**_JIT)
def _within(dist, slack, threshold, group, gr, any_miss, rows):
    """Write the rows j with dist[j] - slack[j] <= threshold[group of j]
    (``slack`` empty: 0), in order, to ``rows``; return how many.  The
    comparisons of 64 rows go into the bits of a word first: writing each
    row's index at a position that depends on the previous comparison made
    every row wait for it (4 ns a row)."""
    n = dist.shape[0]
    per_row = slack.shape[0] > 0
    n_rows = 0
    for j0 in range(0, n, 64):
        word = np.uint64(0)
        for t in range(min(64, n - j0)):
            j = j0 + t
            d = dist[j] - slack[j] if per_row else dist[j]
            inside = d <= threshold[_group_of(group, j, gr, any_miss)]
            word |= np.uint64(inside) << np.uint64(t)
        while word:
            rows[n_rows] = j0 + np.int64(trailing_zeros(word))
            n_rows += 1
            word &= word - np.uint64(1)
    return n_rows


@njit(**_JIT)
def _widened(kth, screened, c_err, gamma):
    """The largest screening distance that can belong to a row whose float64
    distance is within TIE_RTOL of the float64 k-th distance, when the
    screening k-th distance is ``kth`` (``_neighbours``)."""
    if not screened:
        return kth * (1 + TIE_RTOL)
    # the float64 k-th distance is at most `upper`; a D~ can exceed its
    # float64 distance by c + gamma D~
    upper = kth * (1 + gamma) + c_err
    return (upper * (1 + TIE_RTOL) + c_err) / (1 - gamma)


@njit(**_JIT)
def _neighbours(r, dist, group, rule, heap, counts, selected, chosen, coef,
                screen, max_candidates):
    """R's neighbours in ``dist`` and their signed influences.

    Neighbour groups: hits and the misses of each other class (ReliefF), hits
    and all misses together (Relief-E), or all instances (RReliefF, where
    every row is in group 0).  The k nearest of a group are kept; instances
    tied with the k-th share the slots left, and with rank weights a tie
    shares the mean influence of the ranks it occupies.  Each group is
    averaged by its total influence; hits get a minus sign, misses of class C
    the factor P(C) / (1 - P(class(R))).  Writes ``chosen[i]``, ``coef[i]``
    and returns how many there are, and how many candidates (the first
    entries of ``selected``, which needs 2n) were considered.

    ``screen = (on, c, gamma, num, nom, w, weighted, sparse_rows)``: when
    ``on``, ``dist`` holds screening distances D~ within c + gamma D~ of the
    float64 ones (float32 distances, ``screen_bound``), or, with a non-empty
    ``slack = sparse_rows[5]``, upper bounds of them that are at most
    slack[j] too high (sparse rows from running sums with changes pending,
    ``_track_row_base``).  The thresholds are then widened so that every
    instance the float64 distances would select stays a candidate, and the
    selection is made on float64 distances (``_candidate_distance``), so the
    neighbours are exactly those of the float64 distances.  With D~ within
    c + gamma D~, only candidates whose float64 distances could be tied with
    or ordered otherwise than those of the candidates next to them need
    theirs (``_settle``).  If more than ``max_candidates`` pass the screen,
    nothing is chosen and (-1, their number) returned.
    """
    mode, k, rank_weights, class_factor = rule
    screened, c_err, gamma = screen[0], screen[1], screen[2]
    n = dist.shape[0]
    n_groups = heap.shape[0]
    gr = group[r]
    any_miss = mode == MODE_ANY
    dist[r] = np.inf            # R is not its own neighbour
    kth = np.empty(n_groups)
    threshold = np.empty(n_groups)
    # pass 1: the k-th distance of each group.  On long rows, the k-th of
    # every SAMPLE_STEP-th row bounds it from above, and only the other rows
    # within that bound go through the heaps after them
    slack = screen[7][5] if screened else screen[7][5][:0]
    per_row = slack.shape[0] > 0
    counts[:] = 0
    kth[:] = np.inf
    if n >= SAMPLE_MIN_ROWS:
        n_rows = 0
        for j in range(0, n, SAMPLE_STEP):
            selected[n_rows] = j
            n_rows += 1
        _smallest(dist, selected, n_rows, 0, group, gr, any_miss, heap,
                  counts, kth)
        for g in range(n_groups):
            threshold[g] = _widened(kth[g], screened, c_err, gamma)
        n_rows = _within(dist, slack, threshold, group, gr, any_miss,
                         selected)
        skip = SAMPLE_STEP
    else:
        for j in range(n):
            selected[j] = j
        n_rows, skip = n, 0
    _smallest(dist, selected, n_rows, skip, group, gr, any_miss, heap, counts,
              kth)
    # pass 2: every row within the (widened) k-th distance of its group; a
    # group with fewer than k rows keeps them all
    for g in range(n_groups):
        threshold[g] = _widened(kth[g], screened, c_err, gamma)
    n_selected = 0
    for q in range(n_rows):
        j = selected[q]
        d = dist[j] - slack[j] if per_row else dist[j]
        if j != r and d <= threshold[_group_of(group, j, gr, any_miss)]:
            selected[n_selected] = j
            n_selected += 1
    if n_selected > max_candidates:
        return -1, n_selected
    members = selected[n:]
    member_dist = coef[n:]
    n_chosen = 0
    for g in range(n_groups):
        m = 0
        for q in range(n_selected):
            j = selected[q]
            if _group_of(group, j, gr, any_miss) == g:
                members[m] = j
                member_dist[m] = dist[j]
                m += 1
        if m == 0:
            continue
        if per_row:
            for q in range(m):
                member_dist[q] = _candidate_distance(r, members[q], screen)
        elif screened:
            _settle(r, members[:m], member_dist[:m], screen)
        if mode == MODE_REGRESSION or (any_miss and g == 1):
            sign = 1.0
        elif g == (0 if any_miss else gr):
            sign = -1.0
        else:
            sign = class_factor[gr, g]
        order = np.argsort(member_dist[:m])
        if m > k:   # screened candidates beyond the float64 k-th distance
            limit = member_dist[order[k - 1]] * (1 + TIE_RTOL)
            while member_dist[order[m - 1]] > limit:
                m -= 1
        norm = 0.0
        for rank in range(min(k, m)):
            norm += rank_weights[rank]
        i = 0
        while i < m:
            e = i + 1
            limit = member_dist[order[i]] * (1 + TIE_RTOL)
            while e < m and member_dist[order[e]] <= limit:
                e += 1
            ties = e - i
            slots = max(0, min(ties, k - i))
            influence = 0.0
            for rank in range(i, i + slots):
                influence += rank_weights[rank]
            share = sign * influence / ties / norm
            for q in range(i, e):
                chosen[n_chosen] = members[order[q]]
                n_chosen += 1
            for q in range(n_chosen - ties, n_chosen):
                coef[q] = share
            i = e
    return n_chosen, n_selected


@njit(**_JIT)
def _settle(r, members, dist, screen):
    """Replace the screening distances ``dist`` of a group's candidates by
    their float64 distances where that can change the selection.

    Each float64 distance D lies in [lo, hi] = [D~ (1 - gamma) - c,
    D~ (1 + gamma) + c].  In the order of D~, two neighbouring candidates
    whose intervals, one widened by 2 TIE_RTOL, are apart cannot be tied nor
    swapped, and neither can any two candidates on either side of them
    (lo and hi grow with D~).  So candidates in runs linked by overlapping
    intervals get their float64 distances and the others keep D~: every
    comparison ``_neighbours`` makes between two of them (``x <= y (1 +
    TIE_RTOL)``) then has the outcome it has with the float64 distances.
    With a tight screen (nominal features by lookup tables) that is rarely
    more than a few of the 2k candidates of a visit."""
    c_err, gamma = screen[1], screen[2]
    m = members.shape[0]
    if m < 2:
        return
    order = np.argsort(dist)
    widen = 1 + 2 * TIE_RTOL
    linked = False          # the previous candidate is linked to this one
    for q in range(m):
        i = order[q]
        hi = dist[i] * (1 + gamma) + c_err
        link_next = False
        if q + 1 < m:
            lo_next = dist[order[q + 1]] * (1 - gamma) - c_err
            link_next = hi * widen >= lo_next
        if linked or link_next:
            dist[i] = _candidate_distance(r, members[i], screen)
        linked = link_next


@njit(**_JIT)
def _update(r, chosen, coef, n_chosen, data, sp, sparse, target, regression,
            scratch, upd):
    """Add the update of visiting R to ``upd``: the signed mean diffs
    (ReliefF, Fig. relieff) or the RReliefF sums N_dC, N_dA, N_dCdA.
    ``scratch``: zeros, one per feature, for sparse data."""
    if sparse:
        _update_sparse(r, chosen, coef, n_chosen, sp, target, regression,
                       scratch, upd, 0, scratch.shape[0])
        return
    num, nom, has_missing, group, mt = data
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
            if has_missing:
                _add_diffs_missing(num[r], num[j], nom[r], nom[j], group[r],
                                   group[j], mt, scale, upd, offset)
            else:
                _add_diffs_dense(num, nom, r, j, scale, upd, offset)
            scale, offset = d_target * coef[i], 1 + a


@njit(**_JIT)
def relief_rows(rows, data, copy, row_sums, planes, by_feature, sp, sparse,
                rule, n_groups, target, regression, block, tile, upd):
    """ReliefF: upd[b] = the update of visiting rows[b] (plain distance;
    ``upd`` need not be zeroed).

    Releases the GIL, so callers run chunks of rows on several threads.
    Dense data without missing values: ``block`` visited rows (a multiple of
    4) share each pass over the data, walked in tiles of ``tile`` rows;
    otherwise rows are visited one at a time.  The blocks read ``copy``: a
    float32 copy of ``num`` or ``num`` itself, with its float64 row sums
    ``row_sums`` (``_distances_tiled``, with the nominal features'
    bit-planes ``planes``), or with ``by_feature`` a float32 copy stored a x
    n (``_distances_tiled_by_feature``).  Their distances screen the
    neighbours, which are then chosen by float64 distances (``_neighbours``).
    """
    num, nom, has_missing, group, mt = data
    n = group.shape[0]
    k = rule[1]
    ones = np.ones(sp[3].shape[0] if sparse else num.shape[1] + nom.shape[1])
    row_base = np.empty(n)
    overlap = np.empty(n if sparse else 0)
    scratch = np.zeros(ones.shape[0] if sparse else 0)
    max_base = 0.0
    if sparse:
        _sparse_row_base(sp, ones, False, row_base)
        max_base = row_base.max()
    no_rows = (False, sp, 0.0, overlap, 0.0, np.zeros(0))
    exact = (False, 0.0, 0.0, num, nom, ones, False, no_rows)
    tiled = not has_missing and not sparse and copy.shape[0] > 0
    c_err, gamma = screen_bound(num, ones, False, 0.0)
    c0, c1 = min_form_bound(num.shape[1], copy.itemsize == 4,
                            MIN_FORM_CHUNK)
    dist = np.empty((block, n))
    acc = np.empty((4, tile if by_feature else 0), copy.dtype)
    heap = np.empty((n_groups, k))
    counts = np.zeros(n_groups, dtype=np.int64)
    selected = np.empty(2 * n, dtype=np.int64)
    chosen = np.empty(n, dtype=np.int64)
    coef = np.empty(2 * n)
    b, end = 0, rows.shape[0]
    while b < end:
        size = 1
        screen = exact
        min_form = False
        if tiled and end - b >= 4:
            size = min(block, (end - b) // 4 * 4)
            if by_feature:
                _distances_tiled_by_feature(rows[b:b + size], copy, dist,
                                            acc)
                screen = (True, c_err, gamma, num, nom, ones, False, no_rows)
            else:
                _distances_tiled(rows[b:b + size], copy, row_sums, planes,
                                 dist, tile, MIN_FORM_CHUNK)
                # (nominal counts alone are exact)
                min_form = num.shape[1] > 0
        elif sparse:
            r = rows[b]
            _sparse_overlaps(r, sp, ones, False, overlap, 0, ones.shape[0])
            _sparse_distances(row_base[r], row_base, overlap,
                              TIE_RTOL * (row_base[r] + max_base), dist[0])
        else:
            _distances(rows[b], num, nom, ones, False, has_missing, group, mt,
                       dist[0], 0, n)
        for i in range(size):
            r = rows[b + i]
            if min_form:        # its bound depends on R
                screen = (True, c0 + c1 * row_sums[r], 0.0, num, nom, ones,
                          False, no_rows)
            n_chosen = _neighbours(r, dist[i], group, rule, heap, counts,
                                   selected, chosen, coef, screen, n)[0]
            upd[b + i, :] = 0.0
            _update(r, chosen, coef, n_chosen, data, sp, sparse, target,
                    regression, scratch, upd[b + i])
        b += size


@njit(**_JIT)
def add_rows(rows, total):
    """total += rows[0] + rows[1] + ..., in that order."""
    for i in range(rows.shape[0]):
        for f in range(total.shape[0]):
            total[f] += rows[i, f]


@njit(**_JIT)
def estimate(total, t, regression, out):
    """The weight estimate after t visits, as if the run stopped there.

    Classification: the sum of updates / t (Fig. relieff).  Regression:
    N_dCdA / N_dC - (N_dA - N_dCdA) / (t - N_dC) (RReliefF); a zero
    denominator makes its term 0.
    """
    a = out.shape[0]
    if not regression:
        for f in range(a):
            out[f] = total[f] / t
        return
    ndc = total[0]
    for f in range(a):
        nda, ndcda = total[1 + f], total[1 + a + f]
        first = ndcda / ndc if ndc != 0 else 0.0
        second = (nda - ndcda) / (t - ndc) if t - ndc != 0 else 0.0
        out[f] = first - second


@njit(**_JIT)
def residue(t):
    """The largest distance weight at step t that counts as 0: t 2^-52,
    the rounding error of a running sum of t - 1 updates of at most 2 in
    size, divided by t - 1.  Weights that are 0 in exact arithmetic (e.g.
    1/4 + 1/4 - 1/2 summed in another order) come out at ~1e-17; as
    distance weights they kept rows at distances ~1e-17 apart that the
    sparse computation (and exact arithmetic) sees tied, and chose other
    neighbours."""
    return t * 2.0 ** -52


@njit(**_JIT)
def distance_weights(current, t, variant, T, out):
    """w_A for the distance at step t (1-based) from the estimate W_{t-1}.

    dReliefF: max(0, W_{t-1}[A]); pdReliefF: max(0, f(W_{t-1}[A], t)) with
    f(w, t) = (1 - w) / t^T + w (seed eq. f).  At t = 1, or when every w_A is
    0, all w_A = 1 (and the return value is False).  A w_A within the
    rounding error of a sum of t updates of zero (``residue(t)``) is 0.
    """
    a = out.shape[0]
    n_positive = 0
    if t > 1:
        # (branch-free, so that it vectorises: 20,000 features took 35 us)
        scale = 1.0 / t ** T if variant == VARIANT_PD else 0.0
        pd = variant == VARIANT_PD
        tiny = residue(t)
        for f in range(a):
            w = current[f]
            w = (1.0 - w) * scale + w if pd else w
            w = w if w > tiny else 0.0       # also catches NaN
            out[f] = w
            n_positive += w > 0.0
    if n_positive == 0:
        out[:] = 1.0
    return n_positive > 0


@njit(**_JIT)
def _feedback_weights(total, t, variant, T, regression, current, w):
    """``distance_weights(estimate(total, t - 1), t, ...)`` into ``w``
    (``current``: scratch), in one pass over the features for
    classification: the same numbers, one read of 20,000 features instead
    of three (the divisions take most of it)."""
    if regression or t == 1:
        if t > 1:
            estimate(total, t - 1, regression, current)
        return distance_weights(current, t, variant, T, w)
    n_positive = _weights_of_range(total, t, variant, T, w, 0, w.shape[0])
    if n_positive == 0:
        w[:] = 1.0
    return n_positive > 0


@njit(**_JIT)
def _weights_of_range(total, t, variant, T, w, f0, f1):
    """w_A of ``_feedback_weights`` (classification, t > 1) for the
    features [f0, f1); returns how many are positive."""
    visits = t - 1
    pd = variant == VARIANT_PD
    scale = 1.0 / t ** T if pd else 0.0
    tiny = residue(t)
    n_positive = 0
    for f in range(f0, f1):
        v = total[f] / visits
        v = (1.0 - v) * scale + v if pd else v
        v = v if v > tiny else 0.0       # also catches NaN
        w[f] = v
        n_positive += v > 0.0
    return n_positive


@njit(**_JIT)
def _dot(x, y):
    """sum x_i y_i with four running sums (one had to wait for the previous
    addition at every term: 21 us for 20,000 features)."""
    s = np.zeros(4)
    m = x.shape[0] // 4 * 4
    for i in range(0, m, 4):
        for q in range(4):
            s[q] += x[i + q] * y[i + q]
    for i in range(m, x.shape[0]):
        s[0] += x[i] * y[i]
    return (s[0] + s[1]) + (s[2] + s[3])


@njit(**_JIT)
def _weighted_screen(num, copy, w, unit, w32, planes, tables, sums, order):
    """The weights of the screening copy (``w32``: numeric weights times its
    unit, in the copy's column order ``order``, then the nominal ones) and
    the error bound (c, gamma) of the distances (``screen_bound``, plus the
    rounding of the nominal weights when there are bit-planes ``planes =
    (words, n_bits)`` for lookup tables, ``nominal.table_unit``).  Returns
    (c, gamma, lut), the ``lut`` argument of ``_screen_distances_rows``,
    which fills ``tables`` and ``sums`` (parts x rows x n, uint64); its last
    item is the number of leading columns of the copy that hold every
    positive weight (the rest add 0 to every distance)."""
    a_num = copy.shape[1]
    span = 0
    for i in range(a_num):
        w32[i] = w[order[i]] * unit if unit > 0 else w[order[i]]
        if w32[i] > 0:
            span = i + 1
    for f in range(a_num, w.shape[0]):
        w32[f] = w[f]
    tabled = planes[0].shape[1] > 0
    c_err, gamma = screen_bound(num, w, True, unit, tabled)
    nom_unit = 0.0
    if tabled:
        nom_unit, rounding = table_unit(w[a_num:])
        c_err += rounding
    return c_err, gamma, (planes[0], planes[1], tables, nom_unit, w[a_num:],
                          sums, span)


@njit(parallel=True, **_JIT)
def _permute_columns(copy, moved, n_chunks):
    """Column i of every row of ``copy`` becomes its column ``moved[i]``, in
    ``n_chunks`` parallel parts of the rows."""
    n, a = copy.shape
    for c in prange(n_chunks):
        row = np.empty(a, copy.dtype)
        for j in range(c * n // n_chunks, (c + 1) * n // n_chunks):
            x = copy[j]
            for i in range(a):
                row[i] = x[moved[i]]
            x[:] = row


@njit(**_JIT)
def _screen_order(copy, order, w, key, n_rows, control, n_chunks):
    """Keep the features of weight 0, which add nothing to a screening
    distance, at the end of the screening copy, where the screen leaves
    them out (``_weighted_screen``'s span: the columns up to the last
    positive weight).  ``order[i]`` is the numeric feature in column i of
    ``copy``.  The zero-weight columns within the span, times the
    ``n_rows`` rows screened with it, add up in ``control[4]`` (in
    screens of the whole copy); when they reach REORDER_SCREENS, what a
    new order costs, the columns are put in the order of ``key`` (largest
    first: the running estimate, so that the features nearest to a
    positive weight come right after the positive ones; stable, so
    deterministic), in ``copy`` and in ``order``: a new order is paid for
    only once the columns it would have saved cost as much.  On the
    benchmark's 10,000 x 500 and 2,000 x 5,000
    continuous data 40-50 % of dReliefF's weights are 0 (pdReliefF's, at
    least 1 / t^T, are not)."""
    a_num = copy.shape[1]
    span, n_positive = 0, 0
    for i in range(a_num):
        if w[order[i]] > 0:
            span, n_positive = i + 1, n_positive + 1
    control[4] += n_rows * (span - n_positive) / max(a_num, 1)
    if control[4] < REORDER_SCREENS:
        return
    control[4] = 0.0
    new = np.argsort(-key[:a_num], kind="mergesort")
    column = np.empty(a_num, np.int64)
    for i in range(a_num):
        column[order[i]] = i
    _permute_columns(copy, column[new], n_chunks)
    order[:] = new


@njit(**_JIT)
def feedback_batch(rows, t_done, variant, T, data, copy, unit, planes, sp,
                   sparse, tracked, rule, n_groups, target, regression,
                   n_chunks, total, trace_every, trace):
    """dReliefF / pdReliefF: visit ``rows`` in order, each with distance weights
    from the estimate so far (eq. progressively_weighted_distance).

    ``total`` (the running sums) is updated in place; the estimate after every
    ``trace_every``-th visit goes to the next row of ``trace``.  Returns the
    number of trace rows written.  A non-empty ``copy`` of the numeric data
    (float32, ``unit`` 0; or uint16 steps of ``unit``) makes the distances
    float32 screening distances (see ``_neighbours``), which halves (or
    quarters) the memory read per visit; with bit-planes of the nominal
    features, ``planes = (words, n_bits)`` (``pack_planes``), their part
    comes from lookup tables of the rounded weights (``_weighted_screen``).
    These are computed for a group of
    consecutive visits at once, with the distance weights w0 of the group's
    first visit: a later visit's weights w differ by at most
    drift = sum_A |w_A - w0_A| in any distance (every diff is in [0, 1]),
    which widens its screen by that much; the neighbours are still chosen by
    float64 distances with w.  When a widened screen lets more than
    max(4 k groups, n / 8) candidates through, the visit makes its own pass
    instead and the group ends.  The group size, kept from batch to batch in
    ``tracked[5] = control = (size, patience, calm groups, largest size,
    screening waste)``, then halves; it doubles (up to the largest size, 1 for no groups) after
    ``patience`` groups in a row that needed no such pass,
    and the patience doubles with every such pass (dReliefF's weights, the
    noisy running estimate itself, drift much more than pdReliefF's).  The
    copy's columns are kept in the order ``tracked[6]`` (``_screen_order``:
    the features of weight 0 last, where the screen skips them); it is
    changed in place, and the order is kept from batch to batch.

    Sparse data keep per-row weighted sums B_j from batch to batch in
    ``tracked = (sums, applied, full_base, split, col_base, control, _)``
    (parts x 3 x n, 3 x a, n and a zeros before the first batch; the parts'
    feature boundaries, ``feature_parts``; one number).  Changes that would
    move B_j by at most ``control[0]`` times the mean distance weight per
    unit of diff wait (``_track_row_base``), and the neighbours are chosen
    by screening with that bound.  ``control[0]`` adapts from step to step
    (between LAZY_MIN and LAZY_MAX) so that the walks of the tracking and
    the candidates' fresh sums read about as many entries; 0 keeps every
    sum exact (and stays 0).
    """
    num, nom, has_missing, group, mt = data
    n = group.shape[0]
    a = num.shape[1] + nom.shape[1] if not sparse else sp[3].shape[0]
    k = rule[1]
    sums, applied, full_base, split, col_base, control, order = tracked
    grouped = not sparse and copy.shape[0] > 0
    dists = np.empty((int(control[3]) if grouped else 1, n))
    heap = np.empty((n_groups, k))
    counts = np.zeros(n_groups, dtype=np.int64)
    selected = np.empty(2 * n, dtype=np.int64)
    chosen = np.empty(n, dtype=np.int64)
    coef = np.empty(2 * n)
    current = np.zeros(a)
    w = np.ones(a)
    w0 = np.ones(a)
    w32 = np.ones(a, np.float32)
    tables = np.empty((planes[0].shape[1] // planes[1] * 8, 256), np.uint32)
    table_sums = np.empty((n_chunks, dists.shape[0], n if planes[0].shape[1]
                                                    else 0), np.uint64)
    c_err, gamma = 0.0, 0.0
    group_end, group_start, most = 0, 0, 0
    max_candidates = max(4 * k * n_groups, n // 8)
    row_base = np.empty(n)
    scratch = np.zeros(a if sparse else 0)
    overlap = np.empty(n if sparse else 0)
    overlaps = np.empty((sums.shape[0], n if sparse else 0))
    pending = np.zeros(sums.shape[0])
    walked = np.zeros(sums.shape[0], np.int64)
    if sparse and t_done == 0:
        _sparse_row_base(sp, w, False, full_base)
        _sparse_col_base(sp, col_base)
    max_full = full_base.max() if sparse else 0.0
    sum_col = col_base.sum()
    slack = np.empty(n if sparse else 0)
    no_rows = (False, sp, 0.0, overlap, 0.0, slack[:0])
    upd = np.zeros(total.shape[0])
    # all-nominal data on several threads: a visit that ends a group leaves
    # its update and the next weights to the next group's parallel region
    # (``_update_and_screen_nominal``); sparse data with every change
    # applied at once (dReliefF), to the next visit's tracking
    # (``_track_row_base_parallel``)
    fused = not regression and (
        (grouped and n_chunks > 1 and num.shape[1] == 0
         and planes[0].shape[1] > 0) or (sparse and control[0] == 0))
    deferred = False
    r_prev, n_prev = -1, 0
    parts = np.zeros((n_chunks, 2))
    positive = False
    coefs = (0.0, 0.0, 0.0)
    written = 0
    for b in range(rows.shape[0]):
        t = t_done + b + 1
        if not deferred:
            positive = _feedback_weights(total, t, variant, T, regression,
                                         current, w)
        r = rows[b]
        screen = (False, 0.0, 0.0, num, nom, w, True, no_rows)
        dist = dists[0]
        if sparse:
            if deferred or positive:
                coefs = _row_base_coefficients(total, t, variant, T,
                                               regression)
                theta = 0.0
                if sum_col > 0 and control[0] > 0:
                    theta = _dot(w, col_base) * (control[0] / sum_col)
                n_positive = _track_row_base_parallel(
                    sp, w, total, regression, coefs, theta, applied, sums,
                    split, pending, walked, r, overlaps,
                    (n_prev if deferred else -1, r_prev, chosen, coef,
                     scratch, upd, t, variant, T))
                if deferred:
                    deferred = False
                    positive = n_positive > 0
                    if not positive:
                        w[:] = 1.0
            if positive:
                _feedback_row_base(sums, coefs, row_base)
                overlap[:] = overlaps[0]
                for c in range(1, overlaps.shape[0]):
                    overlap += overlaps[c]
                eps = pending.max()
            else:
                row_base[:] = full_base
                eps = 0.0
                _sparse_overlaps(r, sp, w, True, overlap, 0, a)
            base_r = _weighted_row_sum(r, sp, w, True)
            zero = TIE_RTOL * (base_r + row_base.max() + eps * max_full)
            _sparse_distances(base_r, row_base, overlap, zero, dist)
            if eps > 0:
                # B_j is within eps * full_base[j] of its true value; the
                # candidates' distances (B_R + B_j - overlap_j with B_j
                # summed afresh) and these both round, and snap up to
                # `zero`, so they are within 2 zero of each other too
                for j in range(n):
                    error = eps * full_base[j] + 2 * zero
                    dist[j] += error
                    slack[j] = 2 * error
                screen = (True, 0.0, 0.0, num, nom, w, True,
                          (True, sp, base_r, overlap, zero, slack))
        elif grouped:
            if b == group_end:      # a new group, with this visit's weights
                group_start, most = b, 0
                group_end = min(rows.shape[0], b + int(control[0]))
                c_err = -1.0
                if deferred:
                    c_err, gamma = _update_and_screen_nominal(
                        rows[group_start:group_end], nom, planes[0],
                        planes[1], r_prev, chosen, coef, n_prev, total, t,
                        variant, T, w, tables, table_sums, parts, dists)
                    deferred = False
                    if c_err < 0:
                        w[:] = 1.0
                w0[:] = w
                if c_err < 0:
                    _screen_order(copy, order, w0, w0 if regression
                                  else total, group_end - group_start,
                                  control, n_chunks)
                    c_err, gamma, lut = _weighted_screen(
                        num, copy, w0, unit, w32, planes, tables, table_sums,
                        order)
                    _screen_distances_rows(rows[group_start:group_end], copy,
                                           nom, w32, lut, dists, n_chunks)
            drift = 0.0
            for f in range(a if b > group_start else 0):
                drift += abs(w[f] - w0[f])
            screen = (True, c_err + drift, gamma, num, nom, w, True, no_rows)
            dist = dists[b - group_start]
        elif n_chunks > 1:
            _distances_parallel(r, num, nom, w, True, has_missing, group, mt,
                                dist, n_chunks)
        else:
            _distances(r, num, nom, w, True, has_missing, group, mt, dist, 0,
                       n)
        if not sparse:
            upd[:] = 0.0
        n_chosen, n_candidates = _neighbours(
            r, dist, group, rule, heap, counts, selected, chosen, coef,
            screen, max_candidates if grouped and b > group_start else n)
        if grouped:
            if n_chosen < 0:
                # the drift let too many through: this visit's own pass
                # ends the group; smaller groups, tried less eagerly
                c_err, gamma, lut = _weighted_screen(num, copy, w, unit, w32,
                                                     planes, tables,
                                                     table_sums, order)
                _screen_distances_rows(rows[b:b + 1], copy, nom, w32, lut,
                                       dists[b - group_start:], n_chunks)
                screen = (True, c_err, gamma, num, nom, w, True, no_rows)
                n_chosen, n_candidates = _neighbours(
                    r, dist, group, rule, heap, counts, selected, chosen,
                    coef, screen, n)
                group_end = b + 1
                control[0] = max(1.0, control[0] // 2)
                control[1] = min(2 * control[1], 1024.0)
                control[2] = 0.0
            else:
                most = max(most, n_candidates)
                if b == group_end - 1:
                    control[2] += 1
                    if (control[2] >= control[1] and group_end - group_start
                            == control[0] and 4 * most <= max_candidates):
                        control[0] = min(control[3], 2 * control[0])
                        control[2] = 0.0
        if sparse and positive and control[0] > 0:
            # balance the entries the tracking walks against those the
            # candidates' fresh sums read (a walked entry costs more, so
            # this errs on the side of walking); deterministic: it depends
            # on the data only
            read = 0
            for q in range(n_candidates if screen[0] else 0):
                j = selected[q]
                read += sp[0][j + 1] - sp[0][j]
            if read > walked.sum():
                control[0] = max(control[0] / 1.5, LAZY_MIN)
            else:
                control[0] = min(control[0] * 1.5, LAZY_MAX)
        if fused and (sparse or b + 1 == group_end) and b + 1 < rows.shape[
                0] and not (trace_every > 0 and t % trace_every == 0):
            deferred, r_prev, n_prev = True, r, n_chosen
            continue
        _update(r, chosen, coef, n_chosen, data, sp, sparse, target,
                regression, scratch, upd)
        if sparse:
            _move_sparse_update(r, chosen, n_chosen, sp, regression, upd,
                                total, 0, a)
        else:
            for i in range(total.shape[0]):
                total[i] += upd[i]
        if trace_every > 0 and t % trace_every == 0:
            estimate(total, t, regression, trace[written])
            written += 1
    return written
