"""Shared base of the ReliefF, dReliefF and pdReliefF widgets: their
controls, scorer, data checks, commit, display and report (on
``owscoringbase.OWScoringBase``, which I-RELIEF shares; the background task
is ``relieftask``, the views ``reliefviews``).

The widgets only configure a scorer from :mod:`orangecontrib.relief.scoring`,
run it off the GUI thread when data is connected, and show what came back:
a sortable table of weights with a bar per weight and a convergence plot of
the running estimates (the engine's trace). All the numbers come from the
scorer; nothing here computes a weight.

Where a GPU can run the scorer (``core.cuda.available()``, checked when the
widget is created), a "Compute on" choice offers it by name; without one the
choice is hidden and the scorer runs on the CPU.
"""
from types import SimpleNamespace
from typing import Optional

import numpy as np
import scipy.sparse as sp

from AnyQt.QtCore import Qt
from AnyQt.QtWidgets import QLabel, QListView

from Orange.data import Table
from Orange.preprocess.fss import SelectBestFeatures
from Orange.preprocess.preprocess import PreprocessorList
from Orange.widgets import gui
from Orange.widgets.settings import (ContextSetting, DomainContextHandler,
                                     Setting)
from Orange.widgets.utils.itemmodels import VariableListModel
from Orange.widgets.widget import Msg

from orangecontrib.relief import corelearn
from orangecontrib.relief.core.backends.cuda import backend as cuda
from orangecontrib.relief.core.rules import RULES
from orangecontrib.relief.core.variants import variant
from orangecontrib.relief.stats.redundancy import THRESHOLD, TOP
from orangecontrib.relief.scoring import (CORElearn, CovariatesToMetas,
                                          SelectNonRedundant,
                                          SelectSignificant,
                                          covariates_to_metas,
                                          has_instance_weights)
from orangecontrib.relief.stats import (NPDR_DEFAULT, TESTS,
                                        unreachable_threshold)
from orangecontrib.relief.widgets.owscoringbase import (
    SELECTION_LIMITS, OWScoringBase, scorer_warnings)
from orangecontrib.relief.widgets.relieftask import run
from orangecontrib.relief.widgets.reliefviews import (ConvergencePlot,
                                                      RankIntervalPlot,
                                                      RedundancyHeatmap)

#: Aim for about this many points in the convergence plot.
TRACE_POINTS = 200

#: The Misses menu's items (for the k-nearest rule).
MISSES_TEXTS = ("k from each other class", "k from any other class")
#: the neighbour influences of "Weight by distance" (the setting's names)
INFLUENCES = ("rank", "distance", "sqr_distance")
INFLUENCE_TEXTS = ("by rank, exp(-(r/σ)²)", "1 / distance", "1 / distance²")
INFLUENCE_SHORT = ("rank", "1/d", "1/d²")

#: the Estimator menu's first item: this add-on's own options (the panel's)
OWN_OPTIONS = "This add-on's options"

#: The rows of variables the Covariates list shows.
COVARIATE_ROWS = 4

#: The most features the redundancy heat map shows (their names must fit).
HEATMAP_FEATURES = 25


class OWReliefBase(OWScoringBase, openclass=True):
    """Base widget: subclasses set `name`, `icon`, ..., and `SCORER`."""

    #: the scorer class from orangecontrib.relief.scoring
    SCORER = None
    #: the default height, and the height it grows by when the "Compute on"
    #: row is shown (so that the controls still fit without scrolling)
    HEIGHT, DEVICE_ROW_HEIGHT = 900, 34
    #: whether the widget has controls for pdReliefF's T
    HAS_T = False
    #: whether the widget offers CORElearn's estimators (``corelearn``),
    #: which are ReliefF's and RReliefF's, not the feedback variants'
    HAS_ESTIMATORS = False
    #: the parts of a computation; "redundancy": the top features'
    #: redundancy, measured when "Skip redundant features" is on
    PARTS = ("result", "redundancy", "test", "stability")

    class Error(OWScoringBase.Error):
        no_class = Msg("Data has no target variable: Relief needs one to "
                       "tell hits from misses.")
        only_covariates = Msg("Every feature is a covariate: leave at "
                              "least one feature to weight.")
        too_few_instances = Msg(
            "At least two instances with a known target are needed.")
        gpu_failed = Msg("The GPU run failed: {}\nChoose \"Compute on: "
                         "CPU\" to run on this computer's processor.")
        bad_costs = Msg("Costs: {}")

    class Warning(OWScoringBase.Warning):
        k_larger_than_class = Msg(
            "k = {} is not smaller than {}: all of them serve as "
            "neighbours.")
        sample_too_large = Msg(
            "Sample size m = {} exceeds the {}: all are visited.")
        unreachable_threshold = Msg("{}")
        covariates_unused = Msg("{} does not adjust for the covariates; "
                                "choose an NPDR test.")
        estimator_fallback = Msg("{} This add-on's own options are used.")

    class Information(OWScoringBase.Information):
        regression = Msg("Numeric target: weights use the regression "
                         "form (RReliefF).")
        several_targets = Msg("Several targets ({}): multi-target "
                              "RReliefF, the targets' difference the mean "
                              "of their differences.")
        sparse_data = Msg("Sparse data: entries that are not stored are "
                          "zeros, and count as values.")
        missing_values = Msg("{} missing feature values, handled {}.")
        missing_target = Msg("{} instances with an unknown target {}.")
        covariates = Msg("Covariates {}: not in the distance, adjusted for "
                         "by NPDR.")

    settings_version = 3
    settingsHandler = DomainContextHandler()

    rule = Setting("k")   # a name in core.rules.RULES
    k_nearest = Setting(10)
    sample_instances = Setting(False)
    n_iterations = Setting(100)
    random_state = Setting(0)
    weight_by_distance = Setting(False)
    sigma = Setting(2.0)
    # with weight_by_distance: "rank" (exp(-(r/σ)²)) or a name of
    # core.options.BY_DISTANCE (1/d, 1/d²: CORElearn's ReliefFdistance, ...)
    influence = Setting("rank")
    misses_any = Setting(0)  # 0: per class (ReliefF), 1: any class (Relief-E)
    custom_T = Setting(False)
    weka_compat = Setting(False)  # compat="weka": Weka's numbers
    T = Setting(0.5)
    significance_test = Setting("")  # a name in stats.TESTS ("": none)
    n_permutations = Setting(99)
    stability_on = Setting(False)
    n_resamples = Setting(30)
    alpha = Setting(0.05)
    #: run on the GPU ("Compute on"), where one is present
    use_gpu = Setting(False)
    #: "Skip redundant features": top N / % without copies of a kept one
    skip_redundant = Setting(False)
    #: attributes or metas NPDR adjusts for (saved by name, per domain)
    covariates = ContextSetting([])
    #: CORElearn's estimator (a name of ``corelearn.ESTIMATORS``; "": this
    #: add-on's own options), where the widget offers them
    estimator = Setting("")
    #: the cost-sensitive estimators' cost matrix, as text ("0,1;2,0",
    #: ``corelearn.parse_costs``; "": every cost 1, CORElearn's default)
    costs = Setting("")

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
        self.redundancy = None   # (a part, PARTS; set before the commit)
        super().__init__()
        # the GPU offered by "Compute on" (None: none, the choice is hidden)
        self.gpu_name = cuda.device_name() if cuda.available() else None
        # the registered tests for this widget's variant ("": none)
        self.test_names = [""] + [
            name for name, test in TESTS.items()
            if test.unsupported(variant=self.SCORER.variant) is None]
        self._reset_bad_settings(dict(
            rule=tuple(RULES), misses_any=(0, 1), select_percent=(0, 1, 2),
            significance_test=tuple(self.test_names), influence=INFLUENCES,
            estimator=("",) + tuple(corelearn.names(available=True)
                                    if self.HAS_ESTIMATORS else ()),
            costs=("", self.costs) if _readable_costs(self.costs)
            else ("",)))
        self._fall_back_from(self._estimator_problem())
        # the user's "sample instances" while an estimator that visits
        # every instance has set it to False (None: not set by one)
        self._own_sample_choice = None
        self._setup_gui()
        self._enable_k_controls()
        self._show_estimator()
        self._update_cost_label()
        self._update_skip_check()
        self.commit.now()

    # GUI
    def _setup_gui(self):
        """The control area's boxes, top to bottom, and the plots."""
        if self.HAS_ESTIMATORS:
            self._estimator_box()
        self._neighbours_box()
        self._visits_box()
        if self.HAS_T:
            self._T_box()
        self._statistics_box()
        self._selection_rows()
        self._views()

    def _estimator_box(self):
        """Estimator: this add-on's options or one of CORElearn's (those for
        the data's kind of target), what it is, its cost matrix."""
        box = gui.vBox(self.controlArea, "Estimator")
        self.estimator_names = [""]
        self.estimator_position = 0
        self.estimator_combo = gui.comboBox(
            box, self, "estimator_position", callback=self._estimator_changed,
            tooltip="This add-on's options (the boxes below), or one of "
                    "CORElearn's Relief estimators (R's attrEval), which "
                    "sets the neighbours itself.")
        self.estimator_label = gui.widgetLabel(box, "")
        self.estimator_label.setWordWrap(True)
        self.costs_edit = gui.lineEdit(
            box, self, "costs", label="Costs:", orientation=Qt.Horizontal,
            callback=self._costs_changed,
            tooltip="The cost matrix: rows separated by ';', the costs in a "
                    "row by ','; row i, column j: the cost of predicting "
                    "the j-th class value for an instance of the i-th "
                    "(e.g. \"0,1;5,0\"). Empty: every cost 1, CORElearn's "
                    "default. The diagonal is not used.")
        self.costs_edit.setPlaceholderText("every cost 1")
        self._fill_estimators()

    def _fill_estimators(self):
        """The Estimator menu: this add-on's options, then CORElearn's
        estimators for the data's kind of target (without data: all), each
        with its description as the tooltip."""
        domain = None if self.data is None else self.data.domain
        regression = None if domain is None or not domain.class_vars \
            else _regression(domain)
        self.estimator_names = [""] + corelearn.names(regression=regression,
                                                      available=True)
        combo = self.estimator_combo
        combo.clear()
        combo.addItem(OWN_OPTIONS)
        combo.setItemData(0, "The boxes below: the neighbourhood rule, k, "
                             "the influence, the misses, Weka's numbers.",
                          Qt.ToolTipRole)
        for name in self.estimator_names[1:]:
            combo.addItem(name)
            combo.setItemData(combo.count() - 1,
                              corelearn.ESTIMATORS[name].description,
                              Qt.ToolTipRole)
        self.estimator_position = self.estimator_names.index(self.estimator)

    def _estimator_problem(self) -> Optional[str]:
        """Why the stored estimator cannot be used for the data (the
        registry's sentence), or None."""
        if not self.HAS_ESTIMATORS or not self.estimator:
            return None
        domain = None if self.data is None else self.data.domain
        regression = None if domain is None or not domain.class_vars \
            else _regression(domain)
        try:
            corelearn.check(self.estimator, regression)
        except ValueError as error:
            return str(error)
        return None

    def _fall_back_from(self, problem):
        """With a ``problem`` (the estimator stored or chosen does not fit):
        a warning that names it, and this add-on's options."""
        if problem is not None:
            self.Warning.estimator_fallback(problem)
            self.estimator = ""

    def _estimator_changed(self):
        self.estimator = self.estimator_names[self.estimator_position]
        self.Warning.estimator_fallback.clear()
        self._show_estimator()
        self._statistics_changed()

    def _costs_changed(self):
        self._params_changed()

    def corelearn_entry(self):
        """CORElearn's estimator chosen (``corelearn.Estimator``), or None:
        this add-on's options."""
        return corelearn.ESTIMATORS[self.estimator] \
            if self.HAS_ESTIMATORS and self.estimator else None

    def _outside_engine(self) -> bool:
        """Whether the estimator chosen is computed on top of the engine
        (``corelearn.run``): the engine's statistics and device do not
        apply to it."""
        entry = self.corelearn_entry()
        return entry is not None and entry.options is None

    def _show_estimator(self):
        """Show only the options the estimator uses: CORElearn's sets the
        neighbours (the box is hidden, the estimator described instead);
        those on top of the engine visit every instance (ReliefFsmp draws
        m with the seed) on the CPU, without the tests."""
        if not self.HAS_ESTIMATORS:
            return
        entry = self.corelearn_entry()
        self.neighbours_box.setVisible(entry is None)
        self.estimator_label.setVisible(entry is not None)
        self.costs_edit.box.setVisible(entry is not None and entry.costs)
        if entry is not None:
            self.estimator_label.setText(
                f"{entry.description}." + (
                    " It visits every instance, on the CPU." if
                    self._outside_engine() and not entry.sampled else ""))
        every = self._outside_engine() and not entry.sampled
        self._force_every_instance(every)
        self.visits_radio.setDisabled(every)
        self.device_combo.setDisabled(bool(self.weka_compat) and entry is None
                                      or self._outside_engine())
        self.statistics_box.setDisabled(self._outside_engine())
        self.statistics_box.setToolTip(
            f"CORElearn's {self.estimator} is computed on top of the "
            "engine: the tests and the stability refit the engine's runs, "
            "and do not apply to it." if self._outside_engine() else "")

    def _force_every_instance(self, every):
        """An estimator that visits ``every`` instance sets "sample
        instances" to False; the user's choice comes back with an
        estimator that does not."""
        if every:
            if self._own_sample_choice is None:
                self._own_sample_choice = self.sample_instances
            self.sample_instances = False
        elif self._own_sample_choice is not None:
            self.sample_instances = self._own_sample_choice
            self._own_sample_choice = None

    def _cost_matrix(self):
        """(the cost matrix for the scorer or None, the sentence that says
        what is wrong with the Costs text or None); checked against the
        data's class values where a class is known."""
        entry = self.corelearn_entry()
        text = self.costs.strip()
        if entry is None or not entry.costs or not text:
            return None, None
        domain = None if self.data is None else self.data.domain
        classes = domain.class_var.values if domain is not None \
            and domain.class_var is not None \
            and domain.class_var.is_discrete else None
        try:
            matrix = corelearn.check_costs(
                self.estimator, corelearn.parse_costs(text), classes)
        except ValueError as error:
            return None, str(error)
        return tuple(map(tuple, matrix.tolist())), None

    def _neighbours_box(self):
        """Neighbours: the rule, k, rank weights, misses, Weka's numbers."""
        box = self.neighbours_box = gui.vBox(self.controlArea, "Neighbours")
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
            box, self, "k_nearest", *self.LIMITS["k_nearest"],
            label="Neighbours k:",
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
        # (the combo shows a position; the setting keeps the influence's name)
        self.influence_position = INFLUENCES.index(self.influence) \
            if self.influence in INFLUENCES else 0
        # (in the row of "Weight by distance": the controls fit unscrolled)
        self.influence_combo = gui.comboBox(
            self.sigma_spin.box, self, "influence_position",
            items=INFLUENCE_SHORT,
            callback=self._influence_changed,
            tooltip="With weighting by distance: the neighbour at rank r "
                    "counts exp(-(r/σ)²), or 1/d or 1/d² of its distance d "
                    "(CORElearn's ReliefFdistance and ReliefFsqrDistance).")
        self.misses_combo = gui.comboBox(
            box, self, "misses_any", label="Misses:",
            orientation=Qt.Horizontal,
            items=MISSES_TEXTS,
            callback=self._params_changed, tooltip=self.MISSES_TOOLTIP)
        # (here, by the rule and misses it overrides)
        gui.checkBox(box, self, "weka_compat",
                     "Weka's numbers (ReliefFAttributeEval)",
                     callback=self._rule_changed, tooltip=self.WEKA_TOOLTIP)

    def _visits_box(self):
        """Visited Instances: all or a sample, the seed, the device."""
        box = gui.vBox(self.controlArea, "Visited Instances")
        rb, grid = self._radio_grid(box, "sample_instances",
                                    self._params_changed)
        self.visits_radio = rb
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

    def _T_box(self):
        """Progressive Weighting: pdReliefF's T."""
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

    def _statistics_box(self):
        """Significance and Stability: the test, R, B, NPDR's covariates."""
        box = self.statistics_box = gui.vBox(self.controlArea,
                                             "Significance and Stability")
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
            box, self, "n_permutations", *self.LIMITS["n_permutations"],
            step=10,
            label="Permutations R:", controlWidth=80,
            alignment=Qt.AlignRight, callback=self._statistics_changed)
        gui.spin(box, self, "n_resamples", *self.LIMITS["n_resamples"],
                 label="Stability, B:",
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

    def _selection_rows(self):
        """The selection box's rows of this widget: q < alpha, skipping
        redundant features."""
        rb, grid = self._selection_box()
        self.q_radio = gui.appendRadioButton(rb, "q < α:", addToLayout=False)
        grid.addWidget(self.q_radio, 2, 0)
        alpha = gui.doubleSpin(None, self, "alpha", *self.LIMITS["alpha"],
                               0.01,
                               decimals=3, controlWidth=80,
                               alignment=Qt.AlignRight,
                               callback=self._set_select_q,
                               addToLayout=False)
        grid.addWidget(alpha, 2, 1)
        self.skip_check = gui.checkBox(
            None, self, "skip_redundant", "Skip redundant features",
            callback=self._selection_changed, addToLayout=False)
        grid.addWidget(self.skip_check, 3, 0, 1, 2)

    def _views(self):
        """The plots: convergence, redundancy heatmap, rank intervals; the
        window's size."""
        self.rankview = RankIntervalPlot(self)
        self.rankview.hide()
        self.heatmap = RedundancyHeatmap(self)
        self.heatmap.hide()
        self._plot_box_and_views(ConvergencePlot(self), self.heatmap,
                                 self.rankview)
        self.resize(880, self.HEIGHT + (self.DEVICE_ROW_HEIGHT
                                        if self.gpu_name is not None else 0))

    def _fit_covariate_rows(self):
        """Make the Covariates list COVARIATE_ROWS rows high (rows as high
        as its variables' rows, once it has some)."""
        view = self.covariate_view
        row = view.sizeHintForRow(0) if self.covariate_model \
            else self.fontMetrics().height() + 10
        view.setFixedHeight(COVARIATE_ROWS * row + 2 * view.frameWidth())

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
        self.influence_combo.setEnabled(k_rule and not self.weka_compat)
        # (a radius rule takes every miss within it: no k)
        for i, text in enumerate(MISSES_TEXTS):
            self.misses_combo.setItemText(
                i, text if k_rule else text.replace("k from", "All from"))

    def _influence_changed(self):
        self.influence = INFLUENCES[self.influence_position]
        self._params_changed()

    def _influence(self):
        """``weight_by_distance`` of the scorer: False, True (rank weights)
        or the influence by distance (not with Weka's numbers)."""
        if not self.weight_by_distance or not (
                RULES[self.rule].uses_k or self.weka_compat):
            return False
        if self.weka_compat or self.influence not in INFLUENCES[1:]:
            return True
        return self.influence

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
        self._update_skip_check()
        if self.result is not None and self.scored is not None:
            self.show_result()      # (the "Redundant with" column)
        super()._selection_changed()

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
        self._update_skip_check()
        self.commit.deferred()

    SKIP_TOOLTIP = (
        "Down the ranking, leave out a feature whose per-visit updates "
        f"follow those of a feature already selected (correlation >= "
        f"{THRESHOLD}): copies and near copies of a kept feature. "
        "Interacting features (XOR) are not redundant and are both kept. "
        "Costs one more run, which records every visit's updates.")

    def skip_unavailable(self) -> Optional[str]:
        """Why "Skip redundant features" cannot apply now (None: it can)."""
        if self.select_percent == 2:
            return ("Selection by q < α keeps every significant feature; "
                    "choose top N or top % to skip redundant ones.")
        if self.covariates:
            return ("Redundancy is measured without covariates; clear them "
                    "to skip redundant features.")
        if self.data is not None and _regression(self.data.domain):
            return ("A numeric target: RReliefF's estimate is no mean of "
                    "per-visit updates, so redundancy cannot be measured.")
        if self.data is not None and has_instance_weights(self.data) \
                and variant(self.SCORER.variant).sequential:
            return ("Instance weights: this variant visits each copy of an "
                    "instance as a step of its own, so redundancy from its "
                    "updates does not take weights yet; use ReliefF.")
        if self._outside_engine():
            return (f"CORElearn's {self.estimator} is computed on top of "
                    "the engine; redundancy is measured from the engine's "
                    "run, which is another estimate.")
        return None

    def skip_active(self) -> bool:
        """Whether the selection skips redundant features."""
        return bool(self.skip_redundant) and self.skip_unavailable() is None

    def _update_skip_check(self):
        reason = self.skip_unavailable()
        self.skip_check.setEnabled(reason is None)
        self.skip_check.setToolTip(self.SKIP_TOOLTIP if reason is None
                                   else reason)

    def chosen_test(self):
        """The registered test (``stats.TESTS``) chosen, or None (also
        for a CORElearn estimator on top of the engine, which they do not
        refit)."""
        return TESTS[self.significance_test] if self.significance_test \
            and not self._outside_engine() else None

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
            n_resamples=self.n_resamples
            if self.stability_on and not self._outside_engine() else 0,
            covariates=self.covariate_names()
            if chosen is not None and chosen.covariates else [])

    def covariate_names(self):
        """The chosen covariates' names."""
        return [var.name for var in self.covariates]

    def _effective_m(self) -> Optional[int]:
        """Number of visited instances for the connected data (or None);
        Weka's visits instances with an unknown target too (they add
        nothing), and draws m < n with replacement."""
        n = self._n_known() if not self._weka() or self.data is None \
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
        weka = self.weka_compat and self.corelearn_entry() is None
        # (Weka's -M m >= n visits every instance: nothing to clip)
        if n_iterations is not None and n_known is not None and not weka:
            n_iterations = min(n_iterations, n_known)
        if self.corelearn_entry() is not None:
            # (CORElearn's keywords: the estimator sets the neighbours)
            return dict(estimator=self.estimator,
                        costs=self._cost_matrix()[0],
                        n_iterations=n_iterations,
                        random_state=self.random_state,
                        device="cpu" if self._outside_engine()
                        else self.device())
        rule = self.rule
        params = dict(n_iterations=n_iterations, k_nearest=self.k_nearest,
                      random_state=self.random_state,
                      weight_by_distance=self._influence(),
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
        params = self.scorer_params(n_known)
        scorer = CORElearn(**params) if "estimator" in params \
            else self.SCORER(**params)
        scorer.covariates = tuple(self.covariate_names())
        return scorer

    def n_to_select(self, n_attributes) -> int:
        """How many of `n_attributes` features top N / top % selects."""
        k = self.selection_k()
        return max(1, int(np.round(k * n_attributes))) \
            if isinstance(k, float) else min(k, n_attributes)

    def create_preprocessor(self, scorer):
        names = self.covariate_names()
        if self.skip_active() and (self.select_percent == 0
                                   or self.data is not None):
            # (each training set is scored and its redundancy measured
            # again; top % is counted on the connected data's features)
            n = self.n_selected if self.select_percent == 0 else \
                self.n_to_select(len(self.data.domain.attributes))
            return PreprocessorList([SelectNonRedundant(scorer, int(n))])
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
    def set_data(self, data: Optional[Table]):
        """A new table: its covariates (per domain), then compute."""
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
        if self.HAS_ESTIMATORS:
            self._fall_back_from(self._estimator_problem())
            self._fill_estimators()
            self._show_estimator()
        self._adjusting_test()
        self._update_cost_label()
        self._update_skip_check()
        self._forget()
        self.clear_view()
        self._update_threshold_warning()
        self.commit.now()

    def _weka(self) -> bool:
        """Whether Weka's numbers are computed (not with an estimator of
        CORElearn's, which sets its own)."""
        return bool(self.weka_compat) and self.corelearn_entry() is None

    def _k_used(self) -> Optional[int]:
        """The k of the run's k nearest (None: a radius rule, or a
        CORElearn estimator on top of the engine)."""
        entry = self.corelearn_entry()
        if entry is not None:
            return None if entry.options is None \
                else entry.options.get("k_nearest")
        return self.k_nearest if RULES[self.rule].uses_k or self.weka_compat \
            else None

    def _n_known(self) -> Optional[int]:
        if self.data is None or not self.data.domain.class_vars:
            return None
        return int(np.sum(_known_targets(self.data)))

    def _check_data(self) -> Optional[Table]:
        """Show messages about the data; return data to score or None."""
        self.Error.no_class.clear()
        self.Error.no_attributes.clear()
        self.Error.too_few_instances.clear()
        self.Warning.k_larger_than_class.clear()
        self.Warning.sample_too_large.clear()
        self.Information.sparse_data.clear()
        self.Information.regression.clear()
        self.Information.several_targets.clear()
        self.Information.missing_values.clear()
        self.Information.missing_target.clear()
        self.Information.covariates.clear()
        self.Error.only_covariates.clear()
        self.Warning.covariates_unused.clear()
        self.scored = None
        data, weka = self.data, self._weka()
        self.misses_combo.setDisabled(weka)
        self._show_instance_weights(data)
        if data is None:
            return None
        domain = data.domain
        if not domain.attributes:
            self.Error.no_attributes()
            return None
        if not domain.class_vars:
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
        known = _known_targets(data)
        n_known = int(known.sum())
        if n_known < 2:
            self.Error.too_few_instances()
            return None
        if n_known < len(data):
            self.Information.missing_target(
                len(data) - n_known, "are not visited (as in Weka, they "
                "count in m and in the class frequencies)" if weka
                else "are left out")
        if sp.issparse(data.X):     # scored as it is: memory ~ stored entries
            self.Information.sparse_data()
            n_missing = int(np.isnan(data.X[known].data).sum())
        else:
            n_missing = int(np.isnan(data.X[known]).sum())
        if n_missing:
            self.Information.missing_values(
                n_missing, "as Weka does" if weka
                else "as expected differences (RELIEF-D)")
        regression = _regression(domain)
        self.misses_combo.setDisabled(regression or weka)
        self.misses_combo.setToolTip(
            "A numeric target has no misses: RReliefF weighs all k nearest "
            "neighbours by their difference in target." if regression else
            "Weka takes k misses from every other class." if weka
            else self.MISSES_TOOLTIP)
        k_nearest = self._k_used()
        if len(domain.class_vars) > 1:
            self.Information.several_targets(
                ", ".join(var.name for var in domain.class_vars))
        elif regression:
            self.Information.regression()
        if regression:
            if k_nearest is not None and k_nearest > n_known - 1:
                self.Warning.k_larger_than_class(
                    k_nearest, f"the {n_known - 1} other instances")
        else:
            y = data.get_column(domain.class_var)
            # (instance weights: an instance of weight w is w copies)
            weighted = has_instance_weights(data)
            counts = np.bincount(y[known].astype(int),
                                 weights=data.W[known] if weighted else None,
                                 minlength=len(domain.class_var.values))
            present = np.flatnonzero(counts)
            smallest = present[np.argmin(counts[present])]
            if k_nearest is not None \
                    and k_nearest >= counts[smallest]:
                self.Warning.k_larger_than_class(
                    k_nearest,
                    (f"the total instance weight {counts[smallest]:g} of "
                     if weighted else f"the {counts[smallest]} instances "
                     "of ") +
                    f"class '{domain.class_var.values[smallest]}'")
        n_visitable = len(data) if weka else n_known
        if self.sample_instances and self.n_iterations > n_visitable:
            self.Warning.sample_too_large(
                self.n_iterations, f"{n_visitable} instances" +
                ("" if weka else " with a known target"))
        self.scored = data
        return data

    # computation
    def _computation_keys(self) -> dict:
        """What each part is computed from: the weights ("result") from the
        data and the scorer's parameters; the test and the stability from
        those and their own; None for a part not asked for."""
        weights = (id(self.data), tuple(self.covariate_names()),
                   tuple(sorted(self.scorer_params().items())))
        stats = self.statistics_params()
        return dict(
            result=weights,
            redundancy=weights + (self.redundancy_top(),)
            if self.skip_active() else None,
            test=None if stats.test is None else weights + (
                stats.test, stats.n_permutations, tuple(stats.covariates)),
            stability=weights + (stats.n_resamples,)
            if stats.n_resamples else None)

    def redundancy_top(self) -> int:
        """How many top features the redundancy is measured for: those the
        heat map shows, and at least those selected."""
        if self.scored is None:
            return 0
        n_attributes = len(self.scored.domain.attributes)
        return min(n_attributes,
                   max(TOP, self.n_to_select(n_attributes)))

    def _computation_key(self):
        """What the weights are computed from."""
        return self._computation_keys()["result"]

    @property
    def _result_key(self):
        """What the weights shown were computed from (None: none shown)."""
        return self._known["result"]

    def _clear_run_messages(self):
        self.Error.compute_failed.clear()
        self.Error.gpu_failed.clear()
        self.Warning.scorer_warning.clear()

    @gui.deferred
    def commit(self):
        if self.HAS_T:
            self._update_T_label()
        bad_costs = self._cost_matrix()[1]
        self.Error.bad_costs(bad_costs, shown=bad_costs is not None)
        scorer = None if bad_costs else self.create_scorer()
        self.Outputs.scorer.send(scorer)
        self.Outputs.preprocessor.send(
            None if bad_costs else self.create_preprocessor(scorer))

        self.Information.cancelled.clear()
        data = None if bad_costs else self._check_data()
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
        extras.redundancy_top = self.redundancy_top() \
            if "redundancy" in missing else 0
        trace_every = max(1, self._effective_m() // TRACE_POINTS)
        self._set_running(True)
        self.start(run, data, self.create_scorer(self._n_known()), trace_every,
                   extras, known=self.result)

    def on_done(self, output: SimpleNamespace):
        self._set_running(False)
        for part in self.PARTS:
            value = getattr(output, part, None)
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

    # display
    def clear_view(self):
        self.model.clear()
        self.model.setHorizontalHeaderLabels(["Feature", "Weight"])
        self.plotview.clear()
        self.rankview.set_ranks(None, [], [])
        self.rankview.hide()
        self.heatmap.set_matrix(None, [])
        self.heatmap.hide()

    def _non_redundant(self):
        """The selection's feature indices and, per top feature, the index
        of the kept one it repeats (-1: none), or None when redundant
        features are not skipped (or their redundancy is not known yet)."""
        if not self.skip_active() or self.redundancy is None:
            return None
        n = self.n_to_select(len(self.scored.domain.attributes))
        return self.redundancy.select(n)

    def selected_attributes(self):
        """Top N / top %, less the redundant features when they are
        skipped (until their redundancy is known: the plain top)."""
        chosen = self._non_redundant()
        if chosen is None:
            return super().selected_attributes()
        attributes = self.scored.domain.attributes
        return [attributes[i] for i in chosen[0]]

    def text_columns(self):
        """"Redundant with": the name of the selected feature whose updates
        a top feature follows (empty for the others)."""
        chosen = self._non_redundant()
        if chosen is None:
            return {}
        attributes = self.scored.domain.attributes
        texts = [""] * len(attributes)
        for feature, kept in zip(self.redundancy.features, chosen[1]):
            if kept >= 0:
                texts[feature] = attributes[kept].name
        return {"Redundant with": texts}

    def _update_plot(self):
        res = self.result
        if res is None or getattr(res, "trace", None) is None:
            self.plotview.clear()
            return
        top = [int(i) for i in self.ranked_indices()[:self.n_plotted]
               if not np.isnan(res.weights[i])]
        names = [attr.name for attr in self.scored.domain.attributes]
        self.plotview.set_trace(res.trace_steps, res.trace, names, top)
        self._update_heatmap(names)
        self.rankview.setVisible(self.stability is not None)
        if self.stability is not None:
            by_rank = np.argsort(self.stability.mean_rank, kind="stable")
            self.rankview.set_ranks(self.stability, names,
                                    [int(i) for i in by_rank[:self.n_plotted]])

    def _update_heatmap(self, names):
        """The top features' redundancy (at most HEATMAP_FEATURES), those
        redundant with a selected one marked."""
        chosen = self._non_redundant()
        self.heatmap.setVisible(chosen is not None)
        if chosen is None:
            self.heatmap.set_matrix(None, [])
            return
        top = min(HEATMAP_FEATURES, len(self.redundancy.features))
        features = self.redundancy.features[:top]
        skipped = set(np.flatnonzero(chosen[1][:top] >= 0))
        self.heatmap.set_matrix(self.redundancy.matrix[:top, :top],
                                [names[i] for i in features], skipped)

    # report
    def send_report(self):
        params = self.scorer_params()
        items = self._neighbour_items(params) \
            if self.corelearn_entry() is None else self._estimator_items()
        items += [("Visited instances",
                   f"sample of {self.n_iterations}"
                   if self.sample_instances else "all"),
                  ("Random seed", self.random_state)]
        if self.corelearn_entry() is None:
            items.append(("Numbers", "Weka's ReliefFAttributeEval"
                          if self.weka_compat
                          else "this add-on's definitions"))
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
        if self.statistics_params().n_resamples:
            items.append(("Stability", f"{self.n_resamples} subsamples"))
        items.append(("Selected features",
                      f"q < {self.alpha:g}" if self.select_percent == 2
                      else f"top {self.percent_selected} %"
                      if self.select_percent else f"top {self.n_selected}"))
        reason = self.skip_unavailable()
        items.append(("Redundant features",
                      "kept" if not self.skip_redundant else
                      f"skipped (update correlation ≥ {THRESHOLD:g} with a "
                      f"selected feature)" if reason is None else
                      f"kept ({reason.split(';')[0].split(':')[0]})"))
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
        if self._non_redundant() is not None:
            self.report_plot("Redundancy", self.heatmap.plot)

    def _neighbour_items(self, params):
        """The report's rows of this add-on's own options: the rule, k,
        the influence, the misses."""
        items = []
        if self.HAS_ESTIMATORS:
            items.append(("Estimator", OWN_OPTIONS))
        items.append(("Neighbourhood rule",
                      RULES[params["neighbours"]].display_name))
        if RULES[params["neighbours"]].uses_k:
            items.append(("Neighbours k", params["k_nearest"]))
        influence = params["weight_by_distance"]
        return items + [
            ("Neighbour influence",
             INFLUENCE_TEXTS[INFLUENCES.index(influence)]
             if influence in INFLUENCES[1:] else
             f"exp(-(rank/σ)²), σ = {self.sigma:g}"
             if influence else "equal"),
            ("Misses", "from each other class"
             if params["misses"] == "per_class"
             else "from any other class")]

    def _estimator_items(self):
        """The report's rows of CORElearn's estimator: its name and what it
        is, its costs."""
        entry = self.corelearn_entry()
        items = [("Estimator", f"CORElearn's {entry.name}: "
                               f"{entry.description}")]
        if entry.costs:
            items.append(("Costs", self.costs.strip() or "every cost 1"))
        return items

    @classmethod
    def migrate_settings(cls, settings, version):
        """Version 2 saves the rule and the test by name (``rule``,
        ``significance_test``); versions 1 and older saved their positions in the menus
        (``rule_index``, ``significance``).  Version 3 adds CORElearn's
        ``estimator`` and its ``costs``: older workflows have this add-on's
        own options."""
        if version is None or version < 2:
            position = settings.pop("rule_index", 0)
            if isinstance(position, int) \
                    and 0 <= position < len(cls.V1_RULES):
                settings["rule"] = cls.V1_RULES[position]
            position = settings.pop("significance", 0)
            if isinstance(position, int) \
                    and 0 <= position < len(cls.V1_TESTS):
                settings["significance_test"] = cls.V1_TESTS[position]
        if version is None or version < 3:
            settings.setdefault("estimator", "")
            settings.setdefault("costs", "")


def _regression(domain):
    """Whether ``domain``'s targets are scored in the regression form: a
    numeric target, or several (multi-target RReliefF)."""
    return len(domain.class_vars) > 1 or (domain.class_var is not None
                                          and domain.class_var.is_continuous)


def _readable_costs(text) -> bool:
    """Whether a stored cost matrix ``text`` can be read (its size and
    values are checked with the data and the estimator)."""
    try:
        corelearn.parse_costs(text)
    except (ValueError, AttributeError):
        return False
    return True


def _known_targets(data):
    """Which rows of ``data`` have a known target (of several: one at
    least): the rows the engine visits."""
    y = data.Y.reshape(len(data), -1)
    return ~np.isnan(y).all(axis=1)
