"""One I-RELIEF iteration against one ReliefF run on the same data (issue 34:
within 3x).

    python benchmarks/bench_irelief.py            # the data sets below
    python benchmarks/bench_irelief.py --quick    # small ones (seconds)

Both are timed in the same process, interleaved (ReliefF, I-RELIEF,
ReliefF, ...) after a warm-up call of each (compilation), all cores;
the table gives the medians and their ratio, for the first iteration and
for the mean iteration of a run of LATER iterations (tolerance 0).
I-RELIEF's iteration (``core.irelief``) visits every pair of instances: a
float64 distance row (equal weights, the first iteration: nominal
mismatches counted by popcount; else the weighted sum over the features of
non-zero weight, four other instances at a time) and the kernel-weighted
update over all other instances (four at a time), no screen.  ReliefF
(k = 10, every instance visited) screens distances in float32, or counts
nominal mismatches 64 features at a time by popcount (``core/contract/nominal.py``),
and updates from 2k neighbours only.

Measured (issue 34), all cores, with the 2-core AMD EPYC quiet (load
average 1.3 to 1.7), ``python benchmarks/bench_irelief.py --reps 5``:
first iteration / mean iteration of five, against one ReliefF run:
cont:2000x100 1.89x / 1.51x, mixed:1000x50 1.37x / 1.33x, gametes:1600x20
0.78x / 0.78x, gametes:1600x1000 2.32x / 2.80x (the first version of
``core.irelief``, one margin at a time feature by feature: 8.5x / 8.1x
in the same minute).  With another job on the machine (load average 3 to
4) numba's two threads wait for each other and GAMETES' ratios rose to
3.8x / 4.6x; one thread in the same minute: 2.7x / 3.5x.

Where the time goes (GAMETES, 1,600 x 1,000 SNPs, one thread, load
average about 3; ReliefF 0.028 s): one iteration by pairs is pass 1, every
row's distances and kernel factors, and pass 2, the update of each pair
once.  Pass 2 takes 0.055 s (1.28 million pairs x 1,000 features, 0.043 ns
a term: one 8-wide masked add per 8 terms, the kernel's limit; eight
neighbours per pass over the sums, or four rows against four neighbours,
were slower).  Pass 1 takes 0.016 s with equal weights (the first
iteration: popcount), 0.045 s when 37 % of the weights are non-zero (as
after the first iteration here: 370 weighted features per distance, 0.033
ns a term, plus 2.6 million exps at about 3 ns, numba having no vectorised
exp here) and 0.098 s when all are: 2.5x, 3.6x and 5.5x ReliefF.  One
margin at a time (the layout kept for missing values and for fewer than
about 75 features, ``irelief.by_pairs``) took 0.119, 0.147 and 0.205 s.
What would cut the later iterations further: a cheaper weighted distance
in pass 1 (it must stay float64 and touch every pair: no screen), e.g.
bit-planes with per-byte tables of the weights (``core/contract/nominal.py`` tried
them for dReliefF: 2x faster on a Zen 1, 20 % slower on an AVX-512 Xeon),
or a vectorised exp (about 8 ms of the 45); the update itself is at the
kernel's limit.
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


#: iterations of the run whose mean iteration is timed too: the first
#: iteration has equal weights (its nominal distances are counted by
#: popcount), the later ones general weights (compared feature by feature,
#: over the features of non-zero weight)
LATER = 5


def timed(function):
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


def measure(X, y, nominal, reps, later=LATER):
    """(median seconds of ReliefF, of one I-RELIEF iteration, of the mean
    iteration of a run of ``later`` iterations)."""
    def one_relieff():
        relieff(X, y, nominal)

    def one_iteration():
        irelief(X, y, nominal, max_iterations=1)

    def run():
        """Seconds per iteration of a run (fewer than ``later`` where no
        margin is positive, which ends it)."""
        started = time.perf_counter()
        done = irelief(X, y, nominal, max_iterations=later,
                       tolerance=0.0).iterations
        return (time.perf_counter() - started) / max(done, 1)
    one_relieff()
    one_iteration()
    relief_times, irelief_times, run_times = [], [], []
    for _ in range(reps):
        relief_times.append(timed(one_relieff))
        irelief_times.append(timed(one_iteration))
        if later:
            run_times.append(run())
    return (float(np.median(relief_times)), float(np.median(irelief_times)),
            float(np.median(run_times)) if later else float("nan"))


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
    print("| data | ReliefF run (s) | one I-RELIEF iteration (s) | ratio | "
          f"mean iteration of {LATER} (s) | ratio |")
    print("|---|---|---|---|---|---|")
    ratios = {}
    for size in sizes:
        kind, shape = size.split(":") if ":" in size else ("cont", size)
        n, a = (int(v) for v in shape.split("x"))
        X, y, nominal, note = data_set(kind, n, a, args.data_dir)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")       # (one iteration)
            relief_s, irelief_s, mean_s = measure(X, y, nominal, reps)
        ratios[size] = irelief_s / relief_s
        label = f"{size}" + (f" ({note})" if note else "")
        print(f"| {label} | {relief_s:.4f} | {irelief_s:.4f} | "
              f"{ratios[size]:.2f} | {mean_s:.4f} | "
              f"{mean_s / relief_s:.2f} |", flush=True)
    return ratios


if __name__ == "__main__":
    main()
