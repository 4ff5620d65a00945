"""adcli trace and graph: what a student's report found, each checked against numbers
worked out by hand or given by ``grad`` through the Python API (not by the trace), and
against the exact text a reader sees.
"""
from __future__ import annotations

import math
import re
import warnings

import pytest

import adcli
from adcli import tracing
from conftest import run_cli, strict_json

INF = math.inf
BAR, DOT = "\u0304", "\u0307"   # v̄ (adjoint) and v̇ (tangent), as the trace writes them


def bar(n, letter="v"):
    return f"{letter}{BAR}{n}"


def dot(n, letter="v"):
    return f"{letter}{DOT}{n}"


def rows(out):
    return [line.strip() for line in out.splitlines()]


def api_grad(text, point, name):
    """d text / d name at point by reverse mode, through the Python API."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(adcli.parse(text).grad(at=point)[name])


def at(point):
    return ",".join(f"{k}={v!r}" for k, v in point.items())


# ----- 1. a tangent that is exactly 0 times inf is 0, not nan ----------------------------------

# d/dx (x*y) = y = 2 at x = inf; d/dx exp(x)*y = exp(x)*y = inf at x = 1000 (exp overflows);
# d/dx log(x)*y = y/x = -2 at x = -1 (log(-1) is nan, its slope 1/x is not).
ZERO_TIMES_INF = [
    ("x*y", {"x": INF, "y": 2.0}, 2.0, f"{dot(3)} = {dot(1)}·v2 = 2.0  (left out: "
     f"{dot(2)}·v1, exactly 0 as v2 does not depend on x)"),
    ("exp(x)*y", {"x": 1000.0, "y": 2.0}, INF, f"{dot(4)} = {dot(3)}·v2 = inf  (left out: "
     f"{dot(2)}·v3, exactly 0 as v2 does not depend on x)"),
    ("log(x)*y", {"x": -1.0, "y": 2.0}, -2.0, f"{dot(4)} = {dot(3)}·v2 = -2.0  (left out: "
     f"{dot(2)}·v3, exactly 0 as v2 does not depend on x)"),
]


@pytest.mark.parametrize("text, point, expected, row", ZERO_TIMES_INF)
def test_forward_mode_leaves_out_a_term_whose_tangent_is_exactly_zero(text, point, expected,
                                                                      row):
    assert api_grad(text, point, "x") == expected          # reverse mode, by hand above
    code, out, _ = run_cli("trace", text, "--at", at(point), "--mode", "forward", "--wrt", "x")
    assert code == 0
    assert any(line.endswith(row) for line in rows(out)), out
    (point_json,) = strict_json(run_cli("trace", text, "--at", at(point), "--mode", "forward",
                                        "--wrt", "x", "--format", "json")[1])["points"]
    assert point_json["gradient"] == {"x": expected if math.isfinite(expected) else "inf"}


@pytest.mark.parametrize("text, point, expected, row", ZERO_TIMES_INF)
def test_taylor_mode_leaves_it_out_too(text, point, expected, row):
    from adcli.taylor import jvp, taylor_derivative

    expression = adcli.parse(text)
    assert float(jvp(expression, point, {"x": 1.0}).tangent) == expected
    assert float(taylor_derivative(expression, point, "x", 1)) == expected


def test_a_second_derivative_leaves_it_out_too():
    # d^2/dx^2 (x*y) = 0 for every x, inf too: y's rows are exactly 0
    from adcli.taylor import taylor_derivative

    assert float(taylor_derivative(adcli.parse("x*y"), {"x": INF, "y": 2.0}, "x", 2)) == 0.0


def test_a_term_of_a_fixed_exponent_that_is_nan_is_left_out():
    # d/dx x^y = y x^(y-1) = -2 at (-1, 2); the y term, v̇2·(v1^v2)·log(v1), is 0·nan
    point = {"x": -1.0, "y": 2.0}
    assert api_grad("x^y", point, "x") == -2.0
    _, out, _ = run_cli("trace", "x^y", "--at", at(point), "--mode", "forward", "--wrt", "x")
    assert rows(out)[7].endswith(
        f"{dot(3)} = {dot(1)}·(v2·(v1^(v2 - 1))) = -2.0  (left out: {dot(2)}·((v1^v2)·log(v1)),"
        " exactly 0 as v2 does not depend on x)")


# ----- 2. keep(…, 0), an engine helper, is said in words ---------------------------------------

def test_a_pinned_adjoint_is_a_convention_in_words():
    # d/dy x^y = x^y log x, 0·(-inf) at x = 0: taken as 0 (0^y is flat in y for y > 0)
    point = {"x": 0.0, "y": 0.5}
    assert api_grad("x^y", point, "y") == 0.0
    code, out, _ = run_cli("trace", "x^y", "--at", at(point))
    assert code == 0 and "keep" not in out
    assert f"{bar(2)} = {bar(3)}·((v1^v2)·log(v1)) = 0.0  (0 by convention where v3 = 0, " \
        "v2 > 0 and v1 = 0)" in rows(out)


def test_a_pinned_term_among_others_is_named():
    # d/dx x^x = x·x^(x-1) + x^x log x: at 0 the first term is taken as 0 (0·0^-1 = nan)
    assert api_grad("x^x", {"x": 0.0}, "x") == -INF
    _, out, _ = run_cli("trace", "x^x", "--at", "x=0")
    assert "keep" not in out
    assert f"{bar(1)} = {bar(2)}·(v1·(v1^(v1 - 1))) + {bar(2)}·((v1^v1)·log(v1)) = 0.0 - inf " \
        f"= -inf  ◀ first -inf  ({bar(2)}·(v1·(v1^(v1 - 1))) is 0 by convention where " \
        "v1 = 0)" in rows(out)


def test_a_pin_where_both_are_zero():
    # d/dx x^y = y x^(y-1) = 0·0^-1 at (0, 0): taken as 0 (PyTorch's convention)
    assert api_grad("x^y", {"x": 0.0, "y": 0.0}, "x") == 0.0
    _, out, _ = run_cli("trace", "x^y", "--at", "x=0,y=0")
    assert "keep" not in out
    assert f"{bar(1)} = {bar(3)}·(v2·(v1^(v2 - 1))) = 0.0  (0 by convention where v1 = 0 " \
        "and v2 = 0)" in rows(out)


def test_a_pinned_tangent_is_a_convention_in_words():
    _, out, _ = run_cli("trace", "x^y", "--at", "x=0,y=0.5", "--mode", "forward", "--wrt", "y")
    assert "keep" not in out
    assert rows(out)[7].endswith(
        f"{dot(3)} = {dot(2)}·((v1^v2)·log(v1)) = 0.0  ({dot(2)}·((v1^v2)·log(v1)) is 0 by "
        "convention where v3 = 0, v2 > 0 and v1 = 0; left out: "
        f"{dot(1)}·(v2·(v1^(v2 - 1))), exactly 0 as v1 does not depend on y)")


@pytest.mark.parametrize("columns", [60, 80])
def test_a_note_goes_under_its_row_on_a_narrow_terminal(columns):
    from test_output import adcli_executable, in_pty
    from adcli.commands.trace import cells

    code, screen = in_pty([adcli_executable(), "trace", "x^y", "--at", "x=0,y=0.5", "--mode",
                           "forward", "--wrt", "y"], columns)
    assert code == 0, screen
    assert all(cells(line) <= columns for line in screen.splitlines()), screen
    # folded between words: every word of the note whole, in order
    assert "(v̇2·((v1^v2)·log(v1)) is 0 by convention where v3 = 0, v2 > 0 and v1 = 0; left " \
        "out: v̇1·(v2·(v1^(v2 - 1))), exactly 0 as v1 does not depend on y)" \
        in " ".join(screen.split())


@pytest.mark.parametrize("mode", [[], ["--mode", "forward", "--wrt", "y"]])
def test_the_json_says_the_convention_too(mode):
    _, out, _ = run_cli("trace", "x^y", "--at", "x=0,y=0.5", *mode, "--format", "json")
    assert "keep" not in out
    (point,) = strict_json(out)["points"]
    v2, v3 = point["nodes"][1], point["nodes"][2]
    if mode:
        assert v3["tangent_rule"] == f"{dot(2)}·((v1^v2)·log(v1))"
        assert v3["tangent_note"].startswith(f"{dot(2)}·((v1^v2)·log(v1)) is 0 by convention "
                                             "where v3 = 0, v2 > 0 and v1 = 0")
    else:
        assert v2["contributions"] == [{"from": "v3", "rule": f"{bar(3)}·((v1^v2)·log(v1))",
                                        "value": 0.0, "note": "0 by convention where v3 = 0, "
                                        "v2 > 0 and v1 = 0"}]


# ----- 3. --digits rounds results, never the point ---------------------------------------------

def test_trace_digits_keeps_the_coordinates():
    _, out, _ = run_cli("trace", "x^2", "--at", "x=0.123456789", "--digits", "3")
    lines = rows(out)
    assert "at x=0.123456789" in lines and "v1 = x    = 0.123456789" in lines
    assert "v2 = v1^2 = 0.0152" in lines                      # 0.0152415...: rounded
    assert f"∂f/∂x = {bar(1)} = 0.247" in lines               # 2x = 0.2469...: rounded
    _, out, _ = run_cli("trace", "x^2", "--at", "x=0.123456789", "--digits", "3", "--format",
                        "json")
    (point,) = strict_json(out)["points"]
    assert point["at"] == {"x": 0.123456789} and point["nodes"][0]["value"] == 0.123456789
    assert point["nodes"][1]["value"] == 0.0152 and point["gradient"] == {"x": 0.247}


def test_graph_digits_keeps_the_coordinates():
    _, out, _ = run_cli("graph", "x^2", "--at", "x=0.123456789", "--digits", "3")
    assert "at x=0.123456789" in out and '"v1 = x\\n= 0.123456789\\n' in out
    assert '"v2 = v1^2\\n= 0.0152\\n' in out
    _, out, _ = run_cli("graph", "x^2", "--at", "x=0.123456789", "--digits", "3",
                        "--format", "tree")
    assert rows(out)[1].endswith(f"v1 = x = 0.123456789   {bar(1)} = 0.247")


def test_a_warning_names_the_point_whole():
    _, _, err = run_cli("trace", "log(x)", "--at", "x=-0.123456789", "--digits", "2")
    assert "at x=-0.123456789:" in err


# ----- 4. JSON stays one document when a row of the points stops the run ----------------------

def test_json_is_closed_when_a_bad_row_stops_the_run(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("x,y\n1,2\nabc,3\n")
    code, out, err = run_cli("trace", "x*y", "--points", str(bad), "--format", "json")
    assert code == 2 and "line 3" in err and "'abc'" in err
    (point,) = strict_json(out)["points"]
    assert point["at"] == {"x": 1.0, "y": 2.0} and point["gradient"] == {"x": 2.0, "y": 1.0}


# ----- 5. variables named v1, v2: the steps take another letter -------------------------------

def test_variables_named_like_steps_get_steps_of_another_letter():
    code, out, _ = run_cli("trace", "v2*v1 + v3", "--at", "v1=1,v2=2,v3=3")
    assert code == 0
    lines = rows(out)
    assert lines[5:10] == ["w1 = v2      = 2.0", "w2 = v1      = 1.0", "w3 = v3      = 3.0",
                          "w4 = w1·w2   = 2.0", "w5 = w4 + w3 = 5.0"]
    # d/dv1 (v2 v1 + v3) = v2 = 2, d/dv2 = v1 = 1
    assert lines[-3:] == [f"∂f/∂v2 = {bar(1, 'w')} = 1.0", f"∂f/∂v1 = {bar(2, 'w')} = 2.0",
                          f"∂f/∂v3 = {bar(3, 'w')} = 1.0"]
    _, out, _ = run_cli("trace", "v2*v1 + v3", "--at", "v1=1,v2=2,v3=3", "--mode", "forward",
                        "--wrt", "v1")
    assert f"seed {dot(2, 'w')} = 1 for v1" in out and re.search(r"\bv\d+ = v\d+ =", out) is None


def test_the_graph_and_json_use_the_same_letter():
    _, out, _ = run_cli("graph", "v2*v1 + v3", "--at", "v1=1,v2=2,v3=3")
    assert re.findall(r"^  (\w+) \[label", out, re.M) == ["w1", "w2", "w3", "w4", "w5"]
    _, out, _ = run_cli("graph", "v2*v1 + v3", "--at", "v1=1,v2=2,v3=3", "--format", "tree")
    assert rows(out)[0] == f"w5 = w4 + w3 = 5.0   {bar(5, 'w')} = 1.0"
    _, out, _ = run_cli("trace", "v2*v1 + v3", "--at", "v1=1,v2=2,v3=3", "--format", "json")
    (point,) = strict_json(out)["points"]
    assert [n["id"] for n in point["nodes"]] == ["w1", "w2", "w3", "w4", "w5"]


@pytest.mark.parametrize("names, letter", [
    (["x", "y"], "v"), (["v", "w"], "v"), (["v1"], "w"), (["v1", "w2"], "u"),
    (["v1", "w1", "u1"], "y"), (["V1"], "v"),
])
def test_the_step_letter_is_one_no_variable_takes(names, letter):
    assert tracing.step_letter(names) == letter


# ----- 6. graph marks the step its warning names -----------------------------------------------

def test_graph_marks_the_first_nonfinite_value():
    code, out, err = run_cli("graph", "log(x)*2", "--at", "x=-1", "--format", "tree")
    assert code == 0 and "marked ◀ first" in err
    assert [line for line in rows(out) if "◀" in line] == \
        [f"├── v2 = log(v1) = nan  ◀ first nan   {bar(2)} = 2.0   (on a kink: hands back a "
         "convention)"]   # (log at -1: trace's row says its v̄2/v1 is a convention too)
    _, out, _ = run_cli("graph", "log(x)*2", "--at", "x=-1")
    marked = [line for line in out.splitlines() if "◀" in line or "red" in line]
    assert marked == [f'  v2 [label="v2 = log(v1)\\n= nan  ◀ first nan\\n{bar(2)} = 2.0", '
                      'shape="box", style="rounded", color="red", fontcolor="red"];']


def test_graph_marks_the_first_nonfinite_adjoint():
    # d/dx sqrt(x) = 1/(2 sqrt x) = inf at 0
    _, out, _ = run_cli("graph", "sqrt(x)", "--at", "x=0")
    (marked,) = [line for line in out.splitlines() if "◀" in line]
    assert marked.startswith(f'  v1 [label="v1 = x\\n= 0.0\\n{bar(1)} = inf  ◀ first inf"')
    _, out, _ = run_cli("graph", "sqrt(x)", "--format", "tree", "--at", "x=0")
    assert rows(out)[1] == f"└── v1 = x = 0.0   {bar(1)} = inf  ◀ first inf"


# ----- 7. the tree shows what each use hands back, and the sum ---------------------------------

def test_the_tree_shows_each_share_and_the_sum_once():
    # d/dx (x*x + 3x^2) at 2: x*x hands back x = 2 along each of its edges, 3x^2 hands back
    # 3·2x = 12: v̄1 = 2 + 2 + 12 = 16 = 8x.
    assert api_grad("x*x + 3*x^2", {"x": 2.0}, "x") == 16.0
    _, out, _ = run_cli("graph", "x*x + 3*x^2", "--at", "x=2", "--format", "tree")
    lines = rows(out)
    shares = [line.split("   ")[-1] for line in lines if line.endswith(("2.0", "12.0"))
              and "v1 = x" in line]
    assert shares == [f"{bar(1)} += 2.0", f"{bar(1)} += 2.0", f"{bar(1)} += 12.0"]
    assert f"{bar(1)} = 16.0" not in out.split("\n\n")[0]     # not the total at each use
    assert lines[-2:] == ["each variable used more than once adds up what its uses hand back "
                          "(+= above):", f"{bar(1)} = 2.0 + 2.0 + 12.0 = 16.0"]


def test_a_variable_used_once_shows_its_adjoint():
    _, out, _ = run_cli("graph", "exp(x^2)^2", "--at", "x=0.5", "--format", "tree")
    assert "+=" not in out and "adds up" not in out


def test_without_values_a_shared_variable_has_no_sum():
    code, out, _ = run_cli("graph", "x*y + sin(x)", "--format", "tree")
    assert code == 0 and rows(out)[-1] == "└── v1 = x" and "+=" not in out


# ----- 8. a deep tree on a terminal never cuts a number ---------------------------------------

DEPTH = 18


def sin_chain():
    """(value, adjoint) of v1..v19 in sin(sin(...sin(x))) at x = 1, by hand: v_{k+1} =
    sin v_k, and the adjoint of v_k is the product of cos v_j for j = k..18."""
    values = [1.0]
    for _ in range(DEPTH):
        values.append(math.sin(values[-1]))
    adjoints = [1.0]
    for v in reversed(values[:-1]):
        adjoints.append(adjoints[-1] * math.cos(v))
    return values, adjoints[::-1]


@pytest.mark.parametrize("columns", [60, 80, 120])
def test_a_deep_tree_folds_between_words_on_a_terminal(columns):
    from test_output import adcli_executable, in_pty
    from adcli.commands.trace import cells

    text = "sin(" * DEPTH + "x" + ")" * DEPTH
    code, screen = in_pty([adcli_executable(), "graph", text, "--at", "x=1", "--format",
                           "tree"], columns)
    assert code == 0, screen
    lines = screen.splitlines()
    assert all(cells(line) <= columns for line in lines), screen
    assert not any(line.rstrip().endswith("=") for line in lines), screen
    words = screen.split()
    values, adjoints = sin_chain()
    shown = sum(f"v{k + 1}" in words for k in range(len(values)))
    for k in range(len(values)):
        if f"v{k + 1}" not in words:
            continue
        # whole, each within 2 ulps of the hand value (the engine's sin, cos may round)
        for expected, label in [(values[k], "value"), (adjoints[k], "adjoint")]:
            found = [float(w) for w in words if re.fullmatch(r"-?\d\.\d+(e-?\d+)?", w)
                     and math.isclose(float(w), expected, rel_tol=5e-16)]
            assert found, f"v{k + 1}'s {label} {expected!r} not shown whole\n{screen}"
    assert shown == len(values) or "too deep for this" in " ".join(words)


def test_a_wide_terminal_keeps_the_usual_guides():
    from test_output import adcli_executable, in_pty

    text = "sin(" * DEPTH + "x" + ")" * DEPTH
    _, wide = in_pty([adcli_executable(), "graph", text, "--at", "x=1", "--format", "tree"],
                     120)
    _, narrow = in_pty([adcli_executable(), "graph", text, "--at", "x=1", "--format", "tree"],
                       80)
    assert "└── v18 = sin(v17)" in wide
    assert "└ v18 = sin(v17)" in narrow and "v1 = x = 1.0" in narrow


# ----- 9. small things -------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["trace", "graph"])
def test_no_header_is_not_offered_where_there_is_no_header(command):
    code, out, _ = run_cli(command, "-h")
    assert code == 0 and "--no-header" not in out
    code, _, err = run_cli(command, "x", "--at", "x=1", "--no-header")
    assert code == 2 and "No such option" in err and "--no-header" in err


def test_forward_mode_with_several_wrt_says_it_takes_one():
    code, out, err = run_cli("trace", "x1*x2", "--at", "x1=1,x2=2", "--mode", "forward",
                             "--wrt", "x1,x2")
    assert (code, out) == (2, "")
    assert err == ("adcli: error: --mode forward takes one --wrt variable, not x1 and x2: one "
                   "forward pass carries one tangent (one column of the Jacobian), so trace "
                   "each variable in a run of its own\n")


def test_the_tree_has_one_space_before_a_value():
    _, out, _ = run_cli("graph", "x*x + 3*x^2", "--at", "x=2", "--format", "tree")
    assert rows(out)[0] == f"v5 = v2 + v4 = 16.0   {bar(5)} = 1.0"
    assert "  = " not in out


# ----- 10. a printed sum is the adjoint, added left to right ------------------------------------

def test_an_adjoint_sum_adds_up_left_to_right_to_the_bit():
    # Five uses of x; by step number, the sum left to right is 1 ulp off the engine's.
    text, point = "x*sqrt(x) + sin(x*x) + cos(x)*7", {"x": 0.148}
    expected = api_grad(text, point, "x")
    _, out, _ = run_cli("trace", text, "--at", at(point))
    (row,) = [line for line in rows(out) if line.startswith(f"{bar(1)} = ")]
    _, rules, terms, total = row.split(" = ")
    assert float(total) == expected
    signed = re.findall(r"(?:^|(?<= )([+-]) )(-?[\d.e-]+)", terms)
    running = None
    for sign, number in signed:
        value = float(number) * (-1.0 if sign == "-" else 1.0)
        running = value if running is None else running + value
    assert len(signed) == 5 and running == expected


# ----- a number written as an operation (-1, 1/2) is a number, not a step ---------------------

@pytest.mark.parametrize("text, value_row, adjoint_row", [
    # x^-1 at 2: 1/2; its derivative -1·x^-2 = -1/4
    ("x^-1", "v2 = v1^(-1) = 0.5", f"{bar(1)} = {bar(2)}·((-1)·(v1^(-2))) = -0.25"),
    # x^(1/2) at 2: sqrt(2); its derivative 0.5·x^-0.5 = 0.5/sqrt(2)
    ("x^(1/2)", f"v2 = v1^0.5 = {math.sqrt(2)!r}",
     f"{bar(1)} = {bar(2)}·(0.5·(v1^(-0.5))) = {api_grad('x^(1/2)', {'x': 2.0}, 'x')!r}"),
    ("x*(-1)", "v2 = v1·(-1) = -2.0", f"{bar(1)} = {bar(2)}·(-1) = -1.0"),
])
def test_a_number_written_as_an_operation_is_worked_out_as_by_hand(text, value_row,
                                                                    adjoint_row):
    """x^-1 made v2 = -1 a step of its own, and its rule the general b·a^(b-1) in v2,
    where x^3 gets 3·v1^2: the reader's -1 is an operation (negation) on the number 1."""
    code, out, err = run_cli("trace", text, "--at", "x=2")
    assert code == 0
    assert value_row in rows(out) and adjoint_row in rows(out), out
    assert not any(r.startswith("v3 =") for r in rows(out))


def test_a_constant_expression_alone_is_still_shown_as_written():
    code, out, err = run_cli("trace", "2*3")
    assert (code, err) == (0, "")
    assert "v1 = 2·3 = 6.0" in rows(out)
