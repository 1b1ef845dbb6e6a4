"""The registry of Relief variants: how a run turns visits into weights
(``doc/semantics.md``, "Feedback variants").

Each variant is written here once, with its name (the ``variant=`` option,
what saved workflows and the command line use), its display name (menus,
Rank's columns), what it needs and supports, and its kernel code
(``estimates.VARIANT_*``: the kernels read the code only in the arithmetic
of ``estimates.py``, ``blend`` and the distance weights).  The backends ask
an entry's fields (``feedback``, ``sequential``, ...), never compare codes:
``options.Options.variant_entry`` is the run's entry.
"""
import math
from dataclasses import dataclass
from typing import Callable, Dict, Optional

from .contract.estimates import (VARIANT_D, VARIANT_FIXED, VARIANT_PD,
                                 VARIANT_PD_LINEAR, VARIANT_PD_LOGISTIC,
                                 VARIANT_RELIEFF)
from .registry import Entry, lookup

# I-RELIEF (``irelief.py``): soft neighbourhoods iterated to a fixed point,
# not visits: ``engine.relieff`` hands it to ``irelief.irelief``
VARIANT_IRELIEF = 4


def default_T(m):
    """T = 2 / ln(m), the seed's choice that makes f(w, m) independent of m."""
    return 2.0 / math.log(m) if m > 1 else math.inf


def steepness(T, m):
    """pdReliefF's T for m visits: the given one, else ``default_T(m)``."""
    return T if T is not None else default_T(m)


def ramp_length(T, m):
    """The ramps' length in visits: a share T of the m visits (1 unless
    given)."""
    return (T if T is not None else 1.0) * m


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
        The visits run in order, one at a time (``Backend.visit_in_order``);
        the others visit in independent batches (``Backend.visit_batch``),
        also on a Dask cluster.
    kernel_T : callable, optional
        ``kernel_T(T, m)``: the T the kernels read for m visits from the
        option ``T`` (None when not given): pdReliefF's steepness, or the ramps' length in visits;
        None: T does not apply (``uses_T``).
    visits : bool
        The weights are sums over visits (``n_iterations``, traces, STIR's
        pair sums, Weka's mode); I-RELIEF iterates to a fixed point instead.
    regression : bool
        Defined for a numeric target (RReliefF's form).
    waiting_changes : bool
        On sparse data small changes of the running row sums may wait
        (``speedups.waiting_changes``, ``layouts.SPARSE_LAZY_RTOL``): it pays
        where the distance weights settle from step to step (pdReliefF), not
        where the many near-zero ones change by as much as they are
        (dReliefF).
    """
    code: int
    feedback: bool = False
    sequential: bool = False
    kernel_T: Optional[Callable] = None
    visits: bool = True
    regression: bool = True
    waiting_changes: bool = False

    @property
    def uses_T(self):
        """Whether the option ``T`` applies."""
        return self.kernel_T is not None


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
            VARIANT_PD, feedback=True, sequential=True, kernel_T=steepness,
            waiting_changes=True),
    Variant("pdrelieff-linear", "pdReliefF (linear ramp)",
            "pdReliefF whose uniform share falls linearly over a share T "
            "of the visits",
            VARIANT_PD_LINEAR, feedback=True, sequential=True,
            kernel_T=ramp_length),
    Variant("pdrelieff-logistic", "pdReliefF (logistic ramp)",
            "pdReliefF whose uniform share falls as a logistic curve over a "
            "share T of the visits",
            VARIANT_PD_LOGISTIC, feedback=True, sequential=True,
            kernel_T=ramp_length),
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


def variant(name) -> Variant:
    """The variant called `name`; a ValueError that lists the variants if
    none is."""
    return lookup(VARIANTS, name, "variant")


def of_code(code) -> Variant:
    """The variant whose kernel code is `code` (``Options.variant``)."""
    for entry in (*VARIANTS.values(), FIXED):
        if entry.code == code:
            return entry
    raise KeyError(code)


def named(*, exclude=(), **fields):
    """The names of the variants, in menu order, whose entries have the
    given ``fields`` (e.g. ``named(visits=True)``), but those in
    ``exclude``: for the lists adapters show or accept."""
    return tuple(name for name, entry in VARIANTS.items()
                 if name not in exclude and all(
                     getattr(entry, field) == value
                     for field, value in fields.items()))
