#!/usr/bin/env bash
# Install like an Orange add-on: build the help pages, the sdist and a wheel
# (from the sdist, so the sdist is known to be complete), install the wheel
# into a fresh virtual environment with orange3 + PyQt6, and check with
# Orange's own discovery that
#   - the "Relief" category and every widget listed in doc/widgets.json are
#     found, each with its icon,
#   - "orange3 add-on" is among the package's keywords,
#   - each widget's help page resolves to an installed local page titled as
#     the widget,
#   - the example workflows and the bundled data sets are installed, and the
#     README's demo command runs.
#
# Usage: .ci/check_wheel.sh            (from anywhere in the repository)
# Environment:
#   PYTHON      Python that builds the help pages; it must import the add-on,
#               sphinx and myst-parser (default: .venv/bin/python if present,
#               else python3).
#   BASE_PYTHON Python used to create the fresh environments (default: python3).
#   KEEP=1      keep the work directory (printed at the end) for inspection.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

if [ -z "${PYTHON:-}" ]; then
    if [ -x .venv/bin/python ]; then PYTHON=.venv/bin/python; else PYTHON=python3; fi
fi
BASE_PYTHON=${BASE_PYTHON:-python3}
work=$(mktemp -d "${TMPDIR:-/tmp}/relief-wheel.XXXXXX")
# (the add-on's first use starts compiling its kernels in a background
# process of the fresh environment, which writes into its site-packages:
# stop it before removing the environment)
cleanup() {
    pkill -f "$work/venv/bin/python" 2>/dev/null || true
    sleep 1
    rm -rf "$work"
}
if [ "${KEEP:-0}" != 1 ]; then trap cleanup EXIT; fi
step() { echo "+ $*" >&2; }

step "help pages: sphinx htmlhelp build into doc/_build/htmlhelp"
rm -rf doc/_build/htmlhelp
"$PYTHON" -m sphinx -W -q -b htmlhelp doc doc/_build/htmlhelp

step "sdist and wheel (the wheel is built from the sdist)"
"$BASE_PYTHON" -m venv "$work/tools"
"$work/tools/bin/pip" install -q build >"$work/pip-tools.log" 2>&1 \
    || { tail -n 40 "$work/pip-tools.log" >&2; exit 1; }
rm -rf "$work/dist"
"$work/tools/bin/python" -m build --outdir "$work/dist" . >"$work/build.log" 2>&1 \
    || { tail -n 40 "$work/build.log" >&2; exit 1; }
wheel=$(ls "$work"/dist/*.whl)
sdist=$(ls "$work"/dist/*.tar.gz)
echo "built $(basename "$sdist") and $(basename "$wheel")"

step "fresh environment with the wheel, orange3 and PyQt6"
"$BASE_PYTHON" -m venv "$work/venv"
"$work/venv/bin/pip" install -q "$wheel" PyQt6 >"$work/pip-venv.log" 2>&1 \
    || { tail -n 40 "$work/pip-venv.log" >&2; exit 1; }

step "checks with Orange's discovery"
cd "$work"   # not the repository: import the installed package only
QT_QPA_PLATFORM=offscreen "$work/venv/bin/python" - "$root/doc/widgets.json" \
    "$wheel" "$sdist" <<'EOF'
import json
import re
import sys
import tarfile
import zipfile
from importlib.metadata import distribution
from importlib.resources import files
from pathlib import Path

from AnyQt.QtWidgets import QApplication
from orangecanvas.help import HelpManager
from orangecanvas.registry import WidgetRegistry
from Orange.canvas.config import Config

widgets_json, wheel, sdist = sys.argv[1:]
failures = []


def check(ok, message):
    print(("ok    " if ok else "FAIL  ") + message)
    if not ok:
        failures.append(message)


app = QApplication([])
dist = distribution("orange3-relief")
check("site-packages" in str(dist.locate_file("orangecontrib")),
      f"orange3-relief {dist.version} is the installed wheel, not the sources")
keywords = [k.strip() for k in (dist.metadata.get("Keywords") or "").split(",")]
check("orange3 add-on" in keywords, f"'orange3 add-on' in keywords {keywords}")

expected = {}
for category, widgets in json.loads(Path(widgets_json).read_text("utf-8")):
    for widget in widgets:
        expected[widget["text"]] = category

registry = WidgetRegistry()
config = Config()
config.widget_discovery(registry).run(config.widgets_entry_points())
check(registry.has_category("Relief"), "category 'Relief' is discovered")
found = {desc.name: desc for desc in registry.widgets()
         if desc.project_name and desc.project_name.lower() == "orange3-relief"}
check(set(found) == set(expected),
      f"widgets found {sorted(found)} == widgets.json {sorted(expected)}")
for name, desc in sorted(found.items()):
    check(desc.category == expected.get(name),
          f"{name}: in category {desc.category!r}")
    package = files(desc.package or desc.qualified_name.rsplit(".", 2)[0])
    check(desc.icon is not None and package.joinpath(desc.icon).is_file(),
          f"{name}: icon {desc.icon} is installed")

help_manager = HelpManager()
help_manager.set_registry(registry)
data_dir = Path(sys.prefix).resolve()
for name, desc in sorted(found.items()):
    try:
        url = help_manager.search({"id": desc.qualified_name})
    except KeyError:
        check(False, f"{name}: help page resolves")
        continue
    page = Path(url.toLocalFile()) if url.isLocalFile() else None
    check(page is not None and page.is_file()
          and data_dir in page.resolve().parents,
          f"{name}: help page {url.toString()} is an installed file")
    if page is not None and page.is_file():
        title = re.search(r"<title>(.*?)</title>", page.read_text("utf-8"),
                          re.S)
        check(title is not None and re.match(
            re.escape(name) + r"(\s|&#8212;|$)", title.group(1).strip()),
              f"{name}: the help page is titled {name!r}")

tutorials = [ep for ep in config.examples_entry_points()
             if ep.dist is not None and ep.dist.name.lower() == "orange3-relief"]
workflows = [f for ep in tutorials for f in files(ep.load()).iterdir()
             if f.name.endswith(".ows")]
check(bool(workflows), f"example workflows installed: "
      f"{sorted(f.name for f in workflows)}")

from orangecontrib.relief.datasets import corral, lung_cancer, promoters
check(len(corral()) == 160, "bundled CorrAl data set loads")
check(len(promoters()) == 106 and len(lung_cancer()) == 32,
      "bundled UCI promoters and lung-cancer data sets load")

with zipfile.ZipFile(wheel) as archive:
    names = archive.namelist()
check(any(n.endswith("/help/orange3-relief/index.html") for n in names),
      "the wheel holds the help pages (data/help/orange3-relief/index.html)")
with tarfile.open(sdist) as archive:
    members = archive.getnames()
for part in ("doc/index.rst", "doc/conf.py", "doc/widgets.json", "setup.py"):
    check(any(m.endswith("/" + part) for m in members), f"the sdist holds {part}")
for widget in json.loads(Path(widgets_json).read_text("utf-8"))[0][1]:
    check(any(m.endswith("/doc/" + widget["doc"]) for m in members),
          f"the sdist holds {widget['doc']} (widgets.json of {widget['text']})")

if failures:
    print(f"{len(failures)} check(s) failed", file=sys.stderr)
    sys.exit(1)
print("all wheel checks passed")
EOF

step "the README's demo command, in the fresh environment"
"$work/venv/bin/python" -m orangecontrib.relief demo --rows 32 >/dev/null
if [ "${KEEP:-0}" = 1 ]; then echo "work directory kept: $work"; fi
echo "wheel check passed"
