"""Compiling the numba kernels ahead of use, in a background process.

numba compiles a kernel at its first call and keeps it in a cache on disk
(``cache=True``); a fresh installation has none, and compiling ReliefF's and
the feedback variants' kernels takes tens of seconds.  So the first time the
engine needs compiled kernels that are not ready, it starts this module as a
separate process (``python -m orangecontrib.relief.core.backends.precompile``), which
compiles them into numba's cache on the other core, the kernels of the run
that asked first, and leaves a marker file for each set it compiled.  Until
then the engine computes with its vectorised NumPy path
(``core/backends/vectorised.py``), and then loads the compiled kernels from the cache
(about a second).

Kernels are compiled per *set*: the loop (ReliefF's
``relieff_loop.relief_rows``, the feedback variants'
``feedback_loop.feedback_batch``, NPDR's pairs and fits, ``npdr_kernels``,
or the visits of runs with instance weights, ``weighted_loop``) for the
types of the data it reads -- the nominal codes' width (int8, int32) and the
screening copy's type (float32, float64 for ReliefF; float32, uint16 for the
feedback variants; for the weighted visits, whether RELIEF-D's weighted laws
are read). A set's marker names the source of the engine,
numba's version and the cache directory, so a changed engine or another cache
never finds an old marker.

One compiler per cache (issue 38: three processes were seen compiling the
same kernels into one installation, 0.7-1 GB each, and on a shared 2-core
machine each of them then took 20 minutes for its 3 minutes of a core): the
compiler holds a lock on a file beside the cache (``lock``), and a process
that finds it held starts none; it computes on the NumPy path, or waits for
the markers (``running``).  The lock is the operating system's
(``fcntl.flock``, ``msvcrt.locking``), so it dies with its process: a lock
file left by a killed compiler blocks nothing.

Stale kernels (``check_cache``): numba keys a kernel's cache entry on the
file that defines it only, while a kernel calls (and inlines) functions of
other modules of ``core/``; after an edit or a ``git pull`` that changes
``estimates.py`` but not ``compiled/feedback_loop.py``, numba would load
the feedback loop's kernels compiled from the old ``estimates.py`` -- wrong weights, silently.
So the kernels' folder records the fingerprint of the sources they were
compiled from, and a process whose sources differ deletes them first.
"""
import functools
import hashlib
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import numba
from numba.core.caching import FunctionCache

try:
    import fcntl
except ImportError:     # Windows
    fcntl = None
    import msvcrt

CORE = Path(__file__).resolve().parents[1]

#: The kernel sets, most common first: (loop, nominal codes, copy type);
#: the loop "npdr" is NPDR's pairs and fits (``npdr_kernels.kernel_set``),
#: "weighted" the visits of runs with instance weights
#: (``compiled.weighted_loop``; "missing": with RELIEF-D's weighted laws).
SETS = (("relieff", "int8", "float32"), ("feedback", "int8", "float32"),
        ("relieff", "int32", "float32"), ("feedback", "int32", "float32"),
        ("feedback", "int8", "uint16"), ("relieff", "int8", "float64"),
        ("feedback", "int32", "uint16"), ("relieff", "int32", "float64"),
        ("npdr", "int8", "float32"), ("npdr", "int8", "float64"),
        ("npdr", "int32", "float32"), ("npdr", "int32", "float64"),
        ("weighted", "int8", "complete"), ("weighted", "int8", "missing"),
        ("weighted", "int32", "complete"), ("weighted", "int32", "missing"))

_LOCK = threading.Lock()
_PROCESS = None
# "0" in the environment: no background compilation.
WARMUP_VARIABLE = "ORANGE3_RELIEF_WARMUP"
# the compiler's lock file, in the cache directory
LOCK_NAME = "relief-compiler.lock"
# set in the background compiler's environment: it checks the cache itself,
# holding the lock (``precompile.main``)
COMPILER_VARIABLE = "ORANGE3_RELIEF_COMPILER"
# the hash of the sources the cached kernels were compiled from, in the
# kernels' folder (``kernel_dir``)
SOURCES_NAME = "relief-sources"


def _cache_dir():
    """Where numba keeps this package's kernels (and the markers go)."""
    configured = os.environ.get("NUMBA_CACHE_DIR")
    if configured:
        return Path(configured)
    here = CORE / "__pycache__"
    if os.access(CORE, os.W_OK) and (not here.exists()
                                     or os.access(here, os.W_OK)):
        return here
    return Path.home() / ".cache" / "orange3-relief"


def _sources():
    """A hash of what the kernels are compiled from: every ``core/*.py``,
    where they are (numba's cache follows the path), numba's and Python's
    versions."""
    digest = hashlib.sha256()
    for path in sorted(CORE.rglob("*.py")):
        digest.update(path.relative_to(CORE).as_posix().encode())
        digest.update(path.read_bytes())
    digest.update(str(CORE).encode())
    digest.update(numba.__version__.encode())
    digest.update(sys.version.encode())
    return digest.hexdigest()[:16]


@functools.lru_cache(maxsize=None)
def _running_sources():
    """``_sources()`` when this process first asked: the sources it runs."""
    return _sources()


def sources_changed():
    """Whether ``core/``'s sources changed since this process read them."""
    return _sources() != _running_sources()


def _marker_key(sources):
    """What a marker's name says: the sources and the cache directory."""
    key = f"{sources}-{_cache_dir()}".encode()
    return hashlib.sha256(key).hexdigest()[:16]


@functools.lru_cache(maxsize=None)
def _fingerprint():
    return _marker_key(_running_sources())


def kernel_dir():
    """The folder where numba caches the kernels of ``core/``'s modules
    (numba's choice: ``core/__pycache__``, a folder under
    ``NUMBA_CACHE_DIR``, or one in the user's cache); it holds the cache
    files of these modules only."""
    return Path(FunctionCache(_sources).cache_path)


def kernel_dirs():
    """Every folder where numba caches kernels of ``core/``'s modules:
    ``kernel_dir()`` and, for each folder of ``core/``, where numba's
    locators put its modules' kernels (the first that takes it, as for a
    kernel)."""
    found = [kernel_dir()]
    for folder in sorted({path.parent for path in CORE.rglob("*.py")}):
        for locator_class in FunctionCache._impl_class._locator_classes:
            locator = locator_class.from_function(
                _sources, str(folder / "__init__.py"))
            if locator is not None:
                path = Path(locator.get_cache_path())
                if path not in found:
                    found.append(path)
                break
    return found


def marker(kernel_set):
    """The marker file of a kernel set."""
    return _cache_dir() / f"relief-{'-'.join(kernel_set)}-{_fingerprint()}.ok"


def is_compiled(kernel_set):
    """Whether the kernels of ``kernel_set`` are in numba's cache."""
    return marker(kernel_set).exists()


def lock(wait=False):
    """The compiler's lock, taken: an open file, which holds it until it is
    closed (or its process ends); None while another process holds it
    (``wait``: waits for it instead).  An OSError where the lock file
    cannot be made."""
    path = _cache_dir() / LOCK_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    while True:
        handle = open(path, "a+b")
        try:
            if fcntl is not None:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            else:
                handle.seek(0)
                msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:     # held (BlockingIOError; EACCES on some systems)
            handle.close()
            if not wait:
                return None
            time.sleep(0.1)
            continue
        return handle


def _recorded():
    """The sources (``_sources``) the cached kernels were compiled from
    (None: none recorded)."""
    try:
        return (kernel_dir() / SOURCES_NAME).read_text().strip()
    except OSError:
        return None


def clear_stale():
    """Where the cached kernels were compiled from other sources than this
    process's (or from unrecorded ones), delete them and the old sources'
    markers, and record this process's sources.  Call it holding the
    compiler's lock, before any kernel is loaded."""
    recorded, current = _recorded(), _running_sources()
    if recorded == current:
        return
    folder = kernel_dir()
    # (numba writes a cache file whole, by a rename, and a process that
    # finds an index's data file gone compiles the kernel: deleting under
    # a running process of the old sources is safe)
    for path in [path for kernels in kernel_dirs()
                 for pattern in ("*.nbi", "*.nbc")
                 for path in kernels.glob(pattern)]:
        path.unlink(missing_ok=True)
    old = f"-{_marker_key(recorded)}.ok" if recorded else ".ok"
    for path in _cache_dir().glob("relief-*.ok"):
        if path.name.endswith(old) and not path.name.endswith(
                f"-{_fingerprint()}.ok"):
            path.unlink(missing_ok=True)
    folder.mkdir(parents=True, exist_ok=True)
    temporary = folder / f"{SOURCES_NAME}.{os.getpid()}"
    temporary.write_text(current + "\n")
    os.replace(temporary, folder / SOURCES_NAME)


_CHECKED = False


def check_cache():
    """Before this process loads any kernel: make sure numba's cached
    kernels were compiled from this process's sources (``clear_stale``).
    Once per process; the cost of a hash of core's sources when they
    match.  Where they do not, under the compiler's lock, waiting while
    another process holds it: one clearing, or a compiler of other sources,
    which stops after its current kernel set (``precompile.main``)."""
    global _CHECKED
    with _LOCK:
        if _CHECKED or os.environ.get(COMPILER_VARIABLE) == "1":
            return
        _CHECKED = True
        if _recorded() == _running_sources():
            return
        try:
            held = lock(wait=True)
        except OSError:     # a read-only cache: numba writes none there
            return
        with held:
            clear_stale()


def start(first=None):
    """Start compiling every kernel set in a background process (once per
    process; ``first`` first), unless the environment variable
    ``ORANGE3_RELIEF_WARMUP`` is "0" or another process's compiler holds
    the lock.  Returns the process, or None when none was started (the
    engine then computes on the NumPy path, waits for the other compiler,
    or compiles in its own process when it needs the kernels).  The
    process gets the lock this one took (on Windows it takes it itself)."""
    global _PROCESS
    with _LOCK:
        if _PROCESS is not None:
            return _PROCESS
        if os.environ.get(WARMUP_VARIABLE, "1") == "0" or all(
                is_compiled(kernel_set) for kernel_set in SETS):
            return None
        try:
            held = lock()
        except OSError:
            return None
        if held is None:
            return None
        command = [sys.executable, "-m",
                   "orangecontrib.relief.core.backends.precompile"]
        if first is not None:
            command += ["--first", ":".join(first)]
        with held:
            passed = ()
            if fcntl is not None:
                passed = (held.fileno(),)
                command += ["--lock-fd", str(held.fileno())]
            else:
                held.close()
            try:
                _PROCESS = subprocess.Popen(
                    command, stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                    cwd=str(CORE.parents[2]), pass_fds=passed,
                    env=dict(os.environ, **{COMPILER_VARIABLE: "1"}))
            except OSError:
                return None
        return _PROCESS


def running():
    """Whether kernels are compiling in the background: this process's
    compiler, or another process's (which holds the lock)."""
    if _PROCESS is not None and _PROCESS.poll() is None:
        return True
    try:
        held = lock()
    except OSError:
        return False
    if held is None:
        return True
    held.close()
    return False
