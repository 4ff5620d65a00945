"""What a terminal shows around and between the tables, at the widths people use.

1. A labelled line wider than the terminal ("read as: ", "expected d/dx: ", "diagnosis: ",
   "note: ", a Jacobian's "f1 = ") hangs: its continuation lines start under the text
   after the label (two columns in, as a warning's, where the label takes more than two
   fifths of the width), folded between words, a word too wide for a line between its
   tokens: no name or number is split, no line is wider than the terminal. A pipe keeps
   one line per item.
2. Tables stacked because one does not fit share their column widths (the same right
   edges, position by position), and no digit is cut at any width down to 40 columns.

The reference for what a folded item says is the same item in a pipe (one line); the
reference for the numbers is the JSON output (every float's repr), so what is tested here
is the layout, never the values.
"""
from __future__ import annotations

import collections
import json
import re
import subprocess

import pytest
from rich.cells import cell_len

from conftest import run_in_pty
from adcli import tables
from test_output import ANSI, adcli_executable, child_env
from test_tables import both_ways

WIDTHS = [60, 70, 80, 120]
BOX = "┏┃┡│├└┌"
# A name or a number, as a reader takes it in: split across two lines, it reads as two.
TOKEN = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|\w+")
# A line that begins an item: a label, or a Jacobian's legend ("read as: f1 = ", "  f2 = ").
LEGEND = re.compile(r"(?:read as: |\s+)\w+ = ")

GRAD = ["grad", "2 x sin x + 1/x (x+1) + exp(-x^2) cos x", "--at", "x=1.5"]
CHECK_EXTRA = ["check", "x^3 sin x", "3x^2 sin x + x^3 cos x + 1e-3"]
CHECK_LONG = ["check", "exp(x^2) sin(3x) + x^5/(1+x^2)",
              "2x exp(x^2) sin(3x) + exp(x^2) cos(3x) + (5x^4 (1+x^2) - 2x^6)/(1+x^2)^2"]
PRODUCT = "*".join(f"x{k}" for k in range(1, 15))      # one word of ~120 characters
PRODUCT_AT = ",".join(f"x{k}={k / 7}" for k in range(1, 15))
JACOBIAN = ["jacobian", "exp(-x^2 y) sin(x y) + x^3 y^2/(1 + x^2 y^2) + cos(x) sin(y)",
            "x y sin(x)", "--at", "x=1.5,y=2"]
# Its legend hung under "f1 = " already; a word too wide for the line after it went to
# column 0 (a product written side by side prints as one word).
JACOBIAN_WIDE = ["jacobian", "exp(-x^2 y) sin(x y) + x^3 y^2 x y x y x y x y x y x/(1 + x^2 y^2)"
                 " + cos(x) sin(y)", "x y sin(x)", "--at", "x=1.5,y=2"]
HESSIAN = ["hessian", "exp(-x^2 y) sin(x y) + x^3 y^2/(1+x^2 y^2)", "--at", "x=1.5,y=2"]
COMMANDS = [GRAD, CHECK_EXTRA, CHECK_LONG, JACOBIAN_WIDE,
            ["eval", "exp(-x^2) cos(3 x) + 1/(1 + x^2) + sqrt(1 + x^4) - log(2 + x^2)",
             "--at", "x=0.25"],
            ["hessian", PRODUCT, "--at", PRODUCT_AT],
            ["grad", "sin(x)^2 + cos(x)^2 + exp(x)/(1 + exp(x)) + tanh(x/2)", "--at", "x=1",
             "--order", "3"]]


def screen(argv, columns) -> list[str]:
    """stdout on a terminal of ``columns``, as lines (stderr apart: warnings fold on
    their own, as errors.py folds them)."""
    _, text, _ = run_in_pty([adcli_executable(), *argv], child_env(), columns, 200,
                            stderr_apart=True)
    return ANSI.sub("", text).splitlines()


def piped(argv) -> list[str]:
    done = subprocess.run([adcli_executable(), *argv], capture_output=True, env=child_env(),
                          timeout=60)
    assert done.returncode in (0, 1), done.stderr
    return done.stdout.decode().splitlines()


def outside_tables(lines: list[str]) -> tuple[list[str], list[str]]:
    """The lines before the first table and after the last one."""
    boxed = [i for i, line in enumerate(lines) if line[:1] in BOX]
    if not boxed:
        return lines, []
    return lines[:boxed[0]], lines[boxed[-1] + 1:]


def hang(item: str, columns: int) -> int:
    """Where an item's continuation lines start: under the text after its label (a
    legend's "f1 = ", else up to the first ": "), two columns in if that is more than
    two fifths of the width or the item has no label."""
    legend, colon = LEGEND.match(item), item.find(": ")
    label = legend.end() if legend else colon + 2 if colon >= 0 else 2
    return label if label <= columns * 2 // 5 else 2


def squeezed(text: str) -> str:
    return re.sub(r"\s", "", text)


def assert_folded(items: list[str], shown: list[str], columns: int) -> int:
    """``shown`` begins with each of ``items`` in turn, folded: its first line the item's
    start, its other lines indented by its hang, nothing but spaces added, no token split.
    The number of lines of ``shown`` they take."""
    at = 0
    for item in items:
        lines = [shown[at]]
        while squeezed("".join(lines)) != squeezed(item):
            assert squeezed(item).startswith(squeezed("".join(lines))), (item, lines, shown)
            at += 1
            lines.append(shown[at])
        at += 1
        indent = hang(item, columns)
        assert lines[0].split()[:1] == item.split()[:1], (item, lines)
        for line in lines[1:]:
            assert line[:indent] == " " * indent and line[indent] != " ", (indent, item, lines)
        assert all(cell_len(line) <= columns for line in lines), (columns, lines)
        split = collections.Counter(t for line in lines for t in TOKEN.findall(line))
        assert split == collections.Counter(TOKEN.findall(item)), (item, lines)
    return at


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda argv: argv[0])
def test_a_labelled_line_too_wide_hangs_under_its_text(argv):
    before, after = outside_tables(piped(argv))
    folded = False
    for columns in WIDTHS:
        top, bottom = outside_tables(screen(argv, columns))
        assert assert_folded(before, top, columns) == len(top), top
        assert assert_folded(after, bottom, columns) == len(bottom), bottom
        folded |= len(top) + len(bottom) > len(before) + len(after)
    assert folded, "no line was wide enough to fold: the case tests nothing"


def test_a_label_longer_than_two_fifths_of_the_width_hangs_two_columns_in():
    argv = ["check", "x^2 y^3", "--expect", "x,y=6 x y^2 + 1e-3 + exp(y) sin(x)"]
    before, _ = outside_tables(piped(argv))
    label = next(line for line in before if line.startswith("expected "))
    assert label.startswith("expected ∂²/∂x∂y: ")     # 18 columns: more than 2/5 of 44
    for columns in (40, 44):
        top, _ = outside_tables(screen(argv, columns))
        first = top.index(next(line for line in top if line.startswith("expected ")))
        assert top[first + 1].startswith("  ") and top[first + 1][2] != " ", top
        assert_folded(before, top, columns)     # (then the points, a column each)


def test_a_pipe_keeps_one_line_per_item():
    lines = piped(CHECK_LONG)
    before, after = outside_tables(lines)
    assert [line[:1] for line in before + after if line[:1] in " \t"] == []
    expected = [line for line in before if line.startswith("expected d/dx: ")]
    # the whole expectation on its one line: its first term and its last
    assert len(expected) == 1 and "2*x" in expected[0] and expected[0].endswith("^2))")
    assert len(expected[0]) > 120
    assert any(line.startswith("diagnosis: ") and len(line) > 120 for line in after), after


# ----- 2. stacked tables -------------------------------------------------------------------

def stacks(lines: list[str]) -> list[list[list[int]]]:
    """The tables drawn one under the other with nothing between them, each as the
    columns of its top border's corners and joints."""
    found, current, last_end = [], None, None
    for i, line in enumerate(lines):
        if line[:1] in "┏┌":
            edges = [k for k, c in enumerate(line) if c in "┏┳┓┌┬┐"]
            if current is not None and last_end == i - 1:
                current.append(edges)
            else:
                current = [edges]
                found.append(current)
        elif line[:1] == "└":
            last_end = i
    return found


def assert_stacks_share_widths(lines: list[str]) -> int:
    """Every table of a stack has the column edges of the first, position by position (a
    last table may have fewer columns). The number of tables stacked."""
    stacked = 0
    for stack in stacks(lines):
        first = stack[0]
        for edges in stack[1:]:
            assert edges == first[:len(edges)], (first, edges, "\n".join(lines))
        stacked += len(stack) - 1
    return stacked


@pytest.mark.parametrize("argv", [CHECK_EXTRA, CHECK_LONG])
def test_the_worst_points_stacked_share_their_column_widths(argv):
    stacked = [assert_stacks_share_widths(screen(argv, columns))
               for columns in (50, 60, 70, 80, 100)]
    assert sum(stacked) > 0, "no table was stacked: the case tests nothing"


@pytest.mark.parametrize("argv", [HESSIAN, JACOBIAN])
def test_a_matrix_split_over_tables_shares_its_column_widths(argv):
    assert sum(assert_stacks_share_widths(screen(argv, columns)) for columns in (40, 50)) > 0


def worst_numbers(argv) -> collections.Counter:
    """Every number of the worst points, as the JSON output has it (a float's repr)."""
    document = json.loads("\n".join(piped([*argv, "--format", "json"])))
    numbers = collections.Counter()
    for row in document["worst"]:
        values = [*row["at"].values(), row["expected"], row["ad"], row["finite_difference"]]
        numbers.update(repr(float(v)) for v in values)
    return numbers


@pytest.mark.parametrize("argv", [CHECK_EXTRA, CHECK_LONG])
def test_no_digit_of_the_worst_points_is_cut_down_to_40_columns(argv):
    numbers = worst_numbers(argv)
    for columns in range(40, 121, 7):
        lines = screen(argv, columns)
        assert "…" not in "\n".join(lines), (columns, lines)
        assert all(cell_len(line) <= columns for line in lines), (columns, lines)
        shown = collections.Counter(t for line in lines for t in TOKEN.findall(line))
        assert not numbers - shown, (columns, numbers - shown, "\n".join(lines))


# ----- the rich-free console draws shared widths as rich does ------------------------------

@pytest.mark.parametrize("width", [50, 56, 60])
def test_stacked_tables_are_rich_s_bytes(width, monkeypatch):
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)
    keys = [tables.Column("x", ["0.1", "-12.5", "3.0"])]
    values = [tables.Column("AD", ["1.0", "-0.0009918479729556589", "2.5e-300"]),
              tables.Column("finite differences", ["1.0", "2.0", "-3.0000000000000004e-100"])]
    plain, rich, handed_over = both_ways(lambda c: tables.print_points(c, keys, values), width)
    assert plain == rich and not handed_over
    assert assert_stacks_share_widths(plain.splitlines()) > 0, plain


@pytest.mark.parametrize("columns", [40, 50, 60])
def test_trace_s_read_as_hangs_as_grad_s(columns):
    argv = ["trace", GRAD[1], "--at", "x=1.5"]
    heading = piped(argv)[0]
    shown = screen(argv, columns)
    taken = assert_folded([heading], shown, columns)
    assert taken > 1 and shown[taken] == "", shown      # it was folded, then the blank line


LABEL = 'a rather long description, with commas, and "quotes"'


@pytest.mark.parametrize("command", ["grad", "hessian"])
@pytest.mark.parametrize("columns", [40, 50])
def test_a_passed_through_label_wider_than_the_terminal_folds_between_its_words(
        tmp_path, command, columns):
    points = tmp_path / "points.csv"
    points.write_text('description,x,y\n"' + LABEL.replace('"', '""') + '",1,2\n',
                      encoding="utf-8")
    shown = screen([command, "x^2*y", "--points", str(points)], columns)
    assert all(cell_len(line) <= columns for line in shown), shown
    # every word of it shown whole, in order, on lines that start indented
    text = " ".join(line.strip() for line in shown)
    assert LABEL.split(" ")[0] in text and " ".join(LABEL.split(" ")[1:]) in text, shown
