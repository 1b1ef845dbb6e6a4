"""The preparation alone (``contract.prepare.prepare``) on large dense data:
the minimum over rounds, for each size and number of threads.

    python benchmarks/bench_prepare.py                    # 20,000 x 500 and x 5,000
    python benchmarks/bench_prepare.py --sizes 100000x10000 --threads 16

To compare two commits, run it in a checkout of each, one after the other
(``PYTHONPATH=<checkout> python <checkout>/benchmarks/bench_prepare.py``).
The data: uniform values in [-2, 5) (range-normalised by ``prepare``), two
classes; the numba kernels are compiled (or loaded) before timing.
"""
import argparse
import sys
import time
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from orangecontrib.relief.core.backends.runtime import threads  # noqa: E402
from orangecontrib.relief.core.contract.prepare import prepare  # noqa: E402


def size(text):
    n, a = text.lower().split("x")
    return int(n), int(a)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="*", type=size,
                        default=[(20000, 500), (20000, 5000)])
    parser.add_argument("--threads", nargs="*", type=int,
                        default=sorted({1, numba.config.NUMBA_NUM_THREADS}))
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    for n, a in args.sizes:
        rng = np.random.default_rng([n, a])
        X = rng.random((n, a)) * 7 - 2
        y = (X[:, 0] > 1.5).astype(float)
        prepare(X[:max(2, 2_000_000 // a)], y[:max(2, 2_000_000 // a)])
        for count in args.threads:
            seconds = []
            with threads(count):
                for _ in range(args.rounds):
                    started = time.perf_counter()
                    prepare(X, y)
                    seconds.append(time.perf_counter() - started)
            print(f"prepare {n} x {a}, {count} thread(s): "
                  f"min {min(seconds) * 1e3:.1f} ms, "
                  f"median {np.median(seconds) * 1e3:.1f} ms", flush=True)


if __name__ == "__main__":
    main()
