"""sin, cos, sec, csc and cot at huge arguments near multiples of pi/2, against mpmath.

glibc's sin and cos (numpy's float64 np.sin and np.cos) are off by up to ~137,000 ulps
there, where the result is tiny: cos(1.5986289000543612e+74) is 136,921 ulps off. The
points are x = m 2^e with m the denominator of a continued-fraction convergent of
2^e/(pi/2): the float64s closest to a multiple of pi/2 (sin's tiny at even multiples, cos's
at odd ones), from 1.2e8 (2 ulps off in glibc) to 1.7e304, found as the tester's search
(hard3.py) finds them. The references are mpmath's, whose argument reduction is exact.
"""
from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest
from conftest import run_cli, strict_json
from test_kernel import assert_identical, both_engines

import adcli
from adcli import kernel
from adcli.functions import PRIMITIVES

HARD = [
    # the tester's
    205097628711448.4, 1.5986289000543612e+74, 6.426511099577231e+173, 1.2094912707964283e+23,
    6381956970095103 * 2.0**797, 410195257422896.8, 563416747700.2246,
    # more: for each 25 decades, the two worst for sin and for cos; the smallest
    74384943244996.3, 78892277226598.1, 820390514845793.6, 1212556436342283.2,
    1426668733016935.2, 6.004779142530142e+29, 1.510677598022888e+43, 3.021355196045776e+43,
    1.2085420784183104e+44, 6.123038577885125e+65, 2.312060621621024e+73,
    4.624121243242048e+73, 1.4112225985636836e+87, 1.861539571424836e+88,
    8.457122029796849e+94, 1.6914244059593698e+95, 2.8568083223026543e+117,
    1.2492703716550282e+123, 2.4985407433100564e+123, 4.997081486620113e+123,
    9.24262029972962e+131, 1.1799704727080194e+132, 1.2453614190388832e+138,
    4.981445676155533e+138, 1.8204477481560787e+167, 7.281790992624315e+167,
    1.456358198524863e+168, 1.5320033177097827e+181, 3.0640066354195654e+181,
    6.128013270839131e+181, 3.1917202230723774e+188, 8.253646307008743e+201,
    8.676341128915087e+210, 2.732423188048231e+218, 5.464846376096462e+218,
    9.861103477336024e+231, 1.972220695467205e+232, 3.94444139093441e+232,
    1.4918079000152377e+239, 1.1966001996915235e+254, 2.393200399383047e+254,
    1.6010809521263402e+268, 1.6181200003661493e+268, 1.852160628987805e+275,
    5.828466862870158e+282, 7.324786709818491e+289, 2.40477172282772e+296,
    3.32969637148221e+303, 8.706161228804208e+303, 1.4082626086126206e+304,
    1.7412322457608416e+304,
    # just past glibc's own accurate range (105414350): 2 ulps there
    115689413.36222704,
]
X = np.array(HARD + [-x for x in HARD])

# f, f', f'' in mpmath, from sin s and cos c
TRUE = {
    "sin": lambda s, c: (s, c, -s),
    "cos": lambda s, c: (c, -s, -c),
    "sec": lambda s, c: (1 / c, s / c**2, (1 + s**2) / c**3),
    "csc": lambda s, c: (1 / s, -c / s**2, (1 + c**2) / s**3),
    "cot": lambda s, c: (c / s, -1 / s**2, 2 * c / s**3),
}
FUNCTIONS = sorted(TRUE)
ULPS = 4           # values and first derivatives: the README's bound
ULPS_SECOND = 6    # second derivatives: a few more roundings on the way


def truth(name: str, x: float) -> tuple[float, float, float]:
    with mp.workdps(60):
        t = mp.mpf(x)
        return tuple(float(v) for v in TRUE[name](mp.sin(t), mp.cos(t)))


def ulps_off(got, want) -> float:
    return abs(float(got) - want) / math.ulp(want)


def worst(got, want) -> tuple:
    """(ulps, x) at the point farthest from the truth."""
    return max((ulps_off(g, w), x) for g, w, x in zip(got, want, X))


@pytest.mark.parametrize("name", FUNCTIONS)
def test_values_and_first_derivatives_within_four_ulps(name):
    want = [truth(name, x) for x in X]
    value, grad = adcli.parse(f"{name}(x)").value_and_grad(x=X)
    assert worst(value, [w[0] for w in want])[0] <= ULPS, worst(value, [w[0] for w in want])
    assert worst(grad["x"], [w[1] for w in want])[0] <= ULPS, \
        worst(grad["x"], [w[1] for w in want])


@pytest.mark.parametrize("name", FUNCTIONS)
def test_second_derivatives_on_the_tape(name):
    want = [truth(name, x)[2] for x in X]
    hessian = adcli.parse(f"{name}(x)").hessian(x=X)[:, 0, 0]
    assert worst(hessian, want)[0] <= ULPS_SECOND, worst(hessian, want)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_taylor_coefficients(name):
    """grad --order 2 goes through the Taylor rules (the pair and reciprocal series)."""
    want = [truth(name, x)[2] for x in X]
    got = adcli.parse(f"{name}(x)").derivative("x", 2, x=X)
    assert worst(got, want)[0] <= ULPS_SECOND, worst(got, want)


def mixed_block():
    """Hard points among ordinary ones, nan and infinities, in one 32,768-point block."""
    rng = np.random.default_rng(5)
    x = rng.uniform(-10.0, 10.0, 32768)
    x[rng.choice(len(x), len(X), replace=False)] = X
    x[:4] = [np.nan, np.inf, -np.inf, 1e300]
    return x


# compound expressions and their values in mpmath, from sin s, cos c and x
COMPOUND = {
    "sin(x)*cos(x)": lambda s, c, x: s * c,
    "x*cos(x)^2 + sin(x)": lambda s, c, x: x * c**2 + s,
    "sec(x)/cot(x)": lambda s, c, x: s / c**2,
}


def true_value(text: str, x: float) -> float:
    if text in COMPOUND:
        with mp.workdps(60):
            t = mp.mpf(x)
            return float(COMPOUND[text](mp.sin(t), mp.cos(t), t))
    return truth(text[:3], x)[0]


@pytest.mark.parametrize("text", [f"{name}(x)" for name in FUNCTIONS] + list(COMPOUND))
def test_the_kernel_gives_the_tapes_accurate_numbers(text, tape):
    """Program, Schedule and interpret give the tape's bits, and those bits are right."""
    expression = adcli.parse(text)
    at = {"x": mixed_block()}
    with np.errstate(all="ignore"):
        want = tape(expression, at)
        for got in both_engines(expression, at):
            assert_identical(got, want, text)
    hard = np.isin(at["x"], X)
    truths = [true_value(text, x) for x in at["x"][hard]]
    assert max(ulps_off(g, w) for g, w in zip(want.value[hard], truths)) <= ULPS


@pytest.mark.parametrize("x", [HARD[0], HARD[1], -HARD[2], HARD[5]])
def test_one_point_through_every_engine(x, tape):
    """At one point the kernel runs its steps on arrays of one (interpret's float plans)."""
    expression = adcli.parse("sin(x) + cot(x)*cos(x)")
    at = {"x": np.array([x])}
    want = tape(expression, at)
    for got in both_engines(expression, at):
        assert_identical(got, want, x)
    with mp.workdps(60):
        s, c = mp.sin(mp.mpf(x)), mp.cos(mp.mpf(x))
        true = float(-c / s**2)            # sin + cos^2/sin is 1/sin
    assert ulps_off(want.gradient["x"][0], true) <= ULPS


def test_every_point_alone_and_in_a_block_alike():
    """A point's bits do not depend on its neighbours (the repair runs per block)."""
    x = mixed_block()
    for name in ("sin", "cos"):
        forward = PRIMITIVES[name]().forward
        with np.errstate(all="ignore"):
            whole = forward(x)
            alone = np.array([forward(x[i:i + 1])[0] for i in range(0, len(x), 97)])
        assert kernel.identical(alone, whole[::97])
        assert kernel.identical(whole[np.isin(x, X)],
                                [float(truth(name, v)[0]) for v in x[np.isin(x, X)]])


def test_the_cli_shows_the_true_derivative():
    code, out, err = run_cli("grad", "sin(x)", "--at", "x=205097628711448.4",
                             "--format", "json")
    assert code == 0, err
    point = strict_json(out)["points"][0]
    want = truth("sin", 205097628711448.4)[1]          # 1.9177273808217004e-17
    assert ulps_off(point["gradient"]["x"], want) <= 1
