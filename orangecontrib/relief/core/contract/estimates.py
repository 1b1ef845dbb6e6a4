"""The running estimate W_t and the distance weights the feedback variants
take from it (``doc/semantics.md``, "Feedback variants").

dReliefF weights the distance of step t by w_A = max(0, W_{t-1}[A]);
pdReliefF by w_A = max(0, f(W_{t-1}[A], t)) with f(w, t) = (1 - w)/t^T + w
(seed eq. f), and its softer ramps by the same blend with another s(t)
(``blend``).  At t = 1, or whenever every w_A is 0, all w_A = 1.

Every backend takes these from here: the compiled kernels call them inside
their loops, the other backends call the same functions from Python (the
NumPy first-use path and the result of any run as plain Python, so that a
first use compiles nothing).
"""
import numpy as np
from numba import njit
from numba.extending import register_jitable

from .diffs import JIT

VARIANT_RELIEFF, VARIANT_D, VARIANT_PD = 0, 1, 2
# ReliefF with fixed distance weights (Iter's runs after the first,
# ``relieff(distance_weights=...)``): the feedback loop, w = the fixed ones
VARIANT_FIXED = 3
# no fixed distance weights (``step_weights``)
NO_FIXED = np.zeros(0)
# the seed's softer progressive functions (its future work): pdReliefF's
# blend f(w, t) = s(t) + (1 - s(t)) w with s a linear or logistic ramp over
# the visits instead of 1 / t^T (``blend``); 4 is I-RELIEF's code
VARIANT_PD_LINEAR, VARIANT_PD_LOGISTIC = 5, 6
#: the logistic ramp's slope: s falls from 0.98 to 0.02 over its length
LOGISTIC_SLOPE = 8.0


@njit(**JIT)
def blend(t, variant, T):
    """s(t), the share of the uniform weights in the blend
    f(w, t) = (1 - w) s(t) + w of step t: pdReliefF's 1 / t^T (seed eq. f);
    for the ramps T is their length in visits L:
    linear max(0, 1 - (t - 1) / L), logistic 1 / (1 + exp(8 (t / L - 1/2)));
    0 for dReliefF (the estimate alone)."""
    if variant == VARIANT_PD:
        return 1.0 / t ** T
    if variant == VARIANT_PD_LINEAR:
        return max(0.0, 1.0 - (t - 1) / T)
    if variant == VARIANT_PD_LOGISTIC:
        return 1.0 / (1.0 + np.exp(LOGISTIC_SLOPE * (t / T - 0.5)))
    return 0.0


@njit(**JIT)
def estimate(total, t, regression, out):
    """The weight estimate after t visits, as if the run stopped there.

    Classification: the sum of updates / t (Fig. relieff).  Regression:
    N_dCdA / N_dC - (N_dA - N_dCdA) / (t - N_dC) (RReliefF); a zero
    denominator makes its term 0.
    """
    estimate_range(total, t, regression, out, 0, out.shape[0])


@register_jitable(inline="always")
def estimate_range(total, t, regression, out, f0, f1):
    """``estimate`` for the features [f0, f1) (all: ``estimate``; one: a
    GPU thread's, ``cuda/kernels.feedback_visits``)."""
    a = out.shape[0]
    if not regression:
        for f in range(f0, f1):
            out[f] = total[f] / t
        return
    ndc = total[0]
    for f in range(f0, f1):
        nda, ndcda = total[1 + f], total[1 + a + f]
        first = ndcda / ndc if ndc != 0 else 0.0
        second = (nda - ndcda) / (t - ndc) if t - ndc != 0 else 0.0
        out[f] = first - second


def estimate_after(total, t, regression):
    """The weights after t visits from the sums ``total`` of their updates
    (``estimate``, into a new array: for callers in Python)."""
    a = (total.shape[0] - 1) // 2 if regression else total.shape[0]
    out = np.empty(a)
    # (its plain Python: once a run, and a first use compiles nothing)
    estimate.py_func(total, t, regression, out)
    return out


@njit(**JIT)
def residue(t, n):
    """The largest distance weight at step t that counts as 0, on n
    instances: a bound of the rounding error of W_{t-1}.  t 2^-52 bounds
    that of the running sum of t - 1 updates of at most 2 in size, divided
    by t - 1; (n + 2) 2^-50 that of one update, a sum over at most n - 1
    neighbours whose influences add up to at most 4 in size (hits, misses,
    far hits, far misses), each rounded with its coefficient.  Weights that
    are 0 in exact arithmetic come out at ~1e-17 (1/4 + 1/4 - 1/2 summed in
    another order), or at ~1e-14 when hundreds of tied neighbours share k
    slots (an ID column, whose every diff is 1: -1 + 1 from rounded
    shares).  As distance weights they kept rows apart that exact
    arithmetic (and the sparse computation) sees tied, or made the residue
    the only positive weight, and chose other neighbours."""
    return t * 2.0 ** -52 + (n + 2) * 2.0 ** -50


@njit(inline="always", **JIT)
def progressive(w, s):
    """f(w, t) = (1 - w) s(t) + w (seed eq. f): the estimate w blended with
    the uniform weight 1 by the share s = s(t) of step t (``blend``)."""
    return (1.0 - w) * s + w


@njit(inline="always", **JIT)
def blended(variant):
    """Whether the variant's distance weights are ``progressive``
    (pdReliefF and its ramps), not the estimate alone (dReliefF)."""
    return variant == VARIANT_PD or variant >= VARIANT_PD_LINEAR


@njit(inline="always", **JIT)
def weights_of(values, divisor, t, variant, T, w, f0, f1, n):
    """w_A = max(0, f(values[A] / divisor, t)) for the features [f0, f1):
    f is ``progressive`` where the variant is ``blended``, else the estimate
    itself; a w_A within the rounding error of the estimate on n instances
    (``residue(t, n)``) is 0.  Returns how many are positive."""
    # (branch-free, so that it vectorises: 20,000 features took 35 us)
    scale = blend(t, variant, T)
    pd = blended(variant)
    tiny = residue(t, n)
    n_positive = 0
    for f in range(f0, f1):
        v = values[f] / divisor
        v = progressive(v, scale) if pd else v
        v = v if v > tiny else 0.0       # also catches NaN
        w[f] = v
        n_positive += v > 0.0
    return n_positive


@njit(**JIT)
def distance_weights(current, t, variant, T, out, n):
    """w_A for the distance at step t (1-based) from the estimate W_{t-1}.

    dReliefF: max(0, W_{t-1}[A]); pdReliefF: max(0, f(W_{t-1}[A], t)) with
    f(w, t) = (1 - w) / t^T + w (seed eq. f).  At t = 1, or when every w_A is
    0, all w_A = 1 (and the return value is False).  A w_A within the
    rounding error of W_{t-1} on n instances (``residue(t, n)``) is 0.
    """
    a = out.shape[0]
    n_positive = 0
    if t > 1:
        n_positive = weights_of(current, 1.0, t, variant, T, out, 0, a, n)
    if n_positive == 0:
        out[:] = 1.0
    return n_positive > 0


@njit(**JIT)
def weights_of_range(total, t, variant, T, w, f0, f1, n):
    """``distance_weights`` of the estimate total / (t - 1) for the features
    [f0, f1) (classification, t > 1), in one pass: the same numbers, one
    read of the features instead of three (the divisions take most of it).
    Returns how many are positive."""
    return weights_of(total, t - 1, t, variant, T, w, f0, f1, n)


@njit(**JIT)
def feedback_weights(total, t, variant, T, regression, current, w, n):
    """``distance_weights(estimate(total, t - 1), t, ...)`` into ``w``
    (``current``: scratch); for classification by ``weights_of_range``."""
    if regression or t == 1:
        if t > 1:
            estimate(total, t - 1, regression, current)
        return distance_weights(current, t, variant, T, w, n)
    n_positive = weights_of_range(total, t, variant, T, w, 0, w.shape[0], n)
    if n_positive == 0:
        w[:] = 1.0
    return n_positive > 0


@njit(**JIT)
def step_weights(total, t, variant, T, regression, current, w, n, fixed):
    """The distance weights of step t: ``feedback_weights``, each times the
    fixed weight of its feature (``fixed``, kernel columns; empty: none),
    or the fixed weights alone for VARIANT_FIXED; when no product is
    positive, the fixed weights (the rule "all w_A = 1", scaled)."""
    if variant == VARIANT_FIXED:
        w[:] = fixed
        return True
    positive = feedback_weights(total, t, variant, T, regression, current, w,
                                n)
    if fixed.shape[0] == 0:
        return positive
    n_positive = 0
    for f in range(w.shape[0]):
        w[f] *= fixed[f]
        n_positive += w[f] > 0.0
    if n_positive == 0:
        w[:] = fixed
    return True


@register_jitable
def feature_step_weight(total, t, variant, T, regression, n, fixed, current,
                        w, f):
    """``step_weights``' w_f alone (the GPU's feedback kernel: a thread a
    feature), before its rule for no positive weight, which needs every
    feature's: where the returned counts (1: w_f > 0) add up to 0, every
    w_A is the fixed weight (``fixed``; empty: 1).  ``current``: scratch
    for regression's estimate."""
    if variant == VARIANT_FIXED:
        w[f] = fixed[f]
        return 1
    positive = 0
    if t == 1:
        w[f] = 0.0
    elif regression:
        estimate_range(total, t - 1, True, current, f, f + 1)
        positive = weights_of(current, 1.0, t, variant, T, w, f, f + 1, n)
    else:
        positive = weights_of(total, t - 1, t, variant, T, w, f, f + 1, n)
    if fixed.shape[0]:
        w[f] *= fixed[f]
        positive = 1 if w[f] > 0.0 else 0
    return positive


@njit(**JIT)
def row_sum_coefficients(total, t, variant, T, regression):
    """(c0, c1, c2) with w_A = c0 + c1 s1(A) + c2 s2(A) for the features with
    w_A > 0 at step t (``distance_weights``): ``progressive`` is linear in
    W_A, w_A = f(0, t) + (f(1, t) - f(0, t)) W_A (f(0, t) = s = 0 for
    dReliefF, whose ``blend`` is 0), with W_A = total[A] / (t - 1), or for
    regression c1 N_dA + c2 N_dCdA with the coefficients of ``estimate``.
    The sparse running row sums (``sparse.track_row_sums``) rely on this
    linear form."""
    s = blend(t, variant, T)
    c0 = progressive(0.0, s)
    slope = progressive(1.0, s) - c0
    visits = t - 1
    if regression:
        ndc = total[0]
        first = 1.0 / ndc if ndc != 0 else 0.0
        second = 1.0 / (visits - ndc) if visits - ndc != 0 else 0.0
        return c0, -second * slope, (first + second) * slope
    return c0, slope / visits, 0.0


@njit(**JIT)
def dot(x, y):
    """sum x_i y_i with four running sums (one had to wait for the previous
    addition at every term: 21 us for 20,000 features)."""
    s0 = s1 = s2 = s3 = 0.0
    m = x.shape[0] // 4 * 4
    for i in range(0, m, 4):
        s0 += x[i] * y[i]
        s1 += x[i + 1] * y[i + 1]
        s2 += x[i + 2] * y[i + 2]
        s3 += x[i + 3] * y[i + 3]
    for i in range(m, x.shape[0]):
        s0 += x[i] * y[i]
    return (s0 + s1) + (s2 + s3)
