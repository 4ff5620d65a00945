"""The API, session 21: .derivative says its diagnostics as .grad does; numbers beyond
float64's range given as long doubles, Decimals or Fractions are said as 10**400 is;
check takes points as keywords; Expression(text) points to adcli.parse."""
import decimal
import fractions
import math
import warnings

import mpmath
import numpy as np
import pytest

import adcli
from adcli.errors import ValuesError


# (where numpy's long double is float64 itself, 1e400 is inf before adcli sees it)
LONG = pytest.mark.skipif(np.finfo(np.longdouble).maxexp <= 1024,
                          reason="long double is float64 here")


def said(call):
    """(result, the AdcliWarnings' messages, the other warnings) of ``call()``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    ours = [str(w.message) for w in caught if issubclass(w.category, adcli.AdcliWarning)]
    return result, ours, [w for w in caught if not issubclass(w.category, adcli.AdcliWarning)]


# ----- .derivative's diagnostics ------------------------------------------------------

def test_derivative_says_float64_lost_the_first_derivative():
    # f = x^3/(1+x^4) = 1/x - 1/x^5 + ..., so f' = -1/x^2 + ...: -1e-160 at 1e80, where
    # float64's x^4 overflows and the quotient's rule gives 0
    shown, ours, _ = said(lambda: adcli.parse("x^3/(1+x^4)").derivative(order=1, x=1e80))
    assert float(shown) == 0.0
    assert len(ours) == 1
    assert ours[0].startswith("d/dx at 1 of 1 point: an intermediate step overflowed")
    assert "it is -1e-160 where float64 gives 0: the derivative shown is wrong there" in ours[0]


def test_derivative_says_float64_lost_the_second_derivative():
    # f'' = 2/x^3 + ...: 2e-240 at 1e80
    _, ours, _ = said(lambda: adcli.parse("x^3/(1+x^4)").derivative(order=2, x=1e80))
    assert len(ours) == 1 and ours[0].startswith("d2/dx2 at 1 of 1 point")
    assert "it is 2e-240 where float64 gives 0" in ours[0]


def test_derivative_of_order_0_says_the_value_only():
    # the value, 1e-80 (1/x), is what order 0 returns: said as .value says it
    _, ours, _ = said(lambda: adcli.parse("x^3/(1+x^4)").derivative(order=0, x=1e80))
    assert len(ours) == 1 and ours[0].startswith("the value at 1 of 1 point")
    assert "it is 1e-80 where float64 gives 0" in ours[0]


def test_derivative_names_the_function_that_gave_nan():
    shown, ours, _ = said(lambda: adcli.parse("sqrt(x)").derivative(x=-1))
    assert math.isnan(float(shown))
    assert ours == ["sqrt gave nan or inf at 1 of 1 point (a negative argument)"]


def test_derivative_says_a_kink_is_a_convention():
    shown, ours, _ = said(lambda: adcli.parse("abs(x)").derivative(x=np.array([0.0, 2.0])))
    assert shown.tolist() == [0.0, 1.0]   # the convention at 0; d|x|/dx = 1 at 2
    assert ours == ["abs is not differentiable at 1 of 2 points (an argument of 0, a "
                    "corner): its derivative there is a convention, not a fact"]


def test_derivative_of_order_0_says_no_kink():
    # (as .value: no derivative is returned, so no convention is in it)
    shown, ours, _ = said(lambda: adcli.parse("abs(x)").derivative(order=0, x=0.0))
    assert float(shown) == 0.0 and ours == []


def test_derivative_says_rounding_lost_digits_of_a_tenth_derivative():
    with mpmath.workdps(40):
        truth = float(mpmath.diff(lambda t: mpmath.sin(t) / t, mpmath.mpf("0.3"), 10))
    assert truth == pytest.approx(-0.0874699929, abs=1e-10)
    shown, ours, _ = said(lambda: adcli.parse("sin(x)/x").derivative(order=10, x=0.3))
    assert abs(float(shown) - truth) > 1e-6 * abs(truth)   # (so the warning is due)
    assert len(ours) == 1 and ours[0].startswith("d10/dx10 at 1 of 1 point: its steps' "
                                                 "rounding errors grew on the way")
    assert "correct digit" in ours[0]


def test_derivative_says_nothing_where_nothing_went_wrong():
    shown, ours, _ = said(lambda: adcli.parse("sin(x)").derivative(order=3, x=0.5))
    assert float(shown) == pytest.approx(-math.cos(0.5), rel=1e-15) and ours == []


# ----- values beyond float64's range, given as other types of numbers -----------------

@pytest.mark.parametrize("given, read, words", [
    pytest.param(np.longdouble("1e400"), math.inf, "x: 1e+400 is beyond the largest float64 "
                 "number (about 1.8e308): read as inf", marks=LONG),
    pytest.param(np.longdouble("-1e400"), -math.inf, "x: -1e+400 is beyond the largest "
                 "float64 number (about 1.8e308): read as -inf", marks=LONG),
    (decimal.Decimal("1e400"), math.inf, "x: 1E+400 is beyond the largest float64 number "
                                         "(about 1.8e308): read as inf"),
    (decimal.Decimal("-1e-400"), 0.0, "x: -1E-400 is below the smallest float64 number "
                                      "(about 4.9e-324): read as 0"),
    pytest.param(np.array([np.longdouble("1e-400")]), 0.0, "x: 1e-400 is below the smallest "
                 "float64 number (about 4.9e-324): read as 0", marks=LONG),
])
def test_a_number_beyond_float64s_range_of_any_type_is_said(given, read, words):
    shown, ours, others = said(lambda: adcli.parse("x").value(x=given))
    assert np.ravel(shown).tolist() == [read]
    assert ours == [words]
    assert others == []   # (numpy's "overflow encountered in cast" leaked before)


def test_a_fraction_beyond_the_range_is_said_in_its_own_terms():
    shown, ours, _ = said(lambda: adcli.parse("x").value(x=fractions.Fraction(1, 10**400)))
    assert float(shown) == 0.0
    assert len(ours) == 1 and ours[0].startswith("x: Fraction(1, ")
    assert ours[0].endswith("is below the smallest float64 number (about 4.9e-324): read as 0")


def test_numbers_inside_the_range_or_given_as_inf_or_0_are_not_said():
    given = [decimal.Decimal("0"), decimal.Decimal("Infinity"), decimal.Decimal("2.5")]
    shown, ours, _ = said(lambda: adcli.parse("x").value(x=given))
    assert shown.tolist() == [0.0, math.inf, 2.5] and ours == []
    wide = np.array([0, np.inf, 1e-320], dtype=np.longdouble)   # (a float64 subnormal)
    shown, ours, others = said(lambda: adcli.parse("x").value(x=wide))
    assert shown[2] > 0 and ours == [] and others == []


@LONG
def test_many_values_beyond_the_range_are_one_warning_counting_them():
    given = np.full(5, np.longdouble("1e-4000"))
    shown, ours, _ = said(lambda: adcli.parse("x").value(x=given))
    assert shown.tolist() == [0.0] * 5
    assert ours == ["x: 1e-4000 is below the smallest float64 number (about 4.9e-324): "
                    "read as 0, and 4 more values beyond float64's range"]
    _, ours, _ = said(lambda: adcli.parse("x").value(x=[10**400, 1, -10**400]))
    assert len(ours) == 1 and ours[0].endswith("read as inf, and 1 more value beyond "
                                               "float64's range")


# ----- check's points as keywords -----------------------------------------------------

def test_check_takes_points_as_keywords():
    result = adcli.check("x^2", "2x", x=[1.0, 2.0])
    assert result.points["x"].tolist() == [1.0, 2.0] and result.ok
    wrong = adcli.check("x^2*y", "3*x*y", x=[1.0, 2.0], at={"y": 3.0})  # 2xy: 6, 12
    assert wrong.summary == "differs from ∂/∂x at 2 of 2 points"
    assert wrong.targets[0].ad.tolist() == [6.0, 12.0]


def test_check_refuses_a_point_given_twice_or_a_misspelt_parameter():
    with pytest.raises(ValuesError, match=r"^x given both in at= and as a keyword$"):
        adcli.check("x^2", "2x", x=1.0, at={"x": 2.0})
    with pytest.raises(ValuesError, match=r"^a value was given for 'sample', which does "
                                          r"not appear in 'x\^2': did you mean samples=\?$"):
        adcli.check("x^2", "2x", sample=5)


# ----- Expression(text) ---------------------------------------------------------------

def test_expression_made_from_a_text_points_to_parse():
    with pytest.raises(adcli.AdcliError, match=r"^an Expression is made by adcli\.parse\("
                                               r"text\), not by Expression\(text\): "
                                               r"adcli\.parse\('x\^2'\)$"):
        adcli.Expression("x^2")


def test_expression_made_from_nodes_still_works():
    parsed = adcli.parse("x^2")
    again = adcli.Expression(parsed.text, parsed.nodes, parsed.names)
    assert float(again.value(x=3.0)) == 9.0
