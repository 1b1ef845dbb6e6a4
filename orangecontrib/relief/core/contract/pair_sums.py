"""STIR's one-pass sums over the (visit, neighbour) pairs of ReliefF.

STIR (Le et al. 2019; ``stats.stir``, doc/statistics.md) tests, per feature,
the mean diff to the misses against the mean diff to the hits over all
pairs, each pair weighted by the neighbour's influence w = |coef| (its
share of the group, times P(C)/(1 - P(class(R))) for the misses of class
C).  A visit's sums go to the end of its update row, after the a weight
columns:

    [S1_hit (a), S2_hit (a), S1_miss (a), S2_miss (a),
     W_hit, Q_hit, W_miss, Q_miss]

S1 = sum w diff, S2 = sum w diff^2, W = sum w, Q = sum w^2; the engine adds
the rows in visiting order like the weights' (O(a) memory per visit, no
per-pair storage).  Dense data (with RELIEF-D for missing values).

With instance weights (doc/semantics.md, "Instance weights") a neighbour j
of weight w_j stands for w_j copies that share its influence |coef_j|
equally, so S1, S2 and W are as above and Q adds w_j (|coef_j| / w_j)^2 =
coef_j^2 / w_j (``add_copy_pair_sums``); the visit's row then counts w_R
times, as its update does.  Integer weights give the sums of the table with
each row repeated.
"""
from numba import njit
from numba.extending import register_jitable

from .diffs import JIT, NO_REFCOUNTS, column_diff, looked_up_numeric_diff


def width(a):
    """The columns the sums add to an update row of a features."""
    return 4 * a + 4


@njit(**JIT)
def add_pair_sums(r, chosen, coef, n_chosen, data, out):
    """Write the sums of visiting R with neighbours ``chosen`` (signed
    influences ``coef``: negative for hits) into ``out`` (module docstring
    layout)."""
    num, nom = data.num, data.nom
    a = num.shape[1] + nom.shape[1]
    out[:] = 0.0
    out[4 * a], out[4 * a + 1], out[4 * a + 2], out[4 * a + 3] = \
        weight_sums(coef, 0, n_chosen, 0.0, 0.0, 0.0, 0.0)
    if data.has_missing:
        _missing_pair_sums(r, chosen, coef, n_chosen, num, nom, data.group,
                           data.missing, data.expected, out, a)
        return
    for i in range(n_chosen):
        j, c = chosen[i], coef[i]
        base = 0 if c < 0 else 2 * a
        _add_dense(num[r], num[j], nom[r], nom[j], abs(c),
                   out[base:base + a], out[base + a:base + 2 * a])


@njit(**NO_REFCOUNTS)
def _missing_pair_sums(r, chosen, coef, n_chosen, num, nom, group, t,
                       expected, out, a):
    """``add_pair_sums``' per-feature sums with missing values (RELIEF-D's
    tables ``t``): ``feature_pair_sums``, or for a numeric feature
    ``looked_up_pair_sums`` where the ``expected`` values are looked up
    (``prepare.Expectations``); without reference counts
    (``diffs.NO_REFCOUNTS``)."""
    looked_up = expected.values.shape[0] > 0
    for f in range(a):
        if looked_up and f < num.shape[1]:
            sums = looked_up_pair_sums(f, r, chosen, coef, n_chosen, num,
                                       group, expected.values,
                                       expected.column, t.num_both)
        else:
            sums = feature_pair_sums(f, r, chosen, coef, 0, n_chosen, num,
                                     nom, group, t.num_sorted, t.num_prefix,
                                     t.num_start, t.num_pstart, t.num_count,
                                     t.num_both, t.nom_prob, t.nom_both, 0.0,
                                     0.0, 0.0, 0.0)
        out[f], out[a + f], out[2 * a + f], out[3 * a + f] = sums


@register_jitable(inline="always")
def looked_up_pair_sums(f, r, chosen, coef, n_chosen, num, group, expected,
                        column, num_both):
    """``feature_pair_sums`` of numeric column f from zero, E|X - v| looked
    up (``diffs.looked_up_numeric_diff``): the same sums in the same order,
    without a search per term with one value missing."""
    s1_hit = s2_hit = s1_miss = s2_miss = 0.0
    for e in range(n_chosen):
        j = chosen[e]
        d = looked_up_numeric_diff(f, r, j, num[r, f], num[j, f], group[r],
                                   group[j], expected, column, num_both)
        s1_hit, s2_hit, s1_miss, s2_miss = pair_terms(
            coef[e], d, s1_hit, s2_hit, s1_miss, s2_miss)
    return s1_hit, s2_hit, s1_miss, s2_miss


@njit(**JIT)
def add_copy_pair_sums(r, chosen, coef, n_chosen, copies, data, out):
    """``add_pair_sums`` of one copy of R whose neighbours count as
    ``copies`` each (the instance weights as the visit sees them): the
    influence |coef_e| of neighbour chosen[e] is shared by its copies, so
    Q adds coef_e^2 / copies[chosen[e]] (module docstring)."""
    add_pair_sums(r, chosen, coef, n_chosen, data, out)
    a = data.num.shape[1] + data.nom.shape[1]
    out[4 * a + 1], out[4 * a + 3] = copy_square_sums(chosen, coef, copies,
                                                      n_chosen)


@register_jitable
def copy_square_sums(chosen, coef, copies, n_chosen):
    """(Q_hit, Q_miss) of neighbours that count as ``copies`` each: the sum
    of coef_e^2 / copies[chosen[e]] over the hits (coef_e < 0) and the
    misses (``weight_sums``' Q of the copies one by one)."""
    q_hit = q_miss = 0.0
    for e in range(n_chosen):
        c = coef[e]
        q = c * c / copies[chosen[e]]
        if c < 0:
            q_hit += q
        else:
            q_miss += q
    return q_hit, q_miss


@register_jitable(inline="always")
def weight_sums(coef, begin, end, w_hit, q_hit, w_miss, q_miss):
    """(W_hit, Q_hit, W_miss, Q_miss) plus sum w and sum w^2, w = |coef_e|,
    over the hits (coef_e < 0) and the misses of coef[begin:end].  Written
    once for the CPU and the GPU (``register_jitable``)."""
    for e in range(begin, end):
        c = coef[e]
        w = abs(c)
        if c < 0:
            w_hit += w
            q_hit += w * w
        else:
            w_miss += w
            q_miss += w * w
    return w_hit, q_hit, w_miss, q_miss


@register_jitable(inline="always")
def feature_pair_sums(f, r, chosen, coef, begin, end, num, nom, group,
                      num_sorted, num_prefix, num_start, num_pstart,
                      num_count, num_both, nom_prob, nom_both, s1_hit, s2_hit,
                      s1_miss, s2_miss):
    """(S1_hit, S2_hit, S1_miss, S2_miss) of kernel column f plus sum w d and
    sum w d^2 over the hits (coef_e < 0) and the misses among the neighbours
    chosen[begin:end], w = |coef_e|, d = diff(A, R, I_e) with RELIEF-D where
    a value is missing.  The CPU (with missing values) and the GPU's
    ``updates`` kernel (one thread a feature) call this one function."""
    for e in range(begin, end):
        c = coef[e]
        d = column_diff(f, r, chosen[e], num, nom, group, num_sorted,
                        num_prefix, num_start, num_pstart, num_count,
                        num_both, nom_prob, nom_both)
        s1_hit, s2_hit, s1_miss, s2_miss = pair_terms(
            c, d, s1_hit, s2_hit, s1_miss, s2_miss)
    return s1_hit, s2_hit, s1_miss, s2_miss


@register_jitable(inline="always")
def pair_terms(c, d, s1_hit, s2_hit, s1_miss, s2_miss):
    """One neighbour's terms of the sums: w d and w d^2 (w = |c|, d its
    diff) added to the hits' sums for c < 0, else to the misses'."""
    w = abs(c)
    if c < 0:
        return s1_hit + w * d, s2_hit + w * d * d, s1_miss, s2_miss
    return s1_hit, s2_hit, s1_miss + w * d, s2_miss + w * d * d


@njit(**JIT)
def _add_dense(xr, xj, cr, cj, w, s1, s2):
    """s1 += w d, s2 += w d^2 for one pair without missing values (on row
    views and slices, so that the loops vectorise)."""
    a_num = xr.shape[0]
    for f in range(a_num):
        d = abs(xr[f] - xj[f])
        s1[f] += w * d
        s2[f] += w * d * d
    for g in range(cr.shape[0]):
        if cr[g] != cj[g]:
            s1[a_num + g] += w
            s2[a_num + g] += w
