"""Tests of the I-RELIEF widget (Orange WidgetTest)."""
# pylint: disable=missing-docstring,protected-access
import os

import numpy as np

from AnyQt.QtCore import Qt

from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.widgets.tests import base as widget_tests

from orangecontrib.relief.core.irelief import irelief
from orangecontrib.relief.scoring import IReliefF
from orangecontrib.relief.widgets.owirelief import OWIRelief

from test_owrelief import IMAGES, assert_controls_fit


def small_iris():
    return Table("iris")[::3]          # 50 instances, 3 classes


def xor_table(n_rows=200, seed=0):
    """SNPs 0, 1, 2; the class (x0 + x1) mod 2 (pure epistasis), on which
    Sun's undamped iteration can swing between x0 and x1 (seed 3)."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 3, (n_rows, 6)).astype(float)
    domain = Domain([DiscreteVariable(f"x{i}", values=("0", "1", "2"))
                     for i in range(6)],
                    DiscreteVariable("y", values=("a", "b")))
    return Table.from_numpy(domain, X, (X[:, 0] + X[:, 1]) % 2)


def big_table(n_rows=3000, n_features=60, seed=1):
    """A table that takes a while per iteration (to be cancelled)."""
    rng = np.random.default_rng(seed)
    domain = Domain([ContinuousVariable(f"x{i}") for i in range(n_features)],
                    DiscreteVariable("y", values=("a", "b")))
    return Table.from_numpy(domain, rng.random((n_rows, n_features)),
                            rng.integers(0, 2, n_rows))


class TestOWIRelief(widget_tests.WidgetTest):
    def setUp(self):
        self.widget = self.create_widget(OWIRelief)
        self.data = small_iris()

    def send_and_wait(self, data):
        self.send_signal(self.widget.Inputs.data, data)
        self.wait_until_finished(timeout=60000)

    def weights_out(self):
        scores = self.get_output(self.widget.Outputs.scores)
        return None if scores is None else scores.X[:, 0]

    def test_scorer_output_without_data(self):
        scorer = self.get_output(self.widget.Outputs.scorer)
        self.assertIsInstance(scorer, IReliefF)
        self.assertEqual((scorer.sigma, scorer.max_iterations,
                          scorer.tolerance, scorer.damping),
                         (2.0, 1000, 0.001, "auto"))
        self.assertIsNotNone(self.get_output(self.widget.Outputs.preprocessor))
        self.assertIsNone(self.get_output(self.widget.Outputs.scores))
        self.assertIsNone(self.get_output(self.widget.Outputs.reduced_data))

    def test_defaults_equal_script(self):
        self.send_and_wait(self.data)
        expected = IReliefF()(self.data)
        np.testing.assert_array_equal(self.weights_out(), expected)
        scores = self.get_output(self.widget.Outputs.scores)
        self.assertEqual([str(x) for x in scores.metas[:, 0]],
                         [a.name for a in self.data.domain.attributes])
        self.assertEqual(scores.domain.attributes[0].name, "I-RELIEF")
        model = self.widget.model
        shown = [model.data(model.index(row, 1), Qt.EditRole)
                 for row in range(model.rowCount())]
        np.testing.assert_allclose(shown, np.sort(expected)[::-1])
        reduced = self.get_output(self.widget.Outputs.reduced_data)
        order = np.argsort(-expected, kind="stable")
        self.assertEqual([a.name for a in reduced.domain.attributes],
                         [self.data.domain.attributes[i].name
                          for i in order])
        self.assertTrue(self.widget.result.converged)
        self.assertIn(f"Converged in {self.widget.result.iterations} "
                      "iterations", self.widget.ending_label.text())

    def test_controls_change_the_scorer(self):
        self.send_and_wait(self.data)
        self.widget.controls.sigma.setValue(0.5)
        self.widget.controls.tolerance.setValue(0.00001)
        self.wait_until_finished(timeout=60000)
        scorer = self.get_output(self.widget.Outputs.scorer)
        self.assertEqual((scorer.sigma, scorer.tolerance), (0.5, 0.00001))
        np.testing.assert_array_equal(
            self.weights_out(), IReliefF(sigma=0.5, tolerance=0.00001)(
                self.data))

    def test_convergence_plot_shows_weights_per_iteration(self):
        self.widget.controls.n_plotted.setValue(3)
        self.send_and_wait(self.data)
        result = self.widget.result
        curves = self.widget.plotview.curves
        self.assertEqual(len(curves), 3)
        x, y = curves[0].getData()
        np.testing.assert_array_equal(x, np.arange(result.iterations + 1))
        best = int(np.argmax(result.weights))
        np.testing.assert_array_equal(y, result.trace[:, best])
        self.widget.controls.n_plotted.setValue(2)
        self.assertEqual(len(self.widget.plotview.curves), 2)

    def test_an_oscillation_is_reported_as_damped(self):
        data = xor_table(seed=3)
        self.send_and_wait(data)
        result = self.widget.result
        self.assertTrue(result.converged)
        self.assertEqual(result.damping.min(), 0.5)
        self.assertIn("oscillated", self.widget.ending_label.text())
        self.assertEqual(sorted(np.argsort(-result.weights)[:2]), [0, 1])
        # Sun's undamped iteration swings between x0 and x1 longer
        sun = irelief(data.X, data.Y, np.ones(6, bool), damping=None)
        self.assertGreater(sun.iterations, result.iterations)

    def choose_damping(self, index):
        combo = self.widget.controls.damping_position
        combo.setCurrentIndex(index)
        combo.activated.emit(index)

    def test_damping_reaches_the_scorer(self):
        """None: Sun's undamped iteration, as the scorer runs it; Fixed λ:
        that step throughout, λ from the spin (enabled only then)."""
        data = xor_table(seed=3)
        self.send_and_wait(data)
        self.assertFalse(self.widget.damping_spin.isEnabled())
        self.assertLess(self.widget.result.damping.min(), 1)
        self.choose_damping(1)                          # None
        self.wait_until_finished(timeout=60000)
        self.assertEqual(self.widget.damping_mode, "none")
        scorer = self.get_output(self.widget.Outputs.scorer)
        self.assertIsNone(scorer.damping)
        expected = IReliefF(damping=None).score_table(data)
        np.testing.assert_array_equal(self.widget.result.trace,
                                      expected.trace)
        np.testing.assert_array_equal(self.widget.result.damping, 1.0)
        self.assertFalse(self.widget.damping_spin.isEnabled())
        self.choose_damping(2)                          # Fixed λ
        self.assertTrue(self.widget.damping_spin.isEnabled())
        self.widget.controls.damping_lambda.setValue(0.25)
        self.wait_until_finished(timeout=60000)
        self.assertEqual(self.get_output(self.widget.Outputs.scorer).damping,
                         0.25)
        np.testing.assert_array_equal(self.widget.result.damping, [0.25] * (
            self.widget.result.iterations - 1) + [1.0])
        np.testing.assert_array_equal(
            self.weights_out(), IReliefF(damping=0.25)(data))
        self.assertIn("Steps of λ = 0.25.", self.widget.ending_label.text())
        self.assertNotIn("oscillated", self.widget.ending_label.text())
        self.choose_damping(0)                          # Automatic
        self.wait_until_finished(timeout=60000)
        self.assertEqual(self.get_output(self.widget.Outputs.scorer).damping,
                         "auto")
        self.assertFalse(self.widget.damping_spin.isEnabled())

    def test_not_converged_warns(self):
        self.widget.controls.max_iterations.setValue(1)
        self.send_and_wait(self.data)
        self.assertFalse(self.widget.result.converged)
        self.assertTrue(self.widget.Warning.not_converged.is_shown())
        self.assertFalse(self.widget.Warning.scorer_warning.is_shown())
        self.assertIn("not converged", self.widget.ending_label.text())
        self.widget.controls.max_iterations.setValue(1000)
        self.wait_until_finished(timeout=60000)
        self.assertFalse(self.widget.Warning.not_converged.is_shown())

    def test_data_errors(self):
        no_class = self.data.transform(Domain(self.data.domain.attributes))
        self.send_signal(self.widget.Inputs.data, no_class)
        self.assertTrue(self.widget.Error.no_class.is_shown())
        self.assertIsNone(self.get_output(self.widget.Outputs.scores))
        housing = Table("housing")[:40]
        self.send_signal(self.widget.Inputs.data, housing)
        self.assertTrue(self.widget.Error.numeric_class.is_shown())
        self.assertFalse(self.widget.Error.no_class.is_shown())
        self.send_and_wait(self.data)
        self.assertFalse(self.widget.Error.active)
        self.assertIsNotNone(self.weights_out())
        self.send_signal(self.widget.Inputs.data, None)
        self.assertIsNone(self.get_output(self.widget.Outputs.scores))
        self.assertEqual(self.widget.model.rowCount(), 0)

    def test_missing_values_are_reported(self):
        data = self.data.copy()
        with data.unlocked():
            data.X[0, 0] = np.nan
            data.Y[1] = np.nan
        self.send_and_wait(data)
        self.assertTrue(self.widget.Information.missing_values.is_shown())
        self.assertTrue(self.widget.Information.missing_target.is_shown())
        self.assertIsNotNone(self.weights_out())

    def test_cancel_leaves_no_output_and_no_error(self):
        self.send_signal(self.widget.Inputs.data, big_table())
        self.assertIsNotNone(self.widget.task)
        self.assertTrue(self.widget.cancel_button.isEnabled())
        self.widget.cancel_button.click()
        self.assertIsNone(self.widget.task)
        self.process_events()
        self.assertIsNone(self.get_output(self.widget.Outputs.scores))
        self.assertFalse(self.widget.Error.active)
        self.assertTrue(self.widget.Information.cancelled.is_shown())
        self.assertFalse(self.widget.cancel_button.isEnabled())
        self.assertEqual(self.widget.model.rowCount(), 0)

    def test_progress_is_reported(self):
        values = []
        self.widget.progressBarValueChanged.connect(values.append)
        self.send_and_wait(self.data)
        self.assertTrue(any(0 < v <= 100 for v in values), values)
        self.assertEqual(values, sorted(values))

    def test_top_percent_selection(self):
        data = Table("zoo")[::4]
        self.send_and_wait(data)
        self.widget.controls.percent_selected.setValue(25)  # selects top %
        self.assertEqual(self.widget.select_percent, 1)
        reduced = self.get_output(self.widget.Outputs.reduced_data)
        self.assertEqual(len(reduced.domain.attributes),
                         int(round(0.25 * len(data.domain.attributes))))

    def test_settings_persist(self):
        w = self.widget
        w.controls.sigma.setValue(0.7)
        w.controls.max_iterations.setValue(77)
        w.controls.tolerance.setValue(0.0002)
        w.controls.n_plotted.setValue(4)
        self.choose_damping(2)
        w.controls.damping_lambda.setValue(0.3)
        settings = w.settingsHandler.pack_data(w)
        w2 = self.create_widget(OWIRelief, stored_settings=settings)
        self.assertEqual(w2.scorer_params(), w.scorer_params())
        self.assertEqual(w2.scorer_params(), dict(
            sigma=0.7, max_iterations=77, tolerance=0.0002, damping=0.3))
        self.assertEqual(w2.n_plotted, 4)
        self.assertEqual(w2.controls.damping_position.currentIndex(), 2)
        self.assertTrue(w2.damping_spin.isEnabled())
        self.choose_damping(1)
        w3 = self.create_widget(
            OWIRelief, stored_settings=w.settingsHandler.pack_data(w))
        self.assertIsNone(w3.scorer_params()["damping"])
        self.assertFalse(w3.damping_spin.isEnabled())

    def test_send_report(self):
        self.widget.send_report()
        self.send_and_wait(self.data)
        self.widget.report_html = ""
        self.widget.send_report()
        html = self.widget.report_html
        self.assertIn("Kernel width σ", html)
        self.assertIn("Damping", html)
        self.assertIn("Converged in", html)
        best = self.data.domain.attributes[int(np.argmax(self.weights_out()))]
        self.assertIn(best.name, html)

    def test_controls_fit_without_scrolling(self):
        self.send_and_wait(self.data)
        assert_controls_fit(self, self.widget)

    def test_screenshots(self):
        """Render the widget and its plot for the documentation
        (doc/widgets/irelief.md): an oscillation, damped."""
        os.makedirs(IMAGES, exist_ok=True)
        self.widget.controls.n_plotted.setValue(4)
        self.send_and_wait(xor_table(seed=3))
        # (at the size it opens with, as a user first sees it)
        self.widget.show()
        self.process_events()
        path = os.path.join(IMAGES, "IRelief.png")
        self.assertTrue(self.widget.grab().save(path))
        plot_path = os.path.join(IMAGES, "IRelief-convergence.png")
        self.assertTrue(self.widget.plotview.grab().save(plot_path))
        self.widget.hide()
        self.assertGreater(os.path.getsize(path), 10000)
