"""The GPU kernels (``core/backends/cuda/kernels.py``) compiled to PTX as on a GPU,
without one: every kernel, for each set of argument types ``core/backends/cuda/backend.py``
launches it with, for compute capabilities 8.0 (A100) and 9.0 (H100).

numba's CUDA simulator (``test_cuda.py``) runs the kernels' logic but does
not type them as the GPU compiler does: e.g. a ``cuda.shared.array`` whose
shape is not a constant passes the simulator and fails NVVM.  Here NVVM and
NVRTC come from pip's ``nvidia-cuda-nvcc-cu12`` and
``nvidia-cuda-nvrtc-cu12`` (the ``test`` extra), found by numba-cuda's
wheel lookup (``cuda.pathfinder``); no driver is needed.

The compile runs in a subprocess (this file run as a script) with the
simulator off, since ``tests/conftest.py`` turns it on for this process and
the kernels' block sizes take their GPU values only without it.  One
subprocess per compute capability: numba-cuda compiles a device function
once per argument types, for the compute capability of the device it asks
for (none here: ``_compile`` answers with the one being compiled).
"""
import json
import os
import platform
import subprocess
import sys
import time
import types as pytypes
from pathlib import Path

import numpy as np
import pytest
from numba import typeof, types

from orangecontrib.relief.core.contract.diffs import Targets

ROOT = Path(__file__).resolve().parents[1]
COMPUTE_CAPABILITIES = ((8, 0), (9, 0))

# The argument types of each launch in core/backends/cuda/backend.py (CudaBackend.update_rows):
# the data (x float64, nominal codes int32, both C-contiguous), the visits
# (int64), float64 distance weights, int64 classes and group starts, the
# RELIEF-D tables (``prepare.MissingTables``: the sorted laws and their
# prefix sums, float64 1-D; their starts and counts, int64 2-D; the tables
# of both missing and of nominal laws, float64 3-D), the per-batch buffers
# (chosen int32, counts and starts int64, the rest float64), Python ints
# (mode, number of groups, k) and bools (flags), and a radius rule's fields
# (neighbours.Neighbourhood: pair_mean_radius, deviations, far,
# far_sameness; RULE).  Each kernel has
# one signature: no launch passes other dtypes (checked under the simulator
# by test_launches_match_the_signatures).
F1, F2 = types.float64[::1], types.float64[:, ::1]
F3 = types.float64[:, :, ::1]
S2 = types.float32[:, ::1]          # the float32 screen's distances
I1, I2 = types.int64[::1], types.int64[:, ::1]
CODES = CHOSEN = types.int32[:, ::1]
FLAG, INT, FLOAT = types.boolean, types.int64, types.float64
RULE = (FLAG, FLOAT, FLAG, FLAG)
# (num_sorted, num_prefix, num_start, num_pstart, num_count, num_both,
#  nom_prob, nom_both)
TABLES = (F1, F1, I2, I2, I2, F3, F3, F3)
# several targets (``diffs.Targets``: values float64 2-D, nominal flags)
TARGETS = typeof(Targets(np.zeros((1, 1)), np.zeros(1, bool)))
SIGNATURES = {
    "tiled_distances": [(F2, CODES, I1, F1, F2)],
    "tiled_distances32": [(F2, CODES, I1, F1, S2)],
    "k_nearest_screened": [(S2, FLOAT, FLOAT, F2, CODES, I1, I1) + TABLES
                           + (F1, INT, INT, INT, F1, F2, I1, CHOSEN, F2, F2,
                              I2)],
    "pair_distances": [(F2, CODES, I1, F1, I1) + TABLES + (F2,)],
    "k_nearest": [(F2, I1, I1, INT, INT, INT, F1, F2, I1, F2, CHOSEN, F2,
                   F2, I2)],
    "k_nearest_block": [(F2, I1, I1, INT, INT, INT, F1, F2, I1, CHOSEN, F2,
                         F2, I2)],
    "within_radius": [(F2, I1, I1, INT, INT) + RULE
                      + (F1, F2, I2, CHOSEN, F2, I2, F1)],
    "within_radius_block": [(F2, I1, I1, INT, INT) + RULE
                            + (F1, F2, CHOSEN, F2, I2, F1)],
    "updates": [(F2, CODES, I1, I1, F1, FLAG, FLAG) + TABLES
                + (I2, I2, CHOSEN, F2, F1, F2)],
    "feedback_visits": [(F2, CODES, I1, I1, F1, FLAG, FLAG) + TABLES
                        + (INT, INT, INT, F1, F2, I1, INT, FLOAT, INT, F1,
                           INT, INT, F1, F1, F1, I1, F2, CHOSEN, F2, F2, I2,
                           I2, F1, F2, F2)],
    "dense_coefficients": [(CHOSEN, F2, I2, F2)],
    "tiled_updates": [(F2, CODES, I1, I1) + TABLES + (F2, F1, F2)],
    "add_rows": [(F2, F1, INT, INT, INT, F2)],
    "updates_targets": [(F2, CODES, I1, I1, TARGETS, FLAG, FLAG) + TABLES
                        + (I2, I2, CHOSEN, F2, F1, F2)],
    "visit_copies": [(F1, I1, F2)],
    "weighted_k_nearest": [(F2, I1, I1, F2, INT, INT, INT, F1, F2, I1,
                            CHOSEN, F2, F2, F2, I2)],
    "weighted_within_radius": [(F2, I1, I1, F2, INT, INT) + RULE
                               + (F1, F2, F2, CHOSEN, F2, I2, F1)],
    "scale_rows": [(I1, F1, F2)],
}


def _wheel_exists():
    """Whether NVIDIA publishes the NVVM wheels here (setup.py's marker on
    the test extra: Linux and Windows, x86-64 and ARM64 Linux)."""
    return (sys.platform, platform.machine()) in {
        ("linux", "x86_64"), ("linux", "aarch64"), ("win32", "AMD64")}


def _probe(a):
    """The smallest kernel: if it does not compile, the toolchain is
    missing, not a kernel wrong (a clear failure)."""
    a[0] = 1.0


def _compile(cc):
    """Compile every kernel of ``cuda_kernels`` for each of its SIGNATURES
    for compute capability ``cc``; print the result as JSON: the kernels
    found and the failures ({kernel: [message]}), or what is missing."""
    try:
        import numba.cuda.dispatcher
        from numba import cuda
        cuda.compile_ptx(_probe, (types.float64[::1],), cc=cc)
    except Exception as error:      # ImportError, a library not found, ...
        print(json.dumps({"missing": f"{type(error).__name__}: {error}"}))
        return
    # numba-cuda 0.30 compiles a (non-inlined) device function for the
    # current device's compute capability, which it asks the driver for:
    # answer cc instead
    numba.cuda.dispatcher.get_current_device = \
        lambda: pytypes.SimpleNamespace(compute_capability=cc)
    from orangecontrib.relief.core.backends.cuda import kernels as cuda_kernels
    assert not cuda_kernels.config.ENABLE_CUDASIM, "the simulator is on"
    kernels = sorted(
        name for name, value in vars(cuda_kernels).items()
        if isinstance(value, numba.cuda.dispatcher.CUDADispatcher)
        and not value.targetoptions.get("device"))
    failures = {}
    target = ".target sm_%d%d" % cc
    for name in kernels:
        kernel = getattr(cuda_kernels, name)
        # the options the kernel is compiled with on a GPU (fastmath, ...)
        options = {key: kernel.targetoptions[key] for key in (
            "debug", "lineinfo", "fastmath", "opt", "forceinline",
            "launch_bounds") if key in kernel.targetoptions}
        for signature in SIGNATURES.get(name, ()):
            try:
                ptx, _ = cuda.compile_ptx(kernel.py_func, signature, cc=cc,
                                          **options)
                problem = None if target in ptx \
                    else f"the PTX has no '{target}'"
            except Exception as error:
                problem = f"{type(error).__name__}: {error}"
            if problem:
                failures.setdefault(name, []).append("(%s): %s" % (
                    ", ".join(map(str, signature)), problem))
    print(json.dumps({"kernels": kernels, "failures": failures}))


@pytest.mark.parametrize("cc", COMPUTE_CAPABILITIES,
                         ids=lambda cc: "sm_%d%d" % cc)
def test_every_kernel_compiles_to_ptx(cc):
    """Every kernel (found by introspection) has its launch signatures
    here, and each compiles to PTX for cc with NVVM."""
    if not _wheel_exists():
        pytest.skip(f"NVIDIA publishes no NVVM wheel (nvidia-cuda-nvcc-cu12)"
                    f" for {sys.platform} on {platform.machine()}")
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="0",
               NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING="1",
               PYTHONPATH=os.pathsep.join(
                   filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    env.pop("NUMBA_FORCE_CUDA_CC", None)    # it would override cc
    started = time.perf_counter()
    run = subprocess.run(
        [sys.executable, __file__, "%d.%d" % cc], cwd=ROOT, env=env,
        capture_output=True, text=True, timeout=900)
    seconds = time.perf_counter() - started
    assert run.returncode == 0, run.stderr[-4000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert "missing" not in result, (
        "numba-cuda, NVVM or NVRTC is missing: install the test extra "
        "(pip install -e '.[test]': numba-cuda, nvidia-cuda-nvcc-cu12, "
        "nvidia-cuda-nvrtc-cu12).  " + result.get("missing", ""))
    unlisted = sorted(set(result["kernels"]) - set(SIGNATURES))
    stale = sorted(set(SIGNATURES) - set(result["kernels"]))
    assert not unlisted and not stale, (
        f"SIGNATURES must list exactly the kernels of cuda_kernels.py, with "
        f"the argument types core/backends/cuda/backend.py launches them with: kernels not "
        f"listed: {unlisted}; listed, not kernels: {stale}")
    label = "sm_%d%d" % cc
    assert not result["failures"], "\n".join(
        f"{name} for {label}: {message}"
        for name, messages in result["failures"].items()
        for message in messages)
    print(f"{len(result['kernels'])} kernels to PTX for {label} in "
          f"{seconds:.1f} s")


def _host(arg):
    """A simulator array as its numpy array, in a tuple too (several
    targets' ``diffs.Targets``)."""
    if isinstance(arg, tuple):
        return type(arg)(*map(_host, arg))
    return getattr(arg, "_ary", arg)


class _Recorder:
    """A kernel that records the argument types of each launch, as the GPU
    types them: a simulator array by its numpy array (the simulator types a
    zero-size array, e.g. no nominal columns, as layout 'A', where numba-cuda's
    DeviceNDArray and numpy say 'C')."""

    def __init__(self, kernel, launches):
        self.kernel, self.launches = kernel, launches

    def __getitem__(self, configuration):
        def launch(*args):
            self.launches.add(tuple(typeof(_host(arg)) for arg in args))
            return self.kernel[configuration](*args)
        return launch

    def __getattr__(self, name):        # compile, on a GPU
        return getattr(self.kernel, name)


def test_launches_match_the_signatures(monkeypatch):
    """The argument types core/backends/cuda/backend.py launches each kernel with, over every
    path (tiled and pair distances, the float32 screen, the four neighbour
    kernels, dense,
    sparse, missing, nominal-only, regression, STIR's sums, instance
    weights, several targets), are SIGNATURES' (the simulator types them as
    the GPU would)."""
    import numpy as np
    import scipy.sparse as sp
    from orangecontrib.relief.core.backends.cuda import backend as cuda
    from orangecontrib.relief.core.engine import relieff
    if cuda.unavailable_reason() is not None:
        pytest.skip(cuda.unavailable_reason())
    from orangecontrib.relief.core.backends.cuda import kernels as cuda_kernels
    launches = {name: set() for name in SIGNATURES}
    monkeypatch.setattr(cuda, "TILED_UPDATES", True)     # off by default
    monkeypatch.setattr(cuda, "FLOAT32_SCREEN", True)    # off by default
    for name in SIGNATURES:
        monkeypatch.setattr(cuda_kernels, name, _Recorder(
            getattr(cuda_kernels, name), launches[name]))
    rng = np.random.default_rng(0)
    n = 40
    X = np.c_[rng.random((n, 2)), rng.integers(0, 3, (n, 2))]
    nominal = np.array([0, 0, 1, 1], bool)
    y = rng.integers(0, 2, n).astype(float)
    missing = X.copy()
    missing[rng.random(X.shape) < 0.1] = np.nan
    sparse = sp.random(n, 4, density=0.4, random_state=0, format="csr")
    runs = [
        dict(X=X), dict(X=X, k_nearest=17),
        dict(X=missing, neighbours="multisurf*"), dict(X=X, neighbours="surf"),
        dict(X=X, variant="drelieff"), dict(X=sparse, nominal=None),
        dict(X=X[:, 2:], nominal=nominal[2:]),
        dict(X=missing, y=X[:, 0] + rng.random(n), regression=True),
        dict(X=X, statistics=True, misses="any"),
        dict(X=X, instance_weights=np.arange(n) % 3.0),
        dict(X=X, neighbours="multisurf", instance_weights=np.ones(n) * 2),
        dict(X=X, variant="drelieff", instance_weights=np.arange(n) % 2.0),
        dict(X=X, y=np.c_[X[:, 0], y], regression=True)]
    for block in (False, True):
        monkeypatch.setattr(cuda, "BLOCK_SELECTION", block)
        # (with the block selection, complete data takes the float32
        # screen: the block's k nearest on missing values' distances)
        for run in runs[:4] + [dict(X=missing)] if block else runs:
            run = dict(dict(y=y, nominal=nominal, device="cuda",
                            n_iterations=3), **run)
            relieff(run.pop("X"), run.pop("y"), run.pop("nominal"), **run)
    def shown(signatures):
        return ["(%s)" % ", ".join(map(str, s)) for s in signatures]
    for name, signatures in SIGNATURES.items():
        assert launches[name] == set(signatures), (
            f"{name}: update SIGNATURES; launched with "
            f"{shown(launches[name] - set(signatures))}, never with "
            f"{shown(set(signatures) - launches[name])}")


if __name__ == "__main__":
    _compile(tuple(int(part) for part in sys.argv[1].split(".")))
