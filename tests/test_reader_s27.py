"""Session 27, the reader (a physicist pasting LaTeX and Unicode maths): a letter with a
subscript before "(" is a variable (k_B(...)); digits grouped by thousands are refused as
--at refuses them; \\sum's and \\lim's limits, upright subscripts and a log's base that is
no whole number or name are refused for what they are; a decimal times a whole power of
ten is read as its literal."""
import json
import math

import pytest

import adcli
from conftest import run_cli


def _value(text, at=None):
    argv = ["eval", text, "--format", "json"] + (["--at", at] if at else [])
    code, out, err = run_cli(*argv)
    assert code == 0, err
    return json.loads(out)["points"][0]["value"]


def _refused(text):
    code, out, err = run_cli("eval", text, "--at", "x=2")
    assert (code, out) == (2, "")
    assert "Traceback" not in err
    return err.splitlines()[0]


# ----- a letter with a subscript before "(" is a variable, as x_{a}( is ---------------

@pytest.mark.parametrize("text, at, value", [
    ("x_a(y+1)", "x_a=2,y=3", 8.0),
    ("x_{a}(y+1)", "x_a=2,y=3", 8.0),
    ("r_e(x)", "r_e=1.5,x=2", 3.0),
    ("k_B(T+1)", "k_B=3,T=2", 9.0),
    ("N_A(x)", "N_A=0.5,x=3", 1.5),
    ("\\theta_e(x)", "θ_e=2,x=5", 10.0),
    ("x_{ab}(y)", "x_ab=2,y=7", 14.0),
])
def test_a_letter_with_a_subscript_before_a_bracket_multiplies(text, at, value):
    assert _value(text, at) == value


def test_the_morse_potential_reads_as_a_product():
    # D_e (1 - e^{-a(r - r_e)})^2 at D_e = 3, a = 0.7, r = 2, r_e = 1.2, by hand
    got = _value(r"D_e\left(1-e^{-a(r-r_e)}\right)^2", "D_e=3,a=0.7,r=2,r_e=1.2")
    assert got == pytest.approx(3 * (1 - math.exp(-0.7 * 0.8)) ** 2, rel=1e-14)


@pytest.mark.parametrize("text", ["theta(x)", "theta_e(x)", "x_a_b(x)", "foo(x)"])
def test_a_longer_name_before_a_bracket_stays_an_unknown_function(text):
    assert _refused(text).startswith("adcli: error: unknown function")


# ----- digits grouped by thousands ----------------------------------------------------

@pytest.mark.parametrize("text, grouped, plain, mark", [
    ("299 792 458 t", "299 792 458", "299792458", "spaces"),
    ("299\\,792\\,458\\, t", "299\\,792\\,458", "299792458", "'\\,'"),
    ("299\\;792\\;458 t", "299\\;792\\;458", "299792458", "'\\;'"),
    ("1 000x", "1 000", "1000", "spaces"),
    ("12 345.5 t", "12 345.5", "12345.5", "spaces"),
])
def test_digits_grouped_by_thousands_are_refused_with_the_number(text, grouped, plain, mark):
    assert _refused(text) == (f"adcli: error: '{grouped}' is not a number: digits are not "
                              f"grouped with {mark} (write {plain} if that is meant) "
                              "(column 1)")


@pytest.mark.parametrize("text, write", [("2 3", "2*3"), ("2 30", "2*30"), ("1 0000", "1*0000")])
def test_numbers_side_by_side_in_other_groups_stay_a_product_refused(text, write):
    assert _refused(text).startswith("adcli: error: a number can only come first in a "
                                     f"product written without '*': write {write} ")


# ----- \sum and \lim with limits ------------------------------------------------------

@pytest.mark.parametrize("text, command", [
    ("\\sum_{i=1}^{n} x_i", "\\sum"), ("\\lim_{x\\to 0} x", "\\lim"),
    ("\\prod_{i=1}^n x_i", "\\prod")])
def test_a_big_operator_with_limits_is_not_read(text, command):
    assert _refused(text).startswith(f"adcli: error: LaTeX's {command} is not read here: ")


# ----- upright subscripts -------------------------------------------------------------

@pytest.mark.parametrize("text, shown, write", [
    ("k_{\\mathrm{B}} T", "k_{\\mathrm{B}}", "k_B"),
    ("k_\\mathrm{B}", "k_\\mathrm{B}", "k_B"),
    ("k_{\\rm B}", "k_{\\rm B}", "k_B"),
    ("k_\\text{B} T", "k_\\text{B}", "k_B"),
    ("T_{\\mathrm{eff}}^4", "T_{\\mathrm{eff}}", "T_eff"),
    ("E_{\\mathrm{kin}}", "E_{\\mathrm{kin}}", "E_kin"),
    ("\\theta_{\\rm e}", "\\theta_{\\rm e}", "\\theta_e"),
])
def test_an_upright_subscript_is_refused_with_the_name_to_write(text, shown, write):
    assert _refused(text) == ("adcli: error: LaTeX's upright type is not read in a "
                              f"subscript: for '{shown}', write {write} (column 1)")


def test_the_name_proposed_for_an_upright_subscript_is_read():
    assert _value("k_B T", "k_B=2,T=3") == 6.0
    assert _value("\\theta_e", "θ_e=2") == 2.0


# ----- a log's base in a subscript ----------------------------------------------------

@pytest.mark.parametrize("text, write", [
    ("\\log_{0.5}(x)", "for \\log_{0.5} x, write log(x)/log(0.5)"),
    ("\\log_{2.5} x", "for \\log_{2.5} x, write log(x)/log(2.5)"),
    ("log_{1/2} x", "for log_{1/2} x, write log(x)/log(1/2)"),
])
def test_a_log_base_that_is_no_whole_number_or_name_is_refused(text, write):
    assert _refused(text) == ("adcli: error: a log's base in a subscript must be a whole "
                              f"number or a name: {write} (column 1)")


def test_a_log_base_that_is_a_whole_number_or_a_name_is_read():
    assert _value("log_{2}(x)", "x=8") == pytest.approx(3.0, rel=1e-15)
    assert _value("\\log_{b} x", "b=3,x=81") == pytest.approx(4.0, rel=1e-15)


# ----- a decimal times a whole power of ten -------------------------------------------

@pytest.mark.parametrize("text, literal", [
    ("6.022\\times10^{23}", "6.022e23"), ("6.022 \\times 10^{23}", "6.022e23"),
    ("6.022·10^23", "6.022e23"), ("6.022×10^23", "6.022e23"),
    ("1.6\\times10^{-19}", "1.6e-19"), ("1.6×10^-19", "1.6e-19"),
    ("1.6 \\cdot 10^{−19}", "1.6e-19"), ("(6.626\\times10^{-34})", "6.626e-34")])
def test_a_decimal_times_a_power_of_ten_is_its_literal(text, literal):
    assert _value(text) == float(literal)


def test_a_value_at_written_so_is_its_literal():
    code, out, err = run_cli("eval", "x", "--at", "x=1.6\\times10^{-19}", "--format", "json")
    assert code == 0, err
    assert json.loads(out)["points"][0]["value"] == 1.6e-19


@pytest.mark.parametrize("text, parsed", [
    ("6.022\\times10^{23}x", "6.022*((10^23)*x)"), ("3\\times10^8", "3*(10^8)"),
    ("6.022\\times10^{2.5}", "6.022*(10^2.5)"), ("1/6.022\\times10^{23}", "(1/6.022)*(10^23)")])
def test_any_other_shape_stays_a_product(text, parsed):
    assert adcli.parse(text).parsed == parsed


def test_the_literal_differentiates_as_a_constant():
    code, out, err = run_cli("grad", "(1.6\\times10^{-19})*x^2", "--at", "x=3", "--format",
                             "json")
    assert code == 0, err
    found = json.loads(out)
    assert found["parsed"] == "1.6e-19*(x^2)"
    assert found["points"][0]["gradient"]["x"] == pytest.approx(1.6e-19 * 6, rel=1e-15)


@pytest.mark.parametrize("text", ["log_2.5(x)", "log_2.5 x", r"\log_2.5 x"])
def test_a_decimal_log_base_without_braces_is_refused_not_read_as_log2_of_half_x(text):
    # was read log2(0.5*x): 1.0 at x = 4, where log base 2.5 of 4 is 1.5129...
    code, out, err = run_cli("eval", text, "--at", "x=4")
    assert code == 2 and out == ""
    assert "a log's base in a subscript must be a whole number or a name" in err
    assert "write log(x)/log(2.5)" in err and err.count("\n") == 3


def test_a_whole_log_base_followed_by_a_spaced_decimal_factor_is_still_read():
    code, out, err = run_cli("eval", "log_2 .5x", "--at", "x=4", "--format", "plain")
    assert (code, float(out)) == (0, 1.0)    # log2(0.5*4)
