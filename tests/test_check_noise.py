"""adcli check where f's own rounding is larger than its change over a few ulps of x.

cos(3x) at 1.1e14: 3x rounds by up to 0.03 (an ulp of 0.0625 at 3.3e14) and cos turns
every 2.1, 134 ulps of x (0.0156). The ladders' steps (1e3 and up) alias the turns and
settle near 0; the differences over 1 .. 512 ulps carry f's rounding divided by the step,
which their tenfold allowance swallowed, so nothing refuted the estimate and adcli's right
-3 sin(3x) was called a disagreement. Over 32 ulps, though, f's values differ by O(1)
while a smooth f of slope ~0 would have them equal within f's rounding (0.6 at most, the
bound adcli's rounding allowances use): the estimate is refuted and the point not counted.
Every expected derivative here is from mpmath at the float x, in 60 digits.
"""
from __future__ import annotations

import mpmath
import numpy as np
import pytest

import adcli
from adcli import functions
from conftest import run_cli


def plain(*argv):
    return run_cli("check", *argv, "--format", "plain")


def cos3(x) -> np.ndarray:
    """-3 sin(3x) at each float x, with adcli's rounded product 3x (as AD takes it)."""
    with mpmath.workdps(60):
        return np.array([float(-3 * mpmath.sin(mpmath.mpf(3.0 * float(v)))) for v in x])


def sin_xy(x, y: float) -> np.ndarray:
    """d/dx sin(x*y) = y cos(x*y), with adcli's rounded product x*y (as AD takes it)."""
    with mpmath.workdps(60):
        return np.array([float(y * mpmath.cos(mpmath.mpf(float(v) * y))) for v in x])


# ----- the reported commands ---------------------------------------------------------------

def test_cos_3x_at_the_reported_point_is_not_a_disagreement():
    x = 110680150663577.56
    assert abs(cos3([x])[0] + 2.98441129613308730) < 1e-15
    code, out, err = plain("cos(3x)", "--at", f"x={x!r}")
    # as for any point whose differences do not settle: "cannot tell", exit 1
    assert (code, err) == (1, ""), (code, out, err)
    assert out.startswith("cannot tell: finite differences do not settle at the 1 point "
                          "checked\n") and "disagree" not in out, out
    result = adcli.check("cos(3x)", at={"x": [x, 1.3]})
    t = result.targets[0]
    assert abs(t.ad[0] - cos3([x])[0]) <= 1e-14
    assert list(t.status) == ["skipped", "match"], (t.fd, t.fd_error)
    assert (result.verdict, result.differing) == ("matches", 0)


def test_cos_3x_over_a_domain_has_no_disagreement():
    # nowhere do the differences witness anything: where AD's rounding leaves digits, f's
    # rounding hides its turns from every step; a verdict of "cannot tell" (exit 1)
    code, out, err = plain("cos(3x)", "--domain", "x=1e14:4e15", "--samples", "1000")
    assert "disagree" not in out + err, (code, out, err)
    assert out.startswith("cannot tell") and code == 1, (code, out, err)


def test_sin_x_squared_at_the_reported_point_is_not_a_disagreement():
    # x^2 = 308.85e12 rounds (an ulp of 0.0625); 2x cos(x^2) of that rounded x^2 is AD's
    x = 17573805.504049875
    with mpmath.workdps(60):
        true = float(2 * mpmath.mpf(x) * mpmath.cos(mpmath.mpf(x * x)))
    result = adcli.check("sin(x^2)", at={"x": [x, 1.3]})
    t = result.targets[0]
    assert abs(t.ad[0] - true) <= 1e-14 * abs(true) and abs(true + 31823386) < 1
    assert result.differing == 0 and t.status[0] != "differs", (t.fd, t.fd_error)
    code, out, err = plain("sin(x^2)", "--at", f"x={x!r}")
    # as for any point whose differences do not settle: "cannot tell", exit 1
    assert (code, err) == (1, ""), (code, out, err)
    assert out.startswith("cannot tell: finite differences do not settle at the 1 point "
                          "checked\n") and "disagree" not in out, out


# ----- seeded sweeps: never a false disagreement --------------------------------------------

@pytest.mark.parametrize("seed", [1, 2])
def test_cos_3x_at_large_x_never_differs(seed):
    rng = np.random.default_rng(seed)
    x = rng.choice([-1.0, 1.0], 60) * 10.0 ** rng.uniform(12, 16, 60)
    result = adcli.check("cos(3x)", at={"x": x})
    t = result.targets[0]
    differs = t.status == "differs"
    assert not differs.any(), list(zip(x[differs], t.ad[differs], t.fd[differs]))
    assert np.all(np.abs(t.ad - cos3(x)) <= 1e-13 * 3)


@pytest.mark.parametrize("y", [3.0, 1e5, 0.37])
def test_sin_xy_with_large_products_never_differs(y):
    rng = np.random.default_rng(7)
    x = rng.choice([-1.0, 1.0], 60) * 10.0 ** rng.uniform(13, 15, 60) / y
    result = adcli.check("sin(x*y)", at={"x": x, "y": np.full(60, y)}, wrt="x")
    t = result.targets[0]
    differs = t.status == "differs"
    assert not differs.any(), list(zip(x[differs], t.ad[differs], t.fd[differs]))
    match = t.status == "match"
    true = sin_xy(x, y)
    assert np.all(np.abs(t.fd - true)[match] <= np.maximum(1e-6 * np.abs(true),
                                                             10 * t.fd_error)[match])


# ----- guards: ordinary points are counted, wrong rules caught --------------------------------

@pytest.mark.parametrize("f, x", [
    ("sin(x)", 1.0), ("sin(x)", 1e8 + 0.5), ("exp(x)", 700.0), ("tan(x)", 1.5707963),
    ("1/(x-1e8)", 1e8 + 1e-3), ("log(x)", 1e15), ("cos(3x)", 1e8 + 0.25),
    ("sin(x*y)", 12345.678)])
def test_ordinary_points_are_counted(f, x):
    at = {"x": [x], "y": [1.7]} if "y" in f else {"x": [x]}
    result = adcli.check(f, at=at, wrt="x")
    assert (result.verdict, result.counted) == ("matches", 1), result.summary


def test_a_cos_rule_off_by_1e_6_differs_wherever_a_right_one_was_counted(monkeypatch):
    # wherever the differences resolved a right rule to well within 1e-6, one off by 1e-6
    # must differ: refuting estimates by f's values must not hide a wrong rule
    rng = np.random.default_rng(5)
    x = rng.choice([-1.0, 1.0], 120) * 10.0 ** rng.uniform(0, 12, 120)
    t = adcli.check("cos(3x)", at={"x": x}).targets[0]
    resolved = (t.status == "match") & (10 * t.fd_error <= 0.5e-6 * np.abs(t.fd))
    monkeypatch.setattr(functions.Cos, "backward",
                        lambda self, gy: -(1 + 1e-6) * gy * functions.op.sin(self.inputs[0]))
    wrong = adcli.check("cos(3x)", at={"x": x}).targets[0].status
    missed = resolved & (wrong != "differs")
    assert resolved.sum() >= 40 and not missed.any(), (resolved.sum(), x[missed])
