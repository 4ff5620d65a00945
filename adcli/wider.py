"""A second witness where a float64 step overflowed or underflowed: the same graph, run
again in long double.

x^3/(1 + x^4) at x = 1e80 is 0 in float64, and so is its derivative: x^4 overflows and
1e240/inf is 0, where f is 1e-80 and f' -1e-160. Forward mode takes the same steps and gets
the same 0s, so comparing the two modes (expression._cross_check) cannot see it. x86-64's
long double (numpy's longdouble there: a 15-bit exponent and a 64-bit significand) holds
1e320 and 1e-580, and the same Functions run on it give 1e-80 and -1e-160. Where numpy's
long double is float64 itself (Windows, macOS on ARM) WIDE is False: no such witness.

The witness is believed for a number only where its own run was clean on the way to it:
no step it was computed from (a value, a step of a rule, an adjoint) left long double's
range or made nan or inf from finite inputs; and its number is not its own rounding.
x/sqrt(x^2 + 1) at 1e200 has f' = 1e-600, two terms of 1e-200 that cancel, and long
double's 7e-220 is what their rounding left: so the run is made twice more with every
step's result moved by a few of its ulps at random (Vignes's CESTAC), and believed only
where the three agree to STABLE.
There it is float64's computation with more range and more digits, so where the two
differ by more than AGREE and by more than SUBNORMAL (below float64's normal range, the few
units of its spacing there that a correct float64 evaluation can be off by), float64's
number is the wrong one. It is asked only about points where one of its steps lay outside
float64's normal range: what float64 lost is range, and elsewhere a difference is rounding.
numpy's flags say only that some step did, somewhere in a block of points, so the float64
run is first repeated there with every step watched (suspects) and long double runs only
where one did.
"""
from __future__ import annotations

import numpy as np

from .reruns import Asked, run as _run

WIDE = np.finfo(np.longdouble).maxexp > np.finfo(np.float64).maxexp
_MAX, _TINY = float(np.finfo(np.float64).max), float(np.finfo(np.float64).tiny)
_UNIT = float(np.finfo(np.float64).smallest_subnormal)   # 2^-1074: the spacing below _TINY
_LONG_TINY = np.finfo(np.longdouble).smallest_normal
# Points run at once: long double arrays are 16 bytes, and the tape keeps every node's.
CHUNK = 16384
# A step's result moved by 4 of long double's ulps (2^-63 each), up or down at random.
_NUDGE = 2.0**-61
# The three runs agree to this: a number whose rounding grew a million-fold is no witness.
STABLE = 1e-13
# Where they do not, long double's number is taken to be its own rounding to within this
# many times their spread (CESTAC's estimate; Student's t for three runs would be 4.3):
# float64's number outside that is wrong all the same (log(x^2+1) - 2 log x at 1e200:
# f' = -2e-600, long double's -1e-219 give or take 1e-217, float64's -2e-200).
SPREAD = 100.0
# Apart from float64's by more than this (of the larger), float64's number is wrong. Its
# own rounding, a few ulps a step (1e-15), is far below; a step that lost digits to the
# subnormal range lost more (sqrt(x^2 + y^2) at x = 9.4e-159, y = 3e-215: x^2 = 8.9e-317
# keeps 9 digits, and f is 7e-9 off), and 1e-11 let a subnormal's loss through unsaid
# (1e300 exp(x) at -720: e^-720 keeps 43 bits, and f and f' came out 2.9e-12 off).
AGREE = 1e-13
# Below the normal range float64's spacing is one unit (_UNIT, 4.9e-324) whatever the size,
# so there a number's error is counted in units, and this many of them a correct float64
# evaluation can be off by: its last step rounds into that spacing (half a unit; numpy's
# exp is correctly rounded there, and a libm's faithful result is under a unit off); a
# subnormal step before it that is added or scaled by a small factor passes its own half
# unit on (e^-742 + e^-743 is 0.7 units off, 3 e^-742 1.4); and long double's number,
# rounded to float64 to be compared, is half a unit off too. (The normal steps' roundings
# are relative, within AGREE of the number; where that is under this, below 2e-312, they
# cost 1e-4 units each.)
# Farther than this, a subnormal step's rounding was magnified on the way: float64 lost
# digits it could hold (x^2 e^-x at 745: e^-745 = 4.9e-324 keeps one bit, x^2 multiplies
# its rounding 5.5e5 times, and f comes out 75% off).
SUBNORMAL = 4 * _UNIT
# The same, for grad --order N's derivative, where float64's Taylor sweep and long double's
# reverse passes round differently (orders 2 to 8 agree to 4e-13 across the accuracy sweep).
AGREE_ORDER = 1e-8


# How far from the truth, relative, a number ``Judged.sure`` of may be: the nudged runs'
# spread (STABLE at most) is its rounding's estimate, taken SPREAD times over.
SURE_RTOL = SPREAD * STABLE


class Judged:
    """Per number (Asked.named's names): ``wrong``, where long double contradicts the
    number shown, its number there (rounded to float64), and ``bounds``: 0, or how far
    that may be from the truth where it is its own rounding (see SPREAD); ``settled``:
    where its run answered for the value and gradient (clean, and stable where it
    contradicts), so that forward mode need not be asked; ``kinked``: per function,
    where its run sat on one of that function's kinks or edges; ``wide``: its numbers
    unrounded (a Hessian entry of -2e340 is -inf in ``numbers``), for the words."""

    def __init__(self, wrong: dict, numbers: dict, settled: np.ndarray, bounds: dict,
                 kinked: dict | None = None, wide: dict | None = None):
        self.wrong, self.numbers, self.settled, self.bounds = wrong, numbers, settled, bounds
        self.kinked, self.wide = kinked or {}, numbers if wide is None else wide

    def sure(self, name: str) -> np.ndarray:
        """Where long double's number may stand in for the one shown (as adcli check has
        it do): it contradicts it, is no rounding of its own (within SURE_RTOL of the
        truth), and is a normal float64: below that range, rounding it to float64 alone
        costs up to half of 4.9e-324, far more than SURE_RTOL of it (2.5e-4 of 1e-320)."""
        number = np.abs(self.numbers[name])
        return self.wrong[name] & (self.bounds[name] == 0) & (number >= _TINY) \
            & (number <= _MAX)


class _Watch:
    """Sees every Function call of a run (core.tracing) and marks its points: ``ranged``
    where a result lay outside float64's normal range (beyond it, subnormal, or 0 from
    inputs that were not: an underflow, or x - x, which costs a look only), ``lost``
    where one made inf from finite inputs or was subnormal in long double (_losses). A
    nan made from finite inputs (sqrt(-1)) is no loss of range, and it reaches only numbers
    that are nan themselves (a pin's np.where, the convention, aside): those the isfinite
    test of _judged sets aside, one number at a time, not the whole point (log(x^2) +
    sqrt(y) at x = 1e-200, y = -1: f and d/dy are nan, d/dx is 2e200 all the same). A
    lost step's numbers _reached finds, for the same reason."""

    def __init__(self, n: int):
        self.ranged = np.zeros(n, dtype=bool)
        self.lost = np.zeros(n, dtype=bool)
        self.staged: dict[str, np.ndarray] = {}   # ranged when the value, the gradient was made

    def stage(self, made: str) -> None:
        self.staged[made] = self.ranged.copy()

    def ranged_for(self, name: str, asked: Asked) -> np.ndarray:
        """Where a step on the way to number ``name`` left the range: the forward pass's
        for the value, with the gradient's pass for a first partial, every step for the
        rest (log(x*y)'s value at x = 1e300, y = 1e-300 is a rounding of x*y = 1, though
        the Hessian's 1/y^2 overflows there)."""
        stage = "value" if name == "" else "gradient" if name in asked.wrt else None
        return self.staged.get(stage, self.ranged)

    def __call__(self, function, inputs, y) -> None:
        self.see(y.data, [x.data for x in inputs])

    def see(self, data, inputs=()) -> None:
        size = self.see_result(data)
        zeroed = size == 0
        for x in inputs:
            zeroed &= np.isfinite(x) & (x != 0)
        self.ranged |= zeroed & bool(inputs)
        self.lost |= _losses(size, inputs)

    def see_result(self, data) -> np.ndarray:
        """A number asked for: out of float64's range or not, but not the run's loss at
        its point (a Hessian entry beyond float64 is inf once rounded, and only it is
        no witness then). Returns its size."""
        size = np.abs(data)
        self.ranged |= _outside(size)
        return size


def _losses(size, inputs) -> np.ndarray:
    """Where a step's result (of this size) lost its number in long double: inf from finite
    ``inputs`` (an overflow, or a true inf: log(0), asin's slope at -1), or subnormal."""
    made = np.isinf(size)
    for x in inputs:
        made &= np.isfinite(x)
    return made | ((size > 0) & (size < _LONG_TINY))


class _Cut:
    """Puts nan in place of every lost step's result (_losses): nan goes on through every
    step computed from it, and so marks the numbers the loss reached."""

    def __call__(self, function, inputs, y) -> None:
        cut = _losses(np.abs(y.data), [x.data for x in inputs])
        if cut.any():
            y.data = np.where(cut, np.longdouble(np.nan), y.data)


def _reached(make_run, arrays, asked: Asked, first: dict, lost: np.ndarray) -> dict:
    """Per number, where a lost step was on its way: at the points ``lost``, where the run
    again with those steps cut (_Cut) does not give ``first``'s number. A loss is the run's
    at its point, not every number's there: log(x^2) + asin(y) at x = 1e-200, y = -1 makes
    asin's inf slope in d/dy alone, and f = -922.6 and d/dx = 2e200 stand."""
    reached = {name: lost.copy() for name in first}
    if lost.any():
        again = _run(make_run, [a[lost] for a in arrays], asked, _Cut())
        for name, a in first.items():
            reached[name][lost] = ~(again[name] == a[lost])
    return reached


def suspects(make_run, arrays: list[np.ndarray], asked: Asked) -> np.ndarray:
    """Where, among points a flag was raised for, a step of float64's own run left its
    normal range: numpy's flags say only that one did, somewhere in a block of 32,768
    points (or anywhere, on the tape), and a long double run costs several float64 ones.
    The same numbers again, every Function call watched, in blocks (the tape keeps all)."""
    n = len(arrays[0]) if arrays else 1
    found = []
    for start in range(0, n, 2 * CHUNK):
        part = [a[start:start + 2 * CHUNK] for a in arrays]
        watch = _Watch(len(part[0]) if part else 1)
        for data in _run(make_run, part, asked, watch, dtype=np.float64).values():
            watch.see_result(data)
        found.append(watch.ranged | watch.lost)
    return np.concatenate(found)


def judged(make_run, arrays: list[np.ndarray], asked: Asked, shown: dict) -> Judged:
    """Long double's word on the numbers ``shown`` (float64's, by name) at the points of
    ``arrays`` (one 1-d array per variable, in the expression's order);
    ``make_run(arrays, shape)`` makes a run (expression._Run)."""
    n = len(arrays[0]) if arrays else 1
    parts = [_judged(make_run, [a[start:start + CHUNK] for a in arrays], asked,
                     {name: a[start:start + CHUNK] for name, a in shown.items()})
             for start in range(0, n, CHUNK)]

    def joined(field: str) -> dict:
        return {name: np.concatenate([getattr(p, field)[name] for p in parts])
                for name in shown}
    kinked = {name: np.concatenate([p.kinked.get(name, np.zeros(len(p.settled), bool))
                                    for p in parts])
              for name in {name for p in parts for name in p.kinked}}
    return Judged(joined("wrong"), joined("numbers"),
                  np.concatenate([p.settled for p in parts]), joined("bounds"), kinked,
                  joined("wide"))


def _judged(make_run, arrays: list[np.ndarray], asked: Asked, shown: dict) -> Judged:
    n = len(arrays[0]) if arrays else 1
    watch, kinked = _Watch(n), {}
    first = _run(make_run, arrays, asked, watch, kinked)
    ranged = {name: watch.ranged_for(name, asked) | _outside(np.abs(a))
              for name, a in first.items()}
    with np.errstate(over="ignore", under="ignore"):
        numbers = {name: a.astype(np.float64) for name, a in first.items()}
    reached = _reached(make_run, arrays, asked, first, watch.lost)
    clean = {name: ~reached[name] & np.isfinite(a) for name, a in first.items()}
    wrong = {name: clean[name] & ranged[name] & contradicts(numbers[name], shown[name])
             for name in first}
    if asked.nth is not None and asked.nth[1] > 1:
        # float64 took grad --order N's derivative by Taylor mode, long double by reverse
        # passes: their steps differ, and where float64's sweep raised a flag (this point's
        # block) a gap beyond both's rounding (AGREE_ORDER) says float64's is wrong.
        name = asked.named_nth()
        wrong[name] = clean[name] & contradicts(numbers[name], shown[name], AGREE_ORDER)
    # Only where it contradicts float64 need its own rounding be ruled out (two more runs,
    # nudged; where it agrees, float64 and it cannot both be rounding's by chance).
    doubted = np.logical_or.reduce(list(wrong.values()))
    bounds = {name: np.zeros(n) for name in first}
    if doubted.any():
        spread = _spread_at(make_run, [a[doubted] for a in arrays], asked,
                            {name: a[doubted] for name, a in first.items()})
        for name, a in first.items():
            s = spread[name]
            # (or its rounding, taken SPREAD times over, is below float64's finest spacing)
            stable = (s <= STABLE * np.abs(a[doubted])) | (SPREAD * s < _UNIT)
            with np.errstate(over="ignore"):
                bound = np.where(stable, 0.0, SPREAD * s).astype(np.float64)
                # Its own rounding, and still far from float64's: wrong all the same.
                far = ~(np.abs(numbers[name][doubted] - shown[name][doubted]) <= bound)
            clean[name][doubted] &= stable
            wrong[name][doubted] &= stable | (far & np.isfinite(bound))
            bounds[name][doubted] = bound
    # (grad --order N's derivative too: a warning of it is dropped only where it settled)
    nth = [asked.named_nth()] if asked.nth is not None else []
    settled = np.logical_and.reduce([clean[name] for name in ["", *asked.wrt, *nth]])
    return Judged(wrong, numbers, settled, bounds, kinked, first)


def _outside(size) -> np.ndarray:
    """Where a number of this size is outside float64's normal range (a number asked for
    too: a gradient's sums are no Function calls the watch sees)."""
    return (size > _MAX) | ((size > 0) & (size < _TINY))


def _spread_at(make_run, arrays, asked: Asked, first: dict) -> dict:
    """Per number, how far two runs with every step nudged (_Nudge) land from ``first``."""
    spread = {name: np.zeros(len(a), dtype=np.longdouble) for name, a in first.items()}
    for seed in (1, 2):
        again = _run(make_run, arrays, asked, _Nudge(seed))
        for name, a in first.items():
            spread[name] = np.maximum(spread[name], np.abs(a - again[name]))
    return spread


def contradicts(wide: np.ndarray, shown: np.ndarray, agree: float | None = None) -> np.ndarray:
    """Where long double's number (rounded to float64: inf where the truth is beyond
    float64) is not the one shown: apart by more than AGREE of the larger and by more than
    SUBNORMAL (a subnormal's error in a correct evaluation) if both are finite, else not
    the same inf (a nan shown is contradicted by any number)."""
    finite = np.isfinite(wide) & np.isfinite(shown)
    with np.errstate(invalid="ignore"):
        apart = np.abs(wide - shown)
        near = (apart <= (agree or AGREE) * np.maximum(np.abs(wide), np.abs(shown))) \
            | (apart <= SUBNORMAL)
    return (wide != shown) & ~(finite & near)


def close(a: np.ndarray, b: np.ndarray, rtol: float) -> np.ndarray:
    """Where two float64 computations a and b (forward and reverse mode's, say) agree to
    ``rtol`` of the larger, or are apart by less than the smallest normal float: below it
    either may have lost digits to a subnormal step, and neither is the witness that
    long double is (contradicts)."""
    with np.errstate(invalid="ignore"):
        apart = np.abs(a - b)
        return (apart <= rtol * np.maximum(np.abs(a), np.abs(b))) | (apart < _TINY)


class _Nudge:
    """Moves every Function's result by _NUDGE of itself, up or down at random per point
    (a fixed seed: the same run, the same words)."""

    def __init__(self, seed: int):
        self.random = np.random.default_rng(seed)

    def __call__(self, function, inputs, y) -> None:
        signs = self.random.integers(0, 2, np.shape(y.data)) * 2 - 1
        y.data = y.data * (1 + signs * np.longdouble(_NUDGE))
