"""What a one-point run imports (issue 12, start-up): without timing anything, a module that
creeps back onto the path of ``adcli grad ... --at x=0.5`` fails here. Each was measured to
cost start-up time; each is still imported by the runs that need it (checked below too, so
that the listing is known to see them)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

LIST_MODULES = """
import io, json, sys
from adcli.cli import entry
out, sys.stdout = sys.stdout, io.StringIO()
try:
    entry()  # as the installed script runs it
except SystemExit as exit:
    code = exit.code
sys.stdout = out
print(json.dumps([code, sorted(sys.modules)]))
"""

ONE_POINT = ["grad", "exp(x^2)^2", "--at", "x=0.5"]

# Not for a one-point grad, whatever the format: the thread pool of many points, other
# commands' code (--order, check, trace, plot, graph), lark (explains syntax errors), the
# kernel (the tape is quicker than importing it, for one evaluation of a small expression).
NEVER = {"concurrent.futures", "adcli.kernel", "adcli.commands.nth", "adcli.taylor", "adcli.checking",
         "adcli.slips",
         "adcli.tracing", "adcli.plotting", "adcli.commands.check", "adcli.commands.trace",
         "adcli.commands.plot", "adcli.commands.graph", "lark",
         "dataclasses"}  # ~7 ms with the classes it writes: adcli.records instead
# A table for a pipe is drawn without rich (tests/test_tables.py: the same bytes).
NOT_FOR_A_PIPE = {"rich", "rich.console", "rich.table"}


def modules_of(*args: str, env=None) -> set[str]:
    if env is None:     # a pipe that is not told to act as a terminal
        env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    done = subprocess.run([sys.executable, "-c", LIST_MODULES, *args], capture_output=True,
                          text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    code, modules = json.loads(done.stdout)
    assert code == 0
    return set(modules)


@pytest.mark.parametrize("fmt", [["--format", "json"], []])
def test_a_one_point_grad_imports_only_what_it_uses(fmt):
    modules = modules_of(*ONE_POINT, *fmt)
    assert "numpy" in modules and "adcli.commands.gradient" in modules
    assert modules & (NEVER | NOT_FOR_A_PIPE) == set()
    assert ("adcli.tables" in modules) == (fmt == [])


def test_the_listing_sees_what_other_runs_import():
    assert {"adcli.commands.nth", "adcli.taylor"} <= modules_of(*ONE_POINT, "--order", "3")
    assert "adcli.kernel" in modules_of("grad", "exp(x^2)^2", "--grid", "x=0:1:100")
    # rich draws what is told to act as a terminal
    assert "rich.console" in modules_of(*ONE_POINT, env={**os.environ, "FORCE_COLOR": "1"})
