"""Subscripts, LaTeX's \\min\\{a, b\\} and sinc: three gaps in reading maths as written.

* A subscript in braces that is a name or a number is part of the name (x_{1} is x_1,
  x_{ij} is x_ij), and the name ends at its closing brace, as in TeX: a_{n}x^{n} is
  a_n*(x^n), not a variable a_nx. A subscript that is more than that (x_{i+1}) cannot name
  a variable: it is refused with a caret under it, never read as x_ times (i+1).
* \\min\\{x, y\\} and \\max\\{x, y\\} are min(x, y) and max(x, y).
* sinc is no function of adcli's: sinc(x) is refused saying what to write, and sinc x is
  never read as sin(c)*x.

Every expected reading, value and column here was worked out by hand.
"""
from __future__ import annotations

import math

import pytest

import adcli
from adcli.errors import ExpressionError
from conftest import run_cli


# ----- braced subscripts are part of a name, which ends at the brace ---------------------

READINGS = [
    ("x_1", "x_1"),
    ("x_{1}", "x_1"),
    ("x_{12}", "x_12"),
    ("x_{ij} + a_{n}", "x_ij + a_n"),
    ("x_{α}", "x_α"),
    # the name ends at the subscript's closing brace, as TeX ends the subscript there
    ("a_{n}x^{n}", "a_n*(x^n)"),
    ("a_{n}x^{n} + a_{0}", "(a_n*(x^n)) + a_0"),
    ("c_{2}x^{2} + c_{1}x + c_{0}", "((c_2*(x^2)) + (c_1*x)) + c_0"),
    ("x_{1}y", "x_1*y"),
    ("x_{1}y_{2}", "x_1*y_2"),
    ("2x_{1}", "2*x_1"),
    ("x_{1}^{2}", "x_1^2"),
    ("x_{1}(y+1)", "x_1*(y + 1)"),
    ("\\alpha_{1}x", "α_1*x"),
    ("x_{1}sin x", "x_1*sin(x)"),
    ("log_{2}x", "log2(x)"),          # was the variable log_2x
    ("log_{10}(x)", "log10(x)"),
    ("x_{i}_{j}", "x_i_j"),           # (TeX's double subscript: one name, as before)
    # \min\{ \} and \max\{ \}: LaTeX's braces as a call's parentheses
    ("\\min\\{x, y\\}", "min(x, y)"),
    ("\\max\\{x, y\\}", "max(x, y)"),
    ("\\max\\{0, x\\}", "max(0, x)"),
    ("\\min\\{x+1, y\\}", "min(x + 1, y)"),
    ("\\max\\left\\{0, x\\right\\}", "max(0, x)"),
    ("\\max \\{x, y\\}^2", "max(x, y)^2"),
    ("2\\min\\{x, y\\} z", "(2*min(x, y))*z"),
    ("\\max\\bigl\\{x, \\min\\{y, z\\}\\bigr\\}", "max(x, min(y, z))"),
    # the other braces are as they were: a group
    ("\\exp\\{x\\}", "exp(x)"),
    ("\\left\\{x+1\\right\\}^2", "(x + 1)^2"),
    ("x\\{y+1\\}", "x*(y + 1)"),
]


@pytest.mark.parametrize("written, reading", READINGS, ids=[w for w, _ in READINGS])
def test_reading(written, reading):
    assert adcli.parse(written).parsed == reading


def _csv(out: str) -> dict[str, float]:
    header, row = out.strip().splitlines()
    return dict(zip(header.split(","), map(float, row.split(","))))


def test_a_subscripted_coefficient_glued_to_a_power_is_a_product_with_its_derivatives():
    # a_n x^n at a_n=5, n=2, x=3: 45; d/da_n = x^n = 9, d/dx = a_n n x^(n-1) = 30,
    # d/dn = a_n x^n ln x = 45 ln 3.
    code, out, err = run_cli("grad", "a_{n}x^{n}", "--at", "a_n=5,n=2,x=3", "--format", "csv")
    assert (code, err) == (0, "")
    got = _csv(out)
    assert list(got) == ["a_n", "x", "n", "f", "df/da_n", "df/dx", "df/dn"]
    assert got["f"] == 45.0 and got["df/da_n"] == 9.0 and got["df/dx"] == 30.0
    assert math.isclose(got["df/dn"], 45 * math.log(3), rel_tol=1e-15)


def test_a_polynomial_with_subscripted_coefficients():
    # c_2 x^2 + c_1 x + c_0 at x=2, c_2=3, c_1=5, c_0=7: 12 + 10 + 7 = 29; d/dx = 2 c_2 x +
    # c_1 = 17.
    code, out, err = run_cli("grad", "c_{2}x^{2} + c_{1}x + c_{0}", "--at",
                             "x=2,c_2=3,c_1=5,c_0=7", "--wrt", "x", "--format", "csv")
    assert (code, err) == (0, "")
    assert _csv(out) == {"x": 2.0, "c_2": 3.0, "c_1": 5.0, "c_0": 7.0, "f": 29.0,
                         "df/dx": 17.0}


@pytest.mark.parametrize("text, at, value, gradient", [
    ("\\min\\{x, y\\}", "x=2,y=3", 2.0, {"df/dx": 1.0, "df/dy": 0.0}),
    ("\\max\\{x, y\\}", "x=2,y=3", 3.0, {"df/dx": 0.0, "df/dy": 1.0}),
    ("\\max\\left\\{0, x\\right\\} y", "x=-2,y=3", 0.0, {"df/dx": 0.0, "df/dy": 0.0}),
    ("\\max\\left\\{0, x\\right\\} y", "x=2,y=3", 6.0, {"df/dx": 3.0, "df/dy": 2.0}),
])
def test_min_and_max_in_latex_braces_are_the_functions(text, at, value, gradient):
    code, out, err = run_cli("grad", text, "--at", at, "--format", "csv")
    assert (code, err) == (0, "")
    got = _csv(out)
    assert got["f"] == value and {k: got[k] for k in gradient} == gradient


# ----- refusals: one line, the caret under the user's own text ---------------------------

NOT_A_NAME = "a subscript must be a name or a number, as in x_{{1}} or x_{{ij}}: '{}' " \
             "cannot name a variable"

SINC = "unknown function 'sinc': adcli has none; write sin(u)/u for sinc(u); numpy's " \
       "sinc(u) is sin(pi u)/(pi u)"

REFUSED = [
    # text, message, caret position (counted by hand)
    ("x_{i+1}", NOT_A_NAME.format("x_{i+1}"), 2),
    ("x_{i+1} + 1", NOT_A_NAME.format("x_{i+1}"), 2),
    ("2 + a_{n-1} x", NOT_A_NAME.format("a_{n-1}"), 6),
    ("\\alpha_{i+1}", NOT_A_NAME.format("\\alpha_{i+1}"), 7),
    ("x_{1.5}", NOT_A_NAME.format("x_{1.5}"), 2),
    ("x_{-1}", NOT_A_NAME.format("x_{-1}"), 2),
    ("x_{i,j}", NOT_A_NAME.format("x_{i,j}"), 2),
    ("x_{}", NOT_A_NAME.format("x_{}"), 2),
    ("x_{i+1", NOT_A_NAME.format("x_{i+1"), 2),      # not closed: shown to the end
    ("x_(i+1)", NOT_A_NAME.format("x_(i+1)"), 2),    # not x_*(i+1)
    ("y + x_[n+1]", NOT_A_NAME.format("x_[n+1]"), 6),
    # a name or a number, but not written as a subscript is: what to write
    ("x_ {1}", "a subscript is written in braces right after '_': for 'x_ {1}', write x_{1}",
     3),
    ("x_{ 1 }", "a subscript is written in braces right after '_': for 'x_{ 1 }', write "
                "x_{1}", 2),
    ("x_(1)", "a subscript is written in braces right after '_': for 'x_(1)', write x_{1}",
     2),
    # after a subscript's brace the name has ended: a number there is a number
    ("x_{1}2", "a number can only come first in a product written without '*': "
               "write x_{1}*2", 5),
    ("\\min\\{x\\}", "min() takes 2 arguments, got 1", 0),
    ("1 + \\max\\{x, y, z\\}", "max() takes 2 arguments, got 3", 4),
    ("sinc(x)", SINC, 0),
    ("2 sinc(2x)", SINC, 2),
]


@pytest.mark.parametrize("text, message, position", REFUSED, ids=[t for t, *_ in REFUSED])
def test_refused_with_the_caret_in_place(text, message, position):
    with pytest.raises(ExpressionError) as info:
        adcli.parse(text)
    assert (info.value.message, info.value.position) == (message, position)


@pytest.mark.parametrize("text, message, position", REFUSED[:4] + REFUSED[9:11],
                         ids=[t for t, *_ in REFUSED[:4] + REFUSED[9:11]])
def test_the_cli_refuses_in_one_line_with_a_caret_and_exit_2(text, message, position):
    code, out, err = run_cli("eval", text, "--at", "x=1,i=1,n=1,a=1,y=1,x_=1,a_=1,α_=1")
    assert (code, out) == (2, "")
    assert err.splitlines() == [f"adcli: error: {message} (column {position + 1})",
                                f"  {text}", "  " + " " * position + "^"]


def test_a_subscript_refused_after_the_same_name_was_read_alone():
    # x_ alone is a name (as before); followed by a bracket it is a subscript, refused
    # even though the name x_ was read a moment before.
    with pytest.raises(ExpressionError) as info:
        adcli.parse("x_ + x_{i+1}")
    assert (info.value.message, info.value.position) == (NOT_A_NAME.format("x_{i+1}"), 7)
    assert adcli.parse("x_ + x_ y").parsed == "x_ + (x_*y)"


# ----- sinc: no function of adcli's, and never sin(c) -------------------------------------

def test_sinc_x_is_one_name_never_sin_of_c():
    f = adcli.parse("sinc x")
    assert f.parsed == "sinc*x" and list(f.variables) == ["sinc", "x"]
    assert f.cautions == ["'sinc' is one name, read as a variable; adcli has no sinc "
                          "function: write sin(u)/u for sinc(u); numpy's sinc(u) is "
                          "sin(pi u)/(pi u)"]


def test_sinc_x_without_a_value_for_sinc_is_an_error():
    code, out, err = run_cli("eval", "sinc x", "--at", "x=1")
    # (it said "for the function, write sin c": sinc is not sin c)
    assert (code, out, err) == (2, "", "adcli: error: no value given for sinc: add --at "
                                "sinc=... (adcli has no sinc function: write sin(u)/u for "
                                "sinc(u); numpy's sinc(u) is sin(pi u)/(pi u))\n")


def test_sinc_given_a_value_is_a_variable_as_meant():
    code, out, err = run_cli("eval", "sinc x", "--at", "sinc=2,x=3", "--format", "plain")
    assert (code, out, err) == (0, "6.0\n", "")
