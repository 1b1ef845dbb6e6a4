"""Build the example workflows of this directory (``*.ows``).

Run ``QT_QPA_PLATFORM=offscreen python -m orangecontrib.relief.tutorials._build``
after changing a widget's settings; the workflows are written next to this
file. Each widget is created, configured as a user would, and its settings
are packed by its own settings handler, so the files hold exactly what Orange
would save. The File widget finds the bundled CorrAl data through the
workflow's directory (``basedir``), so the workflows open from the installed
package without edits.
"""
import io
import os

from AnyQt.QtCore import Qt
from AnyQt.QtWidgets import QApplication

from orangecanvas.registry import WidgetDescription
from orangecanvas.scheme import Scheme, SchemeLink, SchemeNode, readwrite
from orangecanvas.scheme.annotations import SchemeTextAnnotation

HERE = os.path.dirname(os.path.abspath(__file__))
CORRAL_RELPATH = "../datasets/corral.tsv"

PROJECTS = {"Orange": "Orange3", "orangecontrib": "orange3-relief"}


def description(widget_class):
    desc = WidgetDescription(**widget_class.get_widget_description())
    desc.project_name = PROJECTS[widget_class.__module__.split(".")[0]]
    return desc


def file_settings():
    """Settings of a File widget that loads CorrAl with `class` as target."""
    from Orange.widgets.data.owfile import OWFile
    from Orange.widgets.utils.filedialogs import RecentPath

    def recent():
        return RecentPath(CORRAL_RELPATH, "basedir", CORRAL_RELPATH,
                          title="corral.tsv")

    widget = OWFile.__new__(
        OWFile, stored_settings={"recent_paths": [recent()], "source": 0},
        env={"basedir": HERE})
    widget.__init__()
    QApplication.processEvents()
    model = widget.domain_editor.model()
    names = [row[0] for row in model.variables]
    model.setData(model.createIndex(names.index("class"), 2), "target",
                  Qt.EditRole)
    widget.apply_domain_edit()
    settings = widget.settingsHandler.pack_data(widget)
    settings["recent_paths"] = [recent()]
    widget.onDeleteWidget()
    widget.deleteLater()
    return settings


def corral():
    """CorrAl as the File node outputs it: `class` is the target."""
    from Orange.data import Domain, Table
    data = Table(os.path.join(HERE, CORRAL_RELPATH))
    attributes = data.domain.attributes
    return data.transform(Domain(attributes[:-1], attributes[-1]))


def packed(widget_class, data=None, **values):
    """Settings of a fresh `widget_class` instance with `values` set; with
    `data`, context settings are stored for that data's domain."""
    widget = widget_class()
    if data is not None:
        widget.set_data(data)
    for name, value in values.items():
        setattr(widget, name, value)
    settings = widget.settingsHandler.pack_data(widget)
    widget.onDeleteWidget()
    widget.deleteLater()
    return settings


class Builder:
    def __init__(self, title, text):
        self.scheme = Scheme(title=title, description=text)

    def node(self, widget_class, title, position, settings):
        node = SchemeNode(description(widget_class), title=title,
                          position=position)
        node.properties = settings
        self.scheme.add_node(node)
        return node

    def link(self, source, output, sink, input_):
        self.scheme.add_link(SchemeLink(source, output, sink, input_))

    def note(self, rect, text):
        self.scheme.add_annotation(SchemeTextAnnotation(rect, text))

    def save(self, filename):
        stream = io.BytesIO()
        readwrite.scheme_to_ows_stream(self.scheme, stream, pretty=True,
                                       pickle_fallback=True)
        with open(os.path.join(HERE, filename), "wb") as f:
            f.write(stream.getvalue())


def ranking_workflow():
    """(1) File (CorrAl) -> ReliefF / dReliefF / pdReliefF -> Rank ->
    Select Columns -> kNN -> Test & Score."""
    from Orange.widgets.data.owfile import OWFile
    from Orange.widgets.data.owrank import OWRank
    from Orange.widgets.data.owselectcolumns import OWSelectAttributes
    from Orange.widgets.evaluate.owtestandscore import OWTestAndScore
    from Orange.widgets.model.owknn import OWKNNLearner
    from orangecontrib.relief.widgets.owdrelieff import OWDReliefF
    from orangecontrib.relief.widgets.owpdrelieff import OWPDReliefF
    from orangecontrib.relief.widgets.owrelieff import OWReliefF

    b = Builder(
        "Relief weights on CorrAl",
        "CorrAl (John, Kohavi & Pfleger 1994): the class is (A0 and A1) or "
        "(B0 and B1); 'Correlated' agrees with the class on 75 % of the "
        "instances and 'Irrelevant' is noise. The three Relief widgets weight "
        "the features and send their scorers to Rank, which ranks them next "
        "to information gain. Select Columns keeps Rank's four best features "
        "and Test & Score cross-validates kNN on them.")
    file_ = b.node(OWFile, "File", (60, 130), file_settings())
    relief = b.node(OWReliefF, "ReliefF", (280, 270),
                    packed(OWReliefF, n_selected=4))
    d_relief = b.node(OWDReliefF, "dReliefF", (280, 400),
                      packed(OWDReliefF, n_selected=4))
    pd_relief = b.node(OWPDReliefF, "pdReliefF", (280, 530),
                       packed(OWPDReliefF, n_selected=4))
    rank = b.node(OWRank, "Rank", (500, 270),
                  packed(OWRank, data=corral(), nSelected=4,
                         selected_methods={"Information Gain"},
                         sorting=(3, 1)))
    select = b.node(OWSelectAttributes, "Select Columns", (700, 130),
                    packed(OWSelectAttributes, use_input_features=True))
    knn = b.node(OWKNNLearner, "kNN", (700, 400), packed(OWKNNLearner))
    test = b.node(OWTestAndScore, "Test and Score", (900, 260),
                  packed(OWTestAndScore, n_folds=3))  # 10 folds
    for node in (relief, d_relief, pd_relief):
        b.link(file_, "Data", node, "Data")
        b.link(node, "Scorer", rank, "Scorer")
    b.link(file_, "Data", rank, "Data")
    b.link(file_, "Data", select, "Data")
    b.link(rank, "Features", select, "Features")
    b.link(select, "Data", test, "Data")
    b.link(knn, "Learner", test, "Learner")
    b.note((20, 20, 420, 70),
           "Open the Relief widgets to see each algorithm's weights and "
           "their convergence; Rank compares them with information gain, "
           "which prefers the misleading 'Correlated'.")
    b.save("relief-ranking.ows")


def preprocessor_workflow():
    """(2) dReliefF's Preprocessor in Test & Score: selection inside folds."""
    from Orange.widgets.data.owfile import OWFile
    from Orange.widgets.evaluate.owtestandscore import OWTestAndScore
    from Orange.widgets.model.owknn import OWKNNLearner
    from orangecontrib.relief.widgets.owdrelieff import OWDReliefF

    b = Builder(
        "Feature selection inside cross-validation",
        "dReliefF's Preprocessor output keeps the top 4 features by dReliefF; "
        "connected to Test & Score, the weights are recomputed on the "
        "training part of every fold, so the estimate has no selection bias. "
        "The second Test & Score evaluates the same kNN on all features.")
    file_ = b.node(OWFile, "File", (60, 260), file_settings())
    relief = b.node(OWDReliefF, "dReliefF", (260, 120),
                    packed(OWDReliefF, n_selected=4))
    knn = b.node(OWKNNLearner, "kNN", (260, 400), packed(OWKNNLearner))
    with_selection = b.node(OWTestAndScore, "Test and Score (top 4 features)",
                            (500, 160), packed(OWTestAndScore, n_folds=3))
    without = b.node(OWTestAndScore, "Test and Score (all features)",
                     (500, 360), packed(OWTestAndScore, n_folds=3))
    b.link(file_, "Data", relief, "Data")
    b.link(relief, "Preprocessor", with_selection, "Preprocessor")
    for test in (with_selection, without):
        b.link(file_, "Data", test, "Data")
        b.link(knn, "Learner", test, "Learner")
    b.note((20, 20, 420, 70),
           "Compare the two Test & Score widgets: with dReliefF's selection "
           "(redone in every training fold) and without it.")
    b.save("relief-preprocessor.ows")


def main():
    app = QApplication.instance() or QApplication([])
    ranking_workflow()
    preprocessor_workflow()
    del app


if __name__ == "__main__":
    main()
