"""What importing the add-on imports, each checked in a fresh interpreter.

The numpy/numba engine ``orangecontrib.relief.core`` must not import Orange
(it costs ~160 MB); the Orange scorers are loaded lazily, and the ``.arff``
format is registered with Orange whichever of the two is imported first.
"""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

WEATHER = """\
@relation weather

@attribute outlook {sunny, overcast, rainy}
@attribute temperature numeric
@attribute humidity numeric
@attribute windy {TRUE, FALSE}
@attribute play {yes, no}

@data
sunny,85,85,FALSE,no
overcast,83,86,FALSE,yes
rainy,70,96,FALSE,yes
rainy,65,70,TRUE,no
"""


PRELUDE = """\
import sys


def assert_no_orange():
    orange = sorted(m for m in sys.modules if m.startswith("Orange"))
    assert not orange, orange

"""


def run(code, *args):
    """Run ``code`` in a new interpreter; return its stdout."""
    result = subprocess.run(
        [sys.executable, "-c", PRELUDE + textwrap.dedent(code),
         *map(str, args)],
        cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture
def arff_file(tmp_path):
    path = tmp_path / "weather.arff"
    path.write_text(WEATHER, encoding="utf-8")
    return path


def test_core_does_not_import_orange():
    run("""
        import sys
        import numpy as np
        import orangecontrib.relief.core
        assert_no_orange()
        from orangecontrib.relief.core import relieff
        assert_no_orange()
        X = np.array([[0., 1.], [0., 2.], [1., 1.], [1., 2.]])
        y = np.array([0., 0., 1., 1.])
        result = relieff(X, y, np.array([False, False]), k_nearest=1)
        weights = result.weights
        assert weights.shape == (2,), weights
        assert weights[0] > weights[1], weights
        assert_no_orange()
        """)


def test_package_import_does_not_import_orange():
    run("""
        import sys
        import orangecontrib.relief
        from orangecontrib.relief import relieff, ReliefResult, ReliefWarning
        assert_no_orange()
        """)


def test_arff_registered_when_addon_imported_before_orange(arff_file):
    run("""
        import sys
        import orangecontrib.relief
        from Orange.data import Table
        table = Table(sys.argv[1])
        assert len(table) == 4
        assert table.domain.class_var.name == "play"
        # the one-shot hook removed itself and left Orange's loader in place
        assert not any(getattr(f, "orange3_relief_arff_hook", False)
                       for f in sys.meta_path)
        import Orange.data.io
        assert type(Orange.data.io.__loader__).__module__ != \\
            "orangecontrib.relief"
        """, arff_file)


def test_arff_registered_when_orange_imported_before_addon(arff_file):
    run("""
        import sys
        from Orange.data import Table
        import orangecontrib.relief
        table = Table(sys.argv[1])
        assert len(table) == 4
        assert table.domain.class_var.name == "play"
        assert not any(getattr(f, "orange3_relief_arff_hook", False)
                       for f in sys.meta_path)
        """, arff_file)


def test_failing_registration_does_not_break_orange():
    out = run("""
        import sys, warnings
        sys.modules["orangecontrib.relief.io.arff"] = None  # import fails
        import orangecontrib.relief
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            from Orange.data import Table
            from Orange.data.io import FileFormat
        assert ".arff" not in FileFormat.readers
        assert any("arff" in str(w.message) for w in caught), caught
        print("ok")
        """)
    assert out.strip() == "ok"


def test_lazy_scorers():
    run("""
        import sys
        import orangecontrib.relief
        names = dir(orangecontrib.relief)
        for name in ("ReliefF", "DReliefF", "PDReliefF", "RReliefF",
                     "relieff", "ReliefResult", "ReliefWarning"):
            assert name in names, name
        assert "Orange" not in sys.modules
        from orangecontrib.relief import ReliefF
        from Orange.data import Table
        table = Table("iris")
        scores = ReliefF(k_nearest=5)(table)
        assert len(scores) == len(table.domain.attributes)
        assert all(score == score for score in scores)  # no NaN
        assert orangecontrib.relief.ReliefF is ReliefF
        from orangecontrib.relief import DReliefF, PDReliefF, RReliefF
        from orangecontrib.relief import *  # __all__ resolves lazily
        assert orangecontrib.relief.scoring.ReliefF is ReliefF
        try:
            orangecontrib.relief.NoSuchThing
        except AttributeError:
            pass
        else:
            raise AssertionError("expected AttributeError")
        """)


RSS = """
    import resource, sys
    {imports}
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def test_report_rss():
    """Print (not assert) peak RSS of the light and the full import."""
    core = int(run(RSS.format(imports="import orangecontrib.relief.core")))
    full = int(run(RSS.format(
        imports="import orangecontrib.relief; import Orange.data")))
    # ru_maxrss is in KiB on Linux (bytes on macOS)
    print(f"\npeak RSS (ru_maxrss): import orangecontrib.relief.core: "
          f"{core / 1024:.1f} MiB; import orangecontrib.relief + Orange.data: "
          f"{full / 1024:.1f} MiB; difference {(full - core) / 1024:.1f} MiB")


def test_dask_is_imported_only_for_a_cluster():
    run("""
        import sys
        import numpy as np
        import orangecontrib.relief.distributed
        import orangecontrib.relief.scoring
        import orangecontrib.relief.cli

        def dask_modules():
            return [m for m in sys.modules
                    if m.split(".")[0] in ("dask", "distributed")]
        assert not dask_modules(), dask_modules()
        from orangecontrib.relief.distributed import relieff
        # without Dask installed: a message that says what to install
        sys.modules["distributed"] = None
        try:
            relieff(np.zeros((4, 2)), np.array([0., 0., 1., 1.]))
        except ImportError as error:
            assert "orange3-relief[dask]" in str(error), error
        else:
            raise AssertionError("no ImportError")
        """)
