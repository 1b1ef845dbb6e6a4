"""A neighbourhood rule reaches the kernels as its fields (``rules.Rule``,
copied into ``neighbours.Neighbourhood`` by ``plan.neighbourhood``), never as
a code or a name compared in a kernel or a backend (issue 39): the package
compares no rule code or name outside the files ``doc/architecture.md``
("Adding a neighbourhood rule") lists, and a rule defined by fields alone
runs through the compiled loops, the NumPy path and the GPU kernels (numba's
simulator here) with the reference's weights."""
import re
import warnings
from pathlib import Path

import numpy as np
import pytest
from numpy.testing import assert_allclose

from orangecontrib.relief.core import relieff
from orangecontrib.relief.core.rules import RULES, Rule
from rules_reference import reference_rules

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "orangecontrib" / "relief"

# A comparison with a rule's kernel code (the RULE_* constants of old) or
# with a rule's name written out ("== 'surf'", "in ('surf*', ...)").
_NAMES = "|".join(re.escape(name) for name in RULES)
COMPARISONS = re.compile(
    r"\bRULE_(?!NAMES\b)[A-Z_]+\b"
    r"|\.rule\s*(?:==|!=|\bin\b)"
    r"|\b(?:rule|chosen|hood)\.code\s*(?:==|!=)"
    rf"|(?:==|!=|\bin\s*[(\[{{])\s*[\"'](?:{_NAMES})[\"']"
    rf"|[\"'](?:{_NAMES})[\"']\s*(?:==|!=)")


def _comparing_files():
    """The package files (relative to the package) with a comparison."""
    return {path.relative_to(PACKAGE).as_posix()
            for path in PACKAGE.rglob("*.py")
            if COMPARISONS.search(path.read_text(encoding="utf-8"))}


def _listed_files():
    """The package files of the table in doc/architecture.md's "Adding a
    neighbourhood rule" (the files a developer touches)."""
    doc = (ROOT / "doc" / "architecture.md").read_text(encoding="utf-8")
    section = doc.split("## Adding a neighbourhood rule", 1)[1]
    section = section.split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return {path for line in rows
            for path in re.findall(r"`((?:core/)?[\w/]+\.py)`",
                                   line.split("|")[1])
            if (PACKAGE / path).exists()}


def test_the_pattern_finds_comparisons():
    """The pattern sees what it is meant to see (else the next test could
    not fail)."""
    for line in ("if hood.rule == RULE_K:", "rule = RULE_MULTISURF_STAR",
                 "if options.rule.name == 'surf*':", "x in ('k', 'surf')",
                 "if rule.code != 3:", "'multisurf' == name"):
        assert COMPARISONS.search(line), line
    for line in ("RULE_NAMES = {}", "if hood.uses_k:", "rule(name).far",
                 "kind == 'kernel'", "if entry.code == code:"):
        assert not COMPARISONS.search(line), line


def test_rule_codes_are_compared_only_where_the_doc_says():
    """Every package file that compares a rule's code or name is one the
    doc's table lists (so a new rule touches only those), and there is
    none: a rule is its fields."""
    listed = _listed_files()
    assert "core/rules.py" in listed, listed
    found = _comparing_files()
    assert found <= listed, (
        f"{sorted(found - listed)} compare rule codes or names; read the "
        f"rule's fields (neighbours.Neighbourhood) instead, or list them in "
        f"doc/architecture.md")
    assert not found, found


def _table(seed=4, n=40):
    """Mixed data with three classes and missing values."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, 5)).round(2)
    X[:, 3:] = rng.integers(0, 3, (n, 2))
    nominal = np.array([0, 0, 0, 1, 1], bool)
    y = np.floor(3 * X[:, 0] + 0.3 * rng.random(n)).clip(0, 2)
    X[rng.random(X.shape) < 0.08] = np.nan
    return X, y, nominal


# Test-only rules, each a new combination of fields: MultiSURF's thresholds
# one standard deviation from the mean (near and far), and MultiSURF* whose
# far instances score as SURF*'s do (the opposite sign times diff).
# reference_rules' arguments for the same rule.
FIELD_RULES = {
    "multisurf-1sd": (dict(deviations=1.0),
                      dict(rule="multisurf", deviations=1.0)),
    "multisurf*-1sd": (dict(deviations=1.0, far=True, far_sameness=True),
                       dict(rule="multisurf*", deviations=1.0)),
    "multisurf*-opposite": (dict(deviations=0.5, far=True),
                            dict(rule="multisurf*", far_form="opposite")),
}


@pytest.fixture(params=sorted(FIELD_RULES))
def field_rule(request, monkeypatch):
    """A rule registered by its fields alone (name, reference arguments)."""
    name = request.param
    fields, reference = FIELD_RULES[name]
    monkeypatch.setitem(RULES, name, Rule(name, name, "a test's rule",
                                          **fields))
    return name, reference


@pytest.mark.parametrize("variant", ["relieff", "pdrelieff"])
def test_a_rule_defined_by_fields_alone(field_rule, variant, monkeypatch):
    """The compiled loops, the NumPy path and the GPU kernels (simulator;
    the block and the one-thread radius kernels) give the loop-by-loop reference's weights for a rule no kernel knows
    by name; and they differ from the registered rule's (the fields
    matter)."""
    name, reference = field_rule
    X, y, nominal = _table()
    expected = reference_rules(X, y, nominal, variant=variant, **reference)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compiled = relieff(X, y, nominal, neighbours=name, variant=variant,
                           kernels="compiled").weights
        first_use = relieff(X, y, nominal, neighbours=name, variant=variant,
                            kernels="vectorised").weights
        registered = relieff(X, y, nominal, variant=variant,
                             neighbours=reference["rule"]).weights
    assert_allclose(compiled, expected, atol=1e-13, rtol=0)
    assert_allclose(first_use, compiled, atol=1e-12, rtol=0)
    assert np.abs(compiled - registered).max() > 1e-3
    pytest.importorskip("numba.cuda")
    from orangecontrib.relief.core.backends.cuda import backend as cuda
    if cuda.unavailable_reason() is not None:
        pytest.skip(cuda.unavailable_reason())
    for block in (True, False):
        monkeypatch.setattr(cuda, "BLOCK_SELECTION", block)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            gpu = relieff(X, y, nominal, neighbours=name, variant=variant,
                          device="cuda", n_iterations=12).weights
            cpu = relieff(X, y, nominal, neighbours=name, variant=variant,
                          kernels="compiled", n_iterations=12).weights
        assert_allclose(gpu, cpu, atol=1e-12, rtol=0)
