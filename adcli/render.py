"""How results look: rich tables for people; JSON, CSV and plain text for scripts.

CSV and plain text are written chunk by chunk as they are computed (and flushed), so a
long run that stops early keeps every complete line; JSON and tables are written whole.
"""
from __future__ import annotations

import json
import math

import numpy as np

from .results import Job, Rows

_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def writer(fmt: str, job: Job, out, digits: int | None = None):
    cls = {"table": TableWriter, "json": JsonWriter, "csv": CsvWriter, "plain": PlainWriter}[fmt]
    return cls(job, out, digits)


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


def _lines(job: Job, rows: Rows) -> list[list[float]]:
    """Each point as one list of floats: its coordinates (in ``job.names`` order), values,
    gradients, Hessian row-major, derivative. One numpy-to-Python conversion per chunk."""
    n = len(rows)
    columns = [rows.at[name] for name in job.names] + list(rows.values)
    for gradient in rows.gradients:
        columns += [gradient[w] for w in job.wrt]
    if rows.hessian is not None:
        columns += list(rows.hessian.reshape(n, -1).T)
    if rows.derivative is not None:
        columns.append(rows.derivative)
    return np.column_stack(columns).tolist() if columns and n else [[] for _ in range(n)]


def _function_names(job: Job) -> list[str]:
    return ["f"] if len(job.expressions) == 1 else [f"f{i + 1}" for i in range(len(job.expressions))]


class _Writer:
    def __init__(self, job: Job, out, digits: int | None):
        self.job, self.out, self.digits = job, out, digits

    def text(self, value) -> str:
        return number_text(value, self.digits)

    def close(self) -> None:
        pass


class _LineWriter(_Writer):
    """Formats whose every line is one point: written and flushed as they come."""

    def write(self, rows: Rows) -> None:
        self._start()
        lines = [self.line(point) for point in _lines(self.job, rows)]
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
        return " ".join(self.text(v) for v in point[len(self.job.names):])


class CsvWriter(_LineWriter):
    def header(self) -> None:
        job, fs = self.job, _function_names(self.job)
        columns = [*job.names, *fs]
        if job.kind in ("grad", "hessian", "jacobian"):
            columns += [f"d{f}/d{w}" for f in fs for w in job.wrt]
        if job.kind == "hessian":
            columns += [f"d2f/d{a}d{b}" for a in job.wrt for b in job.wrt]
        if job.kind == "derivative":
            columns.append(f"d{job.order}f/d{job.wrt[0]}{job.order}")
        self.out.write(",".join(_csv_field(c) for c in columns) + "\n")

    def line(self, point: list[float]) -> str:
        return ",".join(self.text(v) for v in point)


def _csv_field(text: str) -> str:
    return '"' + text.replace('"', '""') + '"' if any(c in text for c in ',"\n') else text


class JsonWriter(_Writer):
    """Exactly one JSON object; nan and infinities are the strings "nan", "inf", "-inf"."""

    def __init__(self, job, out, digits):
        super().__init__(job, out, digits)
        self.points: list[dict] = []

    def num(self, value):
        return number_json(value, self.digits)

    def write(self, rows: Rows) -> None:
        for i in range(len(rows)):
            self.points.append(self.point(rows, i))

    def point(self, rows: Rows, i: int) -> dict:
        job, wrt = self.job, self.job.wrt
        point = {"at": {n: self.num(rows.at[n][i]) for n in job.names}}
        if job.kind == "jacobian":
            point["values"] = [self.num(v[i]) for v in rows.values]
            point["jacobian"] = [[self.num(g[w][i]) for w in wrt] for g in rows.gradients]
            return point
        point["value"] = self.num(rows.values[0][i])
        if rows.gradients:
            point["gradient"] = {w: self.num(rows.gradients[0][w][i]) for w in wrt}
        if rows.hessian is not None:
            point["hessian"] = [[self.num(h) for h in row] for row in rows.hessian[i]]
        if rows.derivative is not None:
            point["order"], point["derivative"] = self.job.order, self.num(rows.derivative[i])
        return point

    def close(self) -> None:
        job = self.job
        if job.kind == "jacobian":
            head = {"expressions": [e.text for e in job.expressions],
                    "parsed": [e.parsed for e in job.expressions]}
        else:
            head = {"expression": job.expressions[0].text, "parsed": job.expressions[0].parsed}
        document = {**head, "variables": list(job.wrt) if job.kind != "eval" else job.names,
                    "points": self.points}
        utf = "utf" in (getattr(self.out, "encoding", None) or "utf-8").lower()
        json.dump(document, self.out, ensure_ascii=not utf, allow_nan=False)
        self.out.write("\n")


class TableWriter(_Writer):
    """Rich tables: one row per point; a matrix per point for Hessians and Jacobians."""

    def __init__(self, job, out, digits):
        super().__init__(job, out, digits)
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
        job = self.job
        if job.kind == "jacobian":
            for rows in self.chunks:
                for i in range(len(rows)):
                    yield self._jacobian(rows, i)
            return
        yield self._points_table()
        if job.kind == "hessian":
            for rows in self.chunks:
                for i in range(len(rows)):
                    names = [f"∂/∂{w}" for w in job.wrt]
                    yield self._matrix(f"Hessian at {self._where(rows, i)}", names, job.wrt,
                                       rows.hessian[i], "∂²f")

    def _points_table(self):
        job = self.job
        table = _table(f"read as: {job.expressions[0].parsed}")
        columns = list(job.names) + ["f"]
        if job.kind in ("grad", "hessian"):
            columns += [f"∂f/∂{w}" for w in job.wrt]
        if job.kind == "derivative":
            k = str(job.order).translate(_SUPERSCRIPT)
            columns.append(f"d{k}f/d{job.wrt[0]}{k}")
        for column in columns:
            table.add_column(column, justify="right", no_wrap=True)
        for rows in self.chunks:
            for point in _lines(job, rows):
                # Hessians are shown apart, one matrix per point: cut them from the row.
                table.add_row(*(self.text(v) for v in point[:len(columns)]))
        return table

    def _where(self, rows: Rows, i: int) -> str:
        return ", ".join(f"{n}={self.text(rows.at[n][i])}" for n in self.job.names) or "the point"

    def _jacobian(self, rows: Rows, i: int):
        job = self.job
        names = [f"{f}: {e.parsed}" for f, e in zip(_function_names(job), job.expressions)]
        matrix = np.array([[g[w][i] for w in job.wrt] for g in rows.gradients])
        values = [v[i] for v in rows.values]
        return self._matrix(f"Jacobian at {self._where(rows, i)}", names,
                            job.wrt, matrix.reshape(len(names), len(job.wrt)),
                            "output", values)

    def _matrix(self, title, row_names, column_names, matrix, corner, values=None):
        table = _table(title)
        table.add_column(corner, no_wrap=True)
        if values is not None:
            table.add_column("value", justify="right", no_wrap=True)
        for name in column_names:
            table.add_column(f"∂/∂{name}", justify="right", no_wrap=True)
        for r, name in enumerate(row_names):
            head = [name] + ([self.text(values[r])] if values is not None else [])
            table.add_row(*head, *(self.text(v) for v in matrix[r]))
        return table


def _table(title: str):
    from rich.table import Table
    from rich.text import Text

    # As wide as the title, so "read as: ..." is never wrapped over several lines.
    return Table(title=Text(title, no_wrap=True), title_justify="left", min_width=len(title) + 2)
