"""The hot loops of the Relief engine, compiled with numba.

One visit of an instance R (seed Fig. relieff) is three steps, each a small
function here: the distances from R to every instance (eq. relief_distance, or
the weighted eq. weighted_distance), the k nearest hits and misses with ties at
the k-th distance shared fractionally, and the update of the running sums.
ReliefF visits instances independently, so ``relief_batch`` spreads them over
threads; the feedback variants depend on the previous step, so
``feedback_batch`` runs them in order and spreads each distance row instead.

Kernel layout: ``num`` (n x a_num, normalised, NaN missing) and ``nom`` (n x
a_nom codes, -1 missing); per-feature vectors hold the numeric features first,
then the nominal ones.  An update row holds, for classification, the a weight
sums; for regression ``[N_dC, N_dA (a), N_dCdA (a)]`` (RReliefF).
"""
import numpy as np
from numba import njit, prange

_JIT = dict(cache=True, nogil=True)

MODE_PER_CLASS, MODE_ANY, MODE_REGRESSION = 0, 1, 2
VARIANT_RELIEFF, VARIANT_D, VARIANT_PD = 0, 1, 2

# Below this many distance terms per row a thread pool costs more than it saves.
PARALLEL_ROW_TERMS = 200_000

# Distances within this relative difference are the same distance (a tie):
# sums of the same diffs in another feature order differ only by rounding.
TIE_RTOL = 1e-10


@njit(**_JIT)
def _expected_abs(sorted_vals, prefix, start, pstart, count, v):
    """E|X - v| for X uniform over a sorted sample (RELIEF-D, numeric)."""
    lo, hi = start, start + count
    while lo < hi:
        mid = (lo + hi) >> 1
        if sorted_vals[mid] < v:
            lo = mid + 1
        else:
            hi = mid
    below = lo - start
    sum_below = prefix[pstart + below]
    sum_all = prefix[pstart + count]
    return (v * below - sum_below + (sum_all - sum_below)
            - v * (count - below)) / count


@njit(**_JIT)
def _num_diff(f, a, b, ca, cb, mt):
    """diff of numeric feature f; ca, cb are the rows' classes (eq. relief_d)."""
    if a == a:
        if b == b:
            return abs(a - b)
        return _expected_abs(mt[0], mt[1], mt[2][f, cb], mt[3][f, cb],
                             mt[4][f, cb], a)
    if b == b:
        return _expected_abs(mt[0], mt[1], mt[2][f, ca], mt[3][f, ca],
                             mt[4][f, ca], b)
    return mt[5][f, ca, cb]


@njit(**_JIT)
def _nom_diff(g, a, b, ca, cb, mt):
    """diff of nominal feature g: overlap, or RELIEF-D when a value is missing."""
    if a >= 0:
        if b >= 0:
            return 0.0 if a == b else 1.0
        return 1.0 - mt[6][g, cb, a]
    if b >= 0:
        return 1.0 - mt[6][g, ca, b]
    return mt[7][g, ca, cb]


@njit(**_JIT)
def _distances(r, num, nom, w, weighted, has_missing, group, mt, out, j0, j1):
    """out[j] = sum_A w_A diff(A, R, I_j) for j in [j0, j1)."""
    a_num, a_nom = num.shape[1], nom.shape[1]
    xr, cr, gr = num[r], nom[r], group[r]
    for j in range(j0, j1):
        xj, cj = num[j], nom[j]
        s = 0.0
        if has_missing:
            gj = group[j]
            for f in range(a_num):
                d = _num_diff(f, xr[f], xj[f], gr, gj, mt)
                s += w[f] * d if weighted else d
            for g in range(a_nom):
                d = _nom_diff(g, cr[g], cj[g], gr, gj, mt)
                s += w[a_num + g] * d if weighted else d
        elif weighted:
            for f in range(a_num):
                s += w[f] * abs(xr[f] - xj[f])
            for g in range(a_nom):
                if cr[g] != cj[g]:
                    s += w[a_num + g]
        else:
            for f in range(a_num):
                s += abs(xr[f] - xj[f])
            mismatches = 0
            for g in range(a_nom):
                mismatches += cr[g] != cj[g]
            s += mismatches
        out[j] = s


@njit(parallel=True, **_JIT)
def _distances_parallel(r, num, nom, w, weighted, has_missing, group, mt, out,
                        n_chunks):
    n = num.shape[0]
    for c in prange(n_chunks):
        _distances(r, num, nom, w, weighted, has_missing, group, mt, out,
                   c * n // n_chunks, (c + 1) * n // n_chunks)


@njit(**_JIT)
def _add_diffs(r, j, scale, num, nom, has_missing, group, mt, out, offset):
    """out[offset + A] += scale * diff(A, R, I_j) for every feature A."""
    a_num, a_nom = num.shape[1], nom.shape[1]
    xr, xj, cr, cj = num[r], num[j], nom[r], nom[j]
    if has_missing:
        gr, gj = group[r], group[j]
        for f in range(a_num):
            out[offset + f] += scale * _num_diff(f, xr[f], xj[f], gr, gj, mt)
        for g in range(a_nom):
            out[offset + a_num + g] += scale * _nom_diff(g, cr[g], cj[g],
                                                         gr, gj, mt)
    else:
        for f in range(a_num):
            out[offset + f] += scale * abs(xr[f] - xj[f])
        for g in range(a_nom):
            if cr[g] != cj[g]:
                out[offset + a_num + g] += scale


@njit(**_JIT)
def _group_of(j, r, group, mode):
    if mode == MODE_PER_CLASS:
        return group[j]
    if mode == MODE_ANY:
        return 0 if group[j] == group[r] else 1
    return 0


@njit(**_JIT)
def _visit(r, dist, num, nom, has_missing, group, mt, mode, k, rank_weights,
           class_factor, target, heap, counts, selected, upd):
    """Find R's neighbours in ``dist`` and add R's update to ``upd``.

    Neighbour groups: hits and the misses of each other class (ReliefF), hits
    and all misses together (Relief-E), or all instances (RReliefF).  The k
    nearest of a group are kept; instances tied with the k-th share the slots
    left, and with rank weights a tie shares the mean influence of the ranks
    it occupies.  Each group is averaged by its total influence.
    """
    n = dist.shape[0]
    n_groups = heap.shape[0]
    a = num.shape[1] + nom.shape[1]
    counts[:] = 0
    # pass 1: a max-heap of the k smallest distances in each group
    for j in range(n):
        if j == r:
            continue
        g = _group_of(j, r, group, mode)
        d = dist[j]
        c = counts[g]
        if c < k:
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
        elif d < heap[g, 0]:
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
    # pass 2: every instance within the k-th distance of its group
    threshold = np.empty(n_groups)
    for g in range(n_groups):
        threshold[g] = heap[g, 0] * (1 + TIE_RTOL) if counts[g] == k \
            else np.inf
    n_selected = 0
    for j in range(n):
        if j != r and dist[j] <= threshold[_group_of(j, r, group, mode)]:
            selected[n_selected] = j
            n_selected += 1
    gr = group[r]
    for g in range(n_groups):
        members = np.empty(min(n_selected, n), dtype=np.int64)
        m = 0
        for q in range(n_selected):
            if _group_of(selected[q], r, group, mode) == g:
                members[m] = selected[q]
                m += 1
        if m == 0:
            continue
        if mode == MODE_REGRESSION:
            sign = 1.0
        elif (mode == MODE_PER_CLASS and g == gr) or (mode == MODE_ANY
                                                        and g == 0):
            sign = -1.0
        elif mode == MODE_PER_CLASS:
            sign = class_factor[gr, g]
        else:
            sign = 1.0
        member_dist = np.empty(m)
        for q in range(m):
            member_dist[q] = dist[members[q]]
        order = np.argsort(member_dist)
        norm = 0.0
        for rank in range(min(k, m)):
            norm += rank_weights[rank]
        i = 0
        while i < m:
            e = i + 1
            limit = member_dist[order[i]] * (1 + TIE_RTOL)
            while e < m and member_dist[order[e]] <= limit:
                e += 1
            ties = e - i
            slots = max(0, min(ties, k - i))
            influence = 0.0
            for rank in range(i, i + slots):
                influence += rank_weights[rank]
            share = influence / ties / norm
            for q in range(i, e):
                j = members[order[q]]
                if mode == MODE_REGRESSION:
                    d_target = abs(target[r] - target[j])
                    upd[0] += d_target * share
                    _add_diffs(r, j, share, num, nom, has_missing, group, mt,
                               upd, 1)
                    _add_diffs(r, j, d_target * share, num, nom, has_missing,
                               group, mt, upd, 1 + a)
                else:
                    _add_diffs(r, j, sign * share, num, nom, has_missing,
                               group, mt, upd, 0)
            i = e


@njit(parallel=True, **_JIT)
def relief_batch(rows, num, nom, has_missing, group, mt, mode, n_groups, k,
                 rank_weights, class_factor, target, n_chunks, upd):
    """ReliefF: upd[b] = the update of visiting rows[b] (plain distance)."""
    n = num.shape[0]
    a = num.shape[1] + nom.shape[1]
    n_rows = rows.shape[0]
    ones = np.ones(a)
    for c in prange(n_chunks):
        dist = np.empty(n)
        heap = np.empty((n_groups, k))
        counts = np.zeros(n_groups, dtype=np.int64)
        selected = np.empty(n, dtype=np.int64)
        for b in range(c * n_rows // n_chunks, (c + 1) * n_rows // n_chunks):
            r = rows[b]
            _distances(r, num, nom, ones, False, has_missing, group, mt, dist,
                       0, n)
            _visit(r, dist, num, nom, has_missing, group, mt, mode, k,
                   rank_weights, class_factor, target, heap, counts, selected,
                   upd[b])


@njit(**_JIT)
def estimate(total, t, regression, out):
    """The weight estimate after t visits, as if the run stopped there.

    Classification: the sum of updates / t (Fig. relieff).  Regression:
    N_dCdA / N_dC - (N_dA - N_dCdA) / (t - N_dC) (RReliefF); a zero
    denominator makes its term 0.
    """
    a = out.shape[0]
    if not regression:
        for f in range(a):
            out[f] = total[f] / t
        return
    ndc = total[0]
    for f in range(a):
        nda, ndcda = total[1 + f], total[1 + a + f]
        first = ndcda / ndc if ndc != 0 else 0.0
        second = (nda - ndcda) / (t - ndc) if t - ndc != 0 else 0.0
        out[f] = first - second


@njit(**_JIT)
def distance_weights(current, t, variant, T, out):
    """w_A for the distance at step t (1-based) from the estimate W_{t-1}.

    dReliefF: max(0, W_{t-1}[A]); pdReliefF: max(0, f(W_{t-1}[A], t)) with
    f(w, t) = (1 - w) / t^T + w (seed eq. f).  At t = 1, or when every w_A is
    0, all w_A = 1.
    """
    a = out.shape[0]
    positive = False
    if t > 1:
        scale = 1.0 / t ** T if variant == VARIANT_PD else 0.0
        for f in range(a):
            w = current[f]
            if variant == VARIANT_PD:
                w = (1.0 - w) * scale + w
            if not w > 0.0:      # also catches NaN
                w = 0.0
            out[f] = w
            positive = positive or w > 0.0
    if not positive:
        out[:] = 1.0


@njit(**_JIT)
def feedback_batch(rows, t_done, variant, T, num, nom, has_missing, group, mt,
                   mode, n_groups, k, rank_weights, class_factor, target,
                   regression, n_chunks, total, trace_every, trace):
    """dReliefF / pdReliefF: visit ``rows`` in order, each with distance weights
    from the estimate so far (eq. progressively_weighted_distance).

    ``total`` (the running sums) is updated in place; the estimate after every
    ``trace_every``-th visit goes to the next row of ``trace``.  Returns the
    number of trace rows written.
    """
    n = num.shape[0]
    a = num.shape[1] + nom.shape[1]
    dist = np.empty(n)
    heap = np.empty((n_groups, k))
    counts = np.zeros(n_groups, dtype=np.int64)
    selected = np.empty(n, dtype=np.int64)
    current = np.zeros(a)
    w = np.ones(a)
    upd = np.empty(total.shape[0])
    written = 0
    for b in range(rows.shape[0]):
        t = t_done + b + 1
        if t > 1:
            estimate(total, t - 1, regression, current)
        distance_weights(current, t, variant, T, w)
        r = rows[b]
        if n_chunks > 1:
            _distances_parallel(r, num, nom, w, True, has_missing, group, mt,
                                dist, n_chunks)
        else:
            _distances(r, num, nom, w, True, has_missing, group, mt, dist, 0,
                       n)
        upd[:] = 0.0
        _visit(r, dist, num, nom, has_missing, group, mt, mode, k,
               rank_weights, class_factor, target, heap, counts, selected, upd)
        for i in range(total.shape[0]):
            total[i] += upd[i]
        if trace_every > 0 and t % trace_every == 0:
            estimate(total, t, regression, trace[written])
            written += 1
    return written
