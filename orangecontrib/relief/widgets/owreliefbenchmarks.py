"""Benchmark Data: a data source of problems whose important features are known.

The widget only chooses a generator from :mod:`orangecontrib.relief.datasets`
and its parameters; every table comes from there, with its important features
marked ``var.attributes["relevant"] = True`` so that Relief Evaluation finds them.
"""
from AnyQt.QtCore import Qt
from AnyQt.QtWidgets import QFormLayout

from Orange.data import Table
from Orange.widgets import gui
from Orange.widgets.settings import Setting
from Orange.widgets.utils.widgetpreview import WidgetPreview
from Orange.widgets.widget import Msg, Output, OWWidget

from orangecontrib.relief import datasets


class OWReliefBenchmarks(OWWidget):
    # (short enough for the canvas toolbox, where "Relief Benchmarks" was
    # cut; saved workflows name the class, so they still load)
    name = "Benchmark Data"
    description = ("Benchmark problems of the Relief literature with known "
                   "important features: Modulo-p-I, CorrAl, LED and the "
                   "MONK's problems.")
    icon = "icons/ReliefBenchmarks.svg"
    priority = 100
    keywords = "relief benchmarks, relief, benchmark, modulo, corral, led, " \
               "monk, synthetic, artificial data, generator"

    class Outputs:
        data = Output("Data", Table)

    class Error(OWWidget.Error):
        generation_failed = Msg("{}")

    settings_version = 1

    Modulo, CorrAl, LED, MONK = range(4)
    PROBLEMS = ("Modulo-p-I", "CorrAl", "LED display", "MONK's problems")
    CORRAL_ROWS = (32, 160)
    SPLITS = ("train", "test", "all")

    problem = Setting(Modulo)
    modulo_p = Setting(2)
    modulo_important = Setting(2)
    modulo_random = Setting(10)
    modulo_instances = Setting(500)
    corral_rows = Setting(0)            # index into CORRAL_ROWS
    led_irrelevant = Setting(17)
    led_instances = Setting(3200)
    led_noise = Setting(10)             # percent of flipped segment bits
    monk_problem = Setting(0)           # 0, 1, 2: MONK-1, -2, -3
    monk_split = Setting(0)             # index into SPLITS
    random_state = Setting(0)
    auto_apply = Setting(True)

    want_main_area = False
    resizing_enabled = False

    def __init__(self):
        super().__init__()
        self.data = None

        box = gui.vBox(self.controlArea, "Problem")
        radios = gui.radioButtons(box, self, "problem", callback=self._problem_changed)

        def chooser(index):
            def choose():
                self.problem = index
                self.commit.deferred()
            return choose

        def form_box():
            form = QFormLayout(formAlignment=Qt.AlignLeft | Qt.AlignTop,
                               labelAlignment=Qt.AlignLeft,
                               fieldGrowthPolicy=QFormLayout.AllNonFixedFieldsGrow)
            return gui.indentedBox(radios, orientation=form), form

        def spin(parent, form, label, attribute, minimum, maximum, index, tooltip,
                 step=1, suffix=""):
            control = gui.spin(parent, self, attribute, minimum, maximum, step=step,
                               controlWidth=80, alignment=Qt.AlignRight,
                               addToLayout=False, callback=chooser(index),
                               tooltip=tooltip)
            if suffix:
                control.setSuffix(suffix)
            form.addRow(label, control)
            return control

        gui.appendRadioButton(
            radios, "Modulo-p-I",
            tooltip="Features are integers in [0, p); the class is the sum of the "
                    "I important features modulo p; R random features are added.")
        parent, form = form_box()
        spin(parent, form, "Values p:", "modulo_p", 2, 20, self.Modulo,
             "Number of values of every feature and of the class.")
        spin(parent, form, "Important features I:", "modulo_important", 1, 20,
             self.Modulo, "Features whose sum (mod p) is the class.")
        spin(parent, form, "Random features R:", "modulo_random", 0, 1000, self.Modulo,
             "Uniform random features that do not influence the class.")
        spin(parent, form, "Instances n:", "modulo_instances", 1, 100000, self.Modulo,
             "Number of generated rows.", step=100)

        gui.appendRadioButton(
            radios, "CorrAl",
            tooltip="Kohavi & John's CorrAl: class = (A0 and A1) or (B0 and B1); "
                    "'Correlated' agrees with the class in 75 % of rows, "
                    "'Irrelevant' is random.")
        parent, form = form_box()
        combo = gui.comboBox(parent, self, "corral_rows", addToLayout=False,
                             items=("32 rows (classic training set)",
                                    "160 rows (whole file)"),
                             callback=chooser(self.CorrAl))
        form.addRow("Rows:", combo)

        gui.appendRadioButton(
            radios, "LED display",
            tooltip="Seven LED segments with noise (the digit is the class) and "
                    "irrelevant random bits; 17 irrelevant bits make LED24.")
        parent, form = form_box()
        spin(parent, form, "Irrelevant bits:", "led_irrelevant", 0, 1000, self.LED,
             "Fair coin features added after the seven segments.")
        spin(parent, form, "Instances n:", "led_instances", 1, 100000, self.LED,
             "Number of generated rows.", step=100)
        spin(parent, form, "Noise:", "led_noise", 0, 100, self.LED,
             "Probability that a segment bit is flipped.", suffix=" %")

        gui.appendRadioButton(
            radios, "MONK's problems",
            tooltip="Thrun et al.'s MONK-1, MONK-2 and MONK-3 over six attributes "
                    "(UCI value codes); MONK-3's training file has 5 % class noise.")
        parent, form = form_box()
        form.addRow("Problem:", gui.comboBox(
            parent, self, "monk_problem", items=("MONK-1", "MONK-2", "MONK-3"),
            addToLayout=False,
            callback=chooser(self.MONK)))
        form.addRow("Rows:", gui.comboBox(
            parent, self, "monk_split", addToLayout=False,
            items=("UCI training file", "All 432 combinations (test file)",
                   "Training and test"),
            callback=chooser(self.MONK)))

        box = gui.vBox(self.controlArea, "Random Generator")
        gui.spin(box, self, "random_state", 0, 2 ** 31 - 1, label="Seed:",
                 controlWidth=80, alignment=Qt.AlignRight,
                 callback=self.commit.deferred,
                 tooltip="Seed of Modulo-p-I and LED; the other problems are fixed "
                         "tables.")

        gui.auto_apply(self.buttonsArea, self, "auto_apply", commit=self.commit)
        self.commit.now()

    def _problem_changed(self):
        self.commit.deferred()

    def generate(self) -> Table:
        """The table of the chosen problem; raises ValueError on a bad choice."""
        if self.problem == self.Modulo:
            return datasets.modulo(self.modulo_p, self.modulo_important,
                                   self.modulo_random, self.modulo_instances,
                                   random_state=self.random_state)
        if self.problem == self.CorrAl:
            return datasets.corral(self.CORRAL_ROWS[self.corral_rows])
        if self.problem == self.LED:
            return datasets.led(self.led_irrelevant, self.led_instances,
                                noise=self.led_noise / 100,
                                random_state=self.random_state)
        return datasets.monk(self.monk_problem + 1, self.SPLITS[self.monk_split])

    @gui.deferred
    def commit(self):
        self.Error.clear()
        try:
            self.data = self.generate()
        except ValueError as error:
            self.data = None
            self.Error.generation_failed(str(error))
        self.Outputs.data.send(self.data)

    def _parameters(self):
        if self.problem == self.Modulo:
            return (("p", self.modulo_p), ("I", self.modulo_important),
                    ("R", self.modulo_random), ("Instances", self.modulo_instances),
                    ("Seed", self.random_state))
        if self.problem == self.CorrAl:
            return (("Rows", self.CORRAL_ROWS[self.corral_rows]),)
        if self.problem == self.LED:
            return (("Irrelevant bits", self.led_irrelevant),
                    ("Instances", self.led_instances),
                    ("Noise", f"{self.led_noise} %"), ("Seed", self.random_state))
        return (("Problem", f"MONK-{self.monk_problem + 1}"),
                ("Rows", self.SPLITS[self.monk_split]))

    def send_report(self):
        self.report_items("Problem", (("Problem", self.PROBLEMS[self.problem]),)
                          + self._parameters())
        if self.data is not None:
            self.report_data("Data", self.data)
            self.report_paragraph(
                "Important features",
                ", ".join(datasets.important_features(self.data)))

    @classmethod
    def migrate_settings(cls, settings, version):
        """Settings of older versions, converted to this one's (version 1 is
        the first, so there is nothing to convert yet)."""


if __name__ == "__main__":  # pragma: no cover
    WidgetPreview(OWReliefBenchmarks).run()
