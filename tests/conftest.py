"""The tests check the compiled kernels: a run must not take the vectorised
path while they compile (``core/warmup.py``), nor start a background
compilation.  Tests of the vectorised path and of a first use ask for them
explicitly."""
import os

os.environ.setdefault("ORANGE3_RELIEF_KERNELS", "compiled")
os.environ.setdefault("ORANGE3_RELIEF_WARMUP", "0")
