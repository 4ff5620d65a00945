"""Characters that show as nothing but are word characters to the grammar (variation
selectors, the combining grapheme joiner, Hangul fillers) are refused where they stand:
x followed by U+FE0F was a second variable looking just like x ("no value given for x:
add --at x=... ('x' was given: did you mean 'x'?)")."""
import pytest
from conftest import run_cli

import adcli


@pytest.mark.parametrize("invisible", ["\ufe0f", "\ufe00", "\u034f", "\u17b4", "\u3164",
                                       "\uffa0", "\u1160"])
def test_an_invisible_character_in_a_name_is_refused_where_it_stands(invisible):
    shown = invisible.encode("unicode_escape").decode("ascii")
    code, out, err = run_cli("grad", f"2*x{invisible} + 1", "--at", "x=1")
    assert (code, out) == (2, "")
    first = err.splitlines()[0]
    assert first == (f"adcli: error: unexpected invisible character '{shown}' in a name: "
                     "delete it (column 4)")


def test_the_api_refuses_it_too():
    with pytest.raises(adcli.ExpressionError, match="invisible character '\\\\ufe0f'"):
        adcli.parse("x\ufe0f*x")


def test_marks_that_show_are_still_read():
    assert set(adcli.parse("x\u0301 + x").variables) == {"x", "x\u0301"}


def test_the_echoed_text_shows_it_escaped_under_its_caret():
    code, out, err = run_cli("grad", "x\ufe0f + 1", "--at", "x=1")
    assert err.splitlines()[1:3] == ["  x\\ufe0f + 1", "   ^"]


@pytest.mark.parametrize("text", ["x^2 && \\text{by the chain rule \u2714\ufe0f}",
                                  "$$x^2 \\label{eq:\u845b\U000e0100\u98fe}$$"])
def test_one_in_latex_prose_is_no_part_of_the_maths(text):
    code, out, err = run_cli("grad", text, "--at", "x=3", "--format", "plain")
    assert (code, out, err) == (0, "9.0 6.0\n", "")


@pytest.mark.parametrize("name", ["\u182c\u180b\u1820",     # Mongolian: a selector shapes it
                                  "\u1100\u1160"])           # a jamo made a syllable
def test_characters_that_show_are_read_in_names(name):
    assert adcli.parse(f"2*{name}").variables == (name,)


def test_a_table_cell_keeps_an_emoji_selector(tmp_path):
    (tmp_path / "p.csv").write_text("id,x\n1\ufe0f\u20e3,2\n", encoding="utf-8")
    code, out, err = run_cli("grad", "x^2", "--points", str(tmp_path / "p.csv"))
    assert code == 0 and "1\ufe0f\u20e3" in out and "\\ufe0f" not in out
