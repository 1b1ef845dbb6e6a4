"""Tests of the ARFF reader and writer on small hand-written files."""
import gzip
import os
import re
import subprocess
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pytest

from Orange.data import (ContinuousVariable, DiscreteVariable, Domain,
                         StringVariable, Table, TimeVariable)
from Orange.data.io import FileFormat
from Orange.widgets.data.owfile import OWFile
from Orange.widgets.tests import base as widget_tests

from orangecontrib.relief.io.arff import (ArffReader,
                                          java_date_format_to_strptime)

REPO = Path(__file__).resolve().parents[2]

WEATHER = """\
% The weather data, as in Weka's data directory.
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


def write(tmp_path, text, name="data.arff"):
    """Write ``text`` to ``tmp_path / name`` and return the path as str."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def read(tmp_path, text, **kwargs):
    """Read ``text`` as an ARFF file."""
    return ArffReader(write(tmp_path, text), **kwargs).read()


def utc(*args):
    """Seconds since the epoch of a UTC date and time."""
    return datetime(*args, tzinfo=timezone.utc).timestamp()


# --- registration --------------------------------------------------------

def test_table_opens_arff_files(tmp_path):
    table = Table(write(tmp_path, WEATHER))
    assert FileFormat.get_reader("x.arff").__class__ is ArffReader
    assert FileFormat.readers[".arff"] is ArffReader
    assert ".arff" in FileFormat.writers
    assert len(table) == 4
    assert table.domain.class_var.name == "play"


def test_registered_even_if_readers_were_listed_before_import():
    # FileFormat.readers is cached; the File widget lists it at start-up,
    # possibly before the add-on is imported.
    code = (
        "from Orange.data.io import FileFormat\n"
        "assert '.arff' not in FileFormat.readers\n"
        "import orangecontrib.relief.io.arff\n"
        "assert '.arff' in FileFormat.readers\n"
        "assert '.arff' in FileFormat.writers\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO,
                            env={**os.environ, "PYTHONPATH": str(REPO)},
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr


def test_compressed_file(tmp_path):
    path = tmp_path / "weather.arff.gz"
    with gzip.open(path, "wt", encoding="utf-8") as file:
        file.write(WEATHER)
    table = Table(str(path))
    assert table.name == "weather"
    np.testing.assert_array_equal(table.X[:, 1], [85, 83, 70, 65])


# --- types ---------------------------------------------------------------

def test_weather_nominal_and_numeric(tmp_path):
    table = read(tmp_path, WEATHER)
    domain = table.domain
    assert table.name == "weather"
    assert [var.name for var in domain.attributes] == \
        ["outlook", "temperature", "humidity", "windy"]
    assert isinstance(domain["outlook"], DiscreteVariable)
    assert domain["outlook"].values == ("sunny", "overcast", "rainy")
    assert domain["windy"].values == ("TRUE", "FALSE")
    assert isinstance(domain["temperature"], ContinuousVariable)
    assert domain.class_var.values == ("yes", "no")
    np.testing.assert_array_equal(
        table.X, [[0, 85, 85, 1], [1, 83, 86, 1], [2, 70, 96, 1],
                  [2, 65, 70, 0]])
    np.testing.assert_array_equal(table.Y, [1, 0, 0, 1])
    assert not table.has_weights()


def test_without_relation_the_table_is_named_after_the_file(tmp_path):
    table = ArffReader(write(tmp_path, "@attribute a numeric\n@data\n1\n",
                             "plain.arff")).read()
    assert table.name == "plain"
    np.testing.assert_array_equal(table.Y, [1])


def test_nominal_values_keep_declared_order(tmp_path):
    table = read(tmp_path, "@relation r\n@attribute size {small, large, medium}\n"
                           "@attribute y numeric\n@data\nmedium,1\nsmall,2\n")
    assert table.domain["size"].values == ("small", "large", "medium")
    np.testing.assert_array_equal(table.X[:, 0], [2, 0])


def test_keywords_and_types_are_case_insensitive(tmp_path):
    table = read(tmp_path, "@RELATION r\n@Attribute a REAL\n@ATTRIBUTE b Integer\n"
                           "@attribute c NuMeRiC\n@attribute d String\n"
                           "@DaTa\n1.5,2,3e2,x\n")
    assert all(isinstance(var, ContinuousVariable)
               for var in table.domain.attributes)
    np.testing.assert_array_equal(table.X, [[1.5, 2, 300]])
    assert table.domain.class_var is None  # the last attribute is a STRING
    assert table.domain.metas[0].name == "d"
    assert table.metas.tolist() == [["x"]]


def test_string_attributes_are_metas_and_never_the_class(tmp_path):
    table = read(tmp_path, "@relation r\n@attribute note string\n"
                           "@attribute x numeric\n@attribute id string\n"
                           "@data\n'a b',1,k1\nc,2,k2\n")
    domain = table.domain
    assert domain.class_var is None
    assert [var.name for var in domain.attributes] == ["x"]
    assert [var.name for var in domain.metas] == ["note", "id"]
    assert all(isinstance(var, StringVariable) for var in domain.metas)
    assert table.metas.tolist() == [["a b", "k1"], ["c", "k2"]]


def test_date_default_iso_format(tmp_path):
    table = read(tmp_path, "@relation r\n@attribute when DATE\n@attribute y numeric\n"
                           "@data\n2020-01-02T03:04:05,1\n?,2\n")
    when = table.domain["when"]
    assert isinstance(when, TimeVariable)
    assert when.have_date and when.have_time
    np.testing.assert_array_equal(table.X[:, 0], [utc(2020, 1, 2, 3, 4, 5),
                                                  np.nan])


def test_date_custom_formats(tmp_path):
    table = read(tmp_path, "@relation r\n"
                           "@attribute day date dd/MM/yyyy\n"
                           "@attribute stamp date 'yyyy-MM-dd HH:mm:ss.SSS Z'\n"
                           "@attribute clock date \"hh:mm a\"\n"
                           "@attribute y numeric\n@data\n"
                           "31/12/1999,'2001-02-03 04:05:06.250 +0100','01:30 PM',1\n")
    day, stamp, clock = table.domain.attributes
    assert (day.have_date, day.have_time) == (1, 0)
    assert (stamp.have_date, stamp.have_time) == (1, 1)
    assert (clock.have_date, clock.have_time) == (0, 1)
    np.testing.assert_array_equal(
        table.X[0], [utc(1999, 12, 31), utc(2001, 2, 3, 3, 5, 6) + 0.25,
                     utc(1900, 1, 1, 13, 30)])


def test_date_as_last_attribute_is_not_the_class(tmp_path):
    table = read(tmp_path, "@relation r\n@attribute x numeric\n@attribute d date\n"
                           "@data\n1,2020-01-01T00:00:00\n")
    assert table.domain.class_var is None
    assert [var.name for var in table.domain.attributes] == ["x", "d"]


@pytest.mark.parametrize("java, expected", [
    ("yyyy-MM-dd'T'HH:mm:ss", ("%Y-%m-%dT%H:%M:%S", True, True)),
    ("dd.MM.yy", ("%d.%m.%y", True, False)),
    ("EEE, d MMM yyyy", ("%a, %d %b %Y", True, False)),
    ("MMMM", ("%B", True, False)),
    ("hh 'o''clock' a", ("%I o'clock %p", False, True)),
    ("HH:mm''ss%", ("%H:%M'%S%%", False, True)),
    ("yyyy-MM-dd'T'HH:mm:ss.SSSXXX", ("%Y-%m-%dT%H:%M:%S.%f%z", True, True)),
])
def test_java_date_patterns(java, expected):
    assert java_date_format_to_strptime(java) == expected


@pytest.mark.parametrize("java", ["yyyy-ww", "HH:mm:ss.S", "k:mm", "z",
                                  "yyyy-MM-dd'T"])
def test_unsupported_java_date_patterns(java):
    with pytest.raises(ValueError, match="date format"):
        java_date_format_to_strptime(java)


@pytest.mark.parametrize("java", ["yyyy-yyyy", "dd.MM.dd", "HH:mm HH",
                                  "yy-MM-yy"])
def test_a_date_field_given_twice_is_a_clear_error(tmp_path, java):
    # (strptime's own regular expression raised re.error)
    with pytest.raises(ValueError, match="gives the same field twice"):
        java_date_format_to_strptime(java)
    path = write(tmp_path, f"@relation r\n@attribute d date '{java}'\n"
                           "@attribute c {x, y}\n@data\n?,x\n")
    with pytest.raises(ValueError, match=re.escape(f"{path}: line 2: "
                                                   "attribute 'd': date "
                                                   f"format '{java}' gives")):
        Table(path)


# --- lexical details -----------------------------------------------------

def test_comments_and_blank_lines(tmp_path):
    table = read(tmp_path, "% header comment\n\n@relation r % trailing\n"
                           "   \n@attribute a numeric\n% between\n"
                           "@attribute b {x, y}\n\n@data\n% in data\n\n"
                           "1, x % a comment after a row\n  \n2,y\n")
    np.testing.assert_array_equal(table.X[:, 0], [1, 2])
    np.testing.assert_array_equal(table.Y, [0, 1])


def test_quoted_names_values_and_escapes(tmp_path):
    table = read(tmp_path, "@relation 'my data'\n"
                           "@attribute 'first name' string\n"
                           "@attribute \"size, cm\" numeric\n"
                           "@attribute class {'class A', \"it's\", 'a\\'b', "
                           "'50% off', '{x}'}\n@data\n"
                           "'O\\'Brien, Jr.',1,'class A'\n"
                           "\"two\\nlines\\t\\\\\",2,\"it's\"\n"
                           "'100% sure',3,'a\\'b'\n"
                           "x,4,'50% off'\n"
                           "y,5,'{x}'\n")
    assert table.name == "my data"
    assert table.domain.metas[0].name == "first name"
    assert table.domain.attributes[0].name == "size, cm"
    assert table.domain.class_var.values == \
        ("class A", "it's", "a'b", "50% off", "{x}")
    np.testing.assert_array_equal(table.Y, [0, 1, 2, 3, 4])
    assert table.metas[:, 0].tolist() == \
        ["O'Brien, Jr.", "two\nlines\t\\", "100% sure", "x", "y"]


def test_values_may_be_separated_by_spaces_as_in_weka(tmp_path):
    table = read(tmp_path, "@relation r\n@attribute a numeric\n"
                           "@attribute b numeric\n@data\n1 2\n3,\t4\n")
    np.testing.assert_array_equal(table.X, [[1], [3]])
    np.testing.assert_array_equal(table.Y, [2, 4])


def test_crlf_line_endings_and_bom(tmp_path):
    path = tmp_path / "w.arff"
    path.write_bytes(b"\xef\xbb\xbf" + WEATHER.replace("\n", "\r\n")
                     .encode("utf-8"))
    table = ArffReader(str(path)).read()
    assert table.domain.attributes[0].name == "outlook"
    assert table.domain.class_var.values == ("yes", "no")
    assert len(table) == 4


def test_cr_only_line_endings_of_old_mac_files(tmp_path):
    path = tmp_path / "mac.arff"
    path.write_bytes(WEATHER.replace("\n", "\r").encode("utf-8"))
    table = ArffReader(str(path)).read()
    expected = ArffReader(write(tmp_path, WEATHER)).read()
    assert table.domain == expected.domain and table.name == "weather"
    np.testing.assert_array_equal(table.X, expected.X)
    np.testing.assert_array_equal(table.Y, expected.Y)
    # a malformed CR-only file names its line
    path.write_bytes(WEATHER.replace("\n", "\r").replace("83,86", "83")
                     .encode("utf-8"))
    with pytest.raises(ValueError, match="line 12: expected 5 values, "
                                         "found 4"):
        ArffReader(str(path)).read()


def test_latin1_file_is_read_with_a_warning(tmp_path):
    path = tmp_path / "l.arff"
    path.write_bytes("@relation r\n@attribute city {Zürich, Bern}\n@data\n"
                     "Zürich\n".encode("latin-1"))
    with pytest.warns(UserWarning, match="Latin-1"):
        table = ArffReader(str(path)).read()
    assert table.domain.class_var.values == ("Zürich", "Bern")


def test_missing_values_in_every_type(tmp_path):
    table = read(tmp_path, "@relation r\n@attribute n numeric\n@attribute c {a, b}\n"
                           "@attribute s string\n@attribute d date\n"
                           "@attribute y {yes, '?'}\n@data\n"
                           "?,?,?,?,?\n1,a,'?',2020-01-01T00:00:00,'?'\n")
    assert np.isnan(table.X[0]).all()
    assert np.isnan(table.Y[0])
    assert table.metas[0, 0] == ""  # Orange's missing string
    # a quoted ? is a value, not a missing value
    assert table.metas[1, 0] == "?"
    assert table.Y[1] == 1


# --- sparse rows and weights ---------------------------------------------

SPARSE = """\
@relation sparse
@attribute a numeric
@attribute colour {red, green, blue}
@attribute text string
@attribute b numeric
@attribute class {no, yes}
@data
{0 2.5, 3 7}
{1 blue, 2 'some text', 4 yes}
{}
1, green, t, 2, no
{0 ?, 4 yes}
"""


def test_nominal_attribute_without_values_is_missing_in_sparse_rows(
        tmp_path):
    # ({} declares no value; Weka's 0, its first value, does not exist: the
    # reader stored code 0 and printing a row raised IndexError)
    table = read(tmp_path, "@relation r\n@attribute a {}\n"
                           "@attribute b numeric\n@attribute c {x, y}\n"
                           "@data\n{1 2, 2 x}\n{0 ?, 1 3, 2 y}\n?,4,x\n")
    assert table.domain["a"].values == ()
    assert np.isnan(table.X[:, 0]).all()
    np.testing.assert_array_equal(table.X[:, 1], [2, 3, 4])
    assert [str(row) for row in table] == ["[?, 2 | x]", "[?, 3 | y]",
                                           "[?, 4 | x]"]
    with pytest.raises(ValueError, match="line 6: value 'x' is not declared "
                                         "for nominal attribute 'a' \\(line 2 "
                                         "declares no values\\)"):
        read(tmp_path, "@relation r\n@attribute a {}\n@attribute c {x}\n"
                       "@data\n?,x\nx,x\n")


def test_sparse_rows_fill_omitted_values_with_zero(tmp_path):
    table = read(tmp_path, SPARSE)
    np.testing.assert_array_equal(
        table.X, [[2.5, 0, 7], [0, 2, 0], [0, 0, 0], [1, 1, 2],
                  [np.nan, 0, 0]])
    # omitted nominal values are the first declared value, as in Weka
    np.testing.assert_array_equal(table.Y, [0, 1, 0, 0, 1])
    assert table.metas[:, 0].tolist() == ["", "some text", "", "t", ""]


def test_instance_weights_are_read_into_w(tmp_path):
    table = read(tmp_path, "@relation r\n@attribute a numeric\n@attribute c {x, y}\n"
                           "@data\n1,x,{0.5}\n2,y\n{0 3},{4}\n{1 y}\n")
    assert table.has_weights()
    np.testing.assert_array_equal(table.W, [0.5, 1, 4, 1])
    np.testing.assert_array_equal(table.X[:, 0], [1, 2, 3, 0])
    np.testing.assert_array_equal(table.Y, [0, 1, 0, 1])


# --- choosing the class --------------------------------------------------

def test_class_attribute_by_name_index_or_none(tmp_path):
    path = write(tmp_path, WEATHER)
    by_name = ArffReader(path, class_attribute="outlook").read()
    assert by_name.domain.class_var.name == "outlook"
    assert [var.name for var in by_name.domain.attributes] == \
        ["temperature", "humidity", "windy", "play"]
    np.testing.assert_array_equal(by_name.Y, [0, 1, 2, 2])
    numeric = ArffReader(path, class_attribute="temperature").read()
    assert numeric.domain.class_var.is_continuous
    np.testing.assert_array_equal(numeric.Y, [85, 83, 70, 65])
    assert ArffReader(path, class_attribute=None).read().domain.class_var \
        is None
    assert ArffReader(path, class_attribute=1).read().domain.class_var.name \
        == "temperature"
    assert ArffReader(path, class_attribute=-1).read().domain.class_var.name \
        == "play"
    assert ArffReader(path).read().domain.class_var.name == "play"


def test_attribute_named_last_is_reached_by_index(tmp_path):
    path = write(tmp_path, "@relation r\n@attribute last numeric\n"
                           "@attribute y {a, b}\n@data\n1,a\n")
    assert ArffReader(path).read().domain.class_var.name == "y"
    assert ArffReader(path, class_attribute=0).read().domain.class_var.name \
        == "last"


def test_bad_class_attribute_choices(tmp_path):
    path = write(tmp_path, "@relation r\n@attribute s string\n"
                           "@attribute y {a, b}\n@data\nx,a\n")
    with pytest.raises(ValueError, match="'colour' is not an attribute"):
        ArffReader(path, class_attribute="colour").read()
    with pytest.raises(ValueError, match="STRING attribute 's' cannot be"):
        ArffReader(path, class_attribute="s").read()
    with pytest.raises(ValueError, match="out of range"):
        ArffReader(path, class_attribute=2).read()
    with pytest.raises(ValueError, match="class_attribute must be"):
        ArffReader(path, class_attribute=1.5)


# --- malformed files -----------------------------------------------------

HEADER = "@relation r\n@attribute a numeric\n@attribute b {x, y}\n@data\n"


@pytest.mark.parametrize("text, message", [
    ("@relation r\n@attribute a float\n@data\n",
     r"line 2: unknown type 'float' of attribute 'a'"),
    ("@relation r\n@attribute a\n@data\n",
     r"line 2: attribute 'a' has no type"),
    ("@relation r\n@attribute a numeric extra\n@data\n",
     r"line 2: unexpected 'extra' after the type"),
    ("@relation r\n@attribute a {x, y\n@data\n",
     r"line 2: the nominal values of 'a' have no closing"),
    ("@relation r\n@attribute a {x, y, x}\n@data\n",
     r"line 2: nominal attribute 'a' declares the value 'x' twice"),
    ("@relation r\n@attribute a numeric\n@attribute b numeric\n"
     "@attribute a {x}\n@data\n",
     r"line 4: duplicate attribute name 'a' \(first declared on line 2\)"),
    ("@relation r\n@attribute 'a b numeric\n@data\n",
     r"line 2: unterminated quote '"),
    ("@relation r\n@attribute a numeric\n\n",
     r"line 4: the file ended without an @data line"),
    ("@relation r\n@attribute bag relational\n@end bag\n@data\n",
     r"line 2: attribute 'bag' is relational"),
    ("@relation r\n@attribute d date 'yyyy-ww'\n@data\n",
     r"line 2: attribute 'd': date format 'yyyy-ww'"),
    ("@relation r\n@attribute a numeric\nfoo\n@data\n",
     r"line 3: expected @relation, @attribute or @data, found 'foo'"),
    ("@relation r\n@data\n1\n",
     r"line 2: @data comes before any @attribute"),
    ("@relation r\n@attribute a numeric\n@data 1\n",
     r"line 3: unexpected '1' after @data"),
    ("@relation\n@attribute a numeric\n@data\n",
     r"line 1: @relation needs a name"),
    (HEADER + "1,}\n",
     r"line 5: unexpected '}' in the value of 'b'"),
    (HEADER + "1,x\n2,z\n",
     r"line 6: value 'z' is not declared for nominal attribute 'b' "
     r"\(line 3 declares 'x', 'y'\)"),
    (HEADER + "1,x\n2\n",
     r"line 6: expected 2 values, found 1"),
    (HEADER + "1,x,3\n",
     r"line 5: expected 2 values, found 3"),
    (HEADER + "1,x\n\n'2,y\n",
     r"line 7: unterminated quote '"),
    (HEADER + "one,x\n",
     r"line 5: value 'one' of numeric attribute 'a' is not a number"),
    (HEADER + "1,x,{heavy}\n",
     r"line 5: instance weight 'heavy' is not a number"),
    (HEADER + "{2 x}\n",
     r"line 5: sparse index 2 is out of range"),
    (HEADER + "{1 x, 0 1}\n",
     r"line 5: sparse index 0 follows index 1; indices must increase"),
    (HEADER + "{0 1, 1}\n",
     r"line 5: a sparse row needs pairs"),
    (HEADER + "{0 1, 1 x\n",
     r"line 5: sparse row has no closing"),
    (HEADER + "{a 1}\n",
     r"line 5: sparse index 'a' is not a whole number"),
    ("@relation r\n@attribute d date\n@data\n2020-01-01\n",
     r"line 4: value '2020-01-01' of date attribute 'd' does not match its "
     r"format \"yyyy-MM-dd'T'HH:mm:ss\""),
])
def test_malformed_files_name_the_file_and_the_line(tmp_path, text,
                                                   message):
    path = str(tmp_path / "data.arff")
    with pytest.raises(ValueError, match="^" + re.escape(path) + ": "
                                         + message):
        read(tmp_path, text)


def test_error_message_for_wrong_value_count_on_line_12(tmp_path):
    text = ("% a file\n@relation r\n@attribute a numeric\n@attribute b numeric\n"
            "@attribute c numeric\n@attribute d numeric\n"
            "@attribute e {x, y}\n@data\n1,2,3,4,x\n1,2,3,4,y\n\n1,2,3,x\n")
    path = write(tmp_path, text)
    with pytest.raises(ValueError) as error:
        Table(path)
    assert str(error.value) == f"{path}: line 12: expected 5 values, found 4"


# --- writing -------------------------------------------------------------

def roundtrip_table(weights=None):
    """A table with every kind of variable, missing values and odd names."""
    colour = DiscreteVariable("colour, hue", values=("red", "dark blue",
                                                     "it's", "?"))
    size = ContinuousVariable("size cm")
    when = TimeVariable("when", have_date=1, have_time=1)
    day = TimeVariable("day", have_date=1)
    label = DiscreteVariable("label", values=("no", "yes"))
    note = StringVariable("a note")
    domain = Domain([colour, size, when, day], label, [note])
    X = np.array([[0, 1.25, utc(2021, 3, 4, 5, 6, 7), utc(2000, 1, 1)],
                  [1, np.nan, np.nan, utc(1969, 7, 20)],
                  [2, -3e-7, utc(1970, 1, 1), np.nan],
                  [np.nan, 1e20, utc(2038, 1, 19, 3, 14, 8), 0],
                  [3, 0.1, 0, 0]])
    Y = np.array([1, 0, np.nan, 1, 0])
    metas = np.array([["plain"], ["it's \"quoted\", 50%"], [""],
                      ["back\\slash\nnew line"], ["?"]], dtype=object)
    table = Table.from_numpy(domain, X, Y, metas, weights)
    table.name = "round trip"
    return table


def assert_same_table(read_back, original):
    assert read_back.name == original.name
    for new, old in zip(read_back.domain.variables + read_back.domain.metas,
                        original.domain.variables + original.domain.metas):
        assert (new.name, type(new)) == (old.name, type(old))
        if old.is_discrete:
            assert new.values == old.values
        if old.is_time:
            assert (new.have_date, new.have_time) == \
                (old.have_date, old.have_time)
    np.testing.assert_array_equal(read_back.X, original.X)
    np.testing.assert_array_equal(read_back.Y, original.Y)
    assert read_back.metas.tolist() == original.metas.tolist()


def test_round_trip_through_table_save(tmp_path):
    original = roundtrip_table()
    path = str(tmp_path / "out.arff")
    original.save(path)
    assert_same_table(Table(path), original)


def test_round_trip_with_weights_and_compression(tmp_path):
    original = roundtrip_table(weights=np.array([1, 2.5, 0.125, 1, 3]))
    path = str(tmp_path / "out.arff.gz")
    ArffReader.write_file(path, original)
    read_back = Table(path)
    assert_same_table(read_back, original)
    np.testing.assert_array_equal(read_back.W, original.W)


def test_written_file_is_plain_weka_arff(tmp_path):
    original = roundtrip_table()
    path = tmp_path / "out.arff"
    ArffReader.write_file(str(path), original[:2])
    assert path.read_text(encoding="utf-8").splitlines() == [
        "@relation 'round trip'",
        "",
        "@attribute 'colour, hue' {red, 'dark blue', \"it's\", '?'}",
        "@attribute 'size cm' NUMERIC",
        "@attribute when DATE \"yyyy-MM-dd'T'HH:mm:ss\"",
        "@attribute day DATE yyyy-MM-dd",
        "@attribute 'a note' STRING",
        "@attribute label {no, yes}",
        "",
        "@data",
        "red,1.25,2021-03-04T05:06:07,2000-01-01,plain,yes",
        "'dark blue',?,?,1969-07-20,'it\\'s \"quoted\", 50%',no",
    ]


def test_non_string_metas_are_written_as_attributes(tmp_path):
    x = ContinuousVariable("x")
    group = DiscreteVariable("group", values=("g1", "g2"))
    table = Table.from_numpy(Domain([x], None, [group]),
                             np.array([[1.0], [2.0]]), None,
                             np.array([[0], [1]], dtype=object))
    path = str(tmp_path / "m.arff")
    ArffReader.write_file(path, table)
    read_back = ArffReader(path, class_attribute=None).read()
    assert [var.name for var in read_back.domain.attributes] == ["x", "group"]
    np.testing.assert_array_equal(read_back.X, [[1, 0], [2, 1]])


# --- the File widget -----------------------------------------------------

class TestFileWidget(widget_tests.WidgetTest):
    """The File widget lists the ARFF format and opens .arff files."""

    def setUp(self):
        self.widget = self.create_widget(OWFile,
                                         stored_settings={"recent_paths": []})

    def test_file_widget_offers_and_opens_arff(self):
        self.assertIn(ArffReader, self.widget.available_readers)
        with tempfile.TemporaryDirectory() as directory:
            self.widget.add_path(write(Path(directory), WEATHER,
                                       "weather.arff"))
            self.widget.load_data()
        data = self.get_output(self.widget.Outputs.data)
        self.assertFalse(self.widget.Error.active)
        self.assertEqual(data.domain.class_var.name, "play")
        np.testing.assert_array_equal(data.X[:, 1], [85, 83, 70, 65])


def test_readme_story_in_a_fresh_interpreter(tmp_path):
    """What the README says of ``Table("x.arff")``: in a fresh interpreter
    Orange alone has no reader for it (it finds an add-on's formats only
    when the add-on is imported, and offers no entry point for them); once
    ``import orangecontrib.relief`` has run, the same call reads the file,
    also after the failed attempt."""
    path = write(tmp_path, WEATHER)
    code = (
        "import sys\n"
        "from Orange.data import Table\n"
        "from Orange.data.io_base import MissingReaderException\n"
        "try:\n"
        f"    Table({path!r})\n"
        "except MissingReaderException as error:\n"
        "    assert 'No readers for file' in str(error), error\n"
        "else:\n"
        "    sys.exit('read without the add-on: update the README')\n"
        "import orangecontrib.relief\n"
        f"assert Table({path!r}).domain.class_var.name == 'play'\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path,
                            env={**os.environ, "PYTHONPATH": str(REPO)},
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
