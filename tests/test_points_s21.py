"""Points input as a tester met it: JSON Lines' -0 and repeated keys, adcli's own derivative
headers piped back in, a --grid count written 10.0, an empty cell, a header row repeated by
cat, and files that are UTF-16 or gzip. Each through the CLI, its stderr and status."""
from __future__ import annotations

import gzip
import io
import shutil
import subprocess

import pytest

from conftest import run_cli, strict_json

EXIT_BAD_INPUT = 2


def points(*argv: str, stdin: str) -> tuple[int, str, str]:
    return run_cli(*argv, "--points", "-", stdin=stdin)


def csv_rows(out: str) -> list[list[str]]:
    return [line.split(",") for line in out.splitlines()]


def one_error(run: tuple[int, str, str]) -> str:
    """The message of a run that failed with exit 2 and one line on stderr (the rows
    before a bad one are written first)."""
    code, out, err = run
    assert (code, err.count("\n")) == (EXIT_BAD_INPUT, 1), err
    assert err.startswith("adcli: error: ")
    return err.removeprefix("adcli: error: ").rstrip("\n")


# ----- 1. JSON Lines: the integer -0 keeps its sign ---------------------------------------

def test_a_json_integer_minus_zero_is_negative_zero_as_in_csv():
    """1/x at -0 is -inf (it read +0.0: inf), as CSV's -0 and --at x=-0 give."""
    for stdin in ('{"x": -0}\n', "x\n-0\n"):
        code, out, err = points("eval", "1/x", "--format", "csv", stdin=stdin)
        assert code == 0, err
        assert csv_rows(out) == [["x", "f"], ["-0.0", "-inf"]]


def test_sqrt_at_a_json_minus_zero_has_the_derivative_minus_inf():
    """The README: sqrt's derivative at -0.0 is -inf (at +0.0, inf)."""
    code, out, err = points("grad", "sqrt(x)", "--format", "csv",
                            stdin='{"x": -0}\n{"x": 0}\n')
    assert code == 0, err
    assert csv_rows(out) == [["x", "f", "df/dx"], ["-0.0", "-0.0", "-inf"],
                             ["0.0", "0.0", "inf"]]


def test_other_json_integers_read_as_before_on_a_line_with_minus_zero():
    big = 12345678901234567890123        # float() of it, not a rounding of its text
    code, out, err = points("eval", "y + z", "--format", "json",
                            stdin=f'{{"x": -0, "y": {big}, "z": -7}}\n')
    assert code == 0, err
    assert strict_json(out)["points"][0]["value"] == float(big) - 7
    code, out, err = points("eval", "y", "--format", "csv",
                            stdin=f'{{"x": -0, "y": {"9" * 400}}}\n')
    assert code == 0 and csv_rows(out)[1][-1] == "inf"
    assert "(400 characters) is beyond the largest float64 number" in err


# ----- 2. JSON Lines: a key given twice ---------------------------------------------------

def test_a_repeated_json_key_is_an_error_naming_line_and_key():
    """It was last-wins in silence: {"x":1,"x":2} gave x = 2, exit 0."""
    message = one_error(points("eval", "x", "--format", "jsonl", stdin='{"x":1,"x":2}\n'))
    assert message == "points file line 1: the key 'x' is repeated"
    message = one_error(points("eval", "x", "--format", "jsonl",
                               stdin='{"x":1}\n{"x":3, "y":1, "x":2}\n'))
    assert message.endswith("points file line 2: the key 'x' is repeated")


def test_a_repeated_json_key_is_a_bad_row_that_skip_bad_rows_skips():
    code, out, err = points("eval", "x", "--format", "csv", "--skip-bad-rows",
                            stdin='{"x":1}\n{"x":1,"x":2}\n{"x":3}\n')
    assert code == 0, err
    assert csv_rows(out) == [["x", "f"], ["1.0", "1.0"], ["3.0", "3.0"]]
    assert "first: points file line 2: the key 'x' is repeated" in err


def test_a_key_repeated_in_a_nested_object_is_an_error_and_a_colon_in_text_is_not():
    message = one_error(points("eval", "x", "--format", "jsonl",
                               stdin='{"x":1, "id": {"a": 1, "a": 2}}\n'))
    assert message == "points file line 1: the key 'a' is repeated"
    code, out, err = points("eval", "x", "--format", "jsonl",
                            stdin='{"x":2, "t": "12:30:00", "n": {"a": 1}}\n')
    assert code == 0, err
    assert out == '{"at": {"x": 2.0}, "extra": {"t": "12:30:00", "n": {"a": 1}}, ' \
                  '"value": 2.0}\n'


# ----- 3. adcli's own derivative columns piped back in ------------------------------------

GRAD_TSV = "x\tf\tdf/dx\n0.0\t0.0\t0.0\n0.5\t0.25\t1.0\n1.0\t1.0\t2.0\n"


def test_the_hint_names_a_column_no_expression_can_write_and_how_to_use_it():
    from adcli.points import PointSource

    source = PointSource(stream=io.StringIO(GRAD_TSV))
    assert source.unwritable(["df", "dx"]) == [
        "the points file has a column 'df/dx': a name has no '/' or space, so no expression "
        "can write it: rename it in the header (df_dx, say) and use that in the expression, "
        "or leave the header row out (tail -n +2) and name the columns with --columns "
        "x,f,df_dx"]
    assert source.unwritable(["y"]) == []        # no column writes y


def test_the_hint_on_a_hessian_names_the_columns_that_write_every_missing_name():
    from adcli.points import PointSource

    header = "x,y,f,df/dx,df/dy,d2f/dx dx,d2f/dx dy,d2f/dy dx,d2f/dy dy\n"
    source = PointSource(stream=io.StringIO(header + "1,2,2,4,1,4,2,2,0\n"))
    [hint] = source.unwritable(["d2f", "dx", "dy"])
    assert hint.startswith("the points file has columns 'd2f/dx dy', 'd2f/dy dx': ")
    assert "(d2f_dx_dy, d2f_dy_dx, say)" in hint
    jsonl = PointSource(stream=io.StringIO('{"df/dx": 1}\n'))
    assert jsonl.unwritable(["df", "dx"]) == [
        "the points file has a key 'df/dx': a name has no '/' or space, so no expression "
        "can write it: give it another name (df_dx, say) and use that in the expression"]


def test_what_the_hint_suggests_works():
    """f + df/dx of x^2 is x^2 + 2x: 0, 1.25, 3 at 0, 0.5, 1."""
    headerless = GRAD_TSV.split("\n", 1)[1]                       # tail -n +2
    renamed = GRAD_TSV.replace("df/dx", "df_dx", 1)               # the header renamed
    for argv, stdin in (((" --columns", "x,f,df_dx"), headerless), ((), renamed)):
        code, out, err = points("eval", "f + df_dx", "--format", "csv",
                                *[a.strip() for a in argv], stdin=stdin)
        assert code == 0, err
        assert [float(row[-1]) for row in csv_rows(out)[1:]] == [0.0, 0.25 + 1.0, 3.0]


def test_piping_grad_output_back_says_the_column_cannot_be_named():
    """It said: ... ('x' was given: did you mean 'dx'?), which points the wrong way."""
    message = one_error(points("eval", "f + df/dx", stdin=GRAD_TSV))
    assert "did you mean" not in message
    assert message.endswith(
        "(the points file has a column 'df/dx': a name has no '/' or space, so no expression "
        "can write it: rename it in the header (df_dx, say) and use that in the expression, "
        "or leave the header row out (tail -n +2) and name the columns with --columns "
        "x,f,df_dx)")


# ----- 4. a --grid count written as a decimal ---------------------------------------------

def test_a_grid_count_of_ten_point_zero_is_ten_as_1e1_is():
    for count in ("10.0", "10.", "1e1", "10"):
        code, out, err = run_cli("eval", "x", "--grid", f"x=0:9:{count}", "--format", "csv")
        assert code == 0, (count, err)
        assert [row[0] for row in csv_rows(out)[1:]] == [f"{k}.0" for k in range(10)]


def test_a_grid_count_with_a_fraction_is_still_an_error():
    message = one_error(run_cli("eval", "x", "--grid", "x=0:1:10.5"))
    assert message == ("--grid 'x=0:1:10.5': '0:1:10.5' is not start:stop:count with a "
                       "whole count of at least 1")


# ----- 5. an empty cell, a header row again -----------------------------------------------

def test_an_empty_cell_is_said_to_be_a_missing_value():
    """It said: '' is not a number or constant expression."""
    message = one_error(points("eval", "x+y", stdin="x,y\n1,2\n3,\n"))
    assert message == "points file line 3, column 'y': an empty cell (a missing value)"
    message = one_error(points("eval", "x+y", stdin="x\ty\n1\t \n"))
    assert message == "points file line 2, column 'y': an empty cell (a missing value)"


REPEATED = ("points file line {line}: a repeated header row (the column names, as on line "
            "{header}: files joined with cat?): keep the first file's header alone: "
            "{{ cat a.csv; tail -n +2 b.csv; }} | adcli ... --points -")


def test_a_header_row_in_the_middle_is_named_as_one():
    """cat a.csv b.csv: it said 'x' is not a number ... (it uses x)."""
    code, out, err = points("eval", "x", "--format", "csv", stdin="# run 1\nx\n1\nx\n2\n")
    assert (code, csv_rows(out)) == (EXIT_BAD_INPUT, [["x", "f"], ["1.0", "1.0"]])
    assert err == f"adcli: error: {REPEATED.format(line=4, header=2)}\n"
    for stdin in ("id\tx\na\t1\nid\tx\n", "id x\na 1\n id  x \n"):
        code, out, err = points("eval", "x", "--format", "csv", stdin=stdin)
        assert (code, csv_rows(out)[1]) == (EXIT_BAD_INPUT, ["a", "1.0", "1.0"])
        assert err == f"adcli: error: {REPEATED.format(line=3, header=1)}\n"


def test_skip_bad_rows_skips_a_repeated_header_row_with_its_words():
    code, out, err = points("eval", "x", "--format", "csv", "--skip-bad-rows",
                            stdin="id,x\na,1\nid,x\nb,2\n")
    assert code == 0, err
    assert csv_rows(out) == [["id", "x", "f"], ["a", "1.0", "1.0"], ["b", "2.0", "2.0"]]
    assert f"first: {REPEATED.format(line=3, header=1)}" in err


def test_a_row_with_one_cell_named_as_its_column_is_no_header_row():
    code, out, err = points("eval", "x", "--format", "csv", stdin="x,y\n1,2\nx,3\n")
    assert code == EXIT_BAD_INPUT
    assert err == ("adcli: error: points file line 3, column 'x': 'x' is not a number or "
                   "constant expression (it uses x)\n")


# ----- 6. UTF-16 and gzip files -----------------------------------------------------------

UTF16 = ("it starts with a UTF-16 byte order mark (Excel's \"Unicode text\"): convert it to "
         "UTF-8: iconv -f UTF-16 -t UTF-8 FILE | adcli ... --points -")
GZIP = "it is gzip-compressed: decompress it: zcat FILE | adcli ... --points -"


@pytest.mark.parametrize("data, why", [
    ("x,y\n1,2\n".encode("utf-16"), UTF16),          # Python's: a BOM, little-endian
    (b"\xfe\xff" + "x,y\n1,2\n".encode("utf-16-be"), UTF16),
    (gzip.compress(b"x,y\n1,2\n"), GZIP),
], ids=["utf-16", "utf-16-be", "gzip"])
def test_a_file_that_is_no_utf8_text_at_all_says_what_it_is(tmp_path, data, why):
    """It said: not UTF-8 text (column 1), and that the header cannot be skipped."""
    path = tmp_path / "points.csv"
    path.write_bytes(data)
    for options in ((), ("--skip-bad-rows",), ("--columns", "x,y", "--skip-bad-rows"),
                    ("--points-format", "jsonl")):
        message = one_error(run_cli("eval", "x+y", "--points", str(path), *options))
        assert message == f"points file line 1: not UTF-8 text: {why}", options
    piped = data.decode("utf-8", "surrogateescape")    # as stdin's bytes are read
    assert one_error(points("eval", "x+y", stdin=piped)) == \
        f"points file line 1: not UTF-8 text: {why}"


@pytest.mark.skipif(not (shutil.which("iconv") and shutil.which("zcat")),
                    reason="iconv and zcat are not installed")
@pytest.mark.parametrize("data, command", [
    ("x,y\n1,2\n".encode("utf-16"), ["iconv", "-f", "UTF-16", "-t", "UTF-8"]),
    (gzip.compress(b"x,y\n1,2\n"), ["zcat"]),
], ids=["iconv", "zcat"])
def test_the_file_converted_as_said_reads(data, command):
    text = subprocess.run(command, input=data, capture_output=True, check=True).stdout
    code, out, err = points("eval", "x+y", "--format", "csv", stdin=text.decode())
    assert (code, csv_rows(out)) == (0, [["x", "y", "f"], ["1.0", "2.0", "3.0"]]), err
