"""The contract's arithmetic written once for the CPU and the GPU
(``diffs``, ``distances.diff_sum``, ``updates.feature_update``,
``pairsums.feature_pair_sums``): plain Python functions that numba compiles
for both targets.  Here, as plain Python, the ways the GPU calls them
(a strided part of the features a thread, the neighbours in segments) give
the CPU's numbers."""
import numpy as np
import pytest

from orangecontrib.relief.core.contract.diffs import column_diff
from orangecontrib.relief.core.contract.distances import diff_sum, distance_row
from orangecontrib.relief.core.contract.pair_sums import (
    add_pair_sums, feature_pair_sums, width, weight_sums)
from orangecontrib.relief.core.contract.prepare import prepare
from orangecontrib.relief.core.contract.updates import feature_update


def _prepared(seed=1, n=30):
    """5 numeric and 3 nominal features, 15 % missing, three classes."""
    rng = np.random.default_rng(seed)
    X = np.c_[rng.random((n, 5)), rng.integers(0, 3, (n, 3))]
    X[rng.random(X.shape) < 0.15] = np.nan
    nominal = np.arange(8) >= 5
    prep = prepare(X, rng.integers(0, 3, n).astype(float), nominal)
    assert prep.has_missing
    return prep


def _arrays(prep):
    return (prep.num, prep.nom, prep.group) + tuple(prep.missing)


@pytest.mark.parametrize("step", [2, 3, 32])
def test_lanes_split_the_distance_as_the_cpu_sums_it(step):
    """Each column falls to exactly one of ``step`` lanes (a one-hot weight
    gives that column's diff once), and the lanes' parts add up to the
    compiled CPU's distance row."""
    prep = _prepared()
    arrays, a = _arrays(prep), prep.n_used
    r, n = 4, prep.group.shape[0]
    for column in range(a):
        one_hot = np.eye(a)[column]
        for j in range(n):
            parts = [diff_sum(r, j, *arrays, one_hot, True, lane, step)
                     for lane in range(step)]
            assert sum(parts) == column_diff(column, r, j, *arrays)
    w = np.linspace(0.5, 2.0, a)
    row = np.empty(n)
    distance_row(r, prep.data(False), w, True, row, 0, n)
    lanes = [sum(diff_sum(r, j, *arrays, w, True, lane, step)
                 for lane in range(step)) for j in range(n)]
    np.testing.assert_allclose(lanes, row, rtol=1e-15, atol=0)


def test_segments_carry_the_sums():
    """The GPU's updates kernel calls ``feature_update`` and
    ``feature_pair_sums`` once per neighbour group (segment), carrying the
    sums: the numbers of one call over the whole list, bit for bit."""
    prep = _prepared(seed=2)
    arrays = _arrays(prep)
    rng = np.random.default_rng(0)
    chosen = rng.permutation(np.arange(1, 30))[:12]
    coef = rng.normal(size=12)
    target = rng.random(30)
    for f in range(prep.n_used):
        whole = feature_update(f, 0, chosen, coef, 0, 12, *arrays, target,
                               True, 0.0, 0.0)
        parts = (0.0, 0.0)
        for begin, end in ((0, 5), (5, 5), (5, 12)):
            parts = feature_update(f, 0, chosen, coef, begin, end, *arrays,
                                   target, True, *parts)
        assert parts == whole
        whole = feature_pair_sums(f, 0, chosen, coef, 0, 12, *arrays,
                                  0.0, 0.0, 0.0, 0.0)
        parts = (0.0,) * 4
        for begin, end in ((0, 7), (7, 12)):
            parts = feature_pair_sums(f, 0, chosen, coef, begin, end,
                                      *arrays, *parts)
        assert parts == whole
    hits, misses = np.abs(coef[coef < 0]), coef[coef >= 0]
    np.testing.assert_allclose(
        weight_sums(coef, 0, 12, 0.0, 0.0, 0.0, 0.0),
        [hits.sum(), (hits ** 2).sum(), misses.sum(), (misses ** 2).sum()],
        rtol=1e-15)


def test_compiled_pair_sums_equal_the_plain_function_bit_for_bit():
    """With missing values the compiled CPU's STIR sums
    (``pairsums.add_pair_sums``: ``feature_pair_sums`` with the diffs
    inlined) are the plain-Python function's numbers, as the GPU calls it:
    inlining moves no bit."""
    prep = _prepared(seed=3)
    arrays, a = _arrays(prep), prep.n_used
    rng = np.random.default_rng(1)
    chosen = rng.permutation(np.arange(1, 30))[:12]
    coef = rng.normal(size=12)
    out = np.full(width(a), np.nan)
    add_pair_sums(0, chosen, coef, 12, prep.data(False), out)
    for f in range(a):
        assert tuple(out[f::a][:4]) == feature_pair_sums(
            f, 0, chosen, coef, 0, 12, *arrays, 0.0, 0.0, 0.0, 0.0)
    assert tuple(out[4 * a:]) == weight_sums(coef, 0, 12, 0.0, 0.0, 0.0,
                                             0.0)
