"""compat="weka": Weka 3.9.7's ReliefFAttributeEval reproduced by the engine
(core/backends/weka.py), checked against every golden value Weka made
(tests/data/weka/*.weka.tsv, tests/data/*.weka.tsv) through the numpy API and
the Orange scorers, and against the slow reference (weka_reference.py) on
random tables made to be hard: ties, missing values, constant, tiny-range and
all-missing columns, missing classes, unused declared values, regression."""
import math

import numpy as np
import pytest
import scipy.sparse as sp
from Orange.data import (ContinuousVariable, DiscreteVariable, Domain, Table,
                         TimeVariable)

from orangecontrib.relief import DReliefF, PDReliefF, ReliefF, relieff
from orangecontrib.relief.core.backends.weka import (java_next_ints, java_seed,
                                                     visiting_order, weka_sort)
from test_weka_reference import (DATA, OLD_TABLES, OPTIONS, WEKA, WEKA_TABLES,
                                 load, read_golden)
from weka_reference import JavaRandom
from weka_reference import visiting_order as reference_order
from weka_reference import weka_relieff, weka_sort as reference_sort

#: weka_reference keywords -> relieff keywords (Weka's -D seed is
#: random_state; its default is 1)
def engine_options(k=10, sample_size=None, seed=1, weight_by_distance=False,
                   sigma=2.0, variant=None, T=None):
    options = dict(k_nearest=k, n_iterations=sample_size, random_state=seed,
                   weight_by_distance=weight_by_distance, sigma=sigma)
    if variant is not None:
        options["variant"] = variant
    if T is not None:
        options["T"] = T
    return options


def engine_weights(X, y, nominal, n_values, regression, n_classes, **options):
    return relieff(X, y, nominal, regression=regression, compat="weka",
                   n_values=n_values, n_class_values=n_classes,
                   **engine_options(**options)).weights


# -- every golden value, through the numpy API and the Orange scorers ---------

GOLDEN = [(WEKA / f"{name}.arff", WEKA / f"{name}.weka.tsv", option)
          for name in WEKA_TABLES for option in OPTIONS] + \
         [(DATA / f"{name}.tab", DATA / f"{name}.weka.tsv", option)
          for name in OLD_TABLES
          for option in ["k10", "k5", "k10_weighted_sigma2"]]


@pytest.mark.parametrize("path,golden,option", GOLDEN,
                         ids=[f"{p.stem}-{o}" for p, _, o in GOLDEN])
def test_golden_numpy_api(path, golden, option):
    X, y, nominal, n_values, regression, n_classes = load(path)
    weights = engine_weights(X, y, nominal, n_values, regression, n_classes,
                             **OPTIONS[option])
    np.testing.assert_allclose(weights, read_golden(golden)[option],
                               rtol=0, atol=1e-12)


@pytest.mark.parametrize("path,golden,option", GOLDEN,
                         ids=[f"{p.stem}-{o}" for p, _, o in GOLDEN])
def test_golden_orange_scorer(path, golden, option):
    """Table(path) with the add-on's ARFF reader; the scorer takes the
    declared values from the domain."""
    table = Table(str(path))
    scorer = ReliefF(compat="weka", **engine_options(**OPTIONS[option]))
    np.testing.assert_allclose(scorer(table), read_golden(golden)[option],
                               rtol=0, atol=1e-12)


def test_scorers_pass_declared_values():
    """edge_class declares a class value and nominal values it never uses:
    without them (largest code + 1) Weka's numbers differ."""
    table = Table(str(WEKA / "edge_class.arff"))
    expected = read_golden(WEKA / "edge_class.weka.tsv")["k10"]
    guessed = relieff(table.X, table.Y, [v.is_discrete
                                         for v in table.domain.attributes],
                      compat="weka").weights
    assert np.abs(guessed - expected).max() > 1e-3
    np.testing.assert_allclose(ReliefF(compat="weka")(table), expected,
                               rtol=0, atol=1e-12)


# -- tables nobody has seen: the engine against the reference -----------------

def hostile_table(seed, regression=False):
    """A random table with everything that makes Weka's rules matter:
    distance ties (few levels), missing values, a constant, a tiny-range
    (< 1e-6) and sometimes an all-missing column, nominal columns with
    unused declared values, missing classes, unused declared classes."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(24, 60))
    columns, nominal, n_values = [], [], []

    def add(values, is_nominal=False, declared=0):
        columns.append(np.asarray(values, dtype=float))
        nominal.append(is_nominal)
        n_values.append(declared)

    for _ in range(int(rng.integers(1, 4))):
        add(rng.integers(0, 4, n) * 0.5)                    # ties
    add(rng.random(n))
    add(np.full(n, 3.0))                                    # constant
    add(1e-7 * rng.integers(0, 3, n))                       # range < 1e-6
    for _ in range(int(rng.integers(1, 4))):
        used = int(rng.integers(1, 4))
        add(rng.integers(0, used, n), True, used + int(rng.integers(0, 3)))
    if rng.random() < 0.5:
        add(np.full(n, np.nan), bool(rng.random() < 0.5), 3)
    X = np.column_stack(columns)
    order = rng.permutation(X.shape[1])
    X = X[:, order]
    nominal = [nominal[i] for i in order]
    n_values = [n_values[i] for i in order]
    X[rng.random(X.shape) < 0.12] = np.nan
    if regression:
        y = rng.integers(0, 5, n) * 1.5                     # target ties
        n_classes = None
    else:
        used = int(rng.integers(2, 4))
        y = rng.integers(0, used, n).astype(float)
        n_classes = used + int(rng.integers(0, 2))
    y[rng.random(n) < 0.08] = np.nan
    return X, y, nominal, n_values, regression, n_classes


HOSTILE_OPTIONS = [
    dict(k=1), dict(k=3), dict(k=10), dict(k=100),
    dict(k=4, weight_by_distance=True, sigma=1),
    dict(k=10, weight_by_distance=True, sigma=3),
    dict(k=5, sample_size=17, seed=3),
    dict(k=5, sample_size=500, seed=3),
    dict(k=3, sample_size=30, seed=-7, weight_by_distance=True, sigma=2),
]


def check_against_reference(seed, regression, option_sets):
    """The engine against weka_reference on hostile_table(seed)."""
    X, y, nominal, n_values, regression, n_classes = hostile_table(
        seed, regression)
    for options in option_sets:
        reference = dict(options)
        expected = weka_relieff(X, y, nominal, n_values, regression=regression,
                                n_classes=n_classes, sample_size=reference.pop(
                                    "sample_size", -1), **reference)
        weights = engine_weights(X, y, nominal, n_values, regression,
                                 n_classes, **options)
        np.testing.assert_allclose(weights, expected, rtol=0, atol=1e-12,
                                   err_msg=str(options))


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("regression", [False, True])
def test_unseen_tables_relieff(seed, regression):
    check_against_reference(100 * seed + regression, regression,
                            HOSTILE_OPTIONS)


FEEDBACK_OPTIONS = [
    dict(variant="drelieff", k=3),
    dict(variant="pdrelieff", k=5),
    dict(variant="pdrelieff", k=10, T=0.7, weight_by_distance=True, sigma=2),
    dict(variant="drelieff", k=4, sample_size=20, seed=11),
]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("regression", [False, True])
def test_unseen_tables_feedback(seed, regression):
    """dReliefF and pdReliefF on Weka's definitions: the reference's
    weighted distances (doc/semantics.md, "compat='weka'")."""
    check_against_reference(1000 + 100 * seed + regression, regression,
                            FEEDBACK_OPTIONS)


@pytest.mark.parametrize("name", ["lenses", "labor", "edge_regression"])
def test_feedback_with_unit_weights_is_relieff(name, monkeypatch):
    """The definition: the reference's weighted distances with every w = 1
    give Weka's ReliefF (its golden values); the engine's feedback variants,
    whose first visit has w = 1, start as its ReliefF does."""
    import weka_reference

    X, y, nominal, n_values, regression, n_classes = load(
        WEKA / f"{name}.arff")
    monkeypatch.setattr(weka_reference, "feedback_weights",
                        lambda merits, *args: np.ones(len(merits)))
    unit = weka_relieff(X, y, nominal, n_values, regression=regression,
                        n_classes=n_classes, variant="drelieff")
    np.testing.assert_allclose(
        unit, read_golden(WEKA / f"{name}.weka.tsv")["k10"], rtol=0,
        atol=1e-12)
    options = dict(regression=regression, compat="weka", n_values=n_values,
                   n_class_values=n_classes, trace_every=1)
    first = relieff(X, y, nominal, **options).trace[0]
    for variant in ("drelieff", "pdrelieff"):
        np.testing.assert_array_equal(
            relieff(X, y, nominal, variant=variant, **options).trace[0],
            first)


# -- sampling, sort, threads, trace -------------------------------------------

def test_java_random():
    for seed in (1, 7, -3, 123456789, 2 ** 40 + 5, -(2 ** 62)):
        rng = JavaRandom(seed)
        expected = [rng.next_int() for _ in range(50)]
        out = np.empty(50, np.int64)
        java_next_ints(java_seed(seed), 50, out)
        assert out.tolist() == expected
    # printed by Java 17: new Random(1).nextInt(), three times
    out = np.empty(3, np.int64)
    java_next_ints(java_seed(1), 3, out)
    assert out.tolist() == [-1155869325, 431529176, 1761283695]


def test_visiting_order():
    for n, m, seed in [(24, 5, 1), (24, 23, 9), (7, 100, 1), (24, 24, 3),
                       (1000, 999, -5)]:
        assert visiting_order(m, n, seed).tolist() == \
            reference_order(n, m, seed)
    assert visiting_order(None, 5, 1).tolist() == [0, 1, 2, 3, 4]


def test_weka_sort_kernel():
    rng = np.random.default_rng(0)
    cases = [[0.5, 0.25] * 5, [1.0] * 10, [3.0, 2.0, 1.0], [1.0],
             [0.1, math.nan, 0.0, 0.1, 0.3, 0.0, 0.2]]
    cases += [list(rng.integers(0, 4, size) * 0.5) for size in range(2, 40)]
    for values in cases:
        order = np.empty(len(values), np.int64)
        weka_sort(np.array(values, dtype=float), order)
        assert order.tolist() == reference_sort(values)


def test_threads_and_batches_do_not_change_a_bit():
    """Large enough for several batches: the neighbours are found on both
    threads and the updates added in visiting order, so no bit moves."""
    rng = np.random.default_rng(5)
    X = rng.integers(0, 5, (2500, 8)).astype(float)
    X[rng.random(X.shape) < 0.05] = np.nan
    y = rng.integers(0, 3, 2500).astype(float)
    nominal = np.arange(8) % 2 == 1
    for options in (dict(), dict(n_iterations=1500, random_state=2),
                    dict(weight_by_distance=True, k_nearest=4)):
        runs = [relieff(X, y, nominal, compat="weka", n_jobs=n_jobs,
                        trace_every=300, **options)
                for n_jobs in (1, 2)]
        np.testing.assert_array_equal(runs[0].weights, runs[1].weights)
        np.testing.assert_array_equal(runs[0].trace, runs[1].trace)


@pytest.mark.parametrize("variant", ["relieff", "pdrelieff"])
def test_trace_is_the_run_stopped_there(variant):
    """With m < n, Weka's draws for m visits start with those for fewer, so
    the trace point after t visits is the run with n_iterations=t."""
    X, y, nominal, n_values, _, n_classes = hostile_table(6)
    options = dict(compat="weka", n_values=n_values, n_class_values=n_classes,
                   variant=variant, random_state=5,
                   T=0.5 if variant == "pdrelieff" else None)
    m = len(y) - 1
    result = relieff(X, y, nominal, n_iterations=m, trace_every=4, **options)
    assert result.trace_steps.tolist() == list(range(4, m + 1, 4)) + \
        ([m] if m % 4 else [])
    np.testing.assert_array_equal(result.trace[-1], result.weights)
    for t, point in zip(result.trace_steps, result.trace):
        np.testing.assert_array_equal(
            point, relieff(X, y, nominal, n_iterations=int(t),
                           **options).weights)


def test_progress_and_cancel():
    X, y, nominal, n_values, _, n_classes = hostile_table(7)
    seen = []
    relieff(X, y, nominal, compat="weka", progress=seen.append)
    assert seen[0] == 0.0 and seen[-1] == 1.0

    def stop(fraction):
        if fraction > 0:
            raise KeyboardInterrupt

    for variant in ("relieff", "drelieff"):
        with pytest.raises(KeyboardInterrupt):
            relieff(X, y, nominal, compat="weka", variant=variant,
                    progress=stop)


def test_sparse_is_dense_with_zeros():
    X, y, nominal, n_values, _, n_classes = hostile_table(8)
    X = np.nan_to_num(X)
    dense = relieff(X, y, nominal, compat="weka").weights
    sparse = relieff(sp.csr_matrix(X), y, nominal, compat="weka").weights
    np.testing.assert_array_equal(dense, sparse)


# -- options and input checks --------------------------------------------------

def test_options_are_checked():
    X, y = np.random.default_rng(0).random((10, 2)), np.arange(10) % 2
    with pytest.raises(ValueError, match="compat must be"):
        relieff(X, y, compat="Weka")
    with pytest.raises(ValueError, match="misses='any'"):
        relieff(X, y, compat="weka", misses="any")
    with pytest.raises(ValueError, match="-D seed"):
        relieff(X, y, compat="weka", random_state=None)
    with pytest.raises(ValueError, match="n_iterations"):
        relieff(X, y, compat="weka", n_iterations=0)
    with pytest.raises(ValueError, match="n_values"):
        relieff(np.c_[X, np.arange(10) % 3], y, [False, False, True],
                compat="weka", n_values=[0, 0, 2])
    with pytest.raises(ValueError, match="n_class_values"):
        relieff(X, y, compat="weka", n_class_values=1)
    with pytest.raises(ValueError, match="ReliefF needs|compat must be"):
        ReliefF(compat="sklearn")
    # m > n visits every row in order, as Weka's -M does
    np.testing.assert_array_equal(
        relieff(X, y, compat="weka", n_iterations=50).weights,
        relieff(X, y, compat="weka").weights)


def test_dates_are_weka_dates():
    """Weka's diff of a date attribute is 0: it adds nothing to distances
    and gets merit 0; the scorer gives the other merits of the table
    without it."""
    table = Table(str(WEKA / "labor.arff"))
    rng = np.random.default_rng(0)
    date = TimeVariable("when", have_date=True)
    domain = Domain(table.domain.attributes[:3] + (date,)
                    + table.domain.attributes[3:], table.domain.class_var)
    X = np.insert(table.X, 3, rng.integers(0, 10 ** 9, len(table)), axis=1)
    X[::5, 3] = np.nan
    with_date = Table.from_numpy(domain, X, table.Y)
    for scorer in (ReliefF(compat="weka"), PDReliefF(compat="weka")):
        weights = scorer(with_date)
        assert weights[3] == 0
        np.testing.assert_array_equal(np.delete(weights, 3), scorer(table))


def test_scorers_options():
    for scorer in (ReliefF, DReliefF, PDReliefF):
        assert scorer(compat="weka").compat == "weka"
        assert scorer().compat is None
    table = Table(str(WEKA / "housing.arff"))
    np.testing.assert_allclose(
        ReliefF(compat="weka", k_nearest=5)(table),
        read_golden(WEKA / "housing.weka.tsv")["k5"], rtol=0, atol=1e-12)
