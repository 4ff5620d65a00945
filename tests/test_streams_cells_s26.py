"""Session 26, points-file cells read as --at reads values (streams.number handing its
expression cells to points.cell_value): a cell whose expression is not finite in float64 is
warned with its line and column, a cell's syntax error keeps the parser's reason, a
decimal comma or digits grouped with spaces or '_' are said so, and a number and a name
apart (3 e) are an error, as two numbers apart (2 3) are."""
from __future__ import annotations

import math

import pytest

from conftest import run_cli


def error_of(*argv, stdin=""):
    code, out, err = run_cli(*argv, stdin=stdin)
    assert (code, out) == (2, ""), (code, out, err)
    assert err.count("\n") == 1, err
    return err


def cell_error(cell: str, fmt: str = "csv") -> str:
    separator = {"csv": ",", "tsv": "\t"}[fmt]
    cell = f'"{cell}"' if fmt == "csv" and "," in cell else cell
    return error_of("eval", "x+y", "--points", "-", "--points-format", fmt,
                    stdin=f"x{separator}y\n1{separator}{cell}\n")


def test_cells_whose_expression_is_not_finite_are_warned_with_line_and_column():
    stdin = "x,y\n1,exp(800)\n2,exp(-800)\n3,sqrt(-1)\n4,1/0\n"
    code, out, err = run_cli("eval", "x+y", "--points", "-", "--format", "csv", stdin=stdin)
    assert (code, out) == (0, "x,y,f\n1.0,inf,inf\n2.0,0.0,2.0\n3.0,nan,nan\n4.0,inf,inf\n")
    assert err.splitlines() == [
        "adcli: warning: points file line 2, column 'y': exp(800) is not finite in "
        "float64: read as inf (and 2 more such cells, and 1 more cell below the smallest float64 number, "
        "read as 0)",
        "adcli: warning: y was given nan or inf at 3 of 4 points, so a result there is too"]


def test_a_nan_cell_after_a_number_beyond_range_is_counted_as_its_own_kind():
    stdin = "x\n1e400\nsqrt(-1)\n10^400\n"
    code, out, err = run_cli("eval", "x", "--points", "-", "--format", "csv", stdin=stdin)
    assert (code, out) == (0, "x,f\ninf,inf\nnan,nan\ninf,inf\n")
    assert err.splitlines()[0] == (
        "adcli: warning: points file line 2, column 'x': 1e400 is beyond the largest float64 "
        "number (about 1.8e308): read as inf (and 2 more cells whose expression is not "
        "finite in float64, read as inf, -inf or nan)")


def test_many_cells_without_finite_values_give_one_warning():
    stdin = "x\n" + "log(0)\n" * 5000
    code, out, err = run_cli("eval", "x", "--points", "-", "--format", "csv", stdin=stdin)
    assert code == 0 and out.count("-inf,-inf\n") == 5000
    assert err.splitlines() == [
        "adcli: warning: points file line 2, column 'x': log(0) is not finite in float64: "
        "read as -inf (and 4999 more such cells)",
        "adcli: warning: x was given nan or inf at 5000 of 5000 points, so a result there is "
        "too"]


def test_finite_expression_cells_are_read_in_silence():
    code, out, err = run_cli("eval", "x", "--points", "-", "--format", "csv",
                             stdin="x\npi/4\n2^-3\n")
    assert (code, err) == (0, "")
    assert out == f"x,f\n{math.pi / 4!r},{math.pi / 4!r}\n0.125,0.125\n"


@pytest.mark.parametrize("cell, at_reason", [
    ("2e", "'2e' is not a number: write 2*e, or 2e3 for 2000"),
    ("sin(", "'(' is never closed: the expression ends before its ')': 'sin('"),
    ("2 3", "a number can only come first in a product written without '*': write 2*3: "
            "'2 3'"),
])
def test_a_cells_syntax_error_keeps_the_reason_at_gives(cell, at_reason):
    assert error_of("eval", "y", "--at", f"y={cell}").startswith(
        f"adcli: error: --at y: {at_reason}")
    assert cell_error(cell) == f"adcli: error: points file line 2, column 'y': {at_reason}\n"


@pytest.mark.parametrize("cell, product", [("3 e", "3*e"), ("2.5 pi", "2.5*pi"),
                                           ("1e5 pi", "1e5*pi")])
def test_a_number_and_a_name_apart_in_a_cell_are_an_error(cell, product):
    assert cell_error(cell) == (
        f"adcli: error: points file line 2, column 'y': '{cell}' is not a number: a number "
        f"and a name apart (a unit? a typo?) are no product in a cell: write {product} if "
        "the product is\n")


def test_a_product_written_with_a_star_in_a_cell_is_read():
    code, out, err = run_cli("eval", "y", "--points", "-", "--format", "csv",
                             stdin="y\n3*e\n")
    assert (code, err) == (0, "")
    assert float(out.splitlines()[1].split(",")[0]) == 3 * math.e


@pytest.mark.parametrize("fmt", ["csv", "tsv"])
@pytest.mark.parametrize("cell, why", [
    ("1,5", "write 1.5, with a decimal point, not a comma"),
    ("-12,25", "write -12.25, with a decimal point, not a comma"),
    ("1,000", "write 1.000, with a decimal point, not a comma (or 1000 if the comma groups "
              "digits)"),
])
def test_a_decimal_comma_cell_gets_the_hint(fmt, cell, why):
    assert cell_error(cell, fmt) == (
        f"adcli: error: points file line 2, column 'y': '{cell}' is not a number: {why}\n")


def test_a_decimal_comma_in_plain_input_gets_the_hint():
    assert error_of("grad", "x^2", "--points", "-", "--points-format", "plain",
                    stdin="x\n1,5\n") == (
        "adcli: error: points file line 2, column 'x': '1,5' is not a number: write 1.5, "
        "with a decimal point, not a comma\n")


@pytest.mark.parametrize("cell, meant", [("1 000", "1000"), ("-12 345.5", "-12345.5")])
def test_digits_grouped_with_spaces_in_a_cell_are_said_so(cell, meant):
    assert cell_error(cell) == (
        f"adcli: error: points file line 2, column 'y': '{cell}' is not a number: digits are "
        f"not grouped with spaces (write {meant} if that is meant)\n")


@pytest.mark.parametrize("cell, meant", [("1_0", "10"), ("2023_01", "202301")])
def test_digits_grouped_with_underscores_in_a_cell_are_refused(cell, meant):
    assert cell_error(cell) == (
        f"adcli: error: points file line 2, column 'y': '{cell}' is not a number: digits are "
        f"not grouped with '_' (write {meant} if that is meant)\n")


def test_an_underscore_cell_in_json_lines_is_refused_too():
    assert error_of("eval", "y", "--points", "-", stdin='{"y": "1_0"}\n') == (
        "adcli: error: points file line 1, column 'y': '1_0' is not a number: digits are "
        "not grouped with '_' (write 10 if that is meant)\n")


def test_an_id_with_an_underscore_passes_through_as_written():
    code, out, err = run_cli("eval", "x^2", "--points", "-", "--format", "csv",
                             stdin="id,x\n2023_01,3\n")
    assert (code, err, out) == (0, "", "id,x,f\n2023_01,3.0,9.0\n")


def test_skip_bad_rows_skips_an_underscore_row_and_reads_the_rest():
    code, out, err = run_cli("eval", "x^2", "--points", "-", "--format", "csv",
                             "--skip-bad-rows", stdin="x\n1_0\n3\n")
    assert (code, out) == (0, "x,f\n3.0,9.0\n")
    assert "points file line 2, column 'x': '1_0' is not a number: digits are not grouped " \
           "with '_' (write 10 if that is meant)" in err
