"""The engine's warnings, and a way to collect them that is safe in threads.

``warnings.catch_warnings`` swaps process-wide state: used in a worker
thread (a widget's background task) it records, and hides from their owner,
the warnings that *other* widgets raise on the GUI thread meanwhile.  The
engine therefore says its warnings through :func:`warn`, which a caller can
redirect for its own thread (and only its own: a ``ContextVar``) with
:func:`collect_warnings` or silence with :func:`quiet_warnings`.  Outside
those, :func:`warn` is ``warnings.warn(message, ReliefWarning)``.
"""
import contextvars
import warnings
from contextlib import contextmanager
from typing import Iterator, List, Optional


class ReliefWarning(UserWarning):
    """A warning about the data that has a defined result (see semantics)."""


#: the list that receives this context's warnings, or None (warnings.warn)
_sink: contextvars.ContextVar[Optional[list]] = contextvars.ContextVar(
    "relief_warning_sink", default=None)


def warn(message: str, stacklevel: int = 2) -> None:
    """Issue `message` as a ReliefWarning, or hand it to the collector that
    :func:`collect_warnings` set up in this thread."""
    sink = _sink.get()
    if sink is None:
        warnings.warn(message, ReliefWarning, stacklevel=stacklevel + 1)
    elif message not in sink:
        sink.append(message)


@contextmanager
def collect_warnings() -> Iterator[List[str]]:
    """Within the block, this thread's Relief warnings are appended (once
    each) to the yielded list instead of being issued; other threads and
    other libraries' warnings are untouched."""
    collected: List[str] = []
    token = _sink.set(collected)
    try:
        yield collected
    finally:
        _sink.reset(token)


@contextmanager
def quiet_warnings() -> Iterator[None]:
    """Within the block, this thread's Relief warnings are dropped (a refit
    repeats what the first fit said)."""
    with collect_warnings():
        yield
