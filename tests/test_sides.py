"""A kink of a step where f is differentiable all the same is not said to be a convention:
f's left and right derivatives (adcli.sides, check's one-sided differences) agree with each
other and with the number shown. Hand-derived: (|x|^3)' = 3x|x| and (x|x|)' = 2|x|, both 0
at 0; (|x|^3)'' = 6|x|, 0 at 0; (x|x|)'' = 2 sign(x), -2 and 2 beside 0."""
import warnings

import numpy as np
import pytest

import adcli
from adcli.sides import confirmed
from conftest import run_cli, strict_json, warnings_in


@pytest.mark.parametrize("command, text, at, field, want", [
    ("grad", "abs(x)^3", "x=0", "gradient", {"x": 0.0}),
    ("grad", "x*abs(x)", "x=0", "gradient", {"x": 0.0}),
    ("grad", "sign(x)*x^2", "x=0", "gradient", {"x": 0.0}),     # x|x| again
    ("grad", "abs(x)^3 + y", "x=0,y=2", "gradient", {"x": 0.0, "y": 1.0}),
    ("hessian", "abs(x)^3", "x=0", "hessian", [[0.0]]),
])
def test_a_kink_where_f_is_differentiable_is_not_called_a_convention(command, text, at,
                                                                      field, want):
    code, out, err = run_cli(command, text, "--at", at, "--format", "json")
    assert code == 0 and err == ""
    document = strict_json(out)
    assert "warnings" not in document
    assert document["points"][0][field] == want


@pytest.mark.parametrize("command, text, at", [
    ("grad", "abs(x)", "x=0"),                  # -1 and 1 beside 0
    ("grad", "abs(x)*sign(x)", "x=0"),          # = x: f' is 1, the convention gives 0
    ("grad", "max(x, y)", "x=1,y=1"),           # ∂/∂x: 0 on the left, 1 on the right
    ("hessian", "x*abs(x)", "x=0"),             # f' = 2|x| exists, f'' does not
    ("grad", "sqrt(x^4)", "x=0"),               # = x^2, but AD's 0 * inf is nan
    # a kink beside a larger smooth slope: sides 1e10 - 1 and 1e10 + 1, 1 -+ 1e-9, ...
    # (finite differences of f took them for one number)
    ("grad", "1e10*x + abs(x)", "x=0"),
    ("grad", "x + 1e-9*abs(x)", "x=0"),
    ("grad", "exp(x)*1e8 + abs(x)", "x=0"),     # 1e8 and 1e8 + 1... minus and plus 1
    ("grad", "1e8*sin(x) + max(x, 0)", "x=0"),  # 1e8 and 1e8 + 1
    ("hessian", "1e8*x^2 + x*abs(x)", "x=0"),   # f'' = 2e8 -+ 2
    # ∂f/∂x = sign(x)|y| exists nowhere on x = 0 but at y = 0: no mixed partial there
    ("hessian", "abs(x)*abs(y)", "x=0,y=0"),
    # derivatives beside the point agree, but f (or f') jumps there
    ("grad", "sign(x)", "x=0"),                 # 0 on both sides; f from -1 to 1
    ("grad", "acot(x)", "x=0"),                 # -1 on both sides; f from -π/2 to π/2
    ("hessian", "abs(x)", "x=0"),               # f'' 0 on both sides; f' from -1 to 1
])
def test_a_kink_where_the_number_shown_is_not_f_derivative_is_still_said(command, text, at):
    code, out, err = run_cli(command, text, "--at", at, "--format", "json")
    assert code == 0
    kinds = {entry["kind"] for entry in strict_json(out).get("warnings", [])}
    assert "kink" in kinds or "derivative" in kinds, err
    assert "adcli: warning:" in err


def test_grad_order_two_at_a_kink_where_f_has_its_second_derivative():
    code, out, err = run_cli("grad", "abs(x)^3", "--at", "x=0", "--order", "2",
                             "--format", "json")
    assert code == 0 and err == ""
    assert strict_json(out)["points"][0]["derivative"] == 0.0


def test_on_a_grid_only_the_kink_points_where_f_is_not_differentiable_are_counted():
    # abs(x)^3 + abs(y): at (0, 0) d/dy is a convention, d/dx is not; (0, 1): neither.
    code, out, err = run_cli("grad", "abs(x)^3 + abs(y)", "--grid", "x=-1:1:3",
                             "--grid", "y=0:1:2", "--format", "json")
    assert code == 0
    kinks = [w["at"] for w in strict_json(out)["warnings"] if w["kind"] == "kink"]
    assert all(point["y"] == 0.0 for point in kinks) and len(kinks) == 3
    assert "abs is not differentiable at 3 of 6 points" in err


def test_the_api_gives_no_kink_warning_where_f_is_differentiable():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gradient = adcli.parse("abs(x)^3").grad(x=0.0)
    assert gradient == {"x": 0.0}
    with pytest.warns(adcli.AdcliWarning, match="abs is not differentiable"):
        adcli.parse("abs(x)").grad(x=0.0)


def test_confirmed_looks_at_no_more_than_its_limit(monkeypatch):
    from adcli import sides

    monkeypatch.setattr(sides, "LIMIT", 2)
    expression = adcli.parse("abs(x)^3")
    x = np.zeros(3)
    shown = {("x",): np.zeros(3)}
    assert not confirmed(expression, {"x": x}, shown, np.ones(3, bool)).any()
    assert confirmed(expression, {"x": x[:2]}, {("x",): np.zeros(2)}, np.ones(2, bool)).all()


def test_a_jump_of_two_beside_1e14_keeps_the_kink_warning():
    # f = 1e14 x + |x|: f' is 1e14 - 1 left of 0 and 1e14 + 1 right of it (2 apart, ~20
    # ulps of 1e14): no derivative at 0, so abs's convention is said, as check says it
    code, out, err = run_cli("grad", "1e14*x + abs(x)", "--at", "x=0", "--format", "plain")
    assert code == 0 and out.split() == ["0.0", "100000000000000.0"]
    assert any("abs is not differentiable" in w and "convention, not a fact" in w
               for w in warnings_in(err))
