"""Errors, session 26: differentiating by a --let definition (a cut-off sentence that
named no fix); the bar of "evaluated at" (x^2 |_{x=1}, refused as a subscript to write
as x_{x=1}); values of more than 32 dimensions (numpy's RuntimeError escaped the API)."""
import numpy as np
import pytest

import adcli
from adcli.errors import ExpressionError, ValuesError
from conftest import run_cli


# ----- a definition is not differentiated by ------------------------------------------

@pytest.mark.parametrize("command", ["trace", "grad", "hessian"])
def test_wrt_a_definition_says_so_and_names_its_variables(command):
    code, out, err = run_cli(command, "F^2", "--let", "F=x+y", "--at", "x=1,y=2",
                             "--wrt", "F")
    assert (code, out) == (2, "")
    assert err == ("adcli: error: --wrt F: 'F' is defined by --let, so it is not a variable "
                   "and cannot be differentiated by: differentiate by the variables it is "
                   "made of (x and y), or rename the definition\n")


def test_wrt_a_definition_used_through_another_names_the_variables_below_it():
    code, _, err = run_cli("grad", "x*F", "--let", "F=G+1", "--let", "G=y^2",
                           "--at", "x=1,y=2", "--wrt", "x,G")
    assert code == 2
    assert err == ("adcli: error: --wrt G: 'G' is defined by --let, so it is not a variable "
                   "and cannot be differentiated by: differentiate by the variables it is "
                   "made of (y), or rename the definition\n")


def test_wrt_an_unused_definition_names_no_variables():
    code, _, err = run_cli("grad", "x^2", "--let", "F=y", "--at", "x=1", "--wrt", "F")
    assert code == 2
    assert err.splitlines()[-1] == (
        "adcli: error: --wrt F: 'F' is defined by --let, so it is not a variable and cannot "
        "be differentiated by: differentiate by the variables it is made of, or rename the "
        "definition")


_API_WRT = ("'F' is a definition, so it is not a variable and cannot be differentiated by: "
            "differentiate by the variables it is made of (x and y), or rename the definition")


@pytest.mark.parametrize("call, given", [
    (lambda e: e.grad(x=2, y=1, wrt="x,F"), "wrt='x,F'"),
    (lambda e: e.hessian(x=2, y=1, wrt=["F"]), "wrt=['F']"),
    (lambda e: e.derivatives(at={"x": 2, "y": 1}, wrt=("F",)), "wrt=('F',)"),
    (lambda e: e.nth_derivative("F", 2, x=1, y=1), "name='F'"),
    (lambda e: e.derivative("F", x=1, y=1), "name='F'"),
])
def test_the_api_says_wrt_and_the_fix(call, given):
    e = adcli.parse("x*F", definitions={"F": "x^2+y"})
    with pytest.raises(ValuesError) as raised:
        call(e)
    assert str(raised.value) == f"{given}: {_API_WRT}"


@pytest.mark.parametrize("values", [{"x": 2, "y": 1, "F": 100}, {"at": {"x": 2, "y": 1, "F": 1}}])
def test_the_api_says_a_definition_is_given_no_value(values):
    e = adcli.parse("x*F", definitions={"F": "x^2+y"})
    with pytest.raises(ValuesError) as raised:
        e.value(**values)
    assert str(raised.value) == ("'F' is a definition, so it is not a variable and cannot be "
                                 "given a value: leave it out of the values, or rename the "
                                 "definition")
    assert float(e.grad(x=2, y=1)["x"]) == 13.0   # d/dx (x^3 + xy) = 3x^2 + y


# ----- the bar of "evaluated at" ------------------------------------------------------

@pytest.mark.parametrize("text, position, written, point", [
    ("x^2 sin x |_{x=1}", 10, "|_{x=1}", "x=1"),
    ("x^2 \\right|_{x=1}", 4, "\\right|_{x=1}", "x=1"),
    ("x^2 \\Big|_{x=1}", 4, "\\Big|_{x=1}", "x=1"),
    ("x^2 \\bigg|_{x=1}", 4, "\\bigg|_{x=1}", "x=1"),
    ("x^2 \\Bigr\\vert_{x=1}", 4, "\\Bigr\\vert_{x=1}", "x=1"),
    ("x^2 y |_{x=1,y=2}", 6, "|_{x=1,y=2}", "x=1,y=2"),
    ("x^2 y \\Big|_{ x = 1, y=2 }  ", 6, "\\Big|_{ x = 1, y=2 }", "x=1,y=2"),
    ("$x^2 |_{x=1}$", 5, "|_{x=1}", "x=1"),
    # after a bar closing |x|, the subscript alone is what is not read
    ("|x|_{x=1}", 3, "_{x=1}", "x=1"),
    ("\\left|x\\right|_{x=1}", 14, "_{x=1}", "x=1"),
    # ... closing \lvert x or \vert x (the regression tester's: the bar was named, and
    # leaving it out left \lvert x unclosed)
    ("\\lvert x \\rvert_{x=1}", 15, "_{x=1}", "x=1"),
    ("\\vert x \\vert_{x=1}", 13, "_{x=1}", "x=1"),
    ("\\left\\lvert x \\right\\rvert_{x=1}", 26, "_{x=1}", "x=1"),
])
def test_an_evaluation_bar_says_to_give_the_point_with_at(text, position, written, point):
    with pytest.raises(ExpressionError) as raised:
        adcli.parse(text)
    shown = point.replace(",", ", ")
    assert raised.value.message == (f"'{written}' (evaluated at {shown}) is not read: leave "
                                    f"it out and give the point with --at {point}")
    assert raised.value.position == position


def test_an_evaluation_bar_after_left_dot_names_it_too():
    code, out, err = run_cli("eval", "\\left. x^2 \\right|_{x=1}")
    assert (code, out) == (2, "")
    assert err == ("adcli: error: '\\right|_{x=1}' (evaluated at x=1) is not read: leave it "
                   "out (and its \\left.) and give the point with --at x=1 (column 12)\n"
                   "  \\left. x^2 \\right|_{x=1}\n"
                   "             ^\n")


def test_an_evaluation_bar_in_the_cli_is_one_line_and_a_caret():
    code, _, err = run_cli("eval", "x^2 sin x |_{x=1}")
    assert code == 2
    assert err == ("adcli: error: '|_{x=1}' (evaluated at x=1) is not read: leave it out and "
                   "give the point with --at x=1 (column 11)\n"
                   "  x^2 sin x |_{x=1}\n"
                   "            ^\n")


def test_bars_and_subscripts_not_at_an_evaluation_are_read_as_before():
    assert float(adcli.parse("|x - 2|").value(x=0.5)) == 1.5
    assert float(adcli.parse("x_{1} + |x|").value(x=-3.0, x_1=4.0)) == 7.0


# ----- more dimensions than numpy broadcasts ------------------------------------------

_TOO_MANY = ("x has 33 dimensions, more than the 32 numpy broadcasts: flatten it (np.ravel) "
             "and reshape the results back")


@pytest.mark.parametrize("value", [
    np.zeros((1,) * 33),                 # float64, the fast path
    np.zeros((1,) * 33, dtype=np.int32),
    np.zeros((1,) * 33).tolist(),
])
@pytest.mark.parametrize("call", [
    lambda v: adcli.parse("x").value(x=v),
    lambda v: adcli.parse("x*y").grad(at={"x": v}, y=1.0),
    lambda v: adcli.jacobian(["x", "x*y"], x=v, y=1.0),
])
def test_more_than_32_dimensions_is_a_values_error(value, call):
    with pytest.raises(ValuesError) as raised:
        call(value)
    assert str(raised.value) == _TOO_MANY


def test_32_dimensions_are_computed():
    x = np.full((1,) * 31 + (2,), 3.0)
    x[..., 1] = -0.5
    g = adcli.parse("x^2 y").grad(x=x, y=2.0)
    assert g["x"].shape == (1,) * 31 + (2,)
    assert g["x"].ravel().tolist() == [12.0, -2.0]       # 2xy
    assert g["y"].ravel().tolist() == [9.0, 0.25]        # x^2


def test_wrt_a_constant_definition_says_to_give_it_as_a_value():
    # (the regression tester's: "differentiate by the variables it is made of" for u = 2,
    # made of none)
    code, out, err = run_cli("grad", "u*x", "--let", "u=2", "--wrt", "u", "--at", "x=1")
    assert (code, out) == (2, "")
    assert err == ("adcli: error: --wrt u: 'u' is defined by --let, so it is not a variable "
                   "and cannot be differentiated by: it holds no variable: to differentiate "
                   "by u, give its value with --at, not --let\n")
    e = adcli.parse("u*x", definitions={"u": "2"})
    with pytest.raises(ValuesError) as raised:
        e.grad(x=1, wrt="u")
    assert str(raised.value) == (
        "wrt='u': 'u' is a definition, so it is not a variable and cannot be differentiated "
        "by: it holds no variable: to differentiate by u, give its value as a keyword, not a "
        "definition")
    assert float(adcli.parse("u*x").grad(x=1, u=2)["u"]) == 1.0   # as advised: d/du ux = x


def test_check_and_jacobian_say_a_definition_is_not_differentiated_by():
    # (check said "'F' does not appear in 'F^2'", jacobian gave 0 with a warning)
    code, out, err = run_cli("check", "F^2", "2*F", "--let", "F=x+y", "--wrt", "F")
    assert (code, out) == (2, "")
    assert err == ("adcli: error: --wrt F: 'F' is defined by --let, so it is not a variable "
                   "and cannot be differentiated by: differentiate by the variables it is "
                   "made of (x and y), or rename the definition\n")
    e = adcli.parse("x*F", definitions={"F": "x^2+y"})
    with pytest.raises(ValuesError) as raised:
        adcli.jacobian([e], wrt="F", x=1, y=2)
    assert str(raised.value) == "wrt='F': " + _API_WRT
    # by its variables it is differentiated: d/dx (x^3 + xy) = 3x^2 + y, d/dy = x
    assert adcli.jacobian([e], wrt="x,y", x=1, y=2).tolist() == [[5.0, 1.0]]


def test_the_errors_the_readme_names_are_adclis_own():
    # (adcli.ExpressionError was an AttributeError: only adcli.errors had it)
    with pytest.raises(adcli.ExpressionError) as raised:
        adcli.parse("sin(x))")
    assert raised.value.position == 6 and isinstance(raised.value, adcli.AdcliError)
    with pytest.raises(adcli.ValuesError):
        adcli.parse("x").value(x="abc")
    assert issubclass(adcli.PointsError, adcli.AdcliError)
