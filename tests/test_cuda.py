"""The GPU backend (``core/backends/cuda/backend.py``, ``core/backends/cuda/kernels.py``): the same
weights as the CPU engine to 1e-12 for every variant x neighbourhood rule x
data type, and the options around them.

Where there is no GPU, the kernels run under numba's CUDA simulator
(``tests/conftest.py`` sets NUMBA_ENABLE_CUDASIM=1): the same kernel code,
each GPU thread a Python thread, so the tables are small.  On a machine with
an NVIDIA GPU the same tests run on the device.
"""
import warnings
from contextlib import contextmanager

import numpy as np
import pytest
import scipy.sparse as sp

pytest.importorskip("numba.cuda", reason="needs numba-cuda (the [gpu] extra)")

from orangecontrib.relief.core.backends.cuda import backend as cuda  # noqa: E402
from orangecontrib.relief.core.engine import relieff  # noqa: E402
from orangecontrib.relief.core.messages import ReliefWarning  # noqa: E402

if cuda.unavailable_reason() is not None:
    pytest.skip(f"no CUDA device and no simulator: "
                f"{cuda.unavailable_reason()}", allow_module_level=True)

TOLERANCE = 1e-12
VARIANTS = ("relieff", "drelieff", "pdrelieff")
RULES = ("k", "surf", "surf*", "multisurf", "multisurf*")


def _data(kind, n=18, seed=3):
    """(X, y, nominal, regression) of a small table of ``kind``."""
    rng = np.random.default_rng([seed, len(kind)])
    num = rng.random((n, 3))
    nom = rng.integers(0, 3, (n, 2)).astype(float)
    score = num[:, 0] + 0.5 * nom[:, 0]
    y = (score > np.median(score)).astype(float)
    if kind == "numeric":
        return num, y, None, False
    if kind == "ties":
        return np.floor(num * 3), y, None, False
    if kind == "nominal":
        return nom, (nom[:, 0] == nom[:, 1]).astype(float), \
            np.ones(2, bool), False
    mixed = np.c_[num, nom]
    nominal = np.array([0, 0, 0, 1, 1], bool)
    if kind == "mixed":
        return mixed, y, nominal, False
    if kind == "missing":
        mixed[rng.random(mixed.shape) < 0.15] = np.nan
        return mixed, y, nominal, False
    if kind == "three_classes":
        return mixed, np.floor(3 * rng.random(n)), nominal, False
    if kind == "sparse":
        X = sp.random(n, 6, density=0.4, random_state=seed, format="csr")
        return X, np.asarray(X[:, 0].todense()).ravel() > 0.3, None, False
    if kind == "regression":
        return mixed, score + 0.1 * rng.random(n), nominal, True
    if kind == "regression_missing":
        mixed[rng.random(mixed.shape) < 0.15] = np.nan
        return mixed, score, nominal, True
    raise ValueError(kind)


def _both(kind, **options):
    """(CPU result, GPU result) of the same run.  The CPU's is the NumPy
    path's (``vectorised.py``, equal to the compiled kernels' to ~1e-15 and
    nothing to compile on a fresh GPU machine); benchmarks/weights_harness.py
    compares the GPU with the compiled kernels on the harness's 194
    configurations."""
    X, y, nominal, regression = _data(kind)
    options = dict(options, regression=regression)
    with _quiet():
        cpu = relieff(X, y, nominal, kernels="vectorised", **options)
        gpu = relieff(X, y, nominal, device="cuda", **options)
    return cpu, gpu


@contextmanager
def _quiet():
    """Relief warnings (e.g. small classes) are the same on both devices;
    not tested here."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ReliefWarning)
        yield


def _assert_same(cpu, gpu):
    np.testing.assert_array_equal(np.isnan(cpu.weights), np.isnan(gpu.weights))
    np.testing.assert_allclose(gpu.weights, cpu.weights, rtol=0,
                               atol=TOLERANCE)
    assert (cpu.trace is None) == (gpu.trace is None)
    if cpu.trace is not None:
        np.testing.assert_array_equal(cpu.trace_steps, gpu.trace_steps)
        np.testing.assert_allclose(gpu.trace, cpu.trace, rtol=0,
                                   atol=TOLERANCE)


# every variant x rule on mixed data (numeric and nominal columns)
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("rule", RULES)
def test_every_variant_and_rule(variant, rule):
    _assert_same(*_both("mixed", variant=variant, neighbours=rule))


# every data type, with ReliefF and dReliefF, k and MultiSURF (and SURF*
# where the far instances are defined)
@pytest.mark.parametrize("kind", ["numeric", "ties", "nominal", "missing",
                                  "three_classes", "sparse", "regression",
                                  "regression_missing"])
@pytest.mark.parametrize("variant", ["relieff", "pdrelieff"])
@pytest.mark.parametrize("rule", ["k", "multisurf", "surf*"])
def test_every_data_type(kind, variant, rule):
    if kind.startswith("regression") and rule == "surf*":
        pytest.skip("the starred rules are not defined for a numeric target")
    _assert_same(*_both(kind, variant=variant, neighbours=rule))


@pytest.mark.parametrize("options", [
    dict(weight_by_distance=True, sigma=1.5),
    dict(misses="any", k_nearest=3),
    dict(k_nearest=1),
    dict(k_nearest=12),                         # larger than a class
    dict(n_iterations=11, random_state=5, trace_every=3),
    dict(variant="drelieff", n_iterations=9, trace_every=2),
    dict(distance_weights=np.array([1.0, 0.5, 0.0, 2.0, 1.0])),
    dict(variant="pdrelieff", T=0.7, weight_by_distance=True),
], ids=lambda options: ",".join(options))
def test_options(options):
    _assert_same(*_both("mixed", **options))


@pytest.mark.parametrize("block", [True, False])
@pytest.mark.parametrize("kind,options", [
    ("mixed", dict(k_nearest=3)),
    ("three_classes", dict(k_nearest=2, weight_by_distance=True)),
    ("ties", dict(misses="any")),
    ("regression", dict(k_nearest=4)),
    ("mixed", dict(neighbours="multisurf*")),
    ("three_classes", dict(neighbours="surf*")),
    ("regression", dict(neighbours="multisurf")),
    ("mixed", dict(k_nearest=20)),            # more than KMAX: one thread
], ids=str)
def test_selection_kernels(monkeypatch, block, kind, options):
    """Neighbours chosen by a block of threads a visit and by one thread a
    visit (``cuda.BLOCK_SELECTION``; the simulator's default is one thread,
    a GPU's the block) are the CPU's."""
    monkeypatch.setattr(cuda, "BLOCK_SELECTION", block)
    _assert_same(*_both(kind, n_iterations=6, **options))


@pytest.mark.parametrize("kind,options", [
    ("mixed", {}),
    ("missing", {}),                            # RELIEF-D's diffs
    ("missing", dict(neighbours="multisurf")),
    ("three_classes", dict(neighbours="surf")),
    ("three_classes", dict(misses="any", k_nearest=3)),
], ids=str)
def test_statistics_pair_sums(kind, options):
    """STIR's sums (``pairsums.feature_pair_sums``, ``weight_sums``, the
    functions the CPU calls) on the GPU: the CPU's."""
    cpu, gpu = _both(kind, statistics=True, **options)
    _assert_same(cpu, gpu)
    for key, value in cpu.pair_sums.items():
        np.testing.assert_allclose(gpu.pair_sums[key], value, rtol=0,
                                   atol=TOLERANCE, err_msg=key)


def test_hand_checked_weights():
    """Four instances on a line, k = 1: R's nearest hit and miss are its
    neighbours on the line, so each weight is (sum of miss diffs - sum of
    hit diffs) / 4 (checked by hand: x = 0, 1, 3, 4 with classes 0, 0, 1,
    1 gives hits at 1 and misses at 2, 2, 2, 2, divided by the range 4)."""
    X = np.array([[0.0], [1.0], [3.0], [4.0]])
    y = np.array([0, 0, 1, 1])
    result = relieff(X, y, k_nearest=1, device="cuda")
    hits = [1, 1, 1, 1]
    misses = [3, 2, 2, 3]
    assert result.weights[0] == pytest.approx(
        (sum(misses) - sum(hits)) / 4 / 4, abs=1e-15)


def test_batches_cut_to_memory(monkeypatch):
    """A batch larger than the device memory allows is cut into parts: the
    same weights."""
    whole = _both("mixed")[1]
    monkeypatch.setattr(cuda, "BATCH_DEVICE_BYTES", 1)
    X, y, nominal, _ = _data("mixed")
    parts = relieff(X, y, nominal, device="cuda")
    np.testing.assert_allclose(parts.weights, whole.weights, rtol=0,
                               atol=TOLERANCE)


def test_data_too_large_says_how_much(monkeypatch):
    monkeypatch.setattr(cuda, "_free_memory", lambda _: 1000)
    X, y, nominal, _ = _data("mixed")
    with pytest.raises(MemoryError, match=r"GiB of GPU memory.*device='cpu'"):
        relieff(X, y, nominal, device="cuda")


def test_nothing_to_learn_on_the_gpu():
    X, y, nominal, _ = _data("mixed")
    with pytest.warns(ReliefWarning, match="only one class"):
        result = relieff(X, np.zeros(len(y)), nominal, device="cuda")
    np.testing.assert_array_equal(result.weights, 0.0)


def test_what_it_does_not_cover():
    X, y, nominal, _ = _data("mixed")
    with pytest.raises(ValueError, match="compat='weka'.*device='cpu'"):
        relieff(X, y, nominal, device="cuda", compat="weka")
    with pytest.raises(ValueError, match="I-RELIEF"):
        relieff(X, y, nominal, device="cuda", variant="irelief")
    with pytest.raises(ValueError, match="'cpu', 'cuda' or 'auto'"):
        relieff(X, y, nominal, device="gpu")


def test_without_numba_cuda_says_what_is_missing(monkeypatch):
    monkeypatch.setattr(cuda, "_numba_cuda", lambda: None)
    X, y, nominal, _ = _data("mixed")
    with pytest.raises(RuntimeError, match=r"orange3-relief\[gpu\]"):
        relieff(X, y, nominal, device="cuda")
    assert not cuda.available()
    assert cuda.device_name() is None


def test_auto_without_a_gpu_runs_on_the_cpu_and_says_so_once(monkeypatch):
    monkeypatch.setattr(cuda, "available", lambda: False)
    monkeypatch.setattr(cuda, "unavailable_reason",
                        lambda: "no CUDA GPU was found (test)")
    from orangecontrib.relief.core.backends import selection
    monkeypatch.setattr(selection, "_SAID", set())
    X, y, nominal, _ = _data("mixed")
    with pytest.warns(ReliefWarning, match="runs on the CPU: no CUDA GPU"):
        auto = relieff(X, y, nominal, device="auto", k_nearest=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ReliefWarning)
        relieff(X, y, nominal, device="auto", k_nearest=3)   # said once
    cpu = relieff(X, y, nominal, k_nearest=3)
    np.testing.assert_array_equal(auto.weights, cpu.weights)


def test_auto_takes_the_gpu_where_it_pays(monkeypatch):
    """With a GPU, "auto" takes it for ReliefF runs of AUTO_MIN_TERMS terms
    or more and for dReliefF / pdReliefF in one launch on
    FEEDBACK_AUTO_MIN_TERMS values or more, and keeps small runs and the
    radius rules' feedback runs on the CPU, saying why once."""
    from orangecontrib.relief.core.backends import selection
    monkeypatch.setattr(cuda, "available", lambda: True)
    monkeypatch.setattr(selection, "_SAID", set())
    X, y, nominal, _ = _data("mixed")
    with pytest.warns(ReliefWarning, match="runs this small"):
        small = relieff(X, y, nominal, device="auto", k_nearest=3)
    assert small.device == "cpu"
    monkeypatch.setattr(cuda, "AUTO_MIN_TERMS", 0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ReliefWarning)
        large = relieff(X, y, nominal, device="auto", k_nearest=3)
    assert large.device == "cuda"
    np.testing.assert_allclose(large.weights, small.weights, rtol=0,
                               atol=TOLERANCE)
    with pytest.warns(ReliefWarning, match="fewer than 10\\^7 values"):
        feedback = relieff(X, y, nominal, device="auto", k_nearest=3,
                           variant="drelieff")
    assert feedback.device == "cpu"
    monkeypatch.setattr(cuda, "FEEDBACK_AUTO_MIN_TERMS", 0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ReliefWarning)
        feedback = relieff(X, y, nominal, device="auto", k_nearest=3,
                           variant="drelieff")
    assert feedback.device == "cuda"
    with pytest.warns(ReliefWarning, match="radius rule"):
        radius = relieff(X, y, nominal, device="auto",
                         neighbours="multisurf", variant="pdrelieff")
    assert radius.device == "cpu"


def test_environment_variable_chooses_the_device(monkeypatch):
    monkeypatch.setenv(cuda.DEVICE_VARIABLE, "cuda")
    assert cuda.check_device(None) == "cuda"
    monkeypatch.setenv(cuda.DEVICE_VARIABLE, "")
    assert cuda.check_device(None) == "cpu"


def test_simulator_is_never_auto():
    """``available()`` is False under the simulator, so "auto" never runs
    the (slow) simulator; a real GPU says its name."""
    if cuda.simulated():
        assert not cuda.available()
        assert cuda.device_name() == "CUDA simulator"
    else:
        assert cuda.available()
        assert cuda.device_name()


def test_kernels_call_the_cpu_arithmetic():
    """The GPU's kernels take the contract's arithmetic from the CPU's
    modules (one Python function, compiled for both targets), with no copy
    of their own."""
    from orangecontrib.relief.core.backends.cuda import kernels as cuda_kernels
    from orangecontrib.relief.core.contract import (diffs, distances,
                                                    neighbours, pair_sums,
                                                    updates)
    for module, names in ((diffs, ["numeric_diff", "nominal_diff"]),
                          (neighbours, ["group_of", "group_sign",
                                        "thresholds", "bucket",
                                        "bucket_share"]),
                          (distances, ["diff_sum"]),
                          (updates, ["feature_update", "target_sum"]),
                          (pair_sums, ["feature_pair_sums", "weight_sums"])):
        for name in names:
            device = getattr(cuda_kernels, name)
            source = getattr(device, "py_func", getattr(device, "fn", None))
            assert source.__code__ is getattr(module, name).__code__, name
    # (not inlined on the CPU: the kernels call the register_jitable itself)
    for name in ("tie_shares", "half_width"):
        assert getattr(cuda_kernels, name) is getattr(neighbours, name), name
