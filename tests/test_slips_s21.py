"""adcli check's diagnoses as a calculus teacher reads them (round 21): an expectation nan
on part of the line and wrong on the rest, a parameter inside a chain asked as d/dx, a
linear term's derivative dropped from a sum, log for ln, --order 0 against f', and a
factor that is a parameter's power.

Each premise (where the expectation is nan, where it differs, which factor) is checked
against a hand derivation with mpmath at the points drawn, never against adcli's output.
"""
from __future__ import annotations


import mpmath
import numpy as np
import pytest

import adcli
from conftest import run_cli


def diagnosis(*argv) -> list[str]:
    code, out, _ = run_cli("check", *argv, "--format", "plain")
    assert code == 1
    return [line.removeprefix("diagnosis: ") for line in out.splitlines()
            if line.startswith("diagnosis: ")]


# ----- 1. nan on part of the points, and wrong where defined ---------------------------------

@pytest.mark.parametrize("f, g, df, e", [
    ("x^2", r"2\sqrt{x}", lambda x: 2 * x, lambda x: 2 * mpmath.sqrt(x)),
    ("2^x", r"2^x \ln x", lambda x: mpmath.power(2, x) * mpmath.log(2),
     lambda x: mpmath.power(2, x) * mpmath.log(x)),
])
def test_nan_on_part_says_it_differs_where_defined_too(f, g, df, e):
    result = adcli.check(f, g)
    x = result.points["x"]
    negative, positive = int(np.sum(x < 0)), int(np.sum(x > 0))
    # the hand derivation: wrong at every x > 0 (not just undefined at x < 0)
    assert positive > 0 and all(abs(e(v) - df(v)) > 1e-6 * abs(df(v)) for v in x[x > 0])
    (line,) = result.diagnosis
    assert line.startswith(f"the expectation is nan at the {negative} of {len(x)} points "
                           "with x < 0")
    assert line.endswith(f"it is undefined there, and where it is defined it differs too, "
                         f"at {positive} of {positive} points, so it is not d/dx")


def test_nan_on_part_and_right_elsewhere_adds_nothing():
    # |x|' = sign x = sqrt(x)/sqrt(x) for x > 0: right wherever defined
    (line,) = adcli.check("abs(x)", "sqrt(x)/sqrt(x)").diagnosis
    assert line.endswith("it is undefined there, so it is not d/dx")


def test_nan_on_part_keeps_the_claim_that_holds_where_defined():
    # 4(sqrt x)^2 = 4x = 2·(x^2)' for x > 0: the factor is said beside the nan
    lines = adcli.check("x^2", r"4\sqrt{x}^2").diagnosis
    assert lines[0].startswith("the expectation is nan at ")
    assert "where it is defined it differs too" in lines[0]
    assert "×2 everywhere: the expectation is 2 times d/dx at every point" in lines[1:]


# ----- 2. d/dx asked, a parameter inside the chain -------------------------------------------

CHAIN = "the chain rule's factor ∂u/∂x is missing"


@pytest.mark.parametrize("argv, inner", [
    (["sin(3x + c)", "d/dx = cos(3x + c)"], "its argument u = (3*x) + c"),
    (["sin(3x + c)", "f'(x) = cos(3x + c)"], "its argument u = (3*x) + c"),
    (["sin(3x + c)", "cos(3x + c)", "--wrt", "x"], "its argument u = (3*x) + c"),
    (["ln(2x+a)", "1/(2x+a)", "--wrt", "x"], "its argument u = (2*x) + a"),
    (["(2x+b)^3", "3(2x+b)^2", "--wrt", "x"], "its base u = (2*x) + b"),
])
def test_chain_factor_wins_over_swapped_partials_when_d_dx_was_asked(argv, inner):
    lines = diagnosis(*argv)
    assert not any("swapped partials" in line for line in lines)
    assert any(inner in line and CHAIN in line for line in lines)


def test_chain_factor_wins_for_a_phase_in_t():
    lines = diagnosis(r"A\sin(\omega t+\phi)", r"A\cos(\omega t+\phi)", "--wrt", "t")
    assert not any("swapped partials" in line for line in lines)
    assert any("(the argument of sin); the chain rule's factor ∂u/∂t is missing" in line
               for line in lines)


def test_swapped_partials_still_said_for_partials_and_where_no_chain_explains():
    # ∂f/∂x written: a partial, so ∂f/∂c is a partial's slip too
    lines = diagnosis("sin(3x + c)", "--expect", "x=cos(3x + c)")
    assert lines[0] == "the expectation for x matches ∂f/∂c instead: swapped partials?"
    # ∂(x^2 y)/∂y = x^2: no inner u explains it
    assert diagnosis("x^2 y", "--expect", "x=x^2") == [
        "the expectation for x matches ∂f/∂y instead: swapped partials?"]


# ----- 3. a linear term's derivative dropped from a sum --------------------------------------

@pytest.mark.parametrize("f, g, said", [
    ("e^x - 4x", "e^x", "e^x is d/dx of e^x; d/dx of -4*x is missing"),
    ("x^2 - 3x + 7", "2x", "2*x is d/dx of x^2; d/dx of -3*x is missing"),
    ("x^3 + x", "3x^2", "3*(x^2) is d/dx of x^3; d/dx of x is missing"),
    ("x^3 - 4x^2 + 7x - 2", "3x^2 - 8x",
     "3*(x^2) is d/dx of x^3 and -8*x is d/dx of -4*(x^2); d/dx of 7*x is missing"),
])
def test_a_dropped_term_is_said_as_the_sum_rule(f, g, said):
    assert diagnosis(f, g) == [f"d/dx of a sum is the sum of its terms' derivatives: {said}"]


def test_another_order_still_said_where_no_term_is_right():
    # sin(x) + 5x: f'' = -sin(x), and -sin(x) is no term's derivative
    assert diagnosis("sin(x) + 5x", "-sin(x)") == [
        "the expectation is d²/dx² at every point, not d/dx: differentiated one time too many"]


def test_a_term_of_several_still_said_by_the_term_rule():
    assert diagnosis("x^2+sin(x)", "2x") == [
        "the term dv/dx is missing: for u = x^2 and v = sin(x), d(u + v)/dx = du/dx + dv/dx"]


# ----- 4. log is ln ----------------------------------------------------------------------------

def test_log_taken_for_log10_says_log_is_ln():
    lines = diagnosis(r"\log x", r"\frac{1}{x\ln 10}")
    assert lines[0] == ("this is the derivative of log10(x), not of log(x): the two rules mixed "
                        "up; adcli's log is the natural logarithm, ln: for base 10, write "
                        "log10 x or log_10 x")
    assert lines[1].startswith("×1/ln(10) everywhere")


def test_log_taken_for_log2_says_log_is_ln_with_its_argument():
    (line, _) = diagnosis("log(3x)", r"\frac{1}{x\ln 2}")
    assert line.endswith("for base 2, write log2(3*x) or log_2(3*x)")


def test_the_advice_written_is_what_adcli_reads_as_base_10():
    assert adcli.check("log_10 x", "1/(x ln(10))").verdict == "matches"
    assert adcli.check("log10 x", "1/(x ln(10))").verdict == "matches"


def test_log10_taken_for_log_gets_no_advice():
    (line, _) = diagnosis("log10(x)", "1/x")
    assert line == "this is the derivative of log(x), not of log10(x): the two rules mixed up"


# ----- 5. --order 0 against a derivative --------------------------------------------------------

def test_order_0_against_the_derivative_names_it():
    assert diagnosis("x^3", "3x^2", "--order", "0") == [
        "the expectation is d/dx at every point, not f: differentiated one time too many"]
    assert diagnosis("x^3", "6x", "--order", "0") == [
        "the expectation is d²/dx² at every point, not f: differentiated 2 times too many"]


def test_order_0_in_two_variables_names_the_one_that_matches_or_none():
    assert diagnosis("x^2*y", "2*x*y", "--order", "0") == [
        "the expectation is ∂/∂x at every point, not f: differentiated one time too many"]
    # cos(x + y) is ∂f/∂x and ∂f/∂y alike: naming either is a guess
    assert diagnosis("sin(x+y)", "cos(x+y)", "--order", "0") == []


# ----- 6. a factor that is a parameter's power ----------------------------------------------

def test_factor_named_for_the_parameter():
    # d/dx arctan(x/a) = a/(a^2 + x^2): the expectation is 1/a of it, for every a
    x = mpmath.mpf("0.7")
    for a in (3, 5):
        truth = mpmath.diff(lambda s: mpmath.atan(s / a), x)
        assert mpmath.almosteq(1 / (a ** 2 + x ** 2), truth / a)
    assert diagnosis(r"\arctan(x/a)", r"\frac{1}{a^2+x^2}", "--at", "a=3") == [
        "×1/a everywhere: the expectation is 1/a times ∂/∂x at every point (a = 3)"]
    assert diagnosis("a^2 x^2", "2x", "--at", "a=3") == [
        "×1/a^2 everywhere: the expectation is 1/a^2 times ∂/∂x at every point (a = 3)"]


def test_factor_not_named_for_a_parameter_it_equals_by_chance():
    # a sin(2x)'s written a cos(2x) is 1/2 of it for every a: at a = 2 that is not 1/a
    lines = diagnosis("a sin(2x)", "a cos(2x)", "--at", "a=2")
    assert "×1/2 everywhere: the expectation is 1/2 times ∂/∂x at every point" in lines
    assert not any("1/a" in line for line in lines)
    assert diagnosis("a x^2", "a x", "--at", "a=2") == [
        "×1/2 everywhere: the expectation is 1/2 times ∂/∂x at every point"]


def test_ln_of_a_parameter_still_named():
    assert diagnosis("log_b x", "∂f/∂x = 1/x", "--at", "b=3") == [
        "×ln(b) everywhere: the expectation is ln(b) times ∂/∂x at every point (b = 3)"]


def test_f_up_to_its_constant_not_differentiated():
    # (7x + 3)' = 7, and 7x = f - 3 at every x: no term's derivative is written, so the
    # sum rule's words do not hold; f itself, its constant changed, does
    assert diagnosis("7x + 3", "7x") == [
        "the expectation is f - 3 at every point, not d/dx: f was not differentiated, only "
        "its constant changed"]
    # an antiderivative is said as that: (x^2/2 + 1)' = x = f
    assert diagnosis("x", "x^2/2 + 1") == [
        "the expectation's own d/dx is f: it is an antiderivative of f, not its derivative "
        "(are the two given the other way round?)"]
