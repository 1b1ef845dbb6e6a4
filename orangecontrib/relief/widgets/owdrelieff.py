"""dReliefF widget: ReliefF whose distance uses the running feature weights."""
from Orange.data import Table
from Orange.widgets.utils.widgetpreview import WidgetPreview

from orangecontrib.relief.scoring import DReliefF
from orangecontrib.relief.widgets.owreliefbase import OWReliefBase


class OWDReliefF(OWReliefBase):
    name = "dReliefF"
    description = ("Weight features by dReliefF: ReliefF whose neighbour "
                   "distance is weighted by the current feature weights.")
    icon = "icons/dReliefF.svg"
    priority = 20
    keywords = "drelieff, relief, relieff, dynamic, feature weighting, " \
               "feature selection, rank, score"

    SCORER = DReliefF


if __name__ == "__main__":  # pragma: no cover
    WidgetPreview(OWDReliefF).run(Table("heart_disease"))
