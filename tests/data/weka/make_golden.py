"""Regenerate every ``*.weka.tsv`` in this folder with Weka 3.9.7.

One command, from the repository root, in the project's virtual environment
(``python3 -m venv .venv && .venv/bin/pip install -e ".[test]"``):

    .venv/bin/python tests/data/weka/make_golden.py

Set-up it needs (CI needs none of it: the tests only read the .tsv files):

1. A JDK (``java`` and ``javac``, 8 or later; made with OpenJDK 17.0.15):
   ``apt-get install -y default-jdk-headless``.
2. Weka 3.9.7's ``weka.jar``.  It is bundled in the sdist of
   python_weka_wrapper3 0.3.3 on PyPI; if ``tests/data/weka/lib/weka.jar``
   is missing, this script gets it with
   ``pip download --no-deps --no-binary :all: python_weka_wrapper3==0.3.3``
   and takes ``python_weka_wrapper3-0.3.3/python/weka/lib/weka.jar`` out of
   the tarball, checking its SHA-256 (below) and that
   ``java -cp weka.jar weka.core.Version`` says 3.9.7.  Another jar can be
   given with ``WEKA_JAR=/path/to/weka.jar`` (then the hash is not checked).
   ``lib/`` is git-ignored: the jar is never committed.

What it does, for every ARFF file here (class = last attribute):
- compiles ``WekaReliefF.java`` (our driver) into ``lib/build``;
- checks that the project's ARFF reader (``Table(path)`` after importing
  orangecontrib.relief) reads the same values Weka reads (``--dump``):
  every numeric value bit for bit, every nominal code, every missing value,
  and the same number of declared values per nominal attribute;
- runs ReliefFAttributeEval once per option set in OPTIONS and writes
  ``<table>.weka.tsv``: a header ``options<TAB>f0<TAB>f1...`` (f<i> is the
  i-th attribute of the ARFF file, the class left out), then one row per
  option set with the merits printed with 17 significant digits (read back
  they are Weka's doubles exactly).

``--tables iris vote`` limits the run to some tables; ``--arff`` first
rewrites the ARFF files made from Orange's tables (make_arff.py).
"""
import argparse
import hashlib
import math
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
LIB = HERE / "lib"
BUILD = LIB / "build"
JAR = LIB / "weka.jar"
WRAPPER = "python_weka_wrapper3==0.3.3"
JAR_IN_SDIST = "python_weka_wrapper3-0.3.3/python/weka/lib/weka.jar"
JAR_SHA256 = "e60ffffbebbb49d1805a2b77075c869706802af93b8e876a8e0ac9a435698cc3"
WEKA_VERSION = "3.9.7"
# Weka 3.9.7 on Java 17 prints a warning about reflective access unless
# java.lang is opened to it; the flag changes nothing else.
JAVA = ["java", "--add-opens", "java.base/java.lang=ALL-UNNAMED"]

#: name -> options of ReliefFAttributeEval ("-S" is our driver's synonym
#: for Weka's seed option "-D").  Weka's defaults: -K 10 -M -1 -D 1 -A 2.
OPTIONS = {
    "k10": "-K 10 -M -1",
    "k5": "-K 5 -M -1",
    "k1": "-K 1 -M -1",
    "k100": "-K 100 -M -1",
    "k10_weighted_sigma2": "-K 10 -M -1 -W -A 2",
    "k3_weighted_sigma1": "-K 3 -M -1 -W -A 1",
    "m20_s1": "-K 10 -M 20 -S 1",
    "m50_s7": "-K 10 -M 50 -S 7",
}


def weka_jar():
    if os.environ.get("WEKA_JAR"):
        return Path(os.environ["WEKA_JAR"])
    if not JAR.exists():
        LIB.mkdir(exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run([sys.executable, "-m", "pip", "download", "-q",
                            "--no-deps", "--no-binary", ":all:", WRAPPER,
                            "-d", tmp], check=True)
            sdist, = Path(tmp).glob("*.tar.gz")
            with tarfile.open(sdist) as tar:
                data = tar.extractfile(JAR_IN_SDIST).read()
        if hashlib.sha256(data).hexdigest() != JAR_SHA256:
            sys.exit(f"{JAR_IN_SDIST} in {WRAPPER}: unexpected SHA-256")
        JAR.write_bytes(data)
    return JAR


def check_version(jar):
    out = subprocess.run(JAVA + ["-cp", str(jar), "weka.core.Version"],
                         capture_output=True, text=True, check=True).stdout
    version = out.split("\n")[0].strip()
    if version != WEKA_VERSION:
        sys.exit(f"{jar} is Weka {version}, not {WEKA_VERSION}")


def compile_driver(jar):
    BUILD.mkdir(parents=True, exist_ok=True)
    subprocess.run(["javac", "-cp", str(jar), "-d", str(BUILD),
                    str(HERE / "WekaReliefF.java")], check=True)


def run_driver(jar, *args):
    classpath = os.pathsep.join([str(jar), str(BUILD)])
    return subprocess.run(JAVA + ["-cp", classpath, "WekaReliefF", *args],
                          capture_output=True, text=True, check=True).stdout


def check_reader(jar, path):
    """The project's ARFF reader against Weka's, value by value."""
    import numpy as np
    from Orange.data import Table
    import orangecontrib.relief  # noqa: F401  (registers the .arff reader)

    lines = run_driver(jar, "--dump", str(path)).rstrip("\n").split("\n")
    header = [line.split("\t") for line in lines if line.startswith("#attr")]
    rows = [line.split("\t") for line in lines if not line.startswith("#")]
    table = Table(str(path))
    variables = list(table.domain.attributes) + [table.domain.class_var]
    assert len(variables) == len(header), path
    values = np.column_stack([table.X, table.Y]).astype(float)
    assert values.shape == (len(rows), len(header)), path
    for (_, index, kind, n_values, name), var in zip(header, variables):
        assert var.name == name, (path, var.name, name)
        assert var.is_discrete == (kind == "nominal"), (path, name)
        if var.is_discrete:
            assert len(var.values) == int(n_values), (path, name)
    for i, row in enumerate(rows):
        for j, cell in enumerate(row):
            ours = values[i, j]
            if cell == "?":
                assert math.isnan(ours), (path, i, j)
            elif header[j][2] == "nominal":
                assert ours == int(cell), (path, i, j, ours, cell)
            else:
                assert ours == float.fromhex(cell), (path, i, j, ours, cell)
    return len(rows)


def golden(jar, path):
    out = run_driver(jar, str(path), *OPTIONS.values())
    blocks, current = [], None
    for line in out.rstrip("\n").split("\n"):
        if line.startswith("#options\t"):
            current = []
            blocks.append(current)
        else:
            _, _, hexadecimal = line.split("\t")
            current.append(float.fromhex(hexadecimal))
    assert len(blocks) == len(OPTIONS)
    width = len(blocks[0])
    lines = ["\t".join(["options"] + [f"f{i}" for i in range(width)])]
    for name, merits in zip(OPTIONS, blocks):
        texts = ["%.17g" % m for m in merits]
        assert all(float(t) == m or math.isnan(m)
                   for t, m in zip(texts, merits))
        lines.append("\t".join([name] + texts))
    target = path.with_suffix(".weka.tsv")
    target.write_text("\n".join(lines) + "\n")
    return target


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", nargs="*", help="table names (default: "
                        "every .arff file in this folder)")
    parser.add_argument("--arff", action="store_true",
                        help="first rewrite the ARFF files of Orange's "
                        "tables (make_arff.py)")
    args = parser.parse_args()
    if args.arff:
        sys.path.insert(0, str(HERE))
        import make_arff
        make_arff.main([])
    jar = weka_jar()
    check_version(jar)
    compile_driver(jar)
    paths = ([HERE / f"{name}.arff" for name in args.tables]
             if args.tables else sorted(HERE.glob("*.arff")))
    for path in paths:
        n = check_reader(jar, path)
        target = golden(jar, path)
        print(f"{target.name}: {n} rows, {len(OPTIONS)} option sets "
              "(reader checked)")


if __name__ == "__main__":
    main()
