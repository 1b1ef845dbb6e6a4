"""The compiled backend: the numba kernels on this machine's cores.

ReliefF's visits are independent: a batch is cut into chunks of whole blocks
of visits, one per thread (``runtime.in_threads``), each visited by
``relieff_loop.relief_rows``, and the update rows are then added in
visiting order (``base.add_updates``).  dReliefF's and pdReliefF's visits depend on the
ones before: ``feedback_loop.feedback_batch`` visits a batch in order, with the
threads inside each visit; so does ReliefF with fixed distance weights
(``variants.FIXED``: its weighted distances are that loop's).  The
variant's entry says which (``Variant.sequential``, read by
``base.Backend.visit``).  ``layouts.py`` chooses the layouts both read.
"""
from typing import NamedTuple

import numpy as np

from . import layouts as plan
from ..base import Backend, weighted
from .feedback_loop import feedback_batch
from ...contract.neighbours import MODE_REGRESSION, Neighbourhood
from ...contract.prepare import Data
from ..runtime import in_threads, pool
from ...speedups import Speedups
from .relieff_loop import Blocks, relief_rows
from .weighted_loop import weighted_rows, weighted_visit


class ReliefJob(NamedTuple):
    """What ReliefF's visits read (``relieff_loop.relief_rows``): named
    tuples of numpy arrays, so a job pickles, e.g. to the workers of a cluster."""
    data: Data
    blocks: Blocks
    hood: Neighbourhood
    speedups: Speedups


class WeightedJob(NamedTuple):
    """What the visits of a run with instance weights read
    (``weighted_loop.weighted_rows``), pickled as ``ReliefJob``: the
    kernels' view of the data (RELIEF-D's weighted laws where values are
    missing), the rule, each instance's weight, and regression or not."""
    data: Data
    hood: Neighbourhood
    weights: np.ndarray
    regression: bool


def relieff_job(setup):
    """The ``ReliefJob`` of a ReliefF ``Setup`` with something to learn;
    with instance weights, its ``WeightedJob``."""
    data = setup.prep.data(setup.regression,
                           plan.expectations(setup.prep, setup.speedups))
    if weighted(setup):
        return WeightedJob(data, setup.hood, setup.prep.instance_weights,
                           setup.regression)
    return ReliefJob(data,
                     plan.blocks(setup.prep, setup.speedups, setup.hood.uses_k),
                     setup.hood,
                     setup.speedups)


def visit_updates(job, rows, upd=None):
    """The update rows of visiting ``rows`` (one thread), into ``upd``:
    ``relieff_loop.relief_rows``, or ``weighted_loop.weighted_rows`` for
    a ``WeightedJob``."""
    if upd is None:
        data = job.data
        a = data.rows.nominal.shape[0] if data.sparse \
            else data.num.shape[1] + data.nom.shape[1]
        upd = np.empty((len(rows),
                        1 + 2 * a if job.hood.mode == MODE_REGRESSION else a))
    if isinstance(job, WeightedJob):
        weighted_rows(np.asarray(rows, np.int64), *job, upd)
    else:
        relief_rows(rows, job.data, job.blocks, job.hood, job.speedups, upd)
    return upd


def kernel_set(setup):
    """The compiled kernels a run needs, as ``warmup`` names the sets it
    compiles: (the loop, the nominal codes' type, the screening copy's
    type); a run with instance weights, ("weighted", the codes' type,
    "missing" where RELIEF-D's weighted laws are read, else "complete")."""
    prep = setup.prep
    codes = "int32" if prep.nom.dtype == np.int32 else "int8"
    if weighted(setup):
        return ("weighted", codes,
                "missing" if prep.law_weights is not None else "complete")
    if not setup.variant_entry.sequential:
        loop, copy = "relieff", "float32"
        if prep.n_used > plan.SCREEN_MAX_FEATURES \
                or not setup.hood.uses_k:
            copy = "float64"
    else:
        loop, copy = "feedback", "float32"
        if prep.num.size * 4 >= plan.QUANTISED_MIN_BYTES:
            copy = "uint16"
    return loop, codes, copy


class CompiledBackend(Backend):
    """The numba kernels (see the module docstring); a run with instance
    weights: ``weighted_loop``."""
    name = "compiled"
    takes_instance_weights = True

    def __init__(self, setup, n_threads=1):
        super().__init__(setup, n_threads)
        sequential = setup.variant_entry.sequential
        if not sequential:
            self.executor = self.resources.enter_context(
                pool(n_threads, setup.speedups.thread_pool))
        if weighted(setup):
            self.job = relieff_job(setup)
            self.data = self.job.data
            return
        if not sequential:
            self.job = relieff_job(setup)
        else:
            self.data = setup.prep.data(
                setup.regression, plan.expectations(setup.prep,
                                                    setup.speedups))
            self.settings, self.screening, self.tracking, self.carry = \
                plan.feedback(setup.prep, setup.variant, setup.T,
                              setup.regression, setup.speedups, n_threads,
                              setup.hood.uses_k, setup.distance_weights)

    def batch_updates(self, rows, upd):
        setup = self.setup
        if weighted(setup):     # (chunks of visits on all threads)
            in_threads(self.executor, self.n_threads,
                       np.asarray(rows, np.int64), upd, *self.job,
                       kernel=weighted_rows)
            return
        in_threads(self.executor, self.n_threads, rows, upd, *self.job,
                   kernel=relief_rows, block=self.job.blocks.size)

    def weighted_update(self, r, w):
        """One copy's update of a sequential variant with instance weights
        (``base.Backend.visit_copies_in_order``)."""
        setup = self.setup
        upd = np.empty(setup.width)
        weighted_visit(r, self.data, setup.hood, setup.prep.instance_weights,
                       w, True, setup.regression, upd)
        return upd

    def visit_in_order(self, rows, done, total, trace):
        setup = self.setup
        if weighted(setup):
            return self.visit_copies_in_order(rows, done, total, trace)
        written, self.carry = feedback_batch(
            rows, done, self.data, setup.hood, self.settings, self.screening,
            self.tracking, self.carry, setup.speedups, total,
            setup.options.trace_every or 0, trace)
        return written
