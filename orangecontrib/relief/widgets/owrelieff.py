"""ReliefF widget: Kononenko's ReliefF (RReliefF for a numeric target)."""
from Orange.data import Table
from Orange.widgets.utils.widgetpreview import WidgetPreview

from orangecontrib.relief.scoring import ReliefF
from orangecontrib.relief.widgets.owreliefbase import OWReliefBase


class OWReliefF(OWReliefBase):
    name = "ReliefF"
    description = ("Weight features by ReliefF: how well their values "
                   "separate near instances of different classes.")
    icon = "icons/ReliefF.svg"
    priority = 10
    keywords = "relieff, relief, rrelieff, feature weighting, " \
               "feature selection, rank, score"

    SCORER = ReliefF
    HAS_ESTIMATORS = True


if __name__ == "__main__":  # pragma: no cover
    WidgetPreview(OWReliefF).run(Table("heart_disease"))
