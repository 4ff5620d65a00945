"""Expressions too big to compile (more than kernel.COMPILE_LIMIT nodes) run through
``kernel.interpret``: its numbers against closed forms and against the tape to the last
bit, the memory it holds, and a rule it cannot replay inside a big expression.
(The CLI on a 1 MB expression and 100,000-deep nesting: tests/test_hostile.py.)"""
from __future__ import annotations

import math
import tracemalloc

import numpy as np
import pytest

import adcli
from adcli import kernel

K = 3000  # terms: 30,000 nodes, above COMPILE_LIMIT


def terms(k: int = K) -> str:
    return " + ".join(f"sin(x*{i})*exp(y/{i})" for i in range(1, k + 1))


def test_a_big_expression_is_interpreted():
    assert len(adcli.parse(terms()).nodes) > kernel.COMPILE_LIMIT


def test_sum_of_k_terms_against_its_closed_form():
    # f = sum sin(k x) e^(y/k); df/dx = sum k cos(k x) e^(y/k); df/dy = sum sin(k x) e^(y/k)/k
    expression = adcli.parse(terms())
    x, y = np.array([0.3, -1.1, 2.5]), np.array([0.7, 0.2, -3.0])
    result = expression.derivatives(x=x, y=y)
    for p in range(3):
        ks = range(1, K + 1)
        value = math.fsum(math.sin(k * x[p]) * math.exp(y[p] / k) for k in ks)
        dx = math.fsum(k * math.cos(k * x[p]) * math.exp(y[p] / k) for k in ks)
        dy = math.fsum(math.sin(k * x[p]) * math.exp(y[p] / k) / k for k in ks)
        scale = math.fsum(abs(math.exp(y[p] / k)) * k for k in ks)  # cancellation's size
        assert abs(result.value[p] - value) <= 1e-12 * scale
        assert abs(result.gradient["x"][p] - dx) <= 1e-12 * scale * K
        assert abs(result.gradient["y"][p] - dy) <= 1e-12 * scale


@pytest.mark.parametrize("text", [
    terms(),
    # Variables used by nodes of many generations; constants folded; one- and two-input
    # rules that read their input (sin, log), their output (exp, sqrt) or neither (+, -).
    " - ".join(f"log(1 + x^2)*sqrt(y + {i}) / (x - {i}.5) + -exp(-y*{i % 7})"
               for i in range(1, 1500)),
    # Rules that look at a constant's value (pow's exponent), kinks (abs, max).
    " + ".join(f"(x*y)^{i % 5} - x^-{i % 3} + abs(x - {i % 3})*max(y, {i % 4})"
               for i in range(1, 2000)),
])
# At one point (the CLI's usual case), +, -, *, / run on Python floats.
@pytest.mark.parametrize("points", [slice(0, 4), slice(1, 2)], ids=["4 points", "1 point"])
def test_interpret_gives_the_tapes_numbers(text, points, tape):
    expression = adcli.parse(text)
    assert len(expression.nodes) > kernel.COMPILE_LIMIT
    at = {"x": np.array([0.3, -2.0, 1e-3, 7.5])[points],
          "y": np.array([0.7, 3.0, 0.25, 1e3])[points]}
    want = tape(expression, at)
    value, gradient, *_ = kernel.interpret(expression, at, len(at["x"]), ("x", "y"), 1)
    assert kernel.identical(value, want.value)
    for name in ("x", "y"):
        assert kernel.identical(gradient[name], want.gradient[name]), name


def test_interpret_holds_only_the_values_rules_read():
    # x*y + x*y + ...: no rule reads a sum or a product, so the 2n arrays of the forward
    # pass need not live until the backward pass (kept, they would be 2n * 8 kB = 160 MB).
    n, points = 10_000, 1000
    expression = adcli.parse("+".join(["x*y"] * n))
    at = {"x": np.full(points, 1.5), "y": np.full(points, -2.0)}
    tracemalloc.start()
    try:
        value, gradient, *_ = kernel.interpret(expression, at, points, ("x", "y"), 1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert list(value) == [n * -3.0] * points
    assert list(gradient["x"]) == [n * -2.0] * points and list(gradient["y"]) == [n * 1.5] * points
    assert peak < 20 * 2**20


def test_a_rule_that_reads_the_data_in_a_big_expression_goes_to_the_tape(data_reading_ramp,
                                                                          tape):
    expression = adcli.parse(terms() + " + data_reading_ramp(x - 1)*y")
    at = {"x": np.array([0.5, 2.0]), "y": np.array([1.0, 3.0])}
    with pytest.raises(kernel.NotReplayable):
        kernel.interpret(expression, at, 2, ("x", "y"), 1)
    # Values only: no rule is needed, so the interpreter runs.
    value = kernel.interpret(expression, at, 2, ("x", "y"), 0)[0]
    assert kernel.identical(value, tape(expression, at).value)
    ramp = adcli.parse("data_reading_ramp(x - 1)*y").grad(at=at)
    rest = adcli.parse(terms()).grad(at=at)
    result = expression.grad(at=at)
    for name in ("x", "y"):
        assert np.allclose(result[name], ramp[name] + rest[name], rtol=1e-13, atol=0)
