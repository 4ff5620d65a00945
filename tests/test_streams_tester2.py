"""tester2's findings 5-7 on points input and tables: adcli's CSV output with a tab in a
field did not read back (CSV did not quote the tab, and format detection took any tab for
TSV, even one inside a quoted CSV field); a table showed a cell holding a tab and one
holding a backslash and a t alike; points-file errors that sent the user the wrong way
(a file without a header, a header read as data under --columns)."""
from __future__ import annotations

import io

import pytest

from adcli import streams, tables

from conftest import adcli_on_terminal, run_cli, words


def error_of(*argv, stdin=""):
    """The one line on stderr of a run that must fail as bad input (exit 2, no output)."""
    code, out, err = run_cli(*argv, stdin=stdin)
    assert (code, out) == (2, ""), (code, out, err)
    assert err.count("\n") == 1, err
    return err


# ----- 5. a tab in a field: CSV quotes it, detection looks past quoted ones -----------------

ESCAPED_TSV = "na\\tme\tx\nv\\tw\t2\n"      # TSV: a tab (escaped) in a name and in a cell


@pytest.mark.parametrize("text", ["a\tb", "\t", "tab at end\t"])
def test_csv_quotes_a_field_holding_a_tab(text):
    from adcli.render import CsvWriter

    assert CsvWriter.field(text) == f'"{text}"'


def test_csv_output_with_a_tab_in_a_name_and_a_cell_reads_back():
    """grad x^2 --points esc.tsv --format csv | grad x^3 --points -: 'no value given for x
    (the points file has columns 'na', 'me,x,f,df/dx')'."""
    code, first, err = run_cli("grad", "x^2", "--points", "-", "--format", "csv",
                               stdin=ESCAPED_TSV)
    assert (code, err) == (0, "")
    assert first == '"na\tme",x,f,df/dx\n"v\tw",2.0,4.0,4.0\n'
    code, out, err = run_cli("grad", "x^3", "--points", "-", "--format", "csv", stdin=first)
    assert (code, err) == (0, "")
    # The columns f and df/dx pass through, so the function is g (README, Column names):
    # x^3 at 2 is 8, its derivative 3x^2 is 12.
    assert out == '"na\tme",f,df/dx,x,g,dg/dx\n"v\tw",4.0,4.0,2.0,8.0,12.0\n'


def test_a_tab_inside_a_quoted_csv_field_of_the_header_is_csv():
    code, out, err = run_cli("grad", "x^2", "--points", "-", "--format", "csv",
                             stdin='"a\tb",x\nfoo,2\n')
    assert (code, err) == (0, "")
    assert out == '"a\tb",x,f,df/dx\nfoo,2.0,4.0,4.0\n'


def test_a_tab_inside_a_quoted_field_of_headerless_input_is_csv():
    """--columns: the format is detected from the first row."""
    code, out, err = run_cli("eval", "x", "--points", "-", "--columns", "id,x",
                             "--format", "csv", stdin='"a\tb",1\nc,2\n')
    assert (code, err) == (0, "")
    assert out == 'id,x,f\n"a\tb",1.0,1.0\nc,2.0,2.0\n'


DETECTED = [
    ('"a\tb",x\n', "csv"),          # the only tab is quoted
    ('x,"a\tb"\n', "csv"),
    ('"a""\t",x\n', "csv"),         # a doubled quote inside the field does not close it
    ('"a\tb","c\td"\n', "csv"),
    ('"a"\tx\n', "tsv"),            # a tab outside the quotes: TSV, as before
    ('x\t"a,b"\n', "tsv"),
    ('say "hi\tthere"\n', "tsv"),   # a quote inside a field opens none (as csv reads it)
    ('"a\tb\n', "tsv"),             # a quote not closed on the line: as before
    ("x\ty\n", "tsv"),
    ("x,y\n", "csv"),
    ("x y\n", "plain"),
    ('{"x": "\t"}\n', "jsonl"),
]


def test_format_detection_ignores_tabs_inside_quoted_csv_fields():
    assert [streams._detect(line) for line, _ in DETECTED] == [fmt for _, fmt in DETECTED]
    # A TSV field never opens a quote: a TSV file whose first field starts with one is
    # still TSV (the tab after it is outside any CSV quote).
    code, out, err = run_cli("eval", "x", "--points", "-", "--format", "tsv",
                             stdin='id\tx\n"q\t1\n')
    assert (code, out, err) == (0, 'id\tx\tf\n"q\t1.0\t1.0\n', "")


# ----- 6. table cells: a tab and a backslash-t are told apart --------------------------------

CONTROL_CSV = 'id,x\n"tab\there",1\ntab\\there,2\n'   # a real TAB; a backslash and a t

# Drawn by hand: the cell holding a tab is quoted as trace's `at` line quotes it; the
# one holding a backslash and a t is shown as it is.
CONTROL_TABLE = """\
read as: x
┏━━━━━━━━━━━━━┳━━━━━┳━━━━━┳━━━━━━━┓
┃ id          ┃   x ┃   f ┃ ∂f/∂x ┃
┡━━━━━━━━━━━━━╇━━━━━╇━━━━━╇━━━━━━━┩
│ 'tab\\there' │ 1.0 │ 1.0 │   1.0 │
│ tab\\there   │ 2.0 │ 2.0 │   1.0 │
└─────────────┴─────┴─────┴───────┘
"""


def test_a_piped_table_tells_a_tab_from_a_backslash_t():
    code, out, err = run_cli("grad", "x", "--points", "-", stdin=CONTROL_CSV)
    assert (code, err) == (0, "")
    assert out == CONTROL_TABLE


def test_the_table_shows_a_cell_as_trace_s_at_line_does():
    code, out, err = run_cli("trace", "x", "--points", "-", stdin=CONTROL_CSV)
    assert code == 0, err
    ats = [line for line in out.splitlines() if line.startswith("at ")]
    assert ats == ["at id='tab\\there', x=1.0", "at id=tab\\there, x=2.0"]
    code, out, err = run_cli("grad", "x", "--points", "-", stdin=CONTROL_CSV)
    assert code == 0, err
    cells = [row.split("│")[1].strip() for row in out.splitlines() if row.startswith("│")]
    assert cells == [at[len("at id="):-len(", x=1.0")] for at in ats]


@pytest.mark.parametrize("columns", [80, 60, 40, 24, 16])
def test_a_terminal_table_tells_a_tab_from_a_backslash_t(tmp_path, columns):
    """On a terminal rich draws the table: a row per point at 80 and 60 columns, a column
    per point at 40 and 24, label = value lines at 16."""
    points = tmp_path / "ctl.csv"
    points.write_text(CONTROL_CSV, encoding="utf-8")
    code, rows = adcli_on_terminal(columns, "grad", "x", "--points", str(points))
    assert code == 0, rows
    shown = words(rows)
    assert "'tab\\there'" in shown and "tab\\there" in shown, rows
    assert shown.count("'tab\\there'") == 1 and shown.count("tab\\there") == 1, rows
    if columns >= 60:   # a row per point: each id on its own point's row
        assert [r.split("│")[1].strip() for r in rows if "tab" in r] == \
            ["'tab\\there'", "tab\\there"]


@pytest.mark.parametrize("text, expected", [
    ("tab\there", "'tab\\there'"),           # a tab: quoted, as Python quotes a string
    ("tab\\there", "tab\\there"),            # a backslash and a t: as it is
    ("C:\\data", "C:\\data"),
    ("\x1b[31mred", "'\\x1b[31mred'"),
    ("it's\t", '"it\'s\\t"'),
    ("a\\\tb", "'a\\\\\\tb'"),               # a backslash, then a tab: the backslash doubled
    ("'tab\\there'", "\"'tab\\\\there'\""),  # a text that starts with a quote is quoted too
    ('"q"', "'\"q\"'"),
    ("p 1, q", "p 1, q"),
    ("x₁", "x₁"),
    ("e\u0301", "e\u0301"),                  # a mark on its letter needs no escape
    ("\u0301e", "'\\u0301e'"),               # a bare one does
    ("", ""),
    ("1.5", "1.5"),
])
def test_what_a_table_cell_shows(text, expected):
    assert tables.shown(text) == expected


def test_table_cells_shown_differ_where_the_texts_differ():
    texts = ["tab\there", "tab\\there", "'tab\\there'", "'tab\there'", "a\\\tb", "a\\\\tb",
             "a\\tb", "a\tb", '"a\tb"', "\\x1b", "\x1b", "'\\x1b'", "\\u0301", "\u0301"]
    assert len({tables.shown(t) for t in texts}) == len(texts)


def test_quoted_cells_and_names_are_rich_s_bytes():
    """The rich-free console draws them (simple text), byte for byte as rich does."""
    keys = [tables.Column("i\td", ["tab\there", "tab\\there", "'q'"], "left")]
    values = [tables.Column("f", ["1.0", "2.0", "3.0"])]
    for width in (80, 30, 20, 12, tables.PIPE_WIDTH):
        plain_out, rich_out = io.StringIO(), io.StringIO()
        plain = tables._PlainConsole(plain_out, width)
        tables.print_points(plain, keys, values)
        tables.print_points(tables._RichConsole(rich_out, width), keys, values)
        assert plain_out.getvalue() == rich_out.getvalue(), width
        assert plain._rich is None
        assert "'i\\td'" in plain_out.getvalue() and "\"'q'\"" in plain_out.getvalue()


def test_a_column_name_holding_a_tab_is_quoted_in_a_table():
    code, out, err = run_cli("grad", "x", "--points", "-", stdin='"i\td",x\nA,1\n')
    assert (code, err) == (0, "")
    assert out.splitlines()[2] == "┃ 'i\\td' ┃   x ┃   f ┃ ∂f/∂x ┃"


# ----- 7. points-file errors that say what to do -------------------------------------------

def test_a_file_without_a_header_is_said_to_have_none():
    err = error_of("grad", "x*y", "--points", "-", stdin="1,2\n3,4\n")
    assert err == ("adcli: error: no value given for x and y: the points file seems to have "
                   "no header row (its first line is all numbers: '1', '2'): name its 2 "
                   "columns, in the file's order (not the expression's), with --columns "
                   "NAME1,NAME2, calling x and y the columns that hold them\n")
    # Only a header made of numbers only is taken for a missing one.
    for stdin in ["a,b\n1,2\n", "1,b\n1,2\n", "id,2\n1,2\n"]:
        err = error_of("grad", "x*y", "--points", "-", stdin=stdin)
        assert "(the points file has columns " in err and "--columns" not in err


@pytest.mark.parametrize("stdin, fixed, expected", [
    # more columns than missing variables: the rest need names too
    ("1,2,3\n", [], "name its 3 columns, in the file's order (not the expression's), with "
                   "--columns NAME1,NAME2,NAME3, calling x and y the columns that hold them"),
    ("1\t-2.5e3\t7\n", ["--at", "y=1"],
     "name its 3 columns, in the file's order (not the expression's), with --columns "
     "NAME1,NAME2,NAME3, calling x the column that holds it"),
    # fewer: --at for the rest
    ("5\n", [], "name its column with --columns x, and add --at y=..."),
])
def test_a_file_without_a_header_gets_a_columns_hint_of_its_size(stdin, fixed, expected):
    err = error_of("grad", "x*y", "--points", "-", *fixed, stdin=stdin)
    assert err.startswith("adcli: error: no value given for ")
    assert err.endswith(f": {expected}\n"), err
    assert "seems to have no header row" in err


HEADER_HINT = ("; line 1 looks like a header row (no field in it is a number): leave out "
               "--columns to take the column names from it")


def test_too_many_fields_speak_of_columns_not_a_header():
    err = error_of("grad", "x", "--points", "-", "--columns", "x", stdin="1,2\n")
    assert err == ("adcli: error: points file line 1: 2 fields, but --columns names "
                   "1 column\n")
    err = error_of("grad", "x", "--points", "-", "--columns", "x,y", stdin="1,2,3\n")
    assert err == ("adcli: error: points file line 1: 3 fields, but --columns names "
                   "2 columns\n")


def test_a_header_read_as_a_row_of_the_wrong_size_is_said_to_look_like_one():
    err = error_of("grad", "x", "--points", "-", "--columns", "x", stdin="x,y\n1,2\n")
    assert err == ("adcli: error: points file line 1: 2 fields, but --columns names "
                   "1 column" + HEADER_HINT + "\n")


def test_a_header_read_as_a_row_under_columns_is_said_to_look_like_one():
    err = error_of("grad", "x*y", "--points", "-", "--columns", "x,y", stdin="x,y\n1,2\n")
    assert err == ("adcli: error: points file line 1, column 'x': 'x' is not a number or "
                   "constant expression (it uses x)" + HEADER_HINT + "\n")
    # Not for a first row with a number in it, nor for a row after the first.
    err = error_of("eval", "x", "--points", "-", "--columns", "x,id", stdin="abc,2\n")
    assert err == ("adcli: error: points file line 1, column 'x': 'abc' is not a number or "
                   "constant expression (it uses abc)\n")
    code, out, err = run_cli("eval", "x", "--points", "-", "--columns", "id,x", "--format",
                             "csv", stdin="1,2\nid,x\n")
    assert (code, out) == (2, "id,x,f\n1,2.0,2.0\n")
    assert err == ("adcli: error: points file line 2, column 'x': 'x' is not a number "
                   "or constant expression (it uses x)\n")


def test_the_header_hint_names_the_line_after_comments():
    err = error_of("eval", "x", "--points", "-", "--columns", "id,x",
                   stdin="# made by hand\n\nid,x\nA,1\n")
    assert err == ("adcli: error: points file line 3, column 'x': 'x' is not a number or "
                   "constant expression (it uses x); line 3 looks like a header row (no "
                   "field in it is a number): leave out --columns to take the column names "
                   "from it\n")


def test_a_skipped_header_row_is_said_to_look_like_one():
    code, out, err = run_cli("eval", "x", "--points", "-", "--columns", "x", "--format",
                             "csv", "--skip-bad-rows", stdin="x\n2\n")
    assert (code, out) == (0, "x,f\n2.0,2.0\n")
    assert err == ("adcli: warning: skipped 1 bad row of the points file; first: points "
                   "file line 1, column 'x': 'x' is not a number or constant expression (it "
                   "uses x)" + HEADER_HINT + "\n")
