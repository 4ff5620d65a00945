"""Powers at infinite (and nan) exponents and bases, and the reasons warnings give there.

References are limits worked out by hand: for 0 < a < 1, a^b, b a^(b-1) and a^b ln a all
tend to 0 as b -> inf (the power decays exponentially, its factors grow polynomially or
stay put), and likewise for a > 1 as b -> -inf; for b < 0, a^b ln a -> 0 as a -> inf.
1^b is 1 for every b, nan included (IEEE 754's pow, as numpy and C): a constant, so its
slope in b is 0 there too; its slope in the base, b, is nan at b = nan (a true nan, said
as such). Numbers too small for float64 (1e200 (1e200 - 1) 0.5^(1e200 - 2)) come from
mpmath and round to 0.
"""
import math
import warnings

import mpmath as mp
import numpy as np
import pytest

import adcli
from adcli import kernel
from conftest import run_cli, strict_json, warnings_in

INF = math.inf


def json_point(command: str, text: str, at: str) -> tuple[dict, list[str], str]:
    code, out, err = run_cli(command, text, "--at", at, "--format", "json")
    assert code == 0, err
    document = strict_json(out)
    return document["points"][0], document.get("warnings", []), err


def number(said) -> float:
    return float(said)  # (JSON's "inf", "-inf", "nan" strings, or a number)


# ----- first derivatives: the limits ---------------------------------------------------

@pytest.mark.parametrize("x, y", [(0.5, "inf"), (0.25, "inf"), (0.999, "inf"),
                                  (2.0, "-inf"), (3.0, "-inf"), (1.001, "-inf")])
def test_a_power_that_vanishes_at_an_infinite_exponent_has_slopes_of_0(x, y):
    # a^b -> 0, and with it b a^(b-1) and a^b ln a: the gradient was nan, blamed on
    # "a base of 0 or less" for a base of 0.5.
    point, said, err = json_point("grad", "x^y", f"x={x},y={y}")
    assert point["value"] == 0.0
    assert point["gradient"] == {"x": 0.0, "y": 0.0}
    assert said == [] and warnings_in(err) == []


def test_2_to_the_minus_inf_has_slope_0_as_exp_of_x_log_2_has():
    for text in ("2^x", "exp(x*log(2))"):
        point, said, _ = json_point("grad", text, "x=-inf")
        assert (point["value"], point["gradient"]["x"], said) == (0.0, 0.0, [])


@pytest.mark.parametrize("x", ["inf", "-inf", "nan"])
def test_1_to_any_power_is_1_and_flat(x):
    point, said, err = json_point("grad", "1^x", f"x={x}")
    assert (point["value"], point["gradient"]["x"]) == (1.0, 0.0)
    assert said == [] and warnings_in(err) == []


def test_2_to_the_plus_inf_is_inf_and_blamed_on_the_value_given():
    # No limit: value and slope inf; the reason is the input, not a base of 0 or less.
    point, said, err = json_point("grad", "2^x", "x=inf")
    assert (number(point["value"]), number(point["gradient"]["x"])) == (INF, INF)
    assert [w["kind"] for w in said] == ["input"]
    assert warnings_in(err) == ["adcli: warning: x was given nan or inf at 1 of 1 point, "
                                "so a result there is too"]


def test_a_constant_infinite_exponent_has_the_limit_too():
    # x^1e999 reads as x^inf: at 0.5 its slope inf * 0.5^inf tends to 0.
    code, out, _ = run_cli("grad", "x^1e999", "--at", "x=0.5", "--format", "plain")
    assert (code, out) == (0, "0.0 0.0\n")


def test_an_infinite_base_to_a_negative_power_is_flat_in_the_exponent():
    # d/db a^b = a^b ln a = ln(a)/a at b = -1: 0 as a -> inf (it was inf * 0 = nan).
    code, out, err = run_cli("grad", "1e999^x", "--at", "x=-1", "--format", "plain")
    assert (code, out) == (0, "0.0 0.0\n")
    assert "derivative of '^'" not in err
    point, said, _ = json_point("grad", "x^y", "x=inf,y=-1")
    assert point["gradient"] == {"x": 0.0, "y": 0.0} and said == []


# ----- second derivatives ---------------------------------------------------------------

@pytest.mark.parametrize("at", ["x=0.5,y=inf", "x=2,y=-inf", "x=inf,y=-1", "x=0.5,y=1e200"])
def test_the_hessian_at_a_vanishing_power_is_0(at):
    # y(y-1) x^(y-2), x^(y-1) (1 + y ln x), x^y ln^2 x: all tend to 0 (at y = 1e200 they
    # are below the smallest float64, as mpmath says below).
    point, said, _ = json_point("hessian", "x^y", at)
    assert point["hessian"] == [[0.0, 0.0], [0.0, 0.0]]
    assert [w for w in said if w["function"] == "^"] == []


def test_the_hessian_of_a_huge_constant_power_underflows_to_0_not_nan():
    # (b)_2 = 1e400 overflows, 0.5^(b-2) underflows: the product is far below 5e-324.
    with mp.workdps(30):
        b = mp.mpf("1e200")
        exact = b * (b - 1) * mp.mpf("0.5") ** (b - 2)
    assert float(exact) == 0.0
    code, out, err = run_cli("hessian", "x^1e200", "--at", "x=0.5", "--format", "json")
    assert code == 0
    assert strict_json(out)["points"][0]["hessian"] == [[0.0]]
    assert warnings_in(err) == []


def test_the_hessian_of_an_infinite_base_to_the_power_0():
    # a^b at b = 0: d2/da2 = 0, d2/da db = 1/a -> 0, d2/db2 = ln^2 a -> inf.
    point, _, _ = json_point("hessian", "x^y", "x=inf,y=0")
    assert point["hessian"] == [[0.0, 0.0], [0.0, "inf"]]


def test_the_api_hessian_at_infinite_exponents_has_the_limits():
    f = adcli.parse("x^y")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (no AdcliWarning of a nan derivative either)
        h = f.hessian(x=np.array([0.5, 2.0, 0.1]), y=np.array([INF, -INF, INF]))
    assert np.array_equal(h, np.zeros((3, 2, 2)))


# ----- the same numbers in every engine and in the traces -------------------------------

def test_the_kernel_gives_the_tapes_limits(tape):
    # Enough points for the compiled kernel; its steps are the tape's forwards.
    x = np.tile([0.5, 2.0, 1.0, 1.0, INF, 0.5], 50)
    y = np.tile([INF, -INF, INF, np.nan, -1.0, 2.0], 50)
    expression = adcli.parse("x^y")
    at = {"x": x, "y": y}
    want = tape(expression, at)
    assert np.array_equal(want.gradient["y"][:5], [0.0, 0.0, 0.0, 0.0, 0.0])
    assert np.array_equal(want.gradient["x"][:3], [0.0, 0.0, INF])
    n = len(x)
    for got in (kernel.program(expression, ("x", "y"), 1).run(at, n),
                kernel.schedule(expression, 1).run(at, n, ("x", "y")),
                kernel.interpret(expression, at, n, ("x", "y"), 1)):
        assert kernel.identical(got[0], want.value)
        for name in ("x", "y"):
            assert kernel.identical(got[1][name], want.gradient[name])


def test_the_reverse_trace_of_2_to_the_minus_inf_is_0_throughout():
    code, out, _ = run_cli("trace", "2^x", "--at", "x=-inf")
    assert code == 0
    assert "v̄1 = v̄2·((2^v1)·log(2)) = 0.0" in out
    assert "nan" not in out


def test_the_forward_trace_agrees_with_the_reverse_limit():
    code, out, _ = run_cli("trace", "x^y", "--at", "x=0.5,y=inf", "--mode", "forward",
                           "--wrt", "x")
    assert code == 0
    assert "∂f/∂x = v̇3 = 0.0" in out
    assert "◀ first nan" not in out


# ----- reasons that are true ------------------------------------------------------------

def test_1_to_the_nan_is_1_and_its_slope_in_the_base_nan_for_the_exponents_sake():
    point, said, err = json_point("grad", "x^y", "x=1,y=nan")
    assert point["value"] == 1.0
    assert point["gradient"]["y"] == 0.0 and point["gradient"]["x"] == "nan"
    why = [w["why"] for w in said if w["function"] == "^"]
    assert len(why) == 1 and "1 to a power of ±inf or nan" in why[0]
    assert "1 to a power of ±inf or nan" in "\n".join(warnings_in(err))


@pytest.mark.parametrize("function", ["csc", "cot", "csch", "coth"])
@pytest.mark.parametrize("x", ["1e-310", "-5e-324"])
def test_a_reciprocal_that_overflows_next_to_its_pole_says_so(function, x):
    # 1/sin(1e-310) is 1e310: beyond float64, though the argument is not the pole.
    point, said, _ = json_point("grad", f"{function}(x)", f"x={x}")
    assert math.isinf(number(point["value"]))
    assert [w["why"] for w in said] == ["gave nan or inf (its pole at 0, or overflow next "
                                        "to it, within 5.6e-309 of 0)"]


def test_next_to_the_overflow_the_reciprocals_are_finite():
    # 1/5.57e-309 is 1.795e308: finite, so the 5.6e-309 said is where it starts.
    for function in ("csc", "cot", "csch", "coth"):
        point, said, _ = json_point("eval", f"{function}(x)", "x=5.57e-309")
        assert math.isclose(point["value"], 1 / 5.57e-309, rel_tol=1e-12) and said == []
