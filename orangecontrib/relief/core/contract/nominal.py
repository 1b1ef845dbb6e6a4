"""Mismatch counts over nominal features by bit-planes and popcount (numba).

``nom`` is a C-contiguous int8 or int32 array (n x a_nom) of codes 0, 1, ...
with no missing values.  ``pack_planes`` stores bit p of the code of feature
g as bit ``g % 64`` of word ``(g // 64) * n_bits + p``; two rows differ in the
features set in ``OR_p (A_p ^ B_p)``, so one popcount counts the mismatches
of 64 features (``mismatches_block4``): ReliefF's unweighted overlap distance
(seed eq. overlap) at 5x the speed of comparing the codes one by one on
GAMETES-like data (3 values, 2 bit-planes; ``benchmarks/RESULTS.md``).

The weighted distances of dReliefF / pdReliefF are not counts; they compare
the codes with float32 weights (``screens.weighted_screens``).  Lookup tables
of the rounded weights over mismatch bytes were 2x faster than that on an
AMD Zen 1 and 20 % slower on an Intel Xeon with AVX-512 (run 20 of
``benchmarks/RESULTS.md``): they were removed.
"""
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

_JIT = dict(cache=True, nogil=True)


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
