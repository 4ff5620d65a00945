"""adcli check's "why not" for three more slips (README "Check a derivation"): the
expectation is 1/f' (the inverse-function rule upside down), f'/f (logarithmic
differentiation not multiplied back by f), or, at order 2, (f')^2.

Each table row is worked out by hand and checked against mpmath here (its derivatives at
a few points, to 30 digits), so a wrong row fails on its own; the words are the claim's
as designed, compared whole.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import mpmath as mp
import numpy as np
import pytest

import adcli
from conftest import run_cli, run_in_pty

RECIPROCAL = ("the expectation is 1/({d}f/{d}x) at every point: the reciprocal of the "
              "derivative, as if the inverse-function rule were turned upside down")
LOGARITHMIC = ("the expectation is {d}/{d}x {ln} = ({d}f/{d}x)/f at every point: logarithmic "
               "differentiation, not yet multiplied by f ({f})")
SQUARE = ("the expectation is ({d}f/{d}x)² at every point, not {d}²f/{d}x²: the second "
          "derivative is the derivative of the first, not its square")
# a phrase of each claim: none may appear where its claim does not hold
PHRASES = ("the reciprocal of the derivative", "logarithmic differentiation", "not its square")

mp.mp.dps = 30
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


def d(f, x, n=1):
    return mp.diff(f, mp.mpf(x), n)


def relation(kind, f, x):
    """What the expectation is at x, for each claim, by mpmath."""
    if kind == "reciprocal":
        return 1 / d(f, x)
    if kind == "logarithmic":
        return d(f, x) / f(mp.mpf(x))
    return d(f, x) ** 2


def assert_by_hand(kind, f, e, xs):
    """The row's expectation e is the claim's function of f at each x (mpmath)."""
    for x in xs:
        want = relation(kind, f, x)
        assert mp.almosteq(e(mp.mpf(x)), want, rel_eps=mp.mpf(10) ** -20), (kind, x)


def not_by_hand(kind, f, e, xs):
    """The expectation is not the claim's function of f at some x (mpmath)."""
    return any(not mp.almosteq(e(mp.mpf(x)), relation(kind, f, x), rel_eps=1e-6)
               for x in xs)


# ----- 1. the reciprocal ----------------------------------------------------------------

RECIPROCALS = [
    # f, expectation (1/f' by hand), f and the expectation for mpmath, points inside
    ("asin(x)", "sqrt(1-x^2)", mp.asin, lambda x: mp.sqrt(1 - x**2), (-0.7, 0.2, 0.9)),
    ("ln(x)", "x", mp.log, lambda x: x, (0.3, 2, 40)),
    ("atan(x)", "1 + x^2", mp.atan, lambda x: 1 + x**2, (-3, 0.5, 7)),
    ("x^2", "1/(2x)", lambda x: x**2, lambda x: 1 / (2 * x), (-2, 0.3, 5)),
    ("sin(x)", "1/cos(x)", mp.sin, lambda x: 1 / mp.cos(x), (-1, 0.4, 2)),
    # e^x: f' = f, so 1/f' is 1/f too; no other claim explains e^(-x), and this is said
    ("exp(x)", "exp(-x)", mp.exp, lambda x: mp.exp(-x), (-3, 0.1, 4)),
]


@pytest.mark.parametrize("f, expected, f_mp, e_mp, xs", RECIPROCALS)
def test_the_reciprocal_of_the_derivative_is_said(f, expected, f_mp, e_mp, xs):
    assert_by_hand("reciprocal", f_mp, e_mp, xs)
    result = adcli.check(f, expected)
    assert (result.verdict, result.diagnosis) == ("differs", [RECIPROCAL.format(d="d")])


def test_the_reciprocal_of_a_partial_is_said_with_partials():
    # ∂/∂x (x^2 y) = 2xy, so 1/(2xy) is its reciprocal
    assert_by_hand("reciprocal", lambda x: x**2 * 3, lambda x: 1 / (2 * x * 3), (0.5, -2))
    result = adcli.check("x^2*y", "1/(2x y)", wrt="x")
    assert result.diagnosis == [RECIPROCAL.format(d="∂")]


def test_the_reciprocal_at_a_grid_through_a_zero_of_f_prime():
    """f' = 2x is 0 at x = 0, where 1/(2x) is infinite: that point is not counted (the
    expectation is not finite there), and at the others and the 30 random ones it is 1/f'."""
    result = adcli.check("x^2", "1/(2x)", at={"x": np.array([-2.0, -1.0, 0.0, 1.0, 2.0])})
    assert (result.counted, result.diagnosis) == (4, [RECIPROCAL.format(d="d")])


# ----- 2. logarithmic differentiation, not multiplied by f --------------------------------

LOGARITHMIC_ROWS = [
    # ln(x^x) = x ln x; ln(x^sin x) = sin x ln x; ln(x/(x^2+1)) = ln x - ln(x^2+1)
    ("x^x", "ln(x) + 1", lambda x: x**x, lambda x: mp.log(x) + 1, (0.2, 1.5, 30), "x^x"),
    ("x^sin(x)", "cos(x) ln(x) + sin(x)/x", lambda x: x ** mp.sin(x),
     lambda x: mp.cos(x) * mp.log(x) + mp.sin(x) / x, (0.2, 1.5, 30), "x^sin(x)"),
    ("x/(x^2+1)", "1/x - 2x/(x^2+1)", lambda x: x / (x**2 + 1),
     lambda x: 1 / x - 2 * x / (x**2 + 1), (0.2, 1.5, 30), "x/((x^2) + 1)"),
]


@pytest.mark.parametrize("f, expected, f_mp, e_mp, xs, written", LOGARITHMIC_ROWS)
def test_logarithmic_differentiation_not_multiplied_back_is_said(f, expected, f_mp, e_mp,
                                                                  xs, written):
    assert_by_hand("logarithmic", f_mp, e_mp, xs)
    result = adcli.check(f, expected, domain={"x": (0.01, 50)})     # f > 0 there
    assert (result.verdict, result.diagnosis) == (
        "differs", [LOGARITHMIC.format(d="d", ln="ln f", f=written)])


@pytest.mark.parametrize("upper, ln", [(3.0, "ln f"), (6.0, "ln|f|")])
def test_ln_has_bars_where_f_is_negative(upper, ln):
    """x sin x > 0 for 0 < x < π, and < 0 for π < x < 2π: d/dx ln|x sin x| = 1/x + cot x."""
    xs = np.linspace(0.5, upper, 12)
    assert_by_hand("logarithmic", lambda x: x * mp.sin(x), lambda x: 1 / x + mp.cot(x), xs)
    result = adcli.check("x sin x", "1/x + cot(x)", at={"x": xs})
    assert result.diagnosis == [LOGARITHMIC.format(d="d", ln=ln, f="x*sin(x)")]


def test_logarithmic_differentiation_of_a_partial_is_said_with_partials():
    # ln(x^(x y)) = x y ln x: ∂/∂x = y ln x + y (y = 2 below, for mpmath)
    assert_by_hand("logarithmic", lambda x: x ** (2 * x), lambda x: 2 * mp.log(x) + 2, (0.3, 3))
    result = adcli.check("x^(x*y)", "y ln(x) + y", wrt="x",
                         domain={"x": (0.01, 5), "y": (0.5, 3)})
    assert result.diagnosis == [LOGARITHMIC.format(d="∂", ln="ln f", f="x^(x*y)")]


def test_f_prime_over_f_allows_for_the_rounding_of_f():
    """(e^x - 1)·e^x keeps few digits near 0 (at x = 1e-8, e^x - 1 is cancelled from 1:
    ~1e-8 relative), f' = e^(2x) + (e^x - 1)e^x does not; f'/f = 1 + e^x/(e^x - 1), written
    with expm1, is right to the last digits, and f'/f carries f's rounding: still f'/f."""
    f_mp = lambda x: (mp.exp(x) - 1) * mp.exp(x)     # noqa: E731
    e_mp = lambda x: 1 + mp.exp(x) / mp.expm1(x)     # noqa: E731
    assert_by_hand("logarithmic", f_mp, e_mp, (1e-9, 3e-8, 1e-7))
    result = adcli.check("(exp(x) - 1)*exp(x)", "1 + exp(x)/expm1(x)",
                         domain={"x": (1e-9, 1e-7)})
    assert result.diagnosis == [LOGARITHMIC.format(d="d", ln="ln f",
                                                   f="(exp(x) - 1)*exp(x)")]


# ----- 3. (f')^2 for f'' ------------------------------------------------------------------

SQUARES = [
    ("x^3", "9x^4", lambda x: x**3, lambda x: 9 * x**4, (-2, 0.5, 3)),
    ("sin(x)", "cos(x)^2", mp.sin, lambda x: mp.cos(x) ** 2, (-2, 0.5, 3)),
    # e^x: (f')^2 = e^(2x) (f'' = e^x)
    ("exp(x)", "exp(2x)", mp.exp, lambda x: mp.exp(2 * x), (-2, 0.5, 3)),
    ("1/x", "1/x^4", lambda x: 1 / x, lambda x: x ** -4, (-2, 0.5, 3)),
]


@pytest.mark.parametrize("f, expected, f_mp, e_mp, xs", SQUARES)
def test_the_square_of_the_first_derivative_for_the_second_is_said(f, expected, f_mp, e_mp,
                                                                    xs):
    assert_by_hand("square", f_mp, e_mp, xs)
    result = adcli.check(f, expected, order=2)
    assert (result.verdict, result.diagnosis) == ("differs", [SQUARE.format(d="d")])


def test_the_square_of_a_partial_is_said_with_partials():
    # ∂/∂x (x^2 y^3) = 2x y^3, squared 4x^2 y^6 (y = 2 below, for mpmath)
    assert_by_hand("square", lambda x: x**2 * 8, lambda x: 4 * x**2 * 64, (0.5, -2))
    result = adcli.check("x^2 y^3", "4x^2 y^6", wrt="x", order=2)
    assert result.diagnosis == [SQUARE.format(d="∂")]


# ----- what is none of these --------------------------------------------------------------

NONE_OF_THEM = [
    # f, expectation, order, both for mpmath: none is 1/f', f'/f or (f')^2 at every point,
    # but for the cases test_the_none_table_holds_the_cases_it_says lists
    # right: no diagnosis at all
    ("asin(x)", "1/sqrt(1-x^2)", 1, mp.asin, lambda x: 1 / mp.sqrt(1 - x**2)),
    ("x^x", "x^x (ln(x) + 1)", 1, lambda x: x**x, lambda x: x**x * (mp.log(x) + 1)),
    ("x^3", "6x", 2, lambda x: x**3, lambda x: 6 * x),
    ("exp(x)", "exp(x)", 2, mp.exp, mp.exp),
    # f' = 1 and -1: 1/f' is f' itself, and f'/f = ±1/f, which no one takes logarithms for
    ("x + 1", "1/(x + 1)", 1, lambda x: x + 1, lambda x: 1 / (x + 1)),
    ("2 - x", "-1/(2 - x)", 1, lambda x: 2 - x, lambda x: -1 / (2 - x)),
    ("x + 1", "2", 1, lambda x: x + 1, lambda x: 2),
    ("2 - x", "1", 1, lambda x: 2 - x, lambda x: 1),
    # f' constant: 1/2 is 1/f' for 2x, and 9 (f')^2 for 3x, but two constants are no clue
    ("2x", "1/2", 1, lambda x: 2 * x, lambda x: mp.mpf(1) / 2),
    ("3x", "9", 2, lambda x: 3 * x, lambda x: 9),
    # e^x: f'/f = 1, a constant: said as nothing (it is "only the inside" as well)
    ("exp(x)", "1", 1, mp.exp, lambda x: 1),
    # a multiple of the reciprocal, or of the square, is neither; and a power of a
    # constant exponent is no one's logarithmic differentiation (2/x is d/dx ln(x^2))
    ("1/x", "x^2", 1, lambda x: 1 / x, lambda x: x**2),
    ("x^2", "2/x", 1, lambda x: x**2, lambda x: 2 / x),
    ("x^3", "3x^4", 2, lambda x: x**3, lambda x: 3 * x**4),
    ("x^3", "3/x", 1, lambda x: x**3, lambda x: 3 / x),
    # at order 1, (u')^2 for f = u^2 is a chain-rule matter; (f')^2 itself is nothing
    ("(x^2+1)^2", "4x^2", 1, lambda x: (x**2 + 1) ** 2, lambda x: 4 * x**2),
    ("x^3", "9x^4", 1, lambda x: x**3, lambda x: 9 * x**4),
    # unrelated slips
    ("x^2", "2x + 1", 1, lambda x: x**2, lambda x: 2 * x + 1),
    ("sin(x)", "-cos(x)", 1, mp.sin, lambda x: -mp.cos(x)),
    ("sin(x)", "-cos(x)^2", 2, mp.sin, lambda x: -mp.cos(x) ** 2),
    ("x sin x", "sin(x) + cos(x)", 1, lambda x: x * mp.sin(x), lambda x: mp.sin(x) + mp.cos(x)),
    ("x^x", "x x^(x-1)", 1, lambda x: x**x, lambda x: x * x ** (x - 1)),
]
POINTS = (0.3, 0.55, 0.8)


def kinds(order):
    return ("square",) if order == 2 else ("reciprocal", "logarithmic")


@pytest.mark.parametrize("f, expected, order, f_mp, e_mp", NONE_OF_THEM)
def test_none_of_these_claims_where_none_holds(f, expected, order, f_mp, e_mp):
    right = all(mp.almosteq(mp.mpf(e_mp(mp.mpf(x))), d(f_mp, x, order), rel_eps=1e-20)
                for x in POINTS)
    result = adcli.check(f, expected, order=order)
    assert not [c for c in result.diagnosis if any(p in c for p in PHRASES)], result.diagnosis
    if right:
        assert (result.verdict, result.diagnosis) == ("matches", [])
    elif f in ("2x", "3x", "exp(x)") and expected in ("1/2", "9", "1"):
        assert result.diagnosis == []      # two constants: no claim at all


def test_the_none_table_holds_the_cases_it_says():
    """The rows above that are 1/f', f'/f or (f')^2, by mpmath: the test above tests the
    guards on them, and the other rows are none of the three."""
    holds = {(f, e, k) for f, e, order, f_mp, e_mp in NONE_OF_THEM for k in kinds(order)
             if not not_by_hand(k, f_mp, lambda x, e_mp=e_mp: mp.mpf(e_mp(x)), POINTS)}
    assert holds == {("x + 1", "1/(x + 1)", "logarithmic"),
                     ("2 - x", "-1/(2 - x)", "logarithmic"),
                     ("2x", "1/2", "reciprocal"), ("3x", "9", "square"),
                     ("exp(x)", "1", "logarithmic"), ("x^2", "2/x", "logarithmic"),
                     ("x^3", "3/x", "logarithmic")}


@pytest.mark.parametrize("f, expected, order, kind", [
    # |x|' = sign(x) = 1/sign(x); (-ln x)'' = 1/x^2 = ((-ln x)')^2
    ("abs(x)", "x/abs(x)*(1+1e-12)", 1, "reciprocal"),
    ("-ln(x)", "1/x^2*(1+1e-12)", 2, "square"),
])
def test_a_near_match_under_a_tight_rtol_is_not_turned_over(f, expected, order, kind):
    """Where 1/f' or (f')^2 is f^(n) itself, an expectation 1e-12 off differs under
    rtol=1e-14, and is within the claims' tolerance of both: it is no slip of the three."""
    f_mp = (lambda x: abs(x)) if order == 1 else (lambda x: -mp.log(x))
    assert_by_hand(kind, f_mp, (lambda x: 1 / x**2) if order == 2 else
                   (lambda x: mp.sign(x)), (-0.5, 2) if order == 1 else (0.5, 2))
    result = adcli.check(f, expected, order=order, rtol=1e-14)
    assert result.verdict == "differs"
    assert not [c for c in result.diagnosis if any(p in c for p in PHRASES)], result.diagnosis


def test_both_turned_over_at_once_is_neither():
    """f = x·(x/4): f' = x/2, so 1/f' = 2/x and f'/f = (x/2)/(x^2/4) = 2/x: which slip it
    was cannot be told, and neither is said."""
    f_mp, e_mp = (lambda x: x * (x / 4)), (lambda x: 2 / x)
    assert_by_hand("reciprocal", f_mp, e_mp, (0.5, 3))
    assert_by_hand("logarithmic", f_mp, e_mp, (0.5, 3))
    assert not [c for c in adcli.check("x*(x/4)", "2/x").diagnosis
                if any(p in c for p in PHRASES)]


@pytest.mark.parametrize("f, expected, order, kind, f_mp, e_mp, other", [
    # x^2/4 at order 2: (f')^2 = x^2/4 = f
    ("x^2/4", "x^2/4", 2, "square", lambda x: x**2 / 4, lambda x: x**2 / 4,
     "the expectation is f itself at every point, not d²/dx²: nothing was differentiated"),
    # (2x)^(3/2)/3: f' = (2x)^(1/2), so 1/f' = (2x)^(-1/2) = f''
    ("(2x)^(3/2)/3", "(2x)^(-1/2)", 1, "reciprocal", lambda x: (2 * x) ** 1.5 / 3,
     lambda x: (2 * x) ** -0.5, "the expectation is d²/dx² at every point, not d/dx: "
                                "differentiated one time too many"),
])
def test_another_order_wins_over_a_turned_over_derivative(f, expected, order, kind, f_mp,
                                                          e_mp, other):
    assert_by_hand(kind, f_mp, e_mp, (0.5, 3))
    assert adcli.check(f, expected, order=order).diagnosis == [other]


def test_a_sign_error_wins_over_the_square():
    """ln's f'' = -1/x^2 and (f')^2 = 1/x^2: 1/x^2 is both -f'' and (f')^2; the sign error
    is said, alone."""
    assert_by_hand("square", mp.log, lambda x: 1 / x**2, (0.5, 3))
    assert adcli.check("ln(x)", "1/x^2", order=2).diagnosis == [
        "×-1 everywhere: a sign error (the expectation is -d²/dx² at every point)"]


def test_a_rule_that_explains_the_expectation_wins_over_f_prime_over_f():
    """e^(x^2)'s derivative written 2x is f'/f, but the slip is exp's factor left out; and
    sqrt(x)'s written 1/(2x) is f'/f, but sqrt's rule is the one misremembered."""
    assert_by_hand("logarithmic", lambda x: mp.exp(x**2), lambda x: 2 * x, (0.5, 3))
    assert_by_hand("logarithmic", mp.sqrt, lambda x: 1 / (2 * x), (0.5, 3))
    for f, expected, rule in (("exp(x^2)", "2x", "the factor exp'(u) is missing"),
                              ("sqrt(x)", "1/(2x)", "this differentiates sqrt(x) as 1/(2x)")):
        (said,) = adcli.check(f, expected).diagnosis
        assert said.startswith(rule), said


# ----- what a user sees -------------------------------------------------------------------

@pytest.mark.parametrize("argv, line", [
    (("ln(x)", "x"), RECIPROCAL.format(d="d")),
    (("x^x", "ln(x)+1"), LOGARITHMIC.format(d="d", ln="ln f", f="x^x")),
    (("x^3", "9x^4", "--order", "2"), SQUARE.format(d="d")),
])
def test_the_cli_says_the_claim_and_exits_1(argv, line):
    code, out, err = run_cli("check", *argv, "--format", "plain")
    assert (code, err) == (1, "")
    assert f"diagnosis: {line}" in out.splitlines()


@pytest.mark.parametrize("columns", [40, 80, 120])
@pytest.mark.parametrize("argv, line", [
    (("x^x", "ln(x)+1"), LOGARITHMIC.format(d="d", ln="ln f", f="x^x")),
    (("x^2*y", "1/(2x y)", "--wrt", "x"), RECIPROCAL.format(d="∂")),
    (("x^3", "9x^4", "--order", "2"), SQUARE.format(d="d")),
])
def test_on_a_terminal_the_claim_is_folded_between_words(columns, argv, line):
    """On a terminal `columns` wide: the diagnosis, its words all there, in rows that fit."""
    root = Path(__file__).resolve().parent.parent
    env = {k: v for k, v in os.environ.items()
           if k not in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "PYTHONIOENCODING")}
    env.update(PYTHONUTF8="1", TERM="xterm-256color", PYTHONPATH=str(root))
    code, text, _ = run_in_pty([sys.executable, "-m", "adcli", "check", *argv], env, columns,
                               rows=200, stdin=subprocess.DEVNULL)
    rows = ANSI.sub("", text).rstrip("\n").split("\n")
    assert code == 1
    assert max(len(r) for r in rows) <= columns
    start = next(i for i, r in enumerate(rows) if r.startswith("diagnosis: "))
    block = [rows[start], *continued(rows[start + 1:])]
    assert " ".join(" ".join(r.split()) for r in block) == f"diagnosis: {line}"


def continued(rows):
    """The diagnosis' rows after its first, however they are folded: up to the next
    heading (a note, another diagnosis, a warning) or the end."""
    for r in rows:
        if not r.strip() or r.startswith(("note: ", "diagnosis: ", "adcli: ")):
            return
        yield r
