"""Plot pieces shared by the add-on's widgets (no widget in this module)."""
import pyqtgraph as pg

from AnyQt.QtCore import QSize, Qt
from AnyQt.QtGui import QFont
from AnyQt.QtWidgets import QFrame, QSizePolicy

from Orange.widgets.visualize.utils.plotutils import (AxisItem, GraphicsView,
                                                     PlotItem)

#: Distinct, print-safe line colours (no yellow), one per curve.
CURVE_COLORS = ((31, 119, 180), (214, 39, 40), (44, 160, 44),
                (255, 127, 14), (148, 103, 189), (140, 86, 75),
                (227, 119, 194), (127, 127, 127), (188, 189, 34),
                (23, 190, 207))


class IntegerAxisItem(AxisItem):
    """An axis of counts (features, ranks): ticks at whole numbers only, so a
    short range shows 1, 2, 3 and never 1.5 or 2.5.  (Orange's palette-aware
    axis: its label and ticks in the text colour, as the other axis.)"""

    def tickSpacing(self, minVal, maxVal, size):
        levels = [(round(spacing), round(offset))
                  for spacing, offset in super().tickSpacing(minVal, maxVal, size)
                  if spacing >= 1 - 1e-9 and abs(spacing - round(spacing)) < 1e-9
                  and abs(offset - round(offset)) < 1e-9]
        return levels or [(1, 0)]


class StaticPlotView(GraphicsView):
    """A framed view of one non-interactive `PlotItem` (`self.plot`) with
    Orange's tick font, a light grid and plain (not SI-prefixed) numbers.

    With `integer_x`, the x axis is an `IntegerAxisItem` (x counts something).
    """

    #: the row of the plot's layout under the bottom axis, for the legend
    LEGEND_ROW = 4

    def __init__(self, x_label, y_label, parent=None, title=None, integer_x=False):
        super().__init__(parent)
        self.setFrameStyle(QFrame.StyledPanel)
        axes = {"left": AxisItem("left"), "bottom": IntegerAxisItem("bottom")} \
            if integer_x else None
        self.plot = PlotItem(enableMenu=False, axisItems=axes)
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
        self._legend = None

    def minimumSizeHint(self):
        """At least the plot's own minimum (axes, title, legend), so that the
        view never clips it; call `updateGeometry` when the legend changes."""
        plot = self.plot.effectiveSizeHint(Qt.MinimumSize)
        frame = 2 * self.frameWidth()
        return super().minimumSizeHint().expandedTo(
            QSize(int(plot.width() + 0.5) + frame, int(plot.height() + 0.5) + frame))

    def new_legend(self, columns=1) -> pg.LegendItem:
        """An empty legend in a row of its own under the x axis, replacing the
        previous one: outside the data area, so it never covers a curve."""
        self.remove_legend()
        legend = pg.LegendItem(labelTextSize="9pt", labelTextColor=(40, 40, 40),
                               horSpacing=20)
        legend.setColumnCount(columns)
        legend.setSizePolicy(QSizePolicy.Fixed, QSizePolicy.Fixed)
        self.plot.layout.addItem(legend, self.LEGEND_ROW, 1)
        self.plot.layout.setAlignment(legend, Qt.AlignHCenter | Qt.AlignTop)
        self._legend = legend
        return legend

    def remove_legend(self):
        """Take the legend (if any) out of the plot."""
        if self._legend is None:
            return
        self.plot.layout.removeItem(self._legend)
        if self._legend.scene() is not None:
            self._legend.scene().removeItem(self._legend)
        self._legend = None
