"""What each command computes for one chunk of points, as plain arrays for the renderer."""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from .errors import NonFiniteError
from .expression import Diagnostics, Expression


@dataclass
class Job:
    """One command's request: which expressions, what to compute, with respect to what."""

    kind: str                           # eval | grad | hessian | derivative | jacobian
    expressions: list[Expression]
    wrt: list[str]                      # the variables that get derivative columns
    order: int = 1                      # for kind == "derivative"
    strict: bool = False
    diagnostics: Diagnostics = field(default_factory=Diagnostics)

    @functools.cached_property
    def names(self) -> list[str]:
        """Every variable that needs a value, in order of first appearance."""
        return list(dict.fromkeys(v for e in self.expressions for v in e.variables))


@dataclass
class Rows:
    """Results for a chunk of n points."""

    at: dict[str, np.ndarray]
    values: list[np.ndarray]                                  # one per expression, (n,)
    gradients: list[dict[str, np.ndarray]] = field(default_factory=list)
    hessian: np.ndarray | None = None                         # (n, k, k)
    derivative: np.ndarray | None = None                      # (n,)

    def __len__(self):
        return len(self.values[0]) if self.values else 0

    def arrays(self):
        yield from self.values
        for gradient in self.gradients:
            yield from gradient.values()
        if self.hessian is not None:
            yield self.hessian
        if self.derivative is not None:
            yield self.derivative


def compute(job: Job, chunk: dict[str, np.ndarray]) -> Rows:
    """Evaluate every expression of the job at the chunk's points."""
    n = len(next(iter(chunk.values()))) if chunk else 1
    at = {name: chunk[name] for name in job.names}
    rows = Rows(at=at, values=[])
    job.diagnostics.points += n
    for expression in job.expressions:
        values = {v: chunk[v] for v in expression.variables}
        result = expression.evaluate(
            values, backprop=job.kind != "eval", wrt=job.wrt,
            hessian=job.kind == "hessian",
            order=job.order if job.kind == "derivative" else None)
        rows.values.append(np.broadcast_to(result.value, (n,)))
        if job.kind in ("grad", "hessian", "jacobian"):
            rows.gradients.append({v: np.broadcast_to(g, (n,)) for v, g in result.gradient.items()})
        if result.hessian is not None:
            rows.hessian = np.broadcast_to(result.hessian, (n,) + result.hessian.shape[-2:])
        if result.derivative is not None:
            rows.derivative = np.broadcast_to(result.derivative, (n,))
        job.diagnostics.merge(result.diagnostics)
    _check_finite(job, rows)
    return rows


def _check_finite(job: Job, rows: Rows) -> None:
    bad = sum(int(np.count_nonzero(~np.isfinite(a))) for a in rows.arrays())
    if bad and not job.diagnostics.counts:
        job.diagnostics.unattributed += bad
    if bad and job.strict:
        messages = job.diagnostics.messages() or ["a result is nan or inf"]
        raise NonFiniteError("; ".join(messages) + " (--strict)")
