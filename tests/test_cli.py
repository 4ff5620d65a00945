"""The command line, as the README specifies it ("Using it", "Output", "Errors and exit codes").

Expected numbers are worked out by hand (closed forms, exact float arithmetic) and noted
next to each case; none is copied from adcli's own output.
"""
import io
import math
import os
import shutil
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import adcli
from adcli.cli import main
from conftest import run_cli, strict_json, warnings_in

EPS = 2.0 ** -52


# ----- helpers --------------------------------------------------------------------------

def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys, *args):
    code, out, err = run(capsys, *args, "--format", "json")
    assert code == 0, err
    return strict_json(out), err


def close(actual, expected, scale, ulps=4):
    """Equal up to a few rounding errors of the size of ``scale``."""
    return abs(actual - expected) <= ulps * EPS * max(abs(scale), 1e-300)


def adcli_executable():
    here = os.path.dirname(sys.executable)
    return shutil.which("adcli", path=here + os.pathsep + os.environ.get("PATH", ""))


def subprocess_env(**extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHONIOENCODING")}
    env.update({"PYTHONUTF8": "1"}, **extra)
    return env


# ----- the headline numbers -------------------------------------------------------------

def test_readme_headline_exp_x_squared_squared(capsys):
    # f = exp(x^2)^2 = exp(2x^2), f' = 4x exp(2x^2); at x = 1/2: f = e^0.5, f' = 2e^0.5
    document, err = run_json(capsys, "grad", "exp(x^2)^2", "--at", "x=0.5")
    (point,) = document["points"]
    assert point["at"] == {"x": 0.5}
    assert math.isclose(point["value"], math.exp(0.5), rel_tol=1e-15)
    assert math.isclose(point["gradient"]["x"], 2 * math.exp(0.5), rel_tol=1e-15)
    assert err == ""


def check_sin_x1_plus_x1_x2(point):
    # f = sin(x1) + x1*x2, df/dx1 = cos(x1) + x2, df/dx2 = x1 (exactly)
    x1, x2 = point["at"]["x1"], point["at"]["x2"]
    assert close(point["value"], math.sin(x1) + x1 * x2, abs(math.sin(x1)) + abs(x1 * x2))
    assert close(point["gradient"]["x1"], math.cos(x1) + x2, abs(math.cos(x1)) + abs(x2))
    assert point["gradient"]["x2"] == x1


finite = st.floats(min_value=-1e3, max_value=1e3, allow_nan=False, allow_subnormal=False)


# capsys is function-scoped, but each run() reads and clears it, so examples cannot mix
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(x1=finite, x2=finite)
def test_sin_x1_plus_x1_x2_at_any_point(capsys, x1, x2):
    document, _ = run_json(capsys, "grad", "sin(x1)+x1*x2", "--at", f"x1={x1!r},x2={x2!r}")
    (point,) = document["points"]
    assert point["at"] == {"x1": x1, "x2": x2}       # the values read back exactly
    check_sin_x1_plus_x1_x2(point)


def test_sin_x1_plus_x1_x2_on_a_grid(capsys):
    document, _ = run_json(capsys, "grad", "sin(x1)+x1*x2",
                           "--grid", "x1=-10:10:21", "--grid", "x2=-3:3:7")
    assert len(document["points"]) == 21 * 7
    for point in document["points"]:
        check_sin_x1_plus_x1_x2(point)


# ----- the JSON contract ----------------------------------------------------------------

def test_json_grad_contract(capsys):
    # f = x^2*y at (3, 2): f = 18, df/dx = 2xy = 12, df/dy = x^2 = 9
    document, _ = run_json(capsys, "grad", "x^2*y", "--at", "x=3,y=2")
    assert set(document) == {"expression", "parsed", "variables", "points"}
    assert document["expression"] == "x^2*y"
    assert document["parsed"] == "(x^2)*y"
    assert document["variables"] == ["x", "y"]
    (point,) = document["points"]
    assert set(point) == {"at", "value", "gradient"}
    assert point == {"at": {"x": 3.0, "y": 2.0}, "value": 18.0,
                     "gradient": {"x": 12.0, "y": 9.0}}


VARIABLE_ORDER = [
    # arguments, variables in the README's order: first appearance, or --wrt's order
    (["y*x + x*z", "--at", "x=1,y=2,z=3"], ["y", "x", "z"]),
    (["b + a*b", "--at", "a=1,b=2"], ["b", "a"]),
    (["x*y + z", "--at", "x=1,y=2,z=3", "--wrt", "z,x"], ["z", "x"]),
    (["x*y + z", "--at", "x=1,y=2,z=3", "--wrt", "y"], ["y"]),
]


@pytest.mark.parametrize("args, names", VARIABLE_ORDER)
def test_json_variables_order(capsys, args, names):
    document, _ = run_json(capsys, "grad", *args)
    assert document["variables"] == names
    assert list(document["points"][0]["gradient"]) == names


def test_wrt_differentiates_only_with_respect_to_those(capsys):
    # README: grad "x*y + y^2" --at x=1,y=2 --wrt y; d/dy = x + 2y = 5; x is a parameter
    document, _ = run_json(capsys, "grad", "x*y + y^2", "--at", "x=1,y=2", "--wrt", "y")
    (point,) = document["points"]
    assert point["at"] == {"x": 1.0, "y": 2.0}
    assert point["value"] == 6.0                           # 1*2 + 2^2
    assert point["gradient"] == {"y": 5.0}


def test_json_eval_has_value_only(capsys):
    # README: eval "x^2 + 1" --at x=3 -> 10
    document, _ = run_json(capsys, "eval", "x^2 + 1", "--at", "x=3")
    assert set(document) == {"expression", "parsed", "variables", "points"}
    assert document["variables"] == ["x"]
    assert document["points"] == [{"at": {"x": 3.0}, "value": 10.0}]


def test_json_order_3_has_order_and_derivative_instead_of_gradient(capsys):
    # d^3/dx^3 sin(x) = -cos(x)
    document, _ = run_json(capsys, "grad", "sin(x)", "--at", "x=0.3", "--order", "3")
    (point,) = document["points"]
    assert set(point) == {"at", "value", "order", "derivative"}
    assert point["order"] == 3
    assert math.isclose(point["value"], math.sin(0.3), rel_tol=1e-15)
    assert math.isclose(point["derivative"], -math.cos(0.3), rel_tol=1e-15)


def test_json_order_2_with_wrt_picks_the_variable(capsys):
    # d^2/dy^2 x*y^3 = 6xy = 6*2*5 = 60
    document, _ = run_json(capsys, "grad", "x*y^3", "--at", "x=2,y=5", "--order", "2",
                           "--wrt", "y")
    assert document["points"][0]["derivative"] == 60.0


def test_json_hessian(capsys):
    # README: f = x^2*y + sin(y) at (1, 2)
    # grad = (2xy, x^2 + cos y) = (4, 1 + cos 2); H = [[2y, 2x], [2x, -sin y]] = [[4, 2], [2, -sin 2]]
    document, _ = run_json(capsys, "hessian", "x^2*y + sin(y)", "--at", "x=1,y=2")
    assert document["variables"] == ["x", "y"]
    (point,) = document["points"]
    assert set(point) == {"at", "value", "gradient", "hessian"}
    assert math.isclose(point["value"], 2 + math.sin(2), rel_tol=1e-15)
    assert point["gradient"]["x"] == 4.0
    assert math.isclose(point["gradient"]["y"], 1 + math.cos(2), rel_tol=1e-15)
    (hxx, hxy), (hyx, hyy) = point["hessian"]
    assert (hxx, hxy, hyx) == (4.0, 2.0, 2.0)
    assert math.isclose(hyy, -math.sin(2), rel_tol=1e-15)


def test_json_jacobian(capsys):
    # README: jacobian "x*y" "x+y" "exp(x)" at (1, 2): rows (y, x), (1, 1), (e^x, 0)
    document, _ = run_json(capsys, "jacobian", "x*y", "x+y", "exp(x)", "--at", "x=1,y=2")
    assert set(document) == {"expressions", "parsed", "variables", "points"}
    assert document["expressions"] == ["x*y", "x+y", "exp(x)"]
    assert document["parsed"] == ["x*y", "x + y", "exp(x)"]
    assert document["variables"] == ["x", "y"]
    (point,) = document["points"]
    assert set(point) == {"at", "values", "jacobian"}
    assert point["at"] == {"x": 1.0, "y": 2.0}
    assert point["values"][:2] == [2.0, 3.0]
    assert math.isclose(point["values"][2], math.e, rel_tol=1e-15)
    assert point["jacobian"][:2] == [[2.0, 1.0], [1.0, 1.0]]
    assert math.isclose(point["jacobian"][2][0], math.e, rel_tol=1e-15)
    assert point["jacobian"][2][1] == 0.0


def test_jacobians_warnings_say_which_row():
    # log(2 - x) at 3 is log(-1): nan, in the second row only; "log" alone would not say
    # whose (a tester: a script could not tell f1 from f2). One expression: the function.
    code, out, err = run_cli("jacobian", "log(x)", "log(2-x)", "--at", "x=3", "--format",
                             "json")
    assert code == 0
    assert {(w["function"], w["kind"]) for w in strict_json(out)["warnings"]} == {
        ("log in f2", "value"), ("log in f2", "kink")}
    assert "adcli: warning: log in f2 gave nan or inf at 1 of 1 point" in err
    code, out, err = run_cli("jacobian", "log(2-x)", "--at", "x=3", "--format", "json")
    assert {w["function"] for w in strict_json(out)["warnings"]} == {"log"}


def test_an_infinite_derivative_inside_a_domain_is_said_to_be_an_overflow():
    # log(x)*y at x = 1e-300, y = 1e300: d/dx = y/x = 1e600, beyond float64, made inf by
    # log's rule gy/x with gy = y; x is far from log's edge at 0 (a tester: the warning
    # said "an edge of its domain"). sqrt at 0 is at its edge: said so, as before.
    code, out, err = run_cli("grad", "log(x)*y", "--at", "x=1e-300,y=1e300", "--format",
                             "json")
    assert strict_json(out)["points"][0]["gradient"]["x"] == "inf"
    assert warnings_in(err) == [
        "adcli: warning: the derivative through log overflowed at 1 of 1 point: its "
        "derivative times the gradient handed back to it is beyond the float range (not an "
        "edge of its domain)"]
    assert [(w["function"], w["kind"]) for w in strict_json(out)["warnings"]] == [
        ("log", "overflow")]
    code, out, err = run_cli("grad", "sqrt(x)", "--at", "x=0", "--format", "json")
    assert ("sqrt", "derivative") in [(w["function"], w["kind"])
                                      for w in strict_json(out)["warnings"]]


NON_FINITE = [
    # expression, point, value, derivative: all as JSON strings, by hand
    ("log(x)", "x=-1", "nan", None),          # log of a negative number
    ("1/x", "x=0", "inf", "-inf"),            # 1/0 = inf; d/dx = -1/x^2 = -inf
    ("-1/x", "x=0", "-inf", "inf"),           # (-1)/0 = -inf; d/dx = 1/x^2 = inf
    ("sqrt(x)", "x=0", 0.0, "inf"),           # README: sqrt at 0 has derivative inf
    ("x", "x=1e999", "inf", 1.0),             # an infinite input
]


@pytest.mark.parametrize("text, at, value, derivative", NON_FINITE,
                         ids=[t for t, *_ in NON_FINITE])
def test_json_nan_and_infinities_are_strings(capsys, text, at, value, derivative):
    code, out, err = run(capsys, "grad", text, "--at", at, "--format", "json")
    assert code == 0                          # domain trouble is not an error
    document = strict_json(out)               # one valid JSON object, no bare NaN/Infinity
    (point,) = document["points"]
    assert point["value"] == value
    if derivative is not None:
        assert point["gradient"]["x"] == derivative


def test_digits_rounds_printed_numbers(capsys):
    # x*x at x = 1/3: 1/9, 2/3 to 3 significant digits; the point itself is never rounded
    # (issue 11: it identifies the row), so x stays the float64 nearest 1/3
    document, _ = run_json(capsys, "grad", "x*x", "--at", "x=1/3", "--digits", "3")
    assert document["points"] == [{"at": {"x": 1 / 3}, "value": 0.111,
                                   "gradient": {"x": 0.667}}]


def test_default_digits_read_back_as_the_same_float64(capsys):
    # x*x at x = 1/3: value (1/3)*(1/3), derivative 1/3 + 1/3, both exact in float64
    document, _ = run_json(capsys, "grad", "x*x", "--at", "x=1/3")
    (point,) = document["points"]
    assert point["at"]["x"] == 1 / 3
    assert point["value"] == (1 / 3) * (1 / 3)
    assert point["gradient"]["x"] == 2 * (1 / 3)


# ----- csv, plain and table ---------------------------------------------------------------

def test_csv_header_and_round_trip(capsys):
    # f = x1*x2 at (1/3, 3): f = (1/3)*3 (one float64 multiplication), df/dx1 = x2 = 3,
    # df/dx2 = x1 = 1/3; every printed number must read back as exactly that float64
    code, out, err = run(capsys, "grad", "x1*x2", "--at", "x1=1/3,x2=3", "--format", "csv")
    assert code == 0, err
    header, row, *rest = out.splitlines()
    assert rest == []
    assert header == "x1,x2,f,df/dx1,df/dx2"
    assert [float(t) for t in row.split(",")] == [1 / 3, 3.0, (1 / 3) * 3.0, 3.0, 1 / 3]


def test_csv_numbers_round_trip_exactly(capsys):
    # x*x at x = 1/3: every number is one exact float64 operation away from 1/3
    code, out, _ = run(capsys, "grad", "x*x", "--at", "x=1/3", "--format", "csv")
    assert code == 0
    assert out.splitlines()[0] == "x,f,df/dx"
    x, f, d = (float(t) for t in out.splitlines()[1].split(","))
    assert (x, f, d) == (1 / 3, (1 / 3) * (1 / 3), 2 * (1 / 3))


CSV_HEADERS = [
    (["eval", "x*y", "--at", "x=1,y=2"], "x,y,f"),
    (["grad", "x*y + z", "--at", "x=1,y=2,z=3", "--wrt", "z,x"], "x,y,z,f,df/dz,df/dx"),
    (["grad", "sin(x)", "--at", "x=0.3", "--order", "3"], "x,f,d3f/dx^3"),
    (["jacobian", "x*y", "x+y", "--at", "x=1,y=2"], "x,y,f1,f2,df1/dx,df1/dy,df2/dx,df2/dy"),
]


@pytest.mark.parametrize("args, header", CSV_HEADERS, ids=[a[0] for a, _ in CSV_HEADERS])
def test_csv_headers(capsys, args, header):
    code, out, _ = run(capsys, *args, "--format", "csv")
    assert code == 0
    assert out.splitlines()[0] == header


def test_csv_hessian_adds_second_derivative_columns(capsys):
    # x*y: d2f/dx^2 = 0, d2f/dx dy = 1 (a space between the two: README "Output")
    code, out, _ = run(capsys, "hessian", "x*y", "--at", "x=1,y=2", "--format", "csv")
    assert code == 0
    header, row = out.splitlines()
    columns = header.split(",")
    assert columns[:5] == ["x", "y", "f", "df/dx", "df/dy"]
    values = dict(zip(columns, (float(t) for t in row.split(","))))
    assert values["d2f/dx dy"] == 1.0
    assert values["d2f/dx^2"] == 0.0


def test_plain_is_value_then_partials_one_line_per_point(capsys):
    # x^2*y at (3, 2) and (1, 5): (18, 12, 9) and (5, 10, 1)
    code, out, _ = run(capsys, "grad", "x^2*y", "--grid", "x=3:1:2", "--at", "y=2",
                       "--format", "plain")
    assert code == 0
    assert [[float(t) for t in line.split(" ")] for line in out.splitlines()] == \
        [[18.0, 12.0, 9.0], [2.0, 4.0, 1.0]]   # (3, 2): 9*2, 2*3*2, 9; (1, 2): 2, 4, 1


def test_table_is_the_default(capsys):
    code, out, _ = run(capsys, "grad", "x*x", "--at", "x=1/3")
    assert code == 0
    assert "read as: x*x" in out
    assert "∂f/∂x" in out
    for number in (1 / 3, (1 / 3) * (1 / 3), 2 * (1 / 3)):
        assert repr(number) in out             # shortest round-trip text, not rounded


def test_table_title_shows_the_reading(capsys):
    # README: "read as: -(x^2)" as the table title
    code, out, _ = run(capsys, "grad", "-x^2", "--at", "x=1")
    assert code == 0
    assert "read as: -(x^2)" in out
    assert "∂f/∂x" in out


# ----- where points come from -------------------------------------------------------------

AT_VALUES = [
    # --at text, the value of x worked out by hand
    ("x=pi/4", math.pi / 4),
    ("x=-1/3", -1 / 3),
    ("x=sqrt(2)", math.sqrt(2)),
    ("x=1e-3", 1e-3),
    ("x=2^-1", 0.5),
    ("x=−2", -2.0),                       # Unicode minus
    ("x = 1.5", 1.5),                     # spaces around the pair
    ("x=atan2(1,2)", math.atan2(1, 2)),   # the comma inside parentheses does not split
]


@pytest.mark.parametrize("at, expected", AT_VALUES, ids=[a for a, _ in AT_VALUES])
def test_at_values_are_constant_expressions(capsys, at, expected):
    document, _ = run_json(capsys, "eval", "x", "--at", at)
    (point,) = document["points"]
    assert math.isclose(point["at"]["x"], expected, rel_tol=EPS)
    assert math.isclose(point["value"], expected, rel_tol=EPS)


AT_FORMS = [
    ["--at", "x=1", "--at", "y=2"],
    ["--at", "x=1,y=2"],
    ["--at", "y=2,x=1"],
    ["--at", "x=atan2(0,1)+1,y=hypot(0,2)"],   # commas inside calls; atan2(0,1)=0, hypot(0,2)=2
]


@pytest.mark.parametrize("args", AT_FORMS, ids=[" ".join(a) for a in AT_FORMS])
def test_at_forms(capsys, args):
    # x - y^2 at (1, 2): -3; gradient (1, -2y) = (1, -4)
    document, _ = run_json(capsys, "grad", "x - y^2", *args)
    assert document["points"] == [{"at": {"x": 1.0, "y": 2.0}, "value": -3.0,
                                   "gradient": {"x": 1.0, "y": -4.0}}]


def test_an_expression_may_start_with_a_minus(capsys):
    # README: adcli grad "-x^2" --at x=1 works; -(1^2) = -1, d/dx = -2x = -2
    document, _ = run_json(capsys, "grad", "-x^2", "--at", "x=1")
    assert document["parsed"] == "-(x^2)"
    assert document["points"][0]["value"] == -1.0
    assert document["points"][0]["gradient"] == {"x": -2.0}


def test_an_expression_starting_with_two_minuses_goes_after_double_dash(capsys):
    # "--x" is -(-x) = x. The usage error for `grad "--x"` says "an expression starting
    # with '--' goes after --", so that must then work: value 1, derivative 1.
    code, out, err = run(capsys, "grad", "--at", "x=1", "--format", "plain", "--", "--x")
    assert (code, out, err) == (0, "1.0 1.0\n", "")


def test_grid_count_ends_and_order(capsys):
    # x=0:1:3 -> 0, 0.5, 1; y=10:20:2 -> 10, 20; the last --grid varies fastest
    document, _ = run_json(capsys, "grad", "x*y", "--grid", "x=0:1:3", "--grid", "y=10:20:2")
    assert [(p["at"]["x"], p["at"]["y"]) for p in document["points"]] == \
        [(0.0, 10.0), (0.0, 20.0), (0.5, 10.0), (0.5, 20.0), (1.0, 10.0), (1.0, 20.0)]
    for point in document["points"]:
        x, y = point["at"]["x"], point["at"]["y"]
        assert point["value"] == x * y
        assert point["gradient"] == {"x": y, "y": x}


@pytest.mark.parametrize("spec, why", [
    ("x=0/0:1:3", "0/0 is nan: "), ("x=0:inf:3", ""),
    ("x=-1e400:1:2", "-1e400 is beyond the largest float64 number (about 1.8e308): ")])
def test_a_grid_needs_finite_ends(capsys, spec, why):
    # It once made [nan, nan, 1.0] of 0/0:1:3, with only the nan warning to show for it.
    code, out, err = run(capsys, "grad", "x^2", "--grid", spec)
    assert (code, out) == (2, "")
    assert err == (f"adcli: error: --grid '{spec}': {why}the ends of the range must be "
                   "finite numbers\n")


@pytest.mark.parametrize("typed, value, derivative", [
    ("inf", math.inf, 0.0), ("-inf", -math.inf, 0.0), ("Infinity", math.inf, 0.0)])
def test_at_takes_infinities_as_a_points_file_does(capsys, typed, value, derivative):
    # atan(x) -> +-pi/2 and atan'(x) = 1/(1+x^2) -> 0 as x -> +-inf.
    document, _ = run_json(capsys, "grad", "atan(x)", "--at", f"x={typed}")
    (point,) = document["points"]
    assert point["at"]["x"] == ("inf" if value > 0 else "-inf")  # JSON's spelling of them
    assert point["value"] == math.copysign(math.pi / 2, value)
    assert point["gradient"]["x"] == derivative


def test_at_takes_nan_as_a_points_file_does(capsys):
    code, out, err = run(capsys, "grad", "x^2", "--at", "x=nan", "--format", "csv")
    assert (code, out) == (0, "x,f,df/dx\nnan,nan,nan\n")
    assert "nan or inf" in err


@pytest.mark.parametrize("count, expected", [
    ("1e3", "1,000 points"), ("2.5E1", "25 points"),
    ("1e9", "error: --grid 'x=0:1:1e9': the grid would have more than 100,000,000 points"),
    ("1.5e0", "error: --grid 'x=0:1:1.5e0': '0:1:1.5e0' is not start:stop:count with a whole "
              "count of at least 1")])
def test_a_grid_count_may_be_written_with_an_exponent(capsys, count, expected):
    """1e3 was 'not start:stop:count' and 1e9 so too, where 1000000000 is too many."""
    code, out, err = run(capsys, "eval", "x", "--grid", f"x=0:1:{count}", "--format", "plain")
    if expected.startswith("error:"):
        assert (code, out) == (2, "") and err.startswith(f"adcli: {expected}")
    else:
        assert code == 0 and len(out.split()) == int(expected.split()[0].replace(",", ""))


@pytest.mark.parametrize("value, result, said", [
    ("log(-1)", "nan", "--at x: log(-1) is nan"), ("1/0", "inf", "--at x: 1/0 is inf"),
    ("-10^400", "-inf", "--at x: -10^400 is -inf")])
def test_an_at_value_computed_as_nan_or_inf_is_said_by_name(capsys, value, result, said):
    """Only 'a result is nan or inf (from a value that is nan or inf)' was said: which
    value, and from what, was left to guess."""
    code, out, err = run(capsys, "eval", "x", "--at", f"x={value}", "--format", "plain")
    assert (code, out) == (0, f"{result}\n")
    assert err.splitlines()[0] == f"adcli: warning: {said}"


def test_the_expression_and_the_points_cannot_both_come_from_stdin():
    """The expression read all of stdin, and the points were then 'empty: it needs a
    header row of names'."""
    code, out, err = run_cli("grad", "@-", "--points", "-", stdin="x^2\n")
    assert (code, out) == (2, "")
    assert err.startswith("adcli: error: @- and --points - both read stdin: put the "
                          "expression or the points in a file")


def test_an_error_in_an_expression_file_of_several_lines_names_the_line(tmp_path):
    """A 200-line @FILE with a ')' too many on line 151 said '(column 2157)' and showed
    '…\\n  + sin(x*150))\\n…'; a file's last newline was shown as '\\n' under the caret."""
    lines = ["x^2"] + [f"  + sin(x*{k})" for k in range(1, 200)]
    lines[150] += ")"
    (tmp_path / "f.txt").write_text("\n".join(lines) + "\n")
    (tmp_path / "g.txt").write_text("x^\n")
    code, out, err = run_cli("eval", f"@{tmp_path / 'f.txt'}", "--at", "x=1")
    assert (code, out) == (2, "")
    assert err == ("adcli: error: unexpected ')'; expected an operator or the end (line 151, "
                   "column 15)\n    + sin(x*150))\n                ^\n")
    code, out, err = run_cli("eval", f"@{tmp_path / 'g.txt'}", "--at", "x=1")
    assert err.splitlines()[1:] == ["  x^", "    ^"]


def test_an_error_in_one_of_several_expressions_names_it():
    """jacobian "x" "y" "sin(x))" showed the caret but not which expression it was in."""
    code, out, err = run_cli("jacobian", "x", "y", "sin(x))", "--at", "x=1,y=1")
    assert (code, out) == (2, "")
    assert err.startswith("adcli: error: f3: unexpected ')'; expected an operator or the end "
                          "(column 7)\n  sin(x))\n")


@pytest.mark.parametrize("argv, message", [
    (["grad", "x", "--at", "x=1", "--skip-bad-rows"],        # was silently accepted
     "--skip-bad-rows is for --points input, and there is none"),
    (["check", "x^2", "2x", "--skip-bad-rows", "--columns", "x"],
     "--columns, --skip-bad-rows are for --points input, and there is none"),
])
def test_options_about_points_input_need_points_input(argv, message):
    code, out, err = run_cli(*argv)
    assert (code, out, err) == (2, "", f"adcli: error: {message}\n")


@pytest.mark.parametrize("argv, message", [
    # --wrt pi was 'pi does not appear in the expression, so its derivative is 0'
    (["grad", "x*pi", "--at", "x=1", "--wrt", "pi"], "--wrt pi: pi is a constant, not a "
                                                     "variable"),
    # 'the expression has y, x', when --wrt had named them
    (["grad", "x*y", "--at", "x=1,y=2", "--order", "3", "--wrt", "y,x"],
     "--order 3 differentiates in one variable, not y, x: give one name to --wrt; for "
     "mixed partials, diff(EXPRESSION, y, x) in adcli eval, each name once for each time "
     "to differentiate in it"),
    (["eval", "x/inf", "--at", "x=1"], "no value given for inf: add --at inf=... (inf is a "
     "value, not a constant of the language: give it to a variable (--at x=inf), or write "
     "1e999 in the expression)"),
])
def test_messages_that_said_less_than_they_knew(argv, message):
    code, out, err = run_cli(*argv)
    assert (code, out, err) == (2, "", f"adcli: error: {message}\n")


def test_brackets_group_an_at_value_as_parentheses_do():
    """--at x=[1,2] was split at the comma into x=[1 and a pair '2]'."""
    code, out, err = run_cli("eval", "x", "--at", "x=[1,2]")
    assert (code, err) == (2, "adcli: error: --at x: unexpected ','; expected an operator or "
                              "']': '[1,2]'\n")
    assert run_cli("eval", "x+y", "--at", "x=[1+1],y={2}", "--format", "plain")[1] == "4.0\n"


@pytest.mark.parametrize("spec, count", [("-1e20:1e20", 401), ("1e300:-1e300", 7),
                                         ("0.1:1e17", 11)])
def test_grid_points_are_the_nearest_floats_for_large_decimal_ends_too(capsys, spec, count):
    """Ends whose scaled numerators pass 2^53 fell back to a float formula: 56 of the 401
    points of -1e20:1e20 were not the float64 nearest the exact decimal."""
    from decimal import Decimal
    from fractions import Fraction

    code, out, err = run(capsys, "eval", "x", "--grid", f"x={spec}:{count}", "--format", "plain")
    start, stop = (Fraction(Decimal(t)) for t in spec.split(":"))
    exact = [float(start + (stop - start) * i / (count - 1)) for i in range(count)]
    assert [float(v) for v in out.split()] == exact


def test_a_repeated_column_name_is_named():
    code, out, err = run_cli("eval", "x", "--points", "-", stdin="x,y,x\n1,2,3\n")
    assert (code, err) == (2, "adcli: error: points file line 1: the column name 'x' is "
                              "repeated\n")


def test_readme_grid_example(capsys):
    # README: grad "x^3" --grid x=-1:1:5 --format csv; f = x^3, f' = 3x^2
    code, out, _ = run(capsys, "grad", "x^3", "--grid", "x=-1:1:5", "--format", "csv")
    assert code == 0
    header, *rows = out.splitlines()
    assert header == "x,f,df/dx"
    assert [[float(t) for t in r.split(",")] for r in rows] == [
        [-1.0, -1.0, 3.0], [-0.5, -0.125, 0.75], [0.0, 0.0, 0.0],
        [0.5, 0.125, 0.75], [1.0, 1.0, 3.0]]


def test_grid_with_at_parameters(capsys):
    # a*x with a = 2 at x = 0, 1, 2: values 0, 2, 4; d/dx = a = 2, d/da = x
    document, _ = run_json(capsys, "grad", "a*x", "--at", "a=2", "--grid", "x=0:2:3")
    assert [(p["value"], p["gradient"]["x"], p["gradient"]["a"]) for p in document["points"]] \
        == [(0.0, 2.0, 0.0), (2.0, 2.0, 1.0), (4.0, 2.0, 2.0)]


def test_points_file(capsys, tmp_path):
    # columns in any order; x*y at (2, 1) and (4, 3)
    points = tmp_path / "points.csv"
    points.write_text("y,x\n1,2\n3,4\n", encoding="utf-8")
    code, out, _ = run(capsys, "grad", "x*y", "--points", str(points), "--format", "plain")
    assert code == 0
    assert out == "2.0 1.0 2.0\n12.0 3.0 4.0\n"


def test_points_from_stdin(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"x,y\n1,2\n3,4\n"),
                                                       encoding="utf-8"))
    document, _ = run_json(capsys, "grad", "x*y", "--points", "-")
    assert [(p["at"], p["value"], p["gradient"]) for p in document["points"]] == [
        ({"x": 1.0, "y": 2.0}, 2.0, {"x": 2.0, "y": 1.0}),
        ({"x": 3.0, "y": 4.0}, 12.0, {"x": 4.0, "y": 3.0}),
    ]


def test_a_constant_expression_needs_no_at_and_has_an_empty_gradient(capsys):
    document, _ = run_json(capsys, "grad", "2*pi")
    assert document["variables"] == []
    assert document["points"] == [{"at": {}, "value": 2 * math.pi, "gradient": {}}]


def test_a_bare_variable_has_derivative_one(capsys):
    document, _ = run_json(capsys, "grad", "x", "--at", "x=7")
    assert document["points"] == [{"at": {"x": 7.0}, "value": 7.0, "gradient": {"x": 1.0}}]


def test_a_variable_the_result_does_not_depend_on_has_derivative_zero(capsys):
    # x + 0*y: d/dy = 0
    document, _ = run_json(capsys, "grad", "x + 0*y", "--at", "x=1,y=5")
    assert document["points"][0]["gradient"] == {"x": 1.0, "y": 0.0}


# ----- errors: exit 2, one message on stderr, nothing on stdout -----------------------------

ERRORS = [
    # arguments, words the message must contain
    (["grad", "sin(x))", "--at", "x=1"], ["unexpected ')'", "(column 7)", "sin(x))"]),
    (["grad", "sinn(x)", "--at", "x=1"], ["unknown function 'sinn'; did you mean 'sin'?"]),
    (["grad", "x(y, 1)", "--at", "x=1,y=1"], ["'x' is not a function", "x*("]),
    (["grad", "atan2(x)", "--at", "x=1"], ["atan2() takes 2 arguments, got 1"]),
    (["grad", "", "--at", "x=1"], ["empty"]),
    (["grad", "x+y+z", "--at", "y=1"], ["no value given for x and z"]),
    (["grad", "x*y"], ["no value given for x and y"]),
    (["grad", "x", "--at", "x"], ["'x'", "name=value"]),
    (["grad", "x", "--at", "=1"], ["'=1'", "name=value"]),
    (["grad", "x", "--at", "x="], ["'x='", "name=value"]),
    (["grad", "x", "--at", "x=1,,y=2"], ["name=value"]),
    (["grad", "x", "--at", "x=1", "--at", "x=2"], ["x is given more than once"]),
    (["grad", "x+pi", "--at", "x=1,pi=3"], ["pi", "constant"]),
    (["grad", "x*e", "--at", "e=1,x=1"], ["e is a constant"]),
    (["grad", "x", "--at", "x=abc"], ["x", "'abc'", "not a number"]),
    (["grad", "x", "--at", "x=sin("], ["x", "'sin('"]),
    (["grad", "x", "--at", "x=1,y=2", "--strict"], ["'y'"]),
    (["grad", "x", "--at", "x=1", "--wrt", "y", "--strict"], ["y"]),
    (["grad", "x", "--at", "x=1", "--att", "x=2"], ["--att"]),
    (["grad", "x", "--at", "x=1", "--format", "xml"], ["--format", "xml"]),
    (["grad", "x", "--at", "x=1", "--digits", "0"], ["--digits"]),
    (["grad", "x*y", "--at", "x=1,y=2", "--order", "2"], ["--order 2", "--wrt"]),
    (["grad", "x", "y", "--at", "x=1"], ["one expression"]),
    (["grad", "x", "--grid", "x=0:1"], ["--grid", "start:stop:count"]),
    (["grad", "x", "--grid", "x=0:1:0"], ["--grid"]),
    (["grad", "x", "--at", "x=1", "--grid", "x=0:1:2"], ["x given more than once"]),
    (["grad", "x", "--points", "/nonexistent/points.csv"], ["/nonexistent/points.csv"]),
    (["eval", "x", "--at", "x=1", "--wrt", "x"], ["--wrt"]),
    (["frobnicate", "x"], ["frobnicate"]),
]


@pytest.mark.parametrize("args, words", ERRORS, ids=[" ".join(a) for a, _ in ERRORS])
def test_bad_input_exits_2_with_one_message_and_nothing_on_stdout(capsys, args, words):
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    assert err.lower().count("error:") == 1
    for word in words:
        assert word in err


def test_syntax_error_on_the_command_line_is_the_readme_example_verbatim(capsys):
    code, out, err = run(capsys, "grad", "sin(x))", "--at", "x=1")
    assert (code, out) == (2, "")
    assert err == ("adcli: error: unexpected ')'; expected an operator or the end (column 7)\n"
                   "  sin(x))\n"
                   "        ^\n")


def test_a_value_for_an_unused_name_is_a_warning(capsys):
    code, out, err = run(capsys, "grad", "x", "--at", "x=1,y=2", "--format", "plain")
    assert code == 0
    assert out == "1.0 1.0\n"
    (warning,) = warnings_in(err)
    assert "'y'" in warning


# ----- domain trouble: values, warnings, --strict -------------------------------------------

DOMAIN = [
    # expression, point, what the warning lines must name, how many there are
    ("log(x)", "x=-1", "log", 2),        # nan; and the derivative -1 shown is a convention
    ("sqrt(x)", "x=-1", "sqrt", 1),
    ("1/x", "x=0", "'/'", 1),
    ("acos(x)", "x=2", "acos", 1),
    ("sqrt(x)", "x=0", "sqrt", 2),       # a derivative that is inf; and an edge (a kink)
]


@pytest.mark.parametrize("text, at, name, lines", DOMAIN,
                         ids=[f"{t} {a}" for t, a, _, _ in DOMAIN])
def test_domain_trouble_is_a_warning_not_an_error(capsys, text, at, name, lines):
    code, out, err = run(capsys, "grad", text, "--at", at, "--format", "json")
    assert code == 0
    strict_json(out)
    warnings = warnings_in(err)
    assert len(warnings) == lines
    assert all(name in warning for warning in warnings)
    assert err.count("\n") == lines


@pytest.mark.parametrize("text, at, name, lines", DOMAIN,
                         ids=[f"{t} {a}" for t, a, _, _ in DOMAIN])
def test_strict_turns_domain_trouble_into_exit_3(capsys, text, at, name, lines):
    code, out, err = run(capsys, "grad", text, "--at", at, "--format", "json", "--strict")
    assert code == 3
    assert "Traceback" not in err
    assert name in err


def test_one_warning_per_function_counting_the_points(capsys):
    # log(x) at x = -2, -1, 0, 1, 2: nan at 2 points, -inf at 1 -> 3 of 5 points
    # (and log's argument is negative at 2 points, where a derivative is a convention)
    code, _, err = run(capsys, "grad", "log(x)", "--grid", "x=-2:2:5", "--format", "csv")
    assert code == 0
    kink, warning = warnings_in(err)
    assert "log" in warning and "3 of 5 points" in warning
    assert "log is not differentiable at 2 of 5 points" in kink


def test_sqrt_at_zero_has_an_infinite_derivative_and_a_warning(capsys):
    code, out, err = run(capsys, "grad", "sqrt(x)", "--at", "x=0", "--format", "json")
    assert code == 0
    assert strict_json(out)["points"][0] == {"at": {"x": 0.0}, "value": 0.0,
                                             "gradient": {"x": "inf"}}
    warnings = warnings_in(err)
    assert [w for w in warnings if "derivative of sqrt is nan or inf" in w]
    assert [w for w in warnings if "sqrt is not differentiable" in w]   # an edge: a kink
    assert len(warnings) == 2


def test_strict_with_finite_results_is_exit_0(capsys):
    code, out, err = run(capsys, "grad", "log(x)", "--at", "x=1", "--strict", "--format", "plain")
    assert (code, out, err) == (0, "0.0 1.0\n", "")


# ----- --debug, --version (internal errors: test_hostile.py) ---------------------------------------------------

def test_debug_option_exists(capsys):
    code, out, _ = run(capsys, "--debug", "grad", "x", "--at", "x=2", "--format", "plain")
    assert (code, out) == (0, "2.0 1.0\n")


def test_version(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0
    assert adcli.__version__ in out


# ----- the installed entry point and python -m adcli ------------------------------------------

@pytest.fixture(scope="module")
def executable():
    path = adcli_executable()
    if path is None:
        pytest.skip("the adcli entry point is not installed")
    return path


def test_installed_entry_point_headline(executable):
    result = subprocess.run([executable, "grad", "exp(x^2)^2", "--at", "x=0.5", "--format",
                             "json"], capture_output=True, text=True, env=subprocess_env(),
                            timeout=60)
    assert result.returncode == 0, result.stderr
    (point,) = strict_json(result.stdout)["points"]
    assert math.isclose(point["value"], math.exp(0.5), rel_tol=1e-15)
    assert math.isclose(point["gradient"]["x"], 2 * math.exp(0.5), rel_tol=1e-15)


def test_installed_entry_point_points_from_stdin(executable):
    result = subprocess.run([executable, "grad", "x*y", "--points", "-", "--format", "csv"],
                            input="x,y\n1,2\n3,4\n", capture_output=True, text=True,
                            env=subprocess_env(), timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["x,y,f,df/dx,df/dy",
                                          "1.0,2.0,2.0,2.0,1.0",
                                          "3.0,4.0,12.0,4.0,3.0"]


def test_installed_entry_point_error_exit_status(executable):
    result = subprocess.run([executable, "grad", "x+", "--at", "x=1"], capture_output=True,
                            text=True, env=subprocess_env(), timeout=60)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "unexpected end of expression" in result.stderr
    assert "Traceback" not in result.stderr


def test_table_on_a_stdout_that_cannot_encode_unicode_is_not_an_internal_error(executable):
    # e.g. a legacy Windows console or PYTHONIOENCODING=ascii: the table's "∂f/∂x" cannot
    # be encoded. That is not a bug in the user's input, and must not be reported as an
    # internal error (exit 70, "please report this").
    env = subprocess_env(PYTHONIOENCODING="ascii")
    env.pop("PYTHONUTF8")
    result = subprocess.run([executable, "grad", "x", "--at", "x=1"], capture_output=True,
                            text=True, encoding="utf-8", errors="replace", env=env, timeout=60)
    assert result.returncode in (0, 2), result.stderr
    assert "internal error" not in result.stderr


def test_python_m_adcli_help():
    result = subprocess.run([sys.executable, "-m", "adcli", "--help"], capture_output=True,
                            text=True, env=subprocess_env(), timeout=60)
    assert result.returncode == 0
    for command in ("grad", "eval", "hessian", "jacobian"):
        assert command in result.stdout
    assert result.stderr == ""


def test_points_file_with_a_utf8_byte_order_mark(capsys, tmp_path):
    # Spreadsheets save CSV with a BOM; it is not part of the first column's name.
    path = tmp_path / "bom.csv"
    path.write_bytes(b"\xef\xbb\xbfx,y\n1,2\n")
    code, out, err = run(capsys, "grad", "x*y", "--points", str(path), "--format", "csv")
    assert code == 0, err
    # f = xy = 2, df/dx = y = 2, df/dy = x = 1
    assert out.splitlines() == ["x,y,f,df/dx,df/dy", "1.0,2.0,2.0,2.0,1.0"]


def test_points_file_without_rows_still_gives_the_csv_header(capsys, tmp_path):
    path = tmp_path / "header-only.csv"
    path.write_text("x\n")
    code, out, err = run(capsys, "grad", "x", "--points", str(path), "--format", "csv")
    assert (code, out) == (0, "x,f,df/dx\n"), err


def test_a_variable_named_like_the_argument_is_an_expression(capsys):
    # The word "expression" names grad's argument inside click; it is still just a name.
    code, out, err = run(capsys, "grad", "expression", "--at", "expression=2",
                         "--format", "plain")
    assert (code, out) == (0, "2.0 1.0\n"), err


def _examples():
    from adcli.commands import COMMANDS, load

    return [(name, example) for name in COMMANDS for example in load(name).examples]


def test_every_command_shows_examples_in_its_help(capsys):
    from adcli.commands import COMMANDS, load

    for name in COMMANDS:
        examples = load(name).examples
        assert examples, f"{name} has no examples"
        code, out, _ = run(capsys, name, "--help")
        assert code == 0
        for example in examples:
            assert f"\n    {example}\n" in out, (name, example)  # one line each, unwrapped
            assert len(f"    {example}") <= 80, example  # so on an 80-column terminal too


@pytest.mark.parametrize("name, example", _examples(), ids=[e for _, e in _examples()])
def test_every_example_in_the_help_runs(capsys, name, example):
    import shlex

    words = shlex.split(example)
    assert words[:2] == ["adcli", name]
    code, out, err = run(capsys, *words[1:])
    assert code == 0, err
    assert out and "error" not in err


@pytest.mark.parametrize("name, usage", [
    ("grad", "EXPRESSION"), ("eval", "EXPRESSION"), ("jacobian", "EXPRESSIONS..."),
    ("check", "EXPRESSION [EXPECTED]"), ("plot", "EXPRESSION [YOURS]")])
def test_the_usage_line_names_the_expressions_a_command_takes(capsys, name, usage):
    # "EXPRESSION..." read as "several expressions" for grad, which takes one.
    code, out, _ = run(capsys, name, "--help")
    assert (code, out.splitlines()[0]) == (0, f"Usage: adcli {name} [OPTIONS] {usage}")


@pytest.mark.parametrize("command, said", [("grad", "csv or tsv"), ("check", "csv or tsv"),
                                           ("plot", "csv")])
def test_no_header_names_only_the_formats_the_command_has(command, said):
    # check and plot write no tsv; their help said "in csv or tsv output"
    code, out, _ = run_cli(command, "--help")
    text = " ".join(out.split())
    listed = text.split("Output format: ", 1)[1].split(".", 1)[0]    # "a, b or c"
    formats = listed.replace(" or ", ", ").split(", ")
    assert code == 0 and f"No header line in {said} output." in text
    assert set(said.split(" or ")) <= set(formats) and ("tsv" in formats) == ("tsv" in said)
