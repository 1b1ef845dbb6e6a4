"""stats.npdr against the R package insilico/npdr on the same data (issue 33).

    python benchmarks/npdr_vs_r.py [--rscript Rscript] [--lib DIR]

Needs R with dplyr (Debian: ``apt-get install r-base-core r-cran-dplyr``)
and npdr installed from its source (``R CMD INSTALL -l DIR npdr``; its
PRROC import serves only the detection helpers and can be dropped from
DESCRIPTION when PRROC is not available).  Random numeric tables (no
distance ties), a class and a numeric target, with and without a numeric
and a nominal covariate:

* ``npdr()`` itself with ``nbd.method = "relieff"``, ``knn = k`` and
  ``nbd.metric = "relief-scaled-manhattan"`` (the range-scaled distance of
  this package; the neighbours are then the same), raw attribute diffs
  (``attr.diff.type = "numeric-abs"``: its coefficient is this package's
  divided by the feature's range; t and p do not change), covariate diffs
  ``numeric-abs`` and ``match-mismatch``;
* npdr's ``diffRegression`` (and ``glm`` with a tight convergence
  criterion) on this package's own MultiSURF pairs, exported, with the
  covariates' diffs.

Prints the largest differences of p, t and the coefficient.
"""
import argparse
import os
import subprocess
import tempfile
import warnings

import numpy as np

from orangecontrib.relief import stats
from orangecontrib.relief.stats.npdr_parts import (Covariates, Problem,
                                                   covariate_diffs,
                                                   pair_outcome)

R_FULL = r"""
suppressMessages(library(npdr, lib.loc = "{lib}"))
X <- as.matrix(read.csv("{dir}/X.csv", header = TRUE))
y <- read.csv("{dir}/y.csv", header = TRUE)$y
C <- read.csv("{dir}/C.csv", header = TRUE)
type <- "{type}"
covars <- if ({covariates}) as.matrix(C) else "none"
r <- npdr(y, X, regression.type = type, attr.diff.type = "numeric-abs",
          nbd.method = "relieff", nbd.metric = "relief-scaled-manhattan",
          knn = {k}, covars = covars,
          covar.diff.type = c("numeric-abs", "match-mismatch"),
          padj.method = "fdr")
write.csv(r, "{dir}/full.csv", row.names = FALSE)
"""

R_PAIRS = r"""
suppressMessages(library(npdr, lib.loc = "{lib}"))
P <- read.csv("{dir}/pairs.csv", header = TRUE)
D <- as.matrix(read.csv("{dir}/diffs.csv", header = TRUE))
Z <- if ({covariates}) read.csv("{dir}/zdiffs.csv", header = TRUE) else
    data.frame(row.names = seq_len(nrow(P)))
type <- "{type}"
out <- NULL
for (f in seq_len(ncol(D))) {{
  design <- data.frame(attr.diff.vec = D[, f], pheno.diff.vec = P$outcome)
  if (ncol(Z) > 0) design <- data.frame(design, Z)
  if (type == "binomial") design$pheno.diff.vec <- as.factor(
      design$pheno.diff.vec)
  s <- diffRegression(design, regression.type = type)
  tight <- if (type == "binomial") glm(pheno.diff.vec ~ ., data = design,
      family = binomial, control = glm.control(epsilon = 1e-15,
                                               maxit = 100))
    else lm(pheno.diff.vec ~ ., data = design)
  co <- summary(tight)$coefficients
  out <- rbind(out, c(s[1], s[2], s[3], co[2, 1], co[2, 3],
                      pt(co[2, 3], tight$df.residual, lower.tail = FALSE)))
}}
colnames(out) <- c("p", "beta", "t", "beta_tight", "t_tight", "p_tight")
write.csv(out, "{dir}/pairs_out.csv", row.names = FALSE)
"""


def table(seed, n=80, a=6, regression=False):
    rng = np.random.default_rng(seed)
    X = rng.random((n, a)) * rng.uniform(1, 10, a)
    signal = X[:, 0] / X[:, 0].max() + 0.5 * rng.random(n)
    y = signal if regression else (signal > np.median(signal)).astype(float)
    C = np.column_stack([rng.normal(size=n), rng.integers(0, 3, n)])
    return X, y, C


def write(path, header, values):
    np.savetxt(path, values, delimiter=",", header=",".join(header),
               comments="", fmt="%.17g")


def run_r(script, rscript):
    done = subprocess.run([rscript, "-e", script], capture_output=True,
                          text=True)
    if done.returncode:
        raise RuntimeError(f"R failed:\n{done.stderr}")


def full_npdr(args, directory, regression, with_covariates, k=8):
    X, y, C = table(3 + regression + 2 * with_covariates,
                    regression=regression)
    a = X.shape[1]
    write(os.path.join(directory, "X.csv"), [f"f{i}" for i in range(a)], X)
    write(os.path.join(directory, "y.csv"), ["y"], y[:, None])
    write(os.path.join(directory, "C.csv"), ["age", "group"], C)
    run_r(R_FULL.format(lib=args.lib, dir=directory, k=k,
                        type="lm" if regression else "binomial",
                        covariates="TRUE" if with_covariates else "FALSE"),
          args.rscript)
    theirs = np.genfromtxt(os.path.join(directory, "full.csv"),
                           delimiter=",", names=True, dtype=None,
                           encoding="utf-8")
    order = [int(name.strip('"')[1:]) for name in theirs["att"]]
    ours = stats.npdr(X, y, covariates=C if with_covariates else None,
                      covariate_nominal=[False, True] if with_covariates
                      else None, k_nearest=k, regression=regression)
    ranges = np.ptp(X, axis=0)
    return (_relative(ours.p_values[order], theirs["pvalatt"]),
            _relative(ours.t[order], theirs["betaZatt"]),
            _relative(ours.weights[order] / ranges[order],
                      theirs["betarawatt"]))


def pairs_npdr(args, directory, regression, with_covariates):
    X, y, C = table(11 + regression + 2 * with_covariates,
                    regression=regression)
    covariates = Covariates(C, np.array([False, True]), ("age", "group")) \
        if with_covariates else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        problem = Problem(X, y, None, covariates, regression=regression,
                          neighbours="multisurf", k_nearest=10,
                          separate_hit_miss=False, misses="per_class",
                          n_iterations=None, random_state=0, n_jobs=None)
    pairs = problem.pairs
    outcome = pair_outcome(y, pairs, regression)
    ranges = np.ptp(X, axis=0)
    diffs = np.abs(X[pairs.first] - X[pairs.second]) / ranges
    write(os.path.join(directory, "pairs.csv"), ["outcome"], outcome[:, None])
    write(os.path.join(directory, "diffs.csv"),
          [f"f{i}" for i in range(X.shape[1])], diffs)
    if with_covariates:
        write(os.path.join(directory, "zdiffs.csv"), ["age", "group"],
              covariate_diffs(covariates, pairs))
    run_r(R_PAIRS.format(lib=args.lib, dir=directory,
                         type="lm" if regression else "binomial",
                         covariates="TRUE" if with_covariates else "FALSE"),
          args.rscript)
    theirs = np.genfromtxt(os.path.join(directory, "pairs_out.csv"),
                           delimiter=",", names=True)
    ours = stats.npdr(X, y, covariates=C if with_covariates else None,
                      covariate_nominal=[False, True] if with_covariates
                      else None, neighbours="multisurf",
                      regression=regression)
    return (_relative(ours.p_values, theirs["p"]),
            _relative(ours.t, theirs["t"]),
            _relative(ours.weights, theirs["beta"]),
            _relative(ours.weights, theirs["beta_tight"]),
            _relative(ours.p_values, theirs["p_tight"]))


def _relative(ours, theirs):
    theirs = np.asarray(theirs, dtype=float)
    return float(np.max(np.abs(ours - theirs)
                        / np.maximum(np.abs(theirs), 1e-300)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rscript", default="Rscript")
    parser.add_argument("--lib", default="/tmp/Rlib",
                        help="the R library that holds npdr")
    args = parser.parse_args()
    print("| comparison | target | covariates | p: largest relative "
          "difference | t | coefficient | coefficient, glm to 1e-15 "
          "| p, glm to 1e-15 |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as directory:
        for regression in (False, True):
            for with_covariates in (False, True):
                target = "numeric" if regression else "class"
                cov = "2" if with_covariates else "none"
                p, t, beta = full_npdr(args, directory, regression,
                                       with_covariates)
                print(f"| npdr(), relieff k = 8 | {target} | {cov} | "
                      f"{p:.1e} | {t:.1e} | {beta:.1e} | | |", flush=True)
                p, t, beta, tight, p_tight = pairs_npdr(
                    args, directory, regression, with_covariates)
                print(f"| diffRegression on our MultiSURF pairs | {target} "
                      f"| {cov} | {p:.1e} | {t:.1e} | {beta:.1e} | "
                      f"{tight:.1e} | {p_tight:.1e} |", flush=True)


if __name__ == "__main__":
    main()
