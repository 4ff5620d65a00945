"""Twenty-sixth session's numerical tester: pow's Taylor rows at a negative base, the kind
a quotient's overflow is warned as, and an overflow on the way to a finite number."""
import math

import mpmath as mp
import pytest

import adcli
from conftest import run_cli, strict_json, warnings_in


# ----- x^b with b varying, at a negative base: no real derivative, whatever a^b is -------

@pytest.mark.parametrize("x, order", [(x, order) for x in (-1e100, -2000.0, -4500.0)
                                      for order in (2, 3)] + [(-1e100, 6)])
def test_a_varying_exponent_at_a_negative_base_has_no_real_derivative(x, order):
    # (-1e100)^(-1e100) is an even integer's reciprocal power: 1e-(1e102), 0 in float64
    # rightly; x^x = e^(x log x) has no real log at x < 0, so no derivative (as hessian
    # and grad --order 1 say): the rows from 1 on were 0 here where the value underflowed
    assert float(x).is_integer() and float(x) % 2 == 0
    assert mp.power(mp.mpf(x), mp.mpf(x)) < mp.mpf(2) ** -1075   # 0 as a float, truly
    code, out, err = run_cli("grad", "x^x", "--at", f"x={x!r}", "--order", str(order),
                             "--format", "json")
    point = strict_json(out)["points"][0]
    assert point["value"] == 0.0
    assert point["derivative"] == "nan"
    assert code == 0 and err.strip()


def test_order_two_agrees_with_hessian_and_warns_the_same():
    code, out, err = run_cli("grad", "x^x", "--at", "x=-1e100", "--order", "2", "--format",
                             "json")
    warned = strict_json(out)["warnings"]
    assert [(w["function"], w["kind"]) for w in warned] == [("^", "derivative")]
    h_code, h_out, h_err = run_cli("hessian", "x^x", "--at", "x=-1e100", "--format", "json")
    assert strict_json(h_out)["points"][0]["hessian"] == [["nan"]]
    assert warnings_in(err) == warnings_in(h_err)


def test_a_constant_negative_base_to_a_varying_power_too():
    # (-2)^x at -2000: 2^-2000 underflows to 0; d/dx = (-2)^x ln(-2) is no real number
    e = adcli.parse("(-2)^x")
    for order in (1, 2, 5):
        got = e.nth_derivative("x", order, x=-2000.0).derivative
        assert math.isnan(float(got)), order


@pytest.mark.parametrize("text, x, order, exact", [
    # 2.3^x at -4500: 2.3^x ln(2.3)^2 = 1e-1628 (mpmath), 0 rightly: a positive base stays 0
    ("2.3^x", -4500.0, 2, lambda x: mp.power(2.3, x) * mp.log(2.3) ** 2),
    # x^x at 3, order 2: x^x ((1 + ln x)^2 + 1/x) (by hand)
    ("x^x", 3.0, 2, lambda x: x ** x * ((1 + mp.log(x)) ** 2 + 1 / x)),
    # x^(x+1) at 2.5, order 3, from mpmath's differentiation
    ("x^(x+1)", 2.5, 3, lambda x: mp.diff(lambda t: t ** (t + 1), x, 3)),
])
def test_a_positive_base_keeps_its_numbers(text, x, order, exact):
    got = float(adcli.parse(text).nth_derivative("x", order, x=x).derivative)
    want = float(exact(mp.mpf(x)))
    assert got == pytest.approx(want, rel=1e-12, abs=0)


def test_a_whole_exponent_that_does_not_move_keeps_a_negative_base():
    # x^4 at -1e100: 12 x^2 = 1.2e201 (by hand); the base's negative sign is no matter
    got = float(adcli.parse("x^4").nth_derivative("x", 2, x=-1e100).derivative)
    assert got == pytest.approx(1.2e201, rel=1e-14)


# ----- a quotient's derivative beyond the float range is an overflow, as x^-1's -------

@pytest.mark.parametrize("argv, exact", [
    (("1/x", "--at", "x=1e-20", "--order", "15"),
     lambda: -mp.factorial(15) / mp.mpf("1e-20") ** 16),          # -1.3e332
    (("1/x", "--at", "x=1e-200"), lambda: -1 / mp.mpf("1e-200") ** 2),  # -1e400
    (("1/x", "--at", "x=1e-200", "--order", "2"), lambda: 2 / mp.mpf("1e-200") ** 3),
    (("x^-1", "--at", "x=1e-20", "--order", "15"),
     lambda: -mp.factorial(15) / mp.mpf("1e-20") ** 16),
])
def test_a_quotient_overflowing_inside_its_domain_is_kind_overflow(argv, exact):
    assert abs(exact()) > mp.mpf(2) ** 1024     # an overflow of float64, nothing else
    code, out, err = run_cli("grad", *argv, "--format", "json")
    warned = strict_json(out)["warnings"]
    assert [w["kind"] for w in warned] == ["overflow"]
    assert "not an edge of its domain" in warned[0]["why"]
    assert "overflowed" in err


def test_a_quotients_rule_overflowing_on_the_way_is_an_overflow_said_finite_in_long_double():
    # e^(x-y) at x = y = -720 is 1, gradient (1, -1): exp(-720) is subnormal, and the rule's
    # 1/b overflows in float64, on the way
    code, out, err = run_cli("grad", "exp(x)/exp(y)", "--at", "x=-720,y=-720", "--format",
                             "json")
    doc = strict_json(out)
    assert doc["points"][0]["gradient"] == {"x": "inf", "y": "-inf"}
    kinds = {(w["function"], w["kind"]): w for w in doc["warnings"]}
    assert ("/", "overflow") in kinds and ("/", "derivative") not in kinds
    assert kinds[("d/dx", "range")]["long_double"] == 1.0
    assert kinds[("d/dy", "range")]["long_double"] == -1.0


def test_a_divisor_of_zero_keeps_its_own_words():
    # 1/x at 0: the value is inf, which is what is said (not an overflow)
    code, out, err = run_cli("grad", "1/x", "--at", "x=0", "--format", "json")
    assert [(w["function"], w["kind"]) for w in strict_json(out)["warnings"]] == \
        [("/", "value")]


# ----- an overflow on the way to a number long double finds finite -------------------

_AT = "x=-1.2345678901234567e-300,y=3.0000000000000004e-300"


def _mixed_partial():
    # f = theta r: f_x = -y/r + theta x/r, and f_xy = -1/r + y^2/r^3 + x^2/r^3 - theta x y/r^3
    # = -theta x y/r^3 (by hand), taken at the decimal points given, rounded to float64
    x, y = mp.mpf(-1.2345678901234567e-300), mp.mpf(3.0000000000000004e-300)
    r = mp.hypot(x, y)
    return -mp.atan2(y, x) * x * y / r ** 3


def test_an_overflow_on_the_way_says_long_double_finds_the_derivative_finite():
    truth = _mixed_partial()
    assert float(truth) == pytest.approx(2.1275328829953396e+299, rel=1e-13)
    code, out, err = run_cli("hessian", "atan2(y,x)*hypot(x,y)", "--at", _AT, "--format",
                             "plain")
    (overflow,) = [line for line in warnings_in(err) if "overflowed at" in line]
    assert overflow.startswith("adcli: warning: the derivative through atan2 overflowed")
    assert overflow.endswith("(not an edge of its domain); computed again in long double, "
                             "d2/dy dx and d2/dx dy are finite there (their own warnings "
                             "give the numbers)")
    assert any("2.1275328829953e+299 where float64 gives inf" in line
               for line in warnings_in(err))


def test_the_json_entry_of_such_an_overflow_says_so_too():
    code, out, err = run_cli("hessian", "atan2(y,x)*hypot(x,y)", "--at", _AT, "--format",
                             "json")
    warned = strict_json(out)["warnings"]
    (overflow,) = [w for w in warned if w["kind"] == "overflow"]
    assert "computed again in long double, d2/dy dx and d2/dx dy are finite there" in \
        overflow["why"]
    wide = [w["long_double"] for w in warned if w["kind"] == "range"]
    assert wide == [pytest.approx(float(_mixed_partial()), rel=1e-13)] * 2


def test_the_api_warning_says_it_as_the_cli_does():
    with pytest.warns(adcli.AdcliWarning) as caught:
        adcli.parse("atan2(y,x)*hypot(x,y)").hessian(x=-1.2345678901234567e-300,
                                                     y=3.0000000000000004e-300)
    said = [str(w.message) for w in caught if "overflowed at" in str(w.message)]
    assert len(said) == 1 and said[0].endswith(
        "computed again in long double, d2/dy dx and d2/dx dy are finite there (their own "
        "warnings give the numbers)")


def test_an_overflow_whose_truth_is_beyond_the_range_is_not_said_finite():
    # 1/x at 1e-200: -1/x^2 = -1e400 really overflows; over a grid with x = 1, where
    # nothing does, only the one point is counted and nothing is said finite
    assert -1 / mp.mpf("1e-200") ** 2 < -mp.mpf(2) ** 1024
    code, out, err = run_cli("grad", "1/x", "--grid", "x=1e-200:1:2", "--format", "plain")
    (overflow,) = warnings_in(err)
    assert "overflowed at 1 of 2 points" in overflow and "long double" not in overflow


def test_only_the_points_found_finite_are_counted_so():
    # exp(x)/exp(y) + 1/z: at z = 1e-200 d/dz = -1e400 truly overflows, at z = 1 not; '/'
    # overflows on the way at both points for d/dx, d/dy (exp(-720) subnormal): those two
    # are named finite, d/dz (-1e400 at the first point) is not
    code, out, err = run_cli("grad", "exp(x)/exp(y) + 1/z", "--at", "x=-720,y=-720",
                             "--grid", "z=1e-200:1:2", "--format", "plain")
    (overflow,) = [line for line in warnings_in(err) if "overflowed at" in line]
    assert "overflowed at 2 of 2 points" in overflow
    assert "d/dx and d/dy are finite there" in overflow and "d/dz" not in overflow
    # (d/dz's inf at z = 1e-200 is true: nothing says this overflow was float64's alone)
    assert "float64 only" not in overflow and "on the way" not in overflow


# ----- above long double's orders, a warning of the derivative is not dropped -----------


@pytest.mark.parametrize("order", [5])    # (6 and 12 alike, 2 s and 12 s: x^x's rule is generic)
def test_a_derivative_warning_above_long_doubles_orders_stays(order):
    # x^x has no real derivative at a negative base; long double's run judges the value
    # only above order 4, so its settling said nothing of the derivative (the '^' warning
    # was dropped, leaving "a result is nan or inf (from a value that is nan or inf)")
    code, out, err = run_cli("grad", "x^x", "--at", "x=-1e100", "--order", str(order),
                             "--format", "json")
    assert code == 0
    point = strict_json(out)["points"][0]
    assert (point["value"], point["derivative"]) == (0.0, "nan")
    assert ("^", "derivative") in {(w["function"], w["kind"])
                                   for w in strict_json(out)["warnings"]}


def test_an_infinite_derivative_above_long_doubles_orders_is_warned():
    # sqrt(x^2 + y^2) at x = y = 1e-200: x^2 + y^2 underflows to 0, so float64's sixth
    # derivative is -inf (the truth, r^-5 times a polynomial, is finite but beyond the
    # range); the value's range warning alone said nothing of it
    code, out, err = run_cli("grad", "sqrt(x^2+y^2)", "--at", "x=1e-200,y=1e-200",
                             "--order", "6", "--wrt", "x", "--format", "json")
    assert code == 0
    result = strict_json(out)
    assert result["points"][0]["derivative"] == "-inf"
    assert ("sqrt", "derivative") in {(w["function"], w["kind"]) for w in result["warnings"]}


def test_the_reverse_pass_has_no_slope_in_the_exponent_at_a_negative_base_either():
    # x^(x+202) at -1e-200: (-1e-200)^202 underflows to 0, and d/db a^b = a^b ln a has no
    # real value at a < 0; the reverse pass pinned it to 0 (as for 0^b, flat in b), so
    # grad showed 0 unwarned where hessian and --order 2 say nan
    code, out, err = run_cli("grad", "x^(x+202)", "--at", "x=-1e-200", "--format", "json")
    result = strict_json(out)
    assert result["points"][0]["gradient"] == {"x": "nan"}
    assert ("^", "derivative") in {(w["function"], w["kind"]) for w in result["warnings"]}
    # 0^y at y = 2 keeps its convention: flat in the exponent, d/dy = 0; d/dx = 2x = 0
    code, out, err = run_cli("grad", "x^y", "--at", "x=0,y=2", "--format", "json")
    assert strict_json(out)["points"][0]["gradient"] == {"x": 0.0, "y": 0.0} and err == ""
