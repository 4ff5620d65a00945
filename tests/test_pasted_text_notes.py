"""A line's justification in text, pasted from an align environment and read as no part of
the maths, as its \\label{...} is: at the end of the line (before TeX's line break and the
closing delimiters), after align's '&&' or the space \\quad or \\qquad:
f'(x) &= 2x\\cos(x^2) && \\text{by the chain rule} \\\\. \\text{...}, \\textrm{...} and
\\mbox{...} alike; their braces hold plain text, as \\label's do. Anywhere else, an error.

Values by hand: d/dx sin(x^2) = 2x cos(x^2) (the chain rule), so x cos(x^2) must differ;
x^3 at x = 2 is 8 with derivative 3x^2 = 12. Errors go through the CLI: exit 2, one line,
a caret under the culprit."""
from __future__ import annotations

import pytest

import adcli
from adcli import lalr, parser
from conftest import (grad_at_2, run_cli, strict_json,
                      adcli_on_terminal, assert_one_line_error, words, verdict_rows)

NOTES = ["&& \\text{by the chain rule}", "&&\\text{chain rule}", "&& \\text {chain rule}",
         "\\quad \\text{chain rule}", "\\qquad \\text{(by the chain rule)}",
         "\\quad\\text{chain rule, with u: x^2}",
         "&& \\textrm{chain rule}", "&& \\mbox{chain rule}", "\\qquad \\mbox{(chain rule)}",
         "&& \\text{}", "&& \\quad \\text{chain rule}", "&&\\qquad\\text{(chain rule)}"]
ENDS = ["", " \\\\", " \\\\*", " \\\\[2pt]", " \\label{eq:1} \\\\", " \\nonumber \\\\[1ex]"]


# ----- 1. check: sin(x^2) against 2x cos(x^2), the line justified in text -----------------

RIGHT = ([f"f'(x) &= 2x\\cos(x^2) {note}{end}" for note in NOTES for end in ENDS]
         + [f"2x \\cos(x^2) {note}" for note in NOTES]
         + ["\\[ \\begin{aligned} f'(x) &= 2x\\cos(x^2) && \\text{chain rule} \\\\ "
            "\\end{aligned} \\]",
            "\\begin{align*} f'(x) &= 2x\\cos(x^2) && \\text{chain rule} \\end{align*}",
            "$f'(x) = 2x\\cos(x^2) \\quad \\text{chain rule}$",
            "\\begin{equation} f'(x) = 2x\\cos(x^2) \\qquad \\text{(chain rule)} "
            "\\end{equation}.",
            "f'(x) &= 2x\\cos(x^2) && \\text{chain rule} && \\text{again}"])


@pytest.mark.parametrize("expected", RIGHT)
def test_a_right_line_with_its_justification_matches(expected):
    code, out, err = run_cli("check", "sin(x^2)", expected, "--format", "json")
    assert code == 0, err
    assert strict_json(out)["verdict"] == "matches"


@pytest.mark.parametrize("expected", ["f'(x) &= x\\cos(x^2) && \\text{by the chain rule} \\\\",
                                      "x \\cos(x^2) \\quad \\text{chain rule}",
                                      "f'(x) = 2x\\cos(x) \\qquad \\mbox{(chain rule)}"])
def test_a_wrong_line_with_its_justification_differs(expected):
    code, out, err = run_cli("check", "sin(x^2)", expected, "--format", "json")
    assert code == 1, err
    assert strict_json(out)["verdict"] == "differs"


def test_the_expectations_of_expect_take_a_justification():
    # d/dx x^2 y = 2xy, d/dy = x^2
    code, out, err = run_cli("check", "x^2 y", "--expect", "x=2x y && \\text{power rule}",
                             "--expect", "y=x^2 \\quad \\text{constant in y} \\\\",
                             "--format", "json")
    assert code == 0, err
    assert strict_json(out)["verdict"] == "matches"


def test_one_argument_equation_with_a_justification_matches():
    code, out, err = run_cli("check", "\\frac{d}{dx} \\sin(x^2) &= 2x\\cos(x^2) && "
                             "\\text{chain rule} \\\\", "--format", "json")
    assert code == 0, err
    assert strict_json(out)["verdict"] == "matches"


# ----- 2. eval, grad and the API -----------------------------------------------------------

@pytest.mark.parametrize("text", [f"x^3 {note}{end}" for note in NOTES for end in ENDS]
                         + ["& x^3 && \\text{cubed} \\\\", "\\[ x^3 \\quad \\text{cubed} \\]",
                            "\\[ \\begin{aligned} & x^3 && \\text{cubed} \\end{aligned} \\]"])
def test_grad_reads_a_justified_expression(text):
    assert grad_at_2(text) == (8.0, 12.0)     # x^3, 3x^2 at 2


def test_the_api_reads_a_justification_as_nothing():
    assert adcli.parse("\\sin x && \\text{a}").parsed == adcli.parse("\\sin x").parsed
    assert float(adcli.parse("x^3 \\quad \\text{cubed}").value(x=2.0)) == 8.0


@pytest.mark.parametrize("note", ["&& \\text{the sum}", "\\quad \\mbox{(the sum)}"])
def test_a_long_justified_expression_is_cut_in_one_pass_the_same(note, monkeypatch):
    # over 4096 characters: cut into tokens in one pass (lalr._Bulk), as each state cuts it
    text = "+".join(["x \\quad"] * 3000) + f" {note} \\\\[2pt]"
    monkeypatch.setattr(lalr, "BULK", 10 ** 9)
    nodes = adcli.parse(text).nodes
    monkeypatch.setattr(lalr, "BULK", 0)
    expression = adcli.parse(text)
    assert expression.nodes == nodes and parser._parser()._bulk
    assert float(expression.value(x=0.5)) == 1500.0


# ----- 3. errors: a justification elsewhere, or one that is no plain text ------------------

AT_THE_END = "is read at the end of a line only"
# (text, words of the message, the column of the caret's character, counted from 0)
STRAY = [
    ("x && \\text{a} + 1", AT_THE_END, 2),
    ("x \\quad \\text{and} y", AT_THE_END, 2),
    ("x && \\qquad \\text{and} y", AT_THE_END, 2),
    ("x^2 \\qquad \\mbox{for} y", AT_THE_END, 4),
    ("x^2 \\qquad \\mbox{for} \\\\ y", "unexpected '\\\\'", 22),
    ("&& \\text{a} x", AT_THE_END, 0),
    ("x && \\text{a} \\\\[2pt] y", "unexpected '\\\\[2pt]'", 14),
    ("x \\text{a}", "LaTeX's \\text is not read here", 2),
    ("x & \\text{a}", "unexpected character '&'", 2),
    ("x && \\text{by parts", "the '{' of LaTeX's \\text is not closed", 10),
    ("x && \\text{a = b}", "LaTeX's \\text{...} holds plain text only", 13),
    ("x \\quad \\mbox{a \\alpha}", "LaTeX's \\mbox{...} holds plain text only", 16),
    ("x && \\textrm{a{b}}", "LaTeX's \\textrm{...} holds plain text only", 14),
    ("x && \\text a", "LaTeX's \\text takes its text in braces", 5),
    # what cannot go on the maths after a note is the culprit, not the note (the last
    # character of each); a text running into the line's break or the math's closing is
    # one never closed (the caret on its '{', the 11th and 9th characters)
    ("x^2 && \\text{a}}", "unexpected '}'", 15),
    ("x^2 && \\text{a} )", "unexpected ')'", 16),
    ("x^2 \\quad \\text{a}.", "unexpected character '.'", 18),
    ("\\[ x && \\text{a \\]", "the '{' of LaTeX's \\text is not closed", 13),
    ("x \\label{a \\\\", "the '{' of LaTeX's \\label is not closed", 8),
]


@pytest.mark.parametrize("text, fragment, column", STRAY, ids=[t for t, _, _ in STRAY])
def test_what_is_no_justification_is_one_line_with_a_caret(text, fragment, column):
    assert_one_line_error(run_cli("eval", text, "--at", "x=1,y=1"), text, fragment, column)


def test_a_justification_inside_the_expectation_is_named():
    code, out, err = run_cli("check", "sin(x^2)", "f'(x) &= 2x && \\text{a} \\cos(x^2)")
    assert (code, out) == (2, "")
    # (found where the expectation is split at its '=', as a stray delimiter is)
    assert err.startswith("adcli: error: the expectation: ") and AT_THE_END in err
    excerpt, caret = err.split("\n")[1:3]
    assert excerpt[caret.index("^"):].startswith("&&")


# ----- 4. what a user sees on a terminal ----------------------------------------------------

def test_a_justified_expectation_on_a_terminal():
    code, rows = adcli_on_terminal(80, "check", "sin(x^2)", "f'(x) &= 2x\\cos(x^2) && "
                                                            "\\text{by the chain rule} \\\\")
    assert code == 0, rows
    (read, expected), verdict = verdict_rows(rows)
    assert read == "read as: sin(x^2)" and expected.startswith("expected d/dx: ")
    assert "text" not in expected and "chain" not in expected
    assert verdict[:5] == "matches d/dx at 30/30 points,".split()


def test_a_misplaced_justification_on_a_terminal():
    text = "x \\quad \\text{and} y"
    code, rows = adcli_on_terminal(80, "eval", text, "--at", "x=1,y=1")
    assert code == 2
    assert AT_THE_END in " ".join(words(rows[:-2]))
    assert rows[-2:] == ["  " + text, "  " + " " * 2 + "^"]
