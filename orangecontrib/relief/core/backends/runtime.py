"""How a run's visits are carried out on this machine, whatever computes
them: batches sized to take about ``BATCH_SECONDS`` (progress, cancel and
trace points between them), the number of threads, and a kept thread pool
that runs a kernel over chunks of a batch.  Every backend's visits go
through it (``base.Backend.run``)."""
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import contextmanager

import numba
import numpy as np

# Each call into the kernels is sized to take about BATCH_SECONDS (measured
# as the run goes), so progress is reported and a cancel takes effect several
# times a second on any machine; the first call does FIRST_BATCH_TERMS terms.
BATCH_SECONDS = 0.1
FIRST_BATCH_TERMS = 20_000_000
# ...and holds at most this many bytes of per-instance updates (wide data).
BATCH_BYTES = 16_000_000


def threads_for(n_jobs):
    """The number of threads ``n_jobs`` asks for (None or -1: all cores)."""
    if n_jobs is None or n_jobs < 0:
        return numba.config.NUMBA_NUM_THREADS
    return min(int(n_jobs), numba.config.NUMBA_NUM_THREADS)


@contextmanager
def threads(n_jobs):
    """The number of threads to use (numba's for the parallel loops too)."""
    if n_jobs is None:
        yield numba.get_num_threads()
        return
    old = numba.get_num_threads()
    wanted = threads_for(n_jobs)
    numba.set_num_threads(wanted)
    try:
        yield wanted
    finally:
        numba.set_num_threads(old)


def first_batch(n, a, most):
    """The visits of a run's first batch, on n instances and a features:
    about FIRST_BATCH_TERMS terms, at most ``most`` (the batches after it
    are sized by their time)."""
    return max(1, min(most, FIRST_BATCH_TERMS // (n * max(a, 1))))


def trace_steps(done, count, every):
    """The trace points (visits after which the estimate is recorded) among
    visits done + 1 .. done + count: every ``every``-th (none for 0 or
    None)."""
    return range((done // every + 1) * every, done + count + 1, every) \
        if every else range(0)


class Run:
    """A run's visiting order, its batches (sized to take about
    BATCH_SECONDS each), progress and trace points (``steps``: after how
    many visits, ``points``: the estimate there)."""

    def __init__(self, order, trace_every, progress):
        self.order, self.trace_every, self.progress = (order, trace_every,
                                                       progress)
        self.steps, self.points = [], []

    def batches(self, first, most):
        """(done, rows) of each batch; between batches, the progress
        callback (which may raise to cancel)."""
        m = self.order.shape[0]
        batch, done = first, 0
        while done < m:
            rows = self.order[done:done + batch]
            started = time.perf_counter()
            yield done, rows
            done += len(rows)
            if self.progress is not None:
                self.progress(done / m)
            elapsed = time.perf_counter() - started
            batch = max(1, min(4 * batch, most, int(
                len(rows) * BATCH_SECONDS / max(elapsed, 1e-6))))

    def trace_steps(self, done, count):
        """The trace points among visits done + 1 .. done + count."""
        return trace_steps(done, count, self.trace_every)

    def trace_rows(self, count, a):
        """An array for the estimates at the trace points of a batch of
        ``count`` visits on ``a`` features (one row per point)."""
        every = self.trace_every
        return np.empty((count // every + 1 if every else 0, a))

    def record(self, points, done, count):
        """Keep the estimates ``points`` at the trace points of visits
        done + 1 .. done + count."""
        self.points.extend(points)
        self.steps.extend(self.trace_steps(done, count))

    def end_trace(self, final):
        """With a trace, the final estimate as its last point when the
        number of visits is not a multiple of ``trace_every``."""
        m = self.order.shape[0]
        if self.trace_every and (not self.steps or self.steps[-1] != m):
            self.steps.append(m)
            self.points.append(final)


def in_batches(items, progress):
    """Each of ``items`` in turn, in ``Run``'s batches (about BATCH_SECONDS
    each): ``progress`` 0 before the first and the fraction done after
    each batch, up to 1 (a callback that raises cancels between batches,
    as in every run of the engine); the loops of the estimators computed
    on top of the engine (``corelearn.run``) go through it."""
    if progress is None:
        yield from items
        return
    progress(0.0)
    items = np.asarray(items)
    for _, batch in Run(items, None, progress).batches(1, len(items)):
        yield from batch.tolist()
    if not len(items):
        progress(1.0)


def progress_part(progress, start, stop):
    """``progress`` (None: None) with its fractions 0 ... 1 mapped to
    ``start`` ... ``stop``: one part of a run made of several (e.g. an
    engine's run inside an estimator computed on top of it); 1 gives
    ``stop`` exactly, where the next part starts."""
    if progress is None:
        return None

    def part(fraction):
        progress(stop if fraction >= 1 else
                 start + fraction * (stop - start))
    return part


_POOLS = {}
_POOLS_LOCK = threading.Lock()


@contextmanager
def pool(n_threads, keep=True):
    """A pool of ``n_threads`` threads for ReliefF's chunks, kept for later
    calls (starting threads cost about 1 ms a call, a tenth of a fit on
    500 x 50); one per process, as a forked child does not get the threads.
    Not ``keep``: a pool of this call's own."""
    if not keep:
        with ThreadPoolExecutor(n_threads) as executor:
            yield executor
        return
    key = (os.getpid(), n_threads)
    with _POOLS_LOCK:
        if key not in _POOLS:
            _POOLS[key] = ThreadPoolExecutor(n_threads,
                                             thread_name_prefix="relieff")
        executor = _POOLS[key]
    yield executor


def in_threads(executor, n_threads, rows, upd, *kernel_args, kernel, block=4):
    """ReliefF's updates for ``rows`` (into ``upd``): one chunk of whole
    blocks of ``block`` rows per thread, each chunk visited by ``kernel``
    (``relieff_loop.relief_rows``, or compat="weka"'s ``weka.neighbour_rows``;
    in this thread when there is one chunk)."""
    bounds = np.linspace(0, len(rows) / block, n_threads + 1)
    bounds = np.minimum(block * np.round(bounds).astype(int), len(rows))
    bounds[-1] = len(rows)
    chunks = [(lo, hi) for lo, hi in zip(bounds[:-1], bounds[1:]) if hi > lo]
    if len(chunks) == 1:
        kernel(rows, *kernel_args, upd)
        return
    futures = [executor.submit(kernel, rows[lo:hi], *kernel_args,
                           upd[lo:hi]) for lo, hi in chunks]
    wait(futures)       # all of them, even if one failed
    for future in futures:
        future.result()
