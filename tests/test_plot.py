"""adcli plot, as the README specifies it ("Seeing it: adcli plot").

The terminal plot is read the way a user sees it: the real executable in a pseudo-terminal
of a given size. Image files are opened and measured. Expected numbers (the zeros of f',
the data columns) are closed forms worked out by hand, never adcli's own output.
"""
import contextlib
import io
import json
import math
import re
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adcli.commands.plot import slope_zeros
from adcli.plotting import IMAGE_SIZE, Curve, Figure, connected, pieces, terminal, y_view
from conftest import run_cli, run_in_pty
from test_cli import adcli_executable, run, subprocess_env

ANSI = re.compile(r"\x1b\[[0-9;]*m")


# ----- helpers --------------------------------------------------------------------------

def in_terminal(*args, columns=80, rows=24, **env):
    """Run adcli with stdout on a pseudo-terminal of this size; return (code, screen text
    with the colour codes, stderr)."""
    environment = subprocess_env(**env)
    for name in ("COLUMNS", "LINES", "NO_COLOR"):   # the terminal's own size and colours
        if name not in env:
            environment.pop(name, None)
    environment.setdefault("TERM", "xterm-256color")
    return run_in_pty([adcli_executable(), "plot", *args], environment, columns, rows,
                      stdin=subprocess.DEVNULL, stderr_apart=True)


def plain(screen):
    return ANSI.sub("", screen)


def legend_line(screen):
    return plain(screen).rstrip("\n").splitlines()[-1]


def frame_bottom(lines):
    return next(i for i, line in enumerate(lines) if "└" in line)


def tick_columns(lines):
    """Column of each '┬' tick mark on the bottom of the frame, and the labels under them."""
    bottom = frame_bottom(lines)
    marks = [i for i, c in enumerate(lines[bottom]) if c == "┬"]
    labels = lines[bottom + 1].split()
    return marks, labels


def data(capsys, *args):
    """The plotted data, as printed when stdout is not a terminal: columns by header."""
    code, out, err = run(capsys, "plot", *args)
    assert code == 0, err
    header, *lines = out.splitlines()
    values = np.array([[float(v) for v in line.split(",")] for line in lines])
    return {name: values[:, i] for i, name in enumerate(header.split(","))}, err


# ----- the terminal ---------------------------------------------------------------------

@pytest.mark.parametrize("args, title, legend", [
    (["sin(x)*exp(-x/4)", "--grid", "x=0:4pi"], "f(x) = sin(x)*exp((-x)/4)",
     ["f", "df/dx", "df/dx = 0"]),
    (["x^3 - 3x", "--grid", "x=-2:2", "--order", "2"], "f(x) = (x^3) - (3*x)",
     ["f", "df/dx", "d2f/dx2", "df/dx = 0"]),
    (["x^3 - 3x", "3x^2 - 3", "--grid", "x=-2:2"], "f(x) = (x^3) - (3*x)",
     ["f", "df/dx", "yours: (3*(x^2)) - 3", "df/dx = 0"]),
    (["t^2*y", "--at", "y=2", "--grid", "t=-1:1"], "f(t) = (t^2)*y   at y = 2.0",
     ["f", "df/dt", "df/dt = 0"]),
    (["tan(x)", "--grid", "x=0:2pi", "--order", "2"], "f(x) = tan(x)",
     ["f", "df/dx", "d2f/dx2"]),
])
def test_terminal_plot_has_title_axes_and_legend(args, title, legend):
    code, screen, err = in_terminal(*args)
    assert code == 0, err
    lines = plain(screen).rstrip("\n").splitlines()
    entries = [e.strip() for e in re.split(r"\s{3,}", legend_line(screen))]
    assert [e.split(" ", 1)[1] for e in entries] == legend
    assert lines[0].strip() == title                  # the expression as read, --at values
    assert any("┌" in line for line in lines) and any("└" in line for line in lines)
    marks, labels = tick_columns(lines)
    assert len(marks) == len(labels) >= 3                     # x ticks with numbers
    variable = args[args.index("--grid") + 1][0]
    assert lines[frame_bottom(lines) + 2].split() == ["value", variable]   # axis labels
    assert all(len(line) <= 80 for line in lines)
    assert "\x1b[" in screen                                   # coloured on a terminal


@pytest.mark.parametrize("columns, rows", [(40, 20), (120, 40)])   # 80x24: above
def test_terminal_plot_fits_the_terminal(columns, rows):
    code, screen, err = in_terminal("x^3 - 3x", "3x^2 - 3", "--grid", "x=-2:2", "--order", "2",
                                    columns=columns, rows=rows)
    assert code == 0, err
    lines = plain(screen).rstrip("\n").splitlines()
    assert max(len(line) for line in lines) <= columns
    assert len(lines) < rows                       # room for the prompt
    legend = " ".join(lines[frame_bottom(lines) + 3:])   # it may wrap at 40 columns
    for entry in ["f", "df/dx", "d2f/dx2", "yours:", "df/dx = 0"]:
        assert entry in legend


def test_the_zeros_of_the_derivative_are_marked_where_they_are():
    # f = x^3 - 3x on [-2, 2]: f' = 3x^2 - 3 is 0 at x = -1 and 1, ticks every 0.5 from -2,
    # so the marks are under the 3rd and 7th ticks: on the f' curve (at 0) and on f (at +-2).
    code, screen, err = in_terminal("x^3 - 3x", "--grid", "x=-2:2")
    assert code == 0, err
    lines = plain(screen).rstrip("\n").splitlines()
    marks, labels = tick_columns(lines)
    assert labels == ["-2", "-1.5", "-1", "-0.5", "0", "0.5", "1", "1.5", "2"]
    found = sorted(i for line in lines[:frame_bottom(lines)] for i, c in enumerate(line)
                   if c == "●")
    expected = [marks[2], marks[2], marks[6], marks[6]]
    assert len(found) == 4 and all(abs(a - b) <= 1 for a, b in zip(found, expected))


def test_a_kink_is_a_gap_in_the_derivative_and_never_a_zero_mark():
    # abs' is -1, then 1; at 0 it does not exist (shown as 0 by convention), which once drew
    # a vertical line from -1 up to 1 and marked "df/dx = 0" there.
    code, screen, err = in_terminal("abs(x)", "--grid", "x=-2:2")
    assert code == 0 and "abs is not differentiable at 1 of 401 points" in err
    lines = plain(screen).rstrip("\n").splitlines()
    marks, labels = tick_columns(lines)
    zero = marks[labels.index("0")]
    low = next(i for i, line in enumerate(lines) if line.lstrip().startswith("-1┤"))
    origin = next(i for i, line in enumerate(lines) if line.lstrip().startswith("0┤"))
    assert all(not line[zero - 1:zero + 2].strip() for line in lines[origin + 1:low])
    assert "●" not in "".join(lines[:frame_bottom(lines)])
    assert "df/dx = 0" not in legend_line(screen)


def test_a_kink_of_your_derivative_does_not_hide_a_zero_of_f_prime():
    # f = x^2 + 1 turns at 0 (f' = 2x = 0 there, f = 1); your 2*abs(x) has a kink at 0,
    # which is no reason to leave out f's own derivative: both marks stay, under the 0 tick.
    code, screen, err = in_terminal("x^2 + 1", "2*abs(x)", "--grid", "x=-2:2")
    assert code == 0 and err == ""
    lines = plain(screen).rstrip("\n").splitlines()
    marks, labels = tick_columns(lines)
    found = [i for line in lines[:frame_bottom(lines)] for i, c in enumerate(line) if c == "●"]
    assert len(found) == 2 and all(abs(i - marks[labels.index("0")]) <= 1 for i in found)


def test_a_strict_stop_draws_the_points_before_it_kinks_and_all():
    # log(1 - x) is nan from x = 1 on: --strict draws the 300 points before, then exits 3.
    code, screen, err = in_terminal("abs(x)*log(1-x)", "--grid", "x=-2:2", "--strict")
    assert code == 3 and "(--strict)" in err
    assert "df/dx" in legend_line(screen)


@pytest.mark.parametrize("expression, derivative_drawn", [
    ("1e308*x*10", False),      # df/dx = 1e309 overflows at every point: not in the legend
    ("1e299*x", True)])
def test_huge_values_are_drawn_without_a_crash(expression, derivative_drawn):
    code, screen, err = in_terminal(expression, "--grid", "x=-1:1")
    assert code == 0, err
    assert "── f" in legend_line(screen)
    assert ("df/dx" in legend_line(screen)) == derivative_drawn


def test_no_color_leaves_no_escape_codes():
    code, screen, err = in_terminal("sin(x)", "--grid", "x=0:pi", NO_COLOR="1")
    assert code == 0, err
    assert "\x1b" not in screen and "df/dx" in screen


def test_a_pole_breaks_the_curve_in_the_terminal_without_a_crash():
    # tan goes from +1e16 to -1e16 across pi/2: a line there would be a full-height spike.
    code, screen, err = in_terminal("tan(x)", "--grid", "x=0:pi", "--samples", "400")
    assert code == 0, err
    assert "df/dx" in legend_line(screen)


def test_nothing_is_drawn_where_f_is_undefined():
    # log(x) is nan for x < 0, where the derivative rule alone would still give 1/x.
    code, screen, err = in_terminal("log(x)", "--grid", "x=-1:1", "--order", "2")
    assert code == 0, err
    lines = plain(screen).rstrip("\n").splitlines()
    marks, labels = tick_columns(lines)
    zero = marks[labels.index("0")]
    top = next(i for i, line in enumerate(lines) if "┌" in line)
    left = [line[line.index("┤" if "┤" in line else "│") + 1:zero]
            for line in lines[top + 1:frame_bottom(lines)]]
    assert all(not cell.strip() for cell in left)
    assert any(line[zero + 1:].strip("│ ") for line in lines[top + 1:frame_bottom(lines)])
    assert "log gave nan or inf" in err


# ----- not a terminal: the data ---------------------------------------------------------

def test_without_a_terminal_the_data_is_printed_as_csv(capsys):
    columns, err = data(capsys, "sin(x)*exp(-x/4)", "--grid", "x=0:4pi", "--order", "2")
    assert list(columns) == ["x", "f", "df/dx", "d2f/dx2"]
    assert "not a terminal" in err and "\x1b" not in err
    x = columns["x"]
    assert len(x) == 401 and x[0] == 0 and x[-1] == 4 * math.pi       # a few hundred points
    e = np.exp(-x / 4)
    # f is one product, relatively accurate even where sin(x) is 1e-16: no absolute slack
    np.testing.assert_allclose(columns["f"], np.sin(x) * e, rtol=1e-14, atol=0)
    np.testing.assert_allclose(columns["df/dx"], e * (np.cos(x) - np.sin(x) / 4),
                               rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(columns["d2f/dx2"], e * (-np.sin(x) * 15 / 16 - np.cos(x) / 2),
                               rtol=1e-13, atol=1e-15)


def test_format_csv_prints_the_data_even_on_a_terminal():
    code, screen, err = in_terminal("x^2", "--grid", "x=0:1:3", "--format", "csv")
    assert code == 0, err
    assert screen.splitlines() == ["x,f,df/dx", "0.0,0.0,0.0", "0.5,0.25,1.0", "1.0,1.0,2.0"]


def test_the_samples_option_and_an_explicit_count(capsys):
    columns, _ = data(capsys, "x^2", "--grid", "x=0:1", "--samples", "11")
    # Grid values as typed (issue 11): 0.3, not linspace's 0.30000000000000004
    np.testing.assert_array_equal(columns["x"], [i / 10 for i in range(11)])
    columns, _ = data(capsys, "x^2", "--grid", "x=0:1:5", "--samples", "11")
    np.testing.assert_array_equal(columns["x"], np.linspace(0, 1, 5))


def test_your_derivative_is_a_column_beside_df_dx(capsys):
    columns, _ = data(capsys, "x^3 - 3x", "3x^2 + 3", "--grid", "x=-2:2:9")
    x = np.linspace(-2, 2, 9)
    np.testing.assert_allclose(columns["df/dx"], 3 * x**2 - 3, atol=1e-14)
    np.testing.assert_allclose(columns["yours"], 3 * x**2 + 3, atol=1e-14)


def test_fixed_variables_and_a_constant(capsys):
    columns, _ = data(capsys, "x^2*y", "--grid", "x=-1:1:5", "--at", "y=2")
    assert list(columns) == ["x", "y", "f", "df/dx"]
    np.testing.assert_array_equal(columns["df/dx"], 4 * np.linspace(-1, 1, 5))   # 2xy
    columns, err = data(capsys, "5", "--grid", "x=0:1:3")
    assert list(columns) == ["x", "f", "df/dx"]
    np.testing.assert_array_equal(columns["df/dx"], [0, 0, 0])


def test_a_kink_is_warned_about_like_in_every_command(capsys):
    code, out, err = run(capsys, "plot", "abs(x)", "--grid", "x=-1:1:3", "--format", "json")
    assert code == 0
    assert err == ("adcli: warning: abs is not differentiable at 1 of 3 points (an argument "
                   "of 0, a corner): its derivative there is a convention, not a fact\n")
    assert [w["at"] for w in json.loads(out)["warnings"]] == [{"x": 0.0}]


def test_json_data(capsys):
    code, out, err = run(capsys, "plot", "x^2", "2x", "--grid", "x=0:1:2", "--order", "2",
                         "--format", "json")
    assert code == 0, err
    document = json.loads(out)
    assert document["variables"] == ["x"] and document["order"] == 2
    assert document["yours"] == {"expression": "2x", "parsed": "2*x"}
    assert document["points"][1] == {"at": {"x": 1.0}, "value": 1.0,
                                     "derivatives": [2.0, 2.0], "yours": 2.0}


def test_one_evaluation_for_all_the_points(capsys, monkeypatch, tmp_path):
    from adcli.commands import plot
    from adcli.expression import Expression

    sizes = []
    original = Expression.derivatives

    def counting(self, at=None, **kwargs):
        if self.variables:          # not a constant such as the grid's "4pi"
            sizes.append(np.size(at["x"]))
        return original(self, at, **kwargs)

    monkeypatch.setattr(Expression, "derivatives", counting)
    code, _, err = run(capsys, "plot", "sin(x)", "--grid", "x=0:4pi",
                       "-o", str(tmp_path / "fig.png"))
    assert code == 0, err
    # One pass over the 401 points, then a few small passes narrowing cos's 4 zeros.
    assert sizes == [401] + [4 * plot.REFINE_POINTS] * plot.REFINE_PASSES + [4]


# ----- where f turns ---------------------------------------------------------------------

def slope_of(f, df):
    return lambda x: (f(x), df(x))


@pytest.mark.parametrize("f, df, start, stop, count, expected", [
    # f = sin(x) e^{-x/4}: f' = e^{-x/4} (cos x - sin x / 4) = 0 where tan x = 4
    (lambda x: np.sin(x) * np.exp(-x / 4), lambda x: np.exp(-x / 4) * (np.cos(x) - np.sin(x) / 4),
     0, 4 * np.pi, 401, [math.atan(4) + k * math.pi for k in range(4)]),
    # f = x^2 + 1/x^2: f' = 2x - 2/x^3: zeros at +-1 (samples), and a pole at 0 (between
    # two samples) through which f' changes sign and which is no zero
    (lambda x: x**2 + 1 / x**2, lambda x: 2 * x - 2 / x**3, -2, 2, 401, [-1.0, 1.0]),
    (lambda x: x**2 + 1 / x**2, lambda x: 2 * x - 2 / x**3, -2.005, 2.005, 402, [-1.0, 1.0]),
    # f = -log|x|: f' = -1/x changes sign only through its pole
    (lambda x: -np.log(np.abs(x)), lambda x: -1 / x, -1, 1, 400, []),
    # f = x^3: f' = 3x^2 touches 0 without changing sign, at a sample
    (lambda x: x**3, lambda x: 3 * x**2, -1, 1, 401, [0.0]),
    # f = x^2 sin(x)/2: f' = x (sin x + x cos(x)/2) touches 0 at x = 0, which is not a
    # sample here, and crosses it where tan x = -x/2 (x = +-2.2889297281034 by mpmath)
    (lambda x: x**2 * np.sin(x) / 2, lambda x: x * np.sin(x) + x**2 * np.cos(x) / 2,
     -3, 3, 200, [-2.2889297281034, 0.0, 2.2889297281034]),
    # f = x^3 + x/1000: f' = 3x^2 + 0.001 comes near 0 and never reaches it
    (lambda x: x**3 + x / 1000, lambda x: 3 * x**2 + 0.001, -1, 1, 400, []),
    # f = tan(x): f' = 1/cos(x)^2 >= 1 has local minima (x = pi) beside poles, no zero
    (np.tan, lambda x: 1 / np.cos(x) ** 2, 0, 2 * np.pi, 400, []),
    # a constant: f' is 0 everywhere, no turning point to mark
    (lambda x: 0 * x + 5, lambda x: 0 * x, -1, 1, 401, []),
    # sin on [0, pi]: a sample sits 1e-16 from pi/2, where cos changes sign
    (np.sin, np.cos, 0, np.pi, 401, [np.pi / 2]),
    # sin(x)^2 on [-pi, pi]: 2 sin(x) cos(x) is 0 at -pi, -pi/2, 0, pi/2, pi, each a
    # sample to rounding (the ends are -2.4e-16 and 2.4e-16, not 0)
    (lambda x: np.sin(x) ** 2, lambda x: 2 * np.sin(x) * np.cos(x), -np.pi, np.pi, 401,
     [-np.pi, -np.pi / 2, 0.0, np.pi / 2, np.pi]),
    # f = -log|cos x| on [0, 2pi]: f' = tan x is 0 at 0, pi, 2pi and changes sign through
    # its poles at pi/2 and 3pi/2, each 1e-16 from a sample (tan there is 1.6e16): no zero
    (lambda x: -np.log(np.abs(np.cos(x))), np.tan, 0, 2 * np.pi, 401,
     [0.0, np.pi, 2 * np.pi]),
    # f = tan(x)^2 on [0, pi]: f' = 2 tan(x) / cos(x)^2, 0 at 0 and pi, a pole at pi/2
    (lambda x: np.tan(x) ** 2, lambda x: 2 * np.tan(x) / np.cos(x) ** 2, 0, np.pi, 401,
     [0.0, np.pi]),
])
def test_zeros_of_the_slope(f, df, start, stop, count, expected):
    x = np.linspace(start, stop, count)
    with np.errstate(all="ignore"):
        marks_x, marks_y = slope_zeros(slope_of(f, df), x, f(x), df(x))
        n = len(expected)
        assert len(marks_x) == 2 * n
        np.testing.assert_allclose(marks_x[:n], expected, rtol=1e-9, atol=1e-12)
        np.testing.assert_array_equal(marks_y[:n], np.zeros(n))          # on the f' curve
        # on f. f is flat at a slope zero: a mark 1e-9 |x| off moves it by |f''| (1e-9 x)^2 / 2,
        # below 1e-16 for these f, so f there (1.5e-32 at pi for sin^2) is known no better
        np.testing.assert_allclose(marks_y[n:], f(np.array(expected)), rtol=1e-9, atol=1e-16)


def test_a_touching_zero_between_two_equal_samples():
    # f = x^3, f' = 3x^2 sampled at ..., -0.05, 0.05, ...: the two samples nearest the
    # zero have the same |f'| (a grid symmetric about it, as --grid x=-3:3:200 makes)
    x = np.array([-0.45, -0.25, -0.05, 0.05, 0.25, 0.45])
    marks_x, _ = slope_zeros(slope_of(lambda t: t**3, lambda t: 3 * t**2), x, x**3, 3 * x**2)
    # |f'| is flat below rounding within ~1e-8 of a double zero: a mark that close
    np.testing.assert_allclose(marks_x, [0.0, 0.0], atol=1e-8)


# ----- breaks and the view --------------------------------------------------------------

def test_a_pole_does_not_set_the_view_but_honest_growth_does():
    x = np.linspace(0, np.pi, 400)
    low, high = y_view([np.tan(x)])
    assert 5 < high < 1000 and -1000 < low < -5          # not +-1e16
    x = np.linspace(0, 10, 401)
    low, high = y_view([np.exp(x)])
    assert high >= math.exp(10) and low <= 1             # the whole of exp


@pytest.mark.parametrize("slope", [lambda x: 1 / np.cos(x) ** 2, None])
def test_no_line_across_a_pole_even_inside_the_view(slope):
    x = np.linspace(0, np.pi, 400)          # pi/2 is not a sample: tan is +-255 next to it
    y = np.tan(x)
    drawn = pieces(x, y, (-1e3, 1e3), None if slope is None else slope(x))
    assert len(drawn) == 2
    for xs, ys in drawn:
        assert not (xs.min() < math.pi / 2 < xs.max())


@pytest.mark.parametrize("f, slope", [
    (np.sin, np.cos),     # 3 samples a period: steps that zigzag, and no pole
    (lambda x: 1 / x, lambda x: -1 / x**2),
])
def test_a_pole_is_told_from_a_steep_drop_by_the_slope(f, slope):
    x = np.linspace(-4 * np.pi, 4 * np.pi, 13)      # 0 is a sample, so 1/x has no pole between
    with np.errstate(divide="ignore"):
        y, dy = f(x), slope(x)
    link = connected(y, dy)
    assert link[1:].tolist() == np.isfinite(y[1:] + y[:-1]).tolist()


def test_a_pole_without_a_slope():
    x = np.linspace(-1, 1, 20)                      # 1/x: -19 ... -1/0.05 | 1/0.05 ... 1
    link = connected(1 / x)
    assert link.tolist() == [False] + [True] * 9 + [False] + [True] * 9


def test_no_line_next_to_a_nan():
    with np.errstate(all="ignore"):
        y = np.log(np.linspace(-1, 1, 5))   # nan nan -inf log(.5) 0
    assert connected(y).tolist() == [False, False, False, False, True]


def test_a_curve_leaving_the_view_stops_at_its_edge():
    x = np.array([0.0, 1.0, 2.0, 3.0])
    y = np.array([0.0, 1.0, 3.0, 1.0])      # out above 2 between 1 and 3
    (x1, y1), (x2, y2) = pieces(x, y, (0.0, 2.0))
    np.testing.assert_array_equal(x1, [0, 1, 1.5])
    np.testing.assert_array_equal(y1, [0, 1, 2])
    np.testing.assert_array_equal(x2, [2.5, 3])
    np.testing.assert_array_equal(y2, [2, 1])


WILD = st.one_of(st.floats(width=64), st.floats(-1e3, 1e3),
                 st.sampled_from([0.0, 1e300, -1e300, 1e-320, math.inf, -math.inf, math.nan]))


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 40).flatmap(lambda n: st.tuples(*[st.lists(WILD, min_size=n, max_size=n)] * 2)),
       st.floats(-1e30, 1e30), st.floats(1e-30, 1e30), st.integers(40, 120))
def test_any_values_are_drawn_inside_the_view_and_the_terminal(ys, start, span, width):
    # plotext's C++ core aborts the process on a line towards a far-off point: pieces must
    # hand it only points inside the view, whatever the values.
    y, slope = (np.array(v) for v in ys)
    x = np.linspace(start, start + span, len(y))
    with np.errstate(all="ignore"):
        figure = Figure("t", "x", "value", x, [Curve("f", y, 0, slope=slope),
                                               Curve("yours", slope, 3, mine=True)])
        low, high = figure.view
        for xs, piece in pieces(x, y, figure.view, slope):
            assert np.all((low <= piece) & (piece <= high))
            assert np.all((x[0] <= xs) & (xs <= x[-1]))
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
            text = terminal(figure, width, 20, colour=False)
    assert max(len(line) for line in text.splitlines()) <= width
    assert printed.getvalue() == ""                # plotext's own notes are kept quiet


# ----- image files ----------------------------------------------------------------------

# These need the plot extra, which the README's test command installs.

@pytest.mark.parametrize("args", [
    ["sin(x)*exp(-x/4)", "--grid", "x=0:4pi", "--order", "2"],
    ["x^3 - 3x", "3x^2 - 3", "--grid", "x=-2:2"],
    ["tan(x)", "--grid", "x=0:2pi"],
    ["log(x)", "--grid", "x=-1:3"],
])
def test_png_has_the_expected_size(capsys, tmp_path, args):
    from PIL import Image

    path = tmp_path / "fig.png"
    code, out, err = run(capsys, "plot", *args, "-o", str(path))
    assert code == 0, err
    assert out == ""
    with Image.open(path) as image:
        assert image.format == "PNG" and image.size == IMAGE_SIZE
        pixels = np.asarray(image.convert("L"))
    assert (pixels < 128).mean() > 0.01            # something is drawn on it


@pytest.mark.parametrize("suffix, start", [(".svg", b"<?xml"), (".pdf", b"%PDF")])
def test_svg_and_pdf(capsys, tmp_path, suffix, start):
    path = tmp_path / f"fig{suffix}"
    code, _, err = run(capsys, "plot", "x^2", "--grid", "x=-1:1", "-o", str(path))
    assert code == 0, err
    assert path.read_bytes().startswith(start)


def test_svg_has_the_title_and_legend(capsys, tmp_path):
    import matplotlib

    path = tmp_path / "fig.svg"
    matplotlib.rcParams["svg.fonttype"] = "none"    # keep text as text to read it back
    try:
        code, _, err = run(capsys, "plot", "x^3 - 3x", "3x^2 - 3", "--grid", "x=-2:2",
                           "--order", "2", "-o", str(path))
    finally:
        matplotlib.rcParams["svg.fonttype"] = "path"
    assert code == 0, err
    svg = path.read_text()
    for text in ["f(x) = (x^3) - (3*x)", "df/dx", "d2f/dx2", "yours: (3*(x^2)) - 3",
                 "df/dx = 0", ">value<", ">x<"]:
        assert text in svg


# ----- errors ---------------------------------------------------------------------------

def test_without_matplotlib_o_fails_naming_the_extra(capsys, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)      # import matplotlib fails
    path = tmp_path / "fig.png"
    code, out, err = run(capsys, "plot", "x^2", "--grid", "x=0:1", "-o", str(path))
    assert code == 2 and out == "" and not path.exists()
    assert err.count("\n") == 1 and "pip install 'adcli[plot]'" in err


@pytest.mark.parametrize("args, message", [
    (["x^2", "--grid", "x=1:1"], "--grid 'x=1:1': the range is empty"),
    (["x^2", "--grid", "x=0:1e999"], "--grid 'x=0:1e999': 1e999 is beyond the largest "
     "float64 number (about 1.8e308): the ends of the range must be finite"),
    (["x^2", "--grid", "x=0/0:1"], "--grid 'x=0/0:1': 0/0 is nan: the ends of the range must "
     "be finite"),
    (["x", "--grid", "x=0:1.7e308"], "the ends of the range must be finite numbers within"),
    (["x*y", "--grid", "x=0:1", "--grid", "y=0:1"], "plot draws over one varying variable"),
    (["x^2", "--at", "x=1"], "plot draws over one varying variable"),
    (["x^2", "--grid", "x=0:1:1"], "a plot needs at least 2 points"),
    (["x*y", "--grid", "x=0:1"], "no value given for y"),
    (["x^2", "2x", "2", "--grid", "x=0:1"], "got 3 expressions"),
    (["x^2", "--grid", "x=0:1", "-o", "fig.gif"], "must end in .png, .svg or .pdf"),
    (["x^2", "--grid", "x=0:1", "--order", "3"], "--order"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, args, message):
    code, out, err = run(capsys, "plot", *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("adcli: error: ") and message in err


def test_points_files_are_refused(capsys, tmp_path):
    points = tmp_path / "p.csv"
    points.write_text("x\n1\n2\n")
    code, out, err = run(capsys, "plot", "x^2", "--points", str(points))
    assert code == 2 and out == "" and "not --points" in err


def test_other_commands_do_not_import_the_plotting_libraries():
    code = ("import sys, adcli.cli; adcli.cli.main(['grad', 'x^2', '--at', 'x=1']); "
            "print(sorted(m for m in ('plotext', 'matplotlib', 'adcli.plotting') "
            "if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=subprocess_env(), timeout=60)
    assert done.stdout.splitlines()[-1] == "[]"


# ----- the title never hides a digit ------------------------------------------------------

LONG_TITLE = ["sin(x)*exp(-x/4) + x^2/100 - cos(3*x)/7 + y*z", "--grid", "x=0:4pi:101",
              "--at", "y=1.2345678901234567,z=-0.00012345678901234567"]


@pytest.mark.parametrize("columns", [40, 80, 120, 160])
def test_a_long_title_is_folded_above_the_plot_with_every_digit(columns):
    # The title once lost its end to plotext's one line ("+ (y*…   at y = 1.…"), and the
    # values their digits (1.23457): now it is the expression as read, whole, then the
    # --at values as typed, folded between words and between pairs.
    import adcli

    code, screen, err = in_terminal(*LONG_TITLE, columns=columns, rows=30)
    assert code == 0, err
    lines = plain(screen).rstrip("\n").splitlines()
    title = lines[:next(i for i, line in enumerate(lines) if "┌" in line)]
    words = " ".join(title).split()
    parsed = adcli.parse(LONG_TITLE[0]).parsed
    assert " ".join(words).startswith(f"f(x) = {parsed} at y = 1.2345678901234567, z = ")
    assert words[-1] == "-0.00012345678901234567"        # a number never split over lines
    assert all(len(line) <= columns for line in lines) and "…" not in screen
    assert len(lines) < 30                               # and the whole still fits


def test_an_image_title_is_folded_inside_the_image_with_every_digit(capsys, tmp_path):
    # matplotlib neither wraps nor shrinks a title: this one ran off both sides of the
    # PNG, with its values rounded to 1.23457 and -0.000123457.
    import matplotlib
    import matplotlib.image

    png, svg = tmp_path / "fig.png", tmp_path / "fig.svg"
    code, _, err = run(capsys, "plot", *LONG_TITLE, "-o", str(png))
    assert code == 0, err
    pixels = matplotlib.image.imread(png)
    assert pixels.shape[:2] == (IMAGE_SIZE[1], IMAGE_SIZE[0])    # two lines: no taller
    top = pixels[:40, :, :3]                        # the title's rows, above the axes
    assert top.min() < 0.5                          # there is text there ...
    assert top[:, :8].min() == 1.0 and top[:, -8:].min() == 1.0   # ... clear of the edges
    matplotlib.rcParams["svg.fonttype"] = "none"    # keep text as text to read it back
    try:
        code, _, err = run(capsys, "plot", *LONG_TITLE, "-o", str(svg))
    finally:
        matplotlib.rcParams["svg.fonttype"] = "path"
    assert code == 0, err
    text = svg.read_text()
    assert "at y = 1.2345678901234567, z = -0.00012345678901234567" in text
    assert "(cos(3*x)/7)) + (y*z)" in text


def test_a_variable_named_f_gives_the_function_another_name_as_grad_does():
    """plot "f*x" --grid f=... wrote the header f,x,f,df/df: two columns named f."""
    code, out, err = run_cli("plot", "f*x", "--grid", "f=0:1:2", "--at", "x=2", "--format", "csv")
    assert out.splitlines()[0] == "f,x,g,dg/df"
