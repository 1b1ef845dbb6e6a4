"""Shared base of the ReliefF, dReliefF and pdReliefF widgets.

The widgets only configure a scorer from :mod:`orangecontrib.relief.scoring`,
run it off the GUI thread when data is connected, and show what came back:
a sortable table of weights with a bar per weight and a convergence plot of
the running estimates (the engine's trace). All the numbers come from the
scorer; nothing here computes a weight.

Where a GPU can run the scorer (``core.cuda.available()``, checked when the
widget is created), a "Compute on" choice offers it by name; without one the
choice is hidden and the scorer runs on the CPU.
"""
import copy
import numbers
from types import SimpleNamespace
from typing import Optional

import numpy as np
import scipy.sparse as sp

from AnyQt.QtCore import Qt
from AnyQt.QtWidgets import (
    QComboBox, QGridLayout, QItemDelegate, QLabel, QListView, QSizePolicy, QSplitter,
    QTableView,
)

import pyqtgraph as pg

from Orange.data import ContinuousVariable, Domain, StringVariable, Table
from Orange.preprocess import score
from Orange.preprocess.fss import SelectBestFeatures
from Orange.preprocess.preprocess import Preprocess, PreprocessorList
from Orange.widgets import gui
from Orange.widgets.gui import BarRatioTableModel
from Orange.widgets.settings import (ContextSetting, DomainContextHandler,
                                     Setting)
from Orange.widgets.utils.concurrent import ConcurrentWidgetMixin, TaskState
from Orange.widgets.utils.itemmodels import VariableListModel
from Orange.widgets.widget import Input, Msg, Output, OWWidget

from orangecontrib.relief.core import collect_warnings, cuda, warmup
from orangecontrib.relief.core.rules import RULES
from orangecontrib.relief.scoring import (CovariatesToMetas, SelectSignificant,
                                          covariates_to_metas)
from orangecontrib.relief.stats import (NPDR_DEFAULT, TESTS,
                                        unreachable_threshold)
from orangecontrib.relief.widgets.plotutils import CURVE_COLORS, StaticPlotView

#: Aim for about this many points in the convergence plot.
TRACE_POINTS = 200


class Cancelled(Exception):
    """Raised from the progress callback to stop the engine."""


def run(data: Table, scorer, trace_every: Optional[int], extras,
        state: TaskState, known=None) -> SimpleNamespace:
    """Score `data` with `scorer` in a worker thread (unless `known`, the
    weights' `ReliefResult`, is given), then (``extras``) test the weights
    and measure their stability.

    Returns a namespace with the engine's `ReliefResult` (`result`), the
    `stats.Significance` (`test`) and `stats.Stability` (`stability`) or
    None, and the texts of the warnings the scorer issued (`warnings`).
    Each part but the last is also sent as a partial result
    ``(name, value)`` as soon as it is known, so that the widget shows it
    while the rest runs, and keeps it if the rest is cancelled.
    """
    extras = extras or SimpleNamespace(test=None, n_permutations=0,
                                       n_resamples=0, covariates=[])
    chosen = TESTS[extras.test] if extras.test else None
    # progress in units of one run: the weights, then the test's refits (or
    # its one pass), then B refits
    units = [0 if known is not None else 1,
             chosen.cost(extras.n_permutations,
                         len(data.domain.attributes)) if chosen else 0,
             extras.n_resamples]
    total = sum(units)

    def phase(i):
        start = sum(units[:i])

        def progress(fraction):
            state.set_progress_value(100 * (start + fraction * units[i])
                                     / total)
            if state.is_interruption_requested():
                raise Cancelled
        return progress

    def done(name, value, phase_index):
        if sum(units[phase_index + 1:]):   # (more to come)
            state.set_partial_result((name, value))

    out = SimpleNamespace(result=known, test=None, stability=None,
                          warnings=[])
    # (this thread's Relief warnings only: warnings.catch_warnings would
    # capture every widget's warnings while the task runs)
    with collect_warnings() as out.warnings:
        if known is None:
            out.result = scorer.score_table(data, progress=phase(0),
                                            trace_every=trace_every,
                                            status=state.set_status)
            done("result", out.result, 0)
        try:
            if chosen is not None:
                state.set_status("testing the weights")
                out.test = scorer.significance(
                    data, method=chosen.name,
                    n_permutations=extras.n_permutations,
                    progress=phase(1),
                    covariates=getattr(extras, "covariates", None))
                done("test", out.test, 1)
            if extras.n_resamples:
                state.set_status("refitting on subsamples")
                out.stability = scorer.stability(
                    data, n_resamples=extras.n_resamples,
                    progress=phase(2))
        except ValueError as error:     # e.g. STIR on a numeric target
            out.warnings.append(str(error))
    return out


def has_instance_weights(data: Table) -> bool:
    """Whether `data` weighs its instances unequally (``Table.W``), which
    the Relief scorers do not support yet."""
    return bool(data.has_weights() and data.W.size and np.ptp(data.W) > 0)


#: The widgets' warning about instance weights (one text for all of them).
INSTANCE_WEIGHTS = ("The data's instance weights are ignored: every "
                    "instance counts once, as without weights.")


#: The Misses menu's items (for the k-nearest rule).
MISSES_TEXTS = ("k from each other class", "k from any other class")

#: The rows of variables the Covariates list shows.
COVARIATE_ROWS = 4


def fit_popups(widget):
    """Make every menu (combo box) of `widget`'s control area open at least
    as wide as its longest item, whatever the style (some open it only as
    wide as the closed box, cutting the item's end)."""
    for combo in widget.controlArea.findChildren(QComboBox):
        view = combo.view()
        view.setMinimumWidth(view.sizeHintForColumn(0)
                             + 2 * view.frameWidth()
                             + view.verticalScrollBar().sizeHint().width())


#: The ranges of the selection and plot settings every scoring widget has.
SELECTION_LIMITS = dict(n_selected=(1, 100000), percent_selected=(1, 100),
                        n_plotted=(1, 20))

#: The widgets' warning about stored settings reset to their defaults.
BAD_SETTINGS = "Stored settings that cannot be used were reset: {}."


def scorer_warnings(texts, *shown_elsewhere):
    """The scorer's warning `texts` less those that contain one of
    `shown_elsewhere` (already said by the widget's own messages)."""
    return [text for text in texts
            if not any(part in text.lower() for part in shown_elsewhere)]


def _accepts(value, default, limits=None, options=None) -> bool:
    """Whether a stored setting's `value` can be used: one of `options`
    (same type), or of the `default`'s kind (a bool, a whole number, a
    finite real number) within `limits` (low, high)."""
    if options is not None:
        return any(type(value) is type(option) and value == option
                   for option in options)
    if isinstance(default, bool):
        return isinstance(value, (bool, np.bool_))
    if isinstance(default, int):
        kind_ok = isinstance(value, numbers.Integral) \
            and not isinstance(value, (bool, np.bool_))
    elif isinstance(default, float):
        kind_ok = isinstance(value, numbers.Real) \
            and not isinstance(value, (bool, np.bool_)) \
            and bool(np.isfinite(value))
    else:
        return True
    return kind_ok and (limits is None or limits[0] <= value <= limits[1])


def reset_bad_settings(widget, limits, options) -> list:
    """Put every stored setting of `widget` that cannot be used (a
    hand-edited or old workflow's ``k_nearest=-5``, ``sigma=nan``, an
    unknown rule's name) back to its default, so that the widget opens.

    `limits`: {name: (low, high)} of the numeric settings (the controls'
    ranges); `options`: {name: the values allowed}.  Other settings are
    checked by their default's kind (bools).  Returns the texts
    "name = stored value (now default)" of the settings reset."""
    reset = []
    for name, setting in widget.settingsHandler.provider.settings.items():
        if isinstance(setting, ContextSetting):
            continue        # (checked by the context handler, per domain)
        value, default = getattr(widget, name), setting.default
        if _accepts(value, default, limits.get(name), options.get(name)):
            continue
        setattr(widget, name, copy.copy(default))
        reset.append(f"{name} = {value!r} (now {default!r})")
    return reset


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


class OWReliefBase(OWWidget, ConcurrentWidgetMixin, openclass=True):
    """Base widget: subclasses set `name`, `icon`, ..., and `SCORER`."""

    #: the scorer class from orangecontrib.relief.scoring
    SCORER = None
    #: the default height, and the height it grows by when the "Compute on"
    #: row is shown (so that the controls still fit without scrolling)
    HEIGHT, DEVICE_ROW_HEIGHT = 900, 34
    #: whether the widget has controls for pdReliefF's T
    HAS_T = False

    class Inputs:
        data = Input("Data", Table)

    class Outputs:
        # (the canvas links the Scorer to Rank, Reduced Data to a table
        # widget, and Scores only where the user drags it: explicit)
        scorer = Output("Scorer", score.Scorer, dynamic=False, default=True)
        preprocessor = Output("Preprocessor", Preprocess, dynamic=False)
        scores = Output("Scores", Table, dynamic=False, explicit=True)
        reduced_data = Output("Reduced Data", Table)

    class Error(OWWidget.Error):
        no_class = Msg("Data has no target variable: Relief needs one to "
                       "tell hits from misses.")
        no_attributes = Msg("Data has no features to weight.")
        only_covariates = Msg("Every feature is a covariate: leave at "
                              "least one feature to weight.")
        too_few_instances = Msg(
            "At least two instances with a known target are needed.")
        compute_failed = Msg("{}")
        gpu_failed = Msg("The GPU run failed: {}\nChoose \"Compute on: "
                         "CPU\" to run on this computer's processor.")

    class Warning(OWWidget.Warning):
        k_larger_than_class = Msg(
            "k = {} is not smaller than {}: all of them serve as "
            "neighbours.")
        sample_too_large = Msg(
            "Sample size m = {} exceeds the {}: all are visited.")
        scorer_warning = Msg("{}")
        instance_weights = Msg(INSTANCE_WEIGHTS)
        bad_settings = Msg(BAD_SETTINGS)
        unreachable_threshold = Msg("{}")
        covariates_unused = Msg("{} does not adjust for the covariates; "
                                "choose an NPDR test.")

    class Information(OWWidget.Information):
        regression = Msg("Numeric target: weights use the regression "
                         "form (RReliefF).")
        sparse_data = Msg("Sparse data: entries that are not stored are "
                          "zeros, and count as values.")
        missing_values = Msg("{} missing feature values, handled {}.")
        missing_target = Msg("{} instances with an unknown target {}.")
        cancelled = Msg("Computation was cancelled; "
                        "apply again to restart it.")
        covariates = Msg("Covariates {}: not in the distance, adjusted for "
                         "by NPDR.")

    settings_version = 2
    settingsHandler = DomainContextHandler()

    rule = Setting("k")   # a name in core.rules.RULES
    k_nearest = Setting(10)
    sample_instances = Setting(False)
    n_iterations = Setting(100)
    random_state = Setting(0)
    weight_by_distance = Setting(False)
    sigma = Setting(2.0)
    misses_any = Setting(0)  # 0: per class (ReliefF), 1: any class (Relief-E)
    custom_T = Setting(False)
    weka_compat = Setting(False)  # compat="weka": Weka's numbers
    T = Setting(0.5)
    significance_test = Setting("")  # a name in stats.TESTS ("": none)
    n_permutations = Setting(99)
    stability_on = Setting(False)
    n_resamples = Setting(30)
    alpha = Setting(0.05)
    select_percent = Setting(0)  # 0: top N, 1: top p %, 2: q < alpha
    n_selected = Setting(5)
    percent_selected = Setting(50)
    n_plotted = Setting(5)
    auto_apply = Setting(True)
    #: run on the GPU ("Compute on"), where one is present
    use_gpu = Setting(False)
    #: attributes or metas NPDR adjusts for (saved by name, per domain)
    covariates = ContextSetting([])

    want_main_area = True
    graph_name = "plotview.plot"  # for image export

    #: the numeric settings' ranges: the controls' and the stored values'
    LIMITS = dict(SELECTION_LIMITS, k_nearest=(1, 10000), sigma=(0.1, 1000),
                  n_iterations=(1, 10 ** 7), random_state=(0, 2 ** 31 - 1),
                  T=(0.01, 100), n_permutations=(9, 9999),
                  n_resamples=(2, 1000), alpha=(0.001, 0.5))

    #: how settings of version 1 saved the rule and the test: by position
    V1_RULES = ("k", "surf", "surf*", "multisurf", "multisurf*")
    V1_TESTS = ("", "feature_permutation", "permutation", "stir")
    MISSES = ("per_class", "any")
    MISSES_TOOLTIP = ("ReliefF takes k misses from every other class and "
                      "weighs them by the class prior; Relief-E takes the "
                      "k nearest misses of any class.")
    WEKA_TOOLTIP = (
        "The numbers of Weka's ReliefFAttributeEval, to the last bit: "
        "neighbours taken in row order (an earlier instance wins a tie), "
        "Weka's differences for missing values, a sample of m drawn with "
        "replacement by Java's Random(seed), as Weka's -M m -D seed.")

    def __init__(self):
        OWWidget.__init__(self)
        ConcurrentWidgetMixin.__init__(self)
        # the first widget of a fresh installation starts compiling the
        # kernels in the background, before any data arrives
        warmup.start()
        self.data: Optional[Table] = None
        # the data scored: covariates moved to the metas
        self.scored: Optional[Table] = None
        # the parts shown (the ReliefResult, the statistics), the keys
        # (data, parameters) they were computed for, and those of the run
        self.result = self.test = self.stability = None
        self._known = self._pending = dict.fromkeys(self.PARTS)
        # the GPU offered by "Compute on" (None: none, the choice is hidden)
        self.gpu_name = cuda.device_name() if cuda.available() else None
        # the registered tests for this widget's variant ("": none)
        self.test_names = [""] + [
            name for name, test in TESTS.items()
            if test.unsupported(variant=self.SCORER.variant) is None]
        reset = reset_bad_settings(self, self.LIMITS, dict(
            rule=tuple(RULES), misses_any=(0, 1),
            select_percent=(0, 1, 2),
            significance_test=tuple(self.test_names)))
        self.Warning.bad_settings(", ".join(reset), shown=bool(reset))
        self._setup_gui()
        self._enable_k_controls()
        self._update_cost_label()
        self.commit.now()

    # GUI
    def _setup_gui(self):
        box = gui.vBox(self.controlArea, "Neighbours")
        # (the combo shows a position; the setting keeps the rule's name)
        self.rule_names = list(RULES)
        self.rule_position = self.rule_names.index(self.rule)
        self.rule_combo = gui.comboBox(
            box, self, "rule_position", label="Rule:",
            orientation=Qt.Horizontal,
            items=[RULES[name].display_name for name in self.rule_names],
            callback=self._rule_changed,
            tooltip="\n".join(f"{rule.display_name}: {rule.description}."
                               for rule in RULES.values()))
        self.k_spin = gui.spin(
            box, self, "k_nearest", *self.LIMITS["k_nearest"], label="Neighbours k:",
            controlWidth=80, alignment=Qt.AlignRight,
            callback=self._params_changed,
            tooltip="Number of nearest hits and of nearest misses "
                    "(per class) for each visited instance.")
        self.sigma_spin = gui.doubleSpin(
            box, self, "sigma", *self.LIMITS["sigma"], 0.5,
            label="Weight by distance, σ:", checked="weight_by_distance",
            controlWidth=80, alignment=Qt.AlignRight,
            callback=self._params_changed,
            checkCallback=self._params_changed,
            tooltip="The neighbour at rank r has influence "
                    "exp(-(r/σ)²) instead of 1.")
        self.misses_combo = gui.comboBox(
            box, self, "misses_any", label="Misses:",
            orientation=Qt.Horizontal,
            items=MISSES_TEXTS,
            callback=self._params_changed, tooltip=self.MISSES_TOOLTIP)
        # (here, by the rule and misses it overrides)
        gui.checkBox(box, self, "weka_compat",
                     "Weka's numbers (ReliefFAttributeEval)",
                     callback=self._rule_changed, tooltip=self.WEKA_TOOLTIP)

        box = gui.vBox(self.controlArea, "Visited Instances")
        rb, grid = self._radio_grid(box, "sample_instances",
                                    self._params_changed)
        # (two rows, not three: pdReliefF's controls fit without scrolling)
        grid.addWidget(gui.appendRadioButton(rb, "All",
                                             addToLayout=False), 0, 0)
        grid.addWidget(gui.appendRadioButton(rb, "Sample m:",
                                             addToLayout=False), 0, 1)
        self._grid_spin(rb, grid, 0, "n_iterations", *self.LIMITS["n_iterations"],
                        self._sample_changed, column=2)
        grid.addWidget(QLabel("Random seed:"), 1, 0, 1, 2)
        self._grid_spin(rb, grid, 1, "random_state", *self.LIMITS["random_state"],
                        self._params_changed, column=2,
                        tooltip="Seed of the visiting order.")
        # (the combo shows a position; the setting keeps a bool)
        self.device_position = int(bool(self.use_gpu))
        self.device_combo = gui.comboBox(
            box, self, "device_position", label="Compute on:",
            orientation=Qt.Horizontal,
            items=("CPU", f"GPU: {self.gpu_name}"),
            # (a long GPU name must not widen the control area)
            contentsLength=20, callback=self._device_changed,
            tooltip="Where the visits (and the significance tests' refits) "
                    "run: this computer's processor, or its NVIDIA GPU. "
                    "Both give the same weights; Weka's numbers are "
                    "computed on the CPU.")
        self.device_combo.box.setVisible(self.gpu_name is not None)

        if self.HAS_T:
            box = gui.vBox(self.controlArea, "Progressive Weighting")
            self.default_T_label = gui.widgetLabel(box, "")
            gui.doubleSpin(box, self, "T", *self.LIMITS["T"], 0.05, decimals=3,
                           label="Custom T:", checked="custom_T",
                           controlWidth=80, alignment=Qt.AlignRight,
                           callback=self._params_changed,
                           checkCallback=self._params_changed,
                           tooltip="f(w, t) = (1 - w) / t^T + w: the larger "
                                   "T, the sooner the current weights take "
                                   "over the distance.")
            self._update_T_label()

        box = gui.vBox(self.controlArea, "Significance and Stability")
        self.test_position = self.test_names.index(self.significance_test)
        # (the label above: the menu gets the box's width, so that "NPDR,
        # permutations (covariates)" is not cut)
        gui.comboBox(box, self, "test_position", label="Test:",
                     orientation=Qt.Vertical,
                     items=["None"] + [TESTS[name].display_name
                                       for name in self.test_names[1:]],
                     callback=self._test_changed,
                     tooltip="p- and q-values (Benjamini-Hochberg) of the "
                             "weights. " + " ".join(
                                 f"{TESTS[name].display_name}: "
                                 f"{TESTS[name].description}."
                                 for name in self.test_names[1:]))
        self.permutation_spin = gui.spin(
            box, self, "n_permutations", *self.LIMITS["n_permutations"], step=10,
            label="Permutations R:", controlWidth=80,
            alignment=Qt.AlignRight, callback=self._statistics_changed)
        gui.spin(box, self, "n_resamples", *self.LIMITS["n_resamples"], label="Stability, B:",
                 checked="stability_on", controlWidth=80,
                 alignment=Qt.AlignRight, callback=self._statistics_changed,
                 checkCallback=self._statistics_changed,
                 tooltip="Refit on B random subsamples of 63.2 % of the "
                         "instances: each feature's mean rank and 90 % "
                         "interval, and how often it is in the top N.")
        self.covariate_model = VariableListModel(parent=self)
        row = gui.hBox(box)
        gui.widgetLabel(row, "Covariates:").setAlignment(Qt.AlignTop)
        self.covariate_view = gui.listView(
            row, self, "covariates", model=self.covariate_model,
            selectionMode=QListView.ExtendedSelection,
            callback=self._covariates_changed,
            tooltip="Attributes or metas (age, sex, batch, ...) that NPDR's "
                    "tests adjust the features' effects for. They take no "
                    "part in the distance; choosing one chooses NPDR's "
                    "permutation test.")
        self._fit_covariate_rows()
        self.cost_label = gui.widgetLabel(box, "")

        rb, grid = self._selection_box()
        self.q_radio = gui.appendRadioButton(rb, "q < α:", addToLayout=False)
        grid.addWidget(self.q_radio, 2, 0)
        alpha = gui.doubleSpin(None, self, "alpha", *self.LIMITS["alpha"], 0.01,
                               decimals=3, controlWidth=80,
                               alignment=Qt.AlignRight,
                               callback=self._set_select_q,
                               addToLayout=False)
        grid.addWidget(alpha, 2, 1)

        self.rankview = RankIntervalPlot(self)
        self.rankview.hide()
        self._plot_box_and_views(ConvergencePlot(self), self.rankview)
        fit_popups(self)
        self.resize(880, self.HEIGHT + (self.DEVICE_ROW_HEIGHT
                                        if self.gpu_name is not None else 0))

    def _fit_covariate_rows(self):
        """Make the Covariates list COVARIATE_ROWS rows high (rows as high
        as its variables' rows, once it has some)."""
        view = self.covariate_view
        row = view.sizeHintForRow(0) if self.covariate_model \
            else self.fontMetrics().height() + 10
        view.setFixedHeight(COVARIATE_ROWS * row + 2 * view.frameWidth())

    def _selection_box(self):
        """The *Selected Features* box with its top N and top % rows: the
        radio buttons of ``select_percent`` and their grid (a widget adds
        rows below)."""
        box = gui.vBox(self.controlArea, "Selected Features")
        rb, grid = self._radio_grid(box, "select_percent",
                                    self._selection_changed)
        grid.addWidget(gui.appendRadioButton(rb, "Top N:",
                                             addToLayout=False), 0, 0)
        self._grid_spin(rb, grid, 0, "n_selected", *self.LIMITS["n_selected"],
                        self._set_select_n)
        grid.addWidget(gui.appendRadioButton(rb, "Top %:",
                                             addToLayout=False), 1, 0)
        self._grid_spin(rb, grid, 1, "percent_selected", *self.LIMITS["percent_selected"],
                        self._set_select_percent)
        return rb, grid

    def _plot_box_and_views(self, *plots):
        """The end of every Relief widget's layout: the *Plot* box (how
        many features the plot shows), Cancel and Apply, and the main area,
        the table of weights above ``plots`` in a vertical splitter (the
        first plot is ``self.plotview``, the convergence plot)."""
        box = gui.vBox(self.controlArea, "Plot")
        gui.spin(box, self, "n_plotted", *self.LIMITS["n_plotted"], label="Features shown:",
                 controlWidth=80, alignment=Qt.AlignRight,
                 callback=self._update_plot)

        gui.rubber(self.controlArea)

        # (not autoDefault: an OWWidget is a QDialog, where Enter in a spin
        # box would press it and cancel the run the same Enter started)
        self.cancel_button = gui.button(
            self.buttonsArea, self, "Cancel", callback=self.cancel_computation,
            enabled=False, autoDefault=False)
        gui.auto_apply(self.buttonsArea, self, "auto_apply")

        self.model = WeightsModel(parent=self)
        self.view = WeightsView(self)
        self.view.setModel(self.model)
        self.plotview = plots[0]
        splitter = QSplitter(Qt.Vertical, self.mainArea)
        splitter.addWidget(self.view)
        for plot in plots:
            splitter.addWidget(plot)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 1)
        splitter.setChildrenCollapsible(False)
        self.mainArea.layout().addWidget(splitter)
        self.view.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)

    def _radio_grid(self, box, value, callback):
        """Radio buttons for `value` laid out in a grid (button, spin)."""
        rb = gui.radioButtons(box, self, value, callback=callback)
        grid = QGridLayout()
        grid.setContentsMargins(0, 0, 0, 0)
        rb.layout().addLayout(grid)
        return rb, grid

    def _grid_spin(self, rb, grid, row, value, minv, maxv, callback,
                   column=1, **kwargs):
        grid.addWidget(gui.spin(
            rb, self, value, minv, maxv, controlWidth=80,
            alignment=Qt.AlignRight, addToLayout=False, callback=callback,
            **kwargs), row, column)

    # callbacks
    def _rule_changed(self):
        self.rule = self.rule_names[self.rule_position]
        self._enable_k_controls()
        self._params_changed()

    def _enable_k_controls(self):
        """k and the rank weights belong to the k-nearest rule, the only
        one Weka has."""
        self.rule_combo.setDisabled(bool(self.weka_compat))
        # (Weka's numbers come from Weka's loop, on the CPU)
        self.device_combo.setDisabled(bool(self.weka_compat))
        k_rule = RULES[self.rule].uses_k or self.weka_compat
        for control in (self.k_spin, self.sigma_spin):
            control.box.setEnabled(k_rule) if hasattr(control, "box") \
                else control.setEnabled(k_rule)
        # (a radius rule takes every miss within it: no k)
        for i, text in enumerate(MISSES_TEXTS):
            self.misses_combo.setItemText(
                i, text if k_rule else text.replace("k from", "All from"))

    def _device_changed(self):
        self.use_gpu = bool(self.device_position)
        self._params_changed()

    def device(self) -> str:
        """The scorer's ``device``: "cuda" when "Compute on" chooses the GPU
        (offered only where one is present), else "cpu"."""
        return "cuda" if self.use_gpu and self.gpu_name is not None \
            else "cpu"

    def _params_changed(self):
        if self.HAS_T:
            self._update_T_label()
        self.commit.deferred()

    def _sample_changed(self):
        self.sample_instances = True
        self._params_changed()

    def _selection_changed(self):
        self._update_threshold_warning()
        if self.stability is not None:      # (its "Top N" column)
            self.show_result()
        self.commit.deferred()

    def _set_select_n(self):
        self.select_percent = 0
        self._selection_changed()

    def _set_select_percent(self):
        self.select_percent = 1
        self._selection_changed()

    def _set_select_q(self):
        self.select_percent = 2
        self._selection_changed()

    def _test_changed(self):
        self.significance_test = self.test_names[self.test_position]
        self._statistics_changed()

    def _covariates_changed(self):
        """Covariates ask for a test that adjusts for them: NPDR's
        calibrated one, unless such a test is chosen."""
        self._adjusting_test()
        self._statistics_changed()

    def _adjusting_test(self):
        """With covariates, switch to NPDR_DEFAULT when the chosen test does
        not adjust for them (or none is chosen)."""
        chosen = self.chosen_test()
        if self.covariates and (chosen is None or not chosen.covariates) \
                and NPDR_DEFAULT in self.test_names:
            self.significance_test = NPDR_DEFAULT
            self.test_position = self.test_names.index(NPDR_DEFAULT)

    def _statistics_changed(self):
        self._update_cost_label()
        self.commit.deferred()

    def chosen_test(self):
        """The registered test (``stats.TESTS``) chosen, or None."""
        return TESTS[self.significance_test] if self.significance_test \
            else None

    def _update_cost_label(self):
        """Say what the requested statistics cost, in runs."""
        chosen = self.chosen_test()
        self.permutation_spin.setEnabled(chosen is not None
                                         and chosen.permutations)
        self.q_radio.setEnabled(chosen is not None)
        if chosen is None and self.select_percent == 2:
            self.select_percent = 0     # (q < alpha needs a test)
        resamples = self.n_resamples if self.stability_on else 0
        if chosen is not None and chosen.refits_per_feature:
            text = f"Costs {self.n_permutations} runs per feature" + (
                f" and {resamples} more." if resamples else ".")
        elif chosen is not None and chosen.permutations:
            text = f"Costs {self.n_permutations + resamples} more runs."
        elif chosen is not None:
            text = f"{chosen.display_name.split(' (')[0]} costs about " \
                f"one more run" + (f", and {resamples} more." if resamples
                                   else ".")
        elif resamples:
            text = f"Costs {resamples} more runs."
        else:
            text = "No test: weights only."
        self.cost_label.setText(text)
        self._update_threshold_warning()

    def _update_threshold_warning(self):
        """Warn when "q < α" cannot select anything: R permutations give
        no p-value (and so no q) below 1 / (R + 1)."""
        text = None
        chosen = self.chosen_test()
        if self.select_percent == 2 and chosen is not None \
                and chosen.permutations:
            data = self.scored if self.scored is not None else self.data
            n_features = 1 if data is None \
                else max(1, len(data.domain.attributes))
            text = unreachable_threshold("fdr", self.alpha,
                                         self.n_permutations, n_features)
        self.Warning.unreachable_threshold(text, shown=text is not None)

    def statistics_params(self) -> SimpleNamespace:
        chosen = self.chosen_test()
        return SimpleNamespace(
            test=self.significance_test or None,
            n_permutations=self.n_permutations
            if chosen is not None and chosen.permutations else 0,
            n_resamples=self.n_resamples if self.stability_on else 0,
            covariates=self.covariate_names()
            if chosen is not None and chosen.covariates else [])

    def covariate_names(self):
        """The chosen covariates' names."""
        return [var.name for var in self.covariates]

    def _effective_m(self) -> Optional[int]:
        """Number of visited instances for the connected data (or None);
        Weka's visits instances with an unknown target too (they add
        nothing), and draws m < n with replacement."""
        n = self._n_known() if not self.weka_compat or self.data is None \
            else len(self.data)
        if self.sample_instances:
            return self.n_iterations if n is None else min(n, self.n_iterations)
        return n

    def _update_T_label(self):
        m = self._effective_m()
        if m is not None and m > 1:
            text = f"Default: T = 2 / ln m = {2 / np.log(m):.3f} (m = {m})"
        else:
            text = "Default: T = 2 / ln m (m: visited instances)"
        self.default_T_label.setText(text)

    # scorer and preprocessor
    def scorer_params(self, n_known: Optional[int] = None) -> dict:
        """Keyword arguments for the scorer; `n_known` clips the sample."""
        n_iterations = self.n_iterations if self.sample_instances else None
        # (Weka's -M m >= n visits every instance: nothing to clip)
        if n_iterations is not None and n_known is not None \
                and not self.weka_compat:
            n_iterations = min(n_iterations, n_known)
        rule = self.rule
        params = dict(n_iterations=n_iterations, k_nearest=self.k_nearest,
                      random_state=self.random_state,
                      weight_by_distance=bool(self.weight_by_distance)
                      and RULES[rule].uses_k,
                      sigma=self.sigma,
                      misses=self.MISSES[0 if self.weka_compat
                                         else self.misses_any],
                      neighbours="k" if self.weka_compat else rule,
                      compat="weka" if self.weka_compat else None,
                      # (Weka's numbers: Weka's loop, on the CPU)
                      device="cpu" if self.weka_compat else self.device())
        if self.HAS_T:
            params["T"] = self.T if self.custom_T else None
        return params

    def create_scorer(self, n_known: Optional[int] = None):
        """The scorer of the settings; the covariates go with it, so that
        Rank's column leaves them out of the distance (and unweighted), as
        the widget's own table does."""
        scorer = self.SCORER(**self.scorer_params(n_known))
        scorer.covariates = tuple(self.covariate_names())
        return scorer

    def selection_k(self):
        """`k` for SelectBestFeatures: an int (top N) or a fraction (top p %)."""
        if self.select_percent == 1:
            return self.percent_selected / 100
        return int(self.n_selected)

    def create_preprocessor(self, scorer):
        names = self.covariate_names()
        # (the covariates go to the metas first: they are no features)
        moving = [CovariatesToMetas(names)] if names else []
        if self.select_percent == 2 and self.significance_test:
            # (each training set is tested again: the test data never
            # choose the features)
            chosen = self.chosen_test()
            return PreprocessorList(moving + [SelectSignificant(
                scorer, self.alpha, self.significance_test,
                self.n_permutations,
                covariates=names if chosen.covariates else ())])
        return PreprocessorList(
            moving + [SelectBestFeatures(method=scorer,
                                         k=self.selection_k())])

    # data
    @Inputs.data
    def set_data(self, data: Optional[Table]):
        self.cancel()
        self.closeContext()
        self.data = data
        domain = data.domain if data is not None else None
        self.covariate_model[:] = [] if domain is None else [
            var for var in domain.attributes + domain.metas
            if var.is_primitive()]
        self._fit_covariate_rows()
        self.covariates = []
        self.openContext(data)
        self._adjusting_test()
        self._update_cost_label()
        self._forget()
        self.clear_view()
        self._update_threshold_warning()
        self.commit.now()

    def _n_known(self) -> Optional[int]:
        if self.data is None or self.data.domain.class_var is None:
            return None
        return int(np.sum(~np.isnan(self.data.get_column(
            self.data.domain.class_var))))

    def _check_data(self) -> Optional[Table]:
        """Show messages about the data; return data to score or None."""
        self.Error.no_class.clear()
        self.Error.no_attributes.clear()
        self.Error.too_few_instances.clear()
        self.Warning.k_larger_than_class.clear()
        self.Warning.sample_too_large.clear()
        self.Information.sparse_data.clear()
        self.Information.regression.clear()
        self.Information.missing_values.clear()
        self.Information.missing_target.clear()
        self.Information.covariates.clear()
        self.Error.only_covariates.clear()
        self.Warning.covariates_unused.clear()
        self.scored = None
        data = self.data
        self.misses_combo.setDisabled(bool(self.weka_compat))
        self.Warning.instance_weights(
            shown=data is not None and has_instance_weights(data))
        if data is None:
            return None
        domain = data.domain
        if not domain.attributes:
            self.Error.no_attributes()
            return None
        if domain.class_var is None:
            self.Error.no_class()
            return None
        names = self.covariate_names()
        if names:
            data, _ = covariates_to_metas(data, names)
            domain = data.domain
            if not domain.attributes:
                self.Error.only_covariates()
                return None
            self.Information.covariates(", ".join(names))
            chosen = self.chosen_test()
            if chosen is None or not chosen.covariates:
                self.Warning.covariates_unused(
                    "no test" if chosen is None else chosen.display_name)
        y = data.get_column(domain.class_var)
        known = ~np.isnan(y)
        n_known = int(known.sum())
        if n_known < 2:
            self.Error.too_few_instances()
            return None
        if n_known < len(data):
            self.Information.missing_target(
                len(data) - n_known, "are not visited (as in Weka, they "
                "count in m and in the class frequencies)" if self.weka_compat
                else "are left out")
        if sp.issparse(data.X):     # scored as it is: memory ~ stored entries
            self.Information.sparse_data()
            n_missing = int(np.isnan(data.X[known].data).sum())
        else:
            n_missing = int(np.isnan(data.X[known]).sum())
        if n_missing:
            self.Information.missing_values(
                n_missing, "as Weka does" if self.weka_compat
                else "as expected differences (RELIEF-D)")
        regression = domain.class_var.is_continuous
        self.misses_combo.setDisabled(regression or self.weka_compat)
        self.misses_combo.setToolTip(
            "A numeric target has no misses: RReliefF weighs all k nearest "
            "neighbours by their difference in target." if regression else
            "Weka takes k misses from every other class." if self.weka_compat
            else self.MISSES_TOOLTIP)
        k_rule = RULES[self.rule].uses_k or self.weka_compat
        if regression:
            self.Information.regression()
            if k_rule and self.k_nearest > n_known - 1:
                self.Warning.k_larger_than_class(
                    self.k_nearest, f"the {n_known - 1} other instances")
        else:
            counts = np.bincount(y[known].astype(int),
                                 minlength=len(domain.class_var.values))
            present = np.flatnonzero(counts)
            smallest = present[np.argmin(counts[present])]
            if k_rule and self.k_nearest >= counts[smallest]:
                self.Warning.k_larger_than_class(
                    self.k_nearest,
                    f"the {counts[smallest]} instances of class "
                    f"'{domain.class_var.values[smallest]}'")
        n_visitable = len(data) if self.weka_compat else n_known
        if self.sample_instances and self.n_iterations > n_visitable:
            self.Warning.sample_too_large(
                self.n_iterations, f"{n_visitable} instances" +
                ("" if self.weka_compat else " with a known target"))
        self.scored = data
        return data

    # computation
    #: the parts of a computation, each shown as soon as it is known
    PARTS = ("result", "test", "stability")

    def _computation_keys(self) -> dict:
        """What each part is computed from: the weights ("result") from the
        data and the scorer's parameters; the test and the stability from
        those and their own; None for a part not asked for."""
        weights = (id(self.data), tuple(self.covariate_names()),
                   tuple(sorted(self.scorer_params().items())))
        stats = self.statistics_params()
        return dict(
            result=weights,
            test=None if stats.test is None else weights + (
                stats.test, stats.n_permutations, tuple(stats.covariates)),
            stability=weights + (stats.n_resamples,)
            if stats.n_resamples else None)

    def _computation_key(self):
        """What the weights are computed from."""
        return self._computation_keys()["result"]

    @property
    def _result_key(self):
        """What the weights shown were computed from (None: none shown)."""
        return self._known["result"]

    def _forget(self):
        """Drop every computed part."""
        for part in self.PARTS:
            setattr(self, part, None)
        self._known = dict.fromkeys(self.PARTS)

    def _keep(self, part, value):
        """Store a computed `part` with the key it was computed for."""
        setattr(self, part, value)
        self._known[part] = self._pending[part]

    def _clear_run_messages(self):
        self.Error.compute_failed.clear()
        self.Error.gpu_failed.clear()
        self.Warning.scorer_warning.clear()

    @gui.deferred
    def commit(self):
        if self.HAS_T:
            self._update_T_label()
        scorer = self.create_scorer()
        self.Outputs.scorer.send(scorer)
        self.Outputs.preprocessor.send(self.create_preprocessor(scorer))

        self.Information.cancelled.clear()
        data = self._check_data()
        if data is None:
            self.cancel()
            self._set_running(False)
            self._clear_run_messages()
            self._forget()
            self.clear_view()
            self.send_data_outputs()
            return

        # keep the parts computed for these settings (the weights while
        # only the statistics change); compute the others
        keys = self._computation_keys()
        for part, key in keys.items():
            if self._known[part] != key:
                setattr(self, part, None)
                self._known[part] = None
        missing = [part for part, key in keys.items()
                   if key is not None and self._known[part] is None]
        if self.task is not None and missing \
                and self._pending == keys:
            return          # (already computing just this)
        self.cancel()
        self._set_running(False)
        if self.result is None:
            self.clear_view()   # (not the last parameters' weights meanwhile)
        else:
            self.show_result()
        self.send_data_outputs()
        if not missing:
            return
        self._clear_run_messages()
        self._pending = keys
        extras = self.statistics_params()
        if "test" not in missing:
            extras.test, extras.n_permutations = None, 0
        if "stability" not in missing:
            extras.n_resamples = 0
        trace_every = max(1, self._effective_m() // TRACE_POINTS)
        self._set_running(True)
        self.start(run, data, self.create_scorer(self._n_known()), trace_every,
                   extras, known=self.result)

    def _set_running(self, running: bool):
        self.cancel_button.setEnabled(running)

    def cancel_computation(self):
        """Stop the running computation (the Cancel button); the parts
        already computed stay."""
        if self.task is None:
            return
        self.cancel()
        self._set_running(False)
        if self.result is None:
            self.clear_view()
        else:
            self.show_result()
        self.send_data_outputs()
        self.Information.cancelled()

    def on_partial_result(self, part):
        """Show a part (the weights, the test) while the rest runs."""
        self._keep(*part)
        self.show_result()
        self.send_data_outputs()

    def on_done(self, output: SimpleNamespace):
        self._set_running(False)
        for part in self.PARTS:
            value = getattr(output, part)
            if value is not None:
                self._keep(part, value)
        # k versus class sizes and rows without a target already have
        # their own (clearer) messages from _check_data
        texts = scorer_warnings(output.warnings, "k_nearest=",
                                "missing class value", "instance weight")
        if texts:
            self.Warning.scorer_warning("\n".join(texts))
        self.show_result()
        self.send_data_outputs()

    def on_exception(self, ex: Exception):
        self._set_running(False)
        self._forget()
        if isinstance(ex, (ValueError, MemoryError)):
            self.Error.compute_failed(str(ex) or type(ex).__name__)
        elif self.scorer_params()["device"] == "cuda" and (
                isinstance(ex, RuntimeError)
                or type(ex).__module__.startswith("numba")):
            # (the engine's RuntimeError, or the CUDA driver's own error)
            self.Error.gpu_failed(str(ex) or type(ex).__name__)
        else:
            raise ex
        self.clear_view()
        self.send_data_outputs()

    def onDeleteWidget(self):
        self.shutdown()
        super().onDeleteWidget()

    # display
    def clear_view(self):
        self.model.clear()
        self.model.setHorizontalHeaderLabels(["Feature", "Weight"])
        self.plotview.clear()
        self.rankview.set_ranks(None, [], [])
        self.rankview.hide()

    def ranked_indices(self):
        """Feature indices by decreasing weight, NaN weights last."""
        weights = np.asarray(self.result.weights, dtype=float)
        keys = np.where(np.isnan(weights), -np.inf, weights)
        return np.argsort(-keys, kind="stable")

    def statistics_columns(self):
        """{title: values} of the statistics computed with the weights."""
        columns = {}
        if self.test is not None:
            columns.update(p=self.test.p_values, q=self.test.q_values)
            if self.test.standard_errors is not None:   # NPDR
                columns["NPDR β"] = self.test.weights
        if self.stability is not None:
            # how often each feature was among the N selected (N as the
            # selection now says, not the stability run's own top_k)
            top = max(1, len(self.selected_attributes()))
            columns.update({"Mean rank": self.stability.mean_rank,
                            "Rank 5 %": self.stability.rank_low,
                            "Rank 95 %": self.stability.rank_high,
                            f"Top {top}":
                                (self.stability.ranks <= top).mean(axis=0)})
        return columns

    def show_result(self):
        attributes = self.scored.domain.attributes
        weights = np.asarray(self.result.weights, dtype=float)
        extra = self.statistics_columns()
        self.model.resetSorting(True)
        self.model.wrap([[attr, float(w)] + [float(v[i]) for v in
                                              extra.values()]
                         for i, (attr, w) in enumerate(zip(attributes,
                                                           weights))])
        self.model.setExtremesFrom(1, weights)
        self.model.setHorizontalHeaderLabels(["Feature", "Weight"]
                                             + list(extra))
        self.model.sort(1, Qt.DescendingOrder)
        self.view.horizontalHeader().setSortIndicator(1, Qt.DescendingOrder)
        self.view.resizeColumnToContents(0)
        self._update_plot()

    def _update_plot(self):
        res = self.result
        if res is None or getattr(res, "trace", None) is None:
            self.plotview.clear()
            return
        top = [int(i) for i in self.ranked_indices()[:self.n_plotted]
               if not np.isnan(res.weights[i])]
        names = [attr.name for attr in self.scored.domain.attributes]
        self.plotview.set_trace(res.trace_steps, res.trace, names, top)
        self.rankview.setVisible(self.stability is not None)
        if self.stability is not None:
            by_rank = np.argsort(self.stability.mean_rank, kind="stable")
            self.rankview.set_ranks(self.stability, names,
                                    [int(i) for i in by_rank[:self.n_plotted]])

    def selected_attributes(self):
        attributes = self.scored.domain.attributes
        if self.select_percent == 2:
            if self.test is None:
                return []
            with np.errstate(invalid="ignore"):
                passing = self.test.q_values < self.alpha
            return [attributes[i] for i in self.ranked_indices()
                    if passing[i]]
        n_attrs = len(self.scored.domain.attributes)
        k = self.selection_k()
        if isinstance(k, float):
            k = int(np.round(k * n_attrs)) or 1
        attributes = self.scored.domain.attributes
        return [attributes[i] for i in self.ranked_indices()[:k]]

    def send_data_outputs(self):
        if self.result is None or self.scored is None:
            self.Outputs.scores.send(None)
            self.Outputs.reduced_data.send(None)
            return
        self.Outputs.scores.send(self.scores_table())
        domain = self.scored.domain
        reduced = self.scored.transform(
            Domain(self.selected_attributes(), domain.class_vars, domain.metas))
        self.Outputs.reduced_data.send(reduced)

    def scores_table(self) -> Table:
        """Feature names and weights (and the statistics computed), shaped
        like Rank's Scores output."""
        extra = self.statistics_columns()
        weights = np.column_stack([np.asarray(self.result.weights, float)]
                                  + [np.asarray(v, float)
                                     for v in extra.values()])
        domain = Domain([ContinuousVariable(self.name)]
                        + [ContinuousVariable(name) for name in extra],
                        metas=[StringVariable("Feature")])
        names = np.array([[a.name] for a in self.scored.domain.attributes],
                         dtype=object)
        table = Table.from_numpy(domain, weights, metas=names)
        table.name = "Feature Scores"
        return table

    # report
    def send_report(self):
        params = self.scorer_params()
        items = [("Neighbourhood rule",
                  RULES[params["neighbours"]].display_name)]
        if RULES[params["neighbours"]].uses_k:
            items.append(("Neighbours k", params["k_nearest"]))
        items += [("Neighbour influence",
                   f"exp(-(rank/σ)²), σ = {self.sigma:g}"
                   if params["weight_by_distance"] else "equal"),
                  ("Misses", "from each other class"
                   if params["misses"] == "per_class"
                   else "from any other class"),
                  ("Visited instances",
                   f"sample of {self.n_iterations}"
                   if self.sample_instances else "all"),
                  ("Random seed", self.random_state),
                  ("Numbers", "Weka's ReliefFAttributeEval"
                   if self.weka_compat else "this add-on's definitions")]
        if self.gpu_name is not None:
            items.append(("Computed on", f"GPU: {self.gpu_name}"
                          if params["device"] == "cuda" else "CPU"))
        if self.HAS_T:
            items.append(("T", f"{self.T:g}" if self.custom_T
                          else "2 / ln m (default)"))
        chosen = self.chosen_test()
        items.append(("Test", "none" if chosen is None else
                      f"{chosen.display_name}, R = {self.n_permutations}"
                      if chosen.permutations else chosen.display_name))
        if self.covariates:
            items.append(("Covariates", ", ".join(self.covariate_names())
                          + " (not in the distance)"))
        if self.stability_on:
            items.append(("Stability", f"{self.n_resamples} subsamples"))
        items.append(("Selected features",
                      f"q < {self.alpha:g}" if self.select_percent == 2
                      else f"top {self.percent_selected} %"
                      if self.select_percent else f"top {self.n_selected}"))
        self.report_items("Parameters", items)
        if self.scored is None or self.result is None:
            return
        self.report_data("Data", self.scored)
        res = self.result
        info = [("Visited instances (m)", res.n_iterations),
                ("Form", "regression (RReliefF)" if res.regression
                 else "classification")]
        if getattr(res, "T", None) is not None:
            info.append(("T used", f"{res.T:.4f}"))
        self.report_items("Run", info)
        attrs = self.scored.domain.attributes
        top = self.ranked_indices()[:10]
        self.report_items("Top weights", [
            (attrs[i].name, f"{res.weights[i]:.4f}") for i in top])
        if res.trace is not None:
            self.report_plot("Convergence", self.plotview.plot)

    @classmethod
    def migrate_settings(cls, settings, version):
        """Version 2 saves the rule and the test by name (``rule``,
        ``significance_test``); versions 1 and older saved their positions in the menus
        (``rule_index``, ``significance``)."""
        if version is None or version < 2:
            position = settings.pop("rule_index", 0)
            if isinstance(position, int) \
                    and 0 <= position < len(cls.V1_RULES):
                settings["rule"] = cls.V1_RULES[position]
            position = settings.pop("significance", 0)
            if isinstance(position, int) \
                    and 0 <= position < len(cls.V1_TESTS):
                settings["significance_test"] = cls.V1_TESTS[position]
