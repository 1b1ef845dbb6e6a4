"""Two engines (two commits) timed turn about in one process, as ratios.

    python benchmarks/ab_engines.py --old 60cd2be [--new REV] \
        [--sizes cont:2000x100 gametes:1600x1000 ...] [--rounds 5] \
        [--variants relieff drelieff pdrelieff]

A change that should not cost speed (a reshape) is judged by new time / old
time on the benchmark's data sets (``bench_relieff.make_dataset``, same
generator and seed).  The machine's speed drifts by tens of percent from
minute to minute, so both engines run in this one process, alternating within
every round (old first in even rounds, new first in odd ones), and the ratio
is taken of the fastest and of the median fit of each.  ``--new`` defaults to
the working tree.  Each engine's kernels are compiled (or loaded from its
cache) before the first round.
"""
import argparse
import sys
import os
# the compiled kernels, never the first-use vectorised path (core/warmup.py)
os.environ.setdefault("ORANGE3_RELIEF_KERNELS", "compiled")
os.environ.setdefault("ORANGE3_RELIEF_WARMUP", "0")
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _engines import load_core  # noqa: E402
from bench_relieff import GAMETES_FILE, SEED, make_dataset  # noqa: E402

VARIANTS = ("relieff", "drelieff", "pdrelieff")
SIZES = ["cont:500x50", "cont:2000x100", "cont:5000x200", "gametes:1600x1000",
         "mixed:5000x200", "sparse:5000x20000", "cont:2000x5000",
         "cont:10000x500"]


def interleaved(calls, rounds):
    """{name: [seconds, ...]} of ``calls`` ({name: function}), each called
    once per round, in rotating order; every call is made once first, untimed
    (compilation, caches)."""
    names = list(calls)
    for name in names:
        calls[name]()
    times = {name: [] for name in names}
    for r in range(rounds):
        shift = r % len(names)
        for name in names[shift:] + names[:shift]:
            started = time.perf_counter()
            calls[name]()
            times[name].append(time.perf_counter() - started)
    return times


def summary(seconds):
    return min(seconds), float(np.median(seconds))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="git revision")
    parser.add_argument("--new", help="git revision (default: working tree)")
    parser.add_argument("--sizes", nargs="+", default=SIZES)
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--gametes", default=GAMETES_FILE)
    args = parser.parse_args()
    engines = {"old": load_core(args.old), "new": load_core(args.new)}
    print(f"old = {args.old}, new = {args.new or 'working tree'}; "
          f"{args.rounds} rounds, interleaved\n")
    print("| data | variant | old min / median | new min / median "
          "| new / old (min, median) |")
    print("|---|---|---|---|---|")
    for spec in args.sizes:
        data = make_dataset(spec, args.seed, args.gametes)
        X, y, nominal = data["X"], data["y"], data["nominal"]
        for variant in args.variants:
            calls = {name: (lambda core=core: core.relieff(
                X, y, nominal, variant=variant))
                for name, core in engines.items()}
            times = interleaved(calls, args.rounds)
            old, new = summary(times["old"]), summary(times["new"])
            print(f"| {spec} | {variant} | {old[0]:.4g} / {old[1]:.4g} s "
                  f"| {new[0]:.4g} / {new[1]:.4g} s "
                  f"| {new[0] / old[0]:.3f}, {new[1] / old[1]:.3f} |",
                  flush=True)


if __name__ == "__main__":
    main()
