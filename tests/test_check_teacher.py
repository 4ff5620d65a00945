"""adcli check: what a calculus teacher found on ~230 textbook exercises (README "Check a
derivation").

The random points are the README's: seed 0, a pool of 16 x 30, magnitudes 10^-3 .. 10^3
(log-uniform) of either sign; `drawn` below draws them again, so the counts in the notes
are worked out here, not copied from the program. Messages and exit codes are compared
whole.
"""
from __future__ import annotations

import re

import numpy as np
import pytest

import adcli
from conftest import run_cli, strict_json


def plain(*argv):
    return run_cli("check", *argv, "--format", "plain")


def error(message: str) -> str:
    return f"adcli: error: {message}\n"


def drawn(samples: int = 30, seed: int = 0) -> np.ndarray:
    """The pool of random x the README describes, in the order drawn."""
    rng = np.random.default_rng(seed)
    magnitude = 10.0 ** rng.uniform(-3.0, 3.0, 16 * samples)
    return np.where(rng.random(16 * samples) < 0.5, -magnitude, magnitude)


def first_where(defined: np.ndarray, samples: int = 30) -> int:
    """How many points are drawn until ``samples`` of them are where f is defined."""
    return int(np.flatnonzero(defined)[samples - 1]) + 1


# ----- 1. points outside f's domain are said, not dropped silently --------------------------

# x^(2/3) is nan for x < 0 (a negative base to a fractional power, as in numpy): the check
# passes on x > 0 only, where (2/3)|x|^(-1/3) is right. The real root the note offers is
# defined on both sides, and there the expectation differs wherever x < 0: cbrt(x^2)' =
# (2/3) x^(-1/3) is -(2/3)|x|^(-1/3) there, and (1/3) x^(-2/3) is nan (not cbrt(x)').
@pytest.mark.parametrize("f, expected, power, real", [
    ("x^(2/3)", "(2/3)|x|^(-1/3)", " (x^(2/3) is nan where x < 0, as in numpy; for the real "
                                   "root, write cbrt(x^2))", "cbrt(x^2)"),
    ("x^(1/3)", "(1/3)x^(-2/3)", " (x^(1/3) is nan where x < 0, as in numpy; for the real "
                                 "root, write cbrt(x))", "cbrt(x)"),
    ("ln x", "1/x", "", None),
])
def test_a_check_on_half_the_line_says_which_half(f, expected, power, real):
    x = drawn()
    n = first_where(x > 0)
    note = (f"f is not defined (nan) at {int(np.sum(x[:n] < 0))} of {n} points drawn, all "
            f"with x < 0: only x > 0 was checked{power}")
    code, out, _ = run_cli("check", f, expected, "--format", "json")
    document = strict_json(out)
    assert (code, document["verdict"], document["counted"], document["notes"]) == \
        (0, "matches", 30, [note])
    assert plain(f, expected)[1].splitlines()[1:] == [f"note: {note}"]
    if real:
        code, out, _ = plain(real, expected)
        assert (code, out.splitlines()[0]) == \
            (1, f"differs from d/dx at {int(np.sum(x[:30] < 0))} of 30 points")


def test_a_domain_far_from_the_draws_says_the_span_checked():
    # sqrt(x - 500) is defined for x > 500 only: the few drawn there are all that is checked
    x = drawn()
    kept = x > 500
    lo, hi = x[kept].min(), x[kept].max()
    note = (f"f is not defined (nan) at {int(np.sum(~kept))} of 480 points drawn, all with "
            f"x < {lo:.4g}: only x from {lo:.4g} to {hi:.4g} was checked")
    code, out, _ = run_cli("check", "sqrt(x-500)", "1/(2sqrt(x-500))", "--format", "json")
    document = strict_json(out)
    assert (code, document["verdict"], document["counted"], document["notes"]) == \
        (0, "matches", int(kept.sum()), [note])


# ----- 2. the domain suggested is one where f is defined -----------------------------------

HEAD_GIVEN = ("at none of the 1 point given are f, its derivative and the expectation all "
              "finite (and not 0 by underflow): f is not there, as {why}; try other points, "
              "or random ones from a domain where they are, e.g. ")
ASIN = "asin gave nan or inf (an argument outside [-1, 1])"
SQRT = "sqrt gave nan or inf (a negative argument)"
HEAD_DRAWN = ("only 0 of 480 random points have f, its derivative and the expectation all "
              "finite (and not 0 by underflow): f is not at 480 of them; give a domain where "
              "they are, e.g. ")
TAIL_DRAWN = " (or points with --at, --grid, --points)"


@pytest.mark.parametrize("f, expected, given, domain, why", [
    # arcsin is defined on [-1, 1]: its width 2 to two digits, rounded inward
    ("arcsin x", "1/sqrt(1-x^2)", ["--at", "x=2"], "x=-0.9:0.9", ASIN),
    ("arcsin x", "1/sqrt(1-x^2)", ["--domain", "x=1:10"], "x=-0.9:0.9", None),
    # sqrt(-x) on x <= 0: the decade nearest 1 there
    ("sqrt(-x)", "-1/(2sqrt(-x))", ["--at", "x=2"], "x=-10:-1", SQRT),
    # arcsin(x - 50) on [49, 51]; arcsin(1000x) on [-0.001, 0.001]
    ("arcsin(x-50)", "1/sqrt(1-(x-50)^2)", ["--domain", "x=1:10"], "x=49.1:50.9", None),
    ("arcsin(1000x)", "1000/sqrt(1-(1000x)^2)", ["--domain", "x=1:10"], "x=-0.0009:0.0009",
     None),
])
def test_the_domain_suggested_is_where_f_is_defined(f, expected, given, domain, why):
    code, out, err = plain(f, expected, *given)
    message = HEAD_GIVEN.format(why=why) + f"--domain {domain}" if given[0] == "--at" else \
        HEAD_DRAWN + f"--domain {domain}" + TAIL_DRAWN
    assert (code, out, err) == (2, "", error(message))
    # and taking the advice, the check runs there and the derivative matches
    code, out, _ = plain(f, expected, "--domain", domain)
    assert (code, out.splitlines()[0][:24]) == (0, "matches d/dx at 30/30 po")


def test_no_domain_suggested_where_f_is_defined_nowhere():
    # -x^2 - 1 < 0 for every x: sqrt of it is nan everywhere, and no domain can help
    assert plain("sqrt(-x^2-1)", "x") == (2, "", error(
        "only 0 of 480 random points have f, its derivative and the expectation all finite "
        "(and not 0 by underflow): f is not at 480 of them; adcli found no domain where they "
        "are, trying magnitudes 1e-8 to 1e8 of either sign: give points with --at, --grid or "
        "--points where they are"))


# ----- 3. no swapped partials with a parameter ----------------------------------------------

def test_a_parameter_fixed_by_at_is_no_swapped_partial():
    # d(a^x)/dx = a^x ln a; x a^(x-1) is the power rule, and d(a^x)/da = x a^(x-1) too, but
    # a = 3 is fixed: nothing is differentiated in a
    code, out, _ = plain("a^x", "x a^(x-1)", "--at", "a=3")
    assert (code, out) == (1, (
        "differs from ∂/∂x at 30 of 30 points\n"
        "diagnosis: this is the power rule v·u^(v-1) on a^x, whose exponent varies: that rule "
        "is for a constant exponent; for a constant base u = a, ∂(u^v)/∂x = "
        "u^v·ln(u)·(∂v/∂x)\n"))
    # where y varies, ∂(x^2 y)/∂y = x^2 given for ∂/∂x is still a swap
    assert plain("x^2*y", "--expect", "x=x^2")[1].splitlines()[1] == \
        "diagnosis: the expectation for x matches ∂f/∂y instead: swapped partials?"
    assert "swapped" not in plain("x^2*y", "--expect", "x=x^2", "--at", "y=2")[1]


# ----- 4. the derivative of a constant ------------------------------------------------------

def test_the_derivative_of_a_constant_is_checked():
    # d(e^2)/dx = 0: 2e is e^2 differentiated as if e were the variable
    assert plain("d/dx (e^2) = 2*e") == (1, (
        "differs from d/dx at 30 of 30 points\n"
        "diagnosis: the derivative of a constant is 0: e^2 does not depend on x\n"), "")
    assert plain("e^2", "0", "--wrt", "x") == \
        (0, "matches d/dx at 30/30 points, largest relative difference 0\n", "")
    # a value given for x is x's, not an unknown name's
    assert plain("d/dx (e^2) = 0", "--at", "x=1") == \
        (0, "matches d/dx at 1/1 points, largest relative difference 0\n", "")


# ----- 5. constant factors as short fractions -----------------------------------------------

def test_constant_factors_are_short_fractions_alike():
    # (x^2)' = 2x written x: 1/2; (x^4)' = 4x^3 written x^3: 1/4; (5 sin x)' written
    # cos x: 1/5; (7x^2)' = 14x written 2x: 1/7; (x^3)' = 3x^2 written x^2: 1/3
    said = {}
    for f, expected in [("x^2", "x"), ("x^4", "x^3"), ("5 sin x", "cos x"),
                        ("7x^2", "2x"), ("x^3", "x^2")]:
        said[f] = adcli.check(f, expected).diagnosis
    assert said == {f: [f"×1/{n} everywhere: the expectation is 1/{n} times d/dx at every "
                        "point"] for f, n in [("x^2", 2), ("x^4", 4), ("5 sin x", 5),
                                              ("7x^2", 7), ("x^3", 3)]}
    # a constant too many, the same way: 2x + 1/2 for (x^2)' = 2x
    assert adcli.check("x^2", "2x+0.5").diagnosis == \
        ["the expectation is d/dx + 1/2 at every point"]


# ----- 6. the expectation read as the caution says it may be meant ---------------------------

@pytest.mark.parametrize("f, expected, diagnosis", [
    # (sqrt x)' = (1/2) x^(-1/2); 1/2 x^(-1/2) reads as 1/(2 x^(-1/2)) = sqrt(x)/2
    ("sqrt x", "1/2 x^(-1/2)", "1/2 x^((-1)/2) is read otherwise than it was likely meant "
                               "(see the warning); as (1/2)*x^((-1)/2), the expectation "
                               "matches"),
    # (2/3 x^(3/2))' = x^(1/2); x^1/2 reads as x/2
    ("2 x^(3/2)/3", "x^1/2", "x^1/2 is read otherwise than it was likely meant (see the "
                             "warning); as x^(1/2), the expectation matches"),
    # (e^(2x))' = 2e^(2x); 2e^2x reads as 2 (e^2) x
    ("e^(2x)", "2e^2x", "e^2x is read otherwise than it was likely meant (see the warning); "
                        "as e^(2x), the expectation matches"),
])
def test_the_reading_the_caution_offers_is_said_first(f, expected, diagnosis):
    code, out, err = plain(f, expected, "--domain", "x=1:10")
    assert (code, out) == (1, f"differs from d/dx at 30 of 30 points\ndiagnosis: {diagnosis}\n")
    assert err.startswith("adcli: warning: ")     # the caution itself, as before


def test_a_caution_that_does_not_explain_it_is_mentioned_with_the_diagnosis():
    # (sin x)' = cos x: 1/2 cos x is 1/(2 cos x), and (1/2) cos x is no better
    caution = ("1/2 cos(x): a product written side by side binds tighter than '/', so this "
               "divides by 2*cos(x); for (1/2)*cos(x), write 1/2*cos(x)")
    assert adcli.check("sin x", "1/2 cos x").diagnosis == \
        [f"the expectation was read as written: {caution}; read the other way, (1/2)*cos(x), "
         "it differs too: ×1/2 everywhere: the expectation is 1/2 times d/dx at every point"]


# ----- 7. ln|x| -----------------------------------------------------------------------------

def test_an_absolute_value_kept_in_the_derivative_is_a_sign_slip():
    # (ln|x|)' = 1/x: 1/|x| is right for x > 0 and -1/x for x < 0
    assert adcli.check("ln|x|", "1/|x|").diagnosis == [
        "the sign is wrong where x < 0 and right elsewhere: -d/dx there (an absolute value "
        "lost or added, |x| written x or x written |x|?)"]


# ----- 8. cannot tell: exit status 1, as documented ------------------------------------------

def test_cannot_tell_exits_1_and_the_help_says_so():
    # |x| at 0: left derivative -1, right 1: no derivative, no verdict either way
    assert plain("|x|", "x/|x|", "--at", "x=0")[:2] == \
        (1, "cannot tell: the derivative does not exist at the 1 point checked\n")
    code, out, _ = run_cli("check", "--help")
    assert code == 0
    assert "exit 1 when they differ, or when no point can be judged (cannot tell: the " \
           "derivative exists at none, finite differences straddle a pole at each or " \
           "settle at none, or rounding leaves no digit)." in re.sub(r"\s+", " ", out)
