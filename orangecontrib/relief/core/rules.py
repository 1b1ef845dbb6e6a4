"""The registry of neighbourhood rules: which neighbours of a visited
instance count (``doc/semantics.md``, "Neighbourhood rules").

Each rule is written here once, with its name (the ``neighbours=`` option,
what saved workflows and the command line use), its display name (menus,
Rank's columns), what it supports and its kernel code
(``neighbours.RULE_*``, which the compiled and vectorised paths switch on).
The options check, the scorers, the widgets, the scikit-learn selector and
the command line read this registry; none keeps a list of its own.
"""
from dataclasses import dataclass
from typing import Dict

from .neighbours import (RULE_K, RULE_MULTISURF, RULE_MULTISURF_STAR,
                         RULE_SURF, RULE_SURF_STAR)
from .registry import Entry, lookup


@dataclass(frozen=True)
class Rule(Entry):
    """One neighbourhood rule (its ``name`` is the option's value,
    ``relieff(..., neighbours=name)``).

    Attributes
    ----------
    code : int
        The kernels' code (``neighbours.RULE_*``).
    uses_k : bool
        ``k_nearest`` and the rank weights (``weight_by_distance``) apply:
        the k nearest; otherwise everyone within a radius counts.
    pair_mean_radius : bool
        The radius is the mean distance over all pairs (SURF), computed once
        before the visits.
    far : bool
        Also scores the far instances (the starred rules); not defined for a
        numeric target.
    weka : bool
        Weka's ReliefFAttributeEval has it (``compat="weka"``).
    """
    code: int
    uses_k: bool = False
    pair_mean_radius: bool = False
    far: bool = False
    weka: bool = False

    @property
    def regression(self) -> bool:
        """Whether RReliefF (a numeric target) defines the rule."""
        return not self.far


#: The rules by name, in menu order (the order is for display only: saved
#: settings refer to a rule by name).
RULES: Dict[str, Rule] = {rule.name: rule for rule in (
    Rule("k", "k nearest",
         "the k nearest hits and k nearest misses (per class)",
         RULE_K, uses_k=True, weka=True),
    Rule("surf", "SURF",
         "every instance closer than the mean distance over all pairs",
         RULE_SURF, pair_mean_radius=True),
    Rule("surf*", "SURF*",
         "SURF's near instances, and the far ones with the opposite sign",
         RULE_SURF_STAR, pair_mean_radius=True, far=True),
    Rule("multisurf", "MultiSURF",
         "every instance closer than the visited one's mean distance minus "
         "half its standard deviation (recommended for interactions)",
         RULE_MULTISURF),
    Rule("multisurf*", "MultiSURF*",
         "MultiSURF's near instances, and those farther than the mean plus "
         "half a standard deviation with the opposite sign",
         RULE_MULTISURF_STAR, far=True),
)}


def rule(name) -> Rule:
    """The rule called `name`; a ValueError that lists the rules if none
    is."""
    return lookup(RULES, name, "neighbours")
