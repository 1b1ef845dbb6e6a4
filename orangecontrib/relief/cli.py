"""Command line: ``python -m orangecontrib.relief demo`` and
``python -m orangecontrib.relief score FILE``.

``demo`` scores the bundled CorrAl data with the three algorithms; ``score``
ranks the features of any file Orange reads (``.tab``, ``.csv``, ``.xlsx``,
``.arff``, ...) and prints the ranking as a table, CSV or JSON.  Every option
of the scorers is an option here, with the scorer's name and default
(``--k-nearest``, ``--weight-by-distance``, ``--compat weka``, ...);
``--class NAME`` picks the target column (``--class a,b``: several
targets, multi-target RReliefF); a file that marks none and has
one column named ``class`` (the skrebate layout, and the add-on's bundled
``datasets/*.tsv``) gets that one, with a note, and
``--categorical-class`` reads a numeric class's values (codes 0-9, which
Orange reads as numbers) as classes.  ``--weight NAME`` takes a numeric
column as the instance weights (an instance of weight w counts as w copies
of itself; the column is then not a feature); a file whose header marks a
weight column (Orange's ``weight`` flag, ``Table.W``) is weighted by it
without the option.
``--scheduler ADDRESS`` runs ReliefF / RReliefF on that Dask cluster, and
``--dask local`` on a LocalCluster started for the run
(``doc/distributed.md``); ``--device cuda`` runs the visits (and the
significance tests' refits) on an NVIDIA GPU (the ``[gpu]`` extra), and the
table's header names it.
"""
import argparse
import csv
import json
import math
import os
import sys
import time
import warnings
from contextlib import contextmanager

import numpy as np

from orangecontrib.relief.core.backends.cuda import backend as cuda
from orangecontrib.relief.core import quiet_warnings, ranking as core_ranking
from orangecontrib.relief.core.contract.prepare import check_instance_weights
from orangecontrib.relief.datasets import corral
from orangecontrib.relief.distributed import check_cluster_options
from orangecontrib.relief.io.reading import left_out, read_data
from orangecontrib.relief.core.rules import RULES
from orangecontrib.relief.core.variants import variant
from orangecontrib.relief.corelearn import names as corelearn_names
from orangecontrib.relief.corelearn import parse_costs
from orangecontrib.relief.scoring import (CORElearn, DReliefF, IReliefF,
                                          PDReliefF, ReliefF,
                                          covariates_to_metas,
                                          has_instance_weights)
from orangecontrib.relief.stats import (NPDR_DEFAULT, TESTS, find_test,
                                       unreachable_threshold)
from orangecontrib.relief.wrappers.turf import TuRF
from orangecontrib.relief.stats.redundancy import THRESHOLD, TOP

METHODS = {"relieff": ReliefF, "drelieff": DReliefF, "pdrelieff": PDReliefF,
           "irelief": IReliefF}

#: the false discovery rate whose passing features ``--pvalues`` counts
FDR = 0.05
# --neighbours when not given (a name of core.rules.RULES)
NEIGHBOURS = "k"


def demo(args):
    """Score the bundled CorrAl data (seed Table corral) with the three
    algorithms and print the weights side by side, best ReliefF first."""
    table = corral(args.rows)
    scorers = [S(k_nearest=args.k, random_state=args.seed)
               for S in (ReliefF, DReliefF, PDReliefF)]
    start = time.perf_counter()
    columns = [scorer.score_table(table, status=_say).weights
               for scorer in scorers]
    elapsed = time.perf_counter() - start
    names = [var.name for var in table.domain.attributes]
    relevant = {var.name for var in table.domain.attributes
                if var.attributes.get("relevant")}
    print(f"CorrAl, {len(table)} instances; class = (A0 and A1) or (B0 and B1)"
          f"; k = {args.k}, seed = {args.seed}")
    labels = [scorer.friendly_name for scorer in scorers]  # (k: above)
    print(f"{'feature':<12}" + "".join(f"{label:>11}" for label in labels))
    for i in sorted(range(len(names)), key=lambda i: -columns[0][i]):
        mark = " *" if names[i] in relevant else ""
        print(f"{names[i] + mark:<12}"
              + "".join(f"{shown(column[i], 3):>11.3f}"
                        for column in columns))
    print("* relevant feature.  Separability (weakest relevant minus best "
          "other):")
    for label, column in zip(labels, columns):
        weights = dict(zip(names, column))
        s = (min(weights[n] for n in relevant)
             - max(w for n, w in weights.items() if n not in relevant))
        print(f"  {label:<10} {shown(s, 3):+.3f}")
    print(f"({elapsed:.2f} s)")
    return 0


def _say(text):
    """The engine's status (e.g. its kernels being prepared on first use),
    once per text, on standard error."""
    if text not in _SAID:
        _SAID.add(text)
        print(f"note: {text}", file=sys.stderr)


_SAID = set()


def ranking(weights, names):
    """(rank, feature, weight) rows, largest weight first, NaN last; ties
    keep the file's column order."""
    return [(rank, names[i], float(weights[i]))
            for rank, i in enumerate(core_ranking(weights), start=1)]


class ProgressBar:
    """A one-line text progress bar, redrawn in place on ``stream``."""

    def __init__(self, stream, width=40):
        self.stream = stream
        self.width = width
        self.shown = -1

    def __call__(self, fraction):
        percent = int(100 * fraction)
        if percent == self.shown:
            return
        self.shown = percent
        filled = int(self.width * fraction)
        self.stream.write(f"\r[{'#' * filled}{' ' * (self.width - filled)}]"
                          f" {percent:3d}%")
        self.stream.flush()

    def close(self):
        if self.shown >= 0:
            self.stream.write("\n")
            self.stream.flush()


def with_class(table, name, file):
    """``table`` with column ``name`` as its target, or with the columns
    ``a,b,...`` as its targets (several: multi-target RReliefF; a column
    whose own name has a comma is taken whole); the other columns (a
    target the file marked included) are the features, metas stay
    metas."""
    from Orange.data import Domain

    domain = table.domain
    columns = {var.name for var in domain.variables + domain.metas}
    names = [name] if name in columns else \
        [part.strip() for part in name.split(",") if part.strip()]
    targets = []
    for one in names:
        if one not in columns:
            listed = ", ".join(repr(var.name) for var in domain.variables
                               + domain.metas)
            raise ValueError(f"{file} has no column {one!r}; its columns "
                             f"are {listed}.")
        target = domain[one]
        if not (target.is_discrete or target.is_continuous):
            raise ValueError(f"Column {one!r} of {file} holds text; a "
                             "target must be categorical or numeric.")
        if target in targets:
            raise ValueError(f"--class names column {one!r} twice.")
        targets.append(target)
    attributes = [var for var in domain.variables if var not in targets]
    metas = [var for var in domain.metas if var not in targets]
    return table.transform(Domain(attributes, targets, metas))


def with_weights(table, name, file):
    """``table`` with its numeric column ``name`` (a feature or a meta) as
    its instance weights (``Table.W``, in place of any the file marks) and
    no longer a column; a ValueError that names the column where it is
    not one finite number >= 0 per row (``--weight NAME``)."""
    from Orange.data import Domain, Table

    domain = table.domain
    try:
        column = domain[name]
    except (KeyError, ValueError):
        names = ", ".join(repr(var.name) for var in domain.variables
                          + domain.metas)
        raise ValueError(f"{file} has no column {name!r}; its columns are "
                         f"{names}.") from None
    if column in domain.class_vars:
        raise ValueError(f"Column {name!r} of {file} is the class; the "
                         "weights must be another column.")
    if not column.is_continuous:
        raise ValueError(f"Column {name!r} of {file} is not numeric; "
                         "instance weights are numbers >= 0.")
    weights = table.get_column(column).astype(float)
    try:
        check_instance_weights(weights, len(table))
    except ValueError as error:
        raise ValueError(f"The weight column {name!r} of {file} cannot be "
                         f"used: {error}") from None
    kept = table.transform(Domain(
        [var for var in domain.attributes if var is not column],
        domain.class_vars, [var for var in domain.metas if var is not column]))
    return Table.from_numpy(kept.domain, kept.X, kept.Y, kept.metas,
                            W=weights)


def class_column(domain, file):
    """The name of the one column of ``domain`` named ``class`` (in any
    case), the class of the skrebate / PMLB layout and of the add-on's
    bundled files; None when there is none.  Two such columns are an
    error: which is meant is then for the user to say."""
    named = [var.name for var in domain.variables + domain.metas
             if var.name.lower() == "class"]
    if len(named) > 1:
        raise ValueError(f"{file} marks no class and has columns "
                         f"{', '.join(map(repr, named))}; name the class "
                         "with --class NAME.")
    return named[0] if named else None


def categorical_class(table, file):
    """``table`` with a numeric class read as categories: one value per
    distinct known number (written as in the file: 3, 2.5), in increasing
    order (``--categorical-class``).  A categorical class stays."""
    from Orange.data import DiscreteVariable, Domain, Table

    domain = table.domain
    target = domain.class_var
    if len(domain.class_vars) > 1:
        raise ValueError("--categorical-class reads one numeric class as "
                         f"categories; {file} has {len(domain.class_vars)} "
                         "targets (mark the categorical ones as such in "
                         "the file).")
    if target is None:
        raise ValueError(f"{file} has no class variable; --categorical-class "
                         "needs one (mark it, or name it with --class "
                         "NAME).")
    if target.is_discrete:
        return table
    y = table.Y
    numbers, codes = np.unique(y[~np.isnan(y)], return_inverse=True)
    classes = np.full(y.shape, np.nan)
    classes[~np.isnan(y)] = codes
    variable = DiscreteVariable(target.name,
                                values=[f"{v:g}" for v in numbers])
    return Table.from_numpy(
        Domain(domain.attributes, variable, domain.metas), table.X, classes,
        table.metas, table.W if table.has_weights() else None)


def _whole_number_note(table):
    """Say when a class whose type Orange guessed (named, not marked in the
    file) is numeric but holds only a few whole numbers -- class codes,
    most likely, as in the bundled led24.tsv -- and so is scored as
    regression."""
    target = table.domain.class_var
    if target is None:      # several targets: each as it is
        return
    y = table.Y[~np.isnan(table.Y)]
    distinct = np.unique(y)
    if target.is_continuous and 0 < len(distinct) <= 10 \
            and np.all(distinct == np.round(distinct)):
        print(f"note: the class {target.name!r} holds only the whole "
              f"numbers {', '.join(f'{v:g}' for v in distinct)} and is "
              "scored as a number (regression); add --categorical-class "
              "to score them as classes.", file=sys.stderr)


def scorer_options(args):
    """The scorer's keyword arguments from the command line."""
    if args.estimator is not None:
        return _corelearn_options(args)
    if args.costs is not None:
        raise ValueError("--costs is the cost matrix of CORElearn's "
                         "cost-sensitive estimators; use it with "
                         "--estimator ReliefFexpC (ReliefFavgC, ReliefFpe, "
                         "ReliefFpa, ReliefKukar).")
    if args.method == "irelief":
        return _irelief_options(args)
    for given, name in ((args.max_iterations, "--max-iterations"),
                        (args.tolerance, "--tolerance"),
                        (args.damping, "--damping")):
        if given is not None:
            raise ValueError(f"{name} is I-RELIEF's; use it with --method "
                             "irelief.")
    options = dict(n_iterations=args.m, k_nearest=args.k,
                   random_state=args.seed,
                   weight_by_distance=args.weight_by_distance,
                   sigma=args.sigma, misses=args.misses, n_jobs=args.n_jobs,
                   compat=args.compat, neighbours=args.neighbours,
                   device=args.device)
    if args.scheduler is not None or args.dask is not None:
        if args.n_jobs is not None and args.dask is None:
            raise ValueError("--n-jobs sets this machine's threads; on a "
                             "Dask cluster the workers' threads run the "
                             "tasks. Leave --n-jobs out with --scheduler.")
        check_cluster_options(args.method, args.compat, device=args.device)
    elif cuda.check_device(args.device) == "cuda":
        reason = cuda.unavailable_reason()
        if reason is not None:
            raise ValueError(reason.replace("device='cuda'", "--device cuda"))
    if variant(args.method).uses_T:
        options["T"] = args.T
    elif args.T is not None:
        raise ValueError("--T is pdReliefF's steepness; use it with "
                         "--method pdrelieff.")
    return options


def _corelearn_options(args):
    """CORElearn's keyword arguments (``--estimator NAME``); a ValueError
    for the options the estimator sets itself."""
    given = [name for name, used in (
        ("--method", args.method != "relieff"), ("--k", args.k != 10),
        ("--neighbours", args.neighbours != NEIGHBOURS),
        ("--weight-by-distance", args.weight_by_distance),
        ("--sigma", args.sigma != 2.0), ("--misses", args.misses !=
                                         "per_class"),
        ("--m", args.m is not None and args.estimator != "ReliefFsmp"),
        ("--T", args.T is not None),
        ("--compat", args.compat is not None),
        ("--turf", args.turf is not None)) if used]
    if given:
        raise ValueError(f"--estimator {args.estimator} sets CORElearn's "
                         f"neighbours and visits every instance: "
                         f"{', '.join(given)} has no meaning with it; "
                         "leave it out.")
    return dict(estimator=args.estimator, n_jobs=args.n_jobs,
                device=args.device, costs=args.costs,
                n_iterations=args.m, random_state=args.seed)


def _irelief_options(args):
    """IReliefF's keyword arguments; a ValueError for the options of visits
    and neighbours, which I-RELIEF does not have, and for a cluster."""
    if args.scheduler is not None or args.dask is not None:
        check_cluster_options("irelief")
    if args.device == "cuda":
        raise ValueError("I-RELIEF runs on the CPU: --device cuda does not "
                         "cover it; leave --device out (or use --device "
                         "auto).")
    unused = [name for name, given in (
        ("--m", args.m is not None), ("--neighbours", args.neighbours != NEIGHBOURS),
        ("--weight-by-distance", args.weight_by_distance),
        ("--misses", args.misses != "per_class"), ("--T", args.T is not None),
        ("--compat", args.compat is not None)) if given]
    if unused:
        raise ValueError(f"I-RELIEF weights every pair by a kernel of width "
                         f"--sigma and iterates: {', '.join(unused)} has no "
                         "meaning for it; leave it out.")
    options = dict(sigma=args.sigma, n_jobs=args.n_jobs)
    if args.max_iterations is not None:
        options["max_iterations"] = args.max_iterations
    if args.tolerance is not None:
        options["tolerance"] = args.tolerance
    if args.damping is not None:
        options["damping"] = _damping(args.damping)
    return options


def _damping(text):
    """--damping's value as IReliefF takes it: 'auto', None for 'none', or
    a number (checked by the scorer, whose ValueError says what to give);
    text that is none of these is passed on as it is, to be refused."""
    word = text.strip().lower()
    if word in ("auto", "none"):
        return "auto" if word == "auto" else None
    try:
        return float(word)
    except ValueError:
        return text


def score(args):
    """Read ``args.file`` with Orange, weight its attributes with the chosen
    Relief variant and print the ranking."""
    data = read_data(args.file, allow_pickle=args.allow_pickle)
    table = data.table
    for message in data.warnings:
        print(f"warning: {message}", file=sys.stderr)
    target = args.target
    if target is None and not table.domain.class_vars:
        target = class_column(table.domain, args.file)
        if target is not None:
            print(f"note: {args.file} marks no class; its column "
                  f"{target!r} is taken as the class (name another with "
                  "--class NAME).", file=sys.stderr)
    if target is not None:
        table = with_class(table, target, args.file)
    if args.categorical_class:
        table = categorical_class(table, args.file)
    elif target is not None:
        _whole_number_note(table)
    if args.weight is not None:
        table = with_weights(table, args.weight, args.file)
    if has_instance_weights(table):
        print(f"note: instance weights are used ("
              + (f"column {args.weight!r}" if args.weight is not None
                 else "the weight column the file marks")
              + "): an instance of weight w counts as w copies of itself.",
              file=sys.stderr)
    class_var = table.domain.class_var
    if not table.domain.class_vars:
        raise ValueError(f"{args.file} has no class variable; mark one (in a "
                         ".tab header, or as the last ARFF attribute), or "
                         "name it with --class NAME.")
    covariates = [] if args.covariates is None else \
        [name.strip() for name in args.covariates.split(",") if name.strip()]
    for level, message in left_out(data, table, keep=covariates):
        print(f"{level}: {args.file}: {message}", file=sys.stderr)
    if args.covariates is not None:
        # (out of the attributes: no Relief distance includes them)
        table, args.covariates = covariates_to_metas(table, covariates)
    if not table.domain.attributes:
        raise ValueError(f"{args.file} has no attributes to score.")
    options = scorer_options(args)
    with cluster(args) as client:
        return _score(args, table, class_var, options, client)


@contextmanager
def cluster(args):
    """The Dask client of ``--scheduler ADDRESS`` or ``--dask local`` (a
    LocalCluster of ``--n-jobs`` single-threaded worker processes, all
    cores by default), closed afterwards; None without them."""
    if args.scheduler is None and args.dask is None:
        yield None
        return
    if args.scheduler is not None and args.dask is not None:
        raise ValueError("--scheduler ADDRESS uses a running cluster and "
                         "--dask local starts one; give one of them.")
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ValueError("--scheduler and --dask need Dask: pip install "
                         "\"orange3-relief[dask]\".") from None
    if args.scheduler is not None:
        try:
            client = Client(args.scheduler, timeout="10s")
        except OSError as error:
            raise ValueError(f"No Dask scheduler answers at "
                             f"{args.scheduler} ({error}); start one with "
                             "'dask scheduler' or check the address.") \
                from None
        with client:
            yield client
        return
    workers = args.n_jobs if args.n_jobs not in (None, -1) \
        else os.cpu_count() or 1
    with LocalCluster(n_workers=workers, threads_per_worker=1,
                      processes=True, dashboard_address=":0") as local, \
            Client(local) as client:
        _say(f"a local Dask cluster of {workers} worker processes")
        yield client


def _score(args, table, class_var, options, client):
    """Weight the attributes of ``table`` (on ``client``'s cluster when
    given) and print the ranking."""
    if args.skip_redundant is not None and (args.turf is not None
                                            or client is not None):
        raise ValueError("--skip-redundant measures redundancy in one run "
                         "on this machine; it does not go with --turf, "
                         "--dask or --scheduler.")
    if client is not None:
        options = dict(options, client=client, n_jobs=None)
    scorer = (CORElearn if args.estimator is not None
              else METHODS[args.method])(**options)
    if args.turf is not None:
        scorer = TuRF(scorer, remove=args.turf, rounds=args.turf_rounds)
    elif args.turf_rounds is not None:
        raise ValueError("--turf-rounds is TuRF's number of rounds; use it "
                         "with --turf SHARE.")
    bar = ProgressBar(sys.stderr) if args.progress else None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if args.turf is not None:
                weights, _ = scorer.score_table(table, progress=bar)
                m = args.m or int(np.sum(~np.isnan(
                    table.Y.reshape(len(table), -1)).all(axis=1)))
            elif args.skip_redundant is not None:
                result, redundant = non_redundant(args, scorer, table, bar)
                weights, m = result.weights, result.n_iterations
            else:
                result = scorer.score_table(table, progress=bar,
                                            status=_say)
                weights, m = result.weights, result.n_iterations
        finally:
            if bar is not None:
                bar.close()
    for warning in caught:
        print(f"warning: {warning.message}", file=sys.stderr)
    with quiet_warnings():      # (the tests' first fits repeat the run's)
        extra, notes = statistics(args, scorer, table)
    if args.skip_redundant is not None:
        extra.update(redundant[0])
        notes.append(redundant[1])
    names = [var.name for var in table.domain.attributes]
    order = core_ranking(weights)[:args.top]
    header = ""
    if args.format == "table":
        targets = table.domain.class_vars
        kind = "multi-target regression" if len(targets) > 1 else \
            "regression" if class_var.is_continuous else "classification"
        weka = ", Weka's numbers" if args.compat == "weka" else ""
        hood = f"k = {args.k}" if RULES[args.neighbours].uses_k \
            else f"neighbours = {args.neighbours}"
        if args.estimator is not None:
            hood = f"CORElearn's {args.estimator}"
        if args.method == "irelief" and args.turf is None:
            hood = (f"sigma = {args.sigma:g}, {result.iterations} iterations"
                    f" ({'' if result.converged else 'not '}converged)")
        turf = "" if args.turf is None else \
            f", TuRF removing {args.turf:g} of the features per round"
        gpu = gpu_name(args, client, None if args.turf is not None
                       else getattr(result, "device", "cpu"))
        header = (f"{scorer.name} on {args.file}: {len(table)} instances, "
                  f"{len(names)} features, "
                  + ("class " if len(targets) == 1 else "classes ")
                  + ", ".join(repr(var.name) for var in targets) + " "
                  f"({kind}); {hood}, m = {m}, seed = {args.seed}{weka}"
                  f"{turf}" + ("" if gpu is None else f"; GPU: {gpu}"))
    print_ranking(args.format, header, names, weights, order, extra, notes)
    return 0


def non_redundant(args, scorer, table, bar):
    """``--skip-redundant N``: the run with the redundancy of its top
    features (``scorer.redundancy``), the columns ``kept`` (1 for the N
    features kept) and ``redundancy`` (the largest update correlation with a
    kept feature; NaN below the measured top) and a note naming them."""
    n = args.skip_redundant
    result = scorer.redundancy(table, top=max(TOP, n), progress=bar)
    chosen, redundant_with = result.select(n)
    a = len(table.domain.attributes)
    kept, level = np.zeros(a), np.full(a, np.nan)
    kept[chosen] = 1
    place = {f: i for i, f in enumerate(result.features)}
    columns = [place[f] for f in chosen]
    level[result.features] = result.matrix[:, columns].max(axis=1) \
        if columns else 0.0
    level[chosen] = 0.0
    names = [var.name for var in table.domain.attributes]
    skipped = [f"{names[f]} (with {names[w]})" for f, w in
               zip(result.features, redundant_with) if w >= 0]
    note = (f"skip-redundant: kept {len(chosen)} features, "
            f"{', '.join(names[f] for f in chosen)}; redundancy = the "
            f"correlation of a feature's per-visit updates with a kept "
            f"one's (>= {THRESHOLD:g}: redundant), measured among the top "
            f"{len(result.features)}"
            + (f"; redundant: {', '.join(skipped)}" if skipped else ""))
    return result, (dict(kept=kept, redundancy=level), note)


def gpu_name(args, client=None, device=None):
    """The name of the GPU the run took, or None when it ran on the CPU or
    on a cluster's workers: ``device``, the result's (``ReliefResult.device``;
    None for TuRF's several runs: --device cuda says)."""
    if client is not None:
        return None
    if device is None:
        device = cuda.check_device(args.device)
    return cuda.device_name() if device == "cuda" else None


def statistics(args, scorer, table):
    """The columns ``--pvalues`` and ``--stability`` add ({name: values})
    and the lines said below the table."""
    extra, notes = {}, []
    tested = args.pvalues or args.test is not None or args.npdr \
        or bool(args.covariates)
    if (tested or args.stability) and args.turf is not None:
        raise ValueError("--pvalues and --stability test one run of the "
                         "scorer; they do not go with --turf.")
    bar = ProgressBar(sys.stderr) if args.progress else None
    try:
        if tested:
            chosen = chosen_test(args)
            if chosen.permutations:
                unreachable = unreachable_threshold(
                    "fdr", FDR, args.permutations,
                    len(table.domain.attributes))
                if unreachable is not None:
                    print(f"warning: {unreachable}", file=sys.stderr)
            test = scorer.significance(table, method=chosen.name,
                                       n_permutations=args.permutations,
                                       progress=bar,
                                       covariates=args.covariates)
            extra.update(p=test.p_values, q=test.q_values)
            if chosen.covariates:
                extra["coefficient"] = test.weights
                adjusted = ", ".join(args.covariates or []) or "nothing"
                notes.append(f"NPDR: coefficient of each feature's diff "
                             f"over {test.n_pairs} neighbour pairs, adjusted "
                             f"for {adjusted} (not in the distance)")
            if chosen.permutations:
                what = "each feature's column" \
                    if chosen.refits_per_feature else "the class"
                if chosen.covariates and args.covariates:
                    what = "the class, drawn from its logistic regression " \
                        "on the covariates" \
                        if not table.domain.class_var.is_continuous \
                        else "the residuals of the target on the covariates"
                notes.append(
                    f"p: {args.permutations} permutations of {what}, "
                    f"(1 + #{{null >= observed}}) / {args.permutations + 1}")
            else:
                notes.append(f"p: {chosen.display_name}: "
                             f"{chosen.description}"
                             + (f"; df = {test.df:.1f}"
                                if test.df is not None else ""))
            notes.append("q: Benjamini-Hochberg; "
                         f"{int(np.sum(test.q_values < FDR))} feature(s) "
                         f"with q < {FDR:g}")
        if args.stability:
            st = scorer.stability(table, n_resamples=args.stability,
                                  progress=bar)
            extra.update(mean_rank=st.mean_rank, rank_5=st.rank_low,
                         rank_95=st.rank_high, top_k=st.top_k_frequency)
            notes.append(f"stability: {st.n_resamples} subsamples of 63.2 % "
                         f"of the rows; top_k = share of them with the "
                         f"feature among the {st.top_k} best; Kuncheva "
                         f"index of the top-{st.top_k} sets "
                         f"{st.kuncheva:.3f}")
    finally:
        if bar is not None:
            bar.close()
    return extra, notes


def chosen_test(args):
    """The registered test of ``--test``, ``--npdr`` (NPDR's calibrated
    test, also the default with ``--covariates``), ``--stir`` or
    ``--pvalues [--permute]``."""
    if args.npdr and (args.test is not None or args.stir):
        raise ValueError("--npdr is NPDR's permutation test; give it, "
                         "--stir or --test NAME, not several.")
    if args.test is not None:
        chosen = TESTS[args.test]
    elif args.npdr or args.covariates:
        chosen = TESTS[NPDR_DEFAULT]
    else:
        chosen = find_test("stir" if args.stir else "permutation",
                           args.permute)
    if args.covariates and not chosen.covariates:
        adjusting = [f"--test {name}" for name, test in TESTS.items()
                     if test.covariates]
        raise ValueError(f"--covariates adjusts NPDR's tests; "
                         f"{chosen.name} does not adjust for covariates. Use "
                         f"--npdr or {' or '.join(adjusting)}.")
    return chosen


def shown(value, digits=None):
    """``value`` as printed: rounded to ``digits`` when given, and never a
    negative zero (-0.0, or a residue such as -2.6e-19 of Weka's sums that
    rounds to it, reads as a negative weight; adding 0.0 makes it 0.0)."""
    value = float(value)
    if digits is not None:
        value = round(value, digits)
    return value + 0.0


def print_ranking(format, header, names, weights, order, extra, notes):
    """The ranking as a table, CSV or JSON: rank, feature, weight and the
    ``extra`` columns, in ``order``.  CSV and JSON hold every digit, the
    table four (two for ranks and shares); none prints a negative zero."""
    def number(value):
        return None if math.isnan(value) else shown(value)
    columns = ["weight"] + list(extra)
    values = {"weight": weights, **extra}
    if format == "json":
        json.dump([dict(rank=rank, feature=names[i],
                        **{c: number(values[c][i]) for c in columns})
                   for rank, i in enumerate(order, start=1)],
                  sys.stdout, indent=1)
        print()
        return
    if format == "csv":
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(["rank", "feature"] + columns)
        writer.writerows([rank, names[i]] + [repr(shown(values[c][i]))
                                             for c in columns]
                         for rank, i in enumerate(order, start=1))
        return
    print(header)
    width = max([len("feature")] + [len(names[i]) for i in order])
    print(f"{'rank':>4}  {'feature':<{width}}"
          + "".join(f"  {c:>9}" for c in columns))
    for rank, i in enumerate(order, start=1):
        cells = "".join(
            f"  {shown(values[c][i], 4):>9.4f}" if c in ("weight", "p", "q")
            else f"  {shown(values[c][i], 2):>9.2f}" for c in columns)
        print(f"{rank:>4}  {names[i]:<{width}}{cells}")
    for note in notes:
        print(note)


def _positive_float(text):
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(
            f"expected a positive number, got {text!r}")
    return value


def _share(text):
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(
            f"expected a share between 0 and 1 (e.g. 0.1), got {text!r}")
    return value


def _threads(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value == 0 or value < -1:
        raise argparse.ArgumentTypeError(
            f"expected a number of threads, or -1 for all cores; got "
            f"{text!r}")
    return value


def _positive_int(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(
            f"expected a whole number of at least 1, got {text!r}")
    return value


def _cost_matrix(text):
    """``--costs``: ``corelearn.parse_costs``'s rows of floats (their shape
    and values are checked with the data)."""
    try:
        return parse_costs(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line: ``error: ...``."""

    def error(self, message):
        self.exit(2, f"error: {message} (see {self.prog} --help)\n")


def main(argv=None):
    """Run the command line with ``argv`` (``sys.argv[1:]`` when None) and
    return the exit status: 0 on success, 2 on bad input or a failed GPU
    run."""
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except (ValueError, OSError, MemoryError) as error:
        # (MemoryError: e.g. data too large for the GPU's memory, which says
        # so)
        print(f"error: {_one_line(error)}", file=sys.stderr)
        return 2
    except Exception as error:      # pylint: disable=broad-except
        if not _gpu_failure(args, error):
            raise
        print(f"error: the GPU run failed: {_one_line(error)} (run with "
              "--device cpu)", file=sys.stderr)
        return 2


def _one_line(error):
    return " ".join(str(error).split()) or type(error).__name__


def _gpu_failure(args, error):
    """Whether ``error`` is a GPU's failure (the engine's RuntimeError, or
    numba-cuda's own error) in a run that may have been on the GPU."""
    if not isinstance(error, RuntimeError) \
            and not type(error).__module__.startswith("numba"):
        return False
    try:
        return cuda.check_device(getattr(args, "device", "cpu")) != "cpu"
    except ValueError:
        return False


def build_parser():
    """The command line's parser; the rule and test choices come from the
    registries (``core.rules.RULES``, ``stats.TESTS``)."""
    parser = _Parser(
        prog="python -m orangecontrib.relief",
        description="Relief feature weighting for Orange.")
    commands = parser.add_subparsers(dest="command", required=True,
                                     parser_class=_Parser)
    demo_parser = commands.add_parser(
        "demo", help="score the bundled CorrAl data with ReliefF, dReliefF "
                     "and pdReliefF")
    demo_parser.add_argument("--rows", type=int, default=160,
                             choices=(32, 160))
    demo_parser.add_argument("--k", type=int, default=5)
    demo_parser.add_argument("--seed", type=int, default=0)
    demo_parser.set_defaults(run=demo)

    score_parser = commands.add_parser(
        "score", help="rank the features of a data file",
        description="Rank the features of FILE (any format Orange reads, "
                    "ARFF too) by their Relief weights, best first. A "
                    "numeric class gives the regression form (RReliefF).")
    _data_arguments(score_parser)
    _method_arguments(score_parser)
    _machine_arguments(score_parser)
    _statistics_arguments(score_parser)
    _cluster_arguments(score_parser)
    _output_arguments(score_parser)
    score_parser.set_defaults(run=score)
    return parser


def _data_arguments(parser):
    """The score command's data file and its class."""
    parser.add_argument("file", metavar="FILE",
                        help="data file with a class variable (or "
                             "name it with --class)")
    parser.add_argument("--allow-pickle", action="store_true",
                        help="read a pickled table (.pkl, .pickle) "
                             "and the FILE.metadata pickle Orange "
                             "reads beside a data file; loading a "
                             "pickle runs the code it holds, so only "
                             "for files you trust (default: refuse "
                             "pickles)")
    parser.add_argument("--class", dest="target", metavar="NAME",
                        help="the target column (default: the one "
                             "the file marks, else a column named "
                             "'class'); several, a,b,...: multi-target "
                             "RReliefF")
    parser.add_argument("--weight", metavar="NAME", default=None,
                        help="the numeric column of instance weights "
                             "(>= 0; an instance of weight w counts as w "
                             "copies of itself; the column is then not a "
                             "feature); default: the weight column the "
                             "file marks, if any")
    parser.add_argument("--categorical-class", action="store_true",
                        help="read a numeric class's values as "
                             "categories (e.g. codes 0-9, which "
                             "Orange reads as numbers): "
                             "classification, not regression")


def _method_arguments(parser):
    """The Relief variant and its options (k, the neighbourhood rule, TuRF,
    the visits, the rank weights, I-RELIEF's iteration, pdReliefF's T)."""
    parser.add_argument("--method", choices=tuple(METHODS),
                        default="relieff",
                        help="Relief variant: relieff, drelieff, "
                             "pdrelieff (the seed's), irelief (Sun "
                             "2007) (default: relieff)")
    parser.add_argument("--estimator", choices=corelearn_names(),
                        default=None, metavar="NAME",
                        help="one of CORElearn's Relief estimators by its "
                             "name (R's attrEval): "
                             + ", ".join(corelearn_names(available=True))
                             + " (see doc/corelearn.md)")
    parser.add_argument("--costs", type=_cost_matrix, default=None,
                        metavar="C",
                        help="the cost matrix of the cost-sensitive "
                             "estimators (--estimator ReliefFexpC, "
                             "ReliefFavgC, ReliefFpe, ReliefFpa, "
                             "ReliefKukar): its rows separated by ';', the "
                             "costs in a row by ','; row i, column j: the "
                             "cost of predicting the class's j-th value for "
                             "its i-th, e.g. \"0,1;2,0\" (default: every "
                             "cost 1)")
    parser.add_argument("--k", "--k-nearest", dest="k",
                        type=_positive_int, default=10,
                        help="nearest hits and misses per class "
                             "(default: 10)")
    parser.add_argument("--neighbours", choices=tuple(RULES),
                        default=NEIGHBOURS,
                        help="neighbourhood rule: " + "; ".join(
                            f"{name}: {rule.description}"
                            for name, rule in RULES.items())
                        + f" (default: {NEIGHBOURS})")
    parser.add_argument("--turf", type=_share, default=None,
                        metavar="SHARE",
                        help="TuRF: remove this share of the features "
                             "per round (e.g. 0.1) and score the rest "
                             "again")
    parser.add_argument("--turf-rounds", type=_positive_int,
                        default=None, metavar="N",
                        help="TuRF's rounds (default: 1/SHARE)")
    parser.add_argument("--m", "--n-iterations", dest="m",
                        type=_positive_int, default=None,
                        help="number of visited instances "
                             "(default: all)")
    parser.add_argument("--seed", "--random-state", dest="seed",
                        type=int, default=0,
                        help="seed of the visiting order; with "
                             "--compat weka, Weka's -D (default: 0)")
    parser.add_argument("--weight-by-distance", action="store_true",
                        help="rank-weighted neighbours "
                             "exp(-(rank/sigma)^2), Weka's -W")
    parser.add_argument("--sigma", type=_positive_float, default=2.0,
                        help="sigma of the rank weights, Weka's -A; "
                             "with --method irelief the width of "
                             "I-RELIEF's kernel exp(-d/sigma) "
                             "(default: 2.0)")
    parser.add_argument("--max-iterations", type=_positive_int,
                        default=None, metavar="N",
                        help="I-RELIEF's iterations at most (default: "
                             "1000)")
    parser.add_argument("--tolerance", type=_positive_float,
                        default=None,
                        help="I-RELIEF stops when its weights move by "
                             "less than this (L2; default: 1e-3)")
    parser.add_argument("--damping", default=None,
                        metavar="auto|none|LAMBDA",
                        help="I-RELIEF's step: auto (Sun's iteration, "
                             "half steps only while the weights "
                             "oscillate), none (Sun's iteration "
                             "always) or a fixed fraction of Sun's "
                             "step in (0, 1] (default: auto)")
    parser.add_argument("--misses", choices=("per_class", "any"),
                        default="per_class",
                        help="k misses from each other class, or from "
                             "any (Relief-E) (default: per_class)")
    parser.add_argument("--T", type=_positive_float, default=None,
                        help="pdReliefF's steepness (default: 2/ln m)")


def _machine_arguments(parser):
    """Where it runs (threads, device) and which definitions (--compat)."""
    parser.add_argument("--n-jobs", type=_threads, default=None,
                        help="threads (default: all cores)")
    parser.add_argument("--device", choices=cuda.DEVICES,
                        default=None,
                        help="where the visits run, the significance "
                             "tests' refits included: cpu (this "
                             "machine's cores), cuda (an NVIDIA GPU "
                             "with its driver; needs pip install "
                             "\"orange3-relief[gpu]\"), auto (the GPU "
                             "where there is one, else the CPU, with "
                             "a warning) (default: cpu, or the "
                             "environment variable "
                             "ORANGE3_RELIEF_DEVICE)")
    parser.add_argument("--compat", choices=("weka",), default=None,
                        help="weka: Weka's ReliefFAttributeEval's "
                             "numbers (default: this add-on's "
                             "definitions)")


def _statistics_arguments(parser):
    """The significance tests and the stability of the ranks."""
    parser.add_argument("--pvalues", action="store_true",
                        help="add p- and q-values (Benjamini-"
                             "Hochberg) from a permutation test of "
                             "the weights")
    parser.add_argument("--permutations", type=_positive_int,
                        default=99, metavar="R",
                        help="refits with the class permuted for "
                             "--pvalues (default: 99)")
    parser.add_argument("--permute", choices=("target", "feature"),
                        default="target",
                        help="with --pvalues: permute the class "
                             "(tests the complete null) or each "
                             "feature's column in turn (an irrelevant "
                             "feature among relevant ones; a times "
                             "the refits) (default: target)")
    parser.add_argument("--stir", action="store_true",
                        help="with --pvalues: STIR's t-test from one "
                             "run instead of permutations (ReliefF, "
                             "classification)")
    parser.add_argument("--npdr", action="store_true",
                        help="NPDR's test: each feature's coefficient "
                             "in the regression of the neighbour "
                             "pairs' class (or target) difference on "
                             "their differences, p from --permutations "
                             "permutations of the target (the one-run "
                             "p: --test npdr)")
    parser.add_argument("--covariates", metavar="NAMES", default=None,
                        help="comma-separated attributes or metas "
                             "(e.g. age,sex) that NPDR adjusts for; "
                             "they take no part in the distance "
                             "(implies --npdr unless --test names "
                             "another NPDR test)")
    parser.add_argument("--test", choices=tuple(TESTS), default=None,
                        help="the significance test (implies "
                             "--pvalues): " + "; ".join(
                                 f"{name}: {test.description}"
                                 for name, test in TESTS.items()))
    parser.add_argument("--stability", type=_positive_int,
                        default=None, metavar="B",
                        help="add each feature's mean rank, its 90%% "
                             "interval and top-k share over B "
                             "subsample refits")


def _cluster_arguments(parser):
    """A Dask cluster to run on."""
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        default=None,
                        help="run on the Dask cluster of this "
                             "scheduler (e.g. tcp://host:8786); "
                             "ReliefF and RReliefF only")
    parser.add_argument("--dask", choices=("local",), default=None,
                        help="local: run on a Dask LocalCluster of "
                             "--n-jobs worker processes started "
                             "here (default: all cores)")


def _output_arguments(parser):
    """What is printed, and how."""
    parser.add_argument("--top", type=_positive_int, default=None,
                        help="print only the N best features")
    parser.add_argument("--skip-redundant", type=_positive_int,
                        default=None, metavar="N",
                        help="keep N features, skipping any whose "
                             "per-visit updates follow a kept one's "
                             "(copies); adds the columns kept and "
                             "redundancy (classification)")
    parser.add_argument("--format", choices=("table", "csv", "json"),
                        default="table",
                        help="output format (default: table)")
    parser.add_argument("--progress", action="store_true",
                        help="show a progress bar on stderr")
