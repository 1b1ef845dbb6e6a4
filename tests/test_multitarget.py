"""Several class variables: multi-target Relief (Petković, Kocev &
Džeroski, "Feature ranking for multi-target regression", Machine Learning
2020), RReliefF's form with the targets' difference the mean of the
per-target differences (``doc/semantics.md``, "Several class variables").

``multi_target_rrelieff`` below is written from the papers, loop by loop,
not from the engine: RReliefF's algorithm (Robnik-Šikonja & Kononenko 2003,
Fig. 3) with diff(tau, R, I) replaced by the mean over the targets known
in both instances of |Δ| / range (numeric) or [values differ] (nominal)."""
import math
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from orangecontrib.relief import distributed
from orangecontrib.relief.cli import main, with_class
from orangecontrib.relief.core import relieff
from orangecontrib.relief.scoring import (IReliefF, PDReliefF, ReliefF,
                                          RReliefF)
from orangecontrib.relief.core.contract.prepare import prepare, with_target
from orangecontrib.relief.core.variants import named
from orangecontrib.relief.sklearn import (IterSelector, ReliefFSelector,
                                          TuRFSelector, VLSSelector)
from orangecontrib.relief.stats import TESTS, permutation_test, stability

TOL = 1e-12
RULES = ("k", "surf", "multisurf")
VARIANTS = ("relieff", "drelieff", "pdrelieff")
#: every variant with a regression form (the ramps too), from the registry
ALL_VARIANTS = named(regression=True, visits=True)
BACKENDS = ("compiled", "vectorised")


# -- the reference, from the papers -----------------------------------------

def target_difference(yi, yj, nominal_targets, ranges):
    """diff(tau, I_i, I_j) of several targets (Petković et al. 2020): the
    mean over the targets known in both of |y_i - y_j| / range (numeric)
    or 0 / 1 (nominal); None when no target is known in both."""
    parts = []
    for c, nominal in enumerate(nominal_targets):
        a, b = yi[c], yj[c]
        if math.isnan(a) or math.isnan(b):
            continue
        if nominal:
            parts.append(0.0 if a == b else 1.0)
        else:
            parts.append(abs(a - b) / ranges[c] if ranges[c] > 0 else 0.0)
    return sum(parts) / len(parts) if parts else None


def feature_difference(x, i, j, f, nominal, lo, hi):
    """diff(A, I_i, I_j): |x_i - x_j| / (max - min), or [x_i != x_j]."""
    if nominal[f]:
        return 0.0 if x[i][f] == x[j][f] else 1.0
    return abs(x[i][f] - x[j][f]) / (hi[f] - lo[f])


def multi_target_rrelieff(X, Y, nominal, nominal_targets, k):
    """RReliefF (Robnik-Šikonja & Kononenko 2003, Fig. 3) on every
    instance, the k nearest instances each of influence 1/k, with the
    multi-target difference of the targets; rows whose targets are all
    missing are left out; a pair with no target known in both adds nothing
    to N_dC and N_dC&dA."""
    rows = [i for i in range(len(Y))
            if not all(math.isnan(v) for v in Y[i])]
    x = [list(X[i]) for i in rows]
    y = [list(Y[i]) for i in rows]
    n, a = len(x), len(x[0])
    lo = [min(row[f] for row in x) for f in range(a)]
    hi = [max(row[f] for row in x) for f in range(a)]
    ranges = []
    for c in range(len(nominal_targets)):
        known = [row[c] for row in y if not math.isnan(row[c])]
        ranges.append(max(known) - min(known) if known else 0.0)
    n_dc, n_da, n_dcda = 0.0, [0.0] * a, [0.0] * a
    for i in range(n):
        distance = []
        for j in range(n):
            if j != i:
                distance.append((sum(feature_difference(
                    x, i, j, f, nominal, lo, hi) for f in range(a)), j))
        distance.sort()
        for _, j in distance[:k]:
            d = 1.0 / k
            dc = target_difference(y[i], y[j], nominal_targets, ranges)
            dc = 0.0 if dc is None else dc
            n_dc += dc * d
            for f in range(a):
                da = feature_difference(x, i, j, f, nominal, lo, hi)
                n_da[f] += da * d
                n_dcda[f] += dc * da * d
    m = n
    return np.array([n_dcda[f] / n_dc - (n_da[f] - n_dcda[f]) / (m - n_dc)
                     for f in range(a)])


# -- data ---------------------------------------------------------------------

def features(n=40, a=5, seed=0, nominal_column=True):
    """Numeric features (no ties) and, optionally, a nominal last one."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, a))
    nominal = np.zeros(a, dtype=bool)
    if nominal_column:
        X[:, -1] = rng.integers(0, 3, n)
        nominal[-1] = True
    return X, nominal


def targets(X, seed=1, missing=0.0):
    """A numeric target of features 0 and 1, another of feature 2, and a
    nominal target (codes 0-2) of feature 0; ``missing``: the share of
    target values set to NaN."""
    rng = np.random.default_rng(seed)
    Y = np.column_stack([X[:, 0] + 0.5 * X[:, 1] + 0.1 * rng.random(len(X)),
                         3.0 * X[:, 2] - 7.0,
                         np.floor(X[:, 0] * 2.999)])
    if missing:
        Y[rng.random(Y.shape) < missing] = np.nan
    return Y


# -- the engine against the reference -----------------------------------------

@pytest.mark.parametrize("kernels", BACKENDS)
def test_numeric_and_nominal_targets_equal_the_reference(kernels):
    X, nominal = features()
    Y = targets(X)
    flags = [False, False, True]
    result = relieff(X, Y, nominal, nominal_targets=flags, k_nearest=5,
                     kernels=kernels)
    expected = multi_target_rrelieff(X, Y, nominal, flags, 5)
    np.testing.assert_allclose(result.weights, expected, rtol=TOL, atol=TOL)


@pytest.mark.parametrize("kernels", BACKENDS)
def test_missing_target_values_equal_the_reference(kernels):
    """Missing values of the targets are skipped target by target; a row
    with every target missing is left out (with a warning), and pairs with
    no target known in both add nothing to N_dC and N_dC&dA."""
    X, nominal = features(n=45, seed=3)
    Y = targets(X, seed=4, missing=0.3)
    Y[7] = np.nan                               # every target missing
    Y[8, :] = [np.nan, 1.0, np.nan]             # pairs with none in common
    Y[9, :] = [0.5, np.nan, np.nan]
    flags = [False, False, True]
    with pytest.warns(UserWarning,
                      match=r"instance\(s\) with no known target"):
        result = relieff(X, Y, nominal, nominal_targets=flags, k_nearest=4,
                         kernels=kernels)
    expected = multi_target_rrelieff(X, Y, nominal, flags, 4)
    np.testing.assert_allclose(result.weights, expected, rtol=TOL, atol=TOL)


def test_the_reference_is_rrelieff_with_one_target():
    """The reference with one numeric target is RReliefF: the engine's
    single-target weights (its arithmetic unchanged)."""
    X, nominal = features(seed=5)
    y = targets(X)[:, 0]
    expected = multi_target_rrelieff(X, y[:, None], nominal, [False], 6)
    weights = relieff(X, y, nominal, regression=True, k_nearest=6).weights
    np.testing.assert_allclose(weights, expected, rtol=TOL, atol=TOL)


# -- two copies of a target are that target -----------------------------------

@pytest.mark.parametrize("kernels", BACKENDS)
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("rule", RULES)
def test_two_copies_of_a_target_score_as_the_target(rule, variant, kernels):
    X, nominal = features(n=36, seed=6)
    y = targets(X)[:, 0]
    options = dict(neighbours=rule, variant=variant, k_nearest=4,
                   kernels=kernels, trace_every=9)
    one = relieff(X, y, nominal, regression=True, **options)
    two = relieff(X, np.column_stack([y, y]), nominal, **options)
    np.testing.assert_allclose(two.weights, one.weights, rtol=TOL, atol=TOL)
    np.testing.assert_allclose(two.trace, one.trace, rtol=TOL, atol=TOL)


@pytest.mark.parametrize("variant", VARIANTS)
def test_two_copies_with_missing_feature_values_and_sparse_data(variant):
    """RELIEF-D's update (missing feature values) and the sparse loop take
    several targets as well."""
    X, nominal = features(n=36, seed=7)
    X[np.random.default_rng(8).random(X.shape) < 0.1] = np.nan
    y = targets(np.nan_to_num(X))[:, 0]
    for data in (X, sp.csr_matrix(np.where(np.isnan(X), 0.0, X)
                                  * (np.arange(36)[:, None] % 3 > 0))):
        one = relieff(data, y, nominal, regression=True, variant=variant,
                      k_nearest=5)
        two = relieff(data, np.column_stack([y, y]), nominal,
                      variant=variant, k_nearest=5)
        np.testing.assert_allclose(two.weights, one.weights, rtol=TOL,
                                   atol=TOL)


def test_a_one_column_y_is_the_single_target():
    X, nominal = features(seed=9)
    y = targets(X)[:, 1]
    one = relieff(X, y, nominal, regression=True).weights
    column = relieff(X, y[:, None], nominal, regression=True).weights
    assert np.array_equal(one, column)


@pytest.mark.parametrize("kernels", BACKENDS)
@pytest.mark.parametrize("variant", ALL_VARIANTS)
@pytest.mark.parametrize("rule", RULES)
def test_mixed_targets_every_variant_and_rule(rule, variant, kernels):
    """Mixed numeric and nominal targets with missing values score on every
    variant and rule, the same on both backends."""
    X, nominal = features(n=30, seed=10)
    Y = targets(X, missing=0.2)
    flags = [False, False, True]
    weights = relieff(X, Y, nominal, nominal_targets=flags, variant=variant,
                      neighbours=rule, k_nearest=4, kernels=kernels).weights
    compiled = relieff(X, Y, nominal, nominal_targets=flags, variant=variant,
                       neighbours=rule, k_nearest=4).weights
    assert np.all(np.isfinite(weights))
    np.testing.assert_allclose(weights, compiled, rtol=1e-12, atol=1e-14)


def test_constant_targets_learn_nothing():
    """Targets of which none varies: every pair's diff(tau) is 0, all
    weights 0, with the single target's warning; one varying target among
    constant ones is learnt from (the constant ones dilute its diff)."""
    X, nominal = features(n=20, seed=18)
    Y = np.column_stack([np.full(20, 3.0), np.ones(20), np.full(20, np.nan)])
    Y[0, 2] = 1.0
    with pytest.warns(UserWarning, match="The target is constant"):
        weights = relieff(X, Y, nominal,
                          nominal_targets=[False, True, True]).weights
    assert np.all(weights == 0)
    Y[:, 0] = X[:, 0]
    weights = relieff(X, Y, nominal, nominal_targets=[False, True, True])
    assert np.argmax(weights.weights) == 0


def test_the_nominal_target_matters():
    """A nominal target is compared by equality, not by its codes' size:
    recoding its values (0, 1, 2 -> 2, 0, 1) changes nothing."""
    X, nominal = features(seed=11)
    Y = targets(X)
    recoded = Y.copy()
    recoded[:, 2] = (Y[:, 2] + 2) % 3
    flags = [False, False, True]
    one = relieff(X, Y, nominal, nominal_targets=flags).weights
    two = relieff(X, recoded, nominal, nominal_targets=flags).weights
    np.testing.assert_allclose(one, two, rtol=TOL, atol=TOL)
    numeric = relieff(X, Y, nominal).weights
    assert not np.allclose(one, numeric)


def test_dask_backend_takes_several_targets():
    pytest.importorskip("distributed")
    from distributed import Client, LocalCluster
    X, nominal = features(seed=12)
    Y = targets(X, missing=0.1)
    flags = [False, False, True]
    expected = relieff(X, Y, nominal, nominal_targets=flags).weights
    with LocalCluster(n_workers=1, processes=False,
                      dashboard_address=":0") as cluster, \
            Client(cluster) as client:
        result = distributed.relieff(X, Y, nominal, client=client,
                                     nominal_targets=flags)
    np.testing.assert_allclose(result.weights, expected, rtol=TOL, atol=TOL)


# -- bad input ----------------------------------------------------------------

@pytest.mark.parametrize("options, message", [
    (dict(variant="irelief"), "I-RELIEF has no regression form"),
    (dict(neighbours="multisurf*"), "scores far instances"),
    (dict(compat="weka"), "Weka's ReliefFAttributeEval takes one class"),
    (dict(statistics=True), "STIR's sums are classification's"),
    (dict(nominal_targets=[True]), "nominal_targets has 1 flags but y has "
                                   "3 target columns"),
    (dict(nominal_targets=["yes", 0, 1]), "a flag .True or False. per"),
])
def test_what_several_targets_refuse(options, message):
    X, nominal = features(n=20)
    Y = targets(X)
    with pytest.raises((ValueError, RuntimeError), match=message):
        relieff(X, Y, nominal, **options)


def test_bad_targets_are_named():
    X, nominal = features(n=20)
    Y = targets(X)
    with pytest.raises(ValueError, match="X has 20 rows but y has 19"):
        relieff(X, Y[:19], nominal)
    wrong = Y.copy()
    wrong[3, 2] = 0.5
    with pytest.raises(ValueError, match="Target column 2 is nominal but "
                                         "holds values that are not integer"):
        relieff(X, wrong, nominal, nominal_targets=[False, False, True])
    wrong[3, 2] = -1
    with pytest.raises(ValueError, match="Target column 2 is nominal"):
        relieff(X, wrong, nominal, nominal_targets=[False, False, True])
    infinite = Y.copy()
    infinite[0, 0] = np.inf
    with pytest.raises(ValueError, match="inf"):
        relieff(X, infinite, nominal)
    with pytest.raises(ValueError, match="nominal_targets describes"):
        relieff(X, Y[:, 0], nominal, nominal_targets=[False])
    words = np.array(["low", "high"])[(Y[:, :2] > 0).astype(int)]
    with pytest.raises(ValueError, match="must hold numbers"):
        relieff(X, words, nominal)


def test_on_the_gpu_declined_to_the_cpu():
    """device="auto" keeps several targets on the CPU until they are
    measured on a GPU (device="cuda" computes them: test_cuda_weights.py),
    with the reason."""
    from orangecontrib.relief.core.backends.cuda import backend as cuda
    from orangecontrib.relief.core.engine import start
    X, nominal = features(n=20)
    setup = start(X, targets(X), nominal)
    assert "several targets" in cuda.auto_declines(setup)


# -- statistics ---------------------------------------------------------------

def test_permutation_test_permutes_rows_of_targets_together():
    X, nominal = features(n=30, seed=13)
    Y = targets(X, missing=0.1)
    flags = [False, False, True]
    result = permutation_test(X, Y, nominal, n_permutations=9,
                              nominal_targets=flags, k_nearest=4)
    np.testing.assert_allclose(
        result.weights, relieff(X, Y, nominal, nominal_targets=flags,
                                k_nearest=4).weights, rtol=TOL)
    assert result.p_values.shape == (X.shape[1],)
    assert result.p_values[0] == pytest.approx(0.1)    # best of 10
    rows = stability(X, Y, nominal, n_resamples=3, nominal_targets=flags,
                     k_nearest=4)
    assert rows.ranks.shape == (3, X.shape[1])


@pytest.mark.parametrize("name", ["stir", "npdr", "npdr_permutation"])
def test_tests_of_one_target_refuse_several(name):
    X, nominal = features(n=30, seed=13)
    with pytest.raises(ValueError, match="takes one target"):
        TESTS[name].run(X, targets(X), nominal, n_permutations=9)


# -- the surfaces -------------------------------------------------------------

def multi_target_table(missing=0.1):
    """An Orange table with two continuous and one discrete class
    variable (missing values among them) and a discrete attribute."""
    from Orange.data import (ContinuousVariable, DiscreteVariable, Domain,
                             Table)
    X, nominal = features(n=40, seed=14)
    Y = targets(X, missing=missing)
    attributes = [ContinuousVariable(f"x{i}") for i in range(4)] + [
        DiscreteVariable("colour", values=("r", "g", "b"))]
    classes = [ContinuousVariable("t0"), ContinuousVariable("t1"),
               DiscreteVariable("kind", values=("a", "b", "c"))]
    return Table.from_numpy(Domain(attributes, classes), X, Y), X, Y, nominal


def test_table_with_class_vars_through_the_scorers():
    table, X, Y, nominal = multi_target_table()
    expected = relieff(X, Y, nominal, nominal_targets=[False, False, True])
    for scorer in (ReliefF(), RReliefF()):
        np.testing.assert_allclose(scorer(table), expected.weights,
                                   rtol=TOL, atol=TOL)
    assert scorer.score_data(table).shape == (1, 5)
    assert scorer(table, "x0") == pytest.approx(expected.weights[0], TOL)
    significance = ReliefF().significance(table, n_permutations=4)
    np.testing.assert_allclose(significance.weights, expected.weights,
                               rtol=TOL, atol=TOL)
    with pytest.raises(ValueError, match="takes one target"):
        ReliefF().significance(table, method="stir")
    pd_weights = PDReliefF()(table)
    assert np.all(np.isfinite(pd_weights))
    with pytest.raises(ValueError, match="I-RELIEF needs a single "
                                         "categorical target"):
        IReliefF()(table)
    with pytest.raises(ValueError, match="Weka's ReliefFAttributeEval "
                                         "takes one class"):
        ReliefF(compat="weka")(table)


def test_selector_with_a_two_dimensional_y():
    X, nominal = features(n=40, seed=15, nominal_column=False)
    Y = targets(X)
    labels = np.array(["a", "b", "c"])[Y[:, 2].astype(int)]
    y = np.empty((40, 3), dtype=object)
    y[:, 0], y[:, 1], y[:, 2] = Y[:, 0], Y[:, 1], labels
    selector = ReliefFSelector(n_features_to_select=2).fit(X, y)
    expected = relieff(X, Y, None, nominal_targets=[False, False, True])
    np.testing.assert_allclose(selector.feature_importances_,
                               expected.weights, rtol=TOL, atol=TOL)
    assert selector.regression_
    assert list(selector.nominal_targets_) == [False, False, True]
    assert selector.transform(X).shape == (40, 2)
    single = ReliefFSelector().fit(X, Y[:, 0])
    assert not hasattr(single, "nominal_targets_")


@pytest.mark.parametrize("wrapper", [TuRFSelector, IterSelector,
                                     VLSSelector])
def test_wrappers_take_several_targets(wrapper):
    """TuRF, Iter (fixed distance weights) and VLS with two copies of a
    target: the weights of that target alone."""
    X, _ = features(n=40, seed=16, nominal_column=False)
    y = targets(X)[:, 0]
    one = wrapper(ReliefFSelector(k_nearest=5)).fit(X, y)
    two = wrapper(ReliefFSelector(k_nearest=5)).fit(X, np.column_stack([y,
                                                                        y]))
    np.testing.assert_allclose(two.feature_importances_,
                               one.feature_importances_, rtol=TOL, atol=TOL)


def test_with_target_keeps_several_targets():
    """A permutation test's refits on one prepared data set
    (``prepare.with_target``): the rows of targets permuted together give
    the targets ``prepare`` gives for them."""
    X, nominal = features(n=20, seed=17)
    Y = targets(X, missing=0.1)
    flags = [False, False, True]
    prep = prepare(X, Y, nominal, True, nominal_targets=flags)
    order = np.random.default_rng(0).permutation(20)
    refit = with_target(prep, Y[order], True)
    direct = prepare(X, Y[order], nominal, True, nominal_targets=flags)
    np.testing.assert_array_equal(refit.target.values, direct.target.values)
    np.testing.assert_array_equal(refit.target.nominal, flags)
    with pytest.raises(ValueError, match="a row per instance"):
        with_target(prep, Y[:, 0], True)


def test_command_line_class_a_b(capsys, tmp_path):
    table, X, Y, nominal = multi_target_table(missing=0.0)
    path = tmp_path / "several.tab"
    from Orange.data import Domain
    plain = table.transform(Domain(table.domain.attributes
                                   + table.domain.class_vars))
    plain.save(str(path))
    status = main(["score", str(path), "--class", "t0,t1,kind", "--format",
                   "csv"])
    out, err = capsys.readouterr()
    assert status == 0, err
    from Orange.data import Table
    read = with_class(Table(str(path)), "t0,t1,kind", path)
    assert [var.name for var in read.domain.class_vars] == ["t0", "t1",
                                                            "kind"]
    expected = relieff(read.X, read.Y, nominal,
                       nominal_targets=[False, False, True])
    got = {line.split(",")[1]: float(line.split(",")[2])
           for line in out.splitlines()[1:]}
    names = [var.name for var in table.domain.attributes]
    for name, weight in zip(names, expected.weights):
        assert got[name] == pytest.approx(weight, rel=1e-9, abs=1e-12)
    status = main(["score", str(path), "--class", "t0, kind"])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert "classes 't0', 'kind' (multi-target regression)" in out
    status = main(["score", str(path), "--class", "t0,nothing"])
    out, err = capsys.readouterr()
    assert status != 0 and "has no column 'nothing'" in err


def test_no_warning_for_a_complete_multi_target_table():
    table, *_ = multi_target_table(missing=0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ReliefF()(table)
