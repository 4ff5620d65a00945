"""Readings users tripped on (session 18):

* 1/2 x is 1/(2*x) by the rules, and a caution says so whatever the factor after the space
  starts with: a name, a function, √ or ∛, bars, a bracket or a TeX command (3/2 √x,
  1/2 ∛x, 1/2 |x|, 1/2 \\sqrt{x}), in every command, once per place;
* Word's linear format, as pasted from its equations: the function application mark
  (U+2061) after letters ending in a function's name (𝑥cos⁡(𝑥) is x*cos(x)); its
  invisible grouping brackets 〖 〗 (read as parentheses); its nth root √(n&x); its
  superscript fraction slash (𝑥⁻¹ᐟ² is x^(-1/2));
* TeX's degrees (90^\\circ) refused as the degree sign is, saying how to write degrees;
  \\lg refused saying its base is not agreed on;
* superscript and subscript signs (⁼, ₊) named in one line, with a caret.

Every expected value is a hand closed form at the point given.
"""
from __future__ import annotations

import math

import pytest

from conftest import assert_one_line_error, close, grad_said, run_cli, warnings_in




SIDE_BY_SIDE = "a product written side by side binds tighter than '/'"


# ----- 1. a spaced divisor, whatever its next factor starts with -------------------------

r2, c2, s2 = math.sqrt(2), math.cos(2), math.sin(2)
SPACED = [
    # (text, its value at x=2 read by the rules, d/dx of that, by hand)
    ("3/2 √x", 3 / (2 * r2), -3 / (4 * 2 * r2)),            # 3/2 x^(-1/2): -3/4 x^(-3/2)
    ("1/2 ∛x", 1 / (2 * 2 ** (1 / 3)), -1 / (6 * 2 ** (4 / 3))),   # 1/2 x^(-1/3)
    ("1/2 |x|", 0.25, -0.125),                              # 1/(2x) for x > 0: -1/(2x^2)
    ("3/2 |x| x", 3 / 8, -3 / 8),                           # 3/(2x^2): -3/x^3
    ("1/2 \\sqrt{x}", 1 / (2 * r2), -1 / (4 * 2 * r2)),
    ("1/2 [x+1]", 1 / 6, -1 / 18),                          # 1/(2(x+1)): -1/(2(x+1)^2)
    ("1/2 sin x", 1 / (2 * s2), -c2 / (2 * s2 ** 2)),
    ("1/2 \\lvert x\\rvert", 0.25, -0.125),
]


@pytest.mark.parametrize("text, value, derivative", SPACED)
def test_a_spaced_divisor_is_cautioned_whatever_follows_the_space(text, value, derivative):
    got, grad, said = grad_said(text)
    assert close(got, value) and close(grad["x"], derivative), (got, grad)
    assert len(said) == 1 and SIDE_BY_SIDE in said[0], said


@pytest.mark.parametrize("text, meant", [
    ("3/2 √x", "(3/2)*sqrt(x)"), ("1/2 ∛x", "(1/2)*cbrt(x)"), ("1/2 |x|", "(1/2)*abs(x)"),
    ("3/2 |x| x", "(3/2)*abs(x)*x"), ("1/2 \\sqrt{x}", "(1/2)*sqrt(x)"),
])
def test_check_says_why_the_spaced_divisor_differs(text, meant):
    # x^{3/2} against a wrong expectation read by the rules: the caution says why, once
    code, out, err = run_cli("check", "x^{3/2}", text)
    said = warnings_in(err)
    assert len(said) == 1 and SIDE_BY_SIDE in said[0] and f"for {meant}" in said[0], err


@pytest.mark.parametrize("command", [["eval"], ["grad"], ["hessian"], ["trace"]])
def test_every_command_says_it_once_per_place(command):
    code, _, err = run_cli(*command, "1/2 √x + 1/2 √x + 3/2 |x|", "--at", "x=2")
    said = warnings_in(err)
    assert code == 0 and len(said) == 2 and all(SIDE_BY_SIDE in w for w in said), err
    assert "1/2 sqrt(x)" in said[0] and "3/2 abs(x)" in said[1], said


@pytest.mark.parametrize("text", ["(1/2) √x", "1/2*√x", "1/2√x", "x/|x| + 1", "|x/2 |+1"])
def test_no_caution_where_the_divisor_is_not_a_spaced_product(text):
    assert not [w for w in grad_said(text)[2] if SIDE_BY_SIDE in w]


# ----- 2. Word's linear format -----------------------------------------------------------

WORD = [
    # (text, value at x=2, derivative by hand)
    ("𝑥cos\u2061(𝑥)", 2 * c2, c2 - 2 * s2),
    ("𝑥cos\u2061𝑥", 2 * c2, c2 - 2 * s2),
    ("2𝑥sin\u2061𝑥 + 1", 4 * s2 + 1, 2 * s2 + 4 * c2),
    ("𝑒^𝑥 𝑥ln\u2061𝑥", math.e ** 2 * 2 * math.log(2),
     math.e ** 2 * (2 * math.log(2) + math.log(2) + 1)),
    ("〖(𝑥+1)〗^2", 9.0, 6.0),
    ("〖𝑥+1〗^2", 9.0, 6.0),
    ("𝑥〖(𝑥+1)〗^2", 18.0, 9.0 + 12.0),
    ("〖sin〗^2\u2061𝑥", s2 ** 2, 2 * s2 * c2),
    ("√(3&𝑥)", 2 ** (1 / 3), 2 ** (-2 / 3) / 3),
    ("√(2&𝑥)", r2, 1 / (2 * r2)),
    ("√(4&𝑥)", 2 ** 0.25, 0.25 * 2 ** -0.75),
    ("√(3&𝑥+6)", 2.0, 1 / 12),
    ("1+√( 3 & 𝑥^2 )", 1 + 4 ** (1 / 3), (2 / 3) * 2 ** (-1 / 3)),
    ("𝑥⁻¹ᐟ²", 2 ** -0.5, -0.5 * 2 ** -1.5),
    ("𝑥³ᐟ²", 2 ** 1.5, 1.5 * r2),
    ("(𝑥+2)¹ᐟ²", 2.0, 0.25),
]


@pytest.mark.parametrize("text, value, derivative", WORD)
def test_words_linear_format_is_read(text, value, derivative):
    got, grad, said = grad_said(text)
    assert close(got, value) and close(grad["x"], derivative), (got, grad)
    assert said == [], said


@pytest.mark.parametrize("text, column, fragment", [
    ("𝑥foo\u2061(𝑥)", 0, "'xfoo' is followed by Word's function application mark"),
    ("f\u2061(𝑥)", 0, "'f' is followed by Word's function application mark"),
    ("√(𝑛&𝑥)", 0, "Word's root √(n&x) takes a whole number n"),
    ("𝑥⁻¹ᐟ", 3, "'ᐟ' (Word's raised fraction slash) is read between superscript digits"),
    ("xⁿᐟ²", 1, "write the power with '^': x^(n/2)"),
])
def test_words_forms_it_cannot_read_are_refused_in_one_line(text, column, fragment):
    # (the error display shows the invisible mark escaped)
    shown = text.replace("\u2061", "\\u2061")
    assert_one_line_error(run_cli("grad", text, "--at", "x=2,n=3"), shown, fragment, column)


def test_a_power_after_words_function_application_mark_is_refused():
    code, out, err = run_cli("grad", "𝑥cos\u2061^2 𝑥", "--at", "x=2")
    message = err.split("\n")[0]
    assert (code, out, err.count("\n")) == (2, "", 3), err
    assert "'cos' is followed by Word's function application mark" in message, message
    assert message.endswith("not a power (column 6)"), message


def test_words_grouping_brackets_close_only_each_other():
    # (the caret line is the error display's, which counts 〖 as two columns wide)
    code, out, err = run_cli("grad", "〖𝑥+1)", "--at", "x=2")
    message = err.split("\n")[0]
    assert (code, out, err.count("\n")) == (2, "", 3), err
    assert message == "adcli: error: unexpected ')'; expected '〗' or an operator (column 5)"


# ----- 3. TeX: degrees, \lg --------------------------------------------------------------

@pytest.mark.parametrize("text, column, meant", [
    ("90^\\circ", 2, "90*pi/180"), ("\\sin(30^{\\circ})", 7, "30*pi/180"),
    ("\\cos (x+1)^\\circ", 10, "(x+1)*pi/180"), ("45^{ \\circ }+x", 2, "45*pi/180"),
])
def test_tex_degrees_are_refused_as_the_degree_sign_is(text, column, meant):
    run = run_cli("grad", text, "--at", "x=0.5")
    assert_one_line_error(run, text, f"for degrees, write {meant}", column)
    assert "radians" in run[2] and "\\circ" in run[2].split("\n")[0]


def test_the_degree_hint_reads_as_degrees():
    # sin(30 pi/180) = 1/2; cos((x+1) pi/180) at x = 0.5, with its derivative
    assert close(grad_said("\\sin(30*pi/180) + x", "x=0.5")[0], 1.0)
    value, grad, _ = grad_said("\\cos((x+1)*pi/180)", "x=0.5")
    assert close(value, math.cos(1.5 * math.pi / 180))
    assert close(grad["x"], -math.sin(1.5 * math.pi / 180) * math.pi / 180)


@pytest.mark.parametrize("text, column", [("\\lg x", 0), ("2\\lg(x)", 1), ("\\lg^2 x", 0)])
def test_lg_is_refused_saying_to_write_the_base(text, column):
    assert_one_line_error(run_cli("grad", text, "--at", "x=2"), text,
                          "write log_10 x or log_2 x", column)


def test_the_lg_hints_read():
    # log10 and log2 at x = 2, their derivatives 1/(x ln b)
    value, grad, _ = grad_said("log_10 x")
    assert close(value, math.log10(2)) and close(grad["x"], 1 / (2 * math.log(10)))
    value, grad, _ = grad_said("log_2 x")
    assert close(value, 1.0) and close(grad["x"], 1 / (2 * math.log(2)))


# ----- 4. raised and lowered signs -------------------------------------------------------

@pytest.mark.parametrize("text, column, fragment", [
    ("x⁼1", 1, "'⁼' (a superscript '=')"),
    ("2₊x", 1, "'₊' (a subscript '+'): write '+'"),
    ("2₋x", 1, "'₋' (a subscript '-'): write '-'"),
    ("x⁺ + 1", 1, "'⁺' (a superscript '+')"),
    ("x₍1₎", 1, "'₍' (a subscript '(')"),
])
def test_raised_and_lowered_signs_are_named(text, column, fragment):
    assert_one_line_error(run_cli("grad", text, "--at", "x=2"), text, fragment, column)


@pytest.mark.parametrize("columns", [40, 80, 120])
def test_a_lowered_sign_on_a_terminal(columns):
    from conftest import adcli_on_terminal, words

    code, rows = adcli_on_terminal(columns, "grad", "2₊x", "--at", "x=2")
    assert code == 2 and rows[-2:] == ["  2₊x", "   ^"]
    message = words(rows[:-2])
    assert message[:2] == ["adcli:", "error:"] and message[-2:] == ["(column", "2)"]
    assert "'₊'" in message and "subscript" in message
