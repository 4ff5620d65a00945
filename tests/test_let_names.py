"""A --let name is never an output's label: the outputs take the next free symbol (g, h,
...), as they do for a variable called f (a tester's finding: with --let f1=sin(x) the
jacobian row of f1 + f2 was labelled f1, and grad "diff(f,x)" --let f=x^2*y headed the
column of d/dy (2xy) = 2x "df/dy", where the user's df/dy is x^2)."""
from __future__ import annotations

import math

from conftest import adcli_on_terminal, run_cli, strict_json


def test_jacobian_rows_are_not_named_as_definitions():
    code, out, err = run_cli("jacobian", "f1+f2", "f1*f2", "--let", "f1=sin(x)", "--let",
                             "f2=x^2", "--at", "x=1", "--format", "csv")
    header, row = out.splitlines()
    assert header == "x,g1,g2,dg1/dx,dg2/dx"
    s, c = math.sin(1), math.cos(1)
    assert [float(v) for v in row.split(",")] == [1.0, s + 1, s, c + 2, 2 * s + c]


def test_the_reading_names_the_output_apart_from_the_definition():
    code, out, err = run_cli("jacobian", "f1+f2", "f1*f2", "--let", "f1=sin(x)", "--let",
                             "f2=x^2", "--at", "x=1")
    assert "read as: g1 = f1 + f2 where f1 = sin(x), f2 = x^2" in out


def test_a_derivative_of_a_definition_heads_its_own_column():
    # diff(f, x) with f = x^2 y is 2xy: at (1, 2) it is 4, its d/dx 2y = 4, its d/dy 2x = 2
    code, out, err = run_cli("grad", "diff(f,x)", "--let", "f=x^2*y", "--at", "x=1,y=2",
                             "--format", "json")
    point = strict_json(out)["points"][0]
    assert (point["value"], point["gradient"]) == (4.0, {"x": 4.0, "y": 2.0})
    code, out, err = run_cli("grad", "diff(f,x)", "--let", "f=x^2*y", "--at", "x=1,y=2",
                             "--format", "csv")
    assert out.splitlines()[0] == "x,y,g,dg/dx,dg/dy"


def test_without_a_clash_the_output_is_f():
    code, out, err = run_cli("grad", "F^2", "--let", "F=x^2", "--at", "x=1", "--format", "csv")
    assert out.splitlines() == ["x,f,df/dx", "1.0,1.0,4.0"]


def test_the_plot_names_its_curves_as_the_data_does():
    code, out, err = run_cli("plot", "f+1", "--let", "f=x^2", "--grid", "x=0:1:3")
    assert out.splitlines()[0] == "x,g,dg/dx"
    code, rows = adcli_on_terminal(80, "plot", "f+1", "--let", "f=x^2", "--grid", "x=-1:1")
    assert code == 0
    assert "g(x) = f + 1 where f = x^2" in rows[0]
    assert rows[-1].split() == ["──", "g", "──", "dg/dx", "●", "dg/dx", "=", "0"]


def test_trace_names_its_output_apart_from_definitions_and_variables():
    # f + x with f = x^2: d/dx = 2x + 1 = 5 at 2; f*g at (2, 3): d/df = 3, d/dg = 2
    code, out, err = run_cli("trace", "f+x", "--let", "f=x^2", "--at", "x=2")
    assert out.splitlines()[-1] == "  ∂g/∂x = v̄1 = 5.0"
    code, out, err = run_cli("trace", "f*g", "--at", "f=2,g=3")
    assert out.splitlines()[-2:] == ["  ∂h/∂f = v̄1 = 3.0", "  ∂h/∂g = v̄2 = 2.0"]
    code, out, err = run_cli("trace", "x*y", "--at", "x=2,y=3")
    assert out.splitlines()[-2:] == ["  ∂f/∂x = v̄1 = 3.0", "  ∂f/∂y = v̄2 = 2.0"]
