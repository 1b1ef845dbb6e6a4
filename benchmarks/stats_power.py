"""Power of the significance tests on problems with known relevant features
(issue 22).

    python benchmarks/stats_power.py [--permutations 299] [--gametes FILE]

For CorrAl (160 x 6), LED24 (the first 1,000 of the bundled 3,200 rows, 24
features), MONK-1 (the 124 training
rows) and a GAMETES 2-way epistasis file (1,600 x 20 SNPs, P1 and P2
interacting), every variant's permutation test of the class (R = ``--permutations``,
k = 10), the per-feature permutation test (ReliefF by default) and STIR (ReliefF, k = 10 and MultiSURF): how many of the relevant
features have q < 0.05 (Benjamini-Hochberg), and how many of the others.
"""
import argparse
import time
import warnings
from pathlib import Path

import numpy as np

from orangecontrib.relief.datasets import corral, important_features, \
    led24, monk
from orangecontrib.relief.stats import permutation_test, stir

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
GAMETES = SHARED / "GAMETES_Epistasis_2-Way_20atts_0.4H_EDM-1_1.tsv"


def problems(gametes):
    out = []
    for name, table in (("CorrAl", corral()),
                        ("LED24 (first 1,000 rows)", led24()[:1000]),
                        ("MONK-1", monk(1))):
        names = [v.name for v in table.domain.attributes]
        relevant = np.isin(names, important_features(table))
        out.append((name, table.X, table.Y, relevant))
    if Path(gametes).exists():
        data = np.genfromtxt(gametes, delimiter="\t", names=True)
        names = list(data.dtype.names)
        values = np.column_stack([data[c] for c in names])
        out.append(("GAMETES 0.4H", values[:, :-1], values[:, -1],
                    np.isin(names[:-1], ["P1", "P2"])))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # (BH over a features reaches q < 0.05 for k discoveries only when
    # 1 / (R + 1) < 0.05 k / a: 2 of 20 on GAMETES need R > 199)
    parser.add_argument("--permutations", type=int, default=299)
    parser.add_argument("--gametes", default=str(GAMETES))
    parser.add_argument("--feature-variants", nargs="*",
                        default=["relieff"],
                        help="variants whose per-feature permutation test "
                             "is run (a x R refits each)")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    print("| data | test | relevant with q < 0.05 | others with q < 0.05 "
          "| seconds |")
    print("|---|---|---|---|---|")
    for name, X, y, relevant in problems(args.gametes):
        nominal = np.ones(X.shape[1], bool)
        tests = [(f"permutation of the class, {variant}, "
                  f"R = {args.permutations}",
                  lambda v=variant: permutation_test(
                      X, y, nominal, variant=v, k_nearest=10,
                      n_permutations=args.permutations))
                 for variant in ("relieff", "drelieff", "pdrelieff")]
        tests += [(f"permutation of each feature, {variant}, "
                   f"R = {args.permutations}",
                   lambda v=variant: permutation_test(
                       X, y, nominal, variant=v, k_nearest=10,
                       permute="feature", n_permutations=args.permutations))
                  for variant in args.feature_variants]
        tests += [("STIR, k = 10", lambda: stir(X, y, nominal, k_nearest=10)),
                  ("STIR, MultiSURF",
                   lambda: stir(X, y, nominal, neighbours="multisurf"))]
        for label, run in tests:
            started = time.perf_counter()
            q = run().q_values
            found = q < 0.05
            print(f"| {name} | {label} | {found[relevant].sum()} of "
                  f"{relevant.sum()} | {found[~relevant].sum()} of "
                  f"{(~relevant).sum()} | "
                  f"{time.perf_counter() - started:.1f} |", flush=True)


if __name__ == "__main__":
    main()
