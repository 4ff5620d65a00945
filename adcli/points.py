"""Where the values of the variables come from: --at pairs, --grid ranges, --points files.

Everything is yielded in chunks of points (a dict of equal-length float64 arrays), so a
large grid or an endless stream is evaluated in bounded memory.
"""
from __future__ import annotations

import csv
import math
from dataclasses import dataclass, field

import numpy as np

from .errors import ExpressionError, PointsError, ValuesError
from .functions import CONSTANTS
from .parser import is_name, parse


def _quote(text: str, limit: int = 60) -> str:
    """An option's text for an error message: escaped, and cut short if it is long."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


def split_top_level(text: str, separator: str) -> list[str]:
    """Split on ``separator`` outside parentheses: ``x=atan2(1,2),y=3`` is two pairs."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += (c == "(") - (c == ")")
        if c == separator and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return parts + [text[start:]]


def constant_value(text: str, what: str) -> float:
    """The value of a constant expression such as ``pi/4`` or ``-1/3``, as a float64."""
    try:
        expression = parse(text)
    except ExpressionError as error:
        raise ValuesError(f"{what}: {error.message}: {_quote(text)}") from None
    if expression.variables:
        raise ValuesError(f"{what}: {_quote(text)} is not a number or constant expression "
                          f"(it uses {', '.join(expression.variables)})")
    with np.errstate(all="ignore"):
        return float(expression.value())


def _pairs(option: str, text: str):
    for pair in split_top_level(text, ","):
        name, equals, value = pair.partition("=")
        name = name.strip()
        if not equals or not is_name(name) or not value.strip():
            raise ValuesError(f"{option} {_quote(text)}: {_quote(pair)} is not of the form "
                              "name=value")
        if name in CONSTANTS:
            raise ValuesError(f"{option} {_quote(text)}: {name} is a constant and cannot be "
                              "given a value")
        yield name, value


def parse_at(options) -> dict[str, float]:
    """``--at x=1,y=pi/4`` options (repeatable) into one point."""
    values: dict[str, float] = {}
    for text in options:
        for name, value in _pairs("--at", text):
            if name in values:
                raise ValuesError(f"--at {_quote(text)}: {name} is given more than once; "
                                  "for several points use --grid or --points")
            values[name] = constant_value(value, f"--at {name}")
    return values


MAX_GRID_POINTS = 10**8  # a few minutes of work: more is surely a typo (use --points)


@dataclass(frozen=True)
class Axis:
    """``count`` evenly spaced values from ``start`` to ``stop``, both included, computed a
    chunk at a time (never allocated whole), with numpy.linspace's arithmetic."""

    start: float
    stop: float
    count: int

    def values(self, index: np.ndarray) -> np.ndarray:
        if self.count == 1:
            return np.full(len(index), self.start)
        step = (self.stop - self.start) / (self.count - 1)
        values = index * step + self.start
        values[index == self.count - 1] = self.stop
        return values


def parse_grid(options, default_count: int | None = None) -> dict[str, Axis]:
    """``--grid x=0:1:5`` (start:stop:count, both ends included) per variable; with a
    ``default_count``, ``x=0:1`` (no count) is allowed too and has that many values."""
    axes: dict[str, Axis] = {}
    for text in options:
        for name, spec in _pairs("--grid", text):
            parts = split_top_level(spec, ":")
            if len(parts) == 2 and default_count is not None:
                parts.append(str(default_count))
            count = parts[-1].strip()
            if len(parts) != 3 or not count.isdigit() or not count.isascii() or int(count[:12]) < 1:
                raise ValuesError(f"--grid {_quote(text)}: {_quote(spec)} is not start:stop:count "
                                  "with a whole count of at least 1")
            if name in axes:
                raise ValuesError(f"--grid {_quote(text)}: {name} is given more than once")
            if len(count) > 12 or math.prod([a.count for a in axes.values()] + [int(count)]) \
                    > MAX_GRID_POINTS:
                raise ValuesError(f"--grid {_quote(text)}: the grid would have more than "
                                  f"{MAX_GRID_POINTS:,} points; stream more with --points")
            start, stop = (constant_value(p, f"--grid {name}") for p in parts[:2])
            axes[name] = Axis(start, stop, int(count))
    return axes


@dataclass
class PointSource:
    """Fixed values, grid axes and an optional CSV stream, combined chunk by chunk."""

    fixed: dict[str, float] = field(default_factory=dict)
    grid: dict[str, Axis] = field(default_factory=dict)
    stream: object = None               # an open text file with a header row
    skip_bad_rows: bool = False
    chunk_size: int = 65536
    skipped: list[str] = field(default_factory=list)

    def names(self) -> list[str]:
        header = self._header() if self.stream is not None else []
        return [*self.fixed, *self.grid, *header]

    def check(self) -> None:
        if self.grid and self.stream is not None:
            raise ValuesError("--grid and --points cannot be combined: put every varying "
                              "variable in the points file (--at may fix the others)")
        clashes = (set(self.fixed) & set(self.grid)) | \
                  (set(self.fixed) | set(self.grid)) & set(self._header() if self.stream else [])
        if clashes:
            raise ValuesError(f"{', '.join(sorted(clashes))} given more than once "
                              "(in --at, --grid or the points file)")

    def chunks(self):
        if self.stream is not None:
            yield from self._stream_chunks()
        else:
            yield from self._grid_chunks()

    def _with_fixed(self, columns: dict[str, np.ndarray], n: int) -> dict[str, np.ndarray]:
        point = {name: np.full(n, value) for name, value in self.fixed.items()}
        point.update(columns)
        return point

    def _grid_chunks(self):
        names, axes = list(self.grid), list(self.grid.values())
        shape = [a.count for a in axes]
        total = math.prod(shape)
        for start in range(0, total, self.chunk_size):
            index = np.arange(start, min(total, start + self.chunk_size))
            # Row-major order: the last --grid varies fastest, as in nested loops.
            unravelled = np.unravel_index(index, shape) if axes else []
            columns = {n: a.values(i) for n, a, i in zip(names, axes, unravelled)}
            yield self._with_fixed(columns, len(index))

    # ----- CSV points ----------------------------------------------------------------

    def _rows(self):
        """The CSV reader's rows; undecodable bytes or broken quoting are a bad file."""
        while True:
            try:
                row = next(self._reader, None)
            except UnicodeDecodeError:
                # Decoding runs ahead of the rows (by blocks), so no exact line is known.
                raise PointsError("the points file is not UTF-8 text") from None
            except csv.Error as error:
                raise PointsError(f"points file line {self._reader.line_num}: {error}") from None
            if row is None:
                return
            yield row

    def _header(self) -> list[str]:
        if not hasattr(self, "_columns"):
            self._reader = csv.reader(self.stream)
            self._lines = self._rows()
            header = next(self._lines, None)
            if header is None:
                raise PointsError("the points file is empty: it needs a header row of names")
            self._columns = [h.strip() for h in header]
            bad = [h for h in self._columns if not is_name(h)]
            if bad:
                raise PointsError(f"points file line 1: {bad[0]!r} is not a variable name")
            if len(set(self._columns)) != len(self._columns):
                raise PointsError("points file line 1: a column name is repeated")
        return self._columns

    def _stream_chunks(self):
        columns = self._header()
        rows: list[list[float]] = []
        for row in self._lines:
            parsed = self._row(row, columns)
            if parsed is not None:
                rows.append(parsed)
            if len(rows) == self.chunk_size:
                yield self._rows_to_chunk(rows, columns)
                rows = []
        if rows:
            yield self._rows_to_chunk(rows, columns)

    def _row(self, row: list[str], columns: list[str]) -> list[float] | None:
        line = self._reader.line_num
        if not row or (len(row) == 1 and not row[0].strip()) or row[0].lstrip().startswith("#"):
            return None
        try:
            if len(row) != len(columns):
                raise PointsError(f"points file line {line}: {len(row)} fields, "
                                  f"the header has {len(columns)}")
            return [_number(text, line, name) for text, name in zip(row, columns)]
        except PointsError as error:
            if not self.skip_bad_rows:
                raise
            self.skipped.append(str(error))
            return None

    def _rows_to_chunk(self, rows, columns) -> dict[str, np.ndarray]:
        data = np.array(rows, dtype=np.float64).reshape(len(rows), len(columns))
        return self._with_fixed({n: data[:, i] for i, n in enumerate(columns)}, len(rows))


def _number(text: str, line: int, column: str) -> float:
    try:
        return float(text.strip().replace("\u2212", "-"))
    except ValueError:
        raise PointsError(f"points file line {line}, column {column!r}: "
                          f"{text.strip()!r} is not a number") from None


def chunk_size_for(node_count: int) -> int:
    """Points per chunk so one chunk's graph stays near 256 MB whatever the expression."""
    return int(np.clip(2**25 // max(1, node_count), 1, 65536))

