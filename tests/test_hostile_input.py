"""Hostile numbers get a clear error or the right answer, never a silent
wrong one (doc/semantics.md, "Hostile input"); and features that are the
same for every instance never move a weight."""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

from orangecontrib.relief import DReliefF, PDReliefF, ReliefF, relieff
from orangecontrib.relief.core import ReliefWarning
from orangecontrib.relief.sklearn import ReliefFSelector
from problems import random_problem

VARIANTS = ["relieff", "drelieff", "pdrelieff"]
COMPATS = [None, "weka"]


def problem(seed=0, n=60):
    rng = np.random.default_rng(seed)
    X = rng.random((n, 3))
    return X, (X[:, 0] + 0.2 * rng.random(n) > 0.6).astype(float)


@pytest.mark.parametrize("compat", COMPATS)
@pytest.mark.parametrize("value", [np.inf, -np.inf])
def test_infinite_feature_is_an_error_naming_it(compat, value):
    X, y = problem()
    X[5, 2] = value
    with pytest.raises(ValueError, match=r"feature 'c' \(column 2\) include "
                                         rf"{'[+]' if value > 0 else '-'}inf"):
        relieff(X, y, compat=compat, feature_names=["a", "b", "c"])
    X[6, 2] = -value
    with pytest.raises(ValueError, match="-inf and [+]inf.*NaN"):
        relieff(X, y, compat=compat)


@pytest.mark.parametrize("compat", COMPATS)
def test_sparse_infinite_feature_is_an_error(compat):
    X, y = problem()
    X[X < 0.5] = 0
    X[7, 1] = np.inf
    with pytest.raises(ValueError, match="feature 1 include [+]inf"):
        relieff(sp.csr_matrix(X), y, compat=compat)


@pytest.mark.parametrize("compat", COMPATS)
def test_infinite_target_is_an_error(compat):
    X, y = problem()
    target = X[:, 0].copy()
    target[3] = np.inf
    with pytest.raises(ValueError, match="target y holds [+]inf or -inf"):
        relieff(X, target, regression=True, compat=compat)
    with pytest.raises(ValueError, match="target y holds"):
        relieff(X, np.where(np.arange(60) == 3, np.inf, y), compat=compat)


@pytest.mark.filterwarnings("error::RuntimeWarning")
@pytest.mark.parametrize("compat", COMPATS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_range_beyond_the_largest_double_is_the_rescaled_data(compat,
                                                             variant):
    """+-1.5e308 (finite): max - min overflows; the weights are those of
    the same data rescaled, not all 0, and NumPy prints no overflow
    warning (the overflow is how such a column is found)."""
    X, y = problem()
    huge = X.copy()
    huge[:, 1] = (X[:, 1] * 2 - 1) * 1.5e308
    expected = relieff(X, y, variant=variant, compat=compat).weights
    np.testing.assert_allclose(
        relieff(huge, y, variant=variant, compat=compat).weights, expected,
        rtol=0, atol=1e-12)
    if compat is None:
        np.testing.assert_allclose(
            relieff(sp.csr_matrix(huge), y, variant=variant).weights,
            expected, rtol=0, atol=1e-12)
    target = (X[:, 2] * 2 - 1) * 1.5e308
    np.testing.assert_allclose(
        relieff(X, target, regression=True, variant=variant,
                compat=compat).weights,
        relieff(X, X[:, 2], regression=True, variant=variant,
                compat=compat).weights, rtol=0, atol=1e-12)


@pytest.mark.parametrize("value", [1e300, 2.0 ** 63, 1e20, -1.0, 2.5])
def test_class_that_is_no_code_is_the_class_code_error(value):
    """A float class given as codes but holding a value that is not a code
    0, 1, ... below 2^31 (as for nominal features) gets the add-on's
    sentence on every path: dense, sparse, both kernels, Weka's, STIR and
    the permutation test; never numpy's "'minlength' must not be negative"
    from a code that overflowed its cast to an integer."""
    from orangecontrib.relief import stats
    X, y = problem()
    y[4] = value
    message = r"class must be given as integer codes \(0, 1, \.\.\., " \
              r"below 2\^31\)"
    calls = [lambda: relieff(X, y), lambda: relieff(sp.csr_matrix(X), y),
             lambda: relieff(X, y, kernels="vectorised"),
             lambda: relieff(X, y, kernels="compiled"),
             lambda: relieff(X, y, compat="weka"),
             lambda: relieff(X, y, neighbours="multisurf"),
             lambda: stats.stir(X, y),
             lambda: stats.permutation_test(X, y, n_permutations=2)]
    for call in calls:
        with pytest.raises(ValueError, match=message):
            call()


def test_class_codes_end_below_2_to_the_31():
    """The largest class code is 2^31 - 1, as for nominal features (checked
    on the codes alone: a table with such a code would hold 2^31 counts)."""
    from orangecontrib.relief.core.contract.prepare import check_class_codes
    check_class_codes(np.array([0.0, 2.0 ** 31 - 1]))
    with pytest.raises(ValueError, match="below 2\\^31"):
        check_class_codes(np.array([0.0, 2.0 ** 31]))


@pytest.mark.parametrize("compat", COMPATS)
def test_text_is_a_clear_error(compat):
    X, y = problem()
    with pytest.raises(ValueError, match="y .the class. must hold numbers.*"
                                         "codes 0, 1"):
        relieff(X, np.where(y > 0, "yes", "no"), compat=compat)
    with pytest.raises(ValueError, match="X must hold numbers"):
        relieff(X.astype(str).astype(object) + "x", y, compat=compat)


@pytest.mark.parametrize("compat", COMPATS)
def test_nominal_error_names_the_column(compat):
    X, y = problem()
    with pytest.raises(ValueError, match=r"Nominal features.*feature 'b' "
                                         r"\(column 1\) does not"):
        relieff(X, y, [False, True, False], compat=compat,
                feature_names=["a", "b", "c"])
    X[:, 1] = np.round(X[:, 1] * 3)
    X[4, 1] = np.inf
    with pytest.raises(ValueError, match="Nominal features"):
        relieff(X, y, [False, True, False], compat=compat)


def test_scorer_names_the_column_and_the_missing_feature():
    table = Table("iris")
    with table.unlocked(table.X):
        table.X[3, 1] = np.inf
    with pytest.raises(ValueError, match="'sepal width' .column 1. include"):
        ReliefF()(table)
    table = Table("iris")
    with pytest.raises(ValueError, match="'no_such' is not a feature of the "
                                         "data; its features are 'sepal "
                                         "length'"):
        ReliefF()(table, "no_such")
    with pytest.raises(ValueError, match="'iris' is the target, not a "
                                         "feature"):
        DReliefF()(table, "iris")
    assert ReliefF()(table, "petal width") == ReliefF()(table)[3]
    assert ReliefF()(table, 2) == ReliefF()(table)[2]


def test_sklearn_selector_on_hostile_numbers():
    X, y = problem()
    X[:, 1] = (X[:, 1] * 2 - 1) * 1.5e308
    np.testing.assert_allclose(
        ReliefFSelector().fit(X, y).feature_importances_,
        relieff(*problem()).weights, rtol=0, atol=1e-12)
    X[3, 0] = np.inf
    with pytest.raises(ValueError, match="infinity"):
        ReliefFSelector().fit(X, y)


# -- no RuntimeWarning leaks ------------------------------------------------

@pytest.mark.parametrize("compat", COMPATS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_no_runtime_warning_with_nominal_columns(compat, variant):
    """No numpy RuntimeWarning ("All-NaN slice encountered", invalid
    value...) reaches the caller: nominal columns with missing values, one
    with no known value, dense, sparse, classification and regression."""
    X, y, nominal = random_problem(3, n=40, a=6, missing=0.2)
    X[:, 1] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        warnings.simplefilter("ignore", ReliefWarning)
        relieff(X, y, nominal, variant=variant, compat=compat)
        relieff(X, X[:, 0], nominal, regression=True, variant=variant,
                compat=compat)
        relieff(sp.csr_matrix(np.nan_to_num(X)), y, nominal,
                variant=variant, compat=compat)
        relieff(X, np.where(np.arange(40) < 3, np.nan, y), nominal,
                variant=variant, compat=compat)
        ReliefF(compat=compat)(Table("heart_disease"))


# -- a constant feature never moves a weight ---------------------------------

def with_constants(X, nominal, positions, missing):
    """X with constant columns inserted at ``positions``: a numeric one, a
    nominal one and (``missing``) a numeric one with missing values."""
    X, nominal = X.copy(), list(nominal)
    for k, at in enumerate(positions):
        column = np.full(X.shape[0], [2.5, 1.0, 7.0][k % 3])
        if missing and k % 3 == 2:
            column[::4] = np.nan
        X = np.insert(X, at, column, axis=1)
        nominal.insert(at, k % 3 == 1)
    return X, np.array(nominal)


@pytest.mark.parametrize("compat", COMPATS)
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("regression", [False, True])
def test_constant_columns_change_no_weight(compat, variant, regression):
    """For every variant: constant features take no part in distances, so
    the others' weights are the same, to the last bit (Weka's rule: a
    constant numeric feature with a missing value is not constant there --
    its diff is 1 -- so compat='weka' is checked without one)."""
    X, y, nominal = random_problem(11, n=50, a=5, missing=0.1)
    if regression:
        y = np.nan_to_num(X[:, 0]) + np.arange(50) % 7
    positions = [0, 3, 2, 7, 5, 1]
    wide, wide_nominal = with_constants(X, nominal, positions,
                                        missing=compat is None)
    kept = np.array([not np.all(wide[~np.isnan(wide[:, f]), f]
                                == wide[~np.isnan(wide[:, f]), f][0])
                     for f in range(wide.shape[1])])
    options = dict(variant=variant, regression=regression, compat=compat,
                   k_nearest=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReliefWarning)
        expected = relieff(X, y, nominal, **options).weights
        weights = relieff(wide, y, wide_nominal, **options).weights
    np.testing.assert_array_equal(weights[kept], expected)
    np.testing.assert_array_equal(weights[~kept], 0.0)


def all_zero_rule_fires(X, y, T, compat):
    """Whether pdReliefF's distance weights of the features are all 0 at
    some visit (so that every w_A is 1 there)."""
    trace = relieff(X, y, variant="pdrelieff", T=T, trace_every=1,
                    k_nearest=3, compat=compat).trace
    for t in range(2, len(trace) + 1):
        w = (1.0 - trace[t - 2]) / t ** T + trace[t - 2]
        if np.all(w <= t * 2.0 ** -52):
            return True
    return False


@pytest.mark.parametrize("compat", COMPATS)
def test_constant_column_keeps_pdrelieff_every_weight_zero_rule(compat):
    """pdReliefF gives a constant feature f(0, t) = 1/t^T, above the
    residue t 2^-52 for t < 2^(52 / (T + 1)); were it counted, "every w_A
    is 0" could not hold there and the weights would move.  Data where the
    rule fires, with and without constant columns."""
    rng = np.random.default_rng(4)
    X = rng.random((30, 3))
    y = rng.integers(0, 2, 30).astype(float)
    T = 5.0
    assert all_zero_rule_fires(X, y, T, compat)
    wide, wide_nominal = with_constants(X, [False] * 3, [0, 2, 4], False)
    options = dict(variant="pdrelieff", T=T, k_nearest=3, compat=compat)
    np.testing.assert_array_equal(
        np.delete(relieff(wide, y, wide_nominal, **options).weights,
                  [0, 2, 4]),
        relieff(X, y, **options).weights)


def test_scorers_with_constant_columns():
    table = Table("heart_disease")
    domain = Domain(table.domain.attributes
                    + (ContinuousVariable("flat"),
                       DiscreteVariable("one", values=("a", "b"))),
                    table.domain.class_var)
    flat = Table.from_numpy(domain, np.c_[table.X, np.full(len(table), 4.0),
                                          np.zeros(len(table))], table.Y)
    for scorer in (ReliefF(), DReliefF(), PDReliefF(), PDReliefF(T=0.3),
                   ReliefF(compat="weka"), PDReliefF(compat="weka")):
        np.testing.assert_array_equal(scorer(flat)[:-2], scorer(table))


def test_evaluation_widget_takes_the_largest_score_without_warning():
    """Relief Evaluation reads a scorer's several rows of scores (e.g. one
    per class) as the largest per feature; a feature with no score in any
    row gets NaN, without numpy's "All-NaN slice" warning."""
    from orangecontrib.relief.widgets.owreliefevaluation import ScorerWeights

    rows = np.array([[0.5, np.nan, 0.1, 0.2], [0.7, np.nan, np.nan, 0.1]])
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        weights = ScorerWeights(lambda data: rows)(Table("iris"))
    np.testing.assert_array_equal(weights, [0.7, np.nan, 0.1, 0.2])
