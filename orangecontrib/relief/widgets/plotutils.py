"""Plot pieces shared by the add-on's widgets (no widget in this module)."""
from AnyQt.QtGui import QFont
from AnyQt.QtWidgets import QFrame

from Orange.widgets.visualize.utils.plotutils import GraphicsView, PlotItem

#: Distinct, print-safe line colours (no yellow), one per curve.
CURVE_COLORS = ((31, 119, 180), (214, 39, 40), (44, 160, 44),
                (255, 127, 14), (148, 103, 189), (140, 86, 75),
                (227, 119, 194), (127, 127, 127), (188, 189, 34),
                (23, 190, 207))


class StaticPlotView(GraphicsView):
    """A framed view of one non-interactive `PlotItem` (`self.plot`) with
    Orange's tick font, a light grid and plain (not SI-prefixed) numbers."""

    def __init__(self, x_label, y_label, parent=None, title=None):
        super().__init__(parent)
        self.setFrameStyle(QFrame.StyledPanel)
        self.plot = PlotItem(enableMenu=False)
        self.plot.setMouseEnabled(False, False)
        self.plot.hideButtons()
        self.plot.showGrid(True, True, alpha=0.15)
        tickfont = QFont(self.font())
        tickfont.setPixelSize(max(int(tickfont.pixelSize() * 2 // 3), 11))
        for position in ("bottom", "left"):
            axis = self.plot.getAxis(position)
            axis.setTickFont(tickfont)
            axis.enableAutoSIPrefix(False)
        self.plot.setLabel("bottom", x_label)
        self.plot.setLabel("left", y_label)
        if title:
            self.plot.setTitle(title, size="10pt", color="#404040")
        self.setCentralItem(self.plot)
