"""adcli check where an exponent is computed from a parameter, at kinks checked one point at
a time, at the top of the float range, and the words of some diagnoses and errors.

Every derivative below is worked out by hand (the reference is named beside each case);
messages and exit codes are compared whole where the case is about them.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import adcli

from conftest import adcli_on_terminal, run_cli, strict_json, words


def plain(*argv):
    return run_cli("check", *argv, "--format", "plain")


def sign_wrong(label: str = "∂/∂x") -> str:
    return (f"diagnosis: the sign is wrong where x < 0 and right elsewhere: -{label} there (an "
            f"absolute value lost or added, |x| written x or x written |x|?)\n")


# ----- 1. an exponent computed from a parameter carries no rounding -------------------------

# n - 1 = 2 at n = 3 is exact, so x^(n-1)'s slope in it (x^2 ln x, nan at x < 0) multiplies
# no rounding error: the points with x < 0 count. By hand, (x^3)' = 3x^2, and the expectation
# 3x^2 sign(x) is -3x^2 there: wrong exactly where x < 0, as for the literal exponent.
@pytest.mark.parametrize("f, expected, at", [
    ("x^n", "n x^(n-1) sign(x)", "n=3"),
    ("(-1)^k x^(2k+1)", "(-1)^k (2k+1) x^(2k) sign(x)", "k=1"),    # -x^3: -3x^2 sign(x)
    ("x^3", "3x^2 sign(x)", None),                                  # the literal reference
])
def test_a_sign_error_is_seen_where_the_base_is_negative(f, expected, at):
    code, out, _ = plain(f, expected, *(("--at", at) if at else ()), "--seed", "1")
    assert code == 1
    assert out.startswith("differs from d/dx at " if at is None else "differs from ∂/∂x at ")
    assert out.endswith(sign_wrong("d/dx" if at is None else "∂/∂x"))


def test_every_point_counts_for_an_even_power_of_a_parameter():
    # x^(2n) at n = 1 is x^2: derivative 2x everywhere, and 2n |x|^(2n-1) = 2|x| is wrong
    # exactly where x < 0 (not "adcli's derivative is not finite there").
    code, out, err = plain("x^(2n)", "2n |x|^(2n-1)", "--at", "n=1", "--seed", "1")
    assert (code, err) == (1, "")
    assert out.endswith(sign_wrong())
    assert "not counted" not in out


@pytest.mark.parametrize("expected", ["n x^(n-1)", "3 x^(n-1)", "3x^2"])
def test_negative_points_on_a_grid_are_usable(expected):
    # (x^3)' at -2 and -1: 12 and 3 by hand.
    assert plain("x^n", expected, "--at", "n=3", "--grid", "x=-2:-1:2") == (
        0, "matches ∂/∂x at 2/2 points, largest relative difference 0\n", "")


def test_the_json_shows_the_negative_points_judged():
    code, out, _ = run_cli("check", "x^n", "n x^(n-1)", "--at", "n=3", "--grid", "x=-2:-1:2",
                           "--format", "json")
    document = strict_json(out)
    assert (code, document["verdict"]) == (0, "matches")
    rows = [(p["at"]["x"], p["derivatives"]["x"]["ad"], p["derivatives"]["x"]["expected"])
            for p in document["points"]]
    assert rows == [(-2.0, 12.0, 12.0), (-1.0, 3.0, 3.0)]


# By hand: which results of exact arguments are exact. 3.1 - 0.1 is 3.0000000000000004 in
# floats (rounded), 0.1 * 3 rounds, 1/3 rounds, and 3^40 > 2^52 is past where pow's result
# is trusted to the unit; the others are exact.
@pytest.mark.parametrize("op, a, b, exact", [
    ("sub", 3.0, 1.0, True), ("sub", 3.1, 0.1, False), ("add", 0.5, 0.25, True),
    ("mul", 0.5, 3.0, True), ("mul", 0.1, 3.0, False), ("mul", 3.0, 7.0, True),
    ("div", 6.0, 3.0, True), ("div", 1.0, 3.0, False), ("div", 3.0, 0.5, True),
    ("pow", -1.0, 3.0, True), ("pow", -2.0, 5.0, True), ("pow", 3.0, 40.0, False),
    ("pow", 2.0, 0.5, False),
])
def test_which_values_of_a_parameter_are_exact(op, a, b, exact):
    from adcli.checking import _exact
    from adcli.core import Variable
    from adcli.functions import PRIMITIVES

    n, c = Variable(np.array([a]), name="n"), Variable(np.array(b))
    y = PRIMITIVES[op]()(n, c)
    assert bool(_exact(y.ancestry(), moving=frozenset({"x"}))[id(y)]) is exact
    # computed from a variable differenced (n moves), only an exact 0 stays exact
    assert not np.any(_exact(y.ancestry(), moving=frozenset({"n"}))[id(y)])


def test_an_inexact_exponent_still_rounds():
    # n - 0.3 at n = 2.3 is 1.9999999999999998 (rounded), so f' = w x^(w-1) is off 2x by
    # 2.2e-16 (1 + ln x), 5e-14 at x = 1e100: the exponent's rounding, times its slope
    # x^w ln x, is still counted, and so allows that difference (taken as exact, it would not).
    code, out, _ = plain("x^(n-0.3)", "2x", "--at", "n=2.3", "--domain", "x=1e50:1e100",
                         "--rtol", "1e-15")
    assert code == 0
    assert out.startswith("matches ∂/∂x at 30/30 points") and "(within the rounding" in out


# ----- 2. a single point at a kink is judged as inside a grid ------------------------------

# sqrt(x^4) = x^2 and cbrt(x^3) = x: differentiable at 0 (0 and 1), though sqrt and cbrt are
# not; the one-sided differences decide, as they do for 0 inside a grid.
@pytest.mark.parametrize("f, right, wrong, slope", [
    ("sqrt(x^4)", "2x", "1", 0.0),
    ("cbrt(x^3)", "1", "0", 1.0),
])
def test_one_point_at_a_kink_is_judged_by_its_sides(f, right, wrong, slope):
    code, out, err = plain(f, right, "--at", "x=0")
    assert (code, out) == (0, "matches d/dx at 1/1 points, largest relative difference 0\n")
    assert "left and right derivatives agree" in err
    assert plain(f, wrong, "--at", "x=0")[:2] == (1, "differs from d/dx at 1 of 1 point\n")
    code, out, _ = run_cli("check", f, right, "--at", "x=0", "--format", "json")
    d = strict_json(out)["points"][0]["derivatives"]["x"]
    assert (d["left"], d["right"], d["status"]) == (slope, slope, "match")


@pytest.mark.parametrize("columns", [40, 80, 120])
def test_one_point_at_a_kink_on_the_terminal(columns):
    code, rows = adcli_on_terminal(columns, "check", "sqrt(x^4)", "2x", "--at", "x=0")
    said = " ".join(words(rows))
    assert code == 0
    assert "matches d/dx at 1/1 points, largest relative difference 0" in said
    assert "its left and right derivatives agree (0), and the expectation was judged " \
           "against that, not against adcli's derivative, nan (a convention)" in said
    assert "error" not in said


# ----- 3. one-sided derivatives that go to 0 as a fractional power --------------------------

# By hand, at 0 from either side: x^2 cbrt(x) = x^(7/3) has f(h)/h = h^(4/3) -> 0, and x cbrt(x)
# = x^(4/3) has h^(1/3) -> 0; x^(3/2) is defined right of 0 only, f(h)/h = h^(1/2) -> 0.
@pytest.mark.parametrize("f, expected, left, right, code, out", [
    ("x^2 cbrt(x)", "(7/3) x cbrt(x)", 0.0, 0.0, 0,
     "matches d/dx at 1/1 points, largest relative difference 0\n"),
    ("x cbrt(x)", "(4/3)cbrt(x)", 0.0, 0.0, 0,
     "matches d/dx at 1/1 points, largest relative difference 0\n"),
    ("x^2 cbrt(x)", "1e-7", 0.0, 0.0, 1, "differs from d/dx at 1 of 1 point\n"),
    ("x^(3/2)", "(3/2)sqrt(x)", None, 0.0, 1,
     "cannot tell: the derivative does not exist at the 1 point checked\n"),
])
def test_one_sided_derivatives_that_vanish_as_a_power(f, expected, left, right, code, out):
    assert plain(f, expected, "--at", "x=0")[:2] == (code, out)
    _, text, _ = run_cli("check", f, expected, "--at", "x=0", "--format", "json")
    d = strict_json(text)["points"][0]["derivatives"]["x"]
    assert (d["left"], d["right"]) == (left if left is not None else "nan", right)


def test_a_limit_beside_0_is_not_taken_for_0():
    # x cbrt(x) + 0.01 x: f(h)/h = h^(1/3) + 0.01 -> 0.01 from either side, which differences
    # over steps down to 1e-7 (h^(1/3) = 0.005 there) do not settle on: not called 0.
    _, text, _ = run_cli("check", "x cbrt(x) + 0.01 x", "0", "--at", "x=0", "--format", "json")
    d = strict_json(text)["points"][0]["derivatives"]["x"]
    assert d["left"] != 0.0 and d["right"] != 0.0


# ----- 4. near the top of the float range the rounding bound does not overflow ---------------

# exp(709) = 8.218407461554972e+307 (mpmath: 8.2184074615549724e+307); exp's derivative is
# itself, and an expectation equal to it to the last bit matches; one ulp-level relative
# change (1 + 1e-6) is far beyond rounding and differs.
@pytest.mark.parametrize("x", ["708", "709", "709.7"])
def test_exp_near_overflow_matches_itself(x):
    assert math.isfinite(math.exp(float(x)))
    code, out, err = plain("exp(x)", "exp(x)", "--at", f"x={x}")
    # (at 709.7 exp overflows within the finite-difference step: a note says so after)
    # (at 709 the differences are refuted by finer steps: the verdict line says so after ";")
    assert (code, out.splitlines()[0].split(";")[0], err) == (
        0, "matches d/dx at 1/1 points, largest relative difference 0", "")
    code, out, _ = plain("exp(x)", "(1 + 1e-6) exp(x)", "--at", f"x={x}")
    assert code == 1 and out.splitlines()[0].split(";")[0] == "differs from d/dx at 1 of 1 point"


def test_an_overflowed_bound_is_not_called_cancellation():
    # 3 exp(x) - 2 exp(x) = exp(x): each term's rounding bound is near 1e308 and their sum
    # past the float range, but the result's digits are not lost.
    code, out, _ = plain("3 exp(x) - 2 exp(x)", "exp(x)", "--at", "x=708.5")
    assert code == 0 and out.startswith("matches d/dx at 1/1 points")
    assert "cancellation" not in out


# ----- 5. a factor of ln(b) for a constant base b in F or the expectation is named -----------

# By hand: (log_3 x)' = 1/(x ln 3), so ln(3)/x is ln(3)^2 times it; (3^x)' = 3^x ln 3, so
# 3^x ln(3)^2 is ln(3) times it; (log_5 x)' = 1/(x ln 5), so 1/x is ln(5) times it.
@pytest.mark.parametrize("argv, factor, value", [
    (("\\frac{d}{dx} \\log_3 x = \\frac{\\ln 3}{x}",), "ln(3)^2", math.log(3) ** 2),
    (("3^x", "3^x ln(3)^2"), "ln(3)", math.log(3)),
    (("log(x, 5)", "1/x"), "ln(5)", math.log(5)),
    (("x^2", "2x ln(7)"), "ln(7)", math.log(7)),     # a base in the expectation only
])
def test_the_ln_of_a_constant_base_is_named(argv, factor, value):
    code, out, _ = plain(*argv, "--domain", "x=0.5:5")
    assert code == 1
    assert f"diagnosis: ×{factor} everywhere: the expectation is {factor} times d/dx at " \
           "every point" in out, out
    # (the factor is ln(b)'s, not a near one: its value, by hand, divides the ratio)
    ratio = {"ln(3)^2": math.log(3) ** 2, "ln(3)": math.log(3), "ln(5)": math.log(5),
             "ln(7)": math.log(7)}[factor]
    assert value == ratio


# ----- 6. a left side's variable run into a longer name is said so -------------------------

def test_a_left_side_in_a_variable_run_together_names_it():
    code, out, err = run_cli("check", "e^{xy}", "\\frac{\\partial f}{\\partial x} = y e^{xy}")
    assert (code, out) == (2, "")
    assert err == ("adcli: error: the expectation's left side, \\frac{\\partial f}{\\partial "
                   "x}, is a derivative in x, which does not appear in 'e^{xy}' ('xy' is "
                   "one name; for x times y write x*y)\n")


# ----- 7. a constant of integration C is said to be read as a variable ----------------------

def test_a_constant_of_integration_gets_a_hint():
    assert run_cli("check", "x^3/3 + C", "x^2") == (
        2, "", "adcli: error: one expected derivative needs one variable and 'x^3/3 + C' "
        "has x and C: name it with --wrt, fix the others with --at, or give partials by name "
        "with --expect NAME=... (C, a constant of integration, is read as a variable: with "
        "--wrt x it is held fixed)\n")
    # (and so, held fixed, it drops out: (x^3/3 + C)' = x^2 by hand)
    assert plain("x^3/3 + C", "x^2", "--wrt", "x")[0] == 0


def test_no_hint_without_a_c():
    code, _, err = run_cli("check", "x^3/3 + y", "x^2")
    assert code == 2 and "constant of integration" not in err


def test_an_expectation_nan_from_underflow_is_not_counted_against_it():
    # d/dx of x^2 y^2/(x^2 + y^2) is 2x y^4/(x^2 + y^2)^2 (by hand): 5e-101 at x = y = 1e-100,
    # but y^4 = 1e-400 and the denominator 4e-400 both underflow there: 0/0 = nan. That is no
    # value (a right expectation was "differs ... it is undefined there, so it is not d/dx");
    # at (1, 2): 2*16/25 = 1.28, counted
    r = adcli.check("x^2 y^2/(x^2+y^2)", expect={"x": "2x y^4/(x^2+y^2)^2"},
                    at={"x": [1e-100, 1.0], "y": [1e-100, 2.0]})
    assert (r.verdict, r.counted) == ("matches", 1)
    assert list(r.targets[0].status) == ["skipped", "match"]
    assert "by underflow" in r.targets[0].why[0]
    code, out, err = run_cli("check", "x^2 y^2/(x^2+y^2)", "--expect",
                             "x=\\frac{2x y^4}{(x^2+y^2)^2}", "--at", "x=1e-100,y=1e-100")
    assert code == 2 and "differs" not in out + err


@pytest.mark.parametrize("f, expected", [
    ("cosh(x)", "sinh(x)"), ("asin(x)", "1/sqrt(1-x^2)"), ("x^x", "x^x (log(x) + 1)"),
    ("exp(x^2)^2", "4x exp(2x^2)")])
def test_the_api_lets_no_numpy_warning_through(f, expected):
    # Random points up to 1e3 overflow cosh and exp(x^2) and leave asin's domain: nan and
    # inf are results there, said in words; numpy's RuntimeWarnings leaked from choosing
    # the points (f evaluated at random ones) outside the errstate that judging had
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        result = adcli.check(f, expected)
    assert result.verdict == "matches"
