"""Output that never hides a digit, and pipes that feel native (issue 11).

Tables are checked at the widths people use (rich consoles of 40, 80 and 120 columns, and
the real CLI in a pseudo-terminal): the numbers they must show come from the Python API,
printed with Python's own repr, so what is tested here is that the display keeps every
digit, never what the numbers are (other files check those). Every other expectation is
worked out by hand beside it.
"""
from __future__ import annotations

import collections
import fcntl
import io
import json
import math
import os
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from rich.cells import cell_len

from conftest import run_in_pty, warnings_in
import adcli
from adcli import pipeline, progress
from adcli.cli import main
from adcli.commands.evaluate import Eval
from adcli.commands.gradient import Grad
from adcli.commands.hessian import Hessian
from adcli.commands.jacobian import Jacobian
from adcli.errors import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_NONFINITE
from adcli.functions import CALLABLE

README = Path(__file__).parent.parent / "README.md"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
NUMBER = re.compile(r"(?<![\w.])-?(?:\d+\.\d+(?:e[+-]\d+)?|nan|inf)(?![\w.])")


# ----- helpers --------------------------------------------------------------------------

def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def adcli_executable():
    here = os.path.dirname(sys.executable)
    path = shutil.which("adcli", path=here + os.pathsep + os.environ.get("PATH", ""))
    if path is None:
        pytest.skip("the adcli entry point is not installed")
    return path


def child_env(**extra):
    env = {k: v for k, v in os.environ.items()
           if k not in ("COLUMNS", "LINES", "PYTHONIOENCODING", "NO_COLOR", "FORCE_COLOR")}
    env.update({"PYTHONUTF8": "1", "TERM": "xterm-256color"}, **extra)
    return env


def table_at_width(command_class, texts, width, **options):
    out, err = io.StringIO(), io.StringIO()
    pipeline.run(command_class, texts, out=out, err=err, width=width, fmt="table", **options)
    assert err.getvalue() == ""
    return out.getvalue()


def in_pty(argv, columns, rows=200, timeout=60, stdin=None, **env):
    """The child's terminal output (stdout and stderr on one pseudo-terminal of the given
    size), ANSI codes removed, and its exit status."""
    code, text, _ = run_in_pty(argv, child_env(**env), columns, rows, stdin=stdin,
                               timeout=timeout)
    return code, ANSI.sub("", text)


def counted(texts) -> collections.Counter:
    return collections.Counter(texts)


def check_every_number_shown(output: str, numbers: list[str], labels: list[str], width):
    """Each expected number as a whole token, as often as expected; every label whole;
    nothing cut with an ellipsis; no line wider than the terminal."""
    missing = counted(numbers) - counted(NUMBER.findall(output))
    assert not missing, f"numbers not shown whole: {dict(missing)}\n{output}"
    for label in labels:
        assert label in output, f"label {label!r} cut or missing\n{output}"
    assert "…" not in output, output
    if width is not None:
        wide = [line for line in output.splitlines() if cell_len(line) > width]
        assert not wide, f"lines wider than {width}: {wide}"


# ----- the cases every table test runs: 1, 3 and 8 variables, hessian, jacobian -------

def _at(names):
    # values with long reprs (0.1 + 1/3 = 0.43333333333333335, ...)
    return {n: 0.1 * (i + 1) + 1 / 3 for i, n in enumerate(names)}


def _at_option(at):
    return ",".join(f"{n}={v!r}" for n, v in at.items())


NAMES_8 = [f"x{i}" for i in range(1, 9)]
EXPR_8 = "exp(" + " + ".join(f"{n}*{n}/{i + 2}" for i, n in enumerate(NAMES_8)) + ")"

TABLE_CASES = {
    "grad-1": (Grad, ["sin(x)*exp(x)"], ["x"]),
    "grad-3": (Grad, ["x^3*y^2 + sin(x*y) + z"], ["x", "y", "z"]),
    "grad-8": (Grad, [EXPR_8], NAMES_8),
    "hessian-3": (Hessian, ["exp(x*y)/z"], ["x", "y", "z"]),
    "hessian-8": (Hessian, [EXPR_8], NAMES_8),
    "jacobian-3": (Jacobian, ["x*y*z/7", "sin(x)+y", "exp(z/x)"], ["x", "y", "z"]),
    "jacobian-8": (Jacobian, [EXPR_8, "sin(x1*x8)/3"], NAMES_8),
}


def expected_numbers(command_class, texts, names):
    """What a table must show, from the Python API, and the labels it must show whole:
    the points table (grad, hessian) has the coordinates, the value and the gradient; a
    matrix repeats the coordinates in its title ("Hessian at x=..."); the Hessian adds its
    entries; the Jacobian has each expression's value and gradient."""
    at = _at(names)
    coordinates = [repr(v) for v in at.values()]
    numbers, labels = [], []
    for text in texts:
        e = adcli.parse(text)
        point = {n: at[n] for n in e.variables}
        gradient = e.grad(**point)      # (0 in the names of the other expressions)
        numbers += [repr(float(e.value(**point))),
                    *(repr(float(gradient.get(n, 0.0))) for n in names)]
        if command_class is Hessian:
            numbers += [repr(v) for v in e.hessian(wrt=names, **point).ravel().tolist()]
    if command_class is not Jacobian:
        numbers += coordinates
        labels += [*names, *(f"∂f/∂{n}" for n in names)]
    if command_class is not Grad:
        numbers += coordinates
        labels += [f"∂/∂{n}" for n in names]
    return numbers, labels


@pytest.mark.parametrize("width", [40, 80, 120])
@pytest.mark.parametrize("case", list(TABLE_CASES))
def test_tables_show_every_digit_at_any_width(case, width):
    command_class, texts, names = TABLE_CASES[case]
    output = table_at_width(command_class, texts, width, at=(_at_option(_at(names)),))
    numbers, labels = expected_numbers(command_class, texts, names)
    check_every_number_shown(output, numbers, labels, width)


def test_a_wide_table_is_one_row_per_point_when_it_fits():
    # f = x*y at (1, 2) and (3, 2): the usual table, one row per point, when it fits.
    output = table_at_width(Grad, ["x*y"], 120, grid=("x=1:3:2",), at=("y=2",))
    rows = [line for line in output.splitlines() if line.startswith("│")]
    assert [NUMBER.findall(r) for r in rows] == [["1.0", "2.0", "2.0", "2.0", "1.0"],
                                                  ["3.0", "2.0", "6.0", "2.0", "3.0"]]


def test_a_narrow_table_is_one_column_per_point():
    # Too wide for 40 columns: a row per quantity, the points side by side (x*y at x = 1/3
    # and 2/3, y = pi: values pi/3 and 2pi/3 as float64 products).
    output = table_at_width(Grad, ["x*y"], 40, grid=("x=1/3:2/3:2",), at=("y=pi",))
    lines = output.splitlines()
    label_rows = [line.split("│")[1].strip() for line in lines if line.startswith("│")]
    assert label_rows[:5] == ["x", "y", "f", "∂f/∂x", "∂f/∂y"]
    assert (1 / 3) * math.pi != (2 / 3) * math.pi
    check_every_number_shown(output, [repr((1 / 3) * math.pi), repr((2 / 3) * math.pi)],
                             ["point 1", "point 2"], 40)


def test_a_name_too_long_for_any_table_gives_label_value_lines():
    # A 40-character name cannot sit beside a 17-digit number in 40 columns: lines, with
    # the number whole. f = name^2 at 1/3: 1/9 (one rounding), derivative 2/3.
    name = "a_very_long_variable_name_for_a_narrow_"
    assert len(name) == 39
    output = table_at_width(Grad, [f"{name}^2"], 40, at=(f"{name}=1/3",))
    # As a 40-column terminal shows it: a longer line continues on the next row.
    shown = "\n".join(line[i:i + 40] for line in output.splitlines()
                      for i in range(0, max(len(line), 1), 40))
    check_every_number_shown(shown, [repr(1 / 3), repr((1 / 3) ** 2), repr(2 * (1 / 3))],
                             [], 40)
    # (∂f/∂name is 43 wide: it folds after its '/', never inside the name)
    assert f"∂f/\n∂{name}\n" in output


PTY_CASES = {
    "grad-3": ["grad", "x^3*y^2 + sin(x*y) + z"],
    "hessian-8": ["hessian", EXPR_8],
    "jacobian-3": ["jacobian", "x*y*z/7", "sin(x)+y", "exp(z/x)"],
}


@pytest.mark.parametrize("columns", [40, 80, 120])
@pytest.mark.parametrize("case", list(PTY_CASES))
def test_the_real_cli_in_a_terminal_shows_every_digit(case, columns):
    """What a user sees: adcli in a pseudo-terminal of that size (not a pipe)."""
    argv = PTY_CASES[case]
    command_class = {"grad": Grad, "hessian": Hessian, "jacobian": Jacobian}[argv[0]]
    names = NAMES_8 if case == "hessian-8" else ["x", "y", "z"]
    code, output = in_pty([adcli_executable(), *argv, "--at", _at_option(_at(names))], columns)
    assert code == 0, output
    numbers, labels = expected_numbers(command_class, argv[1:], names)
    check_every_number_shown(output, numbers, labels, columns)


def test_the_issue_example_at_80_columns_in_a_terminal():
    # The issue's report: at 80 columns this printed "1…" and "∂f/…".
    code, output = in_pty([adcli_executable(), "grad", "x^3*y^2 + sin(x*y) + z",
                           "--at", "x=1,y=2,z=3"], 80)
    assert code == 0
    assert "…" not in output and "∂f/∂z" in output
    e = adcli.parse("x^3*y^2 + sin(x*y) + z")
    shown = set(NUMBER.findall(output))
    assert {repr(float(e.value(x=1, y=2, z=3))), "1.0", "2.0", "3.0"} <= shown
    assert repr(float(e.grad(x=1, y=2, z=3)["x"])) in shown


def test_check_at_80_columns_names_each_column_by_the_point_it_comes_from():
    # Two partials at four points: the five worst rows are (point, partial) pairs, so two
    # come from one point. Laid out a column each, a column once said "point 5" for the
    # first point's d/dy, under a heading of "the 5 worst of 4 random points".
    argv = [adcli_executable(), "check", "x^2*sin(y)", "--expect", "x=2x sin y",
            "--expect", "y=x^2 cos(y)", "--samples", "4"]
    code, output = in_pty(argv, 80)
    points = json.loads(subprocess.run(argv + ["--format", "json"], capture_output=True,
                                       text=True, check=True).stdout)["points"]
    assert code == 0 and "…" not in output
    assert "the 5 worst of ∂/∂x and ∂/∂y at 4 random points (seed 0)" in output.splitlines()
    shown, names = [], []
    for line in output.splitlines():
        cells = [c.strip() for c in re.split(r"[┃│]", line)[1:-1]]
        if cells and cells[0] == "":
            names = cells[1:]  # a header: "point 1", "point 2"
        elif cells and cells[0] in ("x", "y", "derivative"):
            shown.append((cells[0], dict(zip(names, cells[1:]))))
    columns = collections.defaultdict(dict)
    for label, by_name in shown:
        for name, text in by_name.items():
            columns[name].setdefault(label, []).append(text)
    assert len(shown) == 9  # x, y and derivative rows of three tables
    for name, rows in columns.items():
        k = int(name.removeprefix("point "))
        assert 1 <= k <= len(points), name
        at = points[k - 1]["at"]
        assert all(x == repr(at["x"]) for x in rows["x"])
        assert all(y == repr(at["y"]) for y in rows["y"])
    assert sorted(d for rows in columns.values() for d in rows["derivative"]) == \
        ["∂/∂x"] * 4 + ["∂/∂y"]


@pytest.mark.parametrize("columns", [40, 80])
@pytest.mark.parametrize("mode", [[], ["--mode", "forward", "--wrt", "x"]])
def test_trace_in_a_terminal_folds_its_rows_between_numbers(columns, mode):
    # v1 feeds four operations: its adjoint row (rules = values = sum) is ~130 characters,
    # and a forward row holds two equations. The terminal used to break them mid-number.
    argv = [adcli_executable(), "trace", "x*sin(x) + exp(x)*x^2 + sign(x)*y",
            "--at", "x=0.7,y=1.3", *mode]
    code, output = in_pty(argv, columns)
    nodes = json.loads(subprocess.run(argv + ["--format", "json"], capture_output=True,
                                      text=True, check=True).stdout)["points"][0]["nodes"]
    numbers = [repr(n[key]) for n in nodes for key in ("value", "adjoint", "tangent")
               if key in n and n["id"] != "v2"]  # v2 is y: 1.3 also in the heading
    numbers += [repr(c["value"]) for n in nodes for c in n.get("contributions", ())
                if len(n["contributions"]) > 1]
    shown = counted(NUMBER.findall(output))
    assert code == 0 and not counted(numbers) - shown, output
    assert all(cell_len(line) <= columns for line in output.splitlines()), output
    if columns == 80 and mode:
        assert re.search(r"^  v1 += x += 0\.7 +v̇1 += 1\.0  \(seed\)$", output, re.M)  # one row


@pytest.mark.parametrize("argv", [["grad", "abs(x)", "--at", "x=0", "--format", "plain"],
                                  ["check", "abs(x)", "sign(x)", "--at", "x=0"],
                                  ["trace", "abs(x)", "--at", "x=0"]])
def test_a_warning_on_a_narrow_terminal_is_folded_between_words(argv):
    # stderr on the same 40-column terminal: the terminal used to cut "differentiable".
    code, output = in_pty([adcli_executable(), *argv], 40)
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("adcli: warning:"))
    shown = " ".join(line.strip() for line in lines[start:start + 6])
    assert ("adcli: warning: abs is not differentiable at 1 of 1 point (an argument of 0, a "
            "corner): its derivative there is a convention, not a fact") in shown
    assert all(cell_len(line) <= 40 for line in lines[start:]), output


# ----- read as: -------------------------------------------------------------------------

def heading_lines(output: str) -> list[str]:
    lines = output.splitlines()
    end = next(i for i, line in enumerate(lines) if line[:1] in "┏┌")
    return lines[:end]


def test_read_as_wraps_on_a_narrow_terminal():
    text = " + ".join(f"sin({c}*x)" for c in range(1, 12))   # read as: sin(1*x) + ...
    parsed = adcli.parse(text).parsed
    output = table_at_width(Grad, [text], 40, at=("x=1",))
    lines = heading_lines(output)
    assert len(lines) > 1 and all(cell_len(line) <= 40 for line in lines)
    assert " ".join(line.strip() for line in lines) == "read as: " + parsed


def test_an_expression_file_that_is_not_utf8_says_so_and_where(tmp_path, capsys,
                                                               monkeypatch):
    path = tmp_path / "f.txt"
    path.write_bytes(b"x^2\xff")
    code, out, err = run(capsys, "grad", f"@{path}", "--at", "x=1")
    assert (code, out) == (2, "")
    assert f"cannot read the expression from '{path}': it is not UTF-8 text (byte 4)" in err
    # stdin decodes with surrogateescape: the byte arrives as a lone surrogate, not an error.
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"x^\xff2"),
                                                       errors="surrogateescape"))
    code, out, err = run(capsys, "grad", "@-", "--at", "x=1")
    assert (code, out) == (2, "")
    assert "cannot read the expression from '-': it is not UTF-8 text (character 3)" in err


def test_a_lone_at_sign_asks_for_the_file(capsys):
    code, out, err = run(capsys, "grad", "@", "--at", "x=1")
    assert (code, out) == (2, "")
    assert "@ is followed by the file to read the expression from: @FILE, or @- for stdin" \
        in err


def test_a_very_long_reading_is_shortened_visibly(tmp_path, capsys):
    # A 20,000-term expression from @FILE: "read as: " shows its head, "…", its tail and
    # its length, not 120 KB of title.
    n = 20_000
    text = " + ".join(f"{k}*x" for k in range(1, n + 1))
    path = tmp_path / "long.txt"
    path.write_text(text, encoding="utf-8")
    # The sum is read left to right, each compound operand in parentheses:
    # ((1*x) + (2*x)) + (3*x) ...
    parsed = "(" * (n - 2) + "(1*x) + (2*x)" + "".join(f") + ({k}*x)" for k in range(3, n + 1))
    code, out, err = run(capsys, "grad", f"@{path}", "--at", "x=1")
    assert code == 0, err
    (heading,) = [line for line in out.splitlines() if line.startswith("read as:")]
    assert len(heading) < 600
    # (its n - 1 opening parentheses as their count, then the first terms)
    assert heading.startswith(f"read as: (((( … {n - 1:,} opening parentheses … " +
                              parsed[n - 2:][:100])
    assert parsed[-100:] in heading and " … " in heading
    assert f"{len(parsed):,} characters" in heading
    # f = sum k*x, so f(1) = df/dx = 20000*20001/2 (exact in float64)
    assert "200010000.0" in out


# ----- -h ---------------------------------------------------------------------------------

@pytest.mark.parametrize("argv", [["-h"], ["grad", "-h"], ["hessian", "-h"],
                                  ["jacobian", "-h"], ["eval", "-h"], ["grad", "x", "-h"]])
def test_dash_h_is_help(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert (code, err) == (0, "")
    assert out.startswith("Usage: adcli")


def test_dash_h_inside_an_expression_is_still_the_variable_h(capsys):
    # -h^2 is -(h^2): at h = 3, -9 with derivative -2h = -6; "-h" alone goes after "--".
    code, out, err = run(capsys, "grad", "-h^2", "--at", "h=3", "--format", "plain")
    assert (code, out) == (0, "-9.0 -6.0\n"), err
    code, out, err = run(capsys, "grad", "--at", "h=3", "--format", "plain", "--", "-h")
    assert (code, out) == (0, "-3.0 -1.0\n"), err


# ----- error messages ---------------------------------------------------------------------

ERRORS = [
    # arguments, words the one message must contain, words it must not
    (["grad", "x^2", "--at", "x", "=", "1"], ["--at x = 1", "without spaces", "--at x=1"],
     ["quote"]),
    (["grad", "x^2", "--at", "x", "=1"], ["--at x=1", "without spaces"], ["quote"]),
    (["grad", "x^2", "--at", "x=", "1"], ["--at x=1", "without spaces"], ["quote"]),
    (["grad", "x^2", "x=1"], ["'x=1'", "forget --at", "--at x=1"], ["quote"]),
    (["grad", "x^2", "--at", "x=1,2,3"], ["'2' is not of the form name=value",
                                          "--at is one point", "--grid or --points"], []),
    (["grad", "x^2", "--at", "x=1,y"], ["'y' is not of the form name=value"],
     ["--grid"]),
    # pairs run together with a space or a semicolon
    (["grad", "x^2+y", "--at", "x=1 y=2"], ["separate the name=value pairs with commas: "
                                            "--at x=1,y=2"], ["unexpected"]),
    (["grad", "x^2+y", "--at", "x=1; y=pi/2"], ["with commas: --at x=1,y=pi/2"], []),
    (["grad", "x^2+y", "--grid", "x=0:1:3 y=0:1:2"], ["with commas: --grid x=0:1:3,y=0:1:2"],
     []),
    (["jacobian", "x", "y", "x=1,y=2"], ["forget --at", "--at x=1,y=2"], ["unexpected"]),
    (["grad", "x", "y"], ["quote the expression", "several expressions go to adcli jacobian"],
     []),
    (["eval", "x", "+", "y"], ["got 3 arguments (quote the expression)"], ["jacobian"]),
    # a mistyped option was 'expected one expression, got 2 arguments'
    (["grad", "x", "--at", "x=1", "-q"], ["no such option: -q"], ["expression"]),
    (["grad", "-x", "-o", "f.svg", "--at", "x=1"], ["no such option: -o"], ["expression"]),
    (["grad", "X*y", "--at", "x=1,y=2"], ["no value given for X", "did you mean 'X'?"], []),
    (["grad", "2ex", "--at", "x=1"], ["no value given for ex", "'ex' is one name", "e*x"],
     ["did you mean 'ex'"]),
    (["grad", "2xy", "--at", "x=1,y=2"], ["'xy' is one name", "x*y"], ["did you mean"]),
    # a Greek letter spelled out where the expression has the letter, and the other way
    (["grad", "α x", "--at", "alpha=2,x=1"],
     ["no value given for α", "'alpha' was given: the expression has the letter 'α'"], []),
    (["grad", "sin(theta)", "--at", "θ=1"],
     ["'θ' was given: the expression has the name 'theta' spelled out"], []),
    # The textbook's d/dx typed into the expression: d over a variable dx, no derivative.
    (["grad", "d(x^2)/dx", "--at", "x=1"],
     ["no value given for d and dx", "'d/dx' is read as d divided by a variable dx",
      "diff(EXPRESSION, x)"], ["did you mean", "add --at"]),
    (["eval", "d/dt sin(t)", "--at", "t=1"], ["'d/dt' is read as d divided", "diff(EXPRESSION, t)"],
     ["did you mean"]),
    (["check", "d/dx x^2", "2x"], ["'d/dx x^2' has d, dx and x", "'d/dx' is read as"],
     ["--wrt"]),
    (["check", "x^2", "d/dx x^2"], ["uses d and dx", "'d/dx' is read as"], []),
    # ... and d/dx(x^2), where dx( would be a call of a function dx
    (["grad", "d/dx(x^2)", "--at", "x=1"],
     ["'d/dx(...)' is not read as a derivative", "diff(EXPRESSION, x)", "column 3"],
     ["unknown function"]),
    (["grad", "3 + d / dt (t^2)", "--at", "t=1"], ["'d/dt(...)' is not read"], []),
    (["grad", "y/dx(x^2)", "--at", "x=1"], ["unknown function 'dx'"], ["derivative"]),
    (["check", "d/dx x^2", "2x", "--grid", "x=0:1:3"], ["'d/dx' is read as"],
     ["add --at", "did you mean"]),
    (["grad", "x", "--at", "x=1", "--no-header"], ["--no-header", "csv or tsv"], []),
    (["grad", "x", "--at", "x=1", "--columns", "x"], ["--columns", "--points"], []),
]


@pytest.mark.parametrize("args, words, absent", ERRORS, ids=[" ".join(a) for a, *_ in ERRORS])
def test_error_messages_name_the_likely_mistake(capsys, args, words, absent):
    code, out, err = run(capsys, *args)
    assert (code, out) == (2, "")
    assert err.count("error:") == 1
    for word in words:
        assert word in err
    for word in absent:
        assert word not in err


@pytest.mark.parametrize("text, right, left, column", [
    ("y = x^2", "x^2", "y", 3),
    ("f(x) = x^2 sin x", "x^2 sin x", "f(x)", 6),
    ("g(x, y)=x y", "x y", "g(x, y)", 8),
    ("f(x) = x^2 \\sin x", "x^2 \\sin x", "f(x)", 6),  # as typed: to paste back
])
def test_an_equation_copied_from_paper_asks_for_its_right_hand_side(capsys, text, right,
                                                                    left, column):
    code, out, err = run(capsys, "grad", text, "--at", "x=1,y=2")
    assert (code, out) == (2, "")
    assert err == (f"adcli: error: an expression is wanted, not an equation: give the "
                   f"right-hand side alone, '{right}', without '{left} =' (column {column})\n"
                   f"  {text}\n  {' ' * (column - 1)}^\n")


@pytest.mark.parametrize("text, column", [("f'(x)", 2), ("sin(x)''", 7), ("x\u2032", 2),
                                          ("y' = 2x", 2)])
def test_a_prime_from_paper_is_told_how_a_derivative_is_written(capsys, text, column):
    code, out, err = run(capsys, "grad", text, "--at", "x=1")
    assert (code, out) == (2, "")
    assert err == ("adcli: error: a prime (') is not a derivative here: give the function "
                   "itself (grad differentiates it) or write diff(f, x) inside an expression "
                   f"(column {column})\n  {text}\n  {' ' * (column - 1)}^\n")


@pytest.mark.parametrize("text", ["x + 'a'", "f'{x}'"])
def test_a_quotation_mark_is_not_taken_for_a_prime(capsys, text):
    code, out, err = run(capsys, "grad", text, "--at", "x=1")
    assert code == 2 and "unexpected character \"'\"" in err and "prime" not in err


@pytest.mark.parametrize("text", ["x = = 2", "2x = 3", "y = x +"])
def test_no_equation_hint_unless_its_right_hand_side_is_an_expression(capsys, text):
    code, out, err = run(capsys, "grad", text, "--at", "x=1")
    assert code == 2 and "unexpected character '='" in err and "equation" not in err


def test_variables_named_d_and_dx_with_values_are_just_variables(capsys):
    code, out, err = run(capsys, "grad", "d/dx", "--at", "d=3,dx=2", "--format", "csv")
    assert (code, err) == (0, "")
    assert out.splitlines()[1] == "3.0,2.0,1.5,0.5,-0.75"


def test_the_api_names_the_leibniz_slip_too():
    with pytest.raises(adcli.AdcliError, match=r"no value given for d and dx: 'd/dx' is read"):
        adcli.parse("d/dx x^2").value(x=1.0)


def test_a_case_slip_in_at_is_a_warning_with_did_you_mean(capsys):
    code, out, err = run(capsys, "grad", "x", "--at", "x=1,X=2", "--format", "plain")
    assert (code, out) == (0, "1.0 1.0\n")
    assert "'X'" in err and "did you mean 'x'?" in err


def unknown_function_message(capsys, name: str) -> str:
    code, out, err = run(capsys, "grad", f"{name}(x)", "--at", "x=1")
    assert (code, out) == (2, "")
    assert f"unknown function '{name}'" in err
    return err


# Names that stay unknown whatever functions are added: a different function is never
# proposed for them (log3 is not log, cosd is not cos, tand is not tan).
@pytest.mark.parametrize("name", ["log3", "cosd", "tand", "acotq"])
def test_an_unknown_function_is_not_offered_a_different_one(capsys, name):
    assert name not in CALLABLE
    assert "did you mean" not in unknown_function_message(capsys, name)


def test_no_function_is_offered_for_itself_with_a_letter_more_at_an_end(capsys):
    # Over the registry: F + "h" (sech -> sec), "a" + F (acot -> cot), F + "c" (sinc -> sin)
    # name other functions; when unregistered, none may be "did you mean F".
    # (Another function may be offered: cosc is a slip of cosec, actg is arcctg, below.)
    names = {**{f + "h": f for f in CALLABLE if not f.endswith("h")},
             **{"a" + f: f for f in CALLABLE if not f.startswith("a")},
             **{f + "c": f for f in CALLABLE if not f.endswith("c")}}  # "sinn" is a typo
    names = {n: f for n, f in names.items() if n not in CALLABLE and len(n) > 3}
    assert len(names) > 40
    for name, base in sorted(names.items()):
        assert f"did you mean '{base}'" not in unknown_function_message(capsys, name), name


@pytest.mark.parametrize("name, meant", [("actg", "arcctg"), ("atg", "arctg")])
def test_a_for_arc_is_offered_the_inverse_it_names(capsys, name, meant):
    # actg is the inverse of ctg (arcctg), though arctg (the inverse of tg) is a letter away.
    assert name not in CALLABLE
    assert f"did you mean '{meant}'?" in unknown_function_message(capsys, name)


@pytest.mark.parametrize("name, meant", [("sinn", "sin"), ("tahn", "tanh"), ("Sin", "sin"),
                                         ("sqt", "sqrt"), ("exo", "exp")])
def test_a_typo_of_a_function_is_offered_the_function(capsys, name, meant):
    assert name not in CALLABLE and meant in CALLABLE
    assert f"did you mean '{meant}'?" in unknown_function_message(capsys, name)


# ----- column names never collide with variable names ----------------------------------

def csv_header(capsys, *args):
    code, out, err = run(capsys, *args, "--format", "csv")
    assert code == 0, err
    return next(iter(__import__("csv").reader(io.StringIO(out))))


HEADERS = [
    # arguments, the CSV header by the README's scheme
    (["grad", "f*x", "--at", "f=2,x=3"], ["f", "x", "g", "dg/df", "dg/dx"]),
    (["grad", "f*g*h", "--at", "f=1,g=2,h=3"],
     ["f", "g", "h", "f_", "df_/df", "df_/dg", "df_/dh"]),
    (["eval", "f", "--at", "f=2"], ["f", "g"]),
    (["jacobian", "f1*x", "x", "--at", "f1=2,x=3"],
     ["f1", "x", "g1", "g2", "dg1/df1", "dg1/dx", "dg2/df1", "dg2/dx"]),
    (["grad", "x1^4", "--at", "x1=2", "--order", "3"], ["x1", "f", "d3f/dx1^3"]),
    (["hessian", "x*dy + xd*y", "--at", "x=1,dy=2,xd=3,y=4"],
     ["x", "dy", "xd", "y", "f", "df/dx", "df/ddy", "df/dxd", "df/dy",
      *(f"d2f/d{a}^2" if a == b else f"d2f/d{a} d{b}"
        for a in ["x", "dy", "xd", "y"] for b in ["x", "dy", "xd", "y"])]),
]


@pytest.mark.parametrize("args, header", HEADERS, ids=[a[1] for a, _ in HEADERS])
def test_csv_headers_follow_the_scheme_and_are_unique(capsys, args, header):
    got = csv_header(capsys, *args)
    assert got == header
    assert len(set(got)) == len(got)


def test_the_old_hessian_headers_would_have_collided():
    # Why the space: x with dy, and xd with y, both read "d2f/dxddy" without it.
    assert "d2f/d" + "x" + "d" + "dy" == "d2f/d" + "xd" + "d" + "y"


def test_json_keys_keep_variables_apart_from_results(capsys):
    # f*x at (2, 3): value 6, gradient (x, f) = (3, 2); "at" holds the variables.
    code, out, err = run(capsys, "grad", "f*x", "--at", "f=2,x=3", "--format", "json")
    assert code == 0
    assert json.loads(out)["points"] == [{"at": {"f": 2.0, "x": 3.0}, "value": 6.0,
                                          "gradient": {"f": 3.0, "x": 2.0}}]


def test_a_passed_through_column_is_avoided_too(capsys, tmp_path):
    # A points column "f" (not a variable) and one literally named "dg/dx": the symbol
    # skips f and g. x^2 at 3: 9, 6.
    path = tmp_path / "p.csv"
    path.write_text('f,x,dg/dx\na,3,b\n', encoding="utf-8")
    code, out, err = run(capsys, "grad", "x^2", "--points", str(path), "--format", "csv")
    assert code == 0, err
    assert out.splitlines() == ["f,dg/dx,x,h,dh/dx", "a,b,3.0,9.0,6.0"]


def test_table_labels_are_unique_with_a_variable_named_f():
    output = table_at_width(Grad, ["f*x"], 120, at=("f=2,x=3",))
    header = next(line for line in output.splitlines() if line.startswith("┃"))
    assert [h.strip() for h in header.strip("┃").split("┃")] == ["f", "x", "g", "∂g/∂f",
                                                                  "∂g/∂x"]


# ----- numbers: --digits, --grid, --points cells ---------------------------------------

@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_digits_never_rounds_the_coordinates(capsys, fmt):
    # x^2 at 1/3: coordinate printed whole; 1/9 and 2/3 to 3 digits
    code, out, _ = run(capsys, "grad", "x^2", "--at", "x=1/3", "--digits", "3", "--format", fmt)
    assert code == 0
    assert out.splitlines()[1].split("," if fmt == "csv" else "\t") == \
        [repr(1 / 3), "0.111", "0.667"]


def test_digits_in_jsonl_and_tables(capsys):
    code, out, _ = run(capsys, "hessian", "x^3", "--at", "x=1/3", "--digits", "2",
                       "--format", "jsonl")
    # x^3 at 1/3: 1/27 = 0.037, 3x^2 = 1/3 = 0.33, 6x = 2
    assert json.loads(out) == {"at": {"x": 1 / 3}, "value": 0.037, "gradient": {"x": 0.33},
                               "hessian": [[2.0]]}
    output = table_at_width(Hessian, ["x^3"], 120, at=("x=1/3",), digits=2)
    assert f"Hessian at x={1 / 3!r}" in output and output.count(repr(1 / 3)) == 2


@pytest.mark.parametrize("fmt", ["csv", "tsv", "plain", "json", "jsonl"])
def test_digits_never_round_a_finite_number_out_of_range(capsys, fmt):
    """exp(709.7) = 1.6549840276802644e308 to 1 digit is 2e+308, which reads back as inf:
    the fewest more digits that stay finite, 1.7e+308, in every format (JSON kept the
    unrounded number, the others printed 2e+308)."""
    code, out, _ = run(capsys, "grad", "exp(x)", "--at", "x=709.7", "--digits", "1",
                       "--format", fmt)
    assert code == 0
    if fmt.startswith("json"):
        point = json.loads(out)["points"][0] if fmt == "json" else json.loads(out)
        assert (point["value"], point["gradient"]["x"]) == (1.7e308, 1.7e308)
    else:
        assert re.split(r"[,\s]+", out.strip())[-2:] == ["1.7e+308"] * 2


@pytest.mark.parametrize("digits, text", [(1, "1.79769e+308"), (6, "1.79769e+308"),
                                          (7, "1.797693e+308"), (17, repr(1.7976931348623157e308))])
def test_the_largest_float_rounded(capsys, digits, text):
    code, out, _ = run(capsys, "eval", "x", "--at", "x=-1.7976931348623157e308",
                       "--digits", str(digits), "--format", "plain")
    assert (code, out.strip()) == (0, "-" + text)


def grid_values(capsys, spec):
    code, out, err = run(capsys, "eval", "x", "--grid", spec, "--format", "csv")
    assert code == 0, err
    return [float(line.split(",")[0]) for line in out.splitlines()[1:]]


@pytest.mark.parametrize("spec, expected", [
    ("x=0:1:11", [float(f"0.{i}") for i in range(10)] + [1.0]),    # 0.3, not 0.30000000000000004
    ("x=0.1:0.7:7", [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]),
    ("x=-1:1:5", [-1.0, -0.5, 0.0, 0.5, 1.0]),
    ("x=1:0:3", [1.0, 0.5, 0.0]),
    ("x=2.5e-3:7.5e-3:3", [2.5e-3, 5e-3, 7.5e-3]),
    ("x=0:1:0000000000005", [0.0, 0.25, 0.5, 0.75, 1.0]),           # 5 points, zero-padded
    ("x=-1e308:1e308:3", [-1e308, 0.0, 1e308]),                      # no overflow
    ("x=3:3:1", [3.0]),
])
def test_grid_values_are_as_typed(capsys, spec, expected):
    assert grid_values(capsys, spec) == expected


def test_grid_with_constant_ends_keeps_the_ends_exact(capsys):
    values = grid_values(capsys, "x=pi/4:pi/2:3")
    assert values[0] == math.pi / 4 and values[2] == math.pi / 2
    assert abs(values[1] - 3 * math.pi / 8) <= 2 * math.ulp(3 * math.pi / 8)


def test_points_cells_take_what_at_takes(capsys, tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("x\npi/4\n2^-1\n−2\nsqrt(2)\n", encoding="utf-8")
    code, out, err = run(capsys, "eval", "x", "--points", str(path), "--format", "plain")
    assert code == 0, err
    assert [float(v) for v in out.split()] == [math.pi / 4, 0.5, -2.0, math.sqrt(2)]


def test_a_points_cell_that_is_no_constant_says_why(capsys, tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("x\n2*y\n", encoding="utf-8")
    code, out, err = run(capsys, "eval", "x", "--points", str(path))
    assert (code, out) == (2, "")
    assert "line 2, column 'x': '2*y' is not a number or constant expression (it uses y)" in err


# ----- input streams ----------------------------------------------------------------------

# x*y at (1, 2) and (3, 0.5): values 2 and 1.5; gradients (y, x)
STREAMS = {
    "csv": "x,y\n1,2\n3,0.5\n",
    "tsv": "x\ty\n1\t2\n3\t0.5\n",
    "plain": "  x   y\n1 2\n\n3    0.5\n",
    "jsonl": '{"x": 1, "y": 2}\n{"x": 3, "y": "1/2"}\n',
    "csv-comments": "# made by hand\nx,y\n1,2\n# a comment\n3,0.5\n",
}


@pytest.mark.parametrize("fmt", list(STREAMS))
@pytest.mark.parametrize("named", [False, True])
def test_points_streams_in_every_format(capsys, monkeypatch, fmt, named):
    monkeypatch.setattr(sys, "stdin", io.StringIO(STREAMS[fmt]))
    options = ["--points-format", fmt.split("-")[0]] if named else []
    code, out, err = run(capsys, "grad", "x*y", "--points", "-", *options, "--format", "csv")
    assert code == 0, err
    assert out.splitlines() == ["x,y,f,df/dx,df/dy", "1.0,2.0,2.0,2.0,1.0",
                                "3.0,0.5,1.5,0.5,3.0"]


def test_points_format_overrides_detection(capsys, monkeypatch):
    # Read as CSV, "x y" is one column (passed through), so x and y have no values.
    monkeypatch.setattr(sys, "stdin", io.StringIO("x y\n1 2\n"))
    code, out, err = run(capsys, "grad", "x*y", "--points", "-", "--points-format", "csv")
    assert (code, out) == (2, "")
    assert "no value given for x and y" in err and "'x y'" in err


def test_columns_names_headerless_input(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1,2\n3,4\n"))
    code, out, err = run(capsys, "eval", "x-y", "--points", "-", "--columns", "x,y",
                         "--format", "plain")
    assert (code, out) == (0, "-1.0\n-1.0\n"), err


def test_plain_output_pipes_back_in(executable):
    # x^2 on 0, 0.5, 1: plain gives "f df/dx" per line; read back as v, d: v + d = x^2 + 2x
    first = subprocess.run([executable, "grad", "x^2", "--grid", "x=0:1:3", "--format", "plain"],
                           capture_output=True, text=True, env=child_env(), timeout=60)
    second = subprocess.run([executable, "eval", "v + d", "--points", "-", "--columns", "v,d",
                             "--format", "plain"], input=first.stdout, capture_output=True,
                            text=True, env=child_env(), timeout=60)
    assert second.returncode == 0, second.stderr
    assert second.stdout.split() == ["0.0", "1.25", "3.0"]


@pytest.fixture(scope="module")
def executable():
    return adcli_executable()


PASS_THROUGH = 'id,x,label\np1,2,"north, upper"\np2,3,south\n'


@pytest.mark.parametrize("fmt, expected", [
    # x^2 at 2 and 3: 4, 4 and 9, 6; id and label as read
    ("csv", 'id,label,x,f,df/dx\np1,"north, upper",2.0,4.0,4.0\np2,south,3.0,9.0,6.0\n'),
    ("tsv", "id\tlabel\tx\tf\tdf/dx\np1\tnorth, upper\t2.0\t4.0\t4.0\np2\tsouth\t3.0\t9.0\t6.0\n"),
    ("plain", "p1 north, upper 4.0 4.0\np2 south 9.0 6.0\n"),
    ("jsonl", '{"at": {"x": 2.0}, "extra": {"id": "p1", "label": "north, upper"}, '
              '"value": 4.0, "gradient": {"x": 4.0}}\n'
              '{"at": {"x": 3.0}, "extra": {"id": "p2", "label": "south"}, '
              '"value": 9.0, "gradient": {"x": 6.0}}\n'),
])
def test_columns_that_are_not_variables_pass_through(capsys, tmp_path, fmt, expected):
    path = tmp_path / "p.csv"
    path.write_text(PASS_THROUGH, encoding="utf-8")
    code, out, err = run(capsys, "grad", "x^2", "--points", str(path), "--format", fmt)
    # plain output cannot keep "north, upper" one field, and says so
    said = ("adcli: warning: column 'label' has the value 'north, upper': plain output "
            "separates fields by spaces, so its lines cannot be split back into columns "
            "(--format tsv or csv keeps every value)\n") if fmt == "plain" else ""
    assert (code, out, err) == (0, expected, said)


def test_json_lines_values_pass_through_with_their_type(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(
        '{"x": 2, "id": 7, "tags": ["a", 1], "ok": true}\n'))
    code, out, err = run(capsys, "eval", "x^2", "--points", "-", "--format", "json")
    assert code == 0, err
    assert json.loads(out)["points"] == [{"at": {"x": 2.0}, "value": 4.0,
                                          "extra": {"id": 7, "tags": ["a", 1], "ok": True}}]


def test_passed_through_columns_in_a_table():
    out = io.StringIO()
    pipeline.run(Grad, ["x^2"], out=out, err=io.StringIO(), width=120,
                 points_file=io.StringIO(PASS_THROUGH))
    header = next(line for line in out.getvalue().splitlines() if line.startswith("┃"))
    assert [h.strip() for h in header.strip("┃").split("┃")] == ["id", "label", "x", "f",
                                                                  "∂f/∂x"]
    assert "north, upper" in out.getvalue()


def test_tsv_escapes_tabs_and_line_breaks_in_passed_through_fields(capsys, tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text('{"x": 1, "note": "a\\tb\\nc"}\n', encoding="utf-8")
    code, out, _ = run(capsys, "eval", "x", "--points", str(path), "--format", "tsv")
    assert (code, out) == (0, "note\tx\tf\na\\tb\\nc\t1.0\t1.0\n")


def test_tsv_escapes_a_backslash_so_a_fields_own_backslash_t_is_not_a_tab(capsys, tmp_path):
    """A field holding a tab and one holding backslash-t both came out as a\\tb."""
    path = tmp_path / "p.csv"
    path.write_text('id,x\n"a\\tb",1\n"c\td",2\n', encoding="utf-8")
    code, out, _ = run(capsys, "eval", "x", "--points", str(path), "--format", "tsv")
    assert (code, out) == (0, "id\tx\tf\na\\\\tb\t1.0\t1.0\nc\\td\t2.0\t2.0\n")


@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_no_header(capsys, fmt):
    code, out, _ = run(capsys, "grad", "x*x", "--at", "x=3", "--format", fmt, "--no-header")
    assert (code, out) == (0, "3.0,9.0,6.0\n" if fmt == "csv" else "3.0\t9.0\t6.0\n")


def test_jsonl_is_one_point_per_line(capsys):
    # x^3 on -1, 0, 1: (-1, 3), (0, 0), (1, 3)
    code, out, _ = run(capsys, "grad", "x^3", "--grid", "x=-1:1:3", "--format", "jsonl")
    assert code == 0
    assert [json.loads(line) for line in out.splitlines()] == [
        {"at": {"x": x}, "value": x ** 3, "gradient": {"x": 3 * x ** 2}} for x in (-1.0, 0.0, 1.0)]


def test_jsonl_puts_a_points_warnings_in_it(capsys):
    # abs(x) on -1, 0, 1: a kink at 0 only; values |x|, derivatives sign(x) (0 at the kink)
    code, out, _ = run(capsys, "grad", "abs(x)", "--grid", "x=-1:1:3", "--format", "jsonl")
    assert code == 0
    points = [json.loads(line) for line in out.splitlines()]
    assert [(p["value"], p["gradient"]["x"]) for p in points] == [(1.0, -1.0), (0.0, 0.0),
                                                                 (1.0, 1.0)]
    assert ["warnings" in p for p in points] == [False, True, False]
    assert [(w["function"], w["kind"]) for w in points[1]["warnings"]] == [("abs", "kink")]


def test_a_helper_inside_a_rule_is_named_as_the_function_it_serves(capsys, tmp_path):
    # f = a^b at a = 0: with b = 1, f_ab = a^(b-1)(1 + b ln a) = 1 + ln a -> -inf (and
    # the helper of pow's rule, d/da a^b, makes it); with b = 0.5 f_aa = -0.25 a^-1.5
    # -> -inf too (that one from '^' itself). Both are '^' to the reader: "pow_diff" in
    # JSON once, and stderr said "the derivative of '^'" twice, 1 of 2 points each.
    points = tmp_path / "points.csv"
    points.write_text("a,b\n0,1\n0,0.5\n")
    code, out, err = run(capsys, "hessian", "a^b", "--points", str(points), "--format", "jsonl")
    assert code == 0
    points = [json.loads(line) for line in out.splitlines()]
    assert [[w["function"] for w in p["warnings"] if w["kind"] == "derivative"]
            for p in points] == [["^"], ["^"]]
    derivative = [line for line in err.splitlines() if "derivative of" in line]
    assert derivative == ["adcli: warning: the derivative of '^' is nan or inf at 2 of 2 "
                          "points (a base of 0 or less, whose ln the exponent's derivative "
                          "takes, or 0 to a power below 1, a vertical tangent, or 1 to a "
                          "power of ±inf or nan, whose slope in the base, the exponent, is "
                          "not finite)"]


def test_a_powers_nan_derivative_in_its_exponent_is_put_down_to_a_negative_base(capsys):
    """x^y at x = -2: d/dy = x^y ln(x) is nan; the warning said 'an edge of its domain or
    a vertical tangent', neither of which it is."""
    code, out, err = run(capsys, "grad", "x^y", "--at", "x=-2,y=3", "--format", "plain")
    assert (code, out) == (0, "-8.0 12.0 nan\n")
    assert err == ("adcli: warning: the derivative of '^' is nan or inf at 1 of 1 point (a "
                   "base of 0 or less, whose ln the exponent's derivative takes, or 0 to a "
                   "power below 1, a vertical tangent, or 1 to a power of ±inf or nan, "
                   "whose slope in the base, the exponent, is not finite)\n")


def test_a_json_document_over_many_chunks_is_one_object_with_its_warnings(capsys):
    # 200,001 points (4 chunks) of abs(x - 1/2) from 0 to 1: the kink at x = 1/2 is
    # point 100,000 (exact: 100000/200000); every value is |x - 1/2|.
    code, out, _ = run(capsys, "grad", "abs(x-1/2)", "--grid", "x=0:1:200001",
                       "--format", "json")  # (grad: eval, which shows no derivative, says no kink)
    assert code == 0
    document = json.loads(out)
    assert list(document) == ["expression", "parsed", "variables", "points", "warnings"]
    assert len(document["points"]) == 200_001
    assert [w["at"] for w in document["warnings"]] == [{"x": 0.5}]
    assert all(p["value"] == abs(p["at"]["x"] - 0.5) for p in document["points"])


@pytest.mark.parametrize("fmt", ["csv", "tsv", "plain", "jsonl", "json"])
def test_streaming_formats_write_each_chunk_as_it_finishes(executable, fmt):
    """One chunk's worth of rows (65,536) on stdin, which stays open: its results must
    come out before the input ends. (Written by a thread: the results come out while the
    rows go in, and a pipe holds only 64 KiB of them.)"""
    import threading

    child = subprocess.Popen([executable, "eval", "2*x", "--points", "-", "--format", fmt],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=child_env())

    def write():
        try:
            child.stdin.write(("x\n" + "".join(f"{i}\n" for i in range(65536))).encode())
            child.stdin.flush()
        except BrokenPipeError:     # killed below before taking it all: the test is done
            pass

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        first, deadline = "", time.monotonic() + 60
        while "0.0" not in first and time.monotonic() < deadline:
            if select.select([child.stdout], [], [], 1)[0]:
                first += os.read(child.stdout.fileno(), 4096).decode()
        assert "0.0" in first, "no result written while the input is still open"
        assert child.poll() is None
    finally:
        child.kill()
        child.wait()


def written_points(fmt: str, out: str) -> list[list[str]]:
    """(x, f) of each point an eval run wrote, in any format."""
    if fmt == "json":
        return [[repr(p["at"]["x"]), repr(p["value"])] for p in json.loads(out)["points"]]
    if fmt == "jsonl":
        return [[repr(p["at"]["x"]), repr(p["value"])] for p in map(json.loads, out.splitlines())]
    if fmt == "table":
        return [NUMBER.findall(line) for line in out.splitlines() if line.startswith("│")]
    if fmt == "plain":
        return [["?", line] for line in out.splitlines()]
    header, *rows = out.splitlines()
    assert header == ("x,f" if fmt == "csv" else "x\tf")
    return [re.split("[,\t]", row) for row in rows]


@pytest.mark.parametrize("fmt", ["csv", "tsv", "plain", "jsonl", "json", "table"])
def test_a_bad_row_in_the_first_chunk_keeps_the_rows_before_it(capsys, tmp_path, fmt):
    # 2*x at x = 1, 2, then "oops": the two results are written, then the error.
    path = tmp_path / "p.csv"
    path.write_text("x\n1\n2\noops\n4\n", encoding="utf-8")
    code, out, err = run(capsys, "eval", "2*x", "--points", str(path), "--format", fmt)
    assert code == 2
    assert "line 4" in err and "'oops'" in err
    expected = [["1.0", "2.0"], ["2.0", "4.0"]]
    if fmt == "plain":
        expected = [["?", "2.0"], ["?", "4.0"]]
    assert written_points(fmt, out) == expected


def test_strict_writes_the_points_before_the_first_nan(capsys):
    # log(x) at x = 1, 0.5, 0, -1: finite, finite, -inf: the first two are written.
    code, out, err = run(capsys, "eval", "log(x)", "--grid", "x=1:-1:5", "--strict",
                         "--format", "csv")
    assert code == EXIT_NONFINITE
    assert out.splitlines() == ["x,f", "1.0,0.0", f"0.5,{math.log(0.5)!r}"]


@pytest.mark.parametrize("fmt", ["table", "json", "jsonl", "csv", "tsv", "plain"])
def test_a_closed_pipe_exits_0_quietly(executable, fmt):
    # | head -c 100: far more output than a pipe buffer (64 KiB) holds
    points = 3000 if fmt == "table" else 20000
    child = subprocess.Popen([executable, "grad", "x*y", "--grid", f"x=0:1:{points}", "--at",
                              "y=2", "--format", fmt], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=child_env())
    child.stdout.read(100)
    child.stdout.close()
    err = child.stderr.read()
    assert (child.wait(timeout=120), err) == (0, b"")


def test_interrupt_exits_130(executable):
    child = subprocess.Popen([executable, "grad", "x", "--points", "-"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=child_env())
    child.stdin.write(b"x\n1\n")
    child.stdin.flush()
    time.sleep(1.5)                   # started, and waiting for more input
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=60)
    assert child.returncode == EXIT_INTERRUPTED
    assert err.decode().strip() == "adcli: interrupted"


def test_readme_exit_codes_list_every_status():
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Errors and exit codes"):]
    table = section[:section.index("\n\n", section.index("| status"))]
    statuses = {int(m) for m in re.findall(r"^\| (\d+) \|", table, re.M)}
    assert statuses >= {0, EXIT_BAD_INPUT, EXIT_NONFINITE, EXIT_INTERNAL, EXIT_INTERRUPTED}
    assert "--strict" in table and "stdout" in table


# ----- progress ---------------------------------------------------------------------------

class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_bar_on_a_terminal_stderr(monkeypatch):
    monkeypatch.setattr(progress, "DELAY", 0.0)
    out, err = io.StringIO(), Terminal()
    pipeline.run(Eval, ["x"], out=out, err=err, fmt="csv", grid=("x=0:1:200000",))
    shown = ANSI.sub("", err.getvalue())
    assert "/200,000 points" in shown and "points/s" in shown and "ETA" in shown
    assert "points/s" not in out.getvalue() and "\x1b" not in out.getvalue()
    assert len(out.getvalue().splitlines()) == 200_001


def test_no_progress_bar_when_stderr_is_not_a_terminal(monkeypatch):
    monkeypatch.setattr(progress, "DELAY", 0.0)
    err = io.StringIO()
    pipeline.run(Eval, ["x"], out=io.StringIO(), err=err, fmt="csv", grid=("x=0:1:200000",))
    assert err.getvalue() == ""


def test_no_progress_bar_over_lines_streaming_onto_the_terminal(monkeypatch):
    monkeypatch.setattr(progress, "DELAY", 0.0)
    err = Terminal()
    pipeline.run(Eval, ["x"], out=Terminal(), err=err, fmt="csv", grid=("x=0:1:200000",))
    assert err.getvalue() == ""


def test_no_bar_for_a_short_run_in_a_terminal(executable, tmp_path):
    code, shown = in_pty([executable, "grad", "x^2", "--grid", "x=0:1:1000", "--format",
                          "csv"], 80)
    assert code == 0 and "points/s" not in shown


def test_progress_bar_in_a_real_terminal_for_a_long_run(executable, tmp_path):
    """stderr is a pseudo-terminal, stdout a file; the run takes more than a second (600,000
    points took about one on a fast machine: no bar, and the test failed)."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    with open(tmp_path / "out.csv", "wb") as out:
        child = subprocess.Popen([executable, "grad", "sin(x)*exp(x)/(1+x^2)", "--grid",
                                  "x=0:1:1500000", "--format", "csv"], stdout=out, stderr=slave,
                                 stdin=subprocess.DEVNULL, env=child_env())
    os.close(slave)
    shown = b""
    while True:
        try:
            block = os.read(master, 65536)
        except OSError:
            break
        if not block:
            break
        shown += block
    os.close(master)
    assert child.wait(timeout=600) == 0
    text = ANSI.sub("", shown.decode("utf-8", "replace"))
    assert "/1,500,000 points" in text and "points/s" in text, text[-500:]
    with open(tmp_path / "out.csv") as out:
        assert sum(1 for _ in out) == 1_500_001


# ----- shell completion -------------------------------------------------------------------

def test_shell_completion_works_as_documented(executable):
    assert "eval \"$(_ADCLI_COMPLETE=bash_source adcli)\"" in README.read_text(encoding="utf-8")
    script = subprocess.run([executable], env=child_env(_ADCLI_COMPLETE="bash_source"),
                            capture_output=True, text=True, timeout=60)
    assert "complete " in script.stdout and "_adcli_completion" in script.stdout
    words = subprocess.run([executable], env=child_env(_ADCLI_COMPLETE="bash_complete",
                                                       COMP_WORDS="adcli gr", COMP_CWORD="1"),
                           capture_output=True, text=True, timeout=60)
    assert "plain,grad" in words.stdout.split()


# ----- memory -----------------------------------------------------------------------------

_LAUNCHER = ("import os, sys\npid = os.fork()\nif pid == 0:\n    os.execv(sys.argv[1], sys.argv[1:])\n"
             "_, status, usage = os.wait4(pid, 0)\n"
             "sys.stderr.write(f'\\nPEAK {os.waitstatus_to_exitcode(status)} {usage.ru_maxrss}\\n')\n")


def peak_rss_mb(argv, rows: int) -> float:
    """Peak RSS of adcli reading ``rows`` CSV rows on stdin (written as it reads)."""
    child = subprocess.Popen([sys.executable, "-S", "-c", _LAUNCHER, *argv],
                             stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, env=child_env())
    child.stdin.write(b"x,y\n")
    block = "".join(f"{i % 1000 / 7!r},{i % 977 / 3!r}\n" for i in range(100_000)).encode()
    for _ in range(rows // 100_000):
        child.stdin.write(block)
    child.stdin.close()
    err = child.stderr.read().decode()
    child.wait()
    _, code, rss = err.strip().splitlines()[-1].split()
    assert code == "0", err
    return int(rss) / 1024


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("ADCLI_SLOW") != "1", reason="minutes: ADCLI_SLOW=1")
@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_a_million_points_stream_in_flat_memory(executable, fmt):
    # README "Streams": 10^7 rows stay under 300 MB; here 10^6 (a minute or two). Before
    # issue 11, json kept every point in memory until the end.
    assert peak_rss_mb([executable, "grad", "sin(x)*y", "--points", "-", "--format", fmt],
                       1_000_000) < 300


# Where each function's value goes nan or inf from finite arguments, and what the warning
# must say of it there (the function's own value_reason, checked against a point of it).
NONFINITE = [("sqrt(x)", "-1", "sqrt gave nan or inf", "a negative argument"),
             ("log(x)", "0", "log gave nan or inf", "0 gives -inf"),
             ("log1p(x)", "-2", "log1p gave nan or inf", "below -1 gives nan"),
             ("x^y", "x=-8,y=1/3", "'^' gave nan or inf", "a negative base to a fractional"),
             ("x^y", "x=0,y=-1", "'^' gave nan or inf", "0 to a negative power"),
             ("1/x", "0", "'/' gave nan or inf", "a division by 0"),
             ("asin(x)", "2", "asin gave nan or inf", "outside [-1, 1]"),
             ("acosh(x)", "0.5", "acosh gave nan or inf", "below 1"),
             ("atanh(x)", "1", "atanh gave nan or inf", "±1 gives ±inf"),
             ("asec(x)", "0.5", "asec gave nan or inf", "between -1 and 1"),
             ("cot(x)", "0", "cot gave nan or inf", "its pole at 0"),
             ("coth(x)", "0", "coth gave nan or inf", "its pole at 0"),
             ("exp(x)", "1000", "exp gave nan or inf", "(overflow)"),
             ("x*x", "1e200", "'*' gave nan or inf", "(overflow)")]


@pytest.mark.parametrize("text, at, said, why", NONFINITE, ids=[f"{t} at {a}" for t, a, _, _
                                                                  in NONFINITE])
def test_a_nonfinite_value_is_explained_for_the_function_that_made_it(cli, text, at, said,
                                                                       why):
    code, _, err = cli("eval", text, "--at", at if "=" in at else f"x={at}")
    assert code == 0
    (line,) = [w for w in warnings_in(err) if said in w]
    assert why in line and "outside its domain, a pole" not in line


# ----- folding between names and numbers, escaping names --------------------------------

LONG_NAME = "abcdefghijklmnopqrstuvwxyz_0123"
LONG_AT = f"{LONG_NAME}=-1.2345678901234567e-300,q=3.3333333333333335e-7"


def test_a_matrix_title_folds_between_pairs_never_inside_a_number():
    # "Hessian at NAME=-1.2345678901234568e-300, q=..." at 40 columns: rich folded it
    # inside the number ("=-1.23456" / "78901234568e-300,").
    code, output = in_pty([adcli_executable(), "hessian", f"exp({LONG_NAME}*q)",
                           "--at", LONG_AT], 40)
    assert code == 0, output
    lines = output.splitlines()
    start = lines.index("Hessian at")
    assert lines[start + 1:start + 4] == [f"  {LONG_NAME}=", "    -1.2345678901234568e-300,",
                                          "  q=3.3333333333333335e-07"]
    assert all(cell_len(line) <= 40 for line in lines), output


def test_label_value_lines_never_leave_a_label_to_the_terminal_to_split():
    # At 40 columns "  ∂f/∂NAME =" is 43 wide: the terminal broke it inside the name. The
    # label (39 wide) now has the line to itself, and "= value" goes under it.
    name = "n" * 35
    output = table_at_width(Grad, [f"{name}^2"], 40, at=(f"{name}=0.1",))
    lines = output.splitlines()
    assert f"∂f/∂{name}" in lines and "    = 0.2" in lines
    assert all(cell_len(line) <= 40 for line in lines), output


def test_a_header_from_a_points_file_is_escaped_in_tables_as_its_cells_are(capsys,
                                                                          tmp_path):
    # An escape sequence in a column's name turned the terminal red (the cells were
    # escaped, the header not). CSV keeps the name as read, as it keeps the cells.
    points = tmp_path / "esc.csv"
    points.write_text("x,\x1b[31mred\n1,\x1b[1mbold\n", encoding="utf-8")
    code, out, err = run(capsys, "grad", "x", "--points", str(points))
    assert code == 0, err
    assert "\x1b" not in out and "\\x1b[31mred" in out and "\\x1b[1mbold" in out
    header = next(line for line in out.splitlines() if "red" in line)
    assert [cell_len(line) for line in out.splitlines()[1:]] == [len(header)] * 5  # aligned
    for width in (40, 12):                 # a column per point; label = value lines
        with open(points, encoding="utf-8") as stream:
            shown = table_at_width(Grad, ["x"], width, points_file=stream)
        assert "\x1b" not in shown and "\\x1b[31mred" in shown
    code, out, err = run(capsys, "grad", "x", "--points", str(points), "--format", "csv")
    assert out.splitlines()[0] == "\x1b[31mred,x,f,df/dx"    # passed through first


def test_jacobian_legend_lines_go_on_under_their_expression():
    # f1's folded "read as:" line went on at column 0, while f2's line stood indented.
    f1 = "sin(x)*exp(-x/4) + x^2/100 - cos(3*x)/7 + y*z"
    f2 = "x*y + y^2 + sin(x)*cos(y)*exp(x*y)"
    output = table_at_width(Jacobian, [f1, f2], 40, at=("x=1,y=2,z=3",))
    lines = output.splitlines()
    legend = lines[:next(i for i, line in enumerate(lines) if line.startswith("Jacobian"))]
    assert legend[0].startswith("read as: f1 = ") and len(legend) > 2
    f2_line = next(i for i, line in enumerate(legend) if line.startswith("         f2 = "))
    assert all(line.startswith(" " * 14) for k, line in enumerate(legend) if k not in
               (0, f2_line))
    assert all(cell_len(line) <= 40 for line in legend)
