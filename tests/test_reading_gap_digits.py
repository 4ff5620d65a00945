"""A space then a number after a divisor's first factor shows the same gap a letter does.

1/(x^2+1) 2x is 1/((x^2+1)*2*x) by the rules (side by side binds tighter than '/'), as
1/(x+1) x is; written with the chain rule's factor last, it is more often meant as
(1/(x^2+1))*2x. So the reader cautions, and check, when the expectation matches read so,
says so. A number right after a name is refused (x/2 3, 1/x 2), and nothing that is not such
a gap cautions.

The divisor's first factor is what is written before the space, brackets and bars whole:
1/(2x) y divides by (2x)*y, and the reading offered is (1/(2x))*y, never (1/2)*x*y.

And a command adcli reads (\\cdot, \\times, \\div), met where it cannot stand, is a syntax
error as the Unicode · is there, not "LaTeX's \\cdot is not read here"; \\operatorname and
\\mathrm without a name in braces say that they take one.

Every derivative a check compares is worked out by hand (in the comments).
"""
from __future__ import annotations

import pytest

import adcli
from adcli.parser import other_readings
from conftest import adcli_on_terminal, run_cli, words

TIGHTER = "a product written side by side binds tighter than '/', so this divides by"


def _caution(top: str, first: str, rest: str, divisor: str) -> str:
    return (f"{top}/{first} {rest}: {TIGHTER} {divisor}; for ({top}/{first})*{rest}, "
            f"write {top}/{first}*{rest}")


def _diagnosis(top: str, first: str, rest: str) -> str:
    return (f"{top}/{first} {rest} is read otherwise than it was likely meant (see the "
            f"warning); as ({top}/{first})*{rest}, the expectation matches")


# function, expectation written with the chain rule's factor last, (top, first factor,
# the rest, the divisor as read): the derivative, by hand, is the expectation read as
# (top/first)*rest
GAPS = [
    # (ln(x^2+1))' = 2x/(x^2+1)
    (r"\ln(x^2+1)", "1/(x^2+1) 2x", ("1", "((x^2) + 1)", "2*x", "(((x^2) + 1)*2)*x")),
    # (arcsin(x^2))' = 2x/sqrt(1-x^4)
    (r"\arcsin(x^2)", r"1/\sqrt{1-x^4} 2x",
     ("1", "sqrt(1 - (x^4))", "2*x", "(sqrt(1 - (x^4))*2)*x")),
    # (sqrt(x^2+1))' = 2x/(2 sqrt(x^2+1))
    (r"\sqrt{x^2+1}", r"1/(2\sqrt{x^2+1}) 2x",
     ("1", "(2*sqrt((x^2) + 1))", "2*x", "((2*sqrt((x^2) + 1))*2)*x")),
    # (2|x|)' = 2 sign(x) = 2x/|x|
    ("2|x|", "1/|x| 2x", ("1", "abs(x)", "2*x", "(abs(x)*2)*x")),
    # (2(x^3/3 - x^2/2 + x - ln(x+1)))' = 2(x^2 - x + 1 - 1/(x+1)) = 2x^3/(x+1)
    ("2(x^3/3 - x^2/2 + x - ln(x+1))", "x^2/(x+1) 2x",
     ("x^2", "(x + 1)", "2*x", "((x + 1)*2)*x")),
    # (2 ln(x+1))' = 2/(x+1): a number alone after the gap
    ("2ln(x+1)", "1/(x+1) 2", ("1", "(x + 1)", "2", "(x + 1)*2")),
    # spaces inside the brackets too: (ln(x^2+1))' = 2x/(x^2+1)
    (r"\ln(x^2+1)", "1/(x^2 + 1) 2x", ("1", "((x^2) + 1)", "2*x", "(((x^2) + 1)*2)*x")),
    # (ln(x+1))' = 1/(x+1) = (1/(x+1)) (x+1)/(x+1), a letter after the gap
    ("ln(x+1)", "1/(x + 1) (x+1)/(x+1)",
     ("1", "(x + 1)", "(x + 1)", "(x + 1)*(x + 1)")),
]


@pytest.mark.parametrize("function, expected, parts", GAPS, ids=[g[1] for g in GAPS])
def test_grad_cautions_of_a_number_after_the_gap(function, expected, parts):
    code, out, err = run_cli("grad", expected, "--at", "x=0.5", "--format", "plain")
    assert (code, err) == (0, f"adcli: warning: {_caution(*parts)}\n")


@pytest.mark.parametrize("function, expected, parts", GAPS, ids=[g[1] for g in GAPS])
def test_check_diagnoses_the_expectation_read_otherwise(function, expected, parts):
    code, out, err = run_cli("check", function, expected, "--format", "plain")
    lines = out.splitlines()
    assert code == 1 and lines[0].startswith("differs from d/dx at "), out
    assert lines[1] == f"diagnosis: {_diagnosis(*parts[:3])}", out
    assert f"adcli: warning: {_caution(*parts)}\n" in err


@pytest.mark.parametrize("text", [
    "(1/(x+1)) 2x", r"\frac{1}{x+1} 2x", "1/(x+1)*2x", "1/(x+1) * 2x", "1/(x+1) + 2x",
    "max(1/(x+1), 2)", "x^(1/(x+1)) 2", r"1/(x+1) \cdot 2x",
    "1/(x+1) - 2", "2/3 + 4", "1/2"])
def test_no_caution_where_no_gap_follows_the_first_factor(text):
    assert adcli.parse(text).cautions == []


@pytest.mark.parametrize("text, column, meant", [
    ("x/2 3", 4, "2*3"), ("1/x 2", 4, "x*2"), ("1/(x+1)2x", 7, "(x+1)*2x")])
def test_a_number_after_a_name_or_glued_stays_refused(text, column, meant):
    code, out, err = run_cli("grad", text, "--at", "x=0.5")
    assert (code, out) == (2, "")
    assert err.split("\n")[0] == ("adcli: error: a number can only come first in a product "
                                  f"written without '*': write {meant} "
                                  f"(column {column + 1})")


# the divisor's first factor is what is written before the space, brackets and bars whole
@pytest.mark.parametrize("text, parts, reading", [
    ("1/(2x) y", ("1", "(2*x)", "y", "(2*x)*y"), "1/(2x)* y"),
    ("1/x(x+1) y", ("1", "(x*(x + 1))", "y", "(x*(x + 1))*y"), "1/x(x+1)* y"),
    (r"1/\lvert x\rvert y", ("1", "abs(x)", "y", "abs(x)*y"), r"1/\lvert x\rvert* y"),
    ("1/|x - |y|| z", ("1", "abs(x - abs(y))", "z", "abs(x - abs(y))*z"),
     "1/|x - |y||* z"),
])
def test_the_first_factor_is_taken_whole(text, parts, reading):
    f = adcli.parse(text)
    assert f.cautions == [_caution(*parts)]
    assert [r.text for r in other_readings(f)] == [reading]


def test_a_definition_is_one_factor():
    f = adcli.parse("1/F y", {"F": "a b"})
    assert f.cautions == [_caution("1", "(a*b)", "y", "(a*b)*y")]


def _error_line(text: str) -> str:
    code, out, err = run_cli("grad", text, "--at", "x=2,y=1")
    assert (code, out, err.count("\n")) == (2, "", 3), err
    return err.split("\n")[0]


EXPECTED_OPERAND = "expected a number, a name, '(' or '|'"


@pytest.mark.parametrize("text, column", [
    (r"x + \cdot y", 4), (r"x + \times y", 4), (r"x + \div y", 4), (r"\cdot y", 0),
    (r"(\div x)", 1), (r"x \cdot \cdot y", 8), (r"\sin(\times x)", 5), (r"x^\cdot", 2),
    (r"|\cdot x|", 1)])
def test_a_misplaced_operator_command_is_a_syntax_error(text, column):
    command = text[column:].split()[0].rstrip(")|")
    code, out, err = run_cli("grad", text, "--at", "x=2,y=1")
    message, excerpt, caret = err.split("\n")[:3]
    assert (code, out, err.count("\n")) == (2, "", 3), err
    assert message == (f"adcli: error: unexpected '{command}'; {EXPECTED_OPERAND} "
                       f"(column {column + 1})")
    assert (excerpt, caret) == ("  " + text, "  " + " " * column + "^")


@pytest.mark.parametrize("text", [r"x + \cdot y", r"\div y", r"\sqrt\cdot", r"\sin^\times x"])
def test_it_reads_as_the_unicode_operator_does(text):
    # the Unicode · is a token the grammar has, refused by the parser itself
    command = next(c for c in (r"\cdot", r"\times", r"\div") if c in text)
    unicode = _error_line(text.replace(command, "·"))
    assert _error_line(text) == unicode.replace("·", command)


@pytest.mark.parametrize("text, column, command, example", [
    (r"x + \operatorname{} y", 4, r"\operatorname", r"a function's name in braces, as in "
                                                    r"\operatorname{sech}(x)"),
    (r"\operatorname x", 0, r"\operatorname", r"a function's name in braces, as in "
                                              r"\operatorname{sech}(x)"),
    (r"\operatorname{x+1}", 0, r"\operatorname", r"a function's name in braces, as in "
                                                 r"\operatorname{sech}(x)"),
    (r"x\mathrm{}", 1, r"\mathrm", r"a name in braces, as in \mathrm{e}"),
    (r"\mathit{2}", 0, r"\mathit", r"a name in braces, as in \mathit{x}"),
])
def test_a_font_command_without_its_name(text, column, command, example):
    assert _error_line(text) == (f"adcli: error: LaTeX's {command} takes {example} "
                                 f"(column {column + 1})")


@pytest.mark.parametrize("text, message", [
    (r"\foo x", r"LaTeX's \foo is not read here"),
    (r"\cdotx y", r"LaTeX's \cdotx is not read here"),
    (r"x_\cdot", r"LaTeX's \cdot is not read in a subscript"),
    (r"x_\operatorname{}", r"LaTeX's \operatorname is not read in a subscript"),
    (r"\operatorname{foo} x", r"LaTeX's \operatorname{foo} is not read here"),
])
def test_other_commands_keep_their_errors(text, message):
    assert _error_line(text).startswith(f"adcli: error: {message}")


@pytest.mark.parametrize("columns", [40, 80, 120])
def test_the_caution_and_diagnosis_on_a_terminal(columns):
    caution = _caution("1", "((x^2) + 1)", "2*x", "(((x^2) + 1)*2)*x")
    code, rows = adcli_on_terminal(columns, "grad", "1/(x^2+1) 2x", "--at", "x=0.5")
    read = next(i for i, row in enumerate(rows) if row.startswith("read as: "))
    assert code == 0 and rows[read] == "read as: 1/((((x^2) + 1)*2)*x)"
    assert words(rows[:read]) == ["adcli:", "warning:", *caution.split()]
    code, rows = adcli_on_terminal(columns, "check", r"\ln(x^2+1)", "1/(x^2+1) 2x")
    told = next(i for i, row in enumerate(rows) if row.startswith("diagnosis: "))
    warned = next(i for i, row in enumerate(rows) if row.startswith("adcli: warning: "))
    assert code == 1 and "differs from d/dx at 30 of 30 points" in rows
    diagnosis = _diagnosis("1", "((x^2) + 1)", "2*x")
    assert words(rows[told:warned]) == ["diagnosis:", *diagnosis.split()]
    assert words(rows[warned:]) == ["adcli:", "warning:", *caution.split()]


@pytest.mark.parametrize("columns", [40, 80, 120])
def test_the_syntax_error_on_a_terminal(columns):
    code, rows = adcli_on_terminal(columns, "grad", r"x + \cdot y", "--at", "x=2,y=1")
    assert code == 2 and rows[-2:] == [r"  x + \cdot y", "      ^"]
    assert words(rows[:-2]) == ["adcli:", "error:", "unexpected", r"'\cdot';",
                                *EXPECTED_OPERAND.split(), "(column", "5)"]
