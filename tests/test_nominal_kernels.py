"""Tests of the nominal-feature kernels (``core/contract/nominal.py``): bit-planes with
popcount for unweighted mismatch counts, against a naive numpy reference."""
import math
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from numba import njit

from orangecontrib.relief.core.contract import nominal

A_NOMS = [1, 63, 64, 65, 1000]
KINDS = ["binary", "ternary", "mixed", "int8max", "int32big"]


def make_nom(kind, n, a, seed):
    """n x a codes of the given kind (C-contiguous)."""
    rng = np.random.default_rng(seed)
    if kind == "binary":
        return rng.integers(0, 2, (n, a)).astype(np.int8)
    if kind == "ternary":
        return rng.integers(0, 3, (n, a)).astype(np.int8)
    if kind == "mixed":
        # a radix per feature, from 1 (a constant feature) to 20
        radix = rng.integers(1, 21, a)
        return (rng.random((n, a)) * radix).astype(np.int8)
    if kind == "int8max":
        nom = rng.integers(0, 128, (n, a)).astype(np.int8)
        nom[0, :] = 127
        return nom
    if kind == "int32big":
        # mostly few values (so that rows do match), some features huge
        nom = rng.integers(0, 3, (n, a)).astype(np.int32)
        big = rng.random(a) < 0.3
        nom[:, big] *= rng.integers(1000, 2 ** 31 // 3, big.sum())
        nom[0, 0] = 2 ** 31 - 1
        return nom
    raise ValueError(kind)


def naive_mismatches(nom, rows, j0, j1):
    return (nom[rows][:, None, :] != nom[None, j0:j1, :]).sum(axis=2)


# ---------------------------------------------------------------- popcount

@njit(cache=False)
def _popcounts(values):
    out = np.empty_like(values)
    for i in range(values.shape[0]):
        out[i] = nominal.popcount(values[i])
    return out


def test_popcount_uint64():
    rng = np.random.default_rng(0)
    values = np.concatenate([
        np.array([0, 1, 2 ** 63, 2 ** 64 - 1, 0x5555555555555555],
                 dtype=np.uint64),
        rng.integers(0, 2 ** 63, 1000, dtype=np.uint64) * np.uint64(2)
        + rng.integers(0, 2, 1000, dtype=np.uint64)])
    expected = np.array([bin(int(v)).count("1") for v in values])
    np.testing.assert_array_equal(_popcounts(values), expected)
    assert _popcounts(values).dtype == np.uint64


def test_kernels_load_from_cache_in_another_process(tmp_path):
    """The popcount intrinsic does not stop caching: a second process loads
    the compiled kernels from the cache (no recompilation, no error)."""
    script = textwrap.dedent("""
        import numpy as np
        from orangecontrib.relief.core import nominal as N
        nom = (np.arange(40 * 70).reshape(40, 70) % 5).astype(np.int8)
        planes, n_bits = N.pack_planes(nom)
        out = np.zeros((4, 40))
        N.mismatches_block4(np.array([0, 1, 2, 3]), planes, n_bits, out,
                            0, 40)
        ref = (nom[:4, None] != nom[None]).sum(2)
        assert (out == ref).all()
        for kernel in (N.mismatches_block4, N._fill_planes):
            stats = kernel.stats
            print(sum(stats.cache_hits.values()),
                  sum(stats.cache_misses.values()))
    """)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    runs = [subprocess.run([sys.executable, "-c", script], env=env, cwd=root,
                           capture_output=True, text=True, timeout=300)
            for _ in range(2)]
    for run in runs:
        assert run.returncode == 0, run.stderr
        assert "Traceback" not in run.stderr
    first = np.array(runs[0].stdout.split(), int).reshape(-1, 2)
    second = np.array(runs[1].stdout.split(), int).reshape(-1, 2)
    assert (first[:, 1] >= 1).all()         # compiled (and saved)
    assert (second[:, 0] >= 1).all()        # loaded from the cache
    assert (second[:, 1] == 0).all()        # nothing recompiled
    assert any(f.endswith(".nbc") for _, _, fs in os.walk(tmp_path)
               for f in fs)


# ------------------------------------------------------------- pack_planes

@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("a", A_NOMS)
def test_pack_planes_layout(kind, a):
    nom = make_nom(kind, 9, a, seed=a)
    planes, n_bits = nominal.pack_planes(nom)
    top = int(nom.max())
    assert n_bits == max(1, math.ceil(math.log2(top + 1)))
    n_words = -(-a // 64)
    assert planes.dtype == np.uint64 and planes.flags.c_contiguous
    assert planes.shape == (9, n_words * n_bits)
    for i in range(9):
        for k in range(n_words):
            for p in range(n_bits):
                word = int(planes[i, k * n_bits + p])
                expected = 0
                for g in range(64 * k, min(a, 64 * k + 64)):
                    expected |= ((int(nom[i, g]) >> p) & 1) << (g - 64 * k)
                assert word == expected   # padding bits are 0 too


def test_pack_planes_bits_count():
    assert nominal.pack_planes(np.zeros((3, 5), np.int8))[1] == 1
    assert nominal.pack_planes(np.ones((3, 5), np.int8))[1] == 1
    assert nominal.pack_planes(np.full((3, 5), 2, np.int8))[1] == 2
    assert nominal.pack_planes(np.full((3, 5), 3, np.int8))[1] == 2
    assert nominal.pack_planes(np.full((3, 5), 4, np.int8))[1] == 3
    assert nominal.pack_planes(np.full((3, 5), 127, np.int8))[1] == 7
    big = np.full((2, 3), 2 ** 31 - 1, np.int32)
    assert nominal.pack_planes(big)[1] == 31


def test_pack_planes_rejects_missing():
    with pytest.raises(ValueError):
        nominal.pack_planes(np.array([[0, -1]], np.int8))


# ------------------------------------------------------- mismatches_block4

@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("a", A_NOMS)
def test_mismatches_block4_matches_naive(kind, a):
    n = 43
    nom = make_nom(kind, n, a, seed=100 + a)
    rng = np.random.default_rng(a)
    # make some rows equal or nearly so: counts of 0 and 1 occur
    nom[5] = nom[6]
    nom[7] = nom[6]
    nom[7, a // 2] = nom[6, a // 2] + 1
    planes, n_bits = nominal.pack_planes(nom)
    for rows, j0, j1 in [([6, 5, 7, 0], 0, n), ([1, 1, 42, 5], 3, 40),
                         ([0, 2, 4, 8], 5, 7), ([3, 9, 11, 30], 13, 13),
                         ([40, 41, 42, 0], 10, 17)]:
        rows = np.array(rows, np.int64)
        big = rng.random((7, n + 5))
        before = big.copy()
        out = big[2:6]                    # a slice of a bigger array
        nominal.mismatches_block4(rows, planes, n_bits, out, j0, j1)
        expected = before.copy()
        expected[2:6, j0:j1] += naive_mismatches(nom, rows, j0, j1)
        np.testing.assert_array_equal(big, expected)   # exact, added


def test_mismatches_block4_adds_exact_counts():
    nom = make_nom("ternary", 30, 200, seed=1)
    planes, n_bits = nominal.pack_planes(nom)
    rows = np.arange(4, dtype=np.int64)
    out = np.zeros((4, 30))
    nominal.mismatches_block4(rows, planes, n_bits, out, 0, 30)
    nominal.mismatches_block4(rows, planes, n_bits, out, 0, 30)
    np.testing.assert_array_equal(out, 2 * naive_mismatches(nom, rows, 0, 30))
    assert (np.diag(out[:, :4]) == 0).all()


def test_no_nominal_features():
    nom = np.zeros((6, 0), np.int8)
    planes, n_bits = nominal.pack_planes(nom)
    assert planes.shape == (6, 0) and planes.dtype == np.uint64
    assert n_bits == 1
    out = np.full((4, 6), 2.5)
    nominal.mismatches_block4(np.array([0, 1, 2, 3]), planes, n_bits, out,
                              0, 6)
    assert (out == 2.5).all()



def test_empty_rows():
    planes, n_bits = nominal.pack_planes(np.zeros((0, 70), np.int8))
    assert planes.shape == (0, 2) and n_bits == 1
