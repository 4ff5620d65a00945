"""Option types whose errors read as adcli's own: click's IntRange says 'abc' "is not a
valid integer range" and 40 "is not in the range 1<=x<=17"."""
from __future__ import annotations

import click


class Whole(click.IntRange):
    """A whole number from ``min`` to ``max`` (None: no bound)."""

    name = "whole number"

    def get_metavar(self, *args, **kwargs) -> str:
        return "N"

    def _describe_range(self) -> str:     # (also what --help shows in brackets)
        return f"{self.min} or more" if self.max is None else f"{self.min} to {self.max}"

    def convert(self, value, param, ctx) -> int:
        try:
            number = int(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a whole number ({self._describe_range()})", param,
                      ctx)
        if (self.min is not None and number < self.min) or \
                (self.max is not None and number > self.max):
            self.fail(f"{number} is out of range ({self._describe_range()})", param, ctx)
        return number
