"""The scoring widgets as a user meets them (issue 38): what Rank shows for
a covariate, instance weights, stored settings that cannot be used, the
link the canvas proposes, what is kept while statistics run, and text that
must not be cut."""
# pylint: disable=missing-docstring,protected-access
import numpy as np

from AnyQt.QtCore import Qt

from Orange.data import Table
from Orange.widgets.data.owrank import OWRank
from Orange.widgets.tests import base as widget_tests

from orangecontrib.relief.widgets.owdrelieff import OWDReliefF
from orangecontrib.relief.widgets.owirelief import OWIRelief
from orangecontrib.relief.widgets.owpdrelieff import OWPDReliefF
from orangecontrib.relief.widgets.owrelieff import OWReliefF

WIDGETS = (OWReliefF, OWDReliefF, OWPDReliefF, OWIRelief)


def heart_disease():
    return Table("heart_disease")


class TestRankGetsTheWidgetsNumbers(widget_tests.WidgetTest):
    # (Orange's Rank is under test here; the widget checks run elsewhere)
    test_minimum_size = test_image_export = test_msg_base_class = None
    test_zero_size_data = None

    def test_a_covariate_is_out_of_rank_as_out_of_the_widget(self):
        """heart_disease -> ReliefF (k = 5, NPDR's permutation test,
        covariate age) -> Rank via Scorer: Rank's column equals the widget's
        weights, and age has no score."""
        data = heart_disease()
        widget = self.create_widget(OWReliefF)
        widget.k_nearest = 5
        widget.n_permutations = 9
        self.send_signal(widget.Inputs.data, data, widget=widget)
        widget.covariates = [data.domain["age"]]
        widget._covariates_changed()
        widget.commit.now()
        self.wait_until_finished(widget=widget, timeout=120000)
        self.assertEqual(widget.significance_test, "npdr_permutation")
        shown = self.get_output(widget.Outputs.scores, widget=widget)
        by_name = dict(zip(shown.get_column("Feature"), shown.X[:, 0]))
        self.assertNotIn("age", by_name)

        rank = self.create_widget(OWRank)
        rank.selected_methods = set()
        self.send_signal(rank.Inputs.data, data, widget=rank)
        self.send_signal(rank.Inputs.scorer,
                         self.get_output(widget.Outputs.scorer,
                                         widget=widget), 0, widget=rank)
        self.wait_until_finished(widget=rank, timeout=120000)
        # (what Rank shows: its Scores output turns NaN into -1.8e308, an
        # artefact of Orange's np.clip over an object array)
        model = rank.ranksModel
        column = {model.data(model.index(row, 0)):
                  model.data(model.index(row, 2), Qt.EditRole)
                  for row in range(model.rowCount())}
        self.assertTrue(np.isnan(column.pop("age")))
        self.assertEqual(set(column), set(by_name))
        for name, weight in by_name.items():
            self.assertAlmostEqual(column[name], weight, places=12, msg=name)
        # the same order: chest pain first, thal third (not fourth)
        self.assertEqual(
            [model.data(model.index(row, 0)) for row in range(3)],
            sorted(by_name, key=by_name.get, reverse=True)[:3])


def weighted(data, weights):
    data = data.copy()
    with data.unlocked():
        data.set_weights(np.asarray(weights, dtype=float))
    return data


class TestInstanceWeights(widget_tests.WidgetTest):
    """Until the scorers use Table.W, the widgets say that they ignore it
    (the weights are those of the unweighted table)."""

    def test_every_widget_warns_about_unequal_instance_weights(self):
        data = Table("iris")[::3]
        uneven = weighted(data, np.arange(len(data)) % 3 + 1)
        even = weighted(data, np.full(len(data), 2.0))
        for cls in WIDGETS:
            with self.subTest(cls.name):
                widget = self.create_widget(cls)
                self.send_signal(widget.Inputs.data, uneven, widget=widget)
                self.wait_until_finished(widget=widget, timeout=60000)
                self.assertTrue(widget.Warning.instance_weights.is_shown())
                self.assertIn("instance weights are ignored",
                              str(widget.Warning.instance_weights))
                scores = self.get_output(widget.Outputs.scores, widget=widget)
                self.assertIsNotNone(scores)
                for other in (even, data, None):
                    self.send_signal(widget.Inputs.data, other, widget=widget)
                    self.wait_until_finished(widget=widget, timeout=60000)
                    self.assertFalse(
                        widget.Warning.instance_weights.is_shown())
