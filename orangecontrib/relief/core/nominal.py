"""Mismatch counts over nominal features by bit-planes and popcount (numba).

``nom`` is a C-contiguous int8 or int32 array (n x a_nom) of codes 0, 1, ...
with no missing values.  ``pack_planes`` stores bit p of the code of feature
g as bit ``g % 64`` of word ``(g // 64) * n_bits + p``; two rows differ in the
features set in ``OR_p (A_p ^ B_p)``, so one popcount counts the mismatches
of 64 features (``mismatches_block4``): ReliefF's unweighted overlap distance
(seed eq. overlap) at 7-8x the speed of comparing the codes one by one on
GAMETES-like data (3 values, 2 bit-planes).

The weighted distances of dReliefF / pdReliefF are not counts.  They are
screened by lookup tables over the same mismatch words
(``weighted_mismatch_sums``): the weights are rounded to integer multiples
q_g of a unit (``table_unit``), and for each byte of a word (8 features) a
table of 256 entries holds the sum of q_g over every subset of its bits
(``fill_tables``), so 8 features cost one lookup.  On GAMETES (1,600 x
1,000, one thread, AMD EPYC) a visit's screen took 126-141 us this way, plus
8 us to build the tables (20 us before they were built by doubling), against
262 us for the SIMD comparison of the codes with float32 weights; rounding
the weights to 8-16 bits and counting with popcount per bit took 140-250 us
with more candidates, and per-chunk tables over the codes themselves (one
uint8 code for 5 ternary features) had been slower than the comparison
(0.67x).  Tables of 4-bit nibbles (16 KB, in L1) took 205 us: twice the
lookups; walking the words in blocks whose tables fit in L1 took 140-175 us
(the lookups are bound by instructions, about 5 per lookup, not by the
cache), and extracting the bytes through memory instead of shifts 265 us.
"""
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

_JIT = dict(cache=True, nogil=True)


# ---------------------------------------------------------------------------
# Bit-planes and popcount (unweighted mismatches)

@intrinsic
def popcount(typingctx, x):
    """The number of set bits of an integer (LLVM ``ctpop``, one ``popcnt``
    instruction where the CPU has it); the result has the type of ``x``."""
    if isinstance(x, types.Integer):
        def codegen(context, builder, signature, args):
            return builder.ctpop(args[0])
        return x(x), codegen
    return None


@intrinsic
def trailing_zeros(typingctx, x):
    """The number of zero bits below the lowest set bit of an integer x != 0
    (LLVM ``cttz``, one ``tzcnt`` instruction where the CPU has it)."""
    if isinstance(x, types.Integer):
        def codegen(context, builder, signature, args):
            return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
        return x(x), codegen
    return None


@njit(**_JIT)
def _max_code(nom):
    n, a = nom.shape
    top = 0
    low = 0
    for i in range(n):
        row = nom[i]
        for g in range(a):
            c = np.int64(row[g])
            if c > top:
                top = c
            if c < low:
                low = c
    return top, low


@njit(**_JIT)
def _fill_planes(nom, n_bits, planes):
    n, a = nom.shape
    n_words = (a + 63) // 64
    for i in range(n):
        row = nom[i]
        prow = planes[i]
        for k in range(n_words):
            g0 = 64 * k
            m = min(64, a - g0)
            segment = row[g0:g0 + m]
            for p in range(n_bits):
                # an OR-reduction over the 64 features: LLVM vectorises it
                word = np.uint64(0)
                for t in range(m):
                    bit = np.uint64((np.int64(segment[t]) >> p) & 1)
                    word |= bit << np.uint64(t)
                prow[k * n_bits + p] = word


def pack_planes(nom):
    """Bit-planes of nominal codes: ``(planes, n_bits)``.

    ``n_bits = max(1, ceil(log2(max_code + 1)))`` over the whole array;
    ``planes`` is uint64, C-contiguous, n x (n_words * n_bits) with ``n_words
    = ceil(a_nom / 64)``: bit ``g % 64`` of column ``(g // 64) * n_bits + p`` is
    bit p of the code of feature g; padding bits are 0."""
    nom = np.ascontiguousarray(nom)
    if nom.ndim != 2:
        raise ValueError("nom must be 2-D")
    if nom.dtype.kind not in "iu" or nom.dtype.itemsize > 4:
        raise TypeError(f"nominal codes must be int8/16/32, not {nom.dtype}")
    n, a = nom.shape
    top, low = _max_code(nom) if nom.size else (0, 0)
    if low < 0:
        raise ValueError("pack_planes needs codes >= 0 (no missing values)")
    n_bits = max(1, int(top).bit_length())
    n_words = (a + 63) // 64
    planes = np.empty((n, n_words * n_bits), dtype=np.uint64)
    if planes.size:
        _fill_planes(nom, n_bits, planes)
    return planes, n_bits


@njit(inline="always", **_JIT)
def _differ4(p, q0, q1, q2, q3, k0, n_bits):
    """The numbers of features of the word of 64 at planes k0 .. k0 + n_bits
    - 1 in which the codes of row ``p`` differ from those of rows q0 .. q3:
    the planes' XORs OR-ed, then counted.  Symmetric in p and q."""
    u = p[k0]
    d0, d1, d2, d3 = u ^ q0[k0], u ^ q1[k0], u ^ q2[k0], u ^ q3[k0]
    for c in range(1, n_bits):
        k = k0 + np.uint64(c)
        u = p[k]
        d0 |= u ^ q0[k]
        d1 |= u ^ q1[k]
        d2 |= u ^ q2[k]
        d3 |= u ^ q3[k]
    return popcount(d0), popcount(d1), popcount(d2), popcount(d3)


@njit(inline="always", **_JIT)
def _add_counts(out, i, j, counts):
    """out[i, j + q] += counts[q]"""
    out[i, j] += counts[0]
    out[i, j + 1] += counts[1]
    out[i, j + 2] += counts[2]
    out[i, j + 3] += counts[3]


@njit(inline="always", **_JIT)
def _block4(rows, planes, n_bits, out, j0, j1):
    """``mismatches_block4`` with ``n_bits`` inlined as a constant where the
    caller has one: LLVM then unrolls the planes (the 1- and 2-bit cases
    run at the speed of hand-written kernels).  Unsigned word indices:
    signed ones got checks for negative values (1.4x slower)."""
    n_words = planes.shape[1] // n_bits
    p0, p1, p2, p3 = (planes[rows[0]], planes[rows[1]], planes[rows[2]],
                      planes[rows[3]])
    zero = np.uint64(0)
    j = j0
    while j + 4 <= j1:
        q0, q1, q2, q3 = planes[j], planes[j + 1], planes[j + 2], planes[j + 3]
        m0 = (zero, zero, zero, zero)
        m1, m2, m3 = m0, m0, m0
        for word in range(n_words):
            k0 = np.uint64(word * n_bits)
            c = _differ4(p0, q0, q1, q2, q3, k0, n_bits)
            m0 = (m0[0] + c[0], m0[1] + c[1], m0[2] + c[2], m0[3] + c[3])
            c = _differ4(p1, q0, q1, q2, q3, k0, n_bits)
            m1 = (m1[0] + c[0], m1[1] + c[1], m1[2] + c[2], m1[3] + c[3])
            c = _differ4(p2, q0, q1, q2, q3, k0, n_bits)
            m2 = (m2[0] + c[0], m2[1] + c[1], m2[2] + c[2], m2[3] + c[3])
            c = _differ4(p3, q0, q1, q2, q3, k0, n_bits)
            m3 = (m3[0] + c[0], m3[1] + c[1], m3[2] + c[2], m3[3] + c[3])
        _add_counts(out, 0, j, m0)
        _add_counts(out, 1, j, m1)
        _add_counts(out, 2, j, m2)
        _add_counts(out, 3, j, m3)
        j += 4
    for j in range(j, j1):
        # one other row against the four visited ones (XOR is symmetric)
        q = planes[j]
        m = (zero, zero, zero, zero)
        for word in range(n_words):
            c = _differ4(q, p0, p1, p2, p3, np.uint64(word * n_bits), n_bits)
            m = (m[0] + c[0], m[1] + c[1], m[2] + c[2], m[3] + c[3])
        for i in range(4):
            out[i, j] += m[i]


@njit(**_JIT)
def mismatches_block4(rows, planes, n_bits, out, j0, j1):
    """``out[i, j] += #{g : nom[rows[i], g] != nom[j, g]}`` for i < 4 and j in
    [j0, j1), from the bit-planes of ``pack_planes``.

    A 4 x 4 register tile: each other row's planes, loaded once, serve the
    four visited rows (the tail of fewer than four other rows goes one at a
    time); the counts are exact.  One, two (ternary SNPs) and more
    bit-planes get their own compiled copy of ``_block4``."""
    if n_bits == 1:
        _block4(rows, planes, 1, out, j0, j1)
    elif n_bits == 2:
        _block4(rows, planes, 2, out, j0, j1)
    else:
        _block4(rows, planes, n_bits, out, j0, j1)


# ---------------------------------------------------------------------------
# Lookup tables over mismatch bytes (weighted mismatches, screening)

# The weights are rounded to multiples of max(w) / (2^TABLE_BITS - 1): table
# entries (sums of 8) fit in uint32 and the rounding error is ~1e-8 of the
# largest weight per feature.
TABLE_BITS = 24


def table_shape(planes, n_bits):
    """The shape of the tables ``weight_tables`` fills: 8 bytes per word of
    64 features, 256 entries each."""
    return (planes.shape[1] // max(n_bits, 1) * 8, 256)


@njit(**_JIT)
def table_unit(w):
    """(unit, error) of the tables of weights ``w`` (>= 0): the weights are
    rounded to q_g = round(w_g / unit) with unit = max(w) / (2^TABLE_BITS -
    1), so unit times a sum of q_g over any set of features is within
    ``error`` = sum_g |w_g - unit q_g| of the sum of their w_g."""
    top = 0.0
    for g in range(w.shape[0]):
        top = max(top, w[g])
    unit = top / (2 ** TABLE_BITS - 1)
    error = 0.0
    if unit > 0:
        scale = 1.0 / unit
        for g in range(w.shape[0]):
            error += abs(w[g] - unit * np.float64(np.uint32(w[g] * scale
                                                            + 0.5)))
    return unit, error


@njit(**_JIT)
def fill_tables(w, unit, tables, t0, t1):
    """Fill ``tables[t, m]``, t0 <= t < t1, with the sum of q_g (``table_unit``)
    over the set bits of m, for the features g = 8t .. 8t + 7 (features past
    len(w) count 0).  Each table is built by doubling: entries [2^b,
    2^(b+1)) are entries [0, 2^b) plus q of the table's b-th feature (it
    vectorises: 20 -> 8 us for 1,000 features).  Parts of the tables can be
    filled at the same time."""
    a = w.shape[0]
    scale = 1.0 / unit if unit > 0 else 0.0
    q = np.zeros(8, np.uint32)
    for t in range(t0, t1):
        for b in range(8):
            g = 8 * t + b
            q[b] = np.uint32(w[g] * scale + 0.5) if g < a else 0
        table = tables[t]
        table[0] = 0
        for b in range(8):
            step = 1 << b
            q_b = q[b]
            lower, upper = table[:step], table[step:2 * step]
            for m in range(step):
                upper[m] = lower[m] + q_b


@njit(**_JIT)
def weight_tables(w, tables):
    """Fill all ``tables`` for weights ``w`` (``fill_tables``); returns
    ``table_unit(w)``."""
    unit, error = table_unit(w)
    fill_tables(w, unit, tables, 0, tables.shape[0])
    return unit, error


@njit(**_JIT)
def weighted_mismatch_sums(r, planes, n_bits, tables, out, j0, j1, k0, k1):
    """``out[j] += the sum of q_g over the features of words [k0, k1) in
    which row r and row j differ`` (exact integers, ``out`` uint64), for j
    in [j0, j1), from the bit-planes of ``pack_planes`` and the tables of
    ``weight_tables``; unit times the sum over all words is the screening
    distance.  The tables are indexed as one flat array (2-D indexing with
    the uint64 bytes was 1.7x slower), with unsigned indices (signed ones
    from k0 got checks for negative values: 2x slower)."""
    p = planes[r]
    flat = tables.reshape(-1)
    byte = np.uint64(255)
    bits = np.uint64(n_bits)
    for j in range(j0, j1):
        other = planes[j]
        s0 = s1 = np.uint64(0)
        k = np.uint64(k0)
        while k < np.uint64(k1):
            b = bits * k
            if n_bits == 2:
                d = (p[b] ^ other[b]) | (p[b + np.uint64(1)]
                                         ^ other[b + np.uint64(1)])
            else:
                d = np.uint64(0)
                for c in range(n_bits):
                    d |= p[b + np.uint64(c)] ^ other[b + np.uint64(c)]
            base = np.uint64(2048) * k
            for i in range(0, 8, 2):
                s0 += flat[base + np.uint64(256 * i)
                           + ((d >> np.uint64(8 * i)) & byte)]
                s1 += flat[base + np.uint64(256 * i + 256)
                           + ((d >> np.uint64(8 * i + 8)) & byte)]
            k += np.uint64(1)
        out[j] += s0 + s1


@njit(**_JIT)
def table_sums(rows, planes, n_bits, w, unit, tables, sums, k0, k1, tile):
    """The part of the words [k0, k1) of a weighted nominal screen: fill
    their lookup tables for weights ``w`` (``fill_tables``) and set
    ``sums[i, j]`` to the integer sum of the rounded weights over those
    words' features in which rows[i] and row j differ
    (``weighted_mismatch_sums``), for every row j, in tiles of ``tile``
    rows.  Parts of the words can be done at the same time."""
    n = planes.shape[0]
    fill_tables(w, unit, tables, 8 * k0, 8 * k1)
    sums[:rows.shape[0]] = 0
    for j0 in range(0, n, tile):
        j1 = min(n, j0 + tile)
        for i in range(rows.shape[0]):
            weighted_mismatch_sums(rows[i], planes, n_bits, tables, sums[i],
                                   j0, j1, k0, k1)
