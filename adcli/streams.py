"""Reading a stream of points: CSV, TSV, whitespace-separated columns or JSON Lines, as
records of text fields with their line numbers, or (``batches``) blocks of plain numeric
lines parsed by numpy in one call. Light to import (the CLI lists the formats);
``points.PointSource`` turns the records into chunks of numbers.
"""
from __future__ import annotations

import math

from .errors import ExpressionError, PointsError, ValuesError, quote

STREAM_FORMATS = ("csv", "tsv", "plain", "jsonl")
_MAX_LINE = 1 << 20   # a longer line is no points row (and /dev/zero must not fill memory)
# The block reader's line limit: a longer line comes back in pieces, which the general path
# joins (so a block's memory stays bounded even by an endless line). _MAX_LINE must be a
# multiple of it, for the joined pieces to stop where readline(_MAX_LINE) stops.
_BLOCK_LINE = 4096
_BLOCK_CHARS = 1 << 23  # a block of rows stops growing at about this many characters
_BLOCK_BATCH = 1024     # lines read per call into C
# Text that only the general path reads as it should: quotes (CSV), carriage returns (csv
# ends a line there; a translated file has none), NUL.
_UNUSUAL = {"csv": ('"', "\r", "\x00"), "tsv": ("\r", "\x00"), "plain": ("\r", "\x00")}
_NOT_UTF8 = "the points file is not UTF-8 text"
_DELIMITERS = {"csv": ",", "tsv": "\t", "plain": None}   # None: runs of whitespace
# Only a number with an exponent of three digits or 200 digits or more can be beyond
# float64's range (1e400 is read as inf): text without one needs no second look.
# (one pattern per letter: a literal first character is searched for at C speed)
_FAR_EXPONENTS = (r"e[-+]?0*[1-9]\d\d", r"E[-+]?0*[1-9]\d\d")


class StreamReader:
    """The records of a points stream in any of STREAM_FORMATS, with its column names: the
    header row, ``--columns`` for headerless input, or the keys of the first JSON object.
    Blank lines and lines starting with ``#`` are skipped."""

    def __init__(self, stream, fmt: str | None = None, columns: list[str] | None = None):
        # A pipe's rows are handed on as they come (tail -f log | adcli ...), not a block
        # of 65,536 at a time: read with _Pipe, which says when a row would wait.
        self._pipe = _arrives_slowly(stream)
        stream = _Pipe(stream) if self._pipe else stream
        self.stream, self.line = stream, 0
        self.beyond: list = [0, None]   # cells written beyond float64's range: count, first
        self._back: list[str] = []      # lines read by the block reader, to read again, reversed
        self._failed: PointsError | None = None   # the stream could not be read on
        first = self._first_line()
        if first is None:
            raise PointsError("the points file is empty: it needs a header row of names"
                              if columns is None else "the points input is empty")
        self.format = fmt or _detect(first)
        self._pending: str | None = first
        if self.format == "jsonl":
            if columns is not None:
                raise ValuesError("--columns is for csv, tsv and plain input: JSON Lines "
                                  "objects name their own fields")
            self.columns = _names(list(_json_object(first, self.line)), self.line)
        elif columns is not None:
            self.columns = _names(columns, None)
        else:
            self._pending = None
            # A header that reads as no fields at all (a lone '"') has no names either.
            self.columns = _names(next(self._split([first]), (None, []))[1], self.line)

    def records(self):
        """(line number, fields) for every row: fields in column order."""
        lines = self._lines()
        if self.format == "jsonl":
            for text in lines:     # a missing field is None: an error for a variable
                obj = _json_object(text, self.line, _may_be_beyond(text))
                yield self.line, [obj.get(c) for c in self.columns]
        else:
            yield from self._split(lines)

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
                if len(data):
                    yield data

    def waits(self) -> bool:
        """Whether the next row would wait for the stream's writer (a pipe's, a slow one):
        the rows read so far are then handed on."""
        return self._pipe and not self._back and self._pending is None and \
            not self.stream.ready(whole=False)

    def _until_read_again(self):
        """Records, until the lines given back by the block reader are all read."""
        for record in self._split(self._lines()):
            yield record
            if not self._back and self._pending is None:
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
        if any(c in text for c in _UNUSUAL[self.format]):
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

    def note(self, line: int, column: str, text: str, value: float) -> None:
        """Count a cell written beyond float64's range, keeping the first one's words."""
        from .reader import out_of_range

        why = out_of_range(text, value)
        if why:
            from .printer import format_number

            self.beyond[0] += 1
            if self.beyond[1] is None:
                self.beyond[1] = (f"points file line {line}, column {quote(column)}: {why}: "
                                  f"read as {format_number(value)}")

    def _split(self, lines):
        if self.format == "csv":
            import csv

            reader = csv.reader(lines)
            while True:
                try:
                    row = next(reader, None)
                except csv.Error as error:
                    raise PointsError(f"points file line {self.line}: {error}") from None
                if row is None:
                    return
                if row and not (len(row) == 1 and not row[0].strip()):
                    yield self.line, row
        else:
            split = str.split if self.format == "plain" else _tab_split
            for text in lines:
                yield self.line, split(text)

    def _first_line(self) -> str | None:
        for text in self._raw_lines():
            if _is_row(text):
                return text
        return None

    def _lines(self):
        if self._pending is not None:
            pending, self._pending = self._pending, None  # (read: waits() asks the stream)
            yield pending
        for text in self._raw_lines():
            if _is_row(text):
                yield text

    def _raw_lines(self):
        while True:
            text = self._given_back() if self._back else self._readline(_MAX_LINE)
            if not text:
                return
            self.line += 1
            if len(text) >= _MAX_LINE and not text.endswith("\n"):
                raise PointsError(f"points file line {self.line}: longer than "
                                  f"{_MAX_LINE:,} characters")
            yield text

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
    """A pipe's text as it comes: ``readline`` as a text file's (universal newlines, its
    encoding, a long line in pieces of ``limit``), and ``ready``, what can be read without
    waiting. Its bytes are read as they arrive (os.read gives what the pipe has) and
    decoded incrementally; a TextIOWrapper would wait to fill its buffer first."""

    _CHUNK = 1 << 16

    def __init__(self, stream):
        import codecs

        self.fd, self.name = stream.fileno(), getattr(stream, "name", None)
        self.encoding = getattr(stream, "encoding", None) or "utf-8"
        self._decode = codecs.getincrementaldecoder(self.encoding)().decode
        self.text, self.pos, self.eof, self._cr = "", 0, False, False
        self._error: UnicodeDecodeError | None = None   # raised once the text before it is read

    def readline(self, limit: int = -1) -> str:
        while True:
            end = self.text.find("\n", self.pos)
            have = (end + 1 if end >= 0 else len(self.text)) - self.pos
            if end >= 0 or self.eof or self._error is not None or 0 <= limit <= have:
                break
            self._fill(wait=True)
        if not have and self._error is not None:
            raise self._error
        stop = self.pos + (have if limit < 0 else min(have, limit))
        line, self.pos = self.text[self.pos:stop], stop
        return line

    def ready(self, whole: bool = True) -> int:
        """How many lines readline gives without waiting (at the end, at least one: the
        last, or ""); with ``whole`` False, only whether one is (a quicker look)."""
        while True:
            ready = self.text.count("\n", self.pos) if whole else \
                int(self.text.find("\n", self.pos) >= 0)
            if ready or self.eof or not self._fill(wait=False):
                return ready or int(self.eof or self._error is not None)  # (a read raises)

    def _fill(self, wait: bool) -> bool:
        """Read what the pipe has (if ``wait``, waiting for something): whether any
        text or the end came."""
        import os
        import select

        if self.eof or self._error is not None or \
                not wait and not select.select([self.fd], [], [], 0)[0]:
            return False
        data = os.read(self.fd, self._CHUNK)
        try:
            text = self._decode(data, final=not data)
        except UnicodeDecodeError as error:     # the whole lines before it are still rows
            self._error = error
            text = error.object[:error.start].decode(self.encoding)
            text = text[:text.rfind("\n") + 1]
        text = ("\r" if self._cr else "") + text
        self.eof = not data
        # Universal newlines, as the text files of the CLI read them: \r\n and \r are
        # \n; a \r last may be half of a \r\n, kept for the next read.
        self._cr = text.endswith("\r") and not self.eof
        if self._cr:
            text = text[:-1]
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        self.text, self.pos = self.text[self.pos:] + text, 0
        return True


def _is_row(text: str) -> bool:
    """Blank lines and lines starting with # are no rows."""
    return bool(text.strip()) and not text.lstrip().startswith("#")


def _detect(first: str) -> str:
    """The format, from the first line: a line with one field is read as CSV."""
    if first.lstrip().startswith("{"):
        return "jsonl"
    if "\t" in first:
        return "tsv"
    return "plain" if "," not in first and len(first.split()) > 1 else "csv"


def _tab_split(text: str) -> list[str]:
    return text.rstrip("\r\n").split("\t")


class _Written(float):
    """A JSON number with its text, for a note if it was beyond float64's range."""

    def __new__(cls, text):
        number = super().__new__(cls, text)
        number.text = text
        return number


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
    """The object on a JSON Lines line; ``written``: its numbers keep their text."""
    import json

    try:
        obj = json.loads(text, parse_float=_Written) if written \
            else json.loads(text)
    except ValueError as error:
        raise PointsError(f"points file line {line}: not JSON ({error})") from None
    if not isinstance(obj, dict):
        raise PointsError(f"points file line {line}: not a JSON object")
    return obj


def _names(names: list[str], line: int | None) -> list[str]:
    where = f"points file line {line}" if line is not None else "--columns"
    names = [n.strip() for n in names]
    if not all(map(str.isascii, names)):   # x₁ is x1, as in the expression
        from .expression import normal_name

        names = [normal_name(n) for n in names]
    if not names or any(not n for n in names):
        raise PointsError(f"{where}: a column has no name")
    if len(set(names)) != len(names):
        twice = next(n for i, n in enumerate(names) if n in names[:i])
        raise PointsError(f"{where}: the column name {quote(twice)} is repeated")
    return names


def number(cell, line: int, column: str, note=None) -> float:
    """A cell of a variable's column: a number, or what --at accepts (``pi/4``). ``note``:
    StreamReader.note, told of a cell read as 0 or inf (it may be written beyond range)."""
    if isinstance(cell, str):
        try:
            value = float(cell.strip().replace("\u2212", "-"))
        except ValueError:
            pass
        else:
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
    from .points import NotConstant, constant    # the parser: only for cells that need it

    try:
        return constant(text)
    except (ExpressionError, NotConstant) as error:
        uses = f" (it uses {error})" if isinstance(error, NotConstant) else ""
        raise PointsError(f"{where}: {quote(text)} is not a number or constant "
                          f"expression{uses}") from None
