"""Session 22: trace's warnings are grad's (no kink or edge an underflow alone made, no kink
off the way to the --wrt derivatives), and a constant sub-expression is one constant
(2*pi as sin(1) is), in trace and graph alike."""
from __future__ import annotations

import json
import math
import re

import pytest

from adcli import parse, tracing
from conftest import run_cli, warnings_in

TINY = "1e-170"     # x^2 = 1e-340 underflows to 0; sqrt(x^2) is 1e-170, its slope 1


def warned(*argv) -> list[str]:
    code, _, err = run_cli(*argv)
    assert code == 0, err
    return warnings_in(err)


# ----- 1. an underflow's edge is not said to be f's ----------------------------------------

@pytest.mark.parametrize("mode", [[], ["--mode", "forward", "--wrt", "x"]])
def test_an_edge_met_only_through_an_underflow_is_not_a_kink_warning(mode):
    said = " ".join(warned("trace", "sqrt(x^2)", "--at", f"x={TINY}", *mode))
    assert "not differentiable" not in said
    # grad's long double run, with the true numbers: |x| = 1e-170 and d|x|/dx = 1
    assert "it is 1e-170 where float64 gives 0: the value shown is wrong there" in said
    assert "d/dx at 1 of 1 point" in said and "it is 1 where float64 gives inf" in said


def test_the_first_non_finite_step_says_the_edge_was_float64s():
    said = warned("trace", "sqrt(x^2)", "--at", f"x={TINY}")
    marked, = [w for w in said if "first non-finite adjoint" in w]
    assert "met only because a step before it overflowed or underflowed in float64" in marked


def test_a_true_edge_still_warns_as_before():
    # sqrt at 0 itself: no underflow, the edge is f's
    said = warned("trace", "sqrt(x)", "--at", "x=0")
    assert any("sqrt is not differentiable at 1 of 1 point" in w for w in said)
    marked, = [w for w in said if "first non-finite adjoint" in w]
    assert "met only because" not in marked


def test_the_json_warnings_are_grads():
    code, out, err = run_cli("trace", "sqrt(x^2)", "--at", f"x={TINY}", "--format", "json")
    assert code == 0, err
    warnings = json.loads(out)["warnings"]
    assert {(w["function"], w["kind"]) for w in warnings} == {("value", "range"),
                                                                ("d/dx", "range")}


# ----- 2. only kinks on the way to the derivatives asked for ------------------------------

def test_reverse_trace_is_quiet_about_a_kink_wrt_never_passes_through():
    # f = x*y + |y|: df/dx = y, which does not go through abs
    assert warned("trace", "x*y + abs(y)", "--at", "x=1,y=0", "--wrt", "x") == []


@pytest.mark.parametrize("wrt", [["--wrt", "y"], []])
def test_reverse_trace_still_warns_of_a_kink_on_the_way(wrt):
    said = warned("trace", "x*y + abs(y)", "--at", "x=1,y=0", *wrt)
    assert any("abs is not differentiable at 1 of 1 point" in w for w in said)


def test_a_kink_f_is_differentiable_across_is_not_warned_of_as_in_grad():
    # |x|^3 is differentiable at 0 (both one-sided slopes 0): grad says nothing
    assert warned("grad", "abs(x)^3", "--at", "x=0") == []
    assert warned("trace", "abs(x)^3", "--at", "x=0") == []


def test_the_table_still_notes_the_step_on_its_kink():
    # the row of v̄2 = ∂f/∂y is a convention whatever --wrt asks: the row says so
    code, out, _ = run_cli("trace", "x*y + abs(y)", "--at", "x=1,y=0", "--wrt", "x")
    assert code == 0
    assert "abs is not differentiable at v2 = 0" in out


# ----- 3. a constant sub-expression is one constant ---------------------------------------

def test_two_pi_folds_into_one_constant():
    trace = tracing.reverse(parse("sin(2*pi*x)"), {"x": 1.0})
    operations = [s for s in trace.steps if s.kind == "operation"]
    assert [s.name for s in operations] == ["mul", "sin"]
    assert operations[0].text() == f"{2 * math.pi!r}·v1"
    # the engine's numbers: d/dx sin(2 pi x) = 2 pi cos(2 pi x), 2 pi at x = 1
    assert trace.gradient()["x"] == pytest.approx(2 * math.pi, rel=1e-15)


@pytest.mark.parametrize("text, value", [
    ("sin(pi)*x", math.sin(math.pi)),
    ("x + e^2", math.e ** 2),
    ("x*(pi/2 - 1)", math.pi / 2 - 1),
])
def test_named_constants_fold_as_numbers_do(text, value):
    trace = tracing.reverse(parse(text), {"x": 3.0})
    assert len([s for s in trace.steps if s.kind == "operation"]) == 1
    step, = [s for s in trace.steps if s.kind == "operation"]
    assert repr(value) in step.text()


def test_a_lone_named_constant_keeps_its_name():
    # pi alone is an operand, not a sub-expression: v1·pi, and x^pi's rule says pi - 1
    code, out, err = run_cli("trace", "x^pi*pi", "--at", "x=2")
    assert code == 0, err
    assert re.search(r"v2 = v1\^pi +=", out) and re.search(r"v3 = v2·pi +=", out)


def test_the_graph_draws_two_pi_as_one_number():
    code, out, err = run_cli("graph", "sin(2*pi*x)", "--at", "x=1", "--format", "tree")
    assert code == 0, err
    assert "2·pi" not in out and repr(2 * math.pi) in out


def test_a_constant_expression_is_still_one_constant_row():
    code, out, err = run_cli("trace", "2*pi")
    assert code == 0, err
    assert re.search(r"v1 = 2·pi = 6\.283185307179586", out)
    assert "adjoint trace: none" in out
