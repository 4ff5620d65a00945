"""Superscript letters, subscripts with no name before them, and a function power's
parenthesised argument followed by a power: readings that were silent and wrong.

* NFKC makes ˣ an x, so 2ˣ was read as 2*x and eˣ as a name 'ex'. A superscript letter
  (ˣ, ⁿ, ʸ, ᵃ, and ª, º) is refused, the caret on it, saying the power to write with '^'
  (2^x, x^(2y), 2^(x+1)); never a product, never part of a name (aˣb).
* A subscript (ₓ, ᵢ, ₁) with no name before it (2ₓ, 2₁) was read as 2*x and as 2 times a
  variable '1': refused. After a name it is part of it, as NFKC reads it (x₁ is x1).
* sin^-1(x)^2 is asin(x)^2, as sin(x)^2 and arcsin(x)^2 are: the parenthesised group right
  after a function is its argument, and the power is on the function's value.

Every expected value here is a hand closed form; every column was counted by hand.
"""
from __future__ import annotations

import math

import pytest

import adcli
from conftest import assert_one_line_error, run_cli


def _plain(*argv: str) -> list[float]:
    code, out, err = run_cli(*argv, "--format", "plain")
    assert (code, err) == (0, ""), err
    return [float(v) for v in out.split()]


# ----- superscript letters: refused, with the power to write ----------------------------

REFUSED_SUPERSCRIPTS = [
    # (text, --at, the letter, its 0-based column, what to write)
    ("2ˣ", "x=3", "ˣ", 1, "2^x"),
    ("3ⁿ", "n=2", "ⁿ", 1, "3^n"),
    ("x²ʸ", "x=2,y=3", "ʸ", 2, "x^(2y)"),
    ("eˣ", "x=1", "ˣ", 1, "e^x"),
    ("2ˣ⁺¹", "x=1", "ˣ", 1, "2^(x+1)"),
    ("aˣb", "a=2,x=3,b=5", "ˣ", 1, "a^x b"),
    ("1 + (x+1)ᵏ", "x=1,k=2", "ᵏ", 9, "(x+1)^k"),
    ("eᶿ", "θ=1", "ᶿ", 1, "e^θ"),
]


@pytest.mark.parametrize("text, at, letter, column, meant", REFUSED_SUPERSCRIPTS)
def test_a_superscript_letter_is_refused_with_the_power_to_write(text, at, letter, column,
                                                                  meant):
    assert_one_line_error(run_cli("eval", text, "--at", at), text,
                          f"'{letter}' is a superscript letter", column)
    assert_one_line_error(run_cli("eval", text, "--at", at), text,
                          f"write the power with '^': {meant}", column)


def test_a_superscript_letter_is_refused_by_the_api_too():
    with pytest.raises(adcli.errors.ExpressionError, match="superscript letter"):
        adcli.parse("sin x + 2ˣ")


# ----- subscripts with no name before them ----------------------------------------------

@pytest.mark.parametrize("text, at, column", [
    ("2ₓ", "x=3", 1),
    ("2₁", "x=3", 1),
    ("x + ᵢ", "x=1,i=2", 4),
    ("½ₓ", "x=3", 1),
])
def test_a_subscript_with_no_name_before_it_is_refused(text, at, column):
    assert_one_line_error(run_cli("eval", text, "--at", at), text,
                          "subscript with no name before it", column)


@pytest.mark.parametrize("text, variables", [
    ("x₁ + 1", ("x1",)),         # as NFKC reads a name (README: x₁ is x1)
    ("2xᵢ", ("xi",)),
    ("x_ᵢ y", ("x_i", "y")),
])
def test_a_subscript_after_a_name_is_part_of_it(text, variables):
    assert adcli.parse(text).variables == variables


def test_superscript_digits_are_still_powers():
    assert _plain("eval", "2³ + x⁻¹", "--at", "x=4") == [8 + 0.25]


# ----- a function power's parenthesised argument, then a power --------------------------

@pytest.mark.parametrize("text, value", [
    ("sin^-1(x)^2", math.asin(0.5) ** 2),
    ("\\sin^{-1}(x)^2", math.asin(0.5) ** 2),
    ("tan^-1(x)^2", math.atan(0.5) ** 2),
    ("sin^2(x)^2", math.sin(0.5) ** 4),
    ("\\cos^{2}(x)^{2}", math.cos(0.5) ** 4),
    ("sin⁻¹(x)²", math.asin(0.5) ** 2),
    ("sin^-1(x)^2 y", math.asin(0.5) ** 2 * 3),
    ("sin^-1[x]^2", math.asin(0.5) ** 2),
    ("2 cos^2(x)^3", 2 * math.cos(0.5) ** 6),
    # unchanged: a call's power, and a power glued to a name inside the argument
    ("sin(x)^2", math.sin(0.5) ** 2),
    ("sin^2 x^2", math.sin(0.25) ** 2),
])
def test_a_function_powers_group_then_a_power(text, value):
    at = "x=0.5,y=3" if "y" in text else "x=0.5"
    assert _plain("eval", text, "--at", at) == pytest.approx([value], rel=1e-15, abs=0)


def test_the_gradient_of_asin_squared():
    # d/dx asin(x)^2 = 2 asin(x) / sqrt(1 - x^2)
    value, slope = _plain("grad", "sin^-1(x)^2", "--at", "x=0.5")
    assert value == pytest.approx(math.asin(0.5) ** 2, rel=1e-15, abs=0)
    assert slope == pytest.approx(2 * math.asin(0.5) / math.sqrt(0.75), rel=1e-14, abs=0)


@pytest.mark.parametrize("text, reading", [
    ("sin^-1(x)^2", "asin(x)^2"),
    ("sin^2(x)^2", "(sin(x)^2)^2"),
    ("tan^-1(x)^2 y", "(atan(x)^2)*y"),
    ("√(x+1)^2", "sqrt(x + 1)^2"),     # √ takes the group as sin does
    ("sin cos^2(x)^3", "sin((cos(x)^2)^3)"),    # the power on the innermost function
])
def test_the_reading_shows_the_power_on_the_function(text, reading):
    assert adcli.parse(text).parsed == reading


def test_the_groups_own_power_is_no_node_of_the_expression():
    # x, asin, 2, pow: the (x)^2 made before asin was applied is dropped, not evaluated
    nodes = adcli.parse("sin^-1(x)^2").nodes
    assert [n.name or n.value for n in nodes] == ["x", "asin", 2.0, "pow"]


@pytest.mark.parametrize("text, reading", [
    # braces keep TeX's reading, a superscript on what is in them; bars are a factor
    ("\\sin^2{x}^2", "sin(x^2)^2"),
    ("sin |x|^2", "sin(abs(x)^2)"),
])
def test_braces_and_bars_keep_their_reading(text, reading):
    assert adcli.parse(text).parsed == reading
