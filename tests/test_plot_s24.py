"""Session 24: your derivative (plot's second expression, "yours") is only evaluated, never
differentiated, so a kink of it is no warning (abs(x) at 0), unless it takes a derivative
itself (diff(abs(x), x)); and what it does warn of (nan, inf, a lost value) is said to be
in yours, as the legend and the data name that curve, in every output of plot, while f's
warnings stay as they were."""
from __future__ import annotations

import json

import pytest

from conftest import run_cli
from test_plot import in_terminal

SQRT_GRID = ["--grid", "x=-1:1:5"]           # x = -1, -0.5, 0, 0.5, 1
# sqrt(x) is nan at the 2 negative points; 0, the edge of its domain, is only a kink
SQRT_IN_YOURS = ("adcli: warning: sqrt in yours gave nan or inf at 2 of 5 points "
                 "(a negative argument)")


def warning_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("adcli: warning:")]


# ----- no kink warning for a curve that is only evaluated ------------------------------------

@pytest.mark.parametrize("fmt", ["csv", "json", "plain"])
def test_a_kink_of_yours_is_no_warning(fmt):
    code, out, err = run_cli("plot", "x^2", "abs(x)", "--grid", "x=-1:1", "--format", fmt)
    assert code == 0
    assert err == ""          # x^2 has no kink, and abs(x) is only evaluated
    if fmt == "json":
        assert "warnings" not in json.loads(out)


def test_yours_over_a_kink_is_still_drawn_as_its_value():
    code, out, err = run_cli("plot", "x^2", "abs(x)", "--grid", "x=-1:1:5", "--format", "csv")
    assert code == 0 and err == ""
    rows = [line.split(",") for line in out.splitlines()[1:]]
    assert [float(r[3]) for r in rows] == [abs(float(r[0])) for r in rows]


@pytest.mark.parametrize("yours", ["abs(x)", "max(x, 0)", "sign(x)", "cbrt(x)"])
def test_no_kink_of_yours_is_said_on_stderr(yours):
    # each has a kink at x = 0, a sample of -1:1:5
    code, _, err = run_cli("plot", "x", yours, *SQRT_GRID, "--format", "csv")
    assert code == 0 and err == ""


# ----- what yours warns of is said to be in yours --------------------------------------------

@pytest.mark.parametrize("fmt", ["csv", "json", "plain"])
def test_a_value_warning_of_yours_names_yours(fmt):
    code, _, err = run_cli("plot", "x^2", "sqrt(x)", *SQRT_GRID, "--format", fmt)
    assert code == 0
    assert warning_lines(err) == [SQRT_IN_YOURS]


def test_json_warnings_of_yours_name_yours_and_hold_no_kink():
    code, out, _ = run_cli("plot", "x^2", "sqrt(x)", *SQRT_GRID, "--format", "json")
    assert code == 0
    warnings = json.loads(out)["warnings"]
    assert [(w["at"], w["function"], w["kind"]) for w in warnings] == [
        ({"x": -1.0}, "sqrt in yours", "value"), ({"x": -0.5}, "sqrt in yours", "value")]


def test_f_keeps_its_own_warnings_beside_those_of_yours():
    code, out, err = run_cli("plot", "sqrt(x)", "sqrt(x)", *SQRT_GRID, "--format", "json")
    assert code == 0
    said = {(w["function"], w["kind"], w["at"]["x"]) for w in json.loads(out)["warnings"]}
    # f's: nan at -1 and -0.5, its derivative a convention at the edge 0; yours: nan only
    assert {("sqrt", "value", -1.0), ("sqrt", "value", -0.5), ("sqrt", "kink", 0.0),
            ("sqrt in yours", "value", -1.0), ("sqrt in yours", "value", -0.5)} <= said
    assert not any(f == "sqrt in yours" and kind != "value" for f, kind, _ in said)
    lines = warning_lines(err)
    assert SQRT_IN_YOURS in lines
    assert "adcli: warning: sqrt gave nan or inf at 2 of 5 points (a negative argument)" in lines
    assert any(line.startswith("adcli: warning: sqrt is not differentiable at 1 of 5 points")
               for line in lines)


def test_a_derivative_yours_takes_keeps_its_kink_named_yours():
    # diff(abs(x), x) at 0 is abs's convention: part of yours's value, so said
    code, out, err = run_cli("plot", "x^2", "diff(abs(x), x)", *SQRT_GRID, "--format", "json")
    assert code == 0
    assert [(w["at"], w["function"], w["kind"]) for w in json.loads(out)["warnings"]] == [
        ({"x": 0.0}, "abs in yours", "kink")]
    assert warning_lines(err) == [
        "adcli: warning: abs in yours is not differentiable at 1 of 5 points (an argument of "
        "0, a corner): its derivative there is a convention, not a fact"]


def test_a_value_of_yours_lost_to_overflow_is_said_to_be_yours():
    # 1e200*x*1e200 overflows float64; in long double it is 1e400*x, /1e300: 1e100*x
    code, out, _ = run_cli("plot", "x", "1e200*x*1e200/1e300", "--grid", "x=1:2:3",
                           "--format", "json")
    assert code == 0
    lost = [w for w in json.loads(out)["warnings"] if w["kind"] == "range"]
    assert [w["function"] for w in lost] == ["yours"] * 3
    for w in lost:
        assert w["long_double"] == pytest.approx(1e100 * w["at"]["x"], rel=1e-12)


def test_strict_stops_naming_yours():
    code, out, err = run_cli("plot", "x^2", "sqrt(x)", *SQRT_GRID, "--strict",
                             "--format", "csv")
    assert code == 3
    assert err.strip() == ("adcli: error: sqrt in yours gave nan or inf at x=-1.0 (a negative "
                           "argument): stopped there (--strict)")


# ----- the drawings say the same ------------------------------------------------------------

def test_the_terminal_plot_warns_as_the_data_does():
    code, _, err = in_terminal("x^2", "abs(x)", "--grid", "x=-1:1")
    assert code == 0 and warning_lines(err) == []
    code, _, err = in_terminal("x^2", "sqrt(x)", *SQRT_GRID)
    assert code == 0 and warning_lines(err) == [SQRT_IN_YOURS]


def test_an_image_warns_as_the_data_does(tmp_path):
    pytest.importorskip("matplotlib")
    code, out, err = run_cli("plot", "x^2", "abs(x)", "--grid", "x=-1:1",
                             "-o", str(tmp_path / "abs.png"))
    assert code == 0 and out == "" and err == ""
    code, out, err = run_cli("plot", "x^2", "sqrt(x)", *SQRT_GRID,
                             "-o", str(tmp_path / "sqrt.png"))
    assert code == 0 and out == "" and warning_lines(err) == [SQRT_IN_YOURS]
