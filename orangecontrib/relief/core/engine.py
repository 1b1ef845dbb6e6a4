"""The Relief engine: ReliefF, Relief-E, RReliefF, dReliefF and pdReliefF as
options of one loop (``doc/semantics.md`` is the contract,
``doc/architecture.md`` the map of the code).

This module checks the options, prepares the data (``prepare.py``), plans
the layouts (``plan.py``), runs the visits in batches -- ReliefF's on several
threads (``visits.py``), the feedback variants' in order (``feedback.py``) --
with progress and cancel between batches, and turns the sums into weights.
"""
import math
import os
import threading
import time
import warnings
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from typing import NamedTuple, Optional

import numba
import numpy as np

from . import pairsums, plan, vectorised, warmup
from .estimates import VARIANT_D, VARIANT_PD, VARIANT_RELIEFF
from .feedback import feedback_batch
from .neighbours import MODE_REGRESSION, RULE_K, RULES, Neighbourhood
from .prepare import Data, Prepared, ReliefWarning, prepare
from .speedups import ALL, Speedups
from .visits import Blocks, relief_rows

VARIANTS = {"relieff": VARIANT_RELIEFF, "drelieff": VARIANT_D,
            "pdrelieff": VARIANT_PD}
MISSES = ("per_class", "any")
COMPATS = (None, "weka")

# Each call into the kernels is sized to take about BATCH_SECONDS (measured
# as the run goes), so progress is reported and a cancel takes effect several
# times a second on any machine; the first call does FIRST_BATCH_TERMS terms.
BATCH_SECONDS = 0.1
FIRST_BATCH_TERMS = 20_000_000
# ...and holds at most this many bytes of per-instance updates (wide data).
BATCH_BYTES = 16_000_000


@dataclass
class ReliefResult:
    """What a Relief run computed.

    Attributes
    ----------
    weights : ndarray (n_features,)
        The estimates W[A]; 0 for constant features, NaN for features with no
        known value.
    trace : ndarray (n_points, n_features) or None
        The estimate after every ``trace_every``-th visited instance (and after
        the last one), for convergence plots.
    trace_steps : ndarray (n_points,) or None
        The number of visited instances at each trace point.
    n_iterations : int
        m, the number of visited instances.
    T : float or None
        pdReliefF's steepness actually used.
    regression : bool
        True when the RReliefF form (numeric class) was used.
    n_dropped : int
        Rows left out because their class value was missing.
    pair_sums : dict or None
        With ``statistics=True``: STIR's sums over the (visit, neighbour)
        pairs (``pairsums``), per feature ``S1_hit``, ``S2_hit``,
        ``S1_miss``, ``S2_miss`` (0 for constant features, NaN for those
        with no known value) and the scalars ``W_hit``, ``Q_hit``,
        ``W_miss``, ``Q_miss``.
    """
    weights: np.ndarray
    trace: Optional[np.ndarray]
    trace_steps: Optional[np.ndarray]
    n_iterations: int
    T: Optional[float]
    regression: bool
    n_dropped: int
    pair_sums: Optional[dict] = None


def ranking(weights):
    """Feature indices from the largest weight down; ties keep the features'
    order and NaN weights (features with no known value) come last."""
    weights = np.asarray(weights, dtype=float)
    return np.argsort(-np.where(np.isnan(weights), -np.inf, weights),
                      kind="stable")


def default_T(m):
    """T = 2 / ln(m), the seed's choice that makes f(w, m) independent of m."""
    return 2.0 / math.log(m) if m > 1 else math.inf


def _n_threads(n_jobs):
    """The number of threads ``n_jobs`` asks for (None or -1: all cores)."""
    if n_jobs is None or n_jobs < 0:
        return numba.config.NUMBA_NUM_THREADS
    return min(int(n_jobs), numba.config.NUMBA_NUM_THREADS)


@contextmanager
def _threads(n_jobs):
    """The number of threads to use (numba's for the parallel loops too)."""
    if n_jobs is None:
        yield numba.get_num_threads()
        return
    old = numba.get_num_threads()
    wanted = _n_threads(n_jobs)
    numba.set_num_threads(wanted)
    try:
        yield wanted
    finally:
        numba.set_num_threads(old)


def _check_options(variant, k_nearest, misses, weight_by_distance, sigma, T,
                   trace_every, n_jobs=None, neighbours="k",
                   regression=False, compat=None):
    if n_jobs is not None and (isinstance(n_jobs, bool) or not isinstance(
            n_jobs, (int, np.integer)) or n_jobs == 0 or n_jobs < -1):
        raise ValueError(f"n_jobs must be a positive number of threads, or -1 "
                         f"(or None) for all cores; got {n_jobs!r}.")
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {', '.join(VARIANTS)}; "
                         f"got {variant!r}.")
    if isinstance(k_nearest, bool) or not isinstance(
            k_nearest, (int, np.integer)) or k_nearest < 1:
        raise ValueError(f"k_nearest must be a whole number of at least 1; "
                         f"got {k_nearest!r}.")
    if misses not in MISSES:
        raise ValueError(f"misses must be 'per_class' (ReliefF) or 'any' "
                         f"(Relief-E); got {misses!r}.")
    if neighbours not in RULES:
        raise ValueError(f"neighbours must be one of "
                         f"{', '.join(map(repr, RULES))}; got {neighbours!r}.")
    if neighbours != "k" and weight_by_distance:
        raise ValueError(f"weight_by_distance ranks the k nearest; with "
                         f"neighbours={neighbours!r} every neighbour within "
                         "the radius counts the same. Use neighbours='k', or "
                         "weight_by_distance=False.")
    if neighbours.endswith("*") and regression:
        raise ValueError(f"neighbours={neighbours!r} scores far instances, "
                         "which RReliefF (a numeric target) does not define; "
                         "use 'surf' or 'multisurf'.")
    if weight_by_distance and not sigma > 0:
        raise ValueError(f"sigma must be positive; got {sigma!r}.")
    if T is not None and not T > 0:
        raise ValueError(f"T must be positive (or None for 2/ln m); got {T!r}.")
    if trace_every is not None and (not isinstance(
            trace_every, (int, np.integer)) or trace_every < 1):
        raise ValueError("trace_every must be a whole number of at least 1 "
                         "(or None for no trace).")
    if compat not in COMPATS:
        raise ValueError(f"compat must be None (this add-on's definitions) "
                         f"or 'weka' (Weka's ReliefFAttributeEval); got "
                         f"{compat!r}.")
    if compat == "weka" and misses != "per_class":
        raise ValueError("Weka has no misses='any' (Relief-E); with "
                         "compat='weka' use misses='per_class'.")
    if compat == "weka" and neighbours != "k":
        raise ValueError("Weka's ReliefFAttributeEval has only the k "
                         "nearest neighbours; with compat='weka' use "
                         "neighbours='k'.")


def relieff(X, y, nominal=None, *, regression=False, variant="relieff",
            n_iterations=None, k_nearest=10, random_state=0,
            misses="per_class", weight_by_distance=False, sigma=2.0, T=None,
            neighbours="k", progress=None, trace_every=None, n_jobs=None,
            speedups=None, status=None, kernels=None, compat=None,
            n_values=None, n_class_values=None, feature_names=None,
            statistics=False):
    """Estimate feature weights with ReliefF or one of its variants.

    Parameters
    ----------
    X : array (n_instances, n_features)
        Feature values; NaN marks a missing value.  Nominal features hold
        integer codes.
    y : array (n_instances,)
        Class codes 0, 1, ... (classification) or numbers (regression); rows
        with NaN are dropped with a warning.
    nominal : boolean array (n_features,), optional
        Which features are nominal (diff by overlap); the rest are numeric
        (range-normalised difference).
    regression : bool
        Use the RReliefF form for a numeric target.
    variant : {"relieff", "drelieff", "pdrelieff"}
        Distance weights: none (ReliefF), the running estimate (dReliefF) or
        the progressive blend f(w, t) = (1 - w) / t^T + w (pdReliefF).
    n_iterations : int, optional
        m, the number of instances visited, in the order
        ``default_rng(random_state).permutation(n)[:m]``; all when None.
    k_nearest : int
        Neighbours per group; instances tied with the k-th share its slots.
    random_state : int, Generator or None
        Seed of the visiting order.
    misses : {"per_class", "any"}
        k misses of every other class (ReliefF) or among all other classes
        together (Relief-E; original Relief with k_nearest=1).
    weight_by_distance : bool
        Rank-weighted neighbours, exp(-(rank / sigma)^2) (Weka's -W / -A).
    sigma : float
        Width of the rank weights.
    T : float, optional
        pdReliefF's steepness; 2 / ln(m) when None.
    neighbours : {"k", "surf", "surf*", "multisurf", "multisurf*"}
        The neighbourhood rule: the k nearest hits and misses (ReliefF), or
        every instance within a radius: SURF's mean distance over all pairs,
        MultiSURF's mean distance from the visited instance minus half its
        standard deviation; the starred rules also score the far instances
        (``doc/semantics.md``, "Neighbourhood rules").
    progress : callable(fraction), optional
        Called with the fraction done; may raise to cancel the run.
    trace_every : int, optional
        Record the estimate after every ``trace_every``-th visit.
    n_jobs : int, optional
        Threads to use (None or -1: all cores).
    speedups : Speedups, optional
        Which speed mechanisms to use (all by default); for tests and
        benchmarks: the weights do not depend on them.
    status : callable(text), optional
        Told what the engine is doing when it is not just computing (e.g.
        "preparing fast kernels (first use only)").
    kernels : {None, "compiled", "vectorised"}
        None: the compiled kernels, or while they compile in the background
        (first use, ``warmup.py``) the vectorised NumPy path, equal to
        ~1e-15.  "compiled" or "vectorised" force one (tests, benchmarks).
    compat : {None, "weka"}
        "weka": Weka's ReliefFAttributeEval, to the last bit (``weka.py``).
    statistics : bool
        Also gather STIR's sums over the (visit, neighbour) pairs
        (``result.pair_sums``; ReliefF, classification, dense data).
    n_values, n_class_values, feature_names : optional
        compat="weka": declared numbers of values of each nominal feature
        and of the class (default: largest code + 1); names for errors.

    Returns
    -------
    ReliefResult (``run_setup``)

    References: Kononenko (1994), Robnik-Šikonja & Kononenko (2003), Prat
    Masramon & Belanche Muñoz (2005), Le et al. (2019, STIR).
    """
    if compat is not None:
        from .weka import weka_relieff      # (weka.py uses this module)
        return weka_relieff(
            X, y, nominal, compat=compat, regression=regression,
            variant=variant, n_iterations=n_iterations, k_nearest=k_nearest,
            random_state=random_state, misses=misses,
            weight_by_distance=weight_by_distance, sigma=sigma, T=T,
            progress=progress, trace_every=trace_every, n_jobs=n_jobs,
            n_values=n_values, n_class_values=n_class_values,
            feature_names=feature_names, neighbours=neighbours)
    setup = start(X, y, nominal, regression=regression, variant=variant,
                  n_iterations=n_iterations, k_nearest=k_nearest,
                  random_state=random_state, misses=misses,
                  weight_by_distance=weight_by_distance, sigma=sigma, T=T,
                  neighbours=neighbours, trace_every=trace_every,
                  n_jobs=n_jobs, speedups=speedups,
                  feature_names=feature_names, statistics=statistics)
    return run_setup(setup, progress=progress, trace_every=trace_every,
                     n_jobs=n_jobs, status=status, kernels=kernels)


def run_setup(setup, *, progress=None, trace_every=None, n_jobs=None,
              status=None, kernels=None):
    """Run the visits of a ``Setup`` on this machine's threads and return
    the ``ReliefResult`` (the options as in ``relieff``)."""
    if progress is not None:
        progress(0.0)           # a cancel can act before the first batch
    run = _Run(setup.order, trace_every, progress, setup.regression,
               setup.width + setup.n_sums)
    run.status, run.kernels = status, kernels
    if setup.hood is None:
        total = np.zeros(setup.width + setup.n_sums)
        m, a = setup.order.shape[0], setup.prep.n_used
        if trace_every:
            run.steps = list(range(trace_every, m + 1, trace_every))
            run.points = [np.zeros(a)] * len(run.steps)
    else:
        with _threads(n_jobs) as n_threads:
            if setup.variant == VARIANT_RELIEFF:
                total = _relieff(setup, n_threads, run)
            else:
                total = _feedback(setup, n_threads, run)
    result = _result(setup.prep, run, total[:setup.width], setup.T)
    if setup.n_sums:
        result.pair_sums = _pair_sums(total[setup.width:], setup.prep)
    return result


class Setup(NamedTuple):
    """A run as ``relieff`` plans it: the prepared data, the visiting order,
    the variant's code and T, the width of an update row, the neighbourhood
    (None when there is nothing to learn: all weights 0), the speedups and
    the width of STIR's pair sums that follow the weights in a row (0:
    none)."""
    prep: Prepared
    order: np.ndarray
    variant: int
    T: Optional[float]
    regression: bool
    width: int
    hood: Optional[Neighbourhood]
    speedups: Speedups
    n_sums: int = 0


def start(X, y, nominal=None, *, regression=False, variant="relieff",
          n_iterations=None, k_nearest=10, random_state=0, misses="per_class",
          weight_by_distance=False, sigma=2.0, T=None, neighbours="k",
          trace_every=None, n_jobs=None, speedups=None, feature_names=None,
          statistics=False):
    """Check the options of ``relieff`` (the same arguments) and plan the
    run: the ``Setup`` that ``relieff`` and the backends (``distributed``)
    run the visits of."""
    _check_options(variant, k_nearest, misses, weight_by_distance, sigma, T,
                   trace_every, n_jobs, neighbours, regression)
    prep = prepare(X, y, nominal, regression, feature_names)
    n = prep.group.shape[0]
    m = _n_visits(n_iterations, n)
    variant_code = VARIANTS[variant]
    T_used = (T if T is not None else default_T(m)) \
        if variant_code == VARIANT_PD else None
    order = np.random.default_rng(random_state).permutation(n)[:m]
    a = prep.n_used
    hood = None
    if not (a == 0 or _nothing_to_learn(
            prep, regression, k_nearest if neighbours == "k" else None)):
        hood = plan.neighbourhood(prep, regression, misses, k_nearest,
                                  weight_by_distance, sigma, neighbours)
    n_sums = 0
    if statistics:
        _check_statistics(variant, regression, neighbours, trace_every, prep)
        n_sums = pairsums.width(a)
    return Setup(prep, order, variant_code, T_used, bool(regression),
                 1 + 2 * a if regression else a, hood,
                 ALL if speedups is None else speedups, n_sums)


def _check_statistics(variant, regression, neighbours, trace_every, prep):
    """STIR's sums are ReliefF's, for classification on dense data."""
    if regression or variant != "relieff" or neighbours.endswith("*"):
        raise ValueError("statistics=True gathers STIR's sums of ReliefF's "
                         "near hits and misses: classification, "
                         "variant='relieff', a rule without far instances.")
    if trace_every or prep.sparse:
        raise ValueError("statistics=True needs dense data and no trace.")


def _pair_sums(sums, prep):
    """The pair sums of the kernel columns as a dict on the features."""
    a = prep.n_used
    out = {key: _to_features(sums[i * a:(i + 1) * a][None, :], prep)[0]
           for i, key in enumerate(("S1_hit", "S2_hit", "S1_miss",
                                    "S2_miss"))}
    for i, key in enumerate(("W_hit", "Q_hit", "W_miss", "Q_miss")):
        out[key] = float(sums[4 * a + i])
    return out


class ReliefJob(NamedTuple):
    """What ReliefF's visits read (``visits.relief_rows``): named tuples of
    numpy arrays, so a job pickles, e.g. to the workers of a cluster."""
    data: Data
    blocks: Blocks
    hood: Neighbourhood
    speedups: Speedups


def relieff_job(setup):
    """The ``ReliefJob`` of a ReliefF ``Setup`` with something to learn."""
    return ReliefJob(setup.prep.data(setup.regression),
                     plan.blocks(setup.prep, setup.speedups, setup.hood.rule),
                     setup.hood,
                     setup.speedups)


def visit_updates(job, rows, upd=None):
    """The update rows of visiting ``rows`` (one thread), into ``upd``."""
    if upd is None:
        upd = np.empty((len(rows), _width(job)))
    relief_rows(rows, job.data, job.blocks, job.hood, job.speedups, upd)
    return upd


def _width(job):
    a = job.data.rows.nominal.shape[0] if job.data.sparse \
        else job.data.num.shape[1] + job.data.nom.shape[1]
    return 1 + 2 * a if job.hood.mode == MODE_REGRESSION else a


def finish(setup, total, trace_every=None, running=None):
    """The ``ReliefResult`` of the sums ``total`` of every visit's update;
    with ``trace_every``, ``running[j]`` is the sum of the first
    (j + 1) * trace_every visits' updates (the trace points)."""
    run = _Run(setup.order, trace_every, None, setup.regression, setup.width)
    if trace_every:
        run.steps = list(range(trace_every, setup.order.shape[0] + 1,
                               trace_every))
        run.points = [vectorised.estimate(sums, t, setup.regression)
                      for sums, t in zip(running, run.steps)]
    return _result(setup.prep, run, total, setup.T)


def _result(prep, run, total, T):
    """The ``ReliefResult`` of the sums ``total`` after all visits."""
    m, a = run.order.shape[0], prep.n_used
    final = vectorised.estimate(total, m, run.regression)
    if run.trace_every and (not run.steps or run.steps[-1] != m):
        run.steps.append(m)
        run.points.append(final)
    return ReliefResult(
        weights=_to_features(final[None, :], prep)[0],
        trace=_to_features(np.array(run.points).reshape(-1, a), prep)
        if run.trace_every else None,
        trace_steps=np.array(run.steps, dtype=np.int64)
        if run.trace_every else None,
        n_iterations=m, T=T, regression=bool(run.regression),
        n_dropped=prep.n_dropped)


def _n_visits(n_iterations, n):
    """m, the number of instances visited."""
    if n_iterations is None:
        return n
    if (isinstance(n_iterations, bool)
            or not isinstance(n_iterations, (int, np.integer))
            or not 1 <= n_iterations <= n):
        raise ValueError(f"n_iterations must be a whole number between 1 and "
                         f"the number of instances ({n}), or None for all; "
                         f"got {n_iterations!r}.")
    return int(n_iterations)


class _Run:
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


def _relieff(setup, n_threads, run):
    """ReliefF's visits in batches, each batch in chunks on ``n_threads``
    threads (``visits.relief_rows``), or on the vectorised path while the
    kernels compile; returns the sums of the updates."""
    prep, speedups = setup.prep, setup.speedups
    n, m = prep.group.shape[0], run.order.shape[0]
    kernels = _Kernels(setup, "relieff", run)
    job = None
    most = max(4 * n_threads, BATCH_BYTES // (8 * run.width))
    first = max(1, min(most, FIRST_BATCH_TERMS // (n * max(prep.n_used, 1))))
    total = np.zeros(run.width)
    # the per-visit updates, reused by every batch: a fresh array per batch
    # costs a page fault per 4 KB (wide or sparse data: up to half the run
    # on a virtual machine)
    updates = np.empty((min(most, m), run.width)) \
        if speedups.reused_buffer else None
    with _pool(n_threads, speedups.thread_pool) as pool:
        for done, rows in run.batches(first, most):
            upd = updates[:len(rows)] if updates is not None \
                else np.empty((len(rows), run.width))
            if kernels.compiled(done / m):
                job = job or relieff_job(setup)
                _in_threads(pool, n_threads, rows, upd, *job,
                            block=job.blocks.size)
            else:
                vectorised.relieff_rows(kernels.dense, setup.hood, rows,
                                        setup.regression, upd)
            total = _accumulate(upd, total, done, run)
    return total


def _feedback(setup, n_threads, run):
    """dReliefF / pdReliefF's visits in order, in batches
    (``feedback.feedback_batch``, or the vectorised path while the kernels
    compile); returns the sums of the updates."""
    prep = setup.prep
    n, a, m = prep.group.shape[0], prep.n_used, run.order.shape[0]
    kernels = _Kernels(setup, "feedback", run)
    state = None
    most = max(4 * n_threads, BATCH_BYTES // (8 * run.width))
    first = max(1, min(most, FIRST_BATCH_TERMS // (n * max(a, 1))))
    total = np.zeros(run.width)
    for done, rows in run.batches(first, most):
        trace = np.empty((len(rows) // run.trace_every + 1
                          if run.trace_every else 0, a))
        if kernels.compiled(done / m):
            if state is None:
                state = plan.feedback(prep, setup.variant, setup.T,
                                      setup.regression, setup.speedups,
                                      n_threads, setup.hood.rule)
                data = prep.data(setup.regression)
            settings, screening, tracking, carry = state
            written, carry = feedback_batch(
                rows, done, data, setup.hood, settings, screening, tracking,
                carry, setup.speedups, total, run.trace_every or 0, trace)
            state = settings, screening, tracking, carry
        else:
            written = vectorised.feedback_rows(
                kernels.dense, setup.hood, rows, done, setup.variant,
                setup.T, setup.regression, total, run.trace_every, trace)
        run.points.extend(trace[:written])
        run.steps.extend(run.trace_steps(done, len(rows)))
    return total


class _Kernels:
    """Which kernels a run's next batch uses: the compiled ones when they
    are ready; while they compile in the background (``warmup``), the
    vectorised path on the data it covers (dense data, small sparse data
    densified), else a wait for them, with progress and status."""

    def __init__(self, setup, loop, run):
        self.run = run
        self.forced = run.kernels or os.environ.get(KERNELS_VARIABLE) or None
        if self.forced not in (None, "auto", "compiled", "vectorised"):
            raise ValueError(f"kernels must be 'compiled', 'vectorised' or "
                             f"None (automatic); got {self.forced!r}.")
        if self.forced == "auto":
            self.forced = None
        prep = setup.prep
        copy = "float32"
        if loop == "relieff" and (prep.n_used > plan.SCREEN_MAX_FEATURES
                                  or setup.hood.rule != RULE_K):
            copy = "float64"
        elif loop == "feedback" and prep.num.size * 4 >= \
                plan.QUANTISED_MIN_BYTES:
            copy = "uint16"
        self.set = (loop, "int32" if prep.nom.dtype == np.int32 else "int8",
                    copy)
        self.ready = self.forced == "compiled" or (self.forced is None and (
            self.set in _READY or warmup.is_compiled(self.set)))
        self.dense = None
        if not self.ready:
            self.dense = vectorised.dense_view(prep)
            if self.dense is None and self.forced == "vectorised":
                raise ValueError("The vectorised kernels do not cover large "
                                 "sparse data; use kernels='compiled'.")
            if self.forced is None:
                warmup.start(first=self.set)
                self._say("preparing fast kernels in the background "
                          "(first use only)")

    def compiled(self, fraction):
        """Whether the next batch runs on the compiled kernels (waiting for
        them when the vectorised path does not cover the data)."""
        if not self.ready and self.forced is None:
            self.ready = warmup.is_compiled(self.set)
            while not self.ready and self.dense is None:
                if not warmup.running():       # it failed: compile here
                    self._say("compiling fast kernels (first use only)")
                    break
                time.sleep(0.1)
                if self.run.progress is not None:
                    self.run.progress(fraction)
                self.ready = warmup.is_compiled(self.set)
        if self.ready or self.dense is None:
            _READY.add(self.set)
            return True
        return False

    def _say(self, text):
        if self.run.status is not None:
            self.run.status(text)


_READY = set()
# The environment variable that chooses the kernels when ``relieff`` is not
# told ("compiled", "vectorised"; "auto" or unset: automatic).
KERNELS_VARIABLE = "ORANGE3_RELIEF_KERNELS"


def _nothing_to_learn(prep, regression, k_nearest):
    """Warn about data with a defined but trivial result (True: all weights
    are 0) and about classes not bigger than k (None: a radius rule, no
    k)."""
    if not regression and np.count_nonzero(prep.class_counts) < 2:
        warnings.warn("The data has only one class value; all weights are 0.",
                      ReliefWarning, stacklevel=3)
        return True
    if regression and np.all(prep.target == 0):
        warnings.warn("The target is constant; all weights are 0.",
                      ReliefWarning, stacklevel=3)
        return True
    if not regression and k_nearest is not None:
        small = [c for c, count in enumerate(prep.class_counts)
                 if 0 < count <= k_nearest]
        if small:
            warnings.warn(
                f"k_nearest={k_nearest} is not smaller than class(es) "
                f"{small} (sizes {prep.class_counts[small].tolist()}); such a "
                "class contributes all its instances.", ReliefWarning,
                stacklevel=3)
    return False


_POOLS = {}
_POOLS_LOCK = threading.Lock()


@contextmanager
def _pool(n_threads, keep=True):
    """A pool of ``n_threads`` threads for ReliefF's chunks, kept for later
    calls (starting threads cost about 1 ms a call, a tenth of a fit on
    500 x 50); one per process, as a forked child does not get the threads.
    Not ``keep``: a pool of this call's own."""
    if not keep:
        with ThreadPoolExecutor(n_threads) as pool:
            yield pool
        return
    key = (os.getpid(), n_threads)
    with _POOLS_LOCK:
        if key not in _POOLS:
            _POOLS[key] = ThreadPoolExecutor(n_threads,
                                             thread_name_prefix="relieff")
        pool = _POOLS[key]
    yield pool


def _in_threads(pool, n_threads, rows, upd, *kernel_args, kernel=relief_rows,
                block=4):
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
    futures = [pool.submit(kernel, rows[lo:hi], *kernel_args,
                           upd[lo:hi]) for lo, hi in chunks]
    wait(futures)       # all of them, even if one failed
    for future in futures:
        future.result()


def _accumulate(upd, total, done, run):
    """Add the visits' updates to ``total`` in visiting order (so the result
    does not depend on threads or batches) and record trace points."""
    if not run.trace_every:
        for row in upd:         # (row by row: the kernels' order)
            total += row
        return total
    upd[0] += total
    running = np.cumsum(upd, axis=0, out=upd)
    a = (upd.shape[1] - 1) // 2 if run.regression else upd.shape[1]
    for t in run.trace_steps(done, len(upd)):
        run.steps.append(t)
        run.points.append(vectorised.estimate(running[t - done - 1], t,
                                              run.regression))
    return running[-1].copy()


def _to_features(values, prep):
    """Map kernel columns back to the caller's features (0 for constant
    features, NaN for all-missing ones)."""
    out = np.zeros((values.shape[0], prep.n_features))
    out[:, prep.used] = values
    out[:, prep.all_missing] = np.nan
    return out
