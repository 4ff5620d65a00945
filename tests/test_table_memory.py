"""A long table to a pipe or a file keeps its points as numbers, not as text.

A table is written once every point is known (a column is as wide as its widest cell), so
its points are kept until the end. They used to be kept as a Python string per cell: a
million points took ~1.3 GB, where CSV, which streams, takes ~50 MB. Now they are kept as
computed (float64 arrays) and made text a slice at a time, to measure the columns and
again to write the rows (tables.print_rows). The bytes must be those rich would draw:
print_rows either writes them or writes nothing and says so.
"""
from __future__ import annotations

import io
import math
import os
import random
import subprocess
import sys

import pytest

from adcli import pipeline, render, tables
from adcli.commands.evaluate import Eval
from adcli.commands.gradient import Grad
from adcli.commands.hessian import Hessian
from adcli.commands.jacobian import Jacobian

TEXTS = ["p1", "a b", " padded ", "", "café", "x₁", "#3", "tab\there", "'quoted'", "∂f",
         "日本", "long label of a point"]


@pytest.fixture(autouse=True)
def plain_environment(monkeypatch):
    # rich would style a "terminal" it is told about: the comparison is for pipes.
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)


def number(rng):
    if rng.random() < 0.15:
        return rng.choice(["nan", "inf", "-inf", "0.0", "-0.0"])
    return repr(rng.uniform(-1, 1) * 10 ** rng.randint(-30, 30))


def in_slices(rng, columns):
    """The columns' cells as print_rows takes them: lists per column, a random slice of
    rows at a time (a slice may be empty)."""
    n = len(columns[0].cells)
    cuts = sorted({0, n, *(rng.randint(0, n) for _ in range(rng.randint(0, 4)))})
    return lambda: ([c.cells[a:b] for c in columns] for a, b in zip(cuts, cuts[1:]))


@pytest.mark.parametrize("seed", range(60))
def test_rows_written_a_slice_at_a_time_are_rich_s_bytes(seed):
    rng = random.Random(seed)
    n, texts = rng.choice([1, 2, 7, 40]), rng.randint(0, 2)
    columns = [tables.Column(rng.choice(TEXTS), [rng.choice(TEXTS) for _ in range(n)],
                             "left") for _ in range(texts)]
    columns += [tables.Column(rng.choice(["x", "y", "f", "∂f/∂x", "d³f/dx³"]),
                              [number(rng) for _ in range(n)], "right")
                for _ in range(rng.randint(1, 6))]
    for width in [40, 120, tables.PIPE_WIDTH]:
        plain_out, rich_out = io.StringIO(), io.StringIO()
        console = tables._PlainConsole(plain_out, width)
        written = tables.print_rows(console, [tables.Column(c.header, [], c.justify)
                                              for c in columns], in_slices(rng, columns),
                                    numbers=texts)
        tables.print_points(tables._RichConsole(rich_out, width), columns[:texts],
                            columns[texts:])
        if written:
            assert plain_out.getvalue() == rich_out.getvalue(), (width, plain_out.getvalue())
        else:
            assert plain_out.getvalue() == ""
        # It declines only what print_points lays out otherwise, or rich must draw.
        wide = tables.table_width(c.width for c in tables._escaped(columns)) > width
        unusual = any(cell in ("日本",) for c in columns for cell in c.cells + [c.header])
        assert written == (not wide and not unusual)


def rich_console(out, width=None):
    return tables._RichConsole(out, tables.PIPE_WIDTH if width is None else width)


CASES = [
    (Grad, ["sin(x)*y"], {"grid": ("x=-1:1:50",), "at": ("y=2",)}),
    (Grad, ["1/x + log(y)"], {"grid": ("x=-1:1:9", "y=-1:1:5"), "digits": 3}),
    (Grad, ["sin(x)/x"], {"grid": ("x=-1:1:31",), "order": 3}),
    (Eval, ["log(x)"], {"grid": ("x=-2:2:41",), "digits": 2}),
    (Hessian, ["x^y"], {"grid": ("x=0:1:4",), "at": ("y=2",)}),
    (Jacobian, ["x*y", "sin(x)", "1/x"], {"grid": ("x=-1:1:21",), "at": ("y=3",)}),
]


@pytest.mark.parametrize("command_class, texts, options", CASES)
def test_a_table_of_many_chunks_and_slices_is_rich_s_bytes(monkeypatch, command_class, texts,
                                                           options):
    # Chunks of 7 points made text 3 at a time: every seam between slices and chunks.
    options = dict(options)
    if "order" in options:
        command_class = command_class.select(order=options.pop("order"))
    monkeypatch.setattr(pipeline, "chunk_size_for", lambda size: 7)
    monkeypatch.setattr(render, "_TABLE_SLICE", 3)
    streamed = []
    print_rows = tables.print_rows
    monkeypatch.setattr(tables, "print_rows", lambda *a, **k: streamed.append(
        print_rows(*a, **k)) or streamed[-1])

    def run():
        out = io.StringIO()
        pipeline.run(command_class, texts, out=out, err=io.StringIO(), fmt="table",
                     **options)
        return out.getvalue()
    plain = run()
    assert streamed == ([] if command_class is Jacobian else [True])    # (matrices only)
    monkeypatch.setattr(tables, "console", rich_console)
    assert plain == run()


def points_run(monkeypatch, text):
    monkeypatch.setattr(pipeline, "chunk_size_for", lambda size: 2)
    out = io.StringIO()
    pipeline.run(Grad, ["x*y"], out=out, err=io.StringIO(), fmt="table",
                 points_file=io.StringIO(text))
    return out.getvalue()


def test_passed_through_columns_are_shown_as_read(monkeypatch):
    text = 'id,label,x,y\n1,a b,1.5,2\n2, padded ,-0.0,1e300\n"#3",café,nan,inf\n' \
           '4,,2,-inf\n5,"x,y",0,0\n'
    plain = points_run(monkeypatch, text)
    rows = [line.split("│")[1:-1] for line in plain.splitlines() if line.startswith("│")]
    # x*y and its gradient (y, x), from the points as written
    assert [[cell.strip() for cell in row] for row in rows] == [
        ["1", "a b", "1.5", "2.0", "3.0", "2.0", "1.5"],
        ["2", "padded", "-0.0", "1e+300", "-0.0", "1e+300", "-0.0"],
        ["#3", "café", "nan", "inf", "nan", "inf", "nan"],
        ["4", "", "2.0", "-inf", "-inf", "-inf", "2.0"],
        ["5", "x,y", "0.0", "0.0", "0.0", "0.0", "0.0"]]
    assert rows[1][1][1:-1] == " padded "      # (inside the cell's padding) as read
    monkeypatch.setattr(tables, "console", rich_console)
    assert points_run(monkeypatch, text) == plain


@pytest.mark.parametrize("label", ["日本", "tab\there", "nul\x00inside"])
def test_unusual_passed_through_texts_are_rich_s_bytes(monkeypatch, label):
    text = f"id,x,y\n{label},1,2\nplain,3,4\n"
    plain = points_run(monkeypatch, text)
    monkeypatch.setattr(tables, "console", rich_console)
    assert points_run(monkeypatch, text) == plain


# ----- peak memory of a whole run --------------------------------------------------------

# Runs adcli (argv) with its stdout on this launcher's, a pipe; says its exit status and
# peak RSS (KB, as Linux counts ru_maxrss) on stderr's last line.
_LAUNCHER = ("import os, sys\npid = os.fork()\nif pid == 0:\n"
             "    os.execv(sys.executable, [sys.executable, '-m', 'adcli', *sys.argv[1:]])\n"
             "_, status, usage = os.wait4(pid, 0)\n"
             "sys.stderr.write(f'\\nPEAK {os.waitstatus_to_exitcode(status)} "
             "{usage.ru_maxrss}\\n')\n")


def peak_rss(tmp_path, *args) -> tuple[float, int]:
    """adcli's peak RSS (MB) writing to a pipe, and the bytes it wrote there."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("FORCE_COLOR", "TTY_COMPATIBLE", "COLUMNS")}
    child = subprocess.Popen([sys.executable, "-c", _LAUNCHER, *args], cwd=tmp_path,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    size = sum(len(block) for block in iter(lambda: child.stdout.read(1 << 20), b""))
    err = child.stderr.read().decode()
    child.wait()
    _, code, rss = err.strip().splitlines()[-1].split()
    assert code == "0", err
    return int(rss) / 1024, size


def table_over_csv(tmp_path, *args) -> float:
    table, table_size = peak_rss(tmp_path, *args)
    csv, csv_size = peak_rss(tmp_path, *args, "--format", "csv")
    assert table_size > csv_size > 0
    return table / csv


def test_a_long_table_takes_little_more_memory_than_csv(tmp_path):
    # 100,000 points: as text, ~130 MB more than CSV's ~50 MB; as numbers, ~4 MB more.
    ratio = table_over_csv(tmp_path, "grad", "sin(x)*y", "--grid", "x=0:1:100001",
                           "--at", "y=2")
    assert ratio < 1.5


@pytest.mark.skipif(os.environ.get("ADCLI_SLOW") != "1", reason="a minute: ADCLI_SLOW=1")
def test_a_million_points_in_a_table_take_at_most_twice_csv_s_memory(tmp_path):
    rng = random.Random(1)
    with open(tmp_path / "points.csv", "w", encoding="utf-8") as points:
        points.write("id,x,y\n")
        for i in range(1_000_000):
            points.write(f"p{i},{rng.uniform(-3, 3)!r},{rng.uniform(-3, 3)!r}\n")
    assert table_over_csv(tmp_path, "grad", "sin(x)*y", "--points", "points.csv") < 2
    assert table_over_csv(tmp_path, "grad", "sin(x)*y", "--grid", "x=0:1:1000001",
                          "--at", "y=2") < 2


def test_the_table_s_numbers_read_back(tmp_path):
    # f = sin(x)*y, ∂f/∂x = y cos(x), ∂f/∂y = sin(x), at x = k/4 (y = 2), read back.
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    done = subprocess.run([sys.executable, "-m", "adcli", "grad", "sin(x)*y", "--grid",
                           "x=0:1:5", "--at", "y=2"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    rows = [line.split("│")[1:-1] for line in done.stdout.splitlines()
            if line.startswith("│")]
    assert len(rows) == 5
    for k, row in enumerate(rows):
        x, y, f, dx, dy = map(float, row)
        assert (x, y) == (k / 4, 2.0)
        assert math.isclose(f, 2 * math.sin(x), rel_tol=1e-15, abs_tol=1e-300)
        assert math.isclose(dx, 2 * math.cos(x), rel_tol=1e-15)
        assert math.isclose(dy, math.sin(x), rel_tol=1e-15, abs_tol=1e-300)
