"""grad --order N warns where Taylor mode's sweep left float64's normal range along every
scale of its line (taylor.Nth.lost): the number shown may be wrong there, and it is.

1e300 e^x at -720: e^-720 = 1.9e-313 is subnormal and keeps 43 of 53 bits whatever the
scale, so every derivative, 1e300 e^-720 = 2.0322308024242932e-13 (mpmath), comes out
2.03223080241836e-13, 3e-12 off. exp at -705 is rescaled into range and stays exact."""
import mpmath
import numpy as np
import pytest

import adcli
from conftest import run_cli, strict_json, warnings_in

LOST = ("Taylor mode's steps left float64's normal range (an underflow or overflow on the "
        "way) along every scale of the line it tried: the derivative shown may be wrong there")


def _truth(x: float) -> float:
    """Every derivative of 1e300 e^x, from mpmath at 50 digits."""
    with mpmath.workdps(50):
        return float(mpmath.mpf(10) ** 300 * mpmath.exp(x))


@pytest.mark.parametrize("order", [2, 5])
def test_lost_digits_are_warned_and_were_lost(order):
    code, out, err = run_cli("grad", "1e300*exp(x)", "--at", "x=-720", "--order", str(order),
                             "--format", "json")
    assert code == 0, err
    document = strict_json(out)
    shown = document["points"][0]["derivative"]
    assert abs(shown - _truth(-720.0)) > 1e-13 * _truth(-720.0)  # the warning is true
    lost = {"at": {"x": -720.0}, "function": f"d{order}/dx{order}", "kind": "lost",
            "why": LOST}
    assert lost in document["warnings"]
    assert f"adcli: warning: d{order}/dx{order} at 1 of 1 point: {LOST}" in warnings_in(err)


def test_only_the_points_that_lost_digits_are_counted():
    # exp(-710) = 4.5e-309 is below the normal range too; exp(-700) is not
    code, out, err = run_cli("grad", "1e300*exp(x)", "--grid", "x=-720:-700:3", "--order", "3",
                             "--format", "json")
    assert code == 0, err
    document = strict_json(out)
    lost = [w["at"]["x"] for w in document["warnings"] if w["kind"] == "lost"]
    assert lost == [-720.0, -710.0]
    assert document["points"][2]["derivative"] == pytest.approx(_truth(-700.0), rel=1e-14, abs=0)
    assert f"adcli: warning: d3/dx3 at 2 of 3 points: {LOST}" in warnings_in(err)


def test_a_point_rescaled_into_range_is_not_warned():
    code, out, err = run_cli("grad", "exp(x)", "--at", "x=-705", "--order", "20",
                             "--format", "json")
    assert code == 0, err
    document = strict_json(out)
    assert "warnings" not in document and warnings_in(err) == []
    with mpmath.workdps(50):
        truth = float(mpmath.exp(-705))
    assert document["points"][0]["derivative"] == pytest.approx(truth, rel=1e-14, abs=0)


def test_the_api_marks_the_points():
    result = adcli.parse("1e300*exp(x)").nth_derivative("x", 4, x=np.array([-720.0, 1.0]))
    np.testing.assert_array_equal(result.diagnostics.masks[("x^4", "lost")], [True, False])


def test_a_number_no_line_can_hold_is_not_shown_as_zero():
    # d5/dx5 x^5 log x = 120 log x + 274 (by hand): -54988.04 at 1e-200, where x^5 = 1e-1000
    # is 0 in float64 along any line and log's rows overflow: 0.0 was shown without a word
    code, out, err = run_cli("grad", "x^5*log(x)", "--at", "x=1e-200", "--order", "5",
                             "--format", "json")
    assert code == 0, err
    document = strict_json(out)
    assert document["points"][0]["derivative"] == "nan"
    assert [w["kind"] for w in document["warnings"]] == ["overflow"]


def test_a_zero_all_along_is_not_warned():
    # exp(-800) and all its derivatives are below 4.9e-324: 0 is their float64
    code, out, err = run_cli("grad", "exp(x)", "--at", "x=-800", "--order", "5",
                             "--format", "json")
    assert code == 0, err
    document = strict_json(out)
    assert document["points"][0]["derivative"] == 0.0 and "warnings" not in document


# The n-th derivative beyond float64's range: -120/x^6 at 1e-100 is -1.2e602, 720/x^7 7.2e702,
# 24/x^5 at 1e-200 2.4e1001, (105/32) x^(-9/2) at 1e-120 3.3e540. A line scaled by 2^-768
# took every high row to 0 in one step (1e-293 times 1e-131, no subnormal on the way): 0.0
# was shown with no warning, where overflow (inf, warned of) is the float64 answer.
@pytest.mark.parametrize("text, at, order, sign", [
    ("1/x", "1e-100", 5, -1), ("1/x", "1e-100", 6, 1), ("log(x)", "1e-200", 5, 1),
    ("sqrt(x)", "1e-120", 5, 1), ("sqrt(x)", "1e-200", 8, -1),
    # and where the output's row was nan along x + t: an inner function's row is compared
    # (cbrt's n-th derivative is (1/3)(1/3 - 1)...(1/3 - n + 1) x^(1/3 - n); 1/x^2's 9!/x^10)
    ("cbrt(x)", "1e-150", 6, -1), ("cbrt(x)", "1e-300", 5, 1), ("1/x^2", "1e-120", 8, 1)])
def test_an_overflowing_derivative_is_not_shown_as_zero(text, at, order, sign):
    code, out, err = run_cli("grad", text, "--at", f"x={at}", "--order", str(order),
                             "--format", "json")
    assert code == 0, err
    document = strict_json(out)
    assert document["points"][0]["derivative"] == ("-inf" if sign < 0 else "inf")  # (JSON)
    assert document["warnings"] and warnings_in(err)



def test_the_value_and_gradient_that_lost_digits_are_warned():
    # the same loss at order 1: f and f' 2.9e-12 off, once within the 1e-11 the long
    # double witness allowed (adcli.wider.AGREE, now 1e-13)
    code, out, err = run_cli("grad", "1e300*exp(x)", "--at", "x=-720", "--format", "json")
    assert code == 0, err
    document = strict_json(out)
    assert [(w["function"], w["kind"]) for w in document["warnings"]] == \
        [("value", "range"), ("d/dx", "range")]
    said = warnings_in(err)
    assert len(said) == 2 and all("it is 2.0322308024243e-13 where float64 gives "
                                  "2.0322308024184e-13" in line for line in said)
