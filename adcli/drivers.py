"""The derivative drivers: gradient, Hessian and n-th derivative by repeated reverse passes
over the recorded graph (double backprop), and the budget that bounds their growth."""
from __future__ import annotations

import contextlib

import numpy as np

from .core import Variable, recorded
from .errors import ValuesError


def gradient(y: Variable, leaves: dict[str, Variable], wrt, shape, watch=None,
             create_graph: bool = False) -> tuple[dict[str, np.ndarray], dict]:
    """d y / d leaf for each name in ``wrt`` (as arrays), and the gradient Variables."""
    y.backward(create_graph=create_graph, watch=watch)
    arrays, variables = {}, {}
    for name in wrt:
        leaf = leaves.get(name)
        g = None if leaf is None else leaf.grad
        variables[name] = g
        # A variable the output does not depend on has derivative 0, not None.
        arrays[name] = np.zeros(shape) if g is None else np.broadcast_to(g.data, shape).copy()
    clear_seed(y)
    return arrays, variables


def clear_seed(root: Variable) -> None:
    """Drop the ones a backward pass seeded its root with: the root may sit inside a later
    pass's graph (a Hessian row goes back through the output), where a stale seed would be
    added to the real gradient. A leaf root's grad is its result, so it stays."""
    if root.creator is not None:
        root.clear_grad()


def hessian(grads: dict, leaves, wrt, shape, watch=None) -> np.ndarray:
    """One reverse pass per variable over the gradient's graph (double backprop):
    ``matrix[..., i, j]`` is d2f/dx_i dx_j as Leibniz reads it, d/dx_i (df/dx_j), so the
    name of an entry says which pass made it (check's d2/dx dy is the same number)."""
    k = len(wrt)
    # (long double's run keeps its numbers: log(x^2)'s -2/x^2 at 1e-170 is -2e340 there,
    # which a float64 matrix would round to -inf, and its range witness then miss)
    kind = np.result_type(np.float64, *[leaf.data for leaf in leaves.values()])
    matrix = np.zeros(tuple(shape) + (k, k), dtype=kind)
    for i, name in enumerate(wrt):
        g = grads.get(name)
        if g is None or not g.requires_grad:
            continue  # a constant first derivative: its column is 0
        column = differentiate(g, leaves, watch)    # d/dx_j of df/dx_i, for every j
        for j, other in enumerate(wrt):
            matrix[..., j, i] = column.get(other, 0.0)
    return matrix


def differentiate(g: Variable, leaves, watch=None, create_graph: bool = False) -> dict:
    for leaf in leaves.values():
        leaf.clear_grad()
    clear_seed(g)
    g.backward(create_graph=create_graph, watch=watch)
    grads = {name: leaf.grad if create_graph else leaf.grad.data
             for name, leaf in leaves.items() if leaf.grad is not None}
    clear_seed(g)
    return grads


def nth_derivative(y: Variable, leaves, name: str, order: int, shape, watch=None) -> np.ndarray:
    """Differentiate, keep the graph, differentiate the derivative again: order times."""
    g = y
    if order == 0:
        return np.broadcast_to(y.data, shape).copy()
    growth = Growth(order)
    for step in range(order):
        if name not in leaves or not g.requires_grad:
            return np.zeros(shape)  # a constant: every further derivative is 0
        last = step == order - 1
        with growth.pass_(step):
            g = differentiate(g, leaves, watch, create_graph=not last).get(name)
        if g is None:
            return np.zeros(shape)
    return np.broadcast_to(g, shape).copy()


class Growth:
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
            raise ValuesError(self.refusal(step, ratio))
        start = recorded.count
        yield
        self.before_last, self.last = self.last, recorded.count - start
        self.total += self.last

    def refusal(self, step: int, ratio: float) -> str:
        return (f"order {self.order} is too high for this expression: after {step} "
                f"derivatives the graph already has {self.total:,} operations and each "
                f"further order multiplies it by about {ratio:.1f} (limit {self.BUDGET:,}); "
                f"ask for order {step} or less")
