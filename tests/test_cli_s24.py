"""Testers' findings, round 24: closed stdin, options after --, plot -o with --format,
every row skipped, plurals, names given twice, ASCII-only output, Ctrl-C into a file,
check's diagnosis shown whole, constant expressions that underflow."""
from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import adcli
from conftest import run_cli, strict_json, warnings_in

CHECKOUT = str(Path(adcli.__file__).resolve().parent.parent)  # (the adcli under test)


def _env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("COLUMNS", "LINES", "PYTHONIOENCODING", "NO_COLOR", "FORCE_COLOR")}
    env.update(PYTHONPATH=CHECKOUT, PYTHONUTF8="1", **extra)
    return env


def _shell(script: str, *argv: str, **env) -> subprocess.CompletedProcess:
    """``adcli ARGV`` under ``script``'s redirections (a closed descriptor: <&-)."""
    return subprocess.run(["sh", "-c", f'exec "$@" {script}', "sh", sys.executable, "-m",
                           "adcli", *argv], capture_output=True, text=True, env=_env(**env),
                          timeout=120)


# 1. A closed stdin is a usage error naming what would have read it.

@pytest.mark.parametrize("argv, what", [
    (["grad", "x", "--points", "-", "--format", "csv"], "--points -"),
    (["grad", "@-", "--at", "x=1"], "@-"),
    (["check", "x^2", "@-"], "@-"),
])
def test_a_closed_stdin_is_a_usage_error(argv, what):
    done = _shell("<&-", *argv)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(f"adcli: error: {what}: stdin is closed")
    assert done.stderr.count("\n") == 1 and "internal error" not in done.stderr


def test_a_closed_stdout_is_still_an_output_error():
    done = _shell(">&-", "grad", "x", "--at", "x=1")
    assert done.returncode == 74
    assert done.stderr == "adcli: error: cannot write the output: stdout is closed\n"


# 2. Options after "--" are arguments there: said so, not blamed on --at or the quoting.

@pytest.mark.parametrize("argv, named", [
    (["grad", "--", "--x", "--at", "x=1", "--format", "csv"],
     "--at, --format after '--' are read as arguments, not options"),
    (["grad", "x^2", "--at", "x=1", "--", "--format", "csv"],
     "--format after '--' is read as an argument, not an option"),
])
def test_options_after_double_dash_are_said_to_go_before_it(argv, named):
    code, out, err = run_cli(*argv)
    assert (code, out) == (2, "")
    assert err.startswith(f"adcli: error: {named}: everything after -- is an argument, so "
                          "put options before it")
    assert "forget --at" not in err and "expected one expression" not in err


def test_an_expression_after_double_dash_still_reads():
    # -x at 1: value -1, derivative -1
    code, out, err = run_cli("grad", "--at", "x=1", "--format", "json", "--", "-x")
    assert code == 0, err
    point = strict_json(out)["points"][0]
    assert (point["value"], point["gradient"]["x"]) == (-1.0, -1.0)


# 3. plot -o draws and prints nothing: a --format asked for as well is refused.

def test_plot_refuses_an_image_file_with_a_data_format(tmp_path):
    image = tmp_path / "p.svg"
    code, out, err = run_cli("plot", "x^2", "--grid", "x=0:1", "-o", str(image),
                             "--format", "json")
    assert (code, out) == (2, "")
    assert err.startswith(f"adcli: error: -o '{image}' and --format json: ")
    assert err.count("\n") == 1 and not image.exists()


# 4. A points file whose every row was skipped is no success.

@pytest.mark.parametrize("strict", [[], ["--strict"]])
def test_every_row_skipped_is_an_error(strict):
    code, out, err = run_cli("grad", "x", "--points", "-", "--format", "csv",
                             "--skip-bad-rows", *strict, stdin="x\nabc\ndef\n")
    assert (code, out) == (2, "")
    assert warnings_in(err) == [
        "adcli: warning: skipped 2 bad rows of the points file; first: points file line 2, "
        "column 'x': 'abc' is not a number or constant expression (it uses abc)"]
    assert err.endswith("adcli: error: every row of the points file was bad (2 rows skipped "
                        "by --skip-bad-rows): there is no point to evaluate\n")


def test_a_skipped_row_among_good_ones_is_still_a_warning():
    # d(x^2)/dx at 2 is 4
    code, out, err = run_cli("grad", "x^2", "--points", "-", "--format", "csv",
                             "--skip-bad-rows", "--strict", stdin="x\nabc\n2\n")
    assert (code, out) == (0, "x,f,df/dx\n2.0,4.0,4.0\n")
    assert len(warnings_in(err)) == 1 and "skipped 1 bad row " in err


# 5. One more such cell, not cells.

def test_one_more_cell_beyond_range_is_singular():
    code, _, err = run_cli("eval", "atan(x)", "--points", "-", "--format", "csv",
                           stdin="x\n1e400\n1e400\n1e-400\n")
    assert code == 0
    assert "read as inf (and 1 more such cell, and 1 more cell below the smallest float64 " \
           "number, read as 0)" in err


# 6. A name given twice: both places named.

def test_a_name_in_at_and_in_the_points_file_names_both(tmp_path):
    points = tmp_path / "points.csv"
    points.write_text("x,y\n1,2\n")
    code, out, err = run_cli("grad", "x*y", "--points", str(points), "--at", "x=5")
    assert (code, out) == (2, "")
    assert err == ("adcli: error: x given more than once: as --at x=5 and as the points "
                   "file's column x\n")


def test_a_name_in_at_and_in_grid_names_both():
    code, _, err = run_cli("grad", "x*y", "--grid", "x=0:1:2", "--at", "x=5,y=1")
    assert code == 2
    assert err == "adcli: error: x given more than once: as --at x=5 and as --grid x=0:1:2\n"


def test_a_let_name_given_a_value_names_the_value():
    code, out, err = run_cli("eval", "x", "--let", "x=2", "--at", "x=1")
    assert (code, out) == (2, "")
    assert err == ("adcli: error: --at x=1: 'x' is defined by --let, so it is not a variable "
                   "and cannot be given a value: leave it out of --at, or rename the "
                   "definition\n")


# 7. An output that cannot encode ∂: ASCII headers, every row of a table aligned.

@pytest.mark.parametrize("argv, header", [
    (["grad", "x^2*y", "--at", "x=1,y=2"], "df/dx"),
    (["hessian", "x^2*y", "--at", "x=1,y=2"], "d2f"),
    (["grad", "θ^2", "--at", "θ=1"], "df/d\\u03b8"),
    # an order after a name ending in a digit: CSV's d2f/dx2^2, not d2f/dx22 (x22?)
    (["grad", "x1*x2^3", "--order", "2", "--wrt", "x2", "--at", "x1=1,x2=2"], "| d2f/dx2^2 |"),
])
def test_an_ascii_output_aligns_its_tables(argv, header):
    done = subprocess.run([sys.executable, "-m", "adcli", *argv], capture_output=True,
                          env=_env(PYTHONIOENCODING="ascii"), timeout=120)
    assert done.returncode == 0, done.stderr
    text = done.stdout.decode("ascii")
    rows = [line for line in text.splitlines() if line[:1] in "+|"]
    assert header in text and rows
    tables, widths = text.split("\n+-"), set()
    for table in tables[1:]:
        widths = {len(line) for line in ("+-" + table).splitlines() if line[:1] in "+|"}
        assert len(widths) == 1, table


# 8. Ctrl-C with stderr in a file: one line, no blank line before it.

def test_an_interrupt_into_a_file_writes_one_line(tmp_path):
    with open(tmp_path / "e.txt", "wb") as err:
        child = subprocess.Popen([sys.executable, "-m", "adcli", "grad", "sin(x)*y", "--grid",
                                  "x=0:1:30000000", "--at", "y=2", "--format", "csv"],
                                 stdout=subprocess.DEVNULL, stderr=err, env=_env())
        time.sleep(2)   # started, and computing
        child.send_signal(signal.SIGINT)
        assert child.wait(timeout=120) == 130
    assert (tmp_path / "e.txt").read_bytes() == b"adcli: interrupted\n"


# 9. check's diagnosis is prose: shown whole, however long.

LONG_DIAGNOSIS = ("check", "x^(sin x)", "sin x x^(sin x - 1)")


def test_print_heading_keeps_prose_whole():
    from adcli.tables import console, print_heading

    prose = "diagnosis: " + " ".join(f"word{i}" for i in range(120))    # ~800 characters
    out = io.StringIO()
    print_heading(console(out, 80), [prose], whole=True)
    assert "…" not in out.getvalue() and "characters in all" not in out.getvalue()
    assert " ".join(out.getvalue().split()) == prose


def test_check_shows_a_long_diagnosis_whole():
    code, out, _ = run_cli(*LONG_DIAGNOSIS)
    assert code == 1
    diagnosis = next(line for line in out.splitlines() if line.startswith("diagnosis: "))
    assert len(diagnosis) > 500
    assert "…" not in diagnosis and "characters in all" not in diagnosis


# 10. A constant expression that underflows to 0 is said, as 1e-400 is.

UNDER = "went out of float64's range on the way, so it may be a number too small for " \
        "float64 (below about 4.9e-324): read as 0"


def test_an_at_value_that_underflows_is_said():
    code, out, err = run_cli("eval", "x", "--at", "x=2^-1080", "--format", "csv")
    assert (code, out) == (0, "x,f\n0.0,0.0\n")
    assert warnings_in(err) == [f"adcli: warning: --at x: 2^-1080 {UNDER}"]


def test_a_grid_end_that_underflows_is_said():
    code, out, err = run_cli("eval", "x", "--grid", "x=exp(-800):1:2", "--format", "csv")
    assert (code, out) == (0, "x,f\n0.0,0.0\n1.0,1.0\n")
    assert warnings_in(err) == [f"adcli: warning: --grid x: exp(-800) {UNDER}"]


def test_a_cell_that_underflows_is_said():
    code, out, err = run_cli("eval", "x", "--points", "-", "--format", "csv",
                             stdin="x\n2^-1080\n2^-1080\n")
    assert (code, out) == (0, "x,f\n0.0,0.0\n0.0,0.0\n")
    assert warnings_in(err) == [f"adcli: warning: points file line 2, column 'x': 2^-1080 "
                                f"{UNDER} (and 1 more such cell)"]


def test_an_exact_zero_written_as_an_expression_is_not_said():
    code, out, err = run_cli("eval", "x", "--at", "x=1-1", "--format", "csv")
    assert (code, out, err) == (0, "x,f\n0.0,0.0\n", "")


def test_an_option_name_after_double_dash_is_an_expression_of_a_command_of_several():
    # jacobian takes several expressions: after --, "--at" is one of them, -(-at) (the
    # regression tester's; "options go before --" is only for one-expression commands)
    code, out, err = run_cli("jacobian", "--format", "csv", "--at", "x=1,at=2", "--", "x",
                             "--at")
    assert code == 0 and err == ""
    assert out.splitlines()[1].split(",")[-4:] == ["1.0", "0.0", "0.0", "1.0"]


@pytest.mark.parametrize("argv, option", [
    (["check", "--", "x^2", "--at", "x=1"], "--at"),
    (["jacobian", "--at", "x=1", "--", "-x", "--format", "csv"], "--format"),
    (["plot", "--", "-x", "--grid", "x=0:1:5"], "--grid"),
    (["check", "--", "-x^2", "--order", "2"], "--order"),
])
def test_an_option_with_its_value_after_double_dash_is_said_for_every_command(argv, option):
    # (a command of several expressions too: --format csv after -- is no two expressions)
    code, out, err = run_cli(*argv)
    assert code == 2 and out == ""
    assert err.startswith(f"adcli: error: {option} after '--' is read as an argument, not "
                          "an option: everything after -- is an argument, so put options "
                          "before it")
