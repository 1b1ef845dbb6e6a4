"""What the tests of ``device=`` in the scorers, the selector, the
significance tests and the command line share.

Where there is no NVIDIA GPU, ``tests/conftest.py`` sets
NUMBA_ENABLE_CUDASIM=1 and ``device="cuda"`` runs the GPU kernels under
numba's CUDA simulator (each GPU thread a Python thread: about a second per
20-row ReliefF run), so these tests use tiny tables; on a machine with a GPU
they run on it.  ``device="auto"`` never takes the simulator."""
import numpy as np
import pytest

from orangecontrib.relief.core.backends.cuda import backend as cuda
from orangecontrib.relief.core import engine, relieff
from orangecontrib.relief.core.backends import selection

#: device="cuda" runs here (a GPU, or numba-cuda's simulator)
needs_cuda = pytest.mark.skipif(
    cuda.unavailable_reason() is not None,
    reason=f"device='cuda' cannot run: {cuda.unavailable_reason()}")

#: the CPU weights and the GPU's agree to this (the sums differ in order)
TOLERANCE = 1e-12


def tiny(seed=0, n=20, a=4, regression=False):
    """(X, y, nominal) of a tiny table: two numeric features, then nominal
    ones, a class that depends on the first of each (or a number)."""
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.random((n, 2)),
                         rng.integers(0, 3, (n, a - 2))]).astype(float)
    score = X[:, 0] + 0.3 * X[:, 2]
    y = score + 0.1 * rng.random(n) if regression \
        else (score > np.median(score)).astype(float)
    return X, y, np.arange(a) >= 2


@pytest.fixture
def no_gpu(monkeypatch):
    """No GPU here (as on a machine without one), and device="auto" has not
    said so yet in this process."""
    monkeypatch.setattr(cuda, "available", lambda: False)
    monkeypatch.setattr(cuda, "unavailable_reason",
                        lambda: "no CUDA GPU was found (test)")
    monkeypatch.setattr(selection, "_SAID", set())


def recording_runs(told):
    """A stand-in for ``core.engine.run_setup`` that appends the ``device``
    it is told to ``told`` and runs on the CPU: on the GPU a permutation
    test plans its refits on data prepared once and runs each with it
    (``stats._target_refits``)."""
    original = engine.run_setup

    def recording(setup, device=None, **options):
        told.append(device)
        return original(setup, device="cpu", **options)
    return recording


def recording_engine(told):
    """A stand-in for ``core.relieff`` that appends the ``device`` it is
    told to ``told`` and runs on the CPU (quick): monkeypatched into a
    module, it shows which device that module's runs ask for."""
    def recording(*args, device=None, **options):
        told.append(device)
        return relieff(*args, **options)
    return recording
