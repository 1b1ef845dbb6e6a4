"""NPDR's neighbour pairs and per-feature regressions, compiled
(``stats.npdr``; doc/statistics.md, "NPDR").

NPDR, nearest-neighbour projected-distance regression (Le, Dawkins &
McKinney, Bioinformatics 36(9), 2020), regresses for every feature A the
outcome difference of each (instance, neighbour) pair on the pair's projected
difference diff(A, I_i, I_j), with the covariates' differences as further
terms.  Two steps are here:

* ``neighbour_rows``: the pairs.  Neighbours are the engine's own
  (``neighbours.select`` on the screened distances that ReliefF's blocks
  use, ``layouts.blocks``): the k nearest, instances tied with the k-th sharing
  its slots, or everyone within a radius rule -- of one group of all other
  instances (class-blind, npdr's default) or of ReliefF's groups of hits and
  misses.  A pair is kept as its two row indices and a weight: the share of
  a slot that the neighbour holds (1; s/t for t instances tied for s slots)
  for the k rule, 1 within a radius.  No diff is stored.
* ``fit_columns``: for each kernel column, its diffs over the pairs, read
  from the column and the pair indices, and the weighted regression of the
  outcome on [1, diff, covariate diffs]: logistic (Newton's method, which is
  IRLS, from the fit without the feature) or least squares.  Columns are
  independent and run on all threads.

``neighbour_pairs`` runs the visits on all threads.  ``Kernels`` names the
functions NPDR runs: ``COMPILED``, these, or on a first use, while they
compile in the background (``warmup``, set ``kernel_set``), the NumPy
path's (``vectorised.NPDR_FIRST_USE``), which runs this module's source as
plain Python with its loops over the pairs in NumPy.
"""
from typing import Callable, NamedTuple

import numpy as np
from numba import njit, prange

from . import layouts
from ..base import neighbourhood
from ...contract.diffs import JIT, NO_REFCOUNTS, nominal_diff, numeric_diff
from ...contract.distances import distance_row
from ...contract.neighbours import (MODE_ANY, UNSETTLED, Exact, Screen,
                                    new_buffers, select)
from ...contract.prepare import MissingTables
from ...rules import rule as neighbourhood_rule
from ..runtime import pool, threads_for
from .screens import (MIN_FORM_CHUNK, by_feature_tiles, min_form_bound,
                      screen_bound, tiled_distances)
from ...speedups import ALL

#: Newton's method stops when no coefficient moves by more than this, times
#: (1 + the largest coefficient)...
TOLERANCE = 1e-10
#: ...or after this many steps: the fit has not converged (separation).
MAX_STEPS = 60
#: A design column whose Cholesky pivot is below this share of its own sum
#: of squares is a linear combination of the columns before it.
SINGULAR = 1e-10

# fit_columns' status codes
FIT_OK, FIT_ALIASED, FIT_DIVERGED = 0, 1, 2
#: Visits whose pairs are found between two progress reports (at least).
VISIT_BATCH = 256


class Pairs(NamedTuple):
    """The (instance, neighbour) pairs: row indices ``first`` (the visited
    instance) and ``second`` (its neighbour), and ``weight``, the share of
    a neighbour slot each holds (1 but for ties at the k-th neighbour)."""
    first: np.ndarray
    second: np.ndarray
    weight: np.ndarray


class Kernels(NamedTuple):
    """The functions that compute NPDR: ``COMPILED`` (this module's), or
    the NumPy path's of a first use (``vectorised.NPDR_FIRST_USE``), which
    compiles nothing.  ``rows(prep, hood, group, counts, rows)``: the pairs
    of visiting ``rows`` as (first, second, weight); None: the compiled
    ``neighbour_rows``."""
    fit: Callable
    fit_columns: Callable
    log_likelihood: Callable
    rows: Callable = None


def kernel_set(prep, neighbours):
    """The compiled kernels NPDR needs for ``prep`` with the rule
    ``neighbours``, as ``warmup`` names its kernel sets: ("npdr", the
    nominal codes' type, the screening copy's type)."""
    rule = neighbourhood_rule(neighbours)
    copy = layouts.blocks(prep, ALL, rule.uses_k).copy.dtype.name
    return "npdr", "int32" if prep.nom.dtype == np.int32 else "int8", copy


# ---------------------------------------------------------------------------
# The pairs

@njit(**JIT)
def neighbour_rows(rows, data, blocks, hood, group, counts, speedups, first,
                   second, weight):
    """The neighbour pairs of the visited ``rows``, in order, appended to
    ``first`` (the visited row), ``second`` (its neighbour) and ``weight``
    (the neighbour's slot share; 1 within a radius).

    ``select`` chooses among ``group`` (zeros: one class-blind group, whose
    members are all n - 1 other rows; class codes: ReliefF's groups, the
    class factors of ``hood`` set to 1); ``counts`` are the sizes of the
    groups' classes.  Distances are those of the engine: the screened
    distances of ``blocks`` decided in float64.  Returns (visits done, pairs
    written): it stops before a visit whose pairs would not fit."""
    n = group.shape[0]
    a = data.num.shape[1] + data.nom.shape[1]
    ones = np.ones(a)
    exact = Exact(data.num, data.nom, ones, False, False, data.rows, 0.0,
                  np.zeros(0), 0.0)
    no_screen = Screen(False, 0.0, 0.0, np.zeros(0))
    blocked = not data.has_missing and blocks.copy.shape[0] > 0
    if blocks.by_feature or not blocks.min_form:
        c_err, gamma = screen_bound(data.num, ones, False, 0.0)
    else:
        c_err, gamma = min_form_bound(data.num.shape[1],
                                      blocks.copy.itemsize == 4,
                                      MIN_FORM_CHUNK)
    per_row = blocks.min_form and not blocks.by_feature
    dist = np.empty((blocks.size, n))
    acc = np.empty((4, blocks.tile if blocks.by_feature else 0),
                   blocks.copy.dtype)
    buffers = new_buffers(n, hood)
    any_miss = hood.mode == MODE_ANY
    written, b, end = 0, 0, rows.shape[0]
    while b < end:
        size = 1
        if blocked and end - b >= 4:
            size = blocks.size if end - b >= blocks.size else 4
            if blocks.by_feature:
                by_feature_tiles(rows[b:b + size], blocks.copy, dist[:size],
                                 acc)
            else:
                tiled_distances(rows[b:b + size], blocks.copy,
                                blocks.row_sums, blocks.planes,
                                blocks.n_bits, dist[:size], MIN_FORM_CHUNK,
                                blocks.min_form)
        else:
            distance_row(rows[b], data, ones, False, dist[0], 0, n)
        for i in range(size):
            r = rows[b + i]
            screen = no_screen
            if size > 1 and data.num.shape[1] > 0:
                screen = Screen(True, c_err + gamma * blocks.row_sums[r]
                                if per_row else c_err,
                                0.0 if per_row else gamma, no_screen.slack)
            n_chosen = select(r, dist[i], group, hood, buffers, screen,
                              exact, n, speedups)[0]
            if n_chosen == UNSETTLED:       # a radius rule: the float64 row
                distance_row(r, data, ones, False, dist[i], 0, n)
                n_chosen = select(r, dist[i], group, hood, buffers,
                                  no_screen, exact, n, speedups)[0]
            if written + n_chosen > first.shape[0]:
                return b + i, written
            for q in range(n_chosen):
                j = buffers.chosen[q]
                first[written] = r
                second[written] = j
                weight[written] = slot_share(
                    hood, buffers.coef[q], group[r], group[j], counts,
                    any_miss, n)
                written += 1
        b += size
    return end, written


@njit(**JIT)
def slot_share(hood, coef, gr, gj, counts, any_miss, n):
    """The share of a slot that a neighbour with the signed influence
    ``coef`` holds: |coef| times the group's total influence min(k, m) (m:
    the group's members), with the class factors at 1; 1 within a
    radius."""
    if not hood.uses_k:
        return 1.0
    if gj == gr:
        members = counts[gr] - 1
    else:
        members = n - counts[gr] if any_miss else counts[gj]
    return abs(coef) * min(hood.k, members)


# ---------------------------------------------------------------------------
# The diffs of one column over the pairs

@njit(**NO_REFCOUNTS)
def column_diffs(f, first, second, num_t, nom_t, group, has_missing, tables,
                 out):
    """out[q] = diff(f, I_first[q], I_second[q]) of kernel column f
    (numeric columns first, then nominal; ``num_t``, ``nom_t`` hold them
    feature by feature), with RELIEF-D where a value is missing (without
    reference counts: ``diffs.NO_REFCOUNTS``)."""
    a_num = num_t.shape[0]
    if f < a_num:
        x = num_t[f]
        for q in range(first.shape[0]):
            i, j = first[q], second[q]
            out[q] = numeric_diff(
                f, x[i], x[j], group[i], group[j], tables.num_sorted,
                tables.num_prefix, tables.num_start, tables.num_pstart,
                tables.num_count, tables.num_both) if has_missing \
                else abs(x[i] - x[j])
        return
    g = f - a_num
    codes = nom_t[g]
    for q in range(first.shape[0]):
        i, j = first[q], second[q]
        out[q] = nominal_diff(g, codes[i], codes[j], group[i], group[j],
                              tables.nom_prob, tables.nom_both) \
            if has_missing \
            else (1.0 if codes[i] != codes[j] else 0.0)


# ---------------------------------------------------------------------------
# One regression: outcome ~ 1 + covariate diffs (+ feature diff)

# The regressions' loops: no zero-division checks (their branches kept the
# loops from being vectorised), and sums that may be reassociated (SIMD).
LOOPS = dict(JIT, error_model="numpy")
SUMS = dict(LOOPS, fastmath={"reassoc", "nsz", "contract", "arcp"})
#: Pairs whose design rows a pass holds at once (in the first-level cache).
PAIR_BLOCK = 512

# exp(x) = 2^k exp(r), x = k ln 2 + r (Cody and Waite's two-part ln 2),
# exp(r) by its Taylor polynomial to r^13 (|r| <= ln 2 / 2: relative error
# below 2^-52), 2^k from a table: numba's exp is a call per value, this
# loop is vectorised (a logistic pass took 8 ns a pair with the call, 2 ns
# with this).
_LOG2E = 1.4426950408889634
_LN2_HIGH = 6.93147180369123816490e-01
_LN2_LOW = 1.90821492927058770002e-10
_POWERS_OF_2 = np.array([2.0 ** e for e in range(-1022, 1024)])
_TAYLOR = np.array([1.0 / np.prod(np.arange(1.0, e + 1)) for e in
                    range(13, -1, -1)])


@njit(inline="always", **LOOPS)
def _exp(x):
    """exp(x), within 2^-52 relative, for x clipped to [-708, 709]."""
    x = min(max(x, -708.0), 709.0)
    k = np.floor(x * _LOG2E + 0.5)
    r = (x - k * _LN2_HIGH) - k * _LN2_LOW
    value = _TAYLOR[0]
    for e in range(1, _TAYLOR.shape[0]):
        value = value * r + _TAYLOR[e]
    return value * _POWERS_OF_2[np.int64(k) + 1022]


@njit(**LOOPS)
def _order(p, with_diff):
    """The design's columns in the order of the factorisation: the
    intercept, the covariates, then the feature's diff (column 1) last, so
    that its Cholesky pivot is its information given all the others."""
    order = np.empty(p if with_diff else p - 1, np.int64)
    order[0] = 0
    for c in range(2, p):
        order[c - 1] = c
    if with_diff:
        order[p - 1] = 1
    return order


@njit(**LOOPS)
def _block_terms(X, m, beta, outcome, weight, logistic, v, r):
    """For the m design rows X[:, :m] of a block of pairs: logistic, v =
    w mu (1 - mu) and r = w (outcome - mu) at mu = 1 / (1 + exp(-X' beta));
    linear, v = w and r = w outcome."""
    if not logistic:
        for q in range(m):
            v[q] = weight[q]
            r[q] = weight[q] * outcome[q]
        return
    eta = np.zeros(m)
    for e in range(X.shape[0]):
        b = beta[e]
        for q in range(m):
            eta[q] += b * X[e, q]
    for q in range(m):
        mu = 1.0 / (1.0 + _exp(-eta[q]))
        v[q] = weight[q] * mu * (1.0 - mu)
        r[q] = weight[q] * (outcome[q] - mu)


@njit(**SUMS)
def _add_block(X, m, v, r, H, g):
    """H += X V X' and g += X r over the block's m rows (upper triangle of
    H)."""
    p = X.shape[0]
    for e in range(p):
        s = 0.0
        for q in range(m):
            s += r[q] * X[e, q]
        g[e] += s
        for h in range(e, p):
            s = 0.0
            for q in range(m):
                s += v[q] * X[e, q] * X[h, q]
            H[e, h] += s


@njit(**LOOPS)
def _sums(d, Zt, outcome, weight, beta, logistic, H, g, X):
    """H = X' V X and g = X' r for the design [1, d, Z] (``Zt``: Z
    transposed), over the pairs in blocks of PAIR_BLOCK (``X``: p x
    PAIR_BLOCK work space); ``_block_terms`` defines v and r."""
    p = H.shape[0]
    H[:, :] = 0.0
    g[:] = 0.0
    v = np.empty(PAIR_BLOCK)
    r = np.empty(PAIR_BLOCK)
    X[0, :] = 1.0
    for lo in range(0, d.shape[0], PAIR_BLOCK):
        m = min(PAIR_BLOCK, d.shape[0] - lo)
        X[1, :m] = d[lo:lo + m]
        for c in range(p - 2):
            X[2 + c, :m] = Zt[c, lo:lo + m]
        _block_terms(X, m, beta, outcome[lo:lo + m], weight[lo:lo + m],
                     logistic, v, r)
        _add_block(X, m, v, r, H, g)
    for e in range(p):
        for h in range(e):
            H[e, h] = H[h, e]


@njit(**LOOPS)
def log_likelihood(d, Zt, outcome, weight, beta):
    """sum w (outcome eta - log(1 + exp(eta))), eta = [1, d, Z] beta."""
    total = 0.0
    for q in range(d.shape[0]):
        eta = beta[0] + beta[1] * d[q]
        for c in range(Zt.shape[0]):
            eta += beta[2 + c] * Zt[c, q]
        soft = eta + np.log1p(np.exp(-eta)) if eta > 0 \
            else np.log1p(np.exp(eta))
        total += weight[q] * (outcome[q] * eta - soft)
    return total


@njit(**LOOPS)
def residual_sum(d, Zt, outcome, weight, beta):
    """sum w (outcome - [1, d, Z] beta)^2, the linear fit's residual sum of
    squares."""
    rss = 0.0
    for q in range(d.shape[0]):
        resid = outcome[q] - beta[0] - beta[1] * d[q]
        for c in range(Zt.shape[0]):
            resid -= beta[2 + c] * Zt[c, q]
        rss += weight[q] * resid * resid
    return rss


@njit(**LOOPS)
def _cholesky_solve(H, g, order, step):
    """Solve H[order][:, order] s = g[order] by Cholesky; step[order] = s,
    0 elsewhere.  Returns the last pivot squared (the information of the
    last column given the others), or -1 when a column is a combination of
    those before it (its pivot below SINGULAR times its diagonal)."""
    m = order.shape[0]
    L = np.zeros((m, m))
    for e in range(m):
        for h in range(e + 1):
            s = H[order[e], order[h]]
            for t in range(h):
                s -= L[e, t] * L[h, t]
            if e == h:
                if not s > SINGULAR * H[order[e], order[e]] or s <= 0.0:
                    return -1.0
                L[e, e] = np.sqrt(s)
            else:
                L[e, h] = s / L[h, h]
    z = np.empty(m)
    for e in range(m):
        s = g[order[e]]
        for t in range(e):
            s -= L[e, t] * z[t]
        z[e] = s / L[e, e]
    step[:] = 0.0
    for e in range(m - 1, -1, -1):
        s = z[e]
        for t in range(e + 1, m):
            s -= L[t, e] * step[order[t]]
        step[order[e]] = s / L[e, e]
    return L[m - 1, m - 1] ** 2


@njit(**LOOPS)
def fit(d, with_diff, Zt, outcome, weight, start, logistic, out_beta):
    """The weighted regression of ``outcome`` on [1, d, Z] (``Zt``: Z
    transposed; without d unless ``with_diff``): logistic by Newton's
    method from ``start``, or least squares.  Writes the coefficients into
    ``out_beta`` and returns (status, information of d given the rest,
    log-likelihood of a diverged logistic fit or the residual sum of
    squares): status FIT_ALIASED when a column is a combination of the
    others at the start (the fit stops there), FIT_DIVERGED when Newton's
    method did not converge in MAX_STEPS steps or the pairs' weights
    mu (1 - mu) vanished on the way (separation)."""
    p = 2 + Zt.shape[0]
    order = _order(p, with_diff)
    H = np.empty((p, p))
    g = np.empty(p)
    step = np.empty(p)
    X = np.empty((p, PAIR_BLOCK))
    beta = out_beta
    beta[:] = start
    if not with_diff:
        beta[1] = 0.0
    if not logistic:
        _sums(d, Zt, outcome, weight, beta, False, H, g, X)
        info = _cholesky_solve(H, g, order, beta)
        if info < 0:
            return FIT_ALIASED, 0.0, 0.0
        return FIT_OK, info, residual_sum(d, Zt, outcome, weight, beta)
    info = 0.0
    for done in range(MAX_STEPS):
        _sums(d, Zt, outcome, weight, beta, True, H, g, X)
        info = _cholesky_solve(H, g, order, step)
        if info < 0:
            if done == 0:       # at the start every pair has weight > 0
                return FIT_ALIASED, 0.0, 0.0
            break               # the weights vanish: separation

        largest, moved = 0.0, 0.0
        for e in range(p):
            beta[e] += step[e]
            largest = max(largest, abs(beta[e]))
            moved = max(moved, abs(step[e]))
        if moved <= TOLERANCE * (1.0 + largest):
            return FIT_OK, info, 0.0
    return FIT_DIVERGED, info, log_likelihood(d, Zt, outcome, weight, beta)


@njit(**LOOPS)
def _fit_chunk(c, n_chunks, columns, first, second, weight, outcome, Zt,
               start, logistic, num_t, nom_t, group, has_missing, tables,
               out):
    """``fit_columns`` for part c of the columns (``tables`` as a plain
    tuple: numba cannot pass a named tuple into a parallel loop)."""
    lo = c * columns.shape[0] // n_chunks
    hi = (c + 1) * columns.shape[0] // n_chunks
    tables = MissingTables(*tables)
    d = np.empty(first.shape[0])
    beta = np.empty(start.shape[0])
    for t in range(lo, hi):
        column_diffs(columns[t], first, second, num_t, nom_t, group,
                     has_missing, tables, d)
        status, info, value = fit(d, True, Zt, outcome, weight, start,
                                  logistic, beta)
        out[t, 0] = beta[1]
        out[t, 1] = info
        out[t, 2] = value
        out[t, 3] = status


@njit(parallel=True, **LOOPS)
def fit_columns(columns, first, second, weight, outcome, Zt, start, logistic,
                num_t, nom_t, group, has_missing, tables, out, n_chunks):
    """For each kernel column ``columns[t]``: its diffs over the pairs and
    the regression of ``outcome`` on [1, diff, Z] (``Zt``: the covariates'
    diffs, covariates x pairs); out[t] = (coefficient
    of the diff, its information given the other terms, log-likelihood of
    a diverged logistic fit or the linear fit's residual sum of squares,
    status), in ``n_chunks`` parallel parts."""
    for c in prange(n_chunks):
        _fit_chunk(c, n_chunks, columns, first, second, weight, outcome, Zt,
                   start, logistic, num_t, nom_t, group, has_missing, tables,
                   out)


COMPILED = Kernels(fit, fit_columns, log_likelihood)


# ---------------------------------------------------------------------------
# The pairs of a run, on all threads

def neighbour_pairs(prep, *, class_blind, neighbours, k_nearest, misses,
                    rows, n_jobs=None, progress=None, kernels=COMPILED):
    """The ``Pairs`` of visiting ``rows`` of ``prep`` (``prepare.Prepared``;
    prepared as for a numeric target when ``class_blind``): the engine's
    neighbours (``neighbours`` rule, ``k_nearest``) among all other
    instances (``class_blind``), or among the hits and the misses of each
    class (``misses="any"``: all misses together), as ReliefF takes them,
    found by ``kernels.rows`` (the compiled ``neighbour_rows`` when None).
    ``progress(fraction)`` between batches may raise to cancel."""
    n = prep.group.shape[0]
    blind = class_blind
    hood = neighbourhood(prep, blind, misses, k_nearest, False, 1.0,
                         neighbours)
    hood = hood._replace(class_factor=np.ones_like(hood.class_factor))
    group = np.zeros(n, np.int64) if blind else prep.group
    counts = np.bincount(group, minlength=prep.n_classes).astype(np.int64)
    n_threads = threads_for(n_jobs)
    if kernels.rows is not None:
        def visit(chunk):
            return [kernels.rows(prep, hood, group, counts, chunk)]
        size = 1
    else:
        blocks = layouts.blocks(prep, ALL, hood.uses_k)
        data = prep.data(blind)
        per_visit = 2 * hood.k * hood.n_groups + 8 \
            if neighbourhood_rule(neighbours).uses_k else max(8, n // 2)
        size = blocks.size

        def visit(chunk):
            found, start = [], 0
            while start < chunk.shape[0]:
                room = per_visit * (chunk.shape[0] - start) + n
                first = np.empty(room, np.int32)
                second = np.empty(room, np.int32)
                weight = np.empty(room)
                done, written = neighbour_rows(chunk[start:], data, blocks,
                                               hood, group, counts, ALL,
                                               first, second, weight)
                found.append((first[:written], second[:written],
                              weight[:written]))
                start += done
            return found

    parts = []
    batch = max(VISIT_BATCH, size * n_threads)
    with pool(n_threads) as executor:
        for begin in range(0, rows.shape[0], batch):
            chunks = np.array_split(rows[begin:begin + batch], n_threads)
            chunks = [chunk for chunk in chunks if chunk.shape[0]]
            for found in executor.map(visit, chunks):
                parts.extend(found)
            if progress is not None:
                progress(min(begin + batch, rows.shape[0]) / rows.shape[0])
    if not parts:
        return Pairs(np.zeros(0, np.int32), np.zeros(0, np.int32),
                     np.zeros(0))
    return Pairs(*(np.concatenate([part[i] for part in parts])
                   for i in range(3)))
