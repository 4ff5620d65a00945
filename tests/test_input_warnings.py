"""A nan or inf given as a value is named: which variable, at which points, on stderr and in
JSON's "warnings" (it was "a result is nan or inf (from a value that is nan or inf)",
no point, no count, and nothing in JSON)."""
from __future__ import annotations


from conftest import run_cli, strict_json, warnings_in

SAID = "the value given is nan or inf, so a result there is too"


def test_each_point_given_nan_or_inf_is_a_json_warning_naming_the_variable(tmp_path):
    points = tmp_path / "p.csv"
    points.write_text("x\n1\nnan\n2\ninf\n")
    code, out, err = run_cli("grad", "x^2+1/x", "--points", str(points), "--format", "json")
    assert code == 0
    data = strict_json(out)
    # x^2 + 1/x at 1 is 2 (f' = 2x - 1/x^2 = 1), at 2 is 4.5 (f' = 3.75)
    assert [p["value"] for p in data["points"]] == [2.0, "nan", 4.5, "inf"]
    assert data["warnings"] == [
        {"at": {"x": "nan"}, "function": "x", "kind": "input", "why": SAID},
        {"at": {"x": "inf"}, "function": "x", "kind": "input", "why": SAID}]
    assert warnings_in(err) == ["adcli: warning: x was given nan or inf at 2 of 4 points, "
                                "so a result there is too"]


def test_an_infinite_value_whose_results_are_finite_is_not_warned():
    """exp(-x) at x = inf is 0 and its derivative -0: limits, nothing to warn about."""
    code, out, err = run_cli("grad", "exp(-x)", "--at", "x=inf", "--format", "json")
    assert code == 0 and err == ""
    point = strict_json(out)["points"][0]
    assert (point["value"], point["gradient"]["x"]) == (0.0, -0.0)
    assert "warnings" not in strict_json(out)


def test_strict_names_the_variable_given_nan(tmp_path):
    points = tmp_path / "p.csv"
    points.write_text("x,y\n1,2\n3,nan\n")
    code, out, err = run_cli("grad", "x*y", "--points", str(points), "--strict",
                             "--format", "csv")
    assert code == 3
    assert out.splitlines() == ["x,y,f,df/dx,df/dy", "1.0,2.0,2.0,2.0,1.0"]
    assert err.splitlines()[-1] == ("adcli: error: y was given nan or inf at points file "
                                    "line 3 (x=3.0, y=nan), so a result there is too: "
                                    "stopped there (--strict)")


def test_jacobian_names_a_variable_once_for_every_expression():
    """Diagnostics of several expressions are keyed f1:x, f2:x: the variable is one."""
    code, out, err = run_cli("jacobian", "x*y", "x+y", "--at", "x=nan,y=1", "--format", "json")
    assert code == 0
    assert strict_json(out)["warnings"] == [
        {"at": {"x": "nan", "y": 1.0}, "function": "x", "kind": "input", "why": SAID}]
    assert warnings_in(err) == ["adcli: warning: x was given nan or inf at 1 of 1 point, so a "
                                "result there is too"]


def test_a_nan_given_to_a_variable_whose_results_stay_finite_is_not_warned():
    """x^0 is 1 at x = nan (IEEE pow), d/dy of y*x^0 is 1: every number finite."""
    code, out, err = run_cli("grad", "y*x^0", "--at", "x=nan,y=2", "--wrt", "y",
                             "--format", "json")
    point = strict_json(out)["points"][0]
    assert (code, err) == (0, "") and (point["value"], point["gradient"]) == (2.0, {"y": 1.0})
