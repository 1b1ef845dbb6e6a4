"""The compiled visits of a run with instance weights (``doc/semantics.md``,
"Instance weights"): an instance of weight w counts as w copies of itself.

One visit: R's float64 distances to every instance (``distances.
distance_row``, no screens), each neighbour group's members that count
(their weights as R sees them: ``copies``, R's own max(w_R - 1, 0) copies
among its hits) sorted by distance and given their shares of the k slots
by ``neighbours.weighted_shares``, or for a radius rule the buckets of
``neighbours.weighted_radius``'s thresholds averaged by their weight
(``neighbours.bucket_share``); the update is ``updates.update``'s.  The
arithmetic is the contract's, as in the NumPy backend
(``vectorised.weighted_neighbours``); where values are missing, RELIEF-D's
weighted laws reach the diffs in the kernel tables
(``prepare.Prepared.kernel_tables``, ``diffs.expected_abs``).  The
unweighted runs never come here.
"""
import numpy as np
from numba import njit

from ...contract.diffs import JIT
from ...contract.distances import distance_row
from ...contract.neighbours import (MODE_ANY, bucket, bucket_share,
                                    group_of, group_sign, seen_weight,
                                    thresholds, weighted_radius,
                                    weighted_shares)
from ...contract.pair_sums import add_copy_pair_sums
from ...contract.updates import update


@njit(**JIT)
def own_copies(weights, r, copies):
    """The instance weights as the visit to row r sees them, into
    ``copies``: every other row's weight, R's own max(w_R - 1, 0)."""
    copies[:] = weights
    copies[r] = seen_weight(weights, r, r)


@njit(**JIT)
def k_nearest(r, dist, copies, group, hood, chosen, coef):
    """R's k nearest of every group by weight (``weighted_shares``) into
    ``chosen`` / ``coef``; returns how many."""
    any_miss = hood.mode == MODE_ANY
    gr = group[r]
    n = dist.shape[0]
    members = np.empty(n, np.int64)
    member_dist, member_weights = np.empty(n), np.empty(n)
    n_chosen = 0
    for g in range(hood.n_groups):
        m = 0
        for j in range(dist.shape[0]):
            if copies[j] > 0.0 and group_of(group[j], gr, any_miss) == g:
                members[m] = j
                member_dist[m] = dist[j]
                member_weights[m] = copies[j]
                m += 1
        if m == 0:
            continue
        order = np.argsort(member_dist[:m], kind="mergesort")
        n_chosen = weighted_shares(
            members, member_dist, member_weights, order, hood.k,
            hood.rank_weights,
            group_sign(hood.mode, g, gr, hood.class_factor), chosen, coef,
            n_chosen)
    return n_chosen


@njit(**JIT)
def within_radius(r, dist, copies, group, hood, w, chosen, coef):
    """The radius rules' neighbours of weighted instances: each bucket (a
    group's near or far members) averaged by its members' total weight,
    each member counting its weight; returns (how many, the constant of
    MultiSURF*'s far groups)."""
    any_miss = hood.mode == MODE_ANY
    gr = group[r]
    centre, half = weighted_radius(dist, copies, hood, w)
    low, high = thresholds(centre, half)
    n = dist.shape[0]
    buckets = np.full(n, -1, np.int64)
    totals = np.zeros(2 * hood.n_groups)
    for j in range(n):
        if copies[j] > 0.0:
            b = bucket(dist[j], low, high, hood.far,
                       group_of(group[j], gr, any_miss))
            buckets[j] = b
            if b >= 0:
                totals[b] += copies[j]
    signs = np.empty(hood.n_groups)
    for g in range(hood.n_groups):
        signs[g] = group_sign(hood.mode, g, gr, hood.class_factor)
    n_chosen = 0
    for j in range(n):
        b = buckets[j]
        if b >= 0:
            chosen[n_chosen] = j
            coef[n_chosen] = bucket_share(b, totals[b], signs[b // 2]) \
                * copies[j]
            n_chosen += 1
    constant = 0.0
    if hood.far_sameness:
        for b in range(1, 2 * hood.n_groups, 2):
            if totals[b] > 0.0:
                constant += signs[b // 2]
    return n_chosen, constant


@njit(**JIT)
def weighted_visit(r, data, hood, weights, w, weighted, regression, upd):
    """The update of one copy of row r (distance weights ``w`` where
    ``weighted``) into ``upd`` (zeros), and in a wider row (ReliefF's
    ``statistics=True``) the copy's STIR sums after it
    (``pair_sums.add_copy_pair_sums``)."""
    n = data.group.shape[0]
    dist = np.empty(n)
    distance_row(r, data, w, weighted, dist, 0, n)
    copies = np.empty(n)
    own_copies(weights, r, copies)
    chosen = np.empty(n, np.int64)
    coef = np.empty(n)
    constant = 0.0
    if hood.uses_k:
        n_chosen = k_nearest(r, dist, copies, data.group, hood, chosen, coef)
    else:
        n_chosen, constant = within_radius(r, dist, copies, data.group, hood,
                                           w, chosen, coef)
    a = data.num.shape[1] + data.nom.shape[1]
    width = 1 + 2 * a if regression else a
    upd[:] = constant
    update(r, chosen, coef, n_chosen, data, regression, np.zeros(0),
           upd[:width], np.zeros(0, np.int64))
    if upd.shape[0] > width:
        add_copy_pair_sums(r, chosen, coef, n_chosen, copies, data,
                           upd[width:])


@njit(**JIT)
def weighted_rows(rows, data, hood, weights, regression, upd):
    """ReliefF's update rows of visiting ``rows`` (each instance's w
    copies: its update, and its STIR sums in a wider row, times w) into
    ``upd``."""
    a = data.num.shape[1] + data.nom.shape[1]
    ones = np.ones(a)
    for b in range(rows.shape[0]):
        weighted_visit(rows[b], data, hood, weights, ones, False, regression,
                       upd[b])
        upd[b] *= weights[rows[b]]
