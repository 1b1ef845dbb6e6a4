"""Success measures of feature weights when the important features are known.

Seed paper, section "Empirical results" (after Kononenko 1994): separability,
usability, minimality and completeness. ``I`` is the set of important features,
``R`` the rest; ``W_I,worst`` is the lowest weight of an important feature,
``W_R,best`` the highest weight of an unimportant one.
"""
import numbers
from typing import NamedTuple

import numpy as np

__all__ = ["separability", "usability", "minimality", "completeness",
           "weight_quality", "WeightQuality", "important_mask"]


def _domain_names(source):
    domain = getattr(source, "domain", source)
    if hasattr(domain, "attributes"):
        return [var.name for var in domain.attributes]
    return None


def _split(weights, important, names=None):
    """Weights of the important and of the unimportant features."""
    weights = np.asarray(weights, dtype=float)
    if weights.ndim != 1:
        raise ValueError(f"weights must be one weight per feature (a 1-D array), "
                         f"not an array of shape {weights.shape}.")
    if np.isnan(weights).any():
        raise ValueError(f"weights contain NaN at positions "
                         f"{np.flatnonzero(np.isnan(weights)).tolist()}: remove those "
                         f"features or replace their weights before measuring quality.")
    mask = important_mask(important, len(weights), names)
    return weights[mask], weights[~mask]


def important_mask(important, n_features, names=None):
    """Boolean mask of the important features (see :func:`separability` for the
    accepted forms of ``important`` and ``names``); refuses an empty or full set."""
    n = n_features
    mask = np.zeros(n, dtype=bool)
    domain_names = _domain_names(important)
    if domain_names is not None:  # Table or Domain: features marked relevant
        domain = getattr(important, "domain", important)
        if len(domain.attributes) != n:
            raise ValueError(f"The data has {len(domain.attributes)} features but there "
                             f"are {n} weights: give one weight per feature.")
        mask[:] = [bool(var.attributes.get("relevant", False)) for var in domain.attributes]
    else:
        items = np.asarray(important) if not isinstance(important, str) else None
        if items is None or items.ndim != 1:
            raise ValueError("important must be a list of feature indices, a boolean mask, "
                             "a list of feature names, or an Orange Table/Domain whose "
                             "important features are marked relevant.")
        if items.dtype == bool:
            if len(items) != n:
                raise ValueError(f"The boolean mask has {len(items)} entries but there are "
                                 f"{n} weights: give one entry per feature.")
            mask[:] = items
        elif items.dtype.kind in "US" or (items.dtype == object and len(items)
                                           and all(isinstance(i, str) for i in items)):
            if names is None:
                raise ValueError("important holds feature names: also pass names=, the "
                                 "feature names in weight order (or a Table or Domain).")
            all_names = _domain_names(names)
            all_names = list(names) if all_names is None else all_names
            if len(all_names) != n:
                raise ValueError(f"names has {len(all_names)} entries but there are {n} "
                                 f"weights: give one name per feature.")
            unknown = [name for name in items if name not in all_names]
            if unknown:
                raise ValueError(f"Unknown feature names {unknown}: use names from "
                                 f"{all_names}.")
            mask[[all_names.index(name) for name in items]] = True
        elif len(items) == 0 or all(isinstance(i, numbers.Integral)
                                     and not isinstance(i, (bool, np.bool_))
                                     for i in items.tolist()):
            index = items.astype(int)
            if np.any((index < -n) | (index >= n)):
                raise ValueError(f"Feature indices must be in [0, {n}), not "
                                 f"{items.tolist()}.")
            mask[index] = True
        else:
            raise ValueError("important must be a list of feature indices, a boolean mask, "
                             "or a list of feature names.")
    if not mask.any():
        raise ValueError("The set of important features is empty: mark at least one "
                         "feature as important.")
    if mask.all():
        raise ValueError("Every feature is marked important: the measures need at least "
                         "one unimportant feature.")
    return mask


_IMPORTANT_DOC = """
    Parameters
    ----------
    weights : array of shape (n_features,)
        One weight per feature; higher means more important. NaN is refused.
    important : sequence of int, boolean mask, sequence of str, Table or Domain
        The important features ``I``: indices into ``weights``, a mask with one
        entry per feature, feature names (then ``names`` is required), or an Orange
        ``Table``/``Domain`` whose important attributes carry
        ``attributes["relevant"] = True`` (as the ``datasets`` module makes them).
    names : sequence of str, Table or Domain, optional
        Feature names in weight order, used only when ``important`` holds names.
"""


def separability(weights, important, names=None):
    """Separability ``s = W_I,worst - W_R,best`` (seed, "Empirical results").

    ``s > 0`` means every important feature outweighs every unimportant one.
    {important}
    Returns
    -------
    float
    """
    inside, outside = _split(weights, important, names)
    return float(inside.min() - outside.max())


def usability(weights, important, names=None):
    """Usability ``u = W_I,best - W_R,best`` (seed, "Empirical results").

    ``u > 0`` means at least one important feature outweighs every unimportant one.
    {important}
    Returns
    -------
    float
    """
    inside, outside = _split(weights, important, names)
    return float(inside.max() - outside.max())


def minimality(weights, important, names=None):
    """Minimality ``m = |I| / |M|``, ``M = {{F : W_F >= W_I,worst}}`` (seed,
    "Empirical results").

    The share of important features in the smallest top-weighted set that holds
    all of them; features tied with ``W_I,worst`` are counted in ``M``. ``s > 0``
    implies ``m = 1``.
    {important}
    Returns
    -------
    float in (0, 1]
    """
    inside, outside = _split(weights, important, names)
    worst = inside.min()
    return len(inside) / (len(inside) + int(np.sum(outside >= worst)))


def completeness(weights, important, names=None):
    """Completeness ``c = |C| / |I|``, ``C = {{F : W_F > W_R,best}}`` (seed,
    "Empirical results").

    The share of important features taken when selecting in decreasing weight
    order and stopping before the first unimportant feature; an important
    feature tied with ``W_R,best`` is not counted. ``s > 0`` implies ``c = 1``.
    The seed writes ``(0, 1]``, but ``c = 0`` when ``u <= 0``.
    {important}
    Returns
    -------
    float in [0, 1]
    """
    inside, outside = _split(weights, important, names)
    return int(np.sum(inside > outside.max())) / len(inside)


for _function in (separability, usability, minimality, completeness):
    _function.__doc__ = _function.__doc__.format(important=_IMPORTANT_DOC)


class WeightQuality(NamedTuple):
    """The four success measures of one weight vector."""
    separability: float
    usability: float
    minimality: float
    completeness: float


def weight_quality(weights, important, names=None):
    """All four measures at once; arguments as in :func:`separability`.

    Returns
    -------
    WeightQuality
    """
    args = (weights, important, names)
    return WeightQuality(separability(*args), usability(*args),
                         minimality(*args), completeness(*args))
