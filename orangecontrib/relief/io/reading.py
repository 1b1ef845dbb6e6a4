"""Read a data file from anywhere: Orange's readers, with the guards the
command line needs.

:func:`read_data` reads a file as ``Table(file)`` does (the reader Orange
picks by extension, a data set that ships with Orange by its name) but

* refuses a file Orange would unpickle (``.pkl``, ``.pickle`` and their
  ``.gz``/``.bz2``/``.xz`` forms, also when Orange finds one by adding an
  extension to the name given), and skips the ``FILE.metadata`` file that
  Orange unpickles beside any data file, unless ``allow_pickle``: loading a
  pickle runs whatever code it holds;
* turns what a reader raises on a broken file (a truncated or corrupt
  archive, a spreadsheet that is not one) into one ValueError,
  ``"FILE: what is wrong"``;
* says that an empty file is empty and that a file with a header alone
  holds no rows;
* refuses a delimited text file whose rows have more or fewer fields than
  its header, naming their lines (Orange pads short rows with missing
  values and cuts long ones, which shifts nothing back into place).

:func:`left_out` names the columns that are not features and says why
(text, marked meta or ignore in the header).
"""
import codecs
import csv
import lzma
import os
import pickle
import warnings
import zipfile
import zlib
from contextlib import contextmanager

import numpy as np

__all__ = ["DataFile", "read_data", "left_out"]

#: what Orange's readers and the archives under them raise on a broken file
FILE_ERRORS = (ValueError, OSError, EOFError, lzma.LZMAError, zlib.error,
               zipfile.BadZipFile, csv.Error)
#: what unpickling a file that is no pickled table raises (--allow-pickle)
PICKLE_ERRORS = (pickle.UnpicklingError, TypeError, AttributeError,
                 ImportError, IndexError)
#: how much of a file is looked at to tell that it is empty
_PEEK = 1 << 16
_ARCHIVES = {".gz": "gzip", ".bz2": "bzip2", ".xz": "xz"}
#: the byte order marks of text in which zero bytes are letters' halves
_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
#: rows with the wrong number of fields named in an error
_SHOWN = 5


class DataFile:
    """A table read by :func:`read_data` and what was learnt on the way.

    Attributes
    ----------
    table : Orange.data.Table
    warnings : list of str
        The texts of the warnings the reader gave, each once.
    place : callable
        ``place(row)``: where data row ``row`` (0-based) is in the file,
        ``"line 7"`` for a text file, ``"data row 3"`` otherwise.
    marked : dict
        ``{column name: "meta" or "ignore"}`` for the columns the file's
        header marks so (Orange's ``.tab`` flags, ``m#``/``i#`` prefixes).
    """

    def __init__(self, table, warnings, place, marked):
        self.table, self.warnings = table, warnings
        self.place, self.marked = place, marked


def read_data(file, allow_pickle=False):
    """Read ``file`` with the reader Orange picks for it.

    Parameters
    ----------
    file : str
        A path, or the name of a data set that ships with Orange.
    allow_pickle : bool
        Read pickled tables and ``FILE.metadata`` pickles (trusted files
        only: a pickle runs code).

    Returns
    -------
    DataFile

    Raises
    ------
    ValueError
        One line naming ``file`` and what is wrong with it.
    """
    from Orange.data.io import FileFormat, PickleReader
    from Orange.data.table import dataset_dirs

    try:
        path = FileFormat.locate(file, dataset_dirs)
    except OSError:
        raise ValueError(f"{file}: the file was not found.") from None
    if os.path.isdir(path):
        raise ValueError(f"{file}: is a folder, not a data file.")
    with _bad_file(file, path, FILE_ERRORS):
        head = _head(path, FileFormat)
    if len(head) < _PEEK and not head.strip():
        raise ValueError(f"{file}: the file is empty.")
    reader = _reader(file, path, FileFormat)
    zero = head.find(b"\0")
    if zero >= 0 and _is_text(reader) and not head.startswith(_BOMS):
        raise ValueError(
            f"{file}: holds binary data (a zero byte at byte {zero}), not "
            "text; is it a spreadsheet or an archive under another name?")
    pickled = isinstance(reader, PickleReader)
    if pickled and not allow_pickle:
        shown = file if path == file else f"{file} (found as {path})"
        raise ValueError(
            f"{shown}: is read by unpickling it, and loading a pickle runs "
            "whatever code it holds; the command line reads one only with "
            "--allow-pickle (give it for files you trust).")
    if not allow_pickle:
        reader.set_table_metadata = _skip_metadata
    rows = _Rows(reader)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            table = reader.read()
        except FILE_ERRORS + (PICKLE_ERRORS if pickled else ()) as error:
            if not rows.header_alone():     # (Orange fails on a header
                raise ValueError(           # followed by blank lines)
                    _broken(file, path, error)) from None
            table = None
    if table is None or len(table) == 0:
        raise ValueError(f"{file}: holds no rows of data, only a header.")
    rows.check(file, len(table))
    if not table.domain.variables and not table.domain.metas:
        raise ValueError(f"{file}: Orange found rows but no columns in it; "
                         "check its delimiter and its header.")
    texts = []
    for warning in caught:
        if not issubclass(warning.category, (UserWarning, RuntimeWarning)):
            continue
        text = str(warning.message)
        if text == "Array contains infinity.":
            text = (f"{file} holds infinite values; Orange reads them as "
                    "missing values.")
        if text not in texts:
            texts.append(text)
    return DataFile(table, texts, rows.place, rows.marked())


def _reader(file, path, file_format):
    """The reader Orange picks for ``path`` by its extension (a
    spreadsheet's reader opens the workbook here)."""
    from Orange.data.io_base import MissingReaderException

    try:
        return file_format.get_reader(path)
    except MissingReaderException:
        known = sorted({extension for extension in file_format.readers})
        raise ValueError(f"{file}: Orange reads no file of this name; give "
                         f"one that ends in {', '.join(known)}.") from None
    except FILE_ERRORS + _spreadsheet_errors() as error:
        raise ValueError(_broken(file, path, error)) from None


def _spreadsheet_errors():
    """What Orange's spreadsheet readers raise while they open a workbook
    that is not one (openpyxl: KeyError for a zip without a workbook)."""
    from openpyxl.utils.exceptions import InvalidFileException
    from xlrd import XLRDError

    return KeyError, InvalidFileException, XLRDError


@contextmanager
def _bad_file(file, path, errors):
    """Turn ``errors`` raised inside into ``ValueError("FILE: ...")``."""
    try:
        yield
    except errors as error:
        raise ValueError(_broken(file, path, error)) from None


def _head(path, file_format):
    """The first bytes of ``path``, decompressed."""
    if os.path.getsize(path) == 0:
        return b""
    with file_format.open(path, "rb") as stream:
        return stream.read(_PEEK)


def _is_text(reader):
    """Whether ``reader`` reads text (delimited, ARFF, basket files)."""
    from Orange.data.io import BasketReader, CSVReader
    from orangecontrib.relief.io.arff import ArffReader

    return isinstance(reader, (CSVReader, ArffReader, BasketReader))


def _skip_metadata(filename, table):
    """Orange's ``set_table_metadata`` without the ``FILE.metadata``
    pickle: the ranking does not use a table's attributes."""


def _broken(file, path, error):
    """``"FILE: what is wrong"`` for an error a reader raised."""
    cause = error
    while cause.__cause__ is not None or (
            cause.__context__ is not None and not cause.__suppress_context__):
        cause = cause.__cause__ or cause.__context__
    text = " ".join(str(cause).split()) or type(cause).__name__
    for name in (path, file):
        if text.startswith(f"{name}: "):     # (the ARFF reader's messages)
            return f"{file}: {text[len(name) + 2:]}"
    archive = _ARCHIVES.get(os.path.splitext(path)[1])
    if isinstance(cause, EOFError):
        what = f"{archive} archive" if archive else "file"
        return f"{file}: the {what} is cut short (truncated?): {text}."
    if archive and isinstance(cause, (OSError, lzma.LZMAError, zlib.error)):
        return f"{file}: is not a valid {archive} archive: {text}."
    if isinstance(cause, (zipfile.BadZipFile, KeyError)) \
            or type(cause).__module__.startswith(("xlrd", "openpyxl")):
        return f"{file}: is not the spreadsheet its name says: {text}."
    return f"{file}: {text}"


class _Rows:
    """The rows a delimited-text reader parses, seen on their way into
    Orange's ``data_table`` (so with the reader's own delimiter, quoting and
    encoding): where each non-blank row is, how many fields it has, and the
    first three rows, among which is the header."""

    def __init__(self, reader):
        from Orange.data.io import CSVReader

        self.text = isinstance(reader, CSVReader)
        self.complete = False
        self.lines, self.lengths, self.used, self.first = [], [], [], []
        self.n_header = 0
        if not hasattr(reader, "data_table"):
            return
        original = reader.data_table

        def data_table(data, headers=None):
            return original(self._watch(data), headers)

        reader.data_table = data_table

    def _watch(self, data):
        """Yield ``data``'s rows, noting each non-blank one (Orange drops
        the blank ones); a reader that retries starts the notes again."""
        self.lines, self.lengths, self.used, self.first = [], [], [], []
        self.complete = False
        for count, fields in enumerate(data, start=1):
            if any(fields):
                used = len(fields)
                while used and not str(fields[used - 1]).strip():
                    used -= 1
                self.lines.append(getattr(data, "line_num", count))
                self.lengths.append(len(fields))
                self.used.append(used)
                if len(self.first) < 3:
                    self.first.append([str(field).strip()
                                       for field in fields])
            yield fields
        self.complete = True

    def header_alone(self):
        """Whether the reader went through a text file and found at most
        one row that was not blank."""
        return self.text and self.complete and len(self.lines) <= 1

    def check(self, file, n_rows):
        """Raise a ValueError naming the lines of a text file with fewer
        fields than the header names, or with values beyond the header's
        last field (empty fields at the end of a row or of the header do
        not count); a file without a header is held to its longest row."""
        self.n_header = max(len(self.lines) - n_rows, 0)
        if not self.text or not self.lines:
            return
        lengths = np.array(self.lengths[self.n_header:])
        used = np.array(self.used[self.n_header:])
        if self.n_header:
            width, last = self.used[0], self.lengths[0]
            against = f"the header's {width} fields (line {self.lines[0]})"
        else:
            width = last = used.max()
            against = f"the {width} fields of the longest row"
        wrong = np.flatnonzero((lengths < width) | (used > last))
        if not len(wrong):
            return
        named = ", ".join(f"line {self.lines[self.n_header + i]} has "
                          f"{lengths[i] if lengths[i] < width else used[i]}"
                          for i in wrong[:_SHOWN])
        more = f" and {len(wrong) - _SHOWN} more" \
            if len(wrong) > _SHOWN else ""
        raise ValueError(
            f"{file}: {len(wrong)} row(s) do not have {against}: "
            f"{named}{more}; give every row {width} fields (an empty field "
            "is a missing value) and quote values that hold the delimiter.")

    def place(self, row):
        """Where data row ``row`` (0-based) is: its line in a text file."""
        index = self.n_header + row
        if self.text and index < len(self.lines):
            return f"line {self.lines[index]}"
        return f"data row {row + 1}"

    def marked(self):
        """{name: "meta" or "ignore"} for the columns the header marks:
        the third row of a three-row header (``m``/``meta``,
        ``i``/``ignore``), or ``m#``/``i#`` before a one-row header's
        names."""
        marked = {}
        if self.n_header == 3:
            names, _, flags = self.first
            for name, flag in zip(names, flags):
                words = flag.split()
                for short, role in (("i", "ignore"), ("m", "meta")):
                    if short in words or role in words:
                        marked[name] = role
        elif self.n_header == 1:
            for column in self.first[0]:
                prefix, hash_, name = column.partition("#")
                if not hash_:
                    continue
                for short, role in (("i", "ignore"), ("m", "meta")):
                    if short in prefix:
                        marked[name.strip()] = role
        return marked


def left_out(data, table, keep=()):
    """``(level, text)`` for each reason columns of ``data``'s file are not
    features of ``table`` (the table to score, its class chosen): a column
    of numbers with stray text in it ("warning", naming the values and
    where they are), text Orange could not read as numbers or categories,
    columns the header marks meta or ignore ("note").  ``keep`` names the
    metas asked for (covariates)."""
    domain = table.domain
    present = {var.name for var in domain.variables + domain.metas}
    found, text, meta = [], [], []
    for var in domain.metas:
        if var.name in keep:
            continue
        if not var.is_string or data.marked.get(var.name) == "meta":
            meta.append(var.name)
            continue
        stray = _stray_text(table.get_column(var), data.place)
        if stray is None:
            text.append(var.name)
        else:
            found.append(("warning", f"column {var.name!r} is read as text "
                          f"and not scored: {stray} not a number; correct "
                          "the value(s), or write ? where a value is "
                          "missing."))
    ignored = [name for name, role in data.marked.items()
               if role == "ignore" and name not in present]
    for names, why in ((text, "hold text, which Relief does not compare"),
                       (meta, "are meta columns"),
                       (ignored, "are marked ignore in the file")):
        if names:
            found.append(("note", f"column(s) {_names(names)} {why}; not "
                                  "scored."))
    return found


def _stray_text(values, place):
    """For a text column of numbers with a few words among them (no more
    distinct words than numbers; Orange's missing-value marks aside): the
    words, where each first is and how often (``"'five' (line 3) is"``);
    None for a column of text."""
    from Orange.data.variable import MISSING_VALUES

    numbers, words = 0, {}      # {word: (first row, count)}
    for row, value in enumerate(values):
        if not value or value in MISSING_VALUES:
            continue
        if _is_number(value):
            numbers += 1
        else:
            first, count = words.get(value, (row, 0))
            words[value] = (first, count + 1)
    if numbers == 0 or numbers < len(words):
        return None
    shown = ", ".join(
        f"{word!r} ({place(first)}{f', {count} times' if count > 1 else ''})"
        for word, (first, count) in list(words.items())[:_SHOWN])
    more = f" and {len(words) - _SHOWN} more" if len(words) > _SHOWN else ""
    return f"{shown}{more} {'is' if len(words) == 1 else 'are'}"


def _is_number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def _names(names):
    """``'a', 'b', 'c'`` (the first ten, then how many more)."""
    more = f" and {len(names) - 10} more" if len(names) > 10 else ""
    return ", ".join(map(repr, names[:10])) + more
