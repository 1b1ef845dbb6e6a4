"""Which backend computes a run on this machine: the registry of the local
backends by name (``relieff(kernels=name)``), and ``FirstUse``, which picks
the backend of each batch while the compiled kernels are not ready.

compat="weka" takes Weka's backend whatever ``kernels`` says; a Dask client
takes ``orangecontrib.relief.distributed``'s.  ``device="cuda"`` takes the
GPU's (``cuda.CudaBackend``); ``device="auto"`` takes it where a GPU is
present and covers the run, else the CPU's, and says so once.
"""
import time

from .cuda import backend as cuda
from . import warmup
from .base import Backend, takes_weights, weighted
from .compiled.backend import CompiledBackend, kernel_set
from .cuda.backend import CudaBackend
from ..messages import warn
from ..options import from_environment, one_of
from .vectorised import VectorisedBackend
from .weka import WekaBackend

#: The local backends by name (a new one: its class here).
BACKENDS = {backend.name: backend
            for backend in (CompiledBackend, VectorisedBackend, CudaBackend)}
# The environment variable that chooses the kernels when ``relieff`` is not
# told (a name of BACKENDS; "auto" or unset: automatic).
KERNELS_VARIABLE = "ORANGE3_RELIEF_KERNELS"
AUTOMATIC = "auto"


def kernels_named(kernels=None):
    """The kernels asked for: ``kernels``, else the environment variable
    ORANGE3_RELIEF_KERNELS, else AUTOMATIC; one of BACKENDS' names or
    AUTOMATIC (a ValueError names the option or the variable)."""
    valid = (*BACKENDS, AUTOMATIC)
    return one_of(kernels, "kernels", valid) if kernels else \
        from_environment(KERNELS_VARIABLE, valid, AUTOMATIC)


def local_backend(setup, n_threads, kernels=None, progress=None,
                  status=None, gpu=False):
    """The backend that computes ``setup`` on ``n_threads`` threads: the
    GPU's with ``gpu`` (``on_gpu``'s answer); Weka's for compat="weka";
    otherwise the one ``kernels`` (or the environment variable
    ORANGE3_RELIEF_KERNELS) names, or when neither does, ``FirstUse`` (told
    ``progress`` and ``status``)."""
    if gpu:
        return CudaBackend(setup, n_threads)
    if setup.options.compat == "weka":
        return WekaBackend(setup, n_threads)
    if weighted(setup) and not VectorisedBackend.covers(setup):
        raise ValueError("Instance weights are taken by the NumPy backend, "
                         "which covers dense data and sparse data of at "
                         "most 5,000,000 values; this sparse data is "
                         "larger: leave instance_weights out, or score a "
                         "sample of the rows.")
    name = kernels_named(kernels)
    if name == AUTOMATIC:
        return FirstUse(setup, n_threads, progress, status)
    chosen = BACKENDS[name]
    if weighted(setup) and not takes_weights(chosen, setup):
        # (the GPU's: not instance weights with missing values)
        chosen, name = VectorisedBackend, VectorisedBackend.name
    if not chosen.covers(setup):
        raise ValueError(f"The {name} kernels do not cover "
                         f"{chosen.uncovered}; use kernels='compiled'.")
    return chosen(setup, n_threads)


def on_gpu(setup, device):
    """Whether ``setup`` runs on the GPU for ``device`` (checked by
    ``cuda.check_device``): "cuda" must (an error says what is missing or
    not covered), "auto" does where a GPU is present and the run pays there
    (``cuda.auto_declines``), and otherwise says once per process, per
    reason, that it runs on the CPU.  Asked once per run
    (``engine.on_this_machine``)."""
    if device == "cuda":
        cuda.require(setup)
        return True
    if device == "cpu":
        return False
    if cuda.available():
        reason = cuda.auto_declines(setup)
        if reason is None:
            return True
    else:
        reason = cuda.unavailable_reason() or "numba's CUDA simulator " \
            "(NUMBA_ENABLE_CUDASIM=1) is not a GPU"
    if reason not in _SAID:
        _SAID.add(reason)
        warn(f"device='auto' runs on the CPU: {reason}", stacklevel=5)
    return False


# What device="auto" has said (once per process each).
_SAID = set()


# The kernel sets this process has run compiled (no marker needed again).
_READY = set()


class FirstUse(Backend):
    """The compiled kernels when they are ready; while they compile in the
    background (``warmup``), the NumPy backend on the data it covers
    (dense data, small sparse data densified), else a wait for them, with
    progress and status.  Decided again before every batch, so a run moves
    to the compiled kernels as soon as they are ready; both add to the same
    running sums.  A run with instance weights the same way, with the
    weighted kernels (``compiled.backend.kernel_set``)."""
    name = AUTOMATIC
    # (both backends it hands a run to take instance weights)
    takes_instance_weights = True

    def __init__(self, setup, n_threads=1, progress=None, status=None):
        super().__init__(setup, n_threads)
        self.progress, self.status = progress, status
        self.kernel_set = kernel_set(setup)
        self.ready = self.kernel_set in _READY \
            or warmup.is_compiled(self.kernel_set)
        self.covered = False
        self.backends = {}
        if not self.ready:
            self.covered = VectorisedBackend.covers(setup)
            warmup.start(first=self.kernel_set)
            self._say("preparing fast kernels in the background "
                      "(first use only)")

    def visit(self, rows, done, total, trace):
        fraction = done / self.setup.order.shape[0]
        chosen = CompiledBackend if self._compiled(fraction) \
            else VectorisedBackend
        if chosen not in self.backends:
            self.backends[chosen] = self.resources.enter_context(
                chosen(self.setup, self.n_threads))
        return self.backends[chosen].visit(rows, done, total, trace)

    def _compiled(self, fraction):
        """Whether the next batch runs on the compiled kernels (waiting for
        them when the NumPy backend does not cover the data)."""
        if not self.ready:
            self.ready = warmup.is_compiled(self.kernel_set)
            while not self.ready and not self.covered:
                if not warmup.running():       # it failed: compile here
                    self._say("compiling fast kernels (first use only)")
                    break
                time.sleep(0.1)
                if self.progress is not None:
                    self.progress(fraction)
                self.ready = warmup.is_compiled(self.kernel_set)
        if self.ready or not self.covered:
            _READY.add(self.kernel_set)
            return True
        return False

    def _say(self, text):
        if self.status is not None:
            self.status(text)
