"""The command-line surface, from the twenty-third session's testers."""
import pytest

from conftest import run_cli


@pytest.mark.parametrize("argv, command", [
    (("hessian", "x^2", "--at", "x=1", "--wrt"), "hessian"),
    (("plot", "x^2", "--grid"), "plot"),
    (("trace", "x^2", "--at"), "trace"),
    (("graph", "x^2", "-o"), "graph"),
])
def test_a_missing_option_argument_points_to_its_commands_help(argv, command):
    # click finds the missing argument before the command's context exists; the top-level
    # help lists no command's options, so pointing there helped nobody.
    status, out, err = run_cli(*argv)
    assert status == 2 and out == ""
    assert err.strip().endswith(f"(see 'adcli {command} --help')"), err


def test_an_unknown_command_still_points_to_adclis_help():
    status, _, err = run_cli("bogus", "--at")
    assert status == 2 and err.strip().endswith("(see 'adcli --help')"), err
