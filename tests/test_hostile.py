"""Hostile and broken input, one test per item of the hardening issue.

Every expected number is worked out by hand (noted beside it): none is copied from adcli's
output. Tests that could hang or crash the interpreter (100,000-deep nesting, runaway
derivative orders, memory) run adcli in a child process with a hard timeout, so a hang,
a segfault or a RecursionError is a failure here and never takes pytest down with it.
"""
from __future__ import annotations

import csv
import json
import math
import os
import resource
import subprocess
import sys
import textwrap
import unicodedata

import pytest

from conftest import run_cli, strict_json

# ----- helpers --------------------------------------------------------------------------


def run(*argv: str, timeout: int = 60) -> tuple[int, str, str]:
    """main(argv) in this process: stdio captured, stdin empty, every warning an error."""
    return run_cli(*argv, timeout=timeout)


_CHILD = textwrap.dedent("""
    import json, sys
    from adcli.cli import main
    with open(sys.argv[1], encoding="utf-8") as f:
        argv = json.load(f)
    sys.exit(main(argv))
""")


def run_isolated(tmp_path, *argv: str, timeout: int = 120, memory: int | None = None):
    """main(argv) in a child Python with -W error: argv goes through a file (it may be far
    beyond the kernel's 128 KiB limit for one argument)."""
    argv_file = tmp_path / "argv.json"
    argv_file.write_text(json.dumps(list(argv)), encoding="utf-8")

    def limit():
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    try:
        done = subprocess.run([sys.executable, "-W", "error", "-c", _CHILD, str(argv_file)],
                              capture_output=True, timeout=timeout, preexec_fn=limit,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"adcli did not finish within {timeout} s: {list(argv)!r:.200}")
    out, err = (b.decode("utf-8", "replace") for b in (done.stdout, done.stderr))
    assert done.returncode >= 0, f"killed by signal {-done.returncode}; stderr: {err[-2000:]}"
    return done.returncode, out, err


def no_crash(code: int, err: str) -> None:
    assert "Traceback (most recent call last)" not in err, err[-3000:]
    assert "adcli: internal error" not in err, err[-3000:]
    assert "RecursionError" not in err and "RuntimeWarning" not in err, err[-3000:]
    assert code in (0, 2, 3), f"exit {code}: {err[-3000:]}"


def warning_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("adcli: warning:")]


def raw_controls(text: str) -> list[str]:
    return [c for c in text if c != "\n" and unicodedata.category(c) == "Cc"]


def grad_json(*argv: str, command: str = "grad", timeout: int = 60):
    code, out, err = run(command, *argv, "--format", "json", timeout=timeout)
    no_crash(code, err)
    assert code == 0, err
    return strict_json(out), err


# ----- huge numbers at once -------------------------------------------------------------

@pytest.mark.parametrize("expression, expected", [
    ("9^9^9^9", "inf"),          # 9^(9^(9^9)): 9^9^9 alone has 3.7e8 digits
    ("-9^9^9^9", "-inf"),        # -(9^...)
    ("9^-9^9^9", 0.0),           # 9^-(huge): underflows to 0
    ("1e999", "inf"),
    ("-1e999", "-inf"),
    ("1e-999", 0.0),
    ("9" * 100_000, "inf"),      # a 100,000-digit literal is still just a float64
    ("1e999 - 1e999", "nan"),    # inf - inf
])
def test_huge_constants_are_float64_at_once(expression, expected):
    document, _ = grad_json(expression, command="eval", timeout=10)
    assert document["points"] == [{"at": {}, "value": expected}]


def test_power_tower_in_a_variable_is_inf_with_its_gradient():
    # f = x^(9^(9^9)) at x = 9: inf; d/dx = b x^(b-1) = inf.
    document, _ = grad_json("x^9^9^9", "--at", "x=9", timeout=10)
    assert document["points"][0]["value"] == "inf"
    assert document["points"][0]["gradient"] == {"x": "inf"}


def test_1e999_as_a_value_is_inf():
    document, _ = grad_json("2*x", "--at", "x=1e999", timeout=10)
    point = document["points"][0]
    # f = 2x at x = inf: inf; df/dx = 2 everywhere.
    assert point["at"] == {"x": "inf"} and point["value"] == "inf"
    assert point["gradient"] == {"x": 2.0}


# ----- big and deep expressions ---------------------------------------------------------

def test_one_megabyte_expression_parses_and_evaluates():
    n = 250_000
    expression = "+".join(["x*y"] * n)           # 999,999 characters
    assert len(expression.encode()) >= 999_999
    # f = n x y: every partial sum is a multiple of 0.5 far below 2^53, so exact.
    document, _ = grad_json(expression, "--at", "x=1.5,y=-2", timeout=120)
    point = document["points"][0]
    assert point["value"] == n * 1.5 * -2.0                       # -750000
    assert point["gradient"] == {"x": n * -2.0, "y": n * 1.5}    # (n y, n x)


DEPTH = 100_000


def _sin_chain(x: float) -> tuple[float, float]:
    """sin(sin(...sin(x))) DEPTH times and its derivative: the product of cosines."""
    value, slope = x, 1.0
    for _ in range(DEPTH):
        value, slope = math.sin(value), slope * math.cos(value)
    return value, slope


@pytest.mark.parametrize("name, expression, at, expected", [
    # ((((x)))) at x=2: f = x, f' = 1.
    ("parentheses", "(" * DEPTH + "x" + ")" * DEPTH, "x=2", (2.0, 1.0)),
    # An even number of minus signs: f = x; odd: f = -x.
    ("unary minus, even", "-" * DEPTH + "x", "x=2", (2.0, 1.0)),
    ("unary minus, odd", "-" * (DEPTH + 1) + "x", "x=2", (-2.0, -1.0)),
    ("minus and parentheses", "-(" * DEPTH + "x" + ")" * DEPTH, "x=2", (2.0, 1.0)),
    # x^x^...^x (right-associative) at x=1: value 1; f' = x^g (g' ln x + g/x) = 1.
    ("power tower", "^".join(["x"] * DEPTH), "x=1", (1.0, 1.0)),
    # x+x+...+x: f = DEPTH x.
    ("long sum", "+".join(["x"] * DEPTH), "x=0.5", (DEPTH * 0.5, float(DEPTH))),
    ("nested calls", "sin(" * DEPTH + "x" + ")" * DEPTH, "x=1", _sin_chain(1.0)),
])
def test_100000_deep_nesting_works(tmp_path, name, expression, at, expected):
    code, out, err = run_isolated(tmp_path, "grad", expression, "--at", at, "--format", "json")
    no_crash(code, err)
    assert code == 0, err[-2000:]
    point = strict_json(out)["points"][0]
    assert math.isclose(point["value"], expected[0], rel_tol=1e-12, abs_tol=1e-300)
    assert math.isclose(point["gradient"]["x"], expected[1], rel_tol=1e-9, abs_tol=1e-300)


def test_100000_deep_parentheses_hessian(tmp_path):
    # ((((x^3)))) at x=2: f'' = 6x = 12.
    expression = "(" * DEPTH + "x^3" + ")" * DEPTH
    code, out, err = run_isolated(tmp_path, "hessian", expression, "--at", "x=2",
                                  "--format", "json")
    no_crash(code, err)
    assert code == 0, err[-2000:]
    assert strict_json(out)["points"][0]["hessian"] == [[12.0]]


@pytest.mark.parametrize("expression", [
    "(" * DEPTH + "x",                   # never closed
    "x" + ")" * DEPTH,                   # never opened
    "(" * DEPTH + ")" * DEPTH,           # nothing inside
    "sin(" * DEPTH + "x",
])
def test_100000_deep_broken_nesting_is_a_clear_error(tmp_path, expression):
    code, out, err = run_isolated(tmp_path, "grad", expression, "--at", "x=1")
    no_crash(code, err)
    assert code == 2 and out == ""
    assert "error" in err and len(err) < 2000, err[:2000]   # an excerpt, not the whole input


def test_high_order_derivative_of_a_product_finishes(tmp_path):
    """--order accepts up to 64. d^n/dx^n e^x sin x = 2^(n/2) e^x sin(x + n pi/4), so at
    n = 64, x = 1: 2^32 e sin(1). Repeated reverse mode must not blow up exponentially:
    a result or a clear refusal (exit 2), within a generous time."""
    code, out, err = run_isolated(tmp_path, "grad", "sin(x)*exp(x)", "--at", "x=1",
                                  "--order", "64", "--format", "json", timeout=60,
                                  memory=4 * 2**30)
    no_crash(code, err)
    if code == 0:
        derivative = strict_json(out)["points"][0]["derivative"]
        assert math.isclose(derivative, 2.0**32 * math.e * math.sin(1.0), rel_tol=1e-6)
    else:
        assert code == 2 and out == "" and "order" in err


# ----- no code execution ----------------------------------------------------------------

@pytest.fixture
def sentinel(tmp_path):
    path = tmp_path / "pwned"
    yield path
    assert not path.exists(), "an expression was executed"


def _touch(path) -> str:
    return f"__import__('os').system('touch {path}')"


@pytest.mark.parametrize("make", [
    _touch,
    lambda p: f"__import__(\"os\").system(\"touch {p}\")",
    lambda p: f"open('{p}', 'w')",
    lambda p: f"eval(\"open('{p}','w')\")",
    lambda p: f"exec(\"open('{p}','w')\")",
    lambda p: "x.__class__",
    lambda p: "x.__class__.__bases__[0].__subclasses__()",
    lambda p: "eval(x)",
    lambda p: "open(x)",
    lambda p: "getattr(x, 'real')",
    lambda p: "lambda: 1",
    lambda p: "[x for x in (1,)]",
    lambda p: "x if x else x",
    lambda p: "x; import os",
    lambda p: "globals()",
    lambda p: "x[0:1]",   # (brackets and braces group, as in maths: x[0] is x*0)
    lambda p: "{'x': 1}",
    lambda p: "f'{x}'",
])
def test_python_is_not_executed(sentinel, make):
    expression = make(sentinel)
    code, out, err = run("grad", expression, "--at", "x=1", "--format", "json")
    no_crash(code, err)
    assert code == 2 and out == ""
    # Since issue 10 names side by side multiply: "x if x else x" is a product of variables
    # that have no values.
    assert "unexpected" in err or "unknown function" in err or "no value given for" in err, err


@pytest.mark.parametrize("option, value", [
    ("--at", "x={}"),
    ("--grid", "x={}:1:2"),
])
def test_python_in_values_is_not_executed(sentinel, option, value):
    code, out, err = run("grad", "x", option, value.format(_touch(sentinel)))
    no_crash(code, err)
    assert code == 2 and out == ""


def test_python_in_a_points_file_is_not_executed(tmp_path, sentinel):
    points = tmp_path / "points.csv"
    points.write_text(f"x\n{_touch(sentinel)}\n", encoding="utf-8")
    code, out, err = run("grad", "x", "--points", str(points))
    no_crash(code, err)
    assert code == 2 and out == ""
    assert "line 2" in err and "'x'" in err


# ----- control characters are shown escaped ---------------------------------------------

CONTROLS = ["\x00", "\x1b", "\x07", "\x08", "\r", "\x7f", "\x9b"]


@pytest.mark.parametrize("control", CONTROLS, ids=[f"{ord(c):#04x}" for c in CONTROLS])
@pytest.mark.parametrize("where", ["expression", "at-name", "at-value", "grid", "wrt",
                                   "points-header", "points-cell", "points-path", "@FILE-path"])
def test_control_characters_are_shown_escaped(tmp_path, control, where):
    if control == "\r" and where in ("points-header", "points-cell"):
        pytest.skip("a CR ends a line of a points file: it is no character of a field")
    bad = f"x{control}[2J"
    argv = ["grad", "x+1", "--at", "x=1"]
    if where == "expression":
        argv[1] = f"x+{control}1$"          # "$" keeps it an error where the control is blank
    elif where == "at-name":
        argv[3] = f"{bad}=1"
    elif where == "at-value":
        argv[3] = f"x=1{control}$"
    elif where == "grid":
        argv[2:] = ["--grid", f"x=0:1:{control}"]
    elif where == "wrt":
        argv += ["--wrt", bad]
    elif where == "points-path":                     # a file that does not exist
        argv[2:] = ["--points", str(tmp_path / bad)]
    elif where == "@FILE-path":
        argv[1] = "@" + str(tmp_path / bad)
    else:
        points = tmp_path / "points.csv"
        header, cell = (bad, "1") if where == "points-header" else ("x", f"1{control}2")
        points.write_text(f"{header}\n{cell}\n", encoding="utf-8")
        argv[2:] = ["--points", str(points)]
    code, out, err = run(*argv, "--format", "json")
    no_crash(code, err)
    assert code == 2 and out == "", err
    assert not raw_controls(err), f"raw control character on stderr: {err!r}"
    assert control.encode("unicode_escape").decode() in err or repr(control)[1:-1] in err, err


@pytest.mark.parametrize("argv", [
    ["grad", "@x\x00y"],                          # an expression file name
    ["grad", "x", "--points", "x\x00y"],          # a points file name
], ids=["@FILE", "--points"])
def test_nul_byte_in_a_file_name(argv):
    # A shell cannot pass a NUL, but main(argv) takes any str: still a usage error.
    code, out, err = run(*argv)
    no_crash(code, err)
    assert code == 2 and out == "" and err.strip()
    assert not raw_controls(err)


def test_nul_byte_in_the_expression_has_a_caret_at_it():
    code, out, err = run("grad", "x*\x00y", "--at", "x=1,y=2")
    no_crash(code, err)
    assert code == 2 and out == ""
    assert "\\x00" in err and "\x00" not in err
    assert "column 3" in err, err


# ----- domain edges are results ---------------------------------------------------------

EDGES = [
    # (expression, --at, culprit as the warning names it, value, gradient by hand)
    ("log(x)", "x=-1", "log", "nan", None),       # log'(x) = 1/x: conventions differ here
    ("sqrt(x)", "x=-1", "sqrt", "nan", "nan"),    # 1/(2 sqrt(x)) = nan
    ("1/x", "x=0", "'/'", "inf", "-inf"),         # -1/x^2 = -inf
    ("x^-1", "x=0", "'^'", "inf", "-inf"),        # -x^-2 = -inf
    ("0^x", "x=-1", "'^'", "inf", "-inf"),        # 0^x log 0 = inf * -inf
    ("acos(x)", "x=2", "acos", "nan", "nan"),     # -1/sqrt(1 - 4) = nan
]


@pytest.mark.parametrize("command", ["grad", "hessian"])
@pytest.mark.parametrize("expression, at, culprit, value, gradient", EDGES,
                         ids=[e[0] for e in EDGES])
def test_domain_edges_are_results_with_one_warning(command, expression, at, culprit, value,
                                                   gradient):
    document, err = grad_json(expression, "--at", at, command=command)
    point = document["points"][0]
    assert point["value"] == value
    if gradient is not None:
        assert point["gradient"] == {"x": gradient}
    lines = warning_lines(err)
    # log at -1 also says its derivative there is a convention (a kink, issue 9)
    assert len(lines) == (2 if culprit == "log" else 1), err
    assert all(culprit in line and "1 of 1 point" in line for line in lines), err
    assert err.splitlines() == lines, err             # nothing else on stderr


@pytest.mark.parametrize("expression, culprit, value", [
    ("log(-1)", "log", "nan"), ("sqrt(-1)", "sqrt", "nan"), ("1/0", "'/'", "inf"),
    ("0^-1", "'^'", "inf"), ("acos(2)", "acos", "nan"),
])
def test_domain_edges_as_constants(expression, culprit, value):
    document, err = grad_json(expression)
    assert document["points"] == [{"at": {}, "value": value, "gradient": {}}]
    lines = warning_lines(err)
    assert len(lines) == 1 and culprit in lines[0], err


def test_domain_edge_warnings_count_points_and_name_each_culprit():
    # x in -2, -1, 0, 1, 2: log is nan at -2, -1 and -inf at 0 (3 of 5); sqrt(y) at y = -1
    # is nan for every point (5 of 5).
    document, err = grad_json("log(x) + sqrt(y)", "--grid", "x=-2:2:5", "--at", "y=-1")
    assert [p["value"] for p in document["points"]] == ["nan"] * 5
    # (and log's argument is negative at 2 points, where its derivative is a convention)
    lines = warning_lines(err)
    assert len(lines) == 3, err
    assert any(line.startswith("adcli: warning: log ") and "3 of 5 points" in line
               for line in lines), err
    assert any(line.startswith("adcli: warning: log is not differentiable at 2 of 5 points")
               for line in lines), err
    assert any(line.startswith("adcli: warning: sqrt ") and "5 of 5 points" in line
               for line in lines), err


@pytest.mark.parametrize("expression, at", [(e[0], e[1]) for e in EDGES])
@pytest.mark.parametrize("fmt", ["json", "csv", "plain", "table"])
def test_domain_edges_under_strict_exit_3(expression, at, fmt):
    code, out, err = run("grad", expression, "--at", at, "--strict", "--format", fmt)
    no_crash(code, err)
    assert code == 3, err
    if fmt in ("json", "table"):
        assert out == ""                    # written whole, so nothing half-written
    assert err.strip() and "RuntimeWarning" not in err


def test_no_numpy_warning_even_with_warnings_as_errors(tmp_path):
    # A child with -W error: a leaked numpy RuntimeWarning would be an exception there.
    for expression, at, *_ in EDGES:
        code, out, err = run_isolated(tmp_path, "hessian", expression, "--at", at,
                                      "--format", "json", timeout=60)
        assert code == 0, err
        assert "Warning:" not in err.replace("adcli: warning:", ""), err


# ----- points files ---------------------------------------------------------------------

def points_file(tmp_path, text: str, name: str = "points.csv", binary: bool = False):
    path = tmp_path / name
    if binary:
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return str(path)


def test_bad_row_stops_with_line_and_column(tmp_path):
    # Issue 11: the rows before the bad one are results, written before the error
    # (x*y at (1, 2) and (3, 4): values 2 and 12, gradients (y, x)).
    path = points_file(tmp_path, "x,y\n1,2\n3,4\n# a comment\n5,abc\n7,8\n")
    code, out, err = run("grad", "x*y", "--points", path, "--format", "json")
    no_crash(code, err)
    assert code == 2
    assert [(p["value"], p["gradient"]) for p in strict_json(out)["points"]] == \
        [(2.0, {"x": 2.0, "y": 1.0}), (12.0, {"x": 4.0, "y": 3.0})]
    assert err == ("adcli: error: points file line 5, column 'y': 'abc' is not a number or "
                   "constant expression (it uses abc)\n")


@pytest.mark.parametrize("fmt", ["csv", "plain"])
def test_bad_row_keeps_the_lines_already_written_complete(tmp_path, fmt):
    """200,000 good rows, then a bad one. Whatever was written before the stop is whole
    lines, each one the right result for its row, in order: f = x*y with y = 0.5, so
    f = x/2, df/dx = 0.5, df/dy = x (exact in float64)."""
    good = 200_000
    rows = "".join(f"{i},0.5\n" for i in range(good))
    path = points_file(tmp_path, "x,y\n" + rows + "7,oops\n" + "1,1\n" * 10)
    code, out, err = run("grad", "x*y", "--points", path, "--format", fmt, timeout=120)
    no_crash(code, err)
    assert code == 2
    assert f"line {good + 2}" in err and "'y'" in err and "oops" in err, err
    assert out.endswith("\n"), "the last line written is incomplete"
    lines = out.splitlines()
    if fmt == "csv":
        assert lines[0] == "x,y,f,df/dx,df/dy"
        lines = lines[1:]
        parsed = list(csv.reader(lines))
    else:
        parsed = [line.split(" ") for line in lines]
    # README: CSV and plain are written and flushed chunk by chunk, so a run that reads
    # 200,000 rows before failing has written some of them.
    assert 0 < len(parsed) <= good
    for i, fields in enumerate(parsed):
        numbers = [float(f) for f in fields]
        expected = [i, 0.5, i / 2, 0.5, float(i)] if fmt == "csv" else [i / 2, 0.5, float(i)]
        assert numbers == expected, f"row {i}: {fields}"


def test_skip_bad_rows_goes_on_and_counts_them(tmp_path):
    path = points_file(tmp_path, "x,y\n1,2\nabc,3\n3,4\n5\n5,6\n7,8,9\n")
    code, out, err = run("grad", "x*y", "--points", path, "--skip-bad-rows", "--format", "json")
    no_crash(code, err)
    assert code == 0, err
    # f = x y, df/dx = y, df/dy = x at the three good rows.
    assert [(p["at"], p["value"], p["gradient"]) for p in strict_json(out)["points"]] == [
        ({"x": 1.0, "y": 2.0}, 2.0, {"x": 2.0, "y": 1.0}),
        ({"x": 3.0, "y": 4.0}, 12.0, {"x": 4.0, "y": 3.0}),
        ({"x": 5.0, "y": 6.0}, 30.0, {"x": 6.0, "y": 5.0}),
    ]
    counted = [line for line in warning_lines(err) if "skipped" in line]
    assert len(counted) == 1 and "skipped 3 " in counted[0] and "line 3" in counted[0], err


def test_skip_bad_rows_with_csv_output_is_complete(tmp_path):
    path = points_file(tmp_path, "x\n1\n\x00\n2\n")
    code, out, err = run("eval", "x^2", "--points", path, "--skip-bad-rows", "--format", "csv")
    no_crash(code, err)
    assert code == 0, err
    assert out == "x,f\n1.0,1.0\n2.0,4.0\n"
    assert any("skipped 1" in line for line in warning_lines(err)), err
    assert not raw_controls(err)


@pytest.mark.parametrize("row", ["1", "1,2,3", "1,2,"])
def test_wrong_field_count(tmp_path, row):
    path = points_file(tmp_path, f"x,y\n1,2\n{row}\n")
    code, out, err = run("grad", "x*y", "--points", path, "--format", "json")
    no_crash(code, err)
    assert code == 2
    assert [p["at"] for p in strict_json(out)["points"]] == [{"x": 1.0, "y": 2.0}]
    assert "line 3" in err and "field" in err, err


@pytest.mark.parametrize("content", ["", "\n", "   \n"])
def test_empty_points_file(tmp_path, content):
    path = points_file(tmp_path, content)
    code, out, err = run("grad", "x", "--points", path, "--format", "json")
    no_crash(code, err)
    assert code == 2 and out == ""
    assert err.strip()


@pytest.mark.parametrize("header, line", [("x,", 2), (",x", 1), ("x,x", 1), ("x, x", 1)])
def test_header_with_a_bad_name(tmp_path, header, line):
    # A column with no name, or a name twice. Other names that are not variables
    # ("1y", "a-b", "y z") are columns passed through since issue 11 (test_output.py).
    # (x, is a trailing separator, as x,y, is: the row 1,2 has a value in no column)
    path = points_file(tmp_path, f"{header}\n1,2\n")
    code, out, err = run("grad", "x", "--points", path, "--format", "json")
    no_crash(code, err)
    assert code == 2 and out == ""
    assert f"line {line}" in err, err


def test_extra_columns_pass_through_even_under_strict(tmp_path):
    # Issue 11: a column that is not a variable (an id, a label) passes through unchanged,
    # without a warning; --strict only refuses unused --at names.
    path = points_file(tmp_path, "x,unused\n3,4\n")
    for strict in ([], ["--strict"]):
        document, err = grad_json("x^2", "--points", path, *strict)
        assert document["points"] == [{"at": {"x": 3.0}, "extra": {"unused": "4"},
                                       "value": 9.0, "gradient": {"x": 6.0}}]
        assert err == ""


def test_points_file_that_is_not_utf8(tmp_path):
    path = points_file(tmp_path, b"x,y\n1,2\n3,\xff\n", binary=True)
    code, out, err = run("grad", "x*y", "--points", path, "--format", "json")
    no_crash(code, err)
    # As any bad row: the points before it are written, then its line is named.
    assert code == 2 and len(json.loads(out)["points"]) == 1
    assert err == "adcli: error: points file line 3: not UTF-8 text (column 3; if the file is Latin-1 or Windows-1252, a spreadsheet's \"CSV\", convert it to UTF-8: iconv -f latin1 -t utf-8 FILE | adcli ... --points -)\n"


def test_points_file_header_that_is_not_utf8(tmp_path):
    path = points_file(tmp_path, b"x,\xff\n1,2\n", binary=True)
    code, out, err = run("grad", "x", "--points", path, "--format", "json")
    no_crash(code, err)
    assert code == 2 and out == "" and err.strip()


def test_points_file_with_an_enormous_field(tmp_path):
    # Beyond the csv module's default field limit (131,072 characters).
    path = points_file(tmp_path, "x,y\n1," + "9" * 200_000 + "\n")
    code, out, err = run("grad", "x*y", "--points", path, "--format", "json")
    no_crash(code, err)
    assert code == 2 and out == "" and err.strip()


@pytest.mark.parametrize("argv", [
    ["grad", "x", "--points", "/dev/zero"],       # a points file that is one endless line
    ["grad", "@/dev/zero", "--at", "x=1"],        # an expression file that never ends
], ids=["points", "expression"])
def test_endless_input_fails_cleanly_under_a_memory_cap(tmp_path, argv):
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    code, out, err = run_isolated(tmp_path, *argv, timeout=120, memory=2 * 2**30)
    no_crash(code, err)
    assert code == 2 and out == "" and err.strip()


def test_points_file_with_grid_and_at(tmp_path):
    """--points with --grid for another variable: the product of the two (each row at each
    grid value), or a clear usage error; never a crash. f = x y, df/dx = y, df/dy = x."""
    path = points_file(tmp_path, "x\n1\n2\n")
    code, out, err = run("grad", "x*y", "--points", path, "--grid", "y=0:1:3",
                         "--format", "json")
    no_crash(code, err)
    if code == 2:
        assert out == "" and err.strip()
        return
    assert code == 0, err
    points = strict_json(out)["points"]
    pairs = sorted((p["at"]["x"], p["at"]["y"]) for p in points)
    assert pairs == [(x, y) for x in (1.0, 2.0) for y in (0.0, 0.5, 1.0)]
    for p in points:
        x, y = p["at"]["x"], p["at"]["y"]
        assert p["value"] == x * y and p["gradient"] == {"x": y, "y": x}


# ----- sizes of --grid ------------------------------------------------------------------

@pytest.mark.parametrize("grids", [
    ["x=0:1:" + "9" * 22],                         # 10^22 points on one axis
    ["x=0:1:" + "9" * 5000],                       # a count with 5,000 digits
    ["x=0:1:100000"] * 1 + ["y=0:1:100000", "z=0:1:100000", "w=0:1:100000"],  # 10^20 points
])
def test_grid_too_large_is_a_usage_error(grids):
    argv = ["grad", "x+y+z+w", "--format", "plain"]
    for grid in grids:
        argv += ["--grid", grid]
    for name in "yzw":
        if not any(g.startswith(name + "=") for g in grids):
            argv += ["--at", f"{name}=0"]
    code, out, err = run(*argv, timeout=60)
    no_crash(code, err)
    assert code == 2 and out == "" and err.strip(), err


# ----- rounding with --digits -----------------------------------------------------------

@pytest.mark.parametrize("fmt", ["json", "csv", "plain"])
def test_digits_rounding_near_the_largest_float(fmt):
    # 1.7e308 rounded to 1 significant digit is 2e308, beyond float64: the output must still
    # be well formed (valid JSON; no crash), whatever the number is printed as.
    code, out, err = run("eval", "x", "--at", "x=1.7e308", "--digits", "1", "--format", fmt)
    no_crash(code, err)
    assert code == 0, err
    if fmt == "json":
        strict_json(out)
    assert out.endswith("\n")


# ----- an internal error is one line, traceback only with --debug -----------------------

def test_internal_error_is_one_line_and_exit_70(monkeypatch):
    import adcli.pipeline

    def broken(*args, **kwargs):
        raise ZeroDivisionError("planted bug")

    monkeypatch.setattr(adcli.pipeline, "run", broken)
    code, out, err = run("grad", "x", "--at", "x=1")
    assert code == 70 and out == ""
    assert err == ("adcli: internal error: ZeroDivisionError: planted bug (please report "
                   "this; run with --debug for details)\n")
    code, out, err = run("--debug", "grad", "x", "--at", "x=1")
    assert code == 70 and "Traceback (most recent call last)" in err and "planted bug" in err
