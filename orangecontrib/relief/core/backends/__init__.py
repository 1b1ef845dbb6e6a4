"""The backends, one interface (``base``): how visits run, never a copy of the
contract's arithmetic.  ``runtime`` (batches, threads, progress), ``selection``
(which backend), ``warmup`` / ``precompile`` (compiling ahead), ``vectorised``
(the NumPy path of a first use), ``weka`` (compat="weka"); the compiled and
GPU backends in their folders (doc/architecture.md).
"""
