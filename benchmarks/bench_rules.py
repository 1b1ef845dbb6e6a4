"""The neighbourhood rules against the peers, on the same data in one run
(issue 23).

    pip install skrebate==0.8.4 fast-select==0.3.0
    python benchmarks/bench_rules.py [--sizes cont:2000x100 cont:5000x200
        cont:10000x500 gametes:1600x1000] [--rounds 3] [--skrebate-max 200000]

For every data set (``bench_relieff.make_dataset``: uniform numeric data with
a noisy class from two features, or the GAMETES file of shared/data) and
every rule (SURF, SURF*, MultiSURF, MultiSURF*): this engine
(``core.relieff(neighbours=rule)``, compiled kernels, all cores),
fast-select 0.3.0 (CPU backend, ``n_jobs=-1``; warmed on a few rows first,
as it compiles in each process) and skrebate 0.8.4 (``n_jobs=-1``; only
where n · a <= ``--skrebate-max``: it is pure Python per instance), plus this
engine's ReliefF (k = 10).  Rounds are interleaved; the minimum of
``--rounds`` is printed, with the ratios fast-select / ours and ours /
ours-ReliefF, and the largest weight difference and Spearman correlation
to each peer (their definitions differ in places:
doc/neighbourhood_rules_notes.md).
"""
import argparse
import os
import sys
import time
import warnings
from pathlib import Path
from types import SimpleNamespace

import numpy as np
from scipy.stats import spearmanr

os.environ.setdefault("ORANGE3_RELIEF_KERNELS", "compiled")
os.environ.setdefault("ORANGE3_RELIEF_WARMUP", "0")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_relieff import make_dataset  # noqa: E402
from rules_peers import fast_select_estimator  # noqa: E402

from orangecontrib.relief.core import relieff  # noqa: E402

RULES = ("surf", "surf*", "multisurf", "multisurf*")
GAMETES = HERE.parents[1] / "shared" / "data" / \
    "GAMETES_Epistasis_2-Way_1000atts_0.4H_EDM-1_EDM-1_1.tsv"


def runners(rule, X, y, nominal, skrebate_ok):
    """{name: fit() -> weights} for one rule."""
    peer_args = SimpleNamespace(k=10, jobs=-1, turf=None)
    out = {"ours": lambda: relieff(X, y, nominal, neighbours=rule).weights}
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
                est = cls(n_features_to_select=X.shape[1], n_jobs=-1)
                est.fit(X.copy(), y.copy())
                return np.asarray(est.feature_importances_, float)
            out["skrebate"] = skre
        except ImportError:
            pass
    return out


def agreement(ours, theirs):
    rho = spearmanr(ours, theirs)[0]
    return f"{np.max(np.abs(ours - theirs)):.2g} / {rho:.4f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+",
                        default=["cont:2000x100", "cont:5000x200",
                                 "cont:10000x500", "gametes:1600x1000"])
    parser.add_argument("--rules", nargs="+", default=list(RULES))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--skrebate-max", type=int, default=200_000,
                        help="largest n * a given to skrebate")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    print("| data | rule | ours | ours / ours ReliefF | fast-select | "
          "fast-select / ours | skrebate | skrebate / ours | max diff / "
          "Spearman vs fast-select | vs skrebate |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for spec in args.sizes:
        data = make_dataset(spec, 0, str(GAMETES))
        X, y, nominal = data["X"], data["y"], data["nominal"]
        n, a = X.shape
        base = lambda: relieff(X, y, nominal).weights    # noqa: E731
        base()
        for rule in args.rules:
            fits = runners(rule, X, y, nominal, n * a <= args.skrebate_max)
            fits["ReliefF"] = base
            best = {name: np.inf for name in fits}
            weights = {}
            for name, fit in fits.items():      # compile, and the weights
                weights[name] = fit()
            for _ in range(args.rounds):
                for name, fit in fits.items():
                    if name == "skrebate" and _ > 0:
                        continue                # (minutes: once is enough)
                    started = time.perf_counter()
                    fit()
                    best[name] = min(best[name],
                                     time.perf_counter() - started)
            ours = best["ours"]

            def cell(name):
                if name not in best:
                    return "–", "–"
                return f"{best[name]:.3f} s", f"{best[name] / ours:.2f}"
            fs, fs_ratio = cell("fast-select")
            sk, sk_ratio = cell("skrebate")
            print(f"| {spec.split(':')[1]} ({spec.split(':')[0]}) | {rule} "
                  f"| {ours:.3f} s | {ours / best['ReliefF']:.2f} | {fs} | "
                  f"{fs_ratio} | {sk} | {sk_ratio} | "
                  f"{agreement(weights['ours'], weights['fast-select']) if 'fast-select' in weights else '–'} | "
                  f"{agreement(weights['ours'], weights['skrebate']) if 'skrebate' in weights else '–'} |",
                  flush=True)


if __name__ == "__main__":
    main()
