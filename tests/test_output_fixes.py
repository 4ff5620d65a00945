"""Output fixes (review G):

1. Under TERM=dumb (Emacs's shell, some CI terminals) tables and headings were drawn 80
   wide whatever the terminal: rich ignores a width given without a height there.
2. plot names the second derivative d2f/dx2 (as README and docs/plot.png show), not
   d2f/dx^2.
3. TSV output whose line starts with '#' (an id '#3') read back as a comment: the row was
   lost. It is written \\#3, which the points reader undoes.
4. A shortened "read as:" heading said the length of the whole line, label included,
   rather than the expression's.
5. An empty NO_COLOR turned colours off; no-color.org says only a non-empty one counts.
"""
from __future__ import annotations

import json
import re

import pytest
from rich.cells import cell_len

from conftest import adcli_on_terminal, run_cli, run_in_pty, strict_json
from test_output import ANSI, adcli_executable, child_env

BOX = "┏┃┡│├└┌"


def screen(argv, columns, rows=200, **env) -> list[str]:
    """stdout on a terminal of ``columns``, as lines without escape sequences."""
    code, text, err = run_in_pty([adcli_executable(), *argv], child_env(**env), columns, rows,
                                 stderr_apart=True)
    assert code == 0, err
    return ANSI.sub("", text).splitlines()


# ----- 1. TERM=dumb: the terminal's width ------------------------------------------------

LONG = "2 x sin x + 1/(x (x+1)) + exp(-x^2) cos x + x^3 y^2 sin(x y) + log(1 + x^2 y^2)"
POINTS = "x,y\n1.5,2\n2,3\n0.5,0.25\n-1.25,4\n"


@pytest.mark.parametrize("columns", [40, 60])
@pytest.mark.parametrize("kind", ["one point", "several points"])
def test_a_dumb_terminal_gets_tables_as_wide_as_itself(tmp_path, columns, kind):
    points = tmp_path / "points.csv"
    points.write_text(POINTS)
    where = ["--at", "x=1.5,y=2"] if kind == "one point" else ["--points", str(points)]
    lines = screen(["grad", LONG, *where], columns, TERM="dumb")
    assert any(line[:1] in BOX for line in lines), lines        # a table was drawn
    assert any(line.startswith("read as: ") for line in lines)
    too_wide = [line for line in lines if cell_len(line) > columns]
    assert not too_wide, "\n".join(lines)


def test_a_dumb_terminal_honours_COLUMNS():
    lines = screen(["hessian", "exp(-x^2 y) sin(x y) + x^3 y^2/(1+x^2 y^2)",
                    "--at", "x=1.5,y=2"], 100, TERM="dumb", COLUMNS="50")
    assert any(line[:1] in BOX for line in lines)
    assert max(map(cell_len, lines)) <= 50, "\n".join(lines)


# ----- 2. plot's names of derivatives ------------------------------------------------------

def test_plot_names_the_second_derivative_d2f_dx2():
    # f = x^3: f' = 3x^2, f'' = 6x, by hand.
    code, out, err = run_cli("plot", "x^3", "--grid", "x=-1:1:5", "--order", "2",
                             "--format", "csv")
    assert code == 0, err
    header, *rows = out.splitlines()
    assert header == "x,f,df/dx,d2f/dx2"
    for row in rows:
        x, f, d1, d2 = map(float, row.split(","))
        assert (f, d1, d2) == (x ** 3, 3 * x ** 2, 6 * x)


def test_plot_legend_on_a_terminal_says_d2f_dx2():
    lines = screen(["plot", "x^3 - 3x", "--grid", "x=-2:2", "--order", "2"], 80, rows=30)
    legend = "\n".join(lines[-3:])
    assert "d2f/dx2" in legend and "dx^2" not in legend, "\n".join(lines)


@pytest.mark.parametrize("symbol, variable, order, name", [
    ("f", "x", 1, "df/dx"), ("f", "x", 2, "d2f/dx2"), ("f", "t", 3, "d3f/dt3"),
    ("g", "x", 2, "d2g/dx2"),
    # d2f/dx12 would read as a derivative in x12: a name ending in a digit keeps its "^".
    ("f", "x1", 2, "d2f/dx1^2"),
])
def test_derivative_names(symbol, variable, order, name):
    from adcli.commands.plot import derivative_name

    assert derivative_name(symbol, variable, order) == name


# ----- 3. TSV that starts a line with '#' --------------------------------------------------

IDS = ["#3", "p4", "  #5", "\\#6", "#", "a#b"]


def _points_with_ids(tmp_path, name="id"):
    rows = "".join(f'"{i}",{k + 1}\n' for k, i in enumerate(IDS))
    path = tmp_path / "ids.csv"
    path.write_text(f'"{name}",x\n{rows}')
    return path


@pytest.mark.parametrize("digits", [[], ["--digits", "3"]])   # the fast path and the other
def test_tsv_output_reads_back_every_row(tmp_path, digits):
    code, out, err = run_cli("grad", "x^2", "--points", str(_points_with_ids(tmp_path)),
                             "--format", "tsv", *digits)
    assert code == 0, err
    tsv = tmp_path / "out.tsv"
    tsv.write_text(out)
    code, back, err = run_cli("eval", "x", "--points", str(tsv), "--format", "json")
    assert code == 0 and "comment" not in err, err
    points = strict_json(back)["points"]
    assert [p["extra"]["id"] for p in points] == IDS
    assert [p["at"]["x"] for p in points] == [float(k + 1) for k in range(len(IDS))]
    assert [float(p["extra"]["df/dx"]) for p in points] == [2.0 * (k + 1)
                                                            for k in range(len(IDS))]


def test_tsv_without_a_header_reads_back_with_columns(tmp_path):
    code, out, err = run_cli("grad", "x^2", "--points", str(_points_with_ids(tmp_path)),
                             "--format", "tsv", "--no-header")
    assert code == 0, err
    code, back, err = run_cli("eval", "x", "--points", "-", "--columns", "id,x,f,d",
                              "--format", "jsonl", stdin=out)
    assert code == 0 and "comment" not in err, err
    assert [json.loads(line)["extra"]["id"] for line in back.splitlines()] == IDS


def test_a_tsv_header_that_starts_with_hash_stays_the_header(tmp_path):
    code, out, err = run_cli("grad", "x^2", "--points", str(_points_with_ids(tmp_path, "#id")),
                             "--format", "tsv")
    assert code == 0, err
    code, back, err = run_cli("eval", "x", "--points", "-", "--format", "json", stdin=out)
    assert code == 0, err
    points = strict_json(back)["points"]
    assert [p["extra"]["#id"] for p in points] == IDS


def test_an_empty_first_field_before_a_hash_field_reads_back(tmp_path):
    # "\t#ff..." starts with '#' once its blank is stripped, as the reader strips it.
    source = tmp_path / "c.csv"
    source.write_text('id,colour,x\n,"#ff0000",1\n')
    code, out, err = run_cli("grad", "x^2", "--points", str(source), "--format", "tsv")
    assert code == 0, err
    code, back, err = run_cli("eval", "x", "--points", "-", "--format", "json", stdin=out)
    (point,) = strict_json(back)["points"]
    assert point["extra"]["id"] == "" and point["extra"]["colour"] == "#ff0000"


TAB_SPLIT = [
    ("\\#3\t1", ["#3", "1"]),            # the escape, at the start of a line
    ("  \\#5\t1", ["  #5", "1"]),
    ("\t\\#ff\t1", ["", "#ff", "1"]),     # after an empty first field
    ("a\\#b\t1", ["a\\#b", "1"]),        # a backslash elsewhere is kept, as before
    ("x\t\\#\t1", ["x", "\\#", "1"]),
    ("\\\\#1\t2", ["\\#1", "2"]),        # a field's own backslash before '#'
]


def test_tab_split_undoes_a_backslash_hash_only_where_a_line_starts():
    from adcli.streams import _tab_split

    assert [_tab_split(line) for line, _ in TAB_SPLIT] == [fields for _, fields in TAB_SPLIT]


# ----- 4. the length a shortened heading states --------------------------------------------

def _stated_length(out: str) -> int:
    match = re.search(r"\(([\d,]+) characters in all", out)
    assert match, out[:300]
    return int(match.group(1).replace(",", ""))


def test_a_shortened_heading_states_the_expressions_length():
    name = "a" * 1553                # a variable: its parsed form is its name, 1553 long
    code, out, err = run_cli("eval", name, "--at", f"{name}=2")
    assert code == 0, err
    assert out.startswith("read as: ") and "…" in out.splitlines()[0]
    assert _stated_length(out) == 1553


def test_a_shortened_jacobian_legend_states_its_expressions_length():
    name = "b" * 777
    code, out, err = run_cli("jacobian", name, "x", "--at", f"{name}=2,x=1")
    assert code == 0, err
    assert _stated_length(out) == 777


def test_a_long_sums_shortened_reading_counts_its_opening_parentheses():
    """A left-nested sum of n terms reads as n - 1 parentheses, then the first term: the
    head showed lines of "(((((" and no term."""
    code, out, err = run_cli("eval", "+".join(["x*y"] * 300), "--at", "x=1,y=2")
    assert code == 0, err
    line = out.splitlines()[0]
    assert line.startswith("read as: (((( … 299 opening parentheses … (x*y) + (x*y)) + (x*y))")
    assert "(" * 5 not in line and _stated_length(out) == 300 * len("(x*y)") + 299 * len(" + ") + 298 * len("()")


@pytest.mark.parametrize("columns", [40, 80])
def test_the_count_on_a_terminal(columns):
    code, rows = adcli_on_terminal(columns, "eval", "+".join(["x*y"] * 300), "--at", "x=1,y=2")
    assert code == 0
    assert " ".join(" ".join(rows).split()).startswith(
        "read as: (((( … 299 opening parentheses … (x*y) + (x*y)) +")


# ----- 5. NO_COLOR counts only when not empty ----------------------------------------------

COLOUR = "\x1b[38;5;"


def _plot_on_terminal(**env) -> str:
    code, text, err = run_in_pty([adcli_executable(), "plot", "x^3 - 3x", "--grid", "x=-2:2"],
                                 child_env(**env), 80, 30, stderr_apart=True)
    assert code == 0, err
    return text


def test_an_empty_NO_COLOR_leaves_the_colours_on():
    assert COLOUR in _plot_on_terminal(NO_COLOR="")
    assert COLOUR not in _plot_on_terminal(NO_COLOR="1")


def test_wants_colour_unless_NO_COLOR_is_set_and_not_empty(monkeypatch):
    from adcli.plotting import wants_colour

    monkeypatch.setenv("TERM", "xterm-256color")
    wanted = {}
    for value in ["", "1", "0"]:
        monkeypatch.setenv("NO_COLOR", value)
        wanted[value] = wants_colour()
    assert wanted == {"": True, "1": False, "0": False}
