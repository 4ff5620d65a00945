"""The API, session 28: jacobian refuses a set; constants given values or differentiated
by are errors, as in the CLI; a definition's cautions are the expression's; a variable
named self; at= given a number, and a name such as sinx without a value, say what to
write; acoth, asech and acsch are said to be missing; hints name the API's parameters."""
import math
import warnings

import mpmath
import pytest

import adcli
from adcli.errors import ExpressionError, ValuesError
from conftest import run_cli


def said(call):
    """(result, the AdcliWarnings' messages) of ``call()``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    return result, [str(w.message) for w in caught if issubclass(w.category, adcli.AdcliWarning)]


# ----- 1. jacobian's expressions in order ------------------------------------------------

@pytest.mark.parametrize("kind", [set, frozenset])
def test_jacobian_refuses_a_set_of_expressions(kind):
    with pytest.raises(ValuesError, match="not a set .*would change from run to run"):
        adcli.jacobian(kind({"x*y", "x+2*y", "exp(x)"}), x=1, y=2)


def test_jacobian_keeps_a_lists_order():
    # rows: (y, x), (1, 2), (e^x, 0) at x = 1, y = 2
    rows = adcli.jacobian(["x*y", "x+2*y", "exp(x)"], x=1, y=2).tolist()
    assert rows == [[2.0, 1.0], [1.0, 2.0], [math.e, 0.0]]


# ----- 2. constants are not variables -----------------------------------------------------

@pytest.mark.parametrize("text, given", [("pi*x", {"pi": 3}), ("pi*x", {"π": 3}),
                                         ("e^x", {"e": 2})])
def test_a_constant_used_cannot_be_given_a_value(text, given):
    name = next(iter(given))
    with pytest.raises(ValuesError, match=f"^{name} is a constant and cannot be given a value$"):
        adcli.parse(text).value(at={"x": 1, **given})
    with pytest.raises(ValuesError, match=f"^{name} is a constant"):
        adcli.parse(text).grad(at={"x": 1, **given})


def test_a_constant_given_a_value_is_the_clis_error():
    with pytest.raises(ValuesError) as raised:
        adcli.parse("pi*x").value(x=1, pi=3)
    code, _, err = run_cli("eval", "pi*x", "--at", "x=1,pi=3")
    assert code == 2 and err.strip().endswith(str(raised.value))


def test_a_constant_not_used_is_a_records_field():
    # as any name the expression lacks: warned of, dropped; the value is x's, 2
    value, ours = said(lambda: adcli.parse("x").value(x=2, pi=3))
    assert float(value) == 2.0
    assert ours == ["a value was given for 'pi', which does not appear in the expression"]


@pytest.mark.parametrize("call, message", [
    (lambda f: f.grad(wrt="pi", x=1), "wrt='pi': pi is a constant, not a variable"),
    (lambda f: f.hessian(wrt=["x", "pi"], x=1), "wrt=['x', 'pi']: pi is a constant"),
    (lambda f: f.derivative("pi", x=1), "name='pi': pi is a constant, not a variable"),
    (lambda f: f.nth_derivative("e", 2, x=1), "name='e': e is a constant, not a variable"),
    (lambda f: adcli.jacobian([f], wrt="x,pi", x=1), "wrt='x,pi': pi is a constant")])
def test_a_constant_is_not_differentiated_by(call, message):
    with pytest.raises(ValuesError) as raised:
        call(adcli.parse("pi*x"))
    assert str(raised.value).startswith(message)


def test_jacobian_refuses_a_value_for_a_constant_one_expression_uses():
    with pytest.raises(ValuesError, match="^e is a constant and cannot be given a value$"):
        adcli.jacobian(["x", "e*x"], x=1, e=3)


# ----- 3. a definition's cautions ---------------------------------------------------------

@pytest.mark.parametrize("text", ["x^1/2", "e^2x", "1e999*x", "1/2 x"])
def test_a_definitions_cautions_are_the_expressions(text):
    alone = adcli.parse(text).cautions
    assert alone    # (each of them is read otherwise than it is often meant)
    assert adcli.parse("G", {"G": text}).cautions == \
        [f"{c} (in the definition of G)" for c in alone]


def test_a_caution_names_the_definition_it_is_in():
    with pytest.warns(adcli.AdcliWarning, match="H is not used"):
        cautions = adcli.parse("2*G + y", {"G": "F", "F": "x^1/2", "H": "y"}).cautions
    assert cautions == [f"{adcli.parse('x^1/2').cautions[0]} (in the definition of F)"]


def test_the_cli_warns_of_a_definitions_caution():
    code, out, err = run_cli("eval", "G", "--let", "G=1/2 x", "--at", "x=4")
    assert code == 0 and "0.125" in out     # 1/(2*4)
    assert "warning: 1/2 x: a product written side by side binds tighter than '/'" in err
    assert "(in the definition of G)" in err


# ----- 4. a variable named self -----------------------------------------------------------

def test_a_variable_named_self_takes_its_value_as_a_keyword():
    f = adcli.parse("self^2")     # f' = 2 self, f'' = 2, at self = 3
    assert float(f.value(self=3)) == 9.0
    assert float(f.grad(self=3)["self"]) == 6.0
    value, grad = f.value_and_grad(self=3)
    assert (float(value), float(grad["self"])) == (9.0, 6.0)
    assert f.hessian(self=3).tolist() == [[2.0]]
    assert float(f.derivative(self=3)) == 6.0
    assert float(f.derivatives(self=3, order=2).hessian[0, 0]) == 2.0
    assert float(f.nth_derivative(order=2, self=3).derivative) == 2.0


def test_jacobians_keywords_are_variables_too():
    # d(self*expressions): (expressions, self) at (2, 5); expressions= is jacobian's own
    # parameter, given by name as before today, so that variable's value goes in at=
    assert adcli.jacobian(["self*expressions"], self=2, at={"expressions": 5}).tolist() == \
        [[5.0, 2.0]]
    assert adcli.jacobian(expressions=["x", "x*y"], x=1.0, y=2.0).tolist() == \
        [[1.0, 0.0], [2.0, 1.0]]


# ----- 5. values given without names ------------------------------------------------------

def test_a_number_for_at_says_how_to_name_it():
    with pytest.raises(ValuesError) as raised:
        adcli.parse("x^2").value(3)
    message = str(raised.value)
    assert message.startswith("value() takes the values by name")
    assert message.endswith("not int: x=3 or at={'x': 3}")
    assert "'at'" not in message


def test_a_list_for_at_names_every_variable():
    with pytest.raises(ValuesError, match=r"derivatives\(\) .*not list: x=\.\.\., y=\.\.\. or "
                                          r"at=\{'x': \.\.\., 'y': \.\.\.\}$"):
        adcli.parse("x*y").derivatives([1, 2])


# ----- 6. a name such as sinx without a value --------------------------------------------

def test_a_function_run_into_its_argument_is_said_as_the_cli_says_it():
    hint = "('sinx' is one name; for the function, write sin x)"
    with pytest.raises(ValuesError) as raised, \
            pytest.warns(adcli.AdcliWarning, match="'x', which does not appear"):
        adcli.parse("sinx").value(x=2)
    assert str(raised.value) == f"no value given for sinx {hint}"
    code, _, err = run_cli("eval", "sinx", "--at", "x=2")
    assert code == 2 and hint in err


def test_jacobian_says_it_too():
    with pytest.raises(ValuesError, match=r"^no value given for cosy \('cosy' is one name; "
                                          r"for the function, write cos y\)$"), \
            pytest.warns(adcli.AdcliWarning, match="'y', which does not appear"):
        adcli.jacobian(["cosy", "x"], x=2, y=1)


# ----- 7. inverses adcli lacks (with /tmp/s28/api_other_files.diff's reader.py) ----------

@pytest.mark.parametrize("name, instead, truth", [
    ("acoth", "atanh", mpmath.acoth), ("asech", "acosh", mpmath.asech),
    ("acsch", "asinh", mpmath.acsch)])
def test_a_missing_inverse_says_what_to_write(name, instead, truth):
    with pytest.raises(ExpressionError) as raised:
        adcli.parse(f"{name}(x)")
    assert raised.value.message == \
        f"unknown function '{name}': adcli has none; write {instead}(1/u) for {name}(u)"
    # what it says to write is the function: at x = 0.5 (asech's domain is (0, 1])
    x = 2.0 if name == "acoth" else 0.5
    shown = float(adcli.parse(f"{instead}(1/x)").value(x=x))
    assert shown == pytest.approx(float(truth(x)), rel=1e-15)


def test_the_cli_says_a_missing_inverse_without_a_bracket():
    code, _, err = run_cli("eval", "acoth x", "--at", "x=2")
    assert code == 2
    assert "(adcli has no acoth function: write atanh(1/u) for acoth(u))" in err
    assert "acot h" not in err


# ----- 8. hints in the API's words --------------------------------------------------------

def test_derivative_of_several_variables_names_its_parameter():
    with pytest.raises(ValuesError, match=r"say which one, as name='x'$"):
        adcli.parse("x*y").derivative(order=2, x=1, y=2)


def test_derivatives_beyond_the_hessian_points_to_one_variables():
    with pytest.raises(ValuesError, match=r"from 0 to 2, not 3; for a higher derivative in "
                                          r"one variable, use derivative\(name, order\)"):
        adcli.parse("x*y").derivatives(order=3, x=1, y=2)
    with pytest.raises(ValuesError, match=r"from 0 to 2, not -1$"):  # (no hint below 0)
        adcli.parse("x*y").derivatives(order=-1, x=1, y=2)
