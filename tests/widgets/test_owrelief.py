"""Tests of the ReliefF, dReliefF and pdReliefF widgets (Orange WidgetTest)."""
# pylint: disable=missing-docstring,protected-access
import io
import os
import unittest
from unittest.mock import patch

import numpy as np
import scipy.sparse as sp

from AnyQt.QtCore import Qt

from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.evaluation import CrossValidation
from Orange.modelling import KNNLearner
from Orange.widgets.data.owrank import OWRank
from Orange.widgets.tests import base as widget_tests

from orangecontrib.relief.scoring import (DReliefF, PDReliefF, ReliefF,
                                         SelectSignificant)
from orangecontrib.relief.widgets.owdrelieff import OWDReliefF
from orangecontrib.relief.widgets.owpdrelieff import OWPDReliefF
from orangecontrib.relief.widgets.owreliefbase import OWReliefBase
from orangecontrib.relief.widgets.owrelieff import OWReliefF

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
        from orangecontrib.relief.core import engine, warmup
        messages = []
        self.widget.statusMessageChanged.connect(messages.append)
        with patch.dict(os.environ, {"ORANGE3_RELIEF_KERNELS": "auto",
                                     "ORANGE3_RELIEF_WARMUP": "0"}), \
                patch.object(warmup, "is_compiled", return_value=False), \
                patch.object(engine, "_READY", set()):
            self.send_and_wait(self.data)
        self.assertTrue(any("first use" in m for m in messages), messages)
        np.testing.assert_allclose(self.weights_out(), self.SCORER()(self.data),
                                   rtol=0, atol=1e-12)

    def test_placing_the_widget_starts_compiling(self):
        """A fresh installation compiles its kernels from the moment the
        first widget is placed on the canvas, before data arrives."""
        from orangecontrib.relief.core import warmup
        with patch.object(warmup, "start") as start:
            self.create_widget(self.widget.__class__)
        start.assert_called_once_with()

    # --- significance and stability -------------------------------------
    def test_permutation_columns_and_q_selection(self):
        w = self.widget
        w.significance, w.n_permutations = 2, 19
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
        w.significance = 0
        w._update_cost_label()
        self.assertEqual(w.select_percent, 0)
        self.assertFalse(w.q_radio.isEnabled())
        self.assertEqual(w.cost_label.text(), "No test: weights only.")
        self.send_and_wait(self.data)
        self.assertEqual(self.get_output(w.Outputs.scores).domain.attributes
                         [1:], ())
        self.assertFalse(w.rankview.isVisibleTo(w))

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

    def test_screenshots(self):
        """Render the widget and its plot for the documentation."""
        if self.IMAGE is None:
            self.skipTest("no image name")
        os.makedirs(IMAGES, exist_ok=True)
        data = Table("heart_disease")[::2]
        self.widget.controls.n_plotted.setValue(5)
        # the significance box in use: p, q and rank columns, the rank plot
        self.widget.significance, self.widget.n_permutations = 1, 99
        self.widget.stability_on, self.widget.n_resamples = True, 10
        self.widget.select_percent = 2
        self.widget._update_cost_label()
        self.send_and_wait(data)
        self.widget.resize(1100, 860)
        self.widget.show()
        self.process_events()
        path = os.path.join(IMAGES, self.IMAGE + ".png")
        self.assertTrue(self.widget.grab().save(path))
        plot_path = os.path.join(IMAGES, self.IMAGE + "-convergence.png")
        self.assertTrue(self.widget.plotview.grab().save(plot_path))
        self.widget.hide()
        self.assertGreater(os.path.getsize(path), 10000)


class TestOWReliefF(ReliefWidgetTests, widget_tests.WidgetTest):
    WIDGET = OWReliefF
    SCORER = ReliefF
    IMAGE = "ReliefF"


class TestStirInTheReliefFWidget(widget_tests.WidgetTest):
    def test_stir_is_offered_by_relieff_only(self):
        relieff = self.create_widget(OWReliefF)
        drelieff = self.create_widget(OWDReliefF)
        self.assertEqual(relieff.controls.significance.count(), 4)
        self.assertEqual(drelieff.controls.significance.count(), 3)

    def test_feature_permutation(self):
        w = self.create_widget(OWReliefF)
        w.significance, w.n_permutations = 1, 9
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
        w.significance = 3
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
        self.assertEqual(names, ["ReliefF (k=10)", "dReliefF (k=10)",
                                 "pdReliefF (k=10)"])
        for column, cls in enumerate((ReliefF, DReliefF, PDReliefF)):
            np.testing.assert_allclose(scores.X[:, column], cls()(data),
                                       rtol=1e-12)
        self.assertFalse(rank.Error.active)

    def test_rank_tells_builtin_relieff_from_ours(self):
        """With Orange's own ReliefF ticked as well, every column's title
        is different."""
        data = small_iris()
        rank = self.create_widget(OWRank)
        self.send_signal(rank.Inputs.data, data, widget=rank)
        self.send_signal(rank.Inputs.scorer, ReliefF(), 0, widget=rank)
        self.send_signal(rank.Inputs.scorer, ReliefF(neighbours="multisurf"),
                         1, widget=rank)
        self.wait_until_finished(widget=rank, timeout=60000)
        scores = self.get_output(rank.Outputs.scores, widget=rank)
        names = [a.name for a in scores.domain.attributes]
        self.assertEqual(len(names), len(set(names)), names)
        self.assertIn("ReliefF (k=10)", names)
        self.assertIn("MultiSURF", names)


if __name__ == "__main__":
    unittest.main()


class RuleWidgetTests(widget_tests.WidgetTest):
    """The neighbourhood rule setting of the scoring widgets."""

    def test_rule_setting_reaches_the_scorer(self):
        widget = self.create_widget(OWPDReliefF)
        data = small_iris()
        widget.controls.rule_index.setCurrentIndex(
            OWPDReliefF.RULES.index("multisurf"))
        widget.controls.rule_index.activated.emit(
            OWPDReliefF.RULES.index("multisurf"))
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
        widget.rule_index = OWReliefF.RULES.index("surf*")
        self.send_signal(widget.Inputs.data, small_housing(), widget=widget)
        self.wait_until_finished(widget=widget, timeout=60000)
        self.assertTrue(widget.Error.compute_failed.is_shown())
        self.assertIn("surf", str(widget.Error.compute_failed))
