"""The graph run again, every Function call seen by a callback: what the witnesses of a
number shown (adcli.wider's long double run, adcli.rounding's nudged runs) are made of."""
from __future__ import annotations

import numpy as np

from . import drivers
from .core import tracing

# grad --order N's derivative is taken by nested reverse passes here (the tape's Taylor
# rules keep float64): their graph triples with each order, so only up to this one.
MAX_ORDER = 4


class Asked:
    """What was computed: the value, d/d each of ``wrt``, the Hessian over them, or the
    ``nth`` = (name, order) derivative; each number named as the warnings name it: "" the
    value, "x" d/dx, "x,y" d2/dx dy (every entry of the Hessian, as its columns), "x^3"
    d3/dx3 (report._subject words them)."""

    def __init__(self, wrt, hessian: bool = False, nth: tuple[str, int] | None = None):
        self.wrt, self.hessian = list(wrt), hessian
        self.nth = nth if nth is not None and 1 <= nth[1] <= MAX_ORDER else None
        # an n-th derivative above MAX_ORDER is computed in float64 only: nothing of it
        # is judged, and no warning of it may be dropped as long double's run settled
        self.unjudged = nth is not None and self.nth is None and nth[1] > 0

    def named(self, value, gradient=None, hessian=None, derivative=None) -> dict:
        numbers = {"": value}
        if self.wrt:
            numbers.update({name: gradient[name] for name in self.wrt})
        if self.hessian:
            for i, a in enumerate(self.wrt):
                for j, b in enumerate(self.wrt):
                    numbers[f"{a},{b}"] = hessian[..., i, j]
        if self.nth is not None:
            numbers[self.named_nth()] = derivative
        return numbers

    def named_nth(self) -> str:
        return nth_named(*self.nth)


def nth_named(name: str, order: int) -> str:
    """The n-th derivative in ``name`` as warnings key it: "x" for d/dx, "x^3" d3/dx3."""
    return name if order == 1 else f"{name}^{order}"



def run(make_run, arrays, asked: Asked, callback, kinked: dict | None = None,
         dtype=np.longdouble) -> dict:
    """The numbers asked for, in ``dtype`` (a Hessian's rounded to float64 already),
    every Function call seen by ``callback``; ``kinked`` gets, per function, where the
    run sat on its kinks."""
    n = len(arrays[0]) if arrays else 1
    run = make_run([a.astype(dtype) for a in arrays], (n,))
    gradient = hessian = derivative = None
    with np.errstate(all="ignore"), tracing(callback):
        y = run.forward()
        if kinked is not None:
            kinked.update({name: np.broadcast_to(mask, (n,)) for (name, what), mask
                           in run.diagnostics.masks.items() if what == "kink"})
        stage = getattr(callback, "stage", None) or (lambda made: None)
        stage("value")
        if asked.wrt:
            gradient, variables = drivers.gradient(y, run.leaves, asked.wrt, (n,),
                                                   create_graph=asked.hessian)
            stage("gradient")
            if asked.hessian:
                hessian = drivers.hessian(variables, run.leaves, asked.wrt, (n,))
        if asked.nth is not None:
            derivative = drivers.nth_derivative(y, run.leaves, *asked.nth, (n,))
    numbers = asked.named(y.data, gradient, hessian, derivative)
    return {name: np.broadcast_to(a, (n,)) for name, a in numbers.items()}
