"""The Relief engine: ReliefF, Relief-E, RReliefF, dReliefF and pdReliefF as
options of one loop (``doc/semantics.md`` is the contract)."""
import math
import os
import threading
import time
import warnings
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Optional

import numba
import numpy as np

from . import kernels
from .nominal import pack_planes
from .prepare import ReliefWarning, prepare

VARIANTS = {"relieff": kernels.VARIANT_RELIEFF,
            "drelieff": kernels.VARIANT_D,
            "pdrelieff": kernels.VARIANT_PD}
MISSES = ("per_class", "any")

# Each call into the kernels is sized to take about BATCH_SECONDS (measured
# as the run goes), so progress is reported and a cancel takes effect several
# times a second on any machine; the first call does FIRST_BATCH_TERMS terms.
BATCH_SECONDS = 0.1
FIRST_BATCH_TERMS = 20_000_000
# ...and holds at most this many bytes of per-instance updates (wide data).
BATCH_BYTES = 16_000_000
# Float32 screening distances (see _screening_copy) up to this many
# features; the screen's error bound, and so its candidate list, grows with it.
SCREEN_MAX_FEATURES = 20_000
# The feedback variants screen with a uint16 copy (half the bytes of float32)
# when the float32 copy would be at least this big: measured per visit on 2
# cores, 2,000 x 5,000 went from 3.5 to 2.6 ms, 10,000 x 500 from 1.15 to
# 1.06 ms, while 5,000 x 200 (4 MB, in cache) was slower, 0.18 to 0.22 ms.
QUANTISED_MIN_BYTES = 16_000_000
# On sparse data the feedback variants keep running per-row sums in this many
# parts of the features, updated in parallel (a fixed number, so the result
# does not depend on the number of threads).
SPARSE_PARTS = 2
# ...and pdReliefF lets a feature's change wait while it would move a row's
# sum by at most a fraction of the mean distance weight per unit of diff,
# starting from this one (it adapts as the run goes); the neighbours are then
# screened with the resulting bound, so they are exact either way.  On the
# benchmark's 5,000 x 20,000 this took pdReliefF from 5.3-6.4 s to 2.7-3.0 s
# but made dReliefF slower (3.7 -> 4.5-5.6 s): its weights are the running
# estimate itself, and the many near-zero ones change by as much as they are
# from step to step, so little can wait without widening the screen a lot.
SPARSE_LAZY_RTOL = 1e-2


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
    """
    weights: np.ndarray
    trace: Optional[np.ndarray]
    trace_steps: Optional[np.ndarray]
    n_iterations: int
    T: Optional[float]
    regression: bool
    n_dropped: int


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
                   trace_every, n_jobs=None):
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
    if weight_by_distance and not sigma > 0:
        raise ValueError(f"sigma must be positive; got {sigma!r}.")
    if T is not None and not T > 0:
        raise ValueError(f"T must be positive (or None for 2/ln m); got {T!r}.")
    if trace_every is not None and (not isinstance(
            trace_every, (int, np.integer)) or trace_every < 1):
        raise ValueError("trace_every must be a whole number of at least 1 "
                         "(or None for no trace).")


def relieff(X, y, nominal=None, *, regression=False, variant="relieff",
            n_iterations=None, k_nearest=10, random_state=0,
            misses="per_class", weight_by_distance=False, sigma=2.0, T=None,
            progress=None, trace_every=None, n_jobs=None):
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
    progress : callable(fraction), optional
        Called with the fraction done; may raise to cancel the run.
    trace_every : int, optional
        Record the estimate after every ``trace_every``-th visit.
    n_jobs : int, optional
        Threads to use (None or -1: all cores).

    Returns
    -------
    ReliefResult

    References
    ----------
    Kononenko, I. (1994). Estimating attributes: analysis and extensions of
    RELIEF.  Robnik-Šikonja, M., Kononenko, I. (2003). Theoretical and
    empirical analysis of ReliefF and RReliefF.  Prat Masramon, G., Belanche
    Muñoz, L. A. (2005). Toward better feature weighting algorithms: a focus
    on Relief.
    """
    _check_options(variant, k_nearest, misses, weight_by_distance, sigma, T,
                   trace_every, n_jobs)
    prep = prepare(X, y, nominal, regression)
    if progress is not None:
        progress(0.0)           # a cancel can act before the first batch
    n = prep.group.shape[0]
    if n_iterations is None:
        m = n
    elif (isinstance(n_iterations, bool)
          or not isinstance(n_iterations, (int, np.integer))
          or not 1 <= n_iterations <= n):
        raise ValueError(f"n_iterations must be a whole number between 1 and "
                         f"the number of instances ({n}), or None for all; "
                         f"got {n_iterations!r}.")
    else:
        m = int(n_iterations)
    variant_code = VARIANTS[variant]
    T_used = (T if T is not None else default_T(m)) \
        if variant_code == kernels.VARIANT_PD else None
    order = np.random.default_rng(random_state).permutation(n)[:m]

    a = prep.used.shape[0]
    width = 1 + 2 * a if regression else a

    degenerate = a == 0 or _nothing_to_learn(prep, regression, k_nearest)

    steps, points = [], []
    if degenerate:
        total = np.zeros(width)
        if trace_every:
            steps = list(range(trace_every, m + 1, trace_every))
            points = [np.zeros(a)] * len(steps)
    else:
        if misses == "any" and not regression:
            mode, n_groups = kernels.MODE_ANY, 2
        elif regression:
            mode, n_groups = kernels.MODE_REGRESSION, 1
        else:
            mode, n_groups = kernels.MODE_PER_CLASS, prep.n_classes
        rank_weights = (np.exp(-(np.arange(k_nearest) / sigma) ** 2)
                        if weight_by_distance else np.ones(k_nearest))
        counts = prep.class_counts.astype(float)
        # P(C) / (1 - P(class(R))) from counts, so two classes give exactly 1
        class_factor = counts[None, :] / np.maximum(n - counts[:, None], 1)
        target = prep.target if regression else np.zeros(n)
        data = (prep.num, prep.nom, prep.has_missing, prep.group,
                prep.missing.as_tuple())
        rule = (mode, k_nearest, rank_weights, class_factor)
        by_feature = (variant_code == kernels.VARIANT_RELIEFF
                      and prep.nom.shape[1] == 0
                      and prep.num.shape[1] <= kernels.BY_FEATURE_MAX)
        # the feedback variants read the whole copy at every visit: on data
        # bigger than cache, halve it again
        quantised = (variant_code != kernels.VARIANT_RELIEFF
                     and prep.num.size * 4 >= QUANTISED_MIN_BYTES)
        num32 = (_quantised_copy(prep) if quantised
                 else _screening_copy(prep, by_feature))
        unit = 1.0 / 65535 if quantised and num32.shape[0] > 0 else 0.0
        by_feature = by_feature and num32.shape[0] > 0
        # nominal bit-planes: ReliefF's blocks count mismatches by popcount,
        # the feedback variants' screens look up their weights by the byte
        planes = (pack_planes(prep.nom)
                  if not prep.sparse and not prep.has_missing
                  and (variant_code == kernels.VARIANT_RELIEFF
                       or num32.shape[0] > 0)
                  else (np.zeros((0, 0), np.uint64), 1))
        row_terms = n * max(a, 1)
        max_batch = max(4 * _n_threads(n_jobs), BATCH_BYTES // (8 * width))
        batch = max(1, min(max_batch, FIRST_BATCH_TERMS // row_terms))
        block = 4 * max(1, min(kernels.BLOCK_ROWS,
                               kernels.BLOCK_BYTES // (8 * n)) // 4)
        copy, row_sums = (_blocks_data(prep, num32, by_feature)
                          if variant_code == kernels.VARIANT_RELIEFF
                          else (num32, np.zeros(0)))
        row_bytes = (copy.itemsize * prep.num.shape[1]
                     + 8 * planes[0].shape[1])
        tile = (kernels.BY_FEATURE_TILE if by_feature
                else max(16, kernels.TILE_BYTES // max(row_bytes, 1)))
        total = np.zeros(width)
        # ReliefF's per-visit updates, reused by every batch: a fresh array
        # per batch costs a page fault per 4 KB (wide or sparse data: up to
        # half the run on a virtual machine)
        updates = (np.empty((min(max_batch, m), width))
                   if variant_code == kernels.VARIANT_RELIEFF else None)
        tracked = _running_row_sums(
            prep, SPARSE_LAZY_RTOL if variant_code == kernels.VARIANT_PD
            else 0.0, num32.nbytes >= kernels.GROUP_MIN_BYTES)
        with _threads(n_jobs) as n_threads:
            pool = _pool(n_threads)
            done = 0
            while done < m:
                rows = order[done:done + batch]
                started = time.perf_counter()
                if variant_code == kernels.VARIANT_RELIEFF:
                    upd = _relieff_in_threads(
                        pool, n_threads, rows, updates, data, copy, row_sums,
                        planes, by_feature, prep.sp,
                        prep.sparse, rule, n_groups, target, regression,
                        block, tile)
                    total = _accumulate(upd, total, done, trace_every, steps,
                                        points, regression)
                else:
                    chunks = n_threads if row_terms >= \
                        kernels.PARALLEL_ROW_TERMS else 1
                    trace = np.empty((len(rows) // trace_every + 1
                                      if trace_every else 0, a))
                    written = kernels.feedback_batch(
                        rows, done, variant_code, float(T_used or 0.0), data,
                        num32, unit, planes, prep.sp, prep.sparse, tracked,
                        rule, n_groups, target, regression, chunks, total,
                        trace_every or 0, trace)
                    points.extend(trace[:written])
                    steps.extend(range((done // trace_every + 1) * trace_every,
                                       done + len(rows) + 1, trace_every)
                                 if trace_every else [])
                done += len(rows)
                if progress is not None:
                    progress(done / m)
                elapsed = time.perf_counter() - started
                batch = max(1, min(4 * batch, max_batch, int(
                    len(rows) * BATCH_SECONDS / max(elapsed, 1e-6))))

    final = np.zeros(a)
    if not degenerate:
        kernels.estimate(total, m, regression, final)
    if trace_every and (not steps or steps[-1] != m):
        steps.append(m)
        points.append(final)
    return ReliefResult(
        weights=_to_features(final[None, :], prep)[0],
        trace=_to_features(np.array(points).reshape(-1, a), prep)
        if trace_every else None,
        trace_steps=np.array(steps, dtype=np.int64) if trace_every else None,
        n_iterations=m, T=T_used, regression=bool(regression),
        n_dropped=prep.n_dropped)


def _nothing_to_learn(prep, regression, k_nearest):
    """Warn about data with a defined but trivial result (True: all weights
    are 0) and about classes not bigger than k."""
    if not regression and np.count_nonzero(prep.class_counts) < 2:
        warnings.warn("The data has only one class value; all weights are 0.",
                      ReliefWarning, stacklevel=3)
        return True
    if regression and np.all(prep.target == 0):
        warnings.warn("The target is constant; all weights are 0.",
                      ReliefWarning, stacklevel=3)
        return True
    if not regression:
        small = [c for c, count in enumerate(prep.class_counts)
                 if 0 < count <= k_nearest]
        if small:
            warnings.warn(
                f"k_nearest={k_nearest} is not smaller than class(es) "
                f"{small} (sizes {prep.class_counts[small].tolist()}); such a "
                "class contributes all its instances.", ReliefWarning,
                stacklevel=3)
    return False


def _can_screen(prep):
    """Screening applies to dense data without missing values and with not
    too many features (the error bound grows with their number)."""
    return not (prep.sparse or prep.has_missing
                or prep.used.shape[0] > SCREEN_MAX_FEATURES)


def _screening_copy(prep, by_feature=False):
    """A float32 copy of the numeric data for screening distances (n x 0 for
    nominal data, whose weighted distances then sum in float32), or an empty
    array where it does not apply (``_can_screen``).

    Float32 halves the bytes read per distance term and doubles the SIMD
    width; the neighbours are still chosen by float64 distances
    (``kernels._neighbours``), so the weights are unchanged.  With
    ``by_feature`` the copy is stored feature by feature (a x n).
    """
    if not _can_screen(prep):
        return np.zeros((0, 0), np.float32)
    if by_feature:
        return np.ascontiguousarray(prep.num.T, dtype=np.float32)
    return prep.num.astype(np.float32)


def _blocks_data(prep, num32, by_feature):
    """What ReliefF's blocks of visits read (``kernels.relief_rows``): the
    screening copy, or on dense data without missing values but with too
    many features for it, the float64 data itself; with the float64 sums of
    its rows, which the min form of the distances needs
    (``kernels._distances_tiled``)."""
    if by_feature or prep.sparse or prep.has_missing:
        return num32, np.zeros(0)
    copy = num32 if num32.shape[0] > 0 else prep.num
    return copy, copy.sum(axis=1, dtype=np.float64)


def _quantised_copy(prep):
    """The numeric data rounded to uint16 steps of 1/65535: the feedback
    variants' screening copy when the float32 one would not fit in cache
    (``kernels.screen_bound`` accounts for the rounding); empty where no
    screening applies.  Converted in slices, so no full-size temporary."""
    if prep.num.size == 0 or not _can_screen(prep):
        return np.zeros((0, 0), np.uint16)
    out = np.empty(prep.num.shape, np.uint16)
    step = max(1, 1_000_000 // max(1, prep.num.shape[1]))
    for start in range(0, prep.num.shape[0], step):
        out[start:start + step] = np.rint(prep.num[start:start + step]
                                          * 65535)
    return out


def _running_row_sums(prep, lazy_rtol, grouped=False):
    """The sparse feedback variants' per-row sums, all zero before the first
    visit, in SPARSE_PARTS parts of the features, and the starting waiting
    threshold ``lazy_rtol`` (0: none) (``kernels.feedback_batch``); for
    dense data, empty sums and the starting state of the grouped visits
    (groups of at most one visit unless ``grouped``)."""
    if not prep.sparse:
        # (size, patience, calm groups, largest size, screening waste)
        largest = kernels.GROUP_MAX if grouped else 1
        return (np.zeros((0, 3, 0)), np.zeros((3, 0)), np.zeros(0),
                np.zeros(2, np.int64), np.zeros(0),
                np.array([1.0, 1.0, 0.0, largest, 0.0]),
                np.arange(prep.num.shape[1]))
    n, a = prep.group.shape[0], prep.sp[3].shape[0]
    return (np.zeros((SPARSE_PARTS, 3, n)), np.zeros((3, a)), np.zeros(n),
            kernels.feature_parts(prep.sp[4], SPARSE_PARTS), np.zeros(a),
            np.array([lazy_rtol]), np.zeros(0, np.int64))


_POOLS = {}
_POOLS_LOCK = threading.Lock()


def _pool(n_threads):
    """A pool of ``n_threads`` threads for ReliefF's chunks, kept for later
    calls (starting threads cost about 1 ms a call, a tenth of a fit on
    500 x 50); one per process, as a forked child does not get the threads."""
    key = (os.getpid(), n_threads)
    with _POOLS_LOCK:
        if key not in _POOLS:
            _POOLS[key] = ThreadPoolExecutor(n_threads,
                                             thread_name_prefix="relieff")
        return _POOLS[key]


def _relieff_in_threads(pool, n_threads, rows, updates, *kernel_args):
    """ReliefF's updates for ``rows`` (written to the first rows of
    ``updates``): one chunk of whole blocks of four rows per thread, each
    chunk visited by ``kernels.relief_rows`` (in this thread when there is
    one chunk)."""
    upd = updates[:len(rows)]
    bounds = np.linspace(0, len(rows) / 4, n_threads + 1)
    bounds = np.minimum(4 * np.round(bounds).astype(int), len(rows))
    bounds[-1] = len(rows)
    chunks = [(lo, hi) for lo, hi in zip(bounds[:-1], bounds[1:]) if hi > lo]
    if len(chunks) == 1:
        kernels.relief_rows(rows, *kernel_args, upd)
        return upd
    futures = [pool.submit(kernels.relief_rows, rows[lo:hi], *kernel_args,
                           upd[lo:hi]) for lo, hi in chunks]
    wait(futures)       # all of them, even if one failed
    for future in futures:
        future.result()
    return upd


def _accumulate(upd, total, done, trace_every, steps, points, regression):
    """Add the visits' updates to ``total`` in visiting order (so the result
    does not depend on threads or batches) and record trace points."""
    if not trace_every:
        kernels.add_rows(upd, total)
        return total
    upd[0] += total
    running = np.cumsum(upd, axis=0, out=upd)
    a = (upd.shape[1] - 1) // 2 if regression else upd.shape[1]
    for t in range((done // trace_every + 1) * trace_every,
                   done + len(upd) + 1, trace_every):
        point = np.empty(a)
        kernels.estimate(running[t - done - 1], t, regression, point)
        steps.append(t)
        points.append(point)
    return running[-1].copy()


def _to_features(values, prep):
    """Map kernel columns back to the caller's features (0 for constant
    features, NaN for all-missing ones)."""
    out = np.zeros((values.shape[0], prep.n_features))
    out[:, prep.used] = values
    out[:, prep.all_missing] = np.nan
    return out
