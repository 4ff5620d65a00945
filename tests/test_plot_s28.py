"""The terminal figure's size is capped (plotext holds ~0.6 KB a character cell: a huge
COLUMNS took gigabytes, or aborted in C++), LINES below the prompt's two rows is no
negative size, and an image whose write fails is a one-line error for every kind."""
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_cli, run_in_pty

from adcli import plotting


def _env() -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    env.update(PYTHONUTF8="1", TERM="xterm-256color",
               PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    return env


@pytest.mark.parametrize("columns, lines, size", [
    ("100000", "24", (plotting.MAX_COLUMNS, 22)),
    ("5000", "5000", (plotting.MAX_COLUMNS, plotting.MAX_ROWS)),
    ("120", "40", (120, 38)),
])
def test_the_figure_is_never_bigger_than_the_cap(monkeypatch, columns, lines, size):
    monkeypatch.setenv("COLUMNS", columns)
    monkeypatch.setenv("LINES", lines)
    code, out, err = run_cli("plot", "sin(x)", "--grid", "x=0:1", "--format", "plot")
    assert code == 0, err
    rows = out.splitlines()
    assert (max(map(len, rows)), len(rows)) == size


@pytest.mark.parametrize("columns, rows", [(80, 1), (15, 300), (600, 10)])
def test_a_terminal_too_small_is_said_in_its_own_size(columns, rows):
    code, text, _ = run_in_pty([sys.executable, "-m", "adcli", "plot", "x^2", "--grid",
                                "x=-1:1"], _env(), columns, rows, stdin=subprocess.DEVNULL)
    assert code == 2
    assert f"the terminal, {columns} columns by {rows} rows, is too small" in \
        " ".join(text.split())


def test_a_huge_columns_draws_a_capped_plot(monkeypatch):
    monkeypatch.setenv("COLUMNS", "1000000")
    monkeypatch.setenv("LINES", "60")
    code, out, err = run_cli("plot", "sin(x)", "--grid", "x=0:1", "--format", "plot")
    assert code == 0, err
    assert max(len(line) for line in out.splitlines()) == plotting.MAX_COLUMNS


def test_lines_of_one_is_said_as_zero_rows_not_minus_one(monkeypatch):
    monkeypatch.setenv("LINES", "1")
    monkeypatch.delenv("COLUMNS", raising=False)
    code, out, err = run_cli("plot", "sin(x)", "--grid", "x=0:1", "--format", "plot")
    assert code == 2 and out == ""
    assert "draws 80 columns by 0 rows" in err and "-1" not in err


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("kind", ["pdf", "png", "svg"])
def test_a_full_disk_is_a_one_line_error_for_every_image_kind(tmp_path, kind):
    pytest.importorskip("matplotlib")
    path = tmp_path / f"full.{kind}"
    path.symlink_to("/dev/full")
    code, out, err = run_cli("plot", "sin(x)", "--grid", "x=0:1", "-o", str(path))
    assert (code, out) == (2, "")
    assert err == f"adcli: error: cannot write {str(path)!r}: No space left on device\n"
