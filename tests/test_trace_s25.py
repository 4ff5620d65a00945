"""trace on a narrow terminal: a rule term wider than the terminal is folded between its
operations, never inside a number or a name (a real pseudo-terminal, its size set with
TIOCSWINSZ, as terminal_width reads it when COLUMNS is unset)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from conftest import run_in_pty

ROOT = Path(__file__).resolve().parent.parent
CASES = [
    ("(-x)^(1/3)", "--at", "x=-8"),
    ("x^(1/3)", "--at", "x=8", "--mode", "forward"),
    ("(x^y)^(1/3) + atan2(y, x)·hypot(x, y)", "--at", "x=1.2345678901234567,y=2.3456789012345678"),
]
# a number as trace writes one: not the digits of a step's name (v2, v̄3, v̇1)
NUMBER = re.compile(r"(?<![\w.\u0304\u0307])-?\d+(?:\.\d+)?(?:e[+-]?\d+)?(?![\w.])|\binf\b|\bnan\b")


def env() -> dict:
    kept = {k: v for k, v in os.environ.items()
            if k not in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "PYTHONIOENCODING")}
    return {**kept, "PYTHONUTF8": "1", "TERM": "xterm-256color", "PYTHONPATH": str(ROOT)}


def cells(text: str) -> int:
    return sum(0 if unicodedata.combining(c) else
               2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def trace_lines(columns: int, *argv: str) -> list[str]:
    code, text, _ = run_in_pty([sys.executable, "-m", "adcli", "trace", *argv], env(),
                               columns, rows=100, stdin=subprocess.DEVNULL)
    assert code == 0, text
    return text.rstrip("\n").split("\n")


@pytest.mark.parametrize("argv", CASES, ids=["cube-root-neg", "forward", "two-variables"])
@pytest.mark.parametrize("columns", [40, 60, 80, 120])
def test_a_row_wider_than_the_terminal_is_folded_between_operations(columns, argv):
    wide = trace_lines(200, *argv)
    assert max(cells(line) for line in wide) < 200          # the reference is unfolded
    lines = trace_lines(columns, *argv)
    too_wide = [line for line in lines if cells(line) > columns]
    assert not too_wide, "\n".join(lines)
    # no number cut in two: the same numbers, in the same order, as on a wide terminal
    numbers = NUMBER.findall("\n".join(lines))
    assert numbers == NUMBER.findall("\n".join(wide))
    assert numbers and all(isinstance(float(n), float) for n in numbers)


def test_the_folded_cube_root_rule_keeps_its_numbers_whole():
    """d/dx (-x)^(1/3) at -8 is -(1/3)·8^(-2/3) = -1/12, the rule's 1/3 and -2/3 whole."""
    lines = trace_lines(40, *CASES[0])
    text = "\n".join(lines)
    assert "0.3333333333333333" in text and "-0.6666666666666667" in text
    assert lines[-1].split()[-1] == repr(-1 / 12)
    # the rule's continuation lines are indented past the start of the term
    start = next(i for i, line in enumerate(lines) if line.startswith("  v̄2 = v̄3·("))
    assert lines[start + 1].startswith(" " * 9) and lines[start + 1].strip().startswith("(")
