"""check from the twenty-third session's testers: its verdict through a closed pipe, a
pair of --at split by the shell, a constant over the rows of a points file."""
import subprocess

import pytest

from conftest import run_cli
from test_output import adcli_executable, child_env


# ----- a reader that stops early does not turn the verdict into 0 -------------------------

@pytest.fixture(scope="module")
def executable():
    return adcli_executable()


def closed_early(executable, *argv):
    """adcli ARGV with its stdout read for 100 bytes, then closed: far more output than a
    pipe holds (64 KiB) is still to come, so the writer meets the closed pipe (json's one
    line too)."""
    child = subprocess.Popen([executable, *argv], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=child_env())
    first = child.stdout.read(100)
    child.stdout.close()
    err = child.stderr.read().decode()
    return child.wait(timeout=120), first.decode(), err


@pytest.mark.parametrize("fmt", ["csv", "tsv", "jsonl", "json"])
def test_a_wrong_derivative_exits_1_when_the_reader_stops_early(executable, fmt):
    # 3x is not d/dx x^2 = 2x at any of the 10000 random points (none is 0): ~1 MB of rows
    status, first, err = closed_early(executable, "check", "x^2", "3*x", "--samples", "10000",
                                      "--format", fmt)
    assert first     # (the reader did get the start of the report)
    assert status == 1, err
    assert "Exception ignored" not in err and "BrokenPipe" not in err \
        and "Broken pipe" not in err, err
    if fmt != "json":   # (the verdict goes to stderr beside rows)
        assert "differs from d/dx at 10000 of 10000 points" in err


def test_a_right_derivative_still_exits_0_when_the_reader_stops_early(executable):
    status, _, err = closed_early(executable, "check", "x^2", "2*x", "--samples", "10000",
                                  "--format", "csv")
    assert (status, "Exception ignored" in err) == (0, False), err
    assert "matches d/dx at 10000/10000 points" in err


def test_strict_still_exits_3_when_the_reader_stops_early(executable):
    # sqrt(x) is nan at the 10000 negative points of -1..1: --strict's 3, said on stderr
    status, _, err = closed_early(executable, "check", "sqrt(x)", "1/(2 sqrt(x))", "--grid",
                                  "x=-1:1:20001", "--strict", "--format", "csv")
    assert status == 3, err
    assert "f is nan" in err and "x=-1.0 (point 1 of 20001)" in err and "(--strict)" in err
    assert "Exception ignored" not in err


# ----- --at x= 1: the pair the shell split, whatever follows the expressions --------------

@pytest.mark.parametrize("argv, said", [
    (("check", "x^2", "2x", "--at", "x=", "1"), "--at x= 1: write a pair without spaces, "
                                                "--at x=1"),
    (("check", "sin(x)*y", "cos(x)*y", "--wrt", "x", "--at", "y=", "2"),
     "--at y= 2: write a pair without spaces, --at y=2"),
    (("check", "x^2", "2x", "--at", "x", "=", "1"), "--at x = 1: write a pair without "
                                                   "spaces, --at x=1"),
    # one expression: the 1 would have been read as EXPECTED
    (("check", "x^2", "--at", "x=", "1"), "--at x= 1: write a pair without spaces, --at x=1"),
    # the pair before the expression: the value is the word after it, not the expression
    (("grad", "--at", "x=", "1", "x^2"), "--at x= 1: write a pair without spaces, --at x=1"),
    (("check", "--at", "x=", "-1", "x^2", "2x"), "--at x= -1: write a pair without spaces, "
                                                 "--at x=-1"),
])
def test_a_split_pair_is_hinted_with_its_value(argv, said):
    status, out, err = run_cli(*argv)
    assert (status, out) == (2, "")
    assert err == f"adcli: error: {said} (see 'adcli {argv[0]} --help')\n"


@pytest.mark.parametrize("argv, pair, name", [
    (("check", "x^2", "2x", "--at", "x="), "x=", "x"),
    (("check", "x^2", "2x", "--at", "x", "="), "x=", "x"),
    (("grad", "x^2", "--at", "x=", "--digits", "3"), "x=", "x"),
    (("grad", "x^2+y", "--at", "x=1,y="), "x=1,y=", "y"),
    # the word after it is the expression, no value (it was '--at x=x^2')
    (("grad", "--at", "x=", "x^2"), "x=", "x"),
])
def test_a_pair_with_nothing_after_its_equals_sign_says_the_value_is_missing(argv, pair,
                                                                              name):
    status, out, err = run_cli(*argv)
    assert (status, out) == (2, "")
    assert err.startswith(f"adcli: error: --at '{pair}': the value of {name} is missing"), err
    assert err.count("\n") == 1 and "x^2" not in err


def test_a_lone_expression_that_looks_like_a_pair_is_no_forgotten_at():
    # 'y = 3' is check's only argument: nothing is "after the expression"
    status, _, err = run_cli("check", "y = 3")
    assert status == 2
    assert "after the expression" not in err and "equation" in err, err


def test_a_pair_with_spaces_still_checks_once_written_whole():
    # d/dx x^2 = 2x at 1.5: 3
    status, out, err = run_cli("check", "x^2", "2x", "--at", "x=1.5", "--format", "csv")
    assert status == 0, err
    assert out.splitlines()[1].split(",")[:5] == ["1.5", "d/dx", "3.0", "3.0", "3.0"]


# ----- a constant over the rows of a points file -----------------------------------------

@pytest.fixture
def points(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("id,x,y\np1,1,2\np2,3,0.5\n")
    return str(path)


def test_a_constant_identity_over_rows_says_why_not_that_the_file_is_empty(points):
    status, out, err = run_cli("check", "3", "1+2", "--order", "0", "--points", points)
    assert (status, out) == (2, "")
    assert err == ("adcli: error: '3' has no variables: check compares a constant once, not "
                   "at each row of the points file (leave out --points)\n")


def test_a_constant_identity_over_a_grid_is_not_checked_at_its_first_point_alone():
    status, out, err = run_cli("check", "3", "1+2", "--order", "0", "--grid", "x=0:1:3")
    assert (status, out) == (2, "")
    assert "'3' has no variables" in err and "each point of --grid" in err, err


def test_a_constants_derivative_over_rows_is_refused_for_what_it_lacks(points):
    status, _, err = run_cli("check", "3", "0", "--points", points)
    assert status == 2
    assert "has no rows" not in err and "'3' has no variables" in err and "--wrt" in err, err


def test_a_constant_as_a_function_of_a_column_is_checked_at_each_row(points):
    # d/dx e^2 = 0 at x = 1 and 3, ids and y passed through
    status, out, err = run_cli("check", "e^2", "0", "--wrt", "x", "--points", points,
                               "--format", "csv")
    assert status == 0, err
    rows = [line.split(",") for line in out.splitlines()[1:]]
    assert [r[:5] for r in rows] == [["p1", "2", "1.0", "d/dx", "0.0"],
                                     ["p2", "0.5", "3.0", "d/dx", "0.0"]]


def test_a_points_file_without_rows_is_still_said_to_have_none(tmp_path):
    path = tmp_path / "empty.csv"
    path.write_text("x\n")
    status, _, err = run_cli("check", "x^2", "2x", "--points", str(path))
    assert status == 2 and "the points file has no rows" in err, err
