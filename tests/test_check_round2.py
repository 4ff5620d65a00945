"""adcli check: what a teacher found (README "Check a derivation"), round 2.

Every derivative and left/right derivative below is worked out by hand; messages and exit
codes are compared whole.
"""
from __future__ import annotations

import pytest

from conftest import run_cli, strict_json, warnings_in


def plain(*argv, stdin=""):
    return run_cli("check", *argv, "--format", "plain", stdin=stdin)


# ----- 1. a kink of abs or sign where f itself is differentiable ------------------------------

CONVENTION = ("adcli: warning: abs is not differentiable at 1 of 5 points (an argument of 0, "
              "a corner): its derivative there is a convention, not a fact")


def differentiable(function: str, reason: str, value: str) -> str:
    return (f"adcli: warning: {function} is not differentiable at 1 of 5 points ({reason}), "
            f"but f is differentiable there: its left and right derivatives agree ({value})")


# At x = 0 each f has equal left and right derivatives, 0 (x|x| = ∓x^2 on either side,
# |x|^3 = ∓x^3, x^2 sign(x) = ±x^2): f'(0) = 0 is a fact, not abs's or sign's convention.
@pytest.mark.parametrize("f, expected, function, reason", [
    ("x|x|", "2|x|", "abs", "an argument of 0, a corner"),
    ("|x|^3", "3x|x|", "abs", "an argument of 0, a corner"),
    ("x^2 sign(x)", "2|x|", "sign", "an argument of 0, where it jumps"),
])
def test_a_kink_inside_a_differentiable_function_says_it_is_differentiable(
        f, expected, function, reason):
    code, out, err = plain(f, expected, "--grid", "x=-1:1:5")
    assert (code, out) == (0, "matches d/dx at 5/5 points, largest relative difference 0\n")
    assert warnings_in(err) == [differentiable(function, reason, "0")]


def test_one_function_differentiable_at_one_kink_and_not_at_another():
    """x|x| + |x-1|: at 0, f' = 0 - 1 = -1 from both sides; at 1, 2 - 1 = 1 from the left
    and 2 + 1 = 3 from the right, no derivative: abs's warning is said for each."""
    code, out, err = plain("x|x| + |x-1|", "2|x| + sign(x-1)", "--grid", "x=-1:1:5")
    assert (code, out) == (0, "matches d/dx at 4/4 points, largest relative difference 0, "
                              "except at 1 point where the derivative does not exist\n")
    assert warnings_in(err) == [CONVENTION,
                                differentiable("abs", "an argument of 0, a corner", "-1")]


def test_the_json_warning_at_such_a_kink_says_so_too():
    code, out, _ = run_cli("check", "x|x|", "2|x|", "--grid", "x=-1:1:3", "--format", "json")
    assert code == 0
    assert strict_json(out)["warnings"] == [{
        "at": {"x": 0.0}, "function": "abs", "kind": "kink",
        "why": "is not differentiable there (an argument of 0, a corner), but f is "
               "differentiable there: its left and right derivatives agree (0)"}]


def test_partials_that_exist_at_a_kink_are_named():
    """f = x y|y|: ∂f/∂x = y|y| and ∂f/∂y = 2x|y| are both 0 from either side of y = 0."""
    code, out, err = plain("x y|y|", "--expect", "x=y|y|", "--expect", "y=2x|y|",
                           "--grid", "x=1:2:2", "--grid", "y=-1:1:3")
    assert (code, out) == (0, "matches ∂/∂x and ∂/∂y at 6/6 points, largest relative "
                              "difference 0\n")
    assert warnings_in(err) == [
        "adcli: warning: abs is not differentiable at 2 of 6 points (an argument of 0, a "
        "corner), but f's ∂/∂x and ∂/∂y exist there: their left and right derivatives "
        "agree (0)"]


# ----- 2. --order 0: an identity, not an antiderivative ---------------------------------------

def test_an_identity_of_two_constants_says_the_two_values_and_no_factor():
    """cosh^2 - sinh^2 is 1 (its floats are not all 1): an identity written = 2 is off by
    its constant; 'as antiderivatives they agree' and '×2' were no clue."""
    code, out, _ = plain("cosh^2 x - sinh^2 x", "2", "--order", "0", "--grid", "x=-1:1:5")
    assert (code, out) == (1, "differs from f at 5 of 5 points\n"
                              "diagnosis: f is 1 at every point, the expectation 2\n"
                              "note: the diagnosis holds at your 5 points and at 30 random "
                              "ones (seed 0): 5 points alone cannot tell a slip from a "
                              "coincidence\n")


def test_two_constant_derivatives_are_no_multiple_of_each_other():
    """d/dx of x (cosh^2 x - sinh^2 x) = d/dx of x is 1; written 2, '×2' is no clue (README:
    for two constants neither is)."""
    code, out, _ = plain("x (cosh^2 x - sinh^2 x)", "2", "--grid", "x=-1:1:5")
    assert (code, out) == (1, "differs from d/dx at 5 of 5 points\n")


def test_two_functions_that_differ_by_a_constant_keep_the_antiderivative_remark():
    """(A guard: two non-constant sides may be two antiderivatives of one function.)"""
    code, out, _ = plain("x^2+1", "x^2", "--order", "0", "--grid", "x=1:5:5")
    assert (code, out) == (1, "differs from f at 5 of 5 points\n"
                              "diagnosis: the two differ by the constant -1 everywhere: as "
                              "an identity this is wrong; as an antiderivative it is right up "
                              "to the constant\n"
                              "note: the diagnosis holds at your 5 points and at 30 random "
                              "ones (seed 0): 5 points alone cannot tell a slip from a "
                              "coincidence\n")


# ----- 3. check's points file: the warnings every other command gives ----------------------

HASH_ROW = ("adcli: warning: points file line 2 starts with '#', so it was skipped as a "
            "comment, though it reads as a row: to read such a row, quote its first field in "
            "CSV (\"#1\",...), as adcli's CSV output does")


def test_a_hash_row_and_a_cell_beyond_float64_are_said():
    code, out, err = plain("x^2", "2x", "--points", "-", stdin="id,x\n#1,1\n2,1e999\n3,2\n")
    assert (code, out) == (0, "matches d/dx at 1/1 points, largest relative difference 0\n"
                              "note: 1 point not counted: f is not finite there\n")
    assert warnings_in(err) == [
        "adcli: warning: points file line 3, column 'x': 1e999 is beyond the largest "
        "float64 number (about 1.8e308): read as inf", HASH_ROW]


def test_json_lines_keys_left_out_are_said():
    stdin = '{"x": 1}\n{"x": 2, "q": 3}\n{"x": 3, "r": 3}\n'
    code, out, err = plain("x^2", "2x", "--points", "-", stdin=stdin)
    assert (code, out) == (0, "matches d/dx at 3/3 points, largest relative difference 0\n")
    assert warnings_in(err) == [
        "adcli: warning: points file line 2: the key 'q' is not in the first object (line "
        "1), whose keys are the columns, so it was left out (as were such keys on 1 more "
        "line)"]


def test_a_bad_row_stops_check_after_saying_what_was_read_otherwise():
    """Without --skip-bad-rows the bad row is an error (exit 2); the '#' row before it is
    still said, as eval says it."""
    code, out, err = plain("x^2", "2x", "--points", "-", stdin="id,x\n#1,1\n2,foo\n")
    assert (code, out) == (2, "")
    assert err == (HASH_ROW + "\nadcli: error: points file line 3, column 'x': 'foo' is not "
                   "a number or constant expression (it uses foo)\n")
