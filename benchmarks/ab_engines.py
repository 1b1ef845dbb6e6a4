"""Two engines (two commits) timed turn about in one process, as ratios.

    python benchmarks/ab_engines.py --old 60cd2be [--new REV] \
        [--sizes cont:2000x100 gametes:1600x1000 ...] [--rounds 5] \
        [--variants relieff drelieff pdrelieff] \
        [--neighbours k multisurf ...] [--missing 0.05] [--statistics]

A change that should not cost speed (a reshape) is judged by new time / old
time on the benchmark's data sets (``bench_relieff.make_dataset``, same
generator and seed).  The machine's speed drifts by tens of percent from
minute to minute, so both engines run in this one process, alternating within
every round (old first in even rounds, new first in odd ones), and the ratio
is taken of the fastest and of the median fit of each.  ``--new`` defaults to
the working tree.  Each engine's kernels are compiled (or loaded from its
cache) before the first round.  ``--missing`` blanks that share of a dense
data set's values (the same ones for both engines: RELIEF-D's paths);
``--statistics`` adds STIR's pair sums (``statistics=True``, ReliefF only).

Each engine runs in a process of its own, and the two take turns: in one
process, numba's dispatcher takes the two engines' named tuples of the same
shape (``Data``, ``Neighbourhood``, ...) for one type, and every kernel call
of the engine called second went through its slow path (about 0.45 ms a
call, 15 % of a 30 ms ReliefF on GAMETES; measured 2026-11-25).
"""
import argparse
import multiprocessing
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
from _engines import load_core  # noqa: E402
from bench_relieff import GAMETES_FILE, SEED, make_dataset  # noqa: E402

VARIANTS = ("relieff", "drelieff", "pdrelieff")
SIZES = ["cont:500x50", "cont:2000x100", "cont:5000x200", "gametes:1600x1000",
         "mixed:5000x200", "sparse:5000x20000", "cont:2000x5000",
         "cont:10000x500"]


def interleaved(calls, rounds):
    """{name: [seconds, ...]} of ``calls`` ({name: function}), each called
    once per round, in rotating order; every call is made once first, untimed
    (compilation, caches), and its result returned: ({name: seconds},
    {name: result})."""
    names = list(calls)
    results = {name: calls[name]() for name in names}
    times = {name: [] for name in names}
    for r in range(rounds):
        shift = r % len(names)
        for name in names[shift:] + names[:shift]:
            started = time.perf_counter()
            calls[name]()
            times[name].append(time.perf_counter() - started)
    return times, results


def summary(seconds):
    return min(seconds), float(np.median(seconds))


def blanked(X, missing, seed, spec):
    """X with a share ``missing`` of its values blanked (NaN), chosen by
    ``seed``: RELIEF-D's paths (``--missing``); X itself for 0."""
    if not missing:
        return X
    if not isinstance(X, np.ndarray):
        raise SystemExit(f"--missing needs dense data, not {spec}")
    rng = np.random.default_rng(seed)
    X = X.astype(float)
    X[rng.random(X.shape) < missing] = np.nan
    return X


def _worker(rev, conn):
    """One engine in its own process: ("data", spec, seed, gametes,
    missing) loads a data set (a share ``missing`` of its values blanked),
    ("fit", options) times one ``relieff`` on it and sends (seconds,
    weights); None ends."""
    core = load_core(rev)
    X = y = nominal = None
    for message in iter(conn.recv, None):
        if message[0] == "data":
            *spec, missing = message[1:]
            data = make_dataset(*spec)
            X, y, nominal = data["X"], data["y"], data["nominal"]
            X = blanked(X, missing, spec[1], spec[0])
            conn.send(True)
        else:
            started = time.perf_counter()
            weights = core.relieff(X, y, nominal, **message[1]).weights
            conn.send((time.perf_counter() - started, weights))


class Engine:
    """An engine of ``rev`` in a worker process (``_worker``)."""

    def __init__(self, rev):
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_worker, args=(rev, child),
                                       daemon=True)
        self.process.start()

    def ask(self, *message):
        self.conn.send(message)
        return self.conn.recv()

    def fit(self, options):
        """(seconds, weights) of one fit."""
        return self.ask("fit", options)

    def close(self):
        self.conn.send(None)
        self.process.join()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="git revision")
    parser.add_argument("--new", help="git revision (default: working tree)")
    parser.add_argument("--sizes", nargs="+", default=SIZES)
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS))
    parser.add_argument("--neighbours", nargs="+", default=["k"],
                        help="neighbourhood rules (both engines must have "
                             "them: since acbf3fb)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--gametes", default=GAMETES_FILE)
    parser.add_argument("--missing", type=float, default=0.0,
                        help="share of a dense data set's values blanked")
    parser.add_argument("--statistics", action="store_true",
                        help="statistics=True (STIR's sums; ReliefF only)")
    args = parser.parse_args()
    engines = {"old": Engine(args.old), "new": Engine(args.new)}
    print(f"old = {args.old}, new = {args.new or 'working tree'}; "
          f"{args.rounds} rounds, interleaved, one process per engine\n")
    print("| data | variant | rule | old min / median | new min / median "
          "| new / old (min, median) | max weight difference |")
    print("|---|---|---|---|---|---|---|")
    for spec in args.sizes:
        for engine in engines.values():
            engine.ask("data", spec, args.seed, args.gametes, args.missing)
        for variant in args.variants:
            for rule in args.neighbours:
                options = dict(variant=variant)
                if args.statistics:
                    options["statistics"] = True
                if rule != "k":
                    options["neighbours"] = rule
                calls = {name: (lambda engine=engine: engine.fit(options))
                         for name, engine in engines.items()}
                times, results = interleaved(calls, args.rounds)
                old, new = summary(times["old"]), summary(times["new"])
                diff = np.nanmax(np.abs(results["new"][1]
                                        - results["old"][1]))
                print(f"| {spec} | {variant} | {rule} "
                      f"| {old[0]:.4g} / {old[1]:.4g} s "
                      f"| {new[0]:.4g} / {new[1]:.4g} s "
                      f"| {new[0] / old[0]:.3f}, {new[1] / old[1]:.3f} "
                      f"| {diff:.2g} |", flush=True)
    for engine in engines.values():
        engine.close()

if __name__ == "__main__":
    main()
