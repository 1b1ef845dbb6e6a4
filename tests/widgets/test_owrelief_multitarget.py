"""The widgets with several class variables: multi-target RReliefF, said
in an Information message; and what Orange's Rank does with such data and
the add-on's scorer."""
import numpy as np
from Orange.data import ContinuousVariable, DiscreteVariable, Domain, Table
from Orange.widgets.data.owrank import OWRank
from Orange.widgets.tests import base as widget_tests

from orangecontrib.relief.scoring import ReliefF
from orangecontrib.relief.widgets.owirelief import OWIRelief
from orangecontrib.relief.widgets.owrelieff import OWReliefF


def several_targets(n=40, seed=0):
    """Five attributes, two numeric targets and a discrete one (a missing
    value among each)."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, 5))
    Y = np.column_stack([X[:, 0] + 0.3 * X[:, 1], 2 * X[:, 2],
                         (X[:, 0] > 0.5).astype(float)])
    Y[3, 0] = Y[5, 1] = Y[7, 2] = np.nan
    domain = Domain([ContinuousVariable(f"x{i}") for i in range(5)],
                    [ContinuousVariable("t0"), ContinuousVariable("t1"),
                     DiscreteVariable("kind", values=("no", "yes"))])
    return Table.from_numpy(domain, X, Y)


class TestSeveralTargets(widget_tests.WidgetTest):
    def test_relieff_widget_scores_and_says_so(self):
        data = several_targets()
        widget = self.create_widget(OWReliefF)
        self.send_signal(widget.Inputs.data, data, widget=widget)
        self.wait_until_finished(widget=widget, timeout=60000)
        self.assertTrue(widget.Information.several_targets.is_shown())
        self.assertIn("t0, t1, kind", str(
            widget.Information.several_targets.formatted))
        self.assertFalse(widget.Information.regression.is_shown())
        self.assertFalse(widget.Error.active)
        scores = self.get_output(widget.Outputs.scores, widget=widget)
        np.testing.assert_allclose(scores.X[:, 0], ReliefF()(data),
                                   rtol=1e-12)
        selected = self.get_output(widget.Outputs.reduced_data,
                                   widget=widget)
        self.assertEqual(selected.domain.class_vars, data.domain.class_vars)
        # one target again: the message goes
        one = data.transform(Domain(data.domain.attributes,
                                    data.domain.class_vars[0]))
        self.send_signal(widget.Inputs.data, one, widget=widget)
        self.wait_until_finished(widget=widget, timeout=60000)
        self.assertFalse(widget.Information.several_targets.is_shown())
        self.assertTrue(widget.Information.regression.is_shown())

    def test_irelief_widget_refuses_with_a_sentence(self):
        widget = self.create_widget(OWIRelief)
        self.send_signal(widget.Inputs.data, several_targets(), widget=widget)
        self.assertTrue(widget.Error.several_targets.is_shown())
        self.assertIn("3 targets", str(
            widget.Error.several_targets.formatted))

    def test_rank_with_the_scorer_on_several_targets(self):
        """Rank treats a table of several class variables as having no
        target (its built-in scorers are classification's or regression's
        and are not run); the add-on's scorer, whose class_type is any
        Variable, is run and gives multi-target RReliefF's weights.  (Rank's
        Reduced Data keeps only ``domain.class_var``, None here, so it
        drops the targets; the add-on's widgets keep ``class_vars``.)"""
        data = several_targets()
        relief = self.create_widget(OWReliefF)
        scorer = self.get_output(relief.Outputs.scorer, widget=relief)
        rank = self.create_widget(OWRank)
        self.send_signal(rank.Inputs.data, data, widget=rank)
        self.send_signal(rank.Inputs.scorer, scorer, 0, widget=rank)
        self.wait_until_finished(widget=rank, timeout=60000)
        scores = self.get_output(rank.Outputs.scores, widget=rank)
        self.assertEqual([a.name for a in scores.domain.attributes],
                         ["ReliefF k10"])
        np.testing.assert_allclose(scores.X[:, 0], ReliefF()(data),
                                   rtol=1e-12)
        self.assertTrue(rank.Information.no_target_var.is_shown())
        self.assertFalse(rank.Error.active)
