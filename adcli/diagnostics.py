"""Which points of an evaluation went non-finite, and which function is to blame.

Data only: one boolean mask per (function, what) over the points, where ``what`` is
"value" (the function's own result was nan/inf from finite inputs), "derivative" (the
gradient it handed back was) or "kink" (its input sat on a kink or edge, where the
derivative shown is a convention: the function's ``kinks``). The CLI turns them into
English; Python callers read the masks (``Result.diagnostics``).
"""
from __future__ import annotations

import numpy as np

from .records import Record


class Diagnostics(Record):
    """``masks[(name, what)]`` is True at each point where primitive ``name`` misbehaved."""

    _fields = ("shape", "masks")

    def __init__(self, shape: tuple = (), masks: dict[tuple[str, str], np.ndarray] | None = None):
        self.shape = shape
        self.masks = {} if masks is None else masks

    def add(self, function, what: str, bad: np.ndarray) -> None:
        bad = np.broadcast_to(bad, self.shape) if self.shape else np.asarray(bad).reshape(-1)
        if not bad.any():
            return
        key = (function.name, what)
        previous = self.masks.get(key)
        self.masks[key] = bad.copy() if previous is None else previous | bad

    def add_kinks(self, function, *arrays) -> None:
        """Mark the points where the inputs of ``function`` (a primitive, just called on
        ``arrays``) sit on one of its kinks (its own ``kinks`` says where)."""
        mask = function.kinks(*arrays)
        if mask is not None:
            self.add(function, "kink", mask)

    def merge(self, other: Diagnostics) -> None:
        """OR another evaluation's masks over the same points (or one point) into these."""
        for key, mask in other.masks.items():
            mask = np.broadcast_to(mask, self.shape)
            previous = self.masks.get(key)
            self.masks[key] = mask.copy() if previous is None else previous | mask

    def any(self) -> np.ndarray:
        """True at every point some function misbehaved."""
        bad = np.zeros(self.shape, dtype=bool)
        for mask in self.masks.values():
            bad = bad | np.broadcast_to(mask, self.shape)
        return bad

    def reshape(self, shape: tuple) -> Diagnostics:
        return Diagnostics(shape, {k: m.reshape(shape) for k, m in self.masks.items()})


def watcher(diagnostics: Diagnostics):
    """A ``backward(watch=...)`` hook that blames a function for a non-finite gradient
    only where its own value and incoming gradient were finite."""
    def watch(function, index, gx):
        if np.isfinite(gx.data).all():
            return
        y = function.output()
        fine = np.isfinite(y.data) & np.isfinite(y.grad.data)
        diagnostics.add(function, "derivative", ~np.isfinite(gx.data) & fine)
    return watch
