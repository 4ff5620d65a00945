"""Taylor mode (``grad --order N``) where an argument is infinite or overflowed.

A term that is exactly 0 (a row of an argument that does not move, x + t's rows from t^2
on) times an infinite value is 0: nested reverse passes never form it, and Taylor mode must
not make nan of it. Each expected value is worked out by hand in the comment beside it and
checked against nested reverse passes (``conftest.nested_reverse``) too, except where those
passes themselves make nan of a 0·inf (said where it happens).
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import adcli
from conftest import nested_reverse, run_cli, strict_json
from adcli.taylor import jvp

INF, E = math.inf, math.e
ORDERS = (1, 2, 3, 4)
# These points overflow on purpose, and Expression.derivative says so (e^710 y at y = 0.5:
# "it is 1.117e308 where float64 gives inf", rightly): the numbers are what is tested here.
pytestmark = pytest.mark.filterwarnings("ignore::adcli.errors.AdcliWarning")


def taylor(text, at, name, order):
    """The order-th derivative in ``name`` by the public API (Taylor mode)."""
    return float(adcli.parse(text).derivative(name, order, **at))


def nested(text, at, name, order):
    return float(nested_reverse(adcli.parse(text), at, name, order))


# (expression, point, variable, derivatives of orders 1..4)
FIXED_INFINITE_FACTOR = [
    # e^x y along y: e^x (e^1000 overflows), then 0
    ("exp(x)*y", {"x": 1000.0, "y": 1.0}, "y", [INF, 0.0, 0.0, 0.0]),
    ("y*exp(x)", {"x": 1000.0, "y": 1.0}, "y", [INF, 0.0, 0.0, 0.0]),
    ("exp(x)*y", {"x": INF, "y": 1.0}, "y", [INF, 0.0, 0.0, 0.0]),
    ("x*y", {"x": INF, "y": 2.0}, "y", [INF, 0.0, 0.0, 0.0]),
    # y / e^x with e^-x = e^1000: y e^1000, then 0
    ("y/exp(x)", {"x": -1000.0, "y": 1.0}, "y", [INF, 0.0, 0.0, 0.0]),
    # e^x / y: e^x (-1)^k k! / y^(k+1)
    ("exp(x)/y", {"x": 1000.0, "y": 2.0}, "y", [-INF, INF, -INF, INF]),
    ("x/y", {"x": INF, "y": 1.0}, "y", [-INF, INF, -INF, INF]),
    # e^x y + y^2 and (e^x + y) y: e^x + 2y, 2, 0, 0
    ("exp(x)*y + y^2", {"x": 1000.0, "y": 1.0}, "y", [INF, 2.0, 0.0, 0.0]),
    ("(exp(x)+y)*y", {"x": 1000.0, "y": 1.0}, "y", [INF, 2.0, 0.0, 0.0]),
    # e^x y^2: 2 e^x y, 2 e^x, 0, 0; e^x y^3: ..., 6 e^x, 0
    ("exp(x)*y^2", {"x": 1000.0, "y": 1.0}, "y", [INF, INF, 0.0, 0.0]),
    ("exp(x)*y^3", {"x": 1000.0, "y": 1.0}, "y", [INF, INF, INF, 0.0]),
    # (e^x y)^2 = e^2x y^2: 2 e^2x y, 2 e^2x, 0, 0
    ("(exp(x)*y)^2", {"x": 1000.0, "y": 1.0}, "y", [INF, INF, 0.0, 0.0]),
]


@pytest.mark.parametrize("text, at, name, expected", FIXED_INFINITE_FACTOR)
def test_a_fixed_infinite_factor_leaves_the_polynomial_in_the_moving_one(text, at, name,
                                                                          expected):
    assert [taylor(text, at, name, k) for k in ORDERS] == expected
    assert [nested(text, at, name, k) for k in ORDERS] == expected


# The moving variable itself overflows a function: every derivative is that of e^x, inf.
OVERFLOWING = [
    ("exp(x)", {"x": 1000.0}, [INF] * 4),
    ("exp(x)", {"x": INF}, [INF] * 4),
    ("exp(x)*y", {"x": 1000.0, "y": 2.0}, [INF] * 4),           # y e^x
    ("exp(x)*y", {"x": 1000.0, "y": -2.0}, [-INF] * 4),         # y e^x, y < 0
    ("exp(x)*y", {"x": 710.0, "y": 0.5}, [INF] * 4),            # e^710 overflows already
    ("exp(x)+y", {"x": 1000.0, "y": 1.0}, [INF] * 4),
    ("exp(x)-y", {"x": 1000.0, "y": 1.0}, [INF] * 4),
    ("exp(x)/y", {"x": 1000.0, "y": 2.0}, [INF] * 4),           # e^x / y
    ("exp(x)^2", {"x": 1000.0}, [INF] * 4),                     # 2^k e^2x
    ("exp(2*x)*y", {"x": 1000.0, "y": 1.0}, [INF] * 4),
    ("sinh(x)*y", {"x": 1000.0, "y": 1.0}, [INF] * 4),          # cosh x, sinh x, ...
    ("exp(x)*sin(y)", {"x": 1000.0, "y": -1.0}, [-INF] * 4),    # sin(-1) e^x
    ("exp(x)*exp(y)", {"x": 1.0, "y": 1000.0}, [INF] * 4),      # along y below
]


@pytest.mark.parametrize("text, at, expected", OVERFLOWING)
def test_a_function_that_overflows_along_the_line_has_infinite_derivatives(text, at,
                                                                           expected):
    name = "y" if text == "exp(x)*exp(y)" else "x"
    assert [taylor(text, at, name, k) for k in ORDERS] == expected
    assert [nested(text, at, name, k) for k in ORDERS] == expected


# An infinite base under a whole power, and a finite factor beside it.
POWERS = [
    ("y^2", {"y": INF}, "y", [INF, 2.0, 0.0, 0.0]),                    # 2y, 2, 0, 0
    ("y^3", {"y": INF}, "y", [INF, INF, 6.0, 0.0]),                    # 3y^2, 6y, 6, 0
    ("exp(x)*y^2", {"x": 1.0, "y": INF}, "y", [INF, 2 * E, 0.0, 0.0]),
    ("exp(x)*y*y", {"x": 1.0, "y": INF}, "y", [INF, 2 * E, 0.0, 0.0]),
    ("exp(x)+y^2", {"x": 1.0, "y": INF}, "y", [INF, 2.0, 0.0, 0.0]),
    ("(exp(x)+y)*y", {"x": 1.0, "y": INF}, "y", [INF, 2.0, 0.0, 0.0]),
    # e sqrt(y): e (1/2)(-1/2)... y^(1/2 - k), all 0 at y = inf
    ("exp(x)*y^0.5", {"x": 1.0, "y": INF}, "y", [0.0, 0.0, 0.0, 0.0]),
]


@pytest.mark.parametrize("text, at, name, expected", POWERS)
def test_a_whole_power_of_an_infinite_base_is_its_polynomial(text, at, name, expected):
    assert [taylor(text, at, name, k) for k in ORDERS] == expected
    assert [nested(text, at, name, k) for k in ORDERS] == expected


def test_where_nested_reverse_makes_nan_of_the_zero_taylor_mode_does_not():
    # a^y at y = 1 has the second derivative y (y - 1) a^(y - 2) = 0 in a, exactly; the
    # nested passes multiply it by an infinite factor and give nan from order 2 on.
    # e^(xy) along x at x = 1000: y^k e^(xy), inf (the factor: a'^2 = e^2000).
    assert [taylor("exp(x)^y", {"x": 1000.0, "y": 1.0}, "x", k) for k in ORDERS] == [INF] * 4
    # x^y e^x along x at x = 1000, y = 1: (x + k) e^x, inf (the factor: e^x).
    assert [taylor("x^y*exp(x)", {"x": 1000.0, "y": 1.0}, "x", k) for k in ORDERS] == [INF] * 4


def test_x_times_exp_y_at_x_0_is_linear_along_x_and_nan_along_y():
    # f = x e^y at x = 0, y = 1000 is 0·inf: nan. Along x, f = x e^1000 is linear: its
    # slope is e^1000 = inf and every further derivative 0, as the nested passes find.
    # Along y, every derivative is x e^y = 0·inf again, with x = 0 a value (it could as
    # well be an underflow): nan, as f itself and as the nested passes.
    at = {"x": 0.0, "y": 1000.0}
    assert [taylor("x*exp(y)", at, "x", k) for k in ORDERS] == [INF, 0.0, 0.0, 0.0]
    assert [nested("x*exp(y)", at, "x", k) for k in ORDERS] == [INF, 0.0, 0.0, 0.0]
    assert all(math.isnan(taylor("x*exp(y)", at, "y", k)) for k in (0,) + ORDERS)
    assert all(math.isnan(nested("x*exp(y)", at, "y", k)) for k in ORDERS)


def test_several_points_at_once_are_each_right():
    # e^x y along y: e^x, then 0, at x = 1 as at x = 1000; along x: y e^x at each point.
    f = adcli.parse("exp(x)*y")
    x, y = np.array([1.0, 1000.0, 2.0]), 3.0
    along_y = f.derivative("y", 2, x=x, y=y)
    np.testing.assert_array_equal(along_y, [0.0, 0.0, 0.0])
    along_x = f.derivative("x", 3, x=x, y=y)
    np.testing.assert_allclose(along_x, [3 * math.e, INF, 3 * math.e ** 2], rtol=1e-15)
    np.testing.assert_allclose(along_x, nested_reverse(f, {"x": x, "y": y}, "x", 3),
                               rtol=1e-15)


def test_high_orders_stay_exact():
    # order 20: e^1000 = inf along x; e^x y along y is linear, 0 from order 2 on
    assert taylor("exp(x)", {"x": 1000.0}, "x", 20) == INF
    assert taylor("exp(x)*y", {"x": 1000.0, "y": 1.0}, "y", 20) == 0.0


@pytest.mark.parametrize("text", ["x^102.6", "(x^2)^51.3"])
def test_a_row_that_overflows_on_the_way_to_a_finite_derivative(text):
    # x^r at x = 1000, r = 102.6: f = 6.3e307, f^(k) = r (r-1) ... (r-k+1) x^(r-k), finite
    # (6.5e306, 6.6e305, ...); the recurrence's r·y_0 overflowed before its division by x.
    r, x = 102.6, 1000.0
    for k in ORDERS:
        exact = math.prod(r - i for i in range(k)) * x ** (r - k)
        assert math.isfinite(exact)
        assert taylor(text, {"x": x}, "x", k) == pytest.approx(exact, rel=1e-13)
        assert nested(text, {"x": x}, "x", k) == pytest.approx(exact, rel=1e-13)
    # forward mode (order 1, as trace --mode forward uses it) too
    tangent = float(jvp(adcli.parse(text), {"x": x}, {"x": 1.0}).tangent)
    assert tangent == pytest.approx(r * x ** (r - 1), rel=1e-13)


@pytest.mark.parametrize("text", ["log(exp(x)*y)", "sqrt(exp(x)*y)"])
def test_a_limit_zero_is_not_taken_as_exact(text):
    # log u and sqrt u at u = e^1000 y: their gradient 1/u, 1/(2 sqrt u) is 0 only as a
    # limit (1/inf), and u' = inf beside it makes the term count: d/dy log(e^x y) is 1/y,
    # not 0. Not known from the floats: nan, as the nested passes give (it was 0).
    at = {"x": 1000.0, "y": 1.0}
    for k in ORDERS:
        assert math.isnan(taylor(text, at, "y", k))
        assert math.isnan(nested(text, at, "y", k))


GUARDS = [
    # 1 + exp(y - 801) underflows to a flat 1 along y, but d/dy of e^x (1 + e^(y - 801))
    # is e^200 at x = 1000, y = 1: its 0 rows are not known to be 0
    ("exp(x)*(1 + exp(y - 801))", {"x": 1000.0, "y": 1.0}, "y"),
    # atanh(exp(-x^2)) at x = 0 is -log|x| + c: f'' = +inf, while the terms of exp(-x^2)'s
    # rows that are not 0 give -inf; its first row is 0 at x = 0 only
    ("atanh(exp(-x^2))", {"x": 0.0}, "x"),
]


@pytest.mark.parametrize("text, at, name", GUARDS)
def test_a_zero_that_may_not_be_exact_keeps_its_nan(text, at, name):
    for k in (2, 3, 4):
        assert math.isnan(taylor(text, at, name, k))
        assert math.isnan(nested(text, at, name, k))


def test_the_cli_gives_the_second_derivative_of_a_product_with_an_overflow():
    code, out, _ = run_cli("grad", "exp(x)*y", "--at", "x=1000,y=1", "--order", "2",
                           "--wrt", "y", "--format", "json")
    assert code == 0
    assert strict_json(out)["points"][0]["derivative"] == 0.0
    code, out, _ = run_cli("grad", "exp(x)*y", "--at", "x=1000,y=1", "--order", "2",
                           "--wrt", "x", "--format", "json")
    assert code == 0
    assert strict_json(out)["points"][0]["derivative"] == "inf"
