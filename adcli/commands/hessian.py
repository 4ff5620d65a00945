"""adcli hessian: value, gradient and the matrix of second partials."""
from __future__ import annotations

from .base import Column, Matrix, flat, merged, at_points
from .gradient import Grad


class Hessian(Grad):
    name = "hessian"
    summary = "Value, gradient and Hessian matrix of EXPRESSION."  # (not grad's)
    help = "Value, gradient and Hessian matrix of EXPRESSION."
    examples = ('adcli hessian "x^2*y + sin(y)" --at x=1,y=2',)
    options = ()
    order = 2

    @classmethod
    def select(cls, **options):
        return cls

    def skeleton(self):
        return {**super().skeleton(), "hessian": [[] for _ in self.wrt]}

    def columns(self):
        k, w = range(len(self.wrt)), self.wrt
        # H[i][j] is d2f/dx_i dx_j as Leibniz reads it, d/dx_i (df/dx_j), as check's
        # d2/dx dy is (drivers.hessian). A space between the two: "d2f/dxd dy" and
        # "d2f/dx ddy" are different variables; the diagonal as grad --order 2 names it.
        return [*super().columns(),
                *(Column(("hessian", i, j), f"d2{self.symbol}/" + (
                    f"d{w[i]}^2" if i == j else f"d{w[i]} d{w[j]}"), None)
                  for i in k for j in k)]

    def compute(self, chunk, n):
        result = self.expressions[0].derivatives(at_points(self.expressions[0], chunk),
                                                 wrt=self.wrt, order=2)
        k = len(self.wrt)
        matrix = result.hessian.reshape(-1, k, k) if k else None
        arrays = [flat(result.value, n), *(flat(result.gradient[w], n) for w in self.wrt),
                  *(flat(matrix[:, i, j], n) for i in range(k) for j in range(k))]
        return arrays, merged(n, [result])

    def matrices(self):
        # A constant's has no entries: one line says so, where a heading per point would
        # head nothing.
        if not self.wrt:
            return [Matrix("the expression has no variables: its Hessian is empty",
                           "", [], [], [])]
        names = [f"∂/∂{w}" for w in self.wrt]
        k = range(len(self.wrt))
        corner = f"∂²{self.symbol}"
        # Each entry named alone, where no table fits: ∂²f/∂x∂y in row ∂/∂x, column ∂/∂y,
        # in the order of the CSV header d2f/dx dy; ∂²f/∂x² as d2f/dx^2.
        entries = [[f"{corner}/∂{a}²" if a == b else f"{corner}/∂{a}∂{b}"
                    for b in self.wrt] for a in self.wrt]
        return [Matrix("Hessian", corner, names, names,
                       [[("hessian", i, j) for j in k] for i in k], names=entries)]
