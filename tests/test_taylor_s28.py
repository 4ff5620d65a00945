"""grad --order N where float64's Taylor sweep left the normal range on every line: the
point is swept again in long double (taylor._widened), and its number shown where that
run stayed in long double's range and its nudged runs agree (adcli.wider's witness).

x^5 log x at 1e-100: x^5 = 1e-500 is 0 in float64 and log's rows 1e500/k overflow, whatever
the line's scale; d5/dx5 = 120 log x + 274 (by hand) is modest. It was shown as nan with
"the derivative through log overflowed ... beyond the float range".
"""
from __future__ import annotations

import json
import math

import mpmath as mp
import numpy as np
import pytest

import adcli
from adcli import taylor, wider
from conftest import run_cli, warnings_in

pytestmark = pytest.mark.skipif(not wider.WIDE, reason="numpy's long double is float64 here")


def _shown(text: str, at: str, order: int, *more: str):
    code, out, err = run_cli("grad", text, "--at", at, "--order", str(order),
                             "--format", "json", *more)
    assert code == 0, err
    return json.loads(out), err


def _h(n: int) -> float:
    return sum(1.0 / k for k in range(1, n + 1))


# (expression, x, order, the truth by hand): d^n/dx^n x^n log x = n! (log x + H_n);
# d6/dx6 x^5 log x = 120/x; x^6 atan(1/x) = x^6 (pi/2 - x + x^3/3 - ...), whose seventh
# derivative is -7! + O(x^2); sin(x)^5 = x^5 + O(x^7), so its fifth like x^5 log x's
MODEST = [
    ("x^5*log(x)", 1e-100, 5, 120 * math.log(1e-100) + 274),
    ("x^5*log(x)", 1e-200, 5, 120 * math.log(1e-200) + 274),
    ("x^5*log(x)", 1e-100, 6, 1.2e102),
    ("x^10*log(x)", 1e-40, 10, math.factorial(10) * (math.log(1e-40) + _h(10))),
    ("x^6*atan(1/x)", 1e-60, 7, -5040.0),
    ("sin(x)^5*log(x)", 1e-100, 5, 120 * math.log(1e-100) + 274),
]


@pytest.mark.parametrize("text, x, order, truth", MODEST)
def test_a_derivative_float64_cannot_reach_is_found_in_long_double(text, x, order, truth):
    document, err = _shown(text, f"x={x!r}", order)
    assert document["points"][0]["derivative"] == pytest.approx(truth, rel=1e-14)
    assert "warnings" not in document and warnings_in(err) == []


def test_the_readmes_example_holds():
    code, out, err = run_cli("grad", "x^5*log(x)", "--at", "x=1e-100", "--order", "5",
                             "--format", "plain")
    assert code == 0 and err == ""
    value, derivative = out.split()
    assert float(value) == 0.0
    assert float(derivative) == pytest.approx(-27357.0211159285, rel=1e-14)


@pytest.mark.parametrize("order", [2, 5, 60])
def test_a_subnormal_value_on_the_way_is_a_number_in_long_double(order):
    # 1e300 e^x at -720: e^-720 keeps 43 bits in float64 on every line, and every
    # derivative came out 2.03223080241836e-13 with "may be wrong"; at -740, order 60, 7 bits
    for x in (-720.0, -740.0):
        with mp.workdps(50):
            truth = float(mp.mpf(10) ** 300 * mp.exp(x))
        document, err = _shown("1e300*exp(x)", f"x={x}", order)
        assert document["points"][0]["derivative"] == pytest.approx(truth, rel=1e-15)
        assert "may be wrong" not in err and f"d{order}/dx{order}" not in err


@pytest.mark.parametrize("order", [2, 3, 4])
def test_an_overflowed_factor_held_in_long_double(order):
    # e^x (1 + e^(y - 801)) along y at x = 1000, y = 1: every derivative is
    # e^(x + y - 801) = e^200, where float64's e^1000 is inf (it was nan)
    # (the value itself, e^1000 (1 + e^-800), is beyond float64, and said to be)
    with pytest.warns(adcli.AdcliWarning, match="exp gave nan or inf at 1 of 1 point"):
        got = adcli.parse("exp(x)*(1 + exp(y - 801))").derivative("y", order, x=1000.0,
                                                                   y=1.0)
    assert float(got) == pytest.approx(math.exp(200.0), rel=1e-14)


def test_an_unstable_long_double_number_is_not_taken():
    # e^x e^-x at 705, order 20: the truth is 0; long double's binomial sum leaves its
    # own rounding, which the nudged runs move as much: float64's number stays, said
    x = np.array([705.0])
    nth = taylor.taylor_nth(adcli.parse("exp(x)*exp(-x)"), {"x": x}, "x", 20)
    assert nth.lost.all()
    number, believed = taylor.long_double_derivative(adcli.parse("exp(x)*exp(-x)"), [x],
                                                     "x", 20)
    assert not believed.any()


def test_long_doubles_number_is_not_said_to_be_unwitnessed():
    # x log x + sin x at 1e100, order 8: 6!/x^7 + sin x (by hand), sin(1e100) to every
    # digit shown. float64's line x + t underflowed and no other was clean, in the nudged
    # sweeps too: long double's number, judged by its own nudged runs, was said "may be
    # wrong" for want of a float64 witness
    document, err = _shown("x*log(x)+sin(x)", "x=1e100", 8)
    with mp.workdps(150):
        truth = float(mp.sin(mp.mpf(1e100)))
    assert document["points"][0]["derivative"] == pytest.approx(truth, rel=1e-15)
    assert "warnings" not in document and err == ""


def test_beyond_long_doubles_range_nothing_is_taken():
    # x^50 = 1e-5000 at 1e-100 is below long double's range too: its number (nan) and
    # its warning stay float64's
    document, err = _shown("x^50*log(x)", "x=1e-100", 50)
    assert document["points"][0]["derivative"] == "nan"
    assert document["warnings"]


def test_several_points_keep_their_own_numbers():
    # the long double points among ordinary ones: each its own truth
    x = np.array([1e-100, 0.5, 1e-200, 2.0])
    got = adcli.parse("x^5*log(x)").derivative("x", 5, x=x)
    np.testing.assert_allclose(got, 120 * np.log(x) + 274, rtol=1e-14)


# ----- 2. the rounding witness moves a series' rows apart ---------------------------------
# atan(x)/x at small x: the quotient's rows (a_k - y_(k-1))/x cancel, so that float64 keeps
# 3 digits at order 3. By hand, atan(x)/x = 1 - x^2/3 + x^4/5 - x^6/7 + ...: f''' =
# 24x/5 - 120x^3/7 + ..., f'''' = 24/5 - 360x^2/7 + ... (the next terms, 8!x^5/(5! 9) and
# 8!x^4/(4! 9), are below 1e-11 at 3e-3). The witness moved atan's rows all by one factor,
# a scaling the quotient carries through unchanged: nothing was said, where sin(x)/x was.
def _atan_over_x(x: float, order: int) -> float:
    return 24 * x / 5 - 120 * x**3 / 7 if order == 3 else 24 / 5 - 360 * x**2 / 7


@pytest.mark.parametrize("text", ["atan(x)/x", "atan2(x,1)/x"])
@pytest.mark.parametrize("x", [1e-3, 3e-3])
@pytest.mark.parametrize("order", [3, 4])
def test_a_quotient_whose_rows_cancel_is_said_to_have_lost_digits(text, x, order):
    document, err = _shown(text, f"x={x}", order)
    shown = document["points"][0]["derivative"]
    truth = _atan_over_x(x, order)
    assert abs(shown - truth) > 1e-8 * abs(truth)       # the case is what it says
    kinds = [(w["function"], w["kind"]) for w in document.get("warnings", [])]
    assert kinds == [(f"d{order}/dx{order}", "rounding")]
    assert f"d{order}/dx{order} at 1 of 1 point: its steps' rounding errors grew" in err


@pytest.mark.parametrize("text", ["atan(x)/x", "atan2(x,1)/x"])
@pytest.mark.parametrize("order", [3, 4])
def test_the_same_quotient_where_it_is_accurate_is_not(text, order):
    # at 0.5 by mpmath: every digit float64 shows is right, and nothing is said
    document, err = _shown(text, "x=0.5", order)
    with mp.workdps(40):
        truth = float(mp.diff(lambda t: mp.atan(t) / t, mp.mpf("0.5"), order))
    assert document["points"][0]["derivative"] == pytest.approx(truth, rel=1e-13)
    assert "warnings" not in document and err == ""


def test_a_series_rows_are_moved_by_different_factors():
    # four rows of one point, as grad --order 3's series at one point: never all moved alike
    from adcli.rounding import _Nudge

    for seed in (1, 2):
        nudge = _Nudge(seed)
        for _ in range(200):
            moves = nudge._signs((4, 1))
            assert len(set(moves.ravel().tolist())) == 4
