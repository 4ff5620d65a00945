"""``kernel.interpret`` at one point runs +, -, *, / and negation on Python floats (a
huge expression through the CLI is usually evaluated at one point). IEEE arithmetic rounds
them as numpy does, so the results must still be the tape's to the last bit: checked here
for the float forms themselves over every pair of specials, and for every primitive of the
registry, alone and composed with arithmetic, one special point at a time.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import adcli
from adcli import kernel
from adcli.functions import OPERATORS, PRIMITIVES

SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, -2.0, 3.0, 1e-300, -1e-300, 5e-324, 1e300, -1e300,
           1e200, 710.0, -745.0, np.inf, -np.inf, np.nan, 0.1, 1.0 / 3.0, 94906267.0]
LANGUAGE = sorted(n for n, cls in PRIMITIVES.items()
                  if cls.callable or cls in OPERATORS.values())


def one_point_matches_the_tape(expression, values: dict, tape) -> None:
    at = {name: np.array([value]) for name, value in values.items()}
    want = tape(expression, at)
    value, gradient, *_ = kernel.interpret(expression, at, 1, expression.variables, 1)
    assert kernel.identical(value, want.value), (values, value, want.value)
    for name in expression.variables:
        assert kernel.identical(gradient[name], want.gradient[name]), \
            (values, name, gradient[name], want.gradient[name])


@pytest.mark.parametrize("ufunc", list(kernel._FLOATS))
def test_the_float_forms_round_as_numpy(ufunc):
    """Floats, 1-element and 0-d arrays in, the ufunc's float64 out, division by 0 too."""
    float_form = kernel._FLOATS[ufunc]
    pairs = itertools.product(SPECIAL, repeat=ufunc.nin)
    with np.errstate(all="ignore"):
        for xs in pairs:
            want = ufunc(*[np.array([x]) for x in xs])
            for shape in (float, np.array, lambda x: np.array([x])):
                got = float_form(*[shape(x) for x in xs])
                assert got.__class__ is float
                assert kernel.identical(np.array([got]), want), (ufunc, xs, got, want)


def text_of(name: str, a: str, b: str) -> str:
    cls = PRIMITIVES[name]
    if name == "neg":
        return f"-({a})"
    if cls.symbol:
        return f"({a}) {cls.symbol} ({b})"
    return f"{name}({a})" if cls.arity == 1 else f"{name}({a}, {b})"


@pytest.mark.parametrize("name", LANGUAGE)
def test_every_primitive_at_one_point_gives_the_tapes_numbers(name, tape):
    expression = adcli.parse(text_of(name, "a", "b"))
    for xs in itertools.product(SPECIAL, repeat=PRIMITIVES[name].arity):
        one_point_matches_the_tape(expression, dict(zip("ab", xs)), tape)


@pytest.mark.parametrize("name", LANGUAGE)
def test_primitives_between_arithmetic_at_one_point_give_the_tapes_numbers(name, tape):
    """Floats made into arrays for a numpy forward and for a rule of numpy calls; numpy
    results taken as floats by arithmetic; constants and a repeated variable."""
    inner = text_of(name, "x*y - 1.5", "x/y + y")
    expression = adcli.parse(f"2*({inner})*x + ({inner})/y - -x*({inner})")
    for x, y in itertools.product([0.0, -0.0, 0.5, -2.0, 3.0, 1e300, np.inf, np.nan], repeat=2):
        one_point_matches_the_tape(expression, {"x": x, "y": y}, tape)


def test_gradients_on_floats_are_summed_in_the_tapes_order(tape):
    # d/dx = 1e16 + 1 - 1e16 + 1: 2, 1 or 0 depending on the order of the sum.
    expression = adcli.parse("1e16*x + x + (-1e16)*x + x*y + x")
    one_point_matches_the_tape(expression, {"x": 0.3, "y": 1.0}, tape)


def test_arithmetic_at_one_point_runs_on_floats(monkeypatch):
    seen = {}

    def backward(nodes, values, inputs, varying, generation, grads, top, plans):
        seen["value"], seen["seed"] = values[top], grads[top]
        return interpret_backward(nodes, values, inputs, varying, generation, grads, top, plans)

    interpret_backward = kernel._interpret_backward
    monkeypatch.setattr(kernel, "_interpret_backward", backward)
    expression = adcli.parse("x*y + x/y - -x")
    at = {"x": np.array([1.5]), "y": np.array([-2.0])}
    value, gradient, *_ = kernel.interpret(expression, at, 1, ("x", "y"), 1)
    assert seen["value"].__class__ is float and seen["seed"].__class__ is float
    assert value.tolist() == [1.5 * -2.0 + 1.5 / -2.0 + 1.5]
    assert gradient["x"].tolist() == [-2.0 + 1 / -2.0 + 1.0]
    assert gradient["y"].tolist() == [1.5 - 1.5 / 4.0]
    # At two points the same expression runs on arrays.
    kernel.interpret(expression, {"x": np.full(2, 1.5), "y": np.full(2, -2.0)}, 2, ("x", "y"), 1)
    assert isinstance(seen["value"], np.ndarray)


@pytest.mark.parametrize("name", sorted(PRIMITIVES))
def test_numpy_steps_of_a_rule_on_floats_get_arrays(name):
    """A rule run partly on floats (sin's: numpy's cos(x), then gy times it on floats)
    keeps its numpy calls on the tape's arrays though gy and its float steps give floats."""
    cls = PRIMITIVES[name]
    plan = kernel.rule_for(cls, [None] * cls.arity).plan()
    floats = kernel._on_floats_plan(plan, mixed=True)
    float_forms = set(kernel._FLOATS.values())
    if floats is None or all(f in float_forms for f, _, _ in floats._fast):
        pytest.skip("no step of this rule has a float form, or every step has one")
    calls = []

    def spy(step):
        def call(*xs):
            calls.append([type(x) for x in xs])
            return step(*xs)
        return call

    floats._fast = [(f if f in float_forms else spy(f), a, b) for f, a, b in floats._fast]
    xs = [np.array([0.7]), np.array([0.4])][:cls.arity]
    y = cls().forward(*xs)
    with np.errstate(all="ignore"):
        if cls.arity == 2:
            floats.run2(*xs, y, 1.5)
        else:
            floats.run1(*xs, y, 1.5)
    assert calls and all(t is np.ndarray for types in calls for t in types), calls
