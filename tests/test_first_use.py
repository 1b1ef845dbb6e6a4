"""The first use of an installation: results from the vectorised NumPy path
(``core/backends/vectorised.py``) while the numba kernels compile, equal to the
compiled kernels' (``doc/architecture.md``, "First use")."""
import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
import warnings
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from Orange.data import Table

from orangecontrib.relief.core import relieff
from orangecontrib.relief.core.backends import precompile, warmup
from problems import random_problem, sparse_problem

CORE = Path(__file__).resolve().parents[1] / "orangecontrib" / "relief" / "core"
VARIANTS = ["relieff", "drelieff", "pdrelieff"]


def _problems():
    rng = np.random.default_rng(3)
    cont = rng.random((120, 9))
    mixed = cont.copy()
    mixed[:, 5:] = rng.integers(0, 4, (120, 4))
    X_missing, y_missing, nominal_missing = random_problem(4, n=80, a=7)
    X_sparse, y_sparse, nominal_sparse = sparse_problem(2, n=90, a=40)
    return [
        ("numeric", cont, (cont[:, 0] > .5).astype(float), None, {}),
        ("mixed, 3 classes", mixed, np.floor(cont[:, 1] * 3),
         np.arange(9) >= 5, dict(k_nearest=4, weight_by_distance=True)),
        ("missing", X_missing, y_missing, nominal_missing,
         dict(misses="any")),
        ("sparse", X_sparse, y_sparse, nominal_sparse, {}),
        ("regression", cont, cont[:, 0] + rng.random(120) * .2, None,
         dict(regression=True, n_iterations=70, random_state=2)),
    ]


@pytest.mark.parametrize("variant", VARIANTS)
def test_vectorised_path_equals_the_compiled_kernels(variant):
    """Numeric, mixed, missing, sparse and regression data, with rank
    weights, Relief-E, m < n and traces: the vectorised path's weights and
    traces equal the compiled ones to rounding."""
    for name, X, y, nominal, options in _problems():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fast = relieff(X, y, nominal, variant=variant, trace_every=11,
                           kernels="vectorised", **options)
            compiled = relieff(X, y, nominal, variant=variant,
                               trace_every=11, kernels="compiled",
                               **options)
        np.testing.assert_allclose(fast.weights, compiled.weights, rtol=0,
                                   atol=1e-12, err_msg=name)
        np.testing.assert_allclose(fast.trace, compiled.trace, rtol=0,
                                   atol=1e-12, err_msg=name)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("rule", ["surf", "surf*", "multisurf",
                                  "multisurf*"])
def test_vectorised_radius_rules_equal_the_compiled_kernels(rule, variant):
    """Every neighbourhood rule on every kind of data (no regression form
    for the starred rules) on the vectorised path: the compiled weights."""
    for name, X, y, nominal, options in _problems():
        options = {key: value for key, value in options.items()
                   if key not in ("k_nearest", "weight_by_distance")}
        if options.get("regression") and rule.endswith("*"):
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fast = relieff(X, y, nominal, variant=variant, neighbours=rule,
                           kernels="vectorised", **options)
            compiled = relieff(X, y, nominal, variant=variant,
                               neighbours=rule, kernels="compiled",
                               **options)
        np.testing.assert_allclose(fast.weights, compiled.weights, rtol=0,
                                   atol=1e-12, err_msg=name)


def test_vectorised_path_refuses_large_sparse_data(monkeypatch):
    from orangecontrib.relief.core.backends import vectorised
    monkeypatch.setattr(vectorised, "DENSE_MAX_VALUES", 100)
    X, y, nominal = sparse_problem(2, n=90, a=40)
    with pytest.raises(ValueError, match="kernels='compiled'"):
        relieff(X, y, nominal, kernels="vectorised")
    with pytest.raises(ValueError, match="kernels must be"):
        relieff(X, y, nominal, kernels="fast")


def compiled_after_three_checks(monkeypatch, first_batch_terms):
    """First use made to switch mid-run: the kernels count as compiled from
    the fourth ``warmup.is_compiled`` check on, batches are small (the
    first of ``first_batch_terms`` terms), and each batch's backend is
    recorded; returns (the kernel sets checked, the backends' names by
    batch)."""
    from orangecontrib.relief.core.backends import runtime, selection
    from orangecontrib.relief.core.backends.compiled.backend import (
        CompiledBackend)
    from orangecontrib.relief.core.backends.vectorised import VectorisedBackend
    checks, batches = [], []
    monkeypatch.setenv("ORANGE3_RELIEF_KERNELS", "auto")
    monkeypatch.setattr(warmup, "is_compiled",
                        lambda kernel_set: checks.append(kernel_set)
                        or len(checks) > 3)
    monkeypatch.setattr(selection, "_READY", set())
    monkeypatch.setattr(runtime, "FIRST_BATCH_TERMS", first_batch_terms)
    monkeypatch.setattr(runtime, "BATCH_SECONDS", 1e-5)   # small batches
    for backend in (VectorisedBackend, CompiledBackend):
        def visit(self, *args, _visit=backend.visit):
            batches.append(type(self).__name__)
            return _visit(self, *args)
        monkeypatch.setattr(backend, "visit", visit)
    return checks, batches


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_run_moves_to_the_compiled_kernels_when_they_are_ready(
        variant, monkeypatch):
    """While the kernels compile, the first batches run on the vectorised
    backend; once their marker appears, the next batches run compiled, adding
    to the same sums: the weights and trace of the compiled kernels."""
    X, y, nominal = _problems()[1][1:4]
    checks, batches = compiled_after_three_checks(monkeypatch, 120 * 9 * 10)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mixed = relieff(X, y, nominal, variant=variant, trace_every=11,
                        k_nearest=4)
        ran = list(batches)
        compiled = relieff(X, y, nominal, variant=variant, trace_every=11,
                           k_nearest=4, kernels="compiled")
    first = ran.index("CompiledBackend")
    assert 0 < first < len(ran) - 1
    assert set(ran[:first]) == {"VectorisedBackend"}
    assert set(ran[first:]) == {"CompiledBackend"}
    np.testing.assert_allclose(mixed.weights, compiled.weights, rtol=0,
                               atol=1e-12)
    np.testing.assert_allclose(mixed.trace, compiled.trace, rtol=0,
                               atol=1e-12)


FRESH = textwrap.dedent("""
    import importlib.util, json, sys, time, warnings
    import numpy as np
    spec = importlib.util.spec_from_file_location(
        "fresh_core", sys.argv[1] + "/__init__.py",
        submodule_search_locations=[sys.argv[1]])
    core = importlib.util.module_from_spec(spec)
    sys.modules["fresh_core"] = core
    spec.loader.exec_module(core)
    with np.load(sys.argv[2]) as f:
        X, y, nominal = f["X"], f["y"], f["nominal"]
    warnings.simplefilter("ignore")
    out = {}
    for variant in ("relieff", "drelieff", "pdrelieff"):
        started = time.perf_counter()
        out[variant] = core.relieff(X, y, nominal, variant=variant,
                                    status=print).weights.tolist()
        # traces, a radius rule, regression: more of the first-use path
        core.relieff(X, y, nominal, variant=variant, trace_every=50,
                     neighbours="multisurf*")
        core.relieff(X, X[:, 0], nominal, variant=variant, trace_every=50,
                     regression=True, n_iterations=60)
    from numba.core.dispatcher import Dispatcher
    compiled = sorted({f"{module}.{name}"
                       for module in list(sys.modules)
                       if module.startswith("fresh_core")
                       for name, dispatcher in vars(sys.modules[module]).items()
                       if isinstance(dispatcher, Dispatcher)
                       and dispatcher.signatures})
    print(json.dumps(dict(weights=out, compiled=compiled)))
""")


def test_fresh_installation_gives_the_warm_weights(tmp_path):
    """A fresh copy of the engine in a new process with an empty numba cache
    (no background compilation: that would take minutes here) gives its
    first results without compiling any numba function (issue 38: the NumPy
    path called the compiled helpers, which took 2-5 s to compile), with
    traces, a radius rule and regression too, and they equal the compiled
    kernels' weights of this process."""
    copy = tmp_path / "core"
    shutil.copytree(CORE, copy, ignore=shutil.ignore_patterns(
        "__pycache__"))
    table = Table("heart_disease")
    nominal = np.array([v.is_discrete for v in table.domain.attributes])
    data = tmp_path / "heart.npz"
    np.savez(data, X=table.X, y=table.Y, nominal=nominal)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"),
               ORANGE3_RELIEF_KERNELS="auto", ORANGE3_RELIEF_WARMUP="0")
    done = subprocess.run([sys.executable, "-c", FRESH, str(copy), str(data)],
                          env=env, capture_output=True, text=True,
                          check=True, timeout=600)
    lines = done.stdout.strip().splitlines()
    first = json.loads(lines[-1])
    assert first["compiled"] == []       # no numba function was compiled
    assert any("first use" in line for line in lines[:-1])
    for variant in VARIANTS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            warm = relieff(table.X, table.Y, nominal, variant=variant)
        np.testing.assert_allclose(first["weights"][variant], warm.weights,
                                   rtol=0, atol=1e-12)


def test_background_compilation_marks_what_it_compiled(tmp_path,
                                                        monkeypatch):
    """``precompile.compile_set`` leaves a marker that names the engine's source
    and the cache; the engine then takes the compiled kernels."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    warmup._fingerprint.cache_clear()
    try:
        kernel_set = ("relieff", "int8", "float32")
        assert not warmup.is_compiled(kernel_set)
        precompile.compile_set(kernel_set)
        assert warmup.is_compiled(kernel_set)
        assert warmup.marker(kernel_set).parent == tmp_path
        assert not warmup.is_compiled(("feedback", "int8", "float32"))
    finally:
        warmup._fingerprint.cache_clear()


# A process of the engine's first use, started at the same moment as
# another: it waits for the file argv[1], then runs ReliefF (which starts
# the background compiler, if any) and prints the compiler's pid or null.
FIRST_RUN = textwrap.dedent("""
    import json, os, sys, time, warnings
    import numpy as np
    from orangecontrib.relief.core import relieff, warmup
    rng = np.random.default_rng(0)
    X = rng.random((30, 4))
    open(sys.argv[1] + "." + str(os.getpid()), "w").close()
    while not os.path.exists(sys.argv[1]):
        time.sleep(0.01)
    warnings.simplefilter("ignore")
    relieff(X, (X[:, 0] > .5).astype(float))
    process = warmup._PROCESS
    print(json.dumps(process and process.pid))
""")

# A stand-in for a compiler (so the import does not wait for the lock to
# check the cache, ``warmup.check_cache``): takes the lock and holds it.
HOLD_LOCK = textwrap.dedent("""
    import os, sys, time
    os.environ["ORANGE3_RELIEF_COMPILER"] = "1"
    from orangecontrib.relief.core import warmup
    held = warmup.lock()
    print("held" if held else "not held", flush=True)
    time.sleep(600)
""")


def _python(code, cache, *args, **popen):
    """A Python process running ``code`` on the numba cache ``cache``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache),
               ORANGE3_RELIEF_KERNELS="auto", ORANGE3_RELIEF_WARMUP="1",
               PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    return subprocess.Popen([sys.executable, "-c", code, *map(str, args)],
                            env=env, text=True, **popen)


def _end(pid):
    """Stop a process this test started (a compiler: the parent is gone)."""
    try:
        os.kill(pid, 9)
    except ProcessLookupError:
        pass


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty numba cache for this process's ``warmup``, which may start
    a compiler (none started yet)."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv(warmup.WARMUP_VARIABLE, "1")
    monkeypatch.setattr(warmup, "_PROCESS", None)
    warmup._fingerprint.cache_clear()
    yield tmp_path / "cache"
    warmup._fingerprint.cache_clear()


@pytest.mark.skipif(sys.platform == "win32", reason="kill by pid, POSIX")
def test_two_processes_on_an_empty_cache_start_one_compiler(tmp_path,
                                                            cache):
    """Issue 38: every process that found the kernels uncompiled started
    its own background compiler.  Two first uses released at the same
    moment on one empty cache start one between them, which holds the
    lock beside the cache until it ends."""
    go = tmp_path / "go"
    users = [_python(FIRST_RUN, cache, go, stdout=subprocess.PIPE)
             for _ in range(2)]
    started = []
    try:
        while len(list(tmp_path.glob("go.*"))) < 2:
            assert all(user.poll() is None for user in users)
            time.sleep(0.05)
        go.touch()
        for user in users:
            out, _ = user.communicate(timeout=300)
            started.append(json.loads(out.strip().splitlines()[-1]))
        compilers = [pid for pid in started if pid is not None]
        assert len(compilers) == 1, started
        assert (cache / warmup.LOCK_NAME).exists()
        assert warmup.lock() is None        # the compiler holds it
        assert warmup.running()
        assert warmup.start() is None       # nor does this process start one
    finally:
        for user in users:
            user.kill()
        for pid in started:
            if pid is not None:
                _end(pid)
    # (the compiler is gone: its lock with it)
    for _ in range(100):
        held = warmup.lock()
        if held is not None:
            break
        time.sleep(0.1)
    assert held is not None
    held.close()


def test_a_dead_compilers_lock_blocks_nothing(tmp_path, cache, monkeypatch):
    """While a process holds the compiler's lock, this one starts no
    compiler and knows kernels are compiling (``running``, which the engine
    waits on); once that process is killed, its lock file stays on disk
    but a compiler starts, and it is handed the lock."""
    holder = _python(HOLD_LOCK, cache, stdout=subprocess.PIPE)
    try:
        assert holder.stdout.readline().strip() == "held"
        assert warmup.running()
        assert warmup.start() is None
    finally:
        holder.kill()
        holder.wait()
    assert (cache / warmup.LOCK_NAME).exists()
    assert not warmup.running()
    started = []

    class Compiler:
        """A stand-in for the compiler process: what it was given."""
        def __init__(self, command, pass_fds=(), **_):
            started.append((command, pass_fds))

    monkeypatch.setattr(warmup.subprocess, "Popen", Compiler)
    assert isinstance(warmup.start(first=warmup.SETS[0]), Compiler)
    (command, pass_fds), = started
    assert command[-2:] == ["--lock-fd", str(pass_fds[0])]


def test_a_compiler_leaves_when_another_holds_the_lock(cache, monkeypatch):
    """``python -m ...precompile`` run by hand (no lock passed) while
    another compiler works compiles nothing and returns."""
    held = warmup.lock()
    assert held is not None
    monkeypatch.setattr(precompile, "compile_set", lambda kernel_set: (
        pytest.fail("compiled while another compiler held the lock")))
    try:
        holder = _python(HOLD_LOCK, cache, stdout=subprocess.PIPE)
        assert holder.stdout.readline().strip() == "not held"
        holder.kill()
        holder.wait()
    finally:
        held.close()
    other = _python(HOLD_LOCK, cache, stdout=subprocess.PIPE)
    try:
        assert other.stdout.readline().strip() == "held"
        precompile.main([])
    finally:
        other.kill()
        other.wait()



# NPDR's runs of NPDR_FRESH (source: run in a new process and here, with X
# the features of heart_disease): heart_disease has missing values and
# nominal features; with a covariate, a radius rule, ReliefF's hit and miss
# neighbourhoods over a visited subset, and regression.
NPDR_RUNS = """[
    ("default", {}),
    ("covariates", dict(covariates=X[:, [0]], k_nearest=5)),
    ("multisurf", dict(neighbours="multisurf")),
    ("separate", dict(separate_hit_miss=True, n_iterations=150)),
    ("regression", dict(regression=True)),
]"""

# NPDR's runs in a new process: their results, the numba functions that
# were compiled or loaded from the cache, and how many were not in the
# cache (compiled here).
NPDR_FRESH = textwrap.dedent("""
    import json, sys, warnings
    import numpy as np
    from numba.core.dispatcher import Dispatcher
    import orangecontrib.relief
    from orangecontrib.relief import stats
    with np.load(sys.argv[1]) as f:
        X, y, nominal = f["X"], f["y"], f["nominal"]
    warnings.simplefilter("ignore")
    out = {}
    for name, options in eval(sys.argv[2]):
        result = stats.npdr(X, y, nominal, **options)
        out[name] = [result.weights.tolist(), result.t.tolist(),
                     result.p_values.tolist()]
    dispatchers = {f"{module}.{name}": dispatcher
                   for module in list(sys.modules)
                   if module.startswith("orangecontrib")
                   for name, dispatcher in vars(sys.modules[module]).items()
                   if isinstance(dispatcher, Dispatcher)
                   and dispatcher.signatures}
    misses = {name: sum(dispatcher.stats.cache_misses.values())
              for name, dispatcher in dispatchers.items()}
    print(json.dumps(dict(results=out, compiled=sorted(dispatchers),
                          misses={name: count for name, count
                                  in misses.items() if count},
                          package=orangecontrib.relief.__file__)))
""")


def _heart(tmp_path):
    """heart_disease's X, y, nominal, and an .npz file of them."""
    table = Table("heart_disease")
    nominal = np.array([v.is_discrete for v in table.domain.attributes])
    data = tmp_path / "heart.npz"
    np.savez(data, X=table.X, y=table.Y, nominal=nominal)
    return table.X, table.Y, nominal, data


def _fresh_npdr(data, cache, runs=NPDR_RUNS):
    """NPDR_FRESH's output in a new process (first use: kernels chosen
    automatically, no background compiler) on the numba cache ``cache``."""
    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache),
               ORANGE3_RELIEF_KERNELS="auto", ORANGE3_RELIEF_WARMUP="0",
               PYTHONPATH=str(root))
    done = subprocess.run([sys.executable, "-c", NPDR_FRESH, str(data),
                           runs], env=env, capture_output=True, text=True,
                          check=True, timeout=600)
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert Path(out["package"]).is_relative_to(root)
    return out


def test_npdr_first_use_compiles_nothing_and_gives_the_compiled_results(
        tmp_path):
    """Issue 38: NPDR's first call on a fresh installation compiled its
    kernels for 30-50 s.  In a new process with an empty numba cache (no
    background compiler) NPDR computes on the NumPy path without compiling
    any numba function (NPDR_RUNS), and its coefficients, statistics and
    p-values equal those of the compiled kernels in this process to
    1e-12."""
    from orangecontrib.relief import stats
    X, y, nominal, data = _heart(tmp_path)
    first = _fresh_npdr(data, tmp_path / "cache")
    assert first["compiled"] == []      # no numba function was compiled
    for name, options in eval(NPDR_RUNS):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            warm = stats.npdr(X, y, nominal, **options)
        for got, want in zip(first["results"][name],
                             (warm.weights, warm.t, warm.p_values)):
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12,
                                       err_msg=name)


def test_background_compiler_compiles_npdr_kernels(tmp_path):
    """The background compiler (``python -m ...precompile``, as
    ``warmup.start`` runs it, asked for NPDR's set first) compiles NPDR's
    kernel set into the cache and marks it; a later process then takes the
    compiled kernels (``npdr.choose_kernels``) and loads every numba
    function it runs from the cache: none is compiled again, so the
    compiler ran them on the argument types NPDR passes."""
    _, _, _, data = _heart(tmp_path)
    cache = tmp_path / "cache"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache),
               PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    subprocess.run([sys.executable, "-m",
                    "orangecontrib.relief.core.backends.precompile", "--first",
                    "npdr:int8:float32", "--only-first"], env=env,
                   check=True, timeout=900)
    markers = [path.name for path in cache.glob("relief-*.ok")]
    assert len(markers) == 1
    assert markers[0].startswith("relief-npdr-int8-float32-")
    out = _fresh_npdr(data, cache, NPDR_RUNS.replace("multisurf",
                                                     "k"))
    compiled = set(out["compiled"])
    assert {f"orangecontrib.relief.core.backends.compiled.npdr_kernels.{name}" for name in
            ("neighbour_rows", "fit", "fit_columns", "log_likelihood")} \
        <= compiled         # the compiled kernels ran...
    assert out["misses"] == {}      # ...loaded from the cache


def test_npdr_asks_the_background_compiler_for_its_kernel_set(monkeypatch):
    """On a first use NPDR starts the background compiler with its own
    kernel set first and computes on the NumPy path; once that set's marker
    is there it takes the compiled kernels; ORANGE3_RELIEF_KERNELS names
    them outright."""
    from orangecontrib.relief.stats import npdr_parts
    from orangecontrib.relief.core.backends.compiled.npdr_kernels import (COMPILED)
    from orangecontrib.relief.core.contract.prepare import prepare
    from orangecontrib.relief.core.backends.vectorised import NPDR_FIRST_USE
    X, y, nominal = _problems()[1][1:4]
    prep = prepare(X, y, nominal, True)
    asked, compiled = [], set()
    monkeypatch.setattr(warmup, "start", lambda first: asked.append(first))
    monkeypatch.setattr(warmup, "is_compiled", compiled.__contains__)
    monkeypatch.setenv("ORANGE3_RELIEF_KERNELS", "auto")
    assert npdr_parts.choose_kernels(prep, "k") is NPDR_FIRST_USE
    assert asked == [("npdr", "int8", "float32")]
    assert npdr_parts.choose_kernels(prep, "multisurf") is NPDR_FIRST_USE
    assert asked[1] == ("npdr", "int8", "float64")
    assert set(asked) <= set(warmup.SETS)
    compiled.add(asked[0])
    assert npdr_parts.choose_kernels(prep, "k") is COMPILED
    assert len(asked) == 2
    for name, kernels in (("compiled", COMPILED),
                          ("vectorised", NPDR_FIRST_USE)):
        monkeypatch.setenv("ORANGE3_RELIEF_KERNELS", name)
        assert npdr_parts.choose_kernels(prep, "multisurf") is kernels
    assert len(asked) == 2
