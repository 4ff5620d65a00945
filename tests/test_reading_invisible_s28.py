"""Characters that show as nothing but are word characters to the grammar (variation
selectors, the combining grapheme joiner, Hangul fillers) are refused where they stand:
x followed by U+FE0F was a second variable looking just like x ("no value given for x:
add --at x=... ('x' was given: did you mean 'x'?)")."""
import pytest
from conftest import run_cli

import adcli


@pytest.mark.parametrize("invisible", ["\ufe0f", "\ufe00", "\u034f", "\u17b4", "\u115f",
                                       "\u3164", "\U000e0100"])
def test_an_invisible_character_in_a_name_is_refused_where_it_stands(invisible):
    shown = invisible.encode("unicode_escape").decode("ascii")
    code, out, err = run_cli("grad", f"2*x{invisible} + 1", "--at", "x=1")
    assert (code, out) == (2, "")
    first = err.splitlines()[0]
    assert first == (f"adcli: error: unexpected invisible character '{shown}': delete it "
                     "(column 4)")


def test_the_api_refuses_it_too():
    with pytest.raises(adcli.ExpressionError, match="invisible character '\\\\ufe0f'"):
        adcli.parse("x\ufe0f*x")


def test_marks_that_show_are_still_read():
    assert set(adcli.parse("x\u0301 + x").variables) == {"x", "x\u0301"}


def test_the_echoed_text_shows_it_escaped_under_its_caret():
    code, out, err = run_cli("grad", "x\ufe0f + 1", "--at", "x=1")
    assert err.splitlines()[1:3] == ["  x\\ufe0f + 1", "   ^"]
