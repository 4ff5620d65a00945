"""adcli check's diagnoses as a calculus student reads them (round 24): a sum whose derivative
is 0 written as one term's is that term with the other left out, not the one term twice; a
factor y dropped from the one term of a sum that varies in x is said as that, not as a mixed
partial that holds only by the linearity in y; and where an expectation is wrong read either
way, each line names the reading it is of.

Each premise (which term, which factor, what each reading is) is checked against a hand
derivation with mpmath at the points drawn, never against adcli's output.
"""
from __future__ import annotations

import mpmath
import pytest

import adcli
from test_slips_s23 import diagnosis, everywhere

sin, cos, sinh, cosh, sec, tan = (mpmath.sin, mpmath.cos, mpmath.sinh, mpmath.cosh,
                                  mpmath.sec, mpmath.tan)


def near(a, b) -> bool:
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1)


# ----- 1. a sum whose derivative is 0: the second term left out, not the first doubled -------

# f = u ± v, and by hand du/dx, dv/dx: the expectation is du/dx, and ±dv/dx = -du/dx
IDENTITIES = {
    ("sin^2 x + cos^2 x", "2 sin x cos x"):
        ("sin(x)^2", "cos(x)^2", "+", lambda x: 2 * sin(x) * cos(x),
         lambda x: -2 * cos(x) * sin(x)),
    ("cosh^2 x - sinh^2 x", "2 cosh x sinh x"):
        ("cosh(x)^2", "sinh(x)^2", "-", lambda x: 2 * cosh(x) * sinh(x),
         lambda x: 2 * sinh(x) * cosh(x)),
    ("sec^2 x - tan^2 x", "2 sec^2 x tan x"):
        ("sec(x)^2", "tan(x)^2", "-", lambda x: 2 * sec(x) ** 2 * tan(x),
         lambda x: 2 * tan(x) * sec(x) ** 2),
}


@pytest.mark.parametrize("f, g", list(IDENTITIES))
def test_one_term_of_a_constant_sum_is_the_other_left_out(f, g):
    u, v, sign, du, dv = IDENTITIES[f, g]
    s = 1 if sign == "+" else -1
    written = {"2 sin x cos x": lambda x: 2 * sin(x) * cos(x),
               "2 cosh x sinh x": lambda x: 2 * cosh(x) * sinh(x),
               "2 sec^2 x tan x": lambda x: 2 * sec(x) ** 2 * tan(x)}[g]
    result = adcli.check(f, g)
    # the expectation is du/dx exactly, and the term ±dv/dx is -du/dx (f' = 0): so it is f'
    # with ±dv/dx left out, and f' with du/dx doubled too; the first is what was done
    assert everywhere(result.points, lambda p: near(written(p["x"]), du(p["x"])))
    assert everywhere(result.points, lambda p: near(s * dv(p["x"]), -du(p["x"])))
    minus = "-" if sign == "-" else ""
    assert diagnosis(f, g) == [
        f"the term {minus}dv/dx is missing: for u = {u} and v = {v}, "
        f"d(u {sign} v)/dx = du/dx {sign} dv/dx"]


def test_a_term_of_the_wrong_sign_is_said_before_the_other_tripled():
    # sin^2 + cos^2: du/dx = 2 sin cos, dv/dx = -2 sin cos; written 4 sin cos = du/dx - dv/dx
    # (cos' taken as +sin), and = 3 du/dx + dv/dx too
    result = adcli.check("sin^2 x + cos^2 x", "4 sin x cos x")
    assert everywhere(result.points, lambda p: near(
        4 * sin(p["x"]) * cos(p["x"]), 2 * sin(p["x"]) * cos(p["x"]) * 2))
    assert diagnosis("sin^2 x + cos^2 x", "4 sin x cos x") == [
        "the term dv/dx has the wrong sign: for u = sin(x)^2 and v = cos(x)^2, "
        "d(u + v)/dx = du/dx + dv/dx"]


@pytest.mark.parametrize("f, g, words", [
    # (terms not proportional: one claim holds, as before)
    ("x^2 - sin x", "2x",
     "the term -dv/dx is missing: for u = x^2 and v = sin(x), d(u - v)/dx = du/dx - dv/dx"),
    ("x^2 + sin x", "4x + cos x",
     "the term du/dx is 2 times what it should be: for u = x^2 and v = sin(x), "
     "d(u + v)/dx = du/dx + dv/dx"),
    ("x sin x", "sin x",
     "the product rule's term u·(dv/dx) is missing: for u = x and v = sin(x), "
     "d(u·v)/dx = (du/dx)·v + u·(dv/dx)"),
    ("sin^2 x + cos^2 x", "-2 sin x cos x",
     "the term du/dx is missing: for u = sin(x)^2 and v = cos(x)^2, "
     "d(u + v)/dx = du/dx + dv/dx"),
])
def test_other_terms_said_as_before(f, g, words):
    assert diagnosis(f, g) == [words]


# ----- 2. a factor y dropped from a sum's one term in x, not a mixed partial ----------------

DROPPED = {  # f, the expectation, the term's rule written out, by hand: ∂f/∂x and ∂²f/∂x∂y
    "x^2 y + y^3": ("2x", "(x^2)*y", "y·(2*x)",
                    lambda x, y: 2 * x * y, lambda x, y: 2 * x, lambda x, y: 2 * x),
    "x^3 y + y^2": ("3x^2", "(x^3)*y", "y·(3*(x^2))",
                    lambda x, y: 3 * x ** 2 * y, lambda x, y: 3 * x ** 2,
                    lambda x, y: 3 * x ** 2),
    "y^3 + sin(x) y": ("cos x", "sin(x)*y", "y·cos(x)",
                       lambda x, y: cos(x) * y, lambda x, y: cos(x), lambda x, y: cos(x)),
}


@pytest.mark.parametrize("f", list(DROPPED))
def test_a_factor_dropped_from_the_one_term_in_x(f):
    g, term, rule, partial, mixed, written = DROPPED[f]
    result = adcli.check(f, g, wrt="x")
    # ∂f/∂x is y times the expectation, and ∂²f/∂x∂y is the expectation too (by linearity)
    assert everywhere(result.points, lambda p: near(partial(p["x"], p["y"]),
                                                    p["y"] * written(p["x"], p["y"])))
    assert everywhere(result.points, lambda p: near(mixed(p["x"], p["y"]),
                                                    written(p["x"], p["y"])))
    assert diagnosis(f, g, "--wrt", "x") == [
        f"this drops the factor y of the term {term}: for ∂/∂x, y is a constant factor, and "
        f"it stays (∂/∂x ({term}) = {rule})"]


def test_a_factor_dropped_beside_another_partial_that_matches():
    # ∂/∂y (x^2 y + sin y) = x^2 + cos y, right; ∂/∂x = 2xy, written 2x
    result = adcli.check("x^2 y + sin y", expect={"x": "2x", "y": "x^2 + cos y"})
    assert everywhere(result.points, lambda p: near(2 * p["x"] * p["y"], p["y"] * 2 * p["x"]))
    assert diagnosis("x^2 y + sin y", "--expect", "x=2x", "--expect", "y=x^2 + cos y") == [
        "this drops the factor y of the term (x^2)*y: for ∂/∂x, y is a constant factor, and "
        "it stays (∂/∂x ((x^2)*y) = y·(2*x))"]


def test_a_factor_dropped_from_a_term_subtracted():
    # ∂/∂x (y^3 - x^2 y) = -2xy by hand, written -2x
    result = adcli.check("y^3 - x^2 y", "-2x", wrt="x")
    assert everywhere(result.points, lambda p: near(-2 * p["x"] * p["y"],
                                                    p["y"] * (-2 * p["x"])))
    assert diagnosis("y^3 - x^2 y", "-2x", "--wrt", "x") == [
        "this drops the factor y of the term -((x^2)*y): for ∂/∂x, y is a constant factor, "
        "and it stays (∂/∂x (-((x^2)*y)) = y·(-(2*x)))"]


@pytest.mark.parametrize("f, g, words", [
    ("x^2 y", "2x", ["this drops the factor y: for ∂/∂x, y is a constant factor, and it stays "
                     "(∂/∂x ((x^2)*y) = y·(2*x))"]),
    # ∂f/∂x = 2x y^3 is not y·6x y^2: the mixed partial, differentiated in y too
    ("x^2 y^3", "6x y^2",
     ["the expectation is ∂²/∂x∂y at every point, not ∂/∂x: differentiated in y too"]),
    ("x^2 y^2 + y", "4 x y",
     ["the expectation is ∂²/∂x∂y at every point, not ∂/∂x: differentiated in y too"]),
    # (a rule's slip said, the factor is not: the mixed partial stays beside it)
    ("y*log(x*y)", "y/(x*y)",
     ["this is the derivative of f with respect to u = x*y (the argument of log); the chain "
      "rule's factor ∂u/∂x is missing",
      "the expectation is ∂²/∂x∂y at every point, not ∂/∂x: differentiated in y too"]),
])
def test_other_partials_said_as_before(f, g, words):
    assert diagnosis(f, g, "--wrt", "x") == words


def test_a_mixed_partial_in_a_sum_is_still_said():
    # x^2 y^3 + y: ∂f/∂x = 2x y^3, ∂²f/∂x∂y = 6x y^2, which is not ∂f/∂x over y
    result = adcli.check("x^2 y^3 + y", "6x y^2", wrt="x")
    assert not everywhere(result.points, lambda p: near(2 * p["x"] * p["y"] ** 3,
                                                        p["y"] * 6 * p["x"] * p["y"] ** 2))
    assert diagnosis("x^2 y^3 + y", "6x y^2", "--wrt", "x") == [
        "the expectation is ∂²/∂x∂y at every point, not ∂/∂x: differentiated in y too"]


# ----- 3. wrong either way: each line names its reading --------------------------------------

def test_each_reading_of_an_expectation_wrong_either_way_is_named():
    result = adcli.check("x^(-1/2)", "-1/2 x^(-1/2)")
    # as read, (-1)/(2x^(-1/2)) = -1/2·x^(1/2): the exponent raised; the other way,
    # (-1/2)·x^(-1/2): kept; f' = -1/2·x^(-3/2)
    assert everywhere(result.points, lambda p: near(
        mpmath.mpf(-1) / (2 * p["x"] ** mpmath.mpf(-0.5)), -p["x"] ** mpmath.mpf(0.5) / 2))
    lines = diagnosis("x^(-1/2)", "-1/2 x^(-1/2)")
    assert lines[0] == (
        "read as written, (-1)/(2*(x^((-1)/2))): this raises the exponent of x^((-1)/2): the "
        "power rule lowers it by one, d(u^(-1/2))/dx = -1/2·u^(-3/2)·(du/dx), not "
        "-1/2·u^(1/2)·(du/dx), for u = x")
    assert len(lines) == 2 and lines[1].startswith("the expectation was read as written: ")
    assert lines[1].endswith(
        "; read the other way, ((-1)/2)*x^((-1)/2), it differs too: this keeps the exponent "
        "of x^((-1)/2): the power rule lowers it by one, d(u^(-1/2))/dx = "
        "-1/2·u^(-3/2)·(du/dx), not -1/2·u^(-1/2)·(du/dx), for u = x")


@pytest.mark.parametrize("f, g, words", [
    # (no other reading tried: the one reading needs no name)
    ("x^(-1/2)", "-1/2x^(-1/2)",
     ["this raises the exponent of x^((-1)/2): the power rule lowers it by one, "
      "d(u^(-1/2))/dx = -1/2·u^(-3/2)·(du/dx), not -1/2·u^(1/2)·(du/dx), for u = x"]),
    # (no claim of the reading as written: the caution's line alone, as before)
    ("x^3/3", "1/2 x^2",
     ["the expectation was read as written: 1/2 x^2: a product written side by side binds "
      "tighter than '/', so this divides by 2*(x^2); for (1/2)*x^2, write 1/2*x^2; read the "
      "other way, (1/2)*x^2, it differs too: ×1/2 everywhere: the expectation is 1/2 times "
      "d/dx at every point"]),
])
def test_one_reading_said_as_before(f, g, words):
    assert diagnosis(f, g) == words
