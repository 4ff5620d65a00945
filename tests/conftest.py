"""Helpers shared by the test files: running the CLI in this process, strict JSON."""
from __future__ import annotations

import contextlib
import functools
import importlib.util
import io
import json
import sys
import warnings
from pathlib import Path

import pytest


def _stream(errors: str) -> io.TextIOWrapper:
    # As CPython sets up stdio under a UTF-8 locale: stdout strict, stderr backslashreplace.
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors=errors, newline="\n",
                            write_through=True)


def run_cli(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    """``adcli ARGV`` in this process: stdio captured (as a pipe would), every warning an
    error, so a numpy RuntimeWarning that leaks fails the test."""
    from adcli.cli import main

    out, err = _stream("strict"), _stream("backslashreplace")
    saved_stdin, sys.stdin = sys.stdin, io.StringIO(stdin)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(list(argv))
    finally:
        sys.stdin = saved_stdin
    return code, *(s.buffer.getvalue().decode("utf-8", "surrogateescape") for s in (out, err))


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
