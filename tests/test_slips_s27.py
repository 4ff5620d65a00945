"""adcli check's diagnoses as a student checking derivations reads them (round 27): an
expectation of 0 at order 2 is no term left out; the sign wrong on one side names |x| only
where the side is x's own sign; --order 0's constant off does not read as acceptance; and at
order 2, f itself outranks the constant factor it makes.

Each premise (what the expectation is, at the points drawn) is checked against a hand
derivation with mpmath, never against adcli's output.
"""
from __future__ import annotations

import mpmath
import pytest

import adcli
from conftest import run_cli
from test_slips_s23 import diagnosis, everywhere

exp, sin, cos = mpmath.exp, mpmath.sin, mpmath.cos


def near(a, b) -> bool:
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1)


def drawn(f, g, **options) -> dict:
    return adcli.check(f, g, **options).points


def d(by_hand, n: int = 1):
    """The n-th derivative of a function of one mpf, with mpmath."""
    return lambda x: mpmath.diff(by_hand, x, n)


# ----- 1. order 2: an expectation of 0 leaves every term out, and says nothing -------------

@pytest.mark.parametrize("f, by_hand", [
    ("sin x", sin),
    ("x + sin x", lambda x: x + sin(x)),     # x'' = 0: sin's is all of f''
    ("e^x", exp),
])
def test_an_expectation_of_zero_at_order_two_is_no_term_missing(f, by_hand):
    # f'' is not 0 at any point drawn, so 0 differs everywhere; that "its d²/dx² is
    # missing" restates that the answer is 0
    assert everywhere(drawn(f, "0", order=2), lambda p: d(by_hand, 2)(p["x"]) != 0)
    assert diagnosis(f, "0", "--order", "2") == []


def test_an_expectation_of_zero_at_one_point_says_no_diagnosis_nor_its_note():
    assert d(exp, 2)(mpmath.mpf(0)) == 1
    code, out, _ = run_cli("check", "e^x", "0", "--order", "2", "--at", "x=0",
                           "--format", "plain")
    assert (code, out) == (1, "differs from d²/dx² at 1 of 1 point\n")


def test_a_term_left_out_beside_a_nonzero_expectation_is_still_said():
    """(A guard: (x^2 + sin x)'' = 2 - sin x; 2 is x^2's term alone.)"""
    by_hand = d(lambda x: x ** 2 + sin(x), 2)
    assert everywhere(drawn("x^2 + sin x", "2", order=2),
                      lambda p: near(by_hand(p["x"]) + sin(p["x"]), 2)
                      and not near(by_hand(p["x"]), 2))
    assert diagnosis("x^2 + sin x", "2", "--order", "2") == ["d²/dx² of sin(x) is missing"]


# ----- 2. the sign wrong on one side: |x| only where that side is x's sign -----------------

def flipped_where(points, name, by_hand, written, side) -> int:
    """How many points drawn have the expectation = -f' and ``side`` true; checked to be
    exactly those, and the expectation = f' at the others."""
    count = 0
    for i in range(len(points[name])):
        p = {k: mpmath.mpf(float(v[i])) for k, v in points.items()}
        slope, e = by_hand(p), written(p)
        if side(p):
            assert near(e, -slope) and not near(e, slope)
            count += 1
        else:
            assert near(e, slope)
    return count


@pytest.mark.parametrize("f, name, options, by_hand, side", [
    # d/dt acos(cos t) = sin t/|sin t|: -1 where sin t < 0, though t > 0 at every point
    ("acos(cos t)", "t", ("--domain", "t=0:6.28"),
     lambda p: d(lambda s: mpmath.acos(cos(s)))(p["t"]), lambda p: sin(p["t"]) < 0),
    # d/dx asin(sin x) = cos x/|cos x|: -1 where cos x < 0, which is no part of f
    ("asin(sin x)", "x", (), lambda p: d(lambda s: mpmath.asin(sin(s)))(p["x"]),
     lambda p: cos(p["x"]) < 0),
])
def test_a_sign_flip_of_no_part_of_f_guesses_no_cause(f, name, options, by_hand, side):
    domain = {"t": (0, 6.28)} if options else None
    points = drawn(f, "1", domain=domain)
    n = flipped_where(points, name, by_hand, lambda p: mpmath.mpf(1), side)
    assert 0 < n < len(points[name])
    if name == "t":
        assert all(t > 0 for t in points["t"])     # so |t| written t is no cause
    assert diagnosis(f, "1", *options) == [
        f"the sign is wrong at {n} of {len(points[name])} points and right elsewhere: "
        f"-d/d{name} there"]


def test_a_part_of_f_whose_sign_the_flip_is_is_named():
    # sqrt(sin(x)^2) = |sin x|: its derivative is cos x·sin x/|sin x|, -cos x where sin x < 0
    points = drawn("sqrt(sin(x)^2)", "cos x")
    flipped_where(points, "x", lambda p: d(lambda s: mpmath.sqrt(sin(s) ** 2))(p["x"]),
                  lambda p: cos(p["x"]), lambda p: sin(p["x"]) < 0)
    assert diagnosis("sqrt(sin(x)^2)", "cos x") == [
        "the sign is wrong where sin(x) < 0 and right elsewhere: -d/dx there (an absolute "
        "value lost or added, |sin(x)| written sin(x) or sin(x) written |sin(x)|?)"]


def test_the_variable_whose_sign_the_flip_is_is_the_one_suspected():
    # ∂/∂x of x·sqrt(y^2) is |y|: written y, the sign is wrong where y < 0, and |x| is no cause
    points = drawn("x*sqrt(y^2)", None, expect={"x": "y"})
    flipped_where(points, "x", lambda p: abs(p["y"]), lambda p: p["y"], lambda p: p["y"] < 0)
    assert diagnosis("x*sqrt(y^2)", "--expect", "x=y") == [
        "the sign is wrong where y < 0 and right elsewhere: -∂/∂x there (an absolute value "
        "lost or added, |y| written y or y written |y|?)"]


@pytest.mark.parametrize("f, g, words", [
    ("asec(x)", "1/(x sqrt(x^2-1))", "where x < 0 and right elsewhere: -d/dx there (an "
     "absolute value lost or added, |x| written x or x written |x|?)"),
    ("abs(sin x)", "cos x", "where sin(x) < 0 and right elsewhere: -d/dx there (an absolute "
     "value lost or added, |sin(x)| written sin(x) or sin(x) written |sin(x)|?)"),
])
def test_a_flip_of_x_or_of_an_absolute_values_sign_still_suspects_it(f, g, words):
    """(A guard: asec' = 1/(|x| sqrt(x^2 - 1)); |sin x|' = cos x·sign(sin x).)"""
    assert diagnosis(f, g)[0] == f"the sign is wrong {words}"


# ----- 3. --order 0: a constant off is no acceptance -----------------------------------------

def test_an_identity_off_by_a_constant_is_said_wrong_as_an_identity():
    # cos 2x = 2cos^2 x - 1: written + 1, the expectation is f + 2 at every point
    assert everywhere(drawn("cos(2x)", "2cos^2 x + 1", order=0),
                      lambda p: near(2 * cos(p["x"]) ** 2 + 1 - cos(2 * p["x"]), 2))
    assert diagnosis("cos(2x)", "2cos^2 x + 1", "--order", "0") == [
        "the two differ by the constant 2 everywhere: as an identity this is wrong; as an "
        "antiderivative it is right up to the constant"]


# ----- 4. order 2 and above: f itself outranks the factor it makes -----------------------------

@pytest.mark.parametrize("f, order, by_hand, ratio, label", [
    ("e^(3x)", 2, lambda x: exp(3 * x), 9, "d²/dx²"),          # (du/dx)^2 = 9 left out
    ("e^(3x)", 3, lambda x: exp(3 * x), 27, "d³/dx³"),
    ("sin(3x)", 2, lambda x: sin(3 * x), -9, "d²/dx²"),     # (no lost minus alone)
])
def test_f_itself_at_order_two_is_said_alone(f, order, by_hand, ratio, label):
    # the expectation f is both f itself and 1/ratio times f^(n): one observation
    assert everywhere(drawn(f, f, order=order),
                      lambda p: near(d(by_hand, order)(p["x"]), ratio * by_hand(p["x"])))
    assert diagnosis(f, f, "--order", str(order)) == [
        f"the expectation is f itself at every point, not {label}: nothing was "
        "differentiated"]


def test_another_factor_at_order_two_is_still_said():
    """(A guard: x^3's d²/dx² is 6x; written 3x, ×1/2 alone.)"""
    assert diagnosis("x^3", "3x", "--order", "2")[0].startswith("×1/2 everywhere")


@pytest.mark.parametrize("f, order, by_hand, label", [
    ("cos x", 2, cos, "d²/dx²"),
    ("sin x", 2, sin, "d²/dx²"),
    ("exp(-x)", 3, lambda x: exp(-x), "d³/dx³"),
])
def test_a_lost_minus_at_order_two_is_still_said_beside_f_itself(f, order, by_hand, label):
    """(checkfix) f^(n) = -f: the expectation f is f' with a minus lost as much as f itself,
    and the lost minus is the likelier slip."""
    assert everywhere(drawn(f, f, order=order),
                      lambda p: near(d(by_hand, order)(p["x"]), -by_hand(p["x"])))
    assert diagnosis(f, f, "--order", str(order)) == [
        f"×-1 everywhere: a sign error (the expectation is -{label} at every point)",
        f"the expectation is f itself at every point, not {label}: nothing was "
        "differentiated"]
