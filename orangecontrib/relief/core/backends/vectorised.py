"""The NumPy backend: the visits in vectorised NumPy, for a first use
while the numba loops compile in the background (``selection.FirstUse``,
``warmup``).

A fresh installation has no compiled kernels, and compiling the loops takes
tens of seconds; this path gives a first result in a fraction of a second
meanwhile.  It follows the same contract step by step (one visit: the diffs
to every instance, their weighted sum, the neighbours with tied slots
shared, the update), without screens, so its weights equal the compiled
ones to rounding (about 1e-15): sums are added in another order.  The
arithmetic that is no loop over the data is the compiled backend's own
source, run here as plain Python (``interpreted``): the tie shares and radii
(``neighbours.shares``, ``neighbours.radius``, and the functions the GPU
kernels share, ``neighbours.group_sign``, ``thresholds``, ``bucket_share``),
the estimate and the distance weights (``estimates``), the sums in visiting
order (``base.add_updates``).  Calling the numba functions themselves
would compile them first: 2-5 s of a first use on a 2-core machine (issue
38), for functions that run a few microseconds a visit.

It covers what a first use needs: dense data (small sparse data is
densified; zeros are values either way), numeric and nominal features,
missing values (RELIEF-D), classification and regression, ReliefF,
Relief-E, rank weights, every neighbourhood rule, dReliefF and pdReliefF;
and NPDR's pairs and regressions (``NPDR_FIRST_USE``), whose compiled
kernels (``npdr_pairs``) took 30-50 s to compile on a first use.
"""
import dataclasses
import sys
import threading
from types import FunctionType

import numpy as np
from numba.core.dispatcher import Dispatcher
from scipy.spatial.distance import cdist

from ..contract import estimates, neighbours as compiled_neighbours
from .compiled import npdr_kernels
from .base import Backend
from ..contract.diffs import nominal_diff, numeric_diff, target_diff
from ..contract.distances import TIE_RTOL
from ..contract.neighbours import (MODE_ANY, Screen, bucket_share, group_sign,
                                   seen_weight, thresholds)
from ..contract.pair_sums import copy_square_sums
from ..contract.prepare import class_law, expected_abs_to


# ReliefF's visits whose distances are computed together.
BLOCK = 64
# Sparse data is densified for this path up to this many values.
DENSE_MAX_VALUES = 5_000_000


# A radius without a screen: the distances given are the float64 ones.
NO_SCREEN = Screen(False, 0.0, 0.0, np.zeros(0))


# module name -> its globals with numba functions as plain Python
_NAMESPACES = {}
_NAMESPACES_LOCK = threading.RLock()


def interpreted(function, **replacements):
    """The numba function ``function`` as plain Python: its own source,
    where every numba function it calls is plain Python too (a call of a
    numba function from Python compiles it first).  The same arithmetic in
    the same order, so the same bits.  ``replacements``: functions of its
    module called instead of the numba functions of those names (NumPy
    versions of loops over the data, slow as plain Python)."""
    source = function.py_func
    with _NAMESPACES_LOCK:
        namespace = _namespace(source.__module__, replacements)
    return _bound(source, namespace)


def _bound(source, namespace):
    return FunctionType(source.__code__, namespace, source.__name__,
                        source.__defaults__, source.__closure__)


def _namespace(module, replacements=None):
    """The globals of ``module`` (a copy, taken once per set of
    ``replacements``) with the ``replacements`` put in, and its numba
    functions and those it imports replaced by ``interpreted`` ones (its
    own bound to this namespace).  (It is registered before it is filled,
    so modules may call each other.)"""
    key = module, frozenset((replacements or {}).items())
    if key not in _NAMESPACES:
        namespace = _NAMESPACES[key] = dict(vars(sys.modules[module]))
        namespace.update(replacements or {})
        for name, value in namespace.items():
            if isinstance(value, Dispatcher):
                own = value.py_func.__module__ == module
                namespace[name] = _bound(value.py_func, namespace) if own \
                    else interpreted(value)
    return _NAMESPACES[key]


estimate, step_weights = map(interpreted, (estimates.estimate,
                                           estimates.step_weights))
shares, radius, weighted_shares, weighted_radius = map(interpreted, (
    compiled_neighbours.shares, compiled_neighbours.radius,
    compiled_neighbours.weighted_shares,
    compiled_neighbours.weighted_radius))


def covers(prep, any_size=False):
    """Whether this path reads ``prep``: dense data, or sparse data of at
    most DENSE_MAX_VALUES values when densified (``any_size``: any)."""
    return not prep.sparse or any_size \
        or prep.group.shape[0] * prep.n_used <= DENSE_MAX_VALUES


def dense_view(prep, any_size=False):
    """``prep`` with dense arrays this path reads: itself for dense data, a
    densified copy of sparse data of at most DENSE_MAX_VALUES values (with
    ``any_size``, of any size; values already divided by their range: diffs
    are |x - y| either way), or None for larger sparse data."""
    if not prep.sparse:
        return prep
    if not covers(prep, any_size):
        return None
    n, a = prep.group.shape[0], prep.n_used
    rows = prep.sp
    X = np.zeros((n, a))
    for i in range(n):
        start, stop = rows.indptr[i], rows.indptr[i + 1]
        X[i, rows.indices[start:stop]] = rows.values[start:stop]
    nominal = rows.nominal
    return dataclasses.replace(
        prep, num=np.ascontiguousarray(X[:, ~nominal]),
        nom=np.ascontiguousarray(X[:, nominal]).astype(np.int32),
        sparse=False)


def _numeric_missing(f, r, x, group, prep, xr, cr):
    """diff(f, R, I_j) of numeric feature f for the values ``x`` of rows of
    classes ``group``, R's value xr and class cr, with RELIEF-D where a value
    is missing (``prepare.expected_abs_to``: E|X - v| of the class laws,
    weighted with instance weights)."""
    out = np.abs(x - xr)
    known = x == x
    if xr == xr:
        for c in np.unique(group[~known]):
            sample, prefix, cumulative = class_law(prep, f, c)
            out[~known & (group == c)] = expected_abs_to(sample, prefix, xr,
                                                         cumulative)
        return out
    sample, prefix, cumulative = class_law(prep, f, cr)
    out[known] = expected_abs_to(sample, prefix, x[known], cumulative)
    out[~known] = prep.missing.num_both[f, cr, group[~known]]
    return out


def _nominal_missing(g, codes, group, tables, cr, gr):
    """diff(g, R, I_j) of nominal feature g for the ``codes`` of rows of
    classes ``group``, R's code cr and class gr, with RELIEF-D where a code
    is missing (-1)."""
    known = codes >= 0
    out = (codes != cr).astype(float)
    if cr >= 0:
        out[~known] = 1.0 - tables.nom_prob[g, group[~known], cr]
    else:
        out[known] = 1.0 - tables.nom_prob[g, gr, codes[known]]
        out[~known] = tables.nom_both[g, gr, group[~known]]
    return out


def diffs(prep, r, rows=slice(None)):
    """diff(A, R, I_j) for the instances j of ``rows`` (all by default) and
    every kernel column A (numeric columns first, then nominal;
    doc/semantics.md), one row per instance."""
    num, nom, group = prep.num[rows], prep.nom[rows], prep.group[rows]
    a_num = num.shape[1]
    out = np.empty((num.shape[0], a_num + nom.shape[1]))
    np.abs(num - prep.num[r], out=out[:, :a_num])
    out[:, a_num:] = nom != prep.nom[r]
    if prep.has_missing:
        xr, cr, gr = prep.num[r], prep.nom[r], prep.group[r]
        for f in np.flatnonzero(np.isnan(prep.num).any(axis=0)):
            out[:, f] = _numeric_missing(f, r, num[:, f], group, prep,
                                         xr[f], gr)
        for g in np.flatnonzero((prep.nom < 0).any(axis=0)):
            out[:, a_num + g] = _nominal_missing(g, nom[:, g], group,
                                                 prep.missing, cr[g], gr)
    return out


def distances(prep, rows, w=None):
    """len(rows) x n: sum_A w_A diff(A, R, I_j) from each of ``rows`` (w_A = 1
    when ``w`` is None), by scipy's ``cdist`` on complete data."""
    if prep.has_missing:
        return np.array([diffs(prep, r) @ (np.ones(prep.n_used) if w is None
                                           else w) for r in rows])
    a_num, a_nom = prep.num.shape[1], prep.nom.shape[1]
    out = np.zeros((len(rows), prep.group.shape[0]))
    if a_num:
        out += cdist(prep.num[rows], prep.num, "cityblock",
                     w=None if w is None else w[:a_num])
    if a_nom:
        w_nom = np.ones(a_nom) if w is None else w[a_num:]
        total = w_nom.sum()
        if total > 0:
            out += total * cdist(prep.nom[rows], prep.nom, "hamming",
                                 w=w_nom)
    return out


def _groups(r, group, hood, copies=None):
    """(members mask, sign) of R's neighbour groups (``neighbours.select``):
    hits, the misses of each other class (or of all together), or every
    instance in regression; with instance weights (``copies``,
    ``copies_seen``) the rows that count, R's copies among its hits."""
    any_miss = hood.mode == MODE_ANY
    gr = group[r]
    of = (group != gr).astype(np.int64) if any_miss else group
    others = np.arange(group.shape[0]) != r if copies is None \
        else copies > 0
    return [(others & (of == g),
             group_sign(hood.mode, g, gr, hood.class_factor))
            for g in range(hood.n_groups)]


def copies_seen(prep, r):
    """The instance weights as the visit to row r sees them
    (``doc/semantics.md``, "Instance weights"): every other row's weight,
    and R's own copies, max(w_R - 1, 0), at R's distance to itself."""
    copies = prep.instance_weights.copy()
    copies[r] = seen_weight(copies, r, r)
    return copies


def weighted_neighbours(r, dist, group, hood, copies):
    """``neighbours`` of instances that count as ``copies`` each
    (``copies_seen``), by ``neighbours.weighted_shares``: a row fills as
    many of the k slots as its weight; the members beyond the slot where
    the weight reaches k and its ties are cut off first."""
    chosen = np.empty(dist.shape[0], np.int64)
    coef = np.empty(dist.shape[0])
    n_chosen = 0
    for mask, sign in _groups(r, group, hood, copies):
        members = np.flatnonzero(mask)
        if members.shape[0]:
            member_dist, member_weights = dist[members], copies[members]
            order = np.argsort(member_dist, kind="stable")
            ranked = member_dist[order]
            kth = np.searchsorted(np.cumsum(member_weights[order]), hood.k)
            if kth < order.shape[0]:
                order = order[:np.searchsorted(
                    ranked, ranked[kth] * (1 + TIE_RTOL), "right")]
            n_chosen = weighted_shares(
                members, member_dist, member_weights, order, hood.k,
                hood.rank_weights, sign, chosen, coef, n_chosen)
    return chosen[:n_chosen], coef[:n_chosen]


def neighbours(r, dist, group, hood):
    """R's neighbours and their signed influences (``neighbours.select``
    without a screen: each group's k nearest, by ``neighbours.shares``).
    The members beyond the k-th distance and its ties, which ``shares``
    would drop one by one (in plain Python: 2/3 of a run), are cut off by
    a binary search first."""
    chosen = np.empty(dist.shape[0], np.int64)
    coef = np.empty(dist.shape[0])
    n_chosen = 0
    for mask, sign in _groups(r, group, hood):
        members = np.flatnonzero(mask)
        if members.shape[0]:
            member_dist = dist[members]
            order = np.argsort(member_dist, kind="stable")
            if order.shape[0] > hood.k:
                ranked = member_dist[order]
                order = order[:np.searchsorted(
                    ranked, ranked[hood.k - 1] * (1 + TIE_RTOL), "right")]
            n_chosen = shares(members, member_dist, order, hood.k,
                              hood.rank_weights, sign, chosen, coef, n_chosen)
    return chosen[:n_chosen], coef[:n_chosen]


def weighted_radius_neighbours(r, dist, group, hood, w, copies):
    """``radius_neighbours`` of instances that count as ``copies`` each
    (``copies_seen``): the radius of ``neighbours.weighted_radius``, each
    set averaged by its members' total weight, each member counting its
    weight."""
    low, high = thresholds(*weighted_radius(dist, copies, hood, w))
    return _within_thresholds(r, dist, group, hood, low, high, copies)


def radius_neighbours(r, dist, group, hood, w):
    """``neighbours`` for the radius rules (``neighbours._within_radius``):
    each group's members strictly inside the radius (``neighbours.radius``;
    sign / their count), and for the starred rules those strictly beyond
    the far threshold (-sign / their count); a distance within TIE_RTOL
    |centre| of a threshold is on it, in neither set.  Returns (chosen,
    coef, constant): MultiSURF*'s far groups, which score sameness, add
    their sign to every feature."""
    low, high = thresholds(*radius(r, dist, hood, w, NO_SCREEN)[:2])
    return _within_thresholds(r, dist, group, hood, low, high)


def _within_thresholds(r, dist, group, hood, low, high, copies=None):
    """(chosen, coef, constant) of R's groups split by the thresholds
    ``low`` and ``high`` (``radius_neighbours``): each set's members share
    its sign by their count, or with instance weights (``copies``) by
    their total weight, each member counting its weight."""
    chosen, coef, constant = [], [], 0.0
    for mask, sign in _groups(r, group, hood, copies):
        sets = [np.flatnonzero(mask & (dist < low))]
        if hood.far:
            sets.append(np.flatnonzero(mask & (dist > high)))
            if sets[1].shape[0] and hood.far_sameness:
                constant += sign
        for b, members in enumerate(sets):
            if members.shape[0]:
                chosen.extend(members)
                if copies is None:
                    coef.extend([bucket_share(b, members.shape[0], sign)]
                                * members.shape[0])
                else:
                    weights = copies[members]
                    coef.extend(bucket_share(b, weights.sum(), sign)
                                * weights)
    return np.array(chosen, dtype=np.int64), np.array(coef), constant


def _chosen(prep, hood, r, dist, w):
    """(chosen, coef, constant): R's neighbours and their signed influences
    for the distances ``dist`` (weighted by ``w``), by the run's rule; with
    instance weights those of one copy of R, its neighbours counting their
    weights."""
    if prep.instance_weights is not None:
        copies = copies_seen(prep, r)
        if hood.uses_k:
            return (*weighted_neighbours(r, dist, prep.group, hood, copies),
                    0.0)
        return weighted_radius_neighbours(r, dist, prep.group, hood, w,
                                          copies)
    if hood.uses_k:
        return (*neighbours(r, dist, prep.group, hood), 0.0)
    return radius_neighbours(r, dist, prep.group, hood, w)


def _visit(prep, hood, r, dist, target, regression, w):
    """The update row of visiting R whose distances (weighted by ``w``) to
    every instance are ``dist`` (with instance weights, the update of one
    copy of R, its neighbours counting their weights)."""
    chosen, coef, constant = _chosen(prep, hood, r, dist, w)
    d = diffs(prep, r, chosen)
    a = d.shape[1]
    upd = np.full(1 + 2 * a if regression else a, constant)
    for i, (j, c) in enumerate(zip(chosen, coef)):
        if regression:
            d_target = target_diff(target, r, j)
            upd[0] += d_target * c
            upd[1:1 + a] += c * d[i]
            upd[1 + a:] += (d_target * c) * d[i]
        else:
            upd += c * d[i]
    return upd


def relief_rows(prep, hood, rows, regression, out):
    """ReliefF: out[b] = the update of visiting rows[b] (and, in a wider
    row, the visit's STIR sums, as ``pair_sums.add_pair_sums``)."""
    target = prep.target if regression else None
    a = prep.n_used
    ones = np.ones(a)
    width = 1 + 2 * a if regression else a
    with_sums = out.shape[1] > width
    for start in range(0, len(rows), BLOCK):
        block = rows[start:start + BLOCK]
        dist = distances(prep, block)
        for b, r in enumerate(block):
            out[start + b, :width] = _visit(prep, hood, r, dist[b], target,
                                            regression, ones)
            if with_sums:
                out[start + b, width:] = pair_sums(prep, hood, r, dist[b],
                                                   ones)
            if prep.instance_weights is not None:   # (its w copies)
                out[start + b] *= prep.instance_weights[r]


def pair_sums(prep, hood, r, dist, w):
    """STIR's sums of visiting R (layout of ``pairsums``): per group (hits:
    negative coefficients, misses: positive) sum w d and sum w d^2 per
    feature, then sum w and sum w^2, w = |coef|; with instance weights
    those of one copy of R, whose neighbours' copies share their influence
    (``pair_sums.copy_square_sums``)."""
    chosen, coef, _ = _chosen(prep, hood, r, dist, w)
    d = diffs(prep, r, chosen)
    parts, scalars = [], []
    for mask in (coef < 0, coef > 0):
        weight = np.abs(coef[mask])
        parts += [weight @ d[mask], weight @ (d[mask] ** 2)]
        scalars += [weight.sum(), (weight * weight).sum()]
    if prep.instance_weights is not None:
        scalars[1], scalars[3] = copy_square_sums(
            chosen, coef, copies_seen(prep, r), chosen.shape[0])
    return np.concatenate(parts + [scalars])


class VectorisedBackend(Backend):
    """The NumPy path (see the module docstring) as a backend."""
    name = "vectorised"
    uncovered = "large sparse data"
    takes_instance_weights = True

    @classmethod
    def covers(cls, setup):
        return covers(setup.prep)

    def __init__(self, setup, n_threads=1):
        super().__init__(setup, n_threads)
        self.prep = dense_view(setup.prep)

    # the plain Python of the compiled backend's own functions
    estimate = staticmethod(estimate)
    step_weights = staticmethod(step_weights)

    def batch_updates(self, rows, upd):
        setup = self.setup
        relief_rows(self.prep, setup.hood, rows, setup.regression, upd)

    def weighted_update(self, r, w):
        setup, prep = self.setup, self.prep
        target = prep.target if setup.regression else None
        return _visit(prep, setup.hood, r, distances(prep, [r], w)[0],
                      target, setup.regression, w)


# -- NPDR's first use ---------------------------------------------------------
# NPDR's pairs from this path's neighbours, and its regressions as the
# compiled source run as plain Python (Newton's steps, Cholesky, status) with
# its loops over the pairs in NumPy: no numba function is compiled.  The
# pairs' sums are added in another order, so coefficients and statistics
# equal the compiled ones to rounding.

slot_share = interpreted(npdr_kernels.slot_share)


def npdr_rows(prep, hood, group, counts, rows):
    """NPDR's pairs of visiting ``rows`` (``npdr_kernels.neighbour_rows``):
    (first, second, weight), the visited row, its neighbour and the share
    of a slot it holds (``npdr_kernels.slot_share``)."""
    n = group.shape[0]
    any_miss = hood.mode == MODE_ANY
    ones = np.ones(prep.n_used)
    first, second, weight = [], [], []
    for start in range(0, len(rows), BLOCK):
        block = rows[start:start + BLOCK]
        dist = distances(prep, block)
        for b, r in enumerate(block):
            if hood.uses_k:
                chosen, coef = neighbours(r, dist[b], group, hood)
            else:
                chosen, coef, _ = radius_neighbours(r, dist[b], group, hood,
                                                    ones)
            first.append(np.full(chosen.shape[0], r, np.int32))
            second.append(chosen.astype(np.int32))
            weight.append(np.array([
                slot_share(hood, c, group[r], group[j], counts, any_miss, n)
                for j, c in zip(chosen, coef)], dtype=float))
    if not first:
        return np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0)
    return tuple(map(np.concatenate, (first, second, weight)))


def _design(d, Zt):
    """The design [1, d, Z] of the pairs, transposed (terms x pairs)."""
    return np.vstack((np.ones(d.shape[0]), d, Zt))


def _npdr_sums(d, Zt, outcome, weight, beta, logistic, H, g, X):
    """``npdr_kernels._sums``: H = X' V X and g = X' r over all pairs."""
    design = _design(d, Zt)
    if logistic:     # (eta clipped as npdr_pairs._exp clips it)
        mu = 1.0 / (1.0 + np.exp(np.clip(-(beta @ design), -708.0, 709.0)))
        v, r = weight * mu * (1.0 - mu), weight * (outcome - mu)
    else:
        v, r = weight, weight * outcome
    H[:, :] = (design * v) @ design.T
    g[:] = design @ r


def _npdr_log_likelihood(d, Zt, outcome, weight, beta):
    """``npdr_kernels.log_likelihood``: sum w (outcome eta - log(1 +
    exp(eta)))."""
    eta = beta @ _design(d, Zt)
    return float(weight @ (outcome * eta - np.logaddexp(0.0, eta)))


def _npdr_residual_sum(d, Zt, outcome, weight, beta):
    """``npdr_kernels.residual_sum``: sum w (outcome - [1, d, Z] beta)^2."""
    residual = outcome - beta @ _design(d, Zt)
    return float(weight @ (residual * residual))


def _npdr_column_diffs(f, first, second, num_t, nom_t, group, has_missing,
                       tables, out):
    """``npdr_kernels.column_diffs``: the diffs of kernel column f over the
    pairs, RELIEF-D's (``diffs``) for the pairs with a missing value."""
    a_num = num_t.shape[0]
    values = num_t[f] if f < a_num else nom_t[f - a_num]
    a, b = values[first], values[second]
    if f < a_num:
        np.abs(a - b, out=out)
        missing = np.isnan(a) | np.isnan(b)
    else:
        out[:] = a != b
        missing = (a < 0) | (b < 0)
    if has_missing:
        # (``diffs``' functions are plain Python here: nothing to compile)
        for q in np.flatnonzero(missing):
            i, j = first[q], second[q]
            if f < a_num:
                out[q] = numeric_diff(
                    f, values[i], values[j], group[i], group[j],
                    tables.num_sorted, tables.num_prefix, tables.num_start,
                    tables.num_pstart, tables.num_count, tables.num_both)
            else:
                out[q] = nominal_diff(f - a_num, values[i], values[j],
                                      group[i], group[j], tables.nom_prob,
                                      tables.nom_both)


_NPDR_LOOPS = dict(_sums=_npdr_sums, log_likelihood=_npdr_log_likelihood,
                   residual_sum=_npdr_residual_sum,
                   column_diffs=_npdr_column_diffs)

#: NPDR on this path (``npdr_kernels.Kernels``).
NPDR_FIRST_USE = npdr_kernels.Kernels(
    interpreted(npdr_kernels.fit, **_NPDR_LOOPS),
    interpreted(npdr_kernels.fit_columns, **_NPDR_LOOPS),
    _npdr_log_likelihood, npdr_rows)
