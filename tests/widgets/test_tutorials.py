"""The widget category is discovered and the example workflows load."""
# pylint: disable=missing-docstring
import glob
import io
import itertools
import json
import os
import time
import unittest
import warnings

from AnyQt.QtCore import QLineF, QPointF, QRectF, Qt, QTimer
from AnyQt.QtGui import QPolygonF
from AnyQt.QtWidgets import QApplication, QStyleOptionToolButton

from orangecanvas.application.canvasmain import CanvasMainWindow
from orangecanvas.application.examples import list_workflows
from orangecanvas.canvas.scene import CanvasScene
from orangecanvas.gui.toolgrid import ToolGridButton
from orangecanvas.registry import WidgetRegistry
from orangecanvas.registry.qt import QtWidgetRegistry
from orangecanvas.registry.utils import category_from_package_globals
from orangecanvas.scheme import Scheme, readwrite
from orangewidget.workflow.discovery import WidgetDiscovery
from orangewidget.workflow.widgetsscheme import WidgetsScheme

import Orange.widgets
from Orange.widgets.data.owfile import OWFile
from Orange.widgets.tests import base as widget_tests

import orangecontrib.relief.tutorials as tutorials
import orangecontrib.relief.widgets as category
from orangecontrib.relief.widgets.owreliefbase import OWReliefBase

TUTORIALS_DIR = os.path.dirname(tutorials.__file__)
WORKFLOWS = ("relief-preprocessor.ows", "relief-ranking.ows")


def relief_registry(with_orange=True):
    registry = WidgetRegistry()
    discovery = WidgetDiscovery(registry)
    if with_orange:
        Orange.widgets.widget_discovery(discovery)
    discovery.handle_category(category_from_package_globals(category.__name__))
    discovery.process_category_package(category.__name__)
    return registry


class TestCategory(unittest.TestCase):
    def test_category_and_widgets_are_discovered(self):
        registry = relief_registry(with_orange=False)
        cat = registry.category("Relief")
        self.assertEqual(cat.background, category.BACKGROUND)
        # other widgets of the add-on follow the three scorers
        widgets = registry.widgets("Relief")[:3]
        self.assertEqual([w.name for w in widgets],
                         ["ReliefF", "dReliefF", "pdReliefF"])
        for desc in widgets:
            self.assertTrue(os.path.exists(os.path.join(
                os.path.dirname(category.__file__), desc.icon)), desc.icon)
            self.assertEqual(
                {o.name for o in desc.outputs},
                {"Scorer", "Preprocessor", "Scores", "Reduced Data"})
        self.assertTrue(os.path.exists(os.path.join(
            os.path.dirname(category.__file__), category.ICON)))
        self.assertIsInstance(category.WIDGET_HELP_PATH, category.HelpPath)


def segment_hits_rect(p, q, rect):
    """Whether the segment p-q meets `rect` (Liang-Barsky clipping)."""
    low, high = 0.0, 1.0
    dx, dy = q.x() - p.x(), q.y() - p.y()
    for step, room in ((-dx, p.x() - rect.left()), (dx, rect.right() - p.x()),
                       (-dy, p.y() - rect.top()), (dy, rect.bottom() - p.y())):
        if step == 0:
            if room < 0:
                return False
        elif step < 0:
            low = max(low, room / step)
        else:
            high = min(high, room / step)
        if low > high:
            return False
    return True


def segment_hits_polygon(p, q, polygon):
    """Whether the segment p-q meets the convex `polygon` (a label's box)."""
    if polygon.containsPoint(p, Qt.OddEvenFill) \
            or polygon.containsPoint(q, Qt.OddEvenFill):
        return True
    segment = QLineF(p, q)
    corners = [QPointF(point) for point in polygon]
    return any(
        segment.intersects(QLineF(a, b))[0] == QLineF.IntersectionType.BoundedIntersection
        for a, b in zip(corners, corners[1:] + corners[:1]))


def workflow_geometry(scheme, registry):
    """The workflow drawn as the canvas draws it (the canvas's own scene,
    channel names shown): each node's box (icon and caption), each link's
    curve as segments and its label's box, each note's box, in scene
    coordinates."""
    scene = CanvasScene()
    scene.set_channel_names_visible(True)
    scene.set_registry(QtWidgetRegistry(registry))
    scene.set_scheme(scheme)
    nodes = {}
    for node in scheme.nodes:
        item = scene.item_for_node(node)
        nodes[node] = item.shapeItem.sceneBoundingRect().united(
            item.captionTextItem.sceneBoundingRect())
    links = {}
    for link in scheme.links:
        item = scene.item_for_link(link)
        curve = item.curveItem.mapToScene(item.curveItem.curvePath())
        # (copies: the points of a polygon live only as long as it does)
        points = [[QPointF(point) for point in polygon]
                  for polygon in curve.toSubpathPolygons()]
        segments = [pair for line in points for pair in zip(line, line[1:])]
        # the label's text (not its box, at least 100 wide), centred on it
        text = item.linkTextItem
        box, width = text.boundingRect(), text.document().idealWidth()
        label = text.mapToScene(QRectF(box.left() + (box.width() - width) / 2,
                                       box.top(), width, box.height()))
        links[link] = (segments, label, text.toPlainText())
    notes = [QRectF(*note.rect) for note in scheme.annotations]
    scene.clear_scene()
    return nodes, links, notes


def layout_faults(scheme, registry):
    """Everything that makes the drawn workflow hard to read: a link through
    a node that is not one of its ends, two labels that overlap, a label over
    a node or another link, a note over a node or a link."""
    nodes, links, notes = workflow_geometry(scheme, registry)
    faults = []

    def name(link):
        return f"{link.source_node.title} -> {link.sink_node.title} " \
               f"({links[link][2]})"

    for link, (segments, label, _) in links.items():
        for node, rect in nodes.items():
            if node in (link.source_node, link.sink_node):
                continue
            if any(segment_hits_rect(p, q, rect) for p, q in segments):
                faults.append(f"link {name(link)} runs through {node.title}")
            if label.intersects(QPolygonF(rect)):
                faults.append(f"label of {name(link)} is over {node.title}")
        for other, (other_segments, _, _) in links.items():
            if other is not link and any(segment_hits_polygon(p, q, label)
                                         for p, q in other_segments):
                faults.append(f"label of {name(link)} is over {name(other)}")
    for first, second in itertools.combinations(links, 2):
        if links[first][1].intersects(links[second][1]):
            faults.append(f"labels of {name(first)} and {name(second)} overlap")
    for rect in notes:
        for node, node_rect in nodes.items():
            if rect.intersects(node_rect):
                faults.append(f"a note is over {node.title}")
        for link, (segments, label, _) in links.items():
            if any(segment_hits_rect(p, q, rect) for p, q in segments) \
                    or label.intersects(QPolygonF(rect)):
                faults.append(f"a note is over {name(link)}")
    return faults


class TestHelpPages(unittest.TestCase):
    def test_help_pages_are_titled_as_the_widgets(self):
        """Orange finds a widget's help page by its title: doc/widgets.json
        lists every widget by its name, and each page's title is that name."""
        root = os.path.dirname(os.path.dirname(os.path.dirname(
            os.path.abspath(__file__))))
        with open(os.path.join(root, "doc", "widgets.json"), encoding="utf-8") as f:
            (category_name, listed), = json.load(f)
        self.assertEqual(category_name, category.NAME)
        names = [desc.name for desc in
                 relief_registry(with_orange=False).widgets("Relief")]
        self.assertEqual([widget["text"] for widget in listed], names)
        for widget in listed:
            with open(os.path.join(root, "doc", widget["doc"]),
                      encoding="utf-8") as f:
                title, underline = f.readline().strip(), f.readline().strip()
            self.assertEqual(title, widget["text"])
            self.assertEqual(underline, "=" * len(title))


class TestRenamedWidget(unittest.TestCase):
    def test_workflow_saved_with_the_old_name_loads(self):
        """A workflow saved when Benchmark Data was called Relief Benchmarks
        opens: the canvas finds widgets by their class, not their name."""
        saved = b"""<?xml version='1.0' encoding='utf-8'?>
<scheme version="2.0" title="" description="">
  <nodes>
    <node id="0" name="Relief Benchmarks"
          qualified_name="orangecontrib.relief.widgets.owreliefbenchmarks.OWReliefBenchmarks"
          project_name="orange3-relief" version="" title="Relief Benchmarks"
          position="(100, 100)" />
  </nodes>
  <links />
  <node_properties>
    <properties node_id="0" format="literal">{'problem': 1, '__version__': 1}</properties>
  </node_properties>
</scheme>"""
        errors = []
        scheme = Scheme()
        readwrite.scheme_load(scheme, io.BytesIO(saved),
                              registry=relief_registry(with_orange=False),
                              error_handler=errors.append)
        self.assertEqual(errors, [])
        node, = scheme.nodes
        self.assertEqual(node.description.name, "Benchmark Data")
        self.assertEqual(node.title, "Relief Benchmarks")  # the user's title
        self.assertEqual(node.properties["problem"], 1)


class TestToolbox(widget_tests.GuiTest):
    def test_names_fit_in_the_toolbox(self):
        """The canvas's widget toolbox shows every widget's whole name (its
        buttons elide what does not fit on two lines; 'Relief Benchmarks'
        read 'Relief Benchmar…')."""
        window = CanvasMainWindow()
        self.addCleanup(window.deleteLater)
        window.set_widget_registry(
            QtWidgetRegistry(relief_registry(with_orange=False)))
        window.show()
        self.process_events()
        shown = {}
        for button in window.widgets_tool_box.findChildren(ToolGridButton):
            option = QStyleOptionToolButton()
            button.initStyleOption(option)
            shown[button.defaultAction().text()] = option.text
        window.hide()
        names = [desc.name for desc in
                 relief_registry(with_orange=False).widgets("Relief")]
        self.assertEqual(sorted(shown), sorted(names))
        for name, text in shown.items():
            self.assertEqual(text.split(), name.split(), name)

    @staticmethod
    def process_events():
        for _ in range(3):
            QApplication.processEvents()


class TestTutorials(widget_tests.WidgetTest):
    # no widget of ours here: the automatic widget checks run elsewhere
    test_minimum_size = test_image_export = test_msg_base_class = None
    test_zero_size_data = None

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.registry = relief_registry()

    def test_workflows_are_listed(self):
        self.assertEqual(list_workflows(tutorials), list(WORKFLOWS))

    def test_workflows_load_and_widgets_are_found(self):
        for name in WORKFLOWS:
            with self.subTest(name):
                errors = []
                scheme = Scheme()
                with open(os.path.join(TUTORIALS_DIR, name), "rb") as f:
                    readwrite.scheme_load(scheme, f, registry=self.registry,
                                          error_handler=errors.append)
                self.assertEqual(errors, [])
                with open(os.path.join(TUTORIALS_DIR, name), "rb") as f:
                    parsed = readwrite.parse_ows_stream(f)
                self.assertEqual(len(scheme.nodes), len(parsed.nodes))
                self.assertEqual(len(scheme.links), len(parsed.links))
                names = {node.description.name for node in scheme.nodes}
                self.assertIn("dReliefF", names)
                self.assertIn("Test and Score", names)
                # every node's settings are readable
                for node in scheme.nodes:
                    self.assertIsInstance(node.properties, dict)

    def test_layout_is_readable(self):
        """In every bundled workflow, as the canvas draws it, no link runs
        through a node other than its ends, and no link label overlaps
        another label, a node, another link or a note."""
        for path in sorted(glob.glob(os.path.join(TUTORIALS_DIR, "*.ows"))):
            with self.subTest(os.path.basename(path)):
                scheme = Scheme()
                with open(path, "rb") as f:
                    readwrite.scheme_load(scheme, f, registry=self.registry)
                self.assertEqual(layout_faults(scheme, self.registry), [])

    def test_layout_check_finds_faults(self):
        """The check sees what a user saw in the first layout of "Relief
        weights on CorrAl": File, dReliefF and Rank on one line, so File's
        Data links to Rank and Select Columns ran through dReliefF (and
        Rank), and their labels ran into dReliefF's Scorer label."""
        scheme = Scheme()
        path = os.path.join(TUTORIALS_DIR, "relief-ranking.ows")
        with open(path, "rb") as f:
            readwrite.scheme_load(scheme, f, registry=self.registry)
        first_layout = {
            "File": (60, 260), "ReliefF": (260, 120), "dReliefF": (260, 260),
            "pdReliefF": (260, 400), "Rank": (460, 260),
            "Select Columns": (640, 260), "kNN": (640, 420),
            "Test and Score": (820, 320)}
        for node in scheme.nodes:
            node.position = first_layout[node.title]
        faults = layout_faults(scheme, self.registry)
        self.assertIn("link File -> Rank (Data) runs through dReliefF", faults)
        self.assertIn("link File -> Select Columns (Data) runs through Rank",
                      faults)
        self.assertIn("labels of dReliefF -> Rank (Scorer) and File -> Select "
                      "Columns (Data) overlap", faults)

    def test_ranking_workflow_links(self):
        scheme = Scheme()
        with open(os.path.join(TUTORIALS_DIR, "relief-ranking.ows"), "rb") as f:
            readwrite.scheme_load(scheme, f, registry=self.registry)
        titles = {node.title for node in scheme.nodes}
        self.assertTrue({"File", "ReliefF", "dReliefF", "pdReliefF", "Rank",
                         "Select Columns", "kNN", "Test and Score"} <= titles)
        to_rank = [link.source_node.title for link in scheme.links
                   if link.sink_node.title == "Rank"
                   and link.sink_channel.name == "Scorer"]
        self.assertEqual(to_rank, ["ReliefF", "dReliefF", "pdReliefF"])

    def test_file_widget_loads_corral_with_class(self):
        """The File node finds the bundled CorrAl from the workflow's folder
        and makes `class` the target."""
        scheme = Scheme()
        path = os.path.join(TUTORIALS_DIR, "relief-preprocessor.ows")
        with open(path, "rb") as f:
            readwrite.scheme_load(scheme, f, registry=self.registry)
        node = next(n for n in scheme.nodes if n.title == "File")
        widget = self.create_widget(OWFile, stored_settings=node.properties,
                                    env={"basedir": TUTORIALS_DIR})
        self.process_events()
        data = self.get_output(widget.Outputs.data, widget=widget)
        self.assertIsNotNone(data)
        self.assertEqual(len(data), 160)
        self.assertEqual(data.domain.class_var.name, "class")
        self.assertEqual([a.name for a in data.domain.attributes],
                         ["A0", "A1", "B0", "B1", "Irrelevant", "Correlated"])
    def run_workflow(self, name, timeout=90):
        """Open `name` as Orange does and run it until every Test & Score
        node has scores; return {title: widget}."""
        scheme = WidgetsScheme()
        scheme.set_runtime_env("basedir", TUTORIALS_DIR)
        with open(os.path.join(TUTORIALS_DIR, name), "rb") as f:
            scheme.load_from(f, registry=self.registry)
        manager = scheme.widget_manager
        manager.set_creation_policy(manager.Immediate)
        scheme.signal_manager.start()
        widgets = {node.title: manager.widget_for_node(node)
                   for node in scheme.nodes}
        tests = [w for title, w in widgets.items()
                 if title.startswith("Test and Score")]

        def finished():
            return all(
                w.learners and all(r.stats is not None and all(
                    s.success for s in r.stats) for r in w.learners.values())
                for w in tests)

        deadline = time.time() + timeout
        while not finished() and time.time() < deadline:
            self.process_events()
            time.sleep(0.02)
        self.assertTrue(finished(), f"{name} did not finish")
        self.addCleanup(scheme.clear)
        for title, widget in widgets.items():
            self.assertFalse(widget.Error.active, title)
        return widgets

    def test_every_bundled_workflow_runs_clean(self):
        """Every tutorials/*.ows, opened as the canvas opens it (the real
        widget registry, Orange's widgets included) and run to the end: no
        widget shows an error, and no Relief widget shows a message it did
        not raise itself, although another widget (here a timer on the GUI
        thread) issues warnings all the while the Relief tasks run."""
        paths = sorted(glob.glob(os.path.join(TUTORIALS_DIR, "*.ows")))
        self.assertEqual([os.path.basename(p) for p in paths],
                         sorted(WORKFLOWS))
        foreign = "a warning of another widget"
        for path in paths:
            with self.subTest(os.path.basename(path)), \
                    warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                timer = QTimer(interval=5)
                timer.timeout.connect(
                    lambda: warnings.warn(foreign, UserWarning))
                timer.start()
                try:
                    widgets = self.run_workflow(os.path.basename(path))
                    relief = {title: w for title, w in widgets.items()
                              if isinstance(w, OWReliefBase)}
                    deadline = time.time() + 90
                    while any(w.task is not None for w in relief.values()) \
                            and time.time() < deadline:
                        self.process_events()
                        time.sleep(0.02)
                finally:
                    timer.stop()
                # the GUI thread's warnings reached their own handler
                self.assertIn(foreign, [str(w.message) for w in caught])
                self.assertTrue(relief)
                for title, widget in relief.items():
                    self.assertIsNotNone(widget.result, title)
                    shown = [msg.formatted for group in widget.message_groups
                             for msg in group.active]
                    self.assertFalse(
                        [text for text in shown if foreign in text], title)
                    # CorrAl is clean: a Relief widget has nothing to say
                    self.assertFalse(widget.Warning.active, (title, shown))
                    self.assertFalse(widget.Error.active, (title, shown))

    def test_ranking_workflow_runs(self):
        widgets = self.run_workflow("relief-ranking.ows")
        select = widgets["Select Columns"]
        self.assertEqual(
            {a.name for a in select.features},
            {"A0", "A1", "B0", "B1"})  # Rank's top 4 by pdReliefF
        model = widgets["Rank"].ranksModel
        headers = [model.headerData(i, Qt.Horizontal, Qt.DisplayRole)
                   for i in range(model.columnCount())]
        self.assertEqual(headers[-3:], ["ReliefF k10", "dReliefF",
                                        "pdReliefF"])
        for title in ("ReliefF", "dReliefF", "pdReliefF"):
            self.assertIsNotNone(widgets[title].result, title)

    def test_preprocessor_workflow_runs(self):
        widgets = self.run_workflow("relief-preprocessor.ows")
        with_selection = widgets["Test and Score (top 4 features)"]
        without = widgets["Test and Score (all features)"]
        self.assertIsNotNone(with_selection.preprocessor)
        self.assertIsNone(without.preprocessor)
        ca = [float(w.score_table.model.data(
            w.score_table.model.index(0, column(w)), Qt.DisplayRole))
              for w in (with_selection, without)]
        # CorrAl's four relevant features suffice; all six mislead kNN
        self.assertGreater(ca[0], ca[1])


def column(test_and_score):
    """Index of the CA column in Test & Score's table."""
    model = test_and_score.score_table.model
    headers = [model.headerData(i, Qt.Horizontal, Qt.DisplayRole)
               for i in range(model.columnCount())]
    return headers.index("CA")


if __name__ == "__main__":
    unittest.main()
