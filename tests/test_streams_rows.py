"""Every row of a points stream is a row like any other: the first one (under --columns, or
the first JSON object) is skippable as the later ones are; an unclosed CSV quote is one bad
row, not the rest of the file; JSON Lines keys the first object lacks are said; a '#' line
before the first headerless row is a comment said as the later ones are."""
from __future__ import annotations

import pytest

from adcli import streams

from conftest import run_cli, warnings_in

CSV = ("--format", "csv")
_SKIPPED = "adcli: warning: skipped {} of the points file; first: points file line {}"


class SKIPPED:  # "1 bad row", "2 bad rows"
    @staticmethod
    def format(count: int, first: str) -> str:
        return _SKIPPED.format(f"{count} bad row{'s' * (count != 1)}", first)
HASH_ROW = ("adcli: warning: points file line {} starts with '#', so it was skipped as a "
            "comment, though it reads as a row: to read such a row, quote its first field in "
            "CSV (\"#1\",...), as adcli's CSV output does")


def points_file(tmp_path, data: bytes) -> str:
    path = tmp_path / "points"
    path.write_bytes(data)
    return str(path)


@pytest.fixture
def short_lines(monkeypatch):
    """A line over 64 characters is too long (the real limit is 1,048,576)."""
    monkeypatch.setattr(streams, "_BLOCK_LINE", 8)
    monkeypatch.setattr(streams, "_MAX_LINE", 64)


# ----- 1. the first row is a row: skippable, under --columns and in JSON Lines ------------

def test_a_first_row_not_utf8_under_columns_is_skipped_as_a_later_one_is(tmp_path):
    """It stopped the run (exit 2) even with --skip-bad-rows; a later such row did not."""
    path = points_file(tmp_path, b"1,\xff\n3,4\n")
    code, out, err = run_cli("eval", "x*y", "--points", path, "--columns", "x,y", *CSV,
                             "--skip-bad-rows")
    assert (code, out) == (0, "x,y,f\n3.0,4.0,12.0\n")
    assert warnings_in(err) == [SKIPPED.format(1, "1: not UTF-8 text (column 3; if the file is Latin-1 or Windows-1252, a spreadsheet's \"CSV\", convert it to UTF-8: iconv -f latin1 -t utf-8 FILE | adcli ... --points -)")]


def test_a_too_long_first_row_under_columns_is_skipped_as_a_later_one_is(short_lines):
    stdin = "1," + "2" * 100 + "\n3,4\n"
    code, out, err = run_cli("eval", "x*y", "--points", "-", "--columns", "x,y", *CSV,
                             "--skip-bad-rows", stdin=stdin)
    assert (code, out) == (0, "x,y,f\n3.0,4.0,12.0\n")
    assert warnings_in(err) == [SKIPPED.format(1, "1: longer than 64 characters")]


@pytest.mark.parametrize("first, why", [
    (b'{"x": 1, "y": "\xff"}', "not UTF-8 text (column 16; if the file is Latin-1 or Windows-1252, a spreadsheet's \"CSV\", convert it to UTF-8: iconv -f latin1 -t utf-8 FILE | adcli ... --points -)"),
    (b'{"x": 1, "y":', "not JSON: the line ends early (Expecting value)"),
    (b'{"x": 1}{"x": 2}', "not JSON: Extra data at column 9"),
])
def test_a_bad_first_json_object_is_skipped_and_the_next_one_names_the_columns(
        tmp_path, first, why):
    path = points_file(tmp_path, first + b'\n{"x": 3, "y": 4}\n{"x": 5, "y": 6}\n')
    code, out, err = run_cli("eval", "x*y", "--points", path, *CSV, "--skip-bad-rows")
    assert (code, out) == (0, "x,y,f\n3.0,4.0,12.0\n5.0,6.0,30.0\n")
    assert warnings_in(err) == [SKIPPED.format(1, f"1: {why}")]
    code, out, err = run_cli("eval", "x*y", "--points", path, *CSV)
    assert (code, out, err) == (2, "", f"adcli: error: points file line 1: {why}\n")


def test_a_too_long_first_json_object_is_skipped(short_lines):
    stdin = '{"x": 1, "y": ' + "2" * 100 + '}\n{"x": 3, "y": 4}\n'
    code, out, err = run_cli("eval", "x*y", "--points", "-", *CSV, "--skip-bad-rows",
                             stdin=stdin)
    assert (code, out) == (0, "x,y,f\n3.0,4.0,12.0\n")
    assert warnings_in(err) == [SKIPPED.format(1, "1: longer than 64 characters")]


def test_json_lines_with_no_good_object_skipped_are_an_error():
    """(Decided in session 24: a run whose every row was skipped is no success: an error
    after the skip's warning, nothing written.)"""
    code, out, err = run_cli("eval", "x*y", "--points", "-", *CSV, "--skip-bad-rows",
                             stdin='{"x": 1,\n[1]\n')
    assert (code, out) == (2, "")
    assert warnings_in(err) == [SKIPPED.format(2, "1: not JSON: the line ends early "
                                                  "(Expecting property name enclosed in "
                                                  "double quotes)")]
    assert err.endswith("adcli: error: every row of the points file was bad (2 rows skipped "
                        "by --skip-bad-rows): there is no point to evaluate\n")


def test_a_header_that_cannot_be_read_stops_the_run_and_says_why(tmp_path):
    """Decided: a header stays fatal, --skip-bad-rows or not: without its names no row can
    be read. The error says so."""
    path = points_file(tmp_path, b"x,\xff\n1,2\n")
    code, out, err = run_cli("eval", "x*y", "--points", path, *CSV, "--skip-bad-rows")
    assert (code, out) == (2, "")
    assert err == ("adcli: error: points file line 1: not UTF-8 text (column 3; if the file is Latin-1 or Windows-1252, a spreadsheet's \"CSV\", convert it to UTF-8: iconv -f latin1 -t utf-8 FILE | adcli ... --points -); it is the "
                   "header row, which names the columns, so it cannot be skipped\n")


@pytest.mark.parametrize("names, rows", [("x,y\n", "1,2\n"), ("", '{"x": 1, "y": 2}\n')])
def test_a_too_long_comment_before_the_names_is_a_comment(short_lines, names, rows):
    """A too-long '#' line after the first row is a comment; before it, it stopped the run."""
    stdin = "# " + "c" * 100 + "\n" + names + rows
    code, out, err = run_cli("eval", "x*y", "--points", "-", *CSV, stdin=stdin)
    assert (code, out, err) == (0, "x,y,f\n1.0,2.0,2.0\n", "")


# ----- 2. an unclosed CSV quote is one bad row ---------------------------------------------

UNCLOSED = "x,y\n1,2\n3,\"4\n5,6\n7,8\n"


def test_an_unclosed_quote_is_a_bad_row_named_where_it_opened():
    """It read '4\\n5,6\\n7,8' as one cell (line 5): the rows after the quote were lost."""
    code, out, err = run_cli("eval", "x*y", "--points", "-", *CSV, stdin=UNCLOSED)
    assert (code, out) == (2, "x,y,f\n1.0,2.0,2.0\n")
    assert err == ("adcli: error: points file line 3: the quote opened at column 3 is not "
                   "closed by the end of the points file\n")


def test_an_unclosed_quote_is_skipped_and_the_rows_after_it_are_read():
    code, out, err = run_cli("eval", "x*y", "--points", "-", *CSV, "--skip-bad-rows",
                             stdin=UNCLOSED)
    assert (code, out) == (0, "x,y,f\n1.0,2.0,2.0\n5.0,6.0,30.0\n7.0,8.0,56.0\n")
    assert warnings_in(err) == [SKIPPED.format(1, "3: the quote opened at column 3 is not "
                                                  "closed by the end of the points file")]


def test_a_quote_unclosed_at_the_end_is_no_number():
    """'1,"2' at the end of the input was read as the point (1, 2), without a word."""
    code, out, err = run_cli("eval", "x*y", "--points", "-", *CSV, stdin='x,y\n1,"2\n')
    assert (code, out) == (2, "")
    assert err == ("adcli: error: points file line 2: the quote opened at column 3 is not "
                   "closed by the end of the points file\n")


def test_a_quote_closed_by_one_followed_by_more_text_is_unclosed():
    """Line 3's '"4"' opens and closes a field of its own: its first quote does not end the
    field of line 2 (csv would read on, giving '2\\n3,4"' and losing line 3)."""
    code, out, err = run_cli("eval", "x*y", "--points", "-", *CSV, "--skip-bad-rows",
                             stdin='x,y\n1,"2\n3,"4"\n5,6\n')
    assert (code, out) == (0, "x,y,f\n3.0,4.0,12.0\n5.0,6.0,30.0\n")
    assert warnings_in(err) == [SKIPPED.format(
        1, "2: the quote opened at column 3 is not closed: the quote ending it on line 3 "
           "is followed by neither a comma nor the line's end")]


def test_a_quoted_field_closes_within_1000_lines_or_its_row_is_bad():
    stdin = 'id,x\n"a,1\n' + "b,2\n" * 1000 + 'c",3\n'
    code, out, err = run_cli("eval", "x", "--points", "-", *CSV, "--skip-bad-rows",
                             stdin=stdin)
    assert (code, out) == (0, "id,x,f\n" + "b,2.0,2.0\n" * 1000 + "\"c\"\"\",3.0,3.0\n")
    assert warnings_in(err) == [SKIPPED.format(1, "2: the quote opened at column 1 is not "
                                                  "closed within 1,000 lines")]


def test_a_quoted_field_of_several_lines_closes_within_csvs_field_limit():
    """csv stops a field at 131,072 characters: the look for its end stops there too."""
    stdin = 'id,x\n"a\n' + ("b" * 999 + "\n") * 140 + '",1\n'
    code, out, err = run_cli("eval", "x", "--points", "-", *CSV, stdin=stdin)
    assert (code, out) == (2, "")
    assert err == ("adcli: error: points file line 2: the quote opened at column 1 is not "
                   "closed within 131,072 characters\n")


def test_a_quote_open_up_to_a_line_that_cannot_be_read_is_unclosed(tmp_path):
    path = points_file(tmp_path, b'x,y\n1,"2\n3,\xff"\n5,6\n')
    code, out, err = run_cli("eval", "x*y", "--points", path, *CSV, "--skip-bad-rows")
    assert (code, out) == (0, "x,y,f\n5.0,6.0,30.0\n")
    assert warnings_in(err) == [SKIPPED.format(2, "2: the quote opened at column 3 is not "
                                                  "closed before line 3, which cannot be "
                                                  "read")]


def test_a_field_over_csvs_limit_is_a_bad_row_that_can_be_skipped():
    """It stopped the run, --skip-bad-rows or not."""
    stdin = 'id,x\n"' + "a" * 140_000 + '",1\nb,2\n'
    code, out, err = run_cli("eval", "x", "--points", "-", *CSV, "--skip-bad-rows",
                             stdin=stdin)
    assert (code, out) == (0, "id,x,f\nb,2.0,2.0\n")
    assert warnings_in(err) == [SKIPPED.format(1, "2: a field longer than 131,072 characters")]


# ----- 3. JSON Lines keys that are no column -----------------------------------------------

def test_a_json_key_missing_from_the_first_object_is_said_with_its_line():
    """The first object's keys are the columns: 'id', first on line 2, was dropped without
    a word. (Needs pipeline.warn_skipped to warn source.left_out.)"""
    stdin = ('{"x": 1}\n{"x": 2, "id": "b"}\n{"x": 3}\n{"x": 4, "id": "d", "z": 0}\n'
             '{"x": 5, "z": 1}\n')
    code, out, err = run_cli("eval", "x", "--points", "-", *CSV, stdin=stdin)
    assert (code, out) == (0, "x,f\n" + "".join(f"{x}.0,{x}.0\n" for x in range(1, 6)))
    assert warnings_in(err) == [
        "adcli: warning: points file line 2: the key 'id' is not in the first object "
        "(line 1), whose keys are the columns, so it was left out (as were such keys on 2 "
        "more lines)"]


def test_a_json_key_with_spaces_or_a_subscript_gives_its_column_its_values():
    """The column of " x" is x, and of "y₁" y1 (as for a header), but the values were
    looked up under x and y1: none found."""
    stdin = '{" x": 1, "y\u2081": 2}\n{" x": 3, "y\u2081": 4}\n'
    code, out, err = run_cli("eval", "x*y1", "--points", "-", *CSV, stdin=stdin)
    assert (code, out, err) == (0, "x,y1,f\n1.0,2.0,2.0\n3.0,4.0,12.0\n", "")


# ----- 4. '#' before the first row under --columns ------------------------------------------

def test_a_hash_line_before_the_first_headerless_row_is_said_as_a_later_one_is():
    """Before the first row under --columns, '#1,2' under id,x was dropped without a word;
    after it, it was said."""
    code, out, err = run_cli("eval", "x", "--points", "-", "--columns", "id,x", *CSV,
                             stdin="#1,2\na,4\n#3,5\n")
    assert (code, out) == (0, "id,x,f\na,4.0,4.0\n")
    assert warnings_in(err) == [HASH_ROW.format("1 (and 1 more)")]


def test_hash_lines_before_the_first_row_are_read_in_the_format_of_the_rows():
    """The format is still detected from the first row (whitespace-separated here), and
    the comments before it are counted in the line numbers."""
    code, out, err = run_cli("eval", "x", "--points", "-", "--columns", "color,x", *CSV,
                             stdin="# made by a tool\n\n#ff0000 2\nred 4\n")
    assert (code, out) == (0, "color,x,f\nred,4.0,4.0\n")
    assert warnings_in(err) == [HASH_ROW.format(3)]
