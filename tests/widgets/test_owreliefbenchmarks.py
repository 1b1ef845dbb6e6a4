"""Tests of the Relief Benchmarks widget (Orange WidgetTest)."""
# pylint: disable=missing-docstring,protected-access
import os

import numpy as np

from Orange.widgets.tests import base as widget_tests

from orangecontrib.relief import datasets
from orangecontrib.relief.widgets.owreliefbenchmarks import OWReliefBenchmarks

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
IMAGES = os.path.join(ROOT, "doc", "widgets", "images")


def assert_same_table(test, table, expected):
    test.assertEqual([var.name for var in table.domain.attributes],
                     [var.name for var in expected.domain.attributes])
    np.testing.assert_array_equal(table.X, expected.X)
    np.testing.assert_array_equal(table.Y, expected.Y)
    test.assertEqual(datasets.important_features(table),
                     datasets.important_features(expected))


class TestOWReliefBenchmarks(widget_tests.WidgetTest):
    def setUp(self):
        self.widget = self.create_widget(
            OWReliefBenchmarks,
            stored_settings=dict(modulo_instances=60, modulo_random=3))

    def output(self, widget=None):
        return self.get_output(self.widget.Outputs.data, widget=widget)

    def test_default_output_is_modulo(self):
        data = self.output()
        assert_same_table(self, data, datasets.modulo(2, 2, 3, 60, random_state=0))
        self.assertEqual(datasets.important_features(data), ["I1", "I2"])
        # the class really is the sum of the important features mod p
        np.testing.assert_array_equal(data.Y, data.X[:, :2].sum(axis=1) % 2)

    def test_modulo_parameters_and_seed(self):
        widget = self.widget
        widget.controls.modulo_p.setValue(4)
        widget.controls.modulo_important.setValue(3)
        widget.controls.modulo_random.setValue(5)
        widget.controls.random_state.setValue(7)
        data = self.output()
        assert_same_table(self, data, datasets.modulo(4, 3, 5, 60, random_state=7))
        self.assertEqual(len(data.domain.attributes), 8)

    def test_spin_selects_its_problem(self):
        widget = self.widget
        widget.controls.led_irrelevant.setValue(3)
        self.assertEqual(widget.problem, widget.LED)
        expected = datasets.led(3, 3200, noise=0.1, random_state=0)
        assert_same_table(self, self.output(), expected)

    def test_led_noise_in_percent(self):
        widget = self.widget
        widget.controls.led_instances.setValue(200)
        widget.controls.led_noise.setValue(0)
        data = self.output()
        # without noise the segments are exactly the digit's pattern
        np.testing.assert_array_equal(data.X[:, :7],
                                      datasets.LED_PATTERNS[data.Y.astype(int)])

    def test_corral_and_monk(self):
        widget = self.widget
        widget.problem = widget.Modulo
        widget.controls.corral_rows.setCurrentIndex(1)
        widget.controls.corral_rows.activated.emit(1)     # as a user's choice
        self.assertEqual(widget.problem, widget.CorrAl)   # the combo selected CorrAl
        assert_same_table(self, self.output(), datasets.corral(160))
        widget.problem = widget.MONK
        widget.monk_problem, widget.monk_split = 2, 2
        widget.commit.now()
        assert_same_table(self, self.output(), datasets.monk(3, "all"))

    def test_monk2_train_is_an_error_and_clears_output(self):
        widget = self.widget
        widget.problem, widget.monk_problem, widget.monk_split = widget.MONK, 1, 0
        widget.commit.now()
        self.assertIsNone(self.output())
        self.assertTrue(widget.Error.generation_failed.is_shown())
        self.assertIn("MONK-2", str(widget.Error.generation_failed))
        widget.monk_split = 1
        widget.commit.now()
        self.assertFalse(widget.Error.generation_failed.is_shown())
        self.assertEqual(len(self.output()), 432)

    def test_auto_apply_off_defers(self):
        widget = self.widget
        widget.auto_apply = False
        before = self.output()
        widget.controls.modulo_random.setValue(6)
        self.assertIs(self.output(), before)
        widget.commit.now()
        self.assertEqual(len(self.output().domain.attributes), 8)

    def test_settings_round_trip(self):
        widget = self.widget
        widget.problem, widget.led_irrelevant, widget.led_noise = widget.LED, 4, 20
        widget.led_instances, widget.random_state = 150, 3
        settings = widget.settingsHandler.pack_data(widget)
        clone = self.create_widget(OWReliefBenchmarks, stored_settings=settings)
        self.assertEqual(clone.problem, widget.LED)
        assert_same_table(self, self.output(widget=clone),
                          datasets.led(4, 150, noise=0.2, random_state=3))

    def test_report(self):
        self.widget.send_report()
        self.widget.problem = self.widget.MONK
        self.widget.commit.now()
        self.widget.send_report()

    def test_screenshot(self):
        widget = self.widget
        widget.problem = widget.LED
        widget.commit.now()
        widget.show()
        self.process_events()
        os.makedirs(IMAGES, exist_ok=True)
        self.assertTrue(widget.grab().save(
            os.path.join(IMAGES, "ReliefBenchmarks.png")))
