"""The ReliefF widget's Estimator chooser (issue 40, item 3): this add-on's
options or one of CORElearn's Relief estimators for the data's kind of
target, a cost matrix for the cost-sensitive ones, their refusals, the
settings saved with a workflow."""
# pylint: disable=missing-docstring,protected-access
import os

import numpy as np

from Orange.data import Domain, Table
from Orange.widgets.tests import base as widget_tests

from orangecontrib.relief import corelearn
from orangecontrib.relief.scoring import CORElearn
from orangecontrib.relief.widgets.owdrelieff import OWDReliefF
from orangecontrib.relief.widgets.owrelieff import OWReliefF
from orangecontrib.relief.widgets.owreliefbase import OWN_OPTIONS

IMAGES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "doc", "widgets", "images")


class TestEstimators(widget_tests.WidgetTest):
    # (the base class's checks run on the ReliefF widget in test_owrelief)
    test_minimum_size = test_image_export = test_msg_base_class = None
    test_zero_size_data = None

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.iris = Table("iris")[::3]          # 50 rows, three classes
        cls.housing = Table("housing")[::10]   # 51 rows, a numeric target

    def setUp(self):
        self.widget = self.create_widget(OWReliefF)

    def choose(self, name, widget=None):
        widget = widget or self.widget
        combo = widget.estimator_combo
        combo.setCurrentIndex(widget.estimator_names.index(name))
        combo.activated.emit(combo.currentIndex())
        self.assertEqual(widget.estimator, name)

    def set_costs(self, text):
        edit = self.widget.costs_edit     # (as typed, then Enter)
        edit.setText(text)
        edit.textEdited.emit(text)
        edit.returnPressed.emit()
        self.assertEqual(self.widget.costs, text)

    def scores(self, data):
        self.wait_until_finished(timeout=60000)
        shown = self.get_output(self.widget.Outputs.scores)
        by_name = dict(zip(shown.get_column("Feature"), shown.X[:, 0]))
        return np.array([by_name[var.name] for var in data.domain.attributes])

    def items(self):
        combo = self.widget.estimator_combo
        return [combo.itemText(i) for i in range(combo.count())]

    def test_chooser_lists_the_names_for_the_target(self):
        widget = self.widget
        self.assertEqual(self.items(),
                         [OWN_OPTIONS] + corelearn.names(available=True))
        self.send_signal(widget.Inputs.data, self.iris)
        classification = corelearn.names(regression=False, available=True)
        self.assertEqual(self.items(), [OWN_OPTIONS] + classification)
        self.assertIn("ReliefFexpC", classification)
        self.assertNotIn("RReliefFequalK", classification)
        combo = widget.estimator_combo
        i = self.items().index("ReliefFsmp")
        self.assertEqual(combo.itemData(i, widget_tests.Qt.ToolTipRole),
                         corelearn.ESTIMATORS["ReliefFsmp"].description)
        self.send_signal(widget.Inputs.data, self.housing)
        self.assertEqual(self.items(), [OWN_OPTIONS] + corelearn.names(
            regression=True, available=True))
        # the feedback variants have no CORElearn estimator
        self.assertFalse(hasattr(self.create_widget(OWDReliefF),
                                 "estimator_combo"))

    def test_equal_k_gives_the_scorers_weights(self):
        widget = self.widget
        self.send_signal(widget.Inputs.data, self.iris)
        self.scores(self.iris)
        self.choose("ReliefFequalK")
        self.assertTrue(widget.neighbours_box.isHidden())
        self.assertFalse(widget.estimator_label.isHidden())
        self.assertTrue(widget.costs_edit.box.isHidden())
        widget.commit.now()
        shown = self.scores(self.iris)
        expected = CORElearn("ReliefFequalK")(self.iris)
        np.testing.assert_array_equal(shown, expected)
        scorer = self.get_output(widget.Outputs.scorer)
        self.assertIsInstance(scorer, CORElearn)
        self.assertEqual(scorer.estimator, "ReliefFequalK")
        self.assertEqual(len(self.get_output(
            widget.Outputs.reduced_data).domain.attributes), 4)
        # back to this add-on's options: the panel's neighbours again
        self.choose("")
        self.assertFalse(widget.neighbours_box.isHidden())
        self.assertNotIsInstance(self.get_output(widget.Outputs.scorer),
                                 CORElearn)

    def test_cost_matrix_reaches_the_estimator(self):
        widget = self.widget
        self.send_signal(widget.Inputs.data, self.iris)
        self.choose("ReliefFexpC")
        self.assertFalse(widget.costs_edit.box.isHidden())
        # computed on top of the engine: no tests, every instance visited
        self.assertFalse(widget.statistics_box.isEnabled())
        self.assertFalse(widget.visits_radio.isEnabled())
        self.set_costs("0,1,1;5,0,1;1,2,0")
        widget.commit.now()
        shown = self.scores(self.iris)
        data = self.iris
        costs = [[0, 1, 1], [5, 0, 1], [1, 2, 0]]
        expected = corelearn.run("ReliefFexpC", data.X, data.Y,
                                 np.zeros(4, bool), costs=costs).weights
        np.testing.assert_array_equal(shown, expected)
        self.assertFalse(np.array_equal(expected, corelearn.run(
            "ReliefFexpC", data.X, data.Y, np.zeros(4, bool)).weights))
        scorer = self.get_output(widget.Outputs.scorer)
        np.testing.assert_array_equal(scorer.costs, costs)
        widget.send_report()
        self.assertIn("ReliefFexpC", widget.report_html)
        self.assertIn("0,1,1;5,0,1;1,2,0", widget.report_html)

    def test_bad_cost_matrix_is_an_error_until_fixed(self):
        widget = self.widget
        self.send_signal(widget.Inputs.data, self.iris)
        self.choose("ReliefFavgC")
        for text, sentence in (
                ("0,1;1,0", "costs must be a 3 x 3 matrix, a row and a "
                            "column for each class (Iris-setosa"),
                ("0,1,x;1,0,1;1,1,0", "expected rows of numbers"),
                ("0,1;1", "costs must be a matrix of numbers"),
                ("0,1,1;-1,0,1;1,1,0", "finite and non-negative")):
            self.set_costs(text)
            self.assertTrue(widget.Error.bad_costs.is_shown(), text)
            self.assertIn(sentence, str(widget.Error.bad_costs), text)
            self.assertIsNone(self.get_output(widget.Outputs.scorer))
            self.assertIsNone(self.get_output(widget.Outputs.scores))
        self.set_costs("0,1,1;2,0,1;1,1,0")
        self.assertFalse(widget.Error.bad_costs.is_shown())
        self.assertIsInstance(self.get_output(widget.Outputs.scorer),
                              CORElearn)
        self.scores(self.iris)
        # the cost matrix of another estimator is not read
        self.set_costs("nonsense")
        self.assertTrue(widget.Error.bad_costs.is_shown())
        self.choose("ReliefFequalK")
        self.assertFalse(widget.Error.bad_costs.is_shown())

    def test_settings_round_trip_and_migration(self):
        widget = self.widget
        self.send_signal(widget.Inputs.data, self.iris)
        self.choose("ReliefFsmp")
        # ReliefFsmp draws m visits with the seed: they stay live
        self.assertTrue(widget.visits_radio.isEnabled())
        self.set_costs("0,2,1;1,0,1;1,1,0")
        settings = widget.settingsHandler.pack_data(widget)
        self.assertEqual(settings["__version__"], 3)
        other = self.create_widget(OWReliefF, stored_settings=settings)
        self.assertEqual((other.estimator, other.costs),
                         ("ReliefFsmp", "0,2,1;1,0,1;1,1,0"))
        self.assertEqual(other.estimator_combo.currentText(), "ReliefFsmp")
        self.assertEqual(other.scorer_params(), widget.scorer_params())
        # a workflow of version 2: this add-on's options, as they were
        old = self.create_widget(OWReliefF, stored_settings=dict(
            __version__=2, rule="surf", k_nearest=7))
        self.assertEqual((old.estimator, old.costs, old.rule),
                         ("", "", "surf"))
        self.assertEqual(old.estimator_combo.currentText(), OWN_OPTIONS)
        self.assertFalse(old.neighbours_box.isHidden())
        self.assertEqual(old.scorer_params()["neighbours"], "surf")
        self.assertFalse(old.Warning.estimator_fallback.is_shown())

    def test_stored_estimator_unknown_or_not_fitting(self):
        # (hand-edited: reset as every unusable setting is, issue 38)
        widget = self.create_widget(OWReliefF, stored_settings=dict(
            estimator="ReliefFmagic", costs="0,x"))
        self.assertTrue(widget.Warning.bad_settings.is_shown())
        text = str(widget.Warning.bad_settings)
        self.assertIn("estimator = 'ReliefFmagic' (now '')", text)
        self.assertIn("costs = '0,x' (now '')", text)
        self.assertEqual((widget.estimator, widget.costs), ("", ""))
        self.assertEqual(widget.estimator_combo.currentText(), OWN_OPTIONS)
        widget = self.create_widget(OWReliefF, stored_settings=dict(
            estimator="ReliefFequalK"))
        self.assertFalse(widget.Warning.estimator_fallback.is_shown())
        self.send_signal(widget.Inputs.data, self.housing, widget=widget)
        text = str(widget.Warning.estimator_fallback)
        self.assertIn("CORElearn's ReliefFequalK is for a class", text)
        self.assertIn("own options are used", text)
        self.assertEqual(widget.estimator, "")
        self.assertEqual(widget.estimator_combo.currentText(), OWN_OPTIONS)

    def test_instance_weights_refused_with_the_engines_sentence(self):
        data = self.iris.copy()
        with data.unlocked(data.W):
            data.W = np.arange(len(data)) % 3 + 1.0
        widget = self.widget
        self.choose("MyopicReliefF")
        self.send_signal(widget.Inputs.data, data)
        self.wait_until_finished(timeout=60000)
        self.assertTrue(widget.Error.compute_failed.is_shown())
        self.assertIn("CORElearn's MyopicReliefF does not take instance "
                      "weights", str(widget.Error.compute_failed))
        self.assertIsNone(self.get_output(widget.Outputs.scores))
        # one run of the engine takes them
        self.choose("ReliefFequalK")
        self.wait_until_finished(timeout=60000)
        self.assertFalse(widget.Error.compute_failed.is_shown())
        np.testing.assert_array_equal(
            self.scores(data), CORElearn("ReliefFequalK")(data))

    def test_several_targets(self):
        """Several targets are scored in the regression form: the menu
        lists the regression estimators; one run of the engine gives
        multi-target RReliefF with CORElearn's k, one on top of the engine
        refuses them with the engine's sentence."""
        domain = self.housing.domain
        data = self.housing.transform(Domain(
            domain.attributes[1:], [domain.class_var, domain.attributes[0]]))
        widget = self.widget
        self.send_signal(widget.Inputs.data, data)
        self.assertEqual(self.items(), [OWN_OPTIONS] + corelearn.names(
            regression=True, available=True))
        self.choose("RReliefFequalK")
        np.testing.assert_array_equal(
            self.scores(data), CORElearn("RReliefFequalK")(data))
        self.choose("RReliefFbestK")
        self.wait_until_finished(timeout=60000)
        self.assertIn("CORElearn's RReliefFbestK takes one target; the "
                      "data has 2", str(widget.Error.compute_failed))

    def test_screenshot_of_a_cost_sensitive_estimator(self):
        """The control area with ReliefFexpC and a cost matrix chosen (the
        Neighbours box hidden, the estimator described) for the help."""
        widget = self.widget
        self.send_signal(widget.Inputs.data, self.iris)
        self.choose("ReliefFexpC")
        self.set_costs("0,1,1;5,0,1;1,1,0")
        self.wait_until_finished(timeout=60000)
        widget.show()
        self.process_events()
        path = os.path.join(IMAGES, "ReliefF-estimator.png")
        self.assertTrue(widget.controlArea.grab().save(path))
        widget.hide()
        self.assertGreater(os.path.getsize(path), 5000)
