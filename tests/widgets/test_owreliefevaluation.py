"""Tests of the Relief Evaluation widget (Orange WidgetTest)."""
# pylint: disable=missing-docstring,protected-access
import os
from types import SimpleNamespace

import numpy as np

from AnyQt.QtCore import Qt
from AnyQt.QtTest import QTest
from AnyQt.QtWidgets import QAbstractSpinBox, QStyleOptionViewItem

from Orange.classification import NaiveBayesLearner
from Orange.data import Domain, Table
from Orange.preprocess import score
from Orange.widgets.settings import Context
from Orange.widgets.tests import base as widget_tests

from orangecontrib.relief import DReliefF, PDReliefF, ReliefF
from orangecontrib.relief import datasets
from orangecontrib.relief.evaluation import weight_quality, wrapper_curve
from orangecontrib.relief.widgets.owreliefevaluation import (
    OWReliefEvaluation, ScorerWeights, WrapperPlot)

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

    @staticmethod
    def type_and_enter(spin, value):
        """Type `value` into `spin`'s line edit and press Enter, as a user does."""
        spin.setFocus()
        edit = spin.lineEdit()
        edit.selectAll()
        QTest.keyClicks(edit, str(value))
        QTest.keyClick(edit, Qt.Key_Enter)

    def test_enter_in_a_spin_box_applies_and_never_cancels(self):
        # issue 30: Enter in a spin box clicked an auto-default button; with the
        # window first shown while Recompute had the focus, Qt made Cancel the
        # default, and Enter cancelled the run the new value had started
        widget = self.widget
        widget.recompute_button.setFocus()
        widget.show()
        self.send(self.data, [self.relieff])
        clicked = []
        for button in (widget.recompute_button, widget.cancel_button):
            button.clicked.connect(lambda _=False, b=button: clicked.append(b.text()))
        self.assertEqual({widget.controls.folds, widget.controls.random_state},
                         set(widget.findChildren(QAbstractSpinBox)))    # every one
        for auto_apply, name, value in ((True, "folds", 4), (True, "random_state", 7),
                                        (False, "folds", 5), (False, "random_state", 8)):
            with self.subTest(name=name, auto_apply=auto_apply):
                widget.controls.auto_apply.setChecked(auto_apply)
                clicked.clear()
                self.type_and_enter(getattr(widget.controls, name), value)
                self.assertEqual(getattr(widget, name), value)
                self.assertEqual(clicked, [])
                self.assertIsNotNone(widget.task)
                self.wait_until_finished(timeout=60000)
                self.assertFalse(widget.Information.cancelled.is_shown())
                self.assertEqual(widget.model.rowCount(), 1)
                expected = wrapper_curve(self.data, [self.relieff], folds=widget.folds,
                                         random_state=widget.random_state)
                np.testing.assert_allclose(widget.result.curves[0].mean_accuracy,
                                           expected[0].mean_accuracy)
                if auto_apply:
                    self.assertIsNotNone(self.evaluation())
        self.assertIn("5-fold", widget.plotview.plot.titleLabel.text)

    def test_measures_and_curves_equal_the_library(self):
        scorers = [self.relieff, score.InfoGain()]
        self.send(self.data, scorers)
        table = self.evaluation()
        self.assertEqual(list(table.metas[:, 0]), [self.relieff.name, "InfoGain"])
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

    def test_measure_columns_are_named_and_explained(self):
        """The table names the four measures (its headers were a bare s, u, m
        and c) and each header's tooltip says what its measure is, in the
        words and formulas of the seed paper."""
        self.send(self.data, [self.relieff])
        model = self.widget.model
        headers = [model.headerData(i, Qt.Horizontal, Qt.DisplayRole)
                   for i in range(model.columnCount())]
        self.assertEqual(headers, ["Scorer", "Separability", "Usability",
                                   "Minimality", "Completeness", "Best size",
                                   "Best accuracy", "Ranking"])
        explained = {
            "Separability": ("W<sub>I, worst</sub> − W<sub>R, best</sub>",
                             "every important feature is weighted above every "
                             "unimportant one"),
            "Usability": ("W<sub>I, best</sub> − W<sub>R, best</sub>",
                          "the best important feature is weighted above every "
                          "unimportant one"),
            "Minimality": ("m = |I| / |M|", "the smallest set of top-weighted "
                                           "features that contains all of them"),
            "Completeness": ("c = |C| / |I|", "stopping before the first "
                                             "unimportant one")}
        for column, header in enumerate(headers):
            tooltip = model.headerData(column, Qt.Horizontal, Qt.ToolTipRole)
            if column:
                self.assertTrue(tooltip, header)
            if header in explained:
                formula, meaning = explained[header]
                self.assertIn(f"<b>{header}</b>", tooltip)
                self.assertIn(formula, tooltip)
                self.assertIn(meaning, tooltip)

    def test_nothing_is_cut_at_the_default_size(self):
        """At the widget's default size, with the help page's example (CorrAl,
        four scorers), the table shows every row and column, every header and
        cell whole; the ranking wraps over whole lines. The ranking was cut
        ('B0 > B1 > A0 > A1 >...') and the fourth scorer hidden under the plot."""
        widget = self.widget
        self.send(datasets.corral(160),
                  [ReliefF(k_nearest=5), DReliefF(k_nearest=5),
                   PDReliefF(k_nearest=5), score.InfoGain()])
        widget.show()
        for _ in range(3):
            self.process_events()
        view, model = widget.view, widget.model
        header = view.horizontalHeader()
        self.assertEqual(model.rowCount(), 4)
        self.assertFalse(view.horizontalScrollBar().isVisible())
        self.assertFalse(view.verticalScrollBar().isVisible())
        self.assertLessEqual(view.verticalHeader().length(),
                             view.viewport().height())
        delegate = view.itemDelegate()
        for column in range(model.columnCount()):
            name = model.headerData(column, Qt.Horizontal, Qt.DisplayRole)
            self.assertGreaterEqual(header.sectionSize(column),
                                    header.sectionSizeHint(column), name)
            for row in range(model.rowCount()):
                index = model.index(row, column)
                option = QStyleOptionViewItem()
                view.initViewItemOption(option)
                option.rect = view.visualRect(index)
                needed = delegate.sizeHint(option, index)
                self.assertLessEqual(needed.width(), option.rect.width(),
                                     (name, model.data(index)))
                self.assertLessEqual(needed.height(), option.rect.height(),
                                     (name, model.data(index)))

    def test_long_ranking_names_the_top_features(self):
        """With many features the Ranking cell names the top ones and says
        how many more there are; its tooltip lists them all with weights."""
        data = datasets.modulo(2, 2, 20, 60, random_state=0)
        self.send(data, [self.relieff])
        model = self.widget.model
        cell = model.data(model.index(0, 7))
        ranking = self.widget.ranking(self.widget.result.weights[0],
                                      [var.name for var in data.domain.attributes])
        self.assertEqual(cell, " > ".join(ranking[:12]) + " > … (10 more)")
        tooltip = model.data(model.index(0, 7), Qt.ToolTipRole)
        self.assertIn(f"22. {ranking[-1]} (", tooltip)

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
        self.assertEqual(list(self.evaluation().metas[:, 0]), [self.relieff.name])

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

    def test_new_data_refreshes_the_feature_list(self):
        # issue 30: Reduced Data (4 features), then the whole table (6): the list
        # kept showing 4 rows until a box was ticked
        widget = self.widget
        widget.show()
        widget.controls.important_source.buttons[1].click()
        domain = self.data.domain
        names = ["A0", "A1", "Correlated", "Irrelevant"]
        reduced = self.data.transform(
            Domain([domain[name] for name in names], domain.class_vars))
        view, model = widget.important_view, widget.important_model
        for data in (reduced, self.data, reduced):
            self.send_signal(widget.Inputs.data, data)
            self.process_events()
            attributes = [var.name for var in data.domain.attributes]
            self.assertEqual([model.item(row).text() for row in range(model.rowCount())],
                             attributes)
            for row in range(model.rowCount()):     # the view shows every row
                rect = view.visualRect(model.index(row, 0))
                self.assertTrue(rect.isValid(), attributes[row])
                self.assertEqual(view.indexAt(rect.center()).row(), row)
            # features the earlier (smaller) data did not have start from the
            # data's marks: B0 and B1 are ticked
            self.assertEqual(
                [model.item(row).checkState() == Qt.Checked
                 for row in range(model.rowCount())],
                [name in ("A0", "A1", "B0", "B1") for name in attributes])
            self.assertEqual(widget.important_mask().tolist(),
                             [name in ("A0", "A1", "B0", "B1") for name in attributes])

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

    def test_legend_is_outside_the_data_area(self):
        # issue 30: the legend covered the curves
        widget = self.widget
        self.send(datasets.corral(160), [ReliefF(k_nearest=5), DReliefF(k_nearest=5),
                                         score.InfoGain()])
        plotview = widget.plotview
        for width, height in ((900, 640), (620, 480)):
            widget.resize(width, height)
            widget.show()
            self.process_events()
            legend = plotview.legend
            self.assertEqual(len(legend.items), 3)
            legend_rect = legend.sceneBoundingRect()
            self.assertFalse(legend_rect.intersects(
                plotview.plot.getViewBox().sceneBoundingRect()))
            # and it is on the view, not pushed out of sight
            self.assertTrue(plotview.sceneRect().contains(legend_rect))
            for item in plotview.curves:
                self.assertFalse(legend_rect.intersects(item.sceneBoundingRect()))
        # a new result replaces the legend; no data removes it
        self.send(self.data)
        legends = [item for item in plotview.scene().items()
                   if isinstance(item, type(plotview.legend))]
        self.assertEqual(legends, [plotview.legend])
        self.send_signal(widget.Inputs.data, None)
        self.assertIsNone(plotview.legend)
        self.assertFalse(any(isinstance(item, type(legends[0]))
                             for item in plotview.scene().items()))

    def test_axis_titles_are_whole_without_results(self):
        """With no results (no legend under the plot) the axis titles are
        whole: the descenders of 'Number of features (in decreasing weight)'
        were cut at the bottom of the view."""
        widget = self.widget
        widget.show()
        self.process_events()
        plotview = widget.plotview
        visible = plotview.mapToScene(plotview.viewport().rect()).boundingRect()
        for position in ("bottom", "left"):
            label = plotview.plot.getAxis(position).label
            margin = label.document().documentMargin()   # around the text
            rect = label.mapRectToScene(label.boundingRect().adjusted(
                margin, margin, -margin, -margin))
            self.assertTrue(visible.contains(rect), (position, rect, visible))

    def test_number_of_features_axis_has_whole_ticks(self):
        # issue 30: with two or three features the axis showed 1.5 and 2.5
        def tick_values(plotview):
            axis = plotview.plot.getAxis("bottom")
            levels = axis.tickValues(*axis.range, axis.geometry().width())
            return [value for _, values in levels for value in values]

        plotview = WrapperPlot()
        for n_features in (2, 3, 7, 40, 250):
            sizes = np.arange(1, n_features + 1)
            accuracy = np.linspace(0.6, 0.9, n_features)
            curve = SimpleNamespace(
                scorer="ReliefF", sizes=sizes, mean_accuracy=accuracy,
                std_accuracy=np.full(n_features, 0.02), best_size=n_features,
                best_accuracy=accuracy[-1])
            plotview.set_curves([curve], "title")
            for width in (260, 1200):
                with self.subTest(n_features=n_features, width=width):
                    plotview.resize(width, 400)
                    plotview.show()
                    self.process_events()
                    values = tick_values(plotview)
                    self.assertGreaterEqual(len(values), 2)
                    self.assertTrue(all(float(v).is_integer() for v in values), values)
        plotview.close()
        # the widget's own plot on a table of three features
        widget = self.widget
        domain = self.data.domain
        self.send(self.data.transform(Domain(domain.attributes[:3], domain.class_vars)),
                  [self.relieff])
        widget.show()
        self.process_events()
        values = tick_values(widget.plotview)
        self.assertEqual(sorted(set(values)), [1, 2, 3])

    def test_report(self):
        widget = self.widget
        widget.create_report_html()                 # no data: the settings only
        self.assertIn("Folds", widget.report_html)
        self.assertNotIn("Best subsets", widget.report_html)
        widget.random_state = 13
        self.send(self.data, [self.relieff, score.InfoGain()])
        widget.create_report_html()
        html = widget.report_html
        for text in ("Honest", "Folds", "Seed of the folds", "13",
                     "1-nearest neighbour", f"best subset of {self.relieff.name}",
                     "A0, A1, B0, B1",                # the important features
                     "Best subsets", "InfoGain", "<img"):
            self.assertIn(text.lower(), html.lower())
        # every scorer's best subset: its top features, as many as its best size
        names = [var.name for var in self.data.domain.attributes]
        for name, weights, curve in zip(widget.result.names, widget.result.weights,
                                        widget.result.curves):
            top = widget.ranking(weights, names)[:curve.best_size]
            self.assertIn(f"accuracy {curve.best_accuracy:.3f} with {curve.best_size}: "
                          f"{', '.join(top)}", html)

    def test_settings_of_version_1_load(self):
        # as a workflow saved by the first version stores them
        context = Context(
            values={"ticked": ({("A0", 101): True, ("A1", 101): False,
                                ("B0", 101): True, ("B1", 101): True,
                                ("Irrelevant", 101): False,
                                ("Correlated", 101): True}, -4),
                    "__version__": 1},
            attributes={"A0": 1, "A1": 1, "B0": 1, "B1": 1, "Irrelevant": 1,
                        "Correlated": 1, "class": 1},
            metas={})
        settings = {"auto_apply": False, "folds": 4, "important_source": 1,
                    "protocol": 1, "random_state": 7, "selected_scorer": 1,
                    "__version__": 1, "context_settings": [context]}
        widget = self.create_widget(OWReliefEvaluation, stored_settings=settings)
        self.send_signal(widget.Inputs.data, self.data, widget=widget)
        self.assertEqual((widget.folds, widget.protocol, widget.random_state,
                          widget.selected_scorer, widget.auto_apply), (4, 1, 7, 1, False))
        self.assertEqual(widget.important_source, widget.Ticked)
        self.assertEqual(widget.important_mask().tolist(),
                         [True, False, True, True, False, True])


    def test_screenshot(self):
        widget = self.widget
        self.send(datasets.corral(160), [ReliefF(k_nearest=5), DReliefF(k_nearest=5),
                                         score.InfoGain()])
        widget.show()    # at its default size
        self.process_events()
        os.makedirs(IMAGES, exist_ok=True)
        self.assertTrue(widget.grab().save(os.path.join(IMAGES, "ReliefEvaluation.png")))
