"""adcli check's diagnoses (round 22): a factor in the other variables dropped, as if it
vanished (x^2·y's ∂/∂x written 2x), and an expectation that reads otherwise than likely
meant, wrong either way, with what is wrong with it read the other way.

Each premise (the expectation is ∂f/∂x over the factor, the other reading keeps the
exponent) is checked by hand derivation with mpmath, never against adcli's output.
"""
from __future__ import annotations

import mpmath
import pytest

import adcli
from conftest import run_cli


def diagnosis(*argv) -> list[str]:
    code, out, _ = run_cli("check", *argv, "--format", "plain")
    assert code == 1
    return [line.removeprefix("diagnosis: ") for line in out.splitlines()
            if line.startswith("diagnosis: ")]


def partial_x(f, x, y, z=1):
    return mpmath.diff(lambda s: f(s, y, z), x)


# ----- 1. a factor free of x dropped ----------------------------------------------------------

@pytest.mark.parametrize("f, g, df_over_g, words", [
    # ∂/∂x (x^2 y) = 2xy = y·2x
    ("x^2*y", "2x", lambda x, y, z: y,
     "this drops the factor y: for ∂/∂x, y is a constant factor, and it stays "
     "(∂/∂x ((x^2)*y) = y·(2*x))"),
    # ∂/∂x (x^2 sin y) = 2x sin y
    ("x^2*sin(y)", "2x", lambda x, y, z: mpmath.sin(y),
     "this drops the factor sin(y): for ∂/∂x, sin(y) is a constant factor, and it stays "
     "(∂/∂x ((x^2)*sin(y)) = sin(y)·(2*x))"),
    # ∂/∂x (x^2 y^3) = 2x y^3
    ("x^2*y^3", "2x", lambda x, y, z: y ** 3,
     "this drops the factor y^3: for ∂/∂x, y^3 is a constant factor, and it stays "
     "(∂/∂x ((x^2)*(y^3)) = y^3·(2*x))"),
    # ∂/∂x (x^2 y z) = 2xyz: both y and z dropped
    ("x^2*y*z", "2x", lambda x, y, z: y * z,
     "this drops the factors y and z: for ∂/∂x, y and z are constant factors, and they "
     "stay (∂/∂x (((x^2)*y)*z) = y·z·(2*x))"),
    # ∂/∂x (x^2 y / z) = 2xy/z: the divisor z dropped
    ("x^2*y/z", "2x*y", lambda x, y, z: 1 / z,
     "this drops the factor 1/z: for ∂/∂x, 1/z is a constant factor, and it stays "
     "(∂/∂x (((x^2)*y)/z) = 1/z·((2*x)*y))"),
])
def test_a_factor_in_the_other_variables_dropped_is_named(f, g, df_over_g, words):
    function = {"x^2*y": lambda x, y, z: x ** 2 * y,
                "x^2*sin(y)": lambda x, y, z: x ** 2 * mpmath.sin(y),
                "x^2*y^3": lambda x, y, z: x ** 2 * y ** 3,
                "x^2*y*z": lambda x, y, z: x ** 2 * y * z,
                "x^2*y/z": lambda x, y, z: x ** 2 * y / z}[f]
    written = {"2x": lambda x, y, z: 2 * x, "2x*y": lambda x, y, z: 2 * x * y}[g]
    for x, y, z in ((0.7, -1.3, 2.1), (-2.2, 0.4, -0.6)):
        assert mpmath.almosteq(partial_x(function, x, y, z),
                               df_over_g(x, y, z) * written(x, y, z), 1e-12)
    assert diagnosis(f, g, "--wrt", "x") == [words]


def test_a_dropped_factor_at_second_order():
    # ∂²/∂x² (x^3 y) = 6xy; 6x drops y
    assert mpmath.almosteq(mpmath.diff(lambda s: s ** 3 * 1.5, 0.8, 2), 6 * 0.8 * 1.5, 1e-12)
    assert diagnosis("x^3*y", "6x", "--wrt", "x", "--order", "2") == [
        "this drops the factor y: for ∂²/∂x², y is a constant factor, and it stays "
        "(∂²/∂x² ((x^3)*y) = y·(6*x))"]


def test_a_dropped_factor_given_by_name():
    # --expect x=2x for x^2 y: the factor y dropped (not ∂²f/∂x∂y = 2x, a coincidence)
    assert diagnosis("x^2*y", "--expect", "x=2x") == [
        "this drops the factor y: for ∂/∂x, y is a constant factor, and it stays "
        "(∂/∂x ((x^2)*y) = y·(2*x))"]


def test_a_held_function_of_a_parameter_is_named_not_its_value():
    # ∂/∂x (sin(a) x^2) = 2x sin(a); 2x is that over sin(3) = 0.14112, for a = 3.75 too
    assert mpmath.almosteq(1 / mpmath.sin(3), mpmath.mpf("7.086167395737186"), 1e-12)
    lines = diagnosis("sin(a)*x^2", "2x", "--wrt", "x", "--at", "a=3")
    assert lines == ["this drops the factor sin(a): for ∂/∂x, sin(a) is a constant factor, "
                     "and it stays (∂/∂x (sin(a)*(x^2)) = sin(a)·(2*x))"]


def test_a_held_parameter_is_said_once():
    # ∂/∂x (a x^2) = 2ax: 2x is 1/a of it: the parameter's ×1/a alone, not twice
    assert diagnosis("a*x^2", "2x", "--wrt", "x", "--at", "a=3") == [
        "×1/a everywhere: the expectation is 1/a times ∂/∂x at every point (a = 3)"]


def test_a_factor_equal_by_chance_is_not_said_dropped():
    # ∂/∂x (a x^2) = 2ax; a x is half of it for every a: at a = 2 it is 1/a, by chance
    lines = diagnosis("a x^2", "a x", "--at", "a=2")
    assert lines == ["×1/2 everywhere: the expectation is 1/2 times ∂/∂x at every point"]


@pytest.mark.parametrize("f, g", [
    ("x^2*y + x", "2x"),      # ∂/∂x = 2xy + 1: 2x·y is not it
    ("x^2*y + x", "2x + 1"),  # a term's factor, not f's: 2xy + 1 ≠ y(2x + 1)
])
def test_no_dropped_factor_where_it_does_not_hold(f, g):
    x, y = 0.7, -1.3
    truth = 2 * x * y + 1
    written = 2 * x + (1 if "+ 1" in g else 0)
    assert abs(truth - y * written) > 0.1
    assert not any("drops the factor" in line for line in diagnosis(f, g, "--wrt", "x"))


def test_the_right_partial_still_matches():
    assert adcli.check("x^2*y", "2*x*y", wrt="x").verdict == "matches"


# ----- 2. read the other way, what is wrong with it then ------------------------------------

def test_the_other_reading_keeps_the_exponent():
    # d/dx x^(-1/2) = -1/2 x^(-3/2): (-1/2)·x^(-1/2) keeps the exponent -1/2
    x = mpmath.mpf("1.7")
    assert mpmath.almosteq(mpmath.diff(lambda s: s ** mpmath.mpf(-0.5), x),
                           -x ** mpmath.mpf(-1.5) / 2, 1e-12)
    lines = adcli.check("x^(-1/2)", "-1/2 x^(-1/2)").diagnosis
    assert lines[-1].startswith("the expectation was read as written: (-1)/2 x^((-1)/2): ")
    assert lines[-1].endswith(
        "; read the other way, ((-1)/2)*x^((-1)/2), it differs too: this keeps the exponent "
        "of x^((-1)/2): the power rule lowers it by one, d(u^(-1/2))/dx = "
        "-1/2·u^(-3/2)·(du/dx), not -1/2·u^(-1/2)·(du/dx), for u = x")
    assert sum("read the other way" in line for line in lines) == 1


def test_the_other_reading_off_by_a_constant_factor():
    # (x^3/3)' = x^2: (1/2)·x^2 is half of it
    assert mpmath.almosteq(mpmath.diff(lambda s: s ** 3 / 3, 1.3), 1.3 ** 2, 1e-12)
    (line,) = adcli.check("x^3/3", "1/2 x^2").diagnosis
    assert line.endswith("; read the other way, (1/2)*x^2, it differs too: ×1/2 everywhere: "
                         "the expectation is 1/2 times d/dx at every point")


def test_the_other_reading_with_nothing_to_say_is_said_as_before():
    # (x^3)' = 3x^2: neither 1/(2 cos x) nor (1/2) cos x, and no slip explains either
    (line,) = adcli.check("x^3", "1/2 cos x").diagnosis
    assert line.endswith("write 1/2*cos(x); read the other way, it differs too")
