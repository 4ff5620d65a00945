"""A regression tester's findings (s27, iofix):

1. adcli --help below 28 columns broke summaries inside words ("der" / "ivatives).",
   "EXPRESS" / "ION?") and went past the terminal's edge: the command list is folded
   between words, each summary under its name, when its column is too narrow for a word.
2. plot's title folded to end a line with "- (" and cut a long name in two.
3. The trailing-separator hint misfired on a quoted empty last field ("").
4. An explicit --format plot into a pipe was told to enlarge a terminal it does not have.
"""
from __future__ import annotations

import re

import pytest

from conftest import run_cli
from test_terminal_s27 import COMPLETION, command_list, on_terminal


# ----- 1. --help below 28 columns ------------------------------------------------------

def _summaries() -> dict[str, str]:
    code, out, _ = run_cli("--help")
    assert code == 0
    return command_list(out.rstrip("\n").split("\n"))


@pytest.mark.parametrize("columns", [20, 22, 24, 26])
def test_narrow_help_folds_the_command_list_between_words_inside_the_terminal(columns,
                                                                           monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    lines = on_terminal(columns, "--help")
    assert [line for line in lines if len(line) > columns
            and line.strip() != COMPLETION] == [], "\n".join(lines)
    section = " ".join(lines[lines.index("Commands:") + 1:]).split()
    whole = " ".join(f"{name} {summary}" for name, summary in _summaries().items()).split()
    assert section == whole, "\n".join(lines)
    assert "derivatives)." in section and "EXPRESSION?" in section


# ----- 2. plot's title -----------------------------------------------------------------

LONG = "very_long_parameter_name_number_one"     # 35 letters
TERMS = f"x^3 + 2*x - {LONG}*x"
READ = f"f(x)=((x^3)+(2*x))-({LONG}*x)"          # the title as read, spaces left out


def _title(monkeypatch, columns: int) -> list[str]:
    """The lines above the plot's frame of ``plot TERMS`` drawn ``columns`` wide."""
    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.setenv("LINES", "60")
    code, out, err = run_cli("plot", TERMS, "--grid", "x=0:1", "--at", f"{LONG}=2",
                             "--format", "plot")
    assert code == 0, err
    lines = out.split("\n")
    return lines[:next(k for k, line in enumerate(lines) if line.lstrip().startswith("at"))]


@pytest.mark.parametrize("columns", [39, 40, 42, 44])
def test_a_titles_term_keeps_its_sign_bracket_and_name_on_one_line(columns, monkeypatch):
    title = _title(monkeypatch, columns)
    assert "".join(title).replace(" ", "") == READ, title
    assert all(len(line) <= columns for line in title), title
    assert title[0] == "f(x) = ((x^3) + (2*x))", title
    assert title[1].lstrip().startswith(f"- ({LONG}"), title


@pytest.mark.parametrize("columns", [30, 36, 40])
def test_a_title_line_never_ends_with_a_sign_or_a_signs_bracket(columns, monkeypatch):
    title = _title(monkeypatch, columns)
    assert "".join(title).replace(" ", "") == READ, title
    assert all(len(line) <= columns for line in title), title
    for line in title:
        assert not re.search(r"[-+]\s*\(*\s*$", line), title


def test_a_name_longer_than_the_line_is_cut_only_where_the_line_is_full(monkeypatch):
    title = _title(monkeypatch, 30)     # 35 letters on 28 columns after the indent
    assert title[1] == "  - (very_long_parameter_name_" and len(title[1]) == 30, title
    assert title[2] == "  number_one*x)", title


# ----- 3. the trailing-separator hint --------------------------------------------------

def _points_error(tmp_path, text: str) -> str:
    path = tmp_path / "t.csv"
    path.write_bytes(text.encode())
    code, out, err = run_cli("grad", "x*y", "--points", str(path), "--format", "csv")
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("row", ['1,2,""', '1,2,""  ', '1,2,""\r', '1,"",""'])
def test_a_quoted_empty_last_field_is_not_called_a_separator_at_the_end(row, tmp_path):
    err = _points_error(tmp_path, f"x,y\n{row}\n")
    assert "line 2: 3 fields, the header has 2" in err
    assert "separator at the end" not in err, err


@pytest.mark.parametrize("row", ["1,2,", "1,2,  ", '1,"",', '1,"a\nb",'])
def test_a_separator_ending_the_row_is_still_said(row, tmp_path):
    err = _points_error(tmp_path, f"x,y\n{row}\n")
    assert "3 fields, the header has 2 (the last field is empty: a separator at the end " \
           "of the row)" in err, err


def test_a_quoted_empty_last_field_far_into_a_stream_is_not_called_a_separator(tmp_path):
    # (past the block reader's first block: the row is read again as text, then judged)
    rows = "".join(f"{k},2\n" for k in range(3000))
    err = _points_error(tmp_path, f"x,y\n{rows}5,6,\"\"\n")
    assert "line 3002: 3 fields" in err and "separator" not in err, err


# ----- 4. --format plot into a pipe, too small -----------------------------------------

def _too_small(monkeypatch, columns: int, lines: int) -> str:
    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.setenv("LINES", str(lines))
    code, out, err = run_cli("plot", "x^2", "--grid", "x=0:1", "--format", "plot")
    assert code == 2 and out == "" and err.count("\n") == 1, (code, out, err)
    return err


def test_too_few_lines_in_a_pipe_says_to_set_lines_not_to_enlarge_a_terminal(monkeypatch):
    # x^2's plot: 11 rows of plot, a legend of one line, and the prompt's 2: LINES=14
    err = _too_small(monkeypatch, 30, 10)
    assert "no terminal" in err and "enlarge" not in err, err
    assert "30 columns by 8 rows" in err and "set LINES=14 or more" in err, err
    assert "COLUMNS=" not in err.split("set ")[1], err


def test_too_few_columns_in_a_pipe_says_to_set_columns(monkeypatch):
    err = _too_small(monkeypatch, 15, 40)
    assert "15 columns by 38 rows" in err and "set COLUMNS=20 or more" in err, err
    assert "enlarge" not in err, err
