"""graph marks what a step on a kink hands back as a convention (abs at 0 hands 0.0 to x
by convention; its derivative does not exist there), in DOT and in the tree."""
import re

from conftest import run_cli


def edges(dot: str) -> dict:
    return {m[1]: m[2] for m in re.finditer(r"^  (\w+ -> \w+) \[(.*)\];$", dot, re.M)}


def test_a_kinks_edge_is_dashed_and_says_convention():
    code, out, _ = run_cli("graph", "abs(x)*y", "--at", "x=0,y=2")
    assert code == 0
    found = edges(out)
    # abs hands v̄3·0 = 0 back to x by convention; the product's edges are real slopes
    assert found["v1 -> v3"] == ('label="0.0 (convention)", style="dashed", '
                                 'color="#c05a00", fontcolor="#c05a00"')
    assert found["v3 -> v4"] == 'label="2.0"' and found["v2 -> v4"] == 'label="0.0"'
    assert "(dashed: a convention, at a kink)" in out


def test_off_the_kink_nothing_is_marked():
    code, out, _ = run_cli("graph", "abs(x)*y", "--at", "x=1,y=2")
    assert code == 0 and "convention" not in out and "dashed" not in out
    assert edges(out)["v1 -> v3"] == 'label="2.0"'   # abs'(1) = 1, times v̄3 = y = 2


def test_the_tree_says_the_step_on_a_kink():
    code, out, _ = run_cli("graph", "abs(x)*y", "--at", "x=0,y=2", "--format", "tree")
    assert code == 0
    lines = out.splitlines()
    assert lines[1].endswith("v3 = abs(v1) = 0.0   v̄3 = 2.0   (on a kink: hands back a "
                             "convention)"), out
    assert sum("on a kink" in line for line in lines) == 1


def test_an_infinite_or_nan_handed_back_on_a_kink_is_a_convention_too():
    # sqrt(abs(x)) at 0: sqrt hands back inf (a vertical tangent), abs inf*0 = nan: both
    # steps are on kinks, so both are conventions, as trace's rows say (session 28)
    code, out, _ = run_cli("graph", "sqrt(abs(x))", "--at", "x=0")
    assert code == 0
    found = edges(out)
    assert found["v2 -> v3"].startswith('label="inf (convention)", style="dashed"')
    assert found["v1 -> v2"].startswith('label="nan (convention)", style="dashed"')
    code, out, _ = run_cli("graph", "sqrt(abs(x))", "--at", "x=0", "--format", "tree")
    assert code == 0 and sum("on a kink" in line for line in out.splitlines()) == 2
