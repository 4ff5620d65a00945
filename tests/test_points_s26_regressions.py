"""Points files, the twenty-sixth session's regression round: what the day's new cell rules
refused or misworded that they should not have (each seen failing before its mend)."""
from __future__ import annotations

import math

import pytest

from conftest import run_cli


@pytest.mark.parametrize("cell, value", [
    ("2 sqrt(2)", 2 * math.sqrt(2)), ("3 cos(0)", 3.0), ("2 exp(1)", 2 * math.exp(1)),
    ("sin(2 pi)", math.sin(2 * math.pi)), ("1/(2 pi)", 1 / (2 * math.pi))])
def test_a_cell_that_multiplies_a_function_or_inside_brackets_reads_as_at_does(cell, value):
    # "a number and a name apart" is a cell of those two alone (3 e, 5 kg), not a
    # function's product or anything in brackets (--at reads all of these)
    code, out, err = run_cli("eval", "x", "--points", "-", "--format", "csv",
                             stdin=f"x\n{cell}\n")
    assert (code, err) == (0, "")
    assert out == f"x,f\n{value!r},{value!r}\n"


@pytest.mark.parametrize("cell", ["3 e", "2.5 pi", "1e5 pi"])
def test_a_number_and_a_name_alone_in_a_cell_stay_refused(cell):
    code, out, err = run_cli("eval", "x", "--points", "-", "--format", "csv",
                             stdin=f"x\n{cell}\n")
    assert code == 2 and "a number and a name apart" in err


def test_a_cell_not_finite_in_float64_is_not_said_to_have_no_finite_value():
    # exp(800)/exp(800) is 1; float64 makes it nan on the way: what is said is float64's
    code, out, err = run_cli("eval", "x", "--points", "-", "--format", "csv",
                             stdin="x\nexp(800)/exp(800)\n")
    assert code == 0
    assert err.splitlines()[0] == ("adcli: warning: points file line 2, column 'x': "
                                   "exp(800)/exp(800) is not finite in float64: read as nan")


def test_an_unquoted_thousand_gets_both_readings_of_its_comma():
    code, out, err = run_cli("eval", "x", "--points", "-", "--format", "csv",
                             stdin="x\n1,000\n")
    assert (code, out) == (2, "")
    assert err == ("adcli: error: points file line 2: 2 fields, the header has 1; if a comma "
                   "is a decimal point (1,000 for 1.000), write 1.000 (or 1000 if it groups "
                   "digits): a comma separates CSV fields\n")


@pytest.mark.parametrize("header", ["[{x}],y", "[ {a} ],y"])
def test_a_csv_header_starting_with_a_bracket_and_a_brace_is_read_as_csv(header):
    code, out, err = run_cli("eval", "y", "--points", "-", "--format", "csv",
                             stdin=f"{header}\n1,2\n")
    assert (code, err) == (0, "")
    assert out == f"{header},f\n1,2.0,2.0\n"     # (y a variable, the other passed through)


def test_a_forgotten_at_with_grouped_digits_is_still_said_forgotten():
    code, out, err = run_cli("grad", "x^2", "x=1_0")
    assert code == 2
    assert err.startswith("adcli: error: 'x=1_0' after the expression looks like a value: "
                          "did you forget --at? (--at x=1_0)")


@pytest.mark.parametrize("at, message", [
    # --at as cells say it (it said "write 1*000", and repeated the value after '_''s words)
    ("x=1 000", "--at x: '1 000' is not a number: digits are not grouped with spaces "
                "(write 1000 if that is meant)"),
    ("x=1_000", "--at x: '1_000' is not a number: digits are not grouped with '_' (write "
                "1000 if that is meant)"),
    ("x=1,5", "--at 'x=1,5': '5' is not of the form name=value; --at is one point: for "
              "several use --grid or --points (or, if the comma is a decimal point, x=1.5: "
              "commas separate the pairs)"),
    ("x=1,2,3", "--at 'x=1,2,3': '2' is not of the form name=value; --at is one point: for "
                "several use --grid or --points"),
])
def test_at_says_what_a_cell_would(at, message):
    code, out, err = run_cli("eval", "x", "--at", at)
    assert (code, out, err) == (2, "", f"adcli: error: {message}\n")


@pytest.mark.parametrize("cell, advice", [
    # 1.5 e-3 was read as 1.5*e - 3 = 1.077 (a mistyped 1.5e-3, 700 times smaller)
    ("1.5 e-3", "write 1.5e-3 if an exponent is meant, or 1.5*e-3 if the product is"),
    ("3 e+2", "write 3e+2 if an exponent is meant, or 3*e+2 if the product is"),
    ("2.5 pi/2", "write 2.5*pi/2 if the product is"),
])
def test_a_cell_starting_with_a_number_and_a_name_apart_is_refused(cell, advice):
    code, out, err = run_cli("eval", "x", "--points", "-", "--format", "csv",
                             stdin=f"x\n{cell}\n")
    assert (code, out) == (2, "")
    assert err == (f"adcli: error: points file line 2, column 'x': '{cell}' is not a "
                   "number: a number and a name apart (a unit? a typo?) are no product in a "
                   f"cell: {advice}\n")
