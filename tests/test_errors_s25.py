"""Round 25's error messages: a function's name with a letter too many before its
argument (sinn x), dy/dx written into an expression, and the bracket or bar left open
when a text ends too soon."""
from __future__ import annotations

import json

import pytest

from adcli.errors import added_letter, glued, leibniz
from adcli.functions import CALLABLE
from adcli.reader import never_closed
from conftest import run_cli


def _refused(argv, message, column, shown):
    code, out, err = run_cli(*argv)
    assert code == 2 and out == "" and "Traceback" not in err
    assert err == f"adcli: error: {message} (column {column})\n  {shown}\n  " \
                  f"{' ' * (column - 1)}^\n"


# sinn x is not sin n (a variable n made up): the function, refused as sinn(x) is, with
# the caret at the name (column counted by hand)
MISSPELT = [
    (["grad", "sinn x", "--at", "x=1"], "sinn", "sin", "x", 1, "sinn x"),
    (["eval", "2 + coss 2t", "--at", "t=1"], "coss", "cos", "2t", 5, "2 + coss 2t"),
    (["eval", "x sqrrt x", "--at", "x=1"], "sqrrt", "sqrt", "x", 3, "x sqrrt x"),
    (["eval", "x + tann\ty", "--at", "x=1,y=2"], "tann", "tan", "y", 5, "x + tann\\ty"),
]


@pytest.mark.parametrize("argv, name, meant, x, column, shown", MISSPELT)
def test_misspelt_function_before_its_argument(argv, name, meant, x, column, shown):
    _refused(argv, f"unknown function '{name}'; did you mean {meant} {x}? (for a variable "
                   f"{name} times {x}, write {name}*{x})", column, shown)


def test_misspelt_function_in_plot_names_its_expression():
    code, out, err = run_cli("plot", "sin x", "coss x", "--grid", "x=0:1")
    assert code == 2 and "Traceback" not in err
    assert err.split("\n")[0] == ("adcli: error: f2: unknown function 'coss'; did you mean "
                                  "cos x? (for a variable coss times x, write coss*x) "
                                  "(column 1)")


def test_misspelt_function_refused_where_it_is_met_again():
    # (a name's leaf is cached: the second sinn, the one before an argument, is looked at)
    _refused(["eval", "sinn + sinn x", "--at", "x=1,sinn=2"],
             "unknown function 'sinn'; did you mean sin x? (for a variable sinn times x, "
             "write sinn*x)", 8, "sinn + sinn x")


def test_misspelt_name_without_argument_is_a_variable():
    code, out, err = run_cli("eval", "x + sinn", "--at", "x=1,sinn=2", "--format", "json")
    assert code == 0 and json.loads(out)["points"][0]["value"] == 3


def test_misspelt_name_without_value_says_which_function():
    code, out, err = run_cli("grad", "x sinn", "--at", "x=1")
    assert code == 2 and err == ("adcli: error: no value given for sinn: add --at sinn=... "
                                 "('sinn' is not a function: did you mean sin?)\n")


@pytest.mark.parametrize("name, meant", [("sinn", "sin"), ("coss", "cos"),
                                         ("sqrrt", "sqrt"), ("lnn", "ln"), ("sinhh", "sinh"),
                                         ("siin", "sin"), ("exxp", "exp")])
def test_added_letter_finds_the_function(name, meant):
    assert added_letter(name, CALLABLE) == meant


# a function and a letter after it, not a slip of the keyboard: those hints stand
@pytest.mark.parametrize("name", ["sinx", "cost", "sine", "sign", "lnx", "expt", "logn", "xsin",
                                  "sin", "x", "ss"])
def test_added_letter_leaves_other_names(name):
    assert added_letter(name, CALLABLE) is None


@pytest.mark.parametrize("name, given, hint", [
    ("sinx", [], "'sinx' is one name; for the function, write sin x"),
    ("sinn", ["n"], "'sinn' is one name; for the function, write sin n"),  # n given: sin n
    ("sinn", [], "'sinn' is not a function: did you mean sin?"),
])
def test_glued_hints(name, given, hint):
    assert glued(name, given, CALLABLE) == hint


def test_cost_times_x_is_still_read():
    code, out, err = run_cli("eval", "cost x", "--at", "x=2,cost=3", "--format", "json")
    assert code == 0 and json.loads(out)["points"][0]["value"] == 6


# dy/dx typed in: two variables, no values; a derivative was meant
DY_DX = ("dy/dx is read as a variable dy divided by a variable dx, not as a derivative: for "
         "one, write y's expression in x as diff(..., x), or give it alone to adcli grad or "
         "check")


def test_dy_dx_said_to_be_no_derivative():
    code, out, err = run_cli("grad", "dy/dx", "--at", "x=3,y=9")
    assert code == 2 and out == ""
    assert err == f"adcli: error: no value given for dy and dx: {DY_DX}\n"


def test_dx_dt_the_first_written_on_top():
    code, out, err = run_cli("eval", "2*dx/dt")
    assert code == 2 and err == (
        "adcli: error: no value given for dx and dt: dx/dt is read as a variable dx divided "
        "by a variable dt, not as a derivative: for one, write x's expression in t as "
        "diff(..., t), or give it alone to adcli grad or check\n")


@pytest.mark.parametrize("names", [["dx"], ["dx", "dx1"], ["dx", "dy", "dz"], ["dxy", "dz"],
                                   ["x", "dx"]])
def test_leibniz_fraction_only_for_two_such_names(names):
    assert leibniz(names) is None


def test_d_over_dx_hint_unchanged():
    assert leibniz(["d", "dx"]).startswith("'d/dx' is read as d divided by a variable dx")


# The bracket or bar still open where a text ends (columns counted by hand)
OPEN = [
    ("x|", "|", 1),
    ("|x|y|", "|", 4),
    ("x^2 + 3x sin x + e^(x y) + sqrt(x^2+1) + (x + 1", "(", 41),
    ("x + (", "(", 4),
    ("sin(x", "(", 3),
    ("[x + (y)", "[", 0),
    ("\\frac{x}{y", "{", 8),
    ("||x|", "|", 0),
    ("(|x|", "(", 0),
]


@pytest.mark.parametrize("text, c, position", OPEN)
def test_never_closed(text, c, position):
    error = never_closed(text)
    assert (error.message.split(" is never closed")[0], error.position) == (f"'{c}'", position)


def test_never_closed_says_what_closes_it():
    assert never_closed("(x + 1").message == \
        "'(' is never closed: the expression ends before its ')'"
    assert never_closed("x|").message == \
        "'|' is never closed: the expression ends before the '|' that closes it"


# an operand missing first ((x+), a stray closer, or nothing open: the end's own error
@pytest.mark.parametrize("text", ["(x+", "|x+", "x+", "(x]", "x)", "|x|", "(x)", ""])
def test_never_closed_none(text):
    assert never_closed(text) is None
