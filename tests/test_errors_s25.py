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


# sinn x is not sin n (a variable n made up): where sinn has no value, the error asks for
# the function with the letter doubled; given a value, it is a variable like any other
MISSPELT = [
    (["grad", "sinn x", "--at", "x=1"], "sinn", "sin"),
    (["eval", "x sqrrt x", "--at", "x=1"], "sqrrt", "sqrt"),
    (["eval", "x + tann y", "--at", "x=1,y=2"], "tann", "tan"),
    (["plot", "sin x", "coss x", "--grid", "x=0:1"], "coss", "cos"),
]


@pytest.mark.parametrize("argv, name, meant", MISSPELT)
def test_misspelt_function_before_its_argument(argv, name, meant):
    code, out, err = run_cli(*argv)
    assert (code, out) == (2, ""), err
    assert err.endswith(f"no value given for {name}: add --at {name}=... ('{name}' is not a "
                        f"function: did you mean {meant}?)\n"), err


@pytest.mark.parametrize("text, at, value", [
    ("coss x", "x=3,coss=2", 6.0), ("lon lat", "lon=2,lat=5", 10.0),
    ("skin x", "x=3,skin=2", 6.0), ("maxx y", "y=3,maxx=2", 6.0),
    ("sinn + sinn x", "x=3,sinn=2", 8.0)])
def test_a_name_given_a_value_is_a_variable_whatever_it_looks_like(text, at, value):
    # (the regression tester's: coss x --at coss=2 was refused as "did you mean cos x?")
    code, out, err = run_cli("eval", text, "--at", at, "--format", "json")
    assert code == 0 and json.loads(out)["points"][0]["value"] == value, err


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
    assert never_closed("|x + 1").message == \
        "'|' is never closed: the expression ends before the '|' that closes it"


# an operand missing first ((x+), a stray closer, or nothing open: the end's own error
# (x|, x + 1|, |x|y|: a bar after an operand with none open may close nothing or open one:
# the regression tester's x + 1| was "never closed", pointing at the stray bar)
@pytest.mark.parametrize("text", ["(x+", "|x+", "x+", "(x]", "x)", "|x|", "(x)", "",
                                  "x|", "x + 1|", "|x|y|", "|x||"])
def test_never_closed_none(text):
    assert never_closed(text) is None


def test_the_number_quoted_in_the_number_first_advice_is_escaped():
    # found by the fuzz suite: a NUL after the number reached stderr raw (older than today)
    code, out, err = run_cli("eval", "--", "00000000+0 1e31e-999\x00")
    assert code == 2 and "\x00" not in err and "write 0*1e31e-999\\x00 (column 12)" in err, err
