"""Classic filter scores on hand-computed contingency tables (classes in rows)."""
import itertools
from math import log2

import numpy as np
import pytest
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

from orangecontrib.relief.paper.classic import (CCF, DistributionDifference,
                                                EntropyDistance,
                                                MantarasDistance,
                                                MyopicReliefF,
                                                cross_category_importance,
                                                distribution_difference,
                                                entropy_distance,
                                                mantaras_distance,
                                                myopic_relieff)

# Table A: [[3, 1], [1, 3]], m = 8, P(c) = P(x) = (1/2, 1/2), H(C) = H(X) = 1.
# H(C, X) = -2 (3/8) log2(3/8) - 2 (1/8) log2(1/8) = 3 - (3/4) log2 3.
A = [[3, 1], [1, 3]]
H_A = 3 - 0.75 * log2(3)
# Table B: [[2, 0], [1, 1]], m = 4, P(c, x) = [[1/2, 0], [1/4, 1/4]], P(c) = (1/2, 1/2),
# P(x) = (3/4, 1/4): H(C) = 1, H(X) = 2 - (3/4) log2 3, H(C, X) = 1/2 + 1 = 3/2.
B = [[2, 0], [1, 1]]
H_X_B = 2 - 0.75 * log2(3)


def test_mantaras_distance():
    # D_M = 2 - (H(X) + H(C)) / H(C, X)
    assert mantaras_distance(A) == pytest.approx(2 - 2 / H_A)        # 0.895812
    assert mantaras_distance(B) == pytest.approx(2 - (1 + H_X_B) / 1.5)  # 0.792481
    assert mantaras_distance([[2, 0], [0, 2]]) == pytest.approx(0)   # X = C
    assert mantaras_distance([[1, 1], [1, 1]]) == pytest.approx(1)   # independent
    assert mantaras_distance([[5]]) == 1                             # all constant


def test_entropy_distance():
    # D_H = H(C, X) - MI = 2 H(C, X) - H(C) - H(X)
    assert entropy_distance(A) == pytest.approx(2 * H_A - 2)          # 1.622556
    assert entropy_distance(B) == pytest.approx(3 - 1 - H_X_B)        # 1.188722
    assert entropy_distance([[2, 0], [0, 2]]) == pytest.approx(0)


def test_distribution_difference():
    # A: P(x) P(c) = 1/4 everywhere, |3/8 - 1/4| = |1/8 - 1/4| = 1/8, four cells: 1/2
    assert distribution_difference(A) == pytest.approx(0.5)
    # B: P(x) P(c) = [[3/8, 1/8], [3/8, 1/8]]; |1/2-3/8| + |0-1/8| + |1/4-3/8| + |1/4-1/8| = 1/2
    assert distribution_difference(B) == pytest.approx(0.5)
    assert distribution_difference([[1, 1], [1, 1]]) == 0
    # X = C: |1/2 - 1/4| twice + |0 - 1/4| twice = 1 = 2 (1 - sum_x P(x)^2), twice the
    # seed's stated bound 1 - sum_x P(x)^2 = 1/2
    assert distribution_difference([[2, 0], [0, 2]]) == pytest.approx(1.0)


def test_ccf_binary_uses_second_value_as_positive():
    # A: P(c | x=second) = (1/4, 3/4): 1/16 + 9/16 = 0.625
    assert cross_category_importance(A) == pytest.approx(0.625)
    # B: P(c | x=second) = (0, 1): 1; with the columns swapped P(c | x) = (2/3, 1/3): 5/9
    assert cross_category_importance(B) == pytest.approx(1)
    assert cross_category_importance([[0, 2], [1, 1]]) == pytest.approx(5 / 9)
    assert np.isnan(cross_category_importance([[3, 0], [2, 0]]))


def test_ccf_multivalued_is_mean_of_one_vs_rest():
    # P(c | x1) = (1, 0): 1; P(c | x2) = (0, 1): 1; P(c | x3) = (1/2, 1/2): 1/2. Mean 5/6.
    counts = [[2, 0, 1], [0, 2, 1]]
    assert cross_category_importance(counts) == pytest.approx(5 / 6)
    # a value that never occurs is left out of the mean
    assert cross_category_importance([[2, 0, 1, 0], [0, 2, 1, 0]]) == pytest.approx(5 / 6)
    # three classes, one value: sum_c P(c)^2 with P(c) = (1/2, 1/2, 0) gives 1/4 + 1/4 = 1/2
    assert cross_category_importance([[1], [1], [0]]) == pytest.approx(0.5)


def test_myopic_relieff_hand_computed():
    # A: P_samecl = 1/2, P_eqval = 1/2, P_samecl|eqval = (9+1+1+9)/64 / (1/2) = 5/8,
    # GG' = 5/8 - 1/2 = 1/8, W = (1/2)(1/8) / ((1/2)(1/2)) = 1/4
    assert myopic_relieff(A) == pytest.approx(0.25)
    # B: P_eqval = 9/16 + 1/16 = 5/8, sum P(c,x)^2 = 1/4 + 1/16 + 1/16 = 3/8,
    # P_samecl|eqval = 3/5, GG' = 1/10, W = (5/8)(1/10) / (1/4) = 1/4
    assert myopic_relieff(B) == pytest.approx(0.25)
    assert myopic_relieff([[1, 1], [1, 1]]) == pytest.approx(0)
    assert myopic_relieff([[3, 4]]) == 0  # one class: defined as 0


def pair_definition(counts):
    """P(diff value | diff class) - P(diff value | same class), two instances drawn
    independently with replacement: the definition the closed form must match."""
    p = np.asarray(counts, float) / np.sum(counts)
    same_class = diff_value_same = diff_value_diff = 0.0
    for (c1, x1), (c2, x2) in itertools.product(np.ndindex(p.shape), repeat=2):
        q = p[c1, x1] * p[c2, x2]
        if c1 == c2:
            same_class += q
            diff_value_same += q * (x1 != x2)
        else:
            diff_value_diff += q * (x1 != x2)
    return diff_value_diff / (1 - same_class) - diff_value_same / same_class


def test_myopic_relieff_equals_pair_probabilities_with_corrected_denominator():
    rng = np.random.default_rng(0)
    for shape in [(2, 2), (3, 2), (2, 4), (4, 3)]:
        counts = rng.integers(0, 6, size=shape) + (rng.random(shape) < 0.7)
        assert myopic_relieff(counts) == pytest.approx(pair_definition(counts), abs=1e-12)


@pytest.mark.parametrize("function", [mantaras_distance, entropy_distance,
                                      distribution_difference, cross_category_importance,
                                      myopic_relieff])
def test_bad_counts(function):
    with pytest.raises(ValueError, match="empty"):
        function([[0, 0], [0, 0]])
    with pytest.raises(ValueError, match="2-D"):
        function([1, 2])
    with pytest.raises(ValueError, match="non-negative"):
        function([[1, -1], [1, 1]])


def table_from_counts(*counts_per_feature):
    """Rows with the given class x value counts for each feature, all over the same rows
    in class order (each count table must have the same class totals)."""
    columns, y = [], None
    for counts in counts_per_feature:
        column, classes = [], []
        for c, row in enumerate(counts):
            for x, n in enumerate(row):
                column += [x] * n
                classes += [c] * n
        assert y is None or classes == y
        y = classes
        columns.append(column)
    attributes = [DiscreteVariable(f"f{i}", values=("0", "1")) for i in range(len(columns))]
    domain = Domain(attributes, DiscreteVariable("class", values=("0", "1")))
    return Table.from_numpy(domain, np.array(columns, float).T, np.array(y, float))


SCORERS = [(MantarasDistance, 1 - (2 - 2 / H_A), 1 - (2 - (1 + H_X_B) / 1.5)),
           (EntropyDistance, -(2 * H_A - 2), -(2 - H_X_B)),
           (DistributionDifference, 0.5, 0.5),
           (CCF, 0.625, 1.0),
           (MyopicReliefF, 0.25, 0.25)]


@pytest.mark.parametrize("scorer, score_a, score_b", SCORERS)
def test_scorers_on_tables(scorer, score_a, score_b):
    # f0 has table A = [[3, 1], [1, 3]]; f1 has [[4, 0], [2, 2]] = 2 x table B (same laws)
    data = table_from_counts(A, [[4, 0], [2, 2]])
    scores = scorer()(data)
    assert isinstance(scores, np.ndarray) and scores.shape == (2,)
    np.testing.assert_allclose(scores, [score_a, score_b])
    single = scorer()(data, "f1")
    assert isinstance(single, float) and single == pytest.approx(score_b)
    assert scorer().friendly_name == scorer.name and scorer.name


@pytest.mark.parametrize("scorer", [s[0] for s in SCORERS])
def test_higher_is_better(scorer):
    # f0 equals the class, f1 is independent of it
    data = table_from_counts([[2, 0], [0, 2]], [[1, 1], [1, 1]])
    better, worse = scorer()(data)
    assert better > worse


@pytest.mark.parametrize("scorer", [s[0] for s in SCORERS])
def test_missing_feature_values_are_left_out(scorer):
    data = table_from_counts(A)
    with_missing = Table.concatenate([data, data[:2]])
    with with_missing.unlocked():
        with_missing.X[-2:, 0] = np.nan
    assert scorer()(with_missing)[0] == pytest.approx(scorer()(data)[0])


def test_continuous_features_are_discretized_and_class_must_be_discrete():
    rng = np.random.default_rng(1)
    x = rng.random(60)
    y = (x > 0.5).astype(float)
    domain = Domain([ContinuousVariable("x"), ContinuousVariable("noise")],
                    DiscreteVariable("class", values=("0", "1")))
    data = Table.from_numpy(domain, np.column_stack([x, rng.random(60)]), y)
    for scorer, *_ in SCORERS:
        scores = scorer()(data)
        assert np.all(np.isfinite(scores)) and scores[0] > scores[1]
    regression = Table.from_numpy(Domain([ContinuousVariable("x")], ContinuousVariable("y")),
                                  x[:, None], x)
    with pytest.raises(ValueError, match="target"):
        MyopicReliefF()(regression)
