"""The "L1 limit" kernels of bench_relieff.py, in their own module so that numba can cache them
(``cache=True`` needs module-level functions) and so that only the L1 subprocesses import
numba through it.

Every kernel computes

    Σ_i Σ_j Σ_f |Z[i, f] − Z[j, f]|

over all n² ordered pairs of rows of the range-normalised matrix ``Z`` (n × a, C order):
the distance terms every ReliefF run with m = n must at least compute, with no neighbour
search and no n × n matrix. Each pair's sum is accumulated on its own (in Z's precision:
``zero`` is ``Z.dtype.type(0)``), as a distance would be, then added to a checksum that keeps
anything from being optimised away. Row blocks run in parallel (``prange``).

Candidates (``CANDIDATES``; the harness times each on the data and keeps the fastest, since
the limit is the best measured rate):

* ``4x4``: a 4 × 4 register tile, four visited rows against four other rows, 16 accumulators,
  the feature loop vectorised (8 loads per 16 |x − y| vectors); no column tiling.
* ``4x4 tiled``: the same tile, the other rows walked in column tiles of ~512 KB (L2).
* ``4x1``: four visited rows share every load of ``Z[j]``; column tiles of ~256 KB.
* ``min 4x2``: the min form x + y − 2 min(x, y) that ours uses (a min and an add per term
  instead of a subtract, an abs and an add), four visited rows against two other rows;
  column tiles of ~256 KB.

``l1_all_pairs(Z, zero, row_block, col_block)`` is the 4 × 4 kernel (``col_block = n``: no
column tiling); ``blocks(n, a, itemsize)`` gives its default blocks.
"""
import time

import numpy as np
from numba import njit, prange


@njit(parallel=True, fastmath=True, cache=True)
def l1_4x4(Z, zero, row_block, col_block):
    n, a = Z.shape
    n_blocks = (n + row_block - 1) // row_block
    partial = np.zeros(n_blocks)
    for b in prange(n_blocks):
        i0 = b * row_block
        i1 = min(n, i0 + row_block)
        acc = 0.0
        for j0 in range(0, n, col_block):
            j1 = min(n, j0 + col_block)
            i = i0
            while i + 4 <= i1:
                x0 = Z[i]
                x1 = Z[i + 1]
                x2 = Z[i + 2]
                x3 = Z[i + 3]
                j = j0
                while j + 4 <= j1:
                    y0 = Z[j]
                    y1 = Z[j + 1]
                    y2 = Z[j + 2]
                    y3 = Z[j + 3]
                    s00 = zero; s01 = zero; s02 = zero; s03 = zero
                    s10 = zero; s11 = zero; s12 = zero; s13 = zero
                    s20 = zero; s21 = zero; s22 = zero; s23 = zero
                    s30 = zero; s31 = zero; s32 = zero; s33 = zero
                    for f in range(a):
                        v0 = y0[f]; v1 = y1[f]; v2 = y2[f]; v3 = y3[f]
                        u = x0[f]
                        s00 += abs(u - v0); s01 += abs(u - v1)
                        s02 += abs(u - v2); s03 += abs(u - v3)
                        u = x1[f]
                        s10 += abs(u - v0); s11 += abs(u - v1)
                        s12 += abs(u - v2); s13 += abs(u - v3)
                        u = x2[f]
                        s20 += abs(u - v0); s21 += abs(u - v1)
                        s22 += abs(u - v2); s23 += abs(u - v3)
                        u = x3[f]
                        s30 += abs(u - v0); s31 += abs(u - v1)
                        s32 += abs(u - v2); s33 += abs(u - v3)
                    acc += (s00 + s01 + s02 + s03 + s10 + s11 + s12 + s13
                            + s20 + s21 + s22 + s23 + s30 + s31 + s32 + s33)
                    j += 4
                while j < j1:
                    y0 = Z[j]
                    s00 = zero; s10 = zero; s20 = zero; s30 = zero
                    for f in range(a):
                        v0 = y0[f]
                        s00 += abs(x0[f] - v0); s10 += abs(x1[f] - v0)
                        s20 += abs(x2[f] - v0); s30 += abs(x3[f] - v0)
                    acc += s00 + s10 + s20 + s30
                    j += 1
                i += 4
            while i < i1:
                x0 = Z[i]
                for j in range(j0, j1):
                    y0 = Z[j]
                    s00 = zero
                    for f in range(a):
                        s00 += abs(x0[f] - y0[f])
                    acc += s00
                i += 1
        partial[b] = acc
    return partial.sum()


@njit(parallel=True, fastmath=True, cache=True)
def l1_4x1(Z, zero, row_block, col_block):
    n, a = Z.shape
    n_blocks = (n + row_block - 1) // row_block
    partial = np.zeros(n_blocks)
    for b in prange(n_blocks):
        i0 = b * row_block
        i1 = min(n, i0 + row_block)
        acc = 0.0
        for j0 in range(0, n, col_block):
            j1 = min(n, j0 + col_block)
            i = i0
            while i + 4 <= i1:
                z0 = Z[i]
                z1 = Z[i + 1]
                z2 = Z[i + 2]
                z3 = Z[i + 3]
                for j in range(j0, j1):
                    zj = Z[j]
                    s0 = zero
                    s1 = zero
                    s2 = zero
                    s3 = zero
                    for f in range(a):
                        v = zj[f]
                        s0 += abs(z0[f] - v)
                        s1 += abs(z1[f] - v)
                        s2 += abs(z2[f] - v)
                        s3 += abs(z3[f] - v)
                    acc += s0 + s1 + s2 + s3
                i += 4
            while i < i1:
                zi = Z[i]
                for j in range(j0, j1):
                    zj = Z[j]
                    s0 = zero
                    for f in range(a):
                        s0 += abs(zi[f] - zj[f])
                    acc += s0
                i += 1
        partial[b] = acc
    return partial.sum()


@njit(parallel=True, fastmath=True, cache=True)
def l1_min_4x2(Z, zero, row_block, col_block):
    """The min form |x − y| = x + y − 2 min(x, y): per pair S_i + S_j − 2 Σ_f min(Z[i, f],
    Z[j, f]) with the row sums S (float64) computed first; a 4 × 2 register tile (eight
    accumulators, no spills with AVX2's 16 vector registers)."""
    n, a = Z.shape
    S = np.empty(n)
    for i in range(n):
        S[i] = Z[i].astype(np.float64).sum()
    n_blocks = (n + row_block - 1) // row_block
    partial = np.zeros(n_blocks)
    for b in prange(n_blocks):
        i0 = b * row_block
        i1 = min(n, i0 + row_block)
        acc = 0.0
        for j0 in range(0, n, col_block):
            j1 = min(n, j0 + col_block)
            i = i0
            while i + 4 <= i1:
                x0 = Z[i]
                x1 = Z[i + 1]
                x2 = Z[i + 2]
                x3 = Z[i + 3]
                j = j0
                while j + 2 <= j1:
                    y0 = Z[j]
                    y1 = Z[j + 1]
                    s00 = zero; s01 = zero; s10 = zero; s11 = zero
                    s20 = zero; s21 = zero; s30 = zero; s31 = zero
                    for f in range(a):
                        v0 = y0[f]; v1 = y1[f]
                        u = x0[f]
                        s00 += min(u, v0); s01 += min(u, v1)
                        u = x1[f]
                        s10 += min(u, v0); s11 += min(u, v1)
                        u = x2[f]
                        s20 += min(u, v0); s21 += min(u, v1)
                        u = x3[f]
                        s30 += min(u, v0); s31 += min(u, v1)
                    acc += (4 * (S[j] + S[j + 1]) + 2 * (S[i] + S[i + 1] + S[i + 2] + S[i + 3])
                            - 2.0 * (s00 + s01 + s10 + s11 + s20 + s21 + s30 + s31))
                    j += 2
                while j < j1:
                    y0 = Z[j]
                    s00 = zero
                    for f in range(a):
                        v0 = y0[f]
                        s00 += min(x0[f], v0) + min(x1[f], v0) + min(x2[f], v0) + min(x3[f], v0)
                    acc += 4 * S[j] + S[i] + S[i + 1] + S[i + 2] + S[i + 3] - 2.0 * s00
                    j += 1
                i += 4
            while i < i1:
                x0 = Z[i]
                for j in range(j0, j1):
                    y0 = Z[j]
                    s00 = zero
                    for f in range(a):
                        s00 += min(x0[f], y0[f])
                    acc += S[i] + S[j] - 2.0 * s00
                i += 1
        partial[b] = acc
    return partial.sum()


def _tile_rows(n, a, itemsize, tile_bytes, minimum):
    return int(min(n, max(minimum, tile_bytes // max(1, a * itemsize))))


def _blocks_4x4(n, a, itemsize):
    return 4, max(1, n)


def _blocks_4x4_tiled(n, a, itemsize):
    return 16, _tile_rows(n, a, itemsize, 524288, 16)


def _blocks_4x1(n, a, itemsize):
    return 16, _tile_rows(n, a, itemsize, 262144, 16)


# name -> (kernel, blocks(n, a, itemsize) -> (row_block, col_block))
CANDIDATES = {
    "4x4": (l1_4x4, _blocks_4x4),
    "4x4 tiled": (l1_4x4, _blocks_4x4_tiled),
    "4x1": (l1_4x1, _blocks_4x1),
    "min 4x2": (l1_min_4x2, _blocks_4x1),
}

l1_all_pairs = l1_4x4


def blocks(n, a, itemsize):
    """Row block and column tile of ``l1_all_pairs`` (the 4 × 4 kernel, no column tiling)."""
    return _blocks_4x4(n, a, itemsize)


def pick_fastest(Z, zero, max_terms=2e9, reps=2):
    """Time every candidate on ``Z`` (on its first rows when n²·a > max_terms; after one
    untimed call each, which also compiles or loads it) and return
    ``(name, kernel, row_block, col_block, {name: seconds})`` of the fastest."""
    n, a = Z.shape
    rows = n if n * n * a <= max_terms else max(4, int((max_terms / max(1, a)) ** 0.5))
    S = Z[:rows]
    times = {}
    for name, (kernel, blk) in CANDIDATES.items():
        rb, cb = blk(rows, a, Z.itemsize)
        kernel(S, zero, rb, cb)
        best = float("inf")
        for _ in range(reps):
            t0 = time.perf_counter()
            kernel(S, zero, rb, cb)
            best = min(best, time.perf_counter() - t0)
        times[name] = best
    name = min(times, key=times.get)
    kernel, blk = CANDIDATES[name]
    rb, cb = blk(n, a, Z.itemsize)
    return name, kernel, rb, cb, times
