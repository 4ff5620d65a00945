"""A LaTeX command word ends at its last letter, as TeX ends it: \\sin2x is \\sin, then 2x.

So \\sin2x is read as \\sin 2x is, sin(2*x), by the rules for a function written without
parentheses; \\ln2 is ln(2), \\cos3\\theta is cos(3*θ). A Greek letter or a constant glued to a
number (\\alpha2, \\pi2) is the letter, then the number, and a number comes first in a product
written side by side: refused, as \\alpha 2 and x_{1}2 are, saying what TeX made of it. An
unknown command is refused by its letters (\\foo2 names \\foo), and names with digits (x1,
theta2) are as they were.

And a division whose divisor is a product written side by side is said wherever a space
shows between its first two factors: 2/x\\ln x as 2/x \\ln x is (TeX sets a thin space before
\\ln; the source's space makes no difference to it).

Every value and derivative below is a closed form worked out by hand, and each reading is
compared with the expression written out with '*' and parentheses.
"""
from __future__ import annotations

import math

import pytest

import adcli
from conftest import adcli_on_terminal, assert_one_line_error, run_cli, words

X, T = 0.3, 0.4   # x, and θ where the reading has it
PI = math.pi

# written, read as (by hand), written out, value, derivative(s), at x = 0.3, θ = 0.4
READINGS = [
    (r"\sin2x", "sin(2*x)", "sin(2*x)", math.sin(0.6), {"x": 2 * math.cos(0.6)}),
    (r"\ln2x", "ln(2*x)", "ln(2*x)", math.log(0.6), {"x": 1 / X}),
    (r"\ln2", "ln(2)", "ln(2)", math.log(2), {}),
    (r"\ln2 + x", "ln(2) + x", "ln(2) + x", math.log(2) + X, {"x": 1.0}),
    (r"\cos3\theta", "cos(3*θ)", "cos(3*θ)", math.cos(1.2), {"θ": -3 * math.sin(1.2)}),
    (r"\exp2x", "exp(2*x)", "exp(2*x)", math.exp(0.6), {"x": 2 * math.exp(0.6)}),
    (r"\sin2", "sin(2)", "sin(2)", math.sin(2), {}),
    (r"\sin2 + x", "sin(2) + x", "sin(2) + x", math.sin(2) + X, {"x": 1.0}),
    (r"\sin2x^2", "sin(2*(x^2))", "sin(2*(x^2))", math.sin(0.18),
     {"x": 4 * X * math.cos(0.18)}),
    (r"\sin2\pi x", "sin((2*pi)*x)", "sin((2*pi)*x)", math.sin(0.6 * PI),
     {"x": 2 * PI * math.cos(0.6 * PI)}),
    (r"\sin2x\cos x", "sin(2*x)*cos(x)", "sin(2*x)*cos(x)", math.sin(0.6) * math.cos(X),
     {"x": 2 * math.cos(0.6) * math.cos(X) - math.sin(0.6) * math.sin(X)}),
    (r"\sin2(x+1)", "sin(2*(x + 1))", "sin(2*(x + 1))", math.sin(2.6),
     {"x": 2 * math.cos(2.6)}),
    (r"\sin2.5x", "sin(2.5*x)", "sin(2.5*x)", math.sin(0.75), {"x": 2.5 * math.cos(0.75)}),
    (r"x\sin2x", "x*sin(2*x)", "x*(sin(2*x))", X * math.sin(0.6),
     {"x": math.sin(0.6) + 0.6 * math.cos(0.6)}),
    (r"\sinh2x", "sinh(2*x)", "sinh(2*x)", math.sinh(0.6), {"x": 2 * math.cosh(0.6)}),
    (r"\log2x", "log(2*x)", "log(2*x)", math.log(0.6), {"x": 1 / X}),
    (r"\tan3x", "tan(3*x)", "tan(3*x)", math.tan(0.9), {"x": 3 / math.cos(0.9) ** 2}),
    (r"\sqrt{x}\sin2x", "sqrt(x)*sin(2*x)", "sqrt(x)*sin(2*x)", math.sqrt(X) * math.sin(0.6),
     {"x": math.sin(0.6) / (2 * math.sqrt(X)) + 2 * math.sqrt(X) * math.cos(0.6)}),
    (r"$\sin2x$", "sin(2*x)", "sin(2*x)", math.sin(0.6), {"x": 2 * math.cos(0.6)}),
    (r"\frac{1}{2}\sin2x", "(1/2)*sin(2*x)", "(1/2)*sin(2*x)", math.sin(0.6) / 2,
     {"x": math.cos(0.6)}),
    (r"e^{\sin2x}", "e^sin(2*x)", "e^(sin(2*x))", math.exp(math.sin(0.6)),
     {"x": 2 * math.cos(0.6) * math.exp(math.sin(0.6))}),
    (r"\sin2e^{x}", "sin(2*(e^x))", "sin(2*(e^x))", math.sin(2 * math.exp(X)),
     {"x": 2 * math.exp(X) * math.cos(2 * math.exp(X))}),
    (r"\sin^2 2x", "sin(2*x)^2", "(sin(2*x))^2", math.sin(0.6) ** 2,
     {"x": 4 * math.sin(0.6) * math.cos(0.6)}),
]


def _at(variables) -> dict:
    return {v: {"x": X, "θ": T}[v] for v in variables}


@pytest.mark.parametrize("written, reading, explicit, value, gradient", READINGS,
                         ids=[r[0] for r in READINGS])
def test_a_command_word_ends_at_its_letters(written, reading, explicit, value, gradient):
    f, g = adcli.parse(written), adcli.parse(explicit)
    assert f.parsed == reading and f.cautions == []
    assert sorted(f.variables) == sorted(gradient) == sorted(g.variables)
    at = _at(f.variables)
    assert f.value(**at) == g.value(**at) == pytest.approx(value, rel=1e-14, abs=1e-15)
    if gradient:
        assert f.grad(**at) == g.grad(**at)
        for name, derivative in gradient.items():
            assert f.grad(**at)[name] == pytest.approx(derivative, rel=1e-13, abs=0)


def test_the_cli_reads_sin2x_as_sin_2x():
    code, out, err = run_cli("grad", r"\sin2x", "--at", "x=0.3", "--format", "plain")
    value, derivative = map(float, out.split())
    assert (code, err) == (0, "")
    assert value == pytest.approx(math.sin(0.6), rel=1e-15, abs=0)
    assert derivative == pytest.approx(2 * math.cos(0.6), rel=1e-15, abs=0)


def test_command_words_in_a_long_text():
    # Past lalr.BULK characters the text is cut into tokens in one pass: \sin2x must still
    # be \sin, 2 and x there.
    text = " + ".join([r"\sin2x", r"\cos3x", r"\ln2x"] * 300)
    assert len(text) > 4096
    f = adcli.parse(text)
    assert f.value(x=X) == pytest.approx(300 * (math.sin(0.6) + math.cos(0.9) + math.log(0.6)),
                                         rel=1e-12)
    assert f.grad(x=X)["x"] == pytest.approx(
        300 * (2 * math.cos(0.6) - 3 * math.sin(0.9) + 1 / X), rel=1e-12)


# ----- names with digits are as they were --------------------------------------------------

@pytest.mark.parametrize("written, reading, variables", [
    ("x1", "x1", ["x1"]),
    ("x_1", "x_1", ["x_1"]),
    ("theta2", "theta2", ["theta2"]),
    ("α2 + x", "α2 + x", ["α2", "x"]),
    (r"\alpha_2", "α_2", ["α_2"]),
    (r"\alpha_{12} x", "α_12*x", ["α_12", "x"]),
    (r"\theta_1 x", "θ_1*x", ["θ_1", "x"]),
    (r"x_\alpha y", "x_α*y", ["x_α", "y"]),
    (r"2\alpha", "2*α", ["α"]),
    (r"\alpha x", "α*x", ["α", "x"]),
])
def test_names_with_digits_do_not_change(written, reading, variables):
    f = adcli.parse(written)
    assert (f.parsed, list(f.variables)) == (reading, variables)


# ----- refused: a number after a letter, an unknown command ---------------------------------

NUMBER_FIRST = "a number can only come first in a product written without '*': write "
UNKNOWN = ("is not read here: write the expression itself (\\frac{a}{b}, \\sqrt{x}, \\cdot, "
           "\\sin and the Greek letters are read)")


@pytest.mark.parametrize("text, message, column", [
    (r"\alpha2", NUMBER_FIRST + r"\alpha*2 (TeX ends a command at its last letter, so "
                                r"\alpha2 is \alpha then 2; for a subscript, write \alpha_2)", 6),
    (r"\pi2", NUMBER_FIRST + r"\pi*2 (TeX ends a command at its last letter, so \pi2 is \pi "
                             r"then 2)", 3),
    (r"x + \theta12", NUMBER_FIRST + r"\theta*12 (TeX ends a command at its last letter, so "
                                     r"\theta12 is \theta then 12; for a subscript, write "
                                     r"\theta_{12})", 10),
    (r"\sin\alpha2", NUMBER_FIRST + r"\alpha*2 (TeX ends a command at its last letter, so "
                                    r"\alpha2 is \alpha then 2; for a subscript, write "
                                    r"\alpha_2)", 10),
    # with a space, as before: nothing glued
    (r"\alpha 2", NUMBER_FIRST + r"\alpha*2", 7),
    (r"x_\alpha2", NUMBER_FIRST + r"x_\alpha*2", 8),
    (r"\foo2", r"LaTeX's \foo " + UNKNOWN, 0),
    (r"x + \foo2x", r"LaTeX's \foo " + UNKNOWN, 4),
    (r"\sinx", r"LaTeX's \sinx " + UNKNOWN, 0),
    (r"\sinhx2", r"LaTeX's \sinhx " + UNKNOWN, 0),
])
def test_refused_with_the_caret_in_place(text, message, column):
    run = run_cli("grad", text, "--at", "x=1", "--format", "plain")
    assert_one_line_error(run, text, message, column)
    assert run[2].split("\n")[0] == f"adcli: error: {message} (column {column + 1})"


@pytest.mark.parametrize("columns", [40, 80, 120])
def test_the_refusal_on_a_terminal(columns):
    code, rows = adcli_on_terminal(columns, "grad", r"\alpha2", "--at", "x=1")
    message = (NUMBER_FIRST + r"\alpha*2 (TeX ends a command at its last letter, so \alpha2 "
               r"is \alpha then 2; for a subscript, write \alpha_2) (column 7)")
    assert code == 2
    assert rows[-2:] == ["  \\alpha2", "  " + " " * 6 + "^"]
    assert words(rows[:-2]) == ["adcli:", "error:", *message.split()]


# ----- 2/x\ln x: said as 2/x \ln x is -------------------------------------------------------

def _spaced(top: str, first: str, rest: str, divisor: str) -> str:
    return (f"{top}/{first} {rest}: a product written side by side binds tighter than '/', "
            f"so this divides by {divisor}; for ({top}/{first})*{rest}, write "
            f"{top}/{first}*{rest}")


LN = _spaced("2", "x", "ln(x)", "x*ln(x)")
SAID = [
    # written, read as, written out, the caution
    (r"2/x\ln x", "2/(x*ln(x))", "2/(x*ln(x))", LN),
    (r"2/x \ln x", "2/(x*ln(x))", "2/(x*ln(x))", LN),
    (r"2/x\,\ln x", "2/(x*ln(x))", "2/(x*ln(x))", LN),
    (r"2/x\;\ln x", "2/(x*ln(x))", "2/(x*ln(x))", LN),
    (r"2/x\quad\ln x", "2/(x*ln(x))", "2/(x*ln(x))", LN),
    (r"2/x\ln(x)", "2/(x*ln(x))", "2/(x*ln(x))", LN),
    (r"2/x\ln{x}", "2/(x*ln(x))", "2/(x*ln(x))", LN),
    (r"2/x^2\ln x", "2/((x^2)*ln(x))", "2/((x^2)*ln(x))",
     _spaced("2", "x^2", "ln(x)", "(x^2)*ln(x)")),
    (r"2/x^{2}\ln x", "2/((x^2)*ln(x))", "2/((x^2)*ln(x))",
     _spaced("2", "x^2", "ln(x)", "(x^2)*ln(x)")),
    (r"2/x^{2} \ln x", "2/((x^2)*ln(x))", "2/((x^2)*ln(x))",
     _spaced("2", "x^2", "ln(x)", "(x^2)*ln(x)")),
    (r"1/2\sin x", "1/(2*sin(x))", "1/(2*sin(x))", _spaced("1", "2", "sin(x)", "2*sin(x)")),
    (r"1/2\,x", "1/(2*x)", "1/(2*x)", _spaced("1", "2", "x", "2*x")),     # TeX's thin space
    (r"1/x\sin2x", "1/(x*sin(2*x))", "1/(x*sin(2*x))",
     _spaced("1", "x", "sin(2*x)", "x*sin(2*x)")),
    # the first factor a function with its argument: said after that argument
    (r"2/\sin2x\cos x", "2/(sin(2*x)*cos(x))", "2/(sin(2*x)*cos(x))",
     _spaced("2", "sin(2*x)", "cos(x)", "sin(2*x)*cos(x)")),
    ("2/sin 2x cos x", "2/(sin(2*x)*cos(x))", "2/(sin(2*x)*cos(x))",
     _spaced("2", "sin(2*x)", "cos(x)", "sin(2*x)*cos(x)")),
    (r"2/\sin(x)\cos x", "2/(sin(x)*cos(x))", "2/(sin(x)*cos(x))",
     _spaced("2", "sin(x)", "cos(x)", "sin(x)*cos(x)")),
    (r"2/\pi\ln x", "2/(pi*ln(x))", "2/(pi*ln(x))", _spaced("2", "pi", "ln(x)", "pi*ln(x)")),
    (r"2/\pi x", "2/(pi*x)", "2/(pi*x)", _spaced("2", "pi", "x", "pi*x")),
    (r"1/x\operatorname{sech} x", "1/(x*sech(x))", "1/(x*sech(x))",
     _spaced("1", "x", "sech(x)", "x*sech(x)")),
]


@pytest.mark.parametrize("text, reading, explicit, caution", SAID, ids=[s[0] for s in SAID])
def test_a_function_command_after_the_divisor_is_said(text, reading, explicit, caution):
    f, g = adcli.parse(text), adcli.parse(explicit)
    assert (f.parsed, f.cautions) == (reading, [caution])
    assert f.value(x=X) == g.value(x=X) and f.grad(x=X) == g.grad(x=X)


def test_the_value_read_is_the_divisor_product():
    # 2/(x ln x) at x = 0.3, and its derivative -2 (ln x + 1)/(x ln x)^2, by hand
    f = adcli.parse(r"2/x\ln x")
    product = X * math.log(X)
    assert f.value(x=X) == pytest.approx(2 / product, rel=1e-14, abs=0)
    assert f.grad(x=X)["x"] == pytest.approx(-2 * (math.log(X) + 1) / product ** 2, rel=1e-13,
                                             abs=0)


@pytest.mark.parametrize("text", [r"2/x\alpha", r"1/2\pi", r"1/2\pi*x", r"\frac{2}{x}\ln x",
                                  r"2/(x\ln x)", r"2/x\cdot\ln x", r"2/x*\ln x", r"1/2x",
                                  r"2/x\left(x+1\right)", r"1/2\sqrt{x}"])
def test_no_caution_where_no_space_shows(text):
    assert adcli.parse(text).cautions == []


def test_the_cli_warns_of_it():
    code, out, err = run_cli("grad", r"2/x\ln x", "--at", "x=2", "--format", "plain")
    assert code == 0 and err == f"adcli: warning: {LN}\n"


def test_check_reads_the_expectation_as_the_caution_offers():
    # (ln x)^2' = 2 ln(x)/x, written 2/x\ln x: read as 2/(x ln x), which differs; read as
    # the caution offers, (2/x)*ln(x), it matches
    result = adcli.check("ln(x)^2", r"2/x\ln x", domain={"x": (1.0, 10.0)})
    assert result.verdict == "differs"
    assert result.diagnosis[0] == ("2/x ln(x) is read otherwise than it was likely meant (see "
                                   "the warning); as (2/x)*ln(x), the expectation matches")


@pytest.mark.parametrize("columns", [40, 80, 120])
def test_the_caution_on_a_terminal(columns):
    code, rows = adcli_on_terminal(columns, "grad", r"2/x\ln x", "--at", "x=2")
    read = next(i for i, row in enumerate(rows) if row.startswith("read as: "))
    assert code == 0 and rows[read] == "read as: 2/(x*ln(x))"
    assert words(rows[:read]) == ["adcli:", "warning:", *LN.split()]


@pytest.mark.parametrize("expected", ["1/sin x cos x", r"1/\sin x\cos x", r"1/\sin x \cos x",
                                      r"1/\sin{x}\cos x", r"1/\sin x \, \cos x"])
def test_check_reads_a_function_first_divisor_as_the_caution_offers(expected):
    # ln(sin x)' = cos(x)/sin(x), written 1/sin x cos x: read as 1/(sin x cos x); the
    # reading the caution offers, (1/sin(x))*cos(x), must be one that parses (the '*'
    # goes after sin's argument, not after its name: 1/sin* x cos x is no expression)
    result = adcli.check("ln(sin(x))", expected, domain={"x": (0.1, 1.5)})
    assert result.verdict == "differs"
    assert result.diagnosis[0] == ("1/sin(x) cos(x) is read otherwise than it was likely meant "
                                   "(see the warning); as (1/sin(x))*cos(x), the expectation "
                                   "matches")
