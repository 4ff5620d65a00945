"""adcli check's diagnoses where two claims hold and one slip explains them (README "Check a
derivation", its ranked list of diagnoses): the higher claim alone is said; and the
quotient rule is no slip of a denominator constant in the variable differentiated in.

Each row's expectation is first checked against mpmath (the derivative, and what the
claim says the expectation is), so a wrong row fails on its own; the claims' words are
the ones the README gives, compared whole, as the set of diagnosis lines.
"""
from __future__ import annotations

import mpmath as mp
import pytest

import adcli
from conftest import run_cli

mp.mp.dps = 30
POINTS = (0.4, 1.3, 2.7)

V_ONLY = ("the quotient rule divides by v^2, for v = x^2; this divides by v only (it is "
          "d/dx times v at every point)")
ITSELF = "the expectation is f itself at every point, not d/dx: nothing was differentiated"


def claimed(f, g, claim, x):
    """Whether g(x) is the claim's function of f at x (to 20 digits)."""
    return mp.almosteq(g(mp.mpf(x)), claim(f, mp.mpf(x)), 1e-20)


# (u/v)' = (u'v - uv')/v^2: for u = c and v = x^2, -2c/x^3; over v only, -2c/x. That is
# also (x^2)^(-1)'s chain with 2x written 2x^3 (the exponent of x^2 raised), which the
# README ranks below the quotient rule's v^2 written v, and no one writes x^2's 2x^3 here.
QUOTIENT_OVER_V = [
    (r"\frac{1}{x^2}", r"-\frac{2}{x}", lambda x: 1 / x**2, lambda x: -2 / x),
    (r"\frac{5}{x^2}", r"-\frac{10}{x}", lambda x: 5 / x**2, lambda x: -10 / x),
    ("1/x^2", "-2/x", lambda x: 1 / x**2, lambda x: -2 / x),
]


@pytest.mark.parametrize("f, g, f_mp, g_mp", QUOTIENT_OVER_V,
                         ids=[f"{row[0]} as {row[1]}" for row in QUOTIENT_OVER_V])
def test_the_quotient_rules_v_alone_is_said_not_a_raised_exponent(f, g, f_mp, g_mp):
    for x in POINTS:    # the row: g is f'·v, v = x^2
        assert claimed(f_mp, g_mp, lambda h, x: mp.diff(h, x) * x**2, x)
    result = adcli.check(f, g)
    assert result.verdict == "differs"
    assert result.diagnosis == [V_ONLY]


# f itself, written as a rule with one term left out: (x^x)' = x^x ln x + x·x^(x-1),
# (x e^x)' = e^x + x e^x. Another order ranks above a term left out, which the README
# makes "only when none of the claims above holds".
ITSELF_ROWS = [
    # (x^x's x·x^(x-1) is x^x too, but said as the power rule written: test_check_s18.py)
    ("x e^x", "x e^x", lambda x: x * mp.exp(x), lambda x: x * mp.exp(x)),
    ("x*exp(x)", "x*exp(x)", lambda x: x * mp.exp(x), lambda x: x * mp.exp(x)),
]


@pytest.mark.parametrize("f, g, f_mp, g_mp", ITSELF_ROWS,
                         ids=[f"{row[0]} as {row[1]}" for row in ITSELF_ROWS])
def test_f_itself_outranks_a_term_left_out(f, g, f_mp, g_mp):
    for x in POINTS:
        assert claimed(f_mp, g_mp, lambda h, x: h(x), x)
        assert not claimed(f_mp, g_mp, lambda h, x: mp.diff(h, x), x)
    result = adcli.check(f, g)
    assert result.verdict == "differs"
    assert result.diagnosis == [ITSELF]


# log_b x = ln x / ln b: d/dx is 1/(x ln b), and 1/x is that times ln b, a factor constant
# in x. v = ln b does not vary with x: the quotient rule is not what one uses on it.
LOG_B = [("log_b x", r"∂f/∂x = \frac{1}{x}"),
         (r"\frac{\ln x}{\ln b}", r"∂f/∂x = \frac1x")]
LOG_NAME = {"log_b x": "log", r"\frac{\ln x}{\ln b}": "ln"}


@pytest.mark.parametrize("f, g", LOG_B)
def test_a_denominator_constant_in_x_is_no_quotient_rule_slip(f, g):
    for b in (2.5, 7):
        for x in POINTS:
            h = lambda x: mp.log(x) / mp.log(b)   # noqa: E731
            assert mp.almosteq(mp.diff(h, x) * mp.log(b), 1 / mp.mpf(x), 1e-20)
    code, out, err = run_cli("check", f, g, "--format", "plain", "--seed", "1")
    assert code == 1 and out.startswith("differs from ∂/∂x at ")
    # (with b drawn at random, 1/x is d/dx with the factor 1/ln(b) left out: said so)
    log = LOG_NAME[f]
    assert [line for line in out.splitlines() if line.startswith("diagnosis:")] == [
        f"diagnosis: this drops the factor 1/{log}(b): for ∂/∂x, 1/{log}(b) is a constant "
        f"factor, and it stays (∂/∂x ({log}(x)/{log}(b)) = 1/{log}(b)·(1/x))"]


@pytest.mark.parametrize("f, g", LOG_B)
@pytest.mark.parametrize("b", ["3", "10", "0.5"])
def test_a_factor_that_is_a_parameters_log_is_named(f, g, b):
    # with b fixed, the factor is ln(b) (ln 3 = 1.0986..., printed as that number before;
    # ln 0.5 = -ln 2 < 0, and ln 10 one of the constants named anyway, are ln(b) all the same)
    for x in POINTS:
        h = lambda x: mp.log(x) / mp.log(mp.mpf(b))   # noqa: E731
        assert mp.almosteq(mp.diff(h, x) * mp.log(mp.mpf(b)), 1 / mp.mpf(x), 1e-20)
    code, out, err = run_cli("check", f, g, "--at", f"b={b}", "--format", "plain")
    assert code == 1
    assert [line for line in out.splitlines() if line.startswith("diagnosis:")] == [
        f"diagnosis: ×ln(b) everywhere: the expectation is ln(b) times ∂/∂x at every point "
        f"(b = {b})"]


def test_an_expectation_nan_for_a_fractional_power_says_what_to_write():
    # d/dx cbrt(x) = (1/3) x^(-2/3), real for x < 0 too; numpy's power gives nan there, so
    # the textbook form "differs" at x < 0: the diagnosis says how to write the real root
    code, out, err = run_cli("check", "cbrt(x)", "1/3 x^(-2/3)", "--format", "plain")
    assert code == 1, err
    assert out.splitlines()[1].endswith(
        "so it is not d/dx (x^((-2)/3) is nan where x < 0, as in numpy; for the real root, "
        "write 1/cbrt(x^2))"), out
    # and what it says to write is right: (1/3)/cbrt(x^2) matches at every point
    code, out, err = run_cli("check", "cbrt(x)", "1/3 * 1/cbrt(x^2)", "--format", "plain")
    assert code == 0 and out.startswith("matches d/dx at 30/30 points"), (out, err)


def test_two_cautions_readings_are_tried_together():
    # sqrt(x)' = (1/2) x^(-1/2) (by hand); written 1/2 x^-1/2 it is read 1/(2x)/2 = x^-1/4
    # (two cautions), and only both other readings together give the derivative
    code, out, err = run_cli("check", "sqrt x", "1/2 x^-1/2", "--format", "plain")
    assert code == 1 and err.count("warning") == 2, err
    # (said from what was typed to the last reading: "(1/2)*x^(-1)" was a halfway one)
    assert out.splitlines()[1] == (
        "diagnosis: 1/2 x^-1/2 is read otherwise than it was likely meant (see the "
        "warnings); as (1/2)*(x^((-1)/2)), the expectation matches"), out
