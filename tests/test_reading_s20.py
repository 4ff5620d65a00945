"""Readings students typing maths as on paper tripped on (session 20):

* √ or ∛ before a number and a space (√2 x) reads sqrt(2*x), as sin 2 x is sin(2*x), while
  on paper √2 x is √2·x (and TeX's \\sqrt2 x is sqrt(2)*x): a caution says so and how to
  write the other, which check then tries; 1/√2 x is a spaced divisor as 1/\\sqrt2 x is;
* a relation where '=' was meant (f'(x) ≈ 2x, y' \\Rightarrow 2x) is named in the error,
  which says to write '=', never blaming the prime before it;
* a variable glued to a function's name (xsin in e^xsin x) suggests a whole product with
  the function's argument, never "write x sin".

Every expected value is a hand closed form at the point given.
"""
from __future__ import annotations

import math

import pytest

import adcli
from adcli.errors import ExpressionError
from conftest import close, run_cli


def _refusal(text: str) -> ExpressionError:
    with pytest.raises(ExpressionError) as info:
        adcli.parse(text)
    return info.value


def _wide(written: str, reading: str, meant: str, fix: str) -> str:
    return (f"{written}: a function written without parentheses takes every factor after it, "
            f"so this is {reading}; for {meant}, write {fix}")


# ----- 1. √ before a number and a space ---------------------------------------------------

SPACED_ROOTS = [
    # (text, reading, the caution)
    ("√2 x", "sqrt(2*x)", _wide("√2 x", "sqrt(2*x)", "sqrt(2)*x", "√(2) x")),
    ("√3 x/2", "sqrt(3*x)/2", _wide("√3 x", "sqrt(3*x)", "sqrt(3)*x", "√(3) x")),
    ("√2 e^x", "sqrt(2*(e^x))", _wide("√2 e^x", "sqrt(2*(e^x))", "sqrt(2)*e^x", "√(2) e^x")),
    ("√ 2 x", "sqrt(2*x)", _wide("√ 2 x", "sqrt(2*x)", "sqrt(2)*x", "√(2) x")),
    ("∛8 x", "cbrt(8*x)", _wide("∛8 x", "cbrt(8*x)", "cbrt(8)*x", "∛(8) x")),
    ("√2.5 x", "sqrt(2.5*x)", _wide("√2.5 x", "sqrt(2.5*x)", "sqrt(2.5)*x", "√(2.5) x")),
]


@pytest.mark.parametrize("text, reading, caution", SPACED_ROOTS,
                         ids=[t for t, _, _ in SPACED_ROOTS])
def test_a_root_of_a_number_then_a_space_is_said(text, reading, caution):
    e = adcli.parse(text)
    assert e.parsed == reading
    assert e.cautions == [caution]


@pytest.mark.parametrize("text, reading", [
    ("√2x", "sqrt(2*x)"),           # no space: one argument, as sin 2x is
    ("√2·x", "sqrt(2)*x"),
    ("√2 sin x", "sqrt(2)*sin(x)"),
    ("\\sqrt2 x", "sqrt(2)*x"),
    ("√(2) x", "sqrt(2)*x"),
])
def test_a_root_without_that_space_says_nothing(text, reading):
    e = adcli.parse(text)
    assert (e.parsed, e.cautions) == (reading, [])


def test_the_root_caution_is_on_stderr_with_the_value_as_read():
    code, out, err = run_cli("eval", "√2 x", "--at", "x=0.5", "--format", "plain")
    assert code == 0 and close(float(out), 1.0)     # sqrt(2*0.5)
    assert err == "adcli: warning: " + SPACED_ROOTS[0][2] + "\n"


def test_check_tries_the_root_of_the_number_alone():
    # d/dx sqrt(2) x^2/2 = sqrt(2) x: what √2 x means on paper
    code, out, err = run_cli("check", "sqrt(2) x^2/2", "√2 x")
    assert code == 1
    assert ("diagnosis: √2 x is read otherwise than it was likely meant (see the warning); "
            "as sqrt(2)*x, the expectation matches") in out


def test_a_root_after_a_divisor_is_said_as_a_spaced_divisor():
    # 1/√(2) x is 1/(sqrt(2) x), as 1/\sqrt2 x and 1/sqrt(2) x are, and said so
    e = adcli.parse("1/√(2) x")
    assert e.parsed == "1/(sqrt(2)*x)"
    assert e.cautions == ["1/sqrt(2) x: a product written side by side binds tighter than "
                          "'/', so this divides by sqrt(2)*x; for (1/sqrt(2))*x, write "
                          "1/sqrt(2)*x"]
    assert close(e.value({"x": 0.5}), 1 / (math.sqrt(2) * 0.5))


# ----- 2. a relation where '=' was meant -----------------------------------------------------

RELATIONS = [
    # (text, what is named, its column (0-based), the text with '=')
    ("f'(x) \\approx 2x", "LaTeX's \\approx", 6, "f'(x) = 2x"),
    ("f'(x) ≈ 2x", "'≈'", 6, "f'(x) = 2x"),
    ("f'(x) \\equiv 2x", "LaTeX's \\equiv", 6, "f'(x) = 2x"),
    ("f'(x) → 2x", "'→'", 6, "f'(x) = 2x"),
    ("y' \\Rightarrow 2x", "LaTeX's \\Rightarrow", 3, "y' = 2x"),
    ("\\frac{dy}{dx} \\approx 2x", "LaTeX's \\approx", 14, "\\frac{dy}{dx} = 2x"),
    ("dy/dx ≈ 2x", "'≈'", 6, "dy/dx = 2x"),
]


@pytest.mark.parametrize("text, named, column, equation", RELATIONS,
                         ids=[t for t, *_ in RELATIONS])
def test_a_relation_is_named_with_the_caret_on_it(text, named, column, equation):
    error = _refusal(text)
    assert error.message == f"{named} is not read: for an equation, write '=' in its place, " \
        f"as in {equation}"
    assert error.position == column


def test_check_names_the_relation_not_the_prime():
    code, out, err = run_cli("check", "x^2", "f'(x) ≈ 2x")
    assert code == 2 and out == ""
    assert err.splitlines()[0] == ("adcli: error: the expected d/dx: '≈' is not read: for an "
                                   "equation, write '=' in its place, as in f'(x) = 2x "
                                   "(column 7)")
    assert "prime" not in err


def test_a_long_text_is_not_repeated_with_its_relation():
    text = "f'(x) ≈ " + " + ".join(f"x^{k}" for k in range(20))
    assert _refusal(text).message == "'≈' is not read: for an equation, write '=' in its place"


def test_a_prime_without_a_relation_keeps_its_own_error():
    assert _refusal("f'(x) + 1").message.startswith("a prime (') is not a derivative here")


# ----- 4. a variable glued to a function's name ----------------------------------------------

@pytest.mark.parametrize("text, name, said", [
    ("e^xsin x", "xsin", "for the function, write x sin and its argument, as in x sin x, "
                         "read as x*sin(x)"),
    ("xln x", "xln", "for the function, write x ln and its argument, as in x ln x, read as "
                     "x*ln(x)"),
    ("tsin t", "tsin", "for the function, write t sin and its argument, as in t sin t, "
                       "read as t*sin(t)"),
    ("xsincos x", "xsincos", "for the functions, write x sin cos and its argument, as in x "
                             "sin cos x, read as x*sin(cos(x))"),
])
def test_a_name_ending_in_a_function_suggests_a_whole_product(text, name, said):
    at = "t=1" if "t" in text else "x=1"
    code, out, err = run_cli("eval", text, "--at", at)
    assert code == 2
    assert err == f"adcli: error: no value given for {name}: add --at {name}=... ('{name}' is " \
        f"one name; {said})\n"


def test_the_suggested_product_reads_as_said():
    # x sin x as suggested for xsin: x*sin(x), at x = 0.5
    assert adcli.parse("x sin x").parsed == "x*sin(x)"
    assert close(adcli.parse("e^x sin x").value({"x": 0.5}), math.exp(0.5) * math.sin(0.5))


@pytest.mark.parametrize("text, name, before, function, column", [
    ("xsin(x)", "xsin", "x", "sin", 1), ("2xcos(x)", "xcos", "x", "cos", 2),
    ("e^xsin(x) + 1", "xsin", "x", "sin", 3), ("xexp(x)", "xexp", "x", "exp", 1),
    ("xsinh(x)", "xsinh", "x", "sinh", 1)])
def test_a_short_name_run_into_a_called_function_is_said(text, name, before, function,
                                                        column):
    # (it said "if 'xsin' is a variable, write xsin*(...)": x sin(x) was meant)
    code, out, err = run_cli("eval", text, "--at", "x=1")
    assert (code, out) == (2, "")
    assert err.splitlines()[0] == (
        f"adcli: error: unknown function '{name}': '{name}' is one name; for {before} times "
        f"{function}, write {before} {function}(...) or {before}*{function}(...) "
        f"(column {column})")


def test_a_long_unknown_name_is_still_a_variable_or_a_slip():
    code, _, err = run_cli("eval", "foo(x)", "--at", "x=1")
    assert code == 2
    assert err.splitlines()[0] == ("adcli: error: unknown function 'foo'; if 'foo' is a "
                                   "variable, write foo*(...) (column 1)")
