"""Helpers shared by the test files: running the CLI in this process, strict JSON."""
from __future__ import annotations

import contextlib
import functools
import importlib.util
import io
import json
import signal
import sys
import warnings
from pathlib import Path

import pytest


def _stream(errors: str) -> io.TextIOWrapper:
    # As CPython sets up stdio under a UTF-8 locale: stdout strict, stderr backslashreplace.
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors=errors, newline="\n",
                            write_through=True)


class Hang(BaseException):
    """Raised by the alarm: not an Exception, so main() cannot swallow it."""


def run_cli(*argv: str, stdin: str = "", timeout: int | None = None) -> tuple[int, str, str]:
    """``adcli ARGV`` in this process: stdio captured (as a pipe would), every warning an
    error, so a numpy RuntimeWarning that leaks fails the test; with ``timeout``, a run
    longer than that many seconds fails as a hang."""
    from adcli.cli import main

    def on_alarm(signum, frame):
        raise Hang(f"adcli ran for more than {timeout} s on {list(argv)!r:.300}")

    out, err = _stream("strict"), _stream("backslashreplace")
    saved_stdin, sys.stdin = sys.stdin, io.StringIO(stdin)
    if timeout:
        previous = signal.signal(signal.SIGALRM, on_alarm)
        signal.alarm(timeout)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(list(argv))
    finally:
        if timeout:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
        sys.stdin = saved_stdin
    return code, *(s.buffer.getvalue().decode("utf-8", "surrogateescape") for s in (out, err))


def grad_at_2(text: str) -> tuple[float, float]:
    """``adcli grad TEXT --at x=2 --format json``'s value and derivative in x, the run
    checked to have succeeded (the pasted-notation files read x^3 in many forms)."""
    code, out, err = run_cli("grad", text, "--at", "x=2", "--format", "json")
    assert code == 0, err
    point = strict_json(out)["points"][0]
    return point["value"], point["gradient"]["x"]


def grad_said(text: str, at: str = "x=2") -> tuple[float, dict, list[str]]:
    """Value, gradient and warnings of ``adcli grad TEXT --at AT``, the run succeeded."""
    code, out, err = run_cli("grad", text, "--at", at, "--format", "json")
    assert code == 0, err
    point = strict_json(out)["points"][0]
    return point["value"], point["gradient"], warnings_in(err)


def close(got: float, want: float) -> bool:
    """Within 1e-13 of a hand reference, with no absolute slack (tiny numbers count)."""
    import math

    return math.isclose(got, want, rel_tol=1e-13, abs_tol=0.0)


def strict_json(text: str):
    """The whole text as one JSON object; a bare NaN/Infinity (invalid JSON) fails."""
    def refuse(constant):
        raise AssertionError(f"bare {constant} in the JSON output")
    return json.loads(text, parse_constant=refuse)


def warnings_in(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("adcli: warning:")]


@functools.cache
def accuracy_script():
    """scripts/accuracy.py as a module: its 50-digit mpmath references and ulp scoring."""
    path = Path(__file__).resolve().parent.parent / "scripts" / "accuracy.py"
    spec = importlib.util.spec_from_file_location("accuracy_script", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def cli():
    return run_cli


@pytest.fixture
def tape(monkeypatch):
    """Evaluate through the tape alone (the kernel stepped aside): the reference the
    kernel's numbers must equal to the last bit."""
    from adcli import kernel

    def run(expression, at, wrt=None):
        with monkeypatch.context() as m:
            m.setattr(kernel, "evaluate", lambda *args, **kwargs: None)
            return expression.derivatives(at, wrt=wrt)
    return run



def nested_reverse(expression, values: dict, name: str, order: int):
    """The order-th derivative in ``name`` by reverse passes over the tape's graph, each
    differentiating the last (drivers.nth_derivative): independent of the Taylor rules,
    which Expression.derivative uses for every expression without diff()."""
    import numpy as np

    from adcli.drivers import nth_derivative
    from adcli.expression import _Run

    arrays = np.broadcast_arrays(*[np.asarray(values[v], dtype=np.float64)
                                   for v in expression.variables])
    with np.errstate(all="ignore"):
        run = _Run(expression, arrays, arrays[0].shape, watching=False)
        return nth_derivative(run.forward(), run.leaves, name, order, run.shape)

def wrong_identity(registered, called: str, factor: float):
    """called(x): x, whose backward rule says ``factor`` (wrong: the derivative is 1), for
    tests that a check catches a wrong rule; ``registered``: the fixture below."""
    from adcli.functions import Primitive

    @registered
    class Wrong(Primitive):
        name = called       # (registered under it as the class is made)
        def forward(self, x): return x
        def backward(self, gy): return factor * gy
    return Wrong


@pytest.fixture
def registered():
    """Define primitives for one test, then take them out of the registry again:
    ``registered(cls)`` (or as a class decorator) after defining one."""
    from adcli.functions import CALLABLE, PRIMITIVES

    added = []

    def define(cls):
        added.append(cls)
        return cls

    yield define
    for cls in added:
        PRIMITIVES.pop(cls.name, None)
        CALLABLE.pop(cls.name, None)


@pytest.fixture
def data_reading_ramp(registered):
    """A registered primitive ``data_reading_ramp``: max(x, 0), whose backward rule reads
    the numbers of its input (the slope), so kernel.py cannot replay it."""
    import numpy as np

    from adcli.core import Variable
    from adcli.functions import Primitive

    @registered
    class Ramp(Primitive):
        name = "data_reading_ramp"
        def forward(self, x): return np.maximum(x, 0.0)
        def backward(self, gy): return gy * Variable(self.inputs[0].data > 0)
    return Ramp


def run_in_pty(argv, env, columns: int, rows: int = 24, stdin=None, stderr_apart=False,
               timeout: int = 60) -> tuple[int, str, str]:
    """``argv`` with its stdout (and stderr, unless ``stderr_apart``) on a pseudo-terminal of
    ``columns`` x ``rows``, as a user sees it: (exit status, terminal text, stderr)."""
    import fcntl
    import os
    import select
    import struct
    import subprocess
    import termios
    import time

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    child = subprocess.Popen(argv, stdin=stdin if stdin is not None else slave, stdout=slave,
                             stderr=subprocess.PIPE if stderr_apart else slave, env=env,
                             close_fds=True)
    os.close(slave)
    data, deadline = b"", time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                block = os.read(master, 65536)
            except OSError:          # EIO: the child closed the terminal
                break
            if not block:
                break
            data += block
        elif child.poll() is not None:
            break
    os.close(master)
    err = child.stderr.read().decode() if stderr_apart else ""
    code = child.wait(timeout=10)
    return code, data.decode("utf-8").replace("\r\n", "\n"), err


def adcli_on_terminal(columns: int, *argv: str) -> tuple[int, list[str]]:
    """``adcli ARGV`` from this checkout on a pseudo-terminal ``columns`` wide, as a user's
    shell runs it (no COLUMNS, LINES or colour settings inherited): (exit status, the
    terminal's rows without escape codes), every row checked to fit the width."""
    import os
    import re
    import subprocess

    env = {k: v for k, v in os.environ.items()
           if k not in ("COLUMNS", "LINES", "PYTHONIOENCODING", "NO_COLOR", "FORCE_COLOR")}
    env.update(PYTHONUTF8="1", TERM="xterm-256color",
               PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    code, text, _ = run_in_pty([sys.executable, "-m", "adcli", *argv], env, columns,
                               rows=200, stdin=subprocess.DEVNULL)
    rows = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text).rstrip("\n").split("\n")
    assert all(len(row) <= columns for row in rows), rows
    return code, rows


def terminal_cells(text: str) -> int:
    """Terminal columns of a row: a combining mark (the bar of v̄, the dot of v̇) takes none."""
    import unicodedata

    return sum(0 if unicodedata.combining(c) else 1 for c in text)


def adcli_rows_on_terminal(columns: int, *argv: str, rows: int = 200) -> list[str]:
    """``adcli ARGV`` with stdout on a pseudo-terminal ``columns`` wide and stderr apart,
    which must exit 0: its rows without escape codes, each checked to fit the terminal in
    cells (adcli_on_terminal counts characters and shows stderr among the rows)."""
    import os
    import re
    import subprocess

    env = {k: v for k, v in os.environ.items()
           if k not in ("COLUMNS", "LINES", "PYTHONIOENCODING", "NO_COLOR", "FORCE_COLOR")}
    env.update(PYTHONUTF8="1", TERM="xterm-256color",
               PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    code, text, err = run_in_pty([sys.executable, "-m", "adcli", *argv], env, columns,
                                 rows=rows, stdin=subprocess.DEVNULL, stderr_apart=True)
    assert code == 0, err
    shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text).rstrip("\n").split("\n")
    assert all(terminal_cells(row) <= columns for row in shown), shown
    return shown


def words(rows: list[str]) -> list[str]:
    """The words of terminal rows, however they were folded."""
    return " ".join(rows).split()


def verdict_rows(rows: list[str]) -> tuple[list[str], list[str]]:
    """A check's table output on a terminal: its first two rows (read as, expected) and
    the words of its verdict, folded up to the table's heading."""
    worst = next(i for i, row in enumerate(rows) if row.startswith("the 5 worst"))
    return rows[:2], words(rows[2:worst])


def assert_one_line_error(run: tuple[int, str, str], text: str, fragment: str,
                          column: int) -> None:
    """run_cli's result is exit 2 and one error: a message holding ``fragment`` that ends
    with the 1-based column, the text, and the caret under the 0-based ``column``."""
    code, out, err = run
    message, excerpt, caret = err.split("\n")[:3]
    assert (code, out, err.count("\n")) == (2, "", 3), err
    assert message.startswith("adcli: error: ") and fragment in message, message
    assert message.endswith(f"(column {column + 1})")
    assert excerpt == "  " + text and caret == "  " + " " * column + "^"


def plain_tape(text: str, values: dict):
    """Value and gradient (by variable) straight from core's backward pass in float64, at
    points given as arrays: no _Run, no kernel, no check. What the CLI shows."""
    import numpy as np

    import adcli
    from adcli import core, drivers

    expression = adcli.parse(text)
    leaves = {v: core.Variable(np.asarray(values[v], dtype=np.float64), name=v)
              for v in expression.variables}
    shape = np.broadcast_shapes(*(leaf.shape for leaf in leaves.values()))
    computed = []
    with np.errstate(all="ignore"):
        for node in expression.nodes:
            if node.kind == "variable":
                computed.append(leaves[node.name])
            elif node.function is None:
                computed.append(core.Variable(node.value, requires_grad=False))
            else:
                computed.append(node.function()(*[computed[i] for i in node.args]))
        grads, _ = drivers.gradient(computed[-1], leaves, expression.variables, shape)
    return computed[-1].data, grads


@pytest.fixture(params=["kernel", "tape"])
def engine(request, monkeypatch):
    """The kernel's Schedule (the API's path at a point) or the tape (the CLI's)."""
    from adcli import expression

    if request.param == "tape":
        monkeypatch.setattr(expression, "ONE_SHOT", (64, 500))
    return request.param
