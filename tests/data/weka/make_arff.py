"""Write Orange's sample tables as ARFF files for Weka (class last).

    .venv/bin/python tests/data/weka/make_arff.py

writes iris.arff, zoo.arff, titanic.arff, lenses.arff, heart_disease.arff,
brown-selected.arff and housing.arff next to this script, and two small
made-up tables, edge_class.arff and edge_regression.arff, that put Weka's
corner cases in one place (see ``edge_tables``).  The tables come
from the installed Orange (``Orange.data.Table(name)``), except lenses, which
Orange stopped shipping in 2019: its last version is kept here as
``orange/lenses.tab`` (see README.md).

The conversion keeps every value exactly:
- attributes in the domain's order, then the class; meta columns (zoo's
  ``name``, brown-selected's ``gene``) are dropped;
- a numeric value is written with ``repr`` (the shortest text that reads
  back as the same double, in Python and in Java's Double.valueOf);
- a nominal attribute declares its values in Orange's order, so the 0-based
  index of a value is the same code in Orange and in Weka;
- a missing value is an unquoted ``?``;
- names and nominal values are always single-quoted, with backslash escapes,
  so that spaces, commas, ``%`` and ``?`` inside them are plain text.
"""
import math
import sys
from pathlib import Path

from Orange.data import Table

HERE = Path(__file__).parent
TABLES = ["iris", "zoo", "titanic", "lenses", "heart_disease",
          "brown-selected", "housing"]


def quote(text):
    """A single-quoted ARFF token that Weka and our reader read back as
    ``text``."""
    escaped = (text.replace("\\", "\\\\").replace("'", "\\'")
               .replace("\n", "\\n").replace("\r", "\\r")
               .replace("\t", "\\t"))
    return f"'{escaped}'"


def load(name):
    if name == "lenses":
        return Table(str(HERE / "orange" / "lenses.tab"))
    return Table(name)


def arff_text(table, relation):
    variables = list(table.domain.attributes) + [table.domain.class_var]
    origin = ("made-up table" if relation.startswith("edge_")
              else "Orange's sample table")
    lines = [f"% {relation}: {origin}, written by "
             "tests/data/weka/make_arff.py",
             f"@relation {quote(relation)}", ""]
    for var in variables:
        if var.is_discrete:
            values = ",".join(quote(v) for v in var.values)
            lines.append(f"@attribute {quote(var.name)} {{{values}}}")
        elif var.is_continuous:
            lines.append(f"@attribute {quote(var.name)} numeric")
        else:
            raise ValueError(f"{relation}: {var.name} is neither nominal "
                             "nor numeric")
    lines += ["", "@data"]
    columns = [table.get_column(var) for var in variables]
    for row in range(len(table)):
        cells = []
        for var, column in zip(variables, columns):
            value = float(column[row])
            if math.isnan(value):
                cells.append("?")
            elif var.is_discrete:
                assert value == int(value)
                cells.append(quote(var.values[int(value)]))
            else:
                cells.append(repr(value))
        lines.append(",".join(cells))
    return "\n".join(lines) + "\n"


def edge_tables():
    """Two made-up tables (seeded, so always the same) with the cases in
    which Weka's ReliefF does something particular (WEKA_SEMANTICS.md):

    edge_class (60 rows, class last):
      x        numeric, 15% missing (one and both missing pairs)
      const    numeric, always 5.0 but 20% missing: range 0
      tiny     numeric, range 5e-7 < Weka's 1e-6: treated as constant
      empty    numeric, every value missing
      code     numeric with values 0, 1, 2 only (many tied distances)
      sparse4  nominal with 4 declared values of which 2 occur, 10% missing
      color    nominal with 3 values, no missing value
      class    nominal {a, b, c}: c never occurs (so Weka's multi-class
               factors apply to a two-class problem), 5 rows missing
    edge_regression (60 rows): x, const, a nominal with missing values,
      a plain numeric z, and a numeric target with 3 missing values.
    """
    from Orange.data import ContinuousVariable, DiscreteVariable, Domain
    import numpy as np

    rng = np.random.default_rng(20240611)
    n = 60

    def holes(column, fraction):
        column = column.copy()
        column[rng.random(n) < fraction] = np.nan
        return column

    x = np.round(rng.random(n), 3)
    const = holes(np.full(n, 5.0), 0.2)
    tiny = 1.0 + np.round(rng.random(n), 1) * 5e-7
    empty = np.full(n, np.nan)
    code = rng.integers(0, 3, n).astype(float)
    sparse4 = holes(rng.choice([0.0, 2.0], n), 0.1)
    color = rng.integers(0, 3, n).astype(float)
    cls = ((x > 0.5) ^ (color == 1)).astype(float)
    cls[rng.choice(n, 5, replace=False)] = np.nan
    x = holes(x, 0.15)
    domain = Domain(
        [ContinuousVariable("x"), ContinuousVariable("const"),
         ContinuousVariable("tiny"), ContinuousVariable("empty"),
         ContinuousVariable("code"),
         DiscreteVariable("sparse4", values=("p", "q", "r", "s")),
         DiscreteVariable("color", values=("red", "green", "blue"))],
        DiscreteVariable("class", values=("a", "b", "c")))
    edge_class = Table.from_numpy(
        domain, np.column_stack([x, const, tiny, empty, code, sparse4,
                                 color]), cls)

    x = np.round(rng.random(n), 3)
    z = np.round(rng.random(n), 3)
    kind = rng.integers(0, 3, n).astype(float)
    target = np.round(3 * x + (kind == 2) + 0.1 * rng.random(n), 4)
    target[rng.choice(n, 3, replace=False)] = np.nan
    domain = Domain(
        [ContinuousVariable("x"), ContinuousVariable("const"),
         DiscreteVariable("kind", values=("k0", "k1", "k2")),
         ContinuousVariable("z")],
        ContinuousVariable("target"))
    edge_regression = Table.from_numpy(
        domain, np.column_stack([holes(x, 0.15), holes(np.full(n, 5.0), 0.2),
                                 holes(kind, 0.1), z]), target)
    return {"edge_class": edge_class, "edge_regression": edge_regression}


def main(names):
    edges = edge_tables()
    for name in names or TABLES + sorted(edges):
        table = edges[name] if name in edges else load(name)
        path = HERE / f"{name}.arff"
        path.write_text(arff_text(table, name), encoding="utf-8")
        print(f"{path.name}: {len(table)} rows, "
              f"{len(table.domain.attributes)} attributes + class")


if __name__ == "__main__":
    main(sys.argv[1:])
