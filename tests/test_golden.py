"""Golden outputs: stdout, stderr and exit status of a fixed set of commands, byte for byte.

Unlike every other test file, the expectations here (tests/golden/commands.json) were
recorded from adcli itself: the point is to notice any change of behaviour, e.g. while the
command layer is reshaped (issue 7). Correctness is the other files' job.

A deliberate change of output is re-recorded, then reviewed in the diff of commands.json:

    ADCLI_GOLDEN_RECORD=1 pytest tests/test_golden.py

Cases with a "hand_corrected" field hold the output adcli *should* give (edited by hand; the
field says why) and are never overwritten by recording; while the code still disagrees they
are listed in EXPECTED_TO_FAIL. Commands run in-process through ``adcli.cli.main`` with
stdio replaced by UTF-8 pipes-as-buffers, which gives what a shell pipe shows (tables at the
non-terminal width); ``ADCLI_GOLDEN_SUBPROCESS=1`` runs the installed ``adcli`` instead, to
check that claim. Relative file names in the commands are read from tests/golden/.
"""
from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from adcli.cli import main

GOLDEN = Path(__file__).parent / "golden"
CASES_FILE = GOLDEN / "commands.json"
RECORD = os.environ.get("ADCLI_GOLDEN_RECORD") == "1"
SUBPROCESS = os.environ.get("ADCLI_GOLDEN_SUBPROCESS") == "1"

# The corrected warning counts of issue 7, point 3: remove an entry once the code gives it.
EXPECTED_TO_FAIL: dict[str, str] = {}  # none: per-point counts landed with the command reshape

# Settings that would change how click or rich lay out or colour their output.
_UNSET = ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "CLICOLOR",
          "CLICOLOR_FORCE", "TERM", "COLORTERM", "JUPYTER_COLUMNS", "JUPYTER_LINES",
          "PYTHONIOENCODING")
_SET = {"COLUMNS": "80", "LINES": "24"}  # help text wraps at the terminal width


def load_cases() -> list[dict]:
    return json.loads(CASES_FILE.read_text(encoding="utf-8"))["cases"]


def _lines(text: str) -> list[str]:
    # Stored as lines so a re-recording's diff is readable; joining them is exact.
    return text.splitlines(keepends=True)


class _Buffer(io.BytesIO):
    """Keeps its bytes even if a wrapper around it is closed (click may rewrap stdio)."""

    def close(self):
        pass


def _run_in_process(argv: list[str], stdin: str) -> dict:
    out, err = _Buffer(), _Buffer()
    streams = (io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8"),
               io.TextIOWrapper(out, encoding="utf-8"),
               io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace"))
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = streams
    try:
        code = main(argv)
    finally:
        for stream in streams[1:]:
            stream.flush()
        sys.stdin, sys.stdout, sys.stderr = saved
    return _result(code, out.getvalue(), err.getvalue())


def _run_subprocess(argv: list[str], stdin: str) -> dict:
    here = os.path.dirname(sys.executable)
    adcli = shutil.which("adcli", path=here + os.pathsep + os.environ.get("PATH", ""))
    env = {k: v for k, v in os.environ.items() if k not in _UNSET}
    env.update(_SET, PYTHONUTF8="1")
    done = subprocess.run([adcli, *argv], input=stdin.encode("utf-8"), capture_output=True,
                          cwd=GOLDEN, env=env, timeout=60)
    return _result(done.returncode, done.stdout, done.stderr)


def _result(code: int, out: bytes, err: bytes) -> dict:
    # Strict decoding: bytes that are not UTF-8 would be a change worth failing on.
    return {"exit": code, "stdout": _lines(out.decode("utf-8")),
            "stderr": _lines(err.decode("utf-8"))}


def run_case(case: dict, monkeypatch) -> dict:
    for name in _UNSET:
        monkeypatch.delenv(name, raising=False)
    for name, value in _SET.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(GOLDEN)
    runner = _run_subprocess if SUBPROCESS else _run_in_process
    return runner(case["argv"], case.get("stdin", ""))


def _param(case: dict):
    reason = EXPECTED_TO_FAIL.get(case["name"])
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(case, id=case["name"], marks=marks)


@pytest.mark.skipif(RECORD, reason="recording (ADCLI_GOLDEN_RECORD=1)")
@pytest.mark.parametrize("case", [_param(c) for c in load_cases()])
def test_output_unchanged(case, monkeypatch):
    expected = {key: case[key] for key in ("exit", "stdout", "stderr")}
    assert run_case(case, monkeypatch) == expected


def test_expected_failures_are_hand_corrected_cases():
    # An xfail entry without a hand-corrected case would hide a plain regression.
    hand_corrected = {c["name"] for c in load_cases() if "hand_corrected" in c}
    assert set(EXPECTED_TO_FAIL) <= hand_corrected


if RECORD:
    def test_record(monkeypatch):
        """Rewrite the recorded outputs (all but the hand-corrected cases) from this code."""
        document = json.loads(CASES_FILE.read_text(encoding="utf-8"))
        for case in document["cases"]:
            if "hand_corrected" not in case:
                case.update(run_case(case, monkeypatch))
        CASES_FILE.write_text(dump(document), encoding="utf-8")


def dump(document: dict) -> str:
    """JSON with one case field per line and one output line per line: readable diffs."""
    def text(value):
        return json.dumps(value, ensure_ascii=False)

    def field(key, value):
        if key in ("stdout", "stderr") and value:
            return f'"{key}": [\n    ' + ",\n    ".join(map(text, value)) + "\n   ]"
        return f"{text(key)}: {text(value)}"

    head = ",\n ".join(f"{text(k)}: {text(v)}" for k, v in document.items() if k != "cases")
    cases = ",\n  ".join("{\n   " + ",\n   ".join(field(k, v) for k, v in case.items())
                         + "\n  }" for case in document["cases"])
    return "{\n " + head + ",\n \"cases\": [\n  " + cases + "\n ]\n}\n"
