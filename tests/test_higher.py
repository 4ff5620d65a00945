"""Higher derivatives: Hessians, n-th derivatives and Jacobians, from the API and the CLI.

Every expected number comes from a closed form derived by hand in the comment beside it,
from an identity (symmetry, Jacobian rows = gradients), or from central differences of
the AD gradient. Nothing here is pasted from adcli's own output.
"""
from __future__ import annotations

import json
import math
import warnings
from math import cos, exp, log, sin

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.polynomial import hermite

import adcli
from adcli.cli import main


# ----- helpers --------------------------------------------------------------------------

def cli(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def cli_json(capsys, *args):
    code, out, err = cli(capsys, *args, "--format", "json")
    assert code == 0, err
    return json.loads(out)


def close(actual, expected, rtol=1e-12, atol=0.0):
    np.testing.assert_allclose(np.asarray(actual, dtype=float), np.asarray(expected, dtype=float),
                               rtol=rtol, atol=atol)


# ----- Hessians against closed forms ----------------------------------------------------

def _h_xxy_siny(x, y):
    # f = x^2 y + sin y: f_x = 2xy, f_y = x^2 + cos y
    # f_xx = 2y, f_xy = 2x, f_yy = -sin y
    return [[2 * y, 2 * x], [2 * x, -sin(y)]]


def _h_exp_xy(x, y):
    # f = e^{xy}: f_x = y e^{xy}, f_y = x e^{xy}
    # f_xx = y^2 e^{xy}, f_xy = e^{xy} + xy e^{xy} = (1 + xy) e^{xy}, f_yy = x^2 e^{xy}
    E = exp(x * y)
    return [[y * y * E, (1 + x * y) * E], [(1 + x * y) * E, x * x * E]]


def _h_log_r2(x, y):
    # f = log(r2), r2 = x^2 + y^2: f_x = 2x/r2
    # f_xx = 2/r2 - 4x^2/r2^2 = 2(y^2 - x^2)/r2^2, f_xy = -4xy/r2^2, f_yy = 2(x^2 - y^2)/r2^2
    r2 = x * x + y * y
    return [[2 * (y * y - x * x) / r2**2, -4 * x * y / r2**2],
            [-4 * x * y / r2**2, 2 * (x * x - y * y) / r2**2]]


def _h_x3y2z(x, y, z):
    # f = x^3 y^2 z: f_x = 3x^2 y^2 z, f_y = 2x^3 y z, f_z = x^3 y^2
    # f_xx = 6x y^2 z, f_xy = 6x^2 y z, f_xz = 3x^2 y^2, f_yy = 2x^3 z, f_yz = 2x^3 y, f_zz = 0
    return [[6 * x * y * y * z, 6 * x * x * y * z, 3 * x * x * y * y],
            [6 * x * x * y * z, 2 * x**3 * z, 2 * x**3 * y],
            [3 * x * x * y * y, 2 * x**3 * y, 0.0]]


def _h_sinx_expyz(x, y, z):
    # f = sin x e^{yz}: f_x = cos x e^{yz}, f_y = z sin x e^{yz}, f_z = y sin x e^{yz}
    # f_xx = -sin x E, f_xy = z cos x E, f_xz = y cos x E,
    # f_yy = z^2 sin x E, f_yz = sin x (E + yz E) = (1 + yz) sin x E, f_zz = y^2 sin x E
    E = exp(y * z)
    return [[-sin(x) * E, z * cos(x) * E, y * cos(x) * E],
            [z * cos(x) * E, z * z * sin(x) * E, (1 + y * z) * sin(x) * E],
            [y * cos(x) * E, (1 + y * z) * sin(x) * E, y * y * sin(x) * E]]


def _h_x_over_y(x, y):
    # f = x/y: f_x = 1/y, f_y = -x/y^2; f_xx = 0, f_xy = -1/y^2, f_yy = 2x/y^3
    return [[0.0, -1 / y**2], [-1 / y**2, 2 * x / y**3]]


def _h_x_pow_y(x, y):
    # f = x^y (x > 0): f_x = y x^{y-1}, f_y = x^y ln x
    # f_xx = y(y-1) x^{y-2}, f_xy = x^{y-1} + y x^{y-1} ln x = x^{y-1}(1 + y ln x),
    # f_yy = x^y (ln x)^2
    return [[y * (y - 1) * x**(y - 2), x**(y - 1) * (1 + y * log(x))],
            [x**(y - 1) * (1 + y * log(x)), x**y * log(x) ** 2]]


def _h_atan2(y, x):
    # f = atan2(y, x) = angle of (x, y): f_y = x/r2, f_x = -y/r2 (r2 = x^2 + y^2)
    # f_yy = -2xy/r2^2, f_yx = (r2 - 2x^2)/r2^2 = (y^2 - x^2)/r2^2, f_xx = 2xy/r2^2
    # Variables in order of first appearance: y, then x.
    r2 = x * x + y * y
    return [[-2 * x * y / r2**2, (y * y - x * x) / r2**2],
            [(y * y - x * x) / r2**2, 2 * x * y / r2**2]]


def _h_hypot(x, y):
    # f = r = sqrt(x^2 + y^2): f_x = x/r; f_xx = (r^2 - x^2)/r^3 = y^2/r^3, f_xy = -xy/r^3,
    # f_yy = x^2/r^3
    r = math.hypot(x, y)
    return [[y * y / r**3, -x * y / r**3], [-x * y / r**3, x * x / r**3]]


def _h_exp(x):
    # f = e^x: every derivative is e^x
    return [[exp(x)]]


def _h_one_over_x(x):
    # f = 1/x: f' = -1/x^2, f'' = 2/x^3
    return [[2 / x**3]]


PAIRS = [(0.7, 1.3), (-1.2, 0.4), (2.0, -0.5)]
POSITIVE_PAIRS = [(0.7, 1.3), (1.9, 0.4), (2.5, -0.5)]
TRIPLES = [(0.7, 1.3, -0.4), (-1.2, 0.4, 2.0), (1.5, -0.8, 0.9)]

HESSIANS = [
    # (expression, variables in order, closed form, points)
    ("x^2*y + sin(y)", ("x", "y"), _h_xxy_siny, PAIRS),
    ("exp(x*y)", ("x", "y"), _h_exp_xy, PAIRS),
    ("log(x^2+y^2)", ("x", "y"), _h_log_r2, PAIRS),
    ("x^3*y^2*z", ("x", "y", "z"), _h_x3y2z, TRIPLES),
    ("sin(x)*exp(y*z)", ("x", "y", "z"), _h_sinx_expyz, TRIPLES),
    ("x/y", ("x", "y"), _h_x_over_y, PAIRS),
    ("x^y", ("x", "y"), _h_x_pow_y, POSITIVE_PAIRS),
    # y = 0 exactly: f_xy = x^{-1}, f_yy = (ln x)^2, as anywhere else (x^0 = 1 only at y = 0)
    ("x^y", ("x", "y"), _h_x_pow_y, [(2.0, 0.0), (0.5, 0.0)]),
    ("atan2(y, x)", ("y", "x"), _h_atan2, [(1.3, 0.7), (0.4, -1.2), (-0.5, 2.0)]),
    ("hypot(x, y)", ("x", "y"), _h_hypot, PAIRS),
    ("exp(x)", ("x",), _h_exp, [(0.0,), (1.5,), (-2.0,)]),
    ("1/x", ("x",), _h_one_over_x, [(2.0,), (0.5,), (-1.5,)]),
]
HESSIAN_IDS = [text + (" at y=0" if points[0][1:] == (0.0,) else "")
               for text, _, _, points in HESSIANS]


@pytest.mark.parametrize("text, names, closed_form, points", HESSIANS, ids=HESSIAN_IDS)
def test_hessian_matches_closed_form(text, names, closed_form, points):
    f = adcli.parse(text)
    assert f.variables == names
    for point in points:
        at = dict(zip(names, point))
        h = f.hessian(**at)
        assert h.shape == (len(names), len(names))
        close(h, closed_form(*point))


@pytest.mark.parametrize("text, names, closed_form, points", HESSIANS, ids=HESSIAN_IDS)
def test_hessian_is_symmetric_to_rounding(text, names, closed_form, points):
    f = adcli.parse(text)
    for point in points:
        h = f.hessian(**dict(zip(names, point)))
        scale = 1.0 + np.max(np.abs(h))
        assert np.max(np.abs(h - np.swapaxes(h, -1, -2))) <= 1e-13 * scale, h


@pytest.mark.parametrize("text, names, closed_form, points", HESSIANS, ids=HESSIAN_IDS)
def test_hessian_at_many_points_at_once_equals_point_by_point(text, names, closed_form, points):
    f = adcli.parse(text)
    arrays = {n: np.array([p[i] for p in points]) for i, n in enumerate(names)}
    together = f.hessian(**arrays)
    assert together.shape == (len(points), len(names), len(names))
    for m, point in enumerate(points):
        close(together[m], f.hessian(**dict(zip(names, point))), rtol=1e-14, atol=0)
        close(together[m], closed_form(*point))


def test_hessian_broadcasts_a_scalar_parameter_and_a_grid():
    # f = x^2 y + sin y on x in a column, y in a row: one Hessian per (x, y) pair
    f = adcli.parse("x^2*y + sin(y)")
    xs, ys = np.array([[-1.0], [0.5], [2.0]]), np.array([[0.0, 1.0, -2.5, 3.0]])
    h = f.hessian(x=xs, y=ys)
    assert h.shape == (3, 4, 2, 2)
    for i in range(3):
        for j in range(4):
            close(h[i, j], _h_xxy_siny(xs[i, 0], ys[0, j]))
    # a scalar y against an array of x
    h = f.hessian(x=xs[:, 0], y=2.0)
    assert h.shape == (3, 2, 2)
    close(h, [_h_xxy_siny(x, 2.0) for x in xs[:, 0]])


def test_hessian_wrt_orders_rows_and_columns():
    # [[f_yy, f_yx], [f_xy, f_xx]] for f = x^2 y + sin y
    f = adcli.parse("x^2*y + sin(y)")
    x, y = 0.8, -1.1
    close(f.hessian(wrt=["y", "x"], x=x, y=y), [[-sin(y), 2 * x], [2 * x, 2 * y]])
    close(f.hessian(wrt=["x"], x=x, y=y), [[2 * y]])


def test_hessian_wrt_a_variable_not_in_the_expression_gives_a_zero_row_and_column():
    f = adcli.parse("x^2*y + sin(y)")
    x, y = 0.8, -1.1
    with pytest.warns(adcli.AdcliWarning, match="'w' does not appear"):
        h = f.hessian(wrt=["x", "w", "y"], x=x, y=y)
    assert h.shape == (3, 3)
    assert np.all(h[1, :] == 0) and np.all(h[:, 1] == 0)
    close(h[np.ix_([0, 2], [0, 2])], _h_xxy_siny(x, y))


def test_hessian_of_expressions_linear_in_everything_is_zero():
    # f = 3x - 2y + 1: every second partial is exactly 0
    h = adcli.parse("3*x - 2*y + 1").hessian(x=np.array([0.0, 4.0]), y=1.0)
    assert h.shape == (2, 2, 2) and np.all(h == 0)


# ----- Hessians against central differences of the AD gradient --------------------------

FD_CASES = [
    ("x^2*y + sin(y)", {"x": (-2, 2), "y": (-2, 2)}),
    ("exp(x*y)", {"x": (-1.5, 1.5), "y": (-1.5, 1.5)}),
    ("log(x^2+y^2)", {"x": (0.3, 2), "y": (0.3, 2)}),
    ("x^3*y^2*z", {"x": (-1.5, 1.5), "y": (-1.5, 1.5), "z": (-1.5, 1.5)}),
    ("sin(x)*exp(y*z) + x/y", {"x": (-2, 2), "y": (0.5, 2), "z": (-1, 1)}),
    ("x^y", {"x": (0.3, 3), "y": (-2, 2)}),
    ("atan2(y, x) + hypot(x, y)", {"x": (0.3, 2), "y": (-2, 2)}),
    ("tanh(x*y)*sqrt(z) + sigmoid(x - z)", {"x": (-2, 2), "y": (-2, 2), "z": (0.3, 3)}),
    ("exp(x)", {"x": (-2, 2)}),
]


@pytest.mark.filterwarnings("ignore::adcli.errors.AdcliWarning")  # (kinks, edges: said)
@pytest.mark.parametrize("text, box", FD_CASES, ids=[case[0] for case in FD_CASES])
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_hessian_matches_central_differences_of_the_ad_gradient(text, box, data):
    f = adcli.parse(text)
    names = f.variables
    point = {n: data.draw(st.floats(*box[n]), label=n) for n in names}
    h = f.hessian(**point)
    for j, name in enumerate(names):
        # H[:, j] = d(grad)/d(name) ~ (grad(p + h e_j) - grad(p - h e_j)) / 2h, error O(h^2)
        step = 1e-5 * max(1.0, abs(point[name]))
        up = f.grad(**{**point, name: point[name] + step})
        down = f.grad(**{**point, name: point[name] - step})
        column = [(up[n] - down[n]) / (2 * step) for n in names]
        scale = 1.0 + max(abs(float(v)) for v in up.values()) + np.max(np.abs(h))
        # absolute slack on the scale: the differences cannot see entries far below it
        close(h[:, j], column, rtol=1e-6, atol=1e-6 * scale)


# ----- n-th derivatives against closed forms --------------------------------------------

def _sin_n(n, x):
    # sin' = cos, sin'' = -sin, sin''' = -cos, sin'''' = sin: a cycle of 4
    return [cos(x), -sin(x), -cos(x), sin(x)][(n - 1) % 4]


def _cos_n(n, x):
    # cos' = -sin, cos'' = -cos, cos''' = sin, cos'''' = cos
    return [-sin(x), -cos(x), sin(x), cos(x)][(n - 1) % 4]


def _exp_ax(a):
    # d^n/dx^n e^{ax} = a^n e^{ax}
    return lambda n, x: a**n * exp(a * x)


def _power(k):
    # d^n/dx^n x^k = k (k-1) ... (k-n+1) x^{k-n} (a falling factorial), 0 once n > k
    return lambda n, x: math.perm(k, n) * x ** (k - n) if n <= k else 0.0


def _log_n(n, x):
    # log' = 1/x = x^{-1}; each further derivative multiplies by (-m) for x^{-m}:
    # d^n/dx^n log x = (-1)^{n-1} (n-1)! / x^n
    return (-1) ** (n - 1) * math.factorial(n - 1) / x**n


def _reciprocal_n(n, x):
    # d^n/dx^n (1+x)^{-1} = (-1)(-2)...(-n) (1+x)^{-1-n} = (-1)^n n! / (1+x)^{n+1}
    return (-1) ** n * math.factorial(n) / (1 + x) ** (n + 1)


def _gaussian_n(n, x):
    # Rodrigues: H_n(x) = (-1)^n e^{x^2} d^n/dx^n e^{-x^2}, so d^n/dx^n e^{-x^2} = (-1)^n H_n(x) e^{-x^2}
    # (physicists' Hermite polynomials, numpy.polynomial.hermite)
    return (-1) ** n * hermite.hermval(x, [0] * n + [1]) * exp(-x * x)


DERIVATIVES = [
    # (expression, closed form (n, x) -> d^n f / dx^n, points)
    ("sin(x)", _sin_n, [-2.0, 0.3, 1.0, 4.0]),
    ("cos(x)", _cos_n, [-2.0, 0.3, 1.0, 4.0]),
    ("exp(1.5*x)", _exp_ax(1.5), [-1.0, 0.0, 0.7]),
    ("exp(-2*x)", _exp_ax(-2.0), [-1.0, 0.0, 0.7]),
    ("x^0", _power(0), [-1.5, 0.5, 2.0]),
    ("x^1", _power(1), [-1.5, 0.5, 2.0]),
    ("x^2", _power(2), [-1.5, 0.5, 2.0]),
    ("x^3", _power(3), [-1.5, 0.5, 2.0]),
    ("x^5", _power(5), [-1.5, 0.5, 2.0]),
    ("x^8", _power(8), [-1.5, 0.5, 2.0]),
    ("log(x)", _log_n, [0.3, 1.0, 2.5]),
    ("1/(1+x)", _reciprocal_n, [-0.5, 0.0, 1.5]),
    ("exp(-x^2)", _gaussian_n, [-1.1, 0.6, 1.7]),
]
ORDERS = range(1, 9)


@pytest.mark.parametrize("text, closed_form, xs", DERIVATIVES, ids=[c[0] for c in DERIVATIVES])
@pytest.mark.parametrize("n", ORDERS)
def test_nth_derivative_matches_closed_form(text, closed_form, xs, n):
    f = adcli.parse(text)
    for x in xs:
        expected = closed_form(n, x)
        close(f.derivative(order=n, x=x), expected, rtol=1e-11, atol=1e-12)


@pytest.mark.parametrize("text, closed_form, xs", DERIVATIVES, ids=[c[0] for c in DERIVATIVES])
def test_nth_derivative_is_vectorised_over_points(text, closed_form, xs):
    f = adcli.parse(text)
    points = np.array(xs)
    for n in ORDERS:
        d = f.derivative(order=n, x=points)
        assert d.shape == points.shape
        close(d, [closed_form(n, x) for x in xs], rtol=1e-11, atol=1e-12)


@pytest.mark.parametrize("k", [1, 2, 3, 4])
@pytest.mark.parametrize("n", ORDERS)
def test_nth_derivative_of_a_monomial_at_zero_is_k_factorial_or_zero(k, n):
    # Taylor's theorem: at 0, d^n/dx^n x^k is k! when n == k and 0 otherwise
    d = adcli.parse(f"x^{k}").derivative(order=n, x=0.0)
    assert float(d) == (math.factorial(k) if n == k else 0.0)


@pytest.mark.parametrize("n", ORDERS)
def test_nth_derivative_of_the_gaussian_at_zero(n):
    # e^{-x^2} = sum_m (-1)^m x^{2m} / m!, so at 0 the n-th derivative is
    # n! (-1)^{n/2} / (n/2)! for even n and 0 for odd n (1, -2, 12, -120, 1680 for n = 0..8)
    expected = 0.0 if n % 2 else math.factorial(n) * (-1) ** (n // 2) / math.factorial(n // 2)
    close(adcli.parse("exp(-x^2)").derivative(order=n, x=0.0), expected)


def test_nth_derivative_with_a_parameter_broadcasts():
    # d^n/dx^n e^{ax} = a^n e^{ax}, for a grid of a against a grid of x
    f = adcli.parse("exp(a*x)")
    a = np.array([[-1.5], [0.5], [2.0]])
    x = np.array([[-1.0, 0.0, 0.25, 1.0]])
    for n in ORDERS:
        d = f.derivative("x", order=n, a=a, x=x)
        assert d.shape == (3, 4)
        close(d, a**n * np.exp(a * x))
    # with respect to a instead: d^n/da^n e^{ax} = x^n e^{ax}
    close(f.derivative("a", order=3, a=0.5, x=np.array([-1.0, 2.0])),
          np.array([-1.0, 8.0]) * np.exp(0.5 * np.array([-1.0, 2.0])))


def test_first_derivative_through_derivative_equals_the_gradient():
    # derivative(order=1) is the gradient entry: x' = 1, (x^3)' = 3x^2
    assert float(adcli.parse("x").derivative(order=1, x=2.0)) == 1.0
    assert float(adcli.parse("x^3").derivative(order=1, x=2.0)) == 12.0
    assert float(adcli.parse("x*y").derivative("x", order=1, x=2.0, y=5.0)) == 5.0


def test_derivative_in_a_variable_the_expression_does_not_use_is_zero():
    with pytest.warns(adcli.AdcliWarning, match="^name: 'y' does not appear"):
        assert float(adcli.parse("x^2").derivative("y", order=2, x=1.0)) == 0.0


def test_order_zero_is_the_value():
    assert float(adcli.parse("x^3").derivative(order=0, x=2.0)) == 8.0


# ----- grad --order through the CLI ------------------------------------------------------

def test_order_json_contract(capsys):
    # d^3/dx^3 sin x = -cos x
    doc = cli_json(capsys, "grad", "sin(x)", "--at", "x=0.3", "--order", "3")
    assert set(doc) == {"expression", "parsed", "variables", "points"}
    assert doc["expression"] == "sin(x)" and doc["variables"] == ["x"]
    (point,) = doc["points"]
    # README: "order" and "derivative" are there instead of "gradient"
    assert set(point) == {"at", "value", "order", "derivative"}
    assert point["at"] == {"x": 0.3}
    assert point["order"] == 3
    close(point["value"], sin(0.3), atol=0)
    close(point["derivative"], -cos(0.3), atol=0)


@pytest.mark.parametrize("text, closed_form, xs", DERIVATIVES, ids=[c[0] for c in DERIVATIVES])
@pytest.mark.parametrize("n", [2, 5, 8])
def test_order_over_many_points_through_the_cli(capsys, text, closed_form, xs, n):
    lo, hi = min(xs), max(xs)  # each case's points span an interval safe for it
    doc = cli_json(capsys, "grad", text, "--grid", f"x={lo}:{hi}:7", "--order", str(n))
    assert len(doc["points"]) == 7
    for point in doc["points"]:
        x = point["at"]["x"]
        assert point["order"] == n
        close(point["derivative"], closed_form(n, x), rtol=1e-11, atol=1e-12)


@pytest.mark.parametrize("wrt, n, closed_form", [
    # f = x^3 y^2: f_x = 3x^2 y^2, f_xx = 6x y^2, f_xxx = 6y^2, f_xxxx = 0
    #              f_y = 2x^3 y,  f_yy = 2x^3,  f_yyy = 0
    ("x", 2, lambda x, y: 6 * x * y * y),
    ("x", 3, lambda x, y: 6 * y * y),
    ("x", 4, lambda x, y: 0.0),
    ("y", 2, lambda x, y: 2 * x**3),
    ("y", 3, lambda x, y: 0.0),
])
def test_order_wrt_chooses_the_variable(capsys, wrt, n, closed_form):
    doc = cli_json(capsys, "grad", "x^3*y^2", "--at", "x=1.5,y=-2", "--order", str(n),
                   "--wrt", wrt)
    assert doc["variables"] == [wrt]
    (point,) = doc["points"]
    assert point["at"] == {"x": 1.5, "y": -2.0}
    assert point["value"] == 1.5**3 * 4
    assert point["order"] == n
    close(point["derivative"], closed_form(1.5, -2.0))


def test_order_with_several_variables_and_no_wrt_is_a_usage_error(capsys):
    code, out, err = cli(capsys, "grad", "x*y", "--at", "x=1,y=2", "--order", "2")
    assert code == 2 and out == ""
    assert "--wrt" in err


def test_order_with_two_wrt_names_is_a_usage_error(capsys):
    code, out, err = cli(capsys, "grad", "x*y", "--at", "x=1,y=2", "--order", "2", "--wrt", "x,y")
    assert code == 2 and out == ""


def test_order_csv_and_plain(capsys):
    # f = x^4 at x = 2 and 3: f''' = 24x -> 48, 72
    code, out, _ = cli(capsys, "grad", "x^4", "--at", "x=2", "--order", "3", "--format", "csv")
    assert code == 0
    header, row = out.splitlines()
    assert header == "x,f,d3f/dx^3"   # "^": x1 would read d3f/dx1^3, not d3f/dx13
    assert [float(v) for v in row.split(",")] == [2.0, 16.0, 48.0]
    code, out, _ = cli(capsys, "grad", "x^4", "--grid", "x=2:3:2", "--order", "3",
                       "--format", "plain")
    assert code == 0
    assert [[float(v) for v in line.split()] for line in out.splitlines()] == \
        [[16.0, 48.0], [81.0, 72.0]]


def test_order_table_names_the_derivative(capsys):
    code, out, _ = cli(capsys, "grad", "x^4", "--at", "x=2", "--order", "3")
    assert code == 0
    assert "d³f/dx³" in out and "48.0" in out


# ----- hessian through the CLI -----------------------------------------------------------

def test_hessian_json_contract_issue_example(capsys):
    # f = x^2 y at (1, 2): f = 2, grad = (2xy, x^2) = (4, 1), H = [[2y, 2x], [2x, 0]]
    doc = cli_json(capsys, "hessian", "x^2*y", "--at", "x=1,y=2")
    assert set(doc) == {"expression", "parsed", "variables", "points"}
    assert doc["expression"] == "x^2*y" and doc["variables"] == ["x", "y"]
    (point,) = doc["points"]
    assert set(point) == {"at", "value", "gradient", "hessian"}
    assert point["at"] == {"x": 1.0, "y": 2.0}
    assert point["value"] == 2.0
    assert point["gradient"] == {"x": 4.0, "y": 1.0}
    assert point["hessian"] == [[4.0, 2.0], [2.0, 0.0]]


@pytest.mark.parametrize("text, closed_form", [
    ("x^2*y + sin(y)", _h_xxy_siny),
    ("exp(x*y)", _h_exp_xy),
    ("x/y", _h_x_over_y),
])
def test_hessian_json_over_a_grid_matches_closed_form(capsys, text, closed_form):
    doc = cli_json(capsys, "hessian", text, "--grid", "x=-1:1:3", "--grid", "y=0.5:2:4")
    assert doc["variables"] == ["x", "y"]
    assert len(doc["points"]) == 12
    for point in doc["points"]:
        x, y = point["at"]["x"], point["at"]["y"]
        h = np.array(point["hessian"])
        close(h, closed_form(x, y))
        close(h, h.T, rtol=1e-13, atol=1e-13)
        close(point["value"], float(adcli.parse(text).value(x=x, y=y)), rtol=0, atol=0)


def test_hessian_json_rows_and_columns_follow_wrt(capsys):
    # f = x^2 y + sin y at (1, 2) in the order (y, x): [[f_yy, f_yx], [f_xy, f_xx]]
    doc = cli_json(capsys, "hessian", "x^2*y + sin(y)", "--at", "x=1,y=2", "--wrt", "y,x")
    assert doc["variables"] == ["y", "x"]
    (point,) = doc["points"]
    assert list(point["gradient"]) == ["y", "x"]
    close(point["hessian"], [[-sin(2.0), 2.0], [2.0, 4.0]])


def test_hessian_cli_wrt_an_unused_variable_gives_zeros_and_a_warning(capsys):
    code, out, err = cli(capsys, "hessian", "x^2*y", "--at", "x=1,y=2", "--wrt", "x,w,y",
                         "--format", "json")
    assert code == 0
    assert "w" in err and "warning" in err
    (point,) = json.loads(out)["points"]
    assert point["gradient"] == {"x": 4.0, "w": 0.0, "y": 1.0}
    assert point["hessian"] == [[4.0, 0.0, 2.0], [0.0, 0.0, 0.0], [2.0, 0.0, 0.0]]


def _table_rows(text: str) -> list[list[str]]:
    return [[cell.strip() for cell in line.strip().strip("│┃").split(line.strip()[0])]
            for line in text.splitlines() if line.strip()[:1] in ("│", "┃")]


def test_hessian_table_has_names_on_both_axes(capsys):
    # f = x^2 y at (1, 2): H = [[4, 2], [2, 0]]
    code, out, _ = cli(capsys, "hessian", "x^2*y", "--at", "x=1,y=2")
    assert code == 0
    matrix = out[out.index("Hessian"):]
    rows = _table_rows(matrix)
    header, body = rows[0], rows[1:]
    assert header[-2:] == ["∂/∂x", "∂/∂y"]
    assert [row[0] for row in body] == ["∂/∂x", "∂/∂y"]
    assert [[float(v) for v in row[1:]] for row in body] == [[4.0, 2.0], [2.0, 0.0]]


def test_hessian_table_axes_follow_wrt(capsys):
    code, out, _ = cli(capsys, "hessian", "x^2*y", "--at", "x=1,y=2", "--wrt", "y,x")
    assert code == 0
    rows = _table_rows(out[out.index("Hessian"):])
    assert rows[0][-2:] == ["∂/∂y", "∂/∂x"]
    assert [row[0] for row in rows[1:]] == ["∂/∂y", "∂/∂x"]
    assert [[float(v) for v in row[1:]] for row in rows[1:]] == [[0.0, 2.0], [2.0, 4.0]]


def test_hessian_csv_and_plain(capsys):
    # f = x^2 y at (1, 2): f = 2, grad (4, 1), H row-major 4, 2, 2, 0
    code, out, _ = cli(capsys, "hessian", "x^2*y", "--at", "x=1,y=2", "--format", "csv")
    assert code == 0
    header, row = out.splitlines()
    assert header.split(",")[:5] == ["x", "y", "f", "df/dx", "df/dy"]
    assert len(header.split(",")) == 9  # plus the four d2f/d.d. columns
    assert [float(v) for v in row.split(",")] == [1, 2, 2, 4, 1, 4, 2, 2, 0]
    code, out, _ = cli(capsys, "hessian", "x^2*y", "--at", "x=1,y=2", "--format", "plain")
    assert code == 0
    assert [float(v) for v in out.split()] == [2, 4, 1, 4, 2, 2, 0]


# ----- jacobian through the CLI ----------------------------------------------------------

def test_jacobian_json_contract_issue_example(capsys):
    # f1 = xy, f2 = x + y, f3 = e^x at (1, 2): J = [[y, x], [1, 1], [e^x, 0]]
    doc = cli_json(capsys, "jacobian", "x*y", "x+y", "exp(x)", "--at", "x=1,y=2")
    assert set(doc) == {"expressions", "parsed", "variables", "points"}
    assert doc["expressions"] == ["x*y", "x+y", "exp(x)"]
    assert len(doc["parsed"]) == 3
    assert doc["variables"] == ["x", "y"]
    (point,) = doc["points"]
    assert set(point) == {"at", "values", "jacobian"}
    assert point["at"] == {"x": 1.0, "y": 2.0}
    close(point["values"], [2.0, 3.0, math.e], rtol=1e-15, atol=0)
    close(point["jacobian"], [[2.0, 1.0], [1.0, 1.0], [math.e, 0.0]], rtol=1e-15, atol=0)
    assert point["jacobian"][2][1] == 0.0  # exp(x) does not depend on y: exactly 0


JACOBIAN_OUTPUTS = ["x*y", "sin(z)*x", "exp(x - y)", "log(y^2 + 1)", "3"]


def test_jacobian_rows_are_the_per_output_gradients(capsys):
    doc = cli_json(capsys, "jacobian", *JACOBIAN_OUTPUTS,
                   "--grid", "x=-1:1:3", "--grid", "y=-0.5:1.5:3", "--grid", "z=0:2:2")
    # the union of the variables in order of first appearance
    assert doc["variables"] == ["x", "y", "z"]
    assert len(doc["points"]) == 18
    functions = [adcli.parse(t) for t in JACOBIAN_OUTPUTS]
    for point in doc["points"]:
        at = point["at"]
        assert len(point["jacobian"]) == len(JACOBIAN_OUTPUTS)
        for row, value, f in zip(point["jacobian"], point["values"], functions):
            mine = {v: at[v] for v in f.variables}
            with warnings.catch_warnings():  # (a name f lacks: 0, and said)
                warnings.simplefilter("ignore", adcli.AdcliWarning)
                grad = f.grad(wrt=["x", "y", "z"], **mine)
            close(row, [grad[v] for v in ("x", "y", "z")], rtol=0, atol=0)
            close(value, f.value(**mine), rtol=0, atol=0)
        x, y, z = at["x"], at["y"], at["z"]
        # hand-derived rows, including the exact zeros of variables an output lacks
        expected = [[y, x, 0], [sin(z), 0, x * cos(z)],
                     [exp(x - y), -exp(x - y), 0], [0, 2 * y / (y * y + 1), 0], [0, 0, 0]]
        close(point["jacobian"], expected, rtol=1e-14, atol=1e-15)
        for r, c in [(0, 2), (1, 1), (2, 2), (3, 0), (3, 2), (4, 0), (4, 1), (4, 2)]:
            assert point["jacobian"][r][c] == 0.0


def test_jacobian_columns_follow_wrt(capsys):
    doc = cli_json(capsys, "jacobian", "x*y", "exp(x)", "--at", "x=1,y=2", "--wrt", "y,x")
    assert doc["variables"] == ["y", "x"]
    close(doc["points"][0]["jacobian"], [[1.0, 2.0], [0.0, math.e]], rtol=1e-15, atol=0)


def test_jacobian_csv_and_plain(capsys):
    # f1 = xy, f2 = x + y, f3 = x^2 at (1, 2) and (3, 2):
    # values (2, 3, 1), (6, 5, 9); rows (y, x), (1, 1), (2x, 0)
    args = ["jacobian", "x*y", "x+y", "x^2", "--grid", "x=1:3:2", "--at", "y=2"]
    code, out, _ = cli(capsys, *args, "--format", "csv")
    assert code == 0
    header, *rows = out.splitlines()
    assert header == "x,y,f1,f2,f3,df1/dx,df1/dy,df2/dx,df2/dy,df3/dx,df3/dy"
    assert [[float(v) for v in row.split(",")] for row in rows] == [
        [1, 2, 2, 3, 1, 2, 1, 1, 1, 2, 0],
        [3, 2, 6, 5, 9, 2, 3, 1, 1, 6, 0],
    ]
    code, out, _ = cli(capsys, *args, "--format", "plain")
    assert code == 0
    assert [[float(v) for v in line.split()] for line in out.splitlines()] == [
        [2, 3, 1, 2, 1, 1, 1, 2, 0],
        [6, 5, 9, 2, 3, 1, 1, 6, 0],
    ]


def test_jacobian_table_has_one_row_per_output_and_one_column_per_variable(capsys):
    code, out, _ = cli(capsys, "jacobian", "x*y", "x+y", "exp(x)", "--at", "x=1,y=2")
    assert code == 0
    rows = _table_rows(out)
    header, body = rows[0], rows[1:]
    assert header[-2:] == ["∂/∂x", "∂/∂y"]
    assert len(body) == 3
    assert [row[0].split(":")[0] for row in body] == ["f1", "f2", "f3"]
    assert [float(v) for v in body[2][-2:]] == [math.e, 0.0]


def test_high_order_over_many_points_runs_in_taylor_mode_and_matches_the_api():
    """--order 30 over 2,000 points: one chunk sized for order + 1 rows a node (nested
    reverse passes would take minutes); d^30/dx^30 sin = -sin (30 = 4*7 + 2)."""
    from conftest import run_cli

    code, out, err = run_cli("grad", "sin(x)", "--order", "30", "--grid", "x=0:1:2000",
                             "--format", "csv")
    assert code == 0, err
    rows = [line.split(",") for line in out.splitlines()[1:]]
    assert len(rows) == 2000
    x = np.array([float(r[0]) for r in rows])
    got = np.array([float(r[2]) for r in rows])
    np.testing.assert_allclose(got, -np.sin(x), rtol=1e-12, atol=0)
    np.testing.assert_array_equal(got, adcli.parse("sin(x)").derivative(order=30, x=x))
