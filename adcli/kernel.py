"""Value and first derivatives as straight-line numpy calls, recorded from the tape's rules.

The tape (core.py) makes a Variable and a Function per node on every evaluation and walks
a heap backwards; at many points, or for a huge expression, that bookkeeping costs more
than the arithmetic. Here each backward rule is *recorded* once per kind of node: it runs
on a few probe values while ``core.tracing`` logs every Function call it makes, and the
log becomes a ``Rule``. An expression is then laid out as one list of steps, each a
primitive's own ``forward`` on plain ndarrays: the forward pass, then each node's recorded
rule, in the order the tape would run them, with the gradients summed in the tape's order.
The calls are the tape's calls on the same numbers, so the results are the tape's to the
last bit; tests/test_kernel.py checks this over the whole registry and at kinks and edges.

A rule replays only if it decides nothing from the numbers of the points. It may look at a
constant (pow's exponent): then it is recorded per value of that constant. Any other look
at the data (``.data`` outside a Function call) is caught while recording and the
expression stays on the tape. Rules compute what they need from the data (abs's sign, a
pin's mask) with ``Flat`` calls, which replay like any other step.

Three ways to run them, all giving the same numbers:
- ``Program``: the steps laid out once per expression, constants folded, repeated calls
  shared, dead ones dropped, one-ufunc steps writing into buffers reused after their last
  use; run on cache-sized blocks of points, in threads (numpy releases the GIL inside its
  loops, and every step is elementwise). Where a step of pow's rule is c*a for a constant
  exponent (x^2's 2x), it is laid out as that one multiplication.
- ``Schedule``: node by node, each node's forward then its rule as a whole (no layout per
  step): cheaper to make, for a few points.
- ``interpret``: a Schedule run as it is worked out and kept nowhere, for expressions too
  big for either to pay (no Variables, no Functions, no heap, at most the memory of the
  values the rules need).
"""
from __future__ import annotations

import itertools
import math
import operator
import os
import threading
import time
import weakref
from array import array

import numpy as np

from .core import Variable, tracing, using_backprop
from .functions import FAR, PRIMITIVES, Flat, Primitive, cos, sin
from .records import Record

BLOCK = None              # points per block; None: sized per program (Program.block)
CACHE = 8 << 20           # bytes of a block's live arrays at most: they stay in cache
TUNE_ROUNDS = 3           # big calls per block size tried before a Program keeps one
COMPILE_LIMIT = 20_000    # nodes; beyond, a Program costs more to make than it saves
FEW = 64                  # points; at so few, a Schedule is as fast and cheaper to make


class NotReplayable(Exception):
    """A backward rule looked at the data: this expression's gradient stays on the tape."""


# ----- recording one backward rule ------------------------------------------------------

_DATA = Variable.__dict__["data"]  # the slot itself, read without being counted


class _Watched(Variable):
    """A Variable that counts how often its numbers are read."""

    __slots__ = ("reads",)

    def __init__(self, data, requires_grad: bool):
        self.reads = 0
        super().__init__(data, requires_grad=requires_grad)

    @property
    def data(self):
        self.reads += 1
        return _DATA.__get__(self)

    @data.setter
    def data(self, value):
        _DATA.__set__(self, value)


class Rule(Record):
    """A recorded backward rule. ``steps`` are (function, input refs); a ref is ("x", i),
    ("y",), ("gy",), ("t", j) (step j's output) or ("k", array) (a constant the rule made).
    ``grads`` holds one ref per input, or None where the rule gives no gradient."""

    _fields = ("steps", "grads", "_plan")

    def __init__(self, steps: tuple, grads: tuple, _plan: _Plan | None = None):
        self.steps, self.grads, self._plan = steps, grads, _plan

    def plan(self) -> _Plan:
        if self._plan is None:
            self._plan = _Plan(self)
        return self._plan


class _Plan:
    """A rule as calls over one list holding the inputs, y, gy, the rule's constants and
    then each step's output, for running it at once (``interpret``)."""

    def __init__(self, rule: Rule):
        refs = [r for _, rs in rule.steps for r in rs] + [g for g in rule.grads if g]
        self.constants = [r[1] for r in refs if r[0] == "k"]
        arity, after = len(rule.grads), len(rule.grads) + 2 + len(self.constants)
        place = {("y",): arity, ("gy",): arity + 1}
        numbered = iter(range(arity + 2, after))

        def index(ref):
            if ref[0] == "x":
                return ref[1]
            if ref[0] == "k":
                return next(numbered)  # constants are met in the order they were listed
            if ref[0] == "t":
                return after + ref[1]
            return place[ref]

        self.steps = [(_direct_forward(f), [index(r) for r in rs]) for f, rs in rule.steps]
        self.grads = [None if g is None else index(g) for g in rule.grads]
        read = {a for _, args in self.steps for a in args} | \
            {g for g in self.grads if g is not None}
        # Which of the node's inputs and output its rule reads: the others' values may be
        # dropped after the forward pass (``interpret`` holds no more than the rules need).
        self.reads_x = tuple(i in read for i in range(arity))
        self.reads_y = arity in read
        # Steps of one or two arguments (nearly all) are called without building a list.
        self._calls = [(forward, args[0], args[1] if len(args) == 2 else -1)
                       if 1 <= len(args) <= 2 else (forward, args, None)
                       for forward, args in self.steps]
        # For run1/run2, whose list ends with a None after the constants: the steps'
        # outputs are one further on, and a missing gradient is that None.
        none = after

        def moved(k):
            return k + 1 if k >= after else k
        if 1 <= arity <= 2:
            self._fast = [(f, [moved(k) for k in a], None) if b is None else
                          (f, moved(a), b if b < 0 else moved(b)) for f, a, b in self._calls]
            picks = [none if g is None else moved(g) for g in self.grads]
            self._g0, self._g1 = picks[0], picks[-1]

    def run(self, xs, y, gy) -> list:
        env = _replay([*xs, y, gy, *self.constants], self._calls)
        return [None if g is None else env[g] for g in self.grads]

    def run2(self, x0, x1, y, gy) -> tuple:
        """run for a node of two inputs: (gx0, gx1)."""
        env = _replay([x0, x1, y, gy, *self.constants, None], self._fast)  # None: no gradient
        return env[self._g0], env[self._g1]

    def run1(self, x, y, gy):
        """run for a node of one input: its gradient."""
        return _replay([x, y, gy, *self.constants, None], self._fast)[self._g0]


def _replay(env: list, calls) -> list:
    """env with each call's output appended: (forward, a, b) is forward(env[a], env[b]),
    forward(env[a]) where b < 0, and forward(*env[k] for k in a) where b is None."""
    append = env.append
    for forward, a, b in calls:
        if b is None:
            append(forward(*[env[k] for k in a]))
        elif b < 0:
            append(forward(env[a]))
        else:
            append(forward(env[a], env[b]))
    return env


_rules: dict = {}
_rules_lock = threading.Lock()
_BY_VALUE = object()  # marks a kind of node whose rule looks at its constants' values


def rule_for(cls, constants) -> Rule:
    """The recorded rule of ``cls`` for inputs that vary (None in ``constants``) or are the
    given 0-d constants. Raises NotReplayable if the rule reads the points' numbers."""
    shape = (cls, tuple([c is None for c in constants]))
    rule = _rules.get(shape)
    if rule.__class__ is Rule:
        return rule
    values = shape + tuple([None if c is None else c.tobytes() for c in constants])
    with _rules_lock:
        rule = _rules.get(shape)
        if rule is _BY_VALUE:
            rule = _rules.get(values)
        if rule is None:
            rule, by_value = _record(cls, constants)
            if by_value:
                _rules[shape], _rules[values] = _BY_VALUE, rule
            else:
                _rules[shape] = rule
    if isinstance(rule, NotReplayable):
        raise rule
    return rule


def _record(cls, constants):
    """Run cls's backward on probe values under a tracer; return (Rule or the
    NotReplayable to raise, whether it read a constant's value)."""
    function = cls()
    domain = getattr(cls, "domain", ())
    xs = []
    for i, c in enumerate(constants):
        if c is None:
            lo, hi = domain[i] if i < len(domain) else (-3.0, 3.0)
            xs.append(_Watched(lo + (hi - lo) * np.array([0.31, 0.67]), requires_grad=True))
        else:
            xs.append(_Watched(c, requires_grad=False))
    with np.errstate(all="ignore"):
        y = _Watched(function.forward(*[_DATA.__get__(x) for x in xs]),
                     requires_grad=any(c is None for c in constants))
    gy = _Watched(np.array([0.7, -1.3]), requires_grad=False)
    function.inputs, function.output, function.generation = tuple(xs), weakref.ref(y), 1
    log = []
    with tracing(lambda f, inputs, output: log.append((f, inputs, output))), \
            using_backprop(False), np.errstate(all="ignore"):
        grads = function.backward(gy)
    grads = grads if isinstance(grads, tuple) else (grads,)
    calls = {}
    for _, inputs, _ in log:
        for v in inputs:
            calls[id(v)] = calls.get(id(v), 0) + 1
    looked = [v.reads > calls.get(id(v), 0) for v in (*xs, y, gy)]
    reads_constants = any(looked[i] for i, c in enumerate(constants) if c is not None)
    if any(looked[i] for i, c in enumerate(constants) if c is None) or any(looked[-2:]):
        return NotReplayable(f"{cls.__name__}.backward reads the values of the points"), False
    try:
        return _as_rule(log, xs, y, gy, grads, constants), reads_constants
    except NotReplayable as error:
        return error, reads_constants


def _as_rule(log, xs, y, gy, grads, constants) -> Rule:
    refs = {id(x): ("x", i) for i, x in enumerate(xs)}
    refs[id(y)], refs[id(gy)] = ("y",), ("gy",)

    def ref(v):
        if isinstance(v, Variable) and id(v) in refs:
            return refs[id(v)]
        data = np.asarray(_DATA.__get__(v) if isinstance(v, Variable) else v, dtype=np.float64)
        if data.ndim:
            raise NotReplayable("a backward rule made numbers of the points outside a call")
        return ("k", data)

    steps = []
    for function, inputs, output in log:
        _check_pure(function)
        steps.append((function, tuple(ref(v) for v in inputs)))
        refs[id(output)] = ("t", len(steps) - 1)
    grads = tuple(None if g is None or constants[i] is not None else ref(g)
                  for i, g in enumerate(grads))
    return Rule(tuple(steps), grads)


def _check_pure(function) -> None:
    """A step is replayed with the state it was recorded with: arrays of the probe points
    kept in that state (a mask, say) would be wrong on other points."""
    for value in vars(function).values():
        cells = getattr(value, "__closure__", None) or ()
        for v in (value, *[c.cell_contents for c in cells]):
            if isinstance(v, np.ndarray) and v.ndim:
                raise NotReplayable(f"{type(function).__name__} keeps numbers of the points")


# ----- laying out an expression as steps -----------------------------------------------

# Rounded exactly like the tape whatever the shapes: IEEE arithmetic and selection. Only
# these run on a 0-d stand-in for an array of ones (the seed of the backward pass).
_EXACT = {PRIMITIVES[name] for name in ("add", "sub", "mul", "div", "neg", "keep")}
_POW, _MUL, _DIV = PRIMITIVES["pow"], PRIMITIVES["mul"], PRIMITIVES["div"]


class _Sum:
    """Summing two gradients as the tape does without create_graph: ndarray +."""

    forward = staticmethod(np.add)


_SUM = _Sum()
_EXACT.add(_Sum)


def _float_forward(function):
    """The step's callable: ``forward``, converted to float64 where Variable would."""
    if isinstance(function, Flat):
        rule = function.rule
        return lambda *xs: np.asarray(rule(*xs), dtype=np.float64)
    return function.forward


class _Layout:
    """Steps over numbered slots. A slot holds a runtime array, or a 0-d constant known
    now; a *uniform* constant stands for an array of that one value (the tape seeds its
    backward pass with an array of ones), so it only meets exact arithmetic as a 0-d."""

    def __init__(self, names, rescale: bool = False):
        self.rescale = rescale                # (c*a)*a as c*(a*a): see _rescaled
        self.scaled: dict = {}                # slot of c*a: (slot of c, slot of a)
        self.rescaled = False
        self.guards: list[int] = []           # steps kept for their flags (see _rescaled)
        self.known: list = []                 # per slot: its 0-d value, or None
        self.uniform: set[int] = set()
        self.steps: list = []                 # (callable, argument slots, output slot)
        self.inputs = {name: self._slot(None) for name in names}
        self.interned: dict = {}
        self.shared: dict = {}
        self.kinks: list = []                 # (function, slot of its kink mask)
        self.folded_out = False               # a constant folded over- or underflowed
        self.one = self.constant(np.asarray(1.0), uniform=True)

    def _slot(self, value, uniform=False) -> int:
        self.known.append(value)
        if uniform:
            self.uniform.add(len(self.known) - 1)
        return len(self.known) - 1

    def constant(self, value: np.ndarray, uniform: bool = False) -> int:
        key = (value.tobytes(), uniform)
        slot = self.interned.get(key)
        if slot is None:
            slot = self.interned[key] = self._slot(value, uniform)
        return slot

    def call(self, function, args) -> int:
        """The slot of function(*args): folded, simplified, shared or a new step."""
        known = [self.known[a] for a in args]
        exact = type(function) in _EXACT
        uniform = any(a in self.uniform for a in args)
        if uniform and not exact:
            args = [self._spread(a) if a in self.uniform else a for a in args]
            known = [self.known[a] for a in args]
            uniform = False
        if all(k is not None for k in known):
            value, out = _folded(_float_forward(function), known)
            self.folded_out |= out
            return self.constant(np.asarray(value, dtype=np.float64), uniform)
        same = self._identity(function, args, known)
        if same is not None:
            return same
        if type(function) is _POW and known[0] is None and known[1] is not None:
            plan = _power_steps(known[1])
            if plan is not None:
                return self._expand(plan, args)
        if type(function) in _SCALED and known[0] is None and known[1] is not None:
            c = _power_scale(function, known[1])
            if c is not None:
                return self.call(_ufunc_step(np.multiply), [self.constant(c), args[0]])
        key = _share_key(function, args)
        if key is not None and key in self.shared:
            return self.shared[key]
        multiply = self.rescale and _is_multiply(function)
        if multiply:
            same = self._rescaled(args)
            if same is not None:
                return same
        slot = self._slot(None)
        self.steps.append((function, tuple(args), slot))
        if key is not None:
            self.shared[key] = slot
        if multiply:
            for c, a in (args, args[::-1]):
                if self.known[c] is not None and _exact_scale(self.known[c]):
                    self.scaled[slot] = (c, a)
        return slot

    def _rescaled(self, args):
        """Products of exact scales c = +-2^k, 1 <= k <= 512 (c*a is exact unless it
        overflows, subnormal a included) laid out so that a step can go (c*a, where
        nothing else uses it), each where a factor's square is a step already:
        - (c*a)*a as c*(a*a) (x^2's value beside the rule 2x*y of exp(x^2)^2): the same
          unless a*a rounds below the normal range (if c*a overflows, so does a*a);
        - (c*a)*(d*b) as ((c*d)*a)*b, b*b made ((2f)*(2x) in exp(x^2)^2's gradient): one
          rounding of c*d*a*b either way, unless c*a overflows (and so (c*d)*a) or d*b does
          (and so b*b, as |d| <= 2^512).
        A Program that rescales runs a block where a step underflowed or overflowed again
        without (Program.exact)."""
        scaled = [self.scaled.get(p, (None, None)) for p in args]
        for (c, a), q in zip(scaled, args[::-1]):
            square = self._square(a) if a is not None and a == q else None
            if square is not None:
                self.rescaled = True
                return self.call(_ufunc_step(np.multiply), [c, square])
        if None in (scaled[0][0], scaled[1][0]):
            return None
        for (c, a), (d, b) in (scaled, scaled[::-1]):
            cd = self.known[c] * self.known[d]
            square = self._square(b)
            if _exact_scale(cd) and square is not None:
                self.rescaled = True
                self.guards.append(square)
                multiply = _ufunc_step(np.multiply)
                return self.call(multiply, [self.call(multiply, [self.constant(cd), a]), b])
        return None

    def _square(self, a):
        """The slot of a*a if it is a step already, else None."""
        for square in (_MUL(), _ufunc_step(np.multiply)):
            slot = self.shared.get(_share_key(square, (a, a)))
            if slot is not None:
                return slot
        return None

    def _identity(self, function, args, known):
        """x*1, 1*x, x/1 and x^1 are x itself, to the bit (pow(x, 1) is exact)."""
        kind = type(function)
        if kind is _MUL:
            for i in (0, 1):
                if known[i] is not None and known[i] == 1.0 and known[1 - i] is None:
                    return args[1 - i]
        elif kind in (_DIV, _POW) and known[1] is not None and known[1] == 1.0 \
                and known[0] is None:
            return args[0]
        return None

    def kink(self, function, args) -> None:
        """A step marking where ``function``'s inputs sit on its kinks (or None: nowhere),
        as the tape's forward pass does for Diagnostics."""
        if _never_kinks(function, [self.known[a] for a in args]):
            return  # x^2: its constant exponent rules kinks out here, once, not per block
        slot = self._slot(None)
        self.steps.append((_Kinks(function), tuple(args), slot))
        self.kinks.append((function, slot))

    def _expand(self, plan, args) -> int:
        made = []
        for ufunc, *refs in plan:
            inputs = [args[0] if r == "a" else args[1] if r == "b" else made[r] for r in refs]
            made.append(self.call(_ufunc_step(ufunc), inputs))
        return made[-1]

    def _spread(self, slot) -> int:
        """A uniform constant as the array of that value the tape would have."""
        value = self.known[slot]
        like = next(iter(self.inputs.values()))
        return self.call(_Full(value), [like])

    def apply(self, rule: Rule, xs, y, gy) -> list:
        """Lay out a recorded rule for one node: the gradient slot of each input."""
        made = []

        def slot(ref):
            kind = ref[0]
            if kind == "x":
                return xs[ref[1]]
            if kind == "t":
                return made[ref[1]]
            if kind == "k":
                return self.constant(ref[1])
            return y if kind == "y" else gy

        for function, refs in rule.steps:
            made.append(self.call(function, [slot(r) for r in refs]))
        return [None if g is None else slot(g) for g in rule.grads]


def _folded(forward, args) -> tuple:
    """forward(*args) of constants, and whether it overflowed or underflowed: the tape
    raises that flag at every run (exp(-800)*exp(x): the cross-check looks at every point
    then); folded once here, it must be said so (Program.folded_out)."""
    raised = []
    with np.errstate(all="ignore", over="call", under="call",
                     call=lambda error, flag: raised.append(error)):
        value = forward(*args)
    return value, bool(raised)


def _is_multiply(function) -> bool:
    """A step that is np.multiply (Mul's forward, checked on probes, or the ufunc)."""
    return isinstance(function, (_Ufunc, _MUL)) and _step_ufunc(function) is np.multiply


def _exact_scale(c) -> bool:
    """c = +-2^k, 1 <= k <= 512: c*a is exact unless it overflows, subnormal a included."""
    mantissa, exponent = np.frexp(c)
    return c.ndim == 0 and abs(float(mantissa)) == 0.5 and 2 <= int(exponent) <= 513


def _direct_forward(function):
    """The step's callable, the ufunc itself where the forward is one (a Python call less,
    the same numbers: _ufunc_of checks it as the Program does)."""
    if isinstance(function, Primitive) and not isinstance(function, Flat):
        ufunc = _ufunc_of(type(function))
        if ufunc is not None:
            return _REPAIRED.get(ufunc, ufunc)
    return _float_forward(function)


class _Kinks:
    """A node's kink mask as a step (never shared, never folded)."""

    def __init__(self, function):
        self.forward = function.kinks


def _never_kinks(function, known) -> bool:
    """Whether ``function.kinks``, given the arguments known now, marks no point whatever
    the others are: it answers None (no pass over them) on the probes. Checked once."""
    if all(k is None for k in known):
        return False
    key = (*_identity_key(function), tuple(None if k is None else k.tobytes() for k in known))
    if key not in _checked:
        probe = _probes(1)[0]
        _checked[key] = function.kinks(*[probe if k is None else k for k in known]) is None
    return _checked[key]


def _has_kinks(function) -> bool:
    return type(function).kinks is not Primitive.kinks


def _mark_kinks(kinks: list, function, arrays, n: int) -> None:
    """Append (function, its kink mask over the n points) if a point sits on a kink: a
    polynomial of 10^4 terms at one point has 10^4 masks to make, nearly all empty."""
    mask = function.kinks(*arrays)
    if mask is not None and mask.any():
        kinks.append((function, np.broadcast_to(mask, (n,))))


class _Full:
    """An array of one value shaped like the points (a uniform constant made real)."""

    def __init__(self, value):
        self.value = value

    def forward(self, like):
        return np.full(like.shape, self.value)


def _identity_key(function) -> tuple:
    """A function's class and state: two instances with equal keys compute the same."""
    state = vars(function)
    return type(function), tuple(sorted(state.items())) if state else ()


def _share_key(function, args):
    try:
        key = (*_identity_key(function), tuple(args))
        hash(key)
    except TypeError:
        return None
    return key


def _kinked(expression, wrt, order: int):
    """Per node, whether its kinks are marked: only where it depends on a variable
    differentiated in (``Expression.moving``); None: wherever it depends on any."""
    if not order or set(wrt) >= set(expression.variables):
        return None
    return expression.moving(wrt)


def lay_out(expression, wrt, order: int, layout: _Layout):
    """The value's slot and each wanted gradient's slot (None: the gradient is 0), with
    the steps in the tape's order: forward in node order, then backward by generation,
    newest first and first pushed first, as core.Variable.backward pops its heap."""
    nodes = expression.nodes
    slots, key = [], []          # per node: data slot; the Variable it is (name or index)
    varying, generation = set(expression.variables), {}
    kinked = _kinked(expression, wrt, order)
    for i, node in enumerate(nodes):
        if node.kind == "variable":
            slots.append(layout.inputs[node.name])
            key.append(node.name)
            continue
        key.append(i)
        if node.function is None:
            slots.append(layout.constant(np.asarray(node.value, dtype=np.float64)))
            continue
        function = node.function()
        slots.append(layout.call(function, [slots[j] for j in node.args]))
        moving = [key[j] for j in node.args if key[j] in varying]
        if moving:
            varying.add(i)
            generation[i] = max(generation.get(k, -1) + 1 for k in moving)
            if _has_kinks(function) and (kinked is None or kinked[i]):
                layout.kink(function, [slots[j] for j in node.args])
    value = slots[-1]
    if order == 0 or key[-1] not in varying:
        return value, {name: None for name in wrt}
    grads = _backward(nodes, slots, key, varying, generation, layout)
    return value, {name: grads.get(name) for name in wrt}


def _backward(nodes, slots, key, varying, generation, layout) -> dict:
    """The gradient slot of every Variable the backward pass reaches."""
    grads = {key[-1]: layout.one}
    buckets: dict[int, list[int]] = {}
    seen = set()

    def push(k):
        if isinstance(k, int) and k not in seen:
            seen.add(k)
            buckets.setdefault(generation[k], []).append(k)

    push(key[-1])
    for g in range(generation.get(key[-1], -1), -1, -1):
        for i in buckets.pop(g, ()):
            node = nodes[i]
            constants = [None if key[j] in varying else layout.known[slots[j]]
                         for j in node.args]
            rule = rule_for(node.function, constants)
            gy = grads.pop(i) if i != key[-1] else grads[i]
            gxs = layout.apply(rule, [slots[j] for j in node.args], slots[i], gy)
            for j, gx in zip(node.args, gxs):
                k = key[j]
                if gx is None or k not in varying:
                    continue
                grads[k] = gx if k not in grads else layout.call(_SUM, [grads[k], gx])
                push(k)
    return grads


# ----- forwards that are one ufunc, so they can write into reused buffers -----------------

_UFUNCS = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide,
           "neg": np.negative, "exp": np.exp, "log": np.log, "log10": np.log10,
           "log2": np.log2, "log1p": np.log1p, "expm1": np.expm1, "sqrt": np.sqrt,
           "sin": np.sin, "cos": np.cos, "tan": np.tan, "asin": np.arcsin,
           "acos": np.arccos, "atan": np.arctan, "atan2": np.arctan2, "hypot": np.hypot,
           "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh, "asinh": np.arcsinh,
           "acosh": np.arccosh, "atanh": np.arctanh, "abs": np.absolute,
           "min": np.minimum, "max": np.maximum}

# Ufuncs whose results past functions.FAR are mended in long double (glibc's sin and cos
# there): a Program's step is laid out as the ufunc and run as the Reduced's ``into``
# (_repair_steps).
_REPAIRED: dict = {np.sin: sin, np.cos: cos}

_SPECIAL = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0, 0.1, 0.7, 1.3,
                     2.9, 30.0, -30.0, 710.0, -745.0, 1e-8, 1e16, 94906267.0, 1e-300,
                     -1e-300, 5e-324, 1e300, -1e300, np.inf, -np.inf, np.nan])


def identical(a, b) -> bool:
    """The same float64s: equal values, zeros of the same sign, nan where nan."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return a.shape == b.shape and np.array_equal(a, b, equal_nan=True) and \
        np.array_equal(np.signbit(a) & (a == 0), np.signbit(b) & (b == 0))


def _probes(arity: int):
    if arity == 1:
        return [np.concatenate([_SPECIAL, np.linspace(-10.0, 10.0, 401)])]
    a, b = np.meshgrid(_SPECIAL, np.concatenate([_SPECIAL, np.linspace(-3.0, 3.0, 13)]))
    return [a.ravel(), b.ravel()]


_checked: dict = {}


def _ufunc_of(cls):
    """The ufunc cls.forward is, checked once on probe values (a forward that is changed
    to something else stops being replaced here rather than giving other numbers)."""
    if cls not in _checked:
        ufunc = _UFUNCS.get(getattr(cls, "name", None))
        if ufunc is not None:
            xs = _probes(ufunc.nin)
            with np.errstate(all="ignore"):
                if not identical(cls().forward(*xs), _REPAIRED.get(ufunc, ufunc)(*xs)):
                    ufunc = None
        _checked[cls] = ufunc
    return _checked[cls]


class _Ufunc:
    """A step that is one ufunc (the pieces of pow with a constant exponent)."""

    def __init__(self, ufunc):
        self.ufunc = ufunc

    def forward(self, *xs):
        return self.ufunc(*xs)


_ufunc_steps: dict = {}


def _ufunc_step(ufunc) -> _Ufunc:
    return _ufunc_steps.setdefault(ufunc, _Ufunc(ufunc))


_NEGATIVE = _ufunc_step(np.negative)


def _step_ufunc(function):
    if isinstance(function, _Ufunc):
        return function.ufunc
    if isinstance(function, _Sum):
        return np.add
    return _ufunc_of(type(function))


def _power_steps(exponent: np.ndarray):
    """pow(a, b) for this constant b as ufunc steps ((ufunc, uses a twice) list), checked
    against Pow.forward on probes; None where they would differ."""
    key = exponent.tobytes()
    if key not in _checked:
        b = float(exponent)
        if b == 2.0:
            plan = [(np.multiply, "a", "a")]
        elif b.is_integer():
            plan = [(np.absolute, "a"), (np.power, 0, "b")]
            if b % 2:
                plan.append((np.copysign, 1, "a"))
        else:
            plan = [(np.power, "a", "b")]
        a = _probes(1)[0]
        with np.errstate(all="ignore"):
            if not identical(_POW().forward(a, exponent), _run_plan(plan, a, exponent)):
                plan = None
        _checked[key] = plan
    return _checked[key]


_SCALED = {PRIMITIVES["pow_diff"], PRIMITIVES["pow_shift"]}


def _power_scale(function, exponent: np.ndarray):
    """The constant c where this step of pow's rule is c * a for this exponent (x^2's 2x):
    c is the step at a = 1, taken only where the step equals c * a on the probes; else None."""
    key = (*_identity_key(function), exponent.tobytes())
    if key not in _checked:
        a = _probes(1)[0]
        with np.errstate(all="ignore"):
            c = np.asarray(function.forward(np.ones(1), exponent)).reshape(())
            _checked[key] = c if identical(function.forward(a, exponent), c * a) else None
    return _checked[key]


def _run_plan(plan, a, b):
    made = []
    for ufunc, *refs in plan:
        made.append(ufunc(*[a if r == "a" else b if r == "b" else made[r] for r in refs]))
    return made[-1]


# ----- running the steps ----------------------------------------------------------------

class Program:
    """An expression's value and gradient as steps over slots, kept for reuse: only the
    steps an output needs; one-ufunc steps write into buffers reused after their last
    use, or straight into the result."""

    def __init__(self, layout: _Layout, value: int, grads: dict):
        self.names = list(grads)
        self.kinks = layout.kinks                     # (function, slot of its mask)
        outputs = [value, *grads.values()]            # one per result, None: zero
        roots = [o for o in outputs if o is not None] + [slot for _, slot in self.kinks] + \
            layout.guards
        steps = _paired(_needed(_fold_signs(layout, set(roots)), roots, layout.known))
        self.initial = list(layout.known)
        self.inputs = layout.inputs
        self.outputs = outputs
        self.ops, self.buffers, self.direct = _registers(steps, outputs)
        self.arrays = self.buffers + len(self.inputs) + len(outputs)
        self.block = _block_for(self.arrays)
        self._tuners: dict[int, _Tuner] = {}          # per number of workers
        # What _run loops over, a few times per block: each op's arguments unpacked (a
        # list made per call, for *args, cost as much as a ufunc call on a block).
        repaired, self._looks = _repair_steps(self.ops)
        self._steps = [_unpacked(*op) for op in repaired]
        self._copies = [(self.buffers + i, slot) for i, slot in enumerate(outputs)
                        if i not in self.direct]
        self.flagged = _flag_honest(steps, self.initial)
        self.folded_out = layout.folded_out
        self.rescaled = layout.rescaled
        self.exact: Program | None = None  # the same without rescaling, where it differs

    def run(self, columns: dict[str, np.ndarray], n: int, ranged: list | None = None):
        """(value, gradients) at n points, each column of shape (n,); with a list
        ``ranged``, each block (start, stop) where a step overflowed or underflowed is
        appended to it."""
        # One allocation for all results, not one each: freed together, it stays in
        # malloc's heap for the next call instead of going back to the system and being
        # page-faulted in again (glibc returns a top chunk larger than twice the biggest
        # freed mapping; measured on E1 at 10^6 points: 800 page faults and 3 ms a call).
        results = list(np.empty((len(self.outputs), n)))
        masks = [np.zeros(n, dtype=bool) for _ in self.kinks]
        found = [False] * len(self.kinks)
        size, tuner = (BLOCK, None) if BLOCK else self._size(n, _workers())
        starts = range(0, n, size)
        spare = threading.local()  # each thread's buffers, made once per run
        ranged = [] if ranged is None else ranged

        def block(start):
            stop, over, under = min(n, start + size), _flags.over, _flags.under
            finite = self._block(columns, results, masks, found, start, stop, spare,
                                 min(n, size))
            if _flags.over != over or _flags.under != under:
                ranged.append((start, stop))  # (atomic: blocks run in threads)
            return finite

        if self.folded_out:  # (every point is flagged, as on the tape)
            ranged.append((0, n))
        began = time.perf_counter()
        finite = _share_out(block, starts)
        if tuner is not None:
            tuner.took(size, (time.perf_counter() - began) / n)
        if not finite:
            finite = all(np.isfinite(r).all() for r in results)
        kinks = [(function, mask) for (function, _), mask, any_ in
                 zip(self.kinks, masks, found) if any_]
        return results[0], dict(zip(self.names, results[1:])), finite, kinks

    def _size(self, n: int, workers: int):
        """Points per block for n points, and the _Tuner to tell how long they took (None:
        this call teaches nothing, too small for the sizes tried, or they are settled)."""
        tuner = self._tuners.get(workers)
        if tuner is None:
            tuner = self._tuners[workers] = _Tuner(_block_sizes(self.block, self.arrays))
        if tuner.best is not None or n < 2 * workers * tuner.sizes[-1]:
            return _shared_block(tuner.best or self.block, n, workers), None
        return tuner.next(), tuner

    def _block(self, columns, results, masks, found, start, stop, spare, size) -> bool:
        """The results' points start:stop; True if they are finite (False: perhaps not)."""
        buffers = vars(spare).get(id(self))
        if buffers is None:
            buffers = vars(spare)[id(self)] = [np.empty(size) for _ in range(self.buffers)]
        if stop - start < size:  # the last block: the buffers' first part
            buffers = [b[:stop - start] for b in buffers]
        places = buffers + [r[start:stop] for r in results]
        flags, under = _flags.count, _flags.under
        self._run(columns, places, masks, found, start, stop)
        if self.exact is not None and (_flags.under != under or _flags.count != flags):
            # A rescaled product may differ from the tape's where a step rounded below
            # the normal range or overflowed (see _Layout._rescaled): the block again, as
            # the tape computes it.
            return self.exact._block(columns, results, masks, found, start, stop, spare,
                                     size)
        if not self.flagged or _flags.count != flags:
            return _all_finite(places[self.buffers:])
        # No step raised a flag, so none made nan or inf from finite arguments (see
        # _flag_honest): the results are finite if the inputs are, which costs one pass
        # over the inputs (in cache now) rather than one over every result.
        # An input sin or cos looked at with no point past FAR has no nan or inf either
        # (E2's x1: one pass fewer a block).
        seen = vars(self._looks)
        return _all_finite([columns[name][start:stop] for name, slot in self.inputs.items()
                            if seen.get(slot) is not False])

    def _run(self, columns, places, masks, found, start, stop) -> None:
        """One block: ``places`` holds the buffers, then the blocks of the results."""
        values = self.initial.copy()
        for name, slot in self.inputs.items():
            values[slot] = columns[name][start:stop]
        for forward, a, b, out, where, frees in self._steps:
            if b >= 0:  # most steps: a ufunc of two arguments, writing into its place
                values[out] = forward(values[a], values[b], out=places[where])
            elif b == -1:
                values[out] = forward(values[a], out=places[where])
            elif where is None:  # a is the arguments' slots
                values[out] = forward(*[values[k] for k in a])
            else:
                values[out] = forward(*[values[k] for k in a], out=places[where])
            for f in frees:
                values[f] = None
        for place, slot in self._copies:
            places[place][...] = 0.0 if slot is None else values[slot]
        for k, (_, slot) in enumerate(self.kinks):
            kinks = values[slot]
            if kinks is not None and kinks.any():
                masks[k][start:stop] = kinks
                found[k] = True


def _all_finite(arrays) -> bool:
    """Whether every array is all finite, with a false alarm only where a sum overflows.
    np.einsum's sum is ~40% cheaper than np.add.reduce's; not np.dot with ones, though
    cheaper still alone: BLAS's own threads, on top of these, made E3 on two cores twice
    as slow."""
    return math.isfinite(sum([float(np.einsum("i->", a)) for a in arrays]))


def _flag_honest(steps, constants) -> bool:
    """Whether a block can be known finite from floating-point flags: every step is a
    ufunc or a primitive adcli defines, each of which raises overflow, divide or invalid
    whenever it makes nan or inf from finite arguments (IEEE 754 for the ufuncs; checked
    for every primitive on probe values in the tests), and no constant is nan or inf.
    Other functions (a Flat's rule, a primitive registered from outside) may make nan
    quietly: their programs check every result."""
    for function, _, _ in steps:
        if isinstance(function, _Full):
            if not np.isfinite(function.value).all():
                return False
        elif not isinstance(function, (_Ufunc, _Sum, _Kinks)) and not _ours(function):
            return False
    return all(c is None or np.isfinite(c).all() for c in constants)


def _ours(function) -> bool:
    """A primitive adcli defines (a class registered from elsewhere is not checked)."""
    return isinstance(function, Primitive) and type(function).__module__ == Primitive.__module__


def _repair_steps(ops) -> list:
    """ops with sin's and cos's steps run as their Reduced's ``into``: the first on an
    argument looks for points past FAR, and the later ones on it take what it saw (E3's
    sin(x) and cos(x): one look, 8 us a block, not two). A block's steps run in order on
    one thread, so the note read, per thread, is this block's. Returns the steps and the
    notes (slot: whether some point was past FAR, or nan). A sin and a cos of one argument
    side by side (_paired) are made together by the second of them."""
    notes, looked, made, seconds = threading.local(), set(), [], {-1}
    for index, (forward, args, out, where, frees) in enumerate(ops):
        if index - 1 not in seconds and _pairs(ops[index - 1], ops[index]):
            seconds.add(index)
            made[-1] = (_held(notes, index), *made[-1][1:])
            forward = _both(ops[index - 1][0], forward, notes, args[0], index)
        elif forward in _REPAIRED and where is not None:
            forward = _repair_step(_REPAIRED[forward], notes, args[0], args[0] not in looked)
            looked.add(args[0])
        made.append((forward, args, out, where, frees))
    return made, notes


def _pairs(first, second) -> bool:
    """Whether two ops are a sin and a cos of one argument, each into a place of its own."""
    return {first[0], second[0]} == {np.sin, np.cos} and first[1] == second[1] and \
        first[3] is not None and second[3] is not None and _fast_sincos() is not None


def _held(notes, index):
    """The first of a pair: its place, kept for the second to fill (nothing runs between)."""
    def step(x, out):
        vars(notes)[index] = out
        return out
    return step


def _both(first, second, notes, slot: int, index: int):
    """The second of a pair: both results in one call of _sincos, or, where a point is not
    one it takes, each Reduced's ``into`` as unpaired steps run them. ``out`` may be x's
    own place (x's last use), the first's place never is: the first is written first."""
    fast, ufuncs = _fast_sincos(), (first, second)

    def step(x, out):
        places = (vars(notes)[index], out)
        sin_out, cos_out = places if first is np.sin else places[::-1]
        if fast(x, sin_out, cos_out, FAR):
            vars(notes)[slot] = False
            return out
        far = vars(notes)[slot] = sin.far(x)
        for ufunc, place in zip(ufuncs, places):
            _REPAIRED[ufunc].into(x, place, far)
        return out
    return step


def _paired(steps) -> list:
    """The steps with the later of a sin(a) and a cos(a) moved up beside the earlier, where
    _sincos makes both in one call (E3 has three such pairs: 16 ns a point of its ~110)."""
    if _fast_sincos() is None:
        return steps
    trig: dict = {}
    for index, (function, args, _) in enumerate(steps):
        ufunc = _step_ufunc(function) if len(args) == 1 else None
        if ufunc is np.sin or ufunc is np.cos:
            trig.setdefault(args[0], {}).setdefault(ufunc, index)
    partner = {min(found.values()): max(found.values())
               for found in trig.values() if len(found) == 2}
    moved = set(partner.values())
    paired = []
    for index, step in enumerate(steps):
        if index not in moved:
            paired.append(step)
            if index in partner:
                paired.append(steps[partner[index]])
    return paired


_sincos_checked = False
_sincos = None


def _fast_sincos():
    """adcli._sincos's sincos where it is built and gives np.sin's and np.cos's numbers on
    probes over the whole range it takes, else None."""
    global _sincos_checked, _sincos
    if not _sincos_checked:
        _sincos_checked = True
        try:
            from ._sincos import sincos
        except ImportError:
            return None
        x = np.concatenate([np.linspace(-10.0, 10.0, 401),  # every binade it takes
                            np.ldexp(np.linspace(-2.0, 2.0, 1049), np.arange(-1022, 27))])
        x = x[(np.abs(x) <= FAR) & ((np.abs(x) >= np.finfo(np.float64).tiny) | (x == 0))]
        s, c = np.empty_like(x), np.empty_like(x)
        if sincos(x, s, c, FAR) and identical(s, np.sin(x)) and identical(c, np.cos(x)):
            _sincos = sincos
    return _sincos


def _repair_step(reduced, notes, slot: int, looks: bool):
    if looks:
        def step(x, out):
            far = vars(notes)[slot] = reduced.far(x)
            return reduced.into(x, out, far)
    else:
        def step(x, out):
            return reduced.into(x, out, vars(notes)[slot])
    return step


def _unpacked(forward, args, out, where, frees) -> tuple:
    """An op as _run takes it: (forward, a, b, out, where, frees), with a and b the slots
    of a ufunc's two arguments, b = -1 for one, or b = -2 and a the tuple of all."""
    if where is not None and len(args) == 2:
        return forward, args[0], args[1], out, where, frees
    if where is not None and len(args) == 1:
        return forward, args[0], -1, out, where, frees
    return forward, tuple(args), -2, out, where, frees


def _block_for(arrays: int) -> int:
    """Points per block, a power of two from 4,096 to 131,072: as many as keep the block's
    arrays in one core's own cache (L2), but not fewer than 32,768 unless even that would
    pass CACHE. Smaller blocks pay the per-step Python cost more often, and on several
    threads one thread at a time (the GIL). Measured on one core of a 2 MB-L2 Xeon:
    E1 (five arrays) 1.05x naive numpy in blocks of 32,768, 1.33x in 131,072; E3 (29
    arrays) 0.31x in 32,768, 0.32x in 8,192; on two cores E3 0.17x in 32,768, 0.22x in
    8,192. The size a Program starts from: where bigger ones fit within CACHE, it times
    them too on its first big calls and keeps the fastest (_Tuner)."""
    per_point = 8 * max(arrays, 1)
    points = min(max(_own_cache() // per_point, 32768), CACHE // per_point)
    return 1 << min(max(points.bit_length() - 1, 12), 17)


_l2: list = []
_L2_FOLDER = "/sys/devices/system/cpu/cpu0/cache"


def _own_cache() -> int:
    """Bytes of one core's L2 cache, as Linux tells it; CACHE where it does not."""
    if not _l2:
        _l2.append(_read_l2() or CACHE)
    return _l2[0]


def _read_l2() -> int | None:
    units = {"K": 1 << 10, "M": 1 << 20}
    try:
        for index in sorted(i for i in os.listdir(_L2_FOLDER) if i.startswith("index")):
            with open(f"{_L2_FOLDER}/{index}/level") as level, \
                    open(f"{_L2_FOLDER}/{index}/size") as size:
                if level.read().strip() == "2":
                    text = size.read().strip()
                    return int(text[:-1]) * units[text[-1]] if text[-1] in units else int(text)
    except (OSError, ValueError):
        pass
    return None


def _block_sizes(block: int, arrays: int) -> list[int]:
    """block, then each doubling up to 131,072 points whose arrays stay within CACHE."""
    sizes = [block]
    while sizes[-1] < 131072 and 16 * arrays * sizes[-1] <= CACHE:
        sizes.append(2 * sizes[-1])
    return sizes


class _Tuner:
    """A Program's points per block, chosen by timing its first big calls. Which size is
    fastest depends on the caches more than on anything Linux says of them: on one core of
    a Xeon with 2 MB of L2, E1 (five arrays) was 1.05x naive numpy in blocks of 32,768 and
    1.33x in 131,072; on an AMD EPYC with 1 MB of L2 and 32 MB of L3, 1.21x and 1.07x (on
    two cores 1.10x and 0.86x). Each size in turn for TUNE_ROUNDS calls, then the one whose
    best call took least per point (the slower calls met more load from elsewhere). Every
    size gives the same numbers: each step is elementwise."""

    def __init__(self, sizes: list[int]):
        self.sizes = sizes
        self.times: dict[int, list[float]] = {size: [] for size in sizes}
        self.best = sizes[0] if len(sizes) == 1 else None
        self._turn = itertools.count()  # next() on it is atomic: threads may share a tuner

    def next(self) -> int:
        return self.sizes[next(self._turn) % len(self.sizes)]

    def took(self, size: int, seconds_per_point: float) -> None:
        self.times[size].append(seconds_per_point)
        if all(len(times) >= TUNE_ROUNDS for times in self.times.values()):
            self.best = min(self.sizes, key=lambda s: min(self.times[s]))


def _shared_block(block: int, n: int, workers: int) -> int:
    """block, halved (not below 32,768 points) until every worker has two blocks to take:
    a big block is no help if it leaves a core idle."""
    while block > 32768 and n < 2 * workers * block:
        block //= 2
    return block


def _fold_signs(layout, roots) -> list:
    """The steps with negations moved into the steps that use them, where that leaves
    none to compute: (-a)*b as a*b negated later, b + (-a) as b - a, b - (-a) as b + a,
    -(-a) as a. The same numbers to the bit (round-to-nearest is symmetric in sign, and
    IEEE 754 defines x - y as x + (-y)); every subtraction's rule negates its gradient, so
    E3's program loses 9 of its 109 steps. A negation some step still uses stays a step,
    and _needed drops the rest. Not (-a) - b as -(a + b): where a == -b that is -0, the
    tape's is +0."""
    fold = _vanishing(layout.steps, roots, layout.known)
    negated, same, steps = {}, {}, []   # slot: a, with slot == -a;  slot: its equal
    for function, args, out in layout.steps:
        args = tuple(same.get(a, a) for a in args)
        ufunc = _step_ufunc(function) if len(args) <= 2 else None
        minus = _negation(ufunc, args, layout.known)
        if minus is not None:
            if minus in negated:
                same[out] = negated[minus]
            elif out in fold:
                negated[out] = minus
        elif ufunc in (np.multiply, np.divide) and any(a in negated for a in args):
            bare = tuple(negated.get(a, a) for a in args)
            if sum(a in negated for a in args) == 2:
                function, args = _ufunc_step(ufunc), bare
            else:
                positive = layout._slot(None)
                steps.append((_ufunc_step(ufunc), bare, positive))
                function, args, negated[out] = _NEGATIVE, (positive,), positive
        elif ufunc is np.add and len(args) == 2 and any(a in negated for a in args):
            b, a = args if args[1] in negated else args[::-1]
            function, args = _ufunc_step(np.subtract), (b, negated[a])
        elif ufunc is np.subtract and args[1] in negated:
            function, args = _ufunc_step(np.add), (args[0], negated[args[1]])
        steps.append((function, args, out))
    return steps


def _vanishing(steps, roots, known) -> set:
    """The slots whose negation every use can take in (so it costs no step): not a
    result; used by sums and differences, by negations, and by products and quotients
    whose own negation vanishes in turn."""
    uses: dict = {}
    for function, args, out in steps:
        for a in set(args):
            uses.setdefault(a, []).append((function, args, out))
    vanish = set()
    for _, _, out in reversed(steps):
        if out not in roots and all(_takes_negation(use, out, known, vanish)
                                    for use in uses.get(out, ())):
            vanish.add(out)
    return vanish


def _takes_negation(use, slot, known, vanish) -> bool:
    function, args, out = use
    if len(args) > 2 or args.count(slot) != 1:
        return False
    ufunc = _step_ufunc(function)
    if ufunc is np.add or (ufunc is np.subtract and args[1] == slot):  # b - (-a): b + a
        return True
    if ufunc in (np.multiply, np.divide):
        return _negation(ufunc, args, known) is not None or out in vanish
    return ufunc is np.negative


def _negation(ufunc, args, known):
    """a where the step is -a (np.negative, or a product with the constant -1), else None."""
    if ufunc is np.negative:
        return args[0]
    if ufunc is np.multiply:
        for c, a in (args, args[::-1]):
            value = known[c]
            if value is not None and value.ndim == 0 and value == -1.0 and known[a] is None:
                return a
    return None


def _needed(steps, outputs, known) -> list:
    live = {s for s in outputs if known[s] is None}
    kept = []
    for step in reversed(steps):
        if step[2] in live:
            kept.append(step)
            live.update(a for a in step[1] if known[a] is None)
    kept.reverse()
    return kept


def _registers(steps, outputs):
    """Ops (callable, args, out slot, where, slots to drop after): ``where`` is None (the
    callable makes its array) or the place it writes: a buffer, or a result directly."""
    last = {}
    for index, (_, args, _) in enumerate(steps):
        for a in args:
            last[a] = index
    claims = {}
    for i, slot in enumerate(outputs):
        if slot is not None:
            claims.setdefault(slot, i)
    ops, spare, holds, count, direct = [], [], {}, 0, set()
    for index, (function, args, out) in enumerate(steps):
        dying = [a for a in dict.fromkeys(args) if last[a] == index and a not in claims]
        spare.extend(holds.pop(a) for a in dying if a in holds)
        ufunc = _step_ufunc(function)
        if ufunc is None:
            where, forward = None, _float_forward(function)
        elif out in claims:
            where, forward = ~claims[out], ufunc
            direct.add(claims[out])
        else:
            if not spare:
                spare.append(count)
                count += 1
            where, forward = spare.pop(), ufunc
            holds[out] = where
        drops = tuple(a for a in dying if a not in holds)
        ops.append((forward, args, out, where, drops))
    # Places are the buffers, then the results: result i is place count + i.
    ops = [(f, a, o, w if w is None or w >= 0 else count + ~w, d) for f, a, o, w, d in ops]
    return ops, count, direct


def _share_out(block, starts) -> bool:
    """block(start) for every start, on this thread and the pool's, each taking the next
    start as it finishes one (a busy core just takes fewer); True if every call was.
    Floating-point warnings are off in the blocks (the callers check what is not finite):
    underflow is counted in _flags.under instead, overflow, divide and invalid in
    _flags.count."""
    helpers = min(_workers(), len(starts)) - 1
    if helpers < 1:
        with _counting_flags():
            return all([block(start) for start in starts])
    taken = itertools.count()  # next() on it is atomic: each start is run once

    def work():
        ok = True
        with _counting_flags():  # per thread: numpy's error state is the thread's own
            for i in iter(taken.__next__, None):
                if i >= len(starts):
                    return ok
                ok = block(starts[i]) and ok
    futures = [_pool().submit(work) for _ in range(helpers)]
    ok = work()
    return all([f.result() for f in futures]) and ok


_flags = threading.local()


def _count_flag(error: str, flag: int) -> None:
    if error == "underflow":
        _flags.under += 1
    else:
        _flags.count += 1
        if error == "overflow":
            _flags.over += 1


def _counting_flags():
    _flags.count = _flags.under = _flags.over = 0
    return np.errstate(all="call", call=_count_flag)


def _out_of_range(blocks, n: int):
    """The points of the blocks where a step overflowed or underflowed, as a mask over
    the n points (None: no such block): where reverse mode's gradient may have lost an
    adjoint to 0 or inf and is checked against forward mode (expression._cross_check)."""
    if not blocks:
        return None
    mask = np.zeros(n, dtype=bool)
    for start, stop in blocks:
        mask[start:stop] = True
    return mask


_pool_lock = threading.Lock()
_executor = None


def _workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
        (os.cpu_count() or 1)


def _pool():
    global _executor
    with _pool_lock:
        if _executor is None:
            import concurrent.futures  # ~20 ms: only once there are blocks to share out

            _executor = concurrent.futures.ThreadPoolExecutor(
                max_workers=_workers(), thread_name_prefix="adcli-kernel")
        return _executor


# ----- the entry points -----------------------------------------------------------------

_programs: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_programs_lock = threading.Lock()


def _cached(expression, key, make):
    """make(), kept per expression; a NotReplayable is kept and raised again."""
    with _programs_lock:
        cache = _programs.setdefault(expression, {})
        made = cache.get(key)
    if made is None:
        try:
            made = make()
        except NotReplayable as error:
            made = error
        with _programs_lock:
            cache[key] = made
    if isinstance(made, NotReplayable):
        raise made
    return made


def program(expression, wrt, order: int) -> Program:
    """The expression's Program for (wrt, order), made once. Raises NotReplayable."""
    def make():
        made = _program(expression, wrt, order, rescale=True)
        if made.rescaled:
            made.exact = _program(expression, wrt, order, rescale=False)
        return made
    return _cached(expression, (wrt, order), make)


def _program(expression, wrt, order: int, rescale: bool) -> Program:
    layout = _Layout(expression.variables, rescale)
    return Program(layout, *lay_out(expression, wrt, order, layout))


class Schedule:
    """The tape's walk without its objects: each node's forward on the arrays, then each
    node's recorded rule (run at once, see _Plan) in the tape's order, the gradients summed
    as the tape sums them, seeded with an array of ones as the tape is. Cheaper to make
    than a Program, for expressions evaluated once or too big to lay out step by step."""

    def __init__(self, expression, order: int):
        nodes = expression.nodes
        self.size = len(nodes)
        self.leaves = {name: self.size + k for k, name in enumerate(expression.variables)}
        self.forward, self.known, self.backward, self.kinks = [], {}, [], []
        self.folded_out = False  # see _folded
        self.variable_nodes = [(i, node.name) for i, node in enumerate(nodes)
                               if node.kind == "variable"]
        key, varying, generation, forwards = [], set(self.leaves.values()), {}, {}
        for i, node in enumerate(nodes):
            if node.kind == "variable":
                key.append(self.leaves[node.name])
                continue
            key.append(i)
            if node.function is None:
                self.known[i] = np.asarray(node.value, dtype=np.float64)
                continue
            moving = [key[j] for j in node.args if key[j] in varying]
            forward = forwards.get(node.function)
            if forward is None:  # one instance per class: a forward keeps no state
                forward = forwards[node.function] = node.function().forward
            if moving:
                self.forward.append((i, forward, *node.args, -1)[:4])
                if _has_kinks(forward.__self__):
                    self.kinks.append((i, forward.__self__, node.args))
                varying.add(i)
                generation[i] = max([generation.get(k, -1) + 1 for k in moving])
            else:  # constants only: computed once, 0-d, as the tape's Variable makes them
                value, out = _folded(forward, [self.known[j] for j in node.args])
                self.folded_out |= out
                self.known[i] = np.asarray(value, dtype=np.float64)
        self.top = key[-1]
        if order and self.top in varying:
            self._order(nodes, key, varying, generation)

    def _order(self, nodes, key, varying, generation) -> None:
        """The backward steps, in the order core.Variable.backward pops its heap: newest
        generation first, and within one, first pushed first."""
        buckets: dict[int, list[int]] = {}
        seen = set()
        if self.top < self.size:
            seen.add(self.top)
            buckets[generation[self.top]] = [self.top]
        for g in range(generation.get(self.top, -1), -1, -1):
            for i in buckets.pop(g, ()):
                args = nodes[i].args
                constants = [None if key[j] in varying else self.known[j] for j in args]
                plan = rule_for(nodes[i].function, constants).plan()
                targets = tuple((n, key[j]) for n, j in enumerate(args)
                                if plan.grads[n] is not None and key[j] in varying)
                self.backward.append((i, plan, args, targets))
                for _, k in targets:
                    if k < self.size and k not in seen:
                        seen.add(k)
                        buckets.setdefault(generation[k], []).append(k)

    def run(self, columns: dict[str, np.ndarray], n: int, wrt, kinked=None,
            ranged: list | None = None):
        """kinked: see _kinked (None: every node's kinks). ranged: as Program.run's,
        with all n points as one block (each step runs on all of them at once)."""
        with _counting_flags():
            computed = self._run(columns, n, wrt, kinked)
            if ranged is not None and (_flags.over or _flags.under or self.folded_out):
                ranged.append((0, n))
        return computed

    def _run(self, columns, n, wrt, kinked):
        values = [None] * (self.size + len(self.leaves))
        for i, value in self.known.items():
            values[i] = value
        for name, slot in self.leaves.items():
            values[slot] = columns[name]
        for i, name in self.variable_nodes:
            values[i] = columns[name]
        for i, forward, a, b in self.forward:  # b < 0: one argument
            values[i] = forward(values[a]) if b < 0 else forward(values[a], values[b])
        top = values[self.top]
        kinks = []
        for i, function, args in self.kinks:
            if kinked is None or kinked[i]:
                _mark_kinks(kinks, function, [values[j] for j in args], n)
        grads = [None] * len(values)
        if self.backward or self.top in self.leaves.values():
            grads[self.top] = np.ones_like(top)
        for i, plan, args, targets in self.backward:
            gxs = plan.run([values[j] for j in args], values[i], grads[i])
            # Node i's users all ran before it (a higher generation): its value and its
            # gradient are used no more.
            grads[i] = values[i] = None
            for n_arg, k in targets:
                before = grads[k]
                grads[k] = gxs[n_arg] if before is None else before + gxs[n_arg]
        result = {}
        for name in wrt:
            g = grads[self.leaves[name]] if name in self.leaves else None
            result[name] = np.zeros(n) if g is None else np.broadcast_to(g, (n,)).copy()
        value = np.broadcast_to(top, (n,)).copy()
        finite = all(np.isfinite(a).all() for a in (value, *result.values()))
        return value, result, finite, kinks


def interpret(expression, columns: dict[str, np.ndarray], n: int, wrt, order: int):
    """What Schedule(expression, order).run(...) gives, run as it is worked out and kept
    nowhere: for expressions so big that the schedule itself would cost much memory.

    At one point, +, -, *, / and negation (as nodes and as steps of rules) run on Python
    floats: IEEE arithmetic rounds them exactly as numpy does, and a float op costs a
    fraction of a ufunc call on a 1-element array. Every other function gets the tape's
    arrays (a float is put back into one first: of one element, or 0-d for a number)."""
    with np.errstate(all="ignore"):
        return _interpret(expression.nodes, expression.variables, columns, n, wrt, order,
                          _kinked(expression, wrt, order))


def _interpret(nodes, variables, columns, n, wrt, order, kinked):
    size = len(nodes)
    leaves = {name: size + k for k, name in enumerate(variables)}
    scalar = n == 1
    values = [None] * size + [columns[name].item() if scalar else columns[name]
                              for name in variables]
    varying = bytearray(size) + b"\x01" * len(variables)
    # Numbers per node in arrays, not lists: 4 bytes each, no int object (a million nodes).
    generation = array("i", [-1]) * (size + len(variables))  # a leaf's users: 0
    key = array("i", [0]) * size  # per node: the slot of its value (a variable's: its leaf's)
    # Per node: the slots of its first and second input (second: -1 if it has one input,
    # -2 if more than two, read from the node then).
    first, second = array("i", [0]) * size, array("i", [-1]) * size
    plans = [None] * size if order else None
    keep = bytearray(size)  # a rule reads the value: kept past its last use in the forward pass
    # At one point a value is a float or an array of one: dropping it after its last use
    # saves little, and finding the last uses is a pass over every node.
    frees = not scalar
    last = _last_uses(nodes) if frees else array("i", [-1]) * size
    known = {}
    made, kinks = {}, []
    for i, node in enumerate(nodes):
        if node.kind == "variable":
            key[i] = leaves[node.name]
            continue
        key[i] = i
        function = node.function
        if function is None:
            # At one point a number stays a float (x*2 then runs as a float op), made the
            # tape's 0-d array only where a function without a float form takes it.
            value = node.value
            values[i] = value if scalar and value.__class__ is float else \
                np.asarray(value, dtype=np.float64)
            continue
        forward, marks, arrays, floats, raw = made.get(function) or _made(made, function,
                                                                           scalar)
        args = node.args
        if len(args) == 2:  # most nodes: no lists made
            j0, j1 = args
            k0, k1 = key[j0], key[j1]
            first[i], second[i] = k0, k1
            x0, x1 = values[k0], values[k1]
            if arrays:  # floats made into the tape's arrays, kept so for the rule
                if x0.__class__ is float:
                    x0 = values[k0] = _tape_array(x0, varying[k0])
                if x1.__class__ is float:
                    x1 = values[k1] = _tape_array(x1, varying[k1])
            if raw is not None and x0.__class__ is float and x1.__class__ is float:
                value = raw(x0, x1)  # two floats: the operator itself, not its wrapper
            else:
                value = forward(x0, x1)
            v0, v1 = varying[k0], varying[k1]
            if v0 or v1:
                values[i], varying[i] = value, 1
                # An input that does not vary has generation -1, below any that does.
                g0, g1 = generation[k0], generation[k1]
                generation[i] = (g0 if g0 >= g1 else g1) + 1
                if marks is not None and (kinked is None or kinked[i]):
                    _mark_kinks(kinks, marks, [x0, x1], n)
                if plans is not None:
                    plan = known.get((function, v0, v1))
                    if plan is None:
                        plan = _plan(function, (k0, k1), values, varying, known, floats)
                    plans[i] = plan
                    if frees:
                        if plan is None:  # not replayable: kept all, for the tape's fallback
                            keep[i] = keep[j0] = keep[j1] = 1
                        else:
                            reads = plan.reads_x
                            if plan.reads_y:
                                keep[i] = 1
                            if reads[0]:
                                keep[j0] = 1
                            if reads[1]:
                                keep[j1] = 1
            else:  # constants only: 0-d, as the tape's Variable makes them
                values[i] = np.asarray(value, dtype=np.float64)
            if frees:
                if last[j0] == i and not keep[j0] and k0 == j0:
                    values[j0] = None
                if last[j1] == i and not keep[j1] and k1 == j1:
                    values[j1] = None
            continue
        if len(args) == 1:  # sin(x) and the like
            (j0,) = args
            k0 = first[i] = key[j0]
            x0 = values[k0]
            if arrays and x0.__class__ is float:
                x0 = values[k0] = _tape_array(x0, varying[k0])
            value = forward(x0)
            if varying[k0]:
                values[i], varying[i] = value, 1
                generation[i] = generation[k0] + 1
                if marks is not None and (kinked is None or kinked[i]):
                    _mark_kinks(kinks, marks, [x0], n)
                if plans is not None:
                    plan = known.get((function, 1))
                    if plan is None:
                        plan = _plan(function, (k0,), values, varying, known, floats)
                    plans[i] = plan
                    if frees:
                        if plan is None or plan.reads_y:
                            keep[i] = 1
                        if plan is None or plan.reads_x[0]:
                            keep[j0] = 1
            else:
                values[i] = np.asarray(value, dtype=np.float64)
            if frees and last[j0] == i and not keep[j0] and k0 == j0:
                values[j0] = None
            continue
        keys = [key[j] for j in args]
        second[i] = -2
        if arrays:
            for k in keys:
                if values[k].__class__ is float:
                    values[k] = _tape_array(values[k], varying[k])
        inputs = [values[k] for k in keys]
        value = forward(*inputs)
        moving = [k for k in keys if varying[k]]
        if moving:
            values[i], varying[i] = value, 1
            generation[i] = max([generation[k] for k in moving]) + 1
            if marks is not None and (kinked is None or kinked[i]):
                _mark_kinks(kinks, marks, inputs, n)
            if plans is not None:
                shape = (function, *[varying[k] for k in keys])
                plan = known.get(shape) or _plan(function, keys, values, varying, known,
                                                 floats)
                plans[i] = plan
                if plan is None or plan.reads_y:
                    keep[i] = 1
                for n_arg, j in enumerate(args):
                    if plan is None or plan.reads_x[n_arg]:
                        keep[j] = 1
        else:
            values[i] = np.asarray(value, dtype=np.float64)
        for j in args:
            if last[j] == i and not keep[j] and key[j] == j:
                values[j] = None
    top = key[-1]
    result = np.broadcast_to(values[top], (n,)).copy()
    grads = [None] * len(values)
    if order and varying[top]:
        grads[top] = 1.0 if values[top].__class__ is float else np.ones_like(values[top])
        _interpret_backward(nodes, values, (key, first, second), varying, generation, grads,
                            top, plans)
    gradient = {name: np.zeros(n) if name not in leaves or grads[leaves[name]] is None
                else np.broadcast_to(grads[leaves[name]], (n,)).copy() for name in wrt}
    finite = all(np.isfinite(a).all() for a in (result, *gradient.values()))
    return result, gradient, finite, kinks


def _tape_array(x: float, varies: int) -> np.ndarray:
    """A float at one point as the tape holds it: an array of one, or 0-d for a number."""
    if varies:
        one = np.empty(1)  # then set: a sixth sooner than np.array([x]), which reads a list
        one[0] = x
        return one
    return np.asarray(x, dtype=np.float64)


def _made(made: dict, function, scalar: bool) -> tuple:
    """A class's forward (one instance per class: a forward keeps no state), the instance
    if it has kinks to mark, whether, at one point, its inputs must be arrays (it has no
    float form, see _FLOATS), how it runs for ``_plan``: on floats (True), on arrays of
    one (False), or at many points (None), and its float operator for two floats, if any."""
    instance = function()
    forward = _direct_forward(instance)
    kinked = instance if _has_kinks(instance) else None
    floats = _FLOATS.get(forward) if scalar and kinked is None else None
    made[function] = (floats or forward, kinked, scalar and floats is None,
                      (floats is not None) if scalar else None, getattr(floats, "raw", None))
    return made[function]


def _on_floats(op):
    """op on Python floats, taking a 1-element or 0-d array as its one number (``raw``:
    op itself, for two floats)."""
    def call(a, b):
        return op(a if a.__class__ is float else a.item(), b if b.__class__ is float else b.item())
    call.raw = op
    return call


def _divide(a: float, b: float) -> float:
    return a / b if b else np.divide(a, b).item()  # numpy's inf or nan, not ZeroDivisionError


# The ufuncs whose float64 result is the correctly rounded IEEE one, as Python's float
# arithmetic gives it (tests/test_interpret_one_point.py checks them over the specials).
_FLOATS = {np.add: _on_floats(operator.add), np.subtract: _on_floats(operator.sub),
           np.multiply: _on_floats(operator.mul), np.divide: _on_floats(_divide),
           np.negative: lambda a: -(a if a.__class__ is float else a.item())}


class _FloatPlan(_Plan):
    """A plan run at one point with its steps in _FLOATS on floats (they take floats or
    1-element arrays). Any other step stays a numpy call, reading only the node's inputs
    and output (arrays: see _interpret), constants and other numpy steps' outputs."""

    def __init__(self, plan: _Plan, fast: list, numpy_steps: bool):
        vars(self).update(vars(plan))
        self._fast = fast
        if not numpy_steps:
            self.constants = [c.item() for c in plan.constants]
        if not fast and not self.constants:  # +'s rule: gy handed on, nothing to replay
            if (self._g0, self._g1) == (3, 3):  # both inputs get gy itself
                self.run2 = lambda x0, x1, y, gy: (gy, gy)
            elif len(self.grads) == 2:
                pick = operator.itemgetter(self._g0, self._g1)
                self.run2 = lambda x0, x1, y, gy: pick((x0, x1, y, gy, None))
            else:
                pick = operator.itemgetter(self._g0)
                self.run1 = lambda x, y, gy: pick((x, y, gy, None))
        elif not numpy_steps and not self.constants and len(self.grads) == 2:
            self.run2 = _two_steps(fast, self._g0, self._g1) or self.run2


def _two_steps(fast: list, g0: int, g1: int):
    """run2 for a rule of two float steps that read only x0, x1, y and gy and give the two
    gradients in order (x*y's: gy*x1, then gy*x0): two direct calls, no list, no loop."""
    if len(fast) != 2 or (g0, g1) != (5, 6) or any(  # 4 is the None, 5 and 6 the outputs
            b is None or not 0 <= a <= 3 or not 0 <= b <= 3 for _, a, b in fast):
        return None
    (f, a, b), (h, c, d) = fast

    def run2(x0, x1, y, gy):
        inputs = (x0, x1, y, gy)
        return f(inputs[a], inputs[b]), h(inputs[c], inputs[d])
    return run2


def _on_floats_plan(plan: _Plan, mixed: bool):
    """The plan as a _FloatPlan, or None. Unless ``mixed``, every step must have a float
    form; if it may, no numpy step may read gy or a float step's output (floats, maybe),
    and at least one step must have a float form (sin's rule: cos(x) then gy times it)."""
    fast = getattr(plan, "_fast", None)
    if fast is None:
        return None
    gy, first = len(plan.grads) + 1, len(plan.grads) + 3 + len(plan.constants)
    steps, floated = [], set()  # floated: where float steps' outputs go in the list
    for n, (f, a, b) in enumerate(fast):
        on_floats = _FLOATS.get(f)
        if on_floats is not None:
            floated.add(first + n)
            steps.append((on_floats, a, b))
            continue
        reads = a if b is None else [a] if b < 0 else [a, b]
        if not mixed or gy in reads or not floated.isdisjoint(reads):
            return None
        steps.append((f, a, b))
    if fast and not floated:
        return None
    return _FloatPlan(plan, steps, len(floated) < len(fast))


def _last_uses(nodes) -> list:
    """Per node: the index of the last node that takes it as an argument (-1: none)."""
    last = array("i", [-1]) * len(nodes)
    for i, node in enumerate(nodes):
        for j in node.args:
            last[j] = i
    return last


def _plan(function, keys, values, varying, known: dict, floats: bool | None):
    """The plan of a node's rule, or None if it is not replayable (raised again if the
    backward pass comes to the node). Kept in ``known`` by which inputs vary, unless the
    rule was recorded per value of a constant. At one point (``floats`` not None: whether
    the node ran on floats), a _FloatPlan if it can be; the rule of a node that ran on
    floats must be one (else: None, and the tape runs)."""
    constants = [None if varying[k] else np.asarray(values[k], dtype=np.float64)
                 for k in keys]  # (a number at one point: a float, see _interpret)
    # A rule recorded per value of its constants (x^3, x^2.5: pow's) is kept by them.
    by_value = (function, *[None if c is None else c.tobytes() for c in constants])
    if by_value in known:
        return known[by_value]
    try:
        plan = rule_for(function, constants).plan()
    except NotReplayable:
        known[by_value] = None
        return None
    if floats is not None:
        # A node that ran on floats has floats for inputs and output: all its rule's
        # steps must take them.
        on_floats = _on_floats_plan(plan, mixed=not floats)
        if on_floats is None and floats:
            return None
        plan = on_floats or plan
    shape = tuple([c is None for c in constants])
    if _rules.get((function, shape)).__class__ is Rule:
        known[(function, *[varying[k] for k in keys])] = plan
    else:
        known[by_value] = plan
    return plan


def _interpret_backward(nodes, values, inputs, varying, generation, grads, top, plans) -> None:
    """As Schedule._order and Schedule._run together: the tape's order, run at once."""
    size = len(nodes)
    key, first, second = inputs
    if top >= size:  # the expression is a variable: its gradient is the seed
        return
    buckets: list = [None] * (generation[top] + 1)  # per generation: its nodes, in order
    buckets[generation[top]] = [top]
    seen = bytearray(size)
    seen[top] = 1
    for g in range(generation[top], -1, -1):
        bucket = buckets[g]
        if bucket is None:
            continue
        buckets[g] = None
        for i in bucket:
            plan = plans[i]
            if plan is None:  # its rule is not replayable: this raises NotReplayable
                rule_for(nodes[i].function, [
                    None if varying[key[j]] else np.asarray(values[key[j]], dtype=np.float64)
                    for j in nodes[i].args])
                raise NotReplayable(f"{nodes[i].function.__name__}'s rule has no float form")
            gy = grads[i]
            if gy.__class__ is float and plan.__class__ is not _FloatPlan:
                gy = np.array([gy])  # one point: the tape's array for a rule of numpy calls
            k0, k1 = first[i], second[i]
            if k1 >= 0:
                gx0, gx1 = plan.run2(values[k0], values[k1], values[i], gy)
                pairs = ((gx0, k0), (gx1, k1))
            elif k1 == -1:
                pairs = ((plan.run1(values[k0], values[i], gy), k0),)
            else:
                args = [key[j] for j in nodes[i].args]
                pairs = zip(plan.run([values[k] for k in args], values[i], gy), args)
            grads[i] = values[i] = None  # its users all ran before it
            for gx, k in pairs:
                if gx is None:  # an input that does not vary (a plan gives it None)
                    continue
                before = grads[k]
                grads[k] = gx if before is None else before + gx
                if k < size and not seen[k]:
                    seen[k] = 1
                    later = buckets[generation[k]]
                    if later is None:
                        buckets[generation[k]] = [k]
                    else:
                        later.append(k)


def schedule(expression, order: int) -> Schedule:
    return _cached(expression, ("schedule", order), lambda: Schedule(expression, order))


def evaluate(expression, columns: dict[str, np.ndarray], n: int, wrt, order: int):
    """(value, gradients, all finite, kinks, where a step overflowed or underflowed: a
    mask, or None for nowhere) at n points (each column of shape (n,)) without the tape,
    or None when a rule in the expression reads the points' numbers or the expression
    holds a diff() (its derivative is a graph of its own: the tape's)."""
    if getattr(expression, "has_diff", False):
        return None
    ranged: list = []
    try:
        if len(expression.nodes) > COMPILE_LIMIT:
            # No flags to read: + - * / run on Python floats here, which raise none, so
            # huge expressions are exempt from the cross-check with forward mode.
            computed = interpret(expression, columns, n, wrt, order)
        elif n <= FEW:
            computed = schedule(expression, order).run(
                columns, n, wrt, _kinked(expression, wrt, order), ranged)
        else:
            computed = program(expression, tuple(wrt), order).run(columns, n, ranged)
    except NotReplayable:
        return None
    return *computed, _out_of_range(ranged, n)
