"""A second witness where a float64 step overflowed or underflowed: the same graph, run
again in long double.

x^3/(1 + x^4) at x = 1e80 is 0 in float64, and so is its derivative: x^4 overflows and
1e240/inf is 0, where f is 1e-80 and f' -1e-160. Forward mode takes the same steps and gets
the same 0s, so comparing the two modes (expression._cross_check) cannot see it. x86-64's
long double (numpy's longdouble there: a 15-bit exponent and a 64-bit significand) holds
1e320 and 1e-580, and the same Functions run on it give 1e-80 and -1e-160. Where numpy's
long double is float64 itself (Windows, macOS on ARM) WIDE is False: no such witness.

The witness is believed at a point only where its own run was clean there: no step on the
way (a value, a step of a rule, an adjoint) left long double's range or made nan or inf
from finite inputs; and its number is not its own rounding. x/sqrt(x^2 + 1) at 1e200 has
f' = 1e-600, two terms of 1e-200 that cancel, and long double's 7e-220 is what their
rounding left: so the run is made twice more with every step's result moved by a few of
its ulps at random (Vignes's CESTAC), and believed only where the three agree to STABLE.
There it is float64's computation with more range and more digits, so where the two
differ by more than AGREE, float64's number is the wrong one. It is asked only about
points where one of its steps lay outside float64's normal range: what float64 lost is
range, and elsewhere a difference is rounding.
"""
from __future__ import annotations

import numpy as np

from . import drivers
from .core import tracing

WIDE = np.finfo(np.longdouble).maxexp > np.finfo(np.float64).maxexp
_MAX, _TINY = float(np.finfo(np.float64).max), float(np.finfo(np.float64).tiny)
_LONG_TINY = np.finfo(np.longdouble).smallest_normal
# Points run at once: long double arrays are 16 bytes, and the tape keeps every node's.
CHUNK = 4096
# A step's result moved by 4 of long double's ulps (2^-63 each), up or down at random.
_NUDGE = 2.0**-61
# The three runs agree to this: a number whose rounding grew a million-fold is no witness.
STABLE = 1e-13
# Apart from float64's by more than this (of the larger), float64's number is wrong. Its
# own rounding, a few ulps a step (1e-15), is far below; a step that lost digits to the
# subnormal range lost more (sqrt(x^2 + y^2) at x = 9.4e-159, y = 3e-215: x^2 = 8.9e-317
# keeps 9 digits, and f is 7e-9 off).
AGREE = 1e-11


class Witness:
    """The long double run's value and gradient, rounded to float64, at each point:
    ``clean`` where it may be believed, ``ranged`` where a step left float64's range."""

    def __init__(self, value: np.ndarray, gradient: dict, clean: np.ndarray,
                 ranged: np.ndarray):
        self.value, self.gradient, self.clean, self.ranged = value, gradient, clean, ranged

    def of(self, name: str) -> np.ndarray:
        """The value (name "") or d/d name."""
        return self.value if name == "" else self.gradient[name]


class _Watch:
    """Sees every Function call of the run (core.tracing) and marks its points."""

    def __init__(self, n: int):
        self.ranged = np.zeros(n, dtype=bool)
        self.lost = np.zeros(n, dtype=bool)

    def __call__(self, function, inputs, y) -> None:
        self.see(y.data, [x.data for x in inputs])

    def see(self, data, inputs=()) -> None:
        size = np.abs(data)
        self.ranged |= (size > _MAX) | ((size > 0) & (size < _TINY))
        made = ~np.isfinite(size)
        for x in inputs:
            made &= np.isfinite(x)
        self.lost |= made | ((size > 0) & (size < _LONG_TINY))


def witness(make_run, arrays: list[np.ndarray], wrt) -> Witness:
    """The witness at the points of ``arrays`` (one 1-d array per variable, in the
    expression's order); ``make_run(arrays, shape)`` makes the run (expression._Run)."""
    n = len(arrays[0]) if arrays else 1
    parts = [_witness(make_run, [a[start:start + CHUNK] for a in arrays], wrt)
             for start in range(0, n, CHUNK)]
    return Witness(np.concatenate([p.value for p in parts]),
                   {name: np.concatenate([p.gradient[name] for p in parts]) for name in wrt},
                   np.concatenate([p.clean for p in parts]),
                   np.concatenate([p.ranged for p in parts]))


def _witness(make_run, arrays: list[np.ndarray], wrt) -> Witness:
    n = len(arrays[0]) if arrays else 1
    watch = _Watch(n)
    first = _run(make_run, arrays, wrt, watch)
    for data in first:
        watch.see(data)   # (a gradient's sums are no Function calls)
    clean = ~watch.lost
    for seed in (1, 2):
        again = _run(make_run, arrays, wrt, _Nudge(seed))
        for a, b in zip(first, again):
            clean &= np.isfinite(a) & _stable(a, b)
    with np.errstate(over="ignore", under="ignore"):
        rounded = [a.astype(np.float64) for a in first]
    return Witness(rounded[0], dict(zip(wrt, rounded[1:])), clean, watch.ranged)


def _run(make_run, arrays, wrt, callback) -> list[np.ndarray]:
    """The value and d/d each of wrt, in long double, every Function call seen by
    ``callback``."""
    n = len(arrays[0]) if arrays else 1
    run = make_run([a.astype(np.longdouble) for a in arrays], (n,))
    with np.errstate(all="ignore"), tracing(callback):
        y = run.forward()
        grads = drivers.gradient(y, run.leaves, wrt, (n,))[0] if wrt else {}
    return [np.broadcast_to(y.data, (n,)), *[grads[name] for name in wrt]]


class _Nudge:
    """Moves every Function's result by _NUDGE of itself, up or down at random per point
    (a fixed seed: the same run, the same words)."""

    def __init__(self, seed: int):
        self.random = np.random.default_rng(seed)

    def __call__(self, function, inputs, y) -> None:
        signs = self.random.integers(0, 2, np.shape(y.data)) * 2 - 1
        y.data = y.data * (1 + signs * np.longdouble(_NUDGE))


def _stable(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Where two runs agree to STABLE (or both are below float64's normal range, where
    what is shown keeps few digits anyway)."""
    apart = np.abs(a - b)
    return (apart <= STABLE * np.maximum(np.abs(a), np.abs(b))) | (apart < _TINY)
