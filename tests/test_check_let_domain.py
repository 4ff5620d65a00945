"""adcli check: an expectation's left side read the same with --let as without, and
--domain's names read as --at's (README "Check a derivation").

Every derivative below is worked out by hand; the wrong right sides next to the right ones
show that the left side is read, not skipped.
"""
from __future__ import annotations

import json
import math

import pytest

from conftest import run_cli


def plain(*argv):
    return run_cli("check", *argv, "--format", "plain")


# ----- 1. an equation's left side, with --let -------------------------------------------------

# (f, its derivative as an equation, a wrong one, the --let definitions); by hand:
# (x^2)' = 2x; (sin² x)' = 2 sin x cos x; (√(1-x²))' = -x/√(1-x²) = -x/y.
EQUATIONS = [
    ("x^2", "f'(x) = 2x", "f'(x) = 2", ["a=1"]),
    ("x^2", "dy/dx = 2x", "dy/dx = x", ["z=x"]),
    ("u^2", "\\frac{d}{dx} f = 2u \\cos x", "\\frac{d}{dx} f = u \\cos x", ["u=\\sin x"]),
    ("y", "dy/dx = -x/y", "dy/dx = x/y", ["y=\\sqrt{1-x^2}"]),
    ("u^2", "d/dx (u^2) = 2u \\cos x", "d/dx (u^2) = 2\\cos x", ["u=\\sin x"]),
    ("u^2", "$f'(x) = 2u \\cos x$", "$f'(x) = 2u$", ["u=\\sin x"]),
]


@pytest.mark.parametrize("f, right, wrong, let", EQUATIONS)
def test_an_equation_with_let_is_checked_by_its_right_side(f, right, wrong, let):
    lets = [a for d in let for a in ("--let", d)]
    code, out, err = plain(f, right, *lets, "--domain", "x=-0.9:0.9")
    assert code == 0 and out.startswith("matches d/dx at 30/30 points, ")
    assert "error" not in err
    code, out, _ = plain(f, wrong, *lets, "--domain", "x=-0.9:0.9")
    assert code == 1 and out.startswith("differs from d/dx")


def test_the_left_side_y_names_f_and_the_right_side_y_the_definition():
    """dy/dx = 2x with --let y=x: the left side's y is f (x^2), never computed, so y is
    used by nothing and said so; the right side's y would be the definition (2y = 2x)."""
    code, out, err = plain("x^2", "dy/dx = 2x", "--let", "y=x")
    assert code == 0 and out.startswith("matches d/dx at 30/30 points")
    assert err == "adcli: warning: --let y: y is not used by the expression\n"
    code, out, err = plain("x^2", "dy/dx = 2y", "--let", "y=x")
    assert code == 0 and out.startswith("matches d/dx at 30/30 points") and err == ""


def test_a_left_side_of_order_two_sets_the_order_with_let():
    # (sin² x)'' = 2cos(2x)
    code, out, _ = plain("u^2", "(u^2)'' = 2\\cos(2x)", "--let", "u=\\sin x")
    assert code == 0 and out.startswith("matches d²/dx² at 30/30 points")


def test_a_mixed_partial_left_side_with_let():
    # ∂²(y sin² x)/∂x∂y = 2 sin x cos x
    code, out, _ = plain("u^2 y", "∂²f/∂x∂y = 2u \\cos x", "--let", "u=\\sin x")
    assert code == 0 and out.startswith("matches ∂²/∂x∂y at 30/30 points")


def test_an_expect_equation_with_let():
    # ∂(y sin² x)/∂x = 2y sin x cos x, ∂/∂y = sin² x
    code, out, _ = plain("u^2 y", "--expect", "x=∂f/∂x = 2u y \\cos x", "--expect",
                         "y=∂f/∂y = u^2", "--let", "u=\\sin x")
    assert code == 0 and out.startswith("matches ∂/∂x and ∂/∂y")


@pytest.mark.parametrize("argv, message", [
    (["x^2", "y = 2x"],
     "the expectation's left side, y, is not read as a derivative: an expression is "
     "wanted, not an equation; give the right side alone, 2x, or write the left side as "
     "f'(x), dy/dx, d²y/dx², ∂f/∂x, ∂²f/∂x∂y, ∂_x f, ∂_x ∂_y f, d/dx (F) or their LaTeX "
     "forms (\\frac{\\partial f}{\\partial x})"),
    (["x^2 y", "∂f/∂y = x^2", "--wrt", "x"],
     "the expectation's left side, ∂f/∂y, is a derivative in y, and this checks one in x: "
     "--wrt y (wrt= in the API), or --expect y=... for partials by name"),
    (["x^2", "d²f/dx² = 2", "--order", "1"],
     "the expectation's left side, d²f/dx², is a derivative of order 2, and this checks "
     "order 1: use --order 2 (order= in the API)"),
    (["x^2", "d/dx (x^3) = 3x^2"],
     "the expectation's left side, d/dx (x^3), differentiates (x^3), not x^2: give the "
     "right side alone, or check that function"),
    (["x^2", "(x^3)' = 3x^2"],
     "the expectation's left side, (x^3)', differentiates (x^3), not x^2: give the "
     "right side alone, or check that function"),
])
def test_a_left_side_is_held_to_the_derivative_checked_with_let_as_without(argv, message):
    for let in ([], ["--let", "a=1"]):
        code, out, err = plain(*argv, *let)
        assert (code, out) == (2, "")
        assert err.splitlines()[-1] == f"adcli: error: {message}"


# ----- 2. --domain's names ----------------------------------------------------------------------

@pytest.mark.parametrize("f, expect, domain, name", [
    ("\\ln x_{1} + x_2", "x_1=1/x_1", "x_{1}=1:2", "x_1"),
    ("\\ln x_{ij}", "x_ij=1/x_ij", "x_{ij}=1:2", "x_ij"),
    ("\\ln \\alpha", "α=1/α", "\\alpha=1:2", "α"),
    ("\\ln x₁", "x1=1/x1", "x₁=1:2", "x1"),
])
def test_domain_names_are_read_as_at_names(f, expect, domain, name):
    code, out, err = run_cli("check", f, "--expect", expect, "--domain", domain,
                             "--format", "json")
    assert (code, err) == (0, "")
    points = json.loads(out)["points"]
    assert len(points) == 30
    for p in points:
        v = p["at"][name]
        assert 1 <= v <= 2
        (d,) = p["derivatives"].values()
        assert math.isclose(d["expected"], 1 / v, rel_tol=1e-15)


def test_one_name_given_two_domains_is_an_error():
    code, out, err = plain("x_1^2", "2x_1", "--domain", "x_{1}=1:2", "--domain", "x_1=3:4")
    assert (code, out, err) == (2, "", "adcli: error: --domain 'x_1=3:4': x_1 is given "
                                       "more than once\n")


def test_the_api_takes_definitions_as_the_cli_takes_let():
    import adcli

    # u = sin x: (u^2)' = 2 sin x cos x; y = sqrt(1 - x^2): y' = -x/y (by hand)
    assert adcli.check("u^2", "dy/dx = 2*u*cos(x)", definitions={"u": "sin(x)"}).ok
    assert not adcli.check("u^2", "dy/dx = 2*u", definitions={"u": "sin(x)"}).ok
    assert adcli.check("y", "dy/dx = -x/y", definitions={"y": "sqrt(1-x^2)"},
                       domain={"x": (-0.9, 0.9)}).ok
