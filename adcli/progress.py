"""A progress bar on stderr for runs that take more than about a second.

Shown only when stderr is a terminal, and never over results streaming onto that same
terminal (those lines are progress enough); it is erased when the run ends, on Ctrl-C
too. rich is imported only once a bar is due, so short runs and pipes never pay for it. On
a narrow terminal the bar goes first, then the rate, then the time left: a number is never
cut.
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
        if self.bar is None and elapsed < DELAY:
            return
        rate = self.done / elapsed if elapsed > 0 else 0.0
        fields = {"rate": f"{rate:,.0f} points/s", "eta": _eta(self.total, self.done, rate)}
        if self.bar is None:    # drawn at once: with its rate, laid out as it will stay
            self._show(fields)
        self.bar.update(self.task, completed=self.done, **fields)

    def _show(self, fields: dict) -> None:
        from rich.console import Console
        from rich.progress import Progress as Bar, ProgressColumn
        from rich.progress_bar import ProgressBar
        from rich.table import Table

        class Line(ProgressColumn):
            """The whole line, laid out for the terminal's width as it is now."""

            def render(self, task):
                count = f"{int(task.completed):,}" + (f"/{int(task.total):,}" if task.total
                                                      else "")
                bar, text = layout(console.width - ECHO, count, task.fields["rate"],
                                   task.fields["eta"], bool(task.total))
                if not bar:
                    return text
                grid = Table.grid(padding=(0, 1))
                grid.add_row(ProgressBar(total=task.total, completed=task.completed,
                                         width=bar), text)
                return grid

        console = Console(file=self.err)
        self.bar = Bar(Line(), console=console, transient=True, refresh_per_second=4)
        self.task = self.bar.add_task("", total=self.total, completed=self.done, **fields)
        self.bar.start()


BAR = (10, 40)  # the bar's narrowest and widest, in columns
# Columns kept free at the end of the bar's line for the terminal's echo of Ctrl-C ("^C"),
# written where the cursor is: on a line filled to the last column it wraps, and the bar
# erased on the way out is then the copy redrawn on the line below, the one above stays.
ECHO = 2


def layout(width: int, count: str, rate: str, eta: str, barred: bool) -> tuple[int, str]:
    """The bar's width (0: none) and the text beside it, in ``width`` columns: the count,
    the rate and the time left, but on a narrower terminal without the bar, then without
    the rate, then the time left, then the word "points" (only a terminal narrower than
    the count itself cuts a number)."""
    tries = [[f"{count} points", rate, eta], [f"{count} points", eta], [f"{count} points"],
             [count]]
    texts = [" ".join(part for part in parts if part) for parts in tries]
    room = width - len(texts[0]) - 1
    if barred and room >= BAR[0]:
        return min(room, BAR[1]), texts[0]
    return 0, next((text for text in texts if len(text) <= width), texts[-1])


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
