"""The API says what the CLI says (nineteenth session): its bare-number methods warned only
of the witnesses' kinds, never of a nan, an inf or a kink; a definition's name was taken
for a variable (its derivative "0", its value a warning) where the CLI refuses it."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import adcli
from conftest import run_cli


def said(call) -> tuple[object, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        returned = call()
    return returned, [str(w.message) for w in caught if w.category is adcli.AdcliWarning]


def test_value_and_grad_warns_of_a_kink_and_a_nan_as_the_cli_does():
    f = adcli.parse("abs(x)+sqrt(y)")
    (value, grad), lines = said(lambda: f.value_and_grad(x=np.array([0., 1.]),
                                                         y=np.array([4., -1.])))
    # abs(0) + sqrt(4) = 2; d/dy sqrt(y) = 1/(2 sqrt(y)) = 0.25 at 4
    assert value[0] == 2.0 and np.isnan(value[1]) and grad["y"][0] == 0.25
    code, _, err = run_cli("grad", "abs(x)+sqrt(y)", "--grid", "x=0:1:2", "--at", "y=4")
    assert lines == [
        "abs is not differentiable at 1 of 2 points (an argument of 0, a corner): its "
        "derivative there is a convention, not a fact",
        "sqrt gave nan or inf at 1 of 2 points (a negative argument)"]
    assert code == 0 and lines[0] in err


def test_value_says_no_kink_of_a_derivative_it_does_not_return():
    value, lines = said(lambda: adcli.parse("abs(x)").value(x=0.0))
    assert float(value) == 0.0 and lines == []


def test_jacobian_names_the_expression_a_nan_is_in():
    jac, lines = said(lambda: adcli.jacobian(["x*y", "log(x)"], x=-1.0, y=1.0))
    assert jac.tolist() == [[1.0, -1.0], [-1.0, 0.0]]     # d/dx log(x) = 1/x = -1
    assert "log in f2 gave nan or inf at 1 of 1 point (a negative argument gives nan, 0 "\
           "gives -inf)" in lines


def test_a_nan_given_to_the_api_is_no_warning_of_its_own():
    """The CLI names a variable given nan (it has looked at its results' finiteness
    anyway); the API does not pay that pass over every input: a nan in is a nan out."""
    grad, lines = said(lambda: adcli.parse("x^2").grad(x=float("nan")))
    assert np.isnan(grad["x"]) and lines == []


_BY_F = ("'F' is a definition, so it is not a variable and cannot be differentiated by: "
         "differentiate by the variables it is made of (x), or rename the definition")


@pytest.mark.parametrize("call, message", [
    (lambda e: e.grad(x=2, wrt="x,F"), "wrt='x,F': " + _BY_F),
    (lambda e: e.grad(x=2, F=100),
     "'F' is a definition, so it is not a variable and cannot be given a value: leave it "
     "out of the values, or rename the definition"),
    (lambda e: e.nth_derivative("F", 2, x=1), "name='F': " + _BY_F),
])
def test_a_definitions_name_is_no_variable_in_the_api_either(call, message):
    """grad(wrt='x,F') said F "does not appear in the expression, so its derivative is 0"
    (it is x = 2 here, were F a variable)."""
    e = adcli.parse("x*F", definitions={"F": "x^2"})
    with pytest.raises(adcli.AdcliError) as raised:
        call(e)
    assert str(raised.value) == message
    assert float(e.grad(x=2)["x"]) == 12.0       # d/dx x^3 = 3x^2


@pytest.mark.parametrize("data, fmt, holder", [
    ("x,F\n2,100\n", "csv", "the points file has a column 'F'"),
    ('{"x": 2, "F": 1}\n', "jsonl", "the points file has a key 'F'"),
])
def test_a_points_column_named_as_a_definition_is_said_as_a_column(tmp_path, data, fmt,
                                                                    holder):
    points = tmp_path / f"p.{fmt}"
    points.write_text(data)
    code, out, err = run_cli("grad", "x*F", "--let", "F=x^2", "--points", str(points),
                             "--points-format", fmt)
    assert (code, out) == (2, "")
    assert err == (f"adcli: error: {holder}, and 'F' is defined by --let, so it is not a "
                   "variable: rename it (it then passes through), or the definition\n")


def test_jacobian_of_one_expression_numbers_it_as_of_several():
    """jacobian of one expression headed its columns f, df/dx (the README: f1, df1/dx)."""
    code, out, _ = run_cli("jacobian", "x*y", "--at", "x=1,y=2", "--format", "csv")
    assert (code, out) == (0, "x,y,f1,df1/dx,df1/dy\n1.0,2.0,2.0,2.0,1.0\n")
