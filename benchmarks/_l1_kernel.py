"""The "L1 limit" kernel of bench_relieff.py, in its own module so that numba can cache it
(``cache=True`` needs a module-level function) and so that only the L1 subprocesses import
numba through it.

``l1_all_pairs(Z, zero, row_block, col_block)`` computes

    Σ_i Σ_j Σ_f |Z[i, f] − Z[j, f]|

over all n² ordered pairs of rows of the range-normalised matrix ``Z`` (n × a, C order):
the distance terms every ReliefF run with m = n must at least compute, with no neighbour
search and no n × n matrix. Row blocks run in parallel (``prange``); each walks the other
rows in tiles that stay in cache; four rows share every load of ``Z[j]`` and the loop over
features is vectorised. ``zero`` (``Z.dtype.type(0)``) makes the per-pair sums accumulate
in Z's precision. The checksum it returns keeps anything from being optimised away.
"""
import numpy as np
from numba import njit, prange


@njit(parallel=True, fastmath=True, cache=True)
def l1_all_pairs(Z, zero, row_block, col_block):
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


def blocks(n, a, itemsize):
    """Row block and column tile; the tile of Z[j] rows should fit in L2 (~256 KB)."""
    col_block = int(min(n, max(16, 262144 // max(1, a * itemsize))))
    return 16, col_block
