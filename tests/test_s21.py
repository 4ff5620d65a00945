"""The twenty-first session's fixes made by hand (the helpers' are in their own files)."""
import math
import warnings

import pytest

import adcli
from adcli.errors import AdcliWarning
from conftest import assert_one_line_error, run_cli, strict_json, warnings_in


def test_an_unused_let_name_does_not_rename_the_output_column():
    # f is free for the output: the definition named f is used nowhere (and said so).
    code, out, err = run_cli("grad", "x^2", "--let", "f=3", "--at", "x=1", "--format", "csv")
    assert code == 0
    assert out.splitlines()[0] == "x,f,df/dx"
    assert warnings_in(err) == ["adcli: warning: --let f: f is not used by the expression"]


def test_a_used_let_name_still_keeps_the_output_column_apart():
    code, out, _ = run_cli("jacobian", "f1", "f1+f2", "--let", "f1=x^2", "--let", "f2=x",
                           "--wrt", "x", "--at", "x=3", "--format", "csv")
    assert code == 0
    header = out.splitlines()[0].split(",")
    assert "f1" not in header and "f2" not in header


def test_the_api_says_an_unused_definition_as_the_cli_does():
    with pytest.warns(AdcliWarning, match=r"^definitions\['F'\]: F is not used by the "
                                          r"expression$"):
        expression = adcli.parse("x^2", definitions={"F": "3"})
    assert expression.value(x=2.0) == 4.0


def test_the_api_says_nothing_of_a_used_definition():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        expression = adcli.parse("F + x", definitions={"F": "x^2"})
    assert expression.value(x=3.0) == 12.0


@pytest.mark.parametrize("text, column, meant", [
    ("2³√x", 1, "2∛…"), ("2 ³√x", 2, "2∛…"), ("2.5⁴√x", 3, "2.5·(…)^(1/4)")])
def test_a_raised_digit_between_a_number_and_a_root_is_refused(text, column, meant):
    # 2³√x was 8√x: handwriting's 2∛x (³√x alone is refused as a root's index).
    run = run_cli("grad", text, "--at", "x=8")
    assert_one_line_error(run, text, f"a root's index ({meant}) nor as a power", column)


@pytest.mark.parametrize("text, value, slope", [
    ("x²√x", 32.0, 20.0),     # x^(5/2) at 4: 32; 2.5 x^1.5 = 20
    ("2³ √x", 16.0, 2.0),     # spaced: the power of 2, 8√x; 4/√x = 2
    ("e²√x", 2 * math.e ** 2, math.e ** 2 / 4)])
def test_a_raised_digit_before_a_root_after_a_name_or_a_space_is_a_power(text, value, slope):
    code, out, err = run_cli("grad", text, "--at", "x=4", "--format", "json")
    assert code == 0, err
    point = strict_json(out)["points"][0]
    assert point["value"] == pytest.approx(value, rel=1e-15)
    assert point["gradient"]["x"] == pytest.approx(slope, rel=1e-15)


@pytest.mark.parametrize("text, at, value, slopes", [
    # |x| exactly, and its derivative 1: x*x is 2^-52 below the top of float64
    ("sqrt(x*x)", "x=1.3407807929942596e154", 1.3407807929942596e154, {"x": 1.0}),
    ("x*1", "x=1.7976931348623157e308", 1.7976931348623157e308, {"x": 1.0}),
    # 1e308 * 1.797693134862315, correctly rounded (Python's float product)
    ("x*y", "x=1e308,y=1.797693134862315", 1e308 * 1.797693134862315,
     {"x": 1.797693134862315, "y": 1e308})])
def test_a_nudge_that_overflows_near_the_top_of_float64_is_no_rounding_loss(text, at, value,
                                                                             slopes):
    # The rounding witness moved x*x by 4 ulps past the largest float and called the
    # inf "no correct digit" of an exact result.
    code, out, err = run_cli("grad", text, "--at", at, "--format", "json")
    assert code == 0 and err == ""
    point = strict_json(out)["points"][0]
    assert point["value"] == value and point["gradient"] == slopes


@pytest.mark.parametrize("text, value", [
    ("ln 2/ln x", 1.0),                    # the change of base: log2(x) at 2
    ("x ln 2/2", math.log(2)),             # a constant, ln(2)/2, times x = 2
    ("log 2/log(x)", 1.0),
    ("2^x ln 2/ln 10", 4 * math.log(2) / math.log(10))])
def test_a_function_of_a_number_over_a_constant_or_a_function_is_not_cautioned(text, value):
    # f(a number)/... is cautioned where the divisor holds a variable and starts with none
    # (ln 1/x); these are meant as read, and check must not blame their reading.
    code, out, err = run_cli("eval", text, "--at", "x=2", "--format", "json")
    assert code == 0 and err == ""
    document = strict_json(out)
    assert "cautions" not in document
    assert document["points"][0]["value"] == pytest.approx(value, rel=1e-15)


def test_check_blames_no_reading_of_a_constant_factor():
    # d/dx x ln(2)/2 is ln(2)/2: an expectation of 0 is wrong, and no reading is to blame
    code, out, _ = run_cli("check", "x ln 2/2", "0", "--format", "plain")
    assert code == 1 and "read otherwise" not in out


def test_a_parameter_held_at_minus_one_is_named_beside_a_sign_error():
    # d/dx a x^2 = 2a x = -2x at a = -1: the expectation 2x left a out, which is a sign
    # there; the sign-error diagnosis stays (it holds), and a note names the other way.
    code, out, _ = run_cli("check", "a*x^2", "2x", "--at", "a=-1", "--format", "plain")
    assert code == 1
    assert out.splitlines()[1].startswith("diagnosis: ×-1 everywhere: a sign error")
    assert out.splitlines()[2] == ("note: a is held at -1, where a factor a left out is a "
                                   "sign too: the ×-1 may be that; another value "
                                   "(--at a=2.5) would tell them apart")


def test_no_such_note_where_the_expectation_has_the_parameter():
    # -2a x has a: its slip is the sign alone
    code, out, _ = run_cli("check", "a*x^2", "-2a x", "--at", "a=-1", "--format", "plain")
    assert code == 1 and "held at -1" not in out
