"""The parallel preparation of large dense data (``prepare.scaled_numeric``'s
one pass, the block-wise ``column_stats``) gives the same bits as NumPy's
passes, on any number of threads."""
import numba
import numpy as np
import pytest

from orangecontrib.relief.core.backends import base, precompile
from orangecontrib.relief.core.backends.runtime import threads
from orangecontrib.relief.core.contract import prepare as prep_module
from orangecontrib.relief.core.engine import start
from orangecontrib.relief.core.contract.prepare import (
    column_stats, prepare, range_scale, scaled_numeric)


def _data(n=1100, a=7):
    """Rows over three blocks: negative values, a constant column, NaNs, a
    column whose range overflows (pre = 0.5)."""
    rng = np.random.default_rng(3)
    X = rng.random((n, a)) * 9 - 4
    X[:, 2] = 5.0                                       # constant
    X[:, 4] = (rng.random(n) * 2 - 1) * 1.5e308         # wide range
    X[rng.random((n, a)) < 0.05] = np.nan
    return X


def _both_paths(monkeypatch, X, cols):
    """scaled_numeric's result by NumPy (small) and by the parallel pass."""
    lo, hi = np.nanmin(X, axis=0), np.nanmax(X, axis=0)
    factors = range_scale(lo[cols], hi[cols])
    with np.errstate(over="ignore"):
        small = scaled_numeric(X, cols, *factors)
    monkeypatch.setattr(prep_module, "SMALL_VALUES", 0)
    return small, scaled_numeric(X, cols, *factors)


@pytest.mark.parametrize("cols", [[0, 1, 3, 4, 6], [3, 4, 5, 6]],
                         ids=["gather", "run of columns"])
@pytest.mark.parametrize("n_jobs", [1, 2])
def test_parallel_scaling_is_numpys(monkeypatch, cols, n_jobs):
    X = _data()
    cols = np.array(cols, np.int64)
    with threads(n_jobs):
        (small, small_nan), (large, large_nan) = _both_paths(
            monkeypatch, X, cols)
    assert np.array_equal(small, large, equal_nan=True)
    assert np.array_equal(np.isnan(small), np.isnan(large))
    assert large.flags.c_contiguous and small_nan and large_nan
    known = np.where(np.isnan(X), 0.0, X)
    (_, small_nan), (_, large_nan) = _both_paths(monkeypatch, known, cols)
    assert not small_nan and not large_nan


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_parallel_column_stats_are_numpys(n_jobs):
    X = _data()
    X[:, 1] = np.nan                                    # all missing
    with threads(n_jobs):
        n_known, lo, hi = column_stats(X)
    expected = prep_module._column_stats_numpy(X)
    for got, want in zip((n_known, lo, hi), expected):
        assert np.array_equal(got, want, equal_nan=True)
    # of -0.0 and 0.0, in two blocks, the first is kept (as in one serial
    # pass): the minimum of the first column is -0.0, of the second 0.0
    zeros = np.ones((1100, 2))
    zeros[511], zeros[512] = (-0.0, 0.0), (0.0, -0.0)
    with threads(n_jobs):
        lo = column_stats(zeros)[1]
    assert lo[0] == lo[1] == 0 and np.signbit(lo[0]) \
        and not np.signbit(lo[1])


def test_prepare_large_path_is_small_paths(monkeypatch):
    X = _data()
    y = (np.arange(X.shape[0]) % 3).astype(float)
    nominal = np.zeros(X.shape[1], bool)
    nominal[6] = True
    X[:, 6] = np.where(np.isnan(X[:, 6]), np.nan, np.arange(X.shape[0]) % 4)
    with np.errstate(over="ignore"):
        small = prepare(X, y, nominal)
        monkeypatch.setattr(prep_module, "SMALL_VALUES", 0)
        large = prepare(X, y, nominal)
    assert large.has_missing and small.has_missing
    assert np.array_equal(small.num, large.num, equal_nan=True)
    assert np.array_equal(small.nom, large.nom)
    assert np.array_equal(small.used, large.used)
    clean = prepare(np.nan_to_num(X[:, :4]), y)
    assert not clean.has_missing


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_start_prepares_on_n_jobs_threads(monkeypatch, n_jobs):
    """The preparation runs on the run's threads (n_jobs=1: one)."""
    seen = []

    def spy(*args, **kwargs):
        seen.append(numba.get_num_threads())
        return prepare(*args, **kwargs)
    monkeypatch.setattr(base, "prepare", spy)
    X = np.random.default_rng(0).random((30, 4))
    start(X, (X[:, 0] > 0.5).astype(float), k_nearest=3, n_jobs=n_jobs)
    assert seen == [min(n_jobs, numba.config.NUMBA_NUM_THREADS)]


def test_precompile_compiles_the_large_path(monkeypatch):
    """The warm-up's background process (``precompile``) compiles every
    kernel, with the argument types, that prepare runs on large dense data
    (int8 and int32 codes): a first large run compiles none of them."""
    calls = {"precompile": set(), "prepare": set()}
    phase = ["precompile"]

    def spy(name):
        kernel = getattr(prep_module, name)

        def recorded(*args):
            calls[phase[0]].add(
                (name,) + tuple(str(numba.typeof(v)) for v in args))
            return kernel(*args)
        monkeypatch.setattr(prep_module, name, recorded)
    for name in ("column_stats", "_scale_rows", "_nominal_codes"):
        spy(name)
    for codes in ("int8", "int32"):
        X, y, nominal = precompile._problem(codes, "float64")
        phase[0] = "precompile"
        prep_module.compile_large_path(X, nominal)
        phase[0] = "prepare"
        monkeypatch.setattr(prep_module, "SMALL_VALUES", 0)
        prepare(X, y, nominal)
        monkeypatch.setattr(prep_module, "SMALL_VALUES", 10 ** 6)
    assert {call[0] for call in calls["prepare"]} == {
        "column_stats", "_scale_rows", "_nominal_codes"}
    assert calls["prepare"] <= calls["precompile"]
