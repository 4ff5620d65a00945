"""Names with combining marks: é typed as e and U+0301, θ̂ (θ and U+0302), x́. Python takes
such a mark in an identifier after a letter, and the README says names are read as Python
reads identifiers, compared in NFKC form. So each is one name wherever a name is read (the
expression, --at, --grid, --wrt, --let, a points file's header), é typed either way is one
variable, θ̂ is one letter with its hat where letters count (θ̂(y+1), sinθ̂, \\frac θ̂2),
and an error's caret counts the mark as no column.

Every expected number is worked out by hand from the closed form of the derivative."""
from __future__ import annotations

import math
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

import adcli
from adcli import parser
from adcli.errors import INVISIBLE, ExpressionError
from conftest import run_cli, run_in_pty

ROOT = Path(__file__).resolve().parent.parent
WIDTHS = [40, 60, 80]

E_ACUTE = "e\u0301"           # é decomposed: e, COMBINING ACUTE ACCENT
E_COMPOSED = "\u00e9"         # é as one character: what NFKC makes of E_ACUTE
THETA_HAT = "\u03b8\u0302"    # θ̂: θ, COMBINING CIRCUMFLEX ACCENT (no composed form)
X_ACUTE = "x\u0301"           # x́ (no composed form either)


# ----- one name, in the expression ------------------------------------------------------

@pytest.mark.parametrize("text, name, at, expected", [
    # d/dθ̂ θ̂^3 = 3θ̂^2: 12 at 2
    (f"{THETA_HAT}^3", THETA_HAT, 2.0, 12.0),
    # d/dé é^2 = 2é: 6 at 3
    (f"{E_ACUTE}^2", E_COMPOSED, 3.0, 6.0),
    # d/dx́ sin(x́) = cos(x́)
    (f"sin({X_ACUTE})", X_ACUTE, 0.5, math.cos(0.5)),
    # the mark on a letter after the first, and on a digit: one name each
    (f"a{E_ACUTE}b^2", f"a{E_COMPOSED}b", 1.5, 3.0),
    ("x1\u0302^2", "x1\u0302", 4.0, 8.0),
])
def test_a_name_with_a_combining_mark_is_one_variable(text, name, at, expected):
    f = adcli.parse(text)
    assert f.variables == (name,)
    assert float(f.grad(at={name: at})[name]) == pytest.approx(expected, rel=1e-15, abs=0)


def test_e_acute_typed_composed_and_decomposed_is_one_variable():
    # é^2 + é: d/dé = 2é + 1 = 7 at 3
    f = adcli.parse(f"{E_COMPOSED}^2 + {E_ACUTE}")
    assert f.variables == (E_COMPOSED,)
    assert float(f.grad(at={E_ACUTE: 3.0})[E_COMPOSED]) == 7.0


def test_a_long_text_cut_in_one_pass_reads_the_marked_names_whole():
    """Texts of 4096 characters and more are cut into tokens by one regular expression
    (adcli.lalr._Bulk), not by each parser state's scanner: the two must agree."""
    n = 3000
    text = " + ".join([f"{THETA_HAT}^2"] * n)
    assert len(text) > 4096
    f = adcli.parse(text)
    # n θ̂^2: derivative 2nθ̂, 2*3000*1.5 = 9000 at 1.5
    assert f.variables == (THETA_HAT,)
    assert float(f.grad(at={THETA_HAT: 1.5})[THETA_HAT]) == 9000.0


def test_every_combining_mark_python_takes_in_a_name_is_taken():
    """The grammar lists the marks (Unicode's Mn and Mc in the Basic Multilingual Plane):
    each one after a letter makes one name, as str.isidentifier says it does, but those
    that show as nothing (variation selectors, the grapheme joiner: the parser refuses
    them, tests/test_reading_invisible_s28.py)."""
    if unicodedata.unidata_version != "14.0.0":
        pytest.skip("the grammar lists the marks of Unicode 14.0 (Python 3.11)")
    marks = [chr(i) for i in range(0x300, 0x10000)
             if unicodedata.category(chr(i)) in ("Mn", "Mc")
             and not INVISIBLE.match(chr(i))]
    assert len(marks) > 1000
    refused = [f"U+{ord(m):04X}" for m in marks
               if not ("x" + m).isidentifier() or not parser.is_name("x" + m)]
    assert refused == []


@pytest.mark.parametrize("taken, refused", [
    ("x\u0301", "x\u20dd"),       # COMBINING ENCLOSING CIRCLE (Me): no identifier takes it
    ("x_1\u0301", "x_\u0301"),    # a mark on "_" (Python takes it; here it sits on a letter)
    ("x2\u0301", "2\u0301"),      # a mark on a number
    ("x\u0301x", "\u0301x"),      # a mark on nothing
], ids=["enclosing", "underscore", "number", "nothing"])
def test_a_mark_is_read_on_a_name_s_letter_or_digit_only(taken, refused):
    assert adcli.parse(taken).variables == (unicodedata.normalize("NFKC", taken),)
    with pytest.raises(ExpressionError) as caught:
        adcli.parse(refused)
    assert caught.value.message.startswith("unexpected character")


# ----- θ̂ is one letter where letters count -----------------------------------------------

def value(text: str, **at) -> float:
    return float(adcli.parse(text).value(at=at))


def test_a_marked_letter_before_parentheses_multiplies():
    # θ̂(y+1) is θ̂*(y+1), as θ(y+1) is: 2*(3+1) = 8
    assert value(f"{THETA_HAT}(y+1)", **{THETA_HAT: 2.0, "y": 3.0}) == 8.0


def test_a_function_glued_to_a_marked_letter_is_said():
    f = adcli.parse(f"sin{THETA_HAT} + 1")
    assert f.variables == (f"sin{THETA_HAT}",)
    assert f"for sin({THETA_HAT}), write sin {THETA_HAT}" in " ".join(parser.cautions(f))


@pytest.mark.parametrize("text", [f"\\frac {THETA_HAT}2", f"\\frac{THETA_HAT}2",
                                  f"\\frac{{{THETA_HAT}}}{{2}}"])
def test_tex_takes_a_marked_letter_as_one_token(text):
    # \frac θ̂2 is θ̂/2: 2.5/2
    assert value(text, **{THETA_HAT: 2.5}) == 1.25


def test_a_logarithm_s_base_may_be_a_marked_name():
    # log_θ̂ x = ln x / ln θ̂; ∂/∂θ̂ = -ln x / (θ̂ ln²θ̂); ∂/∂x = 1 / (x ln θ̂)
    f = adcli.parse(f"log_{THETA_HAT} x")
    grad = f.grad(at={THETA_HAT: 2.0, "x": 8.0})
    assert float(f.value(at={THETA_HAT: 2.0, "x": 8.0})) == pytest.approx(3.0, rel=1e-15, abs=0)
    assert float(grad[THETA_HAT]) == pytest.approx(-math.log(8) / (2 * math.log(2) ** 2),
                                                   rel=1e-14, abs=0)
    assert float(grad["x"]) == pytest.approx(1 / (8 * math.log(2)), rel=1e-14, abs=0)


def test_a_derivative_of_a_product_written_side_by_side_with_a_marked_letter():
    # 2θ̂ sin θ̂: d/dθ̂ = 2 sin θ̂ + 2θ̂ cos θ̂
    f = adcli.parse(f"2{THETA_HAT} sin {THETA_HAT}")
    t = 0.7
    assert float(f.grad(at={THETA_HAT: t})[THETA_HAT]) == pytest.approx(
        2 * math.sin(t) + 2 * t * math.cos(t), rel=1e-15, abs=0)


# ----- the parser's own readings of the text see the whole name ----------------------------

def test_the_glued_exponent_caution_names_the_whole_marked_name():
    said = parser.cautions(adcli.parse(f"e^2{THETA_HAT}"))
    assert said and said[0].startswith(f"e^2{THETA_HAT}: the power is e^2, and {THETA_HAT} "
                                       "multiplies")
    assert said[0].endswith(f"write e^(2{THETA_HAT})")


def test_the_spaced_divisor_caution_sees_a_marked_divisor():
    said = parser.cautions(adcli.parse(f"1/{THETA_HAT} x"))
    assert said and said[0].startswith(f"1/{THETA_HAT} x: a product written side by side")


@pytest.mark.parametrize("text, left", [(f"{THETA_HAT} = x^2", THETA_HAT),
                                        (f"f({THETA_HAT}) = {THETA_HAT}^2", f"f({THETA_HAT})")])
def test_an_equation_with_a_marked_left_side_is_told_to_give_its_right_side(text, left):
    with pytest.raises(ExpressionError) as caught:
        adcli.parse(text)
    assert f"without '{left} ='" in caught.value.message


def test_new_bars_after_a_marked_name_are_told_to_take_a_star():
    with pytest.raises(ExpressionError) as caught:
        adcli.parse(f"|{THETA_HAT} |y||")
    assert "insert '*'" in caught.value.message and caught.value.position == 4


# ----- names given on the command line and in points files -------------------------------

def csv_rows(out: str) -> list[list[str]]:
    return [line.split(",") for line in out.strip().split("\n")]


@pytest.mark.parametrize("written, given", [(E_ACUTE, E_COMPOSED), (E_COMPOSED, E_ACUTE)])
def test_at_wrt_and_grid_name_the_variable_written_the_other_way(written, given):
    # f = é^2 y: ∂f/∂é = 2éy = 12 at é=3, y=2
    code, out, err = run_cli("grad", f"{written}^2 y", "--at", f"{given}=3,y=2",
                             "--wrt", given, "--format", "csv")
    assert (code, err) == (0, "")
    assert csv_rows(out) == [[E_COMPOSED, "y", "f", f"df/d{E_COMPOSED}"],
                             ["3.0", "2.0", "18.0", "12.0"]]
    code, out, err = run_cli("grad", f"{written}^2", "--grid", f"{given}=1:2:2",
                             "--format", "csv")
    assert (code, err) == (0, "")
    assert csv_rows(out)[1:] == [["1.0", "1.0", "2.0"], ["2.0", "4.0", "4.0"]]


def test_the_same_name_given_twice_in_two_spellings_is_refused():
    code, out, err = run_cli("grad", f"{E_ACUTE}^2", "--at", f"{E_COMPOSED}=1,{E_ACUTE}=2")
    assert code == 2 and out == ""
    assert "is given more than once" in err


def test_let_defines_a_marked_name():
    # F = θ̂^2, F + θ̂: derivative 2θ̂ + 1 = 7 at 3
    code, out, err = run_cli("grad", f"F + {THETA_HAT}", "--let", f"F={THETA_HAT}^2",
                             "--at", f"{THETA_HAT}=3", "--format", "plain")
    assert (code, err) == (0, "")
    assert out.split() == ["12.0", "7.0"]


def test_a_points_file_header_names_a_marked_variable(tmp_path):
    # é^2 θ̂^3: ∂/∂é = 2éθ̂^3, ∂/∂θ̂ = 3é^2θ̂^2
    points = tmp_path / "points.csv"
    points.write_text(f"{E_ACUTE},{THETA_HAT}\n1,2\n3,4\n", encoding="utf-8")
    code, out, err = run_cli("grad", f"{E_COMPOSED}^2 {THETA_HAT}^3", "--points", str(points),
                             "--format", "csv")
    assert (code, err) == (0, "")
    assert csv_rows(out) == [
        [E_COMPOSED, THETA_HAT, "f", f"df/d{E_COMPOSED}", f"df/d{THETA_HAT}"],
        ["1.0", "2.0", "8.0", "16.0", "12.0"],
        ["3.0", "4.0", "576.0", "384.0", "432.0"]]


# ----- the caret counts a mark as no column --------------------------------------------

def env() -> dict:
    import os

    env = {k: v for k, v in os.environ.items()
           if k not in ("COLUMNS", "LINES", "PYTHONIOENCODING", "NO_COLOR", "FORCE_COLOR")}
    return {**env, "PYTHONUTF8": "1", "TERM": "xterm-256color", "PYTHONPATH": str(ROOT)}


@pytest.mark.parametrize("columns", WIDTHS)
def test_the_caret_after_a_marked_name_is_under_the_culprit_on_a_terminal(columns):
    """θ̂ is two characters and one column: the ")" is 6 columns after the excerpt starts."""
    code, text, _ = run_in_pty([sys.executable, "-m", "adcli", "grad", f"{THETA_HAT}^2 + )",
                                "--at", f"{THETA_HAT}=1"], env(), columns,
                               stdin=subprocess.DEVNULL)
    rows = text.rstrip("\n").split("\n")
    assert code == 2
    assert rows[0].startswith("adcli: error: unexpected ')'")
    caret = next(i for i, row in enumerate(rows) if row.strip() == "^")
    assert rows[caret - 1] == f"  {THETA_HAT}^2 + )"
    assert rows[caret] == "  " + " " * 6 + "^"


def test_the_caret_after_a_marked_name_is_under_the_culprit_in_a_pipe():
    code, out, err = run_cli("grad", f"{THETA_HAT}^2 + )", "--at", f"{THETA_HAT}=1")
    assert code == 2 and out == ""
    assert err.split("\n")[1:] == [f"  {THETA_HAT}^2 + )", "  " + " " * 6 + "^", ""]


# ----- check's left sides name a marked variable ---------------------------------------------

@pytest.mark.parametrize("f, expected, said", [
    # d/dθ̂ θ̂^3 = 3θ̂^2; ∂/∂θ̂ θ̂^2 y = 2θ̂y; ∂²/∂θ̂∂y θ̂^2 y^2 = 4θ̂y (by hand)
    ("θ\u0302^3", "df/dθ\u0302 = 3θ\u0302^2", "d/dθ̂"),
    ("θ\u0302^2 y", "∂_θ\u0302 f = 2θ\u0302 y", "∂/∂θ̂"),
    ("θ\u0302^2 y^2", "∂²f/∂θ\u0302∂y = 4θ\u0302 y", "∂²/∂θ̂∂y"),
])
def test_check_reads_a_left_side_in_a_marked_variable(f, expected, said):
    from conftest import run_cli

    code, out, err = run_cli("check", f, expected, "--format", "plain")
    assert code == 0, err
    assert out.startswith(f"matches {said} at 30/30 points"), out
