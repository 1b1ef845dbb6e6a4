"""VLS, very large scale (scikit-rebate's ``VLS``; Urbanowicz et al. 2018):
score random subsets of the features, each alone, and keep each feature's
largest score.

On very wide data the distances of any Relief are dominated by the many
irrelevant features; a subset of ``size_feature_subset`` features sees the
few that matter more clearly, and scoring ``num_feature_subset`` subsets
costs about as much as one run on all features.  The subsets: the features
shuffled and cut into subsets of ``size_feature_subset`` (a short last one
topped up with other features drawn at random), then random subsets of that
size until there are ``num_feature_subset``.  A feature's result is its
largest estimate over the subsets it was in.  ``vls`` does it on arrays
with the engine's options; ``VLS`` wraps any Orange scorer.

Differences from scikit-rebate 0.8: the subsets are drawn as skrebate draws
them (Python's ``random.Random(random_state)``: the same seed gives the same
subsets), but the core algorithm is this add-on's (``doc/semantics.md``:
ties share the k-th slots, RELIEF-D for missing values, k_nearest=10; skrebate's
ReliefF takes n_neighbors=100 and breaks ties by row order), so the scores
agree where those definitions do.  skrebate's ``weights=`` (distance weights
passed through to every subset) and ``rank_absolute`` are not offered; a
``size_feature_subset`` above the number of features is cut to it, as
skrebate does.
"""
import random

import numpy as np

from ..core.options import is_whole, whole_number
from .turf import Wrapper, columns_scorer, table_columns_scorer

__all__ = ["vls", "VLS", "feature_subsets"]


def _check(num_feature_subset, size_feature_subset, random_state):
    whole_number(num_feature_subset, "num_feature_subset")
    whole_number(size_feature_subset, "size_feature_subset")
    if random_state is not None and not is_whole(random_state):
        raise ValueError(f"random_state must be an integer seed or None; "
                         f"got {random_state!r}.")


def feature_subsets(a, num_feature_subset=40, size_feature_subset=5,
                    random_state=None):
    """The feature subsets of VLS on ``a`` features (lists of indices),
    drawn as scikit-rebate's ``VLS.make_subsets`` draws them."""
    _check(num_feature_subset, size_feature_subset, random_state)
    size = min(size_feature_subset, a)
    if num_feature_subset * size < a:
        raise ValueError(
            f"VLS's {num_feature_subset} subsets of {size} features cannot "
            f"cover all {a} features; raise num_feature_subset to at least "
            f"{-(-a // size)} or size_feature_subset.")
    draw = random.Random(random_state)
    features = list(range(a))
    draw.shuffle(features)
    subsets = [features[i:i + size] for i in range(0, a - a % size, size)]
    rest = features[a - a % size:]
    if rest:
        while len(rest) < size:
            extra = draw.choice(features)
            if extra not in rest:
                rest.append(extra)
        subsets.append(rest)
    subsets += [draw.sample(features, size)
                for _ in range(num_feature_subset - len(subsets))]
    return subsets


def _best_of_subsets(score, a, subsets, progress=None):
    """(each feature's largest score over the subsets it is in, subsets);
    NaN scores (no known value) stay NaN."""
    best = np.full(a, -np.inf)
    for step, subset in enumerate(subsets):
        weights = np.asarray(score(subset), dtype=float)
        best[subset] = np.fmax(best[subset], weights)
        if progress is not None:
            progress((step + 1) / len(subsets))
    best[best == -np.inf] = np.nan
    return best, subsets


def vls(X, y, nominal=None, *, num_feature_subset=40, size_feature_subset=5,
        random_state=None, progress=None, **relieff_options):
    """VLS around the engine (``core.relieff`` with ``relieff_options``,
    e.g. ``variant="drelieff"``).

    Parameters
    ----------
    num_feature_subset : int
        The number of subsets (more when that many do not cover the
        features: as many as it takes).
    size_feature_subset : int
        Features per subset.
    random_state : int or None
        Seed of the subsets (Python's ``random``, as skrebate).
    progress : callable(fraction), optional
        Called after every subset; may raise to cancel.

    Returns
    -------
    weights : ndarray
        Each feature's largest estimate over the subsets it was in.
    subsets : list of lists of int
        The subsets, in the order they were scored.
    """
    subsets = feature_subsets(X.shape[1], num_feature_subset,
                              size_feature_subset, random_state)
    return _best_of_subsets(columns_scorer(X, y, nominal, relieff_options),
                            X.shape[1], subsets, progress)


class VLS(Wrapper):
    """VLS around an Orange ``scorer`` (``vls``): ``num_feature_subset``
    random subsets of ``size_feature_subset`` features, each scored alone;
    each feature's score is its largest."""
    label = "VLS"

    def __init__(self, scorer, num_feature_subset=40, size_feature_subset=5,
                 random_state=None):
        _check(num_feature_subset, size_feature_subset, random_state)
        super().__init__(scorer)
        self.num_feature_subset = num_feature_subset
        self.size_feature_subset = size_feature_subset
        self.random_state = random_state

    def score_table(self, data, progress=None):
        """(weights, subsets) of ``vls`` on an Orange table."""
        a = len(data.domain.attributes)
        subsets = feature_subsets(a, self.num_feature_subset,
                                  self.size_feature_subset, self.random_state)
        return _best_of_subsets(table_columns_scorer(self.scorer, data), a,
                                subsets, progress)
