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
"""
import numpy as np
from numba import njit

from .diffs import JIT, nominal_diff, numeric_diff


def width(a):
    """The columns the sums add to an update row of a features."""
    return 4 * a + 4


@njit(**JIT)
def add_pair_sums(r, chosen, coef, n_chosen, data, out):
    """Write the sums of visiting R with neighbours ``chosen`` (signed
    influences ``coef``: negative for hits) into ``out`` (module docstring
    layout)."""
    num, nom = data.num, data.nom
    a_num = num.shape[1]
    a = a_num + nom.shape[1]
    out[:] = 0.0
    for i in range(n_chosen):
        j, c = chosen[i], coef[i]
        w = abs(c)
        base = 0 if c < 0 else 2 * a
        scalars = 4 * a + (0 if c < 0 else 2)
        out[scalars] += w
        out[scalars + 1] += w * w
        if data.has_missing:
            _add_missing(r, j, w, data, out[base:base + a],
                         out[base + a:base + 2 * a])
        else:
            _add_dense(num[r], num[j], nom[r], nom[j], w,
                       out[base:base + a], out[base + a:base + 2 * a])


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


@njit(**JIT)
def _add_missing(r, j, w, data, s1, s2):
    """The same with RELIEF-D's diffs."""
    num, nom, group, tables = data.num, data.nom, data.group, data.missing
    a_num = num.shape[1]
    for f in range(a_num):
        d = numeric_diff(f, num[r, f], num[j, f], group[r], group[j],
                         tables)
        s1[f] += w * d
        s2[f] += w * d * d
    for g in range(nom.shape[1]):
        d = nominal_diff(g, nom[r, g], nom[j, g], group[r], group[j],
                         tables)
        s1[a_num + g] += w * d
        s2[a_num + g] += w * d * d
