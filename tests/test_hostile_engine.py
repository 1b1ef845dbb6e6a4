"""Hostile input to the engine and the scorers built on it (issue 38, items
7, 8, 9, 10, 16): huge codes and options cost what the data needs, edges
of TuRF give weights, and every bad value gets a sentence naming the
option, the column or the environment variable."""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from Orange.data import Domain, Table

from orangecontrib.relief import ReliefF, relieff, stats
from orangecontrib.relief.core import ReliefWarning
from orangecontrib.relief.core.contract.prepare import prepare
from orangecontrib.relief.wrappers.iterated import Iter, iter_relief
from orangecontrib.relief.wrappers.turf import TuRF, turf
from orangecontrib.relief.wrappers.vls import VLS, vls
from devices import needs_cuda

VARIANTS = ["relieff", "drelieff", "pdrelieff"]
COMPATS = [None, "weka"]


def problem(seed=0, n=40, missing=True):
    """Three numeric features, three classes (codes 0, 1, 2), a few
    missing values (RELIEF-D's tables)."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, 3))
    y = (X[:, 0] > 0.5).astype(float)
    y[:6] = 2
    if missing:
        X[3, 1] = X[8, 2] = X[11, 0] = np.nan
    return X, y


# -- item 7: class codes no row uses cost nothing ---------------------------

@pytest.mark.parametrize("compat", COMPATS)
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("code", [3000, 2 ** 31 - 1])
def test_unused_class_codes_change_no_weight(compat, variant, code):
    """Codes {0, 1, 3000} give the weights of {0, 1, 2}, bit for bit, with
    missing values (RELIEF-D's class tables were (code + 1)^2: 242 s for
    3000; 2^31 - 1 was a MemoryError)."""
    X, y = problem()
    sparse_y = np.where(y == 2, code, y)
    expected = relieff(X, y, compat=compat, variant=variant).weights
    got = relieff(X, sparse_y, compat=compat, variant=variant).weights
    np.testing.assert_array_equal(got, expected)


def test_tables_are_sized_by_the_classes_present():
    X, y = problem()
    prep = prepare(X, np.where(y == 2, 3000, y))
    assert prep.n_classes == 3
    np.testing.assert_array_equal(prep.class_codes, [0, 1, 3000])
    np.testing.assert_array_equal(prep.class_counts, np.bincount(
        y.astype(int)))
    assert prep.missing.num_both.shape == (3, 3, 3)


def test_unused_class_codes_on_every_path():
    """The radius rules, sparse data, STIR and regression-free paths read
    the same re-coded classes."""
    X, y = problem(missing=False)
    sparse_y = np.where(y == 2, 10 ** 6, y)
    for call in (lambda t: relieff(X, t, neighbours="multisurf").weights,
                 lambda t: relieff(sp.csr_matrix(X), t).weights,
                 lambda t: relieff(X, t, misses="any").weights,
                 lambda t: relieff(X, t, variant="irelief").weights,
                 lambda t: stats.stir(X, t).p_values):
        np.testing.assert_array_equal(call(sparse_y), call(y))


def test_weka_keeps_its_declared_classes():
    """Weka weights misses by P(C) / (1 - P(class)) when more than two class
    values are declared: codes {0, 5} declare six, as n_class_values=6
    does for {0, 1}."""
    X, y = problem(missing=False)
    y[y == 2] = 0
    declared = relieff(X, y, compat="weka", n_class_values=6).weights
    np.testing.assert_array_equal(
        relieff(X, np.where(y == 1, 5, y), compat="weka").weights, declared)


def test_class_size_warning_names_the_code():
    X, y = problem(missing=False)
    y = np.where(y == 2, 3000, y)
    with pytest.warns(ReliefWarning, match=r"class code 3000 \(6 instances\)"):
        relieff(X, y, k_nearest=6)
    with pytest.warns(ReliefWarning, match=r"class 'c' \(6 instances\)"):
        relieff(X, np.where(y == 3000, 2, y), k_nearest=6,
                class_names=["a", "b", "c"])


def test_unused_nominal_codes_change_no_weight():
    """A nominal feature whose codes reach 2^31 - 1, with missing values
    (RELIEF-D's P(v | c) table was sized by the largest code: 96 GiB)."""
    rng = np.random.default_rng(1)
    X = rng.integers(0, 3, (40, 3)).astype(float)
    y = (X[:, 0] > 1).astype(float)
    X[3, 1] = X[5, 0] = np.nan
    nominal = np.ones(3, bool)
    expected = relieff(X, y, nominal).weights
    np.testing.assert_array_equal(
        relieff(X, y, nominal, variant="drelieff").weights,
        relieff(np.where(X == 2, 2 ** 31 - 1, X), y, nominal,
                variant="drelieff").weights)
    np.testing.assert_array_equal(
        relieff(np.where(X == 2, 2 ** 31 - 1, X), y, nominal).weights,
        expected)


@needs_cuda
def test_unused_class_codes_and_huge_k_on_the_gpu():
    """The GPU backend's per-class tables read the same re-coded classes
    and the clipped k (numba's simulator where there is no GPU)."""
    X, y = problem(n=16)
    expected = relieff(X, y, device="cuda", k_nearest=3).weights
    np.testing.assert_array_equal(
        relieff(X, np.where(y == 2, 3000, y), device="cuda",
                k_nearest=3).weights, expected)
    np.testing.assert_array_equal(
        relieff(X, y, device="cuda", k_nearest=10 ** 12).weights,
        relieff(X, y, device="cuda", k_nearest=15).weights)


# -- item 8: huge integer options -------------------------------------------

@pytest.mark.parametrize("missing", [False, True])
@pytest.mark.parametrize("variant", VARIANTS)
def test_k_beyond_the_data_is_all_the_instances(variant, missing):
    """k_nearest=10**12 allocated np.ones(k) (7.28 TiB); a class with fewer
    than k other instances contributes all of them, so any k >= n - 1 gives
    the same weights."""
    X, y = problem(n=30, missing=missing)
    for options in (dict(), dict(weight_by_distance=True),
                    dict(misses="any"), dict(regression=True)):
        target = X[:, 2] if options.get("regression") else y
        if options.get("regression"):
            target = np.nan_to_num(target)
        runs = [relieff(X, target, variant=variant, k_nearest=k,
                        **options).weights for k in (29, 35, 10 ** 12)]
        for weights in runs[1:]:
            np.testing.assert_array_equal(weights, runs[0])


def test_huge_k_in_weka_scorers_and_stats():
    X, y = problem(n=30)
    np.testing.assert_array_equal(
        relieff(X, y, compat="weka", k_nearest=10 ** 12).weights,
        relieff(X, y, compat="weka", k_nearest=29).weights)
    np.testing.assert_array_equal(
        stats.stir(X, y, k_nearest=10 ** 12).weights,
        stats.stir(X, y, k_nearest=29).weights)
    table = Table("iris")
    np.testing.assert_array_equal(ReliefF(k_nearest=10 ** 12)(table),
                                  ReliefF(k_nearest=149)(table))


def test_other_huge_integer_options():
    X, y = problem()
    with pytest.raises(ValueError, match="n_iterations must be a whole "
                                         "number between 1 and 40"):
        relieff(X, y, n_iterations=10 ** 12)
    plain = relieff(X, y).weights
    np.testing.assert_array_equal(
        relieff(X, y, trace_every=10 ** 12).weights, plain)
    np.testing.assert_array_equal(relieff(X, y, n_jobs=10 ** 12).weights,
                                  plain)
    np.testing.assert_array_equal(
        turf(X, y, rounds=10 ** 12, n_keep=10 ** 12)[0], plain)


def test_refit_counts_beyond_memory_name_the_option():
    """n_permutations=10**12 was numpy's "Unable to allocate 21.8 TiB" (the
    null's rows are kept before the first refit)."""
    X, y = problem(missing=False)
    for option, call in (
            ("n_permutations", lambda: stats.permutation_test(
                X, y, n_permutations=10 ** 12)),
            ("n_permutations", lambda: stats.permutation_test(
                X, y, n_permutations=10 ** 12, permute="feature")),
            ("n_permutations", lambda: stats.npdr_permutation(
                X, y, n_permutations=10 ** 12)),
            ("n_resamples", lambda: stats.stability(X, y,
                                                    n_resamples=10 ** 12))):
        with pytest.raises(ValueError, match=f"{option}=1000000000000 keeps "
                                             "1,000,000,000,000 rows"):
            call()


# -- item 9: TuRF (and Iter, VLS) at their edges -----------------------------

def test_turf_keeping_every_feature_is_one_run_of_its_scorer():
    """n_keep >= the number of features gave [nan nan nan nan] on iris."""
    iris = Table("iris")
    plain = ReliefF()(iris)
    for n_keep in (4, 5, 100):
        np.testing.assert_array_equal(TuRF(ReliefF(), n_keep=n_keep)(iris),
                                      plain)
    weights, removed = turf(iris.X, iris.Y, n_keep=4)
    np.testing.assert_array_equal(weights, plain)
    assert removed == []


def test_one_feature_through_turf_iter_and_vls():
    iris = Table("iris")
    one = iris.transform(Domain(iris.domain.attributes[:1],
                                iris.domain.class_var))
    plain = ReliefF()(one)
    assert np.isfinite(plain).all()
    for wrapper in (TuRF(ReliefF()), TuRF(ReliefF(), remove=0.5, n_keep=3),
                    Iter(ReliefF()), VLS(ReliefF())):
        np.testing.assert_array_equal(wrapper(one), plain)
    X = iris.X[:, :1]
    for weights in (turf(X, iris.Y)[0], iter_relief(X, iris.Y)[0],
                    vls(X, iris.Y)[0]):
        np.testing.assert_array_equal(weights, plain)


# -- item 10: instance weights ----------------------------------------------

def test_instance_weights_are_used():
    """Issue 40 replaced the warning that Table.W is ignored: the scorers
    use it (tests/test_instance_weights_surfaces.py has the numbers)."""
    from orangecontrib.relief.scoring import has_instance_weights
    iris = Table("iris")
    assert not has_instance_weights(iris)
    weighted = iris.copy()
    with weighted.unlocked():
        weighted.set_weights(1.0)
    assert not has_instance_weights(weighted)       # all 1: no weights
    with warnings.catch_warnings():
        warnings.simplefilter("error", ReliefWarning)
        np.testing.assert_array_equal(ReliefF()(weighted), ReliefF()(iris))
    with weighted.unlocked():
        weighted.W[:50] = 3.0
    assert has_instance_weights(weighted)
    assert np.abs(ReliefF()(weighted) - ReliefF()(iris)).max() > 1e-6


# -- item 16: clear errors ---------------------------------------------------

@pytest.mark.parametrize("compat", COMPATS)
def test_complex_values_are_refused_naming_the_column(compat):
    """Complex X was cut to its real part without a word."""
    X, y = problem(missing=False)
    Xc = X.astype(complex)
    Xc[5, 2] += 2j
    names = ["a", "b", "c"]
    with pytest.raises(ValueError, match=r"X holds complex numbers \(feature "
                                         r"'c' \(column 2\), row 5"):
        relieff(Xc, y, compat=compat, feature_names=names)
    with pytest.raises(ValueError, match=r"feature 2: .*real numbers"):
        relieff(sp.csr_matrix(Xc), y, compat=compat)
    with pytest.raises(ValueError, match=r"y \(the class\) holds complex"):
        relieff(X, y + 1j, compat=compat)
    # no imaginary part: nothing is lost, the real numbers' weights
    np.testing.assert_array_equal(
        relieff(X.astype(complex), y, compat=compat).weights,
        relieff(X, y, compat=compat).weights)


def test_complex_values_at_every_entry_point():
    X, y = problem(missing=False)
    Xc = X.astype(complex)
    Xc[0, 1] = 1j
    for call in (lambda: stats.stir(Xc, y),
                 lambda: stats.permutation_test(Xc, y, n_permutations=2),
                 lambda: stats.npdr(Xc, y),
                 lambda: turf(Xc, y), lambda: iter_relief(Xc, y),
                 lambda: vls(Xc, y),
                 lambda: relieff(Xc, y, variant="irelief")):
        with pytest.raises(ValueError, match="complex numbers"):
            call()


BAD_SEEDS = ["abc", -1, 1.5, True]


@pytest.mark.parametrize("seed", BAD_SEEDS)
def test_bad_random_state_names_the_option(seed):
    """numpy's "expected non-negative integer" or "SeedSequence expects
    int" did not say which option was wrong."""
    X, y = problem()
    message = r"random_state must be a seed: a whole number >= 0"
    for call in (lambda: relieff(X, y, random_state=seed),
                 lambda: relieff(X, y, random_state=seed, n_iterations=5),
                 lambda: ReliefF(random_state=seed),
                 lambda: stats.stir(X, y, random_state=seed),
                 lambda: turf(X, y, random_state=seed),
                 lambda: iter_relief(X, y, random_state=seed)):
        with pytest.raises(ValueError, match=message):
            call()
    pytest.importorskip("distributed")
    from orangecontrib.relief import distributed     # (checked before any
    with pytest.raises(ValueError, match=message):   # client is needed)
        distributed.relieff(X, y, random_state=seed)
    with pytest.raises(ValueError, match="permutation_seed must be a seed"):
        stats.permutation_test(X, y, n_permutations=2,
                               permutation_seed=seed)
    with pytest.raises(ValueError, match="resample_seed must be a seed"):
        stats.stability(X, y, n_resamples=2, resample_seed=seed)


def test_good_seeds_still_work():
    X, y = problem()
    first = relieff(X, y, n_iterations=20, random_state=3).weights
    np.testing.assert_array_equal(
        relieff(X, y, n_iterations=20,
                random_state=np.random.default_rng(3)).weights, first)
    relieff(X, y, n_iterations=20, random_state=None)
    # Weka's -D seed is any Java long
    relieff(X, y, compat="weka", random_state=-1)


def test_bad_T_and_sigma_are_value_errors():
    X, y = problem()
    with pytest.raises(ValueError, match="T must be a positive number"):
        relieff(X, y, variant="pdrelieff", T="a")
    with pytest.raises(ValueError, match="sigma must be a positive number"):
        relieff(X, y, weight_by_distance=True, sigma="a")


@pytest.mark.parametrize("variable, value, valid", [
    ("ORANGE3_RELIEF_DEVICE", "gpu", "'cpu', 'cuda' or 'auto'"),
    ("ORANGE3_RELIEF_KERNELS", "fast",
     "'compiled', 'vectorised', 'cuda' or 'auto'")])
def test_environment_variables_are_named(monkeypatch, variable, value,
                                         valid):
    X, y = problem()
    monkeypatch.setenv(variable, value)
    with pytest.raises(ValueError, match=f"The environment variable "
                                         f"{variable} must be {valid}; "
                                         f"got '{value}'"):
        relieff(X, y)
    with pytest.raises(ValueError, match=variable):
        ReliefF()(Table("iris"))
