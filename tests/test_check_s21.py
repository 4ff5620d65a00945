"""adcli check's formats and messages (round 21): --format tsv and jsonl as every command
takes them, f overflowing within the finite-difference step said as such, "use --order"
where --order was given, and y' = 2x y of F = e^{x^2} answered with the command that
checks it.

Numbers are checked against hand derivations, never against adcli's own output.
"""
from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest

import adcli
from conftest import adcli_rows_on_terminal, run_cli, words


def plain(*argv):
    return run_cli("check", *argv, "--format", "plain")


def one_line_error(run) -> str:
    """The message of a one-line error (exit 2, nothing on stdout)."""
    code, out, err = run
    assert (code, out, err.count("\n")) == (2, "", 1), (code, out, err)
    assert err.startswith("adcli: error: ")
    return err.removeprefix("adcli: error: ").rstrip("\n")


# ----- 1. --format tsv and jsonl -------------------------------------------------------------

# d/dx x^2 = 2x at 1 and 3 is 2 and 6; the expectation 3x gives 3 and 9: it differs
GRID = ("x^2", "3x", "--grid", "x=1:3:2")
HEADER = ["x", "derivative", "expected", "ad", "finite_difference", "finite_difference_error",
          "relative_difference", "status"]


def test_tsv_is_csv_with_tabs_row_for_row():
    code, out, err = run_cli("check", *GRID, "--format", "tsv")
    assert code == 1
    rows = [line.split("\t") for line in out.splitlines()]
    assert rows[0] == HEADER
    assert [(r[0], r[1], float(r[2]), float(r[3])) for r in rows[1:]] == \
        [("1.0", "d/dx", 3.0, 2.0), ("3.0", "d/dx", 9.0, 6.0)]
    # relative difference |3x - 2x| / 3x = 1/3 at every point
    assert [abs(float(r[6]) - 1 / 3) < 1e-15 for r in rows[1:]] == [True, True]
    assert [r[7] for r in rows[1:]] == ["differs", "differs"]
    _, same, _ = run_cli("check", *GRID, "--format", "csv")
    assert rows == list(csv.reader(io.StringIO(same)))
    # (the verdict is for people, on stderr, as csv's)
    assert err.splitlines()[0] == "adcli: differs from d/dx at 2 of 2 points"


def test_tsv_takes_no_header():
    code, out, _ = run_cli("check", "x^2", "2x", "--grid", "x=1:3:2", "--format", "tsv",
                           "--no-header")
    assert code == 0
    assert [line.split("\t")[:4] for line in out.splitlines()] == \
        [["1.0", "d/dx", "2.0", "2.0"], ["3.0", "d/dx", "6.0", "6.0"]]


def _ids(tmp_path) -> str:
    points = tmp_path / "p.csv"
    points.write_text('id,x\n"#a",1\n{b},3\n')
    return str(points)


def test_tsv_lines_never_read_back_as_comments_or_json_lines(tmp_path):
    _, tsv, _ = run_cli("check", "x^2", "2x", "--points", _ids(tmp_path), "--format", "tsv")
    assert [line.split("\t")[:2] for line in tsv.splitlines()[1:]] == \
        [["\\#a", "1.0"], ["\\{b}", "3.0"]]


def test_csv_lines_never_read_back_as_comments_or_json_lines_as_grad_s(tmp_path):
    _, out, _ = run_cli("check", "x^2", "2x", "--points", _ids(tmp_path), "--format", "csv")
    assert [line.split(",")[:2] for line in out.splitlines()[1:]] == \
        [['"#a"', "1.0"], ['"{b}"', "3.0"]]


def test_jsonl_is_one_point_a_line_as_json_has_them():
    code, out, err = run_cli("check", *GRID, "--format", "jsonl")
    assert code == 1
    lines = [json.loads(line) for line in out.splitlines()]
    assert [(p["at"], p["status"], p["derivatives"]["x"]["expected"],
             p["derivatives"]["x"]["ad"]) for p in lines] == \
        [({"x": 1.0}, "differs", 3.0, 2.0), ({"x": 3.0}, "differs", 9.0, 6.0)]
    assert [p["value"] for p in lines] == [1.0, 9.0]
    _, document, _ = run_cli("check", *GRID, "--format", "json")
    assert lines == json.loads(document)["points"]
    assert err.splitlines()[0] == "adcli: differs from d/dx at 2 of 2 points"


def test_jsonl_gives_a_point_its_own_warnings_last():
    # |x| at 0 has no derivative: left -1, right 1
    code, out, _ = run_cli("check", "abs(x)", "--grid", "x=-1:1:3", "--format", "jsonl")
    lines = [json.loads(line) for line in out.splitlines()]
    assert [("warnings" in p) for p in lines] == [False, True, False]
    kink = lines[1]
    assert list(kink)[-1] == "warnings"
    assert (kink["derivatives"]["x"]["left"], kink["derivatives"]["x"]["right"]) == (-1.0, 1.0)
    assert [(w["function"], w["kind"]) for w in kink["warnings"]] == [("abs", "kink")]
    _, document, _ = run_cli("check", "abs(x)", "--grid", "x=-1:1:3", "--format", "json")
    assert [{k: v for k, v in w.items() if k != "at"}
            for w in json.loads(document)["warnings"]] == kink["warnings"]


def test_no_header_is_for_csv_and_tsv_alone():
    message = one_line_error(run_cli("check", "x^2", "2x", "--at", "x=1", "--format",
                                     "jsonl", "--no-header"))
    assert message == "--no-header is for --format csv or tsv, not jsonl"


# ----- 2. f overflowing within the finite-difference step ------------------------------------

X, Y = 1e308, 1.797693134862315


def test_premise_x_y_is_finite_there_and_overflows_a_step_away():
    # the step scale at 1e308 is 2^-20 |x|, the ladders start at a quarter of it
    with np.errstate(over="ignore"):
        assert np.isfinite(np.float64(X) * Y)
        assert np.isinf((np.float64(X) + X * 2.0 ** -22) * Y)


def test_cannot_tell_says_f_overflows_within_the_step():
    code, out, err = plain("x*y", "--at", f"x={X!r},y={Y!r}", "--wrt", "x")
    assert (code, err) == (1, "")
    lines = out.splitlines()
    assert lines[0] == ("cannot tell: f overflows to inf within the finite-difference step "
                        "at the 1 point checked")
    assert lines[1].startswith("note: 1 point not counted: f overflows to inf within the "
                               "finite-difference step there")
    assert "settle" not in out


def test_exp_near_its_overflow_says_so_too():
    with np.errstate(over="ignore"):
        assert np.isfinite(np.exp(709.78)) and np.isinf(np.exp(709.78 + 0.25))
    code, out, _ = plain("exp(x)", "--at", "x=709.78")
    assert code == 1 and out.startswith("cannot tell: f overflows to inf within the "
                                        "finite-difference step at the 1 point checked\n")


def test_with_an_expectation_a_note_says_why_finite_differences_are_inf():
    # ∂(xy)/∂x = y, the expectation exactly
    code, out, _ = plain("x*y", "y", "--at", f"x={X!r},y={Y!r}", "--wrt", "x")
    assert code == 0
    assert out.splitlines()[0] == "matches ∂/∂x at 1/1 points, largest relative difference 0"
    assert "note: ∂/∂x at 1 of 1 point was judged by AD alone: f overflows to inf within " \
           "the finite-difference step there" in out
    result = adcli.check("x*y", "y", at={"x": X, "y": Y}, wrt="x")
    assert np.isinf(result.targets[0].fd[0]) and result.targets[0].expected[0] == Y


def test_a_mixed_partial_names_the_derivative_that_overflows():
    # ∂f/∂y of x^2 y is x^2: finite at x = 1.34e154, just below sqrt(1.8e308), and
    # overflowing a step away, so its differences in x are no number; ∂²f/∂x∂y = 2x
    x = 1.3407807929942596e154
    with np.errstate(over="ignore"):
        assert np.isfinite(x * x) and np.isinf(np.float64(x + x * 2.0 ** -22) ** 2)
    code, out, _ = plain("x^2 y", "--expect", "x,y=2x", "--at", f"x={x!r},y=1")
    assert code == 0
    assert "judged by AD alone: adcli's ∂/∂y overflows to inf within the finite-difference " \
           "step there" in out


def test_differences_that_settle_nowhere_for_another_reason_still_say_so():
    # cos(3x) at 1.1e14: 3x rounds by 0.03 and cos turns every 134 ulps (test_check_noise)
    code, out, _ = plain("cos(3x)", "--at", "x=110680150663577.56")
    assert code == 1 and out.startswith("cannot tell: finite differences do not settle "
                                        "at the 1 point checked\n")


@pytest.mark.parametrize("columns", [40, 80])
def test_the_overflow_note_fits_the_terminal(columns):
    rows = adcli_rows_on_terminal(columns, "check", "x*y", "y", "--at", f"x={X!r},y={Y!r}",
                                  "--wrt", "x")
    note = next(i for i, row in enumerate(rows) if row.startswith("note: "))
    assert " ".join(words(rows[note:])) == (
        "note: ∂/∂x at 1 of 1 point was judged by AD alone: f overflows to inf within the "
        "finite-difference step there (float64 ends at 1.8e308), so finite differences of "
        "it witness nothing")


# ----- 3. "use --order" where --order was given ----------------------------------------------

def test_an_order_given_is_to_be_changed_not_added():
    message = one_line_error(run_cli("check", "x^3", "f''(x) = 6x", "--order", "1"))
    assert message.endswith("is a derivative of order 2, and this checks order 1: use "
                            "--order 2 (order= in the API)")


def test_an_order_not_given_is_to_be_added():
    # --expect's left side does not set the order: 1 unless told
    message = one_line_error(run_cli("check", "x^3", "--expect", "x=f''(x) = 6x"))
    assert message.endswith("this checks order 1: add --order 2 (order= in the API)")


def test_the_api_words_it_as_the_cli():
    with pytest.raises(adcli.AdcliError, match="checks order 1: use --order 2"):
        adcli.check("x^3", "f''(x) = 6x", order=1)
    with pytest.raises(adcli.AdcliError, match="checks order 1: add --order 2"):
        adcli.check("x^3", "f''(x) = 6x")
    # d²/dx² x^3 = 6x; the order stays a plain number
    result = adcli.check("x^3", "f''(x) = 6x", order=2)
    assert result.ok and type(result.order) is int and result.order == 2


# ----- 4. y' = 2x y: the function the left side names, used on the right ---------------------

@pytest.mark.parametrize("expectation, label", [("y' = 2x y", "d/dx"),
                                                ("dy/dx = 2x y", "d/dx"),
                                                ("y'' = (2 + 4x^2) y", "d²/dx²")])
def test_y_on_the_right_side_gets_the_command_that_checks_it(expectation, label):
    message = one_line_error(run_cli("check", "e^{x^2}", expectation))
    assert message == (f"the expected {label} uses y, which does not appear in 'e^{{x^2}}': "
                       "y is the function the left side names; to use it on the right side, "
                       f"define it and check y: adcli check \"y\" \"{expectation}\" --let "
                       "y=\"e^{x^2}\" (definitions= in the API)")


@pytest.mark.parametrize("expectation", ["y' = 2x y", "y'' = (2 + 4x^2) y"])
def test_the_command_suggested_checks_it(expectation):
    # (e^{x^2})' = 2x e^{x^2}, (e^{x^2})'' = (2 + 4x^2) e^{x^2}: both right
    code, out, err = plain("y", expectation, "--let", "y=e^{x^2}")
    assert (code, err) == (0, ""), out
    assert out.startswith("matches d")


def test_another_name_besides_y_gets_no_such_command():
    message = one_line_error(run_cli("check", "e^{x^2}", "y' = 2x y z"))
    assert message == "the expected d/dx uses y and z, which do not appear in 'e^{x^2}'"
