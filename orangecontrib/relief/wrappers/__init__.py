"""Wrappers around any scorer: TuRF (``turf``, which holds their common base,
``Wrapper``), Iter (``iterated``), VLS (``vls``).
"""
