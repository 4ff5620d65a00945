"""What a user sees of adcli's own words on a real terminal, 40, 60 and 80 columns wide: error
messages folded between words, the expression's excerpt and its caret on one line of the
screen each, combining marks shown and counted, help folded between words. Beside each, a
pipe, which still gets what it got (one line a message, help as click lays it out).

And an expression starting with "-" is the expression for every command, including those
with a short option (-o) that click would otherwise read into it.

The programs run from this file's tree (``python -m adcli``), a pseudo-terminal as their
terminal; a line wider than the terminal is folded as the terminal folds it (``screen``)."""
from __future__ import annotations

import fcntl
import os
import re
import struct
import subprocess
import sys
import termios
import unicodedata
from pathlib import Path

import pytest

from conftest import run_cli, run_in_pty
from adcli.commands import COMMANDS

ROOT = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
WIDTHS = [40, 60, 80]


def env() -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("COLUMNS", "LINES", "PYTHONIOENCODING", "NO_COLOR", "FORCE_COLOR")}
    return {**env, "PYTHONUTF8": "1", "TERM": "xterm-256color", "PYTHONPATH": str(ROOT)}


def adcli(*argv: str) -> list[str]:
    return [sys.executable, "-m", "adcli", *argv]


def cells(c: str) -> int:
    """Terminal columns of one character: 2 for wide (CJK), 0 for a combining mark."""
    if unicodedata.category(c) in ("Mn", "Me"):
        return 0
    return 2 if unicodedata.east_asian_width(c) in "WF" else 1


def screen(text: str, columns: int) -> list[str]:
    """The rows a terminal ``columns`` wide shows of ``text``: a longer line goes on in the
    next row, wherever it is cut."""
    rows = []
    for line in text.split("\n"):
        row, used = "", 0
        for c in line:
            if used + cells(c) > columns:
                rows.append(row)
                row, used = "", 0
            row, used = row + c, used + cells(c)
        rows.append(row)
    return rows


def on_terminal(columns: int, *argv: str) -> tuple[int, list[str]]:
    """adcli with stdout and stderr on a terminal ``columns`` wide: its exit status and the
    rows of the screen."""
    code, text, _ = run_in_pty(adcli(*argv), env(), columns, rows=200,
                               stdin=subprocess.DEVNULL)
    return code, screen(ANSI.sub("", text).rstrip("\n"), columns)


def stderr_in_a_pipe(*argv: str) -> tuple[int, str]:
    """adcli with stdout on a 40-column terminal and stderr in a pipe: what the pipe gets."""
    code, _, err = run_in_pty(adcli(*argv), env(), 40, stdin=subprocess.DEVNULL,
                              stderr_apart=True)
    return code, err


def under_caret(rows: list[str]) -> str:
    """What the caret row's ^ points at in the row above it: from there to its end."""
    at = next(i for i, row in enumerate(rows) if row.strip() == "^")
    column, line = rows[at].index("^"), rows[at - 1]
    used = 0
    for i, c in enumerate(line):
        if used == column and cells(c):
            return line[i:]
        used += cells(c)
    return ""


def message_words(rows: list[str]) -> list[str]:
    """The words of the message: the rows from "adcli: error:" up to the excerpt (the row
    before the caret's row)."""
    start = next(i for i, row in enumerate(rows) if row.startswith("adcli: error:"))
    caret = next((i for i, row in enumerate(rows) if row.strip() == "^"), len(rows) + 1)
    return " ".join(rows[start:caret - 1]).split()


# ----- 1. an expression starting with "-" -------------------------------------------------

# Each command with an expression starting with "-": (arguments, options). The reference is
# the same run with the expressions after "--", where click reads them as arguments only.
MINUS = {
    "grad": (["-cos(x)"], ["--at", "x=1"]),
    "eval": (["-cos(x)"], ["--at", "x=1"]),
    "hessian": (["-cos(x)"], ["--at", "x=1"]),
    "jacobian": (["x", "-cos(x)"], ["--at", "x=1"]),
    "trace": (["-cos(x)"], ["--at", "x=1"]),
    "graph": (["-cos(x)"], ["--format", "tree"]),
    "check": (["-cos(x)", "sin(x)"], []),
    "plot": (["-cos(x)"], ["--grid", "x=0:1:3", "--format", "csv"]),
}


def test_every_command_is_in_the_table():
    assert set(MINUS) == set(COMMANDS)


@pytest.mark.parametrize("command", sorted(MINUS))
def test_an_expression_starting_with_minus_is_the_expression(command):
    """plot and graph have -o: click read "-cos(x)" as -c, -o 's(x)'."""
    expressions, options = MINUS[command]
    given = run_cli(command, *expressions, *options)
    reference = run_cli(command, *options, "--", *expressions)
    assert reference[0] == 0 and reference[1], reference
    assert given == reference


@pytest.mark.parametrize("expression", ["-cos(x)", "-x*o", "-ox", "-log(x)+1"])
def test_an_expression_with_the_letter_of_a_short_option_is_no_option(expression, tmp_path):
    """graph's -o takes a file: "-ox" reads as an expression, so it is one."""
    given, reference = tmp_path / "given.dot", tmp_path / "reference.dot"
    assert run_cli("graph", "-o", str(reference), "--", expression)[0] == 0
    assert run_cli("graph", expression, "-o", str(given)) == (0, "", "")
    assert given.read_text(encoding="utf-8") == reference.read_text(encoding="utf-8")


def test_a_file_name_glued_to_o_is_still_the_file(tmp_path):
    out = tmp_path / "f.dot"
    assert run_cli("graph", "-cos(x)", f"-o{out}")[0] == 0
    assert 'label="read as: -cos(x)"' in out.read_text(encoding="utf-8")


def test_a_word_that_is_no_expression_and_no_option_is_the_parsers_to_explain():
    """"-co+" is not -c, -o '+' (a file name the plot would refuse): it is the expression,
    and the parser says what is wrong with it."""
    code, _, err = run_cli("plot", "-co+", "--grid", "x=0:1:3", "--format", "csv")
    assert code == 2 and "-o" not in err and "unexpected end of expression" in err, err


# ----- 2. the excerpt and its caret fit the terminal ---------------------------------------

LONG = "sin(x) + cos(y) * exp(z) + tanh(x*y) + 3.12345 6789 + log(1 + x^2) + sqrt(y)"


@pytest.mark.parametrize("columns", [40, 60])
def test_the_caret_is_under_the_culprit_on_a_narrow_terminal(columns):
    code, rows = on_terminal(columns, "grad", LONG, "--at", "x=1,y=2,z=3")
    assert code == 2
    assert under_caret(rows).startswith("6789 + "), "\n".join(rows)
    excerpt = rows[rows.index(next(r for r in rows if r.strip() == "^")) - 1]
    assert "3.12345 6789" in excerpt


@pytest.mark.parametrize("columns", [40, 60])
def test_the_caret_is_under_the_culprit_after_wide_characters(columns):
    names = " * ".join(["中文中文"] * 10)      # 60 characters of it take 94 columns
    code, rows = on_terminal(columns, "grad", f"{names} * ) * {names}")
    assert code == 2
    assert under_caret(rows).startswith(") * 中文"), "\n".join(rows)


def test_a_wide_terminal_shows_more_of_the_expression():
    code, rows = on_terminal(160, "grad", LONG, "--at", "x=1,y=2,z=3")
    assert code == 2 and f"  {LONG}" in rows, "\n".join(rows)   # the whole of it, uncut
    assert under_caret(rows).startswith("6789 + ")


def test_a_pipe_gets_the_excerpt_of_60_characters_as_before():
    # The culprit at offset 47: the window starts 30 characters before it.
    code, err = stderr_in_a_pipe("grad", LONG, "--at", "x=1,y=2,z=3")
    assert code == 2
    assert err == ("adcli: error: a number can only come first in a product written without '*': "
                   "write 3.12345*6789 (column 48)\n"
                   f"  …{LONG[17:]}\n"
                   f"  {' ' * 31}^\n")


# ----- 3. error messages folded between words ----------------------------------------------

# name: (arguments, the message as one line)
MESSAGES = {
    "name": (["grad", "sinn(x)", "--at", "x=1"],
             "adcli: error: unknown function 'sinn'; did you mean 'sin'? (column 1)"),
    "syntax": (["grad", "x#", "--at", "x=1"],
               "adcli: error: unexpected character '#'; expected a number, a name, '(', '|', "
               "an operator or the end (column 2)"),
    "usage": (["grad", "x", "--att", "x=1"],
              "adcli: error: No such option '--att'. (Did you mean one of: '--at', "
              "'--format', '--strict'?) (see 'adcli grad --help')"),
}


@pytest.mark.parametrize("argv, message, columns", [
    pytest.param(argv, message, columns, id=f"{name}-{columns}")
    for name, (argv, message) in MESSAGES.items() for columns in WIDTHS
    if len(message) > columns])     # (one that fits stays one line)
def test_an_error_is_folded_between_words_on_a_terminal(argv, message, columns):
    code, rows = on_terminal(columns, *argv)
    assert code == 2
    assert message_words(rows) == message.split(), "\n".join(rows)
    start = next(i for i, row in enumerate(rows) if row.startswith("adcli: error:"))
    assert all(row.startswith("  ") for row in rows[start + 1:]), "\n".join(rows)


@pytest.mark.parametrize("argv, message", MESSAGES.values(), ids=MESSAGES)
def test_an_error_stays_one_line_in_a_pipe(argv, message):
    code, err = stderr_in_a_pipe(*argv)
    assert code == 2 and err.split("\n")[0] == message, err


def test_stdout_in_a_pipe_folds_an_error_for_stderrs_terminal():
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 40, 0, 0))
    done = subprocess.run(adcli("grad", "sinn(x)", "--at", "x=1"), stdout=subprocess.PIPE,
                          stderr=slave, stdin=subprocess.DEVNULL, env=env(), timeout=60)
    os.close(slave)
    shown = os.read(master, 65536).decode().replace("\r\n", "\n")
    os.close(master)
    assert done.returncode == 2 and done.stdout == b""
    assert shown == ("adcli: error: unknown function 'sinn';\n"
                     "  did you mean 'sin'? (column 1)\n"
                     "  sinn(x)\n"
                     "  ^\n")


# ----- 4. combining marks -----------------------------------------------------------------

# (the expression, what the caret must point at: the character with its mark). A mark on
# a name's letter is part of the name (θ̂); these are marks no name takes: on a number, and
# an enclosing one (Me), which no identifier takes.
MARKS = [("2\u0301x + 1 + )", "2\u0301x"), ("3\u0302 + )", "3\u0302"),
         ("x\u20dd + )", "x\u20dd")]
MARK_IDS = ["acute-on-2", "hat-on-3", "circle-on-x"]


@pytest.mark.parametrize("columns", WIDTHS)
@pytest.mark.parametrize("text, culprit", MARKS, ids=MARK_IDS)
def test_a_combining_mark_is_escaped_in_the_message_and_the_caret_is_under_its_letter(
        text, culprit, columns):
    code, rows = on_terminal(columns, "grad", text, "--at", "x=1")
    assert code == 2
    assert f"unexpected character '\\u{ord(text[1]):04x}'" in " ".join(message_words(rows))
    assert under_caret(rows).startswith(culprit), "\n".join(rows)


@pytest.mark.parametrize("text, culprit", MARKS, ids=MARK_IDS)
def test_a_pipe_gets_the_combining_mark_escaped_and_the_caret_under_its_letter(text, culprit):
    code, err = stderr_in_a_pipe("grad", text, "--at", "x=1")
    mark = f"\\u{ord(text[1]):04x}"
    assert code == 2 and err == (f"adcli: error: unexpected character '{mark}'; expected a "
                                 "number, a name, '(', '|', an operator or the end (column 2)\n"
                                 f"  {text}\n"
                                 "  ^\n")


# ----- 5. help folded between words -------------------------------------------------------

# shown as typed, whatever the width (the completion command too: pasted, it must work)
EXAMPLE = re.compile(r"    (adcli |eval \"\$\(_ADCLI_COMPLETE=bash_source adcli\)\"\Z)")
SIGNATURE = re.compile(r"  -\S+( \S+)?\Z")       # an option's name and metavar, unbroken


@pytest.mark.parametrize("columns", [40, 45])
@pytest.mark.parametrize("argv", [["--help"], ["grad", "--help"], ["plot", "--help"]],
                         ids=["adcli", "grad", "plot"])
def test_help_is_folded_between_words_on_a_narrow_terminal(argv, columns):
    """click lays help out at least 50 columns wide: "rev" / "erse-mode" at 40. Commands
    shown as typed, and an option's name, are not folded."""
    code, text, _ = run_in_pty(adcli(*argv), env(), columns, rows=300,
                               stdin=subprocess.DEVNULL)
    lines = ANSI.sub("", text).rstrip("\n").split("\n")
    assert code == 0
    too_wide = [line for line in lines if len(line) > columns
                and not EXAMPLE.match(line) and not SIGNATURE.match(line)]
    assert not too_wide, "\n".join(lines)
    assert "Show this message and" in text


def test_help_in_a_pipe_is_laid_out_as_before():
    # click's width: the terminal's or COLUMNS, at least 50, at most 100 - 2.
    for columns, width in (("40", 50), (None, 78)):
        extra = {"COLUMNS": columns} if columns else {}
        out = subprocess.run(adcli("--help"), capture_output=True, text=True, timeout=60,
                             env={**env(), **extra}).stdout
        longest = max(len(line) for line in out.splitlines() if not EXAMPLE.match(line))
        assert width - 8 < longest <= width, out
        assert "Usage: adcli [OPTIONS] [COMMAND] [ARGS]...\n" in out
