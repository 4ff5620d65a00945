"""What the CLI says about the API's diagnostics: non-finite results and kinks, in English.

Counts are of points: per chunk, the masks of every node of a function (and of every
expression) are ORed, so a point is counted once however many nodes went wrong there.
"""
from __future__ import annotations

import math

import numpy as np

from .functions import PRIMITIVES

_FLOAT_MAX = float(np.finfo(np.float64).max)
# What the long double witness did, as every warning of it (and check's notes) says it
RECOMPUTED = ("an intermediate step overflowed or underflowed in float64, and computed again "
              "in long double (a wider exponent range)")
# Where Taylor mode found no scale of its line that kept its sweep inside float64's range
LOST = ("Taylor mode's steps left float64's normal range (an underflow or overflow on the "
        "way) along every scale of the line it tried: the derivative shown may be wrong "
        "there")
# What the rounding witness (adcli.rounding) saw: how far, or "as much"
NUDGED = ("its steps' rounding errors grew on the way (nearly equal numbers subtracted): "
          "with every step moved by a few ulps it moves by")
ROUNDED = NUDGED + " as much"
# Why, per kind of diagnostic: said once per function on stderr, once per point in JSON.
_WHY = {
    "value": "gave nan or inf ({reason})",
    "derivative": "has a nan or inf derivative ({reason})",
    "kink": "is not differentiable there ({reason}): its derivative there is a convention, "
            "not a fact",
    "overflow": "overflowed: {reason}",
    "unsure": "an intermediate step overflowed or underflowed, and forward mode gives another "
              "derivative: the derivative shown may be wrong there",
    "range": RECOMPUTED + " it is another number: the {shown} shown is wrong there",
    "lost": LOST,
    "rounding": ROUNDED + ": the {shown} shown has fewer than 8 correct digits there",
    "input": "the value given is nan or inf, so a result there is too",
}
# Kinds that name a function (or "input": a variable given nan or inf) for a nan or inf,
# or ("range") say the true number instead.
_BLAMED = ("value", "derivative", "overflow", "range", "input")
# Kinds keyed by a variable (d/dx; for "range", "" is the value), not by a function:
# forward and reverse mode differ, or the long double run contradicts the number shown.
_OF_VARIABLES = {"unsure", "range", "lost", "rounding"}


def why(name: str, what: str) -> str:
    """Why the diagnostic ``(name, what)`` was raised, without the function's name."""
    if what in _OF_VARIABLES:
        return _WHY[what].format(shown=_shown(name))
    if what == "input":
        return _WHY[what]
    return _WHY[what].format(reason=reason(name, what))


def _shown(name: str) -> str:
    return "derivative" if name.rpartition(":")[2] else "value"


def _subject(name: str, value: str = "value") -> str:
    """What a kind of a variable is about, by its name (wider.Asked's): d/dx, d2/dx dy
    (hessian's), d3/dx3 or d3/dx1^3 (grad --order's), or ``value`` for name ""; for an
    output's (Diagnostics.name_output), df2/dx or f2. The columns' scheme, without f."""
    output, _, variables = name.rpartition(":")
    if not variables:
        return output or value
    names = variables.split(",")
    if len(names) > 1 and len(set(names)) == 1:     # the Hessian's diagonal, as grad --order
        variables = f"{names[0]}^{len(names)}"      # 2 names its number: d2/dx2, not d2/dx dx
    x, _, order = variables.partition("^")
    if order:
        return f"d{order}{output}/d{x}{f'^{order}' if x[-1].isdigit() else order}"
    names = variables.split(",")
    if len(names) == 1:
        return f"d{output}/d{x}"
    return f"d{len(names)}{output}/" + " ".join(f"d{n}" for n in names)


def reason(name: str, what: str) -> str:
    """What makes primitive ``name`` give this diagnostic, as both JSON and stderr say."""
    if what == "overflow" and not _of_primitive(name):
        order = name.rpartition("^")[2]
        return _FACTORIAL.format(order=order)
    if what == "overflow":  # (the same for every function)
        return _OVERFLOW
    function = PRIMITIVES[name.rpartition(":")[2]]
    return {"value": function.value_reason, "derivative": function.derivative_reason,
            "kink": function.kink_reason}[what]


_OVERFLOW = ("its derivative times the gradient handed back to it is beyond the float "
             "range (not an edge of its domain)")
# grad --order N's last step: Taylor mode's row N is f^(N)/N!, every step to it in range
_FACTORIAL = ("Taylor mode's coefficient, the derivative divided by {order}!, is a float, "
              "and times {order}! it is beyond the float range")


def _of_primitive(name: str) -> bool:
    """Whether a kind that names a function names one here: an "overflow" names the
    derivative (d30/dx30) where the last step alone overflowed (adcli.taylor)."""
    return name.rpartition(":")[2] in PRIMITIVES


def label(name: str, what: str = "value") -> str:
    """The function as JSON names it: "abs", an operator's symbol ("/", "^"), or for a
    helper inside rules, the functions it serves ("^" for pow's d/da, "tanh"); for a kind
    keyed by a variable x, the derivative: "d/dx". One of several expressions' (jacobian's,
    Diagnostics.name_output): "log in f2", "df2/dx"."""
    if what in _OF_VARIABLES:
        return _subject(name)
    if what == "input":     # (jacobian's "f2:x": the same variable for every row)
        return name.rpartition(":")[2]
    if what == "overflow" and not _of_primitive(name):
        return _subject(name)
    return _of_function(name, quoted=False)


def _of_function(name: str, quoted: bool = True) -> str:
    """The function as a warning names it ("'/'", "log"; unquoted: "/"), and the
    expression it is in, if one of several ("'/' in f2": quotes around the symbol only)."""
    output, _, primitive = name.rpartition(":")
    said = PRIMITIVES[primitive].label()
    return (said if quoted else said.strip("'")) + (f" in {output}" if output else "")


def merged(diagnostics) -> dict[tuple[str, str], np.ndarray]:
    """The masks, those of one label ORed ('^' and the helper of its rule are one function
    to the reader, said once, a point counted once), keyed by the first name's key."""
    first, masks = {}, {}
    for (name, what), mask in diagnostics.masks.items():
        key = first.setdefault((label(name, what), what), (name, what))
        masks[key] = mask if key not in masks else masks[key] | mask
    return masks


def warned(diagnostics) -> list[tuple[tuple[str, str, str], np.ndarray, dict]]:
    """Per function and kind of trouble, ``((function, kind, why), indices, numbers)``:
    the points it marks, and the other witness's numbers there (``{"long_double":
    values}``, one per index; {} for a function's kinds). Worded once per kind, not once
    per point: a run may warn at every point; an overflow once more where long double
    found numbers finite (``finite_wider``), per set of them."""
    found = []
    finite = finite_wider(diagnostics)
    for (name, what), mask in merged(diagnostics).items():
        if not mask.any():
            continue
        said = why(name, what)
        numbers = diagnostics.numbers.get((name, what), {})
        for indices, subjects in _by_finite(np.ravel(mask), what, name,
                                            _reachable(diagnostics, name, what, finite)):
            numbers_there = {field: np.ravel(values)[indices]
                             for field, values in numbers.items()}
            told = 'its "range" entry' if len(subjects) == 1 else 'their "range" entries'
            whole = said + (_on_the_way(subjects, told) if subjects else "")
            found.append(((label(name, what), what, whole), indices, numbers_there))
    return found


def finite_wider(diagnostics) -> dict[str, np.ndarray]:
    """Per derivative shown (its name: "y,x", "f2:x"), where long double's run
    contradicted it with a number inside float64's range (its "range" warning's): a
    function's overflow, a step of the derivative's pass, at such a point was float64's,
    on the way to a finite number. (Not the value's: no derivative's step makes it.)"""
    finite = {}     # (a variable's masks are not merged: one each)
    for (name, what), mask in diagnostics.masks.items():
        wide = diagnostics.numbers.get((name, what), {}).get("long_double")
        if what == "range" and wide is not None and _shown(name) == "derivative":
            # (kept as float64: beyond its range a long double number is inf here)
            finite[name] = np.ravel(mask) & np.isfinite(np.ravel(wide))
    return {name: where for name, where in finite.items() if where.any()}


def _reachable(diagnostics, name: str, what: str, finite: dict) -> dict[str, np.ndarray]:
    """Of ``finite`` (finite_wider's), by subject ("df2/dx"), the derivatives that a
    step of function ``name`` can make: its own expression's (jacobian's f1 never makes
    f2's), and of those, the ones in a variable its overflowed gradients flowed on to
    (Diagnostics.reaches: x/y's -x/y^2 never makes exp(z)*w's d/dz)."""
    output, label_of = name.rpartition(":")[0], label(name, what)
    reaches = [names for (n, w), names in diagnostics.reaches.items()
               if w == what and label(n, w) == label_of]
    reached = set().union(*reaches) if reaches else None
    return {_subject(n, "the value"): where for n, where in finite.items()
            if n.rpartition(":")[0] == output
            and (reached is None or not reached.isdisjoint(_variables(n)))}


def _variables(name: str) -> list[str]:
    """The variables a derivative's name ("f2:x", "y,x", "x^3") differentiates in."""
    return name.rpartition(":")[2].partition("^")[0].split(",")


def _by_finite(mask, what: str, name: str, finite: dict):
    """The points of a flat ``mask``, as (indices, subjects) groups: for a function's
    overflow, by which numbers long double found finite there (``finite``, by subject:
    _reachable's); else all of them with none."""
    if what != "overflow" or not _of_primitive(name) or not finite:
        return [(np.flatnonzero(mask), ())]
    sets = np.zeros(mask.shape, dtype=np.int64)
    subjects = list(finite)[:62]
    for k, subject in enumerate(subjects):
        sets |= finite[subject].astype(np.int64) << k
    return [(np.flatnonzero(mask & (sets == code)),
             tuple(s for k, s in enumerate(subjects) if code >> k & 1))
            for code in np.unique(sets[mask]).tolist()]


def _on_the_way(subjects, told: str, some: str = "") -> str:
    """An overflow's words where long double found the numbers ``subjects`` finite (at
    ``some`` of its points, or all): the step overflowed in float64, on the way, and the
    true derivative is not inf; ``told``: where those numbers are given."""
    subjects = list(subjects)
    numbers = " and ".join(subjects) if len(subjects) < 3 else \
        ", ".join(subjects[:-1]) + ", and " + subjects[-1]
    one = len(subjects) == 1
    return (f";{some} computed again in long double, "
            f"{numbers} {'is' if one else 'are'} finite there ({told} give"
            f"{'s' * one} the number{'s' * (not one)})")


def _finite_there(diagnostics, mask, what: str, name: str, finite: dict) -> tuple[int, dict]:
    """How many of ``mask``'s points long double found some numbers finite at, and which
    numbers (in order, as keys): _said_on_the_way's count and subjects."""
    finite = _reachable(diagnostics, name, what, finite)
    groups = [(len(i), s) for i, s in _by_finite(np.ravel(mask), what, name, finite) if s]
    return sum(n for n, _ in groups), dict.fromkeys(s for _, named in groups for s in named)


def _said_on_the_way(count: int, total: int, subjects) -> str:
    """_on_the_way on stderr, after an overflow's line marking ``total`` points, ``count``
    of them where long double found ``subjects`` finite."""
    if not count:
        return ""
    some = "" if count == total else f" at {count} of those points"
    told = "its own warning" if len(subjects) == 1 else "their own warnings"
    return _on_the_way(subjects, told, some)


def point_warnings(diagnostics) -> list[tuple[int, str, str, str]]:
    """One ``(point index, function, kind, why)`` per point each diagnostic marks, in
    point order: the JSON "warnings" list."""
    found = [(int(i), *key) for key, indices, _ in warned(diagnostics) for i in indices]
    return sorted(found, key=lambda w: w[0])


def told(diagnostics, concerned) -> list[str]:
    """The API's warnings: one line per function (or variable) and kind of trouble that
    ``concerned(name, what)`` keeps, its points counted, in the CLI's words."""
    points = int(np.prod(diagnostics.shape, dtype=np.int64)) if diagnostics.shape else 1
    lines, finite = [], finite_wider(diagnostics)
    for (name, what), mask in merged(diagnostics).items():
        count = int(np.count_nonzero(mask))
        if not count or not concerned(name, what):
            continue
        where = f"{count} of {points} point{'s' * (points != 1)}"
        there, subjects = _finite_there(diagnostics, mask, what, name, finite)
        lines.append(said(name, what, where, diagnostics.first(name, what), points)
                     + _said_on_the_way(there, count, list(subjects)))
    return lines


class Report:
    def __init__(self):
        self.points = 0
        self.counts: dict[tuple[str, str], int] = {}
        self.unattributed = False   # nan/inf results no function is to blame for
        self.firsts: dict = {}      # per (variable, kind) of _OF_VARIABLES: its first point
        # per function's overflow: its points where long double found numbers finite, and
        # which numbers (finite_wider)
        self.on_the_way: dict[tuple[str, str], tuple[int, dict]] = {}

    def add(self, diagnostics, n: int, bad: bool = False) -> None:
        """Count a chunk's diagnostics; ``bad``: whether any result in it is nan or inf."""
        self.points += n
        for key, mask in merged(diagnostics).items():
            self.counts[key] = self.counts.get(key, 0) + int(np.count_nonzero(mask))
        for key in merged(diagnostics):
            if key[1] in _OF_VARIABLES:     # the earlier chunk's is the first
                self.firsts.setdefault(key, diagnostics.first(*key))
        self._add_on_the_way(diagnostics)
        if bad and not self._blamed():
            self.unattributed = True

    def _add_on_the_way(self, diagnostics) -> None:
        finite = finite_wider(diagnostics)
        if not finite:  # (the common case: no pass over the masks)
            return
        for (name, what), mask in merged(diagnostics).items():
            there, subjects = _finite_there(diagnostics, mask, what, name, finite)
            if there:
                count, named = self.on_the_way.get((name, what), (0, {}))
                self.on_the_way[(name, what)] = (count + there, {**named, **subjects})

    def _said_on_the_way(self, key) -> str:
        count, named = self.on_the_way.get(key, (0, {}))
        return _said_on_the_way(count, self.counts[key], list(named))

    def _blamed(self) -> bool:
        """Whether a function is named for a nan or inf."""
        return any(what in _BLAMED for _, what in self.counts)

    def messages(self, kinks: bool = True) -> list[str]:
        """One line per function and kind of trouble (without kinks: only nan and inf, and
        derivatives the two modes differ on)."""
        lines = []
        if self.unattributed and not self._blamed():
            lines.append("a result is nan or inf (from a value that is nan or inf)")
        for (name, what), count in self.counts.items():
            where = f"{count} of {self.points} point{'s' * (self.points != 1)}"
            if what != "kink" or kinks:
                lines.append(said(name, what, where, self.firsts.get((name, what)),
                                  self.points) + self._said_on_the_way((name, what)))
        return lines

    @staticmethod
    def stopped(diagnostics, i: int, where: str) -> str:
        """--strict's message: what made point i (at ``where``), the first whose results
        are not all finite, so; the run stopped there."""
        lines = [said(name, what, where, diagnostics.first(name, what), 1)
                 for (name, what), mask in merged(diagnostics).items()
                 if what in _BLAMED and np.ravel(mask)[i]]
        return "; ".join(lines or [f"a result is nan or inf at {where} (from a value that is "
                                  "nan or inf)"]) + ": stopped there (--strict)"


def said(name: str, what: str, where: str, first, points: int) -> str:
    """Any diagnostic in words, at ``where`` (points counted, or one): a function's, a
    variable's kind (``first``: its first point), a value given as nan or inf."""
    if what in _OF_VARIABLES:
        return variable_said(name, what, where, first, points)
    if what == "input":
        return input_said(name, where)
    return _said(name, what, where)


def _said(name: str, what: str, where: str) -> str:
    """One diagnostic of primitive ``name`` in words, at ``where`` (points counted, or one)."""
    if what == "overflow" and not _of_primitive(name):
        return f"{_subject(name)} overflowed at {where}: {reason(name, what)}"
    label, because = _of_function(name), reason(name, what)
    if what == "overflow":
        return f"the derivative through {label} overflowed at {where}: {because}"
    if what == "value":
        return f"{label} gave nan or inf at {where} ({because})"
    if what == "derivative":
        return f"the derivative of {label} is nan or inf at {where} ({because})"
    return (f"{label} is not differentiable at {where} ({because}): its derivative there is "
            "a convention, not a fact")


def input_said(name: str, where: str) -> str:
    """Variable ``name`` was given nan or inf at ``where``, where a result is so too."""
    return f"{label(name, 'input')} was given nan or inf at {where}, so a result there is too"


def variable_said(name: str, what: str, where: str, first, points: int) -> str:
    """A diagnostic of a kind keyed by a variable, in words (see unsure_said, wider_said)."""
    if what == "lost":
        return f"{_subject(name)} at {where}: {LOST}"
    if what == "rounding":
        return rounding_said(name, where, first, points)
    return (unsure_said if what == "unsure" else wider_said)(name, where, first, points)


def wider_said(name: str, where: str, first, points: int) -> str:
    """The long double run contradicts d/d name (name "": the value) at ``where`` (points
    counted); ``first``: the first such point (a diagnostics.Wider), named where there are
    several points."""
    if first is None:
        it_is = "it is another number"
    else:
        at = ", ".join(f"{n}={v!r}" for n, v in first.at.items())
        give = f", give or take {first.bound:.2g} (its own rounding)," if first.bound else ""
        it_is = (f"it is {number_digits(first.wider)}{give} where float64 gives "
                 f"{number_digits(first.shown)}{f' (first at {at})' if points > 1 else ''}")
    return (f"{_subject(name, 'the value')} at {where}: {RECOMPUTED} {it_is}: the "
            f"{_shown(name)} shown is wrong there")


def rounding_said(name: str, where: str, first, points: int) -> str:
    """d/d name (name "": the value) moved far when every step was nudged, at ``where``
    (points counted); ``first``: the first such point (a diagnostics.Rounded)."""
    from .rounding import digits

    subject, shown = _subject(name, "the value"), _shown(name)
    if first is None:
        return f"{subject} at {where}: {ROUNDED}: the {shown} shown has fewer than 8 " \
               "correct digits there"
    at = ", ".join(f"{n}={v!r}" for n, v in first.at.items())
    # (moved past the float range: sin(x)/x's order 2 at 1e-200, whose nudged 0 is 4e184)
    moved = f" {first.spread:.2g}" if math.isfinite(first.spread) else \
        " more than the float range holds"
    # a 0 has no digits to count: how far it may be off is what is known of it
    known = f"may be anything from {-first.spread:.2g} to {first.spread:.2g}" \
        if first.shown == 0 else \
        f"has {digits(first.shown, first.spread)}"
    return (f"{subject} at {where}: {NUDGED}"
            f"{moved}{f' (first at {at})' if points > 1 else ''}, so the {shown} "
            f"shown, {number_digits(first.shown)}, {known} there")


def number_digits(number: float) -> str:
    """14 digits, or below float64's normal range the digits it holds (a subnormal's
    spacing is 4.9e-324: 1.566475e-318, not 1.5664746553913e-318). A long double beyond
    float64's range (adcli.wider's) keeps its 14 digits: -2e+340 is not -inf."""
    if np.isfinite(number) and abs(number) > _FLOAT_MAX:
        mantissa, _, exponent = np.format_float_scientific(
            number, precision=13, unique=False).partition("e")
        return f"{mantissa.rstrip('0').rstrip('.')}e{exponent}"
    number = float(number)
    return repr(number) if 0 < abs(number) < 2.2250738585072014e-308 else f"{number:.14g}"


def unsure_said(name: str, where: str, first, points: int) -> str:
    """d/d name differs between the modes at ``where`` (points counted); ``first``: the
    first such point (a diagnostics.Unsure), named where there are several points."""
    if first is None:   # (masks made without it, as check's are)
        gives = "forward mode gives another derivative"
    else:
        at = ", ".join(f"{n}={v!r}" for n, v in first.at.items())
        gives = (f"forward mode gives {first.forward:.14g} where reverse mode gives "
                 f"{first.reverse:.14g}{f' (first at {at})' if points > 1 else ''}")
    return (f"{_subject(name)} at {where}: an intermediate step overflowed or underflowed, and "
            f"{gives}: the derivative shown may be wrong there")
