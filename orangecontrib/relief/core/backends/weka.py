"""``compat="weka"``: Weka 3.9.7's ReliefFAttributeEval, to the last bit.

The rules, with Weka's source lines, are in
``tests/data/weka/WEKA_SEMANTICS.md`` (the section numbers below are that
file's); ``doc/semantics.md`` ("compat='weka'") says how they differ from the
default ones.  Everything that can change a neighbour or a rounding is done in
Weka's order: values are normalised before they are subtracted, a distance is
summed from 0.0 in column order, each class keeps k slots filled in row order,
the -W ranks come from Weka's unstable quicksort, and the merits are added
neighbour by neighbour in Weka's order.

The mode is a backend (``WekaBackend``) with a plan of its own (``start``:
Weka's data, visiting order and neighbours).  The visits of ReliefF find
their neighbours on all threads (``neighbour_rows``, run by
``runtime.in_threads``); the updates are then added in visiting order by one
thread (``update_rows``), as Weka adds them, so the merits are Weka's
doubles.  dReliefF and pdReliefF (which Weka does not have) weight each
term of the distance by the variant's distance weights (``feedback_rows``).
"""
import math
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp
from numba import njit

from .base import Backend, Setup
from ..contract.estimates import distance_weights
from ..options import is_whole, whole_number
from ..contract.prepare import (check_class_codes, check_finite, check_size,
                                checked_inputs, code_error, column_stats,
                                range_scale)
from ..result import ReliefResult
from .runtime import BATCH_BYTES, in_threads, pool

# A division by zero gives inf or NaN, as in Java (0/0: a constant target).
_JIT = dict(cache=True, nogil=True, error_model="numpy")

#: Weka's Utils.SMALL: a numeric range below it counts as none (section 2).
SMALL = 1e-6
#: java.util.Random's multiplier, increment and modulus 2^48 (section 6).
_JAVA_MULTIPLIER, _JAVA_INCREMENT, _JAVA_MASK = 0x5DEECE66D, 0xB, 2 ** 48 - 1


class WekaData(NamedTuple):
    """The table as Weka sees it.  ``values``: n x a, a numeric feature
    normalised by Weka's ``norm`` (0 without a range), a nominal one as its
    codes, NaN = missing; ``lost``: the diff of a nominal feature with a
    missing value, 1 - 1/(declared values); ``group``: a row's class code
    (-1 missing) or 0 for every row (regression); ``known``: the rows that
    are visited (a known class or target); ``target``: the normalised
    target (regression); ``prior``: count(c) / n over all n rows, of the
    classes present (``group`` indexes them); ``many``: more than two
    declared class values."""
    values: np.ndarray
    nominal: np.ndarray
    lost: np.ndarray
    group: np.ndarray
    known: np.ndarray
    target: np.ndarray
    prior: np.ndarray
    many: bool
    regression: bool

    @property
    def n_used(self):
        """The number of features the visits read: all of them."""
        return self.values.shape[1]


class WekaHood(NamedTuple):
    """The neighbours a visit takes: ``k`` per group, in ``n_groups`` groups
    (the classes present, or one for regression), ranked with the rank
    weights ``ranks`` when ``weighted`` (-W)."""
    k: int
    n_groups: int
    weighted: bool
    ranks: np.ndarray


# -- preparation (sections 2 and 3) -----------------------------------------

def weka_prepare(X, y, nominal, regression, n_values=None, n_class_values=None,
                 names=None):
    """``WekaData`` of X (n x a, NaN = missing; sparse data is made dense,
    absent entries being zeros as in Weka) and y (NaN = missing).  The
    declared numbers of values default to the largest code + 1."""
    X, y, nominal = checked_inputs(X, y, nominal, names)
    if sp.issparse(X):
        X = X.toarray()
    n, a = X.shape
    # min and max over every row, rows with a missing class included
    declared = _declared(X, nominal, n_values, names)
    values = np.array(X, dtype=float, order="C")
    _, lo, hi = column_stats(values)
    check_finite(lo, hi, names, ~nominal)
    lost = np.zeros(a)
    lost[nominal] = 1.0 - 1.0 / declared[nominal]
    numeric = np.flatnonzero(~nominal)
    values[:, numeric] = weka_norm(values[:, numeric], lo[numeric],
                                   hi[numeric])
    known = ~np.isnan(y)
    check_size(int(np.sum(known)))
    if regression:
        target = weka_norm(y[:, None], np.min(y[known]), np.max(y[known]))
        return WekaData(values, nominal, lost, np.zeros(n, np.int64), known,
                        target[:, 0], np.zeros(1), False, True)
    group, prior, many = _weka_classes(y, known, n_class_values)
    return WekaData(values, nominal, lost, group, known, np.zeros(n), prior,
                    many, False)


def weka_norm(X, lo, hi):
    """Weka's norm(x) = (x - min) / (max - min) of each column of X, and 0
    for a column with no known value or whose max - min is below 1e-6
    (Utils.eq, an absolute threshold); NaN stays NaN.  A range that
    overflows is taken from the halved values (``prepare.range_scale``),
    where Weka's would be NaN."""
    lo, hi = np.atleast_1d(lo), np.atleast_1d(hi)
    pre, shift, span = range_scale(lo, hi)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        flat = np.isnan(lo) | (hi == lo) | ((hi - lo < SMALL)
                                            & (lo - hi < SMALL))
        out = (X * pre - shift) / span          # X * 1.0 is X: Weka's numbers
    out[:, flat] = 0.0
    out[np.isnan(X)] = np.nan
    return out


def _declared(X, nominal, n_values, names):
    """The declared number of values of each nominal feature (1 for the
    others): ``n_values``, or the largest code + 1 (1 without a code)."""
    cols = np.flatnonzero(nominal)
    codes = X[:, cols]
    wrong = ~np.isnan(codes) & ((codes < 0) | (codes != np.floor(codes))
                                | np.isinf(codes))
    if wrong.any():
        raise code_error(cols[np.argmax(wrong.any(axis=0))], names)
    top = np.fmax.reduce(codes, axis=0, initial=-1.0)
    declared = np.ones(X.shape[1])
    if n_values is None:
        declared[cols] = np.maximum(top + 1, 1)
        return declared
    given = np.asarray(n_values, dtype=float).ravel()
    if given.shape[0] != X.shape[1]:
        raise ValueError(f"n_values has {given.shape[0]} entries but X has "
                         f"{X.shape[1]} features; give one per feature.")
    small = np.flatnonzero(given[cols] < np.maximum(top + 1, 1))
    if len(small):
        f = cols[small[0]]
        raise ValueError(f"n_values[{f}] = {given[f]:g} does not cover the "
                         f"codes of feature {f} (the largest is "
                         f"{int(top[small[0]])}); give the number of declared "
                         "values.")
    declared[cols] = given[cols]
    return declared


def _weka_classes(y, known, n_class_values):
    """Class indices per row (-1: missing), Weka's priors count(c) / n, n
    counting every row (section 8), and whether more than two class values
    are declared.  The classes present are re-coded to 0 .. c-1 in the
    order of their codes: a declared class no row has has prior 0 and no
    neighbours, so it adds nothing, and needs no slots or loops."""
    codes = y[known]
    check_class_codes(codes)
    top = int(codes.max()) + 1
    n_groups = top if n_class_values is None else int(n_class_values)
    if n_groups < top:
        raise ValueError(f"n_class_values = {n_class_values} does not cover "
                         f"the class codes (the largest is {top - 1}).")
    present, index, counts = np.unique(codes.astype(np.int64),
                                       return_inverse=True,
                                       return_counts=True)
    group = np.full(y.shape[0], -1, np.int64)
    group[known] = index.ravel()
    return group, counts / float(y.shape[0]), n_groups > 2


def inert_features(data):
    """The features whose diff is 0 for every pair of rows: one value and
    none missing (a numeric one without Weka's range has only the value 0),
    or nominal with one declared value.  They take no part in distances,
    nor in the feedback variants' "every w_A is 0" rule."""
    values = data.values
    one_value = np.fmin.reduce(values, axis=0) \
        == np.fmax.reduce(values, axis=0)
    return (one_value & ~np.isnan(values).any(axis=0)) \
        | (data.nominal & (data.lost == 0.0))


# -- which rows are visited (section 6) --------------------------------------

def java_seed(seed):
    """The state of ``new java.util.Random(seed)``: the seed (a Java long)
    scrambled with the multiplier, modulo 2^48."""
    return (int(seed) ^ _JAVA_MULTIPLIER) & _JAVA_MASK


@njit(**_JIT)
def java_next_ints(state, count, out):
    """``count`` calls of java.util.Random's nextInt() from ``state`` into
    ``out`` (signed 32-bit values); returns the new state.  The 48-bit
    product is taken modulo 2^64 (uint64 wraps), which keeps its low 48
    bits exact."""
    s = np.uint64(state)
    for i in range(count):
        s = (s * np.uint64(_JAVA_MULTIPLIER) + np.uint64(_JAVA_INCREMENT)) \
            & np.uint64(_JAVA_MASK)
        top = np.int64(s >> np.uint64(16))          # the top 32 of 48 bits
        out[i] = top - 2 ** 32 if top >= 2 ** 31 else top
    return np.int64(s)


def visiting_order(n_iterations, n, seed):
    """The rows Weka visits: every row in row order when m is None or
    m >= n; otherwise m draws with replacement, |nextInt()| mod n, from
    ``new Random(seed)``."""
    if n_iterations is None or n_iterations >= n:
        return np.arange(n, dtype=np.int64)
    draws = np.empty(int(n_iterations), np.int64)
    java_next_ints(java_seed(seed), len(draws), draws)
    return np.abs(draws) % n


def rank_weights(k, sigma):
    """Weka's rank weights exp(-((i / sigma) * (i / sigma))), i < k
    (section 7): Python's math.exp, which equals Java's Math.exp for every
    rank and sigma of the golden data (WEKA_SEMANTICS.md, section 7)."""
    return np.array([math.exp(-((i / float(sigma)) * (i / float(sigma))))
                     for i in range(k)])


# -- diffs, distances, neighbours (sections 3, 4, 5, 7) ----------------------

@njit(inline="always")
def _diff(u, v, nominal, lost):
    """Weka's difference() of two prepared values (section 3): nominal 0 or
    1, ``lost`` when one or both are missing; numeric |u - v|, 1 when both
    are missing, max(d, 1 - d) of the known one d when one is."""
    if nominal:
        if u != u or v != v:
            return lost
        return 0.0 if u == v else 1.0
    if u != u:
        if v != v:
            return 1.0
        d = v
    elif v != v:
        d = u
    else:
        return abs(u - v)
    return 1.0 - d if d < 0.5 else d


@njit(**_JIT)
def _distances(data, z, w, out):
    """out[j] = sum_A w_A diff(A, j, z), summed from 0.0 in column order
    (section 4; w = 1 for ReliefF, whose terms are then Weka's)."""
    values, nominal, lost = data.values, data.nominal, data.lost
    xz = values[z]
    for j in range(values.shape[0]):
        xj = values[j]
        d = 0.0
        for f in range(xj.shape[0]):
            d += w[f] * _diff(xj[f], xz[f], nominal[f], lost[f])
        out[j] = d


@njit(**_JIT)
def _slots(dist, group, z, k, slot_dist, slot_row, stored):
    """Weka's k slots of every group (section 5): rows in row order (z and
    rows of group -1 left out); the first k fill the slots, and a later row
    replaces the worst slot -- the first one holding the largest distance
    -- only when strictly nearer."""
    stored[:] = 0
    worst = np.zeros(stored.shape[0], np.int64)
    for i in range(dist.shape[0]):
        g = group[i]
        if i == z or g < 0:
            continue
        d, s = dist[i], stored[g]
        if s < k:
            slot_dist[g, s], slot_row[g, s] = d, i
            stored[g] = s + 1
        elif d < slot_dist[g, worst[g]]:
            slot_dist[g, worst[g]], slot_row[g, worst[g]] = d, i
        else:
            continue
        largest, worst[g] = -1.0, 0
        for q in range(stored[g]):
            if slot_dist[g, q] > largest:
                largest, worst[g] = slot_dist[g, q], q


@njit(inline="always")
def _in_order(keys, order, a, b):
    """Swap order[a] and order[b] when keys[order[a]] > keys[order[b]]."""
    if keys[order[a]] > keys[order[b]]:
        order[a], order[b] = order[b], order[a]


@njit(**_JIT)
def weka_sort(values, order):
    """order = the positions of ``values`` in ascending order as Weka's
    Utils.sort(double[]) leaves them (section 7): a quicksort, not stable,
    with a median-of-three pivot parked next to the last entry, fixed
    compare-and-swap steps for ranges of 2 and 3 entries, and NaN sorted as
    the largest double."""
    m = values.shape[0]
    keys = np.where(np.isnan(values), 1.7976931348623157e308, values)
    for i in range(m):
        order[i] = i
    stack = np.empty(2 * m + 4, np.int64)       # ranges still to sort
    stack[0], stack[1], top = 0, m - 1, 2
    while top:
        top -= 2
        left, right = stack[top], stack[top + 1]
        if right - left < 3:
            if right - left >= 1:
                _in_order(keys, order, left, left + 1)
            if right - left == 2:
                _in_order(keys, order, left, right)
                _in_order(keys, order, left + 1, right)
            continue
        middle = (left + right) // 2
        _in_order(keys, order, left, middle)
        _in_order(keys, order, left, right)
        _in_order(keys, order, middle, right)
        order[middle], order[right - 1] = order[right - 1], order[middle]
        pivot = keys[order[right - 1]]
        low, high = left, right - 1
        while True:
            low += 1
            while keys[order[low]] < pivot:
                low += 1
            high -= 1
            while keys[order[high]] > pivot:
                high -= 1
            if low >= high:
                break
            order[low], order[high] = order[high], order[low]
        order[low], order[right - 1] = order[right - 1], order[low]
        stack[top], stack[top + 1] = left, low - 1
        stack[top + 2], stack[top + 3] = low + 1, right
        top += 4


@njit(**_JIT)
def _neighbours(z, data, hood, w, dist, slot_dist, slot_row, order, found):
    """Visit z's neighbours: found[g, 0] = how many group g has, and
    found[g, 1:] the rows in the order the update takes them -- slot order,
    or with -W the order of Weka's sort of their distances (section 7)."""
    _distances(data, z, w, dist)
    stored = found[:, 0]
    _slots(dist, data.group, z, hood.k, slot_dist, slot_row, stored)
    for g in range(hood.n_groups):
        m = stored[g]
        if hood.weighted:
            weka_sort(slot_dist[g, :m], order[:m])
            for j in range(m):
                found[g, 1 + j] = slot_row[g, order[j]]
        else:
            found[g, 1:1 + m] = slot_row[g, :m]


@njit(**_JIT)
def neighbour_rows(rows, data, hood, found):
    """``_neighbours`` of each visit rows[b] into found[b] (distance
    weights 1); a row whose class is missing gets none."""
    n, a, k = data.values.shape[0], data.values.shape[1], hood.k
    dist, w = np.empty(n), np.ones(a)
    slot_dist = np.empty((hood.n_groups, k))
    slot_row = np.empty((hood.n_groups, k), np.int64)
    order = np.empty(k, np.int64)
    for b in range(rows.shape[0]):
        if data.known[rows[b]]:
            _neighbours(rows[b], data, hood, w, dist, slot_dist, slot_row,
                        order, found[b])
        else:
            found[b, :, 0] = 0


# -- the update and the merits (sections 8, 10, 11) --------------------------

@njit(**_JIT)
def _add_classification(z, data, hood, found, sums):
    """Visit z's terms, in Weka's order: hits, then the misses class by
    class; each diff divided by the number found, or times rank weight /
    their sum (-W); misses times P(c) / (1 - P(class(z))) when more than two
    class values are declared (section 8)."""
    values, nominal, lost = data.values, data.nominal, data.lost
    cl = data.group[z]
    rest = 1.0 - data.prior[cl]
    for step in range(hood.n_groups):
        c = cl if step == 0 else step - 1 + (step - 1 >= cl)
        m = found[c, 0]
        norm = 0.0
        for j in range(m if hood.weighted else 0):
            norm += hood.ranks[j]
        factor = data.prior[c] / rest
        for j in range(m):
            xn = values[found[c, 1 + j]]
            for f in range(sums.shape[0]):
                t = _diff(values[z, f], xn[f], nominal[f], lost[f])
                t = t * (hood.ranks[j] / norm) if hood.weighted else t / m
                if c == cl:
                    sums[f] -= t
                elif data.many:
                    sums[f] += factor * t
                else:
                    sums[f] += t


@njit(**_JIT)
def _add_regression(z, data, hood, found, sums):
    """Visit z's RReliefF sums [N_dC, N_dA (a), N_dCdA (a)] (section 10):
    for each neighbour, f = 1/m or rank weight / their sum (-W),
    N_dC += dC f, N_dCdA += (dC dA) f, N_dA += dA f."""
    values, nominal, lost = data.values, data.nominal, data.lost
    a = values.shape[1]
    m = found[0, 0]
    norm = 0.0
    for j in range(m if hood.weighted else 0):
        norm += hood.ranks[j]
    for j in range(m):
        row = found[0, 1 + j]
        share = hood.ranks[j] / norm if hood.weighted else 1.0 / m
        d_c = _diff(data.target[z], data.target[row], False, 0.0)
        sums[0] += d_c * share
        for f in range(a):
            d_a = _diff(values[z, f], values[row, f], nominal[f], lost[f])
            sums[1 + a + f] += (d_c * d_a) * share
            sums[1 + f] += d_a * share


@njit(**_JIT)
def weka_estimate(sums, t, regression, out):
    """Weka's merits after t visits (section 11): sums * (1.0 / t), or
    N_dCdA / N_dC - (N_dA - N_dCdA) / (t - N_dC); 0/0 is NaN, as in Java."""
    a = out.shape[0]
    if not regression:
        scale = 1.0 / t
        for f in range(a):
            out[f] = sums[f] * scale
        return
    for f in range(a):
        n_da, n_dcda = sums[1 + f], sums[1 + a + f]
        out[f] = n_dcda / sums[0] - (n_da - n_dcda) / (t - sums[0])


@njit(**_JIT)
def _visited(z, t, data, hood, found, sums, every, trace, written):
    """Add visit number t (1-based) of row z to ``sums`` (a row whose class
    is missing adds nothing but counts), and its trace point; returns the
    number of trace points written."""
    if data.known[z]:
        if data.regression:
            _add_regression(z, data, hood, found, sums)
        else:
            _add_classification(z, data, hood, found, sums)
    if every and t % every == 0:
        weka_estimate(sums, t, data.regression, trace[written])
        written += 1
    return written


@njit(**_JIT)
def update_rows(rows, done, data, hood, found, sums, every, trace):
    """ReliefF: add the updates of visits done + 1, ... (rows, with their
    neighbours ``found``) to ``sums`` in visiting order; the estimate after
    every ``every``-th visit into ``trace``.  Returns the trace points."""
    written = 0
    for b in range(rows.shape[0]):
        written = _visited(rows[b], done + b + 1, data, hood, found[b], sums,
                           every, trace, written)
    return written


@njit(**_JIT)
def feedback_rows(rows, done, data, hood, variant, T, active, sums, every,
                  trace):
    """dReliefF / pdReliefF: each visit t = done + 1, ... in order, its
    distance weights from Weka's merits after t - 1 visits
    (``estimates.distance_weights`` on the ``active`` features; the others
    0), its neighbours by those weighted distances, its update."""
    n, a, k = data.values.shape[0], data.values.shape[1], hood.k
    dist, w, current = np.empty(n), np.zeros(a), np.zeros(a)
    part, part_w = np.empty(active.shape[0]), np.empty(active.shape[0])
    slot_dist = np.empty((hood.n_groups, k))
    slot_row = np.empty((hood.n_groups, k), np.int64)
    order = np.empty(k, np.int64)
    found = np.zeros((hood.n_groups, k + 1), np.int64)
    written = 0
    for b in range(rows.shape[0]):
        z, t = rows[b], done + b + 1
        if data.known[z]:
            if t > 1:
                weka_estimate(sums, t - 1, data.regression, current)
            for i in range(active.shape[0]):
                part[i] = current[active[i]]
            distance_weights(part, t, variant, T, part_w, n)
            for i in range(active.shape[0]):
                w[active[i]] = part_w[i]
            _neighbours(z, data, hood, w, dist, slot_dist, slot_row, order,
                        found)
        written = _visited(z, t, data, hood, found, sums, every, trace,
                           written)
    return written



# -- the plan and the backend ----------------------------------------------

def start(X, y, nominal, options, n_values=None, n_class_values=None,
          feature_names=None):
    """Weka's plan of a run (``engine.relieff(..., compat="weka")``, the
    arguments as its): a ``base.Setup`` whose data is Weka's
    (``WekaData``) and whose neighbourhood is a ``WekaHood``;
    ``random_state`` is Weka's -D seed and ``n_iterations`` its -M."""
    data = weka_prepare(X, y, nominal, options.regression, n_values,
                        n_class_values, feature_names)
    n, a = data.values.shape
    order = visiting_order(_check_m(options.n_iterations), n,
                           _check_seed(options.random_state))
    k = min(options.k_nearest, n)
    hood = WekaHood(k, 1 if options.regression else data.prior.shape[0],
                    options.weight_by_distance,
                    rank_weights(k, options.sigma)
                    if options.weight_by_distance else np.ones(k))
    return Setup(options, data, order, options.T_for(order.shape[0]),
                 1 + 2 * a if options.regression else a, hood)


class WekaBackend(Backend):
    """Weka's ReliefFAttributeEval (see the module docstring)."""
    name = "weka"

    def __init__(self, setup, n_threads=1):
        super().__init__(setup, n_threads)
        if not setup.variant_entry.sequential:
            self.executor = self.resources.enter_context(pool(n_threads))
        else:
            self.active = np.flatnonzero(~inert_features(setup.prep))

    def largest_batch(self):
        """At most BATCH_BYTES of the visits' neighbour lists."""
        per_visit = self.setup.hood.n_groups * (self.setup.hood.k + 1)
        return max(64, BATCH_BYTES // (8 * per_visit))

    def visit_batch(self, rows, done, total, trace):
        """ReliefF: the neighbours on all threads, the merits added in
        Weka's order."""
        setup, hood = self.setup, self.setup.hood
        found = np.empty((len(rows), hood.n_groups, hood.k + 1), np.int64)
        in_threads(self.executor, self.n_threads, rows, found, setup.prep,
                   hood, kernel=neighbour_rows)
        return update_rows(rows, done, setup.prep, hood, found, total,
                           setup.options.trace_every or 0, trace)

    def visit_in_order(self, rows, done, total, trace):
        setup = self.setup
        return feedback_rows(rows, done, setup.prep, setup.hood,
                             setup.variant,
                             0.0 if setup.T is None else float(setup.T),
                             self.active, total,
                             setup.options.trace_every or 0, trace)

    def finish(self, run, total):
        """Weka's merits (``weka_estimate``) of every feature."""
        setup = self.setup
        m, a = setup.order.shape[0], setup.shape[1]
        weights = np.empty(a)
        weka_estimate(total, m, setup.regression, weights)
        run.end_trace(weights)
        traced = bool(run.trace_every)
        return ReliefResult(
            weights=weights,
            trace=np.array(run.points).reshape(-1, a) if traced else None,
            trace_steps=np.array(run.steps, dtype=np.int64)
            if traced else None,
            n_iterations=m, T=setup.T, regression=setup.regression,
            n_dropped=0)


def _check_m(n_iterations):
    """Weka's -M m: a whole number of at least 1 (m >= n visits every row
    in order), or None for every row."""
    if n_iterations is not None:
        whole_number(n_iterations, "n_iterations",
                     otherwise="or None (with compat='weka', m >= n visits "
                               "every instance in order)")
    return n_iterations


def _check_seed(random_state):
    """Weka's -D seed: any whole number (the seed of java.util.Random)."""
    if not is_whole(random_state) \
            or not -2 ** 63 <= random_state < 2 ** 63:
        raise ValueError(f"With compat='weka', random_state is Weka's -D "
                         f"seed, a whole number (Weka's default is 1); got "
                         f"{random_state!r}.")
    return int(random_state)
