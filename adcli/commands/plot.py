"""adcli plot: f and its derivatives over a range of one variable, drawn in the terminal or
to an image file; a second expression is the user's own derivative, drawn beside df/dx.

The numbers are the pipeline's like any command's (one evaluation per chunk, through the
public API); only the output differs: ``writer`` hands the rows to a drawing instead of a
table, or to a data format when there is no terminal to draw on.
"""
from __future__ import annotations

import click
import numpy as np

from ..errors import ValuesError, quote, say
from ..options import Whole
from ..printer import format_number
from ..render import number_text, writer as data_writer
from .base import Column, Command, at_points, flat, merged

DEFAULT_SAMPLES = 401        # odd, so a range symmetric about 0 has 0 as a sample
MAX_SAMPLES = 100_000
LARGEST = 1e300


class Plot(Command):
    name = "plot"
    summary = "Draw EXPRESSION and its derivatives."     # its line in adcli --help
    help = ("Draw EXPRESSION and its derivatives over --grid x=START:STOP, in the terminal "
            "or to -o FILE (.png, .svg, .pdf). YOURS, your own derivative, is drawn beside "
            "df/dx. When stdout is not a terminal (unless --format plot is given), or with "
            "--format csv|json|plain, the data is printed instead.")
    examples = ('adcli plot "x^3 - 3x" --grid x=-2.5:2.5',
                'adcli plot "sin(x)^2" "2 sin(x) cos(x)" --grid x=0:pi')
    many = True
    metavar = "EXPRESSION [YOURS]"
    differentiates = False   # the --grid variable is the one differentiated in
    formats = ("plot", "csv", "json", "plain")     # the data instead of the drawing
    options = (
        click.option("--order", type=Whole(1, 2), default=1, show_default=True,
                     help="Highest derivative drawn: 1 (f, df/dx) or 2 (and d2f/dx2)."),
        click.option("--samples", type=Whole(2, MAX_SAMPLES),
                     default=DEFAULT_SAMPLES, show_default=True,
                     help="Points of a --grid given without a count."),
        click.option("-o", "--output", metavar="FILE",
                     help="Write an image instead: .png, .svg or .pdf (needs the 'plot' "
                          "extra: pip install 'adcli[plot]')."),
    )

    # How the shared options (cli.points_options) read here; a string: not taken, and why.
    shared_options = {
        "--grid": dict(metavar="X=START:STOP[:N]",
                       help="The range drawn: N evenly spaced values (default: --samples), "
                            "ends included. One --grid only: --at fixes the other variables."),
        "--points": "plot takes its points from one --grid, not --points",
        **dict.fromkeys(("--points-format", "--columns", "--skip-bad-rows"),
                        "it goes with --points, which plot does not take: its points come "
                        "from one --grid"),
    }

    @classmethod
    def main(cls, texts, wrt=None, **options):
        grids = options.get("grid", ())     # (its errors echo it as typed)
        output, fmt = options.get("output"), options.get("fmt", "plot")
        if output is not None and fmt != "plot":
            # The image is the output (nothing is printed with -o): a data format asked
            # for as well would be dropped silently.
            raise ValuesError(f"-o {quote(output, None)} and --format {fmt}: -o writes the "
                              f"drawing and prints nothing; leave out one of them")
        return super().main(texts, wrt, grid_text=grids[0] if len(grids) == 1 else None,
                            drawn_anyway=fmt == "plot" and _typed("fmt"), **options)

    def __init__(self, expressions, wrt=None, order=1, samples=DEFAULT_SAMPLES, output=None,
                 grid_text=None, drawn_anyway=False, **options):
        if len(expressions) > 2:
            raise ValuesError(f"plot takes f and, optionally, your own derivative of it: "
                              f"got {len(expressions)} expressions")
        super().__init__(expressions, wrt, **options)
        self.order, self.grid_count, self.output = order, samples, output
        self.variable, self.fixed = "", {}
        self.grid_text = grid_text        # the --grid as typed, for its errors
        self.drawn_anyway = drawn_anyway  # --format plot typed: drawn into a pipe too
        # per chunk, per order (rows): where that derivative of f is a convention
        self.kinks: list[np.ndarray] = []
        if output is not None:
            from ..plotting import check_image_path

            check_image_path(output)

    def check_source(self, source) -> None:
        if source.stream is not None:
            raise ValuesError("plot takes its points from one --grid, not --points")
        if len(source.grid) != 1:
            given = f"got {len(source.grid)}" if source.grid else "none given"
            raise ValuesError(f"plot draws over one varying variable: give one --grid "
                              f"x=START:STOP ({given}); fix the others with --at")
        (self.variable, axis), = source.grid.items()
        if self.grid_text is None:      # (made without main: the range as read)
            self.grid_text = (f"{self.variable}={format_number(axis.start)}:"
                              f"{format_number(axis.stop)}")
        what = f"--grid {quote(self.grid_text)}"
        self._on_axis(what, source.fixed)
        # Past 1e300 the drawing libraries' own arithmetic overflows.
        if not (abs(axis.start) <= LARGEST and abs(axis.stop) <= LARGEST):
            raise ValuesError(f"{what}: the ends of the range must be finite numbers "
                              f"within +-{LARGEST:g}")
        if axis.start == axis.stop:
            raise ValuesError(f"{what}: the range is empty (start equals stop)")
        if axis.count < 2:
            raise ValuesError(f"{what}: a plot needs at least 2 points, got {axis.count}")
        self.wrt, self.fixed = [self.variable], dict(source.fixed)

    def _on_axis(self, what: str, fixed) -> None:
        """A grid over a variable f does not have, while one it has has no value (--at), is
        an error naming those it has (or the letter meant: alpha for α). (Over a variable f
        lacks, with the others given, a constant is drawn: its data has one x column.)"""
        used = list(dict.fromkeys(v for e in self.expressions for v in e.variables))
        if self.variable in used or all(v in fixed for v in used):
            return
        from ..expression import letter_words
        from ..tables import shorten

        along = (f"{used[0]} with --grid {used[0]}=START:STOP" if len(used) == 1 else
                 f"one of {', '.join(used)} with --grid NAME=START:STOP, --at for the others")
        words = letter_words(self.variable, used)
        raise ValuesError(f"{what}: '{self.variable}' does not appear in "
                          f"{shorten(self.expressions[0].parsed)}" +
                          (f" ({words})" if words else f"; plot along {along}"))

    # ----- the numbers ---------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        """The expressions' variables, and the --grid variable even if f does not use it
        (a constant is still drawn over x, and its data has an x column: the first, as
        that of 0*x + y^2)."""
        used = list(dict.fromkeys(v for e in self.expressions for v in e.variables))
        return [self.variable] + used if self.variable not in ("", *used) else used

    @property
    def mine(self):
        """The user's own derivative, if given."""
        return self.expressions[1] if len(self.expressions) > 1 else None

    def derivative_names(self) -> list[str]:
        return [derivative_name(self.symbol, self.variable, k)
                for k in range(1, self.order + 1)]

    def head(self) -> dict:
        head = {**super().head(), "variables": [self.variable], "order": self.order}
        if self.mine is not None:
            head["yours"] = {"expression": self.mine.text, "parsed": self.mine.parsed}
        return head

    def skeleton(self):
        return {"value": None, "derivatives": [],
                **({"yours": None} if self.mine is not None else {})}

    def columns(self):
        return [Column(("value",), self.symbol, self.symbol),
                *(Column(("derivatives", i), name, name)
                  for i, name in enumerate(self.derivative_names())),
                *([Column(("yours",), "yours", "yours")] if self.mine is not None else [])]

    def compute(self, chunk, n):
        e = self.expressions[0]
        result = e.derivatives(at_points(e, chunk), wrt=[self.variable], order=self.order)
        kinks = [_kinks_of(result, n)]
        if self.order == 2:
            # A kink of f' only (x*abs(x) at 0: f' = 2|x|) is one of order 2's kinks: f'
            # itself, and its zero there, are facts, which order 1's kinks tell apart.
            first = e.derivatives(at_points(e, chunk), wrt=[self.variable], order=1)
            kinks.insert(0, _kinks_of(first, n))
        self.kinks.append(np.array(kinks))
        arrays = [flat(result.value, n), flat(result.gradient[self.variable], n)]
        if self.order == 2:
            arrays.append(flat(result.hessian[..., 0, 0], n))
        results = [result]
        if self.mine is not None:
            results.append(self._yours(chunk))
            arrays.append(flat(results[-1].value, n))
        return arrays, merged(n, results)

    def _yours(self, chunk):
        """Your derivative, evaluated only (as eval does): a kink of yours is no warning,
        as no derivative of it is taken, unless it takes one itself (diff(abs(x), x) at 0
        is abs's convention); and what it warns of is said to be in yours, as the legend
        and the data name it ("sqrt in yours"), or it would read as f's."""
        mine = self.mine
        result = mine.derivatives(at_points(mine, chunk), order=0)
        if not mine.has_diff:
            result.diagnostics.drop("kink")
        result.diagnostics.name_output("yours")
        return result

    def slope(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """f and df/dx at these values of the variable (the others fixed): one pass."""
        e = self.expressions[0]
        chunk = {**{name: np.full(len(x), v) for name, v in self.fixed.items()},
                 self.variable: x}
        result = e.derivatives(at_points(e, chunk), wrt=[self.variable], order=1)
        n = len(x)
        return flat(result.value, n), flat(result.gradient[self.variable], n)

    def kinks_between(self, x: np.ndarray, pairs: bool = False) -> np.ndarray:
        """Per segment (sample i-1 to i; entry 0 False), whether a kink or pole of f lies
        inside it: a step that moves with the variable has its inputs on different sides of
        one (its function's ``side``: abs's argument changes sign, max's arguments swap).
        atan2's sides are quadrants (a pair): across its branch cut only f jumps, its
        derivatives are smooth, so they count only with ``pairs`` (f's own breaks)."""
        from ..expression import _Run

        e, n = self.expressions[0], len(x)
        sided = [(node, getattr(node.function, "side", None)) for node, moves in
                 zip(e.nodes, e.moving([self.variable])) if moves and node.kind != "diff"]
        sided = [(node, side) for node, side in sided if side is not None]
        crossed = np.zeros(n, dtype=bool)
        if not sided:
            return crossed
        chunk = {**{name: np.full(n, v) for name, v in self.fixed.items()}, self.variable: x}
        with np.errstate(all="ignore"):
            steps = _Run(e, [chunk[v] for v in e.variables], (n,),
                         watching=False).forward_nodes()
            for node, side in sided:
                sides = side(*[np.broadcast_to(steps[i].data, (n,)) for i in node.args])
                if sides is None or isinstance(sides, tuple) and not pairs:
                    continue
                for part in sides if isinstance(sides, tuple) else (sides,):
                    part = np.broadcast_to(part, (n,))
                    crossed[1:] |= part[1:] != part[:-1]
        return crossed

    def jumps(self, x: np.ndarray, f: np.ndarray, kinks: np.ndarray) -> np.ndarray:
        """Per segment (as kinks_between), where f itself jumps: a kink of f lies inside
        it or at one of its ends (sign's 0 a sample), and f's change across it does not
        shrink as the segment is narrowed down to the kink, as it does where f is
        continuous there (abs's corner, cbrt's vertical tangent)."""
        near = self.kinks_between(x, pairs=True)
        near[1:] |= kinks[1:] | kinks[:-1]
        near[1:] &= np.isfinite(f[1:]) & np.isfinite(f[:-1])
        k = np.flatnonzero(near)
        if len(k):
            near[k] = _steps_stay(self.slope, x[k - 1], x[k], f[k - 1], f[k])
        return near

    # ----- the output ----------------------------------------------------------------

    def writer(self, fmt, out, err, digits, **options):
        if self.output is not None:
            return FigureWriter(self, lambda figure: _save(figure, self.output))
        if fmt != "plot":
            return data_writer(fmt, self, out, digits, **options)
        if not out.isatty() and not self.drawn_anyway:
            say(err, "note: stdout is not a terminal, so the plotted data is printed as "
                     "CSV; draw it here with --format plot, or to a file with -o FILE.png")
            return data_writer("csv", self, out, digits, **options)
        return FigureWriter(self, lambda figure: _show(figure, out))

    def figure(self, x: np.ndarray, columns: list[np.ndarray], kinks: np.ndarray):
        from ..plotting import Curve, Figure
        from ..tables import shorten

        names = [self.symbol, *self.derivative_names()]
        # Where f is undefined its derivatives mean nothing, whatever a convention at the
        # edge of a domain gives (the derivative of log at -1 is -1): draw none there. At a
        # kink (``kinks``: per order, a mask over the samples) a derivative is a convention
        # too (abs' at 0 is shown as 0): a gap, not a point joining -1 to 1, and never a
        # "df/dx = 0" mark; and so is every derivative after it (abs'' there).
        missing = np.logical_or.accumulate(np.vstack([~np.isfinite(columns[0]), kinks]))
        ys = [np.where(missing[i], np.nan, y) for i, y in enumerate(columns[:len(names)])]
        # A kink between two samples (abs's 0 when no sample lands on it) breaks the
        # derivatives there as well: no line from -1 to 1 either; and where a derivative
        # jumps, the next does not exist (abs'' at 0): a break too. (Across a jump of f
        # itself, such as atan2's branch cut, its smooth derivatives are drawn through.)
        crossed = self.kinks_between(x)
        breaks, broken = [self.jumps(x, ys[0], kinks.any(axis=0))], np.zeros(len(x), bool)
        for y in ys[1:]:
            broken = broken | _jumps(y, crossed)
            breaks.append(broken)
        curves = [Curve(name, y, colour=i, slope=slope, breaks=broken)
                  for i, (name, y, slope, broken)
                  in enumerate(zip(names, ys, [*ys[1:], None], breaks))]
        if self.mine is not None:
            # Whole, as the title: the legend is the only place your expression is shown.
            curves.append(Curve(f"yours: {shorten(self.mine.parsed)}", columns[-1],
                                colour=3, mine=True))
        zeros = slope_zeros(self.slope, x, curves[0].y, curves[1].y)
        return Figure(title=self.title(), at=self.at(), xlabel=self.variable, ylabel="value",
                      x=x, curves=curves, marks=zeros,
                      mark_label=f"{names[1]} = 0")

    def title(self) -> str:
        """f(x) = the expression as read (a very long one visibly shortened, as tables do)."""
        from ..tables import shorten

        return f"{self.symbol}({self.variable}) = {shorten(self.expressions[0].parsed)}"

    def at(self) -> list[tuple[str, str]]:
        """The --at values drawn at, every digit: they are the point, as in every command."""
        return [(name, number_text(value)) for name, value in self.fixed.items()
                if name in self.names]


def derivative_name(f: str, x: str, k: int) -> str:
    """The k-th derivative's name in the legend and the data: df/dx, d2f/dx2, d3f/dx3, as
    the figure in README shows it; for a name that ends in a digit, d2f/dx1^2 (d2f/dx12
    would read as a derivative in x12)."""
    if k == 1:
        return f"d{f}/d{x}"
    return f"d{k}{f}/d{x}^{k}" if x[-1:].isdigit() else f"d{k}{f}/d{x}{k}"


def _kinks_of(result, n: int) -> np.ndarray:
    """Where f sits on a kink (f's own: not one of your derivative's, which is only drawn)."""
    mask = np.zeros(n, dtype=bool)
    for (_, what), bad in result.diagnostics.masks.items():
        if what == "kink":
            mask |= flat(bad, n)
    return mask


def _typed(option: str) -> bool:
    """Whether ``option`` was given on the command line, not left at its default."""
    from click.core import ParameterSource

    context = click.get_current_context(silent=True)
    return context is not None and \
        context.get_parameter_source(option) is ParameterSource.COMMANDLINE


def _save(figure, path: str) -> None:
    from ..plotting import save

    save(figure, path)


def _show(figure, out) -> None:
    from ..plotting import terminal, terminal_size, wants_colour

    width, height = terminal_size()
    # (no colour codes into a pipe or a file: --format plot drew there as asked)
    out.write(terminal(figure, width, height, wants_colour() and out.isatty(),
                       piped=not out.isatty()) + "\n")
    out.flush()


class FigureWriter:
    """Gathers every chunk's rows, then draws them all at once."""

    streams = False     # the pipeline's writer interface (render._Writer): drawn at the end

    def __init__(self, command: Plot, draw):
        self.command, self.draw = command, draw
        self.x: list[np.ndarray] = []
        self.columns: list[list[np.ndarray]] = []
        self.written = 0
        self.figure = None

    def pass_through(self, names) -> None:
        pass            # plot reads no points file

    def write(self, rows) -> None:
        self.x.append(np.asarray(rows.at[self.command.variable], dtype=float))
        self.columns.append([np.asarray(c, dtype=float) for c in rows.columns])
        self.written += len(rows)

    def close(self) -> None:
        x = np.concatenate(self.x)
        columns = [np.concatenate(parts) for parts in zip(*self.columns)]
        # The kinks of every chunk computed; a stop (--strict) may have written fewer rows.
        kinks = np.concatenate(self.command.kinks, axis=1)[:, :len(x)]
        self.figure = self.command.figure(x, columns, kinks)
        self.draw(self.figure)

    def notes(self) -> list[str]:
        """What a figure leaves out its title and legend say, but not that it is empty
        (log on -2:-1): an empty frame alone would look like a failure to draw; nor that a
        curve looks flat only beside the others on the y axis they share (f' of
        x^2 + 100 ranges over 4 where f is near 100): a reader would take it for constant."""
        if self.figure is None:
            return []
        grid = f"--grid {quote(self.command.grid_text)}"
        drawn = self.figure.drawn()
        if not drawn:
            return [f"nothing is drawn: {self.command.symbol} is nan or inf at every point "
                    f"of {grid}"]
        # (a curve left out of the legend, yours above all, is said: it was asked for)
        low, high = self.figure.view
        return [f"{curve.label.partition(':')[0]} is not drawn: nan or inf at every point "
                f"of {grid}" for curve in self.figure.curves if curve not in drawn] + \
            [f"{curve.label.partition(':')[0]} changes by only {number_text(change, 3)} "
                f"over the grid, {_share(change / (high - low))} of the y axis the curves "
                "share: it looks flat beside them, but is not constant"
                for curve, change in self.figure.flattened()]


def _share(fraction: float) -> str:
    return f"{fraction:.1%}" if fraction >= 0.001 else "under 0.1%"


# ----- where f turns ---------------------------------------------------------------------

REFINE_PASSES, REFINE_POINTS = 4, 31     # each pass narrows a bracket 32 times: 1e6 in all
TOUCH = 1e-9          # |df| at a touching zero, relative to |df| at the samples beside it
TOUCH_PASSES = 7      # each narrows a bracket 16 times: to ~1e-9 of two samples' spacing
SHRUNK = 0.1          # |df| at a narrowed zero, at most, relative to the larger at its samples


def slope_zeros(slope, x, f, df) -> tuple[np.ndarray, np.ndarray]:
    """Where df/dx is 0: samples where it is exactly 0 (alone: a flat stretch has no
    turning point to show), or 0 to rounding at an end of the range, and sign changes
    between samples, narrowed down with a few vectorised passes. A sign change can also be
    a pole (1/x at 0): there |df/dx| grows as the bracket narrows, where at a zero it
    shrinks, and such brackets are dropped.
    Returns the marks to draw: each zero on the df/dx curve (at 0) and on f."""
    exact = np.union1d(_exact_zeros(df), _ends_at_zero(df))
    finite = np.isfinite(df)
    left = np.flatnonzero(finite[:-1] & finite[1:] & (np.sign(df[:-1]) * np.sign(df[1:]) < 0))
    roots, values = _refine(slope, x[left], x[left + 1], df[left], df[left + 1])
    touch, touch_f = _touching(slope, x, df)
    zeros = np.concatenate([x[exact], roots, touch])
    order = np.argsort(zeros)
    at_f = np.concatenate([f[exact], values, touch_f])[order]
    zeros = zeros[order]
    return np.concatenate([zeros, zeros]), np.concatenate([np.zeros(len(zeros)), at_f])


def _touching(slope, x, df) -> tuple[np.ndarray, np.ndarray]:
    """Zeros where df touches 0 between samples without changing sign (x^2 sin x at 0,
    when 0 is not a sample): at each sample where |df| is a strict local minimum, the
    minimum of |df| is narrowed down between its neighbours, and kept if it is 0 to
    rounding next to |df| at them (a double zero is ~1e-15 of it after the passes; a near
    miss, 3x^2 + 0.001, keeps most of it)."""
    size = np.abs(df)
    inner = np.arange(1, len(df) - 1)
    same = (np.sign(df[:-2]) == np.sign(df[1:-1])) & (np.sign(df[1:-1]) == np.sign(df[2:]))
    # (<= on the left: of two equal samples around the zero, as in x^2 sin x, the first)
    low = inner[same & (df[1:-1] != 0) & (size[1:-1] <= size[:-2]) & (size[1:-1] < size[2:])]
    if len(low) == 0:
        return np.empty(0), np.empty(0)
    lo, hi = x[low - 1], x[low + 1]
    t = np.linspace(0, 1, REFINE_POINTS + 2)
    for _ in range(TOUCH_PASSES):
        grid = lo[:, None] + (hi - lo)[:, None] * t          # (brackets, points)
        _, d = slope(grid.ravel())
        best = np.argmin(np.abs(d.reshape(grid.shape)), axis=1)
        rows = np.arange(len(lo))
        lo = grid[rows, np.maximum(best - 1, 0)]
        hi = grid[rows, np.minimum(best + 1, len(t) - 1)]
    at = (lo + hi) / 2
    value, d = slope(at)
    keep = np.abs(d) <= TOUCH * np.maximum(size[low - 1], size[low + 1])
    return at[keep], value[keep]


def _exact_zeros(df) -> np.ndarray:
    """Indices where df is exactly 0 and its neighbours are not."""
    exact = np.flatnonzero(df == 0)
    padded = np.concatenate([[1.0], df, [1.0]])
    return exact[(padded[exact] != 0) & (padded[exact + 2] != 0)]


def _ends_at_zero(df) -> np.ndarray:
    """The ends of the range where df is 0 to rounding next to the sample beside it, on the
    same side of 0 (sin(x)^2's 2 sin(x) cos(x) is -2.4e-16 at pi): an exact zero that
    rounding missed, and no sign change for ``_refine`` to find."""
    if len(df) < 2:
        return np.empty(0, dtype=int)
    ends, beside = np.array([0, len(df) - 1]), np.array([1, len(df) - 2])
    with np.errstate(invalid="ignore"):
        near = (df[ends] != 0) & (np.sign(df[ends]) == np.sign(df[beside])) & \
            (np.abs(df[ends]) <= TOUCH * np.abs(df[beside]))
    return ends[near]


def _refine(slope, a, b, da, db):
    """Narrow the brackets [a, b] of sign changes of df (da, db at their ends) down to
    their zeros, and f there; brackets that turn out to hold a pole are dropped."""
    if len(a) == 0:
        return np.empty(0), np.empty(0)
    lo, hi, dlo, dhi = a.copy(), b.copy(), da.copy(), db.copy()
    t = np.linspace(0, 1, REFINE_POINTS + 2)[1:-1]
    for _ in range(REFINE_PASSES):
        inner = lo[:, None] + (hi - lo)[:, None] * t          # (brackets, points)
        _, d = slope(inner.ravel())
        d = d.reshape(inner.shape)
        grid = np.column_stack([lo, inner, hi])
        dgrid = np.column_stack([dlo, d, dhi])
        change = np.sign(dgrid[:, :-1]) * np.sign(dgrid[:, 1:]) <= 0
        first = np.argmax(change, axis=1)      # the bracket always has a change somewhere
        rows = np.arange(len(lo))
        lo, hi = grid[rows, first], grid[rows, first + 1]
        dlo, dhi = dgrid[rows, first], dgrid[rows, first + 1]
    with np.errstate(all="ignore"):
        root = np.where(dlo == dhi, lo, lo - dlo * (hi - lo) / (dhi - dlo))
    value, _ = slope(root)
    # Narrowed a millionfold, |df| at a simple zero drops a millionfold (at the end farther
    # from it: the nearer one may be a sample on it already, cos at pi/2 is 1e-16, so it
    # is no yardstick), 1e-2 at a cube-root one; at a pole it grows, across a jump it stays.
    shrank = np.maximum(np.abs(dlo), np.abs(dhi)) < SHRUNK * np.maximum(np.abs(da), np.abs(db))
    keep = shrank & np.isfinite(root) & np.isfinite(value)
    return root[keep], value[keep]


# Of a step's change across a kink, what is left of it narrowed a millionfold: at least
# half of a jump (where a narrowing lands on the kink, f there may be halfway: sign(0) = 0)
JUMP = 0.25


def _steps_stay(slope, a, b, fa, fb) -> np.ndarray:
    """Whether f's change from a to b (fa to fb) is a jump: narrowed down a millionfold,
    each pass keeping the piece where f changes most, the change keeps more than JUMP of
    itself (sign's 1; nan, where f is undefined inside, counts as kept) and does not fade
    as a power law's does. A continuous f's change shrinks with the piece: abs's a
    millionfold, cbrt's a hundredfold, but |x|^0.05's only by half, 32^0.05 a pass."""
    changes = _narrowed(slope, a, b, fa, fb)
    with np.errstate(invalid="ignore", divide="ignore"):
        left, size = changes[-1], np.abs(fb - fa)
        earlier, last = np.abs(_limit(*changes[-4:-1])), np.abs(_limit(*changes[-3:]))
        # (or it tends to that much: a jump that a cusp beside it partly cancels, 0.1 acot(x)
        # + |x|^0.05 from the left of 0, |w^0.05 - 0.31|, heads for 0.31 past a dip)
        kept = np.isnan(left) | (left > JUMP * size) | (last > JUMP * size)
        fading = (earlier <= FADED * changes[-2]) & (last <= FADED * left)
        return kept & ~fading & (fb != fa)


def _narrowed(slope, a, b, fa, fb) -> list[np.ndarray]:
    """f's change over each bracket after each pass, narrowing it 32 times to the piece
    where f changes most."""
    lo, hi, flo, fhi = a.copy(), b.copy(), fa.copy(), fb.copy()
    t = np.linspace(0, 1, REFINE_POINTS + 2)[1:-1]
    rows, changes = np.arange(len(lo)), []
    for _ in range(REFINE_PASSES):
        inner = lo[:, None] + (hi - lo)[:, None] * t          # (brackets, points)
        value, _ = slope(inner.ravel())
        grid = np.column_stack([lo, inner, hi])
        fgrid = np.column_stack([flo, value.reshape(inner.shape), fhi])
        change = np.abs(np.diff(fgrid, axis=1))
        most = np.argmax(np.where(np.isnan(change), np.inf, change), axis=1)
        lo, hi = grid[rows, most], grid[rows, most + 1]
        flo, fhi = fgrid[rows, most], fgrid[rows, most + 1]
        changes.append(np.abs(fhi - flo))
    return changes


# What is left of a change that fades, at most, as a share of its last (_steps_stay: the
# last four changes, each run of three gone on at its steady ratio, _limit): a cusp's,
# C r^k (|x|^p's, r = 32^-p), extrapolates to 0 within rounding; a jump's, J + C r^k, to J,
# also beside a slow cusp (0.05 sign(x) + |x|^0.01, sign(0) = 0 on a sample: |w^0.01 -
# 0.05| tends to 0.05 where its last is 0.8); one with the kink inside its pieces, not on
# a sample, changes by no steady ratio (how much of the cusp each piece holds varies).
FADED = 0.01


def _limit(c1, c2, c3) -> np.ndarray:
    """What c1, c2, c3 tend to, shrinking on by the ratio of their last two decreases
    (Aitken's extrapolation: C r^k tends to 0, J + C r^k to J); nan where they do not
    shrink by a steady ratio below 1."""
    shrank, last = c1 - c2, c2 - c3
    ratio = last / shrank
    steady = (shrank > 0) & (ratio > 0) & (ratio < 1)
    return np.where(steady, c3 - last * ratio / np.where(steady, 1 - ratio, 1), np.nan)


def _jumps(y: np.ndarray, crossed: np.ndarray) -> np.ndarray:
    """The segments of a derivative's curve that cross a kink of f and jump there: by more
    than twice the change over either neighbouring segment. abs' goes -1 to 1 across 0
    with no change beside it; (abs(x)^2)' = 2x and (x·abs(x))' = 2|x| pass through it as
    they go on either side: their kink is f's steps', not the derivative's."""
    change = np.abs(np.diff(y, prepend=np.nan))          # change[k]: from sample k-1 to k
    beside = np.fmax(np.concatenate([[np.nan], change[:-1]]),
                     np.concatenate([change[1:], [np.nan]]))
    beside = np.where(np.isnan(beside), 0.0, beside)
    with np.errstate(invalid="ignore"):
        return crossed & ~(change <= 2 * beside)
