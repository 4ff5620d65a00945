"""grad --order N's cost grows like a power of N, not exponentially (adcli/taylor.py and
the Taylor rules of adcli/functions.py):

1. datan2 (atan's, acot's and atan2's gradient) and d2atan2 have rules of their own:
   the generic rule, run on backward's graph, nested per row (each one's backward calls
   datan2 and d2atan2 again), 2^K rules for K rows. No primitive's rule runs the generic
   one more than (K + 1)^2 times.
2. A point whose rows overflow (1/x at 1e-300) is redone from backward, whose steps are
   redone from theirs, and so on down: each step now runs once per rows it is given.

Work is counted (calls), not timed; a budget that runs out raises, so that the old code
fails at once instead of running for hours. Truths by hand, evaluated by mpmath:
  atan' = 1/(1 + x^2) = (1/2i) (1/(x - i) - 1/(x + i)), and row j of 1/(a + t) is
  (-1)^j a^-(j+1): row j of atan' at x0 is (-1)^j Im (x0 - i)^-(j+1), and row k of atan
  is row k-1 of atan' over k.
  d^n/dx^n 1/x = (-1)^n n!/x^(n+1); d^n/dx^n log x = (-1)^(n-1) (n-1)!/x^n, and the same
  of log1p at 1 + x.
"""
from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest

import adcli
from adcli import functions, taylor
from adcli.functions import PRIMITIVES

mp.mp.dps = 50
ORDER = 30


class Spent(Exception):
    """The budget of calls ran out."""


def _budget(monkeypatch, module, name: str, calls: int) -> list[int]:
    """Count the calls of module.name; the one past ``calls`` raises Spent."""
    count, original = [0], getattr(module, name)

    def counted(*args, **kwargs):
        count[0] += 1
        if count[0] > calls:
            raise Spent(f"{name} called more than {calls} times")
        return original(*args, **kwargs)
    monkeypatch.setattr(module, name, counted)
    return count


def _line(points, directions, order=ORDER):
    """Series along point + direction t, one per argument, at one point."""
    series = []
    for p, d in zip(points, directions):
        s = np.zeros((order + 1, 1))
        s[0], s[1] = p, d
        series.append(s)
    return series


def _rows(name: str, points, directions, order=ORDER) -> np.ndarray:
    with np.errstate(all="ignore"):
        return PRIMITIVES[name]().taylor(*_line(points, directions, order))[:, 0]


# ----- 1: no rule nests the generic one per row ------------------------------------------

@pytest.mark.parametrize("name", sorted(PRIMITIVES))
def test_no_rule_runs_the_generic_rule_more_than_k_squared_times(name, monkeypatch):
    # (old code: atan 10251 runs at K = 30, atan2, datan2 and d2atan2 2^30)
    cls = PRIMITIVES[name]
    domain = list(cls.domain) + [cls.domain[-1]] * (cls.arity - len(cls.domain))
    points = [lo + 0.37 * (hi - lo) for lo, hi in domain[:cls.arity]]
    count = _budget(monkeypatch, functions, "_taylor_from_backward", (ORDER + 1) ** 2)
    rows = _rows(name, points, [1.0] * cls.arity)
    assert np.isfinite(rows).all(), name
    assert count[0] <= (ORDER + 1) ** 2


def _atan_row(x0: float, k: int):
    """Row k >= 1 of atan along x0 + t, by hand (module docstring)."""
    j = k - 1
    return (-1) ** j * mp.im((mp.mpf(x0) - 1j) ** -(j + 1)) / k


@pytest.mark.parametrize("x0", [0.5, -2.0, 1e-3, 3.0, 17.0])
def test_atan_rows_against_the_closed_form(x0, monkeypatch):
    _budget(monkeypatch, functions, "_taylor_from_backward", 100)
    rows = _rows("atan", [x0], [1.0])
    for k in range(1, ORDER + 1):
        truth = _atan_row(x0, k)
        assert abs((rows[k] - truth) / truth) < 1e-12, (x0, k, rows[k], truth)


@pytest.mark.parametrize("order", [24, 33])
def test_the_reported_atan_command_is_cheap_and_right(order, monkeypatch):
    # grad "atan(x)" --at x=0.5 --order 24: 1 s, order 33: a minute (5688 generic rules at 24)
    count = _budget(monkeypatch, functions, "_taylor_from_backward", 1000)
    shown = float(adcli.parse("atan(x)").nth_derivative("x", order, x=0.5).derivative)
    truth = _atan_row(0.5, order) * mp.factorial(order)
    assert abs((shown - truth) / truth) < 1e-12
    assert count[0] < 1000


TWO = {"datan2": lambda u, v: v / (u * u + v * v),
       "d2atan2": lambda u, v: (u * u - v * v) / (u * u + v * v) ** 2,
       "atan2": mp.atan2}


@pytest.mark.parametrize("name", sorted(TWO))
@pytest.mark.parametrize("points", [(0.5, 1.0), (-2.0, 0.3), (1e-3, 1.0), (3.0, -1.0)])
@pytest.mark.parametrize("directions", [(1.0, 0.0), (0.0, 1.0), (0.7, -0.4)])
def test_two_argument_rows_against_mpmath(name, points, directions, monkeypatch):
    _budget(monkeypatch, functions, "_taylor_from_backward", 100)
    rows = _rows(name, points, directions)
    u, v = (mp.mpf(p) for p in points)
    du, dv = (mp.mpf(d) for d in directions)
    truth = mp.taylor(lambda t: TWO[name](u + du * t, v + dv * t), 0, ORDER)
    for k, (row, want) in enumerate(zip(rows, truth)):
        assert abs((row - want) / want) < 1e-12, (name, points, directions, k, row, want)


@pytest.mark.parametrize("name, degree", [("datan2", 1), ("d2atan2", 2)])
def test_huge_and_tiny_arguments_scale_as_the_function_does(name, degree, monkeypatch):
    # homogeneous of degree -degree: at (2^m u, 2^m v) along 2^m t, row k is 2^(-degree m)
    # times the row at (u, v) along t, to the bit, though u^2 + v^2 leaves the range
    _budget(monkeypatch, functions, "_taylor_from_backward", 100)
    base = _rows(name, [0.75, -0.3], [0.7, -0.4], 12)
    assert np.isfinite(base).all() and (base != 0).all()
    for m in (500, -400):    # (u^2 + v^2)^2 overflows at the one, underflows at the other
        s = 2.0 ** m
        scaled = _rows(name, [0.75 * s, -0.3 * s], [0.7 * s, -0.4 * s], 12)
        np.testing.assert_array_equal(scaled, np.ldexp(base, -degree * m), err_msg=str(m))


# ----- 2: a redo from backward does not nest exponentially -------------------------------

OVERFLOWED = [  # text, x, order, the derivative's sign (its size is beyond the floats),
    # the warning's kind (an overflow inside the domain, '/' at a divisor far from 0 too)
    ("1/x", 1e-300, 8, 1.0, "overflow"),      # 8!/x^9
    ("1/x", 1e-300, 12, 1.0, "overflow"),
    ("1/x", 1e-300, 13, -1.0, "overflow"),
    ("log(x)", 1e-300, 20, -1.0, "overflow"),   # -19!/x^20
    ("log1p(x)", -0.9999999999999999, 30, -1.0, "overflow"),    # -29!/(1 + x)^30
]


def _exponent10(text: str, x: float, order: int) -> float:
    """log10 |f^(order)(x)|, by hand (module docstring)."""
    if text == "1/x":
        return math.log10(math.factorial(order)) - (order + 1) * math.log10(x)
    at = x if text == "log(x)" else float(mp.mpf(1) + mp.mpf(x))
    return math.log10(math.factorial(order - 1)) - order * math.log10(at)


@pytest.mark.parametrize("text, x, order, sign, kind", OVERFLOWED)
def test_rows_that_overflow_are_redone_at_a_cost_polynomial_in_the_order(
        text, x, order, sign, kind, monkeypatch):
    # (old code: 1/x at order 8 ran _exact 14310 times, 6x more per two orders; log at
    # order 20 never finished)
    assert _exponent10(text, x, order) > 308.3     # the truth is beyond the floats
    budget = 20 * (order + 1) ** 2
    count = _budget(monkeypatch, taylor, "_exact", budget)
    result = adcli.parse(text).nth_derivative("x", order, x=x)
    assert float(result.derivative) == sign * math.inf
    said = {what for (_, what), mask in result.diagnostics.masks.items() if np.all(mask)}
    assert kind in said
    assert count[0] <= budget


def test_a_row_redone_to_a_finite_number_keeps_it(monkeypatch):
    # x^102.6 at 1000: r y_0 overflows before the division by a_0, the row does not;
    # f''' = 102.6 * 101.6 * 100.6 x^99.6
    count = _budget(monkeypatch, taylor, "_exact", 200)
    shown = float(adcli.parse("x^102.6").nth_derivative("x", 3, x=1000.0).derivative)
    r = mp.mpf("102.6")
    truth = r * (r - 1) * (r - 2) * mp.mpf(1000) ** (r - 3)
    assert abs((shown - truth) / truth) < 1e-12
    assert 1 <= count[0] <= 200     # (redone, and memoised steps give the same number)


def test_a_subnormal_argument_is_not_scaled_away():
    # atan = x - x^3/3 + x^5/5 - x^7/7 ...: f^(6) = -720 x + O(x^3), at 2^-1074 exactly
    # -720 * 2^-1074 (a scaling by 1/2 of the argument would round it to 0)
    x = 5e-324
    shown = float(adcli.parse("atan(x)").nth_derivative("x", 6, x=x).derivative)
    assert shown == -720 * x
