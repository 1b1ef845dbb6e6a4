"""The data set functions reproduce the classic files and rules on every row."""
import itertools

import numpy as np
import pytest
from Orange.data import DiscreteVariable

from orangecontrib.relief.datasets import (
    DATA_DIR, LED_PATTERNS, corral, important_features, led, led24, modulo, monk, monk_rule)


def codes(table):
    """Feature values and class as the integers written in the value names."""
    X = np.array([[int(var.values[int(v)]) for var, v in zip(table.domain.attributes, row)]
                  for row in table.X])
    y = np.array([int(table.domain.class_var.values[int(v)]) for v in table.Y])
    return X, y


def raw(filename):
    return np.loadtxt(DATA_DIR / filename, delimiter="\t", skiprows=1, dtype=int)


def assert_relevant_flags(table, expected):
    assert important_features(table) == list(expected)
    for var in table.domain.attributes:
        assert isinstance(var, DiscreteVariable)
        assert var.attributes["relevant"] is (var.name in expected)
    assert table.domain.class_var.name == "class"


# --- CorrAl -----------------------------------------------------------------

def test_corral_rule_holds_on_all_rows():
    table = corral()
    assert table.X.shape == (160, 6)
    assert [v.name for v in table.domain.attributes] == \
        ["A0", "A1", "B0", "B1", "Irrelevant", "Correlated"]
    assert_relevant_flags(table, ["A0", "A1", "B0", "B1"])
    X, y = codes(table)
    a0, a1, b0, b1, irrelevant, correlated = X.T
    np.testing.assert_array_equal(y, (a0 & a1) | (b0 & b1))
    assert np.sum(correlated == y) == 120  # 75 %
    assert np.sum(irrelevant == y) == 80  # 50 %
    assert np.bincount(y).tolist() == [90, 70]
    np.testing.assert_array_equal(np.column_stack([X, y]), raw("corral.tsv"))


def test_corral_32_is_the_classic_training_set():
    X, y = codes(corral(rows=32))
    assert X.shape == (32, 6)
    combos = {tuple(row) for row in X[:, :5]}
    assert combos == set(itertools.product((0, 1), repeat=5))
    np.testing.assert_array_equal(X, codes(corral())[0][:32])


@pytest.mark.parametrize("rows", [0, 31, 100, 161, True, "32"])
def test_corral_refuses_other_sizes(rows):
    with pytest.raises(ValueError, match="160"):
        corral(rows=rows)


# --- MONK -------------------------------------------------------------------

def monk1(X):
    return ((X[:, 0] == X[:, 1]) | (X[:, 4] == 1)).astype(int)


def monk3(X):
    a2, a4, a5 = X[:, 1], X[:, 3], X[:, 4]
    return (((a5 == 3) & (a4 == 1)) | ((a5 != 4) & (a2 != 3))).astype(int)


def test_monk1_rule_on_train_and_test():
    for split, n in (("train", 124), ("test", 432)):
        table = monk(1, split)
        assert_relevant_flags(table, ["a1", "a2", "a5"])
        X, y = codes(table)
        assert X.shape == (n, 6)
        np.testing.assert_array_equal(y, monk1(X))
    np.testing.assert_array_equal(np.column_stack(codes(monk(1, "train"))),
                                  raw("monk1_train.tsv"))


def test_monk3_rule_on_test_and_six_exceptions_in_train():
    X, y = codes(monk(3, "test"))
    np.testing.assert_array_equal(y, monk3(X))
    X, y = codes(monk(3, "train"))
    assert X.shape == (122, 6)
    assert np.sum(y != monk3(X)) == 6
    assert_relevant_flags(monk(3), ["a2", "a4", "a5"])


@pytest.mark.parametrize("problem", [1, 3])
def test_generated_test_set_equals_uci_file(problem):
    X, y = codes(monk(problem, "test"))
    np.testing.assert_array_equal(np.column_stack([X, y]), raw(f"monk{problem}_test.tsv"))


def test_monk_test_lists_all_combinations_with_uci_values():
    table = monk(2, "test")
    assert [var.values for var in table.domain.attributes] == [
        ("1", "2", "3"), ("1", "2", "3"), ("1", "2"), ("1", "2", "3"),
        ("1", "2", "3", "4"), ("1", "2")]
    X, y = codes(table)
    assert len({tuple(row) for row in X}) == 432 == 3 * 3 * 2 * 3 * 4 * 2
    np.testing.assert_array_equal(y, (X == 1).sum(axis=1) == 2)
    # UCI monks-2.test has 142 positive and 290 negative rows
    assert np.bincount(y).tolist() == [290, 142]
    assert_relevant_flags(table, ["a1", "a2", "a3", "a4", "a5", "a6"])


def test_monk_all_is_train_then_test():
    table = monk(1, "all")
    assert len(table) == 124 + 432
    np.testing.assert_array_equal(table.X[:124], monk(1, "train").X)
    np.testing.assert_array_equal(table.X[124:], monk(1, "test").X)
    assert_relevant_flags(table, ["a1", "a2", "a5"])


def test_monk_rule_function_matches():
    X = np.array(list(itertools.product((1, 2, 3), (1, 2, 3), (1, 2), (1, 2, 3),
                                        (1, 2, 3, 4), (1, 2))))
    np.testing.assert_array_equal(monk_rule(1, X), monk1(X))
    np.testing.assert_array_equal(monk_rule(3, X), monk3(X))


@pytest.mark.parametrize("problem, split, message", [
    (4, "test", "problem must be 1, 2 or 3"),
    (1, "validation", "split must be"),
    (2, "train", "MONK-2 training file is not bundled"),
    (2, "all", "MONK-2 training file is not bundled"),
])
def test_monk_bad_arguments(problem, split, message):
    with pytest.raises(ValueError, match=message):
        monk(problem, split)


# --- Modulo-p-I -------------------------------------------------------------

def test_modulo_class_rule_shapes_and_flags():
    table = modulo(4, 3, 2, 500, random_state=1)
    assert table.X.shape == (500, 5)
    assert_relevant_flags(table, ["I1", "I2", "I3"])
    X, y = codes(table)
    assert X.min() == 0 and X.max() == 3
    np.testing.assert_array_equal(y, X[:, :3].sum(axis=1) % 4)
    assert table.domain.class_var.values == ("0", "1", "2", "3")


def test_modulo_seed():
    a = modulo(2, 2, 3, 50, random_state=7)
    b = modulo(2, 2, 3, 50, random_state=7)
    c = modulo(2, 2, 3, 50, random_state=8)
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.Y, b.Y)
    assert not np.array_equal(a.X, c.X)


@pytest.mark.parametrize("args", [(1, 2, 0, 10), (2, 0, 3, 10), (2, 2, -1, 10),
                                  (2, 2, 0, 0), (2.5, 2, 0, 10)])
def test_modulo_bad_arguments(args):
    with pytest.raises(ValueError, match="must be an integer"):
        modulo(*args)


# --- LED --------------------------------------------------------------------

def test_led_noise_free_gives_canonical_patterns():
    table = led(n_irrelevant=3, n_instances=200, noise=0, random_state=3)
    assert table.X.shape == (200, 10)
    assert_relevant_flags(table, [f"seg{i}" for i in range(1, 8)])
    X, y = codes(table)
    np.testing.assert_array_equal(X[:, :7], LED_PATTERNS[y])
    assert set(y) == set(range(10))
    assert table.domain.class_var.values == tuple(str(d) for d in range(10))


def test_led_noise_rate():
    # 20000 rows x 7 bits: the standard error of the flip rate is
    # sqrt(0.1 * 0.9 / 140000) = 0.0008, so 0.005 is a six-sigma tolerance.
    X, y = codes(led(n_instances=20000, noise=0.1, random_state=0))
    flip_rate = np.mean(X[:, :7] != LED_PATTERNS[y])
    assert abs(flip_rate - 0.1) < 0.005
    assert abs(X[:, 7:].mean() - 0.5) < 0.01  # 340000 fair coins
    assert X.shape[1] == 24


def test_led_seed():
    a, b = led(n_instances=100, random_state=5), led(n_instances=100, random_state=5)
    c = led(n_instances=100, random_state=6)
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.Y, b.Y)
    assert not np.array_equal(a.X, c.X)


@pytest.mark.parametrize("noise", [-0.1, 1.5, "0.1"])
def test_led_bad_noise(noise):
    with pytest.raises(ValueError, match="noise"):
        led(noise=noise)


def test_led24_bundled_file():
    table = led24()
    assert table.X.shape == (3200, 24)
    assert_relevant_flags(table, [f"seg{i}" for i in range(1, 8)])
    X, y = codes(table)
    agreement = np.mean(X[:, :7] == LED_PATTERNS[y])
    assert 0.89 < agreement < 0.905  # README: 89.7 %, i.e. 10 % flip noise
    counts = np.bincount(y)
    assert counts.min() == 296 and counts.max() == 337
    np.testing.assert_array_equal(np.column_stack([X, y]), raw("led24.tsv"))


def test_important_features_needs_a_table_or_domain():
    assert important_features(corral().domain) == ["A0", "A1", "B0", "B1"]
    with pytest.raises(ValueError, match="Orange Table or Domain"):
        important_features([1, 2])
