"""pdReliefF widget: dReliefF with progressive weighting f(w, t)."""
from Orange.data import Table
from Orange.widgets.utils.widgetpreview import WidgetPreview

from orangecontrib.relief.scoring import PDReliefF
from orangecontrib.relief.widgets.owreliefbase import OWReliefBase


class OWPDReliefF(OWReliefBase):
    name = "pdReliefF"
    description = ("Weight features by pdReliefF: distance weights move "
                   "progressively from uniform to the current feature "
                   "weights, f(w, t) = (1 - w) / t^T + w.")
    icon = "icons/pdReliefF.svg"
    priority = 30
    keywords = "pdrelieff, progressive, relief, relieff, drelieff, " \
               "feature weighting, feature selection, rank, score"

    SCORER = PDReliefF
    HAS_T = True


if __name__ == "__main__":  # pragma: no cover
    WidgetPreview(OWPDReliefF).run(Table("heart_disease"))
