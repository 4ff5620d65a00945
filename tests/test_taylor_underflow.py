"""grad --order N where Taylor mode's coefficients c_k = f^(k)/k! leave float64's normal
range though the derivatives f^(k) do not: c_20 of exp(x) at -705 is 2.7e-325 (0), where
f^(20) = e^-705 = 6.6e-307. Such points are swept again along x + 2^m t, whose rows are
c_k 2^(mk) (adcli/taylor.py, ``_rescaled``).

The references are closed forms evaluated by mpmath at 50 digits (d^k/dx^k e^(ax) =
a^k e^(ax), d^k/dx^k x^r = r (r-1) ... (r-k+1) x^(r-k), sin's rows turn by pi/2 each) or
mpmath's own numerical differentiation; the tolerance is 1e-12 relative, every true
derivative here being a normal float64.
"""
from __future__ import annotations

import json
import zlib

import mpmath as mp
import numpy as np
import pytest

import adcli
from adcli.functions import PRIMITIVES
from adcli import taylor
from adcli.taylor import taylor_derivative

RTOL = 1e-12
TINY = np.finfo(np.float64).tiny


def _power(r, x, order):
    """d^order/dx^order x^r = r (r - 1) ... (r - order + 1) x^(r - order)."""
    x = mp.mpf(x)
    return mp.fprod(r - i for i in range(order)) * x ** (r - order)


# text, x, order, the true derivative (a function of mpmath x and the order)
CASES = [
    ("exp(x)", -705.0, 20, lambda x, k: mp.exp(x)),
    ("exp(x)", -690.0, 20, lambda x, k: mp.exp(x)),
    ("exp(x)", -600.0, 64, lambda x, k: mp.exp(x)),
    ("exp(x)", -706.0, 10, lambda x, k: mp.exp(x)),
    ("exp(x)", -680.0, 30, lambda x, k: mp.exp(x)),
    ("exp(2*x)", -350.0, 30, lambda x, k: 2 ** k * mp.exp(2 * x)),
    ("exp(-x)", 640.0, 45, lambda x, k: (-1) ** k * mp.exp(-x)),
    ("1/x", 1e15, 20, lambda x, k: _power(-1, x, k)),
    ("1/x", -1e15, 20, lambda x, k: _power(-1, x, k)),
    ("1/x", 316227.76601683795, 64, lambda x, k: _power(-1, x, k)),
    ("1/x", 3e28, 10, lambda x, k: _power(-1, x, k)),
    ("x^-2", 1e12, 25, lambda x, k: _power(-2, x, k)),
    ("sqrt(x)", 2e27, 12, lambda x, k: _power(mp.mpf(1) / 2, x, k)),
    # the constant is the float nearest 1e-300, as the expression reads it
    ("sin(x)*1e-300", 0.5, 20, lambda x, k: mp.mpf(1e-300) * mp.sin(x + k * mp.pi / 2)),
    ("1e-290*cos(x)", 2.0, 30, lambda x, k: mp.mpf(1e-290) * mp.cos(x + k * mp.pi / 2)),
    ("exp(x)*sin(x)", -700.0, 24,
     lambda x, k: 2 ** (mp.mpf(k) / 2) * mp.exp(x) * mp.sin(x + k * mp.pi / 4)),
    # overflow, the other way: log's rows (-1)^(k+1)/(k x^k) leave the range at x = 1e-40
    # from k = 8, and 1e-300 brings the derivative back: 1e-300 (-1)^(k+1) (k-1)!/x^k
    ("1e-300*log(x)", 1e-40, 8, lambda x, k: mp.mpf(1e-300) * (-1) ** (k + 1)
     * mp.factorial(k - 1) / x ** k),
    ("1e-300*log(x)", 1e-300, 2, lambda x, k: mp.mpf(1e-300) * (-1) ** (k + 1)
     * mp.factorial(k - 1) / x ** k),
]


def _truth(closed_form, x, order) -> float:
    with mp.workdps(50):
        return float(closed_form(mp.mpf(x), order))


def _assert_close(actual, truth, what):
    assert TINY <= abs(truth) < np.inf, f"{what}: the reference {truth!r} is not normal"
    error = abs(float(actual) - truth) / abs(truth)
    assert error <= RTOL, f"{what}: {float(actual)!r}, true {truth!r} (relative {error:.1e})"


@pytest.mark.parametrize("text, x, order, closed_form", CASES)
def test_derivatives_whose_coefficients_leave_the_range(text, x, order, closed_form):
    actual = adcli.parse(text).derivative("x", order, x=x)
    _assert_close(actual, _truth(closed_form, x, order), (text, x, order))


def test_the_reference_forms_agree_with_mpmath_differentiation():
    # each closed form, where mpmath.diff can take it (ordinary points, a low order)
    for text, _, _, closed_form in CASES:
        f = {"exp(x)": mp.exp, "exp(2*x)": lambda t: mp.exp(2 * t),
             "exp(-x)": lambda t: mp.exp(-t), "1/x": lambda t: 1 / t,
             "x^-2": lambda t: t ** -2, "sqrt(x)": mp.sqrt,
             "sin(x)*1e-300": lambda t: mp.sin(t) * mp.mpf(1e-300),
             "1e-290*cos(x)": lambda t: mp.mpf(1e-290) * mp.cos(t),
             "exp(x)*sin(x)": lambda t: mp.exp(t) * mp.sin(t),
             "1e-300*log(x)": lambda t: mp.mpf(1e-300) * mp.log(t)}[text]
        with mp.workdps(60):
            for order in (1, 3, 6):
                exact = closed_form(mp.mpf("1.3"), order)
                assert abs(mp.diff(f, mp.mpf("1.3"), order) / exact - 1) < 1e-30, text


def test_a_composite_against_mpmath_differentiation():
    # exp(sin(x) - 706): every row is e^-706 times the rows of exp(sin x), row 20 below
    # the normal range (5e-314); the derivative itself is -4.6e-296
    with mp.workdps(60):
        truth = float(mp.diff(lambda t: mp.exp(mp.sin(t) - 706), mp.mpf("0.3"), 20))
    actual = adcli.parse("exp(sin(x) - 706)").derivative("x", 20, x=0.3)
    _assert_close(actual, truth, "exp(sin(x) - 706)")


@pytest.mark.parametrize("argv, closed_form", [
    (("exp(x)", "--at", "x=-705", "--order", "20"), lambda x, k: mp.exp(x)),
    (("exp(x)", "--at", "x=-600", "--order", "64"), lambda x, k: mp.exp(x)),
    (("exp(x)", "--at", "x=-690", "--order", "20"), lambda x, k: mp.exp(x)),
    (("1/x", "--at", "x=1e15", "--order", "20"), lambda x, k: _power(-1, x, k)),
    (("1e-300*log(x)", "--at", "x=1e-40", "--order", "8"),
     lambda x, k: mp.mpf(1e-300) * (-1) ** (k + 1) * mp.factorial(k - 1) / x ** k),
])
def test_the_reported_commands(cli, argv, closed_form):
    code, out, err = cli("grad", *argv, "--format", "json")
    assert (code, err) == (0, "")
    point = json.loads(out)["points"][0]
    x, order = point["at"]["x"], int(argv[-1])
    assert "warnings" not in json.loads(out)
    _assert_close(point["derivative"], _truth(closed_form, x, order), argv)


def test_the_reported_table_shows_the_derivative(cli):
    code, out, err = cli("grad", "exp(x)", "--at", "x=-705", "--order", "20", "--format", "plain")
    assert (code, err) == (0, "")
    value, derivative = (float(word) for word in out.split())
    _assert_close(value, _truth(lambda x, k: mp.exp(x), -705.0, 0), "plain")
    _assert_close(derivative, _truth(lambda x, k: mp.exp(x), -705.0, 20), "plain")


def test_only_the_points_that_left_the_range_are_swept_again():
    # -705 and -690 leave the range at order 20, the others do not: their numbers are
    # those of a sweep at each alone, to the bit
    x = np.array([-705.0, -1.0, 0.5, -690.0, -600.0, 3.0])
    expression = adcli.parse("exp(x)*(1 + x^2)")
    actual = taylor_derivative(expression, {"x": x}, "x", 20)
    with mp.workdps(50):
        truths = [float(mp.exp(t) * (t * t + 40 * t + 381)) for t in map(mp.mpf, x)]
    for a, t, at in zip(actual, truths, x):
        _assert_close(a, t, at)
    alone = [float(taylor_derivative(expression, {"x": at}, "x", 20)) for at in x[[1, 2, 4, 5]]]
    np.testing.assert_array_equal(actual[[1, 2, 4, 5]], alone)


def test_several_variables_and_a_grid_of_points():
    # d^20/dx^20 of exp(x) y at a 2-d grid: e^x y; the fixed variable y does not move
    x, y = np.meshgrid([-705.0, -2.0, -696.0], [3.0, -0.25])
    actual = adcli.parse("exp(x)*y").derivative("x", 20, x=x, y=y)
    assert actual.shape == x.shape
    for a, u, v in zip(actual.ravel(), x.ravel(), y.ravel()):
        _assert_close(a, float(mp.exp(mp.mpf(u)) * mp.mpf(v)), (u, v))


def test_where_no_scale_keeps_the_sweep_in_range_the_points_are_named():
    # exp(x) exp(-x) is 1: its derivatives are 0. At x = 705 the rows of e^-x are below
    # the normal range along x + t, and those of e^x above it from 2^2 t on: no line's
    # scale keeps both, and the number shown (float64's terms that no longer cancel)
    # cannot be trusted. At 1 and at 300 the sweep stays in range.
    x = np.array([705.0, 1.0, 300.0])
    nth = taylor.taylor_nth(adcli.parse("exp(x)*exp(-x)"), {"x": x}, "x", 20)
    np.testing.assert_array_equal(nth.lost, [True, False, False])


def test_points_redone_are_not_named():
    x = np.array([-705.0, -600.0, 0.0])
    nth = taylor.taylor_nth(adcli.parse("exp(x)"), {"x": x}, "x", 64)
    assert not nth.lost.any()
    for a, t in zip(nth.derivative, x):
        _assert_close(a, float(mp.exp(mp.mpf(t))), t)


def test_a_value_out_of_range_is_named_where_the_number_shown_is_normal():
    # exp(x) at -720 is subnormal (1.9e-313): its digits are lost before any row is made,
    # and no scale of the line moves a value; 1e300 brings the derivative back to 1.9e-13.
    # exp(x) alone there has derivatives below the normal range, as its value is: they
    # are not named (nor are 0s at -800)
    x = np.array([-720.0, -720.0, -800.0])
    for text, lost in (("1e300*exp(x)", [True, True, False]), ("exp(x)", [False] * 3)):
        nth = taylor.taylor_nth(adcli.parse(text), {"x": x}, "x", 20)
        np.testing.assert_array_equal(nth.lost, lost, err_msg=text)


def test_a_derivative_beyond_the_range_is_still_infinite():
    # d^3/dx^3 1e-300 log x at 1e-300 is 2e600: inf, with no number to recover (said)
    with pytest.warns(adcli.AdcliWarning, match="the derivative through log overflowed"):
        assert adcli.parse("1e-300*log(x)").derivative("x", 3, x=1e-300) == np.inf


# ----- the sweep is homogeneous in the line's scale: what the redo rests on --------------
# Along x + 2^m t every row k of every rule's series is 2^(mk) times its row along x + t,
# to the bit (each step multiplies rows whose indices add up, divides by row 0 or by k, or
# adds rows of one index): a rule that broke this would make the redone points wrong.

LANGUAGE = sorted(n for n in PRIMITIVES if PRIMITIVES[n].callable or n in
                  ("add", "sub", "mul", "div", "pow", "neg"))


def _sample(cls, n=12):
    rng = np.random.default_rng(zlib.crc32(cls.name.encode()))
    domain = list(cls.domain) + [cls.domain[-1]] * (cls.arity - len(cls.domain))
    columns = [rng.uniform(lo, hi, 8 * n) for lo, hi in domain]
    smooth = np.broadcast_to(np.asarray(cls.kink(*columns)) > cls.smooth_margin,
                             columns[0].shape)
    return [c[smooth][:n] for c in columns]


def _rows(cls, xs, moving, m, order=6):
    series = []
    for i, x in enumerate(xs):
        s = np.zeros((order + 1, len(x)))
        s[0] = x
        if i == moving:
            s[1] = 2.0 ** m
        series.append(s)
    with np.errstate(all="ignore"):
        return cls().taylor(*series)


@pytest.mark.parametrize("name", LANGUAGE)
def test_every_rule_is_homogeneous_in_the_lines_scale(name):
    cls = PRIMITIVES[name]
    xs = _sample(cls)
    for moving in range(cls.arity):
        base = _rows(cls, xs, moving, 0)
        for m in (-7, 3):
            scaled = _rows(cls, xs, moving, m)
            k = np.arange(len(base)).reshape(-1, 1)
            np.testing.assert_array_equal(scaled, np.ldexp(base, m * k), err_msg=(name, m))



def test_a_point_swept_again_in_range_is_not_blamed(cli):
    # log's row 8 overflows along x + t at 1e-40 and 2e-40 (the derivatives are
    # -1e-300 7!/x^8, normal floats); at 0 log is -inf, which is warned of
    code, out, err = cli("grad", "1e-300*log(x)", "--points", "-", "--order", "8",
                         "--format", "json", stdin="x\n1e-40\n0\n2e-40\n")
    assert code == 0
    result = json.loads(out)
    for point in (result["points"][0], result["points"][2]):
        x = point["at"]["x"]
        with mp.workdps(50):
            truth = float(-mp.mpf(1e-300) * 5040 / mp.mpf(x) ** 8)
        _assert_close(point["derivative"], truth, x)
    assert [(w["at"]["x"], w["kind"]) for w in result["warnings"]] == [(0.0, "value")]
    assert "overflow" not in err
