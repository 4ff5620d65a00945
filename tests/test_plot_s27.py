"""Session 27, plot on a terminal: a long title folds as the legend's expression does (never
inside a name), the "not a terminal" note folds to the terminal's width, the drawing takes
the whole terminal however big, your expression's later legend lines start under it even
at 20 columns, and an explicit --format plot draws into a pipe."""
from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
from pathlib import Path

import numpy as np
import pytest

from adcli.plotting import Curve, Figure, _terminal_legend, terminal_size, title_lines
from adcli.tables import cell_len
from conftest import run_cli
from test_plot_s26 import drawn, legend

ROOT = Path(__file__).resolve().parent.parent
NAMES = re.compile(r"[A-Za-z_]\w*|\d+(?:\.\d+)?")

GAUSS = "exp((-((x - mu_center)^2))/(2*(sigma_width^2)))/(sigma_width*sqrt(2*pi))"
DAMPED = "(sin(omega_frequency*x)*exp((-damping_coefficient)*x)) + offset_value"


def figure(title: str, at=(), curves=()) -> Figure:
    return Figure(title=title, xlabel="x", ylabel="value", x=np.linspace(-1.0, 1.0, 5),
                  curves=list(curves), at=list(at))


def assert_folded_whole(lines: list[str], title: str, width: int) -> None:
    """Lines of at most ``width`` that are ``title`` broken between tokens: every name and
    number on one line, and no line ending with the sign of the term after it."""
    assert len(lines) > 1 and all(cell_len(line) <= width for line in lines), lines
    assert "".join(lines).replace(" ", "") == title.replace(" ", "")
    assert [n for line in lines for n in NAMES.findall(line)] == NAMES.findall(title)
    assert not any(line.rstrip().endswith((" +", " -")) for line in lines), lines


# ----- 1. a long title never breaks a name --------------------------------------------------

@pytest.mark.parametrize("title, width", [
    (f"f(x) = {GAUSS}", 60),       # was "... - mu_center)...(sigma_width*sqrt(2*pi" at 63
    (f"f(x) = {DAMPED}", 40),      # was cut by the terminal: "exp((-damping_co" "efficient"
    (f"f(x) = {DAMPED}", 24),
])
def test_a_title_wider_than_a_line_folds_between_tokens_never_inside_a_name(title, width):
    assert_folded_whole(title_lines(figure(title), width, cell_len), title, width)


def test_the_title_folds_before_its_terms_and_the_values_between_pairs():
    title = "f(x) = (alpha_one*x) + (beta_two*(x^2)) - gamma_three"
    lines = title_lines(figure(title, [("alpha_one", "1.5"), ("beta_two", "-2.0")]), 24,
                        cell_len)
    values = next(i for i, line in enumerate(lines) if line.startswith("at "))
    assert_folded_whole(lines[:values], title, 24)
    assert [line.split()[0] for line in lines[1:values]] == ["+", "-"]   # a term a line
    assert " ".join(lines[values:]).split() == \
        ["at", "alpha_one", "=", "1.5,", "beta_two", "=", "-2.0"]


def test_the_testers_gaussian_fits_a_60_column_terminal_whole():
    lines = drawn(60, 24, "exp(-(x-mu_center)^2/(2*sigma_width^2))/(sigma_width*sqrt(2*pi))",
                  "--grid", "x=-3:3", "--at", "mu_center=0,sigma_width=1")
    title = lines[:next(i for i, line in enumerate(lines) if "┌" in line) - 1]
    assert lines[len(title)] == "at mu_center = 0.0, sigma_width = 1.0"
    assert_folded_whole(title, f"f(x) = {GAUSS}", 60)


# ----- 2. the note of a pipe folds on a narrow terminal ---------------------------------------

def stderr_on_terminal(columns: int, *argv: str) -> tuple[str, list[str]]:
    """``adcli plot ARGV`` with stdout a pipe and stderr a terminal ``columns`` wide, as
    ``adcli plot ... | cat`` in a shell: (stdout, the terminal's rows)."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    env.update(PYTHONUTF8="1", PYTHONPATH=str(ROOT))
    try:
        done = subprocess.run([sys.executable, "-m", "adcli", "plot", *argv],
                              stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL,
                              env=env, timeout=60, text=True)
        os.close(slave)
        shown = b""
        while select.select([master], [], [], 0.5)[0]:
            try:
                block = os.read(master, 65536)
            except OSError:             # EIO: nothing more
                break
            if not block:
                break
            shown += block
    finally:
        os.close(master)
    assert done.returncode == 0
    return done.stdout, shown.decode().replace("\r\n", "\n").rstrip("\n").split("\n")


def test_the_note_that_the_data_is_printed_instead_folds_to_the_terminal():
    # It was one line of 124 characters, which a 40-column terminal cut mid-word.
    out, rows = stderr_on_terminal(40, "x^2", "--grid", "x=0:1:3")
    assert out.splitlines() == ["x,f,df/dx", "0.0,0.0,0.0", "0.5,0.25,1.0", "1.0,1.0,2.0"]
    assert len(rows) > 1 and all(len(row) <= 40 for row in rows), rows
    assert rows[0].startswith("adcli: note: stdout is not a terminal")
    assert all(row.startswith("  ") and row[2] != " " for row in rows[1:])
    assert "--format plot" in " ".join(row.strip() for row in rows)


# ----- 3. the drawing takes the whole terminal ----------------------------------------------

def test_the_figure_takes_a_big_terminal_whole(monkeypatch):
    # It was never more than 160 x 42, though README promises the terminal's size.
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("LINES", "60")
    assert terminal_size() == (200, 58)         # less the command line and the prompt


def test_a_200_by_60_drawing_fills_200_columns_and_58_rows(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("LINES", "60")
    code, out, err = run_cli("plot", "sin(x)*exp(-x/4)", "--grid", "x=0:4pi", "--order", "2",
                             "--format", "plot")
    assert code == 0 and err == ""
    lines = out.rstrip("\n").split("\n")
    assert len(lines) == 58 and max(cell_len(line) for line in lines) == 200


# ----- 4. your expression's later lines start under it, even at 20 columns ------------------

def test_your_folded_expression_starts_its_lines_under_itself_at_20_columns():
    yours = Curve("yours: (3*(x^2)) - (2*sin(omega*x))*exp(-x)", np.zeros(5), colour=3,
                  mine=True)
    lines = _terminal_legend(figure("f(x) = x^3", curves=[yours]), 20, False).split("\n")
    assert lines[0].startswith("•• yours: ") and len(lines) > 2
    assert all(len(line) <= 20 for line in lines), lines
    head = len("•• yours: ")                     # 10: was 5, two columns in
    assert all(line[:head] == " " * head and line[head] != " " for line in lines[1:]), lines
    assert "".join(lines)[head:].replace(" ", "") == yours.label[7:].replace(" ", "")


def test_the_testers_legend_at_20_columns():
    lines = legend(drawn(20, 40, "x^3 - 3x", "3x^2 - 3", "--grid", "x=-2:2", "--order", "2"))
    at = next(i for i, line in enumerate(lines) if line.startswith("•• yours: "))
    assert lines[at:at + 2] == ["•• yours: (3*(x^2))", " " * 10 + "- 3"]


# ----- 5. --format plot, given, draws into a pipe ---------------------------------------------

@pytest.mark.parametrize("given", [["--format", "plot"], ["--format=plot"]])
def test_format_plot_given_draws_into_a_pipe_at_columns_and_lines(monkeypatch, given):
    monkeypatch.setenv("COLUMNS", "50")
    monkeypatch.setenv("LINES", "20")
    monkeypatch.delenv("NO_COLOR", raising=False)
    code, out, err = run_cli("plot", "x^2", "--grid", "x=0:1:3", *given)
    assert code == 0 and err == ""               # no note: nothing was put in its place
    lines = out.rstrip("\n").split("\n")
    assert lines[0].strip() == "f(x) = x^2" and "┌" in lines[1]
    assert lines[-1] == "── f   ++ df/dx   ● df/dx = 0"   # plain markers, no colour
    assert "\x1b[" not in out                    # no colour codes in a pipe or a file
    assert len(lines) == 18 and max(cell_len(line) for line in lines) == 50


@pytest.mark.skipif(sys.__stdout__ is not None and sys.__stdout__.isatty(),
                    reason="the size comes from the terminal pytest runs in")
def test_format_plot_given_draws_80_by_22_without_columns(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)
    code, out, err = run_cli("plot", "x^2", "--grid", "x=0:1:3", "--format", "plot")
    lines = out.rstrip("\n").split("\n")
    assert code == 0 and len(lines) == 22 and max(cell_len(line) for line in lines) == 80


def test_the_default_format_still_prints_csv_into_a_pipe():
    code, out, err = run_cli("plot", "x^2", "--grid", "x=0:1:3")
    assert code == 0 and out.splitlines()[0] == "x,f,df/dx"
    assert err.startswith("adcli: note: stdout is not a terminal") and "--format plot" in err
