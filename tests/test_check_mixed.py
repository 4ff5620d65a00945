"""adcli check of a mixed partial (README "Check a derivation"): --expect x,y=..., the
equation ∂²f/∂x∂y = ..., expect={"x,y": ...}.

x,y names ∂²f/∂x∂y as Leibniz writes it: ∂/∂x of ∂f/∂y. Every derivative below is worked
out by hand from the product and chain rules; whether a point matches is decided from
those closed forms, never from adcli's output.
"""
from __future__ import annotations

import numpy as np
import pytest

import adcli
from conftest import run_cli, strict_json

# f = x^2 y^3 + sin(xy), by hand:
#   ∂f/∂x = 2xy^3 + y cos(xy)            ∂f/∂y = 3x^2 y^2 + x cos(xy)
#   ∂²f/∂x∂y = 6xy^2 + cos(xy) - xy sin(xy)
#   ∂²f/∂x² = 2y^3 - y^2 sin(xy)         ∂²f/∂y² = 6x^2 y - x^2 sin(xy)
F = "x^2*y^3 + sin(x*y)"
F_XY = "6*x*y^2 + cos(x*y) - x*y*sin(x*y)"


def f_xy(x, y):
    return 6 * x * y**2 + np.cos(x * y) - x * y * np.sin(x * y)


def plain(*argv):
    return run_cli("check", *argv, "--format", "plain")


# ----- the verdict ---------------------------------------------------------------------------

def test_a_right_mixed_partial_matches_and_a_wrong_one_differs():
    assert plain(F, "--expect", f"x,y={F_XY}")[0] == 0
    code, out, err = plain(F, "--expect", "x,y=6*x*y^2 + cos(x*y) + x*y*sin(x*y)")
    assert (code, err) == (1, "")
    assert out.startswith("differs from ∂²/∂x∂y at ")


def test_the_verdict_names_the_mixed_partial():
    code, out, err = plain("x^2*y", "--expect", "x,y=2*x")   # ∂/∂x (x^2) = 2x
    assert (code, out, err) == (
        0, "matches ∂²/∂x∂y at 30/30 points, largest relative difference 0\n", "")


@pytest.mark.parametrize("key", ["x,y", "x, y", ("x", "y")])
def test_the_api_takes_a_mixed_partial_by_its_names(key):
    result = adcli.check(F, expect={key: F_XY})
    assert (result.verdict, result.exit_code, result.order) == ("matches", 0, 2)
    (target,) = result.targets
    assert (target.label, target.derivative, target.names) == ("∂²/∂x∂y", "x,y", ("x", "y"))
    assert adcli.check(F, expect={key: "2*y^3 - y^2*sin(x*y)"}).exit_code == 1


def test_the_three_witnesses_are_the_hand_derived_mixed_partial():
    """AD (nested reverse passes) and finite differences (in x, of adcli's ∂f/∂y) both
    equal the closed form at every point, and so does the expectation."""
    result = adcli.check(F, expect={"x,y": F_XY}, domain={"x": (-2, 2), "y": (-2, 2)})
    (t,) = result.targets
    x, y = result.points["x"], result.points["y"]
    truth = f_xy(x, y)
    np.testing.assert_allclose(t.ad, truth, rtol=1e-12, atol=0)
    np.testing.assert_allclose(t.fd, truth, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(t.expected, truth, rtol=1e-12, atol=0)
    assert result.counted == 30 and result.notes == []


def test_finite_differences_run_along_the_outer_variable():
    """∂²/∂x∂y of |x| y is ∂/∂x |x| = sign(x): at x = 0 it does not exist, which only
    differences in x of ∂f/∂y = |x| can see (left -1, right 1)."""
    result = adcli.check("abs(x)*y", expect={"x,y": "x/abs(x)"},
                         at={"x": [-1.0, -0.5, 0.0, 0.5, 1.0], "y": 2.0})
    assert result.verdict == "matches" and result.no_derivative == 1
    (row,) = result.kinks
    assert (row.at, row.left, row.right, row.derivative) == (
        {"x": 0.0, "y": 2.0}, -1.0, 1.0, "x,y")


def test_the_order_of_the_names_is_leibniz_s():
    """x,y is ∂/∂x (∂f/∂y), y,x is ∂/∂y (∂f/∂x): the two are equal for a smooth f, and
    each is labelled as written."""
    result = adcli.check(F, expect={"x,y": F_XY, "y,x": F_XY})
    assert result.ok and [t.label for t in result.targets] == ["∂²/∂x∂y", "∂²/∂y∂x"]


def test_a_third_order_mixed_partial():
    # x^3 y^2: ∂f/∂y = 2x^3 y; ∂²/∂x² of that = 12xy; ∂²f/∂x² = 6xy^2
    assert plain("x^3*y^2", "--expect", "x,x,y=12*x*y") == (
        0, "matches ∂³/∂x²∂y at 30/30 points, largest relative difference 0\n", "")
    assert plain("x^3*y^2", "--expect", "x,x,y=12*x*y", "--order", "3")[0] == 0
    assert plain("x^3*y^2", "--expect", "x,x,y=12*x*y^2")[0] == 1
    assert plain("x^3*y^2", "∂³f/∂x²∂y = 12 x y")[0] == 0


def test_x_x_is_the_second_derivative_in_x():
    # ∂²f/∂x² = 2y^3 - y^2 sin(xy), as --expect x=... --order 2 says it
    code, out, _ = plain(F, "--expect", "x,x=2*y^3 - y^2*sin(x*y)")
    assert (code, out.split(" at ")[0]) == (0, "matches ∂²/∂x²")


# ----- the equation on paper -----------------------------------------------------------------

@pytest.mark.parametrize("left", [
    "∂²f/∂x∂y", "∂^2f/∂x∂y", "∂^2 f/∂x ∂y", "d^2f/dxdy", "d²f/dx dy",
    "\\frac{\\partial^2 f}{\\partial x \\partial y}",
    "\\frac{\\partial^2 f}{\\partial x\\,\\partial y}",
    "\\frac{\\mathrm{d}^2 f}{\\mathrm{d}x\\,\\mathrm{d}y}",
    "∂²/∂x∂y (x^2*y^3 + sin(x*y))", "∂²(x^2*y^3 + sin(x*y))/∂x∂y",
])
def test_a_left_side_naming_the_mixed_partial_says_what_is_checked(left):
    code, out, err = plain(F, f"{left} = {F_XY}")
    assert (code, out.split(" at ")[0], err) == (0, "matches ∂²/∂x∂y", "")
    code, out, _ = plain(F, f"{left} = 2*y^3 - y^2*sin(x*y)")    # that is ∂²f/∂x²
    assert (code, out.split(" at ")[0]) == (1, "differs from ∂²/∂x∂y")


def test_the_api_keeps_order_1_unless_told_as_for_f_second():
    with pytest.raises(adcli.AdcliError, match="is a derivative of order 2, and this checks "
                                               "order 1: add --order 2"):
        adcli.check(F, f"∂²f/∂x∂y = {F_XY}")
    assert adcli.check(F, f"∂²f/∂x∂y = {F_XY}", order=2).ok


# ----- output --------------------------------------------------------------------------------

def test_json_names_the_mixed_partial_x_comma_y():
    code, out, _ = run_cli("check", F, "--expect", f"x,y={F_XY}", "--format", "json",
                           "--samples", "5")
    document = strict_json(out)
    assert (code, document["order"], document["verdict"]) == (0, 2, "matches")
    assert document["checks"] == [{"derivative": "x,y", "label": "∂²/∂x∂y",
                                   "expected": {"expression": F_XY,
                                                "parsed": document["checks"][0]["expected"]
                                                ["parsed"]}}]
    assert {w["derivative"] for w in document["worst"]} == {"x,y"}
    for point in document["points"]:
        (entry,) = point["derivatives"].values()
        assert list(point["derivatives"]) == ["x,y"]
        x, y = point["at"]["x"], point["at"]["y"]
        assert entry["ad"] == pytest.approx(f_xy(x, y), rel=1e-12, abs=0)


def test_json_of_a_mixed_partial_follows_the_readme_schema():
    jsonschema = pytest.importorskip("jsonschema")
    from test_check import _readme_schema

    code, out, _ = run_cli("check", F, "--expect", "x,y=2*x", "--format", "json")
    document = strict_json(out)
    jsonschema.validate(document, _readme_schema())
    assert (code, document["verdict"]) == (1, "differs")


def test_csv_and_the_table_label_the_mixed_partial():
    code, out, err = run_cli("check", "x^2*y", "--expect", "x,y=2*x", "--format", "csv",
                             "--at", "x=3", "--at", "y=5")
    assert code == 0
    assert out.splitlines() == [
        "x,y,derivative,expected,ad,finite_difference,finite_difference_error,"
        "relative_difference,status", out.splitlines()[1]]
    x, y, label, expected, ad, fd, _, difference, status = out.splitlines()[1].split(",")
    assert (x, y, label, status) == ("3.0", "5.0", "d2/dx dy", "match")
    assert float(expected) == float(ad) == 6.0 and float(fd) == pytest.approx(6.0, rel=1e-9)
    code, out, _ = run_cli("check", "x^2*y", "--expect", "x,y=2*x")
    assert code == 0 and "expected ∂²/∂x∂y: 2*x" in out


# ----- diagnosis -----------------------------------------------------------------------------

@pytest.mark.parametrize("written, diagnosis", [
    ("2*y^3 - y^2*sin(x*y)", "the expectation is ∂²/∂x² at every point, not ∂²/∂x∂y: "
                             "differentiated in x alone, not in y"),
    ("6*x^2*y - x^2*sin(x*y)", "the expectation is ∂²/∂y² at every point, not ∂²/∂x∂y: "
                               "differentiated in y alone, not in x"),
    ("2*x*y^3 + y*cos(x*y)", "the expectation is ∂/∂x at every point, not ∂²/∂x∂y: "
                             "not differentiated in y"),
    ("3*x^2*y^2 + x*cos(x*y)", "the expectation is ∂/∂y at every point, not ∂²/∂x∂y: "
                               "not differentiated in x"),
    ("x^2*y^3 + sin(x*y)", "the expectation is f itself at every point, not ∂²/∂x∂y: "
                           "nothing was differentiated"),
    ("2*(" + F_XY + ")", "×2 everywhere: the expectation is 2 times ∂²/∂x∂y at every point"),
    ("-(" + F_XY + ")", "×-1 everywhere: a sign error (the expectation is -∂²/∂x∂y at every "
                        "point)"),
])
def test_a_wrong_mixed_partial_is_diagnosed(written, diagnosis):
    result = adcli.check(F, expect={"x,y": written})
    assert (result.exit_code, result.diagnosis) == (1, [diagnosis])


def test_a_third_order_mixed_partial_one_differentiation_short():
    # x^3 y^2: ∂²f/∂x² = 6xy^2, written for ∂³f/∂x²∂y
    result = adcli.check("x^3*y^2", expect={"x,x,y": "6*x*y^2"})
    assert result.diagnosis == ["the expectation is ∂²/∂x² at every point, not ∂³/∂x²∂y: "
                                "not differentiated in y"]


def test_no_diagnosis_where_two_derivatives_would_explain_it():
    """sin(x + y): ∂f/∂x = ∂f/∂y = cos(x + y), so which one was written is a guess, and
    the mixed partial -sin(x + y) is no multiple of it: nothing is claimed."""
    result = adcli.check("sin(x+y)", expect={"x,y": "cos(x+y)"})
    assert (result.verdict, result.diagnosis) == ("differs", [])


def test_second_order_rules_of_one_variable_are_not_claimed_for_a_mixed_partial():
    """sin(x^2) + xy: ∂²f/∂x∂y = 1. Written 1 - 2cos(x^2), it is that with d²/dx²'s chain
    rule term g'(u)·u'' = 2cos(x^2) taken away, a slip of the second derivative in x,
    which says nothing of the mixed partial: no claim."""
    result = adcli.check("sin(x^2) + x*y", expect={"x,y": "1 - 2*cos(x^2)"})
    assert (result.verdict, result.diagnosis) == ("differs", [])


# ----- errors: one line, exit 2 --------------------------------------------------------------

@pytest.mark.parametrize("f, argv, message", [
    (F, ["--expect", "x,z=2*x"], "'z' does not appear in 'x^2*y^3 + sin(x*y)'"),
    ("x^2*y", ["--order", "2", "--expect", "xy=2*x"],    # the names run together
     "'xy' does not appear in 'x^2*y': for the mixed partial ∂²/∂x∂y, --expect x,y=..."),
    ("x^2", ["--expect", "x,y=0"], "'y' does not appear in 'x^2': a mixed partial needs two "
                                   "variables, and it has one, x"),
    (F, ["--expect", f"x,y={F_XY}", "--order", "3"],
     "--expect x,y= names a derivative of order 2, one per name, and the order given is 3"),
    (F, ["--expect", f"x,y={F_XY}", "--expect", "x=2*x*y^3"],
     "--expect x= beside x,y= does not say its order: write x,x= for the derivative of "
     "order 2, or give --order 2"),
    (F, ["--expect", "x,y=1", "--expect", "x,x,y=1"],
     "--expect x,y= is of order 2 and x,x,y= of order 3: check one order at a time"),
    (F, ["--expect", "x,=1"], "is not of the form NAME=EXPRESSION (or NAME,NAME=EXPRESSION "
                              "for a mixed partial, x,y= for ∂²f/∂x∂y)"),
    (F, ["--expect", "x,y=1", "--expect", "x, y=2"], "--expect x,y= is given more than once"),
    (F, ["∂²f/∂x∂z = 1"], "the expectation's left side, ∂²f/∂x∂z, is a derivative in z, which "
                         "does not appear in"),
    (F, ["∂f/∂x∂y = 1"], "the expectation's left side, ∂f/∂x∂y, differentiates 2 times below "
                        "(∂x∂y) and 1 above: write ∂²f/∂x∂y"),
    (F, ["∂²f/∂x∂y = 1", "--order", "3"], "is a derivative of order 2, and this checks order 3"),
    (F, ["∂²f/∂x∂y = 1", "--wrt", "x"], "is the mixed partial ∂²/∂x∂y, and this checks one in "
                                       "x: --expect x,y="),
    (F, ["--expect", "x,y=∂²f/∂x² = 1"], "is a derivative in x, and this checks ∂²/∂x∂y"),
    (F, ["--expect", "x,y=f''(x) = 1"], "is no mixed partial, and this checks ∂²/∂x∂y"),
])
def test_a_mixed_partial_that_cannot_be_checked_is_one_line_and_exit_2(f, argv, message):
    code, out, err = run_cli("check", f, *argv)
    assert (code, out) == (2, "")
    assert err.startswith("adcli: error: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err
