"""How results look: rich tables for people; JSON, JSON Lines, CSV, TSV and plain text for
scripts. A format is one writer class and one entry of FORMATS.

Every format but the table is written chunk by chunk as points are computed (and flushed),
so a long run that stops early keeps every complete point. ``--digits`` rounds results only:
the coordinates identify the point and are always printed in full, and the columns of a
points file that are not variables (an id, a label) are passed through as they were read.
"""
from __future__ import annotations

import math

from .errors import ValuesError, quote
from .records import Record


def writer(fmt: str, command, out, digits: int | None = None, header: bool = True,
           width: int | None = None):
    return FORMATS[fmt](command, out, digits, header=header, width=width)


def number_text(value: float, digits: int | None = None) -> str:
    """Shortest text that reads back as the same float64, or rounded to ``digits``."""
    value = float(value)
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if digits is None:
        return repr(value)
    text = f"{value:.{digits}g}"
    while math.isinf(float(text)):  # 1.65e308 to 1 digit, 2e+308, would read back as inf:
        digits += 1                 # the fewest more digits that stay in range (1.7e+308)
        text = f"{value:.{digits}g}"
    return text


def number_json(value: float, digits: int | None = None):
    """A number for JSON: nan and infinities as strings; rounded to ``digits``, a float
    that adcli's JSON writes with the digits CSV and tables show (json_digits)."""
    text = number_text(value, digits)
    if text in _NOT_FINITE:
        return text
    if digits is None:
        return float(text)
    from .jsontext import Number

    return Number(json_digits(text))


_NOT_FINITE = {"nan": '"nan"', "inf": '"inf"', "-inf": '"-inf"'}   # their JSON text


def json_digits(text: str) -> str:
    """A number rounded by number_text as JSON writes it: the same digits as CSV and
    tables (4.64e+10, not float's repr of it, 46400000000.0), ".0" after a whole number
    without an exponent (as float's repr ends one: a reader that types its numbers gets
    a float, and -0.0 keeps its sign, which the JSON integer -0 loses in Python)."""
    return text if "." in text or "e" in text else text + ".0"


class Rows(Record):
    """A computed chunk of n points: their coordinates, one array per column, and the
    passed-through columns of a points file (name -> values as read)."""

    __slots__ = _fields = ("at", "columns", "n", "extra", "warnings")

    def __init__(self, at: dict, columns: list, n: int, extra: dict | None = None,
                 warnings=()):
        self.at, self.columns, self.n = at, columns, n
        self.extra = {} if extra is None else extra
        # ((function, kind, why), indices of the points it marks, the other witness's
        # numbers there): JSON's "warnings" (report.warned)
        self.warnings = warnings

    def __len__(self):
        return self.n

    def head(self, k: int) -> Rows:
        """The first k points."""
        return Rows({n: a[:k] for n, a in self.at.items()}, [c[:k] for c in self.columns], k,
                    {n: v[:k] for n, v in self.extra.items()},
                    [(key, indices[indices < k], {f: v[indices < k] for f, v in numbers.items()})
                     for key, indices, numbers in self.warnings])


def _lines(command, rows: Rows) -> list[list[float]]:
    """Each point as one list of floats: its coordinates (in ``command.names`` order), then
    the command's columns. One numpy-to-Python conversion per chunk."""
    import numpy as np

    columns = [rows.at[name] for name in command.names] + list(rows.columns)
    n = len(rows)
    return np.column_stack(columns).tolist() if columns and n else [[] for _ in range(n)]


def _extras(rows: Rows) -> list[list]:
    """Each point's passed-through values, in column order."""
    return [list(values) for values in zip(*rows.extra.values())] if rows.extra \
        else [[] for _ in range(len(rows))]


def extra_text(value) -> str:
    """A passed-through value as text: strings as read, JSON values as JSON (its numbers
    as written: jsontext writes a JSON Lines number's text, json its float's repr)."""
    value = finite_json(value)
    if isinstance(value, str):  # as read, or nan and inf as adcli writes them
        return value
    from . import jsontext

    return "" if value is None else jsontext.dumps(value, ensure_ascii=False)


def pair_text(value) -> str:
    """A passed-through value in a point's ``name=value, name=value`` (trace's "at" line,
    a matrix's title): as read where it reads as one value, else (empty, spaced at an end,
    holding a comma, "=", a quote or an unprintable character) quoted as Python quotes a
    string, a quote or backslash inside escaped, so that it ends where its quotes close:
    id="it's", id="a', x=1" (not id='a', x=1')."""
    text = extra_text(value)
    if text and text == text.strip() and text.isprintable() \
            and not any(c in text for c in ",='\""):
        return text
    return repr(text)


def finite_json(value):
    """A passed-through JSON value with its nan and infinities (NaN, 1e400 in JSON Lines
    as Python reads them) spelled as adcli spells its numbers: "nan", "inf", "-inf"; a
    number that keeps its text (1e400) is written as that, which is JSON. (A loop, not
    recursion: a value as deep as json reads from JSON Lines passes through.)"""
    if isinstance(value, (list, dict)):
        from . import jsontext

        return jsontext.copied(value, _finite)
    return _finite(value)


def _finite(value):
    """A JSON leaf as finite_json writes it."""
    if isinstance(value, float) and not math.isfinite(value) and not hasattr(value, "text"):
        return number_text(value)
    return value


_SLICE = 16384    # points formatted at a time by the CSV, TSV and plain writers
_TABLE_SLICE = 4096  # points made text at a time by the table (its cells are lists of str)
_TEMPLATED = 64   # points, from which JSON is filled into a template (made once: ~1 ms)


def _reprs(columns: list, start: int, stop: int) -> str:
    """Points start..stop of float64 columns as "a, b], [c, d": each float's repr (as
    number_text writes it, nan and infinities included), made in C by one repr of a list
    of lists. A float's repr has no space, comma or bracket, so these split it safely."""
    import numpy as np

    return repr(np.column_stack([c[start:stop] for c in columns]).tolist())[2:-2]


def _json_texts(column, digits: int | None) -> list[str]:
    """A float64 array's numbers as number_json's give them to adcli's JSON."""
    return [_NOT_FINITE.get(text) or (text if digits is None else json_digits(text))
            for text in _texts(column, digits)]


def _texts(column, digits: int | None = None) -> list[str]:
    """A float64 array's numbers as number_text writes them: without ``digits``, each
    float's repr (nan and infinities included) made in C by one repr of a list."""
    if digits is not None:
        return [number_text(value, digits) for value in column.tolist()]
    return repr(column.tolist())[1:-1].split(", ") if len(column) else []


class _Writer:
    has_header = False      # --no-header applies
    streams = True          # written as computed (else: all at the end)

    def __init__(self, command, out, digits: int | None, header: bool = True,
                 width: int | None = None):
        self.command, self.out, self.digits = command, out, digits
        self.header, self.width = header, width
        self.columns = command.columns()
        self.written = 0        # points written so far
        self.extra: list[str] = []

    def pass_through(self, names: list[str]) -> None:
        """The names of a points file's columns that are passed through."""
        self.extra = list(names)

    def text(self, value) -> str:
        return number_text(value, self.digits)

    def write(self, rows: Rows) -> None:
        self.written += len(rows)

    def close(self) -> None:
        pass

    def notes(self) -> list[str]:
        """What stderr should say of the output itself, once it is written."""
        return []

    def _numbers(self, rows: Rows) -> list:
        """The columns of numbers of each point, in order."""
        return [rows.at[name] for name in self.command.names] + list(rows.columns)

    def _floats(self, rows: Rows) -> bool:
        """Whether the fast writers take these rows: float64 numbers, no --digits."""
        return self.digits is None and self._float64(rows)

    def _float64(self, rows: Rows) -> bool:
        """Whether these rows have numbers, all in float64 arrays."""
        numbers = self._numbers(rows)
        return bool(numbers) and len(rows) > 0 and \
            all(getattr(c, "dtype", None) == "float64" and c.ndim == 1 for c in numbers)


class _LineWriter(_Writer):
    """Formats whose every line is one point: written and flushed as they come."""

    def write(self, rows: Rows) -> None:
        if not len(rows):
            return          # not even a header: a run stopped before its first point
        self._start()
        if self.narrow is not None:
            for name, values in rows.extra.items():
                check_writable(list(map(extra_text, values)), self.narrow,
                          f"a value of column {quote(name)}")
        if self._floats(rows):
            for start in range(0, len(rows), _SLICE):
                self.out.write(self._fast_text(rows, start, min(len(rows), start + _SLICE)))
        else:
            names = len(self.command.names)
            lines = [self.line(extra, point[:names], point[names:])
                     for extra, point in zip(_extras(rows), _lines(self.command, rows))]
            self.out.write("\n".join(lines) + "\n")
        self.out.flush()
        super().write(rows)

    def _fast_text(self, rows: Rows, start: int, stop: int) -> str:
        """The lines of points start..stop, as ``line`` writes them without --digits: the
        repr of a Python list of lists is every float's repr (as number_text gives it, nan
        and infinities included) made in C, and its separators are replaced here."""
        # "a, b], [c, d" -> "a,b\nc,d".
        text = _reprs(self._numbers(rows), start, stop).replace("], [", "\n").translate(
            {ord(" "): None, ord(","): self.separator})
        if rows.extra:
            passed = zip(*(values[start:stop] for values in rows.extra.values()))
            text = "\n".join(self.prefix(extra) + line
                             for extra, line in zip(passed, text.split("\n")))
        return text + "\n"

    def prefix(self, extra) -> str:
        """A line's passed-through fields, each followed by the separator."""
        return self.guarded("".join(self.field(extra_text(v)) + self.separator
                                    for v in extra))

    @staticmethod
    def guarded(line: str) -> str:
        """A line (or its start) that cannot read back as a comment (see TsvWriter)."""
        return line

    def close(self) -> None:
        self._start()  # a points file with no rows still gets its CSV header

    def _start(self) -> None:
        if not getattr(self, "_started", False):
            self._started = True
            self.narrow = narrow(self.out)
            if self.header and self.has_header:
                if self.narrow is not None:
                    check_writable(self.headers(), self.narrow, "a column name")
                self.out.write(self.guarded(self.separator.join(
                    map(self.field, self.headers()))) + "\n")

    def headers(self) -> list[str]:
        return [*self.extra, *self.command.names, *(c.csv for c in self.columns)]

    def line(self, extra: list, at: list[float], results: list[float]) -> str:
        return self.guarded(self.separator.join([*(self.field(extra_text(v)) for v in extra),
                                                 *map(number_text, at),
                                                 *map(self.text, results)]))


def narrow(out) -> str | None:
    """The encoding of ``out`` where it cannot hold every character (no UTF), else None."""
    encoding = getattr(out, "encoding", None) or "utf-8"
    return None if "utf" in encoding.lower() else encoding


def check_writable(texts: list[str], encoding: str, what: str) -> None:
    """Names or cells of CSV, TSV or plain output that ``encoding`` cannot hold are an
    error: the stream would write them as backslash escapes (cli), which read back as
    other text, and these formats have no escape of their own (JSON has: it uses it)."""
    try:
        "".join(texts).encode(encoding)
        return
    except UnicodeEncodeError:
        pass
    except LookupError:     # an encoding Python names but cannot encode with: not ours
        return
    for text in texts:
        try:
            text.encode(encoding)
        except UnicodeEncodeError:
            raise ValuesError(f"the output's encoding ({encoding}) cannot write "
                              f"{quote(text)} ({what}): run with PYTHONIOENCODING=utf-8 "
                              "(or a UTF-8 locale, e.g. LC_ALL=C.UTF-8)") from None


class PlainWriter(_LineWriter):
    """Passed-through columns, the value(s), then the derivatives, space-separated: easy
    for ``read`` and ``awk``, and read back by ``--points - --columns ...``."""

    separator = " "
    split_field = None      # (column, value): the first passed-through field spaces split
    hashed = None           # (column, value): the first line's start that reads as '#'

    def write(self, rows: Rows) -> None:
        if self.split_field is None:
            self.split_field = _split_field(rows.extra)
        if self.hashed is None:
            self.hashed = _hashed_field(rows.extra)
        super().write(rows)

    def notes(self) -> list[str]:
        notes = []
        if self.split_field is not None:
            name, text = self.split_field
            value = quote(text) if text else "'' (empty)"
            notes.append(f"column {quote(name)} has the value {value}: plain output "
                         "separates fields by spaces, so its lines cannot be split back into "
                         "columns (--format tsv or csv keeps every value)")
        if self.hashed is not None:     # (CSV quotes it, TSV escapes it: plain cannot)
            name, text = self.hashed
            notes.append(f"column {quote(name)} has the value {quote(text)}, first on its "
                         "line: plain output has no quoting, so that line reads back as a "
                         "comment (--format tsv or csv keeps every value)")
        return notes

    def line(self, extra, at, results) -> str:
        return " ".join([*map(extra_text, extra), *map(self.text, results)])

    def _numbers(self, rows: Rows) -> list:
        return list(rows.columns)

    @staticmethod
    def field(text: str) -> str:
        return text


def _hashed_field(extra: dict):
    """The first passed-through (column, text) that starts a plain line with '#'."""
    import re

    for name, values in list(extra.items())[:1]:    # (a line starts with the first)
        try:    # text cells, nearly always: looked at in C, one join per chunk
            if not re.search(r"(?:\A|\x00)\s*#", "\x00".join(values)):
                return None
        except TypeError:
            pass    # JSON values: each as extra_text writes it
        for value in values:
            text = extra_text(value)
            if text.lstrip().startswith("#"):
                return name, text
    return None


def _split_field(extra: dict):
    """The first passed-through (column, text) that is empty or holds whitespace."""
    import re

    for name, values in extra.items():
        try:    # text cells, nearly always: looked at in C, one join per chunk
            if "" not in values and not re.search(r"\s", "\x00".join(values)):
                continue
        except TypeError:
            pass    # JSON values: each as extra_text writes it
        for value in values:
            text = extra_text(value)
            if not text or len(text.split()) != 1:
                return name, text
    return None


class CsvWriter(_LineWriter):
    """A field starting with '#' is quoted too: a line of adcli's CSV output must never
    read back as a comment ('#1,2' may be one); and so is one holding a tab, which a
    reader (adcli's too, if it is the first line) could take for TSV's separator, and one
    starting with '{' first on its line, which a reader could take for JSON Lines."""

    has_header, separator = True, ","

    @staticmethod
    def field(text: str) -> str:
        return '"' + text.replace('"', '""') + '"' if any(c in text for c in ',"\n\r\t') or \
            text.lstrip().startswith("#") else text

    @staticmethod
    def guarded(line: str) -> str:
        # (a line per point: the common case, no '{' and no blank first, costs one look)
        if not line.startswith("{") and not (line[:1].isspace()
                                             and line.lstrip().startswith("{")):
            return line
        # A first field starting with '{' is unquoted, so holds no comma: it ends at one.
        end = line.find(",")
        end = len(line) if end < 0 else end
        return f'"{line[:end]}"{line[end:]}'


class TsvWriter(_LineWriter):
    """Tab-separated, no quoting: a tab or line break inside a field is written \\t, \\n,
    and so a backslash \\\\ (a field's own backslash-t is then told from a tab); a line
    that starts with '#' (after any blanks, as the reader strips them: an empty first
    field's tab too) has it written \\#, so that it cannot read back as a comment, as CSV
    quotes such a field ('#3' is an id, not a comment); and so \\{ for a '{', which a
    reader could take for JSON Lines. The
    points reader undoes exactly these (streams._tab_split)."""

    has_header, separator = True, "\t"

    @staticmethod
    def guarded(line: str) -> str:
        start = len(line) - len(line.lstrip())
        return f"{line[:start]}\\{line[start:]}" if line.startswith(("#", "{"), start) \
            else line

    @staticmethod
    def field(text: str) -> str:
        if "\\" in text:
            text = text.replace("\\", "\\\\")
        return text.replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


class _PointWriter(_Writer):
    """JSON points: ``{"at": {...}, "extra": {...}, ...the command's skeleton}``; nan and
    infinities are the strings "nan", "inf", "-inf"."""

    _template = None    # (text with a %s per number, the numbers' columns in that order)

    def text(self, rows: Rows, between: str) -> str:
        """The points' JSON texts joined by ``between``, as ``dumps`` writes the dicts
        ``points`` makes: for float64 numbers without passed-through columns, every point
        is one template filled with the numbers' texts, a slice at a time (the floats'
        reprs made in C, without --digits). json's C encoder writes a rounded Number as
        float's repr, so with --digits only ``dumps`` writes the dicts."""
        if not self._float64(rows) or rows.extra or len(rows) < _TEMPLATED:
            many = len(rows) >= _TEMPLATED and self.digits is None and _all_text(rows.extra)
            return between.join(map(self._many_dumps if many else self.dumps,
                                    self.points(rows)))
        if self._template is None:
            self._template = _template(self, len(self._numbers(rows)))
        text, order = self._template
        numbers = [self._numbers(rows)[i] for i in order]
        rounded = [i >= len(self.command.names) for i in order]   # (never the coordinates)
        slices = []
        for start in range(0, len(rows), _SLICE):
            stop = min(len(rows), start + _SLICE)
            cells = self._cells(numbers, rounded, start, stop)
            slices.append(between.join([text] * (stop - start)) % tuple(cells))
        return between.join(slices)

    def _cells(self, numbers: list, rounded: list[bool], start: int, stop: int) -> list[str]:
        """The JSON texts of points start..stop's numbers, point after point."""
        if self.digits is None:
            # "a, b], [c, d" -> a, b, c, d; JSON spells nan and infinities as strings.
            cells = _reprs(numbers, start, stop).replace("], [", ", ").replace(
                "nan", '"nan"').replace("inf", '"inf"').replace('-"inf"', '"-inf"')
            return cells.split(", ")
        texts = [_json_texts(c[start:stop], self.digits if r else None)
                 for c, r in zip(numbers, rounded)]
        return [text for point in zip(*texts) for text in point]

    def points(self, rows: Rows):
        names = len(self.command.names)
        for extra, line in zip(_extras(rows), _lines(self.command, rows)):
            yield self._point([number_json(v) for v in line[:names]],
                              [number_json(v, self.digits) for v in line[names:]], extra)

    def _point(self, at: list, results: list, extra: list) -> dict:
        from . import jsontext  # here: a table needs none

        if not hasattr(self, "_skeleton"):
            self._skeleton = self.command.skeleton()
        point = {"at": dict(zip(self.command.names, at))}
        if self.extra:
            point["extra"] = dict(zip(self.extra, map(finite_json, extra)))
        point.update(jsontext.copied(self._skeleton))  # its containers are filled in below
        for column, value in zip(self.columns, results):
            _place(point, column.path, value)
        return point

    def dumps(self, value) -> str:
        """json.dumps's text, without importing json (~1.5 ms of a one-point run)."""
        from . import jsontext

        return jsontext.dumps(value, ensure_ascii=not self._utf(), allow_nan=False)

    def _many_dumps(self, value) -> str:
        """The same text by json's C encoder: for many points, where its import pays
        (jsontext takes twice as long a point)."""
        import json

        return json.dumps(value, ensure_ascii=not self._utf(), allow_nan=False)

    def _utf(self) -> bool:
        return "utf" in (getattr(self.out, "encoding", None) or "utf-8").lower()


WARNINGS_KEPT = 1000    # JSON's per-point "warnings"; beyond them, counts by kind


class JsonWriter(_PointWriter):
    """Exactly one JSON object, ``{...command.head(), "points": [...], "warnings": [...],
    "warnings_left_out": [...]}`` (the last two only if there are some), streamed: the
    points are written as they are computed, so memory stays flat. So are the warnings:
    the first WARNINGS_KEPT entries are kept, the rest only counted (jsonl has them all)."""

    def __init__(self, command, out, digits, **options):
        super().__init__(command, out, digits, **options)
        self.warnings: list[dict] = []
        self.left_out: dict[tuple[str, str, str], int] = {}    # (function, kind, why): count

    def write(self, rows: Rows) -> None:
        if len(rows):
            self.out.write((", " if self.written else self._opening()) + self.text(rows, ", "))
            self.out.flush()
        if rows.warnings:
            self._keep(rows)
        super().write(rows)

    def _keep(self, rows: Rows) -> None:
        """The chunk's warnings, in point order, while there is room; then counts."""
        room = max(0, WARNINGS_KEPT - len(self.warnings))
        kept = _first_warnings(rows.warnings, room)
        names = self.command.names
        for i, k in kept:
            point = {"at": {n: number_json(rows.at[n][i]) for n in names}}
            if self.extra:  # (what tells apart points that the coordinates may not)
                point["extra"] = {n: finite_json(rows.extra[n][i]) for n in self.extra}
            self.warnings.append({**point, **_entry(rows.warnings[k], i)})
        taken = [0] * len(rows.warnings)
        for _, k in kept:
            taken[k] += 1
        for k, (key, indices, _) in enumerate(rows.warnings):
            if len(indices) > taken[k]:
                self.left_out[key] = self.left_out.get(key, 0) + len(indices) - taken[k]

    def _opening(self) -> str:
        head = self.command.head()
        if self.command.cautions:  # beside the reading they are about, for scripts too
            head["cautions"] = self.command.cautions
        head = self.dumps(head)[:-1]
        return head + (", " if head != "{" else "") + '"points": ['

    def close(self) -> None:
        warnings = f', "warnings": {self.dumps(self.warnings)}' if self.warnings else ""
        if self.left_out:
            warnings += ', "warnings_left_out": ' + self.dumps(
                [{"function": function, "kind": kind, "why": why, "count": count}
                 for (function, kind, why), count in self.left_out.items()])
        self.out.write(("" if self.written else self._opening()) + "]" + warnings + "}\n")


def _legend_lines(legend: tuple[str, ...], width: int) -> list[tuple[str, int | None]]:
    """A matrix's legend ("f1 = ...") under "read as:", each line with the indent its
    folded lines hang at: under its expression, as the next one's starts. Where that is
    too deep for a line that needs folding (hanging would start it 2 columns in, left of
    its own label), every "fN =" stands on a line of its own, its expression under it."""
    from .tables import cell_len, hanging_room

    lines = [(("read as: " if k == 0 else " " * 9) + line, 9 + line.find(" = ") + 3)
             for k, line in enumerate(legend)]
    if all(cell_len(text) <= width or hanging_room(indent, width)
           for text, indent in lines):
        return lines
    return [("read as:", None)] + [
        pair for line in legend for name, expression in [line.split(" = ", 1)]
        for pair in ((f"  {name} =", None), (f"    {expression}", 4))]


def _first_warnings(warnings: list, room: int) -> list[tuple[int, int]]:
    """The first ``room`` (point index, kind's position in ``warnings``) in point order,
    and for one point in the order of ``warnings``, as the pairs sort."""
    if not room:
        return []
    # A point is marked by several kinds at most once each: the first room of each
    # kind hold the first room of all.
    pairs = [(int(i), k) for k, (_, indices, _) in enumerate(warnings)
             for i in indices[:room]]
    return sorted(pairs)[:room]


def _entry(warning, i: int) -> dict:
    """A warning (report.warned's) as JSON lists it at point i, without its "at"."""
    (function, kind, why), _, _ = warning
    return {"function": function, "kind": kind, "why": why, **_numbers_at(warning, i)}


def _numbers_at(warning, i: int) -> dict:
    """The other witness's numbers at point i of a warning (report.warned's), for its JSON
    entry: ``{"long_double": num}``, with ``"give_or_take"`` where that is its own
    rounding (wider.SPREAD); ``{"forward_mode": num}``; {} for a function's kinds."""
    _, indices, numbers = warning
    if not numbers:
        return {}
    import numpy as np

    j = int(np.searchsorted(indices, i))
    found = {field: float(values[j]) for field, values in numbers.items()}
    return {field: number_json(v) for field, v in found.items()
            if v or field != "give_or_take"}


class JsonLinesWriter(_PointWriter):
    """One JSON object per line and point, as in json's "points" (with the point's own
    "warnings", if any, as its last field): for jq and streams."""

    def write(self, rows: Rows) -> None:
        if len(rows):
            text = self.text(rows, "\n")
            if rows.warnings:
                text = self._warned(text, rows.warnings)
            self.out.write(text + "\n")
            self.out.flush()
        super().write(rows)

    def _warned(self, text: str, warnings: list) -> str:
        """The points' lines (a point's JSON has no raw line break), each marked one with
        its "warnings" before its closing brace: one text per set of kinds, dumped once."""
        import numpy as np

        lines = text.split("\n")
        # Which kinds mark each point, one bit per kind (Python ints past 62 kinds).
        codes = np.zeros(len(lines), dtype=np.int64 if len(warnings) < 63 else object)
        for k, (_, indices, _) in enumerate(warnings):
            codes[indices] |= 1 << k
        numbered = sum(1 << k for k, (_, _, numbers) in enumerate(warnings) if numbers)
        marked = np.flatnonzero(codes)
        tails: dict[int, str] = {}
        for i, code in zip(marked.tolist(), codes[marked].tolist()):
            tail = tails.get(code)
            if tail is None:
                tail = ', "warnings": ' + self.dumps(
                    [_entry(warning, i) for k, warning in enumerate(warnings)
                     if code >> k & 1]) + "}"
                if not code & numbered:   # the same text at every point so marked
                    tails[code] = tail
            lines[i] = lines[i][:-1] + tail
        return "\n".join(lines)


def _all_text(extra: dict) -> bool:
    """Whether the passed-through values are all strings (CSV's), which json's encoder
    writes as jsontext does; a JSON Lines value may hold numbers that keep their text,
    which only jsontext writes."""
    return all(isinstance(v, str) for values in extra.values() for v in values)


def _template(writer: _PointWriter, count: int):
    """A point's JSON text with a %s for each of its ``count`` numbers, and which number
    each %s is (their order in the text): a point of placeholders, dumped as any point is.
    None if the placeholders cannot be told apart from the rest (never for adcli's names)."""
    import re

    holders = [f"\x00{i}\x00" for i in range(count)]
    names = len(writer.command.names)
    text = writer.dumps(writer._point(holders[:names], holders[names:], []))
    text = text.replace("%", "%%")
    held = r'"\\u0000(\d+)\\u0000"'
    order = [int(i) for i in re.findall(held, text)]
    if sorted(order) != list(range(count)):
        return None
    return re.sub(held, "%s", text), order


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
    """Rich tables, laid out to fit the terminal (adcli.tables): a row per point, then the
    command's matrices, one per point. Written once all points are done (the widths of the
    columns depend on every point): until then the points are kept as computed, arrays of
    numbers, and made text a slice at a time, as they are measured and as they are written."""

    streams = False

    def __init__(self, command, out, digits, **options):
        super().__init__(command, out, digits, **options)
        self.chunks: list[Rows] = []

    def write(self, rows: Rows) -> None:
        self.chunks.append(_joined(rows))
        super().write(rows)

    def close(self) -> None:
        from . import tables

        console = tables.console(self.out, self.width)
        if self.command.table_title is not None:
            tables.print_heading(console, [self.command.table_title])
            self._print_points(console)
        index = {column.path: i for i, column in enumerate(self.columns)}
        for matrix in self.command.matrices():
            for line, indent in _legend_lines(matrix.legend, console.width):
                tables.print_heading(console, [line], indent=indent)
            if not matrix.cells:    # (no entries: said once, not a bare title per point)
                tables.print_heading(console, [matrix.title], whole=True)
                continue
            for rows in map(_split, self.chunks):
                for i in range(len(rows)):
                    cells = [[self.text(rows.columns[index[path]][i]) for path in row]
                             for row in matrix.cells]
                    at = self._where(rows, i)
                    title = f"{matrix.title} at" if at else f"{matrix.title} at the point"
                    tables.print_matrix(console, title, matrix.corner, matrix.rows,
                                        matrix.columns, cells, at,
                                        matrix.names)

    def _print_points(self, console) -> None:
        """The table of points: a slice at a time where it can be (a pipe, a file: so a
        million points take tens of MB, not GB), else with every cell made at once."""
        from .tables import Column, print_points, print_rows

        keys = [Column(name, [], "left") for name in self.extra] + \
               [Column(name, [], "right") for name in self.command.names]
        values = [Column(self.columns[i].label, [], "right") for i in self._shown()]
        if print_rows(console, keys + values, self._cells, numbers=len(self.extra)):
            return
        for cells in self._cells():
            for column, texts in zip(keys + values, cells):
                column.cells += texts
        print_points(console, keys, values)

    def _shown(self) -> list[int]:
        """The command's columns that the table of points shows."""
        return [i for i, c in enumerate(self.columns) if c.label is not None]

    def _cells(self):
        """The table of points' cells, a list per column (passed-through, coordinates,
        results), for a slice of points at a time."""
        shown = self._shown()
        for rows in map(_split, self.chunks):
            numbers = self._numbers(rows)
            if not all(getattr(c, "dtype", None) == "float64" and c.ndim == 1
                       for c in numbers):
                yield self._slow_cells(rows, shown)
                continue
            coordinates = numbers[:len(self.command.names)]
            results = [rows.columns[i] for i in shown]
            for start in range(0, len(rows), _TABLE_SLICE):
                stop = min(len(rows), start + _TABLE_SLICE)
                yield [[extra_text(v) for v in values[start:stop]]
                       for values in rows.extra.values()] + \
                    [_texts(c[start:stop]) for c in coordinates] + \
                    [_texts(c[start:stop], self.digits) for c in results]

    def _slow_cells(self, rows: Rows, shown: list[int]) -> list[list[str]]:
        """A chunk's cells, for numbers that are not all float64 arrays: each point's
        numbers as one list (_lines' common type), each number made text on its own."""
        names = len(self.command.names)
        cells = [[] for _ in range(len(self.extra) + names + len(shown))]
        for extra, point in zip(_extras(rows), _lines(self.command, rows)):
            texts = [*map(extra_text, extra), *map(number_text, point[:names]),
                     *(self.text(point[names + i]) for i in shown)]
            for column, text in zip(cells, texts):
                column.append(text)
        return cells

    def _where(self, rows: Rows, i: int) -> list[tuple[str, str]]:
        """Point i as (name, value) pairs: its passed-through columns, then coordinates."""
        return [(n, pair_text(rows.extra[n][i])) for n in self.extra] + \
               [(n, number_text(rows.at[n][i])) for n in self.command.names]


def _joined(rows: Rows) -> Rows:
    """The points as a table keeps them till the end: each passed-through column of texts
    as one string, "\\x00" between them (a million short texts take ~60 MB as str objects,
    ~10 MB joined); an array of one number throughout (--at y=2) as that number; JSON's
    warnings left out. _split gives the texts back."""
    at = {name: _one_number(values) for name, values in rows.at.items()}
    extra = {}
    for name, values in rows.extra.items():
        if all(type(value) is str for value in values):
            text = "\x00".join(values)
            if text.count("\x00") == len(values) - 1:     # (no text holds one)
                extra[name] = text
                continue
        extra[name] = values
    return Rows(at, list(map(_one_number, rows.columns)), rows.n, extra)


def _one_number(values):
    """A float64 array of one number throughout as a view of that number (bit for bit:
    -0.0 is not 0.0 in a table), else the array."""
    import numpy as np

    if getattr(values, "dtype", None) != "float64" or values.ndim != 1 or len(values) < 2:
        return values
    bits = values.view(np.int64)
    if not (bits == bits[0]).all():
        return values
    return np.broadcast_to(values[:1].copy(), values.shape)     # (a view would keep all)


def _split(rows: Rows) -> Rows:
    """rows kept by _joined with their passed-through texts as they were given."""
    extra = {name: values.split("\x00") if isinstance(values, str) else values
             for name, values in rows.extra.items()}
    return Rows(rows.at, rows.columns, rows.n, extra)


FORMATS = {"table": TableWriter, "json": JsonWriter, "jsonl": JsonLinesWriter,
           "csv": CsvWriter, "tsv": TsvWriter, "plain": PlainWriter}
