"""Load the engine (``orangecontrib/relief/core``) of any commit beside this one.

``load_core("HEAD~3")`` extracts that commit's ``core/`` package with ``git
archive`` into ``benchmarks/.engines/<commit>/`` and imports it under the name
``relief_core_<commit>``; ``load_core(None)`` imports the working tree's
package.  The core imports nothing outside itself, so two engines can live in
one process and be timed turn about (``ab_engines.py``) or compared weight for
weight (``weights_harness.py``).  numba caches each copy's kernels in the
copy's own ``__pycache__``.
"""
import importlib.util
import subprocess
import sys
import tarfile
import io
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORE = "orangecontrib/relief/core"
CACHE = Path(__file__).resolve().parent / ".engines"


def commit_of(rev):
    """The full hash of ``rev`` in this repository."""
    return subprocess.run(["git", "rev-parse", rev], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout.strip()


def load_core(rev=None):
    """The core package of ``rev`` (a git revision), or of the working tree
    when ``rev`` is None."""
    if rev is None:
        sys.path.insert(0, str(ROOT))
        import orangecontrib.relief.core as core
        return core
    commit = commit_of(rev)
    name = f"relief_core_{commit[:12]}"
    if name in sys.modules:
        return sys.modules[name]
    target = CACHE / commit[:12]
    if not (target / "__init__.py").exists():
        archive = subprocess.run(["git", "archive", commit, CORE], cwd=ROOT,
                                 check=True, capture_output=True).stdout
        target.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            for member in tar.getmembers():
                if member.isfile():
                    relative = Path(member.name).relative_to(CORE)
                    path = target / relative
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(tar.extractfile(member).read())
    spec = importlib.util.spec_from_file_location(
        name, target / "__init__.py", submodule_search_locations=[str(target)])
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
