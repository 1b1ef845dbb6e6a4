"""Calibration of the p-values on null data (issue 22).

    python benchmarks/stats_calibration.py [--tables 40] [--n 200] [--a 100]
        [--perm-tables 12] [--permutations 99]

Null data: features independent of the class.  (1) Random tables: n rows,
a features (half uniform numeric, half nominal with 3 values), a balanced
random binary class, ``--tables`` of them.  (2) Real tables with the class
permuted: Orange's heart_disease and the bundled UCI promoters.  For each
test it prints the share of null features with p ≤ 0.05 (pooled over the
tables, with the spread of the per-table shares) and, after Benjamini-
Hochberg at 0.05, the false discovery proportion averaged over the tables
(under the complete null every discovery is false, so this is the share of
tables with any q < 0.05; a valid FDR procedure keeps it <= 0.05).

Tests: STIR at k = 10 and with MultiSURF (STIR's recommended neighbourhood),
and the permutation test of ReliefF (k = 10, R = ``--permutations``) on
``--perm-tables`` tables (each costs R + 1 runs).

(3) The partial null, the case feature selection meets: ``--partial`` tables
of 300 rows whose class is x0 xor x1 (two binary features) plus 18
independent binary features; the share of those 18 with p <= 0.05 for the
class permutation and for the per-feature permutation (R = 49), ReliefF and
dReliefF, and for STIR.
"""
import argparse
import time
import warnings

import numpy as np

from orangecontrib.relief.stats import permutation_test, stir


def random_null(rng, n, a):
    X = rng.random((n, a))
    nominal = np.arange(a) >= a // 2
    X[:, nominal] = rng.integers(0, 3, (n, int(nominal.sum())))
    y = rng.permutation(np.arange(n) % 2).astype(float)
    return X, y, nominal


def real_nulls(rng, count):
    """(name, X, y, nominal) of real tables with the class permuted."""
    from Orange.data import Table
    from orangecontrib.relief.datasets import promoters
    out = []
    for name, table in (("heart_disease", Table("heart_disease")),
                        ("promoters", promoters())):
        nominal = np.array([v.is_discrete for v in table.domain.attributes])
        known = ~np.isnan(table.Y)
        for _ in range(count):
            y = table.Y.copy()
            y[known] = rng.permutation(y[known])
            out.append((name, table.X, y, nominal))
    return out


def summarise(p_lists):
    """(share of p <= 0.05 pooled, sd of per-table shares, mean BH FDP)."""
    from orangecontrib.relief.stats import benjamini_hochberg
    shares = [np.mean(p[~np.isnan(p)] <= 0.05) for p in p_lists]
    pooled = np.concatenate([p[~np.isnan(p)] for p in p_lists])
    fdp = [float(np.any(benjamini_hochberg(p) < 0.05)) for p in p_lists]
    return np.mean(pooled <= 0.05), np.std(shares), np.mean(fdp)


def partial_null(rng, count, R=49):
    """Rows of the table for the 18 irrelevant features of xor tables."""
    tables = []
    for _ in range(count):
        X = rng.integers(0, 2, (300, 20)).astype(float)
        y = ((X[:, 0] > 0) ^ (X[:, 1] > 0)).astype(float)
        tables.append((X, y, np.ones(20, bool)))
    rows = []
    for label, run in (
            ("STIR, k = 10", lambda X, y, nom, i: stir(X, y, nom)),
            *[(f"permutation of the {permute}, {variant}, R = {R}",
               lambda X, y, nom, i, v=variant, p=permute: permutation_test(
                   X, y, nom, variant=v, permute=p, n_permutations=R,
                   permutation_seed=i))
              for variant in ("relieff", "drelieff")
              for permute in ("target", "feature")]):
        p = [run(X, y, nom, i).p_values[2:]
             for i, (X, y, nom) in enumerate(tables)]
        rows.append((label, "partial: 18 irrelevant beside xor", len(p),
                     *summarise(p)))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--a", type=int, default=100)
    parser.add_argument("--perm-tables", type=int, default=12)
    parser.add_argument("--permutations", type=int, default=99)
    parser.add_argument("--real", type=int, default=10,
                        help="class permutations of each real table")
    parser.add_argument("--partial", type=int, default=6)
    args = parser.parse_args()
    rng = np.random.default_rng(2026)
    started = time.perf_counter()
    tables = [("random", *random_null(rng, args.n, args.a))
              for _ in range(args.tables)]
    reals = real_nulls(rng, args.real)
    rows = []
    warnings.simplefilter("ignore")
    for label, options in (("STIR, k = 10", dict(k_nearest=10)),
                           ("STIR, MultiSURF", dict(neighbours="multisurf"))):
        for kind, data in (("random", tables), ("real, class permuted",
                                                reals)):
            if not data:
                continue
            p = [stir(X, y, nominal, **options).p_values
                 for _, X, y, nominal in data]
            rows.append((label, kind, len(data), *summarise(p)))
    for kind, data in (("random", tables[:args.perm_tables]),
                       ("real, class permuted", reals[::2])):
        if not data:
            continue
        p = [permutation_test(X, y, nominal, k_nearest=10,
                              n_permutations=args.permutations,
                              permutation_seed=i).p_values
             for i, (_, X, y, nominal) in enumerate(data)]
        rows.append((f"permutation, R = {args.permutations}", kind,
                     len(data), *summarise(p)))
    rows += partial_null(rng, args.partial)
    print(f"Null data: random {args.n} x {args.a} (half numeric, half "
          f"nominal), heart_disease 303 x 13 and promoters 106 x 57 with "
          f"the class permuted; {time.perf_counter() - started:.0f} s\n")
    print("| test | null data | tables | share of p ≤ 0.05 | sd over "
          "tables | BH FDP at 0.05 |")
    print("|---|---|---|---|---|---|")
    for label, kind, count, share, spread, fdp in rows:
        print(f"| {label} | {kind} | {count} | {share:.3f} | {spread:.3f} "
              f"| {fdp:.2f} |")


if __name__ == "__main__":
    main()
