"""Session 24's engine findings: pow's derivative overflowing at a negative base is an
overflow (not a domain edge), acot of -0.0 is in acot's range, and --order of a constant
says what is wrong."""
from __future__ import annotations

import json
import math

import pytest

from conftest import run_cli


@pytest.mark.parametrize("text, at", [("x^(-3)", "x=-1e-80"), ("x^(-3)", "x=1e-80"),
                                      ("pow(x,-1)", "x=-1e-160"), ("x^y", "x=-1e-80,y=-3")])
def test_pows_derivative_beyond_the_float_range_is_an_overflow_on_either_side(text, at):
    # d/dx x^-3 = -3 x^-4 = -3e320 at ±1e-80 (and -x^-2 = -1e320 at -1e-160): finite, past
    # float64's range, inside pow's domain for a whole exponent whatever the base's sign
    code, out, err = run_cli("grad", text, "--at", at, "--format", "json", "--wrt", "x")
    assert code == 0
    result = json.loads(out)
    assert result["points"][0]["gradient"]["x"] == "-inf"
    kinds = {w["kind"] for w in result["warnings"] if w["function"] == "^"}
    assert kinds == {"overflow"}, result["warnings"]


def test_a_fractional_power_of_a_negative_base_is_still_its_domain():
    code, out, err = run_cli("grad", "x^y", "--at", "x=-2,y=0.5", "--format", "json")
    assert code == 0
    kinds = {w["kind"] for w in json.loads(out)["warnings"] if w["function"] == "^"}
    assert "overflow" not in kinds and kinds


@pytest.mark.parametrize("text, at", [("acot(x)", "x=-0.0"), ("acot(0*(-1))", None),
                                      ("acot(x)", "x=0")])
def test_acot_of_a_signed_zero_is_in_its_range(text, at):
    # acot's values are (-pi/2, pi/2] (README): at 0, of either sign, pi/2
    code, out, _ = run_cli("eval", text, *(("--at", at) if at else ()), "--format", "plain")
    assert code == 0 and float(out) == math.pi / 2


def test_acot_keeps_its_sign_just_left_of_0():
    code, out, _ = run_cli("eval", "acot(x)", "--at", "x=-1e-300", "--format", "plain")
    assert code == 0 and float(out) == -math.pi / 2


def test_order_n_of_a_constant_says_it_has_no_variables():
    code, out, err = run_cli("grad", "tanh(2.5)", "--order", "2")
    assert code == 2 and out == ""
    assert err == ("adcli: error: --order 2: the expression has no variables, so there is "
                   "none to differentiate in (every derivative of a constant is 0; adcli eval "
                   "gives its value)\n")


@pytest.mark.parametrize("text, function", [("atan2(y,x)", "atan2"), ("hypot(x,y)", "hypot")])
def test_atan2_and_hypot_at_the_origin_have_no_one_slope(text, function):
    # both are defined all round the origin (atan2(0, 0) = 0, hypot(0, 0) = 0): their nan
    # derivative there is 0/0, no edge of a domain nor a vertical tangent
    code, out, err = run_cli("grad", text, "--at", "x=0,y=0", "--format", "json")
    assert code == 0
    (entry,) = [w for w in json.loads(out)["warnings"]
                if w["function"] == function and w["kind"] == "derivative"]
    assert entry["why"].endswith("where its slope depends on the direction it is met from "
                                 "(0/0))")
    assert "edge of its domain" not in entry["why"]


def test_atan2_beside_the_origin_overflowing_is_still_an_overflow():
    # d/dy atan2(y, x) = x/(x^2 + y^2) = 1/x = 1e310 at x = 1e-310, y = 0: beyond float64,
    # inside atan2's domain (not the origin)
    code, out, err = run_cli("grad", "atan2(y,x)", "--at", "x=1e-310,y=0", "--format", "json")
    result = json.loads(out)
    assert result["points"][0]["gradient"]["y"] == "inf"
    kinds = {w["kind"] for w in result["warnings"] if w["function"] == "atan2"}
    assert kinds == {"overflow"}


def test_trace_says_its_rounded_adjoint_is_float64s_sum():
    # 0.1 + 0.2 + 0.3 exactly is 0.6000000000000000333; float64 left to right 0.6000000000000001
    code, out, err = run_cli("trace", "x*y + x*z + x*w", "--at", "x=1,y=0.1,z=0.2,w=0.3",
                             "--digits", "17")
    assert code == 0
    assert "0.60000000000000009" in out
    assert "≈: the adjoint, float64's sum of the terms, rounded to 17 digits" in out
