"""Session 27, the reading's regressions fixed: a glued divisor holding π split where the
grammar splits it, a braced log base before a decimal, the epsilons and phis one letter
each, a glued exponent's last power, the product hint capped, the did-you-mean kept for
names not split by TeX's space, and a scientific literal beyond float64 said so."""
import json
import math

import pytest

from conftest import run_cli


def _run(*argv):
    code, out, err = run_cli(*argv, "--format", "json")
    assert code == 0, err
    return json.loads(out)["points"][0]["value"], err


def _refused(*argv):
    code, out, err = run_cli(*argv)
    assert (code, out) == (2, "")
    assert "Traceback" not in err
    return err.splitlines()[0]


# ----- 1: π ends a name in a glued divisor, as the grammar reads it ------------------

@pytest.mark.parametrize("text, at, run, value", [
    ("q/4πε₀ r^2", "ε₀=1,q=2,r=3", "(4*pi)*ε0", 2 / (4 * math.pi * 9)),
    ("1/2πx y", "x=1,y=2", "(2*pi)*x", 1 / (2 * math.pi * 2)),
    ("1/2πω t", "ω=1,t=2", "(2*pi)*ω", 1 / (2 * math.pi * 2)),
    ("1/2ππ x", "x=1", "(2*pi)*pi", 1 / (2 * math.pi ** 2)),
    ("1/3πr^2 h", "r=1,h=2", "(3*pi)*(r^2)", 1 / (3 * math.pi * 2)),
])
def test_glued_divisor_with_pi_split_after_the_whole_run(text, at, run, value):
    got, err = _run("eval", text, "--at", at)
    assert got == pytest.approx(value, rel=1e-15)
    warning = [line for line in err.splitlines() if "binds tighter" in line]
    assert len(warning) == 1
    top = text.split("/")[0]
    assert warning[0].startswith(f"adcli: warning: {top}/({run}) ")
    assert f"write {top}/({run})*" in warning[0]


def test_check_diagnosis_names_the_glued_run_as_one_divisor():
    # f read as 1/(2πxy); -y/(2πx²) is the x-derivative of y/(2πx), the reading
    # (1/(2πx))*y: the diagnosis names that one, not (1/(2π))*x*y (derivative y/(2π))
    code, out, err = run_cli("check", "1/2πx y", "-y/(2*pi*x^2)", "--wrt", "x",
                             "--at", "x=1,y=2")
    assert code == 1
    assert "as (1/((2*pi)*x))*y, the expectation matches" in out
    assert "(1/(2*pi))*x*y" not in out + err


# ----- 2: a log's base in braces ends at the brace ------------------------------------

@pytest.mark.parametrize("text, at, value", [
    ("log_{10}.01", None, -2.0),
    ("\\log_{10}.01", None, -2.0),
    ("log_{10}.5 + 1", None, math.log10(0.5) + 1),
    ("\\log_{2}.5x", "x=4", 1.0),
])
def test_braced_log_base_then_decimal_is_read(text, at, value):
    got, _ = _run("eval", text, *(["--at", at] if at else []))
    assert got == pytest.approx(value, rel=1e-15, abs=1e-15)


@pytest.mark.parametrize("text, shown, write", [
    ("log_2.5", "for log_2.5, ", "log(...)/log(2.5)"),
    ("log_2.5 + 1", "for log_2.5, ", "log(...)/log(2.5)"),
    ("log_2.5 x", "for log_2.5 x, ", "log(x)/log(2.5)"),
    ("log_2.5(y)", "for log_2.5 y, ", "log(y)/log(2.5)"),
])
def test_unbraced_decimal_base_shows_an_argument_only_when_typed(text, shown, write):
    line = _refused("eval", text, "--at", "x=2,y=2")
    assert shown + "write " + write in line


# ----- 3: the epsilons and phis are one letter each -----------------------------------

@pytest.mark.parametrize("text, at", [
    ("\\epsilon", "ϵ=3"), ("\\varepsilon", "ε=3"), ("ϵ", "\\varepsilon=3"),
    ("\\phi", "ϕ=3"), ("\\varphi", "φ=3"), ("ϕ", "\\phi=3"), ("𝝓", "φ=3"),
    ("\\varepsilon_0", "ε_0=3"),
])
def test_epsilon_and_phi_forms_are_one_variable(text, at):
    got, _ = _run("eval", text, "--at", at)
    assert got == 3.0


def test_varphi_minus_phi_is_zero_but_vartheta_stays_its_own():
    got, _ = _run("eval", "\\varphi - \\phi + \\varepsilon - ϵ", "--at", "φ=2,ε=5")
    assert got == 0.0
    got, _ = _run("eval", "\\vartheta - \\theta", "--at", "θ=1,ϑ=3")
    assert got == 2.0


def test_varphi_meets_a_points_header_phi():
    code, out, err = run_cli("eval", "2*\\varphi", "--points", "-", "--format", "json",
                             stdin="φ\n1.5\n")
    assert code == 0, err
    assert json.loads(out)["points"][0]["value"] == 3.0


# ----- 4: a glued exponent's run takes its last factor's power -----------------------

@pytest.mark.parametrize("text, at, base, exponent", [
    ("e^-2\\alpha x^2", "α=1,x=1", "e", "-2\\alpha x^2"),
    ("e^2\\omega t^2", "ω=1,t=1", "e", "2\\omega t^2"),
    ("e^2πr^2", "r=1", "e", "2πr^2"),
])
def test_glued_exponent_warning_keeps_the_last_power(text, at, base, exponent):
    code, out, err = run_cli("eval", text, "--at", at)
    assert code == 0, err
    assert f"for {base} to the power {exponent}, write {base}^({exponent})" in err


# ----- 5: the product hint is capped ---------------------------------------------------

def test_product_hint_names_three_and_counts_the_rest():
    names = [f"q{i}" for i in range(4000)]
    line = _refused("eval", "+".join(f"{n}(x)" for n in names), "--at", "x=1")
    assert line.count("is read as") == 3
    assert "q0(...) is read as q0 times (...)" in line
    assert "q3(...)" not in line
    assert "and so on for 3997 more" in line
    assert "no functions q0, q1, q2 and 3997 more" in line


def test_product_hint_for_two_names_unchanged():
    line = _refused("eval", "A(x)+B(x)", "--at", "x=1")
    assert ("A(...) is read as A times (...) and B(...) is read as B times (...), as "
            "adcli has no functions A and B") in line
    assert "more" not in line


# ----- 6: a given name that is two missing ones keeps its did-you-mean ---------------

@pytest.mark.parametrize("text, at, hint", [
    ("xx + x", "xxx=1", "('xxx' was given: did you mean 'xx'?)"),
    ("a b", "ab=1", "'ab' was given"),
    ("Δ t", "Δt=0.1", "'Δt' was given"),
])
def test_joined_given_name_still_mentioned(text, at, hint):
    assert hint in _refused("eval", text, "--at", at)


def test_tex_space_explained_without_a_did_you_mean():
    line = _refused("eval", "x + v\\Delta t", "--at", "x=1,v=1,Δt=0.1")
    assert "'\\Delta t' is read as Δ times t" in line
    assert "did you mean" not in line


# ----- 7: a scientific literal beyond float64 is said so ------------------------------

@pytest.mark.parametrize("text, value, said", [
    ("1.5\\times10^{400}", math.inf,
     "1.5\\times10^{400} is beyond the largest float64 number (about 1.8e308): read as inf"),
    ("1.5×10^{-400}", 0.0,
     "1.5×10^{-400} is below the smallest float64 number (about 4.9e-324): read as 0"),
])
def test_scientific_literal_out_of_range_said_as_typed(text, value, said):
    code, out, err = run_cli("eval", text)
    assert code == 0, err
    assert f"adcli: warning: {said}" in err.splitlines()
