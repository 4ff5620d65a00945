"""adcli check, items a tester found: a derivative of exactly 0 reached through an exact 0
factor (2x·e^(x^2) at x = 0) is a value, not "cannot tell"; a 0 made by cancellation is
said as cancellation, not as "below float64's normal range", and the summary names what
lost its digits; the quotient rule's order slip is not said where the numerator is
constant (there are no two terms to swap).

Each row's mathematics is checked against mpmath first, so a wrong row fails on its own.
"""
from __future__ import annotations

import json

import mpmath as mp
import pytest

from conftest import adcli_on_terminal, run_cli, words

mp.mp.dps = 40


def plain(*argv: str) -> tuple[int, str, str]:
    return run_cli("check", *argv, "--format", "plain")


# ----- 1. a 0 reached by multiplying by an exact 0 is exact ----------------------------------

AT_ZERO = [
    # (f, its derivative as written, f and the derivative in mpmath)
    ("e^(x^2)", "2x e^(x^2)", lambda x: mp.e ** (x**2), lambda x: 2 * x * mp.e ** (x**2)),
    ("x^2 sin(x)", "2x sin(x) + x^2 cos(x)", lambda x: x**2 * mp.sin(x),
     lambda x: 2 * x * mp.sin(x) + x**2 * mp.cos(x)),
    ("sqrt(x^2+1)", "x/sqrt(x^2+1)", lambda x: mp.sqrt(x**2 + 1),
     lambda x: x / mp.sqrt(x**2 + 1)),
    ("x^2 cos(x)", "2x cos(x) - x^2 sin(x)", lambda x: x**2 * mp.cos(x),
     lambda x: 2 * x * mp.cos(x) - x**2 * mp.sin(x)),
    ("sin(x)^2", "2 sin(x) cos(x)", lambda x: mp.sin(x) ** 2,
     lambda x: 2 * mp.sin(x) * mp.cos(x)),
    ("x^2", "2x", lambda x: x**2, lambda x: 2 * x),
    ("ln(1+x^2)", "2x/(1+x^2)", lambda x: mp.log(1 + x**2), lambda x: 2 * x / (1 + x**2)),
]


def _right(f_mp, d_mp) -> bool:
    """The row's derivative is f's (at 0 and elsewhere), and 0 at 0."""
    return d_mp(mp.mpf(0)) == 0 and abs(mp.diff(f_mp, 0)) < 1e-30 and all(
        mp.almosteq(mp.diff(f_mp, x), d_mp(x), 1e-25) for x in (mp.mpf("0.3"), mp.mpf(-1.7)))


@pytest.mark.parametrize("f, g, f_mp, d_mp", AT_ZERO, ids=[r[0] for r in AT_ZERO])
def test_a_right_derivative_at_a_stationary_point_matches(f, g, f_mp, d_mp):
    assert _right(f_mp, d_mp)
    code, out, err = plain(f, g, "--at", "x=0")
    # (the verdict; where f is tiny about 0 its differences do not settle, said after ";")
    assert (code, out.split(";")[0].rstrip("\n"), err) == (
        0, "matches d/dx at 1/1 points, largest relative difference 0", "")


@pytest.mark.parametrize("f, g, f_mp, d_mp", AT_ZERO, ids=[r[0] for r in AT_ZERO])
def test_a_grid_through_the_stationary_point_counts_it(f, g, f_mp, d_mp):
    code, out, _ = plain(f, g, "--grid", "x=-2:2:5")
    assert code == 0 and out.startswith("matches d/dx at 5/5 points"), out
    assert "not counted" not in out


def test_a_wrong_factor_matches_at_the_stationary_point_and_is_caught_elsewhere():
    # 3x e^(x^2) is 0 at x = 0 as f' is: at that point alone they do match; over the
    # other points of a grid, and at random points, it is 3/2 f'
    f_mp = lambda x: mp.e ** (x**2)     # noqa: E731
    assert abs(mp.diff(f_mp, 0)) < 1e-30 and mp.almosteq(mp.diff(f_mp, 1), 2 * mp.e, 1e-25)
    code, out, _ = plain("e^(x^2)", "3x e^(x^2)", "--at", "x=0")
    lines = out.splitlines()
    assert lines[0] == "matches d/dx at 1/1 points, largest relative difference 0"
    assert lines[1].startswith("note: it matches at your 1 point only, not at ")
    code, out, _ = plain("e^(x^2)", "3x e^(x^2)", "--grid", "x=-2:2:5")
    assert code == 1 and out.startswith("differs from d/dx at 4 of 5 points\n"), out


def test_a_cancelled_zero_times_a_number_is_still_no_value():
    # sin(x) - x at 1e-9 is 0 in float64 (really -x^3/6 = -1.7e-28); 5 times it is no
    # exact 0: a factor 5 of tan(x) - x (3.3e-28) cannot be told from rounding there
    x = mp.mpf("1e-9")
    assert mp.almosteq(mp.sin(x) - x, -x**3 / 6, 1e-15)
    code, out, _ = plain("5 (sin(x) - x)", "tan(x) - x", "--order", "0", "--at", "x=1e-9")
    assert code == 1 and out.startswith("cannot tell: "), out


# ----- 2. the cause and the subject of a loss are said right ---------------------------------

CANCELLED = ("(cancellation)")
BELOW = "below float64's normal range"


@pytest.mark.parametrize("argv, what", [
    (("sin(x) - x", "tan(x) - x", "--order", "0", "--at", "x=1e-9"), "f"),
    (("sin(x)/x", "(x cos x - sin x)/x^2", "--at", "x=1e-8"), "adcli's derivative"),
    (("x e^x", "e^x + x e^x", "--at", "x=-1"), "adcli's derivative"),
])
def test_a_zero_made_by_cancellation_is_said_as_cancellation(argv, what):
    # the true values are normal floats: sin(x) - x = -1.7e-28, tan(x) - x = 3.3e-28 at
    # 1e-9; (x cos x - sin x)/x^2 = -x/3 = -3.3e-9 at 1e-8; e^x (1 + x) = 0 at -1 exactly,
    # but e^-1 + (-1) e^-1 is computed from a rounded e^-1 (its 0 is a cancellation's)
    x = mp.mpf("1e-9")
    assert abs(mp.sin(x) - x) > 1e-300 and abs(mp.tan(x) - x) > 1e-300
    code, out, _ = plain(*argv)
    assert code == 1
    assert out.startswith(f"cannot tell: rounding leaves no digit of {what} or the "
                          "expectation at the 1 point checked\n"), out
    assert CANCELLED in out and BELOW not in out, out


@pytest.mark.parametrize("columns", [40, 80, 120])
def test_the_loss_on_a_terminal_names_the_derivative_and_the_cause(columns):
    code, rows = adcli_on_terminal(columns, "check", "x e^x", "e^x + x e^x", "--at", "x=-1")
    said = " ".join(words(rows))
    assert code == 1
    assert ("cannot tell: rounding leaves no digit of adcli's derivative or the expectation "
            "at the 1 point checked note: 1 point not counted: ") in said, rows
    assert "(cancellation)" in said and BELOW not in said, rows


def test_values_below_the_normal_range_are_still_said_so():
    # d/dx e^-x = -e^-744 = -1.0e-323, two units of 2^-1074, against e^-744: both values
    # are subnormal
    assert mp.e ** -744 < mp.mpf(2) ** -1022
    code, out, _ = plain("exp(-x)", "exp(-x)", "--at", "x=744")
    assert code == 1 and BELOW in out and "cancellation" not in out, out


# ----- 3. no quotient-rule order slip for a constant numerator -------------------------------

SIGN = "×-1 everywhere: a sign error"


@pytest.mark.parametrize("f, g, f_mp, g_mp", [
    ("1/cos(x)", "-sin(x)/cos(x)^2", lambda x: 1 / mp.cos(x), lambda x: -mp.sin(x) / mp.cos(x)**2),
    ("1/x", "1/x^2", lambda x: 1 / x, lambda x: 1 / x**2),
    ("3/x", "3/x^2", lambda x: 3 / x, lambda x: 3 / x**2),
    ("1/(x^2+1)", "2x/(x^2+1)^2", lambda x: 1 / (x**2 + 1), lambda x: 2 * x / (x**2 + 1)**2),
])
def test_a_constant_numerator_has_no_terms_to_swap(f, g, f_mp, g_mp):
    for x in (mp.mpf("0.3"), mp.mpf("1.1")):    # the expectation is -f' exactly
        assert mp.almosteq(g_mp(x), -mp.diff(f_mp, x), 1e-25)
    code, out, _ = run_cli("check", f, g, "--format", "json")
    assert code == 1
    diagnosis = json.loads(out)["diagnosis"]
    assert len(diagnosis) == 1 and diagnosis[0].startswith(SIGN), diagnosis


def test_a_varying_numerator_still_has_its_order_slip_said():
    # (x/(1+x))' = 1/(1+x)^2; (x - (1+x))/(1+x)^2 = -1/(1+x)^2 is the swapped numerator
    f_mp = lambda x: x / (1 + x)   # noqa: E731
    assert mp.almosteq(mp.diff(f_mp, mp.mpf(2)), 1 / mp.mpf(9), 1e-25)
    code, out, _ = run_cli("check", "x/(1+x)", "(x - (1+x))/(1+x)^2", "--format", "json")
    assert code == 1
    assert any("the quotient rule's numerator" in d for d in json.loads(out)["diagnosis"])


# ----- 4. given points where nothing is finite: which one is not, and why --------------------

def test_given_points_where_f_is_nan_say_f_is_and_why():
    # ln(-2) is not real (nan in float64); 1/x at -2 is -0.5, ln's derivative at -2
    assert mp.almosteq(mp.diff(lambda x: mp.log(-x), -2), -0.5, 1e-25)
    code, out, err = plain("ln(x)", "1/x", "--at", "x=-2")
    assert (code, out) == (2, "") and len(err.splitlines()) == 1
    assert ("all finite (and not 0 by underflow): f is not there, as log gave nan or inf (a "
            "negative argument gives nan, 0 gives -inf); try other points") in err, err
