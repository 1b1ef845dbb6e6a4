"""ReliefF and RReliefF on a Dask cluster
(``orangecontrib.relief.distributed``): a real LocalCluster of two worker
processes; the weights equal the local engine's on the option grid, survive
killed workers, and a cancelled run leaves nothing on the cluster."""
import json
import logging
import os
import signal
import time
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

distributed = pytest.importorskip("distributed")
da = pytest.importorskip("dask.array")

from Orange.data import ContinuousVariable, Domain, Table  # noqa: E402

from orangecontrib.relief import distributed as cluster_relief  # noqa: E402
from orangecontrib.relief.cli import main  # noqa: E402
from orangecontrib.relief.core import relieff  # noqa: E402
from orangecontrib.relief.core.backends import precompile, warmup  # noqa: E402
from orangecontrib.relief.scoring import (DReliefF, PDReliefF,  # noqa: E402
                                         ReliefF, RReliefF)

TOL = 1e-12


@pytest.fixture(scope="module")
def client():
    # the workers load the kernels from numba's cache: compile them here
    # once instead of in both workers at the same time (first use only)
    for kernel_set in (("relieff", "int8", "float32"),
                       ("relieff", "int8", "float64")):
        if not warmup.is_compiled(kernel_set):
            precompile.compile_set(kernel_set)
    with distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True,
            dashboard_address=":0",
            silence_logs=logging.CRITICAL) as cluster, \
            distributed.Client(cluster) as client:
        yield client


def mixed(n=90, a=7, seed=0, missing=0.0, regression=False):
    """Numeric and nominal features (ties in the nominal ones), a class
    or a numeric target that depends on two of them."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, a))
    X[:, a - 3:] = rng.integers(0, 3, (n, 3))
    nominal = np.arange(a) >= a - 3
    target = X[:, 0] + 0.5 * X[:, a - 1] + 0.1 * rng.random(n)
    y = target if regression else (target > np.median(target)).astype(float)
    if missing:
        X[rng.random(X.shape) < missing] = np.nan
    return X, y, nominal


def same(client, X, y, nominal=None, **options):
    """The cluster's result equals the local engine's."""
    local = relieff(X, y, nominal, **options)
    remote = cluster_relief.relieff(X, y, nominal, client=client,
                                    visits_per_task=12, **options)
    np.testing.assert_allclose(remote.weights, local.weights, rtol=0,
                               atol=TOL)
    assert remote.n_iterations == local.n_iterations
    assert remote.regression == local.regression
    assert remote.n_dropped == local.n_dropped
    if local.trace is not None:
        np.testing.assert_array_equal(remote.trace_steps, local.trace_steps)
        np.testing.assert_allclose(remote.trace, local.trace, rtol=0,
                                   atol=TOL)
    return remote


GRID = {
    "relieff": dict(),
    "relief-e": dict(misses="any"),
    "k=1": dict(k_nearest=1),
    "weight_by_distance": dict(weight_by_distance=True, sigma=1.5),
    "m<n": dict(n_iterations=37, random_state=5),
    "trace": dict(trace_every=10),
    "surf": dict(neighbours="surf"),
    "surf*": dict(neighbours="surf*"),
    "multisurf": dict(neighbours="multisurf"),
    "multisurf*": dict(neighbours="multisurf*"),
}


@pytest.mark.parametrize("options", GRID.values(), ids=GRID.keys())
def test_equals_local_engine_classification(client, options):
    X, y, nominal = mixed()
    same(client, X, y, nominal, **options)


@pytest.mark.parametrize("options", [
    dict(), dict(weight_by_distance=True), dict(n_iterations=40),
    dict(neighbours="multisurf"), dict(trace_every=7)],
    ids=["rrelieff", "weighted", "m<n", "multisurf", "trace"])
def test_equals_local_engine_regression(client, options):
    X, y, nominal = mixed(regression=True)
    same(client, X, y, nominal, regression=True, **options)


def test_equals_local_engine_with_missing_values_and_classes(client):
    X, y, nominal = mixed(missing=0.15)
    y[[3, 8]] = np.nan              # dropped rows, counted
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = same(client, X, y, nominal)
    assert result.n_dropped == 2
    X, y, nominal = mixed(missing=0.1, regression=True, seed=3)
    same(client, X, y, nominal, regression=True, misses="per_class")


def test_equals_local_engine_on_numeric_nominal_and_three_classes(client):
    X, y, nominal = mixed(seed=1)
    y = np.digitize(X[:, 0] + X[:, 5] / 3, [0.5, 1.0]).astype(float)
    same(client, X[:, :4], y)                           # numeric only
    same(client, X[:, 4:], y, np.ones(3, bool))         # nominal only
    same(client, X, y, nominal, misses="any")


def test_equals_local_engine_on_sparse_data(client):
    rng = np.random.default_rng(2)
    dense = rng.random((80, 30)) * (rng.random((80, 30)) < 0.2)
    y = (dense[:, 0] + dense[:, 1] > 0.2).astype(float)
    local = relieff(dense, y)
    remote = same(client, sp.csr_matrix(dense), y)
    np.testing.assert_allclose(remote.weights, local.weights, atol=TOL)
    same(client, sp.csr_matrix(dense), dense[:, 2], regression=True)


def test_dask_array_is_read_by_the_workers(client):
    X, y, nominal = mixed(missing=0.05)
    local = relieff(X, y, nominal)
    remote = cluster_relief.relieff(
        da.from_array(X, chunks=(30, 7)), da.from_array(y, chunks=30),
        nominal, client=client)
    np.testing.assert_allclose(remote.weights, local.weights, atol=TOL)
    # its warnings reach the caller
    y[:20] = 0.0
    y[20:] = 1.0
    with pytest.warns(UserWarning, match="k_nearest=30"):
        cluster_relief.relieff(da.from_array(X, chunks=(30, 7)), y, nominal,
                               k_nearest=30, client=client)


def integer_weights(n, seed=7):
    """Instance weights 0, 1, 2, 3 (each at least once)."""
    weights = np.random.default_rng(seed).integers(0, 4, n).astype(float)
    weights[:4] = [0, 1, 2, 3]
    return weights


def repeated_rows(weights, X, y):
    rows = np.repeat(np.arange(len(y)), weights.astype(int))
    return X[rows], y[rows]


WEIGHTED = {
    "classification": dict(),
    "missing values, trace": dict(missing=0.1, trace_every=9),
    "regression, multisurf": dict(regression=True, neighbours="multisurf"),
    "missing values, m<n": dict(missing=0.1, n_iterations=37,
                                random_state=5),
}


@pytest.mark.parametrize("options", WEIGHTED.values(), ids=WEIGHTED.keys())
def test_instance_weights_equal_the_compiled_run(client, options):
    """The tasks run the compiled weighted visits (``weighted_loop``): the
    local compiled run's weights and trace (the estimate divided by the
    visited weight), and with every instance visited, the repeated
    table's."""
    options = dict(options)
    missing = options.pop("missing", 0.0)
    X, y, nominal = mixed(n=60, missing=missing,
                          regression=options.get("regression", False))
    weights = integer_weights(len(y))
    remote = same(client, X, y, nominal, instance_weights=weights,
                  kernels="compiled", **options)
    if "n_iterations" not in options:
        Xr, yr = repeated_rows(weights, X, y)
        options.pop("trace_every", None)
        np.testing.assert_allclose(
            remote.weights, relieff(Xr, yr, nominal, **options).weights,
            rtol=0, atol=TOL)


@pytest.mark.parametrize("weighted", [False, True])
def test_stir_sums_on_the_cluster(client, weighted):
    """statistics=True: the tasks' update rows carry STIR's pair sums
    beside the weights' (they crashed in a shape mismatch before); the
    cluster's sums are the local run's."""
    X, y, nominal = mixed(n=60)
    weights = integer_weights(len(y)) if weighted else None
    remote = same(client, X, y, nominal, statistics=True,
                  instance_weights=weights)
    local = relieff(X, y, nominal, statistics=True, instance_weights=weights)
    for key, value in local.pair_sums.items():
        np.testing.assert_allclose(remote.pair_sums[key], value, rtol=0,
                                   atol=1e-9)


def test_instance_weights_with_dask_arrays(client):
    """A dask X takes numpy weights or a dask array of them (computed on
    the cluster); a numpy X takes dask weights too; all 1 are no weights."""
    X, y, nominal = mixed(n=60, missing=0.05)
    weights = integer_weights(len(y)) + 0.5
    local = relieff(X, y, nominal, instance_weights=weights).weights
    dask_X = da.from_array(X, chunks=(20, 7))
    dask_weights = da.from_array(weights, chunks=20)
    for data, w in ((dask_X, weights), (dask_X, dask_weights),
                    (X, dask_weights)):
        remote = cluster_relief.relieff(data, y, nominal, client=client,
                                        instance_weights=w)
        np.testing.assert_allclose(remote.weights, local, rtol=0, atol=TOL)
    ones = cluster_relief.relieff(X, y, nominal, client=client,
                                  instance_weights=np.ones(len(y)))
    np.testing.assert_array_equal(
        ones.weights,
        cluster_relief.relieff(X, y, nominal, client=client).weights)
    assert nothing_left(client)


def test_instance_weights_refused_where_not_taken(client):
    """Bad weights are named, here or (dask weights of a dask X) on the
    worker that prepares the data; dReliefF and the GPU's tasks say they
    take none."""
    X, y, nominal = mixed(n=60)
    weights = integer_weights(len(y))
    with pytest.raises(ValueError, match="instance_weights must be >= 0"):
        cluster_relief.relieff(X, y, nominal, client=client,
                               instance_weights=-weights)
    with pytest.raises(ValueError, match="has 59 entries but X has 60"):
        cluster_relief.relieff(da.from_array(X), y, nominal, client=client,
                               instance_weights=da.from_array(weights[1:]))
    with pytest.raises(ValueError, match="dReliefF cannot run on a Dask"):
        cluster_relief.relieff(X, y, nominal, client=client,
                               variant="drelieff", instance_weights=weights)
    with pytest.raises(ValueError, match="GPU's tasks do not take instance"):
        cluster_relief.relieff(X, y, nominal, client=client, device="cuda",
                               instance_weights=weights)
    assert nothing_left(client)


def test_same_bits_every_time_and_whatever_the_blocks(client):
    X, y, nominal = mixed(n=120)
    runs = [cluster_relief.relieff(X, y, nominal, client=client,
                                   visits_per_task=size).weights
            for size in (1, 16, 16, 200, None)]
    np.testing.assert_array_equal(runs[1], runs[2])
    for weights in runs:
        np.testing.assert_allclose(weights, runs[0], atol=TOL)


def test_nothing_to_learn(client):
    X, y, nominal = mixed()
    with pytest.warns(UserWarning, match="only one class"):
        result = cluster_relief.relieff(X, np.zeros(len(y)), nominal,
                                        client=client)
    np.testing.assert_array_equal(result.weights, 0.0)


def test_progress_counts_tasks(client):
    X, y, nominal = mixed()
    seen = []
    cluster_relief.relieff(X, y, nominal, client=client, visits_per_task=20,
                           progress=seen.append)
    assert seen[0] == 0.0 and seen[-1] == 1.0
    assert seen[1:] == [done / 5 for done in range(1, 6)]   # 90 / 20: 5 tasks



def test_a_cluster_run_takes_the_engines_steps(client, monkeypatch):
    """(issue 39) One door: ``distributed.relieff`` runs through
    ``engine.compute``, the steps of every run, with its Dask backend; so a
    run with nothing to learn makes no backend, and the result says where
    the visits ran (``Backend.device``)."""
    from orangecontrib.relief.core import engine
    made, compute = [], engine.compute

    def watched(start_run, progress=None):
        def start():
            setup, make_backend = start_run()

            def make(n_threads):
                made.append(make_backend(n_threads))
                return made[-1]
            return setup, make
        return compute(start, progress)
    monkeypatch.setattr(engine, "compute", watched)
    X, y, nominal = mixed()
    result = cluster_relief.relieff(X, y, nominal, client=client)
    assert [type(backend).__name__ for backend in made] == ["DaskBackend"]
    assert result.device == made[0].device == "cpu"
    np.testing.assert_allclose(result.weights, relieff(X, y, nominal).weights,
                               rtol=0, atol=TOL)
    made.clear()
    with pytest.warns(UserWarning, match="only one class"):
        one_class = cluster_relief.relieff(X, np.zeros_like(y), nominal,
                                           client=client)
        planned_there = cluster_relief.relieff(
            da.from_array(X, chunks=(30, 7)), np.zeros_like(y), nominal,
            client=client)
    assert not made
    np.testing.assert_array_equal(one_class.weights, 0.0)
    np.testing.assert_array_equal(planned_there.weights, 0.0)
    assert nothing_left(client)         # (the job planned there: cancelled)


def test_the_data_goes_to_every_worker_once(client, monkeypatch):
    X, y, nominal = mixed()
    scatter, sent, holders = client.scatter, [], []

    def counted(data, **options):
        sent.append((data, options))
        return scatter(data, **options)
    monkeypatch.setattr(client, "scatter", counted)

    def progress(fraction):
        holders.extend(workers for key, workers in client.who_has().items()
                       if str(key).startswith("ReliefJob"))
    cluster_relief.relieff(X, y, nominal, client=client, visits_per_task=8,
                           progress=progress)
    [(data, options)] = sent                # one scatter, of the job
    assert type(data[0]).__name__ == "ReliefJob" and options["broadcast"]
    assert len(holders) == 12               # one per finished task
    assert all(len(workers) == 2 for workers in holders)


def nothing_left(client, timeout=10.0):
    """Whether the cluster holds no task and no data within ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(client.processing().values()) and not client.who_has():
            return True
        time.sleep(0.05)
    return False


class Cancel(Exception):
    pass


def test_cancel_leaves_nothing_on_the_cluster(client):
    X, y, nominal = mixed(n=400, a=30)

    def progress(fraction):
        if fraction > 0:
            raise Cancel
    with pytest.raises(Cancel):
        cluster_relief.relieff(X, y, nominal, client=client,
                               visits_per_task=4, progress=progress)
    assert nothing_left(client)
    # and a run that finished leaves nothing either
    cluster_relief.relieff(X, y, nominal, client=client)
    cluster_relief.relieff(da.from_array(X, chunks=(100, 30)), y, nominal,
                           client=client)
    assert nothing_left(client)


def test_scorers_take_a_client(client):
    X, y, nominal = mixed()
    domain = Domain([ContinuousVariable(f"x{i}") for i in range(4)],
                    ContinuousVariable("y"))
    table = Table.from_numpy(domain, X[:, :4], X[:, 0] * 2 + X[:, 1])
    local = RReliefF(k_nearest=5).score_table(table)
    for result in (RReliefF(k_nearest=5, client=client).score_table(table),
                   RReliefF(k_nearest=5).score_table(table, client=client)):
        np.testing.assert_allclose(result.weights, local.weights, atol=TOL)
    np.testing.assert_allclose(ReliefF(k_nearest=5, client=client)(table),
                               local.weights,
                               atol=TOL)


def test_command_line_on_a_scheduler(client, tmp_path, capsys):
    X, y, nominal = mixed()
    domain = Domain([ContinuousVariable(f"x{i}") for i in range(4)],
                    ContinuousVariable("y"))
    path = str(tmp_path / "data.tab")
    Table.from_numpy(domain, X[:, :4], y).save(path)
    assert main(["score", path, "--format", "json"]) == 0
    local = json.loads(capsys.readouterr().out)
    assert main(["score", path, "--format", "json", "--scheduler",
                 client.scheduler.address]) == 0
    remote = json.loads(capsys.readouterr().out)
    assert [row["feature"] for row in remote] == \
        [row["feature"] for row in local]
    np.testing.assert_allclose([row["weight"] for row in remote],
                               [row["weight"] for row in local], atol=TOL)
    assert main(["score", path, "--format", "json", "--dask", "local",
                 "--n-jobs", "1"]) == 0
    np.testing.assert_allclose(
        [row["weight"] for row in json.loads(capsys.readouterr().out)],
        [row["weight"] for row in local], atol=TOL)
    assert main(["score", path, "--method", "drelieff", "--scheduler",
                 client.scheduler.address]) == 2
    assert "dReliefF cannot run on a Dask cluster" in capsys.readouterr().err
    assert main(["score", path, "--dask", "local", "--scheduler",
                 client.scheduler.address]) == 2
    assert "give one of them" in capsys.readouterr().err


def test_bad_options_are_refused(client, monkeypatch):
    X, y, nominal = mixed()
    for variant, name in (("drelieff", "dReliefF"),
                          ("pdrelieff", "pdReliefF")):
        with pytest.raises(ValueError, match=f"{name} cannot run on a Dask"):
            cluster_relief.relieff(X, y, nominal, client=client,
                                   variant=variant)
    with pytest.raises(ValueError, match="Weka's order of operations"):
        cluster_relief.relieff(X, y, nominal, client=client, compat="weka")
    with pytest.raises(ValueError, match="dReliefF cannot run"):
        DReliefF(client=client)
    with pytest.raises(ValueError, match="pdReliefF cannot run"):
        PDReliefF(client=client)
    with pytest.raises(ValueError, match="Weka's order"):
        ReliefF(compat="weka", client=client)
    with pytest.raises(ValueError, match="visits_per_task"):
        cluster_relief.relieff(X, y, client=client, visits_per_task=0)
    with pytest.raises(ValueError, match="k_nearest"):
        cluster_relief.relieff(X, y, client=client, k_nearest=0)
    with pytest.raises(ValueError, match="k_nearest"):      # on a worker
        cluster_relief.relieff(da.from_array(X), y, client=client,
                               k_nearest=0)
    with pytest.raises(ValueError, match="rows but y has"):
        cluster_relief.relieff(da.from_array(X), da.from_array(y[:-1]),
                               client=client)

    def no_client():
        raise ValueError("No clients found")
    monkeypatch.setattr(distributed, "get_client", no_client)
    with pytest.raises(ValueError, match="No Dask client: pass client="):
        cluster_relief.relieff(X, y)
    assert nothing_left(client)


def test_a_killed_worker_still_gives_the_exact_result(client):
    """(near the end: the cluster has a restarted worker afterwards)"""
    X, y, nominal = mixed(n=400, a=30, missing=0.02)
    local = relieff(X, y, nominal)
    pids = client.run(os.getpid)
    victim = sorted(pids)[0]
    killed = []

    def progress(fraction):
        if fraction > 0 and not killed:
            # the tasks it was computing are lost with it
            killed.append(client.processing([victim])[victim])
            os.kill(pids[victim], signal.SIGKILL)
    remote = cluster_relief.relieff(X, y, nominal, client=client,
                                    visits_per_task=4, progress=progress)
    assert killed and killed[0]
    assert victim not in client.scheduler_info()["workers"]
    np.testing.assert_allclose(remote.weights, local.weights, atol=TOL)
    assert nothing_left(client)


def test_a_dask_arrays_job_is_recomputed_when_every_copy_is_lost(client):
    """(last: both workers are restarted) The job prepared from a dask
    array is a task result: with every worker holding it killed, the
    scheduler computes it again from the chunks."""
    client.wait_for_workers(2, timeout=60)
    X, y, nominal = mixed(n=400, a=30)
    local = relieff(X, y, nominal)
    pids = client.run(os.getpid)
    killed = []

    def progress(fraction):
        if fraction > 0 and not killed:
            killed.extend({worker for key, workers in client.who_has().items()
                           if "_job" in str(key) for worker in workers})
            for worker in killed:
                os.kill(pids[worker], signal.SIGKILL)
    remote = cluster_relief.relieff(
        da.from_array(X, chunks=(100, 30)), y, nominal, client=client,
        visits_per_task=4, progress=progress)
    assert killed
    np.testing.assert_allclose(remote.weights, local.weights, atol=TOL)
    assert nothing_left(client)


def _worker_has_gpu_backend():
    from orangecontrib.relief import distributed as on_worker
    return on_worker._WORKER_GPU[1] is not None


def test_the_workers_run_on_their_gpus(client):
    """device="cuda" runs each task on its worker's GPU (here numba's CUDA
    simulator, which the workers inherit from the tests' environment): the
    same weights as one machine's CPU, in memory and from dask arrays;
    "auto" runs on the CPUs of workers without a GPU (the simulator is not
    one); a bad value is a ValueError."""
    pytest.importorskip("numba.cuda")
    from orangecontrib.relief.core.backends.cuda import backend as cuda
    if cuda.unavailable_reason() is not None:
        pytest.skip(cuda.unavailable_reason())
    import dask.array as da
    from orangecontrib.relief import ReliefWarning
    X, y, nominal = mixed(n=24)
    expected = relieff(X, y, nominal, k_nearest=3).weights
    for data in ((X, y), (da.from_array(X, chunks=(10, 7)),
                          da.from_array(y, chunks=10))):
        result = cluster_relief.relieff(*data, nominal, client=client,
                                        device="cuda", k_nearest=3,
                                        visits_per_task=8)
        assert result.device == "cuda"
        np.testing.assert_allclose(result.weights, expected, rtol=0,
                                   atol=TOL)
        assert any(client.run(_worker_has_gpu_backend).values())
    scored = ReliefF(device="cuda", client=client, k_nearest=3)
    assert scored.device == "cuda"
    with warnings.catch_warnings():
        warnings.simplefilter("error", ReliefWarning)
        np.testing.assert_allclose(
            cluster_relief.relieff(X, y, nominal, client=client,
                                   device="auto", k_nearest=3).weights,
            expected, rtol=0, atol=TOL)
    with pytest.raises(ValueError, match="'cpu', 'cuda' or 'auto'"):
        cluster_relief.relieff(X, y, nominal, client=client, device="gpu")
    assert nothing_left(client)


def test_losing_every_worker_is_a_clear_error(client):
    """(issue 38, item 12; last: both workers are restarted) With every
    worker killed mid-run the scattered data is gone and the remaining
    tasks are cancelled: a RuntimeError that says the cluster lost its
    workers, not an AttributeError from a cancelled task's result."""
    client.wait_for_workers(2, timeout=60)
    X, y, nominal = mixed(n=400, a=30)
    pids = client.run(os.getpid)
    killed = []

    def progress(fraction):
        if fraction > 0 and not killed:
            killed.extend(pids)
            for worker in killed:
                os.kill(pids[worker], signal.SIGKILL)
    with pytest.raises(RuntimeError, match="cluster lost its workers"):
        cluster_relief.relieff(X, y, nominal, client=client,
                               visits_per_task=4, progress=progress)
    assert killed
    client.wait_for_workers(2, timeout=60)
    assert nothing_left(client)
