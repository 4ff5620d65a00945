"""adcli check as a calculus student uses it: a sceptical tester's fifth round of findings
(README "Check a derivation": Tolerance, Points, Verdict and diagnosis).

Expected values come from hand closed forms and mpmath, never from adcli's own output.
"""
from __future__ import annotations

import math
import sys

import mpmath
import pytest

from conftest import run_cli, strict_json


def plain(*argv):
    return run_cli("check", *argv, "--format", "plain")


# ----- A. a wrong factor hidden by rounding is never "matches" -------------------------------

def _sech2(x):
    return mpmath.sech(mpmath.mpf(x)) ** 2


@pytest.mark.parametrize("x", [15, 20, 25, 30])
def test_the_factor_is_really_wrong_there(x):
    """The premise, with 80 digits: 5(1 - tanh^2 x) is 5 sech^2 x, not sech^2 x."""
    with mpmath.workdps(80):
        ratio = 5 * (1 - mpmath.tanh(mpmath.mpf(x)) ** 2) / _sech2(x)
        assert abs(ratio - 5) < mpmath.mpf(10) ** -40


@pytest.mark.parametrize("f, g", [("sech^2 x", "5(1 - tanh^2 x)"),
                                  ("1 - tanh^2 x", "5 sech^2 x")])
def test_an_identity_off_by_5_where_rounding_keeps_no_digit_cannot_tell(f, g):
    # at x >= 20 tanh(x) rounds to 1 (1 - tanh x = 2e^-2x < 2^-53), so 1 - tanh^2 x is 0 by
    # cancellation, a 0 that says nothing: neither F's 0 nor G's is a claim that the other
    # vanishes, whichever side it is on
    code, out, _ = plain(f, g, "--order", "0", "--domain", "x=20:30")
    assert code == 1
    assert out.startswith("cannot tell: rounding leaves no digit of f or the expectation at "
                          "the 30 points checked\n")


def test_a_derivative_off_by_5_where_rounding_keeps_no_digit_is_not_a_match():
    # d/dx tanh x = sech^2 x (AD has it to full precision, ~1e-22..1e-17); 5(1 - tanh^2 x)
    # is 0 by cancellation there
    code, out, _ = plain(r"\tanh x", r"5(1 - \tanh^2 x)", "--domain", "x=20:30")
    assert code == 1
    assert out.startswith("cannot tell: rounding leaves no digit of adcli's derivative or the expectation at "
                          "the 30 points checked\n")


def test_the_right_derivative_where_rounding_keeps_no_digit_cannot_tell_either():
    code, out, _ = plain(r"\tanh x", r"1 - \tanh^2 x", "--domain", "x=20:30")
    assert code == 1 and out.startswith("cannot tell: ")


@pytest.mark.parametrize("argv", [("sech^2 x", "5(1 - tanh^2 x)", "--order", "0"),
                                  (r"\tanh x", r"5(1 - \tanh^2 x)")])
def test_where_rounding_leaves_less_than_half_a_factor_of_5_is_no_match(argv):
    # near x = 18, 5(1 - tanh^2 x) comes out as large as 2e-14 with a rounding bound of
    # 1.8e-14, beside sech^2 x = 4e-15: within the bound, yet 5 times it
    code, out, _ = plain(*argv, "--domain", "x=17:19")
    assert code == 1 and not out.startswith("matches")
    assert "half the larger value or more" in out


def test_one_point_given_where_rounding_keeps_no_digit_is_not_a_match():
    code, out, _ = plain(r"\tanh x", r"5(1 - \tanh^2 x)", "--at", "x=25")
    assert code == 1
    assert not out.startswith("matches")


def test_an_exact_zero_of_the_expectation_still_decides():
    # 3x^2 - 3 at x = 1 is 3 - 3, an exact 0 with no rounding in it, as d/dx(x^3 - 3x) is
    assert plain("x^3 - 3x", "3x^2 - 3", "--at", "x=1")[0] == 0
    assert plain("x^3 - 3x", "3x^2 - 2", "--at", "x=1")[0] == 1
    # an expectation of 0 is the claim that the other side vanishes (README, Tolerance)
    assert plain("sin(x)^2 + cos(x)^2", "0")[0] == 0


def test_a_factor_known_only_to_the_rounding_bound_is_said_as_5():
    # on 15..20 some points keep a few digits of 1 - tanh^2 x: the ratio there is 5 up to
    # rounding (4.9766 at the median), and 5 is what to say
    code, out, _ = plain("sech^2 x", "5(1 - tanh^2 x)", "--order", "0", "--domain", "x=15:20")
    assert code == 1 and out.startswith("differs from f at ")
    diagnosis = [line for line in out.splitlines() if line.startswith("diagnosis: ")]
    assert diagnosis == ["diagnosis: ×5 everywhere: the expectation is 5 times f at every "
                         "point"]


def test_an_exact_factor_is_still_said_with_its_digits():
    # 137/100 is a fraction of a large denominator: with no rounding to speak of, it is said
    code, out, _ = plain("x^3", "1.37*3x^2")
    assert code == 1 and "diagnosis: ×137/100 everywhere" in out


# ----- B. a run-together name is warned of, and explains the verdict -------------------------

XY = "'xy' is one name; for x times y write x*y"


def test_a_name_made_of_the_other_variables_is_warned_of():
    code, out, err = plain("x y e^{xy}", "∂f/∂x = y e^{xy} + x y^2 e^{xy}")
    assert code == 1
    assert f"adcli: warning: {XY}" in err
    assert "xy" in out.split("diagnosis: ")[1] and "x*y" in out.split("diagnosis: ")[1]


def test_the_run_together_name_is_in_json_cautions():
    code, out, _ = run_cli("check", "x y e^{xy}", "∂f/∂x = y e^{xy} + x y^2 e^{xy}",
                           "--format", "json")
    document = strict_json(out)
    assert code == 1 and any(XY in c for c in document["cautions"])
    assert any("x*y" in d for d in document["diagnosis"])


def test_the_misleading_term_diagnosis_gives_way_to_the_name():
    # with xy = x*y, d/dy (x^2 y + sin(x y)) = x^2 + x cos(x y): the derivation is right
    code, out, err = plain(r"x^2 y + \sin(xy)",
                           r"\frac{\partial f}{\partial y} = x^2 + x\cos(xy)")
    assert code == 1 and XY in err
    assert "is extra" not in out
    assert out.splitlines()[1:] == [
        f"diagnosis: {XY}: as written, xy is a variable of its own, drawn at random apart "
        "from x and y, and ∂/∂y does not reach inside it",
        "diagnosis: read with xy as x*y, the expectation matches"]


def test_read_as_a_product_a_wrong_derivation_is_still_diagnosed():
    # d/dy sin(x y) = x cos(x y): written cos(xy), the chain factor x is missing
    code, out, _ = plain(r"x^2 y + \sin(xy)", r"\frac{\partial f}{\partial y} = x^2 + \cos(xy)")
    assert code == 1
    last = out.splitlines()[-1]
    assert last.startswith("diagnosis: read with xy as x*y, it differs too: ")
    assert "the factor ∂u/∂y is missing" in last


def test_an_identity_with_a_run_together_name():
    # x*y + x*y = 2xy: as written, xy is another variable
    code, out, _ = plain("x*y + xy", "2 x y", "--order", "0")
    assert code == 1
    assert out.splitlines()[1:] == [
        f"diagnosis: {XY}: as written, xy is a variable of its own, drawn at random apart "
        "from x and y", "diagnosis: read with xy as x*y, the expectation matches"]


def test_a_name_given_a_value_is_meant_as_one():
    code, out, err = plain("x + xy", "1", "--at", "xy=2", "--wrt", "x")
    assert (code, err) == (0, "")


def test_a_parameter_run_into_a_name_is_said_so_not_did_you_mean():
    _, _, err = plain(r"e^{ax}\sin(bx)", "1", "--at", "a=2,b=3")
    assert "did you mean" not in err
    assert "'ax' is one name; for a times x write a*x" in err
    assert "'bx' is one name; for b times x write b*x" in err


def test_a_hint_is_said_once():
    # k and x each are part of 'kx': one hint for both
    code, _, err = run_cli("check", "e^{kx}", "k x e^{kx}", "--at", "k=2")
    error = err.splitlines()[-1]
    assert code == 2 and error.startswith("adcli: error: the expected d/dkx uses k and x")
    assert error.count("'kx' is one name; for k times x write k*x") == 1


# ----- C. where f overflows, the note says which part of --domain was checked ---------------

LARGEST_EXP = math.log(sys.float_info.max)     # 709.78: exp overflows beyond it


def _upper_bound_checked(note: str) -> float:
    import re

    found = re.search(r"only x from (\S+) to (\S+) was checked", note)
    assert found, note
    return float(found[2])


def test_f_overflowing_narrows_the_domain_with_a_note():
    code, out, _ = run_cli("check", "exp(x)", "exp(x)", "--domain", "x=0:2000", "--format",
                           "json")
    document = strict_json(out)
    assert (code, document["verdict"]) == (0, "matches")
    largest = max(p["at"]["x"] for p in document["points"])
    notes = [n for n in document["notes"] if "inf" in n]
    assert len(notes) == 1, document["notes"]
    assert notes[0].startswith("f overflows (inf: beyond float64's range) at ")
    assert _upper_bound_checked(notes[0]) == pytest.approx(largest, rel=1e-3)
    assert largest < LARGEST_EXP


def test_f_overflowing_past_its_expectation_is_noted():
    code, out, _ = plain("log(1+exp(x))", "sigmoid(x)", "--domain", "x=700:720")
    assert code == 0
    note = [line for line in out.splitlines() if line.startswith("note: ") and "inf" in line]
    assert len(note) == 1, out
    assert _upper_bound_checked(note[0]) < LARGEST_EXP


def test_the_expectation_overflowing_is_noted():
    # f = x is finite everywhere; the expectation exp(x)/exp(x) overflows past 709.78
    code, out, _ = plain("x", "exp(x)/exp(x)", "--domain", "x=0:2000")
    assert code == 0
    assert any(line.startswith("note: ") and "the expectation" in line and "inf" in line
               for line in out.splitlines()), out


# ----- D. a Greek letter spelled out is not silently another name ----------------------------

OMEGA = "'omega' was given: the expression has the letter 'ω', a different name"


@pytest.mark.parametrize("option", [("--at", "omega=2.5"), ("--domain", "omega=1:3")])
def test_a_spelled_out_letter_is_an_error_with_the_grads_hint(option):
    code, out, err = run_cli("check", r"sin(\omega t)", r"\omega cos(\omega t)", "--wrt", "t",
                             *option)
    assert (code, out) == (2, "")
    assert OMEGA in err and err.startswith("adcli: error: ")
    assert err.count("\n") == 1


def test_the_letter_itself_is_taken():
    code, out, _ = plain(r"sin(\omega t)", r"\omega cos(\omega t)", "--wrt", "t", "--at",
                         "ω=2.5")
    assert code == 0


# ----- E. a parameter held where a wrong factor of it cannot show ----------------------------

@pytest.mark.parametrize("f, g, value", [
    ("sin(a x)", "cos(a x)", "1"),          # a cos(a x): the chain factor a is 1
    ("sin(x) + a x^2", "cos(x)", "0"),      # cos(x) + 2a x: the term 2a x is 0
    ("a^2 x^2", "2x", "-1"),                # 2a^2 x: the factor a^2 is 1
])
def test_a_parameter_held_at_a_unit_value_is_noted(f, g, value):
    code, out, _ = plain(f, g, "--at", f"a={value}")
    assert code == 0        # right at that value: the match is true, and says less
    notes = [line for line in out.splitlines()
             if line.startswith(f"note: a is held at {value}, where ")]
    assert len(notes) == 1, out


def test_no_such_note_at_another_value():
    code, out, _ = plain("sin(a x)", "cos(a x)", "--at", "a=2.5")
    assert code == 1 and "is held at" not in out


def test_the_note_is_in_json_too():
    code, out, _ = run_cli("check", "sin(a x)", "cos(a x)", "--at", "a=1", "--format", "json")
    document = strict_json(out)
    assert any(n.startswith("a is held at 1") for n in document["notes"])


# ----- on a terminal: the new words fit and read whole at every width ------------------------

@pytest.mark.parametrize("columns", [40, 80, 120])
def test_the_new_words_on_a_terminal(columns):
    from conftest import adcli_on_terminal, words

    code, rows = adcli_on_terminal(columns, "check", "x y e^{xy}",
                                   "∂f/∂x = y e^{xy} + x y^2 e^{xy}")
    said = " ".join(words(rows))
    assert code == 1
    assert f"adcli: warning: {XY}" in said
    assert (f"diagnosis: {XY}: as written, xy is a variable of its own, drawn at random apart "
            "from x and y, and ∂/∂x does not reach inside it") in said
    code, rows = adcli_on_terminal(columns, "check", "exp(x)", "exp(x)", "--domain",
                                   "x=0:2000")
    assert code == 0
    assert "note: f overflows (inf: beyond float64's range) at " in " ".join(words(rows))


def test_a_spelled_out_letter_on_a_grid_gets_the_same_hint():
    code, out, err = run_cli("check", r"sin(\omega t)", r"\omega cos(\omega t)", "--wrt", "t",
                             "--grid", "omega=1:2:3", "--grid", "t=0:1:3")
    assert (code, out) == (2, "")
    assert OMEGA in err and err.count("\n") == 1
