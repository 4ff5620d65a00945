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

import gc

import numpy as np

# Kink points looked at, at most: each costs four evaluations per derivative shown.
LIMIT = 4096
_EPS = np.finfo(np.float64).eps
# The step beside x: 2^-26 of its size (2^-46 at 0): far enough to leave a kink at x (a
# few ulps), near enough that the smooth part of each side barely bends.
_STEP, _TINY = 2.0 ** -26, 2.0 ** -20
# How far (in ulps) AD's derivative beside a kink may be off by rounding alone (one_sided):
# a few per step, and the extrapolation's own error takes in the scatter of noisier ones.
# At 64, a jump of 1 beside 1e14 (1e14 x + |x| at 0: f' is 1e14 -+ 1, 90 ulps apart) hid.
_ROUNDING = 16
# Kink points looked at together (one_sided): each is looked at from 6 points beside it,
# and a mixed partial's from 6 more beside each of those (_lower_confirmed), through
# nested reverse passes: 4,096 at once cost 460 MB more, at 4,096 kinks of a 150-step
# formula.
_CHUNK = 512


def confirmed(expression, at: dict, shown: dict, where: np.ndarray) -> np.ndarray:
    """Per point (1-d, as ``where``): True where every derivative ``shown`` (path, a tuple
    of variable names, to its numbers) exists and is the number shown: at each order up
    to its own, AD's sides (one_sided, as check takes them) agree and the order below does
    not jump, and the number shown is theirs. False elsewhere, everywhere past LIMIT kink
    points, and wherever a mixed partial is shown."""
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
            for k in range(1, len(path) + 1):
                here = np.broadcast_to(expression.float64_nth_derivative(
                    path[0], k - 1, points).derivative, ad.shape)
                limits, errors, jumps = one_sided(expression, path[:k], points, here)
                every &= np.all(np.isfinite(errors), axis=0) & ~np.any(jumps, axis=0) \
                    & (np.abs(limits[1] - limits[0]) <= errors[0] + errors[1])
            every &= np.isfinite(ad) & np.all(np.abs(ad - limits) <= errors, axis=0)
    found[index] = every
    return found


def one_sided(expression, names, points: dict, here, scale=0.0, lower_scale=0.0) -> tuple:
    """_one_sided at the points ``points``, _CHUNK of them at a time."""
    m = points[names[-1]].size
    if m <= _CHUNK:
        return _one_sided(expression, names, points, here, scale, lower_scale)
    every, parts = (here, scale, lower_scale), []
    for s in range(0, m, _CHUNK):
        parts.append(_one_sided(
            expression, names,
            {v: np.broadcast_to(p, (m,))[s:s + _CHUNK] for v, p in points.items()},
            *(np.broadcast_to(a, (m,))[s:s + _CHUNK] for a in every)))
        # (a mixed partial's nested passes leave their graphs in reference cycles, and the
        # CLI runs with the cycle collector off: adcli.start)
        gc.collect()
    return tuple(np.concatenate(part, axis=1) for part in zip(*parts))


def _one_sided(expression, names, points: dict, here, scale, lower_scale) -> tuple:
    """check's left and right derivatives at a kink, from AD beside it: the limit of AD's
    derivative along ``names`` (as checking.path orders them, the last taken last) from
    either side along names[-1], at points (1-d arrays) on a kink. Per side (axis 0: left,
    right): the limit, how far it may be off (inf where AD cannot say: a kink beside the
    point, a number not finite) and whether the derivative one order lower jumps between
    the point, where it is ``here``, and beside it (then that side's derivative is none).
    Beside is x -+ d, d/2, d/4; Richardson's two steps take the limit to second order,
    so a smooth side is off by d^2 of its curvature, not d of it: 1e8 sin(x) + max(x - 1,
    0) at 1 has sides 1e8 cos(1) and that + 1, a relative jump of 2e-8, which a first-order
    limit's error (|f''| d/2 a side, 0.6) would have swallowed. ``scale`` and
    ``lower_scale``: the rounding scales (the size of their terms) of the derivative and
    of the one below it at the point, where known (0 or not finite: their own size); AD's
    numbers beside it are off by a few ulps of that (_ROUNDING): log(x^2 + 1)'s 2x/(x^2 + 1)
    near 0 by ulps of 1, not of itself."""
    x = points[names[-1]]
    m, d = x.size, _power_step(x)
    fractions = np.array([-1.0, -0.5, -0.25, 1.0, 0.5, 0.25])
    with np.errstate(all="ignore"):
        values, kinked = _beside(expression, names, points, fractions, d)
        far, mid, near = values.reshape(2, 3, m).transpose(1, 0, 2)
        # (the steps as taken: x - d past a power of 2 is rounded, 2 - 2^-52 - 2^-26)
        steps = (x + fractions[:, None] * d) - x
        h_far, h_mid, h_near = steps.reshape(2, 3, m).transpose(1, 0, 2)
        first, second = _at_zero(far, h_far, mid, h_mid), _at_zero(mid, h_mid, near, h_near)
        limit = _at_zero(first, h_far, second, h_near)
        rounding = _ROUNDING * _EPS * np.maximum(np.maximum(np.abs(far), np.abs(mid)),
                                                 np.maximum(np.abs(near), _known(scale)))
        error = np.abs(second - first) + rounding
        smooth = _analytic(far - mid, mid - near, rounding)
        lower, _ = _beside(expression, names[:-1], points, np.array([-0.5, 0.5]), d,
                           along=names[-1])
        lower, here = lower.reshape(2, m), np.broadcast_to(here, (2, m))
        allowed = d * (np.abs(mid) + np.abs(limit)) \
            + _ROUNDING * _EPS * np.maximum(np.maximum(np.abs(lower), np.abs(here)),
                                            _known(lower_scale))
        jumps = np.abs(lower - here) > allowed
        kinked = kinked.reshape(2, 3, m).any(axis=1)
        if kinked.any() and len(names) == 2 and names[0] != names[1]:
            kinked &= ~_lower_confirmed(expression, names, points, fractions, d)
        bad = kinked | ~smooth | ~np.isfinite(limit) \
            | ~np.isfinite(error) | ~np.isfinite(lower) | ~np.isfinite(here)
    return np.where(bad, np.nan, limit), np.where(bad, np.inf, error), jumps & ~bad


def _known(scale) -> np.ndarray:
    """A rounding scale where it is finite, 0 elsewhere (not known)."""
    scale = np.abs(np.asarray(scale, dtype=np.float64))
    return np.where(np.isfinite(scale), scale, 0.0)


def _power_step(x) -> np.ndarray:
    """one_sided's d at x: _STEP of |x| (of _TINY at 0) rounded down to a power of 2, so
    that x -+ d, d/2, d/4 are float64 numbers themselves. Rounded, they would move the
    steps by up to an ulp of x, and the limit by f'' times that: 1e8 sin(x) beside pi/2,
    where f' = 1e8 cos x is 2e5, by hundreds of its ulps."""
    _, exponent = np.frexp(_STEP * np.maximum(np.abs(x), _TINY))
    return np.ldexp(1.0, exponent - 1)


def _at_zero(a, ha, b, hb) -> np.ndarray:
    """At 0, the line through (ha, a) and (hb, b): with the steps d, d/2, d/4, the
    extrapolations 2b - a, and (4b - a)/3 of two of those (Neville's scheme). Steps as
    taken, not as meant: at 2 - 2^-52, x - d is 2^-52 short, and |x - y|^3's f'' = 6|x - y|
    beside x = y moved by 6 ulps of 2 with it, 6e-9 of an f'' of 2e-7 (exp(10 x))."""
    return (b * ha - a * hb) / (ha - hb)


def _analytic(outer, inner, rounding) -> np.ndarray:
    """Where a side's derivative changes beside the point as a power series in d does
    (the extrapolation's model): from d to d/2 by 2^k times what it does from d/2 to d/4,
    k a whole number from 1 (|x|^3's 3d^2: 4 times), or by no more than rounding near
    it. A power below 1 of d (x cbrt(x) + x/100: f' = 4/3 d^(1/3) + 1/100, 2^(1/3) times)
    creeps towards its limit by more than the extrapolation's error says, and one that
    grows (cbrt(x): f' = d^(-2/3)/3 beside 0 on both sides) has none: both are left to
    finite differences, which know such powers (checking._power_law)."""
    with np.errstate(all="ignore"):
        power = np.log2(outer / inner)
    whole = (np.abs(power - np.round(power)) <= 0.1) & (np.round(power) >= 1)
    return whole | (np.abs(inner) <= rounding) & (np.abs(outer) <= 2 * rounding)


def _lower_confirmed(expression, names, points, fractions, d) -> np.ndarray:
    """Per side and point, for ∂²f/∂b∂a (names (a, b)) with a kink beside the point:
    whether ∂f/∂a exists at every point beside it, x -+ d, d/2, d/4 along b, and is AD's
    number there (its own sides along a agree with each other and with it, and f does
    not jump). Then the kink is ∂f/∂a's in a alone (xy + |y|^3 at y = 0: ∂f/∂y = x +
    3y|y|, 0 from either side of y = 0 beside x), and AD's ∂/∂b of it is the mixed
    partial there; where it is not (|x||y| at the origin: ∂f/∂y = |x| sign(y) jumps from
    -d to d beside it), whether the mixed partial exists is not known."""
    k, m = len(fractions), d.size
    at = {v: np.tile(np.asarray(p, dtype=np.float64), k) for v, p in points.items()}
    at[names[1]] = at[names[1]] + np.repeat(fractions, m) * np.tile(d, k)
    here = expression.float64_value(at)
    limits, errors, jumps = one_sided(expression, names[:1], at, here)
    shown, _ = _beside(expression, names[:1], at, np.zeros(1), np.zeros(k * m))
    within = np.abs(shown - limits) <= errors
    ok = np.all(np.isfinite(errors) & within & ~jumps, axis=0) \
        & (np.abs(limits[1] - limits[0]) <= errors[0] + errors[1])
    return ok.reshape(2, 3, m).all(axis=1)


def _beside(expression, names, points, fractions, d, along=None):
    """AD's derivative along ``names`` (f for none) at each point moved along ``along``
    (names[-1] by default) by each fraction of d, fractions first; and where a kink of a
    step moving with ``names`` lies there."""
    along = along or names[-1]
    k = len(fractions)
    at = {v: np.tile(np.asarray(p, dtype=np.float64), k) for v, p in points.items()}
    at[along] = at[along] + np.repeat(fractions, points[along].size) * np.tile(d, k)
    size = at[along].size
    if len(set(names)) <= 1:
        result = expression.float64_nth_derivative(names[0] if names else along,
                                                    len(names), at)
        values, masks = result.derivative, result.diagnostics.masks
    else:   # a mixed partial: nested reverse passes, as check takes it
        from .checking import _chain, _data
        from .expression import _Run

        arrays = [at[v] for v in expression.variables]
        run = _Run(expression, arrays, (size,), watching=False)
        run.kinked = list(dict.fromkeys(names))
        values = _data(_chain(run.forward(), run.leaves, names)[-1], size)
        masks = run.diagnostics.masks
    kinked = np.zeros(size, bool)
    for (_, what), mask in masks.items():
        if what == "kink":
            kinked |= np.broadcast_to(mask, (size,))
    return np.broadcast_to(values, (size,)).astype(np.float64), kinked
