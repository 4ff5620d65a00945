"""adcli grad: the value and every first partial derivative (``--order N``: see nth)."""
from __future__ import annotations

import click

from ..expression import MAX_ORDER
from ..options import Whole
from .base import Column, Command, at_points, flat, merged


class Grad(Command):
    name = "grad"
    summary = "Value and gradient of EXPRESSION."
    help = "Value and gradient of EXPRESSION at the given points (@FILE reads it from a file)."
    examples = ('adcli grad "exp(x^2)^2" --at x=0.5',
                'adcli grad "x^2*y" --grid x=0:1:3 --at y=2 --format csv',
                'adcli grad "sin(x)/x" --order 3 --at x=1')
    options = (click.option("--order", type=Whole(1, MAX_ORDER), default=1,
                            show_default=True, help="The N-th derivative in one variable "
                            "(--wrt names it if there are several)."),)
    order = 1

    @classmethod
    def select(cls, order=1, **options):
        if order == 1:
            return cls
        from .nth import Nth

        return Nth

    def skeleton(self):
        return {"value": None, "gradient": {}}

    def columns(self):
        f = self.symbol
        return [Column(("value",), f, f),
                *(Column(("gradient", w), f"d{f}/d{w}", f"∂{f}/∂{w}") for w in self.wrt)]

    def compute(self, chunk, n):
        result = self.expressions[0].derivatives(at_points(self.expressions[0], chunk),
                                                 wrt=self.wrt, order=self.order)
        arrays = [flat(result.value, n), *(flat(result.gradient[w], n) for w in self.wrt)]
        return arrays, merged(n, [result])
