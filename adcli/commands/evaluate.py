"""adcli eval: the value only, no derivatives."""
from __future__ import annotations

from .base import Column, Command, at_points, flat, merged


class Eval(Command):
    name = "eval"
    help = "Value of EXPRESSION only (no derivatives)."
    examples = ('adcli eval "sqrt(x^2 + y^2)" --at x=3,y=4',
                'adcli eval "-diff(F, x)/diff(F, y)" --let F="x^2+y^2-1" --at x=0.6,y=0.8')
    differentiates = False

    def head(self) -> dict:
        return {**super().head(), "variables": list(self.names)}

    def skeleton(self):
        return {"value": None}

    def columns(self):
        return [Column(("value",), self.symbol, self.symbol)]

    def compute(self, chunk, n):
        expression = self.expressions[0]
        result = expression.derivatives(at_points(expression, chunk), order=0)
        diagnostics = merged(n, [result])
        # A kink is where a derivative is a convention: eval shows none, unless the
        # expression takes one (diff(abs(x), x) at 0 is abs's convention).
        return [flat(result.value, n)], \
            diagnostics if expression.has_diff else diagnostics.drop("kink")
