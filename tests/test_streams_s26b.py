"""Points files, the twenty-sixth session (b): JSON Lines numbers that pass through keep
their text as written (nanoseconds of a timestamp, 1E2, -0, 1e-400), and a JSON array or
a pretty-printed object is said to be no JSON Lines, with how to convert it."""
from __future__ import annotations

import json

import pytest

from conftest import run_cli

# Every number here would change as Python's float or int: its repr is another text.
_LINE = ('{"ts":1701763200.123456789,"x":2,"b":12345678901234567890.5,"c":1E2,"d":-0,'
         '"e":1e-400,"g":1e400}\n')
_EXTRA = ('"ts": 1701763200.123456789, "b": 12345678901234567890.5, "c": 1E2, "d": -0, '
          '"e": 1e-400, "g": 1e400')
_TEXTS = ["1701763200.123456789", "12345678901234567890.5", "1E2", "-0", "1e-400", "1e400"]


@pytest.mark.parametrize("fmt, separator", [("csv", ","), ("tsv", "\t")])
def test_json_lines_numbers_pass_through_as_written_in_csv_and_tsv(fmt, separator):
    code, out, err = run_cli("eval", "x^2", "--points", "-", "--format", fmt, stdin=_LINE)
    assert (code, err) == (0, "")
    # x = 2: f = x^2 = 4
    names = ["ts", "b", "c", "d", "e", "g", "x", "f"]
    assert out == separator.join(names) + "\n" + separator.join([*_TEXTS, "2.0", "4.0"]) + "\n"


def test_json_lines_numbers_pass_through_as_written_in_json_lines():
    code, out, err = run_cli("eval", "x^2", "--points", "-", "--format", "jsonl", stdin=_LINE)
    assert (code, err) == (0, "")
    assert out == '{"at": {"x": 2.0}, "extra": {' + _EXTRA + '}, "value": 4.0}\n'


def test_json_lines_numbers_pass_through_as_written_in_json():
    code, out, err = run_cli("eval", "x^2", "--points", "-", "--format", "json", stdin=_LINE)
    assert (code, err) == (0, "")
    assert out == ('{"expression": "x^2", "parsed": "x^2", "variables": ["x"], "points": '
                   '[{"at": {"x": 2.0}, "extra": {' + _EXTRA + '}, "value": 4.0}]}\n')
    json.loads(out)     # a number's text as written is JSON


def test_json_output_of_many_points_keeps_the_numbers_text():
    # 64 points and more are written by json's own encoder, which writes a float's repr
    stdin = "".join(f'{{"ts":0.10,"x":{k}}}\n' for k in range(1, 71))
    code, out, err = run_cli("eval", "x^2", "--points", "-", "--format", "json", stdin=stdin)
    assert (code, err) == (0, "")
    points = ", ".join(f'{{"at": {{"x": {k}.0}}, "extra": {{"ts": 0.10}}, "value": {k * k}.0}}'
                       for k in range(1, 71))
    assert out == ('{"expression": "x^2", "parsed": "x^2", "variables": ["x"], "points": ['
                   + points + "]}\n")


def test_numbers_within_a_passed_through_json_value_keep_their_text():
    code, out, err = run_cli("eval", "x", "--points", "-", "--format", "csv",
                             stdin='{"n":{"a":[1.10,-0,2E+3]},"x":3}\n')
    assert (code, err) == (0, "")
    assert out == 'n,x,f\n"{""a"": [1.10, -0, 2E+3]}",3.0,3.0\n'


def test_trace_json_keeps_a_passed_through_numbers_text():
    code, out, err = run_cli("trace", "x^2", "--points", "-", "--format", "json",
                             stdin='{"ts":1701763200.123456789,"x":2}\n')
    assert (code, err) == (0, "")
    assert '{"at": {"x": 2.0}, "extra": {"ts": 1701763200.123456789}, "nodes": [' in out


def test_variable_columns_are_still_read_as_float64():
    # -0 is -0.0: 1/x = -inf and d/dx (1/x) = -1/x^2 = -inf; 1e-400 is read as 0, said so
    code, out, err = run_cli("grad", "1/x", "--points", "-", "--format", "csv",
                             stdin='{"id":"a","x":-0}\n{"id":"b","x":1e-400}\n')
    assert code == 0
    assert out == "id,x,f,df/dx\na,-0.0,-inf,-inf\nb,0.0,inf,-inf\n"
    assert err == ("adcli: warning: points file line 2, column 'x': 1e-400 is below the "
                   "smallest float64 number (about 4.9e-324): read as 0\n"
                   "adcli: warning: '/' gave nan or inf at 2 of 2 points (a division by 0, "
                   "or overflow)\n")


_ARRAY = ("adcli: error: points file line {}: a JSON array, not JSON Lines (one object per "
          "line): convert it: jq -c '.[]' FILE | adcli ... --points -\n")
_SPREAD = ("adcli: error: points file line {}: an object spread over several lines, not "
           "JSON Lines (one object per line): write one per line: jq -c . FILE | adcli ... "
           "--points -\n")


@pytest.mark.parametrize("stdin, options, expected", [
    ('[{"x":1,"y":2},{"x":3,"y":4}]\n', (), _ARRAY.format(1)),
    ('[ {"x":1,"y":2},\n  {"x":3,"y":4} ]\n', (), _ARRAY.format(1)),
    ('[\n  {"x": 1, "y": 2}\n]\n', (), _ARRAY.format(1)),
    ('\n# points\n[{"x":1,"y":2}]\n', ("--points-format", "jsonl"), _ARRAY.format(3)),
    ('\ufeff[{"x":1,"y":2}]\n', ("--skip-bad-rows",), _ARRAY.format(1)),
    ('{\n  "x": 1,\n  "y": 2\n}\n', (), _SPREAD.format(1)),
    ('\n{ \n  "x": 1,\n  "y": 2\n}\n', ("--skip-bad-rows",), _SPREAD.format(2)),
])
def test_a_json_document_is_said_to_be_no_json_lines(stdin, options, expected):
    code, out, err = run_cli("grad", "x*y", "--points", "-", "--format", "csv", *options,
                             stdin=stdin)
    assert (code, out, err) == (2, "", expected)


@pytest.mark.parametrize("stdin, expected", [
    # a CSV header whose first name starts with '[' but no '{' after it
    ("[a],x\n5,2\n", "[a],x,f,df/dx\n5,2.0,4.0,4.0\n"),
    # a JSON Lines object on one line, with spaces before its '{'
    ('  {"x": 2}\n', "x,f,df/dx\n2.0,4.0,4.0\n"),
])
def test_what_only_starts_alike_reads_as_before(stdin, expected):
    # f = x^2, df/dx = 2x
    code, out, err = run_cli("grad", "x^2", "--points", "-", "--format", "csv", stdin=stdin)
    assert (code, out, err) == (0, expected, "")


def test_an_explicit_csv_format_reads_a_bracket_header_as_csv():
    # f = x
    code, out, err = run_cli("eval", "x", "--points", "-", "--points-format", "csv",
                             "--format", "csv", stdin="[{a},x\n5,2\n")
    assert (code, out, err) == (0, "[{a},x,f\n5,2.0,2.0\n", "")
