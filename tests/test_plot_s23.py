"""Session 23: the --grid variable is the plot's axis though f does not use it (a constant
has one x column and no "unused value" warning), and a grid over a variable f lacks says
so; a --grid is echoed as typed; a derivative does not exist, and is not drawn, where the
one before it jumps (abs'' at 0), while a derivative that is a fact stays drawn and marked
(x*abs(x)' at 0 with --order 2); an image legend that would cover a curve goes under the
axes, and nothing drawn lists nothing and says so."""
from __future__ import annotations

import json

import numpy as np
import pytest

from conftest import run_cli
from test_plot import in_terminal, legend_line
from test_trace_plot_s20 import drawn, sides_of


# ----- 1. the grid variable is the axis, used or not ------------------------------------------

@pytest.mark.parametrize("args, header, f", [
    (["3", "--grid", "x=0:1:3"], "x,f,df/dx", 3.0),
    (["y^2", "--grid", "x=0:1:3", "--at", "y=2"], "x,y,f,df/dx", 4.0),
    (["3", "0", "--grid", "x=0:1:3"], "x,f,df/dx,yours", 3.0),
])
def test_a_constant_along_the_grid_has_one_axis_column(args, header, f):
    code, out, err = run_cli("plot", *args, "--format", "csv")
    assert code == 0 and err == ""
    head, *rows = out.splitlines()
    assert head == header
    table = np.array([[float(v) for v in row.split(",")] for row in rows])
    assert table[:, 0].tolist() == [0.0, 0.5, 1.0]
    assert table[:, head.split(",").index("f")].tolist() == [f] * 3
    assert table[:, head.split(",").index("df/dx")].tolist() == [0.0] * 3


def test_a_constant_along_the_grid_passes_strict_and_has_no_extra_in_json():
    code, out, err = run_cli("plot", "3", "--grid", "x=0:1:2", "--format", "json", "--strict")
    assert code == 0 and err == ""
    points = json.loads(out)["points"]
    assert [p["at"] for p in points] == [{"x": 0.0}, {"x": 1.0}]
    assert all("extra" not in p for p in points)


# ----- 4, 5. a grid over a variable f lacks; the grid as typed --------------------------------

@pytest.mark.parametrize("args, message", [
    (["x^2", "--grid", "y=0:1"],
     "--grid 'y=0:1': 'y' does not appear in x^2; plot along x with --grid x=START:STOP"),
    (["x^2*y", "--grid", "z=0:1", "--at", "x=1"],
     "'z' does not appear in (x^2)*y; plot along one of x, y"),
    (["x^2", "--grid", "x=0:1:1"], "--grid 'x=0:1:1': a plot needs at least 2 points, got 1"),
    (["x^2", "--grid", "x=0:1.50:1"], "--grid 'x=0:1.50:1': a plot needs at least 2 points"),
    (["x^2", "--grid", "x=2.0:2"], "--grid 'x=2.0:2': the range is empty"),
])
def test_grid_errors_name_the_grid_as_typed(args, message):
    code, out, err = run_cli("plot", *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("adcli: error: ") and message in err


# ----- 2, 3. a derivative after a jump, and a derivative that is a fact -----------------------

@pytest.mark.parametrize("expression, grid, kink", [
    ("abs(x)", "x=-1:1:400", 0.0),          # the kink between two samples
    ("abs(x)", "x=-1:1", 0.0),              # a sample on it
    ("abs(x - 0.3)", "x=-1:1:400", 0.3),
])
def test_the_second_derivative_breaks_where_the_first_jumps(monkeypatch, tmp_path, expression,
                                                           grid, kink):
    _, stretches = drawn(monkeypatch, tmp_path, expression, "--grid", grid, "--order", "2")
    left, right = sides_of(stretches["d2f/dx2"], kink)     # (asserts none crosses it)
    assert left and right
    # |x - a|'' = 0 on either side, by hand
    assert all(np.all(ys == 0) for _, ys in left + right)


def test_a_smooth_second_derivative_across_a_kink_is_one_line(monkeypatch, tmp_path):
    # abs(x)^2 = x^2: f' = 2x has no jump, f'' = 2 is drawn through 0
    _, stretches = drawn(monkeypatch, tmp_path, "abs(x)^2", "--grid", "x=-1:1:400",
                         "--order", "2")
    (xs, ys), = stretches["d2f/dx2"]
    assert xs.min() == -1 and xs.max() == 1 and np.all(ys == pytest.approx(2.0))


@pytest.mark.parametrize("grid", ["x=-1:1", "x=-1:1:400"])
def test_x_abs_x_keeps_its_true_zero_with_order_2(monkeypatch, tmp_path, grid):
    figure, stretches = drawn(monkeypatch, tmp_path, "x*abs(x)", "--grid", grid,
                              "--order", "2")
    # f' = 2|x| is one line through its zero at 0, marked there, on f' and on f (both 0)
    (xs, ys), = stretches["df/dx"]
    assert xs.min() == -1 and xs.max() == 1
    np.testing.assert_allclose(ys, 2 * np.abs(xs), atol=1e-15)
    mark_x, mark_y = figure.marks
    assert np.abs(mark_x).max() <= 1e-9 and len(mark_x) == 2 and np.all(mark_y == 0)
    # f'' = 2 sign(x) jumps at 0: broken there, -2 left of it and 2 right
    left, right = sides_of(stretches["d2f/dx2"], 0.0)
    assert all(np.all(ys == -2) for _, ys in left) and all(np.all(ys == 2) for _, ys in right)


# ----- 6. the image legend, and nothing drawn -------------------------------------------------

def saved_canvas(monkeypatch):
    """The matplotlib figures that save writes, kept for a look."""
    from matplotlib.figure import Figure

    canvases, save = [], Figure.savefig

    def keep(self, *args, **kwargs):
        canvases.append(self)
        return save(self, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", keep)
    return canvases


def test_a_legend_that_would_cover_a_curve_goes_under_the_axes(monkeypatch, tmp_path):
    from PIL import Image

    canvases = saved_canvas(monkeypatch)
    path = tmp_path / "p.png"
    code, _, err = run_cli("plot", "sin(50*x)/50", "--grid", "x=0:1", "-o", str(path))
    assert code == 0, err
    canvas, = canvases
    axes, = canvas.axes
    assert axes.get_legend() is None
    legend, = canvas.legends
    assert legend.get_window_extent().y1 < axes.get_window_extent().y0     # under the axes
    assert [t.get_text() for t in legend.get_texts()] == ["f", "df/dx", "df/dx = 0"]
    width, height = Image.open(path).size
    assert width == 800 and height > 500           # taller by the legend's row


def test_a_legend_clear_of_the_curves_stays_inside(monkeypatch, tmp_path):
    from PIL import Image

    canvases = saved_canvas(monkeypatch)
    path = tmp_path / "p.png"
    code, _, err = run_cli("plot", "x^3 - 3x", "--grid", "x=-2:2", "--order", "2",
                           "-o", str(path))
    assert code == 0, err
    canvas, = canvases
    assert canvas.axes[0].get_legend() is not None and canvas.legends == []
    assert Image.open(path).size == (800, 500)


def test_nothing_drawn_lists_nothing_and_says_so(monkeypatch, tmp_path):
    canvases = saved_canvas(monkeypatch)
    code, out, err = run_cli("plot", "log(x)", "--grid", "x=-2:-1",
                             "-o", str(tmp_path / "l.png"))
    assert code == 0 and out == ""            # as grad's nan: warnings, not an error
    assert err.splitlines()[0] == ("adcli: warning: nothing is drawn: f is nan or inf at "
                                   "every point of --grid 'x=-2:-1'")
    canvas, = canvases
    assert canvas.axes[0].get_legend() is None and canvas.legends == []


def test_nothing_drawn_on_a_terminal_has_no_legend():
    code, screen, err = in_terminal("log(x)", "--grid", "x=-2:-1")
    assert code == 0 and "nothing is drawn" in err
    assert legend_line(screen).split() == ["value", "x"]     # the axes' labels, then nothing


def test_an_undrawn_derivative_is_not_in_the_terminal_legend():
    # 1e309*x: f is finite near 0 only; f' = 1e309 is inf everywhere, so not drawn
    code, screen, err = in_terminal("1e308*x*10", "--grid", "x=-1:1")
    assert code == 0, err
    assert "f" in legend_line(screen) and "df/dx" not in legend_line(screen)


def test_a_grid_over_a_let_name_keeps_its_own_error():
    code, _, err = run_cli("plot", "g", "--let", "g=x^2", "--grid", "g=0:1")
    assert code == 2 and err.count("\n") == 1
    assert "'g' is defined by --let, so it is not a variable" in err


def test_a_grid_over_a_greek_letter_spelled_out_is_hinted():
    code, out, err = run_cli("plot", "α*x", "--grid", "alpha=0:1:5")
    assert code == 2 and out == ""
    assert err.strip() == ("adcli: error: --grid 'alpha=0:1:5': 'alpha' does not appear in "
                           "α*x ('alpha' was given: the expression has the letter 'α', a "
                           "different name)")
