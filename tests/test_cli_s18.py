"""CLI wording found by the eighteenth session's testers."""
from __future__ import annotations

import pytest

from conftest import adcli_on_terminal, run_cli


def test_a_variable_given_twice_to_wrt_is_named():
    # (in a long list the repeat is not easy to see: "give distinct names" named none)
    run = run_cli("grad", "x*y", "--at", "x=1,y=2", "--wrt", "y,x,y")
    assert run[0] == 2
    assert run[2] == "adcli: error: --wrt 'y,x,y': 'y' is given twice; give each variable " \
                     "once\n"


@pytest.mark.parametrize("columns", [28, 29, 30, 31])
def test_trace_keeps_a_number_whole_where_only_a_smaller_indent_fits_it(columns):
    # A tester: continuation lines start under the "=" (7 columns), so at 25-31 columns a
    # 24-character number broke: "-1.2345678901234568e-30" / "0" read as e-30
    code, rows = adcli_on_terminal(columns, "trace", "x/3+x/7",
                                   "--at", "x=-1.2345678901234567e-300")
    assert code == 0
    for number in ("-1.2345678901234568e-300", "-4.115226300411522e-301",
                   "-1.763668414462081e-301"):
        assert any(row.endswith(f"= {number}") for row in rows), (number, rows)
    # under the "=" (5 spaces) where that fits, 2 columns in where only that does
    wide = "= -1.2345678901234568e-300"
    assert (" " * 5 + wide in rows) == (columns >= 5 + len(wide)), rows
