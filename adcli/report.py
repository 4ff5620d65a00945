"""What the CLI says about non-finite results: the English for the API's diagnostics.

Counts are of points: per chunk, the masks of every node of a function (and of every
expression) are ORed, so a point is counted once however many nodes went wrong there.
"""
from __future__ import annotations

import numpy as np

from .functions import PRIMITIVES


class Report:
    def __init__(self):
        self.points = 0
        self.counts: dict[tuple[str, str], int] = {}
        self.unattributed = False   # nan/inf results no function is to blame for

    def add(self, diagnostics, n: int, columns) -> bool:
        """Count a chunk's diagnostics; return whether any result in it is nan or inf."""
        self.points += n
        for key, mask in diagnostics.masks.items():
            self.counts[key] = self.counts.get(key, 0) + int(np.count_nonzero(mask))
        bad = any(not np.isfinite(a).all() for a in columns)
        if bad and not self.counts:
            self.unattributed = True
        return bad

    def messages(self) -> list[str]:
        lines = []
        if self.unattributed and not self.counts:
            lines.append("a result is nan or inf (from a value that is nan or inf)")
        for (name, what), count in self.counts.items():
            where = f"{count} of {self.points} point{'s' * (self.points != 1)}"
            label = PRIMITIVES[name].label()
            if what == "value":
                lines.append(f"{label} gave nan or inf at {where} "
                             "(outside its domain, a pole, or overflow)")
            else:
                lines.append(f"the derivative of {label} is nan or inf at {where} "
                             "(an edge of its domain or a vertical tangent)")
        return lines
