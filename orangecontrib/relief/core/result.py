"""What a Relief run gives back, whichever backend computed it."""
from dataclasses import dataclass
from typing import Optional

import numpy as np


@dataclass
class ReliefResult:
    """What a Relief run computed.

    Attributes
    ----------
    weights : ndarray (n_features,)
        The estimates W[A]; 0 for constant features, NaN for features with no
        known value.
    trace : ndarray (n_points, n_features) or None
        The estimate after every ``trace_every``-th visited instance (and after
        the last one), for convergence plots.
    trace_steps : ndarray (n_points,) or None
        The number of visited instances at each trace point.
    n_iterations : int
        m, the number of visited instances.
    T : float or None
        pdReliefF's steepness actually used.
    regression : bool
        True when the RReliefF form (numeric class) was used.
    n_dropped : int
        Rows left out because their class value was missing.
    pair_sums : dict or None
        With ``statistics=True``: STIR's sums over the (visit, neighbour)
        pairs (``pairsums``), per feature ``S1_hit``, ``S2_hit``,
        ``S1_miss``, ``S2_miss`` (0 for constant features, NaN for those
        with no known value) and the scalars ``W_hit``, ``Q_hit``,
        ``W_miss``, ``Q_miss``.
    device : str
        Where the visits ran: "cpu" or "cuda" (``relieff(device=...)``).
    """
    weights: np.ndarray
    trace: Optional[np.ndarray]
    trace_steps: Optional[np.ndarray]
    n_iterations: int
    T: Optional[float]
    regression: bool
    n_dropped: int
    pair_sums: Optional[dict] = None
    device: str = "cpu"


def ranking(weights):
    """Feature indices from the largest weight down; ties keep the features'
    order and NaN weights (features with no known value) come last."""
    weights = np.asarray(weights, dtype=float)
    return np.argsort(-np.where(np.isnan(weights), -np.inf, weights),
                      kind="stable")
