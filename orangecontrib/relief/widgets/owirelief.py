"""I-RELIEF widget: Sun's iterative RELIEF (``core.irelief``).

Soft neighbourhoods instead of k nearest ones: every instance's hits and
misses are weighted by a kernel exp(-d / sigma) of the weighted distance,
the mean margin gives new weights, and this repeats until the weights stop
changing.  The widget configures an :class:`~orangecontrib.relief.scoring.
IReliefF` scorer, runs it off the GUI thread (progress and Cancel), and
shows the weights, their path over the iterations and how the run ended
(converged or not, damped or not).  The table, the selection and the
outputs are those every scoring widget shares (``owscoringbase``); nothing
here computes a weight.
"""
from types import SimpleNamespace
from typing import Optional

import numpy as np
import scipy.sparse as sp

from AnyQt.QtCore import QSize, Qt

from Orange.data import Table
from Orange.preprocess.fss import SelectBestFeatures
from Orange.widgets import gui
from Orange.widgets.settings import Setting
from Orange.widgets.utils.widgetpreview import WidgetPreview
from Orange.widgets.widget import Msg

from orangecontrib.relief.scoring import IReliefF
from orangecontrib.relief.widgets.owscoringbase import (
    SELECTION_LIMITS, OWScoringBase, scorer_warnings)
from orangecontrib.relief.widgets.relieftask import run
from orangecontrib.relief.widgets.reliefviews import ConvergencePlot


#: The damping choices: the setting's name -> the combo's text.
DAMPINGS = {"auto": "Automatic", "none": "None", "fixed": "Fixed λ:"}


class OWIRelief(OWScoringBase):
    name = "I-RELIEF"
    description = ("Weight features by I-RELIEF (Sun 2007): soft "
                   "neighbourhoods from a kernel of the weighted distance, "
                   "iterated until the weights settle.")
    icon = "icons/IRelief.svg"
    priority = 40
    keywords = "irelief, i-relief, iterative relief, relief, relieff, " \
               "feature weighting, feature selection, rank, score"

    class Error(OWScoringBase.Error):
        no_class = Msg("Data has no target variable: I-RELIEF needs a "
                       "categorical class.")
        numeric_class = Msg("I-RELIEF needs a categorical class; use "
                            "ReliefF for a numeric one (RReliefF).")
        several_targets = Msg("I-RELIEF needs one categorical class; the "
                              "data has {} targets: use ReliefF "
                              "(multi-target RReliefF).")
        too_few_instances = Msg("At least two instances with a known class "
                                "are needed.")

    class Warning(OWScoringBase.Warning):
        not_converged = Msg("Not converged in {} iterations (last change "
                            "{:.3g} ≥ {:g}): raise the maximum or σ.")

    class Information(OWScoringBase.Information):
        missing_values = Msg("{} missing feature values, handled as "
                             "expected differences (RELIEF-D).")
        missing_target = Msg("{} instances with an unknown class are left "
                             "out.")
        cancelled = Msg("Computation was cancelled; change a setting or "
                        "press Apply to run again.")

    sigma = Setting(2.0)
    max_iterations = Setting(1000)
    tolerance = Setting(0.001)
    damping_mode = Setting("auto")   # a name of DAMPINGS
    damping_lambda = Setting(0.5)    # the fixed λ

    #: the numeric settings' ranges: the controls' and the stored values'
    LIMITS = dict(SELECTION_LIMITS, sigma=(0.01, 1000),
                  max_iterations=(1, 100000), tolerance=(0.000001, 1),
                  damping_lambda=(0.01, 1))

    def __init__(self):
        super().__init__()      # (the result: an IReliefResult; no test)
        self._reset_bad_settings(dict(damping_mode=tuple(DAMPINGS),
                                      select_percent=(0, 1)))
        self._setup_gui()
        self.commit.now()

    # GUI
    def _setup_gui(self):
        box = gui.vBox(self.controlArea, "Iteration")
        gui.doubleSpin(
            box, self, "sigma", *self.LIMITS["sigma"],
            0.1, label="Kernel width σ:",
            controlWidth=80, alignment=Qt.AlignRight,
            callback=self._params_changed,
            tooltip="Hits and misses count by exp(-d / σ) of their distance "
                    "d (a sum of diffs in [0, 1], weighted by unit-length "
                    "weights): a narrow kernel looks near (and sees "
                    "interactions), a wide one far (Sun proves convergence "
                    "for a wide one).")
        gui.spin(
            box, self, "max_iterations", *self.LIMITS["max_iterations"],
            label="Maximum iterations:", controlWidth=80,
            alignment=Qt.AlignRight, callback=self._params_changed,
            tooltip="Stop after this many iterations, converged or not.")
        gui.doubleSpin(
            box, self, "tolerance", *self.LIMITS["tolerance"],
            0.0001, decimals=6,
            label="Tolerance:", controlWidth=80, alignment=Qt.AlignRight,
            callback=self._params_changed,
            tooltip="Converged when an iteration changes the weights by "
                    "less than this (Euclidean length of the change).")
        # (the combo shows a position; the setting keeps the choice's name)
        self.damping_names = list(DAMPINGS)
        self.damping_position = self.damping_names.index(self.damping_mode)
        row = gui.hBox(box)
        gui.comboBox(
            row, self, "damping_position", label="Damping:",
            orientation=Qt.Horizontal,
            items=list(DAMPINGS.values()),
            callback=self._damping_changed,
            tooltip="The fraction λ of each step the iteration takes. "
                    "Automatic: Sun's whole steps, halved only while the "
                    "weights oscillate (swing between features). None: "
                    "Sun's whole steps always. Fixed λ: that fraction of "
                    "every step. Whichever it is, a run stops only where a "
                    "whole step would change the weights by less than the "
                    "tolerance.")
        self.damping_spin = gui.doubleSpin(
            row, self, "damping_lambda", *self.LIMITS["damping_lambda"],
            0.05, decimals=2,
            controlWidth=60, alignment=Qt.AlignRight,
            callback=self._params_changed,
            tooltip="λ: w ← (1 − λ) w + λ w_new, scaled to length 1.")
        self.damping_spin.setEnabled(self.damping_mode == "fixed")
        self.ending_label = gui.widgetLabel(box, "")
        self.ending_label.setWordWrap(True)

        self._selection_box()
        # the weights after each iteration (0: the uniform start)
        self._plot_box_and_views(ConvergencePlot(
            self, "Iteration", "Weight", integer_x=True,
            title="The top features' weights per iteration"))
        # (no narrower than the layout needs: a narrower window cuts the
        # plot's right end and its legend)
        self.resize(self.minimumSizeHint().expandedTo(QSize(900, 600)))

    # callbacks
    def _params_changed(self):
        self.commit.deferred()

    def _damping_changed(self):
        self.damping_mode = self.damping_names[self.damping_position]
        self.damping_spin.setEnabled(self.damping_mode == "fixed")
        self.commit.deferred()

    def damping(self):
        """The scorer's ``damping``: "auto", None or the fixed λ."""
        if self.damping_mode == "fixed":
            return float(self.damping_lambda)
        return "auto" if self.damping_mode == "auto" else None

    # scorer and preprocessor
    def scorer_params(self) -> dict:
        return dict(sigma=float(self.sigma),
                    max_iterations=int(self.max_iterations),
                    tolerance=float(self.tolerance),
                    damping=self.damping())

    def create_scorer(self):
        return IReliefF(**self.scorer_params())

    def create_preprocessor(self, scorer):
        return SelectBestFeatures(method=scorer, k=self.selection_k())

    # data
    def _check_data(self) -> Optional[Table]:
        """Show messages about the data; return the data to score or None."""
        for message in (self.Error.no_class, self.Error.numeric_class,
                        self.Error.several_targets,
                        self.Error.no_attributes,
                        self.Error.too_few_instances,
                        self.Information.missing_values,
                        self.Information.missing_target):
            message.clear()
        self.scored = None
        data = self.data
        self._show_instance_weights(data)
        if data is None:
            return None
        domain = data.domain
        if not domain.attributes:
            self.Error.no_attributes()
            return None
        if len(domain.class_vars) > 1:
            self.Error.several_targets(len(domain.class_vars))
            return None
        if domain.class_var is None:
            self.Error.no_class()
            return None
        if domain.class_var.is_continuous:
            self.Error.numeric_class()
            return None
        known = ~np.isnan(data.get_column(domain.class_var))
        if known.sum() < 2:
            self.Error.too_few_instances()
            return None
        if not known.all():
            self.Information.missing_target(int((~known).sum()))
        values = data.X[known].data if sp.issparse(data.X) else data.X[known]
        n_missing = int(np.isnan(values).sum())
        if n_missing:
            self.Information.missing_values(n_missing)
        self.scored = data
        return data

    # computation
    @gui.deferred
    def commit(self):
        scorer = self.create_scorer()
        self.Outputs.scorer.send(scorer)
        self.Outputs.preprocessor.send(self.create_preprocessor(scorer))
        self.Information.cancelled.clear()
        data = self._check_data()
        if data is None:
            self.cancel()
            self._set_running(False)
            self._clear_messages()
            self._forget()
            self.clear_view()
            self.send_data_outputs()
            return
        key = (id(self.data), tuple(sorted(self.scorer_params().items())))
        if self.result is not None and key == self._known["result"]:
            self.send_data_outputs()
            return
        self.cancel()
        self._clear_messages()
        self._forget()
        self._pending = dict(self._known, result=key)
        self.clear_view()
        self.send_data_outputs()
        self._set_running(True)
        self.start(run, data, scorer, None, None)

    def _clear_messages(self):
        self.Error.compute_failed.clear()
        self.Warning.not_converged.clear()
        self.Warning.scorer_warning.clear()

    def on_done(self, output: SimpleNamespace):
        self._set_running(False)
        self._keep("result", output.result)
        result = self.result
        if result.iterations and not result.converged:
            self.Warning.not_converged(result.iterations, result.changes[-1],
                                       self.tolerance)
        texts = scorer_warnings(output.warnings, "did not converge",
                                "missing class value", "instance weight")
        if texts:
            self.Warning.scorer_warning("\n".join(texts))
        self.show_result()
        self.send_data_outputs()

    def on_exception(self, ex: Exception):
        self._set_running(False)
        self._forget()
        if not isinstance(ex, (ValueError, MemoryError)):
            raise ex
        self.Error.compute_failed(str(ex) or type(ex).__name__)
        self.clear_view()
        self.send_data_outputs()

    # display
    def clear_view(self):
        self.model.clear()
        self.model.setHorizontalHeaderLabels(["Feature", "Weight"])
        self.plotview.clear()
        self.ending_label.setText("")

    def ending(self) -> str:
        """How the run ended, in words: iterations, the last change, and
        the damped steps (a fixed λ, or where an oscillation was damped)."""
        res = self.result
        if res is None or not res.iterations:
            return ""
        change = res.changes[-1]
        text = (f"Converged in {res.iterations} iterations (last change "
                f"{change:.2g})." if res.converged else
                f"Stopped after {res.iterations} iterations, not converged "
                f"(last change {change:.2g}).")
        damped = np.flatnonzero(res.damping < 1)
        if len(damped) and damped[0] == 0:   # (a fixed λ; "auto" starts whole)
            text += f" Steps of λ = {res.damping[0]:g}."
        elif len(damped):
            text += (f" The weights oscillated: steps damped from iteration "
                     f"{damped[0] + 1} (down to λ = "
                     f"{res.damping[damped].min():g}).")
        return text

    def _update_plot(self):
        res = self.result
        if res is None or self.scored is None:
            self.plotview.clear()
            return
        self.ending_label.setText(self.ending())
        top = [int(i) for i in self.ranked_indices()[:self.n_plotted]
               if not np.isnan(res.weights[i])]
        names = [attr.name for attr in self.scored.domain.attributes]
        self.plotview.set_trace(res.trace_steps, res.trace, names, top)

    # report
    def send_report(self):
        self.report_items("Parameters", [
            ("Kernel width σ", f"{self.sigma:g}"),
            ("Maximum iterations", self.max_iterations),
            ("Tolerance", f"{self.tolerance:g}"),
            ("Damping", f"fixed λ = {self.damping_lambda:g}"
             if self.damping_mode == "fixed"
             else DAMPINGS[self.damping_mode].lower()),
            ("Selected features", f"top {self.percent_selected} %"
             if self.select_percent else f"top {self.n_selected}")])
        if self.scored is None or self.result is None:
            return
        self.report_data("Data", self.scored)
        self.report_paragraph("Run", self.ending())
        attrs = self.scored.domain.attributes
        self.report_items("Top weights", [
            (attrs[i].name, f"{self.result.weights[i]:.4f}")
            for i in self.ranked_indices()[:10]])
        self.report_plot("Weights per iteration", self.plotview.plot)


if __name__ == "__main__":  # pragma: no cover
    WidgetPreview(OWIRelief).run(Table("heart_disease"))
