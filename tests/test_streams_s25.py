"""Session 25, points streams: column names kept as read (only matching a variable reads
them as the expression does), rows held by the cell rather than the row (wide files),
a header written as a comment, a row separated otherwise than its format, and the
Latin-1, long-field and trailing-comma errors."""
from __future__ import annotations

import io

import pytest

from adcli import streams
from adcli.errors import PointsError
from adcli.streams import StreamReader

from conftest import run_cli


def error_of(*argv, stdin=""):
    """The one line on stderr of a run that must fail as bad input (exit 2, no output)."""
    code, out, err = run_cli(*argv, stdin=stdin)
    assert (code, out) == (2, ""), (code, out, err)
    assert err.count("\n") == 1, err
    return err


def reader(text: str, **options) -> StreamReader:
    return StreamReader(io.StringIO(text), **options)


# ----- 1. names as read; only a match with a variable normalises ---------------------------

# (pasted names NFKC would rewrite: superscript, micro sign, ligature, fullwidth, and a
# combining accent, which it would compose into one character)
ODD = ["area_m\u00b2", "time_\u00b5s", "\ufb01le", "\uff38", "temp_\u00b0C", "i\u0301d", "x"]


def test_the_names_written_are_the_header_byte_for_byte():
    r = reader(",".join(ODD) + "\n1,2,3,4,5,6,7\n")
    assert [n.encode() for n in r.written] == [n.encode() for n in ODD]
    # matching still reads them as the expression would: NFKC
    assert r.columns == ["area_m2", "time_\u03bcs", "file", "X", "temp_\u00b0C", "\u00edd", "x"]


def test_names_alike_only_once_normalised_are_two_columns():
    r = reader("x\u00b2,x2,x\n1,2,3\n")
    assert r.written == ["x\u00b2", "x2", "x"]
    assert r.matched(["x"]) == {"x": 2}


def test_two_columns_of_one_variable_are_an_error_naming_both():
    r = reader("a,x\u00b2,x2\n1,2,3\n")
    with pytest.raises(PointsError) as caught:
        r.matched(["x2", "a"])
    assert str(caught.value) == (
        "points file line 1: columns 2 ('x\u00b2') and 3 ('x2') are both the variable x2 "
        "as the expression writes it: rename one of them")


def test_json_keys_of_one_variable_are_said_as_keys():
    r = reader('{"x\u2081": 1, "x1": 2}\n')
    assert r.written == ["x\u2081", "x1"]
    with pytest.raises(PointsError, match=r"^points file line 1: keys 1 \('x\u2081'\) and 2 "):
        r.matched(["x1"])


def test_columns_option_names_are_kept_as_given():
    r = reader("1,2\n", columns=["x\u2081", "\ufb01"])
    assert (r.columns, r.written) == (["x1", "fi"], ["x\u2081", "\ufb01"])


@pytest.mark.parametrize("header, twice", [("x,x", "x"), ("x\u00b2, x\u00b2", "x\u00b2")])
def test_a_name_written_twice_is_still_repeated(header, twice):
    with pytest.raises(PointsError) as caught:
        reader(header + "\n1,2\n")
    assert str(caught.value) == f"points file line 1: the column name '{twice}' is repeated"


# ----- 2. rows handed on by the cell ------------------------------------------------------

def test_a_wide_files_rows_are_handed_on_by_the_cell():
    columns = 102
    header = ",".join(f"c{k}" for k in range(columns))
    r = reader(header + "\n" + ("1," * (columns - 1) + "1\n") * 12000)
    assert r.rows_held() == (1 << 19) // columns   # 5,140 rows: ~half a million cells
    handed = [line for line, _ in r.records() if r.waits()]
    # line 1 is the header: the rows are handed on every rows_held() lines
    assert handed == [1 + 5140, 1 + 2 * 5140]


def test_a_narrow_files_rows_are_held_as_a_whole_chunk():
    # (a chunk is at most 65,536 rows: a file of 8 columns or fewer is handed on as before)
    assert reader("a,b,c,d,e,f,g,h\n").rows_held() >= 65536
    r = reader("x,y\n" + "1,2\n" * 1000)
    assert not any(r.waits() for _ in r.records())


# ----- 3. a header written as a comment ------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("# y x\n2.0 1.0\n3 5\n", (1, "# y x", ["y", "x"])),      # numpy.savetxt's
    ("# made by me\n# y,x\n\n2,1\n", (2, "# y,x", ["y", "x"])),
    ("# y x\n2\t1\n", (1, "# y x", ["y", "x"])),
])
def test_a_comment_naming_every_field_is_kept(text, expected):
    assert reader(text).commented_header == expected


@pytest.mark.parametrize("text", ["# a b c\n2,1\n", "#\n2,1\n", "# y x\n# written by adcli's tests\n2,1\n",
                                  "2,1\n"])
def test_other_comments_are_no_header(text):
    assert reader(text).commented_header is None


# ----- 4. a row separated otherwise ------------------------------------------------------

@pytest.mark.parametrize("field, expected", [
    ("1 2", "the row looks space-separated: read it with --points-format plain"),
    ("1\t2", "the row looks tab-separated: read it with --points-format tsv"),
    ("1,5;2", "the row looks semicolon-separated: no points format reads that (a "
              "spreadsheet's export where the decimal point is a comma?): save it as CSV "
              "with decimal points"),
])
def test_a_row_that_splits_otherwise_is_said_so(field, expected):
    assert streams.split_otherwise([field], 2) == expected


@pytest.mark.parametrize("fields", [["1 2 3"], ["a b"], ["1", "2"], ["12"]])
def test_a_row_that_does_not_split_into_the_columns_gets_no_such_words(fields):
    assert streams.split_otherwise(fields, 2) is None


# ----- 5. Latin-1, a long field, a trailing comma ------------------------------------------

def test_a_latin_1_file_is_said_with_iconv(tmp_path):
    path = tmp_path / "latin1.csv"
    path.write_bytes(b"city,x\nM\xfcnchen,1\n")
    err = error_of("grad", "x^2", "--points", str(path))
    assert err == ("adcli: error: points file line 2: not UTF-8 text (column 2; if the file "
                   "is Latin-1 or Windows-1252, a spreadsheet's \"CSV\", convert it to UTF-8: "
                   "iconv -f latin1 -t utf-8 FILE | adcli ... --points -)\n")


def test_a_field_over_csvs_limit_is_said_as_a_long_line_is():
    err = error_of("grad", "x^2", "--points", "-", stdin="a,x\n" + "b" * 140000 + ",1\n")
    assert err == "adcli: error: points file line 2: a field longer than 131,072 characters\n"


@pytest.mark.parametrize("stdin", ["x,y,\n1,2,\n3,4,\n", "x\ty\t\n1\t2\t\n3\t4\t\n",
                                   "x,y,\n1,2\n3,4,\n"])
def test_an_empty_column_after_a_trailing_separator_is_no_column(stdin):
    code, out, err = run_cli("grad", "x*y", "--points", "-", "--format", "csv", stdin=stdin)
    assert (code, err) == (0, "")
    # f = xy, df/dx = y, df/dy = x
    assert out == "x,y,f,df/dx,df/dy\n1.0,2.0,2.0,2.0,1.0\n3.0,4.0,12.0,4.0,3.0\n"


def test_a_value_after_the_trailing_separator_is_a_field_too_many():
    code, out, err = run_cli("grad", "x*y", "--points", "-", "--format", "csv",
                             stdin="x,y,\n1,2,\n3,4,5\n")
    assert (code, err) == (2, "adcli: error: points file line 3: 3 fields, the header names "
                          "2: its column 3 has no name\n")
    assert out == "x,y,f,df/dx,df/dy\n1.0,2.0,2.0,2.0,1.0\n"   # the row before it


def test_a_middle_column_without_a_name_is_still_an_error():
    err = error_of("grad", "x*y", "--points", "-", stdin="x,,y\n1,2,3\n")
    assert err == "adcli: error: points file line 1: column 2 has no name\n"
