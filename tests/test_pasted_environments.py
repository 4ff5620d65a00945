"""More of amsmath's displays, pasted whole: multline and flalign (starred or not) delimit as
equation does; gathered and split, like aligned, sit inside an outer pair; a line may end in
the starred break \\\\* (no page break there), with its spacing or without.

F is x^2 + 1 (at x = 2: 5) or x^2 for check, whose derivative 2x is worked out by hand; a
wrong one (3x) must still differ. Errors go through the CLI: exit 2, one line, a caret under
the culprit."""
from __future__ import annotations

import pytest

from conftest import assert_one_line_error, run_cli, strict_json

OUTER = [("\\begin{multline}", "\\end{multline}"), ("\\begin{multline*}", "\\end{multline*}"),
         ("\\begin{flalign}", "\\end{flalign}"), ("\\begin{flalign*}", "\\end{flalign*}")]
INNER = ["gathered", "split"]


def value(text: str) -> float:
    code, out, err = run_cli("eval", text, "--at", "x=2", "--format", "json")
    assert code == 0, err
    return strict_json(out)["points"][0]["value"]


@pytest.mark.parametrize("opening, closing", OUTER)
def test_multline_and_flalign_delimit_as_equation_does(opening, closing):
    assert value(f"{opening} x^2 + 1 {closing}") == 5.0
    assert value(f"{opening} x^2 + 1 {closing}.") == 5.0        # prose's full stop after


@pytest.mark.parametrize("inner", INNER)
@pytest.mark.parametrize("outer", [("\\[", "\\]"), ("\\begin{equation}", "\\end{equation}"),
                                   ("$$", "$$"), ("\\begin{multline*}", "\\end{multline*}")])
def test_gathered_and_split_sit_inside_an_outer_pair(inner, outer):
    opening, closing = outer
    text = f"{opening} \\begin{{{inner}}} x^2 + 1 \\end{{{inner}}} {closing}"
    assert value(text) == 5.0


@pytest.mark.parametrize("end", ["\\\\*", "\\\\*[2pt]", "\\\\ *".replace(" ", ""),
                                 "\\\\*[-1ex]"])
def test_a_line_may_end_in_the_starred_break(end):
    assert value(f"x^2 + 1 {end}") == 5.0
    assert value(f"\\begin{{align*}} x^2 + 1 {end} \\end{{align*}}") == 5.0


def test_a_starred_break_before_an_operator_continues_the_line():
    # (tests/test_pasted_breaks.py: x + 1 at x = 2, its '*' the break's star, not a product)
    assert value("x \\\\* + 1") == 3.0
    assert value("\\begin{multline*} x \\\\*[2pt] + 1 \\end{multline*}") == 3.0


@pytest.mark.parametrize("derivative, verdict", [("2x", "matches"), ("3x", "differs")])
def test_check_reads_an_expectation_in_split_with_a_starred_break(derivative, verdict):
    expected = f"\\begin{{equation}} \\begin{{split}} f'(x) &= {derivative} \\\\* " \
               "\\end{split} \\end{equation}"
    code, out, err = run_cli("check", "x^2", expected, "--format", "json")
    assert code == (0 if verdict == "matches" else 1), err
    result = strict_json(out)
    assert result["verdict"] == verdict
    assert result["checks"][0]["expected"]["parsed"] == f"{derivative[0]}*x"


WRONG = [
    # a starred break is a line's end, as the plain one is (or inside, at an operator)
    ("x \\\\* y", "unexpected '\\\\*': TeX's line break is read at the end", 2),
    # closings in the order of the openings, and one inner environment at most
    ("\\begin{multline} x \\end{equation}", "'\\end{equation}' does not close the "
     "'\\begin{multline}' that opens the expression: end it with '\\end{multline}'", 19),
    ("$\\begin{split}\\begin{split}x\\end{split}\\end{split}$",
     "unexpected '\\begin{split}'", 14),
    # and none alone: two levels with no outer pair are not an outer and an inner one
    ("\\begin{split}\\begin{split}x\\end{split}\\end{split}",
     "'\\begin{split}' inside '\\begin{split}' with no outer pair around them", 13),
    # an outer environment is not an inner one
    ("\\[ \\begin{multline} x \\end{multline} \\]", "unexpected '\\begin{multline}'", 3),
]


@pytest.mark.parametrize("text, words, column", WRONG, ids=[t for t, _, _ in WRONG])
def test_a_wrong_use_is_one_line_with_a_caret(text, words, column):
    assert_one_line_error(run_cli("eval", text, "--at", "x=1"), text, words, column)
