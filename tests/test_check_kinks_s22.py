"""adcli check's verdicts at a kink rest on AD's own derivatives just beside the point
(adcli.sides.one_sided), which resolve a jump far below one-sided differences' 1e-6.

Every left and right derivative below is worked out by hand:
  1e8 sin(x) + max(x, 0) at 0:      1e8 cos(0) + 0 = 1e8 and 1e8 + 1
  x + 1e-12 max(x, 0) at 0:         1 and 1 + 1e-12
  1e8 sin(x) + max(x - 1, 0) at 1:  1e8 cos(1) and 1e8 cos(1) + 1 (a jump of 1.85e-8)
  (1e8 x^2 + x|x|)'' at 0:          2e8 - 2 and 2e8 + 2
  ∂²/∂x∂y of y (1e8 x + |x|):       1e8 - 1 and 1e8 + 1 (∂f/∂y = 1e8 x + |x|, in x)
and where the derivative exists: (|x|^3)' = 3x|x|, (x|x|)' = 2|x|, |x| sign(x) = x,
|x - x| = 0, ∂/∂x (x|y|) = |y|, ∂²/∂x² (|x||y|) = 0 at y = 0 (f(x, 0) = 0).
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import adcli
from conftest import run_cli, strict_json, warnings_in

DIFFERENTIABLE = "but f is differentiable there"


def plain(*argv):
    return run_cli("check", *argv, "--format", "plain")


def kink_row(text, *argv):
    code, out, err = run_cli("check", text, *argv, "--format", "json")
    document = strict_json(out)
    (row,) = document["kinks"]
    return code, document, row, err


# ----- 1. a small jump beside a large derivative is a jump ---------------------------------

@pytest.mark.parametrize("text, at, left, right", [
    ("1e8*sin(x) + max(x, 0)", "x=0", 1e8, 1e8 + 1),
    ("x + 1e-12*max(x, 0)", "x=0", 1.0, 1.0 + 1e-12),
    ("1e8*sin(x) + max(x - 1, 0)", "x=1", 1e8 * math.cos(1.0), 1e8 * math.cos(1.0) + 1),
    ("1e10*x + abs(x)", "x=0", 1e10 - 1, 1e10 + 1),
])
def test_a_small_relative_jump_means_no_derivative(text, at, left, right):
    code, document, row, err = kink_row(text, "--at", at)
    assert (code, document["verdict"], document["no_derivative"], document["counted"]) == \
        (1, "cannot tell", 1, 0)
    assert row["left"] == pytest.approx(left, rel=1e-14, abs=0)
    assert row["right"] == pytest.approx(right, rel=1e-14, abs=0)
    # (the jump itself, to 1e-3 of its size: 1 in 1e8, 1e-12 in 1)
    assert row["right"] - row["left"] == pytest.approx(right - left, rel=1e-3)
    assert DIFFERENTIABLE not in err and "convention, not a fact" in err


def test_the_reported_case_is_not_called_a_match():
    code, out, err = plain("1e8*sin(x) + max(x,0)", "--at", "x=0")
    assert (code, out) == (1, "cannot tell: the derivative does not exist at the 1 point "
                              "checked\n")
    assert warnings_in(err) == [
        "adcli: warning: max is not differentiable at 1 of 1 point (a tie between its "
        "arguments): its derivative there is a convention, not a fact"]


def test_an_expectation_that_matches_the_convention_is_not_counted_there():
    # 1e8 cos(x) + (sign(x) + 1)/2 is f' at -1 and 1, and AD's 1e8 + 0.5 at 0, where f'
    # does not exist (1e8 and 1e8 + 1): 2 points counted, not 3
    code, out, _ = plain("1e8*sin(x) + max(x,0)", "1e8*cos(x) + (sign(x)+1)/2",
                         "--grid", "x=-1:1:3")
    assert (code, out) == (0, "matches d/dx at 2/2 points, largest relative difference 0, "
                              "except at 1 point where the derivative does not exist\n")


def test_a_second_derivative_with_a_small_jump():
    code, document, row, err = kink_row("1e8*x^2 + x*abs(x)", "--order", "2", "--at", "x=0")
    assert (code, document["no_derivative"]) == (1, 1)
    assert (row["left"], row["right"]) == (pytest.approx(2e8 - 2, rel=1e-14),
                                           pytest.approx(2e8 + 2, rel=1e-14))
    assert "exists there" not in err


def test_a_mixed_partial_with_a_small_jump():
    code, document, row, err = kink_row("y*(1e8*x + abs(x))", "--expect", "x,y=1e8",
                                        "--at", "x=0,y=1")
    assert (code, document["no_derivative"], document["counted"]) == (1, 1, 0)
    assert (row["left"], row["right"]) == (pytest.approx(1e8 - 1, rel=1e-14),
                                           pytest.approx(1e8 + 1, rel=1e-14))
    assert "exists there" not in err


def test_the_api_gives_the_sides_and_their_error():
    result = adcli.check("x + 1e-12*max(x, 0)", at={"x": [0.0]})
    (t,) = result.targets
    assert not t.exists[0] and result.no_derivative == 1
    assert 0 < t.sides_error[0] < 1e-13      # (rounding of 1 + 1e-12: a few ulps of 1)


# ----- 2. true claims stay ---------------------------------------------------------------

def test_cubed_abs_is_differentiable_at_0():
    code, out, err = plain("abs(x)^3", "3*x*abs(x)", "--at", "x=0")
    assert (code, out) == (0, "matches d/dx at 1/1 points, largest relative difference 0\n")
    assert warnings_in(err) == [
        "adcli: warning: abs is not differentiable at 1 of 1 point (an argument of 0, a "
        f"corner), {DIFFERENTIABLE}: its left and right derivatives agree (0)"]


def test_relu_has_sides_0_and_1():
    code, document, row, _ = kink_row("max(x,0)", "--at", "x=0")
    assert (code, row["left"], row["right"], row["ad"]) == (1, 0.0, 1.0, 0.5)


def test_x_abs_x_at_a_grid_through_0():
    code, out, err = plain("x*abs(x)", "2*abs(x)", "--grid", "x=-1:1:3")
    assert (code, out) == (0, "matches d/dx at 3/3 points, largest relative difference 0\n")
    assert f"{DIFFERENTIABLE}: its left and right derivatives agree (0)" in err


def test_sides_that_agree_exactly_judge_the_expectation():
    # |x| sign(x) = x: f' = 1, AD's convention 0; the sides are 1 and 1 exactly
    code, out, _ = run_cli("check", "abs(x)*sign(x)", "1", "--at", "x=0", "--format", "json")
    document = strict_json(out)
    assert (code, document["verdict"], document["kinks"]) == (0, "matches", [])
    derivative = document["points"][0]["derivatives"]["x"]
    assert (derivative["left"], derivative["right"], derivative["status"]) == \
        (1.0, 1.0, "match")
    code, out, _ = plain("abs(x)*sign(x)", "1 + 1e-8", "--at", "x=0")
    assert (code, out) == (1, "differs from d/dx at 1 of 1 point\n")


def test_a_kink_beside_every_point_is_left_to_finite_differences():
    # |x - x| = 0: abs's kink is at every x, so AD beside the point is on it too
    code, out, err = plain("abs(x - x)", "0", "--grid", "x=-1:1:3")
    assert (code, out) == (0, "matches d/dx at 3/3 points, largest relative difference 0\n")


def test_a_kink_in_another_variable():
    code, out, _ = plain("x*abs(y)", "--expect", "x=abs(y)", "--at", "x=1,y=0")
    assert (code, out.splitlines()[0]) == (
        0, "matches ∂/∂x at 1/1 points, largest relative difference 0")


def test_second_partials_of_a_product_of_abs_at_the_origin():
    code, out, err = plain("abs(x)*abs(y)", "--order", "2", "--at", "x=0,y=0")
    assert code == 0 and out.startswith("adcli's derivative agrees with finite differences "
                                        "for ∂²/∂x² and ∂²/∂y² at 1/1 points")
    assert "their left and right derivatives agree (0)" in err


def test_sides_that_grow_are_no_derivative():
    # cbrt(x)' = x^(-2/3)/3 beside 0 on either side: the same, and unbounded
    result = adcli.check("cbrt(x)", at={"x": [0.0]})
    assert (result.no_derivative, result.counted) == (1, 0)


def test_a_power_below_1_is_not_taken_for_a_jump():
    # (x^2 cbrt x)' = (7/3) x cbrt(x) and (x cbrt x)' = (4/3) cbrt(x): 0 from either
    # side, as d^(4/3) and d^(1/3)
    result = adcli.check("x^2*cbrt(x)", "(7/3)*x*cbrt(x)", at={"x": [0.0]})
    (t,) = result.targets
    assert (result.verdict, t.left[0], t.right[0]) == ("matches", 0.0, 0.0)
    assert adcli.check("x*cbrt(x)", "(4/3)*cbrt(x)", at={"x": [0.0]}).verdict == "matches"


# ----- 3. mixed partials whose lower derivative has a kink beside the point ----------------

def test_a_mixed_partial_beside_a_kink_is_not_said_to_exist():
    # ∂f/∂y of |x||y| is |x| sign(y): it does not exist on y = 0 but at x = 0, so
    # ∂²f/∂x∂y does not exist at the origin; finite differences of AD's ∂f/∂y there
    # (0 on both sides: sign's convention) took it for 0
    code, out, err = plain("abs(x)*abs(y)", "--expect", "x,y=0", "--at", "x=0,y=0")
    assert code == 1 and out.startswith(
        "cannot tell: whether ∂²/∂x∂y exists is not known at the 1 point checked")
    assert "exists there: its left and right" not in err


def test_a_mixed_partial_that_jumps_is_still_no_derivative():
    result = adcli.check("abs(x)*y", expect={"x,y": "x/abs(x)"},
                         at={"x": np.array([-1.0, 0.0, 1.0]), "y": 2.0})
    (row,) = result.kinks
    assert (result.verdict, row.left, row.right) == ("matches", -1.0, 1.0)


def test_a_mixed_partial_beside_a_kink_of_a_lower_derivative_that_exists():
    # xy + |y|^3: ∂f/∂y = x + 3y|y| exists everywhere (0 from either side of y = 0 in its
    # second term), so ∂²f/∂x∂y = 1 at (1, 0), though abs's kink lies beside the point
    code, out, err = plain("x*y + abs(y)^3", "--expect", "x,y=1", "--at", "x=1,y=0")
    assert (code, out) == (0, "matches ∂²/∂x∂y at 1/1 points, largest relative difference "
                              "0\n")
    assert "but f's ∂²/∂x∂y exists there: its left and right derivatives agree (1)" in err
    # x |y| sign(y) = xy has ∂f/∂y = x, but AD's is sign's convention (0) beside the
    # point: not known, not a match against AD's 0 nor a jump
    code, out, _ = plain("x*abs(y)*sign(y)", "--expect", "x,y=1", "--at", "x=1,y=0")
    assert code == 1 and out.startswith("cannot tell: whether ∂²/∂x∂y exists is not known")
