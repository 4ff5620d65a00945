"""Whether a derivative shown at a kink is f's own: its left and right derivatives there.

Reverse mode's number at a kink of a step (abs at 0, a tie of max) is that step's
convention, and every command says so. But the derivative shown may exist all the same:
abs(x)^3 and x*abs(x) at 0, whose derivative 0 is a fact. There "a convention, not a fact"
would be false, so the kink is not said.

The sides are AD's own derivatives just beside the point, x + d and x + d/2 on each side
(off the kink, where AD is exact up to rounding), extrapolated to d = 0. Finite differences
of f could not tell 1e10 x + |x| (sides 1e10 - 1 and 1e10 + 1) from a smooth function: AD
at x ± d has every digit of each side. A point is confirmed only where both sides agree
with each other and with the number shown to within their extrapolation error and
rounding, and no kink lies beside it (abs(x - x) is a kink everywhere: said). Mixed
partials are not confirmed: ∂f/∂x may not exist beside the point (|x||y| at the origin).
"""
from __future__ import annotations

import numpy as np

# Kink points looked at, at most: each costs four evaluations per derivative shown.
LIMIT = 4096
_EPS = np.finfo(np.float64).eps
# The step beside x: 2^-26 of its size (2^-46 at 0): far enough to leave a kink at x (a
# few ulps), near enough that the smooth part of each side barely bends.
_STEP, _TINY = 2.0 ** -26, 2.0 ** -20


def confirmed(expression, at: dict, shown: dict, where: np.ndarray) -> np.ndarray:
    """Per point (1-d, as ``where``): True where every derivative ``shown`` (path, a tuple
    of variable names, to its numbers) exists and is the number shown. False elsewhere,
    everywhere past LIMIT kink points, and wherever a mixed partial is shown."""
    found = np.zeros(where.shape, bool)
    index = np.flatnonzero(where)
    if not index.size or index.size > LIMIT or not shown or \
            any(len(set(path)) != 1 for path in shown):
        return found
    points = {v: np.broadcast_to(np.asarray(at[v], dtype=np.float64), where.shape)[index]
              for v in expression.variables}
    every = np.ones(index.size, bool)
    with np.errstate(all="ignore"):
        for path, numbers in shown.items():
            ad = np.broadcast_to(np.asarray(numbers, dtype=np.float64), where.shape)[index]
            (right, r), (left, l) = (_side(expression, path[0], len(path), points, sign)
                                     for sign in (1.0, -1.0))
            every &= np.isfinite(ad) & (np.abs(right - left) <= r + l) \
                & (np.abs(ad - right) <= r) & (np.abs(ad - left) <= l) \
                & _continuous(expression, path[0], len(path), points)
    found[index] = every
    return found


def _continuous(expression, name: str, order: int, points: dict) -> np.ndarray:
    """Where f and its derivatives below ``order`` along ``name`` do not jump at the point
    (acot and sign at 0: their derivatives beside it agree, -1 and 0, but f jumps; abs's
    f'' beside 0 is 0 on both sides, but f' jumps): each moves from the point to d/2
    beside it by no more than the next derivative there allows, and rounding."""
    x = points[name]
    half = _STEP / 2 * np.maximum(np.abs(x), _TINY)
    smooth = np.ones(x.shape, bool)

    def nth(k, at):
        return np.broadcast_to(
            expression.float64_nth_derivative(name, k, {**points, name: at}).derivative,
            x.shape)
    here = nth(0, x)
    for k in range(order):
        slope_here = nth(k + 1, x)
        for d in (half, -half):
            there, slope = nth(k, x + d), nth(k + 1, x + d)
            allowed = np.abs(d) * (np.abs(slope) + np.abs(slope_here)) \
                + 64 * _EPS * np.maximum(np.abs(there), np.abs(here))
            smooth &= np.abs(there - here) <= allowed
        here = slope_here
    return smooth


def _side(expression, name: str, order: int, points: dict, sign: float):
    """The one-sided limit of AD's derivative along ``name`` (sign +1: from the right) and
    how far it may be off: inf where a kink lies beside the point or a number is not finite."""
    x = points[name]
    step = sign * _STEP * np.maximum(np.abs(x), _TINY)
    far, near, kinked = [], [], np.zeros(x.shape, bool)
    for d, into in ((step, far), (step / 2, near)):
        result = expression.float64_nth_derivative(name, order, {**points, name: x + d})
        into.append(np.broadcast_to(result.derivative, x.shape))
        for (_, what), mask in result.diagnostics.masks.items():
            kinked |= np.broadcast_to(mask, x.shape) & (what == "kink")
    far, near = far[0], near[0]
    limit = 2 * near - far      # (a smooth side: its derivative is linear in d this near)
    error = np.abs(near - far) + 64 * _EPS * np.maximum(np.abs(near), np.abs(far))
    bad = kinked | ~np.isfinite(limit) | ~np.isfinite(error)
    return np.where(bad, np.nan, limit), np.where(bad, np.inf, error)
