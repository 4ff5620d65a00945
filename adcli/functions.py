"""Every function and operator of the expression language, one class each.

A class is the whole definition: its name (and aliases), arity, forward on ndarrays,
backward on Variables, and the domain the tests sample it on. Defining the class registers
it; the parser finds functions by name here and the tests iterate over the registry.
Conventions at kinks and edges follow PyTorch (see the README).
"""
from __future__ import annotations

import math

import numpy as np

from .core import Function, Variable

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
    smooth_margin = 0.0                   # tests keep |kink(args)| above this margin

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

    @staticmethod
    def kink(*xs):
        """Distance-like measure to the nearest kink or pole; tests stay away from zeros."""
        return np.inf

    @property
    def y(self) -> Variable:
        return self.output()


class _Ops:
    """``op.sin(x)`` applies a fresh Sin to x: how backward rules call other primitives."""

    def __getattr__(self, name):
        cls = PRIMITIVES[name]
        return lambda *xs: cls()(*xs)


op = _Ops()


def _constant(array) -> Variable:
    return Variable(array, requires_grad=False)


# ----- operators ------------------------------------------------------------------------

_PLANE = ((-3.0, 3.0), (-3.0, 3.0))


class Add(Primitive):
    name, arity, callable = "add", 2, False
    symbol, spellings, dunder = "+", ("+",), "add"
    domain = _PLANE
    def forward(self, a, b): return a + b
    def backward(self, gy): return gy, gy


class Sub(Primitive):
    name, arity, callable = "sub", 2, False
    symbol, spellings, dunder = "-", ("-", "\u2212"), "sub"  # U+2212: the minus sign
    domain = _PLANE
    def forward(self, a, b): return a - b
    def backward(self, gy): return gy, -gy


class Mul(Primitive):
    name, arity, callable = "mul", 2, False
    symbol, spellings, dunder = "*", ("*", "\u00d7", "\u00b7", "\u22c5"), "mul"  # × · ⋅
    domain = _PLANE
    def forward(self, a, b): return a * b
    def backward(self, gy):
        a, b = self.inputs  # constants (2*x) get no gradient: a quarter of a typical graph
        return gy * b if a.requires_grad else None, gy * a if b.requires_grad else None


class Div(Primitive):
    name, arity, callable = "div", 2, False
    symbol, spellings, dunder = "/", ("/", "\u00f7"), "truediv"  # ÷
    domain = ((-3.0, 3.0), (0.5, 3.0))
    def forward(self, a, b): return a / b
    def backward(self, gy):
        a, b = self.inputs
        return (gy / b if a.requires_grad else None,
                -gy * self.y / b if b.requires_grad else None)


class Neg(Primitive):
    name, callable = "neg", False
    symbol = "-"
    def forward(self, x): return -x
    def backward(self, gy): return -gy


class Keep(Primitive):
    """x where ``keep`` holds, else exactly 0 (even where x is nan): pins conventions."""
    name, callable = "keep", False

    def __init__(self, keep=None):
        self.keep = keep

    def forward(self, x): return np.where(self.keep, x, 0.0)
    def backward(self, gy): return Keep(self.keep)(gy)


class Pow(Primitive):
    name, arity = "pow", 2
    symbol, spellings, dunder = "^", ("^", "**"), "pow"
    domain = ((0.2, 3.0), (-3.0, 3.0))

    def forward(self, a, b):
        if b.ndim == 0 and float(b).is_integer():
            # libm's pow is ~20x slower for negative bases; |a|^k with the sign put back
            # is the same correctly rounded number.
            y = np.power(np.abs(a), b)
            return np.copysign(y, a) if b % 2 else y
        return np.power(a, b)

    def backward(self, gy):
        a, b = self.inputs
        ga = gb = None
        # x^0 with a constant 0 is the constant 1: no graph, so higher derivatives are 0.
        if a.requires_grad and (b.requires_grad or b.data.any()):
            ga = gy * b * a ** (b - 1.0)
            # d/da a^b is 0 where a == b == 0 (PyTorch's convention; 0 * 0^-1 would be nan).
            ga = _pin_zero(ga, (b.data == 0) & (a.data == 0))
        if b.requires_grad:  # a constant exponent gets no gradient (no log of a < 0 either)
            # d/db a^b = a^b log a, taken as 0 where a^b == 0 and b > 0 (0^b is flat in b).
            gb = _pin_zero(gy * self.y * op.log(a), (self.y.data == 0) & (b.data > 0))
        return ga, gb


def _pin_zero(g: Variable, where: np.ndarray) -> Variable:
    return Keep(~where)(g) if where.any() else g


# ----- exponentials and logarithms ------------------------------------------------------

class Exp(Primitive):
    name = "exp"
    def forward(self, x): return np.exp(x)
    def backward(self, gy): return gy * self.y


class Log(Primitive):
    name, aliases = "log", ("ln",)
    domain = ((0.1, 10.0),)
    def forward(self, x): return np.log(x)
    def backward(self, gy): return gy / self.inputs[0]


class Log10(Primitive):
    name = "log10"
    domain = ((0.1, 10.0),)
    def forward(self, x): return np.log10(x)
    def backward(self, gy): return gy / (self.inputs[0] * math.log(10.0))


class Log2(Primitive):
    name = "log2"
    domain = ((0.1, 10.0),)
    def forward(self, x): return np.log2(x)
    def backward(self, gy): return gy / (self.inputs[0] * math.log(2.0))


class Log1p(Primitive):
    name = "log1p"
    domain = ((-0.9, 5.0),)
    def forward(self, x): return np.log1p(x)
    def backward(self, gy): return gy / (self.inputs[0] + 1.0)


class Expm1(Primitive):
    name = "expm1"
    def forward(self, x): return np.expm1(x)
    def backward(self, gy): return gy * (self.y + 1.0)


class Sqrt(Primitive):
    name = "sqrt"
    domain = ((0.1, 10.0),)
    def forward(self, x): return np.sqrt(x)
    def backward(self, gy): return gy / (2.0 * self.y)  # inf at 0, as in PyTorch


class Cbrt(Primitive):
    name = "cbrt"
    domain = ((-8.0, 8.0),)
    smooth_margin = 0.1
    kink = staticmethod(lambda x: np.abs(x))
    def forward(self, x): return np.cbrt(x)
    def backward(self, gy): return gy / (3.0 * self.y * self.y)


# ----- trigonometric --------------------------------------------------------------------

class Sin(Primitive):
    name = "sin"
    def forward(self, x): return np.sin(x)
    def backward(self, gy): return gy * op.cos(self.inputs[0])


class Cos(Primitive):
    name = "cos"
    def forward(self, x): return np.cos(x)
    def backward(self, gy): return -gy * op.sin(self.inputs[0])


class Tan(Primitive):
    name = "tan"
    domain = ((-1.3, 1.3),)
    def forward(self, x): return np.tan(x)
    def backward(self, gy): return gy * (1.0 + self.y * self.y)


class Sec(Primitive):
    name = "sec"
    domain = ((-1.3, 1.3),)
    def forward(self, x): return 1.0 / np.cos(x)
    def backward(self, gy): return gy * self.y * op.tan(self.inputs[0])


class Csc(Primitive):
    name = "csc"
    domain = ((0.3, 2.8),)
    def forward(self, x): return 1.0 / np.sin(x)
    def backward(self, gy): return -gy * self.y * op.cot(self.inputs[0])


class Cot(Primitive):
    name = "cot"
    domain = ((0.3, 2.8),)
    def forward(self, x): return np.cos(x) / np.sin(x)
    def backward(self, gy): return -gy * (1.0 + self.y * self.y)


class Asin(Primitive):
    name = "asin"
    domain = ((-0.9, 0.9),)
    def forward(self, x): return np.arcsin(x)
    def backward(self, gy):
        x = self.inputs[0]
        return gy / op.sqrt(1.0 - x * x)


class Acos(Primitive):
    name = "acos"
    domain = ((-0.9, 0.9),)
    def forward(self, x): return np.arccos(x)
    def backward(self, gy):
        x = self.inputs[0]
        return -gy / op.sqrt(1.0 - x * x)


class Atan(Primitive):
    name = "atan"
    def forward(self, x): return np.arctan(x)
    def backward(self, gy):
        x = self.inputs[0]
        return gy / (1.0 + x * x)


class Atan2(Primitive):
    name, arity = "atan2", 2
    domain = ((0.2, 3.0), (-3.0, 3.0))
    def forward(self, y, x): return np.arctan2(y, x)
    def backward(self, gy):
        y, x = self.inputs
        r2 = x * x + y * y  # 0 at the origin: nan there, as in PyTorch
        return gy * x / r2, -gy * y / r2


class Hypot(Primitive):
    name, arity = "hypot", 2
    domain = ((0.2, 3.0), (-3.0, 3.0))
    def forward(self, a, b): return np.hypot(a, b)
    def backward(self, gy):
        a, b = self.inputs
        return gy * a / self.y, gy * b / self.y  # nan at the origin, as in PyTorch


# ----- hyperbolic -----------------------------------------------------------------------

class Sinh(Primitive):
    name = "sinh"
    def forward(self, x): return np.sinh(x)
    def backward(self, gy): return gy * op.cosh(self.inputs[0])


class Cosh(Primitive):
    name = "cosh"
    def forward(self, x): return np.cosh(x)
    def backward(self, gy): return gy * op.sinh(self.inputs[0])


class Tanh(Primitive):
    name = "tanh"
    def forward(self, x): return np.tanh(x)
    def backward(self, gy): return gy * (1.0 - self.y * self.y)


class Asinh(Primitive):
    name = "asinh"
    def forward(self, x): return np.arcsinh(x)
    def backward(self, gy):
        x = self.inputs[0]
        return gy / op.sqrt(x * x + 1.0)


class Acosh(Primitive):
    name = "acosh"
    domain = ((1.1, 10.0),)
    def forward(self, x): return np.arccosh(x)
    def backward(self, gy):
        x = self.inputs[0]
        # sqrt(x-1)*sqrt(x+1) rather than sqrt(x^2-1): no cancellation near 1.
        return gy / (op.sqrt(x - 1.0) * op.sqrt(x + 1.0))


class Atanh(Primitive):
    name = "atanh"
    domain = ((-0.9, 0.9),)
    def forward(self, x): return np.arctanh(x)
    def backward(self, gy):
        x = self.inputs[0]
        return gy / (1.0 - x * x)


# ----- piecewise and neural-network staples ---------------------------------------------

class Abs(Primitive):
    name = "abs"
    smooth_margin = 1e-3
    kink = staticmethod(lambda x: np.abs(x))
    def forward(self, x): return np.abs(x)
    def backward(self, gy): return gy * _constant(np.sign(self.inputs[0].data))  # abs'(0) = 0


def _share(a, b, a_wins):
    """The share of the gradient going to a: 1 where it wins, 1/2 at a tie, else 0."""
    return _constant(np.where(a == b, 0.5, np.where(a_wins, 1.0, 0.0)))


class Min(Primitive):
    name, arity = "min", 2
    domain = _PLANE
    smooth_margin = 1e-3
    kink = staticmethod(lambda a, b: np.abs(a - b))
    def forward(self, a, b): return np.minimum(a, b)
    def backward(self, gy):
        a, b = self.inputs
        share = _share(a.data, b.data, a.data < b.data)
        return gy * share, gy * (1.0 - share)


class Max(Primitive):
    name, arity = "max", 2
    domain = _PLANE
    smooth_margin = 1e-3
    kink = staticmethod(lambda a, b: np.abs(a - b))
    def forward(self, a, b): return np.maximum(a, b)
    def backward(self, gy):
        a, b = self.inputs
        share = _share(a.data, b.data, a.data > b.data)
        return gy * share, gy * (1.0 - share)


class Sigmoid(Primitive):
    name = "sigmoid"
    domain = ((-20.0, 20.0),)
    def forward(self, x):
        # exp of -|x| never overflows, so |x| up to 1e308 is safe on both sides.
        z = np.exp(-np.abs(x))
        return np.where(x >= 0, 1.0 / (1.0 + z), z / (1.0 + z))
    def backward(self, gy): return gy * self.y * (1.0 - self.y)


class Softplus(Primitive):
    name = "softplus"
    domain = ((-20.0, 20.0),)
    def forward(self, x): return np.log1p(np.exp(-np.abs(x))) + np.maximum(x, 0.0)
    def backward(self, gy): return gy * op.sigmoid(self.inputs[0])


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
