"""adcli check, without an expectation, of an f whose derivative is 0 (an identity).

sin(x)^2 + cos(x)^2 is 1 to within its rounding: its differences over any step are
rounding alone, never settling on a value relative to a derivative that is 0, and the check
ended in an exit-2 error as if the points were bad. Where f is constant to within its
rounding over every step of the finite differences, they bound |f'| (by the rounding over
the longest step), and that is a witness: AD agrees if its value is within that bound and
its own rounding error. A wrong AD on such an f still differs, and a derivative that is
small but not 0 is resolved by the differences as any other.

Where finite differences do not settle at any point for another reason (sin at 3.7e15,
where f turns within a few ulps), the verdict is "cannot tell" (exit 1), not bad input.

Every expected derivative is worked out by hand in the comments (the identities' is 0).
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import adcli
from adcli.functions import Primitive
from conftest import adcli_on_terminal, run_cli, strict_json, words

AGREES = "adcli's derivative agrees with finite differences for d/dx at 30/30 points"
UNSETTLED = "finite differences do not settle there"

# (f, extra options): identities whose derivative is 0 everywhere they are defined
IDENTITIES = [
    ("sin(x)^2+cos(x)^2", ()),
    ("cosh(x)^2 - sinh(x)^2", ("--domain", "x=-10:10")),
    ("log(exp(x)) - x", ()),
    ("exp(log(x)) - x", ("--domain", "x=0.01:100")),
    ("tan(x)*cos(x)-sin(x)", ("--domain", "x=-1.5:1.5")),     # clear of tan's poles
]
# the size of the terms of each f' that cancel (by hand: 2 cosh x sinh x is about cosh^2 x,
# sec^2 x cos x is 1/|cos x|; the others' are 1 or |x|)
TERMS = {"cosh(x)^2 - sinh(x)^2": lambda x: np.cosh(x) ** 2,
         "tan(x)*cos(x)-sin(x)": lambda x: 1 / np.abs(np.cos(x))}


def plain(*argv):
    return run_cli("check", *argv, "--format", "plain")


def domain_of(options) -> dict | None:
    return {"x": options[1].partition("=")[2]} if options else None


# ----- identities: the derivative is 0, and adcli's agrees ------------------------------------

@pytest.mark.parametrize("f, options", IDENTITIES)
def test_an_identity_agrees_with_finite_differences(f, options):
    code, out, err = plain(f, *options)
    assert (code, err) == (0, ""), (code, out, err)
    assert out.startswith(AGREES), out
    assert "0 to within rounding" in out.splitlines()[0], out


@pytest.mark.parametrize("f, options", IDENTITIES)
def test_an_identity_in_the_api_is_zero_within_the_bounds_it_gives(f, options):
    result = adcli.check(f, domain=domain_of(options))
    t = result.targets[0]
    assert (result.verdict, result.exit_code, result.counted) == ("matches", 0, 30)
    assert list(t.status) == ["match"] * 30
    # f' = 0 (by hand): AD's value is rounding, and the bound finite differences give
    # on |f'| is small beside the terms' size (1 for these at |x| <= 10)
    x = result.points["x"]
    terms = TERMS.get(f, lambda x: np.maximum(1.0, np.abs(x)))(x)
    assert np.all(np.abs(t.ad) <= 1e-12 * terms), t.ad
    # (a rule wrong by a relative 1e-9 of the terms would be caught)
    assert np.all(np.abs(t.fd) + t.fd_error <= 1e-9 * terms), t.fd_error / terms
    said = [n for n in result.notes if "constant to within its rounding" in n]
    assert len(said) == 1, result.notes


@pytest.mark.parametrize("f, options", IDENTITIES)
def test_an_identity_as_json(f, options):
    code, out, err = run_cli("check", f, *options, "--format", "json")
    assert (code, err) == (0, ""), (code, out, err)
    found = strict_json(out)
    assert found["verdict"] == "matches" and found["counted"] == 30, found["summary"]
    assert found["summary"].startswith(AGREES)
    assert {p["status"] for p in found["points"]} == {"match"}
    for p in found["points"]:
        d = p["derivatives"]["x"]
        x = np.array(p["at"]["x"])
        assert abs(d["ad"]) <= 1e-12 * TERMS.get(f, lambda x: max(1.0, abs(x)))(x), p


def test_x_minus_x_still_agrees_exactly():
    # f is exactly 0: its differences are exactly 0, settled as before, nothing flat to say
    code, out, err = plain("x - x")
    assert (code, err) == (0, "")
    assert out == f"{AGREES}, largest relative difference 0\n"


def test_the_expectation_0_still_matches():
    code, out, err = plain("sin(x)^2+cos(x)^2", "0")
    assert (code, err) == (0, "")
    assert out == "matches d/dx at 30/30 points, largest relative difference 0\n"


def test_an_identity_on_the_terminal_at_80_columns():
    code, rows = adcli_on_terminal(80, "check", "sin(x)^2+cos(x)^2")
    assert code == 0, rows
    said = " ".join(words(rows))
    assert said.startswith("read as: (sin(x)^2) + (cos(x)^2) " + AGREES), said
    assert "0 to within rounding" in said and "finite differences" in rows[2 + 0] + said


def test_where_the_steps_are_too_short_for_f_to_change_nothing_is_told():
    # at |x| < 1e-20 the steps scale with x: f's values are all 1, which bounds |f'| by
    # ~1e6 only, against terms 2 sin x cos x of size 1e-20: no witness, "cannot tell"
    result = adcli.check("sin(x)^2+cos(x)^2", domain={"x": (-1e-20, 1e-20)})
    assert (result.verdict, result.counted, result.exit_code) == ("cannot tell", 0, 1)
    assert result.summary == "cannot tell: finite differences do not settle at the 30 " \
                             "points checked"


# ----- a wrong derivative on a flat f still differs ---------------------------------------------

@pytest.fixture
def off(registered):
    """checkflat_off(x): x, whose backward rule is wrong by a factor 1.001."""
    @registered
    class Off(Primitive):
        name = "checkflat_off"
        def forward(self, x): return x
        def backward(self, gy): return 1.001 * gy
    return Off


def test_a_wrong_rule_on_a_flat_f_differs_at_every_point(off):
    # f = sin(off(x))^2 + cos(x)^2 is 1 to within rounding, f' = 0; AD says
    # 2 sin x cos x (1.001 - 1) = 0.001 sin(2x) (by hand)
    result = adcli.check("sin(checkflat_off(x))^2 + cos(x)^2")
    t, x = result.targets[0], result.points["x"]
    assert np.allclose(t.ad, 0.001 * np.sin(2 * x), rtol=1e-9, atol=1e-15)
    assert (result.verdict, result.counted, result.differing) == ("differs", 30, 30)
    code, out, err = plain("sin(checkflat_off(x))^2 + cos(x)^2")
    assert code == 1 and out.startswith("adcli's derivative and finite differences "
                                        "disagree for d/dx at 30 of 30 points"), out
    assert "a bug in adcli or a kink it does not know about" in out, out


def test_a_wrong_rule_on_an_exact_zero_differs(off):
    # f = off(x) - x is exactly 0, f' = 0; AD says 1.001 - 1 = 0.001
    result = adcli.check("checkflat_off(x) - x")
    assert np.allclose(result.targets[0].ad, 0.001, rtol=1e-12)
    assert (result.verdict, result.differing, result.exit_code) == ("differs", 30, 1)


def test_a_wrong_rule_on_a_flat_f_with_the_expectation_0_blames_adcli(off):
    code, out, err = plain("sin(checkflat_off(x))^2 + cos(x)^2", "0")
    assert code == 1 and out.startswith("differs from d/dx at 30 of 30 points"), out
    note = next(line for line in out.splitlines() if "finite differences disagree" in line)
    assert "disagree at 30 of 30 points" in note and "a bug in adcli" in note, note


# ----- small derivatives that are not 0 are resolved, not swallowed -----------------------------

@pytest.mark.parametrize("f, x, true", [
    ("1e-12*x", 1.0, 1e-12),                               # d/dx 1e-12 x = 1e-12
    ("sin(x)*1e-9", 1.0, 1e-9 * math.cos(1.0)),            # 1e-9 cos x
    ("sin(x)^2+cos(x)^2 + 1e-9*x", 1.0, 1e-9),             # 0 + 1e-9
])
def test_a_small_derivative_is_resolved_by_the_differences(f, x, true):
    result = adcli.check(f, at={"x": [x]})
    t = result.targets[0]
    assert result.verdict == "matches" and "0 to within rounding" not in result.summary
    # settled (an error below 1e-3 of it) on the true value, not on 0
    assert t.fd_error[0] <= 1e-3 * abs(true) and abs(t.fd[0] - true) <= 10 * t.fd_error[0]


@pytest.mark.parametrize("f, x", [("sin(x)^2+cos(x)^2 + 1e-13*x", 0.7),
                                  ("sin(x)^2+cos(x)^2 + 1e-11*x", 0.7)])
def test_a_small_derivative_beyond_the_rounding_is_not_taken_for_0(f, x):
    # f changes by 1e-13 (1e-11) x 2h over the longest step, h = 0.175, more than its
    # rounding (8 ulps of 4, 7e-15) allows: not flat, so never "0 to within rounding";
    # whether the differences settle on it or not, a right AD is never called wrong
    result = adcli.check(f, at={"x": [x]})
    assert "0 to within rounding" not in result.summary
    assert not any("constant to within its rounding" in n for n in result.notes)
    assert result.differing == 0


@pytest.mark.parametrize("f", ["1e-12*checkflat_off(x)", "sin(x)^2+cos(x)^2 + "
                               "1e-9*checkflat_off(x)", "sin(x)^2+cos(x)^2 + "
                               "1e-13*checkflat_off(x)"])
def test_a_small_derivative_wrong_by_a_thousandth_never_matches(off, f):
    # AD says 1.001 times the true 1e-12 (1e-9, 1e-13): where the differences resolve the
    # truth it differs, and nowhere is it taken for 0 within rounding
    result = adcli.check(f, at={"x": [1.0, 0.7, 2.5]})
    assert "match" not in list(result.targets[0].status), result.summary
    if "1e-13" not in f:
        assert result.verdict == "differs", result.summary


# ----- finite differences that settle nowhere: cannot tell, exit 1 -----------------------------

@pytest.mark.parametrize("f, x", [("sin(x)", "3.7e15"), ("cos(3x)", "110680150663577.56"),
                                  ("exp(x)", "1e-20")])
def test_differences_that_settle_nowhere_cannot_tell(f, x):
    code, out, err = plain(f, "--at", f"x={x}")
    assert (code, err) == (1, ""), (code, out, err)
    assert out.splitlines() == [
        "cannot tell: finite differences do not settle at the 1 point checked",
        f"note: 1 point not counted: {UNSETTLED}"], out
    result = adcli.check(f, at={"x": float(x)})
    assert (result.verdict, result.exit_code, result.counted) == ("cannot tell", 1, 0)
    assert list(result.targets[0].why) == [UNSETTLED]


def test_differences_that_settle_nowhere_as_json():
    code, out, err = run_cli("check", "sin(x)", "--at", "x=3.7e15", "--format", "json")
    found = strict_json(out)
    assert (code, found["verdict"], found["counted"], found["skipped"]) == \
        (1, "cannot tell", 0, 1)
    assert found["notes"] == [f"1 point not counted: {UNSETTLED}"]


def test_points_that_really_are_unusable_are_still_bad_input():
    # log(x) at -1 is nan: no value to check there, and the advice is a domain
    code, out, err = plain("log(x)", "--at", "x=-1")
    assert (code, out) == (2, "") and err.count("\n") == 1, err
    assert "at none of the 1 point given are f and its derivative finite" in err
    assert "--domain" in err


def test_with_an_expectation_unsettled_differences_blame_no_one():
    # AD decides where the differences do not settle: the expectation off by 1e-3 differs,
    # and no note calls that a bug in adcli
    code, out, err = plain("sin(x)", "cos(x) + 1e-3", "--at", "x=3.7e15")
    assert code == 1 and out.startswith("differs from d/dx at 1 of 1 point"), out
    assert "bug in adcli" not in out + err


def test_an_f_that_keeps_no_digit_is_not_taken_for_a_flat_one():
    # cos(3x) at 2.6e15 and 1.2e15: 3x rounds by 0.5 (0.25) and cos turns every few ulps of
    # x, so f's rounding bound (about 1) is as large as cos itself and f is "constant
    # within it" over every step; AD, -3 sin(3x) = 2.0 and -0.25 (mpmath at the rounded
    # 3x), is within its own (pessimistic) rounding bound of 0 there too. Only AD around x,
    # anywhere in [-3, 3], tells it from log(exp(x)) - x: no point is "0 within rounding"
    result = adcli.check("cos(3x)", at={"x": [2584150580553672.0, 1152168183679094.2]})
    assert "match" not in list(result.targets[0].status), result.summary
    assert "0 to within rounding" not in str(result)
    assert result.verdict == "cannot tell"
