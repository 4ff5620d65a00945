"""Twenty-seventh session's numerical analyst: exact products near the ends of the float
range taken as exact, and an overflow's "finite in long double" naming only derivatives
its own step makes."""
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest

from adcli import functions
from conftest import run_cli, strict_json, warnings_in

mp.mp.dps = 50

_TOP, _TINY = 2.0 ** 1023, 2.0 ** -1022


# ----- a product is exact where a b is a float: near the top and bottom too -----------

_PAIRS = [
    (2.0, 5e299), (5e299, 2.0), (0.5, 2e-295), (2.0 ** 1000, 2.0 ** 23),
    (1.2345678901234567e300, 1.1), (1.2345678901234567e-300, 1.1),
    (3.0, 7e299), (1e-300, 1e-10), (2.0 ** -1070, 0.5), (3 * 2.0 ** -1074, 0.5),
    (2.0 ** -600, 2.0 ** -500), (2.0 ** -600, 2.0 ** -474), (2.0 ** 600, 2.0 ** 500),
    (1.5 * 2.0 ** 1000, 1.5 * 2.0 ** 23), (1.5 * 2.0 ** 1000, 1.5 * 2.0 ** 24),
    (0.0, 1e300), (0.0, 3.0), (-2.0, 5e299), (-0.1, -1e-300), (5e-324, 5e-324),
    (5e-324, 2.0 ** 1023), (5e-324, 3.0 * 2.0 ** 1000), (_TOP, 2.0), (_TINY, 0.5), (_TINY, 0.75), (1.7e308, -1.0),
    (np.inf, 2.0), (np.nan, 2.0), (0.0, np.inf),
]


def _exact(a: float, b: float) -> bool:
    """a b is a float64 number: the rounded product equals the exact one (Fraction's)."""
    p = a * b
    return bool(np.isfinite(p)) and Fraction(a) * Fraction(b) == Fraction(p)


@pytest.mark.parametrize("a, b", _PAIRS)
def test_a_product_is_exact_where_the_rationals_say(a, b):
    with np.errstate(all="ignore"):
        _, exact = functions._product_exact(np.float64(a), np.float64(b))
    assert bool(exact) == _exact(a, b)


def test_a_run_of_products_mixes_both_kinds_of_point():
    # the common case's points and the ends' in one array, each judged on its own
    a, b = np.array([p[0] for p in _PAIRS] + [3.0, 0.1]), np.array([p[1] for p in _PAIRS]
                                                                   + [5.0, 3.0])
    with np.errstate(all="ignore"):
        _, exact = functions._product_exact(a, b)
    assert exact.tolist() == [_exact(x, y) for x, y in zip(a.tolist(), b.tolist())]


def test_a_quotient_near_the_top_is_exact():
    # 1e300/2 = 5e299 exactly: its step is undone by the product 5e299*2
    assert Fraction(1e300) / 2 == Fraction(5e299)
    with np.errstate(all="ignore"):
        exact = functions.exact_step(functions.Div, [np.array(1e300), np.array(2.0)],
                                     np.array(5e299))
    assert bool(exact)


def _value_and_said(*argv):
    code, out, err = run_cli(*argv, "--format", "json")
    assert code == 0
    return strict_json(out)["points"][0], warnings_in(err)


@pytest.mark.parametrize("text, x, truth", [
    ("2*x-1e300", "5e299", lambda x: 2 * x - mp.mpf(1e300)),
    ("exp(2*x-1e300)", "5e299", lambda x: mp.exp(2 * x - mp.mpf(1e300))),
    ("0.5*x-1e-295", "2e-295", lambda x: x / 2 - mp.mpf(1e-295)),
])
def test_an_exact_result_near_the_ends_is_not_doubted(text, x, truth):
    exact = truth(mp.mpf(float(x)))
    assert exact in (0, 1)   # the float shown can be the truth itself
    point, said = _value_and_said("eval", text, "--at", f"x={x}")
    assert point["value"] == float(exact)
    assert said == []


def test_sin_of_an_exact_doubling_near_the_top_is_not_doubted():
    # sin(2x) at 5e299: 2x = 1e300 exactly, and sin and 2 cos there have every digit
    u = 2 * mp.mpf(5e299)
    point, said = _value_and_said("grad", "sin(2*x)", "--at", "x=5e299")
    assert point["value"] == pytest.approx(float(mp.sin(u)), rel=4e-16)
    assert point["gradient"]["x"] == pytest.approx(float(2 * mp.cos(u)), rel=4e-16)
    assert said == []


@pytest.mark.parametrize("order", [2, 5, 20])
def test_cos_of_an_exact_doubling_has_every_order_undoubted(order):
    # d^n/dx^n cos(2x) = 2^n cos(2x + n pi/2), at 2x = 1e300 (cos(1e300) = -0.5753861...)
    u = 2 * mp.mpf(5e299)
    point, said = _value_and_said("grad", "cos(2*x)", "--at", "x=5e299", "--order",
                                  str(order))
    assert float(mp.cos(u)) == pytest.approx(-0.57538611195754909, rel=1e-16)
    assert point["value"] == pytest.approx(float(mp.cos(u)), rel=4e-16)
    # (cos(u + n pi/2) by its cycle: 1e300 + pi holds no digit of pi at 50 digits)
    turned = [mp.cos(u), -mp.sin(u), -mp.cos(u), mp.sin(u)][order % 4]
    want = 2 ** order * turned
    assert point["derivative"] == pytest.approx(float(want), rel=1e-14)
    assert said == []


def test_a_rounded_product_near_the_top_is_still_doubted():
    # x*1.1 rounds at x = 1.2345678901234567e300: its difference from the float it rounds
    # to is 0 shown, and truly 1.1 x - c, about 1e284
    x, c = 1.2345678901234567e300, 1.3580246791358024e300
    assert x * 1.1 == c
    truth = mp.mpf(x) * mp.mpf(1.1) - mp.mpf(c)
    assert truth != 0
    point, said = _value_and_said("eval", "x*1.1-1.3580246791358024e300", "--at", f"x={x!r}")
    assert point["value"] == 0.0
    (line,) = said
    assert "the value shown, 0, may be anything from" in line


# ----- an overflow's step names only the derivatives it makes ------------------------

def _overflow_lines(err: str) -> list[str]:
    return [line for line in warnings_in(err) if "overflowed at" in line]


def test_jacobian_row_one_overflow_does_not_name_row_two():
    # f1 = x/y: d/dy = -x/y^2 = -7.1e602, beyond the range truly; f2 = exp(x) y: df2/dx =
    # e^710 1e-300 = 2.2e8, inf in float64 through exp (its own warning says it)
    assert -mp.mpf(710) / mp.mpf(1e-300) ** 2 < -mp.mpf(2) ** 1024
    code, out, err = run_cli("jacobian", "x/y", "exp(x)*y", "--at", "x=710,y=1e-300",
                             "--format", "plain")
    (overflow,) = _overflow_lines(err)
    assert overflow.startswith("adcli: warning: the derivative through '/' in f1 overflowed")
    assert "long double" not in overflow and "df2/dx" not in overflow
    truth = float(mp.exp(710) * mp.mpf(1e-300))
    assert any(line.startswith("adcli: warning: df2/dx at 1 of 1 point")
               and f"it is {truth:.14g} where float64 gives inf" in line
               for line in warnings_in(err))


def test_jacobian_json_overflow_does_not_name_row_two():
    code, out, err = run_cli("jacobian", "x/y", "exp(x)*y", "--at", "x=710,y=1e-300",
                             "--format", "json")
    (overflow,) = [w for w in strict_json(out)["warnings"] if w["kind"] == "overflow"]
    assert overflow["function"] == "/ in f1"
    assert "long double" not in overflow["why"]


def test_an_overflow_names_no_derivative_its_gradient_never_reaches():
    # x/y + exp(z) w: '/' overflows for d/dy (-7.1e602, truly); d/dz = e^710 1e-300 is
    # finite in long double, but no step of x/y makes it
    code, out, err = run_cli("grad", "x/y + exp(z)*w", "--at",
                             "x=710,y=1e-300,z=710,w=1e-300", "--format", "plain")
    (overflow,) = _overflow_lines(err)
    assert "long double" not in overflow and "d/dz" not in overflow
    assert any(line.startswith("adcli: warning: d/dz at 1 of 1 point: ")
               for line in warnings_in(err))


@pytest.mark.parametrize("text, at, said", [
    ("exp(x)/exp(-720)", "x=-720",
     'd/dx is finite there (its "range" entry gives the number)'),
    ("exp(x)/exp(y)", "x=-720,y=-720",
     'd/dx and d/dy are finite there (their "range" entries give the numbers)'),
])
def test_the_json_words_agree_in_number(text, at, said):
    # exp(-720) is below normal: 1/exp(-720) overflows on the way to d/dx = 1 (d/dy = -1)
    assert mp.diff(lambda x: mp.exp(x) / mp.exp(-720), -720) == pytest.approx(1)
    code, out, err = run_cli("grad", text, "--at", at, "--format", "json")
    (overflow,) = [w for w in strict_json(out)["warnings"] if w["kind"] == "overflow"]
    assert overflow["why"].endswith("computed again in long double, " + said)


# ----- a Hessian entry's 0 judged beside its own order's numbers ----------------------

def test_a_hessian_zero_beside_tiny_entries_is_said():
    # log(e^x + e^y) at (40, 0): d2/dx2 = s(40) s(-40) (s the sigmoid) = 4.2e-18, and each
    # row sums to 0 (f(x+t, y+t) = f + t); 1 + e^40 rounds to e^40, so 0 is shown
    s = lambda t: 1 / (1 + mp.exp(-t))
    truth = s(40) * s(-40)
    assert float(truth) == pytest.approx(4.248354255291589e-18, rel=1e-15)
    code, out, err = run_cli("hessian", "log(exp(x)+exp(y))", "--at", "x=40,y=0",
                             "--format", "json")
    point = strict_json(out)["points"][0]
    assert point["hessian"][0][0] == 0.0
    assert point["hessian"][0][1] == pytest.approx(float(-truth), rel=1e-12)
    (line,) = warnings_in(err)
    assert line.startswith("adcli: warning: d2/dx2 at 1 of 1 point: ")
    assert "the derivative shown, 0, may be anything from" in line


def test_an_exact_hessian_zero_is_not_said():
    # x y: d2/dx2 = d2/dy2 = 0 exactly, beside d2/dx dy = 1
    code, out, err = run_cli("hessian", "x*y", "--at", "x=3,y=4", "--format", "json")
    assert strict_json(out)["points"][0]["hessian"] == [[0.0, 1.0], [1.0, 0.0]]
    assert warnings_in(err) == []


def test_a_hessian_of_zeros_is_judged_beside_the_value_as_before():
    # x^2 y + sin(y) at the origin: every second derivative but d2/dy2 = -sin 0 is 0 and
    # exact; with all of them 0 the 0s are judged beside f and its gradient (1 for d/dy)
    code, out, err = run_cli("hessian", "x^2*y + sin(y)", "--at", "x=0,y=0", "--format",
                             "json")
    assert strict_json(out)["points"][0]["hessian"] == [[0.0, 0.0], [0.0, 0.0]]
    assert warnings_in(err) == []
