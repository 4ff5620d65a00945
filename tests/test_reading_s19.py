"""Readings a tester pasting maths from papers tripped on (session 19):

* a TeX \\frac, \\sqrt, \\sqrt[n] or brace group right after a function is a factor side by
  side, as ½ is (\\sin\\frac12 x is drawn as sin ½x), never the function's whole argument;
* a subscript after a power (x^2_i, TeX's x_i squared) or a bracket is refused, saying to
  write it with its name before the power, never read as a variable '_i';
* a second power after a closed brace exponent (e^{-x}^2, TeX's "Double superscript") is
  refused, naming both readings;
* a raised sign after superscript digits (x²⁺¹) and a superscript before √ (³√x) are
  named.

Every expected value is a hand closed form at the point given.
"""
from __future__ import annotations

import math

import pytest

import adcli
from adcli.errors import ExpressionError
from conftest import close, run_cli, strict_json


def _refusal(text: str) -> str:
    with pytest.raises(ExpressionError) as info:
        adcli.parse(text)
    return info.value.message


# ----- 1. \frac, \sqrt and braces after a function are factors side by side ---------------

TEX_AFTER_FUNCTION = [
    ("\\sin\\frac{1}{2}x", "sin((1/2)*x)"),                 # as sin ½x
    ("\\sin\\frac12 x", "sin((1/2)*x)"),
    ("\\sin\\frac{n\\pi}{L}x", "sin(((n*pi)/L)*x)"),
    ("\\exp\\frac{1}{2}x^2", "exp((1/2)*(x^2))"),
    ("\\sin\\sqrt{2}x", "sin(sqrt(2)*x)"),
    ("\\sin\\sqrt[3]{x}y", "sin(cbrt(x)*y)"),
    ("\\sin\\sqrt[4]{2}x", "sin((2^(1/4))*x)"),
    ("\\sin{2}x", "sin(2*x)"),                              # TeX draws \sin 2x
    ("\\sin\\frac{x}{2}", "sin(x/2)"),
    ("\\sin\\frac{1}{2}x + 1", "sin((1/2)*x) + 1"),
    ("\\sin\\sqrt{x}", "sin(sqrt(x))"),
    ("-\\frac{1}{2}\\sin\\frac{1}{2}x", "-((1/2)*sin((1/2)*x))"),
    ("\\sin\\frac12\\cos x", "sin(1/2)*cos(x)"),            # as sin ½ cos x: up to a function
    # unchanged: parentheses still close the argument, a power on the group stays on it
    ("\\sin{x}^2", "sin(x^2)"),
    ("\\sin\\sqrt{x}^2", "sin(sqrt(x)^2)"),
    ("\\sin(x)y", "sin(x)*y"),
    ("\\sin\\left(x\\right) y", "sin(x)*y"),
    ("\\sqrt{x}^2", "sqrt(x)^2"),
    ("\\frac{x}{y}^2", "(x/y)^2"),
    ("\\frac{1}{2}\\sin x", "(1/2)*sin(x)"),
]


@pytest.mark.parametrize("written, reading", TEX_AFTER_FUNCTION,
                         ids=[w for w, _ in TEX_AFTER_FUNCTION])
def test_tex_group_after_a_function_is_a_factor_side_by_side(written, reading):
    f = adcli.parse(written)
    assert (f.parsed, list(f.cautions)) == (reading, [])
    assert adcli.parse(reading).parsed == reading


def test_sin_half_x_evaluates_as_sin_of_x_over_2():
    code, out, err = run_cli("eval", "\\sin\\frac{1}{2}x", "--at", "x=0.7", "--format", "json")
    assert code == 0, err
    assert close(strict_json(out)["points"][0]["value"], math.sin(0.35))


def test_sin_n_pi_over_l_x_and_its_derivative():
    code, out, err = run_cli("grad", "\\sin\\frac{n\\pi}{L}x", "--at", "n=2,L=3,x=0.7",
                             "--wrt", "x", "--format", "json")
    assert code == 0, err
    point = strict_json(out)["points"][0]
    k = 2 * math.pi / 3                                     # d/dx sin(kx) = k cos(kx)
    assert close(point["value"], math.sin(k * 0.7))
    assert close(point["gradient"]["x"], k * math.cos(k * 0.7))


def test_check_reads_the_tex_half_as_the_unicode_half():
    for expected in ("-\\frac{1}{2}\\sin\\frac{1}{2}x", "-½ sin ½x"):
        code, out, err = run_cli("check", "\\cos\\frac{x}{2}", expected)
        assert code == 0, (expected, out, err)


# ----- 2 and 3. a subscript after a power or a bracket -----------------------------------

MISPLACED_SUBSCRIPTS = [
    ("x^2_i", "write x_i^2"),
    ("x^2_1", "write x_1^2"),
    ("x²_i", "write x_i²"),
    ("x^{2}_{1}", "write x_{1}^{2}"),
    ("\\sigma^2_x", "write \\sigma_x^2"),
    ("\\sigma^{2}_{x}", "write \\sigma_{x}^{2}"),
    ("(x+1)_1", "a subscript goes right after a name"),
]


@pytest.mark.parametrize("written, advice", MISPLACED_SUBSCRIPTS,
                         ids=[w for w, _ in MISPLACED_SUBSCRIPTS])
def test_a_subscript_after_a_power_is_refused_saying_to_write_it_first(written, advice):
    message = _refusal(written)
    assert "is a subscript of what comes before it, not a name" in message
    assert advice in message
    assert "\\sqrt" not in message and "'_'" not in message


def test_a_subscript_after_a_power_is_never_a_variable_in_the_cli():
    code, out, err = run_cli("eval", "x^2_i", "--at", "x=3,_i=3")
    assert (code, out) == (2, ""), err
    assert "write x_i^2" in err and err.count("\n") == 3


def test_a_subscript_after_sqrt_keeps_its_advice():
    message = _refusal("\\sqrt x_1")
    assert "'_1' is a subscript of what comes before it, not a name" in message
    assert "\\sqrt{x_1}" in message


# ----- 4. a second power after a closed brace exponent -----------------------------------

DOUBLE_SUPERSCRIPTS = [
    ("e^{-x}^2", "(e^{-x})^2", "e^{(-x)^2}", 6),
    ("e^{x}^{2}", "(e^{x})^{2}", "e^{(x)^{2}}", 5),
    ("x^{2}^{3}", "(x^{2})^{3}", "x^{(2)^{3}}", 5),
    ("e^{x}²", "(e^{x})²", "e^{(x)²}", 5),
]


@pytest.mark.parametrize("written, first, second, column", DOUBLE_SUPERSCRIPTS,
                         ids=[w for w, *_ in DOUBLE_SUPERSCRIPTS])
def test_a_second_power_after_a_brace_exponent_is_refused(written, first, second, column):
    with pytest.raises(ExpressionError) as info:
        adcli.parse(written)
    message = info.value.message
    assert "Double superscript" in message and first in message and second in message
    assert info.value.position == column


def test_a_power_tower_without_braces_is_unchanged():
    assert adcli.parse("x^2^3").parsed == "x^(2^3)"
    assert adcli.parse("e^{x^2}").parsed == "e^(x^2)"
    assert adcli.parse("{x}^{2}").parsed == "x^2"


def test_e_minus_x_squared_written_as_meant():
    code, out, err = run_cli("eval", "(e^{-x})^2", "--at", "x=0.7", "--format", "json")
    assert code == 0, err
    assert close(strict_json(out)["points"][0]["value"], math.exp(-1.4))


# ----- 5. smaller messages ----------------------------------------------------------------

def test_a_raised_sign_after_superscript_digits_is_named():
    message = _refusal("x²⁺¹")
    assert "'⁺'" in message and "a superscript '+'" in message and "x^(2+1)" in message


def test_a_superscript_before_a_root_sign_is_named():
    message = _refusal("³√x")
    assert "∛" in message or "\\sqrt[3]" in message


@pytest.mark.parametrize("written, example", [
    ("\\frac{x}", "as in \\frac{x}{2}"),
    ("\\frac", "as in \\frac{1}{2}"),
    ("\\sqrt", "as in \\sqrt{2}"),
])
def test_a_command_missing_its_last_token_shows_a_real_example(written, example):
    message = _refusal(written)
    assert example in message and "\\frac{x}{x}" not in message


@pytest.mark.parametrize("written, column", [("x²⁺¹", 2), ("³√x", 0), ("e^{-x}^2", 6),
                                             ("x^2_i", 3), ("\\sigma^{2}_{x}", 10)])
def test_the_refusals_are_one_line_with_the_caret_on_the_culprit(written, column):
    code, out, err = run_cli("eval", written, "--at", "x=1,x_i=1")
    message, shown, caret = err.split("\n")[:3]
    assert (code, out, err.count("\n")) == (2, "", 3), err
    assert message.startswith("adcli: error: ") and message.endswith(f"(column {column + 1})")
    assert shown == "  " + written and caret == " " * (column + 2) + "^"
