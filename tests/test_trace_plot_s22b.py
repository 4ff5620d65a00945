"""Session 22, follow-ups: trace's first non-finite adjoint is one on the way to a gradient
asked for (sqrt(y)'s inf adjoint is no part of d/dx); plot tells a jump of f from a flat
cusp |x|^p (p < 0.1: a millionfold narrowing leaves half its change); check's and trace's
JSON warnings carry their row's passed-through columns under "extra", as grad's do."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

from adcli import tracing
from adcli.commands.plot import _limit, _steps_stay
from adcli.errors import EXIT_NONFINITE
from adcli import parse
from conftest import run_cli
from test_plot_s22 import crossing
from test_trace_plot_s20 import drawn

FIRST_ADJOINT = "the first non-finite adjoint"


# ----- 1. trace: the first non-finite adjoint on the way to ∂f/∂(--wrt) ----------------------

def test_an_adjoint_off_the_way_to_the_wrt_gradient_is_not_warned():
    # f = sqrt(y)·x: ∂f/∂x = sqrt(y) = 0 at y = 0; ∂f/∂y = x/(2 sqrt(y)) = inf is not asked for
    code, out, err = run_cli("trace", "sqrt(y)*x", "--at", "x=1,y=0", "--wrt", "x")
    assert code == 0, err
    assert FIRST_ADJOINT not in err and "◀" not in out
    assert "∂f/∂x = v̄2 = 0.0" in out
    assert "v̄1 = v̄3/(2·v3) = inf" in out          # still shown, as the engine has it


def test_an_adjoint_off_the_way_does_not_fail_strict():
    code, _, err = run_cli("trace", "sqrt(y)*x", "--at", "x=1,y=0", "--wrt", "x", "--strict")
    assert code == 0, err


def test_the_json_first_nonfinite_adjoint_is_none_off_the_way():
    code, out, err = run_cli("trace", "sqrt(y)*x", "--at", "x=1,y=0", "--wrt", "x",
                             "--format", "json")
    assert code == 0, err
    point, = json.loads(out)["points"]
    assert point["first_nonfinite"] == {"value": None, "adjoint": None}
    assert point["gradient"] == {"x": 0.0}


@pytest.mark.parametrize("wrt", [["--wrt", "y"], []])
def test_an_adjoint_on_the_way_is_still_warned(wrt):
    code, out, err = run_cli("trace", "sqrt(y)*x", "--at", "x=1,y=0", *wrt)
    assert code == 0, err
    assert f"v̄1 is inf: {FIRST_ADJOINT}, where sqrt" in err
    assert "v̄1 = v̄3/(2·v3) = inf  ◀ first inf" in out
    code, _, _ = run_cli("trace", "sqrt(y)*x", "--at", "x=1,y=0", *wrt, "--strict")
    assert code == EXIT_NONFINITE


def test_an_inner_step_that_depends_on_the_wrt_variable_is_on_the_way():
    # f = sqrt(x·y) at (1, 0): v3 = x·y, v̄3 = 1/(2 sqrt(0)) = inf, and ∂f/∂x = v̄3·y = inf·0
    code, _, err = run_cli("trace", "sqrt(x*y)", "--at", "x=1,y=0", "--wrt", "x")
    assert code == 0, err
    assert f"v̄3 is inf: {FIRST_ADJOINT}" in err


def test_the_trace_finds_the_first_adjoint_among_the_wrt_variables_steps():
    e = parse("sqrt(x - 1) + x*sqrt(sqrt(y))")
    with np.errstate(all="ignore"):
        trace = tracing.reverse(e, {"x": 1.0, "y": 0.0}, ["x"])
    # v1 = x, v2 = y, v3 = v1 - 1, v4 = sqrt(v3), v5 = sqrt(v2), v6 = sqrt(v5), v7 = v1·v6,
    # v8 = v4 + v7. From v̄8 down, v̄5 = x/(2 sqrt(v5)) = inf comes first, but v5 is y's
    # alone; v̄3 = 1/(2 sqrt(0)) = inf is on the way to ∂f/∂x
    assert {s.id for s in trace.depending(["x"])} == {"v1", "v3", "v4", "v7", "v8"}
    assert math.isinf(trace.steps[4].adjoint)
    assert trace.first_nonfinite_adjoint().id == "v3"
    with np.errstate(all="ignore"):
        both = tracing.reverse(e, {"x": 1.0, "y": 0.0})
    assert both.first_nonfinite_adjoint().id == "v5"


def test_the_mark_and_the_warning_name_the_step_on_the_way():
    code, out, err = run_cli("trace", "sqrt(x - 1) + x*sqrt(sqrt(y))", "--at", "x=1,y=0",
                             "--wrt", "x")
    assert code == 0, err
    assert f"v̄3 is inf: {FIRST_ADJOINT}" in err
    marked = [row for row in out.splitlines() if "◀" in row]
    assert len(marked) == 1 and marked[0].lstrip().startswith("v̄3 = ")


# ----- 2. plot: a jump is told from a flat cusp ----------------------------------------------

def changes_of(f):
    """The slope function _steps_stay calls, for f alone (it reads only the values)."""
    return lambda x: (f(np.asarray(x, dtype=float)), None)


def cusp(p):
    return lambda x: np.abs(x) ** p


@pytest.mark.parametrize("p", [0.01, 0.05, 0.1, 0.2, 1 / 3, 0.5, 1.0])
@pytest.mark.parametrize("a, b", [(-0.0005, 0.0), (0.0, 0.0005), (-0.0003, 0.0007)])
def test_a_power_law_cusp_is_no_jump(p, a, b):
    fa, fb = abs(a) ** p, abs(b) ** p
    stays = _steps_stay(changes_of(cusp(p)), np.array([a]), np.array([b]),
                        np.array([fa]), np.array([fb]))
    assert not stays[0]


@pytest.mark.parametrize("p", [0.01, 0.05, 0.5])
def test_a_jump_beside_a_cusp_is_a_jump(p):
    def f(x):
        return np.sign(x) + np.abs(x) ** p
    for a, b in [(-0.0005, 0.0), (0.0, 0.0005), (-0.0003, 0.0007)]:
        stays = _steps_stay(changes_of(f), np.array([a]), np.array([b]),
                            f(np.array([a])), f(np.array([b])))
        assert stays[0], (a, b)


@pytest.mark.parametrize("f, a, b", [
    (np.sign, -0.005, 0.0), (np.sign, -0.0025, 0.0025),
    (lambda x: np.sign(x) + np.sign(x - 0.5), 0.4987, 0.5037),   # a staircase's step
    (lambda x: np.arctan2(x, -1.0), -0.0025, 0.0025),            # atan2's cut
    (np.tan, 1.56, 1.575),                                        # tan's pole
])
def test_jumps_and_poles_stay_broken(f, a, b):
    stays = _steps_stay(changes_of(f), np.array([a]), np.array([b]),
                        f(np.array([a])), f(np.array([b])))
    assert stays[0]


def limit(*changes):
    with np.errstate(all="ignore"):
        return float(_limit(*np.array(changes)))


def test_the_limit_of_changes_by_hand():
    k = np.arange(3)
    # C r^k tends to 0, J + C r^k to J, whatever the ratio r of the power law
    for r in (0.99, 0.84, 0.3, 1 / 32):
        assert limit(*(2.0 * r**k)) == pytest.approx(0.0, abs=1e-12)
        assert limit(*(1.0 + 2.0 * r**k)) == pytest.approx(1.0, abs=1e-12)
    # no steady ratio below 1: constant, growing (a pole), shrinking faster and faster
    for changes in [(1.0, 1.0, 1.0), (1.0, 5.0, 40.0), (1.0, 0.8, 0.025), (2.0, 2.01, 1.99)]:
        assert math.isnan(limit(*changes))


@pytest.mark.parametrize("expression, grid", [
    ("abs(x)^0.05", "x=-0.1:0.1"),          # 0 a sample: f(0) = 0, f(±0.0005) = 0.684
    ("abs(x)^0.01", "x=-0.1:0.3"),
    ("abs(x)^0.05", "x=-0.1:0.1:7"),
    ("sign(x)*abs(x)^0.05", "x=-0.1:0.1"),  # odd: -0.684 to 0 to 0.684, through 0
    ("abs(x - 0.3)^0.05", "x=-1:1:400"),
])
def test_a_flat_cusp_is_drawn_as_one_line(monkeypatch, tmp_path, expression, grid):
    figure, stretches = drawn(monkeypatch, tmp_path, expression, "--grid", grid)
    assert len(stretches["f"]) == 1


def test_the_cusp_is_drawn_down_to_its_value_at_0(monkeypatch, tmp_path):
    figure, stretches = drawn(monkeypatch, tmp_path, "abs(x)^0.05", "--grid", "x=-0.1:0.1")
    (xs, ys), = stretches["f"]
    assert 0.0 in xs and ys[list(xs).index(0.0)] == 0.0
    # and beside it |±0.0005|^0.05 = 0.6838, as by hand
    assert ys[list(xs).index(0.0) + 1] == pytest.approx(0.0005**0.05, rel=1e-12)


@pytest.mark.parametrize("grid", ["x=-0.1:0.1", "x=-0.1:0.1:400"])
def test_a_jump_beside_a_flat_cusp_still_breaks(monkeypatch, tmp_path, grid):
    _, stretches = drawn(monkeypatch, tmp_path, "sign(x) + abs(x)^0.05", "--grid", grid)
    assert crossing(stretches["f"], 0.0) == []
    assert any(xs.max() < 0 for xs, _ in stretches["f"])
    assert any(xs.min() > 0 for xs, _ in stretches["f"])
    # no segment drawn from a sample left of 0 to one right of it
    assert not any(xs.min() < 0 < xs.max() for xs, _ in stretches["f"])


def test_a_jump_a_slow_cusp_outweighs_still_breaks(monkeypatch, tmp_path):
    # 0.15 sign(x) + |x|^0.01: -0.15 from the left of 0, 0.15 from the right, 0 at it (a
    # sample of -1:1's 401): |x|^0.01 is still 0.83 at 5e-9, so the change narrowed down
    # is mostly the cusp's, yet it tends to 0.15, not 0: a jump on both sides
    _, stretches = drawn(monkeypatch, tmp_path, "0.15 sign(x) + abs(x)^0.01",
                         "--grid", "x=-1:1")
    assert not any(xs.min() < 0 <= xs.max() for xs, _ in stretches["f"])
    assert not any(xs.min() <= 0 < xs.max() for xs, _ in stretches["f"])


def test_a_jump_a_cusp_partly_cancels_breaks_on_its_side_only(monkeypatch, tmp_path):
    # 0.1 acot(x) + |x|^0.05 (acot = atan(1/x)): at 0 it is 0.1 pi/2, the right limit; from
    # the left it tends to -0.1 pi/2: a jump of 0.31 there, continuous on the right
    _, stretches = drawn(monkeypatch, tmp_path, "0.1 acot(x) + abs(x)^0.05",
                         "--grid", "x=-1:1")
    assert not any(xs.min() < 0 <= xs.max() for xs, _ in stretches["f"])
    assert any(xs.min() <= 0 < xs.max() for xs, _ in stretches["f"])


# ----- 3. check's and trace's JSON warnings carry "extra" ------------------------------------

@pytest.fixture
def points_csv(tmp_path):
    path = tmp_path / "pts.csv"
    path.write_text("id,x\na,0.5\nb,0\n")
    return str(path)


def test_checks_json_warning_carries_its_rows_extra(points_csv):
    code, out, err = run_cli("check", "sqrt(x)", "1/(2 sqrt x)", "--points", points_csv,
                             "--format", "json")
    warnings = json.loads(out)["warnings"]
    assert warnings and all(w["extra"] == {"id": "b"} and w["at"] == {"x": 0.0}
                            for w in warnings)
    assert [w["function"] for w in warnings] == ["sqrt"]


def test_traces_json_warning_carries_its_rows_extra(points_csv):
    code, out, err = run_cli("trace", "abs(x)", "--points", points_csv, "--format", "json")
    assert code == 0, err
    document = json.loads(out)
    assert [p["extra"] for p in document["points"]] == [{"id": "a"}, {"id": "b"}]
    warning, = document["warnings"]
    assert warning["extra"] == {"id": "b"} and warning["at"] == {"x": 0.0}
    assert (warning["function"], warning["kind"]) == ("abs", "kink")


@pytest.mark.parametrize("argv", [
    ["check", "sqrt(x)", "1/(2 sqrt x)", "--at", "x=0"],
    ["trace", "abs(x)", "--at", "x=0"],
])
def test_a_warning_without_passed_columns_has_no_extra(argv):
    _, out, _ = run_cli(*argv, "--format", "json")
    warnings = json.loads(out)["warnings"]
    assert warnings and all("extra" not in w for w in warnings)
