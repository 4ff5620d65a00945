"""adcli check as a calculus student uses it: a tester's seventh round of findings
(README "Check a derivation": the left side of an equation, Verdict and diagnosis).

The calculus behind each expectation is checked first, by hand closed forms against mpmath,
never against adcli's own output.
"""
from __future__ import annotations

import os
import sys

import mpmath as mp
import pytest

from conftest import run_cli, run_in_pty


def plain(*argv):
    return run_cli("check", *argv, "--format", "plain")


def diagnosis(out: str) -> list[str]:
    return [line[len("diagnosis: "):] for line in out.splitlines()
            if line.startswith("diagnosis: ")]


# ----- 1. a function's name glued to x in F: the hint eval gives ----------------------------

GLUED = [
    (["lnx", "1/x"], "the expected d/dlnx uses x, which does not appear in 'lnx' ('lnx' is "
                     "one name; for the function, write ln x)"),
    (["sinx", "cos x"], "the expected d/dsinx uses x, which does not appear in 'sinx' "
                        "('sinx' is one name; for the function, write sin x)"),
    (["sin2x", "2 cos 2x"], "the expected d/dsin2x uses x, which does not appear in "
                            "'sin2x' ('sin2x' is one name; for the function, write sin 2x)"),
    (["x sinx", "sin x + x cos x"], "'x sinx' has x and sinx: 'sinx' is one name; for the "
                                    "function, write sin x"),
]


@pytest.mark.parametrize("argv, message", GLUED, ids=[row[0][0] for row in GLUED])
def test_a_function_glued_to_x_is_named_as_eval_names_it(argv, message):
    code, out, err = plain(*argv)
    assert (code, out, err) == (2, "", f"adcli: error: {message}\n")


def test_eval_says_the_same_of_lnx():
    """The hint is eval's own: one rule, not a second one in check."""
    code, _, err = run_cli("eval", "lnx")
    assert code == 2 and "('lnx' is one name; for the function, write ln x)" in err


def test_letters_run_together_keep_their_hint():
    # e^{xy} with a y expected: no function in xy, its letters are x and y
    code, _, err = plain("e^{xy}", "y e^{xy}")
    assert code == 2 and err.endswith("('xy' is one name; for x times y write x*y)\n")


# ----- 2. one explanation where two would contradict each other -----------------------------

def test_the_premises_by_hand():
    with mp.workdps(40):
        _premises(mp.mpf("0.3"), mp.mpf("1.7"), mp.mpf("-2.2"))


def _premises(*points):
    for x in points:
        # e^{3x} is f itself, and d/dx e^{3x} = 3 e^{3x}
        assert mp.almosteq(mp.diff(lambda t: mp.exp(3 * t), x), 3 * mp.exp(3 * x), 1e-20)
        # d/dx sin(-x) = -cos(-x): cos(-x) is -1 times it, and d/du sin(u) at u = -x
        assert mp.almosteq(mp.diff(lambda t: mp.sin(-t), x), -mp.cos(-x), 1e-20)
        # d/dx cos(-x) = sin(-x): cos(-x) is an antiderivative of sin(-x), true but a
        # coincidence of the chain rule's slip, not two arguments swapped
        assert mp.almosteq(mp.diff(lambda t: mp.cos(-t), x), mp.sin(-x), 1e-20)


ITSELF = "the expectation is f itself at every point, not d/dx: nothing was differentiated"


def test_f_itself_is_said_alone():
    code, out, err = plain("e^{3x}", "e^{3x}")
    assert (code, err) == (1, "")
    assert out.startswith("differs from d/dx at 30 of 30 points\n")
    assert diagnosis(out) == [ITSELF]


def test_the_chain_rule_is_said_not_an_antiderivative():
    code, out, err = plain(r"\sin(-x)", r"\cos(-x)")
    assert (code, err) == (1, "")
    assert diagnosis(out) == [
        "this is the derivative of sin with respect to its argument u = -x; the chain "
        "rule's factor du/dx is missing",
        "×-1 everywhere: a sign error (the expectation is -d/dx at every point)"]


def test_an_antiderivative_alone_is_still_said():
    code, out, _ = plain("2x", "x^2")
    assert code == 1 and diagnosis(out) == [
        "the expectation's own d/dx is f: it is an antiderivative of f, not its derivative "
        "(are the two given the other way round?)"]


# ----- 3. a primed left side in \left( \right) or brackets ----------------------------------

MATCHES = "matches d/dx at 30/30 points, largest relative difference 0\n"


@pytest.mark.parametrize("text", [r"\left(x^3\right)' = 3x^2", "[x^3]' = 3x^2",
                                  r"\left[x^3\right]' = 3x^2", r"\left( x^3 \right)'' = 6x",
                                  r"\left(x^3\right)^{\prime} = 3x^2"])
def test_a_primed_left_side_in_any_brackets_reads_as_parentheses(text):
    code, out, err = plain(text)
    assert (code, err) == (0, "")
    order = "d²/dx²" if "''" in text else "d/dx"
    assert out.startswith(f"matches {order} at 30/30 points")


def test_a_primed_bracket_of_another_function_is_said_so():
    code, out, err = plain("x^2", "[x^3]' = 3x^2")
    assert (code, out) == (2, "")
    assert err == ("adcli: error: the expectation's left side, [x^3]', differentiates [x^3], "
                   "not x^2: give the right side alone, or check that function\n")


# ----- 4. a constant F with f'(x) = ..., as with dy/dx = ... ----------------------------------

@pytest.mark.parametrize("left", ["f'(x)", "dy/dx", "y'(x)"])
def test_a_constants_derivative_named_by_primes(left):
    code, out, err = plain(r"\pi^2", rf"{left} = 2\pi")
    assert (code, err) == (1, "")
    assert out.startswith("differs from d/dx at 30 of 30 points\n")
    assert diagnosis(out) == [r"the derivative of a constant is 0: \pi^2 does not depend on x"]


def test_a_constants_derivative_named_by_primes_matches_0():
    code, out, err = plain(r"\pi^2", "f'(t) = 0")
    assert (code, err) == (0, "")
    assert out.startswith("matches d/dt at 30/30 points")


# ----- on a terminal --------------------------------------------------------------------------

@pytest.mark.parametrize("columns", [40, 80, 120])
def test_on_a_terminal(columns):
    env = {**os.environ, "NO_COLOR": "1"}
    code, text, _ = run_in_pty([sys.executable, "-m", "adcli", "check", "e^{3x}", "e^{3x}"],
                               env, columns)
    assert code == 1
    flat = " ".join(text.split())
    assert "diagnosis: the expectation is f itself at every point, not d/dx: nothing was " \
           "differentiated" in flat
    assert "chain rule" not in flat and "×1/3" not in flat


def test_two_functions_glued_are_both_named():
    code, out, err = plain("sinx cosx", "cos 2x")
    assert (code, out) == (2, "")
    assert err == ("adcli: error: 'sinx cosx' has sinx and cosx: 'sinx' is one name; for the "
                   "function, write sin x; 'cosx' is one name; for the function, write cos x\n")


def test_two_variables_keep_the_wrt_advice():
    code, _, err = plain("x y", "y")
    assert code == 2 and err.endswith("name it with --wrt, fix the others with --at, or give "
                                      "partials by name with --expect NAME=...\n")


def test_f_itself_from_the_chain_rule_with_e_to_minus_x():
    # (e^{-x})' = -e^{-x}: e^{-x} is f itself, and -1 times f'
    code, out, _ = plain("e^{-x}", "e^{-x}")
    assert code == 1 and diagnosis(out) == [ITSELF]


# ----- 5. implicit differentiation: y of f is held fixed, and a note says so ------------------

IMPLICIT = ("note: y, named on the left side, is a variable of 'x^2 + y^2', held fixed: this "
            "checks ∂/∂x, not dy/dx for y a function of x (implicit differentiation of "
            "'x^2 + y^2' = c)\n")


@pytest.mark.parametrize("left", ["dy/dx", "y'(x)", r"\frac{dy}{dx}"])
def test_y_of_f_on_the_left_side_is_said_to_be_held_fixed(left):
    # ∂/∂x (x^2 + y^2) = 2x, not -x/y (which is dy/dx on the circle x^2 + y^2 = c)
    code, out, err = plain("x^2 + y^2", f"{left} = -x/y")
    assert (code, err) == (1, "")
    assert out == "differs from ∂/∂x at 30 of 30 points; finite differences did not settle " \
        "at 1 of them: AD and its rounding bound alone decided it\n" + IMPLICIT


def test_y_of_f_held_fixed_matches_its_partial_with_the_note():
    code, out, _ = plain("x^2 + y^2", "dy/dx = 2x")
    assert code == 0 and out.endswith(IMPLICIT)


@pytest.mark.parametrize("f, g", [("x^2", "dy/dx = 2x"), ("x^2 + y^2", "2x"),
                                  ("x^2 + y^2", "∂f/∂x = 2x")])
def test_no_note_where_the_left_side_names_no_variable_of_f(f, g):
    code, out, _ = plain(f, g, *(["--wrt", "x"] if g == "2x" else []))
    assert code == 0 and "note:" not in out


@pytest.mark.parametrize("columns", [40, 120])
def test_the_note_on_a_terminal(columns):
    env = {**os.environ, "NO_COLOR": "1"}
    code, text, _ = run_in_pty([sys.executable, "-m", "adcli", "check", "x^2 + y^2",
                                "dy/dx = -x/y"], env, columns)
    assert code == 1
    assert " ".join(IMPLICIT.split()) in " ".join(text.split())
