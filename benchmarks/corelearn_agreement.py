"""CORElearn's Relief estimators against this package's on the same data
(issue 40, item 3).

    python benchmarks/corelearn_agreement.py [--rscript Rscript] [--lib DIR]
        [--golden FILE]

Needs R (Debian: ``apt-get install r-base-core r-base-dev r-cran-plotrix
r-cran-cluster r-cran-nnet``) and CORElearn 1.57 installed from its source
(``git archive`` of the CRAN mirror github.com/cran/CORElearn, then
``R CMD INSTALL -l DIR CORElearn``); Debian has no ``rpart.plot``, which
CORElearn imports only to draw trees: drop it from DESCRIPTION's
``Imports`` and its ``importFrom`` line from NAMESPACE before installing.
Nothing of CORElearn is part of this project.

Each estimator of CORElearn's Relief family (``attrEval``) runs with every
instance visited (``ReliefIterations = 0``) and the plain numeric diff
|v1 - v2| / range (``numAttrProportionEqual = 0``,
``numAttrProportionDifferent = 1``: CORElearn's ramp from "equal" to
"different" is then linear over the whole range; its defaults 0.04 and 0.1
ramp over 4 % to 10 % of the range; 0 and 0 make every numeric diff 1),
against ``relieff(**corelearn_estimator(name))`` on GAMETES (20 SNPs,
nominal), CorrAl, MONK-1's training set (nominal), heart_disease (mixed,
missing values) and housing (numeric target), plus a random numeric table
without distance ties (``tie-free``, the case where both follow the same
definitions).  Prints a markdown table: the largest |difference| and, where
not equal, what in the data makes CORElearn depart
(``orangecontrib/relief/corelearn.py`` lists its rules).  ``--golden FILE``
writes the tie-free tables and CORElearn's numbers as the golden values of
``tests/test_corelearn_estimators.py``.
"""
import argparse
import json
import os
import subprocess
import tempfile

import numpy as np

from orangecontrib.relief.corelearn import ESTIMATORS, run

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, os.pardir, "tests", "data", "skrebate")

R_SCRIPT = r"""
suppressMessages(library(CORElearn, lib.loc = "{lib}"))
d <- read.csv("{dir}/data.csv", header = TRUE, na.strings = "NA")
nominal <- as.logical(read.csv("{dir}/nominal.csv", header = TRUE)$nominal)
for (j in which(nominal)) d[[j]] <- factor(d[[j]])
if (!{regression}) d$target <- factor(d$target)
costs <- if ({regression}) NULL else if (file.exists("{dir}/costs.csv"))
  as.matrix(read.csv("{dir}/costs.csv", header = FALSE)) else {{
  c <- nlevels(d$target); m <- matrix(1, c, c); diag(m) <- 0; m }}
out <- NULL
for (e in strsplit("{estimators}", ",")[[1]]) {{
  w <- attrEval(target ~ ., d, estimator = e, costMatrix = costs,
                ReliefIterations = 0, numAttrProportionEqual = 0,
                numAttrProportionDifferent = 1, kNearestEqual = 10,
                kNearestExpRank = 70, quotientExpRankDistance = 20)
  out <- rbind(out, data.frame(estimator = e, t(w)))
}}
write.csv(out, "{dir}/out.csv", row.names = FALSE)
"""


def corelearn(X, y, nominal, regression, estimators, rscript, lib,
              costs=None):
    """CORElearn's estimates, one row per estimator, in column order."""
    with tempfile.TemporaryDirectory() as folder:
        if costs is not None:
            np.savetxt(os.path.join(folder, "costs.csv"), costs,
                       delimiter=",", fmt="%.17g")
        header = ",".join([f"f{j}" for j in range(X.shape[1])] + ["target"])
        data = np.column_stack([X, y])
        np.savetxt(os.path.join(folder, "data.csv"), data, delimiter=",",
                   header=header, comments="", fmt="%.17g")
        with open(os.path.join(folder, "data.csv")) as file:
            text = file.read().replace("nan", "NA")
        with open(os.path.join(folder, "data.csv"), "w") as file:
            file.write(text)
        np.savetxt(os.path.join(folder, "nominal.csv"),
                   np.asarray(nominal, int), header="nominal", comments="",
                   fmt="%d")
        script = R_SCRIPT.format(
            lib=lib, dir=folder, regression="TRUE" if regression else "FALSE",
            estimators=",".join(estimators))
        with open(os.path.join(folder, "run.R"), "w") as file:
            file.write(script)
        subprocess.run([rscript, os.path.join(folder, "run.R")], check=True)
        rows = np.genfromtxt(os.path.join(folder, "out.csv"), delimiter=",",
                             skip_header=1, dtype=str, ndmin=2)
    return {row[0].strip('"'): np.array(row[1:], float) for row in rows}


def read_skrebate(name):
    """A tab-separated table of tests/data/skrebate (class last)."""
    matrix = np.genfromtxt(os.path.join(SHARED, name), delimiter="\t",
                           skip_header=1)
    return matrix[:, :-1], matrix[:, -1]


def orange_table(name):
    from Orange.data import Table
    table = Table(name)
    nominal = np.array([v.is_discrete for v in table.domain.attributes])
    return table.X.astype(float), table.Y.astype(float), nominal


def tie_free(seed, regression, n=60, a=5):
    """A random numeric table whose distances have no ties: a class of
    three values, or a numeric target."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, a))
    if regression:
        y = X[:, 0] + 0.5 * X[:, 1] ** 2 + 0.1 * rng.random(n)
    else:
        y = ((X[:, 0] > 0.4).astype(int) + (X[:, 1] > 0.6)).astype(float)
    return X, y, np.zeros(a, bool)


#: an uneven cost matrix (true class in rows, predicted in columns) for the
#: cost-sensitive estimators on the tie-free table
COSTS = np.array([[0.0, 1.0, 4.0], [2.0, 0.0, 1.0], [1.0, 3.0, 0.0]])


def datasets():
    from orangecontrib.relief.datasets import bundled
    gametes = read_skrebate("GAMETES_Epistasis_2-Way_20atts_0.4H_EDM-1_1"
                            ".tsv.gz")
    corral, monk = bundled.corral(), bundled.monk(1, "train")
    return {
        "tie-free (60 x 5, 3 classes)": (*tie_free(0, False), False),
        "tie-free (60 x 5, numeric)": (*tie_free(1, True), True),
        "tie-free (60 x 5, 3 classes), costs": (*tie_free(0, False),
                                                 False),
        "GAMETES 20 SNPs (1600)": (*gametes, np.ones(20, bool), False),
        "CorrAl (160)": (corral.X, corral.Y, np.ones(6, bool), False),
        "MONK-1 train (124)": (monk.X, monk.Y, np.ones(6, bool), False),
        "heart_disease (303)": (*orange_table("heart_disease"), False),
        "housing (506)": (*orange_table("housing"), True),
    }


def ours_for(name):
    """How this package computes CORElearn's ``name``."""
    entry = ESTIMATORS[name]
    if entry.options is None:
        function = getattr(entry.function, "func", entry.function)
        keywords = getattr(entry.function, "keywords", {})
        return (f"`{function.__module__}.{function.__name__}"
                + "".join(f"(kind={v!r})" for k, v in keywords.items()
                          if k == "kind")
                + "`")
    return "`" + ", ".join(f"{k}={v!r}" for k, v in entry.options.items()
                           if k != "regression") + "`"


def why(X, nominal, regression, name, largest):
    """What in this data makes CORElearn's numbers depart from ours."""
    if largest < 1e-12:
        return "equal to rounding"
    duplicates = len(np.unique(X, axis=0)) < len(X)
    reasons = []
    if np.isnan(X).any():
        reasons.append("missing values (CORElearn: 1 - P(v \\| class) with "
                       "Laplace's correction, numeric values counted in "
                       "intervals; ours: RELIEF-D)")
    if name == "MyopicReliefF":
        return "; ".join(reasons) or "?"
    kira = name in ("Relief", "ReliefKukar")    # (findHitMiss)
    if not regression and not kira and duplicates:
        reasons.append("duplicate instances (CORElearn skips neighbours "
                       "at distance 0)")
    if nominal.any() or duplicates:
        kept = ("the first in row order" if kira else
                "those its heap sort leaves at the k-th")
        reasons.append(f"distance ties (CORElearn keeps {kept}; ours "
                       "share the slots)")
        if "expRank" in name or name == "ReliefFmerit" or \
                ESTIMATORS[name].costs and not kira:
            reasons.append("tied neighbours take the influence of their "
                           "tie's first rank (ours: the mean of the ranks "
                           "they occupy)")
    return "; ".join(reasons) or "?"


#: why ReliefFsmp with uneven costs cannot equal CORElearn's
SAMPLED = ("the visits are drawn (the same number from each class, "
           "stratified by the expected costs; other instances: this "
           "package's seeded numpy generator, random_state=0, not "
           "CORElearn's); with every cost 1 each instance is visited once "
           "and it is ReliefFexpRank, equal to rounding (the tables above)")


def agreement(rscript, lib, golden=None):
    lines = ["| estimator | data | ours | largest \\|difference\\| | why |",
             "|---|---|---|---|---|"]
    saved, ran = {}, set()
    for data_name, (X, y, nominal, regression) in datasets().items():
        costs = COSTS if data_name.endswith("costs") else None
        chosen = [name for name, entry in ESTIMATORS.items()
                  if entry.regression == regression
                  and (costs is None or entry.costs)]
        theirs = corelearn(X, y, nominal, regression, chosen, rscript, lib,
                           costs)
        ran.update(name for name in chosen
                   if np.isfinite(theirs[name]).any())
        for name in chosen:
            if not ESTIMATORS[name].available:
                continue
            ours = run(name, X, y, nominal, regression, costs).weights
            largest = f"{np.nanmax(np.abs(ours - theirs[name])):.2g}"
            keywords = ours_for(name)
            reason = why(X, nominal, regression, name, float(largest))
            if ESTIMATORS[name].sampled and costs is not None:
                reason = SAMPLED
            lines.append(f"| {name} | {data_name} | {keywords} | {largest} | "
                         f"{reason} |")
        if data_name.startswith(("tie-free", "MONK")):
            saved[data_name] = {
                "X": X.tolist(), "y": y.tolist(), "regression": regression,
                "nominal": nominal.tolist(),
                "costs": None if costs is None else costs.tolist(),
                "corelearn": {k: v.tolist() for k, v in theirs.items()}}
    for name, entry in ESTIMATORS.items():
        if not entry.available:
            data = "every table" if name in ran else "—"
            lines.append(f"| {name} | {data} (CORElearn ran) | — | — | "
                         f"not computed here: {entry.missing} |")
    if golden:
        write_golden(golden, saved)
    return "\n".join(lines)


def write_golden(path, saved):
    document = {
        "provenance": (
            "CORElearn 1.57.3.1 (R 4.2.2, built from github.com/cran/"
            "CORElearn), attrEval(target ~ ., d, estimator = E, "
            "ReliefIterations = 0, numAttrProportionEqual = 0, "
            "numAttrProportionDifferent = 1, kNearestEqual = 10, "
            "kNearestExpRank = 70, quotientExpRankDistance = 20, "
            "costMatrix = 1 - diag) on tables made by benchmarks/"
            "corelearn_agreement.py (tie_free) and MONK-1's training set, "
            "written by "
            "python benchmarks/corelearn_agreement.py --golden FILE"),
        "tables": saved}
    with open(path, "w") as file:
        json.dump(document, file, indent=1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rscript", default="Rscript")
    parser.add_argument("--lib", default="/work/rlib",
                        help="the R library holding CORElearn")
    parser.add_argument("--golden", help="write the tie-free golden values")
    args = parser.parse_args()
    print(agreement(args.rscript, args.lib, args.golden))


if __name__ == "__main__":
    main()
