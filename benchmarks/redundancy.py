"""The seed's question against its successors: ReliefF, dReliefF, pdReliefF,
I-RELIEF, Iter(ReliefF), Iter(dReliefF), TuRF and VLS on the seed's
benchmarks with redundancy added in steps (issue 34; doc/redundancy.md).

    python benchmarks/redundancy.py --out doc/redundancy.md \\
        --plot doc/images/redundancy.png          # the full run
    python benchmarks/redundancy.py --quick       # a smoke test (seconds)

Benchmarks and their steps (``datasets.with_copies``):

* CorrAl: 128 of its 160 rows (a fresh subsample per seed), with 0, 1, 2, 4
  exact copies of ``Correlated``, the trap feature (unimportant, as are its
  copies);
* LED: ``datasets.led`` (a fresh sample per seed) with 0, 1, 2 exact copies
  of each of the seven segments;
* Modulo-4-3 with 6 random features (a fresh sample per seed), and one copy
  of each relevant feature with copy noise 0, 10 % and 30 % (a copy's value
  redrawn uniformly with that probability);
* GAMETES (2-way epistasis, 20 SNPs, heritability 0.4; a fresh subsample of
  800 of its 1600 rows per seed) with 0, 1, 2 copies of each of the interacting SNPs P1,
  P2 at copy noise 10 % (correlated copies).

Measures, per method and seed: separability s and usability u (seed,
"Empirical results") of the original relevant features against the
unimportant ones (copies of a relevant feature belong to neither side: they
are as relevant as the original but redundant with it); the seed's
redundancy level R' (``evaluation.redundancy_level``) of each of the top
|I| features within the top |I| (mean; 1 = the feature adds nothing to the
others: a copy, or an irrelevant feature); and the 1-NN wrapper curve
(``evaluation.wrapper_curve``, the ``NN_VOTE`` learner, 5 folds, the seed's
protocol: weights on all rows), summarised by its accuracy with the top |I|
features.  Intervals: mean +- t(0.975, seeds - 1) sd / sqrt(seeds).
"""
import argparse
import math
import os
import platform
import sys
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from Orange.data import DiscreteVariable, Domain, Table  # noqa: E402

from orangecontrib.relief.core import ranking, relieff  # noqa: E402
from orangecontrib.relief.core.irelief import irelief  # noqa: E402
from orangecontrib.relief.datasets import corral, led, modulo  # noqa: E402
from orangecontrib.relief.datasets.redundant import with_copies  # noqa: E402
from orangecontrib.relief.evaluation import (  # noqa: E402
    NN_VOTE, redundancy_level, separability, usability, wrapper_curve)
from orangecontrib.relief.wrappers.iterated import iter_relief  # noqa: E402
from orangecontrib.relief.wrappers.turf import turf  # noqa: E402
from orangecontrib.relief.wrappers.vls import vls  # noqa: E402

GAMETES = "GAMETES_Epistasis_2-Way_20atts_0.4H_EDM-1_1.tsv"
METHODS = ("ReliefF", "dReliefF", "pdReliefF", "I-RELIEF", "Iter(ReliefF)",
           "Iter(dReliefF)", "TuRF", "VLS")
SEED_VARIANTS = ("ReliefF", "dReliefF", "pdReliefF")

#: I-RELIEF's iterations at most here (its default is 1000; with damping="auto"
#: every run here converges within 20, and with damping="none" most GAMETES
#: runs end in a 2-cycle, where 1000 would take most of the run's time)
IRELIEF_ITERATIONS = 200
#: the plotted wrapper curves (the last step's) go up to this many features
CURVE_SIZE = 16
FULL = dict(seeds=10, corral_rows=128, led_rows=1000, modulo_rows=1000,
            gametes_rows=800, folds=5)
QUICK = dict(seeds=2, corral_rows=100, led_rows=200, modulo_rows=200,
             gametes_rows=200, folds=3)


def gametes_table(data_dir):
    """The GAMETES table of the shared data as an Orange table (SNPs 0/1/2,
    P1 and P2 marked relevant)."""
    path = Path(data_dir) / GAMETES
    with open(path, encoding="utf-8") as file:
        header = file.readline().rstrip("\n").split("\t")
    matrix = np.loadtxt(path, delimiter="\t", skiprows=1)
    attributes = []
    for name in header[:-1]:
        var = DiscreteVariable(name, values=("0", "1", "2"))
        var.attributes["relevant"] = name in ("P1", "P2")
        attributes.append(var)
    domain = Domain(attributes, DiscreteVariable("class", values=("0", "1")))
    table = Table.from_numpy(domain, matrix[:, :-1], matrix[:, -1])
    table.name = "GAMETES"
    return table


def subsample(table, rows, seed):
    """``rows`` rows of ``table`` drawn without replacement."""
    keep = np.sort(np.random.default_rng(seed).choice(len(table), rows,
                                                      replace=False))
    return table[keep]


def benchmarks(sizes, data_dir, quick):
    """{benchmark: (what the steps add, [(label, tick, step)],
    make(step, seed) -> Table)}; GAMETES only where its file is."""
    gametes = gametes_table(data_dir) if (Path(data_dir) / GAMETES).exists() \
        else None
    corral_copies = (0, 4) if quick else (0, 1, 2, 4)
    led_copies = (0, 2) if quick else (0, 1, 2)
    noises = (None, 0.3) if quick else (None, 0.0, 0.1, 0.3)
    gametes_copies = (0, 2) if quick else (0, 1, 2)

    def make_corral(copies, seed):
        base = subsample(corral(), sizes["corral_rows"], seed)
        return with_copies(base, ["Correlated"], copies, 0.0, seed)

    def make_led(copies, seed):
        base = led(n_instances=sizes["led_rows"], random_state=seed)
        return with_copies(base, [f"seg{i}" for i in range(1, 8)], copies,
                           0.0, seed)

    def make_modulo(noise, seed):
        base = modulo(4, 3, 6, sizes["modulo_rows"], random_state=seed)
        if noise is None:
            return base
        return with_copies(base, ["I1", "I2", "I3"], 1, noise, seed)

    def make_gametes(copies, seed):
        base = subsample(gametes, sizes["gametes_rows"], seed)
        return with_copies(base, ["P1", "P2"], copies, 0.1, seed)

    found = {
        "CorrAl": ("copies of Correlated",
                   [(f"{c} copies of Correlated", str(c), c)
                    for c in corral_copies], make_corral),
        "LED": ("copies of each segment",
                [(f"{c} copies of each segment", str(c), c)
                 for c in led_copies], make_led),
        "Modulo-4-3": ("a copy of each relevant feature, copy noise",
                       [("no copies", "none", None) if v is None else
                        (f"copies, noise {v:.0%}", f"{v:.0%}", v)
                        for v in noises], make_modulo),
        "GAMETES": ("copies of P1 and P2 (copy noise 10%)",
                    [(f"{c} copies of P1, P2", str(c), c)
                     for c in gametes_copies], make_gametes),
    }
    if gametes is None:
        del found["GAMETES"]
    return found


def run_method(name, X, y, nominal, seed, sigma, damping="auto"):
    """(weights, details) of one method; details: I-RELIEF's iterations,
    convergence and whether it damped, Iter's runs."""
    k = dict(k_nearest=10, random_state=seed)
    if name == "ReliefF":
        return relieff(X, y, nominal, **k).weights, {}
    if name == "dReliefF":
        return relieff(X, y, nominal, variant="drelieff", **k).weights, {}
    if name == "pdReliefF":
        return relieff(X, y, nominal, variant="pdrelieff", **k).weights, {}
    if name == "I-RELIEF":
        result = irelief(X, y, nominal, sigma=sigma,
                         max_iterations=IRELIEF_ITERATIONS, damping=damping)
        return result.weights, dict(iterations=result.iterations,
                                    converged=result.converged,
                                    damped=bool((result.damping < 1).any()))
    if name.startswith("Iter("):
        variant = "drelieff" if "dReliefF" in name else "relieff"
        weights, runs = iter_relief(X, y, nominal, variant=variant, **k)
        return weights, dict(runs=len(runs))
    if name == "TuRF":
        return turf(X, y, nominal, **k)[0], {}
    if name == "VLS":
        return vls(X, y, nominal, **k)[0], {}
    raise ValueError(f"unknown method {name!r}")


class Fixed:
    """An Orange scorer that gives weights computed before (the wrapper
    curve under the seed's protocol needs one call on all rows)."""

    def __init__(self, name, weights):
        self.name, self.weights = name, weights

    def __call__(self, data):
        return self.weights


def measures(table, weights, folds, seed, curve_size=0):
    """s, u, R' of the top |I|, 1-NN accuracy with the top |I| and the
    wrapper curve up to the top ``curve_size`` features (at least |I|)."""
    attributes = table.domain.attributes
    relevant = np.array([v.attributes.get("relevant", False)
                         for v in attributes])
    copy_of_relevant = np.array([
        table.domain[v.attributes["copy_of"]].attributes.get("relevant",
                                                             False)
        if "copy_of" in v.attributes else False for v in attributes])
    keep = ~copy_of_relevant
    s = separability(weights[keep], relevant[keep])
    u = usability(weights[keep], relevant[keep])
    n_top = int(relevant.sum())
    order = ranking(weights)

    def top(size):
        return table.transform(Domain([attributes[i] for i in order[:size]],
                                      table.domain.class_var))
    best = top(n_top)
    r_level = float(np.mean([redundancy_level(best, attributes[i].name)
                             for i in order[:n_top]]))
    # the curve of the top features alone is the whole curve's beginning
    size = min(len(attributes), max(n_top, curve_size))
    shown = top(size)
    curve = wrapper_curve(shown, Fixed("w", np.arange(size, 0, -1.0)),
                          learner=NN_VOTE, folds=folds, protocol="paper",
                          random_state=seed)[0]
    return dict(s=s, u=u, R=r_level, acc=curve.mean_accuracy[n_top - 1],
                curve=curve.mean_accuracy)


def interval(values):
    """(mean, half-width of the 95 % t-interval)."""
    values = np.asarray(values, dtype=float)
    if len(values) < 2:
        return float(values.mean()), 0.0
    from scipy.stats import t
    half = t.ppf(0.975, len(values) - 1) * values.std(ddof=1) \
        / math.sqrt(len(values))
    return float(values.mean()), float(half)


def run(sizes, methods, data_dir, quick, sigma, damping="auto", log=print):
    """results[benchmark][step label][method] = list over seeds of measures."""
    results, seconds = {}, {m: 0.0 for m in methods}
    for bench, (_, steps, make) in benchmarks(sizes, data_dir,
                                              quick).items():
        results[bench] = {}
        for label, _, step in steps:
            per = results[bench][label] = {m: [] for m in methods}
            started = time.perf_counter()
            for seed in range(sizes["seeds"]):
                table = make(step, seed)
                X, y = table.X, table.Y
                nominal = np.ones(X.shape[1], bool)
                for method in methods:
                    t0 = time.perf_counter()
                    weights, details = run_method(method, X, y, nominal,
                                                  seed, sigma, damping)
                    seconds[method] += time.perf_counter() - t0
                    found = measures(table, weights, sizes["folds"], seed,
                                     CURVE_SIZE if label == steps[-1][0]
                                     else 0)
                    found.update(details)
                    per[method].append(found)
            log(f"  {bench}, {label}: {time.perf_counter() - started:.1f} s")
    return results, seconds


SIGMAS = (0.5, 1, 2, 4, 8, 16)


def sigma_scan(sizes, data_dir, quick, max_iterations, damping="auto"):
    """I-RELIEF at each kernel width of SIGMAS on the first and last step of
    every benchmark (seed 0): {(benchmark, step): [(sigma, iterations,
    converged, s)]}."""
    scan = {}
    sigmas = SIGMAS[::3] if quick else SIGMAS
    for bench, (_, steps, make) in benchmarks(sizes, data_dir,
                                              quick).items():
        for label, _, step in (steps[0], steps[-1]):
            table = make(step, 0)
            rows = scan[bench, label] = []
            for sigma in sigmas:
                result = irelief(table.X, table.Y,
                                 np.ones(table.X.shape[1], bool),
                                 sigma=sigma, max_iterations=max_iterations,
                                 damping=damping)
                rows.append((sigma, result.iterations, result.converged,
                             measures(table, result.weights, 2, 0)["s"]))
    return scan


def scan_report(scan, max_iterations):
    sigmas = [sigma for sigma, *_ in next(iter(scan.values()))]
    lines = ["### I-RELIEF's kernel width (seed 0; iterations, * = not "
             f"converged in {max_iterations}; s)", "",
             "| benchmark | step | " + " | ".join(
                 f"σ = {s:g}" for s in sigmas) + " |",
             "|---|---|" + "---|" * len(sigmas)]
    for (bench, label), rows in scan.items():
        lines.append(f"| {bench} | {label} | " + " | ".join(
            f"{its}{'' if ok else '*'}; {s:.2f}" for _, its, ok, s in rows)
            + " |")
    return "\n".join(lines) + "\n"


def fmt(values, digits=3):
    mean, half = interval(values)
    return f"{mean:.{digits}f} ± {half:.{digits}f}"


def report(results, seconds, methods, sizes, sigma, command, elapsed,
           damping="auto"):
    """The markdown of doc/redundancy.md's tables."""
    lines = [
        f"Generated by `{command}` in {elapsed:.0f} s on "
        f"{os.cpu_count()} cores (Python {platform.python_version()}, "
        f"load average at the end "
        f"{' '.join(f'{v:.1f}' for v in os.getloadavg())}); "
        f"{sizes['seeds']} seeds, each a fresh sample (CorrAl "
        f"{sizes['corral_rows']} of 160 rows, LED {sizes['led_rows']} rows, "
        f"Modulo-4-3 {sizes['modulo_rows']} rows, GAMETES "
        f"{sizes['gametes_rows']} of 1600 rows), k_nearest = 10, "
        f"I-RELIEF sigma = {sigma:g}, damping = {damping} (at most "
        f"{IRELIEF_ITERATIONS} iterations); intervals are 95 % t-intervals of the "
        f"mean over the seeds.", ""]
    for bench, steps in results.items():
        lines += [f"### {bench}", "",
                  "| step | method | s | u | R′ top-\\|I\\| | "
                  "1-NN acc. top-\\|I\\| |", "|---|---|---|---|---|---|"]
        for label, per in steps.items():
            for method in methods:
                rows = per[method]
                lines.append(
                    f"| {label} | {method} | "
                    f"{fmt([r['s'] for r in rows])} | "
                    f"{fmt([r['u'] for r in rows])} | "
                    f"{fmt([r['R'] for r in rows])} | "
                    f"{fmt([r['acc'] for r in rows])} |")
        lines.append("")
    lines += ["### Convergence: I-RELIEF's iterations and Iter's runs", "",
              "| benchmark | step | I-RELIEF iterations (median, max) | "
              "I-RELIEF converged | I-RELIEF damped | Iter(ReliefF) runs | "
              "Iter(dReliefF) runs |",
              "|---|---|---|---|---|---|---|"]
    for bench, steps in results.items():
        for label, per in steps.items():
            cells = []
            if "I-RELIEF" in per:
                its = [r["iterations"] for r in per["I-RELIEF"]]
                conv = sum(r["converged"] for r in per["I-RELIEF"])
                damped = sum(r["damped"] for r in per["I-RELIEF"])
                cells += [f"{np.median(its):g}, {max(its)}",
                          f"{conv}/{len(its)}", f"{damped}/{len(its)}"]
            else:
                cells += ["", "", ""]
            for name in ("Iter(ReliefF)", "Iter(dReliefF)"):
                cells.append(f"{np.mean([r['runs'] for r in per[name]]):.1f}"
                             if name in per else "")
            lines.append(f"| {bench} | {label} | " + " | ".join(cells) + " |")
    lines += ["", "### Time (all benchmarks and seeds)", "",
              "| method | seconds |", "|---|---|"]
    lines += [f"| {m} | {seconds[m]:.1f} |" for m in methods]
    return "\n".join(lines) + "\n"


def wins(results, methods):
    """For each benchmark step: the best mean s, and where each seed
    variant's s interval lies wholly above or below ReliefF's."""
    out = []
    for bench, steps in results.items():
        for label, per in steps.items():
            means = {m: interval([r["s"] for r in per[m]]) for m in methods}
            best = max(methods, key=lambda m: means[m][0])
            out.append((bench, label, best, means))
    return out


def plot(results, methods, path, axes_labels):
    """s against the redundancy step (top) and the 1-NN wrapper curve at the
    last step (bottom), one column per benchmark."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    benches = list(results)
    fig, axes = plt.subplots(2, len(benches), figsize=(4.2 * len(benches),
                                                       7.4))
    colours = plt.get_cmap("tab10")
    for col, bench in enumerate(benches):
        steps = list(results[bench])
        ax = axes[0, col]
        for i, method in enumerate(methods):
            stats = [interval([r["s"] for r in results[bench][s][method]])
                     for s in steps]
            ax.errorbar(np.arange(len(steps)) + (i - 3.5) * 0.03,
                        [m for m, _ in stats], [h for _, h in stats],
                        label=method, color=colours(i), marker="o",
                        markersize=3, capsize=2,
                        linestyle="-" if method in SEED_VARIANTS else "--")
        ax.axhline(0, color="grey", linewidth=0.6)
        xlabel, ticks = axes_labels[bench]
        ax.set_xticks(range(len(steps)))
        ax.set_xticklabels(ticks)
        ax.set_xlabel(xlabel, fontsize=8)
        ax.set_title(bench)
        ax.set_ylabel("separability s")
        ax = axes[1, col]
        last = steps[-1]
        for i, method in enumerate(methods):
            curves = np.array([r["curve"]
                               for r in results[bench][last][method]])
            ax.plot(np.arange(1, curves.shape[1] + 1), curves.mean(axis=0),
                    color=colours(i), label=method,
                    linestyle="-" if method in SEED_VARIANTS else "--")
        ax.set_xlabel("top-weighted features used")
        ax.set_ylabel("1-NN accuracy")
        ax.set_title(f"{bench}: {last}", fontsize=8)
    axes[0, 0].legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


START, END = "<!-- generated: start -->", "<!-- generated: end -->"


def write_generated(path, text):
    """Write ``text`` to ``path``, or where the file has the markers START
    and END (doc/redundancy.md: the discussion around the tables), between
    them."""
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    if START in old and END in old:
        head, rest = old.split(START, 1)
        text = f"{head}{START}\n{text}{END}{rest.split(END, 1)[1]}"
    path.write_text(text, encoding="utf-8")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="tiny data, 2 seeds, two steps each (a smoke "
                             "test)")
    parser.add_argument("--seeds", type=int, default=None,
                        help="seeds (default 10; 2 with --quick)")
    parser.add_argument("--methods", nargs="+", default=list(METHODS),
                        choices=METHODS)
    parser.add_argument("--sigma", type=float, default=None,
                        help="I-RELIEF's kernel width (default: irelief's)")
    parser.add_argument("--damping", default="auto",
                        help="I-RELIEF's damping: auto (damp an "
                        "oscillation, the default), none (Sun's iteration) "
                        "or a fraction in (0, 1]")
    parser.add_argument("--data-dir", default=str(ROOT.parent / "shared" /
                                                  "data"),
                        help="where the GAMETES file is")
    parser.add_argument("--scan-iterations", type=int, default=None,
                        help="I-RELIEF's iterations at most in the kernel "
                             "width scan (default 200; 20 with --quick; 0: "
                             "no scan)")
    parser.add_argument("--out", help="write the tables (markdown) here")
    parser.add_argument("--plot", help="write the plot (PNG) here")
    args = parser.parse_args(argv)
    sizes = dict(QUICK if args.quick else FULL)
    if args.seeds is not None:
        sizes["seeds"] = args.seeds
    from inspect import signature
    sigma = args.sigma if args.sigma is not None else \
        signature(irelief).parameters["sigma"].default
    damping = {"auto": "auto", "none": None}[args.damping] \
        if args.damping in ("auto", "none") else float(args.damping)
    command = "python benchmarks/redundancy.py " + " ".join(
        argv if argv is not None else sys.argv[1:])
    started = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results, seconds = run(sizes, args.methods, args.data_dir,
                               args.quick, sigma, damping,
                               log=lambda text: print(text, file=sys.stderr))
        scan_iterations = args.scan_iterations if args.scan_iterations \
            is not None else (20 if args.quick else IRELIEF_ITERATIONS)
        scan = sigma_scan(sizes, args.data_dir, args.quick,
                          scan_iterations, damping) \
            if scan_iterations else None
    elapsed = time.perf_counter() - started
    text = report(results, seconds, args.methods, sizes, sigma,
                  command.strip(), elapsed, args.damping)
    if scan is not None:
        text += "\n" + scan_report(scan, scan_iterations)
    if args.out:
        write_generated(Path(args.out), text)
    else:
        print(text)
    if args.plot:
        plot(results, args.methods, args.plot, {
            bench: (xlabel, [tick for _, tick, _ in steps])
            for bench, (xlabel, steps, _) in benchmarks(
                sizes, args.data_dir, args.quick).items()})
    for bench, label, best, _ in wins(results, args.methods):
        print(f"{bench}, {label}: highest mean s: {best}", file=sys.stderr)
    return results


if __name__ == "__main__":
    main()
