"""doc/architecture.md's maps are true (issue 39): the "files to touch" for
a variant, a refit statistic and a pair-sum statistic, and the list of
backends, read from the doc and checked against the code.  The rule table
is checked by tests/test_rule_fields.py.

Each variant entry's fields hold (``core.variants.VARIANTS``), and a variant
added in a test alone, as one entry, runs on every local backend and
reaches the options, the Dask check, the statistics and the selector."""
import ast
import re
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_array_equal

from orangecontrib.relief import cli, scoring, stats
from orangecontrib.relief.core.backends.compiled import layouts
from orangecontrib.relief.core import relieff, variants
from orangecontrib.relief.core.contract.estimates import (VARIANT_D,
                                                          VARIANT_RELIEFF)
from orangecontrib.relief.core.options import check_options
from orangecontrib.relief.core.contract.prepare import prepare
from orangecontrib.relief.core.backends.selection import BACKENDS
from orangecontrib.relief.core.speedups import ALL
from orangecontrib.relief.core.variants import VARIANTS, Variant
from orangecontrib.relief.distributed import check_cluster_options
from orangecontrib.relief.sklearn import ReliefFSelector

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "orangecontrib" / "relief"
DOC = (ROOT / "doc" / "architecture.md").read_text(encoding="utf-8")


# -- reading the doc ----------------------------------------------------------

def section(heading):
    """The text of the doc's section ``## heading``."""
    start = DOC.index(f"\n## {heading}\n")
    end = DOC.find("\n## ", start + 1)
    return DOC[start:end if end > 0 else None]


def tables(text):
    """The markdown tables of ``text``: lists of rows, each a list of its
    cells (header and rule left out)."""
    found, rows = [], None
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            if rows is None:
                rows = []
            elif not set("".join(cells)) <= set("-: "):
                rows.append(cells)
        elif rows is not None:
            found.append(rows)
            rows = None
    return found


def code_names(cell):
    """The names a cell writes as code (``name``)."""
    return re.findall(r"`([^`]+)`", cell)


def path_of(name):
    """A path as the doc writes it (``core/x.py``, ``stats.py``,
    ``tests/x.py``, ``doc/x.md``) in the repository."""
    if name.startswith(("tests/", "doc/", "orangecontrib/")):
        return ROOT / name
    return PACKAGE / name


def relative(path):
    return path.relative_to(ROOT).as_posix()


def files_of(rows):
    """The files of a "files to touch" table (the first cell's first code
    name, e.g. `tests/test_ramps.py` (or ...))."""
    return [path_of(code_names(row[0])[0]) for row in rows]


def check_rows_are_true(rows):
    """Every file of a table exists, and every plain identifier its row
    names as code is in that file's text (dotted names are other
    modules')."""
    for path, row in zip(files_of(rows), rows):
        assert path.exists(), f"{relative(path)} (doc/architecture.md)"
        if path.suffix != ".py":
            continue
        text = path.read_text(encoding="utf-8")
        for name in code_names(row[1]):
            name = name.rstrip("()")
            if re.fullmatch(r"[A-Za-z_]\w*", name):
                assert re.search(rf"\b{name}\b", text), \
                    f"{relative(path)} has no {name!r} (doc/architecture.md)"


# -- scanning the package -----------------------------------------------------

def package_files():
    return sorted(p for p in PACKAGE.rglob("*.py")
                  if "__pycache__" not in p.parts)


def identifiers(tree):
    """Every name the code of ``tree`` uses or defines (not its strings)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            yield node.id
        elif isinstance(node, ast.Attribute):
            yield node.attr
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            yield node.name
        elif isinstance(node, ast.arg):
            yield node.arg
        elif isinstance(node, ast.alias):
            yield node.name
            yield node.asname or ""
        elif isinstance(node, ast.ImportFrom):
            yield node.module or ""
        elif isinstance(node, ast.keyword):
            yield node.arg or ""


def _is_variant(node):
    """``variant``, ``x.variant``, ``x["variant"]``, ``x.get("variant")``."""
    if isinstance(node, ast.Name):
        return node.id == "variant"
    if isinstance(node, ast.Attribute):
        return node.attr == "variant"
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) \
            and node.slice.value == "variant"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr == "get" and node.args:
        first = node.args[0]
        return isinstance(first, ast.Constant) and first.value == "variant"
    return False


def _is_literal(node):
    if isinstance(node, ast.Constant):
        return True
    return isinstance(node, (ast.Tuple, ast.List, ast.Set)) \
        and all(isinstance(e, ast.Constant) for e in node.elts)


def names_variant_codes(source):
    """Whether code names a variant's kernel code (``VARIANT_*``) or
    compares a variant with a literal (a name or code written by hand)."""
    tree = ast.parse(source)
    if any(name.startswith("VARIANT_") for name in identifiers(tree)):
        return True
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(map(_is_variant, operands)) \
                    and any(map(_is_literal, operands)):
                return True
    return False


def scan(test):
    """The package files whose source passes ``test``."""
    return {relative(p) for p in package_files()
            if test(p.read_text(encoding="utf-8"))}


def test_the_scan_finds_a_variant_compared_by_hand():
    """(The scan below is not vacuous.)"""
    assert names_variant_codes("if setup.variant != VARIANT_RELIEFF: pass")
    assert names_variant_codes("from .estimates import VARIANT_PD")
    assert names_variant_codes('if options.get("variant") == "irelief": 0')
    assert names_variant_codes('ok = variant in ("drelieff", "pdrelieff")')
    assert not names_variant_codes("if setup.variant_entry.sequential: 0")
    assert not names_variant_codes('"""VARIANT_D in a docstring"""')


# -- the variant table --------------------------------------------------------

VARIANT_ROWS = tables(section("Adding a variant"))[0]


def test_the_variant_table_is_true():
    check_rows_are_true(VARIANT_ROWS)


def test_only_the_files_of_the_variant_table_name_variant_codes():
    """Variant codes are compared (or named) only in the registry and the
    arithmetic that depends on them; every other file asks the entry."""
    listed = {relative(p) for p in files_of(VARIANT_ROWS)
              if p.suffix == ".py" and PACKAGE in p.parents}
    assert scan(names_variant_codes) == listed
    assert len(listed) <= 3


# -- each entry's fields hold -------------------------------------------------

def signal(seed=0, n=40, a=6, regression=False):
    rng = np.random.default_rng(seed)
    X = rng.random((n, a))
    y = X[:, 0] + X[:, 1] + 0.1 * rng.random(n) if regression \
        else ((X[:, 0] + X[:, 1]) > 1).astype(float)
    return X, y


@pytest.mark.parametrize("name", list(VARIANTS))
def test_each_variant_does_what_its_entry_says(name):
    entry = VARIANTS[name]
    X, y = signal()
    assert entry.name == name and entry.display_name and entry.description
    assert variants.variant(name) is entry
    assert check_options(name, 10, "per_class", False, 2.0, None, None) \
        .variant_entry is entry
    plain = relieff(X, y, variant=name)
    assert np.all(np.isfinite(plain.weights))
    # Dask runs the independent visits only, and refuses by the fields
    if entry.sequential or not entry.visits:
        with pytest.raises(ValueError, match=re.escape(entry.display_name)):
            check_cluster_options(name)
    else:
        check_cluster_options(name)
    # a numeric target
    Xr, yr = signal(regression=True)
    if entry.regression:
        relieff(Xr, yr, regression=True, variant=name)
    else:
        with pytest.raises(ValueError, match=re.escape(entry.display_name)
                           + ".*discrete class"):
            relieff(Xr, yr, regression=True, variant=name)
    if not entry.visits:
        return
    # T: what the kernels read, and it matters
    m = X.shape[0]
    if entry.uses_T:
        steep = relieff(X, y, variant=name, T=0.3)
        assert steep.T == entry.kernel_T(0.3, m)
        assert plain.T == entry.kernel_T(None, m)
        assert not np.array_equal(steep.weights, plain.weights)
    else:
        assert plain.T is None
    # feedback: the distance weights follow the estimate, so the order of
    # the visits matters; ReliefF's independent visits give the same sums
    other_order = relieff(X, y, variant=name, random_state=7).weights
    if entry.feedback:
        assert not np.allclose(plain.weights,
                               relieff(X, y).weights, atol=1e-12)
        assert not np.allclose(other_order, plain.weights, atol=1e-12)
    else:
        assert np.allclose(other_order, plain.weights, atol=1e-12)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_each_variant_reaches_the_adapters_by_name(name):
    X, y = signal()
    assert name in stats.PERMUTED_VARIANTS
    assert stats.TESTS["permutation"].unsupported(variant=name) is None
    assert (stats.TESTS["stir"].unsupported(variant=name) is None) == (
        VARIANTS[name].visits and not VARIANTS[name].sequential)
    selector = ReliefFSelector(variant=name, n_features_to_select=2)
    assert selector.fit(X, y).transform(X).shape == (X.shape[0], 2)


def test_the_scorers_and_the_command_line_name_registered_variants():
    scorers = [getattr(scoring, name) for name in scoring.__all__]
    for scorer in scorers:
        if isinstance(scorer, type) and issubclass(scorer, scoring.ReliefF):
            assert scorer.variant in VARIANTS, scorer
    for name, scorer in cli.METHODS.items():
        assert scorer.variant == name


@pytest.mark.parametrize("name", [name for name, entry in VARIANTS.items()
                                  if entry.sequential])
def test_the_sparse_sums_wait_where_the_entry_says(name):
    rng = np.random.default_rng(1)
    X = sp.random(30, 8, density=0.3, format="csr", random_state=rng)
    y = (rng.random(30) > 0.5).astype(float)
    prep = prepare(X, y, np.zeros(8, bool), False)
    code = VARIANTS[name].code
    *_, carry = layouts.feedback(prep, code, 0.5, False, ALL, 1)
    assert (carry.lazy > 0) == VARIANTS[name].waiting_changes


# -- a variant added in a test alone ------------------------------------------

COPIES = {
    "drelieff-copy": Variant("drelieff-copy", "dReliefF (a test's copy)",
                             "dReliefF registered again by a test",
                             VARIANT_D, feedback=True, sequential=True),
    "relieff-copy": Variant("relieff-copy", "ReliefF (a test's copy)",
                            "ReliefF registered again by a test",
                            VARIANT_RELIEFF),
}


@pytest.mark.parametrize("kernels", sorted(set(BACKENDS) - {"cuda"}))
@pytest.mark.parametrize("name", list(COPIES))
def test_one_entry_makes_a_variant(monkeypatch, name, kernels):
    """A new entry, nothing else: it runs on every local backend (the
    dispatch reads its fields), with its original's bits, and the Dask
    check, the options and the selector take it by name."""
    entry = COPIES[name]
    monkeypatch.setitem(VARIANTS, name, entry)
    original = name[:-len("-copy")]
    X, y = signal()
    X[:, 5] = np.round(X[:, 5] * 3)
    got = relieff(X, y, variant=name, kernels=kernels, trace_every=7)
    want = relieff(X, y, variant=original, kernels=kernels, trace_every=7)
    assert_array_equal(got.weights, want.weights)
    assert_array_equal(got.trace, want.trace)
    if entry.sequential:
        with pytest.raises(ValueError, match=re.escape(entry.display_name)):
            check_cluster_options(name)
    else:
        check_cluster_options(name)
    assert ReliefFSelector(variant=name, n_features_to_select=2) \
        .fit(X, y).get_support().sum() == 2


# -- the statistics' tables ---------------------------------------------------

REFIT_ROWS, PAIR_SUM_ROWS = tables(section("Adding a statistic"))[:2]


def test_the_statistics_tables_are_true():
    check_rows_are_true(REFIT_ROWS)
    check_rows_are_true(PAIR_SUM_ROWS)
    for test in stats.TESTS.values():       # "stats.py: the function"
        assert test.function.__module__ == stats.__name__


def names_pair_sums(source):
    """Whether code names the run's pair sums (STIR's)."""
    return any(part in name for name in identifiers(ast.parse(source))
               for part in ("pair_sums", "pairsums", "with_sums"))


def test_only_the_files_of_the_pair_sum_table_and_its_readers_name_them():
    text = section("Adding a statistic")
    readers = text[text.index("Readers that need no change"):]
    readers = readers[:readers.index("\n\n")]
    listed = {relative(p) for p in files_of(PAIR_SUM_ROWS)
              if PACKAGE in p.parents}
    read = {relative(path_of(name)) for name in code_names(readers)
            if name.endswith(".py")}
    assert all((ROOT / name).exists() for name in read)
    assert scan(names_pair_sums) == listed | read


# -- the backends -------------------------------------------------------------

HOOKS = ("visit", "run", "visit_batch", "batch_updates", "visit_in_order",
         "weighted_update")


def backend_classes():
    """(class name, module path) of every subclass of ``Backend`` in the
    package, with the hooks its body defines."""
    found = {}
    for path in package_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(
                    getattr(base, "id", getattr(base, "attr", None))
                    == "Backend" for base in node.bases):
                defined = {item.name for item in node.body
                           if isinstance(item, ast.FunctionDef)}
                found[node.name] = (relative(path),
                                    defined & set(HOOKS))
    return found


def test_the_backend_list_is_the_packages_backends():
    rows = tables(section("Adding a backend"))[0]
    classes = backend_classes()
    assert {code_names(row[0])[0] for row in rows} == set(classes)
    for row in rows:
        cls_name, module = code_names(row[0])[0], code_names(row[1])[0]
        path, defined = classes[cls_name]
        assert path == relative(path_of(module)), cls_name
        assert defined == set(code_names(row[4])) & set(HOOKS), cls_name
        assert (ROOT / code_names(row[5])[0]).exists()
        dotted = path[:-len(".py")].replace("/", ".")
        cls = getattr(__import__(dotted, fromlist=[cls_name]), cls_name)
        assert cls.name == code_names(row[2])[0]
        assert ("selection.BACKENDS" in row[3]) == \
            (BACKENDS.get(cls.name) is cls)
        # a backend gets both kinds of visit, or schedules its own
        if "visit" not in defined:
            assert defined & {"visit_batch", "batch_updates"}, cls_name
            assert defined & {"visit_in_order", "weighted_update"}, cls_name


# -- what reading the registry fixed ------------------------------------------

def test_a_name_the_registry_does_not_know_gets_a_sentence():
    X, y = signal()
    with pytest.raises(ValueError, match="variant must be one of"):
        relieff(X, y, variant=["relieff"])      # (was a TypeError)
    with pytest.raises(ValueError, match="variant must be one of"):
        check_cluster_options("relief")         # (was accepted)


@pytest.mark.parametrize("name", [name for name, entry in VARIANTS.items()
                                  if entry.feedback])
def test_vls_refuses_a_seed_where_the_order_of_visits_matters(name):
    """VLS runs Relief in the visiting order of seed 0: a relief_object
    seeded otherwise is refused for every feedback variant (the ramps were
    let through, their seed silently ignored)."""
    from orangecontrib.relief.sklearn import VLSSelector
    X, y = signal(a=8)
    selector = VLSSelector(ReliefFSelector(variant=name, random_state=3),
                           num_feature_subset=4, size_feature_subset=4)
    with pytest.raises(ValueError, match="random_state at 0"):
        selector.fit(X, y)
