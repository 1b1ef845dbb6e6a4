"""The GPU backend: ``backend`` (``CudaBackend``, device="cuda") and its numba-cuda
kernels (``kernels``).
"""
