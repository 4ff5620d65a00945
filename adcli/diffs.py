"""diff(f, x, y, ...) inside an expression: a derivative computed as a value, by double
backprop, while the expression is evaluated.

f's value is a Variable whose graph is recorded; a reverse pass with ``create_graph=True``
leaves d f / d x in the leaf x's ``grad`` as a graph of its own, which is the diff node's
value. So the result can be differentiated again: by the next name of the same diff, by
an enclosing diff, or by the gradient, Hessian or n-th derivative asked of the whole
expression. Every leaf's grad is cleared after each pass, so nothing leaks into the
expression's own reverse passes.

Each pass rebuilds a bigger graph, as ``--order`` does, so the same budget (drivers.Growth)
guards them: all the passes of one evaluation count towards one total, and a pass is
projected from the growth of the derivatives it continues (``diff(diff(f, x), x)`` and
``diff(x*diff(f, x), x)`` continue the inner one; two diffs side by side do not).
"""
from __future__ import annotations

import numpy as np

from .core import Variable
from .drivers import Growth, differentiate


class NestedGrowth(Growth):
    """drivers.Growth, worded for diff()."""

    def __init__(self, total: int, lineage: tuple[int, int, int]):
        super().__init__(order=0)
        self.total = total
        self.steps, self.last, self.before_last = lineage

    def refusal(self, step: int, ratio: float) -> str:
        return (f"diff() nests too deep for this expression: after {step} derivatives the "
                f"graph already has {self.total:,} operations and the next multiplies it by "
                f"about {ratio:.1f} (limit {self.BUDGET:,}); differentiate fewer times")


_FRESH = (0, 0, 0)  # (derivatives taken so far, operations of the last pass, of the one before)


class InnerDerivatives:
    """Computes the diff nodes of one evaluation, in evaluation order."""

    def __init__(self, leaves: dict[str, Variable], watch=None):
        self.leaves, self.watch = leaves, watch
        self.total = 0
        self.lineages: list[tuple[int, int, int]] = []  # per node: the deepest diff inside

    def value(self, node, computed: list[Variable], nodes) -> Variable:
        index = len(computed)
        growth = NestedGrowth(self.total, self._lineage(nodes, node.args[0]))
        g = computed[node.args[0]]
        for arg in node.args[1:]:
            if not g.requires_grad:
                g = Variable(np.zeros(()), requires_grad=False)  # a constant: 0 from now on
                break
            with growth.pass_(growth.steps):
                g = self._derivative(g, nodes[arg].name)
            growth.steps += 1
        self.total = growth.total
        self._lineage(nodes, index - 1)
        self.lineages.append((growth.steps, growth.last, growth.before_last))
        return g

    def _lineage(self, nodes, index: int) -> tuple[int, int, int]:
        """The growth to continue from for node ``index``: that of the diff inside it whose
        last pass was biggest. Filled in node order, so each node is looked at once."""
        for k in range(len(self.lineages), index + 1):
            inside = [self.lineages[a] for a in nodes[k].args]
            self.lineages.append(max(inside, key=lambda lineage: lineage[1], default=_FRESH))
        return self.lineages[index]

    def _derivative(self, g: Variable, name: str) -> Variable:
        try:
            d = differentiate(g, self.leaves, self.watch, create_graph=True).get(name)
        finally:
            for leaf in self.leaves.values():
                leaf.clear_grad()
        return Variable(np.zeros(()), requires_grad=False) if d is None else d
