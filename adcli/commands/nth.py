"""adcli grad --order N: the value and the N-th derivative in one variable."""
from __future__ import annotations

from ..errors import ValuesError
from .base import Column, at_points, flat, merged
from .gradient import Grad

_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


class Nth(Grad):
    def __init__(self, expressions, wrt=None, order=1, **options):
        super().__init__(expressions, wrt, **options)
        self.order = order

    def check_wrt(self, names):
        if not names:   # (a constant: --wrt x still asks for d/dx of it, which is 0)
            raise ValuesError(f"--order {self.order}: the expression has no variables, so "
                              "there is none to differentiate in (every derivative of a "
                              "constant is 0; adcli eval gives its value)")
        if len(names) != 1:
            # (--wrt x,y asks for a mixed partial, which is no N-th derivative: say where
            # one is; "name one with --wrt" would tell to do what was done)
            how = ("give one name to --wrt; for mixed partials, "
                   + ("adcli hessian, or " if self.order == 2 else "")
                   + f"diff(EXPRESSION, {', '.join(names)}) in adcli eval, each name once "
                   "for each time to differentiate in it"
                   if self.options.get("wrt_given") else "name one with --wrt")
            raise ValuesError(f"--order {self.order} differentiates in one variable, not "
                              f"{', '.join(names)}: {how}")

    def graph_size(self) -> int:
        # Taylor mode holds a series of order + 1 rows per live node.
        return super().graph_size() * (self.order + 1)

    def skeleton(self):
        return {"value": None, "order": self.order, "derivative": None}

    def columns(self):
        k, w, f = self.order, self.wrt[0], self.symbol
        sup = str(k).translate(_SUPERSCRIPT)
        # "^" before the order: d3f/dx1^3 is the third derivative in x1, not one in x13.
        return [Column(("value",), f, f),
                Column(("derivative",), f"d{k}{f}/d{w}^{k}", f"d{sup}{f}/d{w}{sup}")]

    def compute(self, chunk, n):
        e = self.expressions[0]
        result = e.nth_derivative(self.wrt[0], self.order, at_points(e, chunk))
        return [flat(result.value, n), flat(result.derivative, n)], merged(n, [result])
