"""numba's cache and the engine's sources (``core/backends/warmup.py``,
``check_cache``): numba keys a kernel's cache entry on the file that defines
it only, so after an edit (or a ``git pull``) of a module whose functions a
kernel of another module calls, it loaded kernels compiled from the old
source -- silent wrong weights (issue 38: test_ramps.py off by 0.02 after a
function was added to estimates.py)."""
import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from orangecontrib.relief.core.backends import precompile, warmup

PACKAGE = Path(__file__).resolve().parents[1] / "orangecontrib"

# A kernel of its own core module that calls (numba inlines it into the
# kernel's machine code) pdReliefF's blend from estimates.py: blend of
# variant 0 (ReliefF) is estimates.py's last line, ``return 0.0``.
PROBE = textwrap.dedent("""
    from numba import njit

    from .contract.diffs import JIT
    from .contract.estimates import blend


    @njit(**JIT)
    def probe(t):
        return blend(t, 0, 1.0)
""")

# A process of the copy: the probe's value, and whether numba took it from
# its cache.
RUN = textwrap.dedent("""
    import json
    from orangecontrib.relief.core.cache_probe import probe
    value = probe(3.0)
    print(json.dumps(dict(value=value, hits=sum(probe.stats.cache_hits.values()))))
""")

OLD_END = "    return 0.0\n\n\n@njit(**JIT)\ndef estimate("
NEW_END = "    return 0.25\n\n\n@njit(**JIT)\ndef estimate("

# Holds the compiler's lock (the file beside the cache) without importing
# the engine, until killed.
HOLD = textwrap.dedent("""
    import fcntl, sys, time
    handle = open(sys.argv[1], "a+b")
    fcntl.flock(handle, fcntl.LOCK_EX)
    print("held", flush=True)
    time.sleep(600)
""")


@pytest.fixture
def copy(tmp_path):
    """A copy of the package with the probe among core's modules; its numba
    cache (empty) is tmp_path / "cache"."""
    root = tmp_path / "copy"
    shutil.copytree(PACKAGE, root / "orangecontrib", ignore=shutil.
                    ignore_patterns("__pycache__"))
    (root / "orangecontrib/relief/core/cache_probe.py").write_text(PROBE)
    return root


def _env(copy):
    return dict(os.environ, NUMBA_CACHE_DIR=str(copy.parent / "cache"),
                PYTHONPATH=str(copy), ORANGE3_RELIEF_WARMUP="0")


def _start(copy):
    return subprocess.Popen([sys.executable, "-c", RUN], env=_env(copy), cwd=copy,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def _result(process):
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    return json.loads(out.strip().splitlines()[-1])


def _edit_estimates(copy):
    """blend's last line returns 0.25 instead of 0.0 (in the copy only)."""
    path = copy / "orangecontrib/relief/core/contract/estimates.py"
    source = path.read_text()
    assert OLD_END in source
    path.write_text(source.replace(OLD_END, NEW_END))


def _cached(copy):
    return list((copy.parent / "cache").rglob("cache_probe.probe-*.nbi"))


def test_a_kernel_follows_an_edit_of_the_module_it_calls(copy):
    """After an edit of estimates.py (the kernel's own module unchanged) a
    new process computes with the edited source, not with the kernel cached
    from the old one; unchanged sources then load the kernel from the
    cache."""
    first = _result(_start(copy))
    assert first == dict(value=0.0, hits=0)
    assert _cached(copy)
    assert _result(_start(copy)) == dict(value=0.0, hits=1)   # the cache
    _edit_estimates(copy)
    assert _result(_start(copy)) == dict(value=0.25, hits=0)
    assert _result(_start(copy)) == dict(value=0.25, hits=1)


@pytest.mark.skipif(sys.platform == "win32", reason="fcntl")
def test_a_process_of_new_sources_waits_for_the_lock_to_clear(copy):
    """While another process holds the compiler's lock (a compiler of the
    old sources), a process of edited sources neither loads the old kernels
    nor deletes them under it: it waits for the lock, then clears them."""
    assert _result(_start(copy))["value"] == 0.0
    _edit_estimates(copy)
    cache = copy.parent / "cache"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(cache / warmup.LOCK_NAME)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        user = _start(copy)
        time.sleep(3)
        assert user.poll() is None          # waiting for the lock
        assert _cached(copy)                # nothing deleted under it
    finally:
        holder.kill()
        holder.wait()
    assert _result(user) == dict(value=0.25, hits=0)


def test_clear_stale_deletes_only_the_old_kernels_and_markers(
        tmp_path, monkeypatch):
    """The kernels' folder loses numba's cache files (not Python's), the
    cache directory the old sources' markers (not the current ones', nor
    those of another copy of the engine sharing NUMBA_CACHE_DIR), and
    records the current fingerprint."""
    kernels, cache = tmp_path / "kernels", tmp_path / "cache"
    kernels.mkdir()
    cache.mkdir()
    monkeypatch.setattr(warmup, "kernel_dir", lambda: kernels)
    monkeypatch.setattr(warmup, "kernel_dirs", lambda: [kernels])
    monkeypatch.setattr(warmup, "_cache_dir", lambda: cache)
    monkeypatch.setattr(warmup, "_running_sources", lambda: "new")
    monkeypatch.setattr(warmup, "_fingerprint",
                        lambda: warmup._marker_key("new"))
    for name in ("feedback.feedback_batch-40.py311.nbi",
                 "feedback.feedback_batch-40.py311.1.nbc",
                 "estimates.cpython-311.pyc"):
        (kernels / name).write_text("")
    (kernels / warmup.SOURCES_NAME).write_text("old\n")
    old, new, other = (f"relief-relieff-int8-float32-{warmup._marker_key(s)}"
                       ".ok" for s in ("old", "new", "other"))
    for name in (old, new, other):
        (cache / name).write_text("compiled\n")
    warmup.clear_stale()
    assert sorted(path.name for path in kernels.iterdir()) == [
        "estimates.cpython-311.pyc", warmup.SOURCES_NAME]
    assert (kernels / warmup.SOURCES_NAME).read_text() == "new\n"
    assert sorted(path.name for path in cache.iterdir()) == sorted(
        [new, other])
    (kernels / "visits.relief_rows-60.py311.nbi").write_text("")
    warmup.clear_stale()        # the same sources: nothing to delete
    assert (kernels / "visits.relief_rows-60.py311.nbi").exists()


def test_a_compiler_stops_when_the_sources_change(tmp_path, monkeypatch):
    """The background compiler, its sources changed under it, compiles no
    further set (its kernels would be stale; the process of the new sources
    that waits for its lock clears what it compiled)."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(warmup, "_cache_dir", lambda: tmp_path)
    monkeypatch.setattr(precompile, "clear_stale", lambda: None)
    monkeypatch.setattr(precompile, "sources_changed", lambda: True)
    monkeypatch.setattr(precompile, "compile_set", lambda kernel_set: (
        pytest.fail("compiled from changed sources")))
    precompile.main([])
