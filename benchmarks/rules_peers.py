"""Weights and run times of the peers' neighbourhood rules on one data file.

Prints, for one rule, the feature weights of skrebate and fast-select side by
side with the time of one run each (same data, same process), and optionally
the naive reference of tests/rules_reference.py with the largest difference
and the Spearman correlation to each peer.  Meant to be reused for the speed
comparison once the engine has the rules.

    python benchmarks/rules_peers.py FILE [--rule surf|surf*|multisurf|multisurf*|relieff]
        [--k 10] [--rows N] [--seed 0] [--turf PCT [--turf-keep K]]
        [--jobs 1] [--reference] [--no-warmup]

FILE is a tab-separated file with a header row, numeric cells (NA or empty =
missing) and the class in the last column, as in shared/data.  Examples, from
the repository root with the development environment (pip install
skrebate==0.8.4 fast-select==0.3.0):

    python benchmarks/rules_peers.py ../shared/data/GAMETES_Epistasis_2-Way_20atts_0.4H_EDM-1_1.tsv \
        --rule multisurf --rows 400 --reference
    python benchmarks/rules_peers.py ../shared/data/GAMETES_Epistasis_2-Way_1000atts_0.4H_EDM-1_EDM-1_1.tsv \
        --rule surf* --jobs 2
    python benchmarks/rules_peers.py ../shared/data/GAMETES_Epistasis_2-Way_20atts_0.4H_EDM-1_1.tsv \
        --rule surf --turf 0.2 --turf-keep 5

What is compared (doc/neighbourhood_rules_notes.md): skrebate's classes SURF,
SURFstar, MultiSURF, MultiSURFstar, ReliefF (n_neighbors=k) and TURF(pct,
num_scores_to_return); fast-select's SURF(use_star), MultiSURF(use_star),
ReliefF(n_neighbors=k) and TuRF(pct_remove, n_features_to_select), CPU
backend.  fast-select compiles its numba kernels in each new process: by
default one untimed run on 10 rows of each class compiles them first
(--no-warmup to time the first call).  fast-select pools the misses of all
other classes; the reference is then run with misses="any" for it, and with
ReliefF's per-class misses for skrebate.  fast-select rejects missing values
and regression targets; its column then reads "n/a" with the reason.
"""
import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
RULES = ("surf", "surf*", "multisurf", "multisurf*", "relieff")


def load(path, rows=None, seed=0):
    with open(path) as fh:
        header = fh.readline().rstrip("\n").split("\t")
    data = np.genfromtxt(path, delimiter="\t", skip_header=1,
                         missing_values=("NA", ""), filling_values=np.nan)
    if data.ndim != 2 or np.isnan(data[:, -1]).all():
        sys.exit(f"{path}: expected numeric tab-separated cells")
    if rows is not None and rows < len(data):
        pick = np.random.default_rng(seed).choice(len(data), rows,
                                                  replace=False)
        data = data[np.sort(pick)]
    return header[:-1], data[:, :-1], data[:, -1]


def skrebate_weights(rule, X, y, args):
    import skrebate
    if rule == "relieff":
        est = skrebate.ReliefF(n_features_to_select=X.shape[1],
                               n_neighbors=args.k, n_jobs=args.jobs)
    else:
        cls = {"surf": skrebate.SURF, "surf*": skrebate.SURFstar,
               "multisurf": skrebate.MultiSURF,
               "multisurf*": skrebate.MultiSURFstar}[rule]
        est = cls(n_features_to_select=X.shape[1], n_jobs=args.jobs)
    if args.turf is not None:
        est = skrebate.TURF(est, pct=args.turf,
                            num_scores_to_return=args.turf_keep)
    start = time.perf_counter()
    est.fit(X.copy(), y.copy())
    return np.asarray(est.feature_importances_, float), \
        time.perf_counter() - start


def fast_select_estimator(rule, n_features, args):
    import fast_select as fs
    jobs = -1 if args.jobs == -1 else args.jobs
    if rule == "relieff":
        est = fs.ReliefF(n_features_to_select=n_features,
                         n_neighbors=args.k, backend="cpu", n_jobs=jobs)
    else:
        cls = fs.SURF if rule.startswith("surf") else fs.MultiSURF
        est = cls(n_features_to_select=n_features,
                  use_star=rule.endswith("*"), backend="cpu", n_jobs=jobs)
    if args.turf is not None:
        est = fs.TuRF(est, n_features_to_select=args.turf_keep,
                      pct_remove=args.turf)
    return est


def fast_select_weights(rule, X, y, args):
    if not args.no_warmup:
        small = fast_select_estimator(rule, X.shape[1], args)
        # up to 10 rows of every class, so that the kernels do run
        rows = np.concatenate([np.flatnonzero(y == c)[:10]
                               for c in np.unique(y)])
        try:
            small.fit(X[rows], y[rows])
        except Exception:            # a warm-up on too few rows may refuse
            pass
    est = fast_select_estimator(rule, X.shape[1], args)
    start = time.perf_counter()
    est.fit(X, y)
    elapsed = time.perf_counter() - start
    w = np.asarray(est.feature_importances_, float)
    if args.turf is not None:
        # fast-select's TuRF keeps the first iteration's scores in
        # feature_importances_; its result is the set top_features_.
        kept = np.zeros(X.shape[1], bool)
        kept[est.top_features_] = True
        w = np.where(kept, w, np.nan)
    return w, elapsed


def reference_weights(rule, X, y, misses, args):
    sys.path.insert(0, str(ROOT / "tests"))
    from rules_reference import reference_rules, reference_turf
    from reference import reference_relief
    nominal = [len(np.unique(c[~np.isnan(c)])) <= 10 for c in X.T]
    start = time.perf_counter()
    if args.turf is not None:
        w, _ = reference_turf(X, y, nominal, rule=rule,
                              remove_fraction=args.turf,
                              n_iterations=X.shape[1], n_keep=args.turf_keep,
                              misses=misses)
    elif rule == "relieff":
        w = reference_relief(X, y, nominal, k=args.k, misses=misses)
    else:
        w = reference_rules(X, y, nominal, rule=rule, misses=misses)
    return w, time.perf_counter() - start


def run(peer, *call):
    try:
        return peer(*call)
    except ImportError as exc:
        return None, f"not installed ({exc.name})"
    except Exception as exc:          # the peer's refusal, reported as such
        return None, f"{type(exc).__name__}: {exc}"


def compare(ref, peer):
    from scipy.stats import spearmanr
    ok = ~np.isnan(ref) & ~np.isnan(peer)
    if ok.sum() < 2:
        return "n/a"
    rho = spearmanr(ref[ok], peer[ok])[0]
    return f"max|diff| {np.max(np.abs(ref[ok] - peer[ok])):.3g}, " \
        f"Spearman {rho:.6f}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file")
    ap.add_argument("--rule", choices=RULES, default="surf")
    ap.add_argument("--k", type=int, default=10,
                    help="neighbours for --rule relieff")
    ap.add_argument("--rows", type=int, help="a random subsample of rows")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--turf", type=float, metavar="PCT",
                    help="wrap the rule in TuRF removing PCT per iteration")
    ap.add_argument("--turf-keep", type=int, default=10,
                    help="features TuRF keeps (skrebate num_scores_to_return, "
                         "fast-select n_features_to_select)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="threads/processes for the peers (-1: all)")
    ap.add_argument("--reference", action="store_true",
                    help="also run the naive reference (slow: a few hundred "
                         "rows at most)")
    ap.add_argument("--no-warmup", action="store_true")
    args = ap.parse_args(argv)

    names, X, y = load(args.file, args.rows, args.seed)
    print(f"{args.file}: {X.shape[0]} rows x {X.shape[1]} features, "
          f"{len(np.unique(y))} class values, "
          f"{int(np.isnan(X).sum())} missing cells; rule {args.rule}"
          + (f", TuRF pct {args.turf} keep {args.turf_keep}"
             if args.turf is not None else ""))

    columns = {}
    times = {}
    columns["skrebate"], times["skrebate"] = run(
        skrebate_weights, args.rule, X, y, args)
    columns["fast-select"], times["fast-select"] = run(
        fast_select_weights, args.rule, X, y, args)
    if args.reference:
        columns["reference"], times["reference"] = run(
            reference_weights, args.rule, X, y, "per_class", args)
        if len(np.unique(y)) > 2 and args.turf is None:
            columns["reference any"], times["reference any"] = run(
                reference_weights, args.rule, X, y, "any", args)

    shown = [k for k, v in columns.items() if v is not None]
    print()
    print("| feature | " + " | ".join(shown) + " |")
    print("|---|" + "---:|" * len(shown))
    for f, name in enumerate(names):
        cells = []
        for k in shown:
            v = columns[k][f]
            cells.append("" if math.isnan(v) else f"{v:.6g}")
        print(f"| {name} | " + " | ".join(cells) + " |")
    print()
    for k, t in times.items():
        print(f"{k}: " + (f"{t:.3f} s" if isinstance(t, float) else t))
    if args.turf is not None:
        print("(TuRF: skrebate gives eliminated features tier scores below "
              "the survivors; fast-select's column shows its first-iteration "
              "scores of the features it keeps)")
    if columns.get("reference") is not None:
        print()
        for k in ("skrebate", "fast-select"):
            if columns.get(k) is None:
                continue
            ref_key = "reference any" if (k == "fast-select" and
                                          "reference any" in columns) \
                else "reference"
            print(f"{k} vs {ref_key}: "
                  f"{compare(columns[ref_key], columns[k])}")


if __name__ == "__main__":
    main()
