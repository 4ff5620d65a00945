"""The command line's words and its terminal (session 28, helper "words").

1. Bare ``adcli`` is a usage error (exit 2): one message, its first line saying what is
   wrong, then the commands, not the whole help.
2. ``--help``'s examples fold on a narrow terminal with every option beside its value,
   as the README says (``--points`` / ``points.csv`` were split at 25 columns).
3. ``grad --order 2 --wrt x,y`` is told to give one name to --wrt, and where mixed
   partials are, not to "name one with --wrt", which it did.
4. A bad item of --wrt is named, with why it is no variable.
5. Under --strict, a name the expression lacks is said to be refused because of --strict.
"""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import adcli
from adcli.commands import COMMANDS, load
from conftest import run_cli, run_in_pty, strict_json
from test_help_text import examples_shown

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _adcli_in_pty(argv, columns: int, rows: int = 200) -> tuple[int, list[str]]:
    """``adcli ARGV`` on a terminal, stdout and stderr both on it, run from the adcli
    these tests imported (so that the same file can be run against an older copy)."""
    root = str(Path(adcli.__file__).resolve().parent.parent)
    env = {k: v for k, v in os.environ.items()
           if k not in ("COLUMNS", "LINES", "PYTHONIOENCODING", "FORCE_COLOR")}
    env.update(PYTHONPATH=root, PYTHONUTF8="1", TERM="xterm-256color", NO_COLOR="1")
    code, text, _ = run_in_pty([sys.executable, "-m", "adcli", *argv], env, columns, rows,
                               stdin=subprocess.DEVNULL)
    return code, ANSI.sub("", text).replace("\r", "").rstrip("\n").split("\n")


def _error(*argv: str) -> str:
    code, out, err = run_cli(*argv)
    assert (code, out) == (2, ""), err
    assert "Traceback" not in err
    assert err.count("\n") == 1, err   # one line (in a pipe)
    return err.rstrip("\n")


# ----- 1. bare adcli ---------------------------------------------------------------------

def _summaries() -> dict[str, str]:
    from adcli.cli import _summary

    return {name: _summary(load(name)) for name in COMMANDS}


def test_bare_adcli_says_what_is_wrong_then_lists_the_commands():
    code, out, err = run_cli()
    assert (code, out) == (2, "")
    first, *rest = err.rstrip("\n").split("\n")
    assert first.startswith("adcli: error: no command given: "), err
    assert first.endswith("('adcli --help' tells more):") and len(first) <= 80, err
    # then each command, once, with its summary whole on its line (in a pipe)
    summaries = _summaries()
    assert [line.split()[0] for line in rest] == sorted(summaries), err
    for line in rest:
        name = line.split()[0]
        assert re.fullmatch(rf"  {name} +{re.escape(summaries[name])}", line), line
    # and nothing else of the help: no usage line, no options, no examples
    assert "Usage:" not in err and "Options:" not in err and "--version" not in err


def test_bare_adcli_with_only_a_global_flag_is_the_same_error():
    assert run_cli("--debug") == run_cli()


@pytest.mark.parametrize("columns", [30, 40])
def test_bare_adcli_on_a_narrow_terminal_folds_to_it(columns):
    code, lines = _adcli_in_pty([], columns)
    assert code == 2
    assert lines[0].startswith("adcli: error: no command"), lines
    assert max(map(len, lines)) <= columns, "\n".join(lines)
    for name in COMMANDS:   # (its summary beside it, or under it where too narrow)
        assert any(re.match(rf"  {name}( |$)", line) for line in lines), "\n".join(lines)


# ----- 2. examples fold with each option beside its value ---------------------------------

def _pairs(example: str) -> list[tuple[str, str]]:
    """Each option of an example with the word after it, its value."""
    words = shlex.split(example)
    return [(w, words[i + 1]) for i, w in enumerate(words[:-1])
            if w.startswith("-") and not words[i + 1].startswith("-")]


def _groupexamples_shown() -> list[str]:
    """adcli --help's examples, as written in its docstring (the \\b paragraph)."""
    import inspect

    from adcli.cli import cli

    paragraph = inspect.cleandoc(cli.help).split("\b\n", 1)[1].split("\n\n")[0]
    return [line.strip() for line in paragraph.splitlines()]


@pytest.mark.parametrize("columns", [25, 30, 40])
@pytest.mark.parametrize("command", ["", *sorted(COMMANDS)])
def test_an_example_folds_with_each_option_beside_its_value(command, columns):
    argv = [command] if command else []
    code, lines = _adcli_in_pty([*argv, "--help"], columns)
    assert code == 0
    written = list(load(command).examples) if command else _groupexamples_shown()
    shown = examples_shown(lines)
    screen = "\n".join(lines)
    # Pasted into a shell (which drops a backslash-newline), each is the command written.
    assert [shlex.split("\n".join(s).replace("\\\n", "")) for s in shown] == \
        [shlex.split(e) for e in written], screen
    for example, text in zip(shown, written):
        on_lines = [shlex.split(line.removesuffix(" \\")) for line in example]
        for option, value in _pairs(text):
            assert any((option, value) in zip(words, words[1:]) for words in on_lines), \
                f"{option} parted from {value} at {columns}:\n{screen}"
        for line, words in zip(example, on_lines):  # (a quoted argument stays whole)
            assert len(line) <= columns or len(words) == 1, screen


def test_the_readme_example_of_points_stays_one_pair_at_25_columns():
    # The report's case: "--points \" then "points.csv \" on the next line.
    _, lines = _adcli_in_pty(["--help"], 25)
    example = next(e for e in examples_shown(lines) if "points.csv" in " ".join(e))
    assert any(line.strip() == "--points points.csv \\" for line in example), example
    assert max(map(len, example)) <= 25, example


# ----- 3. --order N with several --wrt names ---------------------------------------------

def test_order_with_two_wrt_names_says_give_one_and_where_mixed_partials_are():
    message = _error("grad", "x^3*y^2", "--at", "x=1,y=2", "--order", "2", "--wrt", "x,y")
    assert message == ("adcli: error: --order 2 differentiates in one variable, not x, y: "
                       "give one name to --wrt; for mixed partials, adcli hessian, or "
                       "diff(EXPRESSION, x, y) in adcli eval, each name once for each time "
                       "to differentiate in it")


def test_order_3_with_wrt_names_points_to_diff_only():
    # (the Hessian is of order 2: for d3f/dx2 dy, diff(f, x, x, y))
    message = _error("grad", "x^2*y", "--at", "x=1,y=2", "--order", "3", "--wrt", "x,y")
    assert "adcli hessian" not in message
    assert message.endswith("for mixed partials, diff(EXPRESSION, x, y) in adcli eval, each "
                            "name once for each time to differentiate in it")


def test_a_constant_spelled_pi_in_wrt_is_said_to_be_one():
    assert _error("grad", "x^2", "--at", "x=1", "--wrt", "x,\u03c0") == \
        "adcli: error: --wrt 'x,\u03c0': \u03c0 is a constant, not a variable"


def test_the_mixed_partial_it_points_to_is_right():
    # d/dy d/dx of x^3 y^2 = 6 x^2 y: 12 at (1, 2), hessian's off-diagonal entry; its
    # diagonal: 6 x y^2 = 24 and 2 x^3 = 2
    code, out, err = run_cli("eval", "diff(x^3*y^2, x, y)", "--at", "x=1,y=2",
                             "--format", "plain")
    assert (code, float(out)) == (0, 12.0), err
    code, out, err = run_cli("hessian", "x^3*y^2", "--at", "x=1,y=2", "--format", "json")
    assert code == 0, err
    assert strict_json(out)["points"][0]["hessian"] == [[24.0, 12.0], [12.0, 2.0]]


def test_order_without_wrt_still_says_name_one():
    message = _error("grad", "x^3*y^2", "--at", "x=1,y=2", "--order", "2")
    assert message.endswith("not x, y: name one with --wrt")


# ----- 4. a bad --wrt item is named --------------------------------------------------------

@pytest.mark.parametrize("wrt, why", [
    ("1x", "'1x' is not a name: a name starts with a letter"),
    ("x,1", "'1' is not a name: a name starts with a letter"),
    ("x,sin", "'sin' is a function, not a variable"),
    ("ln,x", "'ln' is a function, not a variable"),
    ("x,log_2", "'log_2' is a function, not a variable"),
    ("x.y", "'x.y' is not a name: separate names with commas, --wrt x,y"),
    ("x y", "'x y' is not a name: separate names with commas, --wrt x,y"),
    ("x;y", "'x;y' is not a name: separate names with commas, --wrt x,y"),
    ("x,", "a name is empty (a comma too many?)"),
    ("x-y", "'x-y' is not a name (a letter, then letters, digits or '_')"),
])
def test_a_bad_wrt_item_is_named_with_why(wrt, why):
    message = _error("grad", "x*y", "--at", "x=1,y=2", "--wrt", wrt)
    assert message == f"adcli: error: --wrt {wrt!r}: {why}"


def test_good_wrt_names_still_work():
    # d/dy of x*y + y^2 = x + 2y = 5 at (1, 2); x is a parameter
    code, out, err = run_cli("grad", "x*y + y^2", "--at", "x=1,y=2", "--wrt", " y ",
                             "--format", "json")
    assert code == 0, err
    assert strict_json(out)["points"][0]["gradient"] == {"y": 5.0}


# ----- 5. --strict says it refused ---------------------------------------------------------

def test_an_unused_wrt_name_under_strict_says_it_is_refused_for_strict():
    message = _error("hessian", "x^2*y", "--wrt", "x,z", "--at", "x=1,y=2", "--strict")
    assert message == ("adcli: error: --wrt z: 'z' does not appear in the expression, so "
                       "its derivative is 0: refused under --strict")


def test_the_hint_comes_after_the_refusal():
    message = _error("grad", "x^2*y", "--wrt", "x,yy", "--at", "x=1,y=2", "--strict")
    assert message.endswith(": refused under --strict; did you mean 'y'?"), message


def test_an_unused_at_name_under_strict_says_it_is_refused_for_strict():
    message = _error("grad", "x^2", "--at", "x=1,z=3", "--strict")
    assert message == ("adcli: error: a value was given for 'z', which does not appear in "
                       "the expression: refused under --strict")


def test_without_strict_it_is_a_warning_and_the_run_goes_on():
    # f = x^2 y: df/dx = 2xy = 4, d2f/dx2 = 2y = 4 at (1, 2); z's row and column are 0
    code, out, err = run_cli("hessian", "x^2*y", "--wrt", "x,z", "--at", "x=1,y=2",
                             "--format", "json")
    assert code == 0
    assert err == ("adcli: warning: --wrt z: 'z' does not appear in the expression, so its "
                   "derivative is 0\n")
    point = strict_json(out)["points"][0]
    assert point["gradient"] == {"x": 4.0, "z": 0.0}
    assert point["hessian"] == [[4.0, 0.0], [0.0, 0.0]]


def test_checks_unused_name_under_strict_says_it_is_refused_for_strict():
    # (check has its own --at reading: the same words as grad's)
    assert _error("check", "x^2", "2x", "--at", "x=1,y=2", "--strict") == \
        "adcli: error: --at: 'y' does not appear in the expression: refused under --strict"
