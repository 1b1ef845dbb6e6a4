"""The GPU's float32 screen for ReliefF's k nearest
(``backend.FLOAT32_SCREEN``, issue 41): ``kernels.tiled_distances32`` sums
the distances in float32 and ``kernels.k_nearest_screened`` decides each
group's candidates within the widened k-th
(``neighbours.widened_threshold``) by their float64 distances, so the
weights are those of the float64 distances: the CPU engine's to 1e-12,
with the proven bound and with a far looser one (more candidates, the
same neighbours).

Under numba's CUDA simulator where there is no GPU (``tests/conftest.py``):
small tables and k (the simulator's barriers of a block selection are slow),
its small tiles and blocks.
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
from test_cuda_tiled_updates import LaunchCounter, assert_close  # noqa: E402


def _table(kind, n=14, seed=5):
    """(X, y, nominal) of a small table of ``kind``."""
    rng = np.random.default_rng([seed, len(kind)])
    num = rng.random((n, 9))
    nom = rng.integers(0, 3, (n, 4)).astype(float)
    y = (num[:, 0] + 0.3 * nom[:, 0] > 0.8).astype(float)
    if kind == "numeric":
        return num, y, None
    if kind == "ties":              # few values: many equal distances
        return np.floor(num * 2), y, None
    if kind == "regression":
        return num, num[:, 0] * 2 + num[:, 1], None
    mixed = np.c_[num, nom]
    nominal = np.r_[np.zeros(9, bool), np.ones(4, bool)]
    if kind == "mixed":
        return mixed, y, nominal
    if kind == "three_classes":
        return mixed, rng.integers(0, 3, n).astype(float), nominal
    raise ValueError(kind)


@pytest.fixture
def screened(monkeypatch):
    """The screen on, the block selection that takes it on, and the
    launches of the screen's two kernels counted."""
    monkeypatch.setattr(cuda, "FLOAT32_SCREEN", True)
    monkeypatch.setattr(cuda, "BLOCK_SELECTION", True)
    counters = {name: LaunchCounter(getattr(kernels, name))
                for name in ("tiled_distances32", "k_nearest_screened")}
    for name, counter in counters.items():
        monkeypatch.setattr(kernels, name, counter)
    return counters


def _run(kind, device, **options):
    X, y, nominal = _table(kind)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReliefWarning)
        return relieff(X, y, nominal, device=device,
                       regression=kind == "regression", **options)


@pytest.mark.parametrize("kind, options", [
    ("mixed", dict(weight_by_distance=True, sigma=1.5)),
    ("three_classes", dict(misses="any", n_iterations=9, random_state=2)),
    ("regression", {}),
])
def test_screened_weights_equal_cpu(screened, kind, options):
    """ReliefF with and without rank weights, Relief-E's misses, RReliefF,
    k beyond a class's size (3 random classes of 14), m < n, mixed data:
    the screened GPU run's weights are the CPU engine's, and the screen is
    what ran."""
    options = dict(k_nearest=3, **options)
    gpu = _run(kind, "cuda", **options)
    assert screened["tiled_distances32"].launches > 0
    assert screened["k_nearest_screened"].launches > 0
    assert_close(gpu, _run(kind, "cpu", **options))


def test_a_looser_bound_gives_the_same_neighbours(screened, monkeypatch):
    """With a bound far looser than the screen's (so most of a group are
    candidates), the float64 decision still keeps exactly the k nearest and
    their ties (tied data: many equal distances): the weights are the
    CPU's."""
    monkeypatch.setattr(cuda.CudaBackend, "_screen_bound",
                        lambda self, prep, codes: (0.5, 0.01))
    assert_close(_run("ties", "cuda", k_nearest=3),
                  _run("ties", "cpu", k_nearest=3))
    assert screened["k_nearest_screened"].launches > 0


def test_the_screen_is_left_where_it_does_not_apply(screened, monkeypatch):
    """Missing values, instance weights, a radius rule and k above KMAX
    keep the float64 distances (``_screen_bound`` gives no bound); complete
    numeric data gets one."""
    bounds = []
    proven = cuda.CudaBackend._screen_bound

    def recorded(self, prep, codes):
        bounds.append(proven(self, prep, codes))
        return bounds[-1]
    monkeypatch.setattr(cuda.CudaBackend, "_screen_bound", recorded)
    # (the one-thread selection: the simulator's block barriers are slow)
    monkeypatch.setattr(cuda, "BLOCK_SELECTION", False)
    X, y, _ = _table("numeric")
    wide, y_wide, _ = _table("numeric", n=2 * kernels.KMAX + 6)
    missing = X.copy()
    missing[3, 2] = np.nan
    runs = [(missing, None, {}), (X, None, dict(instance_weights=np.r_[
        2.0, np.ones(13)])), (X, None, dict(neighbours="multisurf")),
        (wide, None, dict(k_nearest=kernels.KMAX + 1)), (X, None, {})]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReliefWarning)
        for data, nominal, options in runs:
            relieff(data, y_wide if data is wide else y, nominal,
                    device="cuda", **options)
    assert bounds[:-1] == [None] * 4
    c_err, gamma = bounds[-1]
    assert 0 < c_err < 1e-5 and 0 < gamma < 1e-5
    assert screened["k_nearest_screened"].launches == 0


def test_the_bound_covers_the_float32_sums():
    """The screen's bound (``screens.screen_bound``) holds for the float32
    distances ``tiled_distances32`` computes, against the float64 ones of
    ``tiled_distances``, on values in [0, 1] whose float32 rounding is not
    exact."""
    from numba import cuda as numba_cuda
    from orangecontrib.relief.core.backends.compiled.screens import \
        screen_bound
    rng = np.random.default_rng(4)
    x = rng.random((20, 23)) * (1 - 2 ** -30)
    codes = rng.integers(0, 4, (20, 5)).astype(np.int32)
    rows = np.arange(20, dtype=np.int64)
    ones = np.ones(28)
    exact = np.zeros((20, 20))
    screen = np.zeros((20, 20), np.float32)
    grid = (-(-20 // kernels.TILE),) * 2
    for kernel, out in ((kernels.tiled_distances, exact),
                        (kernels.tiled_distances32, screen)):
        d_out = numba_cuda.to_device(out)
        kernel[grid, (kernels.SIDE, kernels.SIDE)](
            numba_cuda.to_device(x), numba_cuda.to_device(codes),
            numba_cuda.to_device(rows), numba_cuda.to_device(ones), d_out)
        out[:] = d_out.copy_to_host()
    c_err, gamma = screen_bound(x, ones, False, 0.0)
    error = np.abs(screen.astype(float) - exact)
    assert np.all(error <= c_err + gamma * screen)
    assert error.max() > 0          # the float32 sums are not the float64
    manual = np.abs(x[:, None] - x[None]).sum(2) \
        + (codes[:, None] != codes[None]).sum(2)
    np.testing.assert_allclose(exact, manual, rtol=1e-14)
