"""Points files, the twenty-sixth session: a one-column file whose every line ends with a
separator (x, / 1, / 2,) reads as the one column, as x,y, / 1,2, reads as two."""
from __future__ import annotations

import pytest

from conftest import run_cli


@pytest.mark.parametrize("stdin", ["x,\n1,\n2,\n", "x\t\n1\t\n2\t\n", "x,\n1\n2,\n"])
def test_one_column_with_a_trailing_separator_is_one_column(stdin):
    code, out, err = run_cli("grad", "x^2", "--points", "-", "--format", "csv", stdin=stdin)
    assert (code, err) == (0, "")
    # f = x^2, df/dx = 2x
    assert out == "x,f,df/dx\n1.0,1.0,2.0\n2.0,4.0,4.0\n"


def test_one_column_with_a_value_after_its_separator_is_a_field_too_many():
    code, out, err = run_cli("grad", "x^2", "--points", "-", "--format", "csv",
                             stdin="x,\n1,5\n")
    assert (code, err) == (2, "adcli: error: points file line 2: 2 fields, the header names "
                          "1: its column 2 has no name\n")
