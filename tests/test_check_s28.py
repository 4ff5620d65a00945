"""adcli check, the twenty-eighth session: expect= refuses a None expectation and an empty
mapping (each once checked nothing of the caller's), and finite differences that did not
settle are marked where they are shown (the table, the verdict line, csv's error column),
not left to read as a third opinion beside AD.

The numbers are checked against closed forms (mpmath) first, so a wrong row fails on its own.
"""
from __future__ import annotations

import csv
import io
import json

import mpmath as mp
import pytest

import adcli
from adcli.errors import ValuesError
from conftest import run_cli

mp.mp.dps = 30
EMPTY = ("expect= is empty: give at least one derivative, or leave expect out to compare "
         "AD with finite differences")
UNSETTLED = "(did not settle)"


# ----- expect= as the API takes it -------------------------------------------------------

@pytest.mark.parametrize("expect", [{"x": None}, {"x": "2", "y": None}, {("x", "y"): None}])
def test_a_none_expectation_is_refused_by_name(expect):
    f = "2*x" if len(expect) == 1 and "x" in expect else "2*x + x*y"
    key = next(k for k, v in expect.items() if v is None)
    with pytest.raises(ValuesError) as caught:
        adcli.check(f, expect=expect)
    assert str(caught.value) == (f"expect[{key!r}] must be a str, a finite number or an "
                                 "Expression, not None")


def test_a_none_expected_still_compares_ad_with_finite_differences():
    r = adcli.check("x^3", None, at={"x": 1.5})
    assert not r.expected_mode and r.verdict == "matches"
    assert r.targets[0].ad[0] == pytest.approx(float(3 * mp.mpf(1.5) ** 2), rel=1e-15)


@pytest.mark.parametrize("given", [{}, dict()])
def test_an_empty_expect_is_an_error_not_a_pass(given):
    with pytest.raises(ValuesError) as caught:
        adcli.check("x^3", expect=given)
    assert str(caught.value) == EMPTY


def test_an_empty_expect_beside_an_expected_is_an_error_too():
    with pytest.raises(ValuesError) as caught:
        adcli.check("x^3", "3x^2", expect={})
    assert str(caught.value) == EMPTY


@pytest.mark.parametrize("given", ["", " ", "="])
def test_an_empty_cli_expect_is_one_line_exit_2(given):
    code, out, err = run_cli("check", "x^3", "--expect", given, "--at", "x=1")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "is not of the form NAME=EXPRESSION" in err
    assert "Traceback" not in err


def test_the_cli_without_expect_still_compares_with_finite_differences():
    code, out, err = run_cli("check", "x^3", "--at", "x=1.5", "--format", "json")
    assert code == 0, err
    point = json.loads(out)["points"][0]["derivatives"]["x"]
    assert point["expected"] is None
    assert point["ad"] == pytest.approx(float(3 * mp.mpf(1.5) ** 2), rel=1e-15)


# ----- finite differences that did not settle ------------------------------------------

def mixed_exact(x: float, y: float) -> float:
    """∂²/∂x∂y of exp(xy)/y, d/dx(d/dy f), in closed form: x exp(xy)."""
    f = lambda a, b: mp.exp(a * b) / b     # noqa: E731
    exact = mp.diff(f, (mp.mpf(x), mp.mpf(y)), (1, 1))
    assert abs(exact - mp.mpf(x) * mp.exp(mp.mpf(x) * mp.mpf(y))) < mp.mpf(10) ** -20
    return float(exact)


MIXED = ("exp(x*y)/y", "--expect", "x,y=x*exp(x*y)", "--at", "x=0.1,y=1e-8")


def table_row(out: str, first: str) -> list[str]:
    """The cells of the table row whose first cell is ``first`` (piped: one line a row)."""
    for line in out.splitlines():
        cells = [c.strip() for c in line.split("│")[1:-1]]
        if cells and cells[0] == first:
            return cells
    raise AssertionError(f"no row {first!r} in\n{out}")


def test_unsettled_differences_are_marked_in_the_table():
    code, out, err = run_cli("check", *MIXED)
    assert code == 0, err
    _, _, expected, ad, fd, _ = table_row(out, "0.1")
    exact = mixed_exact(0.1, 1e-8)
    assert float(expected) == pytest.approx(exact, rel=1e-15)
    number, _, mark = fd.partition(" ")
    # (the differences are nowhere near the derivative: a mark is owed)
    assert abs(float(number) - exact) > 10 * abs(exact)
    assert mark == UNSETTLED


def test_unsettled_differences_are_said_in_the_verdict():
    code, out, err = run_cli("check", *MIXED)
    summary = out.splitlines()[2]
    assert summary.startswith("matches ∂²/∂x∂y at 1/1 points")
    assert summary.endswith("; finite differences did not settle at that point: AD and "
                            "its rounding bound alone decided it")


def test_csv_gives_the_differences_error_beside_them():
    code, out, err = run_cli("check", *MIXED, "--format", "csv")
    assert code == 0, err
    row = next(csv.DictReader(io.StringIO(out)))
    exact = mixed_exact(0.1, 1e-8)
    fd, error = float(row["finite_difference"]), float(row["finite_difference_error"])
    # (an honest estimate, and one that says they did not settle: larger than the value)
    assert abs(fd - exact) <= error and error > abs(fd)


def test_exp_at_a_tiny_point_marks_its_zero_differences():
    code, out, err = run_cli("check", "exp(x)", "exp(x)", "--at", "x=1e-20")
    assert code == 0, err
    _, expected, ad, fd, _ = table_row(out, "1e-20")
    assert float(ad) == float(mp.exp(mp.mpf("1e-20")))     # 1 to float64
    assert fd == f"0.0 {UNSETTLED}"


def test_settled_differences_are_not_marked():
    code, out, err = run_cli("check", "x^3", "3x^2", "--at", "x=1.5")
    assert code == 0, err
    _, _, _, fd, _ = table_row(out, "1.5")
    assert abs(float(fd) - float(3 * mp.mpf(1.5) ** 2)) < 1e-6
    assert UNSETTLED not in out and "did not settle" not in out


def test_some_points_unsettled_are_counted_in_the_verdict():
    r = adcli.check("exp(x)", "exp(x)", at={"x": [1e-20, 1.0]})
    assert r.verdict == "matches"
    assert r.summary.endswith("; finite differences did not settle at 1 of them: AD and "
                              "its rounding bound alone decided it")
    marked = {row.at["x"]: row.unsettled for row in r.worst}
    assert marked == {1e-20: True, 1.0: False}
    # (at 1 the differences settled on e, to their own error)
    settled = next(row for row in r.worst if row.at["x"] == 1.0)
    assert abs(settled.fd - float(mp.e)) < 1e-8


def test_a_wrong_expectation_says_so_too_where_differences_did_not_settle():
    r = adcli.check("exp(x)", "2*exp(x)", at={"x": [1e-21, 1e-20]})
    assert r.verdict == "differs"
    assert r.summary == ("differs from d/dx at 2 of 2 points; finite differences did not "
                         "settle at any of them: AD and its rounding bound alone decided "
                         "them")


@pytest.mark.parametrize("argv", [("sin(x)", "cos(x)", "--grid", "x=-pi:pi:5"),
                                  ("cos(x)", "-sin(x)", "--at", "x=3.141592653589793"),
                                  ("log(x^2+1)", "2x/(x^2+1)", "--grid", "x=-2:2:5")])
def test_a_zero_derivative_the_differences_bound_is_settled(argv):
    """cos(pi/2) is 6e-17, 0 to within the half-ulp move of the typed point; the
    differences, 0 +- 2.8e-14, witness it, as check without an expectation says."""
    code, out, err = run_cli("check", *argv)
    assert code == 0
    assert "did not settle" not in out
