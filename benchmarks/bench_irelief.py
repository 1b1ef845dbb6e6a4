"""One I-RELIEF iteration against one ReliefF run on the same data (issue 34:
within 3x).

    python benchmarks/bench_irelief.py            # the data sets below
    python benchmarks/bench_irelief.py --quick    # small ones (seconds)

Both are timed in the same process, interleaved (ReliefF, I-RELIEF,
ReliefF, ...) after a warm-up call of each (compilation), all cores;
the table gives the medians and their ratio.  I-RELIEF's iteration
(``core.irelief``, max_iterations=1) visits every pair of instances: a
weighted float64 distance row and the kernel-weighted update over all other
instances, no screen.  ReliefF (k = 10, every instance visited) screens
distances in float32, or counts nominal mismatches 64 features at a time by
popcount (``core/nominal.py``), and updates from 2k neighbours only.
"""
import argparse
import os
import platform
import sys
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from orangecontrib.relief.core import relieff  # noqa: E402
from orangecontrib.relief.core.irelief import irelief  # noqa: E402

GAMETES = {20: "GAMETES_Epistasis_2-Way_20atts_0.4H_EDM-1_1.tsv",
           1000: "GAMETES_Epistasis_2-Way_1000atts_0.4H_EDM-1_EDM-1_1.tsv"}


def data_set(kind, n, a, data_dir, seed=0):
    """(X, y, nominal, note) of a data set kind:NxA."""
    rng = np.random.default_rng(seed)
    if kind == "gametes":
        path = Path(data_dir) / GAMETES.get(a, "")
        if a in GAMETES and path.exists():
            matrix = np.loadtxt(path, delimiter="\t", skiprows=1)[:n]
            return matrix[:, :-1], matrix[:, -1], np.ones(a, bool), "file"
        X = rng.integers(0, 3, (n, a)).astype(float)
        y = ((X[:, 0] + X[:, 1]) % 2 == 0).astype(float)
        return X, y, np.ones(a, bool), "random SNPs"
    X = rng.random((n, a))
    nominal = np.zeros(a, bool)
    if kind == "mixed":
        nominal[: a // 2] = True
        X[:, : a // 2] = rng.integers(0, 4, (n, a // 2))
        X[rng.random((n, a)) < 0.05] = np.nan
    y = ((np.nan_to_num(X[:, -1]) + np.nan_to_num(X[:, -2]) > 1)
         ^ (rng.random(n) < 0.1)).astype(float)
    return X, y, nominal, "5% missing" if kind == "mixed" else ""


def timed(function):
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


def measure(X, y, nominal, reps):
    """(median seconds of ReliefF, of one I-RELIEF iteration)."""
    def one_relieff():
        relieff(X, y, nominal)

    def one_iteration():
        irelief(X, y, nominal, max_iterations=1)
    one_relieff()
    one_iteration()
    relief_times, irelief_times = [], []
    for _ in range(reps):
        relief_times.append(timed(one_relieff))
        irelief_times.append(timed(one_iteration))
    return float(np.median(relief_times)), float(np.median(irelief_times))


DEFAULT = ["cont:2000x100", "mixed:1000x50", "gametes:1600x20",
           "gametes:1600x1000"]
QUICK = ["cont:300x20", "mixed:200x10", "gametes:200x20"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", nargs="+", default=None,
                        help="data sets kind:NxA (cont, mixed, gametes)")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--data-dir", default=str(ROOT.parent / "shared" /
                                                  "data"))
    args = parser.parse_args(argv)
    sizes = args.sizes or (QUICK if args.quick else DEFAULT)
    reps = 2 if args.quick else args.reps
    command = "python benchmarks/bench_irelief.py " + " ".join(
        argv if argv is not None else sys.argv[1:])
    print(f"`{command.strip()}` (Python {platform.python_version()}, "
          f"{os.cpu_count()} cores, load average "
          f"{' '.join(f'{v:.1f}' for v in os.getloadavg())}; medians of "
          f"{reps} interleaved runs)\n")
    print("| data | ReliefF run (s) | one I-RELIEF iteration (s) | ratio |")
    print("|---|---|---|---|")
    ratios = {}
    for size in sizes:
        kind, shape = size.split(":") if ":" in size else ("cont", size)
        n, a = (int(v) for v in shape.split("x"))
        X, y, nominal, note = data_set(kind, n, a, args.data_dir)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")       # (one iteration)
            relief_s, irelief_s = measure(X, y, nominal, reps)
        ratios[size] = irelief_s / relief_s
        label = f"{size}" + (f" ({note})" if note else "")
        print(f"| {label} | {relief_s:.4f} | {irelief_s:.4f} | "
              f"{ratios[size]:.2f} |", flush=True)
    return ratios


if __name__ == "__main__":
    main()
