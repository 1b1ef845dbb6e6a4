"""The first results after a fresh install: the engine with an empty numba cache.

    python benchmarks/first_use.py [--rev COMMIT ...] [--repeat 1]
                                   [--no-wait] [--npdr]

Each measurement runs in a new process whose ``NUMBA_CACHE_DIR`` is a new,
empty directory, so every kernel is compiled as on a fresh machine.  The
process imports the engine, then computes ReliefF, dReliefF and pdReliefF one
after the other (as a user trying the three widgets would) and then each once
more; it prints each time.  An engine that compiles its kernels in the
background on first use (``core/backends/warmup.py``) is then waited for, and the
three are timed once more on the compiled kernels, whose weights are
compared with the first ones.  ``--npdr`` times ``stats.npdr`` too, after
the three (first call, second call, and twice once the background compiler
is done; its t statistics are compared with the first ones).  Two data sets: Orange's heart_disease (303
x 13, mixed, with missing values) and a continuous 2,000 x 100.  ``--rev``
measures the engine of other commits in the same run (``_engines.load_core``),
the working tree's by default.  Measure an engine with a background compile
(``core/backends/warmup.py``, from ad94a1d on) as the working tree, without ``--rev``:
its warmup process imports the installed package, whose kernels a copy
loaded under another name (``relief_core_<commit>``) does not find in the
cache, so that copy compiles them again in its own process once the markers
say they are ready (35-50 s in the "then" column).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

CHILD = r"""
import json, sys, time
started = time.perf_counter()
sys.path.insert(0, {here!r})
from _engines import load_core
import numpy as np
core = load_core({rev!r})
out = {{"import": time.perf_counter() - started}}
with np.load({data!r}) as f:
    X, y, nominal = f["X"], f["y"], f["nominal"]
import warnings
warnings.simplefilter("ignore")
begin = time.perf_counter()
for when in ("first", "warm"):
    for variant in ("relieff", "drelieff", "pdrelieff"):
        started, cpu = time.perf_counter(), time.process_time()
        result = core.relieff(X, y, nominal, variant=variant)
        out[f"{{when}} {{variant}}"] = time.perf_counter() - started
        out[f"{{when}} {{variant}} cpu"] = time.process_time() - cpu
        out[f"{{when}} {{variant}} weights"] = result.weights.tolist()
if {npdr!r}:     # the working tree's NPDR (outside the core)
    from orangecontrib.relief import stats
    for when in ("first", "warm"):
        started, cpu = time.perf_counter(), time.process_time()
        result = stats.npdr(X, y, nominal)
        out[f"{{when}} npdr"] = time.perf_counter() - started
        out[f"{{when}} npdr cpu"] = time.process_time() - cpu
        out[f"{{when}} npdr weights"] = result.t.tolist()
warmup = getattr(core, "warmup", None)
process = warmup and warmup._PROCESS
if process is not None and not {wait!r}:   # (it would outlive its cache)
    process.kill()
    process = None
if process is not None:     # the kernels compiling in the background
    process.wait()
    out["compiled after"] = time.perf_counter() - begin
    for variant in ("relieff", "drelieff", "pdrelieff"):
        started = time.perf_counter()
        result = core.relieff(X, y, nominal, variant=variant)
        out[f"compiled {{variant}}"] = time.perf_counter() - started
        out[f"compiled {{variant}} weights"] = result.weights.tolist()
    if {npdr!r}:    # NPDR's kernels compiled too: its t statistics
        for when in ("compiled", "compiled again"):
            started = time.perf_counter()
            result = stats.npdr(X, y, nominal)
            out[f"{{when}} npdr"] = time.perf_counter() - started
        out["compiled npdr weights"] = result.t.tolist()
print(json.dumps(out))
"""


def datasets(directory):
    """{name: path of an .npz with X, y, nominal}."""
    from Orange.data import Table
    table = Table("heart_disease")
    nominal = np.array([v.is_discrete for v in table.domain.attributes])
    paths = {}
    path = Path(directory) / "heart_disease.npz"
    np.savez(path, X=table.X, y=table.Y, nominal=nominal)
    paths["heart_disease 303x13"] = path
    rng = np.random.default_rng(0)
    X = rng.random((2000, 100))
    y = ((X[:, 0] + X[:, 1] > 1) ^ (rng.random(2000) < 0.1)).astype(float)
    path = Path(directory) / "cont2000x100.npz"
    np.savez(path, X=X, y=y, nominal=np.zeros(100, bool))
    paths["cont 2000x100"] = path
    return paths


def measure(rev, data, wait=True, npdr=False):
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        code = CHILD.format(here=str(HERE), rev=rev, data=str(data),
                            wait=wait, npdr=npdr and rev is None)
        done = subprocess.run([sys.executable, "-c", code], env=env,
                              capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _row(rev, name, t):
    """One line of the table."""
    variants = ("relieff", "drelieff", "pdrelieff")
    compiled, gap = "-", "-"
    if "compiled after" in t:
        compiled = " / ".join(f"{t['compiled ' + v]:.3f}" for v in variants)
        compared = variants
        if "compiled npdr" in t:     # (NPDR: its t statistics)
            compared += ("npdr",)
            compiled += f" / NPDR {t['compiled npdr']:.2f}, then " \
                        f"{t['compiled again npdr']:.3f}"
        gap = max(np.nanmax(np.abs(np.subtract(
            t[f"first {v} weights"], t[f"compiled {v} weights"])))
            for v in compared)
        gap = f"{gap:.1e}"
    npdr = f"{t['first npdr']:.2f} s ({t['first npdr cpu']:.2f}) / " \
        f"{t['warm npdr']:.3f} s" \
        if "first npdr" in t else "-"
    return (f"| {rev or 'working tree'} | {name} | {t['import']:.2f} s | "
            + " | ".join(f"{t['first ' + v]:.2f} s "
                         f"({t['first ' + v + ' cpu']:.2f})" for v in variants)
            + " | " + " / ".join(f"{t['warm ' + v]:.3f}" for v in variants)
            + f" s | {npdr} | {t.get('compiled after', float('nan')):.0f} s"
            + " | " + compiled + f" | {gap} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", nargs="+", default=[None],
                        help="git revisions (default: the working tree)")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--no-wait", action="store_true",
                        help="stop the background compiler instead of "
                             "waiting for it (no 'then' columns)")
    parser.add_argument("--npdr", action="store_true",
                        help="also NPDR's first and second call "
                             "(stats.npdr; the working tree only)")
    args = parser.parse_args()
    print("| engine | data | import | first ReliefF | first dReliefF | first "
          "pdReliefF | again ReliefF / dReliefF / pdReliefF | NPDR first / "
          "again | compiled kernels ready after | then ReliefF / dReliefF / "
          "pdReliefF (NPDR) | max \\|first − compiled\\| |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as directory:
        for _ in range(args.repeat):
            for name, path in datasets(directory).items():
                for rev in args.rev:
                    print(_row(rev, name, measure(
                        rev, path, not args.no_wait, args.npdr)), flush=True)


if __name__ == "__main__":
    main()
