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
row (``distances.distance_row``), the kernel over it, and the update
sum_j coef_j diff(A, x_n, x_j) over all other instances
(``updates.update``); no n x n matrix.  Instances are taken in chunks of
``CHUNK`` whose margins are added in chunk order, so the weights do not
depend on the number of threads or on how progress splits an iteration.
"""
from dataclasses import dataclass
from typing import Optional

import numpy as np
import scipy.sparse as sp
from numba import njit, prange

from .backend import to_features
from .diffs import JIT
from .distances import distance_row
from .messages import warn
from .options import check_irelief_options
from .prepare import Data, MissingTables, SparseRows, prepare
from .result import ReliefResult
from .runtime import threads
from .updates import update

__all__ = ["irelief", "IReliefResult"]

#: Instances per parallel chunk (the unit of the summation order).
CHUNK = 16
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
        Whether ||w^(T) - w^(T-1)||_2 < tolerance.
    changes : ndarray (T,)
        ||w^(t) - w^(t-1)||_2 after every iteration.
    """
    iterations: int = 0
    converged: bool = False
    changes: Optional[np.ndarray] = None


@njit(**JIT)
def soft_margin(r, data, w, sigma, inliers, dist, chosen, coef, scratch,
                upd):
    """upd += gamma_r (sum_{misses} alpha_j diff(., r, j) - sum_{hits}
    beta_j diff(., r, j)) (eqs. 8-10; gamma_r = 1 unless ``inliers``).

    The kernel of each group is taken relative to the group's nearest
    instance (the factor cancels in alpha, beta and gamma), so it never
    underflows however small sigma is.  Work space: ``dist``, ``chosen``,
    ``coef`` (n each).  Returns gamma_r."""
    n = data.group.shape[0]
    distance_row(r, data, w, True, dist, 0, n)
    group, g = data.group, data.group[r]
    near_hit = near_miss = np.inf
    for j in range(n):
        if j != r:
            if group[j] == g:
                near_hit = min(near_hit, dist[j])
            else:
                near_miss = min(near_miss, dist[j])
    if near_miss == np.inf:
        return 0.0                  # no misses: one class, no margin
    sum_hit = sum_miss = 0.0
    count = 0
    for j in range(n):
        if j == r:
            continue
        if group[j] == g:
            k = np.exp((near_hit - dist[j]) / sigma)
            sum_hit += k
            coef[count] = -k
        else:
            k = np.exp((near_miss - dist[j]) / sigma)
            sum_miss += k
            coef[count] = k
        chosen[count] = j
        count += 1
    gamma = 1.0
    if inliers:
        if near_hit == np.inf:
            return 0.0              # no hits: an outlier for sure
        # gamma = S_H / (S_H + S_M), S = e^{-nearest / sigma} * sum
        gamma = 1.0 / (1.0 + sum_miss / sum_hit
                       * np.exp((near_hit - near_miss) / sigma))
        if gamma == 0.0:
            return 0.0
    hit_scale = gamma / sum_hit if sum_hit > 0.0 else 0.0
    miss_scale = gamma / sum_miss
    for i in range(count):
        coef[i] *= miss_scale if coef[i] > 0.0 else hit_scale
    update(r, chosen, coef, count, data, False, scratch, upd,
           np.zeros(0, np.int64))
    return gamma


@njit(**JIT)
def _chunk_margins(c, visits, num, nom, group, target, has_missing, rows,
                   tables, w, sigma, inliers, out):
    """Chunk c of ``margins``: the sum of the soft margins of
    visits[c * CHUNK:(c + 1) * CHUNK] into out[c] (the data's arrays one by
    one: numba 0.68 cannot pass a named tuple into a parallel loop)."""
    data = Data(num, nom, group, target, has_missing, False,
                SparseRows(*rows), MissingTables(*tables))
    n = group.shape[0]
    dist = np.empty(n)
    chosen = np.empty(n, np.int64)
    coef = np.empty(n)
    scratch = np.zeros(0)
    for i in range(c * CHUNK, min(visits.shape[0], (c + 1) * CHUNK)):
        soft_margin(visits[i], data, w, sigma, inliers, dist, chosen, coef,
                    scratch, out[c])


@njit(parallel=True, **JIT)
def margins(visits, num, nom, group, target, has_missing, rows, tables, w,
            sigma, inliers, out):
    """out[c] = the summed soft margins of chunk c of ``visits`` (CHUNK
    instances each), the chunks in parallel."""
    out[:] = 0.0
    for c in prange(out.shape[0]):
        _chunk_margins(c, visits, num, nom, group, target, has_missing, rows,
                       tables, w, sigma, inliers, out)


def _margin_sum(data, w, sigma, inliers, batch, progress, done, total):
    """nu * N: the soft margins of all instances added chunk by chunk, in
    batches of ``batch`` instances with ``progress`` after each."""
    n, a = data.group.shape[0], w.shape[0]
    rows, tables = tuple(data.rows), tuple(data.missing)
    nu = np.zeros(a)
    for start in range(0, n, batch):
        visits = np.arange(start, min(n, start + batch), dtype=np.int64)
        out = np.empty((-(-len(visits) // CHUNK), a))
        margins(visits, data.num, data.nom, data.group, data.target,
                data.has_missing, rows, tables, w, float(sigma),
                bool(inliers), out)
        for part in out:            # chunk order, whatever the batches
            nu += part
        if progress is not None:
            progress(min(1.0, (done + (start + len(visits)) / n) / total))
    return nu


def _batch(n, a, progress):
    """Instances per call into the kernels: all without progress, else a
    multiple of CHUNK taking about BATCH_TERMS terms."""
    if progress is None:
        return n
    size = max(1, BATCH_TERMS // max(1, n * a))
    return -(-size // CHUNK) * CHUNK


def irelief(X, y, nominal=None, *, sigma=2.0, max_iterations=1000,
            tolerance=1e-3, inliers=True, progress=None, n_jobs=None,
            feature_names=None):
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
        swings between the interacting features), wider ones lose
        interactions: ``doc/redundancy.md`` has a scan.  2.0, the engine's
        default ``sigma``.
    max_iterations : int
        Iterations at most (1000, mlpy's T).
    tolerance : float
        Stop when ||w^(t) - w^(t-1)||_2 < tolerance (Sun's theta; 1e-3,
        mlpy's).
    inliers : bool
        Weight each instance's margin by gamma_n, its probability of not
        being an outlier (eq. 10), as Sun does.
    progress : callable(fraction), optional
        Called during and after every iteration (fraction of
        ``max_iterations``); may raise to cancel.
    n_jobs : int, optional
        Threads (None or -1: all cores); the weights do not depend on it.

    Returns
    -------
    IReliefResult
    """
    check_irelief_options(sigma, max_iterations, tolerance)
    if sp.issparse(X):
        X = X.toarray()
    prep = prepare(X, y, nominal, False, feature_names)
    data = prep.data(False)
    n, a = data.group.shape[0], prep.n_used
    w = np.full(a, 1.0 / a) if a else np.zeros(0)
    trace, changes = [w], []
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
            for t in range(max_iterations):
                nu = _margin_sum(data, w, sigma, inliers, batch, progress, t,
                                 max_iterations) / n
                plus = np.maximum(nu, 0.0)
                norm = np.sqrt(np.dot(plus, plus))
                new = plus / norm if norm > 0 else plus
                changes.append(float(np.sqrt(np.sum((new - w) ** 2))))
                w = new
                trace.append(w)
                if progress is not None:
                    progress((t + 1) / max_iterations)
                if norm == 0:
                    warn("No feature has a positive mean margin (eq. 12); "
                         "all I-RELIEF weights are 0.")
                    break
                if changes[-1] < tolerance:
                    converged = True
                    break
            else:
                warn(f"I-RELIEF did not converge in {max_iterations} "
                     f"iterations (last change {changes[-1]:.3g} >= "
                     f"tolerance {tolerance:g}); raise max_iterations or "
                     "tolerance, or widen sigma.")
    if progress is not None:
        progress(1.0)
    points = to_features(np.array(trace).reshape(-1, a), prep)
    return IReliefResult(
        weights=points[-1], trace=points,
        trace_steps=np.arange(len(trace), dtype=np.int64), n_iterations=n,
        T=None, regression=False, n_dropped=prep.n_dropped,
        iterations=len(changes), converged=converged,
        changes=np.array(changes))

