"""The two registries (issue 31): neighbourhood rules (``core.rules.RULES``)
and significance tests (``stats.TESTS``).  Each entry's stated capabilities
match what the engine and the tests do, and the scorers, the scikit-learn
selector, the command line and the widgets read the registries instead of
lists of their own: a test added to ``stats.TESTS`` reaches all of them."""
import dataclasses

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from Orange.data import Table

from orangecontrib.relief import cli, stats
from orangecontrib.relief.core import relieff
from orangecontrib.relief.core.rules import RULES, rule
from orangecontrib.relief.datasets import corral
from orangecontrib.relief.scoring import RULE_NAMES, ReliefF
from orangecontrib.relief.sklearn import ReliefFSelector


def signal(seed=0, n=40, a=5, regression=False):
    rng = np.random.default_rng(seed)
    X = rng.random((n, a))
    y = X[:, 0] + 0.1 * rng.random(n) if regression \
        else (X[:, 0] > 0.5).astype(float)
    return X, y


# -- rules --------------------------------------------------------------------

@pytest.mark.parametrize("name", list(RULES))
def test_each_rule_does_what_its_entry_says(name):
    entry = RULES[name]
    X, y = signal()
    Xr, yr = signal(regression=True)
    assert entry.name == name
    assert relieff(X, y, neighbours=name).weights.shape == (5,)
    if entry.regression:
        relieff(Xr, yr, regression=True, neighbours=name)
    else:
        with pytest.raises(ValueError, match="far instances"):
            relieff(Xr, yr, regression=True, neighbours=name)
    if entry.uses_k:
        # k counts: another k, other weights
        assert not np.array_equal(
            relieff(X, y, neighbours=name, k_nearest=1).weights,
            relieff(X, y, neighbours=name, k_nearest=5).weights)
        relieff(X, y, neighbours=name, weight_by_distance=True)
    else:
        assert_array_equal(
            relieff(X, y, neighbours=name, k_nearest=1).weights,
            relieff(X, y, neighbours=name, k_nearest=5).weights)
        with pytest.raises(ValueError, match="weight_by_distance"):
            relieff(X, y, neighbours=name, weight_by_distance=True)
    if entry.weka:
        relieff(X, y, neighbours=name, compat="weka")
    else:
        with pytest.raises(ValueError, match="Weka"):
            relieff(X, y, neighbours=name, compat="weka")


def test_unknown_rule_lists_the_registry():
    with pytest.raises(ValueError, match="'k', 'surf', 'surf\\*', "
                                         "'multisurf', 'multisurf\\*'"):
        rule("relief-e")
    with pytest.raises(ValueError, match="neighbours must be one of"):
        relieff(*signal(), neighbours="nearest")


def test_the_adapters_read_the_rule_registry():
    assert RULE_NAMES == {name: entry.display_name
                          for name, entry in RULES.items()}
    actions = {action.dest: action for action in
               cli.build_parser()._subparsers._group_actions[0]
               .choices["score"]._actions}
    assert list(actions["neighbours"].choices) == list(RULES)
    for name, entry in RULES.items():
        scorer = ReliefF(neighbours=name)
        assert (entry.display_name in scorer.name) != entry.uses_k


# -- significance tests ------------------------------------------------------

def test_each_test_runs_its_function():
    X, y = signal(n=30)
    for name, test in stats.TESTS.items():
        got = test.run(X, y, n_permutations=9, k_nearest=3)
        if name == "stir":
            want = stats.stir(X, y, k_nearest=3)
        elif name == "npdr":
            want = stats.npdr(X, y, k_nearest=3)
        elif name == "npdr_permutation":
            want = stats.npdr_permutation(X, y, n_permutations=9,
                                          k_nearest=3)
        else:
            want = stats.permutation_test(
                X, y, n_permutations=9, k_nearest=3,
                permute="feature" if test.refits_per_feature else "target")
        assert_array_equal(got.p_values, want.p_values)
        assert (got.p_max_t is not None) == test.family_wise
        assert test.cost(9, 5) == (1 if not test.permutations
                                   else 45 if test.refits_per_feature
                                   else 9)


@pytest.mark.parametrize("name", list(stats.TESTS))
def test_each_test_refuses_what_its_entry_says_it_does_not_support(name):
    test = stats.TESTS[name]
    X, y = signal(n=30)
    Xr, yr = signal(n=30, regression=True)
    cases = [(dict(variant="drelieff"), "drelieff" in test.variants),
             (dict(regression=True), test.regression),
             (dict(neighbours="multisurf*"), test.far_rules),
             (dict(compat="weka"), test.weka),
             (dict(covariates=True), test.covariates)]
    for options, supported in cases:
        reason = test.unsupported(**options)
        assert (reason is None) == supported, (name, options)
        data = (Xr, yr) if options.get("regression") else (X, y)
        if options.get("covariates"):
            options = dict(covariates=np.arange(30.0))
        if supported:
            test.run(*data, n_permutations=3, **options)
        else:
            with pytest.raises(ValueError):
                test.run(*data, n_permutations=3, **options)


def test_find_test_spells_the_scorers_options():
    assert stats.find_test("permutation").name == "permutation"
    assert stats.find_test("permutation", "feature").name \
        == "feature_permutation"
    assert stats.find_test("stir").name == "stir"
    with pytest.raises(ValueError, match="method must be one of"):
        stats.find_test("exact")
    with pytest.raises(ValueError, match="permute must be"):
        stats.find_test("permutation", "rows")


@pytest.fixture
def one_more_test(monkeypatch):
    """A statistic registered in stats.TESTS alone: every feature p = 0.5."""
    def halves(X, y, nominal=None, *, progress=None, **options):
        weights = relieff(X, y, nominal, **options).weights
        p = np.full(weights.shape, 0.5)
        return stats.Significance("halves", weights, p,
                                  stats.benjamini_hochberg(p),
                                  stats.bonferroni(p))
    test = stats.Test("halves", "Halves (a test of the registry)",
                      "every p is one half", halves, permutations=False)
    monkeypatch.setitem(stats.TESTS, "halves", test)
    return test


def test_a_registered_test_reaches_every_adapter(one_more_test, capsys,
                                                 tmp_path):
    data = corral()
    # the scorers
    test = ReliefF().significance(data, method="halves")
    assert_array_equal(test.p_values, 0.5)
    # the scikit-learn selector
    selector = ReliefFSelector(threshold="p:0.6", significance="halves",
                               n_features_to_select=6)
    selector.fit(data.X, data.Y)
    assert_array_equal(selector.p_values_, 0.5)
    assert selector.get_support().all()
    # the command line
    path = tmp_path / "corral.tab"
    data.save(str(path))
    assert cli.main(["score", str(path), "--test", "halves"]) == 0
    out = capsys.readouterr().out
    assert "Halves (a test of the registry)" in out
    assert "0.5000" in out


def test_a_registered_test_reaches_the_widget_menu(one_more_test):
    pytest.importorskip("AnyQt")
    from orangewidget.tests.base import GuiTest
    GuiTest.setUpClass()
    from orangecontrib.relief.widgets.owdrelieff import OWDReliefF
    from orangecontrib.relief.widgets.owrelieff import OWReliefF
    for cls in (OWReliefF, OWDReliefF):
        widget = cls()
        try:
            combo = widget.controls.test_position
            items = [combo.itemText(i) for i in range(combo.count())]
            assert "Halves (a test of the registry)" in items
            # STIR tests ReliefF's pairs only: not offered for dReliefF
            assert ("STIR (one run; a fast screen)" in items) \
                == (cls is OWReliefF)
        finally:
            widget.onDeleteWidget()
            widget.deleteLater()


def test_test_entries_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        stats.TESTS["stir"].regression = True
