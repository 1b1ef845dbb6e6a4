"""The classic tables shipped with the add-on: CorrAl and the MONK's problems."""
import itertools

import numpy as np
from Orange.data import Table

from ._build import codes_to_table, make_domain, read_tsv

CORRAL_RELEVANT = ("A0", "A1", "B0", "B1")

#: UCI value codes of the MONK attributes a1..a6.
MONK_VALUES = ((1, 2, 3), (1, 2, 3), (1, 2), (1, 2, 3), (1, 2, 3, 4), (1, 2))
MONK_NAMES = ("a1", "a2", "a3", "a4", "a5", "a6")
MONK_RELEVANT = {1: ("a1", "a2", "a5"), 2: MONK_NAMES, 3: ("a2", "a4", "a5")}


def corral(rows=160):
    """CorrAl (Kohavi & John 1997): ``class = (A0 and A1) or (B0 and B1)``.

    ``Correlated`` agrees with the class in 75% of rows (the trap feature C of the
    seed paper), ``Irrelevant`` in 50%.

    Parameters
    ----------
    rows : {160, 32}
        160 gives the whole bundled PMLB file; 32 gives its first 32 rows, which
        list each combination of (A0, A1, B0, B1, Irrelevant) once: the classic
        training set used in the seed paper's CorrAl table.

    Returns
    -------
    Orange.data.Table
        Binary features, ``A0 A1 B0 B1`` marked relevant, class ``class``.
    """
    if rows not in (32, 160) or isinstance(rows, bool):
        raise ValueError(f"rows must be 160 (the whole file) or 32 (the classic "
                         f"training set), not {rows!r}.")
    header, matrix = read_tsv("corral.tsv")
    matrix = matrix[:rows]
    domain = make_domain(header[:-1], [(0, 1)] * (len(header) - 1), CORRAL_RELEVANT, (0, 1))
    return codes_to_table(domain, matrix[:, :-1], matrix[:, -1], name="CorrAl")


def monk_rule(problem, X):
    """Class (0/1) of the MONK ``problem`` for rows ``X`` of UCI codes a1..a6.

    MONK-1: ``a1 == a2 or a5 == 1``; MONK-2: exactly two attributes have their
    first value (1); MONK-3 (without its training noise):
    ``(a5 == 3 and a4 == 1) or (a5 != 4 and a2 != 3)``.
    """
    _check_problem(problem)
    X = np.asarray(X)
    a1, a2, a3, a4, a5, a6 = X.T
    if problem == 1:
        rule = (a1 == a2) | (a5 == 1)
    elif problem == 2:
        rule = (X == 1).sum(axis=1) == 2
    else:
        rule = ((a5 == 3) & (a4 == 1)) | ((a5 != 4) & (a2 != 3))
    return rule.astype(np.int64)


def _check_problem(problem):
    if problem not in (1, 2, 3) or isinstance(problem, bool):
        raise ValueError(f"problem must be 1, 2 or 3 (MONK-1, MONK-2, MONK-3), not {problem!r}.")


def monk(problem, split="train"):
    """One of Thrun et al.'s MONK's problems, in the original UCI value codes.

    Parameters
    ----------
    problem : {1, 2, 3}
        Relevant features: MONK-1 ``a1 a2 a5``; MONK-2 all six; MONK-3 ``a2 a4 a5``.
    split : {"train", "test", "all"}
        ``"test"``: the 432 attribute combinations in lexicographic order, labelled
        by the rule (:func:`monk_rule`); this is the UCI test file. ``"train"``:
        the bundled UCI training file (MONK-3's keeps its 5% class noise: 6 of 122
        rows break the rule). ``"all"``: train followed by test. The MONK-2
        training file is not bundled, so MONK-2 supports only ``"test"``.

    Returns
    -------
    Orange.data.Table
        Discrete features ``a1..a6`` with values ``"1"`` to ``"4"`` as in UCI,
        class ``class`` with values ``"0"``, ``"1"``.
    """
    _check_problem(problem)
    if split not in ("train", "test", "all"):
        raise ValueError(f"split must be 'train', 'test' or 'all', not {split!r}.")
    if problem == 2 and split != "test":
        raise ValueError("The MONK-2 training file is not bundled; use split='test' "
                         "(all 432 combinations labelled by the MONK-2 rule).")
    domain = make_domain(MONK_NAMES, MONK_VALUES, MONK_RELEVANT[problem], (0, 1))
    name = f"MONK-{problem}"
    parts = []
    if split in ("train", "all"):
        _, matrix = read_tsv(f"monk{problem}_train.tsv")
        parts.append(codes_to_table(domain, matrix[:, :-1], matrix[:, -1]))
    if split in ("test", "all"):
        X = np.array(list(itertools.product(*MONK_VALUES)), dtype=np.int64)
        parts.append(codes_to_table(domain, X, monk_rule(problem, X)))
    table = parts[0] if len(parts) == 1 else Table.concatenate(parts)
    table.name = name
    return table
