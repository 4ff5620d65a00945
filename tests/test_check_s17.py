"""adcli check, items left by earlier testers: a diagnosis speaks of what was written
(1/2x^(-1/2) read as 1/(2x^(-1/2)), not "sqrt(x) as sqrt(x)/2"); an expectation that is f
itself is said in one line; a points file's column named as a constant the expression
uses is refused as grad refuses it; pow's inf derivative at a base above 0 is an
overflow, no edge of its domain.

Each row's mathematics is checked against mpmath first, so a wrong row fails on its own;
the words are compared whole.
"""
from __future__ import annotations

import json
import os
import sys

import mpmath as mp
import pytest

from conftest import run_cli, run_in_pty

mp.mp.dps = 30
EXIT_BAD_INPUT = 2
XS = (0.3, 1.7, 4.1)
ITSELF = "the expectation is f itself at every point, not d/dx: nothing was differentiated"


def diagnosis(*argv: str) -> list[str]:
    code, out, err = run_cli("check", *argv, "--format", "json")
    assert code == 1, err
    return json.loads(out)["diagnosis"]


# ----- 1. a divisor written side by side, with no space: 1/2x^(-1/2) is 1/(2x^(-1/2)) -----

SIDE_BY_SIDE = [
    # (f, expectation, f as mpmath, the expectation as read, as (1/2)*..., words)
    ("sqrt(x)", "1/2x^(-1/2)", mp.sqrt, lambda x: 1 / (2 * x ** mp.mpf(-0.5)),
     lambda x: x ** mp.mpf(-0.5) / 2,
     "1/2x^((-1)/2) is read as 1/(2*(x^((-1)/2))): a product written side by side binds "
     "tighter than '/'; as (1/2)*x^((-1)/2), the expectation matches"),
    ("x^3/4", "3/4x^2", lambda x: x**3 / 4, lambda x: 3 / (4 * x**2), lambda x: 3 * x**2 / 4,
     "3/4x^2 is read as 3/(4*(x^2)): a product written side by side binds tighter than "
     "'/'; as (3/4)*x^2, the expectation matches"),
]


@pytest.mark.parametrize("f, g, f_mp, read, meant, words",
                         SIDE_BY_SIDE,
                         ids=lambda v: v if isinstance(v, str) else "")
def test_a_divisor_side_by_side_is_said_as_read_and_as_meant(f, g, f_mp, read, meant, words):
    for x in XS:   # meant is f', read is not
        assert mp.almosteq(meant(x), mp.diff(f_mp, x), 1e-12)
        assert not mp.almosteq(read(x), mp.diff(f_mp, x), 1e-3)
    assert diagnosis(f, g) == [words]


def test_sqrt_written_one_over_two_x_to_the_minus_half_is_not_said_as_sqrt_over_2():
    """Was "this differentiates sqrt(x) as sqrt(x)/2: the power rule lowers the exponent
    1/2 by one, to -1/2": sqrt(x)/2 is the value of what was written, not what was."""
    said = diagnosis("sqrt(x)", "1/2x^(-1/2)")
    assert not any("sqrt(x)/2" in line for line in said)


# A rule remembered wrongly, the expectation that form in other words: said as read first.
SQRT_RULE = "sqrt's derivative is 1/(2·sqrt(x))"
AS_READ = [
    # (f, expectation, f as mpmath, the expectation as mpmath, the claim's first line)
    ("sqrt(x)", "x^(-1/2)", mp.sqrt, lambda x: x ** mp.mpf(-0.5),
     f"this differentiates sqrt(x) as x^((-1)/2), that is 1/sqrt(x): the 1/2 is left out; "
     f"{SQRT_RULE}"),
    ("sqrt(x)", "0.5 x^0.5", mp.sqrt, lambda x: x ** mp.mpf(0.5) / 2,
     "this differentiates sqrt(x) as 0.5*(x^0.5), that is sqrt(x)/2: the power rule lowers "
     f"the exponent 1/2 by one, to -1/2; {SQRT_RULE}"),
    ("tan(x)", r"\frac{1}{\cos x}", mp.tan, lambda x: 1 / mp.cos(x),
     "this differentiates tan(x) as 1/cos(x), that is sec(x): the square is left out; tan's "
     "derivative is sec(x)^2"),
    # written as the form is: said as it was
    ("sqrt(x)", "1/sqrt(x)", mp.sqrt, lambda x: 1 / mp.sqrt(x),
     f"this differentiates sqrt(x) as 1/sqrt(x): the 1/2 is left out; {SQRT_RULE}"),
    ("sqrt(x)", r"\frac{1}{2x}", mp.sqrt, lambda x: 1 / (2 * x),
     "this differentiates sqrt(x) as 1/(2x): the square root is left out of the denominator; "
     f"{SQRT_RULE}"),
]


@pytest.mark.parametrize("f, g, f_mp, g_mp, words", AS_READ, ids=[r[1] for r in AS_READ])
def test_a_rule_remembered_wrongly_is_said_of_the_expectation_as_read(f, g, f_mp, g_mp, words):
    for x in XS:    # not f' (that each is the form named is algebra: x^(-1/2) = 1/sqrt(x))
        assert not mp.almosteq(g_mp(x), mp.diff(f_mp, x), 1e-3)
    assert diagnosis(f, g)[0] == words


# ----- 2. the expectation is f itself: one line -----------------------------------------

ITSELF_ROWS = [
    # (f, expectation: f itself, f as mpmath)
    ("2^x", "2^x", lambda x: 2**x),
    ("10^x", "10^x", lambda x: 10**x),
    ("e^(3x)", "e^(3x)", lambda x: mp.e ** (3 * x)),
]


@pytest.mark.parametrize("f, g, f_mp", ITSELF_ROWS, ids=[r[0] for r in ITSELF_ROWS])
def test_f_itself_is_said_alone(f, g, f_mp):
    for x in XS:    # f itself, and not its derivative
        assert not mp.almosteq(f_mp(x), mp.diff(f_mp, x), 1e-3)
    assert diagnosis(f, g) == [ITSELF]


def test_a_constant_base_without_its_ln_is_still_said_where_it_is_not_f_itself():
    """2^(3x)'s derivative written 3·2^(3x): ln(2) left out, and not f."""
    f = lambda x: mp.mpf(2) ** (3 * x)
    for x in XS:
        assert mp.almosteq(3 * f(x) * mp.log(2), mp.diff(f, x), 1e-12)
    assert diagnosis("2^(3x)", "3*2^(3x)") == [
        "this differentiates 2^(3*x) without the factor ln(2): for a constant base u = 2, "
        "d(u^v)/dx = u^v·ln(u)·(dv/dx)",
        "×1/ln(2) everywhere: the expectation is 1/ln(2) times d/dx at every point"]


# ----- 4. a points file's column named as a constant the expression uses -----------------

def clash(column: str, constant: str, value: str, rename: str) -> str:
    return (f"adcli: error: the points file has a column '{column}': {column} is a constant "
            f"({value}), which the expression uses, and cannot be given a value: to use the "
            f"column, rename it in the header and the expression ({constant}1, say), or "
            f"leave the header row out and name the columns with --columns {rename}\n")


E, PI = "2.718281828459045", "3.141592653589793"
CONSTANT_COLUMNS = [
    # (f, expectation, the points file, the error)
    ("x^2*e", "2*x*e", "x,e\n1,0.5\n2,0.25\n3,1\n", clash("e", "e", E, "x,e1")),
    ("sin(pi*x)", "pi*cos(pi*x)", "pi,x\n1,0.5\n2,0.25\n", clash("pi", "pi", PI, "pi1,x")),
    # the expectation alone uses it: e^x is read with the constant as much as f would be
    ("exp(x)", "e^x", "x,e\n1,0.5\n2,0.25\n", clash("e", "e", E, "x,e1")),
]


@pytest.mark.parametrize("f, g, rows, error", CONSTANT_COLUMNS,
                         ids=[r[0] for r in CONSTANT_COLUMNS])
def test_a_column_named_as_a_constant_used_is_an_error(f, g, rows, error):
    for strict in ((), ("--strict",)):
        code, out, err = run_cli("check", f, g, *strict, "--points", "-", stdin=rows)
        assert (code, out, err) == (EXIT_BAD_INPUT, "", error)


def test_a_column_named_as_a_constant_not_used_passes_through():
    code, out, err = run_cli("check", "x^2", "2x", "--points", "-", "--format", "csv",
                             stdin="x,e\n1,7\n2,8\n3,9\n")
    assert code == 0, err
    assert out.splitlines()[0].split(",")[:2] == ["e", "x"]


# ----- 5. pow's inf derivative at a base above 0 is an overflow -------------------------

@pytest.mark.parametrize("argv, exact", [
    # d/dx x^-307.9 at 0.1 = -307.9 * 10^308.9: past the largest float, from a base of 0.1
    (("x^-307.9", "--at", "x=0.1"), lambda: -307.9 * mp.mpf("0.1") ** mp.mpf("-308.9")),
    # d/dy x^y at x = 1e300, y = 1.0267: x^y ln x, 1.02e308 * 690.8
    (("x^y", "--wrt", "y", "--at", "x=1e300,y=1.0267"),
     lambda: mp.mpf("1e300") ** mp.mpf("1.0267") * mp.log(mp.mpf("1e300"))),
])
def test_pow_inf_derivative_at_a_positive_base_is_said_an_overflow(argv, exact):
    assert abs(exact()) > mp.mpf(2) ** 1024     # an overflow of float64, nothing else
    code, out, err = run_cli("grad", *argv, "--format", "plain")
    assert err == ("adcli: warning: the derivative through '^' overflowed at 1 of 1 point: "
                   "its derivative times the gradient handed back to it is beyond the float "
                   "range (not an edge of its domain)\n")


# ----- on a terminal --------------------------------------------------------------------

@pytest.mark.parametrize("columns", [40, 80, 120])
@pytest.mark.parametrize("f, g, words, not_said", [
    ("2^x", "2^x", f"diagnosis: {ITSELF}", ("ln(2)",)),
    ("sqrt(x)", "1/2x^(-1/2)", f"diagnosis: {SIDE_BY_SIDE[0][5]}", ("sqrt(x)/2",)),
    ("tan(x)", r"\frac{1}{\cos x}", f"diagnosis: {AS_READ[2][4]}", ()),
])
def test_on_a_terminal(columns, f, g, words, not_said):
    env = {**os.environ, "NO_COLOR": "1"}
    code, text, _ = run_in_pty([sys.executable, "-m", "adcli", "check", f, g], env, columns,
                               rows=60)
    assert code == 1
    flat = " ".join(text.split())    # (the words wrapped to the width, then joined)
    assert words in flat
    assert flat.count("diagnosis:") == 1 and not any(w in flat for w in not_said)
