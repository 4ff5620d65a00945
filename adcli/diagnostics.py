"""Which points of an evaluation went non-finite, and which function is to blame.

Data only: one boolean mask per (function, what) over the points, where ``what`` is
"value" (the function's own result was nan/inf from finite inputs), "derivative" (the
gradient it handed back was) or "kink" (its input sat on a kink or edge, where the
derivative shown is a convention: the function's ``kinks``). One more kind is keyed by a
variable, not a function: ``(name, "unsure")`` marks where a step overflowed or
underflowed and forward mode's d/d name differs from reverse mode's (which is shown): an
adjoint may have been lost to 0 or inf on the way. The CLI turns them into English;
Python callers read the masks (``Result.diagnostics``).
"""
from __future__ import annotations

import numpy as np

from .records import Record


class Diagnostics(Record):
    """``masks[(name, what)]`` is True at each point where primitive ``name`` misbehaved."""

    _fields = ("shape", "masks", "unsure")

    def __init__(self, shape: tuple = (), masks: dict[tuple[str, str], np.ndarray] | None = None,
                 unsure: dict[str, Unsure] | None = None):
        self.shape = shape
        self.masks = {} if masks is None else masks
        # per variable, the first point its ("unsure") mask marks, with both modes' numbers
        self.unsure = {} if unsure is None else unsure

    def add(self, function, what: str, bad: np.ndarray) -> None:
        self._or((function.name, what), bad)

    def _or(self, key: tuple[str, str], bad: np.ndarray) -> None:
        bad = np.broadcast_to(bad, self.shape) if self.shape else np.asarray(bad).reshape(-1)
        if not bad.any():
            return
        previous = self.masks.get(key)
        self.masks[key] = bad.copy() if previous is None else previous | bad

    def add_kinks(self, function, *arrays) -> None:
        """Mark the points where the inputs of ``function`` (a primitive, just called on
        ``arrays``) sit on one of its kinks (its own ``kinks`` says where)."""
        mask = function.kinks(*arrays)
        if mask is not None:
            self.add(function, "kink", mask)

    def add_unsure(self, name: str, bad: np.ndarray, first: Unsure) -> None:
        """Mark the points where d/d ``name`` by reverse and by forward mode differ after
        an overflow or underflow; ``first``: the first of them."""
        self._or((name, "unsure"), bad)
        self._keep_first(name, first)

    def _keep_first(self, name: str, first: Unsure) -> None:
        kept = self.unsure.get(name)
        if kept is None or first.index < kept.index:
            self.unsure[name] = first

    def merge(self, other: Diagnostics) -> None:
        """OR another evaluation's masks over the same points (or one point) into these."""
        for key, mask in other.masks.items():
            mask = np.broadcast_to(mask, self.shape)
            previous = self.masks.get(key)
            self.masks[key] = mask.copy() if previous is None else previous | mask
        for name, first in other.unsure.items():
            self._keep_first(name, first)

    def any(self) -> np.ndarray:
        """True at every point some function misbehaved."""
        bad = np.zeros(self.shape, dtype=bool)
        for mask in self.masks.values():
            bad = bad | np.broadcast_to(mask, self.shape)
        return bad

    def reshape(self, shape: tuple) -> Diagnostics:
        return Diagnostics(shape, {k: m.reshape(shape) for k, m in self.masks.items()},
                           dict(self.unsure))


class Unsure(Record):
    """The first point where the two modes differ: its index among the points (flat), the
    variables' values there, and d/d name by forward and by reverse mode (the one shown)."""

    __slots__ = _fields = ("index", "at", "forward", "reverse")

    def __init__(self, index: int, at: dict[str, float], forward: float, reverse: float):
        self.index, self.at, self.forward, self.reverse = index, at, forward, reverse


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
