"""Lines pasted from LaTeX's display environments: the alignment mark '&' (f'(x) &= 2x,
& 2x), TeX's line break '\\\\' ending a line, and \\begin{equation} ... \\end{equation},
align, aligned, gather and their starred forms around the whole text, read as \\[ ... \\].

F is x^2 or x^3 throughout; their derivatives 2x and 3x^2 are worked out by hand (at x = 2:
x^3 = 8, 3x^2 = 12). A wrong derivative (3x for x^2) must still differ. Errors go through the
CLI (exit 2, one line, a caret under the culprit), and on a pseudo-terminal 40, 60 and 80
columns wide for what a user sees."""
from __future__ import annotations

import pytest

import adcli
from conftest import (grad_at_2, run_cli, strict_json,
                      adcli_on_terminal, assert_one_line_error, words, verdict_rows)

WIDTHS = [40, 60, 80]


# ----- 1. check: the derivative of x^2, 2x, written as a line of an environment -------------

RIGHT = [
    "f'(x) &= 2x",
    "f'(x)&=2x",
    "f'(x) & = 2x",
    "\\begin{align} f'(x) &= 2x \\end{align}",
    "\\begin{align*} f'(x) &= 2x \\\\ \\end{align*}",
    "\\begin{aligned} f'(x) &= 2x \\end{aligned}",
    "\\begin{equation} f'(x) = 2x \\end{equation}",
    "\\begin{equation*} f'(x) = 2x \\end{equation*}",
    "\\begin{gather} f'(x) = 2x \\end{gather}",
    "\\begin{gather*} 2x \\end{gather*}",
    "\\begin{equation} f'(x) = 2x. \\end{equation}",     # prose's full stop inside
    "\\begin{equation} f'(x) = 2x \\end{equation},",     # and after
    "f'(x) = 2x \\\\",
    "f'(x) = 2x \\\\   ",
    "f'(x) &= 2x \\\\",
    "f'(x) = & 2x",
    "& 2x",
    "2x \\\\",
    "\\frac{d}{dx} x^2 &= 2x",
    "\\frac{d}{dx}\\left(x^2\\right) &= 2x \\\\",
]


@pytest.mark.parametrize("expected", RIGHT)
def test_a_right_line_of_an_environment_matches(expected):
    code, out, err = run_cli("check", "x^2", expected, "--format", "json")
    assert code == 0, err
    result = strict_json(out)
    assert result["verdict"] == "matches"
    assert result["checks"][0]["expected"]["parsed"] == "2*x"


@pytest.mark.parametrize("expected", ["f'(x) &= 3x", "\\begin{align} f'(x) &= 3x \\\\ \\end{align}",
                                      "f'(x) = 3x \\\\", "& 3x"])
def test_a_wrong_line_of_an_environment_differs(expected):
    code, out, err = run_cli("check", "x^2", expected, "--format", "json")
    assert code == 1, err
    assert strict_json(out)["verdict"] == "differs"


def test_the_order_an_aligned_left_side_names_is_checked():
    # d²/dx² of x^3 is 6x; the left side in the align says the order
    code, out, err = run_cli("check", "x^3", "\\begin{align*} f''(x) &= 6x \\end{align*}",
                             "--format", "json")
    assert code == 0, err
    assert strict_json(out)["order"] == 2


def test_a_function_in_an_environment():
    code, out, err = run_cli("check", "\\begin{equation} x^2 \\end{equation}", "f'(x) &= 2x",
                             "--format", "json")
    assert code == 0, err
    assert strict_json(out)["parsed"] == "x^2"


# ----- 2. several lines: a chain of '=', refused as one argument's chain is today -----------

@pytest.mark.parametrize("expected", ["f'(x) &= 2 x \\\\ &= 2x",
                                      "\\begin{align} f'(x) &= 2 x \\\\ &= 2x \\end{align}"])
def test_several_lines_are_a_chain_with_the_caret_on_the_second_equals(expected):
    code, out, err = run_cli("check", "x^2", expected)
    message, excerpt, caret = err.split("\n")[:3]
    column = expected.rindex("=")
    assert (code, out) == (2, "")
    assert message.startswith("adcli: error: the expectation has more than one '='")
    assert message.endswith(f"(column {column + 1})")
    # (a long text is shown in a window around the caret: under the second '=')
    at = caret.index("^")
    assert caret == " " * at + "^" and excerpt[at] == "=" and excerpt[:at].count("=") == 1
    assert excerpt.strip("… ") in expected


# ----- 3. grad and eval read the environments around an expression ---------------------

@pytest.mark.parametrize("text", ["\\begin{equation} x^3 \\end{equation}",
                                  "\\begin{equation*}x^3\\end{equation*}",
                                  "\\begin {align} & x^3 \\\\ \\end {align}",
                                  "\\begin{gather} x^3 \\\\ \\end{gather}.",
                                  "\\begin{aligned} x^3. \\end{aligned}",
                                  "& x^3", "x^3 \\\\", "x^3\\\\", "& x^3 \\\\ "])
def test_grad_reads_an_expression_in_an_environment(text):
    assert grad_at_2(text) == (8.0, 12.0)     # x^3, 3x^2 at 2


def test_the_api_reads_an_environment():
    assert adcli.parse("\\begin{equation} x^2 \\sin x \\end{equation}").parsed == \
        "(x^2)*sin(x)"


def test_a_long_expression_in_an_environment_is_read_whole():
    # (long texts are cut into tokens in one pass: the new marks must be cut the same way)
    text = "\\begin{align} & " + "+".join(["x"] * 3000) + " \\\\ \\end{align}"
    assert float(adcli.parse(text).value(x=0.5)) == 1500.0
    assert float(adcli.parse("+".join(["x"] * 3000) + "\\\\").value(x=0.5)) == 1500.0


# ----- 4. errors: stray or mismatched environments, '&' and '\\' elsewhere -----------------

# (text, words of the message, the column of the caret's character, counted from 0)
STRAY = [
    ("\\begin{align} x^2", "'\\begin{align}' opens TeX's math and nothing closes it: end the "
                           "expression with '\\end{align}'", 0),
    ("x^2 \\end{align}", "unexpected '\\end{align}': TeX's math delimiters go around the "
                         "whole expression only", 4),
    ("\\begin{align} x^2 \\end{equation}", "'\\end{equation}' does not close the "
     "'\\begin{align}' that opens the expression: end it with '\\end{align}'", 18),
    ("\\begin{equation} x^2 \\end{equation*}", "'\\end{equation*}' does not close the "
     "'\\begin{equation}'", 21),
    ("$x^2 \\end{align}", "'\\end{align}' does not close the '$'", 5),
    ("\\begin{align} x^2 $", "'$' does not close the '\\begin{align}'", 18),
    ("x \\begin{equation} y \\end{equation}", "unexpected '\\begin{equation}'", 2),
    ("\\begin{align} x \\end{align} y", "unexpected '\\end{align}'", 16),
    ("\\begin{align} \\end{align}", "the expression between '\\begin{align}' and "
                                   "'\\end{align}' is empty", 0),
    ("x & y", "unexpected character '&'", 2),
    ("x^2 &&&", "unexpected character '&'", 4),     # (one or two last are flalign's)
    ("& & x", "unexpected character '&'", 2),
    ("\\begin{align} x &+ y \\end{align}", "unexpected character '&'", 16),
    ("x \\\\ y", "unexpected '\\\\': TeX's line break is read at the end of the expression "
                 "only", 2),
    ("\\\\ x", "unexpected '\\\\'", 0),
]


@pytest.mark.parametrize("text, fragment, column", STRAY, ids=[t for t, _, _ in STRAY])
def test_a_stray_mark_is_one_line_with_a_caret(text, fragment, column):
    assert_one_line_error(run_cli("eval", text, "--at", "x=1,y=1"), text, fragment, column)


def test_an_environment_adcli_does_not_read_is_still_refused():
    # (a matrix or a case split is no expression)
    code, _, err = run_cli("eval", "\\begin{cases} x \\end{cases}", "--at", "x=1")
    assert code == 2 and "LaTeX's \\begin is not read here" in err


def test_an_equals_with_its_mark_in_an_expression_is_refused_at_the_mark():
    # grad takes an expression, not an equation: the mark is said, with the caret on it
    code, _, err = run_cli("grad", "y &= x^2", "--at", "x=1")
    assert code == 2 and "unexpected character '&'" in err and "(column 3)" in err


def test_a_mark_inside_the_expected_derivative_is_named():
    code, out, err = run_cli("check", "x^2", "f'(x) = 2 & x")
    assert (code, out) == (2, "")
    assert err.startswith("adcli: error: the expected d/dx: unexpected character '&'")


def test_a_stray_environment_in_an_expectation_says_it_is_the_expectation():
    code, _, err = run_cli("check", "x^2", "\\begin{align} f'(x) &= 2x")
    assert code == 2
    assert err.startswith("adcli: error: the expectation: '\\begin{align}' opens TeX's math "
                          "and nothing closes it")
    assert err.endswith("(column 1)\n  \\begin{align} f'(x) &= 2x\n  ^\n")


# ----- 5. what a user sees on a terminal --------------------------------------------------


@pytest.mark.parametrize("columns", WIDTHS)
def test_a_mismatched_environment_on_a_terminal(columns):
    text = "\\begin{align} x^2 \\end{equation}"
    code, rows = adcli_on_terminal(columns, "eval", text, "--at", "x=1")
    assert code == 2
    # the message folded between words, then the expression and the caret under '\end'
    assert words(rows[:-2]) == (
        "adcli: error: '\\end{equation}' does not close the '\\begin{align}' that opens the "
        "expression: end it with '\\end{align}' (column 19)").split()
    assert rows[-2:] == ["  " + text, "  " + " " * 18 + "^"]


@pytest.mark.parametrize("columns", WIDTHS)
def test_an_aligned_expectation_on_a_terminal(columns):
    code, rows = adcli_on_terminal(columns, "check", "x^2", "\\begin{align} f'(x) &= 2x \\\\ "
                                                        "\\end{align}")
    assert code == 0, rows
    assert verdict_rows(rows) == (
        ["read as: x^2", "expected d/dx: 2*x"],
        "matches d/dx at 30/30 points, largest relative difference 0".split())


# ----- check with one argument: the whole equation, d/dx applied to F ----------------------

@pytest.mark.parametrize("equation", [
    "d/dx (x^2) &= 2x",
    "d/dx (x^2) &= 2x \\\\",
    "\\begin{equation} d/dx (x^2) = 2x \\end{equation}",
    "\\begin{align*} \\frac{d}{dx} x^2 &= 2x \\end{align*}",
    "$d/dx (x^2) = 2x$"])
def test_one_argument_equation_from_an_environment_matches(equation):
    code, out, err = run_cli("check", equation, "--format", "json")
    assert code == 0, err
    result = strict_json(out)
    assert (result["verdict"], result["parsed"]) == ("matches", "x^2")


def test_one_argument_equation_from_an_environment_differs_when_wrong():
    code, out, _ = run_cli("check", "d/dx (x^2) &= 3x", "--format", "json")
    assert code == 1 and strict_json(out)["verdict"] == "differs"


def test_one_argument_align_lines_are_a_chain_with_the_caret_on_the_second_equals():
    text = "d/dx (x^2) &= 2x \\\\ &= 2x"
    code, out, err = run_cli("check", text)
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert lines[0].startswith("adcli: error: the equation has more than one '='")
    assert lines[1].strip() == text
    assert lines[2].index("^") - lines[1].index("d") == text.index("= 2x", 16)


# ----- an error in an equation's right side: its column in the text as typed --------------

@pytest.mark.parametrize("expected, column, excerpt", [
    ("f'(x) &= 2x \\foo", 13, "f'(x) &= 2x \\foo"),        # was column 5, of "2x \foo"
    ("f'(x) = 2x +", 13, "f'(x) = 2x +"),
    ("\\begin{align} f'(x) &= 2x\n  + \\foo x \\end{align}", None, "  + \\foo x \\end{align}"),
])
def test_an_error_in_the_right_side_points_into_the_text_as_typed(expected, column, excerpt):
    code, out, err = run_cli("check", "x^2", expected)
    message, shown, caret = err.split("\n")[:3]
    assert (code, out) == (2, "")
    where = "(line 2, column 5)" if column is None else f"(column {column})"
    assert message.endswith(where), message
    assert shown == "  " + excerpt
    at = excerpt.index("\\foo") if "\\foo" in excerpt else len(excerpt)
    assert caret == "  " + " " * at + "^"
