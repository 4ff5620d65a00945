"""A curve that changes, but by too little of the y axis the curves share to show its
shape, is said to: a reader would otherwise take it for constant (f = x^2 + 100 beside
its 2x, 1 + 1e-6 sin x)."""
import re

import pytest

from conftest import run_cli, warnings_in

pytest.importorskip("matplotlib")


def flat_warnings(tmp_path, *argv):
    status, out, err = run_cli("plot", *argv, "-o", str(tmp_path / "p.png"))
    assert status == 0, err
    return [w for w in warnings_in(err) if "looks flat" in w]


def test_an_offset_function_is_said_to_look_flat(tmp_path):
    # on -1:1, x^2 + 100 goes 100..101 (a change of 1) beside 2x's -2..2: the axis spans
    # -2..101, so f covers 1/103 of it; 2x covers 4/103, more than 3%, and is not said
    # (the axis has a margin beyond the curves: the share is a little under 1/103)
    said = flat_warnings(tmp_path, "x^2 + 100", "--grid", "x=-1:1")
    assert len(said) == 1, said
    head, share, tail = re.fullmatch(r"(.*, )(\d\.\d)(% of the y axis .*)", said[0]).groups()
    assert head == "adcli: warning: f changes by only 1 over the grid, "
    assert 0.8 <= float(share) <= 1.0
    assert tail == "% of the y axis the curves share: it looks flat beside them, but is " \
        "not constant"


def test_a_tiny_wiggle_is_said_for_both_curves(tmp_path):
    # 1 + 1e-6 sin x on 0:6 changes by 2e-6 (sin from 1 to -1), its derivative 1e-6 cos x
    # by 2e-6 too (cos from 1 to -1 at pi), on an axis from about 0 to 1
    said = flat_warnings(tmp_path, "1 + 1e-6*sin(x)", "--grid", "x=0:6")
    assert [w.split(" changes")[0] for w in said] == ["adcli: warning: f",
                                                      "adcli: warning: df/dx"]
    assert all("by only 2e-06 over the grid, under 0.1% of" in w for w in said), said


@pytest.mark.parametrize("text", ["sin(x)", "3", "x^3 - 3x"])
def test_curves_that_show_their_shape_are_not_said(tmp_path, text):
    assert flat_warnings(tmp_path, text, "--grid", "x=-2:2") == []


def test_data_output_says_nothing_of_looks(tmp_path):
    status, _, err = run_cli("plot", "x^2 + 100", "--grid", "x=-1:1", "--format", "csv")
    assert status == 0 and "looks flat" not in err


@pytest.mark.parametrize("text", ["sin(x)^2 + cos(x)^2", "(x+1)^2 - x^2", "cosh(x)^2 - sinh(x)^2",
                                  "x^2/x", "exp(x)*exp(-x)"])
def test_a_curve_constant_but_for_rounding_is_not_said_to_look_flat(tmp_path, text):
    # each is an identity (1, 2x + 1, 1, x, 1): f or df/dx moves only by float64's rounding
    # (cosh(3)^2 - sinh(3)^2 by 4e-14, from terms near 100), which is no change
    assert flat_warnings(tmp_path, text, "--grid", "x=0.1:3") == []


def test_a_curve_never_drawn_is_said(tmp_path):
    # log(-1 - x^2) is nan at every x: your derivative is left out of the legend, and said
    status, _, err = run_cli("plot", "x^2", "log(-1-x^2)", "--grid", "x=-1:1",
                             "-o", str(tmp_path / "p.png"))
    assert status == 0
    assert "adcli: warning: yours is not drawn: nan or inf at every point of --grid " \
        "'x=-1:1'" in warnings_in(err)
