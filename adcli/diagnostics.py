"""Which points of an evaluation went non-finite, and which function is to blame.

Data only: one boolean mask per (function, what) over the points, where ``what`` is
"value" (the function's own result was nan/inf from finite inputs), "derivative" (the
gradient it handed back was) or "kink" (its input sat on a kink or edge, where the
derivative shown is a convention: the function's ``kinks``). One more kind is keyed by a
variable, not a function: ``(name, "unsure")`` marks where a step overflowed or
underflowed and forward mode's d/d name differs from reverse mode's (which is shown): an
adjoint may have been lost to 0 or inf on the way. And ``(name, "range")`` where the same
graph run in long double (adcli.wider) contradicts the number shown: d/d name, or for
name "" the value. And ``(name, "lost")`` where grad --order's Taylor sweep left float64's
normal range along every scale of the line it tried (adcli.taylor.Nth), name "x^3". And
``(name, "input")`` where the value given to the variable ``name`` is nan or inf and a
result there is too: no function is to blame. The
CLI turns them into English; Python callers read the masks (``Result.diagnostics``).
"""
from __future__ import annotations

import numpy as np

from .records import Record


class Diagnostics(Record):
    """``masks[(name, what)]`` is True at each point where primitive ``name`` misbehaved."""

    _fields = ("shape", "masks", "unsure", "wider", "numbers", "rounded", "reaches")

    def __init__(self, shape: tuple = (), masks: dict[tuple[str, str], np.ndarray] | None = None,
                 unsure: dict[str, Unsure] | None = None, wider: dict[str, Wider] | None = None,
                 numbers: dict | None = None, rounded: dict[str, Rounded] | None = None,
                 reaches: dict[tuple[str, str], set[str]] | None = None):
        self.shape = shape
        self.masks = {} if masks is None else masks
        # per variable, the first point its ("unsure") mask marks, with both modes' numbers
        self.unsure = {} if unsure is None else unsure
        # per variable ("" for the value), the first point its ("range") mask marks
        self.wider = {} if wider is None else wider
        # per mask of a variable's kind, the other witness's numbers, each an array shaped
        # as the mask (nan where it is False): JSON's warnings give them per point
        self.numbers: dict[tuple[str, str], dict[str, np.ndarray]] = \
            {} if numbers is None else numbers
        # per variable ("" for the value), the first point its ("rounding") mask marks
        self.rounded = {} if rounded is None else rounded
        # per function's "overflow" found by a reverse pass (watcher), the variables its
        # overflowed gradients flow on to: only their derivatives can be said to have
        # overflowed on the way (none kept: any of its expression's)
        self.reaches = {} if reaches is None else reaches

    def add(self, function, what: str, bad: np.ndarray) -> None:
        self._or((function.name, what), bad)

    def _or(self, key: tuple[str, str], bad: np.ndarray) -> None:
        bad = np.broadcast_to(bad, self.shape) if self.shape else np.asarray(bad).reshape(-1)
        if not bad.any():
            return
        previous = self.masks.get(key)
        self.masks[key] = bad.copy() if previous is None else previous | bad

    def add_reach(self, function, names: set[str]) -> None:
        """The variables ``names`` are reached by an overflowed gradient of ``function``."""
        self.reaches.setdefault((function.name, "overflow"), set()).update(names)

    def add_kinks(self, function, *arrays) -> None:
        """Mark the points where the inputs of ``function`` (a primitive, just called on
        ``arrays``) sit on one of its kinks (its own ``kinks`` says where)."""
        mask = function.kinks(*arrays)
        if mask is not None:
            self.add(function, "kink", mask)

    def add_unsure(self, name: str, bad: np.ndarray, first: Unsure, forward=None) -> None:
        """Mark the points where d/d ``name`` by reverse and by forward mode differ after
        an overflow or underflow; ``first``: the first of them; ``forward``: forward mode's
        number at each (shaped as ``bad``)."""
        self._or((name, "unsure"), bad)
        _keep_first(self.unsure, name, first)
        if forward is not None:
            self._numbers((name, "unsure"), bad, forward_mode=forward)

    def add_lost(self, name: str, bad: np.ndarray) -> None:
        """Mark the points where the n-th derivative ``name`` ("x^3") may be wrong
        to an underflow or overflow that no scale of Taylor mode's line avoided."""
        self._or((name, "lost"), bad)

    def add_wider(self, name: str, bad: np.ndarray, first: Wider, wider=None,
                  bounds=None) -> None:
        """Mark the points where the long double run contradicts d/d ``name`` (name "":
        the value); ``first``: the first of them; ``wider`` and ``bounds``: its number at
        each, and how far that may be off (0 where it is no rounding of its own)."""
        self._or((name, "range"), bad)
        _keep_first(self.wider, name, first)
        if wider is not None:
            self._numbers((name, "range"), bad, long_double=wider, give_or_take=bounds)

    def add_input(self, name: str, bad: np.ndarray) -> None:
        """Mark the points where the variable ``name`` was given nan or inf and some
        result is not finite."""
        self._or((name, "input"), bad)

    def add_rounding(self, name: str, bad: np.ndarray, first: Rounded, spread) -> None:
        """Mark the points where d/d ``name`` (name "": the value) moved by more than
        adcli.rounding.LOOSE of itself when every step was nudged; ``spread``: how far."""
        self._or((name, "rounding"), bad)
        _keep_first(self.rounded, name, first)
        self._numbers((name, "rounding"), bad, give_or_take=spread)

    def _numbers(self, key: tuple[str, str], bad: np.ndarray, **fields) -> None:
        kept = self.numbers.setdefault(key, {})
        for field, values in fields.items():
            values = np.broadcast_to(values, np.shape(bad))
            if field not in kept:
                kept[field] = np.full(self.masks[key].shape, np.nan)
            kept[field].reshape(-1)[np.ravel(bad)] = np.ravel(values)[np.ravel(bad)]

    def name_output(self, output: str) -> None:
        """Key every mask by ``output`` too (``"f2:log"``, ``"f2:x"``, ``"f2:"`` for the
        value): jacobian ORs several expressions' diagnostics, and "log" or d/dx alone
        would not say whose."""
        def named(name):
            return f"{output}:{name}"
        self.masks = {(named(n), w): m for (n, w), m in self.masks.items()}
        self.unsure = {named(n): first for n, first in self.unsure.items()}
        self.wider = {named(n): first for n, first in self.wider.items()}
        self.rounded = {named(n): first for n, first in self.rounded.items()}
        self.numbers = {(named(n), w): kept for (n, w), kept in self.numbers.items()}
        self.reaches = {(named(n), w): names for (n, w), names in self.reaches.items()}

    def first(self, name: str, what: str) -> Unsure | Wider | None:
        """The first point marked by the mask ``(name, what)`` of a variable's kind."""
        return {"unsure": self.unsure, "rounding": self.rounded}.get(what, self.wider).get(name)

    def merge(self, other: Diagnostics) -> None:
        """OR another evaluation's masks over the same points (or one point) into these."""
        for key, mask in other.masks.items():
            mask = np.broadcast_to(mask, self.shape)
            previous = self.masks.get(key)
            self.masks[key] = mask.copy() if previous is None else previous | mask
        for mine, theirs in ((self.unsure, other.unsure), (self.wider, other.wider),
                             (self.rounded, other.rounded)):
            for name, first in theirs.items():
                _keep_first(mine, name, first)
        for key, fields in other.numbers.items():
            self._numbers(key, np.broadcast_to(other.masks[key], self.masks[key].shape),
                          **fields)
        for key, names in other.reaches.items():
            self.reaches[key] = self.reaches.get(key, set()) | names

    # the kinds of mask that judge a derivative's number (its digits, another witness's
    # number), not the point (a kink) nor a function's trouble
    JUDGING = ("range", "unsure", "lost", "rounding")

    def judged_by(self, other: Diagnostics, name: str) -> None:
        """d/d ``name``'s judging masks (JUDGING) and their numbers taken from ``other``,
        these dropped: ``other`` judged another number shown for it (a forward trace's)."""
        for what in self.JUDGING:
            self.masks.pop((name, what), None)
            self.numbers.pop((name, what), None)
            if (name, what) in other.masks:
                self.masks[(name, what)] = np.broadcast_to(other.masks[(name, what)],
                                                           self.shape).copy()
                if (name, what) in other.numbers:
                    self.numbers[(name, what)] = other.numbers[(name, what)]
        for mine, theirs in ((self.unsure, other.unsure), (self.wider, other.wider),
                             (self.rounded, other.rounded)):
            mine.pop(name, None)
            if name in theirs:
                mine[name] = theirs[name]

    def any(self) -> np.ndarray:
        """True at every point some function misbehaved."""
        bad = np.zeros(self.shape, dtype=bool)
        for mask in self.masks.values():
            bad = bad | np.broadcast_to(mask, self.shape)
        return bad

    def drop(self, what: str) -> Diagnostics:
        """These diagnostics without the masks of one kind (eval's without "kink": it
        shows no derivative, whose convention a kink is about)."""
        self.masks = {key: mask for key, mask in self.masks.items() if key[1] != what}
        self.numbers = {key: kept for key, kept in self.numbers.items() if key[1] != what}
        return self

    def unmark(self, key: tuple, where: np.ndarray) -> None:
        """Unmark ``key`` at the points ``where`` (as many as this has, any shape); a mask
        left marking none goes, as no mask that marks none is kept."""
        mask = self.masks.get(key)
        if mask is None:
            return
        mask = np.broadcast_to(mask, self.shape) & ~np.reshape(where, self.shape)
        if mask.any():
            self.masks[key] = mask
        else:
            del self.masks[key]

    def reshape(self, shape: tuple) -> Diagnostics:
        return Diagnostics(shape, {k: m.reshape(shape) for k, m in self.masks.items()},
                           dict(self.unsure), dict(self.wider),
                           {k: {f: v.reshape(shape) for f, v in fields.items()}
                            for k, fields in self.numbers.items()}, dict(self.rounded),
                           dict(self.reaches))


def mark_inputs(diagnostics: Diagnostics, values: dict, not_finite: np.ndarray) -> None:
    """Blame a point's nan or inf results (``not_finite``) on a value given there as nan or
    inf, where no function is to blame (each one's "value" is from finite inputs only).
    (The CLI's, which has looked for such results anyway: a pass over every input array
    would cost the API ~10% of a gradient at a million points.)"""
    blamed = np.zeros(not_finite.shape, bool)
    for (_, what), mask in diagnostics.masks.items():
        if what in ("value", "derivative", "overflow"):
            blamed |= np.reshape(mask, not_finite.shape)
    for name, value in values.items():
        bad = ~np.isfinite(value)
        if bad.any():
            diagnostics.add_input(name, np.broadcast_to(bad, not_finite.shape) & not_finite
                                  & ~blamed)


def _keep_first(firsts: dict, name: str, first) -> None:
    kept = firsts.get(name)
    if kept is None or first.index < kept.index:
        firsts[name] = first


class Unsure(Record):
    """The first point where the two modes differ: its index among the points (flat), the
    variables' values there, and d/d name by forward and by reverse mode (the one shown)."""

    __slots__ = _fields = ("index", "at", "forward", "reverse")

    def __init__(self, index: int, at: dict[str, float], forward: float, reverse: float):
        self.index, self.at, self.forward, self.reverse = index, at, forward, reverse


class Wider(Record):
    """The first point where the long double run contradicts the number shown: its index
    among the points (flat), the variables' values there, the long double run's number
    (rounded to float64), the one shown, and ``bound``: 0, or how far long double's may
    be from the truth where it is its own rounding (adcli.wider.SPREAD)."""

    __slots__ = _fields = ("index", "at", "wider", "shown", "bound")

    def __init__(self, index: int, at: dict[str, float], wider: float, shown: float,
                 bound: float = 0.0):
        self.index, self.at, self.wider, self.shown = index, at, wider, shown
        self.bound = bound


def watcher(diagnostics: Diagnostics):
    """A ``backward(watch=...)`` hook that blames a function for a non-finite gradient
    only where its own value and incoming gradient were finite: "overflow" where its
    inputs were inside its smooth domain and the gradient it handed back is inf (log's
    gy/x at x = 1e-300 when gy = 1e300), else "derivative" (an edge of its domain)."""
    def watch(function, index, gx):
        if np.isfinite(gx.data).all():
            return
        y = function.output()
        fine = np.isfinite(y.data) & np.isfinite(y.grad.data)
        bad = ~np.isfinite(gx.data) & fine
        # a step of a rule is its owner's: the user wrote log, not the rule's gy/x. An
        # overflow where either's inputs are inside its smooth domain: log's gy/x at 1e-300
        # (log's are), the '*' in 1/x's rule -gy*y/x at 1e-160 (its own are)
        owner = function.rule_of or function
        over = bad & np.isinf(gx.data) & np.broadcast_to(
            inside(function, [x.data for x in function.inputs]) |
            inside(owner, [x.data for x in owner.inputs]), bad.shape)
        diagnostics.add(owner, "overflow", over)
        diagnostics.add(owner, "derivative", bad & ~over)
        if over.any():
            diagnostics.add_reach(owner, reached(function.inputs[index]))
    return watch


def reached(x) -> set[str]:
    """The names of the variables ``x`` is made from: where a gradient handed to x flows.
    (Taken at an overflow only: a walk over x's part of the graph.)"""
    return {v.name for v in x.ancestry() if v.creator is None and v.name is not None}


def inside(function, xs) -> np.ndarray | bool:
    """Where the inputs ``xs`` lie inside ``function``'s smooth domain (its ``kink``
    distance positive; everywhere for a function without edges). False for a function
    whose own reason for an infinite derivative says it (atan2's and hypot's origin); a
    quotient where its divisor is not 0."""
    from .functions import ORIGIN_SLOPE, POW_DERIVATIVE, Div, Primitive

    if function.derivative_reason == Div.derivative_reason:   # (a class, or a step of one)
        # (gy/b and -gy·y/b have no edge but b = 0: inf elsewhere is the float range's)
        return np.asarray(xs[1]) != 0
    if function.derivative_reason == POW_DERIVATIVE:
        # (pow and its rules' helpers, of (a, b): at a base above 0 neither b·a^(b-1) nor
        # a^b·ln(a) has an edge or a vertical tangent, nor b·a^(b-1) below 0 for a whole
        # b (x^-3 at -1e-80); inf there is an overflow, unless the exponent is ±inf
        # itself: 1^inf's slope in the base is inf, no float's excess)
        a, b = np.asarray(xs[0]), np.asarray(xs[1])
        with np.errstate(invalid="ignore"):
            return ((a > 0) | ((a < 0) & (b == np.floor(b)))) & np.isfinite(b)
    if function.derivative_reason != Primitive.derivative_reason and \
            not function.derivative_reason.endswith(ORIGIN_SLOPE):
        return False
    return np.asarray(function.kink(*xs)) > 0


class Rounded(Record):
    """The first point where a number moved by more than adcli.rounding.LOOSE of itself
    when every step was nudged: its index among the points (flat), the variables' values
    there, the number shown and how far the nudged runs landed from it."""

    __slots__ = _fields = ("index", "at", "shown", "spread")

    def __init__(self, index: int, at: dict[str, float], shown: float, spread: float):
        self.index, self.at, self.shown, self.spread = index, at, shown, spread
