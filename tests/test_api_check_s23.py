"""The API and check from the twenty-third session's testers: a mapping of values given
where wrt goes, an id field in check's at=, CheckResult's repr, Greek letters spelled out
in wrt/expect, an expectation that overflows at the point given, and the point a "matches
at your point only" note shows."""
import math
import re
import warnings

import numpy as np
import pytest

import adcli
from adcli.errors import ValuesError
from conftest import run_cli

HINT = "('phi' was given: the expression has the letter 'φ', a different name)"
ROW = {"x": 1.0, "y": 2.0}


# ----- 1. a mapping of values where the names to differentiate in go ------------------------

@pytest.mark.parametrize("call", [
    lambda f: f.grad(ROW),
    lambda f: f.hessian(ROW),
    lambda f: f.value_and_grad(ROW),
    lambda f: f.grad(wrt={"x": 1.0}, x=1.0, y=2.0),
    lambda f: adcli.jacobian(["x*y"], ROW),
    lambda f: adcli.jacobian(["x*y"], wrt={"x": 1.0}, x=1.0, y=2.0),
], ids=["grad", "hessian", "value_and_grad", "wrt=mapping", "jacobian", "jacobian wrt="])
def test_a_mapping_given_as_wrt_is_refused_pointing_to_at(call):
    # (it was read as the names x and y, and their values as missing, or x alone, silently)
    with pytest.raises(ValuesError, match=r"^wrt= takes variable names, not a mapping of "
                                          r"values \(\{'x': 1\.0.*\}\): give the values as "
                                          r"at= or as keywords \(at=row or \*\*row\)$"):
        call(adcli.parse("x^2*y"))


def test_a_mapping_given_as_derivative_s_name_is_refused_pointing_to_at():
    with pytest.raises(ValuesError, match=r"^name= takes one variable name, not a mapping "
                                          r"of values .*at= or as keywords"):
        adcli.parse("x^2*y").derivative(ROW)


def test_the_mapping_given_as_at_still_gives_the_partials():
    f = adcli.parse("x^2*y")
    grad = f.grad(at=ROW)                   # 2xy, x^2
    assert (float(grad["x"]), float(grad["y"])) == (4.0, 1.0)
    assert float(f.value(ROW)) == 2.0       # .value's first parameter is at


# ----- 2. check's at= with a name f does not use ------------------------------------------------

@pytest.mark.parametrize("given", [
    {"at": {"x": [1.0, 2.0], "id": ["a", "b"]}},
    {"x": [1.0, 2.0], "id": ["a", "b"]},
], ids=["at=", "keywords"])
def test_check_ignores_an_id_field_with_a_warning(given):
    with pytest.warns(adcli.AdcliWarning, match=r"^a value was given for 'id', which does "
                                                r"not appear in 'x\^2'$"):
        result = adcli.check("x^2", "2x", **given)
    assert result.verdict == "matches" and result.counted == 2
    assert set(result.points) == {"x"}
    assert result.targets[0].expected.tolist() == [2.0, 4.0]      # 2x at 1 and 2


def test_check_refuses_a_greek_letter_spelled_out_in_at_as_the_cli_does():
    # (φ would be drawn at random, and the value for phi believed used)
    with pytest.raises(ValuesError, match=re.escape(HINT)):
        adcli.check(r"\phi^2", r"2\phi", at={"phi": 1.0})


def test_check_refuses_a_value_for_a_definition_as_expression_s_methods_do():
    # (not an id field to ignore: F = x^2 is f itself)
    with pytest.raises(ValuesError, match=r"^'F' is a definition, so it is not a variable"):
        adcli.check("F", "2x", definitions={"F": "x^2"}, at={"F": 1.0, "x": 1.0})


# ----- 3. CheckResult's repr --------------------------------------------------------------------

def test_check_result_repr_is_its_summary_and_its_fields_stay():
    xs = np.arange(1000.0)
    result = adcli.check("sin(x)", "cos(x)", x=xs)
    assert repr(result) == ("<CheckResult of 'sin(x)': matches d/dx at 1000/1000 points, "
                            "largest relative difference 0>")
    np.testing.assert_array_equal(result.points["x"], xs)
    np.testing.assert_allclose(result.targets[0].ad, np.cos(xs), rtol=1e-15, atol=1e-15)
    assert len(repr(adcli.check("sin(x)", "cos(x)"))) < 100


# ----- 4. a Greek letter spelled out in --wrt/--expect and wrt=/expect= --------------------------

@pytest.mark.parametrize("argv", [
    ["--expect", r"phi=-r\sin\phi"],
    [r"-r\sin\phi", "--wrt", "phi"],
], ids=["--expect", "--wrt"])
def test_check_hints_at_the_letter_for_a_name_spelled_out(argv):
    status, _, err = run_cli("check", r"r\cos\phi", *argv)
    assert status == 2
    assert err == f"adcli: error: 'phi' does not appear in 'r\\cos\\phi' {HINT}\n"


@pytest.mark.parametrize("given", [{"expect": {"phi": r"-r\sin\phi"}},
                                   {"expected": r"-r\sin\phi", "wrt": "phi"}],
                         ids=["expect=", "wrt="])
def test_api_check_hints_at_the_letter(given):
    with pytest.raises(ValuesError, match=re.escape(HINT)):
        adcli.check(r"r\cos\phi", **given)


def test_api_wrt_warns_with_the_letter_hint():
    f = adcli.parse(r"r\cos\phi")
    with pytest.warns(adcli.AdcliWarning, match=re.escape(
            f"wrt: 'phi' does not appear in the expression, so its derivative is 0 {HINT}")):
        f.grad(wrt="phi", r=2.0, **{"φ": 0.5})
    with pytest.warns(adcli.AdcliWarning, match=re.escape(
            f"wrt: 'phi' does not appear in the expressions, so its derivative is 0 {HINT}")):
        adcli.jacobian([r"r\cos\phi"], wrt="phi", r=2.0, **{"φ": 0.5})


# ----- 5. the expectation overflows at the point given --------------------------------------------

EXPECTATION = r"\frac{3x^2 (e^x-1) - x^3 e^x}{(e^x-1)^2}"


def test_an_expectation_overflowing_at_the_point_is_said_and_a_domain_on_its_side():
    with pytest.raises(ValuesError) as error:
        adcli.check("x^3/(e^x-1)", EXPECTATION, at={"x": 400.0})
    message = str(error.value)
    # ((e^400 - 1)^2 is inf, so the quotient is 0: an overflow on the way, not an inf)
    assert "the expectation overflows on the way (a step beyond float64's range) there" \
        in message
    lo, hi = map(float, re.search(r"domain=\{.x.: \((\S+), (\S+)\)\}$", message).groups())
    # on the side of 0 of the point given (the negative run is longer), and inside where
    # (e^x - 1)^2 is finite: x < log(1.8e308) / 2 = 354.9
    assert 0 < lo < hi < math.log(np.finfo(float).max) / 2
    for x in np.linspace(lo, hi, 7):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            e = np.exp(x)
            f = x ** 3 / (e - 1)
            expectation = (3 * x ** 2 * (e - 1) - x ** 3 * e) / (e - 1) ** 2
        assert np.isfinite(f) and np.isfinite(expectation)


# ----- 6. the point a "matches at your point only" note shows -----------------------------------

def test_the_matches_only_here_note_shows_a_point_near_1():
    # e^{-x^2/2}' = -x e^{-x^2/2}; -x e^{-x^2} agrees only at 0
    result = adcli.check("e^{-x^2/2}", "-x e^{-x^2}", at={"x": 0.0})
    assert result.verdict == "matches"
    note = next(n for n in result.notes if n.startswith("it matches at your 1 point only"))
    x, expected, ad = map(float, re.search(
        r"at x=(\S+), the expectation is (\S+) and adcli's d/dx (\S+)$", note).groups())
    assert 0.1 <= abs(x) <= 10
    assert expected == pytest.approx(-x * math.exp(-x * x), rel=1e-14)
    assert ad == pytest.approx(-x * math.exp(-x * x / 2), rel=1e-14)
    assert abs(expected - ad) > 0.01 * abs(ad)     # the difference shows plainly


def test_grad_wrt_hints_at_the_letter_as_at_does():
    # --wrt phi for the expression's φ: the derivative shown is 0, and the warning says why
    code, _, err = run_cli("grad", "r\\cos\\phi", "--wrt", "phi", "--at", "r=2,φ=0.5")
    assert code == 0
    assert "adcli: warning: --wrt phi: 'phi' does not appear in the expression, so its " \
        "derivative is 0 ('phi' was given: the expression has the letter 'φ', a different " \
        "name)" in err, err


def test_a_constant_made_a_function_of_x_keeps_the_point_given():
    # e^2 with wrt="x" is a function of x: x=1 is its point, not a value f lacks
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = adcli.check("e^2", "x - 1", wrt="x", x=1)
    assert result.summary == "matches d/dx at 1/1 points, largest relative difference 0"


@pytest.mark.parametrize("field", ["t", "a", "wt", "rate", "ordered"])
def test_short_record_fields_are_ignored_with_a_warning_not_taken_for_slips(field):
    with pytest.warns(adcli.AdcliWarning, match=f"a value was given for '{field}'"):
        result = adcli.check("x^2", "2*x", **{"x": 1.0, field: 0.5})
    assert result.verdict == "matches"


def test_a_misspelt_parameter_is_named():
    with pytest.raises(adcli.AdcliError, match=r"did you mean seed=\?$"):
        adcli.check("x^2", "2x", seeds=3)
