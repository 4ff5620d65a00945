"""Points input met in session 28: a '#' row holding a quoted field (csv.writer writes an
id '#0' bare and quotes a note with a comma) was dropped without a word, where the same
row unquoted is said on stderr; a header with a byte order mark after a comment line kept
the mark in its first name. Each through the CLI: stdout, stderr and status. Values are
x^2 (2x) and x*y (y, x), by hand."""
from __future__ import annotations

import json

import pytest

from conftest import run_cli, warnings_in

BOM = "\ufeff".encode()
HASH_ROW = ("adcli: warning: points file line {} starts with '#', so it was skipped as a "
            "comment, though it reads as a row: to read such a row, quote its first field in "
            "CSV (\"#1\",...), as adcli's CSV output does")


def points_file(tmp_path, data: bytes) -> str:
    path = tmp_path / "points.csv"
    path.write_bytes(data)
    return str(path)


def hash_row(line: int, more: int = 0) -> str:
    """The warning of '#' rows, the first on ``line``, ``more`` after it."""
    return HASH_ROW.format(f"{line} (and {more} more)" if more else line)


# ----- 1. a '#' row with a quoted field is said, as one without ------------------------------

@pytest.mark.parametrize("data, header, first, more", [
    (b'id,note,x\n#1,"a, b",2\n#2,"c",3\n', "id,note,x,f,df/dx", 2, 1),   # the tester's
    (b'id,note,x\n#1,"ab",2\n', "id,note,x,f,df/dx", 2, 0),
    (b'id,x\n#1,"2"\n', "id,x,f,df/dx", 2, 0),
    (b'id,x\n\n# notes\n#1,"2"\n', "id,x,f,df/dx", 4, 0),
])
def test_a_hashed_row_with_a_quoted_field_is_said(tmp_path, data, header, first, more):
    """It was skipped in silence (the line passed over before csv saw it): now the same
    warning as '#1,ab,2', with its line, and still a comment (no row out)."""
    path = points_file(tmp_path, data)
    code, out, err = run_cli("grad", "x^2", "--points", path, "--format", "csv")
    assert (code, out.splitlines()) == (0, [header])
    assert warnings_in(err) == [hash_row(first, more)]


def test_a_quoted_hashed_row_is_said_as_an_unquoted_one_is(tmp_path):
    """The quote changes nothing said: the two files warn alike."""
    said = []
    for data in (b'id,note,x\n#1,"a",2\n', b"id,note,x\n#1,a,2\n"):
        path = points_file(tmp_path, data)
        said.append(run_cli("grad", "x^2", "--points", path, "--format", "csv"))
    assert said[0] == said[1] == (0, "id,note,x,f,df/dx\n", hash_row(2) + "\n")


def test_a_quoted_hashed_row_is_said_under_strict(tmp_path):
    path = points_file(tmp_path, b'id,note,x\n#0,"a, b",2\n')
    code, out, err = run_cli("grad", "x^2", "--points", path, "--format", "csv", "--strict")
    assert (code, out, warnings_in(err)) == (0, "id,note,x,f,df/dx\n", [hash_row(2)])


def test_rows_around_a_quoted_hashed_row_are_read(tmp_path):
    """csv.writer's file: ids '#0', '#1' bare, '#1''s note quoted; the rows after it keep
    their values and the warning its line."""
    path = points_file(tmp_path, b'id,note,x\np0,"a, b",2\n#1,"c, d",5\np2,e,3\n')
    code, out, err = run_cli("grad", "x^2", "--points", path, "--format", "csv")
    assert code == 0
    assert out.splitlines() == ["id,note,x,f,df/dx", 'p0,"a, b",2.0,4.0,4.0',
                                "p2,e,3.0,9.0,6.0"]
    assert warnings_in(err) == [hash_row(3)]


def test_a_quoted_hashed_row_under_columns_is_said(tmp_path):
    """With --columns the first line is a row too: '#1,"2"' there is said, 3,4 read."""
    path = points_file(tmp_path, b'#1,"2"\n3,4\n')
    code, out, err = run_cli("grad", "x^2", "--points", path, "--columns", "id,x",
                             "--format", "csv")
    assert (code, out.splitlines()) == (0, ["id,x,f,df/dx", "3,4.0,16.0,8.0"])
    assert warnings_in(err) == [hash_row(1)]


def test_a_hashed_line_with_a_quote_left_open_stays_a_comment(tmp_path):
    """'#1,"a' would have csv read the next line into its field: a comment, in silence
    (it is no row of its own), and the row after it read."""
    path = points_file(tmp_path, b'id,x\n#1,"a\np,3\n')
    code, out, err = run_cli("grad", "x^2", "--points", path, "--format", "csv")
    assert (code, err) == (0, "")
    assert out.splitlines() == ["id,x,f,df/dx", "p,3.0,9.0,6.0"]


def test_a_quoted_field_may_go_on_in_a_line_starting_with_a_hash(tmp_path):
    """'1,"a' / '#b",2' is one row whose note is 'a\\n#b': its second line was passed over
    as a comment, and the quote then said not closed by the end of the file."""
    path = points_file(tmp_path, b'id,note,x\n1,"a\n#b",2\n')
    code, out, err = run_cli("grad", "x^2", "--points", path, "--format", "json")
    assert (code, err) == (0, "")
    [point] = json.loads(out)["points"]
    assert point["extra"] == {"id": "1", "note": "a\n#b"}
    assert (point["value"], point["gradient"]) == (4.0, {"x": 4.0})


# ----- 2. a byte order mark on a header after a comment line ---------------------------------

@pytest.mark.parametrize("before", [b"# made by a script\n", b"\n", b"# a\n\n# b\n"])
def test_a_mark_on_a_header_after_comments_is_no_part_of_a_name(tmp_path, before):
    """cat notes.txt a.csv: the mark of a.csv starts its header, after the comments: x was
    named '\\ufeffx' (no value for x, an error). x*y at (1, 2): 2, gradient (2, 1)."""
    path = points_file(tmp_path, before + BOM + b"x,y\n1,2\n")
    code, out, err = run_cli("grad", "x*y", "--points", path, "--format", "csv")
    assert (code, err) == (0, "")
    assert out.splitlines() == ["x,y,f,df/dx,df/dy", "1.0,2.0,2.0,2.0,1.0"]


def test_a_marked_passed_through_first_name_after_a_comment_is_written_bare(tmp_path):
    """A first column that passes through was written back with the mark in its name."""
    path = points_file(tmp_path, b"# c\n" + BOM + b"id,x\np,2\n")
    code, out, err = run_cli("grad", "x^2", "--points", path, "--format", "csv")
    assert (code, err) == (0, "")
    assert out.encode() == b"id,x,f,df/dx\np,2.0,4.0,4.0\n"


def test_a_marked_json_object_after_a_comment_is_json_lines(tmp_path):
    """The mark hid the '{' from the format's detection: read as CSV, columns
    '\\ufeff{"x":' and '2}'."""
    path = points_file(tmp_path, b"# c\n" + BOM + b'{"x": 2}\n{"x": 3}\n')
    code, out, err = run_cli("grad", "x^2", "--points", path, "--format", "csv")
    assert (code, err) == (0, "")
    assert out.splitlines() == ["x,f,df/dx", "2.0,4.0,4.0", "3.0,9.0,6.0"]
