"""adcli check: what a multivariable-calculus student found (README "Check a derivation").

Every derivative and every left/right derivative below is worked out by hand; messages
and exit codes are compared whole.
"""
from __future__ import annotations

import pytest

import adcli
from conftest import run_cli, strict_json


def plain(*argv):
    return run_cli("check", *argv, "--format", "plain")


def error(message: str) -> str:
    return f"adcli: error: {message}\n"


# ----- 1. a mixed partial at a kink of the inner variable ------------------------------------

# f = |x y| at y = 0, x > 0: ∂f/∂y = |x| sign(y) jumps from -x to x there, so ∂f/∂y does not
# exist, and neither does ∂²f/∂x∂y = ∂/∂x of it (adcli's ∂f/∂y, sign(0) = 0, is smooth in x).
KINK_IN_Y = ("∂²/∂x∂y does not exist at 2 points because ∂/∂y does not (a kink in y): the "
             "left and right derivatives shown there are f's in y")


@pytest.mark.parametrize("expected", ["x y/|x y|", "sign(x y)"])
def test_a_mixed_partial_at_a_kink_of_the_inner_variable_does_not_exist(expected):
    code, out, _ = plain("|x y|", "--expect", f"x,y={expected}", "--grid", "x=1:2:2",
                         "--at", "y=0")
    assert (code, out) == (1, "cannot tell: the derivative does not exist at the 2 points "
                              f"checked\nnote: {KINK_IN_Y}\n")


def test_the_left_and_right_derivatives_shown_are_the_inner_steps():
    code, out, _ = run_cli("check", "|x y|", "--expect", "x,y=sign(x y)", "--grid",
                           "x=1:2:2", "--at", "y=0", "--format", "json")
    document = strict_json(out)
    assert (code, document["verdict"], document["no_derivative"]) == (1, "cannot tell", 2)
    # ∂f/∂y from the left and right at (x, 0): -x and x
    sides = [(k["at"]["x"], k["left"], k["right"]) for k in document["kinks"]]
    assert sides == [(1.0, pytest.approx(-1.0), pytest.approx(1.0)),
                     (2.0, pytest.approx(-2.0), pytest.approx(2.0))]
    for point in document["points"]:
        entry = point["derivatives"]["x,y"]
        assert (point["status"], entry["status"]) == ("no derivative", "no derivative")
        assert (entry["left"], entry["right"]) == (pytest.approx(-point["at"]["x"]),
                                                   pytest.approx(point["at"]["x"]))
    assert document["notes"] == [KINK_IN_Y]


@pytest.mark.parametrize("f, key, grid, at, kink_in", [
    # |x| y: ∂f/∂x = y sign(x), from -2 to 2 at x = 0 (y = 2); ∂²f/∂y∂x = sign(x) elsewhere
    ("abs(x)*y", "y,x", "x=-1:1:3", "y=2", "x"),
    # x |y|: ∂f/∂y = x sign(y), from -2 to 2 at y = 0 (x = 2); ∂²f/∂x∂y = sign(y) elsewhere
    ("x*abs(y)", "x,y", "y=-1:1:3", "x=2", "y"),
])
def test_the_other_order_of_a_kinked_product_is_no_derivative_at_the_kink(f, key, grid, at,
                                                                           kink_in):
    code, out, _ = run_cli("check", f, "--expect", f"{key}={kink_in}/abs({kink_in})",
                           "--grid", grid, "--at", at, "--format", "json")
    document = strict_json(out)
    assert (code, document["verdict"], document["counted"], document["no_derivative"]) == \
        (0, "matches", 2, 1)
    (kink,) = document["kinks"]
    assert kink["at"][kink_in] == 0.0 and kink["derivative"] == key
    assert (kink["left"], kink["right"]) == (pytest.approx(-2.0), pytest.approx(2.0))
    label = {"y,x": "∂²/∂y∂x", "x,y": "∂²/∂x∂y"}[key]
    assert document["notes"] == [
        f"{label} does not exist at 1 point because ∂/∂{kink_in} does not (a kink in "
        f"{kink_in}): the left and right derivatives shown there are f's in {kink_in}"]


def test_a_second_derivative_at_a_kink_shows_the_first_ones_sides():
    # |x|'' at 0: |x|' itself jumps from -1 to 1; elsewhere |x|'' = 0
    result = adcli.check("abs(x)", "0", order=2, at={"x": [-1.0, 0.0, 1.0]})
    (t,) = result.targets
    assert (result.verdict, result.no_derivative) == ("matches", 1)
    assert (t.left[1], t.right[1]) == (pytest.approx(-1.0), pytest.approx(1.0))
    assert result.notes == ["d²/dx² does not exist at 1 point because d/dx does not (a kink "
                            "in x): the left and right derivatives shown there are f's in x"]


# ----- 2. a rule's u and v are not the student's own names -----------------------------------

@pytest.mark.parametrize("argv, diagnosis", [
    # f_u = 2u sin(uv) + u^2 v cos(uv): the term u^2·(∂ sin(uv)/∂u) is left out
    (["u^2 sin(u v)", "--expect", "u=2u sin(u v)"],
     "the product rule's term p·(∂q/∂u) is missing: for p = u^2 and q = sin(u*v), "
     "∂(p·q)/∂u = (∂p/∂u)·q + p·(∂q/∂u)"),
    # f_u = 2uv cos(u^2 v): cos alone is ∂f/∂(u^2 v)
    (["sin(u^2 v)", "--expect", "u=cos(u^2 v)"],
     "this is the derivative of sin with respect to its argument p = (u^2)*v; the chain "
     "rule's factor ∂p/∂u is missing"),
    # f = sin(x^2 - y^2) e^(xy): f_x = 2x cos(u) e^v + y sin(u) e^v, the second left out
    (["sin(u) e^v", "--let", "u=x^2-y^2", "--let", "v=x y", "--expect",
      "x=2x cos(u) e^v"],
     "the product rule's term p·(∂q/∂x) is missing: for p = sin((x^2) - (y^2)) and "
     "q = e^(x*y), ∂(p·q)/∂x = (∂p/∂x)·q + p·(∂q/∂x)"),
    # (sin(u^2))'' = -4u^2 sin(u^2) + 2cos(u^2): the second term left out; g is f's own
    (["sin(u^2) + g", "--expect", "u=-4u^2 sin(u^2)", "--order", "2"],
     "the chain rule's term h'(p)·(∂²p/∂u²) is missing: for h(p) = sin(p) and p = u^2, "
     "∂²h(p)/∂u² = h''(p)·(∂p/∂u)^2 + h'(p)·(∂²p/∂u²)"),
])
def test_a_diagnosis_names_its_rule_with_letters_f_does_not_use(argv, diagnosis):
    code, out, _ = plain(*argv)
    assert code == 1 and out.splitlines()[1:] == [f"diagnosis: {diagnosis}"]


def test_a_diagnosis_keeps_u_and_v_where_they_are_free():
    result = adcli.check("x^3 sin(x)", "3x^2 sin(x)")   # x^3 cos x left out
    assert result.diagnosis == ["the product rule's term u·(dv/dx) is missing: for u = x^3 "
                                "and v = sin(x), d(u·v)/dx = (du/dx)·v + u·(dv/dx)"]


# ----- 3. LaTeX and Unicode left sides with subscripts and Greek letters ---------------------

@pytest.mark.parametrize("f, expected, label", [
    # ∂(x1^2 x2)/∂x1 = 2 x1 x2; ∂²/∂x1∂x2 = 2 x1; (x1^2)' = 2 x1
    ("x_{1}^2 x_{2}", "\\frac{\\partial f}{\\partial x_{1}} = 2x_{1}x_{2}", "∂/∂x_1"),
    ("x_{1}^2 x_{2}", "∂²f/∂x_{1}∂x_{2} = 2x_{1}", "∂²/∂x_1∂x_2"),
    ("x_{1}^2", "∂f/∂x_{1} = 2x_{1}", "d/dx_1"),
    ("x_{1}^2", "\\frac{df}{dx_{1}} = 2x_{1}", "d/dx_1"),
    # sin θ' = cos θ; ∂²sin(θφ)/∂θ∂φ = cos(θφ) - θφ sin(θφ); (θ^2)' = 2θ
    ("\\sin(\\theta)", "\\frac{\\partial f}{\\partial \\theta} = \\cos\\theta", "d/dθ"),
    ("\\sin(\\theta \\phi)", "\\frac{\\partial^2 f}{\\partial \\theta \\partial \\phi} = "
     "\\cos(\\theta\\phi) - \\theta\\phi\\sin(\\theta\\phi)", "∂²/∂θ∂φ"),
    ("\\theta^2", "\\frac{d}{d\\theta}\\theta^2 = 2\\theta", "d/dθ"),
    ("\\theta^2 \\phi", "\\frac{\\partial^2}{\\partial\\theta\\partial\\phi}\\theta^2\\phi = "
     "2\\theta", "∂²/∂θ∂φ"),
])
def test_left_sides_read_braced_subscripts_and_greek_commands(f, expected, label):
    code, out, err = plain(f, expected)
    assert (code, err) == (0, "")
    assert out.startswith(f"matches {label} at 30/30 points, largest relative difference")


# ----- 4. a left side not read says so first -------------------------------------------------

F_XY = ("the expectation's left side, f_{xy}, is not read as a derivative: give it by name "
        "instead, --expect x,y=\"6x y^2\" (expect={\"x,y\": ...} in the API), for ∂²/∂x∂y; "
        "subscript conventions differ: f_{xy} often means ∂²/∂y∂x, ∂/∂y of ∂f/∂x "
        "(--expect y,x=...)")


@pytest.mark.parametrize("options", [[], ["--wrt", "x"]])
def test_a_subscript_left_side_points_to_expect_by_name(options):
    assert plain("x^2 y^3", "f_{xy} = 6x y^2", *options) == (2, "", error(F_XY))
    # what it suggests works: ∂²(x^2 y^3)/∂x∂y = 6 x y^2
    assert plain("x^2 y^3", "--expect", "x,y=6x y^2")[0] == 0


def test_an_unread_left_side_lists_the_forms_read():
    forms = ("f'(x), dy/dx, d²y/dx², ∂f/∂x, ∂²f/∂x∂y, ∂_x f, ∂_x ∂_y f, d/dx (F) or their "
             "LaTeX forms (\\frac{\\partial f}{\\partial x})")
    assert plain("x^2 y^3", "D_x f = 6x y^2") == (2, "", error(
        "the expectation's left side, D_x f, is not read as a derivative: give the "
        f"derivative by name, --expect NAME=\"6x y^2\" (NAME,NAME= for a mixed partial), or "
        f"write its left side as {forms}"))
    assert plain("x^2", "y = 2x") == (2, "", error(
        "the expectation's left side, y, is not read as a derivative: an expression is "
        f"wanted, not an equation; give the right side alone, 2x, or write the left side as "
        f"{forms}"))


@pytest.mark.parametrize("expected", [
    "∂²f/(∂x∂y) = 6x y^2",                                              # in parentheses
    "\\frac{\\partial^2 f}{\\partial x \\partial y}(x,y) = 6x y^2",     # f's arguments
])
def test_a_denominator_in_parentheses_and_f_with_its_arguments_are_read(expected):
    code, out, err = plain("x^2 y^3", expected)
    assert (code, err) == (0, "") and out.startswith("matches ∂²/∂x∂y at 30/30 points")


def test_a_name_holding_d_after_d_is_hinted():
    assert plain("x d", "d^2f/dxdd = 1") == (2, "", error(
        "the expectation's left side, d^2f/dxdd, is a derivative in xdd, which does not "
        "appear in 'x d' (after d, a name holding d needs ∂: write ∂ for each d that "
        "differentiates)"))
    assert plain("x d", "∂²f/∂x∂d = 1")[0] == 0     # ∂²(x d)/∂x∂d = 1


# ----- 5. an expectation infinite whatever the point -----------------------------------------

@pytest.mark.parametrize("argv, label, part", [
    (["x^2", "2x + 1e400"], "d/dx",
     "a number beyond float64's range (about 1.8e308), read as inf"),
    (["x^2 y", "--expect", "x,y=2x + 1/0"], "∂²/∂x∂y", "1/0, which is inf whatever the point"),
    (["x^2", "exp(1000) x"], "d/dx", "exp(1000), which is inf whatever the point"),
])
def test_a_constant_infinity_in_the_expectation_is_said_without_a_domain(argv, label, part):
    code, out, err = plain(*argv)
    message = (f"the expected {label} is not finite at any of the 480 random points: it "
               f"holds {part}, so no domain can help")
    assert (code, out) == (2, "") and err.endswith(error(message))
    assert "--domain" not in err


def test_the_expectations_reading_is_warned_before_the_error():
    code, out, err = plain("x^2", "2x + 1e400", "--at", "x=1")
    assert (code, out, err) == (2, "", (
        "adcli: warning: 1e400 is beyond the largest float64 number (about 1.8e308): read "
        "as inf\n" + error("the expected d/dx is not finite at any of the 1 point given: it "
                           "holds a number beyond float64's range (about 1.8e308), read as "
                           "inf, so no domain can help")))


def test_too_few_finite_points_says_which_is_not_finite():
    # sqrt(-x^2 - 1): -x^2 - 1 < 0 for every x, so f is nan at all 480 points
    assert plain("sqrt(-x^2-1)", "x") == (2, "", error(
        "only 0 of 480 random points have f, its derivative and the expectation all finite "
        "(and not 0 by underflow): f is not at 480 of them; adcli found no domain where "
        "they are, trying magnitudes 1e-8 to 1e8 of either sign: give points with --at, "
        "--grid or --points where they are"))


# ----- 6. names run together in F -------------------------------------------------------------

@pytest.mark.parametrize("f, expect, message", [
    ("2xy + y^2", "x=2y", "'x' does not appear in '2xy + y^2': 'xy' is one name; for x "
                          "times y write x*y"),
    ("e^{xy}", "x=y e^{xy}", "'x' does not appear in 'e^{xy}': 'xy' is one name; for x "
                             "times y write x*y"),
    ("2xy + y^2", "y=2x+2y", "the expected ∂/∂y uses x, which does not appear in "
                             "'2xy + y^2' ('xy' is one name; for x times y write x*y)"),
])
def test_names_run_together_in_f_are_hinted_the_right_way(f, expect, message):
    assert plain(f, "--expect", expect) == (2, "", error(message))


# ----- 7. a mixed --expect beside EXPECTED ---------------------------------------------------

def test_expected_beside_a_mixed_expect_says_either_not_both():
    assert plain("x^2 y^3", "6x y^2", "--expect", "x,y=6x y^2") == (2, "", error(
        "give the expected derivative either as one expression or by name "
        "(expect=/--expect), not both"))


def test_an_order_of_one_asks_for_one_name():
    assert plain("x^2 y^3", "--expect", "x,y=6x y^2", "--order", "1") == (2, "", error(
        "--expect x,y= names a derivative of order 2, one per name, and the order given is "
        "1: leave out --order (order= in the API), or give 1 name"))


# ----- 8. --wrt beside --expect ---------------------------------------------------------------

@pytest.mark.parametrize("expect, wrt, message", [
    ("x=2x y^3", "q", "'q' does not appear in 'x^2 y^3'"),
    ("x,y=6x y^2", "z", "'z' does not appear in 'x^2 y^3'"),
    ("x=2x y^3", "y", "--wrt y (wrt= in the API) beside --expect: --expect already names "
                      "the variables, x: leave out --wrt"),
    ("x,y=6x y^2", "x", "--wrt x (wrt= in the API) beside --expect: --expect already names "
                        "the variables, x and y: leave out --wrt"),
])
def test_a_wrt_beside_expect_that_disagrees_is_an_error(expect, wrt, message):
    assert plain("x^2 y^3", "--expect", expect, "--wrt", wrt) == (2, "", error(message))


def test_the_api_refuses_a_wrong_wrt_beside_expect():
    with pytest.raises(adcli.AdcliError, match="^'q' does not appear in 'x\\^2\\*y\\^3'$"):
        adcli.check("x^2*y^3", expect={"x": "2*x*y^3"}, wrt="q")
    with pytest.raises(adcli.AdcliError, match="--expect already names the variables, x:"):
        adcli.check("x^2*y^3", expect={"x": "2*x*y^3"}, wrt="y")
    # the same names are no contradiction: ∂(x^2 y^3)/∂x = 2x y^3
    assert adcli.check("x^2*y^3", expect={"x": "2*x*y^3"}, wrt="x").verdict == "matches"


# ----- 9. user text quoted as typed -----------------------------------------------------------

def test_latex_in_a_message_keeps_single_backslashes():
    assert plain("\\sin(\\theta \\phi)", "cos(θ)") == (2, "", error(
        "one expected derivative needs one variable and '\\sin(\\theta \\phi)' has θ and φ: "
        "name it with --wrt, fix the others with --at, or give partials by name with "
        "--expect NAME=..."))
