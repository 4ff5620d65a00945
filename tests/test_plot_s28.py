"""The terminal figure's size is capped (plotext holds ~0.6 KB a character cell: a huge
COLUMNS took gigabytes, or aborted in C++), LINES below the prompt's two rows is no
negative size, and an image whose write fails is a one-line error for every kind."""
import os

import pytest
from conftest import run_cli

from adcli import plotting


@pytest.mark.parametrize("columns, lines, size", [
    ("100000", "24", (plotting.MAX_COLUMNS, 22)),
    ("5000", "5000", (plotting.MAX_COLUMNS, plotting.MAX_ROWS)),
    ("120", "40", (120, 38)),
    ("80", "1", (80, 0)),
])
def test_the_figure_is_never_bigger_than_the_cap_nor_negative(monkeypatch, columns, lines,
                                                              size):
    monkeypatch.setenv("COLUMNS", columns)
    monkeypatch.setenv("LINES", lines)
    assert plotting.terminal_size() == size


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
