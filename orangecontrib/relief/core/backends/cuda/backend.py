"""The GPU backend: a run's visits on an NVIDIA GPU (``relieff(device="cuda")``),
through numba-cuda (the optional ``[gpu]`` extra).

The same contract as the CPU engine, step by step, in float64
(``cuda/kernels.py``): a batch of visits at a time, the distances from each
visit to every instance (tiled; no n x n matrix), each group's neighbours
with tied slots shared (or a radius rule's), and the update rows, added
on the device in visiting order (``kernels.add_rows``, the order of
``base.add_updates``), so the sums are the CPU's to rounding (~1e-15) and
only they come back.  dReliefF and pdReliefF (and ReliefF with
fixed distance weights) visit one instance at a time with the distance
weights of the estimate so far (``estimates.step_weights``, on the host).

What it covers: dense and sparse data (sparse data is densified on the
device), numeric and nominal features, missing values (RELIEF-D: ``diffs``'
own functions on its tables, sent to the device), classification and
regression, ReliefF, Relief-E, rank weights, every neighbourhood rule, the feedback variants,
STIR's sums, m < n, several targets (``diffs.Targets`` of device arrays,
``kernels.updates_targets``) and instance weights on data without missing
values (``kernels.visit_copies``, ``weighted_k_nearest``,
``weighted_within_radius``, ``scale_rows``; the feedback variants visit the
copies in turn, a launch a step).  Not: compat="weka" (Weka's own loop, CPU
only), instance weights with missing values (RELIEF-D's weighted laws: the
CPU's backends) and STIR's sums with instance weights.  ``device="auto"`` keeps instance weights and several
targets on the CPU until they are measured on a GPU (``auto_declines``).

Device memory: the data (n x a float64 and the nominal codes) plus, per
batch, the distances and neighbour lists of its visits (batch x n); the
batch is cut to fit.  Data that does not fit raises a MemoryError that says
how much it needs.

``available()`` says whether a GPU can be used; ``device_name()`` names it.
Under numba's simulator (``NUMBA_ENABLE_CUDASIM=1``) ``device="cuda"`` runs
the kernels on the CPU (tests), but ``device="auto"`` does not take it.
"""
import os
import time
from collections import Counter, defaultdict
from contextlib import contextmanager

import numpy as np
from numba.core import config

from ..base import Backend, visited_weight, weighted
from ..compiled.screens import screen_bound
from ..runtime import trace_steps
from ...options import from_environment, one_of
from ...contract.neighbours import MODE_ANY, MODE_REGRESSION, surf_radius
from ...contract.diffs import Targets
from ..vectorised import dense_view

#: What ``device=`` accepts.
DEVICES = ("cpu", "cuda", "auto")
# The environment variable that chooses the device when ``relieff`` is not
# told (one of DEVICES; unset: the CPU).
DEVICE_VARIABLE = "ORANGE3_RELIEF_DEVICE"
# The most bytes of device memory a batch's distances and lists may take.
BATCH_DEVICE_BYTES = 2 << 30
# device="auto" takes the GPU for runs of at least this many terms (visits
# x instances x features): at 10,000 x 500 (5e10) an H100 took 0.10 s and
# 16 CPU cores 0.37 s; below 1e9 the GPU's fixed costs (sending the data,
# launches) are as long as the run (doc/gpu.md)
AUTO_MIN_TERMS = 10 ** 9
# device="auto" takes the GPU for dReliefF and pdReliefF (one launch a
# batch, ``feedback_visits``) on at least this many values (instances x
# features): at 20,000 x 500 an H200 took 205 us a visit, 16 CPU cores
# 332 us (pdReliefF); a visit's barriers and one block choosing each
# group's neighbours cost about as much on smaller data (doc/gpu.md)
FEEDBACK_AUTO_MIN_TERMS = 10 ** 7
# The share of the free device memory a run may take.
MEMORY_SHARE = 0.8
# Whether batches of visits with a radius rule's neighbours take the tiled
# update (``kernels.tiled_updates``) where it applies (see
# ``CudaBackend.tiled_updates``), or ``kernels.updates``.  Off: on an H200
# (2026-11-27, MultiSURF at 20,000 x 500) the update step took 0.480 s
# tiled against 0.312 s with ``updates`` (doc/gpu.md)
TILED_UPDATES = False
# Whether ReliefF's k nearest (k <= KMAX, by a block of threads) on complete
# data are found on float32 screening distances (``kernels.tiled_distances32``,
# within ``screens.screen_bound`` of the float64 ones) and decided by the
# float64 distances of the candidates the bound leaves
# (``kernels.k_nearest_screened``): the same neighbours, half the bytes and
# float32 arithmetic for the n x batch distances.  Off until measured on a
# GPU (issue 41: ``bench_gpu.py --only relieff`` times both)
FLOAT32_SCREEN = False
# Nominal codes are staged as float32 in the screen: exact below 2^24
SCREEN_MAX_CODE = 2 ** 24

# Seconds per step of the GPU runs in this process, when the environment
# variable ORANGE3_RELIEF_CUDA_PROFILE is set (each step then waits for the
# GPU to finish: benchmarks/bench_gpu.py's breakdown)
PROFILE = defaultdict(float)
# What the GPU runs of this process sent and fetched, and launched (always
# counted; tests and benchmarks/bench_gpu.py --traffic read it): "sent" and
# "fetched" bytes, "sends" and "fetches" (copies), "launches" (kernels),
# "data sends" (the data's values, X: once a run, or once while kept_data)
TRAFFIC = Counter()
# The first batch of a GPU run: this many terms (visits x instances x
# features), ~0.02-0.04 s of an H100's or H200's float64 distances; the next
# batches are sized by their time, about BATCH_SECONDS (runtime.Run)
GPU_FIRST_BATCH_TERMS = 5 * 10 ** 10

_MISSING = ("device='cuda' needs the optional GPU support: pip install "
            "'orange3-relief[gpu]' (numba-cuda), and an NVIDIA GPU with its "
            "driver")


def _numba_cuda():
    """numba's CUDA module, or None without numba-cuda."""
    try:
        from numba import cuda
    except Exception:                   # (ImportError, a broken toolkit)
        return None
    return cuda


def simulated():
    """Whether numba's CUDA simulator stands in for a GPU
    (NUMBA_ENABLE_CUDASIM=1 when numba was imported)."""
    return bool(config.ENABLE_CUDASIM)


# Whether neighbours are chosen by a block of threads a visit
# (``kernels.k_nearest_block``, ``within_radius_block``) where they
# apply, or by one thread a visit: numba's simulator runs every thread as a
# Python thread, and the block kernels' barriers are slow there (the tests
# run them on their own)
BLOCK_SELECTION = not simulated()

# Whether dReliefF's and pdReliefF's visits (and fixed distance weights')
# run a batch in one launch of ``kernels.feedback_visits`` (a barrier across
# the grid between the steps of a visit) where it covers the rule (the k
# nearest, k <= KMAX), or with a launch per step and visit
# (``CudaBackend.update_rows``; False: tests, and the comparison in
# benchmarks/bench_gpu.py)
ONE_LAUNCH = True
# Why ``feedback_visits`` could not be made ready on this GPU (None: it
# could, or was not tried): its runs then take a launch per step and visit
ONE_LAUNCH_FAILED = None


def unavailable_reason():
    """Why ``device="cuda"`` cannot run here (None: it can)."""
    cuda = _numba_cuda()
    if cuda is None:
        return _MISSING + "; numba-cuda is not installed."
    try:
        if cuda.is_available():
            return None
    except Exception as error:          # a driver that fails to load
        return f"{_MISSING}; the CUDA driver failed: {error}"
    return _MISSING + "; no CUDA GPU was found."


def available():
    """Whether ``device="auto"`` runs on a GPU here: a real one (not the
    simulator) with numba-cuda."""
    return not simulated() and unavailable_reason() is None


def device_name():
    """The GPU's name (e.g. 'NVIDIA H100 80GB HBM3'), or None."""
    if unavailable_reason() is not None:
        return None
    if simulated():
        return "CUDA simulator"
    name = _numba_cuda().get_current_device().name
    return name.decode() if isinstance(name, bytes) else str(name)


def check_device(device):
    """``device`` checked: one of DEVICES (None: the environment variable
    ORANGE3_RELIEF_DEVICE, else "cpu")."""
    if device is None:
        return from_environment(DEVICE_VARIABLE, DEVICES, "cpu")
    return one_of(device, "device", DEVICES)


def uncovered(setup):
    """What of ``setup`` the GPU backend does not compute (None: it covers
    it)."""
    if setup.options.compat == "weka":
        return "compat='weka' (Weka's own loop runs on the CPU)"
    if weighted(setup) and not CudaBackend.takes_weights_of(setup):
        return ("instance weights on data with missing values (RELIEF-D's "
                "weighted value distributions are computed by the CPU's "
                "backends only)")
    if weighted(setup) and setup.n_sums:
        return ("STIR's sums (statistics=True) with instance weights (a "
                "neighbour's copies share its pairs: the CPU's "
                "pair_sums.add_copy_pair_sums, not in the GPU's update "
                "kernel)")
    return None


def several_targets(setup):
    """Whether ``setup`` has several targets (multi-target Relief)."""
    return isinstance(setup.prep.target, Targets)


def require(setup):
    """A RuntimeError that says what is missing where no GPU can run here,
    a ValueError for a run the GPU backend does not cover."""
    reason = unavailable_reason()
    if reason is not None:
        raise RuntimeError(reason)
    if uncovered(setup) is not None:
        raise ValueError(f"device='cuda' does not cover {uncovered(setup)}; "
                         f"use device='cpu' or 'auto'.")


def auto_declines(setup):
    """Why ``device="auto"`` keeps ``setup`` on the CPU although a GPU is
    present (None: it takes the GPU).  Measured against 16 CPU cores
    (doc/gpu.md): runs of fewer than AUTO_MIN_TERMS terms (visits x
    instances x features) end sooner on the CPU than the GPU's kernels
    compile and its data is sent; dReliefF and pdReliefF take the GPU in
    one launch a batch (``one_launch_covers``) on FEEDBACK_AUTO_MIN_TERMS
    values or more, and were 5x slower there with a launch a step."""
    reason = uncovered(setup)
    if reason is not None:
        return reason
    if weighted(setup) or several_targets(setup):
        return ("instance weights and several targets take the GPU with "
                "device='cuda' only, until they are measured on a GPU "
                "(doc/gpu.md)")
    n, a = setup.shape
    if setup.variant_entry.sequential:
        if not one_launch_covers(setup.hood, a):
            return ("dReliefF, pdReliefF and fixed distance weights with a "
                    "radius rule or more than 16 neighbours take a launch a "
                    "step and visit on the GPU, faster on the CPU")
        if n * a < FEEDBACK_AUTO_MIN_TERMS:
            return ("dReliefF, pdReliefF and fixed distance weights on "
                    "fewer than 10^7 values (instances x features) end "
                    "sooner on the CPU")
        return None
    if setup.order.shape[0] * n * a < AUTO_MIN_TERMS:
        return "runs this small end sooner on the CPU"
    return None


def one_launch_covers(hood, a):
    """Whether a sequential run (dReliefF, pdReliefF, fixed distance
    weights) with neighbourhood ``hood`` on ``a`` features takes
    ``kernels.feedback_visits``, a launch a batch: the k nearest, k <= KMAX,
    unless switched off (``ONE_LAUNCH``) or not ready on this GPU."""
    from .kernels import KMAX
    return bool(ONE_LAUNCH and ONE_LAUNCH_FAILED is None and a
                and hood.uses_k and hood.k <= KMAX)


def _free_memory(cuda):
    """Free device memory in bytes (the simulator: plenty)."""
    if simulated():
        return 1 << 40
    free, _ = cuda.current_context().get_memory_info()
    return free


def _gib(size):
    return f"{size / 2 ** 30:.2f} GiB"


@contextmanager
def _step(cuda, name):
    """Time step ``name`` into PROFILE when profiling (see PROFILE)."""
    if not os.environ.get("ORANGE3_RELIEF_CUDA_PROFILE"):
        yield
        return
    cuda.synchronize()
    started = time.perf_counter()
    yield
    cuda.synchronize()
    PROFILE[name] += time.perf_counter() - started


class _CountedCuda:
    """numba's cuda module, its ``to_device`` counted in TRAFFIC."""

    def __init__(self, cuda):
        self._cuda = cuda

    def __getattr__(self, name):
        return getattr(self._cuda, name)

    def to_device(self, array, *args, **kwargs):
        TRAFFIC["sent"] += np.asarray(array).nbytes
        TRAFFIC["sends"] += 1
        return self._cuda.to_device(array, *args, **kwargs)


class _CountedKernels:
    """The kernels module, each kernel's launch counted in TRAFFIC (looked
    up at each launch: a test may replace a kernel)."""

    def __init__(self, kernels):
        self._kernels = kernels

    def __getattr__(self, name):
        value = getattr(self._kernels, name)
        if not hasattr(value, "__getitem__") or isinstance(value, type):
            return value
        return _CountedKernel(value)


class _CountedKernel:
    """A kernel whose launches are counted (its other attributes, e.g.
    ``compile``, the kernel's)."""

    def __init__(self, kernel):
        self.kernel = kernel

    def __getattr__(self, name):
        return getattr(self.kernel, name)

    def __getitem__(self, configuration):
        launch = self.kernel[configuration]

        def counted(*args):
            TRAFFIC["launches"] += 1
            return launch(*args)
        return counted


def fetch(array):
    """A device array copied to the host, counted in TRAFFIC."""
    TRAFFIC["fetched"] += array.nbytes
    TRAFFIC["fetches"] += 1
    return array.copy_to_host()


# While ``kept_data`` is active: the device copies of prepared data, by the
# identity of its host arrays (held here, so no other array takes their id)
_KEPT = None


@contextmanager
def kept_data():
    """GPU runs in this block send a prepared data set's values (X and the
    nominal codes) once and keep them on the device for the next runs on the
    same prepared arrays (``prepare.with_target``: a permutation test's
    refits change only the target); released at the end."""
    global _KEPT
    outer, _KEPT = _KEPT, {} if _KEPT is None else _KEPT
    try:
        yield
    finally:
        _KEPT = outer


def _device_tables(tables, cuda):
    """RELIEF-D's tables (``prepare.MissingTables``) on the device, in their
    order, as ``diffs``' functions take them (an empty one as a placeholder
    of its type: the kernels never read it)."""
    arrays = []
    for table in tables:
        table = np.ascontiguousarray(table)
        arrays.append(cuda.to_device(
            table if table.size else np.zeros((1,) * table.ndim, table.dtype)))
    return tuple(arrays)


class CudaBackend(Backend):
    """The GPU (see the module docstring)."""
    name = "cuda"
    uncovered = "compat='weka'"
    device = "cuda"
    takes_instance_weights = True

    @classmethod
    def takes_weights_of(cls, setup):
        # (RELIEF-D's weighted numeric laws: not sent to the device yet)
        return not setup.prep.has_missing

    @classmethod
    def covers(cls, setup):
        return uncovered(setup) is None

    def __init__(self, setup, n_threads=1):
        super().__init__(setup, n_threads)
        require(setup)
        from numba import cuda
        from . import kernels
        self.cuda = cuda = _CountedCuda(cuda)
        self.kernels = _CountedKernels(kernels)
        prep = dense_view(setup.prep, any_size=True)
        self.prep, self.hood = prep, setup.hood
        n, a = prep.group.shape[0], prep.n_used
        self.n, self.a = n, a
        codes = prep.nom.astype(np.int32)
        data_bytes = prep.num.nbytes + codes.nbytes + 16 * n
        free = int(_free_memory(cuda) * MEMORY_SHARE)
        self.screen = self._screen_bound(prep, codes)
        # a batch needs per visit: distances (8 n; and 4 n with the float32
        # screen), the list (4 n), the coefficients and sorted distances
        # (16 n); with instance weights the copies each instance counts as
        # and their sorted weights
        per_visit = (44 if weighted(setup) else 28) * n \
            + 4 * n * (self.screen is not None) \
            + 8 * (setup.width + setup.n_sums)
        if data_bytes + per_visit > free:
            raise MemoryError(
                f"The data needs {_gib(data_bytes + per_visit)} of GPU memory "
                f"({n} x {a} values as float64, and one visit's distances); "
                f"the GPU has {_gib(free / MEMORY_SHARE)} free.  Use "
                f"device='cpu', or fewer instances or features.")
        self.batch = int(max(1, min((free - data_bytes) // per_visit,
                                    BATCH_DEVICE_BYTES // per_visit,
                                    setup.order.shape[0])))
        self.d_x, self.d_codes = self._data(setup.prep, prep, codes)
        self.d_group = cuda.to_device(np.ascontiguousarray(prep.group))
        self.d_target, self.update_kernel = self._target(prep)
        self.d_weights = cuda.to_device(np.ascontiguousarray(
            prep.instance_weights, dtype=float)) if weighted(setup) else None
        hood = setup.hood
        self.d_rank = cuda.to_device(np.ascontiguousarray(
            hood.rank_weights if hood.rank_weights.size else np.ones(1)))
        self.d_factor = cuda.to_device(np.ascontiguousarray(
            hood.class_factor, dtype=float))
        counts = np.bincount(prep.group, minlength=max(prep.n_classes, 1))
        self.d_group_start = cuda.to_device(
            np.concatenate([[0], np.cumsum(counts)]).astype(np.int64))
        self.missing = _device_tables(prep.missing, cuda)
        self.d_ones = cuda.to_device(np.ones(max(a, 1)))
        self.width = setup.width + setup.n_sums
        self.d_w = cuda.device_array(max(a, 1))
        self.buffers, self.capacity = None, 0
        self.feedback = None
        # a batch's update rows by ``kernels.tiled_updates`` (each value
        # read serves a tile of visits): a radius rule's neighbours (about
        # half of all instances a visit with MultiSURF) on complete data,
        # classification without STIR's sums; else ``kernels.updates``
        self.tiled_updates = (TILED_UPDATES and not hood.uses_k
                              and not setup.regression and not setup.n_sums
                              and not prep.has_missing
                              and not weighted(setup))

    def _screen_bound(self, prep, codes):
        """(c_err, gamma) of the float32 screen (``FLOAT32_SCREEN``) where a
        batch of ReliefF's visits can take it: the k nearest, k <= KMAX, on
        complete data without instance weights, nominal codes below
        SCREEN_MAX_CODE; else None."""
        from .kernels import KMAX
        hood, setup = self.hood, self.setup
        if not (FLOAT32_SCREEN and hood.uses_k and hood.k <= KMAX
                and not prep.has_missing and not weighted(setup)
                and (codes.size == 0 or codes.max() < SCREEN_MAX_CODE)):
            return None
        return screen_bound(prep.num, np.ones(self.a), False, 0.0)

    def _screened(self, w):
        """Whether this batch's distances are the float32 screen's: ReliefF
        (``w`` None) where ``_screen_bound`` allows, a block a (visit,
        group) choosing."""
        return self.screen is not None and w is None and BLOCK_SELECTION

    def _target(self, prep):
        """The target on the device (zeros in classification; several
        targets as ``diffs.Targets`` of device arrays) and the name of the
        update kernel that reads it (``kernels.updates``,
        ``updates_targets``)."""
        cuda, target = self.cuda, prep.target
        if isinstance(target, Targets):
            return Targets(cuda.to_device(target.values),
                           cuda.to_device(target.nominal)), "updates_targets"
        return cuda.to_device(np.ascontiguousarray(
            target if self.setup.regression else np.zeros(self.n),
            dtype=float)), "updates"

    def _data(self, original, prep, codes):
        """The device copies of the values and nominal codes of ``prep``
        (dense; ``original`` before densifying), kept while ``kept_data``
        is active."""
        key = (id(original.num), id(original.nom), id(original.sp))
        if _KEPT is not None and key in _KEPT:
            return _KEPT[key][1]
        n, cuda = self.n, self.cuda
        TRAFFIC["data sends"] += 1
        arrays = (cuda.to_device(np.ascontiguousarray(
            prep.num if prep.num.shape[1] else np.zeros((n, 0)))),
            cuda.to_device(np.ascontiguousarray(
                codes if codes.shape[1] else np.zeros((n, 0), codes.dtype))))
        if _KEPT is not None:
            _KEPT[key] = ((original.num, original.nom, original.sp), arrays)
        return arrays

    def close(self):
        """Release the device memory (numba frees an array when its last
        reference goes)."""
        self.buffers, self.capacity = None, 0
        self.d_x = self.d_codes = self.missing = None
        super().close()

    def largest_batch(self):
        """The GPU takes large batches: the memory limit cuts them."""
        return max(super().largest_batch(), 1 << 16)

    def first_batch(self, most):
        """A GPU run's first batch: GPU_FIRST_BATCH_TERMS terms (the CPU's
        first batch would make a GPU run ~8 growing batches)."""
        n, a = self.setup.shape
        return max(1, min(most, GPU_FIRST_BATCH_TERMS // (n * max(a, 1))))

    def visit_batch(self, rows, done, total, trace):
        """ReliefF's visits: their update rows added on the device in
        visiting order (``kernels.add_rows``, the host's order: the same
        bits), so only the width-long sums (and the running sums at the
        trace points) come back, not len(rows) x width rows."""
        if not self.a:
            return super().visit_batch(rows, done, total, trace)
        cuda, k, setup = self.cuda, self.kernels, self.setup
        every = setup.options.trace_every or 0
        steps = trace_steps(done, len(rows), every)
        width = total.shape[0]
        d_total = cuda.to_device(total)
        d_points = cuda.device_array((max(len(steps), 1), width))
        threads = k.FEATURES_PER_BLOCK
        for start in range(0, len(rows), self.batch):
            part = rows[start:start + self.batch]
            out = self.update_rows(part, on_device=True, copies=True)
            first = len(trace_steps(done, start, every))
            with _step(cuda, "sums"):
                k.add_rows[(width + threads - 1) // threads, threads](
                    out, d_total, done + start, every, first, d_points)
        with _step(cuda, "download"):
            total[:] = fetch(d_total)
            points = fetch(d_points) if len(steps) else None
        for i, t in enumerate(steps):
            self.estimate(points[i], visited_weight(setup, t),
                          setup.regression, trace[i])
        return len(steps)

    # ------------------------------------------------------------------
    def batch_updates(self, rows, upd):
        for start in range(0, len(rows), self.batch):
            part = rows[start:start + self.batch]
            upd[start:start + len(part)] = self.update_rows(part,
                                                            copies=True)

    def visit_in_order(self, rows, done, total, trace):
        """dReliefF and pdReliefF (and fixed distance weights): the batch in
        one launch of ``kernels.feedback_visits`` where it covers the rule
        (``one_launch_covers``), else ``Backend``'s loop
        (``weighted_update``)."""
        hood, setup = self.hood, self.setup
        if not one_launch_covers(hood, self.a) or weighted(setup) \
                or several_targets(setup):
            return super().visit_in_order(rows, done, total, trace)
        setup, cuda = self.setup, self.cuda
        every = setup.options.trace_every or 0
        points = len(trace_steps(done, len(rows), every))
        d_total = cuda.to_device(total)
        d_trace = cuda.device_array((max(points, 1), self.a))
        fixed, w, current = self._feedback_buffers()
        args = (self.d_x, self.d_codes,
                cuda.to_device(np.ascontiguousarray(rows, np.int64)),
                self.d_group, self.d_target, setup.regression,
                setup.n_sums > 0, *self.missing, hood.mode, hood.n_groups,
                hood.k, self.d_rank, self.d_factor, self.d_group_start,
                setup.variant, float(setup.T or 0.0),
                len(setup.distance_weights), fixed, done, every, d_total, w,
                current, cuda.to_device(np.zeros(len(rows), np.int64)),
                *self._visit_buffers(), d_trace)
        blocks = self._grid_of(args)
        if not blocks:
            return super().visit_in_order(rows, done, total, trace)
        with _step(cuda, "feedback visits"):
            self.kernels.feedback_visits[blocks,
                                         self.kernels.FEEDBACK_THREADS](*args)
        total[:] = fetch(d_total)
        if points:
            trace[:points] = fetch(d_trace)
        return points

    def _feedback_buffers(self):
        """``feedback_visits``' fixed distance weights (a placeholder of
        one when there are none), distance weights and the regression
        estimate's scratch, made once (``self.feedback``)."""
        if self.feedback is None:
            cuda, fixed = self.cuda, self.setup.distance_weights
            self.feedback = (
                cuda.to_device(np.ascontiguousarray(
                    fixed if len(fixed) else np.ones(1), dtype=float)),
                self.d_w, cuda.device_array(self.a))
        return self.feedback

    def _visit_buffers(self):
        """One visit's distances, neighbour lists, their distances and
        coefficients, counts and starts of its groups, constant and update
        row (``feedback_visits``)."""
        buf = self._buffers(1)
        return (buf["dist"], buf["chosen"], buf["member_dist"], buf["coef"],
                buf["counts"], buf["starts"], buf["constant"], buf["out"])

    def _grid_of(self, args):
        """The blocks of ``feedback_visits``' launch with ``args``: as many
        as the GPU holds at once (a barrier across the grid needs every
        block resident), no more than a step has work for; one under the
        simulator (its barrier holds one block).  0 when the kernel cannot
        be made ready here (``ONE_LAUNCH_FAILED`` says why)."""
        global ONE_LAUNCH_FAILED
        k = self.kernels
        if ONE_LAUNCH_FAILED is not None:
            return 0
        if simulated():
            return 1
        from numba import typeof
        try:
            kernel = k.feedback_visits.compile(tuple(map(typeof, args)))
            most = kernel.max_cooperative_grid_blocks(k.FEEDBACK_THREADS)
        except (AttributeError, NameError, TypeError):
            raise                       # a mistake here, not the GPU's
        except Exception as error:      # e.g. no cudadevrt to link with
            ONE_LAUNCH_FAILED = f"{type(error).__name__}: {error}"
            return 0
        if most == 0:
            ONE_LAUNCH_FAILED = (f"the GPU holds no block of "
                                 f"{k.FEEDBACK_THREADS} threads of it")
        wanted = max(-(-self.n // k.FEEDBACK_PAIRS),
                     -(-self.a // k.FEEDBACK_THREADS), self.hood.n_groups)
        return min(most, wanted)

    def weighted_update(self, r, w):
        """dReliefF / pdReliefF (and fixed distance weights): one visit with
        its distance weights, with the GPU's steps (with instance weights,
        one copy's: ``base.Backend.visit_copies_in_order``)."""
        return self.update_rows(np.array([r]), w)[0]

    # ------------------------------------------------------------------
    def _buffers(self, count):
        """The device arrays of a batch of ``count`` visits (kept and
        reused; grown when a larger batch comes): distances, neighbour
        lists, their coefficients and distances, counts, the constant of
        each visit and the update rows."""
        if count > self.capacity:
            cuda, n, hood = self.cuda, max(self.n, 1), self.hood
            self.buffers = None
            self.capacity = count
            segments = hood.n_groups if hood.uses_k else 1
            self.buffers = dict(
                dist=cuda.device_array((count, n)),
                dist32=cuda.device_array((count, n), np.float32)
                if self.screen is not None else None,
                chosen=cuda.device_array((count, n), np.int32),
                coef=cuda.device_array((count, n)),
                member_dist=cuda.device_array((count, n))
                if hood.uses_k else None,
                heap=cuda.device_array((count * hood.n_groups,
                                        max(hood.k, 1)))
                if hood.uses_k and not (
                    hood.k <= self.kernels.KMAX and BLOCK_SELECTION)
                else None,
                counts=cuda.device_array((count, segments), np.int64),
                starts=cuda.to_device(np.zeros((count, segments),
                                               np.int64)),
                constant=cuda.to_device(np.zeros(count)),
                out=cuda.device_array((count, self.width)),
                copies=cuda.device_array((count, n))
                if self.d_weights is not None else None,
                member_weights=cuda.device_array((count, n))
                if self.d_weights is not None and hood.uses_k else None)
        rows = dict(heap=count * self.hood.n_groups)
        return {key: None if value is None else value[:rows.get(key, count)]
                for key, value in self.buffers.items()}

    def update_rows(self, rows, w=None, on_device=False, copies=False):
        """The update rows (len(rows) x width) of visiting ``rows`` with
        distance weights ``w`` (None: all 1, ReliefF's, whose complete data
        takes the tiled distances; else one visit's, sent to the device);
        with instance weights each row is one copy's, times the visited
        instance's weight where ``copies`` (ReliefF's visits: its w
        copies); ``on_device``: left there (a device array, reused by the
        next call)."""
        cuda, k = self.cuda, self.kernels
        setup = self.setup
        count, n = len(rows), self.n
        buf = self._buffers(count)
        with _step(cuda, "upload"):
            d_rows = cuda.to_device(np.ascontiguousarray(rows, np.int64))
            d_w = self.d_ones
            if w is not None:
                self.d_w.copy_to_device(w)
                TRAFFIC.update(sent=w.nbytes, sends=1)
                d_w = self.d_w
        missing = self.missing
        dist = buf["dist"]
        with _step(cuda, "distances"):
            if self._screened(w):
                grid = ((count + k.TILE - 1) // k.TILE,
                        (n + k.TILE - 1) // k.TILE)
                k.tiled_distances32[grid, (k.SIDE, k.SIDE)](
                    self.d_x, self.d_codes, d_rows, d_w, buf["dist32"])
            elif not self.prep.has_missing and w is None:
                grid = ((count + k.TILE - 1) // k.TILE,
                        (n + k.TILE - 1) // k.TILE)
                k.tiled_distances[grid, (k.SIDE, k.SIDE)](
                    self.d_x, self.d_codes, d_rows, d_w, dist)
            else:
                blocks = (count * n + k.PAIRS_PER_BLOCK - 1) \
                    // k.PAIRS_PER_BLOCK
                k.pair_distances[blocks, k.PAIR_THREADS](
                    self.d_x, self.d_codes, d_rows, d_w, self.d_group,
                    *missing, dist)
        with _step(cuda, "neighbours"):
            if self.d_weights is None:
                starts = self._neighbours(rows, d_rows, buf, w)
            else:
                starts = self._weighted_neighbours(rows, d_rows, buf, w)
        if not self.a:
            return np.zeros((count, self.width))
        out = buf["out"]
        chosen, coef, counts = buf["chosen"], buf["coef"], buf["counts"]
        constant = buf["constant"]
        with _step(cuda, "updates"):
            if w is None and self.tiled_updates:
                # the distances are spent: their buffer takes the dense
                # coefficients (no memory more)
                k.dense_coefficients[count, k.VISIT_THREADS](
                    chosen, coef, counts, dist)
                grid = ((count + k.UPDATE_TILE - 1) // k.UPDATE_TILE,
                        (self.a + k.UPDATE_TILE - 1) // k.UPDATE_TILE)
                k.tiled_updates[grid, (k.SIDE, k.SIDE)](
                    self.d_x, self.d_codes, d_rows, self.d_group, *missing,
                    dist, constant, out)
            else:
                grid = ((self.a + k.FEATURES_PER_BLOCK - 1)
                        // k.FEATURES_PER_BLOCK, count)
                getattr(k, self.update_kernel)[grid, k.FEATURES_PER_BLOCK](
                    self.d_x, self.d_codes, d_rows, self.d_group,
                    self.d_target, setup.regression, setup.n_sums > 0,
                    *missing, starts, counts, chosen, coef, constant, out)
            if copies and self.d_weights is not None:
                entries = count * self.width
                k.scale_rows[(entries + 127) // 128, 128](
                    d_rows, self.d_weights, out)
        if on_device:
            return out
        with _step(cuda, "download"):
            return fetch(out)

    def _neighbours(self, rows, d_rows, buf, w):
        """The neighbours of the visits ``rows`` and their coefficients
        from the distances ``buf["dist"]``, into the batch's buffers;
        returns where each neighbour group starts in a visit's list."""
        cuda, k, hood = self.cuda, self.kernels, self.hood
        count, groups = len(rows), hood.n_groups
        dist, chosen, coef = buf["dist"], buf["chosen"], buf["coef"]
        counts, constant = buf["counts"], buf["constant"]
        rule = (hood.pair_mean_radius, hood.deviations, hood.far,
                hood.far_sameness)
        if self._screened(w):
            k.k_nearest_screened[count * groups, k.VISIT_THREADS](
                buf["dist32"], *self.screen, self.d_x, self.d_codes, d_rows,
                self.d_group, *self.missing, self.d_ones, hood.mode, groups,
                hood.k, self.d_rank, self.d_factor, self.d_group_start,
                chosen, buf["member_dist"], coef, counts)
        elif hood.uses_k and hood.k <= k.KMAX and BLOCK_SELECTION:
            k.k_nearest_block[count * groups, k.VISIT_THREADS](
                dist, d_rows, self.d_group, hood.mode, groups, hood.k,
                self.d_rank, self.d_factor, self.d_group_start, chosen,
                buf["member_dist"], coef, counts)
        elif hood.uses_k:
            threads = 128
            k.k_nearest[(count * groups + threads - 1) // threads,
                        threads](
                dist, d_rows, self.d_group, hood.mode, groups, hood.k,
                self.d_rank, self.d_factor, self.d_group_start,
                buf["heap"], chosen, buf["member_dist"], coef, counts)
        elif 2 * groups <= k.MAX_BUCKETS and BLOCK_SELECTION:
            k.within_radius_block[count, k.VISIT_THREADS](
                dist, d_rows, self.d_group, hood.mode, groups, *rule,
                cuda.to_device(self._surf_radius(count, w)),
                self.d_factor, chosen, coef, counts, constant)
        else:
            threads = 128
            buckets = cuda.device_array((count, 2 * groups), np.int64)
            k.within_radius[(count + threads - 1) // threads, threads](
                dist, d_rows, self.d_group, hood.mode, groups, *rule,
                cuda.to_device(self._surf_radius(count, w)),
                self.d_factor, buckets, chosen, coef, counts, constant)
        if hood.uses_k:
            return cuda.to_device(self._group_starts(rows))
        return buf["starts"]

    def _weighted_neighbours(self, rows, d_rows, buf, w):
        """``_neighbours`` with instance weights (``doc/semantics.md``):
        the copies of each instance a visit counts
        (``kernels.visit_copies``), then each group's nearest by weight
        (``kernels.weighted_k_nearest``) or a radius rule's sets averaged
        by weight (``kernels.weighted_within_radius``), a thread a visit
        and group."""
        cuda, k, hood = self.cuda, self.kernels, self.hood
        count, n, groups = len(rows), self.n, hood.n_groups
        threads = 128
        copies = buf["copies"]
        k.visit_copies[(count * n + threads - 1) // threads, threads](
            self.d_weights, d_rows, copies)
        if hood.uses_k:
            k.weighted_k_nearest[(count * groups + threads - 1) // threads,
                                 threads](
                buf["dist"], d_rows, self.d_group, copies, hood.mode,
                groups, hood.k, self.d_rank, self.d_factor,
                self.d_group_start, buf["chosen"], buf["member_dist"],
                buf["member_weights"], buf["coef"], buf["counts"])
            return cuda.to_device(self._group_starts(rows))
        k.weighted_within_radius[(count + threads - 1) // threads, threads](
            buf["dist"], d_rows, self.d_group, copies, hood.mode, groups,
            hood.pair_mean_radius, hood.deviations, hood.far,
            hood.far_sameness, cuda.to_device(self._surf_radius(count, w)),
            self.d_factor, cuda.device_array((count, 2 * groups)),
            buf["chosen"], buf["coef"], buf["counts"], buf["constant"])
        return buf["starts"]

    def _surf_radius(self, count, w):
        """SURF's radius (``neighbours.surf_radius``, run here as Python)
        for each of ``count`` visits; 0 without a pair-mean radius."""
        hood = self.hood
        radius = np.zeros(count)
        if hood.pair_mean_radius:
            radius[:] = surf_radius(np.ones(self.a) if w is None else w,
                                    hood.pair_means)
        return radius

    def _group_starts(self, rows):
        """Where each neighbour group of each visit starts in its list
        (``kernels.k_nearest``)."""
        hood, group = self.hood, self.prep.group
        counts = np.bincount(group, minlength=max(self.prep.n_classes, 1))
        if hood.mode == MODE_REGRESSION:
            starts = np.zeros((len(rows), 1), np.int64)
        elif hood.mode == MODE_ANY:
            starts = np.zeros((len(rows), 2), np.int64)
            starts[:, 1] = counts[group[rows]]
        else:
            starts = np.tile(np.concatenate([[0], np.cumsum(counts)[:-1]]),
                             (len(rows), 1)).astype(np.int64)
        return starts
