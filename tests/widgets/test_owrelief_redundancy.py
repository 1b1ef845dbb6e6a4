"""Issue 42 in the scoring widgets: "Skip redundant features" in the
selection and the preprocessor, the "Redundant with" column, the heat map
of the top features' redundancy, and where the choice does not apply."""
# pylint: disable=missing-docstring,protected-access
import unittest
from types import SimpleNamespace

import numpy as np

from AnyQt.QtCore import Qt

from Orange.classification import KNNLearner
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.evaluation import CrossValidation
from Orange.preprocess.fss import SelectBestFeatures
from Orange.widgets.tests import base as widget_tests

from orangecontrib.relief.scoring import ReliefF, SelectNonRedundant
from orangecontrib.relief.widgets.relieftask import Cancelled, run
from orangecontrib.relief.widgets.owdrelieff import OWDReliefF
from orangecontrib.relief.widgets.owirelief import OWIRelief
from orangecontrib.relief.widgets.owpdrelieff import OWPDReliefF
from orangecontrib.relief.widgets.owrelieff import OWReliefF

GROUPS = [{"a0", "a0_copy"}, {"a1", "a1_noisy"}, {"a2", "a2_exp"}]


def copies_table(n=400, seed=1):
    """Three relevant numeric features among ten irrelevant ones, and a copy
    of each relevant one: exact, noisy, exp(3 x)."""
    rng = np.random.default_rng(seed)
    relevant = rng.random((n, 3))
    y = (relevant.sum(axis=1) > 1.5).astype(float)
    X = np.hstack([relevant, rng.random((n, 10)), relevant[:, :1],
                   relevant[:, 1:2] + rng.normal(0, 0.05, (n, 1)),
                   np.exp(3 * relevant[:, 2:3])])
    names = [f"a{i}" for i in range(3)] + [f"noise{i}" for i in range(10)] \
        + ["a0_copy", "a1_noisy", "a2_exp"]
    domain = Domain([ContinuousVariable(name) for name in names],
                    DiscreteVariable("y", values=("0", "1")))
    return Table.from_numpy(domain, X, y)


def xor_table(n=600, seed=2):
    """y = x0 XOR x1 among six irrelevant binary features."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (n, 8)).astype(float)
    y = (X[:, 0] + X[:, 1]) % 2
    domain = Domain([DiscreteVariable(f"x{i}", values=("0", "1"))
                     for i in range(8)],
                    DiscreteVariable("y", values=("0", "1")))
    return Table.from_numpy(domain, X, y)


def names(table):
    return {var.name for var in table.domain.attributes}


class TestSkipRedundant(widget_tests.WidgetTest):
    def run_widget(self, data, cls=OWReliefF, skip=True, n_selected=3,
                   widget=None, **settings):
        widget = widget or self.create_widget(cls, stored_settings=dict(
            skip_redundant=skip, n_selected=n_selected, **settings))
        self.send_signal(widget.Inputs.data, data, widget=widget)
        self.wait_until_finished(widget=widget, timeout=120000)
        return widget

    def test_reduced_data_keeps_one_of_each_group(self):
        data = copies_table()
        plain = self.run_widget(data, skip=False)
        kept = names(self.get_output(plain.Outputs.reduced_data,
                                     widget=plain))
        # plain top 3 takes copies: some group twice, one group missing
        self.assertNotEqual([len(kept & g) for g in GROUPS], [1, 1, 1])
        for cls in (OWReliefF, OWDReliefF, OWPDReliefF):
            widget = self.run_widget(data, cls=cls)
            kept = names(self.get_output(widget.Outputs.reduced_data,
                                         widget=widget))
            self.assertEqual([len(kept & g) for g in GROUPS], [1, 1, 1],
                             cls.name)

    def test_top_percent_skips_too(self):
        widget = self.run_widget(copies_table(), select_percent=1,
                                 percent_selected=20)     # 3 of 16
        kept = names(self.get_output(widget.Outputs.reduced_data,
                                     widget=widget))
        self.assertEqual([len(kept & g) for g in GROUPS], [1, 1, 1])

    def test_xor_pair_is_kept(self):
        widget = self.run_widget(xor_table(), n_selected=2)
        kept = names(self.get_output(widget.Outputs.reduced_data,
                                     widget=widget))
        self.assertEqual(kept, {"x0", "x1"})
        self.assertEqual(set(widget.text_columns()["Redundant with"]), {""})

    def test_preprocessor_reselects_in_every_fold(self):
        data = copies_table()
        widget = self.run_widget(data)
        preprocessor = self.get_output(widget.Outputs.preprocessor,
                                       widget=widget)
        (step,) = preprocessor.preprocessors
        self.assertIsInstance(step, SelectNonRedundant)
        self.assertEqual(step.n_features, 3)
        seen = []
        original = SelectNonRedundant.__call__

        def recording(self_, table):
            kept = original(self_, table)
            seen.append((len(table), names(kept)))
            return kept
        try:
            SelectNonRedundant.__call__ = recording
            CrossValidation(k=3)(data, [KNNLearner(
                preprocessors=[preprocessor])])
        finally:
            SelectNonRedundant.__call__ = original
        self.assertEqual(len(seen), 3)
        self.assertEqual(sum(size for size, _ in seen), 2 * len(data))
        for _, kept in seen:
            self.assertEqual([len(kept & g) for g in GROUPS], [1, 1, 1])
        # off: the plain top N, as before
        widget.controls.skip_redundant.click()
        widget.commit.now()
        (step,) = self.get_output(widget.Outputs.preprocessor,
                                  widget=widget).preprocessors
        self.assertIsInstance(step, SelectBestFeatures)

    def test_column_and_scores_output(self):
        widget = self.run_widget(copies_table())
        model = widget.model
        headers = [model.headerData(i, Qt.Horizontal) for i in range(model.columnCount())]
        self.assertEqual(headers[-1], "Redundant with")
        shown = {model.data(model.index(row, 0)):
                 model.data(model.index(row, len(headers) - 1))
                 for row in range(model.rowCount())}
        kept = names(self.get_output(widget.Outputs.reduced_data,
                                     widget=widget))
        for group in GROUPS:
            (keeper,) = group & kept
            for other in group - kept:
                self.assertEqual(shown[other], keeper)
        self.assertEqual(shown["noise0"], "")
        scores = self.get_output(widget.Outputs.scores, widget=widget)
        column = dict(zip(scores.get_column("Feature"),
                          scores.get_column("Redundant with")))
        self.assertEqual(column, shown)
        # off: no column
        widget.controls.skip_redundant.click()
        widget.commit.now()
        self.wait_until_finished(widget=widget)
        self.assertNotIn("Redundant with",
                         [var.name for var in self.get_output(
                             widget.Outputs.scores, widget=widget).domain.metas])

    def test_heat_map_shows_top_features_by_rank(self):
        widget = self.run_widget(copies_table())
        self.assertFalse(widget.heatmap.isHidden())
        image = widget.heatmap.image.image
        self.assertEqual(image.shape[:2], (16, 16))
        ticks = widget.heatmap.plot.getAxis("left")._tickLevels[0]
        ranked = [widget.scored.domain.attributes[i].name
                  for i in widget.ranked_indices()]
        self.assertEqual([text.lstrip("× ") for _, text in ticks], ranked)
        # those redundant with a selected feature marked (the copies),
        # not the irrelevant ones left out
        kept = names(self.get_output(widget.Outputs.reduced_data,
                                     widget=widget))
        marked = {text[2:] for _, text in ticks if text.startswith("× ")}
        self.assertEqual(marked, set().union(*GROUPS) - kept)
        widget.controls.skip_redundant.click()
        self.assertTrue(widget.heatmap.isHidden())

    def test_weights_shown_while_redundancy_runs(self):
        """The weights arrive first (a partial result); the redundancy
        is the run's next part, with its own progress."""
        widget = self.run_widget(copies_table(), skip=False)
        weights = widget.result
        widget.controls.skip_redundant.click()
        widget.commit.now()
        # (the weights are kept: only the redundancy is computed)
        self.assertIs(widget.result, weights)
        self.assertEqual(widget.model.rowCount(), 16)
        self.wait_until_finished(widget=widget, timeout=120000)
        self.assertIs(widget.result, weights)
        self.assertIsNotNone(widget.redundancy)

    def test_settings_survive_save_and_restore(self):
        widget = self.run_widget(copies_table())
        settings = self.widget_settings = \
            widget.settingsHandler.pack_data(widget)
        self.assertTrue(settings["skip_redundant"])
        restored = self.create_widget(OWReliefF, stored_settings=settings)
        self.assertTrue(restored.skip_redundant)
        self.assertTrue(restored.skip_check.isChecked())

    def test_disabled_where_it_cannot_apply(self):
        widget = self.create_widget(OWReliefF)
        self.assertTrue(widget.skip_check.isEnabled())
        # a numeric target
        housing = Table("housing")
        self.send_signal(widget.Inputs.data, housing, widget=widget)
        self.assertFalse(widget.skip_check.isEnabled())
        self.assertIn("numeric target", widget.skip_check.toolTip())
        widget.skip_redundant = True
        self.assertFalse(widget.skip_active())
        # q < alpha
        data = copies_table()
        self.send_signal(widget.Inputs.data, data, widget=widget)
        self.assertTrue(widget.skip_check.isEnabled())
        widget.significance_test = "feature_permutation"
        widget.test_position = widget.test_names.index("feature_permutation")
        widget._test_changed()
        widget._set_select_q()
        self.assertFalse(widget.skip_check.isEnabled())
        self.assertIn("q < α", widget.skip_check.toolTip())
        widget._set_select_n()
        self.assertTrue(widget.skip_check.isEnabled())
        # covariates
        widget.covariates = [data.domain["noise0"]]
        widget._covariates_changed()
        self.assertFalse(widget.skip_check.isEnabled())
        self.assertIn("covariates", widget.skip_check.toolTip())
        self.assertFalse(widget.skip_active())
        # I-RELIEF: no per-visit updates, no choice
        irelief = self.create_widget(OWIRelief)
        self.assertFalse(hasattr(irelief, "skip_check"))

    def test_report_mentions_the_choice(self):
        widget = self.run_widget(copies_table())
        items = {}
        widget.report_items = lambda name, pairs: items.update(pairs)
        widget.report_plot = lambda *args: None
        widget.send_report()
        self.assertTrue(items["Redundant features"].startswith("skipped"))


class TestRedundancyInTheTask(unittest.TestCase):
    class State:
        """A TaskState that asks to stop once the redundancy is measured."""

        def __init__(self):
            self.partial, self.status, self.progress = [], [], []

        def set_progress_value(self, value):
            self.progress.append(value)

        def set_status(self, text):
            self.status.append(text)

        def set_partial_result(self, part):
            self.partial.append(part)

        def is_interruption_requested(self):
            return "measuring redundancy" in self.status

    def test_weights_first_then_redundancy_with_progress_and_cancel(self):
        extras = SimpleNamespace(test=None, n_permutations=0, n_resamples=0,
                                 covariates=[], redundancy_top=16)
        state = self.State()
        with self.assertRaises(Cancelled):
            run(copies_table(), ReliefF(), 10, extras, state)
        # the weights were sent before the redundancy run was stopped
        self.assertEqual([name for name, _ in state.partial], ["result"])
        self.assertTrue(all(value <= 50 for value in state.progress))
        # not stopped: both parts, the progress up to the end
        state.is_interruption_requested = lambda: False
        out = run(copies_table(), ReliefF(), 10, extras, state)
        self.assertEqual(len(out.redundancy.features), 16)
        self.assertGreater(max(state.progress), 99)


if __name__ == "__main__":
    unittest.main()
