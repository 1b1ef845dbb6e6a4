#!/bin/bash
# The GPU backend's checks on a machine with an NVIDIA GPU, in one command
# (how doc/gpu.md's figures were made on a lent H100 / H200):
#   1. benchmarks/weights_harness.py on the GPU against the compiled CPU
#      engine's weights saved beforehand (--save cpu.npz, on any machine):
#      all 194 configurations within 1e-12;
#   2. the GPU tests ($GPU_TESTS, default tests/test_cuda*.py) on the device;
#   2b. instance weights and several targets (gpu_weights_check.py): a few
#      runs against the compiled CPU engine, within 1e-12, each timed on
#      both (device="auto" keeps them on the CPU until measured, doc/gpu.md);
#   3. bench_gpu.py's ReliefF table against fast-select (float64 distances
#      and the float32 screen) and the time per GPU step (--profile); the
#      tiled update against the one-thread update (--only msurf);
#   4. bench_gpu.py's feedback variants (then again with the feedback
#      kernel's blocks of $FEEDBACK_THREADS, default "512 256", threads:
#      ORANGE3_RELIEF_CUDA_FEEDBACK_THREADS), permutation test and large
#      data (last: it is the longest), with the options given after the
#      first two arguments (e.g. --rounds 2 --large-visits 0
#      --large-rules k-f32 k multisurf).
# Each step's output goes to OUT_FOLDER; a step that overruns its time is
# stopped and the next one runs.
# Usage: bash benchmarks/gpu_check.sh SAVED_CPU_WEIGHTS.npz OUT_FOLDER [bench_gpu options]
saved=$1; out=$2; shift 2
export PYTHONUNBUFFERED=1 ORANGE3_RELIEF_WARMUP=0
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
python3 -c "import numpy, numba, numba_cuda; print('numpy', numpy.__version__, 'numba', numba.__version__, 'numba-cuda', numba_cuda.__version__)"
timeout 150 python3 -W ignore benchmarks/weights_harness.py --device cuda --compare "$saved" --tolerance 1e-12 > "$out/harness.log" 2>&1
tail -2 "$out/harness.log"
timeout 150 python3 -m pytest -q -p no:cacheprovider -W ignore::numba.core.errors.NumbaPerformanceWarning ${GPU_TESTS:-tests/test_cuda*.py} 2>&1 | tee "$out/tests.log" | tail -4
timeout 180 python3 -W ignore benchmarks/gpu_weights_check.py --json "$out/weights_targets.json" 2>&1 | tee "$out/weights_targets.log" | tail -11
timeout 120 python3 -W ignore benchmarks/bench_gpu.py "$@" --only relieff --profile --json "$out/bench_relieff.json" 2>&1 | tee "$out/bench_relieff.log"
timeout 60 python3 -W ignore benchmarks/bench_gpu.py "$@" --only msurf --json "$out/bench_msurf.json" 2>&1 | tee "$out/bench_msurf.log" | grep msurf
timeout 90 python3 -W ignore benchmarks/bench_gpu.py "$@" --only feedback permutations --json "$out/bench_feedback.json" 2>&1 | tee "$out/bench_feedback.log"
for threads in ${FEEDBACK_THREADS:-512 256}; do
  ORANGE3_RELIEF_CUDA_FEEDBACK_THREADS=$threads timeout 60 python3 -W ignore benchmarks/bench_gpu.py "$@" --only feedback --feedback-visits 4000 --json "$out/bench_feedback_$threads.json" 2>&1 | tee "$out/bench_feedback_$threads.log" | grep -i "visit" | sed "s/^/[blocks of $threads threads] /"
done
timeout ${LARGE_SECONDS:-300} python3 -W ignore benchmarks/bench_gpu.py "$@" --only large --json "$out/bench_large.json" 2>&1 | tee "$out/bench_large.log"
