"""Behaviours a mutation run showed no test pinned down (shared/TESTING.md): each test
here fails on the bug named in its docstring. Expected values are worked out by hand."""
from __future__ import annotations

import math

import numpy as np
import pytest

import adcli
from adcli.core import recorded
from adcli.drivers import Growth
from conftest import run_cli, strict_json


class _Skew(adcli.Function):
    """A "function" whose backward is not a gradient field: df/dx = y, df/dy = 2x. Its
    "Hessian" is not symmetric, H[i][j] = d/dx_i (df/dx_j) = [[0, 2], [1, 0]], so a
    transposed layout shows."""

    def forward(self, x, y):
        return x * y

    def backward(self, gy):
        x, y = self.inputs
        return gy * y, gy * 2.0 * x


def test_hessian_column_j_holds_the_derivatives_of_the_jth_partial():
    """H[i][j] = d2f/dx_i dx_j as Leibniz reads it, d/dx_i (df/dx_j), as check's d2/dx dy:
    bug it pins: the matrix stored transposed."""
    from adcli.drivers import gradient, hessian

    leaves = {"x": adcli.Variable(np.array([3.0]), "x"), "y": adcli.Variable(np.array([5.0]), "y")}
    _, grads = gradient(_Skew()(leaves["x"], leaves["y"]), leaves, ["x", "y"], (1,),
                        create_graph=True)
    assert hessian(grads, leaves, ["x", "y"], (1,))[0].tolist() == [[0.0, 2.0], [1.0, 0.0]]


def test_hessian_values_by_hand():
    code, out, err = run_cli("hessian", "x^3*y", "--at", "x=2,y=5", "--format", "json")
    assert code == 0, err
    # f = x^3 y: f_xx = 6xy = 60, f_xy = f_yx = 3x^2 = 12, f_yy = 0.
    assert strict_json(out)["points"][0]["hessian"] == [[60.0, 12.0], [12.0, 0.0]]


def test_hessian_rows_follow_wrt_order():
    code, out, err = run_cli("hessian", "x^3*y", "--at", "x=2,y=5", "--wrt", "y,x",
                             "--format", "json")
    assert code == 0, err
    assert strict_json(out)["points"][0]["hessian"] == [[0.0, 12.0], [12.0, 60.0]]


def test_hessian_csv_header_is_row_major():
    code, out, err = run_cli("hessian", "x^3*y", "--at", "x=2,y=5", "--format", "csv")
    assert code == 0, err
    header, row = out.splitlines()
    # README "Column names": a space between the two variables (issue 11)
    assert header == "x,y,f,df/dx,df/dy,d2f/dx^2,d2f/dx dy,d2f/dy dx,d2f/dy^2"
    # f = 40, f_x = 3x^2 y = 60, f_y = x^3 = 8.
    assert row == "2.0,5.0,40.0,60.0,8.0,60.0,12.0,12.0,0.0"


def test_digits_are_significant_digits_not_decimals():
    code, out, err = run_cli("eval", "x", "--at", "x=15241.384", "--digits", "3",
                             "--format", "plain")
    assert (code, out) == (0, "1.52e+04\n"), err


def test_unicode_minus_in_a_points_file_is_a_minus(tmp_path):
    points = tmp_path / "p.csv"
    points.write_text("x\n\u22122.5\n", encoding="utf-8")
    code, out, err = run_cli("eval", "x^2", "--points", str(points), "--format", "plain")
    assert (code, out) == (0, "6.25\n"), err


def test_bare_adcli_is_a_usage_error_with_the_commands_on_stderr():
    code, out, err = run_cli()
    assert code == 2 and out == ""
    assert err.startswith("adcli: error: no command given") and "\n  grad " in err


def test_a_one_point_grid_is_its_one_value():
    code, out, err = run_cli("eval", "x", "--grid", "x=2:2:1", "--format", "plain")
    assert (code, out) == (0, "2.0\n"), err


def test_an_indented_comment_row_in_a_points_file_is_skipped(tmp_path):
    points = tmp_path / "p.csv"
    points.write_text("x\n1\n   # a note\n3\n", encoding="utf-8")
    code, out, err = run_cli("eval", "x", "--points", str(points), "--format", "plain")
    assert (code, out) == (0, "1.0\n3.0\n"), err


def test_the_end_of_input_caret_ignores_trailing_spaces():
    code, out, err = run_cli("eval", "x+   ", "--at", "x=1")
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert "(column 3)" in lines[0]
    assert lines[2] == "  " + " " * 2 + "^"


def test_the_order_budget_refuses_before_it_is_exceeded(monkeypatch):
    """The growth check of nested reverse passes projects the next pass: it must refuse
    while the total recorded so far is still under the budget, not after blowing through
    it. (``--order`` runs in Taylor mode; nested passes remain for diff and Hessians.)"""
    from adcli.drivers import nth_derivative

    from adcli.expression import _Run

    monkeypatch.setattr(Growth, "BUDGET", 20_000)
    run = _Run(adcli.parse("exp(sin(x))*x^3/(1+x^2)"), [np.array([0.5])], (1,), watching=False)
    f = run.forward()
    start = recorded.count
    with pytest.raises(adcli.AdcliError, match="too high"):
        nth_derivative(f, run.leaves, "x", 30, (1,))
    assert recorded.count - start <= Growth.BUDGET


@pytest.mark.filterwarnings("ignore::adcli.errors.AdcliWarning")  # (kinks, edges: said)
def test_a_thread_evaluating_values_does_not_switch_off_another_threads_graph():
    """Backprop on/off is per context: with a process-global switch, one thread's value()
    turned off recording for the other, whose gradient then came back as 0."""
    import threading

    f, g = adcli.parse("exp(sin(x)^2 + x^2)"), adcli.parse("sin(x)*x")
    wrong, stop = [], threading.Event()

    def values():
        while not stop.is_set():
            f.value(x=np.arange(200_000.0))

    def gradients():
        for _ in range(2000):
            if float(g.grad(x=3.0)["x"]) != math.sin(3.0) + 3.0 * math.cos(3.0):
                wrong.append(1)

    other = threading.Thread(target=values)
    other.start()
    try:
        gradients()
    finally:
        stop.set()
        other.join()
    assert not wrong, f"{len(wrong)} of 2000 gradients were wrong"


def test_sqrt_at_minus_zero_has_the_derivative_minus_inf_as_documented():
    """The README's conventions: sqrt at 0 has derivative inf, at -0.0 -inf (IEEE's
    sqrt(-0.0) is -0.0, so 1/(2 sqrt(x)) is 1/(-0.0)), with the warning of an edge."""
    code, out, err = run_cli("grad", "sqrt(x)", "--at", "x=-0.0", "--format", "json")
    point = strict_json(out)["points"][0]
    assert (code, point["value"], point["gradient"]) == (0, -0.0, {"x": "-inf"})
    assert math.copysign(1.0, point["value"]) == -1.0
    code, out, _ = run_cli("grad", "sqrt(x)", "--at", "x=0", "--format", "json")
    assert strict_json(out)["points"][0]["gradient"] == {"x": "inf"}
    assert "sqrt is not differentiable at 1 of 1 point" in err
