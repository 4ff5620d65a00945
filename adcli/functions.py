"""Every function and operator of the expression language, one class each.

A class is the whole definition: its name (and aliases), arity, forward on ndarrays,
backward on Variables, and the domain the tests sample it on. Defining the class registers
it; the parser finds functions by name here and the tests iterate over the registry.
Conventions at kinks and edges follow PyTorch (see the README).
"""
from __future__ import annotations

import contextlib
import contextvars
import functools
import math
import operator

import numpy as np

from .core import Function, Variable, as_variable, using_backprop

PRIMITIVES: dict[str, type[Primitive]] = {}  # every primitive, by name
CALLABLE: dict[str, type[Primitive]] = {}    # the names a user may call, aliases included
OPERATORS: dict[str, type[Primitive]] = {}  # an operator's spellings: "*", "×", "·", ...
CONSTANTS = {"pi": math.pi, "e": math.e}


class Primitive(Function):
    name = ""
    aliases: tuple[str, ...] = ()
    arity = 1
    callable = True                       # False for operators and engine helpers
    symbol = ""                           # an operator's printed form: "+", "*", "^"
    spellings: tuple[str, ...] = ()       # an operator's spellings in the language
    domain: tuple = ((-3.0, 3.0),)        # per argument: where tests sample it
    smooth_margin = 0.0                   # tests keep kink(args) above this margin
    kink_reason = ""                      # why kinks() marks a point, for warnings
    # Why its value can be nan or inf where its arguments are finite, for warnings.
    value_reason = "outside its domain, a pole, or overflow"
    # Why its derivative can be, where its value is finite.
    derivative_reason = "an edge of its domain or a vertical tangent"
    # Whether it has exact zeros at arguments that are finite and not 0 (x - x, log 1):
    # else a 0 from such arguments is an underflow (exp(-800), 1e-200 * 1e-200).
    exact_zeros = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        PRIMITIVES[cls.name] = cls
        if cls.callable:
            for name in (cls.name, *cls.aliases):
                CALLABLE[name] = cls
        for spelling in cls.spellings:
            OPERATORS[spelling] = cls

    @classmethod
    def label(cls) -> str:
        """How messages name it: 'log', or an operator's symbol in quotes ('/')."""
        return f"'{cls.symbol}'" if cls.symbol else cls.name

    def kinks(self, *xs):
        """Where the derivative shown is a convention, not a fact (a corner, a tie, a
        vertical tangent, a derivative formula used where the value is nan): a boolean
        mask over the points, or None where there are none. The evaluator collects it."""
        return None

    @staticmethod
    def kink(*xs):
        """How far inside the smooth part of the domain: the distance-like measure to the
        nearest kink, pole or edge (<= 0 on or beyond one). Tests sample away from them."""
        return np.inf

    @staticmethod
    def side(*xs):
        """Which side of its kinks and poles a point is on (None: no sides), so a test's
        difference stencil can tell when it straddles one."""
        return None

    @property
    def y(self) -> Variable:
        return self.output()

    def taylor(self, *series):
        """The output's Taylor series from the inputs' (see "Taylor series" at the end).

        This generic rule serves every function whose ``backward`` is built from
        primitives: y' = sum_i g_i x_i' with g_i = backward's gradients, run as series.
        A class overrides it with its classic recurrence where that is faster.
        """
        return _taylor_from_backward(self, series)


class _Ops:
    """``op.sin(x)`` applies a fresh Sin to x: how backward rules call other primitives."""

    def __getattr__(self, name):
        cls = PRIMITIVES[name]
        return lambda *xs: cls()(*xs)


op = _Ops()


class Flat(Function):
    """A quantity of the points that is not differentiated (a sign, a share at a tie, a
    mask): a constant of the graph, like a number read off the data, but computed by a
    call, so that a compiled gradient (kernel.py) replays it on new points instead of
    reusing the numbers of the points it was recorded on."""

    def __init__(self, rule):
        self.rule = rule

    def __call__(self, *inputs) -> Variable:
        with using_backprop(False):
            return super().__call__(*inputs)

    def forward(self, *xs): return self.rule(*xs)


def _flat(rule, *xs) -> Variable:
    return Flat(rule)(*xs)


# ----- operators ------------------------------------------------------------------------

_PLANE = ((-3.0, 3.0), (-3.0, 3.0))


class Add(Primitive):
    name, arity, callable = "add", 2, False
    exact_zeros = True
    value_reason = "overflow"
    symbol, spellings, dunder = "+", ("+",), "add"
    domain = _PLANE
    def forward(self, a, b): return a + b
    def backward(self, gy): return gy, gy
    def taylor(self, a, b): return _series_by(self, (a, b), lambda a, b: a + b)


class Sub(Primitive):
    name, arity, callable = "sub", 2, False
    exact_zeros = True
    value_reason = "overflow"
    symbol, spellings, dunder = "-", ("-", "\u2212"), "sub"  # U+2212: the minus sign
    domain = _PLANE
    def forward(self, a, b): return a - b
    def backward(self, gy): return gy, -gy
    def taylor(self, a, b): return _series_by(self, (a, b), lambda a, b: a - b)


class Mul(Primitive):
    name, arity, callable = "mul", 2, False
    value_reason = "overflow"
    symbol, spellings, dunder = "*", ("*", "\u00d7", "\u00b7", "\u22c5", "\\cdot", "\\times"), \
        "mul"  # × · ⋅ and LaTeX's
    domain = _PLANE
    def forward(self, a, b): return a * b
    def backward(self, gy):
        a, b = self.inputs  # constants (2*x) get no gradient: a quarter of a typical graph
        return gy * b if a.requires_grad else None, gy * a if b.requires_grad else None
    def taylor(self, a, b): return _series_by(self, (a, b), _product)


class Div(Primitive):
    name, arity, callable = "div", 2, False
    value_reason = "a division by 0, or overflow"
    symbol, spellings, dunder = "/", ("/", "\u00f7", "\\div"), "truediv"  # ÷, LaTeX's
    # (b = 0 is the rule's one edge: its 1/b or y/b beyond the float range at any other b,
    # a subnormal exp(-720) or 1e-200 for 1/x's -1/x^2, is an overflow: diagnostics.inside)
    derivative_reason = "a divisor of 0"
    domain = ((-3.0, 3.0), (0.5, 3.0))
    def forward(self, a, b): return a / b
    def backward(self, gy):
        a, b = self.inputs
        return (gy / b if a.requires_grad else None,
                -gy * self.y / b if b.requires_grad else None)
    def taylor(self, a, b): return _div_series(self, a, b)


class Neg(Primitive):
    name, callable = "neg", False
    symbol = "-"
    def forward(self, x): return -x
    def backward(self, gy): return -gy
    def taylor(self, x): return _series_by(self, (x,), lambda x: -x)


class Keep(Primitive):
    """x where ``keep`` is not 0, else exactly 0 (even where x is nan): pins conventions.
    ``keep`` is a mask of the points (made by ``Flat``), never differentiated."""
    name, arity, callable = "keep", 2, False
    domain = ((-3.0, 3.0), (-1.0, 1.0))
    def forward(self, x, keep): return np.where(keep, x, 0.0)
    def backward(self, gy): return Keep()(gy, self.inputs[1]), None
    def taylor(self, x, keep):
        return _series_by(self, (x, keep), lambda x, keep: np.where(keep[:1], x, 0.0))


# (pow's, and that of the helpers in its rules, which messages name '^')
POW_DERIVATIVE = ("a base of 0 or less, whose ln the exponent's derivative takes, or 0 to a "
                  "power below 1, a vertical tangent, or 1 to a power of ±inf or nan, whose "
                  "slope in the base, the exponent, is not finite")


class Pow(Primitive):
    name, arity = "pow", 2
    value_reason = ("a negative base to a fractional power (cbrt(x) for a real cube root, "
                    "sign(x)*abs(x)^(1/n) for another odd root), 0 "
                    "to a negative power, or overflow")
    symbol, spellings, dunder = "^", ("^", "**"), "pow"
    domain = ((0.2, 3.0), (-3.0, 3.0))
    kink_reason = "a fractional power of 0, an edge of its domain"
    derivative_reason = POW_DERIVATIVE

    def kinks(self, a, b):
        # 0^b for b > 0 not whole: one-sided, with a vertical tangent when b < 1.
        if b.ndim == 0:  # a constant exponent: one pass over a (x^1.5), or none (x^2)
            e = float(b)
            return a == 0 if e > 0 and math.isfinite(e) and not e.is_integer() else None
        zero = a == 0
        return zero & (b > 0) & (b != np.floor(b)) if zero.any() else zero

    def forward(self, a, b): return _power(a, b)

    def backward(self, gy):
        a, b = self.inputs
        ga = gb = None
        # x^0 with a constant 0 is the constant 1: no graph, so higher derivatives are 0.
        if a.requires_grad and (b.requires_grad or b.data.any()):
            ga = gy * PowDiff(1)(a, b)  # b a^(b-1)
            # d/da a^b is 0 where a == b == 0 (PyTorch's convention; 0 * 0^-1 would be nan).
            ga = _pin_zero(ga, (a, _is_zero), (b, _is_zero))
        if b.requires_grad:  # a constant exponent gets no gradient (no log of a < 0 either)
            # d/db a^b = a^b log a, taken as 0 where a == 0 and b > 0 (0^b is flat in b).
            # Pinned only where the product is not 0 already, so that an a^b that merely
            # underflows keeps its (normal) mixed second derivative; not at a < 0, where
            # a^b that underflowed ((-1e-200)^202) has no real slope in b, as elsewhere.
            gb = _pin_zero(gy * op.pow_log(a, b), (self.y, _is_zero), (b, _is_positive),
                           (a, _is_zero))
        return ga, gb

    def taylor(self, a, b): return _pow_series(self, a, b)


class _Inside:
    """A helper primitive that exists only inside other functions' backward rules: messages
    (a derivative that went nan or inf) name those functions, not the helper, and a printed
    rule (adcli trace) shows ``spelled``, the helper written in the expression language."""
    inside = ""

    @classmethod
    def label(cls) -> str:
        return cls.inside

    def spelled(self, *xs: Variable) -> Variable:
        raise NotImplementedError


class PowDiff(_Inside, Primitive):
    """d^k/da^k a^b = b (b-1) ... (b-k+1) a^(b-k), exactly 0 where a factor b - i is 0.
    One primitive, because pow(a, b - k) would round b - k and multiply that error by
    |log a| (600 ulps at a = 1e-150), and a^(b-k) alone overflows where b a^(b-k) does
    not (b near 0, a below 1e-154)."""
    name, arity, callable, inside = "pow_diff", 2, False, "'^'"
    exact_zeros = True      # x^1's second derivative
    derivative_reason = POW_DERIVATIVE
    domain = ((0.2, 3.0), (-3.0, 3.0))

    def __init__(self, order: int = 1):
        self.order = order

    def spelled(self, a, b):
        k = self.order
        if b.creator is None and not b.name and np.ndim(b.data) == 0:
            # A number (x^3): its factor and exponent worked out, as one writes 3·v1^2
            # (not (v1^2)·3), v1 for v1^1 and no power at all for v1^0.
            c = math.prod(float(b.data) - i for i in range(k))
            e = float(b.data) - k
            return c * (a if e == 1 else a ** e) if e else Variable(np.asarray(c))
        factors = [b - float(i) if i else b for i in range(k)]
        return functools.reduce(operator.mul, factors) * a ** (b - float(k))

    def forward(self, a, b):
        if np.ndim(b) == 0:  # a constant exponent such as x^3: c is worked out once
            c = _constant_exponent(b, self.order)[0]
            if c == 0:
                return np.zeros(np.shape(a))
            y = _times_power(c, a, b, self.order)
        else:
            c = _falling(b, self.order)
            y = np.where(c == 0, 0.0, _times_power(c, a, b, self.order))
        huge = ~np.isfinite(c)
        if not huge.any():
            return y
        # (b)_k overflowed (|b| > 1e154 or so) or b is ±inf: where a^(b-k) is 0 all the
        # same (0^(b-k), 0.5^1e200, 2^-inf), the product is 0, not inf * 0: a^(b-k) shrinks
        # like e^(b log |a|), with |log |a|| > 1e-16 for a float |a| != 1, far faster than
        # (b)_k grows; at b = ±inf that is the limit.
        return np.where(huge & (_times_power(1.0, a, b, self.order) == 0), 0.0, y)

    def backward(self, gy):
        a, b = self.inputs
        k = self.order
        ga = gb = None
        if a.requires_grad and (b.requires_grad or _falling(b.data, k + 1).any()):
            ga = gy * PowDiff(k + 1)(a, b)
        if b.requires_grad:  # the product rule on (b)_k a^(b-k); 0^(b-k) is flat in b,
            log = op.log(a)  # and inf^(b-k) for b < k tends to 0 against its log
            # at a = 1, (b)_k a^(b-k) log a is 0 for every finite b: so at b = ±inf, where
            # (b)_k is inf, not inf * 0. (The inf factor is pinned, not the product: a 0
            # handed back to the product would meet it again, 0 * inf, one order up.)
            y = _pin_zero(self.y, (log, _is_zero), (self.y, _is_infinite))
            flat = _pin_zero(y * log, (self.y, _is_zero), (log, _is_infinite))
            gb = gy * (_slope_times_shift(a, b, k) + flat)
        return ga, gb


def _slope_times_shift(a: Variable, b: Variable, k: int) -> Variable:
    """d/db (b)_k times a^(b-k): 0 where a^(b-k) is 0 and the slope is not finite (b = ±inf,
    or |b| above 1e154 at k = 3), as in PowDiff.forward: the power shrinks far faster. (The
    slope is pinned, not the product, for the reason PowDiff.backward's flat term is.)"""
    shift = PowShift(k)(a, b)
    if k == 1:
        return shift
    slope = _falling_slope(b, k)
    return _pin_zero(slope, (shift, _is_zero), (slope, _not_finite)) * shift


class PowShift(_Inside, Primitive):
    """a^(b - k) for a whole k, from the exact b (see PowDiff)."""
    name, arity, callable, inside = "pow_shift", 2, False, "'^'"
    derivative_reason = POW_DERIVATIVE
    domain = ((0.2, 3.0), (-3.0, 3.0))

    def __init__(self, shift: int = 1):
        self.shift = shift

    def forward(self, a, b): return _times_power(1.0, a, b, self.shift)
    def spelled(self, a, b): return a ** (b - float(self.shift))

    def backward(self, gy):
        a, b = self.inputs
        k = self.shift
        ga = gb = None
        if a.requires_grad and (b.requires_grad or (b.data != k).any()):
            shift = PowShift(k + 1)(a, b)
            # (b - k) a^(b-k-1) at b = ±inf where the power is 0 (0.5^inf): its limit 0
            factor = _pin_zero(b - float(k), (shift, _is_zero), (b, _is_infinite))
            ga = _pin_zero(gy * factor * shift,
                           (b, lambda v: v == k), (a, _is_zero))  # as in Pow
        if b.requires_grad:
            gb = _pin_zero(gy * self.y * op.log(a), (self.y, _is_zero), (b, lambda v: v > k),
                           (a, _not_positive))
        return ga, gb


class PowLog(_Inside, Primitive):
    """a^b log a = d/db a^b, also where a^b alone is subnormal and has lost digits."""
    name, arity, callable, inside = "pow_log", 2, False, "'^'"
    exact_zeros = True
    derivative_reason = POW_DERIVATIVE
    domain = ((0.2, 3.0), (-3.0, 3.0))

    def forward(self, a, b):
        log = np.log(a)
        y = _times_power(log, a, b, 0)
        ends = np.isinf(log)
        if not ends.any():
            return y
        # a = 0 or inf, where a^b is 0 (0^b for b > 0, inf^b for b < 0): a power outruns
        # a log, so the limit is 0, not 0 * inf
        return np.where(ends & (np.power(a, b) == 0), 0.0, y)

    def spelled(self, a, b): return a ** b * op.log(a)

    def backward(self, gy):
        a, b = self.inputs  # d/da = a^(b-1) (1 + b log a), d/db = a^b log^2 a
        ga = None
        # Where a^(b-1) is 0 and 1 + b log a is not finite for an a >= 0, 0 * inf, the
        # limit 0 is taken: a power outruns a log (a == 0 < b - 1, 0.5^inf, 2^-inf, and
        # inf^b for b < 1, 1 + 0 * inf at b = 0 included).
        if a.requires_grad:  # (steps made in the order of the one product they were)
            shift = PowShift(1)(a, b)
            scaled = gy * shift
            # b log a at a = 1 is 0 for every finite b: so at b = ±inf too, not inf * 0
            log = op.log(a)
            factor = 1.0 + _pin_zero(b, (log, _is_zero), (b, _is_infinite)) * log
            ga = _pin_zero(scaled * factor, (shift, _is_zero), (factor, _not_finite),
                           (a, _not_negative))
        # Pow takes a^b log a as 0 where a == 0 < b (0^b is flat in b): so is its slope in
        # b. So too at a = inf, b < 0, where a^b log a and a^b log^2 a tend to 0.
        gb = None
        if b.requires_grad:
            scaled = gy * self.y
            log = op.log(a)
            gb = _pin_zero(scaled * log, (self.y, _is_zero), (log, _is_infinite))
        return ga, gb


def _power(a, b):
    if b.ndim == 0 and float(b).is_integer():
        # libm's pow is ~20x slower for negative bases; |a|^k with the sign put back
        # is the same correctly rounded number.
        y = np.power(np.abs(a), b)
        return np.copysign(y, a) if float(b) % 2 else y
    return np.power(a, b)


def _times_power(c, a, b, k: int):
    """c a^(b - k), accurate from the exact b: the rounding of b - k is put back, and
    where a^(b-k) alone is not a normal float64 the product is taken as (c h) h with
    h = a^((b-k)/2)."""
    if np.ndim(b) == 0:
        _, linear, d, lost, inexact = _constant_exponent(b, k)
        if linear:  # x^2 -> 2x: one rounding, also where a is subnormal
            return c * a
    else:
        d, lost = two_sum(b, -float(k))  # b - k = d + lost exactly
        inexact = None

    def power(d, lost, inexact=None):  # a^(d + lost) = a^d a^lost
        y = _power(a, d)
        if not (lost.any() if inexact is None else inexact):  # b - k was exact: x^3
            return y
        # (lost is nan where b is ±inf or nan, two_sum's inf - inf: a^d needs no fix there)
        fix = (np.abs(lost) > 0) & np.isfinite(y)
        # a > 0: a^lost = 1 + lost log a, as |lost log a| < 1e-13 wherever a^d is finite.
        # a < 0: b is whole (else a^b is nan), so lost is a small whole number that can
        # flip the sign: (-1)^(1e16 - 1) is -1, though b - 1 rounds to 1e16.
        positive = a > 0
        log = np.log(np.where(fix & positive, a, 1.0))
        return np.where(fix & positive, y + y * (lost * log),
                        np.where(fix & (a < 0), y * np.power(a, np.where(fix, lost, 0.0)), y))

    y = power(d, lost, inexact)
    if _all_normal(y):  # no split
        return c * y
    size = np.abs(y)
    split = (a > 0) & ~((size >= _TINY) & (size <= _HUGE))
    h = power(0.5 * d, 0.5 * lost)
    return np.where(split, c * h * h, c * y)


def _all_normal(y) -> bool:
    if y.size == 1:  # one point (a polynomial of 10^4 terms): two numpy reductions cost more
        return _TINY <= abs(y.item()) <= _HUGE
    if not y.size:
        return False
    low = y.min()
    if low >= _TINY:  # all positive (x^2.5, |x|^3): no pass to take |y|
        return y.max() <= _HUGE
    size = np.abs(y)
    return size.min() >= _TINY and size.max() <= _HUGE


_exponents: dict = {}


def _constant_exponent(b, k: int) -> tuple:
    """For a 0-d exponent b: ((b)_k, whether b - k is exactly 1, and b - k = d + lost
    exactly with whether lost is not 0), worked out once per (b, k), not per call."""
    key = (b.tobytes(), k)
    known = _exponents.get(key)
    if known is None:
        if len(_exponents) > 4096:  # exponents come from expressions: few, but unbounded
            _exponents.clear()
        d, lost = two_sum(b, -float(k))
        known = _exponents[key] = (_falling(b, k), bool(b - k == 1), d, lost,
                                   bool(np.any(lost)))
    return known


_TINY, _HUGE = np.finfo(np.float64).tiny, np.finfo(np.float64).max


def two_sum(a, b):
    """a + b rounded, and the rounding error: exactly a + b = s + err (Knuth)."""
    s = a + b
    bv = s - a
    return s, (a - (s - bv)) + (b - bv)


def two_product(a, b):
    """a b rounded, and the rounding error: exactly a b = p + err (Dekker; |a|, |b| far
    from overflow and underflow)."""
    p = a * b
    (ah, al), (bh, bl) = _halves(a), _halves(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def exact_step(function, xs: list, y, value_only: bool = True) -> np.ndarray | bool:
    """Where float64's step y = function(*xs) (a Function, or its class) is its exact
    result on those arguments: the rounding error of + - (TwoSum) and * (Dekker's product)
    is 0, / is undone exactly by *, ^ of whole numbers is a whole number below 2^52 (where
    pow, faithful to under an ulp, cannot be off by one; so are its rules' b·a^(b-1) and
    a^(b-1)), - | | sign min max always, as are the steps that pick or mask (Keep, Flat: a
    share is 0, 1/2 or 1), and a function whose arguments are 0 or ±1 and whose value is 0,
    ±1/4, ±1/2 or ±1 (cos 0, log 1, sqrt 1, sigmoid 0, atan's rule's 1/(0^2 + 1^2): the
    others' values there are far from such numbers, e and π/4); any other function's is
    taken to round. (check's
    rounding bound, adcli.rounding's nudges: a share moved off 1 made max(0, x)*y's d/dx
    at -2, an exact 0, 3*(1 - share) = 2.7e-15; cos 0 moved, cos(x) - 1 at 0 another.)
    Not ``value_only``: y is a Taylor series' row 0, and the later rows are asked about
    too, which a function's simple value says nothing of (exp 0 = 1, its row 3 1/6)."""
    kind = function if isinstance(function, type) else type(function)
    with np.errstate(all="ignore"):
        if issubclass(kind, (Neg, Abs, Sign, Min, Max, Keep, Flat)):
            return True
        if issubclass(kind, (Add, Sub)):
            _, error = two_sum(xs[0], xs[1] if issubclass(kind, Add) else -xs[1])
            return np.isfinite(y) & (error == 0)
        if issubclass(kind, Mul):
            return _product_exact(xs[0], xs[1])[1]
        if issubclass(kind, Div):
            back, exact = _product_exact(y, xs[1])
            return exact & (back == xs[0])
        if issubclass(kind, (Pow, PowDiff, PowShift)):
            whole = (xs[0] == np.round(xs[0])) & (xs[1] == np.round(xs[1]))
            whole = whole & (y == np.round(y)) & (np.abs(y) < 2.0 ** 52)
            return whole | _power_exact(xs[0], xs[1], y) if issubclass(kind, Pow) else whole
        if issubclass(kind, Sqrt):
            return _power_exact(xs[0], 0.5, y)
        if value_only and issubclass(kind, Hypot):
            return _hypot_exact(xs[0], xs[1], y)
        if issubclass(kind, Log2):  # a power of two's: log2(8) - 3
            whole = np.isfinite(y) & (y == np.round(y)) & (np.abs(y) < 1100)
            return whole & (np.ldexp(1.0, np.where(whole, y, 0).astype(int)) == xs[0])
        if value_only and issubclass(kind, Primitive):
            simple = np.isin(y, _SIMPLE_VALUES)
            for x in xs:
                simple = simple & np.isin(x, _SIMPLE_ARGUMENTS)
            return simple
    return False


_SIMPLE_ARGUMENTS = (0.0, 1.0, -1.0)
_SIMPLE_VALUES = (0.0, 0.25, -0.25, 0.5, -0.5, 1.0, -1.0)


def _power_exact(a, b, y) -> np.ndarray:
    """Where y = a^b exactly, for b = 2, 3 or 4 (a product of a's with no rounding error:
    0.5^2 - 0.25 is 0 with no step rounded) or 1/2 (y y is a exactly: sqrt(9) - 3)."""
    a, b, y = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (a, b, y)))
    back, exact = _product_exact(y, y)
    exact = exact & (b == 0.5) & (back == a)
    power, ok = a, True
    for k in (2.0, 3.0, 4.0):
        power, step = _product_exact(power, a)
        ok = ok & step
        exact = exact | ((b == k) & ok & (power == y))
    return exact


def _hypot_exact(a, b, y) -> np.ndarray:
    """Where y = hypot(a, b) exactly: y y = a a + b b with every product and the sum
    exact (hypot(3, 4) - 5), or one side 0 (hypot(x, 0) is |x|)."""
    a, b, y = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (a, b, y)))
    square_a, exact_a = _product_exact(a, a)
    square_b, exact_b = _product_exact(b, b)
    square_y, exact_y = _product_exact(y, y)
    total, error = two_sum(square_a, square_b)
    exact = exact_a & exact_b & exact_y & (error == 0) & (total == square_y)
    return exact | ((b == 0) & (y == np.abs(a))) | ((a == 0) & (y == np.abs(b)))


def _product_exact(a, b):
    """(fl(a b), where it is a b exactly): Dekker's TwoProduct error is 0. Its splits
    overflow near float64's top and its error terms underflow near the bottom, so there
    (and at a 0) the factors' significands are multiplied instead (_scaled_exact): taking
    such products as inexact doubted 2*x at 5e299, whose cos(2*x) has every digit."""
    p, error = two_product(a, b)
    safe = (np.abs(a) < 2.0 ** 995) & (np.abs(b) < 2.0 ** 995) & (np.abs(p) < 2.0 ** 995) \
        & (np.abs(p) > 2.0 ** -968)
    exact = safe & (error == 0)
    if np.all(safe):  # (the common case: one pass, as before)
        return p, exact
    return p, exact | (~safe & _scaled_exact(a, b, p))


def _scaled_exact(a, b, p):
    """Where a b = p exactly, for any a, b: a = ma 2^ea, b = mb 2^eb with |ma|, |mb| in
    [1/2, 1), whose product Dekker takes exactly; a b is then exact where ma mb is and
    scaling it by 2^(ea + eb) loses no bit (a finite result: normal, or below normal with
    its low bits 0, as 0.5*x at 2e-295 or 2^-1070*0.5)."""
    (ma, ea), (mb, eb) = np.frexp(a), np.frexp(b)
    m, error = two_product(ma, mb)
    e = ea + eb
    return np.isfinite(p) & (error == 0) & (np.ldexp(np.ldexp(m, e), -e) == m)


def _halves(a):
    """a = high + low, each with 26 significant bits or fewer (Veltkamp)."""
    c = 134217729.0 * a  # 2^27 + 1
    high = c - (c - a)
    return high, a - high


def _cbrt(x):
    """The cube root to within 0.51 ulp on any platform: glibc's cbrt (numpy's on CPUs
    without AVX-512) is up to 3 ulps off, and cbrt' = 1/(3 y^2) doubles that. One Newton
    step from libm's root m^(1/3), m = x 2^-3q in [0.5, 4), with m - y^3 taken exactly."""
    special = (x == 0) | ~np.isfinite(x)  # 0, inf and nan are their own cube roots
    f, e = np.frexp(np.where(special, 1.0, np.abs(x)))
    q, r = np.divmod(e, 3)
    m = np.ldexp(f, r)
    y = np.cbrt(m)
    square, square_err = two_product(y, y)
    cube, cube_err = two_product(square, y)
    residual = (cube - m) + (cube_err + square_err * y)  # y^3 - m; cube - m is exact
    y = np.ldexp(y - residual / (3.0 * square), q)
    return np.where(special, x, np.copysign(y, x))


def _falling(b, k: int):
    """b (b-1) ... (b-k+1) on arrays (1 for k = 0)."""
    c = np.ones_like(b)
    for i in range(k):
        c = c * (b - i)
    return c


def _falling_slope(b: Variable, k: int):
    """d/db of b (b-1) ... (b-k+1), on Variables: the sum over i of the product without b - i."""
    if k == 1:
        return 1.0
    terms = [math.prod([b - float(j) for j in range(k) if j != i]) for i in range(k)]
    return sum(terms[1:], terms[0])


def _pin_zero(g: Variable, *conditions) -> Variable:
    """g, but exactly 0 at the points where every (x, test) holds: a convention at an edge.
    A constant that never passes its test decides it here (b = 2 is never 0); otherwise
    the mask is a Flat step, computed from the values wherever the rule is run."""
    if any(not x.requires_grad and not np.any(test(x.data)) for x, test in conditions):
        return g
    xs, tests = zip(*conditions)
    return Keep()(g, _flat(_kept(tests), *xs))


class _kept:
    """The rule of a pin's mask: True where not every test holds (the gradient is kept).
    Its tests stay readable: trace says a pin's convention in words from them."""

    def __init__(self, tests):
        self.tests = tests

    def __call__(self, *values):
        return ~functools.reduce(np.logical_and, [t(v) for t, v in zip(self.tests, values)])


def _is_zero(x): return x == 0
def _is_positive(x): return x > 0
def _not_positive(x): return ~(x > 0)
def _not_negative(x): return x >= 0
def _is_infinite(x): return np.isinf(x)
def _not_finite(x): return ~np.isfinite(x)


_is_zero.said, _is_positive.said, _not_positive.said = "= 0", "> 0", "≤ 0"  # (for trace)
_not_negative.said, _is_infinite.said, _not_finite.said = "≥ 0", "= ±inf", "= ±inf or nan"


# ----- exponentials and logarithms ------------------------------------------------------

class Exp(Primitive):
    name = "exp"
    value_reason = "overflow"
    def forward(self, x): return np.exp(x)
    def backward(self, gy): return gy * self.y
    def taylor(self, x): return _exp_series(self, x)


class Log(Primitive):
    name, aliases = "log", ("ln",)
    exact_zeros = True
    value_reason = "a negative argument gives nan, 0 gives -inf"
    domain = ((0.1, 10.0),)
    kink = staticmethod(lambda x: x)
    kink_reason = "a negative argument, where the value is nan"
    def kinks(self, x): return x < 0
    def forward(self, x): return np.log(x)
    def backward(self, gy): return gy / self.inputs[0]
    def taylor(self, x): return _log_series(self, x)


_INV_LN10 = 0.4342944819032518    # 1/ln 10 correctly rounded (1/math.log(10) is 1 ulp low)
_INV_LN2 = 1.4426950408889634     # 1/ln 2 correctly rounded


class Log10(Primitive):
    name = "log10"
    exact_zeros = True
    value_reason = "a negative argument gives nan, 0 gives -inf"
    domain = ((0.1, 10.0),)
    kink = staticmethod(lambda x: x)
    kink_reason = "a negative argument, where the value is nan"
    def kinks(self, x): return x < 0
    def forward(self, x): return np.log10(x)
    # (1/ln 10 over x, not 1 over x·ln 10: x·ln 10 overflows past 7.8e307, where the
    # derivative is ~2.4e-309, not 0; and with 1/ln 10 correctly rounded the result is
    # correctly rounded at ~84% of x and at most 1 ulp off, against ~43% and 2 ulps.)
    def backward(self, gy): return gy * (_INV_LN10 / self.inputs[0])


class Log2(Primitive):
    name = "log2"
    exact_zeros = True
    value_reason = "a negative argument gives nan, 0 gives -inf"
    domain = ((0.1, 10.0),)
    kink = staticmethod(lambda x: x)
    kink_reason = "a negative argument, where the value is nan"
    def kinks(self, x): return x < 0
    def forward(self, x): return np.log2(x)
    def backward(self, gy): return gy * (_INV_LN2 / self.inputs[0])   # (as log10's: fewer ulps)


class Log1p(Primitive):
    name = "log1p"
    value_reason = "an argument below -1 gives nan, -1 gives -inf"
    domain = ((-0.9, 5.0),)
    kink = staticmethod(lambda x: x + 1.0)
    kink_reason = "an argument below -1, where the value is nan"
    def kinks(self, x): return x < -1
    def forward(self, x): return np.log1p(x)
    def backward(self, gy): return gy / (self.inputs[0] + 1.0)


class Expm1(Primitive):
    name = "expm1"
    value_reason = "overflow"
    def forward(self, x): return np.expm1(x)
    def backward(self, gy): return gy * op.exp(self.inputs[0])  # y + 1 rounds to 0 below -37
    def taylor(self, x): return _riccati_series(self, x, lambda _: np.exp(x[0]), 1.0, 0.0)


class Sqrt(Primitive):
    name = "sqrt"
    value_reason = "a negative argument"
    domain = ((0.1, 10.0),)
    kink = staticmethod(lambda x: x)
    kink_reason = "an argument of 0, the edge of its domain, with a vertical tangent"
    def kinks(self, x): return x == 0
    def forward(self, x): return np.sqrt(x)
    def backward(self, gy): return gy / (2.0 * self.y)  # inf at 0, as in PyTorch
    def taylor(self, x): return _sqrt_series(self, x)


class Cbrt(Primitive):
    name = "cbrt"
    domain = ((-8.0, 8.0),)
    smooth_margin = 0.1
    kink = staticmethod(lambda x: np.abs(x))
    side = staticmethod(lambda x: x > 0)
    kink_reason = "an argument of 0, with a vertical tangent"
    def kinks(self, x): return x == 0
    def forward(self, x): return _cbrt(x)
    def backward(self, gy): return gy / (3.0 * self.y * self.y)
    def taylor(self, x): return _cbrt_series(self, x)


# ----- trigonometric --------------------------------------------------------------------

# glibc's sin and cos (numpy's float64 np.sin and np.cos) reduce x by pi/2 accurately only
# up to 105414350: past it they are up to 137,000 ulps off where the result is tiny, x next
# to a multiple of pi/2 (cos(1.5986289000543612e+74)). Long double's sinl and cosl reduce
# exactly (within half an ulp of float64 at 2,446 such points up to 1.6e308), so points
# past FAR are computed again there. Where long double is float64 itself (Windows, macOS on
# ARM), or its sinl is no better, FAR is inf: nothing cheap can be done.
FAR = 2.0**26


class Reduced:
    """np.sin or np.cos with the points past FAR from long double: ``reduced(np.sin)``
    calls it, or ``into(x, out=...)`` as the ufunc writes into a buffer (out may be x's
    own). Where no point is that far, it costs a max and a min over the points (``far``;
    a caller that knows already passes it in)."""

    def __init__(self, ufunc):
        self.ufunc = ufunc

    def __call__(self, x):
        if not self.far(x):
            return self.ufunc(x)
        y = self.into(np.asarray(x), np.empty(np.shape(x)), far=True)
        return y if np.ndim(x) else y[()]

    @staticmethod
    def far(x) -> bool:
        """Whether some float64 x is past FAR (or nan, which the mask then leaves out)."""
        x = np.asarray(x)
        if x.dtype != np.float64:
            return False
        if x.size == 1:  # one point (a 10^4-term sum's sin at each): no reductions
            return not -FAR <= x.item() <= FAR
        return x.size > 0 and not (x.max() <= FAR and x.min() >= -FAR)

    def into(self, x, out, far: bool | None = None):
        if not (self.far(x) if far is None else far):
            return self.ufunc(x, out=out)
        far = (np.abs(x) > FAR) & np.isfinite(x)   # inf: nan either way, flagged once
        wide = self.ufunc(x[far].astype(np.longdouble))  # before out overwrites x
        self.ufunc(x, out=out)
        out[far] = wide
        return out


def reduced(ufunc):
    """Reduced(ufunc) as a plain function (with its far, into and ufunc): an array of one
    near 0 goes straight to the ufunc, a Python call and the checks inline. 100,000 nested
    sin(...) take it 200,000 times: the class's call cost them ~0.45 us each, this ~0.2."""
    whole, array, float64 = Reduced(ufunc), np.ndarray, np.dtype(np.float64)

    def call(x):
        if x.__class__ is array and x.dtype is float64 and x.size == 1 \
                and -FAR <= x.item() <= FAR:
            return ufunc(x)
        return whole(x)
    call.far, call.into, call.ufunc = whole.far, whole.into, ufunc
    return call


sin, cos = reduced(np.sin), reduced(np.cos)


def _long_double_reduces() -> bool:
    """Whether sinl and cosl are right where sin and cos are not (cos at 1.6e74, 136,921
    ulps off in glibc; mpmath's value, to float64 exactly)."""
    x = np.longdouble(1.5986289000543612e+74)
    return np.finfo(np.longdouble).nmant > 52 and float(np.cos(x)) == -4.796584752012325e-18


if not _long_double_reduces():
    FAR = math.inf


class Sin(Primitive):
    name = "sin"
    def forward(self, x): return sin(x)
    def backward(self, gy): return gy * op.cos(self.inputs[0])
    def taylor(self, x): return _pair_series(self, x, cos, 1.0, -1.0)  # with cos


class Cos(Primitive):
    name = "cos"
    def forward(self, x): return cos(x)
    def backward(self, gy): return -gy * op.sin(self.inputs[0])
    def taylor(self, x): return _pair_series(self, x, sin, -1.0, 1.0)  # with sin


class Tan(Primitive):
    name, aliases = "tan", ("tg",)
    domain = ((-1.3, 1.3),)
    kink = staticmethod(lambda x: np.abs(cos(x)))   # poles where cos x = 0
    side = staticmethod(lambda x: cos(x) > 0)
    def forward(self, x): return np.tan(x)
    def backward(self, gy): return gy * (1.0 + self.y * self.y)
    def taylor(self, x): return _riccati_series(self, x, lambda y: 1.0 + y * y, 0.0, 1.0)


class Sec(Primitive):
    name = "sec"
    domain = ((-1.3, 1.3),)
    kink = staticmethod(lambda x: np.abs(cos(x)))   # poles where cos x = 0
    side = staticmethod(lambda x: cos(x) > 0)
    def forward(self, x): return 1.0 / cos(x)
    def backward(self, gy): return gy * self.y * op.tan(self.inputs[0])
    def taylor(self, x): return _reciprocal_series(self, x, cos, sin, -1.0)  # 1/cos


# (a reciprocal's: 1/sin x and the like are about 1/x there, beyond float64 within 1/max)
POLE_AT_0 = "its pole at 0, or overflow next to it, within 5.6e-309 of 0"


class Csc(Primitive):
    name, aliases = "csc", ("cosec",)
    value_reason = POLE_AT_0
    domain = ((0.3, 2.8),)
    kink = staticmethod(lambda x: np.abs(sin(x)))   # poles where sin x = 0
    side = staticmethod(lambda x: sin(x) > 0)
    def forward(self, x): return 1.0 / sin(x)
    def backward(self, gy): return -gy * self.y * op.cot(self.inputs[0])
    def taylor(self, x): return _reciprocal_series(self, x, sin, cos, 1.0)  # 1/sin


class Cot(Primitive):
    name, aliases = "cot", ("ctg", "cotg", "cotan")
    value_reason = POLE_AT_0
    domain = ((0.3, 2.8),)
    kink = staticmethod(lambda x: np.abs(sin(x)))   # poles where sin x = 0
    side = staticmethod(lambda x: sin(x) > 0)
    def forward(self, x): return cos(x) / sin(x)
    def backward(self, gy): return -gy * (1.0 + self.y * self.y)
    def taylor(self, x): return _riccati_series(self, x, lambda y: -(1.0 + y * y), 0.0, -1.0)


class Asin(Primitive):
    name, aliases = "asin", ("arcsin",)
    value_reason = "an argument outside [-1, 1]"
    domain = ((-0.9, 0.9),)
    kink = staticmethod(lambda x: 1.0 - np.abs(x))
    kink_reason = "an argument of -1 or 1, the edges of its domain, with vertical tangents"
    def kinks(self, x): return np.abs(x) == 1
    def forward(self, x): return np.arcsin(x)
    def backward(self, gy):
        return gy / op.sqrt(op.one_minus_sq(self.inputs[0]))


class Acos(Primitive):
    name, aliases = "acos", ("arccos",)
    exact_zeros = True
    value_reason = "an argument outside [-1, 1]"
    domain = ((-0.9, 0.9),)
    kink = staticmethod(lambda x: 1.0 - np.abs(x))
    kink_reason = "an argument of -1 or 1, the edges of its domain, with vertical tangents"
    def kinks(self, x): return np.abs(x) == 1
    def forward(self, x): return np.arccos(x)
    def backward(self, gy):
        return -gy / op.sqrt(op.one_minus_sq(self.inputs[0]))


class Atan(Primitive):
    name, aliases = "atan", ("arctan", "arctg")
    def forward(self, x): return np.arctan(x)
    def backward(self, gy): return gy * op.datan2(self.inputs[0], 1.0)  # 1/(x^2 + 1)


# Why atan2's and hypot's derivatives are nan at the origin (0/0): inside their domain,
# no vertical tangent, but no one slope (diagnostics.inside: elsewhere, inf is overflow)
ORIGIN_SLOPE = ", where its slope depends on the direction it is met from (0/0)"


class Atan2(Primitive):
    name, arity = "atan2", 2
    domain = ((0.2, 3.0), (-3.0, 3.0))
    # The origin, and the branch cut along y = 0, x < 0 where it jumps by 2 pi.
    kink = staticmethod(lambda y, x: np.maximum(np.abs(y), x))
    side = staticmethod(lambda y, x: (y > 0, x > 0))
    kink_reason = ("the origin, or its branch cut, a first argument of 0 and a second below "
                   "0, where it jumps by 2 pi")
    derivative_reason = "the origin" + ORIGIN_SLOPE
    def kinks(self, y, x): return (y == 0) & (x <= 0)
    def forward(self, y, x): return np.arctan2(y, x)
    def backward(self, gy):
        y, x = self.inputs  # x/(x^2 + y^2), -y/(x^2 + y^2); nan at the origin, as in PyTorch
        return (gy * op.datan2(y, x) if y.requires_grad else None,
                -gy * op.datan2(x, y) if x.requires_grad else None)
    def taylor(self, y, x):
        # atan2(y, x) is atan2(y s, x s) for s > 0: with s the power of two that brings the
        # larger argument near 1 (exact), a partial that is not a float (x/(x^2 + y^2) =
        # 1e-450 at x = 1e150, y = 1e300) is one, and meets its row before it underflows.
        larger = np.maximum(np.abs(y[0]), np.abs(x[0]))
        s = np.ldexp(1.0, -np.frexp(np.where(np.isfinite(larger), larger, 1.0))[1])
        return _taylor_from_backward(self, (_aligned(y, s.ndim) * s, _aligned(x, s.ndim) * s))


class Hypot(Primitive):
    name, arity = "hypot", 2
    value_reason = "overflow"
    domain = ((0.2, 3.0), (-3.0, 3.0))
    kink = staticmethod(lambda a, b: np.hypot(a, b))
    kink_reason = "the origin, the tip of a cone"
    derivative_reason = "the origin, the tip of a cone" + ORIGIN_SLOPE
    def kinks(self, a, b): return (a == 0) & (b == 0)
    def forward(self, a, b): return np.hypot(a, b)
    def backward(self, gy):
        a, b = self.inputs  # a/y, b/y; nan at the origin, as in PyTorch
        return (gy * op.unit(a, b) if a.requires_grad else None,
                gy * op.unit(b, a) if b.requires_grad else None)
    def taylor(self, a, b): return _hypot_series(self, a, b)


# ----- hyperbolic -----------------------------------------------------------------------

class Sinh(Primitive):
    name = "sinh"
    value_reason = "overflow"
    def forward(self, x): return np.sinh(x)
    def backward(self, gy): return gy * op.cosh(self.inputs[0])
    def taylor(self, x): return _pair_series(self, x, np.cosh, 1.0, 1.0)  # with cosh


class Cosh(Primitive):
    name = "cosh"
    value_reason = "overflow"
    def forward(self, x): return np.cosh(x)
    def backward(self, gy): return gy * op.sinh(self.inputs[0])
    def taylor(self, x): return _pair_series(self, x, np.sinh, 1.0, 1.0)  # with sinh


class Tanh(Primitive):
    name = "tanh"
    def forward(self, x): return np.tanh(x)
    def backward(self, gy): return gy * op.sech2(self.inputs[0])  # 1 - y^2 is 0 from 19 on
    def taylor(self, x):
        return _riccati_series(self, x, lambda _: Sech2().forward(x[0]), 0.0, -1.0)


class Asinh(Primitive):
    name, aliases = "asinh", ("arsinh", "arcsinh")
    def forward(self, x): return np.arcsinh(x)
    def backward(self, gy):
        return gy / op.hypot(self.inputs[0], 1.0)  # sqrt(x^2 + 1); x^2 overflows


class Acosh(Primitive):
    name, aliases = "acosh", ("arcosh", "arccosh")
    exact_zeros = True
    value_reason = "an argument below 1"
    domain = ((1.1, 10.0),)
    kink = staticmethod(lambda x: x - 1.0)
    kink_reason = "an argument of 1, the edge of its domain, with a vertical tangent"
    def kinks(self, x): return x == 1
    def forward(self, x): return np.arccosh(x)
    def backward(self, gy):
        x = self.inputs[0]
        # sqrt(x-1)*sqrt(x+1) rather than sqrt(x^2-1): no cancellation near 1.
        return gy / (op.sqrt(x - 1.0) * op.sqrt(x + 1.0))


class Atanh(Primitive):
    name, aliases = "atanh", ("artanh", "arctanh")
    value_reason = "an argument outside [-1, 1] gives nan, ±1 gives ±inf"
    domain = ((-0.9, 0.9),)
    kink = staticmethod(lambda x: 1.0 - np.abs(x))
    kink_reason = "an argument outside [-1, 1], where the value is nan"
    def kinks(self, x): return np.abs(x) > 1
    def forward(self, x): return np.arctanh(x)
    def backward(self, gy):
        return gy / op.one_minus_sq(self.inputs[0])


# ----- piecewise and neural-network staples ---------------------------------------------

class _AtZero:
    """A function of one argument that is smooth everywhere but at 0 (abs's corner, sign's
    jump): the kink the warnings name, and what the tests keep away from."""
    smooth_margin = 1e-3
    kink = staticmethod(lambda x: np.abs(x))
    side = staticmethod(lambda x: x > 0)
    def kinks(self, x): return x == 0


class Abs(_AtZero, Primitive):
    name = "abs"
    kink_reason = "an argument of 0, a corner"
    def forward(self, x): return np.abs(x)
    def backward(self, gy): return gy * _flat(np.sign, self.inputs[0])  # abs'(0) = 0


class Sign(_AtZero, Primitive):
    """sign(x): -1, 0 or 1. Flat on each side of 0, where it jumps: its derivative is 0
    wherever it exists, and shown as 0 at 0 (a convention, which the warning names)."""
    name, aliases = "sign", ("sgn",)
    kink_reason = "an argument of 0, where it jumps"
    def forward(self, x): return np.sign(x)
    def backward(self, gy): return gy * 0.0  # as abs's gy * sign(x): 0 is its slope


def _min_share(a, b):
    """The share of the gradient going to a: 1 where it is smaller, 1/2 at a tie, else 0."""
    return np.where(a == b, 0.5, np.where(a < b, 1.0, 0.0))


def _max_share(a, b):
    """The share of the gradient going to a: 1 where it is larger, 1/2 at a tie, else 0."""
    return np.where(a == b, 0.5, np.where(a > b, 1.0, 0.0))


class Min(Primitive):
    name, arity = "min", 2
    domain = _PLANE
    smooth_margin = 1e-3
    kink = staticmethod(lambda a, b: np.abs(a - b))
    side = staticmethod(lambda a, b: a < b)
    kink_reason = "a tie between its arguments"
    def kinks(self, a, b): return a == b
    def forward(self, a, b): return np.minimum(a, b)
    def backward(self, gy):
        a, b = self.inputs
        share = _flat(_min_share, a, b)
        return gy * share, gy * (1.0 - share)


class Max(Primitive):
    name, arity = "max", 2
    domain = _PLANE
    smooth_margin = 1e-3
    kink = staticmethod(lambda a, b: np.abs(a - b))
    side = staticmethod(lambda a, b: a < b)
    kink_reason = "a tie between its arguments"
    def kinks(self, a, b): return a == b
    def forward(self, a, b): return np.maximum(a, b)
    def backward(self, gy):
        a, b = self.inputs
        share = _flat(_max_share, a, b)
        return gy * share, gy * (1.0 - share)


class Sigmoid(Primitive):
    name = "sigmoid"
    domain = ((-20.0, 20.0),)
    def forward(self, x):
        # exp of -|x| never overflows, so |x| up to 1e308 is safe on both sides.
        z = np.exp(-np.abs(x))
        return np.where(x >= 0, 1.0 / (1.0 + z), z / (1.0 + z))
    def backward(self, gy): return gy * op.dsigmoid(self.inputs[0])  # 1 - y is 0 from 37 on
    def taylor(self, x):
        # s = (1 + tanh(x/2)) / 2: the Riccati rule of s itself, s' = s - s^2, cancels in
        # its rows near x = 0 (1 - 2s from a rounded s); tanh's rows do not.
        half = 0.5 * x
        t = _riccati_series(Tanh(), half, lambda _: Sech2().forward(half[0]), 0.0, -1.0)
        y, _ = _start(self, (x,))
        y[1:] = 0.5 * t[1:]
        return y


class Softplus(Primitive):
    name = "softplus"
    domain = ((-20.0, 20.0),)
    def forward(self, x): return np.log1p(np.exp(-np.abs(x))) + np.maximum(x, 0.0)
    def backward(self, gy): return gy * op.sigmoid(self.inputs[0])


# ----- helpers for backward rules ------------------------------------------------------
# Not callable. Each computes from its exact inputs a derivative whose textbook formula
# cancels or overflows (1 - tanh^2, 1 - x*x, x*x + y*y), and its own backward is a
# product of such helpers, so second derivatives are as accurate as first ones.

class Sech2(_Inside, Primitive):
    """tanh' = sech^2 x = 4 e^-2|x| / (1 + e^-2|x|)^2."""
    name, callable, inside = "sech2", False, "tanh"
    def forward(self, x): return _bell(_decay(x, 2.0), 4.0)
    def spelled(self, x): return 1.0 / op.cosh(x) ** 2.0
    def backward(self, gy): return -2.0 * gy * self.y * op.tanh(self.inputs[0])


class Dsigmoid(_Inside, Primitive):
    """sigmoid' = s (1 - s) = e^-|x| / (1 + e^-|x|)^2; its derivative s'(1 - 2s) is
    -s' tanh(x/2)."""
    name, callable, inside = "dsigmoid", False, "sigmoid or softplus"
    domain = ((-20.0, 20.0),)
    def forward(self, x): return _bell(_decay(x, 1.0), 1.0)
    def spelled(self, x): return op.sigmoid(x) * op.sigmoid(-x)
    def backward(self, gy): return -gy * self.y * op.tanh(0.5 * self.inputs[0])


def _decay(x, steep):
    """e^(-steep |x|) in an array of its own (0-d included), for _bell to work in."""
    z = np.abs(x, out=np.empty(np.shape(x), np.result_type(x, 1.0)))  # (long double kept)
    np.multiply(z, -steep, out=z)
    return np.exp(z, out=z)


def _bell(z, scale):
    """scale z / (1 + z)^2 for an array 0 <= z <= 1, with the rounding of 1 + z taken
    back: (1 + z)^2 = (s + lost)^2 is s (s + 2 lost) to within lost^2, an ulp of an ulp.
    (Two array passes fewer than multiplying by 1 - 2 lost/s afterwards, and as accurate.)
    In place, z overwritten: written out, tanh's rule made eleven arrays and was 6% of
    the kernel's time on E3, half of it in making them."""
    s = np.add(1.0, z, out=np.empty_like(z))
    lost = np.subtract(s, 1.0, out=np.empty_like(z))
    np.subtract(z, lost, out=lost)  # exactly 1 + z - s (Fast2Sum, as 1 >= z)
    lost *= 2.0
    lost += s
    lost *= s  # s (s + 2 lost)
    z *= scale
    return np.divide(z, lost, out=z)


class OneMinusSq(_Inside, Primitive):
    """1 - x^2 as (1 - x)(1 + x): exact factors near |x| = 1, where 1 - x*x cancels."""
    name, callable, inside = "one_minus_sq", False, "asin, acos or atanh"
    exact_zeros = True
    def forward(self, x): return (1.0 - x) * (1.0 + x)
    def spelled(self, x): return (1.0 - x) * (1.0 + x)
    def backward(self, gy): return -2.0 * gy * self.inputs[0]


class Unit(_Inside, Primitive):
    """a / hypot(a, b), the a-component of the unit vector: hypot's derivative."""
    name, arity, callable, inside = "unit", 2, False, "hypot or asinh"
    domain = ((0.2, 3.0), (-3.0, 3.0))

    def forward(self, a, b):
        h = np.hypot(a, b)
        y = a / h
        # Scaled where h overflows (both near 1e308) or is subnormal, and so rounded to
        # few digits: unit(5e-324, 5e-324) is 1 from h = 5e-324, not 1/sqrt(2).
        off = (np.isinf(h) & np.isfinite(a) & np.isfinite(b)) | ((h < _TINY) & (h > 0))
        if not off.any():
            return y
        a_, b_, _ = _scaled(a, b)
        return np.where(off, a_ / np.hypot(a_, b_), y)

    def spelled(self, a, b): return a / op.hypot(a, b)

    def backward(self, gy):
        a, b = self.inputs  # d/da = b^2/h^3, d/db = -ab/h^3, as products of unit vectors
        ub, h = op.unit(b, a), op.hypot(a, b)
        slope = ub / h  # before the product: ub * ub alone can underflow
        return (gy * ub * slope if a.requires_grad else None,
                -gy * self.y * slope if b.requires_grad else None)


class Datan2(_Inside, Primitive):
    """v / (u^2 + v^2), which is d/du atan2(u, v), without overflow or underflow of the
    squares (1e-300 and 1e200 are fine)."""
    name, arity, callable, inside = "datan2", 2, False, "atan2 or atan"
    domain = ((0.2, 3.0), (-3.0, 3.0))

    def forward(self, u, v): return _homogeneous(_quotient, u, v, 1, 2.0**500)

    def spelled(self, u, v): return v / (u ** 2.0 + v ** 2.0)

    def backward(self, gy):
        u, v = self.inputs  # d/du = -2uv/r^4, d/dv = (u^2 - v^2)/r^4
        return (-2.0 * gy * self.y * op.datan2(v, u) if u.requires_grad else None,
                gy * op.d2atan2(u, v) if v.requires_grad else None)

    def taylor(self, u, v): return _homogeneous_series(self, u, v, 1)


class D2atan2(_Inside, Primitive):
    """(u^2 - v^2) / (u^2 + v^2)^2 as (u - v)(u + v) / r^4: exact 0 on the diagonal."""
    name, arity, callable, inside = "d2atan2", 2, False, "atan2 or atan"
    exact_zeros = True
    domain = ((0.2, 3.0), (-3.0, 3.0))

    def forward(self, u, v): return _homogeneous(_quotient2, u, v, 2, 2.0**250)

    def spelled(self, u, v): return (u - v) * (u + v) / (u ** 2.0 + v ** 2.0) ** 2.0

    def backward(self, gy):
        u, v = self.inputs  # 2u(3v^2 - u^2)/r^6 and 2v(v^2 - 3u^2)/r^6, with v/r^2 and u/r^2
        qv, qu = op.datan2(u, v), op.datan2(v, u)
        return (2.0 * gy * qu * (3.0 * qv * qv - qu * qu) if u.requires_grad else None,
                2.0 * gy * qv * (qv * qv - 3.0 * qu * qu) if v.requires_grad else None)

    def taylor(self, u, v): return _homogeneous_series(self, u, v, 2)


def _quotient(u, v):
    return v / (u * u + v * v)


def _quotient2(u, v):
    r2 = u * u + v * v
    return (u - v) * (u + v) / (r2 * r2)


def _homogeneous(formula, u, v, degree: int, bound: float):
    """formula(u, v), homogeneous of degree -``degree``: as it is where the squares are
    safe (_moderate, with ``bound``), and at u, v scaled by a power of 2 elsewhere, point
    by point."""
    plain = formula(u, v)
    moderate = _moderate(u, v, bound)
    if moderate.all():
        return plain
    su, sv, k = _scaled(u, v)
    return np.where(moderate, plain, np.ldexp(formula(su, sv), -degree * k))


def _moderate(a, b, bound=2.0**500):
    """Where max(|a|, |b|) lies in [1/bound, bound] (or is 0 or nan), so that squares (or
    fourth powers, with bound 2^250) neither overflow nor lose the larger square to
    underflow: there the plain formula is taken. Point by point, so that a point gets
    the same bits whatever else is in its batch: scaling is not always exact (a
    subnormal smaller magnitude loses bits), and datan2(1, 5e-324) was 0 or 5e-324 by
    its neighbours."""
    m = np.maximum(np.abs(a), np.abs(b))
    return (m <= bound) & ((m >= 1.0 / bound) | (m == 0)) | np.isnan(m)


def _scaled(a, b):
    """a and b times the power of 2 that brings the larger magnitude into [0.5, 1) (exact),
    and that power's exponent k: a = a' 2^k."""
    k = np.frexp(np.maximum(np.abs(a), np.abs(b)))[1]
    return np.ldexp(a, -k), np.ldexp(b, -k), k

# ----- reciprocal hyperbolic, inverse reciprocal trigonometric --------------------------

class Sech(Primitive):
    name = "sech"
    domain = ((-5.0, 5.0),)
    def forward(self, x): return _sech(x)
    def backward(self, gy): return gy * op.dsech(self.inputs[0])  # -sech tanh


def _sech(x):
    # 2e^-|x| / (1 + e^-2|x|): 1/cosh(x) would be 0 from |x| ~ 710, where sech is not.
    z = np.exp(-np.abs(x))
    return 2.0 * z / (1.0 + z * z)


class Dsech(_Inside, Primitive):
    """sech' = -sech x tanh x: a helper, so that its derivative is one primitive too."""
    name, callable, inside = "dsech", False, "sech"
    def forward(self, x): return -_sech(x) * np.tanh(x)
    def spelled(self, x): return -op.sech(x) * op.tanh(x)
    def backward(self, gy): return gy * op.d2sech(self.inputs[0])


_ASINH_1 = (0.881373587019543, -2.250545892825866e-17)  # asinh(1) = hi + lo, 32 digits


class D2sech(_Inside, Primitive):
    """sech'' = sech (tanh^2 - sech^2), which a product of primitives gives with every
    digit lost next to its zeros, x = +-asinh(1) (no float64 numbers). There it is
    sech^3 (sinh|x| - 1)(sinh|x| + 1), with sinh|x| - 1 = 2 cosh((|x| + a)/2)
    sinh((|x| - a)/2) and a = asinh(1) in two parts, so that |x| - a is exact."""
    name, callable, inside = "d2sech", False, "sech"

    def forward(self, x):
        s, t = _sech(x), np.tanh(x)
        far = s * (t - s) * (t + s)  # no cancellation away from the zeros
        ax = np.abs(x)
        near = (ax > 0.5) & (ax < 1.3)
        if not near.any():
            return far
        hi, lo = _ASINH_1
        d = (ax - hi) - lo  # ax - hi is exact here (Sterbenz)
        sinh_minus_1 = 2.0 * np.cosh(0.5 * (ax + hi)) * np.sinh(0.5 * d)
        return np.where(near, s * s * s * sinh_minus_1 * (np.sinh(ax) + 1.0), far)

    def spelled(self, x): return op.sech(x) * (op.tanh(x) ** 2.0 - op.sech(x) ** 2.0)

    def backward(self, gy):
        s, t = op.sech(self.inputs[0]), op.tanh(self.inputs[0])
        return gy * s * t * (5.0 * s * s - t * t)  # the third derivative of sech


class Csch(Primitive):
    name = "csch"
    value_reason = POLE_AT_0
    domain = ((-5.0, 5.0),)
    smooth_margin = 0.3
    kink = staticmethod(lambda x: np.abs(x))   # a pole at 0
    side = staticmethod(lambda x: x > 0)
    def forward(self, x):
        # 2e^-|x| / (1 - e^-2|x|), the denominator by expm1: exact near 0, and no overflow
        # of sinh in the tails. At 0 it is 2/(+0): inf, given x's sign as 1/sinh(x) would.
        z = np.exp(-np.abs(x))
        return np.copysign(2.0 * z / -np.expm1(-2.0 * np.abs(x)), x)
    def backward(self, gy): return -gy * self.y * op.coth(self.inputs[0])


class Coth(Primitive):
    name = "coth"
    value_reason = POLE_AT_0
    domain = ((-5.0, 5.0),)
    smooth_margin = 0.3
    kink = staticmethod(lambda x: np.abs(x))   # a pole at 0
    side = staticmethod(lambda x: x > 0)
    def forward(self, x): return 1.0 / np.tanh(x)
    def backward(self, gy):
        # -csch^2, not 1 - coth^2: that cancels to 0 once coth rounds to 1 (|x| > ~19).
        c = op.csch(self.inputs[0])
        return -gy * (c * c)


def _over_x_sqrt_x2_minus_1(g: Variable, x: Variable) -> Variable:
    """g / (|x| sqrt(x^2 - 1)), with sqrt(x^2 - 1) as sqrt(|x|-1) sqrt(|x|+1) (no
    cancellation near |x| = 1) and one division per factor (no overflow of x^2 in the
    tails, nor underflow of its square in the second derivative)."""
    ax = op.abs(x)
    return g / ax / (op.sqrt(ax - 1.0) * op.sqrt(ax + 1.0))


def _sqrt_x2_minus_1(x: np.ndarray) -> np.ndarray:
    ax = np.abs(x)
    return np.sqrt(ax - 1.0) * np.sqrt(ax + 1.0)  # nan for |x| < 1, outside the domain


class _OutsideOne:
    """asec and acsc (a mixin, as _Inside): defined for |x| >= 1, with vertical tangents at
    -1 and 1."""
    domain = ((-5.0, 5.0),)
    smooth_margin = 0.1
    kink = staticmethod(lambda x: np.abs(x) - 1.0)  # defined for |x| >= 1 only
    side = staticmethod(lambda x: x > 0)
    kink_reason = "an argument of -1 or 1, the edges of its domain, with vertical tangents"
    def kinks(self, x): return np.abs(x) == 1


class Asec(_OutsideOne, Primitive):
    name, aliases = "asec", ("arcsec",)
    exact_zeros = True
    value_reason = "an argument between -1 and 1"
    def forward(self, x):
        # atan(sqrt(x^2 - 1)), mirrored to pi - ... for x < 0: acos(1/x) loses half its
        # digits near |x| = 1, where 1/x rounds.
        a = np.arctan(_sqrt_x2_minus_1(x))
        return np.where(x < 0, np.pi - a, a)
    def backward(self, gy): return _over_x_sqrt_x2_minus_1(gy, self.inputs[0])


class Acsc(_OutsideOne, Primitive):
    name, aliases = "acsc", ("arccsc",)
    value_reason = "an argument between -1 and 1"
    def forward(self, x):
        # atan2(1, sqrt(x^2 - 1)) with x's sign: exact near |x| = 1 (where asin(1/x) is
        # not), and 1/|x| to the last digit in the tails.
        return np.copysign(np.arctan2(1.0, _sqrt_x2_minus_1(x)), x)
    def backward(self, gy): return _over_x_sqrt_x2_minus_1(-gy, self.inputs[0])


class Acot(Primitive):
    name, aliases = "acot", ("arccot", "arcctg")
    # atan(1/x), as sympy and Mathematica define it: values in (-pi/2, pi/2], a jump at 0.
    smooth_margin = 0.1
    kink = staticmethod(lambda x: np.abs(x))
    side = staticmethod(lambda x: x > 0)
    kink_reason = "an argument of 0, where it jumps from -pi/2 to pi/2"
    def kinks(self, x): return x == 0
    # x + 0.0 is +0.0 at -0.0 (and x elsewhere): acot(-0.0) is pi/2 too, in its range
    def forward(self, x): return np.arctan(1.0 / (x + 0.0))
    def backward(self, gy): return -gy * op.datan2(self.inputs[0], 1.0)  # -1/(x^2 + 1)


# ----- operators on Variables -----------------------------------------------------------

def _install_operators():
    def binary(name, swap=False):
        if swap:
            return lambda self, other: PRIMITIVES[name]()(other, self)
        return lambda self, other: PRIMITIVES[name]()(self, other)

    for cls in set(OPERATORS.values()):
        setattr(Variable, f"__{cls.dunder}__", binary(cls.name))
        setattr(Variable, f"__r{cls.dunder}__", binary(cls.name, swap=True))
    Variable.__neg__ = lambda self: Neg()(self)
    Variable.__pos__ = lambda self: self


_install_operators()


# ----- Taylor series: one rule per primitive, for Taylor mode and forward mode ------------
#
# A series is an array of shape (K+1, *points): row k is the k-th normalised Taylor
# coefficient (d^k/dt^k / k!) of a value along a line t; a constant is (K+1,) with zero
# rows after the first. Row 0 of every result is the function's own ``forward``, so values
# agree with the tape to the bit, and row 1 is the JVP. Every rule is online: row k of the
# output needs only rows <= k of the inputs (the generic rule relies on it). The
# recurrences are the classic ones (Griewank & Walther, Evaluating Derivatives, ch. 13).

def _start(function, series):
    """The output series (row 0 from forward, later rows zero, to be filled) and the inputs
    reshaped so that their rows broadcast against each other and the output's."""
    y0 = np.asarray(function.forward(*[s[0] for s in series]), dtype=np.float64)
    y = np.zeros((len(series[0]),) + y0.shape)
    y[0] = y0
    return y, [_aligned(s, y0.ndim) for s in series]


def _aligned(s, ndim: int):
    """s with 1s inserted after the row axis, so that s[i:j] broadcasts over ndim points axes."""
    return s.reshape(s.shape[:1] + (1,) * (ndim + 1 - s.ndim) + s.shape[1:])


def _constant_series(value, length: int):
    value = np.asarray(value, dtype=np.float64)
    s = np.zeros((length,) + value.shape)
    s[0] = value
    return s


def _series_by(function, series, rule):
    """Rows 1.. from a rule on whole series: sums, negation, masks, the Cauchy product."""
    y, aligned = _start(function, series)
    if len(y) > 1:
        y[1:] = _aligned(rule(*aligned), y.ndim - 1)[1:len(y)]
    return y


def _product(a, b, length: int | None = None):
    """Rows 0..length-1 of the product of two series (a missing row counts as zero)."""
    length = min(len(a), len(b)) if length is None else length
    out = np.zeros((length,) + np.broadcast_shapes(a.shape[1:], b.shape[1:]))
    for j in range(min(len(a), length)):
        m = min(len(b), length - j)
        out[j:j + m] += a[j] * b[:m]
    return out


def _dot(a, b):
    """sum_i a[i] * b[i]: one row of a Cauchy product, as the recurrences need."""
    return (a * b).sum(axis=0)


def _moving_rows(w):
    """The rows j >= 1 of the weights w of an argument that are not 0 at every point: x + t
    has one. The terms of the others are left out: no work, and no 0 * inf."""
    if len(w) < 2:
        return []
    moving = np.any(w[1:].reshape(len(w) - 1, -1), axis=1)  # one pass, not one per row
    return [j + 1 for j in np.flatnonzero(moving).tolist()]


def _terms(w, rows, s, k: int):
    """sum_j w_j s_(k-j) over the ``rows`` j <= k of w (see _moving_rows)."""
    total = 0.0
    for j in rows:
        if j > k:
            break
        total = total + w[j] * s[k - j]
    return total


def _weights(u):
    """Rows j * u_j: the series of t u'(t). If y' = g u', then k y_k = sum_j j u_j g_(k-j).
    Row 0 is 0 itself, not 0·u_0: an infinite u_0 (coth(y + csc(x)) at x = 0) would make
    it nan, and every row of a product with it."""
    w = u * np.arange(len(u), dtype=np.float64).reshape((-1,) + (1,) * (u.ndim - 1))
    w[0] = 0.0
    return w


# The rounding witness (adcli.rounding) moves every step's series by a few ulps, but a
# recurrence feeds its own rows back: sqrt's y_2 = (u_2 - y_1^2)/(2 y_0) subtracts 1 - 1e-16
# from 1 (sqrt(x^2 + x) at 3e7), and rows moved after the rule would never reach it. In
# the witness's sweeps (``nudging_rows``) a rule moves each row as it makes it, before the
# rows after it use it; in every other run (and thread) the hook does nothing.
_row_nudge = contextvars.ContextVar("adcli_row_nudge", default=None)


@contextlib.contextmanager
def nudging_rows(moved):
    """Within: the rules move each row they make by ``moved(row, where)`` (where: the
    points at which the step rounds, exact_step's, as the witness moves whole steps)."""
    token = _row_nudge.set(moved)
    try:
        yield
    finally:
        _row_nudge.reset(token)


def _still(s, k: int) -> None:
    """The hook of every run but the witness's: ``move(series, k)`` leaves row k be (a
    function, not an object: a call per row of every rule, ~20 ns)."""


class _Moved:
    """The witness's hook for one step: row k moved where the step rounds (``rounded``)."""

    def __init__(self, moved, rounded):
        self.moved, self.rounded = moved, rounded

    def __call__(self, s, k: int) -> None:
        s[k] = self.moved(s[k], self.rounded)

    def at(self, where):
        """The hook for the points ``where`` of this step only (_near_whole_exponents)."""
        return _Moved(self.moved, np.broadcast_to(self.rounded, where.shape)[where])


def _mover(function, inputs, y):
    """The hook that moves the rows ``function``'s rule makes (y's, and those of the series
    it builds alongside), having moved y's row 0, the step's value, which the rows use."""
    moved = _row_nudge.get()
    if moved is None:
        return _still
    move = _Moved(moved, ~np.asarray(exact_step(function, [s[0] for s in inputs], y[0],
                                                value_only=False)))
    move(y, 0)
    return move


def _exp_series(function, u):
    y, (u,) = _start(function, (u,))
    return _exp_rows(_weights(u), y, _mover(function, (u,), y))


def _exp_rows(w, y, move=_still):
    """Rows 1.. of e^z into y (row 0 is its value), from w = t z', the rows k z_k."""
    for k in range(1, len(y)):          # y' = y z'
        y[k] = _dot(w[1:k + 1], y[k - 1::-1]) / k
        move(y, k)
    return y


def _log_rows(u, y, move=_still):
    """Rows 1.. of log u into y (row 0 is not used): u y' = u', so u_0 y_k = u_k - ..."""
    j = np.arange(len(y), dtype=np.float64).reshape((-1,) + (1,) * (y.ndim - 1))
    for k in range(1, len(y)):
        y[k] = (u[k] - _dot(j[1:k] * y[1:k], u[k - 1:0:-1]) / k) / u[0]
        move(y, k)
    return y


def _log_series(function, u):
    y, (u,) = _start(function, (u,))
    return _log_rows(u, y, _mover(function, (u,), y))


def _sqrt_series(function, u):
    y, (u,) = _start(function, (u,))
    move = _mover(function, (u,), y)
    for k in range(1, len(y)):          # y y = u
        y[k] = (u[k] - _dot(y[1:k], y[k - 1:0:-1])) / (2.0 * y[0])
        move(y, k)
    return y


def _pair_series(function, u, partner, alpha: float, beta: float):
    """y and its partner z solve y' = alpha z u', z' = beta y u' (sin with cos, sinh with
    cosh, ...): both series are built together, the partner's row 0 from ``partner``."""
    y, (u,) = _start(function, (u,))
    return _pair_rows(u, y, partner(u[0]), alpha, beta, _mover(function, (u,), y))


def _pair_rows(u, y, z0, alpha: float, beta: float, move=_still):
    z = np.zeros_like(y)
    z[0] = z0
    move(z, 0)
    w = _weights(u)
    for k in range(1, len(y)):
        y[k] = alpha * _dot(w[1:k + 1], z[k - 1::-1]) / k
        z[k] = beta * _dot(w[1:k + 1], y[k - 1::-1]) / k
        move(y, k)
        move(z, k)
    return y


def _riccati_series(function, u, p0, c1: float, c2: float):
    """y' = p u' with p = c0 + c1 y + c2 y^2 (tan, tanh, cot, sigmoid, expm1). p's row 0 is
    ``p0(y_0)``, computed as backward computes it, so that row 1 is backward's gradient.
    A coefficient of 0 is left out, not multiplied: expm1's y_0^2 overflows from x = 355,
    where its derivatives are finite up to 709.78, and 0 * inf would make them nan. (Where
    c2 is not 0, p is the function's own derivative, so y^2's rows are p's and overflow
    only where its derivatives do, as backward's 1 + y*y does.)"""
    y, (u,) = _start(function, (u,))
    move = _mover(function, (u,), y)
    p = np.zeros_like(y)
    p[0] = p0(y[0])
    move(p, 0)
    w = _weights(u)
    for k in range(1, len(y)):
        y[k] = _dot(w[1:k + 1], p[k - 1::-1]) / k
        move(y, k)
        if c1:
            p[k] += c1 * y[k]
        if c2:
            p[k] += c2 * _dot(y[:k + 1], y[k::-1])
        move(p, k)
    return y


def _reciprocal_series(function, u, inner, partner, alpha: float):
    """y = 1 / z(u) for z = cos (partner sin, z' = -sin u') or sin (partner cos, z' = cos u')."""
    y, (u,) = _start(function, (u,))
    move = _mover(function, (u,), y)
    z = np.zeros_like(y)
    z[0] = inner(u[0])
    move(z, 0)
    z = _pair_rows(u, z, partner(u[0]), alpha, -alpha, move)
    for k in range(1, len(y)):          # y z = 1
        y[k] = -_dot(z[1:k + 1], y[k - 1::-1]) / z[0]
        move(y, k)
    return y


def _cbrt_series(function, u):
    y, (u,) = _start(function, (u,))
    return _pow_constant(u, np.asarray(1.0 / 3.0), y,  # no log: negative u is fine
                         _mover(function, (u,), y))


def _hypot_series(function, a, b):
    """y = hypot(a, b) in polar form: the direction (u, v) = (a, b)/y turns by an angle
    th with y th' = u b' - v a', and y' = u a' + v b', u' = -v th', v' = u th'. Not from
    y y = a a + b b, whose squares overflow and underflow and whose rows cancel: y_2 is
    (a_1^2 + b_1^2 - y_1^2)/(2 y_0), all digits lost where one argument dominates
    (hypot(x, 1) at 1e8) or where y is linear (hypot(x, x)). Here the difference is
    (u b' - v a')^2 from the start, every row a sum of products, and |u|, |v| <= 1."""
    y, (a, b) = _start(function, (a, b))
    move = _mover(function, (a, b), y)
    u, v, turn = np.zeros_like(y), np.zeros_like(y), np.zeros_like(y)  # turn: rows k th_k
    u[0], v[0] = Unit().forward(a[0], b[0]), Unit().forward(b[0], a[0])  # as backward's
    move(u, 0)
    move(v, 0)
    # An argument that does not move is left out: its 0 rows by a nan v_0 (b = inf) are 0.
    wa, wb = _weights(a), _weights(b)
    ra, rb = _moving_rows(wa), _moving_rows(wb)
    for k in range(1, len(y)):
        y[k] = (_terms(wa, ra, u, k) + _terms(wb, rb, v, k)) / k
        move(y, k)
        if k == len(y) - 1:
            break
        across = _terms(wb, rb, u, k) - _terms(wa, ra, v, k)  # row k of y th' t
        turn[k] = (across - _dot(y[1:k], turn[k - 1:0:-1])) / y[0]
        move(turn, k)
        u[k] = -_dot(turn[1:k + 1], v[k - 1::-1]) / k
        v[k] = _dot(turn[1:k + 1], u[k - 1::-1]) / k
        move(u, k)
        move(v, k)
    return y


def _div_series(function, a, b):
    y, (a, b) = _start(function, (a, b))
    move = _mover(function, (a, b), y)
    for k in range(1, len(y)):          # y b = a
        y[k] = (a[k] - _dot(b[1:k + 1], y[k - 1::-1])) / b[0]
        move(y, k)
    return y


def _homogeneous_series(function, u, v, degree: int):
    """datan2 = v/(u^2 + v^2) = Re 1/w (``degree`` 1) or d2atan2 = -Re 1/w^2 (``degree``
    2), w = v + i u, by complex series division in real arithmetic: the generic rule would
    nest (each one's backward calls datan2 and d2atan2 again: 2^K rules for K rows), and
    dividing by r = u^2 + v^2 or r^2 instead repeats their roots, whose rows' rounding
    then grows like k^3 (d2atan2(0, 1 + t)). As forward does, u and v are first scaled by
    the power of 2 s that brings the larger value near 1 where |w_0|^2, or backward's
    gradient (of degree -3 in d2atan2's), would overflow or underflow (_moderate; elsewhere
    s = 1: scaling a subnormal smaller one loses it, atan at 5e-324), and the rows scaled
    back by s^degree. Row 1 is backward's gradient itself,
    whose careful forms ((u - v)(u + v) on the diagonal) w_1/w_0^2 lacks."""
    y, (u, v) = _start(function, (u, v))
    if len(y) == 1:
        return y
    move = _mover(function, (u, v), y)
    larger = np.maximum(np.abs(u[0]), np.abs(v[0]))
    e = np.frexp(np.where(np.isfinite(larger), larger, 1.0))[1]
    e = np.where(_moderate(u[0], v[0], 2.0**250), 0, e)
    u, v = np.ldexp(u, -e), np.ldexp(v, -e)
    first = _taylor_from_backward(function, (u[:2], v[:2]))[1]
    w = np.broadcast_to(v, y.shape), np.broadcast_to(u, y.shape)
    one = (_constant_series(np.ones(y.shape[1:]), len(y)), np.zeros_like(y))
    z = _complex_quotient(one, w, move)
    for _ in range(degree - 1):
        z = _complex_quotient(z, w, move)
    y[2:] = np.ldexp((1.0 if degree == 1 else -1.0) * z[0][2:], -degree * e)
    y[1] = np.ldexp(first, -degree * e)
    return y


def _complex_quotient(n, w, move=_still):
    """The series n / w, each a pair (real rows, imaginary rows): z w = n, row by row."""
    (nr, ni), (a, b) = n, w
    zr, zi = np.zeros_like(nr), np.zeros_like(nr)
    size = a[0] * a[0] + b[0] * b[0]
    for k in range(len(zr)):
        pr = nr[k] - _dot(a[1:k + 1], zr[k - 1::-1]) + _dot(b[1:k + 1], zi[k - 1::-1]) \
            if k else nr[0]
        pi = ni[k] - _dot(a[1:k + 1], zi[k - 1::-1]) - _dot(b[1:k + 1], zr[k - 1::-1]) \
            if k else ni[0]
        zr[k] = (pr * a[0] + pi * b[0]) / size
        zi[k] = (pi * a[0] - pr * b[0]) / size
        move(zr, k)
        move(zi, k)
    return zr, zi


# Powers. A constant exponent r (a number, or a variable not being differentiated) takes
# a y' = r y a' from a (a^r)' = r a^r a': no log, so negative bases with whole exponents
# work. A varying exponent takes y' = y (b log a)' (and a^n a^(b-n) near a whole b = n:
# _near_whole_exponents). The recurrences divide by a_0 and scale by y_0, so where a_0 = 0
# or a^r under- or overflows, x^r is expanded about a_0 instead; there, as in backward,
# 0^0 is flat in the base and 0^b (b > 0) in the exponent.

def _pow_series(function, a, b):
    y, (a_rows, b_rows) = _start(function, (a, b))
    if len(y) == 1:
        return y
    move = _mover(function, (a_rows, b_rows), y)
    if not b_rows[1:].any():
        return _pow_constant(a_rows, np.asarray(b[0]), y, move)
    return _pow_varying(a_rows, b_rows, y, move)


def _pow_constant(a, r, y, move=_still):
    if r.ndim == 0 and float(r).is_integer() and 0 <= r <= 64:
        # Repeated squaring: exact at a = 0, no division, no special points.
        y[1:] = _aligned(_whole_power(a, int(r), len(y)), y.ndim - 1)[1:]
        return y
    return _pow_special_points(a, r, None, _power_rows(a, r, y, move))


def _power_rows(a, r, y, move=_still):
    """Rows 1.. of a^r into y (row 0 is its value) for an exponent r that does not move."""
    j = np.arange(len(y), dtype=np.float64).reshape((-1,) + (1,) * (y.ndim - 1))
    tail = None
    for k in range(1, len(y)):          # k a_0 y_k = sum_(j<k) (r (k-j) - j) a_(k-j) y_j
        terms = (r * (k - j[:k]) - j[:k]) * a[k:0:-1] * y[:k]
        if tail is None and np.isnan(terms).any():
            # 0·inf: a row of a that is 0, as are all after it (x + t's rows 2..), times a
            # row of y that overflowed: the term is 0 (cbrt(x) at 1e-300, order 6, was nan
            # for -inf)
            rows = np.broadcast_to(a, y.shape)[::-1] != 0
            tail = ~np.logical_or.accumulate(rows, axis=0)[::-1]
        if tail is not None:
            terms = np.where(tail[k:0:-1], 0.0, terms)
        y[k] = terms.sum(axis=0) / (k * a[0])
        move(y, k)
    return y


def _whole_power(a, n: int, length: int):
    """a^n by repeated squaring of series."""
    result, square = _constant_series(1.0, length), a
    while n:
        if n & 1:
            result = _product(result, square, length)
        n >>= 1
        if n:
            square = _product(square, square, length)
    return result


def _pow_varying(a, b, y, move=_still):
    y = _exp_rows(_b_log_a_rows(a, b, len(y), move), y, move)  # y' = y z', z = b log a
    _near_whole_exponents(a, b, y, move)
    return _pow_special_points(a, b[0], b, y)


def _near_whole_exponents(a, b, y, move=_still) -> None:
    """Rows 1.. of y = a^b again where b_0 is within 1/4 of a whole n in 1..K-1 (K the
    order), as a^n times a^(b-n). There a^b's rows from n + 1 on are small by the factor
    b (b-1) ... (b-n) of their terms, which e^z's recurrence leaves to cancel (x^(x+1) at
    1e-20: y'' = -90.1 from terms 1e20 - 1e20, given as 0.0): a^n's rows come from the
    recurrence of a constant power, with that cancellation in its whole coefficients, and
    a^(b-n) from e^z with b - n near 0. Not where a_0^n or a_0^(b_0-n) is not normal."""
    length, shape = len(y), y.shape[1:]
    if length < 3 or not np.any(a[1:]):  # order 1, or a base that does not move (2^x)
        return
    a0, b0 = np.broadcast_to(a[0], shape), np.broadcast_to(b[0], shape)
    n = np.rint(b0)
    near = (np.abs(b0 - n) <= 0.25) & (n >= 1) & (n <= length - 2)
    if not near.any():
        return
    p0, q0 = np.power(a0, n), np.power(a0, b0 - n)  # b0 - n is exact (Sterbenz)
    for power in (p0, q0):
        near &= (np.abs(power) >= _TINY) & (np.abs(power) <= _HUGE)
    if not near.any():
        return

    def columns(s):
        return np.broadcast_to(s, (length,) + shape)[:, near]

    a_, rest, n = columns(a), columns(b), n[near]  # (copies)
    rest[0] -= n
    p, q = np.zeros_like(a_), np.zeros_like(a_)  # a^n, a^(b-n)
    p[0], q[0] = p0[near], q0[near]
    move = move if move is _still else move.at(near)
    move(p, 0)
    move(q, 0)
    q = _exp_rows(_b_log_a_rows(a_, rest, length, move), q, move)
    p = _power_rows(a_, n, p, move)
    rows = p[0] * q
    for i in _moving_rows(p):           # a^n of x + t is a polynomial: rows past n are 0
        rows[i:] += p[i] * q[:length - i]
    y[1:, near] = rows[1:]


def _b_log_a_rows(a, b, length: int, move=_still):
    """The rows k z_k of z = b log a, from z' = b' log a + (b/a) a': not from the product
    of b's and log a's series, whose terms b_0 (log a)_k grow like 1/a_0^k where b_0 does
    not make up for it (x^x at 1e-300: 1e-300 * -5e599 overflows, where z'' = 1/x), nor
    with (log a)_1 = a_1/a_0 alone (inf at 5e-324, where z' = log x + 1 is not): b/a is
    1 there."""
    shape = np.broadcast_shapes(a.shape[1:], b.shape[1:])  # a may be one number (2^x)
    wa, wb = _weights(a), _weights(b)
    ra, rb = _moving_rows(wa), _moving_rows(wb)
    # log a and b/a from a log' = a' and a (b/a) = b, rows 0..K-1, over a's moving rows
    # only: x + t's zero rows by an infinite row (1/x^2 at 1e-160) are not nan but 0.
    log_a, slope, ratio = np.zeros((3, length - 1) + shape)  # slope: rows k (log a)_k
    log_a[0], ratio[0] = np.log(a[0]), b[0] / a[0]
    move(log_a, 0)
    move(ratio, 0)
    for k in range(1, length - 1):
        slope[k] = (wa[k] - _terms(a, ra, slope, k)) / a[0]
        move(slope, k)
        log_a[k] = slope[k] / k
        ratio[k] = (b[k] - _terms(a, ra, ratio, k)) / a[0]
        move(ratio, k)
    # Where b is constant at a point, log a is multiplied only by b's zero rows: leaving
    # it out keeps a^r of a negative a finite, as backward does for the base.
    constant_here = ~np.any(b[1:] != 0, axis=0)
    if constant_here.any():
        log_a = np.where(constant_here, 0.0, log_a)
    w = np.zeros((length,) + shape)
    for k in range(1, length):
        w[k] = _terms(wb, rb, log_a, k) + _terms(wa, ra, ratio, k)
    return w


def _pow_special_points(a, r, b, y):
    """Rows 1.. of y = a^r where a_0 = 0 or y_0 is 0, subnormal or infinite for a finite
    a_0, from the expansion about a_0. With a varying exponent b, row 1 adds backward's
    d/db; later rows are nan there unless y is flat (a constant base with y_0 = 0)."""
    length, shape = len(y), y.shape[1:]

    def flat(s):
        return np.broadcast_to(s, (length,) + shape).reshape(length, -1)

    base, out = flat(a), y.reshape(length, -1)
    a0, y0 = base[0], out[0]
    normal = (np.abs(y0) >= np.finfo(np.float64).tiny) & (np.abs(y0) < np.inf)
    special = (a0 == 0) | (np.isfinite(a0) & ~normal)
    special &= ~np.isnan(y0)
    if not special.any():
        return y
    r0 = np.broadcast_to(r, shape).reshape(-1)[special]
    rows = _power_about(base[:, special], r0)
    if b is not None:
        here, b_rows = (a0[special], y0[special]), flat(b)[:, special]
        d_db = np.where((here[1] == 0) & (r0 > 0), 0.0, here[1] * np.log(here[0]))
        rows[1] += np.where(b_rows[1] == 0, 0.0, d_db * b_rows[1])
        still = ~np.any(base[1:, special] != 0, axis=0) & (here[1] == 0)
        # Each term of a row is some a_0^(r - j) times powers of log a_0 and of the rows of
        # a and b: where every such power is 0 as well (2.3^-4500, not 1e-200^2, whose
        # a_0^(r - 2) is 1), the rows are 0, as the nested reverse passes find.
        with np.errstate(all="ignore"):
            gone = (here[1] == 0) & (here[0] != 0) & np.all(
                [np.power(here[0], r0 - j) == 0 for j in range(length)], axis=0)
        # A negative base has no real log: a varying exponent leaves a^b without a real
        # derivative however small a^b is ((-1e100)^(-1e100) underflows to an exact-looking
        # 0), as backward and e^z's rows elsewhere find (nan).
        negative = here[0] < 0
        rows[1] = np.where(negative & (b_rows[1] != 0), np.nan, rows[1])
        rows[2:] = np.where(np.any(b_rows[1:] != 0, axis=0) & (~still & ~gone | negative),
                            np.nan, rows[2:])
    out[1:, special] = rows[1:]
    return y


def _power_about(a, r):
    """Rows 1.. of a^r as sum_j c_j (a - a_0)^j with c_j = binom(r, j) a_0^(r-j), the
    Taylor coefficients of x^r at a_0. A term whose power of (a - a_0) is exactly zero is
    left out even where c_j is infinite (at a_0 = 0), as the nested reverse passes do."""
    delta = a.copy()
    delta[0] = 0.0
    rows = np.zeros_like(a)
    power, binom = delta, np.ones_like(r)
    for j in range(1, len(a)):
        binom = binom * (r - j + 1) / j
        c = np.where(binom == 0, 0.0, binom * np.power(a[0], r - j))
        rows += np.where(power == 0, 0.0, c * power)
        power = _product(power, delta, len(a))
    return rows


# The generic rule: for any function whose backward is built from primitives.

def _taylor_from_backward(function, series):
    """k y_k = sum_i sum_(j=1..k) j x_(i,j) g_(i,k-j), where g_i = df/dx_i is the gradient
    ``backward`` builds. That graph is recorded once at row 0 and the series run through
    it (rows 0..K-1 suffice). Where backward uses the output y itself, g's row k-1 needs y's
    rows up to k-1, so the nodes that depend on y are rerun one row at a time."""
    length = len(series[0])
    varying = [length > 1 and bool(np.any(s[1:])) for s in series]
    if not any(varying):
        return _start(function, series)[0]
    graph = _GradientGraph(function, series, varying)
    y, top = graph.y, len(series[0]) - 1
    weights = [_aligned(_weights(series[i]), y.ndim - 1) for i, _ in graph.roots]
    if not graph.roots:
        return y                        # backward says no input moves it
    graph.run(graph.fixed, top)
    # A gradient that depends on no input (sign's 0, a Function's own gy) is a constant of
    # shape (): aligned, so that its rows broadcast over the points, not along them.
    if not graph.uses_y:
        total = sum(_product(w, _aligned(graph.series(g, top), y.ndim - 1), length)
                    for w, (_, g) in zip(weights, graph.roots))
        y[1:] = total[1:] / np.arange(1, length).reshape((-1,) + (1,) * (y.ndim - 1))
        return y
    for k in range(1, length):
        graph.run(graph.rerun, k)
        y[k] = sum(_dot(w[1:k + 1], _aligned(graph.series(g, k), y.ndim - 1)[k - 1::-1])
                   for w, (_, g) in zip(weights, graph.roots)) / k
    return y


class _GradientGraph:
    """The gradients one primitive's backward builds at row 0, as steps to run series on."""

    def __init__(self, function, series, varying):
        import copy     # here: only Taylor mode's generic rule records (~0.6 ms at start-up)

        clone = copy.copy(function)  # recording must not rewire a graph `function` sits in
        self.inputs = [Variable(s[0], requires_grad=v) for s, v in zip(series, varying)]
        with using_backprop(True):
            self.output = clone(*self.inputs)
            grads = clone.backward(Variable(1.0, requires_grad=False))
        grads = grads if isinstance(grads, tuple) else (grads,)
        self.roots = [(i, as_variable(g)) for i, g in enumerate(grads)
                      if varying[i] and g is not None]
        self.y = _constant_series(self.output.data, len(series[0]))
        self.known = {id(x): s for x, s in zip(self.inputs, series)}
        self.known[id(self.output)] = self.y
        self.fixed, self.rerun, on_y = self._steps()
        self.uses_y = bool(self.rerun) or any(id(g) in on_y for _, g in self.roots)

    def _steps(self):
        """Every function between the gradients and the inputs, oldest first, split into
        those that do not depend on y (run once) and those that do (rerun per row)."""
        stop = set(self.known)
        functions, seen, stack = {}, set(), [g for _, g in self.roots]
        while stack:
            v = stack.pop()
            if id(v) in seen or id(v) in stop or v.creator is None:
                continue
            seen.add(id(v))
            functions[id(v.creator)] = v.creator
            stack.extend(v.creator.inputs)
        on_y, fixed, rerun = {id(self.output)}, [], []
        for f in sorted(functions.values(), key=lambda f: f.generation):
            step = (f, f.inputs, f.output())
            if any(id(v) in on_y for v in f.inputs):
                on_y.add(id(step[2]))
                rerun.append(step)
            else:
                fixed.append(step)
        return fixed, rerun, on_y

    def series(self, v, rows: int):
        s = self.known.get(id(v))
        if s is None:
            s = self.known[id(v)] = _constant_series(v.data, len(self.y))
        return s[:rows]

    def run(self, steps, rows: int):
        for f, inputs, output in steps:
            self.known[id(output)] = f.taylor(*[self.series(v, rows) for v in inputs])
