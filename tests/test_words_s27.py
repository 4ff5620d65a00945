"""LaTeX and Unicode maths as a physicist pastes it (session 27, helper "words").

A command glued to letters is another command to TeX (\\lefty, \\cdotx, \\bigcap): refused,
never read as a shorter command and letters. The variant Greek letters are letters of their
own (\\theta - \\vartheta is not 0). An equation with a LaTeX left side gets the "not an
equation" help. A missing name written before "(" is said to be read as a product. Every
value here is worked out by hand.
"""
from __future__ import annotations

import pytest

import adcli
from adcli.errors import ValuesError, closest, no_value_for
from conftest import run_cli

_TEX_READ = ("write the expression itself (\\frac{a}{b}, \\sqrt{x}, \\cdot, \\sin and the "
             "Greek letters are read)")


def _error(*argv: str) -> str:
    code, out, err = run_cli(*argv)
    assert (code, out) == (2, "")
    assert "Traceback" not in err
    return err.splitlines()[0]


def _csv(out: str) -> dict[str, float]:
    header, row = out.strip().splitlines()
    return dict(zip(header.split(","), map(float, row.split(","))))


# ----- 1. a command glued to letters -----------------------------------------------------

@pytest.mark.parametrize("text, command, column", [
    ("\\lefty x", "\\lefty", 1),                    # was y*x
    ("\\displaystylex", "\\displaystylex", 1),      # was x
    ("2\\cdotx", "\\cdotx", 2),                     # was 2*x
    ("2\\timesx", "\\timesx", 2),
    ("2\\divx", "\\divx", 2),
    ("x \\leftrightarrow y", "\\leftrightarrow", 3),    # was "no value given for rightarrow"
    ("\\bigcap x", "\\bigcap", 1),                  # was "no value given for cap"
    ("\\bigm| x", "\\bigm", 1),
    ("x \\biggerx", "\\biggerx", 3),
    ("1 + x + \\cdots", "\\cdots", 9),
    ("\\sqrtx", "\\sqrtx", 1),                      # was sqrt(x)
    ("\\fracab", "\\fracab", 1),
    ("\\sqrt\\lefty", "\\lefty", 6),                # a command's one-token argument
    ("\\frac\\cdotx2", "\\cdotx", 6),
])
def test_a_command_glued_to_letters_is_refused(text, command, column):
    assert _error("eval", text, "--at", "x=1,y=2,a=1,b=1") == (
        f"adcli: error: LaTeX's {command} is not read here: {_TEX_READ} (column {column})")


def test_the_commands_themselves_are_still_read():
    # \bigl( x \bigr) + \Biggl( x \Biggr) \cdot \left( x \right) \frac12 \sqrt{x} at x = 4:
    # 4 + 4*4*(1/2)*2 = 20; \lvert -4 \rvert = 4; 2\times 3\div 4 = 1.5
    code, out, err = run_cli(
        "eval", "\\bigl(x\\bigr) + \\Biggl(x\\Biggr) \\cdot \\left(x\\right)\\,\\displaystyle "
        "\\frac12 \\sqrt{x} + \\lvert -x \\rvert + 2\\times 3\\div x", "--at", "x=4",
        "--format", "plain")
    assert (code, out, err) == (0, "25.5\n", "")


def test_bigg_and_biggl_are_sizes_not_glued():
    # \biggl( x \biggr) \bigg( x \bigg) at x = 3: 9
    code, out, err = run_cli("eval", "\\biggl(x\\biggr) \\bigg(x\\bigg)", "--at", "x=3",
                             "--format", "plain")
    assert (code, out, err) == (0, "9.0\n", "")


# ----- 2. the variant letters -------------------------------------------------------------

@pytest.mark.parametrize("text, values, expected", [
    ("\\rho - \\varrho", "ρ=1,ϱ=2", -1.0),
    ("\\theta - \\vartheta", "θ=1,ϑ=3", -2.0),
    # (not the epsilons and phis: one symbol each, however written; test_readfix_s27)
    ("\\kappa - \\varkappa", "κ=2,ϰ=7", -5.0),
    ("\\sigma - \\varsigma", "σ=3,ς=1", 2.0),
    ("\\upsilon - \\Upsilon", "υ=1,Υ=10", -9.0),
    ("\\hbar\\omega", "ħ=2,ω=3", 6.0),
    ("\\ell^2 - l", "ℓ=3,l=1", 8.0),
])
def test_a_variant_letter_is_a_letter_of_its_own(text, values, expected):
    code, out, err = run_cli("eval", text, "--at", values, "--format", "plain")
    assert (code, err) == (0, "")
    assert float(out) == expected


def test_a_variant_typed_and_in_latex_is_one_variable():
    # ϑ typed, 𝜗 pasted (math italic) and \vartheta: one variable; 3ϑ at ϑ=2 is 6, d/dϑ 3
    code, out, err = run_cli("grad", "ϑ + 𝜗 + \\vartheta", "--at", "ϑ=2", "--format", "csv")
    assert (code, err) == (0, "")
    assert _csv(out) == {"ϑ": 2.0, "f": 6.0, "df/dϑ": 3.0}
    assert list(adcli.parse("\\theta + ϑ").variables) == ["θ", "ϑ"]


def test_varpi_is_pi_as_the_typed_letter_is():
    code, out, err = run_cli("eval", "\\varpi - ϖ", "--format", "plain")
    assert (code, out, err) == (0, "0.0\n", "")


def test_theta_given_for_vartheta_gets_a_did_you_mean():
    assert _error("eval", "\\vartheta + 1", "--at", "θ=1") == (
        "adcli: error: no value given for ϑ: add --at ϑ=... ('θ' was given: did you mean "
        "'ϑ'?)")


# ----- 3. an equation with a LaTeX left side ------------------------------------------------

@pytest.mark.parametrize("text, right, left, column", [
    ("\\gamma = \\frac{1}{\\sqrt{1-v^2/c^2}}", "\\frac{1}{\\sqrt{1-v^2/c^2}}", "\\gamma =", 8),
    ("B_{\\lambda} = 1/T", "1/T", "B_{\\lambda} =", 13),
    ("\\mathrm{KE} = x", "x", "\\mathrm{KE} =", 13),
    ("\\gamma(v) = v", "v", "\\gamma(v) =", 11),
    ("B_\\lambda(\\lambda, T) = 1/T", "1/T", "B_\\lambda(\\lambda, T) =", 23),  # was at ','
    ("$\\gamma = x$", "x", "\\gamma =", 9),
])
def test_an_equation_with_a_latex_left_side(text, right, left, column):
    assert _error("eval", text, "--at", "v=0.6,c=1,T=1,x=1") == (
        f"adcli: error: an expression is wanted, not an equation: give the right-hand side "
        f"alone, '{right}', without '{left}' (column {column})")


# ----- 4. a name before "(" --------------------------------------------------------------

@pytest.mark.parametrize("text, name, known", [
    ("\\Gamma(a+b)", "Γ", "the gamma function"),
    ("J_0(x)", "J_0", "a Bessel function"),
    ("J_{0}\\left(x\\right)", "J_0", "a Bessel function"),
    ("\\zeta(x)", "ζ", "the zeta function"),
])
def test_a_missing_name_before_a_parenthesis_is_said_to_be_a_product(text, name, known):
    assert _error("eval", text, "--at", "a=1,b=1,x=1") == (
        f"adcli: error: no value given for {name}: {name}(...) is read as {name} times (...), "
        f"as adcli has no function {name} ({known} is not among its functions: the README "
        f"lists them under 'The expression language'); for that product, add --at {name}=...")


def test_a_name_not_before_a_parenthesis_keeps_the_plain_message():
    assert _error("eval", "\\Gamma + x", "--at", "x=1") == (
        "adcli: error: no value given for Γ: add --at Γ=...")


def test_the_api_says_the_product_too():
    with pytest.raises(ValuesError, match=r"^no value given for Γ: Γ\(\.\.\.\) is read as Γ "
                                          r"times \(\.\.\.\)"):
        adcli.parse("\\Gamma(a+b)").value(a=1, b=1)


# ----- 5. \Delta t for Δt -----------------------------------------------------------------

def test_a_command_and_a_name_apart_are_said_to_be_two_names():
    # (the CLI passes the given names once /tmp/s27/words_other_files.diff is applied)
    error = no_value_for(["Δ", "t"], [], texts=["x + v\\Delta t"], given=["x", "v", "Δt"])
    assert str(error) == (
        "no value given for Δ and t: '\\Delta t' is read as Δ times t, as TeX ends the "
        "command at the space: for the one name Δt, write Δt; for that product, add --at "
        "Δ=...,t=...")
    with pytest.raises(ValuesError, match="'\\\\Delta t' is read as Δ times t"), \
            pytest.warns(adcli.AdcliWarning, match="a value was given for 'Δt'"):
        adcli.parse("x + v\\Delta t").value(at={"x": 1, "v": 2, "Δt": 0.1})


def test_two_names_run_together_are_no_slip_of_one():
    # (closest still offers a near name for two names joined, 'xx' for 'xxx' among xx and
    # x: the did-you-mean is dropped only where TeX's space is explained; test_readfix_s27)
    assert closest("xx", ["x"]) == "x"              # a key pressed twice: still a slip
    assert _error("eval", "x + v\\Delta t", "--at", "x=1,v=2,Δt=0.1").startswith(
        "adcli: error: no value given for Δ and t")
    assert "did you mean" not in _error("eval", "x + v\\Delta t", "--at", "x=1,v=2,Δt=0.1")


# ----- 6. a subscript digit is no factor --------------------------------------------------

@pytest.mark.parametrize("text, name", [("ω₀² − ω²", "ω0"), ("x₁ + x", "x1")])
def test_a_subscript_digit_gets_no_times_hint(text, name):
    assert _error("eval", text, "--at", "ω=1,x=1") == (
        f"adcli: error: no value given for {name}: add --at {name}=...")


def test_a_plain_digit_keeps_its_times_hint():
    assert _error("eval", "x1 + x", "--at", "x=1") == (
        "adcli: error: no value given for x1: add --at x1=... ('x1' is one name; for x times "
        "1 write x*1 or 1x)")
