"""The expression language (README, "The expression language"), at the library level.

Every expected reading below was worked out by hand from the README's precedence rules:

    loosest  + -          (binary, left-associative)
             * /          (left-associative)
             unary - +    (so -x^2 is -(x^2), but -a*b is (-a)*b)
             side by side (factors written next to each other multiply; 1/2x = 1/(2*x))
    tightest ^ **         (right-associative; the exponent may carry a sign)

(tests/test_reading.py has the rules for factors side by side and functions without
parentheses, from the README's table.)

and the `.parsed` notation: every compound operand is parenthesised, `+`/`-` are written
with spaces, `*`, `/`, `^` without, a unary minus as `-x`, integral numbers without ".0".
"""
import math

import numpy as np
import pytest

import adcli
from adcli.errors import ExpressionError


# ----- how expressions are read -------------------------------------------------------

READINGS = [
    # unary minus binds looser than power
    ("-x^2", "-(x^2)"),
    ("-2^2", "-(2^2)"),
    ("-a^-b", "-(a^(-b))"),
    # ... but tighter than * and /
    ("-a*b", "(-a)*b"),
    # power is right-associative, with ^ and ** alike
    ("x^y^z", "x^(y^z)"),
    ("x**y**z", "x^(y^z)"),
    ("x**2", "x^2"),
    ("x^2", "x^2"),
    # an exponent may carry a sign
    ("2^-x", "2^(-x)"),
    ("2^-x^2", "2^(-(x^2))"),
    ("2^x^-1", "2^(x^(-1))"),
    # implicit multiplication: a number in front ...
    ("2x", "2*x"),
    ("2x^2", "2*(x^2)"),
    ("2.5x", "2.5*x"),
    ("2x1", "2*x1"),
    ("3(x+1)", "3*(x + 1)"),
    ("2 sin(x)", "2*sin(x)"),
    ("2sin(x)^2", "2*(sin(x)^2)"),
    ("2pi", "2*pi"),
    ("2 pi", "2*pi"),
    # ... or a parenthesised factor behind, left-associative
    ("(x+1)(x-1)", "(x + 1)*(x - 1)"),
    ("2(x+1)(x-1)", "(2*(x + 1))*(x - 1)"),
    ("2(x+1)^2", "2*((x + 1)^2)"),
    ("sin(x)(y)", "sin(x)*y"),
    # implicit multiplication binds tighter than "/" (the README's bold rule)
    ("1/2x", "1/(2*x)"),
    ("1/2 x", "1/(2*x)"),
    ("1/2(x+1)", "1/(2*(x + 1))"),
    ("x/2y", "x/(2*y)"),
    ("1/2pi", "1/(2*pi)"),
    # ... and tighter than unary minus
    ("-2x", "-(2*x)"),
    # the README's advice for the other reading of 1/2x
    ("x/2", "x/2"),
    ("(1/2)x", "(1/2)*x"),
    # + - and * / are left-associative; * binds tighter than -
    ("a-b-c", "(a - b) - c"),
    ("a/b/c", "(a/b)/c"),
    ("a*b/c", "(a*b)/c"),
    ("a/b*c", "(a/b)*c"),
    ("a-b*c", "a - (b*c)"),
    ("a+b*c^d", "a + (b*(c^d))"),
    # unary signs
    ("+x", "x"),
    ("+x^2", "x^2"),
    ("x*-y", "x*(-y)"),
    ("a - -b", "a - (-b)"),
    ("-(a+b)", "-(a + b)"),
    # copy-pasted maths: Unicode minus, times, dots, division sign
    ("a − b", "a - b"),
    ("−x", "-x"),
    ("x-−y", "x - (-y)"),
    ("a×b", "a*b"),
    ("a·b", "a*b"),
    ("a⋅b", "a*b"),
    ("a÷b", "a/b"),
    ("6÷2x", "6/(2*x)"),
    # names
    ("x1", "x1"),
    ("xy", "xy"),
    ("x_2", "x_2"),
    ("θ", "θ"),
    ("theta", "theta"),
    ("x1+xy", "x1 + xy"),
    # constants
    ("pi", "pi"),
    ("e", "e"),
    ("pi+e", "pi + e"),
    ("e^x", "e^x"),
    # redundant parentheses and whitespace
    ("(a)", "a"),
    ("((a))", "a"),
    ("sin (x)", "sin(x)"),
    ("sin( x )", "sin(x)"),
    ("atan2(y,x)", "atan2(y, x)"),
    ("x^(y+1)", "x^(y + 1)"),
    ("(x+1)^2", "(x + 1)^2"),
    # errors before issue 10, products now: a variable is never a function
    ("x y", "x*y"),
    ("sin(x)y", "sin(x)*y"),
    ("x(1)", "x*1"),
    ("x(y+1)", "x*(y + 1)"),
    ("2 + θ(1)", "2 + (θ*1)"),
    ("pi(2)", "pi*2"),
    ("e(x+1)", "e*(x + 1)"),
    ("log(x, 2)", "log(x)/log(2)"),
]


@pytest.mark.parametrize("text, reading", READINGS, ids=[t for t, _ in READINGS])
def test_reading(text, reading):
    assert adcli.parse(text).parsed == reading


def test_ln_is_an_alias_of_log():
    f, g = adcli.parse("ln(x)"), adcli.parse("log(x)")
    assert f.parsed == "ln(x)"  # read as written: the alias, not the canonical name
    assert f.variables == ("x",)
    for x in (0.5, math.e, 10.0):
        assert float(f.value(x=x)) == float(g.value(x=x))
        assert float(f.grad(x=x)["x"]) == float(g.grad(x=x)["x"])
    assert float(f.value(x=math.e)) == pytest.approx(1.0, rel=1e-15, abs=0)


VARIABLES = [
    # first appearance, each once; constants and function names are not variables
    ("y*x + x*z", ("y", "x", "z")),
    ("b + a*b", ("b", "a")),
    ("x1 + xy + x_2 + θ", ("x1", "xy", "x_2", "θ")),
    ("sin(x) + pi*e", ("x",)),
    ("2pi + e^2", ()),
    ("atan2(y, x)", ("y", "x")),
]


@pytest.mark.parametrize("text, names", VARIABLES, ids=[t for t, _ in VARIABLES])
def test_variables_in_order_of_first_appearance(text, names):
    assert adcli.parse(text).variables == names


# ----- values, not just readings --------------------------------------------------------

VALUES = [
    # text, point, value worked out by hand
    ("2^3^2", {}, 512.0),                        # 2^(3^2) = 2^9, not (2^3)^2 = 64
    ("-2^2", {}, -4.0),                          # -(2^2)
    ("(-2)^2", {}, 4.0),
    ("2^-1", {}, 0.5),
    ("1/2x", {"x": 4.0}, 0.125),                 # 1/(2*4), not (1/2)*4 = 2
    ("2x^2", {"x": 3.0}, 18.0),                  # 2*9, not (2*3)^2 = 36
    ("-x^2", {"x": 3.0}, -9.0),
    ("a-b-c", {"a": 1.0, "b": 2.0, "c": 3.0}, -4.0),   # (1-2)-3, not 1-(2-3) = 2
    ("a/b/c", {"a": 8.0, "b": 4.0, "c": 2.0}, 1.0),    # (8/4)/2, not 8/(4/2) = 4
    ("x^y^z", {"x": 2.0, "y": 3.0, "z": 2.0}, 512.0),
    ("x**y**z", {"x": 2.0, "y": 3.0, "z": 2.0}, 512.0),
    ("(x+1)(x-1)", {"x": 3.0}, 8.0),
    ("2(x+1)(x-1)", {"x": 3.0}, 16.0),
    ("3(x+1)", {"x": 2.0}, 9.0),
    ("2 sin(x)", {"x": math.pi / 2}, 2.0),
    ("x*-y", {"x": 2.0, "y": 5.0}, -10.0),
    ("a - -b", {"a": 2.0, "b": 5.0}, 7.0),
    ("6÷2x", {"x": 3.0}, 1.0),
    ("a×b + a·b + a⋅b", {"a": 2.0, "b": 3.0}, 18.0),
    ("a − b", {"a": 2.0, "b": 3.0}, -1.0),
    ("2pi", {}, 2 * math.pi),
    ("e", {}, math.e),
    ("pi", {}, math.pi),
]


@pytest.mark.parametrize("text, at, expected", VALUES, ids=[t for t, _, _ in VALUES])
def test_value(text, at, expected):
    value = adcli.parse(text).value(**at)
    assert float(value) == pytest.approx(expected, rel=1e-15, abs=0)


def test_gradient_of_one_over_two_x():
    # d/dx 1/(2x) = -1/(2x^2) = -1/32 at x = 4; the other reading (x/2) would give 1/2
    assert float(adcli.parse("1/2x").grad(x=4.0)["x"]) == -1 / 32


def test_a_bare_variable_has_derivative_one_and_a_constant_an_empty_gradient():
    assert float(adcli.parse("x").grad(x=3.0)["x"]) == 1.0
    assert adcli.parse("2*pi").grad() == {}


# ----- numbers ------------------------------------------------------------------------

NUMBERS = [
    ("1", 1.0),
    ("1.5", 1.5),
    (".5", 0.5),
    ("1.", 1.0),
    ("1e-3", 0.001),
    ("2.5E+2", 250.0),
    ("1.e3", 1000.0),
    ("007", 7.0),
]


@pytest.mark.parametrize("text, expected", NUMBERS, ids=[t for t, _ in NUMBERS])
def test_number(text, expected):
    value = adcli.parse(text).value()
    assert np.asarray(value).dtype == np.float64
    assert float(value) == expected


OVERFLOWING = [
    ("1e999", math.inf),          # beyond float64's range: inf, as float("1e999")
    ("-1e999", -math.inf),
    ("1" * 400, math.inf),        # a 400-digit literal is read as a float64, not an int
    ("10^400", math.inf),
    ("9^9^9^9", math.inf),        # 9^(9^(9^9)): must not be computed with big integers
    ("-9^9^9^9", -math.inf),
]


@pytest.mark.filterwarnings("ignore::adcli.errors.AdcliWarning")  # (kinks, edges: said)
@pytest.mark.parametrize("text, expected", OVERFLOWING, ids=[t[:12] for t, _ in OVERFLOWING])
def test_overflow_is_infinity_in_float64(text, expected):
    value = np.asarray(adcli.parse(text).value())
    assert value.dtype == np.float64
    assert float(value) == expected


def test_values_are_float64_even_for_integer_inputs():
    value = np.asarray(adcli.parse("x/3").value(x=1))
    assert value.dtype == np.float64
    assert float(value) == 1 / 3          # true division of floats, not integer division


# ----- errors -------------------------------------------------------------------------

def expression_error(text) -> ExpressionError:
    with pytest.raises(ExpressionError) as info:
        adcli.parse(text)
    return info.value


def assert_caret(error: ExpressionError, text: str):
    """The str is: message (column N), the expression, a caret under the column."""
    message, shown, caret = str(error).split("\n")
    assert message == f"{error.message} (column {error.position + 1})"
    assert shown == "  " + text
    assert caret == "  " + " " * error.position + "^"


ERRORS = [
    # text, words the message must contain, 0-based position of the caret
    ("x+$", ["unexpected character '$'"], 2),
    ("x;y", ["unexpected character ';'"], 1),
    ("sin(x))", ["unexpected ')'", "expected an operator or the end"], 6),
    ("x+)", ["unexpected ')'", "expected a number"], 2),
    ("x^^2", ["unexpected '^'"], 2),
    ("x,y", ["unexpected ','"], 1),
    ("()", ["unexpected ')'"], 1),
    ("sqrt()", ["unexpected ')'"], 5),
    ("sin(x", ["'(' is never closed", "before its ')'"], 3),
    ("x+", ["unexpected end of expression", "a number"], 2),
    ("(x", ["'(' is never closed", "before its ')'"], 0),
    ("2^", ["unexpected end of expression"], 2),
    ("2 3", ["a number can only come first", "write 2*3"], 2),
    ("sinn(x)", ["unknown function 'sinn'; did you mean 'sin'?"], 0),
    ("1 + expp(x)", ["unknown function 'expp'; did you mean 'exp'?"], 4),
    ("x(1, 2)", ["'x' is not a function", "x*(...)"], 0),
    ("2 + θ(1, 2)", ["'θ' is not a function", "θ*("], 4),
    ("pi(1, 2)", ["'pi' is not a function", "pi*("], 0),
    ("sin", ["'sin' is a function and needs an argument", "sin(...)"], 0),
    ("2 + sin", ["'sin' is a function and needs an argument"], 4),
    ("atan2(x)", ["atan2() takes 2 arguments, got 1"], 0),
    ("1 + hypot(1, 2, 3)", ["hypot() takes 2 arguments, got 3"], 4),
    ("sin(x, y)", ["sin() takes 1 argument, got 2"], 0),
    ("log(x, 2, 3)", ["log() takes 1 or 2 arguments, got 3"], 0),
    ("", ["the expression is empty"], 0),
    ("   ", ["the expression is empty"], 0),
    # no Python is ever evaluated: these are plain syntax errors
    ("__import__('os').system('id')", ["unexpected character"], 11),
    ("x.__class__", ["unexpected character '.'"], 1),
]


@pytest.mark.parametrize("text, words, position", ERRORS, ids=[t or "empty" for t, _, _ in ERRORS])
def test_error_message_and_caret(text, words, position):
    error = expression_error(text)
    for word in words:
        assert word in error.message
    assert error.position == position
    assert_caret(error, text)


def test_the_readme_syntax_error_example_verbatim():
    # README, "Errors and exit codes" (without the "adcli: error: " the CLI puts in front)
    assert str(expression_error("sin(x))")) == (
        "unexpected ')'; expected an operator or the end (column 7)\n"
        "  sin(x))\n"
        "        ^")


def test_an_expression_error_is_an_adcli_error():
    assert isinstance(expression_error("x+"), adcli.AdcliError)


CONTROL = [
    # text, escape shown, position of the bad character
    ("x\x00+1", "\\x00", 1),
    ("x+\x01", "\\x01", 2),
    ("x+\x1b[31m", "\\x1b", 2),
]


@pytest.mark.parametrize("text, shown, position", CONTROL, ids=["nul", "soh", "esc"])
def test_control_characters_are_shown_escaped(text, shown, position):
    error = expression_error(text)
    assert error.position == position
    assert shown in error.message
    rendered = str(error)
    # nothing that a terminal would interpret reaches the output
    assert not any(ord(c) < 32 and c != "\n" for c in rendered)
    _, line, caret = rendered.split("\n")
    # the caret sits under the start of the escape sequence
    assert line[caret.index("^"):].startswith(shown)


def test_a_control_character_before_the_error_moves_the_caret_by_its_escape():
    # "x\t$": the tab is shown as the two characters "\t", so '$' is at shown offset 3
    error = expression_error("x\t$")
    assert error.position == 2
    _, line, caret = str(error).split("\n")
    assert line == "  x\\t$"
    assert line[caret.index("^")] == "$"


def test_a_long_expression_shows_a_short_excerpt_with_the_caret_under_the_culprit():
    text = "+".join(["x"] * 500) + "+$+" + "+".join(["y"] * 500)
    error = expression_error(text)
    assert error.position == text.index("$")
    assert "'$'" in error.message
    message, line, caret = str(error).split("\n")
    assert len(message) < 120
    assert len(line) < 100 and len(caret) < 100        # an excerpt, not 2000 characters
    assert "…" in line                                  # cut, and shown to be cut
    assert line[caret.index("^")] == "$"
    assert "x+$+y" in line


def test_wide_characters_before_the_error_count_two_columns():
    # each CJK character takes two terminal columns; the caret must line up on screen
    text = "中文+$"
    error = expression_error(text)
    assert error.position == 3
    _, line, caret = str(error).split("\n")
    assert caret == "  " + " " * (2 + 2 + 1) + "^"


def test_the_grammar_has_no_lalr_conflicts():
    # lark silently resolves shift/reduce conflicts as "shift", which once made "(x+1)^2"
    # a syntax error; strict mode turns any conflict into an error at load time.
    from lark import Lark

    import adcli.parser

    strict = Lark(adcli.parser._grammar_text(), parser="lalr", strict=True)  # raises on one
    assert strict.parse("(x+1)^2 + 1").data == "binary"  # the input the hidden conflict broke
