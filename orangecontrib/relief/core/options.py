"""The options of a Relief run, checked in one place (``check_options``)
into one object (``Options``) before any backend sees them: the compiled
kernels, the first-use NumPy path, Weka's mode and the Dask backend all read
the ``Options`` that passed here."""
import numbers
import os
from dataclasses import dataclass, replace
from typing import Any, Optional

import numpy as np

from .contract.prepare import several_targets
from .rules import RULES, Rule, rule
from .speedups import ALL, Speedups
from .variants import FIXED, Variant, variant as variant_named

MISSES = ("per_class", "any")
#: ``weight_by_distance``'s influences by distance: the power p of 1 / d^p
#: (CORElearn's ReliefFdistance and ReliefFsqrDistance)
BY_DISTANCE = {"distance": 1.0, "sqr_distance": 2.0}
COMPATS = (None, "weka")


def is_whole(value):
    """Whether `value` is an int (numpy's too), not a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def is_real(value):
    """Whether `value` is a real number (Python's or numpy's), not a bool."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def whole_number(value, name, minimum=1, maximum=None, otherwise=""):
    """`value` as an int if it is a whole number in [minimum, maximum];
    else a ValueError that says so (``otherwise``: what else is allowed,
    e.g. "or None for all")."""
    if not is_whole(value) or value < minimum \
            or (maximum is not None and value > maximum):
        bound = f"of at least {minimum}" if maximum is None \
            else f"between {minimum} and {maximum}"
        raise ValueError(f"{name} must be a whole number {bound}"
                         f"{', ' + otherwise if otherwise else ''}; "
                         f"got {value!r}.")
    return int(value)


def one_of(value, name, valid):
    """`value` if it is one of `valid`; else a ValueError naming the option
    (`name`, e.g. "device" or "the environment variable ...") and the
    values it takes."""
    if isinstance(value, str) and value in valid:
        return value
    choices = [repr(v) for v in valid]
    listed = " or ".join(choices) if len(choices) < 3 else \
        ", ".join(choices[:-1]) + " or " + choices[-1]
    raise ValueError(f"{name} must be {listed}; got {value!r}.")


def from_environment(variable, valid, default):
    """The value of the environment variable `variable` (`default` when it
    is unset or empty), checked to be one of `valid` (``one_of``; the
    message names the variable)."""
    value = os.environ.get(variable)
    if not value:
        return default
    return one_of(value, f"The environment variable {variable}", valid)


def random_generator(seed, name="random_state"):
    """numpy's ``default_rng(seed)``, or a ValueError naming the option
    (`name`) where `seed` is not a seed numpy takes: a whole number >= 0,
    a numpy Generator (BitGenerator, SeedSequence), or None."""
    if not isinstance(seed, (bool, float, str, bytes, complex)):
        try:
            return np.random.default_rng(seed)
        except (TypeError, ValueError):
            pass
    raise ValueError(f"{name} must be a seed: a whole number >= 0, a numpy "
                     f"Generator, or None; got {seed!r}.")


def results_rows(count, width, name, zeros=False):
    """An empty (or ``zeros``) count x width float array, one row per refit
    that option `name` asks for; a ValueError naming it where the rows do
    not fit in memory (numpy's "Unable to allocate 21.8 TiB")."""
    try:
        return np.zeros((count, width)) if zeros \
            else np.empty((count, width))
    except MemoryError:
        raise ValueError(f"{name}={count} keeps {count:,} rows of {width} "
                         f"numbers, more than this machine's memory; ask "
                         f"for fewer.") from None


@dataclass(frozen=True)
class Options:
    """The options of one run, as ``relieff`` takes them, after
    ``check_options`` accepted them.  Every backend reads this one object.

    ``variant_entry`` is the variant (``variants.Variant``: what the
    backends ask; ReliefF with ``distance_weights`` is ``variants.FIXED``),
    ``variant`` its kernel code (what the kernels read, ``estimates``'),
    ``rule`` the neighbourhood rule (``rules.Rule``); ``distance_weights``
    the fixed weights of the distance (Iter's, one per feature) or None;
    ``max_iterations``, ``tolerance`` and ``damping`` I-RELIEF's
    (``damping`` "auto", None or a float); ``n_iterations`` and
    ``random_state`` are checked against the data when the run is planned
    (the number of instances bounds m; Weka takes its own seeds)."""
    variant_entry: Variant
    k_nearest: int
    misses: str
    weight_by_distance: Any     # False, True (rank) or BY_DISTANCE's
    sigma: float
    T: Optional[float]
    trace_every: Optional[int]
    n_jobs: Optional[int]
    rule: Rule
    regression: bool
    compat: Optional[str] = None
    n_iterations: Optional[int] = None
    random_state: Any = 0
    speedups: Speedups = ALL
    statistics: bool = False
    distance_weights: Optional[np.ndarray] = None
    max_iterations: int = 1000
    tolerance: float = 1e-3
    damping: Any = "auto"
    nominal_targets: Optional[tuple] = None

    @property
    def variant(self):
        """The variant's kernel code (what the kernels read)."""
        return self.variant_entry.code

    def T_for(self, m):
        """The T the kernels read for m visits (``Variant.kernel_T``:
        pdReliefF's 2 / ln m unless given, the ramps' length in visits
        T m); None where T does not apply."""
        kernel_T = self.variant_entry.kernel_T
        return None if kernel_T is None else kernel_T(self.T, m)


def check_options(variant, k_nearest, misses, weight_by_distance, sigma, T,
                  trace_every, n_jobs=None, neighbours="k",
                  regression=False, compat=None, *, n_iterations=None,
                  random_state=0, speedups=None, statistics=False,
                  distance_weights=None, max_iterations=1000,
                  tolerance=1e-3, damping="auto", nominal_targets=None):
    """The ``Options`` of a run, or a ValueError that says what to change
    for any option ``relieff`` does not accept (its arguments, with their
    names)."""
    if n_jobs is not None and (not is_whole(n_jobs) or n_jobs == 0
                               or n_jobs < -1):
        raise ValueError(f"n_jobs must be a positive number of threads, or -1 "
                         f"(or None) for all cores; got {n_jobs!r}.")
    entry = variant_named(variant)
    whole_number(k_nearest, "k_nearest")
    if misses not in MISSES:
        raise ValueError(f"misses must be 'per_class' (ReliefF) or 'any' "
                         f"(Relief-E); got {misses!r}.")
    weight_by_distance = _influence(weight_by_distance, compat)
    chosen = rule(neighbours)
    if not chosen.uses_k and weight_by_distance:
        raise ValueError(f"weight_by_distance ranks the k nearest; with "
                         f"neighbours={neighbours!r} every neighbour within "
                         "the radius counts the same. Use neighbours='k', or "
                         "weight_by_distance=False.")
    if regression and not chosen.regression:
        raise ValueError(f"neighbours={neighbours!r} scores far instances, "
                         "which RReliefF (a numeric target) does not define; "
                         "use 'surf' or 'multisurf'.")
    if weight_by_distance is True and not (is_real(sigma) and sigma > 0):
        raise ValueError(f"sigma must be a positive number; got {sigma!r}.")
    if T is not None and not (is_real(T) and T > 0):
        raise ValueError(f"T must be a positive number (or None for "
                         f"2/ln m); got {T!r}.")
    if trace_every is not None:
        whole_number(trace_every, "trace_every",
                     otherwise="or None for no trace")
    if compat not in COMPATS:
        raise ValueError(f"compat must be None (this add-on's definitions) "
                         f"or 'weka' (Weka's ReliefFAttributeEval); got "
                         f"{compat!r}.")
    if compat != "weka":       # (Weka's -D seed: weka._check_seed)
        random_generator(random_state)
    if compat == "weka" and misses != "per_class":
        raise ValueError("Weka has no misses='any' (Relief-E); with "
                         "compat='weka' use misses='per_class'.")
    if compat == "weka" and not chosen.weka:
        raise ValueError("Weka's ReliefFAttributeEval has only the k "
                         "nearest neighbours; with compat='weka' use "
                         f"neighbours={_weka_rules()}.")
    if not entry.visits:        # I-RELIEF's own options
        damping = check_irelief_options(sigma, max_iterations, tolerance,
                                        regression, damping)
        _refuse_for_irelief(neighbours=(neighbours, "k"),
                            misses=(misses, "per_class"),
                            weight_by_distance=(weight_by_distance, False),
                            T=(T, None), compat=(compat, None),
                            statistics=(statistics, False),
                            n_iterations=(n_iterations, None),
                            distance_weights=(distance_weights, None))
    if regression and not entry.regression:
        raise ValueError(f"{entry.display_name} is defined for a discrete "
                         "class only; for a numeric target use "
                         "variant='relieff' (RReliefF) with "
                         "regression=True.")
    if distance_weights is not None:
        distance_weights = _check_distance_weights(distance_weights, compat,
                                                   statistics)
        if not entry.feedback:      # (the sequential loop's fixed weights)
            entry = FIXED
    return Options(entry, int(k_nearest), misses,
                   weight_by_distance, sigma, T, trace_every, n_jobs,
                   chosen, bool(regression), compat, n_iterations,
                   random_state, ALL if speedups is None else speedups,
                   bool(statistics), distance_weights, max_iterations,
                   tolerance, damping, _flags(nominal_targets))


def _flags(nominal_targets):
    """``nominal_targets`` as a tuple of bools (None: none given), or a
    ValueError for what is not a flag per target."""
    if nominal_targets is None:
        return None
    flags = np.asarray(nominal_targets, dtype=object).ravel().tolist()
    if not flags or not all(isinstance(flag, (bool, np.bool_))
                            or (is_whole(flag) and flag in (0, 1))
                            for flag in flags):
        raise ValueError(f"nominal_targets must be a flag (True or False) "
                         f"per target column of y; got {nominal_targets!r}.")
    return tuple(bool(flag) for flag in flags)


def for_targets(options, y):
    """``options`` for the target ``y``: unchanged for one target; for
    several (``prepare.several_targets``: multi-target Relief, RReliefF's
    form with diff(C) the mean of the targets' diffs) the regression form,
    or a ValueError that says why these options do not take several
    targets."""
    if not several_targets(y, options.nominal_targets):
        if options.nominal_targets is not None:
            raise ValueError("nominal_targets describes the columns of a "
                             "two-dimensional y (instances x targets); this "
                             "y has one target: leave nominal_targets out.")
        return options
    entry, t = options.variant_entry, np.shape(y)[1]
    why = None
    if not (entry.regression and entry.visits):
        why = (f"{entry.display_name} has no regression form; use "
               "variant='relieff', 'drelieff' or 'pdrelieff'")
    elif not options.rule.regression:
        why = (f"neighbours={options.rule.name!r} scores far instances, "
               "which RReliefF does not define; use 'k', 'surf' or "
               "'multisurf'")
    elif options.compat is not None:
        why = "Weka's ReliefFAttributeEval takes one class; leave compat out"
    elif options.statistics:
        why = ("STIR's sums are classification's (one discrete class); "
               "leave statistics out")
    elif options.nominal_targets is not None \
            and len(options.nominal_targets) != t:
        why = (f"nominal_targets has {len(options.nominal_targets)} flags "
               f"but y has {t} target columns; give one flag per target")
    if why is not None:
        raise ValueError(f"y has {t} target columns (several targets: "
                         f"multi-target RReliefF), but {why}.")
    return replace(options, regression=True)


def _influence(weight_by_distance, compat):
    """``weight_by_distance`` checked: False, True (rank weights) or a name
    of ``BY_DISTANCE``."""
    if isinstance(weight_by_distance, str):
        if weight_by_distance not in BY_DISTANCE:
            raise ValueError(
                "weight_by_distance must be False, True (rank weights "
                "exp(-(rank / sigma)^2)), 'distance' (1 / d) or "
                f"'sqr_distance' (1 / d^2); got {weight_by_distance!r}.")
        if compat == "weka":
            raise ValueError("Weka's ReliefFAttributeEval weights "
                             "neighbours by rank only; with compat='weka' "
                             "use weight_by_distance=True or False.")
        return weight_by_distance
    return bool(weight_by_distance)


def check_irelief_options(sigma, max_iterations, tolerance, regression=False,
                          damping="auto"):
    """A ValueError that says what to change for an I-RELIEF option it does
    not accept (``irelief.irelief``'s); else ``damping`` checked
    (``check_damping``)."""
    if regression:
        raise ValueError("I-RELIEF (Sun 2007) is defined for a discrete "
                         "class only; for a numeric target use "
                         "variant='relieff' (RReliefF) with "
                         "regression=True.")
    if not is_real(sigma) or not 0 < sigma < np.inf:
        raise ValueError(f"sigma, I-RELIEF's kernel width, must be a "
                         f"positive number (e.g. 2.0); got {sigma!r}.")
    whole_number(max_iterations, "max_iterations")
    if not is_real(tolerance) or not tolerance >= 0:
        raise ValueError(f"tolerance, the change ||w_new - w||_2 below "
                         f"which I-RELIEF stops, must be a number >= 0 "
                         f"(e.g. 1e-3); got {tolerance!r}.")
    return check_damping(damping)


def check_damping(damping):
    """I-RELIEF's ``damping`` checked: "auto", None, or a number in (0, 1]
    (as a float); else a ValueError that says so."""
    if damping is None or (isinstance(damping, str) and damping == "auto"):
        return damping
    if isinstance(damping, str) or not is_real(damping) \
            or not 0 < damping <= 1:
        raise ValueError(f"damping, the fraction of each I-RELIEF step "
                         f"taken, must be 'auto' (damp oscillations only), "
                         f"None (Sun's iteration) or a number in (0, 1]; "
                         f"got {damping!r}.")
    return float(damping)


def _refuse_for_irelief(**given):
    """A ValueError for the options that have no meaning for I-RELIEF
    (``given``: name -> (value, the value that means "not used"))."""
    for name, (value, unused) in given.items():
        same = value is None if unused is None else \
            (value is not None and bool(value == unused))
        if not same:
            raise ValueError(
                f"I-RELIEF weights every pair of instances by a kernel of "
                f"their distance and iterates to a fixed point: {name} has "
                f"no meaning for it; leave it out (or {unused!r}).")


def _check_distance_weights(weights, compat, statistics):
    """Iter's fixed distance weights as a float array, or a ValueError."""
    if compat is not None or statistics:
        raise ValueError("distance_weights (fixed weights in the distance, "
                         "as Iter uses) go with compat=None and "
                         "statistics=False.")
    try:
        weights = np.array(weights, dtype=float)
    except (TypeError, ValueError):
        raise ValueError("distance_weights must be numbers, one per "
                         "feature.") from None
    if weights.ndim != 1 or not np.all(np.isfinite(weights)) \
            or np.any(weights < 0):
        raise ValueError("distance_weights must be one finite weight >= 0 "
                         "per feature (a 1-D array).")
    weights.setflags(write=False)
    return weights


def _weka_rules():
    return " or ".join(repr(r.name) for r in RULES.values() if r.weka)
