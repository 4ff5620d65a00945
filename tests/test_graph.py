"""adcli graph: DOT text checked statement by statement with a small parser of its own
(and by Graphviz's parser when ``dot`` is installed), the rendered files, the missing-dot
path, and the terminal tree. Expected graphs and numbers are worked out by hand.

Graphviz is optional: the rendering tests are skipped without ``dot``; the DOT structure,
the "dot is missing" error and a failing dot (a fake one) are tested everywhere.
"""
from __future__ import annotations

import json
import math
import os
import re
import shutil
import stat
import subprocess

import pytest

from conftest import run_cli

BAR = "\u0304"
DOT_PROGRAM = shutil.which("dot")
needs_dot = pytest.mark.skipif(DOT_PROGRAM is None, reason="Graphviz's dot is not installed")


def bar(n):
    return f"v{BAR}{n}"


# ----- a small DOT reader, independent of adcli's writer ------------------------------------

TOKEN = re.compile(r'\s*(?:(?P<string>"(?:[^"\\]|\\.)*")|(?P<arrow>->)'
                   r'|(?P<id>[A-Za-z_]\w*|-?(?:\.\d+|\d+(?:\.\d*)?))|(?P<punct>[\[\]{};=,]))')


def tokens(text):
    position, found, end = 0, [], len(text.rstrip())
    while position < end:
        match = TOKEN.match(text, position)
        assert match, f"cannot read DOT at {text[position:position + 30]!r}"
        kind = match.lastgroup
        value = match.group(kind)
        if kind == "string":
            value = re.sub(r'\\(.)', lambda m: "\n" if m.group(1) == "n" else m.group(1),
                           value[1:-1])
        found.append((kind, value))
        position = match.end()
    return found


def read_dot(text):
    """{"graph": attrs, "nodes": {id: attrs}, "edges": [(tail, head, attrs)]}."""
    items = tokens(text)
    assert items[:3] == [("id", "digraph"), ("id", "adcli"), ("punct", "{")]
    assert items[-1] == ("punct", "}")
    body, i = items[3:-1], 0
    graph = {"graph": {}, "nodes": {}, "edges": [], "defaults": {}}

    def attributes(j):
        attrs = {}
        if j < len(body) and body[j] == ("punct", "["):
            j += 1
            while body[j] != ("punct", "]"):
                key, equals, value = body[j], body[j + 1], body[j + 2]
                assert equals == ("punct", "=")
                attrs[key[1]] = value[1]
                j += 3
                if body[j] == ("punct", ","):
                    j += 1
            j += 1
        return attrs, j

    while i < len(body):
        name = body[i][1]
        if i + 1 < len(body) and body[i + 1][0] == "arrow":
            head = body[i + 2][1]
            attrs, i = attributes(i + 3)
            graph["edges"].append((name, head, attrs))
        else:
            attrs, i = attributes(i + 1)
            target = graph[name] if name in ("graph",) else \
                graph["defaults"].setdefault(name, {}) if name in ("node", "edge") else \
                graph["nodes"].setdefault(name, {})
            target.update(attrs)
        assert body[i] == ("punct", ";"), body[i]
        i += 1
    return graph


def graph_of(*args):
    code, out, err = run_cli("graph", *args)
    assert code == 0, err
    return read_dot(out), out


# ----- sin(x1) + x1*x2 at (2, 5), by hand ---------------------------------------------------
# Nodes: x1, x2 (variables), sin, *, + (operations); x1 feeds sin and *: one node, two
# out-edges. Each edge carries the adjoint it hands back: cos 2 and 5 into x1 (their sum is
# v̄1), 2 into x2, 1 and 1 from + into sin and *.

HAND_NODES = {
    "v1": ("ellipse", ["v1 = x1", "= 2.0", f"{bar(1)} = {math.cos(2.0) + 5.0!r}"]),
    "v2": ("ellipse", ["v2 = x2", "= 5.0", f"{bar(2)} = 2.0"]),
    "v3": ("box", ["v3 = sin(v1)", f"= {math.sin(2.0)!r}", f"{bar(3)} = 1.0"]),
    "v4": ("box", ["v4 = v1·v2", "= 10.0", f"{bar(4)} = 1.0"]),
    "v5": ("box", ["v5 = v3 + v4", f"= {math.sin(2.0) + 10.0!r}", f"{bar(5)} = 1.0"]),
}
HAND_EDGES = sorted([("v1", "v3", math.cos(2.0)), ("v1", "v4", 5.0), ("v2", "v4", 2.0),
                     ("v3", "v5", 1.0), ("v4", "v5", 1.0)])


def test_the_dot_graph_is_the_one_drawn_by_hand():
    graph, _ = graph_of("sin(x1)+x1*x2", "--at", "x1=2,x2=5")
    assert set(graph["nodes"]) == set(HAND_NODES)
    for name, (shape, label) in HAND_NODES.items():
        attrs = graph["nodes"][name]
        assert attrs["shape"] == shape
        assert attrs["label"].split("\n") == label
    edges = sorted((t, h, float(a["label"])) for t, h, a in graph["edges"])
    assert [(t, h) for t, h, _ in edges] == [(t, h) for t, h, _ in HAND_EDGES]
    assert all(math.isclose(v, w, rel_tol=1e-15) for (_, _, v), (_, _, w) in zip(edges, HAND_EDGES))
    # The output is drawn with a heavier border; the caption says what the numbers are.
    assert graph["nodes"]["v5"]["penwidth"] == "2"
    assert all("penwidth" not in a for n, a in graph["nodes"].items() if n != "v5")
    assert graph["graph"]["label"].split("\n")[:2] == ["read as: sin(x1) + (x1*x2)",
                                                       "at x1=2.0, x2=5.0"]


def test_variables_and_operations_have_different_shapes():
    graph, _ = graph_of("exp(x^2)^2", "--at", "x=0.5")
    shapes = {n: a["shape"] for n, a in graph["nodes"].items()}
    # x; x^2, exp, ^2; the numbers 2 and 2 as plain text
    assert shapes == {"v1": "ellipse", "v2": "box", "v3": "box", "v4": "box",
                      "c1": "plaintext", "c2": "plaintext"}
    assert sorted((t, h) for t, h, _ in graph["edges"]) == \
        [("c1", "v2"), ("c2", "v4"), ("v1", "v2"), ("v2", "v3"), ("v3", "v4")]


def test_a_variable_used_twice_by_one_operation_has_two_edges():
    graph, _ = graph_of("x*x", "--at", "x=3")
    # d(x*x) = x dx + x dx: each edge hands back 3.
    assert [(t, h, a["label"]) for t, h, a in graph["edges"]] == \
        [("v1", "v2", "3.0"), ("v1", "v2", "3.0")]
    assert graph["nodes"]["v1"]["label"].split("\n")[-1] == f"{bar(1)} = 6.0"


def test_a_repeated_sub_expression_is_drawn_twice_as_the_engine_computes_it():
    graph, _ = graph_of("sin(x)+sin(x)", "--at", "x=0")
    assert set(graph["nodes"]) == {"v1", "v2", "v3", "v4"}
    assert sorted((t, h) for t, h, _ in graph["edges"]) == \
        [("v1", "v2"), ("v1", "v3"), ("v2", "v4"), ("v3", "v4")]
    # x's adjoint is the sum over its two edges: cos 0 + cos 0 = 2.
    assert graph["nodes"]["v1"]["label"].split("\n")[-1] == f"{bar(1)} = 2.0"


def test_without_values_the_graph_shows_only_the_structure():
    graph, _ = graph_of("sin(x1)+x1*x2")
    assert {n: a["label"] for n, a in graph["nodes"].items()} == \
        {n: label[0] for n, (_, label) in HAND_NODES.items()}
    assert all("label" not in a for _, _, a in graph["edges"])
    assert graph["graph"]["label"] == "read as: sin(x1) + (x1*x2)"


def test_digits_rounds_the_labels():
    # (a variable's value is a coordinate of the point: --digits never rounds it)
    graph, _ = graph_of("sin(x1)+x1*x2", "--at", "x1=2,x2=5", "--digits", "3")
    assert graph["nodes"]["v1"]["label"] == f"v1 = x1\n= 2.0\n{bar(1)} = 4.58"
    assert graph["nodes"]["v3"]["label"] == f"v3 = sin(v1)\n= 0.909\n{bar(3)} = 1"


def test_a_deep_expression_is_drawn_without_recursion():
    depth = 3000
    graph, _ = graph_of("sin(" * depth + "x" + ")" * depth, "--at", "x=0.5")
    assert len(graph["nodes"]) == depth + 1 and len(graph["edges"]) == depth


# ----- rendering with Graphviz --------------------------------------------------------------

@needs_dot
def test_graphviz_reads_the_same_graph():
    _, text = graph_of("sin(x1)+x1*x2", "--at", "x1=2,x2=5")
    done = subprocess.run([DOT_PROGRAM, "-Tjson"], input=text.encode(), capture_output=True,
                          check=True)
    parsed = json.loads(done.stdout)
    names = {o["_gvid"]: o["name"] for o in parsed["objects"]}
    assert {o["name"]: o["shape"] for o in parsed["objects"]} == \
        {n: shape for n, (shape, _) in HAND_NODES.items()}
    assert sorted((names[e["tail"]], names[e["head"]]) for e in parsed["edges"]) == \
        [(t, h) for t, h, _ in HAND_EDGES]


@needs_dot
@pytest.mark.parametrize("suffix, magic", [(".svg", b"<?xml"), (".png", b"\x89PNG"),
                                           (".pdf", b"%PDF")])
def test_o_renders_with_graphviz(tmp_path, suffix, magic):
    target = tmp_path / f"g{suffix}"
    code, out, err = run_cli("graph", "sin(x1)+x1*x2", "--at", "x1=2,x2=5", "-o", str(target))
    assert (code, out, err) == (0, "", "")
    assert target.read_bytes().startswith(magic)
    assert os.listdir(tmp_path) == [target.name]  # no temporary file left behind
    if suffix == ".svg":
        assert "v1 = x1" in target.read_text(encoding="utf-8")


def test_o_dot_writes_the_text_without_graphviz(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    target = tmp_path / "g.dot"
    code, out, _ = run_cli("graph", "x*y", "--at", "x=1,y=2", "-o", str(target))
    assert (code, out) == (0, "")
    assert target.read_text(encoding="utf-8") == run_cli("graph", "x*y", "--at", "x=1,y=2")[1]


def test_without_graphviz_o_svg_says_how_to_get_it_and_writes_nothing(tmp_path, monkeypatch):
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    code, out, err = run_cli("graph", "sin(x)", "--at", "x=1", "-o", str(tmp_path / "g.svg"))
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1
    assert "Graphviz" in err and "install" in err and "-o file.dot" in err
    assert sorted(os.listdir(tmp_path)) == ["bin"]


def test_a_failing_dot_leaves_no_half_written_file(tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "dot"
    fake.write_text('#!/bin/sh\nfor last; do :; done\necho partial > "$last"\n'
                    'echo "Error: out of paper" >&2\nexit 1\n')
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", str(bin_dir))
    code, out, err = run_cli("graph", "sin(x)", "--at", "x=1", "-o", str(tmp_path / "g.png"))
    assert (code, out) == (2, "")
    assert err == "adcli: error: Graphviz's dot could not draw png: Error: out of paper\n"
    assert sorted(os.listdir(tmp_path)) == ["bin"]


@pytest.mark.parametrize("args, words", [
    (["-o", "g.jpg"], ["g.jpg", ".svg, .png, .pdf", ".dot"]),
    (["--format", "tree", "-o", "g.svg"], ["--format tree", "-o"]),
    (["--grid", "x=0:1:3"], ["one point", "--at"]),
    (["--format", "csv"], ["'csv' is not one of 'dot', 'tree'"]),
])
def test_bad_requests_are_one_line_errors(tmp_path, monkeypatch, args, words):
    monkeypatch.chdir(tmp_path)
    at = [] if "--grid" in args else ["--at", "x=1"]
    code, out, err = run_cli("graph", "sin(x)", *at, *args)
    assert (code, out) == (2, "")
    assert len(err.splitlines()) == 1 and all(w in err for w in words), err
    assert os.listdir(tmp_path) == []


def test_strict_draws_the_graph_then_exits_3():
    code, out, err = run_cli("graph", "log(x)", "--at", "x=-1", "--strict")
    assert code == 3
    assert read_dot(out)["nodes"]["v2"]["label"].split("\n")[1] == "= nan  ◀ first nan"
    assert "v2 = log(v1) is nan" in err


# ----- the terminal tree --------------------------------------------------------------------

def test_tree_draws_the_expression_with_values_and_adjoints():
    code, out, _ = run_cli("graph", "sin(x1)+x1*x2", "--at", "x1=2,x2=5", "--format", "tree")
    assert code == 0
    tree, sums = out.split("\n\n")
    lines = [re.sub(r"^[│├└─ ]+", "", line) for line in tree.splitlines()]
    # root, then each operand under its operation, x1 once under each use
    labels = [" = ".join(line.split(" = ")[:2]) for line in lines]
    assert labels == ["v5 = v3 + v4", "v3 = sin(v1)", "v1 = x1", "v4 = v1·v2", "v1 = x1",
                      "v2 = x2"]
    assert lines[0].split(" = ", 2)[2].split() == [repr(math.sin(2.0) + 10.0), bar(5), "=",
                                                   "1.0"]
    # x1 feeds sin and ·: each use shows what it hands back, the sum is under the tree
    assert lines[2].endswith(f"{bar(1)} += {math.cos(2.0)!r}")
    assert lines[4].endswith(f"{bar(1)} += 5.0")
    assert sums.splitlines()[1] == f"  {bar(1)} = {math.cos(2.0)!r} + 5.0 = " \
        f"{math.cos(2.0) + 5.0!r}"
    depth = [len(line) - len(line.lstrip("│├└─ ")) for line in tree.splitlines()]
    assert depth == [0, 4, 8, 4, 8, 8]


def test_tree_without_values():
    _, out, _ = run_cli("graph", "x^2 + 1", "--format", "tree")
    assert [re.sub(r"^[│├└─ ]+", "", line) for line in out.splitlines()] == \
        ["v3 = v2 + 1", "v2 = v1^2", "v1 = x", "2", "1"]


def test_tree_of_a_deep_expression_is_cut_and_says_so():
    depth = 500
    code, out, _ = run_cli("graph", "sin(" * depth + "x" + ")" * depth, "--format", "tree")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) < 100
    assert "deeper levels left out" in lines[-1]
