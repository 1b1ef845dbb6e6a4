"""Read and write Weka's ARFF files as Orange tables.

Importing this module defines :class:`ArffReader`, a subclass of
:class:`Orange.data.io.FileFormat`; Orange registers every such subclass, so
afterwards ``Orange.data.Table("data.arff")``, ``table.save("data.arff")`` and
the File and Save Data widgets handle ARFF files (also ``.arff.gz``,
``.arff.bz2`` and ``.arff.xz``).

What is read, following Weka's "ARFF (stable version)" description
(https://waikato.github.io/weka-wiki/formats_and_processing/arff_stable/):

==========================  ==============================================
ARFF                        Orange
==========================  ==============================================
``@relation name``          ``Table.name``
``NUMERIC``, ``REAL``,      :class:`~Orange.data.ContinuousVariable`
``INTEGER``
``{a, b, 'c d'}``           :class:`~Orange.data.DiscreteVariable`, values
                            in the declared order
``STRING``                  :class:`~Orange.data.StringVariable`, always a
                            meta attribute
``DATE [format]``           :class:`~Orange.data.TimeVariable` (seconds
                            since 1970-01-01 UTC; a date without a time
                            zone is taken to be UTC)
``?``                       missing value (a quoted ``'?'`` is the text ?)
``{3 x, 7 y}``              sparse row: attributes left out are 0, which for
                            a nominal attribute is its first declared value
                            (as in Weka; missing for ``{}``, which declares
                            none), for a date 1970-01-01T00:00:00 and for
                            a string the empty (missing) string
``..., {2.5}``              instance weight, read into ``Table.W``; rows
                            without one weigh 1
==========================  ==============================================

Keywords and type names are case-insensitive; ``%`` starts a comment that
runs to the end of the line (outside quotes); values are separated by commas
and/or white space, as Weka's tokenizer does; names and values may be quoted
with single or double quotes, inside which a backslash escapes the next
character (``\\n``, ``\\t`` and ``\\r`` stand for new line, tab and carriage
return).  The file is read as UTF-8 (with or without a byte order mark); a
file that is not valid UTF-8 is read as Latin-1, with a warning.

The class.  Weka takes the last attribute as the class, and so does
``Table("data.arff")``: the reader's default is ``class_attribute="last"``.
If the last attribute is a STRING or DATE attribute the table has no class
(the reader does not go looking for another one).  To choose differently,
call the reader yourself::

    from orangecontrib.relief.io.arff import ArffReader
    table = ArffReader("weather.arff", class_attribute="outlook").read()
    table = ArffReader("weather.arff", class_attribute=None).read()  # none

or change roles afterwards with the File widget's domain editor.

Not supported: relational (multi-instance) attributes, and Java date patterns
whose letters have no :func:`time.strptime` equivalent (see
:func:`java_date_format_to_strptime`); both raise :class:`ValueError`.
Sparse files are read into a dense ``Table.X``.

A malformed file raises :class:`ValueError` whose message starts with the
file's name and the number of the offending line (``"data.arff: line 7:
..."``), and nothing is returned.  Lines may end in LF, CR LF or CR alone
(old Mac files).
"""
import os
import warnings
from datetime import datetime, timezone
from math import isnan

import numpy as np

from Orange.data import (ContinuousVariable, DiscreteVariable, Domain,
                         StringVariable, Table, TimeVariable, update_origin)
from Orange.data.io import FileFormat

__all__ = ["ArffReader", "java_date_format_to_strptime"]

#: Weka's default DATE format (ISO-8601 combined date and time).
DEFAULT_DATE_FORMAT = "yyyy-MM-dd'T'HH:mm:ss"

_NUMERIC_TYPES = ("numeric", "real", "integer")
_QUOTES = "'\""
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r"}
# Characters after which an unquoted word ends, besides white space.
_WORD_ENDS = ",{}%"


class _Brace:
    """A structural ``{`` or ``}`` token, told apart from a quoted "{"."""

    __slots__ = ("char",)

    def __init__(self, char):
        self.char = char

    def __str__(self):
        return self.char

    __repr__ = __str__


_OPEN = _Brace("{")
_CLOSE = _Brace("}")


def _find(tokens, brace):
    """Index of the first ``brace`` token (by identity), or -1."""
    return next((i for i, token in enumerate(tokens) if token is brace), -1)


def _tokenize(line, lineno):
    """Split one ARFF line into tokens the way Weka's tokenizer does.

    Commas and white space separate tokens, ``%`` outside quotes starts a
    comment, ``{`` and ``}`` are tokens of their own, and single- or
    double-quoted text is one token in which a backslash escapes the next
    character.

    Parameters
    ----------
    line : str
        The line, without its line ending.
    lineno : int
        Its 1-based number, for error messages.

    Returns
    -------
    list
        Tokens: ``str`` for a value or name, ``None`` for an unquoted ``?``
        (a missing value), and the :data:`_OPEN` / :data:`_CLOSE` braces.

    Raises
    ------
    ValueError
        If a quote is not closed on the same line.
    """
    if not any(c in line for c in "'\"{}%"):  # the common, fast case
        return [None if word == "?" else word
                for word in line.replace(",", " ").split()]
    tokens = []
    i, n = 0, len(line)
    while i < n:
        char = line[i]
        if char.isspace() or char == ",":
            i += 1
        elif char == "%":
            break
        elif char == "{":
            tokens.append(_OPEN)
            i += 1
        elif char == "}":
            tokens.append(_CLOSE)
            i += 1
        elif char in _QUOTES:
            start, i, chars = i, i + 1, []
            while True:
                if i >= n:
                    raise ValueError(
                        f"line {lineno}: unterminated quote {char} starting "
                        f"at column {start + 1}; close it with {char} on "
                        "the same line")
                current = line[i]
                if current == "\\" and i + 1 < n:
                    chars.append(_ESCAPES.get(line[i + 1], line[i + 1]))
                    i += 2
                elif current == char:
                    i += 1
                    break
                else:
                    chars.append(current)
                    i += 1
            tokens.append("".join(chars))
        else:
            start = i
            while i < n and not (line[i].isspace() or line[i] in _WORD_ENDS):
                i += 1
            word = line[start:i]
            tokens.append(None if word == "?" else word)
    return tokens


def _describe(token):
    """Show a token in an error message."""
    if token is None:
        return "?"
    return repr(token) if isinstance(token, str) else f"'{token}'"


# --- dates ------------------------------------------------------------------

def _date_directive(letter, count):
    """The strptime directive for ``count`` repeats of a Java pattern letter.

    Returns
    -------
    tuple or None
        ``(directive, is_date_part)``, or None if there is no equivalent.
    """
    if letter == "y":
        return ("%y" if count == 2 else "%Y"), True
    if letter == "M":
        return ("%m" if count <= 2 else "%b" if count == 3 else "%B"), True
    if letter == "d" and count <= 2:
        return "%d", True
    if letter == "E":
        return ("%a" if count <= 3 else "%A"), True
    simple_time = {"H": "%H", "h": "%I", "m": "%M", "s": "%S"}
    if letter in simple_time and count <= 2:
        return simple_time[letter], False
    if letter == "a" and count == 1:
        return "%p", False
    if letter == "S" and count == 3:
        return "%f", False
    if letter == "Z" or (letter == "X" and count in (2, 3)):
        return "%z", False
    return None


def java_date_format_to_strptime(pattern):
    """Translate a Java ``SimpleDateFormat`` pattern to a strptime format.

    Supported pattern letters: ``yyyy``/``yy`` (year), ``M``/``MM``
    (month number), ``MMM``/``MMMM`` (month name), ``d``/``dd``,
    ``E``/``EEEE`` (weekday name), ``H``/``HH``, ``h``/``hh`` with ``a``
    (AM/PM), ``m``/``mm``, ``s``/``ss``, ``SSS`` (milliseconds), ``Z``,
    ``XX`` and ``XXX`` (UTC offset).  Text in single quotes is literal and
    ``''`` is a single quote, as in Java.

    Parameters
    ----------
    pattern : str
        The pattern, e.g. Weka's default ``"yyyy-MM-dd'T'HH:mm:ss"``.

    Returns
    -------
    strptime_format : str
        The equivalent :meth:`datetime.strptime` format.
    have_date : bool
        Whether the pattern has a date part (year, month, day or weekday).
    have_time : bool
        Whether the pattern has a time-of-day part.

    Raises
    ------
    ValueError
        If the pattern uses a letter with no strptime equivalent, gives a
        field twice (``yyyy-yyyy``), or has an unterminated quote.
    """
    out, have_date, have_time = [], False, False
    given = {}      # {strptime directive: the letters that gave it}
    i, n = 0, len(pattern)
    while i < n:
        char = pattern[i]
        if char == "'":
            if pattern.startswith("''", i):
                out.append("'")
                i += 2
                continue
            i += 1
            while True:
                if i >= n:
                    raise ValueError(
                        f"date format {pattern!r} has an unterminated quote")
                if pattern.startswith("''", i):
                    out.append("'")
                    i += 2
                elif pattern[i] == "'":
                    i += 1
                    break
                else:
                    out.append("%%" if pattern[i] == "%" else pattern[i])
                    i += 1
        elif "a" <= char.lower() <= "z":
            end = i
            while end < n and pattern[end] == char:
                end += 1
            directive = _date_directive(char, end - i)
            if directive is None:
                raise ValueError(
                    f"date format {pattern!r}: pattern letters "
                    f"{pattern[i:end]!r} cannot be read; use yyyy, yy, M, "
                    "MM, MMM, MMMM, d, dd, E, EEEE, H, HH, h, hh, a, m, mm, "
                    "s, ss, SSS, Z, XX or XXX, and quote literal text "
                    "('T')")
            if directive[0] in given:
                raise ValueError(
                    f"date format {pattern!r} gives the same field twice "
                    f"({given[directive[0]]!r} and {pattern[i:end]!r}); "
                    "give each field once, and quote literal text")
            given[directive[0]] = pattern[i:end]
            out.append(directive[0])
            have_date |= directive[1]
            have_time |= not directive[1]
            i = end
        else:
            out.append("%%" if char == "%" else char)
            i += 1
    return "".join(out), have_date, have_time


def _timestamp(moment):
    """Seconds since 1970-01-01 UTC; a naive datetime is taken as UTC."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.timestamp()


# --- attribute declarations --------------------------------------------------

class _Column:
    """One declared ARFF attribute: its type and how to convert its values.

    Parameters
    ----------
    name : str
        Attribute name.
    kind : {"numeric", "nominal", "string", "date"}
        Its type.
    lineno : int
        Line of the declaration, for messages.
    values : sequence of str
        Declared values of a nominal attribute.
    date_format : str or None
        Java date pattern of a DATE attribute (Weka's default if None).

    Attributes
    ----------
    convert : callable
        ``convert(token, lineno)``: the value Orange stores for a token.
    sparse_default : float or str
        The value of this attribute where a sparse row leaves it out.
    """

    def __init__(self, name, kind, lineno, values=(), date_format=None):
        self.name, self.kind, self.lineno = name, kind, lineno
        self.values = tuple(values)
        self.index = {}
        for position, value in enumerate(self.values):
            if value in self.index:
                raise ValueError(
                    f"line {lineno}: nominal attribute {name!r} declares the "
                    f"value {value!r} twice")
            self.index[value] = float(position)
        self.date_format = date_format or DEFAULT_DATE_FORMAT
        if kind == "date":
            try:
                self.strptime_format, self.have_date, self.have_time = \
                    java_date_format_to_strptime(self.date_format)
            except ValueError as error:
                raise ValueError(f"line {lineno}: attribute {name!r}: "
                                 f"{error}") from None
        # The value of an entry that a sparse row leaves out: Weka's 0, the
        # first declared value of a nominal attribute; missing where it
        # declares none ({}), whose every value is missing.
        self.sparse_default = "" if kind == "string" else \
            np.nan if kind == "nominal" and not self.values else 0.0
        self.convert = self._make_converter()

    def _make_converter(self):
        """Build ``convert(token, lineno)`` for this attribute's type.

        The returned function turns a data token into what Orange stores:
        a float (the value itself, the index of a nominal value, or seconds
        since the epoch for a date), a string for STRING attributes, and NaN
        (or "" for strings) for a missing value ``None``.  It is specialised
        per type because it runs once for every value in the file.
        """
        reject = self._reject
        if self.kind == "numeric":
            def convert(token, lineno):
                try:
                    return float(token)
                except (TypeError, ValueError):
                    return reject(token, lineno)
        elif self.kind == "nominal":
            index = self.index

            def convert(token, lineno):
                try:
                    return index[token]
                except KeyError:
                    return reject(token, lineno)
        elif self.kind == "date":
            strptime_format = self.strptime_format

            def convert(token, lineno):
                if not isinstance(token, str):
                    return reject(token, lineno)
                try:
                    return _timestamp(datetime.strptime(token,
                                                        strptime_format))
                except ValueError:
                    raise ValueError(
                        f"line {lineno}: value {token!r} of date attribute "
                        f"{self.name!r} does not match its format "
                        f"{self.date_format!r}") from None
        else:
            def convert(token, lineno):
                return token if isinstance(token, str) \
                    else reject(token, lineno)
        return convert

    def _reject(self, token, lineno):
        """Handle a token the fast conversion did not accept.

        Returns the missing value for ``None`` and raises
        :class:`ValueError` for anything else.
        """
        if token is None:
            return "" if self.kind == "string" else np.nan
        if isinstance(token, _Brace):
            raise ValueError(
                f"line {lineno}: unexpected '{token}' in the value of "
                f"{self.name!r}; quote values that contain braces")
        if self.kind == "numeric":
            raise ValueError(
                f"line {lineno}: value {token!r} of numeric attribute "
                f"{self.name!r} is not a number")
        declared = ", ".join(map(repr, self.values)) or "no values"
        raise ValueError(
            f"line {lineno}: value {token!r} is not declared for "
            f"nominal attribute {self.name!r} (line {self.lineno} "
            f"declares {declared})")

    def variable(self):
        """The Orange variable for this attribute."""
        if self.kind == "numeric":
            return ContinuousVariable(self.name)
        if self.kind == "nominal":
            return DiscreteVariable(self.name, values=self.values)
        if self.kind == "date":
            return TimeVariable(self.name, have_date=int(self.have_date),
                                have_time=int(self.have_time))
        return StringVariable(self.name)


def _parse_attribute(tokens, lineno):
    """Build a :class:`_Column` from the tokens of an ``@attribute`` line."""
    if len(tokens) < 2 or isinstance(tokens[1], _Brace):
        raise ValueError(f"line {lineno}: @attribute needs a name and a type")
    name = "?" if tokens[1] is None else tokens[1]
    if not name:
        raise ValueError(f"line {lineno}: attribute name is empty")
    if len(tokens) < 3:
        raise ValueError(f"line {lineno}: attribute {name!r} has no type")
    kind, rest = tokens[2], tokens[3:]
    if kind is _OPEN:
        close = _find(rest, _CLOSE)
        if close < 0:
            raise ValueError(f"line {lineno}: the nominal values of {name!r} "
                             "have no closing '}'")
        values, extra = rest[:close], rest[close + 1:]
        if any(isinstance(value, _Brace) for value in values):
            raise ValueError(f"line {lineno}: unexpected '{{' among the "
                             f"nominal values of {name!r}")
        column = _Column(name, "nominal", lineno,
                         ["?" if value is None else value for value in values])
    else:
        keyword = kind.lower() if isinstance(kind, str) else ""
        extra = rest
        if keyword in _NUMERIC_TYPES:
            column = _Column(name, "numeric", lineno)
        elif keyword == "string":
            column = _Column(name, "string", lineno)
        elif keyword == "date":
            date_format = None
            if rest and not isinstance(rest[0], _Brace) and rest[0]:
                date_format, extra = rest[0], rest[1:]
            column = _Column(name, "date", lineno, date_format=date_format)
        elif keyword == "relational":
            raise ValueError(f"line {lineno}: attribute {name!r} is "
                             "relational (multi-instance data), which this "
                             "reader does not support")
        else:
            raise ValueError(
                f"line {lineno}: unknown type {_describe(kind)} of attribute "
                f"{name!r}; use NUMERIC, REAL, INTEGER, STRING, "
                "DATE [format] or {value, ...}")
    if extra:
        raise ValueError(f"line {lineno}: unexpected {_describe(extra[0])} "
                         f"after the type of attribute {name!r}")
    return column


# --- data rows ---------------------------------------------------------------

def _split_weight(tokens, lineno):
    """Remove a trailing instance weight ``{w}`` from a row's tokens.

    Returns
    -------
    tokens : list
        The tokens without the weight.
    weight : float or None
        The weight, or None if the row has none.
    """
    if len(tokens) >= 3 and tokens[-1] is _CLOSE and tokens[-3] is _OPEN \
            and not isinstance(tokens[-2], _Brace):
        try:
            weight = float(tokens[-2])
        except (TypeError, ValueError):
            raise ValueError(
                f"line {lineno}: instance weight {_describe(tokens[-2])} is "
                "not a number") from None
        return tokens[:-3], weight
    return tokens, None


def _parse_row(tokens, columns, converters, lineno):
    """Convert the tokens of a data line into one row of values.

    Parameters
    ----------
    tokens : list
        Tokens of a dense row (``v1, v2, ...``) or a sparse row
        (``{i v, j w, ...}``), either optionally followed by ``{weight}``.
    columns : list of _Column
        The declared attributes.
    converters : list of callable
        Their ``convert`` functions.
    lineno : int
        Line number, for messages.

    Returns
    -------
    row : list
        One float (or str, for STRING attributes) per column.
    weight : float or None
        The instance weight, if the row gives one.
    """
    n_columns = len(columns)
    if tokens[0] is _OPEN:  # sparse row
        close = _find(tokens, _CLOSE)
        if close < 0:
            raise ValueError(f"line {lineno}: sparse row has no closing '}}'")
        entries = tokens[1:close]
        rest, weight = _split_weight(tokens[close + 1:], lineno)
        if rest:
            raise ValueError(
                f"line {lineno}: unexpected {_describe(rest[0])} after the "
                "sparse row; only a weight {w} may follow it")
        if len(entries) % 2:
            raise ValueError(f"line {lineno}: a sparse row needs pairs "
                             "'index value', separated by commas")
        row = [column.sparse_default for column in columns]
        previous = -1
        for index_token, value in zip(entries[::2], entries[1::2]):
            try:
                index = int(index_token)
            except (TypeError, ValueError):
                raise ValueError(
                    f"line {lineno}: sparse index {_describe(index_token)} is "
                    "not a whole number") from None
            if not 0 <= index < n_columns:
                raise ValueError(
                    f"line {lineno}: sparse index {index} is out of range; "
                    f"attributes are numbered 0 to {n_columns - 1}")
            if index <= previous:
                raise ValueError(
                    f"line {lineno}: sparse index {index} follows index "
                    f"{previous}; indices must increase")
            previous = index
            row[index] = columns[index].convert(value, lineno)
        return row, weight
    values, weight = _split_weight(tokens, lineno)
    if len(values) != n_columns:
        raise ValueError(f"line {lineno}: expected {n_columns} values, "
                         f"found {len(values)}")
    return [convert(token, lineno)
            for convert, token in zip(converters, values)], weight


def _parse(lines):
    """Parse the lines of an ARFF file.

    Returns
    -------
    relation : str or None
        The ``@relation`` name.
    columns : list of _Column
    rows : list of list
    weights : list of float or None
        One weight per row (None where the row gives none).
    """
    relation, columns, names = None, [], {}
    lineno = 0
    for lineno, line in enumerate(lines, start=1):
        tokens = _tokenize(line, lineno)
        if not tokens:
            continue
        keyword = tokens[0].lower() if isinstance(tokens[0], str) else ""
        if keyword == "@relation":
            if len(tokens) < 2 or isinstance(tokens[1], _Brace):
                raise ValueError(f"line {lineno}: @relation needs a name")
            relation = "?" if tokens[1] is None else tokens[1]
        elif keyword == "@attribute":
            column = _parse_attribute(tokens, lineno)
            if column.name in names:
                raise ValueError(
                    f"line {lineno}: duplicate attribute name "
                    f"{column.name!r} (first declared on line "
                    f"{names[column.name]})")
            names[column.name] = lineno
            columns.append(column)
        elif keyword == "@data":
            if len(tokens) > 1:
                raise ValueError(f"line {lineno}: unexpected "
                                 f"{_describe(tokens[1])} after @data; data "
                                 "rows start on the next line")
            break
        else:
            raise ValueError(
                f"line {lineno}: expected @relation, @attribute or @data, "
                f"found {_describe(tokens[0])}")
    else:
        raise ValueError(f"line {lineno}: the file ended without an @data "
                         "line; put @data after the @attribute declarations")
    if not columns:
        raise ValueError(f"line {lineno}: @data comes before any @attribute "
                         "declaration")
    rows, weights = [], []
    converters = [column.convert for column in columns]
    for lineno, line in enumerate(lines[lineno:], start=lineno + 1):
        tokens = _tokenize(line, lineno)
        if not tokens:
            continue
        row, weight = _parse_row(tokens, columns, converters, lineno)
        rows.append(row)
        weights.append(weight)
    return relation, columns, rows, weights


def _decode(content, filename):
    """Decode file bytes: UTF-8 (BOM allowed), else Latin-1 with a warning."""
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError:
        warnings.warn(f"{filename}: the ARFF file is not valid UTF-8; it was "
                      "read as Latin-1 (ISO-8859-1)")
        return content.decode("latin-1")


# --- writing -----------------------------------------------------------------

_MUST_QUOTE = set(" \t\n\r\f\v,{}%'\"\\")


def _quote(text):
    """Quote a name or value for ARFF if Weka's tokenizer would split it.

    Single quotes are used, or double quotes for text that contains a single
    quote but no double quote; backslash, the quote, new line, carriage
    return and tab are escaped with a backslash.
    """
    if text and text != "?" and not _MUST_QUOTE.intersection(text):
        return text
    quote = '"' if "'" in text and '"' not in text else "'"
    escaped = (text.replace("\\", "\\\\").replace(quote, "\\" + quote)
               .replace("\n", "\\n").replace("\r", "\\r")
               .replace("\t", "\\t"))
    return f"{quote}{escaped}{quote}"


def _format_number(value):
    """Shortest text that reads back as the same float."""
    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def _time_formats(variable):
    """Java pattern and matching strftime format for a TimeVariable."""
    if variable.have_date and not variable.have_time:
        return "yyyy-MM-dd", "%Y-%m-%d"
    if variable.have_time and not variable.have_date:
        return "HH:mm:ss", "%H:%M:%S"
    return DEFAULT_DATE_FORMAT, "%Y-%m-%dT%H:%M:%S"


def _declaration_and_formatter(variable):
    """The ``@attribute`` type text and a value formatter for a variable."""
    if variable.is_time:
        java, strftime = _time_formats(variable)
        return (f"DATE {_quote(java)}",
                lambda value: datetime.fromtimestamp(
                    value, timezone.utc).strftime(strftime))
    if variable.is_discrete:
        values = variable.values
        return ("{" + ", ".join(map(_quote, values)) + "}",
                lambda value: _quote(values[int(value)]))
    if variable.is_continuous:
        return "NUMERIC", _format_number
    if variable.is_string:
        return "STRING", lambda value: _quote(str(value))
    raise ValueError(f"variable {variable.name!r} of type "
                     f"{type(variable).__name__} cannot be written to ARFF")


def _is_missing(value):
    """Orange's missing value: NaN for numbers, None or "" for strings."""
    if value is None:
        return True
    if isinstance(value, str):
        return value == ""
    return isnan(value)


# --- the file format ---------------------------------------------------------

class ArffReader(FileFormat):
    """Reader and writer for Weka's Attribute-Relation File Format (ARFF).

    See the module documentation for the mapping of ARFF types to Orange
    variables, sparse rows and instance weights.

    Parameters
    ----------
    filename : str or os.PathLike
        The file to read (may be compressed: ``.arff.gz`` etc.).
    class_attribute : str, int or None, default "last"
        Which attribute becomes the class: ``"last"`` the last declared
        attribute, as in Weka, unless it is a STRING or DATE attribute, in
        which case there is no class; an attribute name; an index into the
        declared attributes (negative counts from the end, so ``-1`` always
        picks the last attribute, even one named "last"); or None for no
        class.  ``Table("file.arff")`` uses the default.

    Examples
    --------
    >>> from orangecontrib.relief.io.arff import ArffReader
    >>> table = ArffReader("weather.arff").read()             # doctest: +SKIP
    >>> table = ArffReader("weather.arff", "outlook").read()  # doctest: +SKIP
    >>> ArffReader.write_file("copy.arff", table)             # doctest: +SKIP
    """

    EXTENSIONS = (".arff",)
    DESCRIPTION = "Weka ARFF"
    SUPPORT_COMPRESSED = True
    SUPPORT_SPARSE_DATA = False
    PRIORITY = 30

    def __init__(self, filename, class_attribute="last"):
        super().__init__(filename)
        if class_attribute is not None and (
                isinstance(class_attribute, bool)
                or not isinstance(class_attribute, (str, int))):
            raise ValueError(
                "class_attribute must be \"last\", an attribute name, an "
                f"index or None, not {class_attribute!r}")
        self.class_attribute = class_attribute

    def read(self):
        """Read the file into a :class:`~Orange.data.Table`.

        Returns
        -------
        Orange.data.Table
            Nominal, numeric and date attributes as attributes (one of them
            the class, see ``class_attribute``), STRING attributes as metas,
            instance weights in ``W`` and the relation name as ``name``.

        Raises
        ------
        ValueError
            If the file is malformed; the message names the file and the
            line.
        """
        filename = os.fspath(self.filename)
        with self.open(filename, "rb") as file:
            text = _decode(file.read(), filename)
        # (CR LF, LF, or CR alone, as in old Mac files: Weka's tokenizer
        # ends a line at each)
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        try:
            relation, columns, rows, weights = _parse(lines)
        except ValueError as error:
            raise ValueError(f"{filename}: {error}") from None

        class_index = self._class_index(columns)
        variables = [column.variable() for column in columns]
        strings = [i for i, column in enumerate(columns)
                   if column.kind == "string"]
        attributes = [i for i, column in enumerate(columns)
                      if column.kind != "string" and i != class_index]
        class_var = None if class_index is None else variables[class_index]
        domain = Domain([variables[i] for i in attributes], class_var,
                        [variables[i] for i in strings])

        values = np.empty((len(rows), len(columns)), dtype=object)
        for position, row in enumerate(rows):
            values[position] = row
        X = values[:, attributes].astype(float)
        Y = None if class_index is None else \
            values[:, class_index].astype(float)
        metas = values[:, strings]
        W = None
        if any(weight is not None for weight in weights):
            W = np.array([1.0 if weight is None else weight
                          for weight in weights])
        table = Table.from_numpy(domain, X, Y, metas, W)
        table.name = relation if relation is not None else \
            os.path.splitext(os.path.basename(filename))[0]
        self.set_table_metadata(filename, table)
        update_origin(table, filename)
        return table

    def _class_index(self, columns):
        """Position of the class among ``columns``, or None for no class."""
        choice = self.class_attribute
        if choice is None:
            return None
        if choice == "last":
            last = len(columns) - 1
            return last if columns[last].kind in ("numeric", "nominal") \
                else None
        if isinstance(choice, int):
            if not -len(columns) <= choice < len(columns):
                raise ValueError(
                    f"class_attribute index {choice} is out of range for "
                    f"{len(columns)} attributes")
            index = choice % len(columns)
        else:
            names = [column.name for column in columns]
            if choice not in names:
                raise ValueError(
                    f"class_attribute {choice!r} is not an attribute of "
                    f"{self.filename}; choose one of "
                    f"{', '.join(map(repr, names))}, \"last\" or None")
            index = names.index(choice)
        if columns[index].kind == "string":
            raise ValueError(
                f"STRING attribute {columns[index].name!r} cannot be the "
                "class; choose a nominal, numeric or date attribute, or None")
        return index

    @classmethod
    def write_file(cls, filename, data):
        """Write a table as ARFF that Weka and :meth:`read` read back.

        Attributes come first, then meta attributes, then the class
        variable(s), so that Weka (and this reader) take the (last) class as
        the class.  STRING metas read back as metas; other metas read back as
        ordinary attributes, since ARFF has no meta role.  Missing values are
        ``?``; names and values are quoted when needed; dates are written in
        UTC with whole seconds; weights, if the table has any, follow each
        row as ``{w}``.

        Parameters
        ----------
        filename : str or os.PathLike
            Where to write (``.arff.gz`` etc. are compressed).
        data : Orange.data.Table
            The table.
        """
        filename = os.fspath(filename)
        domain = data.domain
        variables = [*domain.attributes, *domain.metas, *domain.class_vars]
        declarations, formatters = zip(*map(_declaration_and_formatter,
                                            variables)) \
            if variables else ((), ())
        columns = [data.get_column(variable) for variable in variables]
        weights = data.W if data.has_weights() else None
        with cls.open(filename, "wt", encoding="utf-8", newline="\n") as file:
            file.write(f"@relation {_quote(data.name or 'orange')}\n\n")
            for variable, declaration in zip(variables, declarations):
                file.write(f"@attribute {_quote(variable.name)} "
                           f"{declaration}\n")
            file.write("\n@data\n")
            for row_index in range(len(data)):
                fields = []
                for formatter, column in zip(formatters, columns):
                    value = column[row_index]
                    fields.append("?" if _is_missing(value)
                                  else formatter(value))
                if weights is not None:
                    weight = _format_number(weights[row_index])
                    fields.append(f"{{{weight}}}")
                file.write(",".join(fields) + "\n")
        cls.write_table_metadata(filename, data)


# FileFormat.readers/writers are lru-cached; if Orange looked at them before
# this module was imported, forget that answer so the ARFF format is seen.
type(FileFormat)._ext_to_attr_if_attr2.cache_clear()
