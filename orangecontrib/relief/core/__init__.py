"""Pure numpy + numba Relief engine; knows nothing of Orange or Qt."""
from .engine import ReliefResult, default_T, ranking, relieff
from .kernels import distance_weights
from .prepare import ReliefWarning

__all__ = ["relieff", "ReliefResult", "ReliefWarning", "default_T",
           "distance_weights", "ranking"]
