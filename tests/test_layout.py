"""The folders carry the map (issue 39, item 4): every module of ``core/``
and of the package's subpackages is named in ``doc/architecture.md``'s
tables at its real path, every path those tables name exists, and the
module paths of before the move still import, as the same modules.

(move_layout: keep the old paths: the script that made the move leaves
this file as it is.)"""
import importlib
import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest

import orangecontrib.relief as package
from orangecontrib.relief import moved

ROOT = Path(package.__file__).resolve().parent
CORE = ROOT / "core"
REPOSITORY = ROOT.parents[1]
ARCHITECTURE = REPOSITORY / "doc" / "architecture.md"

#: the public module paths of before the move, and where they are now
OLD_PATHS = {
    "orangecontrib.relief.core.prepare": "core.contract.prepare",
    "orangecontrib.relief.core.diffs": "core.contract.diffs",
    "orangecontrib.relief.core.distances": "core.contract.distances",
    "orangecontrib.relief.core.nominal": "core.contract.nominal",
    "orangecontrib.relief.core.sparse": "core.contract.sparse",
    "orangecontrib.relief.core.pairs": "core.contract.pair_means",
    "orangecontrib.relief.core.neighbours": "core.contract.neighbours",
    "orangecontrib.relief.core.updates": "core.contract.updates",
    "orangecontrib.relief.core.estimates": "core.contract.estimates",
    "orangecontrib.relief.core.pairsums": "core.contract.pair_sums",
    "orangecontrib.relief.core.backend": "core.backends.base",
    "orangecontrib.relief.core.runtime": "core.backends.runtime",
    "orangecontrib.relief.core.selection": "core.backends.selection",
    "orangecontrib.relief.core.warmup": "core.backends.warmup",
    "orangecontrib.relief.core.precompile": "core.backends.precompile",
    "orangecontrib.relief.core.vectorised": "core.backends.vectorised",
    "orangecontrib.relief.core.weka": "core.backends.weka",
    "orangecontrib.relief.core.compiled": "core.backends.compiled.backend",
    "orangecontrib.relief.core.visits":
        "core.backends.compiled.relieff_loop",
    "orangecontrib.relief.core.feedback":
        "core.backends.compiled.feedback_loop",
    "orangecontrib.relief.core.plan": "core.backends.compiled.layouts",
    "orangecontrib.relief.core.screens": "core.backends.compiled.screens",
    "orangecontrib.relief.core.npdr_pairs":
        "core.backends.compiled.npdr_kernels",
    "orangecontrib.relief.core.cuda": "core.backends.cuda.backend",
    "orangecontrib.relief.core.cuda_kernels": "core.backends.cuda.kernels",
    "orangecontrib.relief.npdr": "stats.npdr_parts",
    "orangecontrib.relief.redundancy": "stats.redundancy",
    "orangecontrib.relief.turf": "wrappers.turf",
    "orangecontrib.relief.iterated": "wrappers.iterated",
    "orangecontrib.relief.vls": "wrappers.vls",
    "orangecontrib.relief.reproduce": "paper.reproduce",
    "orangecontrib.relief.classic": "paper.classic",
    "orangecontrib.relief.offline_help": "widgets.offline_help",
}

#: modules that did not move (the doors) and still are where they were
STAYED = ("orangecontrib.relief.stats", "orangecontrib.relief.scoring",
          "orangecontrib.relief.sklearn", "orangecontrib.relief.cli",
          "orangecontrib.relief.distributed", "orangecontrib.relief.core",
          "orangecontrib.relief.core.engine",
          "orangecontrib.relief.core.irelief",
          "orangecontrib.relief.core.options",
          "orangecontrib.relief.core.rules",
          "orangecontrib.relief.core.variants",
          "orangecontrib.relief.core.result")


def table_paths():
    """The backticked ``*.py`` paths and folders in the tables' cells of
    doc/architecture.md, each as it is written."""
    found = set()
    for line in ARCHITECTURE.read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            continue
        for span in re.findall(r"`([^`\s]+)`", line):
            if "<" not in span and (span.endswith(".py")
                                    or span.endswith("/")):
                found.add(span)
    return found


def resolve(written):
    """The file or folder a table names: relative to ``core/`` (the module
    tables), to the package (the table of folders) or to the repository."""
    for base in (CORE, ROOT, REPOSITORY):
        path = (base / written).resolve()
        if path.exists():
            return path
    return None


def test_every_path_the_tables_name_exists():
    paths = table_paths()
    assert len(paths) > 50
    assert sorted(p for p in paths if resolve(p) is None) == []


def test_every_module_is_in_the_tables_at_its_real_path():
    named = {resolve(p) for p in table_paths()}
    modules = sorted(CORE.rglob("*.py"))
    for folder in ROOT.iterdir():
        if (folder / "__init__.py").exists() and folder.name != "core":
            modules += sorted(folder.rglob("*.py"))
    modules += sorted(ROOT.glob("*.py"))
    missing = [p.relative_to(ROOT).as_posix() for p in modules
               if p.resolve() not in named and "__pycache__" not in p.parts]
    assert missing == []


def test_the_doc_shows_the_three_kinds_of_room():
    """A newcomer finds each kind of room where the doc says: a folder for
    the contract and one for the backends, the registries at core's top."""
    paths = {resolve(p) for p in table_paths()}
    for folder in ("core/contract", "core/backends",
                   "core/backends/compiled", "core/backends/cuda",
                   "stats", "wrappers", "paper"):
        assert (ROOT / folder).resolve() in paths, folder
    for registry in ("rules.py", "variants.py", "registry.py",
                     "options.py"):
        assert (CORE / registry).is_file()


@pytest.mark.parametrize("old", sorted(OLD_PATHS))
def test_an_old_module_path_gives_the_new_module(old):
    new = f"{package.__name__}.{OLD_PATHS[old]}"
    module = importlib.import_module(old)
    assert module is importlib.import_module(new)
    assert module.__name__ == new
    # the module of this checkout, not a copy found elsewhere
    assert Path(module.__file__).resolve().is_relative_to(ROOT)
    parent, _, leaf = old.rpartition(".")
    namespace = {}
    exec(f"from {parent} import {leaf} as found", namespace)
    assert namespace["found"] is module


def test_the_table_of_old_paths_is_complete():
    """``moved.MOVED`` holds every old path listed here, each to a module
    that exists."""
    short = {old[len(package.__name__) + 1:]: new
             for old, new in OLD_PATHS.items()}
    assert moved.MOVED == short
    for new in moved.MOVED.values():
        importlib.import_module(f"{package.__name__}.{new}")


@pytest.mark.parametrize("name", STAYED)
def test_the_doors_stayed(name):
    module = importlib.import_module(name)
    assert module.__name__ == name


def test_public_names_import():
    from orangecontrib.relief import core
    for name in package.__all__:
        assert getattr(package, name) is not None
    for name in core.__all__:
        assert getattr(core, name) is not None
    from orangecontrib.relief.sklearn import ReliefFSelector
    from orangecontrib.relief.stats import TESTS
    assert ReliefFSelector.__module__ == "orangecontrib.relief.sklearn"
    assert TESTS


def test_a_pickle_naming_an_old_path_loads():
    """An Orange workflow saved before the move names its TuRF scorer's
    class by the old path."""
    from orangecontrib.relief.wrappers.turf import TuRF
    old = b"corangecontrib.relief.turf\nTuRF\n."
    assert pickle.loads(old) is TuRF
    assert pickle.loads(pickle.dumps(TuRF)) is TuRF


def test_old_paths_in_a_fresh_process():
    """Before anything imported the new path: the old one imports it."""
    code = ("import orangecontrib.relief.core.plan as old\n"
            "from orangecontrib.relief.core.backends.compiled import "
            "layouts\n"
            "from orangecontrib.relief.core import cuda_kernels\n"
            "import orangecontrib.relief.iterated\n"
            "assert old is layouts, old\n"
            "assert cuda_kernels.__name__.endswith('cuda.kernels')\n"
            "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], check=True,
                         capture_output=True, text=True,
                         cwd=str(REPOSITORY)).stdout
    assert out.strip() == "ok"


def test_kernel_folders_follow_the_move():
    """The kernels' cache folders are core's folders' (``warmup``), and the
    sources' fingerprint covers the modules in core's subfolders."""
    from orangecontrib.relief.core.backends import warmup
    folders = warmup.kernel_dirs()
    assert folders[0] == warmup.kernel_dir()
    if not any(part == "__pycache__" for part in folders[0].parts):
        pytest.skip("numba caches outside the sources (NUMBA_CACHE_DIR)")
    sources = {f.parent.resolve() for f in folders}
    for folder in ("core", "core/contract", "core/backends",
                   "core/backends/compiled"):
        assert (ROOT / folder).resolve() in sources, folder
    assert warmup.CORE.resolve() == CORE


def test_no_module_is_hidden_by_a_name_of_its_package():
    """``from <package> import <module>`` gives the module: no name that
    the package's ``__init__`` defines hides it (``stats.npdr`` is a
    function, so NPDR's module is ``stats.npdr_parts``)."""
    hidden = []
    for folder in ("core", "stats", "wrappers", "paper"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.name == "__init__.py":
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join((package.__name__,) + parts)
            module = importlib.import_module(name)
            parent = importlib.import_module(name.rpartition(".")[0])
            if getattr(parent, parts[-1], None) is not module:
                hidden.append(name)
    assert hidden == []
