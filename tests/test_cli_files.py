"""The command line on hostile files (issue 38): every broken file is one
line ``error: FILE: ...`` and exit status 2, a pickle is refused unless
asked for (and no code it holds runs), an empty file says so, a ragged
text file names its lines, and columns left out of the features are
named."""
import bz2
import gzip
import io
import lzma
import os
import pickle
import zipfile

import pytest

from orangecontrib.relief.cli import main
from orangecontrib.relief.datasets import corral

COMPRESS = {"gz": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress}
ARCHIVE = {"gz": "gzip", "bz2": "bzip2", "xz": "xz"}
GOOD = {
    "tab": b"a\tb\tclass\n1\t2\tx\n3\t4\ty\n5\t6\tx\n7\t8\ty\n",
    "tsv": b"a\tb\tclass\n1\t2\tx\n3\t4\ty\n5\t6\tx\n7\t8\ty\n",
    "csv": b"a,b,class\n1,2,x\n3,4,y\n5,6,x\n7,8,y\n",
    "arff": b"@relation r\n@attribute a numeric\n@attribute b numeric\n"
            b"@attribute class {x, y}\n@data\n1,2,x\n3,4,y\n5,6,x\n7,8,y\n",
}
JUNK = bytes(range(256)) * 8


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def assert_one_line_error(status, out, err, path, *words):
    assert status == 2, err
    assert out == ""
    assert len(err.splitlines()) == 1, err
    assert err.startswith(f"error: {path}: "), err
    assert "Traceback" not in err
    for word in words:
        assert word in err, err


def bad_files():
    """(name, content, what the message says) of files no reader can read:
    every text format Orange picks by extension, in every compression, cut
    short, corrupt and empty inside, and spreadsheets that are not."""
    files = []
    for extension, content in GOOD.items():
        for archive, compress in COMPRESS.items():
            packed = compress(content * 400)
            files += [
                (f"cut.{extension}.{archive}", packed[:len(packed) // 2],
                 "cut short"),
                (f"junk.{extension}.{archive}", JUNK,
                 f"not a valid {ARCHIVE[archive]} archive"),
                (f"hollow.{extension}.{archive}", compress(b""), "is empty"),
            ]
    content = _xlsx()
    files += [(f"binary.{extension}", JUNK, "holds binary data")
              for extension in list(GOOD) + ["basket"]]
    files += [("binary.csv.gz", gzip.compress(JUNK), "holds binary data")]
    sheet = "not the spreadsheet its name says"
    files += [("junk.xlsx", JUNK, sheet),
              ("cut.xlsx", content[:len(content) // 2], sheet),
              ("other.xlsx", _zip(), sheet),
              ("junk.xls", JUNK, sheet),
              ("table.xlsx.gz", gzip.compress(content),
               "Orange reads no file"),
              ("data.json", b"{}", "Orange reads no file"),
              ("undeclared.arff", GOOD["arff"].replace(b"1,2,x", b"1,2,z"),
               "line 6: value 'z' is not declared for nominal attribute "
               "'class'"),
              ("twice.arff", b"@relation r\n@attribute d date 'yyyy-yyyy'\n"
                             b"@attribute c {x}\n@data\n", "line 2: "
               "attribute 'd': date format 'yyyy-yyyy' gives the same field "
               "twice")]
    return files


def _xlsx():
    from openpyxl import Workbook
    book = Workbook()
    book.active.append(["a", "class"])
    book.active.append([1, "x"])
    stream = io.BytesIO()
    book.save(stream)
    return stream.getvalue()


def _zip():
    stream = io.BytesIO()
    with zipfile.ZipFile(stream, "w") as archive:
        archive.writestr("hello.txt", "not a workbook")
    return stream.getvalue()


BAD = bad_files()


@pytest.mark.parametrize("name, content, message", BAD,
                         ids=[name for name, _, _ in BAD])
def test_every_bad_file_is_one_line_and_status_2(capsys, tmp_path, name,
                                                 content, message):
    # (a truncated .csv.gz raised EOFError, a corrupt .arff.xz LZMAError,
    # junk named .xlsx BadZipFile: tracebacks and status 1)
    path = tmp_path / name
    path.write_bytes(content)
    status, out, err = run(capsys, "score", str(path))
    assert_one_line_error(status, out, err, path, message)


def test_a_utf16_text_file_is_no_binary_file(capsys, tmp_path):
    path = tmp_path / "utf16.csv"
    path.write_bytes(GOOD["csv"].decode().encode("utf-16"))
    status, out, err = run(capsys, "score", str(path), "--format", "csv")
    assert status == 0, err
    assert len(out.splitlines()) == 3


def test_an_arff_file_with_cr_line_endings_scores(capsys, tmp_path):
    path = tmp_path / "mac.arff"
    path.write_bytes(GOOD["arff"].replace(b"\n", b"\r"))
    status, out, err = run(capsys, "score", str(path), "--format", "csv")
    assert status == 0, err
    assert len(out.splitlines()) == 3


@pytest.mark.parametrize("extension", [f"{e}.{a}" for e in GOOD
                                       for a in COMPRESS] + list(GOOD))
def test_the_good_files_of_those_formats_score(capsys, tmp_path, extension):
    content = GOOD[extension.split(".")[0]]
    if "." in extension:
        content = COMPRESS[extension.split(".")[1]](content)
    path = tmp_path / f"good.{extension}"
    path.write_bytes(content)
    status, out, err = run(capsys, "score", str(path), "--format", "csv")
    assert status == 0, err
    assert out.splitlines()[0] == "rank,feature,weight"
    assert len(out.splitlines()) == 3


# --- pickles ---------------------------------------------------------------

class Payload:
    """Unpickling it makes the folder ``marker``: proof that code ran."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return os.makedirs, (self.marker,)


PICKLES = ["evil.pkl", "evil.pickle"] + [f"evil.{e}.{a}" for e in
                                          ("pkl", "pickle")
                                          for a in COMPRESS]


def write_pickle(path, marker):
    content = pickle.dumps(Payload(marker))
    archive = path.name.rsplit(".", 1)[-1]
    if archive in COMPRESS:
        content = COMPRESS[archive](content)
    path.write_bytes(content)
    return path


@pytest.mark.parametrize("name", PICKLES)
def test_a_pickle_is_refused_and_runs_no_code(capsys, tmp_path, name):
    marker = tmp_path / "code-ran"
    path = write_pickle(tmp_path / name, marker)
    status, out, err = run(capsys, "score", str(path))
    assert_one_line_error(status, out, err, path, "pickle", "--allow-pickle",
                          "runs whatever code it holds")
    assert not marker.exists()
    # the test can see code run: with --allow-pickle it does (and the
    # result, no table, is one line too)
    status, out, err = run(capsys, "score", str(path), "--allow-pickle")
    assert marker.exists()
    assert_one_line_error(status, out, err, path)


def test_a_pickle_found_by_adding_an_extension_is_refused(capsys, tmp_path):
    # (Orange's FileFormat.locate turns "evil" into "evil.pkl")
    marker = tmp_path / "code-ran"
    path = write_pickle(tmp_path / "evil.pkl", marker)
    given = str(path)[:-len(".pkl")]
    status, out, err = run(capsys, "score", given)
    assert status == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith(f"error: {given} (found as {path}): ")
    assert not marker.exists()


@pytest.mark.parametrize("name", ["evil.tab", "evil.csv", "evil.arff",
                                  "evil.xlsx", "evil.csv.gz"])
def test_a_pickle_under_another_name_runs_no_code(capsys, tmp_path, name):
    marker = tmp_path / "code-ran"
    path = tmp_path / name
    content = pickle.dumps(Payload(marker), protocol=0)
    path.write_bytes(gzip.compress(content) if name.endswith(".gz")
                     else content)
    status, out, err = run(capsys, "score", str(path))
    assert status == 2 and out == "" and len(err.splitlines()) == 1
    assert not marker.exists()


@pytest.mark.parametrize("name", ["data.csv", "data.tab", "data.arff"])
def test_a_metadata_pickle_beside_a_data_file_runs_no_code(capsys, tmp_path,
                                                           name):
    # (Orange unpickles FILE.metadata beside any file its text readers read)
    marker = tmp_path / "code-ran"
    path = tmp_path / name
    path.write_bytes(GOOD[name.split(".")[1]])
    write_pickle(tmp_path / f"{name}.metadata", marker)
    status, out, err = run(capsys, "score", str(path))
    assert status == 0, err
    assert not marker.exists()
    run(capsys, "score", str(path), "--allow-pickle")
    assert marker.exists()


def test_allow_pickle_reads_a_pickled_table(capsys, tmp_path):
    table = corral(32)
    path = tmp_path / "corral.pkl.gz"
    path.write_bytes(gzip.compress(pickle.dumps(table)))
    status, out, err = run(capsys, "score", str(path))
    assert_one_line_error(status, out, err, path, "--allow-pickle")
    status, out, _ = run(capsys, "score", str(path), "--allow-pickle",
                         "--format", "csv")
    tab = tmp_path / "corral.tab"
    table.save(str(tab))
    assert status == 0
    assert out == run(capsys, "score", str(tab), "--format", "csv")[1]


# --- empty files, no rows --------------------------------------------------

@pytest.mark.parametrize("name, content, message", [
    ("empty.csv", b"", "the file is empty"),
    ("empty.tab", b"", "the file is empty"),
    ("empty.arff", b"", "the file is empty"),
    ("empty.xlsx", b"", "the file is empty"),
    ("blank.csv", b"\n  \n\t\n", "the file is empty"),
    ("empty.csv.gz", gzip.compress(b""), "the file is empty"),
    ("empty.csv.bz2", b"", "the file is empty"),
    ("header.csv", b"a,b,class\n", "holds no rows of data, only a header"),
    ("header.tab", b"a\tb\tclass\nc\tc\td\n\t\tclass\n",
     "holds no rows of data"),
    ("header.arff", GOOD["arff"].split(b"@data")[0] + b"@data\n",
     "holds no rows of data"),
    ("blank-rows.csv", b"a,b,class\n\n,,\n", "holds no rows of data"),
    ("numbers.csv", b"1,2,0\n3,4,1,\n5,6,0\n7,8,1,,\n",
     "Orange found rows but no columns in it"),
    ("blank-lines.tab", b"a\tb\tclass\n\n\n", "holds no rows of data"),
    ("blank-lines.tab", b"a\tb\tclass\nc\tc\td\n\t\tclass\n\n\n",
     "holds no rows of data"),
])
def test_an_empty_file_says_it_is_empty(capsys, tmp_path, name, content,
                                        message):
    # (an empty file got "has no class variable", a header alone "Relief
    # needs at least two instances")
    path = tmp_path / name
    path.write_bytes(content)
    status, out, err = run(capsys, "score", str(path))
    assert_one_line_error(status, out, err, path, message)


# --- ragged text files -----------------------------------------------------

RAGGED = "a,b,class\n1,2,x\n3,y\n5,6,x\n\n7,8,y,9\n1,2,y\n"


@pytest.mark.parametrize("name, text, options, message", [
    ("ragged.csv", RAGGED, [], "2 row(s) do not have the header's 3 fields "
                               "(line 1): line 3 has 2, line 6 has 4;"),
    ("ragged.tab", RAGGED.replace(",", "\t"), [],
     "2 row(s) do not have the header's 3 fields (line 1): line 3 has 2, "
     "line 6 has 4;"),
    ("many.csv", "a,b,class\n" + "1,x\n" * 8 + "1,2,y\n", [],
     "8 row(s) do not have the header's 3 fields (line 1): line 2 has 2, "
     "line 3 has 2, line 4 has 2, line 5 has 2, line 6 has 2 and 3 more;"),
    ("numbers.csv", "1,2,0\n3,4,1\n5,6\n7,8,1\n", ["--class", "Feature 3"],
     "1 row(s) do not have the 3 fields of the longest row: line 3 has 2;"),
])
def test_rows_with_the_wrong_number_of_fields_are_named(
        capsys, tmp_path, name, text, options, message):
    # (Orange pads short rows and cuts long ones; a shifted row then made
    # "Column 'class' holds text", or a silent wrong number)
    path = tmp_path / name
    path.write_text(text)
    status, out, err = run(capsys, "score", str(path), *options)
    assert_one_line_error(status, out, err, path, message)


def test_trailing_empty_fields_and_short_header_rows_are_no_error(
        capsys, tmp_path):
    # an exporter's trailing delimiter, and a .tab header whose flag row
    # stops early, are read by Orange as meant
    path = tmp_path / "trailing.csv"
    path.write_text("a,b,class\n1,2,x,\n3,4,y,,\n5,6,x\n7,8,y\n")
    status, out, err = run(capsys, "score", str(path), "--format", "csv")
    assert status == 0, err
    # a header that ends in a delimiter: rows may fill its unnamed field
    path.write_text("a,b,class,\n1,2,x\n3,4,y,5\n5,6,x,\n7,8,y,1\n")
    status, _, err = run(capsys, "score", str(path))
    assert status == 0, err
    tab = tmp_path / "short-flags.tab"
    tab.write_text("class\ta\tb\nd\tc\tc\nclass\nx\t1\t2\ny\t3\t4\n"
                   "x\t5\t6\ny\t7\t8\n")
    assert run(capsys, "score", str(tab), "--format", "csv")[1] == out


# --- columns that are not features -----------------------------------------

@pytest.mark.parametrize("text, named", [
    # (Orange read b as text; the output listed 2 features, b unnamed)
    ("a,b,c,class\n1,2,3,x\n2,five,4,y\n3,4,5,x\n4,5,6,y\n5,6,7,x\n",
     "'five' (line 3) is not a number"),
    # Orange's own missing marks (NA, ?, ~) are no stray words
    ("a,b,c,class\n1,2,0,x\n2,n/a,0,y\n3,NA,0,x\n4,-,0,y\n5,n/a,0,x\n"
     "6,?,0,y\n7,8,0,x\n8,9,0,y\n",
     "'n/a' (line 3, 2 times), '-' (line 5) are not a number"),
])
def test_a_number_column_with_text_in_it_is_named(capsys, tmp_path, text,
                                                  named):
    path = tmp_path / "typo.csv"
    path.write_text(text)
    status, out, err = run(capsys, "score", str(path))
    assert status == 0
    assert (f"warning: {path}: column 'b' is read as text and not scored: "
            f"{named}") in err
    assert "2 features" in out


def test_text_meta_and_ignored_columns_are_named(capsys, tmp_path):
    path = tmp_path / "roles.tab"
    path.write_text(
        "id\tname\tnote\ta\tskip\tclass\n"
        "s\ts\td\tc\tc\td\n"
        "meta\t\tm\t\ti\tclass\n"
        "1\tann\tp\t1\t9\tx\n2\tbob\tq\t2\t9\ty\n3\tcid\tp\t3\t9\tx\n"
        "4\tdee\tq\t4\t9\ty\n")
    status, out, err = run(capsys, "score", str(path))
    assert status == 0, err
    assert f"note: {path}: column(s) 'name' hold text" in err
    assert f"note: {path}: column(s) 'id', 'note' are meta columns" in err
    assert f"note: {path}: column(s) 'skip' are marked ignore" in err
    assert "1 features" in out


def test_covariates_are_not_named_as_left_out(capsys, tmp_path):
    path = tmp_path / "cov.tab"
    path.write_text("m#age\ta\tb\tcD#class\n" + "".join(
        f"{i}\t{i % 3}\t{i % 2}\t{'xy'[i % 2]}\n" for i in range(12)))
    status, out, err = run(capsys, "score", str(path), "--covariates", "age",
                           "--permutations", "9")
    assert status == 0, err
    assert "'age'" not in err
