"""Reading a stream of points: CSV, TSV, whitespace-separated columns or JSON Lines, as
records of text fields with their line numbers. Light to import (the CLI lists the
formats); ``points.PointSource`` turns the records into chunks of numbers.
"""
from __future__ import annotations

import csv
import json

from .errors import ExpressionError, PointsError, ValuesError, quote

STREAM_FORMATS = ("csv", "tsv", "plain", "jsonl")
_MAX_LINE = 1 << 20   # a longer line is no points row (and /dev/zero must not fill memory)


class StreamReader:
    """The records of a points stream in any of STREAM_FORMATS, with its column names: the
    header row, ``--columns`` for headerless input, or the keys of the first JSON object.
    Blank lines and lines starting with ``#`` are skipped."""

    def __init__(self, stream, fmt: str | None = None, columns: list[str] | None = None):
        self.stream, self.line = stream, 0
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
            self.columns = _names(next(self._split([first]))[1], self.line)

    def records(self):
        """(line number, fields) for every row: fields in column order."""
        lines = self._lines()
        if self.format == "jsonl":
            for text in lines:     # a missing field is None: an error for a variable
                obj = _json_object(text, self.line)
                yield self.line, [obj.get(c) for c in self.columns]
        else:
            yield from self._split(lines)

    def _split(self, lines):
        if self.format == "csv":
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
            if text.strip() and not text.lstrip().startswith("#"):
                return text
        return None

    def _lines(self):
        if self._pending is not None:
            yield self._pending
            self._pending = None
        for text in self._raw_lines():
            if text.strip() and not text.lstrip().startswith("#"):
                yield text

    def _raw_lines(self):
        while True:
            try:
                text = self.stream.readline(_MAX_LINE)
            except UnicodeDecodeError:
                # Decoding runs ahead of the rows (by blocks), so no exact line is known.
                raise PointsError("the points file is not UTF-8 text") from None
            if not text:
                return
            self.line += 1
            if len(text) >= _MAX_LINE and not text.endswith("\n"):
                raise PointsError(f"points file line {self.line}: longer than "
                                  f"{_MAX_LINE:,} characters")
            yield text


def _detect(first: str) -> str:
    """The format, from the first line: a line with one field is read as CSV."""
    if first.lstrip().startswith("{"):
        return "jsonl"
    if "\t" in first:
        return "tsv"
    return "plain" if "," not in first and len(first.split()) > 1 else "csv"


def _tab_split(text: str) -> list[str]:
    return text.rstrip("\r\n").split("\t")


def _json_object(text: str, line: int) -> dict:
    try:
        obj = json.loads(text)
    except ValueError as error:
        raise PointsError(f"points file line {line}: not JSON ({error})") from None
    if not isinstance(obj, dict):
        raise PointsError(f"points file line {line}: not a JSON object")
    return obj


def _names(names: list[str], line: int | None) -> list[str]:
    where = f"points file line {line}" if line is not None else "--columns"
    names = [n.strip() for n in names]
    if not names or any(not n for n in names):
        raise PointsError(f"{where}: a column has no name")
    if len(set(names)) != len(names):
        raise PointsError(f"{where}: a column name is repeated")
    return names


def number(cell, line: int, column: str) -> float:
    """A cell of a variable's column: a number, or what --at accepts (``pi/4``)."""
    if isinstance(cell, (int, float)) and not isinstance(cell, bool):
        return float(cell)
    where = f"points file line {line}, column {quote(column)}"
    if cell is None:
        raise PointsError(f"{where}: no value (null or missing)")
    if not isinstance(cell, str):
        raise PointsError(f"{where}: {quote(json.dumps(cell))} is not a number")
    text = cell.strip()
    try:
        return float(text.replace("\u2212", "-"))
    except ValueError:
        pass
    from .points import NotConstant, constant    # the parser: only for cells that need it

    try:
        return constant(text)
    except (ExpressionError, NotConstant) as error:
        uses = f" (it uses {error})" if isinstance(error, NotConstant) else ""
        raise PointsError(f"{where}: {quote(text)} is not a number or constant "
                          f"expression{uses}") from None
