"""Tests of the Relief Evaluation widget (Orange WidgetTest)."""
# pylint: disable=missing-docstring,protected-access
import os

import numpy as np

from AnyQt.QtCore import Qt

from Orange.classification import NaiveBayesLearner
from Orange.data import Table
from Orange.preprocess import score
from Orange.widgets.tests import base as widget_tests

from orangecontrib.relief import DReliefF, ReliefF
from orangecontrib.relief import datasets
from orangecontrib.relief.evaluation import weight_quality, wrapper_curve
from orangecontrib.relief.widgets.owreliefevaluation import (
    OWReliefEvaluation, ScorerWeights)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
IMAGES = os.path.join(ROOT, "doc", "widgets", "images")
MEASURES = ("separability", "usability", "minimality", "completeness")


class FailingScorer(score.Scorer):
    name = "Broken"
    feature_type = None
    class_type = None

    def score_data(self, data, feature=None):
        raise ValueError("cannot score")


class TestOWReliefEvaluation(widget_tests.WidgetTest):
    def setUp(self):
        self.widget = self.create_widget(OWReliefEvaluation,
                                         stored_settings=dict(folds=3))
        self.data = datasets.corral(32)
        self.relieff = ReliefF(k_nearest=5)
        self.drelieff = DReliefF(k_nearest=5)

    def send(self, data=None, scorers=(), learner=None, wait=True):
        widget = self.widget
        for i, scorer in enumerate(scorers):
            self.send_signal(widget.Inputs.scorers, scorer, i, widget=widget)
        if learner is not None:
            self.send_signal(widget.Inputs.learner, learner, widget=widget)
        self.send_signal(widget.Inputs.data, data, widget=widget)
        if wait:
            self.wait_until_finished(widget=widget, timeout=60000)

    def evaluation(self):
        return self.get_output(self.widget.Outputs.evaluation)

    def output_now(self, signal):
        """The last output sent, without waiting for a running task to finish."""
        return self.signal_manager.outputs.get((self.widget, signal.name))

    def test_measures_and_curves_equal_the_library(self):
        scorers = [self.relieff, score.InfoGain()]
        self.send(self.data, scorers)
        table = self.evaluation()
        self.assertEqual(list(table.metas[:, 0]), ["ReliefF (k=5)", "InfoGain"])
        expected_curves = wrapper_curve(self.data, [ScorerWeights(s) for s in scorers],
                                        folds=3, protocol="honest")
        names = [var.name for var in self.data.domain.attributes]
        for row, scorer, curve in zip(table, scorers, expected_curves):
            weights = ScorerWeights(scorer)(self.data)
            quality = weight_quality(weights, self.data)
            for measure in MEASURES:
                self.assertAlmostEqual(row[measure], getattr(quality, measure))
            self.assertEqual(row["best size"], curve.best_size)
            self.assertAlmostEqual(row["best accuracy"], curve.best_accuracy)
            self.assertAlmostEqual(row["accuracy (all features)"],
                                   curve.mean_accuracy[-1])
            ranking = [names[i] for i in np.argsort(-weights, kind="stable")]
            self.assertEqual(str(row["Ranking"]), ", ".join(ranking))
        # ReliefF on the 32-row CorrAl puts Correlated first: negative separability
        self.assertLess(table[0]["separability"], 0)
        # the view shows the same rows
        model = self.widget.model
        self.assertEqual(model.rowCount(), 2)
        self.assertEqual(model[0][1], f"{table[0]['separability']:.3f}")
        self.assertEqual(model[1][5], int(table[1]["best size"]))

    def test_selected_data_is_best_subset_of_chosen_scorer(self):
        scorers = [self.relieff, score.InfoGain()]
        self.send(self.data, scorers)
        curves = self.widget.result.curves
        for index, scorer in enumerate(scorers):
            self.widget.controls.selected_scorer.setCurrentIndex(index)
            self.widget.controls.selected_scorer.activated.emit(index)
            selected = self.get_output(self.widget.Outputs.selected_data)
            weights = ScorerWeights(scorer)(self.data)
            top = np.argsort(-weights, kind="stable")[:curves[index].best_size]
            self.assertEqual([var.name for var in selected.domain.attributes],
                             [self.data.domain.attributes[i].name for i in top])
            self.assertEqual(len(selected), len(self.data))
            self.assertIs(selected.domain.class_var, self.data.domain.class_var)

    def test_protocol_switch_changes_the_curves(self):
        data = datasets.corral(160)
        self.send(data, [self.relieff, self.drelieff])
        honest = self.widget.result.curves
        self.assertEqual({curve.protocol for curve in honest}, {"honest"})
        self.widget.controls.protocol.setCurrentIndex(1)
        self.widget.controls.protocol.activated.emit(1)
        self.wait_until_finished(timeout=60000)
        paper = self.widget.result.curves
        self.assertEqual({curve.protocol for curve in paper}, {"paper"})
        expected = wrapper_curve(data, [self.relieff, self.drelieff], folds=3,
                                 protocol="paper")
        for got, want in zip(paper, expected):
            np.testing.assert_allclose(got.mean_accuracy, want.mean_accuracy)
            self.assertEqual(got.feature_order, want.feature_order)
        self.assertTrue(any(not np.allclose(h.fold_accuracy, p.fold_accuracy)
                            for h, p in zip(honest, paper)))
        # the plot shows the paper curves
        for item, curve in zip(self.widget.plotview.curves, paper):
            np.testing.assert_allclose(item.yData, curve.mean_accuracy)

    def test_cancel_leaves_no_output(self):
        self.send(self.data, [self.relieff])
        self.assertIsNotNone(self.evaluation())
        self.widget.controls.folds.setValue(4)      # restarts the computation
        self.assertIsNotNone(self.widget.task)
        # the old result is gone at once, before the new one is ready
        self.assertIsNone(self.output_now(self.widget.Outputs.evaluation))
        self.assertIsNone(self.output_now(self.widget.Outputs.selected_data))
        self.assertTrue(self.widget.cancel_button.isEnabled())
        self.widget.cancel_computation()
        self.assertTrue(self.widget.Information.cancelled.is_shown())
        self.assertFalse(self.widget.cancel_button.isEnabled())
        self.wait_until_finished(timeout=60000)
        self.process_events()
        self.assertIsNone(self.widget.result)
        self.assertIsNone(self.evaluation())
        self.assertIsNone(self.get_output(self.widget.Outputs.selected_data))
        self.assertEqual(self.widget.model.rowCount(), 0)

    def test_new_input_replaces_running_computation(self):
        self.send(self.data, [self.relieff], wait=False)
        monk = datasets.monk(1)
        self.send_signal(self.widget.Inputs.data, monk)
        self.wait_until_finished(timeout=60000)
        table = self.evaluation()
        quality = weight_quality(self.relieff(monk), monk)
        self.assertAlmostEqual(table[0]["separability"], quality.separability)
        selected = self.get_output(self.widget.Outputs.selected_data)
        self.assertTrue(set(var.name for var in selected.domain.attributes)
                        <= {"a1", "a2", "a3", "a4", "a5", "a6"})
        # removing the data clears everything
        self.send_signal(self.widget.Inputs.data, None)
        self.assertIsNone(self.evaluation())
        self.assertIsNone(self.get_output(self.widget.Outputs.selected_data))

    def test_ticked_important_features(self):
        self.send(self.data, [self.relieff])
        weights = self.relieff(self.data)
        widget = self.widget
        view = widget.important_view
        self.assertFalse(view.isEnabled())           # from the data: read only
        widget.controls.important_source.buttons[1].click()
        self.assertTrue(view.isEnabled())
        model = widget.important_model
        names = [model.item(row).text() for row in range(model.rowCount())]
        # the ticks start from the features marked relevant
        self.assertEqual([model.item(row).checkState() == Qt.Checked
                          for row in range(len(names))],
                         [name in ("A0", "A1", "B0", "B1") for name in names])
        # tick Correlated as well: measures change, no recomputation
        model.item(names.index("Correlated")).setCheckState(Qt.Checked)
        self.assertIsNone(widget.task)
        mask = np.array([name in ("A0", "A1", "B0", "B1", "Correlated")
                         for name in names])
        quality = weight_quality(weights, mask)
        table = self.evaluation()
        for measure in MEASURES:
            self.assertAlmostEqual(table[0][measure], getattr(quality, measure))
        # untick everything: no measures, a warning, curves still there
        for row in range(model.rowCount()):
            model.item(row).setCheckState(Qt.Unchecked)
        self.assertTrue(widget.Warning.no_important.is_shown())
        table = self.evaluation()
        self.assertTrue(np.isnan(table[0]["separability"]))
        self.assertFalse(np.isnan(table[0]["best accuracy"]))

    def test_no_relevant_marks_warns(self):
        data = Table("zoo")[::4]
        self.send(data, [score.InfoGain()])
        self.assertTrue(self.widget.Warning.no_important.is_shown())
        self.assertIsNotNone(self.evaluation())

    def test_errors_and_information(self):
        self.send(self.data)
        self.assertTrue(self.widget.Information.no_scorers.is_shown())
        self.assertIsNone(self.evaluation())
        self.send(Table("housing")[:40], [self.relieff])
        self.assertTrue(self.widget.Error.not_categorical.is_shown())
        self.assertIsNone(self.evaluation())
        self.send(self.data[:2], [self.relieff])
        self.assertTrue(self.widget.Error.too_few_rows.is_shown())
        self.send(self.data, [self.relieff])
        self.assertFalse(self.widget.Error.too_few_rows.is_shown())
        self.assertFalse(self.widget.Error.not_categorical.is_shown())
        self.assertIsNotNone(self.evaluation())

    def test_failing_scorer_is_reported_and_skipped(self):
        self.send(self.data, [FailingScorer(), self.relieff])
        self.assertTrue(self.widget.Warning.scorer_failed.is_shown())
        self.assertIn("Broken", str(self.widget.Warning.scorer_failed))
        self.assertEqual(list(self.evaluation().metas[:, 0]), ["ReliefF (k=5)"])

    def test_scorer_removed(self):
        self.send(self.data, [self.relieff, score.InfoGain()])
        self.send_signal(self.widget.Inputs.scorers, None, 0)   # filtered: removed
        self.wait_until_finished(timeout=60000)
        self.assertEqual(list(self.evaluation().metas[:, 0]), ["InfoGain"])

    def test_learner_input(self):
        learner = NaiveBayesLearner()
        self.send(self.data, [self.relieff], learner=learner)
        expected = wrapper_curve(self.data, [self.relieff], learner=learner, folds=3)
        self.assertAlmostEqual(self.evaluation()[0]["best accuracy"],
                               expected[0].best_accuracy)
        self.assertIn("naive bayes", self.widget.learner_label.text().lower())

    def test_settings_round_trip(self):
        widget = self.widget
        self.send(self.data, [self.relieff])
        widget.protocol, widget.folds, widget.random_state = 1, 4, 7
        widget.controls.important_source.buttons[1].click()
        widget.important_model.item(5).setCheckState(Qt.Checked)   # Correlated
        settings = widget.settingsHandler.pack_data(widget)
        clone = self.create_widget(OWReliefEvaluation, stored_settings=settings)
        self.send_signal(clone.Inputs.data, self.data, widget=clone)
        self.assertEqual((clone.protocol, clone.folds, clone.random_state), (1, 4, 7))
        self.assertEqual(clone.important_source, clone.Ticked)
        self.assertEqual(sorted(var.name for var, on in clone.ticked.items() if on),
                         ["A0", "A1", "B0", "B1", "Correlated"])
        mask = clone.important_mask()
        self.assertEqual(mask.tolist(), [True] * 4 + [False, True])

    def test_context_without_relevant_features(self):
        # a domain without relevant marks stores an empty tick list and comes back
        zoo = Table("zoo")[::4]
        self.send(zoo, [score.InfoGain()])
        self.assertFalse(any(self.widget.ticked.values()))
        self.send(self.data)
        self.assertEqual(sum(self.widget.ticked.values()), 4)
        self.send(zoo)
        self.assertFalse(any(self.widget.ticked.values()))
        self.assertTrue(self.widget.Warning.no_important.is_shown())

    def test_failing_learner_is_an_error(self):
        class BrokenLearner(NaiveBayesLearner):
            def fit_storage(self, data):
                raise RuntimeError("cannot fit")

        self.send(self.data, [self.relieff], learner=BrokenLearner())
        self.assertTrue(self.widget.Error.compute_failed.is_shown())
        self.assertIn("cannot fit", str(self.widget.Error.compute_failed))
        self.assertIsNone(self.evaluation())
        self.send_signal(self.widget.Inputs.learner, None)
        self.wait_until_finished(timeout=60000)
        self.assertFalse(self.widget.Error.compute_failed.is_shown())
        self.assertIsNotNone(self.evaluation())

    def test_report(self):
        self.widget.send_report()
        self.send(self.data, [self.relieff])
        self.widget.send_report()

    def test_screenshot(self):
        widget = self.widget
        self.send(datasets.corral(160), [ReliefF(k_nearest=5), DReliefF(k_nearest=5),
                                         score.InfoGain()])
        widget.resize(1000, 640)
        widget.show()
        self.process_events()
        os.makedirs(IMAGES, exist_ok=True)
        self.assertTrue(widget.grab().save(os.path.join(IMAGES, "ReliefEvaluation.png")))
