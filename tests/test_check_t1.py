"""adcli check: a teacher's findings (t1) on checking students' derivations.

A primed left side naming a variable F does not have, a diagnosis that named a function
the student never wrote, the reader's caution offered but not tried, and the count of
points where the derivative is 0 to within rounding. Expected wordings are written from
the README; expected values are worked by hand.
"""
from __future__ import annotations

import pytest

from conftest import run_cli


def plain(*argv):
    return run_cli("check", *argv, "--format", "plain")


def error_line(*argv) -> str:
    code, out, err = plain(*argv)
    assert (code, out, err.count("\n")) == (2, "", 1), (code, out, err)
    return err.removeprefix("adcli: error: ").rstrip("\n")


# ----- 1. primes carrying a variable F lacks: the error dy/dt gets, not a silent pass ---------

NOT_IN = "the expectation's left side, {left}, is a derivative in {v}, which does not appear " \
         "in '{f}'{hint}"
KT = " ('kt' is one name; for k times t write k*t)"
AX = " ('ax' is one name; for a times x write a*x)"

PRIMES_ELSEWHERE = [
    ("e^{kt}", "f'(t) = e^{kt}", "f'(t)", "t", KT),
    ("sin(ax)", "f'(x) = cos(ax)", "f'(x)", "x", AX),
    ("sin(ax)", "f'(x) = a cos(ax)", "f'(x)", "x", AX),
    ("x^2", "f'(t) = 2x", "f'(t)", "t", ""),
    ("x^2", "y'(t) = 2x", "y'(t)", "t", ""),
    ("x^4", "f^{(3)}(t) = 24x", "f^{(3)}(t)", "t", ""),
    ("x*y", "f'(t) = y", "f'(t)", "t", ""),
]


@pytest.mark.parametrize("f, expected, left, v, hint", PRIMES_ELSEWHERE)
def test_primes_in_a_variable_f_lacks_is_an_error(f, expected, left, v, hint):
    assert error_line(f, expected) == NOT_IN.format(left=left, v=v, f=f, hint=hint)


def test_primes_in_another_of_fs_variables_than_wrt():
    assert error_line("x*y", "f'(y) = x", "--wrt", "x") == (
        "the expectation's left side, f'(y), is a derivative in y, and this checks one in x: "
        "--wrt y (wrt= in the API), or --expect y=... for partials by name")


@pytest.mark.parametrize("f, expected", [("x^2", "f'(x) = 2x"), ("x^4", "f^{(3)}(x) = 24x"),
                                         ("x*y", "f'(y) = x"), ("e^2", "f'(x) = 0")])
def test_primes_in_fs_variable_still_check(f, expected):
    code, out, err = plain(f, expected)
    assert code == 0, (out, err)


# ----- 2. a diagnosis names the student's slip, not a function they never wrote -----------

def g_prime_at(u: str) -> str:
    return (f"this is g'(du/dx) for g(u) = ln(u) and u = {u}: the outside's derivative taken "
            "at du/dx, not at u; the chain rule is dg(u)/dx = g'(u)·(du/dx)")


# (f, the expectation g'(du/dx): ln'(u) = 1/u taken at u' (by hand), the claim)
OUTSIDE_AT_SLOPE = [
    ("ln(sin x)", "1/cos x", g_prime_at("sin(x)")),            # u' = cos x
    ("ln(x^2+1)", "1/(2x)", g_prime_at("(x^2) + 1")),          # u' = 2x
    ("ln(cosh x)", "1/sinh x", g_prime_at("cosh(x)")),         # u' = sinh x
]


@pytest.mark.parametrize("f, expected, claim", OUTSIDE_AT_SLOPE)
def test_outside_at_the_slope_is_said(f, expected, claim):
    import adcli

    result = adcli.check(f, expected)
    assert result.verdict == "differs"
    assert result.diagnosis == [claim]


# Rules mixed up within a family of the table are still said (README: atan's as atanh's,
# tan's as sec's, asin's as acos's with its ×-1; sin/sinh twins)
MIXED_UP = [
    ("atan(x)", "1/(1-x^2)", "atanh(x)", "atan(x)"),           # atanh' = 1/(1 - x^2)
    ("tan(2*x)", "2*sec(2*x)*tan(2*x)", "sec(2*x)", "tan(2*x)"),  # sec' = sec tan
    ("asin(x)", "1/sqrt(1+x^2)", "asinh(x)", "asin(x)"),       # asinh' = 1/sqrt(1 + x^2)
    ("sinh(3*x)", "3*cos(3*x)", "sin(3*x)", "sinh(3*x)"),      # sin' = cos
    ("log(x)", "exp(x)", "exp(x)", "log(x)"),                   # exp' = exp
]


@pytest.mark.parametrize("f, expected, other, own", MIXED_UP)
def test_rules_of_one_family_mixed_up(f, expected, other, own):
    import adcli

    claim = f"this is the derivative of {other}, not of {own}: the two rules mixed up"
    assert adcli.check(f, expected).diagnosis[0] == claim


# A coincidence of identities across families names a function nobody confuses: atanh(sin x)'s
# derivative 1/cos x written cot x = (sin x)'/sin x is log's rule by identity, not a slip a
# student makes.
@pytest.mark.parametrize("f, expected", [("atanh(sin(x))", "cot(x)"),
                                         ("atanh(sin(x))", "cos(x)/sin(x)")])
def test_no_mix_up_across_families(f, expected):
    import adcli

    result = adcli.check(f, expected)
    assert result.verdict == "differs"
    assert not any("mixed up" in claim for claim in result.diagnosis), result.diagnosis


# ----- 3. the reader's caution of a function's wide argument: its reading is tried too ------

def read_otherwise(written: str, meant: str) -> str:
    return (f"{written} is read otherwise than it was likely meant (see the warning); as "
            f"{meant}, the expectation matches")


def read_otherwise_both(written: list, meant: list) -> str:
    return (f"{' and '.join(written)} are read otherwise than they were likely meant (see the "
            f"warnings); as {' and '.join(meant)}, the expectation matches")


# (f, the expectation, order, the claim). By hand: tan'' = 2 tan x sec^2 x = 2 tan x (1 +
# tan^2 x); (sin^2 x)' = 2 sin x cos x; (e^x sin x)' = sin x e^x + cos x e^x (each written
# without the function's parentheses, the last twice: both readings are needed together)
WIDE_ARGUMENTS = [
    ("tan x", r"2\tan x (1+\tan^2 x)", 2,
     read_otherwise(r"\tan x (1 + (tan(x)^2))", "tan(x)*(1 + (tan(x)^2))")),
    ("sin(x)^2", r"2\sin x (\cos x)", 1, read_otherwise(r"\sin x (\cos x)", "sin(x)*cos(x)")),
    ("e^x sin x", r"\sin x e^x + \cos x e^x", 1,
     read_otherwise_both([r"\sin x e^x", r"\cos x e^x"], ["sin(x)*e^x", "cos(x)*e^x"])),
]


@pytest.mark.parametrize("f, expected, order, claim", WIDE_ARGUMENTS)
def test_wide_argument_read_as_meant(f, expected, order, claim):
    code, out, err = plain(f, expected, "--order", str(order))
    assert code == 1
    assert [line for line in out.splitlines() if line.startswith("diagnosis:")] == \
        [f"diagnosis: {claim}"]


def test_wide_argument_that_does_not_match_is_still_said_as_written():
    # 2 sin x (1+x) is 2 sin(x(1+x)) as read, and 2 sin(x)(1+x) as meant: neither is
    # (sin^2 x)' = 2 sin x cos x, so the caution stays, read as written
    import adcli

    result = adcli.check("sin(x)^2", "2 sin x (1+x)")
    assert result.verdict == "differs"
    assert not any("likely meant" in claim for claim in result.diagnosis)


# ----- 4. the count of points where the derivative is 0 to within rounding ------------------

AGREE = "adcli's derivative agrees with finite differences for "


def summary(*argv) -> tuple[str, list]:
    import json

    code, out, err = run_cli("check", *argv, "--format", "json")
    assert code == 0, err
    found = json.loads(out)
    return found["summary"], [p["at"]["x"] for p in found["points"]]


def test_points_0_to_within_rounding_are_not_counted_twice():
    # cos at -1, -0.5, 0, 0.5, 1: cos'(0) = -sin 0 = 0, and cos is even about 0 (its
    # central differences vanish there); at the other four, -sin x is not 0
    said, xs = summary("cos(x)", "--grid", "x=-1:1:5")
    assert sorted(xs) == [-1.0, -0.5, 0.0, 0.5, 1.0]
    assert said.startswith(AGREE + "d/dx at 4/4 points, largest relative difference ")
    assert said.endswith(", and 0 to within rounding at 1 more where the central "
                         "differences of f vanish to within its rounding"), said


def test_points_0_to_within_rounding_at_order_2():
    # log(cosh x)'' = sech^2 x, differenced as tanh x: tanh x is ±1 in float64 (to within
    # its rounding over every step) for |x| > 19.1 (1 - tanh x = 2e^(-2x) < 2^-54 there),
    # and varies for |x| < 18; no point drawn lies between
    said, xs = summary("log(cosh(x))", "--order", "2")
    flat = sum(abs(x) > 20 for x in xs)
    assert not any(18 < abs(x) < 20 for x in xs) and 0 < flat < 28
    assert f" at {28 - flat}/{28 - flat} points, " in said, said
    assert f", and 0 to within rounding at {flat} more where " in said, said


# ----- on a terminal: the new words fold whole at every width ------------------------------

@pytest.mark.parametrize("columns", [40, 80, 120])
def test_on_a_terminal(columns):
    from conftest import adcli_on_terminal, words

    code, rows = adcli_on_terminal(columns, "check", "tan x", r"2\tan x (1+\tan^2 x)",
                                   "--order", "2")
    claim = read_otherwise(r"\tan x (1 + (tan(x)^2))", "tan(x)*(1 + (tan(x)^2))")
    assert code == 1 and " ".join(["diagnosis:", *claim.split()]) in " ".join(words(rows))
    code, rows = adcli_on_terminal(columns, "check", "cos(x)", "--grid", "x=-1:1:5")
    said = " ".join(words(rows))
    assert code == 0 and (AGREE + "d/dx at 4/4 points,") in said, rows
    assert "0 to within rounding at 1 more where" in said, rows
    code, rows = adcli_on_terminal(columns, "check", "x^2", "f'(t) = 2x")
    assert code == 2 and " ".join(words(rows)) == " ".join(
        ["adcli:", "error:", *NOT_IN.format(left="f'(t)", v="t", f="x^2", hint="").split()])
