"""The ReliefF widgets' neighbour influence (issue 40, item 3): by rank, as
before, or 1/d or 1/d² of the distance (CORElearn's ReliefFdistance and
ReliefFsqrDistance); a saved workflow without the setting keeps ranks."""
# pylint: disable=missing-docstring,protected-access
import numpy as np

from Orange.data import Table
from Orange.widgets.tests import base as widget_tests

from orangecontrib.relief import relieff
from orangecontrib.relief.scoring import ReliefF
from orangecontrib.relief.widgets.owrelieff import OWReliefF


class TestInfluence(widget_tests.WidgetTest):
    test_minimum_size = test_image_export = test_msg_base_class = None
    test_zero_size_data = None

    def test_influence_by_distance_reaches_the_scorer(self):
        data = Table("iris")
        widget = self.create_widget(OWReliefF)
        self.assertEqual(widget.influence, "rank")
        self.assertIs(widget.scorer_params()["weight_by_distance"], False)
        widget.controls.weight_by_distance.setChecked(True)
        self.assertIs(widget.scorer_params()["weight_by_distance"], True)
        widget.influence_combo.setCurrentIndex(2)
        widget.influence_combo.activated.emit(2)
        self.assertEqual(widget.influence, "sqr_distance")
        params = widget.scorer_params()
        self.assertEqual(params["weight_by_distance"], "sqr_distance")
        self.send_signal(widget.Inputs.data, data, widget=widget)
        self.wait_until_finished(widget=widget, timeout=60000)
        shown = self.get_output(widget.Outputs.scores, widget=widget)
        by_name = dict(zip(shown.get_column("Feature"), shown.X[:, 0]))
        expected = relieff(data.X, data.Y, k_nearest=10,
                           weight_by_distance="sqr_distance").weights
        np.testing.assert_allclose(
            [by_name[var.name] for var in data.domain.attributes],
            expected, rtol=0, atol=1e-12)
        widget.send_report()
        self.assertIn("1 / distance²", widget.report_html)

    def test_weka_numbers_keep_ranks(self):
        widget = self.create_widget(OWReliefF)
        widget.weight_by_distance, widget.influence = True, "distance"
        widget.weka_compat = True
        self.assertIs(widget.scorer_params()["weight_by_distance"], True)
        self.assertIsInstance(
            ReliefF(**widget.scorer_params()), ReliefF)

    def test_saved_settings_without_influence(self):
        widget = self.create_widget(
            OWReliefF, stored_settings=dict(weight_by_distance=True,
                                            sigma=1.5))
        self.assertEqual(widget.influence, "rank")
        self.assertIs(widget.scorer_params()["weight_by_distance"], True)
