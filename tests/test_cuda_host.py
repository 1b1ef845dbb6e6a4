"""The host side of a GPU run (issue 41): the update rows summed on the
device in visiting order (``kernels.add_rows``), large first batches, the
traffic counters (``cuda.TRAFFIC``), and the permutation test's refits on
one prepared data set kept on the device (``prepare.with_target``,
``cuda.kept_data``).  Weights, traces, STIR's sums and p-values equal the
CPU engine's to 1e-12 under numba's simulator (or on a GPU)."""
import numpy as np
import pytest
import scipy.sparse as sp

pytest.importorskip("numba.cuda", reason="needs numba-cuda (the [gpu] extra)")

from orangecontrib.relief.core import engine  # noqa: E402
from orangecontrib.relief.core.backends.base import plan  # noqa: E402
from orangecontrib.relief.core.backends.cuda import backend as cuda  # noqa: E402
from orangecontrib.relief.core.contract.prepare import with_target  # noqa: E402
from orangecontrib.relief.core.engine import relieff  # noqa: E402
from orangecontrib.relief.stats import permutation_test  # noqa: E402

if cuda.unavailable_reason() is not None:
    pytest.skip(f"no CUDA device and no simulator: "
                f"{cuda.unavailable_reason()}", allow_module_level=True)

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

TOLERANCE = 1e-12


def _data(kind, n=26, seed=5):
    """(X, y, nominal, regression): ties (values on a grid of 3), three
    classes, nominal and missing values, or a regression target."""
    rng = np.random.default_rng([seed, len(kind)])
    num = np.floor(rng.random((n, 3)) * 3) / 3
    nom = rng.integers(0, 3, (n, 2)).astype(float)
    X = np.c_[num, nom]
    nominal = np.array([0, 0, 0, 1, 1], bool)
    y = np.floor(3 * rng.random(n))
    if kind == "missing":
        X[rng.random(X.shape) < 0.15] = np.nan
    if kind == "regression":
        return X, num[:, 0] + 0.5 * nom[:, 0] + 0.1 * rng.random(n), \
            nominal, True
    return X, y, nominal, False


@pytest.fixture
def small_batches(monkeypatch):
    """Batches of 3 visits first (then grown by time), each cut into chunks
    of 2 visits on the device (``CudaBackend.batch``): the sums and trace
    points cross batches and chunks."""
    monkeypatch.setattr(cuda, "GPU_FIRST_BATCH_TERMS", 3 * 26 * 5)
    # (a visit needs 28 n + 8 width bytes, width <= 34 here: 2 a chunk)
    monkeypatch.setattr(cuda, "BATCH_DEVICE_BYTES", 2000)


def _same(gpu, cpu):
    assert gpu.device == "cuda" and cpu.device == "cpu"
    np.testing.assert_allclose(gpu.weights, cpu.weights, rtol=0,
                               atol=TOLERANCE)
    if cpu.trace is not None:
        np.testing.assert_array_equal(gpu.trace_steps, cpu.trace_steps)
        np.testing.assert_allclose(gpu.trace, cpu.trace, rtol=0,
                                   atol=TOLERANCE)
    for key, value in (cpu.pair_sums or {}).items():
        np.testing.assert_allclose(gpu.pair_sums[key], value, rtol=0,
                                   atol=TOLERANCE)


@pytest.mark.parametrize("kind, options", [
    ("ties", {}),
    ("ties", dict(trace_every=4)),
    ("ties", dict(trace_every=1, misses="any")),
    ("missing", dict(trace_every=5)),
    ("ties", dict(statistics=True)),
    ("regression", dict(trace_every=3)),
    ("missing", dict(neighbours="multisurf")),
    ("ties", dict(n_iterations=11, weight_by_distance=True)),
])
@pytest.mark.parametrize("batches", ["large", "small"])
def test_device_sums_equal_the_cpu(kind, options, batches, request):
    """Weights, traces and STIR's sums of the device's sums equal the CPU
    engine's, in one batch and across batches and device chunks."""
    if batches == "small":
        request.getfixturevalue("small_batches")
    X, y, nominal, regression = _data(kind)
    gpu, cpu = (relieff(X, y, nominal, regression=regression, k_nearest=3,
                        device=device, **options) for device in ("cuda",
                                                                 "cpu"))
    _same(gpu, cpu)


def test_sequential_variants_still_equal(small_batches):
    """dReliefF (one visit at a time, rows fetched) is untouched."""
    X, y, nominal, _ = _data("ties", n=14)
    _same(*(relieff(X, y, nominal, variant="drelieff", k_nearest=2,
                    trace_every=5, device=device)
            for device in ("cuda", "cpu")))


def test_progress_and_cancel_between_batches(small_batches):
    """Progress is reported after each batch on the GPU too, and an
    exception from it stops the run there."""
    X, y, nominal, _ = _data("ties")
    seen = []
    relieff(X, y, nominal, k_nearest=3, device="cuda", progress=seen.append)
    assert seen[0] == 0.0 and seen[-1] == 1.0 and len(seen) >= 3
    assert seen == sorted(seen)
    calls = []

    def cancel(fraction):
        calls.append(fraction)
        if fraction > 0:
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        relieff(X, y, nominal, k_nearest=3, device="cuda", progress=cancel)
    assert calls == [0.0, 3 / 26]


def test_a_run_fetches_only_the_sums():
    """One batch (the GPU's first batch takes every visit here): the data
    sent once, four launches (distances, neighbours, updates, sums), and
    only the width-long sums fetched, not the visits' update rows."""
    X, y, nominal, _ = _data("ties")
    cuda.TRAFFIC.clear()
    relieff(X, y, nominal, k_nearest=3, device="cuda")
    assert cuda.TRAFFIC["data sends"] == 1
    assert cuda.TRAFFIC["launches"] == 4
    assert cuda.TRAFFIC["fetches"] == 1
    assert cuda.TRAFFIC["fetched"] == 8 * X.shape[1]


def test_traffic_per_batch(small_batches):
    """Across batches: the sums come back once a batch, the trace points
    with them; every chunk adds its launches."""
    X, y, nominal, _ = _data("ties")
    seen = []
    cuda.TRAFFIC.clear()
    relieff(X, y, nominal, k_nearest=3, device="cuda", trace_every=4,
            progress=seen.append)
    sizes = np.diff(np.round(np.array(seen) * 26).astype(int))
    assert len(sizes) >= 2 and sizes[0] == 3
    points = 26 // 4
    assert cuda.TRAFFIC["data sends"] == 1
    assert cuda.TRAFFIC["fetched"] == 8 * X.shape[1] * (len(sizes) + points)
    chunks = sum((size + 1) // 2 for size in sizes)
    assert cuda.TRAFFIC["launches"] == 4 * chunks


@pytest.mark.parametrize("kind", ["missing", "regression"])
def test_with_target_plans_what_prepare_plans(kind):
    """A permuted target on the prepared data (``with_target``) gives the
    weights of preparing the data with it (the CPU engine, to the bit)."""
    X, y, nominal, regression = _data(kind)
    y = y.copy()
    y[3] = np.nan
    known = ~np.isnan(y)
    first = engine.start(X, y, nominal, regression=regression, k_nearest=3)
    permuted = y.copy()
    permuted[known] = np.random.default_rng(0).permutation(y[known])
    planned = plan(with_target(first.prep, permuted[known], regression),
                   first.options)
    again = engine.run_setup(planned).weights
    whole = relieff(X, permuted, nominal, regression=regression,
                    k_nearest=3).weights
    np.testing.assert_array_equal(again, whole)
    with pytest.raises(ValueError, match="one known target"):
        with_target(first.prep, permuted, regression)


@pytest.mark.parametrize("kind", ["missing", "regression"])
def test_permutation_test_sends_x_once(kind):
    """The permutation test on the GPU: the p-values of the CPU's (same
    seeds), the data sent for the observed fit and once for all refits."""
    X, y, nominal, regression = _data(kind, n=20)
    y = y.copy()
    y[2] = np.nan
    options = dict(regression=regression, k_nearest=3, n_permutations=4,
                   permutation_seed=1)
    cuda.TRAFFIC.clear()
    gpu = permutation_test(X, y, nominal, device="cuda", **options)
    assert cuda.TRAFFIC["data sends"] == 2
    cpu = permutation_test(X, y, nominal, device="cpu", **options)
    np.testing.assert_allclose(gpu.weights, cpu.weights, rtol=0,
                               atol=TOLERANCE)
    np.testing.assert_array_equal(gpu.p_values, cpu.p_values)
    np.testing.assert_array_equal(gpu.p_max_t, cpu.p_max_t)


def test_permutation_refits_equal_the_cpu(monkeypatch):
    """Each refit's weights (not only the p-values) equal the CPU's."""
    X, y, nominal, _ = _data("missing", n=20)
    weights = {"cuda": [], "cpu": []}
    run_setup, fit = engine.run_setup, relieff

    def recording_run(setup, **options):
        result = run_setup(setup, **options)
        weights[result.device].append(result.weights)
        return result

    def recording_fit(*args, **options):
        result = fit(*args, **options)
        weights[result.device].append(result.weights)
        return result
    monkeypatch.setattr(engine, "run_setup", recording_run)
    import orangecontrib.relief.stats as stats
    monkeypatch.setattr(stats, "relieff", recording_fit)
    for device in ("cuda", "cpu"):
        permutation_test(X, y, nominal, device=device, k_nearest=3,
                         n_permutations=3)
    assert len(weights["cuda"]) == len(weights["cpu"]) == 4
    np.testing.assert_allclose(weights["cuda"], weights["cpu"], rtol=0,
                               atol=TOLERANCE)


def test_sparse_permutation_test_refits_whole():
    """Sparse data: each refit prepares and sends its data (the fallback),
    with the CPU's p-values."""
    X = sp.random(20, 4, density=0.5, random_state=2, format="csr")
    y = (np.asarray(X[:, 0].todense()).ravel() > 0.3).astype(float)
    cuda.TRAFFIC.clear()
    gpu = permutation_test(X, y, device="cuda", k_nearest=3,
                           n_permutations=3)
    assert cuda.TRAFFIC["data sends"] == 4
    cpu = permutation_test(X, y, device="cpu", k_nearest=3, n_permutations=3)
    np.testing.assert_array_equal(gpu.p_values, cpu.p_values)
