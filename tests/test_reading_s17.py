"""Readings a demanding user trips on, left by earlier testers (session 17):

* a superscript letter's hint must be something adcli accepts: on a function's name it is
  the power of the function's value (sinˣ(x): sin(x)^x, never sin^x, which is refused),
  after a call or bars the whole factor (sin(x)ˣ: sin(x)^x, |x|ˣ: |x|^x);
* a degree sign (°, and º, the ordinal indicator often typed for it, ˚) is refused in one
  line naming the character and saying how to write degrees (90*pi/180);
* \\operatorname{NAME} names a function, with "(...)" or without: an unknown NAME is the
  same error both ways, a known one the same function;
* e's and pi's power of a number glued to a factor (e^2x, \\pi^2x, π^2x, pi^2x) is read and
  cautioned alike, whatever the factor glued on is (x, θ, \\theta, π, \\pi);
* characters that look like operators or brackets (an en dash, ∗, fullwidth ＋ and （）)
  are refused naming the character and the one to write;
* parser.py knows the TeX fonts the grammar reads (one list, derived from the grammar).

Every expected value is a hand closed form at the point given.
"""
from __future__ import annotations

import math
import re

import pytest

import adcli
from conftest import assert_one_line_error, close, grad_said, run_cli

X = 0.5




# ----- 1. a superscript letter's hint is accepted ----------------------------------------

s, c = math.sin(X), math.cos(X)
HINTS = [
    # (text, --at, the hint, its value, its gradient by hand)
    ("sinˣ(x)", "x=0.5", "sin(x)^x", s ** X, {"x": s ** X * (math.log(s) + X * c / s)}),
    ("sinˣ x", "x=0.5", "sin(x)^x", s ** X, {"x": s ** X * (math.log(s) + X * c / s)}),
    ("sinⁿx", "x=0.5,n=3", "sin(x)^n", s ** 3,
     {"x": 3 * s ** 2 * c, "n": s ** 3 * math.log(s)}),
    ("sin²ˣ x", "x=0.5", "sin(x)^(2x)", s ** (2 * X),
     {"x": s ** (2 * X) * (2 * math.log(s) + 2 * X * c / s)}),
    ("sin(x)ˣ", "x=0.5", "sin(x)^x", s ** X, {"x": s ** X * (math.log(s) + X * c / s)}),
    ("2|x|ˣ", "x=0.5", "|x|^x", X ** X, {"x": X ** X * (math.log(X) + 1)}),
    ("\\sinˣ x", "x=0.5", "\\sin(x)^x", s ** X, {"x": s ** X * (math.log(s) + X * c / s)}),
]


def _hint(text: str, at: str) -> str:
    code, out, err = run_cli("eval", text, "--at", at)
    assert code == 2 and out == "" and err.count("\n") == 3, err
    message = err.split("\n")[0]
    found = re.search(r"write the power with '\^': (.*) \(column \d+\)$", message)
    assert found, message
    return found.group(1)


@pytest.mark.parametrize("text, at, hint, value, gradient", HINTS)
def test_a_superscript_letters_hint_is_read_and_means_the_power(text, at, hint, value,
                                                                 gradient):
    assert _hint(text, at) == hint
    got, grad, _ = grad_said(hint, at)
    assert close(got, value)
    for name, want in gradient.items():
        assert close(grad[name], want), (name, grad[name], want)


def test_a_function_powers_hint_keeps_the_bracketed_argument():
    # ln(x)^n at x=2, n=3: ln2^3; d/dx = 3 ln2^2 / 2, d/dn = ln2^3 ln(ln2) (ln2 < 1: < 0)
    assert _hint("lnⁿ(x)", "x=2,n=3") == "ln(x)^n"
    value, grad, _ = grad_said("ln(x)^n", "x=2,n=3")
    l2 = math.log(2)
    assert close(value, l2 ** 3) and close(grad["x"], 3 * l2 ** 2 / 2)
    assert close(grad["n"], l2 ** 3 * math.log(l2))
    # log_2(x)^x at x=4: 2^4 = 16; d/dx [x ln(log2 x)] = ln(log2 x) + 1/(ln 2 log2 x)
    # = ln 2 + 1/(2 ln 2)
    assert _hint("log_2ˣ(x)", "x=4") == "log_2(x)^x"
    value, grad, _ = grad_said("log_2(x)^x", "x=4")
    assert close(value, 16.0)
    assert close(grad["x"], 16.0 * (math.log(2) + 1 / (2 * math.log(2))))


@pytest.mark.parametrize("text, at, hint", [
    ("2ˣ", "x=3", "2^x"), ("x²ʸ", "x=2,y=3", "x^(2y)"), ("aˣb", "a=2,x=3,b=5", "a^x b"),
    ("2ˣ⁺¹", "x=1", "2^(x+1)"), ("1 + (x+1)ᵏ", "x=1,k=2", "(x+1)^k"),
    ("fooˣ", "foo=2,x=3", "foo^x"), ("expˣ(x)", "x=0.5", "exp(x)^x"),
    ("cosⁿ 2x", "x=0.5,n=2", "cos(2x)^n"),
])
def test_every_superscript_hint_parses(text, at, hint):
    assert _hint(text, at) == hint
    adcli.parse(hint)


@pytest.mark.parametrize("text, column", [
    ("x + ˣ", 4), ("ˣ", 0), ("|x - |x||ˣ", 9),
    ("(x+1+x+1+x+1+x+1+x+1+x+1+x+1+x+1+x+1+x+1+x+1)ˣ", 45),
])
def test_a_superscript_letter_with_no_base_found_offers_no_unreadable_hint(text, column):
    # (nothing before it, bars in bars, a base too long to show: no hint cut short; the
    # excerpt of a long text under the message is the error display's own, cut short)
    code, out, err = run_cli("eval", text, "--at", "x=1")
    message = err.split("\n")[0]
    assert (code, out, err.count("\n")) == (2, "", 3), err
    assert "'ˣ' is a superscript letter" in message and "…" not in message, message
    assert message.endswith(f"after its base, as in x^x (column {column + 1})"), message


# ----- 2. degrees ------------------------------------------------------------------------

@pytest.mark.parametrize("text, character, column, meant", [
    ("90º", "º", 2, "90*pi/180"),
    ("90°", "°", 2, "90*pi/180"),
    ("sin(90°)", "°", 6, "90*pi/180"),
    ("sin(45.5˚)", "˚", 8, "45.5*pi/180"),
    ("cos (x+1)°", "°", 9, "(x+1)*pi/180"),
    ("x°", "°", 1, "x*pi/180"),
])
def test_a_degree_sign_is_refused_saying_how_to_write_degrees(text, character, column,
                                                              meant):
    run = run_cli("grad", text, "--at", "x=0.5")
    assert_one_line_error(run, text, f"'{character}'", column)
    assert_one_line_error(run, text, f"for degrees, write {meant}", column)
    assert "radians" in run[2]


def test_the_degree_hint_reads_as_degrees():
    # sin(90*pi/180) = 1, its derivative in nothing; (x+1)*pi/180 at 0.5: 1.5 pi/180
    assert close(grad_said("sin(90*pi/180) + x", "x=0.5")[0], 1.5)
    value, grad, _ = grad_said("cos((x+1)*pi/180)", "x=0.5")
    assert close(value, math.cos(1.5 * math.pi / 180))
    assert close(grad["x"], -math.sin(1.5 * math.pi / 180) * math.pi / 180)


def test_the_ordinal_indicator_is_said_to_be_one():
    code, _, err = run_cli("eval", "90º", "--at", "x=1")
    assert code == 2 and "ordinal indicator" in err.split("\n")[0], err


# ----- 3. \operatorname with and without parentheses ------------------------------------

@pytest.mark.parametrize("name, fragment", [
    ("foo", "adcli has no function 'foo'; \\operatorname names a function"),
    ("sinn", "did you mean 'sin'?"),
    ("sinc", "write sin(u)/u for sinc(u)"),
    ("x", "adcli has no function 'x'"),
])
def test_an_unknown_operatorname_is_one_error_however_it_is_applied(name, fragment):
    texts = [f"\\operatorname{{{name}}} x", f"\\operatorname{{{name}}}(x)",
             f"\\operatorname{{{name}}}\\left(x\\right)", f"\\operatorname{{{name}}}^2 x",
             f"2\\operatorname{{{name}}}{{x}}"]
    messages = set()
    for text in texts:
        run = run_cli("eval", text, "--at", "x=1")
        column = text.index("\\operatorname")
        assert_one_line_error(run, text, fragment, column)
        messages.add(re.sub(r" \(column \d+\)$", "", run[2].split("\n")[0]))
    assert len(messages) == 1, messages
    assert "if 'x' is a variable" not in messages.pop()


@pytest.mark.parametrize("text", ["\\operatorname{sech} x", "\\operatorname{sech}(x)",
                                  "\\operatorname{sech}\\left(x\\right)",
                                  "\\operatorname{sech}{x}"])
def test_a_known_operatorname_is_the_function_however_it_is_applied(text):
    value, grad, _ = grad_said(text, "x=0.5")
    sech = 1 / math.cosh(X)
    assert close(value, sech) and close(grad["x"], -sech * math.tanh(X))


@pytest.mark.parametrize("text", ["\\operatorname{e} x", "\\operatorname{e}(x)"])
def test_a_constant_in_operatorname_is_the_constant_both_ways(text):
    value, grad, _ = grad_said(text, "x=0.5")
    assert close(value, math.e * X) and close(grad["x"], math.e)


# ----- 4. e^2x and pi^2x alike -----------------------------------------------------------

@pytest.mark.parametrize("text, base, glued", [
    ("e^2x", math.e, "x"), ("\\mathrm{e}^2x", math.e, "x"), ("{\\rm e}^2x", math.e, "x"),
    ("pi^2x", math.pi, "x"), ("π^2x", math.pi, "x"), ("\\pi^2x", math.pi, "x"),
])
def test_a_constants_power_glued_to_a_name_is_read_and_cautioned_alike(text, base, glued):
    value, grad, said = grad_said(text, "x=0.5")
    assert close(value, base ** 2 * X) and close(grad["x"], base ** 2)
    assert len(said) == 1 and "multiplies after it" in said[0], said
    assert f"^(2{glued})" in said[0], said


@pytest.mark.parametrize("text, value, meant", [
    ("e^2θ", math.e ** 2 * 0.5, "e^(2θ)"),
    ("e^2\\theta", math.e ** 2 * 0.5, "e^(2\\theta)"),
    ("\\pi^2\\theta", math.pi ** 2 * 0.5, "pi^(2\\theta)"),
    ("π^2θ", math.pi ** 2 * 0.5, "pi^(2θ)"),
    ("e^2π + θ", math.e ** 2 * math.pi + 0.5, "e^(2π)"),
    ("e^2\\pi + \\theta", math.e ** 2 * math.pi + 0.5, "e^(2\\pi)"),
    ("\\pi^2\\pi + \\theta", math.pi ** 3 + 0.5, "pi^(2\\pi)"),
])
def test_whatever_factor_is_glued_on_the_caution_is_the_same(text, value, meant):
    got, _, said = grad_said(text, "θ=0.5")
    assert close(got, value)
    assert len(said) == 1 and f"write {meant}" in said[0], said
    adcli.parse(meant)


@pytest.mark.parametrize("text", ["e^{2}x", "\\pi^{2}x", "e^2 x", "\\pi^2 x", "\\pi^2\\,x",
                                  "e^2\\sin x", "x^2y"])
def test_a_power_set_apart_or_on_a_variable_is_not_cautioned(text):
    _, _, said = grad_said(text, "x=0.5,y=1")
    assert not [w for w in said if "multiplies after it" in w], said


# ----- look-alike characters -------------------------------------------------------------

@pytest.mark.parametrize("text, column, fragment", [
    ("x – 1", 2, "'–' (an en dash) is not read: write '-'"),
    ("x — 1", 2, "'—' (an em dash) is not read: write '-'"),
    ("x ‐ 1", 2, "'‐' (a hyphen) is not read: write '-'"),
    ("x∗x", 1, "'∗' (an asterisk operator) is not read: write '*'"),
    ("x＋1", 1, "'＋' (a fullwidth '+') is not read: write '+'"),
    ("（x+1）", 0, "'（' (a fullwidth '(') is not read: write '('"),
    ("∜x", 0, "'∜' (a fourth root) is not read: write x^(1/4)"),
    ("∜(x+1)", 0, "'∜' (a fourth root) is not read: write (x+1)^(1/4), or \\sqrt[4]{x+1}"),
    ("﹙x﹚", 0, "'﹙' (a small '(') is not read: write '('"),
    ("x⁽²⁾", 1, "'⁽' (a superscript '(') is not read: write the power with '^': x^(2)"),
    ("(x+1)⁽²⁾", 5, "write the power with '^': (x+1)^(2)"),
    ("x⁽²", 1, "'⁽' (a superscript '(') is not read: write the power with '^' (column 2)"),
])
def test_a_look_alike_character_is_named_with_the_one_to_write(text, column, fragment):
    assert_one_line_error(run_cli("grad", text, "--at", "x=0.5"), text, fragment, column)


@pytest.mark.parametrize("text, value, derivative", [
    # the hints above, by hand at x = 0.5: (x+1)^(1/4), x^(2), (x+1)^(2)
    ("(x+1)^(1/4)", 1.5 ** 0.25, 0.25 * 1.5 ** -0.75), ("\\sqrt[4]{x+1}", 1.5 ** 0.25,
                                                         0.25 * 1.5 ** -0.75),
    ("x^(2)", X ** 2, 2 * X), ("(x+1)^(2)", 1.5 ** 2, 2 * 1.5),
])
def test_the_look_alike_hints_read_as_meant(text, value, derivative):
    got, grad, _ = grad_said(text, "x=0.5")
    assert close(got, value) and close(grad["x"], derivative)


@pytest.mark.parametrize("text", ["x⁼1", "2₊x"])
def test_other_raised_or_lowered_signs_keep_the_syntax_error(text):
    code, _, err = run_cli("eval", text, "--at", "x=1")
    assert code == 2 and "unexpected character" in err.split("\n")[0], err


@pytest.mark.parametrize("text, value, derivative", [
    ("２x", 2 * X, 2.0), ("１.５x", 1.5 * X, 1.5), ("ｘ²", X ** 2, 2 * X),
    ("x\u00a0−\u00a01", X - 1, 1.0), ("2\u2009x", 2 * X, 2.0), ("sin\u00a0x", s, c),
])
def test_fullwidth_digits_and_letters_and_unicode_spaces_are_read(text, value, derivative):
    got, grad, _ = grad_said(text, "x=0.5")
    assert close(got, value) and close(grad["x"], derivative)


# ----- 5. the TeX fonts: one list ---------------------------------------------------------

def test_the_parser_knows_the_fonts_the_grammar_reads():
    from adcli import lalr, parser, reader

    grammar = lalr.grammar_text()
    font = re.search(r"^_TEX_FONT: /(.*)/$", grammar, re.M).group(1)
    assert parser._font_named() == reader.tex_font() == font
    fonts = set(re.match(r"\\\\\(([\w|]+)\)", font).group(1).split("|"))
    assert set(parser._FONT_EXAMPLES) == fonts
    assert {f[1:] for f in reader._FONTS.values()} == fonts
    # TEX_NAME is the fonts' pattern itself, not a copy of it
    assert re.search(r"^TEX_NAME\.\d: _TEX_FONT$", grammar, re.M)


# ----- on a terminal ---------------------------------------------------------------------

@pytest.mark.parametrize("columns", [40, 80, 120])
@pytest.mark.parametrize("text, column, message", [
    ("sin(90º)", 6, "'º' (the ordinal indicator, not a degree sign) is not read: angles are "
                    "in radians here; for degrees, write 90*pi/180"),
    ("sinˣ(x)", 3, "'ˣ' is a superscript letter, not read as a power: write the power with "
                   "'^': sin(x)^x"),
    ("\\operatorname{sinn}(x)", 0, "LaTeX's \\operatorname{sinn} is not read here: adcli "
                                   "has no function 'sinn'; did you mean 'sin'?"),
    ("x – 1", 2, "'–' (an en dash) is not read: write '-'"),
])
def test_the_errors_on_a_terminal(columns, text, column, message):
    from conftest import adcli_on_terminal, words

    code, rows = adcli_on_terminal(columns, "grad", text, "--at", "x=0.5")
    assert code == 2 and rows[-2:] == ["  " + text, "  " + " " * column + "^"]
    assert words(rows[:-2]) == ["adcli:", "error:", *message.split(), "(column",
                                f"{column + 1})"]
