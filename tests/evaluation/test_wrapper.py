"""Wrapper accuracy curves: protocols, determinism, progress and argument checks."""
import numpy as np
import pytest
from Orange.data import ContinuousVariable, Domain, Table
from Orange.preprocess.score import ReliefF as OrangeReliefF

from orangecontrib.relief import ReliefF
from orangecontrib.relief.datasets import corral
from orangecontrib.relief.evaluation.wrapper import WrapperCurve, wrapper_curve

NAMES = ("A0", "A1", "B0", "B1", "Irrelevant", "Correlated")


class FixedScorer:
    """Returns the same weights for any table and records how many rows it saw."""
    name = "fixed"

    def __init__(self, weights):
        self.weights = np.asarray(weights, dtype=float)
        self.rows_seen = []

    def __call__(self, data):
        self.rows_seen.append(len(data))
        return self.weights


@pytest.fixture(scope="module")
def data():
    return corral()


def test_fixed_order_curve_on_corral(data):
    # A0 A1 B0 B1 first: with all four, class = (A0 and A1) or (B0 and B1) is a function
    # of the inputs and every one of their 16 patterns appears in each training fold, so
    # 1-NN finds an exact match and is always right.
    scorer = FixedScorer([0.9, 0.8, 0.7, 0.6, np.nan, 0.1])
    curve, = wrapper_curve(data, scorer, folds=4, protocol="paper")
    assert isinstance(curve, WrapperCurve) and curve.scorer == "fixed"
    np.testing.assert_array_equal(curve.sizes, np.arange(1, 7))
    assert curve.fold_accuracy.shape == (4, 6)
    np.testing.assert_array_equal(curve.fold_accuracy[:, 3], 1.0)
    assert curve.best_size == 4 and curve.best_accuracy == 1.0
    np.testing.assert_allclose(curve.mean_accuracy, curve.fold_accuracy.mean(axis=0))
    np.testing.assert_allclose(curve.std_accuracy, curve.fold_accuracy.std(axis=0))
    # NaN sorts last
    assert curve.feature_order == ("A0", "A1", "B0", "B1", "Correlated", "Irrelevant")
    assert curve.fold_orders == (curve.feature_order,) * 4


def test_honest_scores_training_folds_and_paper_scores_all_data(data):
    honest, paper = FixedScorer(np.arange(6)), FixedScorer(np.arange(6))
    curve_h, = wrapper_curve(data, [honest], folds=5, protocol="honest")
    curve_p, = wrapper_curve(data, [paper], folds=5, protocol="paper")
    assert honest.rows_seen == [128] * 5   # each training fold: 4/5 of 160 rows
    assert paper.rows_seen == [160]
    assert curve_h.feature_order is None
    assert len(curve_h.fold_orders) == 5
    # same weights, same folds: both protocols give the same numbers
    np.testing.assert_array_equal(curve_h.fold_accuracy, curve_p.fold_accuracy)


def test_honest_is_not_better_than_paper_on_corral(data):
    # The paper protocol chooses features with the test rows' help (selection bias), so
    # averaged over sizes it is at least as accurate as the honest protocol.
    for random_state in (0, 1):
        honest, = wrapper_curve(data, ReliefF(k_nearest=5), protocol="honest",
                                random_state=random_state)
        paper, = wrapper_curve(data, ReliefF(k_nearest=5), protocol="paper",
                               random_state=random_state)
        assert honest.mean_accuracy.mean() <= paper.mean_accuracy.mean()
        assert set(paper.feature_order[:4]) == {"A0", "A1", "B0", "B1"}
        assert paper.mean_accuracy[3] == 1.0


def test_deterministic_for_fixed_random_state(data):
    first = wrapper_curve(data, [OrangeReliefF(n_iterations=50)], folds=3, random_state=3)[0]
    again = wrapper_curve(data, [OrangeReliefF(n_iterations=50)], folds=3, random_state=3)[0]
    np.testing.assert_array_equal(first.fold_accuracy, again.fold_accuracy)
    assert first.fold_orders == again.fold_orders
    other = wrapper_curve(data, [OrangeReliefF(n_iterations=50)], folds=3, random_state=4)[0]
    assert not np.array_equal(first.fold_accuracy, other.fold_accuracy)


def test_one_curve_per_scorer_in_order(data):
    curves = wrapper_curve(data, [FixedScorer(np.arange(6)), OrangeReliefF(n_iterations=20)],
                           folds=2, protocol="paper")
    assert [c.scorer for c in curves] == ["fixed", "ReliefF"]


def test_progress_reaches_one_and_can_cancel(data):
    fractions = []
    wrapper_curve(data, [FixedScorer(np.arange(6))] * 2, folds=2, progress=fractions.append)
    assert fractions[0] == 0.0 and fractions[-1] == 1.0
    assert len(fractions) == 1 + 2 * 2 * 6
    assert np.all(np.diff(fractions) > 0)

    class Cancelled(Exception):
        pass

    def cancel(fraction):
        if fraction > 0.3:
            raise Cancelled

    with pytest.raises(Cancelled):
        wrapper_curve(data, [FixedScorer(np.arange(6))], folds=2, progress=cancel)


@pytest.mark.parametrize("kwargs, message", [
    (dict(protocol="biased"), "protocol must be 'honest'"),
    (dict(folds=1), "folds must be an integer from 2"),
    (dict(folds=161), "folds must be an integer from 2"),
    (dict(folds=2.5), "folds must be an integer from 2"),
])
def test_bad_arguments(data, kwargs, message):
    with pytest.raises(ValueError, match=message):
        wrapper_curve(data, FixedScorer(np.arange(6)), **kwargs)


def test_wrong_number_of_weights_and_regression(data):
    with pytest.raises(ValueError, match="returned 3 weights for 6 features"):
        wrapper_curve(data, FixedScorer([1, 2, 3]), folds=2)
    regression = Table.from_numpy(Domain([ContinuousVariable("x")], ContinuousVariable("y")),
                                  np.arange(10.0)[:, None], np.arange(10.0))
    with pytest.raises(ValueError, match="categorical class"):
        wrapper_curve(regression, FixedScorer([1]), folds=2)


def test_classic_scorer_plugs_in(data):
    # Myopic ReliefF on all 160 rows: Correlated 0.25, A0..B1 0.1407 each (tied, kept in
    # domain order), Irrelevant 0 (see tests/test_classic.py for the closed form).
    from orangecontrib.relief.paper.classic import MyopicReliefF
    curve, = wrapper_curve(data, MyopicReliefF(), folds=2, protocol="paper")
    assert curve.scorer == "Myopic ReliefF"
    assert curve.feature_order == ("Correlated", "A0", "A1", "B0", "B1", "Irrelevant")


# --- leave-one-out and the voting 1-NN ------------------------------------------------

class RecordingScorer(FixedScorer):
    """FixedScorer that also records the ids of the rows it was given."""

    def __init__(self, weights):
        super().__init__(weights)
        self.ids_seen = []

    def __call__(self, data):
        self.ids_seen.append(frozenset(data.ids.tolist()))
        return super().__call__(data)


def test_leave_one_out_honest_never_shows_the_held_out_row(data):
    small = corral(32)
    scorer = RecordingScorer(np.arange(6)[::-1])
    curve, = wrapper_curve(small, scorer, folds="loo", protocol="honest",
                           learner="1nn-vote")
    all_ids = frozenset(small.ids.tolist())
    assert len(scorer.ids_seen) == 32 and curve.fold_accuracy.shape == (32, 6)
    held_out = [next(iter(all_ids - seen)) for seen in scorer.ids_seen]
    assert all(len(seen) == 31 for seen in scorer.ids_seen)
    assert sorted(held_out) == sorted(all_ids)      # each row is held out once
    # the paper protocol scores all rows once
    paper = RecordingScorer(np.arange(6)[::-1])
    wrapper_curve(small, paper, folds="loo", protocol="paper", learner="1nn-vote")
    assert paper.ids_seen == [all_ids]


def test_leave_one_out_with_an_orange_learner(data):
    small = corral(32)
    curve, = wrapper_curve(small, FixedScorer([0.9, 0.8, 0.7, 0.6, 0.0, 0.1]), folds="loo",
                           protocol="paper")
    assert curve.fold_accuracy.shape == (32, 6)
    assert set(np.unique(curve.fold_accuracy)) <= {0.0, 1.0}
    np.testing.assert_allclose(curve.pooled_accuracy, curve.mean_accuracy)


def test_pooled_accuracy_counts_rows(data):
    curve, = wrapper_curve(data, FixedScorer(np.arange(6)), folds=3, protocol="paper")
    sizes = np.array([54, 53, 53])            # StratifiedKFold(3) of 160 rows
    np.testing.assert_allclose(curve.pooled_accuracy,
                               (curve.fold_accuracy * sizes[:, None]).sum(axis=0) / 160)


def _table(X, y, values=("0", "1", "2")):
    from Orange.data import DiscreteVariable
    domain = Domain([DiscreteVariable(f"x{i}", values=list(values)) for i in range(len(X[0]))],
                    DiscreteVariable("class", values=["A", "B", "C"]))
    return Table.from_numpy(domain, np.array(X, dtype=float), np.array(y, dtype=float))


def test_vote_rule_by_hand():
    # x0 alone: value 0 is held by rows 0-3 (classes A A B B) and row 4 (A) holds 1.
    # Leave-one-out on x0:
    #  row 0 (A): tied rows 1, 2, 3 -> votes A 1, B 2 -> B: wrong (0)
    #  row 1 (A): the same (0); rows 2, 3 (B): votes A 2, B 1 -> A: wrong (0)
    #  row 4 (A): no other row has 1, all four rows at distance 1 tie: A 2, B 2 -> 1/2
    #  row 5 (C): value 2 alone, all five others at distance 1: A 3, B 2 -> A: 0
    X = [[0, 0], [0, 1], [0, 0], [0, 1], [1, 0], [2, 2]]
    y = [0, 0, 1, 1, 0, 2]
    curve, = wrapper_curve(_table(X, y), FixedScorer([1.0, 0.0]), folds="loo",
                           protocol="paper", learner="1nn-vote")
    np.testing.assert_allclose(curve.fold_accuracy[:, 0], [0, 0, 0, 0, 0.5, 0])
    assert curve.pooled_accuracy[0] == pytest.approx(0.5 / 6)
    # x0 and x1: row 0 (0,0) has row 2 (B) at 0 -> wrong; row 1 (0,1): row 3 (B) -> wrong;
    # row 2: row 0 (A) -> wrong; row 3: row 1 (A) -> wrong; row 4 (1,0): rows 0, 2
    # (A, B) at 1 -> 1/2; row 5 (2,2): all five rows at 2, A 3 B 2 -> A: 0
    np.testing.assert_allclose(curve.fold_accuracy[:, 1], [0, 0, 0, 0, 0.5, 0])


def test_vote_rule_missing_values():
    # x0 is missing in row 2. Training rows of fold "row 0 out": rows 1..3, x0 known
    # values 0 (row 1), 1 (row 3) -> P = 1/2 each: the missing cell is 1/2 from both.
    # Row 0 (x0 = 0): row 1 at 0 (B), row 2 at 1/2, row 3 at 1 -> B: wrong.
    X = [[0], [0], [np.nan], [1]]
    y = [0, 1, 0, 1]
    curve, = wrapper_curve(_table(X, y), FixedScorer([1.0]), folds="loo",
                           protocol="paper", learner="1nn-vote")
    # row 1 (B, x0 = 0): rows 0 (A, 0) at 0 -> wrong
    # row 2 (A, missing): training x0 = 0, 0, 1 -> P(0) = 2/3, P(1) = 1/3:
    #   rows 0, 1 at 1/3, row 3 at 2/3 -> votes A 1, B 1 -> 1/2
    # row 3 (B, x0 = 1): row 2 at 1 - P(1) = 1 - 1/3 = 2/3 (A), rows 0, 1 at 1 -> A: wrong
    np.testing.assert_allclose(curve.fold_accuracy[:, 0], [0, 0, 0.5, 0])


def test_vote_rule_does_not_depend_on_row_order():
    table = corral(32)
    scorer = FixedScorer([0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
    first, = wrapper_curve(table, scorer, folds="loo", protocol="paper", learner="1nn-vote")
    shuffled = table[np.random.default_rng(1).permutation(len(table))]
    again, = wrapper_curve(shuffled, scorer, folds="loo", protocol="paper",
                           learner="1nn-vote")
    np.testing.assert_allclose(first.pooled_accuracy, again.pooled_accuracy)
    # A0 A1 B0 B1 decide the class: with those four the nearest rows (same four values,
    # the other two features differ) all have the right class
    exact, = wrapper_curve(table, FixedScorer([0.9, 0.8, 0.7, 0.6, 0.0, 0.1]), folds="loo",
                           protocol="paper", learner="1nn-vote")
    assert exact.pooled_accuracy[3] == 1.0


def test_vote_rule_refusals(data):
    with pytest.raises(ValueError, match="learner must be an Orange learner or '1nn-vote'"):
        wrapper_curve(data, FixedScorer(np.arange(6)), learner="knn")
    numeric = Table.from_numpy(Domain([ContinuousVariable("x")], data.domain.class_var),
                               np.arange(10.0)[:, None], np.arange(10.0) % 2)
    with pytest.raises(ValueError, match="needs discrete features"):
        wrapper_curve(numeric, FixedScorer([1]), learner="1nn-vote", folds=2)
    with pytest.raises(ValueError, match="or 'loo'"):
        wrapper_curve(data, FixedScorer(np.arange(6)), folds="leave-one-out")
