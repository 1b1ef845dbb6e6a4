"""The CUDA kernels of the GPU backend (``backend.py`` beside this file),
written with numba-cuda.

Each kernel is one step of a visit of the contract (``doc/semantics.md``),
the same arithmetic as the CPU engine's, in float64:

* ``tiled_distances``: delta(R, I_j) = sum_A w_A diff(A, R, I_j) from a batch
  of visits to every instance, on complete data, in tiles of 64 visits x 64
  instances (each thread 4 x 4 of them) over chunks of 16 features staged
  in shared memory: no n x n matrix, the distances of one batch only;
* ``tiled_distances32`` (``backend.FLOAT32_SCREEN``): the same code in
  float32, a screen within ``screens.screen_bound`` of the float64 sums,
  and ``k_nearest_screened``, which takes each group's candidates within
  the widened k-th (``neighbours.widened_threshold``) and decides them by
  their float64 distances: the neighbours of the float64 distances;
* ``pair_distances``: the same sum for any data (RELIEF-D where a value is
  missing) and for one visit at a time (dReliefF, pdReliefF), 32 threads a
  pair;
* ``k_nearest_block``: each group's k nearest, those tied with the k-th
  (within TIE_RTOL) sharing its slots, with their influences
  (``neighbours.tie_shares``, ``neighbours.group_sign``), a block of threads
  a (visit, group); ``k_nearest``, one thread a (visit, group), for k > KMAX;
* ``within_radius_block``: the radius rules (``neighbours.thresholds``,
  ``neighbours.bucket``, ``neighbours.bucket_share``), a block a visit;
  ``within_radius``, one thread a visit, for more than MAX_BUCKETS / 2
  groups;
* ``updates``: a visit's update row, sum_j coef_j diff(A, R, I_j) (RReliefF's
  three sums, STIR's pair sums), one thread a (visit, feature);
* ``tiled_updates``: the same row for a batch of visits whose neighbours'
  coefficients are a dense visits x instances matrix
  (``dense_coefficients``; a radius rule's on complete data, for
  classification), in tiles of 64 visits x 64 features over chunks of 16
  instances staged in shared memory, as ``tiled_distances``: each value
  read serves 64 visits;
* ``add_rows``: a batch's update rows added to the running sums in visiting
  order, as the host adds them (the same bits), with the trace points; only
  the sums go back to the host;
* several targets and instance weights (launched by no one-target,
  unweighted run): ``updates_targets`` (``updates`` with the contract's
  ``diffs.target_diff`` for ``Targets``), ``visit_copies``
  (``neighbours.seen_weight``), ``weighted_k_nearest``
  (``neighbours.weighted_tie_shares``), ``weighted_within_radius``
  (``neighbours.weighted_spread``) and ``scale_rows``.

The arithmetic of a pair is the CPU's own, one Python function that numba
compiles for both targets (``register_jitable``): the diffs with RELIEF-D
(``diffs``, on ``MissingTables``' arrays), a pair's distance
(``distances.diff_sum``), a feature's update (``updates.feature_update``,
``target_sum``) and STIR's sums (``pair_sums.feature_pair_sums``,
``weight_sums``); the kernels here add the threads, tiles, shared memory and
barriers around it.

Distances are summed in another order than on the CPU, so they differ by
rounding (~1e-16 relative); the tie rule's tolerance (TIE_RTOL = 1e-10)
makes the neighbours the same, and the weights agree to ~1e-15.

The neighbour arithmetic is not written here: the kernels call the plain
functions of ``neighbours.py`` (``group_of``, ``group_sign``,
``tie_shares``, ``half_width``, ``thresholds``, ``bucket``,
``bucket_share``) that the CPU loops call, which numba compiles for both.
A rule reaches the kernels as its fields (``neighbours.Neighbourhood``).

The module compiles nothing until a kernel is first launched; under
``NUMBA_ENABLE_CUDASIM=1`` numba's simulator runs the same code on the CPU
(tests).
"""
import math
from types import FunctionType

from numba import cuda, float32, float64, int32, int64
from numba.core import config
from ...contract import (diffs, distances, estimates, neighbours, pair_sums,
                         updates)
from ...contract.distances import TIE_RTOL
from ...options import from_environment
from ...contract.neighbours import (MODE_ANY, MODE_REGRESSION, half_width,
                                    seen_weight, tie_shares,
                                    weighted_spread, weighted_tie_shares,
                                    widened_threshold)

# tiled_distances: a block of SIDE x SIDE threads computes TILE x TILE
# distances, each thread SUB x SUB of them, over chunks of CHUNK features
# (SIDE^2 >= CHUNK)
SUB, CHUNK, SIDE = 4, 16, 16
# pair_distances: threads per pair (a power of 2), pairs per block
LANES, PAIRS_PER_BLOCK = 32, 4
# updates: features per block
FEATURES_PER_BLOCK = 128
if config.ENABLE_CUDASIM:
    # numba's simulator runs each thread as a Python thread: the same code
    # on smaller blocks (every loop and tree above is written for any size)
    SIDE, LANES, PAIRS_PER_BLOCK, FEATURES_PER_BLOCK = 4, 2, 16, 16
TILE = SIDE * SUB
# tiled_updates: each thread UPDATE_SUB x UPDATE_SUB (visit, feature) sums
# of a tile of UPDATE_TILE x UPDATE_TILE; its 16 inlined diffs a thread at
# SUB = 4 took 255 registers and spilled (ptxas, sm_90: one block an SM),
# at 2 124 registers and no spill (two blocks an SM)
UPDATE_SUB = 2
UPDATE_TILE = SIDE * UPDATE_SUB
PAIR_THREADS = LANES * PAIRS_PER_BLOCK
# k_nearest_block / within_radius_block: threads a visit, the largest k
# (KMAX) and the most neighbour groups (MAX_BUCKETS / 2) they take; beyond,
# the one-thread kernels k_nearest / within_radius
VISIT_THREADS, KMAX, MAX_BUCKETS = 128, 16, 32
if config.ENABLE_CUDASIM:
    VISIT_THREADS = 4
VISIT_SLOTS = VISIT_THREADS + 1     # (a constant: numba folds no sums)
# feedback_visits: blocks of FEEDBACK_THREADS threads (a visit's neighbours
# are chosen by one block a group: the more threads, the sooner), LANES a
# pair; compiled for that block size, so at most 65,536 / FEEDBACK_THREADS
# registers a thread: on sm_90 (ptxas) 1,024 threads spill ~0.9 KB a
# thread, 512 ~0.2 KB, 256 nothing.  Which is fastest is for a GPU to say:
# the environment variable FEEDBACK_THREADS_VARIABLE chooses (doc/gpu.md)
FEEDBACK_THREADS_VARIABLE = "ORANGE3_RELIEF_CUDA_FEEDBACK_THREADS"
FEEDBACK_THREADS = int(from_environment(FEEDBACK_THREADS_VARIABLE,
                                        ("256", "512", "1024"), "1024"))
if config.ENABLE_CUDASIM:
    FEEDBACK_THREADS = 4
FEEDBACK_SLOTS = FEEDBACK_THREADS + 1
FEEDBACK_PAIRS = FEEDBACK_THREADS // LANES



def _rebuilt(function, **calls):
    """``function`` (its Python code) calling ``calls`` in place of the
    functions of those names."""
    return FunctionType(
        function.__code__, dict(function.__globals__, **calls),
        function.__name__, function.__defaults__, function.__closure__)


def _device(function, **calls):
    """The CPU's ``function`` (the same Python code) as a device function,
    calling the device functions ``calls`` where the CPU inlines its own
    (``register_jitable(inline="always")``: an inlining numba-cuda 0.30
    fails to type)."""
    return cuda.jit(device=True)(_rebuilt(function, **calls))


def _python(function):
    """The Python function of a kernel or device function (the
    simulator's keeps it as ``fn``)."""
    return getattr(function, "py_func", None) or function.fn


numeric_diff, nominal_diff = (_device(function) for function in (
    diffs.numeric_diff, diffs.nominal_diff))
_column_diff, diff_sum = (
    _device(function, numeric_diff=numeric_diff, nominal_diff=nominal_diff)
    for function in (diffs.column_diff, distances.diff_sum))
# one target: ``diffs.target_difference`` (whose inlining numba-cuda fails
# to type through the overload ``diffs.target_diff``)
_target_diff = _device(diffs.target_difference)
target_sum = _device(updates.target_sum, target_diff=_target_diff)
weight_sums = _device(pair_sums.weight_sums)
_pair_terms = _device(pair_sums.pair_terms)
feature_update, feature_pair_sums = (
    _device(function, column_diff=_column_diff, target_diff=_target_diff,
            pair_terms=_pair_terms)
    for function in (updates.feature_update, pair_sums.feature_pair_sums))
# several targets (``diffs.Targets``, multi-target Relief): the contract's
# ``diffs.target_diff`` itself, which picks ``targets_difference`` by type
# (``updates_targets``)
targets_sum = _device(updates.target_sum)
targets_feature_update = _device(updates.feature_update,
                                 column_diff=_column_diff)


@cuda.jit(device=True, inline=True)
def _never_missing(sorted_vals, prefix, start, pstart, count, v):
    """Stands for ``diffs.expected_abs`` (RELIEF-D's search of a sorted
    law) where data is complete, so never reached: NaN if it were."""
    return math.nan


# numeric_diff for complete data (``tiled_updates``): the same function,
# without RELIEF-D's search, whose loop keeps the compiler from holding a
# tile's sums in registers (a 288-byte local-memory array a thread with it)
complete_numeric_diff = _device(diffs.numeric_diff,
                                expected_abs=_never_missing)
group_of, group_sign, thresholds, bucket, bucket_share = (
    _device(function) for function in (
        neighbours.group_of, neighbours.group_sign, neighbours.thresholds,
        neighbours.bucket, neighbours.bucket_share))
estimate_range = _device(estimates.estimate_range)
# (numba-cuda has no np.exp: blend's logistic ramp takes math.exp, CUDA's)
feature_step_weight = _device(
    estimates.feature_step_weight, estimate_range=estimate_range,
    weights_of=_device(
        estimates.weights_of.py_func, **{
            name: _device(getattr(estimates, name).py_func, np=math)
            for name in ("blend", "progressive", "residue", "blended")}))


@cuda.jit
def tiled_distances(x, codes, rows, w, out):
    """out[b, j] = sum_A w_A diff(A, R_b, I_j) for R_b = rows[b], complete
    data: numeric columns ``x`` (n x a_num), nominal codes ``codes`` (n x
    a_nom, int32, staged as float64).  Each feature's values are multiplied by w_A when
    staged (|w x - w y| = w |x - y| for w >= 0)."""
    n = x.shape[0]
    a_num = x.shape[1]
    a_nom = codes.shape[1]
    n_visits = rows.shape[0]
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    thread = ty * SIDE + tx
    v0 = cuda.blockIdx.x * TILE
    j0 = cuda.blockIdx.y * TILE
    visits = cuda.shared.array((CHUNK, TILE), float64)
    others = cuda.shared.array((CHUNK, TILE), float64)
    weights = cuda.shared.array(CHUNK, float64)
    acc = cuda.local.array((SUB, SUB), float64)
    for p in range(SUB):
        for q in range(SUB):
            acc[p, q] = 0.0
    for f0 in range(0, a_num, CHUNK):
        for e in range(thread, CHUNK * TILE, SIDE * SIDE):
            f = e % CHUNK
            i = e // CHUNK
            col = f0 + f
            vv = 0.0
            jj = 0.0
            if col < a_num:
                wf = w[col]
                if v0 + i < n_visits:
                    vv = wf * x[rows[v0 + i], col]
                if j0 + i < n:
                    jj = wf * x[j0 + i, col]
            visits[f, i] = vv
            others[f, i] = jj
        cuda.syncthreads()
        for f in range(CHUNK):
            for p in range(SUB):
                xj = others[f, tx + SIDE * p]
                for q in range(SUB):
                    acc[p, q] += abs(xj - visits[f, ty + SIDE * q])
        cuda.syncthreads()
    for g0 in range(0, a_nom, CHUNK):
        for e in range(thread, CHUNK * TILE, SIDE * SIDE):
            f = e % CHUNK
            i = e // CHUNK
            col = g0 + f
            vv = -1.0
            jj = -1.0
            if col < a_nom:
                if v0 + i < n_visits:
                    vv = codes[rows[v0 + i], col]
                if j0 + i < n:
                    jj = codes[j0 + i, col]
            visits[f, i] = vv
            others[f, i] = jj
        if thread < CHUNK:
            weights[thread] = w[a_num + g0 + thread] \
                if g0 + thread < a_nom else 0.0
        cuda.syncthreads()
        for f in range(CHUNK):
            wf = weights[f]
            for p in range(SUB):
                cj = others[f, tx + SIDE * p]
                for q in range(SUB):
                    if cj != visits[f, ty + SIDE * q]:
                        acc[p, q] += wf
        cuda.syncthreads()
    for p in range(SUB):
        j = j0 + tx + SIDE * p
        for q in range(SUB):
            b = v0 + ty + SIDE * q
            if j < n and b < n_visits:
                out[b, j] = acc[p, q]


# The float32 screen of ``tiled_distances`` (``backend.FLOAT32_SCREEN``):
# the same Python code compiled with float32 tiles and sums (values rounded
# to float32 when staged), so |D~ - D| <= c + gamma D~ with
# ``screens.screen_bound``'s (c, gamma); it never decides a neighbour
# (``k_nearest_screened`` settles the candidates in float64)
tiled_distances32 = cuda.jit(_rebuilt(_python(tiled_distances),
                                      float64=float32))


@cuda.jit
def pair_distances(x, codes, rows, w, group, num_sorted, num_prefix,
                   num_start, num_pstart, num_count, num_both, nom_prob,
                   nom_both, out):
    """out[b, j] = sum_A w_A diff(A, R_b, I_j), any dense data (RELIEF-D
    from the tables of ``MissingTables``), LANES threads a pair
    (``_pair_distance``)."""
    n = x.shape[0]
    partial = cuda.shared.array(PAIR_THREADS, float64)
    t = cuda.threadIdx.x
    pair = cuda.blockIdx.x * PAIRS_PER_BLOCK + t // LANES
    _pair_distance(pair // n, pair % n, t, pair // n < rows.shape[0], rows,
                   x, codes, group, num_sorted, num_prefix, num_start,
                   num_pstart, num_count, num_both, nom_prob, nom_both, w,
                   partial, out)


@cuda.jit(device=True)
def _pair_distance(b, j, t, valid, rows, x, codes, group, num_sorted,
                   num_prefix, num_start, num_pstart, num_count, num_both,
                   nom_prob, nom_both, w, partial, out):
    """out[b, j] = delta(R_b, I_j) where ``valid``, by the LANES threads of
    the block whose thread t // LANES is this pair's: each lane sums a
    strided part of the features (``distances.diff_sum``, the CPU's own
    function), then a tree in ``partial`` (shared, a slot a thread) adds
    the parts.  Every thread of the block calls it (its barriers)."""
    s = _lane_distance(b, j, t, valid, rows, x, codes, group, num_sorted,
                       num_prefix, num_start, num_pstart, num_count,
                       num_both, nom_prob, nom_both, w, partial)
    if t % LANES == 0 and valid:
        out[b, j] = s


@cuda.jit(device=True)
def _lane_distance(b, j, t, valid, rows, x, codes, group, num_sorted,
                   num_prefix, num_start, num_pstart, num_count, num_both,
                   nom_prob, nom_both, w, partial):
    """delta(R_b, I_j) summed by the LANES threads of this pair (each lane
    a strided part, ``distances.diff_sum``; a tree in ``partial`` adds the
    parts): returned to lane 0 (the other lanes get a part).  Every thread
    of the block calls it (its barriers)."""
    lane = t % LANES
    s = 0.0
    if valid:
        s = diff_sum(rows[b], j, x, codes, group, num_sorted, num_prefix,
                     num_start, num_pstart, num_count, num_both, nom_prob,
                     nom_both, w, True, lane, LANES)
    partial[t] = s
    # every lane's part is written before the tree reads it
    cuda.syncthreads()
    step = LANES // 2
    while step > 0:
        if lane < step:
            partial[t] += partial[t + step]
        # this level's sums are written before the next level reads them
        cuda.syncthreads()
        step //= 2
    return partial[t]


@cuda.jit(device=True, inline=True)
def _group_start(g, gr, mode, group_start):
    """Where group g of a visit of class gr starts in the visit's list:
    its class's first position (per-class groups), after the hits (all
    misses together), 0 (regression)."""
    if mode == MODE_ANY:
        return 0 if g == 0 else group_start[gr + 1] - group_start[gr]
    if mode == MODE_REGRESSION:
        return 0
    return group_start[g]


@cuda.jit(device=True, inline=True)
def _keep_smallest(top, held, k, d):
    """Add distance d to ``top[:held]``, the k smallest so far in order;
    returns the new count."""
    if held < k:
        q = held
        held += 1
    elif d < top[k - 1]:
        q = k - 1
    else:
        return held
    while q > 0 and top[q - 1] > d:
        top[q] = top[q - 1]
        q -= 1
    top[q] = d
    return held


@cuda.jit(device=True)
def _sort_and_share(b, g, gr, mode, start, m, k, rank_weights, class_factor,
                    chosen, member_dist, coef, counts):
    """Sort the m candidates of visit b's group g (``chosen[b, start:]``,
    distances in ``member_dist``; the visit's class gr) by distance and
    give them the shares of ``neighbours.tie_shares``; counts[b, g] = how
    many it keeps."""
    for i in range(1, m):
        d = member_dist[b, start + i]
        j = chosen[b, start + i]
        q = i
        while q > 0 and member_dist[b, start + q - 1] > d:
            member_dist[b, start + q] = member_dist[b, start + q - 1]
            chosen[b, start + q] = chosen[b, start + q - 1]
            q -= 1
        member_dist[b, start + q] = d
        chosen[b, start + q] = j
    counts[b, g] = tie_shares(member_dist[b, start:start + m], k,
                              rank_weights,
                              group_sign(mode, g, gr, class_factor),
                              coef[b, start:])


@cuda.jit
def k_nearest(dist, rows, group, mode, n_groups, k, rank_weights,
              class_factor, group_start, heap, chosen, member_dist, coef,
              counts):
    """Each (visit b, group g), one thread: the k nearest of the group (the
    k-th found with a sorted list in ``heap``), then every member within
    (1 + TIE_RTOL) of the k-th into ``chosen[b, start_g:]`` with its share
    (``_sort_and_share``); ``counts[b, g]`` of them.  ``group_start``:
    where each class's members start in a visit's list.  (Any k; for k <=
    KMAX ``k_nearest_block`` is faster.)"""
    t = cuda.grid(1)
    n = dist.shape[1]
    b = t // n_groups
    g = t % n_groups
    if b >= rows.shape[0]:
        return
    r = rows[b]
    gr = group[r]
    start = _group_start(g, gr, mode, group_start)
    held = 0
    for j in range(n):
        if j == r or group_of(group[j], gr, mode == MODE_ANY) != g:
            continue
        held = _keep_smallest(heap[t], held, k, dist[b, j])
    counts[b, g] = 0
    if held == 0:
        return
    limit = heap[t, k - 1] * (1 + TIE_RTOL) if held == k else math.inf
    m = 0
    for j in range(n):
        if j == r or group_of(group[j], gr, mode == MODE_ANY) != g:
            continue
        d = dist[b, j]
        if d <= limit:
            member_dist[b, start + m] = d
            chosen[b, start + m] = j
            m += 1
    _sort_and_share(b, g, gr, mode, start, m, k, rank_weights,
                    class_factor, chosen, member_dist, coef, counts)


@cuda.jit
def k_nearest_block(dist, rows, group, mode, n_groups, k, rank_weights,
                    class_factor, group_start, chosen, member_dist, coef,
                    counts):
    """``k_nearest`` with a block of VISIT_THREADS threads for each (visit
    b, group g), k <= KMAX: each thread keeps the k smallest of its rows
    (j = thread, thread + VISIT_THREADS, ...), the block takes the k
    smallest of those one at a time (the k-th distance), then every thread
    lists its members within (1 + TIE_RTOL) of it at positions from a
    prefix sum, and one thread sorts them and gives the shares."""
    _block_k_nearest(cuda.blockIdx.x // n_groups, cuda.blockIdx.x % n_groups,
                     cuda.threadIdx.x, VISIT_THREADS,
                     cuda.shared.array(VISIT_THREADS, float64),
                     cuda.shared.array(VISIT_THREADS, int32),
                     cuda.shared.array(VISIT_SLOTS, int32), dist, rows,
                     group, mode, n_groups, k, rank_weights, class_factor,
                     group_start, chosen, member_dist, coef, counts)


@cuda.jit(device=True)
def _running_sums(counts, t, threads):
    """counts[1:threads + 1] (thread t's in counts[t + 1]) into their
    running sums in place, counts[0] = 0, by the block's ``threads``
    threads in log2(threads) rounds (each adds the sum ``step`` slots
    before); every thread of the block calls it."""
    if t == 0:
        counts[0] = 0
    step = 1
    while step < threads:
        # the previous round's sums are written before this round reads
        cuda.syncthreads()
        add = counts[t + 1 - step] if t >= step else 0
        # every read of this round is done before any slot changes
        cuda.syncthreads()
        counts[t + 1] += add
        step *= 2
    cuda.syncthreads()


@cuda.jit(device=True)
def _block_k_nearest(b, g, t, threads, best, owner, offset, dist, rows,
                     group, mode, n_groups, k, rank_weights, class_factor,
                     group_start, chosen, member_dist, coef, counts):
    """``k_nearest_block``'s work for (visit b, group g), by the ``threads``
    threads of a block (a power of 2; t: this thread; every thread of the
    block calls it), with the block's shared arrays ``best``, ``owner``
    (a slot a thread) and ``offset`` (threads + 1)."""
    start, m = _block_candidates(b, g, t, threads, best, owner, offset,
                                 dist, rows, group, mode, k, 0.0, 0.0,
                                 group_start, chosen, member_dist)
    if t == 0:
        _sort_and_share(b, g, group[rows[b]], mode, start, m, k,
                        rank_weights, class_factor, chosen, member_dist,
                        coef, counts)


@cuda.jit(device=True)
def _block_candidates(b, g, t, threads, best, owner, offset, dist, rows,
                      group, mode, k, c_err, gamma, group_start, chosen,
                      member_dist):
    """The candidates of (visit b, group g) by a block (as
    ``_block_k_nearest``): the block's k-th smallest of ``dist[b]`` among
    the group's members, then every member within its widened threshold
    (``neighbours.widened_threshold`` for distances within c_err + gamma D
    of the float64 ones; 0, 0: float64 distances, the k-th's ties) into
    ``chosen[b, start:start + m]`` with its distance in ``member_dist``.
    Returns (start, m), the same in every thread."""
    n = dist.shape[1]
    r = rows[b]
    gr = group[r]
    top = cuda.local.array(KMAX, float64)
    held = 0
    for j in range(t, n, threads):
        if j == r or group_of(group[j], gr, mode == MODE_ANY) != g:
            continue
        held = _keep_smallest(top, held, k, dist[b, j])
    # the block's k smallest, one per round: the smallest head of the
    # threads' lists (ties: the lowest thread), whose owner moves on
    taken = 0
    kth = math.inf
    n_taken = 0
    for _ in range(k):
        best[t] = top[taken] if taken < held else math.inf
        owner[t] = t
        cuda.syncthreads()
        step = threads // 2
        while step > 0:
            if t < step:
                other = best[t + step]
                if other < best[t] or (other == best[t]
                                       and owner[t + step] < owner[t]):
                    best[t] = other
                    owner[t] = owner[t + step]
            cuda.syncthreads()
            step //= 2
        smallest = best[0]
        if owner[0] == t:
            taken += 1
        cuda.syncthreads()
        if smallest == math.inf:
            break
        kth = smallest
        n_taken += 1
    limit = widened_threshold(kth, c_err, gamma) if n_taken == k \
        else math.inf
    mine = 0
    for j in range(t, n, threads):
        if j != r and group_of(group[j], gr, mode == MODE_ANY) == g \
                and dist[b, j] <= limit:
            mine += 1
    offset[t + 1] = mine
    _running_sums(offset, t, threads)
    start = _group_start(g, gr, mode, group_start)
    position = start + offset[t]
    for j in range(t, n, threads):
        if j != r and group_of(group[j], gr, mode == MODE_ANY) == g:
            d = dist[b, j]
            if d <= limit:
                member_dist[b, position] = d
                chosen[b, position] = j
                position += 1
    cuda.syncthreads()
    return start, offset[threads]


@cuda.jit
def k_nearest_screened(dist, c_err, gamma, x, codes, rows, group,
                       num_sorted, num_prefix, num_start, num_pstart,
                       num_count, num_both, nom_prob, nom_both, w, mode,
                       n_groups, k, rank_weights, class_factor, group_start,
                       chosen, member_dist, coef, counts):
    """``k_nearest_block`` on screening distances ``dist`` (float32,
    ``tiled_distances32``; |D~ - D| <= c_err + gamma D~): the members
    within the widened k-th (``_block_candidates``) are the candidates; the
    block computes their float64 distances (``_lane_distance``, LANES
    threads a candidate), then sorts them and gives the shares, which drop
    the candidates beyond the k-th and its ties (``neighbours.tie_shares``):
    the neighbours and shares of the float64 distances."""
    b = cuda.blockIdx.x // n_groups
    g = cuda.blockIdx.x % n_groups
    t = cuda.threadIdx.x
    best = cuda.shared.array(VISIT_THREADS, float64)
    start, m = _block_candidates(
        b, g, t, VISIT_THREADS, best, cuda.shared.array(VISIT_THREADS, int32),
        cuda.shared.array(VISIT_SLOTS, int32), dist, rows, group, mode, k,
        c_err, gamma, group_start, chosen, member_dist)
    pairs = VISIT_THREADS // LANES
    for first in range(0, m, pairs):
        q = first + t // LANES
        j = chosen[b, start + q] if q < m else 0
        # (``best`` is spent: the lanes' parts)
        d = _lane_distance(b, j, t, q < m, rows, x, codes, group,
                           num_sorted, num_prefix, num_start, num_pstart,
                           num_count, num_both, nom_prob, nom_both, w, best)
        if t % LANES == 0 and q < m:
            member_dist[b, start + q] = d
        # every lane has read its part before the next candidates' parts
        cuda.syncthreads()
    if t == 0:
        _sort_and_share(b, g, group[rows[b]], mode, start, m, k,
                        rank_weights, class_factor, chosen, member_dist,
                        coef, counts)


@cuda.jit
def within_radius(dist, rows, group, mode, n_groups, pair_mean_radius,
                  deviations, far, far_sameness, surf_radius, class_factor,
                  bucket_counts, chosen, coef, counts, constant):
    """Each visit b (one thread): the radius rule's near and far
    neighbours (``neighbours._within_radius``; the rule's fields
    ``pair_mean_radius``, ``deviations``, ``far``, ``far_sameness``):
    SURF's threshold ``surf_radius[b]``, or MultiSURF's mean -+
    ``deviations`` standard deviations of the visit's distances; a distance
    within TIE_RTOL |centre| of a threshold is in neither set.  Each group's
    near members get sign / count, its far ones -sign / count (with
    ``far_sameness`` the far groups add sign to ``constant[b]``); listed
    bucket by bucket in ``chosen[b]``, ``counts[b, 0]`` in all."""
    b = cuda.grid(1)
    n = dist.shape[1]
    if b >= rows.shape[0]:
        return
    r = rows[b]
    gr = group[r]
    centre = surf_radius[b]
    half = 0.0
    if not pair_mean_radius:
        total = 0.0
        for j in range(n):
            if j != r:
                total += dist[b, j]
        centre = total / (n - 1)
        squares = 0.0
        for j in range(n):
            if j != r:
                squares += (dist[b, j] - centre) ** 2
        half = half_width(squares, n - 1, deviations)
    low, high = thresholds(centre, half)
    n_buckets = 2 * n_groups
    for bk in range(n_buckets):
        bucket_counts[b, bk] = 0
    for j in range(n):
        if j != r:
            bk = bucket(dist[b, j], low, high, far,
                        group_of(group[j], gr, mode == MODE_ANY))
            if bk >= 0:
                bucket_counts[b, bk] += 1
    # bucket_counts becomes each bucket's next free position
    position = 0
    for bk in range(n_buckets):
        count = bucket_counts[b, bk]
        bucket_counts[b, bk] = position
        position += count
    counts[b, 0] = position
    for j in range(n):
        if j != r:
            bk = bucket(dist[b, j], low, high, far,
                        group_of(group[j], gr, mode == MODE_ANY))
            if bk >= 0:
                chosen[b, bucket_counts[b, bk]] = j
                bucket_counts[b, bk] += 1
    extra = 0.0
    begin = 0
    for bk in range(n_buckets):
        end = bucket_counts[b, bk]
        count = end - begin
        if count:
            sign = group_sign(mode, bk // 2, gr, class_factor)
            share = bucket_share(bk, count, sign)
            for q in range(begin, end):
                coef[b, q] = share
            if bk % 2 == 1 and far_sameness:
                extra += sign
        begin = end
    constant[b] = extra


@cuda.jit(device=True)
def _block_sum(scratch, t, value):
    """The sum of ``value`` over the block's VISIT_THREADS threads (a tree
    in ``scratch``); every thread gets it."""
    scratch[t] = value
    cuda.syncthreads()
    step = VISIT_THREADS // 2
    while step > 0:
        if t < step:
            scratch[t] += scratch[t + step]
        cuda.syncthreads()
        step //= 2
    total = scratch[0]
    cuda.syncthreads()
    return total


@cuda.jit
def within_radius_block(dist, rows, group, mode, n_groups, pair_mean_radius,
                        deviations, far, far_sameness, surf_radius,
                        class_factor, chosen, coef, counts, constant):
    """``within_radius`` with a block of VISIT_THREADS threads a visit (at
    most MAX_BUCKETS / 2 groups): the mean and standard deviation as block
    sums, each thread's rows (j = thread, thread + VISIT_THREADS, ...)
    counted per bucket, positions from those counts (bucket by bucket),
    then listed with their bucket's share."""
    b = cuda.blockIdx.x
    t = cuda.threadIdx.x
    n = dist.shape[1]
    r = rows[b]
    gr = group[r]
    scratch = cuda.shared.array(VISIT_THREADS, float64)
    tally = cuda.shared.array((VISIT_THREADS, MAX_BUCKETS), int32)
    share = cuda.shared.array(MAX_BUCKETS, float64)
    centre = surf_radius[b]
    half = 0.0
    if not pair_mean_radius:
        part = 0.0
        for j in range(t, n, VISIT_THREADS):
            if j != r:
                part += dist[b, j]
        centre = _block_sum(scratch, t, part) / (n - 1)
        part = 0.0
        for j in range(t, n, VISIT_THREADS):
            if j != r:
                part += (dist[b, j] - centre) ** 2
        half = half_width(_block_sum(scratch, t, part), n - 1, deviations)
    low, high = thresholds(centre, half)
    n_buckets = 2 * n_groups
    for bk in range(n_buckets):
        tally[t, bk] = 0
    for j in range(t, n, VISIT_THREADS):
        if j != r:
            bk = bucket(dist[b, j], low, high, far,
                         group_of(group[j], gr, mode == MODE_ANY))
            if bk >= 0:
                tally[t, bk] += 1
    cuda.syncthreads()
    if t == 0:
        position = 0
        extra = 0.0
        for bk in range(n_buckets):
            begin = position
            for i in range(VISIT_THREADS):
                count = tally[i, bk]
                tally[i, bk] = position
                position += count
            count = position - begin
            share[bk] = 0.0
            if count:
                sign = group_sign(mode, bk // 2, gr, class_factor)
                share[bk] = bucket_share(bk, count, sign)
                if bk % 2 == 1 and far_sameness:
                    extra += sign
        counts[b, 0] = position
        constant[b] = extra
    cuda.syncthreads()
    for j in range(t, n, VISIT_THREADS):
        if j != r:
            bk = bucket(dist[b, j], low, high, far,
                         group_of(group[j], gr, mode == MODE_ANY))
            if bk >= 0:
                position = tally[t, bk]
                chosen[b, position] = j
                coef[b, position] = share[bk]
                tally[t, bk] = position + 1


@cuda.jit
def updates(x, codes, rows, group, target, regression, with_sums,
            num_sorted, num_prefix, num_start, num_pstart, num_count,
            num_both, nom_prob, nom_both, segment_start, segment_count,
            chosen, coef, constant, out):
    """out[b] = the update row of visit b: constant[b] + sum_j coef_j
    diff(A, R, I_j) over its neighbours (``chosen[b]``, segments
    ``segment_start[b, s]`` of ``segment_count[b, s]`` entries); RReliefF's
    three sums in regression; with ``with_sums`` STIR's sums after the
    weights (``pairsums`` layout).  One thread a (visit, feature), each
    calling the CPU's own functions (``updates.feature_update``,
    ``pair_sums.feature_pair_sums``); feature 0's thread also writes the
    sums that are not per feature (``updates.target_sum``,
    ``pair_sums.weight_sums``)."""
    f = cuda.blockIdx.x * FEATURES_PER_BLOCK + cuda.threadIdx.x
    b = cuda.blockIdx.y
    if b < rows.shape[0] and f < x.shape[1] + codes.shape[1]:
        _update_row(b, f, x, codes, rows, group, target, regression,
                    with_sums, num_sorted, num_prefix, num_start, num_pstart,
                    num_count, num_both, nom_prob, nom_both, segment_start,
                    segment_count, chosen, coef, constant, out, constant,
                    False)


@cuda.jit(device=True, inline=True)
def _put(out, b, e, value, total, direct):
    """Entry e of visit b's update row: out[b, e] = value, or, ``direct``,
    added to the running sums: total[e] += value (the same operation as
    ``add_rows``' and the host's, so the same bits)."""
    if direct:
        total[e] += value
    else:
        out[b, e] = value


@cuda.jit(device=True)
def _update_row(b, f, x, codes, rows, group, target, regression, with_sums,
                num_sorted, num_prefix, num_start, num_pstart, num_count,
                num_both, nom_prob, nom_both, segment_start, segment_count,
                chosen, coef, constant, out, total, direct):
    """``updates``' entries of feature f in visit b's row (and, for f = 0,
    those not per feature), into ``out`` or, ``direct``, added to ``total``
    (``_put``: each entry by the thread that computes it)."""
    a = x.shape[1] + codes.shape[1]
    r = rows[b]
    mine, coefs = chosen[b], coef[b]
    near = joint = target_total = 0.0
    s1_hit = s2_hit = s1_miss = s2_miss = 0.0
    w_hit = q_hit = w_miss = q_miss = 0.0
    for s in range(segment_start.shape[1]):
        begin = segment_start[b, s]
        end = begin + segment_count[b, s]
        near, joint = feature_update(
            f, r, mine, coefs, begin, end, x, codes, group, num_sorted,
            num_prefix, num_start, num_pstart, num_count, num_both, nom_prob,
            nom_both, target, regression, near, joint)
        if with_sums:
            s1_hit, s2_hit, s1_miss, s2_miss = feature_pair_sums(
                f, r, mine, coefs, begin, end, x, codes, group, num_sorted,
                num_prefix, num_start, num_pstart, num_count, num_both,
                nom_prob, nom_both, s1_hit, s2_hit, s1_miss, s2_miss)
        if f == 0 and regression:
            target_total = target_sum(r, mine, coefs, begin, end, target,
                                      target_total)
        if f == 0 and with_sums:
            w_hit, q_hit, w_miss, q_miss = weight_sums(
                coefs, begin, end, w_hit, q_hit, w_miss, q_miss)
    if regression:
        _put(out, b, 1 + f, near, total, direct)
        _put(out, b, 1 + a + f, joint, total, direct)
        if f == 0:
            _put(out, b, 0, target_total, total, direct)
        return
    _put(out, b, f, constant[b] + near, total, direct)
    if with_sums:
        _put(out, b, a + f, s1_hit, total, direct)
        _put(out, b, 2 * a + f, s2_hit, total, direct)
        _put(out, b, 3 * a + f, s1_miss, total, direct)
        _put(out, b, 4 * a + f, s2_miss, total, direct)
        if f == 0:
            _put(out, b, 5 * a, w_hit, total, direct)
            _put(out, b, 5 * a + 1, q_hit, total, direct)
            _put(out, b, 5 * a + 2, w_miss, total, direct)
            _put(out, b, 5 * a + 3, q_miss, total, direct)


@cuda.jit(**({} if config.ENABLE_CUDASIM
             else dict(launch_bounds=FEEDBACK_THREADS)))
def feedback_visits(x, codes, rows, group, target, regression, with_sums,
                    num_sorted, num_prefix, num_start, num_pstart, num_count,
                    num_both, nom_prob, nom_both, mode, n_groups, k,
                    rank_weights, class_factor, group_start, variant, T,
                    n_fixed, fixed, done, trace_every, total, w, current,
                    positive, dist, chosen, member_dist, coef, counts,
                    segment_start, constant, out, trace):
    """dReliefF's and pdReliefF's visits ``rows`` (those after ``done``),
    one after the other, in one launch: for each, every thread of the grid
    takes its part of each step of ``base.Backend.visit_in_order`` and the
    grid waits at a barrier (cooperative launch) between the steps:

    1. the distance weights of step t from the sums ``total`` so far
       (``_step_weights``, a thread a feature; ``positive[v]`` counts those
       > 0, none: the fixed ones or 1);
    2. the distances from R to every instance (``_pair_distance``);
    3. each group's k nearest (``_block_k_nearest``, a block a group);
    4. the update row (``_update_row``, a thread a feature), each entry
       added to ``total`` by the thread that computes it (the host's order:
       one visit after the other); then, by the same threads, at the trace
       points the estimate into the next row of ``trace``, and step 1 of
       the next visit.

    A thread's features are the same in steps 4 and 1 (f = me, me +
    everyone, ...), and in classification w_f and the estimate of f read
    only total[f]: so step 4 needs no barrier before the next visit's
    step 1, and a visit waits at three barriers (regression at four: every
    feature's estimate reads total[0], the f = 0 thread's).  The buffers
    (dist, chosen, member_dist, coef, counts, segment_start, constant) hold
    one visit (``out``: not written).  ``fixed[:n_fixed]``: the fixed
    distance weights (none: n_fixed = 0)."""
    grid = cuda.cg.this_grid()
    t = cuda.threadIdx.x
    me = cuda.grid(1)
    everyone = cuda.gridsize(1)
    block = cuda.blockIdx.x
    blocks = cuda.gridDim.x
    n = x.shape[0]
    a = w.shape[0]
    partial = cuda.shared.array(FEEDBACK_THREADS, float64)
    best = cuda.shared.array(FEEDBACK_THREADS, float64)
    owner = cuda.shared.array(FEEDBACK_THREADS, int32)
    offset = cuda.shared.array(FEEDBACK_SLOTS, int32)
    fixed_weights = fixed[:n_fixed]
    written = 0
    if rows.shape[0]:
        _step_weights(0, done + 1, me, everyone, total, variant, T,
                      regression, n, fixed_weights, current, w, positive)
    for v in range(rows.shape[0]):
        step = done + v + 1
        visit = rows[v:v + 1]
        # every distance weight of the step (and its count) is written
        grid.sync()
        # the same count everywhere after the barrier: all or none wait
        if positive[v] == 0:
            for f in range(me, a, everyone):
                w[f] = fixed_weights[f] if n_fixed else 1.0
            grid.sync()
        for first in range(block * FEEDBACK_PAIRS, n,
                           blocks * FEEDBACK_PAIRS):
            j = first + t // LANES
            _pair_distance(0, j, t, j < n, visit, x, codes, group,
                           num_sorted, num_prefix, num_start, num_pstart,
                           num_count, num_both, nom_prob, nom_both, w,
                           partial, dist)
        grid.sync()
        for g in range(block, n_groups, blocks):
            _block_k_nearest(0, g, t, FEEDBACK_THREADS, best, owner, offset,
                             dist, visit, group, mode, n_groups, k,
                             rank_weights, class_factor, group_start, chosen,
                             member_dist, coef, counts)
        for g in range(me, segment_start.shape[1], everyone):
            segment_start[0, g] = _group_start(g, group[visit[0]], mode,
                                               group_start)
        grid.sync()
        for f in range(me, a, everyone):
            _update_row(0, f, x, codes, visit, group, target, regression,
                        with_sums, num_sorted, num_prefix, num_start,
                        num_pstart, num_count, num_both, nom_prob, nom_both,
                        segment_start, counts, chosen, coef, constant, out,
                        total, True)
        if regression:
            # total[0] is written before every feature's estimate reads it
            grid.sync()
        if trace_every and step % trace_every == 0:
            for f in range(me, a, everyone):
                estimate_range(total, step, regression, trace[written], f,
                               f + 1)
            written += 1
        if v + 1 < rows.shape[0]:
            _step_weights(v + 1, step + 1, me, everyone, total, variant, T,
                          regression, n, fixed_weights, current, w, positive)


@cuda.jit(device=True)
def _step_weights(v, step, me, everyone, total, variant, T, regression, n,
                  fixed, current, w, positive):
    """``feedback_visits``' step 1 for visit v (step ``step``): this
    thread's features' distance weights w_f (f = me, me + everyone, ...;
    ``estimates.feature_step_weight``), and how many are positive added to
    positive[v]."""
    mine = 0
    for f in range(me, w.shape[0], everyone):
        mine += feature_step_weight(total, step, variant, T, regression,
                                    n, fixed, current, w, f)
    if mine:
        cuda.atomic.add(positive, v, mine)


@cuda.jit
def dense_coefficients(chosen, coef, counts, dense):
    """dense[b, j] = the coefficient of instance j in visit b's update, 0
    where j is not a neighbour: a radius rule's list (``chosen[b]``,
    ``coef[b]``, ``counts[b, 0]`` long; each instance in it once) spread
    over a row of n for ``tiled_updates``.  A block a visit."""
    b = cuda.blockIdx.x
    t = cuda.threadIdx.x
    step = cuda.blockDim.x
    for j in range(t, dense.shape[1], step):
        dense[b, j] = 0.0
    # the whole row is zero before any thread writes a coefficient into it
    cuda.syncthreads()
    for e in range(t, counts[b, 0], step):
        dense[b, chosen[b, e]] = coef[b, e]


@cuda.jit(device=True, inline=True)
def _value(x, codes, i, f):
    """Kernel column f of instance i (numeric columns first, then the
    nominal codes) as float64; 0 past the last column."""
    a_num = x.shape[1]
    if f < a_num:
        return x[i, f]
    if f < a_num + codes.shape[1]:
        return float64(codes[i, f - a_num])
    return 0.0


@cuda.jit
def tiled_updates(x, codes, rows, group, num_sorted, num_prefix, num_start,
                  num_pstart, num_count, num_both, nom_prob, nom_both,
                  dense, constant, out):
    """out[b, A] = constant[b] + sum_j dense[b, j] diff(A, R_b, I_j) for R_b
    = rows[b] (``updates``' row for classification without STIR's sums,
    the neighbours' coefficients as a dense matrix): a block of SIDE x SIDE
    threads computes UPDATE_TILE visits x UPDATE_TILE features, each
    thread UPDATE_SUB x UPDATE_SUB of them, R_b's values held in registers
    and the instances staged CHUNK at a time in shared memory with their
    coefficients for the tile's visits (a chunk with none skipped).  Each
    term is ``diffs``' own ``numeric_diff`` (as ``complete_numeric_diff``)
    / ``nominal_diff``; complete data only (RELIEF-D's tables are never
    read)."""
    n = x.shape[0]
    a_num = x.shape[1]
    a = a_num + codes.shape[1]
    n_visits = rows.shape[0]
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    thread = ty * SIDE + tx
    v0 = cuda.blockIdx.x * UPDATE_TILE
    f0 = cuda.blockIdx.y * UPDATE_TILE
    values = cuda.shared.array((CHUNK, UPDATE_TILE), float64)
    coefs = cuda.shared.array((CHUNK, UPDATE_TILE), float64)
    classes = cuda.shared.array(CHUNK, int64)
    mine = cuda.local.array((UPDATE_SUB, UPDATE_SUB), float64)
    acc = cuda.local.array((UPDATE_SUB, UPDATE_SUB), float64)
    theirs = cuda.local.array(UPDATE_SUB, float64)
    own_class = cuda.local.array(UPDATE_SUB, int64)
    for q in range(UPDATE_SUB):
        b = v0 + ty + SIDE * q
        r = rows[b] if b < n_visits else 0
        own_class[q] = group[r]
        for p in range(UPDATE_SUB):
            mine[p, q] = _value(x, codes, r, f0 + tx + SIDE * p)
            acc[p, q] = 0.0
    for j0 in range(0, n, CHUNK):
        for e in range(thread, CHUNK * UPDATE_TILE, SIDE * SIDE):
            i = e % UPDATE_TILE
            jc = e // UPDATE_TILE
            values[jc, i] = _value(x, codes, j0 + jc, f0 + i) \
                if j0 + jc < n else 0.0
        live = 0
        for e in range(thread, CHUNK * UPDATE_TILE, SIDE * SIDE):
            jc = e % CHUNK
            i = e // CHUNK
            c = 0.0
            if v0 + i < n_visits and j0 + jc < n:
                c = dense[v0 + i, j0 + jc]
            coefs[jc, i] = c
            if c != 0.0:
                live = 1
        if thread < CHUNK:
            classes[thread] = group[j0 + thread] if j0 + thread < n else 0
        # the chunk is staged before any thread reads it; the block skips
        # it together where no visit of the tile has a neighbour in it
        if cuda.syncthreads_or(live):
            for jc in range(CHUNK):
                cj = classes[jc]
                for p in range(UPDATE_SUB):
                    theirs[p] = values[jc, tx + SIDE * p]
                for q in range(UPDATE_SUB):
                    c = coefs[jc, ty + SIDE * q]
                    if c != 0.0:
                        for p in range(UPDATE_SUB):
                            f = f0 + tx + SIDE * p
                            if f < a_num:
                                d = complete_numeric_diff(
                                    f, mine[p, q], theirs[p], own_class[q],
                                    cj, num_sorted, num_prefix, num_start,
                                    num_pstart, num_count, num_both)
                            elif f < a:
                                d = nominal_diff(
                                    f - a_num, int32(mine[p, q]),
                                    int32(theirs[p]), own_class[q], cj,
                                    nom_prob, nom_both)
                            else:
                                d = 0.0
                            acc[p, q] += c * d
        # every thread is done with the chunk before the next is staged
        cuda.syncthreads()
    for q in range(UPDATE_SUB):
        b = v0 + ty + SIDE * q
        if b < n_visits:
            for p in range(UPDATE_SUB):
                f = f0 + tx + SIDE * p
                if f < a:
                    out[b, f] = constant[b] + acc[p, q]


# add_rows: rows loaded ahead of their (sequential) sums
AHEAD = 8


@cuda.jit
def add_rows(rows, total, done, every, first, points):
    """total[j] += rows[0, j], rows[1, j], ... (visits done + 1, done + 2,
    ...) in this order, as the host adds them (``base.add_updates``): the
    sums are its bits.  After every ``every``-th visit (0: none) the running
    sums go into the next row of ``points``, from row ``first`` (the trace
    points).  One thread a column; AHEAD rows are loaded before they are
    added, so their loads overlap (the adds are one chain)."""
    j = cuda.grid(1)
    if j >= total.shape[0]:
        return
    held = cuda.local.array(AHEAD, float64)
    count = rows.shape[0]
    acc = total[j]
    p = first
    for start in range(0, count, AHEAD):
        stop = min(start + AHEAD, count)
        for b in range(start, stop):
            held[b - start] = rows[b, j]
        for b in range(start, stop):
            acc += held[b - start]
            if every > 0 and (done + b + 1) % every == 0:
                points[p, j] = acc
                p += 1
    total[j] = acc


# ---------------------------------------------------------------------------
# Several targets and instance weights (``doc/semantics.md``): kernels that
# the one-target, unweighted runs never launch

# ``updates`` for several targets (``diffs.Targets`` as ``target``): the
# same kernel, its rows' target differences the contract's for Targets
updates_targets = cuda.jit(_rebuilt(_python(updates), _update_row=_device(
    _python(_update_row), feature_update=targets_feature_update,
    target_sum=targets_sum)))


@cuda.jit
def visit_copies(weights, rows, copies):
    """copies[b, j] = how many copies of instance j visit b counts
    (``neighbours.seen_weight``: j's instance weight, R's own w_R - 1),
    one thread a (visit, instance)."""
    e = cuda.grid(1)
    n = weights.shape[0]
    b = e // n
    if b < rows.shape[0]:
        copies[b, e % n] = seen_weight(weights, rows[b], e % n)


@cuda.jit
def weighted_k_nearest(dist, rows, group, copies, mode, n_groups, k,
                       rank_weights, class_factor, group_start, chosen,
                       member_dist, member_weights, coef, counts):
    """Each (visit b, group g), one thread: the group's members that count
    (``copies[b]`` > 0) sorted by distance (stable: in the order of their
    rows among equal distances) into ``chosen[b, start_g:]``, given their
    shares of the k slots by their weights
    (``neighbours.weighted_tie_shares``); ``counts[b, g]`` of them kept.
    (One thread sorts a group: correct, not fast.)"""
    t = cuda.grid(1)
    n = dist.shape[1]
    b = t // n_groups
    g = t % n_groups
    if b >= rows.shape[0]:
        return
    r = rows[b]
    gr = group[r]
    start = _group_start(g, gr, mode, group_start)
    m = 0
    for j in range(n):
        weight = copies[b, j]
        if weight <= 0.0 or group_of(group[j], gr, mode == MODE_ANY) != g:
            continue
        d = dist[b, j]
        q = start + m
        while q > start and member_dist[b, q - 1] > d:
            member_dist[b, q] = member_dist[b, q - 1]
            member_weights[b, q] = member_weights[b, q - 1]
            chosen[b, q] = chosen[b, q - 1]
            q -= 1
        member_dist[b, q] = d
        member_weights[b, q] = weight
        chosen[b, q] = j
        m += 1
    counts[b, g] = 0
    if m:
        counts[b, g] = weighted_tie_shares(
            member_dist[b, start:start + m],
            member_weights[b, start:start + m], k, rank_weights,
            group_sign(mode, g, gr, class_factor), coef[b, start:])


@cuda.jit
def weighted_within_radius(dist, rows, group, copies, mode, n_groups,
                           pair_mean_radius, deviations, far, far_sameness,
                           surf_radius, class_factor, totals, chosen, coef,
                           counts, constant):
    """``within_radius`` of instances that count as ``copies[b]`` each
    (one thread a visit): SURF's ``surf_radius[b]`` or MultiSURF's
    weighted mean and deviation (``neighbours.weighted_spread``); each
    bucket's members (in row order) share its sign by their total weight
    (``totals[b]``), each counting its weight (``bucket_share``)."""
    b = cuda.grid(1)
    n = dist.shape[1]
    if b >= rows.shape[0]:
        return
    gr = group[rows[b]]
    centre = surf_radius[b]
    half = 0.0
    if not pair_mean_radius:
        centre, half = weighted_spread(dist[b], copies[b], deviations)
    low, high = thresholds(centre, half)
    for bk in range(2 * n_groups):
        totals[b, bk] = 0.0
    for j in range(n):
        if copies[b, j] > 0.0:
            bk = bucket(dist[b, j], low, high, far,
                        group_of(group[j], gr, mode == MODE_ANY))
            if bk >= 0:
                totals[b, bk] += copies[b, j]
    position = 0
    for j in range(n):
        if copies[b, j] > 0.0:
            bk = bucket(dist[b, j], low, high, far,
                        group_of(group[j], gr, mode == MODE_ANY))
            if bk >= 0:
                chosen[b, position] = j
                coef[b, position] = bucket_share(
                    bk, totals[b, bk],
                    group_sign(mode, bk // 2, gr, class_factor)) \
                    * copies[b, j]
                position += 1
    counts[b, 0] = position
    extra = 0.0
    if far_sameness:
        for bk in range(1, 2 * n_groups, 2):
            if totals[b, bk] > 0.0:
                extra += group_sign(mode, bk // 2, gr, class_factor)
    constant[b] = extra


@cuda.jit
def scale_rows(rows, weights, out):
    """out[b] *= the instance weight of visit b (ReliefF: a visit to an
    instance of weight w counts as its w copies' visits), one thread an
    entry."""
    e = cuda.grid(1)
    width = out.shape[1]
    b = e // width
    if b < rows.shape[0]:
        out[b, e % width] *= weights[rows[b]]
