"""Progress and cancel of CORElearn's estimators computed on top of the
engine (issue 40, item 3): how often they report progress, and what a
callback costs.

    python benchmarks/corelearn_progress.py [--n 1000] [--a 10]

For each estimator on top of the engine (``corelearn.run``): the run's time
without a progress callback and with one (the fastest of three), whether
the weights are identical, the number of progress calls and the longest gap
between two of them (a cancel, the callback raising, takes effect at the
next call: the gap bounds how long the widget's Cancel waits).  Each
estimator runs once on 60 rows first, so imports and compiling are not
counted.
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from orangecontrib.relief.corelearn import ESTIMATORS, names, run  # noqa


def timed(name, X, y, regression, progress):
    """(the fastest of three runs' seconds, the weights)."""
    best = np.inf
    for _ in range(3):
        start = time.perf_counter()
        weights = run(name, X, y, None, regression,
                      progress=progress).weights
        best = min(best, time.perf_counter() - start)
    return best, weights


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--a", type=int, default=10)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    X = rng.random((args.n, args.a))
    classes = (X[:, 0] + X[:, 1] > 1).astype(float) + (X[:, 2] > 0.7)
    target = X[:, 0] + 0.3 * rng.random(args.n)
    print(f"{args.n} x {args.a} continuous")
    print("| estimator | without progress | with | same weights "
          "| progress calls | longest gap |")
    print("|---|---|---|---|---|---|")
    for name in names(available=True):
        if ESTIMATORS[name].options is not None:
            continue
        regression = ESTIMATORS[name].regression
        y = target if regression else classes
        run(name, X[:60], y[:60], None, regression)
        plain, weights = timed(name, X, y, regression, None)
        reported, with_progress = timed(name, X, y, regression,
                                        lambda fraction: None)
        calls = []
        run(name, X, y, None, regression,
            progress=lambda fraction: calls.append(time.perf_counter()))
        gap = np.diff(calls).max() if len(calls) > 1 else float("nan")
        print(f"| {name} | {plain:.3f} s | {reported:.3f} s | "
              f"{np.array_equal(weights, with_progress)} | {len(calls)} | "
              f"{gap:.3f} s |")


if __name__ == "__main__":
    main()
