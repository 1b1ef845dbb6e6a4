"""This engine on the GPU against its CPU run and fast-select 0.3.0 (CUDA and
CPU), on the same data in one run, interleaved; ratios printed.

    python benchmarks/bench_gpu.py                      # everything, ~5 min on an H100
    python benchmarks/bench_gpu.py --only relieff --rounds 5
    python benchmarks/bench_gpu.py --profile            # + time per GPU step

Sections (``--only``):

* ``relieff``: ReliefF, k = 10, all rows, at ``--sizes`` (10,000 x 500 and
  20,000 x 500): this engine on the GPU (``device="cuda"``; float64
  distances, and with the float32 screen, ``relief gpu f32``:
  ``backend.FLOAT32_SCREEN``) and on all CPU cores, fast-select's
  ``backend="gpu"`` and ``"cpu"``; each round times every tool once, in
  turn; the minimum and median over ``--rounds``, the
  ratios against fast-select's GPU time, and the rank correlation of each
  tool's weights with this engine's CPU weights (and the largest difference
  between this engine's GPU and CPU weights).
* ``feedback``: dReliefF and pdReliefF at ``--feedback-size`` (20,000 x
  500): GPU against all CPU cores (``--feedback-visits``: only the first m
  visits, for a quick look; the seconds per visit are printed).
* ``permutations``: a 99-permutation test of ReliefF at
  ``--permutation-size`` (5,000 x 1,000) on the GPU
  (``stats.permutation_test``).
* ``large``: ReliefF and MultiSURF (``--large-rules``; ``k-f32``: ReliefF
  with the float32 screen) at ``--large-size`` (100,000 x 10,000):
  the preparation timed once, then runs of ``--large-visits`` m and 3 m
  visits; the time for all n visits is estimated from them (the visits are
  alike: linear; the printed figures say so).  ``--large-visits 0``: each
  rule's run of every visit measured whole, the preparation included.
* ``msurf`` (not in the default run): the update step of MultiSURF,
  MultiSURF* and SURF* at the last of ``--sizes``, every GPU step timed,
  with the tiled update (``kernels.tiled_updates``) and with the old
  ``kernels.updates`` (``backend.TILED_UPDATES``), in turn over
  ``--rounds``; the minimum of each, their ratio, and the largest
  difference between the two runs' weights.
* ``host``: where a GPU run's host time goes, at ``--sizes``: the
  preparation alone (``engine.start``), a whole ReliefF run, and its bytes
  sent and fetched, copies and kernel launches (``cuda.TRAFFIC``); the
  permutation section prints its traffic too.

Every figure names the GPU and the CPU.  The data: uniform features, the
class from the first five (``make``), float64.  The compiled kernels of both
projects are compiled on small data before anything is timed.
"""
import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("ORANGE3_RELIEF_WARMUP", "0")

import numpy as np  # noqa: E402
from scipy.stats import spearmanr  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from orangecontrib.relief import stats  # noqa: E402
from orangecontrib.relief.core.backends.cuda import backend as cuda
from orangecontrib.relief.core import engine  # noqa: E402
from orangecontrib.relief.core.backends.base import neighbourhood  # noqa: E402
from orangecontrib.relief.core.engine import relieff  # noqa: E402

K = 10


def make(n, a, seed=0):
    """(X, y): n x a uniform features, the class from the first five."""
    rng = np.random.default_rng([seed, n, a])
    X = rng.random((n, a))
    score = X[:, :min(5, a)].sum(axis=1) + 0.3 * rng.random(n)
    return X, (score > np.median(score)).astype(float)


def size(text):
    n, a = text.lower().split("x")
    return int(n), int(a)


def screened(run, on=True):
    """``run()`` with the GPU's float32 screen (``cuda.FLOAT32_SCREEN``)
    on, or off."""
    old, cuda.FLOAT32_SCREEN = cuda.FLOAT32_SCREEN, on
    try:
        return run()
    finally:
        cuda.FLOAT32_SCREEN = old


def tools(fast_select):
    """name -> fit(X, y) -> weights."""
    out = {
        "relief gpu": lambda X, y: screened(lambda: relieff(
            X, y, k_nearest=K, device="cuda").weights, False),
        "relief gpu f32": lambda X, y: screened(lambda: relieff(
            X, y, k_nearest=K, device="cuda").weights),
        "relief cpu": lambda X, y: relieff(X, y, k_nearest=K,
                                           kernels="compiled",
                                           n_jobs=-1).weights,
    }
    if fast_select is not None:
        for backend in ("gpu", "cpu"):
            def fit(X, y, backend=backend):
                model = fast_select(n_features_to_select=min(10, X.shape[1]),
                                    n_neighbors=K, backend=backend,
                                    n_jobs=-1)
                model.fit(X, y)
                return np.asarray(model.feature_importances_, np.float64)
            out[f"fast-select {backend}"] = fit
    return out


def timed(fit, X, y):
    started = time.perf_counter()
    weights = fit(X, y)
    return time.perf_counter() - started, weights


def bench_relieff(sizes, rounds, fast_select, report):
    fits = tools(fast_select)
    X, y = make(400, 30)
    for name, fit in fits.items():      # compile everything first
        fit(X, y)
    for n, a in sizes:
        X, y = make(n, a)
        times = {name: [] for name in fits}
        weights = {}
        for _ in range(rounds):
            for name, fit in fits.items():
                seconds, weights[name] = timed(fit, X, y)
                times[name].append(seconds)
        reference = weights["relief cpu"]
        base = min(times.get("fast-select gpu", times["relief gpu"]))
        rows = []
        print(f"\nReliefF k={K}, all rows, {n} x {a}, {rounds} rounds "
              f"(interleaved)")
        print(f"{'tool':18s} {'min s':>9s} {'median s':>9s} "
              f"{'fs-gpu/tool':>12s} {'rank corr':>10s}")
        for name, values in times.items():
            rho = spearmanr(weights[name], reference)[0]
            ratio = base / min(values)
            print(f"{name:18s} {min(values):9.4f} "
                  f"{statistics.median(values):9.4f} {ratio:12.2f} "
                  f"{rho:10.4f}")
            rows.append(dict(tool=name, n=n, a=a, min=min(values),
                             median=statistics.median(values),
                             times=values, rank_corr=rho))
        gap, gap32 = (np.max(np.abs(weights[name] - reference))
                      for name in ("relief gpu", "relief gpu f32"))
        print(f"largest |GPU - CPU| weight difference: {gap:.1e}; with "
              f"the float32 screen {gap32:.1e}")
        report.append(dict(section="relieff", n=n, a=a, rows=rows,
                           gpu_cpu_max_diff=float(gap),
                           screen_cpu_max_diff=float(gap32)))


def bench_feedback(n, a, visits, report):
    X, y = make(n, a)
    small_X, small_y = make(60, 5)
    for variant in ("drelieff", "pdrelieff"):
        for device in ("cuda", "cpu"):      # compile first
            relieff(small_X, small_y, variant=variant, device=device,
                    kernels="compiled" if device == "cpu" else None)
        result = {}
        for device in ("cuda", "cpu"):
            started = time.perf_counter()
            result[device] = relieff(
                X, y, variant=variant, n_iterations=visits, device=device,
                kernels="compiled" if device == "cpu" else None,
                n_jobs=-1).weights
            result[device + " s"] = time.perf_counter() - started
        m = visits or n
        if cuda.ONE_LAUNCH_FAILED is not None:
            print(f"(feedback_visits not ready on this GPU, a launch a "
                  f"step: {cuda.ONE_LAUNCH_FAILED})")
        gap = np.max(np.abs(result["cuda"] - result["cpu"]))
        ratio = result["cpu s"] / result["cuda s"]
        print(f"\n{variant} k={K}, {n} x {a}, {m} visits: GPU "
              f"{result['cuda s']:.2f} s ({1e6 * result['cuda s'] / m:.0f} "
              f"us/visit), CPU {result['cpu s']:.2f} s "
              f"({1e6 * result['cpu s'] / m:.0f} us/visit); CPU/GPU "
              f"{ratio:.2f}; largest difference {gap:.1e}")
        report.append(dict(section="feedback", variant=variant, n=n, a=a,
                           visits=m, gpu=result["cuda s"],
                           cpu=result["cpu s"], max_diff=float(gap)))


def bench_permutations(n, a, count, report):
    X, y = make(n, a)
    stats.permutation_test(*make(60, 5), n_permutations=2, device="cuda")
    cuda.TRAFFIC.clear()
    started = time.perf_counter()
    stats.permutation_test(X, y, n_permutations=count, device="cuda")
    seconds = time.perf_counter() - started
    print(f"\n{count}-permutation test of ReliefF, {n} x {a}, GPU: "
          f"{seconds:.2f} s")
    print(f"  traffic: {traffic()}")
    report.append(dict(section="permutations", n=n, a=a,
                       permutations=count, gpu=seconds,
                       traffic=dict(cuda.TRAFFIC)))


def traffic():
    """``cuda.TRAFFIC`` in words."""
    t = cuda.TRAFFIC
    return (f"sent {t['sent'] / 1e6:.2f} MB in {t['sends']} copies "
            f"(the data {t['data sends']} times), fetched "
            f"{t['fetched'] / 1e6:.3f} MB in {t['fetches']} copies, "
            f"{t['launches']} kernel launches")


def bench_host(sizes, rounds, report):
    """A GPU run's host share: the preparation alone and whole ReliefF
    runs (minimum of ``rounds``), and one run's traffic."""
    relieff(*make(200, 10), k_nearest=K, device="cuda")
    for n, a in sizes:
        X, y = make(n, a)
        prepared, whole = [], []
        for _ in range(rounds):
            started = time.perf_counter()
            engine.start(X, y, k_nearest=K)
            prepared.append(time.perf_counter() - started)
            cuda.TRAFFIC.clear()
            whole.append(timed(tools(None)["relief gpu"], X, y)[0])
        print(f"\nhost {n} x {a}: ReliefF on the GPU {min(whole):.3f} s, "
              f"of which preparing the data {min(prepared):.3f} s; "
              f"{traffic()}")
        report.append(dict(section="host", n=n, a=a, run=min(whole),
                           prepared=min(prepared),
                           traffic=dict(cuda.TRAFFIC)))


def bench_large(n, a, visits, report, rules=("k", "multisurf")):
    """ReliefF and MultiSURF at n x a on the GPU: the preparation (once,
    ``engine.start``) and runs of ``visits`` and 3 x ``visits`` visits, so
    the time of all n visits is the preparation plus the first run plus the
    time per visit between the two runs times the visits left (the visits
    are independent and alike: linear)."""
    rng = np.random.default_rng(1)
    X = rng.random((n, a))
    score = X[:, :5].sum(axis=1)
    y = (score > np.median(score)).astype(float)
    relieff(*make(300, 20), neighbours="multisurf", device="cuda")
    if not visits:
        for rule in rules:
            started = time.perf_counter()
            screened(lambda: relieff(
                X, y, k_nearest=K, neighbours=rule.replace("-f32", ""),
                device="cuda"), rule.endswith("-f32"))
            seconds = time.perf_counter() - started
            print(f"{rule} rule, {n} x {a} on the GPU, all {n} visits, "
                  f"measured whole (preparation included): {seconds:.1f} s",
                  flush=True)
            report.append(dict(section="large", rule=rule, n=n, a=a,
                               all_visits=seconds, measured_whole=True))
        return
    started = time.perf_counter()
    setup = engine.start(X, y)
    prepared = time.perf_counter() - started
    print(f"\n{n} x {a}: preparing the data (host) {prepared:.1f} s")
    for rule in rules:
        planned = setup._replace(hood=neighbourhood(
            setup.prep, False, "per_class", K, False, 2.0,
            rule.replace("-f32", "")))
        seconds = []
        for m in (visits, 3 * visits):
            started = time.perf_counter()
            screened(lambda: engine.run_setup(
                planned._replace(order=planned.order[:m]), device="cuda"),
                rule.endswith("-f32"))
            seconds.append(time.perf_counter() - started)
        per_visit = (seconds[1] - seconds[0]) / (2 * visits)
        total = prepared + seconds[0] + per_visit * (n - visits)
        print(f"{rule} rule, {n} x {a} on the GPU: {visits} visits "
              f"{seconds[0]:.2f} s, {3 * visits} visits {seconds[1]:.2f} s "
              f"({1e3 * per_visit:.2f} ms a visit); all {n} visits: "
              f"{total:.1f} s (estimated from these runs and the "
              f"preparation)")
        report.append(dict(section="large", rule=rule, n=n, a=a,
                           prepared=prepared, runs=seconds,
                           per_visit=per_visit, all_visits=total))


def profile(n, a, feedback_visits, report):
    """ReliefF (k and MultiSURF) and dReliefF at n x a once more, every GPU
    step waited for and timed (``cuda.PROFILE``)."""
    runs = (("relieff", "k", None), ("relieff", "k-f32", None),
            ("relieff", "multisurf", None),
            ("drelieff", "k", feedback_visits))
    def run(X, y, variant, rule, visits=None):
        return screened(lambda: relieff(
            X, y, variant=variant, neighbours=rule.replace("-f32", ""),
            device="cuda", n_iterations=visits), rule.endswith("-f32"))
    for variant, rule, _ in runs:       # compile first
        run(*make(200, 10), variant, rule)
    os.environ["ORANGE3_RELIEF_CUDA_PROFILE"] = "1"
    X, y = make(n, a)
    for variant, rule, visits in runs:
        cuda.PROFILE.clear()
        started = time.perf_counter()
        run(X, y, variant, rule, visits)
        seconds = time.perf_counter() - started
        steps = ", ".join(f"{step} {value:.3f}"
                          for step, value in cuda.PROFILE.items())
        print(f"\nprofile {variant} {rule} {n} x {a} ({visits or n} visits):"
              f" {seconds:.3f} s in all; {steps}")
        report.append(dict(section="profile", variant=variant, rule=rule,
                           n=n, a=a, seconds=seconds,
                           steps=dict(cuda.PROFILE)))
    del os.environ["ORANGE3_RELIEF_CUDA_PROFILE"]


def bench_msurf(n, a, rounds, report):
    """The tiled update against the old one on the radius rules (see the
    module docstring), each step waited for and timed (``cuda.PROFILE``)."""
    rules = ("multisurf", "multisurf*", "surf*")
    default = cuda.TILED_UPDATES
    for rule in rules:                  # compile both paths first
        for tiled in (True, False):
            cuda.TILED_UPDATES = tiled
            relieff(*make(200, 10), neighbours=rule, device="cuda")
    os.environ["ORANGE3_RELIEF_CUDA_PROFILE"] = "1"
    X, y = make(n, a)
    for rule in rules:
        times = {True: [], False: []}
        steps, weights = {}, {}
        for _ in range(rounds):
            for tiled in (True, False):
                cuda.TILED_UPDATES = tiled
                cuda.PROFILE.clear()
                started = time.perf_counter()
                weights[tiled] = relieff(X, y, neighbours=rule,
                                         device="cuda").weights
                times[tiled].append((time.perf_counter() - started,
                                     cuda.PROFILE["updates"]))
                steps[tiled] = dict(cuda.PROFILE)
        (new_all, new_upd), (old_all, old_upd) = (
            min(times[tiled], key=lambda t: t[1]) for tiled in (True, False))
        difference = float(np.max(np.abs(weights[True] - weights[False])))
        print(f"\nmsurf {rule} {n} x {a}: updates tiled {new_upd:.4f} s, "
              f"old {old_upd:.4f} s ({old_upd / new_upd:.1f} x); in all "
              f"{new_all:.3f} s against {old_all:.3f} s; weights differ by "
              f"at most {difference:.1e}")
        report.append(dict(section="msurf", rule=rule, n=n, a=a,
                           tiled=times[True], old=times[False],
                           steps_tiled=steps[True], steps_old=steps[False],
                           difference=difference))
    cuda.TILED_UPDATES = default        # (the later steps time the default)
    del os.environ["ORANGE3_RELIEF_CUDA_PROFILE"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*",
                        default=["relieff", "feedback", "permutations",
                                 "large"])
    parser.add_argument("--sizes", nargs="*", type=size,
                        default=[(10000, 500), (20000, 500)])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--feedback-size", type=size, default=(20000, 500))
    parser.add_argument("--feedback-visits", type=int)
    parser.add_argument("--permutation-size", type=size,
                        default=(5000, 1000))
    parser.add_argument("--permutations", type=int, default=99)
    parser.add_argument("--large-size", type=size, default=(100000, 10000))
    parser.add_argument("--large-visits", type=int, default=1000,
                        help="0: every visit, each rule measured whole")
    parser.add_argument("--large-rules", nargs="*",
                        default=["k", "k-f32", "multisurf"],
                        choices=["k", "k-f32", "multisurf"],
                        help="k-f32: ReliefF with the float32 screen")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args()
    reason = cuda.unavailable_reason()
    if reason is not None:
        print(reason)
        return 1
    try:
        from fast_select import ReliefF as fast_select
        import fast_select as fs
        fs_version = getattr(fs, "__version__", "?")
    except ImportError:
        fast_select, fs_version = None, "not installed"
    print(f"GPU: {cuda.device_name()}; CPU: {platform.processor() or '?'}, "
          f"{os.cpu_count()} threads; fast-select {fs_version}")
    report = []
    if "relieff" in args.only:
        bench_relieff(args.sizes, args.rounds, fast_select, report)
    if "feedback" in args.only:
        bench_feedback(*args.feedback_size, args.feedback_visits, report)
    if "permutations" in args.only:
        bench_permutations(*args.permutation_size, args.permutations, report)
    if "host" in args.only:
        bench_host(args.sizes, args.rounds, report)
    if "large" in args.only:
        bench_large(*args.large_size, args.large_visits, report,
                    args.large_rules)
    if "msurf" in args.only:
        bench_msurf(*args.sizes[-1], args.rounds, report)
    if args.profile:
        profile(*args.sizes[-1], args.feedback_visits, report)
    if args.json:
        Path(args.json).write_text(json.dumps(
            dict(gpu=cuda.device_name(), report=report), indent=1,
            default=float))
    return 0


if __name__ == "__main__":
    sys.exit(main())
