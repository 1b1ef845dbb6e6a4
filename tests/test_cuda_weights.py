"""Instance weights and several targets on the GPU backend
(``core/backends/cuda/kernels.py``: ``updates_targets``, ``visit_copies``,
``weighted_k_nearest``, ``weighted_within_radius``, ``scale_rows``): the
compiled CPU kernels' weights to 1e-12 (``doc/semantics.md``, "Instance
weights" and "Several class variables"), and the table with each row
repeated w times.

Without a GPU the kernels run under numba's CUDA simulator
(``tests/conftest.py``): tiny tables.
"""
import warnings

import numpy as np
import pytest

pytest.importorskip("numba.cuda", reason="needs numba-cuda (the [gpu] extra)")

from orangecontrib.relief.core.backends.cuda import (  # noqa: E402
    backend as cuda)
from orangecontrib.relief.core.engine import relieff, start  # noqa: E402
from orangecontrib.relief.core.messages import ReliefWarning  # noqa: E402

if cuda.unavailable_reason() is not None:
    pytest.skip(f"no CUDA device and no simulator: "
                f"{cuda.unavailable_reason()}", allow_module_level=True)

TOLERANCE = 1e-12


def _data(n=12, seed=5):
    """(X, nominal, classes, two targets, integer weights) of a tiny table:
    two numeric features and a nominal one; a numeric and a nominal target
    (one value missing); weights 0 to 3, each at least once."""
    rng = np.random.default_rng(seed)
    X = np.c_[rng.random((n, 2)), rng.integers(0, 3, n)]
    nominal = np.array([False, False, True])
    y = (X[:, 0] + 0.3 * X[:, 2] > 1.0).astype(float)
    targets = np.c_[X[:, 0] + 0.5 * rng.random(n), rng.integers(0, 2, n)]
    targets[3, 0] = np.nan
    weights = rng.integers(0, 4, n).astype(float)
    weights[:4] = [0, 1, 2, 3]
    return X, nominal, y, targets, weights


def _both(X, y, nominal, kernels="compiled", **options):
    """(the CPU's result, by ``kernels``, the GPU's) of one run."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReliefWarning)
        cpu = relieff(X, y, nominal, kernels=kernels, **options)
        gpu = relieff(X, y, nominal, device="cuda", **options)
    return cpu, gpu


def _assert_same(cpu, gpu):
    assert np.abs(cpu.weights).max() > 0.01     # something was learnt
    np.testing.assert_allclose(gpu.weights, cpu.weights, rtol=0,
                               atol=TOLERANCE)
    np.testing.assert_array_equal(gpu.trace_steps, cpu.trace_steps)
    np.testing.assert_allclose(gpu.trace, cpu.trace, rtol=0, atol=TOLERANCE)


@pytest.mark.parametrize("variant", ["relieff", "drelieff"])
@pytest.mark.parametrize("rule", ["k", "multisurf"])
def test_several_targets_equal_the_cpu(variant, rule):
    """Multi-target Relief (a numeric and a nominal target, a value
    missing) with the GPU's update kernel for ``diffs.Targets``."""
    X, nominal, _, targets, _ = _data()
    _assert_same(*_both(X, targets, nominal, nominal_targets=[False, True],
                        variant=variant, neighbours=rule, k_nearest=3,
                        trace_every=5))


@pytest.mark.parametrize("variant, rule", [
    ("relieff", "k"), ("relieff", "surf"), ("relieff", "multisurf*"),
    ("drelieff", "k"), ("drelieff", "surf")])
def test_instance_weights_equal_the_cpu(variant, rule):
    """Integer weights (0 to 3; the k nearest with rank weights): each
    instance's copies as neighbours and as visits, the trace divided by
    the weight visited."""
    X, nominal, y, _, weights = _data()
    ranks = dict(k_nearest=4, weight_by_distance=True, sigma=2.0) \
        if rule == "k" else {}
    _assert_same(*_both(X, y, nominal, instance_weights=weights,
                        variant=variant, neighbours=rule, trace_every=5,
                        **ranks))


@pytest.mark.parametrize("rule", ["k", "multisurf"])
def test_weights_and_several_targets_together(rule):
    """Fractional weights and several targets in one run (against the NumPy
    backend, equal to the compiled kernels to ~1e-15 and with nothing to
    compile for this combination)."""
    X, nominal, _, targets, weights = _data(seed=8)
    weights = weights * 0.75
    _assert_same(*_both(X, targets, nominal, kernels="vectorised",
                        nominal_targets=[False, True],
                        instance_weights=weights, neighbours=rule,
                        k_nearest=3, trace_every=6))


@pytest.mark.parametrize("rule", ["k", "multisurf"])
def test_weighted_gpu_equals_the_repeated_table(rule):
    """Integer weights on the GPU: the weights of the table with each row
    repeated w times (every instance visited), classification and
    regression."""
    X, nominal, y, targets, weights = _data(n=10, seed=11)
    rows = np.repeat(np.arange(len(y)), weights.astype(int))
    for target, regression in ((y, False), (targets[:, 0] + 1.0, True)):
        target = np.where(np.isnan(target), 0.5, target)
        options = dict(neighbours=rule, k_nearest=3, regression=regression)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ReliefWarning)
            gpu = relieff(X, target, nominal, instance_weights=weights,
                          device="cuda", **options)
            table = relieff(X[rows], target[rows], nominal,
                            kernels="compiled", **options)
        np.testing.assert_allclose(gpu.weights, table.weights, rtol=0,
                                   atol=TOLERANCE)


def test_weights_with_missing_values_refused_on_the_gpu():
    """RELIEF-D's weighted value distributions are the CPU's: device="cuda"
    says so, device="auto" keeps the run on the CPU."""
    X, nominal, y, targets, weights = _data()
    X[2, 1] = np.nan
    with pytest.raises(ValueError, match="instance weights on data with "
                                         "missing values"):
        relieff(X, y, nominal, instance_weights=weights, device="cuda")
    setup = start(X, y, nominal, instance_weights=weights)
    assert "missing values" in cuda.auto_declines(setup)


def test_auto_keeps_weights_and_targets_on_the_cpu():
    """Not measured on a GPU yet: device="auto" declines both, with the
    reason; the GPU backend covers them."""
    X, nominal, y, targets, weights = _data()
    for setup in (start(X, y, nominal, instance_weights=weights),
                  start(X, targets, nominal)):
        assert cuda.uncovered(setup) is None
        assert "measured on a GPU" in cuda.auto_declines(setup)
