"""TuRF, Iter and VLS as scikit-learn selectors (issue 38: scikit-rebate
has them as estimators): the estimator contract, the weights of
``turf`` / ``iter_relief`` / ``vls`` with the wrapped ReliefFSelector's
options, scikit-rebate's parameter names, and use in a Pipeline."""
import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.base import clone
from sklearn.model_selection import cross_val_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import parametrize_with_checks

from orangecontrib.relief.wrappers.iterated import iter_relief
from orangecontrib.relief.sklearn import (IterSelector, ReliefFSelector,
                                          TuRFSelector, VLSSelector)
from orangecontrib.relief.wrappers.turf import turf
from orangecontrib.relief.wrappers.vls import vls
from test_sklearn import sequential_weights, xor_data


@pytest.mark.filterwarnings("ignore::orangecontrib.relief.ReliefWarning")
@parametrize_with_checks([
    TuRFSelector(),
    IterSelector(ReliefFSelector(variant="drelieff", k_nearest=3),
                 max_iter=3),
    VLSSelector(ReliefFSelector(neighbours="multisurf"), random_state=1)],
    expected_failed_checks=sequential_weights)
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)


def test_turf_gives_turfs_weights_with_the_reliefs_options():
    X, y = xor_data()
    X[:, 3] = np.round(X[:, 3] * 2)
    relief = ReliefFSelector(n_features_to_select=2, neighbours="multisurf",
                             discrete_features=[3])
    selector = TuRFSelector(relief, remove=0.2).fit(X, y)
    nominal = np.zeros(X.shape[1], bool)
    nominal[3] = True
    weights, removed = turf(X, y, nominal, remove=0.2,
                            neighbours="multisurf")
    assert_allclose(selector.feature_importances_, weights, atol=1e-12)
    assert selector.removed_ == removed
    assert_array_equal(np.flatnonzero(selector.get_support()), [0, 1])
    assert_array_equal(selector.transform(X), X[:, :2])
    assert_array_equal(selector.nominal_, nominal)


def test_iter_gives_iters_weights():
    X, y = xor_data()
    labels = np.array(["no", "yes"])[y]
    relief = ReliefFSelector(variant="pdrelieff", k_nearest=5,
                             n_features_to_select=2, random_state=4)
    selector = IterSelector(relief, max_iter=4, beta=0.5).fit(X, labels)
    weights, runs = iter_relief(X, y, max_iter=4, beta=0.5,
                                variant="pdrelieff", k_nearest=5,
                                random_state=4)
    assert_allclose(selector.feature_importances_, weights, atol=1e-12)
    assert selector.n_iter_ == len(runs)
    assert_allclose(selector.distance_weights_, runs[-1][0])
    assert_array_equal(selector.classes_, ["no", "yes"])
    assert set(np.flatnonzero(selector.get_support())) == {0, 1}


def test_vls_gives_vls_weights_and_a_continuous_target_is_rrelieff():
    X, y = xor_data(n_noise=14)
    target = X[:, 0] * 3 + X[:, 1]
    selector = VLSSelector(ReliefFSelector(n_features_to_select=2),
                           num_feature_subset=6, size_feature_subset=4,
                           random_state=7).fit(X, target)
    weights, subsets = vls(X, target, regression=True, num_feature_subset=6,
                           size_feature_subset=4, random_state=7)
    assert selector.regression_
    assert_allclose(selector.feature_importances_, weights, atol=1e-12)
    assert selector.subsets_ == subsets
    assert selector.top_features_[0] == 0
    # ReliefF visiting every instance: the visiting seed cannot matter
    seeded = VLSSelector(ReliefFSelector(random_state=3),
                         num_feature_subset=6, size_feature_subset=4,
                         random_state=7).fit(X, target)
    assert_array_equal(seeded.feature_importances_,
                       selector.feature_importances_)


def test_pipeline_get_set_params_and_clone():
    X, y = xor_data()
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])])
    model = make_pipeline(TuRFSelector(ReliefFSelector(
        n_features_to_select=2)), KNeighborsClassifier())
    params = model.get_params()
    assert params["turfselector__relief_object__n_features_to_select"] == 2
    model.set_params(turfselector__relief_object__k_nearest=7,
                     turfselector__remove=0.25)
    assert model.steps[0][1].relief_object.k_nearest == 7
    copy = clone(model)
    assert copy.steps[0][1].remove == 0.25
    assert copy.steps[0][1].relief_object is not model.steps[0][1] \
        .relief_object
    assert cross_val_score(model, frame, y, cv=3).mean() > 0.8
    fitted = model.fit(frame, y)
    assert_array_equal(fitted[0].get_feature_names_out(), ["f0", "f1"])
    # the wrapped selector is cloned, never fitted in place
    assert not hasattr(model.steps[0][1].relief_object,
                       "feature_importances_")


def test_skrebate_names():
    X, y = xor_data()
    by_name = TuRFSelector(num_scores_to_return=3).fit(X, y)
    ours = TuRFSelector(n_keep=3).fit(X, y)
    assert_array_equal(by_name.feature_importances_,
                       ours.feature_importances_)
    relief = ReliefFSelector(n_neighbors=0.1, discrete_threshold=2)
    wrapped = VLSSelector(relief, random_state=0).fit(np.round(X), y)
    assert wrapped.nominal_.all()


@pytest.mark.parametrize("estimator, message", [
    (TuRFSelector(pct=0.5), "pct=0.5 is scikit-rebate's TuRF schedule"),
    (TuRFSelector(n_keep=2, num_scores_to_return=3), "give one of them"),
    (TuRFSelector(remove=1.5), "remove must be a share"),
    (IterSelector(beta=0), r"beta.*must be in \(0, 1\]"),
    (IterSelector(ReliefFSelector(variant="irelief")),
     "I-RELIEF already iterates"),
    (VLSSelector(num_feature_subset=1, size_feature_subset=2),
     "cannot cover all 10 features"),
    (VLSSelector(ReliefFSelector(variant="drelieff", random_state=3)),
     "Leave relief_object's random_state at 0"),
    (VLSSelector(ReliefFSelector(n_iterations=50, random_state=3)),
     "Leave relief_object's random_state at 0"),
    (TuRFSelector(KNeighborsClassifier()),
     "relief_object must be a ReliefFSelector"),
    (IterSelector(ReliefFSelector(threshold="fdr:0.05")),
     "threshold='fdr:0.05' applies to one run"),
    (VLSSelector(ReliefFSelector(compat="weka")), "Leave compat=None"),
    (TuRFSelector(ReliefFSelector(n_features_to_select=0)), "at least 1"),
])
def test_bad_options_say_what_to_change(estimator, message):
    X, y = xor_data()
    with pytest.raises(ValueError, match=message):
        estimator.fit(X, y)


def test_verbose_prints_the_progress(capsys):
    X, y = xor_data()
    IterSelector(max_iter=2, verbose=True).fit(X, y)
    said = capsys.readouterr().out
    assert "IterSelector: 120 instances, 10 features" in said
    assert "IterSelector: 100%" in said
    assert "IterSelector: done in" in said
