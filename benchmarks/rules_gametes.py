"""Every neighbourhood rule with every variant on GAMETES 2-way epistasis data
(issue 23): the separability and the ranks of the two interacting SNPs.

    python benchmarks/rules_gametes.py [FILE ...]

Default files: the GAMETES files of shared/data (20 SNPs at heritability 0.4
and 0.1, 1,000 SNPs at 0.4; 1,600 rows each).  The interacting SNPs are
P1 and P2 (the shared/data README).  Separability = the weaker of P1, P2
minus the best other SNP (> 0: both ranked above every other).
"""
import sys
import time
import warnings
from pathlib import Path

import numpy as np

from orangecontrib.relief.core import ranking, relieff

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
FILES = ["GAMETES_Epistasis_2-Way_20atts_0.4H_EDM-1_1.tsv",
         "GAMETES_Epistasis_2-Way_20atts_0.1H_EDM-1_1.tsv",
         "GAMETES_Epistasis_2-Way_1000atts_0.4H_EDM-1_EDM-1_1.tsv"]
RULES = ("k", "surf", "surf*", "multisurf", "multisurf*")
VARIANTS = ("relieff", "drelieff", "pdrelieff")


def main(paths):
    warnings.simplefilter("ignore")
    print("| data | rule | variant | separability | rank of P1, P2 | "
          "seconds |")
    print("|---|---|---|---|---|---|")
    for path in paths:
        with open(path) as handle:
            names = handle.readline().rstrip("\n").split("\t")[:-1]
        data = np.loadtxt(path, delimiter="\t", skiprows=1)
        X, y = data[:, :-1], data[:, -1]
        nominal = np.ones(X.shape[1], bool)
        relevant = [names.index("P1"), names.index("P2")]
        label = Path(path).name.replace("GAMETES_Epistasis_2-Way_", "")
        for rule in RULES:
            for variant in VARIANTS:
                started = time.perf_counter()
                w = relieff(X, y, nominal, neighbours=rule,
                            variant=variant).weights
                elapsed = time.perf_counter() - started
                others = np.delete(w, relevant)
                separability = min(w[relevant]) - others.max()
                order = list(ranking(w))
                ranks = [order.index(i) + 1 for i in relevant]
                print(f"| {label} | {rule} | {variant} | "
                      f"{separability:+.4f} | {ranks[0]}, {ranks[1]} | "
                      f"{elapsed:.2f} |", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or [str(SHARED / f) for f in FILES])
