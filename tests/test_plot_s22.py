"""Session 22: f's own curve breaks where f jumps (sign at 0, atan2 across its branch cut),
as at a pole, and is drawn through a kink where f is continuous (abs, cbrt); the shared
view of y is not decided by the widest cut beside a pole (1/x with --order 2: f'' = 2/x^3
reaches 1.6e7 beside 0, and its own cut, +-5264, left f a flat line)."""
from __future__ import annotations

import math
import re

import numpy as np
import pytest

from adcli.plotting import y_view
from conftest import adcli_rows_on_terminal, run_cli


from test_trace_plot_s20 import drawn  # noqa: E402  (the figure and its stretches)


def crossing(stretches, at: float) -> list:
    """The stretches drawn across x = ``at`` (a sample on it does not count)."""
    return [xs for xs, _ in stretches if xs.min() < at < xs.max()]


# ----- 4. a jump of f breaks f's curve ------------------------------------------------------

# (expression, grid, where f jumps, f's one-sided limits there, by hand)
JUMPS = [
    ("sign(x)", "x=-1:1", 0.0, -1.0, 1.0),             # 0 a sample: sign(0) = 0 between
    ("sign(x)", "x=-1:1:400", 0.0, -1.0, 1.0),         # 0 between two samples
    ("sign(x - 0.3) + x/2", "x=-1:1:400", 0.3, -0.85, 1.15),
    ("atan2(x, -1)", "x=-1:1:400", 0.0, -math.pi, math.pi),   # the branch cut
]


@pytest.mark.parametrize("expression, grid, jump, below, above", JUMPS)
def test_a_jump_of_f_breaks_f(monkeypatch, tmp_path, expression, grid, jump, below, above):
    figure, stretches = drawn(monkeypatch, tmp_path, expression, "--grid", grid)
    assert crossing(stretches["f"], jump) == []
    left = [(xs, ys) for xs, ys in stretches["f"] if xs.max() < jump]
    right = [(xs, ys) for xs, ys in stretches["f"] if xs.min() > jump]
    # each side is drawn, up to the last sample before the jump, near its one-sided limit
    spacing = abs(figure.x[1] - figure.x[0])
    (lx, ly), (rx, ry) = left[-1], right[0]
    assert jump - lx[-1] <= spacing and rx[0] - jump <= spacing
    assert ly[-1] == pytest.approx(below, abs=2 * spacing)
    assert ry[0] == pytest.approx(above, abs=2 * spacing)


def test_the_derivative_of_sign_is_drawn_as_before(monkeypatch, tmp_path):
    # sign' = 0 on either side; the sample on 0 is a convention (a gap), nothing else breaks
    _, stretches = drawn(monkeypatch, tmp_path, "sign(x)", "--grid", "x=-1:1")
    assert len(stretches["df/dx"]) == 2
    assert all(np.all(ys == 0) for _, ys in stretches["df/dx"])


@pytest.mark.parametrize("expression, grid", [
    ("abs(x)", "x=-1:1"), ("abs(x)", "x=-1:1:400"),
    ("cbrt(x)", "x=-1:1"), ("cbrt(x)", "x=-1:1:400"),     # a vertical tangent, no jump
    ("sqrt(abs(x))", "x=-1:1:400"), ("x*sign(x)", "x=-1:1:400"),
    ("max(x, 0)", "x=-1:1"), ("atan2(x, 1)", "x=-1:1:400"),
])
def test_f_continuous_at_its_kink_is_one_line(monkeypatch, tmp_path, expression, grid):
    _, stretches = drawn(monkeypatch, tmp_path, expression, "--grid", grid)
    assert len(stretches["f"]) == 1


def inside(row: str) -> str:
    """A plot row's text between the frame's left edge (│ or a tick's ┤) and its right."""
    at = min(i for i in (row.find("│"), row.find("┤")) if i >= 0)
    return row[at + 1:].rstrip().removesuffix("│")


@pytest.mark.parametrize("grid", ["x=-1:1", "x=-1:1:400"])
def test_sign_on_a_terminal_has_no_vertical_line(grid):
    rows = adcli_rows_on_terminal(79, "plot", "sign(x)", "--grid", grid, rows=30)
    top = next(i for i, r in enumerate(rows) if re.match(r"\s*1┤", r))
    zero = next(i for i, r in enumerate(rows) if re.match(r"\s*0┤", r))
    bottom = next(i for i, r in enumerate(rows) if re.match(r"\s*-1┤", r))
    # between f's levels 1 and -1 only df/dx's line at 0 is drawn (a braille cell is 4
    # dots high: a line may show in the row next to its own)
    for row in rows[top + 2:zero - 1] + rows[zero + 2:bottom - 1]:
        assert inside(row).strip() == "", row


# ----- 5. the shared view of y --------------------------------------------------------------

def inverse(order: int, n: int = 401):
    x = np.linspace(-1, 1, n)
    with np.errstate(all="ignore"):
        ys = [1 / x, -1 / x**2, 2 / x**3][:order + 1]
    return x, ys


def test_one_over_x_with_its_second_derivative_keeps_f_readable():
    x, ys = inverse(2)
    low, high = y_view(ys, [*ys[1:], None], x)
    # the view is f's own cut, +-28.7 (its median 0 +- 3 of its spreads, the 90% quantile of
    # |1/x|, 9.57 at |x| = 0.1045), with a 20th of it each side: +-31.6
    spread = np.quantile(np.abs(ys[0][np.isfinite(ys[0])]), 0.9)
    assert high == pytest.approx(3 * spread * 1.1) and low == pytest.approx(-high)
    # f fills most of it: |1/x| <= high for |x| >= 1/high, 96% of the samples
    assert np.mean(np.abs(ys[0][np.isfinite(ys[0])]) <= high) > 0.9


def test_the_cut_derivatives_keep_their_middle_halves_in_view():
    x, ys = inverse(2)
    low, high = y_view(ys, [*ys[1:], None], x)
    for y in ys:
        q1, q3 = np.quantile(y[np.isfinite(y)], [0.25, 0.75])
        assert low <= q1 and q3 <= high


def test_a_curve_far_above_the_others_is_still_in_view():
    # f = 1/x (cut at +-28.7) beside f'' = 2/x^3 + 200: f'''s bulk, ~200, is not cut away
    x = np.linspace(-1, 1, 401)
    with np.errstate(all="ignore"):
        f, d2 = 1 / x, 2 / x**3 + 200
    low, high = y_view([f, d2], [None, None], x)
    assert high >= np.quantile(d2[np.isfinite(d2)], 0.75) >= 200


def test_tan_and_its_derivatives_share_tans_view():
    x = np.linspace(-3, 3, 401)
    with np.errstate(all="ignore"):
        ys = [np.tan(x), 1 / np.cos(x)**2, 2 * np.tan(x) / np.cos(x)**2]
    low, high = y_view(ys, [*ys[1:], None], x)
    alone = y_view(ys[:1], [ys[1]], x)
    assert (low, high) == alone


def test_the_terminal_plot_of_one_over_x_order_2_has_f_in_view():
    rows = adcli_rows_on_terminal(80, "plot", "1/x", "--grid", "x=-1:1", "--order", "2",
                                  rows=30)
    ticks = [float(m.group(1)) for r in rows for m in [re.match(r"\s*(-?[\d.e+]+)┤", r)] if m]
    # the y ticks span about +-30, not +-5000
    assert 20 <= max(ticks) <= 35 and -35 <= min(ticks) <= -20


def test_the_image_of_one_over_x_order_2(tmp_path):
    path = tmp_path / "f.svg"
    code, _, err = run_cli("plot", "1/x", "--grid", "x=-1:1", "--order", "2", "-o", str(path))
    assert code == 0, err
    # matplotlib names each text it draws in a comment: the y ticks run -30 to 30
    texts = re.findall(r"<!-- (.*?) -->", path.read_text())
    ticks = [float(t.replace("\u2212", "-")) for t in texts[texts.index("x") + 1:
                                                             texts.index("value")]]
    assert min(ticks) == -30 and max(ticks) == 30
