"""An inf made from finite inputs in one number's path hides no range warning for another.

At x = 1e-200 float64's x^2 underflows to 0, so log(x^2) is -inf and its slope 2x/x^2 is
inf; the truth, by hand: log(x^2) = 2 ln(1e-200) = -400 ln 10 = -921.034..., d/dx log(x^2)
= 2/x = 2e200. The term in y makes an inf of its own from finite inputs, in long double
too: asin'(y) = 1/sqrt(1 - y^2) at y = -1 (but asin(-1) = -pi/2 is finite), log(0) = -inf
and its slope 1/y = inf at y = 0, 1/0 = inf and its slope -1/y^2 = -inf at y = 0. That inf
reaches only the numbers computed from it: where the value does not go through it, its
long double number stands; where f is truly infinite, or the inf is d/dy's own, nothing is
said of it.

And --wrt x shows no d/dy: a nan or inf derivative on a path only y reaches (asin's at
y = -1, sqrt's at y = 0) is no derivative shown, as its kinks are not.
"""
import json
import math
import warnings

import numpy as np
import pytest

import adcli
from conftest import run_cli, warnings_in

INF = math.inf
LOG_X2 = -400 * math.log(10)   # log(x^2) at x = 1e-200
SLOPE_X = 2e200                # 2/x there


def grad_json(text: str, at: str, *more: str):
    code, out, err = run_cli("grad", text, "--at", at, "--format", "json", *more)
    assert code == 0, err
    document = json.loads(out)
    return document["points"][0], document.get("warnings", []), err


def ranged(said: list, subject: str) -> list:
    return [w for w in said if w["kind"] == "range" and w["function"] == subject]


def test_asin_at_its_edge_hides_neither_the_value_nor_d_dx():
    point, said, err = grad_json("log(x^2) + asin(y)", "x=1e-200,y=-1")
    assert float(point["value"]) == -INF and float(point["gradient"]["x"]) == INF
    value, slope = ranged(said, "value"), ranged(said, "d/dx")
    assert len(value) == 1 and len(slope) == 1
    assert math.isclose(value[0]["long_double"], LOG_X2 - math.pi / 2, rel_tol=1e-14)
    assert math.isclose(slope[0]["long_double"], SLOPE_X, rel_tol=1e-14)
    assert any(line.startswith("adcli: warning: d/dx at 1 of 1 point") and "2e+200" in line
               for line in warnings_in(err))


def test_asin_s_own_inf_slope_gets_no_range_warning():
    # d/dy = asin'(-1) = inf in float64 and long double alike: asin's, no range's
    point, said, _ = grad_json("log(x^2) + asin(y)", "x=1e-200,y=-1")
    assert float(point["gradient"]["y"]) == INF
    assert not ranged(said, "d/dy")
    assert any(w["kind"] == "derivative" and w["function"] == "asin" for w in said)


@pytest.mark.parametrize("text, slope_y", [("log(x^2) + log(y)", INF),
                                           ("log(x^2) + 1/y", -INF)])
def test_a_truly_infinite_value_is_left_alone_and_d_dx_still_warned(text, slope_y):
    # f is -inf (log 0) or inf (1/0 beats -921): no range warning for it, nor for d/dy
    point, said, _ = grad_json(text, "x=1e-200,y=0")
    assert float(point["gradient"]["y"]) == slope_y
    assert not ranged(said, "value") and not ranged(said, "d/dy")
    slope = ranged(said, "d/dx")
    assert len(slope) == 1 and math.isclose(slope[0]["long_double"], SLOPE_X, rel_tol=1e-14)


def test_an_inf_reaching_the_number_still_silences_it():
    # at y = 0, f = x^2/y + log(x^2) is inf (1e-400/0; float64 gives 0/0 = nan) and so is
    # d/dx = 2x/y + 2/x (2e-200/0): each long double number goes through the inf that
    # x^2/y makes from finite inputs, and is no witness against float64's
    _, said, _ = grad_json("x^2/y + log(x^2)", "x=1e-200,y=0")
    assert not ranged(said, "value") and not ranged(said, "d/dx")


def test_the_api_judges_each_point_and_number():
    # points: the edge y = -1, an inner y = 0.5, the other edge y = 1, and x = 3 (no
    # underflow: log 9 + asin(-1), slope 2/3)
    e = adcli.parse("log(x^2) + asin(y)")
    y = np.array([-1.0, 0.5, 1.0, -1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = e.derivatives(x=np.array([1e-200, 1e-200, 1e-200, 3.0]), y=y)
    masks, numbers = result.diagnostics.masks, result.diagnostics.numbers
    assert list(masks[("x", "range")]) == [True, True, True, False]
    assert list(masks[("", "range")]) == [True, True, True, False]
    assert ("y", "range") not in masks or not masks[("y", "range")].any()
    wide = numbers[("", "range")]["long_double"]
    for k in range(3):
        assert math.isclose(wide[k], LOG_X2 + math.asin(y[k]), rel_tol=1e-14)
        assert math.isclose(numbers[("x", "range")]["long_double"][k], SLOPE_X,
                            rel_tol=1e-14)
    assert result.gradient["x"][3] == pytest.approx(2 / 3, rel=1e-15)


def test_wrt_x_does_not_warn_of_asin_s_slope_in_y():
    point, said, _ = grad_json("log(x^2) + asin(y)", "x=1e-200,y=-1", "--wrt", "x")
    assert set(point["gradient"]) == {"x"}
    assert not [w for w in said if w["function"] == "asin"]
    assert len(ranged(said, "d/dx")) == 1 and len(ranged(said, "value")) == 1


def test_wrt_y_still_warns_of_asin_s_slope():
    point, said, _ = grad_json("log(x^2) + asin(y)", "x=1e-200,y=-1", "--wrt", "y")
    assert float(point["gradient"]["y"]) == INF
    assert any(w["kind"] == "derivative" and w["function"] == "asin" for w in said)


@pytest.mark.parametrize("wrt, slope, warned", [("x", -INF, False), ("y", INF, True)])
def test_a_vertical_tangent_is_warned_of_only_under_its_own_variable(wrt, slope, warned):
    # at (0, 0): d/dx (1/x) = -1/x^2 = -inf, d/dy sqrt(y) = 1/(2 sqrt y) = inf: sqrt's is
    # in d/dy alone, and --wrt x shows an inf of 1/x's, not of sqrt's
    point, said, _ = grad_json("1/x + sqrt(y)", "x=0,y=0", "--wrt", wrt)
    assert float(point["gradient"][wrt]) == slope
    assert any(w["kind"] == "derivative" and w["function"] == "sqrt" for w in said) == warned


def test_wrt_x_keeps_no_kink_an_underflow_made_beside_a_kink_in_y():
    # f = sqrt(x^2) + sqrt(y) at x = 1e-200, y = 0: f = |x| = 1e-200, d/dx = x/|x| = 1.
    # float64's x^2 = 0 puts sqrt(x^2) on its kink (slope inf); sqrt(y) sits on its own,
    # which --wrt x does not differentiate through: no sqrt warning is left under it
    point, said, _ = grad_json("sqrt(x^2) + sqrt(y)", "x=1e-200,y=0", "--wrt", "x")
    assert float(point["value"]) == 0.0 and float(point["gradient"]["x"]) == INF
    assert not [w for w in said if w["function"] == "sqrt"]
    value, slope = ranged(said, "value"), ranged(said, "d/dx")
    assert len(value) == 1 and math.isclose(value[0]["long_double"], 1e-200, rel_tol=1e-14)
    assert len(slope) == 1 and math.isclose(slope[0]["long_double"], 1.0, rel_tol=1e-14)


def test_wrt_y_keeps_sqrt_s_kink_in_y_and_says_the_value():
    point, said, _ = grad_json("sqrt(x^2) + sqrt(y)", "x=1e-200,y=0", "--wrt", "y")
    assert float(point["gradient"]["y"]) == INF   # 1/(2 sqrt y) at 0
    kinds = {w["kind"] for w in said if w["function"] == "sqrt"}
    assert kinds == {"kink", "derivative"}
    value = ranged(said, "value")
    assert len(value) == 1 and math.isclose(value[0]["long_double"], 1e-200, rel_tol=1e-14)
    assert not ranged(said, "d/dy")
