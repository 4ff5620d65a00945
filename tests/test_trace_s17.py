"""adcli trace: nothing a rule says is false. abs's rule says sign(v1) (it printed the
number sign(v1) came to, so |x|' = sign(x) could not be seen), with the convention at its
corner on the row; and a rule printed beside a number either gives that number when it is
worked out as written in float64, bit for bit, or says that it is the mathematical rule and
what it gives as written (pow's rule for x^(1/3): the engine takes b - 1 exactly, and the
printed b - 1 is rounded).

The rules are worked out here by an evaluator of our own (Python's float arithmetic; a
function's name means the language's function), not by the engine that printed them.
"""
from __future__ import annotations

import ast
import math
import re
import zlib

import numpy as np
import pytest

import adcli
from adcli import tracing
from adcli.functions import CALLABLE, PRIMITIVES
from conftest import run_cli, strict_json

BAR, DOT = "\u0304", "\u0307"
MATHEMATICAL = "the mathematical rule"


def bar(n):
    return f"v{BAR}{n}"


def dot(n):
    return f"v{DOT}{n}"


# ----- an evaluator of printed rules, as a student works one by hand ---------------------

def as_written(rule: str, values: dict[str, float]) -> float:
    """``rule`` worked out in float64 exactly as written: each operator one IEEE operation,
    left to right, each function the language's own (sign is numpy's sign)."""
    text = rule.replace("·", "*").replace("^", "**")
    text = re.sub(f"v{BAR}(\\d+)", r"A\1", text)
    text = re.sub(f"v{DOT}(\\d+)", r"T\1", text)
    tree = ast.parse(text, mode="eval")
    return float(_work(tree.body, values))


def _work(node, values):
    if isinstance(node, ast.Constant):
        return float(node.value)
    if isinstance(node, ast.Name):
        return {"pi": math.pi, "e": math.e}.get(node.id, values.get(node.id))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_work(node.operand, values)
    if isinstance(node, ast.BinOp):
        a, b = _work(node.left, values), _work(node.right, values)
        kind = type(node.op)
        if kind is ast.Pow:
            return float(np.power(np.float64(a), np.float64(b)))
        return {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b, ast.Div: a / b if b else
                math.copysign(math.inf, a) * math.copysign(1.0, b) if a else math.nan}[kind]
    if isinstance(node, ast.Call):
        args = [np.array([_work(a, values)]) for a in node.args]
        return float(CALLABLE[node.func.id]().forward(*args)[0])
    raise AssertionError(ast.dump(node))


def reverse_values(trace):
    values = {}
    for s in trace.steps:
        values[f"v{s.number}"] = s.value
        values[f"A{s.number}"] = s.adjoint if s.adjoint is not None else math.nan
    return values


def forward_values(trace):
    values = {}
    for s in trace.steps:
        values[f"v{s.number}"] = s.value
        values[f"T{s.number}"] = s.tangent
    return values


def same(a: float, b: float) -> bool:
    return a == b and math.copysign(1, a) == math.copysign(1, b) or math.isnan(a) and math.isnan(b)


# ----- abs: |x|' = sign(x) -------------------------------------------------------------------

@pytest.mark.parametrize("x, slope", [(1.0, 1.0), (-1.0, -1.0), (-2.5, -1.0)])
def test_abs_s_rule_says_sign(x, slope):
    trace = tracing.reverse(adcli.parse("abs(x)"), {"x": x})
    assert trace.rules(trace.steps[0]) == [f"{bar(2)}·sign(v1)"]
    assert trace.steps[0].adjoint == slope
    forward = tracing.forward(adcli.parse("abs(x)"), {"x": x}, "x")
    assert forward.tangent_rule(forward.steps[1]) == f"{dot(1)}·sign(v1)"
    assert forward.steps[1].tangent == slope


def test_abs_s_rule_in_the_table_and_json():
    _, out, _ = run_cli("trace", "abs(x)", "--at", "x=-1", "--mode", "forward")
    assert f"{dot(2)} = {dot(1)}·sign(v1) = -1.0" in out
    _, out, _ = run_cli("trace", "abs(x)", "--at", "x=1", "--format", "json")
    (point,) = strict_json(out)["points"]
    (term,) = point["nodes"][0]["contributions"]
    assert term["rule"] == f"{bar(2)}·sign(v1)" and term["value"] == 1.0
    assert "note" not in term  # smooth here: nothing to say


def test_abs_at_its_corner_says_the_convention_on_the_row():
    code, out, err = run_cli("trace", "abs(x)", "--at", "x=0")
    assert code == 0
    (row,) = [line for line in out.splitlines() if line.lstrip().startswith(bar(1))]
    assert f"{bar(2)}·sign(v1) = 0.0" in row
    assert "convention" in row and "v1 = 0" in row and "corner" in row
    _, out, _ = run_cli("trace", "abs(x)", "--at", "x=0", "--format", "json")
    (term,) = strict_json(out)["points"][0]["nodes"][0]["contributions"]
    assert "convention" in term["note"] and "corner" in term["note"]
    _, out, _ = run_cli("trace", "abs(x)", "--at", "x=0", "--mode", "forward",
                        "--format", "json")
    node = strict_json(out)["points"][0]["nodes"][1]
    assert node["tangent_rule"] == f"{dot(1)}·sign(v1)" and node["tangent"] == 0.0
    assert "convention" in node["tangent_note"]


# ----- x^(1/3): the rule shown, worked by hand ------------------------------------------------

def test_the_third_root_s_rule_is_marked_as_the_mathematical_rule():
    # d/dx (-x)^(1/3) at -8 = -(1/3) 8^(-2/3) = -1/12; worked as printed, with the rounded
    # b - 1, the rule gives 0.3333333333333333 * 8^-0.6666666666666667, two ulps off.
    trace = tracing.reverse(adcli.parse("(-x)^(1/3)"), {"x": -8.0})
    assert trace.steps[0].adjoint == -1 / 12
    (term,) = trace.steps[1].contributions
    rule = trace.term(term)
    assert rule.text == f"{bar(3)}·(0.3333333333333333·(v2^(-0.6666666666666667)))"
    by_hand = 0.3333333333333333 * 8.0 ** -0.6666666666666667
    assert by_hand != term.value == 1 / 12
    note = tracing.adjoint_note([rule], True)
    assert MATHEMATICAL in note and repr(by_hand) in note


def test_the_third_root_s_table_row_says_so():
    _, out, _ = run_cli("trace", "(-x)^(1/3)", "--at", "x=-8", "--format", "json")
    (term,) = strict_json(out)["points"][0]["nodes"][1]["contributions"]
    assert term["value"] == 1 / 12 and MATHEMATICAL in term["note"]
    assert "0.08333333333333331" in term["note"]
    _, out, _ = run_cli("trace", "(-x)^(1/3)", "--at", "x=-8")
    (row,) = [line for line in out.splitlines() if line.lstrip().startswith(bar(2))]
    assert MATHEMATICAL in row


# ----- every primitive: a rule gives its number as written, or says it does not --------------

OPERATOR_TEXT = {"add": "x + y", "sub": "x - y", "mul": "x * y", "div": "x / y",
                 "pow": "x ^ y", "neg": "-x"}
LANGUAGE = sorted(n for n in PRIMITIVES if n in OPERATOR_TEXT or PRIMITIVES[n].callable)
POWERS = ["x^(1/3)", "x^0.1", "x^2.5", "x^(-1.3)", "x^pi", "2^x", "x^(2/3)", "x^(-2)", "x^x"]


def points(cls, count=12):
    domains = list(cls.domain) + [cls.domain[-1]] * (cls.arity - len(cls.domain))
    rng = np.random.default_rng(zlib.crc32(cls.name.encode()))
    found = []
    while len(found) < count:
        xs = [rng.uniform(lo, hi) for lo, hi in domains]
        if np.all(np.asarray(cls.kink(*xs)) > max(cls.smooth_margin, 0.05)):
            found.append(dict(zip("xy", xs)))
    return found


def cases():
    for name in LANGUAGE:
        cls = PRIMITIVES[name]
        text = OPERATOR_TEXT.get(name) or (f"{name}(x)" if cls.arity == 1 else f"{name}(x, y)")
        yield pytest.param(f"exp({text})", points(cls), id=name)
    for text in POWERS:
        yield pytest.param(text, [{"x": x} for x in (0.3, 1.7, 3.0, 8.0, 0.01, 123.4)], id=text)


def check_term(rule: str, value: float, note: str | None, worked: float) -> None:
    if same(worked, value):
        assert not note or MATHEMATICAL not in note, (rule, note)
    else:
        assert note and MATHEMATICAL in note and repr(worked) in note, (rule, value, worked)


@pytest.mark.parametrize("text, at", list(cases()))
def test_each_printed_reverse_rule_gives_its_value_or_says_it_is_the_mathematical_rule(text, at):
    expression = adcli.parse(text)
    for point in at:
        trace = tracing.reverse(expression, point)
        values = reverse_values(trace)
        for step in trace.steps:
            for c in step.contributions:
                rule = trace.term(c)
                note = tracing.adjoint_note([rule], True)
                check_term(rule.text, c.value, note, as_written(rule.text, values))


@pytest.mark.parametrize("text, at", list(cases()))
def test_each_printed_tangent_rule_gives_its_value_or_says_it_is_the_mathematical_rule(text, at):
    expression = adcli.parse(text)
    for point in at:
        for wrt in expression.variables:
            trace = tracing.forward(expression, point, wrt)
            values = forward_values(trace)
            for step in trace.steps:
                if step.kind == "operation":
                    rule, note = trace.tangent_text(step)
                    check_term(rule, step.tangent, note, as_written(rule, values))


# ----- on a terminal ---------------------------------------------------------------------------

def on_terminal(columns, *argv):
    import os
    import sys

    from conftest import run_in_pty
    from adcli.commands.trace import cells

    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    env.update(PYTHONUTF8="1", TERM="xterm-256color")
    code, text, _ = run_in_pty([sys.executable, "-m", "adcli", "trace", *argv], env, columns,
                               rows=200, stderr_apart=True)
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)
    return code, text, max(cells(line) for line in text.splitlines())


@pytest.mark.parametrize("columns", [40, 80, 120])
def test_the_corner_s_note_on_a_terminal(columns):
    code, text, widest = on_terminal(columns, "abs(x)", "--at", "x=0")
    assert code == 0 and widest <= columns, text
    # folded between words, each word whole and in order
    assert f"{bar(1)} = {bar(2)}·sign(v1) = 0.0 (a convention: abs is not differentiable at " \
        "v1 = 0, an argument of 0, a corner)" in " ".join(text.split())


@pytest.mark.parametrize("columns", [40, 80, 120])
def test_the_mathematical_rule_s_note_on_a_terminal(columns):
    code, text, widest = on_terminal(columns, "(-x)^(1/3)", "--at", "x=-8")
    rule = f"{bar(3)}·(0.3333333333333333·(v2^(-0.6666666666666667)))"
    assert code == 0 and widest <= columns, text
    # (a rule wider than the line is folded after its operations: compared without spaces)
    said = f"{bar(2)} = {rule} = 0.08333333333333333 (the mathematical rule: worked out as " \
        "written in float64 it gives 0.08333333333333331; the number shown is the engine's, " \
        "worked out another way)"
    assert "".join(said.split()) in "".join(text.split())


# ----- the nineteenth session: trace's reading is shortened as every output's ---------------

def test_trace_shows_a_reading_of_250_characters_whole_and_a_longer_one_as_grad_does():
    """trace cut its reading past 200 characters (grad and the README: past 500)."""
    from conftest import run_cli

    middle = "+".join(f"sin({k}*x)" for k in range(1, 20))      # read as 250 characters
    code, out, _ = run_cli("trace", middle, "--at", "x=1")
    assert code == 0
    reading = out.splitlines()[0]
    assert "…" not in reading and reading.endswith(" + sin(19*x)")
    assert len(reading) == len("read as: ") + 250
    long = "+".join(f"sin({k}*x)" for k in range(1, 60))
    firsts = [run_cli(command, long, "--at", "x=1")[1].splitlines()[0]
              for command in ("trace", "grad")]
    assert firsts[0] == firsts[1] and firsts[0].endswith(
        "(810 characters in all; --format json gives them whole)")
