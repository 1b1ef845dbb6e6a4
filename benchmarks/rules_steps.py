"""Where a visit's time goes, ReliefF (k) against a radius rule: the
distances to every row, the choice of neighbours, the update.

    python benchmarks/rules_steps.py [--sizes cont:10000x500 gametes:1600x1000]
        [--rules multisurf surf] [--visits 400]

One thread, the compiled kernels of ``visits.relief_rows`` called step by
step, as it calls them, on ``--visits`` instances of a random order: the
distances alone, then with the neighbours, then the whole visit, each timed
over all of them (minimum of 5 rounds), in ms per visit.  The update is
``relief_rows``': one visit at a time (``updates.update``), or a radius
rule's per block of visits on big data (``updates.update_block``,
``plan.BLOCK_UPDATE_MIN_BYTES``).
``doc/rules_performance.md`` explains the numbers.
"""
import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

os.environ.setdefault("ORANGE3_RELIEF_KERNELS", "compiled")
os.environ.setdefault("ORANGE3_RELIEF_WARMUP", "0")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_relieff import GAMETES_FILE, SEED, make_dataset  # noqa: E402
from orangecontrib.relief.core import engine  # noqa: E402
from orangecontrib.relief.core.contract.distances import distance_row  # noqa: E402
from orangecontrib.relief.core.contract.neighbours import (UNSETTLED, Exact,
                                                           Screen, new_buffers,
                                                           select)
from orangecontrib.relief.core.contract.updates import update, update_block  # noqa
from orangecontrib.relief.core.backends.compiled.relieff_loop import (_block_distances,
                                                                      _screen_bound)


@njit(nogil=True)
def _steps(rows, data, blocks, hood, speedups, step, upd):
    """Run the visits of ``rows`` up to ``step`` (1: distances, 2: and the
    neighbours, 3: and the update); returns the number of neighbours."""
    n = data.group.shape[0]
    a = data.num.shape[1] + data.nom.shape[1]
    size = blocks.size
    exact = Exact(data.num, data.nom, np.ones(a), False, False, data.rows,
                  0.0, np.empty(0), 0.0)
    c_err, gamma = _screen_bound(data, blocks)
    screened = data.num.shape[1] > 0       # (nominal counts are exact)
    no_slack = np.zeros(0)
    dist = np.empty((size, n))
    acc = np.empty((4, blocks.tile if blocks.by_feature else 0),
                   blocks.copy.dtype)
    buffers = new_buffers(n, hood)
    nb = buffers.ends.shape[0]
    codes = np.empty((size, n), np.int32)
    shares = np.empty((size, nb))
    acc_num = np.empty((size, nb, data.num.shape[1]))
    acc_nom = np.empty((size, nb, data.nom.shape[1]), np.int64)
    counts = np.empty(acc_nom.shape, np.int16)
    chosen = 0
    for b in range(0, rows.shape[0] - size + 1, size):
        _block_distances(rows[b:b + size], blocks, dist, acc)
        if step < 2:
            continue
        for i in range(size):
            r = rows[b + i]
            if blocks.min_form and not blocks.by_feature:
                screen = Screen(screened, c_err + gamma * blocks.row_sums[r],
                                0.0, no_slack)
            else:
                screen = Screen(screened, c_err, gamma, no_slack)
            n_chosen, _, _ = select(r, dist[i], data.group, hood, buffers,
                                    screen, exact, n, speedups)
            if n_chosen == UNSETTLED:
                distance_row(r, data, exact.w, False, dist[i], 0, n)
                n_chosen, _, _ = select(r, dist[i], data.group, hood,
                                        buffers, Screen(False, 0.0, 0.0,
                                                        no_slack),
                                        exact, n, speedups)
            chosen += n_chosen
            if step < 3:
                continue
            if blocks.update_together:
                codes[i] = buffers.selected[:n]
                shares[i] = buffers.shares
            else:
                update(r, buffers.chosen, buffers.coef, n_chosen, data,
                       False, np.zeros(0), upd[b + i], buffers.ends)
        if step == 3 and blocks.update_together:
            update_block(rows[b:b + size], codes, shares, data.num, data.nom,
                         acc_num, acc_nom, counts, upd[b:b + size])
    return chosen


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+",
                        default=["cont:10000x500", "gametes:1600x1000"])
    parser.add_argument("--rules", nargs="+", default=["multisurf"])
    parser.add_argument("--visits", type=int, default=800)
    args = parser.parse_args()
    print("| data | rule | distances | + neighbours | + update (a visit) "
          "| neighbours per visit |")
    print("|---|---|---|---|---|---|")
    for spec in args.sizes:
        data = make_dataset(spec, SEED, GAMETES_FILE)
        X, y, nominal = data["X"], data["y"], data["nominal"]
        n = X.shape[0]
        rows = np.random.default_rng(0).permutation(n)[:args.visits]
        for rule in ["k"] + args.rules:
            job = engine.relieff_job(engine.start(X, y, nominal,
                                                  neighbours=rule))
            upd = np.zeros((len(rows), X.shape[1]))
            totals = []
            for step in (1, 2, 3):
                _steps(rows[:32], *job, step, upd)      # compile
                best = np.inf
                for _ in range(5):
                    started = time.perf_counter()
                    chosen = _steps(rows, *job, step, upd)
                    best = min(best, time.perf_counter() - started)
                totals.append(best / len(rows) * 1e3)
            print(f"| {spec} | {rule} | {totals[0]:.3f} | {totals[1]:.3f} "
                  f"| {totals[2]:.3f} | {chosen / len(rows):.0f} |",
                  flush=True)


if __name__ == "__main__":
    main()
