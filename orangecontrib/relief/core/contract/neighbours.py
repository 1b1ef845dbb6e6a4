"""Neighbour selection: R's nearest hits and misses and how much each counts.

``doc/semantics.md`` ("Distance and neighbours", "Update and
normalisation"): the instances are split into groups -- hits and the misses
of each other class (ReliefF), hits and all misses together (Relief-E), or all
instances (RReliefF) -- and each group's k nearest are kept.  Instances tied
with the k-th share the slots left (so no weight depends on row order); with
rank weights a tie shares the mean influence of the ranks it occupies; each
group is averaged by its total influence, hits get a minus sign, misses of
class C the factor P(C) / (1 - P(class(R))).

The distances may be screening distances (``Screen``): within a proven bound
of the float64 ones, or upper bounds of them.  The thresholds are then
widened so that every instance the float64 distances would select stays a
candidate, and the candidates whose choice the bound leaves open get their
float64 distances (``Exact``), so the neighbours are exactly those of the
float64 distances.
"""
import math
from typing import NamedTuple

import numpy as np
from numba import njit
from numba.extending import register_jitable

from .diffs import JIT
from .distances import TIE_RTOL, distance
from .nominal import trailing_zeros
from .prepare import SparseRows
from .sparse import row_sum

MODE_PER_CLASS, MODE_ANY, MODE_REGRESSION = 0, 1, 2
# select() returns this many chosen when a screen leaves a radius rule's
# choice open: the caller computes the row's float64 distances and asks again
UNSETTLED = -2

# The k-th distance of each group is found among the rows within the k-th
# distance of every SAMPLE_STEP-th row (on rows of at least SAMPLE_MIN_ROWS):
# the heaps' branches see a few hundred rows, not all.
SAMPLE_STEP = 8
SAMPLE_MIN_ROWS = 256


class Neighbourhood(NamedTuple):
    """Which neighbours a visit takes and how much each counts: ``mode``
    (MODE_PER_CLASS, MODE_ANY or MODE_REGRESSION), ``k``, the influence of
    each rank (1, or exp(-(rank / sigma)^2) with distance weighting), the
    factors P(C) / (1 - P(class(R))) (classes x classes), the number of
    neighbour groups; the rule's fields (``rules.Rule``, copied by
    ``base.neighbourhood``: the kernels read these, never a rule's name):
    ``uses_k``, ``pair_mean_radius``, ``far``, ``far_sameness`` and
    ``deviations``; and, for a pair-mean radius (SURF), each feature's mean
    diff over all pairs of instances (the radius is sum_A w_A
    pair_means[A])."""
    mode: int
    k: int
    rank_weights: np.ndarray
    class_factor: np.ndarray
    n_groups: int
    uses_k: bool
    pair_mean_radius: bool
    far: bool
    far_sameness: bool
    deviations: float
    pair_means: np.ndarray


class Screen(NamedTuple):
    """How the distances given to ``select`` relate to the float64 ones: not
    at all (``on`` False: they are the float64 ones), within c_err + gamma
    D~, or, with a non-empty ``slack``, upper bounds at most slack[j] above
    them (sparse rows from running sums with changes pending)."""
    on: bool
    c_err: float
    gamma: float
    slack: np.ndarray


class Exact(NamedTuple):
    """What a candidate's float64 distance is computed from: dense rows
    ``num``, ``nom`` with weights ``w`` (``distances.distance``), or sparse
    rows as B_R + B_j - overlap_j with B_j summed afresh, where results up
    to ``zero`` are 0 (``sparse.distances``)."""
    num: np.ndarray
    nom: np.ndarray
    w: np.ndarray
    weighted: bool
    sparse: bool
    rows: SparseRows
    base_r: float
    overlap: np.ndarray
    zero: float


class Buffers(NamedTuple):
    """Work space of ``select`` for n instances: ``heap`` (groups x k),
    ``counts`` (groups), ``selected`` (2n), and the result: ``chosen`` (n)
    and ``coef`` (2n; the second half is work space).  A radius rule also
    leaves each row's bucket (``_within_radius``) in ``selected[:n]``, and
    per bucket the end of its run in ``chosen`` (``ends``) and its
    coefficient (``shares``); with k both are empty (no runs:
    ``updates.update`` takes the neighbours one by one)."""
    heap: np.ndarray
    counts: np.ndarray
    selected: np.ndarray
    chosen: np.ndarray
    coef: np.ndarray
    ends: np.ndarray
    shares: np.ndarray


@njit(**JIT)
def new_buffers(n, hood):
    """``Buffers`` for n instances."""
    n_buckets = 0 if hood.uses_k else 2 * hood.n_groups
    return Buffers(np.empty((hood.n_groups, hood.k)),
                   np.zeros(hood.n_groups, dtype=np.int64),
                   np.empty(2 * n, dtype=np.int64),
                   np.empty(n, dtype=np.int64), np.empty(2 * n),
                   np.zeros(n_buckets, dtype=np.int64),
                   np.zeros(n_buckets))


# ---------------------------------------------------------------------------
# The neighbour arithmetic of every target: plain functions that numba
# compiles for the CPU loops here and for the GPU kernels (cuda/kernels.py)
# alike, and that the NumPy path runs as Python (vectorised.py).  They take
# arrays and numbers, not the named tuples (a CUDA device function cannot).
# The per-row ones are inlined into the CPU loops (inline="always": left as
# calls, ReliefF with SURF ran 1.09x slower at 5,000 x 200); the GPU
# compiles the same code as device functions (cuda/kernels.py, ``_device``).

@register_jitable(inline="always")
def group_of(gj, gr, any_miss):
    """The neighbour group of a row of class gj for a visit of class gr:
    its class (per-class misses; every row is class 0 in regression), or
    0 for hits and 1 for misses when all misses form one group."""
    return (1 if gj != gr else 0) if any_miss else gj


@register_jitable(inline="always")
def group_sign(mode, g, gr, class_factor):
    """The sign and factor of neighbour group g of a visit of class gr:
    -1 for hits, P(C) / (1 - P(class(R))) (``class_factor[gr, C]``) for the
    misses of class C, 1 for all misses together and in regression."""
    if mode == MODE_REGRESSION or (mode == MODE_ANY and g == 1):
        return 1.0
    if g == (0 if mode == MODE_ANY else gr):
        return -1.0
    return class_factor[gr, g]


@register_jitable
def influence(rank, ranked, rank_weights, nearest):
    """The influence of the neighbour at ``rank`` (0-based) of a group whose
    distances are ``ranked``: ``rank_weights[rank]`` (1, or
    exp(-(rank / sigma)^2)); or, where ``rank_weights`` is one negative
    number -p (``base.neighbourhood``: influence by distance, CORElearn's
    ReliefFdistance for p = 1 and ReliefFsqrDistance for p = 2), 1 / d^p of
    its distance d, and 2 / nearest^p at distance 0 (``nearest``: the
    group's smallest non-zero distance, 1 when there is none)."""
    if rank_weights[0] >= 0:
        return rank_weights[rank]
    power = -rank_weights[0]
    if ranked[rank] > 0:
        return 1.0 / ranked[rank] ** power
    return 2.0 / nearest ** power


@register_jitable
def by_distance(rank_weights):
    """Whether ``rank_weights`` asks for influence by distance (one
    negative number -p): the chosen neighbours then need their float64
    distances, not a screen's."""
    return rank_weights.shape[0] > 0 and rank_weights[0] < 0


@register_jitable
def nearest_nonzero(ranked, m):
    """The smallest non-zero of the first m of ``ranked`` (increasing); 1
    when all are 0."""
    for q in range(m):
        if ranked[q] > 0:
            return ranked[q]
    return 1.0


@register_jitable
def tie_shares(ranked, k, rank_weights, sign, coef):
    """The shares of a group's candidates, ``ranked`` their distances in
    increasing order: the k nearest, those tied with the k-th (within
    TIE_RTOL of the first of a run) sharing the influences of the ranks
    they occupy (``influence``), over the total of the first min(k, m)
    ranks, times ``sign``; coef[q] gets the q-th's.  Candidates beyond the
    k-th and its ties (a screen's) are dropped: returns how many are
    kept."""
    m = ranked.shape[0]
    if m > k:
        limit = ranked[k - 1] * (1 + TIE_RTOL)
        while ranked[m - 1] > limit:
            m -= 1
    nearest = nearest_nonzero(ranked, m) if by_distance(rank_weights) \
        else 1.0
    norm = 0.0
    for rank in range(min(k, m)):
        norm += influence(rank, ranked, rank_weights, nearest)
    i = 0
    while i < m:
        e = i + 1
        limit = ranked[i] * (1 + TIE_RTOL)
        while e < m and ranked[e] <= limit:
            e += 1
        ties = e - i
        slots = max(0, min(ties, k - i))
        shared = 0.0
        for rank in range(i, i + slots):
            shared += influence(rank, ranked, rank_weights, nearest)
        share = sign * shared / ties / norm
        for q in range(i, e):
            coef[q] = share
        i = e
    return m


@register_jitable
def rank_span(lo, hi, rank_weights):
    """The influence of the slots from position lo to hi (0 <= lo <= hi <=
    k): the integral of the rank weights, rank r covering [r, r + 1); for
    whole positions the sum of the ranks' weights, in rank order."""
    total = 0.0
    rank = int(math.floor(lo))
    while rank < hi:
        covered = min(hi, rank + 1.0) - max(lo, float(rank))
        if covered > 0.0:
            total += rank_weights[rank] * covered
        rank += 1
    return total


@register_jitable
def weighted_tie_shares(ranked, weights, k, rank_weights, sign, coef):
    """``tie_shares`` of candidates that count as ``weights`` copies each
    (instance weights, ``doc/semantics.md``): a candidate of weight w fills
    w of the k slots, in the order of the distances ``ranked``; those tied
    (within TIE_RTOL of the first of a run) share the slots their run
    covers in proportion to their weights, with the influence of the ranks
    (``rank_span``: by cumulative weight) over the total of the first
    min(k, their weight) slots, times ``sign``; coef[q] gets the q-th's.
    With weights 1 the same numbers as ``tie_shares``.  Candidates beyond
    the slot where the weight reaches k and its ties are dropped: returns
    how many are kept."""
    m = ranked.shape[0]
    filled = 0.0
    q = 0
    while q < m and filled + weights[q] < k:
        filled += weights[q]
        q += 1
    if q < m:
        limit = ranked[q] * (1 + TIE_RTOL)
        while ranked[m - 1] > limit:
            m -= 1
    total = 0.0
    for q in range(m):
        total += weights[q]
    norm = rank_span(0.0, min(float(k), total), rank_weights)
    position = 0.0
    i = 0
    while i < m:
        e = i + 1
        run = weights[i]
        limit = ranked[i] * (1 + TIE_RTOL)
        while e < m and ranked[e] <= limit:
            run += weights[e]
            e += 1
        influence = rank_span(min(position, k), min(position + run, k),
                              rank_weights)
        for q in range(i, e):
            coef[q] = sign * influence * weights[q] / run / norm
        position += run
        i = e
    return m


@register_jitable
def seen_weight(weights, r, j):
    """How many copies of row j the visit to row r counts (instance
    weights, ``doc/semantics.md``): j's weight, or for R itself its own
    max(w_R - 1, 0) other copies (at distance 0)."""
    if j == r:
        return max(weights[r] - 1.0, 0.0)
    return weights[j]


@register_jitable
def weighted_spread(dist, copies, deviations):
    """(centre, half) of MultiSURF's thresholds for rows that count as
    ``copies``: the weighted mean of the distances ``dist`` and
    ``deviations`` times their weighted (population) standard
    deviation."""
    count = 0.0
    total = 0.0
    for j in range(dist.shape[0]):
        if copies[j] > 0.0:
            count += copies[j]
            total += copies[j] * dist[j]
    centre = total / count
    squares = 0.0
    for j in range(dist.shape[0]):
        if copies[j] > 0.0:
            squares += copies[j] * (dist[j] - centre) ** 2
    return centre, half_width(squares, count, deviations)


@register_jitable
def surf_radius(w, pair_means):
    """SURF's radius: the mean distance over all pairs of instances,
    sum_A w_A pair_means[A] (summed in feature order)."""
    centre = 0.0
    for f in range(w.shape[0]):
        centre += w[f] * pair_means[f]
    return centre


@register_jitable
def half_width(squares, count, deviations):
    """How far MultiSURF's thresholds sit from the mean: ``deviations``
    times the (population) standard deviation of ``count`` distances whose
    squared deviations from their mean sum to ``squares``."""
    return math.sqrt(max(squares, 0.0) / count) * deviations


@register_jitable(inline="always")
def thresholds(centre, half):
    """(low, high) of a radius rule: near is d < low, far (the rules with
    far instances) d > high; centre -+ half, widened by TIE_RTOL |centre|
    so that a distance on a threshold (to rounding) is in neither set."""
    tol = TIE_RTOL * abs(centre)
    return centre - half - tol, centre + half + tol


@register_jitable(inline="always")
def bucket(d, low, high, far, g):
    """The bucket of a row at distance d in neighbour group g: 2 g near,
    2 g + 1 far (only with ``far``), -1 neither."""
    if d < low:
        return 2 * g
    if far and d > high:
        return 2 * g + 1
    return -1


@register_jitable(inline="always")
def bucket_share(b, count, sign):
    """The coefficient of each of the ``count`` rows of bucket b of a group
    with ``sign`` (``group_sign``): sign / count near, -sign / count far."""
    return (sign if b % 2 == 0 else -sign) / count


# ---------------------------------------------------------------------------
# The compiled CPU loops


@njit(**JIT)
def _smallest(dist, rows, n_rows, skip, group, gr, any_miss, heap, counts,
              kth):
    """Add ``dist[rows[q]]``, q < n_rows, to max-heaps ``heap[g, :counts[g]]``
    of the k smallest distances of each group, but not rows that are
    multiples of ``skip`` (> 0); ``kth[g]`` = the k-th smallest (inf while
    a group has fewer).  The hot loop only compares with the largest k-th
    distance of any group."""
    k = heap.shape[1]
    top = kth.max()
    for q in range(n_rows):
        j = rows[q]
        d = dist[j]
        if not d < top or (skip > 0 and j % skip == 0):
            continue
        g = group_of(group[j], gr, any_miss)
        if not d < kth[g]:
            continue
        c = counts[g]
        if c == k:
            heap[g, 0] = d
            i = 0
            while True:
                left = 2 * i + 1
                if left >= k:
                    break
                big = left
                if left + 1 < k and heap[g, left + 1] > heap[g, left]:
                    big = left + 1
                if heap[g, big] > heap[g, i]:
                    heap[g, big], heap[g, i] = heap[g, i], heap[g, big]
                    i = big
                else:
                    break
        else:
            i = c
            heap[g, i] = d
            while i > 0:
                p = (i - 1) >> 1
                if heap[g, p] < heap[g, i]:
                    heap[g, p], heap[g, i] = heap[g, i], heap[g, p]
                    i = p
                else:
                    break
            counts[g] = c + 1
        if counts[g] == k:
            kth[g] = heap[g, 0]
            top = kth.max()


@njit(**JIT)
def _within(dist, slack, threshold, group, gr, any_miss, rows):
    """Write the rows j with dist[j] - slack[j] <= threshold[group of j]
    (``slack`` empty: 0), in order, to ``rows``; return how many.  The
    comparisons of 64 rows go into the bits of a word first: writing each
    row's index at a position that depends on the previous comparison made
    every row wait for it (4 ns a row)."""
    n = dist.shape[0]
    per_row = slack.shape[0] > 0
    n_rows = 0
    for j0 in range(0, n, 64):
        word = np.uint64(0)
        for t in range(min(64, n - j0)):
            j = j0 + t
            d = dist[j] - slack[j] if per_row else dist[j]
            inside = d <= threshold[group_of(group[j], gr, any_miss)]
            word |= np.uint64(inside) << np.uint64(t)
        while word:
            rows[n_rows] = j0 + np.int64(trailing_zeros(word))
            n_rows += 1
            word &= word - np.uint64(1)
    return n_rows


@register_jitable
def widened_threshold(kth, c_err, gamma):
    """The largest screening distance D~ that can belong to a row whose
    float64 distance is within TIE_RTOL of the float64 k-th distance, when
    the screening k-th distance is ``kth`` and |D~ - D| <= c_err + gamma D~
    (with c_err = gamma = 0, float64 distances: kth (1 + TIE_RTOL)).  The
    CPU's screens (``_widened``) and the GPU's
    (``kernels.k_nearest_screened``)."""
    # the float64 k-th distance is at most `upper`; a D~ can exceed its
    # float64 distance by c + gamma D~
    upper = kth * (1 + gamma) + c_err
    return (upper * (1 + TIE_RTOL) + c_err) / (1 - gamma)


@njit(**JIT)
def _widened(kth, screen):
    """``widened_threshold`` of ``screen`` (``Screen``)."""
    if not screen.on:
        return kth * (1 + TIE_RTOL)
    return widened_threshold(kth, screen.c_err, screen.gamma)


@njit(**JIT)
def _candidates(r, dist, group, any_miss, screen, buffers, sampled):
    """The rows that can be among R's float64 nearest k of their group, in
    ``buffers.selected`` (returns how many): pass 1 finds each group's k-th
    screening distance (on long rows, the k-th of every SAMPLE_STEP-th row
    bounds it from above, and only the other rows within that bound go
    through the heaps after them); pass 2 keeps every row within the
    (widened) k-th distance of its group.  A group with fewer than k rows
    keeps them all."""
    n = dist.shape[0]
    n_groups = buffers.heap.shape[0]
    gr = group[r]
    selected, counts, heap = buffers.selected, buffers.counts, buffers.heap
    kth = np.empty(n_groups)
    threshold = np.empty(n_groups)
    slack = screen.slack if screen.on else screen.slack[:0]
    per_row = slack.shape[0] > 0
    counts[:] = 0
    kth[:] = np.inf
    if sampled and n >= SAMPLE_MIN_ROWS:
        n_rows = 0
        for j in range(0, n, SAMPLE_STEP):
            selected[n_rows] = j
            n_rows += 1
        _smallest(dist, selected, n_rows, 0, group, gr, any_miss, heap,
                  counts, kth)
        for g in range(n_groups):
            threshold[g] = _widened(kth[g], screen)
        n_rows = _within(dist, slack, threshold, group, gr, any_miss,
                         selected)
        skip = SAMPLE_STEP
    else:
        for j in range(n):
            selected[j] = j
        n_rows, skip = n, 0
    _smallest(dist, selected, n_rows, skip, group, gr, any_miss, heap, counts,
              kth)
    for g in range(n_groups):
        threshold[g] = _widened(kth[g], screen)
    n_selected = 0
    for q in range(n_rows):
        j = selected[q]
        d = dist[j] - slack[j] if per_row else dist[j]
        if j != r and d <= threshold[group_of(group[j], gr, any_miss)]:
            selected[n_selected] = j
            n_selected += 1
    return n_selected


@njit(**JIT)
def exact_distance(r, j, exact):
    """The float64 distance that decides a screened candidate (``Exact``)."""
    if exact.sparse:
        d = exact.base_r + row_sum(j, exact.rows, exact.w, exact.weighted) \
            - exact.overlap[j]
        return d if d > exact.zero else 0.0
    return distance(r, j, exact.num, exact.nom, exact.w, exact.weighted)


@njit(**JIT)
def _settle(r, members, dist, screen, exact):
    """Replace the screening distances ``dist`` of a group's candidates by
    their float64 distances where that can change the selection.

    Each float64 distance D lies in [lo, hi] = [D~ (1 - gamma) - c,
    D~ (1 + gamma) + c].  In the order of D~, two neighbouring candidates
    whose intervals, one widened by 2 TIE_RTOL, are apart cannot be tied nor
    swapped, and neither can any two candidates on either side of them
    (lo and hi grow with D~).  So candidates in runs linked by overlapping
    intervals get their float64 distances and the others keep D~: every
    comparison ``shares`` makes between two of them (``x <= y (1 +
    TIE_RTOL)``) then has the outcome it has with the float64 distances.
    With a tight screen that is rarely more than a few of the 2k candidates
    of a visit."""
    c_err, gamma = screen.c_err, screen.gamma
    m = members.shape[0]
    if m < 2:
        return
    order = np.argsort(dist)
    widen = 1 + 2 * TIE_RTOL
    linked = False          # the previous candidate is linked to this one
    for q in range(m):
        i = order[q]
        hi = dist[i] * (1 + gamma) + c_err
        link_next = False
        if q + 1 < m:
            lo_next = dist[order[q + 1]] * (1 - gamma) - c_err
            link_next = hi * widen >= lo_next
        if linked or link_next:
            dist[i] = exact_distance(r, members[i], exact)
        linked = link_next


@njit(**JIT)
def shares(members, member_dist, order, k, rank_weights, sign, chosen, coef,
           n_chosen):
    """Append a group's neighbours to ``chosen`` / ``coef`` from its
    candidates ``members`` with float64 (or settled) distances
    ``member_dist``, ``order`` their positions by distance (``argsort``),
    with the shares of ``tie_shares``.  Returns the new count.  (The tie
    rule of every backend: the NumPy path calls it too, with NumPy's sort;
    the GPU calls ``tie_shares``.)"""
    m = tie_shares(member_dist[order], k, rank_weights, sign,
                   coef[n_chosen:])
    for q in range(m):
        chosen[n_chosen + q] = members[order[q]]
    return n_chosen + m


@njit(**JIT)
def weighted_shares(members, member_dist, member_weights, order, k,
                    rank_weights, sign, chosen, coef, n_chosen):
    """``shares`` of candidates with instance weights ``member_weights``
    (``weighted_tie_shares``): each one's coefficient is its share of the
    slots times its weight."""
    m = weighted_tie_shares(member_dist[order], member_weights[order], k,
                            rank_weights, sign, coef[n_chosen:])
    for q in range(m):
        chosen[n_chosen + q] = members[order[q]]
    return n_chosen + m


@njit(**JIT)
def weighted_radius(dist, copies, hood, w):
    """(centre, half) of a radius rule for a visit whose rows count as
    ``copies`` (the instance weights as the visited instance R sees them:
    its own entry max(w_R - 1, 0), its copies; ``doc/semantics.md``):
    SURF's pair-mean radius (``surf_radius``; the pair means of weighted
    instances), or MultiSURF's weighted mean of the distances to the
    others, and ``hood.deviations`` times their weighted (population)
    standard deviation (``weighted_spread``)."""
    if hood.pair_mean_radius:
        return surf_radius(w, hood.pair_means), 0.0
    return weighted_spread(dist, copies, hood.deviations)


@njit(**JIT)
def select(r, dist, group, hood, buffers, screen, exact, max_candidates,
           speedups):
    """R's neighbours in ``dist`` and their signed influences (see the
    module docstring): writes ``buffers.chosen[i]`` and ``buffers.coef[i]``
    and returns how many there are, how many candidates passed the screen,
    and a constant every feature's update gets (MultiSURF*'s far
    instances; else 0).  If more than ``max_candidates`` passed, nothing is
    chosen and (-1, their number, 0) is returned; UNSETTLED when a screen
    leaves a radius rule's choice open."""
    dist[r] = np.inf            # R is not its own neighbour
    if not hood.uses_k:
        return _within_radius(r, dist, group, hood, buffers, screen, exact)
    any_miss = hood.mode == MODE_ANY
    gr = group[r]
    n = dist.shape[0]
    n_selected = _candidates(r, dist, group, any_miss, screen, buffers,
                             speedups.sampled_kth)
    if n_selected > max_candidates:
        return -1, n_selected, 0.0
    selected, chosen, coef = buffers.selected, buffers.chosen, buffers.coef
    members = selected[n:]
    member_dist = coef[n:]
    per_row = screen.on and screen.slack.shape[0] > 0
    n_chosen = 0
    for g in range(buffers.heap.shape[0]):
        m = 0
        for q in range(n_selected):
            j = selected[q]
            if group_of(group[j], gr, any_miss) == g:
                members[m] = j
                member_dist[m] = dist[j]
                m += 1
        if m == 0:
            continue
        if per_row or (screen.on and (not speedups.settle or
                                      by_distance(hood.rank_weights))):
            for q in range(m):
                member_dist[q] = exact_distance(r, members[q], exact)
        elif screen.on:
            _settle(r, members[:m], member_dist[:m], screen, exact)
        n_chosen = shares(members, member_dist,
                          np.argsort(member_dist[:m]), hood.k,
                          hood.rank_weights,
                          group_sign(hood.mode, g, gr, hood.class_factor),
                          chosen, coef, n_chosen)
    return n_chosen, n_selected, 0.0


# ---------------------------------------------------------------------------
# Radius rules: SURF, SURF*, MultiSURF, MultiSURF*

@njit(**JIT)
def radius(r, dist, hood, w, screen):
    """(centre, half, slack) of R's radius rule, whose thresholds are
    ``thresholds(centre, half)``.  A pair-mean radius (SURF): centre =
    ``surf_radius``, half = 0.  Otherwise (MultiSURF): centre = the mean of
    R's distances to the n - 1 others, half = ``hood.deviations`` times
    their (population) standard deviation.  On a screened row, ``slack``
    bounds how far the thresholds may be from those of the float64 row (0
    without a screen).  MultiSURF leaves dist[r] = inf.  (The radius of
    every backend: the NumPy path calls it too.)"""
    n = dist.shape[0]
    if hood.pair_mean_radius:
        return surf_radius(w, hood.pair_means), 0.0, 0.0
    dist[r] = 0.0       # (no branch in the sums: R adds 0, then its term)
    total = 0.0
    for j in range(n):
        total += dist[j]
    centre = total / (n - 1)
    squares = 0.0
    for j in range(n):
        squares += (dist[j] - centre) ** 2
    squares -= centre * centre
    dist[r] = np.inf
    half = half_width(squares, n - 1, hood.deviations)
    slack = 0.0
    if screen.on:
        # |mean - mean~| <= mean(e) and |sd - sd~| <= rms(e), e_j the
        # screen's bound of row j
        mean_e, mean_e2 = 0.0, 0.0
        for j in range(n):
            if j != r:
                e = screen.c_err + screen.gamma * dist[j]
                mean_e += e
                mean_e2 += e * e
        slack = mean_e / (n - 1) + half_width(mean_e2, n - 1,
                                              hood.deviations)
    return centre, half, slack


@njit(**JIT)
def _within_radius(r, dist, group, hood, buffers, screen, exact):
    """``select`` for the radius rules: every instance strictly inside the
    radius is a near neighbour, every one strictly beyond the far threshold
    (starred rules) a far one; an instance within TIE_RTOL of a threshold
    is on it, in neither set.  Each group (hits, the misses of each class,
    or all misses; every instance in regression) is averaged by the number
    of its members: a near one counts sign / count, a far one -sign /
    count, and with ``far_sameness`` (MultiSURF*) the far groups, which
    score sameness (the mean of -(1 - diff) for hits), add their sign to
    every feature (the returned constant)."""
    n = dist.shape[0]
    any_miss = hood.mode == MODE_ANY
    gr = group[r]
    starred = hood.far
    centre, half, slack = radius(r, dist, hood, exact.w, screen)
    low, high = thresholds(centre, half)
    if screen.on:
        for j in range(n):
            if j == r:
                continue
            e = screen.c_err + screen.gamma * dist[j] + slack
            if abs(dist[j] - low) <= e or (starred and
                                           abs(dist[j] - high) <= e):
                return UNSETTLED, 0, 0.0
    # bucket 2g: group g's near instances, 2g + 1 its far ones (-1: none);
    # emitted bucket by bucket (a counting sort: runs of equal coefficients,
    # which updates.update sums before multiplying)
    n_groups = buffers.heap.shape[0]
    counts = np.zeros(2 * n_groups + 1, np.int64)
    buckets = buffers.selected
    for j in range(n):
        b = bucket(dist[j], low, high, starred,
                   group_of(group[j], gr, any_miss))
        buckets[j] = b if j != r else -1
        counts[buckets[j] + 1] += 1
    n_chosen = n - counts[0]
    start = np.empty(2 * n_groups, np.int64)
    position = 0
    for b in range(2 * n_groups):
        start[b] = position
        position += counts[b + 1]
    for j in range(n):
        b = buckets[j]
        if b >= 0:
            buffers.chosen[start[b]] = j
            start[b] += 1
    constant = 0.0
    for b in range(2 * n_groups):
        count = counts[b + 1]
        buffers.ends[b] = start[b]
        buffers.shares[b] = 0.0
        if count:
            sign = group_sign(hood.mode, b // 2, gr, hood.class_factor)
            share = bucket_share(b, count, sign)
            buffers.coef[start[b] - count:start[b]] = share
            buffers.shares[b] = share
            if b % 2 == 1 and hood.far_sameness:
                constant += sign    # the group's mean of sign (1 - diff)
    return n_chosen, n_chosen, constant
