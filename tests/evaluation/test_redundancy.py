"""Redundancy level R' on small hand-checkable tables."""
import numpy as np
import pytest
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table

from orangecontrib.relief.evaluation.redundancy import _subset_index, redundancy_level


def table(rows, names):
    """Binary features named ``names`` and a binary class from the last column."""
    rows = np.asarray(rows, dtype=float)
    domain = Domain([DiscreteVariable(n, values=("0", "1")) for n in names],
                    DiscreteVariable("C", values=("0", "1")))
    return Table.from_numpy(domain, rows[:, :-1], rows[:, -1])


# The seed's Table "taula_red": C = f1 and f2, f_r = not (f1 and f2).
SEED_TABLE = table([[0, 0, 1, 0],
                    [0, 1, 1, 0],
                    [1, 0, 1, 0],
                    [1, 1, 0, 1]], ["f1", "f2", "fr"])


def test_seed_table_fr_is_redundant():
    # S = {f1, f2} determines f_r, so P(f_r | f1, f2) = P(f_r | f1, f2, C): D(S) = 0.
    assert redundancy_level(SEED_TABLE, "fr") == 1.0
    assert redundancy_level(SEED_TABLE, "fr", return_subset=True) == (1.0, ("f1", "f2"))


def test_seed_table_redundancy_is_mutual():
    # C = not f_r here, so {f2, f_r} already tells everything f1 says about C: f1 is
    # redundant too (for f2 = 0, f_r = 1 the two rows have C = 0 and f1 = 0, 1, so
    # P(f1 | f2, f_r) = P(f1 | f2, f_r, C) = 1/2). Features must be removed one at a time.
    assert redundancy_level(SEED_TABLE, "f1", return_subset=True) == (1.0, ("f2", "fr"))


def test_exact_copy_is_redundant():
    rows = [[0, 0, 1, 0], [0, 0, 0, 1], [1, 1, 0, 1], [1, 1, 1, 1], [1, 1, 1, 0]]
    data = table(rows, ["f1", "copy", "g"])
    assert redundancy_level(data, "copy", return_subset=True) == (1.0, ("f1",))
    assert redundancy_level(data, 0) == 1.0
    assert redundancy_level(data, data.domain["g"]) < 1


def test_sample_noise_gets_less_than_one():
    # alpha is a fair coin within each value of f1 (P(alpha | f1) = 1/2), but the class
    # noise in row 4 happens to follow it. Configurations of (f1, C): (0,0) rows 1-2,
    # (1,1) row 3, (1,0) row 4; with the two values of alpha, |U| = 6.
    # P(alpha=0 | f1, C) = 1/2, 1, 0 for those three; P(alpha=0 | S) = 1/2 for S = {} and
    # S = {f1}. D = (0 + 0 + 1/2 + 1/2 + 1/2 + 1/2) / 6 = 1/3 for both, so R' = 2/3.
    data = table([[0, 0, 0],
                  [0, 1, 0],
                  [1, 0, 1],
                  [1, 1, 0]], ["f1", "alpha"])
    assert redundancy_level(data, "alpha") == pytest.approx(2 / 3)


def test_exactly_independent_noise_is_redundant():
    # alpha takes both values equally in every (f1, C) configuration: the empty set is
    # a Markov blanket, D({}) = 0.
    data = table([[0, 0, 0], [0, 1, 0], [1, 0, 1], [1, 1, 1]], ["f1", "alpha"])
    assert redundancy_level(data, "alpha", return_subset=True) == (1.0, ())


def test_xor_feature_is_not_redundant():
    # C = f1 xor f2: each (f2, C) configuration fixes f1, while P(f1 | S) = 1/2 for
    # S = {} and S = {f2}; each of the 4 x 2 configurations differs by 1/2: R' = 1 - 1/2.
    data = table([[0, 0, 0], [0, 1, 1], [1, 0, 1], [1, 1, 0]], ["f1", "f2"])
    assert redundancy_level(data, "f1") == pytest.approx(0.5)


def same_partition(index, keys):
    """True if rows share an index exactly when they share their key tuple."""
    groups = {}
    for i, key in zip(index, map(tuple, keys)):
        if groups.setdefault(key, i) != i:
            return False
    return len(set(groups.values())) == len(groups)


@pytest.mark.parametrize("n_columns, radix", [
    (2, 3),    # 9 groups: counted directly
    (3, 40),   # 64000 groups > 4096: integer codes, then unique
    (14, 40),  # 40^14 > 2^62: unique over rows
])
def test_subset_index_groups_rows_by_their_values(n_columns, radix):
    rng = np.random.default_rng(n_columns)
    keys = rng.integers(0, radix, size=(50, n_columns + 2))
    keys[10:20] = keys[:10]  # repeated configurations
    columns = list(range(1, n_columns + 1))
    index, n_groups = _subset_index(keys, columns, [radix] * keys.shape[1])
    assert same_partition(index, keys[:, columns])
    assert index.min() >= 0 and index.max() < n_groups


def test_copy_among_many_valued_features():
    # 16 features with 40 values each (the largest subsets would need row keys).
    rng = np.random.default_rng(0)
    X = rng.integers(0, 40, size=(30, 16)).astype(float)
    X[:, 15] = X[:, 0]
    domain = Domain([DiscreteVariable(f"x{i}", values=[str(v) for v in range(40)])
                     for i in range(16)], DiscreteVariable("C", values=("0", "1")))
    data = Table.from_numpy(domain, X, rng.integers(0, 2, 30).astype(float))
    assert redundancy_level(data, "x15", return_subset=True) == (1.0, ("x0",))


def test_progress_and_cancel():
    # All 2^10 rows of 10 bits, C = x0 xor x1: as in the xor test, every subset S of the
    # other 9 features gives D(S) = 1/2, so all 2^9 = 512 subsets are visited.
    bits = (np.arange(1024)[:, None] >> np.arange(10)) & 1
    data = table(np.column_stack([bits, bits[:, 0] ^ bits[:, 1]]), [f"x{i}" for i in range(10)])
    fractions = []
    level = redundancy_level(data, "x0", progress=fractions.append)
    assert fractions == [0.5, 1.0, 1.0] and level == pytest.approx(0.5)

    def cancel(fraction):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        redundancy_level(data, "x0", progress=cancel)


def test_refusals():
    wide = Table.from_numpy(
        Domain([DiscreteVariable(f"x{i}", values=("0", "1")) for i in range(17)],
               DiscreteVariable("C", values=("0", "1"))),
        np.zeros((2, 17)), np.zeros(2))
    with pytest.raises(ValueError, match="17 features.*at most 16"):
        redundancy_level(wide, "x0")
    with pytest.raises(ValueError, match="not a feature"):
        redundancy_level(SEED_TABLE, "f9")
    with pytest.raises(ValueError, match="not a feature"):
        redundancy_level(SEED_TABLE, "C")
    continuous = Table.from_numpy(
        Domain([ContinuousVariable("x")], DiscreteVariable("C", values=("0", "1"))),
        np.zeros((2, 1)), np.zeros(2))
    with pytest.raises(ValueError, match="discretize x"):
        redundancy_level(continuous, "x")
    missing = SEED_TABLE.copy()
    with missing.unlocked():
        missing.X[0, 0] = np.nan
    with pytest.raises(ValueError, match="missing values"):
        redundancy_level(missing, "fr")
