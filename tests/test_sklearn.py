"""The scikit-learn selector: estimator contract, same weights as the engine,
numpy / pandas / sparse input, and use inside a Pipeline."""
import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.model_selection import cross_val_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline
from sklearn.utils.estimator_checks import parametrize_with_checks

from orangecontrib.relief import ReliefWarning, relieff
from orangecontrib.relief import stats
from orangecontrib.relief import sklearn as sklearn_module
from orangecontrib.relief.sklearn import ReliefFSelector
from devices import (TOLERANCE, needs_cuda, no_gpu,  # noqa: F401
                     recording_engine, recording_runs, tiny)
from orangecontrib.relief.core import engine


@pytest.mark.filterwarnings("ignore::orangecontrib.relief.ReliefWarning")
def sequential_weights(estimator):
    """The checks a sequential variant cannot pass: its visits depend on
    the run so far, and a weighted row's copies are visited at other times
    than the repeated rows of the same table (doc/semantics.md, "Instance
    weights"); every other check passes.  (TuRF, Iter and VLS: their
    ``relief_object``'s variant.)"""
    relief = getattr(estimator, "relief_object", estimator)
    if getattr(relief, "variant", None) in ("drelieff", "pdrelieff"):
        reason = ("dReliefF and pdReliefF visit in order: repeated rows "
                  "are visited at other times than a weighted row")
        return {f"check_sample_weight_equivalence_on_{kind}_data": reason
                for kind in ("dense", "sparse")}
    return {}


@parametrize_with_checks([ReliefFSelector(),
                          ReliefFSelector(variant="pdrelieff", k_nearest=3),
                          ReliefFSelector(neighbours="multisurf*"),
                          ReliefFSelector(n_neighbors=0.2,
                                          discrete_threshold=3)],
                         expected_failed_checks=sequential_weights)
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)


def xor_data(n=120, n_noise=8, seed=1):
    """Class = x0 xor x1 (thresholded at 0.5) plus uniform noise features:
    relevant only together, so a univariate filter cannot find them."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, 2 + n_noise))
    y = ((X[:, 0] > 0.5) ^ (X[:, 1] > 0.5)).astype(int)
    return X, y


def test_weights_are_the_engines():
    X, y = xor_data()
    labels = np.array(["no", "yes"])[y]
    selector = ReliefFSelector(variant="drelieff", k_nearest=5,
                               random_state=3).fit(X, labels)
    expected = relieff(X, y, np.zeros(X.shape[1], bool), variant="drelieff",
                       k_nearest=5, random_state=3).weights
    assert_allclose(selector.feature_importances_, expected, rtol=0,
                    atol=1e-12)
    assert_array_equal(selector.classes_, ["no", "yes"])
    assert not selector.regression_
    assert selector.n_iterations_ == len(y)


def test_missing_values_are_relief_d_like_the_engine():
    X, y = xor_data(n=80, n_noise=3)
    X[np.random.default_rng(5).random(X.shape) < 0.1] = np.nan
    selector = ReliefFSelector(k_nearest=5).fit(X, y)
    expected = relieff(X, y, k_nearest=5).weights
    assert not np.isnan(expected).any()
    assert_allclose(selector.feature_importances_, expected, atol=1e-12)
    assert np.isnan(selector.transform(X)).any()


def test_finds_the_xor_features_and_transforms():
    X, y = xor_data()
    selector = ReliefFSelector(n_features_to_select=2).fit(X, y)
    assert_array_equal(np.flatnonzero(selector.get_support()), [0, 1])
    assert set(selector.ranking_[:2]) == {1, 2}
    assert_array_equal(selector.transform(X), X[:, :2])
    assert_array_equal(selector.get_feature_names_out(), ["x0", "x1"])


def test_continuous_target_is_rrelieff():
    rng = np.random.default_rng(0)
    X = rng.random((80, 4))
    y = 3 * X[:, 2] + 0.1 * rng.random(80)
    selector = ReliefFSelector(k_nearest=7).fit(X, (y > 1.5).astype(int))
    assert not selector.regression_
    selector.fit(X, y)
    assert selector.regression_
    assert not hasattr(selector, "classes_")
    expected = relieff(X, y, regression=True, k_nearest=7).weights
    assert_allclose(selector.feature_importances_, expected, atol=1e-12)
    assert selector.ranking_[2] == 1


def test_pandas_auto_treats_categorical_and_text_as_nominal():
    rng = np.random.default_rng(2)
    n = 90
    colour = rng.choice(["red", "green", "blue"], n).astype(object)
    colour[5] = None
    size = pd.Categorical(rng.choice(["S", "M", "L"], n))
    noise = rng.random(n)
    y = np.where(colour == "red", "a", "b")
    frame = pd.DataFrame({"noise": noise, "colour": colour, "size": size,
                          "x": rng.random(n) + (y == "a")})
    selector = ReliefFSelector(n_features_to_select=2, k_nearest=5)
    selector.fit(frame, y)

    assert_array_equal(selector.nominal_, [False, True, True, False])
    assert_array_equal(selector.feature_names_in_,
                       ["noise", "colour", "size", "x"])
    codes = {"red": 0, "green": 1, "blue": 2}
    X = np.column_stack([
        noise, [codes.get(c, np.nan) for c in colour], size.codes, frame.x])
    expected = relieff(X, (y == "b").astype(int),
                       np.array([False, True, True, False]),
                       k_nearest=5).weights
    assert_allclose(selector.feature_importances_, expected, atol=1e-12)
    assert_array_equal(selector.get_feature_names_out(), ["colour", "x"])
    kept = selector.transform(frame)
    assert kept.shape == (n, 2)
    assert list(kept[:3, 0]) == list(colour[:3])


def test_explicit_discrete_features_mask_indices_and_values():
    rng = np.random.default_rng(4)
    X = rng.integers(0, 3, size=(60, 3)).astype(float)
    y = (X[:, 0] == 1).astype(int)
    codes = relieff(X, y, np.array([True, True, False]), k_nearest=4).weights
    by_mask = ReliefFSelector(k_nearest=4, discrete_features=np.array(
        [True, True, False])).fit(X, y)
    by_index = ReliefFSelector(k_nearest=4, discrete_features=[0, 1]).fit(X, y)
    assert_allclose(by_mask.feature_importances_, codes, atol=1e-12)
    assert_allclose(by_index.feature_importances_, codes, atol=1e-12)
    # nominal values need not be codes: only equality counts
    relabelled = X.copy()
    relabelled[:, :2] = np.array([-5.0, 10.0, 2.5])[X[:, :2].astype(int)]
    other = ReliefFSelector(k_nearest=4, discrete_features=[0, 1])
    assert_allclose(other.fit(relabelled, y).feature_importances_, codes,
                    atol=1e-12)
    # True makes the numeric third column nominal too: a different weight
    all_nominal = ReliefFSelector(k_nearest=4, discrete_features=True)
    assert_array_equal(all_nominal.fit(X, y).nominal_, [True] * 3)


def test_sparse_input_gives_the_dense_weights():
    X, y = xor_data(n=80, n_noise=3)
    X[X < 0.3] = 0
    dense = ReliefFSelector(k_nearest=5).fit(X, y).feature_importances_
    sparse = ReliefFSelector(k_nearest=5).fit(sp.csr_matrix(X), y)
    assert_allclose(sparse.feature_importances_, dense, atol=1e-12)
    assert sp.issparse(sparse.transform(sp.csr_matrix(X)))


def test_nan_weights_rank_last():
    X, y = xor_data(n=60, n_noise=2)
    X[:, 0] = np.nan
    with pytest.warns(ReliefWarning, match="no known value"):
        selector = ReliefFSelector(n_features_to_select=3).fit(X, y)
    assert np.isnan(selector.feature_importances_[0])
    assert selector.ranking_[0] == 4
    assert_array_equal(selector.get_support(), [False, True, True, True])


@pytest.mark.parametrize("k, expected", [(None, 5), (3, 3), (0.25, 2),
                                         (1.0, 10), (0.01, 1)])
def test_n_features_to_select(k, expected):
    X, y = xor_data()
    selector = ReliefFSelector(n_features_to_select=k).fit(X, y)
    assert selector.n_features_to_select_ == expected
    assert selector.get_support().sum() == expected


def test_n_features_to_select_above_n_features_keeps_all_with_warning():
    X, y = xor_data(n_noise=1)
    with pytest.warns(UserWarning, match="all are selected"):
        selector = ReliefFSelector(n_features_to_select=10).fit(X, y)
    assert selector.get_support().all()


@pytest.mark.parametrize("params, message", [
    (dict(n_features_to_select=0), "at least 1"),
    (dict(n_features_to_select=1.5), r"in \(0, 1\]"),
    (dict(n_features_to_select="all"), "must be None"),
    (dict(discrete_features="yes"), "discrete_features must be"),
    (dict(discrete_features=[True, False]), "one flag per feature"),
    (dict(discrete_features=[12]), "outside"),
    (dict(variant="relief"), "variant must be one of"),
    (dict(k_nearest=0), "k_nearest"),
    (dict(neighbours="knn"), "neighbours must be one of"),
    (dict(neighbours="multisurf", weight_by_distance=True),
     "weight_by_distance ranks the k nearest"),
    (dict(neighbours="surf", compat="weka"), "only the k nearest"),
])
def test_bad_parameters_raise_value_error(params, message):
    X, y = xor_data(n_noise=1)
    with pytest.raises(ValueError, match=message):
        ReliefFSelector(**params).fit(X, y)


@pytest.mark.parametrize("rule", ["k", "surf", "surf*", "multisurf",
                                  "multisurf*"])
def test_neighbours_rule_gives_the_engines_weights(rule):
    X, y = xor_data(n_noise=3)
    selector = ReliefFSelector(neighbours=rule, variant="pdrelieff",
                               n_features_to_select=2).fit(X, y)
    expected = relieff(X, y, neighbours=rule, variant="pdrelieff").weights
    np.testing.assert_array_equal(selector.feature_importances_, expected)
    assert selector.get_support()[:2].all()


def test_text_column_not_marked_discrete_is_an_error():
    frame = pd.DataFrame({"a": ["x", "y"] * 10, "b": np.arange(20.0)})
    with pytest.raises(ValueError, match="Column 'a' holds text"):
        ReliefFSelector(discrete_features=False).fit(frame, [0, 1] * 10)


def test_pipeline_in_cross_val_score():
    X, y = xor_data(n=200, n_noise=12)
    knn = KNeighborsClassifier(n_neighbors=5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")     # no ReliefWarning on this data
        selected = cross_val_score(
            Pipeline([("relief", ReliefFSelector(n_features_to_select=2)),
                      ("knn", knn)]), X, y, cv=4)
    everything = cross_val_score(knn, X, y, cv=4)
    assert selected.mean() > 0.9
    assert selected.mean() > everything.mean() + 0.2


def weka_frame(name):
    """An ARFF table of tests/data/weka as a DataFrame: nominal attributes
    as pandas categories with Weka's declared values, the class as text."""
    from pathlib import Path

    from Orange.data import Table
    table = Table(str(Path(__file__).parent / "data" / "weka"
                      / f"{name}.arff"))
    columns = {}
    for j, var in enumerate(table.domain.attributes):
        column = table.X[:, j]
        if var.is_discrete:
            codes = np.where(np.isnan(column), -1, column).astype(int)
            columns[var.name] = pd.Categorical.from_codes(
                codes, categories=list(var.values))
        else:
            columns[var.name] = column
    labels = np.array(table.domain.class_var.values)[table.Y.astype(int)]
    return pd.DataFrame(columns), labels


@pytest.mark.parametrize("name", ["labor", "vote", "heart_disease"])
def test_compat_weka_gives_wekas_numbers(name):
    from pathlib import Path
    golden = (Path(__file__).parent / "data" / "weka"
              / f"{name}.weka.tsv").read_text().splitlines()
    rows = {line.split("\t")[0]: np.array(line.split("\t")[1:], float)
            for line in golden[1:]}
    X, labels = weka_frame(name)
    for option, params in [("k10", {}),
                           ("k10_weighted_sigma2", dict(
                               weight_by_distance=True, sigma=2)),
                           ("m20_s1", dict(n_iterations=20,
                                           random_state=1))]:
        selector = ReliefFSelector(compat="weka", **params).fit(X, labels)
        assert_allclose(selector.feature_importances_, rows[option],
                        rtol=0, atol=1e-12)
    with pytest.raises(ValueError, match="-D seed"):
        ReliefFSelector(compat="weka", random_state=None).fit(X, labels)


def test_threshold_selects_the_significant_features():
    X, y = xor_data(n=120, n_noise=4)
    selector = ReliefFSelector(threshold="fdr:0.05", n_permutations=99,
                               k_nearest=10).fit(X, y)
    expected = stats.permutation_test(X, y, n_permutations=99, k_nearest=10)
    assert_array_equal(selector.p_values_, expected.p_values)
    assert_array_equal(selector.get_support(), expected.q_values < 0.05)
    assert selector.get_support()[:2].all()
    assert selector.n_features_to_select_ == selector.get_support().sum()
    capped = ReliefFSelector(threshold="p:0.5", n_permutations=19,
                             n_features_to_select=1).fit(X, y)
    assert capped.get_support().sum() == 1
    assert capped.get_support()[np.argmin(capped.ranking_)]
    screened = ReliefFSelector(threshold="fdr:0.05",
                               significance="stir").fit(X, y)
    assert_array_equal(screened.q_values_,
                       stats.stir(X, y, k_nearest=10).q_values)


@pytest.mark.parametrize("threshold, significance", [
    ("fdr:0.05", "permutation"), ("p:0.05", "permutation"),
    ("fwer:0.05", "permutation"), ("fdr:0.05", "feature_permutation")])
def test_unreachable_threshold_is_refused_before_the_refits(
        threshold, significance, monkeypatch):
    """With 19 permutations every p is at least 1/20 = 0.05: "< 0.05" can
    select nothing, so fit says so (and why) instead of running the test
    and selecting no feature; 20 permutations can."""
    X, y = xor_data(n=40, n_noise=2)

    def no_refits(*args, **kwargs):
        raise AssertionError("the permutation test ran")
    monkeypatch.setattr(stats, "permutation_test", no_refits)
    with pytest.raises(ValueError, match=r"can select no feature\. With 19 "
                       r"permutations the smallest p-value is 1/20 = 0\.05"
                       r".*use at least 20 permutations"):
        ReliefFSelector(threshold=threshold, n_permutations=19,
                        significance=significance).fit(X, y)
    monkeypatch.undo()
    ReliefFSelector(threshold=threshold, n_permutations=20,
                    significance=significance).fit(X, y)
    # STIR's p-values have no such floor
    ReliefFSelector(threshold="fdr:0.05", n_permutations=19,
                    significance="stir").fit(X, y)


def test_class_too_small_for_k_is_named_by_label():
    """The engine's warning about a class not larger than k names the
    class by its label, not by its code."""
    X, y = xor_data(n=40, n_noise=2)
    labels = np.where(np.arange(40) < 6, "rare", "common")
    with pytest.warns(ReliefWarning, match="'rare' \\(6 instances\\)") \
            as caught:
        ReliefFSelector(k_nearest=10).fit(X, labels)
    assert "code" not in str(caught[0].message)
    many = np.arange(40) % 20     # 20 classes of 2: at most 5 are listed
    with pytest.warns(ReliefWarning) as caught:
        ReliefFSelector(k_nearest=10).fit(X, many)
    text = str(caught[0].message)
    assert "'0' (2 instances)" in text and "'19'" not in text


@pytest.mark.parametrize("params, message", [
    (dict(threshold="q<0.05"), "threshold must be"),
    (dict(threshold="fdr:5"), "threshold must be"),
    (dict(threshold="fdr:0.05", significance="exact"), "significance must"),
    (dict(threshold="fwer:0.05", significance="stir"), "max-statistic"),
])
def test_bad_threshold(params, message):
    X, y = xor_data(n_noise=1)
    with pytest.raises(ValueError, match=message):
        ReliefFSelector(**params).fit(X, y)


# -- device= ------------------------------------------------------------------

@needs_cuda
def test_device_cuda_gives_the_cpu_weights():
    X, y, nominal = tiny()
    gpu = ReliefFSelector(k_nearest=3, discrete_features=nominal,
                          device="cuda").fit(X, y)
    cpu = ReliefFSelector(k_nearest=3, discrete_features=nominal).fit(X, y)
    assert_allclose(gpu.feature_importances_, cpu.feature_importances_,
                    rtol=0, atol=TOLERANCE)
    assert_array_equal(gpu.ranking_, cpu.ranking_)


def test_device_reaches_the_engine_and_the_significance_refits(monkeypatch):
    told = []
    monkeypatch.setattr(sklearn_module, "relieff", recording_engine(told))
    monkeypatch.setattr(stats, "relieff", recording_engine(told))
    monkeypatch.setattr(engine, "run_setup", recording_runs(told))
    X, y, _ = tiny()
    ReliefFSelector(k_nearest=3, device="cuda", threshold="p:0.5",
                    n_permutations=3).fit(X, y)
    assert told == ["cuda"] * 5        # the fit, the test's fit, 3 refits


def test_device_auto_without_a_gpu_runs_on_the_cpu_and_says_so(no_gpu):
    X, y, _ = tiny()
    with pytest.warns(ReliefWarning, match="runs on the CPU: no CUDA GPU"):
        auto = ReliefFSelector(k_nearest=3, device="auto").fit(X, y)
    assert_array_equal(auto.feature_importances_,
                       ReliefFSelector(k_nearest=3).fit(X, y)
                       .feature_importances_)
    with pytest.raises(RuntimeError, match="no CUDA GPU was found"):
        ReliefFSelector(k_nearest=3, device="cuda").fit(X, y)


def test_bad_device_is_refused_at_fit():
    selector = ReliefFSelector(device="gpu")       # (stored as given)
    assert selector.get_params()["device"] == "gpu"
    X, y, _ = tiny()
    with pytest.raises(ValueError, match="'cpu', 'cuda' or 'auto'"):
        selector.fit(X, y)


# scikit-rebate's interface (issue 38) and hostile targets (issue 16)

def test_n_neighbors_is_k_nearest_and_a_fraction_of_the_rows():
    X, y = xor_data()                                    # 120 rows
    by_k = ReliefFSelector(k_nearest=6).fit(X, y).feature_importances_
    alias = ReliefFSelector(n_neighbors=6).fit(X, y).feature_importances_
    assert_array_equal(alias, by_k)
    # skrebate's reading: k hits and k misses together make 0.1 n
    fraction = ReliefFSelector(n_neighbors=0.1).fit(X, y)
    assert_array_equal(fraction.feature_importances_, by_k)
    same = ReliefFSelector(k_nearest=0.1).fit(X, y).feature_importances_
    assert_array_equal(same, by_k)
    tiny_share = ReliefFSelector(n_neighbors=0.001).fit(X, y)
    expected = relieff(X, y, k_nearest=1).weights
    assert_allclose(tiny_share.feature_importances_, expected, atol=1e-12)


@pytest.mark.parametrize("params, message", [
    (dict(n_neighbors=5, k_nearest=3), "give one of them"),
    (dict(n_neighbors=1.5), r"fraction of the training rows in \(0, 1\)"),
    (dict(k_nearest=0.0), r"fraction of the training rows in \(0, 1\)"),
    (dict(discrete_threshold=-1), "discrete_threshold must be a whole"),
    (dict(discrete_threshold=2.5), "discrete_threshold must be a whole"),
    (dict(discrete_threshold=10, discrete_features=True), "give one of"),
    (dict(discrete_threshold=10, categorical_threshold=10),
     "discrete_threshold and categorical_threshold .* give one"),
    (dict(discrete_threshold=10, multiclass_threshold=10),
     "discrete_threshold and multiclass_threshold .* give one"),
    (dict(categorical_features=[0], discrete_features=[1]), "give one of"),
    (dict(categorical_threshold=3, categorical_features=[0]),
     "discrete_features and categorical_threshold"),
    (dict(multiclass_threshold=1.5), "multiclass_threshold must be a whole"),
    (dict(label_type="ordinal"), "label_type must be one of"),
    (dict(label_type="binary"), "but y has 3 distinct values"),
])
def test_bad_skrebate_options(params, message):
    X, y = xor_data(n_noise=1)
    y[:3] = 2
    with pytest.raises(ValueError, match=message):
        ReliefFSelector(**params).fit(X, y)


def test_skrebate_084_names_split_discrete_threshold():
    """scikit-rebate 0.8.4 calls the features' part of discrete_threshold
    categorical_threshold, the target's multiclass_threshold, the nominal
    columns categorical_features, and lets label_type fix the target."""
    rng = np.random.default_rng(6)
    X = np.column_stack([rng.integers(0, 3, 90), rng.random(90)])
    counts = rng.integers(0, 12, 90).astype(float)     # 12 values
    features = ReliefFSelector(categorical_threshold=3).fit(X, counts)
    assert_array_equal(features.nominal_, [True, False])
    assert not features.regression_                     # type_of_target
    target = ReliefFSelector(multiclass_threshold=10).fit(X, counts)
    assert_array_equal(target.nominal_, [False, False])
    assert target.regression_
    both = ReliefFSelector(discrete_threshold=10).fit(X, counts)
    split = ReliefFSelector(categorical_threshold=10,
                            multiclass_threshold=10).fit(X, counts)
    assert_array_equal(split.feature_importances_, both.feature_importances_)
    by_index = ReliefFSelector(categorical_features=[0]).fit(X, counts)
    assert_array_equal(by_index.feature_importances_, ReliefFSelector(
        discrete_features=[0]).fit(X, counts).feature_importances_)
    assert ReliefFSelector(label_type="continuous").fit(X, counts) \
        .regression_
    tenths = np.round(np.linspace(0, 1, 90), 1)         # 11 float values
    assert ReliefFSelector().fit(X, tenths).regression_
    as_classes = ReliefFSelector(label_type="multiclass").fit(X, tenths)
    assert not as_classes.regression_
    assert len(as_classes.classes_) == 11


def test_discrete_threshold_is_skrebates_rule_for_features_and_target():
    rng = np.random.default_rng(6)
    X = np.column_stack([rng.integers(0, 3, 90), rng.integers(0, 12, 90),
                         rng.random(90)]).astype(float)
    X[4, 0] = np.nan                                  # missing: not a value
    y = (X[:, 0] == 1).astype(int)
    selector = ReliefFSelector(discrete_threshold=3, k_nearest=5).fit(X, y)
    assert_array_equal(selector.nominal_, [True, False, False])
    expected = relieff(X, y, np.array([True, False, False]),
                       k_nearest=5).weights
    assert_allclose(selector.feature_importances_, expected, atol=1e-12)
    assert_array_equal(ReliefFSelector(discrete_threshold=12).fit(X, y)
                       .nominal_, [True, True, False])
    # sparse: the implicit zeros are a value
    sparse = ReliefFSelector(discrete_threshold=3, k_nearest=5).fit(
        sp.csr_matrix(np.nan_to_num(X[:, :2])), y)
    assert_array_equal(sparse.nominal_, [True, False])
    # the target: more distinct numbers than the threshold is continuous
    counts = X[:, 1]                                  # 12 values 0..11
    assert not ReliefFSelector().fit(X, counts).regression_
    assert ReliefFSelector(discrete_threshold=10).fit(X, counts).regression_
    assert not ReliefFSelector(discrete_threshold=12).fit(
        X, counts).regression_
    # DataFrame text columns stay nominal whatever their count
    frame = pd.DataFrame({"word": [f"w{i % 20}" for i in range(90)],
                          "few": X[:, 0], "x": X[:, 2]})
    assert_array_equal(ReliefFSelector(discrete_threshold=3).fit(
        frame, y).nominal_, [True, True, False])


def test_verbose_says_what_fit_sees_and_does(capsys):
    X, y = xor_data()
    ReliefFSelector(verbose=True, n_neighbors=0.1).fit(X, y)
    said = capsys.readouterr().out
    assert "120 instances, 10 features (0 nominal), 2 classes" in said
    assert "k_nearest=6" in said
    assert "best: x1, x0" in said or "best: x0, x1" in said
    ReliefFSelector().fit(X, y)
    assert capsys.readouterr().out == ""


def test_top_features_are_skrebates_order():
    X, y = xor_data()
    selector = ReliefFSelector(n_features_to_select=3).fit(X, y)
    top = selector.top_features_
    assert_array_equal(np.sort(top), np.arange(X.shape[1]))
    assert_array_equal(selector.ranking_[top], np.arange(1, X.shape[1] + 1))
    assert_array_equal(np.sort(top[:3]),
                       np.flatnonzero(selector.get_support()))
    assert np.all(np.diff(selector.feature_importances_[top]) <= 0)


@pytest.mark.parametrize("labels, message", [
    (np.array(["a", "b", None] * 20, dtype=object),
     r"no value \(None or NaN\) in 20 row\(s\): 2, 5, 8, 11, 14, \.\.\."),
    (["a", "b", "a", None] * 15, r"in 15 row\(s\): 3, 7"),
    (pd.Series(["a", "b", np.nan] * 20), r"in 20 row\(s\): 2, 5"),
    (np.r_[np.arange(59.0), np.nan], r"in 1 row\(s\): 59 "),
    (np.array([1, "a"] * 30, dtype=object),
     r"mixes labels of types that cannot be ordered \(int, str\)"),
])
def test_target_without_a_value_names_the_rows(labels, message):
    X, _ = xor_data(n=60, n_noise=1)
    with pytest.raises(ValueError, match=message):
        ReliefFSelector().fit(X, labels)


def test_date_and_duration_columns_are_numeric_seconds():
    X, y = xor_data(n=80, n_noise=1)
    start = pd.Timestamp("2024-03-01", tz="Europe/Ljubljana")
    when = start + pd.to_timedelta(X[:, 0] * 86400, unit="s")
    frame = pd.DataFrame({"when": when,
                          "took": pd.to_timedelta(X[:, 1], unit="h"),
                          "x": X[:, 2]})
    frame.loc[3, "when"] = pd.NaT
    selector = ReliefFSelector(k_nearest=5).fit(frame, y)
    seconds = X.copy()
    seconds[3, 0] = np.nan
    expected = relieff(seconds, y, k_nearest=5).weights
    assert_allclose(selector.feature_importances_, expected, atol=1e-12)
    assert not selector.nominal_.any()
