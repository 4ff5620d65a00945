"""Expression: a parsed formula you can evaluate and differentiate at many points at once.

This is the Python API (``adcli.parse(text)`` returns one). Nodes are kept flat in
evaluation order, so evaluating, printing and differentiating never recurse. The
derivative drivers live in ``drivers``, the per-point diagnostics in ``diagnostics``, and
printing the parsed form in ``printer`` (the parser's inverse).
"""
from __future__ import annotations

import contextlib
import functools
import math
import os
import re
import sys
from collections.abc import Iterable, KeysView, Mapping
from collections.abc import Set as AbstractSet

import numpy as np

from . import drivers
from .core import Variable, no_grad, using_backprop
from .diagnostics import Diagnostics, watcher
from .diffs import InnerDerivatives
from .errors import AdcliWarning, ValuesError, did_you_mean, listing, no_value_for, quote
from .records import Record

MAX_ORDER = 64  # the highest derivative --order and diff(f, x, N) take: a typo beyond it

# The parameters of the methods that take the variables' values as keywords, each with
# where it belongs (Expression._no_strays).
_PARAMETERS = {
    "order": ": derivatives(order=...) takes the order of the partials, derivative(name, "
             "order) the order of one",
    "wrt": ": grad, hessian and derivatives take wrt=; derivative takes name=",
    "name": ": derivative takes name=",
}

# Never changed once made (not frozen: a 1 MB expression makes a million, and a guard on
# every assignment would cost); slots: a third of the memory.
class Node(Record):
    __slots__ = _fields = ("kind", "position", "name", "value", "function", "args")
    __hash__ = Record._value_hash

    def __init__(self, kind: str, position: int, name: str = "", value: float | None = None,
                 function: type | None = None, args: tuple[int, ...] = ()):
        self.kind = kind            # number | constant | variable | call | infix | prefix | diff
        self.position = position    # where it starts in the text (for error carets)
        self.name = name
        self.value = value
        self.function = function
        self.args = args

    def with_args(self, args: tuple[int, ...]) -> Node:
        return Node(self.kind, self.position, self.name, self.value, self.function, args)


class Result(Record):
    """What one evaluation computed at every point (arrays shaped like the points).

    ``gradient`` is set for order >= 1, ``hessian`` (shape ``(*points, k, k)``) for
    order 2, ``derivative`` for an n-th derivative. ``diagnostics.masks`` maps
    ``(function name, "value" | "derivative" | "overflow" | "kink")`` to a boolean array
    over the points: True where that function produced nan or inf from finite inputs (its
    value, or the gradient it handed back; "overflow": an inf one from inputs inside its
    domain), or, for "kink", where its input sits on a kink or
    edge at which the derivative shown is a convention, not a fact (the function's own
    ``kinks`` says where).
    """

    _fields = ("value", "diagnostics", "wrt", "gradient", "hessian", "derivative")
    # Equal only to itself: numbers computed twice may differ in nan's place or a bit,
    # and an array has no one truth value for == to give (Record's would raise).
    __eq__, __hash__ = object.__eq__, object.__hash__

    def __init__(self, value: np.ndarray, diagnostics: Diagnostics, wrt: tuple[str, ...] = (),
                 gradient: dict[str, np.ndarray] | None = None, hessian: np.ndarray | None = None,
                 derivative: np.ndarray | None = None):
        self.value, self.diagnostics, self.wrt = value, diagnostics, wrt
        self.gradient, self.hessian, self.derivative = gradient, hessian, derivative

    def derivatives_finite(self) -> bool:
        arrays = [*(self.gradient or {}).values(), self.hessian, self.derivative]
        return all(np.isfinite(a).all() for a in arrays if a is not None)


class Expression:
    """A parsed expression. Values may be numbers or arrays; arrays broadcast together.

    Every method takes the variables' values as keywords (``x=1``) or as a mapping
    (``at={"x": 1}``), the way to give a value to a variable whose name is also one of the
    method's parameters (``order``, ``wrt``, ``name``, ``at``).
    """

    _read_cautions: tuple = ()  # what the reader said while reading it (set by the parser)

    def __init__(self, text: str = "", nodes: list[Node] | None = None,
                 names: dict[int, str] | None = None):
        if nodes is None:  # (only the parser has nodes: Expression("x^2") is a caller's slip)
            example = f": adcli.parse({_shown(text)})" if isinstance(text, str) and text else ""
            raise ValuesError("an Expression is made by adcli.parse(text), not by "
                              f"Expression(text){example}")
        self.text = text
        self.nodes = nodes
        self.names = dict(names or {})  # the root node of each --let definition: its name
        # (definitions.Roots: the definitions linked in, whose cautions are said too)
        self._defined = getattr(names, "definitions", None), getattr(names, "linked", ())
        # The variables in order of first use, and whether a diff(f, x) node is inside (f's
        # graph must then always be recorded): one pass over what may be a million nodes.
        seen: dict[str, None] = {}
        has_diff = False
        for node in nodes:
            kind = node.kind
            if kind == "variable":
                seen[node.name] = None
            elif kind == "diff":
                has_diff = True
        self.variables: tuple[str, ...] = tuple(seen)
        self.has_diff = has_diff

    def __repr__(self):
        return f"Expression({self.text!r})"

    @functools.cached_property
    def varying(self) -> tuple[bool, ...]:
        """Per node: whether it depends on a variable (``abs(0)`` does not, so its kink
        cannot matter to any derivative)."""
        return self.moving(self.variables)

    def moving(self, names) -> tuple[bool, ...]:
        """Per node: whether it depends on one of ``names``, the variables differentiated
        in: only those nodes' kinks can matter (``abs(y)``'s does not to d/dx)."""
        names = frozenset(names) & frozenset(self.variables)  # one key for every superset
        made = self._moving.get(names)
        if made is None:
            varies: list[bool] = []
            for node in self.nodes:
                varies.append(node.name in names if node.kind == "variable"
                              else any([varies[i] for i in node.args]))
            made = self._moving[names] = tuple(varies)
        return made

    @functools.cached_property
    def _moving(self) -> dict:
        return {}

    @functools.cached_property
    def under_diff(self) -> tuple[bool, ...]:
        """Per node: whether a diff() differentiates it in a variable it depends on
        (diff(abs(x), x)'s abs, not diff(abs(y)*x, x)'s): where only values are asked for,
        only those nodes' kinks can matter (eval shows no derivative but diff()'s)."""
        marked = [False] * len(self.nodes)
        for node in self.nodes:
            if node.kind != "diff":
                continue
            moving = self.moving([self.nodes[a].name for a in node.args[1:]])
            stack = [node.args[0]]
            while stack:
                j = stack.pop()
                if moving[j] and not marked[j]:
                    marked[j] = True
                    stack.extend(self.nodes[j].args)
        return tuple(marked)

    @functools.cached_property
    def diff_growth(self) -> float:
        """How many times bigger than its node list the graph of one evaluation may get:
        each derivative a diff() takes makes about 3 times the graph it differentiates (as
        --order does), up to the growth budget. 1 without diff()."""
        if not self.has_diff:
            return 1.0
        size: list[int] = []
        for node in self.nodes:
            below = 1 + sum(size[a] for a in node.args)
            if node.kind == "diff":
                below = size[node.args[0]] * 3 ** min(len(node.args) - 1, 20)
            size.append(min(below, drivers.Growth.BUDGET))
        return max(1.0, size[-1] / len(self.nodes))

    @property
    def parsed(self) -> str:
        """The expression as it was read, with every compound operand in parentheses."""
        return self._parsed

    @functools.cached_property
    def _parsed(self) -> str:   # (parsed is read-only: a cached_property can be assigned)
        from .printer import render

        return render(self.nodes, names=self.names)

    @functools.cached_property
    def cautions(self) -> list[str]:
        """Readings right by the rules that are rarely what was meant (``x^1/2`` is
        ``(x^1)/2``, ``1e999`` is inf): what the CLI warns of on stderr; its definitions'
        too, each naming its definition."""
        from .parser import cautions

        definitions, linked = self._defined
        own = cautions(self)
        return own if definitions is None else [*own, *definitions.cautions(linked)]

    # ----- the Python API -------------------------------------------------------------

    def value(self, /, at: Mapping | None = None, **values) -> np.ndarray:
        """The value at the given point(s)."""
        return _told(self._derivatives("value", at, values, order=0), ("value",)).value

    def float64_value(self, at: Mapping) -> np.ndarray:
        """The value, as float64 gives it: no second witness where a step over- or
        underflowed, nothing warned. For adcli's own evaluations (finite differences,
        a cell's constant), many and judged by their callers."""
        return self._evaluate(self._values(at, {}), lambda run: run.partials((), 0),
                              witnessed=False).value

    def float64_nth_derivative(self, name: str, order: int, at: Mapping) -> Result:
        """``nth_derivative`` as float64 gives it, for adcli's own evaluations (check's
        references and claims), whose diagnostics no one reads: no second witness, no
        rounding witness (three runs for one)."""
        return self._evaluate(self._values(at, {}), lambda run: run.nth(name, order),
                              witnessed=False)

    def grad(self, /, wrt=None, at: Mapping | None = None, **values) -> dict[str, np.ndarray]:
        """Every first partial derivative (or those in ``wrt``), by variable name."""
        return _told(self._derivatives("grad", at, values, wrt), ("gradient",)).gradient

    def value_and_grad(self, /, wrt=None, at: Mapping | None = None, **values):
        """``(value, gradient)`` from one forward and one reverse pass."""
        result = _told(self._derivatives("value_and_grad", at, values, wrt))
        return result.value, result.gradient

    def hessian(self, /, wrt=None, at: Mapping | None = None, **values) -> np.ndarray:
        """Second partials: shape (*points, k, k), rows and columns in ``wrt`` order."""
        return _told(self._derivatives("hessian", at, values, wrt, 2), ("hessian",)).hessian

    def derivative(self, /, name: str | None = None, order: int = 1,
                   at: Mapping | None = None, **values) -> np.ndarray:
        """The ``order``-th derivative with respect to one variable."""
        self._no_strays("derivative", values)
        result = self._nth("derivative", name, order, at, values)
        # (order 0 is the value itself: no kink of its is said, as .value says none)
        return _told(result, ("derivative",) if order else ("value",)).derivative

    def derivatives(self, /, at: Mapping | None = None, *, wrt=None, order: int = 1,
                    **values) -> Result:
        """Value (order 0), gradient (1) and Hessian (2) in one run, with diagnostics."""
        return self._derivatives("derivatives", at, values, wrt, order)

    def _derivatives(self, method: str, at, values: dict, wrt=None, order: int = 1) -> Result:
        """derivatives, for each method that calls it: its keywords are all values (a
        variable named order is one), passed as a dict, never as keywords."""
        self._no_strays(method, values)
        order = _whole(order, "the order of derivatives", 0, 2, _HIGHER)
        wrt = self._wrt(wrt)
        self._warn_unused("wrt", wrt)
        return self._partials(self._values(at, values, method), wrt, order)

    def _partials(self, values: dict, wrt: tuple[str, ...], order: int) -> Result:
        return self._evaluate(values, lambda run: run.partials(wrt, order))

    def nth_derivative(self, /, name: str | None = None, order: int = 1,
                       at: Mapping | None = None, **values) -> Result:
        """Value and ``order``-th derivative in the variable ``name``, with diagnostics."""
        self._no_strays("nth_derivative", values)
        return self._nth("nth_derivative", name, order, at, values)

    def _nth(self, method: str, name, order, at, values: dict) -> Result:
        """nth_derivative, for each method that calls it (named in its errors)."""
        # (as --order and diff(f, x, N): beyond, Taylor mode's redo nests past Python's stack)
        order = _whole(order, "the order of a derivative", 0, MAX_ORDER)
        name = self._only_variable() if name is None else _one_name(name)
        _no_constants([name], f"name={_shown(name)}")
        self._not_defined([name], f"name={_shown(name)}")
        self._warn_unused("name", [name])
        return self._evaluate(self._values(at, values, method),
                              lambda run: run.nth(name, order))

    # ----- names and values -----------------------------------------------------------

    def check_values(self, names) -> None:
        """Raise ValuesError listing every variable without a value."""
        missing = [v for v in self.variables if v not in names]
        if missing:
            raise no_value_for(missing, texts=[self.text], given=names,
                               notes=missing_notes(missing, names))

    def unknown_names(self, names) -> list[str]:
        """Given names the expression does not use, each with a did-you-mean suggestion."""
        return [f"'{n}' does not appear in the expression{name_hint(n, self.variables)}"
                for n in names if n not in self.variables]

    def _not_defined(self, names, wrt: str | None = None) -> None:
        """A name is a definition or a variable, never both (as the CLI's --let). ``wrt``:
        how the names were given to differentiate by (``wrt='F'``); None for values."""
        defined = set(self.names.values())
        for name in [n for n in names if n in defined]:
            if wrt is None:
                raise ValuesError(f"'{name}' is a definition, so it is not a variable and "
                                  "cannot be given a value: leave it out of the values, or "
                                  "rename the definition")
            raise ValuesError(not_differentiated(name, [self], wrt))

    def _no_strays(self, method: str, values: dict) -> None:
        """A keyword that is another method's parameter (order=, wrt=, name=), given to one
        that has none such, is a slip, unless a variable has its name: then it is that
        variable's value. Dropped as an unused value, it would change nothing, silently."""
        for stray in [k for k in values if k in _PARAMETERS]:  # (method has none of them)
            if stray not in self.variables:
                raise ValuesError(f"{method}() takes no {stray}=, and the expression has no "
                                  f"variable '{stray}' for it to be the value of"
                                  f"{_PARAMETERS[stray]}")

    def _values(self, at, values: dict, method: str = "value") -> dict:
        """The values of the expression's variables. A value for a name it does not use
        is a warning, as in the CLI, and is dropped unread: records with more fields than
        variables (``f.grad(**row)``) are common, and their ids need not be numbers.
        ``method``: the one given them, for an ``at`` that is no mapping."""
        values = merged(at, values, method, self.variables)
        self.no_constant_values(values)
        self._not_defined(values)
        _warn([f"a value was given for '{n}', which does not appear in the expression"
               f"{name_hint(n, self.variables)}" for n in values if n not in self.variables])
        self.check_values(values)
        return {v: values[v] for v in self.variables}

    def _warn_unused(self, what: str, names) -> None:
        """A derivative in a name the expression lacks is 0, probably by a typo: warn."""
        _warn([f"{what}: '{w}' does not appear in the expression, so its derivative is 0"
               f"{name_hint(w, self.variables)}" for w in names if w not in self.variables])

    def _wrt(self, wrt) -> tuple[str, ...]:
        if wrt is None:
            return self.variables
        names = _names(wrt)
        _no_constants(names, f"wrt={_shown(wrt)}")
        self._not_defined(names, f"wrt={_shown(wrt)}")
        return names

    @functools.cached_property
    def constants(self) -> frozenset[str]:
        """The constants the expression uses (pi, e), by their plain names."""
        return frozenset(node.name for node in self.nodes if node.kind == "constant")

    def no_constant_values(self, values) -> None:
        """A value for a constant the expression uses is an error, as --at pi=3 is: the
        constant would be used and the value dropped, in silence. (One it does not use is
        a record's field like any other: warned of as unused.)"""
        for given in values:
            constant = constant_named(given)
            if constant is not None and constant in self.constants:  # (no walk, else)
                raise ValuesError(f"{given} is a constant and cannot be given a value")

    def _made_of(self, name: str) -> tuple[str, ...] | None:
        """The variables the definition ``name`` is made of, in order of first use; None
        if the expression does not use it."""
        roots = [root for root, n in self.names.items() if n == name]
        if not roots:
            return None
        below, stack = set(roots), roots
        while stack:
            for arg in self.nodes[stack.pop()].args:
                if arg not in below:
                    below.add(arg)
                    stack.append(arg)
        return tuple(dict.fromkeys(self.nodes[i].name for i in sorted(below)
                                   if self.nodes[i].kind == "variable"))

    def _only_variable(self) -> str:
        if not self.variables:
            raise ValuesError("the expression has no variables, so there is nothing to "
                              "differentiate it by")
        if len(self.variables) != 1:
            raise ValuesError(f"the expression has {len(self.variables)} variables "
                              f"({listing(self.variables)}); say which one, as "
                              f"name={self.variables[0]!r}")
        return self.variables[0]

    # ----- evaluation -----------------------------------------------------------------

    def _evaluate(self, values: dict, compute, witnessed: bool = True) -> Result:
        arrays = _broadcast({v: values[v] for v in self.variables})
        point = bool(arrays) and arrays[0].ndim == 0
        if point:
            # One point is computed as an array of one, as the CLI does: numpy's vector
            # kernels and its scalar paths can differ in the last bit (pow, for one), and
            # the API and the CLI must print the same digits.
            arrays = [a.reshape(1) for a in arrays]
        shape = arrays[0].shape if arrays else ()
        with np.errstate(all="ignore"):
            run = _Run(self, arrays, shape, watching=False)
            result = compute(run)
            if not run.replayed and not result.derivatives_finite():
                # Rare, so paid only here: run again, naming the functions whose
                # derivatives went non-finite (checking every node costs ~20% otherwise).
                known = run.blocks_flagged
                run = _Run(self, arrays, shape, watching=True)
                run.blocks_flagged = known
                result = compute(run)
            if run.out_of_range is not None and witnessed:
                self._cross_check(arrays, result, run.out_of_range, run.nth_asked)
            # (diff() graphs too: reruns.run's tracing nudges every Function call, the
            # inner reverse passes' included)
            if witnessed and _size(shape) <= _ROUNDING_POINTS \
                    and len(self.nodes) <= _ROUNDING_NODES:
                self._by_rounding(arrays, result, run.nth_asked)
            if witnessed and any(what == "kink" for _, what in result.diagnostics.masks):
                self._settle_kinks(arrays, result, run.nth_asked)
        _own(result, arrays)
        return _as_point(result) if point else result

    def _settle_kinks(self, arrays, result: Result, nth) -> None:
        """A kink is not said where f is differentiable all the same and every derivative
        shown is f's (abs(x)^3 at 0: its left and right derivatives agree; adcli.sides)."""
        from .sides import confirmed

        masks, shape = result.diagnostics.masks, result.value.shape
        kinks = [key for key in masks if key[1] == "kink"]
        where = np.logical_or.reduce([np.ravel(np.broadcast_to(masks[k], shape))
                                      for k in kinks])
        found = confirmed(self, {v: a.reshape(-1) for v, a in zip(self.variables, arrays)},
                          _shown_derivatives(self, result, nth), where)
        for key in kinks:
            result.diagnostics.unmark(key, found)

    def _by_rounding(self, arrays, result: Result, nth) -> None:
        """Mark the numbers shown that lost most of their digits to rounding on the way,
        where no other diagnostic of theirs said so already (adcli.rounding)."""
        from . import rounding
        from .reruns import Asked, nth_named

        wrt = [] if result.gradient is None else [n for n in result.wrt if n in self.variables]
        asked = Asked(wrt, result.hessian is not None and len(wrt) == len(result.wrt))
        flat = [a.reshape(-1) for a in arrays]
        shown = {name: np.ravel(a) for name, a in asked.named(
            result.value, result.gradient, result.hessian).items()}
        far = rounding.spread(self._made_run, flat, asked, shown)
        unjudged = None
        if nth is not None and nth[1] >= 1 and result.derivative is not None:
            named = nth_named(*nth)
            shown[named] = np.ravel(result.derivative)
            far[named], unjudged = rounding.taylor_spread(self, flat, *nth, shown[named])
        scale = rounding.beside(list(shown.values()))
        # A Hessian entry's 0 beside its own order's numbers where one is not 0:
        # log(e^x + e^y)'s d2/dx2 at (40, 0) is 0 for 4.2e-18 (1 + e^40 rounds to e^40),
        # beside d2/dx dy = -4.2e-18, where f = 40 hid it
        second = rounding.beside([a for name, a in shown.items() if "," in name])
        second = np.where(second > 0, second, scale)
        for name, a in shown.items():
            # (a Taylor sweep's rows are nudged one by one, not as the tape's steps, which
            # one step made twice moves alike: its 0 among 0s, exp(x) sin(x)'s fourth
            # derivative at 0, -1/6 + 1/6, would move: judged only beside a number)
            # The value is judged by itself, as eval judges it: a derivative beside it
            # says nothing of its size (log(1 + x)'s 0 at 1e-16 beside f' = 1 is 1e-16).
            beside = 0.0 if name == "" else second if "," in name else scale
            self._mark_rounding(result, flat, name, a, far[name], beside,
                                alone=unjudged is None or name != named)
        if unjudged is not None:
            self._mark_unjudged(result, named, shown[named], far[named], unjudged)

    def _mark_unjudged(self, result: Result, name: str, shown, far, unjudged) -> None:
        """grad --order N's number may be wrong where the nudged sweep found no line in
        float64's range, though the number shown's did (taylor.Nudged): the nudge alone
        carried it out of range, and no other diagnostic said why already."""
        from .rounding import loose

        size = np.abs(shown)
        bad = unjudged & (size >= np.finfo(np.float64).tiny) & (size < np.inf) \
            & ~loose(shown, far)
        for what in ("range", "unsure", "lost"):
            said = result.diagnostics.masks.get((name, what))
            if said is not None:
                bad &= ~np.ravel(said)
        if bad.any():
            result.diagnostics.add_lost(name, bad.reshape(result.value.shape))

    def _mark_rounding(self, result: Result, flat, name: str, shown, far, scale,
                       alone: bool = True) -> None:
        from .diagnostics import Rounded
        from .rounding import loose

        bad = loose(shown, far, scale, alone)
        for what in ("range", "unsure", "lost"):   # (said already, and why)
            said = result.diagnostics.masks.get((name, what))
            if said is not None:
                bad &= ~np.ravel(said)
        if bad.any():
            k = int(np.argmax(bad))
            first = Rounded(k, {v: float(a[k]) for v, a in zip(self.variables, flat)},
                            float(shown[k]), float(far[k]))
            shape = result.value.shape
            result.diagnostics.add_rounding(name, bad.reshape(shape), first, far.reshape(shape))

    def _cross_check(self, arrays, result: Result, flagged: np.ndarray, nth=None) -> None:
        """Where a step overflowed or underflowed (``flagged``), a number shown may have
        lost its digits on the way: run the graph again in long double (adcli.wider) and
        mark the points where it says otherwise ("range"). Where that witness is not to be
        had, compare forward mode (_by_forward_mode). The numbers shown stay float64's.
        ``nth``: (name, order) of grad --order's derivative, if that is what was asked."""
        if self.has_diff or not flagged.any():  # (diff(): graphs of their own)
            return
        from . import wider  # only now: most runs raise no flag

        wrt = [] if result.gradient is None else [n for n in result.wrt if n in self.variables]
        asked = wider.Asked(wrt, result.hessian is not None and len(wrt) == len(result.wrt),
                            nth)
        flagged = flagged.copy()
        if asked.nth is None:  # (grad --order N's Taylor sweep has no steps to watch)
            flagged[flagged] = wider.suspects(self._made_run, [a[flagged] for a in arrays],
                                              asked)
        if wider.WIDE and flagged.any():
            flagged &= ~self._by_wider(arrays, result, flagged, asked)
        if result.gradient is not None:
            self._by_forward_mode(arrays, result, flagged)

    def _made_run(self, arrays, shape, kinked: tuple[str, ...] = ()) -> _Run:
        run = _Run(self, arrays, shape, watching=False)
        run.kinked = kinked or run.kinked
        return run

    def _by_wider(self, arrays, result: Result, where: np.ndarray, asked) -> np.ndarray:
        """Mark the numbers the long double run contradicts at the points ``where``;
        return where it answered for the value and gradient (wider.Judged.settled)."""
        from .diagnostics import Wider
        from .wider import judged

        variables = [a[where] for a in arrays]
        shown = {name: a[where] for name, a in asked.named(
            result.value, result.gradient, result.hessian, result.derivative).items()}
        seen = judged(functools.partial(self._made_run, kinked=_kinked_by(asked)), variables,
                      asked, shown)
        at = np.flatnonzero(where)
        for name, wrong in seen.wrong.items():
            if wrong.any():
                k = int(np.argmax(wrong))
                bad = np.zeros(result.value.shape, dtype=bool)
                bad[where] = wrong
                first = Wider(int(at[k]), {v: float(a[k]) for v, a in
                                           zip(self.variables, variables)},
                              _worded(seen.numbers[name][k], seen.wide[name][k]),
                              float(shown[name][k]),
                              float(seen.bounds[name][k]))
                numbers, bounds = (np.zeros(bad.shape) for _ in range(2))
                numbers[where], bounds[where] = seen.numbers[name], seen.bounds[name]
                result.diagnostics.add_wider(name, bad, first, numbers, bounds)
                # one number, one verdict: Taylor mode's "may be wrong" is not said
                # where the long double run says it is wrong, and what it is
                result.diagnostics.unmark((name, "lost"), bad)
        settled = np.zeros(result.value.shape, dtype=bool)  # (forward mode's question)
        settled[where] = seen.settled
        if not asked.unjudged:
            _drop_range_artifacts(result.diagnostics, where, seen)
        return settled

    def _by_forward_mode(self, arrays, result: Result, flagged: np.ndarray) -> None:
        """Reverse mode may have lost an adjoint to 0 or inf before it met the factor that
        would have brought it back (x/exp(x) at 380: -u/v^2 is 0 when v^2 overflows, the
        true ~3e-328 is not a float): compare forward mode there, whose tangents take
        another path, and mark the points where the two differ ("unsure")."""
        finite = np.isfinite(result.value) & functools.reduce(
            np.logical_and, [np.isfinite(g) for g in result.gradient.values()], True)
        where = flagged & finite  # (a nan or inf has its own warning already)
        if not where.any():
            return
        from .diagnostics import Unsure
        from .taylor import taylor_derivative

        values = {v: a[where] for v, a in zip(self.variables, arrays)}
        for name in result.wrt:
            if name not in self.variables:
                continue  # its derivative is 0, by no pass at all
            reverse = result.gradient[name][where]
            forward = taylor_derivative(self, values, name, 1)
            differ = ~_agree(forward, reverse)
            if differ.any():
                differ[differ] = _clean(self, {v: a[differ] for v, a in values.items()}, name)
            if differ.any():
                k = int(np.argmax(differ))
                bad = np.zeros(result.value.shape, dtype=bool)
                bad[where] = differ
                first = Unsure(int(np.flatnonzero(where)[k]),
                               {v: float(values[v][k]) for v in self.variables},
                               float(forward[k]), float(reverse[k]))
                numbers = np.zeros(bad.shape)
                numbers[where] = forward
                result.diagnostics.add_unsure(name, bad, first, numbers)


# How far apart forward and reverse mode's derivatives may be and still agree, relative to
# the larger: each is within a few ulps of the truth where nothing over- or underflowed,
# and the losses looked for are whole terms, off by orders of magnitude or in sign.
AGREE = 1e-8
# Below the smallest normal float a difference is rounding: a subnormal keeps fewer digits
# the smaller it is (exp(x) at -744 is 5e-324 or 1e-323), whichever mode made it.
_TINY = 2.2250738585072014e-308  # np.finfo(np.float64).tiny


def _clean(expression, values: dict, name: str) -> np.ndarray:
    """Where forward mode's d/d ``name`` can be trusted against reverse mode's: no value or
    tangent on its way was below the normal range or infinite. Where one was, it lost
    digits too: x atan(1/x) at 1e160, whose true f' (6.7e-331) is 0 as a float, as reverse
    mode says, gets 1.1e-165 from the subnormal tangent of 1/x (-1e-320)."""
    from .taylor import jvp

    names = expression.variables
    seeded = jvp(expression, values, {v: np.full(len(values[v]), float(v == name))
                                      for v in names})
    clean = np.ones(len(values[name]), dtype=bool)
    for a in (*seeded.values, *seeded.tangents):
        a = np.abs(np.broadcast_to(a, clean.shape))
        clean &= ~(np.isinf(a) | ((a > 0) & (a < _TINY)))
    return clean


def _agree(forward: np.ndarray, reverse: np.ndarray) -> np.ndarray:
    """Where the two modes agree (both 0 do); a forward result that is nan or inf proves
    nothing against a finite reverse one, so it counts as agreeing."""
    from .wider import close

    return close(forward, reverse, AGREE) | ~np.isfinite(forward)


def _told(result: Result, returned: tuple = ("value", "gradient"),
          output: str | None = None) -> Result:
    """The result, after an AdcliWarning in the words of the CLI's for each diagnostic of
    the numbers ``returned`` ("value", "gradient", "hessian"): nan or inf and whose it is,
    a kink's convention, the two modes or the long double run disagreeing: for the methods
    that return bare numbers, whose callers never see the diagnostics (``derivatives``
    returns them). ``output``: the expression's name among several (jacobian's f1, f2)."""
    diagnostics = result.diagnostics
    if not diagnostics.masks:
        return result
    from .report import told

    if output is not None:
        diagnostics.name_output(output)
    _warn(told(diagnostics, lambda name, what: _concerns(name, what, returned)))
    return result


def _concerns(name: str, what: str, returned: tuple) -> bool:
    """Whether the diagnostic (name, what) is about one of the parts ``returned``: a
    variable's kinds name the number they are about; a function's nan (or a value given as
    nan) is in every part after it; its derivative's trouble and its kinks, in derivatives
    ("derivative": nth_derivative's, whose only numbers besides the value are its own)."""
    if what in ("unsure", "range", "rounding"):
        part = _part(name)
        return part in returned or ("derivative" in returned and part != "value")
    if what in ("value", "input"):
        return True
    return not {"gradient", "hessian", "derivative"}.isdisjoint(returned)


def _part(name: str) -> str:
    """Which part of a result a number named as wider.Asked names it (and
    Diagnostics.name_output, f2:x) belongs to."""
    name = name.rpartition(":")[2]
    return "value" if name == "" else "hessian" if "," in name else "gradient"


class _Flags:
    """Counts the overflow and underflow flags numpy raises while ``counting()``: where
    none was, no step lost a number out of range (the others, divide and invalid, make
    nan or inf, which are warned of as such)."""

    def __init__(self):
        self.raised = 0

    def __call__(self, error: str, flag: int) -> None:
        self.raised += 1

    def counting(self):
        return np.errstate(over="call", under="call", call=self)


# (points, nodes): at most this many are left to the tape. For the API, (0, 0): the
# kernel's replay is 2-3x as fast as the tape at one point, for every call after the
# first. The CLI evaluates once per process, where importing the kernel costs more than
# the tape's extra (E1 at one point: kernel 0.2 ms + ~4 ms to import it, tape 0.4 ms).
ONE_SHOT = (0, 0)


class _Run:
    """One evaluation of an expression at a set of points: the forward pass, then the
    reverse passes its caller asks for."""

    def __init__(self, expression: Expression, arrays, shape, watching: bool):
        self.expression, self.shape = expression, shape
        self.leaves = {v: Variable(a, name=v) for v, a in zip(expression.variables, arrays)}
        # The numbers' type: float64, or long double (adcli.wider), constants' too (a
        # float64 1e-300 scaled inside atan2's rule underflows where a long double does not)
        self.numbers = arrays[0].dtype if arrays and arrays[0].dtype == np.longdouble \
            else np.float64
        self.diagnostics = Diagnostics(shape)
        self.watch = watcher(self.diagnostics) if watching else None
        self.kinked = expression.variables  # whose nodes' kinks are marked (see moving)
        self.values_only = False  # (then only kinks a diff() differentiates: under_diff)
        self.replayed = False  # by kernel.py, whose results are all finite
        self.computed: list[Variable] = []  # every node's Variable, once forward has run
        # Where a step overflowed or underflowed on the way to the gradient (None: nowhere)
        self.out_of_range: np.ndarray | None = None
        self.nth_asked: tuple[str, int] | None = None  # nth's (name, order), once asked
        # Where the kernel's blocks raised flags, when it ran first and left the points to
        # the tape (a result not finite): the same steps, so the same flags.
        self.blocks_flagged: np.ndarray | None = None

    def partials(self, wrt, order: int) -> Result:
        if order:
            self.kinked = wrt
        self.values_only = not order
        if order < 2 and self.watch is None:
            result = self._replayed(wrt, order)
            if result is not None:
                return result
        flags = _Flags()
        if order == 0:
            with no_grad(), flags.counting():
                y = self.forward()
            self._flagged(flags)
            return self._result(y, wrt)
        with flags.counting():
            y = self.forward()
            watch = self._watch_for(wrt)
            grads, variables = drivers.gradient(y, self.leaves, wrt, self.shape, watch,
                                                create_graph=order == 2)
            # (the Hessian's passes too: log(x*y)'s mixed partial at x = 1e160 loses its
            # cancelling term to an underflow there alone)
            hessian = (drivers.hessian(variables, self.leaves, wrt, self.shape, watch)
                       if order == 2 else None)
        self._flagged(flags)
        return self._result(y, wrt, gradient=grads, hessian=hessian)

    def _watch_for(self, wrt):
        """The backward watch, deaf to an adjoint handed to a node none of ``wrt`` reaches:
        it goes into no derivative shown (asin(y)'s inf slope at y = -1, under --wrt x), as
        that node's kinks are not marked (Expression.moving). diff() nodes' Variables are
        their inner graphs', whose variables their node does not list: all heard there."""
        if self.watch is None or self.expression.has_diff:
            return self.watch
        idle = {id(y) for y, varies in zip(self.computed, self.expression.moving(wrt))
                if not varies}   # (self.computed keeps them alive: no id is reused)

        def watch(function, index, gx):
            if id(function.inputs[index]) not in idle:
                self.watch(function, index, gx)
        return watch if idle else self.watch

    def _flagged(self, flags: _Flags) -> None:
        if flags.raised:  # (the tape's flags are counted for the whole run...)
            self.out_of_range = np.ones(self.shape, dtype=bool)
            if self.blocks_flagged is not None:  # (... the kernel's, per block)
                self.out_of_range = self.blocks_flagged.reshape(self.shape).copy()

    def _replayed(self, wrt, order: int) -> Result | None:
        """The tape's numbers from kernel.py's recorded steps (no graph), or None where the
        tape must run: a rule that reads the data, or a result that is not finite (the tape
        then says which function made it so)."""
        n = int(np.prod(self.shape, dtype=np.int64))
        if n <= ONE_SHOT[0] and len(self.expression.nodes) <= ONE_SHOT[1]:
            return None
        from . import kernel  # ~4 ms to import: not for a one-shot run at a point

        columns = {v: np.broadcast_to(leaf.data, self.shape).reshape(-1)
                   for v, leaf in self.leaves.items()}
        computed = kernel.evaluate(self.expression, columns, n, wrt, order)
        if computed is None:
            return None
        value, grads, finite, kinks, out_of_range = computed
        if not finite:  # (the tape runs; the blocks that raised flags are known already)
            self.blocks_flagged = np.zeros(n, bool) if out_of_range is None else out_of_range
            return None
        for function, mask in kinks:
            self.diagnostics.add(function, "kink", mask.reshape(self.shape))
        self.replayed = True
        if out_of_range is not None:
            self.out_of_range = out_of_range.reshape(self.shape)
        grads = {name: g.reshape(self.shape) for name, g in grads.items()}
        return Result(value.reshape(self.shape), self.diagnostics, tuple(wrt),
                      gradient=grads if order else None)

    def nth(self, name: str, order: int) -> Result:
        """Taylor mode: one sweep of truncated series through the nodes, at a cost that
        grows like order^2 (nested reverse passes grow like 3^order)."""
        from .taylor import taylor_nth

        if order:
            self.kinked = (name,)

        if self.expression.has_diff:  # a diff() node is reverse passes: no Taylor rule
            y = self.forward()
            derivative = drivers.nth_derivative(y, self.leaves, name, order, self.shape,
                                                self.watch)
            return self._result(y, (name,), derivative=derivative)

        self.nth_asked = (name, order)
        flags = _Flags()
        with no_grad(), flags.counting():
            y = self.forward()
            values = {v: leaf.data for v, leaf in self.leaves.items()}
            blame = self.diagnostics if self.watch is not None else None
            nth = taylor_nth(self.expression, values, name, order, blame)
        self._flagged(flags)
        if nth.lost.any():  # (no scale of the line kept the sweep in float64's range)
            from .reruns import nth_named

            self.diagnostics.add_lost(nth_named(name, order), nth.lost)
        derivative = np.broadcast_to(nth.derivative, self.shape).copy()
        return self._result(y, (name,), derivative=derivative)

    def _result(self, y: Variable, wrt, **computed) -> Result:
        value = np.broadcast_to(y.data, self.shape)
        if np.isfinite(y.data).all() and not all(_all_finite(c) for c in computed.values()):
            # f is finite, a derivative is not: a step inside went nan or inf and f's later
            # steps hid it (exp(-1/x^2) where x^2 underflows: -1/0, exp(-inf) = 0): blame it
            self._blame(self.computed)
        return Result(value, self.diagnostics, tuple(wrt), **computed)

    def forward(self) -> Variable:
        return self.forward_nodes()[-1]

    def _marked(self) -> list[bool] | tuple[bool, ...]:
        """Per node, whether its kinks are marked (see kinked and values_only)."""
        marked = self.expression.moving(self.kinked)
        if self.values_only and self.expression.has_diff:
            return [a and b for a, b in zip(marked, self.expression.under_diff)]
        return marked

    def forward_nodes(self) -> list[Variable]:
        """Every node's Variable, in node order (the last is the result)."""
        computed: list[Variable] = []
        # diff(f, x) nodes (adcli.diffs) need f's graph, even when only values are asked for.
        inner = (InnerDerivatives(self.leaves, watcher(self.diagnostics))
                 if self.expression.has_diff else None)
        with using_backprop(True) if inner else contextlib.nullcontext():
            for node, varies in zip(self.expression.nodes, self._marked()):
                if node.kind == "variable":
                    computed.append(self.leaves[node.name])
                elif node.kind == "diff":
                    computed.append(inner.value(node, computed, self.expression.nodes))
                elif node.function is None:  # (long double for adcli.wider's runs)
                    computed.append(Variable(np.asarray(node.value, self.numbers),
                                             requires_grad=False))
                else:
                    function, inputs = node.function(), [computed[i] for i in node.args]
                    computed.append(function(*inputs))
                    if varies:
                        self.diagnostics.add_kinks(function, *[x.data for x in inputs])
        self.computed = computed
        if not np.isfinite(computed[-1].data).all():
            self._blame(computed)
        return computed

    def _blame(self, computed: list[Variable]) -> None:
        """Name the functions that made nan/inf from finite inputs. Only run when the
        result is not finite, so the common case pays nothing per node."""
        for node, y in zip(self.expression.nodes, computed):
            if node.function is not None and node.args and not np.isfinite(y.data).all():
                inputs = [computed[i].data for i in node.args]
                fine = functools.reduce(np.logical_and, [np.isfinite(x) for x in inputs])
                self.diagnostics.add(node.function, "value", ~np.isfinite(y.data) & fine)


def _kinked_by(asked) -> tuple[str, ...]:
    """The variables whose nodes' kinks the float64 run marked (_Run.partials, _Run.nth):
    the long double run's must be the same ones, or sqrt(y)'s kink at y = 0 under --wrt x
    would keep float64's kink at sqrt(x^2) = 0 (x = 1e-200), an underflow's, said."""
    return tuple(asked.wrt) + ((asked.nth[0],) if asked.nth else ())


def _worded(rounded, wide):
    """Long double's number as its warning gives it: rounded to float64 (as Wider keeps
    it), but one only float64's range made inf as it is (-2e340: report.number_digits)."""
    return wide if np.isinf(rounded) and np.isfinite(wide) else float(rounded)


def _drop_range_artifacts(diagnostics, where: np.ndarray, seen, only=True) -> None:
    """A kink or an edge float64 sat on only because a step before it lost its number out
    of range (sqrt(x^2+y^2) at x = y = 1e-200: x^2 + y^2 is 0 in float64, 2e-400 in
    truth), and the nan or inf derivative that made: where long double's run settled with
    every number inside float64's range and sat on no such kink, those warnings would be
    false; the range warnings give the true numbers instead. ``only``: a mask of the
    points that may be unmarked (check's: those long double gave AD a number at)."""
    inside = seen.settled & np.logical_and.reduce(
        [np.isfinite(a) for a in seen.numbers.values()])
    for key in [key for key in diagnostics.masks if key[1] in ("kink", "derivative")]:
        artifact = np.zeros(where.shape, dtype=bool)
        artifact[where] = inside & ~seen.kinked.get(key[0], False)
        diagnostics.unmark(key, artifact & only)


def _shown_derivatives(expression: Expression, result: Result, nth) -> dict:
    """The derivatives a result shows, by path (checking.path's order: ∂/∂x of ∂f/∂y is
    (y, x)), flat: grad's, each Hessian entry, grad --order N's."""
    flat = np.ravel
    if nth is not None and result.derivative is not None:
        name, order = nth
        return {(name,) * order: flat(result.derivative)} if order else {}
    wrt = [n for n in result.wrt if n in expression.variables]
    shown = {(n,): flat(result.gradient[n]) for n in wrt if result.gradient}
    if result.hessian is not None:
        index = {n: k for k, n in enumerate(result.wrt)}
        for a in wrt:
            for b in wrt:
                shown[(b, a)] = flat(result.hessian[..., index[a], index[b]])
    return shown


def _all_finite(computed) -> bool:
    """Whether a gradient (a dict), a Hessian or a derivative holds no nan or inf."""
    arrays = computed.values() if isinstance(computed, dict) else [computed]
    return all(a is None or np.isfinite(a).all() for a in arrays)


# Points up to which adcli.rounding's witness runs (three evaluations instead of one)
_ROUNDING_POINTS = 4096
# ... and nodes (as check's wider look at one point: a huge expression's runs are its cost)
_ROUNDING_NODES = 2000


def _size(shape: tuple) -> int:
    return int(np.prod(shape, dtype=np.int64))


def _own(result: Result, arrays) -> None:
    """Each of result's arrays its own and writable: never a view of a caller's values
    (f = "x" returns x's leaf, whose data is the array given), which would change with
    them, nor broadcast_to's read-only view of a value the same at every point. (Told by
    the memory each array is a view of, not np.may_share_memory of every pair: a sum of
    2,000 variables made 4 million such calls, 2.7 s of a 4.2 s grad.)"""
    given = {id(_memory(b)) for b in arrays}

    def owned(a):
        if a is None or (a.flags.writeable and id(_memory(a)) not in given):
            return a
        return np.array(a)

    result.value, result.hessian = owned(result.value), owned(result.hessian)
    result.derivative = owned(result.derivative)
    if result.gradient is not None:
        result.gradient = {n: owned(g) for n, g in result.gradient.items()}


def _memory(a):
    """What an array's data lies in: the array that owns it, or its buffer object."""
    while isinstance(a, np.ndarray) and a.base is not None:
        a = a.base
    return a


def _as_point(result: Result) -> Result:
    """The results of a one-point array as 0-d arrays, the shape the caller gave."""
    def scalar(a):
        return None if a is None else a.reshape(a.shape[1:])

    return Result(scalar(result.value), result.diagnostics.reshape(()), result.wrt,
                  None if result.gradient is None else
                  {n: scalar(g) for n, g in result.gradient.items()},
                  scalar(result.hessian), scalar(result.derivative))


# (compiled on first use, by re's own cache: a name with a backslash is rare)
_SUBSCRIPT_COMMAND = r"(_\{?)\\([A-Za-z]+)"


def subscript_letters(text: str, unknown=None) -> str:
    """``text`` with each LaTeX command right after a subscript's "_" (x_\\alpha,
    x_{\\alpha}: TeX takes it whole) as its Greek letter, x_α; another command is kept,
    after ``unknown(match)`` is called on it (the reader refuses it there)."""
    def letter(command: re.Match) -> str:
        found = LATEX_LETTERS.get(command.group(2))
        if found is None and unknown is not None:
            unknown(command)
        return command.group(1) + (found or "\\" + command.group(2))

    return re.sub(_SUBSCRIPT_COMMAND, letter, text) if "\\" in text else text


# The variant letters a paper may use beside the plain ones as other symbols (θ and ϑ, ρ
# and ϱ), which NFKC would fold into them: kept, as LaTeX's \vartheta is (LATEX_LETTERS), in
# each font they are pasted in too (𝜗; bold, sans-serif: five runs of ϵϑϰϕϱ from U+1D6DC).
# But ϵ and ϕ fold into ε and φ: physicists write either form for one symbol (ε₀, φ).
_VARIANTS = "ϑϱϰℓ"
_VARIANT_FONTS = {0x1D6DC + 58 * font + k: c
                  for font in range(5) for k, c in enumerate("ϵϑϰϕϱ") if c in _VARIANTS}


def _nfkc(text: str) -> str:
    """``text`` in NFKC form, but for the variant letters (_VARIANTS)."""
    import unicodedata

    text = text.translate(_VARIANT_FONTS)
    if not any(c in _VARIANTS for c in text):    # (nearly every name: one normalize)
        return unicodedata.normalize("NFKC", text)
    return "".join(part if part in _VARIANTS else unicodedata.normalize("NFKC", part)
                   for part in re.split(f"([{_VARIANTS}])", text))


def normal_name(text: str) -> str:
    """A name as Python reads an identifier, in NFKC form: 𝑥 (pasted from a typeset
    formula) is x, x₁ is x1, ｘ is x; and as LaTeX writes one: \\alpha is alpha, x_{1}
    is x_1. So an expression's names, the names given to --at, --wrt, --expect, --let
    and points files, and keyword arguments (which Python has normalised already) all
    meet."""
    if not text.isascii():
        text = _nfkc(text)
    if "\\" in text or "{" in text:
        if text.startswith(("\\operatorname{", "\\mathrm{", "\\mathit{")):
            text = text[text.index("{") + 1:]   # \operatorname{sech} is sech
        text = text.removeprefix("\\").replace("_{", "_").replace("}", "")
        head, underscore, tail = text.partition("_")   # \alpha_{1} is α_1
        text = LATEX_LETTERS.get(head, head) + subscript_letters(underscore + tail)
    return text


def not_differentiated(name: str, expressions, given: str | None = None) -> str:
    """Why the definition ``name`` is no variable to differentiate by, and the fix: by its
    variables instead (named where one of ``expressions`` uses it), or, where it holds
    none (--let u=2), its value given as a variable's. ``given``: how the API was given it
    (wrt='F'); None: --wrt on the command line."""
    if given is None:
        said, instead = f"--wrt {name}: '{name}' is defined by --let", "with --at, not --let"
    else:
        said, instead = f"{given}: '{name}' is a definition", "as a keyword, not a definition"
    found = [v for e in expressions if (v := e._made_of(name)) is not None]
    if found and not any(found):
        fix = f"it holds no variable: to differentiate by {name}, give its value {instead}"
    else:
        variables = next((v for v in found if v), ())
        shown = f" ({listing(variables)})" if variables else ""
        fix = f"differentiate by the variables it is made of{shown}, or rename the definition"
    return f"{said}, so it is not a variable and cannot be differentiated by: {fix}"


def merged(at: Mapping | None, values: dict, method: str | None = None,
           variables=()) -> Mapping:
    """The values given in ``at=`` and as keywords, by normal name (``normal_keys``).
    ``method``, ``variables``: who was given them, and the names they are for, to say how
    to give them where ``at`` is not a mapping (f.value(3))."""
    if at is not None:
        if not isinstance(at, Mapping):
            raise _not_by_name(at, method, variables)
        clash = sorted(set(at) & set(values))
        if clash:
            raise ValuesError(f"{listing(clash)} given both in at= and as a keyword")
        values = {**at, **values}
    return normal_keys(values)


def _not_by_name(at, method: str | None, variables) -> ValuesError:
    """at= given no mapping (f.value(3)): how to give the values by name, in the names
    they are for (the value given, shown as one variable's, where there is one)."""
    taker = f"{method}() takes the values by name (keywords, or a mapping as at=)" \
        if method else "at= takes a mapping of names to values"
    if not variables:
        return ValuesError(f"{taker}, not {type(at).__name__}, and the expression has no "
                           "variables")
    shown = _shown(at) if len(variables) == 1 else "..."
    keywords = ", ".join(f"{v}={shown}" for v in variables if v.isidentifier()
                         and v not in ("at", *_PARAMETERS))
    mapping = "at={" + ", ".join(f"{v!r}: {shown}" for v in variables) + "}"
    return ValuesError(f"{taker}, not {type(at).__name__}: "
                       + (f"{keywords} or " if keywords else "") + mapping)


def normal_keys(values: Mapping | None) -> Mapping | None:
    """A mapping by name with each name as the expression reads it (``normal_name``); the
    mapping itself where every name is plain already. Two names that read as one (x₁ and
    x1) are an error, as in --at: one value would be dropped unseen."""
    if not values or all(n.__class__ is str and n.isascii() and "\\" not in n and "{" not in n
                         for n in values):
        return values
    normal: dict = {}
    given: dict[str, str] = {}
    for n, v in values.items():
        if not isinstance(n, str):
            raise ValuesError(f"a variable's name is a str, not {_shown(n)}")
        name = normal_name(n)
        if name in normal:
            raise ValuesError(f"{name} is given more than once: as {quote(given[name])} and "
                              f"as {quote(n)}")
        normal[name], given[name] = v, n
    return normal


# LaTeX's Greek letters: \alpha is the letter α, as typed (\pi is π, the constant). A
# variant is its own letter, as a paper using both means two symbols (\theta - \vartheta is
# θ - ϑ, not 0); but \varpi is π, as ϖ typed is (the grammar's PI: π in every form), and
# \varepsilon, \varphi are ε, φ, as \epsilon and \phi are (_VARIANTS: one symbol in use).
LATEX_LETTERS = {name: chr(code) for name, code in (
    ("alpha", 0x3B1), ("beta", 0x3B2), ("gamma", 0x3B3), ("delta", 0x3B4),
    ("epsilon", 0x3B5), ("varepsilon", 0x3B5), ("zeta", 0x3B6), ("eta", 0x3B7),
    ("theta", 0x3B8), ("vartheta", 0x3D1), ("iota", 0x3B9), ("kappa", 0x3BA),
    ("varkappa", 0x3F0), ("lambda", 0x3BB), ("mu", 0x3BC), ("nu", 0x3BD), ("xi", 0x3BE),
    ("pi", 0x3C0), ("varpi", 0x3C0), ("rho", 0x3C1), ("varrho", 0x3F1), ("sigma", 0x3C3),
    ("varsigma", 0x3C2), ("tau", 0x3C4), ("upsilon", 0x3C5), ("phi", 0x3C6),
    ("varphi", 0x3C6), ("chi", 0x3C7), ("psi", 0x3C8), ("omega", 0x3C9),
    ("Gamma", 0x393), ("Delta", 0x394), ("Theta", 0x398), ("Lambda", 0x39B), ("Xi", 0x39E),
    ("Pi", 0x3A0), ("Sigma", 0x3A3), ("Upsilon", 0x3A5), ("Phi", 0x3A6), ("Psi", 0x3A8),
    ("Omega", 0x3A9), ("hbar", 0x127), ("ell", 0x2113))}


def _names(names, what: str = "wrt") -> tuple[str, ...]:
    """``"x, y"`` or ``["x", "y"]`` as ``("x", "y")``: names of the language, each once, as
    --wrt takes them (a name given twice would be one column twice, or one silently)."""
    from .parser import is_name

    _not_values(names, what)
    if isinstance(names, AbstractSet) and not isinstance(names, KeysView):
        # (a dict's keys keep their order; a set's changes with PYTHONHASHSEED)
        raise ValuesError(f"{what}= takes variable names in order, as a list or 'x,y', not "
                          f"a set ({_shown(names)}): its order, the results' order, "
                          "changes from run to run")
    texts = names.split(",") if isinstance(names, str) else \
        list(names) if isinstance(names, Iterable) else None
    if texts is None or not all(isinstance(n, str) for n in texts):
        raise ValuesError(f"{what}= takes variable names, as a list or 'x,y', not "
                          f"{_shown(names)}")
    normal: list[str] = []
    for text in texts:
        if not is_name(text.strip()):
            problem = "a name is empty" if not text.strip() else \
                f"{quote(text.strip())} is not a variable name"
            raise ValuesError(f"{what}={_shown(names)}: {problem}")
        name = normal_name(text.strip())
        if name in normal:
            raise ValuesError(f"{what}={_shown(names)}: {name} is given more than once")
        normal.append(name)
    return tuple(normal)


def _one_name(name) -> str:
    """derivative's ``name``: one variable's name."""
    _not_values(name, "name")
    names = _names(name, "name") if isinstance(name, str) else ()
    if len(names) != 1:
        raise ValuesError(f"name= takes one variable name, not {_shown(name)}")
    return names[0]


def _not_values(names, what: str) -> None:
    """A mapping where names go is the points, given in the wrong place: .grad's first
    parameter is wrt, .value's at. Read as names, its keys would pass, its values unread."""
    if isinstance(names, Mapping):
        takes = "one variable name" if what == "name" else "variable names"
        raise ValuesError(f"{what}= takes {takes}, not a mapping of values "
                          f"({_shown(names)}): give the values as at= or as keywords "
                          "(at=row or **row)")


def letter_words(name: str, variables) -> str | None:
    """Where the name given is one of ``variables``' letters spelled otherwise (alpha for
    α, α for alpha: two names, as far apart as any two spellings), what to say; else
    None. (--at's hint, pipeline.value_hints, and every other place a name is given.)"""
    if (letter := LATEX_LETTERS.get(name)) in variables:
        return f"'{name}' was given: the expression has the letter '{letter}', a different name"
    spelled = [v for v in variables if LATEX_LETTERS.get(v) == name]
    if spelled:
        return (f"'{name}' was given: the expression has the name '{spelled[0]}' spelled out, "
                "a different name")
    return None


def letter_hint(name: str, variables) -> str:
    """letter_words in parentheses, to follow a message; else ""."""
    words = letter_words(name, variables)
    return f" ({words})" if words else ""


def name_hint(name: str, variables) -> str:
    """What a name the expression lacks may stand for: one of its letters spelled out
    (no spelling is close), else a typo's did-you-mean."""
    return letter_hint(name, variables) or did_you_mean(name, variables)


def _whole(number, what: str, low: int, high: int | None, above: str = "") -> int:
    """A whole number in [low, high], given as an int or an integral float. ``above``:
    what to say of a whole number above ``high``."""
    ok = isinstance(number, (int, float, np.integer, np.floating)) \
        and not isinstance(number, bool) and float(number).is_integer()
    if not ok or number < low or (high is not None and number > high):
        span = f"from {low} to {high}" if high is not None else f">= {low}"
        beyond = above if ok and number > low else ""
        raise ValuesError(f"{what} is a whole number {span}, not {number!r}{beyond}")
    return int(number)


# derivatives(order=3): the partials stop at the Hessian, one variable's derivatives do not
_HIGHER = ("; for a higher derivative in one variable, use derivative(name, order) or "
           "nth_derivative(name, order)")


def constant_named(name) -> str | None:
    """The constant ``name`` is spelled as (pi for π), or None for any other name."""
    from .functions import CONSTANTS
    from .reader import CONSTANT_SPELLINGS

    name = CONSTANT_SPELLINGS.get(name, name)
    return name if name in CONSTANTS else None


def _no_constants(names, given: str) -> None:
    """A constant given as a name to differentiate by is an error, as --wrt pi is."""
    for name in names:
        if constant_named(name) is not None:
            raise ValuesError(f"{given}: {name} is a constant, not a variable")


def missing_notes(missing, given) -> list[str]:
    """Why each variable may lack a value, as the CLI says it without its --at."""
    return [note for note in (missing_note(name, given) for name in missing) if note]


def missing_note(name: str, given) -> str | None:
    """Why ``name`` may lack a value: a function adcli lacks (sinc), or names written
    together (sinx: sin x), ``given`` the names that have one; None for neither."""
    from .errors import glued
    from .functions import CALLABLE, CONSTANTS
    from .reader import lacking

    lacked = lacking(name)
    return f"adcli has no {name} function: {lacked}" if lacked else \
        glued(name, [*given, *CONSTANTS], CALLABLE)


def _broadcast(values: dict) -> list[np.ndarray]:
    arrays = {name: as_numbers(name, value) for name, value in values.items()}
    broadcast_together(arrays)
    return np.broadcast_arrays(*arrays.values()) if arrays else []


def broadcast_together(arrays: Mapping) -> tuple[int, ...]:
    """The shape that the values (arrays by variable name) broadcast to; a ValuesError
    naming each variable's shape where they do not (numpy's ValueError names none)."""
    try:
        return np.broadcast_shapes(*(np.shape(a) for a in arrays.values()))
    except ValueError:
        shapes = ", ".join(f"{name}: {np.shape(a)}" for name, a in arrays.items()
                           if np.ndim(a))    # (a number broadcasts with any shape)
        raise ValuesError(f"the values' shapes do not broadcast together ({shapes})") \
            from None


def as_numbers(name: str, value) -> np.ndarray:
    """value as float64, read as --at reads a value: a string is a number or a constant
    expression (``"pi/4"``), an integer beyond float64's range (10**400) is inf, with a
    warning, as 1e400 is. None is an error, not the nan numpy makes of it (in a caller's
    code it is a value that was never set), and so are a complex number and True or False
    (numpy's 1 and 0: a flag passed where a number was meant), and a numpy date or time
    span (its count of days or seconds depends on its units)."""
    if value.__class__ is np.ndarray and value.dtype == np.float64:  # the CLI's chunks
        return _few_dimensions(name, value)
    _refuse_masks(name, value)
    if isinstance(value, (list, tuple)) and _has_flag(value):  # (numpy reads True as 1)
        raise ValuesError(f"{name} = {_shown(value)}: True and False are not numbers")
    try:
        array = _few_dimensions(name, np.asarray(value))
        kind = array.dtype.kind
        if kind == "O" and any(item is None for item in array.flat):
            raise ValuesError(f"{name} = {_shown(value)}: None is not a number")
        if kind == "O" and any(item.__class__ in _FLAGS for item in array.flat):
            raise ValuesError(f"{name} = {_shown(value)}: True and False are not numbers")
        if kind == "c":  # numpy would drop the imaginary parts, with a warning
            raise ValuesError(f"{name} = {_shown(value)} is complex; adcli computes in real "
                              "numbers")
        if kind == "b":
            raise ValuesError(f"{name} = {_shown(value)}: True and False are not numbers")
        if kind in "mM":  # numpy would count days or seconds from an epoch, in its units
            raise ValuesError(f"{name} = {_shown(value)} is a date or a time span, not a "
                              "number; convert it in the units you mean")
        if kind == "U":
            return _from_texts(name, value, array)
        if kind == "O" or (kind == "f" and array.itemsize > 8):  # (Decimal, long double...)
            return _beyond_range(name, array)
        return np.asarray(array, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValuesError(f"{name} = {_shown(value)} is not a real number or an array of real "
                          "numbers") from None


_FLAGS = (bool, np.bool_)
MAX_DIMENSIONS = 32     # numpy's broadcasting (np.broadcast, its iterators) takes no more


def _few_dimensions(name: str, array: np.ndarray) -> np.ndarray:
    """An array numpy can broadcast: with more dimensions, its RuntimeError would escape."""
    if array.ndim > MAX_DIMENSIONS:
        raise ValuesError(f"{name} has {array.ndim} dimensions, more than the "
                          f"{MAX_DIMENSIONS} numpy broadcasts: flatten it (np.ravel) and "
                          "reshape the results back")
    return array


def _has_flag(items) -> bool:
    """Whether a list (or tuple), or one inside it, holds True or False: np.asarray makes
    1 and 0 of them beside numbers ([1.5, True]). A pass over each list's types, in C."""
    types = set(map(type, items))
    if not types.isdisjoint(_FLAGS):
        return True
    return not types.isdisjoint((list, tuple)) and any(
        _has_flag(item) for item in items if isinstance(item, (list, tuple)))


def _refuse_masks(name: str, value) -> None:
    """A masked array's hidden entries would be computed as if shown (np.asarray drops the
    mask), so one that hides any is refused. (Without numpy.ma imported, none exists.)"""
    masked = sys.modules.get("numpy.ma")
    if masked is not None and isinstance(value, masked.MaskedArray) and \
            masked.getmaskarray(value).any():
        raise ValuesError(f"{name} is a masked array with masked entries, which adcli would "
                          "compute as if unmasked: pass np.ma.filled(a, np.nan) for nan "
                          "there, or a.compressed() to leave them out")


def _from_texts(name: str, value, array: np.ndarray) -> np.ndarray:
    """Strings read as --at reads its values, with its warnings (1e400 is inf)."""
    from .errors import ExpressionError
    from .points import NotConstant, constant, constant_value

    texts = [str(text) for text in array.flat]
    for text in texts:
        try:
            constant(text)  # for the error; constant_value reads it again (cached) to warn
        except (ExpressionError, NotConstant) as error:
            why = f"it uses {error}" if isinstance(error, NotConstant) else error.message
            which = "" if array.ndim == 0 else f": {quote(text)}"
            raise ValuesError(f"{name} = {_shown(value)}{which} is not a real number or "
                              f"constant expression ({why})") from None
    said: list[str] = []
    numbers = [constant_value(text, name, said) for text in texts]
    _warn(said)
    return np.array(numbers, dtype=np.float64).reshape(array.shape)


UNDERFLOWED = ("went out of float64's range on the way, so it may be a number too small for "
               "float64 (below about 4.9e-324): read as 0")


def underflowed(text: str) -> bool:
    """Whether a constant expression (--at x=exp(-800), x="2^-1080"; not a number written,
    1e-400, which reader.out_of_range says) lost a number below float64's range on its
    way: its 0 may be a number too small for float64, as 1e-400 written is."""
    from .parser import parse as read

    runs: list[_Run] = []   # (a run counts the flags numpy raised: an over- or underflow)

    def value(run: _Run) -> Result:
        runs.append(run)
        return run.partials((), 0)

    read(text)._evaluate({}, value, witnessed=False)
    return any(run.out_of_range is not None and run.out_of_range.any() for run in runs)


def _beyond_range(name: str, array: np.ndarray) -> np.ndarray:
    """Numbers float64 may not hold (Python's integers, Decimals, Fractions, long doubles)
    as float64: each one beyond its range is inf or 0, with the warning the CLI gives for
    --at x=1e400 or x=1e-400 (numpy's own, a RuntimeWarning or none, names no variable)."""
    from .printer import format_number

    with np.errstate(over="ignore", under="ignore"):
        try:
            numbers = np.asarray(array, dtype=np.float64)
        except OverflowError:  # (float() refuses an integer beyond the range)
            numbers = np.array([_float(item) for item in array.flat]).reshape(array.shape)
    items, flat = array.reshape(-1), numbers.reshape(-1)
    lost = np.isinf(flat) | (flat == 0)
    if lost.any():  # (an inf or 0 given as one lost nothing; a text is read as --at's)
        lost[lost] = [not isinstance(item, str) and item != number
                      for item, number in zip(items[lost], flat[lost].tolist())]
    lost = np.flatnonzero(lost)
    if len(lost):  # the first one named, the rest counted (an array may hold millions)
        number = float(flat[lost[0]])
        more = "" if len(lost) == 1 else \
            f", and {len(lost) - 1} more value{'s' * (len(lost) > 2)} beyond float64's range"
        _warn([f"{name}: {_beyond(items[lost[0]], number)}: read as {format_number(number)}"
               f"{more}"])
    return numbers


def _float(item) -> float:
    try:
        return float(item)
    except OverflowError:
        return math.inf if item > 0 else -math.inf


def _beyond(item, number: float) -> str:
    """Why ``item``, read as ``number`` (inf or 0), lost every digit, as --at says it."""
    from .reader import out_of_range

    try:
        text = str(item)
    except ValueError:  # Python writes no integer of over 4300 digits
        return "an integer of over 4300 digits"
    beyond = out_of_range(text, number)
    if beyond is None:  # not written as a decimal (a Fraction's 1/10**400): in its words
        probe = "1e999" if number else "1e-999"
        beyond = _shown(item) + out_of_range(probe, number).removeprefix(probe)
    return beyond


def _warn(messages: list[str]) -> None:
    """Each message once, as an AdcliWarning at the caller's line, outside adcli (the CLI
    says the same on stderr)."""
    if not messages:
        return
    import sys
    import warnings

    frame, level = sys._getframe(), 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    for message in dict.fromkeys(messages):
        warnings.warn(message, AdcliWarning, stacklevel=level)


_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _shown(value) -> str:
    import reprlib

    try:
        return reprlib.repr(value)
    except ValueError:  # an integer of over 4300 digits, which Python will not write
        return f"a {type(value).__name__} too long to show"


def jacobian(expressions, wrt=None, at: Mapping | None = None, **values) -> np.ndarray:
    """The Jacobian of several expressions (texts or Expressions): shape (*points, m, k),
    one row per expression, columns in ``wrt`` order (default: the variables in order of
    first appearance across the expressions)."""
    expressions = _expressions(expressions)
    _not_values(wrt, "wrt")     # (before the values, which it holds, are missed)
    names = list(dict.fromkeys(v for e in expressions for v in e.variables))
    values = merged(at, values, "jacobian", names)
    for e in expressions:
        e.no_constant_values(values)
    # As Expression._values and derivatives say them, of the expressions together.
    _warn([f"a value was given for '{n}', which does not appear in the expressions"
           f"{name_hint(n, names)}" for n in values if n not in names])
    missing = [n for n in names if n not in values]
    if missing:
        raise no_value_for(missing, notes=missing_notes(missing, values))
    # Read once for every expression, and together: each expression's own values may
    # broadcast where the rows they make do not (x and y, one each)
    values = {n: as_numbers(n, values[n]) for n in names}
    broadcast_together(values)
    given, wrt = wrt, tuple(names) if wrt is None else _names(wrt)
    _no_constants(wrt, f"wrt={_shown(given)}")
    for e in expressions:   # (a definition's name is no variable: grad(wrt=) says so too)
        e._not_defined(wrt, f"wrt={_shown(given)}")
    _warn([f"wrt: '{w}' does not appear in the expressions, so its derivative is 0"
           f"{name_hint(w, names)}" for w in wrt if w not in names])
    rows = [_told(e._partials({v: values[v] for v in e.variables}, wrt, 1), ("gradient",),
                  f"f{i}" if len(expressions) > 1 else None).gradient
            for i, e in enumerate(expressions, 1)]
    shape = np.broadcast_shapes(*(g.shape for row in rows for g in row.values())) \
        if wrt else ()
    return np.stack([np.stack([np.broadcast_to(row[w], shape) for w in wrt], axis=-1)
                     for row in rows], axis=-2) if wrt else np.zeros(shape + (len(rows), 0))


def _expressions(given) -> list[Expression]:
    """jacobian's expressions: a list of texts or Expressions, or one (a Jacobian of one
    row, as the CLI's jacobian takes one)."""
    items = [given] if isinstance(given, (str, Expression)) else given
    if not isinstance(items, Iterable) or isinstance(items, (bytes, Mapping)):
        raise ValuesError(f"jacobian takes a list of expressions, not {_shown(given)}")
    if isinstance(items, AbstractSet) and not isinstance(items, KeysView):
        # (as wrt=: a set's order, the rows', changes with PYTHONHASHSEED)
        raise ValuesError("jacobian takes the expressions in order, as a list, not a set "
                          f"({_shown(given)}): its order, the rows' order, would change "
                          "from run to run")
    items = list(items)
    if not items:
        raise ValuesError("jacobian was given no expressions")
    return [e if isinstance(e, Expression) else
            parse(_text(e, f"jacobian's expression {i} must be a str or an Expression"))
            for i, e in enumerate(items, 1)]


def parse(text: str, definitions: Mapping[str, str] | None = None) -> Expression:
    """Parse an expression of the adcli language; AdcliError on bad input.

    ``definitions`` maps names to the texts they stand for (the CLI's ``--let F=...``).
    (The parser, ``adcli.parser.parse``, takes strs as the CLI gives them: anything else
    is said here.)"""
    from . import parser
    from .definitions import Definitions

    text = _text(text, "the expression must be a str")
    if definitions is not None and not isinstance(definitions, Definitions) and not (
            isinstance(definitions, Mapping)
            and all(isinstance(item, str) for pair in definitions.items() for item in pair)):
        raise ValuesError("definitions= takes a mapping of names to texts, such as "
                          f"{{'F': 'x^2'}}, not {_shown(definitions)}")
    if definitions is None or isinstance(definitions, Definitions):
        return parser.parse(text, definitions)
    # Made here, not by the parser, to see which ones the expression used: an unused one
    # (F defined, f written) is said as the CLI says it.
    from .definitions import unused

    definitions = parser.define(definitions)
    expression = parser.parse(text, definitions)
    _warn(unused(definitions, "definitions[{!r}]"))
    return expression


def _text(text, must: str) -> str:
    if not isinstance(text, str):
        raise ValuesError(f"{must}, not {_shown(text)}")
    return str(text)    # (a subclass's, np.str_'s, would show in repr)
