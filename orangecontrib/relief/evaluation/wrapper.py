"""Wrapper evaluation of feature weights: accuracy as top-weighted features are added."""
from dataclasses import dataclass
import numbers
from typing import Optional, Tuple

import numpy as np
from Orange.data import DiscreteVariable, Domain
from sklearn.model_selection import LeaveOneOut, StratifiedKFold

from ..core import ranking

__all__ = ["wrapper_curve", "WrapperCurve", "PROTOCOLS", "LEAVE_ONE_OUT", "NN_VOTE"]

PROTOCOLS = ("honest", "paper")

#: ``folds=LEAVE_ONE_OUT``: one fold per row, tested on that row alone.
LEAVE_ONE_OUT = "loo"

#: ``learner=NN_VOTE``: the add-on's own 1-nearest-neighbour rule for discrete
#: features, in which every training row at the smallest distance votes (see
#: :func:`wrapper_curve`); computed incrementally, so much faster than refitting a
#: learner for every size.
NN_VOTE = "1nn-vote"

#: Distances closer than this are tied (sums of the fractional differences of
#: missing values are not exact).
_TIE_TOLERANCE = 1e-9


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
        Classification accuracy on each test fold for each size (with leave-one-out,
        one row per data row: 1 or 0, or a fraction with the ``NN_VOTE`` learner).
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
    pooled_accuracy : ndarray of shape (n_features,)
        Correct predictions over all test rows divided by the number of rows
        (``mean_accuracy`` weights the folds equally instead; the two agree when
        the folds have equal sizes, e.g. with leave-one-out).
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
    pooled_accuracy: Optional[np.ndarray] = None


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
    scorer and size), or by leave-one-out (``folds="loo"``).

    Parameters
    ----------
    data : Orange.data.Table
        Data with a discrete class; rows with a missing class are left out.
    scorers : Orange Scorer or sequence of them
        Anything with ``scorer(table)`` returning one weight per attribute. NaN
        weights sort last.
    learner : Orange Learner or "1nn-vote", optional
        Defaults to 1-nearest neighbour, ``Orange.classification.KNNLearner(n_neighbors=1)``
        (one-hot coded features, mean imputation, Euclidean distance; among
        training rows at the same distance scikit-learn's search picks one).
        ``"1nn-vote"`` (``NN_VOTE``), for discrete features only: the distance is
        the number of chosen features whose values differ; a missing value differs
        from value ``v`` by ``1 - P(v)`` and from another missing value by
        ``1 - sum_v P(v)^2``, with P the value frequencies in the training rows.
        Every training row at the smallest distance casts one vote; when classes tie
        on votes, the prediction is shared among them equally, so a test row counts
        as ``1/t`` correct if its class is one of ``t`` tied classes (the expected
        accuracy of breaking the tie at random). The result depends neither on the
        order of the rows nor on a search structure, and the curve is computed by
        adding one feature's differences at a time.
    folds : int or "loo"
        Number of cross-validation folds (>= 2, at most the number of rows), or
        ``"loo"`` (``LEAVE_ONE_OUT``): leave-one-out, one fold per row (no
        shuffling; ``random_state`` is not used).
    protocol : {"honest", "paper"}
        ``"honest"``: the weights are recomputed on each training fold, so the
        test fold never influences which features are chosen (an unbiased
        estimate; with leave-one-out the scorer runs once per row, without it).
        ``"paper"``: the weights are computed once on all data and then
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
    data, leave_one_out = _checked_data(data, folds, protocol)
    if callable(scorers):
        scorers = [scorers]
    scorers = list(scorers)
    learner, voting = _checked_learner(learner, data.domain.attributes)
    if leave_one_out:
        splitter = LeaveOneOut()
    else:
        splitter = StratifiedKFold(n_splits=folds, shuffle=True, random_state=random_state)
    splits = list(splitter.split(np.zeros((len(data), 1)), data.Y))
    total = max(1, len(scorers) * len(splits) * len(data.domain.attributes))
    done = 0
    if progress is not None:
        progress(0.0)

    def step():
        nonlocal done
        done += 1
        if progress is not None:
            progress(done / total)
    return [_scorer_curve(scorer, data, splits, protocol, learner, voting, step)
            for scorer in scorers]


def _checked_data(data, folds, protocol):
    """The rows of ``data`` with a class, and whether ``folds`` asks for
    leave-one-out; a ValueError for a protocol, class, features or folds that
    ``wrapper_curve`` cannot use."""
    if protocol not in PROTOCOLS:
        raise ValueError(f"protocol must be 'honest' (weights on each training fold) or "
                         f"'paper' (weights on all data), not {protocol!r}.")
    if not isinstance(data.domain.class_var, DiscreteVariable):
        raise ValueError("wrapper_curve needs data with a categorical class variable: "
                         "set a discrete target.")
    if not data.domain.attributes:
        raise ValueError("The data has no features to select.")
    data = data[~np.isnan(data.Y)]
    leave_one_out = isinstance(folds, str) and folds == LEAVE_ONE_OUT
    if not leave_one_out and (
            not isinstance(folds, numbers.Integral) or isinstance(folds, bool)
            or not 2 <= folds <= len(data)):
        raise ValueError(f"folds must be an integer from 2 to the number of rows "
                         f"with a class ({len(data)}), or 'loo' (leave-one-out), "
                         f"not {folds!r}.")
    if leave_one_out and len(data) < 2:
        raise ValueError("Leave-one-out needs at least two rows with a class.")
    return data, leave_one_out


def _checked_learner(learner, attributes):
    """(the learner, whether it is the voting 1-NN ``NN_VOTE``): None gives
    Orange's 1-nearest neighbour; a ValueError for a name other than NN_VOTE,
    or NN_VOTE on numeric features."""
    voting = isinstance(learner, str)
    if voting and learner != NN_VOTE:
        raise ValueError(f"learner must be an Orange learner or {NN_VOTE!r}, "
                         f"not {learner!r}.")
    if voting and not all(isinstance(var, DiscreteVariable) for var in attributes):
        raise ValueError(f"learner={NN_VOTE!r} needs discrete features; use an Orange "
                         f"learner (the default KNNLearner) for numeric ones.")
    if learner is None:
        from Orange.classification import KNNLearner
        learner = KNNLearner(n_neighbors=1)
    return learner, voting


def _scorer_curve(scorer, data, splits, protocol, learner, voting, step):
    """The ``WrapperCurve`` of one scorer over the folds ``splits``;
    ``step()`` after each model (progress)."""
    attributes, class_var = data.domain.attributes, data.domain.class_var
    n_features = len(attributes)
    order_all = _order(scorer, data) if protocol == "paper" else None
    accuracy = np.zeros((len(splits), n_features))
    correct = np.zeros(n_features)
    orders = []
    for fold, (train_rows, test_rows) in enumerate(splits):
        train, test = data[train_rows], data[test_rows]
        order = order_all if protocol == "paper" else _order(scorer, train)
        orders.append(tuple(attributes[i].name for i in order))
        if voting:
            steps = _vote_curve(train, test, order)
        else:
            steps = _learner_curve(learner, train, test, order, attributes, class_var)
        for size, hits in enumerate(steps, start=1):
            accuracy[fold, size - 1] = np.sum(hits) / len(test_rows)
            correct[size - 1] += np.sum(hits)
            step()
    mean = accuracy.mean(axis=0)
    best = int(np.argmax(mean))
    return WrapperCurve(
        scorer=_scorer_name(scorer), protocol=protocol,
        sizes=np.arange(1, n_features + 1), fold_accuracy=accuracy,
        mean_accuracy=mean, std_accuracy=accuracy.std(axis=0),
        best_size=best + 1, best_accuracy=float(mean[best]),
        feature_order=orders[0] if protocol == "paper" else None,
        fold_orders=tuple(orders), pooled_accuracy=correct / len(data))

def _learner_curve(learner, train, test, order, attributes, class_var):
    """For size = 1, 2, ...: whether ``learner`` on the top-``size`` features
    classifies each test row correctly."""
    for size in range(1, len(order) + 1):
        domain = Domain([attributes[i] for i in order[:size]], class_var)
        model = learner(train.transform(domain))
        predicted = model(test.transform(domain))
        yield (predicted == test.Y).astype(float)


def _vote_curve(train, test, order):
    """For size = 1, 2, ...: the share of each test row's vote that goes to its
    class under the ``NN_VOTE`` rule on the top-``size`` features."""
    n_classes = len(train.domain.class_var.values)
    train_y = train.Y.astype(np.int64)
    test_y = test.Y.astype(np.int64)
    members = np.zeros((len(train_y), n_classes))
    members[np.arange(len(train_y)), train_y] = 1.0
    distance = np.zeros((len(test_y), len(train_y)))
    for feature in order:
        distance += _value_difference(train.X[:, feature], test.X[:, feature],
                                      len(train.domain.attributes[feature].values))
        nearest = distance <= distance.min(axis=1, keepdims=True) + _TIE_TOLERANCE
        votes = nearest.astype(float) @ members
        winners = votes >= votes.max(axis=1, keepdims=True)
        yield winners[np.arange(len(test_y)), test_y] / winners.sum(axis=1)


def _value_difference(train_column, test_column, n_values):
    """Differences (test rows x training rows) of one discrete feature: 0 if equal,
    1 if different; a missing value by its expected difference under the value
    frequencies of the training rows."""
    train_missing, test_missing = np.isnan(train_column), np.isnan(test_column)
    train_codes = np.where(train_missing, -1, train_column).astype(np.int64)
    test_codes = np.where(test_missing, -2, test_column).astype(np.int64)
    difference = (test_codes[:, None] != train_codes[None, :]).astype(float)
    if not (train_missing.any() or test_missing.any()):
        return difference
    known = train_codes[~train_missing]
    if len(known):
        frequency = np.bincount(known, minlength=n_values) / len(known)
    else:
        frequency = np.full(n_values, 1.0 / n_values)
    unlike = 1.0 - frequency            # a missing value against value v
    unlike_both = 1.0 - np.sum(frequency ** 2)
    for t in np.flatnonzero(test_missing):
        difference[t] = np.where(train_missing, unlike_both,
                                 unlike[np.maximum(train_codes, 0)])
    for r in np.flatnonzero(train_missing):
        difference[:, r] = np.where(test_missing, unlike_both,
                                    unlike[np.maximum(test_codes, 0)])
    return difference
