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
    from orangecontrib.relief.classic import MyopicReliefF
    curve, = wrapper_curve(data, MyopicReliefF(), folds=2, protocol="paper")
    assert curve.scorer == "Myopic ReliefF"
    assert curve.feature_order == ("Correlated", "A0", "A1", "B0", "B1", "Irrelevant")
