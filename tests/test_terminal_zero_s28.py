"""A terminal whose width is 0 (COLUMNS=0, or a pty that reports 0 by 0, as some
containers' do) gets the tables at 80 columns, as Python's shutil takes it: every table
command printed nothing at all there, exit 0 (check: only its exit status)."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_in_pty


def _run(columns: int, rows: int, *argv: str, env_columns: str | None = None) -> str:
    env = {k: v for k, v in os.environ.items()
           if k not in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR")}
    env.update(PYTHONUTF8="1", TERM="xterm-256color",
               PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    if env_columns is not None:
        env["COLUMNS"] = env_columns
    code, text, _ = run_in_pty([sys.executable, "-m", "adcli", *argv], env, columns, rows,
                               stdin=subprocess.DEVNULL)
    return code, re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)


@pytest.mark.parametrize("size, env_columns", [((0, 0), None), ((100, 30), "0")])
def test_a_zero_wide_terminal_still_shows_the_table(size, env_columns):
    code, text = _run(*size, "grad", "x^3", "--at", "x=2", env_columns=env_columns)
    assert code == 0
    assert re.search(r"│ 2\.0 │ 8\.0 │ +12\.0 │", text), text
    assert max(len(line) for line in text.splitlines()) <= 80


def test_check_on_a_zero_wide_terminal_says_its_verdict():
    code, text = _run(0, 0, "check", "x^2", "3x", "--at", "x=1")
    assert code == 1
    assert "differs" in text and "expected" in text, text
