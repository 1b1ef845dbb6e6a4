"""The compiled CPU backend (numba): ``backend`` (``CompiledBackend``), ReliefF's
loop (``relieff_loop``), the feedback variants' loop (``feedback_loop``), the
layouts the loops read (``layouts``), the screening distances (``screens``),
NPDR's pair kernels (``npdr_kernels``).
"""
