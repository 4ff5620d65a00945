"""Tables for people, laid out so that no number or name is ever cut.

rich squeezes a table wider than the terminal by cutting cells ("1…", "∂f/…"). So every
table is measured before it is drawn, and when it would not fit it changes layout:

- points: one row per point if that fits; otherwise one column per point, a row per
  quantity (coordinates, then results), as many points side by side as fit;
- matrices: whole if they fit; otherwise their columns in several tables, each repeating
  the row labels;
- tables stacked so (a column per point, a matrix's columns) share their column widths,
  place by place: their edges line up;
- and when not even one value fits beside its label, ``label = value`` lines: for every
  point or every entry of the matrix (a table among such lines reads as part of them), an
  entry named whole (``∂²f/∂x∂y = ...``), since no header is left to say which it is.

Headings ("read as: ...") fold instead of being cut, between words (a word too wide for
a line, between its tokens), their lines hanging under the text after the label; a very
long one is shortened visibly in the middle, between tokens; a point ("Hessian at x=...,
y=...") folds between its pairs only.
Only imported to print a table. rich draws on terminals; for a pipe or a file, the usual
tables are written here byte for byte as rich would write them (tests/test_tables.py
compares the two), which saves importing rich (~20 ms of start-up).
"""
from __future__ import annotations

import os

from .errors import colour_allowed, escape, terminal_width
from .records import Record

PIPE_WIDTH = 10_000     # a pipe or a file has no width: one row per point, always
LONG_HEADING = 500      # characters; a longer heading shows its head and tail
OPENED = 8              # parentheses a shortened heading shows, or else their count
LABEL = 30              # characters; a heading's label ("read as: ") is no longer

# Characters that take one cell each for rich whatever the Unicode version (printable
# ASCII, and ranges rich itself counts as one cell without its tables), and the few more
# adcli writes in headers (∂, superscripts and subscripts, …); tests check them against
# rich. Text made only of these is measured with len() and drawn without rich.
_ONE_CELL = ((0x20, 0x7e), (0xa0, 0xac), (0xae, 0x2ff), (0x370, 0x482), (0x2026, 0x2026),
             (0x2070, 0x209f), (0x2202, 0x2202), (0x2500, 0x25fc))


def _simple(text: str) -> bool:
    """Whether every character of ``text`` is one of ``_ONE_CELL`` (a regular expression
    would cost more to compile, at every start, than this takes on a table)."""
    if text.isascii():
        return text.isprintable()
    return all(any(low <= ord(c) <= high for low, high in _ONE_CELL) for c in text)


def cell_len(text: str) -> int:
    """The cells ``text`` takes on a terminal, as rich counts them."""
    if _simple(text):
        return len(text)
    from rich.cells import cell_len as rich_cell_len

    return rich_cell_len(text)


class Column(Record):
    """A column of a table: its header, its cells (text) and how they are justified."""

    __slots__ = _fields = ("header", "cells", "justify")

    def __init__(self, header: str, cells: list[str] | None = None, justify: str = "right"):
        self.header, self.justify = header, justify
        self.cells = [] if cells is None else cells

    @property
    def width(self) -> int:
        return max([cell_len(self.header), *map(cell_len, self.cells)])


def console(out, width: int | None = None):
    """Where tables are drawn: by rich on a terminal, else (a pipe, a file) by
    ``_PlainConsole``, which writes the same bytes rich would without importing it."""
    if width is None:
        width = terminal_width(out) if out.isatty() else PIPE_WIDTH
    if width is not None and _plain_output(out):
        return _PlainConsole(out, width)
    return _RichConsole(out, width)


def _plain_output(out) -> bool:
    """Whether rich would draw on ``out`` with no colour, no style and Unicode boxes: not a
    terminal (nor told to act as one), UTF-8, not Windows (legacy consoles), not Jupyter."""
    import builtins

    encoding = (getattr(out, "encoding", "utf-8") or "utf-8").lower()
    return (not out.isatty() and encoding.startswith("utf") and os.name != "nt"
            and "FORCE_COLOR" not in os.environ and "TTY_COMPATIBLE" not in os.environ
            and not hasattr(builtins, "get_ipython"))


class _RichConsole:
    """Draws with rich: terminals (styles, colours, their own width) and anything unusual."""

    def __init__(self, out, width: int | None):
        self.rich = rich_console(out, width, soft_wrap=False)
        self.encoding = getattr(out, "encoding", None) or "utf-8"

    def visible(self, text: str) -> str:
        """text as this console can write it, so that it is measured as written."""
        return writable(text, self.encoding)

    @property
    def width(self) -> int:
        return self.rich.width

    def line(self, text: str, fold: bool = True) -> None:
        """One line of text: folded at the width (``fold``), or left whole."""
        from rich.text import Text

        if fold:
            self.rich.print(Text(text, overflow="fold"))
        else:
            self.rich.print(Text(text), soft_wrap=True)

    def table(self, columns: list[Column], show_header: bool = True, section: int = 0,
              widths: list[int] | None = None) -> None:
        """A table (rich's default box, one space of padding each side) whose rows are the
        columns' cells; a line under the first ``section`` rows. ``widths``: the columns'
        widths at least (a column is as wide as its widest cell or header, else)."""
        from rich.table import Table
        from rich.text import Text

        table = Table(show_header=show_header)
        for k, column in enumerate(columns):
            table.add_column(Text(column.header), justify=column.justify, no_wrap=True,
                             min_width=widths[k] if widths else None)
        for i, row in enumerate(zip(*(c.cells for c in columns))):
            table.add_row(*map(Text, row), end_section=i + 1 == section)
        self.rich.print(table)


# The ASCII forms of what adcli writes in headers, for an output that cannot encode them
# (PYTHONIOENCODING=ascii): ∂f/∂x as df/dx, as CSV headers spell it.
_ASCII_FORMS = str.maketrans({"∂": "d", "…": "...", "·": "*", "−": "-",
                              **{chr(c): str(i) for i, c in enumerate(
                                  (0x2070, 0xb9, 0xb2, 0xb3, *range(0x2074, 0x207a)))},
                              **{chr(0x2080 + i): str(i) for i in range(10)}})


def writable(text: str, encoding: str) -> str:
    """text as written to an output in ``encoding``: its symbols in ASCII where the
    encoding has no place for them, and what still has none as the escapes the CLI's
    streams write (backslashreplace): text a table measures is then the text it draws."""
    if text.isascii():
        return text
    try:
        text.encode(encoding)
        return text
    except UnicodeEncodeError:
        import re

        # (an order after a name ending in a digit takes a ^, as CSV's d2f/dx1^2: not x12)
        text = re.sub("(?<=[0-9])(?=[⁰¹²³⁴-⁹])", "^", text).translate(_ASCII_FORMS)
        return text.encode(encoding, "backslashreplace").decode(encoding)
    except LookupError:     # (an encoding Python does not know: as ASCII)
        return writable(text, "ascii")


def rich_console(out, width: int | None, **options):
    """A rich Console drawing on ``out`` ``width`` columns wide (None: rich's own guess),
    text as given (no markup, highlighting or emoji), in colour only where allowed."""
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            # rich would exit with status 1; a reader that has seen enough is no
            # error, and the CLI says so (exit 0, nothing on stderr).
            self.quiet = True
            raise BrokenPipeError

    return _Console(file=out, **rich_size(out, width), highlight=False, markup=False,
                    emoji=False, no_color=not colour_allowed(), **options)


def rich_size(out, width: int | None) -> dict:
    """rich's Console arguments for drawing ``width`` columns wide (None: rich's own
    guess). rich takes a width only with a height: given alone, under TERM=dumb (Emacs's
    shell, some CI logs) it draws 80 wide whatever the terminal."""
    if width is None:
        return {}
    try:
        height = os.get_terminal_size(out.fileno()).lines
    except (AttributeError, OSError, ValueError):     # a pipe, a file, a StringIO
        height = 25
    return {"width": width, "height": height or 25}


class _PlainConsole:
    """rich's output for a pipe or a file, for text of one-cell characters (``_simple``);
    anything else is handed to rich. ~20 ms less start-up than importing rich."""

    # rich's HEAVY_HEAD box, and SQUARE for a table with no header: top, header row, line
    # under the header, rows, line between sections, bottom (left, fill, between, right).
    _HEADED = ("┏━┳┓", "┃ ┃┃", "┡━╇┩", "│ ││", "├─┼┤", "└─┴┘")
    _PLAIN = ("┌─┬┐", "│ ││", "├─┼┤", "│ ││", "├─┼┤", "└─┴┘")

    def __init__(self, out, width: int):
        self.out, self.width = out, width
        self._rich = None

    @staticmethod
    def visible(text: str) -> str:
        return text     # (UTF-8 only: every text can be written)

    def _fallback(self) -> _RichConsole:
        if self._rich is None:
            self._rich = _RichConsole(self.out, self.width)
        return self._rich

    def line(self, text: str, fold: bool = True) -> None:
        simple = _simple(text) if fold else all(map(_simple, text.split("\n")))
        if not simple or (fold and len(text) > self.width):
            return self._fallback().line(text, fold)
        self._write(text + "\n")

    def table(self, columns: list[Column], show_header: bool = True, section: int = 0,
              widths: list[int] | None = None) -> None:
        texts = [t for c in columns for t in (c.header, *c.cells)]
        widths = [max(c.width, w) for c, w in zip(columns, widths or [0] * len(columns))]
        if not all(map(_simple, texts)) or table_width(widths) > self.width:
            return self._fallback().table(columns, show_header, section, widths)
        box = self._HEADED if show_header else self._PLAIN
        rows = [list(row) for row in zip(*(c.cells for c in columns))]
        lines = [_rule(box[0], widths)]
        if show_header:
            lines += [_row(box[1], widths, columns, [c.header for c in columns]),
                      _rule(box[2], widths)]
        for i, row in enumerate(rows):
            first = i == 0 and not show_header
            lines.append(_row(box[1] if first else box[3], widths, columns, row))
            if i + 1 == section and i + 1 < len(rows):
                lines.append(_rule(box[4], widths))
        lines.append(_rule(box[5], widths))
        self._write("\n".join(lines) + "\n")

    def rows(self, columns: list[Column], headers: list[str], widths: list[int], slices,
             numbers: int) -> None:
        """The table ``table`` draws of ``columns`` headed by ``headers``, its cells given
        a slice of rows at a time (``print_rows``), and written so."""
        box = self._HEADED
        self._write("\n".join([_rule(box[0], widths), _row(box[1], widths, columns, headers),
                               _rule(box[2], widths)]) + "\n")
        # A row is one %-formatting: "%5s" pads as _justified pads on the left, "%-5s" on
        # the right (a number has no trailing space for it to strip).
        left, _, between, right = box[3]
        line = left + between.join(f" %{'-' if c.justify != 'right' else ''}{w}s "
                                   for c, w in zip(columns, widths)) + right + "\n"
        for cells in slices():
            cells = [_stripped(texts, c.justify) if k < numbers else texts
                     for k, (texts, c) in enumerate(zip(cells, columns))]
            self._write("".join(map(line.__mod__, zip(*cells))))
        self._write(_rule(box[5], widths) + "\n")

    def _write(self, text: str) -> None:
        # Flushed, as rich does: a reader gone (``| head``) is then a BrokenPipeError here,
        # which the CLI reports as a success, not at exit as an "Exception ignored".
        self.out.write(text)
        self.out.flush()


def _rule(chars: str, widths: list[int]) -> str:
    left, fill, between, right = chars
    return left + between.join(fill * (w + 2) for w in widths) + right


def _row(chars: str, widths: list[int], columns: list[Column], cells: list[str]) -> str:
    left, _, between, right = chars
    return left + between.join(f" {_justified(cell, w, c.justify)} "
                               for cell, w, c in zip(cells, widths, columns)) + right


def _stripped(texts: list[str], justify: str) -> list[str]:
    """Cells as shown, and as _justified pads them: without trailing spaces if right."""
    texts = list(map(shown, texts))
    return [text.rstrip() for text in texts] if justify == "right" else texts


def _justified(text: str, width: int, justify: str) -> str:
    if justify == "right":      # as rich: trailing spaces go, then it is padded on the left
        text = text.rstrip()
        return " " * (width - len(text)) + text
    return text + " " * (width - len(text))


def table_width(widths) -> int:
    """The width rich draws a table at (default box, one space of padding each side)."""
    widths = list(widths)
    return sum(widths) + 3 * len(widths) + 1


def shorten(text: str, limit: int = LONG_HEADING) -> str:
    """Text of at most about ``limit`` characters: the middle of a longer one is replaced
    by "…" (between tokens), and its length is said."""
    if len(text) <= limit:
        return text
    # A long sum's reading opens with a parenthesis per term ("((((...((x*y) + (x*y)) +"):
    # shown as their count, so the head shows the terms.
    opened = len(text) - len(text.lstrip("(")) - 1  # (the last: the first term's own)
    count = f"(((( … {opened + 1:,} opening parentheses … " if opened >= OPENED else ""
    head, tail = ends(text[opened:] if count else text, (limit - 80) // 2)
    return (f"{count}{head} … {tail} ({len(text):,} characters in all; "
            "--format json gives them whole)")


def tokens(text: str) -> list[str]:
    """``text`` in the pieces a reader takes whole: a number (its minus sign with it: "-2"
    cut after its "-" reads as 2), a name, a run of spaces, any other character."""
    import re

    return re.findall(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|\w+|\s+|.", text,
                      re.DOTALL)


def ends(text: str, size: int) -> tuple[str, str]:
    """The head and the tail of ``text``, each at most ``size`` characters, cut between
    tokens: a name or a number is shown whole or not at all (cut inside, sin(x*31.5)
    read as "in(x*31.5)", or as "1.5"), unless a token takes more than half of it."""
    import itertools

    bounds = list(itertools.accumulate(map(len, tokens(text)), initial=0))
    head = max(b for b in bounds if b <= size)
    tail = min(b for b in bounds if b >= len(text) - size)
    head = head if head >= size // 2 else size
    tail = tail if tail <= len(text) - size // 2 else len(text) - size
    return text[:head].rstrip(), text[tail:].lstrip()


def print_heading(console, lines: list[str], indent: int | None = None,
                  whole: bool = False) -> None:
    """Lines over or under a table; one wider than the terminal folded as ``hanging``
    folds it (a pipe's is never wider: one line per item, as scripts read it). A very long
    one is shortened (a reading: its middle says little), unless ``whole`` (prose, as
    check's diagnosis, which is lost without its middle)."""
    for line in lines:
        line = console.visible(escape(line))
        if not whole:
            start = _text_start(line, indent)
            line = line[:start] + shorten(line[start:])
        if cell_len(line) <= console.width:
            console.line(line)
        else:
            console.line("\n".join(hanging(line, console.width, indent)), fold=False)


def _text_start(line: str, indent: int | None) -> int:
    """Where the text after a heading's label starts ("read as: ", "diagnosis: ": up to
    the first ": " among its first LABEL characters; ``indent``, the place print_heading's
    caller gave): a long text is shortened, and its length said, without the label."""
    if indent is not None:
        return min(indent, len(line))
    label = line.find(": ", 0, LABEL)
    return label + 2 if label >= 0 else 0


def hanging(text: str, width: int, indent: int | None = None) -> list[str]:
    """``text`` in lines of at most ``width``, broken between words, and a word too wide
    for a line between its tokens (no name or number is cut), the lines after the first
    under the text after its label ("read as: ", "diagnosis: ": up to the first ": "),
    or ``indent`` columns in, so that the label stands out; two columns in, as a
    warning's, for a line without a label or with one wider than two fifths of the line
    (the text beside it would be a narrow column)."""
    import re

    if indent is None:
        label = text.find(": ")
        indent = cell_len(text[:label + 2]) if label >= 0 else 2
    if not hanging_room(indent, width):
        indent = 2
    pieces: list[str] = []
    for word in re.split(r"(?<= )(?=\S)", text):    # each word with the spaces after it
        pieces += tokens(word) if cell_len(word.rstrip()) > width - indent else [word]
    lines = fold(pieces, width, lambda line: cell_len(line.rstrip()), " " * indent, "")
    return [line.rstrip() for line in lines]


def hanging_room(indent: int, width: int) -> bool:
    """Whether lines may hang ``indent`` columns in: at most two fifths of the line."""
    return indent <= width * 2 // 5


def fold(words: list[str], width: float, measure=cell_len, indent: str = "  ",
         between: str = " ") -> list[str]:
    """``words`` in lines of at most ``width`` (as ``measure`` counts), broken between
    words only (joined by ``between`` on a line), the lines after the first indented
    (less, for a word that would not fit after the whole indent). A word wider than a line
    stands alone on one, and only a terminal narrower than it breaks it."""
    lines: list[str] = []
    for word in words:
        if lines and measure(f"{lines[-1]}{between}{word}") <= width:
            lines[-1] += f"{between}{word}"
        else:
            lead = indent if lines else ""
            while lead and measure(lead + word) > width:
                lead = lead[:-1]
            lines.append(lead + word)
    return lines


def fold_pairs(head: str, pairs, width: float, measure=cell_len,
               equals: str = "=") -> list[str]:
    """``head`` and its ``(name, value)`` pairs, ``name=value, name=value``, in lines of at
    most ``width``: broken between pairs, so that no name or number is cut in two. A pair
    wider than a line of its own is broken after its "=", its value on the next line
    (before it, where a name fits a line only without its "=")."""
    words = [head]
    for i, (name, value) in enumerate(pairs):
        comma = "," if i + 1 < len(pairs) else ""
        pair = f"{name}{equals}{value}{comma}"
        if measure(f"  {pair}") <= width:
            words.append(pair)
        elif (spaced := _words(f"{value}{comma}", width - 2)) is not None:
            words += [f"{name}{equals}{spaced[0]}", *spaced[1:]]     # folded in its spaces
        elif measure(f"{name}{equals}".rstrip()) > width >= measure(name):
            words += [name, f"  {equals.lstrip()}{value}{comma}"]
        else:   # (the two never share a line: together they are wider than one)
            words += [f"{name}{equals}".rstrip(), f"  {value}{comma}"]
    return fold(words, width, measure)


def _words(text: str, width: float) -> list[str] | None:
    """The words of ``text`` wider than ``width`` with spaces in it (a passed-through
    label), to be folded between them rather than cut by the terminal; else None."""
    if cell_len(text) <= width or " " not in text.strip():
        return None
    return text.split(" ")


def print_points(console, keys: list[Column], values: list[Column],
                 names: list[str] | None = None) -> None:
    """A row per point (keys: what identifies it) if it fits, else a column per point,
    headed by its name (``names``; by default "point 1", "point 2", ...)."""
    columns = _visible(console, _escaped(keys + values))  # measured as they are shown
    if table_width(c.width for c in columns) <= console.width:
        console.table(columns)
        return
    n = len(columns[0].cells) if columns else 0
    labels = [c.header for c in columns]
    names = names or [f"point {i + 1}" for i in range(n)]
    points = [Column(console.visible(escape(names[i])) if n > 1 else "",
                     [c.cells[i] for c in columns])
              for i in range(n)]
    _print_across(console, labels, points, sections=len(keys))


def print_rows(console, columns: list[Column], slices, numbers: int = 0) -> bool:
    """print_points's row per point for many points, written a slice of points at a time:
    ``columns`` give headers and justification only, ``slices()`` the cells, a list per
    column for each slice (``columns[numbers:]`` hold numbers, shown as they are). The
    table never holds every cell as text (a million points: ~1.2 GB less), at the price
    of making them twice, to measure, then to write. Only where print_points would draw
    the same bytes without rich (a pipe or a file, every text one cell a character) as a
    row per point (it fits); else False, and nothing written."""
    headers = [shown(c.header) for c in columns]
    if not isinstance(console, _PlainConsole) or not columns \
            or not all(map(_simple, headers)):
        return False
    widths, count = list(map(len, headers)), 0
    for cells in slices():
        for k, texts in enumerate(cells):
            if k < numbers:
                texts = list(map(shown, texts))
                if not all(map(_simple, texts)):
                    return False
            widths[k] = max(widths[k], max(map(len, texts), default=0))
        count += len(cells[0])
    if not count or table_width(widths) > console.width:
        return False
    console.rows(columns, headers, widths, slices, numbers)
    return True


def print_matrix(console, title: str, corner: str, rows: list[str],
                 headers: list[str], cells: list[list[str]], at=(),
                 names: list[list[str]] | None = None) -> None:
    """A matrix with row labels, under its title and the point (``at``: (name, value)
    pairs, folded between pairs); its columns are split over several tables if need be.
    ``names[i][j]`` names an entry on its own, where no table fits (by default
    "HEADER of ROW")."""
    visible = console.visible
    pairs = [(visible(escape(name)), visible(escape(value))) for name, value in at]
    console.line("\n".join(fold_pairs(visible(escape(title)), pairs, console.width)),
                 fold=False)
    columns = _visible(console, _escaped([Column(h, [row[j] for row in cells])
                                          for j, h in enumerate(headers)]))
    label = Column(visible(escape(corner)), [visible(escape(r)) for r in rows], "left")
    if not _fits(console, label, columns):
        names = names or [[f"{h} of {r}" for h in headers] for r in rows]
        for name_row, cell_row in zip(names, cells):
            for name, cell in zip(name_row, cell_row):
                console.line("\n".join(_entry(visible(escape(name)), visible(escape(cell)),
                                              console.width)), fold=False)
        return
    _print_across(console, label.cells, columns, corner=label.header)


def _fits(console, label: Column, columns: list[Column]) -> bool:
    """Whether each column fits in a table beside the labels."""
    return all(table_width([label.width, c.width]) <= console.width for c in columns)


def _entry(name: str, cell: str, width: int) -> list[str]:
    """``  name = value``, folded: a name wider than the line as _label_lines folds it,
    then before "=", the value under the name."""
    lines = _label_lines(name, width, "  ")
    return lines[:-1] + fold([lines[-1], "=", cell], width, indent="    ")


# Where a label too wide for its line is broken, each rule only in the pieces still too
# wide: between its words, between two differentials (∂²f/∂x | ∂y), then after the
# fraction bar (∂²f/ | ∂x) and around a name, after its ∂ and before its ² (∂²f/∂x²), these
# two (flagged) only where the pieces then fit on a line: a name wider than the line
# itself stays as before, with its ∂, for the terminal to break, as it breaks such a name
# in every table.
_LABEL_BREAKS = ((r"(?<= )", False), (r"(?<=[^/ ])(?=∂)", False), (r"(?<=/)", True),
                 (r"(?<=∂)|(?=²)", True))


def _label_lines(label: str, width: int, lead: str) -> list[str]:
    """A label in lines of at most ``width`` after ``lead`` (none where its first piece
    would not fit after it), broken as _LABEL_BREAKS allow, its lines after the first two
    columns further in: never inside a name that fits on a line."""
    pieces = _label_pieces(label, width - len(lead), width)
    if cell_len(lead + pieces[0].rstrip()) > width:
        lead = ""
    lines = fold([lead + pieces[0], *pieces[1:]], width, lambda text: cell_len(text.rstrip()),
                 lead + "  ", "")
    return [line.rstrip() for line in lines]


def _label_pieces(label: str, width: int, line: int) -> list[str]:
    """``label`` broken where _LABEL_BREAKS allow, as far as a piece wider than ``width``
    must be (a piece's trailing space is not counted: it ends its line); by the flagged
    rule only where its parts then fit on a ``line`` of their own."""
    import re

    pieces = [label]
    for rule, only_if_it_fits in _LABEL_BREAKS:
        broken = []
        for piece in pieces:
            parts = [piece]
            if cell_len(piece.rstrip()) > width:
                parts = [part for part in re.split(rule, piece) if part]
                if only_if_it_fits and any(cell_len(p.rstrip()) > line for p in parts):
                    parts = [piece]
            broken += parts
        pieces = broken
    return pieces


def _print_across(console, labels: list[str], columns: list[Column],
                  corner: str = "", sections: int = 0) -> None:
    """Tables of a label column and as many of ``columns`` as fit the width each; if one
    does not fit beside the labels, ``label = value`` lines for every column."""
    label = Column(corner, labels, "left")
    if not _fits(console, label, columns):
        for column in columns:
            _print_lines(console, label, column)
        return
    widths = _shared_widths(console.width, label.width, [c.width for c in columns])
    for start in range(0, len(columns), len(widths)):
        group = [label, *columns[start:start + len(widths)]]
        console.table(group, show_header=any(c.header for c in group), section=sections,
                      widths=[label.width, *widths])


def _shared_widths(width: int, label: int, widths: list[int]) -> list[int]:
    """The widths of the columns of tables stacked under each other, as many columns to
    a table as fit when each is as wide as the widest at its place in any of the tables:
    stacked, they line up (ragged right edges read as misaligned numbers)."""
    for per in range(len(widths), 1, -1):
        shared = [max(widths[k::per]) for k in range(per)]
        if table_width([label, *shared]) <= width:
            return shared
    return [max(widths, default=0)]     # one to a table (each fits beside the labels: _fits)


def _escaped(columns: list[Column]) -> list[Column]:
    """The columns as they may be shown on a terminal: their cells, and their headers,
    which may be a points file's column names."""
    return [Column(shown(c.header), list(map(shown, c.cells)), c.justify) for c in columns]


def _visible(console, columns: list[Column]) -> list[Column]:
    """The columns as the console writes them (see writable)."""
    return [Column(console.visible(c.header), list(map(console.visible, c.cells)), c.justify)
            for c in columns]


def shown(text: str) -> str:
    """A cell (or a column's name) as a table shows it: as it is, unless it must be shown
    escaped (a tab, an escape code, a bare combining mark); then quoted as trace's ``at``
    line quotes it, as Python quotes a string, its own backslashes doubled, so that a cell
    holding a tab, 'tab\\there', is told from one holding a backslash and a t, tab\\there.
    A text that starts with a quote is quoted too, for it could read as such a cell."""
    if escape(text) == text and not text.startswith(("'", '"')):
        return text
    return escape(repr(text))   # (repr leaves a bare combining mark as it is)


def _print_lines(console, label: Column, column: Column) -> None:
    """Too narrow for any table: ``label = value`` lines, folded between the label, "="
    and the value, so that a name or a number is only split by a terminal narrower than
    it (a label that fits only without its indent is given the whole line, and one wider
    than that is broken as _label_lines breaks it: ∂f/ | ∂x)."""
    if column.header:
        console.line(column.header, fold=False)
    for name, cell in zip(label.cells, column.cells):
        lead = "  " if cell_len(name) + 2 <= console.width else ""
        lines = _label_lines(name, console.width, lead)
        lines[-1:] = fold([lines[-1], "=", *(_words(cell, console.width - 4) or [cell])],
                          console.width, indent="    ")
        console.line("\n".join(lines), fold=False)
