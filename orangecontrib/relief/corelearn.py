"""CORElearn's Relief estimators by their names (R's ``attrEval``, CORElearn
1.57 by Robnik-Sikonja), as options of this package's one engine.

``ESTIMATORS`` maps each name of CORElearn's Relief family to an entry:
the ``relieff`` keywords that compute the same estimate (with CORElearn's
defaults, ``kNearestEqual = 10``, ``kNearestExpRank = 70``,
``quotientExpRankDistance = 20``); or a function on top of the engine
(``best_k``, ``myopic``, ``merit``, ``costs``: the engine's diffs,
distances, neighbours and shares, for an estimator that is another idea
than one run of ReliefF); or, for one not computed yet, the reason.
``corelearn_estimator(name)`` gives the keywords, ``run(name, X, y)``
computes any of them, ``check(name)`` is the entry or a ValueError that
says what is wrong; the scorer ``scoring.CORElearn``, the selector
(``estimator=``) and the command line (``--estimator``) read them.

The numbers agree with CORElearn run with ``ReliefIterations = 0`` (every
instance visited) and ``numAttrProportionEqual = 0``,
``numAttrProportionDifferent = 1`` (its ramp of numeric diffs is then the
plain |v1 - v2| / range; CORElearn's defaults 0.04 and 0.1 ramp the diff
from 0 at 4 % of the range to 1 at 10 %), on data without distance ties,
duplicate instances or missing values: where those occur CORElearn departs
from ``doc/semantics.md`` (``doc/corelearn.md`` lists how, and the largest
differences measured on GAMETES, CorrAl, MONK, heart_disease, housing):

* a tie at the k-th distance: CORElearn keeps the first instances its
  partial heap sort leaves (ours share the k-th slots); in ``ReliefFexpRank``
  tied neighbours take the influence of the first rank of their tie (ours:
  the mean influence of the ranks they occupy);
* classification skips every instance at distance 0 from the visited one
  (its duplicates are neither hits nor misses; ours counts them);
* a missing value: 1 - P(v | class) with Laplace's correction, numeric
  values counted in intervals (ours: RELIEF-D's empirical laws);
* an increment of a hit or miss group at most 1e-7 is dropped.
"""
from dataclasses import dataclass, field
from functools import partial
from typing import Callable, Optional

import numpy as np

from .best_k import best_k
from .core import relieff
from .core.contract.prepare import check_instance_weights
from .core.registry import Entry, lookup
from .costs import cost_sensitive, sampled
from .merit import merit
from .mse import with_mse
from .myopic import myopic

__all__ = ["ESTIMATORS", "Estimator", "corelearn_estimator", "names",
           "check", "check_costs", "parse_costs", "run"]

#: CORElearn's defaults of the neighbourhood sizes and the rank width
K_EQUAL = 10
K_EXP_RANK = 70
SIGMA_EXP_RANK = 20.0


@dataclass(frozen=True)
class Estimator(Entry):
    """One of CORElearn's Relief estimators: ``options`` are ``relieff``'s
    keywords that compute it, or ``function(X, y, nominal, regression=)``
    computes it on top of the engine (a ``ReliefResult``; it takes
    ``progress=`` too); neither: not
    computed here, and ``missing`` says why."""
    regression: bool = False
    options: dict = field(default=None, hash=False, compare=False)
    missing: str = ""
    function: Optional[Callable] = field(default=None, compare=False)
    costs: bool = False
    sampled: bool = False

    @property
    def available(self):
        return self.options is not None or self.function is not None


def _built(name, description, regression=False, **options):
    return Estimator(name, name, description, regression,
                     dict(options, regression=regression))


def _on_top(name, description, function, regression=False):
    return Estimator(name, name, description, regression, None, "",
                     function)


def _with_costs(name, description, kind):
    return Estimator(name, name, description, False, None, "",
                     partial(cost_sensitive, kind=kind), True)


def _missing(name, description, why, regression=False):
    return Estimator(name, name, description, regression, None, why)


_NOT_YET = "this engine has no {} yet (issue 40, item 3, not reached)"


def _registry(*entries):
    return {entry.name: entry for entry in entries}


ESTIMATORS = _registry(
    _built("ReliefFequalK", "ReliefF with k = 10 nearest hits and misses "
           "of each class, of equal influence", k_nearest=K_EQUAL),
    _built("ReliefFexpRank", "ReliefF with k = 70 nearest, the neighbour at "
           "rank r of influence exp(-(r / 20)^2)", k_nearest=K_EXP_RANK,
           weight_by_distance=True, sigma=SIGMA_EXP_RANK),
    _on_top("ReliefFbestK", "ReliefF with, for each feature, its best "
            "estimate over k = 1 ... the largest class's size", best_k),
    _built("Relief", "Kira and Rendell's Relief: the nearest hit and the "
           "nearest miss (of any other class)", k_nearest=1, misses="any"),
    _on_top("MyopicReliefF", "Myopic ReliefF: its closed form with every "
            "instance a neighbour (numeric features: the best binary split)",
            myopic),
    _on_top("ReliefFmerit", "ReliefF with k = 70 rank-weighted nearest, "
            "each diff divided by the neighbour's distance", merit),
    _built("ReliefFdistance", "ReliefF with k = 70 nearest, of influence "
           "1 / distance", k_nearest=K_EXP_RANK,
           weight_by_distance="distance"),
    _built("ReliefFsqrDistance", "ReliefF with k = 70 nearest, of influence "
           "1 / distance^2", k_nearest=K_EXP_RANK,
           weight_by_distance="sqr_distance"),
    _with_costs("ReliefFexpC", "ReliefF with expected costs of "
                "misclassification", "expC"),
    _with_costs("ReliefFavgC", "ReliefF with average costs of "
                "misclassification", "avgC"),
    _with_costs("ReliefFpe", "ReliefF with priors from expected costs",
                "pe"),
    _with_costs("ReliefFpa", "ReliefF with priors from average costs",
                "pa"),
    Estimator("ReliefFsmp", "ReliefFsmp", "ReliefF with sampling by "
              "expected cost", False, None, "", sampled, True, True),
    _with_costs("ReliefKukar", "Relief with the miss weighted by its "
                "class's expected cost (Kukar)", "kukar"),
    _built("RReliefFequalK", "RReliefF with k = 10 nearest of equal "
           "influence", regression=True, k_nearest=K_EQUAL),
    _built("RReliefFexpRank", "RReliefF with k = 70 nearest, the neighbour "
           "at rank r of influence exp(-(r / 20)^2)", regression=True,
           k_nearest=K_EXP_RANK, weight_by_distance=True,
           sigma=SIGMA_EXP_RANK),
    _on_top("RReliefFbestK", "RReliefF with, for each feature, its best "
            "estimate over k = 1 ... n - 1", best_k, regression=True),
    _on_top("RReliefFwithMSE", "RReliefFexpRank combined with the MSE of "
            "the mean, each scaled to [0, 1]",
            partial(with_mse, relief_options=dict(
                k_nearest=K_EXP_RANK, weight_by_distance=True,
                sigma=SIGMA_EXP_RANK, regression=True)), regression=True),
    _built("RReliefFdistance", "RReliefF with k = 70 nearest, of "
           "influence 1 / distance", regression=True, k_nearest=K_EXP_RANK,
           weight_by_distance="distance"),
    _built("RReliefFsqrDistance", "RReliefF with k = 70 nearest, of "
           "influence 1 / distance^2", regression=True,
           k_nearest=K_EXP_RANK, weight_by_distance="sqr_distance"),
)


def names(regression=None, available=None):
    """The estimators' names, in CORElearn's order: those for a class
    (``regression=False``) or a numeric target (``True``), those this engine
    computes (``available=True``)."""
    return [name for name, entry in ESTIMATORS.items()
            if regression in (None, entry.regression)
            and available in (None, entry.available)]


def check(name, regression=None):
    """The entry of CORElearn's estimator ``name``; a ValueError says when
    it is unknown, for the other kind of target than ``regression`` (when
    given: the data's), or not computed here."""
    entry = lookup(ESTIMATORS, name, "estimator")
    if regression is not None and bool(regression) != entry.regression:
        kind = "a numeric target" if entry.regression else "a class"
        other = names(regression=bool(regression), available=True)
        raise ValueError(
            f"CORElearn's {name} is for {kind}; for this data use one of "
            f"{', '.join(other)}.")
    if not entry.available:
        other = names(regression=entry.regression, available=True)
        raise ValueError(f"CORElearn's {name} is not available: "
                         f"{entry.missing}; use one of {', '.join(other)}.")
    return entry


def check_costs(name, costs, classes=None):
    """``costs`` as a float matrix for CORElearn's estimator ``name`` and
    the data's ``classes`` (their names in the order of the class codes:
    the class variable's values, the selector's ``classes_``; None: any
    square matrix, its size is checked with the data); None stays None.
    A ValueError says when the estimator takes no cost matrix (or none is
    named), or the matrix is not a row and a column for each class, or
    has a negative or non-finite cost."""
    if costs is None:
        return None
    if name is None or not check(name).costs:
        raise _no_costs(name)
    try:
        matrix = np.asarray(costs, dtype=float)
    except (TypeError, ValueError):
        raise ValueError("costs must be a matrix of numbers (C[i, j] the "
                         "cost of predicting class j for class i); got "
                         f"{costs!r}.") from None
    if classes is None:
        if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
            raise ValueError("costs must be a square matrix (C[i, j] the "
                             "cost of predicting class j for class i); "
                             f"got shape {matrix.shape}.")
    elif matrix.shape != (len(classes), len(classes)):
        c = len(classes)
        raise ValueError(
            f"costs must be a {c} x {c} matrix, a row and a column for "
            f"each class ({', '.join(map(str, classes))}, in this order); "
            f"got shape {matrix.shape}.")
    if not np.all(np.isfinite(matrix)) or np.any(matrix < 0):
        raise ValueError("costs must be finite and non-negative (C[i, j] "
                         "the cost of predicting class j for class i); "
                         f"got {matrix.tolist()}.")
    return matrix


def parse_costs(text):
    """A cost matrix written as text, rows separated by ';' and the costs
    in a row by ',' ("0,1;2,0": C[0, 1] = 1, C[1, 0] = 2), as a list of
    rows of floats (their shape and values are ``check_costs``'s); the
    command line's ``--costs`` and the ReliefF widget's "Costs" read it.
    A ValueError says when an entry is not a number."""
    try:
        return [[float(cost) for cost in row.split(",")]
                for row in text.split(";")]
    except ValueError:
        raise ValueError(
            "expected rows of numbers, the rows separated by ';' and the "
            f"costs in a row by ',' (e.g. \"0,1;2,0\"), got {text!r}"
        ) from None


def corelearn_estimator(name, regression=None):
    """``relieff``'s keywords that compute CORElearn's estimator ``name``
    (a new dict each call); a ValueError as ``check``, or where the
    estimator is computed on top of the engine (``run`` computes every
    one)."""
    entry = check(name, regression)
    if entry.options is None:
        raise ValueError(f"CORElearn's {name} is not one run of relieff; "
                         "compute it with orangecontrib.relief.corelearn."
                         f"run({name!r}, X, y), the CORElearn scorer or "
                         "--estimator.")
    return dict(entry.options)


def run(name, X, y, nominal=None, regression=False, costs=None,
        **options):
    """CORElearn's estimator ``name`` on (X, y): ``relieff`` with its
    keywords (and ``options``: progress, n_jobs, device, ...), or its own
    function on top of the engine (which takes ``progress``, as the
    engine's: the fraction done, a callback that raises cancels, and no
    further options; the cost-sensitive ones take ``costs``, C[i, j] the
    cost of predicting class j for class i, every cost 1 by default;
    ReliefFsmp, which draws its visits, also ``n_iterations``, None: n,
    and ``random_state``)."""
    entry = check(name, regression)
    if costs is not None and not entry.costs:
        raise _no_costs(name)
    if entry.options is not None:
        return relieff(X, y, nominal, **dict(options, **entry.options))
    _refuse_on_top(name, X, y, options)
    if options.get("n_iterations") is not None and not entry.sampled:
        raise ValueError(f"CORElearn's {name} visits every instance; leave "
                         "the number of visits (n_iterations, --m) out.")
    progress = options.get("progress")
    if entry.sampled:           # (its visits are drawn: m and the seed)
        return entry.function(
            X, y, nominal, regression=regression, costs=costs,
            n_iterations=options.get("n_iterations"),
            random_state=options.get("random_state", 0), progress=progress)
    if entry.costs:
        return entry.function(X, y, nominal, regression=regression,
                              costs=costs, progress=progress)
    return entry.function(X, y, nominal, regression=regression,
                          progress=progress)


def _no_costs(name):
    """The ValueError for a cost matrix given to ``name``, which is not a
    cost-sensitive estimator (None: no estimator named)."""
    takes = [other for other, entry in ESTIMATORS.items() if entry.costs]
    what = ("no CORElearn estimator is named" if name is None
            else f"CORElearn's {name} takes no cost matrix")
    return ValueError(f"{what}; a cost matrix is for the cost-sensitive "
                      f"estimators {', '.join(takes)}.")


def _refuse_on_top(name, X, y, options):
    """A ValueError for what an estimator computed on top of the engine
    (``run``) does not take yet: instance weights other than all 1, several
    targets; the other options are not its own."""
    weights = options.get("instance_weights")
    if weights is not None and check_instance_weights(
            weights, np.shape(X)[0]) is not None:
        engine_runs = [other for other, entry in ESTIMATORS.items()
                       if entry.options is not None]
        raise ValueError(f"CORElearn's {name} does not take instance "
                         "weights yet (the table's weights, sample_weight "
                         "or --weight); leave them out, or use one of the "
                         "estimators that are one run of the engine: "
                         f"{', '.join(engine_runs)}.")
    if np.ndim(y) == 2 and np.shape(y)[1] > 1:
        raise ValueError(f"CORElearn's {name} takes one target; the data "
                         f"has {np.shape(y)[1]}.")
