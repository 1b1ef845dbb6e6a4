"""I-RELIEF (Sun 2007): soft neighbourhoods from the current weights, new
weights from the margins they give, repeated until the weights settle.

Y. Sun, "Iterative RELIEF for feature weighting: algorithms, theories, and
applications", IEEE TPAMI 29(6), 2007 (equations numbered as in the
preprint, as mlpy cites it).  With the weights w^(t-1), for every instance
x_n, with M_n its misses (every instance of another class: Sun's multiclass
margin takes the nearest miss among all other classes) and H_n its hits
(its own class, x_n excluded), f(d) = exp(-d / sigma) and
d_i = ||x_n - x_i||_w = sum_A w_A diff(A, x_n, x_i):

* alpha_{i,n} = f(d_i) / sum_{j in M_n} f(d_j), the probability that x_i
  is x_n's nearest miss (eq. 8);
* beta_{i,n} = f(d_i) / sum_{j in H_n} f(d_j), that it is the nearest hit
  (eq. 9);
* gamma_n = 1 - sum_{j in M_n} f(d_j) / sum_{j != n} f(d_j), the
  probability that x_n is not an outlier (eq. 10);
* nu = (1/N) sum_n gamma_n (sum_{i in M_n} alpha_{i,n} ``|x_n - x_i|``
  - sum_{i in H_n} beta_{i,n} ``|x_n - x_i|``), the mean margin vector, and
  w^(t) = (nu)_+ / ||(nu)_+||_2 (eq. 12),

from w^(0) = 1/I until ||w^(t) - w^(t-1)||_2 < theta (Sun's stopping rule)
or ``max_iterations``.  ``|x_n - x_i|`` is the engine's diff per feature
(``doc/semantics.md``): numeric range-normalised, nominal overlap,
RELIEF-D where a value is missing.

Damping (``damping``; not in Sun's paper).  Sun proves that the iteration
w <- T(w) converges for a kernel wide enough (T is then a contraction); for
the kernel widths that see interactions it need not.  On epistatic data
(GAMETES: the class a function of P1 and P2 together, neither alone) it
ends in a 2-cycle: with the weight on P1, neighbours agree on P1 and only P2
separates hits from misses, so T puts the weight on P2, and back; the
symmetric point between them is a fixed point of T, but a repelling one
(T's derivative there has an eigenvalue below -1), and the swing grows
(``doc/redundancy.md``, undamped: 0 of 30 GAMETES runs converged in 200
iterations at sigma = 2).  Widening the kernel does not cure it on that
data (of the widths 0.5 to 16, only 16 converged, on one of the two
samples scanned, after 164 iterations), so the cure here is the damped
(Krasnosel'skii-Mann) iteration

    w^(t) = ((1 - lambda) w^(t-1) + lambda T(w^(t-1))) / ||...||_2,

which has exactly T's fixed points and turns an eigenvalue mu of T's
derivative into 1 - lambda + lambda mu: for lambda = 1/2 every mu in
(-3, 1) is attracting.  ``damping="auto"`` (the default) runs Sun's
iteration (lambda = 1) and halves lambda (1/2, 1/4, ... down to 1/64) only
when the residual r_t = T(w^(t-1)) - w^(t-1) has turned back (r_t . r_{t-1}
< 0) without shrinking to half its length, twice in a row: a run that
converges without oscillating is Sun's to the last bit.  ``damping=None``
is Sun's iteration always; a number is a fixed lambda.  The stopping rule
reads the undamped residual ||T(w) - w||_2 < theta, and the step that meets
it is whole (w^(T) = T(w^(T-1))), so a converged run, damped or not, ends
at a fixed point of Sun's map to within theta.  On the head-to-head
(``doc/redundancy.md``) "auto" damps every GAMETES run and a third of the
Modulo-4-3 runs, and all 150 runs converge (at most 18 iterations at sigma
= 2; before, 30 GAMETES and 4 Modulo runs did not).

Differences from PyMVPA's ``IterativeRelief`` (mvpa2/measures/irelief.py):
PyMVPA works on the raw values (no range normalisation, no nominal or
missing values), starts from w = 1 / sum(1^2) = 1/I as here, sets the
kernel to 0 where two instances are at distance 0 ("otherwise I-RELIEF
could not converge"; here f(0) = 1, Sun's kernel, so duplicates count as
neighbours as in ReliefF), and stops on the L1 change (threshold 1e-2,
no iteration limit); mlpy's ``IRelief`` stops on the L2 change, as here.
Both default to a kernel width of 1 on raw values; here sigma is in units
of range-normalised diffs (see ``irelief``).  ``inliers=False`` drops
gamma_n (soft neighbours without Sun's outlier removal).  Regression: Sun
gives no form (a ValueError).

One iteration visits every instance once, in parallel: a weighted distance
row, the kernel over it, and the update sum_j coef_j diff(A, x_n, x_j) over
all other instances; no n x n matrix.  With missing values these are the
engine's (``distances.distance_row``, ``updates.update``: RELIEF-D).
Without, the distances skip the features of weight 0 (after the first
iteration about two thirds of them on GAMETES' 1,000 SNPs), count the nominal
mismatches by popcount where the weights are equal (the first iteration,
w = 1/I; ``nominal.mismatches_block4``), and take four other instances at
a time, as the update does (``dense_distances``, ``dense_update``); and on
wide data (``by_pairs``) each pair is visited once, its diff vector added
with the coefficients of both its instances' margins (diff(A, x_n, x_j) =
diff(A, x_j, x_n) without missing values): half the updates.  Instances are
taken in chunks of ``CHUNK`` whose margins are added in chunk order, so the
weights do not depend on the number of threads or on how progress splits an
iteration; the paths differ from one another and from the loop of the
paper only in the order of the sums (on the benchmarks of
``benchmarks/bench_irelief.py``, by at most 3.1e-14 after four
iterations).
"""
from dataclasses import dataclass
from typing import Optional

import numpy as np
import scipy.sparse as sp
import numba
from numba import njit, prange

from .backends.base import to_features
from .contract.diffs import JIT
from .contract.distances import FAST, distance_row
from .messages import warn
from .contract.nominal import mismatches_block4, pack_planes
from .options import check_irelief_options
from .contract.prepare import (Data, Expectations, MissingTables,
                               SparseRows, looked_up, prepare)
from .result import ReliefResult
from .backends.runtime import threads
from .contract.updates import update

__all__ = ["irelief", "IReliefResult"]

#: Instances per parallel chunk (the unit of the summation order).
CHUNK = 16
#: Nanoseconds per ordered pair of instances and feature of an update, and
#: per exp (measured on GAMETES, 1,600 x 1,000 SNPs, one core, AMD EPYC;
#: ``by_pairs``).
PAIR_COSTS = (0.04, 3.0)
#: "auto": visit pairs where ``by_pairs``' cost model says so; True, False:
#: always, never (where the data allows; for tests).
PAIRS = "auto"
#: By pairs, the rows of a block keep their distances and kernel values:
#: this many bytes at most (but at least CHUNK rows per thread).
PAIR_BLOCK_BYTES = 8_000_000
#: damping="auto": the first damped step (lambda), the smallest lambda it
#: halves to, and how many turned-back residuals in a row count as an
#: oscillation.
AUTO_DAMPING = 0.5
MIN_DAMPING = 1 / 64
REVERSALS = 2
#: Terms (instance pairs x features) per call into the kernels when
#: progress is reported: about 0.1 s on one core.
BATCH_TERMS = 50_000_000


@dataclass
class IReliefResult(ReliefResult):
    """A ``ReliefResult`` of I-RELIEF: ``weights`` w^(T) (unit L2 norm over
    the features that take part, 0 for constant ones, NaN for features with
    no known value); ``trace`` w^(0), ..., w^(T) and ``trace_steps``
    0, ..., T (the convergence plot); ``n_iterations`` the instances each
    iteration visits (all).  Also:

    iterations : int
        T, the number of I-RELIEF iterations done.
    converged : bool
        Whether the last change, ||T(w^(T-1)) - w^(T-1)||_2, is below the
        tolerance (w^(T) = T(w^(T-1)), a fixed point of Sun's map to within
        it).
    changes : ndarray (T,)
        ||T(w^(t-1)) - w^(t-1)||_2 of every iteration t, T(w) Sun's update
        (eq. 12) of the weights w: the change ||w^(t) - w^(t-1)||_2 where
        the iteration is not damped.  The stopping rule reads it.
    damping : ndarray (T,)
        lambda_t, the fraction of Sun's step that iteration t took
        (w^(t) = normalised (1 - lambda_t) w^(t-1) + lambda_t T(w^(t-1)));
        1 everywhere unless an oscillation was damped.
    """
    iterations: int = 0
    converged: bool = False
    changes: Optional[np.ndarray] = None
    damping: Optional[np.ndarray] = None


@njit(**JIT)
def soft_margin(r, data, w, sigma, inliers, dist, chosen, coef, scratch,
                upd, copies):
    """upd += gamma_r (sum_{misses} alpha_j diff(., r, j) - sum_{hits}
    beta_j diff(., r, j)) (eqs. 8-10; gamma_r = 1 unless ``inliers``), the
    distances from the engine's ``distance_row`` and the update from its
    ``update``; with instance weights ``copies`` (none: all 1) r's margin
    counted copies[r] times (``margin_coefficients``), and r's own
    copies[r] - 1 further copies among its hits, with RELIEF-D's diff of r
    to itself (``soft_factors``).  Work space: ``dist``, ``chosen``,
    ``coef`` (n each).  Returns gamma_r."""
    n = data.group.shape[0]
    distance_row(r, data, w, True, dist, 0, n)
    factors = soft_factors(r, data.group, dist, sigma, inliers, coef,
                           copies)
    if factors[4] == 0.0:
        return 0.0
    count = margin_coefficients(r, data.group, factors, chosen, coef,
                                copies)
    if copies.shape[0] and copies[r] > 1.0:
        # r's own copies, hits at RELIEF-D's distance of r to itself
        chosen[count] = r
        coef[count] = soft_coefficient(
            True, dist[r], factors[0], factors[1], factors[2], factors[3],
            sigma) * (copies[r] * (copies[r] - 1.0))
        count += 1
    update(r, chosen, coef, count, data, False, scratch, upd,
           np.zeros(0, np.int64))
    return factors[4]


@njit(**JIT)
def margin_coefficients(r, group, factors, chosen, coef, copies):
    """The coefficients of r's margin, in place: coef[i] for chosen[i], the
    instances j != r in order, from the kernel values coef[j] that
    ``soft_factors`` left (i <= j: nothing is overwritten before it is
    read).  With instance weights ``copies`` (none: all 1) each is times
    copies[r] copies[j]: r's margin copies once per copy of r, and x_j is
    copies[j] candidates at the same distance (``pair_weight``).  Returns
    their number, n - 1."""
    near_hit, hit_factor, near_miss, miss_factor, _ = factors
    count = 0
    for j in range(group.shape[0]):
        if j != r:
            k = coef[j]
            chosen[count] = j
            coef[count] = -(k * hit_factor) if group[j] == group[r] \
                else k * miss_factor
            if copies.shape[0]:
                coef[count] *= pair_weight(copies, r, j)
            count += 1
    return count


@njit(inline="always", **JIT)
def pair_weight(copies, r, j):
    """copies[r] copies[j]: how many times the pair of instances r and j
    enters nu N when each instance of weight c copies as c copies."""
    return copies[r] * copies[j]


@njit(**JIT)
def soft_factors(r, group, dist, sigma, inliers, kernel, copies):
    """(near_hit, hit_factor, near_miss, miss_factor, gamma_r) of instance
    r from its distances dist[j] = ||x_r - x_j||_w: its coefficient of a hit
    j is -beta_{j,r} gamma_r = -hit_factor exp((near_hit - d_j) / sigma),
    of a miss alpha_{j,r} gamma_r = miss_factor exp((near_miss - d_j) /
    sigma) (``soft_coefficient``; eqs. 8-10, gamma_r = 1 unless
    ``inliers``).  kernel[j] = those exps (j != r), for
    ``margin_coefficients``.

    The kernel of each group is taken relative to the group's nearest
    instance (the factor cancels in alpha, beta and gamma), so it never
    underflows however small sigma is.  An instance without misses (one
    class), or, with ``inliers``, without hits, adds nothing: all 0.

    Instance weights ``copies`` (none: all 1; ``doc/semantics.md``,
    "Instance weights"): an instance of weight c is c candidates at its
    distance, so each kernel value copies c times in the sums of eqs. 8-10
    (kernel[j] stays one candidate's: ``margin_coefficients`` multiplies),
    and r's own max(c_r - 1, 0) further copies are hits at r's distance
    to itself, dist[r]: 0 without missing values (they add to the hits'
    sum and nothing to the margin), RELIEF-D's with them (``soft_margin``
    adds their diff).  (``prepare`` leaves out the instances of weight
    0.)"""
    n = group.shape[0]
    g = group[r]
    weighted = copies.shape[0] > 0
    own = max(copies[r] - 1.0, 0.0) if weighted else 0.0
    near_hit = dist[r] if own > 0.0 else np.inf
    near_miss = np.inf
    for j in range(n):
        if j != r:
            if group[j] == g:
                near_hit = min(near_hit, dist[j])
            else:
                near_miss = min(near_miss, dist[j])
    if near_miss == np.inf or (inliers and near_hit == np.inf):
        kernel[:] = 0.0         # (read by the pairs, times the 0 factors)
        return 0.0, 0.0, 0.0, 0.0, 0.0
    sum_hit = sum_miss = 0.0
    for j in range(n):
        if j != r:
            if group[j] == g:
                kernel[j] = np.exp((near_hit - dist[j]) / sigma)
                sum_hit += kernel[j] * copies[j] if weighted else kernel[j]
            else:
                kernel[j] = np.exp((near_miss - dist[j]) / sigma)
                sum_miss += kernel[j] * copies[j] if weighted \
                    else kernel[j]
    if own > 0.0:
        sum_hit += own * np.exp((near_hit - dist[r]) / sigma)
    gamma = 1.0
    if inliers:
        # gamma = S_H / (S_H + S_M), S = e^{-nearest / sigma} * sum
        gamma = 1.0 / (1.0 + sum_miss / sum_hit
                       * np.exp((near_hit - near_miss) / sigma))
        if gamma == 0.0:
            return 0.0, 0.0, 0.0, 0.0, 0.0
    if sum_hit > 0.0:
        return near_hit, gamma / sum_hit, near_miss, gamma / sum_miss, gamma
    # no hits (inliers=False): hit terms 0, and a finite near_hit for them
    return 0.0, 0.0, near_miss, gamma / sum_miss, gamma


@njit(inline="always", **JIT)
def soft_coefficient(hit, d, near_hit, hit_factor, near_miss, miss_factor,
                     sigma):
    """The coefficient of diff(., x_r, x_j) in instance r's margin, x_j at
    distance d a hit or a miss (the factors of ``soft_factors``)."""
    if hit:
        return -(np.exp((near_hit - d) / sigma) * hit_factor)
    return np.exp((near_miss - d) / sigma) * miss_factor


@njit(**FAST)
def dense_distances(r, num, nom, w_num, w_nom, uniform, out):
    """out[j] = sum_A w_A diff(A, x_r, x_j) for j < out.shape[0] (dense, no
    missing values), four instances j at a time: each feature of x_r and
    its weight is loaded once for four, and four sums run side by side
    (about twice as fast as one at a time on GAMETES).  ``num``, ``nom``,
    ``w_num``, ``w_nom``: the features whose weight is not 0 (the others
    add nothing).  ``uniform``: all these weights are w_nom[0] (or
    w_num[0]), as in I-RELIEF's first iteration: the sum is multiplied
    once."""
    n = out.shape[0]
    a_num, a_nom = num.shape[1], nom.shape[1]
    xr, cr = num[r], nom[r]
    u = w_nom[0] if a_nom else (w_num[0] if a_num else 0.0)
    for j in range(0, n - n % 4, 4):
        x0, x1, x2, x3 = num[j], num[j + 1], num[j + 2], num[j + 3]
        c0, c1, c2, c3 = nom[j], nom[j + 1], nom[j + 2], nom[j + 3]
        d0 = d1 = d2 = d3 = 0.0
        if uniform:
            for f in range(a_num):
                v = xr[f]
                d0 += abs(v - x0[f])
                d1 += abs(v - x1[f])
                d2 += abs(v - x2[f])
                d3 += abs(v - x3[f])
            k0 = k1 = k2 = k3 = 0
            for g in range(a_nom):
                v = cr[g]
                k0 += c0[g] != v
                k1 += c1[g] != v
                k2 += c2[g] != v
                k3 += c3[g] != v
            out[j] = u * (d0 + k0)
            out[j + 1] = u * (d1 + k1)
            out[j + 2] = u * (d2 + k2)
            out[j + 3] = u * (d3 + k3)
            continue
        for f in range(a_num):
            v, wf = xr[f], w_num[f]
            d0 += wf * abs(v - x0[f])
            d1 += wf * abs(v - x1[f])
            d2 += wf * abs(v - x2[f])
            d3 += wf * abs(v - x3[f])
        for g in range(a_nom):
            v, wg = cr[g], w_nom[g]
            d0 += wg if c0[g] != v else 0.0
            d1 += wg if c1[g] != v else 0.0
            d2 += wg if c2[g] != v else 0.0
            d3 += wg if c3[g] != v else 0.0
        out[j], out[j + 1], out[j + 2], out[j + 3] = d0, d1, d2, d3
    for j in range(n - n % 4, n):
        xj, cj = num[j], nom[j]
        d = 0.0
        for f in range(a_num):
            d += (1.0 if uniform else w_num[f]) * abs(xr[f] - xj[f])
        for g in range(a_nom):
            if cj[g] != cr[g]:
                d += 1.0 if uniform else w_nom[g]
        out[j] = u * d if uniform else d


@njit(**FAST)
def counted_distances(r, counts, num, u, out):
    """out[j] = u (sum_A |x_r - x_j| + counts[j]) for j < out.shape[0]: the
    distances under equal weights u, from the nominal mismatch counts
    (``nominal.mismatches_block4``; ``num`` without features of weight
    0)."""
    xr = num[r]
    for j in range(out.shape[0]):
        xj = num[j]
        d = 0.0
        for f in range(num.shape[1]):
            d += abs(xr[f] - xj[f])
        out[j] = u * (d + counts[j])


@njit(**FAST)
def dense_update(r, chosen, coef, count, num, nom, upd):
    """upd += sum_i coef[i] diff(., x_r, x_chosen[i]) (dense, no missing
    values), four neighbours per pass over ``upd``: their terms are added
    together first (about twice as fast as one at a time on GAMETES)."""
    a_num, a_nom = num.shape[1], nom.shape[1]
    xr, cr = num[r], nom[r]
    o_num, o_nom = upd[:a_num], upd[a_num:a_num + a_nom]
    for i in range(0, count - count % 4, 4):
        j0, j1, j2, j3 = chosen[i], chosen[i + 1], chosen[i + 2], \
            chosen[i + 3]
        s0, s1, s2, s3 = coef[i], coef[i + 1], coef[i + 2], coef[i + 3]
        x0, x1, x2, x3 = num[j0], num[j1], num[j2], num[j3]
        for f in range(a_num):
            v = xr[f]
            o_num[f] += ((s0 * abs(v - x0[f]) + s1 * abs(v - x1[f]))
                         + (s2 * abs(v - x2[f]) + s3 * abs(v - x3[f])))
        c0, c1, c2, c3 = nom[j0], nom[j1], nom[j2], nom[j3]
        for g in range(a_nom):
            v = cr[g]
            o_nom[g] += (((s0 if c0[g] != v else 0.0)
                          + (s1 if c1[g] != v else 0.0))
                         + ((s2 if c2[g] != v else 0.0)
                            + (s3 if c3[g] != v else 0.0)))
    for i in range(count - count % 4, count):
        j, s = chosen[i], coef[i]
        xj, cj = num[j], nom[j]
        for f in range(a_num):
            o_num[f] += s * abs(xr[f] - xj[f])
        for g in range(a_nom):
            o_nom[g] += s if cj[g] != cr[g] else 0.0


@njit(**JIT)
def _chunk(c, visits, below, num, nom, group, target, has_missing, rows,
           tables, expected, w, dist_num, dist_nom, w_num, w_nom, uniform,
           planes, n_bits, factors, block_dist, block_kernel, sigma, inliers,
           copies, out):
    """Chunk c of ``margins`` (the data's arrays one by one: numba 0.68
    cannot pass a named tuple into a parallel loop), for each instance r =
    visits[i] of visits[c * CHUNK:(c + 1) * CHUNK]:

    * ``factors`` with no rows: r's soft margin into out[c] (with missing
      values ``soft_margin``, the engine's diffs);
    * else, by pairs (``visits`` a block of consecutive rows), ``below``
      False: r's distances to all instances into block_dist[i], the kernel
      values into block_kernel[i] and r's ``soft_factors`` into factors[r];
    * ``below`` True, once every row up to the block's last has its
      factors: the pairs (r, j < r) into out[c], each diff(., x_r, x_j)
      once, with its coefficients in r's margin and in j's (diff is
      symmetric without missing values), from the distances and kernel
      values of the pass before.

    With ``planes`` (n rows: equal weights, nominal features) the nominal
    mismatches of four visits at a time are counted by popcount
    (``nominal.mismatches_block4``, ReliefF's screen).  ``copies``: the
    instance weights (none: all 1)."""
    data = Data(num, nom, group, target, has_missing, False,
                SparseRows(*rows), MissingTables(*tables),
                Expectations(*expected))
    n = group.shape[0]
    by_pairs = factors.shape[0] == n
    dist = np.empty(n)
    chosen = np.arange(n)
    coef = np.empty(n)
    counted = planes.shape[0] == n and n > 0
    counts = np.zeros((4, n if counted else 0))
    four = np.empty(4, np.int64)
    u = w_nom[0] if w_nom.shape[0] else 0.0
    first, stop = c * CHUNK, min(visits.shape[0], (c + 1) * CHUNK)
    for i in range(first, stop):
        r = visits[i]
        if has_missing:
            soft_margin(r, data, w, sigma, inliers, dist, chosen, coef,
                        np.zeros(0), out[c], copies)
            continue
        if below:
            _pair_margins(r, group, factors, block_dist[i], block_kernel[i],
                          sigma, coef, copies)
            dense_update(r, chosen, coef, r, num, nom, out[c])
            continue
        if by_pairs:
            dist, coef = block_dist[i], block_kernel[i]
        if counted:
            q = (i - first) % 4
            if q == 0:
                for k in range(4):
                    four[k] = visits[min(i + k, stop - 1)]
                counts[:] = 0
                mismatches_block4(four, planes, n_bits, counts, 0, n)
            counted_distances(r, counts[q], dist_num, u, dist)
        else:
            dense_distances(r, dist_num, dist_nom, w_num, w_nom, uniform,
                            dist)
        found = soft_factors(r, group, dist, sigma, inliers, coef, copies)
        if by_pairs:
            for k in range(4):
                factors[r, k] = found[k]
        elif found[4] != 0.0:
            count = margin_coefficients(r, group, found, chosen, coef,
                                        copies)
            dense_update(r, chosen, coef, count, num, nom, out[c])


@njit(**JIT)
def _pair_margins(r, group, factors, dist, kernel, sigma, coef, copies):
    """coef[j] for j < r: the coefficient of diff(., x_r, x_j) in r's
    margin (from r's kernel values) plus the one in j's (``soft_coefficient``
    of j's factors); with instance weights ``copies``, times copies[r]
    copies[j] (``pair_weight``)."""
    _, hit_factor, _, miss_factor = factors[r]
    weighted = copies.shape[0] > 0
    for j in range(r):
        f_j = factors[j]
        if group[j] == group[r]:
            coef[j] = -(kernel[j] * hit_factor) + soft_coefficient(
                True, dist[j], f_j[0], f_j[1], f_j[2], f_j[3], sigma)
        else:
            coef[j] = kernel[j] * miss_factor + soft_coefficient(
                False, dist[j], f_j[0], f_j[1], f_j[2], f_j[3], sigma)
        if weighted:
            coef[j] *= pair_weight(copies, r, j)


@njit(parallel=True, **JIT)
def margins(visits, below, num, nom, group, target, has_missing, rows,
            tables, expected, w, dist_num, dist_nom, w_num, w_nom, uniform,
            planes, n_bits, factors, block_dist, block_kernel, sigma, inliers,
            copies, out):
    """The chunks of CHUNK ``visits`` in parallel (``_chunk``): out[c] = the
    summed margins of chunk c, or of its pairs (``below``), or the factors,
    distances and kernel values of its instances.  ``dist_num``,
    ``dist_nom``, ``w_num``, ``w_nom``: the features of non-zero weight and
    their weights, for the distances of dense data without missing values;
    ``planes``, ``n_bits``: their nominal codes' bit-planes where the
    weights are equal (else no rows)."""
    out[:] = 0.0
    for c in prange(out.shape[0]):
        _chunk(c, visits, below, num, nom, group, target, has_missing, rows,
               tables, expected, w, dist_num, dist_nom, w_num, w_nom, uniform,
               planes, n_bits, factors, block_dist, block_kernel, sigma,
               inliers, copies, out)


def by_pairs(a):
    """Whether an iteration on dense data without missing values should
    visit pairs (``_margin_sum``), on ``a`` features: one margin at a time
    costs, per ordered pair of instances, an update of a features, a
    distance and an exp; by pairs, half an update, a distance and one and a
    half exps (PAIR_COSTS)."""
    if PAIRS != "auto":
        return bool(PAIRS)
    update, exp = PAIR_COSTS
    return update * a / 2 > exp / 2


def _margin_sum(data, w, sigma, inliers, batch, progress, done, total,
                copies):
    """nu * N: the soft margins of all instances added chunk by chunk, in
    batches of ``batch`` instances with ``progress`` after each; with
    instance weights ``copies`` (none: all 1), each margin times its
    instance's weight (``margin_coefficients``; N their sum).

    Each instance adds its own margin, or (dense data without missing
    values, where ``by_pairs`` says it is faster; RELIEF-D's diffs are not
    symmetric) each pair once: in blocks of consecutive rows, pass 1 keeps
    each row's distances and kernel values (block x n, at most about
    PAIR_BLOCK_BYTES) and finds its ``soft_factors``; pass 2 adds, for each
    row r of the block and each j < r (whose factors pass 1 of this or an
    earlier block found), diff(., x_r, x_j) times the sum of its
    coefficients in r's and in j's margins: half the updates of one margin
    at a time, for one more exp per pair.  The chunks are the same either
    way, so the weights do not depend on the blocks or the threads."""
    n, a = data.group.shape[0], w.shape[0]
    rows, tables = tuple(data.rows), tuple(data.missing)
    expected = tuple(data.expected)
    a_num = data.num.shape[1]
    keep_num, keep_nom = w[:a_num] != 0, w[a_num:] != 0
    dist_num = np.ascontiguousarray(data.num[:, keep_num])
    dist_nom = np.ascontiguousarray(data.nom[:, keep_nom])
    w_num, w_nom = w[:a_num][keep_num], w[a_num:][keep_nom]
    used = w[w != 0]
    uniform = bool(used.size and (used == used[0]).all())
    planes, n_bits = np.zeros((0, 0), np.uint64), 1
    if uniform and dist_nom.shape[1] and not data.has_missing:
        planes, n_bits = pack_planes(dist_nom)
    pairs = not data.has_missing and by_pairs(a)
    factors = np.zeros((n if pairs else 0, 4))
    if pairs:
        rows_kept = PAIR_BLOCK_BYTES // (16 * max(n, 1)) // CHUNK * CHUNK
        batch = min(batch, max(CHUNK * numba.get_num_threads(), rows_kept))
    block_dist = np.empty((batch if pairs else 0, n))
    block_kernel = np.empty_like(block_dist)
    nu = np.zeros(a)
    for start in range(0, n, batch):
        visits = np.arange(start, min(n, start + batch), dtype=np.int64)
        out = np.empty((-(-len(visits) // CHUNK), a))
        for below in (False, True) if pairs else (False,):
            margins(visits, below, data.num, data.nom, data.group,
                    data.target, data.has_missing, rows, tables, expected, w,
                    dist_num, dist_nom, w_num, w_nom, uniform, planes, n_bits,
                    factors, block_dist, block_kernel, float(sigma),
                    bool(inliers), copies, out)
        for part in out:            # chunk order, whatever the batches
            nu += part
        if progress is not None:
            progress(min(1.0, (done + (start + len(visits)) / n) / total))
    return nu


def _sun_update(data, w, sigma, inliers, batch, progress, done, total,
                copies):
    """(T(w), ||(nu)_+||_2): Sun's new weights from w, (nu)_+ / ||(nu)_+||_2
    (eq. 12; all 0 where no mean margin is positive); N, the number of
    instances, is the sum of the instance weights ``copies`` where given."""
    n = copies.sum() if copies.shape[0] else data.group.shape[0]
    nu = _margin_sum(data, w, sigma, inliers, batch, progress, done,
                     total, copies) / n
    plus = np.maximum(nu, 0.0)
    norm = np.sqrt(np.dot(plus, plus))
    return (plus / norm if norm > 0 else plus), norm


def _iterate(data, w, sigma, inliers, damping, max_iterations, tolerance,
             batch, progress, copies):
    """I-RELIEF's iterations from w^(0) = w: (w^(T), [w^(0), ..., w^(T)],
    residuals ||T(w^(t-1)) - w^(t-1)||_2, lambda_t, converged).

    Iteration t computes T(w^(t-1)) and its residual r_t = T(w^(t-1)) -
    w^(t-1).  If ||r_t|| < tolerance, w^(t) = T(w^(t-1)) and the run has
    converged (a fixed point of Sun's map to within ``tolerance``, damped
    or not).  Otherwise w^(t) = normalised (w^(t-1) + lambda r_t): lambda
    = 1 is Sun's iteration.  With ``damping="auto"`` lambda starts at 1 and
    is halved (to AUTO_DAMPING, then down to MIN_DAMPING) whenever the
    residual has turned back (r_t . r_{t-1} < 0) without shrinking to
    half (||r_t|| > ||r_{t-1}|| / 2) REVERSALS times in a row: the
    signature of a 2-cycle."""
    lam = 1.0 if damping in (None, "auto") else damping
    trace, changes, steps = [w], [], []
    converged, last, reversals = False, None, 0
    for t in range(max_iterations):
        image, norm = _sun_update(data, w, sigma, inliers, batch, progress, t,
                                  max_iterations, copies)
        residual = image - w
        changes.append(float(np.sqrt(np.dot(residual, residual))))
        if norm == 0 or changes[-1] < tolerance:
            w = image
            steps.append(1.0)
        else:
            if damping == "auto" and last is not None:
                turned = (np.dot(residual, last) < 0
                          and changes[-1] > changes[-2] / 2)
                reversals = reversals + 1 if turned else 0
                if reversals == REVERSALS and lam / 2 >= MIN_DAMPING:
                    lam, reversals = min(lam / 2, AUTO_DAMPING), 0
            last = residual
            if lam == 1.0:
                w = image
            else:
                mixed = w + lam * residual
                w = mixed / np.sqrt(np.dot(mixed, mixed))
            steps.append(lam)
        trace.append(w)
        if progress is not None:
            progress((t + 1) / max_iterations)
        if norm == 0:
            warn("No feature has a positive mean margin (eq. 12); "
                 "all I-RELIEF weights are 0.", stacklevel=3)
            break
        if changes[-1] < tolerance:
            converged = True
            break
    else:
        damped = (f"; the oscillation was damped down to steps of "
                  f"{lam:g}" if damping == "auto" and lam < 1 else "")
        remedy = "or damp the iteration (damping='auto' or 0.5)" \
            if damping is None else "or take smaller steps (damping)" \
            if damping != "auto" else "or widen sigma further"
        warn(f"I-RELIEF did not converge in {max_iterations} iterations "
             f"(last change {changes[-1]:.3g} >= tolerance {tolerance:g}"
             f"{damped}); raise max_iterations or tolerance, widen sigma, "
             f"{remedy}.", stacklevel=3)
    return w, trace, changes, steps, converged


def _batch(n, a, progress):
    """Instances per call into the kernels: all without progress, else a
    multiple of CHUNK taking about BATCH_TERMS terms."""
    if progress is None:
        return n
    size = max(1, BATCH_TERMS // max(1, n * a))
    return -(-size // CHUNK) * CHUNK


def irelief(X, y, nominal=None, *, sigma=2.0, max_iterations=1000,
            tolerance=1e-3, inliers=True, damping="auto", progress=None,
            n_jobs=None, feature_names=None, instance_weights=None):
    """I-RELIEF feature weights (Sun 2007; the module docstring has the
    equations).

    Parameters
    ----------
    X, y, nominal :
        As for ``relieff``: features (NaN missing), class codes, which
        features are nominal.  Sparse X is densified.
    sigma : float
        The kernel width: f(d) = exp(-d / sigma) of the weighted distance
        (weights of unit L2 norm, diffs in [0, 1]).  Sun proves
        convergence for a wide enough kernel; narrower ones see more
        locally but can end in a 2-cycle (on epistatic data the weight
        swings between the interacting features; ``damping`` ends it),
        wider ones lose interactions: ``doc/redundancy.md`` has a scan.
        2.0, the engine's default ``sigma``.
    max_iterations : int
        Iterations at most (1000, mlpy's T).
    tolerance : float
        Stop when ||T(w^(t-1)) - w^(t-1)||_2 < tolerance, T Sun's update:
        the change ||w^(t) - w^(t-1)||_2 of an undamped iteration (Sun's
        theta; 1e-3, mlpy's).  A run that stops at ``max_iterations``
        instead warns, with the last change, and has ``converged`` False.
    inliers : bool
        Weight each instance's margin by gamma_n, its probability of not
        being an outlier (eq. 10), as Sun does.
    damping : "auto", None or float in (0, 1]
        The fraction lambda of Sun's step each iteration takes,
        w^(t) = normalised (1 - lambda) w^(t-1) + lambda T(w^(t-1)) (the
        module docstring has why).  "auto": 1 (Sun's iteration) until the
        weights oscillate (the change turns back without shrinking to
        half, twice in a row), then halved, as often as the oscillation
        goes on, down to 1/64.  None: Sun's iteration, never damped.  A
        number: that lambda from the first iteration.  The stopping rule,
        the fixed points and the last (whole) step are the same in all.
    progress : callable(fraction), optional
        Called during and after every iteration (fraction of
        ``max_iterations``); may raise to cancel.
    n_jobs : int, optional
        Threads (None or -1: all cores); the weights do not depend on it.
    instance_weights : array (n_instances,), optional
        Weights >= 0 of the instances (``relieff``'s; Orange's ``Table.W``):
        an instance of weight c counts as c copies of itself, as a
        candidate neighbour of every other instance (c times its kernel
        value in the sums of eqs. 8-10), in the mean margin nu (its margin
        c times, N the sum of the weights), and its own c - 1 further
        copies are hits at distance 0 (they take a share of beta and raise
        gamma, and add nothing to the margin).  Integer weights give the
        weights of the table with each row repeated c times; weight 0
        removes the instance.  None or all 1: the unweighted run.  Missing
        values take RELIEF-D's weighted laws (``doc/semantics.md``).

    Returns
    -------
    IReliefResult
    """
    damping = check_irelief_options(sigma, max_iterations, tolerance,
                                    damping=damping)
    if sp.issparse(X):
        X = X.toarray()
    with threads(n_jobs):               # (prepare's parallel passes)
        prep = prepare(X, y, nominal, False, feature_names,
                       instance_weights=instance_weights)
    copies = np.zeros(0) if prep.instance_weights is None \
        else prep.instance_weights
    data = prep.data(False, looked_up(prep))
    n, a = data.group.shape[0], prep.n_used
    w = np.full(a, 1.0 / a) if a else np.zeros(0)
    trace, changes, steps = [w], [], []
    converged = False
    if progress is not None:
        progress(0.0)
    if a and np.count_nonzero(prep.class_counts) < 2:
        warn("The data has only one class value; all weights are 0.")
        w = np.zeros(a)
        trace = [w]
    elif a:
        batch = _batch(n, a, progress)
        with threads(n_jobs):
            w, trace, changes, steps, converged = _iterate(
                data, w, sigma, inliers, damping, max_iterations, tolerance,
                batch, progress, copies)
    if progress is not None:
        progress(1.0)
    points = to_features(np.array(trace).reshape(-1, a), prep)
    return IReliefResult(
        weights=points[-1], trace=points,
        trace_steps=np.arange(len(trace), dtype=np.int64), n_iterations=n,
        T=None, regression=False, n_dropped=prep.n_dropped,
        iterations=len(changes), converged=converged,
        changes=np.array(changes), damping=np.array(steps))

