"""Orange scorers for the Relief family: thin adapters over ``core.relieff``.

They behave like ``Orange.preprocess.score`` scorers::

    scorer = ReliefF(k_nearest=10)
    scorer(table)              # one weight per attribute
    scorer(table, "A0")        # the weight of one attribute
    SelectBestFeatures(method=scorer, k=5)(table)

and can be sent to the Rank widget's *Scorer* input, which calls
``score_data(table)`` and shows one column named ``scorer.name``.
"""
import numpy as np
import scipy.sparse as sp
from Orange.data import (ContinuousVariable, DiscreteVariable, Domain,
                         Table, TimeVariable, Variable)
from Orange.preprocess.preprocess import Preprocess
from Orange.preprocess.score import Scorer

from . import distributed, stats
from .core import ReliefResult, relieff
from .core.backends.cuda.backend import check_device
from .core.contract.prepare import check_instance_weights
from .core.options import check_options
from .core.rules import RULES
from . import corelearn
from .distributed import check_cluster_options
from .stats.redundancy import THRESHOLD, TOP, relief_redundancy

__all__ = ["ReliefF", "DReliefF", "PDReliefF", "RReliefF", "IReliefF",
           "CORElearn", "RULE_NAMES", "has_instance_weights", "table_weights",
           "SelectSignificant", "CovariatesToMetas", "covariate_variables",
           "covariates_to_metas",
           "SelectNonRedundant"]

#: How each neighbourhood rule is written in names and menus (from the
#: rule registry, ``core.rules``).
RULE_NAMES = {name: rule.display_name for name, rule in RULES.items()}

_ALL_FEATURES = object()   # score_data(data) without feature: Rank's call


def has_instance_weights(table):
    """Whether ``table`` has instance weights (``Table.W``) that the Relief
    scorers use: any weight other than 1 (an instance of weight w counts as
    w copies of itself, ``doc/semantics.md``, "Instance weights"; weights
    all 1 are no weights).  A widget asks this to say so."""
    weights = np.asarray(getattr(table, "W", np.zeros(0)), dtype=float)
    return weights.ndim == 1 and weights.size > 0 \
        and bool(np.any(weights != 1.0))


def table_weights(table):
    """The instance weights of ``table`` (``Table.W``) as the engine's
    ``instance_weights``, or None where it has none (or all are 1); a
    ValueError that names Table.W where they are not one finite number
    >= 0 per row (the engine's check, ``prepare.check_instance_weights``).
    """
    if not has_instance_weights(table):
        return None
    weights = np.asarray(table.W, dtype=float)
    try:
        return check_instance_weights(weights, len(table))
    except ValueError as error:
        raise ValueError(f"The table's instance weights (Table.W) cannot "
                         f"be used: {error}") from None


class ReliefF(Scorer):
    """ReliefF feature weights (Kononenko 1994; seed Fig. relieff).

    A numeric class switches to the regression form (RReliefF).  Unlike
    Orange's built-in ``ReliefF``, the default visits every instance once,
    so the weights do not depend on a random sample.

    Parameters
    ----------
    n_iterations : int, optional
        m, the number of instances visited; all when None.
    k_nearest : int
        Nearest hits (and misses per class) per visited instance.
    random_state : int or None
        Seed of the visiting order ``default_rng(seed).permutation(n)[:m]``.
    weight_by_distance : bool
        Rank-weighted neighbours exp(-(rank / sigma)^2), as Weka's ``-W``.
    sigma : float
        Width of the rank weights (Weka's ``-A``).
    misses : {"per_class", "any"}
        k misses from every other class (ReliefF) or from all other classes
        together (Relief-E; original Relief with ``k_nearest=1``).
    n_jobs : int, optional
        Threads; all cores when None.
    neighbours : {"k", "surf", "surf*", "multisurf", "multisurf*"}
        The neighbourhood rule: the k nearest hits and misses, or every
        instance within SURF's or MultiSURF's radius (the starred rules also
        score the far instances); see ``doc/semantics.md``.
    compat : {None, "weka"}
        "weka": Weka's ReliefFAttributeEval's numbers, to the last bit
        (``random_state`` is then Weka's -D seed, 1 by default in Weka, and
        ``n_iterations`` its -M; ``doc/semantics.md``, "compat='weka'").  The
        declared values of nominal attributes and of the class come from
        the domain, and date attributes add nothing and weigh 0, as in Weka.
    client : distributed.Client, optional
        Run on this Dask cluster (``orangecontrib.relief.distributed``,
        ``doc/distributed.md``): the same weights, computed by the cluster's
        workers.  ReliefF and RReliefF only: dReliefF and pdReliefF are
        sequential, and ``compat="weka"`` runs on one machine (a
        ValueError).  ``n_jobs`` does not apply on a cluster.
    device : {None, "cpu", "cuda", "auto"}
        Where the visits run (``core.relieff``'s ``device``): this
        machine's cores ("cpu"; None: the environment variable
        ORANGE3_RELIEF_DEVICE, else "cpu"), an NVIDIA GPU ("cuda": the
        ``[gpu]`` extra; the same weights to ~1e-15; a RuntimeError says
        what is missing), or the GPU where there is one, else the CPU with a
        warning once ("auto").  The significance tests' refits run there
        too.  ``compat="weka"`` runs on the CPU (a ValueError with
        "cuda"); on a Dask cluster each worker's GPU runs its tasks
        (``distributed.relieff``).

    Notes
    -----
    Instance weights: a table with weights (``Table.W``: a .tab file's
    weight column, or ``Table.set_weights``) is scored with them: an
    instance of weight w counts as w copies of itself (``core.relieff``'s
    ``instance_weights``; ``doc/semantics.md``, "Instance weights"), in
    the weights and in the significance tests.  ``compat="weka"`` refuses
    them (Weka ignores instance weights).
    """
    feature_type = Variable
    class_type = Variable
    supports_sparse_data = True
    preprocessors = []          # rows with a missing class: handled (warned) by the core
    friendly_name = "ReliefF"
    variant = "relieff"
    #: Fixed distance weights, one per attribute (``core.relieff``'s
    #: ``distance_weights``), as ``Iter`` sets them on a copy; None: none.
    distance_weights = None
    #: Names of covariates (NPDR's, as the widgets set them on the scorer
    #: they send): ``__call__`` leaves them out of the distance, as the
    #: widget does, and gives them NaN (no weight) in Rank's column.
    covariates = ()

    def __init__(self, n_iterations=None, k_nearest=10, random_state=0,
                 weight_by_distance=False, sigma=2.0, misses="per_class",
                 n_jobs=None, neighbours="k", compat=None, client=None,
                 device=None):
        check_options(self.variant, k_nearest, misses, weight_by_distance,
                      sigma, None, None, n_jobs, neighbours, compat=compat,
                      random_state=random_state)
        if device is not None:      # (None: the environment's, at run time)
            check_device(device)
        if client is not None:
            check_cluster_options(self.variant, compat, device=device)
        self.client = client
        self.device = device
        self.compat = compat
        self.n_iterations = n_iterations
        self.k_nearest = k_nearest
        self.random_state = random_state
        self.weight_by_distance = weight_by_distance
        self.sigma = sigma
        self.misses = misses
        self.n_jobs = n_jobs
        self.neighbours = neighbours

    @property
    def name(self):
        """The column title in Rank, short enough for its fixed 80-pixel
        columns: the algorithm, with k where k is not 10 ("dReliefF",
        "pdReliefF k5") or the rule ("MultiSURF*", "pdReliefF (MultiSURF)").
        ReliefF and RReliefF always say k ("ReliefF k10"): Orange's own
        scorers take the bare names."""
        if RULES[self.neighbours].uses_k:
            if self.k_nearest == 10 and \
                    self.friendly_name not in ("ReliefF", "RReliefF"):
                return self.friendly_name
            return f"{self.friendly_name} k{self.k_nearest}"
        rule = RULES[self.neighbours].display_name
        if self.friendly_name == "ReliefF":     # (not RReliefF's, ...)
            return rule
        return f"{self.friendly_name} ({rule})"

    def _options(self):
        return dict(variant=self.variant, n_iterations=self.n_iterations,
                    k_nearest=self.k_nearest, random_state=self.random_state,
                    weight_by_distance=self.weight_by_distance,
                    sigma=self.sigma, misses=self.misses, n_jobs=self.n_jobs,
                    neighbours=self.neighbours, compat=self.compat,
                    device=self.device,
                    **({} if self.distance_weights is None else
                       dict(distance_weights=self.distance_weights)))

    def _check_class(self, data):
        domain = data.domain
        if not domain.class_vars:
            raise ValueError(f"{self.name} needs data with a target variable; "
                             "set one (e.g. with Select Columns).")

    def score_table(self, data: Table, progress=None,
                    trace_every=None, status=None,
                    client=None) -> ReliefResult:
        """Run the engine on an Orange table and return the full result
        (weights, optional trace); ``progress(fraction)`` may raise to
        cancel, ``status(text)`` hears what the engine does when it is not
        just computing (e.g. preparing its fast kernels on first use).
        ``client`` (a ``distributed.Client``) runs it on a Dask cluster, as
        the scorer's own ``client`` option does.
        """
        client = client if client is not None else self.client
        X, y, nominal, options = self._inputs(data)
        if client is not None:
            return distributed.relieff(X, y, nominal, client=client,
                                       progress=progress,
                                       trace_every=trace_every,
                                       status=status, **options)
        return relieff(X, y, nominal, progress=progress,
                       trace_every=trace_every, status=status, **options)

    def _inputs(self, data):
        """(X, y, nominal, keyword options) of the engine for ``data``;
        the table's instance weights (``Table.W``, ``table_weights``) are
        the engine's ``instance_weights``."""
        self._check_class(data)
        weights = table_weights(data)
        attributes, targets = data.domain.attributes, data.domain.class_vars
        # several class variables: multi-target RReliefF (``core.relieff``)
        regression = len(targets) > 1 \
            or isinstance(data.domain.class_var, ContinuousVariable)
        nominal = np.array([var.is_discrete for var in attributes], dtype=bool)
        X, declared = data.X, {}
        if len(targets) > 1:
            declared["nominal_targets"] = [var.is_discrete for var in targets]
        if self.compat == "weka":
            X, nominal, declared = _weka_inputs(data, nominal, regression)
        return X, data.Y, nominal, dict(
            regression=regression,
            feature_names=[var.name for var in attributes],
            class_names=None if regression else data.domain.class_var.values,
            **({} if weights is None else dict(instance_weights=weights)),
            **declared, **self._options())

    def significance(self, data: Table, method="permutation",
                     n_permutations=99, permute="target", permutation_seed=0,
                     progress=None, covariates=None):
        """p- and q-values of the weights on ``data``
        (``orangecontrib.relief.stats``): ``method="permutation"`` refits
        ``n_permutations`` times with the target permuted (valid for every
        variant; costs that many runs), or with ``permute="feature"`` each
        feature's column in turn (the null of an irrelevant feature among
        relevant ones; a times the runs), ``"stir"`` tests ReliefF's
        (visit, neighbour) pairs from one run (classification; a fast
        screen, anti-conservative on small data: ``doc/statistics.md``),
        ``"npdr_permutation"`` and ``"npdr"`` NPDR's regressions, which
        adjust for ``covariates``; any name in ``stats.TESTS``.

        ``covariates``: names (or variables) of the table's attributes or
        metas to adjust for; they take no part in the distance, and their
        entries in the result are NaN.  Returns a ``stats.Significance``
        with one entry per attribute."""
        test = stats.find_test(method, permute)
        X, y, nominal, options = self._inputs(data)
        if not covariates:
            return test.run(X, y, nominal, n_permutations=n_permutations,
                            permutation_seed=permutation_seed,
                            progress=progress, **options)
        chosen = covariate_variables(data, covariates, self.name)
        attributes = data.domain.attributes
        keep = [i for i, var in enumerate(attributes) if var not in chosen]
        if not keep:
            raise ValueError("Every attribute is a covariate: leave at "
                             "least one feature to test.")
        X = X[:, keep]
        options["feature_names"] = [attributes[i].name for i in keep]
        result = test.run(
            X, y, nominal[keep], n_permutations=n_permutations,
            permutation_seed=permutation_seed, progress=progress,
            covariates=np.column_stack([_numeric_column(data, var)
                                        for var in chosen]),
            covariate_nominal=[var.is_discrete for var in chosen],
            covariate_names=[var.name for var in chosen], **options)
        return result.on_columns(keep, len(attributes))

    def stability(self, data: Table, n_resamples=50, top_k=None,
                  resample_seed=0, progress=None, **resampling):
        """Ranks over ``n_resamples`` subsample refits on ``data``
        (``stats.stability``: mean rank, 90 % interval, top-k frequency,
        Kuncheva's index)."""
        X, y, nominal, options = self._inputs(data)
        return stats.stability(X, y, nominal, n_resamples=n_resamples,
                               top_k=top_k, resample_seed=resample_seed,
                               progress=progress, **resampling, **options)

    def redundancy(self, data: Table, top=TOP, progress=None):
        """The weights and the redundancy of the ``top`` best features from
        the same run (``redundancy.relief_redundancy``: how alike their
        per-visit updates are); a discrete class only."""
        X, y, nominal, options = self._inputs(data)
        return relief_redundancy(X, y, nominal, top=top, progress=progress,
                                 **options)

    def __call__(self, data, feature=None):
        """Weights of all attributes, or of one (in the context of all)."""
        index = None if feature is None else _feature_index(data, feature,
                                                            self.name)
        if self.covariates:
            scored, _ = covariates_to_metas(data, self.covariates)
            kept = np.array([var in scored.domain.attributes
                             for var in data.domain.attributes])
            weights = np.full(len(kept), np.nan)
            weights[kept] = self.score_table(scored).weights
        else:
            weights = self.score_table(data).weights
        return weights if index is None else float(weights[index])

    def score_data(self, data, feature=_ALL_FEATURES):
        """Rank's call ``score_data(data)`` gets a 1 x n_attributes array;
        ``score_data(data, None)`` (Scorer's convention) a 1-D array and
        ``score_data(data, feature)`` one number."""
        if feature is _ALL_FEATURES:
            return self(data)[None, :]
        return self(data, feature)


class DReliefF(ReliefF):
    """dReliefF: ReliefF whose distance weights every feature by the running
    estimate, w_A = max(0, W_{t-1}[A]) (seed eq. weighted_distance).
    Parameters as :class:`ReliefF`; the visiting order matters here."""
    friendly_name = "dReliefF"
    variant = "drelieff"


class PDReliefF(ReliefF):
    """pdReliefF: the distance weights blend in the running estimate
    progressively, w_A = max(0, f(W_{t-1}[A], t)) with
    f(w, t) = (1 - w) / t^T + w (seed eq. f).

    Parameters as :class:`ReliefF`, plus ``T`` (steepness; 2 / ln m when
    None, which makes f(w, m) independent of m).
    """
    friendly_name = "pdReliefF"
    variant = "pdrelieff"

    def __init__(self, n_iterations=None, k_nearest=10, random_state=0,
                 weight_by_distance=False, sigma=2.0, misses="per_class",
                 n_jobs=None, T=None, neighbours="k", compat=None,
                 client=None, device=None):
        super().__init__(n_iterations, k_nearest, random_state,
                         weight_by_distance, sigma, misses, n_jobs,
                         neighbours, compat, client, device)
        check_options(self.variant, k_nearest, misses, weight_by_distance,
                      sigma, T, None)
        self.T = T

    def _options(self):
        return dict(super()._options(), T=self.T)


class RReliefF(ReliefF):
    """RReliefF (Robnik-Šikonja & Kononenko): ReliefF for a numeric target.

    The same scorer as :class:`ReliefF`, which switches to this form by
    itself; by this name it insists on a numeric target.
    """
    friendly_name = "RReliefF"
    class_type = ContinuousVariable

    def _check_class(self, data):
        super()._check_class(data)
        if len(data.domain.class_vars) == 1 and \
                not isinstance(data.domain.class_var, ContinuousVariable):
            raise ValueError("RReliefF needs a numeric target; use ReliefF "
                             "for a categorical one.")


class IReliefF(ReliefF):
    """I-RELIEF (Sun 2007; ``core.irelief``): every instance's hits and
    misses weighted by a kernel exp(-d / sigma) of the weighted distance,
    the mean margin's positive part (unit L2 norm) the new weights,
    repeated until they change by less than ``tolerance`` (L2), or
    ``max_iterations``.  A discrete class only.  ``score_table`` returns an
    ``irelief.IReliefResult``: its ``trace`` holds the weights after every
    iteration, ``iterations`` and ``converged`` say how it ended.

    Parameters
    ----------
    sigma : float
        The kernel width (distances are sums of diffs in [0, 1] weighted
        by unit-norm weights).
    max_iterations : int
        Iterations at most.
    tolerance : float
        Stop when ||w_new - w||_2 < tolerance.
    damping : "auto", None or float in (0, 1]
        The fraction of Sun's step each iteration takes: "auto" (Sun's
        iteration, with steps halved only while the weights oscillate),
        None (Sun's iteration always) or a fixed fraction
        (``core.irelief``).
    n_jobs : int, optional
        Threads; all cores when None.

    I-RELIEF runs on the CPU (its ``device`` is "cpu", whatever the
    environment variable ORANGE3_RELIEF_DEVICE says).
    """
    friendly_name = "I-RELIEF"
    variant = "irelief"
    class_type = DiscreteVariable

    def __init__(self, sigma=2.0, max_iterations=1000, tolerance=1e-3,
                 n_jobs=None, damping="auto"):
        check_options(self.variant, 10, "per_class", False, sigma, None,
                      None, n_jobs, max_iterations=max_iterations,
                      tolerance=tolerance, damping=damping)
        super().__init__(sigma=sigma, n_jobs=n_jobs, device="cpu")
        self.max_iterations = max_iterations
        self.tolerance = tolerance
        self.damping = damping

    def _options(self):
        return dict(super()._options(), max_iterations=self.max_iterations,
                    tolerance=self.tolerance, damping=self.damping)

    def _check_class(self, data):
        super()._check_class(data)
        if len(data.domain.class_vars) > 1:
            raise ValueError("I-RELIEF needs a single categorical target "
                             f"(Sun gives no regression form); the data has "
                             f"{len(data.domain.class_vars)}: use ReliefF "
                             "(multi-target RReliefF) for several.")
        if not isinstance(data.domain.class_var, DiscreteVariable):
            raise ValueError("I-RELIEF needs a categorical target (Sun "
                             "gives no regression form); use RReliefF for "
                             "a numeric one.")


class CORElearn(ReliefF):
    """One of CORElearn's Relief estimators by its name (R's ``attrEval``,
    ``orangecontrib.relief.corelearn``): ``CORElearn("ReliefFexpRank")``
    is ReliefF with CORElearn's k = 70 rank-weighted neighbours,
    ``CORElearn("RReliefFequalK")`` RReliefF with k = 10; the column in
    Rank is the estimator's name.  An estimator for the other kind of
    target, or one this engine does not compute, is a ValueError that
    says so.

    Parameters
    ----------
    estimator : str
        A name of ``corelearn.ESTIMATORS`` (``corelearn.names()``).
    n_jobs, device, client :
        As :class:`ReliefF`.
    costs : array of shape (n_classes, n_classes), optional
        The cost-sensitive estimators' (ReliefFexpC, ReliefFavgC,
        ReliefFpe, ReliefFpa, ReliefKukar) cost matrix: C[i, j] the cost of
        predicting class j for an instance of class i, in the order of the
        class variable's values; every cost 1 by default.  A matrix for
        another estimator, of another size than the classes or with a
        negative or non-finite cost is a ValueError.
    n_iterations, random_state :
        As :class:`ReliefF`: the number of visits drawn (None: every
        instance, CORElearn's ``ReliefIterations = 0``) and their seed;
        ReliefFsmp draws its visits by the expected costs with this seed.
        The estimators computed on top of the engine other than ReliefFsmp
        visit every instance (a ValueError where ``n_iterations`` is
        given).

    ``significance``, ``stability`` and ``redundancy`` refit one run of
    the engine: with an estimator computed on top of it they are a
    ValueError (their numbers would be plain ReliefF's).
    """
    friendly_name = "CORElearn"

    def __init__(self, estimator="ReliefFequalK", n_jobs=None, device=None,
                 client=None, costs=None, n_iterations=None, random_state=0):
        options = dict(corelearn.check(estimator).options or {})
        options.pop("regression", None)
        super().__init__(n_jobs=n_jobs, device=device, client=client,
                         n_iterations=n_iterations,
                         random_state=random_state, **options)
        self.estimator = estimator
        self.costs = corelearn.check_costs(estimator, costs)

    @property
    def name(self):
        return self.estimator

    def _check_class(self, data):
        super()._check_class(data)
        # (several targets: multi-target RReliefF, the regression form)
        corelearn.check(self.estimator, regression=len(
            data.domain.class_vars) > 1 or isinstance(
                data.domain.class_var, ContinuousVariable))

    def significance(self, data: Table, *args, **kwargs):
        self._refits_the_engine("significance tests")
        return super().significance(data, *args, **kwargs)

    def stability(self, data: Table, *args, **kwargs):
        self._refits_the_engine("stability")
        return super().stability(data, *args, **kwargs)

    def redundancy(self, data: Table, *args, **kwargs):
        self._refits_the_engine("redundancy")
        return super().redundancy(data, *args, **kwargs)

    def _refits_the_engine(self, what):
        """A ValueError for ``what`` (the tests, stability, redundancy: they
        refit one run of the engine) with an estimator computed on top of
        the engine, whose refits would be plain ReliefF's, another
        estimate."""
        if corelearn.check(self.estimator).options is None:
            raise ValueError(
                f"CORElearn's {self.estimator} is computed on top of the "
                f"engine; {what} refit one run of the engine, which would "
                f"be another estimate. Use an estimator that is one run of "
                f"the engine (e.g. ReliefFequalK, ReliefFexpRank) or "
                f"ReliefF's own options.")

    def score_table(self, data: Table, progress=None, trace_every=None,
                    status=None, client=None) -> ReliefResult:
        """As ``ReliefF.score_table``; an estimator computed on top of the
        engine (ReliefFbestK) reports ``progress`` (and is cancelled by it)
        as the engine's runs, and has no trace or cluster."""
        if corelearn.check(self.estimator).options is not None:
            return super().score_table(data, progress, trace_every, status,
                                       client)
        X, y, nominal, options = self._inputs(data)
        costs = None if self.costs is None else corelearn.check_costs(
            self.estimator, self.costs, data.domain.class_var.values)
        return corelearn.run(self.estimator, X, y, nominal,
                             options["regression"], costs=costs,
                             instance_weights=options.get("instance_weights"),
                             n_iterations=options.get("n_iterations"),
                             random_state=options.get("random_state"),
                             progress=progress)


def _feature_index(data, feature, scorer):
    """The index of ``feature`` (a name, variable or index) among the
    attributes, or a ValueError that names it."""
    domain = data.domain
    try:
        var = domain[feature]
    except (KeyError, IndexError, TypeError, ValueError):
        names = [var.name for var in domain.attributes]
        shown = ", ".join(repr(name) for name in names[:8])
        more = f" and {len(names) - 8} more" if len(names) > 8 else ""
        raise ValueError(f"{feature!r} is not a feature of the data; its "
                         f"features are {shown}{more}.") from None
    if var not in domain.attributes:
        role = "the target" if var in domain.class_vars else "a meta attribute"
        raise ValueError(f"{var.name!r} is {role}, not a feature: {scorer} "
                         "weights the features only.")
    return domain.attributes.index(var)


def covariate_variables(data, covariates, scorer="NPDR"):
    """The variables named by ``covariates`` (names, or variables) among
    the attributes and metas of ``data``, or a ValueError that says what
    to change: a name the table lacks, the target, a text variable, one
    named twice."""
    domain = data.domain
    if isinstance(covariates, (str, Variable)):
        covariates = [covariates]
    chosen = []
    for covariate in covariates:
        try:
            var = domain[covariate]
        except (KeyError, IndexError, TypeError, ValueError):
            names = [v.name for v in domain.attributes + domain.metas]
            shown = ", ".join(repr(name) for name in names[:8])
            more = f" and {len(names) - 8} more" if len(names) > 8 else ""
            raise ValueError(f"Covariate {covariate!r} is not a variable of "
                             f"the data; its attributes and metas are "
                             f"{shown}{more}.") from None
        if var in domain.class_vars:
            raise ValueError(f"Covariate {var.name!r} is the target: "
                             f"{scorer} adjusts the features' effects on the "
                             f"target for other variables.")
        if not var.is_primitive():
            raise ValueError(f"Covariate {var.name!r} holds text; a covariate "
                             f"must be numeric or categorical.")
        if var in chosen:
            raise ValueError(f"Covariate {var.name!r} is named twice.")
        chosen.append(var)
    return chosen


def _numeric_column(data, var):
    """A primitive variable's column as floats (category codes for a
    categorical one)."""
    return np.asarray(data.get_column(var), dtype=float)


def covariates_to_metas(data, covariates):
    """``data`` with the ``covariates`` (names or variables) among its
    metas: the attributes that are covariates become metas, so that no
    Relief distance includes them.  Returns the table and the covariates'
    names."""
    chosen = covariate_variables(data, covariates)
    domain = data.domain
    moved = [var for var in domain.attributes if var in chosen]
    if not moved:
        return data, [var.name for var in chosen]
    reduced = Domain([var for var in domain.attributes if var not in chosen],
                     domain.class_vars, domain.metas + tuple(moved))
    return data.transform(reduced), [var.name for var in chosen]


def _weka_inputs(data, nominal, regression):
    """compat="weka": X, the nominal mask and the declared numbers of values
    (Weka's missing-value diff and class priors depend on them) from the
    domain.  Weka's diff of a date attribute is always 0, as is that of a
    nominal column with one declared value: dates are passed as such."""
    attributes = data.domain.attributes
    n_values = [len(var.values) if var.is_discrete else 0
                for var in attributes]
    dates = [i for i, var in enumerate(attributes)
             if isinstance(var, TimeVariable)]
    X = data.X
    if dates:
        X = X.toarray() if sp.issparse(X) else X.copy()
        X[:, dates] = np.where(np.isnan(X[:, dates]), np.nan, 0.0)
        nominal = nominal.copy()
        nominal[dates] = True
        for i in dates:
            n_values[i] = 1
    return X, nominal, dict(
        n_values=n_values, n_class_values=None if regression
        else len(data.domain.class_var.values))


class CovariatesToMetas(Preprocess):
    """A preprocessor that moves the ``covariates`` (names) among the
    attributes to the metas (``covariates_to_metas``), so that a scorer
    after it neither weights them nor includes them in its distance."""

    def __init__(self, covariates):
        self.covariates = tuple(covariates)

    def __call__(self, data):
        return covariates_to_metas(data, self.covariates)[0]


class SelectSignificant(Preprocess):
    """A preprocessor that keeps the features whose Relief weights are
    significant on the data it is given: Benjamini-Hochberg q < ``alpha``
    of ``scorer.significance(data, method, n_permutations)``.  In a
    cross-validation it tests each training set again, so the test data
    never chooses the features.  A selection mode Orange's Rank lacks.
    ``covariates`` (names; NPDR's tests) are adjusted for and kept among the
    metas."""

    def __init__(self, scorer, alpha=0.05, method="permutation",
                 n_permutations=99, permute="target", covariates=()):
        if not 0 < alpha < 1:
            raise ValueError(f"alpha must be in (0, 1); got {alpha!r}.")
        self.scorer, self.alpha = scorer, alpha
        self.method, self.n_permutations = method, n_permutations
        self.permute = permute
        self.covariates = tuple(covariates)

    def __call__(self, data):
        if self.covariates:
            data = CovariatesToMetas(self.covariates)(data)
        test = self.scorer.significance(data, method=self.method,
                                        n_permutations=self.n_permutations,
                                        permute=self.permute,
                                        covariates=self.covariates)
        with np.errstate(invalid="ignore"):
            passing = test.q_values < self.alpha
        domain = data.domain
        keep = [var for var, ok in zip(domain.attributes, passing) if ok]
        return data.transform(Domain(keep, domain.class_vars, domain.metas))


class SelectNonRedundant(Preprocess):
    """A preprocessor that keeps ``n_features`` features of the data it is
    given, each adding what the kept ones do not already say: down the
    scorer's ranking, a feature whose per-visit updates follow those of a
    kept one (correlation >= ``threshold``) is skipped
    (``redundancy.select_non_redundant``).  In a cross-validation it scores
    each training set again, so the test data never chooses the features."""

    def __init__(self, scorer, n_features=5, threshold=THRESHOLD):
        if isinstance(n_features, bool) or not isinstance(
                n_features, (int, np.integer)) or n_features < 1:
            raise ValueError(f"n_features must be a whole number >= 1; got "
                             f"{n_features!r}.")
        self.scorer, self.n_features = scorer, int(n_features)
        self.threshold = threshold

    def __call__(self, data):
        result = self.scorer.redundancy(data, top=max(TOP, self.n_features))
        chosen, _ = result.select(self.n_features, self.threshold)
        domain = data.domain
        keep = [domain.attributes[i] for i in sorted(chosen)]
        return data.transform(Domain(keep, domain.class_vars, domain.metas))
