"""The ReliefF widget with CORElearn's estimators computed on top of the
engine (issue 40, item 3): the bar moves, Cancel stops the run (the task
ends in the engine's cancel, not with a discarded result) and leaves no
output and no error; an estimator that visits every instance sets "sample
instances" off and the user's choice comes back with this add-on's
options."""
# pylint: disable=missing-docstring,protected-access
import concurrent.futures

import numpy as np

from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.widgets.tests import base as widget_tests

from orangecontrib.relief.widgets.owrelieff import OWReliefF
from orangecontrib.relief.widgets.owreliefbase import OWN_OPTIONS
from orangecontrib.relief.widgets.relieftask import Cancelled


def random_table(n_rows, seed=0):
    rng = np.random.default_rng(seed)
    domain = Domain([ContinuousVariable(f"x{i}") for i in range(8)],
                    DiscreteVariable("y", values=("a", "b")))
    return Table.from_numpy(domain, rng.random((n_rows, 8)),
                            rng.integers(0, 2, n_rows))


class TestEstimatorProgress(widget_tests.WidgetTest):
    # (the base class's checks run on the ReliefF widget in test_owrelief)
    test_minimum_size = test_image_export = test_msg_base_class = None
    test_zero_size_data = None

    def setUp(self):
        self.widget = self.create_widget(OWReliefF)

    def choose(self, name):
        widget = self.widget
        combo = widget.estimator_combo
        combo.setCurrentIndex(widget.estimator_names.index(name))
        combo.activated.emit(combo.currentIndex())
        self.assertEqual(widget.estimator, name)

    def test_the_bar_moves(self):
        self.choose("ReliefFbestK")
        values = []
        self.widget.progressBarValueChanged.connect(values.append)
        self.send_signal(self.widget.Inputs.data, random_table(60))
        self.wait_until_finished(timeout=60000)
        self.assertIsNotNone(self.get_output(self.widget.Outputs.scores))
        self.assertTrue(any(0 < v < 100 for v in values), values)
        self.assertEqual(values, sorted(values))

    def test_cancel_stops_the_run_and_leaves_no_output_and_no_error(self):
        self.choose("ReliefFmerit")
        self.send_signal(self.widget.Inputs.data, random_table(1000))
        task = self.widget.task
        self.assertIsNotNone(task)
        self.widget.cancel_button.click()
        self.assertIsNone(self.widget.task)
        # the run itself stopped at its next progress call (the engine's
        # cancel), rather than running to its end to be discarded
        concurrent.futures.wait([task.future])
        self.assertIsInstance(task.future.exception(), Cancelled)
        self.process_events()
        self.assertIsNone(self.get_output(self.widget.Outputs.scores))
        self.assertFalse(self.widget.Error.active)
        self.assertTrue(self.widget.Information.cancelled.is_shown())
        self.assertEqual(self.widget.model.rowCount(), 0)

    def test_sample_instances_comes_back_with_own_options(self):
        widget = self.widget
        widget.sample_instances = True
        self.choose("ReliefFbestK")             # visits every instance
        self.assertFalse(widget.sample_instances)
        self.choose("ReliefFmerit")             # (still every instance)
        self.assertFalse(widget.sample_instances)
        self.choose("")
        self.assertEqual(widget.estimator_combo.currentText(), OWN_OPTIONS)
        self.assertTrue(widget.sample_instances)
        self.choose("ReliefFsmp")               # draws its visits
        self.assertTrue(widget.sample_instances)
        widget.sample_instances = False         # the user's, kept
        self.choose("MyopicReliefF")
        self.choose("ReliefFequalK")            # one run of the engine
        self.assertFalse(widget.sample_instances)
