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
import warnings

import numpy as np
import pytest
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

from orangecontrib.relief import CORElearn, corelearn_estimator, relieff
from orangecontrib.relief.cli import main
from orangecontrib.relief.corelearn import ESTIMATORS, names, run
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


MONK = "MONK-1 train (124)"


def orange_table(table):
    X, y, _ = golden(table)
    attributes = [ContinuousVariable(f"f{j}") for j in range(X.shape[1])]
    target = (ContinuousVariable("y") if table == NUMERIC
              else DiscreteVariable("y", values=("a", "b", "c")))
    return Table.from_numpy(Domain(attributes, target), X, y)


AVAILABLE = [(table, name) for table, regression in ((CLASSES, False),
                                                    (NUMERIC, True))
             for name in names(regression=regression, available=True)]


@pytest.mark.parametrize("name", ["MyopicReliefF", "ReliefFdistance",
                                  "ReliefFsqrDistance"])
def test_equal_to_corelearn_on_monk(name):
    """MONK-1's training set (nominal, distance ties, no duplicates):
    Myopic ReliefF has no neighbours, and with k = 70 at least every
    class's size every instance is a neighbour, of equal influence at
    equal distance, so CORElearn's order of ties cannot matter."""
    X, y, theirs = golden(MONK)
    nominal = np.array(TABLES[MONK]["nominal"])
    ours = run(name, X, y, nominal).weights
    np.testing.assert_allclose(ours, theirs[name], rtol=0, atol=1e-12)


def test_registry_holds_corelearns_relief_family():
    for regression, family in FAMILY.items():
        assert names(regression=regression) == family
    # the golden file has CORElearn's numbers of every one of them
    assert set(golden(CLASSES)[2]) == set(FAMILY[False])
    assert set(golden(NUMERIC)[2]) == set(FAMILY[True])


@pytest.mark.parametrize("table, name", AVAILABLE)
def test_engine_equals_corelearn(table, name):
    X, y, theirs = golden(table)
    regression = table == NUMERIC
    ours = run(name, X, y, regression=regression).weights
    np.testing.assert_allclose(ours, theirs[name], rtol=0, atol=1e-12)
    if ESTIMATORS[name].options is not None:
        ours = relieff(X, y, **corelearn_estimator(name)).weights
        np.testing.assert_allclose(ours, theirs[name], rtol=0, atol=1e-12)
    else:
        with pytest.raises(ValueError, match="is not one run of relieff"):
            corelearn_estimator(name)


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


def test_not_computed_here_says_so(monkeypatch):
    """Every estimator of CORElearn's family is computed now; one that is
    not (an entry without options or function) is refused by each door."""
    from orangecontrib.relief import corelearn
    assert all(entry.available for entry in ESTIMATORS.values())
    name = "ReliefFequalK"
    monkeypatch.setitem(ESTIMATORS, name, corelearn._missing(
        name, "a test's", corelearn._NOT_YET.format("such thing")))
    with pytest.raises(ValueError, match=f"CORElearn's {name} is not "
                                         "available: this engine has no"):
        corelearn_estimator(name)
    with pytest.raises(ValueError, match="not available"):
        CORElearn(name)
    with pytest.raises(ValueError, match="not available"):
        run(name, *golden(CLASSES)[:2])


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
    assert main(["score", path, "--estimator", "RReliefFwithMSE",
                 "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    weights = {row["feature"]: row["weight"] for row in printed}
    np.testing.assert_allclose(
        [weights[f"f{j}"] for j in range(5)],
        CORElearn("RReliefFwithMSE")(Table(path)), rtol=0, atol=1e-12)


# -- the influence of a neighbour by its distance (weight_by_distance=
# "distance" / "sqr_distance", neighbours.influence): by hand ---------------

def test_influence_one_over_distance_by_hand():
    """One numeric feature (range 1), rows 0.0, 0.1 (class 0), 0.6, 1.0
    (class 1), k = 3: each visit has one hit and two misses.  With
    influence 1 / d a miss at distance d adds d * (1 / d) = 1, so the
    misses' mean is 2 / (1 / d1 + 1 / d2); the one hit adds its diff."""
    X = np.array([[0.0], [0.1], [0.6], [1.0]])
    y = np.array([0, 0, 1, 1])
    misses = [(0.6, 1.0), (0.5, 0.9), (0.5, 0.6), (0.9, 1.0)]
    hits = [0.1, 0.1, 0.4, 0.4]
    expected = np.mean([2 / (1 / a + 1 / b) - h
                        for (a, b), h in zip(misses, hits)])
    weights = relieff(X, y, k_nearest=3,
                      weight_by_distance="distance").weights
    assert weights[0] == pytest.approx(expected, abs=1e-15)
    # 1 / d^2: the misses' mean is (1 / d1 + 1 / d2) / (1 / d1^2 + 1 / d2^2)
    expected = np.mean([(1 / a + 1 / b) / (1 / a ** 2 + 1 / b ** 2) - h
                        for (a, b), h in zip(misses, hits)])
    weights = relieff(X, y, k_nearest=3,
                      weight_by_distance="sqr_distance").weights
    assert weights[0] == pytest.approx(expected, abs=1e-15)


def test_influence_at_distance_zero_by_hand():
    """RReliefF, x = 0, 0, 0.5, 1 (range 1), y = 0, 1, 2, 4 (range 4),
    k = 3, influence 1 / d: rows 0 and 1 are each other's neighbour at
    distance 0, of influence 2 / 0.5 (the nearest non-zero distance) = 4,
    beside 2 (d = 0.5) and 1 (d = 1); row 2's three neighbours are tied
    at 0.5 (1/3 each); row 3's have influences 2, 1, 1 (of 4)."""
    X = np.array([[0.0], [0.0], [0.5], [1.0]])
    y = np.array([0.0, 1.0, 2.0, 4.0])
    n_dc = 3 / 7 + 2.25 / 7 + 1.25 / 3 + 2.75 / 4
    n_da = 2 / 7 + 2 / 7 + 0.5 + 0.75
    n_dcda = 1.5 / 7 + 1 / 7 + 0.625 / 3 + 2.25 / 4
    expected = n_dcda / n_dc - (n_da - n_dcda) / (4 - n_dc)
    weights = relieff(X, y, regression=True, k_nearest=3,
                      weight_by_distance="distance").weights
    assert weights[0] == pytest.approx(expected, abs=1e-15)


def test_influence_by_distance_refused_where_it_has_no_meaning():
    X, y, _ = golden(CLASSES)
    with pytest.raises(ValueError, match="weight_by_distance must be"):
        relieff(X, y, weight_by_distance="rank")
    with pytest.raises(ValueError, match="with compat='weka' use"):
        relieff(X, y, weight_by_distance="distance", compat="weka")
    with pytest.raises(ValueError, match="weight_by_distance ranks the k"):
        relieff(X, y, weight_by_distance="distance", neighbours="surf")


def _small(kind, seed=4, n=16):
    rng = np.random.default_rng(seed)
    num = rng.random((n, 2))
    nom = rng.integers(0, 3, (n, 2)).astype(float)
    X = np.c_[num, nom]
    nominal = np.array([0, 0, 1, 1], bool)
    y = (num[:, 0] + 0.3 * nom[:, 0] > 0.8).astype(float)
    if kind == "duplicates":
        X[5], y[5] = X[2], y[2]
    if kind == "missing":
        X[rng.random(X.shape) < 0.15] = np.nan
    if kind == "regression":
        return X, num[:, 0] + 0.3 * nom[:, 0], nominal, True
    return X, y, nominal, False


BACKEND_CASES = [(kind, mode, variant)
                 for kind in ("duplicates", "missing", "regression")
                 for mode in ("distance", "sqr_distance")
                 for variant in ("relieff", "drelieff")
                 if not (kind == "regression" and variant == "drelieff")]


@pytest.mark.parametrize("kind, mode, variant", BACKEND_CASES)
def test_influence_by_distance_same_on_every_backend(kind, mode, variant):
    """The compiled kernels, the NumPy path and the GPU's kernels (numba's
    simulator without a GPU) call the same ``neighbours.influence``."""
    X, y, nominal, regression = _small(kind)
    options = dict(regression=regression, k_nearest=5, variant=variant,
                   weight_by_distance=mode)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compiled = relieff(X, y, nominal, kernels="compiled", **options)
        numpy_path = relieff(X, y, nominal, kernels="vectorised", **options)
        rank = relieff(X, y, nominal, kernels="compiled",
                       **dict(options, weight_by_distance=True))
    np.testing.assert_allclose(numpy_path.weights, compiled.weights,
                               rtol=0, atol=1e-12)
    assert np.abs(rank.weights - compiled.weights).max() > 1e-6
    from orangecontrib.relief.core.backends.cuda import backend as cuda
    if cuda.unavailable_reason() is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            gpu = relieff(X, y, nominal, device="cuda", **options)
        np.testing.assert_allclose(gpu.weights, compiled.weights,
                                   rtol=0, atol=1e-12)


# -- the best k (best_k.py) -------------------------------------------------

@pytest.mark.parametrize("kind", ["duplicates", "missing", "regression"])
def test_best_k_is_the_largest_estimate_over_k(kind):
    """best_k's one pass equals the engine's run for each k (ties sharing
    the k-th slots, RELIEF-D's missing values, RReliefF), feature by
    feature the largest."""
    from orangecontrib.relief.best_k import best_k
    X, y, nominal, regression = _small(kind)
    X = np.floor(X * 3) / 3          # distance ties at many k
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        each = np.array([relieff(X, y, nominal, regression=regression,
                                 k_nearest=k).weights
                         for k in range(1, 16)])
        k_max = 15 if regression else int(np.bincount(
            y.astype(int)).max())
        ours = best_k(X, y, nominal, regression=regression).weights
    np.testing.assert_allclose(ours, each[:k_max].max(axis=0), rtol=0,
                               atol=1e-12)


def test_best_k_by_hand():
    """Rows 0.0, 0.1 (class 0), 0.6, 1.0 (class 1): K = 2.  k = 1 gives
    0.375 (``test_kira_relief_by_hand``: each class's nearest miss is its
    nearest other-class instance); k = 2 averages both misses:
    (0.8 + 0.7 + 0.55 + 0.95) / 4 - (0.1 + 0.1 + 0.4 + 0.4) / 4 = 0.5."""
    from orangecontrib.relief.best_k import best_k
    X = np.array([[0.0], [0.1], [0.6], [1.0]])
    y = np.array([0, 0, 1, 1])
    assert best_k(X, y).weights[0] == pytest.approx(0.5, abs=1e-15)
    assert best_k(X, y, k_max=1).weights[0] == pytest.approx(0.375,
                                                             abs=1e-15)


# -- Myopic ReliefF (myopic.py) ---------------------------------------------

def test_myopic_by_hand():
    """Six rows of classes 0, 0, 1, 0, 1, 1.  A nominal feature equal to
    the class: P(c) = P(v) = 1/2, sum P(c, v)^2 = 1/2, GG' = 1 - 1/2,
    W = (1/2)(1/2) / ((1/2)(1/2)) = 1.  A numeric feature 1 ... 6: the
    splits with two rows a side are 1-2 | 3-6, counts (2, 0 | 1, 3):
    P_eqval = 1/9 + 4/9 = 5/9, sum P(c, v)^2 = 14/36, GG' = (14/36) /
    (5/9) - 1/2 = 1/5, W = (5/9)(1/5) / (1/4) = 4/9; and 1-3 | 4-6,
    counts (2, 1 | 1, 2): W = (1/2)(5/9 - 1/2) / (1/4) = 1/9.  The best:
    4/9."""
    from orangecontrib.relief.myopic import myopic
    X = np.array([[0, 1], [0, 2], [1, 3], [0, 4], [1, 5], [1, 6]], float)
    y = np.array([0, 0, 1, 0, 1, 1])
    weights = myopic(X, y, np.array([True, False])).weights
    np.testing.assert_allclose(weights, [1, 4 / 9], rtol=0, atol=1e-15)
    with pytest.raises(ValueError, match="defined for a class"):
        myopic(X, y.astype(float), regression=True)


def test_merit_by_hand():
    """ReliefF with merit, k = 1: rows (0, 0), (0.1, 0) of class 0 and
    (0.6, 1), (1, 1) of class 1 (ranges 1).  Each hit is the other row of
    the class, at a distance of its first feature alone: diffs / d =
    (1, 0).  The nearest misses: row 0's is row 2 (d = 1.6), row 1's and
    row 2's are each other (1.5), row 3's is row 1 (1.9)."""
    from orangecontrib.relief.merit import merit
    X = np.array([[0.0, 0.0], [0.1, 0.0], [0.6, 1.0], [1.0, 1.0]])
    y = np.array([0, 0, 1, 1])
    misses = np.array([[0.6, 1], [0.5, 1], [0.5, 1], [0.9, 1]]) / \
        np.array([1.6, 1.5, 1.5, 1.9])[:, None]
    expected = (misses - [1, 0]).mean(axis=0)
    np.testing.assert_allclose(merit(X, y, k_nearest=1).weights, expected,
                               rtol=0, atol=1e-15)


# -- cost-sensitive ReliefF (costs.py) --------------------------------------

COSTS = "tie-free (60 x 5, 3 classes), costs"


@pytest.mark.parametrize("name", ["ReliefFexpC", "ReliefFavgC", "ReliefFpe",
                                  "ReliefFpa", "ReliefKukar"])
def test_cost_sensitive_equal_corelearn_with_uneven_costs(name):
    X, y, theirs = golden(COSTS)
    costs = np.array(TABLES[COSTS]["costs"])
    ours = run(name, X, y, costs=costs).weights
    np.testing.assert_allclose(ours, theirs[name], rtol=0, atol=1e-12)
    # every cost 1: expC and pe are ReliefFexpRank
    if name in ("ReliefFexpC", "ReliefFpe"):
        np.testing.assert_allclose(
            run(name, X, y).weights, golden(CLASSES)[2]["ReliefFexpRank"],
            rtol=0, atol=1e-12)


def test_cost_sensitive_by_hand():
    """expC, two classes of two rows (0.0, 0.1 | 0.6, 1.0), costs 2 (class
    0 taken for 1) and 3: F = [[-2, 2], [3, -3]] (P = 1/2 each); the one
    hit and the two misses of rank 0 and 1 (influences 1 and
    e = exp(-1/400))."""
    X = np.array([[0.0], [0.1], [0.6], [1.0]])
    y = np.array([0, 0, 1, 1])
    e = np.exp(-1 / 400)
    misses = [(0.6, 1.0), (0.5, 0.9), (0.5, 0.6), (0.9, 1.0)]
    hits = [0.1, 0.1, 0.4, 0.4]
    factor = [2, 2, 3, 3]
    expected = np.mean([f * ((a + e * b) / (1 + e) - h) for (a, b), h, f
                        in zip(misses, hits, factor)])
    weights = run("ReliefFexpC", X, y, costs=[[0, 2], [3, 0]]).weights
    assert weights[0] == pytest.approx(expected, abs=1e-15)


def test_costs_checked():
    X, y, _ = golden(CLASSES)
    with pytest.raises(ValueError, match="square matrix of at least 3 x 3"):
        run("ReliefFexpC", X, y, costs=np.ones((2, 2)))
    with pytest.raises(ValueError, match="finite and non-negative"):
        run("ReliefFpa", X, y, costs=-np.ones((3, 3)))
    with pytest.raises(ValueError, match="takes no cost matrix"):
        run("ReliefFequalK", X, y, costs=np.ones((3, 3)))


def test_kukar_by_hand():
    """ReliefKukar on the four rows of ``test_kira_relief_by_hand`` (misses
    0.6, 0.5, 0.5, 0.9; hits 0.1, 0.1, 0.4, 0.4), costs 2 and 3: Laplace's
    P = 3/6 each, E = (2, 3), sum P E = 5/2, so class 0's misses weigh 4/5
    and class 1's 6/5."""
    X = np.array([[0.0], [0.1], [0.6], [1.0]])
    y = np.array([0, 0, 1, 1])
    expected = (0.8 * (0.6 + 0.5) + 1.2 * (0.5 + 0.9) - 1.0) / 4
    weights = run("ReliefKukar", X, y, costs=[[0, 2], [3, 0]]).weights
    assert weights[0] == pytest.approx(expected, abs=1e-15)


def test_influence_by_distance_on_a_dask_cluster():
    """The Dask backend runs the compiled visits (``neighbours.select``,
    ``tie_shares``): the same weights."""
    distributed = pytest.importorskip("distributed")
    from orangecontrib.relief import distributed as relief_dask
    X, y, nominal, _ = _small("duplicates")
    options = dict(k_nearest=5, weight_by_distance="sqr_distance")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        local = relieff(X, y, nominal, kernels="compiled", **options)
        with distributed.LocalCluster(
                n_workers=1, threads_per_worker=1, processes=False,
                dashboard_address=":0") as cluster, \
                distributed.Client(cluster) as client:
            remote = relief_dask.relieff(X, y, nominal, client=client,
                                         **options)
    np.testing.assert_allclose(remote.weights, local.weights, rtol=0,
                               atol=1e-12)


def test_instance_weights_reach_the_engine_runs_and_are_refused_elsewhere():
    """An estimator that is one run of the engine takes instance weights
    (integer weights = repeated rows), through the scorer's Table.W and the
    selector's sample_weight; one computed on top of the engine refuses
    them with a sentence rather than ignore them, and refuses several
    targets."""
    rng = np.random.default_rng(3)
    X, y = rng.random((30, 4)), rng.integers(0, 2, 30).astype(float)
    weights = rng.integers(0, 4, 30).astype(float)
    rows = np.repeat(np.arange(30), weights.astype(int))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        weighted = run("ReliefFequalK", X, y, instance_weights=weights)
        repeated = run("ReliefFequalK", X[rows], y[rows])
        np.testing.assert_allclose(weighted.weights, repeated.weights,
                                   atol=1e-12)
        domain = Domain([ContinuousVariable(f"x{i}") for i in range(4)],
                        DiscreteVariable("c", values=("a", "b")))
        table = Table.from_numpy(domain, X, y, W=weights)
        scored = CORElearn("ReliefFequalK").score_data(table)
        np.testing.assert_allclose(np.ravel(scored), repeated.weights,
                                   atol=1e-12)
        selector = ReliefFSelector(estimator="ReliefFequalK")
        selector.fit(X, y.astype(int), sample_weight=weights)
        np.testing.assert_allclose(selector.feature_importances_,
                                   repeated.weights, atol=1e-12)
        for name in ("ReliefFbestK", "MyopicReliefF", "ReliefFmerit",
                     "ReliefKukar"):
            with pytest.raises(ValueError, match="does not take instance"):
                run(name, X, y, instance_weights=weights)
            with pytest.raises(ValueError, match="does not take instance"):
                CORElearn(name).score_data(table)
            with pytest.raises(ValueError, match="does not take instance"):
                ReliefFSelector(estimator=name).fit(
                    X, y.astype(int), sample_weight=weights)
        # weights all 1 are no weights
        run("ReliefFbestK", X, y, instance_weights=np.ones(30))
        with pytest.raises(ValueError, match="takes one target"):
            run("RReliefFbestK", X, rng.random((30, 2)), regression=True)


# -- the cost matrix through the scorer, the selector and the command line --

COST_SENSITIVE = ["ReliefFexpC", "ReliefFavgC", "ReliefFpe", "ReliefFpa",
                  "ReliefKukar"]


@pytest.mark.parametrize("name", COST_SENSITIVE)
def test_costs_reach_the_scorer_and_the_selector(name):
    """CORElearn's numbers with the uneven cost matrix, through
    ``CORElearn(name, costs=C)`` and ``ReliefFSelector(estimator=name,
    costs=C)``; with the classes renamed so that their order changes (the
    class variable's values, ``classes_``), the matrix permuted alike gives
    the same numbers, and the unpermuted one other numbers."""
    X, y, theirs = golden(COSTS)
    costs = np.array(TABLES[COSTS]["costs"])
    table = orange_table(COSTS)
    np.testing.assert_allclose(CORElearn(name, costs=costs)(table),
                               theirs[name], rtol=0, atol=1e-12)
    selector = ReliefFSelector(estimator=name, costs=costs).fit(X, y)
    np.testing.assert_allclose(selector.feature_importances_, theirs[name],
                               rtol=0, atol=1e-12)
    # class 0 -> "z", 1 -> "x", 2 -> "y": classes_ is x, y, z
    labels = np.array(["z", "x", "y"])[y.astype(int)]
    order = [1, 2, 0]                  # classes_'s codes in the old coding
    permuted = costs[np.ix_(order, order)]
    selector = ReliefFSelector(estimator=name, costs=permuted).fit(X, labels)
    assert list(selector.classes_) == ["x", "y", "z"]
    np.testing.assert_allclose(selector.feature_importances_, theirs[name],
                               rtol=0, atol=1e-12)
    domain = Domain(table.domain.attributes,
                    DiscreteVariable("y", values=("x", "y", "z")))
    renamed = Table.from_numpy(domain, X, np.array(
        [order.index(code) for code in y.astype(int)], dtype=float))
    np.testing.assert_allclose(CORElearn(name, costs=permuted)(renamed),
                               theirs[name], rtol=0, atol=1e-12)
    assert not np.allclose(CORElearn(name, costs=costs)(renamed),
                           theirs[name], rtol=0, atol=1e-6)


def test_costs_checked_by_the_scorer_and_the_selector():
    X, y, _ = golden(COSTS)
    table = orange_table(COSTS)
    three = np.ones((3, 3))
    for bad, message in (
            (np.ones((2, 2)), r"3 x 3 matrix, a row and a column for each "
                              r"class \(a, b, c, in this order\)"),
            (np.ones(3), r"matrix.*got shape \(3,\)"),
            ([[0, 1, np.nan], [1, 0, 1], [1, 1, 0]], "finite and non-neg"),
            ([[0, 1, np.inf], [1, 0, 1], [1, 1, 0]], "finite and non-neg"),
            (-three, "finite and non-negative"),
            ([["a", 1, 1]] * 3, "matrix of numbers")):
        with pytest.raises(ValueError, match=message):
            CORElearn("ReliefFexpC", costs=bad)(table)
        with pytest.raises(ValueError, match=message.replace(
                "a, b, c", "0.0, 1.0, 2.0")):
            ReliefFSelector(estimator="ReliefFexpC", costs=bad).fit(X, y)
    # a 4 x 4 matrix is square, but the class has three values
    with pytest.raises(ValueError, match="3 x 3 matrix"):
        CORElearn("ReliefFpa", costs=np.ones((4, 4)))(table)
    for name in ("ReliefFequalK", "ReliefFbestK", "RReliefFexpRank"):
        with pytest.raises(ValueError, match=f"{name} takes no cost matrix"):
            CORElearn(name, costs=three)
    with pytest.raises(ValueError, match="ReliefFequalK takes no cost"):
        ReliefFSelector(estimator="ReliefFequalK", costs=three).fit(X, y)
    with pytest.raises(ValueError, match="no CORElearn estimator is named"):
        ReliefFSelector(costs=three).fit(X, y)
    with pytest.raises(ValueError, match="RReliefFexpRank takes no cost"):
        ReliefFSelector(estimator="RReliefFexpRank", costs=np.ones((1, 1))
                        ).fit(*golden(NUMERIC)[:2])


def test_costs_on_the_command_line(tmp_path, capsys):
    """``--costs "r0;r1;r2"`` (rows by ';', costs by ','): the scorer's
    numbers on what the .tab file holds, CORElearn's to its rounding."""
    path = str(tmp_path / "classes.tab")
    orange_table(COSTS).save(path)
    costs = np.array(TABLES[COSTS]["costs"])
    text = ";".join(",".join(repr(float(c)) for c in row) for row in costs)
    assert main(["score", path, "--estimator", "ReliefFpa", "--costs", text,
                 "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    weights = [{row["feature"]: row["weight"] for row in printed}[f"f{j}"]
               for j in range(5)]
    scorer = CORElearn("ReliefFpa", costs=costs)(Table(path))
    np.testing.assert_allclose(weights, scorer, rtol=0, atol=1e-12)
    np.testing.assert_allclose(scorer, golden(COSTS)[2]["ReliefFpa"],
                               rtol=0, atol=1e-5)
    for args, message in (
            (["--estimator", "ReliefFpa", "--costs", "0,1;1,0"],
             "3 x 3 matrix"),
            (["--estimator", "ReliefFpa", "--costs", "0,1,1;1,0;1,1,0"],
             "matrix of numbers"),
            (["--estimator", "ReliefFpa", "--costs", "0,-1,1;1,0,1;1,1,0"],
             "non-negative"),
            (["--estimator", "ReliefFequalK", "--costs", "0,1,1;1,0,1;1,1,0"],
             "takes no cost matrix"),
            (["--costs", "0,1,1;1,0,1;1,1,0"], "use it with --estimator")):
        assert main(["score", path] + args) == 2
        assert message in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["score", path, "--estimator", "ReliefFpa", "--costs",
              "0,1,x;1,0,1;1,1,0"])
    assert exit_info.value.code == 2
    assert "expected rows of numbers" in capsys.readouterr().err


# -- ReliefFsmp: ReliefFexpRank with visits drawn by the expected cost ------

def test_sampled_visits_by_hand():
    """Two classes of 3 and 1 instances, probabilities 1/4 and 3/4, m = 4:
    class 0 gets floor(4 / 4) = 1 visit (one of its three, drawn), class
    1 the other 3, all of its one instance; m = 9: class 0 floor(9 / 4) =
    2 (two distinct of its three), class 1 7."""
    from orangecontrib.relief.costs import stratified_visits
    group = np.array([0, 0, 0, 1])
    rng = np.random.default_rng(0)
    for m, first, last in ((4, 1, 3), (9, 2, 7), (12, 3, 9)):
        times = stratified_visits(group, np.array([0.25, 0.75]), m, rng)
        assert times.sum() == m and times[3] == last
        assert times[:3].sum() == first and times[:3].max() <= 1 + m // 12
    # 12 visits: class 0 three, exactly one each
    np.testing.assert_array_equal(times, [1, 1, 1, 9])


def test_cost_priors_by_hand():
    """P = (1/2, 1/2), costs 2 (class 0 taken for 1) and 3: E = (2, 3), so
    the classes' visits have probabilities 2/5 and 3/5; every cost 1: P."""
    from orangecontrib.relief.costs import cost_priors
    np.testing.assert_allclose(
        cost_priors(np.array([[0.0, 2.0], [3.0, 0.0]]), np.array([.5, .5])),
        [0.4, 0.6], rtol=0, atol=1e-15)
    priors = np.array([0.2, 0.3, 0.5])
    np.testing.assert_allclose(cost_priors(np.ones((3, 3)), priors), priors,
                               rtol=0, atol=1e-15)


def test_smp_by_its_definition():
    """Every cost 1 (CORElearn's default), every instance visited once:
    ReliefFexpRank, CORElearn's numbers; m = 2n, each visited twice: the
    same; uneven costs: reproducible with a seed, another seed other
    visits, and the visits weighted towards the costly classes."""
    X, y, theirs = golden(COSTS)
    costs = np.array(TABLES[COSTS]["costs"])
    expected = golden(CLASSES)[2]["ReliefFexpRank"]
    np.testing.assert_allclose(run("ReliefFsmp", X, y).weights, expected,
                               rtol=0, atol=1e-12)
    np.testing.assert_allclose(golden(CLASSES)[2]["ReliefFsmp"], expected,
                               rtol=0, atol=1e-12)
    np.testing.assert_allclose(
        run("ReliefFsmp", X, y, n_iterations=2 * len(y)).weights, expected,
        rtol=0, atol=1e-12)
    first = run("ReliefFsmp", X, y, costs=costs, random_state=1)
    again = run("ReliefFsmp", X, y, costs=costs, random_state=1)
    other = run("ReliefFsmp", X, y, costs=costs, random_state=2)
    np.testing.assert_array_equal(first.weights, again.weights)
    assert np.abs(first.weights - other.weights).max() > 1e-6
    assert first.n_iterations == len(y)
    assert not np.allclose(first.weights, expected, rtol=0, atol=1e-6)
    # the seeded scorer and selector draw the same visits
    np.testing.assert_array_equal(
        CORElearn("ReliefFsmp", costs=costs, random_state=1)(
            orange_table(COSTS)), first.weights)
    np.testing.assert_array_equal(ReliefFSelector(
        estimator="ReliefFsmp", costs=costs, random_state=1).fit(X, y)
        .feature_importances_, first.weights)


def test_smp_visits_weighted_by_expected_cost():
    """Many visits drawn with the uneven costs: each class's share of them
    is its probability p_i = P(i) E_i / sum_k P(k) E_k (to one visit)."""
    from orangecontrib.relief.costs import cost_priors, stratified_visits
    X, y, _ = golden(COSTS)
    costs = np.array(TABLES[COSTS]["costs"])
    priors = np.bincount(y.astype(int)) / len(y)
    p = cost_priors(costs, priors)
    times = stratified_visits(y.astype(int), p, 6000,
                              np.random.default_rng(5))
    np.testing.assert_allclose(np.bincount(y.astype(int), weights=times)
                               / 6000, p, atol=1 / 6000)


def test_smp_options_checked():
    X, y, _ = golden(CLASSES)
    for bad in (0, -3, 2.5, True):
        with pytest.raises(ValueError, match="n_iterations must be a whole"):
            run("ReliefFsmp", X, y, n_iterations=bad)
    with pytest.raises(ValueError, match="random_state must be a seed"):
        run("ReliefFsmp", X, y, random_state="x")
    with pytest.raises(ValueError, match="visits every instance"):
        run("ReliefFexpC", X, y, n_iterations=10)
    with pytest.raises(ValueError, match="visits every instance"):
        CORElearn("ReliefFbestK", n_iterations=10)(orange_table(CLASSES))


def test_smp_on_the_command_line(tmp_path, capsys):
    """``--m`` and ``--seed`` reach ReliefFsmp (the scorer's numbers on
    what the .tab file holds); ``--m`` has no meaning for the others."""
    path = str(tmp_path / "classes.tab")
    orange_table(COSTS).save(path)
    assert main(["score", path, "--estimator", "ReliefFsmp", "--costs",
                 "0,1,4;2,0,1;1,3,0", "--m", "45", "--seed", "4",
                 "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    weights = [{row["feature"]: row["weight"] for row in printed}[f"f{j}"]
               for j in range(5)]
    scorer = CORElearn("ReliefFsmp", costs=[[0, 1, 4], [2, 0, 1],
                                            [1, 3, 0]],
                       n_iterations=45, random_state=4)
    np.testing.assert_allclose(weights, scorer(Table(path)), rtol=0,
                               atol=1e-12)
    assert main(["score", path, "--estimator", "ReliefFexpC", "--m",
                 "45"]) == 2
    assert "--m has no meaning" in capsys.readouterr().err


# -- RReliefFwithMSE (mse.py) -----------------------------------------------

def test_mse_of_mean_by_hand():
    """y = 0, 0, 1, 1: x = 0, 1, 2, 3 splits it clean (0); x = 0, 1, 0, 1
    leaves each side's variance 1/4 (-1/4); a nominal feature of codes 2,
    2, 0, 0 (means 0 and 1) splits it clean; a constant has no split: the
    target's variance (-1/4); a missing value is left out (its rows 0, 1,
    3: split between 1 and 3, {0, 0} | {1}: 0)."""
    from orangecontrib.relief.mse import mse_of_mean
    X = np.array([[0, 0, 2, 5, 0], [1, 1, 2, 5, 1], [2, 0, 0, 5, np.nan],
                  [3, 1, 0, 5, 3]], dtype=float)
    y = np.array([0.0, 0.0, 1.0, 1.0])
    nominal = np.array([False, False, True, False, False])
    np.testing.assert_allclose(mse_of_mean(X, y, nominal),
                               [0, -0.25, 0, -0.25, 0], rtol=0, atol=1e-15)
    # three values, y = 1, 2, 6: the best split {1, 2} | {6}: 2/3 * 1/4
    np.testing.assert_allclose(
        mse_of_mean(np.array([[0.0], [1.0], [2.0]]), np.array([1., 2, 6])),
        [-(2 / 3) * 0.25], rtol=0, atol=1e-15)


def test_with_mse_combination_by_hand():
    """W = w R + (1 - w) M, each scaled to [0, 1], w = exp(-1 / (n /
    50)^2): on the golden numeric table (n = 60) from RReliefFexpRank's
    and MSE's own numbers, and CORElearn's."""
    from orangecontrib.relief.mse import mse_of_mean
    X, y, theirs = golden(NUMERIC)
    relief = theirs["RReliefFexpRank"]
    mse = mse_of_mean(X, y)

    def scaled(v):
        return (v - v.min()) / (v.max() - v.min())
    w = np.exp(-1 / (60 / 50) ** 2)
    expected = w * scaled(relief) + (1 - w) * scaled(mse)
    ours = run("RReliefFwithMSE", X, y, regression=True).weights
    np.testing.assert_allclose(ours, expected, rtol=0, atol=1e-12)
    np.testing.assert_allclose(ours, theirs["RReliefFwithMSE"], rtol=0,
                               atol=1e-12)
    assert ours.max() == pytest.approx(1.0)


def test_refits_of_an_estimator_on_top_of_the_engine_are_refused():
    """The tests, stability and redundancy refit one run of the engine: for
    an estimator computed on top of it (ReliefFbestK) they would give plain
    ReliefF's numbers, so they say so; for one that is an engine run
    (ReliefFequalK) they refit its own options."""
    table = orange_table(COSTS)
    on_top = CORElearn("ReliefFbestK")
    for call in (lambda: on_top.significance(table, n_permutations=2),
                 lambda: on_top.stability(table, n_resamples=2),
                 lambda: on_top.redundancy(table)):
        with pytest.raises(ValueError, match="ReliefFbestK is computed on "
                                             "top of the engine"):
            call()
    one_run = CORElearn("ReliefFequalK").significance(table, n_permutations=2)
    np.testing.assert_array_equal(
        one_run.weights, CORElearn("ReliefFequalK")(table))
