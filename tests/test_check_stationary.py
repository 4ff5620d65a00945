"""adcli check, without an expectation, at a stationary point that is not a symmetric one.

At x = 1, x^3 - 3x has f'(1) = 3 - 3 = 0, but f is not symmetric about 1: its central
differences are D(h) = (f(1+h) - f(1-h)) / 2h = h^2 (by hand), which Richardson
extrapolation drives to 0. Differences that converge to 0 never settle under a relative
criterion (an error within 1e-3 of a value of 0), and the check said "cannot tell". They
bound |f'| as vanishing ones do (test_check_flat.py): AD agrees where it is 0 to within its
own rounding, differs where it is beyond the bound (a wrong rule is still caught), and in
between nothing is counted.

Also: the expectation in --format json, as the user wrote it minus LaTeX's notes.

Every derivative below is worked out by hand in the comments.
"""
from __future__ import annotations

import numpy as np
import pytest

import adcli
from conftest import adcli_on_terminal, run_cli, strict_json, words, wrong_identity

AGREE = "adcli's derivative agrees with finite differences for "
CONVERGE = "the central differences of f converge to 0"


def plain(*argv):
    return run_cli("check", *argv, "--format", "plain")


# (f, the point): each f'(point) = 0 by hand, and f is not symmetric about the point
STATIONARY = [
    ("x^3-3*x", {"x": 1.0}),            # 3x^2 - 3 = 0; D(h) = h^2
    ("x^3-3*x", {"x": -1.0}),           # 3x^2 - 3 = 0; D(h) = h^2
    ("exp(x)-x", {"x": 0.0}),           # e^0 - 1 = 0; D(h) = sinh(h)/h - 1
    ("cos(x)+x^3", {"x": 0.0}),         # -sin 0 + 0 = 0; D(h) = h^2 (cos is even)
    ("(x-2)^2*(x+1)", {"x": 2.0}),      # 2(x-2)(x+1) + (x-2)^2 = 0; D(h) = h^2
]
PLAIN_F = {"x^3-3*x": lambda x: x ** 3 - 3 * x, "exp(x)-x": lambda x: np.exp(x) - x,
           "cos(x)+x^3": lambda x: np.cos(x) + x ** 3,
           "(x-2)^2*(x+1)": lambda x: (x - 2) ** 2 * (x + 1)}


def at_option(point: dict) -> str:
    return ",".join(f"{v}={x!r}" for v, x in point.items())


@pytest.mark.parametrize("f, point", STATIONARY)
def test_the_points_are_stationary_and_not_symmetric(f, point):
    # (the premise, in plain numpy: the central differences do not vanish, so the flat
    # rule, for f symmetric about x or constant, does not apply; they shrink as h^2)
    g, x = PLAIN_F[f], point["x"]
    d = [(g(x + h) - g(x - h)) / (2 * h) for h in (0.25, 0.125)]
    assert abs(d[0]) > 1e-3 and abs(d[1]) < 0.3 * abs(d[0]), d


@pytest.mark.parametrize("f, point", STATIONARY)
def test_a_stationary_point_agrees_0_within_rounding(f, point):
    code, out, err = plain(f, "--at", at_option(point))
    assert (code, err) == (0, ""), (code, out, err)
    first = out.splitlines()[0]
    assert first.startswith(AGREE + "d/dx at 1/1 points"), out
    assert "0 to within rounding" in first and "converging to 0" in first, out
    assert "not counted" not in out and "symmetric" not in out, out


@pytest.mark.parametrize("f, point", STATIONARY)
def test_a_stationary_point_in_the_api_bounds_the_derivative_honestly(f, point):
    result = adcli.check(f, at={v: [x] for v, x in point.items()})
    t = result.targets[0]
    assert (result.verdict, result.counted, list(t.status)) == ("matches", 1, ["match"])
    # f' = 0 by hand: AD is exactly 0 here (each term is exact at these points)
    assert t.ad[0] == 0.0
    # the bound on |f'| is honest (at least the true 0) and small: 1e-6 is a thousandth of
    # the least slope f shows beside these points (|f(x +- 1/4) - f(x)| / (1/4) >= 0.13)
    assert 0.0 <= t.fd_error[0] <= 1e-6, t.fd_error
    assert t.fd[0] == 0.0 and t.flat[0] > 0
    note = next(n for n in result.notes if CONVERGE in n)
    assert "AD is exactly 0" in note, note


def test_a_partial_at_a_stationary_point_in_x():
    # f = x^3 y - 3 x y: ∂f/∂x = 3x^2 y - 3y = 0 at x = 1 (any y); ∂f/∂y = x^3 - 3x = -2
    result = adcli.check("x^3*y - 3*x*y", at={"x": [1.0], "y": [2.0]})
    dx, dy = result.targets
    assert (result.verdict, result.counted) == ("matches", 1), result.summary
    assert (dx.ad[0], list(dx.status)) == (0.0, ["match"])
    assert np.isfinite(dx.flat[0]) and not np.isfinite(dy.flat[0])
    assert abs(dy.ad[0] - (-2.0)) <= 1e-15 and list(dy.status) == ["match"]


def test_a_second_derivative_at_its_zero():
    # f = x^4/12 - x^2/2: f'' = x^2 - 1 = 0 at 1; what is differenced is f' = x^3/3 - x,
    # whose central differences are h^2/3 (by hand), not 0
    code, out, err = plain("x^4/12 - x^2/2", "--order", "2", "--at", "x=1")
    assert (code, err) == (0, ""), (code, out, err)
    assert out.startswith(AGREE + "d²/dx² at 1/1 points, 0 to within rounding"), out
    assert "central differences of the derivative one order lower" in out, out


def test_the_flat_rule_still_says_vanish_where_they_vanish():
    # x^2 - 2x at 1 is symmetric about 1 (f' = 0): the differences vanish at every step
    code, out, err = plain("x^2-2*x", "--at", "x=1")
    assert code == 0 and "vanish" in out and "converg" not in out, out


def test_both_kinds_of_0_in_one_check():
    # x^3 - 3x at 1 and -1 (f' = 0: the differences converge to 0), at 0 and 2 (f' = -3
    # and 9: they settle on it)
    result = adcli.check("x^3-3*x", at={"x": [1.0, -1.0, 0.0, 2.0]})
    t = result.targets[0]
    # f' = 3x^2 - 3: 0, 0, -3, 9 by hand
    assert np.allclose(t.ad, [0.0, 0.0, -3.0, 9.0], rtol=1e-15, atol=0)
    assert (result.verdict, result.counted) == ("matches", 4), result.summary
    assert "0 to within rounding at 2 more" in result.summary, result.summary
    assert "converge to 0" in result.summary, result.summary


# ----- a wrong rule at a stationary point still differs ------------------------------------------

@pytest.fixture
def off(registered):
    """checkstat_off(x): x, whose backward rule is wrong by a factor 1.001."""
    return wrong_identity(registered, "checkstat_off", 1.001)


@pytest.fixture
def barely(registered):
    """checkstat_barely(x): x, whose backward rule is wrong by a factor 1 + 1e-12."""
    return wrong_identity(registered, "checkstat_barely", 1.0 + 1e-12)


@pytest.mark.parametrize("f, x, wrong", [
    ("x^3-3*checkstat_off(x)", 1.0, 3 - 3 * 1.001),     # f' = 0; AD 3 - 3.003 = -0.003
    ("x^3-3*checkstat_off(x)", -1.0, 3 - 3 * 1.001),    # f' = 0; AD -0.003
    ("exp(x)-checkstat_off(x)", 0.0, 1 - 1.001),        # f' = 0; AD 1 - 1.001 = -0.001
    ("cos(x)+checkstat_off(x)^3", 0.0, 0.0),            # f' = 0; AD 3 x^2 1.001 = 0: right
])
def test_a_wrong_rule_at_a_stationary_point_differs(off, f, x, wrong):
    result = adcli.check(f, at={"x": [x]})
    t = result.targets[0]
    assert abs(t.ad[0] - wrong) <= 1e-15, t.ad
    if wrong == 0.0:
        assert (result.verdict, list(t.status)) == ("matches", ["match"]), result.summary
        return
    assert (result.verdict, result.differing, result.exit_code) == ("differs", 1, 1)
    code, out, err = plain(f, "--at", f"x={x!r}")
    assert code == 1 and out.startswith("adcli's derivative and finite differences "
                                        "disagree for d/dx at 1 of 1 point"), out
    assert CONVERGE in out and "please report" in out, out


def test_a_rule_wrong_below_the_bound_is_never_a_match(barely):
    # f' = 0 at 1; AD says 3 - 3 (1 + 1e-12) = -3e-12: not 0 within its rounding (~1e-14),
    # and below what the differences can resolve: not counted, never "agrees"
    result = adcli.check("x^3-3*checkstat_barely(x)", at={"x": [1.0]})
    t = result.targets[0]
    assert abs(t.ad[0] + 3e-12) <= 1e-15, t.ad
    assert (result.verdict, list(t.status)) == ("cannot tell", ["skipped"]), result.summary
    assert "converge to 0" in t.why[0] and "cannot tell it from 0" in t.why[0], t.why


def test_a_feature_below_f_s_rounding_is_not_blamed_on_adcli():
    # f'(1) = 0 + 1e-16 * 1e6 * sech^2(0) = 1e-10 (by hand), AD says so; the feature is
    # below f's rounding at every step the ladders take: cannot tell, never "disagree",
    # and any bound given is at least the true 1e-10
    f = "x^3-3*x+1e-16*tanh(1e6*(x-1))"
    result = adcli.check(f, at={"x": [1.0]})
    t = result.targets[0]
    assert abs(t.ad[0] - 1e-10) <= 1e-16
    assert (result.verdict, result.differing) == ("cannot tell", 0), result.summary
    assert not (t.fd_error[0] < 1e-10), t.fd_error
    code, out, err = plain(f, "--at", "x=1")
    assert code == 1 and "please report" not in out and "disagree" not in out, out


@pytest.mark.parametrize("expected, code, verdict", [
    ("3*x^2-3", 0, "matches"),          # f' = 3x^2 - 3: right
    ("3*x^2-3+1e-3", 1, "differs"),     # off by 1e-3 at the stationary point
    ("3*x^2", 1, "differs"),            # 3 where f' = 0
])
def test_an_expectation_at_a_stationary_point(expected, code, verdict):
    run = plain("x^3-3*x", expected, "--at", "x=1")
    assert run[0] == code and run[1].startswith(verdict), run
    assert "please report" not in run[1], run


def test_the_settling_rule_still_cannot_tell_where_f_turns_within_ulps():
    # sin at 3.7e15 (cos(x) = -0.048 there, f turning every few ulps): unchanged
    code, out, err = plain("sin(x)", "--at", "x=3.7e15")
    assert code == 1 and out.startswith("cannot tell: finite differences do not settle")


# ----- on the terminal and in JSON ----------------------------------------------------------

@pytest.mark.parametrize("columns", [40, 80, 120])
def test_a_stationary_point_on_the_terminal(columns):
    code, rows = adcli_on_terminal(columns, "check", "x^3-3*x", "--at", "x=1")
    assert code == 0, rows
    said = " ".join(words(rows))
    assert said.startswith("read as: (x^3) - (3*x) " + AGREE), said
    assert "0 to within rounding" in said and "of its terms" in said, said
    assert "converge to 0" in said and "symmetric" not in said, said


def test_a_stationary_point_as_json():
    code, out, err = run_cli("check", "x^3-3*x", "--at", "x=1", "--format", "json")
    found = strict_json(out)
    assert (code, found["verdict"], found["counted"]) == (0, "matches", 1)
    (point,) = found["points"]
    d = point["derivatives"]["x"]
    assert (d["ad"], d["finite_difference"], d["relative_difference"]) == (0.0, 0.0, 0.0)


# ----- the expectation in JSON, as written minus LaTeX's notes -------------------------------

@pytest.mark.parametrize("argv, shown", [
    (["f'(x) = 2x \\quad\\text{(power rule)}"], "2x"),
    (["f'(x) &= 2x && \\text{by hand} \\\\"], "2x"),
    (["$f'(x) = 2x$"], "2x"),
    (["f'(x) = 2 x  +  0 \\label{eq:1}"], "2 x  +  0"),     # the user's own spacing kept
    (["f'(x) =  2x"], "2x"),
    (["2x \\label{a}"], "2x"),
    (["2x \\label{a} + 0"], "2x + 0"),
    (["2x  +  0"], "2x  +  0"),
    (["--expect", "x=2 x  \\label{a}"], "2 x"),
    (["--expect", "x=2*x"], "2*x"),
])
def test_the_expectation_in_json_is_as_written_without_notes(argv, shown):
    code, out, err = run_cli("check", "x^2", *argv, "--at", "x=1", "--format", "json")
    assert code == 0, (code, out, err)
    (check,) = strict_json(out)["checks"]
    assert check["expected"] == {"expression": shown, "parsed": check["expected"]["parsed"]}
