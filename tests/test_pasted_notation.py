"""Maths as students paste it from LaTeX notes: TeX's math delimiters around a whole
expression, expectation or definition; check's left sides in LaTeX's prime notation
(f^{\\prime}(x), f^{(4)}(x), f^{(iv)}(x)) and d/dx applied to the name of the function
(d/dx f, \\frac{d^2}{dx^2} y); and log_b x with a name as the base.

Expected values are worked out by hand (noted beside each), with mpmath or central finite
differences where a derivative is involved; the orders of the prime notations are read off
their Roman numerals and primes by hand. Errors are run through the CLI (exit 2, one line,
a caret), and on a pseudo-terminal 40, 60 and 80 columns wide for what a user sees."""
from __future__ import annotations

import math
import re

import mpmath
import pytest

import adcli
from adcli.errors import ExpressionError
from conftest import (grad_at_2, run_cli, strict_json,
                      adcli_on_terminal, assert_one_line_error, words, verdict_rows)

WIDTHS = [40, 60, 80]


# ----- 1. TeX's math delimiters around the whole text ---------------------------------------

# x^2 sin x in every way of delimiting it; read as (x^2)*sin(x) by the rules of the README
WRAPPED = ["$x^2 \\sin x$", "$$x^2 \\sin x$$", "\\(x^2 \\sin x\\)", "\\[x^2 \\sin x\\]",
           "  $ x^2 \\sin x $  ", "\\[ x^2 \\sin x \\]", "$x^2 \\sin x$.", "$$x^2 \\sin x$$,",
           "\\[x^2 \\sin x\\] .", "\\(x^2 \\sin x\\),"]


@pytest.mark.parametrize("text", WRAPPED)
def test_math_delimiters_around_the_whole_expression_are_dropped(text):
    f = adcli.parse(text)
    assert f.parsed == "(x^2)*sin(x)"
    assert float(f.value(x=0.7)) == pytest.approx(0.49 * math.sin(0.7), rel=1e-15, abs=0)


def test_a_number_right_after_the_opening_dollar_keeps_its_point():
    # $.5x$ is 0.5x: the "$." of prose's full stop is read after a closing delimiter only
    assert float(adcli.parse("$.5x$").value(x=3.0)) == 1.5
    assert float(adcli.parse("$.5x$.").value(x=3.0)) == 1.5


def test_a_long_expression_in_delimiters_is_read_whole():
    # (long texts are cut into tokens in one pass: the delimiters must be cut the same way)
    text = "$" + "+".join(["x"] * 3000) + "$."
    assert float(adcli.parse(text).value(x=0.5)) == 1500.0


def test_grad_reads_a_delimited_expression():
    assert grad_at_2("\\(x^3\\)") == (8.0, 12.0)     # x^3, 3x^2 at 2


def test_a_definition_in_delimiters():
    code, out, err = run_cli("eval", "F + 1", "--let", "F=$x^2$", "--at", "x=3",
                             "--format", "plain")
    assert (code, out, err) == (0, "10.0\n", "")                        # 3^2 + 1


@pytest.mark.parametrize("expected", ["$4x^3$", "\\[4x^3\\]", "$f'(x) = 4x^3$",
                                      "$$f'(x) = 4x^3$$.", "\\(\\frac{d}{dx} x^4 = 4x^3\\)"])
def test_check_reads_a_delimited_expectation(expected):
    code, out, err = run_cli("check", "$x^4$", expected, "--format", "json")
    assert code == 0, err
    assert strict_json(out)["verdict"] == "matches"


def test_check_reads_a_delimited_equation_given_alone():
    code, out, err = run_cli("check", "$d/dx (x^2) = 2x$", "--format", "json")
    assert code == 0, err
    assert strict_json(out)["parsed"] == "x^2"


def test_a_wrong_delimited_expectation_still_differs():
    code, out, _ = run_cli("check", "x^4", "$4x^2$", "--format", "json")
    assert code == 1 and strict_json(out)["verdict"] != "matches"


# A syntax error inside the delimiters: the caret under the column of the text as typed
CARETS = [("$x^2 + )$", ")"), ("\\[ sin(x)) \\]", ") \\]"), ("$$ 2 3 x $$", "3 x")]


@pytest.mark.parametrize("text, culprit", CARETS)
def test_a_later_error_points_at_the_column_typed(text, culprit):
    with pytest.raises(ExpressionError) as info:
        adcli.parse(text)
    assert info.value.position == text.index(culprit)


# (text, words of the message, the column of the caret's character, counted from 0)
STRAY = [
    ("$x^2", "'$' opens TeX's math and nothing closes it", 0),
    ("\\(x^2", "'\\(' opens TeX's math and nothing closes it", 0),
    ("x$^2$", "unexpected character '$': TeX's math delimiters go around the whole "
              "expression only", 1),
    ("x^2$", "unexpected character '$': TeX's math delimiters go around the whole "
             "expression only", 3),
    ("x^2\\]", "unexpected '\\]'", 3),
    ("\\)x\\(", "unexpected '\\)'", 0),
    ("$x^2\\)", "'\\)' does not close the '$' that opens the expression: end it with '$'", 4),
    ("$$x^2$", "'$' does not close the '$$' that opens the expression", 5),
    ("$x$ $y$", "unexpected character '$'", 2),
    ("$x^2$;", "unexpected character '$'", 4),       # only a full stop or a comma after it
    ("$ $", "the expression between '$' and '$' is empty", 0),
]


@pytest.mark.parametrize("text, fragment, column", STRAY, ids=[t for t, _, _ in STRAY])
def test_a_stray_or_unpaired_delimiter_is_one_line_with_a_caret(text, fragment, column):
    assert_one_line_error(run_cli("eval", text, "--at", "x=1,y=1"), text, fragment, column)


def test_a_stray_delimiter_in_an_expectation_says_it_is_the_expectation():
    code, _, err = run_cli("check", "x^4", "$f'(x) = 4x^3")
    assert code == 2
    assert err.startswith("adcli: error: the expectation: '$' opens TeX's math and nothing "
                          "closes it")
    assert err.endswith("(column 1)\n  $f'(x) = 4x^3\n  ^\n")


def test_a_stray_delimiter_in_a_definition_names_it():
    code, _, err = run_cli("eval", "F", "--let", "F=x$^2", "--at", "x=1")
    assert code == 2 and ("in the definition of F: unexpected character '$': TeX's math "
                          "delimiters go around the whole expression only") in err


# ----- 2. check's left sides in LaTeX's prime notation -----------------------------------

# F = x^4: its derivatives by hand, 4x^3, 12x^2, 24x, 24, 0 (orders 1 to 5)
DERIVATIVES = {1: "4x^3", 2: "12x^2", 3: "24x", 4: "24", 5: "0"}
# (left side, the order it names, read off by hand)
PRIMED = [
    ("f^{\\prime}(x)", 1), ("f^\\prime(x)", 1), ("f^{\\prime\\prime}(x)", 2),
    ("y^{\\prime\\prime\\prime}", 3), ("f^{ \\prime \\prime }(x)", 2), ("f^{''}(x)", 2),
    ("f^{'}", 1), ("f^{(4)}(x)", 4), ("y^{(4)}", 4), ("f^(4)(x)", 4), ("f^{(iv)}(x)", 4),
    ("f^{iv}", 4), ("y^{v}", 5), ("f^{(ii)}(x)", 2), ("f^{(i)}(x)", 1), ("f^{(IV)}(x)", 4),
    ("(x^4)^{\\prime}", 1), ("(x^4)^{(3)}", 3),
    ("f\u2032(x)", 1), ("f\u2033(x)", 2), ("f\u2034(x)", 3),
    # d/dx applied to the name of the function, as f'(x) names it
    ("d/dx f", 1), ("d^2/dx^2 f", 2), ("d/dx y", 1), ("d/dx f(x)", 1),
    ("\\frac{d}{dx} f", 1), ("\\frac{d^2}{dx^2} y", 2), ("\\frac{d^3}{dx^3} f(x)", 3),
]
IDS = [left for left, _ in PRIMED]


@pytest.mark.parametrize("left, order", PRIMED, ids=IDS)
def test_a_left_side_sets_the_order_checked(left, order):
    code, out, err = run_cli("check", "x^4", f"{left} = {DERIVATIVES[order]}",
                             "--format", "json")
    assert code == 0, err
    result = strict_json(out)
    assert (result["order"], result["verdict"]) == (order, "matches")


@pytest.mark.parametrize("left, order", PRIMED, ids=IDS)
def test_the_order_it_names_is_checked(left, order):
    # the derivative one order lower is not it: the order is really the one checked
    lower = DERIVATIVES[order - 1] if order > 1 else "x^4"
    code, out, _ = run_cli("check", "x^4", f"{left} = {lower}", "--format", "json")
    assert code == 1 and strict_json(out)["verdict"] != "matches"


@pytest.mark.parametrize("left, order", PRIMED, ids=IDS)
def test_the_order_must_agree_with_order_given(left, order):
    code, _, err = run_cli("check", "x^4", f"{left} = {DERIVATIVES[order]}",
                           "--order", str(order))
    assert code == 0, err
    other = order + 1
    code, out, err = run_cli("check", "x^4", f"{left} = {DERIVATIVES[order]}",
                             "--order", str(other))
    assert (code, out) == (2, "")
    assert err == (f"adcli: error: the expectation's left side, {left}, is a derivative of "
                   f"order {order}, and this checks order {other}: use --order {order} "
                   "(order= in the API)\n")


@pytest.mark.parametrize("left", ["f^{x}", "f^{i}(x)", "f^{(iiii)}(x)", "f^{(2x)}(x)"])
def test_a_superscript_that_is_no_order_is_not_read_as_one(left):
    code, _, err = run_cli("check", "x^4", f"{left} = 0")
    assert code == 2
    assert err.startswith(f"adcli: error: the expectation's left side, {left}, is not read "
                          "as a derivative")


def test_d_dx_of_the_variable_itself_is_applied_to_it():
    # d/dx x differentiates x, not the function named x: for F = x^4 that is another function
    code, _, err = run_cli("check", "x^4", "d/dx x = 1")
    assert code == 2 and "differentiates x, not x^4" in err
    code, _, err = run_cli("check", "x", "d/dx x = 1")
    assert code == 0, err


def test_d_dx_of_a_name_alone_says_of_what_it_is_not():
    code, _, err = run_cli("check", "d/dx f = 2x")
    assert code == 2 and err.startswith("adcli: error: d/dx f does not say of what")


# ----- 3. log_b x with a name as the base -------------------------------------------------

LOG_B = ["log_b x", "\\log_b x", "log_{b} x", "log_b(x)", "\\log_{b}(x)", "\\log_b{x}"]


@pytest.mark.parametrize("text", LOG_B)
def test_log_b_is_the_logarithm_to_base_b(text):
    f = adcli.parse(text)
    assert f.parsed == "log(x)/log(b)"
    assert float(f.value(x=8.0, b=2.0)) == pytest.approx(3.0, rel=1e-15, abs=0)     # 2^3 = 8
    assert float(f.value(x=0.01, b=10.0)) == pytest.approx(-2.0, rel=1e-15, abs=0)


@pytest.mark.parametrize("x, b", [(8.0, 2.0), (0.3, 5.0), (100.0, 0.5), (2.5, 1.5)])
def test_log_b_is_differentiable_in_both(x, b):
    mp = mpmath.mp
    mp.dps = 40
    reference = lambda u, v: mpmath.log(u) / mpmath.log(v)   # noqa: E731
    d_x = mpmath.diff(lambda u: reference(u, b), x)
    d_b = mpmath.diff(lambda v: reference(x, v), b)
    gradient = adcli.parse("log_b x").grad(x=x, b=b)
    assert float(gradient["x"]) == pytest.approx(float(d_x), rel=1e-13, abs=0)
    assert float(gradient["b"]) == pytest.approx(float(d_b), rel=1e-13, abs=0)
    # and by hand: 1/(x ln b), -ln x/(b ln² b)
    assert float(gradient["b"]) == pytest.approx(-math.log(x) / (b * math.log(b) ** 2),
                                                 rel=1e-13, abs=0)


def test_check_of_log_b_in_its_base():
    code, out, err = run_cli("check", "log_b x", "--expect", "x=1/(x ln b)",
                             "--expect", "b=-ln x/(b (ln b)^2)", "--domain", "x=0.1:10",
                             "--domain", "b=1.5:9", "--format", "json")
    assert code == 0, err
    assert strict_json(out)["verdict"] == "matches"


def test_eval_log_b_through_the_cli():
    code, out, err = run_cli("eval", "log_b x", "--at", "x=8,b=2", "--format", "plain")
    assert (code, out, err) == (0, "3.0\n", "")


@pytest.mark.parametrize("text, at, expected", [
    ("log_pi x", {"x": math.pi ** 2}, 2.0),             # a constant as the base
    ("2 log_b x + 1", {"x": 9.0, "b": 3.0}, 5.0),       # 2 log_3 9 + 1
    ("log_b x y", {"x": 3.0, "y": 9.0, "b": 3.0}, 3.0),  # log_3 (3*9): the argument runs on
])
def test_log_b_among_other_factors(text, at, expected):
    assert float(adcli.parse(text).value(**at)) == pytest.approx(expected, rel=1e-15, abs=0)


@pytest.mark.parametrize("text, variables, value", [
    ("log_b", ("log_b",), 5.0),                 # no argument: the subscripted name, as a_b
    ("log_b + x", ("log_b", "x"), 5.0 + 1.0),
    ("2 log_b", ("log_b",), 10.0),
    ("log_b^2", ("log_b",), 25.0),
    ("log_x", ("log_x",), 5.0),
])
def test_log_b_without_an_argument_is_a_subscripted_name(text, variables, value):
    f = adcli.parse(text)
    assert f.variables == variables
    at = {name: 5.0 for name in variables if name.startswith("log")}
    assert float(f.value(**at, **({"x": 1.0} if "x" in variables else {}))) == value


def test_a_function_as_the_base_is_refused():
    code, _, err = run_cli("eval", "log_sin x", "--at", "x=1")
    assert code == 2
    assert err.startswith("adcli: error: the base of log_sin is the function sin")
    assert err.endswith("(column 5)\n  log_sin x\n      ^\n")


def test_a_definition_as_the_base():
    code, out, err = run_cli("eval", "log_B x", "--let", "B=2*y", "--at", "x=16,y=1",
                             "--format", "plain")
    assert (code, out, err) == (0, "4.0\n", "")                       # log_2 16


# ----- 4. what a user sees on a terminal --------------------------------------------------


@pytest.mark.parametrize("columns", WIDTHS)
def test_a_stray_delimiter_on_a_terminal(columns):
    code, rows = adcli_on_terminal(columns, "eval", "x$^2$", "--at", "x=1")
    assert code == 2
    # the message folded between words, then the expression and the caret under the '$'
    assert words(rows[:-2]) == (
        "adcli: error: unexpected character '$': TeX's math delimiters go around the whole "
        "expression only, as in $x^2$ (column 2)").split()
    assert rows[-2:] == ["  x$^2$", "   ^"]


@pytest.mark.parametrize("columns", WIDTHS)
def test_a_pasted_expectation_on_a_terminal(columns):
    code, rows = adcli_on_terminal(columns, "check", "x^4", "$f^{(iv)}(x) = 24$.")
    assert code == 0, rows
    assert verdict_rows(rows) == (
        ["read as: x^4", "expected d⁴/dx⁴: 24"],
        "matches d⁴/dx⁴ at 30/30 points, largest relative difference 0".split())


@pytest.mark.parametrize("columns", WIDTHS)
def test_log_b_on_a_terminal(columns):
    code, rows = adcli_on_terminal(columns, "grad", "log_b x", "--at", "x=8,b=2")
    assert code == 0, rows
    assert rows[0] == "read as: log(x)/log(b)"
    # x, b, f = 3, ∂f/∂x = 1/(8 ln 2), ∂f/∂b = -3/(2 ln 2): by hand, in the table's order
    numbers = [float(n) for n in re.findall(r"-?\d+\.\d+(?:e-?\d+)?", "\n".join(rows[1:]))]
    assert numbers == pytest.approx([8.0, 2.0, 3.0, 1 / (8 * math.log(2)),
                                     -3 / (2 * math.log(2))], rel=1e-15, abs=0)


# display maths ending a sentence: the full stop (or comma) just inside the delimiters
@pytest.mark.parametrize("text", ["$$x^2 \\sin x.$$", "$x^2 \\sin x,$", "\\[ x^2 \\sin x . \\]",
                                  "\\(x^2 \\sin x,\\)"])
def test_a_full_stop_inside_the_delimiters_is_prose(text):
    f = adcli.parse(text)
    assert f.parsed == "(x^2)*sin(x)"
    assert float(f.value(x=0.7)) == pytest.approx(0.49 * math.sin(0.7), rel=1e-15, abs=0)


def test_check_reads_an_equation_ending_a_sentence_in_display_maths():
    # (x^2 sin x)' = 2x sin x + x^2 cos x, by the product rule
    code, out, err = run_cli("check", "x^2 \\sin x",
                             "$$f'(x) = 2x\\sin x + x^2\\cos x.$$", "--format", "json")
    assert code == 0, err
    assert strict_json(out)["verdict"] == "matches"
