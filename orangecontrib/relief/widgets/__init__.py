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

# Help pages: the Sphinx htmlhelp build of doc/ (doc/widgets/<widget>.md,
# titled as the widgets) in a source checkout, then an installed build,
# then the online documentation. Matching is by link caption = widget name.
WIDGET_HELP_PATH = (
    ("{DEVELOP_ROOT}/doc/_build/htmlhelp/index.html", None),
    ("{}/help/orange3-relief/index.html".format(sysconfig.get_path("data")),
     None),
    ("https://orange3-relief.readthedocs.io/en/latest/", ""),
)
