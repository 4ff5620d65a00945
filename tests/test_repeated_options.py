"""An option that takes one value, given twice, is a usage error naming it and both values
(it used to keep the last silently: ``--points a1.csv --points a2.csv`` read a2 only).

The options are read from every command's click parameters, so a new one-value option is
tested by existing: it needs only its two values in VALUES below."""
from __future__ import annotations

import re

import click
import pytest

from conftest import run_cli, run_in_pty
from test_output import ANSI, adcli_executable, child_env

from adcli.cli import cli
from adcli.commands import COMMANDS

# Each command with what it needs to run: its expressions, then a point (an option that
# brings its own points, like --points, replaces the point).
BASE = {name: ([name, "x*y"], ["--at", "x=1,y=2"]) for name in COMMANDS}
BASE["jacobian"] = (["jacobian", "x*y", "x+y"], ["--at", "x=1,y=2"])
BASE["check"] = (["check", "x*y", "--expect", "x=y"], ["--at", "x=1,y=2"])
BASE["plot"] = (["plot", "x^2"], ["--grid", "x=0:1:3"])

# option: (first value, second value, what else it needs, whether it brings the points).
# {tmp} is the test's directory: p1.csv and p2.csv are one point each, bare.txt one
# without a header.
VALUES = {
    "--wrt": ("x", "y", [], False),
    "--order": ("1", "2", [], False),
    "--samples": ("5", "7", [], False),
    "--seed": ("1", "2", [], False),
    "--rtol": ("1e-6", "1e-3", [], False),
    "--atol": ("0", "1e-9", [], False),
    "--mode": ("reverse", "forward", [], False),
    "--limit": ("3", "4", [], False),
    "--points": ("{tmp}/p1.csv", "{tmp}/p2.csv", [], True),
    "--points-format": ("csv", "tsv", ["--points", "{tmp}/p1.csv"], True),
    "--columns": ("x,y", "y,x", ["--points", "{tmp}/bare.txt"], True),
    "--format": ("json", "csv", [], False),
    "--digits": ("3", "4", [], False),
}
OWN_VALUES = {      # (command, option): where VALUES' would not do for that command
    ("trace", "--format"): ("json", "table", [], False),
    ("graph", "--format"): ("tree", "dot", [], False),
    ("plot", "--format"): ("csv", "json", [], False),
    ("graph", "--output"): ("{tmp}/a.dot", "{tmp}/b.dot", [], False),
    ("plot", "--output"): ("{tmp}/a.svg", "{tmp}/b.svg", [], False),
}
# Options that take several names in one value (their metavar is X,Y): the error says so.
COMMA_LISTS = {"--wrt", "--columns"}


def one_value_options(name: str) -> list[click.Option]:
    return [p for p in cli.get_command(None, name).params
            if isinstance(p, click.Option) and not (p.is_flag or p.multiple or p.count)]


CASES = [(name, option) for name in COMMANDS for option in one_value_options(name)]


def command_line(tmp_path, name: str, option: click.Option, *values: str) -> list[str]:
    spelling = max(option.opts, key=len)
    first, second, needs, own_points = OWN_VALUES.get((name, spelling)) \
        or VALUES[spelling]
    (tmp_path / "p1.csv").write_text("x,y\n1,2\n")
    (tmp_path / "p2.csv").write_text("x,y\n3,4\n")
    (tmp_path / "bare.txt").write_text("1 2\n")
    words, point = BASE[name]
    given = [word for value in values for word in (spelling, value)]
    line = [*words, *([] if own_points else point), *needs, *given]
    return [word.format(tmp=tmp_path) for word in line]


def values_of(name: str, option: click.Option) -> tuple[str, str]:
    spelling = max(option.opts, key=len)
    return (OWN_VALUES.get((name, spelling)) or VALUES[spelling])[:2]


def test_every_one_value_option_has_values():
    # a new option is covered here once its values are in VALUES (or OWN_VALUES)
    missing = [f"{name} {o.opts}" for name, o in CASES
               if (name, max(o.opts, key=len)) not in OWN_VALUES
               and max(o.opts, key=len) not in VALUES]
    assert not missing
    assert {max(o.opts, key=len) for _, o in CASES} >= {"--points", "--columns", "--wrt",
                                                         "--format", "--output", "--seed"}


@pytest.mark.parametrize("name, option", CASES, ids=lambda v: getattr(v, "name", v))
def test_an_option_given_twice_is_refused_naming_both_values(tmp_path, name, option):
    first, second = (v.format(tmp=tmp_path) for v in values_of(name, option))
    code, out, err = run_cli(*command_line(tmp_path, name, option, first, second))
    shown = "/".join(option.opts)
    expected = f"adcli: error: {shown} is given twice ({first}, {second}): give it once"
    if shown in COMMA_LISTS:
        expected += f", as {shown} {first},{second}"
    assert (code, out) == (2, "")
    assert err == f"{expected} (see 'adcli {name} --help')\n"


@pytest.mark.parametrize("name, option", CASES, ids=lambda v: getattr(v, "name", v))
def test_the_option_given_once_still_works(tmp_path, name, option):
    first, _ = (v.format(tmp=tmp_path) for v in values_of(name, option))
    code, out, err = run_cli(*command_line(tmp_path, name, option, first))
    assert code == 0, err
    assert "error" not in err


@pytest.mark.parametrize("argv, message", [
    # = glued, or the value the next word: the same option
    (["eval", "x", "--at", "x=1", "--digits=3", "--digits", "4"],
     "--digits is given twice (3, 4): give it once"),
    # a short option glued to its value, or either spelling
    (["graph", "x", "-o{tmp}/a.dot", "--output={tmp}/b.dot"],
     "-o/--output is given twice ({tmp}/a.dot, {tmp}/b.dot): give it once"),
    (["grad", "x*y*z", "--at", "x=1,y=2,z=3", "--wrt", "x,y", "--wrt", "z", "--wrt", "y"],
     "--wrt is given 3 times (x,y, z, y): give it once, as --wrt x,y,z,y"),
    # a value that looks like an option is still the value
    (["eval", "x", "--at", "x=1", "--format", "json", "--format", "--digits"],
     "--format is given twice (json, --digits): give it once"),
    # one value again among others: all are named, as given
    (["eval", "x", "--at", "x=1", "--digits", "3", "--digits", "3", "--digits", "4"],
     "--digits is given 3 times (3, 3, 4): give it once"),
])
def test_spellings_of_a_repeated_option(tmp_path, argv, message):
    code, out, err = run_cli(*(word.format(tmp=tmp_path) for word in argv))
    assert (code, out) == (2, "")
    assert err == f"adcli: error: {message.format(tmp=tmp_path)} (see 'adcli {argv[0]} " \
                  "--help')\n"


@pytest.mark.parametrize("argv", [
    ["grad", "x", "--at", "x=1", "--strict", "--strict"],       # a flag twice: harmless
    ["grad", "x", "--at", "x=1", "--at", "y=2", "--grid", "z=0:1:2"],  # multiple options
    ["eval", "F+G", "--let", "F=x", "--let", "G=x", "--at", "x=1"],
    # the same value again loses nothing (as a flag twice): a script may add it twice
    ["plot", "x^2", "--grid", "x=0:1:3", "--format", "csv", "--format", "csv"],
])
def test_flags_and_repeatable_options_may_be_given_again(argv):
    code, out, err = run_cli(*argv)
    assert code == 0, err


def test_help_comes_first():
    # --help is eager, as click has it: it shows help whatever else is wrong
    code, out, err = run_cli("grad", "x", "--digits", "3", "--digits", "4", "--help")
    assert code == 0 and out.startswith("Usage: adcli grad") and err == ""


def test_a_value_after_double_dash_is_an_argument_not_an_option():
    # after "--" the word --digits is the expression's (here a second, stray argument)
    code, out, err = run_cli("eval", "--digits", "3", "--", "x", "--digits")
    assert code == 2 and "given twice" not in err
    assert re.search(r"--digits after '--' is read as an argument, not an option", err)


@pytest.mark.parametrize("columns", [40, 80, 120])
def test_on_a_terminal_the_error_folds_between_words(columns):
    argv = ["grad", "x*y", "--at", "x=1,y=2", "--wrt", "x", "--wrt", "y"]
    code, text, _ = run_in_pty([adcli_executable(), *argv], child_env(), columns)
    lines = ANSI.sub("", text).replace("\r", "").splitlines()
    assert code == 2 and all(len(line) <= columns for line in lines)
    assert " ".join(" ".join(lines).split()) == "adcli: error: --wrt is given twice (x, y): " \
        "give it once, as --wrt x,y (see 'adcli grad --help')"
