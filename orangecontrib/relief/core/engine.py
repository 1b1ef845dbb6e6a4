"""The Relief engine's public functions: ReliefF, Relief-E, RReliefF,
dReliefF, pdReliefF (and ReliefF with fixed distance weights, Iter's) as
options of one loop, and I-RELIEF (``irelief.py``) as a variant of the same
call (``doc/semantics.md`` is the
contract, ``doc/architecture.md`` the map of the code).

``relieff`` checks the options once (``options.check_options``) and the
device asked for, then ``compute`` runs the steps every run takes: plan it
(``backend.start``, or ``weka.start`` for compat="weka"), and have a backend
compute it (``selection.local_backend``: the compiled kernels, or the NumPy
path while they compile, or the GPU's) in batches on this machine's threads
(``runtime``).  ``start`` and ``run_setup`` are those two halves, for
callers that plan a run and compute it elsewhere (``stats``);
``distributed`` hands ``compute`` its Dask backend.
"""
from functools import partial

from .backends.base import finish, nothing_learnt, pair_sums_by_feature
from .backends.base import start as plan_run
from .backends.compiled.backend import relieff_job
from .contract.prepare import check_instance_weights
from .backends.cuda.backend import check_device
from .irelief import irelief
from .options import BY_DISTANCE, check_options, for_targets
from .backends.runtime import Run, threads
from .backends.selection import local_backend, on_gpu
from .backends.weka import start as weka_start

# (relieff_job and pair_sums_by_feature: for the callers that plan here and
# compute elsewhere, ``stats`` and ``benchmarks/rules_steps.py``)
__all__ = ["relieff", "relieff_options", "start", "run_setup", "compute",
           "relieff_job", "pair_sums_by_feature"]

#: ``relieff``'s parameters (numpydoc), kept apart from its code so that
#: the function reads in one screen; its docstring shows them (``help``,
#: the Sphinx pages).
PARAMETERS = """\
    Parameters
    ----------
    X : array (n_instances, n_features)
        Feature values; NaN marks a missing value.  Nominal features hold
        integer codes.
    y : array (n_instances,) or (n_instances, n_targets)
        Class codes 0, 1, ... (classification) or numbers (regression); rows
        with NaN are dropped with a warning.  Several columns are several
        targets: multi-target RReliefF (Petković, Kocev & Džeroski 2020;
        ``doc/semantics.md``, "Several class variables"): the regression
        form with diff(C) the mean over the targets known in both
        instances of each target's diff; rows with no known target are
        dropped.
    nominal : boolean array (n_features,), optional
        Which features are nominal (diff by overlap); the rest are numeric
        (range-normalised difference).
    regression : bool
        Use the RReliefF form for a numeric target.
    variant : {"relieff", "drelieff", "pdrelieff", "pdrelieff-linear", \
"pdrelieff-logistic", "irelief"}
        Distance weights: none (ReliefF), the running estimate (dReliefF) or
        the progressive blend f(w, t) = (1 - w) / t^T + w (pdReliefF), or
        the same blend with a softer s(t) in place of 1 / t^T, a linear or
        logistic ramp from 1 to 0 over T m visits (``estimates.blend``); or
        I-RELIEF (Sun 2007, ``irelief.py``): soft neighbourhoods, a kernel
        of width ``sigma`` over every pair, iterated to a fixed point
        (``max_iterations``, ``tolerance``, ``damping``; classification;
        the options of visits and neighbours do not apply and k_nearest,
        random_state are ignored; the result is an
        ``irelief.IReliefResult``, its trace one row per iteration).
    n_iterations : int, optional
        m, the number of instances visited, in the order
        ``default_rng(random_state).permutation(n)[:m]``; all when None.
    k_nearest : int
        Neighbours per group; instances tied with the k-th share its slots.
    random_state : int, Generator or None
        Seed of the visiting order.
    misses : {"per_class", "any"}
        k misses of every other class (ReliefF) or among all other classes
        together (Relief-E; original Relief with k_nearest=1).
    weight_by_distance : bool or {"distance", "sqr_distance"}
        Rank-weighted neighbours, exp(-(rank / sigma)^2) (Weka's -W / -A);
        or neighbours of influence 1 / d or 1 / d^2 of their distance d
        (2 / d_min^p at distance 0, d_min the group's nearest non-zero
        distance), CORElearn's ReliefFdistance and ReliefFsqrDistance.
    sigma : float
        Width of the rank weights; for I-RELIEF the width of its kernel
        exp(-d / sigma).
    T : float, optional
        pdReliefF's steepness; 2 / ln(m) when None.  For the ramps, the
        share of the m visits the ramp takes (1 when None).
    neighbours : {"k", "surf", "surf*", "multisurf", "multisurf*"}
        The neighbourhood rule: the k nearest hits and misses (ReliefF), or
        every instance within a radius: SURF's mean distance over all pairs,
        MultiSURF's mean distance from the visited instance minus half its
        standard deviation; the starred rules also score the far instances
        (``doc/semantics.md``, "Neighbourhood rules").
    progress : callable(fraction), optional
        Called with the fraction done; may raise to cancel the run.
    trace_every : int, optional
        Record the estimate after every ``trace_every``-th visit.
    n_jobs : int, optional
        Threads to use (None or -1: all cores).
    speedups : Speedups, optional
        Which speed mechanisms to use (all by default); for tests and
        benchmarks: the weights do not depend on them.
    status : callable(text), optional
        Told what the engine is doing when it is not just computing (e.g.
        "preparing fast kernels (first use only)").
    kernels : {None, "compiled", "vectorised"}
        The backend: None, the compiled kernels, or while they compile in
        the background (first use, ``warmup.py``) the vectorised NumPy
        path, equal to ~1e-15 (``selection.FirstUse``).  A name of
        ``selection.BACKENDS`` forces that one (tests, benchmarks).
    compat : {None, "weka"}
        "weka": Weka's ReliefFAttributeEval, to the last bit (``weka.py``).
    statistics : bool
        Also gather STIR's sums over the (visit, neighbour) pairs
        (``result.pair_sums``; ReliefF, classification, dense data).
    n_values, n_class_values, feature_names : optional
        compat="weka": declared numbers of values of each nominal feature
        and of the class (default: largest code + 1); names for errors.
    class_names : sequence of str, optional
        The class values' names, for warnings (otherwise classes are named
        by code).
    distance_weights : array (n_features,), optional
        Fixed weights >= 0 of the distance, delta = sum_A v_A diff(A)
        (seed eq. weighted_distance), as Iter (``iterated.py``) uses them;
        for dReliefF and pdReliefF they multiply each step's own.  Dense
        data (sparse X is densified); not with compat or statistics.
    max_iterations, tolerance :
        I-RELIEF's: iterations at most, and the change ||w_new - w||_2
        below which it stops.
    damping : "auto", None or float in (0, 1]
        I-RELIEF's step: the fraction lambda of Sun's step each iteration
        takes, w_new = normalised (1 - lambda) w + lambda T(w).  "auto"
        (the default): Sun's iteration (lambda = 1) until the weights
        oscillate, then halved as long as they do (down to 1/64); None:
        Sun's iteration always; a number: that lambda throughout
        (``irelief.irelief``).
    nominal_targets : boolean array (n_targets,), optional
        With several targets: which are nominal (integer codes, NaN for
        missing; diff 0 or 1); the rest are numeric (the absolute difference
        over the range).
    device : {None, "cpu", "cuda", "auto"}
        Where the visits run: this machine's cores ("cpu"; None: the
        environment variable ORANGE3_RELIEF_DEVICE, else "cpu"), an NVIDIA
        GPU ("cuda", the ``[gpu]`` extra; ``cuda.py``: the same weights to
        ~1e-15), or the GPU where one is present and covers the run, else
        the CPU with a warning once ("auto").  compat="weka" and I-RELIEF
        run on the CPU.
    instance_weights : array (n_instances,), optional
        Each instance's weight w >= 0 (Orange's ``Table.W``): it counts as
        w copies of itself, as a visited instance (its update counts w
        times; the estimate divides by the sum of the visited instances'
        weights), as a neighbour (it fills w of the k slots), in the class
        priors, RELIEF-D's laws and the radii; weight 0 leaves it out.
        Integer weights give the weights of the table with each row
        repeated w times (``doc/semantics.md``, "Instance weights").  None
        or all 1: every instance counts once (the unweighted run).  Not
        with compat="weka" (Weka's ReliefFAttributeEval ignores them).

"""


def _with_parameters(function):
    """``function`` with PARAMETERS in place of ``{parameters}`` in its
    docstring (none under ``python -OO``)."""
    if function.__doc__:
        function.__doc__ = function.__doc__.replace("    {parameters}\n",
                                                    PARAMETERS)
    return function


@_with_parameters
def relieff(X, y, nominal=None, *, regression=False, variant="relieff",
            n_iterations=None, k_nearest=10, random_state=0,
            misses="per_class", weight_by_distance=False, sigma=2.0, T=None,
            neighbours="k", progress=None, trace_every=None, n_jobs=None,
            speedups=None, status=None, kernels=None, compat=None,
            n_values=None, n_class_values=None, feature_names=None,
            class_names=None, statistics=False, distance_weights=None,
            max_iterations=1000, tolerance=1e-3, damping="auto",
            device=None, nominal_targets=None, instance_weights=None):
    """Estimate feature weights with ReliefF or one of its variants.

    {parameters}
    Returns
    -------
    ReliefResult (``run_setup``)

    References: Kononenko (1994), Robnik-Šikonja & Kononenko (2003), Prat
    Masramon & Belanche Muñoz (2005), Le et al. (2019, STIR).
    """
    options = relieff_options(
        regression=regression, variant=variant, n_iterations=n_iterations,
        k_nearest=k_nearest, random_state=random_state, misses=misses,
        weight_by_distance=weight_by_distance, sigma=sigma, T=T,
        neighbours=neighbours, trace_every=trace_every, n_jobs=n_jobs,
        speedups=speedups, statistics=statistics, compat=compat,
        distance_weights=distance_weights, max_iterations=max_iterations,
        tolerance=tolerance, damping=damping,
        nominal_targets=nominal_targets)
    options = for_targets(options, y)   # several targets: RReliefF's form
    device = check_device(device)       # the one place it is checked
    if instance_weights is not None:
        _refuse_weights(X, instance_weights, options)
    if not options.variant_entry.visits:     # I-RELIEF
        if device == "cuda":
            raise ValueError("device='cuda' does not cover I-RELIEF; use "
                             "device='cpu' or 'auto'.")
        return irelief(X, y, nominal, sigma=options.sigma,
                       max_iterations=options.max_iterations,
                       tolerance=options.tolerance,
                       damping=options.damping, progress=progress,
                       n_jobs=n_jobs, feature_names=feature_names,
                       instance_weights=instance_weights)
    if options.compat == "weka":
        plan = partial(weka_start, X, y, nominal, options, n_values,
                       n_class_values, feature_names)
    else:
        plan = partial(plan_run, X, y, nominal, options, feature_names,
                       class_names, instance_weights)
    return compute(on_this_machine(plan, device, kernels, progress, status),
                   progress)


def _refuse_weights(X, instance_weights, options):
    """A ValueError for instance weights that are not one number >= 0 per
    row (``prepare.check_instance_weights``), or that a mode which ignores
    them would not use: compat="weka" (Weka's ReliefFAttributeEval).
    Weights all 1 are no weights, in every mode."""
    if check_instance_weights(instance_weights, _rows(X)) is None:
        return
    if options.compat == "weka":
        raise ValueError("compat='weka' gives Weka's ReliefFAttributeEval, "
                         "which ignores instance weights; leave "
                         "instance_weights out, or use compat=None.")
    if options.weight_by_distance in BY_DISTANCE:
        raise ValueError(f"weight_by_distance={options.weight_by_distance!r}"
                         " (CORElearn's 1/d influences) does not take "
                         "instance weights yet; leave instance_weights out, "
                         "or weigh the neighbours by rank "
                         "(weight_by_distance=True) or not at all.")


def _rows(X):
    """The number of rows of X (an array, sparse matrix or nested list)."""
    return X.shape[0] if hasattr(X, "shape") else len(X)


def relieff_options(*, regression=False, variant="relieff",
                    n_iterations=None, k_nearest=10, random_state=0,
                    misses="per_class", weight_by_distance=False, sigma=2.0,
                    T=None, neighbours="k", trace_every=None, n_jobs=None,
                    speedups=None, statistics=False, compat=None,
                    distance_weights=None, max_iterations=1000,
                    tolerance=1e-3, damping="auto", nominal_targets=None):
    """The checked ``options.Options`` of ``relieff``'s keyword arguments
    (the same names and defaults); a ValueError that says what to change
    for one it does not accept."""
    return check_options(variant, k_nearest, misses, weight_by_distance,
                         sigma, T, trace_every, n_jobs, neighbours,
                         regression, compat, n_iterations=n_iterations,
                         random_state=random_state, speedups=speedups,
                         statistics=statistics,
                         distance_weights=distance_weights,
                         max_iterations=max_iterations, tolerance=tolerance,
                         damping=damping, nominal_targets=nominal_targets)


def start(X, y, nominal=None, *, feature_names=None, class_names=None,
          instance_weights=None, **options):
    """Check the options of ``relieff`` (its keyword arguments but the
    callbacks, ``kernels`` and Weka's) and plan the run: the ``Setup`` that
    ``run_setup`` and the other backends (``distributed``) compute, with
    the ``instance_weights`` as ``relieff`` takes them.  I-RELIEF has no
    visits to plan (a ValueError)."""
    checked = relieff_options(**options)
    if not checked.variant_entry.visits:     # I-RELIEF
        raise ValueError("I-RELIEF iterates over every pair of instances "
                         "and has no visits to plan; run it with "
                         "relieff(variant='irelief').")
    return plan_run(X, y, nominal, checked, feature_names, class_names,
                    instance_weights)


def run_setup(setup, *, progress=None, status=None, kernels=None,
              device=None):
    """Compute a planned run (the ``Setup`` of ``start``, or of
    ``weka.start``) on this machine's threads or its GPU and return the
    ``ReliefResult``; ``progress``, ``status``, ``kernels`` and ``device``
    as in ``relieff``."""
    return compute(on_this_machine(lambda: setup, check_device(device),
                                   kernels, progress, status), progress)


def on_this_machine(plan, device, kernels=None, progress=None, status=None):
    """The ``start`` of ``compute`` for this machine: the ``Setup`` of
    ``plan()``, and the backend that ``selection.local_backend`` chooses
    for it, on the GPU where the checked ``device`` takes it there
    (``selection.on_gpu``: decided once per run, an error before any
    visit)."""
    def start_here():
        setup = plan()
        gpu = on_gpu(setup, device)
        return setup, partial(local_backend, setup, kernels=kernels,
                              progress=progress, status=status, gpu=gpu)
    return start_here


def compute(start_run, progress=None):
    """The steps of every run, whichever backend computes it (this
    machine's, or ``distributed``'s Dask backend): progress 0 (a cancel
    can act before any work); ``start_run()``, the planned ``Setup`` and a
    callable that makes the ``backend.Backend`` computing it on n threads;
    the trace points (``runtime.Run``); all weights 0 where there is
    nothing to learn, else that backend's visits (``Backend.run``) and
    result (``Backend.finish``), which says where its visits ran."""
    if progress is not None:
        progress(0.0)
    setup, make_backend = start_run()
    run = Run(setup.order, setup.options.trace_every, progress)
    if setup.hood is None:
        return finish(setup, run, nothing_learnt(setup, run))
    with threads(setup.options.n_jobs) as n_threads:
        with make_backend(n_threads) as backend:
            total = backend.run(run)
    result = backend.finish(run, total)
    result.device = backend.device
    return result
