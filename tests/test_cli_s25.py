"""Session 25's command-line findings: a --grid count of 1 between two different ends, a
--grid with an end left out, data written to an output encoding that cannot hold its
names, arguments a non-UTF-8 locale could not decode, and the progress bar after Ctrl-C."""
from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import run_cli

CHECKOUT = Path(__file__).resolve().parent.parent


def adcli_in(env: dict, *argv, cwd=None) -> tuple[int, bytes, bytes]:
    """``adcli ARGV`` from this checkout in a process of its own, with ``env`` over a clean
    environment (no inherited encoding settings): (status, stdout, stderr) as bytes."""
    base = {k: v for k, v in os.environ.items()
            if k not in ("PYTHONIOENCODING", "PYTHONUTF8", "LC_ALL", "LANG", "LC_CTYPE")}
    done = subprocess.run([sys.executable, "-m", "adcli", *argv], capture_output=True,
                          env={**base, "PYTHONPATH": str(CHECKOUT), **env}, cwd=cwd,
                          timeout=120)
    return done.returncode, done.stdout, done.stderr


# ----- 1. a count of 1 holds one value ----------------------------------------------------

def test_a_count_of_1_between_different_ends_is_an_error_not_the_start_alone():
    code, out, err = run_cli("eval", "x", "--grid", "x=1:2:1", "--format", "csv")
    assert (code, out) == (2, ""), (code, out, err)
    assert err == ("adcli: error: --grid 'x=1:2:1': a count of 1 holds one value, so it "
                   "cannot include both 1 and 2: give a count of at least 2 (1:2:2), or for "
                   "the one value 1:1:1 or --at x=1\n")


@pytest.mark.parametrize("grid", ["x=2:2:1", "x=2:2.0:1", "x=2:4/2:1"])
def test_a_count_of_1_with_equal_ends_is_that_one_point(grid):
    code, out, err = run_cli("grad", "x^3", "--grid", grid, "--format", "csv")
    assert code == 0, err
    assert out == "x,f,df/dx\n2.0,8.0,12.0\n"      # x^3 = 8 and 3x^2 = 12 at 2


def test_a_count_of_2_holds_both_ends():
    code, out, err = run_cli("grad", "x^2", "--grid", "x=1:2:2", "--format", "csv")
    assert code == 0, err
    assert out == "x,f,df/dx\n1.0,1.0,2.0\n2.0,4.0,4.0\n"


# ----- 2. an end left out is named, the same for every command -----------------------------

COMMANDS = [("eval", "x^2"), ("grad", "x^2"), ("hessian", "x^2"), ("check", "x^2", "2*x"),
            ("plot", "x^2")]
FORM = "start:stop:count with a whole count of at least 1"
PLOT_FORM = "start:stop or start:stop:count with a whole count of at least 2"


@pytest.mark.parametrize("command", COMMANDS, ids=[c[0] for c in COMMANDS])
@pytest.mark.parametrize("grid, missing", [("x=0:", "the stop is"), ("x=:1:3", "the start is"),
                                           ("x=:1", "the start is"),
                                           ("x=::", "the start, stop and count are")])
def test_an_end_left_out_of_a_grid_is_named(command, grid, missing):
    code, out, err = run_cli(*command, "--grid", grid)
    form = PLOT_FORM if command[0] == "plot" else FORM
    assert (code, out) == (2, ""), (code, out, err)
    assert err == f"adcli: error: --grid '{grid}': {missing} missing ({form})\n"


def test_a_grid_without_its_count_is_named_where_the_count_is_needed():
    code, _, err = run_cli("grad", "x^2", "--grid", "x=0:1:")
    assert code == 2
    assert err == f"adcli: error: --grid 'x=0:1:': the count is missing ({FORM})\n"


def test_plots_grid_is_described_as_plot_takes_it():
    code, _, err = run_cli("plot", "x^2", "--grid", "x=0:1:0")
    assert code == 2
    assert err == f"adcli: error: --grid 'x=0:1:0': '0:1:0' is not {PLOT_FORM}\n"


@pytest.mark.parametrize("command, grid, written", [
    (("plot", "sin(x)"), "x=0..1", "x=0:1"),
    (("grad", "x^2"), "x=0..1", "x=0:1:COUNT"),
    (("grad", "x^2"), "x=0..1:5", "x=0:1:5"),
    (("eval", "x"), "x=-1 .. 1:3", "x=-1:1:3"),
])
def test_a_range_written_with_two_dots_is_told_its_colons(command, grid, written):
    code, _, err = run_cli(*command, "--grid", grid)
    assert code == 2
    assert err == (f"adcli: error: --grid '{grid}': a range is written with ':', not '..': "
                   f"write '{written}'\n")


# ----- 3. data formats never mangle what the output encoding cannot hold ---------------------

@pytest.fixture
def unicode_points(tmp_path):
    (tmp_path / "u.csv").write_text("θ,x₁,é\n1,2,3\n", encoding="utf-8")
    (tmp_path / "label.csv").write_text("x,label\n1,a\n2,é\n", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_a_name_the_output_encoding_cannot_hold_is_an_error(unicode_points, fmt):
    code, out, err = adcli_in({"PYTHONIOENCODING": "ascii"}, "grad", "sin(θ)*x₁",
                              "--points", "u.csv", "--format", fmt, cwd=unicode_points)
    assert (code, out) == (2, b""), (code, out, err)
    # (the passed-through column comes first; click writes stderr's message in UTF-8)
    assert err.decode("utf-8") == (
        "adcli: error: the output's encoding (ascii) cannot write 'é' (a column name): run "
        "with PYTHONIOENCODING=utf-8 (or a UTF-8 locale, e.g. LC_ALL=C.UTF-8)\n")


@pytest.mark.parametrize("fmt", ["csv", "plain"])
def test_a_cell_the_output_encoding_cannot_hold_is_an_error(unicode_points, fmt):
    code, out, err = adcli_in({"PYTHONIOENCODING": "ascii"}, "grad", "x^2", "--points",
                              "label.csv", "--format", fmt, cwd=unicode_points)
    assert code == 2, (out, err)
    assert b"\\xe9" not in out and b"\\u00e9" not in out, out
    assert err.decode("utf-8") == (
        "adcli: error: the output's encoding (ascii) cannot write 'é' (a value of column "
        "'label'): run with PYTHONIOENCODING=utf-8 (or a UTF-8 locale, e.g. LC_ALL=C.UTF-8)\n")


def test_json_keeps_names_in_its_own_escapes_under_a_narrow_encoding(unicode_points):
    code, out, err = adcli_in({"PYTHONIOENCODING": "ascii"}, "grad", "sin(θ)*x₁",
                              "--points", "u.csv", "--format", "jsonl", cwd=unicode_points)
    assert code == 0, err
    point = json.loads(out.decode("ascii"))
    assert point["extra"] == {"é": "3"} and point["at"] == {"θ": 1.0, "x1": 2.0}
    assert math.isclose(point["gradient"]["θ"], 2 * math.cos(1), rel_tol=1e-15)
    assert math.isclose(point["gradient"]["x1"], math.sin(1), rel_tol=1e-15)


def test_an_encoding_that_holds_the_names_writes_them_in_it(unicode_points):
    code, out, err = adcli_in({"PYTHONIOENCODING": "latin-1"}, "grad", "x^2", "--points",
                              "label.csv", "--format", "csv", cwd=unicode_points)
    assert code == 0, err
    assert out == b"label,x,f,df/dx\na,1.0,1.0,2.0\n\xe9,2.0,4.0,4.0\n"


# ----- 4. arguments a non-UTF-8 locale could not decode --------------------------------------

C_LOCALE = {"PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0", "LC_ALL": "C"}


def test_utf8_arguments_under_the_c_locale_are_read_as_typed():
    code, out, err = adcli_in(C_LOCALE, "grad", "sin(θ)*x₁", "--at", "θ=1,x₁=2",
                              "--format", "json")
    assert code == 0, err
    point = json.loads(out.decode("ascii"))["points"][0]
    assert math.isclose(point["value"], 2 * math.sin(1), rel_tol=1e-15)
    assert math.isclose(point["gradient"]["θ"], 2 * math.cos(1), rel_tol=1e-15)
    assert math.isclose(point["gradient"]["x1"], math.sin(1), rel_tol=1e-15)


@pytest.mark.parametrize("argv, what", [
    ([b"grad", b"sin(\xe9)", b"--at", b"x=1"], "the expression"),
    ([b"grad", b"sin(x)", b"--at", b"\xe9=1"], "the value of --at"),
    ([b"grad", b"x*y", b"--at", b"x=1,y=2", b"--wrt", b"\xe9"], "the value of --wrt"),
])
def test_an_argument_that_is_no_utf8_is_said_to_be_no_text(argv, what):
    code, out, err = adcli_in(C_LOCALE, *argv)
    assert (code, out) == (2, b""), (code, out, err)
    assert err.decode("ascii") == (
        f"adcli: error: {what} is not text in this terminal's encoding (ascii): run with a "
        "UTF-8 locale, e.g. LC_ALL=C.UTF-8\n")


def test_an_expression_file_name_keeps_its_bytes(tmp_path):
    # A file name is not decoded as typed text: its bytes are the file's name.
    (tmp_path / "caf\u00e9.txt").write_text("x^3", encoding="utf-8")
    code, out, err = adcli_in(C_LOCALE, "grad", "@caf\u00e9.txt", "--at", "x=2",
                              "--format", "json", cwd=tmp_path)
    assert code == 0, err
    point = json.loads(out)["points"][0]
    assert (point["value"], point["gradient"]["x"]) == (8.0, 12.0)


# ----- 5. the progress bar is gone after Ctrl-C ---------------------------------------------

def terminal_screen(data: bytes, columns: int) -> list[str]:
    """The rows a terminal ``columns`` wide shows after ``data``: text, CR, LF, cursor up,
    erase line; a character written past the last column wraps first (as xterm and tmux
    hold the cursor at the edge until the next character)."""
    rows, row, col, pending = [[]], 0, 0, False
    text = data.decode("utf-8", "replace")
    i = 0
    while i < len(text):
        control = re.match(r"\x1b\[\??([\d;]*)([A-Za-z])", text[i:])
        if control:
            i += control.end()
            if control[2] == "A":
                row, pending = max(0, row - int(control[1] or 1)), False
            elif control[2] == "K" and control[1] == "2":
                rows[row] = []
            continue
        c, i = text[i], i + 1
        if c == "\r":
            col, pending = 0, False
        elif c == "\n":
            row, pending = row + 1, False
        elif c >= " ":
            if pending:
                row, col, pending = row + 1, 0, False
            rows.extend([] for _ in range(row + 1 - len(rows)))
            line = rows[row]
            line.extend(" " * (col + 1 - len(line)))
            line[col] = c
            pending = col == columns - 1
            col += not pending
        rows.extend([] for _ in range(row + 1 - len(rows)))
    return ["".join(line).rstrip() for line in rows]


def interrupted_on_terminal(columns: int, argv: list[str]) -> tuple[int, bytes]:
    """``adcli ARGV`` with stderr on a terminal ``columns`` wide (stdout to /dev/null),
    Ctrl-C typed into the terminal once its progress bar is drawn: the terminal echoes
    "^C" where its cursor is, as a user's does."""
    import fcntl
    import select
    import struct
    import termios

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))

    def own_terminal():     # the terminal's Ctrl-C goes to its foreground process group
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    env.update(TERM="xterm", PYTHONUTF8="1", PYTHONPATH=str(CHECKOUT))
    child = subprocess.Popen([sys.executable, "-m", "adcli", *argv], stdin=slave,
                             stdout=subprocess.DEVNULL, stderr=slave, env=env,
                             preexec_fn=own_terminal)
    os.close(slave)
    data, typed, deadline = b"", False, time.monotonic() + 90
    try:
        while time.monotonic() < deadline:
            if not typed and b"points" in data:
                time.sleep(0.3)     # a frame or two more: the bar as it stands
                os.write(master, b"\x03")
                typed = True
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    block = os.read(master, 65536)
                except OSError:     # EIO: the child has closed the terminal
                    break
                if not block:
                    break
                data += block
            elif child.poll() is not None:
                break
    finally:
        if child.poll() is None:
            child.kill()
        code = child.wait(timeout=30)
        os.close(master)
    assert typed, data
    return code, data


def test_the_progress_bar_is_gone_from_an_80_column_terminal_after_ctrl_c():
    code, data = interrupted_on_terminal(80, ["eval", "sin(x)*exp(x)", "--grid",
                                              "x=0:1:100000000", "--format", "csv"])
    screen = [row for row in terminal_screen(data, 80) if row]
    assert code == 130, screen
    assert screen == ["adcli: interrupted"], screen



@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_checks_rows_refuse_a_name_the_output_encoding_cannot_hold(unicode_points, fmt):
    # check writes its own CSV and TSV rows: they wrote \u03b8 for θ, exit 0
    code, out, err = adcli_in({"PYTHONIOENCODING": "ascii"}, "check", "sin(θ)*x₁",
                              "cos(θ)*x₁", "--wrt", "θ", "--points", "u.csv", "--format", fmt,
                              cwd=unicode_points)
    assert (code, out) == (2, b""), (code, out, err)
    assert "the output's encoding (ascii) cannot write 'é' (a column name)" in \
        err.decode("utf-8")


# ----- the regression tester's finds (streams and arguments) -------------------------------

def _points_error(tmp_path, text: str, *argv) -> str:
    path = tmp_path / "p.txt"
    path.write_bytes(text.encode("utf-8"))
    code, out, err = run_cli(*argv, "--points", str(path))
    assert (code, out) == (2, ""), err
    return err


def test_a_comment_is_a_header_only_where_it_names_the_missing_variables(tmp_path):
    err = _points_error(tmp_path, "# made by sim\n1 2 3\n", "grad", "x*y",
                        "--points-format", "plain")
    assert "looks like a header" not in err and "--columns NAME1,NAME2,NAME3" in err
    err = _points_error(tmp_path, "# y x\n2 1\n", "grad", "x/y")
    assert "line 1 '# y x' looks like a header written as a comment: --columns y,x" in err


def test_a_header_ending_in_a_separator_over_a_row_with_a_value_there_says_so(tmp_path):
    err = _points_error(tmp_path, "x,y,\n1,2,3\n", "grad", "x*y")
    assert "3 fields, the header names 2: its column 3 has no name" in err


def test_two_columns_of_one_normal_name_are_listed_as_written_and_hinted_once(tmp_path):
    err = _points_error(tmp_path, "x1,x\u2081\n1,2\n", "grad", "y")
    assert "(the points file has columns 'x1', 'x\u2081')" in err
    err = _points_error(tmp_path, "x1,x\u2081\n1,2\n", "grad", "x")
    assert err.count("did you mean 'x'?") == 1


def test_bytes_not_utf8_under_a_utf8_locale_are_named_where_they_are():
    env = {"LC_ALL": "C.UTF-8"}
    code, out, err = adcli_in(env, "grad", os.fsdecode(b"x+\xe9"), "--at", "x=1")
    assert code == 2 and b"(column 3)" in err and b"terminal's encoding" not in err, err


def test_a_space_separated_row_under_a_comma_header_is_not_told_to_read_plain(tmp_path):
    # --points-format plain would read the header x,y as one column (regression tester)
    err = _points_error(tmp_path, "x,y\n1 2\n", "grad", "x*y")
    assert "points file line 2: 1 field, the header has 2" in err and "plain" not in err


def test_a_byte_not_utf8_in_the_expression_is_named_as_a_byte_not_a_surrogate():
    # was "unexpected character '\udcff'; expected a number, ..." with x+\udcff shown
    code, out, err = run_cli("grad", os.fsdecode(b"x+\xff"), "--at", "x=1")
    assert (code, out) == (2, "")
    assert err == ("adcli: error: a byte that is not UTF-8 text (\\xff) (column 3)\n"
                   "  x+\\xff\n    ^\n")
    code, out, err = run_cli("grad", "x", "--at", os.fsdecode(b"x=1\xe9"))
    assert code == 2 and err == ("adcli: error: --at x: a byte that is not UTF-8 text "
                                 "(\\xe9): '1\\xe9'\n")


@pytest.mark.parametrize("typed", ["1..2", "1.2.3", ".5.5"])
def test_a_number_with_two_decimal_points_is_said_to_be_one(typed, tmp_path):
    # was "a number can only come first in a product written without '*': write 1.*.2"
    want = f"'{typed}' is not a number: it has more than one decimal point"
    code, out, err = run_cli("grad", f"x*{typed}", "--at", "x=1")
    assert code == 2 and err.startswith(f"adcli: error: {want} (column 3)\n"), err
    code, out, err = run_cli("grad", "x", "--at", f"x={typed}")
    assert code == 2 and err == f"adcli: error: --at x: {want}\n", err
    points = tmp_path / "p.csv"
    points.write_text(f"x\n{typed}\n")
    code, out, err = run_cli("grad", "x", "--points", str(points))
    assert err == f"adcli: error: points file line 2, column 'x': {want}\n", err
