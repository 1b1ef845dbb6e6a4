"""scikit-rebate's own test suite (``tests.py``, EpistasisLab/scikit-rebate
master 16798854), ported to ReliefFSelector and the TuRF, Iter and VLS
selectors with its assertions as written (issue 38).

The cases, data and the port's choices are in ``skrebate_suite.py``.  Every
case runs twice: as a skrebate user writes it (``ReliefFSelector(
n_features_to_select=2, n_neighbors=10)``: our defaults, the SNP columns of
a numpy array numeric) and with skrebate's default ``discrete_threshold=10``
added (the SNPs nominal, as skrebate's tests ran).  The cases whose
assertion does not hold are marked xfail (strict) with the scores measured;
skrebate 0.8.4 passes 28 of these 37 cases (it fails the five mixed-attribute
ones, SURF and SURF* with missing values, and both Iter ones: its Iter
cannot be cloned), ours 25 as written and 30 with discrete_threshold=10;
``python benchmarks/skrebate_suite.py`` prints the table for skrebate 0.8.4
and ours side by side.
"""
import numpy as np
from numpy.testing import assert_array_equal
import pytest
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline

import skrebate_suite as suite
from orangecontrib.relief.sklearn import ReliefFSelector

DATA = suite.load()

# (library, test) -> why its assertion fails, measured with
# benchmarks/skrebate_suite.py (skrebate 0.8.4 / ours, mean 3-fold score)
MIXED = {"relieff": (0.590, 0.573, 0.595), "surf": (0.500, 0.650, 0.577),
         "surfstar": (0.570, 0.645, 0.583),
         "multisurf": (0.475, 0.632, 0.473),
         "multisurfstar": (0.565, 0.620, 0.548)}
FAILS = {}
for algorithm, (theirs, ours, ours_10) in MIXED.items():
    for library, score in (("ours", ours), ("ours-10", ours_10)):
        FAILS[library, f"test_{algorithm}_pipeline_mixed_attributes"] = (
            f"fails for skrebate 0.8.4 as well: {theirs:.3f} there, "
            f"{score:.3f} here, not > 0.7")
FAILS["ours", "test_surf_pipeline_missing_values"] = (
    "fails for skrebate 0.8.4 as well: 0.665 there, 0.662 here with the "
    "SNPs numeric (0.733 with discrete_threshold=10)")
for test in ("test_turf_pipeline", "test_turf_pipeline_parallel",
             "test_vlsrelief_pipeline", "test_vlsrelief_pipeline_parallel"):
    FAILS["ours", test] = (
        "0.682 with the SNPs numeric and k=100 of ~267 training rows (the "
        "third feature, not one of the epistatic pair, wins a fold); 0.755 "
        "with skrebate's discrete_threshold=10, as skrebate 0.8.4 (0.755)")
RAISES = {(library, f"test_{algorithm}_pipeline_cont_endpoint"): (
    f"{algorithm} with a continuous target is refused (ValueError naming "
    f"'surf' / 'multisurf'): RReliefF defines no far set; skrebate 0.8.4 "
    f"scores it by a form of its own")
    for library in ("ours", "ours-10")
    for algorithm in ("surfstar", "multisurfstar")}


def cases():
    for library in ("ours", "ours-10"):
        for case in suite.CASES:
            key = (library, case[0])
            marks = []
            if key in RAISES:
                marks = [pytest.mark.xfail(raises=ValueError, strict=True,
                                           reason=RAISES[key])]
            elif key in FAILS:
                marks = [pytest.mark.xfail(strict=True, reason=FAILS[key])]
            yield pytest.param(library, case, marks=marks,
                               id=f"{library}-{case[0]}")


@pytest.mark.filterwarnings("ignore::orangecontrib.relief.ReliefWarning")
@pytest.mark.parametrize("library, case", list(cases()))
def test_skrebate_assertion(library, case):
    name, *_, (passes, assertion) = case
    score = suite.score(library, DATA, name)
    assert passes(score), f"{name}: mean score {score:.3f}, not {assertion}"


# skrebate's two constructor tests; they fail for skrebate 0.8.4 itself (a
# TypeError: 0.8.4 renamed discrete_threshold to categorical_threshold)
def test_relieff_init():
    """Check: ReliefF constructor stores custom values correctly"""
    clf = ReliefFSelector(n_features_to_select=7, n_neighbors=500,
                          discrete_threshold=20, verbose=True, n_jobs=3)
    assert clf.n_features_to_select == 7
    assert clf.n_neighbors == 500
    assert clf.discrete_threshold == 20
    assert clf.verbose == True  # noqa: E712 -- as skrebate writes it
    assert clf.n_jobs == 3


def test_surf_init():
    """Check: SURF, SURF*, and MultiSURF constructors store custom values
    correctly"""
    clf = ReliefFSelector(neighbours="surf", n_features_to_select=7,
                          discrete_threshold=20, verbose=True, n_jobs=3)
    assert clf.n_features_to_select == 7
    assert clf.discrete_threshold == 20
    assert clf.verbose == True  # noqa: E712
    assert clf.n_jobs == 3


@pytest.mark.parametrize("rule, instead", [("surf*", "'surf'"),
                                           ("multisurf*", "'multisurf'")])
def test_starred_rules_with_a_continuous_target_say_what_to_use(rule,
                                                                 instead):
    """skrebate scores SURF* and MultiSURF* with a continuous endpoint by
    a form of its own; RReliefF defines no far set (doc/semantics.md), so
    the selector refuses and names the rules that apply."""
    X, y = DATA["continuous"]
    model = make_pipeline(ReliefFSelector(neighbours=rule,
                                          n_features_to_select=2),
                          RandomForestRegressor(n_estimators=10))
    with pytest.raises(ValueError, match=f"scores far instances.*{instead}"):
        model.fit(X, y)
    np.random.seed(0)
    model.set_params(relieffselector__neighbours=rule.rstrip("*"))
    assert abs(np.mean(cross_val_score(model, X, y, cv=3))) < 0.5


@pytest.mark.parametrize("data", ["mixed", "missing", "continuous"])
def test_skrebates_rules_are_skrebates(data):
    """``n_neighbors=0.1`` gives skrebate's k, and skrebate 0.8.4's
    ``categorical_threshold`` and ``multiclass_threshold`` (the two parts of
    the older ``discrete_threshold``) the same nominal features and target
    kind as skrebate 0.8.4 itself."""
    skrebate = pytest.importorskip("skrebate")
    X, y = DATA[data]
    X, y = X[:120], y[:120]
    theirs = skrebate.ReliefF(n_neighbors=0.1, categorical_threshold=10,
                              multiclass_threshold=10)
    theirs.fit(X, y)
    ours = ReliefFSelector(n_neighbors=0.1, categorical_threshold=10,
                           multiclass_threshold=10).fit(X, y)
    assert_array_equal(ours.nominal_, [theirs.attr[name][0] == "categorical"
                                       for name in theirs._headers])
    assert ours.nominal_.any()
    assert ours.regression_ == (theirs._class_type == "continuous")
    older = ReliefFSelector(k_nearest=theirs.n_neighbors,
                            discrete_threshold=10).fit(X, y)
    assert_array_equal(ours.feature_importances_,
                       older.feature_importances_)
