"""What one NPDR run costs against one ReliefF run (issue 33).

    python benchmarks/bench_npdr.py [--sizes 5000x1000] [--rounds 3]

Random numeric data with a class from two features (as bench_stats.py),
in one process, interleaved, the minimum over ``--rounds`` of: ReliefF
(k = 10, compiled kernels), ``stats.npdr`` (k = 10, class-blind, logistic
fits), and ``stats.npdr`` with two covariates (one numeric, one nominal)
and, for a numeric target, RReliefF and NPDR's linear fits.  Prints the
times and the ratios to ReliefF (RReliefF for the numeric target).
"""
import argparse
import os
import time
import warnings

import numpy as np

os.environ.setdefault("ORANGE3_RELIEF_KERNELS", "compiled")
os.environ.setdefault("ORANGE3_RELIEF_WARMUP", "0")

from orangecontrib.relief.core import relieff  # noqa: E402
from orangecontrib.relief.stats import npdr  # noqa: E402


def data(n, a):
    """Random n x a features, two covariates (numeric, nominal) and the
    targets: a class from two features (their xor), a numeric one."""
    rng = np.random.default_rng(0)
    X = rng.random((n, a))
    covariates = np.column_stack([rng.random(n), rng.integers(0, 3, n)])
    return X, covariates, {
        "class": ((X[:, 0] > 0.5) ^ (X[:, 1] > 0.5)).astype(float),
        "numeric": X[:, 0] + X[:, 1] + 0.1 * rng.random(n)}


def best_times(runs, rounds):
    for run in runs.values():       # compile, warm the caches
        run()
    best = {name: np.inf for name in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            started = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - started)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", default=["5000x1000"])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    print("| data | target | ReliefF / RReliefF | NPDR | NPDR / Relief "
          "| NPDR, 2 covariates | / Relief |")
    print("|---|---|---|---|---|---|---|")
    for size in args.sizes:
        n, a = map(int, size.split("x"))
        X, covariates, targets = data(n, a)
        for target, y in targets.items():
            regression = target == "numeric"
            runs = {
                "Relief": lambda: relieff(X, y, regression=regression),
                "NPDR": lambda: npdr(X, y, regression=regression),
                "NPDR+": lambda: npdr(X, y, regression=regression,
                                      covariates=covariates,
                                      covariate_nominal=[False, True])}
            best = best_times(runs, args.rounds)
            base = best["Relief"]
            print(f"| {n:,} × {a:,} | {target} | {base:.2f} s | "
                  f"{best['NPDR']:.2f} s | {best['NPDR'] / base:.1f} | "
                  f"{best['NPDR+']:.2f} s | {best['NPDR+'] / base:.1f} |",
                  flush=True)


if __name__ == "__main__":
    main()
