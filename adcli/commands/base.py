"""What a command is: the columns it produces and how it computes them for a chunk.

A command holds the parsed expressions and the variables it differentiates with respect
to; ``compute`` calls the public Python API only, and the renderers walk ``columns`` and
``matrices`` without knowing which command made them.
"""
from __future__ import annotations

import functools
import itertools
import numpy as np

from ..diagnostics import Diagnostics
from ..records import Record
from ..render import writer


class Column(Record):
    """One number per point. ``path`` places it in the JSON point's ``skeleton``
    (``("gradient", "x")``, ``("hessian", 0, 1)``: a list index appends); ``csv`` and
    ``label`` head it in CSV/TSV and in the points table (None: not shown there).

    Headers never equal a variable's name: a derivative's contains "/" (no name does) and
    the value's is the function's symbol, which ``name_outputs`` picks to differ from
    every input column (``f``, else ``g``, ``h``, ``f_``, ...). (A Record, not a
    NamedTuple: making one compiles code, ~0.06 ms of every start-up.)"""

    __slots__ = _fields = ("path", "csv", "label")
    __hash__ = Record._value_hash

    def __init__(self, path: tuple, csv: str, label: str | None):
        self.path, self.csv, self.label = path, csv, label


class Matrix(Record):
    """A table drawn for each point: ``cells[r][c]`` is the path of a column (none: the
    title alone is shown, once); ``legend``: lines shown once above this kind of matrix;
    ``names``: each entry's own name, where no table fits."""

    __slots__ = _fields = ("title", "corner", "rows", "columns", "cells", "legend", "names")

    def __init__(self, title: str, corner: str, rows: list[str], columns: list[str],
                 cells: list[list[tuple]], legend: tuple[str, ...] = (),
                 names: list[list[str]] | None = None):
        self.title, self.corner, self.rows, self.columns = title, corner, rows, columns
        self.cells, self.legend, self.names = cells, legend, names


class Command:
    """The base of every command; subclasses set ``name`` and fill in the columns."""

    name = ""
    help = ""
    # Its line in adcli --help, whole (click would cut ``help`` to fit it, mid-phrase);
    # "": the first sentence of ``help``.
    summary = ""
    examples: tuple[str, ...] = ()  # shown under --help as typed; the tests run each one
    many = False              # several expressions (one row of output each)
    differentiates = True     # takes --wrt
    options: tuple = ()       # extra click options, e.g. --order
    # How this command's shared options read (cli.points_options): click.option
    # arguments that replace the shared ones, or a str: not taken, and why.
    shared_options: dict = {}
    formats: tuple[str, ...] | None = None  # --format's choices, default first; None: render's
    # A command whose output is not columns of numbers per point (trace, graph) lays it
    # out itself in ``write``; ``values_optional``: it may run with no point at all.
    own_output = False
    values_optional = False
    metavar: str | None = None  # the arguments in the usage line (default: the name)
    grid_count: int | None = None   # the count of a --grid given without one (None: required)
    symbol = "f"              # the function's name in headers (see name_outputs)
    cautions: list[str] = []  # readings rarely meant (x^1/2): JSON's "cautions"

    def __init__(self, expressions, wrt=None, **options):
        self.expressions = expressions
        self.wrt: list[str] = list(self.names if wrt is None else wrt)
        self.options = options

    @classmethod
    def main(cls, texts, wrt=None, **options) -> int | None:
        """Run the command from the CLI's arguments; the exit status (None: 0). Most
        commands stream chunks of points through the pipeline; one that needs all its
        points at once, or its own layout, overrides this."""
        from ..pipeline import run

        return run(cls, texts, wrt, **options)

    @classmethod
    def select(cls, **options) -> type[Command]:
        """The command class that serves these options (``grad --order 3`` is Nth)."""
        return cls

    def check_wrt(self, names: list[str]) -> None:
        """Raise ValuesError if the command cannot differentiate in these variables."""

    def check_source(self, source) -> None:
        """Raise ValuesError if the command cannot use these points (a PointSource, before
        its names are checked against the command's: plot's grid axis is one of them)."""

    def writer(self, fmt: str, out, err, digits: int | None, **options):
        """What writes the results: a render.py format, unless the command draws its own
        output (then it gets each chunk's Rows through ``write``, then ``close``).
        ``options``: render.writer's (header, width)."""
        return writer(fmt, self, out, digits, **options)

    @functools.cached_property
    def names(self) -> list[str]:
        """Every variable that needs a value, in order of first appearance."""
        return list(dict.fromkeys(v for e in self.expressions for v in e.variables))

    @property
    def function_names(self) -> list[str]:
        n = len(self.expressions)
        return [self.symbol] if n == 1 else [f"{self.symbol}{i + 1}" for i in range(n)]

    def name_outputs(self, taken) -> None:
        """Pick the symbol so that no output header is the name of an input column
        (``taken``: the variables, and the columns of a points file passed through)."""
        # A --wrt name that no input has still heads its derivatives: df/df would read
        # as f's derivative by itself
        taken = set(taken) | set(self.wrt)
        # A taken name can rule out only a few symbols (one per header shape), so this
        # many tries find a free one, unless the headers do not use the symbol at all.
        tries = 2 + len(taken) * (2 + len(self.wrt) + len(self.expressions))
        for symbol in itertools.islice(_symbols(), tries):
            self.symbol = symbol
            headers = [h for c in self.columns() for h in (c.csv, c.label) if h is not None]
            if taken.isdisjoint(headers):
                return
        self.symbol = "f"

    def graph_size(self) -> int:
        """Roughly how many arrays one point's evaluation holds (sizes the chunks)."""
        return sum(len(e.nodes) for e in self.expressions)

    def head(self) -> dict:
        """The JSON fields before "points"."""
        e = self.expressions[0]
        return {"expression": e.text, "parsed": e.parsed, "variables": list(self.wrt)}

    def columns(self) -> list[Column]:
        raise NotImplementedError

    def skeleton(self) -> dict:
        """A JSON point after "at", before its numbers are filled in: the keys in order,
        empty containers (kept even when empty), fields shared by every point."""
        raise NotImplementedError

    def write(self, source, out, err, fmt: str, digits: int | None, strict: bool) -> None:
        """Write the whole output for the points of ``source`` (``own_output`` only)."""
        raise NotImplementedError

    def compute(self, chunk: dict[str, np.ndarray], n: int):
        """The columns' arrays, in order, each of shape (n,), and the chunk's
        diagnostics (ORed over the expressions)."""
        raise NotImplementedError

    # How a table shows the results: a points table (None: none) and per-point matrices.
    @property
    def table_title(self) -> str | None:
        return f"read as: {self.expressions[0].parsed}"

    def matrices(self) -> list[Matrix]:
        return []


def free_symbol(taken) -> str:
    """The first of f, g, h, f_, ... that is not in ``taken`` (the names an output's own
    must not be: variables, --let names)."""
    return next(symbol for symbol in _symbols() if symbol not in set(taken))


def _symbols():
    yield from ("f", "g", "h")
    underscores = 1
    while True:             # ends: only finitely many names are taken
        yield "f" + "_" * underscores
        underscores += 1


def at_points(expression, chunk: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    return {v: chunk[v] for v in expression.variables}


def flat(array, n: int) -> np.ndarray:
    return np.broadcast_to(array, (n,))


def merged(n: int, results) -> Diagnostics:
    diagnostics = Diagnostics((n,))
    for result in results:
        diagnostics.merge(result.diagnostics)
    return diagnostics
