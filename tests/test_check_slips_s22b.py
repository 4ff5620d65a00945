"""adcli check's diagnoses (round 22, second pass): one line for one slip.

A factor of f left out that a rule's slip explains (y sin(xy)'s ∂/∂x written y cos(xy):
the chain rule's ∂u/∂x = y) is the rule's, not a factor dropped besides; an expectation
that matches read as its caution says it was likely meant is that alone, not also nan as
written. Each premise is derived by hand and checked with mpmath, never against adcli.
"""
from __future__ import annotations

import mpmath
import pytest

from conftest import run_cli


def diagnosis(*argv) -> list[str]:
    code, out, _ = run_cli("check", *argv, "--format", "plain")
    assert code == 1
    return [line.removeprefix("diagnosis: ") for line in out.splitlines()
            if line.startswith("diagnosis: ")]


def partial_x(f, x, y):
    return mpmath.diff(lambda s: f(s, y), x)


POINTS = ((0.7, -1.3), (-2.2, 0.4), (1.9, 2.6))


# ----- 1. the factor a rule left out is not a factor dropped besides ------------------------

@pytest.mark.parametrize("f, g, du_dx, dfdu, words", [
    # f = y sin(u), u = xy: ∂f/∂u = y cos(xy), written; ∂u/∂x = y, which the chain rule
    # multiplies by (∂f/∂x = y^2 cos(xy)); y is also the factor of f, by coincidence
    ("y*sin(x*y)", "y*cos(x*y)", lambda x, y: y,
     lambda f, x, y: mpmath.diff(lambda u: y * mpmath.sin(u), x * y),
     "this is the derivative of f with respect to u = x*y (the argument of sin); the chain "
     "rule's factor ∂u/∂x is missing"),
    # f = e^y sin(u), u = x e^y: ∂u/∂x = e^y, f's factor too
    ("exp(y)*sin(x*exp(y))", "exp(y)*cos(x*exp(y))", lambda x, y: mpmath.exp(y),
     lambda f, x, y: mpmath.diff(lambda u: mpmath.exp(y) * mpmath.sin(u), x * mpmath.exp(y)),
     "this is the derivative of f with respect to u = x*exp(y) (the argument of sin); the "
     "chain rule's factor ∂u/∂x is missing"),
    # f = y u^2, u = xy (the base of the power): ∂f/∂u = 2yu = 2xy^2
    ("y*(x*y)^2", "2*x*y^2", lambda x, y: y,
     lambda f, x, y: mpmath.diff(lambda u: y * u ** 2, x * y),
     "this is the derivative of f with respect to u = x*y (the base of the power); the "
     "chain rule's factor ∂u/∂x is missing"),
    # f = y/u, u = xy + 1 (the denominator): ∂f/∂u = -y/u^2
    ("y/(x*y+1)", "-y/(x*y+1)^2", lambda x, y: y,
     lambda f, x, y: mpmath.diff(lambda u: y / u, x * y + 1),
     "this is the derivative of the quotient with respect to its denominator u = (x*y) + 1; "
     "the chain rule's factor ∂u/∂x is missing"),
])
def test_a_chain_factor_missing_is_not_also_a_factor_dropped(f, g, du_dx, dfdu, words):
    function, written = (
        {"y*sin(x*y)": (lambda x, y: y * mpmath.sin(x * y), lambda x, y: y * mpmath.cos(x * y)),
         "exp(y)*sin(x*exp(y))": (lambda x, y: mpmath.exp(y) * mpmath.sin(x * mpmath.exp(y)),
                                  lambda x, y: mpmath.exp(y) * mpmath.cos(x * mpmath.exp(y))),
         "y*(x*y)^2": (lambda x, y: y * (x * y) ** 2, lambda x, y: 2 * x * y ** 2),
         "y/(x*y+1)": (lambda x, y: y / (x * y + 1), lambda x, y: -y / (x * y + 1) ** 2)}[f])
    for x, y in POINTS:
        # the expectation is ∂f/∂u, and ∂f/∂x is it times ∂u/∂x, which is f's factor
        assert mpmath.almosteq(dfdu(f, x, y), written(x, y), 1e-10)
        assert mpmath.almosteq(partial_x(function, x, y), du_dx(x, y) * written(x, y), 1e-10)
    assert diagnosis(f, g, "--wrt", "x") == [words]


def test_a_chain_factor_missing_beside_another_order():
    # f = y ln(xy): ∂f/∂x = y/x; written y/(xy) = 1/x is ∂f/∂u (u = xy) and ∂²f/∂x∂y too
    for x, y in ((0.7, 1.3), (2.2, 0.4)):
        assert mpmath.almosteq(partial_x(lambda s, t: t * mpmath.log(s * t), x, y), y / x,
                               1e-12)
        assert mpmath.almosteq(mpmath.diff(lambda t: t / x, y), 1 / x, 1e-12)
        assert mpmath.almosteq(mpmath.diff(lambda u: y * mpmath.log(u), x * y), 1 / x, 1e-12)
    lines = diagnosis("y*log(x*y)", "y/(x*y)", "--wrt", "x")
    assert lines == [
        "this is the derivative of f with respect to u = x*y (the argument of log); the chain "
        "rule's factor ∂u/∂x is missing",
        "the expectation is ∂²/∂x∂y at every point, not ∂/∂x: differentiated in y too"]


def test_a_factor_dropped_with_no_rule_to_explain_it_is_still_said():
    # ∂/∂x (x^2 y) = 2xy = y·2x: no rule's slip gives 2x
    for x, y in POINTS:
        assert mpmath.almosteq(partial_x(lambda s, t: s ** 2 * t, x, y), y * 2 * x, 1e-12)
    assert diagnosis("x^2*y", "2x", "--wrt", "x") == [
        "this drops the factor y: for ∂/∂x, y is a constant factor, and it stays "
        "(∂/∂x ((x^2)*y) = y·(2*x))"]


# ----- 2. the expectation read as meant matches: that alone, not its nan as written ---------

@pytest.mark.parametrize("f, g, df, meant, words", [
    # (x^2/(2√2))' = x/√2 = (1/√2)·x; as written 1/sqrt(2x), nan for x < 0
    ("x^2/(2*sqrt(2))", "1/√2 x", lambda x: x / mpmath.sqrt(2),
     lambda x: (1 / mpmath.sqrt(2)) * x,
     "1/√2 x is read otherwise than it was likely meant (see the warning); as "
     "(1/sqrt(2))*x, the expectation matches"),
    # (x^2/√2)' = 2x/√2 = √2·x; as written sqrt(2x), nan for x < 0
    ("x^2/sqrt(2)", "√2 x", lambda x: 2 * x / mpmath.sqrt(2), lambda x: mpmath.sqrt(2) * x,
     "√2 x is read otherwise than it was likely meant (see the warning); as sqrt(2)*x, "
     "the expectation matches"),
    # (√2·x^2)' = 2√2·x; as written 2·sqrt(2x), nan for x < 0 (√2 x^2 read so is f's
    # reading, and this what is said of the expectation against it)
    ("sqrt(2)*x^2", "2√2 x", lambda x: 2 * mpmath.sqrt(2) * x,
     lambda x: 2 * (mpmath.sqrt(2) * x),
     "√2 x is read otherwise than it was likely meant (see the warning); as sqrt(2)*x, "
     "the expectation matches"),
])
def test_a_reading_that_matches_is_not_also_undefined(f, g, df, meant, words):
    for x in (-4.9, -0.3, 0.8, 3.1):
        assert mpmath.almosteq(df(x), meant(x), 1e-12)
    # as written, it is not real for x < 0: the nan a diagnosis as written would name
    assert mpmath.im(mpmath.sqrt(mpmath.mpc(2 * -0.3))) != 0
    assert diagnosis(f, g) == [words]


def test_a_reading_that_differs_too_keeps_the_nan_as_written():
    # (x^3/3)' = x^2: 1/sqrt(2x) is nan for x < 0 and (1/√2)·x is not x^2 either
    assert mpmath.almosteq(mpmath.diff(lambda s: s ** 3 / 3, -4.92392), 4.92392 ** 2, 1e-12)
    assert abs(1 / mpmath.sqrt(2) * 2.5 - 2.5 ** 2) > 1
    lines = diagnosis("x^3/3", "1/√2 x")
    assert len(lines) == 2
    # (nan just where 2x < 0: the points drawn with x < 0, however many)
    assert lines[0].startswith("the expectation is nan at the ")
    assert " points with x < 0, where d/dx is finite" in lines[0]
    assert lines[1].startswith("the expectation was read as written: 1/√2 x: ")
    assert lines[1].endswith("; read the other way, it differs too")


def test_a_held_factor_the_chain_rule_left_out_is_its_constant_factor():
    # a = 3: f = sin(a) sin(u), u = x sin(a); ∂f/∂x = sin(a)^2 cos(u), and the expectation
    # sin(a) cos(u) is ∂f/∂u: the chain rule's ∂u/∂x = sin(a) is missing, which makes it
    # 1/sin(3) times ∂f/∂x (said after the rule, as sin(2x)'s written cos(2x) is ×1/2)
    a = mpmath.mpf(3)
    for x in (0.7, -2.2):
        truth = mpmath.diff(lambda s: mpmath.sin(a) * mpmath.sin(s * mpmath.sin(a)), x)
        written = mpmath.sin(a) * mpmath.cos(x * mpmath.sin(a))
        assert mpmath.almosteq(written, truth / mpmath.sin(a), 1e-10)
    c = mpmath.nstr(1 / mpmath.sin(a), 12)
    assert diagnosis("sin(a)*sin(x*sin(a))", "sin(a)*cos(x*sin(a))", "--wrt", "x",
                     "--at", "a=3") == [
        "this is the derivative of f with respect to u = x*sin(a) (the argument of sin); the "
        "chain rule's factor ∂u/∂x is missing",
        f"×{c} everywhere: the expectation is {c} times ∂/∂x at every point"]
