"""The registry of neighbourhood rules: which neighbours of a visited
instance count (``doc/semantics.md``, "Neighbourhood rules").

Each rule is written here once, with its name (the ``neighbours=`` option,
what saved workflows and the command line use), its display name (menus,
Rank's columns) and its fields: what it supports and what the kernels
compute (``base.neighbourhood`` copies them into ``neighbours.Neighbourhood``;
no kernel compares a rule's name or code, so a rule is its fields).  The
options check, the scorers, the widgets, the scikit-learn selector, the
command line and the statistics' messages read this registry; none keeps a
list of its own.
"""
from dataclasses import dataclass
from typing import Dict

from .registry import Entry, lookup


@dataclass(frozen=True)
class Rule(Entry):
    """One neighbourhood rule (its ``name`` is the option's value,
    ``relieff(..., neighbours=name)``).

    Attributes
    ----------
    uses_k : bool
        ``k_nearest`` and the rank weights (``weight_by_distance``) apply:
        the k nearest; otherwise everyone within a radius counts.
    pair_mean_radius : bool
        The radius is the mean distance over all pairs (SURF), computed once
        before the visits.
    deviations : float
        Without ``uses_k`` and ``pair_mean_radius`` (MultiSURF): the
        thresholds sit this many standard deviations of the visited
        instance's distances below (near) and above (far) their mean.
    far : bool
        Also scores the far instances (the starred rules); not defined for a
        numeric target.
    far_sameness : bool
        With ``far``: a far instance scores sameness, sign (1 - diff)
        (MultiSURF*), instead of the opposite sign times diff (SURF*).
    weka : bool
        Weka's ReliefFAttributeEval has it (``compat="weka"``).
    """
    uses_k: bool = False
    pair_mean_radius: bool = False
    deviations: float = 0.0
    far: bool = False
    far_sameness: bool = False
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
         uses_k=True, weka=True),
    Rule("surf", "SURF",
         "every instance closer than the mean distance over all pairs",
         pair_mean_radius=True),
    Rule("surf*", "SURF*",
         "SURF's near instances, and the far ones with the opposite sign",
         pair_mean_radius=True, far=True),
    Rule("multisurf", "MultiSURF",
         "every instance closer than the visited one's mean distance minus "
         "half its standard deviation (recommended for interactions)",
         deviations=0.5),
    Rule("multisurf*", "MultiSURF*",
         "MultiSURF's near instances, and those farther than the mean plus "
         "half a standard deviation with the opposite sign",
         deviations=0.5, far=True, far_sameness=True),
)}


def rule(name) -> Rule:
    """The rule called `name`; a ValueError that lists the rules if none
    is."""
    return lookup(RULES, name, "neighbours")


def names(**fields) -> str:
    """The names of the rules with the given field values, for a message:
    ``names(far=False)`` is "'k', 'surf' or 'multisurf'"."""
    quoted = [repr(entry.name) for entry in RULES.values()
              if all(getattr(entry, key) == value
                     for key, value in fields.items())]
    return " or ".join(filter(None, (", ".join(quoted[:-1]), quoted[-1])))
