"""LaTeX as a physics student pastes it, continued (session 23, second round).

Decisions pinned here:

* The Lagrangian's ∂L/∂q̇: an accented variable (\\dot{x}, \\dot q, \\ddot{\\theta}) in a
  derivative's denominator is the name the rest of adcli reads (ẋ, q̇: NFKC as every
  name), on check's left side (\\frac{\\partial L}{\\partial \\dot{x}}, \\partial_{\\dot q} L)
  and in the diff() that a derivative fraction inside an expression points to.
* \\mathrm{Re}, \\mathit{kg}, {\\rm pH}: a name of two or more letters in upright or italic
  type is a variable of that name, without the caution of letters TeX sets apart (upright
  type is how TeX writes a quantity's name of several letters). One letter stays refused
  (\\mathrm{d}x is the differential, not a variable d), and so does \\operatorname{Re}
  (TeX's way to name a function: the real part) and \\mathrm{Re}(z), which applies a
  function adcli lacks (never Re times z).
* The caution of letters TeX sets apart proposes no product where a letter is e: R e is R
  times Euler's number, not the letters of Re. It says that, and in LaTeX \\mathrm{Re}.
* An accent on what is no one letter (\\dot{qx}, \\dot{2}) says what \\dot is read on, the
  caret on what it was given, as \\dot{\\cdot} did (never "\\dot is not read here").

Every expected value is a closed form at the point given.
"""
from __future__ import annotations

import math

import pytest

import adcli
from adcli.errors import ExpressionError
from conftest import close, run_cli, strict_json, warnings_in


# ----- ∂L/∂q̇ ---------------------------------------------------------------------------

@pytest.mark.parametrize("f, expected, variable", [
    ("\\frac{1}{2} m \\dot{x}^2", "\\frac{\\partial L}{\\partial \\dot{x}} = m \\dot{x}", "ẋ"),
    ("\\frac{1}{2} m \\dot{q}^2", "\\frac{\\partial L}{\\partial \\dot q} = m \\dot{q}", "q̇"),
    ("\\frac{1}{2} m \\dot{q}^2", "\\frac{\\partial f}{\\partial \\dot q} = m \\dot{q}", "q̇"),
    ("\\frac{1}{2} I \\dot{\\theta}^2", "\\frac{\\partial L}{\\partial \\dot{\\theta}} = I "
     "\\dot{\\theta}", "θ̇"),
    ("\\frac{1}{2} m \\dot{q}^2", "\\partial_{\\dot q} L = m \\dot{q}", "q̇"),
    ("\\frac{1}{2} I \\dot{\\theta}^2", "\\partial_{\\dot\\theta} L = I \\dot{\\theta}", "θ̇"),
])
def test_the_lagrangian_derivative_in_a_velocity_is_read_on_the_left(f, expected, variable):
    code, out, err = run_cli("check", f, expected, "--samples", "3", "--format", "json")
    assert code == 0, err
    result = strict_json(out)
    assert result["verdict"] == "matches"
    assert [c["derivative"] for c in result["checks"]] == [adcli.parse(variable).variables[0]]


def test_a_wrong_lagrangian_derivative_is_found_wrong():
    # the left side read, the right side is 2 m q̇ where ∂/∂q̇ of m q̇²/2 is m q̇
    code, out, err = run_cli("check", "\\frac{1}{2} m \\dot{q}^2",
                             "\\frac{\\partial L}{\\partial \\dot{q}} = 2 m \\dot{q}",
                             "--samples", "3", "--format", "json")
    assert code == 1, err
    assert strict_json(out)["verdict"] == "differs"


def test_a_mixed_partial_in_a_velocity_and_a_coordinate():
    # ∂²/∂q̇∂x of m q̇² x is 2 m q̇
    code, out, err = run_cli("check", "m \\dot{q}^2 x",
                             "\\frac{\\partial^2 L}{\\partial \\dot{q} \\partial x} = 2 m \\dot{q}",
                             "--samples", "3", "--format", "json")
    assert code == 0, err
    assert strict_json(out)["verdict"] == "matches"


@pytest.mark.parametrize("text, write", [
    ("\\frac{\\partial L}{\\partial \\dot{q}}", "diff(L, q̇)"),
    ("\\frac{\\partial L}{\\partial \\dot q}", "diff(L, q̇)"),
    ("x + \\frac{\\partial^2 L}{\\partial \\dot{\\theta} \\partial q}", "diff(L, q, θ̇)"),
    ("x + \\frac{d\\dot{x}}{dt}", "diff(ẋ, t)"),
])
def test_a_derivative_fraction_in_a_velocity_points_to_diff(text, write):
    code, _, err = run_cli("eval", text, "--at", "L=1,x=1")
    lines = err.splitlines()
    assert code == 2 and len(lines) == 3, err
    assert lines[0].startswith("adcli: error: ") and lines[0].split(": write ")[1] \
        .startswith(write)
    assert lines[2].index("^") == lines[1].index("\\frac")


def test_the_diff_it_points_to_is_read():
    # diff(L, q̇) of L = m q̇²/2 at m=3, q̇=2: m q̇ = 6
    code, out, err = run_cli("eval", "diff(L, \\dot{q})", "--let", "L=m q̇^2/2",
                             "--at", "m=3,q̇=2", "--format", "json")
    assert code == 0, err
    assert close(strict_json(out)["points"][0]["value"], 6.0)


# ----- \mathrm{Re}: a name of several letters in upright type ---------------------------

@pytest.mark.parametrize("text, name", [
    ("\\mathrm{Re} \\cdot x", "Re"), ("{\\rm pH} \\cdot x", "pH"),
    ("\\mathit{kg} \\cdot x", "kg"), ("\\mathrm{Re}x", "Re"), ("\\mathrm {Re} \\cdot x", "Re"),
])
def test_an_upright_name_is_the_variable_of_that_name(text, name):
    expression = adcli.parse(text)
    assert sorted(expression.variables) == sorted([name, "x"])
    assert expression.cautions == []
    code, out, err = run_cli("eval", text, "--at", f"{name}=2.5,x=3", "--format", "json")
    assert code == 0, err
    assert close(strict_json(out)["points"][0]["value"], 7.5)


def test_an_upright_name_is_the_same_variable_as_the_plain_one():
    # Re \mathrm{Re} is Re²: one variable, whichever way written; its derivative 2 Re
    code, out, err = run_cli("grad", "Re \\cdot \\mathrm{Re}", "--at", "Re=3", "--format",
                             "json")
    assert code == 0, err
    assert strict_json(out)["points"][0]["gradient"] == {"Re": 6.0}


@pytest.mark.parametrize("text, said, column", [
    ("\\mathrm{Re}(x)", "\\mathrm{Re}(...) applies a function, and adcli has no function "
     "'Re': for Re times (...), write \\mathrm{Re} \\cdot (...)", 1),
    ("x + \\mathrm{Re} + \\mathrm{Re}\\left(x\\right)", "adcli has no function 'Re'", 19),
    ("\\mathrm{sinc}(x)", "write sin(u)/u for sinc(u)", 1),
    ("\\mathrm{d}x", "LaTeX's \\mathrm{d} is not read here", 1),
    ("\\mathrm{x}", "LaTeX's \\mathrm{x} is not read here", 1),
    ("\\operatorname{Re} x", "LaTeX's \\operatorname{Re} is not read here", 1),
])
def test_what_upright_type_may_misread_is_still_refused(text, said, column):
    code, _, err = run_cli("eval", text, "--at", "x=1,Re=1")
    lines = err.splitlines()
    assert code == 2 and len(lines) == 3, err
    assert said in lines[0] and lines[0].endswith(f"(column {column})")


# ----- the caution of Re: no product with Euler's number ----------------------------------

@pytest.mark.parametrize("text, caution", [
    ("Re \\cdot x", "'Re' is one name, read as a variable, as \\mathrm{Re} writes it "
     "(R e would be R times Euler's number e)"),
    ("\\sqrt{Rex}", "'Rex' is one name, read as a variable, as \\mathrm{Rex} writes it "
     "(R e x would be R times Euler's number e times x)"),
    ("ωe + x", "'ωe' is one name, read as a variable (ω e would be ω times Euler's "
     "number e)"),
])
def test_letters_with_e_are_said_without_a_product_to_write(text, caution):
    assert adcli.parse(text).cautions == [caution]


def test_r_e_is_indeed_r_times_eulers_number():
    # why the caution proposes no "write R e": adcli reads that as R·e = 2e at R=2
    code, out, err = run_cli("eval", "R e", "--at", "R=2", "--format", "json")
    assert code == 0, err
    assert close(strict_json(out)["points"][0]["value"], 2 * 2.718281828459045)


def test_check_of_re_says_no_product():
    code, _, err = run_cli("check", "Re \\cdot x", "--samples", "3")
    assert code == 0, err
    said = warnings_in(err)
    assert any("'Re' is one name" in line for line in said) and \
        not any("write R e" in line for line in said), err


# ----- an accent on what is no one letter --------------------------------------------------

@pytest.mark.parametrize("text, accent, on", [
    ("\\dot{qx}", "dot", "qx"), ("\\dot{2}", "dot", "2"), ("x + \\hat 2", "hat", "2"),
    ("\\vec{ab} + 1", "vec", "ab"),
])
def test_an_accent_on_no_one_letter_says_what_it_is_read_on(text, accent, on):
    code, _, err = run_cli("eval", text, "--at", "q=1,x=1")
    lines = err.splitlines()
    assert code == 2 and len(lines) == 3, err
    assert lines[0].startswith(f"adcli: error: LaTeX's \\{accent} is read on a letter or a "
                               f"Greek letter, as in \\{accent}{{q}} or \\{accent}{{\\theta}}: "
                               f"not on {on} (column ")
    assert lines[2].index("^") == lines[1].index(on, lines[1].index(accent))


def test_an_accent_on_nothing_says_one_goes_after_it():
    with pytest.raises(ExpressionError, match=r"\\dot is read on a letter .*: one goes after "
                                              r"it"):
        adcli.parse("x + \\dot{}")


def test_an_upright_function_name_is_still_the_function():
    # \mathrm{sin}(x) + {\rm cos} x at x=0.5: sin 0.5 + cos 0.5, not a variable sin times x
    code, out, err = run_cli("eval", "\\mathrm{sin}(x) + {\\rm cos} x", "--at", "x=0.5",
                             "--format", "json")
    assert code == 0, err
    assert close(strict_json(out)["points"][0]["value"], math.sin(0.5) + math.cos(0.5))
