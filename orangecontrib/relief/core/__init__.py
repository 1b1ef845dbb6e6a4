"""Pure numpy + numba Relief engine; knows nothing of Orange or Qt.

``doc/architecture.md`` maps its modules:

* the contract's steps, written once: ``prepare`` (data in kernel form),
  ``diffs``, ``distances``, ``screens``, ``nominal``, ``sparse`` (how far
  apart two instances are), ``pairs`` (SURF's mean distance over all
  pairs), ``neighbours`` (which neighbours count, and how much),
  ``updates``, ``estimates`` and ``pairsums`` (what a visit adds, what the
  sums mean);
* the registries and options: ``registry`` (what an entry has), ``rules``
  (neighbourhood rules),
  ``options`` (every option checked once), ``speedups``, ``messages``
  (warnings), ``result`` (what a run gives back);
* the backends, one interface (``backend``: plan, layouts, visits in
  batches, result): ``compiled`` (the numba loops ``visits``, ReliefF's,
  and ``feedback``, dReliefF / pdReliefF's and that of fixed distance
  weights), ``vectorised`` (the NumPy path of a first use), ``weka``
  (compat="weka"); ``selection`` picks one (and on a first use, one per
  batch);
* ``irelief``: I-RELIEF (Sun 2007), ``relieff(variant="irelief")``, a loop
  of its own over the same diffs, distances and updates (soft
  neighbourhoods over every pair, iterated to a fixed point);
* around them in Python: ``plan`` (layouts), ``runtime`` (batches,
  threads, progress), ``engine`` (the public ``relieff``), ``warmup`` and
  ``precompile`` (compiling the kernels in the background).
"""
from . import warmup
from .engine import relieff
from .estimates import distance_weights
from .messages import ReliefWarning, collect_warnings, quiet_warnings
from .variants import default_T
from .result import ReliefResult, ranking
from .speedups import Speedups

__all__ = ["relieff", "ReliefResult", "ReliefWarning", "Speedups",
           "default_T", "distance_weights", "ranking", "collect_warnings",
           "quiet_warnings"]

# before any kernel is loaded (importing loads none): no kernel cached from
# other sources is used (``warmup.check_cache``)
warmup.check_cache()
