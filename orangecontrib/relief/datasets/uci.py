"""The seed paper's two real data sets from the UCI repository: promoters and lung cancer.

No feature of either is known to be relevant, so every feature carries
``attributes["relevant"] = False`` and :func:`~orangecontrib.relief.datasets.important_features`
returns an empty list; they serve the wrapper experiments (classification accuracy on
the top-weighted features), not the separability measures.
"""
import csv

import numpy as np
from Orange.data import DiscreteVariable, Domain, Table

from ._build import DATA_DIR, discrete

__all__ = ["promoters", "lung_cancer"]

#: Nucleotides, the values of every promoters feature.
NUCLEOTIDES = ("a", "c", "g", "t")
#: Feature names of promoters: the position relative to the transcription start
#: (there is no position 0), as in the bundled file.
PROMOTER_NAMES = tuple([f"p{i}" for i in range(-50, 0)] + [f"p{i}" for i in range(1, 8)])
#: Value codes of every lung-cancer feature ("nominal features with ranges [0,3]").
LUNG_VALUES = ("0", "1", "2", "3")
#: Feature names of lung cancer: a2..a57 keep the UCI attribute numbers (attribute 1 is the class).
LUNG_NAMES = tuple(f"a{i}" for i in range(2, 58))

MISSING = "NA"


def _read_text_tsv(filename):
    """Header and rows (lists of str) of a bundled tab-separated file."""
    with open(DATA_DIR / filename, encoding="utf-8", newline="") as file:
        rows = list(csv.reader(file, delimiter="\t"))
    return rows[0], [row for row in rows[1:] if row]


def _table(filename, names, values, class_values, name):
    header, rows = _read_text_tsv(filename)
    if tuple(header) != tuple(names) + ("class",):
        raise ValueError(f"{filename}: unexpected header {header[:3]}...")
    domain = Domain([discrete(feature, values) for feature in names],
                    DiscreteVariable("class", values=list(class_values)))
    lookup = {value: float(index) for index, value in enumerate(values)}
    lookup[MISSING] = np.nan
    class_lookup = {value: float(index) for index, value in enumerate(class_values)}
    try:
        X = np.array([[lookup[cell] for cell in row[:-1]] for row in rows], dtype=float)
        y = np.array([class_lookup[row[-1]] for row in rows], dtype=float)
    except KeyError as error:
        raise ValueError(f"{filename}: unexpected value {error.args[0]!r}.") from None
    table = Table.from_numpy(domain, X, y)
    table.name = name
    return table


def promoters():
    """E. coli promoter gene sequences (UCI "Molecular Biology (Promoter Gene Sequences)").

    106 DNA sequences of 57 nucleotides, 53 promoters (class ``+``) and 53
    non-promoters (``-``). Used by the seed paper's first wrapper experiment.

    Returns
    -------
    Orange.data.Table
        57 discrete features ``p-50 .. p-1, p1 .. p7`` (the position relative to
        the transcription start) with values ``a c g t``; class ``class`` with
        values ``+``, ``-``. No missing values. No feature is marked relevant.
    """
    return _table("promoters.tsv", PROMOTER_NAMES, NUCLEOTIDES, ("+", "-"), "promoters")


def lung_cancer():
    """Lung cancer (Hong & Yang 1991; UCI "Lung Cancer").

    32 patients with one of three types of pathological lung cancer, 56
    features coded 0 to 3 whose meaning was not published. Used by the seed
    paper's second wrapper experiment.

    Returns
    -------
    Orange.data.Table
        56 discrete features ``a2 .. a57`` (UCI attribute numbers; attribute 1
        is the class), each with values ``0 1 2 3``; class ``class`` with values
        ``1 2 3`` (9, 13 and 10 rows). The five unknown values of the UCI file
        (four in ``a5``, one in ``a39``) are kept missing (NaN). No feature is
        marked relevant.
    """
    return _table("lung_cancer.tsv", LUNG_NAMES, LUNG_VALUES, ("1", "2", "3"),
                  "lung cancer")
