"""Whether a derivative shown at a kink is f's own: its left and right derivatives there.

Reverse mode's number at a kink of a step (abs at 0, a tie of max) is that step's
convention, and every command says so. But f itself may be differentiable there: abs(x)^3
and x*abs(x) at 0, whose derivative 0 is a fact. Where f's left and right derivatives agree
with each other and with the number shown, "a convention, not a fact" would be false, so
the kink is not said there. They are check's one-sided Richardson differences
(checking._one_sided_steps, along the same paths check takes), at the kink points only.
"""
from __future__ import annotations

import numpy as np

# Kink points looked at, at most: each costs a few dozen evaluations per derivative shown
# (a grid meets abs's 0 once; abs(x - x) is a kink everywhere, and stays said).
LIMIT = 4096


def confirmed(expression, at: dict, shown: dict, where: np.ndarray) -> np.ndarray:
    """Per point (1-d, as ``where``): True where every derivative ``shown`` (path, a tuple
    of variable names as checking.path orders them, to its numbers) is f's: its left and
    right derivatives exist, agree, and agree with it. False elsewhere, and everywhere
    past LIMIT kink points."""
    from .checking import _exists, _one_sided_steps

    found = np.zeros(where.shape, bool)
    index = np.flatnonzero(where)
    if not index.size or index.size > LIMIT or not shown:
        return found
    points = {v: np.broadcast_to(np.asarray(at[v], dtype=np.float64), where.shape)[index]
              for v in expression.variables}
    every = np.ones(index.size, bool)
    everywhere, unknown = np.ones(index.size, bool), np.full(index.size, np.inf)
    with np.errstate(all="ignore"):
        for names, numbers in shown.items():
            ad = np.broadcast_to(np.asarray(numbers, dtype=np.float64), where.shape)[index]
            left, right, step = _one_sided_steps(expression, names, points, everywhere,
                                                 unknown)
            every &= (step == -1) & _exists(left, right) & _exists(ad, left) \
                & _exists(ad, right)
    found[index] = every
    return found

