"""Output gaps of session 22: a label wider than the terminal broken inside a name, --digits
shown one way in JSON and another in CSV, JSON warnings without the row's passed-through
values, and a --strict stop before any point leaving a script no JSON document."""
from __future__ import annotations

import json
import math
import re

import pytest

from conftest import adcli_rows_on_terminal, run_cli, strict_json

# Two names of 30 characters: a Hessian entry's label, ∂²f/∂A∂B, is 65 wide, and
# "  ∂²f/∂A" alone (37) is wider than a terminal of 36 columns or fewer, though A fits.
A, B = "abcdefghij" * 3, "zyxwvutsrq" * 3
PRODUCT = f"{A}*{B}^2"      # at A=1.5, B=2: f_A = B^2 = 4, f_B = 2AB = 6,
AT = f"{A}=1.5,{B}=2"       # f_AA = 0, f_AB = f_BA = 2B = 4, f_BB = 2A = 3
HESSIAN = {(A, A): 0.0, (A, B): 4.0, (B, A): 4.0, (B, B): 3.0}
NUMBER = r"-?\d+\.\d+(?:e[-+]\d+)?"


def entries(rows: list[str]) -> list[str]:
    """The rows of the Hessian's `label = value` entries (after its title's pairs)."""
    first = next(i for i, row in enumerate(rows) if row.lstrip().startswith("∂²f/"))
    return rows[first:]


def hessian_entries(joined: str) -> dict:
    """The entries named in ``joined`` (its rows run together, spaces dropped), by (row,
    column): ∂²f/∂A∂B and the diagonal's ∂²f/∂A²."""
    found = re.findall(rf"∂²f/∂([a-z]+)(?:∂([a-z]+)|²)=({NUMBER})", joined)
    assert len(found) == 4, joined
    return {(r, c or r): float(v) for r, c, v in found}


def names_whole(rows: list[str]) -> bool:
    """Whether every run of letters on the rows is a whole name (or the f of ∂²f)."""
    return all(word in (A, B, "f") for row in rows for word in re.findall(r"[a-z]+", row))


# ----- 1. labels wider than the terminal break between names, never inside one ---------

@pytest.mark.parametrize("columns", [36, 33, 31])
def test_a_hessian_entry_wider_than_the_terminal_breaks_only_between_names(columns):
    # (adcli_rows_on_terminal fails a row wider than the terminal: before, ∂²f/∂A was
    # written whole on a row of 37, and the terminal broke it inside A)
    rows = entries(adcli_rows_on_terminal(columns, "hessian", PRODUCT, "--at", AT))
    assert names_whole(rows), rows
    joined = "".join("".join(row.split()) for row in rows)
    assert hessian_entries(joined) == HESSIAN, rows


def test_a_gradient_label_wider_than_the_terminal_breaks_after_its_fraction_bar():
    # ∂f/∂A is 34 wide: at 33 columns it was cut inside A by the terminal.
    rows = adcli_rows_on_terminal(33, "grad", PRODUCT, "--at", AT)
    start = next(i for i, row in enumerate(rows) if row.startswith("∂f/"))
    labels = rows[start:]
    assert names_whole(labels), labels
    joined = "".join("".join(row.split()) for row in labels)
    assert re.findall(rf"∂f/∂([a-z]+)=({NUMBER})", joined) == [(A, "4.0"), (B, "6.0")]


def test_names_as_wide_as_the_terminal_fit_in_the_hessian_title_and_entries():
    # At 30 columns, A= (31) does not fit: the "=" goes to the value's line, and each
    # name stands on a row of its own, its ∂ before it.
    rows = adcli_rows_on_terminal(30, "hessian", PRODUCT, "--at", AT)
    title = rows.index("Hessian at")
    assert rows[title + 1:title + 5] == [A, "    =1.5,", B, "    =2.0"]
    shown = entries(rows)
    assert names_whole(shown), shown
    joined = "".join("".join(row.split()) for row in shown)
    assert hessian_entries(joined) == HESSIAN, shown


def test_a_label_that_fits_is_laid_out_as_before():
    rows = adcli_rows_on_terminal(40, "hessian", PRODUCT, "--at", AT)
    assert entries(rows)[:5] == [f"  ∂²f/∂{A}² =", "    0.0",
                                 f"  ∂²f/∂{A}", f"    ∂{B} =", "    4.0"]


# ----- 2. --digits: JSON shows the digits CSV and tables show ---------------------------

def csv_fields(*argv: str) -> list[list[str]]:
    code, out, err = run_cli(*argv, "--format", "csv")
    assert code == 0, err
    return [line.split(",") for line in out.splitlines()[1:]]


def json_texts(text: str):
    """A JSON document with its numbers as written (str), to compare their digits."""
    return json.loads(text, parse_float=str, parse_int=str)


def test_json_writes_a_rounded_number_as_csv_does():
    # 3600^3 = 46,656,000,000 and 3*3600^2 = 38,880,000: to 3 digits 4.67e10, 3.89e7
    # (JSON wrote them 46700000000.0 and 38900000.0, CSV 4.67e+10 and 3.89e+07).
    argv = ("grad", "x^3", "--at", "x=3600", "--digits", "3")
    code, out, err = run_cli(*argv, "--format", "json")
    assert code == 0, err
    point = json_texts(out)["points"][0]
    assert [point["value"], point["gradient"]["x"]] == ["4.67e+10", "3.89e+07"]
    assert csv_fields(*argv) == [["3600.0", "4.67e+10", "3.89e+07"]]
    assert strict_json(out)["points"][0]["value"] == 4.67e10
    assert point["at"]["x"] == "3600.0"     # the point is never rounded


def test_more_digits_than_the_shortest_repr_are_shown_in_json_too():
    # 0.1 to 17 digits is 0.10000000000000001, which JSON wrote as float's repr, 0.1.
    code, out, err = run_cli("eval", "x/10", "--at", "x=1", "--digits", "17",
                             "--format", "jsonl")
    assert code == 0, err
    assert json_texts(out)["value"] == "0.10000000000000001"
    assert csv_fields("eval", "x/10", "--at", "x=1", "--digits", "17")[0][-1] == \
        "0.10000000000000001"


def test_a_whole_rounded_number_stays_a_float_in_json_and_minus_zero_keeps_its_sign():
    argv = ("grad", "-x^3", "--at", "x=0", "--digits", "3")
    assert csv_fields(*argv) == [["0.0", "-0", "-0"]]
    code, out, err = run_cli(*argv, "--format", "json")
    assert code == 0, err
    point = strict_json(out)["points"][0]
    assert isinstance(point["value"], float) and math.copysign(1, point["value"]) == -1
    assert json_texts(out)["points"][0]["value"] == "-0.0"
    assert csv_fields("eval", "100*x", "--at", "x=1", "--digits", "3") == [["1.0", "100"]]
    code, out, err = run_cli("eval", "100*x", "--at", "x=1", "--digits", "3",
                             "--format", "json")
    assert json_texts(out)["points"][0]["value"] == "100.0"


@pytest.mark.parametrize("count", [5, 100])     # a point at a time, and the template's way
def test_every_json_point_has_the_digits_of_its_csv_row(count):
    # f = exp(x) and f' = exp(x): their 4 digits checked against mpmath's exp.
    import mpmath

    argv = ("grad", "exp(x)", "--grid", f"x=-30:30:{count}", "--digits", "4")
    rows = csv_fields(*argv)
    for fmt in ("json", "jsonl"):
        code, out, err = run_cli(*argv, "--format", fmt)
        assert code == 0, err
        points = json_texts(out)["points"] if fmt == "json" else \
            [json_texts(line) for line in out.splitlines()]
        assert len(points) == count
        for point, row in zip(points, rows):
            assert point["at"]["x"] == row[0]
            for got, csv in ((point["value"], row[1]), (point["gradient"]["x"], row[2])):
                assert got == (csv if "." in csv or "e" in csv else csv + ".0")
                exact = mpmath.exp(mpmath.mpf(float(row[0])))
                assert float(got) == float(mpmath.nstr(exact, 4, strip_zeros=False))
                assert len(re.sub(r"e.*|\.0$", "", got).replace(".", "").lstrip("0")) <= 4


def test_nan_and_inf_stay_strings_with_digits():
    code, out, err = run_cli("eval", "log(x)", "--grid", "x=-1:1:100", "--digits", "3",
                             "--format", "json")
    assert code == 0, err
    values = [p["value"] for p in strict_json(out)["points"]]
    assert values[:50] == ["nan"] * 50 and values[-1] == 0.0


# ----- 3. JSON warnings carry the row's passed-through values -------------------------

def test_a_json_warning_names_the_row_by_its_passed_through_values():
    # Two rows at the same x = 0, told apart only by their id.
    code, out, err = run_cli("grad", "log(x)", "--points", "-", "--format", "json",
                             stdin="id,x\np1,0\np2,1\np3,0\n")
    assert code == 0, err
    document = strict_json(out)
    assert [w["extra"] for w in document["warnings"]] == [{"id": "p1"}, {"id": "p3"}]
    assert list(document["warnings"][0]) == ["at", "extra", "function", "kind", "why"]
    assert [p["extra"] for p in document["points"]] == \
        [{"id": "p1"}, {"id": "p2"}, {"id": "p3"}]


def test_a_json_lines_id_keeps_its_type_in_a_warning():
    code, out, err = run_cli("eval", "1/x", "--points", "-", "--format", "json",
                             stdin='{"x": 2, "id": 7}\n{"x": 0, "id": [1, "a"]}\n')
    assert code == 0, err
    (warning,) = strict_json(out)["warnings"]
    assert (warning["at"], warning["extra"]) == ({"x": 0.0}, {"id": [1, "a"]})


def test_a_warning_without_passed_through_columns_has_no_extra():
    code, out, err = run_cli("eval", "1/x", "--at", "x=0", "--format", "json")
    assert list(strict_json(out)["warnings"][0]) == ["at", "function", "kind", "why"]


# ----- 4. a stop before any point: nothing on stdout, in every format ------------------
# (Decided: a stop at the first point leaves stdout empty in every format, no CSV header
# nor JSON document, as every other error does, with exit 3 for --strict: a script checks
# the status, which tells --strict's stop from bad input, 2, whatever the format.)

STOP = "sqrt gave nan or inf at x=-1.0 (a negative argument): stopped there (--strict)"


@pytest.mark.parametrize("fmt", ["json", "jsonl", "csv", "tsv", "plain", "table"])
def test_a_strict_stop_at_the_first_point_writes_nothing_in_every_format(fmt):
    code, out, err = run_cli("grad", "sqrt(x)", "--at", "x=-1", "--strict", "--format", fmt)
    assert (code, out, err) == (3, "", f"adcli: error: {STOP}\n")


def test_a_strict_stop_later_writes_a_whole_json_document_of_the_points_before_it():
    # sqrt(4) = 2 and its derivative 1/(2*2) = 0.25, then x = -1 stops the run.
    code, out, err = run_cli("grad", "sqrt(x)", "--points", "-", "--strict",
                             "--format", "json", stdin="x\n4\n-1\n")
    assert code == 3 and err.count("\n") == 1 and "points file line 3" in err
    document = strict_json(out)
    assert [(p["value"], p["gradient"]["x"]) for p in document["points"]] == [(2.0, 0.25)]
