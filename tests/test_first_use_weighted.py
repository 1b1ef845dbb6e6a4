"""The first use with instance weights (``doc/architecture.md``, "First
use"): a weighted run on a cold cache runs on the NumPy backend while the
weighted kernels (``compiled.weighted_loop``) compile in the background,
then moves to them; the background compiler's weighted sets compile the
types the engine's weighted runs take.  Small data, kernels this session
has compiled already."""
import warnings

import numba
import numpy as np
import pytest

from orangecontrib.relief.core import relieff
from orangecontrib.relief.core.backends import precompile, warmup
from orangecontrib.relief.core.backends.compiled import (
    backend as backend_module, weighted_loop)
from problems import random_problem
from test_first_use import compiled_after_three_checks


def weighted_problem():
    """Mixed data with missing values (RELIEF-D's weighted laws), three
    classes, and integer weights 0-3."""
    X, y, nominal = random_problem(4, n=60, a=6)
    weights = np.random.default_rng(5).integers(0, 4, y.shape[0])
    return X, y, nominal, weights.astype(float)


@pytest.mark.parametrize("variant", ["relieff", "drelieff"])
def test_a_weighted_run_moves_to_the_compiled_kernels_when_ready(
        variant, monkeypatch):
    """The weighted kernels' set is asked for first; while it compiles the
    first batches run on the NumPy backend, then on the compiled kernels,
    adding to the same sums: the compiled run's weights and trace."""
    X, y, nominal, weights = weighted_problem()
    asked = []
    monkeypatch.setattr(warmup, "start", lambda first: asked.append(first))
    checks, batches = compiled_after_three_checks(monkeypatch, 60 * 6 * 5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        first = relieff(X, y, nominal, variant=variant, trace_every=7,
                        instance_weights=weights)
        ran = list(batches)
        compiled = relieff(X, y, nominal, variant=variant, trace_every=7,
                           instance_weights=weights, kernels="compiled")
    assert asked == [("weighted", "int8", "missing")]
    assert set(checks) == {("weighted", "int8", "missing")}
    switch = ran.index("CompiledBackend")
    assert 0 < switch < len(ran) - 1
    assert set(ran[:switch]) == {"VectorisedBackend"}
    assert set(ran[switch:]) == {"CompiledBackend"}
    np.testing.assert_allclose(first.weights, compiled.weights, rtol=0,
                               atol=1e-12)
    np.testing.assert_allclose(first.trace, compiled.trace, rtol=0,
                               atol=1e-12)


def record_types(monkeypatch, seen):
    """Record the numba types of every call of the weighted kernels (as the
    compiled backend calls them) into ``seen``."""
    for name in ("weighted_rows", "weighted_visit"):
        kernel = getattr(weighted_loop, name)

        def recorded(*args, _kernel=kernel, _name=name):
            seen.add((_name, tuple(map(numba.typeof, args))))
            return _kernel(*args)
        monkeypatch.setattr(backend_module, name, recorded)


@pytest.mark.parametrize("laws", ["complete", "missing"])
def test_the_compiler_compiles_the_weighted_runs_types(laws, tmp_path,
                                                       monkeypatch):
    """``precompile.compile_set`` of a weighted set runs the weighted
    kernels on every type a weighted run of the engine passes them (codes
    int8, RELIEF-D's weighted laws or none; ReliefF's visits and a feedback
    variant's copies; classification and regression; a radius rule), so
    the cache then holds what such a run needs; and it marks the set."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))    # its marker
    kernel_set = ("weighted", "int8", laws)
    assert kernel_set in warmup.SETS
    assert ("weighted", "int32", laws) in warmup.SETS
    compiled, used = set(), set()
    record_types(monkeypatch, compiled)
    precompile.compile_set(kernel_set)
    assert warmup.is_compiled(kernel_set)
    assert {name for name, _ in compiled} == {"weighted_rows",
                                              "weighted_visit"}
    record_types(monkeypatch, used)
    X, y, nominal, weights = weighted_problem()
    if laws == "complete":
        X = np.nan_to_num(X, nan=0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for variant in ("relieff", "pdrelieff"):
            relieff(X, y, nominal, variant=variant, kernels="compiled",
                    neighbours="multisurf", instance_weights=weights)
            relieff(X, X[:, 0], nominal, variant=variant, regression=True,
                    kernels="compiled", instance_weights=weights + 0.5)
    assert used <= compiled
