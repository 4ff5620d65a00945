"""adcli check as the README's options table and "Check a derivation" say, taken literally.

1. --digits rounds results, never a point's coordinates (they identify it), in every format.
2. --no-header drops the header line of check's csv, as it does grad's and eval's.
3. --strict: exit 3 when f's value, adcli's derivative or the expectation is nan or inf at a
   point checked (the report is written whole first).
4. A match that holds only thanks to --atol says so, not "the rounding error".
5. A points file's other columns pass through to check's csv, json and table, as grad's do.
6. Where rounding may have made all of both values (cosh^2 x - sinh^2 x beyond x = 19, whose
   floats cancel to a multiple of their ulp, 8 or more), a match says nothing: the point is
   not counted, and a wrong expectation (2) is not credited there.

Every expected number is worked out by hand in the comments.
"""
from __future__ import annotations

import csv
import io
import json
import re

import pytest

from conftest import run_cli, strict_json

HEADER = ("x,derivative,expected,ad,finite_difference,finite_difference_error,"
          "relative_difference,status")


def rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def cells(text: str) -> list[list[str]]:
    """The rows of the tables drawn (header rows too), as their cells' texts."""
    return [[c.strip() for c in re.split("[│┃]", line)[1:-1]]
            for line in text.splitlines() if line[:1] in "│┃"]


# ----- 1. --digits never rounds the coordinates ----------------------------------------------

def test_digits_rounds_the_results_and_not_the_point_in_csv():
    # f' = 2x = 2.46913578 at x = 1.23456789: 2.47 to 3 digits; x itself stays whole
    code, out, _ = run_cli("check", "x^2", "2x", "--at", "x=1.23456789", "--digits", "3",
                           "--format", "csv")
    assert code == 0
    header, row = rows(out)
    assert header == HEADER.split(",")
    assert row[:4] == ["1.23456789", "d/dx", "2.47", "2.47"]


def test_digits_rounds_the_results_and_not_the_point_in_json():
    # f = x^2 = 1.524157875... is rounded (1.52); the point is not, wherever it is named
    code, out, _ = run_cli("check", "x^2", "2x", "--at", "x=1.23456789", "--digits", "3",
                           "--format", "json")
    document = strict_json(out)
    point = document["points"][0]
    assert (code, point["at"], point["value"]) == (0, {"x": 1.23456789}, 1.52)
    assert point["derivatives"]["x"]["ad"] == 2.47
    assert document["worst"][0]["at"] == {"x": 1.23456789}


def test_digits_rounds_the_results_and_not_the_point_in_the_table():
    code, out, _ = run_cli("check", "x^2", "2x", "--at", "x=1.23456789", "--digits", "3")
    assert code == 0 and cells(out) == [
        ["x", "expected", "AD", "finite differences", "relative difference"],
        ["1.23456789", "2.47", "2.47", "2.47", "0"]]


def test_digits_does_not_round_the_kinks_table_either():
    # |x - 1.23456789| has no derivative at its corner: the row there names it whole
    code, out, _ = run_cli("check", "abs(x-1.23456789)", "sign(x-1.23456789)",
                           "--at", "x=1.23456789", "--digits", "2", "--format", "json")
    assert code == 1
    assert strict_json(out)["kinks"][0]["at"] == {"x": 1.23456789}


# ----- 2. --no-header ---------------------------------------------------------------------------

def test_no_header_drops_the_csv_header_line():
    # d/dx x^2 at 1 and 3: 2 and 6 (rows in the points' order, the header gone)
    code, out, err = run_cli("check", "x^2", "2x", "--grid", "x=1:3:2", "--format", "csv",
                             "--no-header")
    assert code == 0
    assert [r[:5] for r in rows(out)] == [["1.0", "d/dx", "2.0", "2.0", "2.0"],
                                          ["3.0", "d/dx", "6.0", "6.0", "6.0"]]
    assert not out.startswith("x,") and err.startswith("adcli: matches d/dx at 2/2 points")


def test_no_header_with_a_format_that_has_none_is_an_error_as_for_grad():
    code, out, err = run_cli("check", "x^2", "2x", "--at", "x=1", "--no-header")
    assert (code, out, err) == (2, "", "adcli: error: --no-header is for --format csv or tsv, "
                                       "not table\n")


# ----- 3. --strict -------------------------------------------------------------------------

POINTS = "id,x\na,1\nb,-1\nc,4\n"   # sqrt is nan at -1: f, f' and 1/(2 sqrt x) all are


def test_strict_exits_3_when_a_value_at_a_point_is_nan_and_names_the_point():
    code, out, err = run_cli("check", "sqrt(x)", "1/(2 sqrt(x))", "--points", "-",
                             "--format", "csv", "--strict", stdin=POINTS)
    assert code == 3
    # the report is whole: (sqrt x)' = 1/(2 sqrt x) is 0.5 at 1 and 0.25 at 4
    assert [r[:5] for r in rows(out)[1:]] == [["a", "1.0", "d/dx", "0.5", "0.5"],
                                              ["b", "-1.0", "d/dx", "nan", "nan"],
                                              ["c", "4.0", "d/dx", "0.25", "0.25"]]
    assert err.splitlines()[-1] == (
        "adcli: error: f is nan, adcli's d/dx is nan and the expected d/dx is nan at id=b, "
        "x=-1.0 (point 2 of 3) (--strict)")
    # (without --strict, the point at -1 is not counted and the other two match)
    assert run_cli("check", "sqrt(x)", "1/(2 sqrt(x))", "--points", "-", "--format", "csv",
                   stdin=POINTS)[0] == 0


def test_strict_counts_an_infinite_derivative_and_the_other_points():
    # at x = 0, sqrt(x) = 0 is finite but its derivative is inf (as is 1/(2 sqrt 0)); at
    # x = -1 every value is nan: two points, the first of them at -1
    code, _, err = run_cli("check", "sqrt(x)", "1/(2 sqrt(x))", "--grid", "x=-1:1:3",
                           "--format", "plain", "--strict")
    assert code == 3
    assert err.splitlines()[-1] == (
        "adcli: error: f is nan, adcli's d/dx is nan and the expected d/dx is nan at x=-1.0 "
        "(point 1 of 3), and a value is nan or inf at 1 more point (--strict)")


def test_strict_at_order_0_names_f_and_the_expectation():
    # log(x) = ln x: at x = 0 both are -inf, at 1 both 0; an identity, exit 3 for the -inf
    code, _, err = run_cli("check", "log(x)", "ln(x)", "--order", "0", "--grid", "x=0:1:2",
                           "--format", "plain", "--strict")
    assert (code, err.splitlines()[-1]) == (
        3, "adcli: error: f is -inf and the expected f is -inf at x=0.0 (point 1 of 2) "
           "(--strict)")


# ----- 4. --atol said as such --------------------------------------------------------------

def test_a_match_thanks_to_atol_says_atol():
    # 2x + 1e-6 against 2x at x = 1: off by 1e-6 (5e-7 relative), far beyond rounding
    # (a few 1e-16) and rtol (1e-9 of 2); within --atol 1e-5 only
    code, out, _ = run_cli("check", "x^2", "2x + 1e-6", "--at", "x=1", "--atol", "1e-5",
                           "--format", "plain")
    assert (code, out) == (0, "matches d/dx at 1/1 points, largest relative difference "
                              "5e-07 (within --atol 1e-05)\n")


def test_atol_in_the_json_summary_too():
    code, out, _ = run_cli("check", "x^2", "2x + 1e-6", "--at", "x=1", "--atol", "1e-5",
                           "--format", "json")
    summary = strict_json(out)["summary"]
    assert code == 0 and summary.endswith("(within --atol 1e-05)")
    assert "rounding" not in summary


# ----- 5. a points file's other columns pass through -----------------------------------------

def test_other_columns_pass_through_check_csv_first_as_grad_puts_them():
    stdin = "id,x,note\nfirst,1,a b\nsecond,2,\n"
    code, out, _ = run_cli("check", "x^2", "2x", "--points", "-", "--format", "csv",
                           stdin=stdin)
    assert code == 0
    assert [r[:6] for r in rows(out)] == [
        ["id", "note", "x", "derivative", "expected", "ad"],
        ["first", "a b", "1.0", "d/dx", "2.0", "2.0"],
        ["second", "", "2.0", "d/dx", "4.0", "4.0"]]


def test_a_passed_column_named_like_a_result_puts_underscore_after_the_result():
    code, out, _ = run_cli("check", "x^2", "2x", "--points", "-", "--format", "csv",
                           stdin="status,x\nkeep,3\n")
    header, row = rows(out)
    assert code == 0
    assert header == ["status", "x", "derivative", "expected", "ad", "finite_difference",
                      "finite_difference_error", "relative_difference", "status_"]
    assert (row[0], row[1], row[4], row[-1]) == ("keep", "3.0", "6.0", "match")


def test_other_columns_pass_through_check_json_keeping_their_json_type():
    stdin = '{"x": 1, "n": 7, "tag": "p"}\n{"x": -2, "n": 8, "tag": null}\n'
    code, out, _ = run_cli("check", "x^3", "3x^2", "--points", "-", "--format", "json",
                           stdin=stdin)
    document = strict_json(out)
    assert code == 0
    assert [(p["at"], p["extra"]) for p in document["points"]] == [
        ({"x": 1.0}, {"n": 7, "tag": "p"}), ({"x": -2.0}, {"n": 8, "tag": None})]
    # the worst row (3x^2 = 12 at -2, 3 at 1: both exact, difference 0) names its point
    assert {json.dumps(r["extra"]) for r in document["worst"]} == \
        {'{"n": 7, "tag": "p"}', '{"n": 8, "tag": null}'}


def test_other_columns_head_the_table_of_worst_points():
    code, out, _ = run_cli("check", "x^2", "2x", "--points", "-",
                           stdin="id,x\nfirst,1\nsecond,2\n")
    assert code == 0
    # 2x against 2x: 2 at 1, 4 at 2, both exact (the worst first: equal, in point order)
    assert [row[:4] for row in cells(out)] == [["id", "x", "expected", "AD"],
                                               ["first", "1.0", "2.0", "2.0"],
                                               ["second", "2.0", "4.0", "4.0"]]


# ----- 6. a match where rounding left no digit is not counted ----------------------------------

# cosh(x)^2 - sinh(x)^2 = 1. In floats: 1 at x = 0; at x = 10 (cosh^2 = 1.2e8, ulp 1.5e-8)
# near 1; at 20, 30, 40 (cosh^2 = 5.9e16, 2.9e25, 1.4e34, beyond 2^53) the two squares round
# to the same float, 0. The rounding bound, 8 ulps per operation, is 8 eps (sum |dy/dv| |v|)
# = 8 eps (2c^2 + c^2 + 2s^2 + s^2) ~ 48 eps cosh(x)^2: 1.3e-6 at 10, 627 at 20, 3e11 at 30.
COSH = ["check", "cosh^2 x - sinh^2 x", "--order", "0", "--grid", "x=0:40:5",
        "--format", "plain"]
NOT_COUNTED = ("note: 3 points not counted: no digit of f or the expectation is left there: "
               "the rounding error they can make is as large as both values (cancellation), "
               "so a wrong expectation would match as well as a right one")


def test_a_wrong_constant_is_not_credited_where_f_cancelled_to_nothing():
    code, out, _ = run_cli(*COSH[:2], "2", *COSH[2:])
    lines = out.splitlines()
    assert (code, lines[0]) == (1, "differs from f at 2 of 2 points")
    assert NOT_COUNTED in lines


def test_the_right_constant_matches_where_f_keeps_digits_and_is_not_counted_elsewhere():
    code, out, _ = run_cli(*COSH[:2], "1", *COSH[2:])
    lines = out.splitlines()
    assert (code, lines[0].split(",")[0]) == (0, "matches f at 2/2 points")
    assert NOT_COUNTED in lines
    # an expectation of 0 is the claim that a value vanishes, and within its terms'
    # rounding is all a float can say of that: the derivative of sin^2 + cos^2, the
    # identity (x+1)^2 - (x^2 + 2x + 1) = 0 (at 0.1 ... 0.9, where it rounds to ~1e-16)
    assert run_cli("check", "sin(x)^2 + cos(x)^2", "0", "--grid", "x=-3:3:7",
                   "--format", "plain")[:2] == \
        (0, "matches d/dx at 7/7 points, largest relative difference 0\n")
    code, out, _ = run_cli("check", "(x+1)^2 - (x^2 + 2x + 1)", "0", "--order", "0",
                           "--grid", "x=0.1:0.9:9", "--format", "plain")
    assert (code, out.split(",")[0]) == (0, "matches f at 9/9 points")


def test_where_rounding_leaves_no_digit_at_any_point_it_cannot_tell():
    code, out, _ = run_cli(*COSH[:2], "1", "--order", "0", "--grid", "x=20:40:3",
                           "--format", "json")
    document = strict_json(out)
    assert (code, document["verdict"], document["counted"], document["skipped"]) == \
        (1, "cannot tell", 0, 3)
    assert document["summary"] == ("cannot tell: rounding leaves no digit of f or the "
                                   "expectation at the 3 points checked")


def test_atol_above_the_rounding_bound_decides_again():
    # at x = 20 the bound is 627 (48 eps cosh(20)^2, above): --atol 1e3 takes a
    # difference below it as nothing, so f's 0 against 1 matches there
    code, out, _ = run_cli(*COSH[:2], "1", "--order", "0", "--at", "x=20", "--atol", "1e3",
                           "--format", "plain")
    assert (code, out) == (0, "matches f at 1/1 points, largest relative difference 1 "
                              "(within --atol 1000)\n")


# ----- no expectation, and no random point where f is finite --------------------------------

@pytest.mark.parametrize("f, advice", [
    # arcsin(x - 50) is finite for 49 <= x <= 51 only: by hand, the README's suggestion
    ("arcsin(x-50)", "give a domain where they are, e.g. --domain x=49.1:50.9"),
    # -x^2 - 1 < 0 for every real x: sqrt is nan everywhere
    ("sqrt(-x^2-1)", "adcli found no domain where they are"),
])
def test_without_an_expectation_too_few_finite_points_is_an_error_naming_f_and_its_derivative(
        f, advice):
    code, out, err = run_cli("check", f)
    assert code == 2 and out == "", (code, err)
    assert err.startswith("adcli: error: only 0 of ") and err.count("\n") == 1, err
    assert "have f and its derivative both finite" in err and advice in err, err


def test_check_s_csv_quotes_what_would_not_read_back_as_written(tmp_path):
    # a lone CR inside an id, and ids (and a header) starting with '#': quoted as grad's
    # CSV quotes them, so that every row reads back whole through adcli's own reader
    points = tmp_path / "points.csv"
    points.write_text('"#id",x\n"a\rb",1\n"#1",2\n"  #2",3\np4,4\n', encoding="utf-8",
                      newline="")
    code, out, err = run_cli("check", "x^2", "2x", "--points", str(points), "--format", "csv")
    assert code == 0, err
    rows = list(csv.reader(io.StringIO(out, newline="")))
    assert [r[0] for r in rows] == ["#id", "a\rb", "#1", "  #2", "p4"], rows
    written = tmp_path / "out.csv"
    written.write_text(out, encoding="utf-8", newline="")
    code, again, err = run_cli("eval", "expected", "--points", str(written), "--format", "csv")
    assert code == 0 and err == "", err
    # 2x at x = 1, 2, 3, 4, each row read back (none dropped as a comment or split)
    assert [r[-1] for r in list(csv.reader(io.StringIO(again)))[1:]] == ["2.0", "4.0", "6.0",
                                                                      "8.0"], again


@pytest.mark.parametrize("option", ["--rtol", "--atol"])
@pytest.mark.parametrize("value, shown", [("nan", "nan"), ("inf", "inf"), ("1e400", "inf")])
def test_a_tolerance_that_is_not_finite_is_refused_naming_the_option(option, value, shown):
    code, out, err = run_cli("check", "x^2", "2x", option, value)
    assert (code, out) == (2, ""), (code, out, err)
    assert err == (f"adcli: error: Invalid value for '{option}': {shown} is not a finite number "
                   "(see 'adcli check --help')\n"), err


def test_finite_differences_straddling_a_pole_are_not_blamed_on_adcli_alone():
    # pi/2 as a float is 6e-17 from tan's pole: sec^2 there is 2.667e32 (mpmath), which AD
    # gives; no finite-difference step is that fine, so the two disagree
    code, out, err = run_cli("check", "tan(x)", "sec(x)^2", "--at", "x=pi/2", "--format",
                             "plain")
    assert code == 0, err
    note = out.splitlines()[1]
    assert note.startswith("note: adcli's d/dx and finite differences disagree") and \
        "a pole or a feature narrower than the differences' steps" in note, out


def test_cannot_tell_reports_no_largest_difference():
    # cosh^2 - sinh^2 at x = 20..30 keeps no digit (see the rounding tests above): nothing
    # is counted, so there is no largest difference to report, not a perfect 0
    code, out, err = run_cli("check", "cosh(x)^2 - sinh(x)^2", "1", "--order", "0",
                             "--domain", "x=20:30", "--format", "json")
    document = strict_json(out)
    assert (code, document["verdict"], document["counted"]) == (1, "cannot tell", 0), err
    assert document["largest_relative_difference"] == "nan"
