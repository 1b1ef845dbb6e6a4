"""What measuring redundancy adds to a ReliefF run (issue 42: at most 20 %
for the top t = 50 features).

    python benchmarks/redundancy_cost.py [--rows 2000] [--features 500]

``redundancy.relief_redundancy`` is one ReliefF run that keeps its trace at
every visit (m × a floats), then the correlation of the top 50 features'
update sequences; the plain run is ``core.relieff``.  Times are the best of
``--repeats`` after one warm-up run of each, with the ratio printed.
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from orangecontrib.relief.core import relieff  # noqa: E402
from orangecontrib.relief.stats.redundancy import relief_redundancy  # noqa: E402


def best_time(function, repeats):
    """The shortest wall time of ``repeats`` calls (after one warm-up)."""
    function()
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return min(times)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--features", type=int, default=500)
    parser.add_argument("--top", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    X = rng.random((args.rows, args.features))
    X[:, 5:10] = X[:, :5] + rng.normal(0, 0.05, (args.rows, 5))
    y = (X[:, :5].sum(axis=1) > 2.5).astype(float)
    plain = best_time(lambda: relieff(X, y), args.repeats)
    measured = best_time(lambda: relief_redundancy(X, y, top=args.top),
                         args.repeats)
    print(f"{args.rows} rows x {args.features} features, top {args.top}: "
          f"ReliefF {plain:.3f} s, with redundancy {measured:.3f} s, "
          f"ratio {measured / plain:.3f}")


if __name__ == "__main__":
    main()
