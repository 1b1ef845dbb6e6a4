"""CORElearn's Relief estimators by name (``orangecontrib.relief.corelearn``)
against CORElearn's own numbers.

``tests/data/corelearn_golden.json``: two random tables without distance
ties (60 x 5 numeric; a class of three values, and a numeric target) and
CORElearn 1.57.3.1's ``attrEval`` of every Relief estimator on them, every
instance visited, the plain diff |v1 - v2| / range (its provenance field
has the R call; ``python benchmarks/corelearn_agreement.py --golden FILE``
wrote it).  No R is needed here.
"""
import json
import os

import numpy as np
import pytest
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

from orangecontrib.relief import CORElearn, corelearn_estimator, relieff
from orangecontrib.relief.cli import main
from orangecontrib.relief.corelearn import ESTIMATORS, names
from orangecontrib.relief.sklearn import ReliefFSelector

GOLDEN = os.path.join(os.path.dirname(__file__), "data",
                      "corelearn_golden.json")
with open(GOLDEN) as _file:
    TABLES = json.load(_file)["tables"]
CLASSES, NUMERIC = "tie-free (60 x 5, 3 classes)", "tie-free (60 x 5, numeric)"

#: the Relief family of CORElearn 1.57's attrEval (estCommon.cpp's names)
FAMILY = {
    False: ["ReliefFequalK", "ReliefFexpRank", "ReliefFbestK", "Relief",
            "MyopicReliefF", "ReliefFmerit", "ReliefFdistance",
            "ReliefFsqrDistance", "ReliefFexpC", "ReliefFavgC", "ReliefFpe",
            "ReliefFpa", "ReliefFsmp", "ReliefKukar"],
    True: ["RReliefFequalK", "RReliefFexpRank", "RReliefFbestK",
           "RReliefFwithMSE", "RReliefFdistance", "RReliefFsqrDistance"]}


def golden(table):
    entry = TABLES[table]
    return (np.array(entry["X"]), np.array(entry["y"]),
            {name: np.array(values)
             for name, values in entry["corelearn"].items()})


def orange_table(table):
    X, y, _ = golden(table)
    attributes = [ContinuousVariable(f"f{j}") for j in range(X.shape[1])]
    target = (ContinuousVariable("y") if table == NUMERIC
              else DiscreteVariable("y", values=("a", "b", "c")))
    return Table.from_numpy(Domain(attributes, target), X, y)


AVAILABLE = [(table, name) for table, regression in ((CLASSES, False),
                                                    (NUMERIC, True))
             for name in names(regression=regression, available=True)]


def test_registry_holds_corelearns_relief_family():
    for regression, family in FAMILY.items():
        assert names(regression=regression) == family
    # the golden file has CORElearn's numbers of every one of them
    assert set(golden(CLASSES)[2]) == set(FAMILY[False])
    assert set(golden(NUMERIC)[2]) == set(FAMILY[True])


@pytest.mark.parametrize("table, name", AVAILABLE)
def test_engine_equals_corelearn(table, name):
    X, y, theirs = golden(table)
    ours = relieff(X, y, **corelearn_estimator(name)).weights
    np.testing.assert_allclose(ours, theirs[name], rtol=0, atol=1e-12)


def test_the_existing_options_are_corelearns_estimators():
    """ReliefFexpRank is this package's rank-weighted neighbours
    (weight_by_distance, sigma = quotientExpRankDistance = 20, k = 70),
    ReliefFequalK its k nearest (k = 10), Relief k = 1 among all misses."""
    assert corelearn_estimator("ReliefFexpRank") == dict(
        k_nearest=70, weight_by_distance=True, sigma=20.0, regression=False)
    assert corelearn_estimator("ReliefFequalK") == dict(
        k_nearest=10, regression=False)
    assert corelearn_estimator("Relief") == dict(
        k_nearest=1, misses="any", regression=False)
    assert corelearn_estimator("RReliefFexpRank") == dict(
        k_nearest=70, weight_by_distance=True, sigma=20.0, regression=True)


def test_the_options_matter():
    """Each estimator's numbers are its own: no two agree on the golden
    table, so the agreement above tells the estimators apart."""
    X, y, theirs = golden(CLASSES)
    for first in ("ReliefFequalK", "ReliefFexpRank", "Relief"):
        for second in ("ReliefFequalK", "ReliefFexpRank", "Relief"):
            if first != second:
                assert np.abs(theirs[first] - theirs[second]).max() > 1e-3


def test_kira_relief_by_hand():
    """Relief (Kira and Rendell): the nearest hit and the nearest miss of
    any class.  Rows 0 (0.0), 1 (0.1), 2 (0.6), 3 (1.0) of classes 0, 0,
    1, 1 (range 1): row 0's hit is 1 (diff 0.1) and miss 2 (0.6); row 1's
    hit 0 (0.1), miss 2 (0.5); row 2's hit 3 (0.4), miss 1 (0.5); row 3's
    hit 2 (0.4), miss 1 (0.9).  W = (0.6 + 0.5 + 0.5 + 0.9 - 0.1 - 0.1 -
    0.4 - 0.4) / 4 = 0.375."""
    X = np.array([[0.0], [0.1], [0.6], [1.0]])
    y = np.array([0, 0, 1, 1])
    weights = relieff(X, y, **corelearn_estimator("Relief")).weights
    assert weights[0] == pytest.approx(0.375, abs=1e-15)


@pytest.mark.parametrize("name", [name for name, entry in ESTIMATORS.items()
                                  if not entry.available])
def test_not_computed_here_says_so(name):
    with pytest.raises(ValueError, match=f"CORElearn's {name} is not "
                                         "available: this engine has no"):
        corelearn_estimator(name)
    with pytest.raises(ValueError, match="not available"):
        CORElearn(name)


def test_wrong_name_and_wrong_target():
    with pytest.raises(ValueError, match="estimator must be one of"):
        corelearn_estimator("ReliefFequalk")
    with pytest.raises(ValueError, match="is for a numeric target; for "
                                         "this data use one of ReliefF"):
        corelearn_estimator("RReliefFequalK", regression=False)
    with pytest.raises(ValueError, match="is for a class"):
        CORElearn("ReliefFequalK")(orange_table(NUMERIC))
    with pytest.raises(ValueError, match="is for a numeric target"):
        ReliefFSelector(estimator="RReliefFexpRank").fit(
            *golden(CLASSES)[:2])


@pytest.mark.parametrize("table, name", AVAILABLE)
def test_scorer_and_selector_equal_corelearn(table, name):
    X, y, theirs = golden(table)
    scorer = CORElearn(name)
    assert scorer.name == name
    np.testing.assert_allclose(scorer(orange_table(table)), theirs[name],
                               rtol=0, atol=1e-12)
    selector = ReliefFSelector(estimator=name).fit(X, y)
    np.testing.assert_allclose(selector.feature_importances_, theirs[name],
                               rtol=0, atol=1e-12)


def test_command_line_estimator(tmp_path, capsys):
    path = str(tmp_path / "numeric.tab")
    orange_table(NUMERIC).save(path)
    assert main(["score", path, "--estimator", "RReliefFexpRank",
                 "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    weights = {row["feature"]: row["weight"] for row in printed}
    # (the .tab file holds the values rounded: the scorer on what it reads)
    scorer = CORElearn("RReliefFexpRank")(Table(path))
    np.testing.assert_allclose([weights[f"f{j}"] for j in range(5)],
                               scorer, rtol=0, atol=1e-12)
    theirs = golden(NUMERIC)[2]["RReliefFexpRank"]
    np.testing.assert_allclose(scorer, theirs, rtol=0, atol=1e-5)
    assert main(["score", path, "--estimator", "RReliefFexpRank",
                 "--k", "5"]) == 2
    assert "--k has no meaning" in capsys.readouterr().err
    assert main(["score", path, "--estimator", "RReliefFbestK"]) == 2
    assert "not available" in capsys.readouterr().err
