"""F1 on every Relief widget opens its help page, offline, after the
README's set-up (an editable install: no Sphinx build; issue 38), found by
Orange's canvas's own lookup (``orangecanvas.help.HelpManager``)."""
# pylint: disable=missing-docstring
import json
import re
from pathlib import Path

import pytest
from AnyQt.QtWidgets import QApplication
from orangecanvas.help import HelpManager, manager
from orangecanvas.registry import WidgetRegistry
from Orange.canvas.config import Config
import Orange.misc.environ

import orangecontrib.relief.widgets as category
from orangecontrib.relief.widgets import offline_help

DOC = Path(__file__).resolve().parents[2] / "doc"


@pytest.fixture
def help_manager(tmp_path, monkeypatch):
    """Orange's help lookup over the discovered widgets, as the canvas
    makes it (providers made afresh; Orange's cache in ``tmp_path``)."""
    app = QApplication.instance() or QApplication([])
    monkeypatch.setattr(manager, "_providers_cache", {})
    monkeypatch.setattr(Orange.misc.environ, "cache_dir",
                        lambda: str(tmp_path))
    registry = WidgetRegistry()
    config = Config()
    config.widget_discovery(registry).run(config.widgets_entry_points())
    helps = HelpManager()
    helps.set_registry(registry)
    yield helps, registry
    del app


def relief_widgets(registry):
    return [desc for desc in registry.widgets()
            if desc.qualified_name.startswith("orangecontrib.relief.")]


def local_page(helps, desc):
    """The file F1 opens for the widget ``desc`` (Orange's lookup)."""
    url = helps.search({"id": desc.qualified_name})
    assert url.isLocalFile(), f"{desc.name}: help is {url.toString()}"
    return Path(url.toLocalFile())


def test_every_widget_has_a_local_page_without_a_sphinx_build(
        help_manager, monkeypatch, tmp_path):
    """No Sphinx build anywhere (a fresh clone installed editable): every
    Relief widget's help is its page rendered from doc/widgets/*.md, titled
    as the widget, with its images and links to the other pages."""
    monkeypatch.setattr(category.HelpPath, "BUILT", ())
    helps, registry = help_manager
    widgets = relief_widgets(registry)
    listed = [w["text"] for _, ws in json.loads(
        (DOC / "widgets.json").read_text("utf-8")) for w in ws]
    assert sorted(desc.name for desc in widgets) == sorted(listed)
    for desc in widgets:
        page = local_page(helps, desc)
        assert page.is_file()
        assert tmp_path in page.parents
        text = page.read_text("utf-8")
        assert f"<title>{desc.name}</title>" in text
        assert re.search(r"<h[12]>", text)
        for image in re.findall(r'<img src="([^"]+)"', text):
            assert image.startswith("file://")
            assert Path(image[len("file://"):]).is_file(), image
        for link in re.findall(r'<a href="([^":#]+\.html)"', text):
            assert (page.parent / link).is_file(), link
    assert "ReliefF.html" in (tmp_path / "orange3-relief-help"
                              / "dReliefF.html").read_text("utf-8")


def test_the_default_lookup_is_local(help_manager):
    """As installed here (whatever is built): F1 opens a local file."""
    helps, registry = help_manager
    for desc in relief_widgets(registry):
        assert local_page(helps, desc).is_file()


def test_pages_follow_their_sources(tmp_path):
    """A page is rendered afresh each time, from its Markdown."""
    doc = tmp_path / "doc"
    (doc / "widgets").mkdir(parents=True)
    (doc / "widgets.json").write_text(json.dumps(
        [["Relief", [{"text": "ReliefF", "doc": "widgets/ReliefF.md"}]]]))
    source = doc / "widgets" / "ReliefF.md"
    source.write_text("ReliefF\n=======\n\nFirst words.\n")
    index = offline_help.render(doc, tmp_path / "out")
    assert 'href="ReliefF.html">ReliefF</a>' in index.read_text("utf-8")
    source.write_text("ReliefF\n=======\n\nSecond words.\n")
    offline_help.render(doc, tmp_path / "out")
    assert "Second words." in (tmp_path / "out" / "ReliefF.html").read_text(
        "utf-8")
