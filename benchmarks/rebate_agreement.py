"""Iter and VLS against scikit-rebate's (issue 34): the largest difference of
the weights and the Spearman rank correlation, on data where the
definitions coincide and where they do not.

    python benchmarks/rebate_agreement.py

Where they coincide (continuous features with distinct values, two classes,
the same k): skrebate's ReliefF equals ours to ~1e-16, VLS draws the same
subsets for the same seed, and Iter with ``convergence_threshold=0`` runs
``max_iter`` fits in both (skrebate's own convergence test compares
transformed with raw weights and practically never fires; ours compares raw
weights: ``iterated.py``).  Where they do not: discrete data, on which
skrebate breaks distance ties by row order and ours shares the tied slots
(``doc/semantics.md``).
"""
import sys
import warnings
from pathlib import Path

import numpy as np
from scipy.stats import spearmanr

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from orangecontrib.relief.wrappers.iterated import iter_relief  # noqa: E402
from orangecontrib.relief.wrappers.vls import vls  # noqa: E402

K = 10


def data_sets(data_dir):
    """(name, X, y, nominal, definitions coincide?)."""
    rng = np.random.default_rng(0)
    X = rng.random((300, 20))
    y = ((X[:, 0] + X[:, 1] + 0.3 * rng.random(300)) > 1.15).astype(float)
    yield "continuous 300x20", X, y, np.zeros(20, bool), True
    path = Path(data_dir) / "GAMETES_Epistasis_2-Way_20atts_0.4H_EDM-1_1.tsv"
    if path.exists():
        matrix = np.loadtxt(path, delimiter="\t", skiprows=1)
        matrix = matrix[np.sort(rng.choice(len(matrix), 400, replace=False))]
        yield ("GAMETES 400x20 (ties)", matrix[:, :-1], matrix[:, -1],
               np.ones(20, bool), False)


def skrebate_weights(method, X, y, nominal, seed):
    import skrebate
    core = skrebate.ReliefF(n_neighbors=K, categorical_features=list(
        np.flatnonzero(nominal)) if nominal.any() else None)
    if method == "Iter":
        wrapper = skrebate.Iter(core, max_iter=5, convergence_threshold=0.0)
    else:
        wrapper = skrebate.VLS(core, num_feature_subset=12,
                               size_feature_subset=5, random_state=seed)
    wrapper.fit(X.copy(), y.copy())
    return np.asarray(wrapper.feature_importances_, dtype=float)


def our_weights(method, X, y, nominal, seed):
    if method == "Iter":
        return iter_relief(X, y, nominal, max_iter=5,
                           convergence_threshold=0.0, k_nearest=K)[0]
    return vls(X, y, nominal, num_feature_subset=12, size_feature_subset=5,
               random_state=seed, k_nearest=K)[0]


def main(argv=None):
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--methods", nargs="+", default=["Iter", "VLS"])
    parser.add_argument("--data-dir", default=str(ROOT.parent / "shared" /
                                                  "data"))
    args = parser.parse_args(argv)
    print("| data | definitions | wrapper | max abs. difference | "
          "Spearman ρ |")
    print("|---|---|---|---|---|")
    found = {}
    for name, X, y, nominal, same in data_sets(args.data_dir):
        for method in args.methods:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                theirs = skrebate_weights(method, X, y, nominal, 3)
                ours = our_weights(method, X, y, nominal, 3)
            diff = float(np.abs(theirs - ours).max())
            rho = float(spearmanr(theirs, ours).statistic)
            found[name, method] = diff, rho
            print(f"| {name} | {'coincide' if same else 'differ (ties)'} | "
                  f"{method} | {diff:.2e} | {rho:.4f} |", flush=True)
    return found


if __name__ == "__main__":
    main()
