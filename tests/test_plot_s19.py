"""An end of the grid is taken for a pole only where it grows faster than the samples
before it (nineteenth session): exp's and 10^x's last sample, grown by the ratio of every
step, was cut off (exp on 0:300 shown up to 5.5e117 of 1.9e130, nothing drawn past ~270)."""
from __future__ import annotations

import math
import re

import numpy as np
import pytest

from adcli.plotting import y_view
from test_plot import in_terminal, plain

TOP = re.compile(r"^\s*(\S+)┤")


def top_label(args, columns) -> float:
    code, screen, err = in_terminal(*args, "--samples", "200", columns=columns, rows=16,
                                    NO_COLOR="1")
    assert code == 0, err
    return max(float(m[1]) for m in map(TOP.match, plain(screen).splitlines()) if m)


@pytest.mark.parametrize("columns", [60, 100])
@pytest.mark.parametrize("expression, grid, top", [   # the larger of f and f' (both drawn)
    ("exp(x)", "x=0:300", math.exp(300)),
    ("10^x", "x=0:10", 1e10 * math.log(10)),
    ("exp(x)", "x=0:690", math.exp(690)),
    ("x^20", "x=0:3", 20 * 3.0 ** 19),
])
def test_honest_growth_is_shown_to_its_top(columns, expression, grid, top):
    shown = top_label([expression, "--grid", grid], columns)
    # the top tick is the largest value rounded to the axis' few digits, never far below
    assert top / 1.5 <= shown <= top * 2.5, shown


@pytest.mark.parametrize("f, lo, hi", [
    (np.exp, 0.0, 300.0), (np.exp, 0.0, 100.0), (lambda x: 10.0 ** x, 0.0, 10.0)])
@pytest.mark.parametrize("n", [11, 41, 200])
def test_the_view_holds_a_geometric_curves_last_sample(f, lo, hi, n):
    x = np.linspace(lo, hi, n)
    y = f(x)
    low, high = y_view([y], [y if f is np.exp else y * math.log(10)], x)
    assert high >= y[-1] and low <= y[0]


@pytest.mark.parametrize("x", [np.linspace(0, math.pi / 2, 200), np.linspace(-math.pi / 2, 0, 200),
                               np.linspace(0, math.pi / 2, 41)])
def test_tan_at_an_end_of_the_grid_is_still_a_pole(x):
    """tan at the float pi/2 is 1.6e16: the view stays near the bulk's height."""
    y = np.tan(x)
    low, high = y_view([y], [1 / np.cos(x) ** 2], x)
    assert max(abs(low), abs(high)) < 1e6


def test_one_over_x_across_0_is_still_clipped():
    x = np.linspace(-1, 1, 200)
    y = 1 / x
    low, high = y_view([y], [-1 / x ** 2], x)
    assert max(abs(low), abs(high)) < 1e4
