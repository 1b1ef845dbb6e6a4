"""The engine's one path of a run (issue 39, item 5): the device asked
for is checked and decided once per run, and the steps every backend shares
(``core/backends/base.py``) do not reach into the compiled backend's modules (the
compiled backend plans its own layouts when it starts)."""
import ast
import sys
import warnings
from pathlib import Path

import numpy as np

from orangecontrib.relief.core import ReliefWarning, engine, relieff
from orangecontrib.relief.core.backends.cuda import backend as cuda
from orangecontrib.relief.core.backends import selection

PACKAGE = Path(engine.__file__).resolve().parents[1]    # orangecontrib/relief
# the compiled backend's own modules: its layouts (plan), loops, backend
COMPILED_BACKEND = "core.backends.compiled"


def problem(n=40, a=5, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.random((n, a))
    return X, (X[:, 0] + 0.2 * rng.random(n) > 0.6).astype(float)


def counting(monkeypatch, name, module=cuda):
    """Count the calls of ``module.name``, under every name the package
    holds it by; returns the list the calls go to."""
    real, calls = getattr(module, name), []

    def counted(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)
    for held in list(sys.modules.values()):
        if getattr(held, "__name__", "").startswith("orangecontrib.relief") \
                and getattr(held, name, None) is real:
            monkeypatch.setattr(held, name, counted)
    return calls


def test_the_device_is_checked_and_decided_once_per_run(monkeypatch):
    """``device="auto"``: checked once (not again by the backend's choice)
    and decided once (``selection.on_gpu``)."""
    X, y = problem()
    checks = counting(monkeypatch, "check_device")
    decisions = counting(monkeypatch, "on_gpu", selection)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReliefWarning)
        result = relieff(X, y, device="auto")
    assert len(checks) == 1 and len(decisions) == 1
    assert result.device == "cpu"       # numba's simulator is not a GPU
    # the halves for callers that plan here: run_setup checks it once too
    checks.clear()
    decisions.clear()
    setup = engine.start(X, y)
    again = engine.run_setup(setup, device="cpu")
    assert len(checks) == 1 and len(decisions) == 1
    np.testing.assert_array_equal(again.weights, result.weights)


def test_auto_says_where_it_runs_at_the_callers_line(monkeypatch):
    """device="auto" on the CPU says so once, at the line that called
    ``relieff`` or ``run_setup`` (the warning's stack level)."""
    X, y = problem()
    for run in (lambda: relieff(X, y, device="auto"),
                lambda: engine.run_setup(engine.start(X, y), device="auto")):
        monkeypatch.setattr(selection, "_SAID", set())  # (once a process)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            run()
        said = [w for w in caught if issubclass(w.category, ReliefWarning)
                and "device='auto'" in str(w.message)]
        assert len(said) == 1 and said[0].filename == __file__


def test_a_bad_device_is_refused_before_any_work():
    X, y = problem()
    for run in (lambda: relieff(X, y, device="gpu"),
                lambda: engine.run_setup(engine.start(X, y), device="gpu")):
        try:
            run()
        except ValueError as error:
            assert "'cpu', 'cuda' or 'auto'" in str(error)
        else:
            raise AssertionError("device='gpu' was accepted")


def _source(module):
    """The file of ``module`` (a dotted path under the package)."""
    path = PACKAGE.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def core_imports(module):
    """The core modules ``module`` (a dotted path under the package, e.g.
    "core.backends.base") imports, directly or through the core modules it
    imports (relative imports resolved against each module's package)."""
    seen, todo = set(), [module]
    while todo:
        name = todo.pop()
        source = _source(name)
        package = name.split(".")
        if source.name != "__init__.py":
            package = package[:-1]
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or node.level == 0:
                continue
            base = package[:len(package) - node.level + 1]
            stem = base + (node.module.split(".") if node.module else [])
            for other in [".".join(stem + [alias.name])
                          for alias in node.names] + [".".join(stem)]:
                if other.startswith("core") and other not in seen \
                        and _source(other).exists():
                    seen.add(other)
                    todo.append(other)
    return seen


def test_the_shared_steps_do_not_reach_into_the_compiled_backend():
    """``backend.start`` plans the neighbourhood (``backend.neighbourhood``)
    without the compiled backend's layouts (``plan``: ``visits.Blocks``,
    ``feedback.Carry``), which ``compiled.CompiledBackend`` plans when it
    starts."""
    reached = {name for name in core_imports("core.backends.base")
               if name.startswith(COMPILED_BACKEND)}
    assert not reached, f"core/backends/base.py imports {sorted(reached)}"
    assert core_imports("core.backends.compiled.backend") >= {
        f"{COMPILED_BACKEND}.{name}"
        for name in ("layouts", "relieff_loop", "feedback_loop")}
