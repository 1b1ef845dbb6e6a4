"""The widgets' help pages offline, without a Sphinx build (issue 38).

Orange's canvas finds a widget's help through the ``orange.canvas.help``
entry point: the first index page in ``widgets.WIDGET_HELP_PATH`` that
exists, whose link captioned with the widget's name is the page.  An
editable install (the README's set-up) has no Sphinx build, and the online
address does not answer offline, so F1 found no page.  Here the widget
pages' Markdown sources (``doc/widgets/*.md``, listed in
``doc/widgets.json``: in a checkout, or installed with the wheel under
``<data>/help/orange3-relief/markdown``) are rendered to HTML with
``commonmark`` (which Orange's canvas already requires) into Orange's cache
directory, with an index that the canvas's ``HtmlIndexProvider`` reads.
They are rendered again each time the canvas asks (a few milliseconds), so
they never fall behind their sources.
"""
import html
import json
import sysconfig
from pathlib import Path
from urllib.parse import urlsplit

#: Where the Markdown sources may be: a checkout's doc/, the wheel's copy.
SOURCES = (Path(__file__).resolve().parents[3] / "doc",
           Path(sysconfig.get_path("data"), "help", "orange3-relief",
                "markdown"))

PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{title}</title>
<style>body {{ font-family: sans-serif; max-width: 50em; margin: 1em auto;
line-height: 1.4 }} img {{ max-width: 100% }}</style></head>
<body>
{body}</body></html>
"""


def sources():
    """The first doc folder of SOURCES with ``widgets.json``, or None."""
    for folder in SOURCES:
        if (folder / "widgets.json").is_file():
            return folder
    return None


def widget_pages(doc):
    """(widget name, Markdown page) of every widget in ``doc/widgets.json``."""
    listing = json.loads((doc / "widgets.json").read_text(encoding="utf-8"))
    return [(widget["text"], doc / widget["doc"])
            for _, widgets in listing for widget in widgets]


def render(doc, target):
    """Render the widget pages of ``doc`` into the folder ``target`` and
    write its ``index.html``; returns the index's path."""
    import commonmark
    pages = widget_pages(doc)
    names = {source.resolve(): source.stem + ".html" for _, source in pages}
    target.mkdir(parents=True, exist_ok=True)
    items = []
    for name, source in pages:
        tree = commonmark.Parser().parse(source.read_text(encoding="utf-8"))
        _relink(tree, source.parent, names)
        body = commonmark.HtmlRenderer().render(tree)
        (target / names[source.resolve()]).write_text(
            PAGE.format(title=html.escape(name), body=body), encoding="utf-8")
        items.append(f'<li><a href="{names[source.resolve()]}">'
                     f'{html.escape(name)}</a></li>')
    index = target / "index.html"
    index.write_text(PAGE.format(
        title="orange3-relief widgets",
        body='<section id="widgets"><h1>Widgets</h1><ul>\n'
             + "\n".join(items) + "\n</ul></section>\n"), encoding="utf-8")
    return index


def _relink(tree, folder, names):
    """Point the relative links and images of a page's ``tree`` at the
    rendered pages (another widget's page) or at the source files (images,
    other documents)."""
    for node, entering in tree.walker():
        if not entering or node.t not in ("link", "image") \
                or not node.destination:
            continue
        parts = urlsplit(node.destination)
        if parts.scheme or parts.netloc or not parts.path:
            continue
        path = (folder / parts.path).resolve()
        fragment = "#" + parts.fragment if parts.fragment else ""
        node.destination = (names[path] if path in names
                            else path.as_uri()) + fragment


def index(cache=None):
    """The offline index, rendered now into ``cache`` (by default Orange's
    cache directory), or None where there are no sources or the folder
    cannot be written."""
    doc = sources()
    if doc is None:
        return None
    if cache is None:
        from Orange.misc.environ import cache_dir
        cache = cache_dir()
    try:
        return render(doc, Path(cache, "orange3-relief-help"))
    except OSError:
        return None
