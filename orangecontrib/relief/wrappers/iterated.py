"""Iter (scikit-rebate's ``Iter``): rerun a Relief variant with the previous
run's weights in its distance until the weights settle.

Run 0 is the variant as it is.  Run i >= 1 weights the distance by fixed
feature weights v_i, delta(I1, I2) = sum_A v_i[A] diff(A, I1, I2) (seed eq.
weighted_distance), made from the previous run's weights W_{i-1}: negatives
set to 0 and the rest divided by the largest (``transformed``), v_1 that,
and from run 2 on moved only part of the way, v_i = v_{i-1} + beta
(transformed(W_{i-1}) - v_{i-1}) (skrebate's Widrow-Hoff step).  It stops
when no weight moved by ``convergence_threshold`` or more, or after
``max_iter`` runs; the result is the last run's weights.  For the feedback
variants (dReliefF, pdReliefF) v_i multiplies the weights each of their
steps takes from its own running estimate.

``iter_relief`` does it on arrays with the engine's options (the engine's
``distance_weights``); ``Iter`` wraps an Orange scorer that takes distance
weights (the add-on's ReliefF family: a copy of it with
``distance_weights`` set).

Differences from scikit-rebate 0.8: skrebate's convergence test compares the
previous run's weights *after* the transform (its ``transform_weights``
rewrites them in place) with the new run's raw weights, so on ordinary data
it never fires and every fit runs ``max_iter`` times; here the raw weights
of two runs are compared, as its docstring describes.  When every weight is
<= 0 skrebate's distance weights are all 0 (its weighted Hamming distance is
then undefined); here they are all 1 (the feedback variants' rule,
``doc/semantics.md``).  The core algorithm is this add-on's (ties shared,
RELIEF-D for missing values, k_nearest=10 against skrebate's 100).
"""
import copy

import numpy as np

from ..core.options import is_real, whole_number
from ..core.variants import variant
from .turf import Wrapper, columns_scorer

__all__ = ["iter_relief", "Iter", "transformed"]


def _check(max_iter, convergence_threshold, beta):
    whole_number(max_iter, "max_iter")
    if not is_real(convergence_threshold) or not convergence_threshold >= 0:
        raise ValueError(f"convergence_threshold, the change below which "
                         f"Iter stops, must be a number >= 0; got "
                         f"{convergence_threshold!r}.")
    if not is_real(beta) or not 0 < beta <= 1:
        raise ValueError(f"beta, the share of the way Iter's distance "
                         f"weights move per run, must be in (0, 1]; got "
                         f"{beta!r}.")


def transformed(weights):
    """Relief weights as distance weights: negatives (and NaN) 0, the rest
    divided by the largest; all 1 when none is positive."""
    weights = np.nan_to_num(np.asarray(weights, dtype=float), nan=0.0)
    positive = np.maximum(weights, 0.0)
    top = positive.max(initial=0.0)
    return positive / top if top > 0 else np.ones_like(positive)


def _runs(score, max_iter, convergence_threshold, beta, progress=None):
    """Iter around ``score(distance_weights or None) -> weights``: (the last
    run's weights, [(distance weights, weights) of every run])."""
    _check(max_iter, convergence_threshold, beta)
    weights = np.asarray(score(None), dtype=float)
    runs = [(None, weights)]
    if progress is not None:
        progress(1 / max_iter)
    distance = None
    for i in range(1, max_iter):
        target = transformed(weights)
        distance = target if distance is None \
            else distance + beta * (target - distance)
        new = np.asarray(score(distance), dtype=float)
        runs.append((distance, new))
        change = np.abs(np.nan_to_num(new - weights, nan=0.0))
        weights = new
        if progress is not None:
            progress((i + 1) / max_iter)
        if np.all(change < convergence_threshold):
            break
    if progress is not None:
        progress(1.0)
    return weights, runs


def iter_relief(X, y, nominal=None, *, max_iter=10,
                convergence_threshold=1e-4, beta=0.1, progress=None,
                **relieff_options):
    """Iter around the engine (``core.relieff`` with ``relieff_options``,
    e.g. ``variant="drelieff"``).

    Parameters
    ----------
    max_iter : int
        Runs at most (the first, unweighted, included).
    convergence_threshold : float
        Stop when every weight moved by less than this.
    beta : float
        The share of the way the distance weights move per run from run 2
        on (skrebate's Widrow-Hoff learning rate).
    progress : callable(fraction), optional
        Called after every run; may raise to cancel.

    Returns
    -------
    weights : ndarray
        The last run's weights.
    runs : list of (distance weights or None, weights)
        Every run, the first with no distance weights.
    """
    if not variant(relieff_options.get("variant", "relieff")).visits:
        raise ValueError("I-RELIEF already iterates its own distance "
                         "weights; use Iter with variant='relieff', "
                         "'drelieff' or 'pdrelieff'.")
    score = columns_scorer(X, y, nominal, relieff_options)
    columns = np.arange(X.shape[1])

    def run(distance):
        if distance is None:
            return score(columns)
        return score(columns, distance_weights=distance)
    return _runs(run, max_iter, convergence_threshold, beta, progress)


class Iter(Wrapper):
    """Iter around an Orange ``scorer`` that takes distance weights (its
    ``distance_weights`` attribute, as the add-on's ReliefF family has):
    reruns it with the transformed weights of the run before until they
    settle (``iter_relief``)."""
    label = "Iter"

    def __init__(self, scorer, max_iter=10, convergence_threshold=1e-4,
                 beta=0.1):
        _check(max_iter, convergence_threshold, beta)
        if not hasattr(scorer, "distance_weights"):
            raise ValueError(
                f"Iter reruns its scorer with weights in the distance; "
                f"{type(scorer).__name__} takes none. Use one of the "
                "add-on's ReliefF, DReliefF or PDReliefF scorers.")
        super().__init__(scorer)
        self.max_iter = max_iter
        self.convergence_threshold = convergence_threshold
        self.beta = beta

    def score_table(self, data, progress=None):
        """(weights, runs) of ``iter_relief`` on an Orange table."""
        def run(distance):
            scorer = copy.copy(self.scorer)
            scorer.distance_weights = distance
            return np.asarray(scorer(data), dtype=float).reshape(-1)
        return _runs(run, self.max_iter, self.convergence_threshold,
                     self.beta, progress)
