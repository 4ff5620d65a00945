"""The plot's y range cuts a curve only beside a pole, and a grid that runs right to left
draws every curve (a tester's findings: a narrow peak, exp's growth and tanh(20x)'s slope
were cut off the chart; with --grid x=1:-1 every segment was taken for a pole).

The heights below are closed forms: exp(-100x^2)' = -200x exp(-100x^2) peaks at
x = -1/sqrt(200) at sqrt(200) exp(-1/2) = 8.577; tanh(20x)' = 20 sech^2(20x) is 20 at 0;
(x^30)' = 30 at 1; exp(50) = 5.18e21."""
from __future__ import annotations

import math
import re

import numpy as np
import pytest

from adcli.plotting import Curve, Figure, connected, pieces, y_view
from conftest import run_cli

N = 401     # the samples a plot takes (--grid without a count)


def view(f, df, a, b, n=N):
    x = np.linspace(a, b, n)
    with np.errstate(all="ignore"):
        y, dy = f(x), df(x)
    return y_view([y, dy], [dy, None], x)


@pytest.mark.parametrize("f, df, a, b, top, bottom", [
    (lambda x: np.exp(-100 * x**2), lambda x: -200 * x * np.exp(-100 * x**2), -5, 5,
     math.sqrt(200) * math.exp(-0.5), -math.sqrt(200) * math.exp(-0.5)),
    (np.exp, np.exp, 0, 50, math.exp(50), 1.0),
    (lambda x: x**30, lambda x: 30 * x**29, 0, 1, 30.0, 0.0),
    (lambda x: np.tanh(20 * x), lambda x: 20 / np.cosh(20 * x)**2, -5, 5, 20.0, -1.0),
])
def test_smooth_curves_are_shown_whole(f, df, a, b, top, bottom):
    low, high = view(f, df, a, b)
    # the samples may miss the true extremes by a little; the view must not miss them by much
    assert high >= 0.97 * top and low <= bottom + 0.03 * abs(top)


@pytest.mark.parametrize("f, df, a, b, n", [
    (np.tan, lambda x: 1 / np.cos(x)**2, -5, 5, N),        # odd poles, and sec^2's even ones
    (lambda x: 1 / x**2, lambda x: -2 / x**3, -1, 1, 400),  # 0 between two samples
    (lambda x: 1 / x**2, lambda x: -2 / x**3, -1, 1, 401),  # 0 a sample: inf there
    (lambda x: 1 / (x - 0.3001)**2, lambda x: -2 / (x - 0.3001)**3, -1, 1, N),
    (np.tan, lambda x: 1 / np.cos(x)**2, 0, math.pi / 2, N),   # the pole at the grid's end
    (np.log, lambda x: 1 / x, 1e-300, 1, N),                    # log's edge at its start
    (lambda x: 1 / x, lambda x: -1 / x**2, 1e-9, 1, N),
])
def test_a_pole_is_cut(f, df, a, b, n):
    # beside the pole the samples reach 1e4 to 1e8; the bulk of the curves is below ~100
    x = np.linspace(a, b, n)
    with np.errstate(all="ignore"):
        values = np.concatenate([f(x), df(x)])
    largest = np.max(np.abs(values[np.isfinite(values)]))
    low, high = view(f, df, a, b, n)
    assert high - low < largest / 10


@pytest.mark.parametrize("f, df", [(lambda x: x**2, lambda x: 2 * x), (np.tan, lambda x: 1 / np.cos(x)**2)])
def test_right_to_left_is_the_same_as_left_to_right(f, df):
    x = np.linspace(-1.4, 1.4, 41)
    forward, backward = x, x[::-1]
    assert connected(f(backward), df(backward), backward).tolist() == \
        [False] + connected(f(forward), df(forward), forward)[1:][::-1].tolist()
    assert len(pieces(backward, f(backward), (-100.0, 100.0), df(backward))) == 1


def test_a_reversed_grid_draws_f_in_the_image(tmp_path):
    # f's colour (the palette's first) is one path per unbroken piece: x^2 has one
    paths = {}
    for grid in ("-1:1", "1:-1"):
        path = tmp_path / f"plot{len(paths)}.svg"
        code, out, err = run_cli("plot", "x^2", "--grid", f"x={grid}", "-o", str(path))
        assert code == 0, err
        paths[grid] = len(re.findall(r"<path[^>]*stroke: ?#1f77b4", path.read_text()))
    assert paths["1:-1"] == paths["-1:1"] >= 1


def test_a_figure_with_a_narrow_peak_keeps_it_in_view():
    x = np.linspace(-5, 5, N)
    f = np.exp(-100 * x**2)
    figure = Figure("t", "x", "value", x, [Curve("f", f, 0, slope=-200 * x * f)])
    assert figure.view[1] >= 1.0


@pytest.mark.parametrize("f, df, a, b", [
    (lambda x: 1 / x, lambda x: -1 / x**2, -1, 1),
    (np.tan, lambda x: 1 / np.cos(x)**2, -3, 3),
])
def test_an_odd_poles_branches_get_the_same_room(f, df, a, b):
    # 1/x's view was -270..30 (f cut at 3 of its spreads above, f' = -1/x^2 below); both
    # branches as far as 0.1 from the pole, where 1/x and tan are about +-10, are in view
    low, high = view(f, df, a, b)
    assert high == pytest.approx(-low) and high > 10
