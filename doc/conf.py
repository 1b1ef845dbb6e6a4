"""Sphinx configuration for the orange3-relief documentation.

Build the HTML pages with ``sphinx-build -W -b html doc doc/_build/html`` and
the help pages Orange's *Help* button opens (``WIDGET_HELP_PATH`` in
``orangecontrib/relief/widgets/__init__.py``) with
``sphinx-build -W -b htmlhelp doc doc/_build/htmlhelp``.
"""
import logging
import os
import sys

sys.path.insert(0, os.path.abspath(".."))

project = "orange3-relief"
author = "orange3-relief contributors"
copyright = "2026, orange3-relief contributors"
try:
    from importlib.metadata import version as _version
    release = _version("orange3-relief")
except Exception:  # noqa: BLE001  not installed: build from the sources
    release = "0.1.0"
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "README.md"]

myst_enable_extensions = ["dollarmath", "colon_fence"]
myst_heading_anchors = 3

# numpydoc-style docstrings, read by napoleon
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
autodoc_default_options = {"members": True, "member-order": "bysource"}
autodoc_typehints = "none"
autodoc_mock_imports = []
# Docstrings refer to names (ndarray, Orange.data.Table, ...) that are
# not documented here; do not turn those into broken cross-references.
nitpicky = False

html_theme = "alabaster"
html_title = "orange3-relief"
html_static_path = []


class _AllowEmptyGlob(logging.Filter):
    """The Widgets and Results sections of the index collect their pages by
    glob, so that pages written later appear by themselves; a glob that
    matches nothing (yet) is not an error.  Sphinx gives this warning no type,
    so ``suppress_warnings`` cannot name it."""

    def filter(self, record):
        return getattr(record, "subtype", None) != "empty_glob"


def setup(app):
    logging.getLogger("sphinx.sphinx.directives.other").addFilter(
        _AllowEmptyGlob())
