"""What each GPU kernel costs in registers, spills and shared memory, without
a GPU: compiled to PTX as ``tests/test_cuda_ptx.py`` does (its SIGNATURES;
NVVM from pip's ``nvidia-cuda-nvcc-cu12``), then assembled by that wheel's
``ptxas -v`` for one compute capability.

    python benchmarks/ptx_resources.py                       # every kernel, sm_90
    python benchmarks/ptx_resources.py tiled_distances tiled_distances32 --cc 8.0
    ORANGE3_RELIEF_CUDA_FEEDBACK_THREADS=256 python benchmarks/ptx_resources.py feedback_visits

A kernel held to few registers by its block size (``feedback_visits``:
launch bounds) spills to local memory; this says how much, a thread.  (A
kernel that calls the device runtime, ``feedback_visits``'s grid barrier,
is assembled as relocatable code, without its shared memory in the
report.)
"""
import argparse
import re
import subprocess
import sys
import tempfile
import types as pytypes
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))


def ptxas():
    """The path of the nvcc wheel's ptxas."""
    import nvidia.cuda_nvcc
    found = list(Path(nvidia.cuda_nvcc.__path__[0]).rglob("ptxas"))
    if not found:
        sys.exit("ptxas not found: pip install nvidia-cuda-nvcc-cu12")
    return str(found[0])


def resources(name, cc, tool):
    """(registers, spill stores, spill loads, shared bytes) of kernel
    ``name`` compiled for ``cc``."""
    import numba.cuda.dispatcher
    from numba import cuda
    from test_cuda_ptx import SIGNATURES
    # as test_cuda_ptx: device functions compile for the cc asked for
    numba.cuda.dispatcher.get_current_device = \
        lambda: pytypes.SimpleNamespace(compute_capability=cc)
    from orangecontrib.relief.core.backends.cuda import kernels
    kernel = getattr(kernels, name)
    options = {key: kernel.targetoptions[key] for key in (
        "fastmath", "launch_bounds") if key in kernel.targetoptions}
    ptx, _ = cuda.compile_ptx(kernel.py_func, SIGNATURES[name][0], cc=cc,
                              **options)
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / f"{name}.ptx"
        source.write_text(ptx)
        command = [tool, "-v", f"-arch=sm_{cc[0]}{cc[1]}", str(source),
                   "-o", str(Path(folder) / "out.cubin")]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode:
            # a kernel that calls the device runtime (a grid's barrier):
            # relocatable, linked with cudadevrt on a GPU
            done = subprocess.run(command[:2] + ["-c"] + command[2:],
                                  capture_output=True, text=True, check=True)
        report = done.stderr
    # the entry function's lines come last (device functions first)
    entry = report[report.rfind("Compiling entry function"):]

    def number(pattern):
        found = re.search(pattern, entry)
        return int(found.group(1)) if found else 0
    return (number(r"Used (\d+) registers"),
            number(r"(\d+) bytes spill stores"),
            number(r"(\d+) bytes spill loads"),
            number(r"(\d+) bytes smem"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kernels", nargs="*")
    parser.add_argument("--cc", default="9.0")
    args = parser.parse_args()
    cc = tuple(int(part) for part in args.cc.split("."))
    from test_cuda_ptx import SIGNATURES
    from orangecontrib.relief.core.backends.cuda import kernels
    tool = ptxas()
    print(f"sm_{cc[0]}{cc[1]}; feedback_visits in blocks of "
          f"{kernels.FEEDBACK_THREADS} threads")
    print(f"{'kernel':24s} {'registers':>9s} {'spill st':>9s} "
          f"{'spill ld':>9s} {'smem B':>7s}")
    for name in args.kernels or sorted(SIGNATURES):
        print(f"{name:24s} " + " ".join(
            f"{value:>{width}d}" for value, width in zip(
                resources(name, cc, tool), (9, 9, 9, 7))), flush=True)


if __name__ == "__main__":
    main()
