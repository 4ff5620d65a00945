"""Where a step overflowed or underflowed, reverse mode's gradient may be wrong (an adjoint
that is 0 or inf because an intermediate was, before it meets a factor that would have
brought it back): forward mode, whose tangents take another path, is run at those points
and the two compared. A disagreement is warned of (stderr, JSON "warnings", an
AdcliWarning from the API); the numbers shown never change.

Forward mode is the witness where long double is no wider than float64 (Windows, macOS on
ARM), and where the long double run was not clean: every test here runs without the long
double witness (see test_wider.py for it), except where one says otherwise.

The truths are closed forms derived by hand, each checked here with mpmath:
- x/exp(x):        d/dx = (1 - x) e^-x                   (-3.5215680638877e-163 at 380)
- 1/(1 + exp(-x)): d/dx = e^-x / (1 + e^-x)^2            (9.2917363163264e-166 at -380)
- atan2(x^2, x):   d/dx = (x·2x - x^2)/(x^2 + x^4) = 1/(1 + x^2)      (1e-300 at 1e150)
"""
from __future__ import annotations

import json
import os
import re
import sys
import warnings

import mpmath
import numpy as np
import pytest

import adcli
from adcli import kernel, wider
from conftest import plain_tape, run_cli, strict_json, warnings_in

mpmath.mp.dps = 50


def truth_x_over_exp(x):
    return (1 - x) * mpmath.exp(-x)


def truth_logistic(x):
    return mpmath.exp(-x) / (1 + mpmath.exp(-x)) ** 2


def truth_atan2(x):
    return 1 / (1 + x * x)


CASES = [("x/exp(x)", 380.0, truth_x_over_exp, lambda t: t / mpmath.exp(t)),
         ("1/(1+exp(-x))", -380.0, truth_logistic, lambda t: 1 / (1 + mpmath.exp(-t))),
         ("atan2(x^2, x)", 1e150, truth_atan2, lambda t: mpmath.atan2(t * t, t))]
WRONG = CASES[:2]   # forward mode gets these right, reverse mode does not


@pytest.mark.parametrize("text, x, truth, f", CASES)
def test_the_closed_forms_are_the_derivatives(text, x, truth, f):
    with mpmath.workdps(400):   # atan2 at 1e150 is pi/2 - 1e-150: 150 digits in
        x = mpmath.mpf(x)
        h = x * mpmath.mpf(10) ** -40
        slope = (f(x + h) - f(x - h)) / (2 * h)
        assert abs(slope - truth(x)) <= abs(truth(x)) * mpmath.mpf(10) ** -30


def first_number(pattern: str, text: str) -> float:
    return float(re.search(pattern, text).group(1))


@pytest.fixture(autouse=True)
def no_long_double(monkeypatch):
    monkeypatch.setattr(wider, "WIDE", False)


# ----- the wrong derivatives are warned of, where they are wrong --------------------------

@pytest.mark.parametrize("text, x, truth, f", WRONG)
def test_a_wrong_derivative_is_warned_of_with_forward_modes_number(text, x, truth, f, engine):
    code, out, err = run_cli("grad", text, "--at", f"x={x!r}", "--format", "plain")
    assert code == 0
    (line,) = warnings_in(err)
    assert line.startswith("adcli: warning: d/dx at 1 of 1 point: an intermediate step "
                           "overflowed or underflowed, and forward mode gives ")
    assert line.endswith(": the derivative shown may be wrong there")
    forward = first_number(r"forward mode gives (\S+) where", line)
    reverse = first_number(r"reverse mode gives (\S+):", line)
    assert forward == pytest.approx(float(truth(mpmath.mpf(x))), rel=1e-12, abs=0)
    assert reverse == pytest.approx(float(out.split()[1]), rel=1e-12, abs=0)


@pytest.mark.parametrize("text, x, truth, f", WRONG)
def test_the_numbers_shown_are_unchanged(text, x, truth, f, engine):
    value, grads = plain_tape(text, {"x": np.array([x])})
    slope = grads["x"]
    code, out, _ = run_cli("grad", text, "--at", f"x={x!r}", "--format", "json")
    point = strict_json(out)["points"][0]
    assert (point["value"], point["gradient"]["x"]) == (value[0], slope[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", adcli.AdcliWarning)
        result = adcli.parse(text).derivatives(x=np.array([x, 1.0, x]))
    many = plain_tape(text, {"x": np.array([x, 1.0, x])})
    assert kernel.identical(result.value, many[0])
    assert kernel.identical(result.gradient["x"], many[1]["x"])


def test_atan2_far_out_is_warned_of():
    # Reverse mode's y-adjoint x/(x^2 + y^2) = 1e-450 is no float: -1e-300 (truth +1e-300).
    # atan2's series rule scales both arguments by a power of two first, so forward mode's
    # partial is 1e-150 there and it gets the truth: the two differ, and a warning says so.
    with pytest.warns(adcli.AdcliWarning, match="forward mode gives 1e-300 where reverse "
                                                "mode gives -1e-300"):
        shown = float(adcli.parse("atan2(x^2, x)").grad(x=1e150)["x"])
    truth = float(truth_atan2(mpmath.mpf(1e150)))
    assert shown == pytest.approx(-truth, rel=1e-12, abs=0)   # the sign lost, as before


def test_atan2s_series_is_right_where_its_partial_is_no_float():
    # d/dx atan2(x^2, x) = d/dx atan(x) = 1/(1 + x^2) for x > 0: 1e-300 at 1e150; and its
    # second derivative -2x/(1 + x^2)^2, -2e-450 there: 0 as a float
    from adcli.taylor import taylor_derivative

    f, at = adcli.parse("atan2(x^2, x)"), {"x": np.array([1e150])}
    assert taylor_derivative(f, at, "x", 1)[0] == pytest.approx(1e-300, rel=1e-14, abs=0)
    assert taylor_derivative(f, at, "x", 2)[0] == 0.0


def test_the_json_warnings_list_names_the_point(engine):
    code, out, err = run_cli("grad", "x/exp(x)", "--at", "x=380", "--format", "json")
    (entry,) = strict_json(out)["warnings"]
    # forward mode's number, per point: (1 - x) e^-x by hand, -379 e^-380
    forward = entry.pop("forward_mode")
    assert forward == pytest.approx(float(-379 * mpmath.exp(-380)), rel=1e-12, abs=0)
    assert entry == {"at": {"x": 380.0}, "function": "d/dx", "kind": "unsure",
                     "why": "an intermediate step overflowed or underflowed, and forward "
                            "mode gives another derivative: the derivative shown may be "
                            "wrong there"}


def test_jsonl_marks_the_point(engine):
    code, out, err = run_cli("grad", "x/exp(x)", "--at", "x=380", "--format", "jsonl")
    assert json.loads(out)["warnings"][0]["kind"] == "unsure"


def test_the_api_marks_the_point_and_warns_where_it_returns_bare_numbers():
    f = adcli.parse("x/exp(x)")
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # a Result carries its diagnostics: no warning
        result = f.derivatives(x=380.0)
    assert result.diagnostics.masks[("x", "unsure")].shape == ()
    assert bool(result.diagnostics.masks[("x", "unsure")])
    first = result.diagnostics.unsure["x"]
    assert (first.index, first.at, first.reverse) == (0, {"x": 380.0}, result.gradient["x"])
    assert first.forward == pytest.approx(float(truth_x_over_exp(mpmath.mpf(380))), rel=1e-12,
                                          abs=0)
    with pytest.warns(adcli.AdcliWarning, match=r"^d/dx at 1 of 1 point: an intermediate"):
        value, grad = f.value_and_grad(x=380.0)
    with pytest.warns(adcli.AdcliWarning, match="d/dx at 1 of 1 point"):
        f.grad(x=380.0)
    with pytest.warns(adcli.AdcliWarning, match="^df1/dx at 1 of 1 point"):
        adcli.jacobian(["x/exp(x)", "x"], x=380.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # a bare-number method warns of what it returns:
        f.hessian(x=380.0)               # the Hessian's entries, which forward mode skips


def points_with_one_bad(n: int, bad: int):
    x = np.linspace(1.0, 10.0, n)
    x[bad] = 380.0
    return x


@pytest.mark.parametrize("n", [10, 100])   # a Schedule, a Program
def test_among_many_points_only_the_bad_one_is_marked(n, tape):
    x = points_with_one_bad(n, 7)
    result = adcli.parse("x/exp(x)").derivatives(x=x)
    assert np.flatnonzero(result.diagnostics.masks[("x", "unsure")]).tolist() == [7]
    on_tape = tape(adcli.parse("x/exp(x)"), {"x": x})
    assert np.flatnonzero(on_tape.diagnostics.masks[("x", "unsure")]).tolist() == [7]
    with pytest.warns(adcli.AdcliWarning, match=rf"d/dx at 1 of {n} points.*first at x=380"):
        adcli.parse("x/exp(x)").grad(x=x)


def test_only_the_flagged_blocks_suspect_points_are_run_forward(monkeypatch):
    # numpy flags the second block, 32768:65536; the float64 run watched there finds the
    # one point where a step left the normal range (wider.suspects): only it runs forward
    import adcli.taylor

    monkeypatch.setattr(kernel, "BLOCK", 32768)
    swept, looked = [], []
    forward, suspects = adcli.taylor.taylor_derivative, wider.suspects
    monkeypatch.setattr(adcli.taylor, "taylor_derivative",
                        lambda e, values, *a: swept.append(len(values["x"])) or
                        forward(e, values, *a))
    monkeypatch.setattr(wider, "suspects",
                        lambda run, arrays, asked: looked.append(len(arrays[0])) or
                        suspects(run, arrays, asked))
    x = points_with_one_bad(70_000, 40_001)
    result = adcli.parse("x/exp(x)").derivatives(x=x)
    assert np.flatnonzero(result.diagnostics.masks[("x", "unsure")]).tolist() == [40_001]
    assert (looked, swept) == ([32768], [1])
    value, grads = plain_tape("x/exp(x)", {"x": x})
    slope = grads["x"]
    assert kernel.identical(result.value, value) and kernel.identical(result.gradient["x"],
                                                                      slope)


def test_the_cli_counts_and_names_the_first_bad_point(tmp_path):
    points = tmp_path / "points.csv"
    points.write_text("x\n" + "\n".join(map(repr, [1.0, 2.0, 380.0, 3.0, 390.0])) + "\n")
    code, out, err = run_cli("grad", "x/exp(x)", "--points", str(points), "--format", "json")
    (line,) = warnings_in(err)
    assert "d/dx at 2 of 5 points" in line and "first at x=380" in line
    assert [w["at"]["x"] for w in strict_json(out)["warnings"]] == [380.0, 390.0]


def test_jacobian_and_hessian_warn_for_the_gradient(engine):
    # (jacobian's rows are several expressions': the derivative is named with its row's)
    for argv, named in ((["jacobian", "x/exp(x)", "x"], "df1/dx"),
                        (["hessian", "x/exp(x)"], "d/dx")):
        code, out, err = run_cli(*argv, "--at", "x=380", "--format", "json")
        assert code == 0
        assert [line.split(":")[2] for line in warnings_in(err)] == [f" {named} at 1 of 1 point"]
        assert [(w["function"], w["kind"]) for w in strict_json(out)["warnings"]] == \
            [(named, "unsure")]
    with pytest.warns(adcli.AdcliWarning, match="^df2/dx at 1 of 1 point: .* forward mode"):
        adcli.jacobian(["x", "x/exp(x)"], x=380.0)


def test_a_variable_held_fixed_is_not_marked():
    result = adcli.parse("x/exp(x) + y").derivatives(x=380.0, y=1.0)
    assert [key for key in result.diagnostics.masks] == [("x", "unsure")]
    with pytest.warns(adcli.AdcliWarning) as said:
        adcli.parse("x/exp(x) + y").grad(x=380.0, y=1.0)
    assert [str(w.message)[:5] for w in said] == ["d/dx "]


# ----- where the two modes agree, or nothing over- or underflowed: no warning -------------

AGREEING = [("x + exp(-x^2)", 27.2, 1.0), ("exp(-x^2)", 27.2, -2.674e-320)]


@pytest.mark.parametrize("text, x, shown", AGREEING)
def test_agreeing_modes_after_an_underflow_do_not_warn(text, x, shown, monkeypatch, engine):
    import adcli.taylor

    swept = []
    forward = adcli.taylor.taylor_derivative
    monkeypatch.setattr(adcli.taylor, "taylor_derivative",
                        lambda *a: swept.append(a) or forward(*a))
    truth = mpmath.diff(lambda t: eval(text.replace("^", "**"), {"exp": mpmath.exp, "x": t}),
                        mpmath.mpf(x))
    # the subnormal -2.674e-320 keeps 4 digits. (Both modes show -2.661e-320 there: they
    # round the subnormal exp(-x^2) = 4.9e-322, 2 digits, alike, so they agree and do not
    # warn; the long-double check, off here, is what says that number is wrong.)
    assert float(truth) == pytest.approx(shown, rel=1e-3, abs=0)
    code, out, err = run_cli("grad", text, "--at", f"x={x}", "--format", "json")
    assert (code, warnings_in(err)) == (0, [])
    assert "warnings" not in strict_json(out)
    assert len(swept) == 1   # the underflow was seen, and forward mode agreed


def test_no_flag_no_forward_mode(monkeypatch):
    import adcli.taylor

    monkeypatch.setattr(adcli.taylor, "taylor_derivative", None)   # a call would fail
    x = np.linspace(-3.0, 3.0, 50_000)
    result = adcli.parse("x/exp(x) + sin(x)*x^2").derivatives(x=x)
    assert result.diagnostics.masks == {}


def test_non_finite_results_are_left_to_their_own_warning():
    code, out, err = run_cli("grad", "x/exp(x)", "--at", "x=800", "--format", "json")
    assert all("forward mode" not in line for line in warnings_in(err))


def test_the_benchmark_points_raise_no_flag():
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "benchmarks"))
    try:
        import run as bench
    finally:
        sys.path.pop(0)
    for name, text, _, _, span in bench.CASES:
        at = bench._points(text, 10**6, span)   # run.py's default (--quick: 10^5)
        expression = adcli.parse(text)
        columns = {v: at[v] for v in expression.variables}
        computed = kernel.evaluate(expression, columns, 10**6, expression.variables, 1)
        assert computed[4] is None, name


def test_the_case_the_fuzzer_found():
    # 2/(x/y): d/dx = -2y/x^2. Reverse mode's -2/u^2 underflows for u = x/y = 6e266, and
    # is 0 before it meets du/dx = 1/y: -0 where the truth is -3.33e-267.
    x, y = 1.0, 1.6654194274971572e-267
    truth = float(-2 * mpmath.mpf(y) / mpmath.mpf(x) ** 2)
    result = adcli.parse("2/(x/y)").derivatives(x=x, y=y)
    assert bool(result.diagnostics.masks[("x", "unsure")])
    assert result.diagnostics.unsure["x"].forward == pytest.approx(truth, rel=1e-12, abs=0)
    with pytest.warns(adcli.AdcliWarning, match="d/dx at 1 of 1 point"):
        assert adcli.parse("2/(x/y)").grad(x=x, y=y)["x"] == 0.0


@pytest.mark.parametrize("x", [1e110, 1e160])
def test_no_warning_where_forward_mode_lost_digits_itself(x):
    # f' = atan(1/x) - x/(x^2 + 1) = 2/(3x^3) + O(x^-5): 6.7e-331 at 1e110, 0 as a float,
    # which reverse mode gives; forward mode's 1.1e-165 comes from 1/x's subnormal tangent
    # (-1/x^2 = -1e-320 at 1e160): no "unsure" warning there
    truth = 2 / (3 * mpmath.mpf(x) ** 3)
    assert float(truth) == 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert float(adcli.parse("x*atan(1/x)").grad(x=x)["x"]) == 0.0
    code, out, err = run_cli("grad", "x*atan(1/x)", "--at", f"x={x!r}", "--format", "plain")
    assert (code, err) == (0, "")


def test_atan2_with_a_number_argument_in_taylor_mode():
    # d2/dx2 atan2(x, 1) = d2/dx2 atan(x) = -2x/(1 + x^2)^2: -0.16 at 2, -0.06 at 3 (by hand)
    f = adcli.parse("atan2(x, 1)")
    got = f.derivative("x", 2, x=np.array([2.0, 3.0]))
    assert got == pytest.approx([-0.16, -0.06], rel=1e-14, abs=0)


def test_a_quotients_infinite_derivative_names_its_divisor():
    # f = e^(x-y) = 1 at x = y = -720, gradient (1, -1); exp(-720) is subnormal (~1.4e-313),
    # so the quotient rule's 1/b overflows: what the warning says, not a domain's edge
    code, out, err = run_cli("grad", "exp(x)/exp(y)", "--at", "x=-720,y=-720", "--format",
                             "plain")
    assert out.split() == ["1.0", "inf", "-inf"]
    assert warnings_in(err) == ["adcli: warning: the derivative through '/' overflowed at 1 "
                                "of 1 point: its derivative times the gradient handed back "
                                "to it is beyond the float range (not an edge of its "
                                "domain)"]
