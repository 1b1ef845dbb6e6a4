"""orange3-relief: ReliefF, dReliefF and pdReliefF feature weighting for Orange.

The scorers work like ``Orange.preprocess.score`` scorers; the engine in
``orangecontrib.relief.core`` works on plain numpy arrays.

Importing this package does not import Orange (importing Orange costs
~160 MB), so ``orangecontrib.relief.core`` stays light:

* the Orange scorers (``ReliefF``, ``DReliefF``, ``PDReliefF``, ``RReliefF``,
  ``IReliefF``, and the wrappers ``TuRF``, ``Iter`` and ``VLS``) are loaded from
  :mod:`.scoring`, :mod:`.wrappers.turf`, :mod:`.wrappers.iterated`
  and :mod:`.wrappers.vls` on first
  access (PEP 562 ``__getattr__``);
* the ``.arff`` reader/writer (:mod:`.io.arff`) is registered with
  ``Orange.data.io.FileFormat`` as soon as Orange's ``Orange.data.io`` is
  imported: right away if it already is, otherwise by a one-shot import
  hook (:class:`_ArffRegistrationHook`), so ``import orangecontrib.relief``
  followed by ``Table("data.arff")`` works in either import order.
"""
import importlib
import importlib.abc
import sys
import warnings

from . import moved
moved.install()    # the old module paths import (doc/architecture.md)

from .core import ReliefResult, ReliefWarning, relieff
from .corelearn import corelearn_estimator

__all__ = ["ReliefF", "DReliefF", "PDReliefF", "RReliefF", "IReliefF",
           "CORElearn", "TuRF", "Iter", "VLS", "relieff",
           "corelearn_estimator", "ReliefResult", "ReliefWarning"]

_SCORERS = frozenset(("ReliefF", "DReliefF", "PDReliefF", "RReliefF",
                      "IReliefF", "CORElearn"))
_WRAPPERS = {"TuRF": ".wrappers.turf", "Iter": ".wrappers.iterated",
             "VLS": ".wrappers.vls"}
# Submodules that used to be imported eagerly, hence reachable as attributes.
_SUBMODULES = frozenset(("scoring", "io", "distributed"))


def __getattr__(name):
    if name in _SCORERS:
        scoring = importlib.import_module(".scoring", __name__)
        value = getattr(scoring, name)
        globals()[name] = value
        return value
    if name in _WRAPPERS:
        value = getattr(importlib.import_module(_WRAPPERS[name], __name__),
                        name)
        globals()[name] = value
        return value
    if name in _SUBMODULES:
        return importlib.import_module("." + name, __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))


# --- ARFF registration ---------------------------------------------------

#: The Orange module that defines ``FileFormat``, whose subclasses Orange
#: registers as readers/writers (see ``Orange/data/io.py``).
_FILEFORMAT_MODULE = "Orange.data.io"


def _register_arff():
    """Import :mod:`.io.arff`; on failure warn instead of raising, so that
    a problem in the add-on never breaks importing Orange."""
    try:
        importlib.import_module(".io.arff", __name__)
    except Exception as exc:  # pylint: disable=broad-except
        warnings.warn(f"orange3-relief: .arff files are not available in "
                      f"Orange ({type(exc).__name__}: {exc})",
                      RuntimeWarning, stacklevel=2)


class _RegisterAfterExec(importlib.abc.Loader):
    """Wraps the loader of ``Orange.data.io``: executes the module, restores
    the original loader on it, then registers the ARFF format."""

    def __init__(self, loader):
        self.loader = loader

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        # Leave no trace of the wrapper on the module (e.g. for inspect).
        module.__loader__ = self.loader
        if module.__spec__ is not None:
            module.__spec__.loader = self.loader
        self.loader.exec_module(module)
        _register_arff()


class _ArffRegistrationHook(importlib.abc.MetaPathFinder):
    """One-shot ``sys.meta_path`` finder: when ``Orange.data.io`` is about
    to be imported, it removes itself, lets the other finders find the
    module and wraps the loader in :class:`_RegisterAfterExec`."""

    orange3_relief_arff_hook = True

    def find_spec(self, fullname, path, target=None):
        if fullname != _FILEFORMAT_MODULE:
            return None
        try:
            sys.meta_path.remove(self)
        except ValueError:
            pass
        for finder in list(sys.meta_path):
            find_spec = getattr(finder, "find_spec", None)
            spec = find_spec and find_spec(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        try:
            if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                spec.loader = _RegisterAfterExec(spec.loader)
            else:
                warnings.warn("orange3-relief: cannot hook the import of "
                              f"{fullname}; .arff files may not be available "
                              "in Orange", RuntimeWarning, stacklevel=2)
        except Exception:  # pylint: disable=broad-except
            pass  # never break Orange's import; spec is returned as found
        return spec


def _install_arff_registration():
    if _FILEFORMAT_MODULE in sys.modules:
        _register_arff()
    elif not any(getattr(finder, "orange3_relief_arff_hook", False)
                 for finder in sys.meta_path):
        sys.meta_path.insert(0, _ArffRegistrationHook())


_install_arff_registration()
