"""Pure numpy + numba Relief engine; knows nothing of Orange or Qt.

``doc/architecture.md`` maps its folders, one for each kind of room:

* here: the door (``engine``: the public ``relieff``; ``irelief``:
  I-RELIEF's loop of its own) and the registries and options (``registry``,
  ``rules``, ``variants``, ``options``, ``speedups``, ``messages``,
  ``result``), read by every adapter;
* ``contract/``: the contract's steps, each written once and called by every
  backend (``prepare``, ``diffs``, ``distances``, ``nominal``, ``sparse``,
  ``pair_means``, ``neighbours``, ``updates``, ``estimates``,
  ``pair_sums``);
* ``backends/``: one interface (``base``), batches and threads
  (``runtime``), which backend (``selection``), compiling ahead (``warmup``,
  ``precompile``), the NumPy path of a first use (``vectorised``), Weka's
  (``weka``); ``backends/compiled/`` (the numba loops and their layouts),
  ``backends/cuda/`` (the GPU's).
"""
from .backends import warmup
from .engine import relieff
from .contract.estimates import distance_weights
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
