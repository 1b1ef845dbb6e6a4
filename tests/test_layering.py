"""The package's modules import each other without cycles and without
reaching into another module's private names (issue 31): read from the
source, function-level imports included."""
import ast
from pathlib import Path

import orangecontrib.relief as package

ROOT = Path(package.__file__).resolve().parent
PACKAGE = package.__name__


def modules():
    """{dotted name: path} of every module of the package."""
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = (PACKAGE,) + path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _absolute(node, module, is_package):
    """The module an ``ImportFrom`` names, made absolute."""
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports(module, path, known):
    """(the package's modules that `module` imports, the private names it
    takes from them as (module, name))."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_package = path.name == "__init__.py"
    targets, private, aliases = set(), [], {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = _absolute(node, module, is_package)
            if not source.startswith(PACKAGE):
                continue
            for alias in node.names:
                full = f"{source}.{alias.name}"
                if full in known:           # a submodule
                    targets.add(full)
                    aliases[alias.asname or alias.name] = full
                    continue
                targets.add(source)
                if alias.name.startswith("_") \
                        and not alias.name.startswith("__"):
                    private.append((source, alias.name))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in known:
                    targets.add(alias.name)
                    aliases[alias.asname or alias.name] = alias.name
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) \
                and isinstance(node.value, ast.Name) \
                and node.value.id in aliases \
                and node.attr.startswith("_") \
                and not node.attr.startswith("__"):
            private.append((aliases[node.value.id], node.attr))
    targets.discard(module)
    return targets, private


def cycles(graph):
    """The strongly connected components of more than one module
    (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def graph_and_private():
    known = modules()
    graph, private = {}, {}
    for module, path in known.items():
        targets, taken = imports(module, path, known)
        # a package's own __init__ is imported with any of its modules:
        # an edge to it from inside is no cycle of ours to report
        graph[module] = {t for t in targets if t in known
                         and not module.startswith(t + ".")}
        if taken:
            private[module] = taken
    return graph, private


def test_no_import_cycle():
    graph, _ = graph_and_private()
    assert cycles(graph) == []


def test_no_private_name_from_another_module():
    _, private = graph_and_private()
    assert private == {}


def test_the_checks_see_what_they_look_for(tmp_path):
    """The checker finds a cycle and a private import where there is one."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) \
        == [["a", "b", "c"]]
    source = tmp_path / "m.py"
    source.write_text("from .core import engine\n"
                      "from .core.engine import _hidden\n"
                      "def f():\n"
                      "    from .core import plan\n"
                      "    return engine._secret, plan.__name__\n")
    known = {f"{PACKAGE}.core.engine": None, f"{PACKAGE}.core.plan": None}
    targets, private = imports(f"{PACKAGE}.m", source, known)
    assert targets == {f"{PACKAGE}.core.engine", f"{PACKAGE}.core.plan"}
    assert sorted(private) == [(f"{PACKAGE}.core.engine", "_hidden"),
                               (f"{PACKAGE}.core.engine", "_secret")]
