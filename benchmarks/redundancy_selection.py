"""Does a selection keep the same thing twice?  The top-r sets of the Relief
family, mRMR, BELIEF's selection and the non-redundant selection on the seed's benchmarks with
redundancy added in steps, and on its real tables (issue 42, item 4;
doc/redundancy.md, "Non-redundant selection").

    python benchmarks/redundancy_selection.py --out doc/redundancy.md \\
        --plot doc/images/redundancy_selection.png     # the full run
    python benchmarks/redundancy_selection.py --quick  # a smoke test

Benchmarks (r = the number of relevant features; 5 on the real tables):

* Modulo-4-3 with 6 random features: no copies, one exact copy of each of
  I1..I3, two noisy copies (10 %) of each;
* LED (17 irrelevant bits): 0, 1, 2 exact copies of each segment;
* GAMETES (20 SNPs, P1 x P2 epistasis, 800 of 1600 rows): 0 and 1 noisy
  copy (10 %) of P1 and P2: an interacting pair, both to be kept;
* Numeric: three uniform features whose sum decides the class, ten
  irrelevant ones, and then an exact copy of the first, a monotone
  nonlinear copy exp(3 x) of the second and a nominal discretisation
  (4 bins) of the third;
* promoters and lung cancer (the seed's real tables), as they are.

Measures per method and seed, then mean +- 95 % t-interval over the seeds:
``dup``, the share of the top r that repeats a group already in it (a copy
with its original, or two copies); ``R'``, the seed's redundancy level of
each of the top r within them (discrete tables without missing values);
``acc``, 1-NN accuracy with the top r (``evaluation.wrapper_curve``, the
``NN_VOTE`` learner on discrete tables, Orange's 1-NN on numeric ones,
5 folds, weights on all rows as in the seed).
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from Orange.classification import KNNLearner  # noqa: E402
from Orange.data import (ContinuousVariable, DiscreteVariable,  # noqa: E402
                         Domain, Table)

import redundancy as head_to_head  # noqa: E402  (benchmarks/redundancy.py)
from orangecontrib.relief.core import ranking, relieff  # noqa: E402
from orangecontrib.relief.datasets import (led, lung_cancer,  # noqa: E402
                                           modulo, promoters)
from orangecontrib.relief.datasets.redundant import with_copies  # noqa: E402
from orangecontrib.relief.evaluation import (  # noqa: E402
    NN_VOTE, redundancy_level, wrapper_curve)
from orangecontrib.relief.stats.redundancy import relief_redundancy  # noqa: E402

METHODS = ("ReliefF", "dReliefF", "pdReliefF", "pd-linear", "pd-logistic",
           "I-RELIEF", "TuRF", "VLS", "mRMR", "BELIEF", "ReliefF-nonred")
FULL = dict(seeds=10, led_rows=1000, modulo_rows=1000, gametes_rows=800,
            numeric_rows=600, folds=5)
QUICK = dict(seeds=2, led_rows=200, modulo_rows=200, gametes_rows=200,
             numeric_rows=200, folds=3)
MRMR_BINS = 5


def numeric_table(rows, copies, seed):
    """Three relevant uniform features (class: their sum > 1.5), ten
    irrelevant ones; with ``copies``, an exact copy of x0, exp(3 x1) and
    x2 in four bins (nominal), each marked ``copy_of``."""
    rng = np.random.default_rng(seed)
    X = rng.random((rows, 13))
    y = (X[:, :3].sum(axis=1) > 1.5).astype(float)
    names = ["x0", "x1", "x2"] + [f"noise{i}" for i in range(10)]
    attributes = [ContinuousVariable(name) for name in names]
    for var in attributes[:3]:
        var.attributes["relevant"] = True
    if copies:
        X = np.column_stack([X, X[:, 0], np.exp(3 * X[:, 1]),
                             np.floor(X[:, 2] * 4)])
        for name, of in (("x0_copy", "x0"), ("x1_exp", "x1")):
            var = ContinuousVariable(name)
            var.attributes["copy_of"] = of
            attributes.append(var)
        var = DiscreteVariable("x2_bins", values=("0", "1", "2", "3"))
        var.attributes["copy_of"] = "x2"
        attributes.append(var)
    domain = Domain(attributes, DiscreteVariable("class", values=("0", "1")))
    return Table.from_numpy(domain, X, y)


def benchmarks(sizes, data_dir, quick):
    """{name: (r, [(step label, make(seed) -> Table)])}."""
    def modulo_step(kind):
        def make(seed):
            base = modulo(4, 3, 6, sizes["modulo_rows"], random_state=seed)
            if kind == "exact":
                return with_copies(base, ["I1", "I2", "I3"], 1, 0.0, seed)
            if kind == "noisy":
                return with_copies(base, ["I1", "I2", "I3"], 2, 0.1, seed)
            return base
        return make

    def led_step(copies):
        return lambda seed: with_copies(
            led(n_instances=sizes["led_rows"], random_state=seed),
            [f"seg{i}" for i in range(1, 8)], copies, 0.0, seed)

    gametes_file = Path(data_dir) / head_to_head.GAMETES
    gametes = head_to_head.gametes_table(data_dir) \
        if gametes_file.exists() else None

    def gametes_step(copies):
        return lambda seed: with_copies(
            head_to_head.subsample(gametes, sizes["gametes_rows"], seed),
            ["P1", "P2"], copies, 0.1, seed)

    def real(load):
        table = load()
        return lambda seed: table

    found = {
        "Modulo-4-3": (3, [("none", modulo_step(None)),
                           ("1 exact", modulo_step("exact")),
                           ("2 noisy", modulo_step("noisy"))]),
        "LED": (7, [(f"{c} exact", led_step(c))
                    for c in ((0, 2) if quick else (0, 1, 2))]),
        "Numeric": (3, [("none", lambda s: numeric_table(
                            sizes["numeric_rows"], False, s)),
                        ("exact+exp+bins", lambda s: numeric_table(
                            sizes["numeric_rows"], True, s))]),
    }
    if gametes is not None:
        found["GAMETES"] = (2, [(f"{c} noisy", gametes_step(c))
                                for c in (0, 1)])
    if not quick:
        found["promoters"] = (5, [("as is", real(promoters))])
        found["lung cancer"] = (5, [("as is", real(lung_cancer))])
    return found


def entropy(*columns):
    """Joint entropy (nats) of integer columns."""
    _, counts = np.unique(np.column_stack(columns), axis=0,
                          return_counts=True)
    p = counts / counts.sum()
    return float(-(p * np.log(p)).sum())


def mutual_information(a, b):
    return entropy(a) + entropy(b) - entropy(a, b)


def mrmr(table, r):
    """mRMR (Peng et al. 2005, MID): greedily the feature with the largest
    I(f; C) - mean over the chosen g of I(f; g); numeric features in
    ``MRMR_BINS`` quantile bins, a missing value as a value of its own."""
    columns = []
    for j, var in enumerate(table.domain.attributes):
        x = table.X[:, j]
        if var.is_continuous:
            edges = np.nanquantile(x, np.linspace(0, 1, MRMR_BINS + 1)[1:-1])
            x = np.digitize(x, edges)
        columns.append(np.where(np.isnan(x), -1, x).astype(int))
    y = table.Y.astype(int)
    relevance = np.array([mutual_information(c, y) for c in columns])
    chosen = [int(np.argmax(relevance))]
    while len(chosen) < min(r, len(columns)):
        best, best_score = None, -np.inf
        for j in range(len(columns)):
            if j in chosen:
                continue
            score = relevance[j] - np.mean(
                [mutual_information(columns[j], columns[g]) for g in chosen])
            if score > best_score:
                best, best_score = j, score
        chosen.append(best)
    return np.array(chosen)


def scaled(values):
    """``values`` min-max scaled to [0, 1] (all zeros when constant)."""
    lo, hi = np.min(values), np.max(values)
    return (values - lo) / (hi - lo) if hi > lo else np.zeros_like(values)


def belief(table, r, seed, k=10):
    """BELIEF's selection (Ramirez-Gallego et al. 2021): greedily the
    feature with the largest relevance - mean redundancy with the chosen,
    as its Spark code does; relevance = ReliefF's weights, redundancy = the
    collision measure of ``redundancy_measures.collisions``, each min-max
    scaled to [0, 1] over the features (pairs), as the Spark code scales
    its redundancy matrix, so that neither term swamps the other."""
    import redundancy_measures  # here: it imports this module
    X, y = table.X, table.Y
    nominal = np.array([v.is_discrete for v in table.domain.attributes])
    relevance = scaled(relieff(X, y, nominal, k_nearest=k,
                               random_state=seed).weights)
    everything = np.arange(X.shape[1])
    cosine = redundancy_measures.collisions(X, y, nominal, everything, k)
    off = ~np.eye(len(everything), dtype=bool)
    redundancy = np.zeros_like(cosine)
    redundancy[off] = scaled(cosine[off])
    chosen = [int(np.argmax(relevance))]
    while len(chosen) < min(r, len(everything)):
        score = relevance - redundancy[:, chosen].mean(axis=1)
        score[chosen] = -np.inf
        chosen.append(int(np.argmax(score)))
    return np.array(chosen)


def top_r(method, table, r, seed):
    """The r features ``method`` selects, best first."""
    X, y = table.X, table.Y
    nominal = np.array([v.is_discrete for v in table.domain.attributes])
    k = dict(k_nearest=10, random_state=seed)
    if method == "mRMR":
        return mrmr(table, r)
    if method == "BELIEF":
        return belief(table, r, seed)
    if method == "ReliefF-nonred":
        return relief_redundancy(X, y, nominal, **k).select(r)[0]
    if method in ("pd-linear", "pd-logistic"):
        variant = "pdrelieff-" + method[3:]
        return ranking(relieff(X, y, nominal, variant=variant,
                               **k).weights)[:r]
    weights, _ = head_to_head.run_method(method, X, y, nominal, seed, 2.0)
    return ranking(weights)[:r]


def measures(table, chosen, folds, seed):
    """dup, R' and 1-NN accuracy of the features ``chosen`` (best first)."""
    attributes = table.domain.attributes
    groups = [attributes[i].attributes.get("copy_of", attributes[i].name)
              for i in chosen]
    dup = 1 - len(set(groups)) / len(chosen)
    subset = table.transform(Domain([attributes[i] for i in chosen],
                                    table.domain.class_var))
    r_level = np.nan
    discrete = all(v.is_discrete for v in subset.domain.attributes)
    if discrete and not np.isnan(subset.X).any():
        r_level = float(np.mean([redundancy_level(subset, v.name)
                                 for v in subset.domain.attributes]))
    order = head_to_head.Fixed("w", np.arange(len(chosen), 0, -1.0))
    learner = NN_VOTE if discrete else KNNLearner(n_neighbors=1)
    curve = wrapper_curve(subset, order, learner=learner, folds=folds,
                          protocol="paper", random_state=seed)[0]
    return dict(dup=dup, R=r_level, acc=float(curve.mean_accuracy[-1]))


def run(sizes, methods, data_dir, quick, log=print):
    """{(benchmark, step): {method: {measure: [per seed]}}} and the seconds
    each method took in all."""
    results, seconds = {}, dict.fromkeys(methods, 0.0)
    for name, (r, steps) in benchmarks(sizes, data_dir, quick).items():
        for label, make in steps:
            cell = results[(name, label, r)] = {m: {} for m in methods}
            for seed in range(sizes["seeds"]):
                table = make(seed)
                for method in methods:
                    started = time.perf_counter()
                    chosen = top_r(method, table, r, seed)
                    seconds[method] += time.perf_counter() - started
                    for key, value in measures(table, chosen, sizes["folds"],
                                               seed).items():
                        cell[method].setdefault(key, []).append(value)
            log(f"{name} {label}: done")
    return results, seconds


def shown(values):
    values = np.asarray(values, dtype=float)
    if np.isnan(values).all():
        return "—"
    mean, half = head_to_head.interval(values)
    return f"{mean:.2f} ± {half:.2f}"


def report(results, seconds, methods, sizes, command, elapsed):
    lines = [f"Command: `{command}` ({sizes['seeds']} seeds, {elapsed:.0f} s "
             f"in all).", ""]
    for key, title in (("dup", "Share of the top r that repeats a group "
                               "already in it (0 = no copy kept twice)"),
                       ("R", "R′ of the top r within them (mean)"),
                       ("acc", "1-NN accuracy with the top r")):
        lines += [f"**{title}**", "",
                  "| benchmark | step | r | " + " | ".join(methods) + " |",
                  "|---|---|---|" + "---|" * len(methods)]
        for (name, label, r), cell in results.items():
            lines.append(f"| {name} | {label} | {r} | " + " | ".join(
                shown(cell[m][key]) for m in methods) + " |")
        lines.append("")
    lines.append("Seconds per method (all runs): " + ", ".join(
        f"{m} {seconds[m]:.1f}" for m in methods))
    return "\n".join(lines) + "\n"


def plot(results, methods, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    keys = list(results)
    fig, axes = plt.subplots(2, 1, figsize=(12, 7), sharex=True)
    width = 0.8 / len(methods)
    colours = plt.get_cmap("tab20")  # 11 methods: no colour twice
    for i, method in enumerate(methods):
        for ax, key in zip(axes, ("dup", "acc")):
            means = [np.nanmean(results[k][method][key]) for k in keys]
            ax.bar(np.arange(len(keys)) + i * width, means, width,
                   label=method, color=colours(i % 20))
    axes[0].set_ylabel("share repeated in top r")
    axes[1].set_ylabel("1-NN accuracy, top r")
    axes[1].set_xticks(np.arange(len(keys)) + 0.4)
    axes[1].set_xticklabels([f"{n}\n{s}" for n, s, _ in keys], fontsize=7)
    axes[0].legend(ncol=6, fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


START, END = "<!-- selection: start -->", "<!-- selection: end -->"


def write_section(path, text):
    """Put ``text`` between START and END in ``path`` (appended with the
    markers when they are not there yet)."""
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    if START in old and END in old:
        head, rest = old.split(START, 1)
        new = f"{head}{START}\n{text}{END}{rest.split(END, 1)[1]}"
    else:
        new = f"{old.rstrip()}\n\n{START}\n{text}{END}\n"
    path.write_text(new, encoding="utf-8")


def default_data_dir():
    """The shared data beside the checkout (GAMETES), or /work/shared/data
    from a worktree."""
    beside = ROOT.parent / "shared" / "data"
    return beside if beside.exists() else Path("/work/shared/data")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="tiny data, 2 seeds (a smoke test)")
    parser.add_argument("--seeds", type=int, default=None)
    parser.add_argument("--methods", nargs="+", default=list(METHODS),
                        choices=METHODS)
    parser.add_argument("--data-dir", default=str(default_data_dir()),
                        help="where the GAMETES file is")
    parser.add_argument("--out", default=None,
                        help="write the tables into this markdown file")
    parser.add_argument("--plot", default=None, help="save the plot here")
    args = parser.parse_args(argv)
    sizes = dict(QUICK if args.quick else FULL)
    if args.seeds is not None:
        sizes["seeds"] = args.seeds
    started = time.perf_counter()
    log = (lambda text: print(text, file=sys.stderr))
    results, seconds = run(sizes, args.methods, args.data_dir, args.quick,
                           log)
    command = "python benchmarks/redundancy_selection.py " + " ".join(
        argv if argv is not None else sys.argv[1:])
    text = report(results, seconds, args.methods, sizes, command.strip(),
                  time.perf_counter() - started)
    if args.out:
        write_section(Path(args.out), text)
    else:
        print(text)
    if args.plot:
        plot(results, args.methods, args.plot)
    return results


if __name__ == "__main__":
    main()
