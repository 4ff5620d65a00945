"""adcli trace and adcli.tracing: the literature's trace tables, checked against tables
worked out by hand here, against ``adcli grad`` (the same engine must give the same bits),
and registry-wide: every rule printed beside a number, evaluated, gives that number.
"""
from __future__ import annotations

import math
import re
import zlib

import numpy as np
import pytest

import adcli
from adcli import tracing
from adcli.core import Variable
from adcli.functions import PRIMITIVES, Primitive, op
from conftest import run_cli, strict_json, warnings_in

EPS = 2.0 ** -52
BAR, DOT = "\u0304", "\u0307"   # v̄ (adjoint) and v̇ (tangent), as the trace writes them


def bar(n):
    return f"v{BAR}{n}"


def dot(n):
    return f"v{DOT}{n}"


def close(actual, expected, ulps=4):
    return abs(actual - expected) <= ulps * EPS * max(abs(expected), 1e-300)


# ----- sin(x1) + x1*x2 at (2, 5), by hand -------------------------------------------------
# v1 = x1 = 2, v2 = x2 = 5, v3 = sin(v1), v4 = v1*v2 = 10, v5 = v3 + v4.
# Reverse: v̄5 = 1; + hands its gradient to both inputs: v̄4 = v̄5 = 1, v̄3 = v̄5 = 1;
# * hands each input the other: v̄2 = v̄4*v1 = 2, and x1 feeds both sin and *, so
# v̄1 = v̄3*cos(v1) + v̄4*v2 = cos 2 + 5.

PRIMAL = [  # id, operation, text, inputs, value
    ("v1", "input", "x1", [], 2.0),
    ("v2", "input", "x2", [], 5.0),
    ("v3", "sin", "sin(v1)", ["v1"], math.sin(2.0)),
    ("v4", "mul", "v1·v2", ["v1", "v2"], 10.0),
    ("v5", "add", "v3 + v4", ["v3", "v4"], math.sin(2.0) + 10.0),
]
ADJOINT = [  # step, adjoint, contributions (from, rule, value): from the output down
    (5, 1.0, []),
    (4, 1.0, [("v5", bar(5), 1.0)]),
    (3, 1.0, [("v5", bar(5), 1.0)]),
    (2, 2.0, [("v4", f"{bar(4)}·v1", 2.0)]),
    (1, math.cos(2.0) + 5.0, [("v3", f"{bar(3)}·cos(v1)", math.cos(2.0)),
                              ("v4", f"{bar(4)}·v2", 5.0)]),
]
# Forward along x1: v̇1 = 1 (the seed), v̇2 = 0, v̇3 = cos(v1)·v̇1, v̇4 = v̇1·v2 + v̇2·v1,
# v̇5 = v̇3 + v̇4.
TANGENT = [  # step, rule (None for an input), tangent
    (1, None, 1.0),
    (2, None, 0.0),
    (3, f"{dot(1)}·cos(v1)", math.cos(2.0)),
    (4, f"{dot(1)}·v2 + {dot(2)}·v1", 5.0),
    (5, f"{dot(3)} + {dot(4)}", math.cos(2.0) + 5.0),
]
ARGS = ["sin(x1)+x1*x2", "--at", "x1=2,x2=5"]


def sections(text):
    """The text trace as {section title: [lines]}, titles being the unindented lines."""
    found, title = {}, None
    for line in text.splitlines():
        if line and not line.startswith(" "):
            title = line if line.startswith("read as:") else line.split(" (")[0]
            found[title] = []
        elif line.strip() and title is not None:
            found[title].append(line.strip())
    return found


def numbers(text):
    return [float(t) for t in re.split(r" [+-] ", text)] if " + " in text or " - " in text[1:] \
        else [float(text)]


def test_the_reverse_trace_table_is_the_one_worked_out_by_hand():
    code, out, err = run_cli("trace", *ARGS)
    assert code == 0 and err == ""
    table = sections(out)
    assert list(table) == ["read as: sin(x1) + (x1*x2)", "at x1=2.0, x2=5.0", "primal trace",
                           "adjoint trace", "gradient"]
    for line, (step, _, text, _, value) in zip(table["primal trace"], PRIMAL, strict=True):
        left, middle, right = (part.strip() for part in line.split(" = "))
        assert (left, middle) == (step, text)
        assert close(float(right), value)
    for line, (n, adjoint, parts) in zip(table["adjoint trace"], ADJOINT, strict=True):
        pieces = line.removesuffix("  (seed)").split(" = ")
        assert pieces[0].strip() == bar(n)
        assert close(float(pieces[-1]), adjoint)
        if not parts:
            assert line.endswith("(seed)")
            continue
        assert pieces[1] == " + ".join(rule for _, rule, _ in parts)
        if len(parts) > 1:  # the sum is written out term by term: -0.416… + 5 = 4.583…
            terms = pieces[2].split(" + ")
            assert len(terms) == len(parts)
            assert all(close(float(t), v) for t, (_, _, v) in zip(terms, parts))
    gradient = [line.split(" = ") for line in table["gradient"]]
    assert [g[:2] for g in gradient] == [["∂f/∂x1", bar(1)], ["∂f/∂x2", bar(2)]]
    assert close(float(gradient[0][2]), math.cos(2.0) + 5.0) and float(gradient[1][2]) == 2.0


def test_the_v1_row_shows_the_sum_of_both_uses():
    _, out, _ = run_cli("trace", *ARGS)
    expected = (f"{bar(1)} = {bar(3)}·cos(v1) + {bar(4)}·v2 = {math.cos(2.0)!r} + 5.0 = "
                f"{math.cos(2.0) + 5.0!r}")
    assert expected in [line.strip() for line in out.splitlines()]


def test_the_json_trace_has_the_hand_table():
    code, out, _ = run_cli("trace", *ARGS, "--format", "json")
    assert code == 0
    document = strict_json(out)
    assert (document["mode"], document["variables"]) == ("reverse", ["x1", "x2"])
    (point,) = document["points"]
    assert point["at"] == {"x1": 2.0, "x2": 5.0}
    nodes = point["nodes"]
    assert [(n["id"], n["operation"], n["text"], n["inputs"]) for n in nodes] == \
        [row[:4] for row in PRIMAL]
    assert all(close(n["value"], row[4]) for n, row in zip(nodes, PRIMAL))
    for n, adjoint, parts in ADJOINT:
        node = nodes[n - 1]
        assert close(node["adjoint"], adjoint)
        assert [(c["from"], c["rule"]) for c in node["contributions"]] == \
            [(f, rule) for f, rule, _ in parts]
        assert all(close(c["value"], v) for c, (_, _, v) in zip(node["contributions"], parts))
    assert point["output"] == "v5"
    assert close(point["gradient"]["x1"], math.cos(2.0) + 5.0) and point["gradient"]["x2"] == 2
    assert point["first_nonfinite"] == {"value": None, "adjoint": None}


def test_the_forward_trace_is_its_own_hand_table():
    code, out, err = run_cli("trace", *ARGS, "--mode", "forward", "--wrt", "x1")
    assert code == 0 and err == ""
    table = sections(out)
    rows = table["primal and tangent trace"]
    assert len(rows) == len(PRIMAL)
    for line, (step, _, text, _, value), (n, rule, tangent) in zip(rows, PRIMAL, TANGENT):
        primal, tangent_part = re.split(r"\s{3,}(?=v" + DOT + ")", line)
        left, middle, right = (p.strip() for p in primal.split(" = "))
        assert (left, middle) == (step, text) and close(float(right), value)
        pieces = tangent_part.removesuffix("  (seed)").split(" = ")
        assert pieces[0] == dot(n)
        assert close(float(pieces[-1]), tangent)
        assert (pieces[1] if len(pieces) == 3 else None) == rule
    assert "(seed)" in rows[0] and "(seed)" not in "".join(rows[1:])
    (line,) = table["derivative"]
    assert line.split(" = ")[:2] == ["∂f/∂x1", dot(5)]
    assert close(float(line.split(" = ")[2]), math.cos(2.0) + 5.0)


def test_the_forward_json_has_tangents_and_their_rules():
    _, out, _ = run_cli("trace", *ARGS, "--mode", "forward", "--wrt", "x2", "--format", "json")
    (point,) = strict_json(out)["points"]
    # Along x2: v̇1 = 0, v̇2 = 1, v̇3 = 0, v̇4 = v̇1*v2 + v̇2*v1 = 2, v̇5 = 2.
    assert [n["tangent"] for n in point["nodes"]] == [0.0, 1.0, 0.0, 2.0, 2.0]
    assert point["nodes"][3]["tangent_rule"] == f"{dot(1)}·v2 + {dot(2)}·v1"
    assert point["gradient"] == {"x2": 2.0}


# ----- the numbers are the engine's ---------------------------------------------------------

SAMPLES = [
    ("exp(x^2)^2", {"x": 0.5}),
    ("x*x*x - 2/x + log(x)", {"x": 1.7}),
    ("atan2(y, x) * hypot(x, y) + x^y", {"x": 0.8, "y": 1.3}),
    ("sin(x)+sin(x) + max(x, y)*abs(y - 3)", {"x": 2.25, "y": -0.5}),
    ("-cos(x/y)^3 + pi*x - 2", {"x": 0.3, "y": 2.0}),
]


@pytest.mark.parametrize("text, point", SAMPLES)
def test_the_trace_gradient_is_grads_to_the_bit(text, point):
    at = ",".join(f"{k}={v!r}" for k, v in point.items())
    _, out, _ = run_cli("trace", text, "--at", at, "--format", "json")
    _, grad, _ = run_cli("grad", text, "--at", at, "--format", "json")
    (traced,) = strict_json(out)["points"]
    (computed,) = strict_json(grad)["points"]
    assert traced["gradient"] == computed["gradient"]
    assert traced["nodes"][int(traced["output"][1:]) - 1]["value"] == computed["value"]


@pytest.mark.parametrize("text, point", SAMPLES)
def test_each_adjoint_is_the_sum_of_its_contributions(text, point):
    trace = tracing.reverse(adcli.parse(text), point)
    for step in trace.adjoint_order():
        if step is trace.output:
            assert step.adjoint == 1.0 and not step.contributions
            continue
        parts = [c.value for c in step.contributions]
        assert math.isclose(step.adjoint, math.fsum(parts), rel_tol=1e-14,
                            abs_tol=1e-14 * sum(map(abs, parts)))
        # Every use of the step is there once per input it feeds.
        uses = [(s.number, k) for s in trace.steps for k, o in enumerate(s.operands) if o is step]
        assert sorted((c.source.number, c.index) for c in step.contributions) == sorted(uses)


def test_a_repeated_sub_expression_is_two_steps_and_a_variable_one():
    trace = tracing.reverse(adcli.parse("sin(x)+sin(x)"), {"x": 0.5})
    assert [s.text() for s in trace.steps] == ["x", "sin(v1)", "sin(v1)", "v2 + v3"]
    (x,) = [s for s in trace.steps if s.kind == "input"]
    assert [c.source.id for c in x.contributions] == ["v2", "v3"]
    assert close(x.adjoint, 2 * math.cos(0.5))


# ----- every rule is the primitive's own -----------------------------------------------------

OPERATOR_TEXT = {"add": "x + y", "sub": "x - y", "mul": "x * y", "div": "x / y",
                 "pow": "x ^ y", "neg": "-x"}
LANGUAGE = sorted(n for n in PRIMITIVES if n in OPERATOR_TEXT or PRIMITIVES[n].callable)


def sample_point(cls):
    """A point inside the class's test domain, away from kinks, the same on every run."""
    domains = list(cls.domain) + [cls.domain[-1]] * (cls.arity - len(cls.domain))
    rng = np.random.default_rng(zlib.crc32(cls.name.encode()))
    while True:
        xs = [rng.uniform(lo, hi) for lo, hi in domains]
        if np.all(np.asarray(cls.kink(*xs)) > max(cls.smooth_margin, 0.05)):
            return dict(zip("xy", xs))


def text_of(name):
    cls = PRIMITIVES[name]
    return OPERATOR_TEXT.get(name) or (f"{name}(x)" if cls.arity == 1 else f"{name}(x, y)")


def evaluate(rule: str, trace: tracing.Trace) -> float:
    """The printed rule read back by adcli's own parser: v̄k becomes a_k, v̇k t_k."""
    text = re.sub(f"v{BAR}(\\d+)", r"a_\1", rule)
    text = re.sub(f"v{DOT}(\\d+)", r"t_\1", text)
    expression = adcli.parse(text)
    values = {}
    for step in trace.steps:
        values[step.id] = step.value
        values[f"a_{step.number}"] = step.adjoint if step.adjoint is not None else math.nan
        values[f"t_{step.number}"] = step.tangent if step.tangent is not None else math.nan
    return float(expression.value({v: values[v] for v in expression.variables}))


@pytest.mark.parametrize("name", LANGUAGE)
def test_each_printed_adjoint_rule_gives_the_number_beside_it(name):
    # The chain through exp(...) makes the adjoint handed to the primitive not 1.
    trace = tracing.reverse(adcli.parse(f"exp({text_of(name)})"), sample_point(PRIMITIVES[name]))
    checked = 0
    for step in trace.steps:
        for contribution, rule in zip(step.contributions, trace.rules(step)):
            assert "keep" not in rule
            assert math.isclose(evaluate(rule, trace), contribution.value, rel_tol=1e-13), rule
            checked += 1
    assert checked >= PRIMITIVES[name].arity


@pytest.mark.parametrize("name, wrt", [(n, w) for n in LANGUAGE
                                       for w in "xy"[:PRIMITIVES[n].arity]])
def test_each_printed_tangent_rule_gives_the_tangent_beside_it(name, wrt):
    point = sample_point(PRIMITIVES[name])
    expression = adcli.parse(f"exp({text_of(name)})")
    trace = tracing.forward(expression, point, wrt)
    for step in trace.steps:
        if step.kind == "operation":
            rule = trace.tangent_rule(step)
            assert math.isclose(evaluate(rule, trace), step.tangent, rel_tol=1e-12,
                                abs_tol=1e-300), rule
    # and the output's tangent is the partial derivative the reverse pass gives
    reverse = tracing.reverse(expression, point)
    assert math.isclose(trace.output.tangent, reverse.gradient()[wrt], rel_tol=1e-12)


def test_a_new_function_s_rule_is_read_from_its_backward(registered):
    class Sechtrace(Primitive):
        name = "sechtrace"
        def forward(self, x): return 1.0 / np.cosh(x)
        def backward(self, gy): return -gy * self.y * op.tanh(self.inputs[0])
    registered(Sechtrace)

    trace = tracing.reverse(adcli.parse("sechtrace(x)"), {"x": 0.5})
    (rule,) = trace.rules(trace.steps[0])
    assert rule == f"((-{bar(2)})·v2)·tanh(v1)"
    # d sech x = -sech x tanh x
    assert close(trace.steps[0].adjoint, -math.tanh(0.5) / math.cosh(0.5))


@pytest.mark.parametrize("text, rule", [
    # d/dx x^b = b x^(b-1), worked out for a number b as one writes it by hand (it printed
    # (v1^1)·2 for x^2); x^1's is the number 1, and a variable exponent keeps its b - 1.
    ("x^2", "{a2}·(2·v1)"), ("x^3", "{a2}·(3·(v1^2))"), ("x^0.5", "{a2}·(0.5·(v1^(-0.5)))"),
    ("x^1", "{a2}·1"), ("x^y", "{a3}·(v2·(v1^(v2 - 1)))"),
    # d/dx b^x = b^x log(b): a constant's log as written, not the number it comes to
    # (it printed (2^v1)·0.6931471805599453), and pi's b - 1 as pi - 1
    ("2^x", "{a2}·((2^v1)·log(2))"), ("x^pi", "{a2}·(pi·(v1^(pi - 1)))"),
])
def test_a_power_s_rule_reads_as_written_by_hand(text, rule):
    expression = adcli.parse(text)
    trace = tracing.reverse(expression, {"x": 2.0, "y": 3.0} if "y" in text else {"x": 2.0})
    step = trace.steps[0]
    (printed,) = trace.rules(step)
    assert printed == rule.format(a2=bar(2), a3=bar(3))
    assert math.isclose(evaluate(printed, trace), step.adjoint, rel_tol=1e-15)


def test_a_negative_constant_in_a_rule_is_parenthesised():
    trace = tracing.reverse(adcli.parse("x*(-2)"), {"x": 3.0})
    assert trace.rules(trace.steps[0]) == [f"{bar(2)}·(-2)"]
    assert trace.steps[0].adjoint == -2.0


def test_formula_is_not_recursive():
    # A chain far deeper than Python's recursion limit prints without recursing.
    x = Variable(np.array([0.5]), name="v1")
    y = x
    from adcli.core import using_backprop
    with using_backprop(True):
        for _ in range(5000):
            y = op.sin(y)
    text = tracing.formula(y)
    assert text.startswith("sin(" * 3) and text.count("sin(") == 5000


# ----- nan and inf ---------------------------------------------------------------------------

def test_the_first_nonfinite_value_and_adjoint_are_marked():
    # log(x)*x at -1: v2 = log(-1) = nan is the first bad value; the adjoints
    # v̄3 = 1, v̄2 = v̄3*v1 = -1 are finite, v̄1 = v̄3*v2 + v̄2/v1 = nan + 1 is the first bad
    # one (its terms in the order the engine adds them: v3's first, as it runs first).
    code, out, err = run_cli("trace", "log(x)*x", "--at", "x=-1")
    assert code == 0
    marked = [line.strip() for line in out.splitlines() if "◀" in line]
    assert marked == ["v2 = log(v1) = nan  ◀ first nan",
                      f"{bar(1)} = {bar(3)}·v2 + {bar(2)}/v1 = nan + 1.0 = nan  ◀ first nan  "
                      f"({bar(2)}/v1 is a convention: log is not differentiable at v1 = -1, "
                      "a negative argument, where the value is nan)"]
    warning, kink = warnings_in(err)
    assert "v2 = log(v1) is nan" in warning and f"{bar(1)} is nan" in warning
    # log's argument is negative: its derivative there is a convention (issue 9)
    assert kink.startswith("adcli: warning: log is not differentiable at 1 of 1 point")


def test_an_adjoint_that_alone_becomes_infinite_is_marked():
    # sqrt(x) at 0: v2 = 0 is finite, v̄1 = v̄2/(2*v2) = 1/0 = inf.
    _, out, _ = run_cli("trace", "sqrt(x)", "--at", "x=0", "--format", "json")
    (point,) = strict_json(out)["points"]
    assert point["first_nonfinite"] == {"value": None, "adjoint": "v1"}
    assert point["nodes"][0]["adjoint"] == "inf"


def test_strict_writes_the_trace_then_exits_3():
    code, out, err = run_cli("trace", "sqrt(x)", "--at", "x=0", "--strict")
    assert code == 3
    assert "◀ first inf" in out
    assert err.startswith("adcli: error:") and "--strict" in err and len(err.splitlines()) == 1


def test_a_nonfinite_tangent_is_marked():
    # d/dx sqrt(x) at 0 is inf: v̇2 = v̇1/(2*v2) = 1/0.
    _, out, _ = run_cli("trace", "sqrt(x)", "--at", "x=0", "--mode", "forward")
    (line,) = [line for line in out.splitlines() if "◀" in line]
    assert f"{dot(2)} = {dot(1)}/(2·v2) = inf  ◀ first inf  (a convention: sqrt is not " \
        "differentiable at v1 = 0" in line


# ----- options and errors --------------------------------------------------------------------

def test_digits_rounds_every_number():
    _, out, _ = run_cli("trace", *ARGS, "--digits", "3")
    assert f"{bar(1)} = {bar(3)}·cos(v1) + {bar(4)}·v2 = -0.416 + 5 = 4.58" in out
    assert "v3 = sin(v1) = 0.909" in out


def test_a_grid_gives_one_trace_per_point():
    _, out, _ = run_cli("trace", "x^2", "--grid", "x=1:3:3", "--format", "json")
    points = strict_json(out)["points"]
    assert [p["at"]["x"] for p in points] == [1.0, 2.0, 3.0]
    assert [p["gradient"]["x"] for p in points] == [2.0, 4.0, 6.0]  # 2x
    _, text, _ = run_cli("trace", "x^2", "--grid", "x=1:3:3")
    assert [line for line in text.splitlines() if line.startswith("at ")] == \
        ["at x=1.0", "at x=2.0", "at x=3.0"]


def test_forward_mode_needs_one_variable():
    code, out, err = run_cli("trace", *ARGS, "--mode", "forward")
    assert (code, out) == (2, "")
    assert err == ("adcli: error: --mode forward follows one variable and the expression has "
                   "x1 and x2: name one with --wrt\n")


def test_missing_values_are_an_error():
    code, out, err = run_cli("trace", "x*y", "--at", "x=1")
    assert (code, out) == (2, "") and "no value given for y" in err


def test_reverse_wrt_chooses_the_gradient_lines():
    _, out, _ = run_cli("trace", *ARGS, "--wrt", "x2")
    assert sections(out)["gradient"] == [f"∂f/∂x2 = {bar(2)} = 2.0"]


def test_a_constant_expression_has_no_adjoint_trace():
    code, out, _ = run_cli("trace", "2+3")
    assert code == 0
    table = sections(out)
    assert table["primal trace"] == ["v1 = 2 + 3 = 5.0"]
    assert "adjoint trace: none" in out


# ----- big expressions -----------------------------------------------------------------------

def big_sum(terms):
    # 4 steps a term (x*k, sin, *y, +) and 2 inputs: 4*terms + 1 steps.
    return "+".join(f"sin(x*{k})*y" for k in range(terms))


def test_limit_keeps_the_first_and_last_rows_and_counts_the_rest():
    terms = 2500  # 10,001 steps
    code, out, _ = run_cli("trace", big_sum(terms), "--at", "x=0.1,y=2", "--limit", "10")
    assert code == 0
    table = sections(out)
    primal = table["primal trace"]
    assert [line.split()[0] for line in primal] == \
        ["v1", "v2", "v3", "v4", "v5", "⋮", "v9997", "v9998", "v9999", "v10000", "v10001"]
    assert primal[5] == "⋮ 9991 row(s), v6 … v9996, left out by --limit 10"
    adjoint = table["adjoint trace"]
    assert adjoint[5] == f"⋮ 9991 row(s), {bar(9996)} … {bar(6)}, left out by --limit 10"
    # x feeds 2,500 products: its row keeps 10 of the terms and counts the others.
    (x_row,) = [line for line in adjoint if line.startswith(bar(1) + " ")]
    assert x_row.count("(2490 more terms)") == 2
    # d/dx sum(sin(k x) y) = y sum(k cos(k x)); d/dy = sum(sin(k x))
    k = np.arange(terms)
    gradient = dict(line.split(" = ", 2)[::2] for line in table["gradient"])
    assert math.isclose(float(gradient["∂f/∂x"]), 2 * np.sum(k * np.cos(0.1 * k)), rel_tol=1e-9)
    assert math.isclose(float(gradient["∂f/∂y"]), np.sum(np.sin(0.1 * k)), rel_tol=1e-9)
    assert len(out) < 5000


def test_limit_always_shows_the_marked_row():
    # The 400th term divides by zero: 1/(x-400) at x = 400 is inf.
    text = "+".join(f"1/(x-{k})" for k in range(1, 800))
    _, out, _ = run_cli("trace", text, "--at", "x=400", "--limit", "4")
    marked = [line for line in sections(out)["primal trace"] if "◀" in line]
    assert len(marked) == 1 and "= inf  ◀ first inf" in marked[0]


def test_the_text_trace_is_written_as_it_goes():
    # Each line is written when laid out: the stream sees many writes, not one table.
    class Counting:
        encoding = "utf-8"
        writes = 0

        def write(self, text):
            self.writes += 1

        def flush(self):
            pass

    from adcli.commands.trace import TextTrace, Trace
    command = Trace([adcli.parse(big_sum(50))], ["x", "y"], mode="reverse", limit=None)
    stream = Counting()
    layout = TextTrace(command, stream, None, None)
    layout.write(command.trace({"x": 0.1, "y": 2.0}))
    assert stream.writes >= 2 * (4 * 50 + 1)


def test_the_readme_shows_real_trace_and_graph_output():
    # The README's examples are the program's output, kept in step with it here.
    import shlex
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```console\n\$ (adcli (?:trace|graph) [^\n]*)\n(.*?)```", readme, re.S)
    assert len(blocks) >= 3
    for command, shown in blocks:
        code, out, _ = run_cli(*shlex.split(command)[1:])
        assert code == 0 and out == shown, command


# ----- folding on a narrow terminal -------------------------------------------------------

LONG_NAME = "abcdefghijklmnopqrstuvwxyz_0123"


def trace_in_terminal(columns, *argv):
    """adcli trace ARGV in a pseudo-terminal this wide: (exit status, the screen's text)."""
    from test_output import adcli_executable, in_pty

    return in_pty([adcli_executable(), "trace", *argv], columns)


def test_the_point_is_folded_between_pairs_never_inside_a_number():
    # At 40 columns "at NAME=-1.2345678901234567e-300," is wider than the terminal: it
    # used to be cut by the terminal inside the number; now after its "=".
    code, output = trace_in_terminal(40, f"exp({LONG_NAME}*q)", "--at",
                                     f"{LONG_NAME}=-1.2345678901234567e-300,"
                                     "q=3.3333333333333335e-7")
    from adcli.commands.trace import cells      # columns: v̄'s bar takes none

    assert code == 0, output
    lines = output.splitlines()
    start = lines.index(f"at {LONG_NAME}=")
    assert lines[start + 1:start + 3] == ["    -1.2345678901234568e-300,",
                                          "  q=3.3333333333333335e-07"]
    assert all(cells(line) <= 40 for line in lines), output


def test_a_narrow_forward_trace_has_one_layout_for_every_row():
    # At 60 columns the short rows kept the tangent beside the value and the long ones put
    # it under: two tables interleaved. Now every tangent goes under its value.
    code, output = trace_in_terminal(60, "sin(x1)+x1*x2", "--at", "x1=2,x2=5",
                                     "--mode", "forward", "--wrt", "x1")
    assert code == 0, output
    rows = [line for line in output.splitlines() if re.match(r"  v\d+ +=", line)]
    assert len(rows) == 5 and not any(DOT in row for row in rows), output
    assert rows[0] == "  v1 = x1      = 2.0"               # still aligned, as they fit
    assert f"  {dot(3)} = {dot(1)}·cos(v1) = -0.4161468365471424" in output.splitlines()


def test_a_primal_trace_pads_its_rows_only_if_every_row_fits_so():
    # At 60 columns, v1 (a long name) folds: the other rows used to be padded to its
    # width where they fit (v4) and not where they did not (v2, v3).
    code, output = trace_in_terminal(60, f"exp({LONG_NAME}*q)", "--at",
                                     f"{LONG_NAME}=-1.2345678901234567e-300,"
                                     "q=3.3333333333333335e-7")
    assert code == 0, output
    lines = output.splitlines()
    assert "  v4 = exp(v3) = 1.0" in lines and "  v2 = q = 3.3333333333333335e-07" in lines


def test_a_points_files_other_columns_say_which_row_each_trace_is(tmp_path):
    """trace dropped them: 'at x=2.0' with no id, in the text and in JSON."""
    points = tmp_path / "points.csv"
    points.write_text("id,x\np1,2\np2,3\n")
    code, out, err = run_cli("trace", "x^2", "--points", str(points))
    assert code == 0 and [line for line in out.splitlines() if line.startswith("at ")] == \
        ["at id=p1, x=2.0", "at id=p2, x=3.0"]
    code, out, err = run_cli("trace", "x^2", "--points", str(points), "--format", "json")
    assert [(p["at"], p["extra"]) for p in strict_json(out)["points"]] == \
        [({"x": 2.0}, {"id": "p1"}), ({"x": 3.0}, {"id": "p2"})]
