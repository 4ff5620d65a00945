"""--help as a user sees it (review G):

6. The examples of each command's help (and adcli's own) were kept as written, so a
   terminal narrower than one broke it inside a word. They fold between shell words,
   each line but the last ending in " \\": folded, an example still pastes into a shell as
   the one command it was.
7. Each command's help lists only the options it takes: plot's left out --points and the
   options that only go with it (which plot refuses, saying why), and graph's says that
   its --grid and --points give one point.
"""
from __future__ import annotations

import inspect
import re
import shlex

import pytest
from rich.cells import cell_len

from conftest import run_cli, run_in_pty
from test_output import ANSI, adcli_executable, child_env

from adcli.commands import COMMANDS, load

WIDTHS = [40, 60, 80]


def help_on_terminal(argv, columns) -> list[str]:
    code, text, err = run_in_pty([adcli_executable(), *argv, "--help"], child_env(), columns,
                                 200, stderr_apart=True)
    assert code == 0, err
    return ANSI.sub("", text).splitlines()


def examples_shown(lines: list[str]) -> list[list[str]]:
    """The example commands in help text, each as the lines it is shown in."""
    found, going_on = [], False
    for line in lines:
        if going_on:
            found[-1].append(line)
        elif line.strip().startswith("adcli "):
            found.append([line])
        else:
            continue
        going_on = line.endswith(" \\")
    return found


def joined(shown: list[str]) -> str:
    return " ".join(line.strip().removesuffix(" \\") for line in shown)


def group_examples() -> list[str]:
    """adcli --help's examples, as written in its docstring (the \\b paragraph)."""
    from adcli.cli import cli

    paragraph = inspect.cleandoc(cli.help).split("\b\n", 1)[1].split("\n\n")[0]
    return [line.strip() for line in paragraph.splitlines()]


def assert_examples_fit(argv, expected, columns):
    lines = help_on_terminal(argv, columns)
    shown = examples_shown(lines)
    assert [joined(s) for s in shown] == expected, "\n".join(lines)
    # Pasted into a shell (which drops a backslash-newline), each is the command as
    # written, word for word.
    assert [shlex.split("\n".join(s).replace("\\\n", "")) for s in shown] == \
        [shlex.split(e) for e in expected]
    for example, text in zip(shown, expected):
        assert max(map(cell_len, example)) <= columns, "\n".join(example)
        # Left whole where it fits (click's help is 2 columns narrower than the terminal).
        assert (len(example) == 1) == (len(f"    {text}") <= columns - 2), "\n".join(example)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_examples_fold_between_words_at_every_width(name):
    expected = list(load(name).examples)
    assert expected
    for columns in WIDTHS:
        assert_examples_fit([name], expected, columns)


def test_adclis_own_examples_fold_between_words_at_every_width():
    for columns in WIDTHS:
        assert_examples_fit([], group_examples(), columns)


# ----- 7. the options each command's help lists ---------------------------------------

def options_listed(name: str) -> set[str]:
    code, out, err = run_cli(name, "--help")
    assert code == 0, err
    return set(re.findall(r"^\s+(?:-\w, )?(--[\w-]+)", out, re.MULTILINE))


POINTS_ONLY = ["--points", "--points-format", "--columns", "--skip-bad-rows"]


def test_plot_lists_no_option_it_refuses(tmp_path):
    points = tmp_path / "p.csv"
    points.write_text("x\n1\n2\n")
    values = {"--points": str(points), "--points-format": "csv", "--columns": "x"}
    listed = options_listed("plot")
    assert {"--at", "--grid", "--order", "--samples", "--output", "--format"} <= listed
    assert listed.isdisjoint(POINTS_ONLY), sorted(listed)
    for option in POINTS_ONLY:      # each refused in one line, naming it: exit 2
        value = [values[option]] if option in values else []
        code, out, err = run_cli("plot", "x^2", "--grid", "x=0:1:3", option, *value)
        assert code == 2 and out == "" and err.count("\n") == 1, (option, err)
        assert err.startswith(f"adcli: error: {option}: ") and "--grid" in err, err


def test_every_option_plot_lists_is_taken():
    # With the data printed (csv), each listed option runs: none is refused.
    takes = {"--order": ["2"], "--samples": ["5"], "--at": ["y=1"], "--grid": ["x=0:1:3"],
             "--format": ["csv"], "--digits": ["3"], "--let": ["F=x"]}
    for option in sorted(options_listed("plot") - {"--help", "--output"}):
        argv = ["plot", "x^2", "--format", "csv", *(["--grid", "x=0:1:3"]
                                                    if option != "--grid" else [])]
        code, out, err = run_cli(*argv, option, *takes.get(option, []))
        assert code == 0 and out.splitlines()[-1].startswith("1.0,1"), (option, err)  # f(1) = 1
    assert "--points" not in options_listed("plot")


def test_graph_help_says_its_grid_and_points_give_one_point(tmp_path):
    code, out, err = run_cli("graph", "--help")
    grid = re.search(r"--grid .*?(?=\n  -)", out, re.DOTALL).group()
    assert "one point" in " ".join(grid.split()), grid
    assert "several --grid make a product" not in " ".join(grid.split())
    # What it does: a one-point grid is its one value; more points are an error (exit 2).
    code, out, err = run_cli("graph", "x*y", "--grid", "x=2:2:1", "--at", "y=3", "--format",
                             "tree")
    assert code == 0 and "v1 = x = 2.0" in out, err
    code, out, err = run_cli("graph", "x*y", "--grid", "x=2:5:2", "--at", "y=3")
    assert code == 2 and out == "" and "one point" in err
    one, two = tmp_path / "one.csv", tmp_path / "two.csv"
    one.write_text("x,y\n2,3\n")
    two.write_text("x,y\n2,3\n4,5\n")
    code, out, err = run_cli("graph", "x*y", "--points", str(one), "--format", "tree")
    assert code == 0 and "v2 = y = 3.0" in out, err
    code, out, err = run_cli("graph", "x*y", "--points", str(two))
    assert code == 2 and "one point" in err


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_no_line_of_help_is_wider_than_a_40_column_terminal(name):
    # (--format's choices were listed in the option's column, 43 wide: the terminal broke
    # "[table|json|jsonl|csv|tsv|plain]" inside a word)
    lines = help_on_terminal([name], 40)
    assert [line for line in lines if cell_len(line) > 40] == [], name
