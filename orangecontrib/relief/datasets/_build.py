"""Helpers that turn integer code matrices into Orange tables with relevance flags."""
from pathlib import Path

import numpy as np
from Orange.data import DiscreteVariable, Domain, Table

DATA_DIR = Path(__file__).resolve().parent


def discrete(name, values, relevant=False):
    """A DiscreteVariable whose ``attributes["relevant"]`` says if it is important."""
    var = DiscreteVariable(name, values=[str(v) for v in values])
    var.attributes["relevant"] = bool(relevant)
    return var


def make_domain(names, values, relevant, class_values):
    """Domain of discrete features ``names`` (value codes ``values[i]``) and class ``class``.

    ``relevant`` is the collection of names marked important.
    """
    attributes = [discrete(name, vals, name in relevant)
                  for name, vals in zip(names, values)]
    return Domain(attributes, DiscreteVariable("class", values=[str(v) for v in class_values]))


def codes_to_table(domain, X, y, name=None):
    """Table over ``domain`` from raw codes: ``X[:, i]`` holds values of ``domain.attributes[i]``
    written as in its value list (e.g. the UCI code 3 for value "3"), ``y`` likewise."""
    X = np.asarray(X)
    y = np.asarray(y)
    columns = [_indices(var, X[:, i]) for i, var in enumerate(domain.attributes)]
    Xi = np.column_stack(columns) if columns else np.empty((len(y), 0))
    table = Table.from_numpy(domain, Xi.astype(float), _indices(domain.class_var, y).astype(float))
    if name is not None:
        table.name = name
    return table


def _indices(var, codes):
    lookup = {value: index for index, value in enumerate(var.values)}
    unique, inverse = np.unique(np.asarray(codes, dtype=np.int64), return_inverse=True)
    missing = [int(code) for code in unique if str(int(code)) not in lookup]
    if missing:
        raise ValueError(f"{missing[0]} is not a value of {var.name}: "
                         f"use codes among {', '.join(var.values)}.")
    return np.array([lookup[str(int(code))] for code in unique], dtype=float)[inverse.ravel()]


def read_tsv(filename):
    """Header names and the integer matrix of a bundled tab-separated file."""
    path = DATA_DIR / filename
    with open(path, encoding="utf-8") as file:
        header = file.readline().rstrip("\n").split("\t")
    matrix = np.loadtxt(path, delimiter="\t", skiprows=1, dtype=np.int64, ndmin=2)
    return header, matrix
