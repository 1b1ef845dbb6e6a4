"""The GPU's tiled update (``kernels.tiled_updates`` over the dense
coefficients of ``kernels.dense_coefficients``): a batch's update rows for a
radius rule's neighbours on complete data, the same as ``kernels.updates``'
and the CPU engine's to 1e-12; every other run falls back to ``updates``.

Under numba's CUDA simulator where there is no GPU (``tests/conftest.py``):
small tables, and the simulator's small tiles (8 visits x 8 features, 16
instances a chunk), so that these tables span several tiles and chunks.
"""
import warnings

import numpy as np
import pytest

pytest.importorskip("numba.cuda", reason="needs numba-cuda (the [gpu] extra)")

from orangecontrib.relief.core.backends.cuda import backend as cuda  # noqa: E402
from orangecontrib.relief.core.engine import relieff  # noqa: E402
from orangecontrib.relief.core.messages import ReliefWarning  # noqa: E402

if cuda.unavailable_reason() is not None:
    pytest.skip(f"no CUDA device and no simulator: "
                f"{cuda.unavailable_reason()}", allow_module_level=True)

from orangecontrib.relief.core.backends.cuda import kernels  # noqa: E402

TOLERANCE = 1e-12
RADIUS_RULES = ("surf", "surf*", "multisurf", "multisurf*")


def _table(kind, n=40, seed=7):
    """(X, y, nominal) of a small classification table of ``kind``: more
    instances than a chunk, more features than a tile where it can."""
    rng = np.random.default_rng([seed, len(kind)])
    num = rng.random((n, 11))
    nom = rng.integers(0, 3, (n, 7)).astype(float)
    y = (num[:, 0] + 0.3 * nom[:, 0] > 0.8).astype(float)
    if kind == "numeric":
        return num, y, None
    if kind == "ties":              # few values: many equal distances
        return np.floor(num * 2), y, None
    if kind == "nominal":
        return nom, (nom[:, 0] == nom[:, 1]).astype(float), np.ones(7, bool)
    mixed = np.c_[num, nom]
    nominal = np.r_[np.zeros(11, bool), np.ones(7, bool)]
    if kind == "mixed":
        return mixed, y, nominal
    if kind == "three_classes":
        return mixed, rng.integers(0, 3, n).astype(float), nominal
    raise ValueError(kind)


class LaunchCounter:
    """A kernel that counts its launches (``test_cuda_screen`` uses it
    too)."""

    def __init__(self, kernel):
        self.kernel, self.launches = kernel, 0

    def __getitem__(self, configuration):
        def launch(*args):
            self.launches += 1
            return self.kernel[configuration](*args)
        return launch


@pytest.fixture(autouse=True)
def tiled(monkeypatch):
    """The tiled update on (``cuda.TILED_UPDATES``: off by default, slower
    on an H200 than ``updates``)."""
    monkeypatch.setattr(cuda, "TILED_UPDATES", True)


@pytest.fixture
def launches(monkeypatch):
    """The launches of ``tiled_updates`` and ``updates`` in a test."""
    counters = {name: LaunchCounter(getattr(kernels, name))
                for name in ("tiled_updates", "updates")}
    for name, counter in counters.items():
        monkeypatch.setattr(kernels, name, counter)
    return counters


def _run(kind, device, **options):
    X, y, nominal = _table(kind)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReliefWarning)
        return relieff(X, y, nominal, device=device, **options)


def assert_close(result, reference):
    """The weights of ``result`` and ``reference`` agree to TOLERANCE
    (``test_cuda_screen`` uses it too)."""
    np.testing.assert_allclose(result.weights, reference.weights, rtol=0,
                               atol=TOLERANCE)


@pytest.mark.parametrize("kind", ["numeric", "ties", "nominal", "mixed",
                                  "three_classes"])
@pytest.mark.parametrize("rule", RADIUS_RULES)
def test_tiled_update_equals_cpu_and_updates(kind, rule, launches,
                                             monkeypatch):
    """Every radius rule, 2 and 3 classes, numeric, nominal, mixed and tied
    data: the tiled update's weights are the CPU engine's and the old
    kernel's to 1e-12, and the tiled kernel is what ran."""
    cpu = _run(kind, "cpu", neighbours=rule)
    tiled = _run(kind, "cuda", neighbours=rule)
    assert launches["tiled_updates"].launches > 0
    assert launches["updates"].launches == 0
    monkeypatch.setattr(cuda, "TILED_UPDATES", False)
    old = _run(kind, "cuda", neighbours=rule)
    assert launches["updates"].launches > 0
    assert_close(tiled, cpu)
    assert_close(tiled, old)


def test_tiled_update_with_any_misses_and_m_below_n(launches):
    """All misses as one group, and a random part of the instances visited
    (a batch smaller than the table)."""
    options = dict(neighbours="multisurf*", misses="any", n_iterations=23,
                   random_state=3)
    assert_close(_run("three_classes", "cuda", **options),
                  _run("three_classes", "cpu", **options))
    assert launches["tiled_updates"].launches > 0


@pytest.mark.parametrize("block", [True, False])
def test_tiled_update_after_either_radius_kernel(block, launches,
                                                 monkeypatch):
    """The dense coefficients from the block radius kernel
    (``within_radius_block``, the GPU's) and the one-thread one alike."""
    monkeypatch.setattr(cuda, "BLOCK_SELECTION", block)
    options = dict(neighbours="multisurf", n_iterations=12, random_state=1)
    assert_close(_run("mixed", "cuda", **options),
                  _run("mixed", "cpu", **options))
    assert launches["tiled_updates"].launches > 0


@pytest.mark.parametrize("case", [
    dict(neighbours="k"),                               # ReliefF's k nearest
    dict(neighbours="multisurf", statistics=True),      # STIR's sums
    dict(neighbours="multisurf", regression=True),      # RReliefF
    dict(neighbours="multisurf", missing=True),         # RELIEF-D
    dict(neighbours="multisurf", variant="drelieff"),   # one visit, weighted
], ids=lambda case: ",".join(f"{k}={v}" for k, v in case.items()))
def test_fallback_to_updates(case, launches):
    """Runs the tiled update does not cover take ``updates``, with the
    CPU's weights."""
    case = dict(case)
    X, y, nominal = _table("mixed")
    if case.pop("missing", False):
        X = X.copy()
        X[np.random.default_rng(2).random(X.shape) < 0.1] = np.nan
    if case.get("regression"):
        y = X[:, 0] + X[:, 1]
    options = dict(case, n_iterations=10, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReliefWarning)
        cpu = relieff(X, y, nominal, device="cpu", **options)
        gpu = relieff(X, y, nominal, device="cuda", **options)
    np.testing.assert_allclose(gpu.weights, cpu.weights, rtol=0,
                               atol=TOLERANCE)
    assert launches["tiled_updates"].launches == 0
    assert launches["updates"].launches > 0


def test_tiled_rows_equal_updates_rows():
    """The two kernels on the same neighbour lists, row by row: random
    subsets with random coefficients (a visit with none, a chunk that no
    visit of a tile uses), two tiles of visits and of features, numeric
    and nominal columns, tied values."""
    from numba import cuda as nc
    rng = np.random.default_rng(11)
    n, count = 45, kernels.UPDATE_TILE + 5
    a_num, a_nom = kernels.UPDATE_TILE // 2 + 5, kernels.UPDATE_TILE // 2
    x = np.floor(rng.random((n, a_num)) * 4) / 4
    codes = rng.integers(0, 3, (n, a_nom)).astype(np.int32)
    group = rng.integers(0, 2, n).astype(np.int64)
    rows = rng.choice(n, count, replace=False).astype(np.int64)
    chosen = np.zeros((count, n), np.int32)
    coef = np.zeros((count, n))
    counts = np.zeros((count, 1), np.int64)
    for b, r in enumerate(rows):
        others = np.setdiff1d(np.arange(n), [r])
        # instances 16-31 (a whole chunk) are nobody's neighbour
        others = others[(others < 16) | (others > 31)]
        size = 0 if b == 3 else rng.integers(1, len(others))
        pick = rng.permutation(others)[:size]
        chosen[b, :size] = pick
        coef[b, :size] = rng.normal(size=size)
        counts[b, 0] = size
    constant = rng.normal(size=count)
    tables = (np.zeros(1), np.zeros(1), np.zeros((1, 1), np.int64),
              np.zeros((1, 1), np.int64), np.zeros((1, 1), np.int64),
              np.zeros((1, 1, 1)), np.zeros((1, 1, 1)), np.zeros((1, 1, 1)))
    a = a_num + a_nom
    old = np.full((count, a), np.nan)
    kernels.updates[((a + kernels.FEATURES_PER_BLOCK - 1)
                     // kernels.FEATURES_PER_BLOCK, count),
                    kernels.FEATURES_PER_BLOCK](
        x, codes, rows, group, np.zeros(n), False, False, *tables,
        np.zeros((count, 1), np.int64), counts, chosen, coef, constant, old)
    dense = nc.to_device(np.full((count, n), np.nan))
    kernels.dense_coefficients[count, kernels.VISIT_THREADS](
        chosen, coef, counts, dense)
    expected = np.zeros((count, n))
    for b in range(count):
        expected[b, chosen[b, :counts[b, 0]]] = coef[b, :counts[b, 0]]
    np.testing.assert_array_equal(dense.copy_to_host(), expected)
    new = np.full((count, a), np.nan)
    grid = ((count + kernels.UPDATE_TILE - 1) // kernels.UPDATE_TILE,
            (a + kernels.UPDATE_TILE - 1) // kernels.UPDATE_TILE)
    kernels.tiled_updates[grid, (kernels.SIDE, kernels.SIDE)](
        x, codes, rows, group, *tables, dense, constant, new)
    assert grid[0] > 1 and grid[1] > 1
    np.testing.assert_allclose(new, old, rtol=0, atol=TOLERANCE)
    np.testing.assert_array_equal(new[3], constant[3])
