"""Round 25's errors that need adcli.parser: a bracket or bar left open where a text ends
(refused at it, not at the end), and a number after a factor (the number is there)."""
from __future__ import annotations

import pytest

from conftest import run_cli


def _refused(argv, message, column, shown):
    code, out, err = run_cli(*argv)
    assert code == 2 and out == "" and "Traceback" not in err
    assert err == f"adcli: error: {message} (column {column})\n  {shown}\n  " \
                  f"{' ' * (column - 1)}^\n"


BAR = "'|' is never closed: the expression ends before the '|' that closes it"
PAREN = "'(' is never closed: the expression ends before its ')'"

# (columns counted by hand: the bracket or bar left open)
OPEN = [
    (["eval", "|x + 1", "--at", "x=1"], BAR, 1, "|x + 1"),
    (["eval", "abs(x) + |y", "--at", "x=1,y=2"], BAR, 10, "abs(x) + |y"),
    (["eval", "sin(x", "--at", "x=1"], PAREN, 4, "sin(x"),
    (["eval", "2*(x + (y)", "--at", "x=1,y=2"], PAREN, 3, "2*(x + (y)"),
]


@pytest.mark.parametrize("argv, message, column, shown", OPEN)
def test_open_bracket_refused_where_it_is(argv, message, column, shown):
    _refused(argv, message, column, shown)


def test_long_text_open_bracket():
    text = "x^2 + 3x sin x + e^(x y) + sqrt(x^2+1) + (x + 1"
    code, out, err = run_cli("grad", text, "--at", "x=1,y=2")
    assert code == 2 and out == ""
    assert err.split("\n")[0] == f"adcli: error: {PAREN} (column 42)"
    # (the excerpt starts 11 characters in, after "…": the caret under the '(' at index 41)
    assert err.split("\n")[1:] == [f"  …{text[11:]}", f"  {' ' * 31}^", ""]


# An operand missing before the end: the end's own error stands
@pytest.mark.parametrize("text, message, column", [
    ("(x+", "unexpected end of expression; expected a number, a name, '(' or '|'", 4),
    ("|x +", "unexpected end of expression; expected a number, a name, '(' or '|'", 5),
])
def test_operand_missing_at_end(text, message, column):
    _refused(["eval", text, "--at", "x=1"], message, column, text)


NUMBER_AFTER = "a number can only come first in a product written without '*': write "


@pytest.mark.parametrize("text, column, product", [
    ("3 2^x", 3, "3*2^x"), ("2 3", 3, "2*3"), ("x 2", 3, "x*2")])
def test_number_after_a_factor(text, column, product):
    _refused(["eval", text, "--at", "x=1"], NUMBER_AFTER + product, column, text)
