"""grad --order N's rounding witness moves each row of a series by its own sign and size
(rounding._Nudge._signs): with one factor for a whole series, a quotient by x carried the
move through as a scaling, and atan(x)/x at 1e-3 lost 12 digits at orders 3-4 unwarned.
"""
from __future__ import annotations

import json

import mpmath as mp
import pytest

from conftest import run_cli


def _shown(text: str, at: str, order: int, *more: str):
    code, out, err = run_cli("grad", text, "--at", at, "--order", str(order),
                             "--format", "json", *more)
    assert code == 0, err
    return json.loads(out), err


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
