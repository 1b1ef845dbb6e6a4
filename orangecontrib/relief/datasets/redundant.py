"""Redundancy added in steps: copies of chosen features, exact or noisy."""
import numbers

import numpy as np
from Orange.data import DiscreteVariable, Domain, Table

__all__ = ["with_copies"]


def with_copies(data, features, copies=1, noise=0.0, random_state=0):
    """``data`` with ``copies`` copies of each of ``features`` appended.

    A copy of a discrete feature takes the original's value, replaced with
    probability ``noise`` by a value drawn uniformly from the feature's
    values (so it can come out equal): ``noise = 0`` gives exact copies,
    fully redundant with the original; a noisy copy is redundant in part
    (seed, "Redundancy analysis").  Copies are named ``<name>_copy<i>``,
    carry ``attributes["copy_of"] = <name>`` and are not marked relevant:
    their information is already in the original.

    Parameters
    ----------
    data : Orange.data.Table
        Discrete features, no missing values in the copied ones.
    features : sequence of str
        The names of the features to copy.
    copies : int
        Copies of each (>= 0).
    noise : float
        The probability that a copy's value is redrawn, in [0, 1].
    random_state : int or None
        Seed for ``numpy.random.default_rng``.

    Returns
    -------
    Orange.data.Table
        The original attributes, then the copies of the first feature, of
        the second, ...; class and metas unchanged.
    """
    if not isinstance(copies, numbers.Integral) or isinstance(copies, bool) \
            or copies < 0:
        raise ValueError(f"copies must be an integer >= 0, not {copies!r}.")
    if not isinstance(noise, numbers.Real) or not 0 <= noise <= 1:
        raise ValueError(f"noise is a probability: give a number in [0, 1], "
                         f"not {noise!r}.")
    domain = data.domain
    rng = np.random.default_rng(random_state)
    new_vars, columns = [], []
    for name in features:
        try:
            var = domain[name]
        except (KeyError, IndexError):
            raise ValueError(f"{name!r} is not a feature of the data: give "
                             f"names of its attributes.") from None
        if not isinstance(var, DiscreteVariable) or \
                var not in domain.attributes:
            raise ValueError(f"{name!r} must be a discrete attribute to be "
                             f"copied.")
        original = data.get_column(var)
        if np.isnan(original).any():
            raise ValueError(f"{name!r} has missing values; impute them "
                             f"before copying it.")
        for i in range(1, copies + 1):
            copy = DiscreteVariable(f"{name}_copy{i}", values=var.values)
            copy.attributes["relevant"] = False
            copy.attributes["copy_of"] = name
            redraw = rng.random(len(data)) < noise
            values = np.where(redraw, rng.integers(0, len(var.values),
                                                   len(data)), original)
            new_vars.append(copy)
            columns.append(values.astype(float))
    new_domain = Domain(list(domain.attributes) + new_vars,
                        domain.class_vars, domain.metas)
    X = np.column_stack([data.X] + columns) if columns else data.X
    table = Table.from_numpy(new_domain, X, data.Y, data.metas)
    table.name = getattr(data, "name", "") or ""
    return table
