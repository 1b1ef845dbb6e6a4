"""Float64 distances between instances: the numbers that decide neighbours.

delta(I1, I2) = sum_A w_A diff(A, I1, I2) (seed eq. relief_distance; with the
distance weights of dReliefF / pdReliefF, eq. weighted_distance).  Numeric
terms are summed first, then nominal ones, each in column order, so a pair
always gets the same number.  The screens (``screens.py``, ``nominal.py``,
``sparse.py``) only narrow down which instances need these.
"""
import numpy as np
from numba import njit, prange
from numba.extending import register_jitable

from .diffs import (JIT, NO_REFCOUNTS, looked_up_numeric_diff, nominal_diff,
                    numeric_diff)
from .prepare import Expectations, MissingTables

# For the sums over features without missing values: reassociation lets LLVM
# use SIMD; every pair of rows still gets the same sequence of operations.
FAST = dict(cache=True, nogil=True,
            fastmath={"reassoc", "nsz", "contract", "arcp"})

# Distances within this relative difference are the same distance (a tie):
# sums of the same diffs in another feature order differ only by rounding.
TIE_RTOL = 1e-10


@njit(**FAST)
def l1(x, y):
    """sum_A |x_A - y_A|."""
    s = 0.0
    for f in range(x.shape[0]):
        s += abs(x[f] - y[f])
    return s


@njit(**FAST)
def l1_weighted(x, y, w, zero):
    """sum_A w_A |x_A - y_A|, summed in the type of ``zero``."""
    s = zero
    for f in range(x.shape[0]):
        s += w[f] * abs(x[f] - y[f])
    return s


@njit(**FAST)
def mismatches(x, y):
    """The number of nominal features in which codes x and y differ."""
    count = 0
    for g in range(x.shape[0]):
        count += x[g] != y[g]
    return count


@njit(**FAST)
def mismatches_weighted(x, y, w, zero):
    """sum_g w_g [x_g != y_g], summed in the type of ``zero``."""
    s = zero
    for g in range(x.shape[0]):
        # (a product, not a select: 2-3x faster here, one row at a time;
        # the four-row loop of screens._weighted_block4 is faster with the
        # select)
        s += w[g] * (x[g] != y[g])
    return s


@njit(**JIT)
def distance(r, j, num, nom, w, weighted):
    """The float64 distance from R to I_j (dense, no missing values)."""
    a_num = num.shape[1]
    if weighted:
        return (l1_weighted(num[r], num[j], w[:a_num], 0.0)
                + mismatches_weighted(nom[r], nom[j], w[a_num:], 0.0))
    return l1(num[r], num[j]) + mismatches(nom[r], nom[j])


@register_jitable(inline="always")
def diff_sum(r, j, num, nom, group, num_sorted, num_prefix, num_start,
             num_pstart, num_count, num_both, nom_prob, nom_both, w,
             weighted, first, step):
    """sum_A w_A diff(A, R, I_j) (w_A = 1 unless ``weighted``) over the
    kernel columns first, first + step, ... (numeric columns first, then
    nominal; each in column order), with RELIEF-D where a value is missing
    (the tables of ``MissingTables``).  The CPU sums every column (first =
    0, step = 1); a GPU thread, its lane's share of them.  Written once for
    both (``register_jitable``)."""
    a_num = num.shape[1]
    gr, gj = group[r], group[j]
    s = 0.0
    for f in range(first, a_num, step):
        d = numeric_diff(f, num[r, f], num[j, f], gr, gj, num_sorted,
                         num_prefix, num_start, num_pstart, num_count,
                         num_both)
        s += w[f] * d if weighted else d
    for g in range((first - a_num) % step, nom.shape[1], step):
        d = nominal_diff(g, nom[r, g], nom[j, g], gr, gj, nom_prob, nom_both)
        s += w[a_num + g] * d if weighted else d
    return s


@njit(**JIT)
def distance_row(r, data, w, weighted, out, j0, j1):
    """out[j] = sum_A w_A diff(A, R, I_j) for j in [j0, j1) (w_A = 1 unless
    ``weighted``); dense data, with RELIEF-D where values are missing."""
    _distances(r, data.num, data.nom, data.group, data.has_missing,
               data.missing, data.expected, w, weighted, out, j0, j1)


@njit(**JIT)
def _distances(r, num, nom, group, has_missing, tables, expected, w,
               weighted, out, j0, j1):
    """``distance_row`` on the arrays themselves."""
    if has_missing:
        _missing_distances(r, num, nom, group, tables, expected, w,
                           weighted, out, j0, j1)
        return
    a_num = num.shape[1]
    xr, cr = num[r], nom[r]
    w_num, w_nom = w[:a_num], w[a_num:]
    zero = np.zeros(1, w.dtype)[0]
    for j in range(j0, j1):
        xj, cj = num[j], nom[j]
        if weighted:
            s = (l1_weighted(xr, xj, w_num, zero)
                 + mismatches_weighted(cr, cj, w_nom, zero))
        else:
            s = l1(xr, xj) + mismatches(cr, cj)
        out[j] = s


@njit(**NO_REFCOUNTS)
def _missing_distances(r, num, nom, group, t, expected, w, weighted, out,
                       j0, j1):
    """``_distances`` with missing values (RELIEF-D's tables ``t``):
    ``diff_sum`` for each j, or ``looked_up_sum`` where the ``expected``
    values are looked up (``prepare.Expectations``); without reference
    counts (``diffs.NO_REFCOUNTS``)."""
    looked_up = expected.values.shape[0] > 0
    for j in range(j0, j1):
        if looked_up:
            out[j] = looked_up_sum(r, j, num, nom, group, expected.values,
                                   expected.column, t.num_both, t.nom_prob,
                                   t.nom_both, w, weighted)
        else:
            out[j] = diff_sum(r, j, num, nom, group, t.num_sorted,
                              t.num_prefix, t.num_start, t.num_pstart,
                              t.num_count, t.num_both, t.nom_prob,
                              t.nom_both, w, weighted, 0, 1)


@register_jitable(inline="always")
def looked_up_sum(r, j, num, nom, group, expected, column, num_both,
                  nom_prob, nom_both, w, weighted):
    """``diff_sum`` over every column, E|X - v| looked up
    (``diffs.looked_up_numeric_diff``): the same terms in the same order,
    without a search per term with one value missing (on 2,000 x 100, 20
    columns nominal, 5 % of values missing: 6.9 ns a term with the search,
    2.0 looked up)."""
    a_num = num.shape[1]
    gr, gj = group[r], group[j]
    s = 0.0
    for f in range(a_num):
        d = looked_up_numeric_diff(f, r, j, num[r, f], num[j, f], gr, gj,
                                   expected, column, num_both)
        s += w[f] * d if weighted else d
    for g in range(nom.shape[1]):
        d = nominal_diff(g, nom[r, g], nom[j, g], gr, gj, nom_prob, nom_both)
        s += w[a_num + g] * d if weighted else d
    return s


@njit(**JIT)
def _distance_chunk(c, n_chunks, r, num, nom, group, has_missing, tables,
                    values, column, w, weighted, out):
    """Part c of ``distance_row_parallel`` (``tables`` as a plain tuple and
    the ``Expectations`` as their two arrays: numba 0.68 cannot pass a
    named tuple into a parallel loop)."""
    n = out.shape[0]
    _distances(r, num, nom, group, has_missing, MissingTables(*tables),
               Expectations(values, column), w, weighted, out,
               c * n // n_chunks, (c + 1) * n // n_chunks)


@njit(parallel=True, **JIT)
def distance_row_parallel(r, data, w, weighted, out, n_chunks):
    """``distance_row`` to every instance, in ``n_chunks`` parallel parts."""
    num, nom, group, has_missing = (data.num, data.nom, data.group,
                                    data.has_missing)
    t = data.missing
    tables = (t.num_sorted, t.num_prefix, t.num_start, t.num_pstart,
              t.num_count, t.num_both, t.nom_prob, t.nom_both)
    values, column = data.expected.values, data.expected.column
    for c in prange(n_chunks):
        _distance_chunk(c, n_chunks, r, num, nom, group, has_missing, tables,
                        values, column, w, weighted, out)
