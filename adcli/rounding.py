"""A witness for rounding: the same graph run twice more in float64, every step's result
moved by a few of its ulps at random (Vignes's CESTAC, as adcli.wider uses it for long
double). A number whose rounding errors stayed small moves by about as much; one made by
subtracting nearly equal numbers moves by as much as the number itself. (1 - cos x)/x^2 at
1e-8: cos x is 1 to within 5e-17, 1 - cos x is 0 or 1.1e-16, and f' comes out 1e8 where it
is -8e-10: moved by 4 ulps of cos x, f' moves by ~2e9. Where a number moves by more than
LOOSE of itself, fewer than 8 of its digits are right, and it is said ("rounding").
Only where there are at most 4,096 points (expression._ROUNDING_POINTS): three runs cost
three evaluations, and bulk runs are the speed goal's.

A value is judged by itself (a 0 by any move at all); a derivative's 0 has no size of its
own to be judged against: it is judged against the largest number shown beside it at its
point (where every number there is 0, by any move at all). Where terms cancel exactly (3x^2 - 3 at 1, beside
f = -2) it moves by a few ulps of those terms, as any 0 made by cancelling does, and 0 is
the right number; where it moves by more than LOOSE of its neighbours (atan(1/x)'s sixth
derivative at 0.001 is 0 give or take 1560, beside f = 1.57; it is 0.72) it is said. grad --order N is judged
by its own Taylor sweep, nudged the same way, and inside each rule every row it feeds back
into its later rows too (functions.nudging_rows: sqrt's y_1^2 against u_2).
"""
from __future__ import annotations

import functools
import weakref

import numpy as np

# Moved by more than this of itself, a number has fewer than 8 correct digits.
LOOSE = 1e-8
# A step's result moved by 4 of float64's ulps (2^-52 each), up or down at random.
_NUDGE = 2.0**-50
# The second run's moves: the first's hash mixed again with this, so that they are
# independent of the first's (two steps at one depth moved alike in one run seldom are in
# the other)
_SECOND = 0x9E3779B97F4A7C15
# A row a Taylor rule makes and feeds back into its later rows, by one ulp
_ROW_NUDGE = 2.0**-52


class _Nudge:
    """Moves every Function's result (a tape step, or a Taylor series: ``series``) by
    _NUDGE of itself, up or down at random per number (a fixed seed: the same run, the
    same words), where the step rounded: an exact one (2x, x*1, x + 0, 1 - cos x near 0)
    has no error to move by, and moving it would call sin(2x) at 1e9 unsure, where float64
    has every digit (sin's argument moved by 4 ulps of 2e9 moves sin by 1e-6)."""

    def __init__(self, seed: int):
        self.seed, self.calls = seed, 0
        self.keys = weakref.WeakKeyDictionary()   # a step's output: its _keyed hash
        # Where a moved step overflowed (x*x at 1.34e154, 4 ulps below the top): the run
        # there left float64's range, which says nothing of the digits shown.
        self.overflowed = False

    def __call__(self, function, inputs, y) -> None:
        xs = [x.data for x in inputs]
        rounded = _rounded(function, xs, y.data)
        y.data = self.moved(y.data, rounded, signs=self._keyed(function, inputs, y))
        if not np.isfinite(y.data).all():
            finite = functools.reduce(np.logical_and, [np.isfinite(x) for x in xs], True)
            self.overflowed = self.overflowed | (np.isinf(y.data) & finite)

    def moved(self, data, rounded, by: float = _NUDGE, signs=None):
        """data moved by ``by`` of itself where ``rounded``, each number's way by ``signs``
        (a tape step's, _keyed), else as _signs draws them (a Taylor series', a row's)."""
        if signs is None:
            signs = self._signs(np.shape(data))
        return data * (1 + np.where(rounded, signs * by, 0.0))

    def row(self, data, rounded):   # (functions.nudging_rows: a row inside a Taylor rule)
        # one ulp: each row is one rounded sum, on top of the whole step's move
        return self.moved(data, rounded, _ROW_NUDGE)

    def _signs(self, shape) -> np.ndarray:
        """A move per number, +1 or -1 by a hash of its place and the call (_mixed:
        numpy.random costs a one-point run 10 ms to import), for seed 2 the same flipped
        at every other call. Two steps one after the other (cos x, then 1e5*cos x) are
        then moved the same way in one of the two runs, never back to the number shown in
        both: with a hash of the seed too, 1e5*(sin x - x)'s f' at 1e-7, 1% off, came back
        to it in both runs, and was not said. Times 1/2 to 5/2 (_size_of), as a tape
        step's: a series' rows moved by one factor are a scaling, which a quotient by x
        carries through unchanged, though its rows cancel (atan(x)/x at 1e-3, 4 digits
        right at order 3, was not said: Knuth's multiplicative hash, used before, gave
        neighbouring places one sign in runs of about five; with signs alone, each of a
        pair of rows moves alike half the time)."""
        self.calls += 1
        place = np.arange(int(np.prod(shape, dtype=np.int64)), dtype=np.uint64)
        mixed = _mixed(place + (np.uint64(self.calls) << np.uint64(32)))
        signs = ((mixed >> np.uint64(63)).astype(np.float64) * 2 - 1) * _size_of(mixed)
        signs = signs.reshape(shape)
        return -signs if self.seed == 2 and self.calls % 2 else signs

    def _keyed(self, function, inputs, y) -> np.ndarray:
        """+1 or -1 per number of a tape step, times 1/2 to 5/2 (_size_of): a hash of what
        it computes, its function and its arguments' own hashes (an input's or a
        constant's: its bits), the same in every run, so that one step made twice is moved
        alike (sin(x) - sin(x), x*y - y*x, (sin(x) - sin(1))^2's f' at 1: 0 in any
        arithmetic, and in the nudged runs too). Seed 2 takes its moves from a second hash
        of the same: two steps moved alike in one run (cos x, then 1e5*cos x undoing it)
        seldom are in the other."""
        shape = np.shape(y.data)
        from .functions import Neg

        if isinstance(function, Neg):   # (its sign aside, the same number)
            self.keys[y] = self._key_of(inputs[0], shape)
            return np.ones(shape)
        key = np.full(shape, _class_key(type(function)), dtype=np.uint64)
        for x in inputs:    # (added: the same whatever the order, as x*y and y*x)
            key = key + self._key_of(x, shape)
        key = self.keys[y] = _mixed(key)
        moves = key if self.seed == 1 else _mixed(key ^ np.uint64(_SECOND))
        signs = (moves >> np.uint64(63)).astype(np.float64) * 2 - 1
        return signs * _size_of(moves)

    def _key_of(self, x, shape) -> np.ndarray:
        """An argument's hash (an input's or a constant's: its bits, but its sign: -a*b's
        and a*b's steps are moved alike, so that their sum stays 0), as ``shape``."""
        made = self.keys.get(x)
        if made is None:
            bits = np.ascontiguousarray(np.abs(np.asarray(x.data, np.float64)))
            made = _mixed(bits.view(np.uint64))
        try:
            return np.broadcast_to(made, shape)
        except ValueError:  # (a sum to a smaller shape: one hash of all it summed)
            return np.broadcast_to(_mixed(np.add.reduce(np.ravel(made))), shape)

    def series(self, function, series, args):   # (taylor._sweep's watch)
        # a series' rows are sums of products of the arguments' rows: where its value
        # (row 0) is exact, so are they, for the arithmetic that makes exact steps
        return self.moved(series, _rounded(function, [a[0] for a in args], series[0], False))


@functools.lru_cache(maxsize=None)
def _class_key(kind) -> int:
    """A number per Function class, the same in every process (its name's CRC): which
    numbers a run's witness doubts does not depend on what ran before it."""
    import zlib

    return zlib.crc32(f"{kind.__module__}.{kind.__qualname__}".encode())


def _size_of(key: np.ndarray) -> np.ndarray:
    """How far a step moves, in units of _NUDGE: from 1/2 to 5/2, by its hash's low bits.
    Signs alone let two different steps at one depth move alike in both runs about half
    the time, so that their difference stayed put: exp(x) - 2 sinh(x) at 19.5, 0 for
    3.4e-9, was said at 19.6 and not at 19.5 (968 of 2,000 points in 19.5..300 unsaid).
    One step made twice still moves alike; two others by the same whole number of their
    ulps (2 to 10 of them) in both runs about once in 200 times (measured: 5 of 2,400)."""
    return 0.5 + (key & np.uint64(2**52 - 1)).astype(np.float64) * 2.0**-51


def _mixed(z: np.ndarray) -> np.ndarray:
    """SplitMix64's finaliser, elementwise: every bit of z moves the top bit."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def _rounded(function, inputs: list, y, value_only: bool = True) -> np.ndarray:
    """Where float64's step ``function(*inputs) = y`` was not exact (functions.exact_step;
    not ``value_only``: y a series' row 0, its later rows asked about too)."""
    from .functions import exact_step

    return ~np.asarray(exact_step(function, inputs, y, value_only))


def spread(make_run, arrays: list[np.ndarray], asked, shown: dict) -> dict:
    """Per number shown (adcli.reruns.Asked's names), how far two nudged runs land from it."""
    from .reruns import run

    far = {name: np.zeros(len(a)) for name, a in shown.items()}
    for seed in (1, 2):
        nudge = _Nudge(seed)
        again = run(make_run, arrays, asked, nudge, dtype=np.float64)
        for name, a in shown.items():
            apart = _apart(again[name], a)
            far[name] = np.maximum(far[name], np.where(nudge.overflowed, 0.0, apart))
    return far


def _apart(again, shown):
    """|again - shown|; 0 where a nudge alone made a nan: it pushed a step out of a domain
    (acos of 1 + 2^-50), which says nothing of the digits of the number shown."""
    apart = np.abs(again - shown)
    return np.where(np.isnan(apart), 0.0, apart)


def taylor_spread(expression, arrays: list[np.ndarray], name: str, order: int,
                  shown: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """grad --order N's: how far two nudged Taylor sweeps land from ``shown``, and where
    one found no line of the sweep in float64's range that the number shown's had
    (taylor.Nudged.unjudged): there it has no witness, and may be wrong."""
    from .taylor import nudged_derivative

    far, unjudged = np.zeros(len(shown)), np.zeros(len(shown), dtype=bool)
    for seed in (1, 2):
        nudge = _Nudge(seed)
        again = nudged_derivative(expression, arrays, name, order, nudge.series, nudge.row)
        apart = _apart(np.broadcast_to(again.derivative, shown.shape), shown)
        far = np.maximum(far, np.where(again.kept, apart, 0.0))  # (no witness off range)
        unjudged |= np.broadcast_to(again.unjudged, shown.shape)
    return far, unjudged


def loose(shown: np.ndarray, far: np.ndarray, beside=0.0, alone: bool = True) -> np.ndarray:
    """Where a finite number moved by more than LOOSE of itself, or a 0 by more than LOOSE
    of ``beside`` (per point: the largest number shown there, beside()), or at all where
    every number beside it is 0 too (eval's (1 - cos x)/x^2 at 1e-8, 0 for 1/2; an exact
    0, x^3 - 3x + 2's at its double root, is made of exact steps, which are not moved),
    unless not ``alone``: then only beside a number other than 0."""
    size = np.abs(shown)
    judged = np.where(size > 0, size, beside)
    return np.isfinite(size) & (far > LOOSE * judged) & ((judged > 0) | (alone & (far > 0)))


def beside(shown: list[np.ndarray]) -> np.ndarray:
    """Per point, the largest finite size among the numbers ``shown`` there."""
    sizes = [np.where(np.isfinite(a), np.abs(a), 0.0) for a in shown]
    return np.maximum.reduce(sizes) if sizes else 0.0


def digits(shown: float, far: float) -> str:
    """How many of the number's digits its spread leaves right, in words."""
    ratio = abs(shown) / far if far > 0 else np.inf
    kept = int(np.floor(np.log10(ratio))) if 0 < ratio < np.inf else 16 * (ratio > 0)
    if kept < 1:
        return "no correct digit"
    return f"about {kept} correct digit{'s' * (kept != 1)}"
