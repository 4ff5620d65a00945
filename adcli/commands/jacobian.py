"""adcli jacobian: several expressions, one row of partial derivatives each."""
from __future__ import annotations

from .base import Column, Command, Matrix, at_points, flat, merged


class Jacobian(Command):
    name = "jacobian"
    summary = "Values and Jacobian of several EXPRESSIONS."
    help = "Values and Jacobian of several EXPRESSIONS (one row per expression)."
    examples = ('adcli jacobian "r cos(t)" "r sin(t)" --at r=2,t=pi/6',)
    many = True

    @property
    def function_names(self) -> list[str]:
        """f1, f2, ...: numbered for one expression too, so a script reading the columns
        of N expressions needs no special case for N = 1."""
        return [f"{self.symbol}{i + 1}" for i in range(len(self.expressions))]

    def head(self) -> dict:
        return {"expressions": [e.text for e in self.expressions],
                "parsed": [e.parsed for e in self.expressions], "variables": list(self.wrt)}

    def skeleton(self):
        return {"values": [], "jacobian": [[] for _ in self.expressions]}

    def columns(self):
        fs = self.function_names
        return [*(Column(("values", i), f, None) for i, f in enumerate(fs)),
                *(Column(("jacobian", i, j), f"d{f}/d{w}", None)
                  for i, f in enumerate(fs) for j, w in enumerate(self.wrt))]

    def compute(self, chunk, n):
        results = [e.derivatives(at_points(e, chunk), wrt=self.wrt) for e in self.expressions]
        if len(results) > 1:  # (d/dx alone would not say whose)
            for f, result in zip(self.function_names, results):
                result.diagnostics.name_output(f)
        arrays = [flat(r.value, n) for r in results]
        arrays += [flat(r.gradient[w], n) for r in results for w in self.wrt]
        return arrays, merged(n, results)

    @property
    def table_title(self):
        return None

    def matrices(self):
        rows = self.function_names
        cells = [[("values", i), *(("jacobian", i, j) for j in range(len(self.wrt)))]
                 for i in range(len(rows))]
        legend = tuple(f"{f} = {e.parsed}" for f, e in zip(rows, self.expressions))
        return [Matrix("Jacobian", "output", rows, ["value", *(f"∂/∂{w}" for w in self.wrt)],
                       cells, legend)]
