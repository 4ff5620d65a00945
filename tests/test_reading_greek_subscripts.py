"""LaTeX's Greek letters in subscripts: x_\\alpha and x_{\\alpha} are the variable x_α.

TeX's subscript without braces takes one token, and \\alpha is one token: x_\\alpha is x
with the subscript α, as x_{a} is x_a, never x_ times α. So is a logarithm's base:
log_\\pi x, log_{\\pi} x and \\log_\\pi x are log(x)/log(pi), \\log_{\\theta} x is
log(x)/log(θ). A command in a subscript that is no Greek letter is refused, naming it.

Every expected reading, value and derivative here was worked out by hand.
"""
from __future__ import annotations

import math

import pytest

import adcli
from adcli.errors import ExpressionError
from conftest import run_cli

READINGS = [
    ("x_\\alpha", "x_α"),
    ("x_{\\alpha}", "x_α"),
    ("w_\\lambda + 1", "w_λ + 1"),
    ("x_\\alpha y", "x_α*y"),
    ("x_\\alpha^2", "x_α^2"),
    ("x_{\\alpha}^{2}", "x_α^2"),
    ("2x_\\alpha", "2*x_α"),
    ("\\alpha_\\beta", "α_β"),
    ("\\alpha_{\\beta} x", "α_β*x"),
    ("x_\\Omega", "x_Ω"),
    ("x_\\varepsilon + x_\\epsilon", "x_ε + x_ε"),      # one letter, written either way
    ("x_\\alpha + x_α", "x_α + x_α"),                   # one variable
    ("x_{\\alpha}y_{\\beta}", "x_α*y_β"),                # the name ends at the brace
    ("\\sin x_\\alpha", "sin(x_α)"),
    ("x_\\alpha(y+1)", "x_α*(y + 1)"),
    # a logarithm's base
    ("log_\\pi x", "log(x)/log(pi)"),
    ("log_{\\pi} x", "log(x)/log(pi)"),
    ("\\log_\\pi x", "log(x)/log(pi)"),
    ("\\log_{\\pi} x", "log(x)/log(pi)"),
    ("log_\\pi(x)", "log(x)/log(pi)"),
    ("\\log_{\\theta} x", "log(x)/log(θ)"),
    ("\\log_\\theta x + θ", "(log(x)/log(θ)) + θ"),
]


@pytest.mark.parametrize("written, reading", READINGS, ids=[w for w, _ in READINGS])
def test_reading(written, reading):
    assert adcli.parse(written).parsed == reading


def test_the_variable_is_named_with_the_greek_letter():
    assert list(adcli.parse("x_\\alpha y").variables) == ["x_α", "y"]
    assert list(adcli.parse("\\log_{\\theta} x").variables) == ["x", "θ"]
    assert list(adcli.parse("log_\\pi x").variables) == ["x"]   # pi is the constant


def _csv(out: str) -> dict[str, float]:
    header, row = out.strip().splitlines()
    return dict(zip(header.split(","), map(float, row.split(","))))


def test_value_and_derivative_of_a_greek_subscripted_variable():
    # x_α^2 y at x_α=3, y=5: 45; d/dx_α = 2 x_α y = 30, d/dy = x_α^2 = 9.
    code, out, err = run_cli("grad", "x_\\alpha^2 y", "--at", "x_α=3,y=5", "--format", "csv")
    assert (code, err) == (0, "")
    assert _csv(out) == {"x_α": 3.0, "y": 5.0, "f": 45.0, "df/dx_α": 30.0, "df/dy": 9.0}


def test_the_cli_reads_w_lambda_as_one_variable():
    # was: "no value given for w_ and λ" (w_λ given)
    code, out, err = run_cli("eval", "w_\\lambda + 1", "--at", "w_λ=1", "--format", "plain")
    assert (code, out, err) == (0, "2.0\n", "")


def test_second_derivative_in_a_braced_greek_subscript():
    # x_α^3 at x_α=2: d²/dx_α² = 6 x_α = 12.
    f = adcli.parse("x_{\\alpha}^3")
    assert float(f.derivative("x_α", order=2, at={"x_α": 2.0})) == 12.0


def test_log_base_pi_value_and_derivative():
    # log_π x at x=5: ln 5/ln π; d/dx = 1/(x ln π).
    f = adcli.parse("\\log_\\pi x")
    assert math.isclose(float(f.value(x=5.0)), math.log(5) / math.log(math.pi), rel_tol=1e-15)
    assert math.isclose(float(f.grad(x=5.0)["x"]), 1 / (5 * math.log(math.pi)),
                        rel_tol=1e-15)


def test_log_with_a_greek_variable_base_is_differentiable_in_the_base():
    # log_θ x at x=8, θ=2: ln 8/ln 2 = 3; d/dx = 1/(x ln θ) = 1/(8 ln 2);
    # d/dθ = -ln x/(θ ln²θ) = -3 ln 2/(2 ln²2) = -3/(2 ln 2).
    code, out, err = run_cli("grad", "\\log_{\\theta} x", "--at", "x=8,θ=2", "--format", "csv")
    assert (code, err) == (0, "")
    got = _csv(out)
    assert math.isclose(got["f"], 3.0, rel_tol=1e-15)
    assert math.isclose(got["df/dx"], 1 / (8 * math.log(2)), rel_tol=1e-15)
    assert math.isclose(got["df/dθ"], -3 / (2 * math.log(2)), rel_tol=1e-15)


# ----- refusals: one line, the caret on the command -------------------------------------

def _not_read(command: str) -> str:
    return (f"LaTeX's \\{command} is not read in a subscript: a subscript is a name, a "
            "number or a Greek letter, as in x_1, x_{ij} or x_\\alpha")


REFUSED = [
    # text, message, caret position (counted by hand)
    ("x_\\foo", _not_read("foo"), 2),
    ("y + x_{\\foo}", _not_read("foo"), 7),
    ("x_\\alphay", _not_read("alphay"), 2),       # TeX's command is \alphay
    ("\\alpha_\\sin", _not_read("sin"), 7),
    ("log_\\foo x", _not_read("foo"), 4),
    ("x_ \\alpha", "a subscript is written right after '_': for 'x_ \\alpha', write "
                   "x_\\alpha", 3),
    ("x_{ \\alpha }", "a subscript is written in braces right after '_': for "
                      "'x_{ \\alpha }', write x_{\\alpha}", 2),
]


@pytest.mark.parametrize("text, message, position", REFUSED, ids=[t for t, *_ in REFUSED])
def test_refused_with_the_caret_in_place(text, message, position):
    with pytest.raises(ExpressionError) as info:
        adcli.parse(text)
    assert (info.value.message, info.value.position) == (message, position)


def test_the_cli_refuses_an_unknown_command_in_a_subscript_with_exit_2():
    code, out, err = run_cli("eval", "x_\\foo + 1", "--at", "x_=1,foo=1")
    assert (code, out) == (2, "")
    assert err.splitlines() == [f"adcli: error: {_not_read('foo')} (column 3)",
                                "  x_\\foo + 1", "    ^"]


def test_a_definition_named_with_the_greek_letter_is_used_for_the_latex_spelling():
    # --let x_α=2*y: x_\alpha + 1 at y=1 is 2*1 + 1 = 3 (was: no value given for x_α).
    code, out, err = run_cli("eval", "x_\\alpha + 1", "--let", "x_α=2*y", "--at", "y=1",
                             "--format", "plain")
    assert (code, out, err) == (0, "3.0\n", "")


@pytest.mark.parametrize("written", ["x_\\alpha", "x_{\\alpha}", "x_α"])
def test_at_and_wrt_take_the_latex_spelling_of_a_subscripted_name(written):
    # x_α y at x_α = 2, y = 3 is 6, and its partial in x_α is y = 3 (by hand)
    code, out, err = run_cli("grad", "x_\\alpha y", "--at", f"{written}=2,y=3", "--wrt",
                             written, "--format", "plain")
    assert (code, out, err) == (0, "6.0 3.0\n", ""), (code, out, err)
