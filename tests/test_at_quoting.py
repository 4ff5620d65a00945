"""A passed-through value in a point's name=value pairs (trace's "at" line, "Hessian at"):
where it is quoted, a reader finds where it ends, whatever quotes, commas or "=" it holds.
Each expected line is written from the points file by hand: the value in the quotes Python
writes a string in, a quote or backslash inside escaped."""
from __future__ import annotations

import ast
import csv

import pytest

from conftest import run_cli

# (the id cell as CSV writes it, the id as the at line must show it)
QUOTED = [
    ('"it\'s"', '"it\'s"'),                  # a single quote inside: in double quotes
    ('"a\', x=1"', '"a\', x=1"'),            # no longer reads as id=a plus a pair x=1
    ('"both \' and """', '\'both \\\' and "\''),  # both: the single quote escaped
    ('"back\\slash, here"', "'back\\\\slash, here'"),  # a backslash inside quotes doubled
]


@pytest.mark.parametrize("cell, shown", QUOTED, ids=[str(i) for i in range(len(QUOTED))])
@pytest.mark.parametrize("command, head", [("trace", "at "), ("hessian", "Hessian at ")])
def test_a_quoted_value_in_a_point_ends_where_its_quotes_close(tmp_path, cell, shown,
                                                               command, head):
    points = tmp_path / "points.csv"
    points.write_text(f"id,x\n{cell},2\n", encoding="utf-8")
    code, out, err = run_cli(command, "x^2", "--points", str(points))
    assert (code, err) == (0, "")
    assert f"{head}id={shown}, x=2.0" in out.splitlines(), out
    # and the quoted text reads back as the value read from the file
    assert ast.literal_eval(shown) == next(csv.reader([cell]))[0]
