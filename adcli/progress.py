"""A progress bar on stderr for runs that take more than about a second.

Shown only when stderr is a terminal, and never over results streaming onto that same
terminal (those lines are progress enough); it is erased when the run ends. rich is
imported only once a bar is due, so short runs and pipes never pay for it.
"""
from __future__ import annotations

import os
import time

DELAY = 1.0     # seconds before a bar appears


class Progress:
    def __init__(self, err, total: int | None, allowed: bool = True):
        self.err, self.total = err, total
        self.enabled = allowed and _is_terminal(err)
        self.done, self.start = 0, time.monotonic()
        self.bar = self.task = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.stop()

    def advance(self, n: int) -> None:
        self.done += n
        if not self.enabled:
            return
        elapsed = time.monotonic() - self.start
        if self.bar is None:
            if elapsed < DELAY:
                return
            self._show()
        rate = self.done / elapsed if elapsed > 0 else 0.0
        self.bar.update(self.task, completed=self.done, rate=f"{rate:,.0f} points/s",
                        eta=_eta(self.total, self.done, rate))

    def _show(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress as Bar, TextColumn

        counted = "{task.completed:,}" + ("/{task.total:,}" if self.total else "") + " points"
        columns = [*([BarColumn()] if self.total else []), TextColumn(counted),
                   TextColumn("{task.fields[rate]}"), TextColumn("{task.fields[eta]}")]
        self.bar = Bar(*columns, console=Console(file=self.err), transient=True,
                       refresh_per_second=4)
        self.task = self.bar.add_task("", total=self.total, rate="", eta="")
        self.bar.start()


def _eta(total: int | None, done: int, rate: float) -> str:
    if not total or rate <= 0:
        return ""
    seconds = round((total - done) / rate)
    return f"ETA {seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty() and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError):    # no isatty, or a closed stream
        return False
