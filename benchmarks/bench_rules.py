"""The neighbourhood rules against the peers, on the same data in one run
(issue 23; the conditions of each figure recorded since issue 31).

    pip install skrebate==0.8.4 fast-select==0.3.0
    python benchmarks/bench_rules.py [--sizes cont:2000x100 cont:5000x200
        cont:10000x500 gametes:1600x1000] [--rules multisurf multisurf*]
        [--rounds 3] [--extra-rounds 6] [--threads N] [--rev REV]
        [--skrebate-max 200000]

For every data set (``bench_relieff.make_dataset`` with seed 0: uniform
numeric data with a noisy class from two features, or the GAMETES file of
shared/data) and every rule (SURF, SURF*, MultiSURF, MultiSURF*): this
engine (``core.relieff(neighbours=rule, kernels="compiled")``), fast-select
0.3.0 (CPU backend; warmed on a few rows first, as it compiles in each
process) and skrebate 0.8.4 (only where n · a <= ``--skrebate-max``: it is
pure Python per instance; one timed fit), plus this engine's ReliefF
(k = 10).  Every tool gets the same number of threads, ``--threads``
(default: numba's pool, i.e. every core).

Each fit is made once untimed (compilation, the weights compared), then
``--rounds`` times, interleaved in an order that rotates from round to round.
A round during which the rest of the machine used more than 0.2 cores (see
below) is not counted and is made again, up to ``--extra-rounds`` more
rounds; if no round was quiet, every round is shown and the row says so.
The minimum and the median of the counted rounds are printed, with the
ratios fast-select / ours (> 1: ours is faster) of the minima, of the
medians, and the median of each round's own ratio (its two fits are seconds
apart, so a machine whose speed drifts from minute to minute moves both);
"ours faster?" is "yes" only when all three exceed 1.  Then ours /
ours-ReliefF, and the largest weight difference and Spearman correlation to
each peer (their definitions differ in places:
doc/neighbourhood_rules_notes.md).

What a figure depends on, and what is therefore printed with it:

* the machine: the CPU, the vector width numba compiles for, the last-level
  cache (fast-select's float32 copy of 10,000 x 500 is 20 MB; when it does
  not fit in the cache its time grows far faster than n^2 a: benchmarks/
  RESULTS.md, run 25), the threads;
* the load: on a shared machine another session's processes take CPU during
  the fits (with the kernel's autogroups, one busy session elsewhere leaves
  this one a single core of two).  Each timed fit records how much CPU the
  rest of the machine used meanwhile (/proc/stat less this process); the
  "others" column gives, in cores, its mean over the counted fits of ours,
  fast-select and ReliefF and its maximum over those of a second or more,
  and how many rounds were quiet; "cores used" is each tool's own CPU time
  / wall time.  Ratios measured while others used more than 0.2 cores
  describe a shared machine as much as the code;
* the engine: ``--rev`` times the engine of a commit (benchmarks/_engines.py)
  instead of the working tree's, which may be half-way through an edit; the
  header says which was timed and whether the working tree's core differs
  from HEAD.
"""
import argparse
import datetime
import os
import platform
import subprocess
import sys
import time
import warnings
from pathlib import Path
from types import SimpleNamespace

# The compiled kernels (relieff(kernels="compiled") below), and no background
# compilation: a compile thread would take a core during the timed fits.
os.environ["ORANGE3_RELIEF_WARMUP"] = "0"

import numpy as np  # noqa: E402
from scipy.stats import spearmanr  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from _engines import load_core  # noqa: E402
from bench_relieff import make_dataset  # noqa: E402
from rules_peers import fast_select_estimator  # noqa: E402

RULES = ("surf", "surf*", "multisurf", "multisurf*")
GAMETES = HERE.parents[1] / "shared" / "data" / \
    "GAMETES_Epistasis_2-Way_1000atts_0.4H_EDM-1_EDM-1_1.tsv"
# a fit during which the rest of the machine used more CPU than this (in
# cores) was measured on a contended machine
CONTENDED = 0.2


# --------------------------------------------------------------------------
# What the figures depend on
# --------------------------------------------------------------------------

def _read(path):
    try:
        with open(path) as fh:
            return fh.read().strip()
    except OSError:
        return None


def _git(*args):
    try:
        return subprocess.run(["git", "--no-optional-locks", *args], cwd=ROOT,
                              capture_output=True, text=True,
                              check=True).stdout.rstrip()
    except (OSError, subprocess.CalledProcessError):
        return None


def machine():
    """Lines describing the machine, the libraries and the environment."""
    import numba
    cpu = "?"
    info = _read("/proc/cpuinfo") or ""
    for line in info.splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    family = next((line.split(":", 1)[1].strip() for line in info.splitlines()
                   if line.startswith("cpu family")), "?")
    model = next((line.split(":", 1)[1].strip() for line in info.splitlines()
                  if line.startswith("model\t")), "?")
    try:
        import llvmlite.binding as ll
        target = numba.config.CPU_NAME or ll.get_host_cpu_name()
        features = numba.config.CPU_FEATURES or \
            ll.get_host_cpu_features().flatten()
        width = "AVX-512" if "+avx512f" in features else \
            "AVX2" if "+avx2" in features else "SSE"
    except Exception:                                   # pragma: no cover
        target, width = "?", "?"
    l3 = _read("/sys/devices/system/cpu/cpu0/cache/index3/size") or "?"
    versions = [f"Python {platform.python_version()}"]
    from importlib.metadata import PackageNotFoundError, version
    for dist in ("numpy", "numba", "fast-select", "skrebate"):
        try:
            versions.append(f"{dist} {version(dist)}")
        except PackageNotFoundError:
            versions.append(f"{dist} not installed")
    env = {k: v for k, v in os.environ.items()
           if k.startswith(("ORANGE3_RELIEF", "NUMBA_", "OMP_", "OPENBLAS_",
                            "MKL_"))}
    try:
        layer = numba.threading_layer()
    except ValueError:
        layer = "not started yet"
    date = datetime.datetime.now(datetime.timezone.utc)
    return [
        f"date: {date:%Y-%m-%d %H:%M} UTC",
        f"CPU: {cpu} (family {family}, model {model}), "
        f"{len(os.sched_getaffinity(0))} cores for this process, L3 {l3}; "
        f"numba compiles for {target} ({width})",
        f"numba threads: {numba.config.NUMBA_NUM_THREADS} in the pool, "
        f"threading layer {layer}",
        "versions: " + ", ".join(versions),
        "environment: " + (", ".join(f"{k}={v}" for k, v in sorted(env.items()))
                           or "none of ORANGE3_RELIEF_*, NUMBA_*, OMP_*, "
                              "OPENBLAS_*, MKL_*"),
    ]


def engine(rev):
    """(relieff, a line saying which engine is timed)."""
    core = load_core(rev)
    if rev is not None:
        return core.relieff, f"engine: commit {_git('rev-parse', rev)} " \
            f"(benchmarks/.engines)"
    head = _git("rev-parse", "HEAD")
    changed = _git("status", "--porcelain", "--", "orangecontrib/relief/core")
    state = "unknown" if changed is None else \
        "the working tree's core differs from HEAD: " + \
        ", ".join(line[3:] for line in changed.splitlines()) if changed \
        else "the working tree's core equals HEAD"
    return core.relieff, f"engine: working tree at {head} ({state})"


def _busy():
    """CPU seconds the whole machine has been busy (None off Linux)."""
    line = (_read("/proc/stat") or "").split("\n", 1)[0].split()
    if not line or line[0] != "cpu":
        return None
    user, nice, system, _, _, irq, softirq = (int(v) for v in line[1:8])
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")


class Fit:
    """One timed call: wall seconds, this process's CPU seconds, and the
    CPU seconds the whole machine was busy meanwhile (None off Linux; in
    clock ticks of 10 ms, so only sums over many fits mean much)."""

    def __init__(self, fit):
        busy, cpu = _busy(), time.process_time()
        started = time.perf_counter()
        fit()
        self.wall = time.perf_counter() - started
        self.cpu = time.process_time() - cpu
        after = _busy()
        self.busy = None if busy is None else after - busy


def others(fits):
    """(mean, max) cores that the rest of the machine used during ``fits``
    (the max over fits of at least a second; None where unknown)."""
    if not fits or any(f.busy is None for f in fits):
        return None, None
    wall = sum(f.wall for f in fits)
    mean = max(0.0, sum(f.busy - f.cpu for f in fits)) / wall
    long = [max(0.0, f.busy - f.cpu) / f.wall for f in fits if f.wall >= 1]
    return mean, (max(long) if long else None)


# --------------------------------------------------------------------------
# The tools
# --------------------------------------------------------------------------

def runners(relieff, rule, X, y, nominal, threads, skrebate_ok):
    """{name: fit() -> weights} for one rule."""
    peer_args = SimpleNamespace(k=10, jobs=threads, turf=None)
    out = {"ours": lambda: relieff(X, y, nominal, neighbours=rule,
                                   n_jobs=threads,
                                   kernels="compiled").weights}
    try:
        import fast_select  # noqa: F401
        small = fast_select_estimator(rule, X.shape[1], peer_args)
        rows = np.concatenate([np.flatnonzero(y == c)[:10]
                               for c in np.unique(y)])
        small.fit(X[rows], y[rows])              # compile its kernels

        def fast():
            est = fast_select_estimator(rule, X.shape[1], peer_args)
            est.fit(X, y)
            return np.asarray(est.feature_importances_, float)
        out["fast-select"] = fast
    except ImportError:
        pass
    if skrebate_ok:
        try:
            import skrebate
            cls = {"surf": skrebate.SURF, "surf*": skrebate.SURFstar,
                   "multisurf": skrebate.MultiSURF,
                   "multisurf*": skrebate.MultiSURFstar}[rule]

            def skre():
                est = cls(n_features_to_select=X.shape[1], n_jobs=threads)
                est.fit(X.copy(), y.copy())
                return np.asarray(est.feature_importances_, float)
            out["skrebate"] = skre
        except ImportError:
            pass
    return out


def interleaved(fits, rounds, extra):
    """[{name: Fit}, ...]: every fit once per round, the order rotating from
    round to round (skrebate, minutes a fit, in the first round only).
    A round during which the rest of the machine used more than CONTENDED
    cores is repeated, up to ``extra`` more rounds in all, until ``rounds``
    quiet rounds are done.  Returns (all rounds, the quiet ones)."""
    names = list(fits)
    done, quiet = [], []
    r = 0
    while len(quiet) < rounds and r < rounds + extra:
        shift = r % len(names)
        timed = {}
        for name in names[shift:] + names[:shift]:
            if name == "skrebate" and r > 0:
                continue
            timed[name] = Fit(fits[name])
        done.append(timed)
        mean, _ = others([f for name, f in timed.items()
                          if name != "skrebate"])
        if mean is not None and mean <= CONTENDED:
            quiet.append(timed)
        elif mean is None and r < rounds:
            quiet.append(timed)         # (no /proc/stat: every round)
        r += 1
    return done, quiet


def agreement(ours, theirs):
    rho = spearmanr(ours, theirs)[0]
    return f"{np.max(np.abs(ours - theirs)):.2g} / {rho:.4f}"


def verdict(*ratios):
    """Whether ours is faster, by every one of ``ratios`` (peer / ours)."""
    if all(r > 1 for r in ratios):
        return "yes"
    if all(r <= 1 for r in ratios):
        return "**no**"
    return "unclear (the ratios disagree)"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+",
                        default=["cont:2000x100", "cont:5000x200",
                                 "cont:10000x500", "gametes:1600x1000"])
    parser.add_argument("--rules", nargs="+", default=list(RULES))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--extra-rounds", type=int, default=6,
                        help="rounds to add, at most, in place of rounds "
                             "measured on a contended machine")
    parser.add_argument("--threads", type=int, default=-1,
                        help="threads for every tool (-1: numba's pool)")
    parser.add_argument("--rev", help="time the engine of this commit "
                        "(default: the working tree's)")
    parser.add_argument("--skrebate-max", type=int, default=200_000,
                        help="largest n * a given to skrebate")
    args = parser.parse_args()
    warnings.simplefilter("ignore")

    import numba
    threads = numba.config.NUMBA_NUM_THREADS if args.threads < 0 \
        else min(args.threads, numba.config.NUMBA_NUM_THREADS)
    relieff, which = engine(args.rev)
    started = time.perf_counter()
    for line in machine() + [
            which,
            f"threads: {threads} for ours (n_jobs), fast-select (n_jobs) and "
            f"skrebate (n_jobs)",
            f"command: python benchmarks/bench_rules.py {' '.join(sys.argv[1:])}",
            "load average at the start: " +
            " ".join(f"{v:.2f}" for v in os.getloadavg())]:
        print(f"- {line}")
    print()
    print("| data | rule | ours min / median | fast-select min / median | "
          "fast-select / ours (min, median, per round) | ours faster? | "
          "ours / ours ReliefF (min) | skrebate | skrebate / ours | "
          "cores used (ours, fast-select) | others (cores, mean / max); "
          "rounds | "
          "max diff / Spearman vs fast-select | vs skrebate |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for spec in args.sizes:
        data = make_dataset(spec, 0, str(GAMETES))
        X, y, nominal = data["X"], data["y"], data["nominal"]
        n, a = X.shape

        def base():
            return relieff(X, y, nominal, n_jobs=threads,
                           kernels="compiled").weights
        base()
        for rule in args.rules:
            fits = runners(relieff, rule, X, y, nominal, threads,
                           n * a <= args.skrebate_max)
            fits["ReliefF"] = base
            weights = {name: fit() for name, fit in fits.items()}
            every, quiet = interleaved(fits, args.rounds, args.extra_rounds)
            rounds = quiet or every
            done = {name: [r[name] for r in rounds if name in r]
                    for name in fits}
            if "skrebate" in done and not done["skrebate"]:
                done["skrebate"] = [every[0]["skrebate"]]
            best = {name: min(f.wall for f in done[name]) for name in done}
            median = {name: float(np.median([f.wall for f in done[name]]))
                      for name in done}
            ours = best["ours"]

            def used(name):
                if name not in done:
                    return "–"
                return f"{sum(f.cpu for f in done[name]) / sum(f.wall for f in done[name]):.2f}"

            mean, peak = others([f for name in ("ours", "fast-select",
                                                "ReliefF")
                                 if name in done for f in done[name]])
            load = "?" if mean is None else f"{mean:.2f} / " + \
                ("–" if peak is None else f"{peak:.2f}")
            load += f"; {len(quiet)} quiet of {len(every)} rounds" + \
                ("" if quiet else ": **all contended, all shown**")
            if "fast-select" in done:
                r_min = best["fast-select"] / ours
                r_med = median["fast-select"] / median["ours"]
                # each round's pair, measured a few seconds apart: robust
                # to a machine whose speed drifts between rounds
                r_pair = float(np.median([r["fast-select"].wall /
                                          r["ours"].wall for r in rounds]))
                fs = f"{best['fast-select']:.3f} / {median['fast-select']:.3f} s"
                ratio = f"{r_min:.2f}, {r_med:.2f}, {r_pair:.2f}"
                faster = verdict(r_min, r_med, r_pair)
            else:
                fs = ratio = faster = "–"
            if "skrebate" in done:
                sk = f"{best['skrebate']:.3f} s"
                sk_ratio = f"{best['skrebate'] / ours:.1f}"
            else:
                sk = sk_ratio = "–"
            vs_fs = agreement(weights["ours"], weights["fast-select"]) \
                if "fast-select" in weights else "–"
            vs_sk = agreement(weights["ours"], weights["skrebate"]) \
                if "skrebate" in weights else "–"
            kind, shape = spec.split(":") if ":" in spec else ("cont", spec)
            print(f"| {shape} ({kind}) | {rule} | {ours:.3f} / "
                  f"{median['ours']:.3f} s | {fs} | {ratio} | {faster} | "
                  f"{ours / best['ReliefF']:.2f} | {sk} | {sk_ratio} | "
                  f"{used('ours')}, {used('fast-select')} | {load} | "
                  f"{vs_fs} | {vs_sk} |", flush=True)
    print()
    print("- load average at the end: " +
          " ".join(f"{v:.2f}" for v in os.getloadavg()) +
          f"; {(time.perf_counter() - started) / 60:.1f} min")


if __name__ == "__main__":
    main()
