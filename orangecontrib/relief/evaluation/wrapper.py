"""Wrapper evaluation of feature weights: accuracy as top-weighted features are added."""
from dataclasses import dataclass
import numbers
from typing import Optional, Tuple

import numpy as np
from Orange.data import DiscreteVariable, Domain
from sklearn.model_selection import StratifiedKFold

from ..core import ranking

__all__ = ["wrapper_curve", "WrapperCurve", "PROTOCOLS"]

PROTOCOLS = ("honest", "paper")


@dataclass(frozen=True)
class WrapperCurve:
    """Accuracy of a learner on the top-``size`` features of one scorer.

    Attributes
    ----------
    scorer : str
        The scorer's name.
    protocol : str
        ``"honest"`` or ``"paper"`` (see :func:`wrapper_curve`).
    sizes : ndarray of int
        ``1, 2, ..., n_features``.
    fold_accuracy : ndarray of shape (folds, n_features)
        Classification accuracy on each test fold for each size.
    mean_accuracy, std_accuracy : ndarray of shape (n_features,)
        Mean and standard deviation (over folds, ``ddof=0``) of ``fold_accuracy``.
    best_size : int
        The smallest size with the highest mean accuracy.
    best_accuracy : float
        The mean accuracy at ``best_size``.
    feature_order : tuple of str or None
        Paper protocol: feature names in decreasing weight on all data.
        Honest protocol: None (there is one order per fold).
    fold_orders : tuple of tuple of str
        The order used in each fold (all equal under the paper protocol).
    """
    scorer: str
    protocol: str
    sizes: np.ndarray
    fold_accuracy: np.ndarray
    mean_accuracy: np.ndarray
    std_accuracy: np.ndarray
    best_size: int
    best_accuracy: float
    feature_order: Optional[Tuple[str, ...]]
    fold_orders: Tuple[Tuple[str, ...], ...]


def _scorer_name(scorer):
    for attribute in ("name", "friendly_name"):
        name = getattr(scorer, attribute, None)
        if isinstance(name, str) and name:
            return name
    return type(scorer).__name__


def _order(scorer, data):
    """Attribute indices in decreasing weight; ties keep domain order, NaN last."""
    weights = np.asarray(scorer(data), dtype=float).ravel()
    if len(weights) != len(data.domain.attributes):
        raise ValueError(f"{_scorer_name(scorer)} returned {len(weights)} weights for "
                         f"{len(data.domain.attributes)} features: a scorer must give one "
                         f"weight per feature.")
    return ranking(weights)


def wrapper_curve(data, scorers, learner=None, folds=5, protocol="honest",
                  random_state=0, progress=None):
    """Accuracy of ``learner`` as features are added in decreasing weight order.

    For each scorer and each size ``k = 1 .. n_features``, the learner is trained
    on the ``k`` top-weighted features and its classification accuracy is
    measured by stratified k-fold cross-validation
    (``sklearn.model_selection.StratifiedKFold(folds, shuffle=True,
    random_state=random_state)`` over the rows, so the same folds serve every
    scorer and size).

    Parameters
    ----------
    data : Orange.data.Table
        Data with a discrete class; rows with a missing class are left out.
    scorers : Orange Scorer or sequence of them
        Anything with ``scorer(table)`` returning one weight per attribute. NaN
        weights sort last.
    learner : Orange Learner, optional
        Defaults to 1-nearest neighbour, ``Orange.classification.KNNLearner(n_neighbors=1)``.
    folds : int
        Number of cross-validation folds (>= 2, at most the number of rows).
    protocol : {"honest", "paper"}
        ``"honest"``: the weights are recomputed on each training fold, so the
        test fold never influences which features are chosen (an unbiased
        estimate). ``"paper"``: the weights are computed once on all data and then
        cross-validated, as the seed paper did; the test rows took part in the
        choice of features, so this estimate is optimistically biased
        (selection bias).
    random_state : int or None
        Seed of the fold split.
    progress : callable, optional
        Called with the fraction done, in [0, 1], after each model; it may raise
        an exception to cancel the computation.

    Returns
    -------
    list of WrapperCurve
        One per scorer, in the order given.
    """
    if protocol not in PROTOCOLS:
        raise ValueError(f"protocol must be 'honest' (weights on each training fold) or "
                         f"'paper' (weights on all data), not {protocol!r}.")
    class_var = data.domain.class_var
    if not isinstance(class_var, DiscreteVariable):
        raise ValueError("wrapper_curve needs data with a categorical class variable: "
                         "set a discrete target.")
    attributes = data.domain.attributes
    if not attributes:
        raise ValueError("The data has no features to select.")
    data = data[~np.isnan(data.Y)]
    if not isinstance(folds, numbers.Integral) or isinstance(folds, bool) \
            or not 2 <= folds <= len(data):
        raise ValueError(f"folds must be an integer from 2 to the number of rows "
                         f"with a class ({len(data)}), not {folds!r}.")
    if callable(scorers):
        scorers = [scorers]
    scorers = list(scorers)
    if learner is None:
        from Orange.classification import KNNLearner
        learner = KNNLearner(n_neighbors=1)

    splitter = StratifiedKFold(n_splits=folds, shuffle=True, random_state=random_state)
    splits = list(splitter.split(np.zeros((len(data), 1)), data.Y))
    n_features = len(attributes)
    total, done = max(1, len(scorers) * folds * n_features), 0
    if progress is not None:
        progress(0.0)

    curves = []
    for scorer in scorers:
        order_all = _order(scorer, data) if protocol == "paper" else None
        accuracy = np.zeros((folds, n_features))
        orders = []
        for fold, (train_rows, test_rows) in enumerate(splits):
            train, test = data[train_rows], data[test_rows]
            order = order_all if protocol == "paper" else _order(scorer, train)
            orders.append(tuple(attributes[i].name for i in order))
            for size in range(1, n_features + 1):
                domain = Domain([attributes[i] for i in order[:size]], class_var)
                model = learner(train.transform(domain))
                predicted = model(test.transform(domain))
                accuracy[fold, size - 1] = np.mean(predicted == test.Y)
                done += 1
                if progress is not None:
                    progress(done / total)
        mean = accuracy.mean(axis=0)
        best = int(np.argmax(mean))
        curves.append(WrapperCurve(
            scorer=_scorer_name(scorer), protocol=protocol,
            sizes=np.arange(1, n_features + 1), fold_accuracy=accuracy,
            mean_accuracy=mean, std_accuracy=accuracy.std(axis=0),
            best_size=best + 1, best_accuracy=float(mean[best]),
            feature_order=orders[0] if protocol == "paper" else None,
            fold_orders=tuple(orders)))
    return curves
