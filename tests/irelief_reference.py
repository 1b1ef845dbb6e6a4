"""I-RELIEF read loop by loop from Sun (2007), for the tests.

It shares no code with the engine (the diff is ``reference.semantics_diff``,
the naive reading of doc/semantics.md) and takes every quantity of the paper
literally: the kernel f(d) = exp(-d / sigma) of the weighted distance, the
probabilities alpha (eq. 8), beta (eq. 9) and gamma (eq. 10) as the ratios
the paper writes, the mean margin nu and w = (nu)_+ / ||(nu)_+||_2 (eq. 12),
from w = 1/I until ||w_new - w||_2 < theta.

``damping`` (not Sun's: the engine's remedy for a 2-cycle) takes a fraction
lambda_t of each step instead, w = (w + lambda_t (w_new - w)) normalised to
unit L2 norm, except on the step that meets the stopping rule, which is
always whole; the stopping rule still reads ||w_new - w||_2 of the undamped
w_new.  It is a number, or the engine's lambda_t per iteration
(``IReliefResult.damping``) to replay a run.
"""
import math

import numpy as np

from reference import semantics_diff


def reference_irelief(X, y, nominal, sigma=2.0, max_iterations=1000,
                      tolerance=1e-3, inliers=True, damping=None,
                      start=None):
    """(weights, trace of w^(0..T), changes) on the features of X (NaN for
    those with no known value, 0 for constant ones); ``start``: w^(0) on the
    features of X instead of 1/I."""
    keep = ~np.isnan(y)
    X, y = np.asarray(X, float)[keep], np.asarray(y, float)[keep]
    n, a = X.shape
    cls = y.astype(int)
    diff, usable, rng = semantics_diff(X, cls, nominal)
    used = [f for f in usable if rng[f] > 0]
    I = len(used)
    w = {f: 1.0 / I if start is None else float(start[f]) for f in used}
    trace, changes = [dict(w)], []
    for t in range(max_iterations):
        nu = {f: 0.0 for f in used}
        for n_ in range(n):
            others = [i for i in range(n) if i != n_]
            misses = [i for i in others if cls[i] != cls[n_]]
            hits = [i for i in others if cls[i] == cls[n_]]
            kernel = {i: math.exp(-sum(w[f] * diff(f, n_, i) for f in used)
                                  / sigma) for i in others}
            sum_m = sum(kernel[i] for i in misses)
            sum_h = sum(kernel[i] for i in hits)
            sum_all = sum(kernel[i] for i in others)
            gamma = 1.0 - sum_m / sum_all if inliers else 1.0
            for f in used:
                m_bar = sum(kernel[i] / sum_m * diff(f, n_, i)
                            for i in misses)
                h_bar = sum(kernel[i] / sum_h * diff(f, n_, i)
                            for i in hits) if hits else 0.0
                nu[f] += gamma * (m_bar - h_bar) / n
        plus = {f: max(v, 0.0) for f, v in nu.items()}
        norm = math.sqrt(sum(v * v for v in plus.values()))
        new = {f: plus[f] / norm if norm > 0 else 0.0 for f in used}
        changes.append(math.sqrt(sum((new[f] - w[f]) ** 2 for f in used)))
        step = 1.0 if damping is None else (
            damping if np.ndim(damping) == 0 else damping[t])
        if step < 1 and changes[-1] >= tolerance and norm > 0:
            mixed = {f: w[f] + step * (new[f] - w[f]) for f in used}
            length = math.sqrt(sum(v * v for v in mixed.values()))
            new = {f: v / length for f, v in mixed.items()}
        w = new
        trace.append(dict(w))
        if changes[-1] < tolerance or norm == 0:
            break

    def as_array(weights):
        out = np.array([np.nan if f not in usable else 0.0
                        for f in range(a)])
        for f in used:
            out[f] = weights[f]
        return out
    return as_array(w), np.array([as_array(t) for t in trace]), changes
