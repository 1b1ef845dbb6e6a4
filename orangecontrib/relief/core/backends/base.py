"""The backend interface, and the steps of a run that every backend shares
(``doc/architecture.md``, "Adding a backend").

A run goes through four steps:

1. **prepare and plan** (``start``): the data in kernel form
   (``prepare.prepare``), the visiting order, the neighbourhood and the
   width of an update row, from options checked once (``options.Options``):
   a ``Setup``.  Weka's mode plans its own (``weka.start``).
2. **the backend's layouts**: ``Backend(setup, n_threads)`` builds what its
   kernels read (screening copies, a job to send to workers, ...).
3. **the visits**: ``Backend.run`` goes through the visiting order in
   batches (``runtime.Run``: progress and cancel between batches, the trace
   points), and ``Backend.visit`` adds each batch's updates to the running
   sums, in visiting order.
4. **the result**: ``Backend.finish`` turns the sums into weights
   (``estimates.estimate``) and a ``ReliefResult``.

The backends: ``compiled.CompiledBackend`` (the numba kernels),
``vectorised.VectorisedBackend`` (NumPy, while those compile on a first
use), ``weka.WekaBackend`` (compat="weka") and, outside the core,
``distributed.DaskBackend``; ``selection`` chooses among them.
"""
from abc import ABC
from contextlib import ExitStack
from typing import NamedTuple, Optional

import numpy as np
import scipy.sparse as sp

from ..contract import pair_sums
from ..contract import estimates
from ..contract.estimates import NO_FIXED, estimate, estimate_after
from ..messages import warn
from ..contract.neighbours import (MODE_ANY, MODE_PER_CLASS, MODE_REGRESSION,
                                   Neighbourhood)
from ..options import (BY_DISTANCE, Options, for_targets, random_generator,
                       whole_number)
from ..contract.pair_means import pair_means
from ..contract.prepare import (Prepared, check_instance_weights, prepare,
                                target_is_constant)
from ..result import ReliefResult
from ..rules import RULES
from .runtime import BATCH_BYTES, first_batch, threads, trace_steps


class Setup(NamedTuple):
    """A run as planned (``start``): its ``options``, the prepared data
    (``prepare.Prepared``; Weka's plan: ``weka.WekaData``), the visiting
    order, pdReliefF's T, the width of an update row, the neighbourhood
    (None when there is nothing to learn: all weights 0; Weka's plan: a
    ``weka.WekaHood``) and the width of STIR's pair sums that follow the
    weights in a row (0: none), and the fixed distance weights of the
    kernel columns (``options.distance_weights``; empty: none)."""
    options: Options
    prep: Prepared
    order: np.ndarray
    T: Optional[float]
    width: int
    hood: Optional[Neighbourhood]
    n_sums: int = 0
    distance_weights: np.ndarray = NO_FIXED

    @property
    def variant(self):
        """The variant's kernel code (what the kernels read)."""
        return self.options.variant

    @property
    def variant_entry(self):
        """The variant (``variants.Variant``): what the backends ask."""
        return self.options.variant_entry

    @property
    def regression(self):
        return self.options.regression

    @property
    def speedups(self):
        return self.options.speedups

    @property
    def shape(self):
        """(instances, features) of the data the visits read."""
        return self.prep.group.shape[0], self.prep.n_used


def start(X, y, nominal, options, feature_names=None, class_names=None,
          instance_weights=None):
    """Prepare the data and plan the run of ``options``: the ``Setup``
    that a backend runs (the arguments as ``engine.relieff``'s).  With
    fixed distance weights sparse data is scored dense (the sparse loop's
    running row sums follow the estimate alone)."""
    if options.distance_weights is not None and sp.issparse(X):
        X = X.toarray()
    elif sp.issparse(X) and check_instance_weights(
            instance_weights, X.shape[0]) is not None:
        X = _weighted_dense(X)
    options = for_targets(options, y)
    with threads(options.n_jobs):       # (prepare's parallel passes)
        prep = prepare(X, y, nominal, options.regression, feature_names,
                       nominal_targets=options.nominal_targets,
                       instance_weights=instance_weights)
    return plan(prep, options, class_names)


# Sparse data with instance weights is scored dense (the NumPy backend,
# which takes them, reads dense rows) up to this many values.
WEIGHTED_DENSE_MAX_VALUES = 5_000_000


def _weighted_dense(X):
    """Sparse X as a dense array for a run with instance weights, or a
    ValueError where that would be large."""
    if X.shape[0] * X.shape[1] > WEIGHTED_DENSE_MAX_VALUES:
        raise ValueError("Instance weights are taken by the NumPy backend, "
                         "which reads dense rows: sparse data of at most "
                         "5,000,000 values (rows x features) when dense; "
                         f"this data has {X.shape[0]} x {X.shape[1]}. Leave "
                         "instance_weights out, or score a sample of the "
                         "rows.")
    return X.toarray()


def plan(prep, options, class_names=None):
    """The ``Setup`` of ``options`` on the prepared data ``prep``
    (``start``; a permutation test plans its refits on one prepared data set
    with permuted targets, ``prepare.with_target``)."""
    fixed = _kernel_distance_weights(options.distance_weights, prep)
    n = prep.group.shape[0]
    m = _n_visits(options.n_iterations, prep)
    order = random_generator(options.random_state).permutation(n)[:m]
    a = prep.n_used
    hood = None
    if not (a == 0 or _nothing_to_learn(
            prep, options.regression,
            options.k_nearest if options.rule.uses_k else None,
            class_names)):
        hood = neighbourhood(prep, options.regression, options.misses,
                             options.k_nearest,
                             options.weight_by_distance, options.sigma,
                             options.rule.name)
    n_sums = 0
    if options.statistics:
        _check_statistics(options, prep)
        n_sums = pair_sums.width(a)
    visits = m if prep.instance_weights is None \
        else float(prep.instance_weights[order].sum())
    return Setup(options, prep, order, options.T_for(visits),
                 1 + 2 * a if options.regression else a, hood, n_sums, fixed)


def neighbourhood(prep, regression, misses, k_nearest, weight_by_distance,
                  sigma, rule="k"):
    """The ``Neighbourhood`` of a run (``doc/semantics.md``), with the
    fields of its rule (``rules.RULES[rule]``): the one place a rule
    reaches the kernels."""
    if misses == "any" and not regression:
        mode, n_groups = MODE_ANY, 2
    elif regression:
        mode, n_groups = MODE_REGRESSION, 1
    else:
        mode, n_groups = MODE_PER_CLASS, prep.n_classes
    n = prep.group.shape[0]
    # no group has more than the n - 1 other instances, and a group smaller
    # than k contributes all of them: a larger k is n - 1 (never O(k) memory);
    # with instance weights, fewer than the weights' sum of other copies
    if prep.instance_weights is None:
        k_nearest = min(k_nearest, n - 1)
    else:
        k_nearest = min(k_nearest, max(1, int(np.ceil(
            prep.instance_weights.sum()))))
    if weight_by_distance in BY_DISTANCE:   # 1 / d^p (neighbours.influence)
        rank_weights = np.array([-BY_DISTANCE[weight_by_distance]])
    else:
        rank_weights = (np.exp(-(np.arange(k_nearest) / sigma) ** 2)
                        if weight_by_distance else np.ones(k_nearest))
    class_factor = _class_factor(prep)
    chosen = RULES[rule]
    means = pair_means(prep) if chosen.pair_mean_radius else np.zeros(0)
    return Neighbourhood(mode, int(k_nearest), rank_weights, class_factor,
                         n_groups, chosen.uses_k, chosen.pair_mean_radius,
                         chosen.far, chosen.far_sameness,
                         float(chosen.deviations), means)


def _class_factor(prep):
    """P(C) / (1 - P(class(R))) (classes R x C), from the class counts (so
    two classes give exactly 1), or with instance weights from the classes'
    total weights."""
    n = prep.group.shape[0]
    weights = prep.instance_weights
    if weights is None:
        counts = prep.class_counts.astype(float)
        return counts[None, :] / np.maximum(n - counts[:, None], 1)
    totals = np.bincount(prep.group, weights=weights,
                         minlength=prep.n_classes)
    others = totals.sum() - totals[:, None]
    return totals[None, :] / np.where(others > 0, others, 1.0)


def _kernel_distance_weights(weights, prep):
    """The fixed distance weights of the kernel columns (empty: none), or a
    ValueError for weights that do not fit the data."""
    if weights is None:
        return NO_FIXED
    if weights.shape[0] != prep.n_features:
        raise ValueError(f"distance_weights has {weights.shape[0]} entries "
                         f"but the data has {prep.n_features} features; give "
                         "one weight per feature.")
    fixed = np.ascontiguousarray(weights[prep.used], dtype=float)
    if prep.n_used and not np.any(fixed > 0):
        raise ValueError("distance_weights are 0 for every feature that "
                         "varies; give at least one of them a positive "
                         "weight.")
    return fixed


def _n_visits(n_iterations, prep):
    """m, the number of instances visited: at most those of the prepared
    data ``prep``, which the message counts after the rows left out (of an
    unknown target, of instance weight 0), and says so."""
    n = prep.group.shape[0]
    if n_iterations is None:
        return n
    left = [f"{count} row{'s' * (count != 1)} {what}" for count, what in (
        (prep.n_dropped, "with an unknown target"),
        (prep.n_weightless, "of instance weight 0")) if count]
    counted = f"{n} instances" + (
        f" to visit, {' and '.join(left)} left out" if left else "")
    return whole_number(n_iterations, "n_iterations", maximum=n,
                        otherwise=f"or None for all (the data has "
                                  f"{counted})")


def _check_statistics(options, prep):
    """STIR's sums are ReliefF's, for classification on dense data (the
    independent visits' kernels write them: not a sequential variant)."""
    if options.regression or options.variant_entry.sequential \
            or options.rule.far:
        raise ValueError("statistics=True gathers STIR's sums of ReliefF's "
                         "near hits and misses: classification, "
                         "variant='relieff', a rule without far instances.")
    if options.trace_every or prep.sparse:
        raise ValueError("statistics=True needs dense data and no trace.")


def _nothing_to_learn(prep, regression, k_nearest, class_names=None):
    """Warn about data with a defined but trivial result (True: all weights
    are 0) and about classes not bigger than k (None: a radius rule, no
    k)."""
    if not regression and np.count_nonzero(prep.class_counts) < 2:
        warn("The data has only one class value; all weights are 0.",
             stacklevel=4)
        return True
    if regression and target_is_constant(prep.target):
        warn("The target is constant; all weights are 0.", stacklevel=4)
        return True
    if not regression and k_nearest is not None:
        sizes = prep.class_counts if prep.instance_weights is None \
            else np.bincount(prep.group, prep.instance_weights,
                             minlength=prep.n_classes)   # (copies)
        small = [c for c, count in enumerate(sizes) if count <= k_nearest]
        if small:
            warn(f"k_nearest={k_nearest} is not smaller than "
                 f"{describe_classes(small, prep, class_names, sizes=sizes)}"
                 "; such a class contributes all its instances.",
                 stacklevel=4)
    return False


def describe_classes(classes, prep, class_names=None, most=5, sizes=None):
    """How a message names the classes of indices `classes` (their codes
    in ``prep.class_codes``): by name where `class_names` gives one, with
    their sizes, the first `most` of them; with instance weights
    (``prep.instance_weights``), `sizes` are the classes' total weights,
    and the message gives those (what the caller compared)."""
    def name(c):
        code = int(prep.class_codes[c])
        if class_names is not None and code < len(class_names):
            return repr(str(class_names[code]))
        return f"code {code}"
    def size(c):
        if prep.instance_weights is None or sizes is None:
            return f"{int(prep.class_counts[c])} instances"
        return (f"{int(prep.class_counts[c])} instances of total instance "
                f"weight {sizes[c]:g}")
    shown = [f"{name(c)} ({size(c)})" for c in classes[:most]]
    more = len(classes) - len(shown)
    text = ("class " if len(classes) == 1 else "classes ") + ", ".join(shown)
    return text + (f" and {more} more" if more > 0 else "")


class Backend(ABC):
    """How a run's visits are computed: the interface every backend
    implements (see the module docstring for the steps).

    A backend is made for one planned run, ``setup`` (a ``Setup``), on
    ``n_threads`` threads.  What it must guarantee:

    * the sums: each visit's update added to ``total`` in visiting order,
      so a run gives the same bits whatever the threads and batches;
    * progress and cancel: ``run`` reports progress between batches
      (``runtime.Run``), whose callback may raise to cancel;
    * memory: O(n a) for the data plus O(batch n) for a batch, never
      n x n.

    ``close`` (or leaving a ``with`` block) releases what it holds.
    """
    #: its name: ``relieff(kernels=name)`` (``selection.BACKENDS``)
    name = None
    #: what it cannot compute, for messages (``covers``)
    uncovered = "this data"
    #: where its visits run (``ReliefResult.device``)
    device = "cpu"
    #: whether it computes runs with instance weights
    #: (``prepare.Prepared.instance_weights``; ``check_weights``), on the
    #: data that ``takes_weights_of`` accepts
    takes_instance_weights = False

    @classmethod
    def takes_weights_of(cls, setup):
        """Whether it computes ``setup``'s instance weights (given that it
        takes instance weights at all)."""
        return True

    @classmethod
    def covers(cls, setup):
        """Whether this backend can compute ``setup`` (all of them, unless a
        backend says otherwise)."""
        return True

    def __init__(self, setup, n_threads=1):
        check_weights(type(self), setup)
        self.setup, self.n_threads = setup, n_threads
        self.resources = ExitStack()     # closed by ``close``
        self._updates = None

    #: the estimate at trace points and the distance weights of a step
    #: (the NumPy backend's are plain Python)
    estimate = staticmethod(estimate)
    step_weights = staticmethod(estimates.step_weights)

    def visit(self, rows, done, total, trace):
        """Visit ``rows`` (visits done + 1, ..., done + len(rows) of the
        run), adding their updates to the running sums ``total`` in this
        order, and write the estimate after every ``trace_every``-th visit
        into the next row of ``trace``; returns how many rows it wrote.
        The variant's entry says how: a ``sequential`` one in order
        (``visit_in_order``), the others as independent visits
        (``visit_batch``)."""
        if self.setup.variant_entry.sequential:
            return self.visit_in_order(rows, done, total, trace)
        return self.visit_batch(rows, done, total, trace)

    def visit_batch(self, rows, done, total, trace):
        """Independent visits (ReliefF): their update rows computed in any
        order (``batch_updates``), then added in visiting order
        (``add_updates``)."""
        upd = self.update_buffer(len(rows))
        self.batch_updates(rows, upd)
        return add_updates(self.setup, upd, done, total, trace, self.estimate)

    def batch_updates(self, rows, upd):
        """The update rows of the independent visits ``rows`` into
        ``upd``."""
        raise NotImplementedError(f"the {self.name} backend has no "
                                  "independent visits")

    def visit_in_order(self, rows, done, total, trace):
        """Visits that depend on those before them (a ``sequential``
        variant), one at a time: the distance weights of step t from the
        sums so far (``estimates.step_weights``: the variant's, times the
        fixed ones if any), the update of visiting R with them
        (``weighted_update``) added to ``total``, the estimate at the trace
        points."""
        setup = self.setup
        if weighted(setup):
            return self.visit_copies_in_order(rows, done, total, trace)
        n, a = setup.shape
        current, w = np.empty(a), np.empty(a)
        every = setup.options.trace_every
        written = 0
        for b, r in enumerate(rows):
            t = done + b + 1
            self.step_weights(total, t, setup.variant, float(setup.T or 0.0),
                              setup.regression, current, w, n,
                              setup.distance_weights)
            total += self.weighted_update(r, w)
            if every and t % every == 0:
                self.estimate(total, t, setup.regression, trace[written])
                written += 1
        return written

    def visit_copies_in_order(self, rows, done, total, trace):
        """``visit_in_order`` with instance weights (``doc/semantics.md``,
        "Instance weights"): a visit to an instance of weight w is a visit
        to each of its copies in turn, a whole one for each whole unit of w
        and one for the fraction left, each a step of its own: the distance
        weights of the estimate so far (the step after the weight visited
        before it), its update counted with its part of w.  The trace
        points are at visited instances, the estimate divided by their
        weight."""
        setup = self.setup
        n, a = setup.shape
        weights = setup.prep.instance_weights
        current, w = np.empty(a), np.empty(a)
        every = setup.options.trace_every
        written = 0
        before = visited_weight(setup, done)
        for b, r in enumerate(rows):
            left = weights[r]
            while left > 0.0:
                part = min(1.0, left)
                self.step_weights(total, before + 1.0, setup.variant,
                                  float(setup.T or 0.0), setup.regression,
                                  current, w, n, setup.distance_weights)
                total += part * self.weighted_update(r, w)
                before += part
                left -= part
            t = done + b + 1
            if every and t % every == 0:
                self.estimate(total, before, setup.regression,
                              trace[written])
                written += 1
        return written

    def weighted_update(self, r, w):
        """The update row of visiting row ``r`` with distance weights
        ``w`` (``visit_in_order``)."""
        raise NotImplementedError(f"the {self.name} backend has no "
                                  "sequential visits")

    def largest_batch(self):
        """The most visits a batch may have: at least four per thread
        (ReliefF's chunks), at most BATCH_BYTES of update rows."""
        width = self.setup.width + self.setup.n_sums
        return max(4 * self.n_threads, BATCH_BYTES // (8 * width))

    def first_batch(self, most):
        """The visits of a run's first batch (``runtime.first_batch``)."""
        n, a = self.setup.shape
        return first_batch(n, a, most)

    def run(self, run):
        """The sums of every visit's update (STIR's sums after them), the
        visits in the batches of ``run`` (``runtime.Run``), each by
        ``visit``; the trace points go to ``run``."""
        setup = self.setup
        a = setup.shape[1]
        total = np.zeros(setup.width + setup.n_sums)
        most = self.largest_batch()
        for done, rows in run.batches(self.first_batch(most), most):
            trace = run.trace_rows(len(rows), a)
            written = self.visit(rows, done, total, trace)
            run.record(trace[:written], done, len(rows))
        return total

    def finish(self, run, total):
        """The ``ReliefResult`` of the sums ``total`` after every visit."""
        return finish(self.setup, run, total)

    def update_buffer(self, count):
        """An array for the update rows of a batch of ``count`` visits
        (ReliefF): one buffer reused by every batch (``reused_buffer``; a
        fresh array costs a page fault per 4 KB: on wide or sparse data up
        to half the run on a virtual machine)."""
        width = self.setup.width + self.setup.n_sums
        if not self.setup.speedups.reused_buffer:
            return np.empty((count, width))
        if self._updates is None or self._updates.shape[0] < count:
            size = min(self.largest_batch(), self.setup.order.shape[0])
            self._updates = np.empty((max(size, count), width))
        return self._updates[:count]

    def close(self):
        """Release the thread pools, workers' data, ... this backend
        holds."""
        self.resources.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def weighted(setup):
    """Whether ``setup`` is a run with instance weights (Weka's plan has
    none)."""
    return getattr(setup.prep, "instance_weights", None) is not None


def visited_weight(setup, t):
    """The total instance weight of the first t visits of ``setup`` (the
    divisor of the estimate after them), t itself without weights."""
    if not weighted(setup):
        return t
    return float(setup.prep.instance_weights[setup.order[:t]].sum())


def takes_weights(backend, setup):
    """Whether ``backend`` (a class) computes ``setup``'s instance weights
    (``Backend.takes_instance_weights``, ``takes_weights_of``)."""
    return backend.takes_instance_weights and backend.takes_weights_of(setup)


def check_weights(backend, setup):
    """A ValueError where ``backend`` (a class) does not take the instance
    weights of ``setup`` (``takes_weights``)."""
    if weighted(setup) and not takes_weights(backend, setup):
        raise ValueError(f"The {backend.name} backend does not take instance "
                         "weights yet; leave instance_weights out, or run "
                         "on this machine's CPU (device='cpu').")


def add_updates(setup, upd, done, total, trace, estimate=estimate):
    """ReliefF's visits done + 1, ... with the update rows ``upd`` (each
    computed on its own, in any order): add them to ``total`` in visiting
    order (so the sums depend on neither threads nor batches) and write the
    estimate at each trace point into the rows of ``trace`` (by
    ``estimate``: the NumPy path's is plain Python); returns how many."""
    every = setup.options.trace_every
    if not every:
        for row in upd:         # (row by row: the kernels' order)
            total += row
        return 0
    upd[0] += total
    running = np.cumsum(upd, axis=0, out=upd)
    steps = trace_steps(done, len(upd), every)
    for i, t in enumerate(steps):
        estimate(running[t - done - 1], visited_weight(setup, t),
                 setup.regression, trace[i])
    total[:] = running[-1]
    return len(steps)


def nothing_learnt(setup, run):
    """The sums of a run with nothing to learn (no ``setup.hood``): zeros,
    and zero estimates at its trace points."""
    m, (_, a) = setup.order.shape[0], setup.shape
    if run.trace_every:
        run.record([np.zeros(a)] * len(run.trace_steps(0, m)), 0, m)
    return np.zeros(setup.width + setup.n_sums)


def finish(setup, run, total):
    """The ``ReliefResult`` of the sums ``total`` after every visit of
    ``setup`` (STIR's sums after the weights), with the trace points that
    ``run`` recorded."""
    prep, m, a = setup.prep, setup.order.shape[0], setup.prep.n_used
    final = estimate_after(total[:setup.width], visited_weight(setup, m),
                           setup.regression)
    run.end_trace(final)
    traced = bool(run.trace_every)
    result = ReliefResult(
        weights=to_features(final[None, :], prep)[0],
        trace=to_features(np.array(run.points).reshape(-1, a), prep)
        if traced else None,
        trace_steps=np.array(run.steps, dtype=np.int64) if traced else None,
        n_iterations=m, T=setup.T, regression=setup.regression,
        n_dropped=prep.n_dropped)
    if setup.n_sums:
        result.pair_sums = pair_sums_by_feature(total[setup.width:], prep)
    return result


def pair_sums_by_feature(sums, prep):
    """The pair sums of the kernel columns as a dict on the features."""
    a = prep.n_used
    out = {key: to_features(sums[i * a:(i + 1) * a][None, :], prep)[0]
           for i, key in enumerate(("S1_hit", "S2_hit", "S1_miss",
                                    "S2_miss"))}
    for i, key in enumerate(("W_hit", "Q_hit", "W_miss", "Q_miss")):
        out[key] = float(sums[4 * a + i])
    return out


def to_features(values, prep):
    """Map kernel columns back to the caller's features (0 for constant
    features, NaN for all-missing ones)."""
    out = np.zeros((values.shape[0], prep.n_features))
    out[:, prep.used] = values
    out[:, prep.all_missing] = np.nan
    return out
