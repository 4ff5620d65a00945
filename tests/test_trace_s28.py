"""Session 28, from a lecturer teaching reverse mode: graph marks every step on a kink as
trace does (an inf or nan handed back too), a --let name v1 moves the step letter, graph's
warnings are grad's (and trace's), forward mode leaves out a pinned term of an input that
does not move, atan2's kink said in the steps' names, graph's caption keeps the id column.
The numbers are worked out by hand in the comments; the texts are the ones a reader sees.
"""
from __future__ import annotations

import re

import pytest

from conftest import run_cli, strict_json
from test_trace_findings import bar, dot, rows

DASHED = 'style="dashed", color="#c05a00", fontcolor="#c05a00"'
ORANGE = 'color="#c05a00"'
CAPTION = "(dashed: a convention, at a kink)"


def edges(out: str) -> dict:
    return {m[1]: m[2] for m in re.finditer(r"^  (\w+ -> \w+) \[(.*)\];$", out, re.M)}


def nodes(out: str) -> dict:
    return {m[1]: m[2] for m in re.finditer(r"^  (\w+) \[(.*)\];$", out, re.M)}


def graph(*argv):
    code, out, err = run_cli("graph", *argv)
    assert code == 0, err
    return out, err


# ----- 1. an inf or nan handed back on a kink is a convention in graph too -------------------

def test_sqrt_at_0_hands_back_inf_as_a_convention():
    # d/dx sqrt(x) = 1/(2 sqrt x): 1/0 = inf at x = 0, where sqrt has no derivative
    out, _ = graph("sqrt(x)*2", "--at", "x=0")
    assert edges(out)["v1 -> v2"] == f'label="inf (convention)", {DASHED}'
    assert edges(out)["v2 -> v3"] == 'label="2.0"'        # v̄3·2, a slope
    assert ORANGE in nodes(out)["v2"]
    assert CAPTION in out


def test_the_tree_says_sqrt_at_0_is_on_a_kink():
    out, _ = graph("sqrt(x)*2", "--at", "x=0", "--format", "tree")
    assert rows(out)[1].endswith(f"v2 = sqrt(v1) = 0.0   {bar(2)} = 2.0   (on a kink: hands "
                                 "back a convention)"), out
    assert sum("on a kink" in line for line in rows(out)) == 1


@pytest.mark.parametrize("text, at, dashed", [
    # acos' = -1/sqrt(1 - x^2): -1/0 = -inf at 1
    ("acos(x)", "x=1", {"v1 -> v2": "-inf"}),
    # hypot's partials x/r and y/r: 0/0 = nan at the origin
    ("hypot(x,y)", "x=0,y=0", {"v1 -> v3": "nan", "v2 -> v3": "nan"}),
    # 0.5 x^-0.5 = 0.5/0 = inf
    ("x^0.5", "x=0", {"v1 -> v2": "inf"}),
    # max's tie hands each 0.5 of v̄4 = log(0) = -inf
    ("max(x,y)*log(z)", "x=1,y=1,z=0", {"v1 -> v4": "-inf", "v2 -> v4": "-inf"}),
    # abs hands v̄3·sign(0) = -inf·0 = nan
    ("abs(x)*log(z)", "x=0,z=0", {"v1 -> v3": "nan"}),
    # y x^(y-1) = 0.5/0 = inf to x; to y 0^y log 0, 0 by convention (0^y is flat in y)
    ("x^y", "x=0,y=0.5", {"v1 -> v3": "inf", "v2 -> v3": "0.0"}),
])
def test_every_edge_a_kink_hands_back_is_dashed(text, at, dashed):
    out, _ = graph(text, "--at", at)
    found = edges(out)
    for edge, number in dashed.items():
        assert found[edge] == f'label="{number} (convention)", {DASHED}', out
    # the other edges are slopes: plain
    assert all("dashed" not in attrs for edge, attrs in found.items() if edge not in dashed)
    assert CAPTION in out


def test_abs_on_its_kink_is_said_in_the_tree_whatever_it_hands_back():
    out, _ = graph("abs(x)*log(z)", "--at", "x=0,z=0", "--format", "tree")
    (line,) = [r for r in rows(out) if "abs(v1)" in r]
    assert line.endswith("(on a kink: hands back a convention)"), out


def test_graph_dashes_the_edges_trace_notes_as_a_kink():
    # trace's rows and graph's edges: the same steps' shares are conventions
    code, out, _ = run_cli("trace", "sqrt(abs(x))", "--at", "x=0", "--format", "json")
    (point,) = strict_json(out)["points"]
    noted = {f"{node['id']} -> {c['from']}" for node in point["nodes"]
             for c in node["contributions"] if "not differentiable" in c.get("note", "")}
    assert noted == {"v1 -> v2", "v2 -> v3"}
    out, _ = graph("sqrt(abs(x))", "--at", "x=0")
    assert {e for e, attrs in edges(out).items() if "dashed" in attrs} == noted
    # sqrt hands back 1/(2·0) = inf, abs then inf·sign(0) = nan
    assert edges(out)["v2 -> v3"].startswith('label="inf (convention)"')
    assert edges(out)["v1 -> v2"].startswith('label="nan (convention)"')


# ----- 2. a --let name v1 moves the step letter, as a variable v1 does ----------------------

def test_a_let_name_v1_moves_the_step_letter_in_trace():
    # f = x^2 + x^2·x: df/dx = 2x + 3x^2 = 6 + 27 = 33 at 3
    code, out, _ = run_cli("trace", "v1 + v1*x", "--let", "v1=x^2", "--at", "x=3")
    assert code == 0
    lines = rows(out)
    assert "w1 = x       = 3.0" in lines and "w2 = w1^2    = 9.0" in lines
    assert f"{bar(1, 'w')} = {bar(3, 'w')}·w2 + {bar(2, 'w')}·(2·w1) = 9.0 + 24.0 = 33.0" \
        in lines
    assert not any(re.match(r"v\d", line) for line in lines)


def test_a_let_name_w1_takes_the_next_letter():
    code, out, _ = run_cli("trace", "v1*w1", "--let", "v1=x^2", "--let", "w1=x+1",
                           "--at", "x=2")
    assert code == 0
    # d/dx x^2 (x + 1) = 3x^2 + 2x = 16 at 2
    assert f"∂f/∂x = {bar(1, 'u')} = 16.0" in rows(out)


def test_a_let_name_v1_moves_the_step_letter_in_graph():
    out, _ = graph("v1 + v1*x", "--let", "v1=x^2", "--at", "x=3", "--format", "tree")
    assert "(v1 is w2)" in out
    assert rows(out)[0] == f"w4 = w2 + w3 = 36.0   {bar(4, 'w')} = 1.0"
    out, _ = graph("v1 + v1*x", "--let", "v1=x^2")
    assert "w2 [" in out and "v2 [" not in out


# ----- 3. graph warns of a kink only where grad and trace do ---------------------------------

@pytest.mark.parametrize("text", ["abs(x)^3", "x*abs(x)", "sign(x)*x^2", "max(x,0)^2"])
def test_no_kink_is_said_where_the_derivative_exists(text):
    # each is differentiable at 0, its derivative 0 there (|x|^3 = o(x), ...)
    for command in ("grad", "trace", "graph"):
        code, _, err = run_cli(command, text, "--at", "x=0")
        assert code == 0 and err == "", (command, err)


def test_a_kink_that_shows_is_still_said():
    _, err = graph("abs(x)", "--at", "x=0")
    assert err == ("adcli: warning: abs is not differentiable at 1 of 1 point (an argument "
                   "of 0, a corner): its derivative there is a convention, not a fact\n")


@pytest.mark.parametrize("text, at", [("sqrt(x^2)", "x=1e-170"), ("sqrt(x)*2", "x=0"),
                                      ("abs(x)^3", "x=0"), ("max(x,y)*log(z)", "x=1,y=1,z=0")])
def test_graphs_warnings_are_traces(text, at):
    # sqrt(x^2) at 1e-170: x^2 underflows; grad's long double run says f = 1e-170 and
    # df/dx = 1, and the marked step's warning that sqrt's edge was met only so
    code, _, said = run_cli("trace", text, "--at", at)
    assert code == 0
    _, err = graph(text, "--at", at)
    assert err == said
    _, err = graph(text, "--at", at, "--format", "tree")
    assert err == said


# ----- 4. forward mode: a pinned term of an input that does not move is left out ------------

def test_a_pinned_term_of_an_unmoving_input_is_left_out():
    # d/dx x^y = y x^(y-1) = 0.5/sqrt(0) = inf; y's term v̇2·(0^y log 0) is 0 as v̇2 = 0
    code, out, _ = run_cli("trace", "x^y", "--at", "x=0,y=0.5", "--mode", "forward",
                           "--wrt", "x")
    assert code == 0
    assert rows(out)[7].endswith(
        f"{dot(3)} = {dot(1)}·(v2·(v1^(v2 - 1))) = inf  ◀ first inf  (a convention: '^' is "
        "not differentiable at v1 = 0 and v2 = 0.5, a fractional power of 0, an edge of its "
        f"domain; left out: {dot(2)}·((v1^v2)·log(v1)), exactly 0 as v2 does not depend "
        "on x)"), out


def test_the_json_tangent_rule_leaves_it_out_too():
    code, out, _ = run_cli("trace", "x^y", "--at", "x=0,y=0.5", "--mode", "forward",
                           "--wrt", "x", "--format", "json")
    v3 = strict_json(out)["points"][0]["nodes"][2]
    assert v3["tangent_rule"] == f"{dot(1)}·(v2·(v1^(v2 - 1)))"
    assert v3["tangent"] == "inf"
    assert v3["tangent_note"].startswith("a convention: '^' is not differentiable")


def test_an_inf_term_beside_a_pinned_one_is_named_a_convention():
    # d/dx x^(x + 0.5) = (x + 0.5) x^(x - 0.5) + x^(x + 0.5) log x: inf + 0 (pinned) at 0
    code, out, _ = run_cli("trace", "x^(x+0.5)", "--at", "x=0", "--mode", "forward",
                           "--wrt", "x")
    assert code == 0
    assert rows(out)[7].endswith(
        f"({dot(2)}·((v1^v2)·log(v1)) is 0 by convention where v3 = 0, v2 > 0 and v1 = 0; "
        f"{dot(1)}·(v2·(v1^(v2 - 1))) is a convention: '^' is not differentiable at v1 = 0 "
        "and v2 = 0.5, a fractional power of 0, an edge of its domain)"), out


# ----- 5. atan2's kink in the steps' names, the case that holds -------------------------------

def test_atan2_on_its_branch_cut_in_the_steps_names():
    # d/dx atan2(x, y) = y/(x^2 + y^2) = -1 at (0, -1); the user's cut is x = 0, y < 0
    code, out, _ = run_cli("trace", "atan2(x,y)", "--at", "x=0,y=-1")
    assert code == 0
    assert f"{bar(1)} = {bar(3)}·(v2/((v1^2) + (v2^2))) = -1.0  (a convention: atan2 is not " \
        "differentiable at v1 = 0 and v2 = -1, the branch cut v1 = 0, v2 < 0 where it jumps " \
        "by 2 pi)" in rows(out)
    assert "origin" not in out and "y = 0" not in out


def test_atan2_at_the_origin_says_the_origin_only():
    code, out, _ = run_cli("trace", "atan2(x,y)", "--at", "x=0,y=0")
    assert code == 0
    assert f"{bar(1)} = {bar(3)}·(v2/((v1^2) + (v2^2))) = nan  (a convention: atan2 is not " \
        "differentiable at v1 = 0 and v2 = 0, the origin)" in rows(out)
    assert "branch cut" not in out


def test_atan2_with_a_number_operand_names_the_step_only():
    # d/dx atan2(x, -1) = -1/(x^2 + 1) = -1 at 0
    code, out, _ = run_cli("trace", "atan2(x,-1)", "--at", "x=0")
    assert code == 0
    (row,) = [r for r in rows(out) if r.startswith(f"{bar(1)} =")]
    assert row.endswith("= -1.0  (a convention: atan2 is not differentiable at v1 = 0, the "
                        "branch cut v1 = 0 where it jumps by 2 pi)"), out


# ----- 6. graph's caption keeps the points file's id column, as trace's at line -------------

@pytest.mark.parametrize("table, at", [("id,x\nq1,2\n", "at id=q1, x=2.0"),
                                       ('id,x,tag\nq1,2,"a, b"\n', "at id=q1, tag='a, b', x=2.0")])
def test_graphs_caption_names_the_row_as_trace_does(table, at):
    code, out, _ = run_cli("trace", "x^2", "--points", "-", stdin=table)
    assert code == 0 and at in rows(out)
    code, out, _ = run_cli("graph", "x^2", "--points", "-", stdin=table)
    assert code == 0
    assert f"\\n{at}\\n" in out
