"""check's tolerance (s27): a typed point and a constant are rounded, exact steps are exact
at the point, and the API's refusals and warnings match the CLI's."""
import json
import math

import mpmath
import pytest

import adcli
from adcli import AdcliWarning, ValuesError
from conftest import run_cli


def plain(*argv):
    return run_cli("check", *argv, "--format", "plain")


# ----- 1. a point typed, and a constant written, are known to half an ulp -------------------

# (f, the exact expectation, the point, the order): at the float nearest the point meant,
# the derivative is a rounding-sized number (cos(fl(pi/2)) = 6.1e-17), 0 at the point meant
@pytest.mark.parametrize("f, expected, at, order", [
    ("sin x", "0", "x=pi/2", "1"),
    ("cos x", "0", "x=pi", "1"),
    ("cos x", "0", "x=2pi", "1"),
    ("sin(x)^2", "0", "x=pi", "1"),
    ("sin x", "0", "x=pi", "0"),
    ("sin x", "0", "x=pi", "2"),
])
def test_a_zero_meant_at_a_multiple_of_pi_matches(f, expected, at, order):
    code, out, err = plain(f, expected, "--order", order, "--at", at)
    assert (code, err) == (0, ""), out
    assert out.startswith("matches"), out


def test_the_derivative_at_the_float_is_not_0_so_the_tolerance_is_what_matches():
    # cos(fl(pi/2)) by mpmath: fl(pi/2) is 6.1e-17 below pi/2
    with mpmath.workdps(40):
        true = float(mpmath.cos(mpmath.mpf(math.pi / 2)))
    assert 6e-17 < true < 6.2e-17
    result = adcli.check("sin(x)", 0, x="pi/2")
    assert result.verdict == "matches"
    assert abs(result.targets[0].ad[0] - true) <= 1e-30


@pytest.mark.parametrize("argv", [
    ("sin x", "sin(pi/2 - x)", "--grid", "x=0:pi:3"),
    ("cos x", "sin(x + pi/2)", "--order", "0", "--grid", "x=0:2pi:9"),
])
def test_a_constant_written_as_pi_is_rounded_too(argv):
    code, out, err = plain(*argv)
    assert (code, err) == (0, ""), out
    assert out.startswith("matches"), out


@pytest.mark.parametrize("f, expected, at", [
    ("sin x", "1e-15", "x=pi/2"),               # 16 times cos's 6e-17
    ("sin x", "cos(x)+1e-13", "x=pi/2"),
    ("sin x", "0", "x=1.5707963268"),            # cos there is -5.1e-12
    ("sin x", "-cos x", "x=1"),                  # a sign error
    ("x^3", "3x", "x=2"),
])
def test_a_wrong_expectation_near_there_still_differs(f, expected, at):
    code, out, _ = plain(f, expected, "--at", at)
    assert code == 1 and out.startswith("differs"), out


def test_without_an_expectation_the_flat_differences_witness_cos_at_half_pi():
    code, out, err = plain("sin x", "--at", "x=pi/2")
    assert (code, err) == (0, ""), out
    assert out.startswith("adcli's derivative agrees with finite differences"), out


def test_a_point_drawn_at_random_is_exact_and_gets_no_such_term():
    # cos(x) + 1e-13 against sin's derivative: random points near 1 keep rtol's 1e-9 alone
    result = adcli.check("sin(x)", "cos(x) + 1e-7", domain={"x": (1.5, 1.6)})
    assert result.verdict == "differs"


# ----- 2. 2x and x + x are exact steps at the point -----------------------------------------

@pytest.mark.parametrize("x", ["1e16", "5e20", "5e100", "5e299"])
@pytest.mark.parametrize("f", ["sin(2x)", "sin(x+x)"])
def test_an_exact_doubling_leaves_every_digit(f, x):
    code, out, err = plain(f, "2cos(2x)", "--at", f"x={x}")
    assert (code, err) == (0, ""), out
    assert out.startswith("matches d/dx at 1/1 points"), out


def test_sin_at_1e20_still_matches():
    code, out, _ = plain("sin(x)", "cos(x)", "--at", "x=1e20")
    assert code == 0 and out.startswith("matches"), out


@pytest.mark.parametrize("expected, x", [("cos(2x)", "1e16"), ("-2cos(2x)", "5e100")])
def test_a_wrong_factor_there_differs(expected, x):
    code, out, _ = plain("sin(2x)", expected, "--at", f"x={x}")
    assert code == 1 and out.startswith("differs"), out


# ----- 3. an int past float64's range is refused by name ------------------------------------

@pytest.mark.parametrize("given, named", [
    ({"expected": 10 ** 400}, "the expected derivative"),
    ({"expect": {"x": 10 ** 400}}, "expect['x']"),
])
def test_an_int_past_the_float_range_is_a_values_error(given, named):
    with pytest.raises(ValuesError, match=r"^" + named.replace("[", r"\[")
                       .replace("]", r"\]") + " must be a str, a finite number"):
        adcli.check("3*x", **given)


# ----- 5. a span for a name f lacks is a warning, as the CLI's ------------------------------

def test_a_domain_for_a_name_f_lacks_warns_and_checks():
    with pytest.warns(AdcliWarning, match=r"^domain: 'y' does not appear in '3\*x'$"):
        result = adcli.check("3*x", 3, domain={"y": (0, 1)})
    assert result.verdict == "matches"
    code, out, err = plain("3*x", "3", "--domain", "y=0:1")
    assert code == 0 and "--domain: 'y' does not appear in the expression" in err


# ----- 4. the equation alone is enough in the API too ---------------------------------------

@pytest.mark.parametrize("equation, verdict, order", [
    ("d/dx (x^3) = 3x^2", "matches", 1),
    ("d/dx (x^3) = 3x", "differs", 1),         # 3x^2 by hand, not 3x
    ("d^2/dx^2 (x^3) = 6x", "matches", 2),
])
def test_the_api_reads_an_equation_alone_as_the_cli_does(equation, verdict, order):
    result = adcli.check(equation)
    assert (result.verdict, result.order) == (verdict, order)
    code, out, _ = plain(equation)
    assert out.startswith(verdict), out


def test_an_equation_naming_no_function_is_still_refused():
    with pytest.raises(adcli.AdcliError):
        adcli.check("x^2 = 2x")


@pytest.mark.parametrize("f, expected, written, read, meant", [
    ("tan x", "sec x^2", "sec x^2", "sec(x^2)", "sec(x)^2"),           # d tan = sec²
    ("sin(x)^3/3", "sin x^2 cos x", "sin x^2", "sin(x^2)", "sin(x)^2"),
    ("tan x", "dy/dx = sec x^2", "sec x^2", "sec(x^2)", "sec(x)^2"),
])
def test_the_expectations_function_before_a_power_is_tried_as_its_power(f, expected, written,
                                                                         read, meant):
    # was "differs" with no word, where f's own sin x^3 got this story
    code, out, err = run_cli("check", f, expected, "--format", "json")
    result = json.loads(out)
    assert code == 1 and result["verdict"] == "differs"
    assert result["diagnosis"] == [f"the expectation: {written} is read as {read}; as "
                                   f"{meant}, it matches"]


def test_an_expectation_wrong_either_way_gets_no_such_story():
    code, out, err = run_cli("check", "tan x", "sec x^3", "--format", "json")
    assert code == 1 and not any("is read as" in d for d in json.loads(out)["diagnosis"])
