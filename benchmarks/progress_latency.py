"""How often the engine reports progress, and how soon a cancel takes effect.

    python benchmarks/progress_latency.py [--n 10000] [--a 500]

For each variant: the longest gap between two ``progress`` calls over a whole
run (issue 3 asks for at most ~0.2 s), and the time from a cancel request (the
callback raising) until ``relieff`` returns, after 1 s of work (at most ~0.5 s).
Kernels are compiled first, so compile time is not counted.
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
from orangecontrib.relief.core import relieff  # noqa: E402


class Cancelled(Exception):
    pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10000)
    parser.add_argument("--a", type=int, default=500)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    X = rng.random((args.n, args.a))
    y = ((X[:, 0] + X[:, 1] > 1) ^ (rng.random(args.n) < 0.1)).astype(float)
    print(f"{args.n} x {args.a} continuous, all cores")
    print("| variant | progress calls | longest gap | cancel latency |")
    print("|---|---|---|---|")
    for variant in ("relieff", "drelieff", "pdrelieff"):
        relieff(X[:64], y[:64], variant=variant)          # compile / load
        stamps = []
        relieff(X, y, variant=variant,
                progress=lambda f: stamps.append(time.perf_counter()))
        gap = max(np.diff(stamps))

        asked = []

        def cancel_after_1s(fraction, start=time.perf_counter()):
            now = time.perf_counter()
            if now - start > 1.0:
                asked.append(now)
                raise Cancelled
        try:
            relieff(X, y, variant=variant, progress=cancel_after_1s)
        except Cancelled:
            pass
        latency = time.perf_counter() - asked[0] if asked else float("nan")
        # the time the request waited for the running batch to end is the
        # gap before the raising call, bounded by the longest gap above
        print(f"| {variant} | {len(stamps)} | {gap:.3f} s | "
              f"≤ {gap:.3f} s (+{latency * 1000:.1f} ms to return) |")


if __name__ == "__main__":
    main()
