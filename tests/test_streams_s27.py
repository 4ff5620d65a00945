"""Points input as an engineer scripting adcli in pipelines met it: a byte order mark
before a later row's text field, JSON nested deeply in a passed-through field, a header
read with the wrong --points-format, rows that end in a separator the header has not, a
first line '[1]'. Each through the CLI: stdout, stderr and status."""
from __future__ import annotations

import json

import pytest

from conftest import run_cli

EXIT_BAD_INPUT = 2
BOM = "\ufeff".encode()


def joined(tmp_path, data: bytes) -> str:
    """A file of these bytes (files joined with cat, each with its own mark): a file, as
    the CLI opens --points with utf-8-sig (a StringIO stdin keeps a first mark)."""
    path = tmp_path / "joined"
    path.write_bytes(data)
    return str(path)


# ----- 1. a byte order mark before a later row's text field ----------------------------------

@pytest.mark.parametrize("first, second", [
    (b"id,x\np0,2\n", b"p1,3\n"),
    (b"id\tx\np0\t2\n", b"p1\t3\n"),
    (b"id x\np0 2\n", b"p1 3\n"),
    (b"id,x\r\np0,2\r\n", b"p1,3\r\n"),
])
def test_a_mark_before_a_later_text_field_is_no_part_of_it(tmp_path, first, second):
    """cat a.csv b.csv, b headerless with a mark: the id was '\\ufeffp1'. x^2 at 2 and 3 is
    4 and 9."""
    path = joined(tmp_path, BOM + first + BOM + second)
    code, out, err = run_cli("eval", "x^2", "--points", path, "--format", "csv")
    assert (code, err) == (0, "")
    assert out.splitlines() == ["id,x,f", "p0,2.0,4.0", "p1,3.0,9.0"]


def test_a_mark_before_a_later_text_field_is_no_part_of_it_in_json_lines_output(tmp_path):
    path = joined(tmp_path, BOM + b"id,x\np0,2\n" + BOM + b"p1,3\n")
    code, out, err = run_cli("eval", "x^2", "--points", path, "--format", "jsonl")
    assert (code, err) == (0, "")
    assert [json.loads(line)["extra"] for line in out.splitlines()] == \
        [{"id": "p0"}, {"id": "p1"}]


def test_a_mark_before_a_quoted_field_leaves_it_quoted(tmp_path):
    """'\\ufeff"p1, q"' was a field of its own, the mark and the quotes in it, and the
    comma split it: a field too many."""
    path = joined(tmp_path, BOM + b"id,x\np0,2\n" + BOM + b'"p1, q",3\n')
    code, out, err = run_cli("eval", "x^2", "--points", path, "--format", "csv")
    assert (code, err) == (0, "")
    assert out.splitlines() == ["id,x,f", "p0,2.0,4.0", '"p1, q",3.0,9.0']


def test_a_mark_on_a_quoted_fields_next_line_is_kept(tmp_path):
    """Within a quoted field a line holds what it holds: only a row's start loses it."""
    path = joined(tmp_path, b'id,x\n"p0\n' + BOM + b'q",2\n')
    code, out, err = run_cli("eval", "x^2", "--points", path, "--format", "jsonl")
    assert (code, err) == (0, "")
    assert json.loads(out)["extra"] == {"id": "p0\n\ufeffq"}


def test_a_mark_before_a_later_text_field_under_columns(tmp_path):
    path = joined(tmp_path, BOM + b"p0,2\n" + BOM + b"p1,3\n")
    code, out, err = run_cli("eval", "x^2", "--points", path, "--columns", "id,x",
                             "--format", "csv")
    assert (code, err) == (0, "")
    assert out.splitlines() == ["id,x,f", "p0,2.0,4.0", "p1,3.0,9.0"]


# ----- 2. JSON nested deeper than json reads, in a passed-through field -----------------------

def deep_lines(depth: int, key: str = "") -> str:
    """Three JSON Lines rows, x = 1, 2, 3; the second's field d nested ``depth`` levels
    deep (the line's object one more): arrays, or objects of the key ``key`` if given."""
    if key:
        nested = f'{{"{key}": ' * depth + "1" + "}" * depth
    else:
        nested = "[" * depth + "]" * depth
    return '{"x": 1, "d": 1}\n' + f'{{"x": 2, "d": {nested}}}\n' + '{"x": 3, "d": 1}\n'


def too_deep(levels: int) -> str:
    return (f"points file line 2: JSON nested {levels:,} levels deep (arrays or objects one "
            "within another), deeper than can be read")


@pytest.mark.parametrize("key", ["", "a:b"])   # (a key with a colon: colons are counted)
def test_json_nested_deeper_than_json_reads_is_a_bad_row_after_the_rows_before_it(
        tmp_path, key):
    """It stopped the run with 'the input is too large to handle (RecursionError)', no
    line named, and row 1 (x^2 = 1) lost."""
    path = joined(tmp_path, deep_lines(5000, key).encode())
    code, out, err = run_cli("eval", "x^2", "--points", path, "--format", "csv")
    assert (code, out) == (EXIT_BAD_INPUT, "d,x,f\n1,1.0,1.0\n")
    assert err == f"adcli: error: {too_deep(5001)}\n"


def test_json_nested_deeper_than_json_reads_is_skipped_by_skip_bad_rows(tmp_path):
    """x^2 at 1 and 3 is 1 and 9."""
    path = joined(tmp_path, deep_lines(100_000).encode())
    code, out, err = run_cli("eval", "x^2", "--points", path, "--format", "csv",
                             "--skip-bad-rows")
    assert (code, out) == (0, "d,x,f\n1,1.0,1.0\n1,3.0,9.0\n")
    assert err == ("adcli: warning: skipped 1 bad row of the points file; first: "
                   f"{too_deep(100_001)}\n")


def test_the_depth_counts_brackets_outside_strings_alone():
    from adcli.streams import _too_deep

    text = '{"a": "[[[{{", "b": [[{"c": "]]\\"[["}]], "d": []}'
    assert str(_too_deep(text, 7)) == too_deep(4).replace("line 2", "line 7")


@pytest.mark.parametrize("key", ["", "a:b"])
def test_json_as_deep_as_json_reads_is_read_whole(key):
    """Objects with a colon in a key are counted for a repeated key, which recursed a frame
    a level (a RecursionError below json's own depth); 900 levels json reads."""
    import io

    from adcli.streams import StreamReader

    reader = StreamReader(io.StringIO(deep_lines(900, key)))
    records = list(reader.records())
    assert [line for line, _ in records] == [1, 2, 3]
    value, depth = records[1][1][reader.columns.index("d")], 0
    while isinstance(value, (list, dict)):
        value, depth = (value[0] if value else None) if isinstance(value, list) \
            else value[key], depth + 1
    assert depth == 900


def test_a_repeated_key_deep_within_is_still_found():
    import io

    from adcli.streams import StreamReader

    nested = '{"a": ' * 300 + '{"k": 1, "k": 2}' + "}" * 300
    reader = StreamReader(io.StringIO(f'{{"x": 1, "d": 1}}\n{{"x": 2, "d": {nested}}}\n'))
    _, row = list(reader.records())[1]
    assert str(row.error) == "points file line 2: the key 'k' is repeated"


def test_copied_maps_leaves_at_any_depth():
    from adcli.jsontext import copied

    value = 7.0
    for k in range(100_000):
        value = [value] if k % 2 else {"a": value, "b": "s"}
    copy = copied(value, lambda leaf: leaf * 2)
    for k in range(100_000):
        assert copy is not value
        copy, value = (copy[0], value[0]) if k % 2 == 0 else (copy["a"], value["a"])
    assert (copy, value) == (14.0, 7.0)


def test_colons_are_counted_at_any_depth():
    """One colon a key, and those in strings: 2 a level (key 'k:'), 1 in the last string."""
    from adcli.streams import _colons

    value = "a:b"
    for _ in range(100_000):
        value = {"k:": [value]}
    assert _colons(value) == 2 * 100_000 + 1


# ----- 3. a header read with the wrong --points-format ----------------------------------------

def misread(shown: str, name: str, format_: str) -> str:
    return (f"(the points file has columns '{shown}'; its fields look separated by {name}: "
            f"read it with --points-format {format_}, or drop --points-format to detect the "
            "format from the first line)")


@pytest.mark.parametrize("stdin, given, shown, name, format_", [
    ("x y\n1 2\n", "csv", "x y", "spaces", "plain"),     # was: rename the column 'x y'
    ("x\ty\n1\t2\n", "csv", "x\\ty", "tabs", "tsv"),
    ("x,y\n1,2\n", "tsv", "x,y", "commas", "csv"),
    ("x,y\n1,2\n", "plain", "x,y", "commas", "csv"),
    ("x y\n1 2\n", "tsv", "x y", "spaces", "plain"),
    ("x₁ y\n1 2\n", "csv", "x₁ y", "spaces", "plain"),    # (named as written)
])
def test_a_header_read_with_the_wrong_format_says_which_reads_it(stdin, given, shown, name,
                                                                 format_):
    code, out, err = run_cli("eval", "x1*y" if "₁" in stdin else "x*y", "--points", "-",
                             "--points-format", given, stdin=stdin)
    missing = "x1 and y" if "₁" in stdin else "x and y"
    at = "x1=...,y=..." if "₁" in stdin else "x=...,y=..."
    assert (code, out) == (EXIT_BAD_INPUT, "")
    assert err == (f"adcli: error: no value given for {missing}: add --at {at} "
                   f"{misread(shown, name, format_)}\n")


def test_the_format_named_reads_it():
    """As the hint says: x*y at (1, 2) is 2."""
    code, out, err = run_cli("eval", "x*y", "--points", "-", "--points-format", "plain",
                             "--format", "csv", stdin="x y\n1 2\n")
    assert (code, err, out) == (0, "", "x,y,f\n1.0,2.0,2.0\n")


def test_a_one_column_header_of_no_names_gets_no_format_hint():
    code, out, err = run_cli("eval", "x", "--points", "-", "--points-format", "csv",
                             stdin="total count\n1\n")
    assert (code, err) == (EXIT_BAD_INPUT, "adcli: error: no value given for x: add --at "
                           "x=... (the points file has columns 'total count')\n")


# ----- 4. rows that end in a separator under a header that does not ---------------------------

ENDS_IN = " (the last field is empty: a separator at the end of the row)"


@pytest.mark.parametrize("stdin, options, said", [
    ("x,y\n1,2,\n3,4,\n", (), "points file line 2: 3 fields, the header has 2"),
    ("x\ty\n1\t2\t\n", (), "points file line 2: 3 fields, the header has 2"),
    ("x\n1,\n", (), "points file line 2: 2 fields, the header has 1"),
    ("1,2,\n", ("--columns", "x,y"), "points file line 1: 3 fields, but --columns names 2 "
                                     "columns"),
])
def test_a_row_ending_in_a_separator_says_so(stdin, options, said):
    code, out, err = run_cli("eval", "x", "--points", "-", *options, stdin=stdin)
    assert (code, out, err) == (EXIT_BAD_INPUT, "", f"adcli: error: {said}{ENDS_IN}\n")


@pytest.mark.parametrize("stdin, said", [
    ("x,y\n1,2,3\n", "points file line 2: 3 fields, the header has 2; if a comma is a decimal "
                     "point (1,2 for 1.2), write 1.2: a comma separates CSV fields"),
    ("x,y,\n1,2,,\n", "points file line 2: 4 fields, the header names 2: its column 3 has no "
                      "name"),
])
def test_a_row_whose_extra_field_holds_a_value_or_is_not_last_is_not_said_to_end_so(stdin, said):
    code, out, err = run_cli("eval", "x", "--points", "-", stdin=stdin)
    assert (code, out, err) == (EXIT_BAD_INPUT, "", f"adcli: error: {said}\n")


def test_rows_ending_in_a_separator_are_skipped_with_the_reason(tmp_path):
    """x*y at (5, 6) is 30."""
    code, out, err = run_cli("eval", "x*y", "--points", "-", "--format", "csv",
                             "--skip-bad-rows", stdin="x,y\n1,2,\n5,6\n")
    assert (code, out) == (0, "x,y,f\n5.0,6.0,30.0\n")
    assert err == ("adcli: warning: skipped 1 bad row of the points file; first: points file "
                   f"line 2: 3 fields, the header has 2{ENDS_IN}\n")


# ----- 5. a first line that is a JSON array ------------------------------------------------------

ARRAY = ("its first line looks like a JSON array, and JSON Lines takes an object a line "
         '({"x": 1}, its keys the names), so the file was read as CSV')


@pytest.mark.parametrize("first, columns", [
    ("[1]", "'[1]'"),
    ("[1, 2]", "'[1', '2]'"),       # (CSV split it at its comma)
    ('["x", 1]', "'[\"x\"', '1]'"),
])
def test_a_first_line_that_is_a_json_array_says_json_lines_takes_objects(first, columns):
    code, out, err = run_cli("eval", "x", "--points", "-", stdin=f'{first}\n{{"x": 3}}\n')
    assert (code, out) == (EXIT_BAD_INPUT, "")
    assert err == ("adcli: error: no value given for x: add --at x=... (the points file has "
                   f"columns {columns}; {ARRAY})\n")


@pytest.mark.parametrize("first, columns", [("[a]", "'[a]'"), ("[1]\t[2]", "'[1]', '[2]'")])
def test_a_header_in_brackets_that_is_no_json_array_gets_no_json_hint(first, columns):
    code, out, err = run_cli("eval", "x", "--points", "-", stdin=f"{first}\n1\n")
    assert (code, err) == (EXIT_BAD_INPUT, "adcli: error: no value given for x: add --at "
                           f"x=... (the points file has columns {columns})\n")


def test_a_missing_variable_without_a_points_file_gets_no_points_hint():
    """The points hints look at the stream's header: without one there is none."""
    code, out, err = run_cli("grad", "x*y", "--at", "x=1")
    assert (code, out, err) == (EXIT_BAD_INPUT, "", "adcli: error: no value given for y: add "
                                "--at y=...\n")
