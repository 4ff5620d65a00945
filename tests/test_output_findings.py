"""A tester's findings, scripting gradients over data: JSON warnings in flat memory, write
failures that are no bug, unused names in the API as the CLI treats them, and --strict
naming the point where it stopped."""
from __future__ import annotations

import contextlib
import io
import subprocess
import sys
import warnings

import numpy as np
import pytest

from conftest import run_cli, strict_json, warnings_in
import adcli
from adcli import render
from adcli.cli import main
from adcli.errors import EXIT_NONFINITE

EXIT_IO = 74    # sysexits.h's EX_IOERR, as README's table says
SQRT_WHY = "gave nan or inf (a negative argument)"


# ----- 1. JSON's warnings stay in flat memory ----------------------------------------------

def test_json_keeps_the_first_warnings_and_counts_the_rest_by_kind():
    code, out, err = run_cli("grad", "sqrt(x)", "--grid", "x=-2:-1:1500", "--format", "json")
    assert code == 0
    document = strict_json(out)
    assert len(document["points"]) == 1500
    kept = document["warnings"]
    assert len(kept) == render.WARNINGS_KEPT == 1000
    assert kept[0] == {"at": {"x": -2.0}, "function": "sqrt", "kind": "value",
                       "why": SQRT_WHY}
    assert kept[-1]["at"] == document["points"][999]["at"]     # the first 1000, in order
    assert document["warnings_left_out"] == [
        {"function": "sqrt", "kind": "value", "why": SQRT_WHY, "count": 500}]
    assert "1500 of 1500 points" in err


def test_json_left_out_counts_add_up_per_kind_over_chunks(monkeypatch):
    monkeypatch.setattr(render, "WARNINGS_KEPT", 3)
    monkeypatch.setattr("adcli.pipeline.chunk_size_for", lambda size: 4)
    code, out, _ = run_cli("grad", "sqrt(x) + abs(x)", "--grid", "x=-1:1:11",
                           "--format", "json")
    document = strict_json(out)
    assert [w["at"]["x"] for w in document["warnings"]] == [-1.0, -0.8, -0.6]
    counts = {(w["function"], w["kind"]): w["count"] for w in document["warnings_left_out"]}
    # sqrt: nan at 5 negative points (3 kept), a kink and an infinite slope at 0; abs: a kink
    assert counts == {("sqrt", "value"): 2, ("sqrt", "kink"): 1, ("abs", "kink"): 1,
                      ("sqrt", "derivative"): 1}


def test_json_without_many_warnings_has_no_left_out_field():
    _, out, _ = run_cli("grad", "sqrt(x)", "--grid", "x=-1:1:5", "--format", "json")
    document = strict_json(out)
    assert len(document["warnings"]) == 4 and "warnings_left_out" not in document


def test_jsonl_points_with_warnings_are_filled_into_the_template(monkeypatch):
    # The slow path (a dict per point, then json.dumps) made warned runs 4x slower.
    def refuse(self, rows):
        raise AssertionError("a point dumped one by one")

    monkeypatch.setattr(render._PointWriter, "points", refuse)
    code, out, _ = run_cli("grad", "sqrt(x) + abs(x)", "--grid", "x=-1:1:101",
                           "--format", "jsonl")
    assert code == 0
    lines = [strict_json(line) for line in out.splitlines()]
    assert lines[0]["warnings"] == [{"function": "sqrt", "kind": "value", "why": SQRT_WHY}]
    assert [(w["function"], w["kind"]) for w in lines[50]["warnings"]] == \
        [("sqrt", "kink"), ("abs", "kink"), ("sqrt", "derivative")]
    assert "warnings" not in lines[51] and len(lines) == 101


def test_jsonl_warnings_with_passed_through_columns(tmp_path):
    points = tmp_path / "p.csv"
    points.write_text("id,x\na,-1\nb,4\n")
    _, out, _ = run_cli("grad", "sqrt(x)", "--points", str(points), "--format", "jsonl")
    first, second = map(strict_json, out.splitlines())
    assert first["extra"] == {"id": "a"} and first["warnings"][0]["function"] == "sqrt"
    assert "warnings" not in second


# ----- 2. a failed write is an I/O error, not a bug ----------------------------------------

def _main_with_stdout(stdout, *argv):
    err = io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, err.getvalue()


@pytest.mark.parametrize("fmt", ["csv", "json", "table"])
def test_a_full_disk_is_an_io_error(fmt):
    with open("/dev/full", "w") as full:
        code, err = _main_with_stdout(full, "grad", "x", "--at", "x=1", "--format", fmt)
        with contextlib.suppress(OSError):
            full.close()
    assert code == EXIT_IO
    assert err == "adcli: error: cannot write the output: No space left on device\n"


def test_the_io_status_is_the_one_main_returns():
    from adcli.errors import EXIT_IO as exit_io

    assert exit_io == EXIT_IO


def test_a_closed_stdout_is_an_io_error():
    code, err = _main_with_stdout(None, "grad", "x", "--at", "x=1", "--format", "csv")
    assert code == EXIT_IO
    assert err == "adcli: error: cannot write the output: stdout is closed\n"


@pytest.mark.parametrize("argv, out, code", [
    ("grad 'x^2' --at x=nan --format csv", "x,f,df/dx\nnan,nan,nan\n", 0),   # a warning
    ("grad 'x^' --at x=1", "", 2)])                                         # an error
def test_a_closed_stderr_drops_messages_and_keeps_the_status(argv, out, code):
    command = f"'{sys.executable}' -m adcli {argv} 2>&-"
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=60)
    assert (done.stdout, done.returncode) == (out, code)


@pytest.mark.parametrize("redirect", ["> /dev/full", ">&-"])
def test_the_process_says_it_in_one_line_and_exits_74(redirect):
    command = f"'{sys.executable}' -m adcli grad x --at x=1 --format csv {redirect}"
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=60)
    assert done.returncode == EXIT_IO
    assert len(done.stderr.splitlines()) == 1     # nothing from the flush at exit
    assert done.stderr.startswith("adcli: error: cannot write the output: ")


def test_a_broken_pipe_still_exits_0():
    command = f"'{sys.executable}' -m adcli grad x --grid x=0:1:200000 --format csv | head -1"
    done = subprocess.run(["bash", "-o", "pipefail", "-c", command], capture_output=True,
                          text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "x,f,df/dx\n", "")


# ----- 3. the API warns of unused names, as the CLI does -----------------------------------

def _warned(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    return result, [(w.category, str(w.message), w.filename) for w in caught]


def test_a_value_for_an_unused_name_is_a_warning_and_ignored():
    f = adcli.parse("x^2")
    value, said = _warned(lambda: f.value(x=1, y=2))
    assert float(value) == 1.0
    assert said == [(adcli.AdcliWarning, "a value was given for 'y', which does not appear "
                     "in the expression", __file__)]    # at the caller's line


def test_records_with_more_fields_than_variables():
    f = adcli.parse("x^2 * w")
    rows = [{"id": "a", "x": 1.0, "w": 2.0}, {"id": None, "x": 3.0, "w": 1.0}]
    grads, said = _warned(lambda: [f.grad(**row) for row in rows])
    assert [float(g["x"]) for g in grads] == [4.0, 6.0]   # an id that is no number: ignored
    assert all(category is adcli.AdcliWarning and "'id'" in message
               for category, message, _ in said) and said
    result, _ = _warned(lambda: f.derivatives(at={"x": 1, "w": 1, "id": "a"}))
    assert float(result.gradient["x"]) == 2.0


def test_jacobian_warns_of_unused_names_and_wrt():
    j, said = _warned(lambda: adcli.jacobian(["x", "x^2"], x=1, y=2))
    assert j.tolist() == [[1.0], [2.0]]
    assert [m for _, m, _ in said] == ["a value was given for 'y', which does not appear in "
                                       "the expressions"]
    j, said = _warned(lambda: adcli.jacobian(["x", "y^2"], wrt="x,y,q", x=1, y=2))
    assert j.tolist() == [[1.0, 0.0, 0.0], [0.0, 4.0, 0.0]]
    assert [m for _, m, _ in said] == ["wrt: 'q' does not appear in the expressions, so its "
                                       "derivative is 0"]     # not y for "x", nor x for "y^2"


def test_grad_with_respect_to_an_unused_name_warns():
    grad, said = _warned(lambda: adcli.parse("x^2").grad(wrt="z", x=1))
    assert {n: float(v) for n, v in grad.items()} == {"z": 0.0}
    assert [(c, m) for c, m, _ in said] == [
        (adcli.AdcliWarning, "wrt: 'z' does not appear in the expression, so its derivative "
                             "is 0")]


def test_a_missing_name_is_still_an_error():
    # (the warning first: 'thetta' for 'theta' is why a name is missing)
    with pytest.raises(adcli.AdcliError, match="no value given for theta"), \
            pytest.warns(adcli.AdcliWarning, match="did you mean 'theta'"):
        adcli.parse("theta*y").value(y=1, thetta=2)
    with pytest.raises(adcli.AdcliError, match="no value given for y"):
        adcli.jacobian(["x", "y"], x=1)


def test_the_cli_says_each_unused_name_once(tmp_path):
    # run_cli makes every Python warning an error: the API's must not leak through the CLI
    code, _, err = run_cli("jacobian", "x", "y^2", "--at", "x=1,y=2", "--wrt", "x,y,q")
    assert code == 0 and len(warnings_in(err)) == 1 and "--wrt q" in err


# ----- 4. --strict names the point where it stopped ---------------------------------------

def test_strict_names_the_line_of_the_first_bad_point_beyond_a_chunk(tmp_path):
    points = tmp_path / "big.csv"
    x = np.arange(1.0, 70001.0)
    x[68000] = -1.0
    points.write_text("x\n" + "\n".join(map(repr, x.tolist())) + "\n")
    code, out, err = run_cli("grad", "sqrt(x)", "--points", str(points), "--format", "csv",
                             "--strict")
    assert code == EXIT_NONFINITE
    assert err == ("adcli: error: sqrt gave nan or inf at points file line 68002 (x=-1.0) "
                   "(a negative argument): stopped there (--strict)\n")
    assert len(out.splitlines()) == 1 + 68000     # the header and the points before it


def test_strict_counts_the_point_when_its_line_is_not_sure(tmp_path):
    points = tmp_path / "gaps.csv"
    points.write_text("id,x\na,1\n\n# checked\nb,4\nc,-1\n")
    code, _, err = run_cli("grad", "sqrt(x)", "--points", str(points), "--format", "csv",
                           "--strict")
    assert code == EXIT_NONFINITE
    assert "at point 3 of the points file (x=-1.0) (a negative argument)" in err


def test_strict_names_the_coordinates_of_a_grid_point():
    code, out, err = run_cli("grad", "log(x)*y", "--grid", "x=1:-1:5", "--at", "y=2",
                             "--format", "csv", "--strict")
    assert code == EXIT_NONFINITE
    assert err == ("adcli: error: log gave nan or inf at x=0.0, y=2.0 (a negative argument "
                   "gives nan, 0 gives -inf): stopped there (--strict)\n")
    assert len(out.splitlines()) == 3


def test_strict_with_an_infinite_input_blames_no_function_but_the_value_given():
    code, _, err = run_cli("grad", "x", "--at", "x=inf", "--strict")
    assert code == EXIT_NONFINITE
    assert err == ("adcli: error: x was given nan or inf at x=inf, so a result there is too: "
                   "stopped there (--strict)\n")
