"""adcli check of partial derivatives (README "Check a derivation"): a diagnosis names the
derivatives as the check does (∂ for f of several variables), a second derivative taken
in the wrong variables is said, and a left side in subscript operators (∂_x ∂_y f) is read.

Every derivative below is worked out by hand; messages and exit codes are compared whole.
"""
from __future__ import annotations

import pytest

import adcli
from conftest import run_cli


def plain(*argv):
    return run_cli("check", *argv, "--format", "plain")


def error(message: str) -> str:
    return f"adcli: error: {message}\n"


# ----- 1. the chain rule's words name partials with ∂ -----------------------------------------

@pytest.mark.parametrize("argv, lines", [
    # f = sin(xy): ∂f/∂x = y cos(xy); y cos(x) is sin' taken at x, times ∂(xy)/∂x = y.
    # y = 2 is the same at the 30 random points beside the user's one (a parameter).
    (["sin(x*y)", "∂f/∂x = y*cos(x)", "--at", "x=1,y=2"], [
        "differs from ∂/∂x at 1 of 1 point",
        "diagnosis: this takes sin's derivative at x, not at its argument u = x*y: the chain "
        "rule is sin'(u)·∂u/∂x",
        "note: the diagnosis holds at your 1 point and at 30 random ones with y=2.0 (seed 0): "
        "1 point alone cannot tell a slip from a coincidence"]),
    # f = a sin(3x), a fixed: still a function of two variables, ∂/∂x in the headline, so
    # ∂ in the rule too. ∂f/∂x = 3a cos(3x); 3a cos(x) is sin' taken at x.
    (["a*sin(3x)", "3a cos(x)", "--at", "a=2"], [
        "differs from ∂/∂x at 30 of 30 points",
        "diagnosis: this takes sin's derivative at x, not at its argument u = 3*x: the chain "
        "rule is sin'(u)·∂u/∂x"]),
    # f = sin(xy): cos(xy) alone is ∂f/∂u for u = xy, the factor ∂u/∂x = y left out
    (["sin(x*y)", "--expect", "x=cos(x*y)"], [
        "differs from ∂/∂x at 30 of 30 points",
        "diagnosis: this is the derivative of sin with respect to its argument u = x*y; the "
        "chain rule's factor ∂u/∂x is missing"]),
    # f = e^(sin(xy)): ∂f/∂x = e^(sin(xy)) cos(xy) y; without y it is ∂f/∂u for u = xy
    (["exp(sin(x*y))", "--expect", "x=exp(sin(x*y))*cos(x*y)"], [
        "differs from ∂/∂x at 30 of 30 points",
        "diagnosis: this is the derivative of f with respect to u = x*y (the argument of sin); "
        "the chain rule's factor ∂u/∂x is missing"]),
])
def test_the_chain_rule_of_a_partial_is_written_with_partials(argv, lines):
    code, out, err = plain(*argv)
    assert (code, err) == (1, "")
    assert out.splitlines() == lines


# ----- 2. a second derivative in the wrong variables ------------------------------------------

# f = x^2 y^3, by hand: ∂²f/∂x² = 2y^3, ∂²f/∂x∂y = 6xy^2, ∂²f/∂y² = 6x^2 y
@pytest.mark.parametrize("argv, diagnosis", [
    (["x^2*y^3", "∂²f/∂x² = 6*x*y^2"],
     "the expectation is ∂²/∂x∂y at every point, not ∂²/∂x²: one of the two "
     "differentiations is in y, not in x"),
    (["x^2*y^3", "--expect", "x,x=6*x^2*y"],
     "the expectation is ∂²/∂y² at every point, not ∂²/∂x²: differentiated in y, not in x"),
    (["x^2*y^3", "d²y/dy² = 2*y^3"],      # (the left side names y, the variable checked)
     "the expectation is ∂²/∂x² at every point, not ∂²/∂y²: differentiated in x, not in y"),
    # f = x^3 y^3: ∂³f/∂x³ = 6y^3, ∂³f/∂x²∂y = 18xy^2, ∂³f/∂x∂y² = 18x^2 y
    (["x^3*y^3", "∂³f/∂x³ = 18*x*y^2"],
     "the expectation is ∂³/∂x²∂y at every point, not ∂³/∂x³: one of the three "
     "differentiations is in y, not in x"),
    (["x^3*y^3", "∂³f/∂x³ = 18*x^2*y"],
     "the expectation is ∂³/∂x∂y² at every point, not ∂³/∂x³: two of the three "
     "differentiations are in y, not in x"),
])
def test_a_second_derivative_in_another_variable_is_named(argv, diagnosis):
    code, out, err = plain(*argv)
    assert (code, err) == (1, "")
    assert out.splitlines()[1:] == [f"diagnosis: {diagnosis}"]


def test_a_derivative_equal_to_the_one_checked_is_no_candidate():
    """f = sin(x + y) + xy: ∂²f/∂x² = ∂²f/∂y² = -sin(x + y) everywhere, ∂²f/∂x∂y =
    1 - sin(x + y). The expectation 1 - sin(x + y) is the mixed partial alone: ∂²f/∂y²,
    being ∂²f/∂x² itself, cannot be what was written instead."""
    result = adcli.check("sin(x+y) + x*y", "1 - sin(x+y)", order=2, wrt="x")
    assert (result.exit_code, result.diagnosis) == (1, [
        "the expectation is ∂²/∂x∂y at every point, not ∂²/∂x²: one of the two "
        "differentiations is in y, not in x"])


def test_no_diagnosis_where_two_derivatives_would_explain_it():
    """f = x e^y: ∂²f/∂x² = 0, and e^y is both ∂f/∂x (one differentiation too few) and
    ∂²f/∂x∂y (one in y): which slip was made is a guess, so nothing is claimed."""
    result = adcli.check("x*exp(y)", "exp(y)", order=2, wrt="x")
    assert (result.exit_code, result.diagnosis) == (1, [])


# ----- 3. left sides in subscript operators ----------------------------------------------------

# f = x^2 y^3: ∂f/∂x = 2xy^3, ∂²f/∂x∂y = ∂²f/∂y∂x = 6xy^2, ∂²f/∂x² = 2y^3
@pytest.mark.parametrize("expected, checked", [
    ("∂_x f = 2x y^3", "∂/∂x"),
    ("\\partial_x f = 2x y^3", "∂/∂x"),
    ("∂_x f(x,y) = 2x y^3", "∂/∂x"),
    ("∂_x (x^2 y^3) = 2x y^3", "∂/∂x"),           # applied to f itself
    ("∂_x ∂_y f = 6x y^2", "∂²/∂x∂y"),
    ("∂_x∂_y f = 6x y^2", "∂²/∂x∂y"),
    ("\\partial_x \\partial_y f = 6x y^2", "∂²/∂x∂y"),
    ("\\partial_{x}\\,\\partial_{y} f = 6x y^2", "∂²/∂x∂y"),
    ("∂_y ∂_x f = 6x y^2", "∂²/∂y∂x"),            # ∂/∂y of ∂f/∂x: the order kept
    ("∂_x^2 f = 2y^3", "∂²/∂x²"),
    ("∂^2_x f = 2y^3", "∂²/∂x²"),
    ("∂_x² f = 2y^3", "∂²/∂x²"),
    ("∂_{xx} f = 2y^3", "∂²/∂x²"),
    ("\\partial_{xx} f = 2y^3", "∂²/∂x²"),
    ("\\partial_x^{2} f = 2y^3", "∂²/∂x²"),
])
def test_a_left_side_in_subscript_operators_is_read(expected, checked):
    code, out, err = plain("x^2 y^3", expected)
    assert (code, err) == (0, "")
    assert out.startswith(f"matches {checked} at 30/30 points, largest relative difference ")


def test_subscript_operators_say_the_order_and_the_variables_checked():
    # ∂_x ∂_y f = 6x^2 y: that is ∂²f/∂y², so the mixed partial is checked, and differs
    code, out, err = plain("x^2 y^3", "∂_x ∂_y f = 6x^2 y")
    assert (code, err) == (1, "")
    assert out.splitlines() == [
        "differs from ∂²/∂x∂y at 30 of 30 points",
        "diagnosis: the expectation is ∂²/∂y² at every point, not ∂²/∂x∂y: differentiated in "
        "y alone, not in x"]
    # f of one variable: ∂_x is its d/dx
    code, out, err = plain("x^3", "∂_x^2 f = 6x")
    assert (code, err) == (0, "")
    assert out.startswith("matches d²/dx² at 30/30 points")


def test_the_equation_alone_with_an_operator_applied_to_f():
    code, out, err = run_cli("check", "∂_x (x^2 y) = 2x y", "--format", "plain")
    assert (code, err) == (0, "")
    assert out.startswith("matches ∂/∂x at 30/30 points")


def test_subscripts_run_together_are_not_read_as_a_mixed_partial():
    assert plain("x^2 y^3", "∂_{xy} f = 6x y^2") == (2, "", error(
        "the expectation's left side, ∂_{xy} f, is a derivative in xy, which does not appear "
        "in 'x^2 y^3' (for a mixed partial, give each variable its ∂: ∂_x ∂_y f is ∂²f/∂x∂y; "
        "subscripts run together are read either way round)"))


def test_an_operator_of_a_variable_f_lacks_is_one_line_and_exit_2():
    assert plain("x^2 y^3", "∂_x ∂_z f = 0") == (2, "", error(
        "the expectation's left side, ∂_x ∂_z f, is a derivative in z, which does not appear "
        "in 'x^2 y^3'"))


def test_a_subscripted_f_stays_unread_and_the_forms_read_are_listed():
    # f_x may be a variable's name, and f_xy is ∂²f/∂y∂x in half of the books: not read,
    # while the operator ∂_x f, which says it, is
    assert plain("x^2 y^3", "f_x = 2x y^3") == (2, "", error(
        "the expectation's left side, f_x, is not read as a derivative: give it by name "
        "instead, --expect x=\"2x y^3\" (expect={\"x\": ...} in the API)"))
    assert plain("x^2 y^3", "∂_x f = 2x y^3")[0] == 0
    forms = ("f'(x), dy/dx, d²y/dx², ∂f/∂x, ∂²f/∂x∂y, ∂_x f, ∂_x ∂_y f, d/dx (F) or their "
             "LaTeX forms (\\frac{\\partial f}{\\partial x})")
    assert plain("x^2", "y = 2x") == (2, "", error(
        "the expectation's left side, y, is not read as a derivative: an expression is "
        f"wanted, not an equation; give the right side alone, 2x, or write the left side as "
        f"{forms}"))
    assert plain("x^2 y^3", "∂^2_x^2 f = 2y^3") == (2, "", error(
        "the expectation's left side, ∂^2_x^2 f, is not read as a derivative: give the "
        "derivative by name, --expect NAME=\"2y^3\" (NAME,NAME= for a mixed partial), or "
        f"write its left side as {forms}"))
