"""The background process of ``warmup``: compile kernel sets into numba's
cache by running the engine (or NPDR's kernels, ``npdr_pairs``) on small
data that needs them
(``python -m orangecontrib.relief.core.backends.precompile [--first SET]``).

This module imports the engine; ``warmup``, which the engine imports, only
starts it as a process, so the two never import each other.
"""
import argparse
import warnings

import numpy as np

from .compiled import npdr_kernels, layouts
from ..engine import relieff
from ..contract.prepare import compile_large_path, prepare
from .warmup import (SETS, clear_stale, is_compiled, lock, marker,
                     sources_changed)


def _problem(codes, copy, n=40, a=6):
    """Small data whose run compiles a kernel set: numeric and nominal
    features (codes beyond 127 for int32), every type of a feature's row."""
    rng = np.random.default_rng(0)
    X = rng.random((n, a))
    X[:, a // 2:] = rng.integers(0, 3, (n, a - a // 2))
    if codes == "int32":
        X[0, a - 1] = 200
    y = (X[:, 0] > 0.5).astype(float)
    nominal = np.arange(a) >= a // 2
    return X, y, nominal


def _npdr(X, y, nominal, copy):
    """Run NPDR's compiled kernels (``npdr_pairs``) as ``npdr.Problem``
    calls them: the pairs (class-blind; a radius rule for the float64
    copy), the fit without a feature and the fits of every column."""
    prep = prepare(X, y, nominal, True)
    pairs = npdr_kernels.neighbour_pairs(
        prep, class_blind=True, neighbours="k" if copy == "float32"
        else "surf", k_nearest=3, misses="per_class",
        rows=np.arange(y.shape[0]))
    outcome = (y[pairs.first] != y[pairs.second]).astype(float)
    Zt = np.zeros((0, pairs.first.shape[0]))
    start, beta = np.zeros(2), np.zeros(2)
    zeros = np.zeros(outcome.shape[0])
    npdr_kernels.fit(zeros, False, Zt, outcome, pairs.weight, start, True,
                     beta)
    npdr_kernels.log_likelihood(zeros, Zt, outcome, pairs.weight, beta)
    columns = np.arange(prep.n_used)
    npdr_kernels.fit_columns(
          columns, pairs.first, pairs.second, pairs.weight, outcome, Zt, beta,
          True, np.ascontiguousarray(prep.num.T),
          np.ascontiguousarray(prep.nom.T), prep.group, prep.has_missing,
          tuple(prep.missing), np.zeros((columns.shape[0], 4)), 1)


def _weighted(X, y, nominal, laws):
    """Run the weighted visits (``weighted_loop``) as the engine calls them:
    ReliefF's (``weighted_rows``) and a feedback variant's copies
    (``weighted_visit``), with missing values for RELIEF-D's weighted laws
    (``laws`` "missing")."""
    rng = np.random.default_rng(1)
    if laws == "missing":
        gone = rng.random(X.shape) < 0.1
        gone[0] = [True] + [False] * (X.shape[1] - 1)   # (codes kept)
        X = np.where(gone, np.nan, X)
    weights = rng.integers(1, 4, y.shape[0]).astype(float)
    for variant in ("relieff", "drelieff"):
        relieff(X, y, nominal, variant=variant, k_nearest=3,
                kernels="compiled", instance_weights=weights)


def compile_set(kernel_set):
    """Compile the kernels of ``kernel_set`` (into numba's cache) by running
    the engine on small data that needs them, and write its marker."""
    loop, codes, copy = kernel_set
    X, y, nominal = _problem(codes, copy)
    # (the thresholds that choose the copy are lowered for this small data;
    # this runs in its own process, or in a test)
    saved = layouts.SCREEN_MAX_FEATURES, layouts.QUANTISED_MIN_BYTES
    try:
        if copy == "float64":
            layouts.SCREEN_MAX_FEATURES = 0        # no float32 copy
        if copy == "uint16":
            layouts.QUANTISED_MIN_BYTES = 0        # the uint16 copy
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if loop == "npdr":
                _npdr(X, y, nominal, copy)
            elif loop == "weighted":
                _weighted(X, y, nominal, copy)
            else:
                variant = "relieff" if loop == "relieff" else "drelieff"
                relieff(X, y, nominal, variant=variant, k_nearest=3,
                        kernels="compiled")
    finally:
        layouts.SCREEN_MAX_FEATURES, layouts.QUANTISED_MIN_BYTES = saved
    compile_large_path(X, nominal)      # (prepare's, of large dense data)
    path = marker(kernel_set)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("compiled\n")


def main(argv=None):
    """Compile the kernel sets not compiled yet, holding the compiler's lock
    (``warmup.lock``): the one passed as ``--lock-fd`` by ``warmup.start``,
    else taken here; returns at once while another compiler holds it.
    Kernels cached from other sources are deleted first
    (``warmup.clear_stale``); where the sources change while it compiles,
    it stops after the current set (a process of the new sources waits for
    the lock to clear what it compiled)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", help="loop:codes:copy to compile first")
    parser.add_argument("--only-first", action="store_true")
    parser.add_argument("--lock-fd", type=int,
                        help="an open file of this process that holds the "
                             "lock (warmup.start)")
    args = parser.parse_args(argv)
    if args.lock_fd is None:
        held = lock()       # (held until this process ends)
        if held is None:
            return
    clear_stale()
    order = list(SETS)
    if args.first:
        first = tuple(args.first.split(":"))
        order.remove(first)
        order.insert(0, first)
        if args.only_first:
            order = order[:1]
    for kernel_set in order:
        if sources_changed():
            return
        if not is_compiled(kernel_set):
            compile_set(kernel_set)


if __name__ == "__main__":
    main()
