"""adcli check where a float64 step of AD overflowed or underflowed: the long double witness
(adcli.wider) runs the graph again at those points, and where its number is sure and
float64's is wrong, check compares the expectation (or finite differences) with long
double's number, counts the point, and says so in a note.

The truths are closed forms worked out by hand, each checked here against mpmath (50
digits; its own numerical derivative at 300 digits, a step 1e-25 of the point). The
expectations are the same closed forms rewritten in v = 1/x, so that no step of theirs
overflows at the points used (a float64 expectation that overflows is not counted):
- x/(1 + x^2):    f' = (1 - x^2)/(1 + x^2)^2 = (1/x^2 - 1)/(x^2 (1 + 1/x^2)^2)  ~ -1/x^2
                  f'' = 2x(x^2 - 3)/(1 + x^2)^3 = 2 v^3 (1 - 3v^2)/(1 + v^2)^3   ~ 2/x^3
- x^3/(1 + x^4):  f = v/(1 + v^4) ~ 1/x,  f' = (3x^2 - x^6)/(1 + x^4)^2 = (3v^6 - v^2)/(1 + v^4)^2
- x y/(1 + x^2 y^2), u = x y, w = 1/u:  ∂²f/∂x∂y = g'(u) + u g''(u) for g(u) = u/(1 + u^2)
                  = (u^4 - 6u^2 + 1)/(1 + u^2)^3 = w^2 (1 - 6w^2 + w^4)/(1 + w^2)^3  ~ 1/u^2
"""
from __future__ import annotations

import mpmath
import pytest

import adcli
from adcli import wider
from conftest import adcli_on_terminal, run_cli, strict_json, words

pytestmark = pytest.mark.skipif(not wider.WIDE, reason="numpy's long double is float64 here")

HEAD = ("an intermediate step overflowed or underflowed in float64, and computed again in "
        "long double (a wider exponent range) it is ")

# f, its derivative by hand (mpmath, of mpf x), the expectation as adcli reads it
D1 = ("x/(1+x^2)", lambda x: (1 - x**2) / (1 + x**2) ** 2, "(1/x^2-1)/(x^2*(1+1/x^2)^2)")
D1_SIGN = "(1-1/x^2)/(x^2*(1+1/x^2)^2)"       # -f': a sign slip
D2 = ("x/(1+x^2)", lambda x: 2 * x * (x**2 - 3) / (1 + x**2) ** 3,
      "2*(1/x)^3*(1-3*(1/x)^2)/(1+(1/x)^2)^3")
D2_SIGN = "-2*(1/x)^3*(1-3*(1/x)^2)/(1+(1/x)^2)^3"
QUARTIC = ("x^3/(1+x^4)", lambda x: (3 * x**2 - x**6) / (1 + x**4) ** 2,
           "(3*(1/x)^6-(1/x)^2)/(1+(1/x)^4)^2")
QUARTIC_VALUE = "(1/x)/(1+(1/x)^4)"
MIXED = ("x*y/(1+x^2*y^2)", "w^2*(1-6*w^2+w^4)/(1+w^2)^3")


def hand(closed, x: float) -> float:
    with mpmath.workdps(50):
        return float(closed(mpmath.mpf(x)))


def numerical(f, x: float, order: int = 1) -> float:
    """mpmath's own derivative of f at x (300 digits, a step 1e-25 of x)."""
    with mpmath.workdps(300):
        x = mpmath.mpf(x)
        return float(mpmath.diff(f, x, order, h=x * mpmath.mpf(10) ** -25))


@pytest.mark.parametrize("f, closed, x, order", [
    (lambda x: x / (1 + x**2), D1[1], 1e120, 1),
    (lambda x: x / (1 + x**2), D2[1], 1e100, 2),
    (lambda x: x**3 / (1 + x**4), QUARTIC[1], 1e80, 1),
])
def test_the_hand_closed_forms_are_right(f, closed, x, order):
    assert hand(closed, x) == pytest.approx(numerical(f, x, order), rel=1e-12, abs=0)


def test_the_mixed_closed_form_is_right():
    with mpmath.workdps(300):
        x = y = mpmath.mpf(10) ** 50
        f = lambda x, y: x * y / (1 + x**2 * y**2)       # noqa: E731
        truth = mpmath.diff(f, (x, y), (1, 1), h=x * mpmath.mpf(10) ** -25)
        u = x * y
        assert float(truth) == pytest.approx(float((u**4 - 6 * u**2 + 1) / (1 + u**2) ** 3),
                                             rel=1e-12, abs=0)
        w = 1 / u
        assert float((u**4 - 6 * u**2 + 1) / (1 + u**2) ** 3) == pytest.approx(
            float(w**2 * (1 - 6 * w**2 + w**4) / (1 + w**2) ** 3), rel=1e-30, abs=0)


def plain(*argv):
    return run_cli("check", *argv, "--format", "plain")


def json_check(*argv):
    code, out, err = run_cli("check", *argv, "--format", "json")
    return code, strict_json(out), err


def note(label: str, wide: str, shown: str, number: str, what: str, used: str) -> str:
    return (f"note: {label} at 1 of 1 point: {HEAD}{wide} where float64 gives {shown}: "
            f"float64's {number} is wrong there, so long double's is the {what} {used}")


# ----- with an expectation: compared with long double's number -----------------------------

def test_a_right_expectation_where_float64s_ad_is_wrong_now_matches():
    # f' at 1e120 = -1e-240 (hand); float64's AD lost the term -2x^2/(1+x^2)^2 to an
    # overflow of (1+x^2)^2 and gives +1e-240. Before: "cannot tell" (exit 1).
    f, closed, expected = D1
    code, out, err = plain(f, expected, "--at", "x=1e120")
    assert (code, err) == (0, ""), out
    lines = out.splitlines()
    assert lines[0].startswith("matches d/dx at 1/1 points, largest relative difference ")
    assert lines[1:] == [note("d/dx", "-1e-240", "1e-240", "derivative", "AD",
                              "shown and compared with the expectation")]


def test_the_ad_shown_and_compared_is_long_doubles_and_true():
    f, closed, expected = D1
    code, document, _ = json_check(f, expected, "--at", "x=1e120")
    point = document["points"][0]["derivatives"]["x"]
    assert (code, document["verdict"], point["status"]) == (0, "matches", "match")
    assert point["ad"] == pytest.approx(hand(closed, 1e120), rel=1e-12, abs=0)
    assert point["expected"] == pytest.approx(hand(closed, 1e120), rel=1e-12, abs=0)
    assert document["notes"] == [note("d/dx", "-1e-240", "1e-240", "derivative", "AD",
                                      "shown and compared with the expectation")[6:]]


def test_the_readme_schema_holds_with_the_note():
    jsonschema = pytest.importorskip("jsonschema")
    from test_check import _readme_schema

    _, document, _ = json_check(*D1[::2], "--at", "x=1e120")
    jsonschema.validate(document, _readme_schema())


def test_the_briefs_asymptote_matches_at_the_point_and_is_said_to_be_one():
    # -1/x^2 is f' to 1e-240 relative at 1e120, so it matches there (the truth, not
    # float64's +1e-240); at random points it is not f', as the note says
    code, out, err = plain("x/(1+x^2)", "--expect", "x=-1/x^2", "--at", "x=1e120")
    lines = out.splitlines()
    assert code == 0
    assert lines[0].startswith("matches d/dx at 1/1 points")
    assert lines[1] == note("d/dx", "-1e-240", "1e-240", "derivative", "AD",
                            "shown and compared with the expectation")
    assert lines[2].startswith("note: it matches at your 1 point only, not at 30 of 30 random")


def test_a_wrong_expectation_there_is_now_a_mismatch():
    # -f' = +1e-240 is float64's wrong AD to the bit: before, "cannot tell" (exit 1, no
    # point counted); now it differs from long double's -1e-240
    f, closed, _ = D1
    code, document, _ = json_check(f, D1_SIGN, "--at", "x=1e120")
    point = document["points"][0]["derivatives"]["x"]
    assert (code, document["verdict"], document["counted"], document["differing"]) == \
        (1, "differs", 1, 1)
    assert point["expected"] == pytest.approx(-hand(closed, 1e120), rel=1e-12, abs=0)
    assert point["ad"] == pytest.approx(hand(closed, 1e120), rel=1e-12, abs=0)
    assert document["summary"] == "differs from d/dx at 1 of 1 point"
    assert note("d/dx", "-1e-240", "1e-240", "derivative", "AD",
                "shown and compared with the expectation")[6:] in document["notes"]


def test_an_ad_lost_to_0_and_f_itself_lost():
    # x^3/(1+x^4) at 1e80: float64 gives f = 0 and f' = 0 (x^4 overflows; 1e240/inf),
    # the truths 1e-80 and -1e-160. Before: exit 2 (nothing usable). The value shown is
    # long double's too, and finite differences of float64's f (0 at every step) are no
    # witness: no note of them disagreeing with AD
    f, closed, expected = QUARTIC
    code, document, err = json_check(f, expected, "--at", "x=1e80")
    point = document["points"][0]
    assert (code, err, document["verdict"]) == (0, "", "matches")
    assert point["derivatives"]["x"]["ad"] == pytest.approx(hand(closed, 1e80), rel=1e-12, abs=0)
    assert point["value"] == pytest.approx(hand(lambda x: x**3 / (1 + x**4), 1e80), rel=1e-12,
                                           abs=0)
    assert document["notes"] == [
        note("the value of f", "1e-80", "0", "value", "value", "shown")[6:],
        note("d/dx", "-1e-160", "0", "derivative", "AD",
             "shown and compared with the expectation")[6:],
        "d/dx at 1 of 1 point was judged by AD alone: f itself is wrong there in float64 (an "
        "intermediate step overflowed or underflowed, and long double gives another number), "
        "so finite differences of it witness nothing"]
    assert point["derivatives"]["x"]["finite_difference"] == "nan"


def test_a_wrong_expectation_of_an_ad_lost_to_0():
    code, out, _ = plain(QUARTIC[0], "(1/x)^2", "--at", "x=1e80")   # +1/x^2: the sign
    assert code == 1 and out.startswith("differs from d/dx at 1 of 1 point\n")


# ----- order 0 and order 2 -------------------------------------------------------------------

def test_an_identity_where_float64s_f_is_wrong():
    # f = x^3/(1+x^4) = 1/(x (1 + x^-4)) is 1e-80 at 1e80; float64's f is 0. Before: exit 2
    code, out, err = plain(QUARTIC[0], QUARTIC_VALUE, "--order", "0", "--at", "x=1e80")
    assert (code, err) == (0, "")
    assert out.splitlines()[1:] == [note("f", "1e-80", "0", "value", "f",
                                         "shown and compared with the expectation")]
    code, out, _ = plain(QUARTIC[0], "(1/x)/(1+(1/x)^2)", "--order", "0", "--at", "x=1e80")
    assert code == 0    # (1/x^2 beside 1 is below rounding: the same 1e-80)
    code, out, _ = plain(QUARTIC[0], "2/x", "--order", "0", "--at", "x=1e80")
    assert code == 1 and out.startswith("differs from f at 1 of 1 point\n")


def test_a_second_derivative_where_float64s_is_wrong():
    # f'' = 2e-300 at 1e100 (hand); float64's reverse passes lose terms to (1+x^2)^3
    f, closed, expected = D2
    code, document, _ = json_check(f, expected, "--order", "2", "--at", "x=1e100")
    point = document["points"][0]["derivatives"]["x"]
    assert (code, document["verdict"]) == (0, "matches")
    assert point["ad"] == pytest.approx(hand(closed, 1e100), rel=1e-12, abs=0)
    assert note("d²/dx²", "2e-300", document["notes"][-1].split("where float64 gives ")[1]
                .split(":")[0], "derivative", "AD", "shown and compared with the expectation"
                )[6:] == document["notes"][-1]
    code, out, _ = plain(f, D2_SIGN, "--order", "2", "--at", "x=1e100")
    assert code == 1 and out.startswith("differs from d²/dx² at 1 of 1 point\n")


def test_a_mixed_partial_where_float64s_is_wrong():
    f, expected = MIXED
    expected = expected.replace("w", "(1/(x*y))")
    code, document, _ = json_check(f, "--expect", f"x,y={expected}", "--at", "x=1e50",
                                   "--at", "y=1e50")
    point = document["points"][0]["derivatives"]["x,y"]
    assert (code, document["verdict"]) == (0, "matches")
    with mpmath.workdps(50):
        u = mpmath.mpf(10) ** 100
        truth = float((u**4 - 6 * u**2 + 1) / (1 + u**2) ** 3)
    assert point["ad"] == pytest.approx(truth, rel=1e-12, abs=0)
    assert any(n.startswith(f"∂²/∂x∂y at 1 of 1 point: {HEAD}1e-200 where float64 gives ")
               for n in document["notes"])
    code, out, _ = plain(f, "--expect", f"x,y=-{expected}", "--at", "x=1e50", "--at", "y=1e50")
    assert code == 1 and out.startswith("differs from ∂²/∂x∂y at 1 of 1 point\n")


# ----- without an expectation: long double's AD against finite differences ------------------

def test_no_expectation_long_doubles_ad_agrees_with_finite_differences():
    # f = 1e-120 is right in float64, so its differences (-1e-240) witness: they agree
    # with long double's AD. Before: "cannot tell" (exit 1)
    code, out, err = plain("x/(1+x^2)", "--at", "x=1e120")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "adcli's derivative agrees with finite differences for d/dx at 1/1 points, largest "
        "relative difference " + out.split("largest relative difference ")[1].split("\n")[0],
        note("d/dx", "-1e-240", "1e-240", "derivative", "AD",
             "shown and compared with finite differences")]
    difference = float(out.split("largest relative difference ")[1].split("\n")[0])
    assert difference < 1e-6


def test_no_expectation_where_f_itself_is_wrong_the_differences_witness_nothing():
    # float64's f is 0 around 1e80, so are its differences, and so is float64's AD: they
    # "agreed" (exit 0) before, two wrong numbers. Now: cannot tell, exit 1
    code, out, err = plain(QUARTIC[0], "--at", "x=1e80")
    assert (code, err) == (1, "")
    assert out.splitlines() == [
        "cannot tell: f is wrong in float64 at the 1 point checked, so finite differences "
        "of it witness nothing",
        note("the value of f", "1e-80", "0", "value", "value", "shown"),
        note("d/dx", "-1e-160", "0", "derivative", "AD", "shown"),
        "note: 1 point not counted: f itself is wrong there in float64 (an intermediate step "
        "overflowed or underflowed, and long double gives another number), so finite "
        "differences of it witness nothing"]


# ----- where the witness is not used ----------------------------------------------------------

def test_no_flag_no_witness(monkeypatch):
    # x/(1+x^2) at 2: every step in range; f' = (1 - 4)/25 = -0.12
    monkeypatch.setattr(wider, "judged", None)     # a call would fail
    monkeypatch.setattr(wider, "suspects", None)
    code, out, err = plain(*D1[::2], "--at", "x=2")
    assert (code, err) == (0, "")
    assert out == "matches d/dx at 1/1 points, largest relative difference 0\n"
    result = adcli.check(D1[0], D1[2], at={"x": 2.0})
    assert result.targets[0].ad[0] == pytest.approx(-0.12, rel=1e-15, abs=0)


def before(monkeypatch, *argv):
    """The check as it was without the witness (long double no wider than float64)."""
    with monkeypatch.context() as m:
        m.setattr(wider, "WIDE", False)
        return plain(*argv)


@pytest.mark.parametrize("argv", [
    [*D1[::2], "--at", "x=1e120"],
    [D1[0], D1_SIGN, "--at", "x=1e120"],
    ["x/(1+x^2)", "--at", "x=1e120"],
])
def test_an_unsure_witness_leaves_the_check_as_it_was(monkeypatch, argv):
    # no run agrees with the nudged ones to 0 (STABLE): long double's numbers are all
    # taken for their own rounding, and none stands in for float64's
    old = before(monkeypatch, *argv)
    assert old[0] == 1 and old[1].startswith("cannot tell")
    monkeypatch.setattr(wider, "STABLE", 0.0)
    assert plain(*argv) == old


def test_where_long_double_is_float64_the_check_is_as_it_was(monkeypatch):
    code, out, err = before(monkeypatch, *D1[::2], "--at", "x=1e120")
    assert (code, err) == (1, "")
    assert out.startswith("cannot tell: rounding leaves no digit of adcli's derivative or the expectation at "
                          "the 1 point checked\n")
    assert "long double" not in out


def test_long_doubles_own_rounding_does_not_stand_in():
    # x/sqrt(x^2+1) at 1e200: f' = (1+x^2)^(-3/2) = 1e-600, 0 as a float; long double's
    # ~7e-220 is its own rounding (two cancelling terms of 1e-200): the AD stays float64's
    # 0. Its value, 1 (float64: 0 from 1e200/inf), is sure, and replaces float64's
    result = adcli.check("x/sqrt(x^2+1)", at={"x": 1e200})
    assert result.targets[0].ad[0] == 0.0
    assert result.value[0] == 1.0
    assert not any(n.startswith("d/dx at") for n in result.notes)


def test_a_witness_below_float64s_normal_range_does_not_stand_in():
    # x/(1+x^2) at 1e160: f' = -1e-320 is subnormal (float64 gives 0): not a number to
    # compare digits with, so AD stays float64's; f = 1e-160 (float64: 0, x^2 overflows)
    # is long double's, and f's differences witness nothing
    result = adcli.check("x/(1+x^2)", at={"x": 1e160})
    assert result.targets[0].ad[0] == 0.0
    assert result.value[0] == pytest.approx(1e-160, rel=1e-12, abs=0)
    assert (result.verdict, result.exit_code) == ("cannot tell", 1)
    assert not any(n.startswith("d/dx at") for n in result.notes)


def test_several_points_are_counted_and_the_first_named(tmp_path):
    f, closed, expected = D1
    points = tmp_path / "points.csv"
    points.write_text("x\n2\n1e120\n3e120\n")
    code, document, _ = json_check(f, expected, "--points", str(points))
    assert (code, document["verdict"], document["counted"]) == (0, "matches", 3)
    ads = [p["derivatives"]["x"]["ad"] for p in document["points"]]
    assert ads == pytest.approx([hand(closed, x) for x in (2.0, 1e120, 3e120)], rel=1e-12, abs=0)
    assert document["notes"][0].startswith(f"d/dx at 2 of 3 points: {HEAD}-1e-240 where "
                                           "float64 gives 1e-240 (first at x=1e+120): ")


# ----- exit statuses, bad input, the API, the terminal ----------------------------------------

def test_bad_input_at_such_a_point_is_still_exit_2():
    code, out, err = plain(D1[0], "--expect", "y=1", "--at", "x=1e120")
    assert (code, out, err.count("\n")) == (2, "", 1), err
    assert err.startswith("adcli: error: ") and "'y'" in err


def test_the_api_says_the_same():
    result = adcli.check(D1[0], D1[2], at={"x": 1e120})
    assert (result.verdict, result.exit_code) == ("matches", 0)
    assert result.targets[0].ad[0] == pytest.approx(hand(D1[1], 1e120), rel=1e-12, abs=0)
    assert result.notes[0] == note("d/dx", "-1e-240", "1e-240", "derivative", "AD",
                                   "shown and compared with the expectation")[6:]


@pytest.mark.parametrize("columns", [40, 80, 120])
def test_the_note_on_a_terminal(columns):
    code, rows = adcli_on_terminal(columns, "check", *D1[::2], "--at", "x=1e120")
    assert code == 0
    assert note("d/dx", "-1e-240", "1e-240", "derivative", "AD",
                "shown and compared with the expectation") in " ".join(words(rows))


def test_a_value_float64_has_as_inf_and_both_partials():
    # sqrt(x^2+y^2) at (3e200, 4e200): r = 5e200, the gradient (x, y)/r = (0.6, 0.8) by
    # hand; float64 gives inf and 0, 0 (x^2 overflows). Before: exit 2 (f not finite)
    code, document, _ = json_check(
        "sqrt(x^2+y^2)", "--expect", "x=x/(abs(y)*sqrt(1+(x/y)^2))",
        "--expect", "y=y/(abs(y)*sqrt(1+(x/y)^2))", "--at", "x=3e200", "--at", "y=4e200")
    point = document["points"][0]
    assert (code, document["verdict"]) == (0, "matches")
    assert point["value"] == pytest.approx(5e200, rel=1e-15)
    assert [point["derivatives"][v]["ad"] for v in "xy"] == pytest.approx([0.6, 0.8],
                                                                          rel=1e-15, abs=0)
    assert document["notes"] == [
        note("the value of f", "5e+200", "inf", "value", "value", "shown")[6:],
        note("∂/∂x", "0.6", "0", "derivative", "AD",
             "shown and compared with the expectation")[6:],
        note("∂/∂y", "0.8", "0", "derivative", "AD",
             "shown and compared with the expectation")[6:],
        "∂/∂x and ∂/∂y at 1 of 1 point were judged by AD alone: f itself is wrong there "
        "in float64 (an intermediate step overflowed or underflowed, and long double gives "
        "another number), so finite differences of it witness nothing"]


def test_above_order_2_the_check_is_float64s(monkeypatch):
    # f''' of x/(1+x^2) at 1e70 is -6e-280 (~ -6/x^4); long double does not stand in above
    # order 2 (checking.LONG_DOUBLE_ORDER), so the check says what it said without the witness
    argv = ["x/(1+x^2)", "-6*(1/x)^4", "--order", "3", "--at", "x=1e70"]
    monkeypatch.setattr(wider, "judged", None)     # a call would fail
    old = before(monkeypatch, *argv)
    assert plain(*argv) == old
    assert "long double" not in old[1]
