"""The scoring widgets' background task: score a table, then test the
weights and measure their stability, off the GUI thread (Orange's
``ConcurrentWidgetMixin``), with progress, cancel and partial results."""
from types import SimpleNamespace
from typing import Optional

from Orange.data import Table
from Orange.widgets.utils.concurrent import TaskState

from orangecontrib.relief.core import collect_warnings
from orangecontrib.relief.stats import TESTS


class Cancelled(Exception):
    """Raised from the progress callback to stop the engine."""


def run(data: Table, scorer, trace_every: Optional[int], extras,
        state: TaskState, known=None) -> SimpleNamespace:
    """Score `data` with `scorer` in a worker thread (unless `known`, the
    weights' `ReliefResult`, is given), then (``extras``) measure the top
    ``extras.redundancy_top`` features' redundancy (0: not), test the
    weights and measure their stability.

    Returns a namespace with the engine's `ReliefResult` (`result`), the
    `redundancy.RedundancyResult` (`redundancy`), the `stats.Significance`
    (`test`) and `stats.Stability` (`stability`) or None, and the texts
    of the warnings the scorer issued (`warnings`).
    Each part but the last is also sent as a partial result
    ``(name, value)`` as soon as it is known, so that the widget shows it
    while the rest runs, and keeps it if the rest is cancelled.
    """
    extras = extras or SimpleNamespace(test=None, n_permutations=0,
                                       n_resamples=0, covariates=[])
    chosen = TESTS[extras.test] if extras.test else None
    redundancy_top = getattr(extras, "redundancy_top", 0)
    # progress in units of one run: the weights, the run that records every
    # visit's updates, then the test's refits (or its one pass), then B
    # refits
    units = [0 if known is not None else 1,
             1 if redundancy_top else 0,
             chosen.cost(extras.n_permutations,
                         len(data.domain.attributes)) if chosen else 0,
             extras.n_resamples]
    total = sum(units)

    def phase(i):
        start = sum(units[:i])

        def progress(fraction):
            state.set_progress_value(100 * (start + fraction * units[i])
                                     / total)
            if state.is_interruption_requested():
                raise Cancelled
        return progress

    def done(name, value, phase_index):
        if sum(units[phase_index + 1:]):   # (more to come)
            state.set_partial_result((name, value))

    out = SimpleNamespace(result=known, redundancy=None, test=None,
                          stability=None, warnings=[])
    # (this thread's Relief warnings only: warnings.catch_warnings would
    # capture every widget's warnings while the task runs)
    with collect_warnings() as out.warnings:
        if known is None:
            out.result = scorer.score_table(data, progress=phase(0),
                                            trace_every=trace_every,
                                            status=state.set_status)
            done("result", out.result, 0)
        try:
            if redundancy_top:
                state.set_status("measuring redundancy")
                out.redundancy = scorer.redundancy(data, top=redundancy_top,
                                                   progress=phase(1))
                done("redundancy", out.redundancy, 1)
            if chosen is not None:
                state.set_status("testing the weights")
                out.test = scorer.significance(
                    data, method=chosen.name,
                    n_permutations=extras.n_permutations,
                    progress=phase(2),
                    covariates=getattr(extras, "covariates", None))
                done("test", out.test, 2)
            if extras.n_resamples:
                state.set_status("refitting on subsamples")
                out.stability = scorer.stability(
                    data, n_resamples=extras.n_resamples,
                    progress=phase(3))
        except ValueError as error:     # e.g. STIR on a numeric target
            out.warnings.append(str(error))
    return out
