"""Screening distances: fast float32 (or uint16) sums with a proven error bound.

A screen never decides a neighbour.  Its distances D~ come with a bound
|D~ - D| <= c + gamma D~ against the float64 distances D
(``distances.py``); neighbour selection (``neighbours.py``) widens its
thresholds by that bound and computes float64 distances only for the
candidates whose choice the bound leaves open.  So every weight is the weight
of float64 distances; a screen only saves memory traffic and arithmetic.

ReliefF (all distance weights 1) visits blocks of four instances: each other
row, loaded once, serves the four (``tiled_distances``, or
``by_feature_tiles`` for few numeric features); nominal features are counted
exactly by popcount (``nominal.mismatches_block4``).  dReliefF and pdReliefF screen with weighted
sums (``weighted_screens``) over a float32 or uint16 copy whose columns are
kept in the order of the running estimate, so the features of weight 0 can be
left out (``order_columns``).
"""
from typing import NamedTuple

import numpy as np
from numba import njit, prange

from ...contract.diffs import JIT
from ...contract.distances import FAST, mismatches_weighted
from ...contract.nominal import mismatches_block4

# The feedback variants' screens walk the other rows in tiles of this many
# bytes, which stay in cache while every visited row passes over them.
TILE_BYTES = 256 * 1024
# ReliefF's tiled distances sum at most this many features in float32 before
# adding to float64, which keeps their error bound (``min_form_bound``)
# small on wide data.
MIN_FORM_CHUNK = 4096
# Numeric data with at most BY_FEATURE_MAX features (and no nominal ones) is
# screened feature by feature, in tiles of BY_FEATURE_TILE other rows.
BY_FEATURE_MAX = 64
BY_FEATURE_TILE = 1024
# A new column order of the screening copy (``order_columns``) costs about
# as much as this many screens of the whole copy (measured on 2 cores:
# 2.8 ms against 0.62 ms on 10,000 x 500 uint16, 5.5 ms against 1.4 ms on
# 2,000 x 5,000).
REORDER_SCREENS = 4.0


class ScreenWeights(NamedTuple):
    """What a weighted screen (``weighted_screens``) sums: ``w32`` holds the
    numeric w_A times the copy's unit in the copy's column order, then the
    nominal w_A; only the first ``span`` columns of the copy hold positive
    weights."""
    w32: np.ndarray
    span: int


# ---------------------------------------------------------------------------
# Error bounds

@njit(**JIT)
def screen_bound(num, w, weighted, unit):
    """(c, gamma) with |D~ - D| <= c + gamma D~ between a float32 screening
    distance D~ and the float64 distance D (u = 2^-24).

    Unweighted (ReliefF's feature-major and abs-form screens, sums in
    float32): a numeric term |x - y| <= 1 is off by at most 3u (both values
    rounded to float32, then the difference).
    Weighted (feedback variants, float32 weights too): add u w_A for the
    weight and u w_A for the product, also to nominal terms; with a uint16
    copy (``unit`` = 1/65535, values rounded to the nearest step) a numeric
    term is instead off by at most w_A (unit + 2u).  A sum of a non-negative
    terms in any order is off by at most (a - 1) u times the sum; the factor
    1.1 covers second-order terms and the float64 rounding.
    """
    a_num = num.shape[1]
    a = w.shape[0]
    u = 2.0 ** -24
    numeric_err = 1.1 * (unit + 2 * u) if unit > 0 else 5.5 * u
    c_err = 0.0
    for f in range(a):
        if weighted:
            c_err += (numeric_err if f < a_num else 2.2 * u) * w[f]
        elif f < a_num:
            c_err += 3.3 * u
    return c_err, 1.1 * a * (u + 2.0 ** -53)


@njit(**JIT)
def min_form_bound(a_num, rounded, chunk):
    """(c0, c1) with |D~ - D| <= c0 + c1 S_R for ``tiled_distances``'s
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


# ---------------------------------------------------------------------------
# ReliefF: unweighted screens of blocks of visits

@njit(inline="always", **FAST)
def _sums_block4(rows, num, f0, f1, zero, out, j0, j1, min_form):
    """out[i, j] += sum_f min(num[rows[i], f], num[j, f]) over the features
    f in [f0, f1) (or, without ``min_form``, sum_f |num[rows[i], f] - num[j,
    f]|), for i < 4 and j in [j0, j1), summed in the type of ``zero``
    (float32 for the screening copy).

    ``tiled_distances`` turns the sums of min into distances with
    |x - y| = x + y - 2 min(x, y): a min and an add per term instead of a
    subtract, an abs and an add (1.6-1.9x more terms per second on AVX2).
    A 4 x 2 register tile: four visited rows against two other rows, so the
    eight sums and the loaded values fit in AVX2's 16 vector registers (a
    4 x 4 tile spilled sums to the stack at every feature).  Inlined with
    ``min_form`` a constant, so each form is a loop of its own."""
    x0, x1 = num[rows[0], f0:f1], num[rows[1], f0:f1]
    x2, x3 = num[rows[2], f0:f1], num[rows[3], f0:f1]
    width = f1 - f0
    j = j0
    while j + 2 <= j1:
        y0, y1 = num[j, f0:f1], num[j + 1, f0:f1]
        s00 = s01 = s10 = s11 = s20 = s21 = s30 = s31 = zero
        for f in range(width):
            v0, v1 = y0[f], y1[f]
            s00 += _term(x0[f], v0, min_form)
            s01 += _term(x0[f], v1, min_form)
            s10 += _term(x1[f], v0, min_form)
            s11 += _term(x1[f], v1, min_form)
            s20 += _term(x2[f], v0, min_form)
            s21 += _term(x2[f], v1, min_form)
            s30 += _term(x3[f], v0, min_form)
            s31 += _term(x3[f], v1, min_form)
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
            s00 += _term(x0[f], v0, min_form)
            s10 += _term(x1[f], v0, min_form)
            s20 += _term(x2[f], v0, min_form)
            s30 += _term(x3[f], v0, min_form)
        out[0, j] += s00
        out[1, j] += s10
        out[2, j] += s20
        out[3, j] += s30


@njit(inline="always", **FAST)
def _term(u, v, min_form):
    """min(u, v) in the min form, else |u - v|."""
    return min(u, v) if min_form else abs(u - v)


@njit(**FAST)
def _block_sums(rows, num, chunk, zero, block, j0, j1, min_form):
    """``_sums_block4`` over all features in parts of ``chunk``, each part
    added to ``block`` in float64.  (FAST: an inlined function is compiled
    with its caller's flags, and the sums vectorise only with
    reassociation.)"""
    for f0 in range(0, num.shape[1], chunk):
        f1 = min(num.shape[1], f0 + chunk)
        if min_form:
            _sums_block4(rows, num, f0, f1, zero, block, j0, j1, True)
        else:
            _sums_block4(rows, num, f0, f1, zero, block, j0, j1, False)


@njit(**JIT)
def tiled_distances(rows, num, row_sums, planes, n_bits, out, chunk,
                    min_form):
    """Screening distances from each of the visited ``rows`` (a multiple of
    four) to every row, into ``out`` (len(rows) x n): numeric terms from
    ``num`` (values in [0, 1]), with ``min_form`` as S_R + S_j - 2 sum_f
    min(x_Rf, x_jf) (``row_sums`` the float64 sums S of the rows) within
    ``min_form_bound`` of the float64 distances, else as sum_f |x_Rf - x_jf|
    within ``screen_bound``; each sum taken in float64 over parts of
    ``chunk`` features.  Nominal mismatch counts (exact) come from their
    bit-planes (``nominal.pack_planes``).  Each other row, loaded once,
    serves four visits from registers; blocks of more visits walk the other
    rows in tiles of TILE_BYTES, which stay in cache for the next four."""
    n = out.shape[1]
    zero = np.zeros(1, num.dtype)[0]
    out[:, :] = 0.0
    tile = n if rows.shape[0] == 4 else \
        max(8, TILE_BYTES // max(1, num.shape[1] * num.itemsize))
    for j0 in range(0, n, tile):
        j1 = min(n, j0 + tile)
        for q in range(0, rows.shape[0], 4):
            _block_sums(rows[q:q + 4], num, chunk, zero, out[q:q + 4], j0,
                        j1, min_form)
    for i in range(rows.shape[0] if min_form else 0):
        s_r = row_sums[rows[i]]
        for j in range(n):
            out[i, j] = s_r + row_sums[j] - 2.0 * out[i, j]
    if planes.shape[1] > 0:
        for q in range(0, rows.shape[0], 4):
            mismatches_block4(rows[q:q + 4], planes, n_bits, out[q:q + 4], 0,
                              n)


@njit(**FAST)
def _by_feature_block4(rows, num_t, out, j0, j1, acc):
    """Numeric distances sum_f |x_Rf - x_jf| from rows[i] (i < 4) to rows j
    in [j0, j1), for data stored feature by feature (``num_t`` is a x n): the
    loop runs along other rows, so SIMD needs no sum across lanes per pair,
    which dominates when a is small (here the min form of
    ``_sums_block4`` gains nothing: the sums' loads and stores bound
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


@njit(**JIT)
def by_feature_tiles(rows, num_t, out, acc):
    """Numeric distances from each of four visited ``rows`` to every row,
    for feature-major data, in tiles of ``acc.shape[1]`` other rows (within
    ``screen_bound`` of the float64 ones)."""
    n, tile = num_t.shape[1], acc.shape[1]
    for j0 in range(0, n, tile):
        _by_feature_block4(rows, num_t, out, j0, min(n, j0 + tile), acc)


# ---------------------------------------------------------------------------
# dReliefF / pdReliefF: weighted screens

@njit(**FAST)
def _l1_weighted_float32(x, y, w):
    """sum_A w_A |x_A - y_A| in float32, for a float32 or a uint16 copy."""
    s = np.float32(0)
    for f in range(x.shape[0]):
        s += w[f] * abs(np.float32(x[f]) - np.float32(y[f]))
    return s


@njit(**FAST)
def _weighted_rows(r, copy, nom, w32, span, out, j0, j1):
    """Weighted screening distances from R to rows [j0, j1) of the float32
    or uint16 screening copy (dense, nothing missing), summed over the first
    ``span`` columns with the weights ``w32`` (``ScreenWeights``), and the
    nominal features compared code by code.  Four other rows at a time, so
    R's values and the weights are loaded once for four rows."""
    a_num = copy.shape[1]
    a_nom = nom.shape[1]
    xr, cr = copy[r], nom[r]
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
        d0, d1, d2, d3 = nom[j], nom[j + 1], nom[j + 2], nom[j + 3]
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
                  + mismatches_weighted(cr, nom[j], w_nom, zero))


@njit(**JIT)
def _screen_part(c, n_chunks, rows, copy, nom, w32, span, out, tile):
    """Part c of ``weighted_screens``: the screening distances to the c-th
    range of the other rows (the arrays one by one: numba 0.68 cannot pass a
    named tuple into a parallel loop)."""
    n = copy.shape[0]
    c0, c1 = c * n // n_chunks, (c + 1) * n // n_chunks
    for j0 in range(c0, c1, tile):
        j1 = min(c1, j0 + tile)
        for i in range(rows.shape[0]):
            _weighted_rows(rows[i], copy, nom, w32, span, out[i], j0, j1)


@njit(parallel=True, **JIT)
def _screen_parts(rows, copy, nom, w32, span, out, tile, n_chunks):
    """``_screen_part`` for every part, the parts on separate threads."""
    for c in prange(n_chunks):
        _screen_part(c, n_chunks, rows, copy, nom, w32, span, out, tile)


@njit(inline="always", **JIT)
def weighted_screens(rows, copy, nom, weights, out, n_chunks):
    """Screening distances from each of ``rows`` to every row (out[i] for
    rows[i]) in ``n_chunks`` parts of the other rows, in parallel when there
    are several; the rows are walked in tiles of about TILE_BYTES that stay
    in cache while every one of ``rows`` passes over them.  One part runs
    in this thread: a parallel region per visit costs a fork and a join,
    and on a busy machine a wait for a descheduled thread."""
    row_bytes = copy.itemsize * copy.shape[1] + nom.itemsize * nom.shape[1]
    tile = max(16, TILE_BYTES // max(row_bytes, 1))
    if n_chunks == 1:
        _screen_part(0, 1, rows, copy, nom, weights.w32, weights.span, out,
                     tile)
    else:
        _screen_parts(rows, copy, nom, weights.w32, weights.span, out, tile,
                      n_chunks)


@njit(inline="always", **JIT)
def screen_weights(num, copy, w, unit, w32, order):
    """The weights of a weighted screen with distance weights ``w`` (``w32``
    is filled here) and the error bound (c, gamma) of its distances
    (``screen_bound``); ``order`` is the copy's column order.  Returns (c,
    gamma, ``ScreenWeights``)."""
    a_num = copy.shape[1]
    span = 0
    for i in range(a_num):
        w32[i] = w[order[i]] * unit if unit > 0 else w[order[i]]
        if w32[i] > 0:
            span = i + 1
    for f in range(a_num, w.shape[0]):
        w32[f] = w[f]
    c_err, gamma = screen_bound(num, w, True, unit)
    return c_err, gamma, ScreenWeights(w32, span)


@njit(parallel=True, **JIT)
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


@njit(**JIT)
def order_columns(copy, order, w, key, n_rows, waste, n_chunks):
    """Keep the features of weight 0, which add nothing to a screening
    distance, at the end of the screening copy, where the screen leaves
    them out (``ScreenWeights.span``: the columns up to the last positive
    weight).  ``order[i]`` is the numeric feature in column i of ``copy``.

    The zero-weight columns within the span, times the ``n_rows`` rows
    screened with it, add up in ``waste`` (in screens of the whole copy);
    when they reach REORDER_SCREENS, what a new order costs, the columns are
    put in the order of ``key`` (largest first: the running estimate, so
    that the features nearest to a positive weight come right after the
    positive ones; stable, so deterministic), in ``copy`` and in ``order``:
    a new order is paid for only once the columns it would have saved cost
    as much.  On continuous data 40-50 % of dReliefF's weights are 0
    (pdReliefF's, at least 1 / t^T, are not).  Returns the new waste."""
    a_num = copy.shape[1]
    span, n_positive = 0, 0
    for i in range(a_num):
        if w[order[i]] > 0:
            span, n_positive = i + 1, n_positive + 1
    waste += n_rows * (span - n_positive) / max(a_num, 1)
    if waste < REORDER_SCREENS:
        return waste
    new = np.argsort(-key[:a_num], kind="mergesort")
    column = np.empty(a_num, np.int64)
    for i in range(a_num):
        column[order[i]] = i
    _permute_columns(copy, column[new], n_chunks)
    order[:] = new
    return 0.0
