"""The errors every layer raises; the CLI turns each into one message and an exit status."""
from __future__ import annotations

import unicodedata

# Exit statuses (README "Errors and exit codes").
EXIT_CHECK_FAILED, EXIT_BAD_INPUT, EXIT_NONFINITE, EXIT_INTERNAL, EXIT_INTERRUPTED = \
    1, 2, 3, 70, 130


class AdcliError(Exception):
    """A problem with what the user asked for: reported as one message, never a traceback."""

    exit_code = EXIT_BAD_INPUT


class ExpressionError(AdcliError):
    """Something wrong at a place in an expression: the message shows it with a caret."""

    def __init__(self, message: str, text: str, position: int):
        self.message, self.text, self.position = message, text, position
        super().__init__(self.render())

    def render(self) -> str:
        shown, caret = excerpt(self.text, self.position)
        return f"{self.message} (column {self.position + 1})\n  {shown}\n  {' ' * caret}^"


class ValuesError(AdcliError):
    """Missing, extra, duplicate or malformed values for variables."""


class PointsError(AdcliError):
    """A bad row in a points file or stream."""


class NonFiniteError(AdcliError):
    """A nan or inf in the results under --strict."""

    exit_code = EXIT_NONFINITE


def escape(text: str) -> str:
    """Text as it may be shown on a terminal: control and invisible characters escaped."""
    return "".join(_escape_char(c) for c in text)


def _escape_char(c: str) -> str:
    if c == " " or (c.isprintable() and unicodedata.category(c)[0] != "Z"):
        return c
    return c.encode("unicode_escape").decode("ascii")


def _width(text: str) -> int:
    # Wide (CJK) characters take two terminal columns; the caret must count them so.
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def excerpt(text: str, position: int, width: int = 60) -> tuple[str, int]:
    """A window of at most ``width`` shown characters around ``position``, and the caret's
    offset in it: long expressions are cut with an ellipsis, escapes widen the window."""
    start = max(0, position - width // 2)
    end = min(len(text), start + width)
    before, after = escape(text[start:position]), escape(text[position:end])
    prefix = "…" if start > 0 else ""
    suffix = "…" if end < len(text) else ""
    return prefix + before + after + suffix, _width(prefix + before)


def listing(names) -> str:
    """'x', 'x and y', 'x, y and z'."""
    names = list(names)
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def closest(name: str, candidates, cutoff: float = 0.6) -> str | None:
    import difflib

    matches = difflib.get_close_matches(name, list(candidates), n=1, cutoff=cutoff)
    return matches[0] if matches else None


def did_you_mean(name: str, candidates) -> str:
    match = closest(name, candidates)
    return f"; did you mean '{match}'?" if match else ""
