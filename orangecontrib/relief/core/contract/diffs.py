"""diff(A, I1, I2) of one feature, as ``doc/semantics.md`` defines it.

Values reach the kernels prepared (``prepare.py``): numeric values divided by
their range, so diff = |v1 - v2| (seed eq. euclidean); nominal values as codes,
diff 0 or 1 (eq. overlap); a missing value (NaN, or code -1) by RELIEF-D
(Kononenko 1994; seed eq. relief_d) from the class-conditional laws in
``MissingTables``.

``expected_abs``, ``numeric_diff``, ``nominal_diff`` and ``column_diff`` are
written once for every target (``register_jitable``): the compiled CPU loops
and the GPU's kernels (``cuda/kernels.py``) call these same functions, and
from Python they are plain Python (the NumPy first-use path).  They take the
RELIEF-D tables as plain arrays, in ``MissingTables``' order (a CUDA kernel
cannot take the named tuple).  ``numeric_diff``, ``nominal_diff`` and
``column_diff`` are inlined into the CPU's loops (``inline="always"``: a
call with a dozen arrays a diff cost 1.6x on STIR's sums with missing
values; ``numeric_diff`` left a call, 1.7x on those sums and 1.2x on the
whole ReliefF run with them), an inlining numba-cuda 0.30 fails to type:
the GPU compiles each as a device function (``kernels._device``).

``target_diff`` is RReliefF's diff(C, I1, I2), the difference of two
instances' targets: one numeric target's (a 1-D array, normalised by its
range) or several targets' (``Targets``: multi-target Relief, the mean of
the per-target differences).  Each form is compiled for its own type, so a
single target runs today's arithmetic.
"""
from typing import NamedTuple

import numpy as np
from numba import njit, types
from numba.core.cpu import CPUTargetOptions
from numba.extending import overload, register_jitable

JIT = dict(cache=True, nogil=True)
# The CPU's loops that call the RELIEF-D functions once per term (data with
# missing values), compiled without numba's reference counts (they allocate
# nothing).  Each call of a function that takes the tables, inlined or not,
# counted a reference to each of its arrays up and down, atomically: on
# 2,000 x 100 with 5 % of values missing, a distance row took 36 ns a term
# with the counts and 8 ns without (31 and 1.2 with 0.01 % missing), and two
# threads, contending for the same counters, were no faster than one.
# (``_nrt`` is numba's own option since before 0.57; were a numba without
# it installed, these loops would count again, and tests/test_kernels.py
# say so.)
NO_REFCOUNTS = dict(JIT, _nrt=False) if hasattr(CPUTargetOptions, "_nrt") \
    else JIT


@register_jitable
def count_below(sorted_vals, start, count, v):
    """How many values of ``sorted_vals[start:start + count]`` are below v
    (a binary search)."""
    lo, hi = start, start + count
    while lo < hi:
        mid = (lo + hi) >> 1
        if sorted_vals[mid] < v:
            lo = mid + 1
        else:
            hi = mid
    return lo - start


@register_jitable
def mean_abs_to(v, weight_below, sum_below, sum_all, weight_all):
    """E|X - v| for X over a sorted sample of total weight ``weight_all``
    (a count, or the instance weights' sum), of which ``weight_below`` lies
    below v, with sums of (weighted) values ``sum_below`` and ``sum_all``:
    RELIEF-D's numeric law, written once for the kernels (scalars) and
    NumPy (``prepare.expected_abs_to``, on arrays)."""
    return (v * weight_below - sum_below + (sum_all - sum_below)
            - v * (weight_all - weight_below)) / weight_all


@register_jitable
def counted_expected_abs(sorted_vals, prefix, start, pstart, count, v):
    """``expected_abs`` of an unweighted law: each value counts once."""
    below = count_below(sorted_vals, start, count, v)
    return mean_abs_to(v, below, prefix[pstart + below],
                       prefix[pstart + count], count)


@register_jitable
def weighted_expected_abs(sorted_vals, prefix, start, pstart, count, v):
    """``expected_abs`` of a law of weighted instances: ``prefix``'s
    columns are the prefix sums of w x and the cumulative weights
    (``prepare.Prepared.kernel_tables``)."""
    below = count_below(sorted_vals, start, count, v)
    at, end = pstart + below, pstart + count
    return mean_abs_to(v, prefix[at, 1], prefix[at, 0], prefix[end, 0],
                       prefix[end, 1])


def expected_abs(sorted_vals, prefix, start, pstart, count, v):
    """E|X - v| for X over a sorted sample (RELIEF-D, numeric):
    ``sorted_vals[start:start + count]`` with prefix sums from ``pstart``;
    a 1-D ``prefix`` (each value counts once: ``counted_expected_abs``),
    or with instance weights a 2-D one (``weighted_expected_abs``).
    Compiled code picks the form by the type (``_typed_expected_abs``), so
    unweighted runs compile today's arithmetic; plain Python here."""
    if prefix.ndim == 2:
        return weighted_expected_abs(sorted_vals, prefix, start, pstart,
                                     count, v)
    return counted_expected_abs(sorted_vals, prefix, start, pstart, count, v)


@overload(expected_abs)
def _typed_expected_abs(sorted_vals, prefix, start, pstart, count, v):
    """``expected_abs`` in compiled code: one form per ``prefix`` type."""
    if prefix.ndim == 2:
        return weighted_expected_abs
    return counted_expected_abs


@register_jitable(inline="always")
def numeric_diff(f, a, b, ca, cb, num_sorted, num_prefix, num_start,
                 num_pstart, num_count, num_both):
    """diff of numeric feature f between values a and b of instances of
    classes ca and cb: |a - b|, or E|X - v| with X from the other instance's
    class law when one is missing, E|X1 - X2| when both are (the tables of
    ``MissingTables``)."""
    if a == a:
        if b == b:
            return abs(a - b)
        return expected_abs(num_sorted, num_prefix, num_start[f, cb],
                            num_pstart[f, cb], num_count[f, cb], a)
    if b == b:
        return expected_abs(num_sorted, num_prefix, num_start[f, ca],
                            num_pstart[f, ca], num_count[f, ca], b)
    return num_both[f, ca, cb]


@register_jitable(inline="always")
def looked_up_numeric_diff(f, r, j, a, b, ca, cb, expected, column,
                           num_both):
    """``numeric_diff`` of instances r and j (values a and b, classes ca
    and cb) with E|X - v| looked up in ``prepare.Expectations``
    (``expected``, ``column``) instead of searched for: the same numbers
    (the CPU's loops with missing values, ``Speedups.expectations``)."""
    if a == a:
        if b == b:
            return abs(a - b)
        return expected[r, column[f], cb]
    if b == b:
        return expected[j, column[f], ca]
    return num_both[f, ca, cb]


@register_jitable(inline="always")
def nominal_diff(g, a, b, ca, cb, nom_prob, nom_both):
    """diff of nominal feature g between codes a and b (-1 missing): overlap,
    1 - P(v | class of the missing one) for one missing value, 1 - sum_u
    P(u | ca) P(u | cb) for two."""
    if a >= 0:
        if b >= 0:
            return 0.0 if a == b else 1.0
        return 1.0 - nom_prob[g, cb, a]
    if b >= 0:
        return 1.0 - nom_prob[g, ca, b]
    return nom_both[g, ca, cb]


@register_jitable(inline="always")
def column_diff(f, r, j, num, nom, group, num_sorted, num_prefix, num_start,
                num_pstart, num_count, num_both, nom_prob, nom_both):
    """diff(A, R, I_j) of kernel column f (the numeric columns of ``num``
    first, then the nominal ones of ``nom``), with RELIEF-D where a value
    is missing."""
    a_num = num.shape[1]
    if f < a_num:
        return numeric_diff(f, num[r, f], num[j, f], group[r], group[j],
                            num_sorted, num_prefix, num_start, num_pstart,
                            num_count, num_both)
    g = f - a_num
    return nominal_diff(g, nom[r, g], nom[j, g], group[r], group[j],
                        nom_prob, nom_both)


@njit(**JIT)
def from_zero(v, nominal):
    """diff(A, 0, v) on sparse data, where zeros are values: what a stored
    value differs from an implicit zero."""
    if nominal:
        return 1.0 if v != 0 else 0.0
    return abs(v)


class Targets(NamedTuple):
    """Several targets in kernel form (multi-target Relief): ``values`` (n x
    t float64) holds numeric targets divided by their range and nominal
    targets as their codes, NaN where a value is missing; ``nominal`` (t
    bool) says which targets are nominal."""
    values: np.ndarray
    nominal: np.ndarray


@register_jitable(inline="always")
def target_difference(target, r, j):
    """diff(C, R, J) of one numeric target normalised by its range,
    |y_R - y_J| (RReliefF)."""
    return abs(target[r] - target[j])


@register_jitable
def targets_difference(values, nominal, r, j):
    """diff(C, R, J) of several targets (Petkovic, Kocev & Dzeroski 2020):
    the mean over the targets known in both instances of each target's
    diff, |y_R - y_J| for a numeric target (divided by its range), 0 or 1
    for a nominal one; 0 when no target is known in both (the pair then
    adds nothing to N_dC and N_dC&dA; ``doc/semantics.md``)."""
    total = 0.0
    known = 0
    for c in range(values.shape[1]):
        u, v = values[r, c], values[j, c]
        if u != u or v != v:
            continue
        if nominal[c]:
            total += 0.0 if u == v else 1.0
        else:
            total += abs(u - v)
        known += 1
    return total / known if known > 0 else 0.0


def target_diff(target, r, j):
    """diff(C, R, J): ``target_difference`` of a 1-D target, or
    ``targets_difference`` of ``Targets``; compiled code picks the form by
    the type (``_typed_target_diff``), plain Python here."""
    if isinstance(target, Targets):
        return targets_difference(target.values, target.nominal, r, j)
    return target_difference(target, r, j)


@overload(target_diff, inline="always")
def _typed_target_diff(target, r, j):
    """``target_diff`` in compiled code: one form per type of target."""
    if isinstance(target, types.Array):
        return lambda target, r, j: target_difference(target, r, j)
    return lambda target, r, j: targets_difference(target.values,
                                                   target.nominal, r, j)
