"""ReliefF and RReliefF on a Dask cluster: the local engine's result,
computed by the same kernels, in tasks (``doc/distributed.md``).

ReliefF's visits are independent of each other: the update of visiting R
reads the data and R only, and the weights are (a function of) the sums of
the updates.  So the visiting order ``default_rng(random_state).permutation
(n)[:m]`` is cut into blocks of visits, each block is one Dask task that runs
this project's kernels (``core.compiled.visit_updates``) and returns the sums
of its block's update rows, and the sums of the tasks are added on the
client, in block order, and turned into weights (``core.backend.finish``).
The weights equal ``core.relieff``'s up to the order of the additions
(about 1e-15).  ``DaskBackend`` is this as a backend of the core's
interface (``core.backend.Backend``), and a run takes the engine's steps
(``core.engine.compute``) as a local one does.

The data goes to the workers once: a NumPy or SciPy ``X`` is prepared here
(``core.backend.start``: ranges, codes, RELIEF-D tables) and its kernel form
(``ReliefJob``) is scattered to every worker; a Dask array ``X`` is prepared
on a worker from chunks the workers compute themselves, and the workers copy
that job from each other.  Either way every worker holds the whole job
(about 1.5 times X as float64): each visit compares R with every instance.

With instance weights the job is the weighted visits' (``WeightedJob``)
and the estimate divides by the visited weight; the GPU's tasks take none.

dReliefF and pdReliefF are sequential (each visit's distance uses the
estimate of all the visits before it), and ``compat="weka"`` reproduces
Weka's order of operations on one machine: both are refused here.

Dask (``pip install "orange3-relief[dask]"``) is imported when a function of
this module is called, not when it is imported.
"""
import dataclasses
import math
import threading

import numpy as np

from .core import collect_warnings, engine
from .core.backends.base import Backend, start, visited_weight
from .core.backends.compiled.backend import relieff_job, visit_updates
from .core.backends.cuda.backend import CudaBackend, check_device
from .core.backends.cuda import backend as cuda
from .core.contract.estimates import estimate
from .core.messages import warn
from .core.options import whole_number
from .core.contract.prepare import NO_SPARSE, check_instance_weights
from .core.backends.runtime import BATCH_BYTES, trace_steps
from .core import variants

__all__ = ["relieff", "check_cluster_options", "DaskBackend"]

# A task visits about TERMS_PER_TASK (visit, instance, feature) terms, a few
# tenths of a second on one core, so the tasks' overhead (a few ms each,
# benchmarks/bench_distributed.py) stays small, progress moves, a cancel
# frees the workers soon, and a lost worker loses little; at least
# TASKS_PER_THREAD tasks per worker thread, so they share the work evenly;
# at most MAX_TASKS tasks (the scheduler's load on huge data).
TERMS_PER_TASK = 2e9
TASKS_PER_THREAD = 4
MAX_TASKS = 10_000


def check_cluster_options(variant="relieff", compat=None,
                          distance_weights=None, device=None):
    """A ValueError for the options that do not run on a cluster: the
    variants that are not sums of independent visits (``variants.Variant``:
    ``visits`` False, I-RELIEF; ``sequential``, dReliefF and pdReliefF),
    fixed distance weights (their runs go through the sequential loop) and
    compat="weka" (Weka's order of operations on one machine).  ``device``
    and ``variant`` are checked (the choices)."""
    if device is not None:
        check_device(device)
    entry = variants.variant(variant)
    if not entry.visits or distance_weights is not None:
        what = entry.display_name if not entry.visits else \
            "ReliefF with distance_weights"
        raise ValueError(f"{what} runs on one machine (all its cores), not "
                         "on a Dask cluster; run it without a Dask client.")
    if entry.sequential:
        raise ValueError(
            f"{entry.display_name} cannot run on a Dask cluster: each of its "
            "visits uses the estimate of all the visits before it, so the "
            "visits cannot be split into independent tasks. Run it on one "
            "machine (without a Dask client; it uses all the cores), or use "
            "ReliefF on the cluster.")
    if compat is not None:
        raise ValueError(
            f"compat={compat!r} reproduces Weka's order of operations on one "
            "machine and does not run on a Dask cluster; run it without a "
            "Dask client, or use compat=None (this add-on's definitions) on "
            "the cluster.")


def relieff(X, y, nominal=None, *, client=None, progress=None,
            trace_every=None, visits_per_task=None, status=None,
            compat=None, **relieff_options):
    """ReliefF or RReliefF weights computed on a Dask cluster: the same
    ``ReliefResult`` as ``orangecontrib.relief.core.relieff`` (to ~1e-15).

    Parameters
    ----------
    X : array, sparse matrix or dask array (n_instances, n_features)
        As for ``core.relieff``.  A dask array is computed by the workers
        (e.g. read from Zarr or memory-mapped .npy chunks) and prepared on
        one of them; the client never holds it.  Either way every worker
        holds the prepared data, about 1.5 times X as float64.
    y : array or dask array (n_instances,)
        Class codes or numbers (regression).
    nominal : boolean array (n_features,), optional
        Which features are nominal.
    client : distributed.Client, optional
        The cluster's client; the current one (``distributed.get_client()``)
        when None.
    progress : callable(fraction), optional
        Called with the fraction of tasks done (tasks done / tasks); may
        raise to cancel: the tasks are then cancelled and the data released
        before the exception goes on.
    trace_every : int, optional
        Record the estimate after every ``trace_every``-th visit, as
        ``core.relieff`` does.
    visits_per_task : int, optional
        Visits per task; by default about TERMS_PER_TASK terms each, and at
        least TASKS_PER_THREAD tasks per worker thread.
    status : callable(text), optional
        Told what the run does before the tasks start (preparing or sending
        the data, the number of tasks).
    compat : None
        compat="weka" does not run on a cluster (a ValueError).
    **relieff_options
        The options of ``core.relieff``: ``regression``, ``n_iterations``,
        ``k_nearest``, ``random_state``, ``misses``, ``weight_by_distance``,
        ``sigma``, ``neighbours``, ``speedups``, ``feature_names``,
        ``instance_weights`` (numbers, or a dask array computed on the
        cluster; not on the GPU's tasks).  ``variant`` must be "relieff":
        dReliefF and pdReliefF are sequential and raise a ValueError.
        ``n_jobs`` and ``kernels`` do not apply: a
        task runs the compiled kernels on one thread, and the workers'
        threads run the tasks.  ``device``: "cuda" runs each task on its
        worker's GPU (``core.cuda``; a worker without one fails the run
        with the reason), "auto" on the workers that have a GPU and on the
        CPU of the others, "cpu" (or None) on the CPUs; a worker runs its
        GPU tasks one at a time.

    Returns
    -------
    ReliefResult
    """
    device = check_device(relieff_options.pop("device", None))
    check_cluster_options(relieff_options.get("variant", "relieff"), compat,
                          relieff_options.get("distance_weights"))
    weights = relieff_options.pop("instance_weights", None)
    if visits_per_task is not None:
        whole_number(visits_per_task, "visits_per_task", otherwise="or None")
    for option in ("n_jobs", "kernels"):
        relieff_options.pop(option, None)
    names = {key: relieff_options.pop(key)
             for key in ("feature_names", "class_names")
             if key in relieff_options}
    options = engine.relieff_options(trace_every=trace_every,
                                     **relieff_options)
    client = _client(client)
    weights = _instance_weights(client, weights, X, device)
    if weights is not None and device == "auto":
        device = "cpu"      # (the GPU's tasks take no instance weights)

    def start_on_cluster():
        """The ``start`` of ``engine.compute``: the Setup, planned here or
        (a dask ``X`` or ``y``) on the cluster, and its ``DaskBackend``."""
        if _is_dask(X) or _is_dask(y):
            if status is not None:
                status("preparing the data on the cluster")
            setup, job, planned = _start_on_cluster(
                client, X, y, nominal, options, names, weights)
        else:
            setup, job, planned = start(X, y, nominal, options,
                                        instance_weights=weights,
                                        **names), None, None
        return setup, lambda n_threads: DaskBackend(
            setup, client, job, visits_per_task, status, device, planned)
    return engine.compute(start_on_cluster, progress)


def _instance_weights(client, weights, X, device):
    """The instance weights of a run on the cluster: None (none, or all
    1), checked numbers (``prepare.check_instance_weights``; a dask array
    is computed on the cluster), or with a dask ``X`` of unknown length or
    dask weights, the numbers or the future as they are (checked where the
    data is prepared).  A ValueError for the GPU's tasks, which take none
    yet."""
    from distributed import Future

    if weights is None:
        return None
    if _is_dask(weights):
        weights = client.compute(weights)
        if not _is_dask(X):
            weights = weights.result()
    n = _rows(X)
    if not isinstance(weights, Future) and n == n:
        weights = check_instance_weights(weights, n)
        if weights is None:         # (all 1: no weights)
            return None
    if device == "cuda":
        raise ValueError("The GPU's tasks do not take instance weights yet; "
                         "run with device='cpu' (the workers' CPUs) or "
                         "leave instance_weights out.")
    return weights


def _rows(X):
    """The number of rows of X (a dask array's may be unknown: NaN)."""
    return X.shape[0] if hasattr(X, "shape") else len(X)


def _client(client):
    """``client``, or the current Dask client; a clear error without
    Dask or without a client."""
    try:
        from distributed import get_client
    except ImportError:
        raise ImportError(
            "Running on a cluster needs Dask: pip install "
            "\"orange3-relief[dask]\" (or dask[distributed]).") from None
    if client is not None:
        return client
    try:
        return get_client()
    except ValueError:
        raise ValueError(
            "No Dask client: pass client=distributed.Client(ADDRESS) (e.g. "
            "Client(LocalCluster()) on this machine), or create a Client "
            "first.") from None


def _is_dask(values):
    return type(values).__module__.split(".")[0] == "dask"


class DaskBackend(Backend):
    """ReliefF's visits as Dask tasks on ``client``'s workers (see the
    module docstring): ``job`` is the run's ``ReliefJob`` on the cluster
    (None: scattered from ``setup`` here), ``visits_per_task``, ``status``
    and ``device`` as in ``relieff`` (on a GPU the tasks read the Setup:
    scattered from here, or from ``planned``, the future of ``_start``, when
    the job is).  Closing it cancels the tasks and releases the job."""
    name = "dask"
    # (the compiled weighted visits, ``weighted_loop``, in the tasks)
    takes_instance_weights = True

    def __init__(self, setup, client, job=None, visits_per_task=None,
                 status=None, device="cpu", planned=None):
        super().__init__(setup, sum(client.nthreads().values()) or 1)
        self.client, self.visits_per_task = client, visits_per_task
        self.status, self.progress = status, None
        self.futures = []
        self.on_workers, self.gpu_setup = device, None
        # ("auto": some workers' CPUs may run tasks, so it says "cpu")
        self.device = "cuda" if device == "cuda" else "cpu"
        if job is None:
            self._say("sending the data to the workers")
            # (broadcast: every worker holds a copy, so losing a worker
            # loses no data; scattered data cannot be recomputed)
            [job] = client.scatter([relieff_job(setup)], broadcast=True,
                                   hash=False)
            if device != "cpu":     # (the GPU backend reads the Setup)
                [self.gpu_setup] = client.scatter([setup], broadcast=True,
                                                  hash=False)
        elif device != "cpu":
            self.gpu_setup = client.submit(_setup_of, planned, pure=False)
        self.job = job

    def run(self, run):
        """Every visit in one batch: the cluster schedules the tasks, and
        ``run``'s progress counts the tasks done (a cancel from it cancels
        them)."""
        m, (_, a) = self.setup.order.shape[0], self.setup.shape
        total = np.zeros(self.setup.width + self.setup.n_sums)
        trace = run.trace_rows(m, a)
        self.progress = run.progress
        written = self.visit(self.setup.order, 0, total, trace)
        run.record(trace[:written], 0, m)
        return total

    def visit(self, rows, done, total, trace):
        """Visits done + 1, ... of ``rows``, a task per block of them: each
        task gives the sums of its update rows per segment of trace_every
        visits, which are added in block order (so a run gives the same
        bits every time), then to ``total`` segment by segment."""
        setup = self.setup
        every = setup.options.trace_every or setup.order.shape[0]
        blocks = self._blocks(rows, done)
        self._say(f"running {len(blocks)} tasks on {self.n_threads} worker "
                  "threads")
        first_segment = done // every
        sums = np.zeros(((done + len(rows) - 1) // every - first_segment + 1,
                         setup.width + setup.n_sums))
        futures = self.client.map(
            _task_sums, [self.job] * len(blocks),
            [visits for _, visits in blocks], [first for first, _ in blocks],
            every=every, width=setup.width + setup.n_sums,
            device=self.on_workers, gpu_setup=self.gpu_setup, pure=False)
        self.futures += futures         # (cancelled by ``close``)
        self._add_in_block_order(futures, blocks, sums, every, first_segment)
        sums[0] += total
        running = np.cumsum(sums, axis=0, out=sums)
        steps = trace_steps(done, len(rows), setup.options.trace_every)
        for i, t in enumerate(steps):
            estimate(running[t // every - 1 - first_segment],
                     visited_weight(setup, t), setup.regression, trace[i])
        total[:] = running[-1]
        return len(steps)

    def _add_in_block_order(self, futures, blocks, sums, every,
                            first_segment):
        """Add each task's segment sums to ``sums`` as the tasks finish, in
        block order; progress after each task."""
        from distributed import as_completed

        index = {future.key: i for i, future in enumerate(futures)}
        waiting, next_block = {}, 0
        for done, (future, part) in enumerate(
                as_completed(futures, with_results=True), start=1):
            if future.status != "finished":
                raise RuntimeError(lost_workers(future))
            waiting[index[future.key]] = part
            while next_block in waiting:
                first = blocks[next_block][0] // every - first_segment
                part = waiting.pop(next_block)
                sums[first:first + part.shape[0]] += part
                next_block += 1
            if self.progress is not None:
                self.progress(done / len(futures))

    def _blocks(self, rows, done):
        """(first, rows) of each task: visits done + 1, ... of ``rows`` in
        order, whole blocks of four (the kernels visit four rows per pass
        over the data)."""
        size = self.visits_per_task
        if size is None:
            n, a = self.setup.shape
            terms = len(rows) * n * max(a, 1)
            tasks = min(MAX_TASKS, max(TASKS_PER_THREAD * self.n_threads,
                                       math.ceil(terms / TERMS_PER_TASK)))
            size = 4 * math.ceil(len(rows) / tasks / 4)
        return [(done + first, rows[first:first + size])
                for first in range(0, len(rows), size)]

    def close(self):
        """Cancel the tasks and release the job, in one call (the scheduler
        then forgets them at once; one by one, the job lingered)."""
        self.client.cancel(self.futures + [self.job] + (
            [] if self.gpu_setup is None else [self.gpu_setup]))
        super().close()

    def _say(self, text):
        if self.status is not None:
            self.status(text)


def lost_workers(future):
    """The message of a task that was cancelled instead of computed: the
    cluster lost every worker that held the run's data."""
    return (f"The Dask cluster lost its workers during the run: every "
            f"worker holding the data died or was restarted, and task "
            f"{future.key!r} was cancelled. Check the workers (memory, "
            f"crashes; the scheduler's log says why they left) and run "
            f"again.")


# A worker's GPU backend: (the Setup it was made for, the backend, a lock
# that makes the worker's tasks take the GPU one at a time)
_WORKER_GPU = [None, None, threading.Lock()]


def _worker_gpu(setup, device):
    """This worker's ``CudaBackend`` for ``setup`` (made once per run and
    worker), or None where ``device`` is "auto" and the worker has no GPU;
    "cuda" without one raises the reason."""
    if device == "auto" and not cuda.available():
        return None
    if _WORKER_GPU[0] is not setup:
        if _WORKER_GPU[1] is not None:
            _WORKER_GPU[1].close()
        _WORKER_GPU[:2] = setup, CudaBackend(setup)
    return _WORKER_GPU[1]


def _task_sums(job, rows, first, every, width, device="cpu", gpu_setup=None):
    """A task: the sums of the update rows of visiting ``rows`` (visits
    first, first + 1, ...), one row per segment of ``every`` visits they
    touch.  The rows are visited in chunks of at most BATCH_BYTES of
    updates, on the worker's GPU where ``device`` asks for it."""
    first_segment = first // every
    last = first + len(rows) - 1
    out = np.zeros((last // every - first_segment + 1, width))
    chunk = max(4, 4 * (BATCH_BYTES // (32 * width)))
    upd = np.empty((min(chunk, len(rows)), width))
    for lo in range(0, len(rows), chunk):
        visits = rows[lo:lo + chunk]
        part = None
        if device != "cpu":
            with _WORKER_GPU[2]:
                gpu = _worker_gpu(gpu_setup, device)
                if gpu is not None:
                    part = gpu.update_rows(visits)
        if part is None:
            part = visit_updates(job, visits, upd[:len(visits)])
        segment = (first + lo + np.arange(len(part))) // every \
            - first_segment
        starts = np.flatnonzero(np.r_[True, segment[1:] != segment[:-1]])
        out[segment[starts]] += np.add.reduceat(part, starts, axis=0)
    return out


def _start_on_cluster(client, X, y, nominal, options, names, weights=None):
    """A dask ``X`` (or ``y``): the Setup is planned on a worker from the
    chunks the workers compute; returns this side's Setup without the data
    (enough for ``finish`` and the blocks), the job's future and the
    planned Setup's (a GPU's tasks read it).  The ``options`` were checked
    here, before any chunk is read."""
    X = client.compute(X) if _is_dask(X) else client.scatter(X)
    y = client.compute(y) if _is_dask(y) else y
    planned = client.submit(_start, X, y, nominal, options, names,
                            weights, pure=False)
    job = client.submit(_job, planned, pure=False)
    try:
        slim, caught = client.submit(_slim, planned, pure=False).result()
    except BaseException:
        client.cancel([future for future in (X, y, weights, planned, job)
                       if isinstance(future, type(job))])
        raise
    for message in caught:
        warn(message, stacklevel=3)
    if slim.hood is None:           # nothing to learn: no job to run
        client.cancel([job])
        job = None
    return slim, job, planned


def _start(X, y, nominal, options, names, weights=None):
    # (a worker thread: its own Relief warnings only, see core.messages)
    with collect_warnings() as caught:
        setup = start(X, y, nominal, options, instance_weights=weights,
                      **names)
    return setup, caught


def _setup_of(planned):
    setup, _ = planned
    return setup


def _job(planned):
    setup, _ = planned
    return None if setup.hood is None else relieff_job(setup)


def _slim(planned):
    """The Setup without its data (what ``finish`` and the blocks read),
    and the warnings of planning it."""
    setup, caught = planned
    prep = setup.prep
    empty = np.zeros((prep.group.shape[0], 0))
    prep = dataclasses.replace(prep, num=empty, nom=empty.astype(np.int8),
                               sp=NO_SPARSE, missing=None, law_weights=None)
    return setup._replace(prep=prep), caught
