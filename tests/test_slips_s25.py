"""adcli check's diagnoses as a teacher reads them (round 25): the power rule's u^(n-1)
dropped is said as that, not as g' taken at du/dx; a term's constant factor is named as the
whole answer's is (1/e, π), not printed as a float; two values shown to the digits that tell
them apart; an inverse function named in the spelling family written (arcsin beside
arccos); the sign wrong on one side of |x - 1|'s kink said as x < 1; and common slips that
got a bare "differs": the inner u multiplied in for du/dx, 1/v's derivative as 1/v', a
fractional exponent lowered to 1 - c, and an inner derivative's x dropped.

Each premise (what the expectation is, at the points drawn) is checked against a hand
derivation with mpmath, never against adcli's output.
"""
from __future__ import annotations

import mpmath
import pytest

import adcli
from conftest import run_cli
from test_slips_s23 import diagnosis, everywhere

sin, cos, sec, tan, ln, exp, e, pi = (mpmath.sin, mpmath.cos, mpmath.sec, mpmath.tan,
                                      mpmath.ln, mpmath.exp, mpmath.e, mpmath.pi)


def near(a, b) -> bool:
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1)


def holds(f, g, claim) -> bool:
    """Whether ``claim(x)`` holds by hand at every point check drew for f and g."""
    return everywhere(adcli.check(f, g).points, lambda p: claim(p["x"]))


# ----- 1. the power rule n·u^(n-1)·du/dx written n·du/dx --------------------------------------

# f = u^n, by hand: u, du/dx and the written expectation, which is n·du/dx
DROPPED = {
    ("cos²x", "-2sin x"): (2, "cos(x)", lambda x: -sin(x), lambda x: -2 * sin(x)),
    ("sec^2 x", "2 sec x tan x"): (2, "sec(x)", lambda x: sec(x) * tan(x),
                                   lambda x: 2 * sec(x) * tan(x)),
    ("(ln x)^2", "2/x"): (2, "ln(x)", lambda x: 1 / x, lambda x: 2 / x),
    ("(ln x)^3", "3/x"): (3, "ln(x)", lambda x: 1 / x, lambda x: 3 / x),
    ("sin^3 x", "3 cos x"): (3, "sin(x)", cos, lambda x: 3 * cos(x)),
}


@pytest.mark.parametrize("f, g", list(DROPPED))
def test_the_power_rules_u_to_the_n_minus_1_dropped(f, g):
    n, u, du, written = DROPPED[f, g]
    assert holds(f, g, lambda x: near(written(x), n * du(x)))
    words = diagnosis(f, g)
    assert len(words) == 1
    assert words[0].startswith(f"the power rule on {u}^{n} gives d(u^{n})/dx = ")
    assert f"{n}·{'u' if n == 2 else f'u^{n - 1}'}·(du/dx) for u = {u}" in words[0]
    dropped = f"u = {u}" if n == 2 else f"u^{n - 1}"
    assert f"drops the factor {dropped}, writing {n}·(du/dx)" in words[0]
    # (g'(du/dx) for g = u^2 is 2·du/dx too: a coincidence of n = 2, not the slip)
    assert "taken at du/dx" not in words[0]


# ----- 2. a term's constant factor named, not printed as a float ------------------------------

@pytest.mark.parametrize("g, factor, named", [
    ("2x e^x + x^2 e^(x-1)", 1 / e, "1/e"),
    ("2x e^x + π x^2 e^x", pi, "π"),
    ("2x e^x + ln(2) x^2 e^x", ln(2), "ln(2)"),
    ("2x e^x + sqrt(2) x^2 e^x", mpmath.sqrt(2), "√2"),
])
def test_a_terms_constant_factor_is_named(g, factor, named):
    # x^2 e^x: (du/dx)·v = 2x e^x, written right; u·(dv/dx) = x^2 e^x, written times factor
    written = {"1/e": lambda x: x ** 2 * exp(x - 1), "π": lambda x: pi * x ** 2 * exp(x),
               "ln(2)": lambda x: ln(2) * x ** 2 * exp(x),
               "√2": lambda x: mpmath.sqrt(2) * x ** 2 * exp(x)}[named]
    assert holds("x^2 e^x", g, lambda x: near(written(x), factor * x ** 2 * exp(x)))
    words = diagnosis("x^2 e^x", g)
    assert len(words) == 1
    assert words[0].startswith(f"the product rule's term u·(dv/dx) is {named} times what it "
                               "should be")
    assert mpmath.nstr(factor, 6)[:6] not in words[0]


def test_the_whole_answers_factor_names_root_2_too():
    assert holds("x^2", "2 sqrt(2) x", lambda x: near(2 * mpmath.sqrt(2) * x,
                                                        mpmath.sqrt(2) * 2 * x))
    words = diagnosis("x^2", "2 sqrt(2) x")
    assert words[0].startswith("×√2 everywhere")
    assert "1.414" not in words[0]


# ----- 3. two values shown to the digits that tell them apart -----------------------------------

def test_a_terms_value_beside_the_rules_differs_as_shown():
    words = diagnosis("x^2 + π x", "2x + 3.1415927")
    assert len(words) == 1
    assert "3.1415927 is not d/dx of pi*x" in words[0]
    shown = words[0].split("(at ")[1]
    got = shown.split(": ")[1].split(",")[0]
    should = shown.split("= ")[-1].rstrip(")")
    # (π to the first digit where it parts from 3.1415927: 3.14159265)
    assert got == "3.1415927" and should == "3.14159265"
    assert mpmath.mpf(should) == mpmath.mpf(mpmath.nstr(pi, 9))


def test_values_far_apart_stay_at_six_digits():
    words = diagnosis("x^2 + 3x", "2x + 4")
    assert words[0].endswith(": 4, where d/dx of 3*x = 3)")


# ----- 4. an inverse function named in the family written ---------------------------------------

@pytest.mark.parametrize("f, g, other, written", [
    ("arccos(x)", "1/sqrt(1-x^2)", "arcsin", lambda x: 1 / mpmath.sqrt(1 - x ** 2)),
    ("arccosh(x)", "1/sqrt(x^2+1)", "arcsinh", lambda x: 1 / mpmath.sqrt(x ** 2 + 1)),
    ("arcosh(x)", "1/sqrt(x^2+1)", "arsinh", lambda x: 1 / mpmath.sqrt(x ** 2 + 1)),
    ("arccot(x)", "1/(1+x^2)", "arctan", lambda x: 1 / (1 + x ** 2)),
    ("acos(x)", "1/sqrt(1-x^2)", "asin", lambda x: 1 / mpmath.sqrt(1 - x ** 2)),
])
def test_the_other_function_is_spelled_as_the_user_spells(f, g, other, written):
    canonical = {"arcsin": mpmath.asin, "arcsinh": mpmath.asinh, "arsinh": mpmath.asinh,
                 "arctan": mpmath.atan, "asin": mpmath.asin}[other]
    assert holds(f, g, lambda x: near(written(x), mpmath.diff(canonical, x)))
    words = diagnosis(f, g)
    assert words[0] == f"this is the derivative of {other}(x), not of {f}: the two rules " \
                       "mixed up"


# ----- 5. the sign wrong on one side of |u|'s kink ------------------------------------------------

@pytest.mark.parametrize("f, g, side, u", [
    ("abs(x-1)", "1", "x < 1", "x - 1"),
    ("abs(2-x)", "-1", "x > 2", "2 - x"),
    ("abs(x-1/3)", "1", "x < 1/3", "x - (1/3)"),
    ("abs(x)", "1", "x < 0", "x"),
])
def test_the_sign_is_wrong_on_one_side_of_the_kink(f, g, side, u):
    c = {"x < 1": 1, "x > 2": 2, "x < 1/3": mpmath.mpf(1) / 3, "x < 0": 0}[side]
    flip = (lambda x: x < c) if "<" in side else (lambda x: x > c)
    # f' = ±sign(x - c), the expectation its value on the right side only
    slope = {"abs(2-x)": lambda x: -mpmath.sign(2 - x)}.get(f, lambda x: mpmath.sign(x - c))
    assert holds(f, g, lambda x: near(mpmath.mpf(g), -slope(x) if flip(x) else slope(x)))
    words = diagnosis(f, g)
    assert words[0].startswith(f"the sign is wrong where {side} and right elsewhere")
    assert f"|{u}| written {u}" in words[0]
    assert " of 30 points" not in words[0]


# ----- 6. slips that got a bare "differs" ---------------------------------------------------------

def test_the_inner_u_multiplied_in_for_its_derivative():
    assert holds("e^(5x)", "5x e^(5x)", lambda x: near(5 * x * exp(5 * x),
                                                       exp(5 * x) * (5 * x)))
    words = diagnosis("e^(5x)", "5x e^(5x)")
    assert words == ["this multiplies g'(u) by u itself, not by its derivative du/dx, for "
                     "g(u) = e^u and u = 5*x: the chain rule is dg(u)/dx = g'(u)·(du/dx)"]


def test_a_reciprocals_derivative_taken_as_one_over_the_derivative():
    assert holds("1/x^2", "1/(2x)", lambda x: near(1 / (2 * x), 1 / mpmath.diff(
        lambda y: y ** 2, x)))
    words = diagnosis("1/x^2", "1/(2x)")
    assert len(words) == 1
    assert words[0].startswith("this is 1/(dv/dx) for v = x^2")
    assert words[0].endswith("d(1/v)/dx = -(dv/dx)/v^2")


def test_a_fractional_exponent_lowered_to_one_minus_it():
    # (2/3)·x^(1/3): x^(1 - 2/3), where the rule's is x^(2/3 - 1) = x^(-1/3)
    third = mpmath.mpf(1) / 3
    assert holds("x^(2/3)", "(2/3)x^(1/3)", lambda x: near(
        2 * third * x ** third, 2 * third * x ** (1 - 2 * third)))
    words = diagnosis("x^(2/3)", "(2/3)x^(1/3)")
    assert len(words) == 1
    assert words[0].startswith("this lowers the exponent of x^(2/3) to 1/3, not "
                               "2/3 - 1 = -1/3")
    assert "(2/3)·u^(-1/3)·(du/dx), not (2/3)·u^(1/3)·(du/dx)" in words[0]


def test_the_inner_derivatives_x_dropped():
    # (3x^2 + 2)^4: 4u^3·6x; written 4u^3·6, which is 3·(x^2)' with (x^2)' = 2x written 2
    assert holds("(3x^2+2)^4", "4(3x^2+2)^3*6", lambda x: near(
        4 * (3 * x ** 2 + 2) ** 3 * 6, 4 * (3 * x ** 2 + 2) ** 3 * 3 * 2))
    words = diagnosis("(3x^2+2)^4", "4(3x^2+2)^3*6")
    assert len(words) == 1
    assert words[0].startswith("the power rule on x^2 gives d(u^2)/dx = 2·u·(du/dx) for "
                               "u = x: this drops the factor u = x")


def test_a_fractional_coefficient_of_the_dropped_power_is_bracketed():
    # (1/2)·u^(-1/2), not 1/2·u^(-1/2), which reads as 1/(2u^(-1/2)) (the regression tester)
    code, out, err = run_cli("check", "(x^2+1)^(1/2)", "(1/2)(2x)", "--format", "plain")
    assert "= (1/2)·u^(-1/2)·(du/dx) for u = (x^2) + 1: this drops the factor u^(-1/2), " \
        "writing (1/2)·(du/dx)" in out, out
