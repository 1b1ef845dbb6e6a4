"""Pure numpy + numba Relief engine; knows nothing of Orange or Qt.

``doc/architecture.md`` maps its modules: ``prepare`` (data in kernel form),
``diffs``, ``distances``, ``screens``, ``nominal``, ``sparse`` (how far apart
two instances are), ``neighbours`` (which neighbours count, and how much),
``updates`` and ``estimates`` (what a visit adds, what the sums mean),
``visits`` (ReliefF's loop) and ``feedback`` (dReliefF / pdReliefF's), with
``plan`` and ``engine`` in Python around them.
"""
from .engine import ReliefResult, default_T, ranking, relieff
from .estimates import distance_weights
from .prepare import ReliefWarning
from .speedups import Speedups

__all__ = ["relieff", "ReliefResult", "ReliefWarning", "Speedups",
           "default_T", "distance_weights", "ranking"]
