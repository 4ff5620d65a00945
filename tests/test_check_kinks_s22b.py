"""check at a kink, after its sides came from AD beside the point (adcli.sides.one_sided).

Every number below is worked out by hand:
  1e14 x + |x| at 0:      f' = 1e14 - 1 (left) and 1e14 + 1 (right), whole numbers below
                          2^53, so exact in float64; f' jumps, so f'' does not exist either
  x + 1e-14 |x| at 0:     f' = 1 - 1e-14 and 1 + 1e-14
  |x|^3:                  f' = 3x|x|, f'' = 6|x|: 0 at 0 from either side
  x|x|:                   f' = 2|x|: 0 at 0 (f'' = 2 sign(x) does not exist there)
  sqrt(x^4) = x^2:        f' = 2x, f'' = 2;   cbrt(x^3) = x: f' = 1, f'' = 0
  g(x) + |x - y|^3 at x = y: |x - y|^3 adds 3(x - y)|x - y| and 6|x - y|, both 0 there,
                          so f' = g', f'' = g'' (g below, differentiated by hand)
  ln(1 + |x|)^2:          f = ln(1 + |x|)^2, f' = 2 ln(1 + |x|) sign(x) / (1 + |x|),
                          f'' = 2 (1 - ln(1 + |x|)) / (1 + |x|)^2 beside 0: 2 from either
                          side; AD's is 0 (abs's convention, sign' = 0, times 0)
  |x - x| + sin(x):       f = sin(x) (|x - x| = 0), f'' = -sin(x): it exists everywhere
  |x - x| + sign(x) at 0: f jumps from -1 to 1: f' does not exist
  |x - x| + |x| at 0:     f' is -1 (left) and 1 (right)
"""
from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

import adcli.sides as sides
from adcli.checking import check
from adcli.expression import parse
from conftest import run_cli


def plain(*argv):
    return run_cli("check", *argv, "--format", "plain")


# ----- 1. a jump of a few dozen ulps beside a large derivative is a jump -------------------

@pytest.mark.parametrize("text, left, right", [
    ("1e14*x + abs(x)", 1e14 - 1, 1e14 + 1),
    ("x + 1e-14*abs(x)", 1 - 1e-14, 1 + 1e-14),
])
def test_first_derivative_that_jumps_by_a_few_ulps_does_not_exist(text, left, right):
    t = check(text, at={"x": 0.0}).targets[0]
    assert t.status[0] == "no derivative"
    assert t.left[0] == pytest.approx(left, rel=1e-15)
    assert t.right[0] == pytest.approx(right, rel=1e-15)


@pytest.mark.parametrize("text, left, right", [
    ("1e14*x + abs(x)", 1e14 - 1, 1e14 + 1),
    ("x + 1e-14*abs(x)", 1 - 1e-14, 1 + 1e-14),
])
def test_second_derivative_there_does_not_exist_because_the_first_does_not(text, left, right):
    t = check(text, at={"x": 0.0}, order=2).targets[0]
    assert t.status[0] == "no derivative"
    assert t.kink_step[0] == 0      # (the sides shown are f''s: f' is what jumps)
    assert t.left[0] == pytest.approx(left, rel=1e-15)
    assert t.right[0] == pytest.approx(right, rel=1e-15)


def test_cli_no_longer_says_second_derivative_exists():
    code, out, err = plain("1e14*x + abs(x)", "--order", "2", "--at", "x=0")
    assert code == 1
    assert out.startswith("cannot tell: the derivative does not exist at the 1 point")
    assert "exists there" not in err
    assert "its derivative there is a convention, not a fact" in err


def test_one_sided_sees_the_lower_derivative_jump_by_one_beside_1e14():
    # f' beside 0 is 1e14 - 1 and 1e14 + 1; at 0 (AD, abs' = 0 there) 1e14: a jump of 1
    # on either side
    _, _, jumps = sides.one_sided(parse("1e14*x + abs(x)"), ("x", "x"),
                                  {"x": np.zeros(1)}, np.array([1e14]))
    assert jumps[:, 0].tolist() == [True, True]


# ----- where the derivative does exist, it still does --------------------------------------

@pytest.mark.parametrize("text, order, expected, value", [
    ("abs(x)^3", 1, "3*x*abs(x)", 0.0),
    ("abs(x)^3", 2, "6*abs(x)", 0.0),
    ("x*abs(x)", 1, "2*abs(x)", 0.0),
    ("sqrt(x^4)", 1, "2*x", 0.0),
    ("sqrt(x^4)", 2, "2", 2.0),
    ("cbrt(x^3)", 1, "1", 1.0),
    ("cbrt(x^3)", 2, "0", 0.0),
])
def test_true_derivatives_at_a_kink_still_exist(text, order, expected, value):
    r = check(text, expected, at={"x": 0.0}, order=order)
    t = r.targets[0]
    assert r.verdict == "matches"
    assert t.exists[0] and t.kink_step[0] == -1
    assert t.left[0] == pytest.approx(value, abs=1e-12)
    assert t.right[0] == pytest.approx(value, abs=1e-12)


# (g, g', g'') by hand; f = g + |x - y|^3 at x = y has f' = g' and f'' = g'' there
SMOOTH = [
    ("1e8*sin(x)", lambda x: 1e8 * np.cos(x), lambda x: -1e8 * np.sin(x), 1e8),
    ("exp(x)*cos(3*x)", lambda x: np.exp(x) * (np.cos(3 * x) - 3 * np.sin(3 * x)),
     lambda x: np.exp(x) * (-8 * np.cos(3 * x) - 6 * np.sin(3 * x)), 100.0),
    ("log(x^2+1)*atan(x)",
     lambda x: 2 * x * np.arctan(x) / (x * x + 1) + np.log(x * x + 1) / (x * x + 1),
     lambda x: (2 * np.arctan(x) * (1 - x * x) / (x * x + 1) ** 2
                + (4 * x - 2 * x * np.log(x * x + 1)) / (x * x + 1) ** 2), 1.0),
    ("x^7/3 - x^2", lambda x: 7 * x ** 6 / 3 - 2 * x, lambda x: 14 * x ** 5 - 2, 1e3),
    ("exp(10*x)", lambda x: 10 * np.exp(10 * x), lambda x: 100 * np.exp(10 * x), 0.0),
]


@pytest.mark.parametrize("g, first, second, scale", SMOOTH, ids=[s[0] for s in SMOOTH])
def test_rounding_beside_a_smooth_kink_is_no_jump(g, first, second, scale):
    # 801 points from -2.3 to 2.7 (-2 + 2^-52 among them: x - d there is rounded) with
    # derivatives cancelling to near 0 at some (1e8 cos x near pi/2)
    xs = np.linspace(-2.3, 2.7, 801)
    for order, exact in ((1, first), (2, second)):
        t = check(f"{g} + abs(x-y)^3", at={"x": xs, "y": xs.copy()}, order=order,
                  wrt="x").targets[0]
        assert t.exists.all(), xs[~t.exists][:5]
        for side in (t.left, t.right):
            assert np.allclose(side, exact(xs), rtol=1e-9, atol=1e-9 * scale)


# ----- 2. a mixed partial at many kinks: a chunk of points at a time ------------------------

def _many_kinks(m):
    terms = "+".join(f"abs(y)^3*sin({k}*x)" for k in range(1, 11))
    return parse(f"x*y+{terms}"), {"x": np.linspace(1, 2, m), "y": np.zeros(m)}


def test_mixed_partial_sides_in_chunks_are_those_taken_at_once(monkeypatch):
    f, points = _many_kinks(7)
    here = points["x"]    # ∂f/∂y = x + 3 y|y| sum sin(kx): x at y = 0, then in x: 1
    whole = sides.one_sided(f, ("y", "x"), points, here)
    monkeypatch.setattr(sides, "_CHUNK", 3)
    chunked = sides.one_sided(f, ("y", "x"), points, here)
    for a, b in zip(whole, chunked):
        np.testing.assert_array_equal(a, b)
    limits, errors, jumps = whole
    # ∂²f/∂x∂y = 1 + 3 (y|y|)' ... = 1 at y = 0, from either side
    np.testing.assert_allclose(limits, 1.0, rtol=1e-12)
    assert not jumps.any()


def test_mixed_partial_sides_at_many_kinks_stay_small_in_memory():
    # 2,048 kinks: at once, 6 x 6 points beside each through nested reverse passes held
    # about 150 MB at the peak; a chunk at a time, well under half that
    f, points = _many_kinks(2048)
    tracemalloc.start()
    try:
        sides.one_sided(f, ("y", "x"), points, points["x"])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 60e6


# ----- 3. where AD's sides confirm the derivative, the point counts -------------------------

def test_kink_whose_sides_confirm_ad_counts_as_a_match():
    r = check("x*abs(x)", at={"x": 0.0})
    t = r.targets[0]
    assert r.verdict == "matches" and r.counted == 1
    assert t.status[0] == "match" and t.fd[0] == 0.0
    assert any("judged against its left and right derivatives" in n for n in r.notes)


def test_kink_among_smooth_points_counts_too():
    # f' = 2|x|: 2, 0, 2
    r = check("x*abs(x)", at={"x": np.array([-1.0, 0.0, 1.0])})
    assert r.verdict == "matches" and r.counted == 3


def test_convention_the_sides_refute_differs():
    r = check("log(1+abs(x))^2", at={"x": 0.0}, order=2)
    t = r.targets[0]
    assert r.verdict == "differs"
    assert t.status[0] == "differs"
    assert t.ad[0] == 0.0
    assert t.fd[0] == pytest.approx(2.0, rel=1e-9)
    assert t.left[0] == pytest.approx(2.0, rel=1e-9)
    assert t.right[0] == pytest.approx(2.0, rel=1e-9)


def test_cli_kink_match_says_no_false_underflow():
    code, out, err = plain("x*abs(x)", "--at", "x=0")
    assert code == 0
    assert out.startswith("adcli's derivative agrees")
    assert "normal range" not in out


# ----- 4. one-sided differences within their own error claim nothing ----------------------

def test_unsettled_one_sided_differences_do_not_say_no_derivative():
    r = check("abs(x-x)+sin(x)", at={"x": 1e-4}, order=2)
    t = r.targets[0]
    assert t.status[0] != "no derivative"
    assert t.sides_unknown[0]
    assert r.verdict == "cannot tell"
    assert any("one-sided differences do not settle" in n for n in r.notes)


@pytest.mark.parametrize("text, left, right", [
    ("abs(x-x)+abs(x)", -1.0, 1.0),
    ("abs(x-x)+sign(x)", None, None),
])
def test_one_sided_differences_that_disagree_still_say_no_derivative(text, left, right):
    t = check(text, at={"x": 0.0}).targets[0]
    assert t.status[0] == "no derivative"
    if left is not None:
        assert (t.left[0], t.right[0]) == (left, right)
