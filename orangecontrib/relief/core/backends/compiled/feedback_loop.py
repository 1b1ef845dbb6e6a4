"""dReliefF and pdReliefF: visits in order, each with distance weights from
the estimate so far (seed eq. progressively_weighted_distance).

A visit at step t: the distance weights w from W_{t-1} (``estimates.py``),
the weighted distances from R (float64 rows, or a screen of them), R's
neighbours (``neighbours.select``) and the update (``updates.py``) added to
the running sums.  Every visit depends on the one before, so the speed comes
from within a visit:

* dense data: a float32 (or uint16) screening copy whose columns are kept in
  the order of the running estimate, so the features of weight 0 are left
  out (``screens.order_columns``, ``screens.weighted_screens``); long rows
  are split over the threads;
* sparse data: running per-row sums (``sparse.track_row_sums``), in two
  parts of the features on two threads; dReliefF leaves each visit's update
  and the next weights to that parallel region.
"""
from typing import NamedTuple

import numpy as np
from numba import njit, prange

from ...contract.diffs import JIT
from ...contract.distances import distance_row, distance_row_parallel
from ...contract.estimates import (NO_FIXED, dot, estimate,
                                   row_sum_coefficients, step_weights,
                                   weights_of_range)
from ...contract.neighbours import Exact, Screen, new_buffers, select
from ...contract.prepare import SparseRows
from .screens import order_columns, screen_weights, weighted_screens
from ...contract.sparse import (distances, overlaps, row_sum, row_sums,
                                track_row_sums, tracked_row_sums, zero_below)
from ...contract.updates import move_sparse_update, update, update_sparse

# The sparse feedback variants' waiting threshold stays within these
# multiples of the mean distance weight.
LAZY_MIN, LAZY_MAX = 1e-6, 1.0


class Feedback(NamedTuple):
    """A feedback run's settings: ``variant`` (the code of a sequential
    entry of ``variants``), pdReliefF's ``T``, ``regression``
    (RReliefF sums), the number of parallel parts a distance row or a screen
    is split into, and the fixed distance weights that multiply each step's
    (``estimates.step_weights``; empty: none; dense data only)."""
    variant: int
    T: float
    regression: bool
    n_chunks: int
    fixed: np.ndarray = NO_FIXED


class Screening(NamedTuple):
    """dReliefF / pdReliefF's screening copy of dense data: the numeric data
    in float32 (``unit`` 0) or in uint16 steps of ``unit``, its columns in
    the order ``order`` (changed in place, ``screens.order_columns``).  An
    empty copy: no screen."""
    copy: np.ndarray
    unit: float
    order: np.ndarray


class Carry(NamedTuple):
    """What one batch hands to the next: the screening waste of
    ``screens.order_columns``, and the sparse waiting ratio (``lazy``:
    changes that would move a row sum by at most lazy times the mean
    distance weight per unit of diff wait; 0: none)."""
    waste: float
    lazy: float


class Work(NamedTuple):
    """A batch's work arrays (``_work``)."""
    dist: np.ndarray        # a visit's (screening) distances
    current: np.ndarray     # scratch estimate
    w: np.ndarray           # this visit's distance weights
    w32: np.ndarray         # the screen's float32 weights
    upd: np.ndarray         # one visit's update
    scratch: np.ndarray     # sparse: one zero per feature
    row_base: np.ndarray    # sparse: B_j
    overlap: np.ndarray     # sparse: R's overlaps
    overlaps: np.ndarray    # ... per part of the features
    pending: np.ndarray     # ... the parts' largest waiting change
    walked: np.ndarray      # ... and stored entries walked
    slack: np.ndarray       # ... per row: how far B_j may be off


@njit(**JIT)
def _work(data, tracking, total):
    n = data.group.shape[0]
    a = data.rows.nominal.shape[0] if data.sparse \
        else data.num.shape[1] + data.nom.shape[1]
    n_parts = tracking.sums.shape[0]
    spread = n if data.sparse else 0
    return Work(
        np.empty(n), np.zeros(a), np.ones(a), np.ones(a, np.float32),
        np.zeros(total.shape[0]), np.zeros(a if data.sparse else 0),
        np.empty(n), np.empty(spread), np.empty((n_parts, spread)),
        np.zeros(n_parts), np.zeros(n_parts, np.int64), np.empty(spread))


# ---------------------------------------------------------------------------
# Sparse data: the running row sums

@njit(**JIT)
def _track_part(c, indptr, indices, values, nominal, col_ptr, col_rows,
                col_values, target, w, total, variant, T, regression, coefs,
                theta, split, sums, applied, pending, walked, overlaps_,
                scratch, upd, r, n_prev, r_prev, chosen, coef, t, prefetch):
    """Part c of ``_track_in_parts`` (its arrays one by one: numba 0.68
    cannot pass a named tuple into a parallel loop).  Returns the number of
    positive weights it computed."""
    rows = SparseRows(indptr, indices, values, nominal, col_ptr, col_rows,
                      col_values)
    f0, f1 = split[c], split[c + 1]
    count = 0
    if n_prev >= 0:
        update_sparse(r_prev, chosen, coef, n_prev, rows, target, False,
                      scratch, upd, f0, f1)
        move_sparse_update(r_prev, chosen, n_prev, rows, False, upd, total,
                           f0, f1)
        count = weights_of_range(total, t, variant, T, w, f0, f1,
                                 target.shape[0])
    overlaps(r, rows, w, True, overlaps_[c], f0, f1, prefetch)
    pending[c], walked[c] = track_row_sums(
        rows, w, total, regression, coefs, theta, applied, sums[c], f0, f1,
        prefetch)
    return count


@njit(parallel=True, **JIT)
def _track_in_parts(data, w, total, run, coefs, theta, tracking, work, r,
                    previous, prefetch):
    """``sparse.track_row_sums`` on the features [split[c], split[c + 1])
    into ``tracking.sums[c]`` for each part c, the parts on separate
    threads; ``work.pending[c]`` and ``work.walked[c]`` get the part's bound
    and entries walked, and ``work.overlaps[c]`` R's overlaps over its
    features (one thread alone took a seventh of dReliefF's time on a text
    corpus).  The parts are fixed by the data (``sparse.feature_parts``),
    so the rounding, and so the result, does not depend on the number of
    threads.

    ``previous = (n_chosen, r, chosen, coef, t)`` with n_chosen >= 0
    (classification): first the update of that earlier visit and the
    distance weights ``w`` of step t, each part on its features, so that
    these serial steps run on all threads too.  Returns the number of
    positive weights computed so."""
    indptr, indices, values, nominal, col_ptr, col_rows, col_values = \
        data.rows
    # (the previous visit's update is classification's, which reads no
    # target: an n-array of one type whatever the target, as a named tuple
    # of several targets cannot enter the parallel loop)
    target = data.group
    variant, T, regression = run.variant, run.T, run.regression
    split, sums, applied = tracking.split, tracking.sums, tracking.applied
    pending, walked, overlaps_ = work.pending, work.walked, work.overlaps
    scratch, upd = work.scratch, work.upd
    n_parts = sums.shape[0]
    n_prev, r_prev, chosen, coef, t = previous
    # (a local array, returned: numba 0.68's parallel loop dropped the
    # counts stored into an array taken from a tuple)
    counts = np.empty(n_parts, np.int64)
    for c in prange(n_parts):
        counts[c] = _track_part(
            c, indptr, indices, values, nominal, col_ptr, col_rows,
            col_values, target, w, total, variant, T, regression, coefs,
            theta, split, sums, applied, pending, walked, overlaps_, scratch,
            upd, r, n_prev, r_prev, chosen, coef, t, prefetch)
    n_positive = 0
    for c in range(n_parts):
        n_positive += counts[c]
    return n_positive


# ---------------------------------------------------------------------------
# The steps of a visit

@njit(**JIT)
def _sparse_distances(r, t, data, run, total, tracking, work, lazy, previous,
                      deferred, positive, speedups):
    """The weighted distances from R to every row of sparse data into
    ``work.dist``, from the running row sums (``work.w`` holds the
    distance weights, or they are computed here when the ``previous``
    visit's update, ``(n_chosen, r, chosen, coef)``, is ``deferred`` to
    this region).  Returns (positive, screen, exact): with changes waiting,
    the distances are upper bounds within ``screen.slack``."""
    rows, w = data.rows, work.w
    dist, row_base, overlap = work.dist, work.row_base, work.overlap
    coefs = (0.0, 0.0, 0.0)
    track = speedups.running_row_sums and (deferred or positive)
    if track:
        coefs = row_sum_coefficients(total, t, run.variant, run.T,
                                     run.regression)
        theta = 0.0
        if tracking.sum_col > 0 and lazy > 0:
            theta = dot(w, tracking.col_base) * (lazy / tracking.sum_col)
        n_positive = _track_in_parts(
            data, w, total, run, coefs, theta, tracking, work, r,
            (previous[0] if deferred else -1, previous[1], previous[2],
             previous[3], t), speedups.prefetch)
        if deferred:
            positive = n_positive > 0
            if not positive:
                w[:] = 1.0
    eps = 0.0
    if track and positive:
        tracked_row_sums(tracking.sums, coefs, row_base)
        overlap[:] = work.overlaps[0]
        for c in range(1, work.overlaps.shape[0]):
            overlap += work.overlaps[c]
        eps = work.pending.max()
    else:
        if positive:
            row_sums(rows, w, True, row_base)
        else:
            row_base[:] = tracking.full_base
        overlaps(r, rows, w, True, overlap, 0, w.shape[0], speedups.prefetch)
    base_r = row_sum(r, rows, w, True)
    zero = zero_below(base_r, row_base.max(), eps, tracking.max_full)
    distances(base_r, row_base, overlap, zero, dist)
    exact = Exact(data.num, data.nom, w, True, True, rows, base_r, overlap,
                  zero)
    if eps == 0:
        return positive, Screen(False, 0.0, 0.0, work.slack[:0]), exact
    # B_j is within eps * full_base[j] of its true value; the candidates'
    # distances (B_R + B_j - overlap_j with B_j summed afresh) and these
    # both round, and snap up to `zero`, so they are within 2 zero of each
    # other too
    for j in range(dist.shape[0]):
        error = eps * tracking.full_base[j] + 2 * zero
        dist[j] += error
        work.slack[j] = 2 * error
    return positive, Screen(True, 0.0, 0.0, work.slack), exact


@njit(inline="always", **JIT)
def _screen_distances(visit, data, run, screening, work, total, waste,
                      speedups):
    """The weighted screening distances from R = visit[0] on dense data
    (weights ``work.w``) into ``work.dist``, the copy's columns reordered first when the zero
    weights inside the span have cost enough (``screens.order_columns``).
    Returns the screen and the new waste."""
    w = work.w
    if speedups.zero_weight_skip:
        waste = order_columns(screening.copy, screening.order, w,
                              w if run.regression else total, 1, waste,
                              run.n_chunks)
    c_err, gamma, weights = screen_weights(
        data.num, screening.copy, w, screening.unit, work.w32,
        screening.order)
    out = work.dist.reshape((1, -1))
    weighted_screens(visit, screening.copy, data.nom, weights, out,
                     run.n_chunks)
    return Screen(True, c_err, gamma, work.slack[:0]), waste


@njit(inline="always", **JIT)
def _adapt_lazy(lazy, selected, n_candidates, rows, walked):
    """The sparse waiting ratio after a visit: balance the entries the
    tracking walks against those the candidates' fresh sums read (a walked
    entry costs more, so this errs on the side of walking); deterministic:
    it depends on the data only."""
    read = 0
    for q in range(n_candidates):
        j = selected[q]
        read += rows.indptr[j + 1] - rows.indptr[j]
    if read > walked:
        return max(lazy / 1.5, LAZY_MIN)
    return min(lazy * 1.5, LAZY_MAX)


@njit(inline="always", **JIT)
def _add_update(r, chosen, n_chosen, coef, constant, data, regression,
                work, total, runs):
    """total += the update of visiting R (and ``constant`` for every
    feature: MultiSURF*'s far neighbours, classification); ``runs`` as in
    ``updates.update``."""
    upd = work.upd
    if not data.sparse:
        upd[:] = 0.0
    if constant != 0.0:
        for i in range(total.shape[0]):
            total[i] += constant
    update(r, chosen, coef, n_chosen, data, regression, work.scratch, upd,
           runs)
    if data.sparse:
        move_sparse_update(r, chosen, n_chosen, data.rows, regression, upd,
                           total, 0, work.scratch.shape[0])
    else:
        for i in range(total.shape[0]):
            total[i] += upd[i]


@njit(**JIT)
def feedback_batch(rows, t_done, data, hood, run, screening, tracking, carry,
                   speedups, total, trace_every, trace):
    """Visit ``rows`` in order with the feedback variant ``run.variant``;
    ``total`` (the running sums) is updated in place, and the estimate after
    every ``trace_every``-th visit goes to the next row of ``trace``.
    Returns the number of trace rows written and the ``Carry`` for the next
    batch.  See the module docstring for the screens."""
    n = data.group.shape[0]
    work = _work(data, tracking, total)
    buffers = new_buffers(n, hood)
    chosen, coef = buffers.chosen, buffers.coef
    screened = not data.sparse and screening.copy.shape[0] > 0
    screen = Screen(False, 0.0, 0.0, work.slack[:0])
    exact = Exact(data.num, data.nom, work.w, True, False, data.rows, 0.0,
                  work.overlap, 0.0)
    waste, lazy = carry.waste, carry.lazy
    # dReliefF on sparse data (every change applied at once) leaves each
    # visit's update and the next weights to the next parallel region
    fused = not run.regression and data.sparse and lazy == 0 \
        and speedups.fused_sparse and speedups.running_row_sums \
        and hood.uses_k
    deferred, positive = False, False
    previous = (0, -1, chosen, coef)
    written = 0
    for b in range(rows.shape[0]):
        t = t_done + b + 1
        r = rows[b]
        # 1. the distance weights from the estimate W_{t-1}
        if not deferred:
            positive = step_weights(total, t, run.variant, run.T,
                                    run.regression, work.current, work.w, n,
                                    run.fixed)
        # 2. the weighted distances from R (or a screen of them)
        if data.sparse:
            positive, screen, exact = _sparse_distances(
                r, t, data, run, total, tracking, work, lazy, previous,
                deferred, positive, speedups)
        elif screened:
            screen, waste = _screen_distances(rows[b:b + 1], data, run,
                                              screening, work, total, waste,
                                              speedups)
        elif run.n_chunks > 1:
            distance_row_parallel(r, data, work.w, True, work.dist,
                                  run.n_chunks)
        else:
            distance_row(r, data, work.w, True, work.dist, 0, n)
        deferred = False
        # 3. R's neighbours
        n_chosen, n_candidates, constant = select(
            r, work.dist, data.group, hood, buffers, screen, exact, n,
            speedups)
        if data.sparse and positive and lazy > 0:
            lazy = _adapt_lazy(lazy, buffers.selected,
                               n_candidates if screen.on else 0, data.rows,
                               work.walked.sum())
        # 4. the update, or leave it to the next visit's parallel region
        traced = trace_every > 0 and t % trace_every == 0
        if fused and b + 1 < rows.shape[0] and not traced:
            deferred, previous = True, (n_chosen, r, chosen, coef)
            continue
        _add_update(r, chosen, n_chosen, coef, constant, data,
                    run.regression, work, total, buffers.ends)
        if traced:
            estimate(total, t, run.regression, trace[written])
            written += 1
    return written, Carry(waste, lazy)
