"""The Hessian's names, session 28: an entry named d2f/dx dy holds d/dx (df/dy), as Leibniz
writes it and as check's d2/dx dy does (it held d/dy (df/dx)); the diagonal is d2f/dx^2,
as grad --order 2 names it; a constant's Hessian is said to be empty, once; a --wrt name
f renames the function as a variable f does."""
from __future__ import annotations

import math

import mpmath
import pytest

import adcli
from conftest import adcli_rows_on_terminal, run_cli, strict_json

# (the API warns of the cancellation at y = 1e-8, rightly: the CLI's runs say it on stderr)
pytestmark = pytest.mark.filterwarnings("ignore::adcli.errors.AdcliWarning")

F, AT = "exp(x*y)/y", "x=0.1,y=1e-8"
# At y = 1e-8 the two passes differ in their 8th digit: d/dx (df/dy) cancels 1/y^2 terms
# (0.1000000089...), d/dy (df/dx) does not (0.1000000001...). Both are x e^(xy) in truth.
X, Y = 0.1, 1e-8


def csv_row(*argv: str) -> dict[str, str]:
    code, out, err = run_cli(*argv, "--format", "csv")
    assert code == 0, err
    header, row = out.splitlines()
    return dict(zip(header.split(","), row.split(",")))


def value_of(text: str) -> float:
    return float(adcli.parse(text).value(x=X, y=Y))


def hessian_text(rows: list[str]) -> str:
    """A narrow terminal's Hessian, its folded rows run together, one space apart."""
    start = next(i for i, row in enumerate(rows) if row.startswith("Hessian at"))
    return " ".join(" ".join(rows[start:]).split())


def truth() -> float:
    with mpmath.workdps(40):
        return float(mpmath.mpf(X) * mpmath.exp(mpmath.mpf(X) * mpmath.mpf(Y)))


# ----- 1. d2f/dx dy is d/dx of df/dy everywhere ---------------------------------------

def test_the_csv_mixed_partials_are_named_as_leibniz_and_check_name_them():
    row = csv_row("hessian", F, "--at", AT)
    lower, upper = float(row["d2f/dx dy"]), float(row["d2f/dy dx"])
    # the two passes really differ here (else nothing below could tell them apart)
    assert abs(lower - upper) > 1e-9 * truth()
    assert math.isclose(lower, truth(), rel_tol=1e-6)
    assert math.isclose(upper, truth(), rel_tol=1e-6)
    assert lower == value_of(f"diff({F}, y, x)")       # d/dx of df/dy
    assert upper == value_of(f"diff({F}, x, y)")       # d/dy of df/dx
    checked = csv_row("check", F, "--expect", "x,y=x*exp(x*y)", "--at", AT)
    assert checked["derivative"] == "d2/dx dy"
    assert float(checked["ad"]) == lower


def test_json_and_the_api_hold_d2f_dxi_dxj_at_i_j():
    code, out, err = run_cli("hessian", F, "--at", AT, "--format", "json")
    assert code == 0, err
    matrix = strict_json(out)["points"][0]["hessian"]
    api = adcli.parse(F).hessian(x=X, y=Y)
    assert api.shape == (2, 2)
    for i, a in enumerate("xy"):
        for j, b in enumerate("xy"):
            want = value_of(f"diff({F}, {b}, {a})")    # d/da of df/db
            assert matrix[i][j] == want and float(api[i, j]) == want, (a, b)


def test_the_api_follows_wrt_order_in_leibniz_order_too():
    api = adcli.parse(F).hessian(wrt="y,x", x=X, y=Y)
    assert float(api[0, 1]) == value_of(f"diff({F}, x, y)")   # d/dy of df/dx


def test_the_table_holds_d_drow_of_df_dcolumn():
    code, out, err = run_cli("hessian", F, "--at", AT)
    assert code == 0, err
    rows = out[out.index("Hessian at"):].splitlines()
    cells = {line.split("│")[1].strip(): [c.strip() for c in line.split("│")[2:4]]
             for line in rows if line.startswith("│ ∂/∂")}
    assert float(cells["∂/∂x"][1]) == value_of(f"diff({F}, y, x)")
    assert float(cells["∂/∂y"][0]) == value_of(f"diff({F}, x, y)")


def test_a_narrow_terminal_names_each_entry_as_check_does():
    rows = adcli_rows_on_terminal(24, "hessian", F, "--at", AT)
    text = hessian_text(rows)
    assert f"∂²f/∂x∂y = {value_of(f'diff({F}, y, x)')!r}" in text, rows
    assert f"∂²f/∂y∂x = {value_of(f'diff({F}, x, y)')!r}" in text, rows


def test_the_readmes_x_to_the_y_below_its_diagonal_is_the_accurate_pass():
    # README "Accuracy": pow's mixed partial a^(b-1) (1 + b log a) at a = 2.03e-44,
    # b = 0.01: d/da of df/db is within 8 ulps, d/db of df/da 136 ulps off
    row = csv_row("hessian", "x^y", "--at", "x=2.03e-44,y=0.01")
    with mpmath.workdps(50):
        a, b = mpmath.mpf(2.03e-44), mpmath.mpf(0.01)
        exact = float(a ** (b - 1) * (1 + b * mpmath.log(a)))
    ulp = math.ulp(exact)
    assert abs(float(row["d2f/dx dy"]) - exact) <= 16 * ulp
    assert abs(float(row["d2f/dy dx"]) - exact) >= 64 * ulp


# ----- 2. the diagonal as grad --order 2 names it -------------------------------------

@pytest.mark.parametrize("fmt, sep", [("csv", ","), ("tsv", "\t")])
def test_the_diagonal_is_d2f_dx_squared(fmt, sep):
    code, out, err = run_cli("hessian", "x^3*y", "--at", "x=2,y=5", "--wrt", "y,x",
                             "--format", fmt)
    assert code == 0, err
    header, row = out.splitlines()
    # f = x^3 y: f_yy = 0, f_yx = f_xy = 3x^2 = 12, f_xx = 6xy = 60
    assert header.split(sep)[5:] == ["d2f/dy^2", "d2f/dy dx", "d2f/dx dy", "d2f/dx^2"]
    assert row.split(sep)[5:] == ["0.0", "12.0", "12.0", "60.0"]


def test_the_diagonal_matches_grad_order_2s_header():
    hessian = csv_row("hessian", "x1^3*y", "--at", "x1=2,y=5", "--wrt", "x1")
    second = csv_row("grad", "x1^3*y", "--at", "x1=2,y=5", "--wrt", "x1", "--order", "2")
    assert "d2f/dx1^2" in hessian and "d2f/dx1^2" in second
    assert float(hessian["d2f/dx1^2"]) == float(second["d2f/dx1^2"]) == 60.0   # 6 x1 y


def test_a_narrow_terminal_names_the_diagonal_with_a_square():
    rows = adcli_rows_on_terminal(24, "hessian", F, "--at", AT)
    text = hessian_text(rows)
    assert f"∂²f/∂x² = {value_of(f'diff({F}, x, x)')!r}" in text, rows
    assert f"∂²f/∂y² = {value_of(f'diff({F}, y, y)')!r}" in text, rows
    assert "∂x∂x" not in text and "∂y∂y" not in text, rows


# ----- 3. a constant's Hessian ---------------------------------------------------------

EMPTY = "the expression has no variables: its Hessian is empty"


def test_a_constants_hessian_is_said_to_be_empty():
    code, out, err = run_cli("hessian", "3")
    assert code == 0, err
    assert "Hessian at" not in out
    assert out.splitlines()[-1] == EMPTY


def test_a_constants_hessian_over_a_grid_is_said_once():
    code, out, err = run_cli("hessian", "3", "--grid", "x=0:1:3")
    assert code == 0, err
    assert "Hessian at" not in out
    assert out.count(EMPTY) == 1 and out.splitlines()[-1] == EMPTY
    assert out.count("│ 3.0 │") == 3       # the value at each point, as grad shows it


def test_a_constant_differentiated_in_x_still_has_its_zero():
    code, out, err = run_cli("hessian", "3", "--at", "x=1", "--wrt", "x", "--format", "json")
    assert code == 0, err
    assert strict_json(out)["points"][0]["hessian"] == [[0.0]]


# ----- 4. a --wrt name f renames the function ------------------------------------------

def test_a_wrt_name_f_renames_the_function_as_a_variable_f_does():
    row = csv_row("hessian", "x*y", "--at", "x=1,y=2", "--wrt", "x,f")
    # x y: g = 2, dg/dx = y = 2, everything in f (not in the expression) 0, g_xx = 0
    assert list(row) == ["x", "y", "g", "dg/dx", "dg/df", "d2g/dx^2", "d2g/dx df",
                         "d2g/df dx", "d2g/df^2"]
    assert [float(v) for v in row.values()] == [1.0, 2.0, 2.0, 2.0] + [0.0] * 5


def test_grad_renames_it_too():
    row = csv_row("grad", "x*y", "--at", "x=1,y=2", "--wrt", "f,x")
    assert list(row) == ["x", "y", "g", "dg/df", "dg/dx"]
    assert [float(v) for v in row.values()] == [1.0, 2.0, 2.0, 0.0, 2.0]
