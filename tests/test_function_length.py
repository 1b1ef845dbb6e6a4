"""Every function of the package fits in 100 lines, its docstring included
(issue 39): a longer one is cut into functions that each do one named
thing."""
import ast
from pathlib import Path

import orangecontrib.relief

PACKAGE = Path(orangecontrib.relief.__file__).parent
MOST_LINES = 100


def long_functions(root=PACKAGE, most=MOST_LINES):
    """(file, qualified name, lines) of every function or method under
    ``root`` longer than ``most`` lines, from its ``def`` line to its last
    line (nested functions are counted in their own right too)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        found += _long_in(tree, path.relative_to(root.parent).as_posix(),
                          "", most)
    return found


def _long_in(node, path, prefix, most):
    found = []
    for child in ast.iter_child_nodes(node):
        name = prefix
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                              ast.ClassDef)):
            name = f"{prefix}{child.name}."
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = child.end_lineno - child.lineno + 1
            if length > most:
                found.append((path, name[:-1], length))
        found += _long_in(child, path, name, most)
    return found


def test_no_function_is_longer_than_100_lines():
    found = long_functions()
    assert not found, "functions over 100 lines (split them): " + "; ".join(
        f"{path} {name}: {length} lines" for path, name, length in found)


def test_the_check_finds_a_long_function(tmp_path):
    """The walk sees methods and nested functions, and counts the docstring
    and the def line."""
    package = tmp_path / "pkg" / "sub"
    package.mkdir(parents=True)
    body = "\n".join(f"        x = {i}" for i in range(97))
    (package / "mod.py").write_text(
        "class A:\n"
        "    def method(self):\n"
        '        """Docstring."""\n'
        f"{body}\n"
        "        def inner():\n"
        "            return 1\n")
    assert long_functions(tmp_path / "pkg", 100) == [
        ("pkg/sub/mod.py", "A.method", 101)]
    assert long_functions(tmp_path / "pkg", 101) == []
