"""Points input as a data engineer met it: files that start with a byte order mark joined
with cat (the mark then starts a later line), and a --grid end beyond float64's range.
Each through the CLI, its stdout, stderr and status."""
from __future__ import annotations

import pytest

from conftest import run_cli

EXIT_BAD_INPUT = 2
BOM = "\ufeff".encode()     # as Windows Notepad and Excel's "CSV UTF-8" start a file

REPEATED = ("points file line 3: a repeated header row (the column names, as on line 1: "
            "files joined with cat?): keep the first file's header alone: "
            "{ cat a.csv; tail -n +2 b.csv; } | adcli ... --points -")


def cat(tmp_path, *files: bytes) -> str:
    """The path of a file holding these files' bytes one after the other, as cat joins
    them (each its own mark)."""
    path = tmp_path / "joined"
    path.write_bytes(b"".join(files))
    return str(path)


def csv_rows(out: str) -> list[list[str]]:
    return [line.split(",") for line in out.splitlines()]


# ----- 1. a byte order mark at the start of a later line ------------------------------------

@pytest.mark.parametrize("header, row, shown", [
    (b"id,x,y\n", b"p1,3,5\n", ["p1", "3.0", "5.0"]),
    (b"x,y\r\n", b"3,5\r\n", ["3.0", "5.0"]),
    (b"id\tx\ty\n", b"p1\t3\t5\n", ["p1", "3.0", "5.0"]),
    (b"x y\n", b"3 5\n", ["3.0", "5.0"])])
def test_a_header_repeated_after_a_byte_order_mark_is_named_as_one(tmp_path, header, row,
                                                                   shown):
    """cat bom.csv bom.csv: line 3 is the header after a mark. It said "'x' is not a number
    or constant expression (it uses x)", where the same files without the mark are told
    to be joined with tail -n +2. The first file's point is written first: x*y at (3, 5)
    is 15, its gradient (y, x) = (5, 3)."""
    path = cat(tmp_path, BOM + header + row, BOM + header + row)
    code, out, err = run_cli("grad", "x*y", "--points", path, "--format", "csv")
    assert (code, err) == (EXIT_BAD_INPUT, f"adcli: error: {REPEATED}\n")
    assert csv_rows(out)[1:] == [[*shown, "15.0", "5.0", "3.0"]]


def test_skip_bad_rows_skips_a_header_repeated_after_a_mark_and_reads_on(tmp_path):
    path = cat(tmp_path, BOM + b"id,x,y\np1,3,5\n", BOM + b"id,x,y\np2,-2,7\n")
    code, out, err = run_cli("grad", "x*y", "--points", path, "--format", "csv",
                             "--skip-bad-rows")
    assert code == 0, err
    assert csv_rows(out) == [["id", "x", "y", "f", "df/dx", "df/dy"],
                             ["p1", "3.0", "5.0", "15.0", "5.0", "3.0"],
                             ["p2", "-2.0", "7.0", "-14.0", "7.0", "-2.0"]]
    assert err == f"adcli: warning: skipped 1 bad row of the points file; first: {REPEATED}\n"


@pytest.mark.parametrize("rows", [1, 3000])     # (3000: numpy's block reader's path too)
def test_a_mark_before_a_headerless_row_is_no_part_of_its_number(tmp_path, rows):
    """--columns x,y over headerless files joined with cat: the second file's first row
    starts with the mark, and '\\ufeff3' is the number 3 (it was not a number at all)."""
    first = BOM + b"1,2\n" * rows
    path = cat(tmp_path, first, BOM + b"3,4\n", b"-1.5,8\n")
    code, out, err = run_cli("grad", "x*y", "--points", path, "--columns", "x,y",
                             "--format", "csv", "--no-header")
    assert (code, err) == (0, "")
    assert csv_rows(out) == [["1.0", "2.0", "2.0", "2.0", "1.0"]] * rows + \
        [["3.0", "4.0", "12.0", "4.0", "3.0"], ["-1.5", "8.0", "-12.0", "8.0", "-1.5"]]


def test_a_mark_then_a_bad_cell_says_the_cell_without_the_mark(tmp_path):
    """The bad cell is y's: x's '\ufeff3' was said first, as no number."""
    path = cat(tmp_path, BOM + b"x,y\n1,2\n", BOM + b"3,abc\n")
    code, out, err = run_cli("grad", "x*y", "--points", path, "--format", "csv")
    assert code == EXIT_BAD_INPUT
    assert err == ("adcli: error: points file line 3, column 'y': 'abc' is not a number or "
                   "constant expression (it uses abc)\n")


# ----- 3. a --grid end beyond float64's range, said as typed ----------------------------------

BEYOND = "is beyond the largest float64 number (about 1.8e308)"


@pytest.mark.parametrize("grid, why", [
    ("x=1e400:2:3", f"1e400 {BEYOND}: "),
    ("x=0:-1e999:3", f"-1e999 {BEYOND}: "),
    ("x=0/0:1:3", "0/0 is nan: "),
    ("x=log(0):1E400:3", f"log(0) is -inf, and 1E400 {BEYOND}: "),
    ("x=0:inf:3", ""),                  # typed inf: the value says it
    ("y=0:1:2, x=2:1e999:3", f"1e999 {BEYOND}: ")])
def test_a_grid_end_beyond_range_is_said_as_typed(capsys, grid, why):
    """It said "--grid x=inf:2: the ends of the range must be finite numbers" of
    x=1e400:2:3: the inf was never typed. --at x=1e400 says 1e400 is beyond float64."""
    code, out, err = run_cli("eval", "x*y", "--at", "y=1", "--grid", grid) if \
        grid.startswith("x") else run_cli("eval", "x*y", "--grid", grid)
    assert (code, out) == (EXIT_BAD_INPUT, "")
    assert err == (f"adcli: error: --grid '{grid}': {why}the ends of the range must be "
                   "finite numbers\n")


# ----- JSON Lines: a mark before an object, an object that names no column ------------------

def test_a_json_line_after_a_byte_order_mark_is_read(tmp_path):
    """cat a.jsonl b.jsonl, each with a mark: it said "not JSON: Unexpected UTF-8 BOM
    (decode using utf-8-sig)". Before a JSON value only whitespace may stand, so the mark
    can mean nothing else: it is read past, as at the start of the input."""
    path = cat(tmp_path, BOM + b'{"x": 3, "y": 5}\n', BOM + b'{"x": -2, "y": -0}\n')
    code, out, err = run_cli("grad", "x*y", "--points", path, "--format", "csv")
    assert (code, err) == (0, "")
    assert csv_rows(out) == [["x", "y", "f", "df/dx", "df/dy"],
                             ["3.0", "5.0", "15.0", "5.0", "3.0"],
                             ["-2.0", "-0.0", "0.0", "-0.0", "-2.0"]]


@pytest.mark.parametrize("first, why", [
    ("{}", "an empty object names no column"),
    ('{"": 5, "x": 1, "y": 2}', "an empty key names no column"),
    ('{" ": 5, "x": 1, "y": 2}', "an empty key names no column")])
def test_a_first_object_that_names_no_column_is_a_bad_row(first, why):
    """It stopped the run even with --skip-bad-rows ("a column has no name"), and an empty
    key got CSV's hint of a pandas index. The next good object names the columns: x*y at
    (3, 4) is 12, its gradient (4, 3)."""
    stdin = f'{first}\n{{"x": 3, "y": 4}}\n'
    code, out, err = run_cli("grad", "x*y", "--points", "-", "--format", "csv",
                             "--skip-bad-rows", stdin=stdin)
    assert code == 0, err
    assert csv_rows(out) == [["x", "y", "f", "df/dx", "df/dy"],
                             ["3.0", "4.0", "12.0", "4.0", "3.0"]]
    assert err == ("adcli: warning: skipped 1 bad row of the points file; first: points "
                   f"file line 1: {why}\n")
    code, out, err = run_cli("grad", "x*y", "--points", "-", "--format", "csv", stdin=stdin)
    assert (code, out, err) == (EXIT_BAD_INPUT, "", f"adcli: error: points file line 1: {why}\n")


# ----- a byte order mark before a blank line or a comment (a file joined with cat) ---------------

@pytest.mark.parametrize("data", [
    b"x,y\n1,2\n\xef\xbb\xbf# notes\n5,6\n",        # the next file starts with a comment
    b"x,y\n1,2\n\xef\xbb\xbf\n5,6\n",               # the next file is empty but for its mark
    b"x\ty\n1\t2\n\xef\xbb\xbf# c\n\xef\xbb\xbf\n5\t6\n",
    b'{"x":1,"y":2}\n\xef\xbb\xbf\n{"x":5,"y":6}\n',
    b'{"x":1,"y":2}\n\xef\xbb\xbf# hi\n{"x":5,"y":6}\n',
])
def test_a_mark_before_a_blank_line_or_comment_is_read_past(tmp_path, data):
    path = tmp_path / "joined"
    path.write_bytes(data)
    code, out, err = run_cli("grad", "x*y", "--points", str(path), "--format", "csv")
    # x*y at (1, 2) and (5, 6): f = xy, df/dx = y, df/dy = x
    assert (code, err) == (0, ""), err
    assert out.splitlines()[1:] == ["1.0,2.0,2.0,2.0,1.0", "5.0,6.0,30.0,6.0,5.0"]
