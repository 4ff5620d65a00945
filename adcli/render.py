"""How results look: rich tables for people; JSON, CSV and plain text for scripts.

CSV and plain text are written chunk by chunk as they are computed (and flushed), so a
long run that stops early keeps every complete line; JSON and tables are written whole.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass

import numpy as np


def writer(fmt: str, command, out, digits: int | None = None):
    return FORMATS[fmt](command, out, digits)


def number_text(value: float, digits: int | None = None) -> str:
    """Shortest text that reads back as the same float64, or rounded to ``digits``."""
    value = float(value)
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return repr(value) if digits is None else f"{value:.{digits}g}"


def number_json(value: float, digits: int | None = None):
    text = number_text(value, digits)
    if text in ("nan", "inf", "-inf"):
        return text
    # Rounding the largest floats up (1.8e308) would overflow: keep those unrounded.
    rounded = float(text)
    return rounded if math.isfinite(rounded) else float(value)


@dataclass
class Rows:
    """A computed chunk of n points: their coordinates and one array per column."""

    at: dict[str, np.ndarray]
    columns: list[np.ndarray]
    n: int
    warnings: list = ()    # (point index, function, kind, why): JSON's "warnings"

    def __len__(self):
        return self.n


def _lines(command, rows: Rows) -> list[list[float]]:
    """Each point as one list of floats: its coordinates (in ``command.names`` order), then
    the command's columns. One numpy-to-Python conversion per chunk."""
    columns = [rows.at[name] for name in command.names] + list(rows.columns)
    n = len(rows)
    return np.column_stack(columns).tolist() if columns and n else [[] for _ in range(n)]


class _Writer:
    def __init__(self, command, out, digits: int | None):
        self.command, self.out, self.digits = command, out, digits
        self.columns = command.columns()

    def text(self, value) -> str:
        return number_text(value, self.digits)

    def close(self) -> None:
        pass


class _LineWriter(_Writer):
    """Formats whose every line is one point: written and flushed as they come."""

    def write(self, rows: Rows) -> None:
        self._start()
        lines = [self.line(point) for point in _lines(self.command, rows)]
        if lines:
            self.out.write("\n".join(lines) + "\n")
            self.out.flush()

    def close(self) -> None:
        self._start()  # a points file with no rows still gets its CSV header

    def _start(self) -> None:
        if not getattr(self, "_started", False):
            self._started = True
            self.header()

    def header(self) -> None:
        pass


class PlainWriter(_LineWriter):
    """Value(s), then the derivatives, space-separated: easy for ``read`` and ``awk``."""

    def line(self, point: list[float]) -> str:
        return " ".join(self.text(v) for v in point[len(self.command.names):])


class CsvWriter(_LineWriter):
    def header(self) -> None:
        columns = [*self.command.names, *(c.csv for c in self.columns)]
        self.out.write(",".join(_csv_field(c) for c in columns) + "\n")

    def line(self, point: list[float]) -> str:
        return ",".join(self.text(v) for v in point)


def _csv_field(text: str) -> str:
    return '"' + text.replace('"', '""') + '"' if any(c in text for c in ',"\n') else text


class JsonWriter(_Writer):
    """Exactly one JSON object; nan and infinities are the strings "nan", "inf", "-inf"."""

    def __init__(self, command, out, digits):
        super().__init__(command, out, digits)
        self.points: list[dict] = []
        self.warnings: list[dict] = []

    def num(self, value):
        return number_json(value, self.digits)

    def write(self, rows: Rows) -> None:
        names, skeleton = self.command.names, json.dumps(self.command.skeleton())
        first = len(self.points)
        for line in _lines(self.command, rows):
            point = {"at": {n: self.num(v) for n, v in zip(names, line)}}
            point.update(json.loads(skeleton))  # a fresh copy of the nested containers
            for column, value in zip(self.columns, line[len(names):]):
                _place(point, column.path, self.num(value))
            self.points.append(point)
        self.warnings += [{"at": self.points[first + i]["at"], "function": function,
                           "kind": kind, "why": why} for i, function, kind, why in rows.warnings]

    def close(self) -> None:
        document = {**self.command.head(), "points": self.points}
        if self.warnings:  # only when there is something to say: the schema stays as it was
            document["warnings"] = self.warnings
        utf = "utf" in (getattr(self.out, "encoding", None) or "utf-8").lower()
        json.dump(document, self.out, ensure_ascii=not utf, allow_nan=False)
        self.out.write("\n")


def _place(point: dict, path: tuple, value) -> None:
    """Put value at path: a string key sets a field, a final list index appends."""
    *inner, last = path
    for key in inner:
        point = point[key]
    if isinstance(last, int):
        point.append(value)
    else:
        point[last] = value


class TableWriter(_Writer):
    """Rich tables: a row per point, then the command's matrices, one per point."""

    def __init__(self, command, out, digits):
        super().__init__(command, out, digits)
        self.chunks: list[Rows] = []

    def write(self, rows: Rows) -> None:
        self.chunks.append(rows)

    def close(self) -> None:
        from rich.console import Console

        console = Console(file=self.out, highlight=False, soft_wrap=False,
                          width=None if self.out.isatty() else 10_000)
        for table in self.tables():
            console.print(table)

    def tables(self):
        if self.command.table_title is not None:
            yield self._points_table()
        index = {column.path: i for i, column in enumerate(self.columns)}
        for matrix in self.command.matrices():
            for rows in self.chunks:
                for i in range(len(rows)):
                    yield self._matrix(matrix, rows, i, index)

    def _points_table(self):
        names = self.command.names
        shown = [i for i, c in enumerate(self.columns) if c.label is not None]
        table = _table(self.command.table_title)
        for label in [*names, *(self.columns[i].label for i in shown)]:
            table.add_column(label, justify="right", no_wrap=True)
        for rows in self.chunks:
            for point in _lines(self.command, rows):
                values = point[:len(names)] + [point[len(names) + i] for i in shown]
                table.add_row(*(self.text(v) for v in values))
        return table

    def _where(self, rows: Rows, i: int) -> str:
        return ", ".join(f"{n}={self.text(rows.at[n][i])}" for n in self.command.names) \
            or "the point"

    def _matrix(self, matrix, rows: Rows, i: int, index: dict):
        table = _table(f"{matrix.title} at {self._where(rows, i)}")
        table.add_column(matrix.corner, no_wrap=True)
        for name in matrix.columns:
            table.add_column(name, justify="right", no_wrap=True)
        for name, cells in zip(matrix.rows, matrix.cells):
            table.add_row(name, *(self.text(rows.columns[index[path]][i]) for path in cells))
        return table


def _table(title: str):
    from rich.table import Table
    from rich.text import Text

    # As wide as the title, so "read as: ..." is never wrapped over several lines.
    return Table(title=Text(title, no_wrap=True), title_justify="left", min_width=len(title) + 2)


FORMATS = {"table": TableWriter, "json": JsonWriter, "csv": CsvWriter, "plain": PlainWriter}
