"""NPDR everywhere a user runs the tests: the scorers' significance with
covariates, SelectSignificant, the scikit-learn selector, the command line
and the confounded data set."""
import csv
import io

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from Orange.data import ContinuousVariable, Domain, StringVariable, Table

from orangecontrib.relief import ReliefF, stats
from orangecontrib.relief.cli import main
from orangecontrib.relief.datasets import confounded, important_features
from orangecontrib.relief.scoring import (CovariatesToMetas,
                                          SelectSignificant,
                                          covariates_to_metas)
from orangecontrib.relief.sklearn import ReliefFSelector


@pytest.fixture(scope="module")
def table():
    """age (attribute 0) drives the class and conf1, conf2; 6 features."""
    return confounded(n_instances=120, n_irrelevant=2, random_state=1)


def with_meta_age(data):
    """The table with age among the metas instead of the attributes."""
    return covariates_to_metas(data, ["age"])[0]


def test_confounded_generator():
    data = confounded(n_instances=50, n_real=1, n_confounded=1,
                      n_irrelevant=3, random_state=0)
    names = [var.name for var in data.domain.attributes]
    assert names == ["age", "real1", "conf1", "noise1", "noise2", "noise3"]
    assert important_features(data) == ["real1"]
    assert data.domain["age"].attributes["covariate"]
    assert data.domain["conf1"].attributes["confounded"]
    assert data.domain.class_var.values == ("0", "1")
    age, conf = data.get_column("age"), data.get_column("conf1")
    assert np.corrcoef(age, conf)[0, 1] > 0.8
    again = confounded(n_instances=50, n_real=1, n_confounded=1,
                       n_irrelevant=3, random_state=0)
    assert_array_equal(again.X, data.X)
    numeric = confounded(n_instances=30, regression=True)
    assert numeric.domain.class_var.is_continuous
    with pytest.raises(ValueError, match="noise must be"):
        confounded(noise=0)
    with pytest.raises(ValueError, match="n_real must be"):
        confounded(n_real=0)


def test_scorer_significance_with_covariates(table):
    """Covariates named from the attributes or the metas give the same
    test; the covariates' own entries are NaN, and the rest are
    stats.npdr's on the other attributes."""
    scorer = ReliefF(k_nearest=20)
    from_attribute = scorer.significance(table, method="npdr",
                                         covariates=["age"])
    from_meta = scorer.significance(with_meta_age(table), method="npdr",
                                    covariates=[table.domain["age"]])
    assert np.isnan(from_attribute.p_values[0])
    assert_array_equal(from_attribute.p_values[1:], from_meta.p_values)
    want = stats.npdr(table.X[:, 1:], table.Y, covariates=table.X[:, 0],
                      k_nearest=20)
    assert_array_equal(from_meta.p_values, want.p_values)
    assert from_meta.covariates == ("age",)


def test_scorer_covariates_bad_names(table):
    scorer = ReliefF()
    with pytest.raises(ValueError, match="'height' is not a variable"):
        scorer.significance(table, method="npdr", covariates=["height"])
    with pytest.raises(ValueError, match="'class' is the target"):
        scorer.significance(table, method="npdr", covariates=["class"])
    with pytest.raises(ValueError, match="does not adjust for covariates"):
        scorer.significance(table, method="stir", covariates=["age"])
    text = StringVariable("note")
    domain = Domain(table.domain.attributes, table.domain.class_var, [text])
    noted = table.transform(domain)
    with noted.unlocked(noted.metas):
        noted.metas[:, 0] = "x"
    with pytest.raises(ValueError, match="holds text"):
        scorer.significance(noted, method="npdr", covariates=["note"])
    with pytest.raises(ValueError, match="named twice"):
        scorer.significance(table, method="npdr", covariates=["age", "age"])
    only = Table.from_numpy(Domain([ContinuousVariable("a")],
                                   table.domain.class_var),
                            table.X[:, :1], table.Y)
    with pytest.raises(ValueError, match="Every attribute is a covariate"):
        scorer.significance(only, method="npdr", covariates=["a"])


def test_select_significant_adjusts_and_keeps_covariates(table):
    preprocessor = SelectSignificant(ReliefF(k_nearest=20), 0.05, "npdr",
                                     covariates=["age"])
    reduced = preprocessor(table)
    test = ReliefF(k_nearest=20).significance(
        with_meta_age(table), method="npdr", covariates=["age"])
    names = [var.name for var in with_meta_age(table).domain.attributes]
    assert [var.name for var in reduced.domain.attributes] == \
        [name for name, q in zip(names, test.q_values) if q < 0.05]
    assert "age" in [var.name for var in reduced.domain.metas]
    moved = CovariatesToMetas(["age"])(table)
    assert "age" not in [var.name for var in moved.domain.attributes]


def test_selector_with_covariates(table):
    selector = ReliefFSelector(threshold="fdr:0.2", covariates=[0],
                               k_nearest=20, n_permutations=49)
    selector.fit(table.X, table.Y)
    want = stats.npdr_permutation(table.X[:, 1:], table.Y,
                                  covariates=table.X[:, [0]],
                                  k_nearest=20, n_permutations=49)
    assert np.isnan(selector.p_values_[0])
    assert_array_equal(selector.p_values_[1:], want.p_values)
    assert not selector.get_support()[0]
    assert np.isnan(selector.feature_importances_[0])
    assert selector.ranking_[0] == table.X.shape[1]
    one_run = ReliefFSelector(threshold="fdr:0.05", covariates=[0],
                              significance="npdr", k_nearest=20)
    one_run.fit(table.X, table.Y)
    assert_array_equal(one_run.p_values_[1:], stats.npdr(
        table.X[:, 1:], table.Y, covariates=table.X[:, [0]],
        k_nearest=20).p_values)


@pytest.mark.parametrize("params, message", [
    (dict(covariates=[0]), "give one"),
    (dict(covariates=[0], threshold="fdr:0.05", significance="stir"),
     "does not adjust for covariates"),
    (dict(covariates=[9], threshold="fdr:0.05"), "outside"),
    (dict(covariates=[0, 0], threshold="fdr:0.05"), "twice"),
    (dict(covariates=["age"], threshold="fdr:0.05"), "column indices"),
])
def test_selector_bad_covariates(table, params, message):
    with pytest.raises(ValueError, match=message):
        ReliefFSelector(**params).fit(table.X, table.Y)


def test_selector_default_test_is_still_the_class_permutation():
    assert ReliefFSelector().get_params()["significance"] is None
    X = np.random.default_rng(0).random((40, 3))
    y = (X[:, 0] > 0.5).astype(int)
    selector = ReliefFSelector(threshold="fdr:0.5", n_permutations=19)
    selector.fit(X, y)
    assert_array_equal(selector.p_values_, stats.permutation_test(
        X, y, n_permutations=19).p_values)


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_command_line_npdr_and_covariates(capsys, tmp_path, table):
    path = str(tmp_path / "confounded.tab")
    table.save(path)
    table = Table(path)     # (as written: fewer decimals)
    status, out, err = run(capsys, "score", path, "--covariates", "age",
                           "--k", "20", "--permutations", "19",
                           "--format", "csv")
    assert status == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0]) == ["rank", "feature", "weight", "p", "q",
                             "coefficient"]
    assert "age" not in [row["feature"] for row in rows]
    want = ReliefF(k_nearest=20).significance(
        with_meta_age(table), method=stats.NPDR_DEFAULT, n_permutations=19,
        covariates=["age"])
    names = [var.name for var in with_meta_age(table).domain.attributes]
    for row in rows:
        assert float(row["p"]) == want.p_values[names.index(row["feature"])]
    relieff = ReliefF(k_nearest=20)(with_meta_age(table))
    for row in rows:        # the weights without age in the distance
        assert float(row["weight"]) == relieff[names.index(row["feature"])]
    status, out, _ = run(capsys, "score", path, "--npdr", "--k", "20",
                         "--permutations", "19")
    assert status == 0 and "adjusted for nothing" in out
    status, out, _ = run(capsys, "score", path, "--test", "npdr",
                         "--covariates", "age", "--k", "20")
    assert status == 0 and "adjusted for age" in out and "NPDR" in out
    for bad, message in ((["--covariates", "age", "--test", "stir"],
                          "does not adjust"),
                         (["--npdr", "--stir"], "not several"),
                         (["--covariates", "height"], "not a variable")):
        status, _, err = run(capsys, "score", path, *bad)
        assert status == 2 and message in err
