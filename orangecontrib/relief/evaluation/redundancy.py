"""The seed paper's redundancy level R' of a feature (Definition "Redundancy level")."""
from itertools import combinations

import numpy as np
from Orange.data import DiscreteVariable

__all__ = ["redundancy_level", "MAX_FEATURES"]

#: The computation visits every subset of the other features: 2^15 at most.
MAX_FEATURES = 16
_INT_KEY_LIMIT = 2 ** 62


def _subset_index(keys, columns, radices):
    """Group number of each row of ``keys`` by its values in ``columns``, and the
    number of groups (some may be empty)."""
    if not columns:
        return np.zeros(len(keys), dtype=np.int64), 1
    n_groups = np.prod([float(radices[c]) for c in columns])
    if n_groups >= _INT_KEY_LIMIT:
        unique, index = np.unique(keys[:, columns], axis=0, return_inverse=True)
        return index.ravel(), len(unique)
    place = np.cumprod([1] + [int(radices[c]) for c in columns[:-1]], dtype=np.int64)
    codes = keys[:, columns] @ place
    if n_groups <= max(4 * len(keys), 4096):  # small enough to count directly
        return codes, int(n_groups)
    unique, index = np.unique(codes, return_inverse=True)
    return index.ravel(), len(unique)


def redundancy_level(data, feature, return_subset=False, progress=None):
    """Redundancy level ``R'(alpha, U)`` of a discrete feature (seed, Def. "Redundancy level").

    ``U`` is the set of features ``F`` plus the class ``C``, and the empirical
    distribution of ``data`` is the probabilistic domain model. For a subset
    ``S`` of ``F - alpha`` the discrepancy is

        ``D(S) = (1 / |𝒰|) sum_{u in 𝒰} |P(alpha_u | s_u) - P(alpha_u | s^-1_u, s_u)|``

    where ``s^-1_u`` is the configuration of the rest ``U - S - alpha`` (which
    always holds the class), and ``𝒰`` is the set of configurations ``u`` of
    ``U`` whose part ``(s^-1_u, s_u)`` has positive probability, with ``alpha_u``
    running over the values of ``alpha`` that occur in ``data``. Then

        ``R'(alpha, U) = 1 - min_{S ⊆ F - alpha} D(S)``.

    ``D(S) = 0`` exactly when ``S`` is a Markov blanket of ``alpha`` within
    ``F ∪ {C}`` (seed Def. "Markov blanket"), i.e. ``alpha`` is redundant in the
    seed's sense. The seed's formula writes ``max`` over ``S``; but redundancy
    means that *some* ``S ⊂ F`` is a Markov blanket, and with ``max`` the empty
    set (or any non-blanket) would dominate, so ``R' < 1`` even when a blanket
    exists, against the property ``R'(alpha, BL(alpha)) = 1`` that the seed
    asks of ``R'``. Hence the smallest discrepancy, over subsets of the
    *features* only, with ``C`` always counted in the rest. Consequences:
    an exact copy of a feature has ``R' = 1``; so does a feature that is exactly
    independent of all other variables in ``data`` (the empty set is its
    blanket); redundancy is mutual (two copies each have ``R' = 1``), so
    redundant features must be removed one at a time. The empirical model
    overfits small samples: when the configurations of ``F - alpha`` are (nearly)
    unique among the rows, ``S = F - alpha`` fixes ``alpha`` and every feature
    gets ``R'`` close to 1, so use tables that cover the domain well.
    Cost: up to ``2^(|F| - 1)`` subsets, each linear in the number of rows.

    Parameters
    ----------
    data : Orange.data.Table
        Discrete features (at most 16) and a discrete class, without missing values.
    feature : str, int or Orange.data.Variable
        The feature ``alpha``.
    return_subset : bool
        Also return the names of a smallest subset ``S`` reaching the minimum.
    progress : callable, optional
        Called with the fraction of subsets visited, in [0, 1], every 256 subsets
        and at the end; it may raise an exception to cancel.

    Returns
    -------
    float in [0, 1], or (float, tuple of str) when ``return_subset`` is true
    """
    domain = data.domain
    attributes = domain.attributes
    alpha, values = _checked_values(data, feature)
    others = [i for i in range(len(attributes)) if i != alpha]
    radices = [len(attributes[i].values) for i in others] + [len(domain.class_var.values)]
    # configurations of U - alpha (= the rest plus S, whatever S is), and alpha's values
    keys, full_index = np.unique(values[:, others + [len(attributes)]], axis=0,
                                 return_inverse=True)
    alpha_values, alpha_index = np.unique(values[:, alpha], return_inverse=True)
    counts = np.zeros((len(keys), len(alpha_values)))
    np.add.at(counts, (full_index.ravel(), alpha_index.ravel()), 1)
    best, best_subset = _smallest_discrepancy(keys, counts, radices, len(others),
                                              progress)
    if progress is not None:
        progress(1.0)
    level = 1.0 - float(best)
    if return_subset:
        return level, tuple(attributes[others[i]].name for i in best_subset)
    return level


def _checked_values(data, feature):
    """(the index of ``feature`` among the attributes, the features' and the
    class's values as integer codes); a ValueError for data or a feature that
    ``redundancy_level`` cannot use."""
    domain = data.domain
    attributes = domain.attributes
    if not isinstance(domain.class_var, DiscreteVariable):
        raise ValueError("redundancy_level needs a discrete class variable: set a "
                         "categorical target.")
    if len(attributes) > MAX_FEATURES:
        raise ValueError(f"The data has {len(attributes)} features; redundancy_level visits "
                         f"every subset of them and accepts at most {MAX_FEATURES}: select "
                         f"fewer features first.")
    continuous = [var.name for var in attributes if not isinstance(var, DiscreteVariable)]
    if continuous:
        raise ValueError(f"redundancy_level needs discrete features; discretize "
                         f"{', '.join(continuous)} first (e.g. Orange.preprocess.Discretize).")
    try:
        alpha = attributes.index(domain[feature])
    except (KeyError, IndexError, ValueError):
        raise ValueError(f"{feature!r} is not a feature of the data: give a feature name, "
                         f"index or variable.") from None
    if len(data) == 0:
        raise ValueError("The data is empty.")
    values = np.column_stack([data.X, data.Y])
    if np.isnan(values).any():
        raise ValueError("The data has missing values: impute them or remove those rows "
                         "before computing the redundancy level.")
    return alpha, values.astype(np.int64)


def _smallest_discrepancy(keys, counts, radices, n_others, progress):
    """min over S of D(S), and a smallest S reaching it (indices among the other
    features), visiting the subsets by size and stopping at a Markov blanket;
    ``keys``: the configurations of U - alpha, ``counts``: alpha's values in
    each."""
    p_given_all = counts / counts.sum(axis=1, keepdims=True)
    n_configurations = counts.size
    best, best_subset = np.inf, ()
    n_subsets, visited = 2 ** n_others, 0
    for size in range(n_others + 1):
        for subset in combinations(range(n_others), size):
            visited += 1
            if progress is not None and visited % 256 == 0:
                progress(visited / n_subsets)
            index, n_groups = _subset_index(keys, list(subset), radices)
            subset_counts = np.column_stack(
                [np.bincount(index, weights=column, minlength=n_groups)
                 for column in counts.T])[index]
            p_given_subset = subset_counts / subset_counts.sum(axis=1, keepdims=True)
            discrepancy = np.abs(p_given_subset - p_given_all).sum() / n_configurations
            if discrepancy < best - 1e-12:
                best, best_subset = discrepancy, subset
            if best <= 1e-12:
                break
        if best <= 1e-12:
            return 0.0, best_subset
    return best, best_subset
