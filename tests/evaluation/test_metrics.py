"""Separability, usability, minimality and completeness on hand-made weights."""
import numpy as np
import pytest

from orangecontrib.relief.datasets import corral
from orangecontrib.relief.evaluation import (
    completeness, minimality, separability, usability, weight_quality)

MEASURES = [separability, usability, minimality, completeness]


def test_positive_separability():
    # I = {0, 1} with weights 0.9, 0.6; R = {2, 3} with 0.2, -0.1.
    w = [0.9, 0.6, 0.2, -0.1]
    assert separability(w, [0, 1]) == pytest.approx(0.6 - 0.2)
    assert usability(w, [0, 1]) == pytest.approx(0.9 - 0.2)
    assert minimality(w, [0, 1]) == 1.0   # M = {0, 1}
    assert completeness(w, [0, 1]) == 1.0  # C = {0, 1}


def test_negative_separability():
    # order: f3 (0.8, R) > f0 (0.7, I) > f4 (0.5, R) > f1 (0.4, I) > f2 (0.1, I)
    w = [0.7, 0.4, 0.1, 0.8, 0.5]
    important = [0, 1, 2]
    assert separability(w, important) == pytest.approx(0.1 - 0.8)  # -0.7
    assert usability(w, important) == pytest.approx(0.7 - 0.8)     # -0.1
    assert minimality(w, important) == 3 / 5   # M = every feature with W >= 0.1
    assert completeness(w, important) == 0.0  # nothing beats W_R,best = 0.8
    # move f0 above f3: u > 0, C = {f0}
    w[0] = 0.95
    assert usability(w, important) == pytest.approx(0.15)
    assert completeness(w, important) == 1 / 3
    assert minimality(w, important) == 3 / 5


def test_ties():
    # I = {0, 1}: 0.5, 0.3; R = {2}: 0.3. The tie between f1 and f2 gives s = 0,
    # puts f2 into M (W >= 0.3) and keeps f1 out of C (W > 0.3 is strict).
    w = [0.5, 0.3, 0.3]
    assert separability(w, [0, 1]) == 0.0
    assert usability(w, [0, 1]) == pytest.approx(0.2)
    assert minimality(w, [0, 1]) == 2 / 3
    assert completeness(w, [0, 1]) == 1 / 2
    # all equal: s = u = 0, M = all, C = empty
    assert weight_quality([1, 1, 1, 1], [0]) == (0.0, 0.0, 0.25, 0.0)


def test_forms_of_important_agree():
    w = np.array([0.2, 0.9, -0.3, 0.4, 0.1, 0.5])
    data = corral()  # relevant: A0 A1 B0 B1 = indices 0..3
    names = [var.name for var in data.domain.attributes]
    expected = weight_quality(w, [0, 1, 2, 3])
    assert expected == (pytest.approx(-0.3 - 0.5), pytest.approx(0.9 - 0.5), 4 / 6, 1 / 4)
    assert weight_quality(w, [True] * 4 + [False] * 2) == expected
    assert weight_quality(w, ["A0", "A1", "B0", "B1"], names=names) == expected
    assert weight_quality(w, ["A0", "A1", "B0", "B1"], names=data) == expected
    assert weight_quality(w, data) == expected
    assert weight_quality(w, data.domain) == expected
    assert weight_quality(w, np.array([3, 2, 1, 0])) == expected


@pytest.mark.parametrize("measure", MEASURES)
@pytest.mark.parametrize("important, message", [
    ([], "empty"),
    ([False, False, False], "empty"),
    ([0, 1, 2], "Every feature"),
    ([True, True, True], "Every feature"),
    ([True, False], "one entry per feature"),
    ([5], r"indices must be in \[0, 3\)"),
    (["a"], "pass names="),
    ([0.5], "list of feature indices"),
])
def test_bad_important(measure, important, message):
    with pytest.raises(ValueError, match=message):
        measure([0.1, 0.2, 0.3], important)


def test_bad_names_and_weights():
    with pytest.raises(ValueError, match="Unknown feature names"):
        separability([0.1, 0.2], ["c"], names=["a", "b"])
    with pytest.raises(ValueError, match="one name per feature"):
        separability([0.1, 0.2], ["a"], names=["a", "b", "c"])
    with pytest.raises(ValueError, match="NaN at positions \\[1\\]"):
        separability([0.1, np.nan, 0.3], [0])
    with pytest.raises(ValueError, match="1-D"):
        separability([[0.1, 0.2]], [0])
    with pytest.raises(ValueError, match="6 features but there are 3 weights"):
        separability([0.1, 0.2, 0.3], corral())
