"""grad --order N where a row of an intermediate series underflowed to 0 in one step, with
no subnormal on the way: log's row 2 at x = 1e300 is -1/(2x^2) = -5e-601, and x log x's
second derivative 1/x = 1e-300 came out 2e-300 (the product rule's x * log''(x) term
lost). Such a 0 is told from an exact one (row 3 of x^2) by lines lifted further, along
x + 2^m t (adcli/taylor.py, ``_search``'s probes).

References are closed forms worked out by hand, evaluated by mpmath at 50 digits:
d^n/dx^n x log x = (-1)^n (n-2)! / x^(n-1) (n >= 2), d^n/dx^n x^2 log x =
2 (-1)^(n-1) (n-3)! / x^(n-2) (n >= 3), d^n/dx^n x^4 log x = 24 (-1)^(n-1) (n-5)! / x^(n-4)
(n >= 5), d^8/dx^8 sin x = sin x.
"""
from __future__ import annotations

import json

import mpmath as mp
import numpy as np
import pytest

import adcli
from adcli.taylor import taylor_nth

from conftest import run_cli

mp.mp.dps = 50
RTOL = 1e-12


def _x_log_x(x, n):
    return (-1) ** n * mp.factorial(n - 2) / x ** (n - 1)


def _x2_log_x(x, n):
    return 2 * (-1) ** (n - 1) * mp.factorial(n - 3) / x ** (n - 2)


def _x4_log_x(x, n):
    return 24 * (-1) ** (n - 1) * mp.factorial(n - 5) / x ** (n - 4)


@pytest.mark.parametrize("x, order, truth", [("1e300", 2, 1e-300), ("1e100", 4, 2e-300),
                                             ("1e150", 3, -1e-300)])
def test_cli_x_log_x_where_a_row_vanished(x, order, truth):
    code, out, err = run_cli("grad", "x*log(x)", "--at", f"x={x}", "--order", str(order),
                             "--format", "json")
    assert code == 0
    derivative = json.loads(out)["points"][0]["derivative"]
    assert derivative == pytest.approx(truth, rel=RTOL, abs=0)
    assert err == ""        # the number is right: nothing to warn of


CASES = [("x*log(x)", _x_log_x, [(2, 1e200), (2, 1e250), (6, 7e60)]),
         ("x^2*log(x)", _x2_log_x, [(3, 1e150), (4, 1e100), (4, 1e150), (5, 1e100),
                                    (6, 7e60)]),
         ("x^4*log(x)", _x4_log_x, [(6, 7e60), (8, 7e60)])]


@pytest.mark.parametrize("text, truth, where", CASES, ids=[c[0] for c in CASES])
def test_api_closed_forms(text, truth, where):
    expression = adcli.parse(text)
    for order, x in where:
        got = taylor_nth(expression, {"x": np.array([x, 2.0])}, "x", order)
        assert not got.lost.any()
        for value, at in zip(got.derivative, (x, 2.0)):
            assert value == pytest.approx(float(truth(mp.mpf(at), order)), rel=RTOL, abs=0), \
                (text, order, at)


def test_exact_zero_rows_keep_their_number_to_the_bit():
    # x^2's row 3 is an exact 0 on every line; log's row 3 at 1e100 (3e-301) is in range
    # and its row 2's neighbour x * log'' = -5e-101 too: what is probed must not move
    xs = np.array([1e100, 3.0, 1e-3])
    expression = adcli.parse("x^2 + x*log(x) + exp(-x^2)")
    got = taylor_nth(expression, {"x": xs}, "x", 3).derivative
    one_by_one = [taylor_nth(expression, {"x": np.array([x])}, "x", 3).derivative[0]
                  for x in xs]
    assert got.tobytes() == np.array(one_by_one).tobytes()
    assert got[0] == pytest.approx(float(_x_log_x(mp.mpf(1e100), 3)), rel=RTOL, abs=0)


def test_a_vanished_row_no_line_weighs_is_said_to_be_unsure():
    # log's rows are below the range on every line where sin's are not above it; here they
    # are 1e-1400 beside sin's 1, and x + t's number (kept) is right, but no line can tell
    # that apart from a row that is the whole answer (next test): "may be wrong"
    code, out, err = run_cli("grad", "x*log(x) + sin(x)", "--at", "x=1e200", "--order", "8",
                             "--format", "json")
    assert code == 0
    derivative = json.loads(out)["points"][0]["derivative"]
    assert derivative == pytest.approx(float(mp.sin(mp.mpf(1e200))), rel=RTOL, abs=0)
    assert "may be wrong" in err


def test_a_vanished_row_that_is_the_whole_answer_is_said_to_be_unsure():
    # A tester: x^2 e^(-1/x) at 4.64e41, order 7: the truth is 3.9e-331 (mpmath at 1,200
    # digits), 0 as a float; every line tried under- or overflowed, and -5e-247 was shown
    # with nothing said
    code, out, err = run_cli("grad", "x^2*exp(-1/x)", "--at", "x=4.64e41", "--order", "7",
                             "--format", "json")
    assert code == 0
    assert "d7/dx7 at 1 of 1 point" in err and "may be wrong there" in err


@pytest.mark.parametrize("x, order", [(1e44, 8), (6e76, 5), (2.5e61, 6), (1.5e51, 7),
                                      (1e80, 5)])
def test_a_clean_looking_line_where_a_row_still_vanished_is_not_taken(x, order):
    # A tester: the search took x + 2^12 t as clean where log's row 5 was 0 there too
    # (wrong sign, 5-20 times too large, nothing said); the probes show that row nonzero
    got = taylor_nth(adcli.parse("x^2*log(x)"), {"x": np.array([x, 3.0])}, "x", order)
    for value, at in zip(got.derivative, (x, 3.0)):
        assert value == pytest.approx(float(_x2_log_x(mp.mpf(at), order)), rel=RTOL, abs=0)
    assert not got.lost.any()
