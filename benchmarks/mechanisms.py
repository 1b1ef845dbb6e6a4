"""What each speed mechanism buys: every one switched off in turn, same run.

    python benchmarks/mechanisms.py [--sizes cont:2000x100 ...] [--rounds 3]
        [--variants relieff drelieff pdrelieff] [--only tiles settle ...]
        [--missing 0.05]

For every data set of the benchmark (``bench_relieff.make_dataset``, same
generator and seed) and every variant, the engine runs with all mechanisms
(``orangecontrib.relief.core.Speedups()``) and with each mechanism that
applies to that data switched off, turn about in this one process (the order
rotates from round to round); the table gives time off / time on of the
fastest fits: how many times slower the engine would be without the
mechanism (1.00: it buys nothing here).  Mechanisms that cannot act on a data
set (e.g. the uint16 copy on small data) are not run there ("-").  The weights
of every run are checked to be the same, bit for bit.

On 200,000 x 20 only the first 10,000 visits of the order are timed
(``n_iterations``): every visit costs the same, and the full run takes
minutes per fit.  ``--missing`` blanks that share of each dense data set's
values (``ab_engines.blanked``): the mechanisms of RELIEF-D's paths.
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

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
from ab_engines import blanked, interleaved  # noqa: E402
from bench_relieff import GAMETES_FILE, SEED, make_dataset  # noqa: E402
from orangecontrib.relief.core import Speedups, relieff  # noqa: E402
from orangecontrib.relief.core.backends.compiled import layouts  # noqa: E402

SIZES = ["cont:500x50", "cont:2000x100", "cont:5000x200", "gametes:1600x1000",
         "mixed:5000x200", "sparse:5000x20000", "cont:2000x5000",
         "cont:10000x500", "cont:200000x20"]
VISITS = {"cont:200000x20": 10_000}
RELIEFF = ("blocks", "min_form", "float32_copy", "by_feature", "thread_pool",
           "reused_buffer", "block_update")
FEEDBACK = ("weighted_screen", "uint16_copy", "zero_weight_skip",
            "parallel_rows", "running_row_sums", "waiting_changes",
            "fused_sparse")
BOTH = ("settle", "sampled_kth", "prefetch", "expectations")


def applies(name, variant, kind, n, a, missing=0.0):
    """Whether mechanism ``name`` can act on this data and variant (with
    a share ``missing`` of its values blanked)."""
    sparse = kind == "sparse"
    if name == "expectations" or missing:
        # RELIEF-D's lookup, on dense data with missing values (the other
        # mechanisms are measured without)
        return name == "expectations" and missing > 0 and not sparse
    numeric = kind in ("cont", "mixed")
    copy_bytes = 4 * n * (a // 2 if kind == "mixed" else a) * numeric
    if variant == "relieff":
        if name in FEEDBACK:
            return False
        if name == "blocks":
            return not sparse
        if name == "min_form":
            return numeric and not (kind == "cont"
                                    and a <= layouts.BY_FEATURE_MAX)
        if name in ("float32_copy", "settle"):
            return numeric
        if name == "by_feature":
            return kind == "cont" and a <= layouts.BY_FEATURE_MAX
        if name == "prefetch":
            return sparse
        if name == "block_update":      # radius rules only: rules_steps.py
            return False
        return name != "sampled_kth" or n >= 256
    if name in RELIEFF:
        return False
    if name in ("weighted_screen", "settle"):
        return not sparse
    if name == "uint16_copy":
        return copy_bytes >= layouts.QUANTISED_MIN_BYTES
    if name == "zero_weight_skip":
        return numeric
    if name == "parallel_rows":
        return n * a >= layouts.PARALLEL_ROW_TERMS
    if name in ("running_row_sums", "prefetch"):
        return sparse
    if name == "waiting_changes":
        return sparse and variant == "pdrelieff"
    if name == "fused_sparse":
        return sparse and variant == "drelieff"
    return n >= 256          # sampled_kth


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", default=SIZES)
    parser.add_argument("--variants", nargs="+",
                        default=["relieff", "drelieff", "pdrelieff"])
    parser.add_argument("--only", nargs="+", help="these mechanisms only")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--gametes", default=GAMETES_FILE)
    parser.add_argument("--missing", type=float, default=0.0)
    args = parser.parse_args()
    names = [name for name in RELIEFF + FEEDBACK + BOTH
             if not args.only or name in args.only]
    rows = {}
    for spec in args.sizes:
        data = make_dataset(spec, args.seed, args.gametes)
        X, y, nominal = data["X"], data["y"], data["nominal"]
        X = blanked(X, args.missing, args.seed, spec)
        kind, n, a = data["kind"], data["n"], data["a"]
        m = VISITS.get(spec)
        for variant in args.variants:
            if variant != "relieff" and spec == "cont:200000x20":
                continue
            off = [name for name in names
                   if applies(name, variant, kind, n, a, args.missing)]
            weights = {}

            def call(name, speedups):
                def run():
                    weights[name] = relieff(X, y, nominal, variant=variant,
                                            n_iterations=m,
                                            speedups=speedups).weights
                return run
            calls = {"all": call("all", Speedups())}
            for name in off:
                calls[name] = call(name, Speedups(**{name: False}))
            started = time.perf_counter()
            times, _ = interleaved(calls, args.rounds)
            best = {name: min(t) for name, t in times.items()}
            for name in off:
                same = np.array_equal(weights[name], weights["all"],
                                      equal_nan=True)
                rows.setdefault((name, variant), {})[spec] = (
                    f"{best[name] / best['all']:.2f}"
                    + ("" if same else " (weights differ!)"))
            print(f"{spec} {variant}: all {best['all']:.3g} s; "
                  + ", ".join(f"{name} {best[name] / best['all']:.2f}"
                              for name in off)
                  + f"  ({time.perf_counter() - started:.0f} s)", flush=True)
    print("\nTime with the mechanism off / time with every mechanism on "
          f"(fastest of {args.rounds} fits each, interleaved):\n")
    print("| mechanism | variant | " + " | ".join(args.sizes) + " |")
    print("|---|---|" + "---|" * len(args.sizes))
    for (name, variant), cells in rows.items():
        print(f"| {name} | {variant} | "
              + " | ".join(cells.get(spec, "-") for spec in args.sizes)
              + " |")


if __name__ == "__main__":
    main()
