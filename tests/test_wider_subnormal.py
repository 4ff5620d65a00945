"""The long double witness (adcli.wider) on numbers in float64's subnormal range, below
2.2e-308, where float64's spacing is one unit of 2^-1074 = 4.9e-324 whatever the size: a
number there holds as many digits as it has units. One that lost digits on the way (a
subnormal step's rounding, magnified by a later one) is warned of, with long double's
number, as a normal one is; one that a correct float64 evaluation gives (a unit or so
off) is not.

The truths are closed forms by hand, evaluated with mpmath at 60 digits:
- x^2 e^-x:      f' = (2x - x^2) e^-x,  f''' = (-x^2 + 6x - 6) e^-x
- exp(-x^2):     f' = -2x e^-x^2
- c e^-x:        every derivative is +-c e^-x
- x/(1 + x^2):   f' = (1 - x^2)/(1 + x^2)^2
- (1e4 + x - 1e4) 1e-300 = 1e-300 x
"""
from __future__ import annotations

import re

import mpmath
import numpy as np
import pytest

import adcli
from adcli import wider
from conftest import adcli_on_terminal, plain_tape, run_cli, warnings_in, words

pytestmark = pytest.mark.skipif(not wider.WIDE, reason="numpy's long double is float64 here")
mpmath.mp.dps = 60
UNIT = 2.0**-1074   # float64's spacing below its normal range


def e(x):
    return mpmath.exp(-mpmath.mpf(x))


def units(a: float, b) -> float:
    """How far apart a float and an mpmath number are, in units of 2^-1074."""
    return float(abs(mpmath.mpf(a) - mpmath.mpf(b)) / mpmath.mpf(UNIT))


def near(a: float, truth, n: float) -> bool:
    """Within n units of the truth, or, a normal number, within an ulp of it."""
    return units(a, truth) <= n or abs(a - float(truth)) <= 2**-52 * abs(float(truth))


def numbers(text: str, x: float, order: int) -> tuple:
    """float64's numbers as shown, named as the warnings name them, and the diagnostics."""
    f = adcli.parse(text)
    if order == 1:
        result = f.derivatives(x=x)
        shown = {"": result.value, "x": result.gradient["x"]}
    else:
        result = f.nth_derivative("x", order, x=x)
        shown = {"": result.value, f"x^{order}": result.derivative}
    return {name: float(a) for name, a in shown.items()}, result.diagnostics


# ----- a number that lost digits to the subnormal range is warned of ---------------------

LOST = [  # text, x, order, the truths (of the value, then the derivative), those lost
    # a tester: exp(-745) = 4.9e-324 keeps one bit, and x^2 magnifies its rounding 5.5e5
    # times (75% off); at 740 it keeps 7 bits (0.26%, and 0.9% for f''')
    ("x^2*exp(-x)", 745.0, 1, lambda x: (x**2 * e(x), (2 * x - x**2) * e(x)), {"", "x"}),
    ("x^2*exp(-x)", 740.0, 1, lambda x: (x**2 * e(x), (2 * x - x**2) * e(x)), {"", "x"}),
    ("x^2*exp(-x)", 740.0, 3, lambda x: (x**2 * e(x), (-x**2 + 6 * x - 6) * e(x)),
     {"", "x^3"}),
    # exp(-x^2) is correctly rounded (99 units); -2x times it is 26 units off (0.5%)
    ("exp(-x^2)", 27.2, 1, lambda x: (mpmath.exp(-x**2), -2 * x * mpmath.exp(-x**2)), {"x"}),
    # normal numbers 2e-308 apart: 4.9e-308 shown for 2.8e-308
    ("exp(-x)*1e16", 745.0, 1, lambda x: (e(x) * 1e16, -e(x) * 1e16), {"", "x"}),
    # (1 + x^2)^2 overflows: f' = -1e-320, which float64 can hold, comes out 0
    ("x/(1+x^2)", 1e160, 1, lambda x: (x / (1 + x**2), (1 - x**2) / (1 + x**2) ** 2),
     {"", "x"}),
]


@pytest.mark.parametrize("text, x, order, truth, lost", LOST)
def test_a_subnormal_that_lost_digits_is_warned_of_with_the_true_number(text, x, order,
                                                                        truth, lost):
    shown, diagnostics = numbers(text, x, order)
    truths = dict(zip(shown, truth(mpmath.mpf(x))))
    # The case is what it says: the numbers said to be lost are far from the truth, in
    # units and relatively; the others are as near as float64 gets
    for name, number in shown.items():
        if name in lost:
            assert units(number, truths[name]) > 10
            assert abs(number - float(truths[name])) > 1e-4 * abs(float(truths[name]))
        else:
            assert near(number, truths[name], 1)
    assert {key[0] for key in diagnostics.masks if key[1] == "range"} == lost
    for name in lost:
        first = diagnostics.wider[name]
        assert (first.shown, first.bound) == (shown[name], 0.0)
        assert near(first.wider, truths[name], 0.5)   # the truth, rounded


def test_the_cli_says_long_doubles_number_and_shows_float64s():
    code, out, err = run_cli("grad", "x^2*exp(-x)", "--at", "x=745", "--format", "csv")
    assert code == 0
    value, grads = plain_tape("x^2*exp(-x)", {"x": np.array([745.0])})
    assert out.splitlines()[1].split(",")[1:] == [repr(float(value[0])),   # float64's, as
                                                  repr(float(grads["x"][0]))]   # they were
    lines = warnings_in(err)
    assert [line.split(": ")[2].split(" at ")[0] for line in lines] == ["the value", "d/dx"]
    for line, truth in zip(lines, [745**2 * e(745), (2 * 745 - 745**2) * e(745)]):
        found = re.search(r"it is (\S+) where float64 gives (\S+): the \w+ shown is wrong "
                          r"there$", line)
        assert found, line
        assert units(float(found.group(1)), truth) <= 1
        assert units(float(found.group(2)), truth) > 1e5
        # each printed with the digits a subnormal holds, float64's as its column shows it
        assert found.group(1) == repr(float(found.group(1)))
        assert found.group(2) in out.splitlines()[1].split(",")


def test_long_doubles_own_rounding_at_that_scale_is_said_to_be_so():
    # (1e4 + x - 1e4) at 1e-12 is 1e-12 give or take 1e-15 in long double (its ulp at
    # 1e4 is 8.9e-16), so times 1e-300 it is 1e-312 to 3 digits, not to 14; float64
    # gives 1.8e-312 (its ulp at 1e4 is 1.8e-12). Where long double's spread is that of
    # a normal number that is its own rounding, it is said with its bound.
    result = adcli.parse("(1e4 + x - 1e4)*1e-300").derivatives(x=1e-12)
    first = result.diagnostics.wider[""]
    truth = mpmath.mpf(1e-12) * mpmath.mpf(1e-300)
    assert first.shown == pytest.approx(1.818989403547e-312, rel=1e-9, abs=0)
    assert 1e-316 < first.bound < 1e-312
    assert abs(mpmath.mpf(first.wider) - truth) <= first.bound
    code, out, err = run_cli("grad", "(1e4 + x - 1e4)*1e-300", "--at", "x=1e-12",
                             "--format", "plain")
    found = re.search(r"the value at 1 of 1 point: .* it is \S+, give or take \S+ \(its own "
                      r"rounding\), where float64 gives (\S+): the value shown is wrong there",
                      err)
    assert float(found.group(1)) == pytest.approx(first.shown, rel=1e-13, abs=0)


# ----- a correct float64 evaluation is not called wrong -----------------------------------

RIGHT = [  # text, point, order, the truths of the value and each derivative asked for
    # single correctly rounded steps: float64's best
    ("x*y", {"x": 1e-160, "y": 1e-160}, 1, lambda x, y: (x * y, y, x)),
    ("x/y", {"x": 1e-300, "y": 1e20}, 1, lambda x, y: (x / y, 1 / y, -x / y**2)),
    ("exp(-x)", {"x": 740.0}, 1, lambda x: (e(x), -e(x))),
    ("exp(-x)", {"x": 744.9}, 1, lambda x: (e(x), -e(x))),
    ("x^3", {"x": 1.3e-108}, 1, lambda x: (x**3, 3 * x**2)),
    # correct, though not the best: two rounded subnormals summed (a unit off), a
    # rounded one tripled (1.4 units off), Taylor mode's e^-740/3! (a unit off)
    ("exp(-x)+exp(-y)", {"x": 742.0, "y": 743.0}, 1, lambda x, y: (e(x) + e(y), -e(x), -e(y))),
    ("3*exp(-x)", {"x": 742.0}, 1, lambda x: (3 * e(x), -3 * e(x))),
    ("3*exp(-x)", {"x": 739.0}, 1, lambda x: (3 * e(x), -3 * e(x))),
    ("exp(-x)", {"x": 740.0}, 3, lambda x: (e(x), -e(x))),
]


@pytest.mark.parametrize("text, point, order, truth", RIGHT)
def test_a_subnormal_a_correct_evaluation_gives_is_not_called_wrong(text, point, order, truth,
                                                                    monkeypatch):
    judged, real = [], wider.judged
    monkeypatch.setattr(wider, "judged", lambda *args: judged.append(1) or real(*args))
    f = adcli.parse(text)
    if order == 1:
        result = f.derivatives(at=point)
        shown = [result.value, *result.gradient.values()]
    else:
        result = f.nth_derivative("x", order, at=point)
        shown = [result.value, result.derivative]
    truths = truth(*[mpmath.mpf(v) for v in point.values()])
    assert all(near(float(s), t, 1.5) for s, t in zip(shown, truths))
    assert judged, "the witness was asked (a step was subnormal)"
    assert result.diagnostics.masks == {}
    at = ",".join(f"{v}={x!r}" for v, x in point.items())
    argv = ["grad", text, "--at", at, "--format", "plain"] + \
        (["--order", str(order)] if order > 1 else [])
    code, out, err = run_cli(*argv)
    assert (code, warnings_in(err)) == (0, [])


def test_some_of_those_are_not_float64s_best():
    # (so that their silence says something: a rule that asked for the nearest float
    # would call these wrong)
    with np.errstate(under="ignore"):
        assert np.exp(-742.0) + np.exp(-743.0) != float(e(742) + e(743))
        assert 3 * np.exp(-742.0) != float(3 * e(742))


def test_every_subnormal_exp_and_its_derivative_is_not_called_wrong():
    # exp is correctly rounded into the subnormal range, from 4.9e-324 (one bit) up
    x = np.linspace(708.5, 745.1, 3001)
    result = adcli.parse("exp(-x)").derivatives(x=x)
    with mpmath.workdps(30):
        truth = [float(e(v)) for v in x[::100]]
    assert result.value[::100].tolist() == truth
    assert result.diagnostics.masks == {}


@pytest.mark.parametrize("columns", [40, 80, 120])
def test_the_warning_on_a_terminal(columns):
    code, rows = adcli_on_terminal(columns, "grad", "x^2*exp(-x)", "--at", "x=745")
    said = " ".join(words(rows))
    assert code == 0
    found = re.findall(r"warning: (the value|d/dx) at 1 of 1 point: an intermediate step "
                       r"overflowed or underflowed in float64, and computed again in long "
                       r"double \(a wider exponent range\) it is (\S+) where float64 gives "
                       r"\S+: the (?:value|derivative) shown is wrong there", said)
    assert [name for name, _ in found] == ["the value", "d/dx"]
    for (_, number), truth in zip(found, [745**2 * e(745), (2 * 745 - 745**2) * e(745)]):
        assert units(float(number), truth) <= 1
