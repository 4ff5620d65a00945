"""What the paths of a huge expression (the bulk tokenizer, the one-point interpreter, the
printer of the reading) must keep while they are made faster: the tape's numbers to the last
bit, the tape's arrays where a rule reads them, the same reading and the same errors."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import adcli
from adcli import kernel, lalr
from adcli.errors import ExpressionError
from adcli.parser import define, parse
from adcli.printer import render
from test_interpret_one_point import one_point_matches_the_tape

POINTS = [0.0, -0.0, 0.5, -2.0, 3.0, 1e-300, 1e300, np.inf, -np.inf, np.nan]


# Numbers taken by arithmetic (floats at one point), by functions without a float form
# (sin, atan2, max: the tape's arrays), by rules recorded per value of a number (x^3,
# x^2.5, 2^x), and numbers only (sin(2)*x, (2*3)^x).
NUMBERS = ["x*2 + 3/y - 4 - x", "sin(2)*y + cos(x*0.5)", "x^3 + y^2.5 + 2^x",
           "atan2(1, x) + max(y, 0.5) + min(1.5, x)", "(2*3)^x + exp(-1.5)*y", "x^-1 + 2/y^2"]


@pytest.mark.parametrize("text", NUMBERS)
def test_numbers_at_one_point_give_the_tapes_numbers(text, tape):
    expression = adcli.parse(text)
    for x, y in itertools.product(POINTS, repeat=2):
        one_point_matches_the_tape(expression, {"x": x, "y": y}, tape)


def test_a_number_is_a_float_in_arithmetic_and_the_tapes_0d_array_elsewhere(monkeypatch):
    """At one point x*2 multiplies two floats; sin(2) and x^3 get 2 and 3 as the tape's
    Variable holds a number (0-d), and x, which varies, as an array of one."""
    seen = {}

    def backward(nodes, values, inputs, varying, generation, grads, top, plans):
        seen["values"] = list(values)
        return interpret_backward(nodes, values, inputs, varying, generation, grads, top, plans)

    interpret_backward = kernel._interpret_backward
    monkeypatch.setattr(kernel, "_interpret_backward", backward)
    expression = adcli.parse("x*2 + sin(2) + x^3")
    kernel.interpret(expression, {"x": np.array([1.5])}, 1, ("x",), 1)
    numbers = [i for i, n in enumerate(expression.nodes) if n.kind == "number"]
    values = seen["values"]
    assert values[numbers[0]].__class__ is float  # x*2: no array made for the 2
    assert [np.shape(values[i]) for i in numbers[1:]] == [(), ()]  # sin(2), x^3
    assert isinstance(values[-1], np.ndarray) and values[-1].shape == (1,)  # x


CALLS = [("sin(x*2)", "sin(x*2)"), ("sin(cos(x))", "sin(cos(x))"), ("sin(-x)", "sin(-x)"),
         ("atan2(x + 1, y)", "atan2(x + 1, y)"), ("atan2(y*2, 3)", "atan2(y*2, 3)"),
         ("exp(x)*sin(2)", "exp(x)*sin(2)"), ("sin(x)^2", "sin(x)^2")]


@pytest.mark.parametrize("text, reading", CALLS)
def test_a_calls_reading(text, reading):
    assert render(parse(text).nodes) == reading


def test_a_definition_as_a_calls_argument_is_printed_by_name():
    expression = parse("sin(F) + cos(G*2) + tan(G)", define({"F": "x^2 + 1", "G": "y"}))
    assert expression.parsed == "(sin(F) + cos(G*2)) + tan(G) where F = (x^2) + 1, G = y"


def test_a_long_text_with_a_character_no_terminal_reads_is_refused_where_it_is():
    text = "x + " * 2000 + "y ` z"
    assert len(text) > lalr.BULK
    with pytest.raises(ExpressionError) as error:
        parse(text)
    assert error.value.position == text.index("`")
