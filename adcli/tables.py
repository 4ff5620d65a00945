"""Tables for people, laid out so that no number or name is ever cut.

rich squeezes a table wider than the terminal by cutting cells ("1…", "∂f/…"). So every
table is measured before it is drawn, and when it would not fit it changes layout:

- points: one row per point if that fits; otherwise one column per point, a row per
  quantity (coordinates, then results), as many points side by side as fit;
- matrices: whole if they fit; otherwise their columns in several tables, each repeating
  the row labels;
- and when not even one value fits beside its label, ``label = value`` lines.

Headings ("read as: ...") wrap instead of being cut, and a very long one is shortened
visibly in the middle. Only imported to print a table: rich stays off the start-up path.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .errors import escape

PIPE_WIDTH = 10_000     # a pipe or a file has no width: one row per point, always
LONG_HEADING = 500      # characters; a longer heading shows its head and tail


@dataclass
class Column:
    header: str
    cells: list[str] = field(default_factory=list)
    justify: str = "right"

    @property
    def width(self) -> int:
        return max([cell_len(self.header), *map(cell_len, self.cells)])


class _Console(Console):
    def on_broken_pipe(self) -> None:
        # rich would exit with status 1; a reader that has seen enough is no error, and
        # the CLI says so (exit 0, nothing on stderr).
        self.quiet = True
        raise BrokenPipeError


def console(out, width: int | None = None) -> Console:
    if width is None:
        width = _terminal_width(out) if out.isatty() else PIPE_WIDTH
    return _Console(file=out, width=width, highlight=False, markup=False, emoji=False,
                    soft_wrap=False)


def _terminal_width(out) -> int | None:
    """The width of the terminal the table goes to (rich would measure stdin's first),
    unless COLUMNS says otherwise (rich reads it)."""
    if os.environ.get("COLUMNS", "").isdigit():
        return None
    try:
        return os.get_terminal_size(out.fileno()).columns
    except (AttributeError, OSError, ValueError):
        return None


def table_width(widths) -> int:
    """The width rich draws a table at (default box, one space of padding each side)."""
    widths = list(widths)
    return sum(widths) + 3 * len(widths) + 1


def shorten(text: str, limit: int = LONG_HEADING) -> str:
    """Text of at most about ``limit`` characters: the middle of a longer one is replaced
    by "…", and its length is said."""
    if len(text) <= limit:
        return text
    half = (limit - 80) // 2
    return (f"{text[:half]} … {text[-half:]} ({len(text):,} characters in all; "
            "--format json gives them whole)")


def print_heading(console: Console, lines: list[str]) -> None:
    for line in lines:
        console.print(Text(shorten(escape(line)), overflow="fold"))


def print_points(console: Console, keys: list[Column], values: list[Column]) -> None:
    """A row per point (keys: what identifies it) if it fits, else a column per point."""
    columns = keys + values
    if table_width(c.width for c in columns) <= console.width:
        table = Table()
        for column in columns:
            table.add_column(Text(column.header), justify=column.justify, no_wrap=True)
        for row in zip(*(c.cells for c in columns)):
            table.add_row(*(Text(escape(cell)) for cell in row))
        console.print(table)
        return
    n = len(columns[0].cells) if columns else 0
    labels = [c.header for c in columns]
    points = [Column(f"point {i + 1}" if n > 1 else "", [c.cells[i] for c in columns])
              for i in range(n)]
    _print_across(console, labels, points, sections=len(keys))


def print_matrix(console: Console, title: str, corner: str, rows: list[str],
                 headers: list[str], cells: list[list[str]]) -> None:
    """A matrix with row labels; its columns are split over several tables if need be."""
    console.print(Text(escape(title), overflow="fold"))
    columns = [Column(h, [row[j] for row in cells]) for j, h in enumerate(headers)]
    _print_across(console, rows, columns, corner=corner)


def _print_across(console: Console, labels: list[str], columns: list[Column],
                  corner: str = "", sections: int = 0) -> None:
    """Tables of a label column and as many of ``columns`` as fit the width each."""
    label = Column(corner, labels, "left")
    group: list[Column] = []
    for column in columns:
        if table_width([label.width, column.width]) > console.width:
            _flush(console, label, group, sections)
            group = []
            _print_lines(console, label, column)
        elif table_width([label.width, *(c.width for c in group), column.width]) \
                > console.width:
            _flush(console, label, group, sections)
            group = [column]
        else:
            group.append(column)
    _flush(console, label, group, sections)


def _flush(console: Console, label: Column, group: list[Column], sections: int) -> None:
    if not group:
        return
    table = Table(show_header=any(c.header for c in [label, *group]))
    table.add_column(Text(label.header), justify="left", no_wrap=True)
    for column in group:
        table.add_column(Text(column.header), justify=column.justify, no_wrap=True)
    for i, name in enumerate(label.cells):
        table.add_row(Text(escape(name)), *(Text(escape(c.cells[i])) for c in group),
                      end_section=i + 1 == sections)
    console.print(table)


def _print_lines(console: Console, label: Column, column: Column) -> None:
    """Too narrow for any table: ``label = value`` lines, the value on a line of its own
    when both do not fit, so a number is only split by a terminal narrower than it."""
    if column.header:
        console.print(Text(escape(column.header)), soft_wrap=True)
    for name, cell in zip(label.cells, column.cells):
        line = f"  {escape(name)} = {escape(cell)}"
        if cell_len(line) > console.width:
            line = f"  {escape(name)} =\n    {escape(cell)}"
        console.print(Text(line), soft_wrap=True)
