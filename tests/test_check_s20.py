"""adcli check's diagnoses as a teacher grading derivations reads them (round 20): a name
run together split where it stands, d/dx a^x's power rule, a mixed partial given at
order 1, f's own reading, and a chain factor left out of one term of a product.

Verdicts and premises are checked against hand derivations (mpmath), never adcli's output.
"""
from __future__ import annotations

import mpmath
import pytest

import adcli
from conftest import run_cli


def plain(*argv):
    return run_cli("check", *argv, "--format", "plain")


def diagnosis(*argv) -> list[str]:
    code, out, _ = plain(*argv)
    assert code == 1
    return [line.removeprefix("diagnosis: ") for line in out.splitlines()
            if line.startswith("diagnosis: ")]


def _partial_x(f, x, y):
    return mpmath.diff(lambda s: f(s, y), x)


# ----- 1. xy read as x*y where it stands: xy^2 is x*y^2, as `x y^2` reads ---------------------

def test_premise_d_dx_of_x_y_squared_plus_x_plus_y():
    # d/dx (x y^2 + x + y) = y^2 + 1, not 2x y^2 + 1 ((x y)^2's)
    f = lambda x, y: x * y ** 2 + x + y
    for x, y in [(0.3, -1.7), (2.5, 0.4)]:
        assert abs(_partial_x(f, x, y) - (y ** 2 + 1)) < 1e-12
        assert abs(_partial_x(f, x, y) - (2 * x * y ** 2 + 1)) > 1e-3


def test_xy_squared_split_approves_the_right_answer():
    lines = diagnosis("xy^2 + x + y", "--expect", "x=y^2 + 1")
    assert lines[-1] == "read with xy as x*y, the expectation matches"


def test_xy_squared_split_rejects_the_answer_for_x_y_all_squared():
    lines = diagnosis("xy^2 + x + y", "--expect", "x=2x y^2 + 1")
    assert lines[-1].startswith("read with xy as x*y, it differs too: ")


def test_premise_the_partial_of_x2y3_plus_sin_xy():
    f = lambda x, y: x ** 2 * y ** 3 + mpmath.sin(x * y)
    x, y = mpmath.mpf("0.7"), mpmath.mpf("-1.3")
    assert abs(_partial_x(f, x, y) - (2 * x * y ** 3 + y * mpmath.cos(x * y))) < 1e-12


def test_xy_cubed_in_the_expectation_is_x_times_y_cubed():
    lines = diagnosis(r"x^2 y^3 + \sin(xy)",
                      r"\frac{\partial f}{\partial x} = 2xy^3 + y\cos(xy)")
    assert lines[-1] == "read with xy as x*y, the expectation matches"
    assert not any("power rule" in line or "exponent" in line for line in lines)


@pytest.mark.parametrize("text, split", [
    ("xy^2 + x + y", "x y^2 + x + y"),
    (r"\sin(xy) + 2xy", r"\sin(x y) + 2x y"),
    ("e^{xy} + xyz", "e^{x y} + xyz"),     # (xyz is a name of its own: not split)
])
def test_the_name_is_split_in_place(text, split):
    from adcli.checking import _written_apart

    assert _written_apart(text, {"xy": ["x", "y"]}, frozenset()) == split


# ----- 2. d/dx a^x written x a^(x-1): the power rule, not swapped partials ---------------------

POWER_RULE = ("this is the power rule v·u^(v-1) on a^x, whose exponent varies: that rule is "
              "for a constant exponent")


@pytest.mark.parametrize("argv", [(r"\frac{d}{dx} a^x = x a^{x-1}",),
                                  ("x a^{x-1}", "--wrt", "x")])
def test_d_dx_of_a_to_the_x_by_the_power_rule(argv):
    lines = diagnosis("a^x", *argv)
    assert lines[0].startswith(POWER_RULE)
    assert not any("swapped partials" in line for line in lines)


def test_a_partial_left_side_still_suspects_swapped_partials():
    # ∂f/∂a of a^x is x a^(x-1): written with ∂, a is a variable like x
    lines = diagnosis("a^x", r"\frac{\partial f}{\partial x} = x a^{x-1}")
    assert lines[0] == "the expectation for x matches ∂f/∂a instead: swapped partials?"


def test_d_dx_of_a_true_swap_is_still_a_swap():
    # d/dx x^2 y^3 = 2x y^3; 3x^2 y^2 is ∂f/∂y, and no power rule explains it
    lines = diagnosis("x^2 y^3", r"\frac{d}{dx} f = 3x^2 y^2")
    assert lines == ["the expectation for x matches ∂f/∂y instead: swapped partials?"]


# ----- 3. a mixed second partial given for ∂f/∂x -----------------------------------------------

def test_premise_the_mixed_partial_of_x2y3():
    f = lambda x, y: x ** 2 * y ** 3
    x, y = mpmath.mpf("0.6"), mpmath.mpf("1.9")
    assert abs(mpmath.diff(f, (x, y), (1, 1)) - 6 * x * y ** 2) < 1e-10


def test_the_mixed_partial_given_at_order_one_is_named():
    assert diagnosis("x^2 y^3", "--expect", "x=6x y^2") == [
        "the expectation is ∂²/∂x∂y at every point, not ∂/∂x: differentiated in y too"]


def test_the_right_partial_is_no_mixed_one():
    code, out, _ = plain("x^2 y^3", "--expect", "x=2x y^3")
    assert code == 0 and "diagnosis" not in out


@pytest.mark.parametrize("written, what, kept", [("n x^n", "keeps", "n"),
                                                  ("n x^(n+1)", "raises", "(n+1)")])
def test_a_parameter_exponent_kept_or_raised(written, what, kept):
    # ∂/∂x x^n = n x^(n-1) for every n: n x^n and n x^(n+1) keep or raise the exponent
    (line,) = diagnosis("x^n", "--expect", f"x={written}", "--domain", "x=0.1:10")
    assert line == (f"this {what} the exponent of x^n: the power rule lowers it by one, "
                    f"∂(u^n)/∂x = n·u^(n-1)·(∂u/∂x), not n·u^{kept}·(∂u/∂x), for u = x")


# ----- 4. F's own reading ----------------------------------------------------------------------

def test_f_read_as_likely_meant_matches():
    # (1/2) x^2's derivative is x; 1/(2x^2)'s is -1/x^3
    assert diagnosis("1/2 x^2", "x") == [
        "f: 1/2 x^2 is read otherwise than it was likely meant (see the warning); as "
        "(1/2)*x^2, the expectation matches"]


def test_f_read_either_way_the_expectation_differs():
    # 2x is neither x nor -1/x^3
    assert not any(line.startswith("f: ") for line in diagnosis("1/2 x^2", "2x"))


def test_an_expectation_wrong_read_either_way_does_not_blame_the_reading_alone():
    # (x^3/3)' = x^2: 1/(2x^2) and (1/2) x^2 are both wrong
    lines = adcli.check("x^3/3", "1/2 x^2").diagnosis
    assert len(lines) == 1
    assert lines[0].startswith("the expectation was read as written: 1/2 x^2: ")
    # (1/2) x^2 is half of x^2: what is wrong with the other reading is said too
    assert lines[0].endswith("; read the other way, (1/2)*x^2, it differs too: ×1/2 "
                             "everywhere: the expectation is 1/2 times d/dx at every point")


# ----- 5. a chain factor left out of one term of a product ------------------------------------

@pytest.mark.parametrize("f, g, factor", [
    # (x e^-x)' = e^-x - x e^-x: e^-x's d(-x)/dx = -1 left out
    ("x e^{-x}", "e^{-x} + x e^{-x}", "d(-x)/dx = -1 inside e^(-x)"),
    # (x^2 ln 2x)' = 2x ln 2x + x^2 (1/x): ln's 1/(2x) without d(2x)/dx = 2
    (r"x^2 \ln(2x)", r"2x\ln(2x) + x^2 \cdot \frac{1}{2x}", "d(2*x)/dx = 2 inside ln(2*x)"),
    # (x sin 3x)' = sin 3x + 3x cos 3x
    (r"x \sin(3x)", r"\sin(3x) + x\cos(3x)", "d(3*x)/dx = 3 inside sin(3*x)"),
])
def test_the_missing_chain_factor_is_named(f, g, factor):
    (line,) = diagnosis(f, g, "--domain", "x=0.1:10")
    assert line.startswith(f"the product rule's term u·(dv/dx) lacks the chain rule's factor "
                           f"{factor}: ")


def test_a_wrong_sign_with_no_chain_is_still_a_sign():
    # (x e^x)' = e^x + x e^x: no chain inside e^x, the sign is the slip
    (line,) = diagnosis("x e^x", "e^x - x e^x")
    assert line.startswith("the product rule's term u·(dv/dx) has the wrong sign: ")


def test_an_equals_sign_alone_is_said_without_an_empty_slot():
    # (it read "give the right side alone, , or name the derivative before '=', f'(x) = ")
    code, out, err = run_cli("check", "x^2", "=")
    assert (code, out) == (2, "")
    assert err == ("adcli: error: the expectation is '=' alone: give the derivative, or name "
                   "it before '=', as in f'(x) = ...\n")


def test_no_mixed_partial_is_claimed_where_f_is_linear_in_the_other_variable():
    # f = x^2 y: ∂²f/∂x∂y = 2x is ∂f/∂x = 2xy with the factor y dropped, the likelier
    # slip (said so since the twenty-second session); no one differentiates in y too to get it
    assert diagnosis("x^2 y", "--expect", "x=2x") == [
        "this drops the factor y: for ∂/∂x, y is a constant factor, and it stays "
        "(∂/∂x ((x^2)*y) = y·(2*x))"]
    # f = x e^y: e^y is ∂f/∂x (and ∂²f/∂y∂x): swapped partials alone, not both
    assert diagnosis("x e^y", "--expect", "y=e^y") == [
        "the expectation for y matches ∂f/∂x instead: swapped partials?"]


def test_f_and_the_expectation_both_read_as_meant_match():
    # √2 x^2 meant as √2·x^2, whose derivative 2√2·x is 2√2 x meant as 2·√2·x (the
    # expectation's own diagnosis against √2·x^2 says its reading, not its nan as written)
    assert diagnosis("√2 x^2", "2√2 x") == [
        "f: √2 x^2 is read otherwise than it was likely meant (see the warning); with f "
        "read as sqrt(2)*x^2, √2 x is read otherwise than it was likely meant (see the "
        "warning); as sqrt(2)*x, the expectation matches"]
    # 3√2 x is wrong either way (2√2 x is right): the readings are not blamed alone
    assert diagnosis("√2 x^2", "3√2 x")[-1].endswith("; read the other way, it differs too")
