"""The reverse-mode engine on its own: Variable, Function, backward, no_grad.

Expected values are derived by hand in the comments, or computed independently of the
engine (a forward-mode product of local derivatives in plain Python).
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import adcli
from adcli.core import Function, Variable, no_grad
from adcli.functions import op


# ----- summing the gradients of a variable used more than once --------------------------

def _diamond(x):
    a = x**2
    return a * a + a


def _triple(x):
    return x * x * x


REUSE = [
    # (description, build y from x, x, dy/dx)
    ("x + x", lambda x: x + x, 3.0, 2.0),                       # 1 + 1
    ("x - x", lambda x: x - x, 3.0, 0.0),                       # 1 - 1
    ("x * x", lambda x: x * x, 3.0, 6.0),                       # 2x
    ("x * x * x", _triple, 3.0, 27.0),                          # 3x^2 = 27
    # a = x^2, y = a*a + a = x^4 + x^2: 4x^3 + 2x = 108 + 6 at x = 3.
    ("diamond a=x^2, a*a + a", _diamond, 3.0, 114.0),
    # y = x*x + x*x + x = 2x^2 + x: 4x + 1 = 9 at x = 2.
    ("x*x + x*x + x", lambda x: x * x + x * x + x, 2.0, 9.0),
    # y = sin(x) * sin(x) with two separate Sin nodes: 2 sin x cos x = sin 2x.
    ("sin(x)*sin(x)", lambda x: op.sin(x) * op.sin(x), 0.4, math.sin(0.8)),
]


@pytest.mark.parametrize("description, build, x0, expected", REUSE,
                         ids=[r[0] for r in REUSE])
def test_backward_sums_the_gradients_of_a_reused_variable(description, build, x0, expected):
    x = Variable(x0)
    y = build(x)
    y.backward()
    assert math.isclose(float(x.grad.data), expected, rel_tol=1e-15, abs_tol=0.0)


# ----- generation order ------------------------------------------------------------------

def test_generation_order_dezero_step_16():
    # a = x^2, y = a^2 + a^2 = 2x^4.  dy/dx = 8x^3 = 64 at x = 2.
    # dy/da must collect both branches (2a + 2a = 4a = 16) before a's creator runs:
    # dy/dx = 16 * 2x = 64. A last-in-first-out order runs a's creator right after the
    # first branch (dy/da = 2a = 8 so far): dx = 8 * 2x = 32, and if it runs again after
    # the second branch, 32 + 16 * 2x = 96. Neither is 64.
    x = Variable(2.0)
    a = x**2
    y = a**2 + a**2
    y.backward()
    assert float(x.grad.data) == 64.0


class CountingSquare(Function):
    """x^2 that counts its backward calls: each function must run exactly once."""

    calls = 0

    def forward(self, x):
        return x * x

    def backward(self, gy):
        CountingSquare.calls += 1
        return 2.0 * self.inputs[0] * gy


def test_each_function_runs_once_after_all_its_users():
    # a = x^2 (counted); branches of uneven length join again:
    # y = a + (((a*1)*1)*1) = 2a = 2x^2; dy/dx = 4x = 12 at x = 3.
    CountingSquare.calls = 0
    x = Variable(3.0)
    a = CountingSquare()(x)
    b = a
    for _ in range(3):
        b = b * 1.0
    y = a + b
    y.backward()
    assert CountingSquare.calls == 1
    assert float(x.grad.data) == 12.0


def test_uneven_branches_through_a_shared_intermediate():
    # a = sin(x); long = a + 1 + 1 + ... (50 times); y = a * long = a^2 + 50 a.
    # dy/dx = (2a + 50) cos x.
    x0 = 0.3
    x = Variable(x0)
    a = op.sin(x)
    long = a
    for _ in range(50):
        long = long + 1.0
    y = a * long
    y.backward()
    expected = (2 * math.sin(x0) + 50) * math.cos(x0)
    assert math.isclose(float(x.grad.data), expected, rel_tol=1e-14)


# ----- leaves, outputs and intermediate gradients ----------------------------------------

@pytest.mark.parametrize("data", [2.0, np.array([1.0, -2.0, 3.0]), np.zeros((2, 3))])
def test_backward_on_a_bare_leaf_gives_one(data):
    # d x / d x = 1, elementwise, in x's shape.
    x = Variable(data)
    x.backward()
    np.testing.assert_array_equal(x.grad.data, np.ones_like(np.asarray(data)))


def test_intermediate_gradients_are_cleared_and_leaves_keep_theirs():
    # a = x*x, y = 3a: dy/da = 3, dy/dx = 6x = 12 at x = 2.
    x = Variable(2.0)
    a = x * x
    y = a * 3.0
    y.backward()
    assert a.grad is None           # freed once used
    assert float(x.grad.data) == 12.0
    assert float(y.grad.data) == 1.0  # the seed


def test_retain_grad_keeps_intermediate_gradients():
    x = Variable(2.0)
    a = x * x
    y = a * 3.0
    y.backward(retain_grad=True)
    assert float(a.grad.data) == 3.0
    assert float(x.grad.data) == 12.0


def test_a_constant_input_gets_no_gradient():
    # y = x * c with c not requiring a gradient: dy/dx = c = 3; c.grad stays None.
    x, c = Variable(2.0), Variable(3.0, requires_grad=False)
    y = x * c
    y.backward()
    assert float(x.grad.data) == 3.0
    assert c.grad is None


def test_operations_on_constants_only_record_nothing():
    c = Variable(3.0, requires_grad=False)
    y = op.sin(c) * 2.0
    assert y.creator is None and not y.requires_grad


def test_array_variables_differentiate_elementwise():
    # y = x^3 elementwise; backward seeds ones, so x.grad = 3x^2 per element.
    data = np.array([-2.0, 0.5, 3.0])
    x = Variable(data)
    (x**3).backward()
    np.testing.assert_array_equal(x.grad.data, 3 * data**2)


# ----- operator overloads on Variable -----------------------------------------------------

OVERLOADS = [
    # (description, y(x), x, value, dy/dx)
    ("x + 2", lambda x: x + 2.0, 3.0, 5.0, 1.0),
    ("2 + x", lambda x: 2.0 + x, 3.0, 5.0, 1.0),
    ("x - 2", lambda x: x - 2.0, 3.0, 1.0, 1.0),
    ("2 - x", lambda x: 2.0 - x, 3.0, -1.0, -1.0),
    ("x * 2", lambda x: x * 2.0, 3.0, 6.0, 2.0),
    ("2 * x", lambda x: 2.0 * x, 3.0, 6.0, 2.0),
    ("x / 2", lambda x: x / 2.0, 3.0, 1.5, 0.5),
    ("6 / x", lambda x: 6.0 / x, 3.0, 2.0, -6.0 / 9.0),        # -6/x^2
    ("x ** 2", lambda x: x**2, 3.0, 9.0, 6.0),
    ("2 ** x", lambda x: 2.0**x, 3.0, 8.0, 8.0 * math.log(2)),  # 2^x ln 2
    ("-x", lambda x: -x, 3.0, -3.0, -1.0),
    ("+x", lambda x: +x, 3.0, 3.0, 1.0),
    ("ndarray * x", lambda x: np.array(2.0) * x, 3.0, 6.0, 2.0),  # defers to __rmul__
    ("ndarray - x", lambda x: np.array(2.0) - x, 3.0, -1.0, -1.0),
]


@pytest.mark.parametrize("description, build, x0, value, expected", OVERLOADS,
                         ids=[o[0] for o in OVERLOADS])
def test_operator_overloads(description, build, x0, value, expected):
    x = Variable(x0)
    y = build(x)
    assert isinstance(y, Variable)
    assert math.isclose(float(y.data), value, rel_tol=1e-15)
    y.backward()
    assert math.isclose(float(x.grad.data), expected, rel_tol=1e-15)


# ----- higher derivatives with create_graph ----------------------------------------------

def _derivatives(y, x, n):
    """The first n derivatives of y with respect to x, by repeated double backprop."""
    out = []
    g = y
    for _ in range(n):
        x.clear_grad()
        g.clear_grad()
        g.backward(create_graph=True)
        g.clear_grad()
        g = x.grad
        out.append(float(g.data))
    return out


def test_create_graph_differentiates_x_to_the_fourth_four_times():
    # y = x^4 at x = 2: 4x^3 = 32, 12x^2 = 48, 24x = 48, 24.
    x = Variable(2.0)
    assert _derivatives(x**4, x, 4) == [32.0, 48.0, 48.0, 24.0]


def test_second_derivative_by_the_dezero_step_33_recipe():
    # y = x^4 - 2x^2: y' = 4x^3 - 4x = 24 at x = 2; y'' = 12x^2 - 4 = 44.
    x = Variable(2.0)
    y = x**4 - 2.0 * x**2
    y.backward(create_graph=True)
    gx = x.grad
    assert float(gx.data) == 24.0
    x.clear_grad()
    gx.backward()
    assert float(x.grad.data) == 44.0


@pytest.mark.parametrize("x0", [0.0, 0.7, -2.5])
def test_the_fourth_derivative_of_sin_is_sin(x0):
    # sin -> cos -> -sin -> -cos -> sin.
    x = Variable(x0)
    d = _derivatives(op.sin(x), x, 4)
    np.testing.assert_allclose(d, [math.cos(x0), -math.sin(x0), -math.cos(x0), math.sin(x0)],
                               rtol=1e-15, atol=1e-16)


@pytest.mark.parametrize("name, x0, first, second", [
    # Functions whose backward uses their own output.
    ("exp", 0.5, math.exp(0.5), math.exp(0.5)),                       # e^x, e^x
    ("tan", 0.5, 1 + math.tan(0.5)**2,                                # sec^2 = 1 + t^2
     2 * math.tan(0.5) * (1 + math.tan(0.5)**2)),                     # 2t(1 + t^2)
    ("sigmoid", 0.5, *(lambda s: (s * (1 - s), s * (1 - s) * (1 - 2 * s)))(
        1 / (1 + math.exp(-0.5)))),                                   # s(1-s), s(1-s)(1-2s)
    ("sqrt", 4.0, 0.25, -1 / 32),                                     # x^-1/2/2, -x^-3/2/4
])
def test_second_derivative_through_a_function_that_reads_its_output(name, x0, first, second):
    x = Variable(x0)
    d = _derivatives(getattr(op, name)(x), x, 2)
    np.testing.assert_allclose(d, [first, second], rtol=1e-14)


def test_without_create_graph_the_gradient_is_a_constant():
    x = Variable(2.0)
    (x**3).backward()
    assert x.grad.creator is None and not x.grad.requires_grad


# ----- no_grad ---------------------------------------------------------------------------

def test_no_grad_records_no_graph_and_restores_afterwards():
    x = Variable(1.0)
    with no_grad():
        y = op.sin(x) * x
    assert y.creator is None and not y.requires_grad
    assert float(y.data) == math.sin(1.0)
    z = op.sin(x) * x
    assert z.creator is not None and z.requires_grad


def test_no_grad_restores_backprop_after_an_exception():
    x = Variable(1.0)
    with pytest.raises(RuntimeError):
        with no_grad():
            raise RuntimeError("boom")
    assert (x * x).creator is not None


def test_public_no_grad_is_the_engine_one():
    assert adcli.no_grad is no_grad
    assert adcli.Variable is Variable and adcli.Function is Function


# ----- very deep graphs: no recursion ------------------------------------------------------

DEPTH = 100_000


def test_a_100000_deep_chain_of_sin_backpropagates():
    # y = sin(sin(...sin(x))), 100,000 times. dy/dx = product of cos(v_i) over the values
    # v_0 = x, v_{i+1} = sin(v_i): computed here in plain Python, forward mode.
    x0 = 0.5
    v, expected = x0, 1.0
    for _ in range(DEPTH):
        expected *= math.cos(v)
        v = math.sin(v)
    x = Variable(x0)
    y = x
    for _ in range(DEPTH):
        y = op.sin(y)
    y.backward()
    assert math.isclose(float(y.data), v, rel_tol=1e-15)
    assert math.isclose(float(x.grad.data), expected, rel_tol=1e-9)


def test_a_100000_deep_expression_parses_evaluates_and_differentiates():
    # -(-(...-(x))) with 100,000 minus signs: (-1)^100000 x = x, derivative 1.
    f = adcli.parse("-" * DEPTH + "x")
    assert float(f.value(x=2.5)) == 2.5
    assert float(f.grad(x=2.5)["x"]) == 1.0


def test_100000_nested_parentheses_parse():
    f = adcli.parse("(" * DEPTH + "x" + ")" * DEPTH)
    assert f.parsed == "x"
    assert float(f.value(x=1.5)) == 1.5
    assert float(f.grad(x=1.5)["x"]) == 1.0


# ----- user-defined Functions inside the engine (the API's own tests: test_api.py) --------

class Cube(adcli.Function):
    """x^3 with a backward written on Variables, so it can be differentiated again."""

    def forward(self, x):
        return x**3

    def backward(self, gy):
        (x,) = self.inputs
        return gy * 3.0 * x * x


class Scale(adcli.Function):
    """y = k x, where k is a parameter that never gets a gradient (backward gives None)."""

    def forward(self, x, k):
        return k * x

    def backward(self, gy):
        _, k = self.inputs
        return gy * k, None


def test_user_function_composes_with_builtin_functions_and_operators():
    # y = exp(Cube(x)) * 2 = 2 exp(x^3): dy/dx = 6x^2 exp(x^3) = 6 e at x = 1.
    x = adcli.Variable(1.0)
    y = op.exp(Cube()(x)) * 2.0
    y.backward()
    assert math.isclose(float(x.grad.data), 6 * math.e, rel_tol=1e-15)


def test_user_function_may_return_none_for_an_input():
    # y = k x with k = 5: dy/dx = 5; k asked for no gradient by returning None.
    x, k = adcli.Variable(3.0), adcli.Variable(5.0)
    y = Scale()(x, k)
    y.backward()
    assert float(x.grad.data) == 5.0
    assert k.grad is None


def test_user_function_accepts_plain_numbers():
    # Scale(x, 4.0): a plain float becomes a constant input. dy/dx = 4.
    x = adcli.Variable(1.5)
    y = Scale()(x, 4.0)
    assert float(y.data) == 6.0
    y.backward()
    assert float(x.grad.data) == 4.0
