"""@FILE reads at most MAX_EXPRESSION characters (`yes x+ | adcli grad @-` read until
memory ran out), @- given twice is said (the second read an empty stdin: "the expression
is empty"), and `--at '='` is said as `--at '=1'` is (it was "the value of  is missing")."""
import pytest
from conftest import run_cli

from adcli import cli


def test_an_expression_file_longer_than_the_limit_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(cli, "MAX_EXPRESSION", 1000)
    (tmp_path / "long.txt").write_text("x+" * 600 + "x")
    (tmp_path / "short.txt").write_text("x+" * 400 + "x")
    code, out, err = run_cli("grad", f"@{tmp_path / 'long.txt'}", "--at", "x=1")
    assert (code, out) == (2, "")
    assert err.startswith(f"adcli: error: @{tmp_path / 'long.txt'}: the expression is longer "
                          "than 1,000 characters, more than adcli reads")
    code, out, err = run_cli("grad", f"@{tmp_path / 'short.txt'}", "--at", "x=1",
                             "--format", "plain")
    assert (code, out) == (0, "401.0 401.0\n")


def test_stdin_longer_than_the_limit_is_refused(monkeypatch):
    monkeypatch.setattr(cli, "MAX_EXPRESSION", 1000)
    code, out, err = run_cli("grad", "@-", "--at", "x=1", stdin="x+" * 2000 + "x")
    assert (code, out) == (2, "")
    assert "@-: the expression is longer than 1,000 characters" in err


@pytest.mark.parametrize("argv", [("jacobian", "@-", "@-", "--at", "x=1,y=2"),
                                  ("check", "@-", "@-")])
def test_stdin_given_twice_is_said(argv):
    code, out, err = run_cli(*argv, stdin="x*y")
    assert (code, out) == (2, "")
    assert err.startswith("adcli: error: @- is given twice, and stdin can be read once")


@pytest.mark.parametrize("pair", ["=", "x=1,="])
def test_an_equals_sign_alone_is_no_pair(pair):
    code, out, err = run_cli("grad", "x", "--at", pair)
    assert (code, out) == (2, "")
    assert err.startswith(f"adcli: error: --at '{pair}': '=' is not of the form name=value")
