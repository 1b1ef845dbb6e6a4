"""Weights of every engine path, saved, or compared bit for bit with a saved run.

    python benchmarks/weights_harness.py --save before.npz [--rev COMMIT]
    python benchmarks/weights_harness.py --compare before.npz [--rev COMMIT]
    python benchmarks/weights_harness.py --list
    python benchmarks/weights_harness.py --device cuda --compare cpu.npz --tolerance 1e-12

A change that is meant to leave the numbers alone (a reshape, a faster kernel)
is checked by saving the weights of the old engine (``--rev``: any commit,
loaded beside the working tree by ``_engines.load_core``) and comparing the new
engine's with them: every weight and every trace point must be the same
float64 number, NaN where NaN.

The configurations cover each variant (ReliefF, dReliefF, pdReliefF) on dense
numeric, tied, nominal, mixed, missing-value, sparse and regression data, the
options (k, Relief-E, rank weights, m < n, threads, traces) and sizes that
switch on each of the engine's speed mechanisms (sampled k-th distances from
256 rows, feature-major screens up to 64 features, min-form tiles and their
parts beyond 4,096 features, parallel feedback rows from 250,000 terms,
grouped visits from an 8 MB screening copy, the uint16 copy from 16 MB,
the all-nominal fused region, sparse running sums with and without waiting,
no screen beyond 20,000 features).  ``--list`` prints them.

``--device cuda`` computes them on the GPU (``core/backends/cuda/backend.py``); compared with
the CPU's weights of a saved run, ``--tolerance`` allows a difference up to
that much (the GPU sums distances in another order: ~1e-15).
"""
import argparse
import sys
import os
# the compiled kernels, never the first-use vectorised path (core/backends/warmup.py)
os.environ.setdefault("ORANGE3_RELIEF_KERNELS", "compiled")
os.environ.setdefault("ORANGE3_RELIEF_WARMUP", "0")
import time
import warnings
from pathlib import Path

import numpy as np
import scipy.sparse as sp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _engines import load_core  # noqa: E402

VARIANTS = ("relieff", "drelieff", "pdrelieff")


def _class_of(rng, score, n_classes):
    """Class codes from quantiles of a score, 10 % of them replaced at random."""
    cuts = np.quantile(score, np.linspace(0, 1, n_classes + 1)[1:-1])
    y = np.searchsorted(cuts, score).astype(float)
    noise = rng.random(len(y)) < 0.1
    y[noise] = rng.integers(0, n_classes, noise.sum())
    return y


def make(kind, n, a, seed, n_classes=2, regression=False, missing=0.0):
    """(X, y, nominal) of one harness data set."""
    rng = np.random.default_rng([seed, n, a, n_classes, len(kind)])
    nominal = np.zeros(a, bool)
    if kind in ("cont", "ties"):
        X = rng.random((n, a))
        if kind == "ties":
            X = np.floor(X * 4)
    elif kind == "nominal":
        X = rng.integers(0, 3, (n, a)).astype(float)
        nominal[:] = True
    elif kind == "mixed":
        X = rng.random((n, a))
        half = a // 2
        X[:, :half] = rng.integers(0, 5, (n, half))
        nominal[:half] = True
    elif kind in ("sparse", "sparse_mixed"):
        X = sp.random(n, a, density=0.02, format="lil", random_state=rng,
                      data_rvs=rng.random)
        X[:, 0] = (rng.random(n) * (rng.random(n) < 0.5)).reshape(-1, 1)
        X[:, 1] = (rng.random(n) * (rng.random(n) < 0.5)).reshape(-1, 1)
        if kind == "sparse_mixed":
            nominal[a // 2:] = True
        X = X.tocsr()
        if kind == "sparse_mixed":
            codes = nominal[X.indices]
            X.data[codes] = np.ceil(X.data[codes] * 3)
        score = X[:, 0].toarray().ravel() + X[:, 1].toarray().ravel()
        y = (score if regression else _class_of(rng, score, n_classes))
        return X, y, nominal
    else:
        raise ValueError(kind)
    score = X[:, 0] / max(X[:, 0].max(), 1) + X[:, -1] / max(X[:, -1].max(), 1)
    y = score + 0.1 * rng.random(n) if regression else _class_of(
        rng, score, n_classes)
    if missing:
        X[rng.random(X.shape) < missing] = np.nan
    return X, y, nominal


# (name, data arguments, options).  Options apply to every variant unless
# they name one.
DATA = {
    "cont60": dict(kind="cont", n=60, a=7),
    "cont60_3cls": dict(kind="cont", n=60, a=7, n_classes=3),
    "ties60": dict(kind="ties", n=60, a=6, n_classes=3),
    "nominal60": dict(kind="nominal", n=60, a=9, n_classes=3),
    "mixed60": dict(kind="mixed", n=60, a=8),
    "missing60": dict(kind="mixed", n=60, a=8, n_classes=3, missing=0.1),
    "cont400": dict(kind="cont", n=400, a=30, n_classes=3),
    "ties400": dict(kind="ties", n=400, a=12),
    "cont300x150": dict(kind="cont", n=300, a=150),
    "mixed300x150": dict(kind="mixed", n=300, a=150, n_classes=4),
    "missing300x80": dict(kind="mixed", n=300, a=80, missing=0.05),
    "nominal400x130": dict(kind="nominal", n=400, a=130),
    "cont200x4200": dict(kind="cont", n=200, a=4200),
    "cont100x20500": dict(kind="cont", n=100, a=20500),
    "cont1000x300": dict(kind="cont", n=1000, a=300, n_classes=3),
    "mixed1000x300": dict(kind="mixed", n=1000, a=300),
    "nominal1600x200": dict(kind="nominal", n=1600, a=200),
    "cont4500x500": dict(kind="cont", n=4500, a=500),
    "mixed4500x500": dict(kind="mixed", n=4500, a=500),
    "cont8200x500": dict(kind="cont", n=8200, a=500),
    "sparse500x3000": dict(kind="sparse", n=500, a=3000),
    "sparse_mixed400x2000": dict(kind="sparse_mixed", n=400, a=2000,
                                 n_classes=3),
    "reg_cont60": dict(kind="cont", n=60, a=7, regression=True),
    "reg_missing300x40": dict(kind="mixed", n=300, a=40, regression=True,
                              missing=0.05),
    "reg_cont1000x300": dict(kind="cont", n=1000, a=300, regression=True),
    "reg_cont4500x500": dict(kind="cont", n=4500, a=500, regression=True),
    "reg_sparse500x3000": dict(kind="sparse", n=500, a=3000,
                               regression=True),
}

OPTIONS = {
    "default": {},
    "k1": dict(k_nearest=1),
    "k3_any": dict(k_nearest=3, misses="any"),
    "rank_weights": dict(weight_by_distance=True, sigma=1.5),
    "m40_seed3": dict(n_iterations=40, random_state=3),
    "one_thread": dict(n_jobs=1),
    "trace": dict(trace_every=7),
    "T07": dict(T=0.7),
}

# data set -> option sets run on it (every variant, except where large)
PLAN = {
    "cont60": ["default", "k1", "k3_any", "rank_weights", "m40_seed3",
               "trace", "T07"],
    "cont60_3cls": ["default", "k3_any", "rank_weights"],
    "ties60": ["default", "k1", "k3_any", "rank_weights", "trace"],
    "nominal60": ["default", "k3_any", "rank_weights"],
    "mixed60": ["default", "rank_weights"],
    "missing60": ["default", "k3_any", "rank_weights", "trace"],
    "cont400": ["default", "k3_any", "one_thread", "trace"],
    "ties400": ["default", "rank_weights", "k1"],
    "cont300x150": ["default", "rank_weights"],
    "mixed300x150": ["default", "k3_any", "one_thread"],
    "missing300x80": ["default"],
    "nominal400x130": ["default", "rank_weights"],
    "cont200x4200": ["default"],
    "cont100x20500": ["default"],
    "cont1000x300": ["default", "one_thread", "trace"],
    "mixed1000x300": ["default"],
    "nominal1600x200": ["default", "one_thread", "trace"],
    "cont4500x500": ["m400"],
    "mixed4500x500": ["m400"],
    "cont8200x500": ["m300"],
    "sparse500x3000": ["default", "k3_any", "one_thread", "trace"],
    "sparse_mixed400x2000": ["default", "rank_weights"],
    "reg_cont60": ["default", "rank_weights", "trace"],
    "reg_missing300x40": ["default"],
    "reg_cont1000x300": ["default"],
    "reg_cont4500x500": ["m300"],
    "reg_sparse500x3000": ["default", "trace"],
}
OPTIONS["m400"] = dict(n_iterations=400, random_state=1)
OPTIONS["m300"] = dict(n_iterations=300, random_state=2)


def configurations():
    for data_name, option_names in PLAN.items():
        for option_name in option_names:
            for variant in VARIANTS:
                if variant == "relieff" and option_name == "T07":
                    continue
                yield data_name, option_name, variant


def run(core, selected=None, verbose=True, device=None):
    """{config name: (weights, trace or empty)} of ``core.relieff`` (on
    ``device``, when given)."""
    out = {}
    cache = {}
    for data_name, option_name, variant in configurations():
        name = f"{data_name}/{option_name}/{variant}"
        if selected and not any(s in name for s in selected):
            continue
        if data_name not in cache:
            cache = {data_name: make(seed=7, **{
                k: v for k, v in DATA[data_name].items()})}
        X, y, nominal = cache[data_name]
        options = dict(OPTIONS[option_name])
        if device is not None:
            options["device"] = device
        started = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = core.relieff(
                X, y, nominal, variant=variant,
                regression=DATA[data_name].get("regression", False),
                **options)
        trace = result.trace if result.trace is not None else np.zeros(0)
        out[name] = (result.weights, trace)
        if verbose:
            print(f"{name:50s} {time.perf_counter() - started:7.2f} s",
                  flush=True)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", help="engine of this commit (default: the "
                                      "working tree)")
    parser.add_argument("--save", help="write the weights to this .npz")
    parser.add_argument("--compare", help="compare with this .npz")
    parser.add_argument("--only", nargs="*", help="configurations whose name "
                                                  "contains one of these")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--device", help="relieff(device=...): cpu, cuda")
    parser.add_argument("--tolerance", type=float, default=0.0,
                        help="largest difference --compare accepts "
                             "(default 0: bit-identical)")
    args = parser.parse_args()
    if args.list:
        names = [f"{d}/{o}/{v}" for d, o, v in configurations()]
        print("\n".join(names))
        print(f"{len(names)} configurations")
        return 0
    core = load_core(args.rev)
    results = run(core, args.only, device=args.device)
    print(f"{len(results)} configurations")
    if args.save:
        arrays = {}
        for name, (weights, trace) in results.items():
            arrays[name + "|w"] = weights
            arrays[name + "|t"] = trace
        np.savez(args.save, **arrays)
    if args.compare:
        saved = np.load(args.compare)
        differ, largest = [], 0.0
        for name, (weights, trace) in results.items():
            for part, value in (("w", weights), ("t", trace)):
                old = saved[f"{name}|{part}"]
                same = old.shape == value.shape and np.array_equal(
                    np.isnan(old), np.isnan(value))
                gap = np.nanmax(np.abs(old - value), initial=0.0) \
                    if same else np.inf
                largest = max(largest, gap)
                if not same or gap > args.tolerance:
                    differ.append(f"{name} [{part}]: max diff "
                                  f"{gap if same else 'shape or NaN'}")
        if differ:
            print("\n".join(differ))
        elif args.tolerance:
            print(f"all {len(results)} configurations within "
                  f"{args.tolerance:g} (weights and traces; largest "
                  f"difference {largest:.1e})")
        else:
            print(f"all {len(results)} configurations bit-identical "
                  "(weights and traces)")
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
