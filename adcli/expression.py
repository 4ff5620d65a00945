"""Expression: a parsed formula you can evaluate and differentiate at many points at once.

This is the Python API (``adcli.parse(text)`` returns one). Nodes are kept flat in
evaluation order, so evaluating, printing and differentiating never recurse.
"""
from __future__ import annotations

import contextlib
import functools
from dataclasses import dataclass, field

import numpy as np

from .core import Config, Variable, no_grad
from .errors import ValuesError, did_you_mean, listing

_SYMBOLS = {"add": " + ", "sub": " - ", "mul": "*", "div": "/", "pow": "^"}


@dataclass(frozen=True)
class Node:
    kind: str                  # number | constant | variable | call | infix | prefix
    position: int              # where it starts in the text (for error carets)
    name: str = ""
    value: float | None = None
    function: type | None = None
    args: tuple[int, ...] = ()


@dataclass
class Diagnostics:
    """Where functions produced nan/inf from finite inputs: data the CLI prints as warnings."""

    counts: dict[tuple[str, str], int] = field(default_factory=dict)
    points: int = 0
    unattributed: int = 0      # non-finite results no function is to blame for (inf inputs)

    def add(self, function, what: str, bad: np.ndarray) -> None:
        count = int(np.count_nonzero(bad))
        if count:
            key = (function.name, what)
            self.counts[key] = self.counts.get(key, 0) + count

    def merge(self, other: Diagnostics) -> None:
        for key, count in other.counts.items():
            self.counts[key] = self.counts.get(key, 0) + count

    def messages(self) -> list[str]:
        lines = []
        if self.unattributed and not self.counts:
            lines.append("a result is nan or inf (from a value that is nan or inf)")
        for (name, what), count in self.counts.items():
            where = f"{min(count, self.points)} of {self.points} point{'s' * (self.points != 1)}"
            if what == "value":
                lines.append(f"{_label(name)} gave nan or inf at {where} "
                             "(outside its domain, a pole, or overflow)")
            else:
                lines.append(f"the derivative of {_label(name)} is nan or inf at {where} "
                             "(an edge of its domain or a vertical tangent)")
        return lines


def _label(name: str) -> str:
    symbol = _SYMBOLS.get(name) or {"neg": "-"}.get(name)
    return f"'{symbol.strip()}'" if symbol else name


class Expression:
    """A parsed expression. Values may be numbers or arrays; arrays broadcast together."""

    def __init__(self, text: str, nodes: list[Node]):
        self.text = text
        self.nodes = nodes
        names = (node.name for node in nodes if node.kind == "variable")
        self.variables: tuple[str, ...] = tuple(dict.fromkeys(names))
        self._parsed: str | None = None

    def __repr__(self):
        return f"Expression({self.text!r})"

    @property
    def parsed(self) -> str:
        """The expression as it was read, with every compound operand in parentheses."""
        if self._parsed is None:
            self._parsed = _render(self.nodes)
        return self._parsed

    # ----- the Python API -------------------------------------------------------------

    def value(self, **at) -> np.ndarray:
        """The value at the given point(s)."""
        return self.evaluate(self._values(at), backprop=False).output.data

    def grad(self, wrt=None, **at) -> dict[str, np.ndarray]:
        """Every first partial derivative (or those in ``wrt``), by variable name."""
        return self.evaluate(self._values(at), wrt=wrt).gradient

    def hessian(self, wrt=None, **at) -> np.ndarray:
        """Second partials: shape (*points, k, k), rows and columns in ``wrt`` order."""
        return self.evaluate(self._values(at), wrt=wrt, hessian=True).hessian

    def derivative(self, name: str | None = None, order: int = 1, **at) -> np.ndarray:
        """The ``order``-th derivative with respect to one variable."""
        name = name or self._only_variable()
        return self.evaluate(self._values(at), wrt=[name], order=order).derivative

    # ----- evaluation -----------------------------------------------------------------

    def check_values(self, names) -> None:
        """Raise ValuesError listing every variable without a value."""
        missing = [v for v in self.variables if v not in names]
        if missing:
            raise ValuesError(f"no value given for {listing(missing)}")

    def unknown_names(self, names) -> list[str]:
        """Given names the expression does not use, each with a did-you-mean suggestion."""
        return [f"'{n}' does not appear in the expression{did_you_mean(n, self.variables)}"
                for n in names if n not in self.variables]

    def evaluate(self, values: dict[str, np.ndarray], *, backprop: bool = True, wrt=None,
                 hessian: bool = False, order: int | None = None) -> Evaluation:
        """Run the forward pass at all points and, if asked, the reverse pass(es)."""
        self.check_values(values)
        if isinstance(wrt, str):
            wrt = wrt.split(",")
        wrt = [w.strip() for w in (self.variables if wrt is None else wrt)]
        if order is not None and (int(order) != order or order < 0):
            raise ValuesError(f"the order of a derivative is a whole number >= 0, not {order}")
        arrays = _broadcast([values[v] for v in self.variables])
        point = bool(arrays) and arrays[0].ndim == 0
        if point:
            # One point is computed as an array of one, as the CLI does: numpy's vector
            # kernels and its scalar paths can differ in the last bit (pow, for one), and
            # the API and the CLI must print the same digits.
            arrays = [a.reshape(1) for a in arrays]
        shape = arrays[0].shape if arrays else ()
        with np.errstate(all="ignore"):
            result = self._run(arrays, wrt, shape, backprop, hessian, order, watching=False)
            if backprop and not result.derivatives_finite():
                # Rare, so paid only here: run again, naming the functions whose
                # derivatives went non-finite (checking every node costs ~20% otherwise).
                result = self._run(arrays, wrt, shape, backprop, hessian, order, watching=True)
        return result.as_point() if point else result

    def _run(self, arrays, wrt, shape, backprop, hessian, order, watching) -> Evaluation:
        leaves = {v: Variable(a, name=v) for v, a in zip(self.variables, arrays)}
        result = Evaluation(self, wrt, shape, Diagnostics(points=int(np.prod(shape))),
                            watching=watching)
        if not backprop:
            with no_grad():
                result.output = self._forward(leaves, result.diagnostics)
            return result
        result.output = self._forward(leaves, result.diagnostics)
        if order is not None:
            result.derivative = _nth_derivative(result, leaves, wrt[0], order)
        else:
            result.gradient = _gradient(result, leaves, create_graph=hessian)
            if hessian:
                result.hessian = _hessian(result, leaves)
        return result

    def _forward(self, leaves: dict[str, Variable], diagnostics: Diagnostics) -> Variable:
        computed: list[Variable] = []
        for node in self.nodes:
            if node.kind == "variable":
                computed.append(leaves[node.name])
            elif node.function is None:
                computed.append(Variable(node.value, requires_grad=False))
            else:
                computed.append(node.function()(*[computed[i] for i in node.args]))
        if not np.isfinite(computed[-1].data).all():
            self._blame(computed, diagnostics)
        return computed[-1]

    def _blame(self, computed: list[Variable], diagnostics: Diagnostics) -> None:
        """Name the functions that made nan/inf from finite inputs. Only run when the
        result is not finite, so the common case pays nothing per node."""
        for node, y in zip(self.nodes, computed):
            if node.args and not np.isfinite(y.data).all():
                inputs = [computed[i].data for i in node.args]
                fine = functools.reduce(np.logical_and, [np.isfinite(x) for x in inputs])
                diagnostics.add(node.function, "value", ~np.isfinite(y.data) & fine)

    def _values(self, at: dict) -> dict[str, np.ndarray]:
        unknown = self.unknown_names(at)
        if unknown:
            raise ValuesError("; ".join(unknown))
        return at

    def _only_variable(self) -> str:
        if len(self.variables) != 1:
            raise ValuesError(f"the expression has {len(self.variables)} variables "
                              f"({listing(self.variables) or 'none'}); say which one")
        return self.variables[0]


@dataclass
class Evaluation:
    """What one evaluation produced, for all its points."""

    expression: Expression
    wrt: list[str]
    shape: tuple
    diagnostics: Diagnostics
    output: Variable | None = None
    gradient: dict[str, np.ndarray] = field(default_factory=dict)
    hessian: np.ndarray | None = None
    derivative: np.ndarray | None = None
    watching: bool = False             # attribute non-finite derivatives to functions
    _grad_vars: dict = field(default_factory=dict, repr=False)

    @property
    def value(self) -> np.ndarray:
        return np.broadcast_to(self.output.data, self.shape)

    def as_point(self) -> Evaluation:
        """The results of a one-point array as 0-d arrays, the shape the caller gave."""
        self.shape = ()
        self.output = Variable(self.output.data.reshape(()), requires_grad=False)
        self.gradient = {name: g.reshape(()) for name, g in self.gradient.items()}
        if self.hessian is not None:
            self.hessian = self.hessian.reshape(self.hessian.shape[1:])
        if self.derivative is not None:
            self.derivative = self.derivative.reshape(())
        return self

    def derivatives_finite(self) -> bool:
        arrays = [*self.gradient.values(), self.hessian, self.derivative]
        return all(np.isfinite(a).all() for a in arrays if a is not None)

    def watch(self):
        return _watch(self.diagnostics) if self.watching else None


def _broadcast(values) -> list[np.ndarray]:
    arrays = [np.asarray(v, dtype=np.float64) for v in values]
    try:
        return np.broadcast_arrays(*arrays) if arrays else []
    except ValueError:
        shapes = " and ".join(str(a.shape) for a in arrays)
        raise ValuesError(f"the values' shapes {shapes} do not broadcast together") from None


def _watch(diagnostics: Diagnostics):
    def watch(function, index, gx):
        if np.isfinite(gx.data).all():
            return
        # Blame a function only where its own value and incoming gradient were finite.
        y = function.output()
        fine = np.isfinite(y.data) & np.isfinite(y.grad.data)
        diagnostics.add(function, "derivative", ~np.isfinite(gx.data) & fine)
    return watch


def _zeros(result: Evaluation) -> np.ndarray:
    return np.zeros(result.shape)


def _gradient(result: Evaluation, leaves, create_graph: bool) -> dict[str, np.ndarray]:
    y = result.output
    y.backward(create_graph=create_graph, watch=result.watch())
    gradient = {}
    for name in result.wrt:
        leaf = leaves.get(name)
        g = None if leaf is None else leaf.grad
        result._grad_vars[name] = g
        # A variable the output does not depend on has derivative 0, not None.
        gradient[name] = _zeros(result) if g is None else np.broadcast_to(g.data, result.shape).copy()
    _clear_seed(y)
    return gradient


def _clear_seed(root: Variable) -> None:
    """Drop the ones a backward pass seeded its root with: the root may sit inside a later
    pass's graph (a Hessian row goes back through the output), where a stale seed would be
    added to the real gradient. A leaf root's grad is its result, so it stays."""
    if root.creator is not None:
        root.clear_grad()


def _hessian(result: Evaluation, leaves) -> np.ndarray:
    """One reverse pass per variable over the gradient's graph (double backprop)."""
    k = len(result.wrt)
    hessian = np.zeros(result.shape + (k, k))
    for i, name in enumerate(result.wrt):
        g = result._grad_vars.get(name)
        if g is None or not g.requires_grad:
            continue  # a constant first derivative: its row is 0
        row = _differentiate(g, leaves, result)
        for j, other in enumerate(result.wrt):
            hessian[..., i, j] = row.get(other, 0.0)
    return hessian


def _differentiate(g: Variable, leaves, result: Evaluation, create_graph: bool = False):
    for leaf in leaves.values():
        leaf.clear_grad()
    _clear_seed(g)
    g.backward(create_graph=create_graph, watch=result.watch())
    grads = {name: leaf.grad if create_graph else leaf.grad.data
             for name, leaf in leaves.items() if leaf.grad is not None}
    _clear_seed(g)
    return grads


def _nth_derivative(result: Evaluation, leaves, name: str, order: int) -> np.ndarray:
    """Differentiate, keep the graph, differentiate the derivative again: order times."""
    g = result.output
    if order == 0:
        return result.value.copy()
    growth = _Growth(order)
    for step in range(order):
        if name not in leaves or not g.requires_grad:
            return _zeros(result)  # a constant: every further derivative is 0
        last = step == order - 1
        with growth.pass_(step):
            g = _differentiate(g, leaves, result, create_graph=not last).get(name)
        if g is None:
            return _zeros(result)
    return np.broadcast_to(g, result.shape).copy()


class _Growth:
    """Refuses an n-th derivative whose graph would outgrow a budget. Each pass rebuilds
    the derivative's graph from the last one, so its size multiplies (about 3x a pass for
    a product): order 12 of a small expression can take a million operations and minutes.
    """

    BUDGET = 300_000  # operations recorded over all passes: a few seconds' work

    def __init__(self, order: int):
        self.order, self.total, self.last, self.before_last = order, 0, 0, 0

    @contextlib.contextmanager
    def pass_(self, step: int):
        ratio = self.last / self.before_last if self.before_last else 1.0
        if step and self.total + self.last * max(ratio, 1.0) > self.BUDGET:
            raise ValuesError(
                f"order {self.order} is too high for this expression: after {step} "
                f"derivatives the graph already has {self.total:,} operations and each "
                f"further order multiplies it by about {ratio:.1f} (limit {self.BUDGET:,}); "
                f"ask for order {step} or less")
        start = Config.recorded
        yield
        self.before_last, self.last = self.last, Config.recorded - start
        self.total += self.last


def _format_number(value: float) -> str:
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def _render(nodes: list[Node]) -> str:
    """Fully parenthesised text, built with an explicit stack (inputs may be very deep)."""
    pieces: list[str] = []
    stack: list[int | str] = [len(nodes) - 1]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            pieces.append(item)
            continue
        node = nodes[item]
        if node.kind == "number":
            pieces.append(_format_number(node.value))
        elif node.kind in ("variable", "constant"):
            pieces.append(node.name)
        else:
            stack.extend(reversed(_layout(node, nodes)))
    return "".join(pieces)


def _layout(node: Node, nodes: list[Node]) -> list[int | str]:
    def operand(i):
        compound = nodes[i].kind in ("infix", "prefix")
        return ["(", i, ")"] if compound else [i]

    if node.kind == "call":
        parts: list[int | str] = [node.name + "("]
        for n, arg in enumerate(node.args):
            parts += ([", "] if n else []) + [arg]
        return parts + [")"]
    if node.kind == "prefix":
        return ["-", *operand(node.args[0])]
    left, right = node.args
    return [*operand(left), _SYMBOLS[node.name], *operand(right)]
