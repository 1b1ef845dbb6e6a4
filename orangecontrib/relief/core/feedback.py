"""dReliefF and pdReliefF: visits in order, each with distance weights from
the estimate so far (seed eq. progressively_weighted_distance).

A visit at step t: the distance weights w from W_{t-1} (``estimates.py``),
the weighted distances from R (float64 rows, or a screen), R's neighbours
(``neighbours.select``) and the update (``updates.py``) added to the running
sums.  Every visit depends on the one before, so the speed comes from within
a visit:

* dense data: a float32 (or uint16) screening copy and weighted screens
  (``screens.weighted_screens``); consecutive visits share one pass over the
  copy (``Group``): a later visit's weights w differ from the group's first
  w0 by at most drift = sum_A |w_A - w0_A| in any distance (every diff is in
  [0, 1]), which widens its screen;
* sparse data: running per-row sums (``sparse.track_row_sums``);
* all-nominal and sparse data: the serial steps between two parallel regions
  (the update, the next weights) moved into the next region.
"""
from typing import NamedTuple

import numpy as np
from numba import njit, prange

from .diffs import JIT
from .distances import distance_row, distance_row_parallel
from .estimates import (dot, estimate, feedback_weights, row_sum_coefficients,
                        weights_of_range)
from .neighbours import Exact, Screen, new_buffers, select
from .prepare import SparseRows
from .nominal import table_sums, table_unit
from .screens import (TILE_BYTES, order_columns, screen_weights,
                      weighted_screens)
from .sparse import (distances, overlaps, row_sum, row_sums, track_row_sums,
                     tracked_row_sums, zero_below)
from .updates import move_sparse_update, update, update_sparse

# Visits that share one screening pass: at most GROUP_MAX, and only when the
# screening copy is at least GROUP_MIN_BYTES: a pass over data in cache is
# not bound by memory, and groups only cost (measured on 2 cores: pdReliefF
# on 10,000 x 500, a 10 MB copy, 17.2 -> 11.2 s; dReliefF on 5,000 x 200,
# 4 MB, 0.72 -> 0.94 s).
GROUP_MAX = 16
GROUP_MIN_BYTES = 8_000_000

# The sparse feedback variants' waiting threshold stays within these
# multiples of the mean distance weight.
LAZY_MIN, LAZY_MAX = 1e-6, 1.0


class Feedback(NamedTuple):
    """A feedback run's settings: ``variant`` (estimates.VARIANT_D or
    VARIANT_PD), pdReliefF's ``T``, ``regression`` (RReliefF sums) and the
    number of parallel parts a distance row or a screen is split into."""
    variant: int
    T: float
    regression: bool
    n_chunks: int


class Screening(NamedTuple):
    """dReliefF / pdReliefF's screening copy of dense data: the numeric data
    in float32 (``unit`` 0) or in uint16 steps of ``unit``, its columns in
    the order ``order`` (changed in place, ``screens.order_columns``), and
    the nominal bit-planes for lookup tables.  An empty copy: no screen."""
    copy: np.ndarray
    unit: float
    planes: np.ndarray
    n_bits: int
    order: np.ndarray


class Carry(NamedTuple):
    """What one batch hands to the next: the grouped visits' controls -- the
    group size, the patience (groups in a row without an own pass before the
    size doubles), the calm groups so far, the largest size, the screening
    waste of ``screens.order_columns`` -- and the sparse waiting ratio
    (``lazy``: changes that would move a row sum by at most lazy times the
    mean distance weight per unit of diff wait; 0: none)."""
    size: float
    patience: float
    calm: float
    largest: float
    waste: float
    lazy: float


class Work(NamedTuple):
    """A batch's work arrays (``_work``)."""
    dists: np.ndarray       # screening distances of a group's visits
    current: np.ndarray     # scratch estimate
    w: np.ndarray           # this visit's distance weights
    w0: np.ndarray          # the group's first visit's
    w32: np.ndarray         # the screen's float32 weights
    tables: np.ndarray      # nominal lookup tables
    table_sums: np.ndarray  # their integer sums, per parallel part
    parts: np.ndarray       # per part: (positive weights, rounding error)
    upd: np.ndarray         # one visit's update
    scratch: np.ndarray     # sparse: one zero per feature
    row_base: np.ndarray    # sparse: B_j
    overlap: np.ndarray     # sparse: R's overlaps
    overlaps: np.ndarray    # ... per part of the features
    pending: np.ndarray     # ... the parts' largest waiting change
    walked: np.ndarray      # ... and stored entries walked
    slack: np.ndarray       # ... per row: how far B_j may be off


@njit(**JIT)
def _work(data, screening, tracking, run, total, largest):
    n = data.group.shape[0]
    a = data.rows.nominal.shape[0] if data.sparse \
        else data.num.shape[1] + data.nom.shape[1]
    planes = screening.planes
    grouped = not data.sparse and screening.copy.shape[0] > 0
    n_dists = int(largest) if grouped else 1
    n_parts = tracking.sums.shape[0]
    spread = n if data.sparse else 0
    return Work(
        np.empty((n_dists, n)), np.zeros(a), np.ones(a), np.ones(a),
        np.ones(a, np.float32),
        np.empty((planes.shape[1] // screening.n_bits * 8, 256), np.uint32),
        np.empty((run.n_chunks, n_dists, n if planes.shape[1] else 0),
                 np.uint64),
        np.zeros((run.n_chunks, 2)), np.zeros(total.shape[0]),
        np.zeros(a if data.sparse else 0), np.empty(n), np.empty(spread),
        np.empty((n_parts, spread)), np.zeros(n_parts),
        np.zeros(n_parts, np.int64), np.empty(spread))


# ---------------------------------------------------------------------------
# Fused parallel regions

@njit(parallel=True, **JIT)
def _update_and_screen_nominal(rows, nom, planes, n_bits, r, chosen, coef,
                               n_chosen, total, t, run, w, tables, sums,
                               parts, out):
    """All-nominal data, classification: the previous visit's update (of R
    = ``r`` by its ``n_chosen`` neighbours), the distance weights of step
    ``t`` and the screening distances from ``rows`` to every row, in one
    parallel region instead of three serial steps and one region.

    Part c takes the c-th range of the bit-planes' words and their
    features: it adds the update to ``total`` (per feature and neighbour in
    the order ``updates.update`` uses: the same sums), computes those
    features' w_A (``estimates.weights_of_range``), rounds them with its own
    unit (no part waits for the largest weight of another), fills their
    lookup tables and sums them for every row.  ``out[i]`` = the sum over
    the parts of unit_c times part c's integer sum.  ``parts[c] = (positive
    weights, rounding error)``.  Returns the screen's (c, gamma), or (-1, 0)
    when every w_A <= 0 (the caller then uses weights 1)."""
    n = planes.shape[0]
    a = w.shape[0]
    n_parts = sums.shape[0]
    n_words = planes.shape[1] // n_bits
    m = rows.shape[0]
    tile = max(16, TILE_BYTES // (8 * planes.shape[1]))
    values = sums.view(np.float64)
    variant, T = run.variant, run.T
    for c in prange(n_parts):
        k0, k1 = c * n_words // n_parts, (c + 1) * n_words // n_parts
        f0, f1 = min(64 * k0, a), min(64 * k1, a)
        if n_chosen > 0:
            upd = np.zeros(f1 - f0)
            cr = nom[r, f0:f1]
            for i in range(n_chosen):
                cj, s = nom[chosen[i], f0:f1], coef[i]
                for g in range(f1 - f0):
                    upd[g] += s if cr[g] != cj[g] else 0.0
            for g in range(f1 - f0):
                total[f0 + g] += upd[g]
        positive = weights_of_range(total, t, variant, T, w, f0, f1)
        unit, error = table_unit(w[f0:f1])
        parts[c, 0], parts[c, 1] = positive, error
        part = sums[c]
        table_sums(rows, planes, n_bits, w, unit, tables, part, k0, k1, tile)
        # unit times the integer sums, in place (exact below 2^53; from
        # int64, one instruction each, where uint64 takes a branch)
        own, exact = values[c], part.view(np.int64)
        for i in range(m):
            for j in range(n):
                own[i, j] = unit * np.float64(exact[i, j])
    n_positive, error = 0.0, 0.0
    for c in range(n_parts):
        n_positive += parts[c, 0]
        error += parts[c, 1]
    if n_positive == 0:
        return -1.0, 0.0
    for i in range(m):
        o = out[i]
        for j in range(n):
            o[j] = values[0, i, j]
        for c in range(1, n_parts):
            v = values[c, i]
            for j in range(n):
                o[j] += v[j]
    # each product and each addition rounds once, by at most 2^-53 D~
    return error, 1.1 * 2 * n_parts * 2.0 ** -53


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
        count = weights_of_range(total, t, variant, T, w, f0, f1)
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
    target = data.target
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
    ``work.dists[0]``, from the running row sums (``work.w`` holds the
    distance weights, or they are computed here when the ``previous``
    visit's update, ``(n_chosen, r, chosen, coef)``, is ``deferred`` to
    this region).  Returns (positive, screen, exact): with changes waiting,
    the distances are upper bounds within ``screen.slack``."""
    rows, w = data.rows, work.w
    dist, row_base, overlap = work.dists[0], work.row_base, work.overlap
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
def _screen(rows, w, data, run, screening, work, out):
    """Weighted screening distances with weights ``w`` from each of ``rows``
    to every row, into ``out``; returns their bound (c, gamma)."""
    c_err, gamma, weights = screen_weights(
        data.num, screening.copy, w, screening.unit, work.w32,
        screening.planes, screening.n_bits, work.tables, work.table_sums,
        screening.order)
    weighted_screens(rows, screening.copy, data.nom, weights, out,
                     run.n_chunks)
    return c_err, gamma


@njit(inline="always", **JIT)
def _screen_group(rows, t, data, run, screening, work, total, waste,
                  previous, deferred, speedups):
    """The screening distances of a group of consecutive visits ``rows``
    with the distance weights of the first, which are kept in ``work.w0``
    (when the ``previous`` visit's update is ``deferred``, the update, the
    weights and the screen are one parallel region).  Returns the screen's
    bound (c, gamma) and the screening waste (``screens.order_columns``)."""
    w, w0 = work.w, work.w0
    c_err, gamma = -1.0, 0.0
    if deferred:
        c_err, gamma = _update_and_screen_nominal(
            rows, data.nom, screening.planes, screening.n_bits, previous[1],
            previous[2], previous[3], previous[0], total, t, run, w,
            work.tables, work.table_sums, work.parts, work.dists)
        if c_err < 0:
            w[:] = 1.0
    w0[:] = w
    if c_err < 0:
        if speedups.zero_weight_skip:
            waste = order_columns(screening.copy, screening.order, w0,
                                  w0 if run.regression else total,
                                  rows.shape[0], waste, run.n_chunks)
        c_err, gamma = _screen(rows, w0, data, run, screening, work,
                               work.dists)
    return c_err, gamma, waste


class Group(NamedTuple):
    """The group of visits under way: visits [start, end) of the batch share
    one screening pass with the distance weights of the first, within
    (c_err, gamma); ``most``: the most candidates a visit let through."""
    start: int
    end: int
    most: int
    c_err: float
    gamma: float


@njit(inline="always", **JIT)
def _grouped_distances(b, rows, t, data, run, screening, work, total, carry,
                       group, previous, deferred, speedups):
    """Visit b's screening distances on dense data: a new group's pass when
    b starts one (with b's weights), else the group's, its bound widened by
    the weights' drift since the group's first visit.  Returns the group,
    the carry, the screen and the distances."""
    if b == group.end:
        end = min(rows.shape[0], b + int(carry.size))
        c_err, gamma, waste = _screen_group(
            rows[b:end], t, data, run, screening, work, total, carry.waste,
            previous, deferred, speedups)
        group = Group(b, end, 0, c_err, gamma)
        carry = Carry(carry.size, carry.patience, carry.calm, carry.largest,
                      waste, carry.lazy)
    drift = 0.0
    for f in range(work.w.shape[0] if b > group.start else 0):
        drift += abs(work.w[f] - work.w0[f])
    screen = Screen(True, group.c_err + drift, group.gamma, work.slack[:0])
    return group, carry, screen, work.dists[b - group.start]


@njit(inline="always", **JIT)
def _grouped_select(b, rows, data, hood, run, screening, work, buffers,
                    carry, group, exact, selected, speedups, max_candidates):
    """After ``neighbours.select`` on a group's screen (``selected`` = its
    (n_chosen, n_candidates)): when the drift let more than
    ``max_candidates`` through, visit b makes its own pass and ends the
    group; then the group size adapts (``_adapt_groups``).  Returns
    (n_chosen, n_candidates, group, carry)."""
    n_chosen, n_candidates = selected
    own_pass = n_chosen < 0
    if own_pass:
        r = rows[b]
        dist = work.dists[b - group.start]
        c_err, gamma = _screen(rows[b:b + 1], work.w, data, run, screening,
                               work, work.dists[b - group.start:])
        n_chosen, n_candidates = select(
            r, dist, data.group, hood, buffers,
            Screen(True, c_err, gamma, work.slack[:0]), exact,
            dist.shape[0], speedups)
        group = Group(group.start, b + 1, group.most, group.c_err,
                      group.gamma)
    else:
        group = Group(group.start, group.end, max(group.most, n_candidates),
                      group.c_err, group.gamma)
    carry = _adapt_groups(carry, own_pass, b == group.end - 1,
                          group.end - group.start == carry.size, group.most,
                          max_candidates)
    return n_chosen, n_candidates, group, carry


@njit(inline="always", **JIT)
def _adapt_groups(carry, own_pass, last, full, most, max_candidates):
    """The group size after a visit: an ``own_pass`` (the drift let too
    many candidates through) halves it and doubles the patience; after the
    ``last`` visit of a ``full``-size group, ``patience`` calm groups in a
    row double it (up to the largest size) if its visits let at most a
    quarter of ``max_candidates`` through (dReliefF's weights, the noisy
    running estimate itself, drift much more than pdReliefF's)."""
    size, patience, calm = carry.size, carry.patience, carry.calm
    if own_pass:
        size, patience, calm = max(1.0, size // 2), min(2 * patience,
                                                          1024.0), 0.0
    elif last:
        calm += 1
        if calm >= patience and full and 4 * most <= max_candidates:
            size, calm = min(carry.largest, 2 * size), 0.0
    return Carry(size, patience, calm, carry.largest, carry.waste,
                 carry.lazy)


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
def _add_update(r, chosen, n_chosen, coef, data, regression, work, total):
    """total += the update of visiting R."""
    upd = work.upd
    if not data.sparse:
        upd[:] = 0.0
    update(r, chosen, coef, n_chosen, data, regression, work.scratch, upd)
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
    work = _work(data, screening, tracking, run, total, carry.largest)
    buffers = new_buffers(n, hood)
    chosen, coef = buffers.chosen, buffers.coef
    grouped = not data.sparse and screening.copy.shape[0] > 0
    max_candidates = max(4 * hood.k * hood.n_groups, n // 8)
    no_screen = Screen(False, 0.0, 0.0, work.slack[:0])
    dense_exact = Exact(data.num, data.nom, work.w, True, False, data.rows,
                        0.0, work.overlap, 0.0)
    # the serial steps left to the next visit's parallel region: on
    # all-nominal data at the end of a group, on sparse data with every
    # change applied at once (dReliefF)
    fused = not run.regression and (
        (grouped and run.n_chunks > 1 and data.num.shape[1] == 0
         and screening.planes.shape[1] > 0 and speedups.fused_nominal)
        or (data.sparse and carry.lazy == 0 and speedups.fused_sparse
            and speedups.running_row_sums))
    deferred, positive = False, False
    previous = (0, -1, chosen, coef)
    group = Group(0, 0, 0, 0.0, 0.0)
    written = 0
    for b in range(rows.shape[0]):
        t = t_done + b + 1
        r = rows[b]
        # 1. the distance weights from the estimate W_{t-1}
        if not deferred:
            positive = feedback_weights(total, t, run.variant, run.T,
                                        run.regression, work.current, work.w)
        # 2. the weighted distances from R (or a screen of them)
        screen, exact, dist = no_screen, dense_exact, work.dists[0]
        if data.sparse:
            positive, screen, exact = _sparse_distances(
                r, t, data, run, total, tracking, work, carry.lazy, previous,
                deferred, positive, speedups)
        elif grouped:
            group, carry, screen, dist = _grouped_distances(
                b, rows, t, data, run, screening, work, total, carry, group,
                previous, deferred, speedups)
        elif run.n_chunks > 1:
            distance_row_parallel(r, data, work.w, True, dist, run.n_chunks)
        else:
            distance_row(r, data, work.w, True, dist, 0, n)
        deferred = False
        # 3. R's neighbours
        selected = select(r, dist, data.group, hood, buffers, screen, exact,
                          max_candidates if grouped and b > group.start
                          else n, speedups)
        n_chosen, n_candidates = selected
        if grouped:
            n_chosen, n_candidates, group, carry = _grouped_select(
                b, rows, data, hood, run, screening, work, buffers, carry,
                group, exact, selected, speedups, max_candidates)
        if data.sparse and positive and carry.lazy > 0:
            carry = Carry(carry.size, carry.patience, carry.calm,
                          carry.largest, carry.waste, _adapt_lazy(
                              carry.lazy, buffers.selected,
                              n_candidates if screen.on else 0, data.rows,
                              work.walked.sum()))
        # 4. the update, or leave it to the next visit's parallel region
        traced = trace_every > 0 and t % trace_every == 0
        if fused and (data.sparse or b + 1 == group.end) \
                and b + 1 < rows.shape[0] and not traced:
            deferred, previous = True, (n_chosen, r, chosen, coef)
            continue
        _add_update(r, chosen, n_chosen, coef, data, run.regression, work,
                    total)
        if traced:
            estimate(total, t, run.regression, trace[written])
            written += 1
    return written, carry
