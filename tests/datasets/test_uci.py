"""The seed's two UCI tables: shapes, variable types, value sets, classes and missing cells."""
import csv
import hashlib

import numpy as np
import pytest
from Orange.data import DiscreteVariable

from orangecontrib.relief import datasets
from orangecontrib.relief.datasets import DATA_DIR, important_features, lung_cancer, promoters


def rows_of(filename):
    with open(DATA_DIR / filename, encoding="utf-8", newline="") as file:
        return list(csv.reader(file, delimiter="\t"))


def as_text(table):
    """The table written back as the strings of the bundled file ('NA' for missing)."""
    out = []
    for x, y in zip(table.X, table.Y):
        cells = ["NA" if np.isnan(v) else var.values[int(v)]
                 for var, v in zip(table.domain.attributes, x)]
        out.append(cells + [table.domain.class_var.values[int(y)]])
    return out


def test_exported_like_the_other_loaders():
    assert "promoters" in datasets.__all__ and "lung_cancer" in datasets.__all__
    assert datasets.promoters is promoters and datasets.lung_cancer is lung_cancer


def test_bundled_files_are_the_shared_copies():
    # sha256 of the files as provided (see datasets/README.md)
    expected = {
        "promoters.tsv": "bde944c548afe2f1274bf60a4b92151c2b7e6e8950b128fadfd7f7dd6fe92b53",
        "lung_cancer.tsv": "2bf01505c7a80a650afa86c717d786437511661ef0c1d49682dba870f3080fb2",
    }
    for filename, digest in expected.items():
        assert hashlib.sha256((DATA_DIR / filename).read_bytes()).hexdigest() == digest


def test_promoters():
    table = promoters()
    assert table.name == "promoters"
    assert table.X.shape == (106, 57)
    names = [var.name for var in table.domain.attributes]
    assert names == [f"p{i}" for i in range(-50, 0)] + [f"p{i}" for i in range(1, 8)]
    assert names.index("p-36") + 1 == 15 and names.index("p-35") + 1 == 16  # the paper's 15, 16
    for var in table.domain.attributes:
        assert isinstance(var, DiscreteVariable)
        assert var.values == ("a", "c", "g", "t")
        assert var.attributes["relevant"] is False
    assert important_features(table) == []
    class_var = table.domain.class_var
    assert class_var.name == "class" and class_var.values == ("+", "-")
    assert np.bincount(table.Y.astype(int)).tolist() == [53, 53]
    assert not np.isnan(table.X).any()
    # every nucleotide of the file, in place
    assert as_text(table) == rows_of("promoters.tsv")[1:]
    assert np.bincount(table.X.astype(int).ravel()).tolist() == [1575, 1385, 1370, 1712]


def test_lung_cancer():
    table = lung_cancer()
    assert table.name == "lung cancer"
    assert table.X.shape == (32, 56)
    names = [var.name for var in table.domain.attributes]
    assert names == [f"a{i}" for i in range(2, 58)]
    for var in table.domain.attributes:
        assert isinstance(var, DiscreteVariable)
        assert var.values == ("0", "1", "2", "3")
        assert var.attributes["relevant"] is False
    class_var = table.domain.class_var
    assert class_var.name == "class" and class_var.values == ("1", "2", "3")
    assert np.bincount(table.Y.astype(int)).tolist() == [9, 13, 10]
    # the five unknown values stay missing: four in a5, one in a39
    missing = np.isnan(table.X)
    assert missing.sum() == 5
    assert {names[j]: int(n) for j, n in enumerate(missing.sum(axis=0)) if n} == \
        {"a5": 4, "a39": 1}
    assert not np.isnan(table.Y).any()
    known = table.X[~missing].astype(int)
    assert set(np.unique(known)) == {0, 1, 2, 3}
    assert as_text(table) == rows_of("lung_cancer.tsv")[1:]
    # the first row of UCI lung-cancer.data: 1,0,3,0,?,0,2,2,...
    assert as_text(table)[0][:6] == ["0", "3", "0", "NA", "0", "2"]
    assert as_text(table)[0][-1] == "1"


def test_loaders_return_fresh_tables():
    first, second = lung_cancer(), lung_cancer()
    # (Orange's widget tests lock tables: write through unlocked())
    with first.unlocked(first.X):
        first.X[0, 0] = 3
    assert second.X[0, 0] == 0
