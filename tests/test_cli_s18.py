"""CLI wording found by the eighteenth session's testers."""
from __future__ import annotations

from conftest import run_cli


def test_a_variable_given_twice_to_wrt_is_named():
    # (in a long list the repeat is not easy to see: "give distinct names" named none)
    run = run_cli("grad", "x*y", "--at", "x=1,y=2", "--wrt", "y,x,y")
    assert run[0] == 2
    assert run[2] == "adcli: error: --wrt 'y,x,y': 'y' is given twice; give each variable " \
                     "once\n"
