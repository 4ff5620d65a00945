"""adcli check below float64's normal range: what rounding is allowed there.

Below 2^-1022 float64's spacing is one unit, 2^-1074, whatever the size, so a step that
rounds into it is off by half a unit (a faithful libm's under one), not by ulps of the
smallest normal. e^-740 is 84.8 units: a correct evaluation of -e^-x there is within a
unit or so, and -1.1 e^-x is 8 units off. A bound of 8 units a step let that 10% slip
pass as "within the rounding error of the formulas" (exit 0).

The truths are mpmath's (60 digits, at the exact binary value of each point); the float64
numbers of the expectations are numpy's own evaluation of the same formula, so each case
is first shown to be what it claims: the wrong expectations many units off the truth,
the right ones within a unit or two.
"""
from __future__ import annotations

import mpmath
import numpy as np
import pytest

import adcli
from conftest import run_cli

UNIT = 2.0 ** -1074


def units_off(value: float, truth) -> float:
    """|value - truth| in units of 2^-1074."""
    with mpmath.workdps(60):
        return float(abs(mpmath.mpf(value) - truth) / mpmath.mpf(UNIT))


def exp_d(x: float):
    """d/dx e^-x = -e^-x, by mpmath."""
    with mpmath.workdps(60):
        return -mpmath.exp(-mpmath.mpf(x))


def x2exp_d(x: float):
    """d/dx x^2 e^-x = (2x - x^2) e^-x, by mpmath's own derivative of x^2 e^-x."""
    with mpmath.workdps(60):
        return mpmath.diff(lambda t: t**2 * mpmath.exp(-t), mpmath.mpf(x))


# f, its derivative (mpmath), a right expectation and a wrong one, each as adcli reads it
# and as numpy computes it in float64
CASES = [
    ("exp(-x)", exp_d,
     ("-exp(-x)", lambda x: -np.exp(-x)),
     ("-1.1*exp(-x)", lambda x: -1.1 * np.exp(-x))),
    ("exp(-x)", exp_d,
     ("-exp(-x)", lambda x: -np.exp(-x)),
     ("-1.3*exp(-x)", lambda x: -1.3 * np.exp(-x))),
    ("x^2*exp(-x)", x2exp_d,
     ("(2x-x^2)*exp(-x)", lambda x: (2 * x - x**2) * np.exp(-x)),
     ("1.1*(2x-x^2)exp(-x)", lambda x: 1.1 * ((2 * x - x**2) * np.exp(-x)))),
    ("x^2*exp(-x)", x2exp_d,
     ("x*(2-x)*exp(-x)", lambda x: x * (2 - x) * np.exp(-x)),
     ("1.1*x*(2-x)*exp(-x)", lambda x: 1.1 * x * (2 - x) * np.exp(-x))),
]
IDS = [f"{f} {wrong[0]}" for f, _, _, wrong in CASES]


@pytest.mark.parametrize("f, truth, right, wrong", CASES, ids=IDS)
def test_a_wrong_factor_differs_below_the_normal_range(f, truth, right, wrong):
    """The wrong one differs at 740 (it matched, 'within the rounding error'); the right
    one matches there and over 736:744, where every point is below the normal range.
    First, the case is what it claims: at 740 the truth is subnormal, the right float64
    number within rounding of it, the wrong one not (at least 8 units and 5% off)."""
    t = truth(740.0)
    size = float(abs(t) / mpmath.mpf(UNIT))
    assert size < 2.0 ** 52     # (below 2^-1022)
    assert units_off(right[1](740.0), t) < 0.01 * size + 2
    assert units_off(wrong[1](740.0), t) > max(8.0, 0.05 * size)
    assert adcli.check(f, wrong[0], at={"x": 740.0}).verdict == "differs"
    assert adcli.check(f, right[0], at={"x": 740.0}).verdict == "matches"
    over = adcli.check(f, right[0], domain={"x": (736.0, 744.0)})
    assert over.verdict == "matches" and over.counted >= 5


def test_the_testers_command_exits_1():
    code, out, err = run_cli("check", "exp(-x)", "-1.1*exp(-x)", "--at", "x=740",
                             "--format", "plain")
    assert code == 1, out + err
    assert out.startswith("differs"), out
    assert "within the rounding error" not in out


@pytest.mark.parametrize("wrong", ["1.1*exp(-x)", "1.05*exp(-x)"])
def test_an_identity_off_by_a_factor_differs_at_740(wrong):
    """At --order 0, e^-740 against 1.1 e^-740 (93 units against 85) and 1.05 e^-740
    (89 against 85): float64's e^-740 is within half a unit of the truth."""
    assert units_off(float(np.exp(-740.0)), -exp_d(740.0)) <= 0.5
    assert adcli.check("exp(-x)", wrong, order=0, at={"x": 740.0}).verdict == "differs"
    assert adcli.check("exp(-x)", "exp(-x)", order=0, at={"x": 740.0}).verdict == "matches"


# ----- the words (tester 3's finding 9) ---------------------------------------------------

def test_a_point_lost_below_the_normal_range_is_not_called_cancellation():
    """e^-x at 740..746 is 85 units down to 1: what leaves no digit is that float64 keeps
    few there, not a subtraction (there is none)."""
    code, out, err = run_cli("check", "exp(-x)", "-1.1*exp(-x)", "--domain", "x=740:746",
                             "--format", "plain")
    lost = [line for line in out.splitlines() if "points not counted" in line]
    assert lost, out
    assert all("below float64's normal range" in line for line in lost), out
    assert "cancellation" not in out


def test_an_identity_refused_does_not_ask_for_its_derivative():
    """At --order 0 f itself is compared: x^2 and x*x at 1e-200 are both 0 by underflow."""
    code, out, err = run_cli("check", "x^2", "x*x", "--at", "x=1e-200", "--order", "0")
    assert code == 2
    assert "at none of the 1 point given are f and the expectation both finite" in err, err
    assert "derivative" not in err
    code, out, err = run_cli("check", "x^2", "x*x", "--domain", "x=1e-200:1e-199",
                             "--order", "0")
    assert code == 2
    assert "random points have f and the expectation both finite" in err, err
    assert "derivative" not in err


def test_differences_that_do_not_settle_on_a_subnormal_f_say_so():
    """x^2 at 1e-162..2e-162 is 2 units of 2^-1074 or less (mpmath): its differences
    cannot settle, and the note says why, not only that."""
    with mpmath.workdps(30):
        assert mpmath.mpf(2e-162) ** 2 < 2 * mpmath.mpf(UNIT)
    code, out, err = run_cli("check", "x^2", "--domain", "x=1e-162:2e-162", "--format", "plain")
    assert code == 1
    assert out.splitlines()[0] == "cannot tell: finite differences do not settle at the 30 " \
                                  "points checked", out
    assert ("note: 30 points not counted: finite differences do not settle there: f is below "
            "float64's normal range (2.2e-308) there, where it keeps fewer digits") in out, out
