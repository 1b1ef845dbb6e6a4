"""dReliefF's and pdReliefF's visits on the GPU in one launch a batch
(``kernels.feedback_visits``: the steps of a visit with a barrier across the
grid between them, ``CudaBackend.visit_in_order``): the CPU's weights to
1e-12, and a constant number of launches and copies a batch, not a visit.

Under numba's simulator (no GPU here) the grid is one block, whose barrier
the simulator models; on a GPU the same tests run on its full grid.
"""
import warnings

import numpy as np
import pytest

pytest.importorskip("numba.cuda", reason="needs numba-cuda (the [gpu] extra)")

from orangecontrib.relief.core.backends.cuda import (  # noqa: E402
    backend as cuda)
from orangecontrib.relief.core.engine import relieff  # noqa: E402
from orangecontrib.relief.core.messages import ReliefWarning  # noqa: E402

if cuda.unavailable_reason() is not None:
    pytest.skip(cuda.unavailable_reason(), allow_module_level=True)

from orangecontrib.relief.core.backends.cuda import kernels  # noqa: E402

KERNELS = ("feedback_visits", "pair_distances", "tiled_distances",
           "k_nearest", "k_nearest_block", "within_radius",
           "within_radius_block", "updates")


def _table(n=16, seed=5, regression=False, missing=False, classes=2):
    """Mixed numeric and nominal data with ties (values on a grid)."""
    rng = np.random.default_rng(seed)
    X = np.c_[np.floor(rng.random((n, 3)) * 4) / 4,
              rng.integers(0, 3, (n, 2))]
    if missing:
        X[rng.random(X.shape) < 0.15] = np.nan
    score = np.nan_to_num(X[:, 0]) + 0.3 * np.nan_to_num(X[:, 3])
    y = score + 0.1 * rng.random(n) if regression else \
        np.floor(classes * rng.random(n)) if classes > 2 else \
        (score > np.median(score)).astype(float)
    return X, y, np.array([0, 0, 0, 1, 1], bool)


@pytest.fixture
def launches(monkeypatch):
    """How often each kernel is launched (by name)."""
    counted = dict.fromkeys(KERNELS, 0)

    class Counted:
        def __init__(self, name, kernel):
            self.name, self.kernel = name, kernel

        def __getitem__(self, configuration):
            def launch(*args):
                counted[self.name] += 1
                return self.kernel[configuration](*args)
            return launch

        def __getattr__(self, name):        # compile, on a GPU
            return getattr(self.kernel, name)

    for name in KERNELS:
        monkeypatch.setattr(kernels, name,
                            Counted(name, getattr(kernels, name)))
    monkeypatch.setattr(cuda, "ONE_LAUNCH_FAILED", None)
    return counted


def _both(X, y, nominal, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReliefWarning)
        cpu = relieff(X, y, nominal, kernels="vectorised", **options)
        gpu = relieff(X, y, nominal, device="cuda", **options)
    np.testing.assert_allclose(gpu.weights, cpu.weights, rtol=0, atol=1e-12)
    if cpu.trace is not None:
        np.testing.assert_array_equal(gpu.trace_steps, cpu.trace_steps)
        np.testing.assert_allclose(gpu.trace, cpu.trace, rtol=0, atol=1e-12)
    return cpu, gpu


@pytest.mark.parametrize("visits", [5, 16])
def test_one_launch_a_batch_whatever_the_visits(launches, visits):
    """A run of small data is one batch: one launch of feedback_visits for
    5 visits as for 16, and no kernel of the launch-per-step path."""
    _both(*_table(), variant="drelieff", n_iterations=visits,
          random_state=1)
    assert launches == dict(dict.fromkeys(KERNELS, 0), feedback_visits=1)


def test_batches_each_one_launch(launches, monkeypatch):
    """Batches of 1, 2, 2 and 2 visits (progress between them): a launch a
    batch, the estimate carried from one to the next on the host."""
    monkeypatch.setattr(cuda.CudaBackend, "largest_batch", lambda self: 2)
    monkeypatch.setattr(cuda, "GPU_FIRST_BATCH_TERMS", 1)
    from orangecontrib.relief.core.backends import runtime
    monkeypatch.setattr(runtime, "BATCH_SECONDS", 1e9)
    _both(*_table(), variant="pdrelieff", n_iterations=7, random_state=2,
          trace_every=3)
    assert launches["feedback_visits"] == 4
    assert sum(launches.values()) == 4


@pytest.mark.parametrize("variant,options", [
    ("drelieff", dict(k_nearest=1)),
    ("pdrelieff", dict(misses="any", k_nearest=3, T=0.5)),
    ("pdrelieff-linear", dict(trace_every=4)),
    ("pdrelieff-logistic", dict(weight_by_distance=True, sigma=2.0)),
    ("drelieff", dict(distance_weights=np.array([1, 0.5, 0, 2, 1.0]))),
    ("relieff", dict(distance_weights=np.array([1, 0.5, 0, 2, 1.0]))),
    ("pdrelieff", dict(k_nearest=kernels.KMAX)),
], ids=str)
def test_the_cpus_weights(launches, variant, options):
    """Every feedback variant (and ReliefF with fixed distance weights), tie
    rules with k = 1 and the largest k, all misses together, rank weights,
    traces: the CPU's to 1e-12, in one launch."""
    _both(*_table(), variant=variant, n_iterations=9, random_state=3,
          **options)
    assert launches["feedback_visits"] == 1


@pytest.mark.parametrize("data", [
    dict(missing=True), dict(classes=3), dict(regression=True),
    dict(regression=True, missing=True)], ids=str)
def test_every_kind_of_data(launches, data):
    """RELIEF-D's diffs (missing values), three classes, RReliefF's three
    sums (with missing values): the CPU's."""
    X, y, nominal = _table(**data)
    _both(X, y, nominal, variant="pdrelieff", n_iterations=10,
          random_state=4, regression=data.get("regression", False))
    assert launches["feedback_visits"] == 1


@pytest.mark.parametrize("case", ["radius rule", "k above KMAX",
                                  "switched off", "not ready on this GPU"])
def test_falls_back_to_a_launch_a_step(launches, monkeypatch, case):
    """Where feedback_visits does not apply (radius rules, k > KMAX) or is
    switched off or could not be made ready (``ONE_LAUNCH_FAILED``), the
    launch-per-step path gives the same weights."""
    options = dict(variant="drelieff", n_iterations=6, random_state=6)
    if case == "radius rule":
        options["neighbours"] = "multisurf"
    elif case == "k above KMAX":
        options["k_nearest"] = kernels.KMAX + 1
    elif case == "switched off":
        monkeypatch.setattr(cuda, "ONE_LAUNCH", False)
    else:
        monkeypatch.setattr(cuda, "ONE_LAUNCH_FAILED", "no cudadevrt")
    X, y, nominal = _table(n=20)
    _both(X, y, nominal, **options)
    assert launches["feedback_visits"] == 0
    assert launches["pair_distances"] == 6


def test_feedback_block_size_from_the_environment():
    """``ORANGE3_RELIEF_CUDA_FEEDBACK_THREADS`` (the feedback kernel's block
    size, for measuring on a GPU) takes 256, 512 or 1024; anything else is a
    ValueError that names the variable when the kernels load."""
    import os
    import subprocess
    import sys
    load = ("from orangecontrib.relief.core.backends.cuda import kernels; "
            "print(kernels.FEEDBACK_THREADS)")
    environment = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    for value, expected in (("512", "4"), ("300", "ValueError: The "
                            "environment variable ORANGE3_RELIEF_CUDA_"
                            "FEEDBACK_THREADS must be '256', '512' or "
                            "'1024'; got '300'.")):
        environment[kernels.FEEDBACK_THREADS_VARIABLE] = value
        done = subprocess.run([sys.executable, "-c", load], env=environment,
                              capture_output=True, text=True)
        assert expected in (done.stdout + done.stderr)
