"""Reading a stream of points: CSV, TSV, whitespace-separated columns or JSON Lines, as
records of text fields with their line numbers, or (``batches``) blocks of plain numeric
lines parsed by numpy in one call. Light to import (the CLI lists the formats);
``points.PointSource`` turns the records into chunks of numbers.
"""
from __future__ import annotations

import functools
import math

from .errors import PointsError, ValuesError, quote

STREAM_FORMATS = ("csv", "tsv", "plain", "jsonl")
_MAX_LINE = 1 << 20   # a longer line is no points row (and /dev/zero must not fill memory)
# The block reader's line limit: a longer line comes back in pieces, which the general path
# joins (so a block's memory stays bounded even by an endless line). _MAX_LINE must be a
# multiple of it, for the joined pieces to stop where readline(_MAX_LINE) stops.
_BLOCK_LINE = 4096
_BLOCK_CHARS = 1 << 23  # a block of rows stops growing at about this many characters
_BLOCK_BATCH = 1024     # lines read per call into C
# Rows read as text are handed on (waits) once about this many cells were read: a chunk of
# 65,536 rows of 100 columns held as str objects (and their output) took a gigabyte, and a
# narrow file's chunk (8 columns or fewer) is no smaller than before.
_CELLS_HELD = 1 << 19
# Text that only the general path reads as it should: quotes (CSV), NUL, a backslash (TSV
# escapes). A carriage return is looked at apart: one that ends a CRLF line numpy reads as
# csv does. (A byte that is no UTF-8, a lone surrogate, numpy refuses.)
_UNUSUAL = {"csv": ('"', "\x00"), "tsv": ("\x00", "\\"), "plain": ("\x00",)}
_NOT_UTF8 = "the points file is not UTF-8 text"
# The first bytes of a file that is no UTF-8 text at all, read as lone surrogates
# (surrogateescape), and what to do about it.
_NOT_TEXT = (
    (("\udcff\udcfe", "\udcfe\udcff"),
     "it starts with a UTF-16 byte order mark (Excel's \"Unicode text\"): convert it to "
     "UTF-8: iconv -f UTF-16 -t UTF-8 FILE | adcli ... --points -"),
    ("\x1f\udc8b", "it is gzip-compressed: decompress it: zcat FILE | adcli ... --points -"),
)
# (Latin-1 reads any byte: a UTF-8 file's line would have been read as UTF-8 already)
_LATIN_1 = ("if the file is Latin-1 or Windows-1252, a spreadsheet's \"CSV\", convert it to "
            "UTF-8: iconv -f latin1 -t utf-8 FILE | adcli ... --points -")
# A row's separators that another format reads (or none does): its name, and what to do
_OTHER_SEPARATORS = (
    ("\t", "tab", "read it with --points-format tsv"),
    (None, "space", "read it with --points-format plain"),
    (";", "semicolon", "no points format reads that (a spreadsheet's export where the "
                       "decimal point is a comma?): save it as CSV with decimal points"),
)
_TSV_ESCAPES = {"\\\\": "\\", "\\t": "\t", "\\n": "\n", "\\r": "\r"}   # as TsvWriter writes them
_DELIMITERS = {"csv": ",", "tsv": "\t", "plain": None}   # None: runs of whitespace
# Only a number with an exponent of three digits or 200 digits or more can be beyond
# float64's range (1e400 is read as inf): text without one needs no second look.
# (one pattern per letter: a literal first character is searched for at C speed)
_FAR_EXPONENTS = (r"e[-+]?0*[1-9]\d\d", r"E[-+]?0*[1-9]\d\d")
# A CSV field whose quote is still open at a line's end must close within this many lines
# (and csv's field size limit), else its row is bad and the lines after it rows again.
_QUOTED_LINES = 1000
# With --columns, the blank and comment lines before the first row kept to read again.
_LEADING_LINES = 1000
_NOT_JSONL = ("--columns is for csv, tsv and plain input: JSON Lines objects name their "
              "own fields")


class StreamReader:
    """The records of a points stream in any of STREAM_FORMATS, with its column names: the
    header row, ``--columns`` for headerless input, or the keys of the first JSON object
    (a later object's other keys are left out, counted in ``unnamed``).
    Blank lines are skipped, and lines starting with ``#`` before the header (or first
    object); any other such line comes marked ``Hashed``: a comment too, counted if it
    reads as a row (PointSource), so that stderr can say so.
    A row that cannot be read (not UTF-8, too long, not a JSON object, a CSV quote left
    open) comes as a ``Bad`` row, for PointSource to skip or raise: the first row too
    (``skip_bad``: before the first JSON object, which names the columns), but not a
    header."""

    def __init__(self, stream, fmt: str | None = None, columns: list[str] | None = None,
                 skip_bad: bool = False):
        # A pipe's rows are handed on as they come (tail -f log | adcli ...), not a block
        # of 65,536 at a time: read with _Pipe, which says when a row would wait.
        self._pipe = _arrives_slowly(stream)
        stream = _Pipe(stream) if self._pipe else _as_read(stream)
        self.stream, self.line = stream, 0
        # cells written beyond float64's range, by what they were read as ("inf", "0"):
        # [count, the first one's words], the first kind met first
        self.beyond: dict[str, list] = {}
        self.unnamed: list = [0, None]  # JSON lines with keys that are no column: count, first
        self._kept = True   # JSON Lines: a key passes through, so its numbers keep their text
        self._back: list[str] = []      # lines read by the block reader, to read again, reversed
        self._failed: PointsError | None = None   # the stream could not be read on
        self._bad: PointsError | None = None      # what is wrong with the line just read
        self._hash = False                          # whether that line starts with '#'
        self._long = False                          # the rest of a too-long line is unread
        self._within = 0    # lines still to come of a CSV field whose quote closes in them
        self._skip = skip_bad
        self._leading: list = []   # JSON Lines: (line, error) of bad rows before the first
        #                            object (skip_bad), a bad row's words, as skipped keeps
        self._handed = 0           # the line count when rows were last handed on (waits)
        self.trailing = False      # every row ends with a separator: its empty field is none
        self._comment = None       # (line, text) of the comment just before the first line
        self.commented_header = None    # that comment, if it names the columns (see there)
        if columns is not None:
            if fmt == "jsonl":
                raise ValuesError(_NOT_JSONL)
            self._headerless(fmt, _names(columns, None))
            self.written = _as_written(columns)
            return
        first = self._first_line()
        if first is None:
            self._empty(fmt)
            return
        if fmt in (None, "jsonl") and self._bad is None:
            _not_json_lines(first, self.line)
        self.format = fmt or _detect(first)
        self._pending: str | None = first
        if self.format == "jsonl":
            self._first_object(first, detected=fmt is None)
            return
        self._pending = None
        if self._bad is not None:
            raise PointsError(f"{self._bad}; it is the header row, which names the columns, "
                              "so it cannot be skipped")
        # A header that reads as no fields at all (a lone '"') has no names either.
        header = next(self._split([first]), (None, []))[1]
        # x,y, / 1,2, (a spreadsheet's export): the empty last field of every row is no column
        self.trailing = len(header) >= 2 and not header[-1].strip() and all(
            map(str.strip, header[:-1]))
        header = header[:-1] if self.trailing else header
        self.columns = _names(header, self.line)
        self.written = _as_written(header)
        self.header_line = self._handed = self.line
        self.commented_header = self._commented_names(len(header))

    def _commented_names(self, count: int) -> tuple[int, str, list[str]] | None:
        """The comment line just before the first line, with its names, where it holds as
        many as the first line has fields: a header written as a comment ('# y x', as
        numpy.savetxt writes one), for the error of a file whose first line is numbers."""
        if self._comment is None:
            return None
        line, text = self._comment
        words = text.strip().removeprefix("#").strip()
        for names in (words.split(_DELIMITERS[self.format]), words.split()):
            names = [n.strip() for n in names]
            if len(names) == count and all(names):
                return line, text.strip(), names
        return None

    def _headerless(self, fmt: str | None, columns: list[str]) -> None:
        """--columns: every line is a row, the first too, so the lines read to find the
        format (from the first row) are given back, to be read as any other: a bad one is a
        bad row, a '#' line a comment said if it reads as a row."""
        self.columns, self._pending, self.format = columns, None, fmt
        if fmt is not None:
            return
        given, chars = [], 0
        for text in self._raw_lines():
            if self._bad is not None and text.lstrip().startswith("#"):
                self._skip_rest()           # a too-long comment, read past: a blank
                self._bad, text = None, "\n"  # line in its place keeps the line count
            if len(given) == _LEADING_LINES or chars > _MAX_LINE:
                # So many blank and comment lines before the first row are not kept to be
                # read again (memory stays bounded): those read so far stay comments.
                del given[:]
                chars = 0
            given.append(text)
            chars += len(text)
            if self._bad is not None or _is_row(text):
                break
        row = next((t for t in reversed(given) if _is_row(t)), None)
        # (not JSON Lines, whose objects name their fields: a first field may start with
        # '{', an id {3F2504E0-...} of adcli's own headerless output)
        self.format = _detect(row, jsonl=False) if row is not None else "csv"
        self.line -= len(given)
        self._back, self._bad, self._long = given[::-1], None, False

    def _first_object(self, text: str | None, detected: bool = False) -> None:
        """JSON Lines: the keys of the first object are the columns. With skip_bad, the
        bad lines before it are bad rows as any other (given first by ``records``);
        without, the first line's error says, if JSON Lines was ``detected`` from its '{',
        and the line does not even start as an object does, how to read it otherwise."""
        while text is not None:
            try:
                if self._bad is not None:
                    raise self._bad
                keys = list(_json_object(text, self.line))
                # (an object that names no column is a bad first row too: {}, {"": 5})
                columns = _names(keys, self.line, "key")
            except PointsError as error:
                if not self._skip:
                    if detected and self._bad is None and not _object_start(text):
                        raise _taken_for_json(error) from None
                    raise
                self._leading.append((self.line, str(error)))
                self._bad = None
                text = self._pending = self._first_line()
                continue
            # (a key is looked up as written: the column of " x" or "x₁" is x, x1)
            self.columns, self._keys, self._named = columns, keys, self.line
            self.written, self._known = _as_written(keys), frozenset(keys)
            return
        self.columns = self.written = AnyNames()

    def _empty(self, fmt: str | None) -> None:
        """Input without a row: zero points for JSON Lines, whose rows name their own
        fields (--columns input is never empty: see _headerless); else no names."""
        if fmt != "jsonl":
            raise PointsError("the points input is empty: CSV, TSV and plain input need a "
                              "header row of names (or --columns); JSON Lines needs neither")
        self.format, self._pending = fmt, None
        self.columns = self.written = AnyNames()

    def matched(self, variables) -> dict[str, int]:
        """The column of each of these variables that the stream has: its index. A column
        is matched by its name as the expression writes it (x₁ is x1), so two columns can
        match one variable (x₁ and x1): an error naming both, as neither is the one."""
        used, found = set(variables), {}
        for k, name in enumerate(self.columns):
            if name not in used:
                continue
            if name in found:
                raise PointsError(self._both(found[name], k, name))
            found[name] = k
        # (a number's text costs a call into Python each: kept only if it may be written)
        self._kept = len(found) < len(self.columns)
        return found

    def _both(self, first: int, second: int, name: str) -> str:
        kind = "keys" if self.format == "jsonl" else "columns"
        line = getattr(self, "header_line", None) or getattr(self, "_named", None)
        where = f"points file line {line}" if line is not None else "--columns"
        first_, second_ = (quote(self.written[k]) for k in (first, second))
        return (f"{where}: {kind} {first + 1} ({first_}) and {second + 1} ({second_}) are "
                f"both the variable {name} as the expression writes it: rename one of them")

    def records(self):
        """(line number, fields) for every row: fields in column order."""
        lines = self._lines()
        if self.format == "jsonl":
            for line, message in self._leading:
                yield line, Bad(PointsError(message))
            self._leading = []
            for text in lines:     # a missing field is None: an error for a variable
                if self._bad is not None:
                    yield self.line, self._take_bad()
                    continue
                try:
                    obj = _json_object(text, self.line, self._kept or _may_be_beyond(text))
                except PointsError as error:
                    yield self.line, Bad(error)
                    continue
                if not obj.keys() <= self._known:
                    self._unnamed(obj)
                yield self.line, [obj.get(k) for k in self._keys]
        else:
            yield from self._split(lines)

    def _unnamed(self, obj: dict) -> None:
        """Count a JSON object with keys that are no column (the first object's keys are
        the columns), keeping the first such key's words."""
        self.unnamed[0] += 1
        if self.unnamed[1] is None:
            key = next(k for k in obj if k not in self._known)
            self.unnamed[1] = (f"points file line {self.line}: the key {quote(key)} is not in "
                               f"the first object (line {self._named}), whose keys are the "
                               "columns, so it was left out")

    def _take_bad(self) -> Bad:
        row = (HashedBad if self._hash else Bad)(self._bad)
        self._bad = None
        return row

    def batches(self, size: int, numeric: bool):
        """The rows, as ``records`` gives them, except that when every column is read as a
        number (``numeric``), a block of up to ``size`` lines of plain numbers comes as one
        float64 array of shape (rows, columns), parsed in one call. Any block holding
        something else (quotes, a bad row, a long line, an expression) is read again by
        ``records``' path, so values, line numbers and messages are the same either way."""
        if self.format == "jsonl" or not numeric:
            yield from self.records()
            return
        while True:
            if self._back or self._pending is not None:
                yield from self._until_read_again()
            lines, pieces = self._block(size)
            if not lines:
                if self._failed is not None:
                    raise self._failed
                return
            data = None if pieces else self._parse(lines)
            if data is None:
                self._back = lines[::-1]
            else:
                self.line += len(lines)
                self._handed = self.line    # (a block is a chunk of its own: see waits)
                if len(data):
                    yield data

    def waits(self) -> bool:
        """Whether the rows read so far are to be handed on now: the next row would wait
        for the stream's writer (a pipe's, a slow one), or they hold about _CELLS_HELD
        cells (a wide file's rows, held as text, take memory by the cell, not the row)."""
        if self.line - self._handed >= self.rows_held():
            self._handed = self.line
            return True
        return self._pipe and not self._back and self._pending is None and \
            not self.stream.ready(whole=False)

    def rows_held(self) -> int:
        """How many rows read as text hold about _CELLS_HELD cells."""
        return max(1, _CELLS_HELD // max(1, len(self.columns)))

    def _until_read_again(self):
        """Records, until the lines given back by the block reader are all read."""
        for record in self._split(self._lines()):
            yield record
            if not self._back and self._pending is None and not self._long:
                return

    def _block(self, size: int) -> tuple[list[str], bool]:
        """Up to ``size`` raw lines, read in C a batch at a time, and whether the last is a
        piece of a long line (the block stops there); it stops early too once it holds
        about _BLOCK_CHARS characters."""
        import functools
        import itertools

        lines: list[str] = []
        if self._failed is not None:
            return lines, False
        read = iter(functools.partial(self.stream.readline, _BLOCK_LINE), "")
        chars = 0
        while len(lines) < size and chars < _BLOCK_CHARS:
            start = len(lines)
            want = min(_BLOCK_BATCH, size - start)
            if self._pipe:  # what came so far, rather than wait for more
                ready = self.stream.ready()
                if lines and not ready:
                    break
                want = min(want, max(ready, 1))
            try:
                # extend keeps the lines read before an error: they are rows, the error next
                lines.extend(itertools.islice(read, want))
            except UnicodeDecodeError:
                self._failed = PointsError(_NOT_UTF8)
            lengths = list(map(len, lines[start:]))
            if max(lengths, default=0) >= _BLOCK_LINE:
                return lines, True
            if len(lengths) < want or self._failed is not None:
                break
            chars += sum(lengths)
        return lines, False

    def _parse(self, lines: list[str]):
        """The rows of these lines as a float64 array, or None if any line needs the
        general path. numpy's reader parses a field with the C function float() uses
        (after the same strip of whitespace); whatever it would read differently (an
        underscore, a Unicode minus, a non-ASCII digit) it refuses, so falls back."""
        import warnings

        import numpy as np

        text, raw = "".join(lines), lines
        if any(c in text for c in _UNUSUAL[self.format]) or \
                "\r" in text and text.count("\r") != text.count("\r\n"):
            return None
        if not all(map(str.strip, lines)) or "#" in text:
            lines = [t for t in lines if _is_row(t)]
            if not lines:
                return np.empty((0, len(self.columns)))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                data = np.loadtxt(lines, dtype=np.float64, delimiter=_DELIMITERS[self.format],
                                  comments=None, quotechar=None, ndmin=2)
        except ValueError:
            return None
        if data.shape != (len(lines), len(self.columns)):
            return None
        suspect = (data == 0) | np.isinf(data)   # only such a cell can be beyond range
        rows = np.flatnonzero(suspect.any(axis=1))
        # (the whole block is looked at: a line wrongly suspected is only looked at again)
        if len(rows) and _may_be_beyond(text, _DELIMITERS[self.format],
                                        max(map(len, lines))):
            numbered = [self.line + k + 1 for k, t in enumerate(raw) if _is_row(t)]
            for r in rows:
                cells = lines[r].split(_DELIMITERS[self.format])
                for c in np.flatnonzero(suspect[r]):
                    self.note(numbered[r], self.columns[c], cells[c], float(data[r, c]))
        return data

    def note(self, line: int, column: str, text: str, value: float,
             why: str | None = None, kind: str | None = None) -> None:
        """Count a cell written beyond float64's range, keeping the first one's words
        (``why``: a constant expression's, which underflowed, or of ``kind`` "not
        finite": exp(800), sqrt(-1))."""
        from .reader import out_of_range

        why = why or out_of_range(text, value)
        if why:
            from .printer import format_number

            kind = self.beyond.setdefault(kind or ("0" if value == 0 else "inf"), [0, None])
            kind[0] += 1
            if kind[1] is None:
                kind[1] = (f"points file line {line}, column {quote(column)}: {why}: "
                           f"read as {format_number(value)}")

    def _split(self, lines):
        if self.format == "csv":
            import csv

            reader = csv.reader(lines)
            while True:
                try:
                    row = next(reader, None)
                except csv.Error as error:  # (a field over 128 KiB): csv reads on after it
                    self._bad = self._bad or PointsError(f"points file line {self.line}: "
                                                         f"{_csv_why(error)}")
                    row = []
                if row is None:
                    return
                if self._bad is not None:
                    yield self.line, self._take_bad()
                elif row and not (len(row) == 1 and not row[0].strip()):
                    row = self._cut(row) if self.trailing else row
                    # (csv reads a row's lines and no further: _hash is its last line's)
                    yield self.line, Hashed(row) if self._hash else row
        else:
            split = str.split if self.format == "plain" else _tab_split
            for text in lines:
                if self._bad is not None:
                    yield self.line, self._take_bad()
                else:
                    row = self._cut(split(text)) if self.trailing else split(text)
                    yield self.line, Hashed(row) if self._hash else row

    def _cut(self, row: list[str]) -> list[str]:
        """A row without the empty field after its last separator, where the header has
        one too (x,y, / 1,2,); a row with a value there keeps it, and is a field too many."""
        if len(row) == len(self.columns) + 1 and not row[-1].strip():
            del row[-1]
        return row

    def _first_line(self) -> str | None:
        """The first line that is neither blank nor a comment (names, or a JSON object),
        with ``_bad`` saying why if it cannot be read (not UTF-8, too long); None at the
        end. A too-long comment is read past, as a comment after it would be."""
        for text in self._raw_lines():
            if self._bad is not None and text.lstrip().startswith("#"):
                self._bad = self._comment = None   # (its rest is read past with the next line)
                continue
            if _first_char(text) == "#":
                self._comment = (self.line, text)
            if self._bad is None and _is_row(text):
                self._bad = _undecodable(text, self.line)
            if self._bad is not None or _is_row(text):
                # A mark after comments is a joined file's (cat notes.txt a.csv), as one at
                # the input's start is: no part of the first name.
                return text.removeprefix("\ufeff")
        return None

    last_line: str | None = None   # the last line _lines handed the parser

    def _lines(self):
        """The lines that may be rows: a line that cannot be one comes as a blank line,
        with ``_bad`` saying why. A '#' line is marked (``_hash``); in JSON Lines, or in
        CSV if a quote is left open at its end (csv would join the next lines to it), it is
        always a comment."""
        if self._pending is not None:
            pending, self._pending = self._pending, None  # (read: waits() asks the stream)
            self._hash = False
            yield pending
        jsonl, quoting = self.format == "jsonl", self.format == "csv"
        for text in self._raw_lines():
            start = _first_char(text)
            # (a quoted field's next line starts no row, so marks none: "a / #b",2)
            self._hash = start == "#" and not self._within
            if self._bad is None:       # (a too-long line is a bad row, whatever it holds)
                if not start or start == "#" and (jsonl or quoting and _left_open(text)):
                    continue
                if not text.isascii():
                    # A byte order mark starting a row is a joined file's (cat a.csv
                    # b.csv), no part of its first field; a quoted field's next line keeps
                    # what it holds.
                    if not self._within:
                        text = text.removeprefix("\ufeff")
                    self._bad = _undecodable(text, self.line)
                if self._within:        # a line of a quoted field, which closes in them
                    self._within -= 1
                elif quoting and '"' in text and self._bad is None:
                    self._bad = self._unclosed(text)
            self.last_line = text     # (how a row ends: 1,2, and 1,2,"" parse alike)
            yield "\n" if self._bad is not None else text

    def _unclosed(self, text: str) -> PointsError | None:
        """The error of a CSV line whose quote is still open at its end, unless a look at
        the next lines finds the field's end: a quote followed by a comma or the line's
        end, within _QUOTED_LINES lines and csv's field size limit, before any line that
        cannot be read. Those lines are given back, to be read again: as the rest of the
        row, or (the quote unclosed, its line a bad row) as rows of their own, so that one
        stray quote costs one row, not the rest of the file."""
        import csv

        at = _open_quote(text)
        if at < 0:
            return None
        ahead: list[str] = []
        chars, limit, continued, why = len(text) - at, csv.field_size_limit(), 0, None
        try:
            while why is None:
                if len(ahead) == _QUOTED_LINES or chars > limit:
                    why = (f" within {_QUOTED_LINES:,} lines" if chars <= limit else
                           f" within {limit:,} characters")
                    break
                piece = self._given_back() if self._back else self._readline(_MAX_LINE)
                ahead.append(piece)
                chars += len(piece)
                where = self.line + len(ahead)
                if not piece:
                    why = " by the end of the points file"
                elif len(piece) >= _MAX_LINE and not piece.endswith("\n") or \
                        not piece.isascii() and _undecodable(piece, where):
                    why = f" before line {where}, which cannot be read"
                elif (start := _first_char(piece)) and not (start == "#" and _left_open(piece)):
                    continued += 1      # (a line _lines passes over, csv never sees)
                    end = _open_quote(piece, quoted=True)
                    if end == -1:
                        self._within = continued
                        break
                    if end == -2:
                        why = (f": the quote ending it on line {where} is followed by "
                               "neither a comma nor the line's end")
        except PointsError:     # the stream cannot be read on: said at the next line
            why = f" before line {self.line + len(ahead) + 1}, which cannot be read"
        self._back.extend(reversed([t for t in ahead if t]))
        return None if why is None else PointsError(
            f"points file line {self.line}: the quote opened at column {at + 1} is not "
            f"closed{why}")

    def _raw_lines(self):
        while True:
            if self._long:
                self._skip_rest()
            text = self._given_back() if self._back else self._readline(_MAX_LINE)
            if not text:
                return
            self.line += 1
            if len(text) >= _MAX_LINE and not text.endswith("\n"):
                # Its rest is read (and dropped) only if the reading goes on: a run that
                # stops here must not read /dev/zero for ever.
                self._long = True
                self._bad = PointsError(f"points file line {self.line}: longer than "
                                        f"{_MAX_LINE:,} characters")
            yield text

    def _skip_rest(self) -> None:
        """Read past the rest of a too-long line, a bounded piece at a time."""
        self._long = False
        while True:
            piece = self._back.pop() if self._back else self._readline(_MAX_LINE)
            if not piece or piece.endswith("\n"):
                return

    def _given_back(self) -> str:
        """The next line the block reader gave back: a long line came in pieces of
        _BLOCK_LINE characters, joined here as readline(_MAX_LINE) would have read it."""
        text = piece = self._back.pop()
        while len(piece) == _BLOCK_LINE and not piece.endswith("\n") and len(text) < _MAX_LINE:
            if not self._back:
                return text + self._readline(_MAX_LINE - len(text))
            piece = self._back.pop()
            text += piece
        return text

    def _readline(self, limit: int) -> str:
        if self._failed is not None:
            raise self._failed
        try:
            return self.stream.readline(limit)
        except UnicodeDecodeError:
            # Decoding runs ahead of the rows (by blocks), so no exact line is known.
            self._failed = PointsError(_NOT_UTF8)
            raise self._failed from None


def _arrives_slowly(stream) -> bool:
    """Whether the stream is no regular file (a pipe, a terminal, a socket), whose writer
    may be slow: tail -f log | adcli ... --points -."""
    import os
    import stat

    try:
        return not stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (AttributeError, OSError, ValueError):   # a StringIO: all there already
        return False


class _Pipe:
    """A pipe's text as it comes: ``readline`` as a text file's opened by _as_read (lines
    end at \\n, \\r\\n or \\r, kept as they are; a byte that is no UTF-8 a lone surrogate;
    a long line in pieces of ``limit``), and ``ready``, what can be read without waiting.
    Its bytes are read as they arrive (os.read gives what the pipe has) and decoded
    incrementally; a TextIOWrapper would wait to fill its buffer first."""

    _CHUNK = 1 << 16

    def __init__(self, stream):
        import codecs

        self.fd, self.name = stream.fileno(), getattr(stream, "name", None)
        self.encoding = getattr(stream, "encoding", None) or "utf-8"
        self._decode = codecs.getincrementaldecoder(self.encoding)("surrogateescape").decode
        self.text, self.pos, self.eof = "", 0, False
        self._cr = False        # whether the text holds a \r (else a line ends at \n only)

    def readline(self, limit: int = -1) -> str:
        while True:
            end = self._end()
            have = (end if end >= 0 else len(self.text)) - self.pos
            if end >= 0 or self.eof or 0 <= limit <= have:
                break
            self._fill(wait=True)
        stop = self.pos + (have if limit < 0 else min(have, limit))
        line, self.pos = self.text[self.pos:stop], stop
        return line

    def _end(self) -> int:
        """Where the next line ends, or -1 if it may not have come whole."""
        end = self.text.find("\n", self.pos)
        if not self._cr:
            return end + 1 if end >= 0 else -1
        cr = self.text.find("\r", self.pos, None if end < 0 else end)
        if cr < 0:
            return end + 1 if end >= 0 else -1
        if cr + 1 < len(self.text):
            return cr + 1 + (self.text[cr + 1] == "\n")
        return cr + 1 if self.eof else -1   # half of a \r\n, maybe

    def ready(self, whole: bool = True) -> int:
        """How many lines readline gives without waiting (at the end, at least one: the
        last, or ""); with ``whole`` False, only whether one is (a quicker look)."""
        while True:
            ready = self._count() if whole else int(self._end() >= 0)
            if ready or self.eof or not self._fill(wait=False):
                return ready or int(self.eof)

    def _count(self) -> int:
        count = self.text.count("\n", self.pos)
        if self._cr:        # a lone \r ends a line too
            count += self.text.count("\r", self.pos) - self.text.count("\r\n", self.pos)
        return count

    def _fill(self, wait: bool) -> bool:
        """Read what the pipe has (if ``wait``, waiting for something): whether any
        text or the end came."""
        import os
        import select

        if self.eof or not wait and not select.select([self.fd], [], [], 0)[0]:
            return False
        data = os.read(self.fd, self._CHUNK)
        text = self._decode(data, final=not data)
        self.eof = not data
        self.text, self.pos = self.text[self.pos:] + text, 0
        self._cr = self._cr or "\r" in text
        return True


def _as_read(stream):
    """A text file read as the pipe is (_Pipe): line ends kept as they are (csv keeps a
    quoted field's \\r\\n; a file read with universal newlines made it \\n) and a byte
    that is no UTF-8 read as a lone surrogate, so that only its row is bad (a strict
    decoder fails a whole block of 8 KiB ahead of the rows, with no line to name)."""
    try:
        stream.reconfigure(newline="", errors="surrogateescape")
    except (AttributeError, OSError, ValueError):   # a StringIO, or already read from
        pass
    return stream


class Bad(list):
    """A row that could not be read, with ``error``: empty, so never of the header's
    length, which is all a good row pays for the check."""

    def __init__(self, error: PointsError):
        super().__init__()
        self.error = error


class Hashed(list):
    """The fields of a line after the header that starts with '#': a comment, said on
    stderr if it reads as a row (PointSource)."""


class HashedBad(Bad, Hashed):
    pass


class AnyNames(list):
    """The names of an empty JSON Lines input: none, yet none missing (zero points need
    no values)."""

    def __contains__(self, name) -> bool:
        return True


def _undecodable(text: str, line: int) -> PointsError | None:
    """The error of a line holding bytes that are no UTF-8 (read as lone surrogates). A
    file that starts as UTF-16 or gzip does is raised: none of its rows can be read."""
    import re

    found = re.search("[\udc80-\udcff]", text)
    if found is None:
        return None
    if line == 1:
        for start, what in _NOT_TEXT:
            if text.startswith(start):
                raise PointsError(f"points file line 1: not UTF-8 text: {what}")
    return PointsError(f"points file line {line}: not UTF-8 text (column {found.start() + 1}; "
                       f"{_LATIN_1})")


def _csv_why(error) -> str:
    """csv's complaint, in the words of a too-long line's: its field size limit."""
    import csv
    import re

    if re.fullmatch(r"field larger than field limit \(\d+\)", str(error)):
        return f"a field longer than {csv.field_size_limit():,} characters"
    return str(error)


def _as_written(names: list[str]) -> list[str]:
    """Column names as the output writes them: as read, but for the spaces around them."""
    return [n.strip() for n in names]


def _open_quote(text: str, quoted: bool = False) -> int:
    """Where the quote still open at the end of a CSV line opened (its index, 0 if the line
    starts ``quoted`` and stays so), or -1 if none is; -2 if the quote open at its start is
    ended by one followed by neither a comma nor the line's end ('"a"b': csv reads on, but
    such a quote was more likely a stray one than the end of a field of several lines).
    A quote opens a field only as its first character, as csv reads one, and within the
    field a quote written twice is one quote, a single one its end."""
    pos, strict = 0, quoted
    while True:
        if not quoted:
            if text.startswith('"', pos):
                opened = pos
            else:
                opened = text.find(',"', pos)
                if opened < 0:
                    return -1
                opened += 1
            pos, quoted = opened + 1, True
        end = text.find('"', pos)
        while end >= 0 and text.startswith('"', end + 1):   # written twice: one quote
            end = text.find('"', end + 2)
        if end < 0:
            return 0 if strict else opened
        end += 1
        after = text[end:end + 1]
        if after in ("", "\r", "\n"):
            return -1
        if after != ",":
            if strict:
                return -2
            end = text.find(",", end)
            if end < 0:
                return -1
        pos, quoted, strict = end + 1, False, False


def _left_open(text: str) -> bool:
    """Whether a CSV line starting with '#' is a comment whatever it holds: a quote left
    open at its end would have csv read the next lines into it. One whose quotes close
    (#1,"a, b",2: an id, as csv.writer writes it) may read as a row, said so as any other."""
    return '"' in text and _open_quote(text) >= 0


def _is_row(text: str) -> bool:
    """Blank lines and lines starting with # are no rows."""
    return _first_char(text) not in ("", "#")


def _first_char(text: str) -> str:
    """A line's first character but spaces, after a byte order mark too (a file joined
    with cat that starts with a comment, or is empty); "" for a blank line."""
    return text.lstrip().removeprefix("\ufeff").lstrip()[:1]


def _detect(first: str, jsonl: bool = True) -> str:
    """The format, from the first line: a line with one field is read as CSV, and a tab
    makes it TSV only outside a quoted CSV field ('"a\\tb",x': adcli's CSV quotes a field
    holding a tab); a '{' first makes it JSON Lines, if ``jsonl`` may be."""
    if jsonl and first.lstrip().startswith("{"):
        return "jsonl"
    if "\t" in first and "\t" in _unquoted(first):
        return "tsv"
    return "plain" if "," not in first and len(first.split()) > 1 else "csv"


def _taken_for_json(error: PointsError) -> PointsError:
    """A first line's JSON error, where JSON Lines was detected from its '{': {a},x or
    an id {3F2504E0-...} first in a CSV header."""
    return PointsError(f"{error}; its first line starts with '{{', so the input was read as "
                       "JSON Lines: if it is CSV, TSV or plain, say so with --points-format")


def _not_json_lines(first: str, line: int) -> None:
    """Raise for a first line that starts a JSON document other than JSON Lines: an array
    of objects ('[{...}, ...]', or '[' alone, pretty-printed) or one object spread over
    several lines ('{' alone), which would read as a CSV header or a broken object."""
    text = first.removeprefix("\ufeff").strip()
    if text == "[" or (text.startswith("[") and _object_start(text[1:])):
        what, how = "a JSON array", "convert it: jq -c '.[]' FILE"
    elif text == "{":
        what, how = "an object spread over several lines", "write one per line: jq -c . FILE"
    else:
        return
    raise PointsError(f"points file line {line}: {what}, not JSON Lines (one object per "
                      f"line): {how} | adcli ... --points -")


def _object_start(text: str) -> bool:
    """Whether a line starts as a JSON object does, '{' then a key's quote or '}' (a broken
    JSON line), not as '{a},x' or an id {3F2504E0-...} (CSV, TSV or plain)."""
    import re

    return re.match(r'\s*\{\s*["}]', text) is not None


def _unquoted(line: str) -> str:
    """A line without its quoted CSV fields that close on it: a quote opens one only as a
    field's first character (as csv reads it), and a quote written twice is one quote."""
    import re

    return re.sub(r'(?:\A|(?<=,))"(?:[^"]|"")*"', "", line)


def _tab_split(text: str) -> list[str]:
    """A TSV line's fields, with TsvWriter's escapes (\\\\, \\t, \\n, \\r, and \\# or \\{
    where the line would otherwise start with '#', a comment, or '{', taken for JSON
    Lines) undone, so that adcli's TSV output reads back as written; any other backslash
    is kept."""
    text = text.rstrip("\r\n")
    if "\\" not in text:
        return text.split("\t")
    import re

    text = re.sub(r"\A(\s*)\\([#{])", r"\1\2", text)
    return [re.sub(r"\\[\\tnr]", lambda m: _TSV_ESCAPES[m.group()], f)
            for f in text.split("\t")]


def _may_be_beyond(text: str, delimiter: str | None = None, longest: int | None = None) \
        -> bool:
    """Whether the text may hold a number beyond float64's range: one with an exponent of
    three digits, or a field of 200 characters (split and measured in C: a regular
    expression for a run of digits costs ~50 ns a character); ``longest``: its longest
    line, if known."""
    import re

    return any(re.search(far, text) for far in _FAR_EXPONENTS) or \
        (len(text) if longest is None else longest) >= 200 and \
        max(map(len, text.split(delimiter))) >= 200


def _json_object(text: str, line: int, written: bool = False) -> dict:
    """The object on a JSON Lines line; ``written``: its numbers keep their text, to pass
    through as written (1701763200.123456789, 1E2, 1e-400) and for a note if one was
    beyond float64's range."""
    import json

    # A byte order mark, of a file joined with cat: no part of the object, as one that
    # starts the input is none. (JSON allows only whitespace before a value, so a line
    # that starts with the mark cannot mean it otherwise.)
    text = text.removeprefix("\ufeff")
    signed = "-0" in text   # (json's own number parsers, in C, unless a hook is needed)
    try:
        try:
            obj = _decoder(written, signed).decode(text) if written or signed else \
                json.loads(text)
        except ValueError as error:
            if "integer string conversion" not in str(error):
                raise
            # An integer of over 4,300 digits, which Python's int refuses to read: a float
            # (inf, said as beyond the range) as the same number with a '.5' is, and as
            # CSV and --at read it.
            obj = _decoder(True, True).decode(text)
    except ValueError as error:
        raise PointsError(f"points file line {line}: not JSON: {_json_why(error, text)}") \
            from None
    except RecursionError:      # json's parser recurses, in C, a level a bracket
        raise _too_deep(text, line) from None
    if not isinstance(obj, dict):
        raise PointsError(f"points file line {line}: not a JSON object")
    # json keeps a repeated key's last value in silence. Each key has its ':', so a line
    # with no more of them than keys repeats none; others are counted (_colons).
    colons = text.count(":")
    if colons > len(obj) and colons != _colons(obj):
        _repeated_key(text, line)
    return obj


def _too_deep(text: str, line: int) -> PointsError:
    """The error of a JSON line nested deeper than json reads (its RecursionError), with
    how deep: its brackets outside strings, counted."""
    import itertools
    import re

    brackets = re.sub(r'"(?:[^"\\]|\\.)*"|[^][{}]', "", text)
    depth = max(itertools.accumulate((1 if c in "[{" else -1 for c in brackets), initial=0))
    return PointsError(f"points file line {line}: JSON nested {depth:,} levels deep (arrays "
                       "or objects one within another), deeper than can be read")


def _colons(value: dict | list) -> int:
    """How many colons the JSON text of an object or array read by json holds if no
    object in it has a key twice: one after each key, and those within strings. A key
    read twice (json keeps the last) leaves out its colon at least. (Less than parsing
    again with a hook, which costs as much as json.loads and more; a loop, not recursion,
    as deep as json reads.)"""
    count, todo = 0, [value]
    while todo:
        value = todo.pop()
        if type(value) is dict:
            count, items = count + len(value) + "".join(value).count(":"), value.values()
        else:
            items = value
        for item in items:
            kind = type(item)
            if kind is str:
                count += item.count(":")
            elif kind is dict or kind is list:
                todo.append(item)
    return count


@functools.cache
def _decoder(written: bool, signed: bool):
    """A JSON decoder whose numbers keep their text (``written``; jsontext writes it
    back) and whose integer -0 is -0.0 as a number (``signed``): made once, as json.loads
    makes one each call it is given a hook."""
    import json

    from .jsontext import Number

    return json.JSONDecoder(parse_float=Number if written else None,
                            parse_int=_signed_int if signed else None)


def _signed_int(text: str) -> int | float:
    """A JSON integer; -0 as -0.0, as CSV and --at read it (1/x there is -inf, sqrt's
    derivative -inf), written back as -0 (Python's int has no -0); one too long for int
    (sys.get_int_max_str_digits) as a float too."""
    from .jsontext import Number

    return Number(text) if text == "-0" or len(text) > 4000 else int(text)


class _Repeated(Exception):
    """A key met twice in an object, raised out of json's parse (args: the key)."""


def _repeated_key(text: str, line: int) -> None:
    """The error of a JSON line whose object (or one within it) has a key twice, if one
    has (_colons counts a colon written \\u003a in a string, the text not)."""
    import json

    def pairs(items: list) -> None:
        keys = [key for key, _ in items]
        if len(set(keys)) != len(keys):
            raise _Repeated(next(k for i, k in enumerate(keys) if k in keys[:i]))

    try:
        json.loads(text, object_pairs_hook=pairs)
    except _Repeated as repeated:
        raise PointsError(f"points file line {line}: the key {quote(repeated.args[0])} is "
                          "repeated") from None
    except RecursionError:      # (read once already, a few frames less deep)
        raise _too_deep(text, line) from None


def _json_why(error: ValueError, text: str) -> str:
    """json's complaint, at a column of the line (its own line 2, column 1 is the end)."""
    pos = getattr(error, "pos", None)
    if pos is None:
        return str(error)
    # (some of json's messages end in "at": 'Invalid control character at')
    message = error.msg.removesuffix(" at")
    if pos >= len(text.rstrip("\r\n")):
        return f"the line ends early ({message})"
    return f"{message} at column {pos + 1}"


def _names(names: list[str], line: int | None, kind: str = "column") -> list[str]:
    """The column names of a header, --columns or (``kind`` "key") a first JSON object's
    keys, as the expression writes them."""
    where = f"points file line {line}" if line is not None else "--columns"
    names = _as_written(names)
    if not names or any(not n for n in names):
        raise PointsError(f"{where}: {_nameless(names, kind)}")
    # Only a name written twice is repeated: x² and x2 are two columns, which the output
    # tells apart (no variable can be both: see StreamReader.matched).
    if len(set(names)) != len(names):
        twice = next(n for i, n in enumerate(names) if n in names[:i])
        raise PointsError(f"{where}: the column name {quote(twice)} is repeated")
    if not all(map(str.isascii, names)):   # x₁ is x1, as in the expression
        from .expression import normal_name

        names = [normal_name(n) for n in names]
    if any("\\" in n or "{" in n for n in names):     # x_{1} is x_1, as --at reads it
        names = [_latex_name(n) for n in names]
    return names


def names_again(fields: list, columns: list[str]) -> bool:
    """Whether a row's fields are the column names, read as the header's are: the header
    again (files joined with cat)."""
    if len(fields) != len(columns) or not all(isinstance(f, str) for f in fields):
        return False
    try:
        return _names(fields, None) == columns
    except PointsError:
        return False


def _latex_name(name: str) -> str:
    """A column named as LaTeX writes a variable (x_{1}, \\alpha) by the name --at gives it;
    any other (an id {3F25...}, a note) as written: it passes through under that name."""
    from .parser import is_name, normal_name

    return normal_name(name) if is_name(name) else name


def _nameless(names: list[str], kind: str = "column") -> str:
    """Which column of a header has no name, a first one alone being pandas' index; of a
    first JSON object (``kind`` "key"), that an empty key, or no key at all, names none."""
    if kind == "key":
        return "an empty object names no column" if not names else \
            "an empty key names no column"
    if len(names) < 2:
        return "a column has no name"
    k = names.index("")
    if k == 0 and all(names[1:]):
        return ("the first column has no name (an index, as pandas' to_csv writes one? "
                "write the file with index=False, or name the column)")
    return f"column {k + 1} has no name"


def split_otherwise(fields: list, count: int) -> str | None:
    """Why a row read as one field may be ``count`` fields: its text is separated by tabs,
    spaces or semicolons (1 2 under --points-format csv); in words, with what to do, or
    None. (One field of tsv or plain input holds no tab, nor plain's a space.)"""
    if len(fields) != 1 or not isinstance(fields[0], str) or count < 2:
        return None
    text = fields[0].strip()
    for separator, name, to_use in _OTHER_SEPARATORS:
        pieces = text.split(separator)
        # (names alone, 'a b' under --columns, are rather a header row: said so)
        if len(pieces) == count and any(is_number(p.replace(",", ".")) for p in pieces):
            return f"the row looks {name}-separated: {to_use}"
    return None


def is_number(text: str) -> bool:
    """Whether a cell's text is a number as ``number`` reads one first (not pi/4)."""
    try:
        float(text.replace("\u2212", "-"))
    except ValueError:
        return False
    return True


def number(cell, line: int, column: str, note=None) -> float:
    """A cell of a variable's column: a number, or what --at accepts (``pi/4``). ``note``:
    StreamReader.note, told of a cell read as 0 or inf (it may be written beyond range)."""
    if isinstance(cell, str):
        try:
            value = float(cell.strip().replace("\u2212", "-"))
        except ValueError:
            pass
        else:
            if "_" not in cell:     # 1_0, float()'s grouped digits: refused below
                if note is not None and (value == 0 or value - value != 0):
                    note(line, column, cell, value)
                return value
    elif isinstance(cell, (int, float)) and not isinstance(cell, bool):
        try:
            value, text = float(cell), getattr(cell, "text", None)
        except OverflowError:       # a JSON integer of over 308 digits
            value, text = (math.inf if cell > 0 else -math.inf), str(cell)
        if note is not None and text is not None and (value == 0 or value - value != 0):
            note(line, column, text, value)
        return value
    where = f"points file line {line}, column {quote(column)}"
    if cell is None:
        raise PointsError(f"{where}: no value (null or missing)")
    if not isinstance(cell, str):
        import json

        raise PointsError(f"{where}: {quote(json.dumps(cell))} is not a number")
    text = cell.strip()
    if not text:
        raise PointsError(f"{where}: an empty cell (a missing value)")
    from .points import cell_value    # the parser: only for cells that need it

    return cell_value(text, line, column, note)
