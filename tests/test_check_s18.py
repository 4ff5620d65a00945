"""adcli check, items users found: the power rule used on a varying exponent (x^x's
derivative written x·x^(x-1), which is f itself too, is said as the power rule); a
reciprocal power's exponent kept (1/x^2's derivative written -2/x^2) said of x^(-2) and
in plain notation, never u^1; the italic d of Word (𝑑), ⅆ and the fullwidth ｄ read as d
in an equation's left side, and Word's 𝜕 as ∂.

Each row's mathematics is checked against mpmath first, so a wrong row fails on its own;
the words are compared whole.
"""
from __future__ import annotations

import json

import mpmath as mp
import pytest

from conftest import adcli_on_terminal, run_cli, words

mp.mp.dps = 30
EXIT_DIFFERS = 1
XS = tuple(mp.mpf(x) for x in ("0.3", "1.7", "4.1"))
ITSELF = "the expectation is f itself at every point, not d/dx: nothing was differentiated"
POWER_RULE = "d(u^v)/dx = v·u^(v-1)·(du/dx) + u^v·ln(u)·(dv/dx)"


def check_json(*argv: str) -> tuple[int, dict]:
    code, out, err = run_cli("check", *argv, "--format", "json")
    return code, json.loads(out) if out else {"error": err}


def diagnosis(*argv: str) -> list[str]:
    code, result = check_json(*argv)
    assert code == EXIT_DIFFERS, result
    return result["diagnosis"]


def near(a, b) -> bool:
    return mp.almosteq(a, b, 1e-20)


# ----- 1. the power rule on a varying exponent ------------------------------------------

def power_alone(v: str, f: str) -> str:
    return (f"the power's term u^v·ln(u)·(dv/dx) is missing: for u = x and v = {v}, "
            f"{POWER_RULE}; this is the power rule v·u^(v-1)·(du/dx) alone, on {f}, whose "
            f"exponent varies: that rule is for a constant exponent")


VARYING = [
    # (f, expectation: v·x^(v-1), f as mpmath, v as mpmath, the words)
    ("x^x", r"x\cdot x^{x-1}", lambda x: x**x, lambda x: x, power_alone("x", "x^x")),
    ("x^x", "x x^(x-1)", lambda x: x**x, lambda x: x, power_alone("x", "x^x")),
    (r"x^{\sin x}", r"\sin x \cdot x^{\sin x - 1}", lambda x: x ** mp.sin(x), mp.sin,
     power_alone("sin(x)", "x^sin(x)")),
]


@pytest.mark.parametrize("f, g, f_mp, v_mp, words", VARYING, ids=[r[1] for r in VARYING])
def test_the_power_rule_on_a_varying_exponent_is_said(f, g, f_mp, v_mp, words):
    for x in XS:    # the expectation is f' without u^v ln(u) v', and not f'
        written = v_mp(x) * x ** (v_mp(x) - 1)
        term = f_mp(x) * mp.log(x) * mp.diff(v_mp, x)
        assert near(written, mp.diff(f_mp, x) - term) and abs(term) > 1e-3
    assert diagnosis(f, g) == [words]


def test_x_to_the_x_written_by_the_power_rule_is_not_said_as_f_itself():
    """x·x^(x-1) is x^x: f itself holds as exactly, but the power rule is what was
    written (was: the f-itself line alone)."""
    for x in XS:
        assert near(x * x ** (x - 1), x**x)
    assert ITSELF not in diagnosis("x^x", r"x\cdot x^{x-1}")


def test_x_to_the_x_written_as_itself_is_still_f_itself():
    """No power rule written (no x^(x-1)): nothing was differentiated."""
    assert diagnosis("x^x", "x^x") == [ITSELF]


def test_the_power_rule_on_a_constant_base_is_said_with_its_rule():
    """(2^x)' = 2^x ln 2; x·2^(x-1) is the power rule, for x^n with n constant."""
    for x in XS:
        assert not near(x * mp.mpf(2) ** (x - 1), mp.diff(lambda t: mp.mpf(2) ** t, x))
    assert diagnosis("2^x", r"x\cdot 2^{x-1}") == [
        "this is the power rule v·u^(v-1) on 2^x, whose exponent varies: that rule is for a "
        "constant exponent; for a constant base u = 2, d(u^v)/dx = u^v·ln(u)·(dv/dx)"]


# ----- 2. a power's exponent kept: of 1/x^n as x^(-n), and in plain notation -------------

KEPT = [
    # (f, expectation, f as mpmath, the expectation as mpmath, the power rule's term with
    # the exponent kept or raised, the words)
    ("1/x^2", r"-\frac{2}{x^2}", lambda x: 1 / x**2, lambda x: -2 / x**2,
     lambda x: -2 * x ** -2,
     "this keeps the exponent of 1/(x^2), u^(-2): the power rule lowers it by one, "
     "d(u^(-2))/dx = -2·u^(-3)·(du/dx), not -2·u^(-2)·(du/dx), for u = x"),
    ("3/x^2", "-6/x^2", lambda x: 3 / x**2, lambda x: -6 / x**2, lambda x: 3 * -2 * x ** -2,
     "this keeps the exponent of 3/(x^2), 3·u^(-2): the power rule lowers it by one, "
     "d(3·u^(-2))/dx = -6·u^(-3)·(du/dx), not -6·u^(-2)·(du/dx), for u = x"),
    ("1/x^3", "-3/x^2", lambda x: 1 / x**3, lambda x: -3 / x**2, lambda x: -3 * x ** -2,
     "this raises the exponent of 1/(x^3), u^(-3): the power rule lowers it by one, "
     "d(u^(-3))/dx = -3·u^(-4)·(du/dx), not -3·u^(-2)·(du/dx), for u = x"),
    # an exponent of 1 is no exponent: 2·u, not 2·u^1
    ("(x^2+1)^2", r"2(x^2+1)^2 \cdot 2x", lambda x: (x**2 + 1) ** 2,
     lambda x: 4 * x * (x**2 + 1) ** 2, lambda x: 2 * (x**2 + 1) ** 2 * 2 * x,
     "this keeps the exponent of ((x^2) + 1)^2: the power rule lowers it by one, "
     "d(u^2)/dx = 2·u·(du/dx), not 2·u^2·(du/dx), for u = (x^2) + 1"),
]


@pytest.mark.parametrize("f, g, f_mp, g_mp, kept, words", KEPT, ids=[r[0] for r in KEPT])
def test_a_kept_exponent_is_said_in_plain_notation(f, g, f_mp, g_mp, kept, words):
    for x in XS:    # the expectation is the power rule's term with its exponent not lowered
        assert near(g_mp(x), kept(x)) and not near(g_mp(x), mp.diff(f_mp, x))
    said = diagnosis(f, g)
    assert said == [words]
    assert not any("^1·" in line or "^1)" in line for line in said)


# ----- 3. the italic d of Word, ⅆ and ｄ in a left side ----------------------------------

ITALIC = "\U0001D451"      # 𝑑 MATHEMATICAL ITALIC SMALL D, as Word's equations write it
ITALIC_X, ITALIC_Y = "\U0001D465", "\U0001D466"
PARTIAL = "\U0001D715"     # 𝜕 MATHEMATICAL ITALIC PARTIAL DIFFERENTIAL
DS = [ITALIC, "\u2146", "\uff44"]      # 𝑑, ⅆ (double-struck italic), ｄ (fullwidth)


@pytest.mark.parametrize("d", DS, ids=["italic", "double-struck", "fullwidth"])
def test_an_equation_alone_with_another_d_is_read(d):
    for x in XS:
        assert near(mp.diff(lambda t: t**3, x), 3 * x**2) and not near(3 * x, 3 * x**2)
    code, result = check_json(f"{d}/{d}x (x^3) = 3x^2")
    assert (code, result["expression"], result["verdict"]) == (0, "x^3", "matches"), result
    code, result = check_json(f"{d}/{d}x (x^3) = 3x")
    assert (code, result["verdict"]) == (EXIT_DIFFERS, "differs"), result
    assert result["checks"][0]["expected"]["parsed"] == "3*x"


@pytest.mark.parametrize("f, g, derivative, order", [
    ("x^3", f"{ITALIC}/{ITALIC}{ITALIC_X} (x^3) = 3x^2", "x", 1),
    ("x^3", f"{ITALIC}{ITALIC_Y}/{ITALIC}{ITALIC_X} = 3x^2", "x", 1),
    ("x^3", f"{ITALIC}²{ITALIC_Y}/{ITALIC}{ITALIC_X}² = 6x", "x", 2),
    ("x^3", f"\\frac{{{ITALIC}}}{{{ITALIC}{ITALIC_X}}} x^3 = 3x^2", "x", 1),
    ("x^3", f"\\frac{{{ITALIC}{ITALIC_Y}}}{{{ITALIC}x}} = 3x^2", "x", 1),
    ("x^2 y", f"{PARTIAL}f/{PARTIAL}y = x^2", "y", 1),
    ("x^2 y", f"{PARTIAL}²f/{PARTIAL}x{PARTIAL}y = 2x", "x,y", 2),
], ids=lambda v: v if isinstance(v, str) else None)
def test_a_left_side_with_word_s_d_is_read_as_with_d(f, g, derivative, order):
    code, result = check_json(f, g)
    assert code == 0, result
    assert (result["checks"][0]["derivative"], result["order"]) == (derivative, order)


def test_a_wrong_right_side_with_italic_d_differs_as_with_d():
    """Read as d: the same verdict and diagnosis as the ASCII left side gives (x^3's
    derivative written 3x^3: the exponent kept)."""
    said = diagnosis("x^3", f"{ITALIC}{ITALIC_Y}/{ITALIC}{ITALIC_X} = 3x^3")
    assert said == diagnosis("x^3", "dy/dx = 3x^3") == [
        "this keeps the exponent of x^3: the power rule lowers it by one, d(u^3)/dx = "
        "3·u^2·(du/dx), not 3·u^3·(du/dx), for u = x"]


# ----- on a terminal --------------------------------------------------------------------

@pytest.mark.parametrize("columns", [40, 80, 120])
@pytest.mark.parametrize("argv, code, said", [
    (("x^x", r"x\cdot x^{x-1}"), EXIT_DIFFERS, f"diagnosis: {VARYING[0][4]}"),
    (("1/x^2", r"-\frac{2}{x^2}"), EXIT_DIFFERS, f"diagnosis: {KEPT[0][5]}"),
    ((f"{ITALIC}/{ITALIC}{ITALIC_X} (x^3) = 3x^2",), 0, "matches d/dx at 30/30 points"),
], ids=["x^x", "1/x^2", "italic d"])
def test_on_a_terminal(columns, argv, code, said):
    status, rows = adcli_on_terminal(columns, "check", *argv)
    assert status == code
    flat = " ".join(words(rows))     # (the words wrapped to the width, then joined)
    assert " ".join(said.split()) in flat
    assert "f itself" not in flat and "u^1" not in flat
