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
from conftest import adcli_on_terminal, run_cli, strict_json, words, wrong_identity

AGREES = "adcli's derivative agrees with finite differences for d/dx at 30/30 points"
AGREE = "adcli's derivative agrees with finite differences for d/dx at "
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
    assert out.startswith(AGREE), out
    assert "0 to within rounding" in out.splitlines()[0], out


@pytest.mark.parametrize("f, options", IDENTITIES)
def test_an_identity_in_the_api_is_zero_within_the_bounds_it_gives(f, options):
    result = adcli.check(f, domain=domain_of(options))
    t = result.targets[0]
    # (the bound is over the finest step: at |x| ~ 1e-3 it is too loose beside the terms,
    # 2 sin x cos x ~ 2e-3, and those few points are not counted)
    assert (result.verdict, result.exit_code) == ("matches", 0)
    assert result.counted >= 25 and set(t.status) <= {"match", "skipped"}
    assert set(t.why[t.status == "skipped"]) <= {UNSETTLED}
    t.ad, t.fd, t.fd_error = (a[t.status == "match"] for a in (t.ad, t.fd, t.fd_error))
    x = result.points["x"][t.status == "match"]
    # f' = 0 (by hand): AD's value is rounding, and the bound finite differences give
    # on |f'| is small beside the terms' size (1 for these at |x| <= 10)
    terms = TERMS.get(f, lambda x: np.maximum(1.0, np.abs(x)))(x)
    assert np.all(np.abs(t.ad) <= 1e-12 * terms), t.ad
    # (a rule wrong by a relative 1e-3 of the terms would be caught)
    assert np.all(np.abs(t.fd) + t.fd_error <= 1e-3 * terms), t.fd_error / terms
    # (and the bound is f's rounding over the finest step: 8 ulps of 1 over h >= 2^-23 x)
    assert np.all(t.fd_error >= 8 * 2.0 ** -53 / (2.0 ** -23 * np.maximum(np.abs(x), 1)))
    said = [n for n in result.notes if "central differences of f vanish" in n]
    assert len(said) == 1, result.notes


@pytest.mark.parametrize("f, options", IDENTITIES)
def test_an_identity_as_json(f, options):
    code, out, err = run_cli("check", f, *options, "--format", "json")
    assert (code, err) == (0, ""), (code, out, err)
    found = strict_json(out)
    assert found["verdict"] == "matches" and found["counted"] >= 25, found["summary"]
    assert found["summary"].startswith(AGREE)
    assert {p["status"] for p in found["points"]} <= {"match", "skipped"}
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
    # (AD is 0 to within its rounding, and the differences' bound holds it: they witness
    # that 0, as without an expectation, and nothing is said of them)
    assert out == "matches d/dx at 30/30 points, largest relative difference 0\n"


def test_an_identity_on_the_terminal_at_80_columns():
    code, rows = adcli_on_terminal(80, "check", "sin(x)^2+cos(x)^2")
    assert code == 0, rows
    said = " ".join(words(rows))
    assert said.startswith("read as: (sin(x)^2) + (cos(x)^2) " + AGREE), said
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
    return wrong_identity(registered, "checkflat_off", 1.001)


def test_a_wrong_rule_on_a_flat_f_differs_at_every_point(off):
    # f = sin(off(x))^2 + cos(x)^2 is 1 to within rounding, f' = 0; AD says
    # 2 sin x cos x (1.001 - 1) = 0.001 sin(2x) (by hand)
    result = adcli.check("sin(checkflat_off(x))^2 + cos(x)^2")
    t, x = result.targets[0], result.points["x"]
    assert np.allclose(t.ad, 0.001 * np.sin(2 * x), rtol=1e-9, atol=1e-15)
    # it differs wherever AD is beyond the bound f's rounding over the finest step gives;
    # at |x| ~ 1e-3 (AD ~ 2e-6, bound ~ 1.5e-5) the differences cannot tell it from 0
    bound = 8 * 2.0 ** -52 / (0.25 * 2.0 ** -21 * np.minimum(np.abs(x), 1))
    assert (result.verdict, result.counted, result.differing) == ("differs", 27, 27)
    assert np.all((t.status == "differs") | (np.abs(t.ad) < 2 * bound))
    assert "match" not in list(t.status)
    code, out, err = plain("sin(checkflat_off(x))^2 + cos(x)^2")
    assert code == 1 and out.startswith("adcli's derivative and finite differences "
                                        "disagree for d/dx at 27 of 27 points"), out
    assert "a bug in adcli or a kink it does not know about" in out, out


def test_a_wrong_rule_on_an_exact_zero_differs(off):
    # f = off(x) - x is exactly 0, f' = 0; AD says 1.001 - 1 = 0.001
    result = adcli.check("checkflat_off(x) - x")
    assert np.allclose(result.targets[0].ad, 0.001, rtol=1e-12, atol=0)
    assert (result.verdict, result.differing, result.exit_code) == ("differs", 30, 1)


def test_a_wrong_rule_on_a_flat_f_with_the_expectation_0_blames_adcli(off):
    code, out, err = plain("sin(checkflat_off(x))^2 + cos(x)^2", "0")
    assert code == 1 and out.startswith("differs from d/dx at 30 of 30 points"), out
    note = next(line for line in out.splitlines() if "finite differences disagree" in line)
    assert "disagree at 27 of 30 points" in note and "a bug in adcli" in note, note


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


# ----- honest verdicts on a flat f (the tester's cases) ----------------------------------------
# On a flat f the differences only bound |f'|: "agrees" is said only where AD itself is 0 to
# within its own rounding, "differs" only where AD is far beyond the bound, and in between
# nothing is counted. Each true derivative below is worked out by hand (or by mpmath).

@pytest.fixture
def kilo(registered):
    """checkflat_kilo(x): x, whose backward rule says 1000 (wrong: the derivative is 1)."""
    return wrong_identity(registered, "checkflat_kilo", 1000.0)


@pytest.mark.parametrize("f", ["1e6+sin(x)^2+cos(x)^2+1e-9*x", "sin(x)^2+cos(x)^2+1e-11*x"])
def test_a_small_nonzero_derivative_is_never_0_within_rounding(f):
    # f' = 1e-9 (1e-11) exactly, by hand, and AD says so: it is not 0, so nowhere is it
    # "0 to within rounding", and no point where AD is that derivative counts as a match
    # on the strength of a bound on a flat f
    code, out, err = plain(f)
    assert "0 to within rounding" not in out and "constant" not in out, out
    result = adcli.check(f)
    t = result.targets[0]
    assert np.allclose(t.ad, float(f.rpartition("+")[2][:-2]), rtol=1e-6, atol=0)
    assert not np.any((t.status == "match") & np.isfinite(t.flat)), t.fd_error
    assert result.differing == 0


def test_a_wrong_small_derivative_on_a_flat_f_does_not_agree(kilo):
    # f' = 1e-9 (by hand); AD says 1e-9 * 1000 = 1e-6: not 0, so it never agrees with a
    # flat f's bound (it may be "cannot tell", or differ)
    result = adcli.check("1e6+sin(x)^2+cos(x)^2+1e-9*checkflat_kilo(x)",
                         domain={"x": (0.001, 0.002)})
    t = result.targets[0]
    assert np.allclose(t.ad, 1e-6, rtol=1e-6, atol=0)
    assert "match" not in list(t.status), result.summary
    assert "0 to within rounding" not in result.summary


def test_a_feature_narrower_than_the_long_steps_is_not_blamed_on_adcli():
    # f'(2) = 1e-16 * 1e6 * sech^2(0) = 1e-10 (by hand); over the finest step f changes by
    # less than its rounding, so the flat bound there is far above 1e-10: cannot tell
    f = "sin(x)^2+cos(x)^2+1e-16*tanh(1e6*(x-2))"
    code, out, err = plain(f, "--at", "x=2")
    assert code == 1 and out.startswith("cannot tell"), out
    assert "please report" not in out and "disagree" not in out, out
    result = adcli.check(f, at={"x": [2.0]})
    t = result.targets[0]
    assert abs(t.ad[0] - 1e-10) <= 1e-16 and result.differing == 0
    # any bound given is honest: at least the true |f'|
    assert not (t.fd_error[0] < 1e-10), t.fd_error


def test_a_tiny_fast_wiggle_is_cannot_tell_not_a_bug():
    # g = 1 + 1e-20 sin(1e10 x), g' = 1e-10 cos(1e10 x) (mpmath at each point): AD is
    # right, and a wiggle below g's rounding can never be blamed on it
    import mpmath
    result = adcli.check("1+1e-20*sin(1e10*x)")
    t, x = result.targets[0], result.points["x"]
    mpmath.mp.dps = 50
    # (at 1e10 x as floats round it, as the forward and backward pass both take it)
    true = [float(mpmath.mpf("1e-10") * mpmath.cos(mpmath.mpf(float(1e10 * v))))
            for v in x]
    assert np.allclose(t.ad, true, rtol=1e-4, atol=1e-16)
    assert (result.differing, result.verdict) == (0, "cannot tell"), result.summary
    assert not any("please report" in n for n in result.notes), result.notes


def test_a_known_kink_is_left_to_the_kink_rules():
    # |x| sign(x) - x is x - x = 0 on both sides of 0: its left and right derivatives are
    # 0; AD's -1 there is abs's and sign's documented convention, warned about, not a bug
    code, out, err = plain("abs(x)*sign(x)-x", "--at", "x=0")
    assert "bounds |d/dx| by" not in out and "kink it does not know about" not in out, out
    result = adcli.check("abs(x)*sign(x)-x", at={"x": [0.0]})
    assert not np.isfinite(result.targets[0].flat[0])
    assert result.targets[0].left[0] == 0 and result.targets[0].right[0] == 0


def test_vanishing_central_differences_are_not_called_constant():
    # x^2 - 2x at 1: f(1 + h) - f(1 - h) = 0 for every h (symmetric about 1), but f is
    # not constant: f(1.25) - f(1) = 0.0625. f'(1) = 0 (by hand), AD says 0
    code, out, err = plain("x^2-2*x", "--at", "x=1")
    assert code == 0 and "0 to within rounding" in out, out
    assert "being constant" not in out and "f is constant" not in out, out
    assert "central differences of f vanish" in out and "symmetric about" in out, out


def test_flat_points_in_json_are_judged_as_the_verdict_says():
    # f = x(sin^2 y + cos^2 y) - x: both partials are 0 (by hand). The verdict says 0 to
    # within rounding; the JSON must not call that a relative difference of 1
    code, out, err = run_cli("check", "x*(sin(y)^2+cos(y)^2)-x", "--format", "json")
    found = strict_json(out)
    assert (code, found["verdict"]) == (0, "matches"), found["summary"]
    assert "0 to within rounding" in found["summary"]
    largest = found["largest_relative_difference"]
    assert largest is None or largest <= 1e-12, largest
    for p in found["points"]:
        for d in p["derivatives"].values():
            assert d["finite_difference"] == 0 and d["relative_difference"] <= 1e-12, d
    for row in found["worst"]:
        assert row["relative_difference"] <= 1e-12, row


def test_a_flat_point_in_the_table_says_what_was_compared():
    for columns in (40, 80, 120):
        code, rows = adcli_on_terminal(columns, "check", "x*(sin(y)^2+cos(y)^2)-x")
        assert code == 0, rows
        said = " ".join(words(rows))
        assert "of its terms" in said and " 1 " not in said.split("relative")[-1], rows


@pytest.mark.parametrize("f, x", [("cos(x)", "0"), ("exp(-x^2)", "0"), ("cosh(x-1)", "1")])
def test_a_stationary_point_is_0_within_rounding(f, x):
    # f'(x) = -sin 0 = 0, -2x exp(-x^2) = 0 at 0, sinh 0 = 0 (by hand): AD says 0
    # exactly, and f's central differences vanish, far below the slope f shows beside x
    code, out, err = plain(f, "--at", f"x={x}")
    assert (code, err) == (0, ""), (code, out, err)
    assert out.startswith("adcli's derivative agrees") and "0 to within rounding" in out


@pytest.mark.parametrize("argv", [("3", "--wrt", "x"), ("x^2", "--order", "3"),
                                  ("x - x + 5",)])
def test_a_derivative_with_no_terms_of_an_exactly_constant_f_is_0(argv):
    # d/dx 3 = 0, d³/dx³ x² = 0, d/dx (x - x + 5) = 0 (by hand): f (d²/dx² x² = 2) has the
    # same float at every step, and AD is exactly 0 with no term that could round
    code, out, err = plain(*argv)
    assert (code, err) == (0, ""), (code, out, err)
    assert out.startswith("adcli's derivative agrees") and "0 to within rounding" in out
    assert "30/30 points" in out, out


def test_an_identity_whose_terms_do_not_vanish_still_needs_a_bound_beside_them():
    # sin(x)^2 + cos(x)^2 at |x| < 1e-20 is exactly 1 at every step too, but AD's terms
    # (2 sin x cos x, 1e-20) are not 0 and the bound (~1e6) is not small beside them
    result = adcli.check("sin(x)^2+cos(x)^2", at={"x": [1e-21, -3e-21]})
    assert (result.verdict, result.counted) == ("cannot tell", 0)
