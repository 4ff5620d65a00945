"""Drawing curves: in the terminal (plotext) or to an image file (matplotlib, the optional
``plot`` extra). It knows curves of numbers only, not expressions or derivatives.

Both renderers draw the same ``Figure`` the same way: the same view of y (a few huge
values near a pole must not squash every curve to a flat line), the same breaks (no line
is drawn across a nan or through a pole), the same marks.
"""
from __future__ import annotations

import contextlib
import io
import math
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from .errors import AdcliError, colour_allowed

IMAGE_SUFFIXES = (".png", ".svg", ".pdf")
IMAGE_SIZE = (800, 500)          # pixels of a PNG: 8 x 5 inches at 100 dpi
PLOT_EXTRA = "pip install 'adcli[plot]'"


class PlotError(AdcliError):
    """An image that cannot be made: no matplotlib, a file that cannot be written."""


@dataclass
class Curve:
    label: str
    y: np.ndarray
    colour: int = 0              # its place in the palette, the same in both renderers
    slope: np.ndarray | None = None   # its derivative, if known: tells a pole from a drop
    mine: bool = False           # the user's own curve: dashed (dotted), drawn over the rest
    # Per segment (i-1 to i, entry 0 unused): where to break it though connected() would
    # draw it, such as a derivative across a kink of f that lies between two samples.
    breaks: np.ndarray | None = None


FLAT = 0.03     # a curve changing by less than this share of the y axis looks flat
ROUNDED = 1e-9  # and one changing by less than this of its size is constant but for rounding


@dataclass
class Figure:
    title: str
    xlabel: str
    ylabel: str
    x: np.ndarray
    curves: list[Curve]
    marks: tuple[np.ndarray, np.ndarray] = (np.empty(0), np.empty(0))
    mark_label: str = ""
    at: list[tuple[str, str]] = field(default_factory=list)   # (name, value) after the title
    view: tuple[float, float] = field(init=False)

    def __post_init__(self):
        self.view = y_view([c.y for c in self.curves], [c.slope for c in self.curves],
                           self.x)

    def drawn(self) -> list[Curve]:
        """The curves with something to draw: the legend lists no other (log on -2:-1)."""
        return [c for c in self.curves if np.isfinite(c.y).any()]

    def flattened(self) -> list[tuple[Curve, float]]:
        """The drawn curves that change, but by less than FLAT of the y axis they share,
        each with its change: their shape does not show (x^2 + 100's f beside its 2x, or
        exp(x)/1000 + 1e5's df/dx beside f)."""
        span = self.view[1] - self.view[0]
        found = []
        for curve in self.drawn():
            y = curve.y[np.isfinite(curve.y)]
            change = float(y.max() - y.min())
            # (a change within float64's rounding of the curve's size is no change: sin^2 +
            # cos^2 moves by 3e-16, cosh^2 - sinh^2 on -3:3 by 4e-14, from terms near 100)
            if ROUNDED * float(np.max(np.abs(y))) < change < FLAT * span:
                found.append((curve, change))
        return found

    def visible_marks(self) -> tuple[np.ndarray, np.ndarray]:
        x, y = self.marks
        inside = (y >= self.view[0]) & (y <= self.view[1])
        return x[inside], y[inside]


# ----- what is shown ---------------------------------------------------------------------

def y_view(ys, slopes=None, x=None) -> tuple[float, float]:
    """The range of y to show: the union of each curve's range, where a curve's range is
    all of it unless an end lies far out (more than OUTLIER times the spread of the bulk of
    its values from their median) beside a pole, such as tan's 1e16 next to pi/2, which
    would flatten everything else. exp's or x^20's honest growth, and a narrow peak
    (exp(-100x^2) on -5:5), are shown whole. ``slopes``: each curve's derivative, or None.
    Where several curves are cut at one end, the cut nearest to the curves' middle halves
    decides it (see _shared_end)."""
    slopes = slopes or [None] * len(ys)
    ranges = _nearest_cuts([r for r in (_curve_range(y, slope, x)
                                        for y, slope in zip(ys, slopes)) if r is not None])
    if not ranges:
        return -1.0, 1.0
    low = -_shared_end([(-r.low, r.cut_low, -r.core[0]) for r in ranges])  # (upside down)
    high = _shared_end([(r.high, r.cut_high, r.core[1]) for r in ranges])
    if any(r.cut_low and r.cut_high for r in ranges) and low < 0 < high:
        # A curve cut beside a pole at both ends (1/x, tan) gets as much room on either
        # side of 0 as the view has on one: its branches alike, not one cut at 3 of its
        # spreads beside a derivative's longer cut on the other side (1/x: -270 to 30)
        low, high = -max(-low, high), max(-low, high)
    if high - low <= 1e-12 * max(abs(low), abs(high), 1e-300):
        pad = abs(high) / 2 or 1.0      # a constant: centre it
        return low - pad, high + pad
    pad = (high - low) / 20
    return low - pad, high + pad


def _nearest_cuts(ranges: list[CurveRange]) -> list[CurveRange]:
    """The ranges with every cut end no farther from its curve's median than the nearest
    cut of any curve from its own: 1/x^2, cut above at 3 of its spreads (128 on -1:1),
    has no pole below it, but its derivative -2/x^3 has, cut at its own wider 3 spreads
    (-282), which alone would set the bottom of the view and squash f into its top."""
    reach = min((r.reach for r in ranges if r.cut_low or r.cut_high), default=None)
    return [r._replace(low=max(r.low, r.middle - reach) if r.cut_low else r.low,
                       high=min(r.high, r.middle + reach) if r.cut_high else r.high)
            for r in ranges] if reach is not None else ranges


def _shared_end(ends: list[tuple[float, bool, float]]) -> float:
    """The top of the view, from each curve's (top, whether it was cut beside a pole, the
    top of its middle half): every uncut top and every middle half, and of the cut tops
    the lowest. Beside a pole each derivative outgrows the one before (1/x, -1/x^2,
    2/x^3): a cut is where a curve's own bulk ends, so f'' cut at +-5000 would leave 1/x,
    cut at +-29, a flat line; cut at f's, the derivatives leave the view nearer the pole,
    where they leave every view, and their middle halves stay in it."""
    kept = [core if cut else high for high, cut, core in ends]
    cuts = [high for high, cut, _ in ends if cut]
    return max(kept + [min(cuts)] if cuts else kept)


class CurveRange(NamedTuple):
    low: float
    high: float
    cut_low: bool                # an end cut beside a pole
    cut_high: bool
    core: tuple[float, float]    # the middle half of its values (quartiles)
    middle: float = 0.0          # its median
    reach: float = 0.0           # how far from the median a cut end is: KEPT spreads


LARGEST = 1e300
OUTLIER, KEPT = 10, 3      # an end beyond 10 spreads from the median is cut at 3 spreads
TAIL = 3                   # a spread is at most 3 times the width of the middle half


def _curve_range(y, slope=None, x=None) -> CurveRange | None:
    """(low, high) of a curve's view, whether each end was cut beside a pole, and the
    middle half of its values."""
    y = np.asarray(y, dtype=float)
    finite = np.isfinite(y)
    # Beyond 1e300 the renderers' own arithmetic overflows: such values are off the view.
    values = y[finite].clip(-LARGEST, LARGEST)
    if values.size == 0:
        return None
    middle = float(np.median(values))
    spread = float(np.quantile(np.abs(values - middle), 0.9))
    low, high = float(values.min()), float(values.max())
    cut_low = cut_high = False
    core = np.quantile(values, [0.25, 0.75])
    # The cut's spread: where the 90% quantile lies TAIL times the middle half's width out,
    # the tenth of the samples nearest a pole reaches into its spike (1/x^3 on -1:1: 776,
    # its middle half 15 wide), and the middle half's width says better where the bulk ends
    # (unless it is 0: a middle half all one value says nothing of the rest's spread)
    bulk = min(spread, TAIL * float(core[1] - core[0])) or spread
    if spread > 0 and max(high - middle, middle - low) > OUTLIER * spread:
        poles = _beside_poles(y, slope, x, middle)
        shown = np.where(finite, y, middle)
        cut_high = high - middle > OUTLIER * spread and bool(poles[np.argmax(shown)])
        cut_low = middle - low > OUTLIER * spread and bool(poles[np.argmin(shown)])
        high = middle + KEPT * bulk if cut_high else high
        low = middle - KEPT * bulk if cut_low else low
    return CurveRange(low, high, cut_low, cut_high, (float(core[0]), float(core[1])),
                      middle, KEPT * bulk)


def _beside_poles(y: np.ndarray, slope, x, middle: float) -> np.ndarray:
    """Per sample, whether it sits beside a pole: next to a non-finite sample (the pole
    itself sampled), or to a segment connected() breaks (tan's sign change between
    samples), or standing out, alone or with its neighbour, from the samples on either
    side (at an end of the grid, its one side) by more than twice their height above the
    median (1/x^2's two sides, the pole between them). A peak the samples resolve falls by
    less from one sample to the next."""
    finite = np.isfinite(y)
    broken = ~connected(y, slope, x)[1:] & finite[1:] & finite[:-1]   # segment i to i+1
    beside = np.zeros(len(y), bool)
    beside[:-1] |= ~finite[1:] | broken
    beside[1:] |= ~finite[:-1] | broken
    height = np.abs(np.where(finite, y, middle) - middle)
    # (an end of the grid stands out from its one neighbour where it grows faster than the
    # samples before it did: tan on 0:pi/2 ends at 1.6e16, 1e14 times its neighbour after
    # steps of 2; exp's and 10^x's ends grow by the ratio of every step, and are no pole)
    above_left, above_right = np.ones(len(y), bool), np.ones(len(y), bool)
    if len(y) > 2:
        with np.errstate(all="ignore"):
            grows = height[1:] / height[:-1]
        above_left[0] = 1 / grows[0] > 2 / grows[1]
        above_right[-1] = grows[-1] > 2 * grows[-2]
    above_left[1:] = height[:-1] < height[1:] / 2      # sample i stands out from i-1
    above_right[:-1] = height[1:] < height[:-1] / 2    # ... and from i+1
    pair = above_left[:-1] & above_right[1:]           # samples i and i+1 together
    beside |= above_left & above_right & (len(y) > 2)
    beside[:-1] |= pair
    beside[1:] |= pair
    return beside


def connected(y: np.ndarray, slope: np.ndarray | None = None,
              x: np.ndarray | None = None) -> np.ndarray:
    """Whether to draw the segment from point i-1 to point i (entry 0 is False): not next
    to a non-finite value, and not through a pole (tan at pi/2, 1/x at 0), where a line
    would be a vertical spike. With the curve's slope known, a pole is a step against the
    slope at both of its ends (a step the way x goes: --grid x=1:-1 runs right to left).
    Without it, a step against both of its neighbours and bigger than either: tan goes up,
    drops from +big to -big, goes up again."""
    finite = np.isfinite(y)
    with np.errstate(all="ignore"):
        step = np.diff(y)
        if slope is not None:
            rise = step if x is None else step * np.sign(np.diff(x))
            pole = (rise * slope[:-1] < 0) & (rise * slope[1:] < 0)
        else:
            before, after = np.roll(step, 1), np.roll(step, -1)
            pole = (step * before < 0) & (step * after < 0) & \
                (np.abs(step) > np.abs(before)) & (np.abs(step) > np.abs(after))
            pole[[0, -1]] = False        # one neighbour is too little to tell
    return np.concatenate([[False], finite[1:] & finite[:-1] & ~pole])


def pieces(x: np.ndarray, y: np.ndarray, view, slope=None,
           breaks=None) -> list[tuple[np.ndarray, ...]]:
    """The unbroken stretches of a curve inside the view, each as (x, y), broken also
    where ``breaks`` says (Curve.breaks). A segment that leaves the view ends where it
    crosses the edge, so no renderer is ever handed a point far outside it (a line towards
    tan's 1e16 would be rasterised cell by cell)."""
    link = connected(y, slope, x)
    if breaks is not None:
        link = link & ~breaks
    low, high = view
    out: list[tuple[list, list]] = []
    xs: list[float] = []
    ys: list[float] = []

    def end() -> None:
        nonlocal xs, ys
        if xs:
            out.append((xs, ys))
        xs, ys = [], []

    for i, (xi, yi) in enumerate(zip(x.tolist(), y.tolist())):
        inside = low <= yi <= high
        if not link[i]:
            end()
            if inside:
                xs, ys = [xi], [yi]
            continue
        xp, yp = x[i - 1], y[i - 1]
        was_inside = low <= yp <= high
        if was_inside and inside:
            xs.append(xi)
            ys.append(yi)
        elif was_inside:                   # leaving: stop at the edge
            xs.append(_cross(xp, yp, xi, yi, high if yi > high else low))
            ys.append(high if yi > high else low)
            end()
        elif inside:                       # coming back: start at the edge
            edge = high if yp > high else low
            xs, ys = [_cross(xp, yp, xi, yi, edge), xi], [edge, yi]
    end()
    return [(np.array(a), np.array(b)) for a, b in out]


def _cross(x0: float, y0: float, x1: float, y1: float, edge: float) -> float:
    """Where the segment crosses the horizontal line y = edge: the fraction of the way
    first, so that no product overflows."""
    t = min(max((edge - y0) / (y1 - y0), 0.0), 1.0)
    return float(x0 + t * (x1 - x0)) if math.isfinite(t) else float(x0)


def title_lines(figure: Figure, width: float, measure) -> list[str]:
    """The title and the values it is drawn at (``title   at y = 1.5, z = 2.0``): one line
    if it fits ``width`` (as ``measure`` counts), else the title folded as the legend folds
    your expression (``_folded``), its "+" and "-" terms each starting a line, then the
    values folded between pairs. Nothing is cut: a value is the point drawn."""
    from .tables import fold_pairs

    pairs = ", ".join(f"{name} = {value}" for name, value in figure.at)
    whole = figure.title + (f"   at {pairs}" if pairs else "")
    if measure(whole) <= width:
        return [whole]
    return _folded(figure.title, width, measure, signs_lead=True) + \
        (fold_pairs("at", figure.at, width, measure, " = ") if figure.at else [])


def nice_ticks(low: float, high: float, count: int) -> list[float]:
    """About ``count`` round numbers (1, 2 or 5 times a power of ten apart) in [low, high]."""
    if not high > low:
        return [low]
    raw = (high - low) / max(count, 1)
    if not math.isfinite(raw):      # a span past 1.8e308: divide first
        raw = high / max(count, 1) - low / max(count, 1)
    if not raw > 0:                 # the span is below the ends' own resolution
        return [low]
    power = 10.0 ** math.floor(math.log10(raw))
    # The nearest round step, rather than the next larger one: 2.1 apart gives 2, not 5.
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw * 0.7)
    first = math.ceil(low / step - 1e-9)
    ticks = [(first + i) * step for i in range(int(high / step - low / step + 1e-9) + 2)]
    return [0.0 if abs(t) < step * 1e-9 else t for t in ticks if t <= high + step * 1e-9]


def tick_labels(ticks: list[float]) -> list[str]:
    """The shortest labels that tell the ticks apart (1e300 and 1.0000001e300 differ)."""
    for digits in range(3, 18):
        labels = [f"{t:.{digits}g}" for t in ticks]
        if len(set(labels)) == len(labels):
            break
    return ["0" if label == "-0" else label for label in labels]


# ----- the terminal ----------------------------------------------------------------------

# 256-colour codes close to matplotlib's first colours, readable on dark and light screens.
TERMINAL_COLOURS = [33, 208, 34, 196]
MARK_COLOUR = 201
MARK_SYMBOL, MINE_SYMBOL, LINE_SYMBOL = "●", "•", "──"
# Without colour a marker tells the curves apart: f's braille line, then characters any
# terminal has, unlike your curve's "•" and the marks' "●". (plotext marker, legend sample)
PLAIN_MARKERS = [("braille", LINE_SYMBOL), ("+", "++"), ("x", "xx")]


def terminal(figure: Figure, width: int, height: int, colour: bool = True,
             piped: bool = False) -> str:
    """The figure as ``height`` lines of text at most ``width`` wide: the title, the plot
    (frame, ticks, axis labels), then the legend under it, so that it never covers a curve.
    A title of one line is plotext's, centred; a longer one is written above the plot,
    since plotext drops a title wider than the plot (and draws only one line). Where that
    leaves too little room for a plot worth reading, nothing is drawn (``check_room``;
    ``piped``: there is no terminal, COLUMNS and LINES set the size)."""
    from .tables import cell_len

    check_room(figure, width, height, colour, piped)
    width, height = min(width, MAX_COLUMNS), min(height, MAX_ROWS)
    legend = _terminal_legend(figure, width, colour)
    title = title_lines(figure, width, cell_len)
    above = title if len(title) > 1 else []
    # plotext prints its own notes (such as ticks too close to tell apart) to stdout and
    # stderr, in colour: the plot is the message here.
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        plot = _terminal_plot(figure, None if above else title[0], width,
                              height - (legend.count("\n") + 1 if legend else 0)
                              - len(above), colour)
    return "\n".join([*above, plot, *([legend] if legend else [])])


# The least a plot is drawn in: below that, plotext leaves one y tick and rows of a few
# dots, or labels wider than the frame (the plot's own rows: its one-line title, frame,
# ticks and axis labels with 5 rows inside, as plotext lays them out).
MIN_COLUMNS, MIN_PLOT_ROWS = 20, 11
# The most a figure is drawn in: plotext holds ~0.6 KB a character cell (COLUMNS=100000
# took 1.4 GB; 2000 by 2000, 2.4 GB; 5000 by 5000 aborted in C++), so a wider or taller
# terminal, or COLUMNS and LINES, gets a figure of this size.
MAX_COLUMNS, MAX_ROWS = 500, 200
PROMPT_ROWS = 2     # the command line above the figure and the prompt after it


def _around(figure: Figure, width: int, colour: bool) -> int:
    """The rows of the legend, and of a title written above the plot beyond the one row
    plotext gives a title that fits (MIN_PLOT_ROWS has it), at ``width``."""
    from .tables import cell_len

    legend = _terminal_legend(figure, width, colour)
    title = title_lines(figure, width, cell_len)
    return (legend.count("\n") + 1 if legend else 0) + max(len(title) - 1, 0)


def check_room(figure: Figure, width: int, height: int, colour: bool,
               piped: bool = False) -> None:
    """An error saying what size the figure needs, where the terminal (``width`` columns,
    ``height`` rows less the prompt's) has too little room for a plot worth reading;
    ``piped``: where COLUMNS and LINES, which set the size, have too little."""
    columns = max(width, MIN_COLUMNS)
    rows = MIN_PLOT_ROWS + _around(figure, columns, colour)
    narrow, low = width < MIN_COLUMNS, height < rows
    if not (narrow or low):
        return
    if piped:   # no terminal to enlarge: COLUMNS and LINES set the size (LINES counts
        # the prompt's rows), so what to set them to, in their own terms
        needed = [f"COLUMNS={columns}"] * narrow + [f"LINES={rows + PROMPT_ROWS}"] * low
        raise AdcliError(f"--format plot with no terminal draws {width} columns by "
                         f"{max(height, 0)} "
                         "rows (COLUMNS by LINES less two, 80 by 22 where they are not set), "
                         f"too small for the plot: set {' and '.join(needed)} or more, or "
                         "draw to a file with -o FILE.png")
    short = [f"{columns} columns"] * narrow + [f"{rows + PROMPT_ROWS} rows"] * low
    raise AdcliError(f"the terminal, {width} columns by {height + PROMPT_ROWS} rows, is "
                     f"too small for the plot, which needs {' and '.join(short)} at least: "
                     "enlarge it, or draw to a file with -o FILE.png")


def _terminal_plot(figure: Figure, title: str | None, width: int, height: int,
                   colour: bool) -> str:
    import plotext

    canvas = plotext.figure
    canvas.clear()
    canvas.theme("simple")          # no painted background: fine on dark and light screens
    canvas.plot_size(width, height)
    if title is not None:
        canvas.title(title)
    canvas.label(figure.xlabel, "x")
    canvas.label(figure.ylabel, "y")       # plotext puts it under the y axis, bottom left
    low, high = figure.view
    left, right = float(np.min(figure.x)), float(np.max(figure.x))
    canvas.ruler("x").lim(left, right).ticks(*_fitted_ticks(left, right, width // 10, width))
    canvas.ruler("y").lim(low, high).ticks(*_fitted_ticks(low, high, height // 4, None))
    for curve in figure.curves:
        _terminal_curve(canvas, plotext, figure, curve, width, colour)
    mark_x, mark_y = figure.visible_marks()
    if len(mark_x):
        canvas.draw(canvas.signal(list(map(float, mark_x)), list(map(float, mark_y)),
                                  marker=plotext.marker(MARK_SYMBOL, MARK_COLOUR)))
    plot = canvas.build().string(colorless=not colour).rstrip("\n")
    canvas.clear()
    return plot


def _fitted_ticks(low: float, high: float, count: int, room: int | None):
    """Ticks and their labels, fewer of them if the labels would not fit side by side."""
    count = max(2, count)
    while True:
        ticks = nice_ticks(low, high, count)
        labels = tick_labels(ticks)
        if room is None or count == 2 or sum(len(t) + 2 for t in labels) <= room:
            return ticks, labels
        count -= 1


def _terminal_curve(canvas, plotext, figure: Figure, curve: Curve, width: int,
                    colour: bool) -> None:
    code = TERMINAL_COLOURS[curve.colour]
    if curve.mine:
        # A dot in every third column, no line: where the dots sit on df/dx the two agree,
        # and df/dx still shows between them.
        every = max(1, round(3 * len(curve.y) / width))
        low, high = figure.view
        keep = (curve.y >= low) & (curve.y <= high) & (np.arange(len(curve.y)) % every == 0)
        if keep.any():
            canvas.draw(canvas.signal(list(map(float, figure.x[keep])),
                                      list(map(float, curve.y[keep])),
                                      marker=plotext.marker(MINE_SYMBOL, code)))
        return
    for xs, ys in pieces(figure.x, curve.y, figure.view, curve.slope, curve.breaks):
        marker = "braille" if colour else PLAIN_MARKERS[curve.colour][0]
        signal = canvas.signal(list(map(float, xs)), list(map(float, ys)),
                               marker=plotext.marker(marker, code))
        canvas.draw(signal.lines())


def _legend_symbol(curve: Curve, colour: bool) -> str:
    if curve.mine:
        return MINE_SYMBOL * 2
    return LINE_SYMBOL if colour else PLAIN_MARKERS[curve.colour][1]


def _terminal_legend(figure: Figure, width: int, colour: bool) -> str:
    """The legend's entries side by side, as many to a line as fit. An entry wider than a
    line (your derivative, whose expression is shown nowhere else) fills the lines of the
    terminal, folded under itself: its lines after the first start under the text after
    its label ("yours: "), as read as:'s do (see ``_folded`` for where they break)."""
    from .tables import cell_len

    entries = [(_legend_symbol(c, colour), TERMINAL_COLOURS[c.colour], c.label)
               for c in figure.drawn()]
    if len(figure.visible_marks()[0]):
        entries.append((MARK_SYMBOL, MARK_COLOUR, figure.mark_label))
    lines, line, shown = [], "", 0
    for symbol, code, label in entries:
        sample = f"\x1b[38;5;{code}m{symbol}\x1b[0m" if colour else symbol
        room = width - len(symbol) - 1
        first, *more = _folded(label, room, cell_len, " " * _hang(label, room))
        size = len(symbol) + 1 + cell_len(first)
        if shown and (more or shown + 3 + size > width):
            lines.append(line)
            line, shown = "", 0
        line += ("   " if shown else "") + f"{sample} {first}"
        shown += (3 if shown else 0) + size
        for part in more:
            lines.append(line)
            line, shown = " " * (len(symbol) + 1) + part, width    # the next entry below
    return "\n".join([*lines, line])


def _hang(label: str, room: int) -> int:
    """Columns in of a folded label's later lines: under the text after its "yours: ", as
    README promises, even at MIN_COLUMNS, which leaves 10 columns beside it; 2 only where
    less is left (a width check_room refuses)."""
    from .tables import cell_len

    colon = label.find(": ")
    hang = cell_len(label[:colon + 2]) if colon >= 0 else 2
    return hang if room - hang >= MIN_COLUMNS // 2 else 2


def _folded(text: str, width: float, measure, indent: str = "  ",
            signs_lead: bool = False) -> list[str]:
    """``text`` in lines of at most ``width``, the lines after the first ``indent``-ed, each
    filled: broken at a space or after an operator, not inside a call (``cos(3*x)`` stays
    whole) or a bracket of less than a third of a line (``(2*x)``), then, where a piece
    alone is wider than a line, inside those, between tokens, and last inside a name or
    number (``_breaks``). ``signs_lead``: a spaced operator (`` + ``) starts a line
    rather than ending one, as a title's terms do, kept with the term's "(" and first
    name (the line less indented where that is what they need to fit)."""
    if measure(text) <= width:
        return [text]
    levels = _breaks(text, lambda group: measure(group) <= width / 3, signs_lead)
    lines, start, lead = [], 0, ""
    while measure(lead + text[start:]) > width:
        cut = _line_end(text, start, levels, lambda line, to: measure(
            (lead if to == "this" else indent) + line) <= width)
        lines.append(lead + text[start:cut].rstrip())
        start = len(text) - len(text[cut:].lstrip(" "))
        if start == len(text):
            return lines
        lead = _lead([text[start:next((end for end in level if end > start), len(text))]
                      for level in levels[-2:]], indent, width, measure) if signs_lead \
            else indent
    return lines + [lead + text[start:]]


def _lead(firsts: list[str], indent: str, width: float, measure) -> str:
    # A title's term's sign, its "(" and first name (best with the operator after it,
    # firsts[0]) go on one line: where the indent leaves them no room, it is shortened, so
    # that the name is not cut in two (if that is not enough, the name is cut anyway).
    for first in firsts:
        if first[:1] in "+-" and measure(first.rstrip()) <= width:
            while measure(indent + first.rstrip()) > width:
                indent = indent[:-1]
            return indent
    return indent


def _line_end(text: str, start: int, levels: list[list[int]], fits) -> int:
    """Where the line starting at ``start`` ends: the last break of the best level that
    leaves it fitting, or a later one of the next level where what follows must be broken
    at that level anyway (wider than a line), so that no line is left half empty; inside
    a token only if one is wider than a line. ``fits(text, "this" | "next")``."""
    def last_fitting(level):
        fitting = None
        for end in level:                     # in order: the last that fits is the cut
            if end > start:
                if not fits(text[start:end].rstrip(), "this"):
                    break
                fitting = end
        return fitting

    cut, level = None, 0
    while cut is None and level < len(levels):
        cut, level = last_fitting(levels[level]), level + 1
    while cut is not None and level < len(levels):
        after = next((end for end in levels[level - 1] if end > cut), len(text))
        if fits(text[cut:after].strip(), "next"):
            break
        cut, level = last_fitting(levels[level]) or cut, level + 1
    if cut is None:
        cut = next((i for i in range(len(text), start + 1, -1)
                    if fits(text[start:i], "this")), start + 1)
    return cut


OPERATORS = "+-*/^·=<>,"


def _breaks(text: str, short, signs_lead: bool = False) -> list[list[int]]:
    """Where a line of ``text`` may end, best first, each list in order: after a space or
    an operator that follows an operand (not the minus of -2), inside no call and no
    bracket ``short`` says is short; the same anywhere; after any token (never inside a
    name or number). ``signs_lead`` (a title): before a spaced operator other than "=",
    not after it or the space after it (``f(x) =`` may still end a line), and first of all
    between terms: at a space inside no kept bracket, so that a line holds whole terms
    where they fit, "+ sin(x)" never split after its "*"."""
    from .tables import tokens

    pieces = tokens(text)
    starts = [0]
    for token in pieces:
        starts.append(starts[-1] + len(token))
    closing, opened = {}, []     # where each "(" closes (or the text ends)
    for k, token in enumerate(pieces):
        if token == "(":
            opened.append(k)
        elif token == ")" and opened:
            closing[opened.pop()] = starts[k + 1]
    spaced, outside, inside, anywhere = [], [], [], []
    kept, stack, before = 0, [], ""  # kept: open brackets a line must not end inside
    sign = False                     # the token before was a sign that leads its term
    glued = False                    # after such a sign, only spaces and "(" so far
    for k, token in enumerate(pieces):
        if token == "(":
            group = text[starts[k]:closing.get(k, len(text))]
            stack.append(before.isidentifier() or short(group))  # sin(: a call
            kept += stack[-1]
        elif token == ")" and stack:
            kept -= stack.pop()
        end = starts[k + 1]
        operator = token in OPERATORS and (before[-1:].isalnum() or before[-1:] in ").")
        after_sign, sign = sign, signs_lead and operator and token != "=" and \
            pieces[k - 1].isspace()
        glued = sign or glued and (token.isspace() or token == "(")
        if token.isspace() and not after_sign or operator and not sign:
            (inside if kept else outside).append(end)
            if token.isspace() and not kept:
                spaced.append(end)
        if not glued:   # "- (" never ends a line: the sign stays with its term's first token
            anywhere.append(end)
        before = token if not token.isspace() else before
    levels = [outside, sorted(outside + inside), anywhere]
    return [spaced, *levels] if signs_lead else levels




def terminal_size() -> tuple[int, int]:
    """The figure's size for this terminal: its width, and its height less two rows for
    the command line and the prompt, so that it shows whole (80 by 24 with no terminal,
    as for --format plot into a pipe, unless COLUMNS and LINES say otherwise). Never more
    than the terminal has: plotext fits the drawing to it whatever it is asked for (a
    larger figure loses rows, and its title and legend lines wrap); nor less, however big:
    plotext draws 200 by 60 as fast as 80 by 24 (0.03 s). (``terminal`` draws at most
    MAX_COLUMNS by MAX_ROWS of it.)"""
    import shutil

    columns, rows = shutil.get_terminal_size((80, 24))
    return columns, rows - PROMPT_ROWS


def wants_colour() -> bool:
    return colour_allowed()


# ----- image files -----------------------------------------------------------------------

def check_image_path(path: str) -> None:
    """Fail before any work if the image cannot be made: an unknown kind, no matplotlib."""
    if not path.lower().endswith(IMAGE_SUFFIXES):
        raise PlotError(f"-o {path!r}: the file name must end in "
                        f"{', '.join(IMAGE_SUFFIXES[:-1])} or {IMAGE_SUFFIXES[-1]}")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise PlotError(f"-o needs matplotlib, which is not installed: {PLOT_EXTRA}") \
            from None


def save(figure: Figure, path: str) -> None:
    """Write the figure as PNG, SVG or PDF (by the file name), IMAGE_SIZE at 100 dpi, taller
    by the lines of a title of more than two, so that the plot keeps its size."""
    from matplotlib.figure import Figure as Canvas

    width, height = IMAGE_SIZE
    title, line_height = _image_title(figure, width)
    height += max(0, len(title) - 2) * line_height
    labels, below, legend_line = _image_labels(figure, width)
    if below:               # the legend's lines under the axes (and the marks'), and room
        rows = sum(label.count("\n") + 1 for label in labels) + (len(figure.marks[0]) > 0)
        height += rows * legend_line + 20
    canvas = Canvas(figsize=(width / 100, height / 100), dpi=100, layout="constrained")
    axes = canvas.add_subplot()
    for curve, label in zip(figure.curves, labels):
        _image_curve(axes, figure, curve, f"C{curve.colour}", label)
    mark_x, mark_y = figure.visible_marks()
    if len(mark_x):
        for x in mark_x:
            axes.axvline(x, color="0.6", linewidth=0.8, linestyle=":", zorder=1)
        axes.plot(mark_x, mark_y, "o", color="black", markersize=5, zorder=5,
                  label=figure.mark_label)
    axes.axhline(0, color="0.3", linewidth=0.8, zorder=1)
    axes.set_xlim(float(np.min(figure.x)), float(np.max(figure.x)))
    axes.set_ylim(*figure.view)
    # Folded lines keep their indent: left-aligned in a block centred over the axes.
    axes.set_title("\n".join(title), multialignment="left", parse_math=False)
    axes.set_xlabel(figure.xlabel)
    axes.set_ylabel(figure.ylabel)
    axes.grid(True, alpha=0.3)
    entries = len(figure.drawn()) + (len(mark_x) > 0)
    if below:
        canvas.legend(loc="outside lower center", framealpha=0.9)
    elif entries:
        _inside_or_under(canvas, axes, entries, height, legend_line)
    # Drawn in memory, then written: a failed write inside matplotlib's PDF writer (a full
    # disk) surfaced as its own AttributeError, not the OSError.
    image = io.BytesIO()
    canvas.savefig(image, dpi=100, format=path.rsplit(".", 1)[-1].lower())
    try:
        with open(path, "wb") as file:
            file.write(image.getbuffer())
    except OSError as error:
        raise PlotError(f"cannot write {path!r}: {error.strerror or error}") from None


def _inside_or_under(canvas, axes, entries: int, height: float, line: float) -> None:
    """The legend where it covers least of the plot (matplotlib's "best"), or, where that
    still covers a curve or a mark (sin(50x)/50 fills every corner), under the axes: in
    one row, or one entry a row if they do not fit side by side, the image taller by its
    rows so that the plot keeps its size."""
    legend = axes.legend(loc="best", framealpha=0.9)
    canvas.draw_without_rendering()         # (the layout, and so where "best" is)
    if not _covers(legend.get_window_extent(), axes.get_lines()):
        return
    legend.remove()
    for columns in (entries, 1):
        canvas.set_size_inches(canvas.get_figwidth(),
                               (height + entries // columns * line + 20) / 100)
        legend = canvas.legend(loc="outside lower center", ncols=columns, framealpha=0.9)
        canvas.draw_without_rendering()
        if columns == 1 or legend.get_window_extent().width <= canvas.bbox.width:
            return
        legend.remove()


def _covers(box, lines) -> bool:
    """Whether the box (in pixels) holds a point of a curve or a mark, or a curve crosses
    it (the curves and marks are drawn over zorder 1: the axis at 0, the marks' guides)."""
    for line in lines:
        if line.get_zorder() <= 1:
            continue
        path = line.get_transform().transform_path(line.get_path())
        if box.count_contains(path.vertices) or \
                line.get_linestyle() not in ("None", "") and path.intersects_bbox(box, False):
            return True
    return False


def _image_title(figure: Figure, width: int) -> tuple[list[str], float]:
    """The title's lines for an image ``width`` pixels wide, and the height of a line in
    pixels. matplotlib neither wraps nor shrinks a title: one wider than the image loses
    its ends. It is centred over the axes, right of the y axis's labels, so lines fit in
    80% of the width."""
    from matplotlib import rcParams

    font, measure = _font(rcParams["axes.titlesize"], rcParams["axes.titleweight"])
    lines = title_lines(figure, 0.8 * width * 0.72, measure)
    return lines, 1.2 * font.get_size_in_points() / 0.72     # matplotlib's line spacing


def _image_labels(figure: Figure, width: int) -> tuple[list[str], bool, float]:
    """The curves' legend labels, whether the legend goes under the axes, and the height
    of one of its lines in pixels. Inside the axes the legend may cover a little of the
    curves, so only short labels go there; a label wider than 40% of the image (your
    derivative's expression, shown nowhere else) moves the legend under the axes, each
    label folded to 90% of the width, never cut."""
    from matplotlib import rcParams

    font, measure = _font(rcParams["legend.fontsize"], "normal")
    labels = [curve.label for curve in figure.curves]
    line = 1.35 * font.get_size_in_points() / 0.72     # a legend row: text and spacing
    if all(measure(label) <= 0.4 * width * 0.72 for label in labels):
        return labels, False, line
    return ["\n".join(_folded(label, 0.9 * width * 0.72, measure)) for label in labels], \
        True, line


def _font(size, weight):
    """A matplotlib font and how wide it draws a line, in points (at 100 dpi a pixel is
    0.72 of one)."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import text_to_path

    font = FontProperties(size=size, weight=weight)

    def measure(line: str) -> float:
        return text_to_path.get_text_width_height_descent(line, font, ismath=False)[0]

    return font, measure


def _image_curve(axes, figure: Figure, curve: Curve, colour: str, label: str) -> None:
    style = dict(color=colour, linewidth=2.2 if curve.mine else 1.8,
                 linestyle="--" if curve.mine else "-", zorder=4 if curve.mine else 3)
    for xs, ys in pieces(figure.x, curve.y, figure.view, curve.slope, curve.breaks):
        axes.plot(xs, ys, label=label, **style)
        label = None            # one legend entry per curve, however many stretches
