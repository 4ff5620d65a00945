"""Where the values of the variables come from: --at pairs, --grid ranges, --points streams.

Everything is yielded in chunks of points (a dict of equal-length float64 arrays), so a
large grid or an endless stream is evaluated in bounded memory.
"""
from __future__ import annotations

import functools
import itertools
import math
import re

import numpy as np

from .errors import ExpressionError, PointsError, ValuesError, escape, quote
from .functions import CONSTANTS
from .parser import is_name, normal_name, parse
from .reader import CONSTANT_SPELLINGS, PI_FORMS, not_grouped, out_of_range
from .printer import format_number
from .records import Record
from .streams import (AnyNames, Bad, Hashed, StreamReader, is_number, names_again, number,
                      split_otherwise)



def split_top_level(text: str, separator: str) -> list[str]:
    """Split on ``separator`` outside brackets: ``x=atan2(1,2),y=3`` is two pairs (and
    ``[1,2]`` one value: brackets and braces group as parentheses do in expressions)."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += (c in "([{") - (c in ")]}")
        if c == separator and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return parts + [text[start:]]


# A header's separators, as each format but JSON Lines splits it (None: runs of whitespace)
_SEPARATORS = (("\t", "tabs", "tsv"), (",", "commas", "csv"), (None, "spaces", "plain"))

# The cells beyond float64's range (or whose expression has no finite value: exp(800))
# of the kind not met first, in words (PointSource.beyond)
_BEYOND = {"inf": "beyond the largest float64 number, read as inf or -inf",
           "0": "below the smallest float64 number, read as 0",
           "not finite": "whose expression is not finite in float64, read as inf, -inf or "
                         "nan"}


class NotConstant(ValueError):
    """A value that is an expression in variables (its message names them)."""


# A points column repeats the same few texts; a typed value is read for its number and
# then for its cautions (--at x=1/2 pi): parsed once.
_parsed = functools.lru_cache(maxsize=1024)(parse)


@functools.lru_cache(maxsize=1024)
def constant(text: str) -> float:
    """The value of a constant expression such as ``pi/4`` or ``-1/3``, as a float64;
    ExpressionError if it is no expression, NotConstant if it uses variables."""
    # As streams.number reads a cell first ("inf", "nan" too): written out in both, since
    # a helper call there costs ~90 ns a cell on the row-by-row path (measured).
    try:
        value = float(text.strip().replace("\u2212", "-"))
    except ValueError:
        pass
    else:
        if "_" not in text:
            return value
        # float() groups digits with '_' (1_0 is 10), as no number of adcli's does: an
        # id 2023_01 would silently be 202301
        raise ExpressionError(f"{quote(text.strip())} is not a number: digits are not "
                              f"grouped with '_' (write {text.strip().replace('_', '')} if "
                              "that is meant)", text, text.find("_"))
    expression = _parsed(text)
    if expression.variables:
        raise NotConstant(", ".join(expression.variables))
    with np.errstate(all="ignore"):
        return float(expression.float64_value({}))


def constant_value(text: str, what: str, said: list | None = None) -> float:
    """``constant``, with a message that says which option or cell ``what`` is wrong; a
    number beyond float64's range (1e999: inf) is read as Python reads it, and an
    expression read as it rarely means (1/2 pi is 1/(2*pi)), said in ``said``, a list of
    warnings."""
    value = _constant_or(text, ValuesError, what, lambda why: _cell_why(text, why))
    if said is not None:
        try:
            float(text.strip().replace("\u2212", "-"))
        except ValueError:  # an expression: constant parsed it
            said += [f"{what}: {caution}" for caution in _parsed(text).cautions]
            if not math.isfinite(value):    # log(-1), 1/0, 10^400: say which value it was
                said.append(f"{what}: {text.strip()} is {format_number(value)}")
            elif value == 0.0:  # 2^-1080 may be a number, as 1e-400 is said to be
                from .expression import UNDERFLOWED, underflowed

                if underflowed(text):
                    said.append(f"{what}: {text.strip()} {UNDERFLOWED}")
        else:
            beyond = out_of_range(text, value) if value == 0.0 or abs(value) == math.inf \
                else None
            if beyond:
                said.append(f"{what}: {beyond}: read as {format_number(value)}")
    return value


def _constant_or(text: str, error, what: str, why) -> float:
    """``constant``, or ``error`` (a class) saying ``what`` is wrong: the parser's reason
    as ``why`` words it, or the variables that make it no constant."""
    try:
        return constant(text)
    except ExpressionError as failed:
        raise error(f"{what}: {why(failed.message)}") from None
    except NotConstant as failed:
        raise error(f"{what}: {quote(text)} is not a number or constant expression "
                    f"(it uses {failed})") from None


# A number and a name apart in a cell (3 e, 5 kg): a product in an expression, but in
# data rather a unit or a typo (of 3e5?), as two numbers apart (2 3) are an error
_APART = r"\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?(\s+)[^\W\d_]\w*(?!\w|\s*\()"
_EXPONENT_APART = r"\s*[+-]?(?:\d+\.?\d*|\.\d+)\s+[eE][+-]?\d+\s*"   # 1.5 e-3
_DECIMAL_COMMA = r"[+-]?\d+,\d+"     # 1,5: a locale's decimal comma
_SPACED = r"[+-]?\d{1,3}( \d{3})+(\.\d*)?"    # 1 000: digits grouped by thousands


def cell_value(text: str, line: int, column: str, note=None) -> float:
    """A cell that float() does not read: a constant expression (pi/4), as --at reads
    one, or an error that says why not, as --at's does. ``note``: StreamReader.note, told
    of a value that may be a number below float64's range (2^-1080) or that is not finite
    (exp(800), sqrt(-1)): each kind is said once, with its first cell and a count."""
    where = f"points file line {line}, column {quote(column)}"
    value = _constant_or(text, PointsError, where, lambda why: _cell_why(text, why))
    # a cell that starts with a number and a name apart (3 e, 1.5 e-3, 2.5 pi/2), not a
    # function's product (2 sqrt(2)) nor one inside brackets (sin(2 pi)): --at's reading
    apart = re.match(_APART, text)
    if apart:
        product = text[:apart.start(1)] + "*" + text[apart.end(1):]
        joined = "".join(text.split())
        exponent = f"write {joined} if an exponent is meant, or " \
            if re.fullmatch(_EXPONENT_APART, text) else "write "
        raise PointsError(f"{where}: {quote(text)} is not a number: a number and a name "
                          "apart (a unit? a typo?) are no product in a cell: "
                          f"{exponent}{product.strip()} if the product is")
    if note is not None and value == 0.0:
        from .expression import UNDERFLOWED, underflowed

        if underflowed(text):   # 2^-1080: said as a cell 1e-400 is (note says "read as 0")
            note(line, column, text, value,
                 f"{text} {UNDERFLOWED.removesuffix(': read as 0')}")
    elif note is not None and value - value != 0:   # exp(800), 1/0, sqrt(-1)
        # (exp(800) is a number, beyond float64's range; exp(800)/exp(800) is 1, though
        # float64 makes it nan: what is said is float64's, as --at says "is inf")
        note(line, column, text, value, f"{text} is not finite in float64", "not finite")
    return value


def _cell_why(text: str, message: str) -> str:
    """Why a cell is no constant expression: the parser's reason, or for a number with
    a decimal comma (1,5, which TSV and plain input do not split) or its digits grouped
    (1 000, which the parser takes for a product), how to write it."""
    if re.fullmatch(_SPACED, text):
        return not_grouped(text)
    if not re.fullmatch(_DECIMAL_COMMA, text):  # (the cell, unless the reason quotes it)
        return message if message.startswith(quote(text)) else f"{message}: {quote(text)}"
    whole, _, fraction = text.partition(",")
    point = f"write {whole}.{fraction}, with a decimal point, not a comma"
    if len(fraction) == 3:      # 1,000: or digits grouped by thousands
        point += f" (or {whole}{fraction} if the comma groups digits)"
    return f"{quote(text)} is not a number: {point}"


def _comma_decimal(text: str) -> str:
    """--at x=1,5 (the whole option): the hint where its comma may be a decimal point."""
    whole = re.fullmatch(r"\s*([^=,]+)=\s*([+-]?\d+)\s*,\s*(\d+)\s*", text)
    if whole is None:
        return ""
    return (f" (or, if the comma is a decimal point, {whole[1].strip()}={whole[2]}."
            f"{whole[3]}: commas separate the pairs)")


def _pairs(option: str, text: str):
    for pair in split_top_level(text, ","):
        name, equals, value = pair.partition("=")
        name = name.strip()
        if "=" in value:  # x=1 y=2, x=1;y=2: pairs run together (no value holds an '=')
            joined = re.sub(_RUN_TOGETHER, ",", pair.strip())
            if joined != pair.strip():
                raise ValuesError(f"{option} {quote(text)}: separate the name=value pairs "
                                  f"with commas: {option} {joined}")
        if equals and any(c in PI_FORMS for c in name) and not is_name(name):
            raise ValuesError(f"{option} {quote(text)}: {quote(name)} is no variable: π is "
                              "the constant pi, never part of a name (2πx is 2*pi*x): give "
                              "the variable's value alone")
        if not equals or not is_name(name) or not value.strip():
            # x=1,2,3: several values of one variable, where --at is one point.
            several = not equals and option == "--at" and re.match(_DECIMAL, pair.strip())
            comma = _comma_decimal(text) if several else ""
            raise ValuesError(f"{option} {quote(text)}: {quote(pair)} is not of the form "
                              "name=value" + ("; --at is one point: for several use --grid "
                                              f"or --points{comma}" if several else ""))
        name = normal_name(name)
        if name in CONSTANTS:
            raise ValuesError(f"{option} {quote(text)}: {name} is a constant and cannot be "
                              "given a value")
        yield name, value


def parse_at(options, said: list | None = None) -> dict[str, float]:
    """``--at x=1,y=pi/4`` options (repeatable) into one point (``said``: constant_value's)."""
    values: dict[str, float] = {}
    for text in options:
        for name, value in _pairs("--at", text):
            if name in values:
                raise ValuesError(f"--at {quote(text)}: {name} is given more than once; "
                                  "for several points use --grid or --points")
            values[name] = constant_value(value, f"--at {name}", said)
    return values


MAX_GRID_POINTS = 10**8  # a few minutes of work: more is surely a typo (use --points)

# (compiled on first use, by re's own cache: --at x=1 needs neither)
_RUN_TOGETHER = r"\s*[;\s]\s*(?=[^\s;=,]+\s*=)"  # before a name=
_DECIMAL = r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\Z"


class Axis(Record):
    """``count`` evenly spaced values from ``start`` to ``stop``, both included, computed a
    chunk at a time (never allocated whole).

    Point i is ``(start*(n-1-i) + stop*i) / (n-1)``. When both ends are typed as decimals
    (``0``, ``0.1``, ``2.5e-3``) that is done in integers scaled by a power of ten, so each
    point is the float64 nearest to the exact decimal (``0:1:11`` gives 0.3, not
    0.30000000000000004); otherwise with weights that cannot overflow."""

    _fields = ("start", "stop", "count", "exact")
    __hash__ = Record._value_hash  # never changed once made

    def __init__(self, start: float, stop: float, count: int,
                 exact: tuple[int, int, int] | None = None):  # ends as integers over a scale
        self.start, self.stop, self.count, self.exact = start, stop, count, exact

    def values(self, index: np.ndarray) -> np.ndarray:
        if self.count == 1:
            return np.full(len(index), self.start)
        n1 = self.count - 1
        if self.exact is not None:
            a, b, scale = self.exact
            if max(abs(a), abs(b), scale) * n1 < 2**53:
                # Integers below 2**53 are exact floats, so one rounding: the division.
                values = (a * (n1 - index) + b * index).astype(np.float64) / float(scale * n1)
            else:   # Python's int / int rounds once too (-1e20:1e20:401: ~0.2 µs a point)
                values = np.array([(a * (n1 - i) + b * i) / (scale * n1)
                                   for i in index.tolist()], dtype=np.float64)
        else:
            values = self.start * ((n1 - index) / n1) + self.stop * (index / n1)
        values[index == 0] = self.start
        values[index == n1] = self.stop
        return values


def _exact_ends(texts: list[str], count: int) -> tuple[int, int, int] | None:
    """The ends as integers a, b over one power-of-ten scale, if both are decimal literals
    (of at most 400 digits and exponents: 1e400 is inf, and no end)."""
    texts = [t.strip().replace("\u2212", "-") for t in texts]
    if not all(re.match(_DECIMAL, t) for t in texts):
        return None
    from decimal import Decimal         # only a --grid with decimal ends needs them
    from fractions import Fraction

    if any(abs(Decimal(t).adjusted()) > 400 or len(t) > 400 for t in texts):
        return None
    (a, p), (b, q) = (Fraction(Decimal(t)).as_integer_ratio() for t in texts)
    scale = p * q // math.gcd(p, q)
    return a * (scale // p), b * (scale // q), scale


def only_with_points(points_file, points_format, columns, skip_bad_rows) -> None:
    """--points-format, --columns and --skip-bad-rows are about --points input: without
    it, given, they are an error (a --points left out would go unseen)."""
    given = [option for option, value in (("--points-format", points_format),
                                          ("--columns", columns),
                                          ("--skip-bad-rows", skip_bad_rows)) if value]
    if points_file is None and given:
        raise ValuesError(f"{', '.join(given)} {'is' if len(given) == 1 else 'are'} for "
                          "--points input, and there is none")


def parse_values(at, grid, default_count: int | None = None):
    """--at's point and --grid's axes, and the warnings of values beyond float64's range
    (1e999 is inf) for the caller to give."""
    said: list[str] = []
    return parse_at(at, said), parse_grid(grid, default_count, said), said


def parse_grid(options, default_count: int | None = None,
               said: list | None = None) -> dict[str, Axis]:
    """``--grid x=0:1:5`` (start:stop:count, both ends included) per variable; with a
    ``default_count``, ``x=0:1`` (no count) is allowed too and has that many values
    (``said``: constant_value's)."""
    axes: dict[str, Axis] = {}
    for text in options:
        for name, spec in _pairs("--grid", text):
            parts = _grid_parts(text, name, spec, default_count)
            count = _whole_count(parts[-1].strip())
            if len(parts) != 3 or not count.isdigit() or not count.isascii() \
                    or not count.strip("0"):
                raise ValuesError(f"--grid {quote(text)}: {quote(spec)} is not "
                                  f"{_grid_form(default_count)}")
            if name in axes:
                raise ValuesError(f"--grid {quote(text)}: {name} is given more than once")
            count = count.lstrip("0")           # 0005 is 5; a 5,000-digit count is too many
            if len(count) > 12 or math.prod([a.count for a in axes.values()] + [int(count)]) \
                    > MAX_GRID_POINTS:
                raise ValuesError(f"--grid {quote(text)}: the grid would have more than "
                                  f"{MAX_GRID_POINTS:,} points; stream more with --points")
            start, stop = (constant_value(p, f"--grid {name}", said) for p in parts[:2])
            if not (math.isfinite(start) and math.isfinite(stop)):  # 0/0:1 spans nothing
                raise ValuesError(f"--grid {quote(text)}: "
                                  f"{_not_finite(parts[:2], (start, stop))}the ends of the "
                                  "range must be finite numbers")
            if count == "1" and start != stop and default_count is None:
                raise ValuesError(_one_value(text, name, *(p.strip() for p in parts[:2])))
            axes[name] = Axis(start, stop, int(count), _exact_ends(parts[:2], int(count)))
    return axes


def _grid_form(default_count: int | None) -> str:
    """A grid's form as a command takes it: with a default count (plot's), the count may
    be left out, and fewer than 2 values draw nothing."""
    if default_count is None:
        return "start:stop:count with a whole count of at least 1"
    return "start:stop or start:stop:count with a whole count of at least 2"


def _grid_parts(text: str, name: str, spec: str, default_count: int | None) -> list[str]:
    """start, stop and count as typed (the default count where a command has one and
    none is given), or the error that names what is missing: the start or the stop
    left out would otherwise be blamed as an empty expression, or the whole as malformed."""
    parts = split_top_level(spec, ":")
    if ".." in spec:        # 0..1, as ranges are written elsewhere: no number holds ".."
        typed = ":".join(p.strip() for p in split_top_level(spec.replace("..", ":"), ":"))
        count = ":COUNT" if default_count is None and typed.count(":") == 1 else ""
        raise ValuesError(f"--grid {quote(text)}: a range is written with ':', not '..': "
                          f"write {quote(f'{name}={typed}{count}')}")
    if len(parts) in (2, 3):
        missing = [end for end, part in zip(("start", "stop", "count"), parts)
                   if not part.strip()]
        if missing:
            named = " and ".join([", ".join(missing[:-1]), missing[-1]] if missing[1:]
                                 else missing)
            raise ValuesError(f"--grid {quote(text)}: the {named} "
                              f"{'is' if len(missing) == 1 else 'are'} missing "
                              f"({_grid_form(default_count)})")
    if len(parts) == 2 and default_count is not None:
        parts.append(str(default_count))
    return parts


def _one_value(text: str, name: str, start: str, stop: str) -> str:
    """The error of a count of 1 between two different ends: its one value is the start,
    so the stop, though typed, would be dropped."""
    return (f"--grid {quote(text)}: a count of 1 holds one value, so it cannot include "
            f"both {start} and {stop}: give a count of at least 2 ({start}:{stop}:2), or "
            f"for the one value {start}:{start}:1 or --at {name}={start}")


def _not_finite(texts: list[str], values: tuple[float, float]) -> str:
    """Why a --grid's ends are not finite, as typed (1e400 reads as inf, 0/0 is nan), as
    the start of its error; nothing for an end typed as inf or nan, which says it."""
    why = []
    for text, value in zip(texts, values):
        if not math.isfinite(value):
            typed = text.strip()
            beyond = out_of_range(text, value)
            if beyond or not is_number(typed):
                why.append(beyond or f"{typed} is {format_number(value)}")
    return ", and ".join(why) + ": " if why else ""


def _whole_count(text: str) -> str:
    """A count written 1e3, 2.5E3 or 10.0 as the digits of that whole number (1e9 is then
    said to be too many, not malformed); other text as it is."""
    if not re.fullmatch(r"\d+(\.\d*)?([eE]\+?\d+)?", text):
        return text
    from decimal import Decimal

    value = Decimal(text)
    if value.adjusted() > 12:
        return "1" + "0" * 13       # too many, whatever it is
    return str(int(value)) if value == value.to_integral_value() else text


class Chunk(Record):
    """Up to a chunk's worth of points: a float64 array per variable, and the columns of a
    points stream that are not variables (ids, labels), passed through as read."""

    _fields = ("values", "n", "extra")

    def __init__(self, values: dict[str, np.ndarray], n: int,
                 extra: dict[str, list] | None = None):
        self.values, self.n, self.extra = values, n, {} if extra is None else extra


class PointSource(Record):
    """Fixed values, grid axes and an optional points stream, combined chunk by chunk."""

    _fields = ("fixed", "grid", "stream", "skip_bad_rows", "chunk_size", "skipped",
               "stream_format", "columns")

    def __init__(self, fixed: dict[str, float] | None = None, grid: dict[str, Axis] | None = None,
                 stream=None, skip_bad_rows: bool = False, chunk_size: int = 65536,
                 skipped: list[str] | None = None, stream_format: str | None = None,
                 columns: list[str] | None = None):
        self.fixed = {} if fixed is None else fixed
        self.grid = {} if grid is None else grid
        self.stream = stream                    # an open text file of points
        self.skip_bad_rows, self.chunk_size = skip_bad_rows, chunk_size
        self.skipped = [] if skipped is None else skipped
        self.commented: list[int] = []          # lines of '#' comments that read as rows
        self.stream_format = stream_format      # one of STREAM_FORMATS; None: detect it
        self.columns = columns                  # names for headerless input (--columns)
        self.variables: list[str] = []          # stream columns read as numbers (see use())
        self.unused: list[str] = []             # --grid names no expression uses (use())
        self._first_row = True                  # no row of the stream read yet

    @property
    def total(self) -> int | None:
        """How many points there will be, when known before reading them."""
        return None if self.stream is not None else math.prod(a.count for a in self.grid.values())

    def names(self) -> list[str]:
        header = self._header()
        names = [*self.fixed, *self.grid, *header]
        return AnyNames(names) if isinstance(header, AnyNames) else names

    def written_header(self) -> list[str]:
        """The points file's column names as read (x₁, not x1), for messages."""
        reader = self._reader if self.stream is not None else None
        return list(getattr(reader, "written", None) or self._header())

    def check(self) -> None:
        if self.grid and self.stream is not None:
            raise ValuesError("--grid and --points cannot be combined: put every varying "
                              "variable in the points file (--at may fix the others)")
        clashes = (set(self.fixed) & set(self.grid)) | \
                  (set(self.fixed) | set(self.grid)) & set(self._header())
        if clashes:
            first, *others = sorted(clashes)
            also = f" ({', '.join(map(escape, others))} too)" if others else ""
            raise ValuesError(f"{escape(first)} given more than once: as "
                              f"{' and as '.join(self.given_as(first))}{also}")

    def given_as(self, name: str) -> list[str]:
        """Where a name got a value: --at x=5, --grid x=0:1:3, the points file's column."""
        places = []
        if name in self.fixed:
            places.append(f"--at {escape(name)}={format_number(self.fixed[name])}")
        if name in self.grid:
            a = self.grid[name]
            places.append(f"--grid {escape(name)}={format_number(a.start)}:"
                          f"{format_number(a.stop)}:{a.count}")
        if name in self._header():
            places.append(f"the points file's column {escape(name)}")
        return places

    @property
    def beyond(self) -> str | None:
        """Cells of the points file written beyond float64's range, or whose expression
        has no finite value, in words, if any: the first, and how many more were read as
        it was (inf) or otherwise (0; an expression's inf or nan)."""
        kinds = self._reader.beyond if self.stream is not None else {}
        if not kinds:
            return None
        (count, first), *others = kinds.values()
        more = [f"{count - 1} more such cell{'s' * (count > 2)}"] if count > 1 else []
        more += [f"{n} more cell{'s' * (n > 1)} {_BEYOND[kind]}"
                 for kind, (n, _) in list(kinds.items())[1:]]
        return f"{first} (and {', and '.join(more)})" if more else first

    @property
    def left_out(self) -> str | None:
        """JSON Lines keys that are no column (not in the first object), in words, if any."""
        count, first = self._reader.unnamed if self.stream is not None else (0, None)
        return first if count < 2 else \
            f"{first} (as were such keys on {count - 1} more line{'s' * (count > 2)})"

    def constant_columns(self) -> dict[str, str]:
        """The stream's columns named as a constant of the language (e, pi, π): which."""
        return {c: CONSTANT_SPELLINGS.get(c, c) for c in self._header()
                if CONSTANT_SPELLINGS.get(c, c) in CONSTANTS}

    def constant_clash(self, column: str) -> ValuesError:
        """The error of ``column``, named as a constant the expression uses, as --at's
        (e=0.5: e is a constant), with how to give the column's values to a variable."""
        constant = CONSTANT_SPELLINGS.get(column, column)
        header = self._header()
        new = next(f"{constant}{k}" for k in itertools.count(1)
                   if f"{constant}{k}" not in header)
        names = ",".join(new if c == column else c for c in header)
        names = f"--columns {names}" if len(names) <= 60 else \
            f"--columns, that one {new}"     # (a long header is not spelled out)
        said = (f"{column} is a constant" if column == constant else
                f"{column} is the constant {constant}") + \
            f" ({CONSTANTS[constant]!r}), which the expression uses, and cannot be given a value"
        if self.columns is not None:
            return ValuesError(f"--columns names a column {quote(column)}: {said}: call the "
                               f"column something else ({names}) and use that name in the "
                               "expression")
        if self._reader.format == "jsonl":
            return ValuesError(f"the points file has a key {quote(column)}: {said}: to use "
                               f"it, give the key another name ({new}, say) and use that "
                               "name in the expression")
        return ValuesError(f"the points file has a column {quote(column)}: {said}: to use "
                           f"the column, rename it in the header and the expression ({new}, "
                           f"say), or leave the header row out and name the columns with "
                           f"{names}")

    def unwritable(self, missing) -> list[str]:
        """How to use the stream's columns whose names no expression can write (df/dx,
        d2f/dx dy: adcli's own derivative headers, piped back in), where every name
        written in one is ``missing`` (f + df/dx is f + df divided by dx), those that
        write every missing name first: a hint for the error about those names, as a list
        of none or one. (First, a header read as one column that another format splits
        into names: 'x y' under --points-format csv.)"""
        header = self._header() if self.stream is not None else []
        misread = self._misread(header, missing) if self.stream is not None else None
        if misread:
            return [misread]
        # (only headers as adcli writes them: x;y is a file separated by ';', said so)
        odd = [c for c in header if not is_name(c) and re.fullmatch(r"[\w/ ^]+", c)]
        odd = [c for c in odd if _pieces(c) == set(missing)] or \
            [c for c in odd if _pieces(c) <= set(missing)]
        if not odd:
            return []
        new = _new_names(header)
        one = len(odd) == 1
        shown, them = ", ".join(map(quote, odd)), "it" if one else "them"
        suggested = ", ".join(new[c] for c in odd)
        said = f"{'a column' if one else 'columns'} {shown}: a name has no '/' or space, " \
            f"so no expression can write {them}"
        if self.columns is not None:
            return [f"--columns names {said}: call {them} {suggested}, say, and use that in "
                    "the expression"]
        if self._reader.format == "jsonl":
            return [f"the points file has {said.replace('column', 'key')}: give {them} "
                    f"another name ({suggested}, say) and use that in the expression"]
        names = ",".join(new.get(c, c) for c in header)
        names = f"--columns {names}" if len(names) <= 60 else \
            f"--columns, {'that one' if one else 'those'} {suggested}"
        return [f"the points file has {said}: rename {them} in the header ({suggested}, "
                f"say) and use that in the expression, or leave the header row out (tail "
                f"-n +2) and name the columns with {names}"]

    def _misread(self, header: list[str], missing) -> str | None:
        """Where a header read as one column is names between another format's separators,
        a ``missing`` one among them, which format reads it: the stream's format is given
        wrong (x,y under --points-format tsv), as detecting it would not have read it so.
        A first line that is a JSON array ([1]) was read as a header: JSON Lines' rows are
        objects."""
        if self.columns is not None or self._reader.format == "jsonl":
            return None
        written = self._reader.written
        separator = next(s for s, _, f in _SEPARATORS if f == self._reader.format) or " "
        if _json_array(separator.join(written)):
            shown = ", ".join(map(quote, written))
            return (f"the points file has columns {shown}; its first line looks like a JSON "
                    "array, and JSON Lines takes an object a line ({\"x\": 1}, its keys the "
                    f"names), so the file was read as {self._reader.format.upper()}")
        if len(header) != 1:
            return None
        written = written[0]
        for separator, name, format_ in _SEPARATORS:
            pieces = [p.strip() for p in written.split(separator)]
            if format_ != self._reader.format and len(pieces) > 1 and all(map(is_name, pieces)) \
                    and set(missing) & set(map(normal_name, pieces)):
                return (f"the points file has columns {quote(written)}; its fields look "
                        f"separated by {name}: read it with --points-format {format_}, or "
                        "drop --points-format to detect the format from the first line")
        return None

    def holding(self, name: str) -> str | None:
        """Where the points file (or --columns) gives ``name`` values, as an error names
        it: "the points file has a column 'F'"; None where --at or --grid does."""
        if name in self.fixed or name in self.grid:
            return None
        if self.columns is not None:
            return f"--columns names a column {quote(name)}"
        key = "key" if self._reader.format == "jsonl" else "column"
        return f"the points file has a {key} {quote(name)}"

    def use(self, variables, named=()) -> None:
        """Read these stream columns as numbers; every other column passes through, and so
        do the --grid names that are not ``variables``: a --grid of one repeats every point,
        which only its column tells apart. (An unused --at value is the same in every row:
        a column of it would only move the others, so it is a warning alone; and a name the
        output names otherwise, ``named`` (--wrt x: its derivative), is not a column too.)"""
        header = self._header()
        # (a column is matched by its name as the expression writes it, x₁ by x1: two
        # such columns of one variable are an error)
        self._numbers = sorted(self._reader.matched(variables).values()) \
            if self.stream is not None else []
        self.variables = [header[k] for k in self._numbers]
        used = set(variables)
        self.unused = [n for n in self.grid if n not in used and n not in named]

    @property
    def commented_header(self):
        """A comment just before the points file's first line that names its columns (see
        StreamReader), or None."""
        return getattr(self._reader, "commented_header", None) if self.stream is not None \
            else None

    @property
    def extra_names(self) -> list[str]:
        return [*self.unused, *self._passed()]

    def _passed(self) -> list[str]:
        """The stream's columns that pass through, named as read (x² is no x2 there)."""
        return [self._reader.written[k] for k in self._passed_at()] \
            if self.stream is not None else []

    def _passed_at(self) -> list[int]:
        numbers = set(getattr(self, "_numbers", ()))
        return [k for k in range(len(self._header())) if k not in numbers]

    def chunks(self):
        if self.stream is not None:
            yield from self._stream_chunks()
        else:
            yield from self._grid_chunks()

    def _made(self, columns: dict[str, np.ndarray], n: int, extra=None) -> Chunk:
        """A chunk of n points: these columns, --at's values, and the passed-through
        columns, the unused --grid names' first: as a points file's, text (each float's
        repr, as adcli writes a coordinate)."""
        values = {name: np.full(n, value) for name, value in self.fixed.items()}
        values.update(columns)
        shown = {name: list(map(repr, values[name].tolist())) for name in self.unused}
        return Chunk(values, n, {**shown, **(extra or {})})

    def _grid_chunks(self):
        names, axes = list(self.grid), list(self.grid.values())
        shape = [a.count for a in axes]
        total = math.prod(shape)
        for start in range(0, total, self.chunk_size):
            index = np.arange(start, min(total, start + self.chunk_size))
            # Row-major order: the last --grid varies fastest, as in nested loops.
            unravelled = np.unravel_index(index, shape) if axes else []
            columns = {n: a.values(i) for n, a, i in zip(names, axes, unravelled)}
            yield self._made(columns, len(index))

    # ----- points streams --------------------------------------------------------------

    def _header(self) -> list[str]:
        if self.stream is None:
            return []
        if not hasattr(self, "_reader"):
            self._reader = StreamReader(self.stream, self.stream_format, self.columns,
                                        self.skip_bad_rows)
        return self._reader.columns

    def _stream_chunks(self):
        names = self._header()
        reader = self._reader
        numbers = getattr(self, "_numbers", [names.index(v) for v in self.variables])
        passed = self._passed_at()
        rows: list[list[float]] = []
        extras: list[list] = []
        read = False    # a good row
        try:
            for record in reader.batches(self.chunk_size, numeric=not passed):
                if not isinstance(record, tuple):   # a block of rows, already numbers
                    self._first_row, read = False, True
                    if rows:
                        yield self._chunk(rows, extras)
                        rows, extras = [], []
                    yield self._block_chunk(record[:, numbers])
                    continue
                line, fields = record
                row = self._row(line, fields, numbers)
                if row is None:
                    continue
                rows.append(row)
                read = True
                extras.append([fields[i] for i in passed])
                if len(rows) == self.chunk_size or reader.waits():
                    yield self._chunk(rows, extras)
                    rows, extras = [], []
        except PointsError:
            if rows:                    # the good rows before a bad one are still results
                yield self._chunk(rows, extras)
            raise
        if rows:
            yield self._chunk(rows, extras)
        elif self.skipped and not read:
            # Every row was bad: an output of no points would pass for a success.
            raise PointsError(f"every row of the points file was bad ("
                              f"{_count(len(self.skipped), 'row')} skipped by "
                              "--skip-bad-rows): there is no point to evaluate")

    def _row(self, line: int, fields: list, numbers: list[int]) -> list[float] | None:
        if isinstance(fields, Hashed):
            return self._comment(line, fields, numbers)
        first, self._first_row = self._first_row, False
        try:
            # (a streams.Bad row is empty: its error is raised; JSON Lines without an
            # object has no columns, so there an empty row is checked for)
            if len(fields) != len(self._reader.columns) or not fields:
                raise getattr(fields, "error", None) or PointsError(
                    f"points file line {line}: {_count(len(fields), 'field')}, "
                    f"{self._named()}{self._spaced_quote(fields)}{self._ends_in(fields)}"
                    f"{self._decimal_comma(fields, first)}")
            columns, note = self._reader.columns, self._reader.note
            return [number(fields[i], line, columns[i], note) for i in numbers]
        except PointsError as error:
            if not isinstance(fields, Bad) and self._header_again(fields):
                error = PointsError(
                    f"points file line {line}: a repeated header row (the column names, as "
                    f"on line {self._reader.header_line}: files joined with cat?): keep the "
                    "first file's header alone: { cat a.csv; tail -n +2 b.csv; } | adcli "
                    "... --points -")
            # (only under --columns: a header read as CSV, x,y, is no space-separated
            # file, and --points-format plain would read it as one column)
            elif first and not isinstance(fields, Bad) and self.columns is not None and \
                    (other := split_otherwise(fields, len(self._reader.columns))):
                error = PointsError(f"{error}; {other}")
            elif first and not isinstance(fields, Bad) and self._looks_named(fields):
                error = PointsError(f"{error}; line {line} looks like a header row (no field "
                                    "in it is a number): leave out --columns to take the "
                                    "column names from it")
            if not self.skip_bad_rows:
                raise error from None
            self.skipped.append(str(error))
            return None

    def _spaced_quote(self, fields: list) -> str:
        """Why a CSV row may have more fields than meant: ``1, "a, b"`` quotes nothing (a
        quote opens a quoted field only first in it), so its comma splits the text. Only
        where that quote is closed in a later field: ``1, "a", 2`` split nothing."""
        def split_open(f) -> bool:
            text = f.strip() if isinstance(f, str) else ""
            return f[:1].isspace() and text[:1] == '"' and not (len(text) > 1 and
                                                                 text[-1] == '"')
        if self._reader.format != "csv" or not any(split_open(f) for f in fields):
            return ""
        return " (a quote after a space does not quote the field: remove the space after " \
               "the comma)"

    def _ends_in(self, fields: list) -> str:
        """Why a row has a field more than its header: an empty one after a separator that
        ends it (1,2, under x,y; a header ending in one too leaves such a field out). Not
        a quoted empty field (1,2,""): that one was written, and read, as a field."""
        if len(fields) != len(self._reader.columns) + 1 or not isinstance(fields[-1], str) \
                or fields[-1].strip() or self._reader.trailing:
            return ""
        raw = self._reader.last_line
        if raw is not None and raw.rstrip("\r\n ")[-1:] not in (",", "\t"):
            return ""
        return " (the last field is empty: a separator at the end of the row)"

    def _decimal_comma(self, fields: list, first: bool) -> str:
        """Why a CSV's first row may have a field more than the header has: a number
        written with a decimal comma (1,5), split at it. Said only where every field is
        a whole number, as such a number's two halves are, and one after another has no
        sign, as its second half has none; and only under a header row that ends in a
        name (under --columns, or x, over 1,5, the field may well be one more column)."""
        if not first or self._reader.format != "csv" or self.columns is not None or \
                self._reader.trailing or len(fields) != len(self._reader.columns) + 1:
            return ""
        texts = [f.strip() if isinstance(f, str) else "" for f in fields]
        if not all(re.fullmatch(r"[+-]?\d+", t) for t in texts):
            return ""
        k = next((k for k in range(1, len(texts)) if texts[k].isdigit()), None)
        if k is None:
            return ""
        before, after = texts[k - 1], texts[k]
        grouped = f" (or {before}{after} if it groups digits)" if len(after) == 3 else ""
        return (f"; if a comma is a decimal point ({before},{after} for {before}.{after}), "
                f"write {before}.{after}{grouped}: a comma separates CSV fields")

    def _named(self) -> str:
        """Where a row's number of fields comes from: the header, or --columns."""
        count = len(self._reader.columns)
        if self.columns is None and self._reader.trailing:
            # (x,y, over 1,2,3: the header's empty last field was taken for no column)
            return f"the header names {count}: its column {count + 1} has no name"
        if self.columns is None:
            return f"the header has {count}"
        return f"but --columns names {_count(count, 'column')}"

    def _header_again(self, fields: list) -> bool:
        """Whether a row that cannot be read is the header row once more."""
        return getattr(self._reader, "header_line", None) is not None and \
            names_again(fields, self._reader.columns)

    def _looks_named(self, fields: list) -> bool:
        """Whether a row read under --columns is a header: names, no field a number (a
        first line of names that --columns made a row)."""
        if self.columns is None or not fields:
            return False
        texts = [f.strip() if isinstance(f, str) else "" for f in fields]
        return all(texts) and not any(map(is_number, texts))

    def line_of(self, read: int) -> int | None:
        """The line of the last of ``read`` rows read, when sure of it. Chunks do not carry
        their rows' lines, so only where the reader's line count is the header (if any)
        and the rows: no blank line, comment or skipped row came before them, and none was
        read ahead."""
        reader = getattr(self, "_reader", None)
        header = 0 if self.columns is not None or getattr(reader, "format", "") == "jsonl" \
            else 1
        return read + header if getattr(reader, "line", None) == read + header else None

    def _comment(self, line: int, fields: list, numbers: list[int]) -> None:
        """A '#' line is a comment, as documented; one that reads as a row (#ff0000,1 under
        color,x: an id, a colour) is counted, so that stderr says it was left out."""
        if isinstance(fields, Bad) or len(fields) != len(self._reader.columns):
            return None
        try:
            for i in numbers:
                number(fields[i], line, self._reader.columns[i])
        except PointsError:
            return None
        self.commented.append(line)
        return None

    def _chunk(self, rows, extras) -> Chunk:
        data = np.array(rows, dtype=np.float64).reshape(len(rows), len(self.variables))
        extra = {n: [e[i] for e in extras] for i, n in enumerate(self._passed())}
        return self._block_chunk(data, extra)

    def _block_chunk(self, data: np.ndarray, extra=None) -> Chunk:
        """A chunk of rows of numbers: one column of ``data`` per variable, in order."""
        columns = {n: data[:, i] for i, n in enumerate(self.variables)}
        return self._made(columns, len(data), extra)


def _json_array(text: str) -> bool:
    """Whether a header row's text, its names joined again, is a JSON array: [1], [1, 2]."""
    import json

    try:
        return text.startswith("[") and isinstance(json.loads(text), list)
    except (ValueError, RecursionError):
        return False


def _pieces(column: str) -> set[str]:
    """The names written in a column's name: df and dx in df/dx."""
    return set(re.findall(r"\w+", column)) or {None}     # (no name: a subset of none)


def _new_names(header: list[str]) -> dict[str, str]:
    """A name of the language for each column that has none, taken by no other column."""
    new, taken = {}, set(header)
    for column in (c for c in header if not is_name(c)):
        new[column] = next(n for n in _renamed(column) if n not in taken)
        taken.add(new[column])
    return new


def _renamed(column: str):
    """Names a column with no name of the language may take: df_dx for df/dx, then
    df_dx1, df_dx2, ..."""
    base = re.sub(r"\W+", "_", column).strip("_")
    if not is_name(base):
        base = "c_" + base
    yield base
    yield from (f"{base}{k}" for k in itertools.count(1))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' * (n != 1)}"


def chunk_size_for(node_count: int) -> int:
    """Points per chunk so one chunk's graph stays near 256 MB whatever the expression."""
    return int(np.clip(2**25 // max(1, node_count), 1, 65536))
