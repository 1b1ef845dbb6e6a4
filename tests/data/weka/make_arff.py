"""Write Orange's sample tables as ARFF files for Weka (class last).

    .venv/bin/python tests/data/weka/make_arff.py

writes iris.arff, zoo.arff, titanic.arff, lenses.arff, heart_disease.arff,
brown-selected.arff and housing.arff next to this script.  The tables come
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
    lines = [f"% {relation}: Orange's sample table, converted by "
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


def main(names):
    for name in names or TABLES:
        table = load(name)
        path = HERE / f"{name}.arff"
        path.write_text(arff_text(table, name), encoding="utf-8")
        print(f"{path.name}: {len(table)} rows, "
              f"{len(table.domain.attributes)} attributes + class")


if __name__ == "__main__":
    main(sys.argv[1:])
