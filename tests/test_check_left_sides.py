"""How check reads the left side of an expectation written as an equation, as a student
pastes it: a derivative named at a point (f'(2) = 12), the variable f's primes name
(f'(x) for sin(a x)), \\mathrm d without braces and {\\rm d}, a chain of equalities, an
empty left side, and d/dx applied to F rewritten first (x^{-1} for 1/x).

Every derivative below is worked out by hand (noted beside it); columns of carets are
counted by hand in the text shown."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import adcli
from conftest import run_cli, run_in_pty

ROOT = Path(__file__).resolve().parent.parent


def _error(*argv: str) -> tuple[str, str, str]:
    """An error's message line, the text shown and the caret line (exit 2, nothing on
    stdout)."""
    code, out, err = run_cli("check", *argv)
    assert (code, out) == (2, ""), err
    lines = err.rstrip("\n").split("\n")
    assert len(lines) == 3, err
    return lines[0], lines[1], lines[2]


# ----- 1. a derivative named at a point --------------------------------------------------

@pytest.mark.parametrize("f, expected, said, column", [
    # (x^3)' = 3x^2, at 2 is 12: the 12 is right at 2 and nowhere else
    ("x^3", "f'(2) = 12", "f'(2) is the derivative at x = 2: write the derivative as a "
                          "formula, f'(x) = ..., and give the point with --at x=2", 4),
    ("x^3", "f'(2) = 3x^2", "f'(2) is the derivative at x = 2", 4),
    ("x^3", "f''(0) = 0", "f''(0) is the derivative at x = 0: write the derivative as a "
                          "formula, f''(x) = ..., and give the point with --at x=0", 5),
    ("sin(t)", "y'(pi/4) = sqrt(2)/2", "y'(pi/4) is the derivative at t = pi/4: write the "
                                       "derivative as a formula, y'(t) = ...", 4),
    ("x^3", "\\frac{df}{dx}(2) = 12", "\\frac{df}{dx}(2) is the derivative at x = 2: write "
                                      "the derivative as a formula, \\frac{df}{dx} = ..., "
                                      "and give the point with --at x=2", 15),
    ("x*y", "f'(1,2) = 2", "f'(1,2) is a derivative at a point: write the derivative as a "
                           "formula, ∂f/∂x = ..., and give the point with --at NAME=VALUE "
                           "for each variable", 4),
    ("x*y", "∂f/∂x(1, 2) = 2", "∂f/∂x(1, 2) is a derivative at a point", 7),
    ("x^3", "$f'(2) = 12$", "f'(2) is the derivative at x = 2", 5),
])
def test_a_derivative_at_a_point_is_an_error_that_points_to_at(f, expected, said, column):
    """f'(2) = 12 was read as f'(x) = 12 (differs at every random point), f'(2) = 3x^2 as
    f'(x) = 3x^2 (matches): the point was thrown away."""
    message, shown, caret = _error(f, expected)
    assert message.startswith(f"adcli: error: {said}")
    assert message.endswith(f"(column {column})")
    assert shown == f"  {expected}"
    assert caret == " " * (1 + column) + "^"


def test_the_advice_checks_what_was_meant():
    # (x^3)' = 3x^2, and 3 * 2^2 = 12 at x = 2: both ways the error names match
    assert run_cli("check", "x^3", "f'(x) = 3x^2", "--at", "x=2")[0] == 0
    assert run_cli("check", "x^3", "12", "--at", "x=2")[0] == 0
    with pytest.raises(adcli.AdcliError, match=re.escape("f'(2) is the derivative at x = 2")):
        adcli.check("x^3", "f'(2) = 12")


@pytest.mark.parametrize("columns", [40, 80, 120])
def test_the_point_error_on_a_terminal(columns):
    env = {k: v for k, v in os.environ.items()
           if k not in ("COLUMNS", "LINES", "PYTHONIOENCODING", "NO_COLOR", "FORCE_COLOR")}
    env.update(PYTHONUTF8="1", TERM="xterm-256color", PYTHONPATH=str(ROOT))
    code, text, _ = run_in_pty([sys.executable, "-m", "adcli", "check", "x^3", "f'(2) = 12"],
                               env, columns, rows=100, stdin=subprocess.DEVNULL)
    rows = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text).rstrip("\n").split("\n")
    assert code == 2
    assert all(len(row) <= columns for row in rows), rows
    assert " ".join(rows[:-2]).split() == (
        "adcli: error: f'(2) is the derivative at x = 2: write the derivative as a formula, "
        "f'(x) = ..., and give the point with --at x=2 (column 4)").split()
    assert rows[-2:] == ["  f'(2) = 12", "     ^"]


# ----- 2. the one name f's primes carry chooses the variable -----------------------------

@pytest.mark.parametrize("f, expected, name, order", [
    ("\\sin(a x)", "f'(x) = a\\cos(a x)", "x", 1),        # ∂/∂x sin(ax) = a cos(ax)
    ("\\sin(a x)", "f'(a) = x\\cos(a x)", "a", 1),        # ∂/∂a sin(ax) = x cos(ax)
    ("sin(k*t)", "y''(t) = -k^2 sin(k t)", "t", 2),      # ∂²/∂t² sin(kt) = -k² sin(kt)
    ("a*x^2", "f^{\\prime}(x) = 2a x", "x", 1),           # ∂/∂x ax² = 2ax
])
def test_the_name_the_primes_carry_is_the_variable_checked(f, expected, name, order):
    result = adcli.check(f, expected, order=order)
    assert result.verdict == "matches"
    assert [t.name for t in result.targets] == [name] and result.order == order


def test_a_wrong_derivative_in_the_named_variable_differs():
    # x cos(ax) is ∂/∂a, not ∂/∂x: judged in x, as f'(x) says
    assert adcli.check("\\sin(a x)", "f'(x) = x\\cos(a x)").verdict == "differs"


def test_one_name_chooses_and_several_stay_ambiguous():
    # f'(x) is ∂/∂x, a cos(ax); f'(x,a) does not say which of the two
    assert adcli.check("\\sin(a x)", "f'(x) = a\\cos(a x)").verdict == "matches"
    with pytest.raises(adcli.AdcliError, match="one expected derivative needs one variable"):
        adcli.check("\\sin(a x)", "f'(x,a) = a\\cos(a x)")


# ----- 3. \mathrm d without braces, {\rm d} ---------------------------------------------

@pytest.mark.parametrize("f, expected, order", [
    ("x^2", "\\frac{\\mathrm d y}{\\mathrm d x} = 2x", 1),             # (x²)' = 2x
    ("x^2", "\\frac{{\\rm d}y}{{\\rm d}x} = 2x", 1),
    ("x^3", "\\frac{\\mathrm d^2 y}{\\mathrm d x^2} = 6x", 2),         # (x³)'' = 6x
    ("x^3", "\\frac{{\\rm d}^2 y}{{\\rm d}x^2} = 6x", 2),
    ("x^3", "\\frac{\\mathrm d}{\\mathrm d x} x^3 = 3x^2", 1),         # (x³)' = 3x²
    ("x^3", "\\frac{{\\rm d}}{{\\rm d}x} x^3 = 3x^2", 1),
])
def test_upright_d_without_braces_is_read(f, expected, order):
    code, out, err = run_cli("check", f, expected, "--format", "json")
    assert (code, err) == (0, ""), err
    assert f'"order": {order},' in out and '"verdict": "matches"' in out


def test_upright_d_reads_the_right_side_as_the_derivative():
    # 3x is not (x²)' = 2x: the right side is what is judged
    assert adcli.check("x^2", "\\frac{\\mathrm d y}{\\mathrm d x} = 3x").verdict == "differs"


# ----- 4. a chain of equalities, an empty left side ---------------------------------------

def test_a_chain_of_equalities_is_one_error_at_the_second_equals():
    # (x² sin x)' = 2x sin x + x² cos x = x(2 sin x + x cos x): which is the expectation?
    expected = "f'(x) = 2x\\sin x + x^2\\cos x = x(2\\sin x + x\\cos x)"
    message, shown, caret = _error("x^2 \\sin x", expected)
    assert message == ("adcli: error: the expectation has more than one '=': give one "
                       "equation, f'(x) = ..., or the right-hand side alone (column 30)")
    assert caret.index("^") - 2 == 29 and shown[2 + 29] == "="


@pytest.mark.parametrize("f, named", [("x^2", "f'(x) = 2x"), ("x*y", "∂f/∂x = 2x")])
def test_an_empty_left_side_is_said_to_be_empty(f, named):
    code, out, err = run_cli("check", f, "= 2x")
    assert (code, out) == (2, "")
    assert err == ("adcli: error: the expectation's left side is empty (nothing before '='): "
                   f"give the right side alone, 2x, or name the derivative before '=', "
                   f"{named}\n")


# ----- 5. d/dx applied to F rewritten first -----------------------------------------------

@pytest.mark.parametrize("f, expected", [
    ("\\frac{1}{x}", "\\frac{d}{dx} x^{-1} = -x^{-2}"),                 # (1/x)' = -1/x²
    ("\\sqrt{x}", "\\frac{d}{dx} x^{1/2} = \\frac{1}{2} x^{-1/2}"),    # (√x)' = 1/(2√x)
    ("\\sin(2x)", "d/dx (2\\sin x\\cos x) = 2\\cos(2x)"),               # sin 2x = 2 sin x cos x
    ("sin(x)^2", "d/dx (1 - cos(x)^2) = 2 sin(x) cos(x)"),             # sin² = 1 - cos²
])
def test_f_rewritten_before_differentiating_is_f(f, expected):
    code, out, err = run_cli("check", f, expected, "--format", "json")
    assert (code, err) == (0, ""), err
    assert '"verdict": "matches"' in out


def test_f_rewritten_still_has_its_right_side_judged():
    # -(1/x)' is 1/x², not -1/x²: the rewriting accepted, the slip still found
    assert adcli.check("\\frac{1}{x}", "\\frac{d}{dx} x^{-1} = x^{-2}").verdict == "differs"


@pytest.mark.parametrize("f, same, other, operand", [
    # 1/x is x^{-1}, and not x^{-2}: (x^{-2})' = -2x^{-3}
    ("\\frac{1}{x}", "\\frac{d}{dx} x^{-1} = -x^{-2}", "\\frac{d}{dx} x^{-2} = -2x^{-3}",
     "x^{-2}"),
    # x^2 is x·x, and not x^2 + 1e-7 (off by a constant: the same derivative, 2x)
    ("x^2", "d/dx (x x) = 2x", "d/dx (x^2 + 1e-7) = 2x", "(x^2 + 1e-7)"),
    # sin 2x = 2 sin x cos x, and not sin x cos x
    ("sin(2x)", "d/dx (2 sin x cos x) = 2cos(2x)", "d/dx (sin x cos x) = 2cos(2x)",
     "(sin x cos x)"),
])
def test_f_rewritten_is_compared_as_a_function(f, same, other, operand):
    assert adcli.check(f, same).verdict == "matches"
    with pytest.raises(adcli.AdcliError, match=re.escape(f"differentiates {operand}, not {f}")):
        adcli.check(f, other)


def test_an_equation_given_alone_with_a_chain_of_equalities_is_one_error_at_the_second():
    code, out, err = run_cli("check", "d/dx (x^2) = 2x = 2x")
    assert (code, out) == (2, ""), err
    lines = err.splitlines()
    assert lines[0] == ("adcli: error: the equation has more than one '=': give one, d/dx (F) "
                        "= ..., or F and the right-hand side apart (column 17)"), err
    assert lines[2].index("^") - 2 == 16     # under the second '=' (the text is indented 2)
