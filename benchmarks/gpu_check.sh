#!/bin/bash
# The GPU backend's checks on a machine with an NVIDIA GPU, in one command
# (how issue 32's figures were made on a lent H100):
#   1. tests/test_cuda.py on the device;
#   2. benchmarks/bench_gpu.py's ReliefF table and time per GPU step;
#   3. benchmarks/weights_harness.py on the GPU against the compiled CPU
#      engine's weights saved beforehand (--save cpu.npz, on any machine);
#   4. bench_gpu.py's permutation test, feedback variants and large data,
#      with the options given after the first two arguments.
# Usage: bash benchmarks/gpu_check.sh SAVED_CPU_WEIGHTS.npz OUT_FOLDER [bench_gpu options]
saved=$1; out=$2; shift 2
export PYTHONUNBUFFERED=1 ORANGE3_RELIEF_WARMUP=0
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
python3 -c "import numpy, numba, numba_cuda; print('numpy', numpy.__version__, 'numba', numba.__version__, 'numba-cuda', numba_cuda.__version__)"
timeout 150 python3 -m pytest -q -p no:cacheprovider -W ignore::numba.core.errors.NumbaPerformanceWarning tests/test_cuda.py 2>&1 | tee "$out/tests.log" | tail -4
python3 -W ignore benchmarks/bench_gpu.py --only relieff --profile --json "$out/bench_relieff.json" "$@" 2>&1 | tee "$out/bench_relieff.log"
timeout 120 python3 -W ignore benchmarks/weights_harness.py --device cuda --compare "$saved" --tolerance 1e-12 > "$out/harness.log" 2>&1
tail -4 "$out/harness.log"
python3 -W ignore benchmarks/bench_gpu.py --only permutations feedback large --json "$out/bench_more.json" "$@" 2>&1 | tee "$out/bench_more.log"
