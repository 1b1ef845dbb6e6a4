#!/usr/bin/env python
"""Benchmark orange3-relief's ReliefF / dReliefF / pdReliefF against its peers.

One command::

    python benchmarks/bench_relieff.py [--sizes SPEC ...] [--quick] [--out benchmarks/RESULTS.md]

generates every data set from a fixed seed, writes it once to a temporary
directory, and for each data set runs each method in its own subprocess on the
same arrays:

* the measured L1 limit: a tiled numba kernel that sums all n² range-normalised
  |x_i − x_j| distances (float64 and float32), no neighbour search;
* ours: ``orangecontrib.relief.core.relieff`` with variant "relieff",
  "drelieff" and "pdrelieff" (k_nearest=10, every instance visited);
* Orange's built-in Cython ReliefF, made to visit every row once;
* skrebate's ReliefF (n_neighbors=10) with n_jobs=1 and n_jobs=2;
* fast-select's ReliefF (n_neighbors=10, CPU backend, all threads) if installed.

It prints markdown tables (times, peak RSS, ratios, agreement of the weights,
first-call/compile times, the memory check and the fitted scaling exponents)
and, with ``--out``, writes them with a description of the machine.

See ``benchmarks/README.md`` for what each column means.
"""
import argparse
import datetime
import importlib.util
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np

# the compiled kernels, never the first-use vectorised path (core/backends/warmup.py)
os.environ.setdefault("ORANGE3_RELIEF_KERNELS", "compiled")
os.environ.setdefault("ORANGE3_RELIEF_WARMUP", "0")

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

K_NEAREST = 10
SEED = 20240611
SKIP_SECONDS = 300.0            # a peer estimated to take longer than this per fit is skipped
CALIBRATION_TERMS = 2e8         # n'^2 * a of the sub-sample used when there is nothing to scale from
GAMETES_FILE = "/work/shared/data/GAMETES_Epistasis_2-Way_1000atts_0.4H_EDM-1_EDM-1_1.tsv"
DEFAULT_ENGINE = "orangecontrib.relief.core:relieff"

FULL_SIZES = ["cont:500x50", "cont:2000x100", "cont:5000x200", "cont:10000x500",
              "cont:2000x5000", "gametes:1600x1000", "mixed:5000x200",
              "sparse:5000x20000", "cont:200000x20"]
QUICK_SIZES = ["cont:300x20", "gametes:200x50", "mixed:300x20", "sparse:300x2000",
               "cont:3000x5"]
# (m, n, a) points for the scaling fit: from a base point, three values of each of m (visited
# instances), n and a with the other two fixed; sizes where the distance terms dominate
FULL_SCALING = [(2000, 8000, 400), (1000, 8000, 400), (4000, 8000, 400), (2000, 4000, 400),
                (2000, 16000, 400), (2000, 8000, 200), (2000, 8000, 800)]
QUICK_SCALING = [(100, 400, 40), (50, 400, 40), (200, 400, 40), (100, 200, 40), (100, 800, 40),
                 (100, 400, 20), (100, 400, 80)]

OURS = ["ours ReliefF", "ours dReliefF", "ours pdReliefF"]
OURS_VARIANT = {"ours ReliefF": "relieff", "ours dReliefF": "drelieff",
                "ours pdReliefF": "pdrelieff", "ours ReliefF f32": "relieff"}
PEERS = ["Orange", "skrebate j1", "skrebate j2", "fast-select"]
L1 = ["L1 f64", "L1 f32"]
JIT_METHODS = {"ours ReliefF", "ours dReliefF", "ours pdReliefF", "ours ReliefF f32",
               "fast-select", "L1 f64", "L1 f32"}
SPARSE_OK = {"ours ReliefF", "ours dReliefF", "ours pdReliefF", "ours ReliefF f32"}


# ----------------------------------------------------------------------------------------
# Data
# ----------------------------------------------------------------------------------------

def parse_spec(spec):
    """'kind:NxA' or 'NxA' (continuous) or 'gametes' -> (kind, n, a)."""
    kind, _, shape = spec.rpartition(":")
    if not kind and shape in ("gametes", "mixed", "sparse"):
        kind, shape = shape, {"gametes": "1600x1000", "mixed": "5000x200",
                              "sparse": "5000x20000"}[shape]
    kind = kind or "cont"
    if kind not in ("cont", "gametes", "mixed", "sparse"):
        raise ValueError(f"unknown data kind {kind!r} in {spec!r}; "
                         "use cont:, gametes:, mixed: or sparse:")
    try:
        n, a = (int(v) for v in shape.lower().split("x"))
    except ValueError:
        raise ValueError(f"cannot read the shape in {spec!r}; write it as NxA, e.g. 2000x100")
    return kind, n, a


def noisy_rule(rng, score, threshold):
    """Binary class: score > threshold, flipped with probability 0.1."""
    return ((score > threshold) ^ (rng.random(score.shape[0]) < 0.1)).astype(np.float64)


def make_dataset(spec, seed, gametes_file):
    """Generate (or load) one data set. Returns a dict with X, y, nominal, source."""
    kind, n, a = parse_spec(spec)
    rng = np.random.default_rng([seed, n, a, ["cont", "gametes", "mixed", "sparse"].index(kind)])
    if kind == "cont":
        X = rng.random((n, a))
        y = noisy_rule(rng, X[:, 0] + X[:, 1], 1.0)
        nominal = np.zeros(a, bool)
        source = "generated: uniform [0,1); y = (x0 + x1 > 1) xor Bernoulli(0.1)"
    elif kind == "gametes":
        X = None
        if gametes_file and os.path.exists(gametes_file):
            table = np.loadtxt(gametes_file, delimiter="\t", skiprows=1)
            if table.shape == (n, a + 1):
                X, y = np.ascontiguousarray(table[:, :-1]), table[:, -1].copy()
                source = f"file {os.path.basename(gametes_file)}"
        if X is None:
            X = rng.choice(3, size=(n, a), p=[0.25, 0.5, 0.25]).astype(np.float64)
            y = noisy_rule(rng, (X[:, 0] + X[:, 1]) % 2, 0.5)
            why = "no file" if not (gametes_file and os.path.exists(gametes_file)) \
                else "file has another shape"
            source = (f"generated SNPs 0/1/2 (p = .25/.5/.25), y = (x0 + x1) mod 2 "
                      f"xor Bernoulli(0.1) ({why})")
        nominal = np.ones(a, bool)
    elif kind == "mixed":
        n_nominal = a // 2
        X = rng.random((n, a))
        n_values = rng.integers(3, 6, size=n_nominal)
        X[:, :n_nominal] = np.floor(X[:, :n_nominal] * n_values).astype(np.float64)
        y = noisy_rule(rng, X[:, 0] / (n_values[0] - 1) + X[:, n_nominal], 1.0)
        nominal = np.zeros(a, bool)
        nominal[:n_nominal] = True
        source = ("generated: first half nominal with 3-5 values, second half uniform; "
                  "y = (x0/(v0-1) + x_{a/2} > 1) xor Bernoulli(0.1)")
    else:
        import scipy.sparse as sp
        X = sp.random(n, a, density=0.01, format="csr", dtype=np.float64,
                      random_state=rng, data_rvs=rng.random).tolil()
        # two informative columns, dense enough for a balanced rule
        for col in (0, 1):
            values = rng.random(n) * (rng.random(n) < 0.5)
            X[:, col] = values.reshape(-1, 1)
        X = X.tocsr()
        X.eliminate_zeros()
        x01 = X[:, :2].toarray()
        y = noisy_rule(rng, x01[:, 0] + x01[:, 1], 0.5)
        nominal = np.zeros(a, bool)
        source = (f"generated CSR, {X.nnz / (n * a):.2%} non-zero; columns 0,1 half-dense; "
                  "y = (x0 + x1 > 0.5) xor Bernoulli(0.1)")
    return dict(spec=spec, kind=kind, n=n, a=a, X=X, y=y, nominal=nominal, source=source)


def input_bytes(X):
    if hasattr(X, "nnz"):
        return X.data.nbytes + X.indices.nbytes + X.indptr.nbytes
    return X.nbytes


def save_dataset(ds, path):
    if ds["kind"] == "sparse":
        X = ds["X"]
        np.savez(path, data=X.data, indices=X.indices, indptr=X.indptr,
                 shape=np.array(X.shape), y=ds["y"], nominal=ds["nominal"], sparse=True)
    else:
        np.savez(path, X=ds["X"], y=ds["y"], nominal=ds["nominal"], sparse=False)


def load_dataset(path, rows=None):
    with np.load(path) as f:
        y, nominal = f["y"], f["nominal"]
        if bool(f["sparse"]):
            import scipy.sparse as sp
            X = sp.csr_matrix((f["data"], f["indices"], f["indptr"]), shape=tuple(f["shape"]))
        else:
            X = f["X"]
    if rows is not None and rows < X.shape[0]:
        X, y = X[:rows], y[:rows]
        if not hasattr(X, "nnz"):
            X = np.ascontiguousarray(X)
    return X, y, nominal


# ----------------------------------------------------------------------------------------
# The L1 limit: all n² range-normalised |x_i - x_j| sums, tiled, no neighbour search
# ----------------------------------------------------------------------------------------

def l1_kernel():
    """The L1-limit kernel (compiled, or loaded from numba's cache); see _l1_kernel.py."""
    if HERE not in sys.path:
        sys.path.insert(0, HERE)
    from _l1_kernel import l1_all_pairs
    return l1_all_pairs


def l1_blocks(n, a, itemsize):
    from _l1_kernel import blocks
    return blocks(n, a, itemsize)


def l1_candidates():
    """{name: (kernel, blocks(n, a, itemsize))} of the L1-limit kernels; see _l1_kernel.py."""
    l1_kernel()
    from _l1_kernel import CANDIDATES
    return CANDIDATES


def l1_pick_fastest(Z, zero):
    """(name, kernel, row_block, col_block, {name: seconds}) of the fastest L1 kernel on Z."""
    l1_kernel()
    from _l1_kernel import pick_fastest
    return pick_fastest(Z, zero)


def range_normalise(X, dtype):
    X = np.asarray(X, dtype=np.float64)
    lo, hi = np.nanmin(X, axis=0), np.nanmax(X, axis=0)
    span = hi - lo
    span[span == 0] = 1.0
    return np.ascontiguousarray(np.nan_to_num((X - lo) / span), dtype=dtype)


# ----------------------------------------------------------------------------------------
# Runners (executed in the child process)
# ----------------------------------------------------------------------------------------

class VisitEveryRow(np.random.RandomState):
    """A RandomState for Orange's Cython ReliefF whose randint returns 0, 1, ..., n-1.

    ``Orange.preprocess._relieff.relieff(X, y, n_iter, k, is_discrete, rstate)`` checks
    ``isinstance(rstate, np.random.RandomState)`` and draws the rows to visit with a
    single call ``rstate.randint(n, size=n_iter, dtype=np.intp)``; answering it with
    ``arange`` makes it visit every row exactly once, in order.
    """

    def __init__(self):
        super().__init__(0)
        self.calls = []

    def randint(self, low, high=None, size=None, dtype=int):
        self.calls.append((low, high, size))
        if high is None:
            low, high = 0, low
        count = (high - low) if size is None else int(np.prod(size))
        if count != high - low:
            raise RuntimeError(f"Orange asked for {count} rows out of {high - low}; "
                               "the visit-every-row hack needs n_iter == n")
        return np.arange(low, high, dtype=dtype).reshape(size if size is not None else ())


def import_engine(spec):
    module_name, _, attr = spec.partition(":")
    if REPO not in sys.path:
        sys.path.insert(0, REPO)
    module = __import__(module_name, fromlist=[attr or "relieff"])
    return getattr(module, attr or "relieff")


def make_runner(method, X, y, nominal, engine_spec):
    """Return (fit, info): fit() runs the method once and returns its weights (or a checksum)."""
    sparse = hasattr(X, "nnz")
    if sparse and method not in SPARSE_OK and method not in L1:
        raise NotApplicable("dense input only")
    n, a = X.shape
    if method in OURS_VARIANT:
        relieff = import_engine(engine_spec)
        variant = OURS_VARIANT[method]

        extra = {"dtype": np.float32} if method.endswith("f32") else {}

        def fit():
            res = relieff(X, y, nominal, variant=variant, k_nearest=K_NEAREST,
                          random_state=0, **extra)
            return np.asarray(getattr(res, "weights", res), dtype=np.float64)
        return fit, {}
    if method == "Orange":
        from Orange.preprocess._relieff import relieff as orange_relieff
        is_discrete = np.asarray(nominal, bool)
        y64 = np.asarray(y, np.float64)

        def fit():
            state = VisitEveryRow()
            w = np.asarray(orange_relieff(X, y64, n, K_NEAREST, is_discrete, state))
            assert len(state.calls) == 1, state.calls
            return w
        return fit, {}
    if method.startswith("skrebate"):
        from skrebate import ReliefF as SkReliefF
        matrix_gb = n * n * 8 / 1e9
        available = available_memory_bytes()
        if available and n * n * 8 > 0.6 * available:
            raise NotApplicable(f"skipped (n×n distance matrix {matrix_gb:.0f} GB)")
        jobs = 2 if method.endswith("j2") else 1
        categorical = [int(i) for i in np.flatnonzero(nominal)]

        def fit():
            model = SkReliefF(n_features_to_select=min(10, a), n_neighbors=K_NEAREST,
                              n_jobs=jobs, categorical_features=categorical)
            model.fit(X, y)
            return np.asarray(model.feature_importances_, np.float64)
        return fit, {"processes": jobs}
    if method == "fast-select":
        from fast_select import ReliefF as FsReliefF

        def fit():
            model = FsReliefF(n_features_to_select=min(10, a), n_neighbors=K_NEAREST,
                              backend="cpu", n_jobs=-1)
            model.fit(X, y)
            return np.asarray(model.feature_importances_, np.float64)
        return fit, {}
    if method in L1:
        if sparse:
            raise NotApplicable("dense-equivalent, estimated from the measured rate")
        dtype = np.float32 if method == "L1 f32" else np.float64
        Z = range_normalise(X, dtype)
        zero = dtype(0)
        # the limit is the best measured rate: time every candidate kernel on this data
        # (on its first rows when large) and keep the fastest
        name, kernel, row_block, col_block, trial = l1_pick_fastest(Z, zero)

        def fit():
            return np.array([kernel(Z, zero, row_block, col_block)])
        return fit, {"kernel": name, "blocks": [row_block, col_block],
                     "kernel_trial_s": trial}
    raise ValueError(f"unknown method {method!r}")


class NotApplicable(Exception):
    pass


def available_memory_bytes():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def proc_status_kb(field):
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


class TreeRssSampler(threading.Thread):
    """Peak of the summed RSS of this process and its descendants, sampled every 50 ms
    (for peers that fork workers, e.g. skrebate with n_jobs=2)."""

    def __init__(self):
        super().__init__(daemon=True)
        self.peak = 0
        self.stop = threading.Event()

    def run(self):
        try:
            import psutil
        except ImportError:
            return
        me = psutil.Process()
        while not self.stop.wait(0.05):
            try:
                total = me.memory_info().rss
                for child in me.children(recursive=True):
                    try:
                        total += child.memory_info().rss
                    except psutil.Error:
                        pass
                self.peak = max(self.peak, total)
            except psutil.Error:
                pass


def child_main(args):
    """Run one method on one data set; print one JSON line prefixed with RESULT:."""
    out = {"method": args.method}
    t0 = time.perf_counter()
    X, y, nominal = load_dataset(args.data, args.rows)
    out["load_s"] = time.perf_counter() - t0
    sampler = None
    try:
        t0 = time.perf_counter()
        fit, info = make_runner(args.method, X, y, nominal, args.engine)
        out["setup_s"] = time.perf_counter() - t0
        out.update(info)
        if info.get("processes", 1) > 1:
            sampler = TreeRssSampler()
            sampler.start()
        out["rss_before_fit_mb"] = (proc_status_kb("VmRSS") or 0) / 1024
        weights = None
        if args.method in JIT_METHODS:
            t0 = time.perf_counter()
            weights = fit()
            out["first_s"] = time.perf_counter() - t0
        times = []
        for _ in range(args.reps):
            t0 = time.perf_counter()
            weights = fit()
            times.append(time.perf_counter() - t0)
            if args.single_run_above and times[-1] > args.single_run_above:
                break
        out["times"] = times
        if weights is not None and args.weights_out:
            np.save(args.weights_out, weights)
        if weights is not None and args.method in L1:
            out["checksum"] = float(weights[0])
    except NotApplicable as exc:
        out["na"] = str(exc)
    except Exception as exc:  # report, do not crash the whole benchmark
        out["error"] = f"{type(exc).__name__}: {exc}"[:300]
    finally:
        if sampler is not None:
            sampler.stop.set()
            sampler.join()
    hwm = proc_status_kb("VmHWM")
    if hwm is None:
        import resource
        hwm = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    out["peak_rss_mb"] = hwm / 1024
    if sampler is not None and sampler.peak:
        out["tree_peak_rss_mb"] = sampler.peak / 2 ** 20
        out["peak_rss_mb"] = max(out["peak_rss_mb"], out["tree_peak_rss_mb"])
    print("RESULT:" + json.dumps(out), flush=True)


def scaling_child_main(args):
    """Time ours ReliefF on the scaling points, in one process (kernels compiled once)."""
    relieff = import_engine(args.engine)
    points = json.loads(args.points)
    results = []
    for m, n, a in points:
        ds = make_dataset(f"cont:{n}x{a}", args.seed, None)
        X, y, nominal = ds["X"], ds["y"], ds["nominal"]
        options = dict(k_nearest=K_NEAREST, random_state=0, n_iterations=m)
        relieff(X, y, nominal, **options)   # warm-up
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            relieff(X, y, nominal, **options)
            times.append(time.perf_counter() - t0)
        results.append({"m": m, "n": n, "a": a, "time": statistics.median(times)})
    print("RESULT:" + json.dumps(results), flush=True)


# ----------------------------------------------------------------------------------------
# Parent: orchestration
# ----------------------------------------------------------------------------------------

def run_child(cmd_args, timeout, env=None):
    cmd = [sys.executable, os.path.abspath(__file__)] + cmd_args
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              env=env, cwd=REPO)
    except subprocess.TimeoutExpired:
        return {"error": f"timeout after {timeout:.0f} s"}
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith("RESULT:"):
            return json.loads(line[len("RESULT:"):])
    tail = (proc.stderr.strip().splitlines() or ["(no output)"])[-1]
    return {"error": f"exit {proc.returncode}: {tail}"[:300]}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def median_time(result):
    times = result.get("times") or []
    return statistics.median(times) if times else None


class Benchmark:
    def __init__(self, args):
        self.args = args
        self.tmp = tempfile.mkdtemp(prefix="bench_relieff_")
        self.results = {}          # (spec, method) -> result dict
        self.measured = {}         # method -> list of (n, a, seconds per fit)
        self.datasets = []
        self.n_runs = 0

    # -- estimates and the skip rule -------------------------------------------------
    def estimate(self, method, n, a, path):
        """Seconds per fit, scaled as n²·a from this method's nearest smaller measurement,
        or from a sub-sample of this data set when there is nothing to scale from."""
        points = self.measured.get(method, [])
        cost = n * n * a
        if points:
            # among the smaller measured sizes, the one with the nearest n (then the largest):
            # per-row overheads scale with n², so a similar n makes the n²·a scaling fairer
            below = [p for p in points if p[0] ** 2 * p[1] <= cost] or points
            n0, a0, t0 = min(below, key=lambda p: (abs(math.log(n / p[0])), -p[0] ** 2 * p[1]))
            return t0 * cost / (n0 * n0 * a0), f"from {n0}×{a0}"
        rows = int(math.sqrt(CALIBRATION_TERMS / a))
        if rows >= n:
            return None, None
        rows = max(rows, 4 * K_NEAREST)
        res = run_child(["--child", "--method", method, "--data", path, "--rows", str(rows),
                         "--reps", "1", "--engine", self.args.engine], self.args.timeout)
        t = median_time(res)
        if t is None:
            return None, None
        return t * cost / (rows * rows * a), f"from a {rows}-row sub-sample"

    def record(self, method, n, a, res):
        t = median_time(res)
        if t is not None:
            self.measured.setdefault(method, []).append((n, a, t))

    # -- one method on one data set ----------------------------------------------------
    def run_method(self, ds, method, path, env=None, reps=None, tag=None):
        args = self.args
        self.n_runs += 1
        wpath = os.path.join(self.tmp, f"weights_{self.n_runs}.npy")
        cmd = ["--child", "--method", method, "--data", path, "--reps",
               str(args.reps if reps is None else reps),
               "--single-run-above", str(args.single_run_above),
               "--weights-out", wpath, "--engine", args.engine]
        t0 = time.time()
        res = run_child(cmd, args.timeout, env=env)
        res["wall_s"] = time.time() - t0
        if os.path.exists(wpath):
            res["weights_path"] = wpath
        self.results[(ds["spec"], tag or method)] = res
        status = res.get("error") or res.get("na") or \
            (f"first call {fmt_time(res.get('first_s'))}, " if "first_s" in res else "") + \
            f"median {fmt_time(median_time(res))}, peak {res.get('peak_rss_mb', 0):.0f} MB"
        log(f"  {tag or method:<16} {status}  [{res['wall_s']:.1f} s wall]")
        return res

    def run_dataset(self, ds, path):
        args = self.args
        n, a = ds["n"], ds["a"]
        sparse = ds["kind"] == "sparse"
        log(f"{ds['spec']}  ({input_bytes(ds['X']) / 2**20:.1f} MB input; {ds['source']})")
        methods = list(L1) + list(OURS) + (["ours ReliefF f32"] if args.f32 else []) + PEERS
        if args.methods:
            methods = [m for m in methods if m in args.methods]
        for method in methods:
            if method in L1 and sparse:
                self.results[(ds["spec"], method)] = {"na": "dense-equivalent estimate"}
                continue
            if method in L1 and n * n * a > args.l1_max_terms:
                rows = int(math.sqrt(args.l1_max_terms / a))
                sub_path = os.path.join(self.tmp, f"l1sub_{n}x{a}.npz")
                if not os.path.exists(sub_path):
                    save_dataset(dict(ds, X=ds["X"][:rows], y=ds["y"][:rows]), sub_path)
                res = self.run_method(ds, method, sub_path)
                res["l1_rows"] = rows
                continue
            if method in OURS_VARIANT and self.ours_missing:
                self.results[(ds["spec"], method)] = {"error": self.ours_missing}
                continue
            if method == "fast-select" and not self.has_fast_select:
                self.results[(ds["spec"], method)] = {"na": "not installed"}
                continue
            if sparse and method not in SPARSE_OK:
                self.results[(ds["spec"], method)] = {"na": "n/a (dense only)"}
                continue
            if method in PEERS or (method in OURS_VARIANT and self.measured.get(method)):
                limit = args.skip_seconds if method in PEERS else args.skip_seconds_ours
                est, how = self.estimate(method, n, a, path)
                if est is not None and est > limit:
                    self.results[(ds["spec"], method)] = {
                        "skipped": f"skipped (>{limit:.0f} s est.: {est:.0f} s {how})"}
                    log(f"  {method:<16} skipped: estimated {est:.0f} s per fit ({how})")
                    continue
            res = self.run_method(ds, method, path)
            self.record(method, n, a, res)

    def run(self):
        args = self.args
        self.check_tools()
        specs = args.sizes or (QUICK_SIZES if args.quick else FULL_SIZES)
        for spec in specs:
            parse_spec(spec)   # fail early on a bad spec
        # cheapest first, so that the skip rule can scale from measured sizes
        order = sorted(specs, key=lambda s: (lambda k, n, a: n * n * a)(*parse_spec(s)))
        started = time.time()
        self.load_start = os.getloadavg()
        for spec in order:
            ds = make_dataset(spec, args.seed, args.gametes)
            path = os.path.join(self.tmp, f"data_{len(self.datasets)}.npz")
            save_dataset(ds, path)
            ds["input_mb"] = input_bytes(ds["X"]) / 2 ** 20
            ds["path"] = path
            self.run_dataset(ds, path)
            del ds["X"]
            self.datasets.append(ds)
        self.datasets.sort(key=lambda d: specs.index(d["spec"]))
        self.measure_cold_compile(specs)
        self.scaling = self.run_scaling()
        self.load_end = os.getloadavg()
        self.total_s = time.time() - started
        report = self.report()
        print(report)
        if args.out:
            with open(args.out, "w") as f:
                f.write(report + "\n")
            log(f"wrote {args.out}")
        if not args.keep:
            shutil.rmtree(self.tmp, ignore_errors=True)

    def check_tools(self):
        self.has_fast_select = importlib.util.find_spec("fast_select") is not None
        probe = subprocess.run(
            [sys.executable, "-c",
             f"import sys; sys.path.insert(0, {REPO!r}); "
             f"from {self.args.engine.split(':')[0]} import "
             f"{self.args.engine.partition(':')[2] or 'relieff'}"],
            capture_output=True, text=True, cwd=REPO)
        self.ours_missing = None
        if probe.returncode != 0:
            tail = (probe.stderr.strip().splitlines() or ["?"])[-1]
            self.ours_missing = f"engine not importable ({tail})"
            log(f"WARNING: {self.args.engine}: {self.ours_missing}; our columns will say so")

    def measure_cold_compile(self, specs):
        """First call of ours ReliefF in a fresh process with an empty numba cache."""
        self.cold = None
        if self.ours_missing or self.args.no_cold:
            return
        target = "cont:2000x100" if "cont:2000x100" in specs else next(
            (s for s in specs if parse_spec(s)[0] == "cont"), None)
        if target is None:
            return
        ds = next(d for d in self.datasets if d["spec"] == target)
        cache = tempfile.mkdtemp(prefix="numba_cold_", dir=self.tmp)
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        log("cold numba cache:")
        res = self.run_method(ds, "ours ReliefF", ds["path"], env=env, reps=0,
                              tag="ours ReliefF (cold cache)")
        self.cold = (target, res)

    def run_scaling(self):
        if self.ours_missing or self.args.no_scaling:
            return None
        points = QUICK_SCALING if self.args.quick else FULL_SCALING
        log(f"scaling: ours ReliefF on {points}")
        res = run_child(["--scaling-child", "--points", json.dumps(points),
                         "--engine", self.args.engine, "--seed", str(self.args.seed)],
                        self.args.timeout)
        if isinstance(res, dict):
            return {"error": res.get("error", "?")}
        logs = np.array([[1.0, math.log(r["m"]), math.log(r["n"]), math.log(r["a"])]
                         for r in res])
        coef, *_ = np.linalg.lstsq(logs, np.log([r["time"] for r in res]), rcond=None)
        return {"points": res, "m": coef[1], "n": coef[2], "a": coef[3]}

    # -- report ----------------------------------------------------------------------
    def best_l1_rate(self, method):
        rates = [rate for ds in self.datasets
                 if (rate := self.l1_rate(ds, method)) is not None]
        return max(rates) if rates else None

    def l1_rate(self, ds, method):
        res = self.results.get((ds["spec"], method), {})
        t = median_time(res)
        if t is None:
            return None
        rows = res.get("l1_rows", ds["n"])
        return rows * rows * ds["a"] / t

    def l1_time(self, ds, method):
        """(seconds for all n² pairs of this data set, note)."""
        rate = self.l1_rate(ds, method)
        if rate is not None:
            note = "" if "l1_rows" not in self.results[(ds["spec"], method)] else \
                f" (rate on {self.results[(ds['spec'], method)]['l1_rows']} rows)"
            return ds["n"] ** 2 * ds["a"] / rate, note
        best = self.best_l1_rate(method)
        if best is None:
            return None, ""
        return ds["n"] ** 2 * ds["a"] / best, " (est. from best rate)"

    def cell_time(self, ds, method):
        res = self.results.get((ds["spec"], method))
        if res is None:
            return "—"
        if "skipped" in res:
            return res["skipped"]
        if "na" in res:
            return res["na"] if res["na"].startswith(("n/a", "skipped")) else f"n/a ({res['na']})"
        if "error" in res:
            return f"error: {res['error']}"
        t = median_time(res)
        if t is None:
            return "—"
        single = "†" if len(res.get("times", [])) == 1 else ""
        return fmt_time(t) + single

    def ours_time(self, ds):
        return median_time(self.results.get((ds["spec"], "ours ReliefF"), {}))

    def report(self):
        a = self.args
        lines = []
        import shlex
        cmd = "python benchmarks/bench_relieff.py " + shlex.join(sys.argv[1:])
        lines += ["# ReliefF benchmark", "",
                  f"Command: `{cmd.strip()}`", "",
                  "Machine: " + machine_description(), "",
                  f"Load average at start {fmt_load(self.load_start)}, at end "
                  f"{fmt_load(self.load_end)}; total wall time {self.total_s:.0f} s.", "",
                  f"k = {K_NEAREST}, every instance visited (m = n), binary class, seed {a.seed}. "
                  "Times are medians of up to 3 fits, each method in its own subprocess; "
                  "numba-based methods after one untimed-in-median first call. "
                  f"† = a single fit (the first took > {a.single_run_above:.0f} s). "
                  "Peak RSS = the subprocess's VmHWM (whole process: interpreter, libraries, "
                  "data, fit), nothing subtracted.", ""]
        if self.ours_missing:
            lines += [f"**Our engine was not importable**: {self.ours_missing}.", ""]

        # main table
        cols = ["ours ReliefF", "ours dReliefF", "ours pdReliefF"] + \
            (["ours ReliefF f32"] if a.f32 else []) + PEERS
        head = ["data (n × a)", "input MB", "L1 f64", "L1 f32"]
        for c in cols:
            head += [f"{c} time", f"{c} RSS MB"]
            if c == "ours ReliefF":
                head.append("ours / L1 f64")
            elif c in OURS_VARIANT:
                head.append(f"{c.split()[1]} / ReliefF" if not c.endswith("f32")
                            else "f32 / L1 f32")
            else:
                head.append(f"{c} / ours")
        lines += ["## Times, peak memory and ratios", "", md_row(head), md_row(["---"] * len(head))]
        for ds in self.datasets:
            ours = self.ours_time(ds)
            l1_64, note64 = self.l1_time(ds, "L1 f64")
            l1_32, note32 = self.l1_time(ds, "L1 f32")
            row = [dataset_label(ds), f"{ds['input_mb']:.1f}",
                   l1_cell(ds, l1_64, note64), l1_cell(ds, l1_32, note32)]
            for c in cols:
                res = self.results.get((ds["spec"], c), {})
                t = median_time(res)
                row.append(self.cell_time(ds, c))
                row.append(f"{res['peak_rss_mb']:.0f}" if t is not None else "")
                if c == "ours ReliefF":
                    row.append(ratio(t, l1_64))
                elif c == "ours ReliefF f32":
                    row.append(ratio(t, l1_32))
                elif c in OURS_VARIANT:
                    row.append(ratio(t, ours))
                else:
                    row.append(ratio(t, ours))
            lines.append(md_row(row))
        lines += ["", "L1 cells: time for all n² range-normalised |x_i − x_j| sums of the data set "
                  "and the kernel's rate in G terms/s; 'rate on R rows' = measured on the first R "
                  "rows and scaled as n²·a; 'est. from best rate' = sparse data, the dense-equivalent "
                  "n²·a at the best rate measured in this run.", ""]

        lines += self.headline_table()
        lines += self.agreement_table()
        lines += self.first_call_table()
        lines += self.memory_check()
        lines += self.scaling_section()
        lines += self.targets()
        lines += ["## Data sets", ""] + [f"- {dataset_label(ds)}: {ds['source']}"
                                         for ds in self.datasets] + [""]
        return "\n".join(lines)

    def headline_table(self):
        """Ours against the L1 limit: on this data set's own kernel time, and at the best
        kernel rate measured in the run (the issue's definition of the limit)."""
        best64, best32 = self.best_l1_rate("L1 f64"), self.best_l1_rate("L1 f32")
        head = ["data", "L1 f64 (this data)", "L1 f32 (this data)", "ours ReliefF",
                "ours G terms/s", "ours / L1 f64", "ours / L1 at best f64 rate",
                "ours / L1 at best f32 rate"]
        rows = []
        for ds in self.datasets:
            ours = self.ours_time(ds)
            terms = ds["n"] ** 2 * ds["a"]
            l1_64, note64 = self.l1_time(ds, "L1 f64")
            l1_32, note32 = self.l1_time(ds, "L1 f32")
            rows.append(md_row([
                dataset_label(ds), l1_cell(ds, l1_64, note64), l1_cell(ds, l1_32, note32),
                self.cell_time(ds, "ours ReliefF"),
                f"{terms / ours / 1e9:.2f}" if ours else "",
                f"**{ratio(ours, l1_64)}**" if ours and l1_64 else "",
                ratio(ours, terms / best64) if ours and best64 else "",
                ratio(ours, terms / best32) if ours and best32 else ""]))
        rates = []
        if best64:
            rates.append(f"best f64 rate {best64 / 1e9:.1f} G terms/s")
        if best32:
            rates.append(f"best f32 rate {best32 / 1e9:.1f} G terms/s")
        return ["## Headline: ours ReliefF against the L1 limit", "",
                "The limit: the tiled numba kernel's time for this data set's n²·a distance "
                "terms (and, as in the issue, n²·a at the best rate measured in this run: "
                + ", ".join(rates or ["none measured"]) + ").", "",
                md_row(head), md_row(["---"] * len(head))] + rows + [""]

    def agreement_table(self):
        rows = []
        for ds in self.datasets:
            ref = self.results.get((ds["spec"], "ours ReliefF"), {}).get("weights_path")
            if not ref:
                continue
            w0 = np.load(ref)
            cells = [dataset_label(ds)]
            for c in PEERS + ["ours dReliefF", "ours pdReliefF"]:
                wp = self.results.get((ds["spec"], c), {}).get("weights_path")
                if not wp:
                    cells.append("")
                    continue
                w = np.load(wp)
                cells.append(f"{np.max(np.abs(w - w0)):.1e} / {spearman(w, w0):.3f}")
            rows.append(md_row(cells))
        if not rows:
            return []
        head = ["data"] + PEERS + ["ours dReliefF", "ours pdReliefF"]
        return ["## Agreement with ours ReliefF: max |Δw| / Spearman ρ", "",
                "With m = n and k = 10 the peers compute the same ReliefF weights as ours "
                "(Orange divides by m·k, which equals ours when every class has ≥ k other "
                "instances; fast-select works in float32), so on continuous data without "
                "distance ties they agree to rounding; on nominal data ties are common and ours "
                "shares tied neighbour slots (SEMANTICS.md) where the peers break ties by row "
                "order. The feedback variants are expected to differ.", "",
                md_row(head), md_row(["---"] * len(head))] + rows + [""]

    def first_call_table(self):
        head = ["data", "ours ReliefF", "ours dReliefF", "ours pdReliefF", "fast-select",
                "L1 f64", "L1 f32"]
        rows = []
        for ds in self.datasets:
            cells = [dataset_label(ds)]
            for c in head[1:]:
                res = self.results.get((ds["spec"], c), {})
                first, t = res.get("first_s"), median_time(res)
                if first is None:
                    cells.append("")
                    continue
                cell = fmt_time(first)
                if t is not None:
                    cell += f" (+{fmt_time(max(0.0, first - t))})"
                if res.get("setup_s") is not None:
                    cell += f"; import {fmt_time(res['setup_s'])}"
                cells.append(cell)
            rows.append(md_row(cells))
        out = ["## First call in a fresh process (numba cache warm)", "",
               "First fit in the subprocess, compile or cache load included; in brackets its "
               "excess over the warm median; then the time to import the method and prepare "
               "its input (not part of any fit time).", "", md_row(head), md_row(["---"] * len(head))] + rows + [""]
        if self.cold:
            spec, res = self.cold
            if "first_s" in res:
                out += [f"Ours ReliefF, fresh process with an **empty** numba cache "
                        f"(NUMBA_CACHE_DIR=new dir), first call on {spec}: "
                        f"{fmt_time(res['first_s'])} (import + setup {fmt_time(res.get('setup_s'))}).",
                        ""]
            else:
                out += [f"Cold-cache first call on {spec}: {res.get('error', res.get('na'))}", ""]
        return out

    def memory_check(self):
        big = max(self.datasets, key=lambda d: d["n"] if d["kind"] == "cont" else 0, default=None)
        if big is None or big["kind"] != "cont":
            return []
        out = ["## Memory check (largest-n continuous data set)", ""]
        for c in ["ours ReliefF", "ours dReliefF", "ours pdReliefF", "fast-select", "Orange"]:
            res = self.results.get((big["spec"], c), {})
            if "peak_rss_mb" in res and median_time(res) is not None:
                out.append(f"- {c} on {dataset_label(big)}: peak RSS {res['peak_rss_mb']:.0f} MB, "
                           f"input {big['input_mb']:.1f} MB, peak − input "
                           f"**{res['peak_rss_mb'] - big['input_mb']:.0f} MB** "
                           f"(RSS after imports and loading, before the first fit: "
                           f"{res.get('rss_before_fit_mb', 0):.0f} MB)")
        return out + [""]

    def scaling_section(self):
        s = self.scaling
        if not s:
            return []
        if "error" in s:
            return ["## Scaling of ours ReliefF", "", f"error: {s['error']}", ""]
        rows = [md_row([f"{p['m']}", f"{p['n']} × {p['a']}", fmt_time(p["time"]),
                        f"{p['m'] * p['n'] * p['a'] / p['time'] / 1e9:.2f}"])
                for p in s["points"]]
        return ["## Scaling of ours ReliefF", "",
                md_row(["m (visits)", "n × a", "median time", "G terms/s"]),
                md_row(["---"] * 4)] + rows + [
                "", f"Least-squares fit: time ∝ m^**{s['m']:.2f}** · n^**{s['n']:.2f}** · "
                    f"a^**{s['a']:.2f}** (expected 1, 1, 1: m·n·a).", ""]

    def targets(self):
        """The issue's targets, checked on whichever of their data sets were run."""
        out = []

        def find(spec):
            return next((d for d in self.datasets if d["spec"] == spec), None)

        for spec in ("cont:10000x500", "cont:2000x5000"):
            ds = find(spec)
            if ds:
                ours = self.ours_time(ds)
                l1, _ = self.l1_time(ds, "L1 f64")
                orange = median_time(self.results.get((spec, "Orange"), {}))
                fs = median_time(self.results.get((spec, "fast-select"), {}))
                out.append(f"- {dataset_label(ds)}: ours / L1 = {ratio(ours, l1)} (target ≤ 2×); "
                           f"Orange / ours = {ratio(orange, ours)} (target ≥ 40×); "
                           f"fast-select / ours = {ratio(fs, ours)} (target > 1×)")
        for c in ("ours dReliefF", "ours pdReliefF"):
            ratios = [(t / ours, ds) for ds in self.datasets
                      if (ours := self.ours_time(ds))
                      and (t := median_time(self.results.get((ds["spec"], c), {}))) is not None]
            if ratios:
                worst, ds = max(ratios, key=lambda r: r[0])
                out.append(f"- {c} / ReliefF: at most {worst:.2f}× (on {dataset_label(ds)}; "
                           "target ≤ 3×)")
        rates = [f"{dataset_label(ds)} {ds['n'] ** 2 * ds['a'] / t / 1e9:.2f}"
                 for ds in self.datasets if (t := self.ours_time(ds))]
        if rates:
            out.append("- ours ReliefF, G distance terms/s (target: nominal and mixed no slower "
                       "per term than continuous): " + "; ".join(rates))
        ds = find("cont:2000x100")
        if ds:
            res = self.results.get((ds["spec"], "ours ReliefF"), {})
            if res.get("first_s") is not None:
                out.append(f"- first call in a fresh process on 2000 × 100 (warm cache): "
                           f"{fmt_time(res['first_s'])}, plus {fmt_time(res.get('setup_s'))} "
                           "to import the engine (target ≤ 1.5 s)")
            if self.cold and self.cold[0] == ds["spec"] and "first_s" in self.cold[1]:
                out.append(f"- the same with an empty numba cache: "
                           f"{fmt_time(self.cold[1]['first_s'])}")
        ds = find("cont:200000x20")
        if ds:
            res = self.results.get((ds["spec"], "ours ReliefF"), {})
            if "peak_rss_mb" in res and median_time(res) is not None:
                out.append(f"- 200000 × 20: peak RSS − input = "
                           f"{res['peak_rss_mb'] - ds['input_mb']:.0f} MB (target ≤ 300 MB)")
        if self.scaling and "m" in self.scaling:
            out.append(f"- exponents m^{self.scaling['m']:.2f} · n^{self.scaling['n']:.2f} · "
                       f"a^{self.scaling['a']:.2f} (expected 1, 1, 1)")
        return (["## The issue's targets on this run", ""] + out + [""]) if out else []


# ----------------------------------------------------------------------------------------
# Formatting helpers
# ----------------------------------------------------------------------------------------

def fmt_time(t):
    if t is None:
        return "—"
    if t < 1e-3:
        return f"{t * 1e6:.0f} µs"
    if t < 1:
        return f"{t * 1e3:.3g} ms"
    return f"{t:.3g} s"


def fmt_load(load):
    return "/".join(f"{v:.2f}" for v in load)


def ratio(num, den):
    if num is None or not den:
        return ""
    r = num / den
    return f"{r:.3g}×"


def l1_cell(ds, t, note):
    if t is None:
        return "—"
    return f"{fmt_time(t)} ({ds['n'] ** 2 * ds['a'] / t / 1e9:.1f} G/s){note}"


def md_row(cells):
    return "| " + " | ".join(str(c).replace("|", "/") for c in cells) + " |"


def dataset_label(ds):
    kind = {"cont": "", "gametes": "GAMETES ", "mixed": "mixed ", "sparse": "sparse "}[ds["kind"]]
    return f"{kind}{ds['n']} × {ds['a']}"


def spearman(u, v):
    ru = np.argsort(np.argsort(u)).astype(float)
    rv = np.argsort(np.argsort(v)).astype(float)
    if ru.std() == 0 or rv.std() == 0:
        return float("nan")
    return float(np.corrcoef(ru, rv)[0, 1])


def machine_description():
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f
                       if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    mem = None
    try:
        with open("/proc/meminfo") as f:
            mem = int(f.readline().split()[1]) / 2 ** 20
    except OSError:
        pass
    versions = [f"Python {platform.python_version()}"]
    for mod, name in (("numpy", "numpy"), ("numba", "numba"), ("Orange", "Orange"),
                      ("skrebate", "skrebate"), ("fast_select", "fast-select")):
        try:
            from importlib.metadata import version
            dist = {"Orange": "Orange3", "fast_select": "fast-select"}.get(mod, mod)
            versions.append(f"{name} {version(dist)}")
        except Exception:
            versions.append(f"{name} (not installed)")
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return (f"{os.cpu_count()} CPUs (nproc {len(os.sched_getaffinity(0))}), {cpu}, "
            f"{mem:.1f} GiB RAM; " if mem else f"{os.cpu_count()} CPUs, {cpu}; ") + \
        ", ".join(versions) + f"; {date}"


# ----------------------------------------------------------------------------------------
# Self-test: Orange's ReliefF visits every row once with VisitEveryRow
# ----------------------------------------------------------------------------------------

def explicit_relieff(X, y, nominal, k):
    """ReliefF visiting rows 0..n-1 once each, with Orange's normalisation (÷ m·k)."""
    X = np.asarray(X, float)
    n, a = X.shape
    Z = X.copy()
    cont = ~nominal
    span = Z[:, cont].max(0) - Z[:, cont].min(0)
    span[span == 0] = np.inf
    Z[:, cont] = (Z[:, cont] - Z[:, cont].min(0)) / span
    classes, counts = np.unique(y, return_counts=True)
    prior = counts / n
    w = np.zeros(a)
    for i in range(n):
        diff = np.abs(Z - Z[i])
        diff[:, nominal] = diff[:, nominal] > 0
        dist = diff.sum(1)
        yi = np.searchsorted(classes, y[i])
        for c, cls in enumerate(classes):
            idx = np.flatnonzero((y == cls) & (np.arange(n) != i))
            near = idx[np.argsort(dist[idx], kind="stable")[:k]]
            update = diff[near].sum(0)
            w += -update if c == yi else prior[c] / (1 - prior[yi]) * update
    return w / (n * k)


def selftest(args):
    from Orange.preprocess._relieff import relieff as orange_relieff
    rng = np.random.default_rng(1)
    ok = True
    for kind, nominal in (("continuous", np.zeros(6, bool)),
                          ("mixed", np.array([True, True, True, False, False, False]))):
        X = rng.random((80, 6))
        X[:, nominal] = np.floor(X[:, nominal] * 3)
        y = noisy_rule(rng, X[:, 3] + X[:, 4], 1.0)
        state = VisitEveryRow()
        w_orange = np.asarray(orange_relieff(X, y, 80, 5, nominal, state))
        w_loop = explicit_relieff(X, y, nominal, 5)
        w_random = np.asarray(orange_relieff(X, y, 80, 5, nominal, np.random.RandomState(0)))
        d = np.max(np.abs(w_orange - w_loop))
        print(f"Orange + VisitEveryRow vs explicit loop over every row ({kind}): "
              f"max |Δw| = {d:.2e}; randint calls {state.calls}; "
              f"Orange with a real RandomState(0): max |Δw| = "
              f"{np.max(np.abs(w_random - w_loop)):.2e}")
        ok &= d < 1e-12 and len(state.calls) == 1
    # the L1 kernel against numpy
    X = rng.random((37, 11))
    for dtype in (np.float64, np.float32):
        Z = range_normalise(X, dtype)
        want = np.abs(Z[:, None, :].astype(float) - Z[None, :, :]).sum()
        for name, (kernel, blk) in l1_candidates().items():
            for rb, cb in (blk(*Z.shape, Z.itemsize), (16, 8)):
                got = kernel(Z, dtype(0), rb, cb)
                print(f"L1 kernel {name} {dtype.__name__} blocks ({rb}, {cb}): "
                      f"{got:.6f} vs numpy {want:.6f}")
                ok &= abs(got - want) < (1e-9 if dtype is np.float64 else 1e-5) * want
    print("selftest", "passed" if ok else "FAILED")
    return 0 if ok else 1


# ----------------------------------------------------------------------------------------

def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", nargs="+", metavar="SPEC",
                   help="data sets as [cont|gametes|mixed|sparse:]NxA, e.g. cont:2000x100 "
                        "gametes:1600x1000 sparse:5000x20000 (default: the issue's nine)")
    p.add_argument("--quick", action="store_true",
                   help=f"tiny sizes for a smoke test: {' '.join(QUICK_SIZES)}")
    p.add_argument("--out", help="write the report (markdown) to this file too")
    p.add_argument("--reps", type=int, default=3, help="timed fits per method (median; default 3)")
    p.add_argument("--single-run-above", type=float, default=60.0, metavar="SECONDS",
                   help="stop after one timed fit when it took longer than this (default 60; "
                        "0 = always --reps)")
    p.add_argument("--skip-seconds", type=float, default=SKIP_SECONDS,
                   help="skip a peer whose estimated time per fit exceeds this (default 300)")
    p.add_argument("--skip-seconds-ours", type=float, default=1800.0,
                   help="the same for our variants, scaled from their own smaller sizes "
                        "(default 1800; a safety net for a slow engine)")
    p.add_argument("--timeout", type=float, default=3600.0,
                   help="kill a subprocess after this many seconds (default 3600)")
    p.add_argument("--l1-max-terms", type=float, default=1e11,
                   help="measure the L1 rate on the first rows when n²·a exceeds this")
    p.add_argument("--f32", action="store_true",
                   help="also run ours ReliefF with dtype=float32 (compared with L1 f32)")
    p.add_argument("--methods", nargs="+", metavar="NAME",
                   help="run only these columns (quote names with spaces), e.g. "
                        "--methods 'L1 f64' 'ours ReliefF' Orange")
    p.add_argument("--no-cold", action="store_true",
                   help="skip the first call of ours with an empty numba cache")
    p.add_argument("--no-scaling", action="store_true", help="skip the scaling fit")
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument("--gametes", default=GAMETES_FILE,
                   help="GAMETES .tsv for gametes:1600x1000 (generated SNPs if missing)")
    p.add_argument("--engine", default=DEFAULT_ENGINE,
                   help=f"module:function of our relieff (default {DEFAULT_ENGINE})")
    p.add_argument("--keep", action="store_true", help="keep the temporary data directory")
    p.add_argument("--selftest", action="store_true",
                   help="check that Orange's ReliefF visits every row once, and the L1 kernel")
    # internal
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--scaling-child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--method", help=argparse.SUPPRESS)
    p.add_argument("--data", help=argparse.SUPPRESS)
    p.add_argument("--rows", type=int, help=argparse.SUPPRESS)
    p.add_argument("--weights-out", help=argparse.SUPPRESS)
    p.add_argument("--points", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        return child_main(args)
    if args.scaling_child:
        return scaling_child_main(args)
    if args.selftest:
        return selftest(args)
    Benchmark(args).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
