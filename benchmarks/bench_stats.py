"""What the significance tests cost against one ReliefF run (issue 22).

    python benchmarks/bench_stats.py [--sizes 500x50 2000x100] [--rounds 3]

Random numeric data with a class from two features; in one process,
interleaved, the minimum over ``--rounds`` of: ReliefF (k = 10, compiled
kernels), ``stats.stir`` (its own ReliefF run plus the pair sums on the
vectorised NumPy path) and ``stats.permutation_test`` with R = 19.  Prints
the times and the ratios to ReliefF.
"""
import argparse
import os
import time

import numpy as np

os.environ.setdefault("ORANGE3_RELIEF_KERNELS", "compiled")
os.environ.setdefault("ORANGE3_RELIEF_WARMUP", "0")

from orangecontrib.relief.core import relieff  # noqa: E402
from orangecontrib.relief.stats import permutation_test, stir  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", default=["500x50", "2000x100"])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print("| data | ReliefF | STIR | STIR / ReliefF | permutation R = 19 "
          "| permutation / ReliefF |")
    print("|---|---|---|---|---|---|")
    for size in args.sizes:
        n, a = map(int, size.split("x"))
        rng = np.random.default_rng(0)
        X = rng.random((n, a))
        y = ((X[:, 0] > 0.5) ^ (X[:, 1] > 0.5)).astype(float)
        runs = {"ReliefF": lambda: relieff(X, y),
                "STIR": lambda: stir(X, y),
                "permutation": lambda: permutation_test(
                    X, y, n_permutations=19)}
        for run in runs.values():       # compile, warm the caches
            run()
        best = {name: np.inf for name in runs}
        for _ in range(args.rounds):
            for name, run in runs.items():
                started = time.perf_counter()
                run()
                best[name] = min(best[name], time.perf_counter() - started)
        base = best["ReliefF"]
        print(f"| {n:,} × {a} | {base:.3f} s | {best['STIR']:.3f} s | "
              f"{best['STIR'] / base:.1f} | {best['permutation']:.3f} s | "
              f"{best['permutation'] / base:.1f} |")


if __name__ == "__main__":
    main()
