"""grad --order N (adcli/taylor.py), a numerical analyst's findings:

1. A point alone got other bits than the same point among others (tanh(x)'s f^(12) at
   -2.88 was 2 ulps off alone): numpy sums a row of one point's products (a Taylor rule's
   Cauchy product, over axis 0 of shape (k, 1)) in another order than a row of several
   points. A single point is now swept as two copies of it, and a point redone or
   searched alone (among points that need no redo) as well; every point gets the bits it
   gets among others.
3. exp(x) at -740, order 60 and 64, was 0, unwarned: row 60 is e^-740/60!, below the
   range, and no line x + 2^m t keeps every row in range (the value is subnormal on all of
   them). The highest line on which rows only underflowed now gives the number: 4.2e-322,
   e^-740 to within a unit of 2^-1074, as f^(n) = f is.

Truths by hand, evaluated by mpmath: d^n/dx^n e^(ax) = a^n e^(ax); d^9/dx^9 x^3 log|x| =
-720/x^6 (from the 4th derivative on, 6/x); the others by mpmath.diff at 50 digits.
"""
from __future__ import annotations

import json

import mpmath as mp
import numpy as np
import pytest

import adcli
from adcli.taylor import taylor_derivative, taylor_nth
from conftest import run_cli

mp.mp.dps = 50
UNIT = 2.0**-1074       # a subnormal's error is counted in these (taylor.Nth)

AMONG = [("tanh(x)", 12), ("atan(1/x)+tanh(x)", 12), ("sqrt(x^2+x)", 12),
         ("exp(sin(x))*x^3/(1+x^2)", 9), ("exp(sin(x))*x^3/(1+x^2)", 16),
         ("log(x)*x^3", 9), ("exp(-1/x^2)", 12)]


def _points() -> np.ndarray:
    rng = np.random.default_rng(25)
    return np.concatenate([rng.uniform(-5, 5, 30), 10.0 ** rng.uniform(-7, 3, 30)])


@pytest.mark.parametrize("text, order", AMONG)
def test_a_point_alone_gets_the_bits_it_gets_among_others(text, order):
    e, x = adcli.parse(text), _points()
    with np.errstate(all="ignore"):
        among = taylor_derivative(e, {"x": np.append(x, 1e150)}, "x", order)[:-1]
        alone = np.array([taylor_derivative(e, {"x": p}, "x", order) for p in x])
        paired = np.array([taylor_derivative(e, {"x": [p, 1.0]}, "x", order)[0] for p in x])
    np.testing.assert_array_equal(alone, among)
    np.testing.assert_array_equal(paired, among)


def test_the_analysts_point_alone_and_in_a_file_of_two(tmp_path):
    # the truth is -183.846833726481128 (mpmath), whose float was given among others only
    x = -2.8804348653760172
    truth = float(mp.diff(mp.tanh, mp.mpf(x), 12))
    shown = []
    for rows in ([x], [x, 1.0]):
        path = tmp_path / f"p{len(rows)}.csv"
        path.write_text("x\n" + "".join(f"{r!r}\n" for r in rows))
        code, out, err = run_cli("grad", "tanh(x)", "--order", "12", "--points", str(path),
                                 "--format", "csv", "--no-header")
        assert code == 0 and err == ""
        shown.append(float(out.splitlines()[0].split(",")[2]))
    assert shown[0] == shown[1] == truth


def test_sqrt_at_a_small_point_alone_as_beside_a_huge_one():
    e, x = adcli.parse("sqrt(x^2+x)"), 9.247363478393665e-07
    truth = mp.diff(lambda t: mp.sqrt(t * t + t), mp.mpf(x), 12)
    alone = e.derivative("x", 12, x=x)
    beside = e.derivative("x", 12, x=np.array([x, 1e150]))[0]
    assert alone == beside
    assert alone == pytest.approx(float(truth), rel=1e-13)


def test_a_point_redone_from_backward_alone_as_among_others():
    # log x at x < 0 is nan, x^3 log x's rows are redone there: -720/x^6 at order 9
    e, x = adcli.parse("log(x)*x^3"), -3.5584038728036624
    with np.errstate(all="ignore"):
        got = [taylor_derivative(e, {"x": v}, "x", 9)[0]
               for v in ([x], [x, 1.0], [x, -1.0], [0.1, 4.5, x][::-1])]
    assert got[0] == got[1] == got[2] == got[3]
    assert got[0] == pytest.approx(float(-720 / mp.mpf(x) ** 6), rel=1e-14)


def test_a_point_searched_alone_as_among_others():
    # exp(-1/x^2) at 0.0369 is 1.3e-319: its sweep is searched along x + 2^m t
    e, x = adcli.parse("exp(-1/x^2)"), 0.03688629504554334
    got = [taylor_nth(e, {"x": v}, "x", 9).derivative[0]
           for v in ([x], [x, 1.0], [x, x], [x, 0.5, 0.7])]
    assert got[0] == got[1] == got[2] == got[3]
    truth = mp.diff(lambda t: mp.exp(-1 / t**2), mp.mpf(x), 9)
    assert got[0] == pytest.approx(float(truth), rel=1e-12)


@pytest.mark.parametrize("text, at, order, truth", [
    ("exp(x)", -740, 55, mp.exp(-740)), ("exp(x)", -740, 60, mp.exp(-740)),
    ("exp(x)", -740, 64, mp.exp(-740)), ("exp(x)", -735, 64, mp.exp(-735)),
    ("exp(x)-1", -740, 64, mp.exp(-740)), ("2*exp(x)", -740, 64, 2 * mp.exp(-740)),
    ("exp(-x)", 740, 64, mp.exp(-740)), ("exp(-x)", 740, 61, -mp.exp(-740)),
])
def test_a_subnormal_derivative_of_high_order_is_its_value(text, at, order, truth):
    got = taylor_nth(adcli.parse(text), {"x": float(at)}, "x", order)
    assert abs(float(got.derivative) - truth) <= UNIT
    assert not got.lost


def test_exp_at_minus_740_order_64_on_the_command_line():
    code, out, err = run_cli("grad", "exp(x)", "--at", "x=-740", "--order", "64",
                             "--format", "plain")
    assert (code, out.split(), err) == (0, ["4.2e-322", "4.2e-322"], "")


def test_a_normal_number_from_a_line_that_underflowed_is_said_to_be_unsure():
    # 1e300 e^x at -740, order 60: the truth is 4.19e-22; e^-740 keeps 7 bits on every
    # line. It was 0 along x + t, and nothing said of the derivative
    code, out, err = run_cli("grad", "1e300*exp(x)", "--at", "x=-740", "--order", "60",
                             "--format", "plain")
    assert code == 0
    assert "d60/dx60 at 1 of 1 point" in err and "may be wrong" in err
    truth = float(mp.mpf(10)**300 * mp.exp(-740))
    assert float(out.split()[1]) == pytest.approx(truth, rel=0.01)


@pytest.mark.parametrize("order", [4, 5, 6, 7, 8])
def test_a_root_at_a_tiny_point_overflows_to_its_signed_infinity(order):
    # d^k/dx^k x^(1/3) = (1/3)(1/3 - 1)...(1/3 - k + 1) x^(1/3 - k): at 1e-300 beyond
    # float64, signed as the falling factorial (orders 6 and up were nan: 0·inf in the rows)
    import math

    sign = math.copysign(1.0, math.prod(1 / 3 - i for i in range(order)))
    code, out, err = run_cli("grad", "cbrt(x)", "--at", "x=1e-300", "--order", str(order),
                             "--format", "json")
    assert code == 0 and "overflowed" in err
    assert float(json.loads(out)["points"][0]["derivative"]) == sign * math.inf
