"""Which pairwise redundancy measure agrees with known copies and with the
seed's R'?  (issue 42, item 1; doc/redundancy.md, "Non-redundant selection")

    python benchmarks/redundancy_measures.py [--seeds 5] [--out FILE]

For the top t features (t = min(50, all)) of a ReliefF run:

* **updates**: ``redundancy.update_redundancy``, the correlation of two
  features' per-visit updates, from the same run;
* **collisions** (BELIEF, Ramirez-Gallego et al. 2021, as we read it: two
  features collide on a neighbour pair when both differ there): the cosine
  of their diffs over the visits' k nearest hits and misses,
  sum d_i d_j / sqrt(sum d_i^2 sum d_j^2), from a second neighbour search
  here (the engine does not hand its pairs out);
* **pairwise R'**: the seed's redundancy level of i within {i, j} and the
  class (``evaluation.redundancy_level``), symmetrised by the larger of the
  two; discrete tables only.

Reported per benchmark (mean over seeds): the AUC with which each measure
ranks the known copy pairs (a copy with its original, or two copies of one
feature) above every other pair, and its Spearman correlation with pairwise
R' over the pairs.
"""
import argparse
import sys
from pathlib import Path

import numpy as np
from scipy.stats import rankdata, spearmanr

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from Orange.data import Domain  # noqa: E402

import redundancy_selection as selection  # noqa: E402
from orangecontrib.relief.evaluation import redundancy_level  # noqa: E402
from orangecontrib.relief.stats.redundancy import relief_redundancy  # noqa: E402

TOP = 50
K = 10


def collisions(X, y, nominal, features, k=K):
    """BELIEF-style collision measure among ``features``: the cosine of
    two features' diffs over every visited instance's k nearest hits and k
    nearest misses (distance: the sum of diffs over all features)."""
    lo, hi = np.nanmin(X, axis=0), np.nanmax(X, axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    scaled = np.where(nominal, X, X / span)
    products = np.zeros((len(features), len(features)))
    for r in range(len(X)):
        diffs = np.abs(scaled - scaled[r])
        diffs[:, nominal] = diffs[:, nominal] > 0
        distance = diffs.sum(axis=1)
        distance[r] = np.inf
        for same in (True, False):
            group = np.flatnonzero((y == y[r]) == same)
            group = group[np.isfinite(distance[group])]
            near = group[np.argsort(distance[group], kind="stable")[:k]]
            d = diffs[np.ix_(near, features)]
            products += d.T @ d
    norms = np.sqrt(np.diag(products))
    with np.errstate(invalid="ignore", divide="ignore"):
        cosine = products / np.outer(norms, norms)
    return np.nan_to_num(cosine)


def pairwise_r(table, features):
    """max(R'(i | {j}), R'(j | {i})) with the class, for the pairs."""
    attributes = table.domain.attributes
    out = np.full((len(features), len(features)), np.nan)
    for a in range(len(features)):
        for b in range(a + 1, len(features)):
            pair = table.transform(Domain(
                [attributes[features[a]], attributes[features[b]]],
                table.domain.class_var))
            out[a, b] = out[b, a] = max(
                redundancy_level(pair, attributes[features[a]].name),
                redundancy_level(pair, attributes[features[b]].name))
    return out


def auc(scores, positive):
    """Probability that a positive pair scores above a negative one (ties
    count one half)."""
    if positive.all() or not positive.any():
        return np.nan
    ranks = rankdata(scores)
    n_pos, n_neg = positive.sum(), (~positive).sum()
    return (ranks[positive].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def tables(sizes):
    """The benchmarks with copies (the last step of each)."""
    found = selection.benchmarks(sizes, selection.default_data_dir(), True)
    return {name: steps[-1][1] for name, (_, steps) in found.items()
            if name not in ("promoters", "lung cancer")}


def run(seeds, sizes):
    rows = {}
    for name, make in tables(sizes).items():
        scores = {}
        for seed in range(seeds):
            table = make(seed)
            X, y = table.X, table.Y
            nominal = np.array([v.is_discrete
                                for v in table.domain.attributes])
            result = relief_redundancy(X, y, nominal, top=TOP,
                                       random_state=seed)
            features = result.features
            groups = np.array([
                table.domain.attributes[f].attributes.get(
                    "copy_of", table.domain.attributes[f].name)
                for f in features])
            upper = np.triu_indices(len(features), 1)
            copies = (groups[:, None] == groups[None, :])[upper]
            measures = dict(updates=result.matrix,
                            collisions=collisions(X, y, nominal, features))
            r_pairs = pairwise_r(table, features) if nominal.all() \
                and not np.isnan(X).any() else None
            for key, matrix in measures.items():
                values = matrix[upper]
                scores.setdefault(f"{key} AUC", []).append(
                    auc(values, copies))
                if r_pairs is not None:
                    scores.setdefault(f"{key} ~ R'", []).append(
                        spearmanr(values, r_pairs[upper])[0])
            if r_pairs is not None:
                scores.setdefault("R' AUC", []).append(
                    auc(r_pairs[upper], copies))
        rows[name] = {key: float(np.nanmean(v)) for key, v in scores.items()}
    return rows


def report(rows, seeds, command):
    columns = ["updates AUC", "collisions AUC", "R' AUC", "updates ~ R'",
               "collisions ~ R'"]
    lines = [f"Command: `{command}` ({seeds} seeds; the last step of each "
             f"benchmark).", "",
             "| benchmark | " + " | ".join(columns) + " |",
             "|---|" + "---|" * len(columns)]
    for name, row in rows.items():
        lines.append(f"| {name} | " + " | ".join(
            f"{row[c]:.2f}" if c in row else "—" for c in columns) + " |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    sizes = dict(selection.QUICK if args.quick else selection.FULL)
    rows = run(args.seeds, sizes)
    command = "python benchmarks/redundancy_measures.py " + " ".join(
        argv if argv is not None else sys.argv[1:])
    print(report(rows, args.seeds, command.strip()))
    return rows


if __name__ == "__main__":
    main()
