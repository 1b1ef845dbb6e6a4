"""What every scoring widget of the add-on shares (ReliefF, dReliefF,
pdReliefF: ``owreliefbase.OWReliefBase``; I-RELIEF: ``owirelief``): the
signals, the selection and plot settings, the table of weights and the
plots' place, the run's parts kept as they arrive, Cancel, the outputs, and
the checks of stored settings, and the message that instance weights are
used.  A widget adds its
controls, its scorer, its data checks and its commit."""
import copy
import numbers
from typing import Optional

import numpy as np

from AnyQt.QtCore import Qt
from AnyQt.QtWidgets import QComboBox, QGridLayout, QSizePolicy, QSplitter

from Orange.data import ContinuousVariable, Domain, StringVariable, Table
from Orange.preprocess import score
from Orange.preprocess.preprocess import Preprocess
from Orange.widgets import gui
from Orange.widgets.settings import ContextSetting, Setting
from Orange.widgets.utils.concurrent import ConcurrentWidgetMixin
from Orange.widgets.widget import Input, Msg, Output, OWWidget

from orangecontrib.relief.core.backends import warmup
from orangecontrib.relief.scoring import has_instance_weights
from orangecontrib.relief.widgets.reliefviews import WeightsModel, WeightsView


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


class OWScoringBase(OWWidget, ConcurrentWidgetMixin, openclass=True):
    """The shared base of the scoring widgets (no widget by itself).

    A subclass sets ``LIMITS`` (the numeric settings' ranges), builds its
    controls, then ``_selection_box`` and ``_plot_box_and_views``; it
    defines ``commit``, ``clear_view`` and ``_update_plot``."""

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
        no_attributes = Msg("Data has no features to weight.")
        compute_failed = Msg("{}")

    class Warning(OWWidget.Warning):
        scorer_warning = Msg("{}")
        bad_settings = Msg("Stored settings that cannot be used were "
                           "reset: {}.")

    class Information(OWWidget.Information):
        cancelled = Msg("Computation was cancelled; "
                        "apply again to restart it.")
        instance_weights = Msg("Instance weights are used.")

    select_percent = Setting(0)  # 0: top N, 1: top p % (2: q < alpha)
    n_selected = Setting(5)
    percent_selected = Setting(50)
    n_plotted = Setting(5)
    auto_apply = Setting(True)

    #: the numeric settings' ranges: the controls' and the stored values'
    LIMITS = SELECTION_LIMITS
    #: the parts of a computation, each shown as soon as it is known
    PARTS = ("result", "test", "stability")

    want_main_area = True
    graph_name = "plotview.plot"  # for image export

    def __init__(self):
        OWWidget.__init__(self)
        ConcurrentWidgetMixin.__init__(self)
        # the first widget of a fresh installation starts compiling the
        # kernels in the background, before any data arrives
        warmup.start()
        self.data: Optional[Table] = None
        # the data scored (a ReliefF widget's: covariates moved to metas)
        self.scored: Optional[Table] = None
        # the parts shown (the result, the statistics), the keys (data,
        # parameters) they were computed for, and those of the run
        self.result = self.test = self.stability = None
        self._known = self._pending = dict.fromkeys(self.PARTS)

    def _reset_bad_settings(self, options):
        """Stored settings that cannot be used back to their defaults,
        with a warning (``reset_bad_settings``); `options`: {name: the
        values allowed} of the settings that name a choice."""
        reset = reset_bad_settings(self, self.LIMITS, options)
        self.Warning.bad_settings(", ".join(reset), shown=bool(reset))

    def _show_instance_weights(self, data):
        """Say that the table's instance weights (``Table.W``) are used: an
        instance of weight w counts as w copies of itself."""
        self.Information.instance_weights(
            shown=data is not None and has_instance_weights(data))

    @Inputs.data
    def set_data(self, data: Optional[Table]):
        """A new table: drop what was computed, and compute for it."""
        self.cancel()
        self.data = data
        self._forget()
        self.clear_view()
        self.commit.now()

    # GUI

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
        self._grid_spin(rb, grid, 1, "percent_selected",
                        *self.LIMITS["percent_selected"],
                        self._set_select_percent)
        return rb, grid

    def _plot_box_and_views(self, *plots):
        """The end of every Relief widget's layout: the *Plot* box (how
        many features the plot shows), Cancel and Apply, and the main area,
        the table of weights above ``plots`` in a vertical splitter (the
        first plot is ``self.plotview``, the convergence plot); then every
        menu opens as wide as its longest item (``fit_popups``)."""
        box = gui.vBox(self.controlArea, "Plot")
        gui.spin(box, self, "n_plotted", *self.LIMITS["n_plotted"],
                 label="Features shown:",
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
        fit_popups(self)

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
    def _selection_changed(self):
        if self.stability is not None:      # (its "Top N" column)
            self.show_result()
        self.commit.deferred()

    def _set_select_n(self):
        self.select_percent = 0
        self._selection_changed()

    def _set_select_percent(self):
        self.select_percent = 1
        self._selection_changed()

    # the run

    def _forget(self):
        """Drop every computed part."""
        for part in self.PARTS:
            setattr(self, part, None)
        self._known = dict.fromkeys(self.PARTS)

    def _keep(self, part, value):
        """Store a computed `part` with the key it was computed for."""
        setattr(self, part, value)
        self._known[part] = self._pending[part]

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

    def onDeleteWidget(self):
        self.shutdown()
        super().onDeleteWidget()

    # display and outputs

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

    def text_columns(self):
        """{title: a text per feature} shown after the statistics (a
        widget's own, e.g. "Redundant with"); none here."""
        return {}

    def show_result(self):
        attributes = self.scored.domain.attributes
        weights = np.asarray(self.result.weights, dtype=float)
        extra = self.statistics_columns()
        texts = self.text_columns()
        self.model.resetSorting(True)
        self.model.wrap([[attr, float(w)]
                         + [float(v[i]) for v in extra.values()]
                         + [str(v[i]) for v in texts.values()]
                         for i, (attr, w) in enumerate(zip(attributes,
                                                           weights))])
        self.model.setExtremesFrom(1, weights)
        self.model.setHorizontalHeaderLabels(["Feature", "Weight"]
                                             + list(extra) + list(texts))
        self.model.sort(1, Qt.DescendingOrder)
        self.view.horizontalHeader().setSortIndicator(1, Qt.DescendingOrder)
        self.view.resizeColumnToContents(0)
        self._update_plot()

    def selection_k(self):
        """`k` for SelectBestFeatures: an int (top N) or a fraction (top p %)."""
        if self.select_percent == 1:
            return self.percent_selected / 100
        return int(self.n_selected)

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
        like Rank's Scores output; the text columns are string metas after
        the names."""
        extra = self.statistics_columns()
        texts = self.text_columns()
        weights = np.column_stack([np.asarray(self.result.weights, float)]
                                  + [np.asarray(v, float)
                                     for v in extra.values()])
        domain = Domain([ContinuousVariable(self.name)]
                        + [ContinuousVariable(name) for name in extra],
                        metas=[StringVariable("Feature")]
                        + [StringVariable(name) for name in texts])
        names = np.array([[a.name] + [str(v[i]) for v in texts.values()]
                          for i, a in enumerate(
                              self.scored.domain.attributes)],
                         dtype=object)
        table = Table.from_numpy(domain, weights, metas=names)
        table.name = "Feature Scores"
        return table
