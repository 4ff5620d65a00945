"""Tables drawn without rich are the bytes rich draws.

For a pipe or a file, adcli.tables writes the usual tables itself (importing rich costs
~20 ms of start-up). The reference here is rich itself: every table is drawn both ways,
through the same layout code, and the outputs must be equal byte for byte. The tests also
check that the rich-free path really drew them (no silent hand-over to rich), and that what
it cannot draw exactly (wide characters, emoji, terminals) is handed to rich.
"""
from __future__ import annotations

import io
import os
import random
import subprocess
import sys

import pytest
from rich.cells import cell_len as rich_cell_len

from adcli import pipeline, tables
from adcli.cli import main
from adcli.commands.evaluate import Eval
from adcli.commands.gradient import Grad
from adcli.commands.hessian import Hessian
from adcli.commands.jacobian import Jacobian

WIDTHS = [12, 30, 40, 80, 120, tables.PIPE_WIDTH]
LABELS = ["x", "y", "θ", "x₁", "x_2", "∂f/∂x", "∂²f", "d³f/dx³", "café", "Ωmega", "жук",
          "long_variable_name", "f", "point 3", "", " padded ", "a  b", "…", "x⁻¹", "¿?"]


@pytest.fixture(autouse=True)
def plain_environment(monkeypatch):
    # rich would style a "terminal" it is told about: the comparison is for pipes.
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)


def both_ways(draw, width):
    """What ``draw(console)`` writes with the rich-free console and with rich's."""
    plain_out, rich_out = io.StringIO(), io.StringIO()
    plain = tables._PlainConsole(plain_out, width)
    draw(plain)
    draw(tables._RichConsole(rich_out, width))
    return plain_out.getvalue(), rich_out.getvalue(), plain._rich is not None


def number(rng):
    kind = rng.random()
    if kind < 0.1:
        return rng.choice(["nan", "inf", "-inf", "0.0", "-0.0"])
    value = rng.uniform(-1, 1) * 10 ** rng.randint(-30, 30)
    return repr(value if kind < 0.8 else round(value, rng.randint(0, 3)))


def random_columns(rng, count, rows, justify=None):
    return [tables.Column(rng.choice(LABELS), [number(rng) for _ in range(rows)],
                          justify or rng.choice(["left", "right"])) for _ in range(count)]


@pytest.mark.parametrize("seed", range(40))
def test_points_tables_are_rich_s_bytes(seed):
    rng = random.Random(seed)
    keys = random_columns(rng, rng.choice([1, 3, 8]), rng.choice([0, 1, 2, 5]), "right")
    values = random_columns(rng, rng.randint(1, 9), len(keys[0].cells))
    for width in WIDTHS:
        plain, rich, handed_over = both_ways(
            lambda console: tables.print_points(console, keys, values), width)
        assert plain == rich, (width, plain, rich)
        assert not handed_over


@pytest.mark.parametrize("seed", range(30))
def test_matrices_are_rich_s_bytes(seed):
    rng = random.Random(seed)
    size = rng.choice([1, 2, 3, 8])
    names = [rng.choice(LABELS[:12]) for _ in range(size)]
    cells = [[number(rng) for _ in range(size)] for _ in range(size)]
    for width in WIDTHS:
        plain, rich, handed_over = both_ways(
            lambda console: tables.print_matrix(console, "Hessian at", "∂²f", names,
                                                [f"∂/∂{n}" for n in names], cells,
                                                [("x", "1.0")]), width)
        assert plain == rich, (width, plain, rich)
        assert not handed_over      # the title is folded by adcli, between pairs


@pytest.mark.parametrize("line", ["read as: exp(x^2)^2", "", "   ", "  indented", "trailing  ",
                                  "         f2 = sin(x)", "x" * 150, "a b " * 40, "∂f/∂x … θ"])
@pytest.mark.parametrize("width", [10, 40, 120, tables.PIPE_WIDTH])
def test_headings_are_rich_s_bytes(line, width):
    plain, rich, handed_over = both_ways(lambda c: tables.print_heading(c, [line]), width)
    assert plain == rich
    assert not handed_over      # adcli folds a heading too wide for the line (tables.hanging)


@pytest.mark.parametrize("text", ["✓ 日本語", "emoji 🙂", "e\u0301", "zero\u200bwidth",
                                  "tab\there", "x\x1b[31m"])
def test_what_the_plain_console_cannot_draw_goes_to_rich(text):
    keys = [tables.Column(text, ["1.0"])]
    values = [tables.Column("f", [text])]
    plain, rich, handed_over = both_ways(lambda c: tables.print_points(c, keys, values), 80)
    assert plain == rich
    # Header and cell are escaped alike ("tab\\there"): only what stays unusual needs rich.
    assert handed_over == (text in ("✓ 日本語", "emoji 🙂", "e\u0301"))
    plain, rich, _ = both_ways(lambda c: tables.print_heading(c, [text]), 80)
    assert plain == rich


def test_one_cell_characters_are_one_cell_for_rich():
    simple = [chr(c) for c in range(sys.maxunicode + 1) if tables._simple(chr(c))]
    assert "∂" in simple and "θ" in simple and "x" in simple and len(simple) > 900
    assert [c for c in simple if rich_cell_len(c) != 1] == []
    assert "日" not in simple and "\t" not in simple and "\u0301" not in simple


# ----- whole commands, as the CLI draws them ------------------------------------------------

def command_output(monkeypatch, make_console, run):
    monkeypatch.setattr(tables, "console", make_console)
    return run()


def rich_console(out, width=None):
    return tables._RichConsole(out, tables.PIPE_WIDTH if width is None else width)


MAKE_CONSOLE = tables.console
HANDED_OVER = []


def plain_console(out, width=None):
    """adcli's own choice of console, which must be the rich-free one here; a note is made
    if it hands anything over to rich."""
    console = MAKE_CONSOLE(out, width)
    assert isinstance(console, tables._PlainConsole)
    fallback = console._fallback
    console._fallback = lambda: HANDED_OVER.append(1) or fallback()
    return console


def table_run(command_class, texts, width, **options):
    def run():
        out = io.StringIO()
        pipeline.run(command_class, texts, out=out, err=io.StringIO(), width=width,
                     fmt="table", **options)
        return out.getvalue()
    return run


CASES = [
    (Grad, ["exp(x^2)^2"], {"at": ("x=0.5",)}),
    (Grad, ["x*y*z + sin(θ)"], {"at": ("x=1,y=2,z=3,θ=0.5",)}),
    (Grad, ["x1+x2*x3-x4/x5+x6^2+x7*x8"], {"at": ("x1=1,x2=2,x3=3,x4=4,x5=5,x6=6,x7=7,x8=8",)}),
    (Grad, ["x*y"], {"grid": ("x=0:1:4",), "at": ("y=1/3",)}),
    (Grad, ["sin(x)"], {"at": ("x=1",), "order": 3}),
    (Eval, ["x^2", "log(x)"], {"grid": ("x=-1:2:3",)}),
    (Hessian, ["x^2*y + sin(y)"], {"at": ("x=1,y=2",)}),
    (Hessian, ["a*b*c*d*u*g*h*k"], {"at": ("a=1,b=2,c=3,d=4,u=5,g=6,h=7,k=8",)}),
    (Jacobian, ["x*y", "sin(x)", "exp(y)/3"], {"at": ("x=1,y=2",), "grid": ("z=0:1:2",)}),
]


@pytest.mark.parametrize("command_class, texts, options", CASES)
@pytest.mark.parametrize("width", [40, 80, 120, None])
def test_command_tables_are_rich_s_bytes(monkeypatch, command_class, texts, options, width):
    options = dict(options)
    if "order" in options:
        command_class = command_class.select(order=options["order"])
    run = table_run(command_class, texts, width, **options)
    with_rich = command_output(monkeypatch, rich_console, run)
    HANDED_OVER.clear()
    plain = command_output(monkeypatch, plain_console, run)
    assert plain == with_rich
    assert "│" in plain
    if width is None or width >= 120:   # narrower, a long heading is folded (by rich)
        assert HANDED_OVER == []


def test_check_tables_are_rich_s_bytes(monkeypatch, capsys):
    args = ["check", "abs(x) + x^2", "--grid", "x=-1:1:5"]

    def run():
        main(args)
        return capsys.readouterr().out
    with_rich = command_output(monkeypatch, rich_console, run)
    HANDED_OVER.clear()
    plain = command_output(monkeypatch, plain_console, run)
    assert plain == with_rich
    assert "│" in plain and HANDED_OVER == []


# ----- which console draws -------------------------------------------------------------------

class Terminal(io.StringIO):
    def isatty(self):
        return True


class Latin1(io.StringIO):
    encoding = "latin-1"


def test_terminals_and_unusual_outputs_are_drawn_by_rich(monkeypatch):
    assert isinstance(tables.console(io.StringIO()), tables._PlainConsole)
    assert isinstance(tables.console(Terminal(), 80), tables._RichConsole)
    assert isinstance(tables.console(Latin1()), tables._RichConsole)
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert isinstance(tables.console(io.StringIO()), tables._RichConsole)


def test_a_table_to_a_closed_pipe_exits_0_quietly():
    # The reader is gone before anything is written: a small table must still meet the
    # broken pipe while adcli runs (flushed, as rich flushes), not at exit.
    read_end, write_end = os.pipe()
    os.close(read_end)
    env = {k: v for k, v in os.environ.items()         # buffered, as stdout usually is
           if k not in ("FORCE_COLOR", "TTY_COMPATIBLE", "PYTHONUNBUFFERED")}
    try:
        done = subprocess.run([sys.executable, "-m", "adcli", "grad", "x^2", "--at", "x=1"],
                              stdout=write_end, stderr=subprocess.PIPE, env=env, timeout=120)
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (0, b"")
