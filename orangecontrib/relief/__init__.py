"""orange3-relief: ReliefF, dReliefF and pdReliefF feature weighting for Orange.

The scorers work like ``Orange.preprocess.score`` scorers; the engine in
``orangecontrib.relief.core`` works on plain numpy arrays.
"""
from .core import ReliefResult, ReliefWarning, relieff
from .scoring import DReliefF, PDReliefF, ReliefF, RReliefF
from .io import arff as _arff  # noqa: F401  registers the .arff reader/writer

__all__ = ["ReliefF", "DReliefF", "PDReliefF", "RReliefF", "relieff",
           "ReliefResult", "ReliefWarning"]
