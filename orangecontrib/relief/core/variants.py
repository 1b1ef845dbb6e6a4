"""The registry of Relief variants: how a run turns visits into weights
(``doc/semantics.md``, "Feedback variants").

Each variant is written here once, with its name (the ``variant=`` option,
what saved workflows and the command line use), its display name (menus,
Rank's columns), what it needs and supports, and its kernel code
(``estimates.VARIANT_*``: the kernels read the code only in the arithmetic
of ``estimates.py``, ``blend`` and the distance weights).  The backends ask
an entry's fields (``feedback``, ``sequential``, ...), never compare codes.
"""
from dataclasses import dataclass
from typing import Dict

from .estimates import (VARIANT_D, VARIANT_FIXED, VARIANT_PD,
                        VARIANT_PD_LINEAR, VARIANT_PD_LOGISTIC,
                        VARIANT_RELIEFF)
from .registry import Entry, lookup

# I-RELIEF (``irelief.py``): soft neighbourhoods iterated to a fixed point,
# not visits: ``engine.relieff`` hands it to ``irelief.irelief``
VARIANT_IRELIEF = 4


@dataclass(frozen=True)
class Variant(Entry):
    """One Relief variant (its ``name`` is the option's value,
    ``relieff(..., variant=name)``).

    Attributes
    ----------
    code : int
        The kernels' code (``estimates.VARIANT_*``).
    feedback : bool
        A visit's distance is weighted by the estimate of the visits before
        it (dReliefF, pdReliefF and its ramps: ``estimates.feedback_weights``).
    sequential : bool
        The visits run in order, one at a time (the feedback loop); the
        others visit in independent batches (and on a Dask cluster).
    uses_T : bool
        ``T`` applies: pdReliefF's steepness, or the ramps' length as a
        share of the visits.
    visits : bool
        The weights are sums over visits (``n_iterations``, traces, STIR's
        pair sums, Weka's mode); I-RELIEF iterates to a fixed point instead.
    regression : bool
        Defined for a numeric target (RReliefF's form).
    """
    code: int
    feedback: bool = False
    sequential: bool = False
    uses_T: bool = False
    visits: bool = True
    regression: bool = True


#: The variants a user chooses, by name, in menu order.
VARIANTS: Dict[str, Variant] = {variant.name: variant for variant in (
    Variant("relieff", "ReliefF",
            "the k nearest hits and misses of each visited instance "
            "(Kononenko 1994; RReliefF for a numeric target)",
            VARIANT_RELIEFF),
    Variant("drelieff", "dReliefF",
            "ReliefF whose distance weights each feature by the running "
            "estimate (Prat Masramon and Belanche 2005)",
            VARIANT_D, feedback=True, sequential=True),
    Variant("pdrelieff", "pdReliefF",
            "dReliefF with the estimate blended in progressively, "
            "f(w, t) = (1 - w) / t^T + w",
            VARIANT_PD, feedback=True, sequential=True, uses_T=True),
    Variant("pdrelieff-linear", "pdReliefF (linear ramp)",
            "pdReliefF whose uniform share falls linearly over a share T "
            "of the visits",
            VARIANT_PD_LINEAR, feedback=True, sequential=True, uses_T=True),
    Variant("pdrelieff-logistic", "pdReliefF (logistic ramp)",
            "pdReliefF whose uniform share falls as a logistic curve over a "
            "share T of the visits",
            VARIANT_PD_LOGISTIC, feedback=True, sequential=True, uses_T=True),
    Variant("irelief", "I-RELIEF",
            "soft neighbourhoods weighted by the current weights, iterated to "
            "a fixed point (Sun 2007)",
            VARIANT_IRELIEF, visits=False, regression=False),
)}

#: ReliefF with fixed distance weights (``relieff(distance_weights=...)``,
#: Iter's runs after the first): run by the sequential loop, not a choice
#: of its own.
FIXED = Variant("fixed", "ReliefF (fixed distance weights)",
                "ReliefF whose distance weights each feature by given weights",
                VARIANT_FIXED, sequential=True)

BY_CODE: Dict[int, Variant] = {entry.code: entry
                               for entry in (*VARIANTS.values(), FIXED)}


def variant(name) -> Variant:
    """The variant called `name`; a ValueError that lists the variants if
    none is."""
    return lookup(VARIANTS, name, "variant")


def of_code(code) -> Variant:
    """The variant whose kernel code is `code` (``Options.variant``)."""
    return BY_CODE[code]
