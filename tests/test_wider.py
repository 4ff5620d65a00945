"""Where a float64 step overflowed or underflowed, the same graph is run again in long double
(adcli.wider), and a value or derivative it contradicts is warned of: stderr, JSON
"warnings" (kind "range"), an AdcliWarning from the API's bare-number methods. The numbers
shown never change.

The truths are closed forms derived by hand, each checked here with mpmath:
- x^3/(1 + x^4):  f ~ 1/x, f' = (3x^2 - x^6)/(1 + x^4)^2 ~ -1/x^2    (1e-80, -1e-160 at 1e80)
- atan2(x^2, x):  f = atan(x), f' = 1/(1 + x^2)                     (1e-290, 1 at 1e-290)
- x/(1 + x^2):    f ~ 1/x, f' = (1 - x^2)/(1 + x^2)^2 ~ -1/x^2      (1e-160, -1e-320 at 1e160)
- x/exp(x):       f' = (1 - x) e^-x                                 (-3.5215680638877e-163 at 380)
- sqrt(x^2 + y^2) at (3e200, 4e200): 5e200, gradient (x, y)/5e200 = (0.6, 0.8)
- log(1 + exp(x)) at 800: 800 + log1p(e^-800), f' = 1/(1 + e^-x): 800 and 1 as floats
- x/sqrt(x^2 + 1) at 1e200: f' = (1 + x^2)^(-3/2) = 1e-600, 0 as a float
"""
from __future__ import annotations

import json
import re
import shlex
import warnings
from pathlib import Path

import mpmath
import numpy as np
import pytest

import adcli
from adcli import core, kernel, wider
from adcli.functions import PRIMITIVES
from conftest import (accuracy_script, adcli_on_terminal, plain_tape, run_cli, strict_json,
                      warnings_in, words)

pytestmark = pytest.mark.skipif(not wider.WIDE, reason="numpy's long double is float64 here")
mpmath.mp.dps = 60

CASES = [  # text, point, f as mpmath sees it (of t: the variables' mpf values, in order)
    ("x^3/(1+x^4)", {"x": 1e80}, lambda x: x**3 / (1 + x**4)),
    ("atan2(x^2, x)", {"x": 1e-290}, lambda x: mpmath.atan2(x * x, x)),
    ("x/(1+x^2)", {"x": 1e160}, lambda x: x / (1 + x**2)),
    ("x/exp(x)", {"x": 380.0}, lambda x: x / mpmath.exp(x)),
    ("sqrt(x^2+y^2)", {"x": 3e200, "y": 4e200}, lambda x, y: mpmath.sqrt(x**2 + y**2)),
    ("log(1+exp(x))", {"x": 800.0}, lambda x: mpmath.log(1 + mpmath.exp(x))),
    # x^2 = 8.9e-317 is subnormal: it keeps 9 digits, and so do f and d/dy (7e-9 off)
    ("sqrt(x^2 + y^2)", {"x": 9.427496100228095e-159, "y": 2.9177791951213344e-215},
     lambda x, y: mpmath.sqrt(x**2 + y**2)),
]
# By hand (module docstring): the value and each partial, rounded to float64.
HAND = {"x^3/(1+x^4)": (1e-80, [-1e-160]), "atan2(x^2, x)": (1e-290, [1.0]),
        "x/(1+x^2)": (1e-160, [-1e-320]), "x/exp(x)": (None, [-3.5215680638877e-163]),
        "sqrt(x^2+y^2)": (5e200, [0.6, 0.8]), "log(1+exp(x))": (800.0, [1.0]),
        # r = sqrt(x^2 + y^2) = x (1 + (y/x)^2/2), (y/x)^2 = 1e-113; gradient (x, y)/r
        "sqrt(x^2 + y^2)": (9.427496100228095e-159,
                            [1.0, 2.9177791951213344e-215 / 9.427496100228095e-159])}


def truths(f, point: dict):
    """f and its partials at the point by mpmath: 300 digits (y^2 is 1e-113 of x^2 in one
    case), central differences with a step 1e-25 of each coordinate (f is smooth there)."""
    with mpmath.workdps(300):
        at = [mpmath.mpf(v) for v in point.values()]
        value = f(*at)
        partials = []
        for i in range(len(at)):
            h = abs(at[i]) * mpmath.mpf(10) ** -25
            up, down = list(at), list(at)
            up[i], down[i] = at[i] + h, at[i] - h
            partials.append((f(*up) - f(*down)) / (2 * h))
        return +value, [+p for p in partials]


@pytest.mark.parametrize("text, point, f", CASES)
def test_the_hand_closed_forms_are_right(text, point, f):
    value, partials = truths(f, point)
    hand_value, hand_partials = HAND[text]
    if hand_value is not None:
        assert float(value) == pytest.approx(hand_value, rel=1e-12, abs=0)
    assert [float(p) for p in partials] == pytest.approx(hand_partials, rel=1e-12, abs=1e-330)


def said_numbers(line: str) -> tuple[float, float]:
    found = re.search(r"it is ([^\s,]+)(?:, give or take \S+ \(its own rounding\),)? where "
                      r"float64 gives (\S+):", line)
    return float(found.group(1)), float(found.group(2))


# ----- the numbers float64 lost are warned of, with long double's ------------------------

@pytest.mark.parametrize("text, point, f", CASES)
def test_each_lost_number_is_warned_of_with_the_true_one(text, point, f, engine):
    at = ",".join(f"{v}={x!r}" for v, x in point.items())
    code, out, err = run_cli("grad", text, "--at", at, "--format", "plain")
    assert code == 0
    value, partials = truths(f, point)
    value64, grads = plain_tape(text, {v: np.array([x]) for v, x in point.items()})
    shown_value, shown_partials = float(value64[0]), [float(grads[v][0]) for v in point]
    assert np.array_equal([float(x) for x in out.split()], [shown_value, *shown_partials],
                          equal_nan=True)  # the numbers shown are float64's, unchanged
    said = {line.split(": ")[2].split(" at ")[0]: line for line in warnings_in(err)
            if "long double" in line}
    expected = {}
    for name, truth, shown in [("the value", value, shown_value),
                               *[(f"d/d{v}", p, s) for v, p, s in
                                 zip(point, partials, shown_partials)]]:
        # (apart by more than 1e-11 of the truth, and by more than 4 units of 2^-1074, a
        # correct evaluation's error below the normal range: x/(1+x^2)'s f' = -1e-320 at
        # 1e160, which float64 can hold, is shown as 0 and said)
        apart = abs(shown - float(truth))
        if not apart <= max(1e-11 * abs(float(truth)), 4 * 2.0**-1074):
            expected[name] = (float(truth), shown)
    assert expected, "every case loses a number in float64"
    assert sorted(said) == sorted(expected)
    for name, (truth, shown) in expected.items():
        line = said[name]
        assert line.startswith(f"adcli: warning: {name} at 1 of 1 point: an intermediate step "
                               "overflowed or underflowed in float64, and computed again in "
                               "long double (a wider exponent range) it is ")
        assert line.endswith(f": the {'value' if name == 'the value' else 'derivative'} shown "
                             "is wrong there")
        wide, given = said_numbers(line)
        assert wide == pytest.approx(truth, rel=1e-12, abs=4 * 2.0**-1074)   # as above
        assert given == pytest.approx(shown, rel=1e-12, abs=0, nan_ok=True)


def test_what_forward_mode_caught_is_now_settled_by_long_double():
    # x/exp(x) at 380: forward mode gets the truth too; long double says which is right
    code, out, err = run_cli("grad", "x/exp(x)", "--at", "x=380", "--format", "plain")
    assert [line for line in warnings_in(err) if "forward mode" in line] == []


def test_json_lists_the_value_and_the_derivative_apart(engine):
    code, out, err = run_cli("grad", "x^3/(1+x^4)", "--at", "x=1e80", "--format", "json")
    result = strict_json(out)
    assert (result["points"][0]["value"], result["points"][0]["gradient"]) == (0.0, {"x": 0.0})
    assert result["warnings"] == [
        {"at": {"x": 1e80}, "function": "value", "kind": "range",
         "why": "an intermediate step overflowed or underflowed in float64, and computed again "
                "in long double (a wider exponent range) it is another number: the value "
                "shown is wrong there", "long_double": 1e-80},
        {"at": {"x": 1e80}, "function": "d/dx", "kind": "range",
         "why": "an intermediate step overflowed or underflowed in float64, and computed again "
                "in long double (a wider exponent range) it is another number: the derivative "
                "shown is wrong there", "long_double": -1e-160}]
    code, out, err = run_cli("grad", "x^3/(1+x^4)", "--at", "x=1e80", "--format", "jsonl")
    assert [w["function"] for w in json.loads(out)["warnings"]] == ["value", "d/dx"]


def test_eval_hessian_and_order_n_are_witnessed_too():
    # f = x^3/(1+x^4) ~ 1/x - 1/x^5 at 1e80: f' ~ -1/x^2, f'' ~ 2/x^3 = 2e-240 (float64
    # shows 0 for each); the third, ~ -6/x^4 = -6e-320, is subnormal, and float64 holds
    # it to 4 digits: its 0 is wrong too
    said = {}
    for argv in (["eval"], ["hessian"], ["grad", "--order", "2"], ["grad", "--order", "3"]):
        code, out, err = run_cli(*argv, "x^3/(1+x^4)", "--at", "x=1e80", "--format", "json")
        assert code == 0
        said[argv[-1]] = {line.split(": ")[2].split(" at ")[0]: said_numbers(line)
                          for line in warnings_in(err)}
    value = (pytest.approx(1e-80, rel=1e-12, abs=0), 0.0)
    second = (pytest.approx(2e-240, rel=1e-12, abs=0), 0.0)
    assert said["eval"] == {"the value": value}
    assert said["hessian"] == {"the value": value, "d2/dx2": second,
                               "d/dx": (pytest.approx(-1e-160, rel=1e-12, abs=0), 0.0)}
    assert said["2"] == {"the value": value, "d2/dx2": second}
    assert said["3"] == {"the value": value,
                         "d3/dx3": (pytest.approx(-6e-320, abs=2.0**-1074), 0.0)}


def test_a_hessian_checks_every_entry_and_names_it_as_its_column():
    # sqrt(x^2 + y^2) at x = 1.61e-162, y = 1.60e-203: x^2 is subnormal. With r the true
    # norm (= x to 82 digits): H = [[y^2, -xy], [-xy, x^2]]/r^3, so d2/dx dy = -y/r^2 =
    # -6.1576e120 and d2/dy2 = 1/r = 6.2105e161; d2/dx2 = y^2/r^3 = 6.1e79 is 82
    # digits below the terms it is the difference of, in float64 and in long double
    # alike: long double's is its own rounding (0, give or take ~1e146), which still
    # says float64's -inf is wrong
    x, y = 1.6101805818917452e-162, 1.5964761409495052e-203
    with mpmath.workdps(200):
        r = mpmath.sqrt(mpmath.mpf(x) ** 2 + mpmath.mpf(y) ** 2)
        mixed = float(-mpmath.mpf(y) / r**2)
        truth = {"d2/dx dy": mixed, "d2/dy dx": mixed, "d2/dy2": float(1 / r)}
        along_x = float(mpmath.mpf(y) ** 2 / r**3)
    result = adcli.parse("sqrt(x^2+y^2)").derivatives(x=x, y=y, order=2)
    marked = {key[0] for key in result.diagnostics.masks if key[1] == "range"}
    assert marked == {"", "x", "y", "x,x", "x,y", "y,x", "y,y"}
    first = result.diagnostics.wider["x,x"]
    assert (first.shown, first.bound > 1e100) == (-np.inf, True)
    assert abs(first.wider - along_x) <= first.bound
    code, out, err = run_cli("hessian", "sqrt(x^2+y^2)", "--at", f"x={x!r},y={y!r}",
                             "--format", "plain")
    said = {line.split(": ")[2].split(" at ")[0]: said_numbers(line)[0]
            for line in warnings_in(err) if "where float64 gives" in line}
    for name, number in truth.items():
        assert said[name] == pytest.approx(number, rel=1e-12)


def test_jacobian_names_the_row():
    # Several expressions: "the value" and d/dx would not say whose; f1, df1/dx do.
    code, out, err = run_cli("jacobian", "x", "x^3/(1+x^4)", "--at", "x=1e80", "--format",
                             "json")
    assert [line.split(": ")[2] for line in warnings_in(err)] == ["f2 at 1 of 1 point",
                                                                 "df2/dx at 1 of 1 point"]
    assert [(w["function"], w["kind"]) for w in strict_json(out)["warnings"]] == \
        [("f2", "range"), ("df2/dx", "range")]
    with pytest.warns(adcli.AdcliWarning) as said:   # (it returns the derivatives only)
        adcli.jacobian(["x", "x^3/(1+x^4)"], x=1e80)
    assert [str(w.message).split(" at ")[0] for w in said] == ["df2/dx"]
    code, out, err = run_cli("jacobian", "x^3/(1+x^4)", "--at", "x=1e80", "--format", "json")
    assert [w["function"] for w in strict_json(out)["warnings"]] == ["value", "d/dx"]


def test_a_nan_or_inf_that_long_double_finds_finite_is_said_so():
    # sqrt(x^2 + y^2) at (3e200, 4e200): x^2 overflows; the value is 5e200
    code, out, err = run_cli("grad", "sqrt(x^2+y^2)", "--at", "x=3e200,y=4e200", "--format",
                             "plain")
    assert out.split() == ["inf", "0.0", "0.0"]
    lines = warnings_in(err)
    assert lines[0].startswith("adcli: warning: '^' gave nan or inf at 1 of 1 point")
    assert said_numbers(lines[1]) == (5e200, float("inf"))


# ----- where float64 is right, nothing is said --------------------------------------------

QUIET = [
    ("exp(x)", 800.0),          # e^800 is beyond float64: inf is its value, long double agrees
    ("exp(-x)", 740.0),         # subnormal results, 4.2e-322 and -4.2e-322, correctly rounded
    ("x + exp(-x^2)", 27.2),
    ("x*atan(1/x)", 1e160),     # f' = 2/(3x^3) is 0 as a float, as float64 says
    ("1/x", 1e-320),            # inf, and -inf, beyond float64 in truth too
]


@pytest.mark.parametrize("text, x", QUIET)
def test_no_range_warning_where_float64_is_right(text, x, engine):
    code, out, err = run_cli("grad", text, "--at", f"x={x!r}", "--format", "json")
    assert code == 0
    assert [line for line in warnings_in(err) if "long double" in line] == []
    assert all(w["kind"] != "range" for w in strict_json(out).get("warnings", []))


def test_rounding_at_a_point_beside_a_flagged_one_is_not_said():
    # (1 - cos x)/x^2 at 1e-6 loses 4 digits to cancellation in float64 (the truth is
    # 1/2 - x^2/24): long double differs there, but no step left float64's range, so that
    # is not what this warning is about; at 1e200, x^2 overflows and raises the flag, and
    # both give 0 (the truth, ~1e-400, is 0 as a float)
    # (what it is about, adcli.rounding's witness says: at 1e-6 only)
    result = adcli.parse("(1-cos(x))/x^2").derivatives(x=np.array([1e-6, 1e200]))
    assert abs(result.value[0] - 0.5) > 1e-8
    assert {key: mask.tolist() for key, mask in result.diagnostics.masks.items()} == \
        {("", "rounding"): [True, False], ("x", "rounding"): [True, False]}


def test_a_number_that_is_long_doubles_own_rounding_is_no_witness(monkeypatch):
    # x/sqrt(x^2+1) at 1e200: long double's f' is what the rounding of two cancelling terms
    # of 1e-200 left (~7e-220; the truth is 1e-600). The runs nudged by a few ulps give
    # other such numbers, so it is not believed; were it (STABLE as loose as can be), it
    # would say float64's 0 is wrong.
    # (Its value, 1, is believed: float64's 0 from 1e200/inf is said to be wrong.)
    f = adcli.parse("x/sqrt(x^2+1)")
    result = f.derivatives(x=1e200)
    assert list(result.diagnostics.masks) == [("", "range")]
    assert result.diagnostics.wider[""].wider == 1.0
    monkeypatch.setattr(wider, "STABLE", np.inf)
    wide = f.derivatives(x=1e200).diagnostics.wider["x"].wider
    assert 1e-221 < abs(wide) < 1e-217


def test_a_number_far_outside_long_doubles_own_rounding_is_wrong_all_the_same():
    # log(x^2+1) - 2 log x at 1e200 = log1p(x^-2) = 1e-400, f' = -2/(x(x^2+1)) = -2e-600:
    # 0 and -0 as floats. float64 shows inf (x^2 overflows) and -2e-200; long double's
    # numbers are the rounding of cancelling terms (921.03 - 921.03, 2e-200 - 2e-200),
    # but the nudged runs bound that rounding far below what float64 shows.
    result = adcli.parse("log(x^2+1)-2*log(x)").derivatives(x=1e200)
    for name, shown in (("", np.inf), ("x", -2e-200)):
        first = result.diagnostics.wider[name]
        assert first.shown == pytest.approx(shown, rel=1e-12, abs=0)
        assert 0 < first.bound < 1e-8 * abs(shown)
        assert abs(first.wider) <= first.bound   # the truth, ~0, within it
    code, out, err = run_cli("grad", "log(x^2+1)-2*log(x)", "--at", "x=1e200", "--format",
                             "plain")
    assert re.search(r"it is \S+, give or take \S+ \(its own rounding\), where float64 gives "
                     r"-2e-200: the derivative shown is wrong there", err)


def test_a_constant_is_long_double_in_the_long_double_run():
    # atan2(1e-300, x)^(-1/2) at 7.8e152: f' = (1/2) atan2(1e-300, x)^(-3/2) 1e-300/(x^2 +
    # 1e-600). A tester: atan2's rule scales its arguments by 2^-508, and a float64
    # constant 1e-300 underflowed to 0 there: "it is 0" (a wrong number, stated as true)
    x = 7.8e152
    with mpmath.workdps(60):
        a = mpmath.atan2(mpmath.mpf(1e-300), mpmath.mpf(x))
        c = mpmath.mpf(1e-300)
        truth = float(a ** -1.5 / 2 * c / (mpmath.mpf(x) ** 2 + c ** 2))
    result = adcli.parse("atan2(1e-300, x)^(-0.5)").derivatives(x=x)
    assert result.diagnostics.wider["x"].wider == pytest.approx(truth, rel=1e-12, abs=0)


def test_one_hessian_entry_beyond_float64_leaves_the_others_judged():
    # x/(x^2+y^2) at x = -2.17e-159, y = 1.72e-159: f = x/r^2 ~ -2.8302009834e158 (float64
    # 1.3e-7 off through subnormal squares); second derivatives ~1e476 are beyond float64
    # (inf once rounded): a tester found the value then went unjudged
    x, y = -2.17e-159, 1.72e-159
    with mpmath.workdps(60):
        truth = float(mpmath.mpf(x) / (mpmath.mpf(x) ** 2 + mpmath.mpf(y) ** 2))
    result = adcli.parse("x/(x^2+y^2)").derivatives(x=x, y=y, order=2)
    assert result.diagnostics.wider[""].wider == pytest.approx(truth, rel=1e-12, abs=0)


@pytest.mark.parametrize("order", [2, 3, 4])
def test_order_n_is_judged_where_the_taylor_sweep_raised_the_flag(order):
    # 1e200*(1e-200*exp(1e-150*x)) = exp(1e-150 x): the n-th derivative is 1e-150n at 1
    # (1e-300, 1e-450 -> 0 as a float, 1e-600 -> 0); float64's Taylor rows of the inner
    # product underflow (1e-200 * 1e-150^n / n!) where the value's steps raise no flag
    # (row 2 vanished in one step: Taylor mode finds that by itself now, sweeping along
    # x + 2^m t, and the long double run, asked, agrees; 1e-450 -> 0 is right)
    result = adcli.parse("1e200*(1e-200*exp(1e-150*x))").nth_derivative("x", order, x=1.0)
    truth = {2: 1e-300, 3: 0.0, 4: 0.0}[order]
    assert float(result.derivative) == pytest.approx(truth, rel=1e-12, abs=0)
    assert result.diagnostics.wider == {}


@pytest.mark.parametrize("text, x, truth", [
    # exp(-800) e^x at 700 = e^-100 (f and f' alike); 2^-1100 e^700; x 1e-400 1e300 = 1e-100 x
    ("exp(-800)*exp(x)", 700.0, lambda: mpmath.exp(-100)),
    ("exp(x)*2^-1100", 700.0, lambda: mpmath.exp(700) * mpmath.mpf(2) ** -1100),
    ("x*(1e-200*1e-200)*1e300", 1.0,
     lambda: mpmath.mpf(1e-200) * mpmath.mpf(1e-200) * mpmath.mpf(1e300))])
def test_a_constant_folded_out_of_range_flags_every_point(text, x, truth, engine):
    # A tester: the kernel folds constant steps once, under no flag count, so nothing was
    # looked at (0 and 0 shown, no warning); the tape raises the flag at every run
    with mpmath.workdps(60):
        true = float(truth())
    result = adcli.parse(text).derivatives(x=np.array([x, x]))
    assert result.value.tolist() == [0.0, 0.0]
    assert result.diagnostics.wider[""].wider == pytest.approx(true, rel=1e-12, abs=0)
    assert result.diagnostics.masks[("", "range")].tolist() == [True, True]


def test_no_flag_no_long_double_run(monkeypatch):
    monkeypatch.setattr(wider, "judged", None)   # a call would fail
    x = np.linspace(-3.0, 3.0, 50_000)
    result = adcli.parse("x/exp(x) + sin(x)*x^2").derivatives(x=x)
    assert result.diagnostics.masks == {}


# ----- the API -------------------------------------------------------------------------------

def test_the_api_marks_the_points_and_warns_where_it_returns_bare_numbers():
    f = adcli.parse("x^3/(1+x^4)")
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # a Result carries its diagnostics: no warning
        result = f.derivatives(x=np.array([2.0, 1e80, 3.0]))
    masks = result.diagnostics.masks
    assert sorted(masks) == [("", "range"), ("x", "range")]
    assert masks[("", "range")].tolist() == [False, True, False]
    first = result.diagnostics.wider["x"]
    assert (first.index, first.at, first.shown) == (1, {"x": 1e80}, 0.0)
    assert first.wider == pytest.approx(-1e-160, rel=1e-12, abs=0)
    assert result.diagnostics.wider[""].wider == pytest.approx(1e-80, rel=1e-12, abs=0)
    # Each bare-number method warns of the numbers it returns, and only of them.
    with pytest.warns(adcli.AdcliWarning) as said:
        assert f.value(x=1e80) == 0.0
    assert [str(w.message)[:33] for w in said] == ["the value at 1 of 1 point: an int"]
    assert " it is 1e-80 " in str(said[0].message)
    with pytest.warns(adcli.AdcliWarning) as said:
        f.grad(x=np.array([2.0, 1e80, 3.0]))
    assert [str(w.message)[:22] for w in said] == ["d/dx at 1 of 3 points:"]
    assert "(first at x=1e+80)" in str(said[0].message)
    with pytest.warns(adcli.AdcliWarning) as said:
        f.value_and_grad(x=1e80)
    assert [str(w.message)[:14] for w in said] == ["the value at 1", "d/dx at 1 of 1"]
    with pytest.warns(adcli.AdcliWarning) as said:
        f.hessian(x=1e80)
    assert [str(w.message)[:16] for w in said] == ["d2/dx2 at 1 of 1"]


def test_a_run_long_double_cannot_settle_goes_to_forward_mode(monkeypatch):
    # Where the long double run was not clean (its own overflow, say), forward mode is
    # still the witness: x/exp(x) at 380 as if long double had overflowed too
    real = wider.judged

    def unsettled(*args):
        seen = real(*args)
        seen.settled[:] = False
        for wrong in seen.wrong.values():
            wrong[:] = False
        return seen
    monkeypatch.setattr(wider, "judged", unsettled)
    code, out, err = run_cli("grad", "x/exp(x)", "--at", "x=380", "--format", "plain")
    (line,) = warnings_in(err)
    assert "forward mode gives -3.5215680638877e-163 where reverse mode gives" in line


@pytest.mark.parametrize("n", [10, 100, 9000])   # a Schedule, a Program; several chunks
def test_among_many_points_only_the_bad_ones_are_marked(n):
    x = np.linspace(1.0, 10.0, n)
    x[[7, n - 2]] = 1e80
    result = adcli.parse("x^3/(1+x^4)").derivatives(x=x)
    for key in [("", "range"), ("x", "range")]:
        assert np.flatnonzero(result.diagnostics.masks[key]).tolist() == [7, n - 2]
    with np.errstate(over="ignore"):
        value = x**3 / (1 + x**4)   # where float64 is right, it is what is shown
    good = np.ones(n, bool)
    good[[7, n - 2]] = False
    assert kernel.identical(result.value[good], adcli.parse("x^3/(1+x^4)").value(x=x[good]))
    assert result.value[good] == pytest.approx(value[good], rel=1e-15, abs=0)


def test_only_the_points_where_a_step_left_the_range_run_in_long_double(monkeypatch):
    # numpy flags the block 32768:65536 for the one point at 1e80; the float64 run watched
    # there finds it (wider.suspects), and long double runs at it alone
    monkeypatch.setattr(kernel, "BLOCK", 32768)
    ran, real = [], wider.judged
    monkeypatch.setattr(wider, "judged", lambda run, arrays, asked, shown:
                        ran.append(len(arrays[0])) or real(run, arrays, asked, shown))
    x = np.linspace(1.0, 10.0, 70_000)
    x[40_001] = 1e80
    result = adcli.parse("x^3/(1+x^4)").derivatives(x=x)
    assert np.flatnonzero(result.diagnostics.masks[("x", "range")]).tolist() == [40_001]
    assert ran == [1]


def test_where_a_result_is_inf_the_kernels_blocks_still_say_where_to_look(monkeypatch):
    # x^2 + x/(1+x^2) at 1e200: x^2 is inf, so the tape runs for every point (to name
    # the function), and its flags are for the whole set; the kernel ran first, per block
    monkeypatch.setattr(kernel, "BLOCK", 32768)
    looked, real = [], wider.suspects
    monkeypatch.setattr(wider, "suspects", lambda run, arrays, asked:
                        looked.append(len(arrays[0])) or real(run, arrays, asked))
    x = np.linspace(1.0, 10.0, 70_000)
    x[40_001] = 1e200
    result = adcli.parse("x^2 + x/(1+x^2)").derivatives(x=x)
    assert looked == [32768]
    assert np.flatnonzero(result.diagnostics.masks[("pow", "value")]).tolist() == [40_001]


def test_the_cli_counts_and_names_the_first_bad_point(tmp_path):
    points = tmp_path / "points.csv"
    points.write_text("x\n" + "\n".join(map(repr, [1.0, 2.0, 1e80, 3.0, 1e100])) + "\n")
    code, out, err = run_cli("grad", "x^3/(1+x^4)", "--points", str(points), "--format",
                             "json")
    lines = [line for line in warnings_in(err) if "long double" in line]
    assert len(lines) == 2
    assert all("at 2 of 5 points" in line and "(first at x=1e+80)" in line for line in lines)
    assert [w["at"]["x"] for w in strict_json(out)["warnings"]] == [1e80, 1e80, 1e100, 1e100]


# ----- the witness itself: every primitive, as accurate as float64's goal ------------------

acc = accuracy_script()


@pytest.mark.parametrize("name", sorted(n for n in PRIMITIVES if n not in acc.NOT_SWEPT))
def test_every_primitive_runs_in_long_double_within_an_ulp(name):
    # The witness's numbers are quoted as the truth: each primitive's value and first
    # partials, run on long double and rounded to float64, must be within 1 ulp of the
    # 50-digit reference on the accuracy sample (float64's own goal is 4), and no step may
    # fall back to float64 (a float64 buffer made inside a rule would).
    from test_accuracy import _points

    args = [np.asarray(a, dtype=np.float64) for a in _points(name)]
    leaves = [core.Variable(a.astype(np.longdouble)) for a in args]
    with np.errstate(all="ignore"):
        y = PRIMITIVES[name]()(*leaves)
        y.backward()
    outputs = {(): y.data, **{(i,): leaf.grad.data for i, leaf in enumerate(leaves)
                             if leaf.grad is not None}}
    assert {k: o.dtype for k, o in outputs.items()} == {k: np.dtype(np.longdouble)
                                                         for k in outputs}
    worst = 0.0
    for k in range(len(args[0])):
        point = tuple(float(a[k]) for a in args)
        value = acc.reference(name, (), point)
        if value is None or abs(value) > acc.HUGE:
            continue
        for partial, computed in outputs.items():
            true = value if partial == () else acc.reference(name, partial, point)
            if acc.scored(true):
                with np.errstate(over="ignore"):
                    got = float(np.broadcast_to(computed, args[0].shape)[k])
                worst = max(worst, acc.ulps(got, true))
    assert worst <= 1.0


# ----- the README, on a terminal, and what it costs -------------------------------------------

def test_the_readme_example_is_what_adcli_prints():
    text = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = text[text.index("**When a step overflows or underflows**"):]
    start = section.index("```console\n") + len("```console\n")
    lines = section[start:section.index("```", start)].splitlines()
    assert lines[0].startswith("$ adcli ")
    code, out, err = run_cli(*shlex.split(lines[0])[2:])
    assert (code, (out + err).splitlines()) == (0, lines[1:])


@pytest.mark.parametrize("columns", [40, 80, 120])
def test_the_warning_on_a_terminal(columns):
    code, rows = adcli_on_terminal(columns, "grad", "x^3/(1+x^4)", "--at", "x=1e80")
    said = " ".join(words(rows))
    assert code == 0
    assert ("warning: the value at 1 of 1 point: an intermediate step overflowed or "
            "underflowed in float64, and computed again in long double (a wider exponent "
            "range) it is 1e-80 where float64 gives 0: the value shown is wrong there") in said
    assert said.endswith("it is -1e-160 where float64 gives 0: the derivative shown is "
                         "wrong there")


def test_a_one_point_run_imports_the_witness_only_where_a_flag_fired():
    from test_start_up_path import modules_of

    assert "adcli.wider" not in modules_of("grad", "x^2", "--at", "x=1", "--format", "json")
    flagged = modules_of("grad", "x/exp(x)", "--at", "x=380", "--format", "json")
    assert "adcli.wider" in flagged
    assert "adcli.taylor" not in flagged   # long double settled it: no forward mode
