"""The scoring widgets' views: the table of weights (a bar per weight), the
convergence plot of the running estimates and the stability's rank
intervals.  They show numbers; they compute none."""
import numpy as np

from AnyQt.QtCore import Qt
from AnyQt.QtWidgets import QItemDelegate, QTableView

import pyqtgraph as pg

from Orange.widgets import gui
from Orange.widgets.gui import BarRatioTableModel
from Orange.widgets.utils.itemmodels import VariableListModel

from orangecontrib.relief.stats.redundancy import THRESHOLD
from orangecontrib.relief.widgets.plotutils import CURVE_COLORS, StaticPlotView


class WeightsModel(BarRatioTableModel):
    """Two columns: the feature (with its type icon) and its weight."""

    def __init__(self, *args, **kwargs):
        self._variable_model = VariableListModel()
        super().__init__(*args, **kwargs)

    def wrap(self, table):
        super().wrap(table)
        self._variable_model[:] = [row[0] for row in table]

    def data(self, index, role=Qt.DisplayRole):
        if index.isValid() and index.column() == 0:
            row = self.mapToSourceRows(index.row())
            return self._variable_model.data(
                self._variable_model.index(row, 0), role)
        if role == Qt.DisplayRole and index.isValid() and index.column() >= 1:
            value = super().data(index, Qt.EditRole)
            if isinstance(value, float):
                return "?" if np.isnan(value) else f"{value:.4f}" \
                    if self.headerData(index.column(), Qt.Horizontal) \
                    in ("Weight", "p", "q", "NPDR β") else f"{value:.2f}"
        return super().data(index, role)


class WeightsView(QTableView):
    def __init__(self, parent=None):
        super().__init__(
            parent, selectionMode=QTableView.NoSelection, sortingEnabled=True,
            showGrid=True, cornerButtonEnabled=False,
            alternatingRowColors=False)
        self._name_delegate = QItemDelegate(self)
        self._bar_delegate = gui.ColoredBarItemDelegate(self)
        self.setItemDelegateForColumn(0, self._name_delegate)
        self.setItemDelegateForColumn(1, self._bar_delegate)
        header = self.horizontalHeader()
        header.setStretchLastSection(True)
        header.setFixedHeight(24)
        self.verticalHeader().setDefaultSectionSize(22)
        self.verticalHeader().hide()


class ConvergencePlot(StaticPlotView):
    """Running weight estimates of the top features against visited instances.
    """

    def __init__(self, parent=None, x_label="Visited instances",
                 y_label="Weight estimate",
                 title="Convergence of the top features' weights",
                 integer_x=False):
        super().__init__(x_label, y_label, parent, title=title,
                         integer_x=integer_x)
        self.curves = []
        self.legend = None
        self.setMinimumHeight(180)

    def clear(self):
        """Remove the curves and go back to a fresh plot's axes."""
        self.plot.clear()
        self.curves = []
        self.remove_legend()
        self.legend = None
        reset_axes(self.plot)

    def set_trace(self, steps, trace, names, indices):
        """Plot columns `indices` of `trace` against `steps`."""
        self.clear()
        if trace is None or steps is None or not len(steps) or not indices:
            return
        # (under the x axis, where it covers no curve)
        self.legend = self.new_legend(columns=min(len(indices), 3))
        self.plot.addItem(pg.InfiniteLine(
            pos=0, angle=0, pen=pg.mkPen((120, 120, 120), style=Qt.DashLine)))
        for rank, index in enumerate(indices):
            color = CURVE_COLORS[rank % len(CURVE_COLORS)]
            curve = pg.PlotCurveItem(
                np.asarray(steps, dtype=float),
                np.asarray(trace[:, index], dtype=float),
                pen=pg.mkPen(color, width=2), antialias=True)
            self.plot.addItem(curve)
            self.legend.addItem(curve, names[index])
            self.curves.append(curve)
        self.plot.enableAutoRange()


def reset_axes(plot):
    """Give an emptied `plot` the axes of a fresh one (0 to 1), not the
    ranges of the data it showed last."""
    plot.getViewBox().setRange(xRange=(0, 1), yRange=(0, 1), padding=0)


class RankIntervalPlot(StaticPlotView):
    """Each top feature's mean rank over the subsample refits, with its 90 %
    interval (5th to 95th percentile): overlapping intervals mean the
    data do not decide the order."""

    def __init__(self, parent=None):
        super().__init__("Rank over subsamples (1 = best)", "", parent,
                         title="Stability: mean rank and 90 % interval",
                         integer_x=True)
        self.setMinimumHeight(200)
        self.plot.getViewBox().invertY(True)
        self.plot.getAxis("left").setWidth(130)

    def set_ranks(self, stability, names, indices):
        self.plot.clear()
        if stability is None or not indices:
            self.plot.getAxis("left").setTicks(None)
            reset_axes(self.plot)
            return
        y = np.arange(len(indices), dtype=float)
        mean = stability.mean_rank[indices]
        low, high = stability.rank_low[indices], stability.rank_high[indices]
        self.plot.addItem(pg.ErrorBarItem(
            x=mean, y=y, left=mean - low, right=high - mean, beam=0.2,
            pen=pg.mkPen((90, 90, 90), width=1.5)))
        self.plot.addItem(pg.ScatterPlotItem(
            x=mean, y=y, size=8, brush=pg.mkBrush(CURVE_COLORS[0]),
            pen=pg.mkPen(None)))
        axis = self.plot.getAxis("left")
        axis.setTicks([[(i, names[j]) for i, j in enumerate(indices)], []])
        axis.setStyle(hideOverlappingLabels=False)
        self.plot.setXRange(0.5, max(high.max(), 2) + 0.5)
        self.plot.setYRange(-0.5, len(indices) - 0.5)


class RedundancyHeatmap(StaticPlotView):
    """The top features' redundancy (``redundancy.update_redundancy``: how
    alike their per-visit updates are, 0 to 1) as a heat map, best feature
    at the top left: a dark block off the diagonal is a group of features
    that say the same thing."""

    #: white (0) to dark red (1), as Orange's heat maps of one sign
    COLORS = pg.ColorMap([0.0, 0.5, 1.0], [(255, 255, 255), (244, 137, 96),
                                           (165, 15, 21)])

    def __init__(self, parent=None):
        super().__init__("Rank", "", parent,
                         title="Redundancy of the top features",
                         integer_x=True)
        self.setMinimumHeight(240)
        self.setToolTip("The correlation of two features' per-visit "
                        f"updates, white 0 to dark red 1; from {THRESHOLD:g} "
                        "on, the lower-ranked one is skipped (marked ×: it "
                        "repeats a selected feature).")
        self.plot.getViewBox().invertY(True)
        self.plot.getViewBox().setAspectLocked(False)
        self.plot.showGrid(False, False)
        self.plot.getAxis("left").setWidth(130)
        self.image = None

    def set_matrix(self, matrix, names, skipped=()):
        """Show `matrix` (t x t, in rank order) of the features `names`;
        the names of `skipped` (positions: redundant with a selected
        feature) get a mark."""
        self.plot.clear()
        self.image = None
        axis = self.plot.getAxis("left")
        if matrix is None or not len(names):
            axis.setTicks(None)
            reset_axes(self.plot)
            return
        matrix = np.asarray(matrix, dtype=float)
        self.image = pg.ImageItem(self.COLORS.map(matrix.T, mode="byte"))
        self.image.setRect(0.5, -0.5, len(names), len(names))
        self.plot.addItem(self.image)
        axis.setTicks([[(i, ("× " if i in skipped else "") + name)
                        for i, name in enumerate(names)], []])
        axis.setStyle(hideOverlappingLabels=False)
        self.plot.setXRange(0.5, len(names) + 0.5, padding=0)
        self.plot.setYRange(-0.5, len(names) - 0.5, padding=0)
