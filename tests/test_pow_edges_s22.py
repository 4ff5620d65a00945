"""x^y at an infinite exponent: what the warnings say there, and derivatives of order 2
and 3 (a Hessian, nested diff()) that were nan where the limit is known.

References are limits in y, worked out by hand at a fixed base x:
- x = 1: x^y is 1 for every y, so every derivative in y alone is 0 there; in x,
  d/dx x^y = y x^(y-1) = y, d2/dx2 = y (y-1), d2/dx dy = x^(y-1) (1 + y ln x) = 1 (ln 1 is
  0 for every y), d/dy of d2/dx2 = 2y - 1, and d/dx of x^y ln^k x is 0 for k >= 2 (every
  term keeps a factor ln x). At y = ±inf those are ±inf, 1, 0 and ±inf: the limits.
- 0 < x < 1, y -> inf (and x > 1, y -> -inf): x^(y-k) decays exponentially, its factors
  (polynomials in y, powers of ln x) grow at most polynomially: every derivative -> 0.
"""
import math
import warnings

import numpy as np
import pytest

import adcli
from conftest import run_cli, warnings_in
from test_pow_s21 import json_point, number

INF = math.inf


json_run = json_point   # (the twenty-first session's helper: point, warnings, stderr)


# ----- 1: the warning at 1^±inf names the exponent, not an overflow ---------------------

@pytest.mark.parametrize("y, slope", [("inf", INF), ("-inf", -INF)])
def test_1_to_an_infinite_power_is_not_called_an_overflow(y, slope):
    # d/dx x^y = y x^(y-1) = y at x = 1: ±inf because y is, not past float64's range
    point, said, err = json_run("grad", "x^y", f"x=1,y={y}")
    assert number(point["gradient"]["x"]) == slope
    assert number(point["gradient"]["y"]) == 0.0
    assert [(w["function"], w["kind"]) for w in said] == [("^", "derivative")]
    assert "1 to a power of ±inf or nan" in said[0]["why"]
    lines = warnings_in(err)
    assert len(lines) == 1 and "overflowed" not in lines[0]
    assert "the derivative of '^' is nan or inf" in lines[0]


@pytest.mark.parametrize("y", ["inf", "-inf"])
def test_the_hessian_at_1_to_an_infinite_power_has_its_limits(y):
    # d2/dx2 = y (y-1) -> inf, d2/dx dy = 1, d2/dy2 = ln^2 1 = 0
    point, said, err = json_run("hessian", "x^y", f"x=1,y={y}")
    assert [[number(h) for h in row] for row in point["hessian"]] == [[INF, 1.0], [1.0, 0.0]]
    assert {w["kind"] for w in said} == {"derivative"}
    assert not any("overflowed" in line for line in warnings_in(err))


def test_the_trace_at_1_to_the_inf_calls_it_a_derivative_not_an_overflow():
    code, _, err = run_cli("trace", "x^y", "--at", "x=1,y=inf")
    assert code == 0
    assert "'^' has a nan or inf derivative" in err
    assert "overflow" not in err


def test_a_finite_exponent_whose_slope_overflows_still_says_overflow():
    # 1e300 * 0.5 * (1e-20)^-0.5 = 5e309: beyond float64, at a finite exponent
    point, said, err = json_run("grad", "1e300*x^y", "x=1e-20,y=0.5")
    assert number(point["gradient"]["x"]) == INF
    assert ("^", "overflow") in [(w["function"], w["kind"]) for w in said]
    assert any("the derivative through '^' overflowed" in line for line in warnings_in(err))


# ----- 2: order 2 and 3 at an infinite exponent ---------------------------------------

@pytest.mark.parametrize("text, x, y, want", [
    # d/dy (y (y-1) x^(y-2)) = (2y - 1) x^(y-2) + y (y-1) x^(y-2) ln x
    ("diff(x^y, x, 2)", "0.5", "inf", 0.0),
    ("diff(x^y, x, 2)", "2", "-inf", 0.0),
    ("diff(x^y, x, 2)", "1", "inf", INF),
    ("diff(x^y, x, 2)", "1", "-inf", -INF),
    # d/dy (y (y-1) (y-2) x^(y-3))
    ("diff(x^y, x, 3)", "0.5", "inf", 0.0),
    ("diff(x^y, x, 3)", "2", "-inf", 0.0),
    # d2/dy2 (y (y-1) x^(y-2))
    ("diff(diff(x^y, x, 2), y)", "0.5", "inf", 0.0),
    ("diff(diff(x^y, x, 2), y)", "2", "-inf", 0.0),
])
def test_the_slope_in_y_of_a_higher_x_derivative_is_its_limit(text, x, y, want):
    point, _, _ = json_run("grad", text, f"x={x},y={y}")
    assert number(point["gradient"]["y"]) == want


@pytest.mark.parametrize("text, x, y, want", [
    # d/dx (x^(y-1) (1 + y ln x)) = (y-1) x^(y-2) (1 + y ln x) + y x^(y-2)
    ("diff(diff(x^y, x), y)", "0.5", "inf", 0.0),
    ("diff(diff(x^y, x), y)", "2", "-inf", 0.0),
    # d/dx (x^y ln^2 x) = x^(y-1) (y ln^2 x + 2 ln x): 0 at x = 1 for every y
    ("diff(x^y, y, 2)", "1", "inf", 0.0),
    ("diff(x^y, y, 2)", "1", "-inf", 0.0),
    ("diff(x^y, y, 3)", "1", "inf", 0.0),
])
def test_the_slope_in_x_of_a_mixed_or_y_derivative_is_its_limit(text, x, y, want):
    point, _, _ = json_run("grad", text, f"x={x},y={y}")
    assert number(point["gradient"]["x"]) == want


def test_the_api_hessian_over_several_points_takes_each_limit():
    # a finite point among them keeps its closed form: f = x^y at (2, 3): f_xx = y (y-1)
    # x^(y-2) = 12, f_xy = x^(y-1) (1 + y ln x) = 4 (1 + 3 ln 2), f_yy = x^y ln^2 x
    e = adcli.parse("x^y")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (the API warns of the nan/inf derivatives)
        got = e.hessian(x=np.array([1.0, 0.5, 2.0, 1.0]),
                        y=np.array([INF, INF, 3.0, -INF]))
    fxy = 4 * (1 + 3 * math.log(2))
    want = [[[INF, 1.0], [1.0, 0.0]], [[0.0, 0.0], [0.0, 0.0]],
            [[12.0, fxy], [fxy, 8 * math.log(2) ** 2]], [[INF, 1.0], [1.0, 0.0]]]
    for k in range(4):
        for i in range(2):
            for j in range(2):
                assert math.isclose(got[k, i, j], want[k][i][j], rel_tol=1e-14), (k, i, j)


def test_1_to_the_nan_keeps_its_nan_slopes():
    # y = nan is no limit: the slope in x, y 1^(y-1), and the mixed one, 1 + y ln 1, stay nan
    point, _, _ = json_run("hessian", "x^y", "x=1,y=nan")
    rows = [[number(h) for h in row] for row in point["hessian"]]
    assert math.isnan(rows[0][0]) and math.isnan(rows[0][1]) and math.isnan(rows[1][0])
    assert rows[1][1] == 0.0


# ----- 3: a nan in another variable's term does not hide a range warning ----------------
# (needs the adcli/wider.py change in /tmp/s22_wider.patch)

@pytest.mark.parametrize("y", ["-1", "1"])
def test_an_underflow_in_x_is_said_whatever_the_term_in_y_gives(y):
    # d/dx log(x^2) = 2/x = 2e200; float64's x^2 underflows to 0 and gives inf
    point, said, err = json_run("grad", "log(x^2) + sqrt(y)", f"x=1e-200,y={y}")
    assert number(point["gradient"]["x"]) == INF
    ranged = [w for w in said if w["kind"] == "range" and w["function"] == "d/dx"]
    assert len(ranged) == 1 and float(ranged[0]["long_double"]) == 2e200
    assert any(line.startswith("adcli: warning: d/dx at 1 of 1 point") and "2e+200" in line
               for line in warnings_in(err))


def test_a_nan_derivative_gets_no_long_double_number():
    # d/dy sqrt(y) at y = -1 is nan in long double too: no range warning is made of it
    _, said, _ = json_run("grad", "log(x^2) + sqrt(y)", "x=1e-200,y=-1")
    assert not [w for w in said if w["kind"] == "range" and w["function"] in ("d/dy", "value")]
