"""The Relief engine: ReliefF, Relief-E, RReliefF, dReliefF and pdReliefF as
options of one loop (``doc/semantics.md`` is the contract,
``doc/architecture.md`` the map of the code).

This module checks the options, prepares the data (``prepare.py``), plans
the layouts (``plan.py``), runs the visits in batches -- ReliefF's on several
threads (``visits.py``), the feedback variants' in order (``feedback.py``) --
with progress and cancel between batches, and turns the sums into weights.
"""
import os
import time
from typing import NamedTuple, Optional

import numpy as np

from . import pairsums, plan, vectorised, warmup
from .estimates import VARIANT_RELIEFF, VARIANT_PD
from .feedback import feedback_batch
from .messages import warn
from .neighbours import MODE_REGRESSION, RULE_K, Neighbourhood
from .options import VARIANTS, check_options, default_T, whole_number
from .prepare import Data, Prepared, prepare
from .result import ReliefResult
from .rules import RULES
from .runtime import (BATCH_BYTES, FIRST_BATCH_TERMS, Run, in_threads, pool,
                      threads)
from .speedups import ALL, Speedups
from .visits import Blocks, relief_rows

def relieff(X, y, nominal=None, *, regression=False, variant="relieff",
            n_iterations=None, k_nearest=10, random_state=0,
            misses="per_class", weight_by_distance=False, sigma=2.0, T=None,
            neighbours="k", progress=None, trace_every=None, n_jobs=None,
            speedups=None, status=None, kernels=None, compat=None,
            n_values=None, n_class_values=None, feature_names=None,
            class_names=None, statistics=False):
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
    class_names : sequence of str, optional
        The class values' names, for warnings (otherwise classes are named
        by code).

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
                  feature_names=feature_names, class_names=class_names,
                  statistics=statistics)
    return run_setup(setup, progress=progress, trace_every=trace_every,
                     n_jobs=n_jobs, status=status, kernels=kernels)


def run_setup(setup, *, progress=None, trace_every=None, n_jobs=None,
              status=None, kernels=None):
    """Run the visits of a ``Setup`` on this machine's threads and return
    the ``ReliefResult`` (the options as in ``relieff``)."""
    if progress is not None:
        progress(0.0)           # a cancel can act before the first batch
    run = Run(setup.order, trace_every, progress, setup.regression,
               setup.width + setup.n_sums)
    run.status, run.kernels = status, kernels
    if setup.hood is None:
        total = np.zeros(setup.width + setup.n_sums)
        m, a = setup.order.shape[0], setup.prep.n_used
        if trace_every:
            run.steps = list(range(trace_every, m + 1, trace_every))
            run.points = [np.zeros(a)] * len(run.steps)
    else:
        with threads(n_jobs) as n_threads:
            if setup.variant == VARIANT_RELIEFF:
                total = _relieff(setup, n_threads, run)
            else:
                total = _feedback(setup, n_threads, run)
    result = _result(setup.prep, run, total[:setup.width], setup.T)
    if setup.n_sums:
        result.pair_sums = pair_sums_by_feature(total[setup.width:], setup.prep)
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
          class_names=None, statistics=False):
    """Check the options of ``relieff`` (the same arguments) and plan the
    run: the ``Setup`` that ``relieff`` and the backends (``distributed``)
    run the visits of."""
    check_options(variant, k_nearest, misses, weight_by_distance, sigma, T,
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
            prep, regression,
            k_nearest if RULES[neighbours].uses_k else None, class_names)):
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
    if regression or variant != "relieff" or RULES[neighbours].far:
        raise ValueError("statistics=True gathers STIR's sums of ReliefF's "
                         "near hits and misses: classification, "
                         "variant='relieff', a rule without far instances.")
    if trace_every or prep.sparse:
        raise ValueError("statistics=True needs dense data and no trace.")


def pair_sums_by_feature(sums, prep):
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
    run = Run(setup.order, trace_every, None, setup.regression, setup.width)
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
    return whole_number(n_iterations, "n_iterations", maximum=n,
                        otherwise=f"or None for all (the data has {n} "
                                  f"instances)")


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
    with pool(n_threads, speedups.thread_pool) as executor:
        for done, rows in run.batches(first, most):
            upd = updates[:len(rows)] if updates is not None \
                else np.empty((len(rows), run.width))
            if kernels.compiled(done / m):
                job = job or relieff_job(setup)
                in_threads(executor, n_threads, rows, upd, *job,
                           kernel=relief_rows, block=job.blocks.size)
            else:
                vectorised.relief_rows(kernels.dense, setup.hood, rows,
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


def _nothing_to_learn(prep, regression, k_nearest, class_names=None):
    """Warn about data with a defined but trivial result (True: all weights
    are 0) and about classes not bigger than k (None: a radius rule, no
    k)."""
    if not regression and np.count_nonzero(prep.class_counts) < 2:
        warn("The data has only one class value; all weights are 0.",
             stacklevel=3)
        return True
    if regression and np.all(prep.target == 0):
        warn("The target is constant; all weights are 0.", stacklevel=3)
        return True
    if not regression and k_nearest is not None:
        small = [c for c, count in enumerate(prep.class_counts)
                 if 0 < count <= k_nearest]
        if small:
            warn(f"k_nearest={k_nearest} is not smaller than "
                 f"{describe_classes(small, prep.class_counts, class_names)}"
                 "; such a class contributes all its instances.",
                 stacklevel=3)
    return False


def describe_classes(codes, counts, class_names=None, most=5):
    """How a message names classes `codes`: by name where `class_names`
    gives one, with their sizes, the first `most` of them."""
    def name(c):
        if class_names is not None and c < len(class_names):
            return repr(str(class_names[c]))
        return f"code {c}"
    shown = [f"{name(c)} ({int(counts[c])} instances)" for c in codes[:most]]
    more = len(codes) - len(shown)
    text = ("class " if len(codes) == 1 else "classes ") + ", ".join(shown)
    return text + (f" and {more} more" if more > 0 else "")


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
