"""Points streams read and written in blocks: numpy parses a block of plain numeric lines in
one call, and the CSV/TSV/plain writers format a chunk in one call. Both must give exactly
what the general row-by-row paths give (values to the bit, line numbers, messages, skipped
rows, the rows before an error), and what Python's csv module and repr give."""
from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import os
import struct
import subprocess
import sys
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adcli import render, streams
from adcli.errors import AdcliError
from adcli.points import PointSource
from adcli.streams import StreamReader

from conftest import run_cli, strict_json, warnings_in


def _general(self, size, numeric):
    return self.records()


def read(text: str, variables=("x", "y"), *, general=False, translated=True, chunk=65536,
         skip=False, fmt=None, columns=None):
    """Everything a PointSource makes of ``text``: per variable the values (as bits, so
    -0.0 and nan compare), the passed-through columns, the skipped rows' messages, and the
    error that stopped the reading (or None). ``translated``: a file opened as the CLI
    opens one (CRLF read as LF); else a StringIO, where a CR stays in the text."""
    stream = io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8-sig") \
        if translated else io.StringIO(text)
    with mock.patch.object(StreamReader, "batches", _general) if general \
            else mock.patch.object(StreamReader, "batches", StreamReader.batches):
        return read_stream(stream, variables, chunk=chunk, skip=skip, fmt=fmt,
                           columns=columns)


def read_stream(stream, variables=("x", "y"), chunk=65536, skip=False, fmt=None, columns=None):
    """read()'s result for an open stream."""
    source = PointSource(stream=stream, chunk_size=chunk, skip_bad_rows=skip,
                         stream_format=fmt, columns=columns)
    values, extra, error = {}, {}, None
    try:
        source.use(variables)
        for part in source.chunks():
            for name in source.variables:
                values.setdefault(name, []).extend(
                    struct.pack("<d", v) for v in part.values[name].tolist())
            for name, cells in part.extra.items():
                extra.setdefault(name, []).extend(cells)
    except AdcliError as caught:
        error = str(caught)
    return values, extra, list(source.skipped), error


def same_both_ways(text: str, **options):
    fast = read(text, **options)
    assert fast == read(text, general=True, **options)
    return fast


def blocks_read_fast(text: str, fmt=None) -> int:
    """How many numpy arrays the block reader made of the text (each column a number)."""
    reader = StreamReader(io.StringIO(text), fmt)
    return sum(isinstance(item, np.ndarray) for item in reader.batches(4, numeric=True))


def bits(*values: float) -> list[bytes]:
    return [struct.pack("<d", v) for v in values]


# ----- reading -------------------------------------------------------------------------

def test_a_plain_numeric_file_is_read_in_blocks_with_the_values_float_gives():
    rows = [("-0", "-0.0"), ("nan", "-inf"), ("inf", "Infinity"), ("1e-300", "1e300"),
            ("2", " 2 "), ("+3.5", ".5"), ("5.", "1E+05"), ("5e-324", "1e999"), ("1e-400", "-NaN")]
    text = "x,y\n" + "".join(f"{a},{b}\n" for a, b in rows)
    assert blocks_read_fast(text) == 3          # 9 rows in blocks of 4: nothing fell back
    values, extra, skipped, error = same_both_ways(text, chunk=4)
    assert (extra, skipped, error) == ({}, [], None)
    assert values["x"] == bits(*(float(a) for a, _ in rows))
    assert values["y"] == bits(*(float(b) for _, b in rows))
    assert values["x"][0] == bits(-0.0)[0] and math.isnan(struct.unpack("<d", values["y"][-1])[0])


def test_blank_and_comment_lines_do_not_stop_a_block_being_read_in_one_call():
    text = "x,y\n1,2\n\n  \n# a note\n  # another\n3,4\n"
    assert blocks_read_fast(text) == 2
    values, _, _, error = same_both_ways(text, chunk=4)
    assert values["y"] == bits(2.0, 4.0) and error is None


@pytest.mark.parametrize("fmt, separator", [("csv", ","), ("tsv", "\t"), ("plain", " ")])
def test_every_separated_format_is_read_in_blocks(fmt, separator):
    text = f"x{separator}y\n" + "".join(f"{i / 7!r}{separator}{-i * 1e-7!r}\n" for i in range(10))
    assert blocks_read_fast(text, fmt) == 3
    values, *_ = same_both_ways(text, fmt=fmt, chunk=4)
    assert values["x"] == bits(*(i / 7 for i in range(10)))


@pytest.mark.parametrize("text", [
    "x,y\n1,2\r\n3,4\r\n",                         # CRLF
    "x,y\n\n1,2\n   \n# a comment\n  # indented\n3,4\n\n",   # blank and comment lines
    "x,y\n1,2\n3,4,5\n6,7\n",                       # too many fields: the line is named
    "x,y\n1,2\n3\n6,7\n",                           # too few
    "x,y\n1,2\n3,\n",                               # an empty field
    "x,y\n1,2\n1_000,2\n",                          # float() reads underscores
    "x,y\n\u22121.5,2\n",                           # a Unicode minus
    "x,y\n\u0661\u0662,2\n",                        # Arabic-Indic digits, which float() reads
    "x,y\n\u00a01.5\u00a0,2\n",                     # no-break spaces around a number
    "x,y\npi/4,2\n",                                # a constant expression
    "x,y\n1,2\n0x10,2\n",                           # not a number
    "x,y\n1,2\nnan(1),2\n",
    "x,y\n1,abc\n",
    "x,y\n1,y\n",                                   # a variable in a cell
    'x,y\n"1.5",2\n3,"4"\n',                        # quoted fields
    'x,y\n1,2\n"3\n.5",4\n5,6\n',                   # a quoted line break
    'x,y\n1,"2\n',                                  # an unclosed quote
    "x,y\n1,2\n1 2,3\n",                            # a space inside a field
    "x,y\n1,2\n1\x00,3\n",                          # NUL
    "x,y\n1,2\n1\x0c,3\n",                          # form feed (whitespace to float())
    "x,y\n1,2\n3,4",                                # no line break at the end
    "x,y\n1,2\n#3,4\n 5,6 \n",
    "x,y\n1 , 2\n\t3\t,\t4\t\n",
])
@pytest.mark.parametrize("chunk", [1, 2, 65536])
@pytest.mark.parametrize("skip", [False, True])
def test_unusual_csv_reads_exactly_as_the_general_path(text, chunk, skip):
    for translated in (True, False):
        same_both_ways(text, chunk=chunk, skip=skip, translated=translated)


@pytest.mark.parametrize("text", [
    "x y\n1 2\n 3   4 \n5\t6\n",
    "x y\n1 2\n3\x0b4\n5\x1c6\n",                    # whitespace str.split() splits on
    "x y\n1 2\n3\u20034\n",                          # an em space
    "x y\n1 2\n3 4 5\n",
    "x y\n1\u00a02\n",
])
@pytest.mark.parametrize("chunk", [1, 65536])
def test_unusual_plain_input_reads_exactly_as_the_general_path(text, chunk):
    same_both_ways(text, chunk=chunk, fmt="plain")


@pytest.mark.parametrize("text", [
    "x\ty\n1\t2\n 3 \t 4 \n",
    "x\ty\n1\t2\n3\t4\t\n",
    "x\ty\n1\t2\n3 4\t5\n",
    "x\ty\n1,5\t2\n",
])
def test_unusual_tsv_reads_exactly_as_the_general_path(text):
    same_both_ways(text, chunk=2, fmt="tsv")


def test_headerless_input_and_pass_through_columns_read_exactly_as_the_general_path():
    values, extra, _, error = same_both_ways("1,2\n3,4\n5,6\n", columns=["x", "y"], chunk=2)
    assert values["y"] == bits(2.0, 4.0, 6.0) and error is None
    values, extra, _, _ = same_both_ways("id,x,y\na,1,2\n\"b,c\",3,4\n d ,5,6\n", chunk=2)
    assert extra == {"id": ["a", "b,c", " d "]} and values["x"] == bits(1.0, 3.0, 5.0)
    values, *_ = same_both_ways("y,x\n1,2\n3,4\n", variables=("x",), chunk=1)
    assert values == {"x": bits(2.0, 4.0)}


def test_the_rows_before_a_bad_row_are_kept_and_the_bad_row_is_named_by_its_line():
    text = "x,y\n" + "1,2\n" * 9 + "\n# note\n3,oops\n4,5\n"
    values, _, _, error = same_both_ways(text, chunk=4)
    assert len(values["x"]) == 9
    assert error == "points file line 13, column 'y': 'oops' is not a number or constant " \
                    "expression (it uses oops)"
    values, _, skipped, error = same_both_ways(text, chunk=4, skip=True)
    assert len(values["x"]) == 10 and error is None and len(skipped) == 1


def test_a_file_that_stops_being_utf8_keeps_the_rows_read_before(tmp_path):
    """Every row before the bad one, and its line: the file's decoder no longer fails a
    block of 8 KiB ahead of the rows (see test_streams_findings.py)."""
    data = b"x,y\n" + b"1,2\n" * 50_000 + b"3,\xff\n"
    stream = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    source = PointSource(stream=stream)
    source.use(["x", "y"])
    rows = 0
    with pytest.raises(AdcliError, match="points file line 50002: not UTF-8 text"):
        for chunk in source.chunks():
            rows += chunk.n
    assert rows == 50_000


@pytest.mark.parametrize("length", [3, 7, 8, 9, 16, 17, 63, 64, 65, 200])
def test_long_lines_are_read_in_pieces_and_joined_as_readline_reads_them(monkeypatch, length):
    monkeypatch.setattr(streams, "_BLOCK_LINE", 8)
    monkeypatch.setattr(streams, "_MAX_LINE", 64)
    cell = "1" + "0" * (length - 1)
    text = "x,y\n1,2\n" + f"{cell},{cell}\n" + "3,4\n"
    fast = read(text, chunk=3)
    monkeypatch.setattr(streams, "_BLOCK_LINE", 64)     # one piece at most
    assert fast == read(text, chunk=3) == read(text, general=True)
    if 2 * length + 2 > 64:
        assert fast[3] == "points file line 3: longer than 64 characters"
    else:
        assert fast[0]["x"] == bits(1.0, float(cell), 3.0)


CELLS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(-10**20, 10**20).map(str),
    st.sampled_from(["-0", "nan", "-inf", "Infinity", "1e-300", "1e300", "1e999", "5e-324",
                     " 2 ", "\t2", "+.5", "5.", "1_0", "\u22121", "pi", "x", "", "abc", '"1"',
                     '"1,5"', "1e", "١", "\u00a01", "0x1", "#1"]),
)
LINES = st.one_of(
    st.lists(CELLS, min_size=2, max_size=2).map(",".join),
    st.lists(CELLS, min_size=1, max_size=3).map(",".join),
    st.sampled_from(["", "  ", "# comment", "1,2\r"]),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(LINES, max_size=12), st.integers(1, 5), st.booleans(), st.booleans())
def test_random_csv_reads_exactly_as_the_general_path(lines, chunk, skip, translated):
    same_both_ways("x,y\n" + "\n".join(lines) + "\n", chunk=chunk, skip=skip,
                   translated=translated)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=2,
                         max_size=2), min_size=1, max_size=20))
def test_random_numbers_read_as_the_csv_module_and_float_read_them(rows):
    text = "x,y\n" + "".join(f"{a!r},{b!r}\n" for a, b in rows)
    reference = [[float(v) for v in row] for row in list(csv.reader(io.StringIO(text)))[1:]]
    values, *_ = read(text, chunk=7)
    assert values["x"] == bits(*(r[0] for r in reference))
    assert values["y"] == bits(*(r[1] for r in reference))


# ----- writing -------------------------------------------------------------------------

SPECIAL = [-0.0, 0.0, math.nan, math.inf, -math.inf, 1e-300, 1e300, 5e-324, 2.0, 1e16, 1e-5,
           0.1, 1.7976931348623157e308, -2.2250738585072014e-308, 123456789.125, 1 / 3]


def _points_file(tmp_path, pairs, ids=None):
    path = tmp_path / "points.csv"
    with open(path, "w", newline="", encoding="utf-8") as file:
        out = csv.writer(file, lineterminator="\n")
        out.writerow((["id"] if ids else []) + ["x", "y"])
        for k, (x, y) in enumerate(pairs):
            out.writerow(([ids[k]] if ids else []) + [repr(x), repr(y)])
    return str(path)


def _general_writer():
    return mock.patch.object(render._Writer, "_floats", lambda self, rows: False)


@pytest.mark.parametrize("fmt", ["csv", "tsv", "plain"])
def test_written_lines_equal_the_general_writer_and_python_repr(tmp_path, fmt):
    pairs = [(x, y) for x in SPECIAL for y in SPECIAL[::3]]
    ids = [f"p{k}" if k % 5 else f'a "b", {k}' for k in range(len(pairs))]
    path = _points_file(tmp_path, pairs, ids)
    argv = ("grad", "x*y", "--points", path, "--format", fmt)
    code, out, err = run_cli(*argv)
    with _general_writer():
        assert run_cli(*argv) == (code, out, err)
    assert code == 0
    # An independent reference: the csv module (or the separator), and repr of each float.
    rows = [[i, repr(x), repr(y), repr(x * y), repr(y), repr(x)] for i, (x, y) in
            zip(ids, pairs)]
    if fmt == "csv":
        expected = io.StringIO()
        writer = csv.writer(expected, lineterminator="\n")
        writer.writerow(["id", "x", "y", "f", "df/dx", "df/dy"])
        writer.writerows(rows)
        assert out == expected.getvalue()
    elif fmt == "tsv":
        assert out == "".join("\t".join(r) + "\n" for r in [["id", "x", "y", "f", "df/dx",
                                                               "df/dy"], *rows])
    else:
        assert out == "".join(" ".join([r[0], *r[3:]]) + "\n" for r in rows)


def test_many_chunks_without_pass_through_equal_the_general_writer(tmp_path):
    rng = np.random.default_rng(3)
    values = np.concatenate([rng.standard_normal(40_000) * 10.0 ** rng.integers(-300, 300,
                                                                                40_000),
                             np.array(SPECIAL)])
    pairs = list(zip(values.tolist(), values[::-1].tolist()))
    path = _points_file(tmp_path, pairs)
    for fmt in ("csv", "plain"):
        argv = ("grad", "x*y", "--points", path, "--format", fmt)
        code, out, err = run_cli(*argv)
        with _general_writer():
            assert run_cli(*argv) == (code, out, err)
        lines = out.splitlines()
        assert len(lines) == len(pairs) + (fmt == "csv")
        x, y = pairs[-1]
        assert lines[-1] == (f"{x!r},{y!r},{x * y!r},{y!r},{x!r}" if fmt == "csv"
                             else f"{x * y!r} {y!r} {x!r}")


@pytest.mark.parametrize("command, expression", [("grad", "x*y"), ("hessian", "x^2*y"),
                                                 ("jacobian", "x*y; x-y"), ("eval", "x/y")])
@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_json_points_equal_the_general_writer_and_the_json_module(tmp_path, fmt, command,
                                                                  expression):
    """The JSON template filled in C writes what json.dumps of each point dict writes,
    nan and infinities as strings, over several slices of points and with warnings."""
    rng = np.random.default_rng(4)
    values = np.concatenate([rng.standard_normal(20_000) * 10.0 ** rng.integers(-300, 300,
                                                                                20_000),
                             np.array(SPECIAL)])
    path = _points_file(tmp_path, list(zip(values.tolist(), values[::-1].tolist())))
    argv = (command, *expression.split("; "), "--points", path, "--format", fmt)
    code, out, err = run_cli(*argv)
    with _general_writer():
        assert run_cli(*argv) == (code, out, err)
    points = (json.loads(out)["points"] if fmt == "json"
              else [json.loads(line) for line in out.splitlines()])
    assert len(points) == len(values)
    spelled = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}
    for point, x, y in zip(points[-len(SPECIAL):], SPECIAL, values[::-1][-len(SPECIAL):]):
        at = [spelled.get(v, v) if isinstance(v, str) else v for v in point["at"].values()]
        assert struct.pack("<2d", *at) == struct.pack("<2d", x, y)


def test_digits_and_a_points_file_with_no_variables_use_the_general_writer(tmp_path):
    path = _points_file(tmp_path, [(1 / 3, 2.0), (math.nan, -0.0)])
    code, out, _ = run_cli("grad", "x*y", "--points", path, "--format", "csv", "--digits", "3")
    assert out == "x,y,f,df/dx,df/dy\n0.3333333333333333,2.0,0.667,2,0.333\n" \
                  "nan,-0.0,nan,-0,nan\n"


@pytest.mark.parametrize("text, line, which", [
    (b'\n"', 2, "a column"), (b'"', 1, "a column"), (b'x,,y\n1,2,3\n', 1, "column 2"),
    (b'# c\n""\n1\n', 2, "a column"), (b',x,y\n0,1,2\n', 1, "the first column")])
def test_a_header_without_names_is_named_with_its_line(tmp_path, text, line, which):
    """A header whose fields are empty, or that reads as no field at all (an unclosed quote
    alone), is one error naming the line: it was an internal error (StopIteration). A
    first column alone without a name is what pandas' to_csv writes for its index."""
    path = tmp_path / "points.csv"
    path.write_bytes(text)
    code, out, err = run_cli("grad", "x*y", "--points", str(path), "--format", "json")
    assert (code, out) == (2, "")
    pandas = (" (an index, as pandas' to_csv writes one? write the file with index=False, "
              "or name the column)") if which == "the first column" else ""
    assert err == f"adcli: error: points file line {line}: {which} has no name{pandas}\n"


@pytest.mark.parametrize("text, hint", [
    ("a,b\n1,2\n", "(the points file has columns 'a', 'b')"),
    # A spreadsheet's CSV where decimals are written with commas: one column, 'x;y'.
    ("x;y\n1,5;2\n", "(the points file has columns 'x;y'; its fields look separated by ';': "
                     "adcli reads commas, tabs or spaces between fields, and a decimal point, "
                     "not a comma)"),
])
def test_a_points_file_without_the_variables_says_what_columns_it_has(text, hint):
    code, out, err = run_cli("grad", "x*y", "--points", "-", stdin=text)
    assert (code, out) == (2, "")
    assert err == f"adcli: error: no value given for x and y: add --at x=...,y=... {hint}\n"


def _beyond(text: str, general: bool, fmt=None):
    """The note of cells beyond float64's range that reading ``text`` leaves."""
    source = PointSource(stream=io.StringIO(text), stream_format=fmt)
    with mock.patch.object(StreamReader, "batches", _general if general
                           else StreamReader.batches):
        source.use(["x", "y"])
        for _ in source.chunks():
            pass
    return source.beyond


BIG = "1" + "0" * 400


@pytest.mark.parametrize("text, said", [
    ("x,y\n\n# a comment\n1,2\n3,1e400\n-1E+999,0\n",
     "points file line 5, column 'y': 1e400 is beyond the largest float64 number (about "
     "1.8e308): read as inf (and 1 more such cell)"),
    ("x y\n1e-400 1\n", "points file line 2, column 'x': 1e-400 is below the smallest "
                        "float64 number (about 4.9e-324): read as 0"),
    (f"x\ty\n1\t{BIG}\n", "points file line 2, column 'y': 100000000000…00000000 "
                          "(401 characters) is beyond the largest float64 number (about "
                          "1.8e308): read as inf"),
    # numbers that are 0 or inf as written: nothing to say
    ("x,y\n0,0.0\n0e-999,inf\n0.000000000000000000e+00,-inf\n4.9e-324,1.7e308\n", None),
])
def test_a_cell_beyond_float64_is_said_with_its_line_by_both_readers(text, said):
    """1e400 in a points file was read as inf without a word (--at and expressions say it):
    numpy's block reader and the row reader must both find it, on the right line."""
    assert _beyond(text, general=False) == said
    assert _beyond(text, general=True) == said


def test_a_json_lines_number_beyond_float64_is_said_and_a_huge_integer_read_as_inf():
    """A JSON integer of 401 digits was an internal error (OverflowError)."""
    text = f'{{"x": 2, "y": 1e-400}}\n{{"x": -{BIG}, "y": 1}}\n'
    code, out, err = run_cli("eval", "x*y", "--points", "-", "--format", "plain", stdin=text)
    assert (code, out) == (0, "0.0\n-inf\n")
    assert err.splitlines()[0] == (
        "adcli: warning: points file line 1, column 'y': 1e-400 is below the smallest "
        "float64 number (about 4.9e-324): read as 0 (and 1 more cell beyond the largest "
        "float64 number, read as inf or -inf)")


def test_passed_through_json_nan_and_infinities_are_written_as_adcli_writes_them():
    """NaN and 1e400 in a passed-through JSON Lines field crashed the JSON writer (Python
    reads them, JSON has no spelling for them) and came out as NaN/Infinity in CSV. A
    number beyond float64's range keeps its text, which is JSON."""
    text = '{"x": 1, "n": NaN, "m": -1e400, "l": [Infinity, 2]}\n'
    code, out, err = run_cli("eval", "x", "--points", "-", "--format", "json", stdin=text)
    assert code == 0
    assert '"extra": {"n": "nan", "m": -1e400, "l": ["inf", 2]}' in out
    assert strict_json(out)["points"][0]["extra"] == {"n": "nan", "m": -math.inf,
                                                      "l": ["inf", 2]}
    code, out, err = run_cli("eval", "x", "--points", "-", "--format", "csv", stdin=text)
    assert out == 'n,m,l,x,f\nnan,-1e400,"[""inf"", 2]",1.0,1.0\n'


# ----- a pipe's rows as they come -------------------------------------------------------

def _read_from_pipe(data: bytes, **options):
    """read()'s result for ``data`` written into a pipe by another thread, read as the CLI
    reads --points -: a text file on the pipe's descriptor (so by streams._Pipe)."""
    import threading

    r, w = os.pipe()

    def write():
        # (a reader that stops at a bad row closes the pipe: the rest is not wanted)
        with contextlib.suppress(BrokenPipeError), os.fdopen(w, "wb") as pipe:
            for k in range(0, len(data), 7):     # in small pieces: lines cross the reads
                pipe.write(data[k:k + 7])
                pipe.flush()

    writer = threading.Thread(target=write)
    writer.start()
    with open(r, encoding="utf-8-sig") as stream:
        assert streams._arrives_slowly(stream)
        result = read_stream(stream, **options)
    writer.join()
    return result


@pytest.mark.parametrize("text", [
    "x,y\n1,2\n3,4\n", "\ufeffx,y\r\n1,2\r\n3,4\r\n", "x,y\r1,2\r3,4", "x y\n1 2\n\n# c\n3 4\n",
    'x,y,label\n1,2,"a\r\nb"\n3,4,c\n', "x\ty\n1\tpi/4\n", '{"x": 1, "y": 2}\n{"x": 3}\n',
    "x,y\n1,2\n" + "9," * 3000 + "\n", "x,y\n1,2\n3,oops\n5,6\n",
    "x,y\n" + "".join(f"{k},{k / 7!r}\n" for k in range(3000)),
    "x,y\n1,2\n3,\udcff\n5,6\n",    # (encoded below with surrogateescape: a byte 0xff)
])
def test_a_pipe_reads_as_a_file_does(text):
    """The same values, line numbers, messages and rows before an error as a file opened
    the CLI's way, whatever the pipe's reads cut the text into."""
    data = text.encode("utf-8", "surrogateescape")
    as_file = read_stream(io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig"),
                          variables=("x", "y"))
    assert _read_from_pipe(data, variables=("x", "y")) == as_file
    assert _read_from_pipe(data, variables=("x", "y"), chunk=2) == \
        read_stream(io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig"),
                    variables=("x", "y"), chunk=2)


@pytest.mark.parametrize("fmt, first, second", [
    ("csv", "3.0,9.0,6.0", "4.0,16.0,8.0"),
    ("jsonl", '{"at": {"x": 3.0}, "value": 9.0, "gradient": {"x": 6.0}}',
     '{"at": {"x": 4.0}, "value": 16.0, "gradient": {"x": 8.0}}')])
def test_rows_from_a_slow_writer_come_out_as_they_come_in(fmt, first, second):
    """tail -f log | adcli ... --points -: a row's result waited for 65,536 more rows or
    the end of the input. Now each comes out once its row is in, while the writer waits."""
    import select

    child = subprocess.Popen([sys.executable, "-m", "adcli", "grad", "x^2", "--points", "-",
                              "--format", fmt], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    try:
        child.stdin.write(b"x\n3\n")
        child.stdin.flush()
        shown = b""
        while first.encode() + b"\n" not in shown:    # (the header may come first, alone)
            ready, _, _ = select.select([child.stdout], [], [], 30)
            assert ready, f"no row while the writer waits; so far: {shown!r}"
            shown += child.stdout.read1(1 << 16)
        out, err = child.communicate(b"4\n", timeout=30)
        assert (out.decode().splitlines(), err) == ([second], b"")
    finally:
        child.kill()


def test_a_byte_not_utf8_deep_in_a_pipe_is_the_file_error_after_the_rows_before_it():
    """It was an internal error (UnicodeDecodeError out of the pipe's look ahead), with no
    row written; a file gives the same message after the rows it decoded."""
    data = b"x,y\n" + b"1,2\n" * 20000 + b"3,\x80\n"
    values, extra, skipped, error = _read_from_pipe(data)
    assert error == "points file line 20002: not UTF-8 text (column 3; if the file is Latin-1 or Windows-1252, a spreadsheet's \"CSV\", convert it to UTF-8: iconv -f latin1 -t utf-8 FILE | adcli ... --points -)"
    assert len(values["x"]) == 20000


@pytest.mark.parametrize("text, said", [
    ("x,city\n1,Paris\n2,New York\n", "column 'city' has the value 'New York'"),
    ("x,note\n1,\n", "column 'note' has the value '' (empty)"),
    ('{"x": 1, "t": {"a": 1}}\n', """column 't' has the value '{"a": 1}'"""),
])
def test_plain_output_says_when_a_passed_through_field_cannot_be_split_back(text, said):
    """'New York' made a plain line of four fields for three columns, without a word: the
    line could not be read back (read, awk, --points) into the right columns."""
    code, out, err = run_cli("grad", "x^2", "--points", "-", "--format", "plain", stdin=text)
    assert code == 0
    assert warnings_in(err) == [f"adcli: warning: {said}: plain output separates fields by "
                                "spaces, so its lines cannot be split back into columns "
                                "(--format tsv or csv keeps every value)"]
    code, out, err = run_cli("grad", "x^2", "--points", "-", "--format", "tsv", stdin=text)
    assert (code, err) == (0, "")


def test_plain_output_of_fields_without_spaces_says_nothing():
    code, out, err = run_cli("grad", "x^2", "--points", "-", "--format", "plain",
                             stdin="x,city\n1,Paris\n2,Rome\n")
    assert (code, out, err) == (0, "Paris 1.0 2.0\nRome 4.0 4.0\n", "")
