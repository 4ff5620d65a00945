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
import io, sys
from adcli.cli import entry
out, sys.stdout = sys.stdout, io.StringIO()
try:
    entry()  # as the installed script runs it
except SystemExit as exit:
    code = exit.code
sys.stdout = out
modules = sorted(sys.modules)
import json  # (once they are listed: json is among them only if adcli imported it)
print(json.dumps([code, modules]))
"""

ONE_POINT = ["grad", "exp(x^2)^2", "--at", "x=0.5"]

# Not for a one-point grad, whatever the format: the thread pool of many points, other
# commands' code (--order, check, trace, plot, graph), lark (explains syntax errors), the
# kernel (the tape is quicker than importing it, for one evaluation of a small expression).
NEVER = {"concurrent.futures", "adcli.kernel", "adcli.commands.nth", "adcli.taylor",
         "adcli.wider", "adcli.checking", "adcli.slips",
         "adcli.tracing", "adcli.plotting", "adcli.commands.check", "adcli.commands.trace",
         "adcli.commands.plot", "adcli.commands.graph", "lark",
         "dataclasses",  # ~7 ms with the classes it writes: adcli.records instead
         # json (~1.5 ms, five regular expressions compiled): adcli.jsontext writes its
         # bytes; copy (~0.6 ms): for Taylor mode's recording only
         "json", "copy"}
# For non-ASCII text only (~0.9 ms): not for JSON of an ASCII expression. (A table's
# heading, ∂f/∂x, is such text: errors.escape looks its characters up.)
NOT_FOR_ASCII_JSON = {"unicodedata"}
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
    assert fmt == [] or modules & NOT_FOR_ASCII_JSON == set()


def test_the_listing_sees_what_other_runs_import():
    assert {"adcli.commands.nth", "adcli.taylor"} <= modules_of(*ONE_POINT, "--order", "3")
    assert "adcli.kernel" in modules_of("grad", "exp(x^2)^2", "--grid", "x=0:1:100")
    assert "unicodedata" in modules_of("grad", "exp(θ^2)^2", "--at", "θ=0.5")
    # (softplus has no Taylor rule of its own: the generic one records its backward)
    assert "copy" in modules_of("grad", "softplus(x)", "--at", "x=0.5", "--order", "3")
    assert "adcli.checking" in modules_of("check", "x^2", "2x", "--at", "x=0.5", "--format", "json")
    # rich draws what is told to act as a terminal
    assert "rich.console" in modules_of(*ONE_POINT, env={**os.environ, "FORCE_COLOR": "1"})


def test_the_written_out_fractions_are_unicodes():
    # reader._FRACTIONS is a literal (deriving it imported unicodedata at start-up): it
    # holds what NFKC makes of each fraction the grammar's NUMBER reads, [¼-¾⅐-⅞].
    import unicodedata

    from adcli.reader import _FRACTIONS

    read = [chr(i) for i in [*range(0xBC, 0xBF), *range(0x2150, 0x215F)]]
    assert _FRACTIONS == {c: tuple(map(int, unicodedata.normalize("NFKC", c).split("\u2044")))
                          for c in read}


def test_escaping_without_unicodedata_is_as_with_it():
    # errors.py looks categories up for non-ASCII characters only: a character is shown as
    # itself if printable and no separator (Z) but the space, which isprintable says alone;
    # an ASCII letter or digit (L, N), which a combining mark may follow, is isalnum.
    import unicodedata

    from adcli import errors

    for c in map(chr, range(sys.maxunicode + 1)):
        shown = c if c == " " or (c.isprintable() and unicodedata.category(c)[0] != "Z") \
            else c.encode("unicode_escape").decode("ascii")
        if "\udc80" <= c <= "\udcff":     # a byte surrogateescape kept: shown as the byte
            shown = f"\\x{ord(c) - 0xdc00:02x}"
        assert errors._escape_char(c) == shown
        if c.isascii():
            assert errors._pieces("a" + c + "\u0301") == ["a", shown, "\u0301" if (
                shown == c and unicodedata.category(c)[0] in "LN") else "\\u0301"]
