"""flalign's lines end in one or two alignment marks (x^2 + 1 && pushes the line flush
left), pasted whole or as a line: those are no part of the maths, as the first '&' of an
align line is not. F is x^2 + 1 (at x = 2: 5), or x^2 for check, whose derivative 2x is
worked out by hand; a wrong one (3x) still differs. Three marks, or one in the middle, stay
an error with the caret on the first that is not read."""
from __future__ import annotations

import pytest

from conftest import assert_one_line_error, run_cli, strict_json


@pytest.mark.parametrize("text", ["x^2 + 1 &&", "x^2 + 1 &", "x^2 + 1 & &", "& x^2 + 1 &&",
                                  "x^2 + 1 && \\\\", "x^2 + 1 & \\\\[2pt]",
                                  "\\begin{flalign*} & x^2 + 1 && \\end{flalign*}",
                                  "\\begin{flalign} x^2 + 1 & \\\\ \\end{flalign}"])
def test_one_or_two_last_marks_are_no_part_of_the_maths(text):
    code, out, err = run_cli("eval", text, "--at", "x=2", "--format", "json")
    assert code == 0, err
    assert strict_json(out)["points"][0]["value"] == 5.0


@pytest.mark.parametrize("derivative, code", [("2x", 0), ("3x", 1)])
def test_check_reads_a_flalign_line(derivative, code):
    expected = f"\\begin{{flalign*}} & f'(x) = {derivative} && \\end{{flalign*}}"
    got, out, err = run_cli("check", "x^2", expected, "--at", "x=2", "--format", "json")
    assert got == code, err
    assert strict_json(out)["checks"][0]["expected"]["parsed"] == f"{derivative[0]}*x"


# (text, the column of the first mark not read, counted from 0)
@pytest.mark.parametrize("text, column", [("x &&& y", 2), ("x^2 &&&", 4), ("x & + 1 &&", 2),
                                          ("&& x^2", 1)])
def test_other_marks_stay_an_error_with_a_caret(text, column):
    assert_one_line_error(run_cli("eval", text, "--at", "x=2"), text,
                          "unexpected character '&'", column)
