"""Instance weights and several targets on the GPU (``device="cuda"``)
against the compiled CPU engine: the largest difference of the weights
(each must be within ``--tolerance``, 1e-12) and the seconds of each, on
uniform data of ``--size`` (instances x features), integer weights 0 to 3
and two targets (a numeric and a nominal one).  ``device="auto"`` keeps
these runs on the CPU until this check has been run on a GPU
(``doc/gpu.md``); ``benchmarks/gpu_check.sh`` runs it.

    python benchmarks/gpu_weights_check.py                 # on a GPU
    NUMBA_ENABLE_CUDASIM=1 python benchmarks/gpu_weights_check.py --size 12x3

Each run is made once on tiny data first (the kernels compile), then timed
once on each device.  Exit status 1 where a difference is over the
tolerance.
"""
import argparse
import json
import os
import sys
import time
import warnings
from pathlib import Path

os.environ.setdefault("ORANGE3_RELIEF_WARMUP", "0")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from orangecontrib.relief.core import engine  # noqa: E402
from orangecontrib.relief.core.backends.cuda import (  # noqa: E402
    backend as cuda)

# (name, options) of the runs compared: ``targets`` several targets,
# ``weights`` instance weights
CONFIGURATIONS = [
    ("ReliefF k=10, weights", dict(weights=True)),
    ("ReliefF MultiSURF, weights", dict(weights=True, neighbours="multisurf")),
    ("ReliefF SURF, weights", dict(weights=True, neighbours="surf")),
    ("dReliefF k=10, weights (m=50)",
     dict(weights=True, variant="drelieff", n_iterations=50)),
    ("RReliefF k=10, weights", dict(weights=True, regression=True)),
    ("ReliefF k=10, 2 targets", dict(targets=True)),
    ("ReliefF MultiSURF, 2 targets", dict(targets=True,
                                          neighbours="multisurf")),
    ("dReliefF k=10, 2 targets (m=50)",
     dict(targets=True, variant="drelieff", n_iterations=50)),
    ("ReliefF k=10, 2 targets, weights", dict(targets=True, weights=True)),
]


def make(n, a, seed=0):
    """(X, classes, a numeric target, two targets, integer weights)."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, a))
    score = X[:, :min(a, 5)].sum(axis=1)
    y = (score > np.median(score)).astype(float)
    targets = np.c_[score + rng.random(n), rng.integers(0, 3, n)]
    weights = rng.integers(0, 4, n).astype(float)
    return X, y, score, targets, weights


def run(data, options, device):
    """(weights, seconds) of one configuration on ``device``."""
    X, y, score, targets, weights = data
    options = dict(options)
    if options.get("n_iterations"):     # (at most the rows weighted > 0)
        options["n_iterations"] = min(options["n_iterations"],
                                      int((weights > 0).sum()))
    kwargs = dict(device=device)
    if options.pop("weights", False):
        kwargs["instance_weights"] = weights
    if options.pop("targets", False):
        target = targets
        kwargs["nominal_targets"] = [False, True]
    else:
        target = score if options.get("regression") else y
    started = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = engine.relieff(X, target, None, n_jobs=-1, **options,
                                **kwargs)
    return result.weights, time.perf_counter() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="2000x100",
                        help="instances x features (default 2000x100)")
    parser.add_argument("--tolerance", type=float, default=1e-12)
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args()
    n, a = map(int, args.size.split("x"))
    print(f"GPU: {cuda.device_name()}; data {n} x {a}")
    tiny, data = make(12, 3, seed=1), make(n, a)
    rows, worst = [], 0.0
    for name, options in CONFIGURATIONS:
        for device in ("cpu", "cuda"):      # compile on tiny data
            run(tiny, options, device)
        cpu, cpu_seconds = run(data, options, "cpu")
        gpu, gpu_seconds = run(data, options, "cuda")
        difference = float(np.nanmax(np.abs(gpu - cpu)))
        worst = max(worst, difference)
        rows.append(dict(name=name, cpu_s=cpu_seconds, gpu_s=gpu_seconds,
                         max_difference=difference))
        print(f"{name:36s} CPU {cpu_seconds:8.3f} s  GPU {gpu_seconds:8.3f}"
              f" s  largest difference {difference:.1e}", flush=True)
    ok = worst <= args.tolerance
    print(f"{'all' if ok else 'NOT all'} {len(rows)} configurations within "
          f"{args.tolerance:g} of the CPU (largest {worst:.1e})")
    if args.json:
        Path(args.json).write_text(json.dumps(
            dict(gpu=cuda.device_name(), size=[n, a], runs=rows), indent=1))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
