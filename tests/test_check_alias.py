"""adcli check without an expectation where f turns within a few ulps of x.

sin's period, 2 pi, is 12.6 ulps at 3.7e15 (ulp 0.5) and under one ulp above 2^55 (ulp 8).
The ladders' steps there (841 ulps and up) each span many turns: the central differences
alias the oscillation, and the extrapolation settles near 0 with a small error (1.4e-9 +-
5.5e-9 at 3.7e15, where the derivative cos(x) is -0.0481), while no finer step exists
to refute it. adcli's cos(x) is right; the differences witness nothing there, and the
point must not be counted, never reported as a disagreement blamed on adcli.

What would refute such an estimate: if f is smooth at the scale of the step H the estimate
settled at, the differences over 1, 2, 4, ... ulps up to 2H (exact, centred steps) lie
within the estimate's error, their rounding, and the truncation its own model allows at
those steps (|D(H) - estimate| (s/H)^2). At 3.7e15 the difference over one ulp is
cos(x) sin(0.5)/0.5 = -0.046 (hand: the central difference of sin over h is
cos(x) sin(h)/h), 0.046 from the estimate against an allowance of 5.5e-8.

Where the differences do resolve f, a wrong derivative rule is still caught. Every expected
derivative here is from mpmath at the float x, in 60 digits.
"""
from __future__ import annotations

import re

import mpmath
import numpy as np
import pytest

import adcli
from adcli import functions
from conftest import run_cli

DERIVATIVES = {
    "sin": mpmath.cos,
    "cos": lambda z: -mpmath.sin(z),
    "tan": lambda z: mpmath.sec(z) ** 2,
}
PER_DECADE = 16


def plain(*argv):
    return run_cli("check", *argv, "--format", "plain")


def reference(name: str, x) -> np.ndarray:
    """name's derivative at each float x, in 60 digits."""
    with mpmath.workdps(60):
        return np.array([float(DERIVATIVES[name](mpmath.mpf(float(v)))) for v in x])


def per_decade(low: int, high: int, seed: int) -> np.ndarray:
    """PER_DECADE points log-uniform in each decade 10^low .. 10^high, either sign."""
    rng = np.random.default_rng(seed)
    return np.concatenate([rng.choice([-1.0, 1.0], PER_DECADE)
                           * 10.0 ** rng.uniform(d, d + 1, PER_DECADE)
                           for d in range(low, high)])


# ----- the reported case ---------------------------------------------------------------------

def test_the_reported_point_is_not_blamed_on_adcli():
    # cos(3.7e15) = -0.048080057138583812 (mpmath): AD has it
    true = reference("sin", [3.7e15])[0]
    assert abs(true + 0.048080057138583812) < 1e-16
    result = adcli.check("sin(x)", at={"x": [3.7e15, 1.3]})
    t = result.targets[0]
    assert abs(t.ad[0] - true) <= 1e-15 * abs(true)
    assert list(t.status) == ["skipped", "match"], (t.fd, t.fd_error)
    assert t.why[0] == "finite differences do not settle there"
    assert (result.verdict, result.exit_code, result.counted, result.differing) == \
        ("matches", 0, 1, 0)
    assert result.notes == ["1 point not counted: finite differences do not settle there"]


def test_the_reported_command_tells_nothing_and_blames_no_one():
    # the one point given is not counted: as for any point whose differences do not settle
    # (exp(x) at 1e-20), "cannot tell" saying so, exit 1 (not bad input, nor "disagree")
    code, out, err = plain("sin(x)", "--at", "x=3.7e15")
    assert (code, err) == (1, ""), (code, out, err)
    assert out.splitlines() == [
        "cannot tell: finite differences do not settle at the 1 point checked",
        "note: 1 point not counted: finite differences do not settle there"], out


def test_a_point_that_resolves_beside_it_is_counted():
    # 1.7 and 1e12 + 0.25 resolve (cos(x) to 1e-8 or better); 3.7e15 does not
    code, out, err = run_cli("check", "sin(x)", "--points", "-", "--format", "plain",
                             stdin="x\n1.7\n3.7e15\n1000000000000.25\n")
    assert (code, err) == (0, ""), (out, err)
    lines = out.splitlines()
    assert lines[0].startswith("adcli's derivative agrees with finite differences for d/dx "
                               "at 2/2 points"), out
    assert "note: 1 point not counted: finite differences do not settle there" in lines


def test_an_estimate_over_one_ulp_is_refuted_by_the_difference_over_two():
    # x = 9.511175787001176e16, an ulp of 16: sin turns 2.5 times per ulp. A ladder of
    # steps 2, 1, 0 ulps settles on the difference over one ulp, cos(x) sin(16)/16 =
    # -0.01799 (mpmath; cos(x) = 0.99984), with an error of 1.2e-5; over two ulps it is
    # cos(x) sin(32)/32 = +0.01720, outside that error by far
    x = 9.511175787001176e16
    result = adcli.check("sin(x)", at={"x": [x, 1.3]})
    t = result.targets[0]
    assert abs(t.ad[0] - reference("sin", [x])[0]) <= 1e-15
    assert (list(t.status), result.differing) == (["skipped", "match"], 0), (t.fd, t.fd_error)


# ----- sin, cos and tan at points per decade, 1e12 .. 1e17 ----------------------------------

@pytest.mark.parametrize("name", sorted(DERIVATIVES))
@pytest.mark.parametrize("seed", [1, 2])
def test_large_x_agrees_with_a_right_ad_or_is_not_counted(name, seed):
    x = per_decade(12, 17, seed)
    result = adcli.check(f"{name}(x)", at={"x": x})
    t = result.targets[0]
    true = reference(name, x)
    assert np.all(np.abs(t.ad - true) <= 1e-13 * np.abs(true))       # AD is right
    differs = t.status == "differs"
    assert not differs.any(), list(zip(x[differs], t.fd[differs], t.fd_error[differs],
                                       true[differs]))
    assert set(t.status) <= {"match", "skipped"}
    assert result.differing == 0 and not any("disagree" in n for n in result.notes)
    # a match is an honest one: the differences are within their error of the truth
    match = t.status == "match"
    off = np.abs(t.fd - true) > np.maximum(1e-8 * np.abs(true), 10 * t.fd_error)
    assert not np.any(match & off), list(zip(x[match & off], t.fd[match & off],
                                             t.fd_error[match & off], true[match & off]))


@pytest.mark.parametrize("name", sorted(DERIVATIVES))
def test_where_the_steps_resolve_f_the_points_are_counted(name):
    # 1e10 .. 1e13: sin's period is 2.6e4 ulps and more; the differences resolve it and
    # nearly every point counts (not counting is no way out where they can tell)
    x = per_decade(10, 13, 3)
    t = adcli.check(f"{name}(x)", at={"x": x}).targets[0]
    assert np.mean(t.status == "match") >= 0.9, list(zip(x[t.status != "match"],
                                                         t.why[t.status != "match"]))


# ----- a wrong derivative is still caught where the differences resolve f -------------------

def _off(cls, factor):
    """cls's rule (sin: cos; cos: -sin; tan: 1 + tan^2) times ``factor``."""
    rules = {
        functions.Sin: lambda self, gy: factor * gy * functions.op.cos(self.inputs[0]),
        functions.Cos: lambda self, gy: -factor * gy * functions.op.sin(self.inputs[0]),
        functions.Tan: lambda self, gy: factor * gy * (1.0 + self.y * self.y),
    }
    return rules[cls]


@pytest.mark.parametrize("x", [1e8 + 0.5, 1e12 + 0.25, -3e9])
def test_a_sin_rule_off_by_1e_6_differs_at_large_x(monkeypatch, x):
    right = adcli.check("sin(x)", at={"x": x})
    assert (right.verdict, right.counted) == ("matches", 1), right.summary
    monkeypatch.setattr(functions.Sin, "backward", _off(functions.Sin, 1 + 1e-6))
    wrong = adcli.check("sin(x)", at={"x": x})
    assert (wrong.verdict, wrong.differing) == ("differs", 1), wrong.summary


@pytest.mark.parametrize("name, cls", [("sin", functions.Sin), ("cos", functions.Cos),
                                       ("tan", functions.Tan)])
def test_a_rule_off_by_1e_6_differs_wherever_a_right_one_was_counted(monkeypatch, name, cls):
    # wherever a right rule matched with differences good to well within 1e-6, a rule off
    # by 1e-6 must differ: refuting coarse estimates must not hide a wrong one
    x = per_decade(8, 14, 4)
    t = adcli.check(f"{name}(x)", at={"x": x}).targets[0]
    resolved = (t.status == "match") & (10 * t.fd_error <= 0.5e-6 * np.abs(t.fd))
    monkeypatch.setattr(cls, "backward", _off(cls, 1 + 1e-6))
    wrong = adcli.check(f"{name}(x)", at={"x": x}).targets[0].status
    missed = resolved & (wrong != "differs")
    assert resolved.sum() >= 70 and not missed.any(), (resolved.sum(), x[missed])


# ----- where AD's own rounding bound swallows both values --------------------------------
# sin(1e15 x) at x = 1.7: 1e15 * 1.7 rounds (an ulp of 0.25 at 1.7e15), and sin turns
# within a few of them, so adcli's 1e15 cos(1e15 x), 9.0e14, may have no digit left; the
# differences (-3.76) "agreed" with it within that bound: relative difference 1, "agrees".

def test_agreeing_only_within_ads_rounding_bound_is_not_counted():
    code, out, err = run_cli("check", "sin(1e15*x)", "--at", "x=1.7")
    assert code == 1
    assert "cannot tell: rounding may leave no digit of adcli's d/dx at the 1 point " \
        "checked" in out
    assert "agrees" not in out and "1 point not counted: no digit of adcli's derivative " \
        "may be left there" in re.sub(r"\s+", " ", out)
    result = adcli.check("sin(1e15*x)", at={"x": 1.7})
    assert (result.verdict, result.counted, result.skipped) == ("cannot tell", 0, 1)


def test_points_whose_digits_are_left_are_still_counted_beside_them():
    result = adcli.check("sin(x^2)", at={"x": np.array([1.0, 3e7, 6e7])})
    assert list(result.status) == ["match", "skipped", "skipped"]
    assert result.verdict == "matches" and result.counted == 1
    assert float(result.targets[0].ad[0]) == pytest.approx(2 * np.cos(1.0), rel=1e-15, abs=0)


def test_a_wrong_rule_is_still_caught_where_digits_are_left(monkeypatch):
    monkeypatch.setattr(functions.Sin, "backward", _off(functions.Sin, 1 + 1e-6))
    result = adcli.check("sin(x^2)", at={"x": np.array([1.0, 6e7])})
    assert list(result.status) == ["differs", "skipped"]
