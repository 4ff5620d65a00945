"""adcli plot, as a tester saw it at real terminals (tmux at 40 to 160 columns):

1. a turning point was missed when a sample lands next to it, where df/dx is ~1e-16;
2. the legend cut your own derivative's expression, shown nowhere else, even at 160 columns;
3. without colour (NO_COLOR, TERM=dumb) f, df/dx and d2f/dx2 were the same braille line.

Read as a user sees them: the real executable in a pseudo-terminal, the screen mapped back
to numbers by its own tick labels. Expected values are closed forms worked out by hand.
"""
import math
import re

import numpy as np
import pytest

from test_plot import frame_bottom, in_terminal, plain, tick_columns

WIDTHS = [40, 60, 80, 160]


def screen_lines(*args, columns=80, rows=30, **env):
    code, screen, err = in_terminal(*args, columns=columns, rows=rows, **env)
    assert code == 0, err
    lines = plain(screen).rstrip("\n").splitlines()
    assert all(len(line) <= columns for line in lines)
    return screen, lines


def frame(lines):
    """The plot's rows, between the frame's top and bottom, and the columns of its sides."""
    top = next(i for i, line in enumerate(lines) if "┌" in line)
    rows = lines[top + 1:frame_bottom(lines)]
    return top + 1, rows, lines[top].index("┌"), lines[top].index("┐")


def column_to_x(lines):
    """x at a screen column, read off the x ticks (marks '┬' under their labels)."""
    marks, labels = tick_columns(lines)
    slope, offset = np.polyfit(marks, [float(label) for label in labels], 1)
    return lambda column: slope * column + offset, abs(slope)


def row_to_y(lines):
    """y at a screen row, read off the y ticks ('10┤')."""
    rows, values = [], []
    for i, line in enumerate(lines[:frame_bottom(lines)]):
        if "┤" in line:
            rows.append(i)
            values.append(float(line[:line.index("┤")]))
    slope, offset = np.polyfit(rows, values, 1)
    return lambda row: slope * row + offset, abs(slope)


def cells(lines, symbol):
    """(row, column) of every ``symbol`` inside the plot's frame."""
    first, rows, left, right = frame(lines)
    return [(first + r, c) for r, line in enumerate(rows)
            for c, ch in enumerate(line) if left < c < right and ch == symbol]


def legend(lines):
    """The lines under the axis labels ('value   x'), the legend's."""
    return lines[frame_bottom(lines) + 3:]


# ----- 1. a turning point next to a sample ----------------------------------------------

def marked_x(lines):
    """x of each column holding a '●', and the width of a column in x."""
    to_x, step = column_to_x(lines)
    return sorted({to_x(c) for _, c in cells(lines, "●")}), step


@pytest.mark.parametrize("columns", WIDTHS)
def test_sin_on_0_to_pi_is_marked_at_pi_over_2(columns):
    screen, lines = screen_lines("sin(x)", "--grid", "x=0:pi", columns=columns)
    xs, step = marked_x(lines)
    assert xs and all(abs(x - math.pi / 2) <= 1.5 * step for x in xs)
    assert "● df/dx = 0" in " ".join(legend(lines))


@pytest.mark.parametrize("columns", WIDTHS)
def test_sin_squared_on_minus_pi_to_pi_is_marked_at_every_zero_of_its_slope(columns):
    # (sin^2)' = 2 sin(x) cos(x): 0 at -pi, -pi/2, 0, pi/2 and pi, each a turning point
    screen, lines = screen_lines("sin(x)^2", "--grid", "x=-pi:pi", columns=columns)
    xs, step = marked_x(lines)
    for zero in [-math.pi, -math.pi / 2, 0.0, math.pi / 2, math.pi]:
        assert any(abs(x - zero) <= 1.5 * step for x in xs), (zero, xs)
    assert all(min(abs(x - k * math.pi / 2) for k in range(-2, 3)) <= 1.5 * step for x in xs)


# ----- 2. your derivative, whole -----------------------------------------------------------

YOURS = "2 sin(x) cos(x) + 0*x^7 + 0*exp(x)*cos(x) + 0*log(1+x^2)*tan(x/10)"
NO_SPACES = "*".join(["cos(x)"] * 12) + "*0+2*sin(x)*cos(x)"    # printed with few spaces


@pytest.mark.parametrize("yours", [YOURS, NO_SPACES])
@pytest.mark.parametrize("columns", WIDTHS)
def test_your_derivative_is_shown_whole_in_the_legend(yours, columns):
    # It was "•• yours: ((((2*sin(x))*cos(x)) + (0*(x…" at every width.
    import adcli

    screen, lines = screen_lines("sin(x)^2", yours, "--grid", "x=0:pi", columns=columns,
                                 rows=40)
    text = legend(lines)
    assert "…" not in screen
    start = next(i for i, line in enumerate(text) if "•• yours:" in line)
    end = next((i for i in range(start + 1, len(text)) if not text[i].startswith("   ")),
               len(text))          # its folded lines are indented under it
    first = text[start][text[start].index("•• yours:"):]
    shown = "".join([re.split(" {3}", first)[0], *text[start + 1:end]])   # not the next entry
    assert shown.replace(" ", "") == f"••yours:{adcli.parse(yours).parsed}".replace(" ", "")


def test_your_derivative_is_whole_in_an_image_legend(capsys, tmp_path):
    import adcli
    import matplotlib

    from test_cli import run

    path = tmp_path / "fig.svg"
    matplotlib.rcParams["svg.fonttype"] = "none"    # keep text as text to read it back
    try:
        code, _, err = run(capsys, "plot", "sin(x)^2", YOURS, "--grid", "x=0:pi",
                           "-o", str(path))
    finally:
        matplotlib.rcParams["svg.fonttype"] = "path"
    assert code == 0, err
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", path.read_text())
    assert f"yours: {adcli.parse(YOURS).parsed}" in texts


# ----- 3. no colour: a marker per curve ------------------------------------------------------

@pytest.mark.parametrize("env", [{"NO_COLOR": "1"}, {"TERM": "dumb"}])
@pytest.mark.parametrize("columns", [40, 80, 160])
def test_without_colour_each_curve_has_its_own_marker_on_it_and_in_the_legend(env, columns):
    # f = x^3 - 3x, f' = 3x^2 - 3, f'' = 6x: all three were the same braille, and the legend
    # "── f   ── df/dx   ── d2f/dx2".
    screen, lines = screen_lines("x^3 - 3x", "--grid", "x=-2:2", "--order", "2",
                                 columns=columns, **env)
    assert "\x1b" not in screen
    entries = re.split(r"\s{3,}", "   ".join(legend(lines)).strip())
    symbols = dict(reversed(entry.split(" ", 1)) for entry in entries)
    assert len({symbols["f"], symbols["df/dx"], symbols["d2f/dx2"]}) == 3
    to_x, dx = column_to_x(lines)
    to_y, dy = row_to_y(lines)
    for name, curve, slope in [("df/dx", lambda x: 3 * x**2 - 3, lambda x: 6 * x),
                               ("d2f/dx2", lambda x: 6 * x, lambda x: 6 + 0 * x)]:
        marker = symbols[name][0]
        found = cells(lines, marker)
        assert len(found) >= columns // 4, name      # drawn across the plot ...
        for row, column in found:                    # ... and only on its own curve
            x, y = to_x(column), to_y(row)
            assert abs(y - curve(x)) <= 1.5 * dy + 1.5 * dx * abs(slope(x)), (name, x, y)
