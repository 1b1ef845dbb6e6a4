"""Tests of the Benchmark Data widget (Orange WidgetTest)."""
# pylint: disable=missing-docstring,protected-access
import os

import numpy as np

from AnyQt.QtCore import Qt
from AnyQt.QtTest import QTest
from AnyQt.QtWidgets import QAbstractSpinBox

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

    def test_enter_in_every_spin_box_applies(self):
        # issue 30: Enter in a spin box must apply (with auto-apply off too:
        # then it presses Apply) and never lose the value
        widget = self.widget
        widget.show()
        values = (("modulo_p", 3, widget.Modulo), ("modulo_important", 3, widget.Modulo),
                  ("modulo_random", 4, widget.Modulo),
                  ("modulo_instances", 80, widget.Modulo),
                  ("led_irrelevant", 5, widget.LED), ("led_instances", 150, widget.LED),
                  ("led_noise", 5, widget.LED), ("random_state", 9, widget.LED))
        self.assertEqual({getattr(widget.controls, name) for name, *_ in values},
                         set(widget.findChildren(QAbstractSpinBox)))  # every one
        for auto_apply in (True, False):
            widget.controls.auto_apply.setChecked(auto_apply)
            for name, value, problem in values:
                with self.subTest(name=name, auto_apply=auto_apply):
                    value += not auto_apply     # a new value in the second round
                    spin = getattr(widget.controls, name)
                    spin.setFocus()
                    spin.lineEdit().selectAll()
                    QTest.keyClicks(spin.lineEdit(), str(value))
                    QTest.keyClick(spin.lineEdit(), Qt.Key_Enter)
                    self.assertEqual(getattr(widget, name), value)
                    self.assertEqual(widget.problem, problem)
                    assert_same_table(self, self.output(), widget.generate())

    def test_settings_of_version_1_load(self):
        # as a workflow saved by the first version stores them
        settings = {"problem": 2, "modulo_p": 3, "modulo_important": 2,
                    "modulo_random": 5, "modulo_instances": 70, "corral_rows": 1,
                    "led_irrelevant": 4, "led_instances": 150, "led_noise": 20,
                    "monk_problem": 2, "monk_split": 1, "random_state": 3,
                    "auto_apply": True, "__version__": 1}
        widget = self.create_widget(OWReliefBenchmarks, stored_settings=settings)
        for name, value in settings.items():
            if name != "__version__":
                self.assertEqual(getattr(widget, name), value, name)
        assert_same_table(self, self.output(widget=widget),
                          datasets.led(4, 150, noise=0.2, random_state=3))

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
        widget = self.widget
        widget.create_report_html()
        html = widget.report_html
        for text in ("Modulo-p-I", "Instances", "60", "Seed", "I1, I2"):
            self.assertIn(text, html)
        widget.problem, widget.monk_problem = widget.MONK, 2
        widget.commit.now()
        widget.create_report_html()
        html = widget.report_html
        for text in ("MONK-3", "train", "a2, a4, a5"):
            self.assertIn(text, html)

    def test_screenshot(self):
        widget = self.widget
        widget.problem = widget.LED
        widget.commit.now()
        widget.show()
        self.process_events()
        os.makedirs(IMAGES, exist_ok=True)
        self.assertTrue(widget.grab().save(
            os.path.join(IMAGES, "ReliefBenchmarks.png")))
