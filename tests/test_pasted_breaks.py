"""A long formula broken over the lines of a display (multline, split, align), pasted whole:
TeX's line break '\\\\' (\\\\*, \\\\[2pt]) inside the expression continues it where an
operator ends the line before it (x^2 + \\\\ 3x) or begins the line after it, past that
line's '&' and spacing (x^2 \\\\ &\\quad + 3x). A line that begins otherwise is a new line,
read as before: refused in an expression, a chain of '=' in check's expectation.

Values by hand. F = x^2 + 3x + sin x + e^x: at x = 2, 10 + sin 2 + e^2, and
F' = 2x + 3 + cos x + e^x = 7 + cos 2 + e^2. G = (x^2 + 3x) sin x: G(2) = 10 sin 2,
G' = (2x + 3) sin x + (x^2 + 3x) cos x = 7 sin 2 + 10 cos 2. H = x^2 - 4x: H(2) = -4,
H' = 2x - 4 = 0. Errors go through the CLI: exit 2, one line, a caret under the culprit."""
from __future__ import annotations

import math

import pytest

import adcli
from adcli import lalr, parser
from conftest import (adcli_on_terminal, assert_one_line_error, grad_at_2, run_cli,
                      strict_json, verdict_rows, words)

F_AT_2 = (10 + math.sin(2) + math.exp(2), 7 + math.cos(2) + math.exp(2))
G_AT_2 = (10 * math.sin(2), 7 * math.sin(2) + 10 * math.cos(2))
WIDTHS = [40, 60, 80]


def close(got: tuple, want: tuple) -> bool:
    return all(math.isclose(g, w, rel_tol=1e-14, abs_tol=1e-14) for g, w in zip(got, want))


# ----- 1. grad reads a sum or product broken over lines ---------------------------------------

F_BROKEN = [
    "\\begin{multline}\nx^2 + 3x \\\\\n  + \\sin(x) + e^{x}\n\\end{multline}",  # as pasted
    "\\begin{multline*} x^2 + 3x + \\\\ \\sin(x) + e^{x} \\end{multline*}",     # operator last
    "x^2 + 3x \\\\* + \\sin(x) + e^{x}",
    "x^2 + 3x \\\\[2pt] + \\sin(x) \\\\[-1ex] + e^{x}",
    "x^2 + 3x \\\\[2\\jot]\n  + \\sin(x) + e^{x}",
    "\\[ \\begin{split} & x^2 + 3x \\\\\n &\\quad + \\sin(x) + e^{x} \\end{split} \\]",
    "\\begin{align} & x^2 + 3x \\\\ &\\qquad + \\sin(x) \\\\ & + e^{x} \\end{align}",
    "x^2 + 3x + \\nonumber \\\\ & \\sin(x) + e^{x}",                    # a note before the break
    "x^2 + 3x \\label{eq:f} \\\\ + \\sin(x) + e^{x} \\\\",              # and a break ending it
    "x^2 + 3x \\\\ \\, + \\sin(x) + e^{x}",
    "x^2 + 3x \\\\ \u2212 (-\\sin(x)) + e^{x}",                          # U+2212, a minus
]


@pytest.mark.parametrize("text", F_BROKEN)
def test_a_sum_broken_over_lines_is_read_whole(text):
    assert close(grad_at_2(text), F_AT_2)


@pytest.mark.parametrize("text", ["(x^2 + 3x) \\\\ \\cdot \\sin x",
                                  "(x^2 + 3x) \\cdot \\\\ \\sin x",
                                  "\\begin{multline} (x^2 + 3x) \\\\ \\times \\sin(x) "
                                  "\\end{multline}",
                                  "(x^2 + 3x) \\\\ &\\quad * \\sin(x)",
                                  "(x^2 + 3x) \u00b7 \\\\* \\sin(x)"])
def test_a_product_broken_over_lines_is_read_whole(text):
    assert close(grad_at_2(text), G_AT_2)


def test_a_difference_broken_over_lines_keeps_its_sign():
    assert grad_at_2("\\begin{align} & x^2 \\\\ &\\qquad - 4x \\end{align}") == (-4.0, 0.0)


def test_the_api_reads_a_broken_line_as_the_line_unbroken():
    assert adcli.parse("x^2 + 3x \\\\ &\\quad + \\sin x").parsed == \
        adcli.parse("x^2 + 3x + \\sin x").parsed
    assert adcli.parse("x^2 - \\\\ 3x").parsed == adcli.parse("x^2 - 3x").parsed
    assert adcli.parse("x^2 \\\\ - \\\\ 3x").parsed == adcli.parse("x^2 - 3x").parsed


@pytest.mark.parametrize("line, value", [("x \\\\ + ", 1000.5), ("x + \\\\[2pt] ", 1000.5),
                                         ("1 \\\\ &\\quad \\cdot ", 0.5)])
def test_a_long_broken_sum_is_cut_in_one_pass_the_same(line, value, monkeypatch):
    # over 4096 characters: cut into tokens in one pass (lalr._Bulk), as each state cuts it
    text = line * 2000 + "x"
    monkeypatch.setattr(lalr, "BULK", 10 ** 9)
    nodes = adcli.parse(text).nodes
    monkeypatch.setattr(lalr, "BULK", 0)
    expression = adcli.parse(text)
    assert expression.nodes == nodes and parser._parser()._bulk
    assert float(expression.value(x=0.5)) == value


# ----- 2. check: an expectation broken over lines -------------------------------------------

def split(expected: str) -> str:
    return "\\begin{equation}\n\\begin{split}\n" + expected + "\n\\end{split}\n\\end{equation}"


@pytest.mark.parametrize("expected, verdict", [
    (split("f'(x) &= 2x + 3 \\\\\n      &\\quad + \\cos(x)"), "matches"),
    (split("f'(x) &= 2x + 3 + \\\\\n      &\\quad \\cos(x)"), "matches"),
    ("f'(x) &= 2x + 3 \\\\ &\\quad + \\cos(x) \\\\", "matches"),
    ("\\begin{multline} f'(x) = 2x \\\\ + 3 + \\cos(x) \\end{multline}", "matches"),
    (split("f'(x) &= 2x + 3 \\\\\n      &\\quad - \\cos(x)"), "differs"),
    ("f'(x) &= 2x \\\\ + 3", "differs")])
def test_check_reads_an_expectation_broken_over_lines(expected, verdict):
    code, out, err = run_cli("check", "x^2 + 3x + sin(x)", expected, "--format", "json")
    assert code == (0 if verdict == "matches" else 1), err
    assert strict_json(out)["verdict"] == verdict


def test_check_with_one_argument_reads_an_equation_broken_over_lines():
    equation = "\\begin{multline} \\frac{d}{dx}\\left(x^2 + 3x + \\sin x\\right) = 2x + 3 " \
               "\\\\ + \\cos(x) \\end{multline}"
    code, out, err = run_cli("check", equation, "--format", "json")
    assert code == 0, err
    assert strict_json(out)["verdict"] == "matches"


# ----- 3. a new line is not a continuation: read as before -------------------------------------

@pytest.mark.parametrize("expected", ["f(x) &= x^2 \\\\ f'(x) &= 2x",
                                      "\\begin{align} f(x) &= x^2 \\\\ -f'(x) &= -2x "
                                      "\\end{align}"])
def test_a_new_equation_on_the_next_line_is_a_chain_as_before(expected):
    # (the caret under the second '=': which side is the expectation?)
    code, out, err = run_cli("check", "x^2", expected)
    message, excerpt, caret = err.split("\n")[:3]
    assert (code, out) == (2, "")
    assert message.startswith("adcli: error: the expectation has more than one '='")
    assert message.endswith(f"(column {expected.rindex('=') + 1})")


NEW_LINE = "is read at the end of the expression only, or where an operator ends its line " \
           "or begins the next"
# (text, words of the message, the column of the caret's character, counted from 0)
WRONG = [
    ("x^2 \\\\ \\sin x", NEW_LINE, 4),                # the next line begins with no operator
    ("x^2 \\\\ 3x", NEW_LINE, 4),
    ("x^2 \\\\ &= 3x", NEW_LINE, 4),
    ("x^2 + 3x \\\\ & y", NEW_LINE, 9),
    ("\\begin{multline} x^2 \\\\ (y + 1) \\end{multline}", NEW_LINE, 21),
    ("x^2 \\\\ * y", NEW_LINE, 4),                  # (TeX's \\* is starred, spaces aside)
    ("x^2 + 3x \\\\ +", "unexpected end", 13),       # nothing after the operator
]


@pytest.mark.parametrize("text, fragment, column", WRONG, ids=[t for t, _, _ in WRONG])
def test_a_new_line_in_an_expression_is_one_line_with_a_caret(text, fragment, column):
    assert_one_line_error(run_cli("eval", text, "--at", "x=1,y=1"), text, fragment, column)


def test_a_star_after_a_break_is_said_to_be_the_breaks():
    text = "(x + 1) \\\\ * y"
    assert_one_line_error(run_cli("eval", text, "--at", "x=1,y=1"), text,
                          "a '*' just after it is the break's star (\\\\*): put the next "
                          "line's '&' before a '*' that multiplies", 8)


# ----- 4. inner environments need an outer pair to nest in ---------------------------------

@pytest.mark.parametrize("text, column", [
    ("\\begin{aligned} \\begin{split} x^2 \\end{split} \\end{aligned}", 16),
    ("\\begin{gathered}\\begin{split}x\\end{split}\\end{gathered}", 16)])
def test_two_inner_environments_alone_name_the_missing_outer_pair(text, column):
    assert_one_line_error(run_cli("eval", text, "--at", "x=1"), text,
                          "with no outer pair around them (\\[ \\], $$, equation, ...)", column)


# ----- 5. '$' inside a line's note -----------------------------------------------------------

NOTE_DOLLAR = "inside LaTeX's \\text{...}: a line's note holds plain text only"


@pytest.mark.parametrize("text, column", [("x^2 && \\text{by $u=x^2$} \\\\", 16),
                                          ("x^2 \\quad \\text{with $u$}", 21),
                                          ("\\[ x^2 \\quad \\text{with $u$} \\]", 24),
                                          ("$x^2 \\quad \\mbox{with \\(u\\)}$", 22)])
def test_a_dollar_in_a_note_is_named(text, column):
    fragment = NOTE_DOLLAR.replace("\\text", "\\mbox") if "mbox" in text else NOTE_DOLLAR
    assert_one_line_error(run_cli("eval", text, "--at", "x=1"), text, fragment, column)


def test_a_dollar_in_a_note_of_the_expectation_is_named():
    text = "f'(x) &= 2x\\cos(x^2) && \\text{by $u=x^2$}"
    code, out, err = run_cli("check", "sin(x^2)", text)
    assert (code, out, err.count("\n")) == (2, "", 3)
    assert err.startswith("adcli: error: the expectation: '$' " + NOTE_DOLLAR)
    assert err.split("\n")[0].endswith(f"(column {text.index('$') + 1})")


# ----- 6. what a user sees on a terminal ----------------------------------------------------

@pytest.mark.parametrize("columns", WIDTHS)
def test_a_broken_expectation_on_a_terminal(columns):
    code, rows = adcli_on_terminal(columns, "check", "x^2 + 3x + sin(x)",
                                   split("f'(x) &= 2x + 3 \\\\\n &\\quad + \\cos(x)"))
    assert code == 0, rows
    (read, expected), verdict = verdict_rows(rows)
    assert read == "read as: ((x^2) + (3*x)) + sin(x)", rows
    assert expected == "expected d/dx: ((2*x) + 3) + cos(x)", rows
    assert verdict[:5] == "matches d/dx at 30/30 points,".split()


@pytest.mark.parametrize("columns", WIDTHS)
def test_a_new_line_on_a_terminal(columns):
    text = "x^2 \\\\ \\sin x"
    code, rows = adcli_on_terminal(columns, "eval", text, "--at", "x=1")
    assert code == 2
    assert NEW_LINE in " ".join(words(rows[:-2]))
    assert rows[-2:] == ["  " + text, "  " + " " * 4 + "^"]


# ----- amsmath's empty group before a continued line's operator: {}+ x^2 ---------------------

def test_an_empty_group_before_the_operator_continues_the_line():
    # x^2 - 3x at 2: 4 - 6 = -2, d/dx = 2x - 3 = 1; x^2 * 3x = 3x^3: 24, 9x^2 = 36 (by hand)
    for text, want in (("\\begin{multline} x^2 \\\\ {}- 3x \\end{multline}", ["-2.0", "1.0"]),
                       ("\\begin{multline} x^2 \\\\ &\\quad { } * 3x \\end{multline}",
                        ["24.0", "36.0"])):
        code, out, err = run_cli("grad", text, "--at", "x=2", "--format", "plain")
        assert (code, out.split(), err) == (0, want, "")


def test_an_empty_group_in_checks_expectation():
    # d/dx x^2 sin x = 2x sin x + x^2 cos x: the second term on a line of its own after {}+
    text = "\\begin{align*}\n f'(x) &= 2x \\sin x \\\\\n &\\qquad {}+ x^2 \\cos x\n\\end{align*}"
    code, out, err = run_cli("check", "x^2 \\sin x", text, "--format", "plain")
    assert (code, out.splitlines()[0]) == (0, "matches d/dx at 30/30 points, largest "
                                              "relative difference 0")
    wrong = text.replace("{}+", "{}-")
    code, out, err = run_cli("check", "x^2 \\sin x", wrong, "--format", "plain")
    assert (code, out.splitlines()[0]) == (1, "differs from d/dx at 30 of 30 points")
