"""Redundancy from Relief's own updates, and the non-redundant selection (issue 42)."""
from pathlib import Path

import numpy as np
import pytest

from orangecontrib.relief.core import relieff
from orangecontrib.relief.stats.redundancy import (THRESHOLD,
                                                   relief_redundancy,
                                                   select_non_redundant,
                                                   update_redundancy,
                                                   visit_updates)


def test_visit_updates_recover_the_mean():
    rng = np.random.default_rng(0)
    X = rng.random((40, 4))
    y = (X[:, 0] > 0.5).astype(float)
    result = relieff(X, y, trace_every=1)
    updates = visit_updates(result.trace)
    assert updates.shape == (40, 4)
    np.testing.assert_allclose(updates.mean(axis=0), result.weights,
                               atol=1e-14)


def test_hand_checked_matrix():
    # columns: a, a again, -a (opposite moves), a constant update
    a = np.array([1.0, 0.0, 1.0, 0.0])
    updates = np.column_stack([a, a, -a, np.full(4, 0.5)])
    assert np.array_equal(update_redundancy(updates), np.array(
        [[1, 1, 0, 0], [1, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], float))


def copies_table(n=400, seed=1):
    """Three relevant numeric features, ten irrelevant ones, and a copy of
    each relevant one of another kind: exact, noisy, monotone nonlinear,
    and a nominal discretisation of the first."""
    rng = np.random.default_rng(seed)
    relevant = rng.random((n, 3))
    y = (relevant.sum(axis=1) > 1.5).astype(float)
    X = np.hstack([relevant, rng.random((n, 10)), relevant[:, :1],
                   relevant[:, 1:2] + rng.normal(0, 0.05, (n, 1)),
                   np.exp(3 * relevant[:, 2:3]),
                   np.floor(relevant[:, :1] * 4)])
    nominal = np.zeros(X.shape[1], bool)
    nominal[-1] = True
    return X, y, nominal


def test_copies_are_redundant_independent_features_are_not():
    X, y, nominal = copies_table()
    result = relief_redundancy(X, y, nominal, top=17)
    where = {f: i for i, f in enumerate(result.features)}
    level = lambda f, g: result.matrix[where[f], where[g]]   # noqa: E731
    assert level(0, 13) == pytest.approx(1.0)      # exact copy
    assert level(1, 14) > 0.8                       # noisy copy
    assert level(2, 15) > 0.8                       # exp(3 x) of the third
    assert level(0, 16) > THRESHOLD                 # discretised
    for f, g in [(0, 1), (0, 2), (1, 2)] + [(0, j) for j in range(3, 13)]:
        assert level(f, g) < 0.35, (f, g)
    # measuring does not change the weights
    assert np.array_equal(result.weights, relieff(X, y, nominal).weights)


def test_selection_keeps_one_of_each_copy_group():
    X, y, nominal = copies_table()
    groups = [{0, 13, 16}, {1, 14}, {2, 15}]
    result = relief_redundancy(X, y, nominal)
    # plain ReliefF's top six are the three groups twice over
    assert set(result.features[:6]) <= set().union(*groups)
    chosen, redundant_with = result.select(3)
    assert [len(set(chosen) & group) for group in groups] == [1, 1, 1]
    for i, f in enumerate(result.features):
        if f not in chosen and any(f in g for g in groups):
            group = next(g for g in groups if f in g)
            assert redundant_with[i] in group and redundant_with[i] in chosen


@pytest.mark.parametrize("p", [2, 3])
def test_interacting_features_are_both_kept(p):
    """XOR (p = 2) and Modulo-3 of two features: not redundant."""
    rng = np.random.default_rng(2)
    X = rng.integers(0, p, (600, 8)).astype(float)
    y = ((X[:, 0] + X[:, 1]) % p).astype(float)
    result = relief_redundancy(X, y, np.ones(8, bool))
    assert set(result.features[:2]) == {0, 1}
    assert result.matrix[0, 1] < 0.2
    chosen, _ = result.select(2)
    assert set(chosen) == {0, 1}


GAMETES = next((path for path in (
    Path(__file__).resolve().parents[1] / ".." / "shared" / "data",
    Path("/work/shared/data"))
    if (path / "GAMETES_Epistasis_2-Way_20atts_0.4H_EDM-1_1.tsv").exists()),
    None)


@pytest.mark.skipif(GAMETES is None, reason="no shared GAMETES data")
@pytest.mark.parametrize("half", [0, 1])
def test_gametes_interacting_pair_is_kept(half):
    """P1 x P2 epistasis: their updates correlate (~0.5: both move on the
    rows whose class the pair predicts) but stay below the threshold."""
    matrix = np.loadtxt(GAMETES / "GAMETES_Epistasis_2-Way_20atts_0.4H_"
                        "EDM-1_1.tsv", delimiter="\t", skiprows=1)[half::2]
    result = relief_redundancy(matrix[:, :-1], matrix[:, -1],
                               np.ones(20, bool))
    assert set(result.features[:2]) == {18, 19}          # P1, P2
    assert set(result.select(2)[0]) == {18, 19}


def test_too_few_non_redundant_features_fill_with_least_redundant():
    weights = np.array([3.0, 2.0, 1.0])
    matrix = np.array([[1, 0.9, 0.6], [0.9, 1, 0.5], [0.6, 0.5, 1]])
    chosen, redundant_with = select_non_redundant(
        weights, np.arange(3), matrix, 2, threshold=0.5)
    assert list(chosen) == [0, 2]
    assert list(redundant_with) == [-1, 0, -1]


@pytest.mark.parametrize("options, message", [
    (dict(regression=True), "needs a class"),
    (dict(variant="irelief"), "I-RELIEF"),
    (dict(trace_every=2), "trace_every"),
    (dict(top=0), "top must be"),
])
def test_bad_options_say_what_is_wrong(options, message):
    X = np.random.default_rng(0).random((20, 3))
    with pytest.raises(ValueError, match=message):
        relief_redundancy(X, (X[:, 0] > 0.5).astype(float), **options)


def test_bad_threshold():
    with pytest.raises(ValueError, match="threshold"):
        select_non_redundant(np.ones(2), np.arange(2), np.eye(2), 1, 0)


def test_selector_skips_redundant_features():
    from orangecontrib.relief.sklearn import ReliefFSelector
    X, y, _ = copies_table()
    X = X[:, :-1]           # numeric only: the selector's nominal guess
    groups = [{0, 13}, {1, 14}, {2, 15}]
    plain = ReliefFSelector(n_features_to_select=3).fit(X, y)
    assert set(np.flatnonzero(plain.get_support())) <= set().union(*groups)
    selector = ReliefFSelector(n_features_to_select=3, redundancy=True)
    kept = set(np.flatnonzero(selector.fit(X, y).get_support()))
    assert [len(kept & g) for g in groups] == [1, 1, 1]
    assert selector.transform(X).shape == (len(X), 3)
    np.testing.assert_array_equal(selector.feature_importances_,
                                  plain.feature_importances_)
    for group in groups:
        (original,) = kept & group
        for other in group - {original}:
            assert selector.redundant_with_[other] == original


def test_selector_keeps_the_xor_pair():
    from orangecontrib.relief.sklearn import ReliefFSelector
    rng = np.random.default_rng(3)
    X = rng.integers(0, 2, (500, 6))
    y = X[:, 0] ^ X[:, 1]
    selector = ReliefFSelector(n_features_to_select=2, redundancy=True,
                               discrete_features=True).fit(X, y)
    assert list(np.flatnonzero(selector.get_support())) == [0, 1]


@pytest.mark.parametrize("options, target, message", [
    (dict(threshold="p:0.05"), "class", "does not combine"),
    (dict(), "number", "needs a class"),
    (dict(redundancy_threshold=1.5), "class", "threshold must be in"),
])
def test_selector_bad_redundancy_options(options, target, message):
    from orangecontrib.relief.sklearn import ReliefFSelector
    rng = np.random.default_rng(0)
    X = rng.random((30, 4))
    y = X[:, 0] if target == "number" else (X[:, 0] > 0.5).astype(int)
    with pytest.raises(ValueError, match=message):
        ReliefFSelector(redundancy=True, **options).fit(X, y)


def copies_orange_table():
    from Orange.data import (ContinuousVariable, DiscreteVariable, Domain,
                             Table)
    X, y, _ = copies_table()
    X = X[:, :-1]
    names = [f"a{i}" for i in range(3)] + [f"noise{i}" for i in range(10)] \
        + ["a0_copy", "a1_noisy", "a2_exp"]
    domain = Domain([ContinuousVariable(name) for name in names],
                    DiscreteVariable("y", values=("0", "1")))
    return Table.from_numpy(domain, X, y)


def test_scorer_redundancy_and_preprocessor():
    from orangecontrib.relief.scoring import ReliefF, SelectNonRedundant
    data = copies_orange_table()
    result = ReliefF().redundancy(data, top=5)
    assert len(result.features) == 5 and result.matrix.shape == (5, 5)
    kept = SelectNonRedundant(ReliefF(), n_features=3)(data)
    names = {var.name for var in kept.domain.attributes}
    groups = [{"a0", "a0_copy"}, {"a1", "a1_noisy"}, {"a2", "a2_exp"}]
    assert [len(names & g) for g in groups] == [1, 1, 1]
    assert kept.domain.class_var is data.domain.class_var


def test_preprocessor_reselects_in_every_fold():
    """Test & Score's cross-validation calls the preprocessor on each
    training set: the features it keeps come from that set only."""
    from Orange.classification import KNNLearner
    from Orange.evaluation import CrossValidation
    from orangecontrib.relief.scoring import ReliefF, SelectNonRedundant
    data = copies_orange_table()
    seen = []

    class Recording(SelectNonRedundant):
        def __call__(self, data):
            kept = super().__call__(data)
            seen.append((len(data), [v.name for v in kept.domain.attributes]))
            return kept

    learner = KNNLearner(preprocessors=[Recording(ReliefF(), n_features=3)])
    results = CrossValidation(k=3)(data, [learner])
    assert len(seen) == 3 and sum(size for size, _ in seen) == 2 * len(data) and all(len(names) == 3 for _, names in seen)
    from Orange.evaluation import CA
    assert CA(results)[0] > 0.8


def test_preprocessor_bad_n_features():
    from orangecontrib.relief.scoring import ReliefF, SelectNonRedundant
    with pytest.raises(ValueError, match="n_features"):
        SelectNonRedundant(ReliefF(), n_features=0)


def test_cli_skip_redundant(capsys, tmp_path):
    from orangecontrib.relief.cli import main
    path = str(tmp_path / "copies.tab")
    copies_orange_table().save(path)
    assert main(["score", path, "--skip-redundant", "3", "--format",
                 "json"]) == 0
    import json
    rows = json.loads(capsys.readouterr().out)
    kept = {row["feature"] for row in rows if row["kept"] == 1}
    groups = [{"a0", "a0_copy"}, {"a1", "a1_noisy"}, {"a2", "a2_exp"}]
    assert [len(kept & g) for g in groups] == [1, 1, 1]
    copies = [row for row in rows if row["feature"] in set().union(*groups)
              and row["kept"] == 0]
    assert len(copies) == 3 and all(row["redundancy"] > 0.5 for row in copies)
    assert main(["score", path, "--skip-redundant", "3"]) == 0
    out = capsys.readouterr().out
    assert "skip-redundant: kept 3 features" in out and "(with a" in out


def test_cli_skip_redundant_refuses_turf(capsys, tmp_path):
    from orangecontrib.relief.cli import main
    path = str(tmp_path / "copies.tab")
    copies_orange_table().save(path)
    assert main(["score", path, "--skip-redundant", "3", "--turf",
                 "0.1"]) != 0
    assert "--skip-redundant" in capsys.readouterr().err
