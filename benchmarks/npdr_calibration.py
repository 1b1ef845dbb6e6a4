"""NPDR's calibration on null data, and its power, neighbourhoods and
confounding (issue 33).

    python benchmarks/npdr_calibration.py calibration [--tables 50]
        [--perm-tables 20] [--permutations 99] [--n 200] [--a 40]
    python benchmarks/npdr_calibration.py partial [--tables 30]
        [--perm-tables 15] [--permutations 99]
    python benchmarks/npdr_calibration.py power [--permutations 199]
    python benchmarks/npdr_calibration.py neighbourhoods [--tables 20]
    python benchmarks/npdr_calibration.py confounding [--tables 20]
        [--permutations 199]

``calibration``: null tables -- random n x a tables (half numeric, half
nominal with 3 values) and a target unrelated to every feature (a balanced
class, or a numeric one); "with covariates" adds a numeric and a nominal
covariate that drive the target and half of the features (so those are
confounded, and null only once adjusted).  For each test: the share of the
features with p <= 0.05 (mean and sd over tables) and the share of tables
in which Benjamini-Hochberg at 0.05 rejects anything.

``partial``: the partial null, where feature selection works: 300 x 20
binary tables whose class is x0 xor x1 (or whose numeric target is x0 + x1
plus noise); the 18 other features are the nulls.

``power``: CorrAl, LED24 (first 1,000 rows), MONK-1, GAMETES (2-way, 1,600 x
20, from ../shared/data) and a numeric target (``datasets.confounded(...,
regression=True)`` without confounding: 2 real features among 10): how many
relevant and other features have q < 0.05.

``neighbourhoods``: the confounded benchmark (``datasets.confounded``, 400
rows) with class-blind neighbourhoods and with ReliefF's separate hit and
miss ones, unadjusted and adjusted for ``age``: the share of tables in which
each kind of feature has q < 0.05.

``confounding``: the confounded benchmark, every existing test on ReliefF
(``age`` among the features), NPDR unadjusted and NPDR adjusted for
``age``: the share of the real, confounded and irrelevant features with
p < 0.05 (over all tables; with 50 features BH's q < 0.05 needs R > 500
permutations for two discoveries).
"""
import argparse
import time
import warnings

import numpy as np

from orangecontrib.relief import stats
from orangecontrib.relief.datasets import confounded, important_features
from stats_power import GAMETES, problems as power_problems


def null_table(seed, n, a, regression, with_covariates):
    """(X, y, nominal, covariates, covariate_nominal): features null given
    the covariates (see the module docstring)."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, a))
    nominal = np.arange(a) >= a // 2
    X[:, nominal] = rng.integers(0, 3, (n, nominal.sum()))
    covariates = covariate_nominal = None
    drive = np.zeros(n)
    if with_covariates:
        age = rng.standard_normal(n)
        group = rng.integers(0, 2, n)
        covariates = np.column_stack([age, group])
        covariate_nominal = [False, True]
        drive = 1.5 * age + 1.0 * group
        confounded = np.flatnonzero(~nominal)[::2]
        X[:, confounded] = age[:, None] + 0.5 * rng.standard_normal(
            (n, confounded.shape[0]))
    if regression:
        y = drive + rng.standard_normal(n)
    elif with_covariates:
        y = (rng.random(n) < 1 / (1 + np.exp(-(drive - drive.mean()))))
        y = y.astype(float)
    else:
        y = rng.permutation(np.arange(n) % 2).astype(float)
    return X, y, nominal, covariates, covariate_nominal


def calibration(args):
    tests = [("NPDR, k = 10", dict(), False),
             ("NPDR, k = 50", dict(k_nearest=50), False),
             ("NPDR, MultiSURF", dict(neighbours="multisurf"), False),
             (f"NPDR permutations, k = 10, R = {args.permutations}",
              dict(n_permutations=args.permutations), True)]
    print("| test | target | covariates | tables | share of p ≤ 0.05 "
          "| sd over tables | BH rejects anything |")
    print("|---|---|---|---|---|---|---|")
    for label, options, permuted in tests:
        for regression in (False, True):
            for with_covariates in (False, True):
                count = args.perm_tables if permuted else args.tables
                shares, rejects = [], 0
                for seed in range(count):
                    X, y, nominal, cov, cov_nominal = null_table(
                        seed, args.n, args.a, regression, with_covariates)
                    test = stats.npdr_permutation if permuted \
                        else stats.npdr
                    result = test(X, y, nominal, covariates=cov,
                                  covariate_nominal=cov_nominal,
                                  regression=regression, **options)
                    shares.append(np.mean(result.p_values <= 0.05))
                    rejects += bool(np.any(result.q_values <= 0.05))
                print(f"| {label} | {'numeric' if regression else 'class'}"
                      f" | {'2' if with_covariates else 'none'} | {count} | "
                      f"{np.mean(shares):.3f} | {np.std(shares):.3f} | "
                      f"{rejects / count:.2f} |", flush=True)


def partial(args):
    tests = [("NPDR, k = 10", dict(), False),
             ("NPDR, MultiSURF", dict(neighbours="multisurf"), False),
             (f"NPDR permutations, k = 10, R = {args.permutations}",
              dict(n_permutations=args.permutations), True),
             (f"NPDR permutations, MultiSURF, R = {args.permutations}",
              dict(n_permutations=args.permutations,
                   neighbours="multisurf"), True)]
    print("| test | target | tables | share of the 18 nulls with p ≤ 0.05 "
          "| sd over tables | BH rejects a null | relevant with q < 0.05 |")
    print("|---|---|---|---|---|---|---|")
    for label, options, permuted in tests:
        for regression in (False, True):
            count = args.perm_tables if permuted else args.tables
            shares, rejects, found = [], 0, 0
            for seed in range(count):
                rng = np.random.default_rng(seed)
                X = rng.integers(0, 2, (300, 20)).astype(float)
                y = X[:, 0] + X[:, 1] + 0.5 * rng.standard_normal(300) \
                    if regression else (X[:, 0] != X[:, 1]).astype(float)
                test = stats.npdr_permutation if permuted else stats.npdr
                result = test(X, y, np.ones(20, bool),
                              regression=regression, **options)
                shares.append(np.mean(result.p_values[2:] <= 0.05))
                rejects += bool(np.any(result.q_values[2:] <= 0.05))
                found += int(np.sum(result.q_values[:2] < 0.05))
            print(f"| {label} | {'numeric' if regression else 'xor class'}"
                  f" | {count} | {np.mean(shares):.3f} | "
                  f"{np.std(shares):.3f} | {rejects / count:.2f} | "
                  f"{found / count:.1f} of 2 |", flush=True)


def problems(gametes):
    """stats_power.py's problems (nominal features, a class) and a numeric
    target: (name, X, y, nominal, relevant, regression)."""
    out = [(name, X, y, np.ones(X.shape[1], bool), relevant, False)
           for name, X, y, relevant in power_problems(gametes)]
    table = confounded(n_instances=400, n_real=2, n_confounded=0,
                       n_irrelevant=8, confounding=0.0, regression=True,
                       random_state=1)
    names = [v.name for v in table.domain.attributes]
    out.append(("numeric target, 400 × 11", table.X, table.Y,
                np.zeros(len(names), bool),
                np.isin(names, important_features(table)), True))
    return out


def power(args):
    print("| data | test | relevant with q < 0.05 | others with q < 0.05 "
          "| seconds |")
    print("|---|---|---|---|---|")
    for name, X, y, nominal, relevant, regression in problems(args.gametes):
        tests = [("NPDR, k = 10", lambda: stats.npdr(
                      X, y, nominal, regression=regression)),
                 ("NPDR, MultiSURF", lambda: stats.npdr(
                      X, y, nominal, regression=regression,
                      neighbours="multisurf")),
                 (f"NPDR permutations, k = 10, R = {args.permutations}",
                  lambda: stats.npdr_permutation(
                      X, y, nominal, regression=regression,
                      n_permutations=args.permutations)),
                 (f"NPDR permutations, MultiSURF, R = {args.permutations}",
                  lambda: stats.npdr_permutation(
                      X, y, nominal, regression=regression,
                      neighbours="multisurf",
                      n_permutations=args.permutations))]
        for label, run in tests:
            started = time.perf_counter()
            found = run().q_values < 0.05
            print(f"| {name} | {label} | {found[relevant].sum()} of "
                  f"{relevant.sum()} | {found[~relevant].sum()} of "
                  f"{(~relevant).sum()} | "
                  f"{time.perf_counter() - started:.1f} |", flush=True)


def benchmark_tables(count, regression=False):
    """The confounded benchmark's tables: (X, y, names) with ``age`` as
    column 0."""
    for seed in range(count):
        table = confounded(n_instances=400, regression=regression,
                           random_state=seed)
        yield table.X, table.Y, [v.name for v in table.domain.attributes]


def _shares(found, names):
    """The share of real, confounded and irrelevant features found."""
    kinds = {kind: np.array([name.startswith(kind) for name in names])
             for kind in ("real", "conf", "noise")}
    return [float(np.mean(found[kinds[kind]])) for kind in kinds]


def _row(label, rows):
    real, conf, noise = np.mean(rows, axis=0)
    print(f"| {label} | {real:.2f} | {conf:.2f} | {noise:.2f} |", flush=True)


def neighbourhoods(args):
    print("| neighbourhood | adjusted for age | real found | confounded "
          "found | irrelevant found |")
    print("|---|---|---|---|---|")
    configs = [("class-blind, k = 10", dict()),
               ("class-blind, k = 50", dict(k_nearest=50)),
               ("hits and misses apart, k = 10",
                dict(separate_hit_miss=True)),
               ("hits and misses apart, k = 50",
                dict(separate_hit_miss=True, k_nearest=50)),
               ("MultiSURF", dict(neighbours="multisurf"))]
    for label, options in configs:
        for adjusted in (False, True):
            rows = []
            for X, y, names in benchmark_tables(args.tables):
                result = stats.npdr(X[:, 1:], y, covariates=X[:, 0]
                                    if adjusted else None, **options)
                rows.append(_shares(result.q_values < 0.05, names[1:]))
            real, conf, noise = np.mean(rows, axis=0)
            print(f"| {label} | {'yes' if adjusted else 'no'} | {real:.2f} "
                  f"| {conf:.2f} | {noise:.2f} |", flush=True)


def confounding(args):
    R = args.permutations
    print("| test | real with p < 0.05 | confounded with p < 0.05 "
          "| irrelevant with p < 0.05 |")
    print("|---|---|---|---|")
    relief = [(f"ReliefF, permutation of each feature, R = {R}",
               "feature_permutation"),
              (f"ReliefF, permutation of the class, R = {R}", "permutation"),
              ("ReliefF, STIR", "stir")]
    for label, name in relief:
        rows = []
        for X, y, names in benchmark_tables(args.tables):
            result = stats.TESTS[name].run(X, y, n_permutations=R)
            rows.append(_shares(result.p_values < 0.05, names))
        _row(label, rows)
    for label, k, adjusted, draws in (
            ("NPDR one run, k = 50, age among the features", 50, False,
             None),
            ("NPDR one run, k = 50, adjusted for age", 50, True, None),
            (f"NPDR permutations, k = 50, R = {R}, adjusted for age "
             f"(class drawn from its model on age)", 50, True, "model"),
            (f"NPDR permutations, k = 50, R = {R}, adjusted for age "
             f"(class permuted within 5 age strata)", 50, True, "strata"),
            (f"NPDR permutations, k = 10, R = {R}, adjusted for age "
             f"(model)", 10, True, "model")):
        rows = []
        for X, y, names in benchmark_tables(args.tables):
            features, covariates = (X[:, 1:], X[:, 0]) if adjusted \
                else (X, None)
            options = dict(covariates=covariates, k_nearest=k)
            result = stats.npdr(features, y, **options) if draws is None \
                else stats.npdr_permutation(features, y, n_permutations=R,
                                            class_draws=draws, **options)
            rows.append(_shares(result.p_values < 0.05,
                                names[1:] if adjusted else names))
        _row(label, rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("calibration", "partial", "power",
                                         "neighbourhoods", "confounding"))
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--perm-tables", type=int, default=20)
    parser.add_argument("--permutations", type=int, default=99)
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--a", type=int, default=40)
    parser.add_argument("--gametes", default=str(GAMETES))
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    started = time.perf_counter()
    {"calibration": calibration, "partial": partial, "power": power,
     "neighbourhoods": neighbourhoods, "confounding": confounding}[
        args.what](args)
    print(f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
