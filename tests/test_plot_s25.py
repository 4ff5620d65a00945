"""plot's view of y beside an even pole (1/x^2, tan(x)^2): f's own cut at 3 spreads of
its bulk sets it, not its derivative's far wider cut at the one end where f has no pole;
and a steep pole's (1/x^3) tenth of samples nearest it no longer counts as its bulk."""
from __future__ import annotations

import re

import numpy as np
import pytest

from conftest import adcli_rows_on_terminal
from adcli.plotting import y_view

CASES = {   # f, f' and the grid
    "1/x^2": (lambda x: 1 / x**2, lambda x: -2 / x**3, -1, 1),
    "1/(x-0.3)^2": (lambda x: 1 / (x - 0.3)**2, lambda x: -2 / (x - 0.3)**3, -1, 1),
    "tan(x)^2": (lambda x: np.tan(x)**2, lambda x: 2 * np.tan(x) / np.cos(x)**2, -3, 3),
}


def own_cut(y: np.ndarray) -> float:
    """README: a curve is cut beside a pole at 3 spreads of its bulk from its median (the
    spread: the 90% quantile of the distance from the median, at most 3 times the width
    of the middle half of the values)."""
    y = y[np.isfinite(y)]
    middle = np.median(y)
    q1, q3 = np.quantile(y, [0.25, 0.75])
    return middle + 3 * min(np.quantile(np.abs(y - middle), 0.9), 3 * (q3 - q1))


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("n", [201, 400, 401])
def test_an_even_pole_is_shown_on_fs_own_cut(name, n):
    f, d1, a, b = CASES[name]
    x = np.linspace(a, b, n)
    with np.errstate(all="ignore"):
        ys = [f(x), d1(x)]
    low, high = y_view(ys, [*ys[1:], None], x)
    cut = own_cut(ys[0])
    # f's cut is the top (a 20th of the view added each side), and the bottom is no
    # farther: f' = -2/x^3's own cut, 20 times f's, would leave f a flat line at 0
    assert cut <= high <= 1.1 * cut * (1 + 1e-9) + 1e-9
    assert -high <= low < 0


@pytest.mark.parametrize("name", CASES)
def test_f_fills_the_view_as_one_over_x_does(name):
    """1/x on -1:1 spans all of its view (+-28 of +-30); an even pole's f, in the view it
    shares with its derivative, spans at least a third of it (one side of 0) and keeps
    85% of its samples in it (every one but those beside the pole)."""
    f, d1, a, b = CASES[name]
    x = np.linspace(a, b, 201)
    with np.errstate(all="ignore"):
        y, dy = f(x), d1(x)
    low, high = y_view([y, dy], [dy, None], x)
    shown = y[np.isfinite(y) & (y >= low) & (y <= high)]
    assert shown.size > 0.85 * np.isfinite(y).sum()
    assert shown.max() - shown.min() >= (high - low) / 3


def test_the_terminal_plot_of_one_over_x_squared_keeps_f_readable():
    rows = adcli_rows_on_terminal(80, "plot", "1/x^2", "--grid", "x=-1:1", rows=45)
    ticks = [float(m.group(1)) for r in rows for m in [re.match(r"\s*(-?[\d.e+]+)┤", r)] if m]
    # f's own cut, about 250: 3 spreads of 1/x^2's samples on -1:1 (401, the default)
    x = np.linspace(-1, 1, 401)
    cut = own_cut(1 / x[x != 0] ** 2)
    assert ticks and cut / 2 <= max(ticks) <= 1.1 * cut and min(ticks) >= -1.1 * cut


@pytest.mark.parametrize("n", [201, 400, 401])
def test_a_steep_pole_is_cut_at_the_spread_of_its_bulk(n):
    """1/x^3 on -1:1: the 90% quantile of |f| is 1/0.1^3 = 1000, inside the spike; its
    middle half, 1/0.5^3 = 8 either side of 0, 16 wide, caps the spread at 48: f is cut
    at about 3*48 = 144, not at 3000."""
    x = np.linspace(-1, 1, n)
    with np.errstate(all="ignore"):
        y, dy = 1 / x**3, -3 / x**4
    low, high = y_view([y], [dy], x)
    cut = own_cut(y)
    assert 100 < cut < 200
    assert cut <= high <= 1.1 * cut * (1 + 1e-9) and low == pytest.approx(-high)
    # beside f' = -3/x^4 the view still holds f''s middle half (down to -3/0.5^4 = -48 ...
    # -3/0.25^4 = -768), as the README says, and no more
    q1 = np.quantile(dy[np.isfinite(dy)], 0.25)
    low, high = y_view([y, dy], [dy, None], x)
    assert low <= q1 and max(-low, high) <= 1.1 * max(-q1, cut) * (1 + 1e-9)
