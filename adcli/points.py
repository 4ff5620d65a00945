"""Where the values of the variables come from: --at pairs, --grid ranges, --points streams.

Everything is yielded in chunks of points (a dict of equal-length float64 arrays), so a
large grid or an endless stream is evaluated in bounded memory.
"""
from __future__ import annotations

import csv
import functools
import json
import math
import re
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

import numpy as np

from .errors import ExpressionError, PointsError, ValuesError, escape
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

_DECIMAL = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\Z")


@dataclass(frozen=True)
class Axis:
    """``count`` evenly spaced values from ``start`` to ``stop``, both included, computed a
    chunk at a time (never allocated whole).

    Point i is ``(start*(n-1-i) + stop*i) / (n-1)``. When both ends are typed as decimals
    (``0``, ``0.1``, ``2.5e-3``) that is done in integers scaled by a power of ten, so each
    point is the float64 nearest to the exact decimal (``0:1:11`` gives 0.3, not
    0.30000000000000004); otherwise with weights that cannot overflow."""

    start: float
    stop: float
    count: int
    exact: tuple[int, int, int] | None = None   # start, stop as integers over a scale

    def values(self, index: np.ndarray) -> np.ndarray:
        if self.count == 1:
            return np.full(len(index), self.start)
        n1 = self.count - 1
        if self.exact is not None:
            a, b, scale = self.exact
            # Integers below 2**53 are exact floats, so one rounding: the division.
            values = (a * (n1 - index) + b * index).astype(np.float64) / float(scale * n1)
        else:
            values = self.start * ((n1 - index) / n1) + self.stop * (index / n1)
        values[index == 0] = self.start
        values[index == n1] = self.stop
        return values


def _exact_ends(texts: list[str], count: int) -> tuple[int, int, int] | None:
    """The ends as integers a, b over one power-of-ten scale, if both are decimal literals
    and every numerator of the formula stays an exact float64 integer."""
    texts = [t.strip().replace("\u2212", "-") for t in texts]
    if not all(_DECIMAL.match(t) for t in texts):
        return None
    (a, p), (b, q) = (Fraction(Decimal(t)).as_integer_ratio() for t in texts)
    scale = p * q // math.gcd(p, q)
    a, b = a * (scale // p), b * (scale // q)
    n1 = max(count - 1, 1)
    if max(abs(a), abs(b)) * n1 >= 2**53 or scale * n1 >= 2**53:
        return None
    return a, b, scale


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
            if len(parts) != 3 or not count.isdigit() or not count.isascii() \
                    or not count.strip("0"):
                raise ValuesError(f"--grid {_quote(text)}: {_quote(spec)} is not start:stop:count "
                                  "with a whole count of at least 1")
            if name in axes:
                raise ValuesError(f"--grid {_quote(text)}: {name} is given more than once")
            count = count.lstrip("0")           # 0005 is 5; a 5,000-digit count is too many
            if len(count) > 12 or math.prod([a.count for a in axes.values()] + [int(count)]) \
                    > MAX_GRID_POINTS:
                raise ValuesError(f"--grid {_quote(text)}: the grid would have more than "
                                  f"{MAX_GRID_POINTS:,} points; stream more with --points")
            start, stop = (constant_value(p, f"--grid {name}") for p in parts[:2])
            axes[name] = Axis(start, stop, int(count), _exact_ends(parts[:2], int(count)))
    return axes


@dataclass
class Chunk:
    """Up to a chunk's worth of points: a float64 array per variable, and the columns of a
    points stream that are not variables (ids, labels), passed through as read."""

    values: dict[str, np.ndarray]
    n: int
    extra: dict[str, list] = field(default_factory=dict)


@dataclass
class PointSource:
    """Fixed values, grid axes and an optional points stream, combined chunk by chunk."""

    fixed: dict[str, float] = field(default_factory=dict)
    grid: dict[str, Axis] = field(default_factory=dict)
    stream: object = None               # an open text file of points
    skip_bad_rows: bool = False
    chunk_size: int = 65536
    skipped: list[str] = field(default_factory=list)
    stream_format: str | None = None    # one of STREAM_FORMATS; None: detect it
    columns: list[str] | None = None    # names for headerless input (--columns)

    def __post_init__(self):
        self.variables: list[str] = []  # stream columns read as numbers (see use())

    @property
    def total(self) -> int | None:
        """How many points there will be, when known before reading them."""
        return None if self.stream is not None else math.prod(a.count for a in self.grid.values())

    def names(self) -> list[str]:
        return [*self.fixed, *self.grid, *self._header()]

    def check(self) -> None:
        if self.grid and self.stream is not None:
            raise ValuesError("--grid and --points cannot be combined: put every varying "
                              "variable in the points file (--at may fix the others)")
        clashes = (set(self.fixed) & set(self.grid)) | \
                  (set(self.fixed) | set(self.grid)) & set(self._header())
        if clashes:
            raise ValuesError(f"{', '.join(sorted(map(escape, clashes)))} given more than once "
                              "(in --at, --grid or the points file)")

    def use(self, variables) -> None:
        """Read these stream columns as numbers; every other column passes through."""
        self.variables = [c for c in self._header() if c in set(variables)]

    @property
    def extra_names(self) -> list[str]:
        return [c for c in self._header() if c not in self.variables]

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
            yield Chunk(self._with_fixed(columns, len(index)), len(index))

    # ----- points streams --------------------------------------------------------------

    def _header(self) -> list[str]:
        if self.stream is None:
            return []
        if not hasattr(self, "_reader"):
            self._reader = StreamReader(self.stream, self.stream_format, self.columns)
        return self._reader.columns

    def _stream_chunks(self):
        reader, names = self._reader, self._header()
        numbers = [names.index(v) for v in self.variables]
        passed = [names.index(c) for c in self.extra_names]
        rows: list[list[float]] = []
        extras: list[list] = []
        try:
            for line, fields in reader.records():
                row = self._row(line, fields, numbers)
                if row is None:
                    continue
                rows.append(row)
                extras.append([fields[i] for i in passed])
                if len(rows) == self.chunk_size:
                    yield self._chunk(rows, extras)
                    rows, extras = [], []
        except PointsError:
            if rows:                    # the good rows before a bad one are still results
                yield self._chunk(rows, extras)
            raise
        if rows:
            yield self._chunk(rows, extras)

    def _row(self, line: int, fields: list, numbers: list[int]) -> list[float] | None:
        try:
            if len(fields) != len(self._reader.columns):
                raise PointsError(f"points file line {line}: {len(fields)} fields, "
                                  f"the header has {len(self._reader.columns)}")
            return [_number(fields[i], line, self._reader.columns[i]) for i in numbers]
        except PointsError as error:
            if not self.skip_bad_rows:
                raise
            self.skipped.append(str(error))
            return None

    def _chunk(self, rows, extras) -> Chunk:
        data = np.array(rows, dtype=np.float64).reshape(len(rows), len(self.variables))
        columns = {n: data[:, i] for i, n in enumerate(self.variables)}
        extra = {n: [e[i] for e in extras] for i, n in enumerate(self.extra_names)}
        return Chunk(self._with_fixed(columns, len(rows)), len(rows), extra)


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


def _number(cell, line: int, column: str) -> float:
    """A cell of a variable's column: a number, or what --at accepts (``pi/4``)."""
    if isinstance(cell, (int, float)) and not isinstance(cell, bool):
        return float(cell)
    where = f"points file line {line}, column {_quote(column)}"
    if cell is None:
        raise PointsError(f"{where}: no value (null or missing)")
    if not isinstance(cell, str):
        raise PointsError(f"{where}: {_quote(json.dumps(cell))} is not a number")
    try:
        return float(cell.strip().replace("\u2212", "-"))
    except ValueError:
        pass
    try:
        return _constant(cell.strip())
    except ValuesError as error:
        raise PointsError(f"{where}: {_quote(cell.strip())} is not a number or constant "
                          f"expression{_why(error)}") from None


@functools.lru_cache(maxsize=1024)
def _constant(text: str) -> float:
    return constant_value(text, "")


def _why(error: ValuesError) -> str:
    reason = str(error).split("(it uses ", 1)
    return f" (it uses {reason[1]}" if len(reason) == 2 else ""


def chunk_size_for(node_count: int) -> int:
    """Points per chunk so one chunk's graph stays near 256 MB whatever the expression."""
    return int(np.clip(2**25 // max(1, node_count), 1, 65536))
