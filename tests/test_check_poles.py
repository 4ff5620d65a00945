"""adcli check where finite differences straddle a pole of f.

At pi/2 as a float (6e-17 from tan's pole; mpmath) or at 1 + 2^-52 for 1/(x - 1), every
finite-difference step spans the pole: f(x - h) and f(x + h) lie on either side of it, so
the differences estimate nothing, and AD, which is right there (sec^2 = 2.667e32), has no
witness. Such a point is not counted, with the reason; if no point is counted the verdict
is "cannot tell" (exit 1). A point merely near a pole, where steps short enough do not
reach it, is counted as any other, and a wrong derivative rule is caught there.

Every expected number is worked out by hand or with mpmath in the comments.
"""
from __future__ import annotations

import math
import os
import re
import subprocess
import sys
from pathlib import Path

import mpmath
import numpy as np
import pytest

import adcli
from adcli import functions
from conftest import run_cli, run_in_pty, strict_json

ODD = ("finite differences straddle a pole of f (f changes sign through infinity between "
       "x-h and x+h)")
EVEN = ("finite differences straddle a pole of f (f goes to infinity between x-h and x+h, "
        "without changing sign)")
HALF_PI = "1.5707963267948966"          # float(pi/2), 6.1e-17 below the pole
NEXT_TO_ONE = "1.0000000000000002"      # 1 + 2^-52


def plain(*argv):
    return run_cli("check", *argv, "--format", "plain")


# ----- a point whose differences straddle a pole: not counted --------------------------------

@pytest.mark.parametrize("f, at, reason", [
    ("tan(x)", HALF_PI, ODD),            # tan: +1.6e16 at x, -1/(h - 6e-17) at x + h
    ("1/(x-1)", NEXT_TO_ONE, ODD),       # 4.5e15 at x, -1/h at x - h
    ("1/sin(x)", "pi", ODD),             # pi as a float is 1.2e-16 below sin's zero
    ("1/(x-1)^2", NEXT_TO_ONE, EVEN),    # 2e31 at x, 1/h^2 on both sides
    ("tan(x)^2", HALF_PI, EVEN),
    ("x/(x^2-4)", "1.99999999999999", ODD),     # the pole at 2, 1e-14 away
])
def test_a_point_straddled_by_a_pole_is_not_counted_and_nothing_is_told(f, at, reason):
    code, out, err = plain(f, "--at", f"x={at}")
    assert (code, err) == (1, ""), (out, err)
    assert out == ("cannot tell: finite differences straddle a pole at the 1 point checked\n"
                   f"note: 1 point not counted: {reason}\n"), out


def test_adcli_is_right_at_the_pole_so_it_must_not_be_blamed():
    # sec^2(float(pi/2)) = 2.6670937881135712e32 (mpmath, 50 digits): AD has it
    with mpmath.workdps(50):
        reference = float(mpmath.sec(mpmath.mpf(float(HALF_PI))) ** 2)
    result = adcli.check("tan(x)", at={"x": float(HALF_PI)})
    t = result.targets[0]
    assert abs(t.ad[0] - reference) <= 1e-14 * reference
    assert (result.verdict, result.exit_code, result.counted, result.skipped) == \
        ("cannot tell", 1, 0, 1)
    assert (t.status[0], t.why[0], bool(t.pole[0])) == ("skipped", ODD, True)
    assert not any("disagree" in line for line in [result.summary, *result.notes])


def test_several_points_all_straddled_are_cannot_tell_with_exit_1():
    # pi/2 and -pi/2 as floats, each 6e-17 inside its pole; 1 + 2^-52 for the second f
    result = adcli.check("tan(x)", at={"x": [math.pi / 2, -math.pi / 2]})
    assert (result.verdict, result.exit_code, result.counted, result.skipped) == \
        ("cannot tell", 1, 0, 2)
    assert result.summary == "cannot tell: finite differences straddle a pole at the 2 " \
                             "points checked"
    code, out, _ = run_cli("check", "1/(x-1)", "--points", "-", "--format", "plain",
                           stdin=f"x\n{NEXT_TO_ONE}\n0.9999999999999999\n")
    assert (code, out.splitlines()[0]) == (1, "cannot tell: finite differences straddle a "
                                              "pole at the 2 points checked"), out


def test_a_grid_across_poles_counts_the_ordinary_points():
    # x = -pi, -pi/2, 0, pi/2, pi: tan' = sec^2 = 1 at -pi, 0, pi (tan(pi) = -1.2e-16, a
    # zero crossing, not a pole); the two poles are not counted
    code, out, err = run_cli("check", "tan(x)", "--grid", "x=-pi:pi:5", "--format", "json")
    document = strict_json(out)
    assert (code, err) == (0, "")
    assert (document["verdict"], document["counted"], document["differing"],
            document["skipped"]) == ("matches", 3, 0, 2)
    assert [p["status"] for p in document["points"]] == \
        ["match", "skipped", "match", "skipped", "match"]
    assert [p["derivatives"]["x"]["ad"] for p in document["points"][::2]] == \
        pytest.approx([1.0, 1.0, 1.0], rel=1e-15, abs=0)
    assert document["summary"].startswith("adcli's derivative agrees with finite "
                                          "differences for d/dx at 3/3 points")
    assert document["notes"] == [f"2 points not counted: {ODD}"]


def test_the_json_output_and_the_api_say_the_same():
    code, out, err = run_cli("check", "1/(x-1)", "--points", "-", "--format", "json",
                             stdin=f"x\n{NEXT_TO_ONE}\n3\n0.5\n")
    document = strict_json(out)
    result = adcli.check("1/(x-1)", at={"x": [1 + 2.0 ** -52, 3.0, 0.5]})
    t = result.targets[0]
    assert (code, err) == (result.exit_code, "") == (0, "")
    for key in ("verdict", "summary", "counted", "differing", "skipped", "notes"):
        assert document[key] == getattr(result, key), key
    assert [p["status"] for p in document["points"]] == list(result.status) == \
        ["skipped", "match", "match"]
    assert list(t.why) == list(t.pole) == [ODD, "", ""]
    # -1/(x-1)^2 by hand: -1/4 at 3, -4 at 0.5
    assert [p["derivatives"]["x"]["ad"] for p in document["points"][1:]] == [-0.25, -4.0]
    assert document["notes"] == [f"1 point not counted: {ODD}"]


def test_two_variables_each_straddled_in_its_own():
    # 1/(x - y) at x = 1 + 2^-52, y = 1: the pole x = y is inside both ladders
    result = adcli.check("1/(x-y)", at={"x": 1 + 2.0 ** -52, "y": 1.0})
    assert (result.verdict, result.skipped) == ("cannot tell", 1)
    assert [t.why[0] for t in result.targets] == [ODD, ODD.replace("x-h and x+h",
                                                                   "y-h and y+h")]


def test_a_second_derivative_straddles_a_pole_of_the_first():
    # tan'' is differenced from adcli's tan' = sec^2, an even pole at pi/2
    result = adcli.check("tan(x)", order=2, at={"x": float(HALF_PI)})
    assert result.verdict == "cannot tell"
    assert result.notes == ["1 point not counted: finite differences straddle a pole of "
                            "adcli's d/dx (it goes to infinity between x-h and x+h, without "
                            "changing sign)"]


def _sec_squared(x: float) -> float:
    with mpmath.workdps(40):
        return float(mpmath.sec(mpmath.mpf(x)) ** 2)


def test_no_point_across_a_pole_is_called_a_disagreement():
    # tan at pi/2 + d and 1/(x-1) at 1 + d, from a millionth of a unit down to an ulp:
    # either the differences find sec^2 (resp. -1/d^2, d = x - 1 exact) or the point is
    # not counted
    for f, pole, exact in (("tan(x)", math.pi / 2, _sec_squared),
                           ("1/(x-1)", 1.0, lambda x: -1.0 / (x - 1.0) ** 2)):
        x = [pole + s * 10.0 ** -k for k in range(6, 17) for s in (-1, 1)]
        x = [v for v in x if v != pole] + [np.nextafter(pole, 2), np.nextafter(pole, 0)]
        result = adcli.check(f, at={"x": x})
        t = result.targets[0]
        assert result.differing == 0 and set(t.status) <= {"match", "skipped"}, f
        # farther than 1e-9 the finest steps (1.2e-7 * 2^-10 and below) are clear of it
        far = np.abs(np.array(x) - pole) >= 1e-9
        assert all(t.status[far] == "match"), f
        assert t.ad[far] == pytest.approx([exact(v) for v in np.array(x)[far]], rel=1e-9)


# ----- with an expectation: AD decides, the note says why the differences disagree -----------

def test_with_an_expectation_ad_decides_and_the_note_names_the_pole():
    code, out, err = plain("tan(x)", "sec(x)^2", "--at", f"x={HALF_PI}")
    assert (code, err) == (0, "")
    summary, note = out.splitlines()
    assert summary.startswith("matches d/dx at 1/1 points"), out
    assert note.startswith(f"note: adcli's d/dx and finite differences disagree at 1 of 1 "
                           f"point (at x={HALF_PI}: AD 2.66709378811357"), note
    assert note.endswith(f"): {ODD}; across a pole or a feature narrower than the "
                         "differences' steps they witness nothing, and the expectation was "
                         "judged by AD alone"), note
    assert "bug" not in note and "report" not in note


def test_with_an_expectation_a_wrong_one_still_differs_at_the_pole():
    # 1/cos(x) at float(pi/2) is 1.6e16, sec^2 2.7e32: AD decides, and it differs
    code, out, err = plain("tan(x)", "1/cos(x)", "--at", f"x={HALF_PI}")
    assert (code, err) == (1, "")
    assert out.startswith("differs from d/dx at 1 of 1 point\n"), out


# ----- real disagreements near (not across) a pole are still caught --------------------------

def test_near_a_pole_the_differences_settle_and_are_counted():
    # tan' = sec^2 = 1 + tan^2: 1.0777e8 at 1.5707 (9.6e-5 from the pole)
    result = adcli.check("tan(x)", at={"x": [1.5707, math.pi / 2 - 1e-9]})
    assert (result.verdict, result.counted, result.skipped) == ("matches", 2, 0)
    code, out, _ = plain("tan(x)", "1/cos(x)", "--at", "x=1.5707")
    assert code == 1 and out.startswith("differs from d/dx at 1 of 1 point"), out


@pytest.mark.parametrize("factor", [1 + 1e-6, 2.0, -1.0])
def test_a_wrong_rule_for_tan_is_caught_next_to_its_pole(monkeypatch, factor):
    # A bug put into adcli: tan' = factor * sec^2. At 1.5707 and pi/2 - 1e-9 (1e-9 from the
    # pole: the steps 2^10 times finer do not reach it) the differences know better.
    monkeypatch.setattr(functions.Tan, "backward",
                        lambda self, gy: factor * gy * (1.0 + self.y * self.y))
    result = adcli.check("tan(x)", at={"x": [1.5707, math.pi / 2 - 1e-9, 1.0]})
    assert (result.verdict, result.differing, result.skipped) == ("differs", 3, 0)
    assert result.exit_code == 1


def test_a_wrong_rule_at_a_zero_crossing_is_no_pole(monkeypatch):
    # sin changes sign between pi - h and pi + h too, but through 0, not infinity
    monkeypatch.setattr(functions.Sin, "backward",
                        lambda self, gy: 2.0 * gy * functions.op.cos(self.inputs[0]))
    result = adcli.check("sin(x)", at={"x": [math.pi, 0.0, -math.pi]})
    assert (result.verdict, result.differing, result.skipped) == ("differs", 3, 0)


# ----- on a terminal -------------------------------------------------------------------------

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


@pytest.mark.parametrize("columns", [40, 80, 120])
def test_on_a_terminal_the_reason_is_there_whole(columns):
    root = Path(__file__).resolve().parent.parent
    env = {k: v for k, v in os.environ.items()
           if k not in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "PYTHONIOENCODING")}
    env.update(PYTHONUTF8="1", TERM="xterm-256color", PYTHONPATH=str(root))
    code, text, _ = run_in_pty([sys.executable, "-m", "adcli", "check", "tan(x)", "--at",
                                f"x={HALF_PI}"], env, columns, rows=200,
                               stdin=subprocess.DEVNULL)
    rows = ANSI.sub("", text).rstrip("\n").split("\n")
    assert code == 1
    assert max(len(r) for r in rows) <= columns
    words = " ".join(" ".join(r.split()) for r in rows)
    assert "cannot tell: finite differences straddle a pole at the 1 point checked" in words
    assert f"note: 1 point not counted: {ODD}" in words
    assert "disagree" not in words


# ----- with an expectation, where the differences did not settle at all -------------------
# tan at 3.1e-11 from pi/2 and 1/(x-1) at 1 + 1e-12: every step straddles the pole and the
# differences refute each other (error inf); AD decides, and the note must still say why
# the differences shown (-79.67, 80.0) are nothing like AD (1.03e21, -1.0e24).

@pytest.mark.parametrize("f, expected, x", [
    ("tan(x)", "sec(x)^2", "1.5707963267636962"),
    ("1/(x-1)", "-1/(x-1)^2", "1.000000000001")])
def test_with_an_expectation_an_unsettled_straddle_is_named(f, expected, x):
    code, out, _ = plain(f, expected, "--at", f"x={x}")
    assert code == 0 and out.startswith("matches d/dx at 1/1 points")
    note = re.sub(r"\s+", " ", out)
    assert "finite differences straddle a pole of f (f changes sign through infinity " \
        "between x-h and x+h)" in note and "judged by AD alone" in note
    result = adcli.check(f, expected, at={"x": float(x)})
    assert result.targets[0].pole[0] != "" and not np.isfinite(result.targets[0].fd_error[0])
