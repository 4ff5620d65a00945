"""A tester's findings on points input (an engineer scripting gradients over data): rows
lost to '#', a bad byte in a file, JSON Lines rows --skip-bad-rows did not skip, empty
input, TSV and CSV fields that did not survive a round trip, a BOM in @FILE."""
from __future__ import annotations

import json

import pytest

from adcli import streams

from conftest import run_cli, strict_json, warnings_in


def csv_rows(out: str) -> list[str]:
    return out.splitlines()


# ----- 1. a '#' line is a comment, as documented, and said if it reads as a row ---------

HASH_ROWS = ("adcli: warning: points file line 2{} starts with '#', so it was skipped as a "
             "comment, though it reads as a row: to read such a row, quote its first field "
             "in CSV (\"#1\",...), as adcli's CSV output does")


def test_a_comment_that_reads_as_a_row_is_said():
    """'#1,1' under 'id,x' was dropped as a comment without a word (exit 0): an id or a
    colour code starting with '#' lost rows silently. (Read as a row, a row commented out
    on purpose would be read in silently instead: comments stay comments, and are said.)"""
    code, out, err = run_cli("eval", "x", "--points", "-", "--format", "csv",
                             stdin="id,x\n#1,1\n#2,2\n3,3\n")
    assert (code, csv_rows(out)) == (0, ["id,x,f", "3,3.0,3.0"])
    assert warnings_in(err) == [HASH_ROWS.format(" (and 1 more)")]


def test_a_tsv_colour_row_is_said():
    code, out, err = run_cli("eval", "x", "--points", "-", "--format", "tsv",
                             stdin="color\tx\n#ff0000\t1\n3\t3\n")
    assert (code, out) == (0, "color\tx\tf\n3\t3.0\t3.0\n")
    assert warnings_in(err) == [HASH_ROWS.format("")]


@pytest.mark.parametrize("text", [
    "id,x\n1,1\n# a note\n2,2\n",            # one field, for two columns
    "id,x\n1,1\n# x, y\n2,2\n",              # two fields, x's no number
    "id,x\n1,1\n#3,\"4\n2,2\n",             # a quote: it would join the next line to it
    "x,y\n1,1\n#3,4\n2,2\n",                 # a variable's cell '#3': no number
    "id\tx\n1\t1\n#c\tabc\n2\t2\n",
])
def test_a_hash_line_that_is_no_good_row_is_a_comment_without_a_word(text):
    code, out, err = run_cli("eval", "x", "--points", "-", "--format", "csv", stdin=text)
    assert (code, err) == (0, "")
    assert [line.split(",")[-1] for line in csv_rows(out)[1:]] == ["1.0", "2.0"]


def test_csv_output_reads_back_whole_when_a_passed_through_field_starts_with_a_hash():
    """adcli's CSV wrote '#1,...' unquoted, so adcli | adcli lost the row."""
    stdin = 'id,x\n"#1",1\n" #2",2\n'
    code, out, err = run_cli("eval", "x", "--points", "-", "--format", "csv", stdin=stdin)
    assert csv_rows(out) == ["id,x,f", '"#1",1.0,1.0', '" #2",2.0,2.0']
    code, again, err = run_cli("eval", "f", "--points", "-", "--format", "csv", stdin=out)
    assert (code, err) == (0, "")
    assert csv_rows(again) == ["id,x,f,g", '"#1",1.0,1.0,1.0', '" #2",2.0,2.0,2.0']


# ----- 2. a byte that is no UTF-8 in a file: its row, as from stdin --------------------

def bad_byte_file(tmp_path, rows=20_000):
    path = tmp_path / "points.csv"
    path.write_bytes(b"x,y\n" + b"1,2\n" * rows + b"3,\xff\n" + b"5,6\n")
    return str(path)


def test_a_bad_byte_in_a_file_names_its_line_after_every_row_before_it(tmp_path):
    """It was 'the points file is not UTF-8 text', no line, and the rows in the 8 KiB
    decoded ahead were lost."""
    code, out, err = run_cli("eval", "x+y", "--points", bad_byte_file(tmp_path),
                             "--format", "csv")
    assert code == 2
    assert err == "adcli: error: points file line 20002: not UTF-8 text (column 3; if the file is Latin-1 or Windows-1252, a spreadsheet's \"CSV\", convert it to UTF-8: iconv -f latin1 -t utf-8 FILE | adcli ... --points -)\n"
    assert len(csv_rows(out)) == 1 + 20_000


def test_a_bad_byte_in_a_file_is_a_row_that_can_be_skipped(tmp_path):
    code, out, err = run_cli("eval", "x+y", "--points", bad_byte_file(tmp_path, 3),
                             "--format", "csv", "--skip-bad-rows")
    assert (code, csv_rows(out)[-1]) == (0, "5.0,6.0,11.0")
    assert len(csv_rows(out)) == 1 + 4
    assert warnings_in(err) == ["adcli: warning: skipped 1 bad row of the points file; "
                                "first: points file line 5: not UTF-8 text (column 3; if the file is Latin-1 or Windows-1252, a spreadsheet's \"CSV\", convert it to UTF-8: iconv -f latin1 -t utf-8 FILE | adcli ... --points -)"]


# ----- 3. JSON Lines rows --skip-bad-rows did not skip ------------------------------------

@pytest.mark.parametrize("line, why", [
    ("[1,2]", "not a JSON object"),
    ("garbage", "not JSON: Expecting value at column 1"),
    ('"str"', "not a JSON object"),
    ('{"x":1,"y":2', "not JSON: the line ends early (Expecting ',' delimiter)"),
    ('{"x":1}{"x":2}', "not JSON: Extra data at column 8"),
])
def test_a_malformed_json_lines_row_is_skipped_or_named(line, why):
    stdin = f'{{"x": 1}}\n{line}\n{{"x": 3}}\n'
    code, out, err = run_cli("eval", "x", "--points", "-", "--format", "csv", stdin=stdin)
    assert (code, out, err) == (2, "x,f\n1.0,1.0\n",
                                f"adcli: error: points file line 2: {why}\n")
    code, out, err = run_cli("eval", "x", "--points", "-", "--format", "csv",
                             "--skip-bad-rows", stdin=stdin)
    assert (code, out) == (0, "x,f\n1.0,1.0\n3.0,3.0\n")
    assert warnings_in(err) == ["adcli: warning: skipped 1 bad row of the points file; "
                                f"first: points file line 2: {why}"]


@pytest.mark.parametrize("fmt, row", [("csv", "{c},1"), ("jsonl", '{{"x": {c}, "y": 1}}')])
def test_a_too_long_line_can_be_skipped(monkeypatch, fmt, row):
    monkeypatch.setattr(streams, "_BLOCK_LINE", 8)
    monkeypatch.setattr(streams, "_MAX_LINE", 64)
    head = "x,y\n" if fmt == "csv" else ""
    lines = [row.format(c=c) for c in ("1", "2" + "0" * 100, "3", "4" + "0" * 300, "5")]
    stdin = head + "\n".join(lines) + "\n"
    skipped = run_cli("eval", "x+0*y", "--points", "-", "--format", "csv",
                      "--skip-bad-rows", stdin=stdin)
    first = len(head.splitlines()) + 2
    assert skipped[:2] == (0, "x,y,f\n1.0,1.0,1.0\n3.0,1.0,3.0\n5.0,1.0,5.0\n")
    assert warnings_in(skipped[2]) == [
        "adcli: warning: skipped 2 bad rows of the points file; first: points file "
        f"line {first}: longer than 64 characters"]
    code, out, err = run_cli("eval", "x+0*y", "--points", "-", "--format", "csv", stdin=stdin)
    assert (code, out, err) == (2, "x,y,f\n1.0,1.0,1.0\n", f"adcli: error: points file "
                                f"line {first}: longer than 64 characters\n")


def test_a_line_over_the_real_limit_is_skipped_in_a_file(tmp_path):
    path = tmp_path / "long.csv"
    path.write_text("x\n1\n" + "2" * (1 << 20) + "\n3\n")
    code, out, err = run_cli("eval", "x", "--points", str(path), "--format", "csv",
                             "--skip-bad-rows")
    assert (code, out) == (0, "x,f\n1.0,1.0\n3.0,3.0\n")
    assert "points file line 3: longer than 1,048,576 characters" in err


# ----- 4. empty input ---------------------------------------------------------------------

@pytest.mark.parametrize("args, stdin, out", [
    (["--columns", "x", "--format", "csv"], "", "x,f,df/dx\n"),
    (["--columns", "x", "--format", "csv"], "# only a note\n\n", "x,f,df/dx\n"),
    (["--points-format", "jsonl", "--format", "csv"], "", "x,f,df/dx\n"),
])
def test_empty_input_with_known_names_is_zero_points(args, stdin, out):
    assert run_cli("grad", "x", "--points", "-", *args, stdin=stdin) == (0, out, "")


def test_empty_json_lines_input_is_an_empty_points_list():
    code, out, err = run_cli("grad", "x*y", "--points", "-", "--points-format", "jsonl",
                             "--format", "json", stdin="")
    assert (code, err) == (0, "")
    assert strict_json(out)["points"] == []


@pytest.mark.parametrize("fmt", [[], ["--points-format", "csv"], ["--points-format", "tsv"]])
def test_empty_input_without_names_says_what_it_needs(fmt):
    code, out, err = run_cli("grad", "x", "--points", "-", *fmt, stdin="")
    assert (code, out) == (2, "")
    assert err == ("adcli: error: the points input is empty: CSV, TSV and plain input need "
                   "a header row of names (or --columns); JSON Lines needs neither\n")


# ----- 5. TSV round trip ------------------------------------------------------------------

def test_tsv_output_read_back_keeps_every_field():
    """A backslash doubled at every hop: output escaped it, input did not unescape."""
    label = "a\\b\tc\nd\re\\t"      # a backslash, a tab, LF, CR, and a backslash-t
    code, out, err = run_cli("eval", "x", "--points", "-", "--format", "tsv",
                             stdin=json.dumps({"label": label, "x": 1}) + "\n")
    assert out == "label\tx\tf\na\\\\b\\tc\\nd\\re\\\\t\t1.0\t1.0\n"
    code, again, err = run_cli("eval", "x", "--points", "-", "--format", "jsonl", stdin=out)
    assert (code, err) == (0, "")
    assert json.loads(again)["extra"] == {"label": label, "f": "1.0"}
    code, third, err = run_cli("eval", "x", "--points", "-", "--format", "tsv", stdin=out)
    assert third.splitlines()[1].split("\t")[0] == "a\\\\b\\tc\\nd\\re\\\\t"


def test_tsv_input_keeps_a_backslash_tsv_output_would_not_write():
    code, out, err = run_cli("eval", "x", "--points", "-", "--format", "jsonl",
                             stdin="p\tx\nC:\\data\\x1\t1\n")
    assert json.loads(out)["extra"] == {"p": "C:\\data\\x1"}


# ----- 6. CR inside a quoted CSV field ----------------------------------------------------

@pytest.mark.parametrize("ending", ["\r\n", "\n", "\r"])
def test_a_quoted_csv_field_keeps_its_carriage_returns(tmp_path, ending):
    path = tmp_path / "points.csv"
    path.write_bytes(ending.join(["x,label", '1,"a\r\nb\rc"', "2,d", ""]).encode())
    code, out, err = run_cli("eval", "x", "--points", str(path), "--format", "jsonl")
    assert (code, err) == (0, "")
    assert [json.loads(line)["extra"]["label"] for line in out.splitlines()] == \
        ["a\r\nb\rc", "d"]


def test_a_crlf_file_of_numbers_is_still_read_in_blocks(tmp_path):
    import io

    text = "x,y\r\n" + "".join(f"{k},{k / 3!r}\r\n" for k in range(10))
    stream = io.TextIOWrapper(io.BytesIO(text.encode()), encoding="utf-8-sig")
    reader = streams.StreamReader(stream)
    blocks = [b for b in reader.batches(4, numeric=True) if not isinstance(b, tuple)]
    assert [len(b) for b in blocks] == [4, 4, 2]


# ----- 7. a BOM before an @FILE expression ------------------------------------------------

def test_an_expression_file_with_a_byte_order_mark_is_read(tmp_path):
    path = tmp_path / "f.txt"
    path.write_bytes("\ufeffx^2\n".encode())
    expected = (0, "x,f,df/dx\n3.0,9.0,6.0\n", "")
    assert run_cli("grad", f"@{path}", "--at", "x=3", "--format", "csv") == expected
    assert run_cli("grad", "@-", "--at", "x=3", "--format", "csv",
                   stdin="\ufeffx^2\n") == expected


def test_a_cell_in_a_message_is_quoted_as_typed():
    """Messages quoted user text with repr, which doubles a backslash: a cell \\a read
    '\\\\a' in the error, not the '\\a' of the file (one quoting for every message:
    errors.quote)."""
    code, out, err = run_cli("grad", "x", "--points", "-", stdin="x\n\\a\n")
    assert (code, out) == (2, "")
    # (the parser's reason, as --at x='\a' gives it, then the cell as typed)
    assert err == ("adcli: error: points file line 2, column 'x': LaTeX's \\a is not read "
                   "here: write the expression itself (\\frac{a}{b}, \\sqrt{x}, \\cdot, "
                   "\\sin and the Greek letters are read): '\\a'\n")
