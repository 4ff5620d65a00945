"""trace on a narrow terminal: a sum that overflows folds at its terms under the "=" of
its row (never shifted to column 2, where its "=" leaves the column the others keep), a
gradient row's continuation is indented deeper than the entries, and the words of
--digits 1 and of the non-finite warning agree with what the table shows. Run on a real
pseudo-terminal (its size set with TIOCSWINSZ, as terminal_width reads it)."""
from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_cli, run_in_pty, terminal_cells

ROOT = Path(__file__).resolve().parent.parent
EPS = 2.0 ** -52


def env() -> dict:
    kept = {k: v for k, v in os.environ.items()
            if k not in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "PYTHONIOENCODING")}
    return {**kept, "PYTHONUTF8": "1", "TERM": "xterm-256color", "PYTHONPATH": str(ROOT)}


def on_terminal(columns: int, *argv: str) -> list[str]:
    code, text, err = run_in_pty([sys.executable, "-m", "adcli", *argv], env(), columns,
                                 rows=200, stdin=subprocess.DEVNULL, stderr_apart=True)
    assert code == 0, err
    rows = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text).replace("\r", "").rstrip("\n")
    rows = rows.split("\n")
    assert all(terminal_cells(row) <= columns for row in rows), rows
    return rows


def as_json(*argv: str) -> dict:
    code, out, err = run_cli(*argv, "--format", "json")
    assert code == 0, err
    return json.loads(out)["points"][0]


def close(actual: float, expected: float, ulps: int = 4) -> bool:
    return abs(actual - expected) <= ulps * EPS * abs(expected)


def row_block(rows: list[str], name: str) -> list[str]:
    """The lines of the adjoint row ``name`` (its first line, then its continuations)."""
    start = next(i for i, row in enumerate(rows) if row.startswith(f"  {name} "))
    block = [rows[start]]
    for row in rows[start + 1:]:
        if not row.strip() or re.match(r"  (v̄|⋮)", row):
            break
        block.append(row)
    return block


def sides(block: list[str]) -> list[str]:
    """The row's sides after its name: a line starting with "=" starts one, a line
    starting with "+" or "-" continues the one before."""
    found = [block[0].split(" = ", 1)[1]]
    for line in block[1:]:
        text = line.strip()
        if text.startswith("= "):
            found.append(text[2:])
        else:
            assert text[:2] in ("+ ", "- "), block
            found[-1] += " " + text
    return found


def signed_terms(side: str) -> list[float]:
    return [float(sign + number) for sign, number in re.findall(r"([+-]) (\S+)", "+ " + side)]


def equals_column(line: str) -> int:
    return terminal_cells(line[:line.index("=")])


# (expression, point, width, ∂f/∂x by hand)
SUMS = [
    ("x*y + x*z + x*w + x*u",
     "x=1,y=0.1234567890123,z=0.2345678901234,w=0.3456789012345678,u=0.456789012345678", 80,
     lambda p: p["y"] + p["z"] + p["w"] + p["u"]),
    *[("x*y + x*z + x*w + sin(x)*cos(y)", "x=1,y=2,z=3,w=4", width,
       lambda p: p["y"] + p["z"] + p["w"] + math.cos(p["x"]) * math.cos(p["y"]))
      for width in (30, 36, 39, 40, 41, 42, 43)],
    ("x*y+sin(x)", "x=1,y=2", 30, lambda p: p["y"] + math.cos(p["x"])),
]


@pytest.mark.parametrize("expression, at, width, partial", SUMS)
def test_a_sum_too_wide_folds_at_its_terms_under_the_rows_equals(expression, at, width,
                                                                  partial):
    rows = on_terminal(width, "trace", expression, "--at", at)
    block = row_block(rows, "v̄1")
    column = equals_column(block[0])
    for line in block[1:]:
        text = line.lstrip()
        if text.startswith("="):    # every side under the row's "="
            assert equals_column(line) == column, block
        else:                       # a term carried over: deeper than the "="
            assert terminal_cells(line) - terminal_cells(text) > column, block
    point = as_json("trace", expression, "--at", at)
    v1 = next(node for node in point["nodes"] if node["id"] == "v1")
    rule, terms, total = sides(block)
    assert signed_terms(terms) == [c["value"] for c in v1["contributions"]]   # every digit
    assert float(total) == v1["adjoint"] == point["gradient"]["x"]
    assert close(float(total), partial({k: float(v) for k, v in
                                        (pair.split("=") for pair in at.split(","))}))


def test_a_gradient_rows_continuation_is_deeper_than_the_entries():
    alpha, beta = 1.2345678901234567, 2.5e-300
    at = f"alpha_coefficient={alpha!r},beta_coefficient_long={beta!r}"
    expression = "alpha_coefficient*beta_coefficient_long + sin(alpha_coefficient)"
    rows = on_terminal(40, "trace", expression, "--at", at)
    gradient = rows[rows.index("gradient") + 1:]
    entries = [i for i, row in enumerate(gradient) if row.startswith("  ∂f/∂")]
    assert len(entries) == 2
    for i, row in enumerate(gradient):
        if i not in entries:        # a continuation: not where an entry starts
            assert re.match(r" {3,}= \S", row), gradient
    numbers = [float(row.split("= ")[-1]) for row in gradient if "∂" not in row]
    assert numbers == list(as_json("trace", expression, "--at", at)["gradient"].values())
    assert close(numbers[0], beta + math.cos(alpha)) and numbers[1] == alpha


def test_one_digit_is_said_in_the_singular():
    code, out, _ = run_cli("trace", "x*exp(x) + x^2*sin(x)", "--at", "x=0.7", "--digits", "1")
    assert code == 0 and "≈" in out
    assert "rounded to 1 digit;" in out and "1 digits" not in out
    code, out, _ = run_cli("trace", "x*exp(x) + x^2*sin(x)", "--at", "x=0.7", "--digits", "2")
    assert "rounded to 2 digits;" in out or "≈" not in out


@pytest.mark.parametrize("argv", [
    ("log(x)*2", "--at", "x=-1"),                                  # nan
    ("log(x)/x", "--at", "x=0"),                                   # -inf, then inf
    ("log(x)*sqrt(y)", "--at", "x=1,y=0", "--mode", "forward", "--wrt", "y"),  # a tangent
])
def test_the_warning_quotes_the_marks_the_table_shows(argv):
    code, out, err = run_cli("trace", *argv)
    assert code == 0
    shown = re.findall(r"◀ first \S+", out)
    said = re.search(r"\(marked (.*)\)$", err.strip().splitlines()[0]).group(1)
    assert said.split(" and ") == shown
