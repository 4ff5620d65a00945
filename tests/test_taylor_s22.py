"""grad --order N at tiny arguments and in batches: the rounding witness (adcli/rounding.py)
judges the Taylor sweep also where it left float64's range along x + t and was searched
along x + 2^m t (adcli/taylor.py, ``nudged_derivative``); a point's verdict does not
depend on the other points of the run; the API takes the orders the CLI takes.

Truths by hand, evaluated by mpmath at 50 digits:
  sin x/x = 1 - x^2/6 + x^4/120 - ...: f'' = -1/3 + x^2/10, f''' = x/5 - ...
  atan x/x = 1 - x^2/3 + x^4/5: f'' = -2/3 + ...; tanh x/x = 1 - x^2/3 + 2x^4/15:
  f'' = -2/3 + ...; log1p(x)/x = 1 - x/2 + x^2/3 - ...: f'' = 2/3 + ...
  d^64/dx^64 e^x sin x = 2^32 e^x sin(x + 16 pi) = 2^32 e^x sin x  (e^x sin x is the
  imaginary part of e^((1+i)x), and (1+i)^64 = 2^32).
"""
from __future__ import annotations

import re

import mpmath as mp
import numpy as np
import pytest

import adcli
from conftest import run_cli

mp.mp.dps = 50


def _nth(text: str, x, order: int):
    return adcli.parse(text).nth_derivative("x", order, x=x)


def _said(result, order: int) -> set[str]:
    """The kinds of diagnostic keyed by the derivative (rounding, lost, ...)."""
    key = f"x^{order}"
    return {what for (name, what), mask in result.diagnostics.masks.items()
            if name == key and np.all(mask)}


def _relative(shown: float, truth) -> float:
    return float(abs((mp.mpf(shown) - truth) / truth))


def _exp_sin_64(x: float):
    return 2**32 * mp.exp(mp.mpf(x)) * mp.sin(mp.mpf(x))


# ----- 1: the witness judges a sweep the nudge carried out of range ----------------------

TINY = [  # text, x, order, truth, what is said
    ("sin(x)/x", 1e-200, 2, -mp.mpf(1) / 3 + mp.mpf(1e-200) ** 2 / 10, "rounding"),
    ("atan(x)/x", 1e-200, 2, -mp.mpf(2) / 3, "rounding"),
    ("tanh(x)/x", 1e-200, 2, -mp.mpf(2) / 3, "rounding"),
    ("log1p(x)/x", 1e-200, 2, mp.mpf(2) / 3, "rounding"),
    # the nudged y_1 (cos x = 1 moved by 4 ulps, over x) is 4e284, and y_2 = 4e584 h^2
    # overflows for every h at which sin's row 2 (-5e-301 h^2) does not underflow
    ("sin(x)/x", 1e-300, 2, -mp.mpf(1) / 3, "lost"),
    ("sin(x)/x", 1e-200, 3, mp.mpf(1e-200) / 5, "lost"),
]


@pytest.mark.parametrize("text, x, order, truth, what", TINY)
def test_a_tiny_argument_s_cancellation_is_said(text, x, order, truth, what):
    result = _nth(text, x, order)
    assert _relative(float(result.derivative), truth) > 0.1     # the premise: it is wrong
    assert what in _said(result, order)


def test_the_cli_says_sin_x_over_x_at_1e_200_has_no_correct_digit():
    code, out, err = run_cli("grad", "sin(x)/x", "--at", "x=1e-200", "--order", "2",
                             "--format", "plain")
    assert code == 0
    assert float(out.split()[1]) == -1.0        # truth -1/3
    assert re.search(r"d2/dx2 at 1 of 1 point: its steps' rounding errors grew.*the "
                     r"derivative shown, -1, has no correct digit there", err)
    # the nudged number overflowed: said so, not "moves by inf"
    assert "it moves by more than the float range holds, so" in err and "by inf" not in err


def test_a_cancellation_at_1e_160_is_said_as_before():
    result = _nth("sin(x)/x", 1e-160, 2)
    assert _relative(float(result.derivative), -mp.mpf(1) / 3) > 0.1
    assert "rounding" in _said(result, 2)


# ----- 2: a point's verdict does not depend on the run's other points --------------------

def test_exp_sin_order_64_is_warned_at_each_point_alone_and_together():
    points = [0.0, 5e-301, 1e-300]
    together = _nth("exp(x)*sin(x)", np.array(points), 64)
    for k, x in enumerate(points):
        alone = _nth("exp(x)*sin(x)", x, 64)
        shown = float(alone.derivative)
        assert abs(shown - float(_exp_sin_64(x))) > 1     # truth 0 or ~4e-291: -47.66 shown
        assert "rounding" in _said(alone, 64)
        assert together.diagnostics.masks[("x^64", "rounding")][k]


def test_the_cli_grid_warns_every_row():
    code, out, err = run_cli("grad", "exp(x)*sin(x)", "--grid", "x=0:1e-300:3", "--order",
                             "64", "--format", "csv")
    assert code == 0
    assert "d64/dx64 at 3 of 3 points: its steps' rounding errors grew" in err


def test_a_rescaled_number_off_in_its_seventh_digit_is_warned():
    # along x + t, e^-700 t^64/64! underflows: the number comes from x + 2^m t, whose
    # row 64 sums 2^64 64^64/64! worth of terms to 2^32 of it
    result = _nth("exp(x)*sin(x)", -700.0, 64)
    shown, truth = float(result.derivative), _exp_sin_64(-700.0)
    error = _relative(shown, truth)
    assert error > 1e-8
    assert "rounding" in _said(result, 64)
    said = result.diagnostics.rounded["x^64"]
    # the digits said kept are no more than are right
    assert float(abs(shown) / said.spread) <= 1 / error


@pytest.mark.parametrize("x, order", [(-700.0, 64), (-705.0, 20), (1e-300, 8)])
def test_a_rescaled_number_that_is_right_is_not_doubted(x, order):
    result = _nth("exp(x)", x, order)
    assert _relative(float(result.derivative), mp.exp(mp.mpf(x))) < 1e-15
    assert not _said(result, order)


# ----- 3: the API takes the orders the CLI takes -----------------------------------------

@pytest.mark.parametrize("call", [
    lambda f: f.derivative(order=600, x=1.0),
    lambda f: f.derivative("x", 65, x=1.0),
    lambda f: f.nth_derivative("x", 65, x=1.0),
    lambda f: f.nth_derivative(order=-1, x=1.0),
    lambda f: adcli.check(f, "cos(x)", order=65, x=1.0),
])
def test_an_order_beyond_64_is_an_adcli_error_naming_the_range(call):
    with pytest.raises(adcli.AdcliError, match=r"from 0 to 64"):
        call(adcli.parse("sin(x)"))


def test_diff_beyond_64_is_an_adcli_error_naming_the_range():
    with pytest.raises(adcli.AdcliError, match=r"from 1 to 64"):
        adcli.parse("diff(sin(x), x, 65)")


def test_order_64_is_taken():
    shown = adcli.parse("sin(x)").derivative(order=64, x=1.0)
    assert float(shown) == pytest.approx(float(mp.sin(1)), rel=1e-12)   # sin^(4k) = sin
