"""TeX takes ONE token after a command's ^ or _, and after \\sqrt[n]: read as TeX reads it.

\\sin^22x is \\sin^2 then 2x, sin(2x)^2 (not sin(x)^22); \\log_28x is \\log_2 then 8x,
log_2(8x); \\sqrt[3]8x is \\sqrt[3]{8} then x. Plain text without a backslash (sin^22x,
x^22, log_28x) keeps its readings. A spelling TeX reads as nonsense (\\log_10x: \\log_1, then
0x) is refused with the braces to write.

Every value and derivative is a closed form from the math module, and each reading is
compared with the expression written out with '*' and parentheses.
"""
from __future__ import annotations

import math

import pytest

import adcli
from conftest import adcli_on_terminal, assert_one_line_error, run_cli, words

X, Y = 0.3, 0.7

# written, written out, value, d/dx (and d/dy), at x = 0.3, y = 0.7
READINGS = [
    (r"\sin^22x", "sin(2*x)^2", math.sin(0.6) ** 2, {"x": 4 * math.sin(0.6) * math.cos(0.6)}),
    (r"\sin^2 2x", "sin(2*x)^2", math.sin(0.6) ** 2, {"x": 4 * math.sin(0.6) * math.cos(0.6)}),
    (r"\cos^23x", "cos(3*x)^2", math.cos(0.9) ** 2,
     {"x": -6 * math.cos(0.9) * math.sin(0.9)}),
    (r"\ln^22x", "ln(2*x)^2", math.log(0.6) ** 2, {"x": 2 * math.log(0.6) / X}),
    (r"\sin^2x", "sin(x)^2", math.sin(X) ** 2, {"x": 2 * math.sin(X) * math.cos(X)}),
    (r"\sin ^22x", "sin(2*x)^2", math.sin(0.6) ** 2, {"x": 4 * math.sin(0.6) * math.cos(0.6)}),
    (r"\sin^-1x", "asin(x)", math.asin(X), {"x": 1 / math.sqrt(1 - X * X)}),
    (r"\log_28x", "log(8*x)/log(2)", math.log2(2.4), {"x": 1 / (X * math.log(2))}),
    (r"\log_2 8x", "log(8*x)/log(2)", math.log2(2.4), {"x": 1 / (X * math.log(2))}),
    (r"\log_{2}8x", "log(8*x)/log(2)", math.log2(2.4), {"x": 1 / (X * math.log(2))}),
    (r"\log_{10}100x", "log(100*x)/log(10)", math.log10(30), {"x": 1 / (X * math.log(10))}),
    (r"\theta_1x", "theta_1*x", None, None),
    (r"\sqrt[3]8x", "8^(1/3)*x", 2 * X, {"x": 2.0}),
    (r"\sqrt[3]x y", "x^(1/3)*y", X ** (1 / 3) * Y,
     {"x": Y / (3 * X ** (2 / 3)), "y": X ** (1 / 3)}),
    (r"\sqrt[4]2x", "2^(1/4)*x", 2 ** 0.25 * X, {"x": 2 ** 0.25}),
    (r"\sqrt[4]{x}", "x^(1/4)", X ** 0.25, {"x": 0.25 * X ** -0.75}),
    (r"\sqrt[3]{8}x", "8^(1/3)*x", 2 * X, {"x": 2.0}),
    (r"\sqrt[3]{x}^2", "(x^(1/3))^2", X ** (2 / 3), {"x": 2 / (3 * X ** (1 / 3))}),
    (r"\sqrt[3]x^2", "(x^(1/3))^2", X ** (2 / 3), {"x": 2 / (3 * X ** (1 / 3))}),
    (r"\sqrt[3]\pi x", "pi^(1/3)*x", math.pi ** (1 / 3) * X, {"x": math.pi ** (1 / 3)}),
    (r"\operatorname{sech}^22x", "(1/cosh(2*x))^2", 1 / math.cosh(0.6) ** 2,
     {"x": -4 * math.tanh(0.6) / math.cosh(0.6) ** 2}),
    (r"\frac12\sin^22x", "(1/2)*(sin(2*x)^2)", math.sin(0.6) ** 2 / 2,
     {"x": 2 * math.sin(0.6) * math.cos(0.6)}),
]


@pytest.mark.parametrize("written, explicit, value, gradient",
                         [r for r in READINGS if r[2] is not None], ids=lambda v: str(v))
def test_one_token_as_tex_reads_it(written, explicit, value, gradient):
    f, g = adcli.parse(written), adcli.parse(explicit)
    assert f.cautions == []
    at = {"x": X, "y": Y}
    at = {v: at[v] for v in f.variables}
    assert sorted(f.variables) == sorted(g.variables) == sorted(gradient)
    assert f.value(**at) == pytest.approx(g.value(**at), rel=1e-15, abs=0)
    assert f.value(**at) == pytest.approx(value, rel=1e-14, abs=0)
    for name, derivative in gradient.items():
        assert f.grad(**at)[name] == pytest.approx(g.grad(**at)[name], rel=1e-14, abs=0)
        assert f.grad(**at)[name] == pytest.approx(derivative, rel=1e-13, abs=0)


@pytest.mark.parametrize("written, reading", [
    (r"\sin^22x", "sin(2*x)^2"),
    (r"\log_28x", "log2(8*x)"),
    (r"\sqrt[3]8x", "cbrt(8)*x"),
    (r"\sqrt[3]x y", "cbrt(x)*y"),
    (r"\sqrt[3]{x}^2", "cbrt(x)^2"),      # as \sqrt{x}^2 is (√x)^2: the power on the root
    (r"\sqrt[4]2x", "(2^(1/4))*x"),
])
def test_the_reading_shown(written, reading):
    assert adcli.parse(written).parsed == reading


def test_a_subscript_one_token_after_a_greek_letter():
    f = adcli.parse(r"\theta_1x")
    assert f.parsed == "θ_1*x" and sorted(f.variables) == ["x", "θ_1"]
    assert f.value(x=X, θ_1=2.0) == pytest.approx(2 * X, rel=1e-15, abs=0)


@pytest.mark.parametrize("written, reading", [
    # plain text without a backslash: as before
    ("sin^22x", "sin(x)^22"),
    ("x^22", "x^22"),
    ("log_28 x", "log(x)/log(28)"),
    (r"\sin x^22", "sin(x^22)"),
    ("∛8x", "cbrt(8*x)"),
    # braces, or a space, as before
    (r"\sin^{22}x", "sin(x)^22"),
    (r"\alpha_{12} x", "α_12*x"),
    (r"\log_{10} x", "log10(x)"),
])
def test_plain_text_keeps_its_readings(written, reading):
    assert adcli.parse(written).parsed == reading


def test_a_long_text_reads_the_same():
    # past lalr.BULK characters the text is cut in one pass: still one token after ^
    text = " + ".join([r"\sin^22x", r"\sqrt[3]8x", r"\log_28x"] * 300)
    assert len(text) > 4096
    f = adcli.parse(text)
    assert f.value(x=X) == pytest.approx(300 * (math.sin(0.6) ** 2 + 2 * X + math.log2(2.4)),
                                         rel=1e-12)


def test_the_cli_reads_sin_22x():
    code, out, err = run_cli("grad", r"\sin^22x", "--at", "x=0.3", "--format", "plain")
    value, derivative = map(float, out.split())
    assert (code, err) == (0, "")
    assert value == pytest.approx(math.sin(0.6) ** 2, rel=1e-15, abs=0)
    assert derivative == pytest.approx(4 * math.sin(0.6) * math.cos(0.6), rel=1e-14, abs=0)


ONE_TOKEN = "TeX takes one token as a subscript"
SUBSCRIPT_OF = ("is a subscript of what comes before it, not a name (TeX takes one token "
                "after \\sqrt and '^'): write it with its name in braces, as in \\sqrt{x_1}, "
                "or before the power, as in \\log_2^2 x")
NUMBER_FIRST = "a number can only come first in a product written without '*': write "


def power_22(head: str, after: str) -> str:
    """The refusal of head^22 followed by ``after``: TeX's superscript is the 2 alone."""
    return (NUMBER_FIRST + f"{head}^2*2{after} (TeX takes one token as a superscript, so "
            f"{head}^22 is {head}^2 then 2; for the power 22, write {head}^{{22}})")


@pytest.mark.parametrize("text, message, column", [
    (r"\log_10x", ONE_TOKEN + r", so \log_10 is \log_1 then 0, a logarithm to base 1: "
                              r"for base 10, write \log_{10}", 0),
    (r"\log_10(x)", ONE_TOKEN + r", so \log_10 is \log_1 then 0, a logarithm to base 1: "
                                r"for base 10, write \log_{10}", 0),
    (r"\log_1 0x", ONE_TOKEN + r", so \log_1 0 is \log_1 then 0, a logarithm to base 1: "
                    r"for base 10, write \log_{10}", 0),
    (r"\log_16 x", ONE_TOKEN + r", so \log_16 is \log_1 then 6, a logarithm to base 1: "
                               r"for base 16, write \log_{16}", 0),
    (r"\alpha_12", "a number can only come first in a product written without '*': "
                   r"write \alpha_1*2 (" + ONE_TOKEN + r", so \alpha_12 is \alpha_1 then 2; "
                   r"for a subscript, write \alpha_{12})", 8),
    (r"\sin_2x", r"LaTeX's \sin_2 is not read here: write the expression itself "
                 r"(\frac{a}{b}, \sqrt{x}, \cdot, \sin and the Greek letters are read)", 0),
    (r"\alpha^22", power_22(r"\alpha", ""), 8),
    # The old font switch and \mathrm without braces are command words too (a power of 22
    # was read before, silently).
    (r"{\rm e}^22x", power_22(r"{\rm e}", "x"), 9),
    (r"\mathrm e^22x", power_22(r"\mathrm e", "x"), 11),
    (r"\sqrt[3]27", NUMBER_FIRST + r"\sqrt[3]2*7 (TeX takes one token after \sqrt[3], so "
                    r"\sqrt[3]27 is \sqrt[3]2 then 7; write \sqrt[3]{27})", 9),
    (r"\sqrt[3]-x", "unexpected '-'; TeX takes one token here, a digit, a letter or a "
                    r"command: put what is meant in braces, as in \sqrt[3]{-x}", 8),
    (r"\sqrt[3]|x|", "unexpected '|'; TeX takes one token here, a digit, a letter or a "
                     r"command: put what is meant in braces, as in \sqrt[3]{|x|}", 8),
    (r"\sqrt[3]\sin x", r"TeX takes one token after \sqrt[3], so \sin alone, a function "
                        r"without its argument: write \sqrt[3]{\sin x}", 8),
    (r"\sqrt[3]x_1", "'_1' " + SUBSCRIPT_OF, 9),
    (r"\sqrt x_1", "'_1' " + SUBSCRIPT_OF, 7),
    (r"\sin^2_2x", "'_2' " + SUBSCRIPT_OF, 6),
])
def test_refused_with_the_braces_to_write(text, message, column):
    run = run_cli("grad", text, "--at", "x=1", "--format", "plain")
    assert_one_line_error(run, text, message, column)


@pytest.mark.parametrize("columns", [40, 80, 120])
def test_the_refusal_on_a_terminal(columns):
    code, rows = adcli_on_terminal(columns, "grad", r"\log_10x", "--at", "x=1")
    message = (ONE_TOKEN + r", so \log_10 is \log_1 then 0, a logarithm to base 1: for base "
               r"10, write \log_{10} (column 1)")
    assert code == 2
    assert rows[-2:] == ["  \\log_10x", "  ^"]
    assert words(rows[:-2]) == ["adcli:", "error:", *message.split()]


NO_BASE = "there is no logarithm to base {0} (it would divide by log {0} = {1}): a base is " \
    "positive and not 1"


@pytest.mark.parametrize("text, base, column", [
    ("log_1 x", 1, 0), (r"\log_1 x", 1, 0), ("log_{1} x", 1, 0), ("log(x, 1)", 1, 7),
    ("log_0 x", 0, 0), ("log(x,0)", 0, 6), ("2 + log(x, 1.0)", 1, 11),
])
def test_a_logarithm_to_base_0_or_1_is_refused(text, base, column):
    """log_1 x divided by log 1 = 0 (inf, with a warning about '/'), log_0 x by -inf (-0,
    silently): a base written as 0 or 1 is a typo."""
    run = run_cli("grad", text, "--at", "x=2", "--format", "plain")
    assert_one_line_error(run, text, NO_BASE.format(base, "0" if base else "-inf"), column)


def test_a_base_that_is_1_only_at_the_point_is_computed():
    code, out, err = run_cli("grad", "log(x, b)", "--at", "x=2,b=1", "--format", "plain")
    assert code == 0 and out.split()[0] == "inf"
    assert "'/' gave nan or inf" in err
