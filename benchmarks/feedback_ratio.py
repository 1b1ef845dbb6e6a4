"""dReliefF and pdReliefF time over ReliefF time, measured interleaved.

    python benchmarks/feedback_ratio.py [--sizes gametes:1600x1000 ...]
                                        [--rounds 7]

Issue 3 asks for the feedback variants within 3x of ReliefF on the same data.
``bench_relieff.py`` times each method in its own process, one after the
other; on a shared machine whose speed drifts by tens of percent from minute
to minute (see RESULTS.md), their ratio then measures the drift as much as
the code.  Here the three variants take turns in one process, round after
round, on the data sets of ``bench_relieff.py`` (same generator and seed),
and the ratios are taken of the fastest and of the median fit of each.
Kernels are compiled (or loaded from cache) before the first round.
"""
import argparse
import sys
import os
# the compiled kernels, never the first-use vectorised path (core/backends/warmup.py)
os.environ.setdefault("ORANGE3_RELIEF_KERNELS", "compiled")
os.environ.setdefault("ORANGE3_RELIEF_WARMUP", "0")
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_relieff import GAMETES_FILE, SEED, make_dataset  # noqa: E402
from orangecontrib.relief.core import relieff  # noqa: E402

VARIANTS = ("relieff", "drelieff", "pdrelieff")
SIZES = ["cont:2000x100", "cont:5000x200", "gametes:1600x1000",
         "mixed:5000x200", "sparse:5000x20000", "cont:2000x5000",
         "cont:10000x500"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", default=SIZES)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--gametes", default=GAMETES_FILE)
    args = parser.parse_args()
    print("| data | ReliefF min / median | dReliefF min / median "
          "| d / ReliefF (min, median) | pdReliefF min / median "
          "| pd / ReliefF (min, median) |")
    print("|---|---|---|---|---|---|")
    for spec in args.sizes:
        data = make_dataset(spec, args.seed, args.gametes)
        X, y, nominal = data["X"], data["y"], data["nominal"]
        for variant in VARIANTS:
            relieff(X, y, nominal, variant=variant, n_iterations=20)
        times = {variant: [] for variant in VARIANTS}
        for _ in range(args.rounds):
            for variant in VARIANTS:
                start = time.perf_counter()
                relieff(X, y, nominal, variant=variant)
                times[variant].append(time.perf_counter() - start)
        best = {v: min(t) for v, t in times.items()}
        median = {v: float(np.median(t)) for v, t in times.items()}
        cells = [f"{best['relieff']:.3g} s / {median['relieff']:.3g} s"]
        for variant in VARIANTS[1:]:
            cells.append(f"{best[variant]:.3g} s / {median[variant]:.3g} s")
            cells.append(f"{best[variant] / best['relieff']:.2f}x, "
                         f"{median[variant] / median['relieff']:.2f}x")
        print(f"| {spec} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
