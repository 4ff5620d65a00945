"""adcli check at kinks (README "Conventions at kinks and edges"): where f is differentiable
though a function in it is not, the expectation is judged against f's derivative (its left
and right derivatives, which agree), not against AD's convention; at --order 0 no kink is
warned of, and an exact 0 is compared as a value.

Every derivative below is worked out by hand; messages and exit codes are compared whole.
"""
from __future__ import annotations

import pytest

from conftest import run_cli, strict_json, warnings_in


def plain(*argv):
    return run_cli("check", *argv, "--format", "plain")


def judged(function: str, reason: str, points: str, value: str, convention: str) -> str:
    return (f"adcli: warning: {function} is not differentiable at {points} ({reason}), but f "
            f"is differentiable there: its left and right derivatives agree ({value}), and "
            f"the expectation was judged against that, not against adcli's derivative, "
            f"{convention} (a convention)")


ABS, SIGN = "an argument of 0, a corner", "an argument of 0, where it jumps"


# ----- 1. f differentiable at a kink whose convention AD gave --------------------------------

# |x| sign(x) is x: f'(0) = 1 from either side, while AD multiplies out sign's convention,
# sign'(0) = 0, and sign(0) = 0, to 0.
@pytest.mark.parametrize("expected, where, code, out", [
    ("1", ("--grid", "x=-1:1:5"), 0,
     "matches d/dx at 5/5 points, largest relative difference 0\n"),
    ("1", ("--at", "x=0"), 0, "matches d/dx at 1/1 points, largest relative difference 0\n"),
    ("0", ("--at", "x=0"), 1, "differs from d/dx at 1 of 1 point\n"),
])
def test_the_expectation_is_judged_against_the_agreeing_sides(expected, where, code, out):
    points = "1 of 5 points" if where[0] == "--grid" else "1 of 1 point"
    assert plain("|x| sign(x)", expected, *where) == (code, out, "".join(
        line + "\n" for line in [judged("abs", ABS, points, "1", "0"),
                                 judged("sign", SIGN, points, "1", "0")]))


def test_json_gives_the_sides_it_was_judged_against():
    code, out, _ = run_cli("check", "|x| sign(x)", "1", "--at", "x=0", "--format", "json")
    document = strict_json(out)
    assert (code, document["verdict"]) == (0, "matches")
    derivative = document["points"][0]["derivatives"]["x"]
    assert (derivative["ad"], derivative["left"], derivative["right"], derivative["status"]) \
        == (0.0, 1.0, 1.0, "match")
    sides = ("but f is differentiable there: its left and right derivatives agree (1), and "
             "the expectation was judged against that, not against adcli's derivative, 0 "
             "(a convention)")
    assert [(w["function"], w["why"]) for w in document["warnings"]] == [
        ("abs", f"is not differentiable there ({ABS}), {sides}"),
        ("sign", f"is not differentiable there ({SIGN}), {sides}")]


def test_a_partial_judged_by_its_sides_is_named():
    """f = x |y| sign(y) = x y: ∂f/∂x = y (AD: |y| sign(y), 0 at y = 0, right) and ∂f/∂y =
    x (AD at y = 0: x·0, sign's convention; the sides give x)."""
    code, out, err = plain("x |y| sign(y)", "--expect", "x=y", "--expect", "y=x",
                           "--grid", "x=1:2:2", "--grid", "y=-1:1:3")
    assert (code, out) == (0, "matches ∂/∂x and ∂/∂y at 6/6 points, largest relative "
                              "difference 0\n")
    tail = ("but f's ∂/∂x and ∂/∂y exist there: their left and right derivatives agree, "
            "and the expected ∂/∂y was judged against them, not against adcli's "
            "derivative, 0 (a convention)")
    assert warnings_in(err) == [
        f"adcli: warning: abs is not differentiable at 2 of 6 points ({ABS}), {tail}",
        f"adcli: warning: sign is not differentiable at 2 of 6 points ({SIGN}), {tail}"]


# Unchanged where AD's value at the kink is f's (x|x|: 0 from both sides) and where the
# sides disagree (|x|: -1 and 1, no derivative): guards, not new behaviour.
def test_where_ad_was_right_at_the_kink_nothing_else_is_said():
    assert plain("x|x|", "2|x|", "--grid", "x=-1:1:5") == (
        0, "matches d/dx at 5/5 points, largest relative difference 0\n",
        f"adcli: warning: abs is not differentiable at 1 of 5 points ({ABS}), but f is "
        "differentiable there: its left and right derivatives agree (0)\n")


def test_where_the_sides_disagree_the_derivative_does_not_exist():
    assert plain("|x|", "sign(x)", "--grid", "x=-1:1:5") == (
        0, "matches d/dx at 4/4 points, largest relative difference 0, except at 1 point "
           "where the derivative does not exist\n",
        f"adcli: warning: abs is not differentiable at 1 of 5 points ({ABS}): its "
        "derivative there is a convention, not a fact\n")


# ----- 2. --order 0: values, no derivative -------------------------------------------------

def test_an_identity_through_a_kink_warns_of_no_convention_and_counts_0():
    """|x| = sqrt(x^2) at every x, 0 included (sqrt(0) = 0 exactly; no derivative shown)."""
    assert plain("|x|", "sqrt(x^2)", "--order", "0", "--grid", "x=-1:1:5") == (
        0, "matches f at 5/5 points, largest relative difference 0\n", "")


def test_an_identity_through_a_kink_has_no_warnings_in_json():
    code, out, err = run_cli("check", "|x|", "sqrt(x^2)", "--order", "0",
                             "--grid", "x=-1:1:3", "--format", "json")
    document = strict_json(out)
    assert (code, err, document["counted"], "warnings" in document) == (0, "", 3, False)


def test_an_exact_0_under_an_infinite_slope_is_compared_at_order_1_too():
    """(x|x|)' = 2|x| = 2 sqrt(x^2), 0 at 0: sqrt's slope there is infinite, but x^2 = 0 is
    exact, so there is no rounding for it to magnify."""
    assert plain("x|x|", "2 sqrt(x^2)", "--grid", "x=-1:1:5") == (
        0, "matches d/dx at 5/5 points, largest relative difference 0\n",
        f"adcli: warning: abs is not differentiable at 1 of 5 points ({ABS}), but f is "
        "differentiable there: its left and right derivatives agree (0)\n")


def test_a_0_made_by_underflow_is_still_not_compared():
    """At x = 1e-200, x^2 underflows to 0 and sqrt(x^2) is 0, not |x| = 1e-200: no value to
    compare there; at 0, x^2 = 0 is exact and sqrt(x^2) = |x| = 0."""
    assert plain("|x|", "sqrt(x^2)", "--order", "0", "--grid", "x=0:1e-200:2") == (
        0, "matches f at 1/1 points, largest relative difference 0\n"
           "note: 1 point not counted: the expectation is 0 there by underflow (too small "
           "for float64): no value to compare\n", "")
