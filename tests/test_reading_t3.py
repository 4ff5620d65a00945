"""Maths pasted from Word and PDFs: typeset π, π as a subscript, invisible operators.

π in any of Unicode's forms (𝜋 italic, 𝛑 bold, 𝝅 bold italic, ϖ, ...: every character whose
NFKC form is π) is the constant on its own, as π is: 2𝜋x is 2*pi*x, never 2 times a name
'πx'. π as a whole subscript is part of the name (x_π, x_{π}, x_\\pi, x_𝜋: one variable
x_π, given as --at x_π=2); π with a subscript of its own (π_1, π₁) is refused. Word's
invisible function application (U+2061) and invisible times (U+2062) are read as the space
they show as; its invisible separator and plus, and the bullets, are named with what to write.

Every value and derivative here was worked out by hand.
"""
from __future__ import annotations

import math
import unicodedata

import pytest

import adcli
from adcli.parser import is_name
from conftest import assert_one_line_error, run_cli, strict_json

# Every character whose NFKC form is π, found by hand in Unicode's tables
PI_FORMS = "πϖℼ\U0001d6d1\U0001d6e1\U0001d70b\U0001d71b\U0001d745\U0001d755\U0001d77f" \
    "\U0001d78f\U0001d7b9\U0001d7c9"


def test_the_forms_of_pi_are_unicodes_own():
    assert all(unicodedata.normalize("NFKC", c) == "π" for c in PI_FORMS)
    assert len(set(PI_FORMS)) == 13


@pytest.mark.parametrize("pi", PI_FORMS)
def test_every_form_of_pi_glued_to_a_letter_is_the_constant(pi):
    f = adcli.parse(f"2{pi}x")
    assert f.variables == ("x",)
    assert f.parsed == adcli.parse("2πx").parsed == "(2*pi)*x"
    # 2πx at 0.3: 0.6π, and d/dx = 2π
    value, grad = f.value_and_grad(x=0.3)
    assert float(value) == pytest.approx(0.6 * math.pi, rel=1e-15, abs=0)
    assert float(grad["x"]) == pytest.approx(2 * math.pi, rel=1e-15, abs=0)


# (text, point, value, gradient), each by hand
READINGS = [
    ("sin(2\U0001d70bx)", {"x": 0.1}, math.sin(0.2 * math.pi),
     {"x": 2 * math.pi * math.cos(0.2 * math.pi)}),
    ("\U0001d70br^2", {"r": 3.0}, 9 * math.pi, {"r": 6 * math.pi}),
    ("cos(\U0001d745t)", {"t": 0.3}, math.cos(0.3 * math.pi),
     {"t": -math.pi * math.sin(0.3 * math.pi)}),
    ("x\U0001d6d1", {"x": 2.0}, 2 * math.pi, {"x": math.pi}),
    ("\U0001d70b\U0001d465", {"x": 2.0}, 2 * math.pi, {"x": math.pi}),
    # π as a subscript: one variable x_π, however written
    ("x_π^2 + x_\\pi", {"x_π": 3.0}, 12.0, {"x_π": 7.0}),
    ("x_{π} x_{\\pi} x_\U0001d70b", {"x_π": 2.0}, 8.0, {"x_π": 12.0}),
    ("k_π", {"k_π": 1.0}, 1.0, {"k_π": 1.0}),
    ("ω_π t", {"ω_π": 2.0, "t": 5.0}, 10.0, {"ω_π": 5.0, "t": 2.0}),
    ("x_πy", {"x_π": 2.0, "y": 3.0}, 6.0, {"x_π": 3.0, "y": 2.0}),   # π ends the name
    ("log_π x", {"x": 2.0}, math.log(2) / math.log(math.pi),
     {"x": 1 / (2 * math.log(math.pi))}),
    ("log_\U0001d70b(x)", {"x": 2.0}, math.log(2) / math.log(math.pi),
     {"x": 1 / (2 * math.log(math.pi))}),
    # Word's invisible function application and invisible times: read as a space
    ("sin\u2061(\U0001d465)", {"x": 1.0}, math.sin(1), {"x": math.cos(1)}),
    ("sin\u2061\U0001d465", {"x": 1.0}, math.sin(1), {"x": math.cos(1)}),
    ("2\u2062\U0001d465", {"x": 1.5}, 3.0, {"x": 2.0}),
    ("\U0001d465\u2062\U0001d466", {"x": 2.0, "y": 3.0}, 6.0, {"x": 3.0, "y": 2.0}),
    ("sin\u20612\u2062\U0001d465", {"x": 0.5}, math.sin(1), {"x": 2 * math.cos(1)}),
]


@pytest.mark.parametrize("text, at, value, grad", READINGS, ids=[r[0] for r in READINGS])
def test_value_and_gradient(text, at, value, grad):
    f = adcli.parse(text)
    assert sorted(f.variables) == sorted(grad)
    got, gradient = f.value_and_grad(at=at)
    assert float(got) == pytest.approx(value, rel=1e-14, abs=0)
    for name, partial in grad.items():
        assert float(gradient[name]) == pytest.approx(partial, rel=1e-14, abs=1e-15)


def test_the_cli_reads_typeset_pi_as_pi_everywhere():
    # sin(2πx) at 0.25: sin(π/2) = 1, derivative 2π cos(π/2) = 0 (to rounding)
    code, out, err = run_cli("eval", "sin(2\U0001d70bx)", "--at", "x=0.25", "--format", "plain")
    assert (code, err) == (0, "") and float(out) == 1.0
    for command in ("grad", "hessian", "jacobian"):
        code, out, err = run_cli(command, "sin(2\U0001d70bx)", "--at", "x=0.25",
                                 "--format", "json")
        assert code == 0, err
        assert "--wrt" not in err


def test_a_typeset_pi_glued_to_a_letter_is_no_name_for_at():
    code, out, err = run_cli("eval", "sin(2\U0001d70bx)", "--at", "\U0001d70bx=0.25")
    assert code == 2 and out == "" and "0.479" not in out


def test_at_and_wrt_name_the_variable_subscripted_with_pi():
    # x_π y at x_π=2, y=3: 6; ∂/∂x_π = y = 3
    for written in ("x_π", "x_\\pi", "x_{π}", "x_\U0001d70b"):
        code, out, err = run_cli("grad", "x_\\pi y", "--at", f"{written}=2,y=3", "--wrt",
                                 written, "--format", "plain")
        assert (code, out, err) == (0, "6.0 3.0\n", ""), (written, code, out, err)
    code, out, err = run_cli("eval", "k_π", "--at", "k_π=1", "--format", "json")
    assert code == 0 and strict_json(out)["points"][0]["value"] == 1.0


NAMES = ["2πx", "2\U0001d70bx", "\U0001d70b\U0001d465", "x\U0001d70b", "\U0001d70br^2",
         "x_π", "x_{π}", "x_\\pi", "x_{\\pi}", "k_π + ω_π", "x_πy", "x_π_1", "ϖx",
         "\U0001d7c9ab", "log_π x", "\\log_\\pi x", "a\U0001d6e1b", "sin(2\U0001d70bx)"]


@pytest.mark.parametrize("text", NAMES)
def test_every_variable_the_parser_gives_can_be_named(text):
    for name in adcli.parse(text).variables:
        assert is_name(name), name
        # π only as a whole subscript
        assert "π" not in name.replace("_π_", "_").removesuffix("_π"), name


def _refused(text: str) -> tuple[int, str, str]:
    return run_cli("eval", text, "--at", "x=1,y=2")


REFUSED = [
    ("x ∙ y", "'∙' (a bullet operator) is not read: write '*'", 2),
    ("x • y", "'•' (a bullet) is not read: write '*'", 2),
    ("x\u2063y", "'\\u2063' (an invisible separator, or comma) is not read: write ',' "
     "between a function's arguments, or leave it out", 1),
    ("x\u2064y", "'\\u2064' (an invisible plus) is not read: write '+'", 1),
    ("x⁰·⁵", "'·' between superscript digits is not a decimal point: write the power "
     "with '^': x^0.5", 2),
    ("x⁰.⁵", "'.' between superscript digits is not a decimal point: write the power "
     "with '^': x^0.5", 2),
    ("(x+1)⁰·⁵", "'·' between superscript digits is not a decimal point: write the power "
     "with '^': (x+1)^0.5", 6),
    ("x_π\u0302", "π is the constant pi, never part of a longer name: 'x_π\u0302' cannot "
     "name a variable; set π apart, as in 2πx (2*pi*x)", 0),
    ("x²·⁵ + y", "'·' between superscript digits is not a decimal point: write the power "
     "with '^': x^2.5", 2),
    ("π₁ + x", "'π' is the constant pi, which takes no subscript: name the variable with "
     "another letter, as p_1", 1),
    ("\U0001d70b\u2081 x", "'\U0001d70b' is the constant pi, which takes no subscript: name "
     "the variable with another letter, as p_1", 1),
    ("x + π_1", "'π' is the constant pi, which takes no subscript: name the variable with "
     "another letter, as p_1", 5),
    ("\\pi_1 x", "'\\pi' is the constant pi, which takes no subscript: name the variable "
     "with another letter, as p_1", 3),
    ("\\pi_{12}", "'\\pi' is the constant pi, which takes no subscript: name the variable "
     "with another letter, as p_12", 3),
]


@pytest.mark.parametrize("text, message, column", REFUSED, ids=[r[0] for r in REFUSED])
def test_refused_with_one_line_and_the_caret(text, message, column):
    run = _refused(text)
    assert_one_line_error(run, text.encode("unicode_escape").decode("ascii")
                          if not text.isprintable() else text, message, column)
    assert run[2].startswith(f"adcli: error: {message} (column")


def test_the_grammar_and_the_reader_know_every_form_of_pi():
    from adcli.reader import PI_FORMS as READERS

    # (planes 0 and 1 hold every character NFKC makes π)
    found = {chr(i) for i in range(0x20000) if unicodedata.normalize("NFKC", chr(i)) == "π"}
    assert found == set(PI_FORMS) == set(READERS)


@pytest.mark.parametrize("text", ["x_\\pi\u2081", "\\pi^x\u2081", "y_\\alpha\u2093"])
def test_a_subscript_after_a_command_is_no_name_of_its_own(text):
    # (was a variable named '1' or 'x', which no --at could give)
    plain = unicodedata.normalize("NFKC", text[-1])
    assert_one_line_error(run_cli("eval", text), text, f"'{text[-1]}' is a subscript with no "
                          f"name before it: a subscript goes after a name, as in a_{plain}",
                          len(text) - 1)


def test_a_value_given_to_a_name_with_pi_says_pi_is_the_constant():
    # --at 𝜋x=0.25 (the name eval's old hint asked for) names no variable: 2𝜋x is 2*pi*x
    code, out, err = run_cli("eval", "sin(2𝜋x)", "--at", "𝜋x=0.25")
    assert code == 2 and out == ""
    assert err == ("adcli: error: --at '𝜋x=0.25': '𝜋x' is no variable: π is the constant pi, "
                   "never part of a name (2πx is 2*pi*x): give the variable's value alone\n")
