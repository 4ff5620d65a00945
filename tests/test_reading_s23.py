"""LaTeX as a physics student pastes it (session 23).

Decisions pinned here:

* Letters TeX sets apart: a name of two or three letters (no digits, no subscript), not
  a Greek letter spelled out (mu, rho, phi), nor a differential (d, δ, Δ or ∂ and one
  letter: dt, Δx), is read as one variable as before, with a caution where it would be
  typeset as a product: in a text with a LaTeX command (\\sin(kx) is sin(k·x) in TeX), in
  one pasted from typeset maths (𝑘𝑥), or with a Greek letter among its letters (ωt, ħω).
  Plain ASCII (sin(kx)) keeps the documented rule without a word; a name given a value
  (--at kx=...) is meant as one; a name made of the text's other variables (kx beside k
  and x) is said by check's and grad's own words, not twice.
* \\dot{q}, \\dot q, \\ddot{\\theta}, \\hat, \\bar, \\tilde, \\vec on one letter or Greek letter
  (a subscript inside the braces or after them) are the names Unicode spells with the
  combining mark (q̇ is q and U+0307, NFKC as every name), so --at q̇=2 and --at ẋ=2 meet
  them. Anything else under an accent is refused.
* \\frac{\\partial V}{\\partial q}, \\frac{dV}{dq}, \\frac{d}{dx} inside an expression (a text
  with no '=': an equation's left side is check's to read) are refused with the diff() to
  write, the caret on \\frac.

Every expected value is a closed form at the point given.
"""
from __future__ import annotations

import math

import pytest

import adcli
from conftest import close, run_cli, strict_json, warnings_in

KX = "'kx' is one name, read as a variable; for k times x, write k x"


# ----- letters TeX sets apart -----------------------------------------------------------

def test_kx_in_latex_is_said_though_the_check_passes_as_read():
    code, _, err = run_cli("check", "\\sin(kx)", "\\cos(kx)")
    assert code == 0 and f"adcli: warning: {KX}" in warnings_in(err)


@pytest.mark.parametrize("text, name, write", [
    ("\\frac{mv^2}{2}", "mv", "for m times v, write m v"),
    ("\\sin(xyz)", "xyz", "for x times y times z, write x y z"),
    ("\\frac{ab}{c}", "ab", "for a times b, write a b"),
    ("sin ωt", "ωt", "for ω times t, write ω t"),          # Greek and Latin glued: no TeX
    ("ħω", "ħω", "for ħ times ω, write ħ ω"),
    ("𝑘𝑥", "kx", "for k times x, write k x"),                 # pasted from typeset maths
])
def test_letters_typeset_apart_are_said(text, name, write):
    assert adcli.parse(text).cautions == [f"'{name}' is one name, read as a variable; {write}"]


@pytest.mark.parametrize("text", [
    "sin(kx)",                                 # plain ASCII: the documented rule, unsaid
    "\\sin(k x) + \\sin(\\omega t)",
    "\\sqrt{x + mu + rho + phi + eta + dt + dx + x1 + v_0 + wxyz}",
    "\\Delta t + \\delta q + Δx + δq",
])
def test_ordinary_names_are_not_said(text):
    assert adcli.parse(text).cautions == []


def test_kx_beside_k_and_x_is_left_to_checks_own_words():
    assert adcli.parse("\\sin(kx) + k x").cautions == []
    code, _, err = run_cli("check", "\\sin(kx) + k x", "k", "--wrt", "x",
                           "--at", "k=0.5")
    assert "adcli: warning: 'kx' is one name; for k times x write k*x" in warnings_in(err)
    assert not any(KX in w for w in warnings_in(err))


def test_a_name_given_a_value_is_meant_as_one():
    code, out, err = run_cli("grad", "\\sin(kx)", "--at", "kx=0.5", "--format", "json")
    point = strict_json(out)["points"][0]
    assert code == 0 and warnings_in(err) == []
    assert close(point["value"], math.sin(0.5)) and close(point["gradient"]["kx"], math.cos(0.5))


def test_the_written_product_is_read_as_advised():
    code, out, _ = run_cli("grad", "\\sin(k x)", "--at", "k=2,x=0.5", "--format", "json")
    gradient = strict_json(out)["points"][0]["gradient"]
    assert code == 0 and close(gradient["k"], 0.5 * math.cos(1.0)) \
        and close(gradient["x"], 2 * math.cos(1.0))


# ----- accents --------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["\\frac12 m \\dot{q}^2", "\\frac12 m \\dot q^2",
                                  "\\frac{1}{2} m \\dot{q}^{2}", "\\frac12 m q̇^2"])
def test_dot_is_the_unicode_name(text):
    code, out, err = run_cli("grad", text, "--at", "m=1.5,q̇=2", "--format", "json")
    assert code == 0, err
    point = strict_json(out)["points"][0]
    assert close(point["value"], 3.0) and point["gradient"] == {"m": 2.0, "q̇": 3.0}


@pytest.mark.parametrize("text, unicode", [
    ("\\dot{x}", "ẋ"), ("\\ddot{x}", "ẍ"), ("\\ddot q", "q\u0308"),
    ("\\dot{\\theta}", "θ\u0307"), ("\\dot\\theta", "θ\u0307"), ("\\hat{x}_1", "x\u0302_1"),
    ("\\dot{q_1}", "q\u0307_1"), ("\\dot{q}_{1}", "q\u0307_1"), ("\\bar{x}", "x\u0304"),
    ("\\tilde{p}", "p\u0303"), ("\\vec{r}", "r\u20d7"),
])
def test_accents_name_what_unicode_spells(text, unicode):
    assert adcli.parse(text).variables == adcli.parse(unicode).variables


def test_a_precomposed_name_given_a_value_meets_the_accent():
    code, out, err = run_cli("grad", "\\ddot{x} \\dot{x}^3", "--at", "ẍ=2,ẋ=0.5",
                             "--format", "json")
    assert code == 0, err
    gradient = strict_json(out)["points"][0]["gradient"]
    assert gradient == {"ẍ": 0.125, "ẋ": 1.5}      # x'^3 and 3 x'' x'^2


def test_an_accent_on_a_command_that_is_no_letter_is_refused():
    code, _, err = run_cli("grad", "x + \\dot{\\cdot}", "--at", "x=1")
    lines = err.splitlines()
    assert code == 2 and lines[0].startswith("adcli: error: LaTeX's \\dot is read on a letter")
    assert lines[2].index("^") == lines[1].index("\\cdot")


# ----- derivatives written as fractions ----------------------------------------------------

@pytest.mark.parametrize("text, write", [
    ("-\\frac{\\partial V}{\\partial q}", "diff(V, q)"),
    ("-\\frac{dV}{dq}", "diff(V, q)"),
    ("-\\frac{d V}{d q}", "diff(V, q)"),
    ("x + \\frac{\\partial^2 V}{\\partial q^2}", "diff(V, q, q)"),
    ("x + \\dfrac{\\partial^2 V}{\\partial x \\partial y}", "diff(V, y, x)"),
    ("x + \\frac{d^2\\theta}{dt^2}", "diff(θ, t, t)"),
    ("x + \\frac{\\partial}{\\partial x}(x^2)", "diff(f, x) for the derivative of f"),
])
def test_a_derivative_fraction_points_to_diff(text, write):
    code, _, err = run_cli("grad", text, "--at", "V=1,q=2,x=1")
    lines = err.splitlines()
    assert code == 2 and len(lines) == 3
    assert lines[0].startswith("adcli: error: ") and lines[0].split(": write ")[1] \
        .startswith(write)
    assert lines[2].index("^") == lines[1].index("\\") and "frac" in lines[1]


def test_the_expectation_right_side_points_to_diff():
    code, _, err = run_cli("check", "\\frac12 k q^2",
                           "\\frac{\\partial f}{\\partial q} = -\\frac{\\partial V}{\\partial q}")
    assert code == 2 and "write diff(V, q)" in err.splitlines()[0]


def test_what_it_says_to_write_is_read():
    code, out, err = run_cli("eval", "-diff(V, q)", "--let", "V=k q^2/2", "--at", "k=3,q=2",
                             "--format", "json")
    assert code == 0, err
    assert strict_json(out)["points"][0]["value"] == -6.0


@pytest.mark.parametrize("expected", ["\\frac{d}{dx} x^2 = 2x", "\\frac{dy}{dx} = 2x",
                                      "\\frac{\\partial f}{\\partial x} = 2x"])
def test_an_equation_left_side_is_still_read(expected):
    code, out, err = run_cli("check", "x^2", expected, "--format", "json")
    assert code == 0, err
    assert strict_json(out)["verdict"] == "matches"


def test_check_says_a_caution_of_both_sides_once():
    # f and the expectation both hold kx: one caution, not the same line twice
    code, _, err = run_cli("check", "\\sin(kx)", "\\cos(kx)", "--samples", "3")
    assert code == 0 and err.count("'kx' is one name") == 1, err


@pytest.mark.parametrize("given", [("--at", "kx=1"), ("--wrt", "kx"), ("--domain", "kx=0:1"),
                                   ("--expect", "kx=\\cos(kx)")])
def test_check_takes_a_name_given_a_value_or_span_as_meant(given):
    # grad and eval leave the caution out for a name given a value: check likewise
    code, _, err = run_cli("check", "\\sin(kx)", *given, "--samples", "3")
    assert code == 0 and "one name" not in err, err
