"""The API, session 24: Variable's operators without adcli.functions imported first; a
keyword that is another method's parameter; results that share no memory with the values
given; errors that survive pickle and copy; shapes that do not broadcast; wrt as a set;
True inside a list; a constant expression that underflows; Result's equality."""
import concurrent.futures
import copy
import multiprocessing
import pickle
import subprocess
import sys
import warnings

import mpmath
import numpy as np
import pytest

import adcli
from adcli.errors import AdcliError, ExpressionError, NonFiniteError, PointsError, ValuesError


def said(call):
    """(result, the AdcliWarnings' messages) of ``call()``; any other warning fails."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    others = [w for w in caught if not issubclass(w.category, adcli.AdcliWarning)]
    assert not others, others
    return result, [str(w.message) for w in caught]


# ----- 1. Variable's operators in a fresh interpreter -----------------------------------

CUBE = """
import sys
import adcli
assert "numpy" not in sys.modules and "adcli.functions" not in sys.modules
x = adcli.Variable(3.0)
print(float((x * x).data), float((2 - x).data), float((-x).data), float((x ** 2 / x).data))
class Cube(adcli.Function):
    def forward(self, x):
        return x ** 3
    def backward(self, gy):
        (x,) = self.inputs
        return gy * 3 * x ** 2
x = adcli.Variable(3.0)
y = Cube()(x)
y.backward(create_graph=True)
gx = x.grad
x.clear_grad()
gx.backward()
print(float(y.data), float(gx.data), float(x.grad.data))
"""


def test_variable_operators_work_after_import_adcli_alone():
    done = subprocess.run([sys.executable, "-c", CUBE], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.split("\n")[:2]
    assert first.split() == ["9.0", "-1.0", "-3.0", "3.0"]   # x^2, 2-x, -x, x^2/x at 3
    assert second.split() == ["27.0", "27.0", "18.0"]         # x^3, 3x^2, 6x at 3


def test_from_adcli_import_function_installs_them_too():
    done = subprocess.run([sys.executable, "-c", "from adcli import Function, Variable\n"
                           "print(float((Variable(2.0) * Variable(5.0)).data))"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "10.0"


# ----- 2. keywords that are other methods' parameters -----------------------------------

@pytest.mark.parametrize("call, stray", [
    (lambda f: f.value(order=1, x=3), "order"),
    (lambda f: f.hessian(order=2, x=3), "order"),
    (lambda f: f.grad(order=0, x=3), "order"),
    (lambda f: f.value_and_grad(order=1, x=3), "order"),
    (lambda f: f.value(wrt="y", x=3), "wrt"),
    (lambda f: f.derivative(wrt="x", x=3), "wrt"),
    (lambda f: f.nth_derivative(wrt="x", x=3), "wrt"),
    (lambda f: f.grad(name="x", x=3), "name"),
])
def test_a_stray_parameter_keyword_is_an_error_naming_it(call, stray):
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # (an error, not a warning first)
        with pytest.raises(ValuesError, match=rf"takes no {stray}=, and the expression has "
                                              rf"no variable '{stray}'"):
            call(adcli.parse("x^2"))


def test_a_variable_named_order_gets_its_value_from_every_method():
    f = adcli.parse("order^2")
    assert float(f.value(order=3)) == 9.0
    assert {k: float(v) for k, v in f.grad(order=1).items()} == {"order": 2.0}   # 2*order
    assert f.hessian(order=1.5).tolist() == [[2.0]]
    value, grad = f.value_and_grad(order=3)
    assert (float(value), float(grad["order"])) == (9.0, 6.0)


def test_a_variable_named_wrt_gets_its_value():
    f = adcli.parse("wrt*x")
    assert float(f.value(wrt=2, x=3)) == 6.0
    assert float(f.derivative("x", wrt=2, x=3)) == 2.0    # d/dx wrt*x = wrt


# ----- 3. results share no memory with the values given ---------------------------------

CALLS = {
    "nth_derivative": lambda f, x: f.nth_derivative("x", 1, x=x).value,
    "derivatives0": lambda f, x: f.derivatives(order=0, x=x).value,
    "derivatives1": lambda f, x: f.derivatives(order=1, x=x).value,
    "derivatives2": lambda f, x: f.derivatives(order=2, x=x).value,
    "value": lambda f, x: f.value(x=x),
}


@pytest.mark.parametrize("text", ["x", "+x", "(x)"])
@pytest.mark.parametrize("how", sorted(CALLS))
def test_a_result_does_not_change_with_the_values_given(text, how):
    x = np.array([1.0, 2.0])
    value = CALLS[how](adcli.parse(text), x)
    x[:] = 100.0
    assert value.tolist() == [1.0, 2.0]
    value[0] = 7.0          # its own: writable, and x unchanged by it
    assert x.tolist() == [100.0, 100.0]


def test_a_gradient_is_writable_and_its_own():
    x = np.array([1.0, 2.0])
    result = adcli.parse("x").derivatives(order=2, x=x)
    result.gradient["x"][0] = 5.0
    result.hessian[0, 0, 0] = 5.0
    assert result.gradient["x"].tolist() == [5.0, 1.0] and x.tolist() == [1.0, 2.0]


# ----- 4. errors through pickle and copy ------------------------------------------------

def _expression_error():
    try:
        adcli.parse("x^")
    except ExpressionError as error:
        return error
    raise AssertionError("x^ was read")


ROUND_TRIPS = {"pickle": lambda e: pickle.loads(pickle.dumps(e)), "copy": copy.copy,
               "deepcopy": copy.deepcopy}


@pytest.mark.parametrize("how", sorted(ROUND_TRIPS))
def test_an_expression_error_round_trips_with_its_attributes(how):
    error = _expression_error()
    again = ROUND_TRIPS[how](error)
    assert type(again) is ExpressionError
    assert (again.message, again.text, again.position) == (error.message, "x^", 2)
    assert str(again) == str(error) and again.render(40) == error.render(40)
    assert again.exit_code == 2


@pytest.mark.parametrize("how", sorted(ROUND_TRIPS))
@pytest.mark.parametrize("cls", [AdcliError, ValuesError, PointsError, NonFiniteError])
def test_every_error_round_trips(how, cls):
    error = cls("no value given for x")
    error.note = 3
    again = ROUND_TRIPS[how](error)
    assert type(again) is cls and str(again) == "no value given for x"
    assert again.note == 3 and again.exit_code == error.exit_code


def _parse_in_worker(text):
    return adcli.parse(text).text


def test_an_expression_error_comes_back_from_a_process_pool():
    context = multiprocessing.get_context("fork")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as pool:
        bad = pool.submit(_parse_in_worker, "x^")
        error = bad.exception(timeout=120)
        good = pool.submit(_parse_in_worker, "x^2")   # the pool is not broken by it
        assert good.result(timeout=120) == "x^2"
    assert type(error) is ExpressionError and error.position == 2


# ----- 5. shapes that do not broadcast -------------------------------------------------

def test_a_jacobian_of_values_that_do_not_broadcast_names_their_shapes():
    with pytest.raises(ValuesError, match=r"^the values' shapes do not broadcast together "
                                          r"\(x: \(3,\), y: \(2,\)\)$"):
        adcli.jacobian(["x", "y"], x=np.ones(3), y=np.ones(2))


def test_the_values_error_names_each_variable_with_its_shape():
    with pytest.raises(ValuesError, match=r"\(x: \(3,\), y: \(2,\)\)$"):
        adcli.parse("x*y*z").value(x=np.ones(3), y=np.ones(2), z=1.0)


def test_a_jacobian_of_values_that_broadcast_still_works():
    # rows (1, 0) and (0, 1) at each of 3 points
    jac = adcli.jacobian(["x", "y"], x=np.ones(3), y=2.0)
    assert jac.shape == (3, 2, 2) and jac[1].tolist() == [[1.0, 0.0], [0.0, 1.0]]


# ----- 6. wrt as a set ----------------------------------------------------------------

@pytest.mark.parametrize("wrt", [{"x", "y"}, frozenset({"x", "y"}), {"x"}])
def test_wrt_as_a_set_is_refused(wrt):
    f = adcli.parse("x^2*y + y^3")
    for call in (lambda: f.hessian(wrt, x=1, y=2), lambda: f.grad(wrt, x=1, y=2),
                 lambda: adcli.jacobian([f], wrt, x=1, y=2)):
        with pytest.raises(ValuesError, match=r"^wrt= takes variable names in order, as a "
                                              r"list or 'x,y', not a set"):
            call()


def test_wrt_as_a_dicts_keys_keeps_their_order():
    f = adcli.parse("x^2*y + y^3")   # Hessian [[2y, 2x], [2x, 6y]] in (x, y) order
    assert f.hessian({"y": 0, "x": 0}.keys(), x=1, y=2).tolist() == [[12.0, 2.0], [2.0, 4.0]]


# ----- 7. True and False inside a list ------------------------------------------------

@pytest.mark.parametrize("value", [
    [1.5, True], [1.5, np.True_], (2.0, False), [[1.0], [True]], [[1.0, [2.0]], [3.0, [False]]],
    np.array([1.5, True], dtype=object), np.array([1.5, np.True_], dtype=object)])
def test_true_among_numbers_is_refused(value):
    with pytest.raises(ValuesError, match=r"^x = .*: True and False are not numbers$"):
        adcli.parse("x^2").grad(x=value)


def test_lists_of_numbers_are_still_read():
    assert adcli.parse("x^2").grad(x=[1.5, 2])["x"].tolist() == [3.0, 4.0]     # 2x
    assert adcli.parse("x^2").grad(x=[[1], [2.5]])["x"].tolist() == [[2.0], [5.0]]


# ----- 8. a constant expression that underflows ----------------------------------------

@pytest.mark.parametrize("text", ["exp(-800)", "2^-1080", "1e-200*1e-200", "1/10^400"])
def test_an_underflowing_constant_expression_is_said(text):
    value, messages = said(lambda: adcli.parse("x").value(x=text))
    assert float(value) == 0.0
    assert messages == [f"x: {text} went out of float64's range on the way, so it may be a "
                        "number too small for float64 (below about 4.9e-324): read as 0"]


@pytest.mark.parametrize("text", ["1-1", "sin(0)", "0*pi", "0"])
def test_a_constant_expression_that_is_0_is_not_said(text):
    value, messages = said(lambda: adcli.parse("x").value(x=text))
    assert float(value) == 0.0 and messages == []


def test_a_small_constant_expression_inside_the_range_is_its_value():
    value, messages = said(lambda: adcli.parse("x").value(x="exp(-700)"))
    assert messages == []
    assert float(value) == pytest.approx(float(mpmath.exp(-700)), rel=1e-14)


# ----- 9. small things ----------------------------------------------------------------

def test_a_result_is_equal_only_to_itself():
    result = adcli.parse("x^2").derivatives(x=np.array([1.0, 2.0]))
    assert result == result
    assert (result == copy.deepcopy(result)) is False
    assert result != copy.copy(result)
    assert len({result, result}) == 1


def test_an_expression_parsed_from_a_numpy_str_keeps_a_str():
    f = adcli.parse(np.str_("x^2"))
    assert type(f.text) is str and repr(f) == "Expression('x^2')"
    assert float(f.derivative(x=3)) == 6.0


def test_the_derivative_of_a_constant_says_it_has_no_variables():
    with pytest.raises(ValuesError, match=r"^the expression has no variables, so there is "
                                          r"nothing to differentiate it by$"):
        adcli.parse("2").derivative()


def test_parsed_is_read_only():
    f = adcli.parse("x^2+1")
    with pytest.raises(AttributeError):
        f.parsed = "y"
    assert f.parsed == "(x^2) + 1"   # (every compound operand in parentheses)
