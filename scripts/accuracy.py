"""How accurate are adcli's derivatives? A sweep against 50-digit mpmath references.

Usage (from a checkout, with the ``test`` extra installed, which brings mpmath)::

    python scripts/accuracy.py              # the full sweep: about a minute
    python scripts/accuracy.py --quick      # fewer points: a few seconds, for CI
    python scripts/accuracy.py --markdown   # the tables as Markdown (the README's)

What it measures
----------------
Every primitive registered in ``adcli.functions.PRIMITIVES`` (the callable functions, the
operators and the engine's helper primitives; only ``keep``, which pins conventions and is
not a function of its input, is left out) is evaluated with the engine itself: one
forward pass over arrays of points, one reverse pass with ``create_graph=True`` for the
gradient, and one more reverse pass per input over that gradient's graph for the second
derivatives, exactly as ``Expression.hessian`` does. Each value is compared with a closed
form evaluated by mpmath at 50 significant digits from the same (exact) float64 inputs.

Points: one-argument functions get log-spaced magnitudes from the smallest normal float64
to the largest finite one (both signs), a denser log-spaced band around 1, an evenly spaced
band over [-760, 760] (where exp, sigmoid, tanh, softplus and expm1 saturate), and points
at every edge: 1 - 2^-k and 1 + 2^-k (asin, acos, atanh, acosh), -1 + 2^-k (log1p), 2^-k
(x -> 0) and the float64 multiples of pi/2 (the poles and zeros of the trigonometric
functions), and the float64s closest to a multiple of pi/2 at every magnitude past 1e8
(where a libm's argument reduction is tried hardest: glibc's cos at 1.6e74 is 137,000 ulps
off; random points cannot find them, see ``near_half_pi``). Two-argument functions get the product of a log-spaced set of magnitudes (both
signs) with itself, plus pairs on and next to the diagonals (atan2's and hypot's mixed
partials change sign there); ``pow`` gets positive bases (with a variable exponent its
real domain) with whole and fractional exponents and exponents near 0, and negative bases
with whole exponents (up to 1e300, where b - 1 rounds and its parity decides the sign).

A derivative is scored at a point only where its true value is a normal float64 or exactly
0 (subnormal and overflowing values are left out), and only where the function's own
value is finite. The score is the distance in ulps between adcli's result and the
correctly rounded true value (0 means correctly rounded); a true 0 must come out as 0.
The table reports the worst score per function and derivative order (the worst over all
partials of that order). Goal: first derivatives within 4 ulps, second derivatives within
16 ulps, never 0 or inf where the true value is a normal float64.

The condition number. With exact inputs an implementation can always be accurate to a few
ulps, except where the derivative is a difference of terms that cancel along a curve of
inputs that are not float64 numbers: the one place this happens is pow's mixed partial
d2/da db a^b = a^(b-1) (1 + b log a), which vanishes where b log a = -1; any float64
evaluation rounds b log a, so its error is bounded by the derivative's own condition
number (|a g_a| + |b g_b|) / |g| times a few ulps, not by a few ulps. For that entry
only, the score is ulps / max(1, condition number); the ``measure`` column says so. The
helper primitives' second derivatives are third derivatives of the callable functions:
they are reported, not held to a goal.

Two more tables: the n-th derivatives (orders 2 to 8, as ``adcli grad --order N``
computes them, through ``adcli.parse(text).derivative(order=n, x=...)``) of every
one-argument function at a handful of points, as the worst relative error against
mpmath's own numerical differentiation at 50 digits (no goal: repeated differentiation of
products adds cancelling sums); and a few chains through expm1, log1p and sigmoid.

Exit status: 0 when every goal holds, 1 otherwise (so CI can run ``--quick``).
"""
from __future__ import annotations

import argparse
import math
import sys
import time

import mpmath as mp
import numpy as np

import adcli
from adcli.core import Variable
from adcli.functions import CALLABLE, PRIMITIVES

mp.mp.dps = 50

TINY = float(np.finfo(np.float64).tiny)   # smallest normal
HUGE = float(np.finfo(np.float64).max)    # largest finite
GOAL = {1: 4, 2: 16}                      # ulps, by derivative order
NOT_SWEPT = {"keep": "engine helper that pins conventions; not a function of its input"}
# (primitive, partial) scored relative to the derivative's condition number (see above).
COND_LIMITED = {("pow", (0, 1)), ("pow", (1, 0)), ("pow_log", (0,)), ("pow_diff", (1,))}
# Primitives that exist only inside backward rules: the lowest order of derivative of a
# callable function that each one's value is (sech2 is tanh', d2atan2 is a second partial
# of atan2). Their k-th derivative is held to the goal of that order plus k.
HELPER_ORDER = {"sech2": 1, "dsigmoid": 1, "one_minus_sq": 1, "unit": 1, "datan2": 1,
                "pow_diff": 1, "pow_log": 1, "d2atan2": 2, "pow_shift": 2,
                "dsech": 1, "d2sech": 2}

# ----- references: closed forms in mpmath ------------------------------------------------
# Each entry maps a partial (a tuple of argument indices; () is the value) to a function of
# mpf arguments. They are checked against mpmath's numerical differentiation by the tests.


def _sigmoid(x):
    return 1 / (1 + mp.exp(-x))


def _ds(x):        # sigmoid' = s (1 - s), written without cancellation
    return mp.exp(-abs(x)) / (1 + mp.exp(-abs(x))) ** 2


def _sech2(x):
    return mp.sech(x) ** 2


def _cbrt(x):
    return mp.sign(x) * mp.cbrt(abs(x))


def _pw(a, b, k):
    """a^(b - k) with b - k exact: at 50 digits 1e51 - 1 would round to 1e51, and the
    parity of a whole exponent decides the sign of a negative base's power."""
    return a ** mp.fsub(b, k, exact=True)


def unary(f, d1, d2):
    return {(): f, (0,): d1, (0, 0): d2}


def binary(f, da, db, daa, dab, dbb):
    return {(): f, (0,): da, (1,): db, (0, 0): daa, (0, 1): dab, (1, 0): dab, (1, 1): dbb}


LN10, LN2 = mp.log(10), mp.log(2)
R2 = lambda u, v: u * u + v * v  # noqa: E731

REFERENCES = {
    # operators
    "add": binary(lambda a, b: a + b, lambda a, b: 1, lambda a, b: 1,
                  lambda a, b: 0, lambda a, b: 0, lambda a, b: 0),
    "sub": binary(lambda a, b: a - b, lambda a, b: 1, lambda a, b: -1,
                  lambda a, b: 0, lambda a, b: 0, lambda a, b: 0),
    "mul": binary(lambda a, b: a * b, lambda a, b: b, lambda a, b: a,
                  lambda a, b: 0, lambda a, b: 1, lambda a, b: 0),
    "div": binary(lambda a, b: a / b, lambda a, b: 1 / b, lambda a, b: -a / b**2,
                  lambda a, b: 0, lambda a, b: -1 / b**2, lambda a, b: 2 * a / b**3),
    "neg": unary(lambda x: -x, lambda x: -1, lambda x: 0),
    "pow": binary(lambda a, b: a**b, lambda a, b: b * _pw(a, b, 1), lambda a, b: a**b * mp.log(a),
                  lambda a, b: b * (b - 1) * _pw(a, b, 2),
                  lambda a, b: _pw(a, b, 1) * (1 + b * mp.log(a)),
                  lambda a, b: a**b * mp.log(a)**2),
    # exponentials and logarithms
    "exp": unary(mp.exp, mp.exp, mp.exp),
    "log": unary(mp.log, lambda x: 1 / x, lambda x: -1 / x**2),
    "log10": unary(mp.log10, lambda x: 1 / (x * LN10), lambda x: -1 / (x**2 * LN10)),
    "log2": unary(lambda x: mp.log(x, 2), lambda x: 1 / (x * LN2), lambda x: -1 / (x**2 * LN2)),
    "log1p": unary(mp.log1p, lambda x: 1 / (1 + x), lambda x: -1 / (1 + x)**2),
    "expm1": unary(mp.expm1, mp.exp, mp.exp),
    "sqrt": unary(mp.sqrt, lambda x: 1 / (2 * mp.sqrt(x)), lambda x: -1 / (4 * x * mp.sqrt(x))),
    "cbrt": unary(_cbrt, lambda x: 1 / (3 * _cbrt(x)**2), lambda x: -2 / (9 * x * _cbrt(x)**2)),
    # trigonometric
    "sin": unary(mp.sin, mp.cos, lambda x: -mp.sin(x)),
    "cos": unary(mp.cos, lambda x: -mp.sin(x), lambda x: -mp.cos(x)),
    "tan": unary(mp.tan, lambda x: mp.sec(x)**2, lambda x: 2 * mp.tan(x) * mp.sec(x)**2),
    "sec": unary(mp.sec, lambda x: mp.sec(x) * mp.tan(x),
                 lambda x: mp.sec(x) * (mp.tan(x)**2 + mp.sec(x)**2)),
    "csc": unary(mp.csc, lambda x: -mp.csc(x) * mp.cot(x),
                 lambda x: mp.csc(x) * (mp.cot(x)**2 + mp.csc(x)**2)),
    "cot": unary(mp.cot, lambda x: -mp.csc(x)**2, lambda x: 2 * mp.csc(x)**2 * mp.cot(x)),
    "asin": unary(mp.asin, lambda x: 1 / mp.sqrt(1 - x**2), lambda x: x / (1 - x**2)**1.5),
    "acos": unary(mp.acos, lambda x: -1 / mp.sqrt(1 - x**2), lambda x: -x / (1 - x**2)**1.5),
    "atan": unary(mp.atan, lambda x: 1 / (1 + x**2), lambda x: -2 * x / (1 + x**2)**2),
    "atan2": binary(mp.atan2, lambda y, x: x / R2(x, y), lambda y, x: -y / R2(x, y),
                    lambda y, x: -2 * x * y / R2(x, y)**2,
                    lambda y, x: (y * y - x * x) / R2(x, y)**2,
                    lambda y, x: 2 * x * y / R2(x, y)**2),
    "hypot": binary(mp.hypot, lambda a, b: a / mp.hypot(a, b), lambda a, b: b / mp.hypot(a, b),
                    lambda a, b: b * b / mp.hypot(a, b)**3,
                    lambda a, b: -a * b / mp.hypot(a, b)**3,
                    lambda a, b: a * a / mp.hypot(a, b)**3),
    # hyperbolic
    "sinh": unary(mp.sinh, mp.cosh, mp.sinh),
    "cosh": unary(mp.cosh, mp.sinh, mp.cosh),
    "tanh": unary(mp.tanh, _sech2, lambda x: -2 * _sech2(x) * mp.tanh(x)),
    "asinh": unary(mp.asinh, lambda x: 1 / mp.sqrt(x**2 + 1), lambda x: -x / (x**2 + 1)**1.5),
    "acosh": unary(mp.acosh, lambda x: 1 / mp.sqrt(x**2 - 1), lambda x: -x / (x**2 - 1)**1.5),
    "atanh": unary(mp.atanh, lambda x: 1 / (1 - x**2), lambda x: 2 * x / (1 - x**2)**2),
    # piecewise (min and max split the gradient at a tie, as PyTorch does)
    "abs": unary(abs, mp.sign, lambda x: 0),
    "sign": unary(mp.sign, lambda x: 0, lambda x: 0),
    "min": binary(min, lambda a, b: 1 if a < b else (0.5 if a == b else 0),
                  lambda a, b: 1 if b < a else (0.5 if a == b else 0),
                  lambda a, b: 0, lambda a, b: 0, lambda a, b: 0),
    "max": binary(max, lambda a, b: 1 if a > b else (0.5 if a == b else 0),
                  lambda a, b: 1 if b > a else (0.5 if a == b else 0),
                  lambda a, b: 0, lambda a, b: 0, lambda a, b: 0),
    # reciprocal hyperbolic and inverse reciprocal trigonometric (acot is atan(1/x))
    "sech": unary(mp.sech, lambda x: -mp.sech(x) * mp.tanh(x),
                  lambda x: mp.sech(x) * (mp.tanh(x)**2 - mp.sech(x)**2)),
    "csch": unary(mp.csch, lambda x: -mp.csch(x) * mp.coth(x),
                  lambda x: mp.csch(x) * (mp.coth(x)**2 + mp.csch(x)**2)),
    "coth": unary(mp.coth, lambda x: -mp.csch(x)**2, lambda x: 2 * mp.csch(x)**2 * mp.coth(x)),
    "asec": unary(mp.asec, lambda x: 1 / mp.sqrt(x**4 - x**2),
                  lambda x: -(2 * x**3 - x) / (x**4 - x**2)**1.5),
    "acsc": unary(mp.acsc, lambda x: -1 / mp.sqrt(x**4 - x**2),
                  lambda x: (2 * x**3 - x) / (x**4 - x**2)**1.5),
    "acot": unary(lambda x: mp.atan(1 / x), lambda x: -1 / (1 + x**2),
                  lambda x: 2 * x / (1 + x**2)**2),
    "dsech": unary(lambda x: -mp.sech(x) * mp.tanh(x),
                   lambda x: mp.sech(x) * (mp.tanh(x)**2 - mp.sech(x)**2),
                   lambda x: mp.sech(x) * mp.tanh(x) * (5 * mp.sech(x)**2 - mp.tanh(x)**2)),
    "d2sech": unary(lambda x: mp.sech(x) * (mp.tanh(x)**2 - mp.sech(x)**2),
                    lambda x: mp.sech(x) * mp.tanh(x) * (5 * mp.sech(x)**2 - mp.tanh(x)**2),
                    lambda x: mp.sech(x) * (5 * mp.sech(x)**4 - 18 * mp.sech(x)**2
                                            * mp.tanh(x)**2 + mp.tanh(x)**4)),
    "sigmoid": unary(_sigmoid, _ds, lambda x: -_ds(x) * mp.tanh(x / 2)),
    "softplus": unary(lambda x: mp.log1p(mp.exp(x)), _sigmoid, _ds),
    # helper primitives used inside backward rules (adcli.functions says why each exists)
    "sech2": unary(_sech2, lambda x: -2 * _sech2(x) * mp.tanh(x),
                   lambda x: 4 * _sech2(x) * mp.tanh(x)**2 - 2 * _sech2(x)**2),
    "dsigmoid": unary(_ds, lambda x: -_ds(x) * mp.tanh(x / 2),
                      lambda x: _ds(x) * (mp.tanh(x / 2)**2 - 2 * _ds(x))),
    "one_minus_sq": unary(lambda x: 1 - x * x, lambda x: -2 * x, lambda x: -2),
    "unit": binary(lambda a, b: a / mp.hypot(a, b),
                   lambda a, b: b * b / mp.hypot(a, b)**3, lambda a, b: -a * b / mp.hypot(a, b)**3,
                   lambda a, b: -3 * a * b * b / mp.hypot(a, b)**5,
                   lambda a, b: b * (2 * a * a - b * b) / mp.hypot(a, b)**5,
                   lambda a, b: a * (2 * b * b - a * a) / mp.hypot(a, b)**5),
    "datan2": binary(lambda u, v: v / R2(u, v), lambda u, v: -2 * u * v / R2(u, v)**2,
                     lambda u, v: (u * u - v * v) / R2(u, v)**2,
                     lambda u, v: 2 * v * (3 * u * u - v * v) / R2(u, v)**3,
                     lambda u, v: 2 * u * (3 * v * v - u * u) / R2(u, v)**3,
                     lambda u, v: 2 * v * (v * v - 3 * u * u) / R2(u, v)**3),
    "d2atan2": binary(lambda u, v: (u * u - v * v) / R2(u, v)**2,
                      lambda u, v: 2 * u * (3 * v * v - u * u) / R2(u, v)**3,
                      lambda u, v: 2 * v * (v * v - 3 * u * u) / R2(u, v)**3,
                      lambda u, v: 6 * (u**4 - 6 * u * u * v * v + v**4) / R2(u, v)**4,
                      lambda u, v: 24 * u * v * (u * u - v * v) / R2(u, v)**4,
                      lambda u, v: -6 * (u**4 - 6 * u * u * v * v + v**4) / R2(u, v)**4),
    "pow_log": binary(lambda a, b: a**b * mp.log(a),
                      lambda a, b: _pw(a, b, 1) * (1 + b * mp.log(a)),
                      lambda a, b: a**b * mp.log(a)**2,
                      lambda a, b: _pw(a, b, 2) * (2 * b - 1 + b * (b - 1) * mp.log(a)),
                      lambda a, b: _pw(a, b, 1) * mp.log(a) * (2 + b * mp.log(a)),
                      lambda a, b: a**b * mp.log(a)**3),
    "pow_diff": binary(lambda a, b: b * _pw(a, b, 1), lambda a, b: b * (b - 1) * _pw(a, b, 2),
                       lambda a, b: _pw(a, b, 1) * (1 + b * mp.log(a)),
                       lambda a, b: b * (b - 1) * (b - 2) * _pw(a, b, 3),
                       lambda a, b: _pw(a, b, 2) * (2 * b - 1 + b * (b - 1) * mp.log(a)),
                       lambda a, b: _pw(a, b, 1) * mp.log(a) * (2 + b * mp.log(a))),
    "pow_shift": binary(lambda a, b: _pw(a, b, 1), lambda a, b: (b - 1) * _pw(a, b, 2),
                        lambda a, b: _pw(a, b, 1) * mp.log(a),
                        lambda a, b: (b - 1) * (b - 2) * _pw(a, b, 3),
                        lambda a, b: _pw(a, b, 2) * (1 + (b - 1) * mp.log(a)),
                        lambda a, b: _pw(a, b, 1) * mp.log(a)**2),
}


def reference(name, partial, args):
    """The true value as an mpf, or None where it is not a finite real number."""
    try:
        value = REFERENCES[name][partial](*[mp.mpf(float(a)) for a in args])
    except (ZeroDivisionError, ValueError, OverflowError):
        return None
    if not isinstance(value, (mp.mpf, int, float)):
        return None  # complex: outside the real domain
    value = mp.mpf(value)
    return value if mp.isfinite(value) else None


def condition_number(name, partial, args) -> mp.mpf:
    """(sum_i |x_i dg/dx_i|) / |g| of the derivative g, by 50-digit central differences."""
    g = REFERENCES[name][partial]
    xs = [mp.mpf(float(a)) for a in args]
    gx = g(*xs)
    total = mp.mpf(0)
    for i, x in enumerate(xs):
        h = abs(x) * mp.mpf(10) ** -25 if x else mp.mpf(10) ** -25
        up, down = list(xs), list(xs)
        up[i], down[i] = x + h, x - h
        total += abs(x * (g(*up) - g(*down)) / (2 * h))
    return total / abs(gx) if gx else mp.inf


def mp_diff(f, x: float, n: int) -> mp.mpf:
    """mpmath's n-th derivative with a step relative to |x| (its own ``relative=True``
    shrinks the step as |x| grows, so at x = 1e300 it returns 0)."""
    x = mp.mpf(x)
    h = mp.ldexp(abs(x) if x else mp.mpf(1), -mp.mp.prec - 10)
    return mp.diff(f, x, n, h=h)


# ----- the engine's results ---------------------------------------------------------------

def engine_derivatives(cls, args):
    """{partial: ndarray} for the value, the gradient and the second partials, computed as
    Expression.hessian computes them: gradient graph, then one reverse pass per input."""
    leaves = [Variable(np.asarray(a, dtype=np.float64)) for a in args]
    shape = np.broadcast_shapes(*(leaf.shape for leaf in leaves))
    out = {}
    with np.errstate(all="ignore"):
        y = cls()(*leaves)
        out[()] = np.broadcast_to(y.data, shape)
        y.backward(create_graph=True)
        grads = [leaf.grad for leaf in leaves]
        y.clear_grad()  # the seed: y may sit inside the gradient's graph
        for i, g in enumerate(grads):
            out[(i,)] = np.broadcast_to(0.0 if g is None else g.data, shape)
            for leaf in leaves:
                leaf.clear_grad()
            if g is not None and g.requires_grad:
                g.backward()
                g.clear_grad()
            for j, leaf in enumerate(leaves):
                second = 0.0 if g is None or leaf.grad is None else leaf.grad.data
                out[(i, j)] = np.broadcast_to(second, shape)
    return out


# ----- scoring ----------------------------------------------------------------------------

def ordered(x: float) -> int:
    """An integer that counts float64s: ordered(b) - ordered(a) is the number of ulps."""
    bits = int(np.float64(x).view(np.int64))
    return bits if bits >= 0 else -(bits & 0x7FFF_FFFF_FFFF_FFFF)


def ulps(got: float, true: mp.mpf) -> float:
    """Distance in ulps from the correctly rounded true value; inf for nan."""
    if true == 0:
        return 0.0 if got == 0 else math.inf
    if math.isnan(got):
        return math.inf
    return float(abs(ordered(got) - ordered(float(true))))


def scored(true) -> bool:
    """Only normal float64 results (and exact zeros) are held to the goal."""
    return true is not None and (true == 0 or TINY <= abs(true) <= HUGE)


class Worst:
    """The worst score seen for one (function, order), and where."""

    def __init__(self):
        self.score, self.raw, self.points = 0.0, 0.0, 0
        self.at = self.got = self.true = None
        self.unscaled = (0.0, None, 1.0)  # worst raw ulps of a COND_LIMITED entry: where, cond

    def add(self, score, raw, at, got, true):
        self.points += 1
        if score > self.score or self.at is None:
            self.score, self.raw, self.at, self.got, self.true = score, raw, at, got, true
        if score != raw and raw > self.unscaled[0]:
            self.unscaled = (raw, at, raw / score)

    def cell(self) -> str:
        if not self.points:
            return "-"
        return _fmt_ulps(self.score)


def _fmt_ulps(u: float) -> str:
    if math.isinf(u):
        return "inf"
    return f"{u:.0f}" if u < 1e5 else f"{u:.1e}"


# ----- samples -----------------------------------------------------------------------------

def unary_sample(quick: bool) -> np.ndarray:
    n = 60 if quick else 400
    with np.errstate(over="ignore"):  # geomspace's own intermediate at HUGE
        full = np.geomspace(TINY, HUGE, n)                    # the whole float64 range
    middle = np.geomspace(2.0**-30, 2.0**30, n)           # where most functions bend
    band = np.linspace(0.0, 760.0, n // 2 + 1)            # exp-like saturation
    k = np.arange(1, 54, 1 if not quick else 4)
    edges = np.concatenate([1 - 2.0**-k, 1 + 2.0**-k[:-1], 2.0**-k,
                            -1 + 2.0**-k, 0.5 * np.pi * np.arange(0, 9)])
    special = [20.0, 30.0, 40.0, 1e200, 1e-300, 0.9999999926, 1e-10, 1e10, 1e15, 1e22, 1e300]
    xs = np.concatenate([full, middle, band, edges, special, near_half_pi(quick)])
    return np.unique(np.concatenate([xs, -xs]))


def near_half_pi(quick: bool) -> np.ndarray:
    """The float64s m 2^e (m a 53-bit whole number) closest to a multiple of pi/2, from
    2^26 to the top of the range: m is a denominator of a continued-fraction convergent
    of 2^e/(pi/2), as the tester's search (hard3.py) found them."""
    points = []
    with mp.workdps(420):                  # 2^971/(pi/2) has 293 digits before the point
        for e in range(-26, 972, 24 if quick else 3):
            x, q0, q1 = mp.frac(mp.ldexp(1, e) / (mp.pi / 2)), 1, 0
            while q1 < 2**53 and x:
                a = int(x) if x >= 1 else 0
                q0, q1 = q1, a * q1 + q0
                if 2**52 <= q1 < 2**53:
                    points.append(math.ldexp(q1, e))
                x = 1 / (x - a) if x - a else 0
    return np.array(points)


def binary_sample(name: str, quick: bool) -> tuple[np.ndarray, np.ndarray]:
    m = 10 if quick else 36
    with np.errstate(over="ignore"):
        spread = np.geomspace(TINY, HUGE, m)
    mags = np.concatenate([spread, [0.5, 1.0, 1 + 2.0**-52, 2.0, 3.0, 0.1]])
    if name.startswith("pow"):
        a = np.concatenate([mags, 1 - 2.0**-np.arange(1, 54, 8), np.geomspace(1e-3, 1e3, m)])
        b = np.concatenate([mags, -mags, np.arange(-4.0, 11.0), [0.5, -0.5, 1 / 3, 2.5, 100.5],
                            np.geomspace(-1e-2, -1e-300, m // 2),
                            np.geomspace(1e-300, 1e-2, m // 2)])
        a, b = (g.ravel() for g in np.meshgrid(np.unique(a), np.unique(b)))
        # Negative bases with whole exponents, up to where b - 1 is no longer a float64
        # (its parity decides the sign).
        whole = np.array([-3.0, -1.0, 2.0, 3.0, 2.0**53, 1e16, 1e16 + 2, 1e51, 1e300])
        neg_a, neg_b = (g.ravel() for g in np.meshgrid(-np.unique(a), whole))
        a, b = np.concatenate([a, neg_a]), np.concatenate([b, neg_b])
        # Far outside float64's range (|b log |a|| > 3000) every result overflows or
        # underflows, and mpmath's powers of huge exponents are slow: leave those out.
        with np.errstate(over="ignore", invalid="ignore"):
            keep = np.abs(b * np.log(np.abs(a))) <= 3000
        return a[keep], b[keep]
    values = np.unique(np.concatenate([mags, -mags]))
    a, b = np.meshgrid(values, values)
    t = np.geomspace(TINY * 4, HUGE / 4, 2 * m)
    diag_a = np.concatenate([t, t, t, -t, t])
    diag_b = np.concatenate([t, t * (1 + 2.0**-52), -t, t * (1 - 2.0**-52), t * 1.5])
    return np.concatenate([a.ravel(), diag_a]), np.concatenate([b.ravel(), diag_b])


# ----- the sweep ------------------------------------------------------------------------------

def is_helper(name: str) -> bool:
    return not PRIMITIVES[name].callable and name not in ("add", "sub", "mul", "div", "neg")


def goal(name: str, order: int) -> float | None:
    return GOAL.get(order + helper_order(name))


def helper_order(name: str) -> int:
    """0 for a callable function or an operator; see HELPER_ORDER (1 if not listed)."""
    return HELPER_ORDER.get(name, 1) if is_helper(name) else 0


def sweep_primitive(name: str, quick: bool) -> dict[int, Worst]:
    cls = PRIMITIVES[name]
    args = (unary_sample(quick),) if cls.arity == 1 else binary_sample(name, quick)
    return score(name, args)


def score(name: str, args) -> dict[int, Worst]:
    """The worst score per order (0, 1, 2) of one primitive over points given as one array
    per argument."""
    args = [np.asarray(a, dtype=np.float64) for a in args]
    results = engine_derivatives(PRIMITIVES[name], args)
    worst = {order: Worst() for order in (0, 1, 2)}
    for index in range(len(args[0])):
        point = tuple(float(a[index]) for a in args)
        value = reference(name, (), point)
        if value is None or abs(value) > HUGE:
            continue  # outside the domain, or the function itself overflows
        for partial, computed in results.items():
            true = value if partial == () else reference(name, partial, point)
            if not scored(true):
                continue
            got = float(computed[index])
            raw = ulps(got, true)
            score = raw
            if (name, partial) in COND_LIMITED and 0 < raw < math.inf:
                score = raw / max(1.0, float(condition_number(name, partial, point)))
            worst[len(partial)].add(score, raw, (point, partial), got, true)
    return worst


# ----- n-th derivatives (--order) ----------------------------------------------------------

ORDER_CANDIDATES = [-30.0, -3.7, -1.2, -0.9999, -0.6, -1e-3, 1e-3, 0.3, 0.99, 1.001, 1.7, 4.0,
                    30.0]
ORDERS = range(2, 9)


def nth_derivative_errors(name: str, quick: bool) -> dict[int, float]:
    f_ref = REFERENCES[name][()]
    points = [x for x in ORDER_CANDIDATES if reference(name, (), (x,)) is not None]
    if quick:
        points = points[::3]
    expr = adcli.parse(f"{name}(x)")
    worst = {}
    for n in ORDERS:
        try:
            got = expr.derivative("x", order=n, x=np.array(points))
        except adcli.AdcliError:
            worst[n] = None  # refused: the graph would outgrow the --order budget
            continue
        errors = []
        for x, g in zip(points, got):
            true = mp_diff(f_ref, x, n)
            errors.append(float(abs((mp.mpf(float(g)) - true) / true)) if true else
                          (0.0 if g == 0 else math.inf))
        worst[n] = max(errors) if errors else None
    return worst


# Chains outer(inner(x)) whose intermediate u = inner(x) is rounded to float64 before the
# outer function sees it: the derivative outer'(u) inner'(x) then carries that rounding
# times cond = |u outer''(u) / outer'(u)|, whatever the rules do. Each entry: the chain's
# true value, inner, outer' and sample points.
CHAINS = {
    "log1p(expm1(x))": (lambda x: x, mp.expm1, lambda u: 1 / (1 + u),
                        [-30.0, -1.0, -1e-8, 1e-8, 1.0, 30.0, 300.0]),
    "expm1(log1p(x))": (lambda x: x, mp.log1p, mp.exp,
                        [-0.999, -0.5, -1e-8, 1e-8, 0.5, 1e3, 1e300]),
    "log(sigmoid(x))": (lambda x: -mp.log1p(mp.exp(-x)), _sigmoid, lambda u: 1 / u,
                        [-700.0, -30.0, -1.0, 1.0, 30.0]),
    "tanh(atanh(x))": (lambda x: x, mp.atanh, _sech2, [-0.999999, -0.5, 0.3, 0.9999999]),
}


def chain_errors() -> dict[str, tuple[float, float, float]]:
    """Per chain: the worst ulps, where, and cond at that point."""
    out = {}
    for text, (f_ref, inner, outer_slope, points) in CHAINS.items():
        got = adcli.parse(text).grad(x=np.array(points))["x"]
        worst = []
        for x, g in zip(points, got):
            u = inner(mp.mpf(x))
            cond = abs(u * mp_diff(outer_slope, u, 1) / outer_slope(u))
            worst.append((ulps(float(g), mp_diff(f_ref, x, 1)), x, float(cond)))
        out[text] = max(worst)
    return out


# ----- report ---------------------------------------------------------------------------------

def partial_text(partial) -> str:
    names = "ab"
    top = f"d{len(partial)}" if len(partial) > 1 else "d"
    return top + "/" + " ".join(f"d{names[i]}" for i in partial) if partial else "value"


def measure_text(name: str) -> str:
    limited = sorted({tuple(sorted(p)) for (n, p) in COND_LIMITED if n == name})
    if limited:
        return "ulps; " + ", ".join(partial_text(p) for p in limited) + ": ulps / cond"
    return "ulps"


def verdict(name: str, order: int, worst: Worst) -> str:
    g = goal(name, order)
    if g is None or not worst.points:
        return ""
    return "" if worst.score <= g else " ✗"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer points (CI)")
    parser.add_argument("--markdown", action="store_true", help="Markdown tables")
    parser.add_argument("--only", help="comma-separated primitive names")
    parser.add_argument("--no-orders", action="store_true", help="skip the --order table")
    opts = parser.parse_args(argv)
    names = sorted(n for n in PRIMITIVES if n not in NOT_SWEPT)
    if opts.only:
        names = [n for n in names if n in opts.only.split(",")]
    start = time.perf_counter()
    failures, rows = [], []
    for name in names:
        if name not in REFERENCES:
            failures.append(f"{name}: no mpmath reference in scripts/accuracy.py")
            continue
        worst = sweep_primitive(name, opts.quick)
        rows.append((name, worst))
        for order in (0, 1, 2):
            if verdict(name, order, worst[order]):
                w = worst[order]
                failures.append(f"{name} order {order}: {_fmt_ulps(w.score)} ulps at {w.at} "
                                f"(got {w.got!r}, true {mp.nstr(w.true, 17)})")
    print_sweep(rows, opts.markdown)
    if not opts.no_orders:
        print_orders([n for n in sorted(CALLABLE) if n in names and CALLABLE[n].arity == 1
                      and CALLABLE[n].name == n], opts)
        print_chains(opts.markdown)
    print(f"\n{time.perf_counter() - start:.0f} s", file=sys.stderr)
    for line in failures:
        print("GOAL MISSED:", line, file=sys.stderr)
    return 1 if failures else 0


def _table(header, rows, markdown):
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for row in rows:
            print("| " + " | ".join(row) + " |")
        return
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows)]
    for row in [header, *rows]:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)))


ORDINAL = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}


def print_sweep(rows, markdown):
    header = ["function", "value", "1st (goal 4)", "2nd (goal 16)", "measure", "worst 2nd at"]
    body = []
    for name, worst in rows:
        kind = " (helper)" if is_helper(name) else ""
        cells = [f"`{name}`{kind}" if markdown else f"{name}{kind}"]
        for order in (0, 1, 2):
            cell = worst[order].cell() + verdict(name, order, worst[order])
            if is_helper(name):
                cell += f" (is a {ORDINAL[order + helper_order(name)]})"
            cells.append(cell)
        at = worst[2].at[0] if worst[2].at else ""
        at = ", ".join(f"{a:.3g}" for a in at) if at else ""
        cells += [measure_text(name), at]
        body.append(cells)
    print("\nWorst error in ulps from the correctly rounded value, by function and order")
    _table(header, body, markdown)
    for name, worst in rows:
        for w in worst.values():
            raw, at, cond = w.unscaled
            if at is not None:
                point = ", ".join(f"{a:.17g}" for a in at[0])
                print(f"\n{name} {partial_text(at[1])}: scored relative to its condition number;"
                      f" unscaled, the worst is {_fmt_ulps(raw)} ulps at {point}, where the"
                      f" condition number is {cond:.3g}")


def print_orders(names, opts):
    header = ["function", *[f"order {n}" for n in ORDERS]]
    body = []
    for name in names:
        errs = nth_derivative_errors(name, opts.quick)
        body.append([f"`{name}`" if opts.markdown else name,
                     *["refused" if errs[n] is None else f"{errs[n]:.0e}" for n in ORDERS]])
    print("\nWorst relative error of the n-th derivative (adcli grad --order N)")
    _table(header, body, opts.markdown)


def print_chains(markdown):
    body = [[f"`{t}`" if markdown else t, _fmt_ulps(u), f"{x:.7g}", f"{cond:.1e}"]
            for t, (u, x, cond) in chain_errors().items()]
    print("\nChains through a rounded intermediate: worst first derivative")
    _table(["expression", "worst ulps", "at x", "cond there"], body, markdown)


if __name__ == "__main__":
    sys.exit(main())
