"""The scoring widgets as a user meets them (issue 38): what Rank shows for
a covariate, instance weights, stored settings that cannot be used, the
link the canvas proposes, what is kept while statistics run, and text that
must not be cut."""
# pylint: disable=missing-docstring,protected-access
import unittest
from unittest.mock import patch

import numpy as np

from AnyQt.QtCore import Qt

from orangecanvas.registry import WidgetDescription
from orangecanvas.scheme import Scheme

from Orange.data import Table
from Orange.widgets.data.owrank import OWRank
from Orange.widgets.data.owtable import OWTable
from Orange.widgets.tests import base as widget_tests
from Orange.widgets.visualize.utils.plotutils import AxisItem

from orangecontrib.relief.widgets import owreliefbase
from orangecontrib.relief.widgets.owdrelieff import OWDReliefF
from orangecontrib.relief.widgets.owirelief import OWIRelief
from orangecontrib.relief.widgets.owpdrelieff import OWPDReliefF
from orangecontrib.relief.widgets.owrelieff import OWReliefF

from test_owrelief import random_table  # (tests/widgets, on the path)

WIDGETS = (OWReliefF, OWDReliefF, OWPDReliefF, OWIRelief)


def heart_disease():
    return Table("heart_disease")


class TestRankGetsTheWidgetsNumbers(widget_tests.WidgetTest):
    # (Orange's Rank is under test here; the widget checks run elsewhere)
    test_minimum_size = test_image_export = test_msg_base_class = None
    test_zero_size_data = None

    def test_a_covariate_is_out_of_rank_as_out_of_the_widget(self):
        """heart_disease -> ReliefF (k = 5, NPDR's permutation test,
        covariate age) -> Rank via Scorer: Rank's column equals the widget's
        weights, and age has no score."""
        data = heart_disease()
        widget = self.create_widget(OWReliefF)
        widget.k_nearest = 5
        widget.n_permutations = 9
        self.send_signal(widget.Inputs.data, data, widget=widget)
        widget.covariates = [data.domain["age"]]
        widget._covariates_changed()
        widget.commit.now()
        self.wait_until_finished(widget=widget, timeout=120000)
        self.assertEqual(widget.significance_test, "npdr_permutation")
        shown = self.get_output(widget.Outputs.scores, widget=widget)
        by_name = dict(zip(shown.get_column("Feature"), shown.X[:, 0]))
        self.assertNotIn("age", by_name)

        rank = self.create_widget(OWRank)
        rank.selected_methods = set()
        self.send_signal(rank.Inputs.data, data, widget=rank)
        self.send_signal(rank.Inputs.scorer,
                         self.get_output(widget.Outputs.scorer,
                                         widget=widget), 0, widget=rank)
        self.wait_until_finished(widget=rank, timeout=120000)
        # (what Rank shows: its Scores output turns NaN into -1.8e308, an
        # artefact of Orange's np.clip over an object array)
        model = rank.ranksModel
        column = {model.data(model.index(row, 0)):
                  model.data(model.index(row, 2), Qt.EditRole)
                  for row in range(model.rowCount())}
        self.assertTrue(np.isnan(column.pop("age")))
        self.assertEqual(set(column), set(by_name))
        for name, weight in by_name.items():
            self.assertAlmostEqual(column[name], weight, places=12, msg=name)
        # the same order: chest pain first, thal third (not fourth)
        self.assertEqual(
            [model.data(model.index(row, 0)) for row in range(3)],
            sorted(by_name, key=by_name.get, reverse=True)[:3])


def weighted(data, weights):
    data = data.copy()
    with data.unlocked():
        data.set_weights(np.asarray(weights, dtype=float))
    return data


class TestInstanceWeights(widget_tests.WidgetTest):
    """The widgets score a table with its instance weights (Table.W) and
    say so; weights all 1 are no weights (issue 40;
    tests/test_instance_weights_surfaces.py has the numbers)."""

    def test_every_widget_says_instance_weights_are_used(self):
        data = Table("iris")[::3]
        uneven = weighted(data, np.arange(len(data)) % 3 + 1)
        even = weighted(data, np.full(len(data), 2.0))
        ones = weighted(data, np.ones(len(data)))
        for cls in WIDGETS:
            with self.subTest(cls.name):
                widget = self.create_widget(cls)
                for table in (uneven, even):
                    self.send_signal(widget.Inputs.data, table, widget=widget)
                    self.wait_until_finished(widget=widget, timeout=60000)
                    self.assertTrue(
                        widget.Information.instance_weights.is_shown())
                    self.assertIn("Instance weights are used.",
                                  str(widget.Information.instance_weights))
                    scores = self.get_output(widget.Outputs.scores,
                                             widget=widget)
                    self.assertIsNotNone(scores)
                for other in (ones, data, None):
                    self.send_signal(widget.Inputs.data, other, widget=widget)
                    self.wait_until_finished(widget=widget, timeout=60000)
                    self.assertFalse(
                        widget.Information.instance_weights.is_shown())


#: Stored values no setting of the scoring widgets accepts: missing, of a
#: wrong type, not a number, negative, huge, an unknown name.
BAD_VALUES = (None, "abc", [1], float("nan"), float("inf"), -5, -10 ** 12,
              10 ** 12, "no such name")

#: Settings that are Orange's own, not the widgets' (geometry).
ORANGES_OWN = ("savedWidgetGeometry",)


def own_settings(cls):
    """{name: default} of every stored setting of `cls` (not context
    settings, which the domain context handler checks)."""
    from Orange.widgets.settings import ContextSetting
    return {name: setting.default for name, setting
            in cls.settingsHandler.provider.settings.items()
            if name not in ORANGES_OWN
            and not isinstance(setting, ContextSetting)}


class TestBadStoredSettings(widget_tests.WidgetTest):
    """Hand-edited or old workflows: a setting the widget cannot use falls
    back to its default with a warning, and the widget opens and works."""

    def test_the_issues_settings_open(self):
        cases = [(cls, {name: value}) for cls in WIDGETS[:3]
                 for name, value in (("k_nearest", -5),
                                     ("k_nearest", 10 ** 12), ("sigma", 0),
                                     ("random_state", "abc"))]
        cases += [(OWIRelief, {name: value}) for name, value in (
            ("max_iterations", -1), ("sigma", -2),
            ("tolerance", float("nan")))]
        for cls, stored in cases:
            with self.subTest(cls=cls.name, **stored):
                (name, value), = stored.items()
                widget = self.create_widget(cls, stored_settings=dict(
                    stored, __version__=cls.settings_version))
                self.assertEqual(getattr(widget, name),
                                 own_settings(cls)[name])
                self.assertTrue(widget.Warning.bad_settings.is_shown())
                self.assertIn(f"{name} = {value!r}",
                              str(widget.Warning.bad_settings))

    def test_every_setting_of_every_widget_with_every_bad_value(self):
        for cls in WIDGETS:
            defaults = own_settings(cls)
            for value in BAD_VALUES:
                with self.subTest(cls=cls.name, value=value):
                    # (of the current version: older ones are migrated)
                    stored = dict(dict.fromkeys(defaults, value),
                                  __version__=cls.settings_version)
                    widget = self.create_widget(cls, stored_settings=stored)
                    text = str(widget.Warning.bad_settings)
                    for name, default in defaults.items():
                        self.assertEqual(getattr(widget, name), default,
                                         name)
                        self.assertIn(f"{name} = {value!r}", text)

    def test_good_settings_stay_and_the_widget_runs(self):
        data = Table("iris")[::3]
        for cls, stored, kept in (
                (OWReliefF, dict(k_nearest=-5, sigma=3.0, rule="nope"),
                 dict(sigma=3.0, k_nearest=10, rule="k")),
                (OWPDReliefF, dict(T=float("nan"), custom_T="yes",
                                   significance_test="stir", n_selected=2),
                 dict(T=0.5, custom_T=False, significance_test="",
                      n_selected=2)),
                (OWIRelief, dict(damping_mode="wild", damping_lambda=0.3,
                                 select_percent=2),
                 dict(damping_mode="auto", damping_lambda=0.3,
                      select_percent=0))):
            with self.subTest(cls=cls.name):
                stored["__version__"] = cls.settings_version
                widget = self.create_widget(cls, stored_settings=stored)
                for name, value in kept.items():
                    self.assertEqual(getattr(widget, name), value, name)
                self.assertNotIn("sigma =", str(widget.Warning.bad_settings))
                self.send_signal(widget.Inputs.data, data, widget=widget)
                self.wait_until_finished(widget=widget, timeout=60000)
                scores = self.get_output(widget.Outputs.scores, widget=widget)
                self.assertEqual(len(scores), 4)
                self.assertFalse(widget.Error.active)
                # good settings saved again clear the warning
                again = self.create_widget(
                    cls, stored_settings=widget.settingsHandler.pack_data(
                        widget))
                self.assertFalse(again.Warning.bad_settings.is_shown())


class TestIReliefPlotAtDefaultSize(widget_tests.WidgetTest):
    def test_the_whole_plot_shows_at_the_default_size(self):
        """heart_disease converges in 4 iterations: at the size it opens
        with, the window holds its layout (a narrower one cut the x axis
        near 3.8 and the legend to 'ches…'), the axis reaches iteration 4
        and its ticks are whole iterations."""
        widget = self.create_widget(OWIRelief)
        opened = widget.size()
        self.send_signal(widget.Inputs.data, heart_disease(), widget=widget)
        self.wait_until_finished(widget=widget, timeout=60000)
        self.assertEqual(widget.result.iterations, 4)
        widget.show()
        self.process_events()
        needed = widget.minimumSizeHint()
        self.assertGreaterEqual(opened.width(), needed.width())
        self.assertGreaterEqual(opened.height(), needed.height())
        self.assertEqual(widget.size(), opened)
        view = widget.plotview
        self.assertGreaterEqual(view.width(), view.minimumSizeHint().width())
        x_low, x_high = view.plot.getViewBox().viewRange()[0]
        self.assertGreaterEqual(x_high, 4)
        axis = view.plot.getAxis("bottom")
        ticks = [value for _, values in axis.tickValues(x_low, x_high, 500)
                 for value in values]
        self.assertIn(4, ticks)
        self.assertTrue(all(float(t).is_integer() for t in ticks), ticks)
        # every legend label whole in the view ("chest pain", not "ches…")
        shown = view.viewport().rect()
        for _, label in view._legend.items:
            text = view.mapFromScene(
                label.item.sceneBoundingRect()).boundingRect()
            self.assertTrue(shown.contains(text), (label.text, shown, text))
        # both axes in Orange's text colour (not pyqtgraph's grey)
        for position in ("left", "bottom"):
            self.assertIsInstance(view.plot.getAxis(position), AxisItem)
        widget.hide()


class TestTheCanvasProposesTheScorerLink(unittest.TestCase):
    """Dropping a link from a scoring widget on Rank (with no data yet)
    connects Scorer -> Scorer, the link users want; on a table widget,
    Reduced Data -> Data; no ambiguity that asks in a dialog. (The
    canvas's own link proposal, as the link-drag action uses it.)"""

    def proposals(self, source, sink):
        scheme = Scheme()
        nodes = [scheme.new_node(WidgetDescription(
            **cls.get_widget_description())) for cls in (source, sink)]
        return [(out.name, into.name, weight)
                for out, into, weight in scheme.propose_links(*nodes)]

    def test_to_rank_the_scorer_to_a_table_the_reduced_data(self):
        for cls in WIDGETS:
            with self.subTest(cls.name):
                (out, into, weight), second, *_ = self.proposals(cls, OWRank)
                self.assertEqual((out, into), ("Scorer", "Scorer"))
                self.assertGreater(weight, second[2])
                (out, into, weight), second, *_ = self.proposals(cls, OWTable)
                self.assertEqual((out, into), ("Reduced Data", "Data"))
                self.assertGreater(weight, second[2])


class TestWhatIsKnownStays(widget_tests.WidgetTest):
    """The weights show while a significance test runs and after Cancel;
    asking for stability after a test does not run the test again."""

    def setUp(self):
        self.widget = self.create_widget(OWReliefF)

    def wait_for(self, condition, timeout=60):
        import time
        start = time.perf_counter()
        while not condition() and time.perf_counter() - start < timeout:
            self.process_events()
            time.sleep(0.01)
        self.assertTrue(condition())

    def shown_weights(self):
        model = self.widget.model
        return {model.data(model.index(row, 0)):
                model.data(model.index(row, 1), Qt.EditRole)
                for row in range(model.rowCount())}

    def test_weights_show_while_the_test_runs_and_stay_after_cancel(self):
        w = self.widget
        w.significance_test, w.n_permutations = "permutation", 9999
        data = random_table(0)
        self.send_signal(w.Inputs.data, data)
        self.wait_for(lambda: w.result is not None)
        self.assertIsNotNone(w.task)            # (the test still runs)
        expected = OWReliefF.SCORER()(data)
        names = [a.name for a in data.domain.attributes]
        shown = self.shown_weights()
        np.testing.assert_allclose([shown[n] for n in names], expected,
                                   rtol=1e-12)
        # (sent, while the widget still says it is computing)
        scores = self.signal_manager.outputs[(w, "Scores")]
        np.testing.assert_allclose(scores.X[:, 0], expected, rtol=1e-12)
        self.assertEqual(len(w.plotview.curves), w.n_plotted)
        w.cancel_button.click()
        self.assertIsNone(w.task)
        self.assertTrue(w.Information.cancelled.is_shown())
        self.assertEqual(len(self.shown_weights()), len(names))
        self.assertEqual(len(w.plotview.curves), w.n_plotted)
        scores = self.get_output(w.Outputs.scores)
        np.testing.assert_allclose(scores.X[:, 0], expected, rtol=1e-12)
        self.assertNotIn("p", [a.name for a in scores.domain.attributes])
        self.assertIsNotNone(self.get_output(w.Outputs.reduced_data))
        # Apply again computes only the test
        runs = []
        real_run = owreliefbase.run

        def recording_run(*args, **kwargs):
            runs.append((args[3], kwargs.get("known")))
            return real_run(*args, **kwargs)

        w.n_permutations = 19
        with patch.object(owreliefbase, "run", recording_run):
            w.commit.now()
            self.wait_until_finished(timeout=60000)
        (extras, known), = runs
        self.assertIs(known, w.result)
        self.assertEqual(extras.test, "permutation")
        self.assertIsNotNone(w.test)

    def test_ticking_stability_keeps_the_test(self):
        w = self.widget
        data = Table("iris")[::3]
        w.significance_test, w.n_permutations = "permutation", 19
        self.send_signal(w.Inputs.data, data)
        self.wait_until_finished(timeout=60000)
        test, result = w.test, w.result
        runs = []
        real_run = owreliefbase.run

        def recording_run(*args, **kwargs):
            runs.append((args[3], kwargs.get("known")))
            return real_run(*args, **kwargs)

        with patch.object(owreliefbase, "run", recording_run):
            w.controls.stability_on.click()
            self.wait_until_finished(timeout=60000)
        (extras, known), = runs
        self.assertIs(known, result)            # no new weights
        self.assertIsNone(extras.test)          # no new test
        self.assertEqual(extras.n_resamples, w.n_resamples)
        self.assertIs(w.test, test)
        self.assertIsNotNone(w.stability)
        header = [w.model.headerData(i, Qt.Horizontal)
                  for i in range(w.model.columnCount())]
        self.assertIn("p", header)
        self.assertIn("Mean rank", header)
        # unticking it again computes nothing
        with patch.object(owreliefbase, "run", recording_run):
            w.controls.stability_on.click()
        self.assertEqual(len(runs), 1)
        self.assertIsNone(w.task)
        self.assertIsNone(w.stability)

    def test_the_top_column_follows_top_n(self):
        """The stability's "Top N" column counts the N selected (it said
        "Top 6" while Top N was 4)."""
        w = self.widget
        data = Table("heart_disease")
        w.stability_on, w.n_resamples = True, 4
        w.controls.n_selected.setValue(4)
        self.send_signal(w.Inputs.data, data)
        self.wait_until_finished(timeout=60000)

        def header():
            return [w.model.headerData(i, Qt.Horizontal)
                    for i in range(w.model.columnCount())]
        self.assertIn("Top 4", header())
        ranks = w.stability.ranks
        column = header().index("Top 4")
        frequency = {w.model.data(w.model.index(row, 0)):
                     w.model.data(w.model.index(row, column), Qt.EditRole)
                     for row in range(w.model.rowCount())}
        for i, attr in enumerate(data.domain.attributes):
            self.assertAlmostEqual(frequency[attr.name],
                                   np.mean(ranks[:, i] <= 4))
        w.controls.n_selected.setValue(7)
        w.controls.n_selected.editingFinished.emit()
        self.assertIn("Top 7", header())


class TestTextIsNotCut(widget_tests.WidgetTest):
    """At the size a widget opens with, each of its messages is whole in
    the status bar (I-RELIEF's numeric-class error ended "numeric
    target …")."""

    #: representative arguments of the messages with placeholders
    ARGUMENTS = {"k_larger_than_class": (10, "the 9 instances of class "
                                              "'Iris-versicolor'"),
                 "sample_too_large": (1000, "303 instances with a known "
                                            "target"),
                 "not_converged": (1000, 0.00123, 0.001),
                 "missing_values": (1234, "as expected differences "
                                          "(RELIEF-D)"),
                 "missing_target": (12, "are left out"),
                 "covariates": ("age, gender",),
                 "covariates_unused": ("Permutation of the class",),
                 "bad_settings": ("k_nearest = -5 (now 10)",),
                 "gpu_failed": ("CUDA_ERROR_OUT_OF_MEMORY",)}
    #: messages that are free text from elsewhere (the engine's, a test's)
    FREE = ("scorer_warning", "compute_failed", "unreachable_threshold")

    def test_every_message_is_whole_in_the_status_bar(self):
        from orangewidget.utils.messages import UnboundMsg
        from orangewidget.utils.messagewidget import ElidingLabel
        for cls in WIDGETS:
            widget = self.create_widget(cls)
            widget.show()
            groups = (widget.Error, widget.Warning, widget.Information)
            for group in groups:
                for name, message in vars(type(group)).items():
                    if not isinstance(message, UnboundMsg) \
                            or name in self.FREE:
                        continue
                    with self.subTest(cls=cls.name, message=name):
                        for other in groups:
                            other.clear()
                        getattr(group, name)(
                            *self.ARGUMENTS.get(name, ("1",) * message.count("{")))
                        self.process_events()
                        texts = [label.text() for label in
                                 widget.statusBar().findChildren(ElidingLabel)
                                 if label.isVisible() and label.text()]
                        self.assertTrue(texts)
                        for text in texts:
                            self.assertNotIn("…", text)
            widget.hide()

    def test_menus_lists_and_labels_are_whole(self):
        """The Test menu shows "NPDR, permutations (covariates)" whole,
        closed and open; every menu opens as wide as its longest item; the
        Covariates list shows four variables; under a radius rule the
        Misses menu does not speak of k."""
        from AnyQt.QtWidgets import QComboBox, QStyle, QStyleOptionComboBox
        for cls in WIDGETS:
            widget = self.create_widget(cls)
            self.send_signal(widget.Inputs.data, heart_disease(),
                             widget=widget)
            self.wait_until_finished(widget=widget, timeout=60000)
            widget.show()
            self.process_events()
            for combo in widget.controlArea.findChildren(QComboBox):
                if not combo.isVisibleTo(widget):
                    continue
                texts = [combo.itemText(i) for i in range(combo.count())]
                with self.subTest(cls=cls.name, menu=texts):
                    view = combo.view()
                    self.assertGreaterEqual(view.minimumWidth(),
                                            view.sizeHintForColumn(0))
                    option = QStyleOptionComboBox()
                    combo.initStyleOption(option)
                    field = combo.style().subControlRect(
                        QStyle.CC_ComboBox, option,
                        QStyle.SC_ComboBoxEditField, combo)
                    for text in texts:
                        self.assertLessEqual(
                            combo.fontMetrics().horizontalAdvance(text),
                            field.width(), text)
            if cls is OWIRelief:
                continue
            view = widget.covariate_view
            self.assertGreaterEqual(
                view.viewport().height(), 4 * view.sizeHintForRow(0))
            radius = widget.rule_names.index("multisurf")
            widget.controls.rule_position.setCurrentIndex(radius)
            widget.controls.rule_position.activated.emit(radius)
            misses = [widget.misses_combo.itemText(i) for i in range(2)]
            self.assertFalse(any("k " in text for text in misses), misses)
            widget.controls.rule_position.setCurrentIndex(0)
            widget.controls.rule_position.activated.emit(0)
            self.assertEqual(widget.misses_combo.itemText(0),
                             "k from each other class")
            self.wait_until_finished(widget=widget, timeout=60000)
            widget.hide()


class TestScreenshotOfTheTestMenu(widget_tests.WidgetTest):
    def test_screenshot_of_the_test_menu_opened(self):
        """ReliefF at its default size with the Test menu open, for the
        documentation (doc/widgets/ReliefF.md): every test's name whole."""
        import os
        from AnyQt.QtCore import QPoint
        from AnyQt.QtGui import QPainter
        widget = self.create_widget(OWReliefF)
        self.send_signal(widget.Inputs.data, heart_disease(), widget=widget)
        self.wait_until_finished(widget=widget, timeout=60000)
        widget.show()
        self.process_events()
        combo = widget.controls.test_position
        combo.showPopup()
        self.process_events()
        popup = combo.view().window()
        image = widget.grab()
        menu = popup.grab()
        # (the menu where it opens: over the box, from the combo's top)
        at = combo.mapTo(widget, QPoint(0, 0))
        painter = QPainter(image)
        painter.drawPixmap(at, menu)
        painter.end()
        combo.hidePopup()
        path = os.path.join(os.path.dirname(os.path.dirname(
            os.path.dirname(os.path.abspath(__file__)))),
            "doc", "widgets", "images", "ReliefF-test-menu.png")
        self.assertTrue(image.save(path))
        self.assertGreaterEqual(menu.width(), combo.view().sizeHintForColumn(0))
        widget.hide()
