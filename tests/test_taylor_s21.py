"""grad --order N's witnesses, session 21: the rounding witness sees inside a Taylor rule's
recurrence (functions.nudging_rows), the last step's overflow (times N!) is said as one,
one verdict per number, and diff() graphs are judged by the rounding witness too.

Truths by hand, evaluated by mpmath at 50 digits: d2/dx2 sqrt(u) = (2 u u'' - u'^2) /
(4 u^1.5), so for u = x^2 + x it is -1/(4 (x^2 + x)^1.5) and for u = x^2 + c it is
c/(x^2 + c)^1.5; d/dx cbrt(x^3 + 1) = x^2 (x^3 + 1)^(-2/3), d2 = 2x (x^3 + 1)^(-5/3);
d/dx (sqrt(x^2 + 1) - x) = x/sqrt(x^2 + 1) - 1; d^n/dx^n 1/x = (-1)^n n!/x^(n+1). The
others by mpmath.diff at 50 digits.
"""
from __future__ import annotations

import json

import mpmath as mp
import numpy as np
import pytest

import adcli
from adcli import functions
from conftest import run_cli

mp.mp.dps = 50


def _grad(text: str, at: str, *more: str):
    code, out, err = run_cli("grad", text, "--at", at, "--format", "json", *more)
    assert code == 0, err
    return json.loads(out), err


def _kinds(result, function: str) -> list[str]:
    return [w["kind"] for w in result.get("warnings", []) if w["function"] == function]


# ----- 1. a cancellation inside a rule's recurrence ------------------------------------

X, C = mp.mpf(3e7), mp.mpf(1)


@pytest.mark.parametrize("text, at, wrt, order, truth", [
    # sqrt's y_2 = (u_2 - y_1^2)/(2 y_0), with y_1^2 = 1 - 2.8e-16 and every row of x^2 + x
    # an exact integer: no step outside the rule rounds anything that matters
    ("sqrt(x^2+x)", "x=3e7", "x", 2, lambda: -1 / (4 * (X**2 + X) ** 1.5)),
    ("sqrt(x^2+y^2)", "x=3e7,y=1", "x", 2, lambda: C / (X**2 + C) ** 1.5),
    ("cbrt(x^3+1)", "x=1e5", "x", 2,
     lambda: 2 * mp.mpf(1e5) * (mp.mpf(1e15) + 1) ** (mp.mpf(-5) / 3)),
    ("(x^2+1)^0.5", "x=1e7", "x", 2, lambda: 1 / (mp.mpf(1e14) + 1) ** 1.5),
    ("sqrt(x^2+1)", "x=1e7", "x", 2, lambda: 1 / (mp.mpf(1e14) + 1) ** 1.5),
    ("sqrt(x^2+1)", "x=1e7", "x", 6,
     lambda: mp.diff(lambda t: mp.sqrt(t**2 + 1), mp.mpf(1e7), 6)),
    ("sqrt(x^2+1)", "x=1e4", "x", 5,
     lambda: mp.diff(lambda t: mp.sqrt(t**2 + 1), mp.mpf(1e4), 5)),
])
def test_a_cancellation_inside_a_recurrence_is_said(text, at, wrt, order, truth):
    result, err = _grad(text, at, "--wrt", wrt, "--order", str(order))
    shown = result["points"][0]["derivative"]
    exact = truth()
    assert abs(shown - exact) > 1e-8 * abs(exact)     # float64's number has lost digits
    name = f"d{order}/d{wrt}{order}"
    assert _kinds(result, name) == ["rounding"]
    assert f"{name} at 1 of 1 point: its steps' rounding errors grew on the way" in err


def _derivative(f, x: float, order: int) -> float:
    return float(mp.diff(f, mp.mpf(x), order))


@pytest.mark.parametrize("text, x, order, f", [
    ("exp(x)", 1.5, 8, mp.exp),
    ("sin(x)", 2.5, 8, mp.sin),
    ("x^3", 0.7, 3, lambda t: t**3),
    ("1/(1+x^2)", 0.7, 5, lambda t: 1 / (1 + t**2)),
    ("1/(1+x^2)", 4.0, 8, lambda t: 1 / (1 + t**2)),
    ("expm1(x)/x", 1.5, 5, lambda t: mp.expm1(t) / t),
    ("expm1(x)/x", 2.5, 8, lambda t: mp.expm1(t) / t),
    # the rules that now move their rows, where float64 keeps their digits
    ("sqrt(x^2+1)", 0.7, 5, lambda t: mp.sqrt(t**2 + 1)),
    ("cbrt(x^3+1)", 1.5, 3, lambda t: mp.cbrt(t**3 + 1)),
    ("hypot(x, 2)", 1.5, 5, lambda t: mp.hypot(t, 2)),
    ("tan(x)", 0.3, 5, mp.tan),
    ("sec(x)", 0.3, 5, mp.sec),
    ("log(1+x^2)", 2.5, 5, lambda t: mp.log(1 + t**2)),
    ("x^x", 1.5, 5, lambda t: t**t),
    ("x^(x+1)", 1.1, 5, lambda t: t ** (t + 1)),       # a near-whole exponent (2.1)
    ("x^-3", 2.5, 5, lambda t: t**-3),
    ("exp(sin(x))*x^3/(1+x^2)", 0.7, 8, lambda t: mp.exp(mp.sin(t)) * t**3 / (1 + t**2)),
])
def test_digits_float64_has_right_are_not_doubted(text, x, order, f):
    result, err = _grad(text, f"x={x!r}", "--order", str(order))
    shown = result["points"][0]["derivative"]
    assert shown == pytest.approx(_derivative(f, x, order), rel=1e-11, abs=0)
    assert err == "" and "warnings" not in result


def test_each_point_is_judged_on_its_own():
    # the same rule at two points: the rows of sqrt(x^2 + x) cancel at 3e7, not at 2
    result = adcli.parse("sqrt(x^2+x)").nth_derivative("x", 2, x=np.array([3e7, 2.0, 3e7]))
    assert result.derivative[1] == pytest.approx(-1 / (4 * 6 ** 1.5), rel=1e-14, abs=0)
    assert result.diagnostics.masks[("x^2", "rounding")].tolist() == [True, False, True]


def test_rows_are_moved_only_in_the_witness_sweeps():
    adcli.parse("sqrt(x^2+x)").nth_derivative("x", 2, x=3e7)
    assert functions._row_nudge.get() is None
    # a normal sweep gives the same bits as before the witness ran
    again = adcli.parse("sqrt(x^2+x)").nth_derivative("x", 2, x=3e7).derivative
    assert float(again) == -1.4802973414952532e-23


# ----- 2. the last step, times N!, overflowed ------------------------------------------

def test_the_factorial_overflowing_is_said_as_an_overflow():
    truth = mp.factorial(30) / mp.mpf(1e-9) ** 31      # 2.65e311: beyond float64
    assert truth > mp.mpf(np.finfo(np.float64).max)
    result, err = _grad("1/x", "x=1e-9", "--order", "30")
    assert result["points"][0]["derivative"] == "inf"
    (warning,) = result["warnings"]
    assert warning["function"] == "d30/dx30" and warning["kind"] == "overflow"
    assert "30!" in warning["why"]
    assert "d30/dx30 overflowed at 1 of 1 point" in err
    assert "from a value that is nan or inf" not in err


def test_the_factorial_overflowing_stops_strict():
    code, out, err = run_cli("grad", "1/x", "--at", "x=1e-9", "--order", "30", "--strict")
    assert code != 0
    assert "d30/dx30 overflowed at x=1e-09" in err and "stopped there (--strict)" in err
    assert "from a value that is nan or inf" not in err


def test_the_factorial_overflowing_is_told_by_the_api():
    with pytest.warns(adcli.AdcliWarning, match="d30/dx30 overflowed"):
        adcli.parse("1/x").derivative("x", 30, x=1e-9)
    result = adcli.parse("1/x").nth_derivative("x", 30, x=np.array([1e-9, 1.0]))
    assert result.derivative[1] == pytest.approx(float(mp.factorial(30)), rel=1e-15)
    assert result.diagnostics.masks[("x^30", "overflow")].tolist() == [True, False]


def test_a_row_that_overflowed_is_blamed_once():
    # at 1e-10 row 30 itself (1e310) overflows in '/': that rule is named, not N! as well
    result, _ = _grad("1/x", "x=1e-10", "--order", "30")
    assert [w["function"] for w in result["warnings"]] == ["/"]


# ----- 3. one number, one verdict ------------------------------------------------------

def test_a_number_said_wrong_is_not_also_said_maybe_wrong():
    result, err = _grad("exp(-x)*1e20", "x=740", "--order", "3")
    truth = -mp.exp(-740) * mp.mpf(1e20)      # -4.1887e-302; float64 shows -4.1996e-302
    (entry,) = [w for w in result["warnings"] if w["function"] == "d3/dx3"]
    assert entry["kind"] == "range"
    assert entry["long_double"] == pytest.approx(float(truth), rel=1e-12)
    assert "may be wrong" not in err


# ----- 4. diff() graphs under the rounding witness -------------------------------------

def test_diff_is_judged_by_the_rounding_witness():
    code, out, err = run_cli("eval", "diff(sqrt(x^2+1)-x, x)", "--at", "x=1e5",
                             "--format", "json")
    assert code == 0
    result = json.loads(out)
    shown = result["points"][0]["value"]
    x = mp.mpf(1e5)
    truth = x / mp.sqrt(x**2 + 1) - 1           # -4.999999999625e-11
    assert abs(shown - truth) > 1e-6 * abs(truth)
    assert [w["kind"] for w in result["warnings"]] == ["rounding"]


@pytest.mark.parametrize("text, at, truth", [
    ("diff(sin(x), x)", "1.5", lambda x: mp.cos(x)),
    ("diff(sin(x), x)", "1e9", lambda x: mp.cos(x)),
    ("diff(x^3, x) + diff(exp(x), x)", "1.5", lambda x: 3 * x**2 + mp.exp(x)),
    ("diff(sin(2*x), x)", "1.5", lambda x: 2 * mp.cos(2 * x)),
    ("diff(sin(2*x), x)", "1e9", lambda x: 2 * mp.cos(2 * x)),   # an exact 2x: no doubt
])
def test_diff_float64_has_right_is_not_doubted(text, at, truth):
    code, out, err = run_cli("eval", text, "--at", f"x={at}", "--format", "json")
    assert code == 0
    result = json.loads(out)
    assert result["points"][0]["value"] == pytest.approx(float(truth(mp.mpf(at))),
                                                         rel=1e-15, abs=0)
    assert err == "" and "warnings" not in result
