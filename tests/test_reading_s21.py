"""A function written without parentheses, its argument a number (or π, or a number times π),
then '/' (session 21, a calculus teacher's finding): ln 1/x is ln(1)/x by the rules (a
function takes its argument up to the next operator), always 0, and almost never meant. A
caution says so and how to write ln(1/x), and check tries that reading, as it tries e^2x's.

Decisions pinned here: a variable's argument (sin x/2, sin 2x/3) is not said (the README's
sin x/2 row); nor a call in brackets (sin(1)/x), a root of a number (√2/2, sqrt 2/2: the bar
covers the 2 alone) or a function of a function (sin cos π/6). The argument likely meant
runs on after '/' as the divisor is read (ln 1/2x: ln(1/(2x))), up to the next function
(ln 1/x sin x: ln(1/x) sin x); a space after the divisor's first factor is the spaced
divisor's own reading inside it (sin 1/2 x: sin((1/2)*x)). A function's power stays on the
function (sin^2 π/6: sin(π/6)^2), LaTeX reads the same (\\sin \\pi/6).

Every expected value is a closed form at the point given.
"""
from __future__ import annotations

import math

import pytest

import adcli
from adcli.parser import _may_hold_a_function_of_one, other_readings
from conftest import close, run_cli, strict_json


def _said(written: str, read: str, over: str, meant: str, write: str) -> str:
    return (f"{written}: a function written without parentheses takes its argument up to the "
            f"next operator, so this is {read}, and /{over} divides after it; for {meant}, "
            f"write {write}")


def _spaced(written: str, divisor: str, meant: str, write: str) -> str:
    return (f"{written}: a product written side by side binds tighter than '/', so this "
            f"divides by {divisor}; for {meant}, write {write}")


# (text, reading, its cautions, the other reading's text, a point, the value as likely meant)
SAID = [
    ("ln 1/x", "ln(1)/x", [_said("ln 1/x", "ln(1)", "x", "ln(1/x)", "ln(1/x)")],
     "ln (1/x)", {"x": 2.0}, -math.log(2)),
    ("x^2 cos 1/x", "((x^2)*cos(1))/x",
     [_said("cos 1/x", "cos(1)", "x", "cos(1/x)", "cos(1/x)")],
     "x^2 cos (1/x)", {"x": 0.5}, 0.25 * math.cos(2)),
    ("sin π/6", "sin(pi)/6", [_said("sin π/6", "sin(pi)", "6", "sin(pi/6)", "sin(π/6)")],
     "sin (π/6)", {}, 0.5),
    ("cos 2π/3", "cos(2*pi)/3",
     [_said("cos 2π/3", "cos(2*pi)", "3", "cos((2*pi)/3)", "cos(2π/3)")],
     "cos (2π/3)", {}, -0.5),
    ("sin pi/6", "sin(pi)/6", [_said("sin pi/6", "sin(pi)", "6", "sin(pi/6)", "sin(pi/6)")],
     "sin (pi/6)", {}, 0.5),
    ("sin 2 pi/3", "sin(2*pi)/3",
     [_said("sin 2 pi/3", "sin(2*pi)", "3", "sin((2*pi)/3)", "sin(2 pi/3)")],
     "sin (2 pi/3)", {}, math.sqrt(3) / 2),
    ("\\sin \\pi/6", "sin(pi)/6",
     [_said("\\sin \\pi/6", "sin(pi)", "6", "sin(pi/6)", "\\sin(\\pi/6)")],
     "\\sin (\\pi/6)", {}, 0.5),
    ("sin^2 π/6", "(sin(pi)^2)/6",
     [_said("sin^2 π/6", "sin(pi)^2", "6", "sin(pi/6)^2", "sin^2(π/6)")],
     "sin^2 (π/6)", {}, 0.25),
    ("cos² π/3", "(cos(pi)^2)/3",
     [_said("cos² π/3", "cos(pi)^2", "3", "cos(pi/3)^2", "cos²(π/3)")],
     "cos² (π/3)", {}, 0.25),
    ("sin^-1 1/2", "asin(1)/2",
     [_said("sin^-1 1/2", "asin(1)", "2", "asin(1/2)", "sin^-1(1/2)")],
     "sin^-1 (1/2)", {}, math.pi / 6),
    ("log 1/x", "log(1)/x", [_said("log 1/x", "log(1)", "x", "log(1/x)", "log(1/x)")],
     "log (1/x)", {"x": 4.0}, -math.log(4)),
    ("log_2 1/x", "log2(1)/x",
     [_said("log_2 1/x", "log2(1)", "x", "log2(1/x)", "log_2(1/x)")],
     "log_2 (1/x)", {"x": 8.0}, -3.0),
    ("2 sin π/6", "(2*sin(pi))/6", [_said("sin π/6", "sin(pi)", "6", "sin(pi/6)", "sin(π/6)")],
     "2 sin (π/6)", {}, 1.0),
    ("x\\sin 1/x", "(x*sin(1))/x",
     [_said("\\sin 1/x", "sin(1)", "x", "sin(1/x)", "\\sin(1/x)")],
     "x\\sin (1/x)", {"x": 2.0}, 2 * math.sin(0.5)),
    ("ln 1/2x", "ln(1)/(2*x)",
     [_said("ln 1/2x", "ln(1)", "(2*x)", "ln(1/(2*x))", "ln(1/2x)")],
     "ln (1/2x)", {"x": 0.25}, math.log(2)),
    ("ln 1/x^2 + 1", "(ln(1)/(x^2)) + 1",
     [_said("ln 1/x^2", "ln(1)", "x^2", "ln(1/(x^2))", "ln(1/x^2)")],
     "ln (1/x^2) + 1", {"x": 2.0}, 1 - 2 * math.log(2)),
    # the argument stops at the next function, as it would without the '/'
    ("ln 1/x sin x", "ln(1)/(x*sin(x))",
     [_said("ln 1/x", "ln(1)", "(x*sin(x))", "ln(1/x)", "ln(1/x)")],
     "ln (1/x) sin x", {"x": 2.0}, -math.log(2) * math.sin(2)),
    # a function without brackets after '/': its argument is the divisor's
    ("ln 1/sin x", "ln(1)/sin(x)",
     [_said("ln 1/sin x", "ln(1)", "sin(x)", "ln(1/sin(x))", "ln(1/sin x)")],
     "ln (1/sin x)", {"x": 0.5}, -math.log(math.sin(0.5))),
    # a power's or a subscript's number before π
    ("sin^-1 π/x", "asin(pi)/x",
     [_said("sin^-1 π/x", "asin(pi)", "x", "asin(pi/x)", "sin^-1(π/x)")],
     "sin^-1 (π/x)", {"x": 2 * math.pi}, math.pi / 6),
    ("log_2 pi/x", "log2(pi)/x",
     [_said("log_2 pi/x", "log2(pi)", "x", "log2(pi/x)", "log_2(pi/x)")],
     "log_2 (pi/x)", {"x": math.pi / 8}, 3.0),
    # a space after the divisor's first factor: (1/2)*x inside, as 1/2 x is said
    ("sin 1/2 x", "sin(1)/(2*x)",
     [_said("sin 1/2 x", "sin(1)", "(2*x)", "sin((1/2)*x)", "sin(1/2*x)")],
     "sin (1/2*x)", {"x": math.pi / 3}, 0.5),
    ("sin π/6 + cos π/3", "(sin(pi)/6) + (cos(pi)/3)",
     [_said("sin π/6", "sin(pi)", "6", "sin(pi/6)", "sin(π/6)"),
      _said("cos π/3", "cos(pi)", "3", "cos(pi/3)", "cos(π/3)")],
     "sin (π/6) + cos π/3", {}, 0.5 + math.cos(math.pi) / 3),
]


@pytest.mark.parametrize("text, reading, cautions, other, at, meant", SAID,
                         ids=[s[0] for s in SAID])
def test_a_function_of_a_number_before_a_division_is_said(text, reading, cautions, other, at,
                                                           meant):
    e = adcli.parse(text)
    assert (e.parsed, e.cautions) == (reading, cautions)
    assert other in [r.text for r in other_readings(e)]
    assert close(float(adcli.parse(other).value(**at)), meant)


@pytest.mark.parametrize("text, reading", [
    ("sin x/2", "sin(x)/2"),            # the README's row: a variable's argument
    ("sin 2x/3", "sin(2*x)/3"),
    ("sin nπx/L", "sin((n*pi)*x)/L"),
    ("sin(1)/x", "sin(1)/x"),           # a call in brackets
    ("sin (π)/6", "sin(pi)/6"),
    ("(sin π)/6", "sin(pi)/6"),
    ("√2/2", "sqrt(2)/2"),              # a root of a number: √2/2 on paper
    ("sqrt 2/2", "sqrt(2)/2"),
    ("\\sqrt2/2", "sqrt(2)/2"),
    ("∛8/x", "cbrt(8)/x"),
    ("x1/2", "x1/2"),                   # one name
    ("x^2/2 + 1/x", "((x^2)/2) + (1/x)"),
    ("2π/3", "(2*pi)/3"),
    ("sin^2(x)/2", "(sin(x)^2)/2"),
])
def test_no_caution_where_the_argument_is_no_bare_number(text, reading):
    e = adcli.parse(text)
    assert (e.parsed, e.cautions) == (reading, [])


def test_check_tries_the_argument_with_the_division_in_it():
    code, out, err = run_cli("check", "ln 1/x", "-1/x", "--format", "plain")
    assert code == 1
    assert out.splitlines() == [
        "differs from d/dx at 30 of 30 points",
        "diagnosis: f: ln 1/x is read otherwise than it was likely meant (see the warning); "
        "as ln(1/x), the expectation matches"]
    assert err == "adcli: warning: " + SAID[0][2][0] + "\n"


def test_check_says_so_of_a_function_after_a_factor():
    # d/dx x^2 cos(1/x) = 2x cos(1/x) + sin(1/x)
    code, out, _ = run_cli("check", "x^2 cos 1/x", "2x cos(1/x) + sin(1/x)", "--format",
                           "plain")
    assert code == 1
    assert ("diagnosis: f: cos 1/x is read otherwise than it was likely meant (see the "
            "warning); as cos(1/x), the expectation matches") in out.splitlines()


def test_check_tries_the_expectations_other_reading_too():
    # d/dx (x ln(1/x) + x) = ln(1/x) - 1 + 1 = ln(1/x)
    code, out, _ = run_cli("check", "x ln(1/x) + x", "ln 1/x", "--format", "plain")
    assert code == 1
    assert ("diagnosis: ln 1/x is read otherwise than it was likely meant (see the warning); "
            "as ln(1/x), the expectation matches") in out.splitlines()


def test_eval_json_carries_the_caution_and_the_value_as_read():
    code, out, err = run_cli("eval", "sin π/6", "--format", "json")
    head = strict_json(out)
    assert code == 0 and head["parsed"] == "sin(pi)/6"
    assert head["cautions"] == SAID[2][2]
    assert abs(head["points"][0]["value"] - math.sin(math.pi) / 6) < 1e-30   # ~2e-17
    assert err == "adcli: warning: " + SAID[2][2][0] + "\n"


def test_a_let_divisor_is_named_in_the_caution():
    code, out, err = run_cli("check", "ln 1/F", "-1/(x+1)", "--let", "F=x+1", "--format",
                             "plain")
    assert code == 1
    assert err == "adcli: warning: " + _said("ln 1/F", "ln(1)", "F", "ln(1/F)", "ln(1/F)") + "\n"
    assert ("diagnosis: f: ln 1/F is read otherwise than it was likely meant (see the "
            "warning); as ln(1/F), the expectation matches") in out.splitlines()


def test_a_long_text_is_searched_too():
    # past 10,000 characters the quick look is skipped: the pattern finds it alone
    text = " + ".join(["x^2/2"] * 3000) + " + cos 2π/3"
    e = adcli.parse(text)
    assert e.cautions == [_said("cos 2π/3", "cos(2*pi)", "3", "cos((2*pi)/3)", "cos(2π/3)")]
    assert other_readings(e)[0].text.endswith(" + cos (2π/3)")


@pytest.mark.parametrize("text", ["x^2/2", "x + 1/x", "sin(x)/x", "(x+1)/2", "2x/3",
                                  "x^3/3!", "2π/3", "e^x/2", "x^10/10 + a/b"])
def test_a_plain_division_is_not_searched_for_one(text):
    # (the pattern, ~1 ms to compile, stays off a plain run's path)
    assert not _may_hold_a_function_of_one(text)
