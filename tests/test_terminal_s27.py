"""A terminal user's findings (s27), seen in a pty and tmux:

1. adcli --help cut every command's summary with "..." (at 80 columns six of eight
   ended mid-phrase); each is now a whole sentence, folded on a narrow terminal.
2. The shell-completion command folded inside its quotes at 40-64 columns: pasted as
   shown it did nothing. It stands on a line of its own, unbroken.
3. graph --format tree left out the only input of a 3-level tree at 40 columns as "too
   deep" for its 30-letter name: the name goes on a line of its own instead.
4. trace folded between the parts of a relation ("tangent" / "0)", "v2 >" / "0"), and
   at 24-26 columns a sum's folded terms went past the edge though each fitted.
5. jacobian's read as: rows at 32 columns or less hung left of their own labels.
6. check -h: "--rtol FLOAT RANGE" read as two arguments; --order's default was no
   sentence.
"""
from __future__ import annotations

import math
import re
import shlex
import sys
import unicodedata
from pathlib import Path

import pytest

from conftest import run_cli, run_in_pty
from test_output import ANSI, child_env

ROOT = Path(__file__).resolve().parents[1]     # the adcli these tests run (-m adcli)
COMMAND_NAMES = ["check", "eval", "grad", "graph", "hessian", "jacobian", "plot", "trace"]
COMPLETION = 'eval "$(_ADCLI_COMPLETE=bash_source adcli)"'


def on_terminal(columns: int, *argv: str) -> list[str]:
    """stdout of ``adcli ARGV`` on a pty ``columns`` wide, as lines without colour."""
    code, text, err = run_in_pty([sys.executable, "-m", "adcli", *argv],
                                 child_env(PYTHONPATH=str(ROOT), NO_COLOR="1"), columns,
                                 300, stderr_apart=True)
    assert code == 0, err
    return ANSI.sub("", text).rstrip("\n").split("\n")


def cells(line: str) -> int:
    return sum(0 if unicodedata.combining(c) else 1 for c in line)


def command_list(lines: list[str]) -> dict[str, str]:
    """The Commands: section of adcli --help: each command's summary, its lines joined."""
    listed: dict[str, str] = {}
    for line in lines[lines.index("Commands:") + 1:]:
        name = line[:12].strip()
        if name:
            listed[name] = line[12:].strip()
        else:
            listed[list(listed)[-1]] += " " + line.strip()
    return listed


# ----- 1. the command list -------------------------------------------------------------

@pytest.mark.parametrize("columns", [40, 80])
def test_the_command_list_shows_each_summary_whole_folded_not_cut(columns):
    lines = on_terminal(columns, "--help")
    listed = command_list(lines)
    assert sorted(listed) == COMMAND_NAMES, "\n".join(lines)
    for name, summary in listed.items():
        assert not summary.endswith("...") and summary[-1] in ".?", (name, summary)
    assert [line for line in lines if cells(line) > columns
            and line.strip() != COMPLETION] == []


def test_the_command_list_in_a_pipe_is_whole_too(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    code, out, _ = run_cli("--help")
    listed = command_list(out.rstrip("\n").split("\n"))
    assert code == 0 and listed["check"] == "Is EXPECTED the derivative of EXPRESSION?"
    assert all(s[-1] in ".?" and not s.endswith("...") for s in listed.values()), listed


# ----- 2. the completion command -------------------------------------------------------

@pytest.mark.parametrize("columns", [40, 52, 64, 80])
def test_the_completion_command_is_one_line_that_pastes(columns):
    lines = on_terminal(columns, "--help")
    shown = [line.strip() for line in lines if "_ADCLI_COMPLETE" in line]
    assert shown == [COMPLETION], "\n".join(lines)
    assert shlex.split(shown[0]) == ["eval", "$(_ADCLI_COMPLETE=bash_source adcli)"]


# ----- 3. graph's tree -----------------------------------------------------------------

def test_a_long_input_name_in_a_3_level_tree_goes_on_its_own_line_not_left_out():
    name = "temperature_inside_the_reactor"
    lines = on_terminal(40, "graph", f"exp(sin(cos({name})))", "--at", f"{name}=1",
                        "--format", "tree")
    text = "\n".join(lines)
    assert "too deep" not in text and "too wide" not in text, text
    assert [line.strip() for line in lines if name in line] == [name], text
    assert all(cells(line) <= 40 for line in lines), text
    # v1's adjoint is the gradient: d/dt exp(sin(cos t)) at t = 1
    shown = float(re.search(r"v̄1 = (\S+)", text).group(1))
    t = 1.0
    expected = -math.exp(math.sin(math.cos(t))) * math.cos(math.cos(t)) * math.sin(t)
    assert shown == pytest.approx(expected, rel=1e-15)


def test_a_number_too_wide_below_the_root_is_still_left_out_as_too_deep():
    """Only a name moves to a line of its own: "= " and a number apart read badly."""
    lines = on_terminal(28, "graph", "x*y", "--at", "x=-1.2345678901234568e-300,y=2",
                        "--format", "tree")
    assert any("too deep" in line for line in lines), "\n".join(lines)


# ----- 4. trace's folding --------------------------------------------------------------

def test_the_forward_seed_heading_keeps_tangent_0_together():
    lines = on_terminal(80, "trace", "sin(alpha_angle)*velocity^2 + alpha_angle*velocity/"
                        "(1+velocity)", "--at", "alpha_angle=0.7,velocity=3.25",
                        "--mode", "forward", "--wrt", "velocity")
    assert "  0)" not in lines and any("tangent 0)" in line for line in lines), \
        "\n".join(lines)


def test_a_notes_relations_are_not_split_at_40_columns():
    lines = on_terminal(40, "trace", "x^y", "--at", "x=0,y=0.5")
    text = "\n".join(lines)
    for relation in ("v3 = 0", "v2 > 0", "v1 = 0", "v2 = 0.5"):
        assert any(relation in line for line in lines), text
    assert not any(re.search(r" [=>]\Z", line) for line in lines), text
    assert all(cells(line) <= 40 for line in lines), text


@pytest.mark.parametrize("columns", [24, 25, 26])
def test_a_sums_folded_terms_stay_inside_a_narrow_terminal(columns):
    lines = on_terminal(columns, "trace", "sin(x1)+x1*x2/(1+x2)", "--at", "x1=2,x2=5")
    assert [line for line in lines if cells(line) > columns] == [], "\n".join(lines)
    # v̄2's terms: v̄4·v1 = x1/(1+x2) = 1/3 and v̄5 = -x1·x2/(1+x2)^2 = -5/18
    numbers = [float(n) for line in lines for n in re.findall(r"-?\d\.\d+", line)]
    assert any(n == pytest.approx(1 / 3, rel=1e-15) for n in numbers)
    assert any(n == pytest.approx(5 / 18, rel=1e-15) for n in numbers)


# ----- 5. jacobian's read as: ----------------------------------------------------------

JACOBIAN = ["jacobian", "sin(alpha)*beta_long_name", "alpha^2", "cos(beta_long_name)",
            "--at", "alpha=0.5,beta_long_name=1.25"]


@pytest.mark.parametrize("columns, first", [
    (32, ["    sin(alpha)*beta_long_name"]),
    (26, ["    sin(alpha)*", "    beta_long_name"])])     # (29 columns: folded at its *)
def test_narrow_read_as_puts_each_label_on_its_line_and_its_expression_under_it(columns,
                                                                                first):
    lines = on_terminal(columns, *JACOBIAN)
    assert lines[:len(first) + 6] == ["read as:", "  f1 =", *first, "  f2 =", "    alpha^2",
                                      "  f3 =", "    cos(beta_long_name)"], "\n".join(lines)


def test_read_as_that_fits_keeps_its_labels_after_read_as():
    lines = on_terminal(40, *JACOBIAN)
    assert lines[:3] == ["read as: f1 = sin(alpha)*beta_long_name", "         f2 = alpha^2",
                         "         f3 = cos(beta_long_name)"], "\n".join(lines)


# ----- 6. check -h ---------------------------------------------------------------------

def test_check_help_names_its_tolerances_float_and_says_order_in_a_sentence(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    code, out, _ = run_cli("check", "--help")
    flat = " ".join(out.split())
    assert code == 0 and "FLOAT RANGE" not in out and "[default: (" not in flat
    assert "--rtol FLOAT " in out and "--atol FLOAT " in out
    assert re.search(r"--order N Which derivative: 1, unless .*?names another", flat), flat
