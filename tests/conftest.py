"""The tests check the compiled kernels: a run must not take the vectorised
path while they compile (``core/warmup.py``), nor start a background
compilation.  Tests of the vectorised path and of a first use ask for them
explicitly.  Widgets are drawn off screen (as the README's test command
asks), so a file of tests that creates one runs without a display."""
import os

os.environ.setdefault("ORANGE3_RELIEF_KERNELS", "compiled")
os.environ.setdefault("ORANGE3_RELIEF_WARMUP", "0")
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
