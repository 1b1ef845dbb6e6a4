"""Data sets with known important features, for judging feature weights.

Every function returns an :class:`Orange.data.Table` of discrete features (numeric ones for
:func:`confounded`) whose
important features carry ``var.attributes["relevant"] = True`` (others ``False``)
and whose class variable is named ``class``. The two real tables of the seed paper
(:func:`promoters`, :func:`lung_cancer`) have no known important features: all
are marked ``False``. Bundled files and their provenance
are described in ``README.md`` in this folder.
"""
from ._build import DATA_DIR
from .bundled import corral, monk, monk_rule
from .synthetic import LED_PATTERNS, confounded, led, led24, modulo
from .uci import lung_cancer, promoters

__all__ = ["corral", "monk", "monk_rule", "led", "led24", "modulo", "confounded", "promoters",
           "lung_cancer",
           "important_features", "LED_PATTERNS", "DATA_DIR"]


def important_features(data):
    """Names of the attributes marked ``attributes["relevant"] = True``.

    Parameters
    ----------
    data : Orange.data.Table or Orange.data.Domain

    Returns
    -------
    list of str
        In domain order.
    """
    domain = getattr(data, "domain", data)
    if not hasattr(domain, "attributes"):
        raise ValueError("important_features needs an Orange Table or Domain, "
                         f"not {type(data).__name__}.")
    return [var.name for var in domain.attributes if var.attributes.get("relevant", False)]
