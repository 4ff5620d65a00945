"""adcli check: a tester's sixth round of findings (2, 3, 7, 8, 9, 10, 12 of the report).

A correct quotient at a point where its rounding bound's reverse pass overflows, a domain
that holds one number, f 0 by underflow without an expectation, too few random points for
a diagnosis, a --domain of a variable given values, the equation hint inside $...$, and the
underflow note at --order 0. Expected values come from closed forms worked by hand and
mpmath, never from adcli's own output.
"""
from __future__ import annotations

import re

import mpmath
import pytest

import adcli
from adcli.errors import ValuesError
from conftest import run_cli, strict_json


def plain(*argv):
    return run_cli("check", *argv, "--format", "plain")


def as_json(*argv):
    code, out, err = run_cli("check", *argv, "--format", "json")
    return code, (strict_json(out) if out else None), err


# ----- 2. a quotient whose rounding bound's reverse pass overflows is still judged ----------

# (f, a right expectation, a wrong one, the point, the derivative as a closed form in mpmath)
QUOTIENTS = [
    ("1/x", "-1/x^2", "1/x^2", "x=1e-100", lambda x: -1 / x ** 2),
    ("1/x", "-1/x^2", "-2/x^2", "x=1e-78", lambda x: -1 / x ** 2),
    ("exp(-x)", "-1/exp(x)", "1/exp(x)", "x=-400", lambda x: -mpmath.exp(-x)),
    ("1/x^2", "-2/x^3", "-3/x^3", "x=1e-60", lambda x: -2 / x ** 3),
    ("1/x", "-1/x^2", "1/x^2", "x=-1e-140", lambda x: -1 / x ** 2),
]


@pytest.mark.parametrize("f, right, wrong, at, exact", QUOTIENTS)
def test_the_points_are_ordinary_floats(f, right, wrong, at, exact):
    """The premise: f' is far inside float64's range there (1e200 and the like), only the
    square of a divisor's square (1/x^4 at 1e-100: 1e400) is beyond it."""
    x = mpmath.mpf(at.split("=")[1])
    assert mpmath.mpf("1e-300") < abs(exact(x)) < mpmath.mpf("1e300")


@pytest.mark.parametrize("f, right, wrong, at, exact", QUOTIENTS)
def test_a_right_quotient_matches_where_its_bound_overflowed(f, right, wrong, at, exact):
    code, report, err = as_json(f, right, "--at", at)
    assert code == 0, err
    assert report["verdict"] == "matches"
    point = report["points"][0]["derivatives"]["x"]
    truth = exact(mpmath.mpf(at.split("=")[1]))
    for value in (point["expected"], point["ad"]):
        assert abs(value - truth) <= 1e-15 * abs(truth)


@pytest.mark.parametrize("f, right, wrong, at, exact", QUOTIENTS)
def test_a_wrong_quotient_there_differs(f, right, wrong, at, exact):
    code, out, err = plain(f, wrong, "--at", at)
    assert code == 1, err
    assert out.startswith("differs from d/dx at 1 of 1 point"), out


def test_the_plain_verdict_at_1e_100():
    code, out, err = plain("1/x", "-1/x^2", "--at", "x=1e-100")
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "matches d/dx at 1/1 points, largest relative difference 0"


def test_a_domain_of_tiny_x_matches_too():
    """--domain x=1e-100:1e-90 was 'only 0 of 480 random points ... the expectation is not
    at 480 of them', with --domain x=-10:-1 suggested."""
    code, out, err = plain("1/x", "-1/x^2", "--domain", "x=1e-100:1e-90")
    assert (code, err) == (0, "")
    assert out.startswith("matches d/dx at 30/30 points"), out
    code, out, err = plain("1/x", "1/x^2", "--domain", "x=1e-100:1e-90")
    assert code == 1 and out.startswith("differs from d/dx at 30 of 30 points"), out


def test_the_rounding_bound_there_is_the_terms_sum_not_inf():
    """(-1)/(x^2) at 1e-100: the terms |dy/dv||v| are, for v = x^2, |1/v^2|·|v| = 1/v =
    1e200, and for v = y itself 1e200 (the constant -1 and the leaf x add none): a scale of
    2e200, not inf (the slope 1/v^2 = 1e400 overflowed) nor the largest float."""
    import numpy as np

    from adcli import checking
    from adcli.expression import parse

    for x, scale in ((1e-100, 2e200), (1e-150, 2e300), (-1e-140, 2e280)):
        with np.errstate(all="ignore"):   # (as check runs it: the slope's overflow is known)
            value, found = checking._expectation(parse("-1/x^2"), {"x": np.array([x])}, 1)
        assert value[0] == pytest.approx(-1 / x ** 2, rel=1e-15)
        assert found[0] == pytest.approx(scale, rel=1e-12)


# ----- 3. a domain that holds one number (or a few) is refused ----------------------------

@pytest.mark.parametrize("span, shown", [("0:0", "0:0"), ("-1e-400:1e-400", "0:0"),
                                         ("2.5:2.5", "2.5:2.5")])
def test_a_domain_of_one_number_is_an_error(span, shown):
    """x^2 against 3x 'matched at 30/30 points', every one of them x = 0."""
    code, out, err = plain("x^2", "3x", "--domain", f"x={span}")
    assert (code, out) == (2, "")
    value = shown.split(":")[1]
    lines = [line for line in err.splitlines() if line.startswith("adcli: error:")]
    assert lines == [
        f"adcli: error: --domain x={shown} holds one number, {value}: every random point "
        f"would be x = {value} (give LO < HI, or that one point with --at x={value}, which "
        f"is checked with random points beside it)"], err


def test_a_domain_of_a_few_floats_is_an_error():
    """1 to 1 + 4 ulps holds 5 float64 numbers: 30 random points are those few again."""
    hi = 1 + 4 * 2.0 ** -52
    code, out, err = plain("x^2", "3x", "--domain", f"x=1:{hi!r}")
    assert (code, out) == (2, "")
    assert err == (f"adcli: error: --domain x=1:{hi!r} holds only 5 float64 numbers: random "
                   "points would be those few again (give a wider span, or points with --at, "
                   "--grid or --points)\n")


def test_a_domain_of_ten_floats_is_drawn_from():
    hi = 1 + 9 * 2.0 ** -52
    code, out, err = plain("x^2", "2x", "--domain", f"x=1:{hi!r}")
    assert code == 0, err


def test_the_api_refuses_it_too():
    # (in the API's words: domain=, not --domain)
    with pytest.raises(ValuesError, match=r"^domain=\{'x': \(0, 0\)\} holds one number, 0"):
        adcli.check("x^2", "3x", domain={"x": (0.0, 0.0)})


def test_a_one_number_domain_of_a_variable_given_values_is_only_unused():
    code, out, err = plain("x^2", "2x", "--domain", "x=0:0", "--at", "x=2")
    assert code == 0, err


@pytest.mark.parametrize("span, warning", [
    ("x=-1e-400:1e-400", "adcli: warning: --domain x: 1e-400 is below the smallest float64 "
                         "number (about 4.9e-324): read as 0"),
    ("x=1:1e400", "adcli: warning: --domain x: 1e400 is beyond the largest float64 number "
                  "(about 1.8e308): read as inf")])
def test_a_domain_bound_beyond_float64_is_warned_of(span, warning):
    code, out, err = plain("x^2", "2x", "--domain", span)
    assert code == 2
    assert warning in err.splitlines(), err


# ----- 7. without an expectation, f 0 by underflow is a point unusable itself ---------------

@pytest.mark.parametrize("f, at", [("x^2", "x=1e-200"), ("x^3", "x=1e-120")])
def test_f_zero_by_underflow_is_exit_2_with_a_domain(f, at):
    """x^2 at 1e-200 is 1e-400: 0 in float64, on the whole stencil too; was 'cannot tell:
    finite differences do not settle' (exit 1)."""
    x = mpmath.mpf(at.split("=")[1])
    assert x ** int(f[-1]) < mpmath.mpf("4.9e-324") / 2
    code, out, err = plain(f, "--at", at)
    assert (code, out) == (2, "")
    head = ("adcli: error: at none of the 1 point given are f and its derivative finite "
            "(and not 0 by underflow) with finite differences that settle: f is 0 by "
            "underflow there; try other points, or random ones from a domain where they are, "
            "e.g. --domain x=")
    assert err.startswith(head), err
    lo, hi = map(float, err[len(head):].split()[0].split(":"))
    for end in (lo, hi):    # f is a normal float64 at both ends of the domain suggested
        assert abs(mpmath.mpf(end) ** int(f[-1])) > mpmath.mpf(2) ** -1022


def test_where_only_some_points_underflow_the_note_names_f():
    code, out, err = plain("x^2", "--grid", "x=1e-200:1:3")
    assert code == 0, err
    assert ("note: 1 point not counted: f is 0 there by underflow (too small for float64), "
            "so finite differences of it witness nothing") in out.splitlines(), out


def test_random_points_where_f_underflows_are_left_out():
    code, out, err = plain("x^2", "--domain", "x=1e-200:1e-190")
    assert (code, out) == (2, "")
    assert err.startswith("adcli: error: only 0 of 480 random points have f and its "
                          "derivative both finite (and not 0 by underflow): f is not at 480 "
                          "of them; give a domain where they are, e.g. --domain x="), err


def test_at_order_2_the_derivative_differenced_underflowing_is_no_fault_of_adcli():
    """x^4 at 1e-120: d/dx = 4x^3 = 4e-360, 0 in float64 (a power's own rule, b a^(b-1)):
    the differences of it are 0, and adcli's d²/dx² = 1.2e-239 was blamed ('a bug in adcli
    ... please report that', exit 1)."""
    assert 4 * mpmath.mpf("1e-120") ** 3 < mpmath.mpf("4.9e-324") / 2
    assert 12 * mpmath.mpf("1e-120") ** 2 > mpmath.mpf(2) ** -1022
    code, out, err = plain("x^4", "--order", "2", "--grid", "x=1e-120:1:3")
    assert (code, err) == (0, ""), out
    assert out.splitlines()[1:] == [
        "note: 1 point not counted: adcli's d/dx is 0 there by underflow (too small for "
        "float64), so finite differences of it witness nothing"], out


def test_a_zero_expected_where_ad_underflowed_is_not_a_match():
    """d/dx x^4 at 1e-120 is 4e-360, not 0: AD's 0 there is an underflow, no value."""
    code, out, err = plain("x^4", "0", "--at", "x=1e-120")
    assert (code, out) == (2, "")
    assert "(and not 0 by underflow)" in err


def test_with_an_expectation_f_underflowing_is_no_matter():
    """AD (2e-200) and the expectation decide; f's value is not compared."""
    code, out, err = plain("x^2", "2x", "--at", "x=1e-200")
    assert code == 0, err


# ----- 8. too few random points for a diagnosis: a note says so --------------------------

@pytest.mark.parametrize("samples", ["1", "2"])
def test_too_few_samples_for_a_diagnosis_says_so(samples):
    code, out, err = plain("x^2 sin x", "2x sin x - x^2 cos x", "--samples", samples)
    assert code == 1, err
    n = int(samples)
    assert out.splitlines() == [
        f"differs from d/dx at {n} of {n} point{'s' * (n > 1)}",
        f"note: no diagnosis: one takes 3 points or more, and --samples {n} drew {n}; "
        "--samples 3 or more may give one"], out


def test_three_samples_give_the_diagnosis_and_no_such_note():
    code, out, err = plain("x^2 sin x", "2x sin x - x^2 cos x", "--samples", "3")
    assert code == 1
    assert "diagnosis: the product rule's term u·(dv/dx) has the wrong sign" in out, out
    assert "no diagnosis" not in out


def test_a_match_on_two_samples_has_no_such_note():
    code, out, err = plain("x^2 sin x", "2x sin x + x^2 cos x", "--samples", "2")
    assert code == 0 and "no diagnosis" not in out, out


# ----- 9. a --domain of a variable given values is unused, and said so ---------------------

@pytest.mark.parametrize("values", [["--at", "x=2"], ["--grid", "x=5:6:3"]])
def test_an_unused_domain_is_warned_of(values):
    code, out, err = plain("x^2", "2x", "--domain", "x=0:1", *values)
    assert code == 0
    assert err.splitlines() == [
        "adcli: warning: --domain x=0:1 is not used: x has values given (--at, --grid or "
        "--points), and only a variable without any is drawn at random"], err


def test_an_unused_domain_is_a_caution_in_json():
    code, report, err = as_json("x^2 y", "x^2", "--domain", "x=0:1", "--domain", "y=1:2",
                                "--at", "x=2")
    assert code == 0, err
    assert report["cautions"] == [
        "--domain x=0:1 is not used: x has values given (--at, --grid or --points), and "
        "only a variable without any is drawn at random"]


def test_a_domain_used_is_not_warned_of():
    code, out, err = plain("x^2 y", "x^2", "--domain", "y=1:2", "--at", "x=2")
    assert (code, err) == (0, "")


# ----- 10. the equation hint sees through math delimiters ----------------------------------

@pytest.mark.parametrize("text, column", [
    (r"$y = \ln(\cos x)$", 4),
    (r"$$y = \ln(\cos x)$$", 5),
    (r"\(y = \ln(\cos x)\)", 5),
    (r"\[ y = \ln(\cos x) \]", 6),
    (r"\begin{equation} y = \ln(\cos x) \end{equation}", 20),
    (r"$f(x) = \ln(\cos x)$", 7),
])
def test_the_equation_hint_inside_math_delimiters(text, column):
    code, out, err = run_cli("check", text, r"$y' = -\tan x$")
    assert (code, out) == (2, "")
    left = "f(x) =" if "f(x)" in text else "y ="
    assert err.splitlines()[0] == (
        "adcli: error: an expression is wanted, not an equation: give the right-hand side "
        rf"alone, '\ln(\cos x)', without '{left}' (column {column})"), err
    assert text[column - 1] == "="


def test_the_hint_without_delimiters_is_unchanged():
    code, out, err = run_cli("check", r"y = \ln(\cos x)", r"y' = -\tan x")
    assert err.splitlines()[0] == (
        r"adcli: error: an expression is wanted, not an equation: give the right-hand side "
        r"alone, '\ln(\cos x)', without 'y =' (column 3)")


def test_the_right_hand_side_alone_in_dollars_checks():
    """The hint's advice taken: d/dx ln(cos x) = -sin x/cos x = -tan x."""
    code, out, err = run_cli("check", r"$\ln(\cos x)$", r"$y' = -\tan x$", "--format",
                             "plain")
    assert code == 0, err


# ----- 12. the underflow note at --order 0 names f ------------------------------------------

def test_the_order_0_underflow_note_names_f():
    """e^x at x = -962 is about 1e-418: 0 in float64; the expectation there is 1e-12."""
    assert mpmath.exp(-962) < mpmath.mpf("1e-400")
    code, out, err = plain("e^{x}", "e^{x}+1e-12", "--order", "0")
    assert code == 1
    notes = [line for line in out.splitlines() if "by underflow" in line]
    assert notes == ["note: 1 point not counted: f is 0 there by underflow (too small for "
                     "float64): no value to compare"], out


def test_the_note_names_f_and_the_expectation_where_both_underflowed():
    """x^2 and x*x at 1e-200 are both 1e-400: 0 in float64, each by underflow."""
    code, out, err = plain("x^2", "x*x", "--order", "0", "--grid", "x=1e-200:1:2")
    assert ("note: 1 point not counted: f and the expectation are 0 there by underflow "
            "(too small for float64): no value to compare") in out.splitlines(), out


def test_the_note_names_the_expectation_alone_where_only_it_underflowed():
    """f = x - x is an exact 0; x*x*1e-300 at x = 1e-100 is 1e-500, 0 by underflow."""
    code, out, err = plain("x - x", "x*x*1e-300", "--order", "0", "--grid", "x=1e-100:1:2")
    assert ("note: 1 point not counted: the expectation is 0 there by underflow (too small "
            "for float64): no value to compare") in out.splitlines(), out


def test_the_note_at_order_1_is_unchanged():
    """exp(-x^2) at 30: f' = -2x e^-x^2 ~ 1e-389, 0 in float64; the expectation 1 is not
    (at order 1 the note names both, as before: tests/test_check.py pins it)."""
    code, out, err = plain("exp(-x^2)", "1 + 0*x", "--grid", "x=0.5:30:2")
    assert ("note: 1 point not counted: adcli's derivative or the expectation is 0 there by "
            "underflow (too small for float64): no value to compare") in out.splitlines(), out


# ----- on a terminal ---------------------------------------------------------------------------

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


def _on_a_terminal(argv, columns):
    import os
    import subprocess
    import sys
    from pathlib import Path

    from conftest import run_in_pty

    env = {k: v for k, v in os.environ.items()
           if k not in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "PYTHONIOENCODING")}
    env.update(PYTHONUTF8="1", TERM="xterm-256color",
               PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    code, text, _ = run_in_pty([sys.executable, "-m", "adcli", "check", *argv], env, columns,
                               rows=200, stdin=subprocess.DEVNULL)
    rows = ANSI.sub("", text).rstrip("\n").split("\n")
    assert max(len(r) for r in rows) <= columns, rows
    return code, " ".join(" ".join(r.split()) for r in rows)


@pytest.mark.parametrize("columns", [40, 80, 120])
def test_on_a_terminal_the_new_words_are_there_whole(columns):
    code, words = _on_a_terminal(["x^2 sin x", "2x sin x - x^2 cos x", "--samples", "2"],
                                 columns)
    assert code == 1
    assert ("note: no diagnosis: one takes 3 points or more, and --samples 2 drew 2; "
            "--samples 3 or more may give one") in words
    code, words = _on_a_terminal(["x^2", "2x", "--domain", "x=0:1", "--at", "x=2"], columns)
    assert code == 0
    assert ("adcli: warning: --domain x=0:1 is not used: x has values given (--at, --grid or "
            "--points), and only a variable without any is drawn at random") in words
    code, words = _on_a_terminal(["x^2", "--grid", "x=1e-200:1:3"], columns)
    assert code == 0
    assert ("note: 1 point not counted: f is 0 there by underflow (too small for float64), "
            "so finite differences of it witness nothing") in words


@pytest.mark.parametrize("at, side", [("x=1e160", 1), ("x=-1e160", -1)])
def test_the_domain_suggested_is_on_the_side_of_the_points_given(at, side):
    """1/x's usable points are two runs as long, either side of 0: the one suggested is on
    the side of the point given (1e160 was sent to -10:-1)."""
    code, out, err = run_cli("check", "1/x", "-1/x^2", "--at", at)
    assert (code, out) == (2, "")
    lo, hi = map(float, err.split("e.g. --domain x=")[1].split()[0].split(":"))
    assert lo < hi and lo * side > 0 and hi * side > 0, err
