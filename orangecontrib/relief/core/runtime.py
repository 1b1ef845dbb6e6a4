"""How a run's visits are carried out on this machine, whatever computes
them: batches sized to take about ``BATCH_SECONDS`` (progress, cancel and
trace points between them), the number of threads, and a kept thread pool
that runs a kernel over chunks of a batch.  Used by the engine and by
Weka's mode (``weka.py``)."""
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


class Run:
    """A run's visiting order, its batches (sized to take about
    BATCH_SECONDS each), progress and trace points."""

    def __init__(self, order, trace_every, progress, regression, width):
        self.order, self.trace_every = order, trace_every
        self.progress, self.regression, self.width = (progress, regression,
                                                      width)
        self.steps, self.points = [], []
        self.status, self.kernels = None, None

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
        every = self.trace_every
        return range((done // every + 1) * every, done + count + 1, every) \
            if every else range(0)


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
    (``visits.relief_rows``, or compat="weka"'s ``weka.neighbour_rows``;
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
