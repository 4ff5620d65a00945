"""CLI behaviour found by the twentieth session's tester (an engineer scripting adcli)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_cli, strict_json, warnings_in

UNUSED_Y = "adcli: warning: a value was given for 'y', which does not appear in the expression"


# ----- an unused --grid or --at name is a column --------------------------------------

def test_an_unused_grid_name_is_a_csv_column_that_tells_the_rows_apart():
    # (the rows were "0.0,0.0" twice and "1.0,1.0" twice: y was multiplied in, not shown)
    code, out, err = run_cli("eval", "x", "--grid", "x=0:1:2", "--grid", "y=5:6:2",
                             "--format", "csv")
    assert code == 0
    # the last --grid varies fastest; f = x
    assert out == "y,x,f\n5.0,0.0,0.0\n6.0,0.0,0.0\n5.0,1.0,1.0\n6.0,1.0,1.0\n"
    assert warnings_in(err) == [UNUSED_Y]


def test_a_grid_over_a_constant_expression_shows_its_points():
    code, out, err = run_cli("grad", "2", "--grid", "x=0:1:3", "--format", "csv")
    assert code == 0
    assert out == "x,f\n0.0,2.0\n0.5,2.0\n1.0,2.0\n"


@pytest.mark.parametrize("fmt", ["json", "jsonl"])
def test_json_points_of_an_unused_grid_name_differ(fmt):
    code, out, _ = run_cli("eval", "x", "--grid", "x=0:1:2", "--grid", "y=5:6:2",
                           "--format", fmt)
    assert code == 0
    points = strict_json(out)["points"] if fmt == "json" else \
        [strict_json(line) for line in out.splitlines()]
    # as a points file's unused column: under "extra", as text
    assert [(p["at"], p["extra"], p["value"]) for p in points] == [
        ({"x": 0.0}, {"y": "5.0"}, 0.0), ({"x": 0.0}, {"y": "6.0"}, 0.0),
        ({"x": 1.0}, {"y": "5.0"}, 1.0), ({"x": 1.0}, {"y": "6.0"}, 1.0)]


def test_each_hessian_block_names_its_unused_grid_value():
    code, out, _ = run_cli("hessian", "x^2", "--grid", "x=0:1:2", "--grid", "y=5:6:2")
    assert code == 0
    assert [line for line in out.splitlines() if line.startswith("Hessian")] == [
        "Hessian at y=5.0, x=0.0", "Hessian at y=6.0, x=0.0",
        "Hessian at y=5.0, x=1.0", "Hessian at y=6.0, x=1.0"]


def test_an_unused_at_name_is_a_warning_not_a_column():
    # one value in every row tells no rows apart; a column of it would move the others
    code, out, err = run_cli("eval", "x", "--at", "x=1,y=2", "--format", "csv")
    assert (code, out) == (0, "x,f\n1.0,1.0\n")
    assert warnings_in(err) == [UNUSED_Y]


def test_an_unused_grid_value_is_written_whole_as_adcli_writes_it():
    code, out, _ = run_cli("eval", "x", "--at", "x=1", "--grid", "y=0:pi/2:3",
                           "--format", "json")
    assert code == 0
    # pi/4's float64 is 0.78539816339744830961... whose shortest repr has 16 digits
    assert [p["extra"] for p in strict_json(out)["points"]] == [
        {"y": "0.0"}, {"y": "0.7853981633974483"}, {"y": "1.5707963267948966"}]


# ----- a failed write to stderr leaves the exit status alone --------------------------

def _with_stderr_full(*argv: str, stdout=subprocess.PIPE) -> tuple[int, bytes]:
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "adcli", *argv], stdout=stdout,
                              stderr=full, stdin=subprocess.DEVNULL, env=env, timeout=120)
    return done.returncode, done.stdout or b""


def test_a_lost_warning_leaves_a_match_at_0():
    # x^1/2 is (x^1)/2, whose derivative is 1/2: it matches, with a caution on stderr
    code, _ = _with_stderr_full("check", "x^1/2", "1/2")
    assert code == 0


def test_a_lost_nan_warning_leaves_the_results_and_0():
    code, out = _with_stderr_full("grad", "log(x)", "--at", "x=-1", "--format", "csv")
    assert (code, out) == (0, b"x,f,df/dx\n-1.0,nan,-1.0\n")   # d/dx log(x) = 1/x


def test_a_lost_error_message_leaves_exit_2():
    code, out = _with_stderr_full("grad", "log(x", "--at", "x=1")
    assert (code, out) == (2, b"")


def test_a_full_stdout_with_a_full_stderr_is_still_74():
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    with open("/dev/full", "w") as full:
        code, _ = _with_stderr_full("grad", "x", "--at", "x=1", "--format", "csv",
                                    stdout=full)
    assert code == 74


def test_stderr_is_given_back_after_a_run():
    # (main stands in for sys.stderr while it runs, and must leave it as it found it)
    saved = sys.stderr
    run_cli("eval", "x", "--at", "x=1")
    assert sys.stderr is saved


# ----- a points header is read by --at's name rule -------------------------------------

def test_a_latex_subscript_header_is_the_variable():
    code, out, err = run_cli("grad", "x_1*x", "--points", "-", "--format", "csv",
                             stdin="x_{1},x\n1,2\n")
    # f = x_1*x = 2, df/dx_1 = x = 2, df/dx = x_1 = 1
    assert (code, out, err) == (0, "x_1,x,f,df/dx_1,df/dx\n1.0,2.0,2.0,2.0,1.0\n", "")


def test_a_latex_subscript_key_of_json_lines_is_the_variable():
    code, out, err = run_cli("grad", "x_1^2", "--points", "-", "--format", "csv",
                             stdin='{"x_{1}": 3}\n')
    assert (code, out, err) == (0, "x_1,f,df/dx_1\n3.0,9.0,6.0\n", "")


def test_a_braced_header_that_is_no_name_passes_through_as_written():
    code, out, _ = run_cli("grad", "x^2", "--points", "-", "--format", "csv",
                           stdin="a{b},x\nq,3\n")
    assert (code, out) == (0, "a{b},x,f,df/dx\nq,3.0,9.0,6.0\n")


# ----- a CSV row split by a quote after a space ----------------------------------------

def test_a_quote_after_a_space_is_explained():
    code, out, err = run_cli("grad", "x^2", "--points", "-", "--format", "csv",
                             stdin='id, note, x\n1, "hello, world", 2\n')
    assert (code, out) == (2, "")
    assert err == ("adcli: error: points file line 2: 4 fields, the header has 3 (a quote "
                   "after a space does not quote the field: remove the space after the "
                   "comma)\n")


def test_a_short_row_without_quotes_has_no_such_hint_and_one_field():
    code, _, err = run_cli("grad", "x^2", "--points", "-", stdin="id,x\n1\n")
    assert (code, err) == (2, "adcli: error: points file line 2: 1 field, the header has 2\n")


@pytest.mark.parametrize("rows, said", [("1\n2,3\n", "1 bad row"),
                                        ("1\n2,3\n4\n", "2 bad rows")])
def test_skipped_rows_are_counted_in_words(rows, said):
    code, out, err = run_cli("grad", "x^2", "--points", "-", "--skip-bad-rows",
                             "--format", "csv", stdin="id,x\n" + rows)
    assert (code, out) == (0, "id,x,f,df/dx\n2,3.0,9.0,6.0\n")
    assert warnings_in(err) == [f"adcli: warning: skipped {said} of the points file; first: "
                                "points file line 2: 1 field, the header has 2"]


# ----- an option or command of another name --------------------------------------------

def test_an_option_of_other_commands_names_them():
    code, out, err = run_cli("jacobian", "x", "y", "--at", "x=1,y=1", "--order", "2")
    assert (code, out) == (2, "")
    assert err == ("adcli: error: No such option '--order' for adcli jacobian: --order is an "
                   "option of adcli check, adcli grad and adcli plot (see 'adcli jacobian "
                   "--help')\n")


def test_an_option_of_one_other_command_names_it():
    code, _, err = run_cli("grad", "x", "--at", "x=1", "--expect=1")
    assert (code, err) == (2, "adcli: error: No such option '--expect' for adcli grad: "
                              "--expect is an option of adcli check (see 'adcli grad "
                              "--help')\n")


def test_a_misspelt_option_still_gets_its_near_misses():
    code, _, err = run_cli("grad", "x", "--at", "x=1", "--ordr", "2")
    assert code == 2 and "'--order'" in err and "is an option of" not in err


@pytest.mark.parametrize("word", ["diff", "derivative"])
def test_a_differentiating_command_word_points_to_check_and_grad(word):
    code, out, err = run_cli(word, "x^2")
    assert (code, out) == (2, "")
    assert err == (f"adcli: error: No such command '{word}': to compare a hand derivative, "
                   "use adcli check; to differentiate, adcli grad (see 'adcli --help')\n")


# ----- eval says nothing of kinks --------------------------------------------------------

def test_eval_at_a_corner_is_silent():
    assert run_cli("eval", "abs(x)", "--at", "x=0", "--format", "csv") == \
        (0, "x,f\n0.0,0.0\n", "")


def test_eval_of_a_negative_log_says_only_the_nan():
    code, out, err = run_cli("eval", "ln(x)", "--at", "x=-1", "--format", "json")
    assert code == 0
    point = strict_json(out)
    assert point["points"] == [{"at": {"x": -1.0}, "value": "nan"}]
    assert [w["kind"] for w in point["warnings"]] == ["value"]
    assert warnings_in(err) == ["adcli: warning: log gave nan or inf at 1 of 1 point (a "
                                "negative argument gives nan, 0 gives -inf)"]


def test_eval_of_a_derivative_keeps_the_kink():
    # diff(abs(x), x) at 0 is abs's convention for its derivative there
    code, out, err = run_cli("eval", "diff(abs(x), x)", "--at", "x=0", "--format", "csv")
    assert (code, out) == (0, "x,f\n0.0,0.0\n")
    assert len(warnings_in(err)) == 1 and "abs is not differentiable" in err


def test_grad_at_a_corner_still_warns():
    code, _, err = run_cli("grad", "abs(x)", "--at", "x=0", "--format", "csv")
    assert code == 0 and "abs is not differentiable at 1 of 1 point" in err


def test_a_grid_over_a_wrt_name_the_expression_lacks_is_no_extra_column():
    # (found by test_fuzz: "variables" lists x for --wrt x, so x under "extra" too named
    # one variable twice; the derivative's column names it)
    code, out, _ = run_cli("grad", "0", "--grid", "x=0:1:2", "--wrt", "x", "--format", "json")
    assert code == 0
    document = strict_json(out)
    assert document["variables"] == ["x"]
    assert [p.get("extra") for p in document["points"]] == [None, None]
    assert [p["gradient"] for p in document["points"]] == [{"x": 0.0}, {"x": 0.0}]  # d0/dx


def test_a_quoted_field_after_a_space_that_split_nothing_gets_no_quote_hint():
    # "hello" holds no comma: the row has one field too many whatever the quote does
    code, out, err = run_cli("eval", "x", "--points", "-", "--format", "csv",
                             stdin='x,id\n1, "hello", 2\n')
    assert (code, out) == (2, "")
    assert err == "adcli: error: points file line 2: 3 fields, the header has 2\n"
