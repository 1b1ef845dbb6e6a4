"""Relief Evaluation: judge the weights of any scorers on data.

Two judgements from the seed paper ("Empirical results"): when the important
features are known, the success measures separability s, usability u,
minimality m and completeness c of each scorer's weights; always, the wrapper
curve, the cross-validated accuracy of a learner as features are added in
decreasing weight. Every number comes from :mod:`orangecontrib.relief.evaluation`;
the widget only gathers the inputs, runs the work off the GUI thread and shows
the results.
"""
from types import SimpleNamespace
from typing import List, Optional

import numpy as np

from AnyQt.QtCore import Qt, QTimer
from AnyQt.QtGui import QColor, QStandardItem, QStandardItemModel
from AnyQt.QtWidgets import QHeaderView, QListView, QSplitter, QTableView

import pyqtgraph as pg

from Orange.base import Learner
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, StringVariable, Table
from Orange.preprocess import score
from Orange.widgets import gui
from Orange.widgets.settings import ContextSetting, DomainContextHandler, Setting
from Orange.widgets.utils.concurrent import ConcurrentWidgetMixin, TaskState
from Orange.widgets.utils.itemmodels import PyTableModel
from Orange.widgets.utils.widgetpreview import WidgetPreview
from Orange.widgets.widget import Input, MultiInput, Msg, Output, OWWidget

from orangecontrib.relief.evaluation import PROTOCOLS, weight_quality, wrapper_curve
from orangecontrib.relief.widgets.plotutils import CURVE_COLORS, StaticPlotView

PROTOCOL_TOOLTIP = (
    "<p><b>Honest</b>: the weights are recomputed on the training part of every "
    "cross-validation fold, so the test rows never influence which features are "
    "chosen. This estimates the accuracy you can expect on new data.</p>"
    "<p><b>As in the paper</b>: the weights are computed once on all rows and the "
    "curve is then cross-validated, as the seed paper did. The test rows took part "
    "in choosing the features (selection bias), so the accuracies are optimistic, "
    "most of all for small data with many features.</p>")

# The table's columns of success measures (seed paper, "Empirical results",
# after Kononenko 1994): a name a user reads, and a tooltip that says what the
# measure is, in the paper's words. I: the important features, R: the others.
MEASURE_COLUMNS = (
    ("Separability",
     "<p><b>Separability</b> s = W<sub>I, worst</sub> − W<sub>R, best</sub>, "
     "from −2 to 2: the weight of the worst important feature minus that of "
     "the best unimportant one.</p><p>Whether the weights separate the "
     "important features from the unimportant ones: s&nbsp;&gt;&nbsp;0 means "
     "every important feature is weighted above every unimportant one.</p>"),
    ("Usability",
     "<p><b>Usability</b> u = W<sub>I, best</sub> − W<sub>R, best</sub>, "
     "from −2 to 2: the weight of the best important feature minus that of "
     "the best unimportant one.</p><p>Whether the weights single out at least "
     "one important feature: u&nbsp;&gt;&nbsp;0 means the best important "
     "feature is weighted above every unimportant one.</p>"),
    ("Minimality",
     "<p><b>Minimality</b> m = |I| / |M|, from 0 to 1, where M holds the "
     "features weighted at least as high as the worst important one.</p>"
     "<p>The share of important features in the smallest set of top-weighted "
     "features that contains all of them; 1 when separability is positive."
     "</p>"),
    ("Completeness",
     "<p><b>Completeness</b> c = |C| / |I|, from 0 to 1, where C holds the "
     "important features weighted above every unimportant one.</p><p>The "
     "share of important features taken when features are selected in "
     "decreasing weight, stopping before the first unimportant one; 1 when "
     "separability is positive.</p>"),
)

# the Ranking cell names this many features (its tooltip names them all)
RANKING_SHOWN = 12


class ResultsModel(PyTableModel):
    """Orange's table model with tooltips on the column headers (its own
    headers show their text as the tooltip, whatever was set)."""

    def __init__(self, parent=None):
        super().__init__(parent=parent)
        self.header_tooltips = {}    # column -> tooltip

    def headerData(self, section, orientation, role=Qt.DisplayRole):
        if role == Qt.ToolTipRole and orientation == Qt.Horizontal \
                and section in self.header_tooltips:
            return self.header_tooltips[section]
        return super().headerData(section, orientation, role)


class Cancelled(Exception):
    """Raised from the progress callback to stop the computation."""


class ScorerWeights:
    """One weight per attribute from any Orange ``Scorer``.

    A learner used as a scorer (``LearnerScorer``) is read as Rank reads it,
    ``scorer.score_data(data)``, and when it gives several rows (e.g. a
    coefficient per class) each attribute gets its largest score; any other
    scorer is called as ``scorer(data)``, one score per attribute.
    """

    def __init__(self, scorer: score.Scorer):
        self.scorer = scorer
        self.name = getattr(scorer, "name", None) or type(scorer).__name__

    def __call__(self, data: Table) -> np.ndarray:
        n_attributes = len(data.domain.attributes)
        if isinstance(self.scorer, score.LearnerScorer):
            scores = self.scorer.score_data(data)
        else:
            scores = self.scorer(data)
        scores = np.atleast_2d(np.asarray(scores, dtype=float))
        if scores.shape[1] != n_attributes and scores.shape[0] == n_attributes:
            scores = scores.T
        if scores.shape[1] != n_attributes:
            raise ValueError(f"{self.name} gave {scores.shape[1]} scores for "
                             f"{n_attributes} features.")
        if len(scores) == 1:
            return scores[0]
        # (fmax skips NaN like nanmax, without its "All-NaN slice" warning)
        return np.fmax.reduce(scores, axis=0)


def run(data: Table, scorers: List[ScorerWeights], learner: Optional[Learner],
        folds: int, protocol: str, random_state: int,
        state: TaskState) -> SimpleNamespace:
    """Weights of every scorer on all of ``data`` and their wrapper curves.

    Scorers that fail on the data are left out and reported in ``failed``.
    """
    def check():
        if state.is_interruption_requested():
            raise Cancelled

    state.set_status("Scoring...")
    weights, working, failed = [], [], []
    share = 0.1    # of the progress bar for the weights on all data
    for i, scorer in enumerate(scorers):
        check()
        try:
            weights.append(np.asarray(scorer(data), dtype=float))
            working.append(scorer)
        except Exception as error:  # pylint: disable=broad-except
            failed.append((scorer.name, str(error) or type(error).__name__))
        state.set_progress_value(100 * share * (i + 1) / len(scorers))

    def progress(fraction):
        state.set_progress_value(100 * (share + (1 - share) * fraction))
        check()

    state.set_status("Cross-validating...")
    curves = []
    if working:
        curves = wrapper_curve(data, working, learner=learner, folds=folds,
                               protocol=protocol, random_state=random_state,
                               progress=progress)
    return SimpleNamespace(names=[scorer.name for scorer in working], weights=weights,
                           curves=curves, failed=failed)


class WrapperPlot(StaticPlotView):
    """Accuracy against the number of top-weighted features, one line per scorer;
    the legend is under the plot (never over a curve), the x ticks whole numbers."""

    def __init__(self, parent=None):
        super().__init__("Number of features (in decreasing weight)",
                         "Cross-validated accuracy", parent, integer_x=True)
        self.legend = None
        self.curves = []      # the PlotDataItems of the mean accuracies
        self.best_points = []
        self.setMinimumHeight(200)
        # room under the x axis title: pyqtgraph counts 80 % of its height, so
        # with no legend under it the descenders ('g' of 'weight') were cut
        left, top, right, _ = self.plot.layout.getContentsMargins()
        self.plot.layout.setContentsMargins(left, top, right, 6)

    def clear(self):
        self.plot.clear()
        self.curves, self.best_points = [], []
        self.remove_legend()
        self.legend = None
        self.plot.setTitle(None)
        self.updateGeometry()

    def set_curves(self, curves, title):
        self.clear()
        if not curves:
            return
        self.plot.setTitle(title, size="10pt", color="#404040")
        self.legend = self.new_legend()
        for i, curve in enumerate(curves):
            color = CURVE_COLORS[i % len(CURVE_COLORS)]
            x = np.asarray(curve.sizes, dtype=float)
            band = pg.FillBetweenItem(
                pg.PlotDataItem(x, curve.mean_accuracy - curve.std_accuracy),
                pg.PlotDataItem(x, curve.mean_accuracy + curve.std_accuracy),
                brush=pg.mkBrush(color + (28,)))
            self.plot.addItem(band)
            item = pg.PlotDataItem(
                x, curve.mean_accuracy, pen=pg.mkPen(color, width=2), antialias=True,
                symbol="o", symbolSize=4, symbolBrush=pg.mkBrush(color), symbolPen=None)
            self.plot.addItem(item)
            best = pg.ScatterPlotItem(
                [curve.best_size], [curve.best_accuracy], symbol="star", size=16,
                brush=pg.mkBrush(color), pen=pg.mkPen(60, 60, 60))
            best.setToolTip(f"{curve.scorer}: best {curve.best_accuracy:.3f} "
                            f"with {curve.best_size} features")
            self.plot.addItem(best)
            self.legend.addItem(item, f"{curve.scorer} (best {curve.best_accuracy:.3f} "
                                      f"at {curve.best_size})")
            self.curves.append(item)
            self.best_points.append(best)
        low = min(np.min(c.mean_accuracy - c.std_accuracy) for c in curves)
        high = max(np.max(c.mean_accuracy + c.std_accuracy) for c in curves)
        span = max(high - low, 0.05)
        self.plot.setYRange(low - 0.05 * span, high + 0.05 * span, padding=0)
        self.plot.setXRange(0.5, len(curves[0].sizes) + 0.5, padding=0)
        self.updateGeometry()     # the legend's size is the plot's minimum


class OWReliefEvaluation(OWWidget, ConcurrentWidgetMixin):
    name = "Relief Evaluation"
    description = ("Judge feature weights: separability, usability, minimality and "
                   "completeness against the known important features, and the "
                   "accuracy of a learner as top-weighted features are added.")
    icon = "icons/ReliefEvaluation.svg"
    priority = 90
    keywords = "relief, evaluation, separability, usability, wrapper, " \
               "feature selection, weights, scorer"

    class Inputs:
        data = Input("Data", Table, default=True)
        scorers = MultiInput("Scorer", score.Scorer, filter_none=True)
        learner = Input("Learner", Learner)

    class Outputs:
        selected_data = Output("Selected Data", Table, default=True)
        evaluation = Output("Evaluation", Table)

    class Error(OWWidget.Error):
        no_class = Msg("Data has no target variable.")
        not_categorical = Msg("The wrapper curves need a categorical target.")
        no_attributes = Msg("Data has no features.")
        too_few_rows = Msg("{} folds need at least {} instances with a known target; "
                           "the data has {}.")
        compute_failed = Msg("{}")

    class Warning(OWWidget.Warning):
        no_important = Msg("No feature is marked important: tick the important "
                           "features to see s, u, m and c.")
        all_important = Msg("Every feature is marked important: s, u, m and c need "
                            "at least one unimportant feature.")
        scorer_failed = Msg("Could not score the data with {}")

    class Information(OWWidget.Information):
        no_scorers = Msg("Connect one or more scorers (e.g. ReliefF).")
        cancelled = Msg("Computation was cancelled; change a setting or press "
                        "Recompute to restart it.")

    settingsHandler = DomainContextHandler()
    settings_version = 1

    FromData, Ticked = range(2)

    important_source = Setting(FromData)
    # every feature of the data -> ticked or not; a dict over all features (not a
    # list of the ticked ones), so that a context matches only its own domain
    ticked = ContextSetting({})
    protocol = Setting(0)                  # index into PROTOCOLS
    folds = Setting(5)
    random_state = Setting(0)
    selected_scorer = Setting(0)           # index of the scorer for Selected Data
    auto_apply = Setting(True)

    want_main_area = True
    graph_name = "plotview.plot"

    def __init__(self):
        OWWidget.__init__(self)
        ConcurrentWidgetMixin.__init__(self)
        self.data: Optional[Table] = None
        self.scorers: List[score.Scorer] = []
        self.learner: Optional[Learner] = None
        self.result: Optional[SimpleNamespace] = None
        self.measures = []       # WeightQuality or None, one per scored scorer
        self._setup_gui()

    # GUI
    def _setup_gui(self):
        box = gui.vBox(self.controlArea, "Important Features")
        gui.radioButtons(
            box, self, "important_source",
            btnLabels=("Marked relevant in the data", "Ticked below"),
            tooltips=("Features whose variable has the attribute relevant=True, "
                      "as Benchmark Data marks them.",
                      "The features ticked in the list."),
            callback=self._important_source_changed)
        self.important_model = QStandardItemModel(self)
        self.important_model.itemChanged.connect(self._important_ticked)
        self.important_view = QListView(
            self, editTriggers=QListView.NoEditTriggers, uniformItemSizes=True)
        self.important_view.setModel(self.important_model)
        self.important_view.setMinimumHeight(120)
        box.layout().addWidget(self.important_view)

        box = gui.vBox(self.controlArea, "Wrapper Curves")
        gui.comboBox(box, self, "protocol", label="Protocol:",
                     orientation=Qt.Horizontal,
                     items=("Honest (weights per fold)", "As in the paper (biased)"),
                     tooltip=PROTOCOL_TOOLTIP, callback=self._params_changed)
        gui.spin(box, self, "folds", 2, 20, label="Cross-validation folds:",
                 controlWidth=60, alignment=Qt.AlignRight,
                 callback=self._params_changed)
        gui.spin(box, self, "random_state", 0, 2 ** 31 - 1, label="Seed of the folds:",
                 controlWidth=80, alignment=Qt.AlignRight,
                 callback=self._params_changed)
        self.learner_label = gui.widgetLabel(box, "")
        self._update_learner_label()

        box = gui.vBox(self.controlArea, "Output")
        self.scorer_combo = gui.comboBox(
            box, self, "selected_scorer", label="Best subset of:",
            orientation=Qt.Horizontal, callback=self._selected_scorer_changed,
            tooltip="Selected Data keeps the features this scorer ranks highest, "
                    "as many as its best point on the wrapper curve.")

        gui.rubber(self.controlArea)
        # in the control area: beside Apply Automatically, they made the
        # buttons area, and so the control area, 100 px wider than its controls,
        # which the table of results had to give up.
        # Not auto-default: Enter in a spin box would click them (a QDialog's
        # habit), and Cancel would stop the run the new value has just started
        box = gui.hBox(self.controlArea)
        self.recompute_button = gui.button(
            box, self, "Recompute", callback=self._recompute, autoDefault=False)
        self.cancel_button = gui.button(
            box, self, "Cancel", callback=self.cancel_computation,
            enabled=False, autoDefault=False)
        gui.auto_apply(self.buttonsArea, self, "auto_apply", commit=self.commit)

        self.model = ResultsModel(parent=self)
        # the ranking wraps (rows grow to fit it) rather than being cut
        self.view = QTableView(self, selectionMode=QTableView.NoSelection,
                               sortingEnabled=False, wordWrap=True)
        self.view.setModel(self.model)
        self.view.verticalHeader().hide()
        self.view.verticalHeader().setSectionResizeMode(
            QHeaderView.ResizeToContents)
        self.view.horizontalHeader().setStretchLastSection(True)
        self.view.setMinimumHeight(100)
        self.plotview = WrapperPlot(self)
        self.splitter = QSplitter(Qt.Vertical, self.mainArea)
        self.splitter.addWidget(self.view)
        self.splitter.addWidget(self.plotview)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 3)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes([140, 460])
        self.mainArea.layout().addWidget(self.splitter)
        # the table takes the height of its rows once the view has laid them
        # out, and again when they rewrap (new results, another width)
        self._fit_table_timer = QTimer(self, singleShot=True, interval=0,
                                       timeout=self._fit_table_height)
        self.view.verticalHeader().sectionResized.connect(
            self._fit_table_timer.start)
        self.resize(1100, 660)

    # inputs
    @Inputs.data
    def set_data(self, data: Optional[Table]):
        self.closeContext()
        self.data = data
        self.ticked = {}
        if data is not None:
            marked = {var: bool(var.attributes.get("relevant", False))
                      for var in data.domain.attributes}
            self.ticked = dict(marked)
            self.openContext(data)
            # a context of fewer features (say Reduced Data before the whole
            # table) ticks only those; the others start from the data's marks
            self.ticked = {var: self.ticked.get(var, relevant)
                           for var, relevant in marked.items()}
        self._fill_important_list()

    @Inputs.scorers
    def set_scorer(self, index: int, scorer: score.Scorer):
        self.scorers[index] = scorer

    @Inputs.scorers.insert
    def insert_scorer(self, index: int, scorer: score.Scorer):
        self.scorers.insert(index, scorer)

    @Inputs.scorers.remove
    def remove_scorer(self, index: int):
        self.scorers.pop(index)

    @Inputs.learner
    def set_learner(self, learner: Optional[Learner]):
        self.learner = learner
        self._update_learner_label()

    def handleNewSignals(self):
        self._restart()

    # important features
    def _fill_important_list(self):
        # (no blockSignals: the view must hear of the new rows, or it keeps
        # showing the previous data's; items are set up before they are added,
        # so no itemChanged is emitted)
        model = self.important_model
        model.clear()
        if self.data is not None:
            from_data = self.important_source == self.FromData
            icons = gui.attributeIconDict
            for var in self.data.domain.attributes:
                item = QStandardItem(icons[var], var.name)
                item.setData(var, Qt.UserRole)
                item.setCheckable(True)
                item.setEditable(False)
                important = var.attributes.get("relevant", False) if from_data \
                    else self.ticked.get(var, False)
                item.setCheckState(Qt.Checked if important else Qt.Unchecked)
                item.setEnabled(not from_data)
                model.appendRow(item)
        self.important_view.setEnabled(self.important_source == self.Ticked)

    def _important_source_changed(self):
        self._fill_important_list()
        self._update_measures()

    def _important_ticked(self, _item=None):
        if self.important_source != self.Ticked:
            return
        model = self.important_model
        self.ticked = {model.item(row).data(Qt.UserRole):
                       model.item(row).checkState() == Qt.Checked
                       for row in range(model.rowCount())}
        self._update_measures()

    def important_mask(self) -> Optional[np.ndarray]:
        """Boolean mask of the important features (None without data)."""
        if self.data is None:
            return None
        attributes = self.data.domain.attributes
        if self.important_source == self.FromData:
            return np.array([bool(var.attributes.get("relevant", False))
                             for var in attributes], dtype=bool)
        return np.array([self.ticked.get(var, False) for var in attributes], dtype=bool)

    # computation
    def _params_changed(self):
        self._restart()

    def _recompute(self):
        self._restart()

    def _check_data(self) -> Optional[Table]:
        self.Error.no_class.clear()
        self.Error.not_categorical.clear()
        self.Error.no_attributes.clear()
        self.Error.too_few_rows.clear()
        data = self.data
        if data is None:
            return None
        if data.domain.class_var is None:
            self.Error.no_class()
            return None
        if not isinstance(data.domain.class_var, DiscreteVariable):
            self.Error.not_categorical()
            return None
        if not data.domain.attributes:
            self.Error.no_attributes()
            return None
        known = int(np.sum(~np.isnan(data.Y)))
        if known < self.folds:
            self.Error.too_few_rows(self.folds, self.folds, known)
            return None
        return data

    def _restart(self):
        """Drop the current results (and outputs) and start the work anew."""
        self.cancel()
        self._set_running(False)
        self.Information.cancelled.clear()
        self.Error.compute_failed.clear()
        self.Warning.scorer_failed.clear()
        self.result = None
        self.measures = []
        self._show_results()
        self._send_outputs()
        data = self._check_data()
        self.Information.no_scorers(shown=data is not None and not self.scorers)
        if data is None or not self.scorers:
            return
        self._set_running(True)
        self.start(run, data, [ScorerWeights(scorer) for scorer in self.scorers],
                   self.learner, self.folds, PROTOCOLS[self.protocol],
                   self.random_state)

    def _set_running(self, running: bool):
        self.cancel_button.setEnabled(running)

    def cancel_computation(self):
        """The Cancel button: stop the work and leave no results behind."""
        if self.task is None:
            return
        self.cancel()
        self._set_running(False)
        self.result = None
        self.measures = []
        self._show_results()
        self._send_outputs()
        self.Information.cancelled()

    def on_partial_result(self, _):
        pass

    def on_done(self, result: SimpleNamespace):
        self._set_running(False)
        self.result = result
        if result.failed:
            self.Warning.scorer_failed(
                "; ".join(f"{name}: {message}" for name, message in result.failed))
        self._update_measures()

    def on_exception(self, ex: Exception):
        self._set_running(False)
        self.result = None
        self.Error.compute_failed(str(ex) or type(ex).__name__)
        self._show_results()
        self._send_outputs()

    def onDeleteWidget(self):
        self.shutdown()
        super().onDeleteWidget()

    def _update_measures(self):
        """The four measures from the weights and the important set (GUI thread:
        they cost nothing once the weights are known)."""
        self.Warning.no_important.clear()
        self.Warning.all_important.clear()
        mask = self.important_mask()
        self.measures = []
        if self.result is not None and mask is not None:
            if not mask.any():
                self.Warning.no_important()
            elif mask.all():
                self.Warning.all_important()
            for weights in self.result.weights:
                usable = mask.any() and not mask.all() and not np.isnan(weights).any()
                self.measures.append(weight_quality(weights, mask) if usable else None)
        self._show_results()
        self.commit.deferred()

    # display
    def _show_results(self):
        result = self.result
        combo = self.scorer_combo
        combo.clear()
        if result is None or not result.names:
            self.model.clear()
            self.model.setHorizontalHeaderLabels([])
            self.plotview.clear()
            return
        combo.addItems(result.names)
        self.selected_scorer = min(self.selected_scorer, len(result.names) - 1)
        combo.setCurrentIndex(self.selected_scorer)
        names = [var.name for var in self.data.domain.attributes]
        rows, rankings = [], []
        for name, weights, curve, quality in zip(result.names, result.weights,
                                                 result.curves, self.measures):
            measures = ["–"] * 4 if quality is None else [f"{v:.3f}" for v in quality]
            ranking = self.ranking(weights, names)
            rankings.append("<br/>".join(
                f"{i + 1}. {feature} ({weights[names.index(feature)]:.4f})"
                for i, feature in enumerate(ranking)))
            shown = " > ".join(ranking[:RANKING_SHOWN])
            if len(ranking) > RANKING_SHOWN:
                shown += f" > … ({len(ranking) - RANKING_SHOWN} more)"
            rows.append([name] + measures
                        + [curve.best_size, f"{curve.best_accuracy:.3f}", shown])
        self.model.wrap(rows)
        for row, ranking in enumerate(rankings):
            for column in range(1, 7):
                self.model.setData(self.model.index(row, column),
                                   int(Qt.AlignRight | Qt.AlignVCenter),
                                   Qt.TextAlignmentRole)
            color = CURVE_COLORS[row % len(CURVE_COLORS)]
            self.model.setData(self.model.index(row, 0), QColor(*color), Qt.DecorationRole)
            self.model.setData(self.model.index(row, 7),
                               f"<b>Ranking (weight on all data)</b><br/>{ranking}",
                               Qt.ToolTipRole)
        self.model.setHorizontalHeaderLabels(
            ["Scorer"] + [header for header, _ in MEASURE_COLUMNS]
            + ["Best size", "Best accuracy", "Ranking"])
        tooltips = [tooltip for _, tooltip in MEASURE_COLUMNS] + [
            "The number of top-weighted features with the best cross-validated "
            "accuracy (the star on the curve)",
            "The cross-validated accuracy with that many features",
            "The features in decreasing weight on all data (hover over a "
            "ranking to see the weights)"]
        self.model.header_tooltips = dict(enumerate(tooltips, start=1))
        for column in range(self.model.columnCount() - 1):
            self.view.resizeColumnToContents(column)
        self._fit_table_timer.start()
        protocol = ("honest: weights per training fold" if self.protocol == 0
                    else "as in the paper: weights on all data (optimistic)")
        self.plotview.set_curves(result.curves,
                                 f"{self.folds}-fold CV, {protocol}")

    def _fit_table_height(self):
        """Give the table the height of its rows (at most half of the main
        area), so that no scorer is hidden under the plot."""
        view, header = self.view, self.view.horizontalHeader()
        needed = max(header.height(), header.sizeHint().height()) \
            + view.verticalHeader().length() + 2 * view.frameWidth()
        if view.horizontalScrollBar().isVisible():
            needed += view.horizontalScrollBar().sizeHint().height()
        total = sum(self.splitter.sizes())
        height = min(needed, total // 2)
        self.splitter.setSizes([height, total - height])

    @staticmethod
    def ranking(weights, names):
        """Feature names in decreasing weight (NaN last, ties in domain order)."""
        keys = np.where(np.isnan(weights), -np.inf, weights)
        return [names[i] for i in np.argsort(-keys, kind="stable")]

    def _update_learner_label(self):
        name = "1-nearest neighbour (default)" if self.learner is None \
            else getattr(self.learner, "name", type(self.learner).__name__)
        self.learner_label.setText(f"Learner: {name}")

    def _selected_scorer_changed(self):
        self.commit.deferred()

    # outputs
    @gui.deferred
    def commit(self):
        self._send_outputs()

    def _send_outputs(self):
        result = self.result
        if result is None or not result.names or self.data is None:
            self.Outputs.selected_data.send(None)
            self.Outputs.evaluation.send(None)
            return
        self.Outputs.selected_data.send(self.selected_data())
        self.Outputs.evaluation.send(self.evaluation_table())

    def selected_data(self) -> Table:
        """The data on the chosen scorer's best subset: its ``best_size``
        top-weighted features (weights on all data)."""
        index = min(self.selected_scorer, len(self.result.names) - 1)
        weights = self.result.weights[index]
        curve = self.result.curves[index]
        domain = self.data.domain
        keys = np.where(np.isnan(weights), -np.inf, weights)
        order = np.argsort(-keys, kind="stable")[:curve.best_size]
        attributes = [domain.attributes[i] for i in order]
        table = self.data.transform(Domain(attributes, domain.class_vars, domain.metas))
        table.name = f"{self.data.name} ({self.result.names[index]}, " \
                     f"{curve.best_size} features)"
        return table

    def evaluation_table(self) -> Table:
        """One row per scorer: s, u, m, c, best size and accuracy, accuracy with
        all features; the scorer's name and ranking as metas."""
        variables = [ContinuousVariable(name) for name in (
            "separability", "usability", "minimality", "completeness",
            "best size", "best accuracy", "accuracy (all features)")]
        domain = Domain(variables, metas=[StringVariable("Scorer"),
                                          StringVariable("Ranking")])
        names = [var.name for var in self.data.domain.attributes]
        X, metas = [], []
        for name, weights, curve, quality in zip(self.result.names, self.result.weights,
                                                 self.result.curves, self.measures):
            measures = [np.nan] * 4 if quality is None else list(quality)
            X.append(measures + [curve.best_size, curve.best_accuracy,
                                 curve.mean_accuracy[-1]])
            metas.append([name, ", ".join(self.ranking(weights, names))])
        table = Table.from_numpy(domain, np.array(X, dtype=float),
                                 metas=np.array(metas, dtype=object))
        table.name = "Relief Evaluation"
        return table

    # report
    def send_report(self):
        """The settings; with results, the important features, every scorer's
        best subset (its top features), the table of measures and the curves."""
        items = [
            ("Important features", "marked relevant in the data"
             if self.important_source == self.FromData else "ticked"),
            ("Protocol", ("honest (weights per training fold)",
                          "as in the paper (weights on all data)")[self.protocol]),
            ("Folds", self.folds),
            ("Seed of the folds", self.random_state),
            ("Learner", self.learner_label.text().replace("Learner: ", ""))]
        result = self.result
        if self.data is not None and result is not None and result.names:
            index = min(self.selected_scorer, len(result.names) - 1)
            items.append(("Selected Data", f"best subset of {result.names[index]}"))
        self.report_items("Settings", items)
        if self.data is None or result is None or not result.names:
            return
        self.report_data("Data", self.data)
        mask = self.important_mask()
        names = [var.name for var, important
                 in zip(self.data.domain.attributes, mask) if important]
        self.report_paragraph("Important features", ", ".join(names) or "none")
        attributes = [var.name for var in self.data.domain.attributes]
        self.report_items("Best subsets", [
            (name, f"accuracy {curve.best_accuracy:.3f} with {curve.best_size}: "
                   f"{', '.join(self.ranking(weights, attributes)[:curve.best_size])}")
            for name, weights, curve in zip(result.names, result.weights,
                                            result.curves)])
        self.report_table("Evaluation", self.view)
        self.report_plot("Wrapper curves", self.plotview.plot)

    @classmethod
    def migrate_settings(cls, settings, version):
        """Settings of older versions, converted to this one's (version 1 is
        the first, so there is nothing to convert yet)."""


if __name__ == "__main__":  # pragma: no cover
    from orangecontrib.relief import DReliefF, PDReliefF, ReliefF
    from orangecontrib.relief.datasets import corral
    WidgetPreview(OWReliefEvaluation).run(
        set_data=corral(32),
        insert_scorer=[(0, ReliefF(k_nearest=5)), (1, DReliefF(k_nearest=5)),
                       (2, PDReliefF(k_nearest=5))])
