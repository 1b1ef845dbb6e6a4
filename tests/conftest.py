"""The tests check the compiled kernels: a run must not take the vectorised
path while they compile (``core/backends/warmup.py``), nor start a background
compilation.  Tests of the vectorised path and of a first use ask for them
explicitly.  Widgets are drawn off screen (as the README's test command
asks), so a file of tests that creates one runs without a display.

The GPU backend's tests (``test_cuda.py``) run its kernels on an NVIDIA GPU
where there is one (``nvidia-smi`` on the PATH), else under numba's CUDA
simulator, which runs the same kernel code on the CPU; the simulator is
never taken by ``device="auto"`` (``core/backends/cuda/backend.py``)."""
import os
import shutil

os.environ.setdefault("ORANGE3_RELIEF_KERNELS", "compiled")
os.environ.setdefault("ORANGE3_RELIEF_WARMUP", "0")
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
if shutil.which("nvidia-smi") is None:
    os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")
