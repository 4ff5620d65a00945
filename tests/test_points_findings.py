"""Points files as scripts meet them: a column named like a constant, the warnings of the
rows written before a stop, a first field starting with '{', and rough edges of the
reader's and writers' words. Each through the CLI, with its exact stderr and status."""
from __future__ import annotations

import mpmath
import pytest

from conftest import adcli_on_terminal, run_cli, strict_json, warnings_in, words

EXIT_BAD_INPUT, EXIT_NONFINITE = 2, 3
FORMATS = ["table", "json", "jsonl", "csv", "tsv", "plain"]


def points(*argv: str, stdin: str) -> tuple[int, str, str]:
    return run_cli(*argv, "--points", "-", stdin=stdin)


# ----- 1. a column named like a constant the expression uses ------------------------------

def test_a_csv_column_named_e_is_an_error_where_the_expression_uses_e():
    """x^2*e over a column e was x^2 times 2.718..., the column silently ignored."""
    for strict in ((), ("--strict",)):
        code, out, err = points("grad", "x^2*e", "--format", "csv", *strict,
                                stdin="x,e\n1,0.5\n2,0.25\n")
        assert (code, out) == (EXIT_BAD_INPUT, "")
        assert err == (
            "adcli: error: the points file has a column 'e': e is a constant "
            "(2.718281828459045), which the expression uses, and cannot be given a value: to "
            "use the column, rename it in the header and the expression (e1, say), or leave "
            "the header row out and name the columns with --columns x,e1\n")


def test_a_json_lines_key_named_pi_is_an_error_where_the_expression_uses_pi():
    code, out, err = points("eval", "pi*x", "--format", "csv", stdin='{"x":1,"pi":3}\n')
    assert (code, out) == (EXIT_BAD_INPUT, "")
    assert err == (
        "adcli: error: the points file has a key 'pi': pi is a constant "
        "(3.141592653589793), which the expression uses, and cannot be given a value: to use "
        "it, give the key another name (pi1, say) and use that name in the expression\n")


def test_a_column_named_e_by_columns_is_an_error_saying_to_name_it_otherwise():
    code, out, err = points("eval", "e*x", "--columns", "e,x,e1", stdin="1,2,3\n")
    assert (code, out) == (EXIT_BAD_INPUT, "")
    assert err == (
        "adcli: error: --columns names a column 'e': e is a constant (2.718281828459045), "
        "which the expression uses, and cannot be given a value: call the column something "
        "else (--columns e2,x,e1) and use that name in the expression\n")


def test_a_column_pi_spelled_as_the_letter_is_the_constant_pi_too():
    code, out, err = points("eval", "π*x", stdin="x,π\n1,3\n")
    assert (code, out) == (EXIT_BAD_INPUT, "")
    assert err.startswith("adcli: error: the points file has a column 'π': π is the constant "
                          "pi (3.141592653589793), which the expression uses")
    assert err.count("\n") == 1


def test_a_constant_used_inside_a_let_definition_counts_as_used():
    code, _, err = points("eval", "f", "--let", "f=x*e", stdin="x,e\n1,2\n")
    assert code == EXIT_BAD_INPUT and "column 'e': e is a constant" in err


def test_a_column_named_e_still_passes_through_where_the_expression_has_no_e():
    code, out, err = points("eval", "x^2", "--format", "csv", stdin="x,e\n1,0.5\n3,0.25\n")
    assert (code, out, err) == (0, "e,x,f\n0.5,1.0,1.0\n0.25,3.0,9.0\n", "")


# ----- 2. the warnings of the rows written before a stop -----------------------------------

STOPPED = "adcli: error: points file line 4, column 'x': 'abc' is not a number or constant " \
          "expression (it uses abc)"


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_bad_row_keeps_the_warnings_of_the_rows_before_it(fmt):
    """x = 1e400 is read as inf, which makes f nan (no function to blame: the value given
    is, since the nineteenth session); at 1e80 '^' overflows and f and f' are 0 where long
    double gives 1e-80 and -1e-160: said without the bad row, dropped with it."""
    expression = "x^3/(1+x^4)"
    whole = points("grad", expression, "--format", fmt, stdin="x\n1e400\n1e80\n")
    code, out, err = points("grad", expression, "--format", fmt,
                            stdin="x\n1e400\n1e80\nabc\n")
    assert code == EXIT_BAD_INPUT
    said = warnings_in(whole[2])
    assert len(said) == 5 and said[0].startswith(
        "adcli: warning: points file line 2, column 'x': 1e400 is beyond the largest")
    assert err.splitlines() == [*said, STOPPED]
    with mpmath.workdps(50):     # f and f' = x^2 (3 - x^4) / (1 + x^4)^2 at the float 1e80
        x = mpmath.mpf(1e80)
        f, df = x**3 / (1 + x**4), x**2 * (3 - x**4) / (1 + x**4) ** 2
    assert f"it is {float(f):.14g} where float64 gives 0" in said[2]      # 1e-80
    assert f"it is {float(df):.14g} where float64 gives 0" in said[3]     # -1e-160
    assert said[4] == ("adcli: warning: x was given nan or inf at 1 of 2 points, so a result "
                       "there is too")
    assert out == whole[1]      # JSON's document whole, its warnings in it
    if fmt == "json":
        assert [w["kind"] for w in strict_json(out)["warnings"]] == \
            ["input", "value", "range", "range"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_strict_keeps_the_warnings_of_the_points_before_the_stop(fmt):
    """abs has a kink at x = 0, the point before the one where sqrt(x+1) is nan: that
    point's kink is said (counted among the points written, not the chunk's)."""
    expression = "abs(x)+sqrt(x+1)"
    before = points("grad", expression, "--format", fmt, stdin="x\n0\n0\n")
    code, out, err = points("grad", expression, "--format", fmt, "--strict",
                            stdin="x\n0\n0\n-4\n0\n")
    assert code == EXIT_NONFINITE
    kink = warnings_in(before[2])
    assert len(kink) == 1 and kink[0].startswith(
        "adcli: warning: abs is not differentiable at 2 of 2 points (")
    assert err.splitlines() == [*kink, "adcli: error: sqrt gave nan or inf at points file "
                                       "line 4 (x=-4.0) (a negative argument): stopped there "
                                       "(--strict)"]
    assert out == before[1]
    if fmt == "json":   # d/dx (|x| + sqrt(x+1)) at 0: 0 by abs's convention, + 1/2
        document = strict_json(out)
        assert [p["gradient"]["x"] for p in document["points"]] == [0.5, 0.5]
        assert [(w["at"]["x"], w["function"]) for w in document["warnings"]] == \
               [(0.0, "abs"), (0.0, "abs")]


def test_a_stop_at_the_first_point_says_no_warning():
    code, out, err = points("grad", "abs(x)+sqrt(x+1)", "--format", "csv", "--strict",
                            stdin="x\n-4\n0\n")
    assert (code, out) == (EXIT_NONFINITE, "")
    assert err == ("adcli: error: sqrt gave nan or inf at points file line 2 (x=-4.0) (a "
                   "negative argument): stopped there (--strict)\n")


@pytest.mark.parametrize("columns", [40, 80, 120])
def test_on_a_terminal_the_table_then_the_warning_then_the_error(tmp_path, columns):
    path = tmp_path / "p.csv"
    path.write_text("x\n0\n-4\n")
    code, rows = adcli_on_terminal(columns, "grad", "abs(x)+sqrt(x+1)", "--points",
                                   str(path), "--strict")
    assert code == EXIT_NONFINITE
    text = " ".join(words(rows))   # (a warning folded to the width, as a user reads it)
    kink, error = text.index("abs is not differentiable"), text.index("adcli: error:")
    assert text.index("0.5") < kink < error     # the point's row, its warning, the stop
    assert "at 1 of 1 point" in text[kink:error]


# ----- 3. a first field starting with '{' --------------------------------------------------

GUID = "{3F2504E0-4F89-11D3-9A0C-0305E82C3301}"


@pytest.mark.parametrize("fmt", ["csv", "tsv", "plain"])
def test_headerless_output_with_a_braced_id_reads_back_under_columns(fmt):
    code, written, err = points("eval", "x^2", "--format", fmt,
                                *(("--no-header",) if fmt != "plain" else ()),
                                stdin=f"id,x\n{GUID},1.5\n")
    assert (code, err) == (0, "")
    names = "id,x,f" if fmt != "plain" else "id,f"
    code, out, err = points("eval", "f", "--columns", names, "--format", "json",
                            stdin=written)
    assert (code, err) == (0, "")
    [point] = strict_json(out)["points"]
    assert point["extra"]["id"] == GUID and point["value"] == 1.5 ** 2


@pytest.mark.parametrize("fmt, header", [("csv", '"{a}",x,f'), ("tsv", "\\{a}\tx\tf")])
def test_a_header_starting_with_a_brace_is_guarded_and_reads_back(fmt, header):
    code, written, err = points("eval", "x^2", "--format", fmt, stdin='"{a}",x\n{b},2\n')
    assert (code, err) == (0, "")
    assert written.splitlines()[0] == header
    code, out, err = points("eval", "f", "--format", "json", stdin=written)
    assert (code, err) == (0, "")
    [point] = strict_json(out)["points"]
    assert point["extra"] == {"{a}": "{b}", "x": "2.0"} and point["value"] == 4.0


def test_a_row_starting_with_a_brace_is_quoted_as_a_hash_is():
    code, out, _ = points("eval", "x", "--format", "csv", stdin=f"id,x\n{GUID},1\n")
    assert (code, out.splitlines()[1]) == (0, f'"{GUID}",1.0,1.0')


def test_columns_with_jsonl_given_is_still_an_error():
    code, out, err = points("eval", "x", "--columns", "x", "--points-format", "jsonl",
                            stdin='{"x": 1}\n')
    assert (code, out) == (EXIT_BAD_INPUT, "")
    assert err == ("adcli: error: --columns is for csv, tsv and plain input: JSON Lines "
                   "objects name their own fields\n")


def test_a_first_line_taken_for_json_lines_says_how_to_read_it_otherwise():
    code, out, err = points("eval", "x", stdin="{a},x\n1,2\n")
    assert (code, out) == (EXIT_BAD_INPUT, "")
    assert err == ("adcli: error: points file line 1: not JSON: Expecting property name "
                   "enclosed in double quotes at column 2; its first line starts with '{', so "
                   "the input was read as JSON Lines: if it is CSV, TSV or plain, say so with "
                   "--points-format\n")


# ----- 4. rough edges ---------------------------------------------------------------------

def test_cells_beyond_range_either_way_are_not_counted_as_such_cells():
    code, _, err = points("eval", "x*y", "--format", "csv", stdin="x y\n1e-400 1\n1e400 2\n")
    assert code == 0
    assert warnings_in(err)[:1] == [   # (then: a result is inf)
        "adcli: warning: points file line 2, column 'x': 1e-400 is below the smallest float64 "
        "number (about 4.9e-324): read as 0 (and 1 more cell beyond the largest float64 "
        "number, read as inf or -inf)"]


def test_cells_beyond_range_of_both_kinds_and_more_of_the_first():
    code, _, err = points("eval", "x*y", "--format", "csv",
                          stdin="x y\n1e400 1\n2 -1e999\n1e-999 1e500\n")
    assert code == 0
    assert warnings_in(err)[:1] == [   # (then: a result is inf)
        "adcli: warning: points file line 2, column 'x': 1e400 is beyond the largest float64 "
        "number (about 1.8e308): read as inf (and 2 more such cells, and 1 more cell below "
        "the smallest float64 number, read as 0)"]


def test_plain_output_says_when_a_line_starts_with_a_hash():
    """#3 first on a plain line reads back as a comment: CSV quotes it, TSV escapes it;
    plain cannot, so it says so, as it does of a value holding a space."""
    code, out, err = points("eval", "x", "--format", "plain", stdin='id,x\na,1\n"#3",2\n')
    assert (code, out) == (0, "a 1.0\n#3 2.0\n")
    assert warnings_in(err) == [
        "adcli: warning: column 'id' has the value '#3', first on its line: plain output "
        "has no quoting, so that line reads back as a comment (--format tsv or csv keeps "
        "every value)"]


def test_a_json_control_character_is_said_once_at_its_column():
    line = '{"x": 1, "s": "a\tb"}'
    code, _, err = points("eval", "x", stdin='{"x": 2, "s": ""}\n' + line + "\n")
    assert code == EXIT_BAD_INPUT
    assert err == ("adcli: error: points file line 2: not JSON: Invalid control character "
                   f"at column {line.index(chr(9)) + 1}\n")
