"""Taylor mode and forward mode: ``Primitive.taylor`` and ``adcli.taylor``.

The references are independent of the rules under test: the tape's ``backward`` (order 1,
the JVP), nested reverse passes (orders 2..8), derivatives worked out by hand (closed forms
in the comments) and mpmath at high precision (order 20). The registry-driven tests check
a function added to ``adcli.functions`` without editing this file.
"""
from __future__ import annotations

import math
import zlib

import mpmath
import numpy as np
import pytest

import adcli
from conftest import nested_reverse
from adcli.core import Variable
from adcli.errors import ValuesError
from adcli.functions import PRIMITIVES, Keep, Primitive, op
from adcli.taylor import jvp, taylor_coefficients, taylor_derivative

EPS = np.finfo(np.float64).eps
ULPS = 4            # order 1 against backward: a few roundings apart at most
RTOL = 1e-12        # higher orders against nested reverse passes
OPERATOR_TEXT = {"add": "a + b", "sub": "a - b", "mul": "a * b", "div": "a / b",
                 "pow": "a ^ b", "neg": "-x"}
# Keep is the engine's mask, not part of the language: nested reverse cannot reach it
# through the parser, so it is checked at order 1 and by its closed form below.
LANGUAGE = sorted(n for n in PRIMITIVES if n in OPERATOR_TEXT or PRIMITIVES[n].callable)


def _domains(cls):
    domain = list(cls.domain)
    return domain + [domain[-1]] * (cls.arity - len(domain))


def _sample(cls, n: int = 40):
    """n points of the class's domain away from its kinks, the same on every run."""
    rng = np.random.default_rng(zlib.crc32(cls.name.encode()))
    columns = [rng.uniform(lo, hi, 8 * n) for lo, hi in _domains(cls)]
    smooth = np.asarray(cls.kink(*columns)) > cls.smooth_margin
    smooth = np.broadcast_to(smooth, columns[0].shape)
    return [c[smooth][:n] for c in columns]


def _instance(cls, xs):
    return cls()


def _backward(cls, xs):
    """d f / d x_i for each input, from the tape (0 where backward gives none: Keep's mask)."""
    variables = [Variable(x) for x in xs]
    y = _instance(cls, xs)(*variables)
    y.backward()
    return [np.zeros_like(x) if v.grad is None else v.grad.data for x, v in zip(xs, variables)]


def _lines(xs, tangents):
    """Series of order 1 along x + t * tangent."""
    return [np.stack([x, np.broadcast_to(t, x.shape)]) for x, t in zip(xs, tangents)]


def _text(name: str) -> str:
    cls = PRIMITIVES[name]
    return OPERATOR_TEXT.get(name) or (f"{name}(x)" if cls.arity == 1 else f"{name}(a, b)")


# ----- order 1: the JVP is backward's gradient --------------------------------------------

@pytest.mark.parametrize("name", sorted(PRIMITIVES))
def test_order_one_is_the_gradient_backward_gives(name):
    cls = PRIMITIVES[name]
    xs = _sample(cls)
    grads = _backward(cls, xs)
    for i in range(cls.arity):
        seed = [float(i == j) for j in range(cls.arity)]
        series = _instance(cls, xs).taylor(*_lines(xs, seed))
        # Row 0 is forward itself, to the bit.
        np.testing.assert_array_equal(series[0], _instance(cls, xs).forward(*xs))
        error = np.abs(series[1] - grads[i])
        assert np.all(error <= ULPS * EPS * np.abs(grads[i])), (name, i, error.max())


@pytest.mark.parametrize("name", sorted(n for n in PRIMITIVES if PRIMITIVES[n].arity == 2))
def test_order_one_in_a_mixed_direction_sums_the_partials(name):
    cls = PRIMITIVES[name]
    xs = _sample(cls)
    tangents = [np.linspace(-1.5, 2.0, len(xs[0])), np.linspace(0.7, -0.3, len(xs[0]))]
    ga, gb = _backward(cls, xs)
    expected = ga * tangents[0] + gb * tangents[1]
    scale = np.abs(ga * tangents[0]) + np.abs(gb * tangents[1])
    actual = _instance(cls, xs).taylor(*_lines(xs, tangents))[1]
    assert np.all(np.abs(actual - expected) <= ULPS * EPS * scale)


# At kinks, poles and edges the JVP takes backward's convention: abs'(0) = 0, a tie of
# min/max shares 1/2 each, and 0^0 is flat in the base, 0^b (b > 0) flat in the exponent.
KINKS = [
    ("abs", (0.0,), (0.0,)),
    ("min", (1.5, 1.5), (0.5, 0.5)),
    ("max", (-2.0, -2.0), (0.5, 0.5)),
    ("pow", (0.0, 0.0), (0.0, -np.inf)),
    ("pow", (0.0, 2.0), (0.0, 0.0)),
    ("pow", (0.0, 0.5), (np.inf, 0.0)),
    ("pow", (0.0, -1.0), (-np.inf, -np.inf)),
    ("pow", (-2.0, 3.0), (12.0, np.nan)),      # d/db a^b = a^b log a: no log of -2
    ("pow", (1e-200, 2.0), (2e-200, 0.0)),     # a^b underflows, its slope does not
    ("pow", (1e200, 2.0), (2e200, np.inf)),    # a^b overflows
    ("sqrt", (0.0,), (np.inf,)),
    ("cbrt", (0.0,), (np.inf,)),
    ("hypot", (0.0, 0.0), (np.nan, np.nan)),
    ("atan2", (0.0, 0.0), (np.nan, np.nan)),
    ("log", (0.0,), (np.inf,)),
]


@pytest.mark.parametrize("name, at, expected", KINKS)
def test_order_one_at_kinks_and_edges_takes_backwards_convention(name, at, expected):
    cls = PRIMITIVES[name]
    xs = [np.array([v]) for v in at]
    with np.errstate(all="ignore"):
        grads = _backward(cls, xs)
        for i in range(cls.arity):
            seed = [float(i == j) for j in range(cls.arity)]
            tangent = _instance(cls, xs).taylor(*_lines(xs, seed))[1]
            np.testing.assert_array_equal(tangent, grads[i])
            np.testing.assert_array_equal(tangent, [expected[i]])


# ----- orders 2..8: the nested reverse passes -----------------------------------------------

def _assert_agrees(actual, reference, what):
    """Relative 1e-12, measured against the derivative's typical size on the sample where
    it is smaller: near a zero of the n-th derivative (or where hypot's b is tiny next to
    a) both methods lose relative digits to cancellation, yet a wrong rule is off by O(1)."""
    scale = np.maximum(np.abs(reference), np.median(np.abs(reference)))
    error = np.abs(actual - reference)
    assert np.all(np.isfinite(reference)), what
    assert np.all(error <= RTOL * scale), (what, float(np.max(error / scale)))


@pytest.mark.parametrize("name", LANGUAGE)
def test_orders_two_to_eight_match_nested_reverse_passes(name):
    cls = PRIMITIVES[name]
    expression = adcli.parse(_text(name))
    values = dict(zip(expression.variables, _sample(cls, 25)))
    for variable in expression.variables:
        for order in range(2, 9):
            reference = nested_reverse(expression, values, variable, order)
            actual = taylor_derivative(expression, values, variable, order)
            _assert_agrees(actual, reference, (name, variable, order))



@pytest.mark.parametrize("name", [n for n in LANGUAGE if PRIMITIVES[n].arity == 2])
@pytest.mark.parametrize("fixed", [0, 1])
def test_a_number_operand_beside_a_varying_one(name, fixed):
    # 2^x at several points: the number's series is one column, the variable's many
    # (it broke broadcasting in pow's varying-exponent rule: an internal error).
    cls = PRIMITIVES[name]
    columns = _sample(cls, 25)
    args = ["x", "x"]
    args[fixed] = f"({float(np.median(columns[fixed]))!r})"
    text = (OPERATOR_TEXT[name].replace("a", "{0}").replace("b", "{1}") if name in
            OPERATOR_TEXT else name + "({0}, {1})").format(*args)
    expression = adcli.parse(text)
    values = {expression.variables[0]: columns[1 - fixed]}
    for order in range(1, 6):
        reference = nested_reverse(expression, values, expression.variables[0], order)
        actual = taylor_derivative(expression, values, expression.variables[0], order)
        _assert_agrees(actual, reference, (text, order))


def test_a_variable_held_fixed_is_a_constant_even_where_its_functions_have_no_derivative():
    # d^2/dx^2 of sqrt(y)*x^2 is 2 sqrt(y): 0 at y = 0, where sqrt' is infinite but y
    # does not move; hypot(1.6 + sqrt(y), x)'' at x = 0 is 1/1.6 (both were nan).
    values = {"x": np.array([0.0, 1.0]), "y": np.array([0.0, 0.0])}
    np.testing.assert_array_equal(
        taylor_derivative(adcli.parse("sqrt(y)*x^2"), values, "x", 2), [0.0, 0.0])
    _close(taylor_derivative(adcli.parse("hypot(1.6 + sqrt(y), x)"), values, "x", 2),
           [1 / 1.6, 1.6 ** 2 / (1.6 ** 2 + 1) ** 1.5])

COMPOUNDS = [
    ("exp(sin(x))*x^3/(1+x^2)", {"x": np.linspace(-2.5, 2.5, 11)}),
    ("exp(sin(x)*y)/(1 + z^2) + log(1 + x^2 + y^2)*cos(z*y) - tanh(x*y - z)*sqrt(x^2 + z^2 + 1)"
     " + (x + 2)^1.5/(y + cos(x)^2) + sin(x*z)^3*exp(-y/z)",
     {"x": np.linspace(0.3, 1.7, 6), "y": np.linspace(-0.8, 0.9, 6), "z": np.linspace(1.2, 2.1, 6)}),
    ("x^x + x^(-2.5) - (1 - x)^3", {"x": np.linspace(0.3, 2.9, 9)}),
    ("sec(x)*csc(x) + cot(x)^2 - sigmoid(softplus(x))", {"x": np.linspace(0.2, 1.3, 8)}),
    ("atan2(sin(x), 2*cos(x) + 3) * hypot(x, 2*x + 1)", {"x": np.linspace(-1.0, 1.0, 7)}),
    ("min(x^2, x + 3) + max(sinh(x), cosh(x) - 2) + abs(x - 5)", {"x": np.linspace(-1.2, 1.9, 8)}),
    ("asin(x/2)*acos(x/3) + atanh(x/4) - asinh(x)*acosh(x + 3) + log1p(x^2)*expm1(x)"
     " + log2(x + 4)*log10(9 - x) + cbrt(x + 5)*sqrt(x + 6)", {"x": np.linspace(-1.5, 1.5, 7)}),
    ("y^x * (x - y)^4 / (x*y + 5)", {"x": np.linspace(0.5, 2.0, 5), "y": np.linspace(1.1, 2.2, 5)}),
]


@pytest.mark.parametrize("text, values", COMPOUNDS, ids=[t[:24] for t, _ in COMPOUNDS])
def test_compound_expressions_match_nested_reverse_passes(text, values):
    expression = adcli.parse(text)
    for variable in expression.variables:
        for order in range(0, 7):
            reference = nested_reverse(expression, values, variable, order)
            actual = taylor_derivative(expression, values, variable, order)
            _assert_agrees(actual, reference, (variable, order))


def test_order_zero_is_the_tapes_value_to_the_bit():
    text, values = COMPOUNDS[1]
    expression = adcli.parse(text)
    np.testing.assert_array_equal(taylor_derivative(expression, values, "x", 0),
                                  expression.value(**values))


# ----- closed forms, by hand --------------------------------------------------------------

X = np.linspace(-2.7, 3.1, 13)
ORDERS = range(0, 13)


def _close(actual, expected, rtol=1e-13, atol=0.0):
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol)


@pytest.mark.parametrize("order", ORDERS)
def test_sine(order):
    # d^n/dx^n sin x = sin(x + n pi/2)
    actual = taylor_derivative(adcli.parse("sin(x)"), {"x": X}, "x", order)
    _close(actual, np.sin(X + order * np.pi / 2), atol=1e-15)


@pytest.mark.parametrize("a", [-1.7, 0.5, 3.0])
@pytest.mark.parametrize("order", ORDERS)
def test_exp_of_a_line(a, order):
    # d^n/dx^n exp(a x) = a^n exp(a x)
    actual = taylor_derivative(adcli.parse(f"exp({a}*x)"), {"x": X}, "x", order)
    _close(actual, a ** order * np.exp(a * X))


def _falling(k: float, n: int) -> float:
    """k (k-1) ... (k-n+1)"""
    return math.prod(k - i for i in range(n))


@pytest.mark.parametrize("k", [3, 6, -2])
@pytest.mark.parametrize("order", ORDERS)
def test_whole_powers_including_zero_and_negative_bases(k, order):
    # d^n/dx^n x^k = k!/(k-n)! x^(k-n), which is 0 for n > k >= 0
    x = np.array([-2.5, -1.0, -0.3, 0.0, 0.4, 1.0, 2.2]) if k >= 0 else X
    actual = taylor_derivative(adcli.parse(f"x^{k}"), {"x": x}, "x", order)
    expected = _falling(k, order) * x ** float(k - order) if order <= k or k < 0 else 0 * x
    _close(actual, expected, rtol=2e-15)


@pytest.mark.parametrize("order", ORDERS)
def test_real_power(order):
    # d^n/dx^n x^2.5 = 2.5 (1.5) ... (3.5 - n) x^(2.5 - n)
    x = np.linspace(0.2, 4.0, 9)
    actual = taylor_derivative(adcli.parse("x^2.5"), {"x": x}, "x", order)
    _close(actual, _falling(2.5, order) * x ** (2.5 - order))


def test_real_power_at_zero_takes_the_nested_reverse_values():
    # x^2.5 at 0: 0, 0, then 2.5*1.5*0.5 * 0^-0.5 = +inf, then -inf (one more factor -0.5)
    expression = adcli.parse("x^2.5")
    actual = [float(taylor_derivative(expression, {"x": 0.0}, "x", n)) for n in range(1, 5)]
    assert actual == [0.0, 0.0, math.inf, -math.inf]
    assert actual == [float(nested_reverse(expression, {"x": 0.0}, "x", n)) for n in range(1, 5)]


@pytest.mark.parametrize("order", range(1, 13))
def test_log(order):
    # d^n/dx^n log x = (-1)^(n-1) (n-1)! / x^n
    x = np.linspace(0.1, 7.0, 11)
    actual = taylor_derivative(adcli.parse("log(x)"), {"x": x}, "x", order)
    _close(actual, (-1) ** (order - 1) * math.factorial(order - 1) / x ** order)


@pytest.mark.parametrize("order", ORDERS)
def test_lorentzian(order):
    # 1/(1+x^2) = Im 1/(x - i), so d^n/dx^n = (-1)^n n! Im (x - i)^-(n+1)
    actual = taylor_derivative(adcli.parse("1/(1+x^2)"), {"x": X}, "x", order)
    expected = [(-1) ** order * math.factorial(order) * ((x - 1j) ** -(order + 1)).imag
                for x in X]
    # Zeros of the n-th derivative sit inside the grid's range: an absolute floor of the
    # derivative's size (n! at x = 0).
    _close(actual, expected, rtol=1e-12, atol=1e-13 * math.factorial(order))


def test_keep_masks_every_row():
    rng = np.random.default_rng(3)
    series = rng.normal(size=(6, 10))
    keep = rng.uniform(size=10) > 0.5
    mask = np.zeros((6, 10))
    mask[0] = keep
    np.testing.assert_array_equal(Keep().taylor(series, mask), np.where(keep, series, 0.0))


# ----- order 20 against mpmath --------------------------------------------------------------

def test_order_twenty_matches_mpmath():
    expression = adcli.parse("exp(sin(x))*x^3/(1+x^2)")
    with mpmath.workdps(60):
        exact = mpmath.diff(lambda x: mpmath.exp(mpmath.sin(x)) * x**3 / (1 + x**2),
                            mpmath.mpf("0.7"), 20)
    actual = taylor_derivative(expression, {"x": 0.7}, "x", 20)
    assert actual.shape == ()
    assert abs(float(actual) - float(exact)) <= 1e-12 * abs(float(exact))


# ----- the generic rule serves functions it has never seen ----------------------------------

def test_a_new_function_gets_its_taylor_rule_from_backward(registered):
    @registered
    class Sechtest(Primitive):
        name = "sechtest"
        def forward(self, x): return 1.0 / np.cosh(x)
        def backward(self, gy): return -gy * self.y * op.tanh(self.inputs[0])

    assert "taylor" not in Sechtest.__dict__
    expression = adcli.parse("sechtest(2*x - 1)")
    x = np.linspace(-1.5, 2.0, 8)
    for order in range(1, 9):
        _assert_agrees(taylor_derivative(expression, {"x": x}, "x", order),
                       expression.derivative("x", order, x=x), order)


@pytest.mark.parametrize("points", [2, 4])
def test_a_gradient_that_is_a_constant_spreads_over_the_points(registered, points):
    # triple's rule gy * 3.0 is a constant of shape (): its series (two rows at order 2)
    # once met the points along the rows: a crash at 4 points, wrong numbers at 2.
    # (triple(x) * x)'' = (3x^2)'' = 6 everywhere, worked out by hand.
    @registered
    class Triple(Primitive):
        name = "triple"
        def forward(self, x): return 3.0 * x
        def backward(self, gy): return gy * 3.0

    x = np.linspace(-1.0, 2.0, points)
    actual = taylor_derivative(adcli.parse("triple(x) * x"), {"x": x}, "x", 2)
    assert actual.tolist() == [6.0] * points


def test_sign_is_flat_in_taylor_mode_too():
    # (sign(x) x^3)''' = 6 sign(x) away from 0, by hand; at 0, the convention 0.
    x = np.array([-2.0, -0.5, 0.0, 0.25, 3.0])
    actual = taylor_derivative(adcli.parse("sign(x) * x^3"), {"x": x}, "x", 3)
    assert actual.tolist() == [-6.0, -6.0, 0.0, 6.0, 6.0]


def test_functions_whose_backwards_use_each_other(registered):
    # Each one's derivative is the other: the generic rule recurses into the partner at one
    # order less each time, so it ends; the result is sinh's closed form.
    @registered
    class Sinhtest(Primitive):
        name = "sinhtest"
        def forward(self, x): return np.sinh(x)
        def backward(self, gy): return gy * op.coshtest(self.inputs[0])

    @registered
    class Coshtest(Primitive):
        name = "coshtest"
        def forward(self, x): return np.cosh(x)
        def backward(self, gy): return gy * op.sinhtest(self.inputs[0])

    x = np.linspace(-2.0, 2.0, 9)
    for order in range(0, 11):
        actual = taylor_derivative(adcli.parse("sinhtest(x)"), {"x": x}, "x", order)
        _close(actual, np.sinh(x) if order % 2 == 0 else np.cosh(x), rtol=1e-14)


# ----- the driver -----------------------------------------------------------------------

def test_jvp_gives_every_nodes_value_and_tangent():
    # sin(x1) + x1*x2 at (2, 5) along x1: the tangent trace worked out by hand.
    # Nodes in order: x1, sin(x1), x1, x2, x1*x2, sum.
    result = jvp(adcli.parse("sin(x1)+x1*x2"), {"x1": 2.0, "x2": 5.0}, {"x1": 1.0})
    s, c = math.sin(2.0), math.cos(2.0)
    assert [float(v) for v in result.values] == [2.0, s, 2.0, 5.0, 10.0, s + 10.0]
    assert [float(t) for t in result.tangents] == [1.0, c, 1.0, 0.0, 5.0, c + 5.0]
    assert result.value.shape == () and float(result.value) == s + 10.0
    assert float(result.tangent) == c + 5.0


def test_jvp_in_any_direction_is_the_gradient_dotted_with_it():
    expression = adcli.parse(COMPOUNDS[1][0])
    values = COMPOUNDS[1][1]
    direction = {"x": 0.3, "y": -1.2, "z": np.linspace(0.5, 2.0, 6)}
    grad = expression.grad(**values)
    terms = [grad[v] * direction[v] for v in "xyz"]
    result = jvp(expression, values, direction)
    np.testing.assert_array_equal(result.value, expression.value(**values))
    assert np.all(np.abs(result.tangent - sum(terms)) <= 64 * EPS * sum(np.abs(t) for t in terms))


def test_a_negative_base_is_fine_where_the_exponent_does_not_move():
    # x^y at (-2, 3) and (2, 3), tangents (1, 0) and (1, 1): at the first point only the
    # base moves, d/dx = 3 x^2 = 12 (no log of -2 is needed); at the second the tangent is
    # 3*2^2 + 2^3 log 2.
    result = jvp(adcli.parse("x^y"), {"x": np.array([-2.0, 2.0]), "y": 3.0},
                 {"x": 1.0, "y": np.array([0.0, 1.0])})
    _close(result.tangent, [12.0, 12.0 + 8.0 * math.log(2.0)], rtol=4 * EPS)


def test_coefficients_are_the_derivatives_over_factorials():
    # exp(2x) at 0.5: row k is 2^k e / k!
    rows = taylor_coefficients(adcli.parse("exp(2*x)"), {"x": 0.5}, "x", 6)
    assert rows.shape == (7,)
    _close(rows, [2.0 ** k * math.e / math.factorial(k) for k in range(7)])


def test_values_broadcast_and_keep_their_shape():
    expression = adcli.parse("x*y^2")
    x, y = np.array([[1.0], [2.0]]), np.array([3.0, 4.0, 5.0])
    np.testing.assert_array_equal(taylor_derivative(expression, {"x": x, "y": y}, "y", 2),
                                  np.broadcast_to(2 * x, (2, 3)))
    np.testing.assert_array_equal(taylor_derivative(expression, {"x": x, "y": y}, "x", 1),
                                  np.broadcast_to(y ** 2, (2, 3)))


def test_a_variable_the_expression_does_not_use_has_derivative_zero():
    np.testing.assert_array_equal(
        taylor_derivative(adcli.parse("sin(x)"), {"x": np.ones(3)}, "y", 2), np.zeros(3))


def test_high_orders_of_a_constant_operand_are_zero():
    # 2^3 does not move along x: its rows after the first are 0, whatever the order.
    np.testing.assert_array_equal(
        taylor_derivative(adcli.parse("x * 2^3"), {"x": np.ones(4)}, "x", 5), np.zeros(4))


@pytest.mark.parametrize("order", [-1, 1.5, True, "2"])
def test_an_order_that_is_not_a_whole_number_is_refused(order):
    with pytest.raises(ValuesError, match="whole number"):
        taylor_derivative(adcli.parse("x"), {"x": 1.0}, "x", order)


def test_missing_values_and_unknown_tangents_are_refused():
    expression = adcli.parse("x*y")
    with pytest.raises(ValuesError, match="no value given for y"):
        taylor_derivative(expression, {"x": 1.0}, "x", 2)
    with pytest.raises(ValuesError, match="'z' does not appear"):
        jvp(expression, {"x": 1.0, "y": 2.0}, {"z": 1.0})


@pytest.mark.parametrize("order", [2, 3])
def test_a_power_that_underflows_with_all_its_rows_has_derivatives_0(order):
    # u^(-u^10) at u = 2.3197: 2.3197^-4500 underflows, and so does every a^(b - j) and
    # so every derivative (mpmath: about 1e-1640): 0, as nested reverse passes say, not
    # the nan of a point where the rows cannot be told (found by the fuzz suite).
    import mpmath

    mpmath.mp.dps = 30
    exact = mpmath.diff(lambda u: u ** (-(u ** 10)), mpmath.mpf("2.3197"), order)
    assert abs(exact) < mpmath.mpf("1e-1000")
    f = adcli.parse("u^(-(u^10))")
    assert f.derivative("u", order, u=2.3197) == 0.0
    # the fuzz suite's case: exp(-sin(y) e^(10 sin y)) at y = 1, e^-3789 (about 1e-1646)
    g = adcli.parse("exp(sin(y))^(-(exp(sin(abs(y)))^10))")
    assert g.derivative("y", 2, y=np.array([1.0, 1.0])).tolist() == [0.0, 0.0]


@pytest.mark.parametrize("text", ["2*coth(y + csc(x))", "3*tanh(y + 1/x)", "2*atan(y + 1/x)"])
def test_an_infinite_inner_value_with_a_finite_result_has_derivatives_0(text):
    # At x = 0 the inner value is inf and f is finite (2 coth(inf) = 2): along y every
    # derivative is the limit 0 (-2 csch^2 u, 4 csch^2 u coth u, ... at u = inf), as the
    # tape's nested passes give; the series' j·u_j at j = 0 made it nan (fuzz suite).
    f = adcli.parse(text)
    for order in (1, 2, 3):
        assert f.derivative("y", order, x=0.0, y=0.0) == 0.0
