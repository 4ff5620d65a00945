"""Session 23: a forward trace's warnings judge the number it shows (forward mode's, not
grad's reverse-mode one), and the "mathematical rule" note follows --digits: its number at
N digits, and no note where the two numbers print the same at N digits."""
from __future__ import annotations

import json
import math
import re

from conftest import run_cli, warnings_in

FORWARD = ["--mode", "forward", "--wrt", "x"]


def traced(*argv) -> tuple[str, list[str]]:
    code, out, err = run_cli("trace", *argv)
    assert code == 0, err
    return out, warnings_in(err)


def shown_derivative(out: str) -> float:
    return float(re.search(r"∂f/∂x = \S+ = (\S+)", out).group(1))


# ----- 1. the warnings of a forward trace judge forward mode's number ---------------------

# (e^x - 1)/x = sum x^k/(k+1)!, so f'(x) = sum k x^(k-1)/(k+1)! = 1/2 + x/3 + x^2/8 + ...
EXPM1_SLOPE = 0.5 + 1e-8 / 3


def test_the_rounding_warning_quotes_the_number_the_forward_trace_shows():
    out, said = traced("expm1(x)/x", "--at", "x=1e-8", *FORWARD)
    shown = shown_derivative(out)
    rounding, = [w for w in said if "rounding errors" in w]
    quoted = float(re.search(r"the derivative shown, (\S+),", rounding).group(1))
    assert quoted == float(f"{shown:.14g}")
    # the number judged is forward mode's, which is not reverse mode's here
    _, reverse = traced("expm1(x)/x", "--at", "x=1e-8")
    assert quoted != float(re.search(r"the derivative shown, (\S+),", reverse[0]).group(1))
    # and what it says of its digits holds: it is that close to f'
    kept = int(re.search(r"about (\d+) correct digits", rounding).group(1))
    assert abs(shown - EXPM1_SLOPE) < 10.0**-kept * abs(EXPM1_SLOPE)


def test_the_reverse_trace_still_quotes_reverse_modes_number():
    out, said = traced("expm1(x)/x", "--at", "x=1e-8")
    rounding, = [w for w in said if "rounding errors" in w]
    quoted = float(re.search(r"the derivative shown, (\S+),", rounding).group(1))
    assert quoted == float(f"{shown_derivative(out):.14g}")


def test_where_no_witness_judges_forward_modes_number_the_warning_says_whose_it_judged():
    # 1/(1/x) = x at 1e160: 1/x^2 underflows, so grad's reverse number is inf (long double:
    # 1); forward mode's tangent is another number, which no witness checked
    out, said = traced("1/(1/x)", "--at", "x=1e160", *FORWARD)
    shown = shown_derivative(out)
    assert math.isfinite(shown) and shown != 1.0
    assert any("it is 1 where float64 gives inf" in w for w in said)
    note, = [w for w in said if "judges grad's" in w]
    assert "grad's (reverse mode's) number, inf" in note
    assert f"this forward trace's, {shown!r}, is another" in note
    assert "may be wrong as well" in note


# ----- 2. the mathematical rule's note at --digits ------------------------------------------

def test_no_note_where_both_numbers_print_the_same_at_the_digits_asked():
    for mode in ([], ["--mode", "forward", "--wrt", "y"]):
        out, _ = traced("tanh(y)", "--at", "y=0.3", "--digits", "3", *mode)
        assert "mathematical rule" not in out
        out, _ = traced("tanh(y)", "--at", "y=0.3", "--digits", "3", "--format", "json", *mode)
        assert "mathematical rule" not in out


def test_no_tangent_note_at_four_digits_in_a_longer_forward_trace():
    out, _ = traced("x^y / (x + y) - log(x)*tanh(y)", "--at", "x=1.7,y=0.3", "--digits", "4",
                    "--mode", "forward", "--wrt", "y")
    assert "mathematical rule" not in out


# tanh' = 1/cosh^2 as written differs from the engine's sech^2 at the 16th digit here
AT = 0.9494736842105264


def test_the_note_gives_its_number_at_the_digits_asked():
    as_written = 1 / math.cosh(AT) ** 2       # the rule worked out as written in float64
    true = 1 - math.tanh(AT) ** 2          # sech^2 another way: the same to ~1e-16
    assert f"{as_written:.16g}" != repr(as_written)   # 17 digits: rounding shows
    for mode in ([], ["--mode", "forward", "--wrt", "x"]):
        out, _ = traced("tanh(x)", "--at", f"x={AT!r}", "--digits", "16", *mode)
        note = re.search(r"it gives (\S+);", out).group(1)
        assert note == f"{as_written:.16g}"
        assert abs(float(note) - true) < 1e-15
    out, _ = traced("tanh(x)", "--at", f"x={AT!r}", "--digits", "16", "--format", "json")
    notes = [c["note"] for n in json.loads(out)["points"][0]["nodes"]
             for c in n.get("contributions", []) if "note" in c]
    assert notes and all(f"it gives {as_written:.16g};" in n for n in notes)
    out, _ = traced("tanh(x)", "--at", f"x={AT!r}", "--digits", "16", "--format", "json",
                    *FORWARD)
    notes = [n["tangent_note"] for n in json.loads(out)["points"][0]["nodes"]
             if "tangent_note" in n]
    assert notes and all(f"it gives {as_written:.16g};" in n for n in notes)


def test_without_digits_the_note_keeps_every_digit():
    as_written = 1 / math.cosh(AT) ** 2
    out, _ = traced("tanh(x)", "--at", f"x={AT!r}")
    assert f"it gives {as_written!r};" in out


def test_a_trace_of_no_variable_names_no_point():
    # "at the point" named nothing: the trace follows the reading after one blank line
    code, out, err = run_cli("trace", "2+3")
    assert code == 0, err
    assert out.startswith("read as: 2 + 3\n\nprimal trace\n  v1 = 2 + 3 = 5.0\n"), out
    assert "at the point" not in out
