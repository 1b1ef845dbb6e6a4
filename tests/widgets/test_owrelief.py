"""Tests of the ReliefF, dReliefF and pdReliefF widgets (Orange WidgetTest)."""
# pylint: disable=missing-docstring,protected-access
import io
import os
import threading
import unittest
import warnings
from types import SimpleNamespace
from unittest.mock import patch

import numpy as np
import scipy.sparse as sp

from AnyQt.QtCore import QRect, Qt
from AnyQt.QtGui import QFont, QFontMetricsF
from AnyQt.QtTest import QTest
from AnyQt.QtWidgets import (QAbstractScrollArea, QAbstractSpinBox, QStyle,
                             QStyleOptionHeader)

from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.evaluation import CrossValidation
from Orange.modelling import KNNLearner
from Orange.widgets.data.owrank import OWRank
from Orange.widgets.tests import base as widget_tests

from orangecontrib.relief import scoring
from orangecontrib.relief.core.backends.cuda import backend as cuda
from orangecontrib.relief.core.rules import RULES
from orangecontrib.relief.scoring import (DReliefF, PDReliefF, ReliefF,
                                         SelectSignificant)
from orangecontrib.relief.widgets.owdrelieff import OWDReliefF
from orangecontrib.relief.widgets.owpdrelieff import OWPDReliefF
from orangecontrib.relief.widgets import owreliefbase
from orangecontrib.relief.widgets.owreliefbase import OWReliefBase
from orangecontrib.relief.widgets.owrelieff import OWReliefF

from devices import recording_engine    # (tests/, on the path: conftest)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
IMAGES = os.path.join(ROOT, "doc", "widgets", "images")


def small_iris():
    return Table("iris")[::3]          # 50 instances, 3 classes


def random_table(seed, n_rows=3000, n_features=40):
    """A table large enough that scoring it takes a moment."""
    rng = np.random.default_rng(seed)
    domain = Domain([ContinuousVariable(f"x{i}") for i in range(n_features)],
                    DiscreteVariable("y", values=("a", "b")))
    return Table.from_numpy(domain, rng.random((n_rows, n_features)),
                            rng.integers(0, 2, n_rows))


def small_housing():
    return Table("housing")[:60]       # numeric target


def assert_controls_fit(test, widget):
    """At its size, ``widget``'s control area needs no scrollbar, with 30
    pixels to spare."""
    widget.show()
    test.process_events()
    area = widget.controlArea
    while not isinstance(area, QAbstractScrollArea):
        area = area.parentWidget()
    test.assertFalse(area.verticalScrollBar().isVisible())
    test.assertLessEqual(widget.controlArea.sizeHint().height() + 30,
                         area.viewport().height())
    widget.hide()


class ReliefWidgetTests:
    """Tests shared by the three widgets; subclasses set WIDGET and SCORER."""
    WIDGET = OWReliefBase
    SCORER = ReliefF
    IMAGE = None

    def setUp(self):
        self.widget = self.create_widget(self.WIDGET)
        self.data = small_iris()

    def send_and_wait(self, data, widget=None):
        widget = widget or self.widget
        self.send_signal(widget.Inputs.data, data, widget=widget)
        self.wait_until_finished(widget=widget, timeout=60000)

    def weights_out(self, widget=None):
        scores = self.get_output(self.widget.Outputs.scores, widget=widget)
        return None if scores is None else scores.X[:, 0]

    # --- outputs ---------------------------------------------------------
    def test_scorer_output_without_data(self):
        scorer = self.get_output(self.widget.Outputs.scorer)
        self.assertIsInstance(scorer, self.SCORER)
        self.assertEqual(scorer.k_nearest, 10)
        self.assertIsNone(scorer.n_iterations)
        preprocessor = self.get_output(self.widget.Outputs.preprocessor)
        self.assertIsNotNone(preprocessor)
        self.assertIsNone(self.get_output(self.widget.Outputs.scores))
        self.assertIsNone(self.get_output(self.widget.Outputs.reduced_data))

    def test_defaults_equal_script(self):
        self.send_and_wait(self.data)
        expected = self.SCORER()(self.data)
        np.testing.assert_allclose(self.weights_out(), expected, rtol=1e-12)
        scores = self.get_output(self.widget.Outputs.scores)
        self.assertEqual([str(x) for x in scores.metas[:, 0]],
                         [a.name for a in self.data.domain.attributes])
        self.assertEqual(scores.domain.attributes[0].name, self.widget.name)
        # the view shows the same weights, sorted decreasingly
        model = self.widget.model
        shown = [model.data(model.index(row, 1), Qt.EditRole)
                 for row in range(model.rowCount())]
        np.testing.assert_allclose(shown, np.sort(expected)[::-1])
        # reduced data: the top 5 (here: all 4) features by weight
        reduced = self.get_output(self.widget.Outputs.reduced_data)
        order = np.argsort(-expected, kind="stable")
        self.assertEqual([a.name for a in reduced.domain.attributes],
                         [self.data.domain.attributes[i].name for i in order])
        self.assertEqual(reduced.domain.class_var, self.data.domain.class_var)

    def test_changing_control_changes_output(self):
        self.send_and_wait(self.data)
        before = self.weights_out()
        self.widget.controls.k_nearest.setValue(3)
        self.wait_until_finished(timeout=60000)
        after = self.weights_out()
        self.assertFalse(np.allclose(before, after))
        np.testing.assert_allclose(after, self.SCORER(k_nearest=3)(self.data),
                                   rtol=1e-12)
        self.assertEqual(self.get_output(self.widget.Outputs.scorer).k_nearest, 3)

    def test_sampling_controls(self):
        self.send_and_wait(self.data)
        self.widget.controls.n_iterations.setValue(20)  # also selects sampling
        self.wait_until_finished(timeout=60000)
        self.assertTrue(self.widget.sample_instances)
        scorer = self.get_output(self.widget.Outputs.scorer)
        self.assertEqual(scorer.n_iterations, 20)
        self.assertEqual(self.widget.result.n_iterations, 20)
        expected = self.SCORER(n_iterations=20)(self.data)
        np.testing.assert_allclose(self.weights_out(), expected, rtol=1e-12)
        self.widget.controls.random_state.setValue(5)
        self.wait_until_finished(timeout=60000)
        np.testing.assert_allclose(
            self.weights_out(),
            self.SCORER(n_iterations=20, random_state=5)(self.data), rtol=1e-12)

    def test_sample_larger_than_data(self):
        self.widget.sample_instances = True
        self.widget.n_iterations = 1000
        self.send_and_wait(self.data)
        self.assertTrue(self.widget.Warning.sample_too_large.is_shown())
        self.assertEqual(self.widget.result.n_iterations, len(self.data))
        # the Scorer output keeps the requested sample size
        self.assertEqual(self.get_output(self.widget.Outputs.scorer).n_iterations,
                         1000)

    def test_distance_weighting_and_misses(self):
        self.send_and_wait(self.data)
        self.widget.controls.weight_by_distance.setChecked(True)
        self.widget.controls.sigma.setValue(1.5)
        self.wait_until_finished(timeout=60000)
        scorer = self.get_output(self.widget.Outputs.scorer)
        self.assertTrue(scorer.weight_by_distance)
        self.assertEqual(scorer.sigma, 1.5)
        np.testing.assert_allclose(
            self.weights_out(),
            self.SCORER(weight_by_distance=True, sigma=1.5)(self.data),
            rtol=1e-12)
        self.widget.controls.misses_any.setCurrentIndex(1)
        self.widget.controls.misses_any.activated.emit(1)
        self.wait_until_finished(timeout=60000)
        self.assertEqual(self.get_output(self.widget.Outputs.scorer).misses, "any")
        np.testing.assert_allclose(
            self.weights_out(),
            self.SCORER(weight_by_distance=True, sigma=1.5, misses="any")(
                self.data), rtol=1e-12)

    def test_auto_apply_off(self):
        self.send_and_wait(self.data)
        self.widget.auto_apply = False
        self.widget.controls.k_nearest.setValue(4)
        self.assertEqual(self.get_output(self.widget.Outputs.scorer).k_nearest, 10)
        self.widget.commit.now()
        self.wait_until_finished(timeout=60000)
        self.assertEqual(self.get_output(self.widget.Outputs.scorer).k_nearest, 4)

    def test_top_percent_selection(self):
        data = Table("zoo")[::4]
        self.send_and_wait(data)
        weights = self.weights_out()
        self.widget.controls.percent_selected.setValue(25)  # selects top %
        self.assertEqual(self.widget.select_percent, 1)
        reduced = self.get_output(self.widget.Outputs.reduced_data)
        n_attrs = len(data.domain.attributes)
        k = int(round(0.25 * n_attrs))
        self.assertEqual(len(reduced.domain.attributes), k)
        top = {data.domain.attributes[i].name
               for i in np.argsort(-weights, kind="stable")[:k]}
        self.assertEqual({a.name for a in reduced.domain.attributes}, top)
        pp = self.get_output(self.widget.Outputs.preprocessor)
        self.assertEqual(pp.preprocessors[0].k, 0.25)
        self.widget.controls.n_selected.setValue(2)  # back to top N
        self.assertEqual(self.widget.select_percent, 0)
        reduced = self.get_output(self.widget.Outputs.reduced_data)
        self.assertEqual(len(reduced.domain.attributes), 2)
        self.assertEqual(self.get_output(self.widget.Outputs.preprocessor)
                         .preprocessors[0].k, 2)

    def test_preprocessor_in_cross_validation(self):
        # Test & Score passes its Preprocessor input to the sampler, which
        # applies it to the training part of each fold
        data = Table("zoo")[::2]
        self.widget.controls.n_selected.setValue(3)
        self.widget.controls.k_nearest.setValue(3)
        pp = self.get_output(self.widget.Outputs.preprocessor)
        res = CrossValidation(k=3, store_models=True)(
            data, [KNNLearner()], preprocessor=pp)
        self.assertFalse(any(res.failed))
        self.assertEqual(len(res.models), 3)
        for fold, (model,) in zip(res.folds, res.models):
            self.assertEqual(len(model.original_domain.attributes), 3)
            # the selection inside the fold is the fold's own top 3
            test_rows = res.row_indices[fold]
            train = data[np.setdiff1d(np.arange(len(data)), test_rows)]
            weights = dict(zip((a.name for a in train.domain.attributes),
                               self.SCORER(k_nearest=3)(train)))
            chosen = {a.name for a in model.original_domain.attributes}
            self.assertGreaterEqual(
                min(weights[name] for name in chosen),
                max(w for name, w in weights.items() if name not in chosen)
                - 1e-12)
        self.assertGreater(np.mean(res.predicted[0] == res.actual), 0.5)

    #: every spin box's setting, and a value to type into it
    TYPED = dict(k_nearest="7", sigma="1.5", n_iterations="20",
                 random_state="3", T="1.25", n_permutations="19",
                 n_resamples="3", n_selected="2", percent_selected="30",
                 alpha="0.1", n_plotted="3")

    def test_enter_in_a_spin_box_applies(self):
        """Typing a value into any spin box and pressing Enter applies it;
        Enter never presses Cancel (an OWWidget is a QDialog: Enter presses
        its default button, and the run that Enter starts enables Cancel)."""
        w = self.widget
        # every spin box enabled: its checkbox ticked, a permutation test
        for name in ("weight_by_distance", "stability_on") + \
                (("custom_T",) if w.HAS_T else ()):
            getattr(w.controls, name).setChecked(True)
        w.significance_test, w.n_permutations, w.n_resamples = \
            "permutation", 9, 2
        w._update_cost_label()
        spins = w.findChildren(QAbstractSpinBox)
        names = [name for name in self.TYPED
                 if getattr(w.controls, name, None) in spins]
        self.assertEqual(len(names), len(spins))
        w.show()
        self.send_and_wait(self.data)
        for name in names:
            spin = getattr(w.controls, name)
            self.assertTrue(spin.isEnabled(), name)
            spin.setFocus()
            spin.lineEdit().selectAll()
            QTest.keyClicks(spin, self.TYPED[name])
            QTest.keyClick(spin, Qt.Key_Enter)
            self.wait_until_finished(timeout=60000)
            self.assertFalse(w.Information.cancelled.is_shown(), name)
            self.assertAlmostEqual(getattr(w, name), float(self.TYPED[name]),
                                   msg=name)
            self.assertIsNotNone(w.result, name)
            self.assertEqual(w._result_key, w._computation_key(), name)
            np.testing.assert_allclose(
                self.weights_out(), w.create_scorer(len(self.data))(self.data),
                rtol=1e-12, err_msg=name)
        self.assertEqual(self.get_output(w.Outputs.scorer).k_nearest, 7)
        w.hide()

    def test_enter_applies_when_auto_apply_is_off(self):
        """Without auto-apply, Enter in a spin box presses Apply."""
        w = self.widget
        w.controls.auto_apply.setChecked(False)
        w.show()
        self.send_and_wait(self.data)
        spin = w.controls.k_nearest
        spin.setFocus()
        spin.lineEdit().selectAll()
        QTest.keyClicks(spin, "4")
        QTest.keyClick(spin, Qt.Key_Return)
        self.wait_until_finished(timeout=60000)
        w.hide()
        self.assertEqual(self.get_output(w.Outputs.scorer).k_nearest, 4)
        np.testing.assert_allclose(self.weights_out(),
                                   self.SCORER(k_nearest=4)(self.data),
                                   rtol=1e-12)

    # --- messages --------------------------------------------------------
    def test_regression_data(self):
        data = small_housing()
        self.send_and_wait(data)
        self.assertTrue(self.widget.Information.regression.is_shown())
        self.assertTrue(self.widget.result.regression)
        self.assertFalse(self.widget.misses_combo.isEnabled())  # no misses
        np.testing.assert_allclose(self.weights_out(), self.SCORER()(data),
                                   rtol=1e-12)
        self.send_and_wait(self.data)
        self.assertFalse(self.widget.Information.regression.is_shown())
        self.assertTrue(self.widget.misses_combo.isEnabled())

    def test_no_class(self):
        data = self.data.transform(Domain(self.data.domain.attributes))
        self.send_and_wait(data)
        self.assertTrue(self.widget.Error.no_class.is_shown())
        self.assertIsNone(self.get_output(self.widget.Outputs.scores))
        self.assertIsNotNone(self.get_output(self.widget.Outputs.scorer))
        self.send_signal(self.widget.Inputs.data, None)
        self.assertFalse(self.widget.Error.no_class.is_shown())

    def test_too_few_instances(self):
        self.send_and_wait(self.data[:1])
        self.assertTrue(self.widget.Error.too_few_instances.is_shown())
        self.assertIsNone(self.get_output(self.widget.Outputs.scores))
        self.send_and_wait(self.data)
        self.assertFalse(self.widget.Error.too_few_instances.is_shown())
        self.assertIsNotNone(self.get_output(self.widget.Outputs.scores))

    def test_k_larger_than_class(self):
        data = self.data[:24]  # 17 setosa, 7 versicolor
        self.send_and_wait(data)
        self.assertTrue(self.widget.Warning.k_larger_than_class.is_shown())
        self.assertIn("versicolor", str(self.widget.Warning.k_larger_than_class))
        self.widget.controls.k_nearest.setValue(5)
        self.wait_until_finished(timeout=60000)
        self.assertFalse(self.widget.Warning.k_larger_than_class.is_shown())

    def test_k_larger_than_class_compares_instance_weights(self):
        """With instance weights a class holds its total weight in copies:
        the warning compares k with it and says so."""
        data = self.data[:24].copy()  # 17 setosa, 7 versicolor
        with data.unlocked():
            data.W = np.full(len(data), 2.0)    # versicolor: weight 14
        self.send_and_wait(data)    # (k = 10: 7 rows, but weight 14)
        self.assertFalse(self.widget.Warning.k_larger_than_class.is_shown())
        self.widget.controls.k_nearest.setValue(14)
        self.wait_until_finished(timeout=60000)
        self.assertIn("the total instance weight 14 of class 'Iris-"
                      "versicolor'", str(self.widget.Warning.k_larger_than_class))
        self.widget.controls.k_nearest.setValue(13)
        self.wait_until_finished(timeout=60000)
        self.assertFalse(self.widget.Warning.k_larger_than_class.is_shown())

    def test_missing_values(self):
        data = self.data.copy()
        with data.unlocked():
            data.X[:3, 0] = np.nan
            data.Y[5] = np.nan
        self.send_and_wait(data)
        self.assertTrue(self.widget.Information.missing_values.is_shown())
        self.assertIn("3 missing", str(self.widget.Information.missing_values))
        self.assertTrue(self.widget.Information.missing_target.is_shown())
        self.assertIsNotNone(self.get_output(self.widget.Outputs.scores))
        self.assertFalse(self.widget.Error.active)

    def test_scorer_warning_is_shown(self):
        data = self.data[:16]  # setosa only: one class value
        self.send_and_wait(data)
        self.assertTrue(self.widget.Warning.scorer_warning.is_shown())
        self.assertIn("one class", str(self.widget.Warning.scorer_warning))
        np.testing.assert_array_equal(self.weights_out(), 0)
        self.send_and_wait(self.data)
        self.assertFalse(self.widget.Warning.scorer_warning.is_shown())

    def test_sparse_data(self):
        data = self.data.copy()
        with data.unlocked():
            data.X = sp.csr_matrix(data.X)
        self.send_and_wait(data)
        self.assertTrue(self.widget.Information.sparse_data.is_shown())
        np.testing.assert_allclose(self.weights_out(), self.SCORER()(self.data),
                                   rtol=1e-12)
        # the widget hands the sparse matrix to the engine as it is
        from orangecontrib.relief import scoring
        seen = []

        def spy(X, *args, **kwargs):
            seen.append(sp.issparse(X))
            return real(X, *args, **kwargs)
        real = scoring.relieff
        with patch.object(scoring, "relieff", spy):
            self.send_and_wait(data)
        self.assertEqual(seen, [True])

    def test_scorer_value_error_is_shown(self):
        self.send_and_wait(self.data)
        with patch.object(self.SCORER, "score_table",
                          side_effect=ValueError("bad input")):
            self.widget.controls.k_nearest.setValue(4)
            self.wait_until_finished(timeout=60000)
        self.assertTrue(self.widget.Error.compute_failed.is_shown())
        self.assertIsNone(self.get_output(self.widget.Outputs.scores))
        self.widget.controls.k_nearest.setValue(5)
        self.wait_until_finished(timeout=60000)
        self.assertFalse(self.widget.Error.compute_failed.is_shown())

    def test_weka_compat_setting(self):
        """The advanced setting gives Weka's numbers; Weka has no Relief-E,
        and its -M m >= n visits every instance (rows with an unknown
        target included), so m is not clipped to the known ones."""
        data = self.data.copy()
        with data.unlocked():
            data.Y[:2] = np.nan
        self.widget.misses_any = 1
        self.send_and_wait(data)
        self.widget.controls.weka_compat.setChecked(True)
        self.wait_until_finished(timeout=60000)
        scorer = self.get_output(self.widget.Outputs.scorer)
        self.assertEqual((scorer.compat, scorer.misses), ("weka", "per_class"))
        self.assertFalse(self.widget.misses_combo.isEnabled())
        np.testing.assert_array_equal(self.weights_out(),
                                      self.SCORER(compat="weka")(data))
        self.assertIn("not visited",
                      str(self.widget.Information.missing_target))
        self.widget.controls.n_iterations.setValue(49)
        self.wait_until_finished(timeout=60000)
        self.assertEqual(self.widget.result.n_iterations, 49)
        self.assertFalse(self.widget.Warning.sample_too_large.is_shown())
        np.testing.assert_array_equal(
            self.weights_out(),
            self.SCORER(compat="weka", n_iterations=49)(data))
        self.widget.controls.weka_compat.setChecked(False)
        self.wait_until_finished(timeout=60000)
        self.assertTrue(self.widget.misses_combo.isEnabled())
        self.assertIsNone(self.get_output(self.widget.Outputs.scorer).compat)

    def test_infinite_value_is_an_error_in_the_bar(self):
        """Orange's readers turn +-inf into missing values; a table changed
        in place can still hold one: the error names the feature."""
        data = self.data.copy()
        with data.unlocked():
            data.X[4, 1] = np.inf
        self.send_and_wait(data)
        self.assertTrue(self.widget.Error.compute_failed.is_shown())
        self.assertIn("'sepal width' (column 1) include +inf",
                      str(self.widget.Error.compute_failed))
        self.assertIsNone(self.get_output(self.widget.Outputs.scores))
        self.send_and_wait(self.data)
        self.assertFalse(self.widget.Error.compute_failed.is_shown())

    # --- background work -------------------------------------------------
    def test_cancel_leaves_no_output_and_no_error(self):
        big = random_table(0)
        self.send_signal(self.widget.Inputs.data, big)
        self.assertIsNotNone(self.widget.task)
        self.assertTrue(self.widget.cancel_button.isEnabled())
        self.widget.cancel_button.click()
        self.assertIsNone(self.widget.task)
        self.process_events()
        self.assertIsNone(self.get_output(self.widget.Outputs.scores))
        self.assertIsNone(self.get_output(self.widget.Outputs.reduced_data))
        self.assertFalse(self.widget.Error.active)
        self.assertTrue(self.widget.Information.cancelled.is_shown())
        self.assertFalse(self.widget.cancel_button.isEnabled())
        self.assertEqual(self.widget.model.rowCount(), 0)

    def test_new_input_cancels_running_task(self):
        big = random_table(1)
        self.send_signal(self.widget.Inputs.data, big)
        self.assertIsNotNone(self.widget.task)
        self.send_and_wait(self.data)
        np.testing.assert_allclose(self.weights_out(), self.SCORER()(self.data),
                                   rtol=1e-12)
        self.assertEqual(self.widget.model.rowCount(), 4)

    def test_first_use_says_what_happens(self):
        """On a first use (kernels not compiled), the widget's status says
        the fast kernels are being prepared; the result, from the vectorised
        path, equals the compiled one."""
        from orangecontrib.relief.core.backends import selection, warmup
        messages = []
        self.widget.statusMessageChanged.connect(messages.append)
        with patch.dict(os.environ, {"ORANGE3_RELIEF_KERNELS": "auto",
                                     "ORANGE3_RELIEF_WARMUP": "0"}), \
                patch.object(warmup, "is_compiled", return_value=False), \
                patch.object(selection, "_READY", set()):
            self.send_and_wait(self.data)
        self.assertTrue(any("first use" in m for m in messages), messages)
        np.testing.assert_allclose(self.weights_out(), self.SCORER()(self.data),
                                   rtol=0, atol=1e-12)

    def test_placing_the_widget_starts_compiling(self):
        """A fresh installation compiles its kernels from the moment the
        first widget is placed on the canvas, before data arrives."""
        from orangecontrib.relief.core.backends import warmup
        with patch.object(warmup, "start") as start:
            self.create_widget(self.widget.__class__)
        start.assert_called_once_with()

    # --- significance and stability -------------------------------------
    def test_permutation_columns_and_q_selection(self):
        w = self.widget
        w.significance_test, w.n_permutations = "permutation", 19
        w.stability_on, w.n_resamples = True, 4
        w.select_percent, w.alpha = 2, 0.2
        w._update_cost_label()
        self.assertEqual(w.cost_label.text(), "Costs 23 more runs.")
        self.send_and_wait(self.data)
        headers = [w.model.headerData(i, Qt.Horizontal)
                   for i in range(w.model.columnCount())]
        self.assertEqual(headers[:4], ["Feature", "Weight", "p", "q"])
        self.assertIn("Mean rank", headers)
        test = self.SCORER().significance(self.data, n_permutations=19)
        stability = self.SCORER().stability(self.data, n_resamples=4)
        scores = self.get_output(w.Outputs.scores)
        np.testing.assert_array_equal(scores.get_column("p"), test.p_values)
        np.testing.assert_array_equal(scores.get_column("q"), test.q_values)
        np.testing.assert_array_equal(scores.get_column("Mean rank"),
                                      stability.mean_rank)
        reduced = self.get_output(w.Outputs.reduced_data)
        expected = {a.name for a, q in zip(self.data.domain.attributes,
                                           test.q_values) if q < 0.2}
        self.assertEqual({a.name for a in reduced.domain.attributes},
                         expected)
        self.assertTrue(w.rankview.isVisibleTo(w))
        preprocessor = self.get_output(w.Outputs.preprocessor)
        self.assertIsInstance(preprocessor.preprocessors[0],
                              SelectSignificant)
        self.assertEqual(
            {a.name for a in preprocessor(self.data).domain.attributes},
            expected)

    def test_no_test_means_no_q_selection(self):
        w = self.widget
        w.select_percent = 2
        w.significance_test = ""
        w._update_cost_label()
        self.assertEqual(w.select_percent, 0)
        self.assertFalse(w.q_radio.isEnabled())
        self.assertEqual(w.cost_label.text(), "No test: weights only.")
        self.send_and_wait(self.data)
        self.assertEqual(self.get_output(w.Outputs.scores).domain.attributes
                         [1:], ())
        self.assertFalse(w.rankview.isVisibleTo(w))

    def test_unreachable_q_threshold_is_a_warning(self):
        """With R permutations no q falls below 1 / (R + 1): "q < α" with
        such an α selects nothing, and the widget says so (and why)."""
        w = self.widget
        w.significance_test, w.n_permutations = "permutation", 19
        w._update_cost_label()
        warning = w.Warning.unreachable_threshold
        self.assertFalse(warning.is_shown())    # top N: no threshold
        w.controls.alpha.setValue(0.04)         # selects q < α
        self.assertEqual(w.select_percent, 2)
        self.assertTrue(warning.is_shown())
        self.assertIn("19 permutations", str(warning))
        self.send_and_wait(self.data)
        self.assertTrue(warning.is_shown())
        self.assertIn("of the 4 features", str(warning))
        reduced = self.get_output(w.Outputs.reduced_data)
        self.assertEqual(reduced.domain.attributes, ())
        w.controls.n_permutations.setValue(99)
        self.assertFalse(warning.is_shown())
        w.controls.n_permutations.setValue(19)
        self.assertTrue(warning.is_shown())
        w.controls.n_selected.setValue(3)       # back to top N
        self.assertFalse(warning.is_shown())
        w.controls.alpha.setValue(0.03)   # q < α again
        self.assertTrue(warning.is_shown())
        w.controls.test_position.setCurrentIndex(0)      # no test
        w.controls.test_position.activated.emit(0)
        self.assertFalse(warning.is_shown())

    def test_progress_reported(self):
        values = []
        self.widget.progressBarValueChanged.connect(values.append)
        self.send_and_wait(self.data)
        self.assertIsNotNone(self.weights_out())
        self.assertTrue(any(0 < v <= 100 for v in values), values)
        self.assertEqual(values, sorted(values))

    # --- settings, report, plot ------------------------------------------
    def test_settings_round_trip_through_workflow(self):
        from orangecanvas.scheme import Scheme, SchemeNode, readwrite
        from orangecanvas.registry import WidgetDescription, WidgetRegistry
        w = self.widget
        w.controls.k_nearest.setValue(7)
        w.controls.n_iterations.setValue(33)
        w.controls.random_state.setValue(3)
        w.controls.weight_by_distance.setChecked(True)
        w.controls.sigma.setValue(4.5)
        w.controls.misses_any.setCurrentIndex(1)
        w.controls.misses_any.activated.emit(1)
        w.controls.percent_selected.setValue(30)
        w.controls.n_plotted.setValue(3)
        w.controls.weka_compat.setChecked(True)
        desc = WidgetDescription(**self.WIDGET.get_widget_description())
        registry = WidgetRegistry()
        registry.register_widget(desc)
        scheme = Scheme()
        node = SchemeNode(desc, title=self.WIDGET.name)
        node.properties = w.settingsHandler.pack_data(w)
        scheme.add_node(node)
        stream = io.BytesIO()
        readwrite.scheme_to_ows_stream(scheme, stream, pickle_fallback=True)
        stream.seek(0)
        loaded = Scheme()
        readwrite.scheme_load(loaded, stream, registry=registry)
        settings = loaded.nodes[0].properties
        self.assertEqual(settings["__version__"], self.WIDGET.settings_version)
        w2 = self.create_widget(self.WIDGET, stored_settings=settings)
        for name in ("k_nearest", "n_iterations", "sample_instances",
                     "random_state", "weight_by_distance", "sigma",
                     "misses_any", "select_percent", "percent_selected",
                     "n_plotted", "weka_compat"):
            self.assertEqual(getattr(w2, name), getattr(w, name), name)
        self.assertEqual(w2.scorer_params(), w.scorer_params())

    def test_send_report(self):
        self.widget.send_report()
        self.send_and_wait(self.data)
        self.widget.report_html = ""
        self.widget.send_report()
        html = self.widget.report_html
        self.assertIn("Neighbours k", html)
        best = self.data.domain.attributes[int(np.argmax(self.weights_out()))]
        self.assertIn(best.name, html)

    def test_report_names_the_rule(self):
        """The report states every setting the weights depend on, the
        neighbourhood rule included, and the top features."""
        w = self.widget
        index = w.rule_names.index("multisurf*")
        w.controls.rule_position.setCurrentIndex(index)
        w.controls.rule_position.activated.emit(index)
        self.send_and_wait(self.data)
        w.report_html = ""
        w.send_report()
        html = w.report_html
        self.assertIn("Neighbourhood rule", html)
        self.assertIn("MultiSURF*", html)
        self.assertIn("Top weights", html)
        best = self.data.domain.attributes[int(np.argmax(self.weights_out()))]
        self.assertIn(best.name, html)

    def test_settings_of_an_older_version_load(self):
        """Settings saved before settings were versioned (version 0) load
        through migrate_settings and give the same scorer; the rule and the
        test, saved then as menu positions, come back by name."""
        settings = dict(k_nearest=7, sample_instances=True, n_iterations=30,
                        random_state=2, rule_index=0, misses_any=1,
                        significance=2, n_permutations=19, select_percent=2,
                        alpha=0.2, n_plotted=3)
        with patch.object(self.WIDGET, "migrate_settings",
                          wraps=self.WIDGET.migrate_settings) as migrate:
            w = self.create_widget(self.WIDGET,
                                   stored_settings=dict(settings))
        self.assertEqual(migrate.call_args[0][1], 0)
        for name, value in settings.items():
            if name not in ("rule_index", "significance"):
                self.assertEqual(getattr(w, name), value, name)
        self.assertEqual((w.rule, w.significance_test), ("k", "permutation"))
        scorer = self.get_output(w.Outputs.scorer, widget=w)
        self.assertEqual((scorer.k_nearest, scorer.n_iterations,
                          scorer.random_state, scorer.misses),
                         (7, 30, 2, "any"))
        self.send_and_wait(self.data, widget=w)
        self.assertIsNotNone(self.get_output(w.Outputs.scores, widget=w))

    def test_version_1_positions_become_names(self):
        """Version 1 saved the rule and the test as positions in the menus
        (k, SURF, SURF*, MultiSURF, MultiSURF*; none, each feature, the
        class, STIR): each position loads as its name, and the menus show
        it, whatever order the registries list them in now."""
        for position, rule in enumerate(("k", "surf", "surf*", "multisurf",
                                         "multisurf*")):
            w = self.create_widget(self.WIDGET, stored_settings=dict(
                __version__=1, rule_index=position, significance=1))
            self.assertEqual(w.rule, rule)
            self.assertEqual(w.rule_combo.currentText(),
                             RULES[rule].display_name)
            self.assertEqual(w.significance_test, "feature_permutation")
            self.assertEqual(w.controls.test_position.currentText(),
                             "Permutation, each feature")
            scorer = self.get_output(w.Outputs.scorer, widget=w)
            self.assertEqual(scorer.neighbours, rule)
        w = self.create_widget(self.WIDGET, stored_settings=dict(
            __version__=1, rule_index=99, significance=-1))
        self.assertEqual((w.rule, w.significance_test), ("k", ""))

    def test_convergence_plot(self):
        self.send_and_wait(self.data)
        res = self.widget.result
        self.assertIsNotNone(res.trace)
        plot = self.widget.plotview
        self.assertEqual(len(plot.curves), 4)  # iris has 4 features < 5
        top = int(np.argmax(res.weights))
        x, y = plot.curves[0].getData()
        np.testing.assert_array_equal(x, res.trace_steps)
        np.testing.assert_allclose(y, res.trace[:, top])
        self.assertEqual(res.trace_steps[-1], len(self.data))
        np.testing.assert_allclose(res.trace[-1], res.weights, rtol=1e-9)
        self.widget.controls.n_plotted.setValue(2)
        self.assertEqual(len(plot.curves), 2)
        self.send_signal(self.widget.Inputs.data, None)
        self.assertEqual(plot.curves, [])

    def test_view_cleared_when_a_recompute_starts(self):
        """While a rerun with a new rule runs, the table and the plot do not
        show the previous rule's weights."""
        w = self.widget
        self.send_and_wait(self.data)
        self.assertEqual(w.model.rowCount(), 4)
        self.assertEqual(len(w.plotview.curves), 4)
        index = w.rule_names.index("multisurf")
        w.controls.rule_position.setCurrentIndex(index)
        w.controls.rule_position.activated.emit(index)
        self.assertIsNotNone(w.task)
        self.assertEqual(w.model.rowCount(), 0)
        self.assertEqual(w.plotview.curves, [])
        self.assertIsNone(w.result)
        self.wait_until_finished(timeout=60000)
        self.assertEqual(w.model.rowCount(), 4)
        self.assertEqual(len(w.plotview.curves), 4)

    def test_emptied_plots_have_fresh_axes(self):
        """A table without a class empties the plots and their axes too
        (not the last data's ranges)."""
        fresh = self.create_widget(self.WIDGET)
        fresh_ranges = [view.plot.getViewBox().viewRange()
                        for view in (fresh.plotview, fresh.rankview)]
        w = self.widget
        w.stability_on, w.n_resamples = True, 3
        w.show()
        self.send_and_wait(self.data)
        self.process_events()
        shown = w.plotview.plot.getViewBox().viewRange()
        self.assertGreater(shown[0][1], 40)     # 50 visited instances
        self.assertNotEqual(w.rankview.plot.getViewBox().viewRange(),
                            fresh_ranges[1])
        self.send_and_wait(self.data.transform(
            Domain(self.data.domain.attributes)))
        self.assertTrue(w.Error.no_class.is_shown())
        self.process_events()
        w.hide()
        for view, fresh_range in zip((w.plotview, w.rankview), fresh_ranges):
            np.testing.assert_allclose(view.plot.getViewBox().viewRange(),
                                       fresh_range)

    def test_legend_is_outside_the_data_area(self):
        """The convergence plot's legend covers no curve: it lies outside
        the plot's data area (the view box)."""
        w = self.widget
        self.send_and_wait(self.data)
        w.show()
        self.process_events()
        legend = w.plotview.legend
        self.assertEqual(len(legend.items), 4)
        box = w.plotview.plot.getViewBox().sceneBoundingRect()
        self.assertFalse(legend.sceneBoundingRect().intersects(box))
        self.assertTrue(w.plotview.sceneRect().contains(
            legend.sceneBoundingRect()))
        w.hide()

    def test_controls_fit_without_scrolling(self):
        """At the widget's default size the control area needs no
        scrollbar (pdReliefF's needed one), with room to spare."""
        self.send_and_wait(self.data)
        assert_controls_fit(self, self.widget)

    def test_screenshots(self):
        """Render the widget and its plot for the documentation."""
        if self.IMAGE is None:
            self.skipTest("no image name")
        os.makedirs(IMAGES, exist_ok=True)
        data = Table("heart_disease")[::2]
        self.widget.controls.n_plotted.setValue(5)
        # the significance box in use: p, q and rank columns, the rank plot;
        # the test chosen in its menu, as a user does (the menu shows it)
        combo = self.widget.controls.test_position
        combo.setCurrentIndex(
            self.widget.test_names.index("feature_permutation"))
        combo.activated.emit(combo.currentIndex())
        self.assertEqual(combo.currentText(), "Permutation, each feature")
        self.widget.n_permutations = 99
        self.widget.stability_on, self.widget.n_resamples = True, 10
        self.widget.select_percent = 2
        self.widget._update_cost_label()
        self.send_and_wait(data)
        self.widget.resize(1100, 890)   # (the "Skip redundant features" row fits)
        self.widget.show()
        self.process_events()
        path = os.path.join(IMAGES, self.IMAGE + ".png")
        self.assertTrue(self.widget.grab().save(path))
        plot_path = os.path.join(IMAGES, self.IMAGE + "-convergence.png")
        self.assertTrue(self.widget.plotview.grab().save(plot_path))
        self.widget.hide()
        self.assertGreater(os.path.getsize(path), 10000)


class TestRunKeepsOtherWarnings(unittest.TestCase):
    def test_warnings_of_other_threads_are_not_collected(self):
        """The background task collects the engine's own warnings only: a
        warning another widget issues on the GUI thread meanwhile reaches
        that thread's handler, not the Relief widget (issue 30: kNN's
        warning was shown by ReliefF)."""
        inside, go_on = threading.Event(), threading.Event()

        class Blocking(ReliefF):
            def score_table(self, *args, **kwargs):
                inside.set()
                self.assertion = go_on.wait(60)
                return super().score_table(*args, **kwargs)

        scorer = Blocking()             # k = 10 > the 7 versicolor
        state = SimpleNamespace(set_progress_value=lambda _: None,
                                set_status=lambda _: None,
                                is_interruption_requested=lambda: False)
        done = []
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            worker = threading.Thread(target=lambda: done.append(
                owreliefbase.run(small_iris()[:24], scorer, None, None,
                                 state)))
            worker.start()
            self.assertTrue(inside.wait(60))
            warnings.warn("someone else's warning", UserWarning)
            go_on.set()
            worker.join(60)
        self.assertTrue(scorer.assertion)
        out, = done
        self.assertNotIn("someone else's warning", out.warnings)
        self.assertEqual(len(out.warnings), 1, out.warnings)
        self.assertIn("Iris-versicolor", out.warnings[0])
        self.assertIn("someone else's warning",
                      [str(w.message) for w in caught])


class TestOWReliefF(ReliefWidgetTests, widget_tests.WidgetTest):
    WIDGET = OWReliefF
    SCORER = ReliefF
    IMAGE = "ReliefF"


class TestOrangeChecksAreOn(unittest.TestCase):
    def test_widget_test_checks_run_for_every_widget(self):
        """WidgetTest's own checks (minimum size, message classes, image
        export) are not switched off for any of the three widgets."""
        for case in (TestOWReliefF, TestOWDReliefF, TestOWPDReliefF):
            for name in ("test_minimum_size", "test_msg_base_class",
                         "test_image_export"):
                self.assertTrue(callable(getattr(case, name, None)),
                                (case.__name__, name))


class TestStirInTheReliefFWidget(widget_tests.WidgetTest):
    def test_stir_is_offered_by_relieff_only(self):
        relieff = self.create_widget(OWReliefF)
        drelieff = self.create_widget(OWDReliefF)
        # None, the two permutation tests, (STIR,) NPDR's two
        self.assertEqual(relieff.controls.test_position.count(), 6)
        self.assertEqual(drelieff.controls.test_position.count(), 5)

    def test_feature_permutation(self):
        w = self.create_widget(OWReliefF)
        w.significance_test, w.n_permutations = "feature_permutation", 9
        w._update_cost_label()
        self.assertEqual(w.cost_label.text(), "Costs 9 runs per feature.")
        data = small_iris()
        self.send_signal(w.Inputs.data, data)
        self.wait_until_finished(w, timeout=60000)
        scores = self.get_output(w.Outputs.scores, widget=w)
        np.testing.assert_array_equal(
            scores.get_column("p"),
            ReliefF().significance(data, permute="feature",
                                   n_permutations=9).p_values)

    def test_stir_columns_and_regression_warning(self):
        w = self.create_widget(OWReliefF)
        w.significance_test = "stir"
        w._update_cost_label()
        self.assertIn("one more run", w.cost_label.text())
        data = small_iris()
        self.send_signal(w.Inputs.data, data)
        self.wait_until_finished(w, timeout=60000)
        scores = self.get_output(w.Outputs.scores, widget=w)
        np.testing.assert_array_equal(
            scores.get_column("p"),
            ReliefF().significance(data, method="stir").p_values)
        self.send_signal(w.Inputs.data, small_housing())
        self.wait_until_finished(w, timeout=60000)
        self.assertTrue(w.Warning.scorer_warning.is_shown())
        self.assertIn("no regression form", str(w.Warning.scorer_warning))
        self.assertIsNotNone(self.get_output(w.Outputs.scores, widget=w))


class TestCovariatesInTheWidgets(widget_tests.WidgetTest):
    """NPDR's covariates in the Significance and Stability box: chosen from
    the attributes and metas, out of the distance, saved by name."""

    def setUp(self):
        from orangecontrib.relief.datasets import confounded
        self.data = confounded(n_instances=80, n_irrelevant=2,
                               random_state=0)
        self.widget = self.create_widget(OWReliefF)

    def choose(self, *names):
        w = self.widget
        w.covariates = [self.data.domain[name] if name in self.data.domain
                        else w.covariate_model[[v.name for v in
                                                w.covariate_model]
                                               .index(name)]
                        for name in names]
        w._covariates_changed()
        w.commit.now()
        self.wait_until_finished(w, timeout=60000)

    def test_covariates_choose_npdr_and_leave_the_distance(self):
        from orangecontrib.relief.scoring import covariates_to_metas
        from orangecontrib.relief.stats import NPDR_DEFAULT
        w = self.widget
        w.n_permutations = 19
        self.send_signal(w.Inputs.data, self.data)
        self.wait_until_finished(w, timeout=60000)
        self.assertEqual([v.name for v in w.covariate_model],
                         [v.name for v in self.data.domain.attributes])
        self.choose("age")
        self.assertEqual(w.significance_test, NPDR_DEFAULT)
        self.assertEqual(w.controls.test_position.currentText(),
                         "NPDR, permutations (covariates)")
        self.assertTrue(w.Information.covariates.is_shown())
        moved = covariates_to_metas(self.data, ["age"])[0]
        scores = self.get_output(w.Outputs.scores)
        self.assertNotIn("age", list(scores.get_column("Feature")))
        want = ReliefF().significance(moved, method=NPDR_DEFAULT,
                                      n_permutations=19, covariates=["age"])
        np.testing.assert_array_equal(scores.get_column("p"), want.p_values)
        np.testing.assert_array_equal(scores.get_column("NPDR β"),
                                      want.weights)
        np.testing.assert_allclose(scores.get_column(0), ReliefF()(moved),
                                   atol=1e-12)
        reduced = self.get_output(w.Outputs.reduced_data)
        self.assertIn("age", [v.name for v in reduced.domain.metas])
        preprocessed = self.get_output(w.Outputs.preprocessor)(self.data)
        self.assertNotIn("age", [v.name for v in
                                 preprocessed.domain.attributes])
        w.send_report()

    def test_covariates_are_saved_by_name_per_domain(self):
        w = self.widget
        self.send_signal(w.Inputs.data, self.data)
        self.choose("age", "noise1")
        other = Table("iris")[::5]
        self.send_signal(w.Inputs.data, other)
        self.assertEqual(w.covariates, [])
        self.send_signal(w.Inputs.data, self.data)
        self.assertEqual([v.name for v in w.covariates], ["age", "noise1"])
        settings = w.settingsHandler.pack_data(w)
        restored = self.create_widget(OWReliefF, stored_settings=settings)
        self.send_signal(restored.Inputs.data, self.data, widget=restored)
        self.assertEqual([v.name for v in restored.covariates],
                         ["age", "noise1"])

    def test_covariates_from_the_metas(self):
        from orangecontrib.relief.scoring import covariates_to_metas
        w = self.widget
        w.n_permutations = 19
        moved = covariates_to_metas(self.data, ["age"])[0]
        self.send_signal(w.Inputs.data, moved)
        self.assertIn("age", [v.name for v in w.covariate_model])
        self.choose("age")
        scores = self.get_output(w.Outputs.scores)
        self.assertEqual(len(scores), len(moved.domain.attributes))
        self.assertFalse(w.Error.compute_failed.is_shown())

    def test_messages(self):
        w = self.widget
        only = self.data.transform(Domain(self.data.domain.attributes[:1],
                                          self.data.domain.class_var))
        self.send_signal(w.Inputs.data, only)
        self.choose("age")
        self.assertTrue(w.Error.only_covariates.is_shown())
        self.send_signal(w.Inputs.data, self.data)
        self.choose("age")
        w.controls.test_position.setCurrentIndex(
            w.test_names.index("stir"))
        w.controls.test_position.activated.emit(w.test_names.index("stir"))
        w.commit.now()
        self.wait_until_finished(w, timeout=60000)
        self.assertTrue(w.Warning.covariates_unused.is_shown())
        self.choose()
        self.assertFalse(w.Warning.covariates_unused.is_shown())
        self.assertFalse(w.Information.covariates.is_shown())


class TestOWDReliefF(ReliefWidgetTests, widget_tests.WidgetTest):
    WIDGET = OWDReliefF
    SCORER = DReliefF
    IMAGE = "dReliefF"


class TestOWPDReliefF(ReliefWidgetTests, widget_tests.WidgetTest):
    WIDGET = OWPDReliefF
    SCORER = PDReliefF
    IMAGE = "pdReliefF"

    def test_T_controls(self):
        self.send_and_wait(self.data)
        m = len(self.data)
        self.assertIn(f"{2 / np.log(m):.3f}", self.widget.default_T_label.text())
        self.assertIsNone(self.get_output(self.widget.Outputs.scorer).T)
        self.widget.controls.custom_T.setChecked(True)
        self.widget.controls.T.setValue(1.25)
        self.wait_until_finished(timeout=60000)
        self.assertEqual(self.get_output(self.widget.Outputs.scorer).T, 1.25)
        np.testing.assert_allclose(self.weights_out(),
                                   PDReliefF(T=1.25)(self.data), rtol=1e-12)
        self.widget.send_report()
        self.assertIn("1.25", self.widget.report_html)
        self.widget.controls.n_iterations.setValue(20)
        self.assertIn(f"{2 / np.log(20):.3f}", self.widget.default_T_label.text())


class TestRankWithReliefScorers(widget_tests.WidgetTest):
    # this class tests Orange's Rank; the automatic widget checks run above
    test_minimum_size = test_image_export = test_msg_base_class = None
    test_zero_size_data = None

    def test_rank_shows_three_columns(self):
        data = small_iris()
        widgets = [self.create_widget(cls)
                   for cls in (OWReliefF, OWDReliefF, OWPDReliefF)]
        scorers = [self.get_output(w.Outputs.scorer, widget=w) for w in widgets]
        rank = self.create_widget(OWRank)
        rank.selected_methods = set()
        self.send_signal(rank.Inputs.data, data, widget=rank)
        for i, scorer in enumerate(scorers):
            self.send_signal(rank.Inputs.scorer, scorer, i, widget=rank)
        self.wait_until_finished(widget=rank, timeout=60000)
        scores = self.get_output(rank.Outputs.scores, widget=rank)
        names = [a.name for a in scores.domain.attributes]
        self.assertEqual(names, ["ReliefF k10", "dReliefF", "pdReliefF"])
        for column, cls in enumerate((ReliefF, DReliefF, PDReliefF)):
            np.testing.assert_allclose(scores.X[:, column], cls()(data),
                                       rtol=1e-12)
        self.assertFalse(rank.Error.active)

    def test_screenshot_of_rank_with_the_relief_columns(self):
        """Rank with information gain and the add-on's three scorers on
        heart_disease, for the documentation: every title readable."""
        data = Table("heart_disease")
        rank = self.create_widget(
            OWRank, stored_settings={"selected_methods": {"Information Gain"}})
        self.send_signal(rank.Inputs.data, data, widget=rank)
        for i, cls in enumerate((OWReliefF, OWDReliefF, OWPDReliefF)):
            widget = self.create_widget(cls)
            self.send_signal(rank.Inputs.scorer, self.get_output(
                widget.Outputs.scorer, widget=widget), i, widget=rank)
        self.wait_until_finished(widget=rank, timeout=60000)
        model = rank.ranksModel
        headers = [model.headerData(i, Qt.Horizontal, Qt.DisplayRole)
                   for i in range(model.columnCount())]
        self.assertEqual(headers[-3:], ["ReliefF k10", "dReliefF",
                                        "pdReliefF"])
        rank.resize(900, 520)
        rank.show()
        self.process_events()
        os.makedirs(IMAGES, exist_ok=True)
        path = os.path.join(IMAGES, "Rank-relief.png")
        self.assertTrue(rank.grab().save(path))
        rank.hide()
        self.assertGreater(os.path.getsize(path), 10000)

    def test_rank_tells_builtin_relieff_from_ours(self):
        """With Orange's own ReliefF ticked as well, every column's title
        is different."""
        data = small_iris()
        rank = self.create_widget(OWRank)
        rank.selected_methods = {"ReliefF"}     # Orange's own
        self.send_signal(rank.Inputs.data, data, widget=rank)
        self.send_signal(rank.Inputs.scorer, ReliefF(), 0, widget=rank)
        self.send_signal(rank.Inputs.scorer, ReliefF(neighbours="multisurf"),
                         1, widget=rank)
        self.wait_until_finished(widget=rank, timeout=60000)
        scores = self.get_output(rank.Outputs.scores, widget=rank)
        names = [a.name for a in scores.domain.attributes]
        self.assertEqual(names, ["ReliefF", "ReliefF k10", "MultiSURF"])

    def test_rank_headers_are_not_elided(self):
        """Rank's columns have a fixed width (80 pixels) and elide a longer
        title ("Reli…=10)"): the add-on's titles fit, with the default
        settings and with another k or rule for ReliefF, so no column needs
        hovering. (The column Rank sorts by loses room to the arrow.)"""
        data = small_iris()
        scorers = [ReliefF(), DReliefF(), PDReliefF(), ReliefF(k_nearest=5),
                   ReliefF(neighbours="multisurf"), ReliefF(neighbours="surf*")]
        rank = self.create_widget(OWRank)
        self.send_signal(rank.Inputs.data, data, widget=rank)
        for i, scorer in enumerate(scorers):
            self.send_signal(rank.Inputs.scorer, scorer, i, widget=rank)
        self.wait_until_finished(widget=rank, timeout=60000)
        rank.show()
        self.process_events()
        header = rank.ranksView.horizontalHeader()
        model = rank.ranksModel
        # the style elides the title to the label's rectangle, in bold when
        # the column has selected rows (Rank's default: the best 5)
        font = QFont(header.font())
        font.setBold(True)
        metrics = QFontMetricsF(font)
        first = model.columnCount() - len(scorers)
        self.assertNotEqual(header.sortIndicatorSection(), first)
        for column in range(first, model.columnCount()):
            text = model.headerData(column, Qt.Horizontal, Qt.DisplayRole)
            option = QStyleOptionHeader()
            option.initFrom(header)
            option.orientation = Qt.Horizontal
            option.state |= QStyle.StateFlag.State_Horizontal
            option.rect = QRect(0, 0, header.sectionSize(column),
                                header.height())
            room = header.style().subElementRect(
                QStyle.SubElement.SE_HeaderLabel, option, header).width()
            self.assertEqual(header.sectionSize(column), 80)
            self.assertLessEqual(metrics.horizontalAdvance(text), room, text)
            self.assertEqual(metrics.elidedText(text, header.textElideMode(),
                                                room), text)
        rank.hide()


if __name__ == "__main__":
    unittest.main()


class RuleWidgetTests(widget_tests.WidgetTest):
    """The neighbourhood rule setting of the scoring widgets."""

    def test_rule_setting_reaches_the_scorer(self):
        widget = self.create_widget(OWPDReliefF)
        data = small_iris()
        index = widget.rule_names.index("multisurf")
        widget.controls.rule_position.setCurrentIndex(index)
        widget.controls.rule_position.activated.emit(index)
        self.assertFalse(widget.k_spin.isEnabled())
        self.send_signal(widget.Inputs.data, data, widget=widget)
        self.wait_until_finished(widget=widget, timeout=60000)
        scorer = self.get_output(widget.Outputs.scorer, widget=widget)
        self.assertEqual(scorer.neighbours, "multisurf")
        self.assertEqual(scorer.name, "pdReliefF (MultiSURF)")
        scores = self.get_output(widget.Outputs.scores, widget=widget)
        np.testing.assert_allclose(
            scores.X[:, 0], PDReliefF(neighbours="multisurf")(data),
            rtol=0, atol=1e-12)
        self.assertFalse(widget.Warning.k_larger_than_class.is_shown())

    def test_starred_rule_on_regression_shows_an_error(self):
        widget = self.create_widget(OWReliefF)
        widget.rule = "surf*"
        self.send_signal(widget.Inputs.data, small_housing(), widget=widget)
        self.wait_until_finished(widget=widget, timeout=60000)
        self.assertTrue(widget.Error.compute_failed.is_shown())
        self.assertIn("surf", str(widget.Error.compute_failed))


class TestComputeOn(widget_tests.WidgetTest):
    """The "Compute on" choice: shown only where a GPU can run the scorer,
    with the GPU's name; the scorer gets device="cuda" when it is chosen,
    else "cpu"."""

    def gpu_widget(self, cls=OWReliefF, **kwargs):
        """A widget created where a GPU named "Test GPU" is present."""
        with patch.object(cuda, "available", return_value=True), \
                patch.object(cuda, "device_name", return_value="Test GPU"):
            return self.create_widget(cls, **kwargs)

    def choose(self, widget, position):
        combo = widget.controls.device_position
        combo.setCurrentIndex(position)
        combo.activated.emit(position)

    def test_without_a_gpu_the_choice_is_hidden_and_runs_on_the_cpu(self):
        with patch.object(cuda, "available", return_value=False):
            widget = self.create_widget(
                OWReliefF, stored_settings=dict(use_gpu=True))
        self.assertIsNone(widget.gpu_name)
        self.assertTrue(widget.device_combo.box.isHidden())
        self.assertEqual(widget.scorer_params()["device"], "cpu")
        scorer = self.get_output(widget.Outputs.scorer, widget=widget)
        self.assertEqual(scorer.device, "cpu")
        self.assertEqual(widget.height(), OWReliefBase.HEIGHT)
        widget.send_report()
        self.assertNotIn("Computed on", widget.report_html)

    def test_with_a_gpu_the_choice_names_it_and_persists(self):
        widget = self.gpu_widget()
        combo = widget.device_combo
        self.assertFalse(combo.box.isHidden())
        self.assertEqual([combo.itemText(i) for i in range(combo.count())],
                         ["CPU", "GPU: Test GPU"])
        self.assertEqual(self.get_output(widget.Outputs.scorer,
                                         widget=widget).device, "cpu")
        self.choose(widget, 1)
        self.assertTrue(widget.use_gpu)
        self.assertEqual(self.get_output(widget.Outputs.scorer,
                                         widget=widget).device, "cuda")
        settings = widget.settingsHandler.pack_data(widget)
        self.assertTrue(settings["use_gpu"])
        restored = self.gpu_widget(stored_settings=settings)
        self.assertEqual(restored.device_combo.currentIndex(), 1)
        self.assertEqual(restored.scorer_params()["device"], "cuda")
        # Weka's numbers are Weka's loop, on the CPU
        restored.controls.weka_compat.setChecked(True)
        self.assertFalse(restored.device_combo.isEnabled())
        self.assertEqual(restored.scorer_params()["device"], "cpu")

    def test_the_engine_is_told_cuda_and_the_report_says_so(self):
        widget = self.gpu_widget()
        self.choose(widget, 1)
        told = []
        recording = recording_engine(told)
        data = small_iris()
        with patch.object(scoring, "relieff", recording):
            self.send_signal(widget.Inputs.data, data, widget=widget)
            self.wait_until_finished(widget=widget, timeout=60000)
        self.assertEqual(told, ["cuda"])
        scores = self.get_output(widget.Outputs.scores, widget=widget)
        np.testing.assert_allclose(scores.X[:, 0], ReliefF()(data),
                                   rtol=1e-12)
        widget.send_report()
        self.assertIn("Computed on", widget.report_html)
        self.assertIn("GPU: Test GPU", widget.report_html)
        # back to the CPU: a new run, told "cpu"
        with patch.object(scoring, "relieff", recording):
            self.choose(widget, 0)
            self.wait_until_finished(widget=widget, timeout=60000)
        self.assertEqual(told, ["cuda", "cpu"])

    def test_a_failed_gpu_run_is_the_widgets_error(self):
        widget = self.gpu_widget()
        self.choose(widget, 1)
        with patch.object(ReliefF, "score_table",
                          side_effect=RuntimeError("the driver failed")):
            self.send_signal(widget.Inputs.data, small_iris(), widget=widget)
            self.wait_until_finished(widget=widget, timeout=60000)
        self.assertTrue(widget.Error.gpu_failed.is_shown())
        self.assertIn("the driver failed", str(widget.Error.gpu_failed))
        self.assertIsNone(self.get_output(widget.Outputs.scores,
                                          widget=widget))
        self.choose(widget, 0)
        self.wait_until_finished(widget=widget, timeout=60000)
        self.assertFalse(widget.Error.gpu_failed.is_shown())
        self.assertIsNotNone(self.get_output(widget.Outputs.scores,
                                             widget=widget))

    def test_controls_fit_without_scrolling_with_the_gpu_row(self):
        """The "Compute on" row makes the default size taller by as much:
        pdReliefF's controls (the most) still need no scrollbar."""
        widget = self.gpu_widget(OWPDReliefF)
        self.send_signal(widget.Inputs.data, small_iris(), widget=widget)
        self.wait_until_finished(widget=widget, timeout=60000)
        assert_controls_fit(self, widget)
