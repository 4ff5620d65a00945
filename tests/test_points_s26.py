"""Session 26, points.py: values with digits grouped by '_' (float() reads 1_0 as 10) are
refused in --at and --grid, and a CSV first row split by a decimal comma (1,5 under a
header x) is said to be maybe that."""
from __future__ import annotations

import pytest

from conftest import run_cli


def error_of(*argv, stdin=""):
    code, out, err = run_cli(*argv, stdin=stdin)
    assert (code, out) == (2, ""), (code, out, err)
    assert err.count("\n") == 1, err
    return err


@pytest.mark.parametrize("value, meant", [("1_0", "10"), ("2023_01", "202301"),
                                          ("1_000.5", "1000.5"), ("-1_0e1_0", "-10e10")])
def test_at_refuses_digits_grouped_with_underscores(value, meant):
    assert error_of("eval", "x", "--at", f"x={value}") == (
        f"adcli: error: --at x: '{value}' is not a number: digits are not grouped with '_' "
        f"(write {meant} if that is meant)\n")


def test_grid_end_refuses_digits_grouped_with_underscores():
    assert error_of("eval", "x", "--grid", "x=0:1_0:3") == (
        "adcli: error: --grid x: '1_0' is not a number: digits are not grouped with '_' "
        "(write 10 if that is meant)\n")


def test_at_names_with_underscores_are_still_read_as_names():
    # x_0 is a subscripted name (a variable: no constant), not a grouped number
    assert error_of("eval", "y", "--at", "y=x_0") == (
        "adcli: error: --at y: 'x_0' is not a number or constant expression (it uses "
        "x_0)\n")
    code, out, err = run_cli("eval", "x_0 + 1", "--at", "x_0=2", "--format", "csv")
    assert (code, err, out) == (0, "", "x_0,f\n2.0,3.0\n")


def test_at_plain_numbers_still_read():
    code, out, err = run_cli("eval", "x*y", "--at", "x=10,y=1e3", "--format", "csv")
    assert (code, err, out) == (0, "", "x,y,f\n10.0,1000.0,10000.0\n")


@pytest.mark.parametrize("header, row, pair", [("x", "1,5", "1,5"), ("x,y", "2,1,25", "2,1"),
                                               ("x", "-3,05", "-3,05")])
def test_csv_first_row_of_whole_numbers_one_too_many_gets_the_decimal_comma_hint(
        header, row, pair):
    before, after = pair.split(",")
    fields = len(row.split(","))
    assert error_of("grad", "x^2", "--points", "-", stdin=f"{header}\n{row}\n") == (
        f"adcli: error: points file line 2: {fields} fields, the header has {fields - 1}; "
        f"if a comma is a decimal point ({before},{after} for {before}.{after}), write "
        f"{before}.{after}: a comma separates CSV fields\n")


@pytest.mark.parametrize("stdin, said", [
    ("x\n1,a\n", "2 fields, the header has 1"),          # not numbers
    ("x\n1,2,3\n", "3 fields, the header has 1"),        # two more than the header
    ("x\n1,-5\n", "2 fields, the header has 1"),         # a signed second half
    ("x\n1.5,2\n", "2 fields, the header has 1"),        # a decimal point already
])
def test_no_decimal_comma_hint_where_a_row_is_not_split_number(stdin, said):
    assert error_of("grad", "x^2", "--points", "-", stdin=stdin) == (
        f"adcli: error: points file line 2: {said}\n")


def test_no_decimal_comma_hint_where_a_row_before_had_the_header_s_count():
    code, out, err = run_cli("grad", "x^2", "--points", "-", "--format", "csv",
                             stdin="x\n3\n2,5\n")
    assert (code, out, err) == (2, "x,f,df/dx\n3.0,9.0,6.0\n",
                                "adcli: error: points file line 3: 2 fields, the header "
                                "has 1\n")


def test_no_decimal_comma_hint_in_tsv_field_count_errors():
    # a tab-separated row has no comma splitting it: its field count is the file's own
    assert error_of("grad", "x^2", "--points", "-", "--points-format", "tsv",
                    stdin="x\n1\t5\n") == (
        "adcli: error: points file line 2: 2 fields, the header has 1\n")


def test_api_refuses_grouped_digits_in_strings_as_at_does():
    import adcli

    f = adcli.parse("x^2")
    with pytest.raises(adcli.AdcliError) as caught:
        f.value(x="1_0")
    assert str(caught.value) == ("x = '1_0' is not a real number or constant expression "
                                 "('1_0' is not a number: digits are not grouped with '_' "
                                 "(write 10 if that is meant))")
    assert float(f.value(x="10")) == 100.0


@pytest.mark.parametrize("argv, stdin, said", [
    (("--columns", "x"), "1,5\n", "points file line 1: 2 fields, but --columns names 1 "
                                  "column"),
    ((), "x,\n1,5\n", "points file line 2: 2 fields, the header names 1: its column 2 has "
                      "no name"),
])
def test_no_decimal_comma_hint_where_the_field_may_be_a_column(argv, stdin, said):
    assert error_of("grad", "x^2", "--points", "-", *argv, stdin=stdin) == \
        f"adcli: error: {said}\n"
