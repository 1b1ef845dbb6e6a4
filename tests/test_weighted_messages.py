"""The engine's sentences with instance weights say what they count
(issue 40): the n_iterations bound counts the rows left after those of
weight 0, and says so; the small-class warning prints the classes' total
weights it compares with k, beside their rows."""
import warnings

import numpy as np
import pytest

from orangecontrib.relief import relieff


def _data():
    X = np.random.default_rng(0).random((12, 3))
    y = np.array([0] * 9 + [1] * 3)
    return X, y


def test_n_iterations_says_rows_of_weight_0_are_left_out():
    X, y = _data()
    weights = np.ones(12)
    weights[:2] = 0
    with pytest.raises(ValueError, match=r"between 1 and 10, or None for "
                       r"all \(the data has 10 instances to visit, 2 rows "
                       r"of instance weight 0 left out\); got 11\."):
        relieff(X, y, n_iterations=11, instance_weights=weights)


def test_n_iterations_says_rows_of_an_unknown_target_are_left_out():
    X, y = _data()
    y = y.astype(float)
    y[3] = np.nan
    with pytest.warns(UserWarning), pytest.raises(
            ValueError, match=r"\(the data has 11 instances to visit, 1 row "
                              r"with an unknown target left out\); got 12"):
        relieff(X, y, n_iterations=12)


def test_n_iterations_of_complete_unweighted_data_as_before():
    X, y = _data()
    with pytest.raises(ValueError, match=r"or None for all \(the data has "
                                         r"12 instances\); got 13\.$"):
        relieff(X, y, n_iterations=13)


def test_small_class_warning_prints_the_weight_it_compares():
    X, y = _data()
    weights = np.ones(12)
    weights[9] = 0.5            # class 1: 3 rows of total weight 2.5 <= 3
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        relieff(X, y, k_nearest=3, instance_weights=weights)
    texts = [str(w.message) for w in caught if "k_nearest" in
             str(w.message)]
    assert texts == ["k_nearest=3 is not smaller than class code 1 (3 "
                     "instances of total instance weight 2.5); such a class "
                     "contributes all its instances."]
    # weights that lift the class above k: no warning, although its rows
    # are not more than k
    weights[9:] = 2.0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        relieff(X, y, k_nearest=3, instance_weights=weights)
    assert not [w for w in caught if "k_nearest" in str(w.message)]
