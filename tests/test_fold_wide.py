"""Folding on a terminal counts columns: a CJK character takes two (the terminal shows it
so), a combining mark none. textwrap counts characters, which let wide lines overflow."""
from adcli.errors import _width, fold_words


def test_wide_words_fold_within_the_width():
    text = "adcli: warning: " + " ".join(["变量变量"] * 12)  # each word 8 columns
    folded = fold_words(text, 40)
    lines = folded.split("\n")
    assert len(lines) > 1
    assert all(_width(line) <= 40 for line in lines), [(_width(l), l) for l in lines]
    # Nothing lost or reordered: the words come back in order.
    assert " ".join(folded.split()) == " ".join(text.split())


def test_a_line_is_filled_as_far_as_the_columns_allow():
    # 40 columns: "adcli:" (6) + 1 + four 8-column words and spaces (35) = 42 > 40, so the
    # first line holds "adcli:" and three words: 6 + 3 * 9 = 33 columns.
    folded = fold_words("adcli: " + " ".join(["变量变量"] * 6), 40)
    assert folded.split("\n")[0] == "adcli: " + " ".join(["变量变量"] * 3)


def test_combining_marks_take_no_column():
    word = "θ̂" * 5  # five letters, each with a hat: 5 columns, 10 characters
    text = " ".join([word] * 8)
    first = fold_words(text, 22).split("\n")[0]
    assert first == " ".join([word] * 3)  # 3 * 5 + 2 = 17 columns; a fourth makes 23


def test_spaces_inside_a_line_stay_as_typed():
    # A quoted expression's own spacing survives where the line is not broken (as with
    # textwrap); a break drops the spaces it falls on.
    folded = fold_words("say 'x  +  y' and more words here", 20)
    assert folded.split("\n") == ["say 'x  +  y' and", "  more words here"]


def test_a_warning_with_wide_names_fits_a_real_terminal():
    from conftest import adcli_on_terminal

    for columns in (40, 60):
        code, rows = adcli_on_terminal(columns, "grad", "变量变量*x", "--at", "x=1,变量变量=2",
                                       "--wrt", "变量变量变")
        assert code == 0
        warning = [r for r in rows if "warning" in r or r.startswith("  ")]
        assert warning and rows[0].startswith("adcli: warning:"), rows
        assert all(_width(row) <= columns for row in rows), [(_width(r), r) for r in rows]
