"""adcli check where float64 sits on a kink only because a step before it underflowed:
sqrt(x^2) at x = 1e-200 is |x|, smooth there with slope 1, but x^2 is 0 in float64 and
sqrt(0) is its kink. The long double run (adcli.wider) shows the kink is the underflow's, so
the point is a smooth one, judged by long double's AD (as grad already does), with no
left/right sides, no "does not exist" and no kink warning. True kinks stay.

Expected derivatives by hand: d|x|/dx = sign(x) away from 0; d/dx (sqrt(x^2) + sqrt(y)) is
sign(x), whatever y; at x = 0 the sides of |x| are -1 and +1.
"""
from __future__ import annotations

import pytest

from conftest import run_cli, strict_json, warnings_in

SQRT_KINK = ("adcli: warning: sqrt is not differentiable at 1 of {n} (an argument of 0, the "
             "edge of its domain, with a vertical tangent): its derivative there is a "
             "convention, not a fact")


def checked(*argv):
    code, out, err = run_cli("check", *argv, "--format", "json")
    return code, strict_json(out), err


@pytest.mark.parametrize("expected, code, verdict", [("1", 0, "matches"), ("-1", 1, "differs")])
def test_an_underflowed_square_is_no_kink(expected, code, verdict):
    got, report, err = checked("sqrt(x^2)", expected, "--at", "x=1e-200")
    assert got == code
    assert report["verdict"] == verdict
    assert report["no_derivative"] == 0 and report["kinks"] == []
    (point,) = report["points"]
    d = point["derivatives"]["x"]
    assert d["ad"] == 1.0                       # long double's, the true slope of |x|
    assert d["expected"] == float(expected)
    assert d["relative_difference"] == (0.0 if expected == "1" else 2.0)
    assert d["left"] is None and d["right"] is None
    assert warnings_in(err) == []


def test_the_plain_report_says_no_kink():
    code, out, err = run_cli("check", "sqrt(x^2)", "1", "--at", "x=1e-200", "--format",
                             "plain")
    assert code == 0
    assert "matches d/dx at 1/1 points, largest relative difference 0\n" in out
    assert "does not exist" not in out and "left derivative" not in out
    assert "not differentiable" not in err


@pytest.mark.parametrize("expected, code, verdict", [("1", 0, "matches"), ("-1", 1, "differs")])
def test_a_true_kink_off_the_way_does_not_keep_it(expected, code, verdict):
    # sqrt(y) sits on its true kink at y = 0, but d/dx does not pass through it (and d/dy,
    # inf there, is not asked): x's kink is still the underflow's
    got, report, err = checked("sqrt(x^2)+sqrt(y)", expected, "--wrt", "x",
                               "--at", "x=1e-200,y=0")
    assert got == code
    assert report["verdict"] == verdict
    assert report["no_derivative"] == 0 and report["kinks"] == []
    d = report["points"][0]["derivatives"]["x"]
    assert d["ad"] == 1.0 and d["left"] is None and d["right"] is None
    assert warnings_in(err) == []


def test_the_true_kink_of_sqrt_y_stays_under_wrt_y():
    code, report, err = checked("sqrt(x^2)+sqrt(y)", "--wrt", "y", "--at", "x=1e-200,y=0")
    assert code == 1
    assert report["verdict"] == "cannot tell" and report["no_derivative"] == 1
    assert warnings_in(err) == [SQRT_KINK.format(n="1 point")]


@pytest.mark.parametrize("f, warning", [
    ("abs(x)", "adcli: warning: abs is not differentiable at 1 of 1 point (an argument of "
               "0, a corner): its derivative there is a convention, not a fact"),
    ("sqrt(x^2)", SQRT_KINK.format(n="1 point")),
])
def test_true_kinks_at_zero_stay(f, warning):
    code, report, err = checked(f, "--at", "x=0")
    assert code == 1
    assert report["verdict"] == "cannot tell" and report["no_derivative"] == 1
    (kink,) = report["kinks"]
    assert (kink["left"], kink["right"]) == (-1.0, 1.0)
    assert warnings_in(err) == [warning]


def test_only_the_true_kink_stays_among_tiny_points(tmp_path):
    points = tmp_path / "points.csv"
    points.write_text("x\n1e-200\n0\n-1e-200\n")
    code, report, err = checked("sqrt(x^2)", "sign(x)", "--points", str(points))
    assert code == 0
    assert report["counted"] == 2 and report["no_derivative"] == 1
    by_x = {p["at"]["x"]: p for p in report["points"]}
    assert by_x[1e-200]["status"] == by_x[-1e-200]["status"] == "match"
    assert by_x[1e-200]["derivatives"]["x"]["ad"] == 1.0
    assert by_x[-1e-200]["derivatives"]["x"]["ad"] == -1.0
    assert by_x[0.0]["status"] == "no derivative"
    assert [k["at"] for k in report["kinks"]] == [{"x": 0.0}]
    assert warnings_in(err) == [SQRT_KINK.format(n="3 points")]


def test_the_api_agrees():
    from adcli import check

    result = check("sqrt(x^2)", "1", at={"x": 1e-200})
    assert result.verdict == "matches"
    assert result.kinks == [] and result.no_derivative == 0
