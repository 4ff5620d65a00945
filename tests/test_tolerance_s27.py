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


# ----- 6. (checkfix) a constant f has no typed point, and the point's rounding is no pole's --

@pytest.mark.parametrize("f, expected, extra, verdict", [
    ("3", "5", (), "differs"),
    ("3", "5", ("--wrt", "x"), "differs"),
    ("2*pi", "6.283185307179586", (), "matches"),     # 2 fl(pi), exactly that float
    ("sqrt(2)^2", "2", (), "matches"),                # off by an ulp or two at most
    ("pi", "3.14159", ("--rtol", "1e-5"), "matches"),  # |pi - 3.14159|/pi = 8.4e-7
])
def test_a_constant_f_is_checked_not_an_internal_error(f, expected, extra, verdict):
    assert abs(math.pi - 3.14159) / math.pi < 1e-5
    code, out, err = plain(f, expected, "--order", "0", *extra)
    assert code == (0 if verdict == "matches" else 1) and err == "", (out, err)
    said = {"matches": "matches f at 1/1", "differs": "differs from f at 1 of 1"}[verdict]
    assert out.startswith(said), out
    assert adcli.check(f, expected, order=0, rtol=1e-5 if extra[:1] == ("--rtol",) else
                       1e-9).verdict == verdict


def tan_at_half_pi() -> float:
    """tan at the float nearest pi/2, by mpmath: a pole 6.1e-17 away makes it 1.6e16."""
    with mpmath.workdps(40):
        return float(mpmath.tan(mpmath.mpf(math.pi / 2)))


@pytest.mark.parametrize("argv, summary", [
    # sin's derivative cos, plus tan: tan is 0 at 0, pi, 2pi and 1.6e16 at the floats
    # nearest pi/2 and 3pi/2, against cos's 1e-16 there
    (("sin(x)", "cos(x) + tan(x)", "--grid", "x=0:2pi:5"), "differs from d/dx at 2 of 5"),
    (("x^2", "2x + tan(x)", "--grid", "x=0:pi:3"), "differs from d/dx at 1 of 3"),
    (("x^2", "2x + tan(x)", "--at", "x=pi/2"), "differs from d/dx at 1 of 1"),
    # the pole is the float just below x: the expectation is 1/ulp = 4.5e15, AD 3.14
    (("x^2", "2*x + 1/(x - 1.5707963267948966)", "--at", "x=1.5707963267948968"),
     "differs from d/dx at 1 of 1"),
])
def test_a_pole_within_half_an_ulp_is_no_rounding_of_the_point(argv, summary):
    assert tan_at_half_pi() > 1e16
    assert 1 / (1.5707963267948968 - 1.5707963267948966) > 4e15
    code, out, _ = plain(*argv)
    assert code == 1 and out.startswith(summary), out


@pytest.mark.parametrize("f, expected, at", [
    ("log(cos(x)^2)", "2*tan(x)", ("--grid", "x=0:2pi:5")),    # d/dx = -2 tan x
    ("log(abs(cos x))", "tan x", ("--at", "x=pi/2")),           # d/dx = -tan x
])
def test_a_sign_error_beside_a_pole_is_still_a_sign_error(f, expected, at):
    # by hand, d/dx log|cos x| = -tan x: at pi/2's float, -1.6e16 against +1.6e16
    assert tan_at_half_pi() > 1e16
    code, out, _ = plain(f, expected, *at)
    assert code == 1 and out.startswith("differs"), out
    if at[0] == "--at":
        assert "diagnosis: ×-1 everywhere: a sign error" in out, out


def test_a_match_at_the_users_points_counts_only_random_ones_as_not_matching():
    # cos' = -sin, not sin: they differ wherever sin x != 0, so at all 30 random points
    # (none of them a multiple of pi); pi/2, the user's, is no witness (cos 6e-17 there)
    code, out, err = run_cli("check", "cos x", "sin x", "--grid", "x=0:pi:2", "--format",
                             "json")
    result = json.loads(out)
    assert code == 0 and result["verdict"] == "matches", out
    note = next(n for n in result["notes"] if n.startswith("it matches at your"))
    assert note.startswith("it matches at your 1 point only, not at 30 of 30 random ones "
                           "(seed 0): at x="), note
    example = float(note.split("at x=")[1].split(",")[0])
    assert example not in (0.0, math.pi / 2)
    assert abs(math.sin(example)) > 1e-3


@pytest.mark.parametrize("f, at", [("cos(x)^3", "x=pi/2"), ("sin(x)^3", "x=pi"),
                                   ("e^(cos(x)^3)", "x=pi/2"), ("cos(x)^3 cos(y)", "x=pi/2,y=1")])
def test_a_double_zero_at_a_typed_point_is_no_pole(f, at):
    # f' = -3cos(x)^2 sin(x) is -1.1e-32 at the float nearest pi/2 (mpmath), its neighbours
    # -2.4e-31 and -7.8e-32: no linear move, no spike either; the slope test took it for a
    # pole and said "cannot tell" (the regression tester's)
    x = mpmath.mpf(float(mpmath.pi / 2))
    assert abs(-3 * mpmath.cos(x) ** 2 * mpmath.sin(x)) < 1e-31
    code, out, err = plain(f, "--at", at)
    assert code == 0 and out.startswith("adcli's derivative agrees with finite differences"), out
