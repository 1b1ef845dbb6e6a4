"""
======
Relief
======

Widgets of the Relief family of feature weighting algorithms: ReliefF,
dReliefF, pdReliefF and I-RELIEF.
"""
import sysconfig

NAME = "Relief"

DESCRIPTION = ("Relief feature weighting (ReliefF, dReliefF, pdReliefF, I-RELIEF) "
               "and tools to judge feature weights (Relief Evaluation, "
               "Benchmark Data).")

BACKGROUND = "#C3E6A7"

ICON = "icons/category.svg"

PRIORITY = 10100

class HelpPath:
    """WIDGET_HELP_PATH: (index page, None) pairs, of which Orange's canvas
    takes the first that exists (``orange.canvas.help`` entry point,
    ``html-index``): the Sphinx htmlhelp build of doc/ in a source
    checkout, then the one installed with the wheel, then the pages
    rendered offline from doc/widgets/*.md (``offline_help``: an editable
    install has no build, and the online documentation needs the network),
    then the online documentation.  Matching is by link caption = widget
    name.  The offline pages are rendered only when the canvas gets that
    far, when help is first asked for."""

    BUILT = (
        ("{DEVELOP_ROOT}/doc/_build/htmlhelp/index.html", None),
        ("{}/help/orange3-relief/index.html".format(
            sysconfig.get_path("data")), None),
    )
    ONLINE = ("https://orange3-relief.readthedocs.io/en/latest/", "")

    def __iter__(self):
        from orangecontrib.relief.widgets import offline_help
        yield from self.BUILT
        rendered = offline_help.index()
        if rendered is not None:
            yield str(rendered), None
        yield self.ONLINE


WIDGET_HELP_PATH = HelpPath()
