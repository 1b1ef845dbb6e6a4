"""The slow reference of Weka's ReliefF (weka_reference.py) against every
golden value Weka 3.9.7 made (tests/data/weka/*.weka.tsv and the older
tests/data/*.weka.tsv), to 1e-12.  No Java needed: the golden values are
checked in (tests/data/weka/make_golden.py remakes them)."""
import functools
import math
from pathlib import Path

import numpy as np
import pytest
from Orange.data import Table

import orangecontrib.relief  # noqa: F401  (registers the .arff reader)
from weka_reference import (JavaRandom, _Data, rank_weights, visiting_order,
                            weka_relieff, weka_sort)

DATA = Path(__file__).parent / "data"
WEKA = DATA / "weka"

#: option-set names of the .tsv rows -> weka_relieff keywords; the Weka
#: options of each are in tests/data/weka/make_golden.py (OPTIONS).
OPTIONS = {
    "k10": dict(k=10),
    "k5": dict(k=5),
    "k1": dict(k=1),
    "k100": dict(k=100),
    "k10_weighted_sigma2": dict(k=10, weight_by_distance=True, sigma=2),
    "k3_weighted_sigma1": dict(k=3, weight_by_distance=True, sigma=1),
    "m20_s1": dict(k=10, sample_size=20, seed=1),
    "m50_s7": dict(k=10, sample_size=50, seed=7),
}

WEKA_TABLES = sorted(p.name[:-len(".weka.tsv")]
                     for p in WEKA.glob("*.weka.tsv"))
OLD_TABLES = ["binary_s7", "mixed_s7", "multiclass_s7", "regression_s7"]


def read_golden(path):
    lines = path.read_text().strip().split("\n")
    return {line.split("\t")[0]: np.array(line.split("\t")[1:], float)
            for line in lines[1:]}


@functools.lru_cache(maxsize=1)
def load(path):
    """The table as weka_relieff takes it, read by the project's reader."""
    table = Table(str(path))
    domain = table.domain
    nominal = [var.is_discrete for var in domain.attributes]
    n_values = [len(var.values) if var.is_discrete else 0
                for var in domain.attributes]
    regression = domain.class_var.is_continuous
    n_classes = None if regression else len(domain.class_var.values)
    return table.X, table.Y, nominal, n_values, regression, n_classes


def check(path, golden_path, option):
    X, y, nominal, n_values, regression, n_classes = load(path)
    expected = read_golden(golden_path)[option]
    merits = weka_relieff(X, y, nominal, n_values, regression=regression,
                          n_classes=n_classes, **OPTIONS[option])
    assert merits.shape == expected.shape
    np.testing.assert_allclose(merits, expected, rtol=0, atol=1e-12)


def test_every_golden_file_is_checked():
    assert len(WEKA_TABLES) >= 11
    for name in WEKA_TABLES:
        assert set(read_golden(WEKA / f"{name}.weka.tsv")) == set(OPTIONS)


# table-major order, so each table is read and its neighbours found once
@pytest.mark.parametrize("name,option", [(name, option)
                                         for name in WEKA_TABLES
                                         for option in OPTIONS])
def test_weka_golden_tables(name, option):
    check(WEKA / f"{name}.arff", WEKA / f"{name}.weka.tsv", option)


@pytest.mark.parametrize("name,option", [
    (name, option) for name in OLD_TABLES
    for option in ["k10", "k5", "k10_weighted_sigma2"]])
def test_older_golden_files(name, option):
    check(DATA / f"{name}.tab", DATA / f"{name}.weka.tsv", option)


def test_java_random():
    # new java.util.Random(seed).nextInt(), six times (printed by Java 17)
    expected = {
        1: [-1155869325, 431529176, 1761283695, 1749940626, 892128508,
            155629808],
        7: [-1156638823, -1552468968, -1077308326, 41356089, 1495978761,
            2107132509],
        -3: [1154330329, -96093693, 1509074433, 645206341, -847485835,
             236932280],
        123456789: [-1442945365, -1016548095, 1962592967, 1094656688,
                    1677212580, 930275108],
    }
    for seed, values in expected.items():
        rng = JavaRandom(seed)
        assert [rng.next_int() for _ in range(6)] == values


def test_visiting_order():
    # -M 5 -D 1 on 24 rows: |nextInt| mod 24, with replacement
    assert visiting_order(24, 5, 1) == [
        abs(v) % 24 for v in [-1155869325, 431529176, 1761283695,
                              1749940626, 892128508]]
    assert visiting_order(24, -1, 1) == list(range(24))
    assert visiting_order(24, 24, 1) == list(range(24))   # M = n: no draw
    assert visiting_order(24, 50, 7) == list(range(24))   # M > n: all rows


def test_weka_sort_matches_utils_sort():
    # weka.core.Utils.sort(double[]) of Weka 3.9.7, printed by Java
    cases = [
        ([0.5, 0.25] * 5, [9, 3, 7, 1, 5, 6, 4, 2, 8, 0]),
        ([1.0] * 10, [0, 7, 6, 5, 4, 3, 8, 1, 2, 9]),
        ([2, 1, 2, 0, 1, 2, 0, 1, 1, 2, 0, 1],
         [6, 3, 10, 11, 4, 1, 8, 7, 9, 5, 2, 0]),
        ([3, 2, 1], [2, 1, 0]),
        ([0.1, math.nan, 0.0, 0.1, 0.3, 0.0, 0.2], [5, 2, 0, 3, 6, 4, 1]),
    ]
    for values, expected in cases:
        assert weka_sort([float(v) for v in values]) == expected


def test_rank_weights_are_javas_math_exp():
    # Math.exp(-(i/sigma)^2) as Java 17 (HotSpot, x86-64) computes it
    java = {
        1: ["0x1.0p0", "0x1.78b56362cef38p-2", "0x1.2c155b8213cf4p-6"],
        2: ["0x1.0p0", "0x1.8ebef9eac820bp-1", "0x1.78b56362cef38p-2",
            "0x1.afb718e8457f7p-4", "0x1.2c155b8213cf4p-6",
            "0x1.fa0e9586aebc7p-10", "0x1.02cf22526545ap-13",
            "0x1.411fb0da07713p-18", "0x1.e355bbaee85cbp-24",
            "0x1.b93de1e27ca3bp-30"],
    }
    for sigma, values in java.items():
        assert rank_weights(len(values), sigma) == [float.fromhex(v)
                                                    for v in values]


@pytest.mark.parametrize("name", ["edge_class", "edge_regression", "labor"])
def test_vector_diffs_equal_the_scalar_definition(name):
    """diff_rows and distances (numpy) do the operations of diff (one value
    at a time) and give the same doubles."""
    X, y, nominal, n_values, regression, _ = load(WEKA / f"{name}.arff")
    data = _Data(X, y, nominal, n_values, regression)
    for r in range(0, data.n, 7):
        rows = list(range(data.n))
        vector = data.diff_rows(r, rows)
        distance = data.distances(r)
        for s in rows:
            scalar = [data.diff(f, X[s, f], X[r, f]) for f in range(data.a)]
            assert vector[s].tolist() == [data.diff(f, X[r, f], X[s, f])
                                          for f in range(data.a)]
            total = 0.0
            for value in scalar:
                total += value
            assert distance[s] == total
