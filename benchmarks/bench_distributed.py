"""The Dask backend against the local engine, and a model of its time.

    python benchmarks/bench_distributed.py [--n 20000] [--a 500] [--workers 2]
        [--reps 3] [--model-n 10000]

1. Overhead: ReliefF on n x a continuous data (binary class), the local
   engine on ``--workers`` threads (``core.relieff(n_jobs=W)``) and
   ``distributed.relieff`` on a LocalCluster of W single-threaded worker
   processes (started once, before the timing; everything else -- preparing
   the data, scattering it, the tasks, the sums -- is timed), interleaved
   ``--reps`` times; the medians and the overhead (dask / local - 1), and
   the median of each rep's own ratio.
   Both give the same weights (checked).
2. A model of the Dask path: the time of a run is split by its status
   messages into preparing (on the client), sending (scatter to every
   worker) and the tasks; the tasks' wall time on W workers is fitted as
   (terms * c_term + tasks * c_task) / W by least squares over runs of
   ``--model-n`` x a with several numbers of tasks (``visits_per_task``),
   and the fastest n x a run of part 1 (the least disturbed on a shared
   machine); preparing and sending are fitted per value (``fit``).
   ``doc/distributed.md`` extrapolates from these figures.

Kernels are compiled (or loaded) before the timing, in this process and on
the workers.
"""
import argparse
import logging
import math
import os
import sys
import time
from pathlib import Path

# the compiled kernels, never the first-use vectorised path (core/backends/warmup.py)
os.environ.setdefault("ORANGE3_RELIEF_KERNELS", "compiled")
os.environ.setdefault("ORANGE3_RELIEF_WARMUP", "0")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from orangecontrib.relief import distributed  # noqa: E402
from orangecontrib.relief.core import relieff  # noqa: E402


def data(n, a, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.random((n, a))
    y = ((X[:, 0] + X[:, 1] > 1) ^ (rng.random(n) < 0.1)).astype(float)
    return X, y


def timed_local(X, y, workers):
    start = time.perf_counter()
    weights = relieff(X, y, n_jobs=workers).weights
    return time.perf_counter() - start, weights


def timed_dask(X, y, client, visits_per_task=None):
    """(total time, {phase: seconds}, number of tasks, weights)."""
    stamps = {}

    def status(text):
        stamps.setdefault(text.split()[0], time.perf_counter())
    calls = []
    start = time.perf_counter()
    result = distributed.relieff(X, y, client=client, status=status,
                                 visits_per_task=visits_per_task,
                                 progress=calls.append)
    end = time.perf_counter()
    sending, running = stamps["sending"], stamps["running"]
    phases = dict(prepare=sending - start, send=running - sending,
                  tasks=end - running)
    return end - start, phases, len(calls) - 1, result.weights    # (0.0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20000)
    parser.add_argument("--a", type=int, default=500)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--model-n", type=int, default=10000)
    args = parser.parse_args()
    from distributed import Client, LocalCluster

    W = args.workers
    with LocalCluster(n_workers=W, threads_per_worker=1, processes=True,
                      dashboard_address=":0",
                      silence_logs=logging.ERROR) as cluster, \
            Client(cluster) as client:
        X, y = data(400, 20)                # compile / load the kernels
        relieff(X, y, n_jobs=W)
        distributed.relieff(X, y, client=client)

        X, y = data(args.n, args.a)
        print(f"ReliefF, {args.n} x {args.a} continuous, binary class; "
              f"local engine on {W} threads vs Dask LocalCluster of {W} "
              f"single-threaded worker processes (interleaved, {args.reps} "
              "reps)")
        local, dask, runs = [], [], []
        for rep in range(args.reps):
            t_local, w_local = timed_local(X, y, W)
            t_dask, phases, n_tasks, w_dask = timed_dask(X, y, client)
            assert np.allclose(w_local, w_dask, rtol=0, atol=1e-12)
            local.append(t_local)
            dask.append(t_dask)
            runs.append((args.n, n_tasks, phases))
            print(f"  rep {rep + 1}: local {t_local:.2f} s, dask "
                  f"{t_dask:.2f} s (prepare {phases['prepare']:.2f}, send "
                  f"{phases['send']:.2f}, {n_tasks} tasks "
                  f"{phases['tasks']:.2f})")
        t_local, t_dask = np.median(local), np.median(dask)
        ratios = np.array(dask) / np.array(local)
        print(f"median: local {t_local:.2f} s, dask {t_dask:.2f} s, "
              f"overhead {100 * (t_dask / t_local - 1):+.1f} %; median of "
              f"the reps' own ratios {100 * (np.median(ratios) - 1):+.1f} % "
              f"(on a shared machine, a rep's two runs see the same load)")

        # the model: the least disturbed rep (the fastest; the machine is
        # shared) and the runs below
        rows = [min(runs, key=lambda run: sum(run[2].values()))]
        print(f"\nModel runs: {args.model_n} x {args.a}, visits per task "
              "varied")
        Xm, ym = X[:args.model_n], y[:args.model_n]
        for visits in (4, 16, 64, None):
            _, phases, n_tasks, _ = timed_dask(Xm, ym, client, visits)
            rows.append((args.model_n, n_tasks, phases))
            print(f"  {n_tasks} tasks: {phases['tasks']:.2f} s")
        fit(rows, args.a, W)


def fit(rows, a, W):
    """Least squares: W * tasks time = terms * c_term + tasks * c_task;
    prepare = n * a * c_prep; send = n * a * c_copy * copies, with
    copies = 2 on W = 2 workers (the client sends one, a worker copies it to
    the other); Dask copies between workers as a tree that triples the
    holders per round, each holder sending at most two copies, so on W
    workers copies = 1 + 2 * ceil(log3 W) (extrapolated: at most)."""
    terms = np.array([n * n * a for n, _, _ in rows], dtype=float)
    tasks = np.array([t for _, t, _ in rows], dtype=float)
    wall = np.array([p["tasks"] for _, _, p in rows])
    (c_term, c_task), *_ = np.linalg.lstsq(
        np.c_[terms, tasks], W * wall, rcond=None)
    values = np.array([n * a for n, _, _ in rows], dtype=float)
    c_prep = np.median([p["prepare"] for _, _, p in rows] / values)
    c_send = np.median([p["send"] for _, _, p in rows]
                       / (values * copies(W)))
    fitted = (terms * c_term + tasks * c_task) / W
    print(f"\nfit over {len(rows)} runs: c_term = {c_term:.3e} s per term "
          f"per worker thread ({1 / c_term:.2e} terms/s), c_task = "
          f"{1000 * c_task:.2f} ms per task; c_prep = {c_prep:.2e} s per "
          f"value, c_copy = {c_send:.2e} s per value per copy; largest "
          f"misfit of the tasks' time "
          f"{100 * np.max(np.abs(fitted / wall - 1)):.1f} %")
    print("| n | a | W | tasks | prepare + send | tasks | total |")
    print("|---|---|---|---|---|---|---|")
    for n in (10**5, 10**6):
        for a_ in (1000, 10000):
            for workers in (8, 64):
                t = distributed.MAX_TASKS if n * n * a_ / \
                    distributed.TERMS_PER_TASK > distributed.MAX_TASKS \
                    else max(distributed.TASKS_PER_THREAD * workers,
                             n * n * a_ / distributed.TERMS_PER_TASK)
                setup = n * a_ * (c_prep + copies(workers) * c_send)
                run = (n * n * a_ * c_term + t * c_task) / workers
                print(f"| {n:.0e} | {a_} | {workers} | {int(t)} | "
                      f"{_hours(setup)} | {_hours(run)} | "
                      f"{_hours(setup + run)} |")


def copies(workers):
    """Copies of the data sent while scattering it to ``workers``."""
    return 1 + 2 * math.ceil(math.log(workers, 3)) if workers > 2 \
        else workers


def _hours(seconds):
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


if __name__ == "__main__":
    main()
