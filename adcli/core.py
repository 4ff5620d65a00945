"""The reverse-mode engine: Variable, Function and the backward pass (DeZero's design).

A Function records its inputs and output when called; ``Variable.backward`` walks the
recorded graph from the output back to the leaves, newest generation first, and sums the
gradients of a variable that is used more than once. Nothing here recurses over the graph.
"""
from __future__ import annotations

import contextlib
import contextvars
import itertools
import threading
import weakref

import numpy as np


# Off while evaluating values only, and inside backward unless create_graph is asked for.
# A context variable, not a global: one thread's value-only pass must not stop another
# thread's graph from being recorded.
_backprop = contextvars.ContextVar("adcli_backprop", default=True)


class _Recorded(threading.local):
    """Functions recorded so far in this thread: lets callers bound graphs that grow."""

    count = 0


recorded = _Recorded()


@contextlib.contextmanager
def using_backprop(enabled: bool):
    token = _backprop.set(enabled)
    try:
        yield
    finally:
        _backprop.reset(token)


def no_grad():
    return using_backprop(False)


# A callback seeing every Function call (function, inputs, output) in this context: how a
# compiled gradient records the steps a backward rule takes (kernel.py).
_tracer = contextvars.ContextVar("adcli_tracer", default=None)


@contextlib.contextmanager
def tracing(callback):
    token = _tracer.set(callback)
    try:
        yield
    finally:
        _tracer.reset(token)


# The one other dtype a Variable keeps: adcli.wider runs a graph again in long double.
_LONG = np.dtype(np.longdouble)


class Variable:
    """An ndarray of float64 (or long double, see _LONG) with the bookkeeping reverse mode
    needs."""

    __slots__ = ("data", "name", "grad", "creator", "generation", "requires_grad", "__weakref__")
    __array_priority__ = 200  # so ndarray * Variable defers to Variable.__rmul__

    def __init__(self, data, name: str | None = None, requires_grad: bool = True):
        self.data = data if getattr(data, "dtype", None) is _LONG else \
            np.asarray(data, dtype=np.float64)
        self.name = name
        self.grad: Variable | None = None
        self.creator: Function | None = None
        self.generation = 0
        self.requires_grad = requires_grad

    @property
    def shape(self):
        return self.data.shape

    def __repr__(self):
        label = f"{self.name}=" if self.name else ""
        return f"Variable({label}{self.data!r})"

    def set_creator(self, function: Function) -> None:
        self.creator = function
        self.generation = function.generation + 1

    def clear_grad(self) -> None:
        self.grad = None

    def ancestry(self) -> list[Variable]:
        """Every Variable this one was computed from, itself first (a walk, not recursion:
        graphs are deep)."""
        seen, found, stack = set(), [], [self]
        while stack:
            v = stack.pop()
            if id(v) in seen:
                continue
            seen.add(id(v))
            found.append(v)
            if v.creator is not None:
                stack.extend(v.creator.inputs)
        return found

    def backward(self, create_graph: bool = False, retain_grad: bool = False, watch=None) -> None:
        """Accumulate d(self)/d(leaf) into every leaf's ``grad``.

        With ``create_graph`` the gradients are themselves graphs, so they can be
        differentiated again (double backprop). ``watch(function, input_index, gx)`` is
        called for every gradient a function hands to an input that wants one.
        """
        import heapq   # here: the one-point CLI path never runs the tape backwards

        if self.grad is None:
            self.grad = Variable(np.ones_like(self.data), requires_grad=False)
        queue, seen, tie = [], set(), itertools.count()

        def push(function):
            if function is not None and id(function) not in seen:
                seen.add(id(function))
                # Newest generation first: a function runs only after all its users did.
                heapq.heappush(queue, (-function.generation, next(tie), function))

        push(self.creator)
        with using_backprop(create_graph):
            while queue:
                function = heapq.heappop(queue)[2]
                output = function.output()
                gxs = _rule(function, output.grad) if create_graph else \
                    function.backward(output.grad)
                if not isinstance(gxs, tuple):
                    gxs = (gxs,)
                for index, (x, gx) in enumerate(zip(function.inputs, gxs)):
                    if gx is None or not x.requires_grad:
                        continue
                    gx = as_variable(gx)
                    if watch is not None:
                        watch(function, index, gx)
                    if x.grad is None:
                        x.grad = gx
                    elif create_graph:
                        x.grad = x.grad + gx  # recorded, so it can be differentiated
                    else:
                        # Never in place: Add.backward hands the same gradient to both
                        # inputs. Plain arrays: no graph is wanted, so skip a Function.
                        x.grad = Variable(x.grad.data + gx.data, requires_grad=False)
                    push(x.creator)
                if not retain_grad and output is not self:
                    output.grad = None


def as_variable(value) -> Variable:
    if isinstance(value, Variable):
        return value
    return Variable(value, requires_grad=False)


def _rule(function, gy):
    """function.backward(gy), recorded for another pass, with every Function it calls
    marked as part of ``function``'s rule (``rule_of``, the first owner down a chain of
    rules): trouble a later pass meets in them is that function's (log's gy/x overflowing
    in a Hessian is log's, not that of a '/' the expression does not have)."""
    owner = function.rule_of or function
    outer = _tracer.get()

    def mark(made, inputs, y):
        made.rule_of = owner
        if outer is not None:
            outer(made, inputs, y)
    token = _tracer.set(mark)
    try:
        return function.backward(gy)
    finally:
        _tracer.reset(token)


class Function:
    """One use of an operation in the graph: ``forward`` on ndarrays, ``backward`` on Variables.

    ``backward`` receives the output's gradient as a Variable and returns one gradient per
    input (a Variable, an array, or None for "no gradient"). Writing it with Functions on
    Variables is what makes higher derivatives come for free.
    """

    inputs: tuple[Variable, ...] = ()
    output = None
    generation = 0
    rule_of = None      # the Function whose backward rule called this one (see _rule)

    def __call__(self, *inputs) -> Variable:
        inputs = tuple(x if isinstance(x, Variable) else Variable(x, requires_grad=False)
                       for x in inputs)
        y = Variable(self.forward(*[x.data for x in inputs]), requires_grad=False)
        if _backprop.get() and any([x.requires_grad for x in inputs]):
            self.generation = max([x.generation for x in inputs])
            recorded.count += 1
            self.inputs = inputs
            # A weak reference: the output owns its creator, not the other way round.
            self.output = weakref.ref(y)
            y.requires_grad = True
            y.set_creator(self)
        tracer = _tracer.get()
        if tracer is not None:
            tracer(self, inputs, y)
        return y

    def forward(self, *xs: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def backward(self, gy: Variable):
        raise NotImplementedError
