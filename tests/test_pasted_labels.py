"""Annotations of a line pasted from LaTeX, read as no part of the maths: \\label{eq:1},
\\tag{3}, \\tag*{a}, \\nonumber, \\notag wherever TeX's space may stand; TeX's line break with
its spacing, \\\\[2pt], \\\\[-1ex], \\\\[2\\jot], last on a line as \\\\ is; and the spaces
\\quad and \\qquad.

F is x^2 or x^3 throughout; their derivatives 2x and 3x^2 are worked out by hand (at x = 2:
x^3 = 8, 3x^2 = 12). A wrong derivative (3x for x^2) must still differ. Errors go through the
CLI: exit 2, one line, a caret under the culprit."""
from __future__ import annotations

import pytest

import adcli
from conftest import (grad_at_2, run_cli, strict_json,
                      adcli_on_terminal, assert_one_line_error, words, verdict_rows)


NOTES = ["\\label{eq:deriv}", "\\label {eq:1}", "\\nonumber", "\\notag", "\\tag{3}",
         "\\tag*{a}", "\\tag{1.2 b}", "\\quad", "\\qquad"]
BREAKS = ["\\\\[2pt]", "\\\\[1ex]", "\\\\[-1.5em]", "\\\\[ 3 mm ]", "\\\\[.5cm]", "\\\\[1in]",
          "\\\\[4bp]", "\\\\[\\jot]", "\\\\[2\\jot]", "\\\\[0.5\\baselineskip]"]


# ----- 1. check: the derivative of x^2, 2x, with the line's annotations -------------------

RIGHT = ([f"f'(x) = 2x {note}" for note in NOTES]
         + [f"f'(x) &= 2x {note} \\\\" for note in NOTES]
         + [f"f'(x) &= 2x \\nonumber {line_break}" for line_break in BREAKS]
         + [f"f'(x) = 2x {line_break}" for line_break in BREAKS]
         + ["\\label{eq:1} f'(x) = 2x",
            "f'(x) \\label{eq:1} = 2x",
            "f'(x) = \\label{eq:1} 2x",
            "f'(x) = 2x\\label{eq:1}\\tag{1}",
            "f'(x) = 2 \\label{eq:1} x",
            "\\begin{equation} f'(x) = 2x \\label{eq:deriv} \\end{equation}",
            "\\begin{align} f'(x) &= 2x \\nonumber \\\\[2pt] \\end{align}",
            "\\begin{align*} f'(x) &= 2x \\tag*{b} \\end{align*}",
            "$f'(x) = 2x \\tag{1}$",
            "f'(x) = 2x \\\\[2pt] \\label{eq:2}",
            "\\notag & f'(x) = 2x",
            "f'(x) = 2 \\quad x",
            "\\frac{d}{dx} x^2 \\qquad &= 2x \\notag \\\\[1ex]"])


@pytest.mark.parametrize("expected", RIGHT)
def test_a_right_annotated_line_matches(expected):
    code, out, err = run_cli("check", "x^2", expected, "--format", "json")
    assert code == 0, err
    result = strict_json(out)
    assert result["verdict"] == "matches"
    assert result["checks"][0]["expected"]["parsed"] == "2*x"


@pytest.mark.parametrize("expected", ["f'(x) = 3x \\label{eq:1}", "f'(x) &= 3x \\nonumber "
                                      "\\\\[2pt]", "f'(x) = 3x \\tag*{a}", "3x \\notag",
                                      "f'(x) = 3 \\quad x \\\\[1ex]"])
def test_a_wrong_annotated_line_differs(expected):
    code, out, err = run_cli("check", "x^2", expected, "--format", "json")
    assert code == 1, err
    assert strict_json(out)["verdict"] == "differs"


@pytest.mark.parametrize("equation", ["d/dx (x^2) &= 2x \\label{eq:1} \\\\[2pt]",
                                      "d/dx (x^2) = 2x \\tag{3}",
                                      "\\begin{align*} \\frac{d}{dx} x^2 &= 2x \\notag "
                                      "\\end{align*}"])
def test_one_argument_annotated_equation_matches(equation):
    code, out, err = run_cli("check", equation, "--format", "json")
    assert code == 0, err
    result = strict_json(out)
    assert (result["verdict"], result["parsed"]) == ("matches", "x^2")


def test_the_order_an_annotated_left_side_names_is_checked():
    # d²/dx² of x^3 is 6x
    code, out, err = run_cli("check", "x^3", "f''(x) \\label{eq:2} &= 6x \\nonumber \\\\[2pt]",
                             "--format", "json")
    assert code == 0, err
    assert strict_json(out)["order"] == 2


# ----- 2. grad and the API read an annotated expression ------------------------------------

@pytest.mark.parametrize("text", [f"x^3 {note}" for note in NOTES]
                         + [f"x^3 {line_break}" for line_break in BREAKS]
                         + [f"{note} x^3" for note in NOTES]
                         + ["x^3 \\tag{1}", "x \\label{a} ^3", "x^{3 \\notag}",
                            "& x^3 \\nonumber \\\\[2pt]", "\\[ x^3 \\tag{1} \\]",
                            "\\begin{equation} x^3 \\label{eq:1} \\end{equation}",
                            "\\begin{gather} x^3 \\\\[2pt] \\end{gather}",
                            "\\[ x^3 \\\\[2pt] \\]", "x \\quad x \\qquad x"])
def test_grad_reads_an_annotated_expression(text):
    assert grad_at_2(text) == (8.0, 12.0)     # x^3, 3x^2 at 2


def test_quad_ends_a_function_argument_as_thin_space_does():
    # \sin x \quad y is sin(x)*y, as \sin x \, y is: typeset maths spaces the two apart
    assert adcli.parse("\\sin x \\quad y").parsed == adcli.parse("\\sin x \\, y").parsed
    assert adcli.parse("\\sin x \\qquad y").parsed == "sin(x)*y"
    # a note is no space: \sin x \label{a} y is \sin x y
    assert adcli.parse("\\sin x \\label{a} y").parsed == adcli.parse("\\sin x y").parsed
    # after a group, a number may follow a \quad as it follows a space
    assert float(adcli.parse("(x+1) \\quad 2x").value(x=1.0)) == 4.0


def test_a_long_annotated_expression_is_read_whole():
    # (long texts are cut into tokens in one pass: the new terminals must be cut the same way)
    text = "+".join(["x \\quad"] * 3000) + " \\label{eq:1} \\\\[2pt]"
    assert float(adcli.parse(text).value(x=0.5)) == 1500.0
    text = "\\tag{1}" + "+".join(["x \\nonumber"] * 3000)
    assert float(adcli.parse(text).value(x=0.5)) == 1500.0


# ----- 3. errors: what is no annotation stays an error, the caret on it --------------------

# (text, words of the message, the column of the caret's character, counted from 0)
STRAY = [
    ("x^2 \\label{eq:1", "the '{' of LaTeX's \\label is not closed", 10),
    ("x^2 \\tag*{a", "the '{' of LaTeX's \\tag is not closed", 9),
    ("x^2 \\label eq", "LaTeX's \\label takes its text in braces", 4),
    ("x^2 \\tag 3", "LaTeX's \\tag takes its text in braces", 4),
    ("x^2 \\label{eq:\\alpha}", "LaTeX's \\label{...} holds plain text only", 14),
    ("x^2 \\label{a{b}}", "LaTeX's \\label{...} holds plain text only", 12),
    ("x^2 \\tag{a=b}", "LaTeX's \\tag{...} holds plain text only", 10),
    ("x^2 \\nonumberx", "LaTeX's \\nonumberx is not read here", 4),
    ("x \\quady", "LaTeX's \\quady is not read here", 2),
    ("x^2 \\labelx{a}", "LaTeX's \\labelx is not read here", 4),
    ("x^2 \\\\[2pt] y", "unexpected '\\\\[2pt]': TeX's line break is read at the end of the "
                        "expression only", 4),
    ("x^2 \\\\[2]", "unexpected '\\\\'", 4),
    ("x^2 \\\\[2pc]", "unexpected '\\\\'", 4),
    ("x^2 \\\\[2ptx]", "unexpected '\\\\'", 4),
    ("x^2 \\\\[\\hfill]", "unexpected '\\\\'", 4),
    ("x^2 \\\\ [2pt]", "unexpected '\\\\'", 4),
]


@pytest.mark.parametrize("text, fragment, column", STRAY, ids=[t for t, _, _ in STRAY])
def test_what_is_no_annotation_is_one_line_with_a_caret(text, fragment, column):
    assert_one_line_error(run_cli("eval", text, "--at", "x=1,y=1"), text, fragment, column)


def test_an_unclosed_label_in_the_expectation_is_named():
    code, out, err = run_cli("check", "x^2", "f'(x) = 2x \\label{eq:1")
    assert (code, out) == (2, "")
    assert err.startswith("adcli: error: the expected d/dx: the '{' of LaTeX's \\label is not "
                          "closed")
    excerpt, caret = err.split("\n")[1:3]
    assert excerpt[caret.index("^")] == "{"


def test_a_glued_command_in_the_expectation_is_refused():
    code, out, err = run_cli("check", "x^2", "f'(x) = 2x \\notagx")
    assert (code, out) == (2, "")
    assert "LaTeX's \\notagx is not read here" in err


# ----- 4. what a user sees on a terminal --------------------------------------------------


@pytest.mark.parametrize("columns", [40, 60, 80])
def test_an_unclosed_label_on_a_terminal(columns):
    text = "x^2 \\label{eq:1"
    code, rows = adcli_on_terminal(columns, "eval", text, "--at", "x=1")
    assert code == 2
    # the message folded between words, then the expression and the caret under its '{'
    assert words(rows[:-2]) == (
        "adcli: error: the '{' of LaTeX's \\label is not closed: end it with '}', as in "
        "\\label{eq:1} (column 11)").split()
    assert rows[-2:] == ["  " + text, "  " + " " * 10 + "^"]


@pytest.mark.parametrize("columns", [40, 60, 80])
def test_an_annotated_expectation_on_a_terminal(columns):
    code, rows = adcli_on_terminal(columns, "check", "x^2", "f'(x) &= 2x \\label{eq:1} "
                                                        "\\nonumber \\\\[2pt]")
    assert code == 0, rows
    assert verdict_rows(rows) == (
        ["read as: x^2", "expected d/dx: 2*x"],
        "matches d/dx at 30/30 points, largest relative difference 0".split())
