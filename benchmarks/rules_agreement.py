"""Agreement of this engine's neighbourhood rules with skrebate and fast-select
(issue 23): largest |weight difference| and Spearman rank correlation.

    pip install skrebate==0.8.4 fast-select==0.3.0   # peers: not dependencies
    python benchmarks/rules_agreement.py [--rows 600]

Data (no missing values): the GAMETES files of shared/data (a row sample of
``--rows`` for skrebate's sake; features declared nominal, as both peers
treat features with <= 10 values as discrete), CorrAl (nominal) and a random
numeric table (400 x 30, class from two features).  Where a difference has
a known cause, the last column says which peer departs from its paper
(doc/neighbourhood_rules_notes.md).
"""
import argparse
import os
import sys
from pathlib import Path

import numpy as np
from scipy.stats import spearmanr

os.environ.setdefault("ORANGE3_RELIEF_KERNELS", "compiled")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_rules import runners  # noqa: E402
from rules_peers import load  # noqa: E402

DATA = HERE.parents[1] / "shared" / "data"
RULES = ("surf", "surf*", "multisurf", "multisurf*")
CAUSE = {
    ("skrebate", "surf"): "skrebate: SURF radius = mean of the n x n array "
                          "incl. diagonal, T(n-1)/n (paper: mean over pairs)",
    ("skrebate", "surf*"): "skrebate: SURF* radius T(n-1)/n (paper: mean "
                           "over pairs)",
    ("fast-select", "multisurf"): "fast-select: float32 distances and "
                                  "scores (rounding, not a rule)",
    ("fast-select", "multisurf*"): "fast-select: float32 distances and "
                                   "scores (rounding, not a rule)",
}


def datasets(rows):
    for path in sorted(DATA.glob("GAMETES*.tsv")):
        _, X, y = load(path, rows=rows)
        yield path.name, X, y, np.ones(X.shape[1], bool)
    _, X, y = load(DATA / "corral.tsv")
    yield "corral.tsv", X, y, np.ones(X.shape[1], bool)
    rng = np.random.default_rng(0)
    X = rng.random((400, 30))
    y = ((X[:, 0] + X[:, 1] + 0.2 * rng.random(400)) > 1.1).astype(float)
    yield "random 400x30", X, y, np.zeros(30, bool)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=600)
    args = ap.parse_args()
    print("| data | rule | peer | max diff | Spearman | cause of a difference |")
    print("|---|---|---|---|---|---|")
    for name, X, y, nominal in datasets(args.rows):
        for rule in RULES:
            fits = runners(rule, X, y, nominal, True)
            ours = fits.pop("ours")()
            for peer, fit in fits.items():
                w = fit()
                diff = np.max(np.abs(ours - w))
                rho = spearmanr(ours, w)[0]
                cause = CAUSE.get((peer, rule), "") if diff > 1e-6 else ""
                print(f"| {name} | {rule} | {peer} | {diff:.2g} | "
                      f"{rho:.4f} | {cause} |", flush=True)


if __name__ == "__main__":
    main()
