"""Cautions of hand-written maths said once, and rewrites that are read as offered
(session 22).

Decisions pinned here:

* sin π/6 x: the function's caution (sin((pi/6)*x), the spaced divisor's own reading inside
  the argument, as the README has sin 1/2 x) is the only one of that division: the spaced
  divisor's, which quoted the reading (sin(pi)/6 x) and offered (sin(pi)/6)*x, is not said
  beside it. A spaced divisor with no such function (1/2 x) is said as before.
* \\sin{x+1}y: read as before, sin((x+1)*y) (TeX draws braces as nothing, so a brace group
  after a function is a factor of its argument, as in \\sin{2}x), but a group holding a sum
  was likely typed as parentheses: said, offering sin(x+1)*y, which check tries. A group of
  one token (\\sin{x}y, \\sin{2}x) shows as sin xy does in TeX: not said.
* 1/√2 x: one caution, offering (1/√2)*x and its rewrite 1/√2*x, read so with no caution.
  (Before, √2 x was said offering √(2) x, and 1/√(2) x was then said as a spaced divisor.)
* sin^-1 x and sin^{-1} x were read alike already (asin(x), no caution); sin^(-1) 1/2 was
  a spelling of the inverse whose number argument before '/' went unsaid (sin^{-1} 1/2
  was said): now said as the others are.

Every expected value is a closed form at the point given.
"""
from __future__ import annotations

import math

import pytest

import adcli
from adcli.parser import other_readings
from conftest import close, run_cli, strict_json, warnings_in


from test_reading_s21 import _said, _spaced  # noqa: E402  (the cautions' words)


def _wide(written: str, read: str, meant: str, write: str) -> str:
    return (f"{written}: a function written without parentheses takes every factor after it, "
            f"so this is {read}; for {meant}, write {write}")


def _root_divisor(written: str, divisor: str, meant: str, write: str) -> str:
    return (f"{written}: a function written without parentheses takes every factor after it, "
            f"so this divides by {divisor}; for {meant}, write {write}")


BRACES = " (TeX draws braces as nothing, not as parentheses)"


# ----- 1. a function of a number before a spaced divisor: one caution -------------------

# (text, reading, its one caution, the other reading's text, a point, the value so meant)
ONCE = [
    ("sin π/6 x", "sin(pi)/(6*x)",
     _said("sin π/6 x", "sin(pi)", "(6*x)", "sin((pi/6)*x)", "sin(π/6*x)"),
     "sin (π/6*x)", {"x": 1.0}, 0.5),
    ("sin 1/2 x", "sin(1)/(2*x)",
     _said("sin 1/2 x", "sin(1)", "(2*x)", "sin((1/2)*x)", "sin(1/2*x)"),
     "sin (1/2*x)", {"x": math.pi / 3}, 0.5),
    ("ln 1/2 x", "ln(1)/(2*x)",
     _said("ln 1/2 x", "ln(1)", "(2*x)", "ln((1/2)*x)", "ln(1/2*x)"),
     "ln (1/2*x)", {"x": 8.0}, math.log(4)),
    ("sin^2 π/6 x", "(sin(pi)^2)/(6*x)",
     _said("sin^2 π/6 x", "sin(pi)^2", "(6*x)", "sin((pi/6)*x)^2", "sin^2(π/6*x)"),
     "sin^2 (π/6*x)", {"x": 1.0}, 0.25),
    ("x^2 cos 1/x y", "((x^2)*cos(1))/(x*y)",
     _said("cos 1/x y", "cos(1)", "(x*y)", "cos((1/x)*y)", "cos(1/x*y)"),
     "x^2 cos (1/x*y)", {"x": 2.0, "y": 2 * math.pi / 3}, 4 * math.cos(math.pi / 3)),
    ("ln 1/x sin x", "ln(1)/(x*sin(x))",
     _said("ln 1/x", "ln(1)", "(x*sin(x))", "ln(1/x)", "ln(1/x)"),
     "ln (1/x) sin x", {"x": 2.0}, -math.log(2) * math.sin(2)),
]


@pytest.mark.parametrize("text, reading, caution, other, at, meant", ONCE,
                         ids=[s[0] for s in ONCE])
def test_a_function_of_a_number_over_a_spaced_divisor_is_said_once(text, reading, caution,
                                                                    other, at, meant):
    e = adcli.parse(text)
    assert (e.parsed, e.cautions) == (reading, [caution])
    assert [r.text for r in other_readings(e)] == [other]
    assert close(float(adcli.parse(other).value(**at)), meant)


def test_a_spaced_divisor_without_such_a_function_is_still_said():
    e = adcli.parse("1/2 x + sin π/6")
    assert e.cautions == [
        _spaced("1/2 x", "2*x", "(1/2)*x", "1/2*x"),
        _said("sin π/6", "sin(pi)", "6", "sin(pi/6)", "sin(π/6)")]


def test_grad_warns_once_of_sin_pi_over_6_x():
    value, gradient, said = _grad("sin π/6 x", "x=1")
    assert said == ["adcli: warning: " + ONCE[0][2]]
    # as read, sin(pi)/(6x): sin(pi)/6 at x = 1, derivative -sin(pi)/(6x^2)
    assert close(value, math.sin(math.pi) / 6)
    assert close(gradient["x"], -math.sin(math.pi) / 6)


def test_check_names_the_function_reading_of_sin_pi_over_6_x():
    # d/dx sin(πx/6) = (π/6) cos(πx/6)
    code, out, err = run_cli("check", "sin π/6 x", "pi/6*cos(pi*x/6)", "--format", "plain")
    assert code == 1
    assert ("diagnosis: f: sin π/6 x is read otherwise than it was likely meant (see the "
            "warning); as sin((pi/6)*x), the expectation matches") in out.splitlines()
    assert warnings_in(err) == ["adcli: warning: " + ONCE[0][2]]


# ----- 2. a brace group holding a sum after a LaTeX function ----------------------------

# (text, reading, the reading meant as the caution shows it, its rewrite, read so)
BRACED = [
    ("\\sin{x+1}y", "sin((x + 1)*y)", "sin(x + 1)*y", "\\sin(x+1) y", "sin(x + 1)*y"),
    ("\\sin{x-1} y", "sin((x - 1)*y)", "sin(x - 1)*y", "\\sin(x-1) y", "sin(x - 1)*y"),
    ("\\cos{x+1}y^2", "cos((x + 1)*(y^2))", "cos(x + 1)*y^2", "\\cos(x+1) y^2",
     "cos(x + 1)*(y^2)"),
]


@pytest.mark.parametrize("text, reading, meant, write, rewritten_read", BRACED,
                         ids=[b[0] for b in BRACED])
def test_a_braced_sum_after_a_function_is_said(text, reading, meant, write, rewritten_read):
    e = adcli.parse(text)
    assert (e.parsed, e.cautions) == (reading, [_wide(text, reading, meant, write) + BRACES])
    rewritten = adcli.parse(write)
    assert (rewritten.parsed, rewritten.cautions) == (rewritten_read, [])


def test_the_braced_sums_rewrite_has_the_value_meant():
    # sin(x+1)*y at x = 1, y = 2: 2 sin 2; d/dx 2 cos 2, d/dy sin 2
    value, gradient, said = _grad("\\sin(x+1) y", "x=1,y=2")
    assert said == []
    assert close(value, 2 * math.sin(2)) and close(gradient["x"], 2 * math.cos(2))
    assert close(gradient["y"], math.sin(2))


def test_grad_warns_of_a_braced_sum_and_reads_it_by_the_rules():
    # as read, sin((x+1)y) at x = 1, y = 2: sin 4; d/dx 2 cos 4, d/dy 2 cos 4
    value, gradient, said = _grad("\\sin{x+1}y", "x=1,y=2")
    assert said == ["adcli: warning: " + _wide("\\sin{x+1}y", "sin((x + 1)*y)",
                                               "sin(x + 1)*y", "\\sin(x+1) y") + BRACES]
    assert close(value, math.sin(4)) and close(gradient["x"], 2 * math.cos(4))
    assert close(gradient["y"], 2 * math.cos(4))


def test_check_tries_the_braced_sum_as_parentheses():
    # d/dx sin(x+1)*y = y cos(x+1)
    code, out, _ = run_cli("check", "\\sin{x+1}y", "y cos(x+1)", "--wrt", "x", "--format",
                           "plain")
    assert code == 1
    assert ("diagnosis: f: \\sin{x+1}y is read otherwise than it was likely meant (see the "
            "warning); as sin(x + 1)*y, the expectation matches") in out.splitlines()


@pytest.mark.parametrize("text, reading", [
    ("\\sin{2}x", "sin(2*x)"),              # the README's row: one token, as TeX shows it
    ("\\sin{x}y", "sin(x*y)"),              # sin xy in TeX, as sin x y
    ("\\sin{x+1}", "sin(x + 1)"),           # nothing after the group
    ("\\sin(x+1) y", "sin(x + 1)*y"),
    ("\\sin{x+1}\\,y", "sin(x + 1)*y"),     # TeX's thin space ends the argument
    ("\\sin{x+1}\\cos x", "sin(x + 1)*cos(x)"),
    ("sin{x+1}y", "sin(x + 1)*y"),          # no LaTeX: braces group as parentheses
])
def test_no_braced_sum_caution(text, reading):
    e = adcli.parse(text)
    assert (e.parsed, e.cautions) == (reading, [])


def test_a_brace_group_is_rewritten_in_parentheses_without_its_braces():
    e = adcli.parse("\\sin{x}e^x")
    assert e.cautions == [_wide("\\sin{x}e^x", "sin(x*(e^x))", "sin(x)*e^x", "\\sin(x) e^x")]


# ----- 3. 1/√2 x: one round of cautions -------------------------------------------------

ROOTS = [
    ("1/√2 x", "1/sqrt(2*x)", _root_divisor("1/√2 x", "sqrt(2*x)", "(1/sqrt(2))*x",
                                             "1/√2*x"),
     "1/√2*x", "(1/sqrt(2))*x", {"x": 3.0}, 3 / math.sqrt(2)),
    ("3/∛8 x", "3/cbrt(8*x)", _root_divisor("3/∛8 x", "cbrt(8*x)", "(3/cbrt(8))*x",
                                             "3/∛8*x"),
     "3/∛8*x", "(3/cbrt(8))*x", {"x": 2.0}, 3.0),
    ("y + 2/√3 e^x", "y + (2/sqrt(3*(e^x)))",
     _root_divisor("2/√3 e^x", "sqrt(3*(e^x))", "(2/sqrt(3))*e^x", "2/√3*e^x"),
     "y + 2/√3*e^x", "y + ((2/sqrt(3))*(e^x))", {"x": 1.0, "y": 1.0},
     1 + 2 * math.e / math.sqrt(3)),
]


@pytest.mark.parametrize("text, reading, caution, other, other_read, at, meant", ROOTS,
                         ids=[r[0] for r in ROOTS])
def test_a_root_of_a_number_as_a_spaced_divisor_is_said_once(text, reading, caution, other,
                                                             other_read, at, meant):
    e = adcli.parse(text)
    assert (e.parsed, e.cautions) == (reading, [caution])
    assert [r.text for r in other_readings(e)] == [other]
    rewritten = adcli.parse(other)
    assert (rewritten.parsed, rewritten.cautions) == (other_read, [])
    assert close(float(rewritten.value(**at)), meant)


def test_a_let_name_after_the_root_is_named_in_the_caution():
    let = {"F": "x+1"}
    e = adcli.parse("1/√2 F", let)
    assert e.cautions == [_root_divisor("1/√2 F", "sqrt(2*(x + 1))", "(1/sqrt(2))*F",
                                        "1/√2*F")]
    (other,) = other_readings(e)
    # (1/√2)(x + 1) at x = 1: √2
    assert close(float(adcli.parse(other.text, let).value(x=1.0)), math.sqrt(2))


def test_one_round_of_grad_reaches_the_reading_meant():
    _, _, said = _grad("1/√2 x", "x=1")
    assert said == ["adcli: warning: " + ROOTS[0][2]]
    value, gradient, said = _grad("1/√2*x", "x=1")
    assert said == []
    assert close(value, 1 / math.sqrt(2)) and close(gradient["x"], 1 / math.sqrt(2))


def test_check_tries_the_root_over_the_division():
    code, out, err = run_cli("check", "1/√2 x", "1/sqrt(2)", "--format", "plain")
    assert code == 1
    assert ("diagnosis: f: 1/√2 x is read otherwise than it was likely meant (see the "
            "warning); as (1/sqrt(2))*x, the expectation matches") in out.splitlines()
    assert warnings_in(err) == ["adcli: warning: " + ROOTS[0][2]]


@pytest.mark.parametrize("text, reading, caution", [
    # not right after '/': the reader's caution of √2 x, as before
    ("√2 x", "sqrt(2*x)", _wide("√2 x", "sqrt(2*x)", "sqrt(2)*x", "√(2) x")),
    ("1/x √2 y", "1/(x*sqrt(2*y))", _wide("√2 y", "sqrt(2*y)", "sqrt(2)*y", "√(2) y")),
    ("1/√√2 x", "1/sqrt(sqrt(2*x))",
     _wide("√√2 x", "sqrt(sqrt(2*x))", "sqrt(sqrt(2))*x", "√(√2) x")),
])
def test_a_root_of_a_number_elsewhere_keeps_its_caution(text, reading, caution):
    e = adcli.parse(text)
    assert e.parsed == reading and caution in e.cautions


@pytest.mark.parametrize("text, reading", [
    ("1/√2x", "1/sqrt(2*x)"),       # no space: √2x is sqrt(2x), as the README has it
    ("1/√2*x", "(1/sqrt(2))*x"),
    ("1/√2", "1/sqrt(2)"),
    ("√2/2 x", "sqrt(2)/(2*x)"),
])
def test_no_root_divisor_caution(text, reading):
    e = adcli.parse(text)
    assert e.parsed == reading
    assert not any("takes every factor after it, so this divides" in c for c in e.cautions)


# ----- 4. sin^-1 and its LaTeX spellings alike ------------------------------------------

INVERSE = ["sin^-1 x", "sin^{-1} x", "\\sin^{-1} x", "\\sin^-1 x", "sin⁻¹ x", "sin^(-1) x",
           "sin^{-1}x", "sin^−1 x"]


@pytest.mark.parametrize("text", INVERSE)
def test_every_spelling_of_the_inverse_reads_asin_without_a_caution(text):
    e = adcli.parse(text)
    assert (e.parsed, e.cautions) == ("asin(x)", [])
    assert close(float(e.value(x=0.5)), math.pi / 6)


@pytest.mark.parametrize("power", ["^-1", "^{-1}", "⁻¹", "^(-1)"])
def test_every_spelling_of_the_inverse_over_a_number_is_said(power):
    text = f"sin{power} 1/2"
    e = adcli.parse(text)
    assert (e.parsed, e.cautions) == (
        "asin(1)/2", [_said(text, "asin(1)", "2", "asin(1/2)", f"sin{power}(1/2)")])
    (other,) = other_readings(e)
    assert close(float(adcli.parse(other.text).value()), math.pi / 6)


def _grad(text: str, at: str) -> tuple[float, dict, list[str]]:
    code, out, err = run_cli("grad", text, "--at", at, "--format", "json")
    assert code == 0, err
    point = strict_json(out)["points"][0]
    return point["value"], point["gradient"], warnings_in(err)
