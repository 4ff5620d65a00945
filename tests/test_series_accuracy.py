"""Taylor mode's series rules at the edges of float64, against mpmath at 50 digits or more.

Each rule (``Primitive.taylor``) is run on its own, on the series of a line x + t (and of a
number, a series with zero rows), so that a wrong row cannot be repaired by the sweep's
fallbacks in adcli/taylor.py; the commands a tester ran (``adcli grad EXPR --order N``) are
checked end to end as well. The tolerance is 1e-12 relative wherever the true derivative is
a normal float64; where it underflows the result must be 0 or subnormal, where it
overflows an infinity of its sign: never nan, and never a wrong finite number.

The references are closed forms evaluated by mpmath (written out in the comments), each
checked against mpmath's own numerical differentiation at ordinary points.
"""
from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest

import adcli
from adcli.functions import Asinh, Expm1, Hypot, Pow, Tan

RTOL = 1e-12
TINY, HUGE = np.finfo(np.float64).tiny, np.finfo(np.float64).max
LARGEST = 1.7976931348623157e308


def _line(x, order: int, slope: float = 1.0):
    """The series of x + slope t at every point of x, rows 0..order."""
    x = np.atleast_1d(np.asarray(x, dtype=np.float64))
    s = np.zeros((order + 1,) + x.shape)
    s[0] = x
    if order:
        s[1] = slope
    return s


def _number(c: float, order: int):
    s = np.zeros(order + 1)
    s[0] = c
    return s


def _nth(rule, *series, order: int):
    """The order-th derivative along t from a rule's series: row ``order`` times order!."""
    with np.errstate(all="ignore"):
        return rule().taylor(*series)[order] * math.factorial(order)


def _assert_matches(actual, truths, what):
    """Each actual value against its mpmath truth (see the module's docstring)."""
    actual = np.atleast_1d(actual)
    assert len(actual) == len(truths), what
    bad = []
    for i, (a, t) in enumerate(zip(actual, truths)):
        size = abs(t)
        if TINY <= size <= HUGE:
            ok = abs(mp.mpf(float(a)) - t) <= RTOL * size if math.isfinite(a) else False
        elif size < TINY:
            ok = abs(a) <= TINY
        else:
            ok = a == math.copysign(math.inf, t)
        if not ok:
            bad.append((i, float(a), mp.nstr(t, 17)))
    assert not bad, (what, bad[:8], f"{len(bad)} of {len(actual)} points")


# ----- hypot: no squares ------------------------------------------------------------------

def _hypot_x(x, c, n):
    """d^n/dx^n sqrt(x^2 + c^2), r = sqrt(x^2 + c^2): x/r, c^2/r^3, -3c^2 x/r^5,
    3c^2 (4x^2 - c^2)/r^7."""
    x, c = mp.mpf(x), mp.mpf(c)
    r = mp.sqrt(x * x + c * c)
    return [r, x / r, c * c / r**3, -3 * c * c * x / r**5,
            3 * c * c * (4 * x * x - c * c) / r**7][n]


# One argument far larger than the other, with the tester's points (1e5, 1e7, 1e8, 1e10:
# y y = a a + b b gave 2e-6, 8e-4 and 100% errors there, and 0.0 from 1e8 on).
_DOMINANT = sorted({s * m * 10.0**e for e in range(-100, 301, 4) for m in (1.0, 3.7)
                    for s in (1.0, -1.0)} | {1e5, 1e7, 1e8, 1e10, -1e10})


@pytest.mark.parametrize("order", [1, 2, 3, 4])
@pytest.mark.parametrize("c", [1.0, 3.0, 1e-80, 1e150])
@pytest.mark.parametrize("moving", ["first", "second"])
def test_hypot_keeps_every_digit_where_one_argument_dominates(order, c, moving):
    x = np.array(_DOMINANT)
    line, number = _line(x, order), _number(c, order)
    args = (line, number) if moving == "first" else (number, line)  # hypot(x, c), hypot(c, x)
    with mp.workdps(50):
        truths = [_hypot_x(v, c, order) for v in x]
    _assert_matches(_nth(Hypot, *args, order=order), truths, (moving, c, order))


@pytest.mark.parametrize("order", [1, 2, 3, 4])
def test_hypot_on_a_grid_of_scales(order):
    # hypot(a, b) along a, a and b from 1e-100 to 1e300 with both signs.
    scales = [s * 1.37 * 10.0**e for e in range(-100, 301, 25) for s in (1.0, -1.0)]
    a, b = (np.array(v) for v in zip(*[(p, q) for p in scales for q in scales]))
    with mp.workdps(50):
        truths = [_hypot_x(p, q, order) for p, q in zip(a, b)]
    series_b = np.zeros((order + 1, len(b)))
    series_b[0] = b
    _assert_matches(_nth(Hypot, _line(a, order), series_b, order=order), truths, order)


@pytest.mark.parametrize("order", [2, 3, 4, 6])
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_hypot_of_a_line_with_itself_is_linear(order, sign):
    # hypot(s x, x) = sqrt(2) |x|: every derivative from the second on is exactly 0 (y y =
    # a a + b b gave -3.1e284 at x = 1e-300, from a_1^2 + b_1^2 - y_1^2 = 2 - 2(1 + eps)).
    x = np.array([m * 10.0**e for e in range(-320, 307, 3) for m in (1.0, -2.3)])
    actual = _nth(Hypot, _line(sign * x, order, sign), _line(x, order), order=order)
    assert actual.tolist() == [0.0] * len(x)


def test_hypot_first_derivative_of_a_line_with_itself():
    # sqrt(2) sign(x); at 5e-324 hypot rounds to 5e-324 itself, and a/hypot(a, b) was 1.
    x = np.array([1e-300, 5e-324, 1.0, 1e300, -1e-300])
    actual = _nth(Hypot, _line(x, 1), _line(x, 1), order=1)
    np.testing.assert_allclose(actual, np.sign(x) * math.sqrt(2.0), rtol=1e-15)


@pytest.mark.parametrize("text, c, x, order", [
    ("hypot(x,x)", None, 1e-300, 2), ("hypot(x,1)", 1.0, 1e5, 2), ("hypot(x,1)", 1.0, 1e7, 2),
    ("hypot(x,1)", 1.0, 1e8, 2), ("hypot(x,1)", 1.0, 1e10, 2), ("hypot(x,1)", 1.0, 1e10, 3),
    ("hypot(x,1)", 1.0, 1e7, 4), ("hypot(x,3)", 3.0, 1e6, 2), ("hypot(3,x)", 3.0, 1e9, 3),
])
def test_the_testers_hypot_commands(text, c, x, order):
    actual = float(adcli.parse(text).derivative("x", order, x=x))
    if c is None:                       # sqrt(2) |x|
        assert actual == 0.0
        return
    with mp.workdps(50):
        truth = _hypot_x(x, c, order)
    _assert_matches([actual], [truth], text)


@pytest.mark.xfail(strict=True, reason="rows of the angle overflow where y's do not: see "
                   "_hypot_series; nested reverse passes get -8.516e279")
def test_hypot_at_tiny_scales_with_a_far_smaller_second_argument():
    # hypot(x, 1e-300)''' at x = 1.37e-220 is -3c^2 x / r^5 = -8.5e279, a normal float; the
    # turning of the direction, c/r^(k+1), overflows at k = 2. Known, and pinned here.
    with mp.workdps(50):
        truth = _hypot_x(1.37e-220, 1e-300, 3)
    actual = _nth(Hypot, _line(1.37e-220, 3), _number(1e-300, 3), order=3)
    _assert_matches(actual, [truth], "tiny")


# ----- asinh: its rule from backward runs hypot(x, 1) ---------------------------------------

def _asinh(x, n):
    """asinh's derivatives, s = 1 + x^2: 1/sqrt(s), -x/s^(3/2), (2x^2 - 1)/s^(5/2),
    3x(3 - 2x^2)/s^(7/2)."""
    x = mp.mpf(x)
    s = 1 + x * x
    return [mp.asinh(x), 1 / mp.sqrt(s), -x / s**1.5, (2 * x * x - 1) / s**2.5,
            3 * x * (3 - 2 * x * x) / s**3.5][n]


@pytest.mark.parametrize("order", [1, 2, 3, 4])
def test_asinh_up_to_the_largest_float(order):
    # At 1.7976931348623157e308 the second derivative is -3.1e-617: 0 (it was nan, as
    # hypot's x*x overflowed from 1.34e154 on).
    x = np.array(sorted({s * m * 10.0**e for e in range(-300, 308, 7) for m in (1.0, 1.7)
                         for s in (1.0, -1.0)} | {LARGEST, -LARGEST, 1.4e154, 1e155}))
    with mp.workdps(50):
        truths = [_asinh(v, order) for v in x]
    _assert_matches(_nth(Asinh, _line(x, order), order=order), truths, order)


@pytest.mark.parametrize("order", [2, 3, 4])
def test_the_testers_asinh_command(order):
    actual = float(adcli.parse("asinh(x)").derivative("x", order, x=LARGEST))
    assert actual == 0.0


# ----- expm1 and the other Riccati rules ----------------------------------------------------

@pytest.mark.parametrize("order", [1, 2, 3, 4, 6])
def test_expm1_up_to_where_exp_overflows(order):
    # d^n/dx^n expm1(x) = e^x, finite up to 709.78; the rows were nan from 355 on, where
    # y_0^2 overflows in 0 * y^2.
    x = np.concatenate([np.linspace(-745.0, 709.78, 301), [354.0, 354.5, 355.0, 355.5, 356.0,
                                                           709.782712893384]])
    with mp.workdps(50):
        truths = [mp.exp(mp.mpf(v)) for v in x]
    _assert_matches(_nth(Expm1, _line(x, order), order=order), truths, order)


def test_the_testers_expm1_command(cli):
    code, out, err = cli("grad", "expm1(x)", "--order", "2", "--grid", "x=354:356:5",
                         "--format", "csv")
    assert code == 0 and "warning" not in err
    rows = [line.split(",") for line in out.strip().splitlines()[1:]]
    for x, _, d2 in rows:
        truth = mp.exp(mp.mpf(x))
        assert abs(mp.mpf(d2) - truth) <= RTOL * truth, (x, d2)


def test_tan_near_its_pole_overflows_to_infinity_not_nan():
    # tan(u) for u = x - 1 + e^t: left of pi/2 every row of tan and of u is positive, so
    # where the series overflows its rows are +inf (0 * inf in the unused term c1 y_k, c1
    # = 0, made them nan). No row of u is 0, so no 0 * inf comes from u.
    x = np.array([math.pi / 2 - 1e-9, 1.5707963267948966])
    u = np.zeros((41, 2))
    u[0] = x
    u[1:] = [[1.0 / math.factorial(k)] * 2 for k in range(1, 41)]
    with np.errstate(all="ignore"):
        rows = Tan().taylor(u)
    assert np.isinf(rows[-1]).all() and np.all(rows[1:] > 0), rows


@pytest.mark.parametrize("order", [1, 2, 3])
def test_tan_near_its_pole_where_y_squared_is_large(order):
    # tan' = 1 + t^2, tan'' = 2t(1 + t^2), tan''' = 2(1 + t^2)(1 + 3t^2), t = tan x.
    x = np.array([math.pi / 2 - d for d in (1e-3, 1e-8, 1e-12, 1e-15)] + [1.5707963267948966])
    with mp.workdps(60):
        t = [mp.tan(mp.mpf(v)) for v in x]
        truths = [[1 + s * s, 2 * s * (1 + s * s), 2 * (1 + s * s) * (1 + 3 * s * s)][order - 1]
                  for s in t]
    _assert_matches(_nth(Tan, _line(x, order), order=order), truths, order)


# ----- x^x and its kin: the base tiny, the exponent moving -----------------------------------

def _power_line(a0, alpha, b0, beta, n):
    """d^n/dt^n (a0 + alpha t)^(b0 + beta t) at t = 0, the numbers exact: y = e^z with
    z = b log a, z' = beta log a + alpha b/a, so that for m >= 2, with
    i_j = d^j/dt^j 1/a = (-1)^j j! alpha^j / a^(j+1),
    z^(m) = beta alpha i_(m-2) + alpha (b i_(m-1) + (m-1) beta i_(m-2)),
    then y^(n) = sum_k binom(n-1, k) y^(k) z^(n-k) (Leibniz on y' = y z')."""
    a, b, al, be = (mp.mpf(v) for v in (a0, b0, alpha, beta))

    def inverse(j):
        return (-1)**j * mp.factorial(j) * al**j / a**(j + 1)

    z = [b * mp.log(a), be * mp.log(a) + al * b / a]
    for m in range(2, n + 1):
        z.append(be * al * inverse(m - 2)
                 + al * (b * inverse(m - 1) + (m - 1) * be * inverse(m - 2)))
    y = [mp.exp(z[0])]
    for k in range(1, n + 1):
        y.append(sum(mp.binomial(k - 1, i) * y[i] * z[k - i] for i in range(k)))
    return y[n]


@pytest.mark.parametrize("a0, alpha, b0, beta", [(0.7, 1.0, 0.7, 1.0), (1.3, 2.0, 2.2, -1.0),
                                                 (0.05, 1.0, 1.05, 1.0), (2.5, -0.5, -1.5, 3.0)])
def test_the_power_reference_agrees_with_mpmath_differentiation(a0, alpha, b0, beta):
    with mp.workdps(50):
        for n in range(1, 6):
            f = lambda t: (a0 + alpha * t) ** (b0 + beta * t)  # noqa: E731
            assert abs(_power_line(a0, alpha, b0, beta, n) - mp.diff(f, 0, n)) \
                <= mp.mpf(10)**-35 * abs(mp.diff(f, 0, n))


_TINY_BASES = [10.0**-e for e in range(1, 324)] + [5e-324, 1e-323, 2.2e-308, 3.7e-155]


@pytest.mark.parametrize("order", [1, 2, 3, 4])
def test_x_to_the_x_at_tiny_x(order):
    # x^x: 1e300 at 1e-300 for the second derivative (was -inf), -1e300 at 1e-150 for the
    # third (was +inf), -743.44 at 5e-324 for the first (was inf).
    x = np.array(_TINY_BASES)
    with mp.workdps(400):             # terms near 1/x^(n-1) cancel to far less at tiny x
        truths = [_power_line(v, 1.0, v, 1.0, order) for v in x]
    _assert_matches(_nth(Pow, _line(x, order), _line(x, order), order=order), truths, order)


# Exponents through a whole number n >= 1 (x^(x+1) at 1e-20: y'' = -90.1, from terms 1e20
# that cancel in y' = y z', which gave 0.0), and exponents away from one.
_KIN = [(1.0, 1.0, 1.0, 1.0), (1.0, 1.0, 2.0, 1.0), (2.0, 1.0, 1.0, 1.0), (1.0, 2.0, 1.0, 1.0),
        (1.0, -1.0, 3.0, 1.0), (1.0, 1.0, 1.7, 1.0), (1.0, 1.0, -1.0, 1.0), (1.0, 0.5, 0.0, 1.0)]


@pytest.mark.parametrize("order", [1, 2, 3, 4, 6])
@pytest.mark.parametrize("kin", _KIN, ids=lambda k: "(%gx)^(%gx%+g)" % (k[0], k[1], k[2]))
def test_powers_whose_exponent_moves_near_a_whole_number(order, kin):
    # (p x)^(q x + r) along x + t: the series a = p x + p t, b = fl(q x + r) + q t.
    p, q, r, _ = kin
    # (Below 1e-40 the rows of z = b log a, b/x^6 at order 6, overflow where y's do not:
    # the sweep redoes such a row from backward, see adcli/taylor.py.)
    x = np.array([10.0**-e for e in range(1, 40, 2)] + [0.1, 0.4, 0.9, 1.3, 2.3])
    a0, b0 = p * x, q * x + r
    with mp.workdps(120):
        truths = [_power_line(u, p, v, q, order) for u, v in zip(a0, b0)]
    actual = _nth(Pow, _line(a0, order, p), _line(b0, order, q), order=order)
    _assert_matches(actual, truths, (kin, order))


@pytest.mark.parametrize("x, order", [(1e-300, 2), (1e-200, 2), (1e-160, 2), (1e-155, 2),
                                      (1e-150, 3), (5e-324, 1)])
def test_the_testers_x_to_the_x_commands(x, order):
    with mp.workdps(400):
        truth = _power_line(x, 1.0, x, 1.0, order)
    actual = adcli.parse("x^x").derivative("x", order, x=x)
    _assert_matches([float(actual)], [truth], (x, order))
