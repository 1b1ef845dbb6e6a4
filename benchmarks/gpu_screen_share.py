"""How many float64 distances the GPU's float32 screen leaves to compute
(issue 41: "the float32 screen's share of decisions that need float64"),
measured on the CPU with NumPy, on bench_gpu.py's data.

The GPU (``backend.FLOAT32_SCREEN``) sums each visit's distances in float32
(``kernels.tiled_distances32``), finds each group's k-th screening distance,
and computes float64 distances for the members within its widened threshold
(``neighbours.widened_threshold`` with ``screens.screen_bound``'s c and
gamma; ``kernels.k_nearest_screened``).  Here the same bound and threshold
on float32 sums from NumPy (another summation order: the bound holds for
any), for a sample of visits: the candidates per group (the float64
distances the GPU computes), the neighbours the float64 distances keep (the
k nearest and their ties), and the candidates' share of all pairs.  Every
kept neighbour must be a candidate (checked).

    python benchmarks/gpu_screen_share.py      # 10,000 and 20,000 x 500
    python benchmarks/gpu_screen_share.py --sizes 100000x10000 --visits 20
"""
import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench_gpu import K, make, size  # noqa: E402
from orangecontrib.relief.core.backends.compiled.screens import \
    screen_bound  # noqa: E402
from orangecontrib.relief.core.contract.distances import TIE_RTOL  # noqa: E402
from orangecontrib.relief.core.contract.neighbours import \
    widened_threshold  # noqa: E402
from orangecontrib.relief.core.contract.prepare import prepare  # noqa: E402


def share(n, a, visits, k, seed=0):
    """(candidates per group, kept per group, candidates / members) over
    ``visits`` sampled visits of bench_gpu's n x a data."""
    X, y = make(n, a)
    prep = prepare(X, y)
    num = prep.num
    num32 = num.astype(np.float32)
    c_err, gamma = screen_bound(num, np.ones(a), False, 0.0)
    rng = np.random.default_rng(seed)
    candidates = kept = members = 0
    groups = 0
    for r in rng.choice(n, visits, replace=False):
        d32 = np.abs(num32 - num32[r]).sum(axis=1, dtype=np.float32)
        d64 = np.abs(num - num[r]).sum(axis=1)
        for c in range(prep.n_classes):
            mask = prep.group == c
            mask[r] = False
            screen, exact = d32[mask].astype(float), d64[mask]
            if len(exact) <= k:
                continue
            kth32 = np.partition(screen, k - 1)[k - 1]
            kth64 = np.partition(exact, k - 1)[k - 1]
            chosen = screen <= widened_threshold(kth32, c_err, gamma)
            keep = exact <= kth64 * (1 + TIE_RTOL)
            assert np.all(chosen[keep]), "a neighbour left out by the screen"
            candidates += chosen.sum()
            kept += keep.sum()
            members += len(exact)
            groups += 1
    return candidates / groups, kept / groups, candidates / members, \
        (c_err, gamma)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="*", type=size,
                        default=[(10000, 500), (20000, 500)])
    parser.add_argument("--visits", type=int, default=200)
    parser.add_argument("-k", type=int, default=K)
    args = parser.parse_args()
    print(f"ReliefF k={args.k}, bench_gpu.py's data, {args.visits} visits "
          f"sampled")
    print(f"{'size':>14s} {'candidates/group':>17s} {'kept/group':>11s} "
          f"{'float64 share of pairs':>23s}  bound (c, gamma)")
    for n, a in args.sizes:
        per_group, kept, fraction, (c_err, gamma) = share(
            n, a, args.visits, args.k)
        print(f"{n:>7d} x {a:<5d} {per_group:17.2f} {kept:11.2f} "
              f"{fraction:23.2e}  ({c_err:.1e}, {gamma:.1e})")


if __name__ == "__main__":
    main()
