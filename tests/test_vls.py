"""VLS (orangecontrib/relief/wrappers/vls.py): its subsets, each feature's best
score, the Orange wrapper, and agreement with scikit-rebate."""
import random

import numpy as np
import pytest

from orangecontrib.relief import VLS
from orangecontrib.relief.core import relieff
from orangecontrib.relief.wrappers.vls import feature_subsets, vls


def continuous_problem(n=80, a=13, seed=0):
    """Distinct values (no distance ties), two classes told by features 0
    and 1: where this add-on's ReliefF and skrebate's coincide."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, a))
    y = (X[:, 0] + X[:, 1] + 0.3 * rng.random(n) > 1.15).astype(float)
    return X, y


@pytest.mark.parametrize("a, number, size", [(13, 4, 5), (10, 2, 5),
                                             (12, 7, 4), (3, 2, 5)])
def test_subsets_cover_every_feature(a, number, size):
    subsets = feature_subsets(a, number, size, random_state=1)
    size = min(size, a)
    assert len(subsets) == max(number, -(-a // size))
    assert all(len(s) == size == len(set(s)) for s in subsets)
    assert set().union(*subsets) == set(range(a))
    assert subsets == feature_subsets(a, number, size, random_state=1)
    assert feature_subsets(40, 20, 5, random_state=2) != \
        feature_subsets(40, 20, 5, random_state=3)


def test_each_feature_keeps_its_best_score():
    X, y = continuous_problem()
    weights, subsets = vls(X, y, num_feature_subset=6, size_feature_subset=4,
                           random_state=0, k_nearest=5)
    best = np.full(X.shape[1], -np.inf)
    for subset in subsets:
        scores = relieff(X[:, subset], y, k_nearest=5).weights
        for f, s in zip(subset, scores):
            best[f] = max(best[f], s)
    np.testing.assert_array_equal(weights, best)
    # a feature in several subsets: its best is above its other scores
    counts = np.bincount(np.concatenate(subsets))
    assert counts.max() > 1


def test_missing_feature_stays_nan_and_progress():
    X, y = continuous_problem()
    X[:, 3] = np.nan
    seen = []
    with pytest.warns(UserWarning, match="no known value"):
        weights, subsets = vls(X, y, num_feature_subset=4,
                               size_feature_subset=5, random_state=0,
                               progress=seen.append)
    assert np.isnan(weights[3]) and not np.isnan(np.delete(weights, 3)).any()
    assert seen == [(i + 1) / len(subsets) for i in range(len(subsets))]


@pytest.mark.parametrize("options, message", [
    (dict(num_feature_subset=2, size_feature_subset=5),
     "raise num_feature_subset to at least 3"),
    (dict(num_feature_subset=0), "num_feature_subset"),
    (dict(size_feature_subset=2.5), "size_feature_subset"),
    (dict(random_state=np.random.default_rng(0)), "random_state"),
])
def test_options_are_checked(options, message):
    X, y = continuous_problem()
    with pytest.raises(ValueError, match=message):
        vls(X, y, **options)


def test_orange_wrapper_equals_the_arrays():
    from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
    from orangecontrib.relief import ReliefF
    X, y = continuous_problem()
    domain = Domain([ContinuousVariable(f"x{i}") for i in range(X.shape[1])],
                    DiscreteVariable("class", values=("0", "1")))
    table = Table.from_numpy(domain, X, y)
    scorer = VLS(ReliefF(k_nearest=5), num_feature_subset=5,
                 size_feature_subset=4, random_state=7)
    expected, _ = vls(X, y, num_feature_subset=5, size_feature_subset=4,
                      random_state=7, k_nearest=5)
    np.testing.assert_allclose(scorer(table), expected, rtol=0, atol=1e-15)
    assert scorer.name == f"VLS ({ReliefF(k_nearest=5).name})"
    assert scorer(table, "x1") == pytest.approx(expected[1], abs=1e-15)
    with pytest.raises(ValueError, match="num_feature_subset"):
        VLS(ReliefF(), num_feature_subset=-1)


def test_agrees_with_skrebate():
    skrebate = pytest.importorskip("skrebate")
    X, y = continuous_problem(n=60, a=17)
    random.seed(5)
    theirs = skrebate.VLS(skrebate.ReliefF(n_neighbors=5), 8, 4, 5)
    assert theirs.make_subsets(list(range(17)), 8, 4) == \
        feature_subsets(17, 8, 4, random_state=5)
    theirs.fit(X.copy(), y.copy())
    ours, _ = vls(X, y, num_feature_subset=8, size_feature_subset=4,
                  random_state=5, k_nearest=5)
    np.testing.assert_allclose(ours, theirs.feature_importances_, rtol=0,
                               atol=1e-12)
