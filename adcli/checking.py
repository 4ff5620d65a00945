"""adcli.check: is a hand-derived derivative right? Three witnesses at every point.

At each point the expectation is compared with adcli's reverse-mode derivative (AD), and
AD with a careful finite-difference estimate (central differences over a ladder of steps
scaled to the point, combined by Richardson extrapolation, Ridders' method; the estimate
with the smallest error estimate wins, as in numdifftools). Two formulas that are equal
mathematically differ in floating point by rounding only, and how much rounding a formula
can make is computed, not guessed: a reverse pass over its graph gives the first-order
bound  eps * sum |dy/dv| |v|  over its intermediates v (each operation rounds its own
result by about one unit in the last place). So "1 - cos(x)^2" against "sin(x)^2" passes
near 0, where the first loses all its digits, while a wrong term of relative size 1e-9
still fails.

Where the expression sits on a kink (the functions' ``kinks``), the derivative may not
exist: its left and right derivatives say whether it does (AD's own just beside the point,
adcli.sides.one_sided; one-sided differences where AD cannot say: _one_step); where it does
not, the point is shown with them and counted neither for nor against the expectation.
Where every finite-difference step spans a pole (tan(x) at pi/2 rounded, 6e-17 from its
pole), they witness nothing: without an expectation the point is not counted.
Where f's central differences vanish to within its rounding over every step (f constant
there, sin(x)^2 + cos(x)^2, or symmetric about x, cos at 0), they settle on nothing
relative to a derivative of 0, but they bound it: by f's rounding over the finest step.
AD agrees there only if it is itself 0 to within its rounding error, and differs if it is
beyond that bound, so a wrong rule on a flat f is still caught; in between, not counted.
So where they converge to 0 without vanishing (a stationary point that is no symmetric
one, x^3 - 3x at 1, where they are h^2): the same bound, judged the same way.
When it differs, slips.py names what is certain at every counted point.
"""
from __future__ import annotations

import contextvars
import copy
import functools
import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from . import drivers
from .core import Variable
from .diagnostics import Diagnostics
from .errors import (EXIT_CHECK_FAILED, AdcliError, ExpressionError, ValuesError,
                     did_you_mean, glued, leibniz, listing, one_name, quote, run_together)
from .expression import (LATEX_LETTERS, MAX_ORDER, Expression, _Flags, _Run, _names as names_of,
                         _shown, _warn, _whole, as_numbers, broadcast_together, letter_hint,
                         name_hint, normal_keys, normal_name, not_differentiated,
                         parse as api_parse)
from .functions import CALLABLE, CONSTANTS, Div, Mul, Pow, PowDiff, exact_step
from .parser import parse
from .reader import accented_names, one_name as named_once, unnoted, without_math
from .wider import _UNIT

# Set while the CLI runs check (commands/check.py): advice names what to give as it is
# typed there (--wrt x), and in the API as check's keywords (wrt="x").
FROM_CLI = contextvars.ContextVar("adcli_check_from_cli", default=False)

DEFAULT_SAMPLES = 30
DEFAULT_SEED = 0
DEFAULT_RTOL = 1e-9
DEFAULT_ATOL = 0.0
SPREAD = (-3.0, 3.0)   # default points: magnitudes 10^-3 .. 10^3 (log-uniform), either sign
WORST = 5              # rows in the table of worst points
WIDER_NODES = 2000     # nodes (f and expectations) up to which one point is looked beyond

EPS = 2.0 ** -52
TINY = 2.0 ** -1022    # the smallest normal float64
ROUNDING = 8           # ulps each operation may be off by (libm's functions: up to ~4)
SHRINK = 2.0 ** -64    # a rounding scale's terms times this: summed without overflow
FD_RTOL = 1e-8         # AD and finite differences agree within this, or their own error
SETTLED = 1e-3         # finite differences with a larger relative error accuse no one
ONE_SIDED_RTOL = 1e-6  # one-sided differences this close: the derivative exists (_one_step)
MIN_FOR_DIAGNOSIS = 3  # points a diagnosis must hold at, at least
# Fewer of the user's own points are looked beyond (at -1, 0, 1, 3x is x^3's 3x^2 with the
# exponent kept, a coincidence a claim must not rest on).
FEW_POINTS = 10
UNDEFINED_CLAIM = "the expectation is nan at "   # slips._undefined: a fact at the points
UNSETTLED = "finite differences do not settle there"   # why a point is not counted
# (and for a derivative in one variable, where AD cannot say and its one-sided differences
# do not settle, or disagree by no more than their own error: _one_step)
SIDES_UNSETTLED = ("whether {label} exists there is not known: its one-sided differences "
                   "do not settle (AD's own beside the point cannot say: a kink lies there)")
SIDES_UNKNOWN = ("whether {label} exists there is not known: a kink lies beside the point "
                 "in the derivative it differentiates, which may not exist there")
# (and why, where what they difference is subnormal: its digits are units of 2^-1074)
UNSETTLED_SMALL = UNSETTLED + (": {of} is below float64's normal range (2.2e-308) there, "
                               "where it keeps fewer digits")
UNDERFLOW_WHY = "(too small for float64): no value to compare"   # (_why_skipped)
OVERFLOWED = ("{of} overflows to inf within the finite-difference step there (float64 "
              "ends at 1.8e308), so finite differences of it witness nothing")   # (_overflows)
UNDERFLOWED = ("{of} is 0 there by underflow (too small for float64), so finite "
               "differences of it witness nothing")   # (_judge_target, without expectation)
FLAT_UNSURE = ("the central differences vanish there to within rounding, which bounds the "
               "derivative, and adcli's is not 0 but within that bound: they cannot tell "
               "it from 0")   # (_flat_witness)
CONVERGING_UNSURE = ("the central differences converge to 0 there, which bounds the "
                     "derivative, and adcli's is not 0 but within that bound: they cannot "
                     "tell it from 0")   # (_flat_witness, _towards_zero)
BLIND = ("{of} itself is wrong there in float64 (an intermediate step overflowed or "
         "underflowed, and long double gives another number), so finite differences of it "
         "witness nothing")   # (_by_long_double)
LONG_DOUBLE = ("{label} at {where}: {recomputed} it is {wide} where float64 gives {shown}"
               "{first}: float64's {number} is wrong there, so long double's is the {what} "
               "shown{compared}")
LONG_DOUBLE_ORDER = 2   # derivatives up to this order are taken from long double's run there


# ----- the result ------------------------------------------------------------------------

@dataclass
class Target:
    """One derivative being checked: ``order``-th in ``name`` (None for order 0), and what
    was found at every point."""

    name: str | None
    label: str                          # "d/dx", "∂/∂x1", "d²/dx²", "f"
    expectation: Expression | None
    expected: np.ndarray | None = None
    ad: np.ndarray | None = None
    fd: np.ndarray | None = None        # nan where not computed (order 0, a kink)
    fd_error: np.ndarray | None = None
    difference: np.ndarray | None = None  # relative: |E - AD| (or |AD - FD|) / the larger
    status: np.ndarray | None = None    # per point: see STATUSES
    left: np.ndarray | None = None      # one-sided derivatives at kinks (nan elsewhere)
    right: np.ndarray | None = None
    # Per point, at kinks: whether the derivative exists (its left and right derivatives
    # agree, in its last step); how far they may be off where AD's own derivatives beside
    # the point gave them (nan where one-sided differences did: _one_step); and where
    # whether it exists is not known (a mixed partial with a kink beside the point).
    exists: np.ndarray | None = None
    sides_error: np.ndarray | None = None
    sides_unknown: np.ndarray | None = None
    fd_disagrees: np.ndarray | None = None  # AD and FD disagree where f is smooth
    # Per point judged against an expectation, away from kinks: where the finite
    # differences shown did not settle (their error above SETTLED of the larger of them and
    # AD: -93 +- 2.7e4 beside 0.1), so they witness nothing and AD with its rounding bound
    # alone decided (None without an expectation: such points are not counted then).
    unsettled: np.ndarray | None = None
    why: np.ndarray | None = None       # per skipped point: why it was not counted
    # A mixed partial's variables as Leibniz writes them, ∂²f/∂x∂y: (x, y); () for a
    # derivative in ``name`` alone. ``name`` is then the first, the one differentiated in
    # last (finite differences run along it).
    names: tuple[str, ...] = ()
    # At a point where the derivative does not exist: the step of path(t) whose left and
    # right derivatives are ``left`` and ``right`` (0: the first, in path[0]); -1, the last.
    kink_step: np.ndarray | None = None
    # Per point: where f is differentiable at a kink but AD gave the kink's convention
    # (|x| sign(x) = x at 0: AD 0, f' = 1), so the expectation was judged against the left
    # and right derivatives, which agree, instead of AD.
    by_sides: np.ndarray | None = None
    # Per point, without an expectation: where AD was judged against its own left and
    # right derivatives at a kink (they agree: the derivative exists), finite differences
    # not settling there (x|x| at 0, where f is 0: _judged_by_ad_sides).
    ad_sides: np.ndarray | None = None
    # Per point: what the match needed beyond --rtol (see _allowance): 0 nothing, 1 the
    # rounding error of the formulas, 2 --atol too (a match is worded by what it took).
    allowance: np.ndarray | None = None
    # Per point: not counted because rounding may have made all of both values (_lost).
    lost: np.ndarray | None = None
    # Per point: why finite differences witness nothing there, every step of theirs spanning
    # a pole (_poles; "" elsewhere): not counted without an expectation, and with one, why
    # they disagree with AD.
    pole: np.ndarray | None = None
    # Per point: where the central differences of f (the function they difference) vanish
    # to within its rounding over every step (_flat), or converge to 0 (_towards_zero), and
    # were taken as a bound on the derivative, the finest of those steps, the bound's; nan
    # elsewhere. There ``fd`` is 0, ``fd_error`` the bound (|f'| <= fd_error) and
    # ``difference`` |AD| over its terms.
    flat: np.ndarray | None = None
    # Per point: where ``difference`` is over the size of the terms (f flat, or one of the
    # expectation and AD an exact 0), not relative to the larger of the two.
    terms: np.ndarray | None = None
    # Per point: where ``flat`` is set because the central differences converge to 0 as
    # the step shrinks (_towards_zero: x^3 - 3x at 1), not because they vanish at every
    # step (False elsewhere).
    converging: np.ndarray | None = None
    # The expectation as the user wrote it, LaTeX's notes and the equation's left side
    # left out (_written): what --format json shows; None for an Expression given.
    written: str | None = None
    # Per point: where ``ad`` is the long double run's number, float64's being wrong there
    # (_by_long_double), and float64's number (the same as ``ad`` elsewhere).
    wide: np.ndarray | None = None
    float64: np.ndarray | None = None
    # Per point: where the function finite differences difference (f, or adcli's
    # derivative one order lower) is wrong in float64 there (_by_long_double): they witness
    # nothing; without an expectation, such a point is not counted, with ``blind_why``.
    blind: np.ndarray | None = None
    blind_why: str = ""
    # Per point: where finite differences did not settle because the function they
    # difference, finite at x, overflows to inf at a step of theirs (_overflows): no
    # number to difference (|f| near 1.8e308 there).
    overflow: np.ndarray | None = None
    # Asked as d/dx (so written on the left side, or by --wrt), not as a partial: to who
    # wrote it, f's other variables are constants (d/dx a^x = x a^(x-1) is the power rule
    # on a^x, not ∂f/∂a by mistake).
    ordinary: bool = False

    @property
    def derivative(self) -> str:
        """The derivative as --expect names it: "x", "x,y" (∂²f/∂x∂y), "f" for order 0."""
        return ",".join(self.names) or self.name or "f"


def path(t: Target, order: int) -> tuple[str, ...]:
    """The variables t's derivative is taken in, first first: y, then x for ∂²f/∂x∂y
    (∂/∂x of ∂f/∂y); x, x for d²/dx²."""
    return t.names[::-1] if t.names else (t.name,) * order


STATUSES = ("match", "differs", "no derivative", "skipped")


@dataclass(frozen=True)
class Row:
    """One (point, derivative) for a table: the worst differences, or a kink."""

    index: int
    at: dict
    name: str | None
    label: str
    expected: float | None
    ad: float
    fd: float
    difference: float
    left: float
    right: float
    derivative: str = ""                # as Target.derivative: "x", "x,y", "f"
    # ``difference`` is over the size of the terms (Target.terms: where f's central
    # differences vanish, _flat, or beside an exact 0), not relative to the larger value
    flat: bool = False
    unsettled: bool = False             # ``fd`` did not settle (Target.unsettled)


@dataclass
class CheckResult:
    """What ``check`` found. ``verdict`` is "matches", "differs" or "cannot tell"; the
    CLI prints ``summary`` and exits with ``exit_code`` (0 matches, 1 otherwise)."""

    expression: Expression
    order: int
    targets: list[Target]
    points: dict[str, np.ndarray]
    value: np.ndarray
    status: np.ndarray                  # per point, the worst over the targets
    verdict: str
    summary: str
    counted: int
    differing: int
    no_derivative: int
    skipped: int
    largest_difference: float
    worst: list[Row]
    kinks: list[Row]
    diagnosis: list[str]
    notes: list[str]
    diagnostics: Diagnostics
    rtol: float
    atol: float
    sampled: bool = False
    seed: int | None = None
    expected_mode: bool = True          # False: AD against finite differences only
    cautions: list[str] = field(default_factory=list)  # readings rarely meant (x^1/2)

    @property
    def ok(self) -> bool:
        return self.verdict == "matches"

    @property
    def exit_code(self) -> int:
        return 0 if self.ok else EXIT_CHECK_FAILED

    def __bool__(self) -> bool:
        # (a result is always there, so it would always be true: assert check(...) would
        # pass a wrong derivative; and of three verdicts, "cannot tell" is neither yes nor no)
        raise TypeError("a CheckResult has no truth value: its verdict is 'matches', "
                        "'differs' or 'cannot tell'; use .ok (True only where it matches) "
                        "or .verdict")

    def __str__(self) -> str:
        return "\n".join([self.summary, *self.diagnosis, *self.notes])

    def __repr__(self) -> str:
        # (the dataclass's own repr dumps every array: thousands of characters at a REPL)
        return f"<CheckResult of {quote(self.expression.text, None)}: {self.summary}>"


# ----- the public entry point -------------------------------------------------------------

def check(f, expected=None, *, expect: Mapping | None = None, order: int | None = None,
          wrt=None, at: Mapping | None = None, samples: int = DEFAULT_SAMPLES,
          seed: int | None = DEFAULT_SEED, domain: Mapping | None = None,
          rtol: float = DEFAULT_RTOL, atol: float = DEFAULT_ATOL,
          definitions=None, **values) -> CheckResult:
    """Check a derivation: is the ``order``-th derivative of ``f`` equal to ``expected``?

    ``f`` and the expectations are texts or Expressions. ``expected`` is the derivative in
    f's one variable (or in ``wrt``); ``expect={"x": ..., "y": ...}`` gives partials by
    name, and ``expect={"x,y": ...}`` (or a key ("x", "y")) the mixed partial ∂²f/∂x∂y,
    of the order its names count; with neither, adcli's derivative is checked against
    finite differences. ``order`` is 1 unless a mixed expectation says otherwise;
    ``order=0`` checks an identity (f equals ``expected``). Points: ``at`` maps names to
    numbers or arrays, or they are keywords (``x=[1, 2]``), as Expression's methods take
    them; variables without a value get ``samples`` random points (``seed``),
    drawn from ``domain={"x": (lo, hi)}`` or else 10^-3..10^3 in magnitude, either sign.
    ``definitions={"u": "sin(x)"}`` (names for sub-expressions, as --let's) are read in f
    given as text, and in the expectations: their right sides, and F where d/dx (F) = ...
    is written; a left side only names the derivative (in dy/dx = -x/y, y is f, and the
    right side's y the definition).
    """
    f, expected, order = _equation_alone(f, expected, expect, order)
    f = f if isinstance(f, Expression) else api_parse(f, definitions)   # (says what is no str)
    samples = _whole(samples, "samples", 1, MAX_SAMPLES)
    rtol, atol = _tolerance(rtol, "rtol"), _tolerance(atol, "atol")
    if seed is not None and (not isinstance(seed, (int, np.integer)) or seed < 0
                             or isinstance(seed, bool)):
        raise ValuesError(f"the seed is a whole number of 0 or more, not {seed!r}")
    expected = _given_expectation(expected, "the expected derivative")
    if values:  # (as Expression's methods take them)
        from .expression import merged

        _no_slips(f, values)
        at = merged(_mapping(at, "at"), values)
    at, domain = (normal_keys(_mapping(m, what)) for m, what in ((at, "at"),
                                                                 (domain, "domain")))
    expect = _by_names(_mapping(expect, "expect"))
    if expected is not None and expect:     # (before the order, which either may imply)
        raise ValuesError("give the expected derivative either as one expression or by "
                          "name (expect=/--expect), not both")
    order = _order(order, expect)
    expect = _collapsed(expect, order)
    domain = domain and {n: _span(n, s) for n, s in domain.items()}
    wrt = wrt if wrt is None else list(names_of(wrt))
    f = constant_in(f, expected, expect, order, wrt)
    at = at and _used(f, at)    # (after constant_in: e^2 with wrt="x" is a function of x)
    targets = _targets(f, expected, expect, order, wrt, at, definitions)
    glued = _glued_names(f, at, domain, wrt)
    # (a caution of both f and the expectation, such as kx's, is said once; and none that
    # a name is one name where it is given a value or a span, --at kx=1: meant as one, as
    # the CLI's other commands take it)
    given = {*(at or {}), *(domain or {}), *(wrt or ()), *itertools.chain(*(expect or {}))}
    cautions = list(dict.fromkeys(
        [c for e in [f, *(t.expectation for t in targets)] if e is not None
         for c in e.cautions if not any(c.startswith(named_once(n)) for n in given)]
        + [one_name(name, parts) for name, parts in glued.items()]))
    drawn = _spans_drawn(f, domain, at)
    cautions += drawn
    if not FROM_CLI.get():      # (the CLI says its cautions on stderr)
        _warn(drawn)
    try:
        # (nan and inf are results here, said in words: numpy's warnings must not leak,
        # from choosing the points (f at random ones) as from judging them)
        with np.errstate(all="ignore"):
            points, sampled, dropped = _points(f, targets, order, at, samples, seed, domain)
            result = _judge(f, targets, order, points,
                            _found(f, targets, order, points, typed=not sampled),
                            rtol, atol, sampled=sampled, seed=seed if sampled else None)
        result.notes[:0] = [dropped] if dropped else []
    except ValuesError as error:    # (1e400 read as inf may be why: the CLI warns first)
        error.cautions = cautions
        raise
    with np.errstate(all="ignore"):
        if _few_own_points(result):
            _look_wider(result, _targets(f, expected, expect, order, wrt, at, definitions),
                        seed, domain)
    result.cautions = cautions
    result.notes += _held_fixed(expected, f, targets)
    result.notes += _held_by_equal_values(f, expected, expect, wrt, at, result)
    if result.verdict == "matches" and result.expected_mode:
        result.notes += _unit_parameters(result, at or {})
    elif result.verdict == "differs" and any(d.startswith("×-1 everywhere")
                                             for d in result.diagnosis):
        result.notes += _sign_parameters(result, at or {})
    # (without the spans of variables given values: unused, and warned of once, above)
    options = dict(at=at, samples=samples, seed=seed, rtol=rtol, atol=atol,
                   domain=domain and {n: s for n, s in domain.items() if n not in (at or {})})
    if glued and result.verdict == "differs" and result.expected_mode:
        # (a rule's slip found with xy a variable of its own is not the one made)
        result.diagnosis = [_glued_words(name, parts, result) for name, parts in glued.items()]
        result.diagnosis += _read_apart(result, glued, definitions, options)
    if f.cautions and result.verdict == "differs" and result.expected_mode:
        # (as the expectation's own reading: where it matches, it is the slip, said alone)
        result.diagnosis = _f_read_otherwise(result, definitions, options) or \
            result.diagnosis
    if result.verdict == "differs" and result.expected_mode:
        result.diagnosis = _f_unspaced(result, definitions, options) or \
            _f_powered(result, definitions, options) or \
            _expected_powered(result, definitions, options) or result.diagnosis
        result.diagnosis = _other_way(result, definitions, options)
        result.diagnosis = _unspaced_other_way(result, definitions, options) or \
            result.diagnosis
    if result.verdict == "matches" and result.expected_mode:
        result.notes[:0] = _meant_otherwise(result, definitions, options)
    result.notes += _too_few_drawn(result, samples)
    return result


def _too_few_drawn(r: CheckResult, samples: int) -> list[str]:
    """Why a difference found at random points has no diagnosis when --samples asked for
    fewer than one takes (the user's own few points get random ones beside them instead:
    _look_wider; a count asked for is kept)."""
    if not (r.sampled and r.verdict == "differs" and r.expected_mode and not r.diagnosis
            and samples < MIN_FOR_DIAGNOSIS):
        return []
    asked, more = (f"--samples {samples}", f"--samples {MIN_FOR_DIAGNOSIS}") if FROM_CLI.get() \
        else (f"samples={samples}", f"samples={MIN_FOR_DIAGNOSIS}")
    return [f"no diagnosis: one takes {MIN_FOR_DIAGNOSIS} points or more, and {asked} drew "
            f"{samples}; {more} or more may give one"]


def _read_apart(r: CheckResult, glued: dict, definitions, options: dict) -> list[str]:
    """The check once more with each glued name split where it stands (xy^2 as x y^2 reads,
    x*y^2: a power after it is its last part's, as it would be written apart): whether the
    derivation is right so, or what is wrong with it then. Nothing where that cannot be
    read."""
    from .parser import define

    said = listing([f"{name} as {'*'.join(parts)}" for name, parts in glued.items()])
    names = definitions.names if definitions is not None else frozenset()
    try:
        apart = functools.partial(_written_apart, glued=glued, names=names)
        texts = {name: apart(text) for name, text in
                 (definitions.texts if definitions is not None else {}).items()}
        again = check(apart(r.expression.text), definitions=define(texts) if texts else None,
                      **_given(r, apart), **options)
    except AdcliError:
        return []
    if again.verdict == "matches":
        return [f"read with {said}, the expectation"
                + (" matches" if len(r.targets) == 1 else "s match")]
    if again.verdict == "differs":
        return [f"read with {said}, it differs too" + (": " if again.diagnosis else "")
                + "; ".join(again.diagnosis)]
    return []


def _given(r: CheckResult, written=lambda text: text) -> dict:
    """r's expectations as check() takes them, each text through ``written``: d/dx asked
    stays d/dx (the diagnosis reads it so: Target.ordinary)."""
    texts = [written(t.expectation.text) for t in r.targets]
    if r.order == 0:
        return dict(expected=texts[0], order=0)
    if len(r.targets) == 1 and r.targets[0].ordinary:
        return dict(expected=texts[0], wrt=r.targets[0].name, order=r.order)
    return dict(expect={t.names or t.name: text for t, text in zip(r.targets, texts)},
                order=r.order)


def _f_read_otherwise(r: CheckResult, definitions, options: dict) -> list[str]:
    """Where f has a reading a caution offers (1/2 x^2, read 1/(2x^2)) under which the
    expectation matches: the words for that, as slips says of the expectation's own."""
    from .slips import READING_CHARS, _offered

    if len(r.expression.text) > READING_CHARS:
        return []
    for reading in _offered(r.expression):
        try:
            again = check(reading.text, definitions=definitions, **_given(r), **options)
        except AdcliError:
            continue
        said = f"f: {reading.written} is read otherwise than it was likely meant (see the " \
            "warning); "
        found = _as_meant(again, said, reading.meant)
        if found:
            return found
    return []


def _as_meant(again: CheckResult, said: str, meant: str) -> list[str]:
    """The words where check of f read as ``meant`` matches, or differs only as the
    expectation's own other reading matches (the expectation written the same way: \\sin x
    e^x's derivative as \\cos x e^x + ...; 2√2 x for √2 x^2's, nan points and all)."""
    from .slips import READ_MATCHES

    if again.verdict == "matches":
        return [f"{said}as {meant}, the expectation matches"]
    if again.verdict == "differs" and len(again.diagnosis) == 1 and \
            again.diagnosis[0].endswith(READ_MATCHES):
        return [f"{said}with f read as {meant}, {again.diagnosis[0]}"]
    return []


def _f_unspaced(r: CheckResult, definitions, options: dict) -> list[str]:
    """Where f divides by a product written side by side from a number (1/3x^3, read
    1/(3x^3) by the rules, and no caution says it: it is as often meant) and read as
    (1/3)*x^3 the expectation matches: the words for that, as slips says them of the
    expectation's own. Each such fraction of f is read so alone, then all of them at once
    (1/3x^3 + 1/2x^2's x^2 + x), each check trying no other reading of its own (one at a
    time, each check trying the others again, took 27 s for six)."""
    from .slips import READING_CHARS, _unspaced_readings

    readings = [reading for reading, _ in _unspaced_readings(r.expression)] \
        if len(r.expression.text) <= READING_CHARS and not _TRYING.get() else []
    return _f_tried(readings, lambda chosen: _f_read_as(r, chosen, definitions, options))


# Set while check tries f read otherwise (_f_unspaced): a reading of that reading is not
# tried again
_TRYING = contextvars.ContextVar("adcli_check_trying", default=False)


def _f_tried(readings: list, read_as, alone: int | None = None) -> list[str]:
    """The words ``read_as(chosen)`` gives for the first of f's readings, each alone (up to
    ``alone`` of them), then all at once, that makes the check pass; each such check tries
    no reading of its own (_TRYING)."""
    tries = [[g] for g in readings] * (alone is None or len(readings) <= alone) + \
        ([readings] if len(readings) > 1 else [])
    trying = _TRYING.set(True)
    try:
        for chosen in tries:
            found = read_as(chosen)
            if found:
                return found
    finally:
        _TRYING.reset(trying)
    return []


def _f_powered(r: CheckResult, definitions, options: dict) -> list[str]:
    """Where f applies a function without brackets to a power of a variable (sin x^2,
    read sin(x^2) by the rules, and no caution says it: it is as often meant) and read as
    sin(x)^2 the expectation matches: the words for that. Each such application is read
    so alone, then all of them at once, as _f_unspaced does."""
    from .slips import READING_CHARS

    readings = _powered_readings(r.expression) \
        if len(r.expression.text) <= READING_CHARS and not _TRYING.get() and \
        len(r.status) <= POWERED_POINTS else []
    # (beyond a few, all at once only: each try is a whole check, and 40 of them took 18 s
    # where the check took 1)
    return _f_tried(readings, lambda chosen: _f_powered_as(r, chosen, definitions, options),
                    POWERED_ALONE)


def _f_powered_as(r: CheckResult, readings: list, definitions, options: dict) -> list[str]:
    """_f_powered's words where f with ``readings`` read as sin(x)^2 makes the check pass."""
    return _f_checked(r, _bracketed(r.expression.text, readings), _powered_said("f", readings),
                      " and ".join(g.meant for g in readings), definitions, options)


def _bracketed(text: str, readings: list) -> str:
    """text with each of _powered_readings' functions bracketed before its power: sin(x)^2."""
    for g in sorted(readings, key=lambda g: g.at, reverse=True):
        text = f"{text[:g.at]}({text[g.at:g.close]}){text[g.close:]}"
    return text


def _powered_said(whose: str, readings: list) -> str:
    one = len(readings) == 1
    return f"{whose}: {' and '.join(g.written for g in readings)} {'is' if one else 'are'} " \
        f"read as {' and '.join(g.read for g in readings)}; "


def _expected_powered(r: CheckResult, definitions, options: dict) -> list[str]:
    """_f_powered for the expectation: sec x^2 (read sec(x^2)) for tan x's derivative,
    where read as sec(x)^2 it matches. One expectation only, as written in one text."""
    from .slips import READING_CHARS

    if len(r.targets) != 1 or _TRYING.get() or len(r.status) > POWERED_POINTS:
        return []
    expectation = r.targets[0].expectation
    readings = _powered_readings(expectation) \
        if len(expectation.text) <= READING_CHARS else []

    def read_as(chosen):
        text = _bracketed(expectation.text, chosen)
        try:
            again = check(r.expression.text, definitions=definitions,
                          **_given(r, lambda written: text), **options)
        except AdcliError:
            return []
        meant = " and ".join(g.meant for g in chosen)
        return [f"{_powered_said('the expectation', chosen)}as {meant}, it matches"] \
            if again.verdict == "matches" else []
    return _f_tried(readings, read_as, POWERED_ALONE)


def _f_checked(r: CheckResult, text: str, said: str, meant: str, definitions,
               options: dict) -> list[str]:
    """_as_meant's words for the check of f written ``text``, or none where it is refused."""
    try:
        again = check(text, definitions=definitions, **_given(r), **options)
    except AdcliError:
        return []
    return _as_meant(again, said, meant)


# How many f's readings as sin(x)^2 are tried one at a time, and up to how many points
# (a grid of 200,000 took 3.3 times as long with two tried: they are a slip's story for a
# student's few points, not a grid's)
POWERED_ALONE, POWERED_POINTS = 3, 4096

# A function's name and a space before its argument (sin x^2, \ln x^3), and a power's
# exponent as written (^2, ^{2}, ^(3), ^-1, ²): _powered_readings
_NAME_THEN_SPACE = re.compile(r"\\?[^\W\d_]+\s+")
_EXPONENT = re.compile(r"\^\s*(?:\{[^{}]*\}|\([^()]*\)|[-+]?(?:\d+\.?\d*|\.\d+|[^\W\d_]\w*))"
                       r"|[⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻]+")


def _powered_readings(f: Expression) -> list:
    """Each function of f applied without brackets to one variable's power (sin x^2):
    as written, as read (sin(x^2)) and as maybe meant (sin(x)^2), with where the bracket
    that reads it so opens (``at``) and closes (``close``, before the power). Not where
    --let names are in f: their nodes' places are in their own texts."""
    from types import SimpleNamespace

    from .printer import render

    nodes, text, found = f.nodes, f.text, []
    for index, node in enumerate([] if f.names else nodes):
        if node.kind != "call" or len(node.args) != 1:
            continue
        power = nodes[node.args[0]]
        if power.kind != "infix" or power.name != "pow" or \
                nodes[power.args[0]].kind != "variable":
            continue
        base = nodes[power.args[0]].position
        exponent = _EXPONENT.match(text, power.position)
        if exponent is None or not _NAME_THEN_SPACE.fullmatch(text, node.position, base):
            continue
        head, tail = text[node.position:power.position], text[power.position:exponent.end()]
        written, read = head + tail, render(nodes, root=index)
        try:    # (the texts are read as said: an exponent not as matched is no reading)
            same, meant = parse(written).parsed, parse(f"({head}){tail}").parsed
        except AdcliError:
            continue
        if same == read:
            found.append(SimpleNamespace(written=written.strip(), read=read, meant=meant,
                                         at=node.position, close=power.position))
    return found


def _f_read_as(r: CheckResult, readings: list, definitions, options: dict) -> list[str]:
    """_f_unspaced's words where f with ``readings`` read as meant makes the check pass."""
    text = r.expression.text
    for at in sorted((reading.at for reading in readings), reverse=True):
        text = f"{text[:at]}*{text[at:]}"

    def listed(field):   # (each written once: 1/2x + 1/2x's 1/2x is one story)
        return " and ".join(dict.fromkeys(getattr(g, field) for g in readings))

    one = len({g.written for g in readings}) == 1
    said = f"f: {listed('written')} {'is' if one else 'are'} read as {listed('read')}: a " \
        "product written side by side binds tighter than '/'; "
    return _f_checked(r, text, said, listed("meant"), definitions, options)


def _meant_otherwise(r: CheckResult, definitions, options: dict) -> list[str]:
    """A match of an expectation read as written where a caution says it is rarely meant
    (1/2 x^(1/2), read 1/(2x^(1/2))): whether, read as it was likely meant, it differs,
    and what is wrong with it so read (x^(1/2)'s exponent kept). The verdict is the
    reading's, as the parser's rules read it; this tells one who meant the other."""
    from .slips import READING_CHARS, _fullest_reading

    notes = []
    for t in r.targets:
        e = t.expectation
        found = _fullest_reading(e) if e is not None and e.cautions and \
            len(e.text) <= READING_CHARS else None
        if found is None or found[1].cautions:
            continue
        meant, other = found
        try:
            again = check(r.expression.text, definitions=definitions,
                          **_given(r, lambda text: other.text if text == e.text else text),
                          **options)
        except AdcliError:
            continue
        if again.verdict != "differs":
            continue
        why = f": {'; '.join(again.diagnosis)}" if again.diagnosis else ""
        what = "the expectation" if len(r.targets) == 1 else f"the expected {t.label}"
        notes.append(f"{what} matches as read, {e.parsed} (see the warning); read as "
                     f"{meant}, as it may have been meant, it differs{why}")
    return notes


def _other_way(r: CheckResult, definitions, options: dict) -> list[str]:
    """r's diagnosis, where an expectation read the other way differs too, with what is
    wrong with it so read, if anything is said (x^(-1/2)'s derivative written -1/2
    x^(-1/2), read (-1/2)·x^(-1/2), keeps the exponent): on the last of its lines."""
    from .slips import READ_TRIED

    lines = list(r.diagnosis)
    for t in r.targets:
        said = [i for i, line in enumerate(lines) if line.endswith(READ_TRIED) and
                any(line == f"the expectation was read as written: {c}{READ_TRIED}"
                    for c in t.expectation.cautions)] if t.expectation is not None else []
        words = _read_other_way(r, t, definitions, options) if said else None
        if words:
            lines[said[-1]] = lines[said[-1]][:-len(READ_TRIED)] + words
    return lines


def _unspaced_other_way(r: CheckResult, definitions, options: dict) -> list[str]:
    """For an expectation that divides by a product written side by side from a number
    and differs read either way, where nothing is said of it as read or only what that
    reading's value is (sqrt(x^2+1)'s derivative written 1/2(x^2+1)^(-1/2), the chain
    factor 2x left out, is "sqrt(u) as sqrt(u)/2" read as 1/(2(x^2+1)^(-1/2))): what is
    wrong with it read as likely meant, (1/2)*(x^2+1)^(-1/2), instead. (A story of its
    own as read stays: x^2's written 1/2x is 1/(df/dx), as often meant.)"""
    from .slips import HALF_SQRT, READING_CHARS, _unspaced_readings

    if _TRYING.get() or not all(HALF_SQRT in line for line in r.diagnosis):
        return []
    lines = []
    for t in r.targets:
        e = t.expectation
        if e is None or len(e.text) > READING_CHARS or not np.any(t.status == "differs"):
            continue
        readings = [reading for reading, _ in _unspaced_readings(e)]
        if not readings:
            continue
        text = e.text
        for at in sorted((g.at for g in readings), reverse=True):
            text = f"{text[:at]}*{text[at:]}"
        trying = _TRYING.set(True)
        try:
            again = check(r.expression.text, definitions=definitions,
                          **_given(r, lambda written: text if written == e.text else written),
                          **options)
        except AdcliError:
            continue
        finally:
            _TRYING.reset(trying)
        if again.verdict != "differs" or not again.diagnosis:
            continue
        one = len(readings) == 1
        lines.append(f"{' and '.join(g.written for g in readings)} {'is' if one else 'are'} "
                     f"read as {' and '.join(g.read for g in readings)}: a product written "
                     "side by side binds tighter than '/'; read as "
                     f"{' and '.join(g.meant for g in readings)}, it differs too: "
                     + "; ".join(again.diagnosis))
    return lines


def _read_other_way(r: CheckResult, t: Target, definitions, options: dict) -> str | None:
    """"; read the other way, <reading>, it differs too: <its diagnosis>" for t's
    expectation read as its cautions offer, or None where that says nothing more. (Not
    for a reading with cautions of its own: its words would be of another reading.)"""
    from .slips import _fullest_reading

    found = _fullest_reading(t.expectation)
    if found is None or found[1].cautions:
        return None
    meant, other = found
    mine = t.expectation.text
    try:
        again = check(r.expression.text, definitions=definitions,
                      **_given(r, lambda text: other.text if text == mine else text),
                      **options)
    except AdcliError:
        return None
    if again.verdict != "differs" or not again.diagnosis:
        return None
    return f"; read the other way, {meant}, it differs too: " + "; ".join(again.diagnosis)


def _written_apart(text: str, glued: dict, names) -> str:
    """``text`` with each glued name written as its parts side by side, at the place the
    reader found it (not in a name, command or subscript that merely contains it); an
    ExpressionError where a place does not spell the name (nothing to split there)."""
    from .parser import _nodes

    places = sorted(((n.position, n.name) for n in _nodes(text, names, hint=False)
                     if n.kind == "variable" and n.name in glued), reverse=True)
    for start, name in places:
        if not text.startswith(name, start):
            raise ExpressionError(f"'{name}' is not spelled as read here", text, start)
        # (a letter before it would join the first part to a name: 2xy is 2x y as it is)
        space = " " if start and text[start - 1].isalpha() else ""
        text = text[:start] + space + " ".join(glued[name]) + text[start + len(name):]
    return text


# What a parameter held at 0, 1 or -1 hides: sin(a x)'s derivative written cos(a x)
# matches at a = 1, its chain factor a being 1.
_UNIT_VALUES = {0.0: "every term with a factor {a} is 0: a wrong one cannot show",
                1.0: "a factor {a} (or a power of it) is 1: one missing or too many cannot "
                     "show",
                -1.0: "a factor {a}^2 is 1 and {a} only a sign: one missing or too many may "
                      "not show"}


def _unit_parameters(r: CheckResult, at) -> list[str]:
    """A note per parameter given at 0, 1 or -1 (not differentiated in), where a match
    says less than it seems."""
    return [f"{a} is held at {value:g}, where {_UNIT_VALUES[value].format(a=a)}; another "
            f"value ({_typed(f'--at {a}=2.5', f'{a}=2.5')}) would show it"
            for a, value in _held(r, at).items()
            if float(value) in _UNIT_VALUES]


def _sign_parameters(r: CheckResult, at) -> list[str]:
    """A note per parameter given at -1 where the diagnosis is a sign error: a factor of
    it left out is a sign there too (a x^2 given 2x at a = -1)."""
    written = {v for t in r.targets if t.expectation is not None
               for v in t.expectation.variables}
    return [f"{a} is held at -1, where a factor {a} left out is a sign too: the ×-1 may be "
            f"that; another value ({_typed(f'--at {a}=2.5', f'{a}=2.5')}) would tell them apart"
            for a, value in _held(r, at).items() if float(value) == -1.0 and a not in written]


def _held(r: CheckResult, at) -> dict:
    """The parameters given a value in ``at`` (not differentiated in), with it."""
    varied = {n for t in r.targets for n in path(t, r.order)}
    return {a: value for a, value in _parameters(r, varied).items() if a in at}


def _glued_names(f: Expression, at, domain, wrt) -> dict[str, list[str]]:
    """f's names made of its other variables (xy beside x and y, as e^{xy} is read), with
    those parts: grad says so of such a name left without a value, and here it is drawn at
    random apart from them. Not a name given a value, a span or as --wrt: meant as one."""
    meant = {*(at or {}), *(domain or {}), *(wrt or ())}
    glued = {}
    for name in (v for v in f.variables if v not in meant):
        others = [v for v in f.variables if v != name]
        parts = run_together(name, [*others, *CONSTANTS])
        if parts and any(p in others for p in parts):
            glued[name] = parts
    return glued


def _glued_words(name: str, parts: list[str], result) -> str:
    """Why the verdict may be the reading's, not the derivation's."""
    apart = listing(dict.fromkeys(p for p in parts if p in result.expression.variables))
    reach = "" if result.order == 0 else \
        f", and {_labels(result.targets)} {'do' if len(result.targets) > 1 else 'does'} not " \
        "reach inside it"
    return (f"{one_name(name, parts)}: as written, {name} is a variable of its own, drawn at "
            f"random apart from {apart}{reach}")


def constant_in(f: Expression, expected, expect, order: int, wrt) -> Expression:
    """A constant F (e^2) whose derivative in x is asked for, by d/dx written (d/dx (e^2)
    = 2e), --wrt x or --expect x=: F as a function of x, whose derivative is 0 at every
    point, checked like any other (a textbook exercise, not an error). The CLI asks
    first, so that --at x=1 is a value of f's."""
    if f.variables or order == 0:
        return f
    names = [] if wrt is None else list(names_of(wrt))
    if not names and expect:
        names = list(dict.fromkeys(n for key in expect for n in key))
    if not names and isinstance(expected, str):
        left, _, said = _equation(expected)
        # (f'(x) names x as dy/dx does: its primes carry it)
        name = said and (said[1] or _primes_name(left))
        names = [normal_name(name)] if isinstance(name, str) else []
    if len(names) != 1:
        return f
    constant = copy.copy(f)
    constant.variables = (names[0],)
    return constant


def _found(f, targets, order, points, typed: bool = False):
    """(``typed``: whether any point was typed, for whose rounding the _slopes are taken)"""
    return _joined([_evaluate(f, targets, order, part, typed)
                    for part in _chunks(points, _chunk_size(f, order))])


# ----- what to check ---------------------------------------------------------------------

MAX_SAMPLES = 10_000    # random points at most, as --samples takes (the pool is 16 times)


def _equation_alone(f, expected, expect, order) -> tuple:
    """(f, expected, order): check("d/dx (x^3) = 3x^2"), one equation whose left side
    applies d/dx to F, is check("x^3", "d/dx (x^3) = 3x^2"), of the order written unless
    one is given, as the CLI reads it (commands.check)."""
    if not isinstance(f, str) or expected is not None or expect or f.count("=") != 1:
        return f, expected, order
    operand = applied_operand(without_math(f).partition("=")[0])
    if not operand:
        return f, expected, order
    return operand, f, written_order(f) if order is None else order


def _finite_float(number) -> bool:
    """Whether a number is a finite float64 (an int past its range, 10**400, is not)."""
    try:
        return bool(np.isfinite(float(number)))
    except OverflowError:
        return False


def _given_expectation(given, what: str, optional: bool = True):
    """An expectation as given to the API: a text, an Expression, or a finite number (a
    constant derivative: check("3*x", 3)); None only where leaving it out means something
    (expected=None compares AD with finite differences; expect={"x": None} says nothing)."""
    if (given is None and optional) or isinstance(given, (str, Expression)):
        return given
    if isinstance(given, (int, float, np.integer, np.floating)) and \
            not isinstance(given, (bool, np.bool_)) and _finite_float(given):
        return repr(float(given)) if isinstance(given, (float, np.floating)) else str(given)
    raise ValuesError(f"{what} must be a str, a finite number or an Expression, not "
                      f"{given!r:.60}")


def _by_names(expect: Mapping | None) -> dict | None:
    """expect= keyed by the tuple of names each key says: "x" is (x,), "x,y" and ("x",
    "y") are (x, y), ∂²f/∂x∂y; each name as the expression reads it (x₁ is x1)."""
    if expect is None:
        return expect
    if not expect:  # (built empty by the caller: checking nothing of theirs is no pass)
        raise ValuesError("expect= is empty: give at least one derivative, or leave expect "
                          "out to compare AD with finite differences")
    keyed = {}
    for key, given in expect.items():
        parts = key.split(",") if isinstance(key, str) else key
        if not isinstance(parts, (tuple, list)) or not parts or \
                not all(isinstance(p, str) and p.strip() for p in parts):
            raise ValuesError(f"expect= takes names, \"x\" or \"x,y\" (or a tuple of "
                              f"names) for ∂²f/∂x∂y, not {key!r:.60}")
        names = tuple(normal_name(p.strip()) for p in parts)
        if names in keyed:
            raise ValuesError(f"expect: {_key(names)} is given more than once")
        keyed[names] = _given_expectation(given, f"expect[{key!r}]", optional=False)
    return keyed


def _order(order, expect) -> int:
    """The order checked: as given, else the number of names of a mixed expectation
    (x,y: 2), else 1. A mixed expectation counts its order; another one given is an
    error, and so is x= beside x,y= without an order (∂f/∂x, or ∂²f/∂x²?)."""
    counted = {len(names): names for names in expect or {} if len(names) > 1}
    if len(counted) > 1:
        a, b = sorted(counted)[:2]
        raise ValuesError(f"--expect {_key(counted[a])}= is of order {a} and "
                          f"{_key(counted[b])}= of order {b}: check one order at a time")
    if order is None:
        single = next((names for names in expect or {} if len(names) == 1), None)
        if counted and single:
            k, names = next(iter(counted.items()))
            raise ValuesError(f"--expect {single[0]}= beside {_key(names)}= does not say "
                              f"its order: write {_key(single * k)}= for the derivative "
                              f"of order {k}, or give --order {k} (order= in the API)")
        return _whole(next(iter(counted), 1), "the order", 0, MAX_ORDER)
    order = _whole(order, "the order", 0, MAX_ORDER)
    for k, names in counted.items():
        if k != order:
            raise ValuesError(f"--expect {_key(names)}= names a derivative of order {k}, "
                              f"one per name, and the order given is {order}: leave out "
                              f"--order (order= in the API), or give {_s(order, 'name')}")
    return _Given(order)


class _Given(int):
    """An order the caller gave, not the default: a left side of another order then asks
    to change it (use --order 2), where without one it asks to add it."""


def _key(names) -> str:
    return ",".join(names)


def _collapsed(expect, order: int) -> dict | None:
    """x,x as x: a derivative in one variable, as --expect x= --order 2 says it."""
    if not expect:
        return expect
    collapsed = {}
    for names, given in expect.items():
        key = names[:1] if len(set(names)) == 1 else names
        if key in collapsed:
            raise ValuesError(f"--expect {_key(key * order if len(key) == 1 else key)}= "
                              f"is given more than once (as {_key(names)}=)")
        collapsed[key] = given
    return collapsed


def _mapping(given, what: str) -> Mapping | None:
    if given is None or isinstance(given, Mapping):
        return given
    raise ValuesError(f"{what}= takes a mapping of names to values, not {given!r:.60}")


def _span(name: str, span) -> tuple[float, float]:
    """A domain as the API takes it: (lo, hi), or the text "lo:hi" as --domain does."""
    if isinstance(span, str):
        from .points import constant_value, split_top_level

        said: list[str] = []    # (1e-400 read as 0, as a number given in a pair is said)
        span = [constant_value(p, f"domain {name}", said) for p in split_top_level(span, ":")]
        _warn(said)
    try:
        lo, hi = (float(as_numbers(f"domain {name}", s)) for s in span)
    except (TypeError, ValueError):
        raise ValuesError(f"domain {name}: {span!r:.60} is not a pair lo, hi") from None
    if not (np.isfinite(lo) and np.isfinite(hi) and lo <= hi):
        raise ValuesError(f"a domain is lo:hi with finite lo <= hi, not {lo!r}:{hi!r}")
    return lo, hi


def _spans_drawn(f: Expression, domain, at) -> list[str]:
    """Words for a --domain of a variable given values (--at, --grid, --points), which
    is not drawn at random and so never uses it; an error for one of a variable drawn
    that holds fewer than FEW_POINTS float64 numbers (0:0, -1e-400:1e-400 read as -0:0):
    its random points would be one or a few, as --at's, without the look beyond those
    that --at's few get (3x matched x^2's 2x at 30 points, all of them x = 0)."""
    from .printer import format_number

    said = []
    for name, (lo, hi) in (domain or {}).items():
        low, high = format_number(lo), format_number(hi)
        span = _typed(f"--domain {name}={low}:{high}", f"domain={{{name!r}: ({low}, {high})}}")
        if name in (at or {}):
            said.append(f"{span} is not "
                        f"used: {name} has values given "
                        f"({_typed('--at, --grid or --points', 'at= or as a keyword')}), "
                        "and only a variable without any is drawn at random")
            continue
        count = _floats_from(lo, hi)
        if name not in f.variables or count >= FEW_POINTS:
            continue
        if count == 1:
            one = format_number(lo)
            raise ValuesError(f"{span} holds one number, {one}: every random point would be "
                              f"{name} = {one} (give LO < HI, or that one point with "
                              f"{_typed(f'--at {name}={one}', f'{name}={one}')}, which is "
                              "checked with random points beside it)")
        raise ValuesError(f"{span} holds only {count} float64 numbers: random points would "
                          "be those few again (give a wider span, or points with "
                          f"{_typed('--at, --grid or --points', 'at= or as keywords')})")
    return said


def _floats_from(lo: float, hi: float) -> int:
    """How many float64 numbers lie from lo to hi (finite, lo <= hi), -0 and 0 one: their
    bit patterns, ordered as the numbers are, counted between."""
    def ordered(x: float) -> int:
        bits = int(np.float64(x).view(np.int64))
        return bits if bits >= 0 else -(bits & 0x7FFF_FFFF_FFFF_FFFF)

    return ordered(hi) - ordered(lo) + 1


def _tolerance(value, what: str) -> float:
    if isinstance(value, (bool, str, bytes)):
        raise ValuesError(f"{what} must be a number, not {value!r}")
    try:
        value = float(value)
    except (TypeError, ValueError, OverflowError):
        raise ValuesError(f"{what} must be a number, not {value!r:.60}") from None
    if not value >= 0 or value == np.inf:
        raise ValuesError(f"{what} must be a finite number >= 0, not {value!r}")
    return value


def label_for(name: str | None, order: int, partial: bool) -> str:
    """How a derivative is named: "d/dx", "∂/∂x", "d²/dx²"; "f" for order 0."""
    if order == 0 or name is None:
        return "f"
    sup = _superscript(order)
    d = "∂" if partial else "d"
    return f"{d}{sup}/{d}{name}{sup}"


def mixed_label(names) -> str:
    """A mixed partial named as Leibniz writes it, a run of one name as a power:
    ∂²/∂x∂y, ∂³/∂x²∂y."""
    runs = [(name, len(list(run))) for name, run in itertools.groupby(names)]
    return f"∂{_superscript(len(names))}/" + "".join(f"∂{name}{_superscript(k)}"
                                                     for name, k in runs)


def _superscript(order: int) -> str:
    return "" if order == 1 else str(order).translate(str.maketrans("0123456789",
                                                                    "⁰¹²³⁴⁵⁶⁷⁸⁹"))


def _targets(f: Expression, expected, expect, order: int, wrt, at=None,
             definitions=None) -> list[Target]:
    partial = len(f.variables) > 1
    if expect:
        if wrt is not None:
            _wrt_beside_expect(f, wrt, expect)
        return [_target(f, names, order, partial, text, definitions)
                for names, text in expect.items()]
    if expected is not None:
        if isinstance(expected, str):   # (said first: --wrt would not mend it)
            _left_side_read(expected, f)
        if wrt is None and isinstance(expected, str):   # ∂f/∂x = ... names the variable
            wrt = _left_variable(expected, f)
        if isinstance(wrt, tuple):                      # ∂²f/∂x∂y = ...: a mixed partial
            return [_target(f, wrt, order, partial, expected, definitions)]
        name = None if order == 0 else _one_name(f, wrt, at)
        target = _target(f, (name,) if name else (), order, partial, expected, definitions)
        target.ordinary = _ordinary(expected)
        return [target]
    if order == 0:
        raise ValuesError("order 0 compares f with an expected expression: give one")
    names = _names(f, wrt)
    if not names:
        raise ValuesError(f"{quote(f.text, None)} has no variables: there is no derivative to "
                          "check")
    return [Target(n, label_for(n, order, partial), None) for n in names]


def _ordinary(expected) -> bool:
    """Whether one expectation in one variable asks for d/dx: no ∂ on its left side
    (d/dx, f'(x), or none, the variable given by --wrt)."""
    if not isinstance(expected, str):
        return True
    left, _, said = _equation(expected)
    return said is None or not re.search(r"\\partial(?![^\W\d_])|∂", left)


def _wrt_beside_expect(f: Expression, wrt, expect) -> None:
    """--wrt with --expect: each name must be f's (as without --expect), and they must be
    the ones --expect names, else one of the two is silently not what is checked."""
    names = _names(f, wrt)
    named = list(dict.fromkeys(n for key in expect for n in key))
    if set(names) != set(named):
        raise ValuesError(f"--wrt {_key(names)} (wrt= in the API) beside --expect: --expect "
                          f"already names the variables, {listing(named)}: leave out --wrt")


def _target(f: Expression, names: tuple, order, partial, text, definitions=None) -> Target:
    """The target of one expectation: in names[0] alone (order times), or the mixed
    partial the names spell (∂²f/∂x∂y for x, y)."""
    mixed = names if len(set(names)) > 1 else ()
    name = names[0] if names else None
    label = mixed_label(mixed) if mixed else label_for(name, order, partial)
    typed = text
    if isinstance(text, str):   # (first: a name its left side gave is said to be its)
        text = _right_side(text, order, names, f, definitions)
    for given in dict.fromkeys(names):
        if given not in f.variables:
            raise ValuesError(_not_in(given, f, mixed=bool(mixed)))
    try:
        expectation = parse(text, definitions) if isinstance(text, str) else text
    except ExpressionError as error:
        if error.text == text != typed:     # in an equation's right side: its column as
            start = len(typed) - len(text)  # typed (the side keeps every column)
            raise ExpressionError(f"the expected {label}: {error.message}", typed,
                                  error.position + start) from None
        raise ExpressionError(f"the expected {label}: {error.message}", error.text,
                              error.position) from None
    extra = [v for v in expectation.variables if v not in f.variables]
    if extra:
        raise ValuesError(f"the expected {label} uses "
                          f"{listing(extra)}, which {'does' if len(extra) == 1 else 'do'} "
                          f"not appear in {quote(f.text, None)}"
                          f"{_implicit(typed, extra, f) or _why_not(extra, f.variables)}")
    written = _written(typed, text) if isinstance(typed, str) else None
    return Target(name, label, expectation, names=mixed, written=written)


def _written(typed: str, read: str) -> str:
    """The expectation as typed, for the user to recognise: the right side ``read`` (the
    reader's, column for column with the end of ``typed``: without_math blanks out TeX's
    delimiters, line marks and notes) with what was blanked out of it, or is a note the
    parser passes over (\\label{eq:1} in 2x \\label{eq:1}), left out. Each such stretch,
    with the spaces around it, is one space between two characters and nothing at either
    end; the user's own spacing elsewhere is kept, and an equation's side loses the
    spaces around its '='."""
    start = len(typed) - len(read)
    side, read = typed[start:], unnoted(read)
    mask = "".join("n" if r == " " != c else "s" if c.isspace() else "k"
                   for c, r in zip(side, read))
    kept, end = [], 0
    for stretch in re.finditer(r"s*n[sn]*", mask):
        inside = stretch.start() > 0 and stretch.end() < len(side)
        kept += [side[end:stretch.start()], " " * inside]
        end = stretch.end()
    shown = "".join(kept) + side[end:]
    return shown.strip() if start else shown


def _not_in(name: str, f: Expression, mixed: bool) -> str:
    if mixed and len(f.variables) == 1:     # (x,y of f(x): no mixed partial to take)
        return (f"'{name}' does not appear in {quote(f.text, None)}: a mixed partial needs two "
                f"variables, and it has one, {f.variables[0]}")
    parts = None if mixed else _spelled(name, f.variables)
    if parts:   # --expect xy= for x,y=
        return (f"'{name}' does not appear in {quote(f.text, None)}: for the mixed partial "
                f"{mixed_label(parts)}, --expect {_key(parts)}=... (expect="
                f"{{\"{_key(parts)}\": ...}} in the API)")
    hint = run_into(name, f.variables)
    if hint:    # (2xy + y^2 has no x: did you mean 'xy'? would point the wrong way)
        return f"'{name}' does not appear in {quote(f.text, None)}: {hint}"
    return f"'{name}' does not appear in {quote(f.text, None)}{name_hint(name, f.variables)}"


def run_into(name: str, variables) -> str | None:
    """How a variable of f holds ``name`` run together with others (2xy: x in xy), or a
    function's name before it (lnx: ln x), as eval says of a name without a value."""
    for v in variables:
        known = [name, *(w for w in variables if w != v), *CONSTANTS]
        # (a function first: lnx is ln x, not l*n*x, whatever its length)
        hint = glued(v, known, CALLABLE) if name in v else None
        if hint:
            return hint
        # (e^{xy} has no y apart: a short name's letters may be names run together too)
        letters = [c for c in v if c.isalpha()] if len(v) <= 3 else []
        parts = run_together(v, [*known, *letters])
        if parts and name in parts:
            return one_name(v, parts)
    return None


def _spelled(name: str, variables) -> tuple[str, ...] | None:
    """name as two or more variables run together (xy: x, y), as the hints read it."""
    parts = run_together(name, variables)
    return tuple(parts) if parts else None


# The left side of an expectation written as an equation, when it names a derivative:
# f'(x), y'', f′, (x^2)', or Leibniz's dy/dx, d²y/dx², d^2f/dx^2, ∂f/∂x, d/dx (x^2),
# d(x^2)/dx.
# ‘ and ʼ as well as ’: a phone or word processor turns ' into any of them
_PRIMES = {"'": 1, "\u2018": 1, "\u2019": 1, "\u02bc": 1, "\u2032": 1, "\u2033": 2,
           "\u2034": 3}
# The primes as LaTeX writes them, read where f'' is: f^{\prime\prime}, f^\prime, f^{''},
# and the order as a number or a Roman numeral (as textbooks number it), f^{(4)}, f^(4),
# f^{(iv)}; without parentheses only iv to ix, f^{iv} (f^{x} is f to the power x).
_ROMAN = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x")
_NUMERAL = r"(?:\d+|(?i:" + "|".join(sorted(_ROMAN, key=len, reverse=True)) + "))"
_PRIME = r"(?:\\prime|['\u2018\u2019\u02bc\u2032\u2033\u2034])"
_PRIMED = (r"['\u2018\u2019\u02bc\u2032\u2033\u2034]+|\^\s*(?:\\prime|\{(?:\s*" + _PRIME
           + rf")+\s*\}}|\{{\s*\(\s*{_NUMERAL}\s*\)\s*\}}|\(\s*{_NUMERAL}\s*\)"
           + r"|\{\s*(?i:viii|vii|iv|ix|vi|v)\s*\})")
_ORDER = r"[d∂](?:\^?(?P<n>\d+)|(?P<sup>[²³⁴-⁹]))?"       # d, d², d^2, ∂
# A name's letters after its first: \w, and the combining marks names take (θ̂, x́: the
# grammar's _MARK, the common ones of them here: diacritics, and symbols' marks as v⃗'s).
_COMBINING = r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20dc\u20e1\u20e5-\u20f0]"
_LETTERS = rf"(?:[^\W⁰¹²³⁴-⁹]|{_COMBINING})"
_IN = rf"[d∂]\s*(?P<var>[^\W\d⁰¹²³⁴-⁹]{_LETTERS}*?)(?:\^\d+|[²³⁴-⁹])?"   # dx, dx², ∂y
# A mixed partial's denominator, ∂x∂y, ∂x ∂y, ∂x\,∂y, ∂x²∂y, dxdy: two or more parts of
# one sign. A name never holds ∂; after d, it may not hold d either, or dxdy would be
# one part (in xdy).
_PART = r"{d}\s*[^\W\d⁰¹²³⁴-⁹{d}](?:[^\W⁰¹²³⁴-⁹{d}]|" + _COMBINING + r")*(?:\^\d+|[²³⁴-⁹])?"
_MANY = "(?P<vars>" + "|".join(f"{_PART}(?:(?:\\s|\\\\[,;:! ])*{_PART})+".replace("{d}", d)
                               for d in "∂d") + ")"
# f named with its arguments after it, ∂f/∂x(x,y): names only (d/dx (x) is applied to x)
_ARGUMENTS = r"(?:\s*\(\s*[^\W\d]\w*(?:\s*,\s*[^\W\d]\w*)*\s*\))?"
# What primes follow: (x^2), and as TeX and the parser take it, [x^2], \left(x^2\right)
_BRACKETED = r"(?:\\left\s*)?(?:\(.+\)|\[.+\])"
_LEFT_SIDES = [   # f'(x), y''; (x^2)'; dy/dx, d²f/dx²; d/dx (x^2); d(x^2)/dx
    # (ʼ is a letter to \w: a name ends before it, fʼʼ is f and two primes)
    re.compile(rf"\s*[^\W\d](?:(?!\u02bc)\w)*\s*(?P<primes>{_PRIMED})\s*"
               rf"(?P<arguments>\([^()=]*\))?\s*\Z"),
    re.compile(rf"\s*(?P<f>{_BRACKETED})\s*(?P<primes>{_PRIMED})\s*\Z", re.DOTALL),
    re.compile(rf"\s*{_ORDER}\s*(?P<named>[^\W\d]\w*)?\s*/\s*{_IN}(?(named){_ARGUMENTS})\s*\Z"),
    re.compile(rf"\s*{_ORDER}\s*/\s*{_IN}(?=[\s(\[{{\\])\s*(?P<f>.+?)\s*\Z", re.DOTALL),
    re.compile(rf"\s*{_ORDER}\s*(?P<f>\(.+\))\s*/\s*{_IN}\s*\Z", re.DOTALL),
]
# The same with a mixed partial's denominator: ∂²f/∂x∂y; ∂²/∂x∂y (x^2 y); ∂²(x^2 y)/∂x∂y
_MIXED_SIDES = [re.compile(p.pattern.replace(_IN, _MANY), p.flags) for p in _LEFT_SIDES[2:]]
# The subscript-operator notation: ∂_x f is ∂f/∂x, ∂_x ∂_y f is ∂²f/∂x∂y (operators apply
# right to left, so its names read as Leibniz's: ∂/∂x of ∂f/∂y), ∂_x^2 f, ∂^2_x f and ∂_{xx} f
# are ∂²f/∂x²; applied to F, ∂_x (x^2 y). \partial_{x} is made plain as ∂_x first.
_POWER = r"(?:\^(\d+)|([²³⁴-⁹]))?"
_OPERATOR = re.compile(rf"∂{_POWER}_([^\W\d⁰¹²³⁴-⁹]{_LETTERS}*){_POWER}(?:\s|\\[,;:! ])*")
_NAMED = re.compile(rf"(?P<name>[^\W\d]\w*){_ARGUMENTS}\s*\Z")   # f, f(x,y): named only
# LaTeX's forms of both, made plain first: \frac{d}{dx}, \frac{\partial f}{\partial x},
# \frac{\mathrm{d}^2 y}{\mathrm{d}x^2} (a \frac without braces inside it).
# \mathrm d is \mathrm{d} (a command without braces takes one token), and so is {\rm d}:
# d, then {d} as d where a name or power follows ({d}y, {d}^2), not \frac's {d}{dx}.
_TEX_D = [(re.compile(r"\\(?:mathrm|operatorname|rm)\s*(?:\{d\}|d)"), "d"),
          (re.compile(r"\{d\}(?=\s*[^\W\d]|\^|\})"), "d"),
          (re.compile(r"\\partial(?![A-Za-z])"), "∂"), (re.compile(r"\^\{(\d+)\}"), r"^\1"),
          (re.compile(r"\\[dt]?frac\{([^{}]*)\}\{([^{}]*)\}"), r"\1/\2")]
# \frac{d}{dx} or \frac{\mathrm{d}}{\mathrm{d}x} at the start: only it is made plain, not
# what it is applied to (\frac{d}{dx} \frac{1}{x+1}: the operand is the parser's)
_TEX_OPERATOR = re.compile(r"\s*\\[dt]?frac\s*\{((?:[^{}]|\{[^{}]*\})*)\}\s*"
                           r"\{((?:[^{}]|\{[^{}]*\})*)\}")


def _left_side(left: str) -> tuple[int, str | tuple | None, str | None] | None:
    """What an equation's left side says of the derivative it names: its order, its
    variable (None for primes; for a mixed partial the names as written, ∂²f/∂x∂y: (x,
    y)) and f as written there (None where only named: dy/dx); None where it names no
    derivative."""
    plain = _plain_operator(left)
    said = _operators(plain)
    if said is not None:
        return said
    for pattern in [*_MIXED_SIDES, *_LEFT_SIDES]:
        found = pattern.match(left if "primes" in pattern.groupindex else plain)
        if found is None:
            continue
        parts = found.groupdict()
        if parts.get("primes"):
            order = _prime_order(parts["primes"])
        else:
            power = parts["n"] or parts["sup"]
            order = int(power.translate(_SUPERSCRIPTS)) if power else 1
        variable = _denominator(parts["vars"], order, left) if parts.get("vars") else \
            parts.get("var")
        return order, variable, _operand(parts.get("f"), [parts.get("var")])
    return None


def _prime_order(primes: str) -> int:
    """The order primes say: f'' 2, f^{\\prime} 1, f^{(4)} 4, f^{(iv)} and f^{iv} 4."""
    written = primes.lstrip("^").strip(" {}()").lower()
    if written.isdigit():
        return int(written)
    if written in _ROMAN:
        return _ROMAN.index(written) + 1
    return written.count("\\prime") + sum(_PRIMES.get(c, 0) for c in written)


def _operand(operand: str | None, variables) -> str | None:
    """What an operator in ``variables`` is applied to, or None where it names f: d/dx f,
    d/dx y, d/dx f(x) are f', as ∂_x f is ∂f/∂x (a name that is no function, constant or
    one of those variables: d/dx x is applied to x)."""
    named = operand and _NAMED.match(operand.strip())
    if named and named["name"] not in (*CALLABLE, *CONSTANTS, *variables):
        return None
    return operand


def _operators(plain: str) -> tuple[int, str | tuple, str | None] | None:
    """A left side in subscript operators (∂_x ∂_y f) as _left_side says it, or None.
    After them, a name (with its arguments) names f; anything else is what they apply to
    (∂_x sin(x y): sin names no f)."""
    text, names, at = plain.strip(), [], 0
    while (found := _OPERATOR.match(text, at)) is not None:
        n, sup, name, n_after, sup_after = found.groups()
        if (n or sup) and (n_after or sup_after):   # ∂^2_x^2: which power?
            return None
        power = n or sup or n_after or sup_after or "1"
        names += _subscript_names(name) * int(power.translate(_SUPERSCRIPTS))
        at = found.end()
    rest = text[at:]
    if not names or not rest:
        return None
    return len(names), names[0] if len(set(names)) == 1 else tuple(names), _operand(rest, names)


def _subscript_names(name: str) -> list[str]:
    """The names one ∂'s subscript differentiates in: ∂_{xx}, x twice (a letter repeated
    is read as the usual shorthand, not as a name xx); else the one name (∂_{x1}: x1).
    ∂_{xy} is one name too: run together, x and y are read either way round, and
    _not_f_variable says so."""
    if len(name) > 1 and name.isalpha() and len(set(name)) == 1:
        return [name[0]] * len(name)
    return [normal_name(name)]


_DENOMINATOR_PART = re.compile(rf"[d∂]\s*([^\W\d⁰¹²³⁴-⁹]{_LETTERS}*)(?:\^(\d+)|([²³⁴-⁹]))?"
                               r"(?:\s|\\[,;:! ])*")


def _denominator(text: str, order: int, left: str) -> tuple[str, ...] | str:
    """∂x²∂y as (x, x, y), in the order written; ∂x∂x as x alone. Its powers must add up
    to the order above it (∂²f/∂x∂y), else the left side says two things."""
    sign = text[0]
    names = []
    for part in re.split(rf"(?={sign})", text):
        found = _DENOMINATOR_PART.fullmatch(part.strip()) if part.strip() else None
        if found:
            name, power, sup = found.groups()
            names += [normal_name(name)] * int((power or sup or "1").translate(_SUPERSCRIPTS))
    if len(names) != order:
        raise ValuesError(f"the expectation's left side, {left.strip()}, differentiates "
                          f"{len(names)} times below ({text.strip()}) and {order} above: "
                          f"write {sign}{_superscript(len(names))}f/{text.strip()}")
    return names[0] if len(set(names)) == 1 else tuple(names)


def _right_side(text: str, order: int, names: tuple, f: Expression, definitions=None) -> str:
    """``f'(x) = 2x`` as ``2x``: an expectation written as an equation whose left side
    names a derivative of the order checked, in the variable checked (another order or
    variable is an error that says which option it asks for). d/dx (x^2) = 2x is read so
    where what d/dx is applied to reads as f. Any other '=' is the parser's to explain."""
    _left_side_read(text, f)
    left, right, said = _equation(text)
    if said is None:
        return text
    written, variable, operand = said
    if operand is not None:
        _same_function(operand, left, f, definitions)
    name = names[0] if names else None
    if isinstance(variable, tuple) or len(set(names)) > 1:
        if names:   # (at order 0, the order is what is wrong)
            _same_mixed(left, variable, names, f)
    elif (variable := _said_variable(left, said)) is not None:
        if name is not None and variable not in f.variables:
            raise ValuesError(_not_f_variable(left, variable, f))
        if name is not None and variable != name:
            raise ValuesError(f"the expectation's left side, {left.strip()}, is a derivative "
                              f"in {variable}, and this checks one in {name}: "
                              f"--wrt {variable} (wrt= in the API), or --expect "
                              f"{variable}=... for partials by name")
    if written != order:
        raise ValuesError(f"the expectation's left side, {left.strip()}, is a derivative of "
                          f"order {written}, and this checks order {order}: "
                          f"{'use' if isinstance(order, _Given) else 'add'} --order "
                          f"{written} (order= in the API)")
    return right


def _not_f_variable(left: str, name: str, f: Expression) -> str:
    """A left side's variable that f does not have; d^2f/dxdd, for x and d, reads as one
    name xdd (after d, a name holding d needs ∂); ∂_{xy} f as one name xy (see
    _subscript_names)."""
    plain = _plain_operator(left)
    parts = _spelled(name, f.variables) if _OPERATOR.match(plain.strip()) else None
    if parts:
        operators = " ".join(f"∂_{p}" for p in parts)
        hint = (f" (for a mixed partial, give each variable its ∂: {operators} f is "
                f"{mixed_label(parts).replace('/', 'f/')}; subscripts run together are "
                "read either way round)")
    elif "d" in name and "∂" not in plain:
        hint = " (after d, a name holding d needs ∂: write ∂ for each d that differentiates)"
    else:
        run = run_into(name, f.variables)      # (e^{xy}: x in xy)
        hint = f" ({run})" if run else ""
    return (f"the expectation's left side, {left.strip()}, is a derivative in {name}, which "
            f"does not appear in {quote(f.text, None)}{hint}")


def _left_side_read(text: str, f: Expression) -> None:
    """An equation whose left side names no derivative (f_{xy} = ..., y = ...) is an error
    that says so, before any other (the --wrt advice for f of several variables would
    lead into the parser's error at '='); one naming a variable f lacks, too; so is a
    chain of equalities and a derivative named at a point, f'(2) (see _at_point)."""
    left, right, said = _equation(text)
    if "=" in right:    # f'(x) = 2x sin x + ... = x(...): which side is the expectation?
        raise ExpressionError("the expectation has more than one '=': give one equation, "
                              "f'(x) = ..., or the right-hand side alone", text,
                              len(left) + 1 + right.index("="))
    point = _at_point(left) if "=" in text else None
    if point is not None:
        raise ExpressionError(_at_point_words(left, *point, f), text, point[1])
    if not said and "=" in text and "=" not in right:
        raise ValuesError(_unread_words(left.strip(), right.strip(), f))
    variable = said and _said_variable(left, said)
    if isinstance(variable, str) and variable not in f.variables and len(f.variables) > 1:
        raise ValuesError(_not_f_variable(left, variable, f))


def _said_variable(left: str, said: tuple) -> str | tuple | None:
    """The variable a left side differentiates in, as _left_side says it, or the one name
    its primes carry (f'(t) says t as dy/dt does: a name F lacks is the same error)."""
    if said[1] is None:
        return _primes_name(left)
    return said[1] if isinstance(said[1], tuple) else normal_name(said[1])


# A derivative named at a point, d/dx of f at 2: df/dx(2), ∂f/∂x(1,2), ∂²f/∂x∂y(0,0), as
# its left side is made plain (the primes' form is _LEFT_SIDES[0]'s "arguments")
_LEIBNIZ_AT = re.compile(rf"\s*{_ORDER}\s*[^\W\d⁰¹²³⁴-⁹]\w*\s*/\s*(?:{_IN}|{_MANY})"
                         r"\s*\([^()=]*\)\s*\Z")


def _at_point(left: str) -> tuple[list, int] | None:
    """The arguments of a left side that names a derivative at a point, f'(2), f''(0),
    f'(pi/4), f'(1,2), \\frac{df}{dx}(2) (any argument that is no name), each parsed, and
    the column of the first; None where there are none, or only names (f'(x), f'(x,y)).
    The right side is then a number, not the derivative: compared with f' at random
    points, it would be judged wrong, and a formula beside it would be judged right."""
    primes = _LEFT_SIDES[0].match(left)
    if not (primes and primes["arguments"]) and not _LEIBNIZ_AT.match(_plain_operator(left)):
        return None
    opening = left.rstrip().rfind("(")
    inner = left[opening + 1:left.rstrip().rfind(")")]
    try:
        parts = [parse(part) for part in inner.split(",")]
    except ExpressionError:     # (not a point either: the parser's error says what it is)
        return None
    if all(len(p.variables) == 1 and p.parsed == p.variables[0] for p in parts):
        return None
    return parts, opening + 1 + len(inner) - len(inner.lstrip())


def _at_point_words(left: str, parts: list, column: int, f: Expression) -> str:
    """What to write instead of f'(2) = 12: the derivative as a formula, and --at."""
    written, head = left.strip(), left[:left.rstrip().rfind("(")].strip()
    primed = _LEFT_SIDES[0].match(left) is not None
    if len(f.variables) != 1:
        formula = head if not primed else f"∂f/∂{f.variables[0]}" if f.variables else \
            f"{head}(x)"
        return (f"{written} is a derivative at a point: write the derivative as a formula, "
                f"{formula} = ..., and give the point with "
                f"{_typed('--at NAME=VALUE', 'NAME=VALUE as keywords')} for each variable")
    v = f.variables[0]
    formula = f"{head}({v})" if primed else head
    at = parts[0].text.strip()
    if len(parts) == 1 and not parts[0].variables:
        at = _typed(f"--at {v}={at}" if re.fullmatch(r"[\w.+-]+", at) else f'--at "{v}={at}"',
                    f"{v}={at}")
        return (f"{written} is the derivative at {v} = {parts[0].text.strip()}: write the "
                f"derivative as a formula, {formula} = ..., and give the point with {at}")
    return (f"{written} names the derivative at {', '.join(p.text.strip() for p in parts)}, "
            f"not as a formula in {v}: write {formula} = ... (a derivative at a point is "
            f"checked with {_typed(f'--at {v}=VALUE', f'{v}=VALUE')})")


# f_{xy}, f_xy, f_x: a subscript, which conventions read either way round
_SUBSCRIPTED = re.compile(r"[^\W\d_]\w*?_\{?([^\W\d_]+)\}?(?:\s*\([^()=]*\))?")


def _unread_words(left: str, right: str, f: Expression) -> str:
    if not left:
        named = f"f'({f.variables[0]})" if len(f.variables) == 1 else \
            f"∂f/∂{f.variables[0]}" if f.variables else "f'(x)"
        if not right:   # "=" alone: there is no side to show in the advice
            return (f"the expectation is '=' alone: give the derivative, or name it before "
                    f"'=', as in {named} = ...")
        return (f"the expectation's left side is empty (nothing before '='): give the right "
                f"side alone, {right}, or name the derivative before '=', {named} = {right}")
    what = f"the expectation's left side, {left}, is not read as a derivative"
    several = len(f.variables) > 1
    named = _left_side(right)
    refused = named is not None and _refusal(f"{right} = {left}", f)
    if refused:     # (12 = f'(2): the swap is refused too, and its own words say why)
        return (f"{what}; its right side, {right}, names one (written the other way "
                f"round?), and as a left side it is refused too: {refused}")
    if named is not None:   # 3x^2 = dy/dx: the right side alone is no expectation
        return (f"{what}, and its right side, {right}, names one: the equation is written "
                f"the other way round; write {right} = {left}{_alone(left, named, several)}")
    sub = _SUBSCRIPTED.fullmatch(left)
    names = sub and (_spelled(sub[1], f.variables) or
                     ((sub[1],) if sub[1] in f.variables else None))
    if names and several:
        key, turned = _key(names), names[::-1]
        said = f"{what}: give it by name instead, --expect {key}=\"{right}\" " \
               f"(expect={{\"{key}\": ...}} in the API)"
        if len(set(names)) > 1:
            said += (f", for {mixed_label(names)}; subscript conventions differ: {left} "
                     f"often means {mixed_label(turned)}, ∂/∂{names[-1]} of ∂f/∂{names[0]} "
                     f"(--expect {_key(turned)}=...)")
        return said
    forms = "f'(x), dy/dx, d²y/dx², ∂f/∂x, ∂²f/∂x∂y, ∂_x f, ∂_x ∂_y f, d/dx (F) or their " \
            "LaTeX forms (\\frac{\\partial f}{\\partial x})"
    if several:
        return (f"{what}: give the derivative by name, --expect NAME=\"{right}\" (NAME,NAME= "
                f"for a mixed partial), or write its left side as {forms}")
    return (f"{what}: an expression is wanted, not an equation; give the right side alone, "
            f"{right}, or write the left side as {forms}")


def _refusal(equation: str, f: Expression) -> str | None:
    """Why the equation's left side is not one check takes for f (_left_side_read), or is
    in a variable f lacks (dy/dt of f in x, refused for one variable too); None if it is."""
    try:
        _left_side_read(equation, f)
    except AdcliError as error:
        return error.message
    left = _equation(equation)[0]
    said = _left_side(left)
    variable = said and _said_variable(left, said)
    if isinstance(variable, str) and variable not in f.variables:
        return _not_f_variable(left, variable, f)
    return None


def _alone(left: str, named: tuple, several: bool) -> str:
    """", or give <left> alone", with what the named derivative said that <left> alone
    does not: its order (f''(x): --order 2) and, where f has several variables, the one it
    is in (none for f'(x), whose x is not read here, nor for a mixed partial)."""
    order, variable = named[0], named[1]
    given = [_typed(f"--order {order}", f"order={order}")] if order != 1 else []
    if several and not isinstance(variable, str):
        return ""
    if several:
        given.append(_typed(f"--wrt {variable}", f"wrt=\"{variable}\""))
    return f", or give {left} alone" + (f" with {' and '.join(given)}" if given else "")


def _same_mixed(left: str, variable, names: tuple, f: Expression) -> None:
    """A left side that names a mixed partial must name the one checked, and one checked
    must be named as one (f'' does not say in what)."""
    written = variable if isinstance(variable, tuple) else () if variable is None else \
        (normal_name(variable),)
    for name in dict.fromkeys(written):
        if name not in f.variables:
            raise ValuesError(_not_f_variable(left, name, f))
    if written == names:
        return
    said = f"the mixed partial {mixed_label(written)}" if len(set(written)) > 1 else \
        f"a derivative in {written[0]}" if written else "no mixed partial"
    if len(set(names)) > 1:
        checked = f"this checks {mixed_label(names)}"
        fix = f"write {mixed_label(names).replace('/', 'f/')} or --expect {_key(written)}=" \
            if written else f"write {mixed_label(names).replace('/', 'f/')}"
    else:
        checked = f"this checks one in {names[0]}" if names else "this checks f itself"
        fix = f"--expect {_key(written)}=... (expect= in the API)"
    raise ValuesError(f"the expectation's left side, {left.strip()}, is {said}, and "
                      f"{checked}: {fix}")


def _same_function(operand: str, left: str, f: Expression, definitions=None) -> None:
    """d/dx (x^2) = 2x: the left side must differentiate f as it was read (else the
    right side would be checked against the derivative of another function). F rewritten
    first (d/dx x^{-1} for 1/x) is F: they are compared as functions."""
    try:
        written = parse(operand, definitions).parsed
    except ExpressionError:
        written = None
    if written != f.parsed and (written is None or not _same_values(operand, f,
                                                                      definitions)):
        raise ValuesError(f"the expectation's left side, {left.strip()}, differentiates "
                          f"{operand.strip()}, not {f.text}: give the right side alone, or "
                          "check that function")


SAME_SAMPLES = 8    # random points at which a rewritten F must equal F (check draws them)


def _same_values(operand: str, f: Expression, definitions=None) -> bool:
    """Whether ``operand`` equals f as a function: checked as order 0 checks an identity,
    at SAME_SAMPLES points drawn (seed fixed) where both are finite, within check's
    tolerance and the rounding either can make, and equal at every one counted."""
    try:
        with np.errstate(all="ignore"):
            t = _target(f, (), 0, False, operand, definitions)
            points = _points(f, [t], 0, None, SAME_SAMPLES, DEFAULT_SEED, None)[0]
            found = _found(f, [t], 0, points)
            _judge_target(f, t, 0, 0, points, found, DEFAULT_RTOL, DEFAULT_ATOL,
                          np.isfinite(found.value))
    except (ValuesError, ExpressionError):  # (another variable, nowhere finite: not F)
        return False
    return bool(np.any(t.status == "match")) and not np.any(t.status == "differs")


def _equation(text: str) -> tuple[str, str, tuple | None]:
    """An expectation as (left side, right side, what the left side says, _left_side's),
    the last None where it is no equation naming a derivative. TeX's math delimiters
    around the whole of it ($f'(x) = 2x$) are no part of either side."""
    try:
        left, equals, right = without_math(text).partition("=")
    except ExpressionError as error:
        raise ExpressionError(f"the expectation: {error.message}", text,
                              error.position) from None
    return left, right, _left_side(left) if equals and "=" not in right else None


def written_order(text: str) -> int:
    """The order an expectation's left side names (d²y/dx² = 6x: 2), else 1."""
    said = _equation(text)[2]
    return 1 if said is None else said[0]


def _left_variable(text: str, f: Expression) -> str | None:
    """The variable of f an equation's left side differentiates in (∂f/∂x = ...: x; f'(x)
    = ...: x, where f has x, as --wrt x would say)."""
    left, _, said = _equation(text)
    if said and isinstance(said[1], tuple):     # ∂²f/∂x∂y: checked as written
        return said[1]
    name = said and (normal_name(said[1]) if said[1] else _primes_name(left))
    return name if name in f.variables else None


def _held_fixed(expected, f: Expression, targets) -> list[str]:
    """A note where the left side's function is one of f's variables (dy/dx = -x/y of
    x^2 + y^2): as f's variable it is held fixed; y defined by f = c, implicitly, is not
    what is checked."""
    if not isinstance(expected, str) or len(targets) != 1 or targets[0].name is None:
        return []
    y, x = _left_function(expected), targets[0].name
    if not y or y == x or y not in f.variables:
        return []
    return [f"{y}, named on the left side, is a variable of {quote(f.text, None)}, held "
            f"fixed: this checks {targets[0].label}, not d{y}/d{x} for {y} a function of {x} "
            f"(implicit differentiation of {quote(f.text, None)} = c)"]


def _left_function(text: str) -> str | None:
    """The function an equation's left side names alone (y in y', dy/dx, y''(x)); None
    where it names none, or differentiates F written there (d/dx (x^2))."""
    left, _, said = _equation(text)
    if said is None or said[2] is not None:
        return None
    leibniz, primes = _LEFT_SIDES[2].match(_plain_operator(left)), _LEFT_SIDES[0].match(left)
    y = leibniz["named"] if leibniz else primes and re.match(r"\s*([^\W\d]\w*)", left)[1]
    return y and normal_name(y)


def _implicit(typed, extra: list[str], f: Expression) -> str:
    """Where the expectation uses the function its left side names (y' = 2x y of e^{x^2},
    as implicit differentiation writes it), how to say what y is: the command that checks
    it, F being y and y defined as F."""
    y = _left_function(typed) if isinstance(typed, str) else None
    if [y] != extra:    # (another name too: that command would fail on it)
        return ""
    return (f": {y} is the function the left side names; to use it on the right side, "
            f"define it and check {y}: adcli check \"{y}\" \"{typed.strip()}\" --let "
            f"{y}=\"{f.text.strip()}\" (definitions= in the API)")


def _primes_name(left: str) -> str | None:
    """The one name primes carry, f'(x), y''(t): x, t (f'(x,y) does not say which)."""
    primes = _LEFT_SIDES[0].match(left)
    inner = primes and primes["arguments"] and primes["arguments"].strip()[1:-1].strip()
    return normal_name(inner) if inner and "," not in inner else None


def applied_operand(left: str) -> str | None:
    """What a left side differentiates (d/dx (x^2), d(x^2)/dx, (x^2)': x^2, its
    parentheses dropped), if it is so written; "" for a derivative named alone (dy/dx,
    f'(x)); None for no derivative. ``left`` may follow TeX's math delimiter opening
    the whole equation ($d/dx (x^2) = 2x$)."""
    said = _left_side(_OPENING_MATH.sub("", left, count=1))
    if said is None:
        return None
    operand = said[2] or ""
    inner = operand[1:-1] if operand[:1] == "(" and operand[-1:] == ")" else ""
    return inner if inner and _balanced(inner) else operand


_OPENING_MATH = re.compile(r"\A\s*(?:\$\$?|\\[(\[])")


def _balanced(text: str) -> bool:
    """Whether every parenthesis in text closes in it: (x+1)*(x-1) is not (x+1)."""
    depth = 0
    for c in text:
        depth += (c == "(") - (c == ")")
        if depth < 0:
            return False
    return depth == 0


def _plain_operator(left: str) -> str:
    """A left side with LaTeX's derivative operator written plainly: \\frac{d}{dx} as d/dx
    (when a \\frac starts it, what follows is kept as written)."""
    left = _plain_d(left)
    operator = _TEX_OPERATOR.match(left)
    head, operand = (left, "") if operator is None else \
        (operator.group(0), " " + left[operator.end():])
    head = _TEX_SUBSCRIPT.sub(r"_\1", _TEX_LETTER.sub(_letter, accented_names(head)))
    for pattern, replacement in _TEX_D:
        head = pattern.sub(replacement, head)
    return _DENOMINATOR_IN_PARENTHESES.sub(r"/\1", head) + operand


def _plain_d(left: str) -> str:
    """d and ∂ in the forms a typeset formula pastes them, as the plain letters: Word's
    italic 𝑑 and 𝜕, ⅆ, the fullwidth ｄ (each is d or ∂ in NFKC form, as a name's letters
    are read; one character for one, so a caret's column stays)."""
    return left if left.isascii() else "".join(map(_d_form, left))


@functools.lru_cache(maxsize=256)
def _d_form(c: str) -> str:
    """c, or d or ∂ for a font's or the fullwidth form of it (not a superscript ᵈ)."""
    if c.isascii():
        return c
    import unicodedata

    plain = unicodedata.normalize("NFKC", c)
    form = unicodedata.decomposition(c).split(" ")[0]
    return plain if plain in ("d", "∂") and form in ("<font>", "<wide>") else c


# ∂²f/(∂x∂y): the parentheses around a denominator of d's or ∂'s only, at the end
_DENOMINATOR_IN_PARENTHESES = re.compile(r"/\s*\(\s*([d∂][^()]*?)\s*\)(?=\s*\Z)")


# Names as the reader spells them (normal_name): x_{1} is x_1, \theta is θ, in a left side
# too (∂f/∂x_{1}, \frac{\partial f}{\partial \theta}).
_TEX_SUBSCRIPT = re.compile(rf"_\{{((?:[^\W⁰¹²³⁴-⁹]|{_COMBINING})+)\}}")   # (∂_{q̇} too)
_TEX_LETTER = re.compile(r"\\([A-Za-z]+)")


def _letter(found: re.Match) -> str:
    """\\theta as θ; a space after it where a name or command follows (\\theta\\phi is θ
    times φ, not a name θφ). Other commands stay (\\frac, \\partial, \\mathrm)."""
    letter = LATEX_LETTERS.get(found[1])
    if letter is None:
        return found[0]
    after = found.string[found.end():found.end() + 1]
    return letter + (" " if after == "\\" else "")


_SUPERSCRIPTS = str.maketrans("²³⁴⁵⁶⁷⁸⁹", "23456789")


def _why_not(extra: list[str], variables) -> str:
    """d/dx typed into the expectation, or names run together (2xy is 2 times a variable
    xy), as the CLI says of a name without a value."""
    notation = leibniz(extra)
    if notation:
        return f": {notation}"
    hints = [glued(name, [*variables, *CONSTANTS], CALLABLE) or run_into(name, variables)
             for name in extra]
    hints = list(dict.fromkeys(hint for hint in hints if hint))  # (k and x: 'kx', once)
    return f" ({'; '.join(hints)})" if hints else ""


def _names(f: Expression, wrt) -> list[str]:
    if wrt is None:
        return list(f.variables)
    names = [normal_name(w.strip()) if isinstance(w, str) else w
             for w in (wrt.split(",") if isinstance(wrt, str) else wrt)]
    for name in names:
        if name in f.names.values():     # (--let F=x+y --wrt F: as grad says it)
            # (given None: the command line's words, --wrt and --let)
            raise ValuesError(not_differentiated(name, [f], _typed(None,
                                                                   f"wrt={_shown(wrt)}")))
        if name not in f.variables:
            hint = run_into(name, f.variables)
            raise ValuesError(f"'{name}' does not appear in {quote(f.text, None)}"
                              + (f": {hint}" if hint else name_hint(name, f.variables)))
    return names


def _one_name(f: Expression, wrt, at=None) -> str:
    names = _names(f, wrt)
    if wrt is None and len(names) > 1:
        # a*x^2 with a = 3 fixed (--at a=3): a is a parameter, the derivative is in x, the
        # one variable left to vary (sampled, or given different values).
        varying = [n for n in names if n not in (at or {}) or not _one_value(at[n])]
        names = varying if len(varying) == 1 else names
    if wrt is not None and len(names) > 1:   # (the advice to name one with --wrt is no help)
        raise ValuesError(f"{_typed('--wrt', 'wrt=')} names {listing(names)}, "
                          "but one expectation is one derivative: "
                          + _typed(_ONE_WRT_CLI, _ONE_WRT_API))
    if len(names) != 1:
        listed = listing(names) or "no variables"
        notation = leibniz(names) or _function_glued(names)
        if notation:
            raise ValuesError(f"{quote(f.text, None)} has {listed}: {notation}")
        advice = _typed(_ONE_NAME_CLI, _ONE_NAME_API.format(names[-1] if names else "a"))
        raise ValuesError(f"one expected derivative needs one variable and "
                          f"{quote(f.text, None)} has {listed}: {advice}"
                          f"{_integration(names)}")
    return names[0]


_ONE_NAME_CLI = ("name it with --wrt, fix the others with --at, or give partials by name "
                 "with --expect NAME=...")
_ONE_NAME_API = ("name it with wrt=, give the others one value each as keywords ({}=3), or "
                 "give partials by name with expect={{NAME: ...}}")
_ONE_WRT_CLI = "give one variable to --wrt, or one --expect NAME=... per variable"
_ONE_WRT_API = "give one variable to wrt=, or one expectation per variable: expect={NAME: ...}"


def _held_by_equal_values(f: Expression, expected, expect, wrt, at, r) -> list[str]:
    """A note where _one_name took a variable given several values, all equal (x=[1, 1,
    1], a points file's constant column), for a parameter: the derivative checked is in
    another, which a reader of the values may not expect (not where --wrt or the
    equation's left side named it), said where it differs: a match is what a parameter's
    column (a = 3 on every row) is given for."""
    if r.verdict != "differs" or expected is None or expect or wrt is not None or \
            len(r.targets) != 1 or \
            r.targets[0].name is None or len(f.variables) < 2 or \
            (isinstance(expected, str) and _left_variable(expected, f)):
        return []
    t = r.targets[0]
    held = [n for n in f.variables if n != t.name and n in (at or {})
            and np.size(at[n]) > 1 and _one_value(at[n])]
    # (its values all equal, not counted: a grid's are its rows', not the values typed)
    return [f"{n} was held as a parameter, its values all being equal "
            f"({r.points[n][0]:g}): this checks {t.label}; for the derivative in "
            f"{n}, name it with {_typed(f'--wrt {n}', f'wrt={n!r}')}" for n in held]


def _function_glued(names) -> str:
    """Names that are a function's run into others (x sinx: sinx, sin x), as eval says
    them: --wrt would differentiate in one as a variable."""
    hints = []
    for v in names:
        known = [*(w for w in names if w != v), *CONSTANTS]
        if not run_together(v, known):      # (xy alone is two variables, not a slip of f)
            hints.append(glued(v, known, CALLABLE))
    return "; ".join(hint for hint in hints if hint)


def _integration(names) -> str:
    """A hint for an antiderivative written with its + C, whose C is one more variable."""
    others = [n for n in names if n != "C"]
    if "C" not in names or len(others) != 1:
        return ""
    return (f" (C, a constant of integration, is read as a variable: with "
            f"{_typed(f'--wrt {others[0]}', f'wrt={others[0]!r}')} it is held fixed)")


# ----- where to check --------------------------------------------------------------------

def _spanned(f: Expression, domain) -> dict:
    """The spans of f's variables in ``domain``; another name's is dropped with a warning,
    as the CLI's --domain drops it (a span is no value given: nothing is believed used),
    unless it is one of f's letters spelled otherwise (phi for φ)."""
    return _own(f, dict(domain or {}),
                lambda name: f"domain: '{name}' does not appear in {quote(f.text, None)}")


def _own(f: Expression, given: dict, said) -> dict:
    """given's entries for f's variables. Another name's is dropped with a warning
    (``said(name)``), unless it is one of f's letters spelled otherwise (phi for φ): an
    error then, for f's own would be drawn and the one given believed used."""
    from .expression import _warn

    for name in [n for n in given if n not in f.variables]:
        if letter_hint(name, f.variables):
            raise ValuesError(said(name) + letter_hint(name, f.variables))
        _warn([said(name) + did_you_mean(name, f.variables)])
    return {n: v for n, v in given.items() if n in f.variables}


def _points(f, targets, order, at, samples, seed, domain) -> tuple[dict, bool, str | None]:
    """The points to check, whether they were drawn, and what the drawing left out
    (``_dropped``)."""
    given = dict(at or {})
    domain = _spanned(f, domain)
    for name in given:
        if name not in f.variables:
            raise ValuesError(f"a value was given for '{name}', which does not appear in "
                              f"{quote(f.text, None)}{did_you_mean(name, f.variables)}")
    at = {name: as_numbers(name, value) for name, value in given.items()}  # (read once)
    for name, value in at.items():
        if value.size == 0:
            raise ValuesError(f"{name} = {given[name]!r:.60}: no points given")
    missing = [v for v in f.variables if v not in at]
    if missing and any(value.size != 1 for value in at.values()):
        raise ValuesError(f"with {listing(missing)} drawn at random, each value given in at= "
                          "is one number (for several points, give every variable's)")
    if not missing:
        given = {v: np.atleast_1d(at[v]) for v in f.variables}
        broadcast_together(given)   # (numpy's error names no variable)
        arrays = np.broadcast_arrays(*given.values()) if given else []
        return {v: a.ravel().copy() for v, a in zip(f.variables, arrays)}, False, None
    return _sample(f, targets, order, at, missing, samples, seed, domain)


_PARAMETERS = ("expected", "expect", "order", "wrt", "at", "samples", "seed", "domain", "rtol",
               "atol", "definitions")


def _no_slips(f: Expression, values: dict) -> None:
    """A keyword f lacks within one letter of one of check's parameters of four letters or
    more (sample=5, seeds=1) is that parameter misspelt, not a record's field to ignore:
    an error naming it. (Not t or wt beside at and wrt: short fields of records.)"""
    for name in values:
        meant = [p for p in _PARAMETERS if len(p) >= 4 and _one_edit(name, p)]
        if normal_name(name) not in f.variables and meant:
            raise ValuesError(f"a value was given for '{name}', which does not appear in "
                              f"{quote(f.text, None)}: did you mean {meant[0]}=?")


def _one_edit(a: str, b: str) -> bool:
    """Whether a is b with one letter added, dropped or changed."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    short, long_ = sorted((a, b), key=len)
    for i, (x, y) in enumerate(zip(short, long_)):
        if x != y:
            return short[i + (len(short) == len(long_)):] == long_[i + 1:]
    return True


def _used(f: Expression, given: dict) -> dict:
    """The values of f's variables. Another name's is ignored with a warning, as
    Expression's methods ignore it (records with an id field), unless it is one of f's
    letters spelled otherwise (phi for φ)."""
    f._not_defined(given)   # (a definition's name: an error, as in Expression's methods)
    return _own(f, given, lambda name: f"a value was given for '{name}', which does not "
                                       f"appear in {quote(f.text, None)}")


def _draw(rng, n: int, span) -> np.ndarray:
    if span is None:
        magnitude = 10.0 ** rng.uniform(*SPREAD, n)
        return np.where(rng.random(n) < 0.5, -magnitude, magnitude)
    lo, hi = span     # (finite, lo <= hi: _span read it)
    if not np.isfinite(hi - lo):    # -1e308:1e308: drawn at half the size, then doubled
        return 2.0 * rng.uniform(lo / 2, hi / 2, n)
    return rng.uniform(lo, hi, n)


def _sample(f, targets, order, at, missing, samples, seed, domain) -> tuple:
    """``samples`` random points where f, its derivatives and the expectations are all
    finite, in the order drawn from a pool 16 times larger; True (they were drawn); and
    a note of the points drawn and left out because f (or its derivative) is nan there,
    or None: a check that passes only where f is defined must say where that is."""
    rng = np.random.default_rng(seed)
    pool = 16 * samples
    points = {v: np.full(pool, float(as_numbers(v, at[v]))) if v in at
              else _draw(rng, pool, domain.get(v)) for v in f.variables}
    usable = _usable(f, targets, order, points)
    chosen = np.flatnonzero(usable)[:samples]
    if len(chosen) < min(samples, 10):
        raise ValuesError(_too_few(f, targets, order, points, int(usable.sum()), missing,
                                   {v: at[v] for v in at}))
    drawn = int(chosen[-1]) + 1 if len(chosen) == samples else pool
    seen = {v: p[:drawn] for v, p in points.items()}
    note = _dropped(f, targets, order, seen, usable[:drawn], missing,
                    spanned=any(v in domain for v in missing))
    return {v: p[chosen] for v, p in points.items()}, True, note


def _dropped(f, targets, order, seen, usable, missing, spanned=False) -> str | None:
    """What random points left out where f is nan (outside its domain: ln x at x < 0,
    x^(2/3) at x < 0, as numpy has it) or, f finite, its derivative is: how many of those
    drawn, where they are, and what was checked instead. None when none was. Where a
    --domain was given (``spanned``), where f, its derivative or the expectation overflow
    too: exp(x) on 0:2000 is checked up to 709.8 at most, not on the span asked for (the
    default spread, up to 1e3, is no span asked for)."""
    left = np.flatnonzero(~usable)
    if not left.size:
        return None
    sub = {v: p[left] for v, p in seen.items()}
    # per point left out, the first reason: f nan (outside its domain), f inf (an
    # overflow: exp(x) past 709.8), its derivative nan, its derivative inf, the expectation
    # inf or overflowing on the way (a 0 by underflow is said nowhere: not a region)
    why = np.full(left.size, -1)
    powers = None
    for start, part in zip(range(0, left.size, size := _chunk_size(f, order, ladder=False)),
                           _chunks(sub, size)):
        n = _shape(part)[0]
        reasons, powers_here = _left_out(f, targets, order, part, n)
        why[start:start + n] = reasons
        powers = powers or powers_here
    if not spanned:
        why[np.isin(why, _OVERFLOWS)] = -1
    if not np.any(why >= 0):
        return None     # (underflow, or overflow off a span asked for: not a domain)
    said = []
    for reason, (first, after) in enumerate(_LEFT_OUT):
        count = int(np.sum(why == reason))
        if count:
            said.append((after if said else first).format(count))
    where = np.zeros(len(usable), bool)
    where[left[why >= 0]] = True
    region = _region(seen, where, usable, missing)
    said = ", ".join(said[:-1]) + ", and " + said[-1] if len(said) > 1 else said[0]
    return (f"{said} of {len(usable)} points drawn{region}"
            f"{f' ({powers})' if powers else ''}")


# Why random points were left out, said first or after another reason
_LEFT_OUT = (("f is not defined (nan) at {}", ""),
             ("f overflows (inf: beyond float64's range) at {}", "f overflows at {} more"),
             ("f is finite but its derivative is nan at {}", "its derivative is nan at {} more"),
             ("f is finite but its derivative overflows (inf) at {}",
              "its derivative overflows at {} more"),
             ("the expectation overflows (inf: beyond float64's range) at {}",
              "the expectation overflows at {} more"))
_OVERFLOWS = (1, 3, 4)


def _left_out(f, targets, order, part, n) -> tuple[np.ndarray, str | None]:
    """Why each of n points was left out, an index into _LEFT_OUT (-1: none of those),
    and a fractional power's real root to write where one made f nan."""
    run = _Run(f, [part[v] for v in f.variables], (n,), watching=False)
    nodes = run.forward_nodes()
    value = _data(nodes[-1], n)
    nan_f = np.isnan(value) & ~_met_infinity(nodes[-1], n)
    nan_d, inf_d, inf_e = (np.zeros(n, bool) for _ in range(3))
    at = {v: part[v] for v in f.variables}
    for t in targets:
        if t.name is not None:
            d = np.broadcast_to(derivative_values(f, path(t, order), at), (n,))
            nan_d |= np.isnan(d)
            inf_d |= np.isinf(d)
        if t.expectation is not None:
            e, scale = _expectation(t.expectation, part, n)
            inf_e |= ~(np.isfinite(e) & np.isfinite(scale) | undefined(e, scale))
    reasons = np.select([nan_f, ~np.isfinite(value), nan_d, inf_d, inf_e], [0, 1, 2, 3, 4], -1)
    return reasons, _negative_power(f, nodes, nan_f)


def _region(seen, left, kept, names) -> str:
    """Where the points ``left`` out lie, against the ``kept`` ones: one side of 0 of a
    variable (x^(2/3): x < 0), or of the one variable's span kept (sqrt(x - 500))."""
    for v in names:
        x = seen[v]
        for sign, other, test, opposite in (("<", ">", np.less, np.greater),
                                            (">", "<", np.greater, np.less)):
            if np.all(test(x[left], 0)) and np.all(opposite(x[kept], 0)):
                return f", all with {v} {sign} 0: only {v} {other} 0 was checked"
    if len(names) == 1 and kept.any():
        x = seen[names[0]]
        lo, hi = float(x[kept].min()), float(x[kept].max())
        if np.all(x[left] < lo):
            return (f", all with {names[0]} < {lo:.4g}: only {names[0]} from {lo:.4g} to "
                    f"{hi:.4g} was checked")
        if np.all(x[left] > hi):
            return (f", all with {names[0]} > {hi:.4g}: only {names[0]} from {lo:.4g} to "
                    f"{hi:.4g} was checked")
        if not np.any((x[left] > lo) & (x[left] < hi)):
            return f": only {names[0]} from {lo:.4g} to {hi:.4g} was checked"
    return ": only points where it is were checked"


def _negative_power(f, nodes, where) -> str | None:
    """Where a power with a constant fractional exponent of a negative base made f nan
    (x^(2/3) at x < 0, nan as in numpy): the real root to write instead, where it has one
    (an odd denominator: cbrt for 3)."""
    from fractions import Fraction

    from .printer import render

    if not where.any():
        return None
    for index, node in enumerate(f.nodes):
        if node.name != "pow" or node.kind != "infix":
            continue
        base, power = node.args
        c = np.asarray(nodes[power].data if isinstance(nodes[power], Variable)
                       else nodes[power])
        if c.ndim or not np.isfinite(c) or float(c) == round(float(c)):
            continue
        u = np.broadcast_to(_data(nodes[base], where.size), where.shape)
        if not np.any(where & (u < 0)):
            continue
        ratio = Fraction(float(c)).limit_denominator(100)
        p, q = ratio.numerator, ratio.denominator
        if abs(ratio - float(c)) > 1e-12 * abs(float(c)) or q % 2 == 0:
            return None     # (x^(1/2): no real root of a negative number to offer)
        u_text = render(f.nodes, root=base)
        grouped = u_text if f.nodes[base].kind in ("variable", "number", "constant", "call") \
            else f"({u_text})"
        if q == 3:
            inside = u_text if abs(p) == 1 else f"{grouped}^{abs(p)}"
            real = f"{'1/' if p < 0 else ''}cbrt({inside})"
        else:
            real = f"abs({u_text})^({p}/{q})" if p % 2 == 0 else \
                f"sign({u_text})*abs({u_text})^({p}/{q})"
        return (f"{render(f.nodes, root=index)} is nan where {u_text} < 0, as in numpy; for "
                f"the real root, write {real}")
    return None


def _too_few(f, targets, order, points, usable: int, missing, fixed) -> str:
    """Too few random points where everything is finite: which of f, its derivative and
    the expectation is not, at the most points (looked at only now: it costs a pass), and
    a domain where they are, found by trying some (_domain_advice)."""
    failing, somewhere = _failing(f, targets, order, points)
    expected = [t for t in targets if t.expectation is not None]
    for t in (t for t, finite in zip(targets, somewhere) if not finite and t in expected):
        constant = _constant_infinity(t)
        if constant:
            return f"the expected {t.label} is not finite at any of the " \
                   f"{_s(_shape(points)[0], 'random point')}: {constant}"
    what = max(failing, key=failing.get)
    which = f": {what} is not at {failing[what]} of them" if failing[what] else ""
    parts = _finite_parts_words(order, bool(expected))
    head = (f"only {usable} of {_shape(points)[0]} random points have {parts} finite (and "
            f"not 0 by underflow){which}")
    advice = _domain_advice(f, targets, order, fixed, missing)
    points = _typed("--at, --grid, --points", "at= or as keywords")
    if advice is None:
        return f"{head}; give a domain where they are with {_any_domain()} (or points " \
               f"with {points})"
    if not advice:
        return f"{head}; adcli found no domain where they are, {_TRIED}: give points with " \
               f"{_typed('--at, --grid or --points', 'at= or as keywords')} where they are"
    return f"{head}; give a domain where they are, e.g. {advice} (or points with {points})"


def _failing(f, targets, order, points) -> tuple[dict, np.ndarray]:
    """At how many points each of f, its derivative and the expectation is not finite
    (_finite_parts), and per target whether its expectation is somewhere."""
    failing = dict.fromkeys(["f", "its derivative", "the expectation"], 0)
    somewhere = np.zeros(len(targets), bool)
    for part in _chunks(points, _chunk_size(f, order, ladder=False)):
        parts, expected = _finite_parts(f, targets, order, part)
        for what, ok in parts.items():
            failing[what] += int(np.sum(~ok))
        somewhere |= [bool(np.any(ok)) for ok in expected]
    return failing, somewhere


def _which_failed(f, targets, order, points, n: int) -> str:
    """Which of f, its derivative and the expectation is not finite at the most of the
    n points given, in words ("" where none is)."""
    failing, _ = _failing(f, targets, order, points)
    what = max(failing, key=failing.get)
    if not failing[what]:
        return ""
    where = "there" if n == 1 else f"at {failing[what]} of them"
    if what == "the expectation":
        return f"the expectation {_expectation_fails(targets, order, points)} {where}"
    if what != "f":
        return f"{what} is not {where}"
    why = _value_why(f, points)
    # (f finite at every point given: what failed is a 0 by underflow, x^2 at 1e-200)
    return f"f is not {where}{why}" if why else f"f is 0 by underflow {where}"


def _expectation_fails(targets, order, points) -> str:
    """How the expectation fails at the points, as _finite_parts judges it: it overflows
    on the way ((e^x - 1)^2 at x = 400), as the note on random points says it, or is 0
    by underflow."""
    n, under_somewhere = _shape(points)[0], False
    for t in targets:
        if t.expectation is not None:
            e, scale, under = _expectation(t.expectation, points, n, graph=True,
                                           moving=_moving(targets, order))
            if np.any(~(np.isfinite(e) & np.isfinite(scale) | undefined(e, scale))):
                # (1/x^2 at 1e160 is 0 from x^2's inf: an overflow on the way)
                return "overflows (inf: beyond float64's range)" if \
                    np.any(np.isinf(e)) else "overflows on the way (a step beyond float64's range)"
            under_somewhere |= bool(np.any(_by_underflow(e, under)))
    return "is 0 by underflow" if under_somewhere else "is not"


def _value_why(f, points) -> str:
    """Why f is not finite at the first point where a function of it gave nan or inf, as
    a warning says it: ", as log gave nan or inf (a negative argument gives nan, ...)"."""
    from .report import label, reason

    run = _Run(f, [points[v] for v in f.variables], (_shape(points)[0],), watching=True)
    with np.errstate(all="ignore"):
        run.forward()
    for (name, what), mask in run.diagnostics.masks.items():
        if what == "value" and np.any(mask):
            return f", as {label(name)} gave nan or inf ({reason(name, what)})"
    return ""


def _finite_parts_words(order: int, expected: bool) -> str:
    """What must be finite at a point, as _finite_parts asks: f, its derivative (not at
    order 0, an identity: f itself is compared) and the expectation."""
    parts = ["f", *["its derivative"] * (order > 0), *["the expectation"] * expected]
    return f"{listing(parts)} {'both' if len(parts) == 2 else 'all'}"


# A domain is looked for where none was given or it failed: first along one variable, at
# magnitudes 10^-8 .. 10^8 of either sign (and 0), PROBE_STEPS per decade, then between
# the points found at an edge; what is suggested is drawn from once more to be sure.
PROBE_DECADES = 8
PROBE_STEPS = 100
PROBE_SURE = 64     # points drawn from a domain found, nine in ten of them usable
_TRIED = f"trying magnitudes 1e-{PROBE_DECADES} to 1e{PROBE_DECADES} of either sign"


def _domain_advice(f, targets, order, fixed, names, near: float = 1.0) -> str | None:
    """--domain options where f, its derivative and the expectations are finite, as
    _probe_line (one variable, on the side of 0 ``near`` is on, of two alike) or
    _probe_boxes (several) find them; "" where they found none; None where f is too big
    to look (sampling costs about the square of its size)."""
    nodes = len(f.nodes) + sum(len(t.expectation.nodes) for t in targets
                               if t.expectation is not None)
    if nodes > WIDER_NODES or not names:
        return None
    fixed = {v: float(np.ravel(as_numbers(v, value))[0]) for v, value in fixed.items()}
    with np.errstate(all="ignore"):
        found = _probe_line(f, targets, order, fixed, names[0], near) if len(names) == 1 else \
            _probe_boxes(f, targets, order, fixed, names)
    if not found:
        return ""
    if FROM_CLI.get():
        return " ".join(f"--domain {v}={_short(lo)}:{_short(hi)}"
                        for v, (lo, hi) in found.items())
    return "domain={" + ", ".join(f"{v!r}: ({_short(lo)}, {_short(hi)})"
                                  for v, (lo, hi) in found.items()) + "}"


def _short(x: float) -> str:
    return f"{x:.6g}"


def _typed(cli: str, api: str) -> str:
    """What to give, as the caller gives it: an option on the command line, a keyword of
    check in the API."""
    return cli if FROM_CLI.get() else api


def _any_domain() -> str:
    """A domain of any variable, as the caller writes one."""
    return _typed("--domain NAME=LO:HI", "domain={NAME: (LO, HI)}")


def _decades():
    """(lo, hi) of each decade either side of 0, the nearest to 1 first: 1:10, -10:-1,
    0.1:1, -1:-0.1, 10:100, ..."""
    for k in sorted(range(-PROBE_DECADES, PROBE_DECADES), key=lambda k: (abs(k + 0.5), -k)):
        lo, hi = 10.0 ** k, 10.0 ** (k + 1)
        yield lo, hi
        yield -hi, -lo


def _probe_line(f, targets, order, fixed, name, near: float = 1.0) -> dict | None:
    """A domain of ``name`` (the others at their values) where everything is finite: the
    longest run of usable points on a ladder of magnitudes; one with an edge on both
    sides (arcsin(x - 50): 49 to 51) is found more closely there and rounded inward; one
    that reaches out of the ladder suggests the decade in it nearest 1 (ln x: 1:10)."""
    steps = 10.0 ** (np.arange(-PROBE_DECADES * PROBE_STEPS, PROBE_DECADES * PROBE_STEPS + 1)
                     / PROBE_STEPS)
    line = np.concatenate([-steps[::-1], [0.0], steps])
    ok = _usable_along(f, targets, order, fixed, name, line)
    edges = np.flatnonzero(np.diff(np.concatenate([[0], ok.astype(np.int8), [0]])))
    # A run on near's side of 0 first, the points given being where the user looks (1/x
    # given 1e160: the positive one, not -10:-1; x^3/(e^x - 1) given 400: 10:350, not
    # its longer negative run's -10:-1), and the longest of those.
    side = -1.0 if near < 0 else 1.0
    runs = sorted(zip(edges[::2], edges[1::2] - 1),
                  key=lambda r: (max(line[r[0]] * side, line[r[1]] * side) <= 0, r[0] - r[1]))
    for i, j in runs:
        if i > 0 and j < line.size - 1:
            lo = _edge(f, targets, order, fixed, name, line[i - 1], line[i])
            hi = _edge(f, targets, order, fixed, name, line[j + 1], line[j])
            span = _inward(lo, hi)
        else:
            span = next(((lo, hi) for lo, hi in _decades() if line[i] <= lo and hi <= line[j]),
                        None)
        if span is not None and _sure(f, targets, order, fixed, {name: span}):
            return {name: span}
    return None


def _usable_along(f, targets, order, fixed, name, values) -> np.ndarray:
    points = {v: np.full(values.size, fixed[v]) if v in fixed else values
              for v in f.variables}
    return _usable(f, targets, order, points)


def _edge(f, targets, order, fixed, name, outside: float, inside: float) -> float:
    """Between a point where something is not finite and one where all is, the nearest
    to the first from which all is, on PROBE_STEPS points."""
    between = np.linspace(inside, outside, PROBE_STEPS + 1)
    ok = _usable_along(f, targets, order, fixed, name, between)
    last = int(np.argmin(ok)) - 1 if not ok.all() else ok.size - 1
    return float(between[max(last, 0)])


def _inward(a: float, b: float) -> tuple[float, float] | None:
    """[a, b] (either order) rounded inward to two digits of its width: -0.9:0.9 for
    the edges of arcsin, 49.1:50.9 for arcsin(x - 50)."""
    lo, hi = min(a, b), max(a, b)
    if not hi > lo:
        return None
    quantum = 10.0 ** (np.floor(np.log10(hi - lo)) - 1)
    lo, hi = np.ceil(lo / quantum), np.floor(hi / quantum)
    digits = max(0, -int(np.floor(np.log10(quantum))))
    lo, hi = round(lo * quantum, digits), round(hi * quantum, digits)
    return (lo, hi) if hi > lo else None


def _probe_boxes(f, targets, order, fixed, names) -> dict | None:
    """For several variables drawn: every one in the same decade, each of either sign (of
    one sign for more than four), the decades nearest 1 first."""
    signs = list(itertools.product((1.0, -1.0), repeat=len(names))) if len(names) <= 4 \
        else [(1.0,) * len(names), (-1.0,) * len(names)]
    boxes = [{v: tuple(sorted((sign * lo, sign * hi))) for v, sign in zip(names, combo)}
             for lo, hi in _decades() if lo > 0 for combo in signs]
    rng = np.random.default_rng(0)
    points = {v: np.concatenate([rng.uniform(*box[v], PROBE_SURE) for box in boxes])
              for v in names}
    points.update({v: np.full(len(boxes) * PROBE_SURE, fixed[v]) for v in fixed})
    ok = _usable(f, targets, order, points).reshape(len(boxes), PROBE_SURE)
    return next((box for box, row in zip(boxes, ok) if row.mean() >= 0.9), None)


def _sure(f, targets, order, fixed, spans) -> bool:
    """Whether random points from ``spans`` (a domain found) are nine in ten usable."""
    rng = np.random.default_rng(0)
    points = {v: np.full(PROBE_SURE, fixed[v]) if v in fixed else
              rng.uniform(*spans[v], PROBE_SURE) for v in f.variables}
    return bool(_usable(f, targets, order, points).mean() >= 0.9)


def _finite_parts(f, targets, order, points) -> dict:
    """Per point, whether f, its derivative, and the expectation are each usable (as
    _usable_chunk judges them together)."""
    with np.errstate(all="ignore"):
        at = {v: points[v] for v in f.variables}
        value = np.broadcast_to(f.float64_value(at), _shape(points))
        ok = np.isfinite(value)
        parts = {"f": ok, "its derivative": np.ones_like(ok), "the expectation": np.ones_like(ok)}
        parts["f" if order == 1 else "its derivative"] &= ~_differenced_zero(
            f, targets, order, at, value)
        expected = [np.zeros_like(ok)] * len(targets)
        for i, t in enumerate(targets):
            if t.expectation is not None:
                e, scale, under = _expectation(t.expectation, points, len(ok), graph=True,
                                               moving=_moving(targets, order))
                expected[i] = (np.isfinite(e) & np.isfinite(scale) | undefined(e, scale)) \
                    & ~_by_underflow(e, under)
                parts["the expectation"] &= expected[i]
            if t.name is not None:
                d = np.broadcast_to(derivative_values(f, path(t, order), at), ok.shape)
                parts["its derivative"] &= np.isfinite(d) & ~(
                    (d == 0) & _underflowed_in(f, at, d == 0))
    return parts, expected


def _constant_infinity(t: Target) -> str | None:
    """Why an expectation not finite at any point drawn may be so everywhere: a part of
    it without a variable is not finite (1e400, 1/0, exp(1000)), and no domain helps."""
    from .printer import render

    e = t.expectation
    with np.errstate(all="ignore"):
        values = _Run(e, [np.ones(1) for _ in e.variables], (1,),
                      watching=False).forward_nodes()
    data = [np.asarray(v.data if isinstance(v, Variable) else v) for v in values]
    parents = {arg: p for p, node in enumerate(e.nodes) for arg in node.args}
    for index, value in enumerate(data):
        # the widest part without a variable (a node of 0 dimensions) that is not finite
        widest = index not in parents or data[parents[index]].ndim > 0
        if value.ndim == 0 and not np.isfinite(value) and widest:
            part = "a number beyond float64's range (about 1.8e308), read as inf" \
                if e.nodes[index].kind == "number" else \
                f"{render(e.nodes, root=index)}, which is {value} whatever the point"
            return f"it holds {part}, so no domain can help"
    return None


def _usable(f, targets, order, points) -> np.ndarray:
    # Chunks without the finite differences' ladder (values and derivatives only): a
    # 100,000-node expression took 120 chunks of 4 of the 480 points, 2 s each.
    return np.concatenate([_usable_chunk(f, targets, order, part)
                           for part in _chunks(points, _chunk_size(f, order, ladder=False))])


def _usable_chunk(f, targets, order, points) -> np.ndarray:
    with np.errstate(all="ignore"):
        at = {v: points[v] for v in f.variables}
        value = np.broadcast_to(f.float64_value(at), _shape(points))
        ok = np.isfinite(value) & ~_differenced_zero(f, targets, order, at, value)
        for t in targets:
            if t.expectation is not None:
                e, scale, under = _expectation(t.expectation, points, len(ok), graph=True,
                                               moving=_moving(targets, order))
                ok &= (np.isfinite(e) & np.isfinite(scale) | undefined(e, scale)) & \
                    ~_by_underflow(e, under)
            if t.name is not None:
                d = np.broadcast_to(derivative_values(f, path(t, order), at), ok.shape)
                ok &= np.isfinite(d) & ~((d == 0) & _underflowed_in(f, at, d == 0))
    return ok


def _differenced_zero(f, targets, order, at, value) -> np.ndarray:
    """Without an expectation, where the function finite differences work on (f, its
    ``value``, or the derivative one order lower) is 0 by underflow, as _underflowed_in
    judges it: they witness nothing there (x^2 at 1e-200), so a random point is no use."""
    zero = np.zeros(value.shape, bool)
    if order == 0 or any(t.expectation is not None for t in targets):
        return zero
    for names in {path(t, order)[:-1] for t in targets}:
        lower = value if not names else derivative_values(f, names, at)
        zero |= np.broadcast_to(lower == 0, value.shape)
    return zero & _underflowed_in(f, at, zero)


def _by_underflow(e, under) -> np.ndarray:
    """Where the expectation's value is no value: 0 by an underflow on the way (``under``),
    or nan where such a 0 went on into 0/0 (2x y^4/(x^2 + y^2)^2 at x = y = 1e-100, whose
    y^4 and denominator both underflow), not an expectation undefined there."""
    return ((e == 0) | np.isnan(e)) & under


def _underflowed_in(f: Expression, at, where) -> np.ndarray:
    """Where f's own steps underflowed to 0 (see _underflowed), looked at only if some
    derivative is 0 (``where``): the derivative's 0 is then most likely that one's."""
    if not where.any():
        return where
    arrays = np.broadcast_arrays(*[np.asarray(at[v], dtype=np.float64) for v in f.variables])
    return _underflowed(_Run(f, arrays, where.shape, watching=False).forward(), where.size)


def _shape(points) -> tuple:
    return (len(next(iter(points.values()))),) if points else (1,)


def _chunk_size(f: Expression, order: int, ladder: bool = True) -> int:
    """Points per evaluation, so that the graphs (about 3 times bigger per order) times
    the finite differences' ladder of steps stay near 256 MB."""
    from .points import chunk_size_for

    return chunk_size_for(len(f.nodes) * 3 ** min(order, 12) * 2 * (ROWS if ladder else 1))


def _chunks(points: dict, size: int):
    n = _shape(points)[0]
    for start in range(0, n, size):
        yield {v: p[start:start + size] for v, p in points.items()}


# ----- the witnesses -----------------------------------------------------------------------

@dataclass
class _Found:
    """Everything computed at the points, before judging."""

    value: np.ndarray
    kink: np.ndarray
    diagnostics: Diagnostics
    ad: dict = field(default_factory=dict)          # target index -> AD derivative
    ad_scale: dict = field(default_factory=dict)    # rounding scale of it
    ad_point_scale: dict = field(default_factory=dict)  # at the point alone (AT_THE_POINT)
    expected: dict = field(default_factory=dict)
    expected_scale: dict = field(default_factory=dict)
    expected_zero: dict = field(default_factory=dict)   # where it is an exact 0 (_exact_zero)
    fd: dict = field(default_factory=dict)          # (estimate, error, step settled at)
    fd_scale: dict = field(default_factory=dict)    # rounding scale of what FD works on
    under: dict = field(default_factory=dict)       # where AD or the expectation is a 0
                                                    # made by underflow (see _underflowed)
    gradient: dict = field(default_factory=dict)    # every first partial (order 1)
    gradient_scale: dict = field(default_factory=dict)
    adjoints: list = field(default_factory=list)    # d f / d node, per node (order 1)
    expected_under: dict = field(default_factory=dict)  # the expectation's share of under
    ad_under: dict = field(default_factory=dict)        # AD's (f's at order 0)
    # where the function finite differences difference (f, or AD one order lower) is 0 by
    # underflow: they witness nothing there (x^2 at 1e-200, 0 over the whole stencil)
    differenced_under: dict = field(default_factory=dict)
    lower: dict = field(default_factory=dict)       # order 2: the derivative differenced
    # Where long double's number stands in for float64's (_by_long_double), and float64's
    wide: dict = field(default_factory=dict)        # target index -> where, for its AD
    float64: dict = field(default_factory=dict)     # target index -> float64's AD
    value_wide: np.ndarray | None = None            # f's value
    value_float64: np.ndarray | None = None
    blind: dict = field(default_factory=dict)       # see Target.blind
    # per target, d/dv of AD's number and of the expectation's, per variable v (_slopes)
    slope: dict = field(default_factory=dict)
    expected_slope: dict = field(default_factory=dict)
    point: dict = field(default_factory=dict)   # at typed points: _typed_points


def _evaluate(f: Expression, targets, order, points, typed: bool = False) -> _Found:
    n = _shape(points)[0]
    arrays = [points[v] for v in f.variables]
    run = _Run(f, arrays, (n,), watching=False)
    run.kinked = _kinked_in(targets, order)
    flags = _Flags()    # (an overflow or underflow on the way: the long double witness)
    with flags.counting():
        nodes = run.forward_nodes()
        y = nodes[-1]
        found = _Found(np.broadcast_to(y.data, (n,)).copy(), np.zeros(n, bool),
                       run.diagnostics)
        moving = _moving(targets, order)
        graphs = _derivative_graphs(y, run.leaves, targets, order, nodes, found, moving)
    for (name, what), mask in run.diagnostics.masks.items():
        if what == "kink":
            found.kink |= np.broadcast_to(mask, (n,))
    for i, t in enumerate(targets):
        g, before = graphs[i]
        found.ad[i] = _data(g, n)
        found.ad_scale[i] = _rounding_scale(g, n, moving=moving)
        found.slope[i] = _slopes(g, n) if typed else {}   # (a drawn point is its float)
        found.under[i] = (found.ad[i] == 0) & _underflowed(g, n)
        found.ad_under[i] = found.under[i].copy()
        found.expected_under[i] = np.zeros(n, bool)
        if order >= 1:
            found.fd_scale[i] = before
            found.fd[i] = _differences(f, path(t, order), points, before)
        if t.expectation is not None:
            # (AD and the expectation are compared at the point alone, where a step is
            # exact as the engine's witness takes it, moving or not: 2*x at 1e16, x + x;
            # ad_scale, the size of AD's terms to finite differences, keeps them)
            found.ad_point_scale[i] = _rounding_scale(g, n, moving=AT_THE_POINT)
            found.expected[i], found.expected_scale[i], under, *slope = _expectation(
                t.expectation, points, n, graph=True, moving=AT_THE_POINT, slopes=typed)
            found.expected_slope[i] = slope[0] if typed else {}
            found.expected_under[i] = _by_underflow(found.expected[i], under)
            found.under[i] |= found.expected_under[i]
            found.expected_zero[i] = _exact_zero(t.expectation, points, n, found.expected[i],
                                                 found.expected_scale[i])
    gradient = found.gradient
    found.gradient_scale = {name: _rounding_scale(g, n, moving=moving)
                            for name, g in gradient.items()}
    found.gradient = {name: _data(g, n) for name, g in gradient.items()}
    _by_long_double(f, targets, order, points, found, bool(flags.raised))
    return found


def _kinked_in(targets, order) -> list[str]:
    """The variables whose nodes' kinks a run marks: those the targets are taken in."""
    # (at order 0, an identity, no derivative is taken: no kink's convention can matter)
    return list(dict.fromkeys(n for t in targets for n in path(t, order))) if order else []


def _by_long_double(f, targets, order, points, found: _Found, flagged: bool) -> None:
    """Where a step of f or AD overflowed or underflowed (``flagged``: numpy's flags, for
    the chunk), float64's numbers may have lost their digits (x/(1+x^2) at 1e120: AD's
    term -2x^2/(1+x^2)^2 is lost to (1+x^2)^2, and f' = -1e-240 comes out +1e-240). The
    long double witness (adcli.wider) runs the graph again where a step left float64's
    range, and where it contradicts float64 and is sure (wider.Judged.sure), its number
    stands in for float64's, AD's (up to LONG_DOUBLE_ORDER) and f's value; and where the
    function finite differences work on is wrong in float64, they witness nothing there
    (``found.blind``). Where long double is float64 itself, the check stays float64's."""
    n = len(found.value)
    found.value_wide, found.value_float64 = np.zeros(n, bool), found.value.copy()
    for i in range(len(targets)):
        found.wide[i], found.float64[i] = np.zeros(n, bool), found.ad[i].copy()
        found.blind[i] = np.zeros(n, bool)
    if not flagged or f.has_diff or order > LONG_DOUBLE_ORDER:  # (diff(): graphs of its own)
        return
    from . import wider  # only now: most checks raise no flag

    if not wider.WIDE:
        return
    asked, shown = _asked(f, targets, order, found)
    arrays = [points[v] for v in f.variables]

    def made_run(values, shape) -> _Run:
        run = _Run(f, values, shape, watching=False)
        run.kinked = _kinked_in(targets, order)     # (as _evaluate's: its kinks are judged)
        return run

    where = wider.suspects(made_run, arrays, asked)
    if not where.any():
        return
    seen = wider.judged(made_run, [a[where] for a in arrays], asked,
                        {name: a[where] for name, a in shown.items()})
    at = np.flatnonzero(where)
    _stand_in(found.value, found.value_wide, seen, "", at)
    for name in (found.gradient if order == 1 else ()):   # (slips reads every partial)
        _stand_in(found.gradient[name], np.zeros(n, bool), seen, name, at,
                  found.gradient_scale[name], wider.SURE_RTOL)
    for i, t in enumerate(targets):
        sure = _stand_in(found.ad[i], found.wide[i], seen, _asked_name(t, order, order), at,
                         found.ad_scale[i], wider.SURE_RTOL)
        if i in found.ad_point_scale:   # (long double's error is its scale at the point too)
            found.ad_point_scale[i][sure] = found.ad_scale[i][sure]
        found.under[i][sure] = found.expected_under[i][sure]   # (AD's 0 is gone)
        found.ad_under[i][sure] = False
        if order:
            found.blind[i][at] = seen.wrong[_asked_name(t, order, order - 1)]
    _drop_underflowed_kinks(found, targets, order, made_run, arrays, where, seen)


def _drop_underflowed_kinks(found: _Found, targets, order, made_run, arrays, where, seen):
    """A kink float64 sat on only because a step before it underflowed (sqrt(x^2) at
    x = 1e-200, where x^2 is 0 in float64) is no kink: f is smooth there, and its
    warning, its sides and "does not exist" would be false (grad's same judgement:
    expression._drop_range_artifacts). The point is judged as a smooth one, by the AD
    numbers long double stood in (_stand_in); where a target has none (d2/dx2 of
    sqrt(x^2) at 1e-200 is nan in float64, and long double's 0 its own rounding), there
    is nothing to judge it by, and the kink stays."""
    from . import wider

    kinks = where & found.kink & np.logical_and.reduce(
        [np.isfinite(a) for a in found.ad.values()])
    if not kinks.any():
        return
    wrt = _kinked_in(targets, order)
    if order == 1 and wrt != list(found.gradient):
        # (seen answers for every first partial, and a partial off the targets' way may
        # be inf at a kink of its own: sqrt(y) at y = 0 under --wrt x; grad --wrt x asks
        # long double about x's alone, and so does this)
        asked = wider.Asked(wrt)
        shown = asked.named(found.value, found.gradient)
        seen = wider.judged(made_run, [a[kinks] for a in arrays], asked,
                            {name: a[kinks] for name, a in shown.items()})
        where = kinks
    from .expression import _drop_range_artifacts

    _drop_range_artifacts(found.diagnostics, where, seen, only=kinks)
    found.kink[:] = False
    for (name, what), mask in found.diagnostics.masks.items():
        if what == "kink":
            found.kink |= np.broadcast_to(mask, found.kink.shape)


def _asked(f, targets, order, found) -> tuple:
    """What the long double run computes (a wider.Asked) and float64's numbers for it, by
    its names: f's value, every first partial at order 1; at order 2, the Hessian over
    the variables the targets are taken in, float64's known for their entries and the
    derivatives differenced (the others nan: contradicted, never stood in for)."""
    from . import wider

    if order == 0:
        return wider.Asked([]), {"": found.value}
    if order == 1:
        asked = wider.Asked(list(found.gradient))
        return asked, asked.named(found.value, found.gradient)
    wrt = list(dict.fromkeys(name for t in targets for name in path(t, order)))
    n, k = len(found.value), len(wrt)
    asked = wider.Asked(wrt, hessian=True)
    shown = asked.named(found.value, {name: np.full(n, np.nan) for name in wrt},
                        np.full((n, k, k), np.nan))
    for i, t in enumerate(targets):
        shown[_asked_name(t, order, 1)] = found.lower[i]
        shown[_asked_name(t, order, 2)] = found.ad[i]
    return asked, shown


def _asked_name(t: Target, order: int, steps: int) -> str:
    """The number, as wider.Asked names it, of t's derivative along the first ``steps`` of
    its path: "" f's value, "x" d/dx, "x,y" ∂/∂x of ∂f/∂y (the Hessian's d2f/dx dy: its
    names as Leibniz orders them, the path's last first)."""
    return ",".join(path(t, order)[:steps][::-1])


def _stand_in(numbers, wide, seen, name: str, at, scale=None, rtol: float = 0.0):
    """Long double's number for ``name`` in place of float64's in ``numbers``, where it is
    sure among the points ``at`` it was asked about, marked in ``wide``; and its rounding
    ``scale`` there, its error as one (_bound multiplies a scale by ROUNDING * EPS).
    Returns those points."""
    sure = seen.sure(name)
    index = at[sure]
    numbers[index], wide[index] = seen.numbers[name][sure], True
    if scale is not None:
        scale[index] = np.abs(numbers[index]) * rtol / (ROUNDING * EPS)
    return index


def _joined(parts: list[_Found]) -> _Found:
    """The chunks' findings as one, point arrays end to end."""
    if len(parts) == 1:
        return parts[0]

    def cat(arrays):
        return None if arrays[0] is None else np.concatenate(arrays)

    def cat_dict(key):
        return {k: (tuple(map(cat, zip(*[getattr(p, key)[k] for p in parts])))
                    if isinstance(getattr(parts[0], key)[k], tuple)
                    else cat([getattr(p, key)[k] for p in parts]))
                for k in getattr(parts[0], key)}

    n = sum(len(p.value) for p in parts)
    diagnostics = Diagnostics((n,))
    for key in {k for p in parts for k in p.diagnostics.masks}:
        diagnostics.masks[key] = np.concatenate(
            [np.broadcast_to(p.diagnostics.masks.get(key, False), p.value.shape)
             for p in parts])
    found = _Found(cat([p.value for p in parts]), cat([p.kink for p in parts]), diagnostics)
    for key in ("ad", "ad_scale", "ad_point_scale", "expected", "expected_scale",
                "expected_zero", "fd", "fd_scale", "under", "gradient", "gradient_scale",
                "expected_under", "ad_under", "differenced_under", "wide", "float64", "blind"):
        setattr(found, key, cat_dict(key))
    found.value_wide = cat([p.value_wide for p in parts])
    found.value_float64 = cat([p.value_float64 for p in parts])
    found.adjoints = [cat(list(column)) for column in zip(*[p.adjoints for p in parts])]
    sizes = [len(p.value) for p in parts]
    for key in ("slope", "expected_slope"):
        setattr(found, key, {i: _joined_slopes([getattr(p, key)[i] for p in parts], sizes)
                             for i in getattr(parts[0], key)})
    return found


def _joined_slopes(slopes: list[dict], sizes: list[int]) -> dict:
    """The chunks' _slopes as one (0 in a chunk whose graph did not reach a variable)."""
    names = dict.fromkeys(name for part in slopes for name in part)
    return {name: np.concatenate([part.get(name, np.zeros(size))
                                  for part, size in zip(slopes, sizes)]) for name in names}


def _data(g, n: int) -> np.ndarray:
    if g is None:
        return np.zeros(n)
    return np.broadcast_to(g.data if isinstance(g, Variable) else g, (n,)).copy()


def _derivative_graphs(y, leaves, targets, order, nodes, found, moving=None) -> list:
    """Per target: the derivative as a graph (so its rounding can be bounded) and the
    rounding scale of the one before it (the function finite differences work on)."""
    n = found.value.shape[0]
    if order == 0:
        return [(y, None) for _ in targets]
    if order == 1:
        y.backward(create_graph=True, retain_grad=True)
        found.adjoints = [None if v.grad is None or v.creator is None else _data(v.grad, n)
                          for v in nodes]
        grads = {name: leaf.grad for name, leaf in leaves.items()}
        found.gradient = dict(grads)
        scale = _rounding_scale(y, n, moving=moving, stencil=True)
        under = _zero_by_underflow(y, n)
        found.differenced_under = {i: under for i in range(len(targets))}
        return [(grads.get(t.name), scale) for t in targets]
    graphs = []
    for i, t in enumerate(targets):
        chain = _chain(y, leaves, path(t, order))
        found.lower[i] = _data(chain[-2], n)
        found.differenced_under[i] = _zero_by_underflow(chain[-2], n)
        graphs.append((chain[-1], _rounding_scale(chain[-2], n, moving=moving,
                                                  stencil=True)))
    return graphs


def _chain(y, leaves, names) -> list:
    """f and its derivatives in names[0], then in names[1] of that, and so on (x, x: f,
    f', f''; y, x: f, ∂f/∂y, ∂²f/∂x∂y), each a graph (None once a derivative is 0)."""
    chain, g = [y], y
    growth = drivers.Growth(len(names))
    for step, name in enumerate(names):
        if g is None or not g.requires_grad or name not in leaves:
            g = None
        else:
            with growth.pass_(step):
                g = drivers.differentiate(g, leaves, create_graph=True).get(name)
        chain.append(g)
    return chain


def derivative_values(f: Expression, names, at) -> np.ndarray:
    """f's derivative along ``names`` (as ``path`` orders them) at the points ``at``: in
    one variable by Taylor mode, a mixed partial by nested reverse passes (as diff(f, y,
    x) takes it: Taylor mode here runs along one direction)."""
    if names and not f.moving(names)[-1]:   # a constant F, taken as a function of x
        return np.zeros(np.broadcast_shapes(*(np.shape(at[v]) for v in f.variables)))
    if len(set(names)) <= 1:
        return f.float64_nth_derivative(names[0], len(names), at).derivative if names else \
            f.float64_value(at)
    arrays = np.broadcast_arrays(*[np.asarray(at[v], dtype=np.float64) for v in f.variables])
    run = _Run(f, arrays, arrays[0].shape, watching=False)
    run.kinked = list(dict.fromkeys(names))
    return _data(_chain(run.forward(), run.leaves, names)[-1], arrays[0].size)


# No variable moves: a step's exactness at the point is its exactness (see _exact)
AT_THE_POINT = frozenset()


def _moving(targets, order: int) -> frozenset:
    """The variables the check differentiates in: a value computed without them is the
    same at every step of the differences, so its exactness at the point holds there too."""
    return frozenset(name for t in targets for name in (t.name, *path(t, order)) if name)


def _rounding_scale(y, n: int, overflow: bool = False, moving=None,
                    stencil: bool = False) -> np.ndarray:
    """sum |dy/dv| |v| over y's intermediates v: times eps, a first-order bound on the
    rounding error in y (each operation rounds its result by about an ulp). With
    ``overflow``, inf where an intermediate is not finite: a user's formula that overflows
    on the way (exp(-x)/(1+exp(-x))^2 at x = -800) gives a value that means nothing. An
    exact value (``_exact``; computed without the variables ``moving``, None: all) has no
    rounding to multiply. With ``stencil``, the scale stands for the steps of finite
    differences around the point too (see _absorbed)."""
    if y is None:
        return np.zeros(n)
    if not isinstance(y, Variable) or y.creator is None:
        return np.abs(_data(y, n))
    variables = y.ancestry()
    exact = _exact(variables, moving, stencil)
    terms = _scaled_terms(y, variables, exact)
    total, flagged = np.zeros(n), np.zeros(n)
    for v in (v for v in variables if overflow and v.creator is not None):
        flagged = flagged + np.where(np.isfinite(v.data), 0.0, np.inf)
    for term in terms:
        total = total + term
    if np.any(np.isinf(total)):
        # A sum of finite terms past the float range (exp(709)'s, each near 8e307) is no
        # overflow of y: its bound, eps times it, is far inside the range. Taken as the
        # largest float, it is understated by the few terms' share only.
        shrunk = sum(term * SHRINK for term in terms)
        total = np.where(np.isinf(total) & np.isfinite(shrunk), np.finfo(float).max, total)
    return total + flagged


# Seeds of the reverse pass again where a slope overflowed at seed 1 (see _scaled_terms):
# down to the smallest float, as a slope can be up to about 2^2100 (y/b of a y near
# the top of the range over a b near the bottom)
SEEDS = (2.0 ** -256, 2.0 ** -512, 2.0 ** -768, 2.0 ** -1022, 2.0 ** -1074)


def _scaled_terms(y, variables, exact) -> list[np.ndarray]:
    """|dy/dv| |v| per intermediate v (_terms). A slope past the float range can make a
    term far inside it: -1/x^2 at x = 1e-100 has d/d(x^2) = 1/x^4 = 1e400, times x^2 =
    1e-200 (the rule's y/b of a y of 1e200, over 1e-200). The pass is linear in its seed:
    where a term is not finite while v is, it is taken from a pass seeded smaller, over
    that seed, the first that gives it finite (the larger a seed, the fewer slopes it
    loses below the range); past the float range itself, the largest float."""
    terms, finite_v = _seeded_terms(y, variables, exact, 1.0)
    for seed in SEEDS:
        # (an overflow is an inf term; a nan one alone is a slope's own, x^w's at x < 0)
        if not any(np.any(np.isinf(t) & f) for t, f in zip(terms, finite_v)):
            break
        again = [~np.isfinite(t) & f for t, f in zip(terms, finite_v)]
        seeded, _ = _seeded_terms(y, variables, exact, seed)
        for k, (term, redo, other) in enumerate(zip(terms, again, seeded)):
            fixed = redo & np.isfinite(other)
            if fixed.any():
                terms[k] = np.where(fixed, np.minimum(other / seed, np.finfo(float).max), term)
    return terms


def _seeded_terms(y, variables, exact, seed: float) -> tuple[list, list]:
    """_terms from a reverse pass of y seeded with ``seed``, and where each term's v is
    finite."""
    for v in variables:
        v.grad = None
    if seed != 1.0:
        y.grad = Variable(np.full_like(y.data, seed), requires_grad=False)
    # (a constant's slope too: pi is not the number meant, see _constant_term)
    # (only one that may be rounded: a backward pass into every 2 and 60 is paid for nothing)
    constants = [v for v in variables
                 if _constant(v) and not v.requires_grad and np.any(_rounded(v.data))]
    for v in constants:
        v.requires_grad = True
    try:
        y.backward(retain_grad=True)
    finally:
        for v in constants:
            v.requires_grad = False
    terms = list(_terms(variables, exact))
    finite = [np.isfinite(v.data) for v in variables if _termed(v)]
    for v in variables:
        v.grad = None
    return terms, finite


def _constant(v) -> bool:
    """Whether Variable v is a constant of the graph (pi, 1.1, a rule's 2), not a step or
    a variable."""
    return v.creator is None and v.name is None


def _termed(v) -> bool:
    """Whether v adds a term to the rounding scale (once y.backward has run)."""
    return v.grad is not None and (v.creator is not None or _constant(v))


# A constant's rounding, as a share of a step's allowance (ROUNDING ulps): half an ulp
_HALF_ULP = 0.5 / ROUNDING


def _constant_term(v, g) -> np.ndarray:
    """|dy/dc| |c| HALF_ULP for a constant c whose value may be rounded: pi, 1.1, pi/2 (a
    constant step, folded as one). cos x against sin(x + pi/2) at pi/2 is 6e-17 against
    1.2e-16: sin(x + pi) at the float nearest pi, 1.2e-16 from it, which is not the pi
    meant. A constant whose significand has at most 40 bits (2, 0.5, 3/4, 1e10) is taken
    as exact: the number written."""
    size = np.abs(v.data)
    return np.where(_rounded(size) & (g != 0), np.abs(g) * size * _HALF_ULP, 0.0)


def _rounded(value) -> np.ndarray:
    """Whether a constant's value may be a rounded one: finite, its significand more than
    40 bits (pi, 1.1; not 2, 0.5, 3/4, 1e10, the numbers written)."""
    significand, _ = np.frexp(np.abs(value))
    return np.isfinite(value) & ((significand * 2.0 ** 40) % 1 != 0)


def _terms(variables, exact):
    """|dy/dv| |v| per intermediate v, once y.backward has run (see _rounding_scale), and
    a constant's share (_constant_term)."""
    for v in variables:
        if _termed(v) and v.creator is None:
            yield _constant_term(v, v.grad.data)
        elif v.creator is not None and v.grad is not None:
            g = v.grad.data
            # An exact value has no rounding (so sqrt's infinite slope at an exact 0,
            # sqrt(x^2) at 0, multiplies nothing, nor x^w's nan slope in an exact w = n - 1
            # at x < 0).
            size, nothing = _rounded_size(v.data), g == 0
            if exact[id(v)] is not False:
                size, nothing = np.where(exact[id(v)], 0.0, size), nothing | exact[id(v)]
            yield np.where(nothing, 0.0, np.abs(g) * size)


def _rounded_size(v) -> np.ndarray:
    """|v|, whose ROUNDING ulps (times EPS) bound the rounding of the step that made it;
    below the normal range one unit (wider._UNIT, 2^-1074) more: there a step rounds into
    that spacing, half a unit (a faithful libm's under one) on top of its relative error,
    not ROUNDING ulps of the smallest normal (8 units: 9.4% of e^-740 = 85 units, where
    -1.1 e^-x passed)."""
    size = np.abs(v)
    return np.where(size < TINY, size + _UNIT / (ROUNDING * EPS), size)


def _exact(variables, moving=None, stencil: bool = False) -> dict:
    """Per Variable (by id), where its value has no rounding in it: leaves and constants,
    a 0 computed from exact arguments unless it is an underflow (0 from arguments finite and
    not 0, for a primitive without exact zeros: exp(-800)), and a result of + - * / ^ or
    negation from exact arguments that the operation did not round (``_error_free``: n - 1
    at n = 3, 2k + 1, (-1)^k), where it is computed without the variables ``moving`` (None:
    any variable), as it then is at every step of finite differences too. Such a value
    multiplies no rounding error, whatever its slope: x^(n-1)'s slope in n - 1, x^2 ln x,
    is nan at x < 0. (x^2 at 0 is exact; 1 - cos(x)^2 at 1e-9, whose cos rounded to 1, is
    not.) A 0 an exact 0 argument absorbs the others into is exact too (_absorbed)."""
    exact = {id(v): v.creator is None for v in variables}
    moves = {id(v): v.creator is None and v.name is not None
             and (moving is None or v.name in moving) for v in variables}
    for v in sorted((v for v in variables if v.creator is not None),
                    key=lambda v: v.generation):   # arguments first
        inputs, moves[id(v)] = True, any(moves.get(id(x), True) for x in v.creator.inputs)
        for x in v.creator.inputs:
            inputs = inputs & exact.get(id(x), False)
        absorbed = _absorbed(v, exact, moves if stencil else None)
        if not np.any(inputs):
            exact[id(v)] = absorbed
            continue
        zero = (v.data == 0) & ~np.asarray(_underflow(v))
        exact[id(v)] = inputs & (zero if moves[id(v)] else zero | _error_free(v)) | absorbed
    return exact


def _absorbed(v, exact, moves=None) -> np.ndarray | bool:
    """Where Variable v is 0 because an argument that absorbs the others is an exact 0,
    whatever their rounding: a product with it (2x e^(x^2) at 0, whose e^(x^2) rounds),
    it over a number, it to a positive power. (A 0 by cancellation, sin(x) - x at 1e-9,
    is not exact, and absorbs nothing.) With ``moves`` (per Variable, whether it is
    computed from a variable differentiated in), only a 0 that does not move: for steps
    around the point, (x-2)^2 (x+1) at 2 is h^2 (3 + h), rounded."""
    kind, args = type(v.creator), v.creator.inputs
    absorbing = args if issubclass(kind, Mul) else args[:1] if issubclass(kind, (Div, Pow)) \
        else ()
    zero = np.zeros(np.shape(v.data), bool)
    for x in absorbing:
        if moves is None or not moves.get(id(x), True):
            zero = zero | (exact.get(id(x), False) & (x.data == 0))
    if issubclass(kind, Pow):
        zero = zero & (args[1].data > 0)
    return zero & (v.data == 0) if zero.any() else False


def _error_free(v) -> np.ndarray | bool:
    """Where Variable v is its operation's exact result on its arguments' values
    (functions.exact_step)."""
    return exact_step(v.creator, [x.data for x in v.creator.inputs], v.data)


def _expectation(e: Expression, points, n: int, graph: bool = False, moving=None,
                 slopes: bool = False):
    """The expectation's values and rounding scale: inf where it overflowed on the way, 0
    where it is undefined (see ``undefined``); with ``graph``, also where a step of it
    underflowed to 0 (``_underflowed``), and with ``slopes`` its _slopes too. (``moving``:
    see _exact.)"""
    arrays = [points[v] for v in e.variables]
    y = _Run(e, arrays, (n,), watching=False).forward()
    value = _data(y, n)
    scale = np.maximum(_rounding_scale(y, n, overflow=True, moving=moving), np.abs(value))
    scale = np.where(np.isnan(value) & ~_met_infinity(y, n), 0.0, scale)
    if not graph:
        return value, scale
    return (value, scale, _underflowed(y, n)) + ((_slopes(y, n),) if slopes else ())


def _slopes(y, n: int) -> dict:
    """Per variable v that y is computed from, dy/dv (one reverse pass over y's graph: of
    AD's derivative, the derivative one order higher), for _point_rounding."""
    if not isinstance(y, Variable) or y.creator is None:
        return {}
    variables = y.ancestry()
    for v in variables:
        v.grad = None
    y.backward()
    slopes = {v.name: _data(v.grad, n) for v in variables
              if v.creator is None and v.name is not None and v.grad is not None}
    for v in variables:
        v.grad = None
    return slopes


# Slopes this close (relatively) are one function's, apart only by rounding
LOOSE_SLOPES = 1e-8


def _point_rounding(points, slope: dict, other: dict, n: int) -> np.ndarray:
    """Per point, how far two numbers of these _slopes can move apart as each coordinate
    moves by half its ulp, as a rounding scale (times ROUNDING * EPS, see _bound). A point
    typed is the number meant only to half an ulp: x = pi/2 is 6e-17 off it, and cos x is
    6e-17 there, where the 0 meant is right. Where the slopes agree to LOOSE_SLOPES (the
    same function, sin(2x) and 2 sin x cos x) they move alike: nothing, wherever x is. Nor
    where half an ulp of x is more than SETTLED: the slope is no model of a move that long
    (sin(2x) turns 1e84 times within one at 5e100), and both are computed at the float."""
    # (n, not the points' length: a constant f has no variable to take it from)
    total = np.zeros(n)
    for name, x in points.items():
        a, b = slope.get(name, 0.0), other.get(name, 0.0)
        apart = np.abs(a - b)
        apart = np.where(apart > LOOSE_SLOPES * np.maximum(np.abs(a), np.abs(b)), apart, 0.0)
        half = np.spacing(np.abs(x)) / 2
        term = np.where(half <= SETTLED, apart * half / (ROUNDING * EPS), 0.0)
        total = total + np.where(np.isfinite(term), term, 0.0)
    return total


def _capped_sum(a, b) -> np.ndarray:
    """a + b, two rounding scales, the largest float where two finite ones pass it (as
    _rounding_scale's sum: exp(x) at 709.7, its scale near the top already)."""
    with np.errstate(over="ignore"):
        total = a + b
    return np.where(np.isinf(total) & np.isfinite(a) & np.isfinite(b), np.finfo(float).max,
                    total)


def _typed_points(f, found: _Found, targets, order, points, typed: int) -> None:
    """At points typed (not drawn), the rounding of the point (_point_rounding): of AD
    against the expectation where there is one (it joins the expectation's rounding scale,
    _judge_target), else of AD alone, against central differences that vanish
    (_flat_witness: sin x at pi/2, where cos x is 6e-17, is a 0 within it). Only where the
    slopes hold at the neighbouring floats (_slopes_hold), and at the first ``typed``
    points alone: a point drawn is exactly its float."""
    n = len(found.value)
    for i, t in enumerate(targets):
        term = _point_rounding(points, found.slope[i], found.expected_slope.get(i, {}), n)
        term[typed:] = 0.0
        found.point[i] = np.where(_slopes_hold(f, t, i, order, points, found, term > 0),
                                  term, 0.0)


def _slopes_hold(f, t: Target, i, order, points, found: _Found, where) -> np.ndarray:
    """Where (of ``where``) AD's gap to the expectation (AD itself without one) is finite
    at the neighbouring floats of each coordinate and no larger at the point than at both:
    a pole within half an ulp is a spike there (tan x at the float nearest pi/2 is 1.6e16,
    -6.2e15 one float up and 3.6e15 one down); the gap goes through infinity, not 0, and a
    wrong expectation must not match by it (2x + tan x against x^2's 2x). A zero of any
    order is no spike (cos(x)^3's derivative at pi/2: -1.1e-32 between -2.4e-31 and
    -7.8e-32, which a linear move would not predict)."""
    held = np.zeros(len(where), bool)
    if not where.any():
        return held
    at = {name: np.asarray(x)[where] for name, x in points.items()}
    gap0 = _gap(f, t, order, at)
    noise = ROUNDING * EPS * (found.expected_scale.get(i, found.ad_scale[i])
                              + found.ad_point_scale.get(i, found.ad_scale[i]))[where]
    ok = np.isfinite(gap0)
    for name in at:
        around = np.zeros_like(gap0)
        for towards in (-np.inf, np.inf):
            moved = dict(at, **{name: np.nextafter(at[name], towards)})
            with np.errstate(all="ignore"):
                gap = _gap(f, t, order, moved)
            ok &= np.isfinite(gap)
            around = np.fmax(around, np.abs(gap))
        ok &= np.abs(gap0) <= around + noise
    held[where] = ok
    return held


def _gap(f, t: Target, order, at) -> np.ndarray:
    """AD minus the expectation (AD alone without one) at the points ``at``: by reverse
    passes, as _evaluate takes AD (Taylor mode's rounding differs)."""
    n, names = _shape(at)[0], path(t, order)
    with np.errstate(all="ignore"):
        run = _Run(f, [at[v] for v in f.variables], (n,), watching=False)
        run.kinked = list(dict.fromkeys(names))
        ad = _data(_chain(run.forward(), run.leaves, names)[-1], n)
        if t.expectation is None:
            return ad
        return ad - _expectation(t.expectation, at, n)[0]


def _exact_zero(e: Expression, points, n: int, value, scale) -> np.ndarray:
    """Where the expectation is a 0 with no rounding in it at the point itself: 3x^2 - 3
    at x = 1, 3 - 3; not 1 - tanh(x)^2 at x = 25, whose tanh rounded to 1. Its scale cannot
    say so: it is kept for the steps around the point too, where a product of a variable
    differentiated in is never exact (``_exact``); here, at the point, nothing moves."""
    zero = value == 0
    if not np.any(zero & (scale > 0)):
        return zero & (scale == 0)
    y = _Run(e, [points[v] for v in e.variables], (n,), watching=False).forward()
    return zero & (_rounding_scale(y, n, moving=frozenset()) == 0)


def _underflowed(y, n: int) -> np.ndarray:
    """Where a step of y's computation came out 0 from arguments finite and not 0, which
    only rounding does for a primitive without exact zeros (exp(-900), 1e-200 * 1e-200;
    not x - x or log 1): a 0 there is no value to compare (a sign error would match)."""
    under = np.zeros(n, bool)
    if not isinstance(y, Variable):
        return under
    for v in y.ancestry():
        under |= np.broadcast_to(_underflow(v), (n,))
    return under


def _zero_by_underflow(y, n: int) -> np.ndarray:
    """Where y is 0 made by an underflow on its way (see _underflowed)."""
    zero = _data(y, n) == 0
    return zero & _underflowed(y, n) if zero.any() else zero


def _underflow(v):
    """Where Variable v is 0 from arguments finite and not 0 (False where it cannot be):
    an underflow, for a primitive without exact zeros."""
    c = v.creator
    falling = isinstance(c, PowDiff)
    if c is None or not np.any(v.data == 0) or \
            (getattr(type(c), "exact_zeros", True) and not falling):
        return False    # (a Flat rule, or diff's graph, may have exact zeros: no claim)
    zero = v.data == 0
    for x in c.inputs:
        zero = zero & (x.data != 0) & np.isfinite(x.data)
    if falling:     # (b)_k a^(b-k) is exactly 0 only where a factor b - i is (x^1's x'')
        b = c.inputs[1].data
        zero = zero & np.logical_and.reduce([b - i != 0 for i in range(c.order)])
    return zero


def _met_infinity(y, n: int) -> np.ndarray:
    """Where a step of y's computation was inf (an overflow or a pole, after which nan
    means nothing: inf/inf)."""
    met = np.zeros(n, bool)
    if isinstance(y, Variable):
        for v in y.ancestry():
            met = met | np.isinf(v.data)
    return met


def undefined(expected, scale) -> np.ndarray:
    """Where an expectation is nan with every step finite or nan: outside its domain
    (sqrt(x)/sqrt(x) at x < 0), so it is not the derivative there; counted, as a
    difference, where f' is finite."""
    return np.isnan(expected) & (scale == 0)


# ----- finite differences --------------------------------------------------------------------

ROWS, RATIO = 14, 2.0
LADDERS = (0.25, 0.25 * 2.0 ** -8)   # first steps (times the point's scale) of two ladders
FINER = (1.0, 2.0 ** -10, 2.0 ** -20, 2.0 ** -30)   # the ladders' steps again, times these
TOWERS = 4.0           # |f| at x this many times its size at x +- h: f is not smooth there


def step_scale(x: np.ndarray) -> np.ndarray:
    """The step's scale at x: |x| below 1 (so a stencil never reaches 0, where log, sqrt
    and powers have their edges), 1 above, and never below 2^-20 |x| (so x + h differs
    from x by many ulps); 1 at x = 0."""
    s = np.where(x == 0, 1.0, np.minimum(np.abs(x), 1.0))
    return np.maximum(s, np.abs(x) * 2.0 ** -20)


def richardson(func, x: np.ndarray, side: str = "central", first: float = LADDERS[0]):
    """Ridders' method: differences over steps h, h/2, h/4, ... extrapolated to h = 0;
    returns (estimate, error estimate, the smallest step used) per point. ``side`` is
    "central" (error series in h^2) or "left"/"right" (one-sided, series in h)."""
    h = _taken(x, first * step_scale(x) * RATIO ** -np.arange(ROWS)[:, None])
    ladder = np.broadcast_to(x, h.shape)
    if side == "central":
        up, down, power = ladder + h, ladder - h, 2
    elif side == "right":
        up, down, power = ladder + h, ladder, 1
    else:
        up, down, power = ladder, ladder - h, 1
    table = (func(up) - func(down)) / (up - down)   # up - down: the steps actually taken
    return _extrapolate(table, h, power)


def _taken(x, h):
    """The steps h as floats take them at x: (|x| + h) - |x| (exact), so that x + h and
    x - h are exact and centred on x. Within a few ulps of x the ladder's steps round:
    2.98 ulps to 3 and 1.49 to 1 (a ratio of 3, not RATIO), 1.49 and 0.745 both to 1 (one
    step twice, whose rows agree exactly and fake convergence), below half an ulp to 0;
    the extrapolation takes the ratios of the steps taken, and no ratio of 1."""
    size = np.abs(x)
    return (size + h) - size


def _extrapolate(table, h, power):
    """Neville's scheme in h^power over the steps h taken (a ratio RATIO where they are
    exact); an entry from two rows of one step, or of none, is nan, its error inf."""
    best, error, step = table[0].copy(), np.full(table.shape[1:], np.inf), h[0].copy()
    previous = table
    for j in range(1, table.shape[0]):
        factor = (h[:-j] / h[j:]) ** power
        factor = np.where(factor > 1.0, factor, np.nan)     # (1: one step twice; 0/0)
        current = (factor * previous[1:] - previous[:-1]) / (factor - 1.0)
        err = np.maximum(np.abs(current - previous[1:]), np.abs(current - previous[:-1]))
        err = np.where(np.isnan(err), np.inf, err)
        k = np.argmin(err, axis=0)[None]
        e = np.take_along_axis(err, k, 0)[0]
        better = e < error
        best = np.where(better, np.take_along_axis(current, k, 0)[0], best)
        step = np.where(better, np.take_along_axis(h[j:], k, 0)[0], step)
        error = np.where(better, e, error)
        previous = current
    return best, error, step


def _differenced(f: Expression, names, points, rows: int = ROWS):
    """The function finite differences work on, along the last of ``names`` (``path``'s):
    f itself for a first derivative, else adcli's derivative along the others (so each
    witness differs in its last step): ∂f/∂y for ∂²f/∂x∂y, differenced in x."""
    name = names[-1]
    fixed = {v: np.tile(points[v], rows) for v in f.variables if v != name}

    def func(xs):
        values = derivative_values(f, names[:-1], {**fixed, name: np.ravel(xs)})
        return np.broadcast_to(values, (xs.size,)).reshape(xs.shape)
    return func


def _differences(f, names, points, scale_before, side="central", finer=1.0):
    """differences' (estimate, error) of f along names, and the step it settled at."""
    func, x = _differenced(f, names, points), points[names[-1]]
    return _ridders(func, x, _known(func, x, scale_before), side, finer)


def differences(func, x: np.ndarray, rounding: np.ndarray, side: str = "central",
                finer: float = 1.0):
    """(estimate, error) by Richardson extrapolation on two ladders of steps, 256 times
    apart: the better estimate, with an error that covers what rounding in ``func`` can do
    at its smallest step (``rounding``: func's rounding scale at x) and how far the two
    ladders disagree (one ladder alone can settle on a wrong value when its steps are too
    coarse for an oscillation, as sin(x^2) has at x = 400). ``func`` maps an array of
    shape (ROWS, n) elementwise. ``finer`` scales both ladders' steps."""
    return _ridders(func, x, _known(func, x, rounding), side, finer)[:2]


def _known(func, x, rounding):
    """``rounding`` (func's rounding scale at x), where it is inf (at a kink: cbrt(x^3)
    at 0) the size of func's value instead."""
    rounding = np.broadcast_to(rounding, x.shape)
    unknown = ~np.isfinite(rounding)
    if unknown.any():
        here = func(np.broadcast_to(x, (ROWS, *x.shape)))[0]
        rounding = np.where(unknown, np.abs(np.nan_to_num(here)), rounding)
    return rounding


def _ridders(func, x, rounding, side, finer):
    """differences' (estimate, error), and the step of the ladder picked that the
    estimate settled at."""
    runs = []
    for first in LADDERS:
        estimate, error, step = richardson(func, x, side, first * finer)
        runs.append((estimate, error + ROUNDING * EPS * rounding / step, step))
    (e1, r1, s1), (e2, r2, s2) = runs
    pick = np.nan_to_num(r2, nan=np.inf) < np.nan_to_num(r1, nan=np.inf)
    estimate, error = np.where(pick, e2, e1), np.where(pick, r2, r1)
    return estimate, np.fmax(error, np.abs(e1 - e2)), np.where(pick, s2, s1)


# steps of 1, 2, 4, ... 512 ulps of x (with the steps of FINER's runs: ROWS, as func takes)
ULPS = RATIO ** np.arange(ROWS - len(FINER))


def _refuted_by_ulps(func, x, rounding, runs) -> np.ndarray:
    """Per central estimate of ``runs`` ((estimate, error, the step H it settled at)),
    where the differences over ULPS up to 2H refute it. Were f smooth at the scale of H,
    as the error model the estimate was extrapolated with has it, a difference over a step
    s would be off f' by (s/H)^2 of the one over H: within the estimate's error, its own
    rounding and |D(H) - estimate| (s/H)^2 of the estimate. (Beyond 2H, the ladder's step
    above H, the model need not hold: near tan's poles a longer step reaches one.) Where
    f turns within a few ulps of x, steps of many ulps alias the turns: at 3.7e15 (an ulp
    of 0.5) sin turns once per 12.6 ulps, the ladders settle on 1.4e-9 +- 5.5e-9 where
    cos(x) is -0.048, and over one ulp the difference is cos(x) sin(0.5)/0.5 = -0.046.
    Where rounding in f is larger than its change over an ulp (sin(x*y), whose product
    rounds), the longer of ULPS may witness instead; where it is larger at all of them,
    they refute nothing.

    f's rounding is a bound (ROUNDING ulps of its rounding scale per value), allowed once,
    where the estimate's error and truncation, estimates, are allowed ten times: tenfold it
    swallowed what f's values show where f's rounding is near the size of its turns. At
    1.1e14 3x rounds by 0.03 and cos turns every 134 ulps: cos(3x) at x +- 32 ulps differs
    by 1.98, where a smooth f of slope ~0 has 0 within twice its rounding (2 x 0.59). Where
    that bound is larger than f's turns (cos(3x) beyond 4e14), the values show nothing
    beyond it at any step: an estimate none of whose own differences beats f's rounding
    (the one over H within it) and which the differences over ULPS stray from beyond its
    model is refuted too; the differences cannot tell f's turns from its rounding there."""
    h = np.concatenate([ULPS[:, None] * _taken(x, np.spacing(np.abs(x))),
                        [step for _, _, step in runs]])
    quotient = (func(x + h) - func(x - h)) / (2 * h)    # (x +- h exact: steps taken)
    s, at_ulps, refuted = h[:len(ULPS)], quotient[:len(ULPS)], []
    noise = ROUNDING * EPS * rounding
    for (estimate, error, step), at_step in zip(runs, quotient[len(ULPS):]):
        model = error + np.abs(at_step - estimate) * (s / step) ** 2
        off = np.where(s <= RATIO * step, np.abs(at_ulps - estimate), 0.0)
        floor = FD_RTOL * np.maximum(np.abs(at_ulps), np.abs(estimate))
        strays = off > np.maximum(floor, 10 * model)      # (nan: refutes nothing)
        beyond_noise = strays & (off > 10 * model + noise / s)
        unresolved = step * np.abs(at_step) <= noise
        refuted.append(np.any(beyond_noise, axis=0) | np.any(strays, axis=0) & unresolved)
    return np.array(refuted)


def _one_sided_steps(f, names, points, where, scale_before, value, scale):
    """Left and right derivatives at the points ``where`` along the last of ``names``
    (path's), or, where an earlier step's do not agree, that step's: ∂²f/∂x∂y of x|y| at
    y = 0 has ∂f/∂y = x sign(y) to difference in x, smooth in x, but ∂f/∂y itself does
    not exist there. Also per point: the index of the step whose they are (-1: the last),
    whether the derivative exists, how far AD's sides may be off (nan where finite
    differences gave them: _one_step), and where whether it exists is not known.
    ``value``: f at the points, the derivative below the first step (_one_step's here);
    ``scale``: the rounding scale of the derivative itself (``scale_before``: of the one
    below it), the size of the terms AD's sides may be off by a few ulps of."""
    n = len(where)
    left, right, error = (np.full(n, np.nan) for _ in range(3))
    exists, unknown, step = np.zeros(n, bool), np.zeros(n, bool), np.full(n, -1)
    open_, here = where.copy(), value
    for j in range(len(names)):
        last = j == len(names) - 1
        # (no rounding scale kept for the lower derivatives: inf takes the value's size)
        before = scale_before if last else np.full(n, np.inf)
        # (AD's sides' rounding is of their terms' size: known for the last two steps)
        own = scale if last else scale_before if j == len(names) - 2 else np.zeros(n)
        sides = _one_step(f, names[:j + 1], points, open_, before, here,
                          (own, scale_before if last else np.zeros(n)))
        # (the last step's sides are shown in any case; an earlier one's where it does
        # not exist, and where that is not known, the derivative's is not either)
        done = open_ if last else open_ & ~sides.exists
        left[done], right[done], error[done] = \
            sides.left[done], sides.right[done], sides.error[done]
        if not last:
            step[done] = j
        exists[done], unknown[done] = sides.exists[done], sides.unknown[done]
        open_ &= ~done
        here = sides.value
    return left, right, step, exists, unknown, error


@dataclass
class _Step:
    """One step's left and right derivatives (see _one_step), per point."""

    left: np.ndarray
    right: np.ndarray
    error: np.ndarray       # how far AD's sides may be off; nan: finite differences'
    exists: np.ndarray
    unknown: np.ndarray     # (then ``exists`` is False)
    value: np.ndarray       # the derivative at the point where it exists (nan elsewhere)


def _one_step(f, names, points, where, scale_before, here, scales) -> _Step:
    """At the points ``where``, the left and right derivatives along ``names`` (path's,
    differenced along the last). They are AD's own derivatives just beside the point,
    extrapolated to it (adcli.sides.one_sided), where AD can say: it resolves a jump of
    1 beside 1e8 (1e8 sin(x) + max(x, 0) at 0: 1e8 and 1e8 + 1), which one-sided
    differences, good to ONE_SIDED_RTOL, take for agreement. Their verdict stands where
    they agree (to within how far they may be off) and the derivative one order lower
    (``here`` at the point) does not jump there, or where they are twice that apart, or
    it jumps (acot at 0 from the left: f from -pi/2 to pi/2; that side is nan). Elsewhere
    (a kink beside the point, as abs(x - x) has everywhere; limits that creep, as x
    cbrt(x)'s beside 0 do, d^(1/3)) finite differences witness, as before, except in a mixed
    partial: there a kink beside the point is the lower derivative's (|x||y| at the
    origin: ∂f/∂y = |x| sign(y) is a convention along y = 0), which differences of AD's
    number there cannot see through, so whether the derivative exists is not known.
    ``scales``: the rounding scales of the derivative and of the one below it (0: none
    known), per point."""
    n = len(where)
    fd_left, fd_right, unsure = _one_sided(f, names, points, where, scale_before)
    exists = _exists(fd_left, fd_right)
    # (differences that disagree by no more than their own error do not say that the
    # derivative does not exist: abs(x - x) + sin(x) at 1e-4, where f'' is -sin(x), and
    # the one-sided differences of f' = cos(x), -1e-4 +- 3e-7, do not settle)
    unsettled = where & ~exists & unsure
    step = _Step(fd_left, fd_right, np.full(n, np.nan), exists, unsettled,
                 np.full(n, np.nan))
    index = np.flatnonzero(where)
    if not index.size:
        return step
    sub = {v: p[index] for v, p in points.items()}
    here = np.broadcast_to(here, (n,))[index]
    if not np.isfinite(here).all():     # (AD's lower derivative is a convention: its own)
        here = np.where(np.isfinite(here), here,
                        derivative_values(f, names[:-1], sub) if len(names) > 1 else here)
    with np.errstate(all="ignore"):     # (nan and inf: AD cannot say there)
        return _by_ad(f, names, sub, here, index, step,
                      [np.broadcast_to(s, (n,))[index] for s in scales])


def _by_ad(f, names, sub, here, index, step, scales) -> _Step:
    """_one_step's verdict where AD's sides decide it, at the points ``index``."""
    from .sides import one_sided

    limits, errors, jumps = one_sided(f, names, sub, here, *scales)
    usable = np.all(np.isfinite(errors), axis=0)
    agree = np.abs(limits[1] - limits[0]) <= errors[0] + errors[1]
    jumped = np.any(jumps, axis=0)
    confirmed = usable & agree & ~jumped
    # (apart by twice what they may be off, so that an error estimate that is a little
    # short does not make a jump)
    apart = np.abs(limits[1] - limits[0]) > 2 * (errors[0] + errors[1])
    by_ad = confirmed | usable & (jumped | apart)
    # (a limit within its error of 0 is 0: x^(7/3)'s beside 0 are d^(4/3), extrapolated)
    shown = np.where(jumps, np.nan, np.where(np.abs(limits) <= errors, 0.0, limits))
    for k, side in enumerate((step.left, step.right)):
        side[index] = np.where(by_ad, shown[k], side[index])
    step.error[index] = np.where(by_ad, np.max(errors, axis=0), np.nan)
    mixed = len(set(names)) > 1
    step.exists[index] = confirmed | ~by_ad & step.exists[index] & ~mixed
    step.unknown[index] = ~by_ad & (mixed | step.unknown[index])
    # (the next step's ``here``: AD's number, unless a convention the sides refute)
    ad = np.broadcast_to(derivative_values(f, names, sub), index.shape)
    middle = (step.left[index] + step.right[index]) / 2
    kept = _exists(ad, middle) & ~confirmed
    step.value[index] = np.where(step.exists[index], np.where(kept, ad, middle), np.nan)
    return step


def _one_sided(f, names, points, where, scale_before):
    """Left and right derivatives at the points ``where`` (nan elsewhere or unsettled),
    and where they are within their own error of each other, each to within less than
    its own size (differences that grow as the step shrinks, sign(x)'s 1/h at 0, are not:
    what they difference jumps)."""
    n = len(where)
    left, right, unsure = np.full(n, np.nan), np.full(n, np.nan), np.zeros(n, bool)
    index = np.flatnonzero(where)
    if not index.size:
        return left, right, unsure
    sub = {v: p[index] for v, p in points.items()}
    func, x = _differenced(f, names, sub), sub[names[-1]]
    raw = []
    for side, out in (("left", left), ("right", right)):
        estimate, error, _ = _differences(f, names, sub, scale_before[index], side)
        settled = error <= SETTLED * np.abs(estimate)
        vanish = ~settled & (np.abs(estimate) <= error) & _power_law(func, x, side)
        out[index] = np.where(settled | (estimate == 0), estimate,
                              np.where(vanish, 0.0, np.nan))
        raw.append((estimate, error))
    (a, a_error), (b, b_error) = raw
    unsure[index] = (np.abs(a - b) <= a_error + b_error) & (a_error <= np.abs(a)) \
        & (b_error <= np.abs(b))
    return left, right, unsure


POWER_ROWS = 4          # the finest steps whose one-sided differences _power_law reads
POWER_RTOL = 1e-3       # how far apart their ratios may be


def _power_law(func, x, side) -> np.ndarray:
    """Where one-sided differences go to 0 as a power of the step, D(h) = a h^p with p > 0
    (x cbrt(x) at 0: h^(1/3)), which extrapolation in whole powers of h never settles:
    over the finest steps, halving h scales D by one ratio 2^-p below 1. (D = c + a h^p
    with c not 0 has ratios that creep up to 1.)"""
    h = _taken(x, LADDERS[1] * step_scale(x) * RATIO ** -np.arange(ROWS)[:, None])
    sign = 1.0 if side == "right" else -1.0     # (func takes ROWS rows: _differenced)
    with np.errstate(all="ignore"):
        table = (func(x + sign * h) - func(np.broadcast_to(x, h.shape))) / (sign * h)
        table = table[-POWER_ROWS:]
        ratio = table[1:] / table[:-1]
    steady = np.abs(ratio - ratio[-1]) <= POWER_RTOL * ratio[-1]
    return np.all(steady & (ratio > 0) & (ratio < 1.0 - 64 * POWER_RTOL), axis=0)


# ----- judging ---------------------------------------------------------------------------

def _relative(a, b) -> np.ndarray:
    scale = np.maximum(np.abs(a), np.abs(b))
    return np.where(a == b, 0.0, np.abs(a - b) / np.where(scale == 0, 1.0, scale))


def _close(e, a, e_scale, a_scale, rtol, atol) -> np.ndarray:
    """Equal up to rtol/atol and the rounding each formula can make."""
    return _allowance(e, a, e_scale, a_scale, rtol, atol) <= 2


def _allowance(e, a, e_scale, a_scale, rtol, atol) -> np.ndarray:
    """Per point, what e and a are equal within: 0 --rtol, 1 that and the rounding each
    formula can make, 2 those and --atol; 3 none (they differ)."""
    difference = np.abs(e - a)
    relative = rtol * np.maximum(np.abs(e), np.abs(a))
    rounding = relative + _bound(e_scale, a_scale)
    return np.select([difference <= relative, difference <= rounding,
                      difference <= rounding + atol], [0, 1, 2], 3)


LOST = ("no digit of {what} or the expectation is left there: the rounding error they can "
        "make is as large as both values ({cause}), so a wrong expectation would match "
        "as well as a right one")
LOST_HALF = ("not one digit of {what} or the expectation is sure there: the rounding error "
             "they can make is half the larger value or more ({cause}), so a wrong "
             "expectation, by a sign or a factor of 2 or more, would match as well as a right one")
LOST_SHARE = 2.0    # of an expectation: see _lost
# Why rounding can be all of a value: the first where it is normal, the second where both
# are below float64's normal range and each is made of a few units of 2^-1074.
LOST_CAUSES = ("cancellation", "both are below float64's normal range, where it keeps few "
               "digits")
LOST_AD = ("no digit of adcli's {what} may be left there: the rounding error it can make is "
           "as large as it and the finite differences are, so they would agree with anything")


def _bound(e_scale, a_scale) -> np.ndarray:
    """The rounding error two formulas of these rounding scales can make together; halved
    before the sum where that overflows (two scales near the largest float, exp(709))."""
    with np.errstate(over="ignore", invalid="ignore"):
        both = e_scale + a_scale
        past = np.isinf(both) & np.isfinite(e_scale) & np.isfinite(a_scale)
        if not np.any(past):
            return ROUNDING * EPS * both
        return np.where(past, 2 * (ROUNDING * EPS * (e_scale / 2 + a_scale / 2)),
                        ROUNDING * EPS * both)


def _lost(e, a, e_scale, a_scale, e_zero=None, share=1.0) -> np.ndarray:
    """Per point, the rounding bound where rounding may have made all of both values, 0
    elsewhere (cosh(x)^2 - sinh(x)^2 at x = 76 is 0, with a bound of 1e50): a match
    there says nothing, so nothing is decided, unless --atol, the size the user takes
    as nothing, is at least that bound.
    Where the expectation is an exact 0 (``e_zero``; by default where its scale is 0), or
    f's value is (x - x), the claim is that the other vanishes, and within its rounding
    error is all a float can say of that: f - g = 0 for an identity, the derivative 0 of
    sin(x)^2 + cos(x)^2, 2|x| - 1 at x = 1/2. A 0 made by cancellation is no such claim:
    5(1 - tanh(x)^2) at x = 25 is 0 as 1 - tanh(x)^2 is, with sech(x)^2 = 8e-22 to match.
    With ``share`` 2 (LOST_SHARE), a bound of half the larger value is enough: a value
    computed is off by up to its bound itself, so that 5(1 - tanh(x)^2) at x near 18 may
    come out 2e-14, its bound 1.8e-14, beside sech(x)^2 = 4e-15 (a factor of 5 within the
    bound; at half, no sign or factor of 2 or more is)."""
    rounding = _bound(e_scale, a_scale)
    e_zero = (e == 0) & (e_scale == 0) if e_zero is None else e_zero
    vanishes = e_zero | (a == 0) & (a_scale == 0)
    lost = (rounding > 0) & (share * rounding >= np.maximum(np.abs(e), np.abs(a))) & ~vanishes
    return np.where(lost, rounding, 0.0)


def _judge(f, targets, order, points, found, rtol, atol, sampled, seed,
           typed: int = 0) -> CheckResult:
    """(``typed``: how many of the points, first, the user typed, where sampled ones
    follow them, _look_wider's)"""
    n = found.value.shape[0]
    smooth_value = np.isfinite(found.value)
    expected_mode = any(t.expectation is not None for t in targets)
    _typed_points(f, found, targets, order, points, typed if sampled else n)
    for i, t in enumerate(targets):
        _judge_target(f, t, i, order, points, found, rtol, atol, smooth_value)
    status = _overall([t.status for t in targets], n)
    counted = int(np.sum((status == "match") | (status == "differs")))
    differing = int(np.sum(status == "differs"))
    no_derivative = int(np.sum(status == "no derivative"))
    skipped = int(np.sum(status == "skipped"))
    largest = _largest(targets, status)
    # (differences that settle nowhere are no fault of the points: "cannot tell")
    if counted == 0 and no_derivative == 0 and not _straddled(targets, status) and \
            not _unsettled(targets, status) and not _blinded(targets, status) and \
            not _sides_unknown(targets, status) and \
            not any(t.lost is not None and t.lost.any() for t in targets):
        raise ValuesError(_nothing_counted(f, n, expected_mode, targets, order, points))
    verdict = ("cannot tell" if counted == 0 else "differs" if differing else "matches")
    result = CheckResult(   # (int: the order, given or not, is a plain number)
        expression=f, order=int(order), targets=targets, points=points, value=found.value,
        status=status, verdict=verdict, summary="", counted=counted, differing=differing,
        no_derivative=no_derivative, skipped=skipped, largest_difference=largest,
        worst=_worst(targets, points, status), kinks=_kink_rows(targets, points),
        diagnosis=[], notes=[], diagnostics=found.diagnostics, rtol=rtol, atol=atol,
        sampled=sampled, seed=seed, expected_mode=expected_mode)
    result.summary = _summary(result)
    if verdict == "differs" and expected_mode:
        from .slips import diagnose  # only once an expectation differs

        result.diagnosis = diagnose(f, targets, order, points, found, status)
    result.notes = _long_double_notes(result, found) + _notes(result)
    return result


def _judge_target(f, t: Target, i, order, points, found, rtol, atol, smooth_value):
    """Fill in t's witnesses and a status per point."""
    t.ad, ad_scale = found.ad[i], found.ad_scale[i]
    t.wide, t.float64, t.blind = found.wide[i], found.float64[i], found.blind[i]
    t.blind_why = BLIND.format(of=_differenced_label(t, order, f)) if order else ""
    agree, settled, nowhere = _witnesses(f, t, i, order, points, found, smooth_value)
    t.why = _why_skipped(t, i, found, smooth_value, nowhere)
    usable = (t.why == "") & ~nowhere
    t.status = np.full(len(t.ad), "skipped", dtype=object)
    t.by_sides = np.zeros(len(t.ad), bool)
    if t.expectation is not None:
        # (a point's rounding is a small move of it, but not across a pole: tan x at the
        # float nearest pi/2 is sure of sec(x)^2, and 1/cos(x) differs)
        e_scale = _capped_sum(found.expected_scale[i],
                              np.where(t.pole == "", found.point.get(i, 0.0), 0.0))
        at_point = found.ad_point_scale[i]
        t.allowance = _allowance(t.expected, t.ad, e_scale, at_point, rtol, atol)
        t.difference = _relative(t.expected, t.ad)
        e_zero = found.expected_zero[i]
        lost = _lost(t.expected, t.ad, e_scale, at_point, e_zero, LOST_SHARE)
        larger = np.maximum(np.abs(t.expected), np.abs(t.ad))
        if order:   # (without an expectation AD itself is on trial, convention and all)
            t.by_sides = usable & _convention_only(t, found.kink & smooth_value)
            sides, at = (t.left + t.right) / 2, t.by_sides
            # (one-sided differences are good to about ONE_SIDED_RTOL, not to rtol; AD's
            # sides to within their error, taken as a rounding scale's share)
            by_differences = np.isnan(t.sides_error)
            t.allowance[at] = _allowance(
                t.expected, sides, e_scale,
                np.where(by_differences, 0.0, t.sides_error / (ROUNDING * EPS)),
                np.where(by_differences, max(rtol, ONE_SIDED_RTOL), rtol), atol)[at]
            t.difference[at] = _relative(t.expected, sides)[at]
            lost[at] = _lost(t.expected, sides, e_scale, 0.0, e_zero, LOST_SHARE)[at]
            larger[at] = np.maximum(np.abs(t.expected), np.abs(sides))[at]
        same = t.allowance <= 2
        t.allowance[same & (lost > 0)] = 2      # (decided only because --atol >= the bound)
        _over_terms(t, e_scale, ad_scale)
        t.lost = usable & same & (lost > atol)
        what = "f" if order == 0 else "adcli's derivative"
        # (two 0s are no values below the normal range: a 0 that rounding made, and not
        # underflow, which is not counted apart, is a cancellation's, sin(x) - x at 1e-9)
        below = (larger < TINY) & (larger > 0)
        for cause, where in zip(LOST_CAUSES, (~below, below)):
            t.why[t.lost & where] = LOST.format(what=what, cause=cause)
            t.why[t.lost & where & (lost < larger)] = LOST_HALF.format(what=what, cause=cause)
        usable &= ~t.lost
        t.status[usable] = np.where(same[usable], "match", "differs")
        # (at a kink the left and right derivatives witness, and the kink's words say so;
        # where AD is 0 to within its rounding, or a typed point's, and inside the
        # differences' bound, they witness that 0, as without an expectation: cos at pi/2)
        # (AD's own move as each coordinate moves by half an ulp: its slopes against none)
        moved = _point_rounding(points, found.slope.get(i, {}), {}, len(t.ad))
        size = np.abs(t.ad)
        zero = (size <= ROUNDING * EPS * np.maximum(ad_scale, moved)) & \
            (size <= np.abs(t.fd) + t.fd_error)
        t.unsettled = usable & ~found.kink & np.isfinite(t.fd) & ~settled & ~zero
        t.overflow &= usable    # (judged by AD alone there: a note says why)
        disagree = usable & ~found.kink & settled & ~agree
        # (AD decides; a pole says why the differences disagree, or did not settle)
        t.pole[~(usable & ~found.kink & ~(settled & agree))] = ""
        t.fd_disagrees = disagree & (t.pole == "")
    else:
        sided = _judged_by_ad_sides(t, usable & ~settled & found.kink)
        usable &= ~sided
        t.pole[~usable] = ""
        t.why[usable] = t.pole[usable]
        usable &= t.pole == ""
        # (x^2 at 1e-200: f is 0 over the stencil, as if flat; unusable as the point is,
        # unless long double has f's true value: t.blind says why then)
        under = usable & found.differenced_under.get(i, False) & ~t.blind
        t.why[under] = UNDERFLOWED.format(of=_differenced_label(t, order, f))
        usable &= ~under
        # (agreeing within the error of estimates that did not settle says nothing: at x
        # = 1e-20, exp's differences are 0 +- 1.4e6; nor does agreeing within AD's own
        # rounding bound where it is as large as both: sin(1e15 x) at 1.7)
        judged = usable & settled
        t.why[usable & ~judged] = UNSETTLED
        # (the derivative differenced at order 2 and more is kept only where one chunk ran)
        differenced = found.value if order == 1 else found.lower.get(i, np.inf)
        t.why[usable & ~judged & (np.abs(differenced) < TINY)] = UNSETTLED_SMALL.format(
            of=_differenced_label(t, order, f))
        t.why[usable & ~judged & np.isfinite(t.flat)] = FLAT_UNSURE
        t.why[usable & ~judged & np.isfinite(t.flat) & t.converging] = CONVERGING_UNSURE
        t.overflow &= usable & ~judged     # (where it is why the point is not counted)
        t.why[t.overflow] = OVERFLOWED.format(of=_differenced_label(t, order, f))
        t.why[usable & t.blind] = t.blind_why
        # (where f is flat the claim is that f' vanishes, judged as an expectation of 0 is)
        t.lost = judged & (_lost(t.fd, t.ad, 0.0, ad_scale) > 0) & np.isnan(t.flat)
        t.why[t.lost] = LOST_AD.format(what="derivative" if order == 1 else t.label)
        judged &= ~t.lost
        t.difference = _relative(t.ad, t.fd)
        # (relative to a derivative of 0 every AD differs by 1: where f is flat, AD is
        # judged against its terms' size, as its rounding is)
        flat = t.terms = np.isfinite(t.flat)
        t.difference[flat] = _of_terms(t.ad, ad_scale)[flat]
        t.status[judged] = np.where(agree[judged], "match", "differs")
        t.fd_disagrees = judged & ~agree
        t.status[sided] = np.where(_is_sides(t, t.ad)[sided], "match", "differs")
    t.status[nowhere] = "no derivative"


def _judged_by_ad_sides(t: Target, where) -> np.ndarray:
    """Of the points ``where`` (kinks where finite differences do not settle), those where
    AD's own sides (not one-sided differences) say the derivative exists: there AD is
    judged against them, a number they agree on being as good a witness as settled
    differences (x|x| at 0: sides 0 and 0; f is ±d² beside 0, and its
    differences do not settle). In the table their value stands for the differences
    (a note says so); AD's convention that they refute differs (log(1 + |x|)^2 at 0:
    f'' from either side is 2, AD's 0)."""
    t.ad_sides = where & t.exists & (t.kink_step == -1) & np.isfinite(t.sides_error)
    sides = (t.left + t.right) / 2
    t.fd, t.fd_error = (np.where(t.ad_sides, a, b) for a, b in
                        ((sides, t.fd), (t.sides_error, t.fd_error)))
    t.flat = np.where(t.ad_sides, np.nan, t.flat)   # (judged by them, not by a bound)
    return t.ad_sides


def _differenced_label(t: Target, order: int, f: Expression) -> str:
    """What t's finite differences difference: f, or adcli's derivative one order lower."""
    names = path(t, order)
    return "f" if len(names) == 1 else f"adcli's {_path_label(names[:-1], f)}"


def _over_terms(t: Target, e_scale, ad_scale) -> None:
    """Beside an exact 0 (an expectation of 0, or AD's), any other value differs by 1
    relatively, a right answer's rounding too (arctan(x) + arctan(1/x) against 0): where
    the two agree to within rounding, ``difference`` is |E - AD| over the size of the
    terms, as where f is flat (elsewhere 1 says it: x^2 against 0, or a match that only
    --atol makes)."""
    t.terms = ((t.expected == 0) != (t.ad == 0)) & (t.allowance <= 1) & ~t.by_sides
    size = np.maximum(e_scale, ad_scale)
    t.difference[t.terms] = _of_terms(t.expected - t.ad, size)[t.terms]


def _of_terms(ad, ad_scale) -> np.ndarray:
    """|AD| relative to the size of the terms it is made of (1 where they have none)."""
    size = np.abs(ad)
    return np.where(size == 0, 0.0, size / np.where(ad_scale > 0, ad_scale, size))


def _witnesses(f, t: Target, i, order, points, found, smooth_value):
    """Finite differences against AD: (agree, settled), per point, and where they do not
    agree, whether their steps straddle a pole (``t.pole``); and at kinks, the left and
    right derivatives, and where they differ (no derivative: ``nowhere``)."""
    n = len(t.ad)
    t.pole, t.flat = np.full(n, "", dtype=object), np.full(n, np.nan)
    t.converging, t.overflow = np.zeros(n, bool), np.zeros(n, bool)
    t.exists, t.sides_unknown = np.zeros(n, bool), np.zeros(n, bool)
    if order == 0:
        t.fd = t.fd_error = t.left = t.right = t.sides_error = np.full(n, np.nan)
        return np.ones(n, bool), np.ones(n, bool), np.zeros(n, bool)
    t.fd, t.fd_error, step = found.fd[i]
    witness = ~t.blind     # (the differences of a function float64 has wrong: _by_long_double)
    agree, settled = _fd_agrees(t.ad, t.fd, t.fd_error, found.ad_scale[i])
    settled &= witness
    doubt = np.flatnonzero(~(settled & agree) & np.isfinite(t.fd) & witness)
    finer = np.ones(n)
    if doubt.size:  # before AD is blamed, or a wide error is taken: what do finer steps say?
        t.fd, t.fd_error = t.fd.copy(), t.fd_error.copy()
        t.fd[doubt], t.fd_error[doubt], finer[doubt] = _finer(f, t, order, points, doubt,
                                                             found.fd_scale[i], step)
        agree, settled = _fd_agrees(t.ad, t.fd, t.fd_error, found.ad_scale[i])
        settled &= witness
    agree, settled = _flat_witness(f, t, i, order, points, found,
                                   ~(settled & agree) & smooth_value & witness, agree, settled)
    t.pole = _poles(f, path(t, order), points,
                    ~(settled & agree) & smooth_value & ~found.kink & witness, finer)
    t.overflow = _overflows(f, path(t, order), points,
                            ~settled & smooth_value & ~found.kink & witness & (t.pole == ""))
    kinks = found.kink & smooth_value
    t.left, t.right, t.kink_step, t.exists, t.sides_unknown, t.sides_error = \
        _one_sided_steps(f, path(t, order), points, kinks, found.fd_scale[i], found.value,
                         found.ad_scale[i])
    t.fd, t.fd_error = (np.where(t.blind, np.nan, a) for a in (t.fd, t.fd_error))
    return agree, settled, kinks & ~t.exists & ~t.sides_unknown


def _flat_witness(f, t: Target, i, order, points, found, where, agree, settled):
    """At the points ``where`` (finite differences did not settle on AD's value, and no
    kink adcli knows of: those are the kink rules'), where the central differences of f
    vanish to within its rounding (_flat: f constant there, or symmetric about x): they
    bound |f'| by B, and nothing below it. So AD agrees only where it is itself 0 to
    within its rounding error, and B is within SETTLED of a size a derivative there has
    (the terms AD's is made of: 2 sin x cos x - 2 cos x sin x for sin(x)^2 + cos(x)^2,
    or the slope f shows beside x: cos at 0); it differs where it is beyond B and its
    rounding error, with B within SETTLED of AD or those terms (a wrong rule). A small
    AD within B (1e-9 beside the 1 of sin(x)^2 + cos(x)^2 + 1e6) is not 0, and the
    differences cannot tell it from 0: not counted (FLAT_UNSURE).
    Where f keeps no digit (its rounding above SETTLED of its value), "constant to within
    its rounding" may say nothing: cos(3x) at 2e15 (3x rounds by 0.25, and cos turns every
    4 ulps of x) has values anywhere in [-1, 1] and a rounding bound of 1.05 (at 4e15, 21),
    so it is "constant" within it over any step; so is log(exp(x)) - x, whose values are
    rounding around 0. Rounding bounds cannot tell the two apart (one ulp of cos(3x)'s
    rounding scale is larger than cos), but the derivative can: there the differences
    witness only where AD is within B and its rounding, and adcli's derivative is within
    (ten times) B at x -+ h over the first ladder's steps too, as a vanishing f's is (a
    wrong rule there is not caught: the point is not counted). (agree, settled) updated;
    Where they do not vanish but converge to 0 (_towards_zero: x^3 - 3x at 1), their bound
    is judged the same way (t.converging says where).
    t.fd and t.fd_error (0 and B) and t.flat (B's step) set where they witness, and
    t.flat where they cannot tell."""
    names, ad_scale = path(t, order), found.ad_scale[i]
    bound, step, digits, slope = _flat(f, names, points, where & ~found.kink,
                                       found.fd_scale[i])
    # (where they do not vanish, they may converge to 0: a bound of the same kind)
    converging = _towards_zero(f, names, points, where & ~found.kink & np.isnan(bound),
                               found.fd_scale[i], t.fd, t.fd_error)
    t.converging = np.isfinite(converging[0])
    bound, step, slope = (np.where(t.converging, new, old)
                          for new, old in zip(converging, (bound, step, slope)))
    digits = digits | t.converging     # (their values resolve f's change: _towards_zero)
    size, rounding = np.abs(t.ad), ROUNDING * EPS * ad_scale
    zero = size <= rounding                     # (AD itself says 0)
    # (or 0 to within a typed point's rounding, _typed_points, where B allows it too: at a
    # pole, tan x at the float nearest pi/2, that rounding is larger than AD's 2.7e32, and
    # B, 7e13, is not)
    zero |= (size <= ROUNDING * EPS * found.point.get(i, 0.0)) & (size <= bound)
    # (f the same float at every step (slope inf) witnesses an AD with no terms, exactly
    # 0, as d/dx 3 is; where AD has terms, as sin(x)^2 + cos(x)^2 at 1e-21, B must be
    # small beside them)
    slope = np.where(np.isinf(slope) & ((ad_scale > 0) | (size > 0)), 0.0, slope)
    beyond = size > bound + rounding            # (nan: not flat)
    # (the terms' size, not AD's value alone: a right AD of 0 has none; nan: not flat)
    witness = bound <= SETTLED * np.where(zero, np.maximum(ad_scale, slope),
                                          np.maximum(size, ad_scale))
    vanishing = witness & ~digits
    if vanishing.any():     # (ten times: x -+ h may round more than x, near tan's poles)
        witness[vanishing] = ~beyond[vanishing] & \
            _quiet(f, names, points, vanishing, 10 * bound)[vanishing]
    if not witness.any():
        return agree, settled
    t.fd, t.fd_error = t.fd.copy(), t.fd_error.copy()
    t.fd[witness], t.fd_error[witness] = 0.0, bound[witness]
    t.flat[witness] = step[witness]
    counted = witness & (zero | beyond)
    return np.where(counted, zero, agree), np.where(witness, counted, settled)


def _flat(f, names, points, where, scale_before):
    """At the points ``where``, where the central differences of the function differenced
    (along the last of ``names``, as _differenced's) vanish to within its rounding: over
    every step h of both ladders, |f(x+h) - f(x-h)| is within twice ROUNDING ulps of its
    rounding scale (each value rounds by that much at most). They vanish where f is
    constant to within its rounding, and where it is symmetric about x (x^2 - 2x at 1).
    A function that changes by more than its rounding over any of the 28 steps does not
    (1e-13 x beside the 1 of sin(x)^2 + cos(x)^2). Where they vanish they bound |f'| by
    the difference over the finest step h and f's rounding over h, not over the longest
    one: a feature narrower than the long steps hides under them (1e-16 tanh(1e6 (x-2))
    at 2, f' = 1e-10). Returns that bound and h (nan where they do not vanish), whether f
    keeps digits at x (its rounding within SETTLED of its value), and the slope f shows
    beside x: its larger one-sided change over the longest step, over that step (inf
    where f has the same float at x and every step: 3, d²/dx² x² = 2)."""
    n = len(where)
    bound, finest, digits, slope = (np.full(n, np.nan), np.full(n, np.nan),
                                    np.zeros(n, bool), np.zeros(n))
    index = np.flatnonzero(where)
    if not index.size:
        return bound, finest, digits, slope
    sub = {v: p[index] for v, p in points.items()}
    func, x = _differenced(f, names, sub), sub[names[-1]]
    noise = ROUNDING * EPS * _known(func, x, scale_before[index])
    flat, same = np.isfinite(noise), np.ones(x.size, bool)
    at = _differenced(f, names, sub, rows=1)(x)     # (func takes ROWS rows of points)
    for first in LADDERS:
        h = _taken(x, first * step_scale(x) * RATIO ** -np.arange(ROWS)[:, None])
        up, down = func(x + h), func(x - h)     # (x +- h exact: steps taken)
        change = up - down
        flat &= np.all(np.abs(change) <= 2 * noise, axis=0)     # (nan: not flat)
        same &= np.all((up == at) & (down == at), axis=0)
        if first == LADDERS[0]:
            sides = np.maximum(np.abs(up[0] - at), np.abs(at - down[0]))
            slope[index] = np.nan_to_num(sides / h[0])
    slope[index[same]] = np.inf
    over, step = change[-1] / (2 * h[-1]), h[-1]
    flat &= step > 0
    bound[index[flat]] = (np.abs(over) + noise / step)[flat]
    finest[index[flat]] = step[flat]
    digits[index] = noise <= SETTLED * np.abs(at)
    return bound, finest, digits, slope


def _towards_zero(f, names, points, where, scale_before, estimate, error):
    """At the points ``where`` (the central differences of the function differenced, as
    _differenced's, do not vanish), where they converge to 0 as the step shrinks, as at a
    stationary point that is no symmetric one (x^3 - 3x at 1: D(h) = h^2): the
    extrapolated ``estimate`` is within its ``error`` of 0, which no relative criterion
    settles on. They bound |f'| as vanishing ones do (_flat), by the difference over the
    finest step and f's rounding over it, and by the extrapolation's |estimate| + error
    where that is larger, so that a feature narrower than the long steps, or below f's
    rounding over them (1e-16 tanh(1e6 (x-1)) beside x^3 - 3x, f' = 1e-10), is not
    bounded away. Only where f's values resolve how it changes beside x (its rounding
    within SETTLED of its change over the longest step): where f turns within a few ulps
    (cos(3x) at 1e14), rounding can fake the convergence. Returns (bound, that finest
    step, the slope f shows beside x, as _flat's), nan where they do not converge to 0."""
    n = len(where)
    bound, finest, slope = np.full(n, np.nan), np.full(n, np.nan), np.full(n, np.nan)
    index = np.flatnonzero(where & np.isfinite(error) & (np.abs(estimate) <= error))
    if not index.size:
        return bound, finest, slope
    sub = {v: p[index] for v, p in points.items()}
    x = sub[names[-1]]
    noise = ROUNDING * EPS * _known(_differenced(f, names, sub), x, scale_before[index])
    h = _taken(x, LADDERS[1] * step_scale(x) * RATIO ** -(ROWS - 1))   # the finest
    longest = _taken(x, LADDERS[0] * step_scale(x))
    at, up, down, far_up, far_down = _differenced(f, names, sub, rows=5)(
        np.stack([x, x + h, x - h, x + longest, x - longest]))  # (x +- h exact: taken)
    sides = np.maximum(np.abs(far_up - at), np.abs(at - far_down))
    over = np.maximum(np.abs(up - down) / (2 * h) + noise / h,
                      np.abs(estimate[index]) + error[index])
    converges = (h > 0) & np.isfinite(over) & (noise <= SETTLED * sides)
    bound[index[converges]] = over[converges]
    finest[index[converges]] = h[converges]
    slope[index[converges]] = (sides / longest)[converges]
    return bound, finest, slope


def _quiet(f, names, points, where, bound) -> np.ndarray:
    """Per point of ``where``: whether adcli's derivative (along ``names``) is within
    ``bound`` at x -+ h for every step h of the first ladder, as the derivative of an f
    constant there is (False elsewhere)."""
    quiet = np.zeros(len(where), bool)
    index = np.flatnonzero(where)
    sub = {v: p[index] for v, p in points.items()}
    x = sub[names[-1]]
    h = _taken(x, LADDERS[0] * step_scale(x) * RATIO ** -np.arange(ROWS)[:, None])
    derivative = _differenced(f, (*names, names[-1]), sub)     # (adcli's, not f's)
    around = np.concatenate([derivative(x + h), derivative(x - h)])
    quiet[index] = np.all(np.abs(around) <= bound[index], axis=0)   # (nan: not quiet)
    return quiet


def _overflows(f, names, points, where) -> np.ndarray:
    """Per point of ``where`` (finite differences did not settle): whether the function
    they difference (along ``names``, as _differenced's) is finite at x and overflows to
    inf at x -+ h for a step h of their ladders (x*y at x = 1e308, y = 1.8): they have
    no number to difference there, however smooth f is (False elsewhere)."""
    over = np.zeros(len(where), bool)
    index = np.flatnonzero(where)
    if not index.size:
        return over
    sub = {v: p[index] for v, p in points.items()}
    func, x = _differenced(f, names, sub), sub[names[-1]]
    beyond = np.zeros(index.size, bool)
    for first in LADDERS:
        h = _taken(x, first * step_scale(x) * RATIO ** -np.arange(ROWS)[:, None])
        beyond |= np.any(np.isinf(func(x + h)) | np.isinf(func(x - h)), axis=0)
    over[index] = beyond & np.isfinite(_differenced(f, names, sub, rows=1)(x))
    return over


def _why_skipped(t: Target, i, found, smooth_value, nowhere) -> np.ndarray:
    """Per point, why it cannot be counted ("" where it can)."""
    why = np.full(len(t.ad), "", dtype=object)
    finite_ad = np.isfinite(t.ad) & np.isfinite(found.ad_scale[i])
    if t.expectation is not None:
        t.expected = found.expected[i]
        scale = found.expected_scale[i]
        finite = np.isfinite(t.expected) & np.isfinite(scale) | undefined(t.expected, scale)
        why[~finite] = "the expectation is not finite there, or overflows on the way"
    why[found.under[i]] = f"adcli's derivative or the expectation is 0 there by underflow " \
                          f"{UNDERFLOW_WHY}"
    if t.name is None:  # (an identity: no derivative, and f's value is named as such)
        f_under, e_under = found.ad_under[i], found.expected_under[i]
        for where, zero in ((f_under, "f is"), (e_under, "the expectation is"),
                            (f_under & e_under, "f and the expectation are")):
            why[where] = f"{zero} 0 there by underflow {UNDERFLOW_WHY}"
    why[~finite_ad] = "adcli's derivative is not finite there"
    sided = ~finite_ad & found.kink & t.exists
    why[sided] = (
        "adcli's derivative is not finite there (a convention at a kink), though its left "
        "and right derivatives agree that the derivative exists")
    if t.expectation is not None:   # (then judged against those sides: _convention_only)
        why[sided & (t.kink_step == -1)] = ""
    why[t.sides_unknown & found.kink] = (SIDES_UNKNOWN if t.names else SIDES_UNSETTLED) \
        .format(label=t.label)
    why[~smooth_value] = "f is not finite there"
    return why


def _fd_agrees(ad, fd, fd_error, ad_scale):
    """(AD and finite differences agree, finite differences settled), per point."""
    larger = np.maximum(np.abs(ad), np.abs(fd))
    within = np.where(fd_error == np.inf, 0.0, 10 * fd_error)  # inf: refuted (_finer)
    agree = np.abs(ad - fd) <= np.maximum(FD_RTOL * larger, within) \
        + ROUNDING * EPS * ad_scale
    return agree, np.isfinite(fd) & (fd_error <= SETTLED * larger)


def _finer(f, t: Target, order, points, index, scale_before, step) -> tuple:
    """Finite differences at the points ``index``, where they did not settle or disagree
    with AD, taken again with steps 2^10, 2^20 and 2^30 times finer. An oscillation faster
    than the steps can make both ladders settle on one wrong value (sin(x^3) at x = -962
    turns once per 2e-6), or on nothing (cos(x^2) at 407: -3.9 +- 274 where it is -278),
    and extrapolation cannot tell; a step short enough can. An estimate is refuted by a
    finer one outside both errors, or by the differences over 1, 2, 4, ... ulps of x
    (_refuted_by_ulps: where f turns within a few ulps, no step resolves it). The first
    that settled and is not refuted is taken; if there is none and the first is refuted,
    the error is inf (the point is not counted); else the first stays as it was (``step``:
    where each point's first estimate, t.fd's, settled). Also per point, the FINER factor
    of the steps the estimate kept was made with."""
    sub = {v: p[index] for v, p in points.items()}
    func, x = _differenced(f, path(t, order), sub), sub[path(t, order)[-1]]
    rounding = _known(func, x, scale_before[index])
    runs = [(t.fd[index], t.fd_error[index], step[index])] + \
        [_ridders(func, x, rounding, "central", finer) for finer in FINER[1:]]
    by_ulps = _refuted_by_ulps(func, x, rounding, runs)
    # (across a pole the differences witness nothing, and _poles says so: the ulps, most
    # likely straddling it too, are not asked)
    by_ulps &= _poles(f, path(t, order), sub, by_ulps.any(axis=0), np.ones(index.size)) == ""
    runs = [run[:2] for run in runs]
    fd, error, factor = runs[0][0].copy(), runs[0][1].copy(), np.ones(index.size)
    taken, refuted = np.zeros(index.size, bool), []
    for k, (estimate, err) in enumerate(runs[:-1]):
        refuted.append(by_ulps[k].copy())
        for deeper, deeper_error in runs[k + 1:]:
            same, _ = _fd_agrees(estimate, deeper, err + deeper_error, 0.0)
            # (a deeper estimate without an error, from one step alone, refutes nothing)
            refuted[k] |= np.isfinite(deeper) & np.isfinite(deeper_error) & ~same
        take = ~taken & ~refuted[k] & np.isfinite(estimate) & (err <= SETTLED * np.abs(estimate))
        fd[take], error[take], factor[take] = estimate[take], err[take], FINER[k]
        taken |= take
    error[~taken & refuted[0]] = np.inf
    return fd, error, factor


def _poles(f, names, points, where, finer) -> np.ndarray:
    """Per point of ``where`` (where finite differences did not settle on AD's value), why
    they witness nothing ("" elsewhere): every step of the estimate kept spans a pole of
    the function differenced (``names``, as _differenced's). Its values on the stencil of
    the finest of those steps, h (and 2h, 4h, 8h), say so: |f| rises towards x from both
    sides, as 1/(x - p)'s does, and at x it is TOWERS times its size at x +- h, as no f
    smooth at the scale of h can be. A point near a pole whose finer steps are clear of
    it (where a wrong derivative rule is caught) shows neither."""
    why = np.full(len(where), "", dtype=object)
    index = np.flatnonzero(where)
    if not index.size:
        return why
    name, sub = names[-1], {v: p[index] for v, p in points.items()}
    x = sub[name]
    h = LADDERS[1] * RATIO ** -(ROWS - 1) * finer[index] * step_scale(x)
    k = np.array([0.0, -1, 1, -2, 2, -4, 4, -8, 8])[:, None]
    y = _differenced(f, names, sub, len(k))(x + k * h)
    size = np.abs(y)
    rises = np.all(size[1:-2] > size[3:], axis=0)    # |f(x -+ h)| > |f(x -+ 2h)| > ...
    pole = np.all(np.isfinite(y), axis=0) & rises & \
        (size[0] > TOWERS * np.maximum(size[1], size[2]))
    of, it = ("f", "f") if len(names) == 1 else (f"adcli's {_path_label(names[:-1], f)}",
                                                 "it")
    head, between = f"finite differences straddle a pole of {of}", f"{name}-h and {name}+h"
    why[index[pole]] = np.where(
        np.sign(y[1]) != np.sign(y[2]),
        f"{head} ({it} changes sign through infinity between {between})",
        f"{head} ({it} goes to infinity between {between}, without changing sign)")[pole]
    return why


def _exists(left, right) -> np.ndarray:
    both = np.isfinite(left) & np.isfinite(right)
    return both & (np.abs(left - right) <= ONE_SIDED_RTOL * np.maximum(np.abs(left),
                                                                        np.abs(right)))


def _is_sides(t: Target, values) -> np.ndarray:
    """Per point: whether ``values`` (AD's) are t's left and right derivatives' value, to
    within how far AD's sides may be off and rounding, or where one-sided differences gave
    them, ONE_SIDED_RTOL (_one_step)."""
    by_differences = np.isnan(t.sides_error)

    @np.errstate(all="ignore")
    def near(side):
        larger = np.maximum(np.abs(values), np.abs(side))
        allowed = np.where(by_differences, ONE_SIDED_RTOL * larger,
                           t.sides_error + 64 * EPS * larger)
        return np.isfinite(values) & np.isfinite(side) & (np.abs(values - side) <= allowed)
    return near(t.left) & near(t.right)


def _convention_only(t: Target, kinks) -> np.ndarray:
    """At the points ``kinks`` (where left and right derivatives were taken), where f is
    differentiable (they agree, in the derivative's last step) but AD gave another value,
    or none: the kink's convention, not f's derivative (|x| sign(x) = x at 0, where AD
    gives sign's 0 and f' is 1; sqrt(x^4) = x^2 at 0, where sqrt's infinite slope at 0
    times 0 gives nan and f' is 0)."""
    return kinks & t.exists & (t.kink_step == -1) & ~_is_sides(t, t.ad)


def _straddled(targets, status) -> int:
    """The points not counted because finite differences straddle a pole there."""
    return int(np.sum((status == "skipped") & np.any(
        [(t.status == "skipped") & (t.pole != "") for t in targets], axis=0)))


def _blinded(targets, status) -> int:
    """The points not counted because f (or the derivative finite differences work on) is
    wrong in float64 there, so that they witness nothing (_by_long_double)."""
    return int(np.sum((status == "skipped") & np.any(
        [(t.status == "skipped") & (t.why == t.blind_why) & (t.why != "") for t in targets],
        axis=0)))


def _sides_unknown(targets, status) -> int:
    """The points not counted because whether the derivative exists is not known there
    (SIDES_UNKNOWN)."""
    return int(np.sum((status == "skipped") & np.any(
        [(t.status == "skipped") & (t.sides_unknown if t.sides_unknown is not None else False)
         for t in targets], axis=0)))


def _unsettled(targets, status) -> int:
    """The points not counted because finite differences do not settle there (an
    overflow within their step among the reasons)."""
    return int(np.sum((status == "skipped") & np.any(
        [(t.status == "skipped") & (np.isin(t.why, (FLAT_UNSURE, CONVERGING_UNSURE))
                                    | [str(why).startswith(UNSETTLED) for why in t.why]
                                    | _overflowing(t))
         for t in targets], axis=0)))


def _overflowing(t: Target) -> np.ndarray:
    """Per point: not counted because f overflows within the differences' step."""
    return (t.status == "skipped") & t.overflow


def _flat_points(targets, status) -> np.ndarray:
    """Per point: counted, and judged where f is constant to within its rounding (_flat)
    for every derivative checked there."""
    flat = (status == "match") | (status == "differs")
    for t in targets:
        flat &= ~_judged(t) | np.isfinite(t.flat) if t.flat is not None else False
    return flat


def _overall(statuses, n) -> np.ndarray:
    """Per point: differs if any derivative differs, then no derivative, then skipped."""
    overall = np.full(n, "match", dtype=object)
    for what in ("skipped", "no derivative", "differs"):
        for s in statuses:
            overall[s == what] = what
    return overall


def _judged(t: Target) -> np.ndarray:
    return (t.status == "match") | (t.status == "differs")


def _largest(targets, status) -> float:
    """The largest relative difference over the counted points; nan where none was
    counted ("cannot tell": a 0 would read as a perfect match). Where f is flat (_flat),
    the verdict line says 0 to within rounding, not a relative difference: those points
    (|AD| over its terms) are left out unless they are all there is; with an expectation
    that line says no such thing, and they count as the table shows them."""
    counted = (status == "match") | (status == "differs")
    pairs = [(t, counted & _judged(t)) for t in targets]
    values = np.concatenate([t.difference[at & (np.isnan(t.flat) | (t.expected is not None))]
                             for t, at in pairs])
    if not values.size:
        values = np.concatenate([t.difference[at] for t, at in pairs])
    return float(values.max()) if values.size else float("nan")


def _at(points, index: int) -> dict:
    return {v: float(p[index]) for v, p in points.items()}


def _row(t: Target, points, index: int) -> Row:
    def get(a):
        return None if a is None else float(a[index])
    return Row(index, _at(points, index), t.name, t.label, get(t.expected), get(t.ad),
               get(t.fd), get(t.difference), get(t.left), get(t.right), t.derivative,
               t.terms is not None and bool(t.terms[index]),
               t.unsettled is not None and bool(t.unsettled[index]))


def _worst(targets, points, status) -> list[Row]:
    pairs = []
    for t in targets:
        for index in np.flatnonzero(_judged(t)):
            rank = (t.status[index] == "differs", float(t.difference[index]))
            pairs.append((rank, t, int(index)))
    pairs.sort(key=lambda p: p[0], reverse=True)
    return [_row(t, points, index) for _, t, index in pairs[:WORST]]


def differentiable_at_kinks(result: CheckResult) -> np.ndarray:
    """Per point: True where f is differentiable although a function in it is not (x|x|,
    |x|^3 and x^2 sign(x) at 0): every derivative checked has left and right derivatives
    that agree, and AD gave that value, so the kink's convention decided nothing; or AD
    gave the convention and the expectation was judged against them (``judged_by_sides``:
    |x| sign(x) = x at 0, where AD's 0 is sign's convention and f' is 1)."""
    n = len(result.value)
    smooth = np.full(n, result.order > 0)
    for t in result.targets:
        smooth &= t.exists & (t.kink_step == -1) & (_is_sides(t, t.ad) | t.by_sides)
    return smooth


def judged_by_sides(result: CheckResult) -> np.ndarray:
    """Per point: True where an expectation was judged against f's left and right
    derivatives, which agree, instead of against AD's convention at a kink."""
    by_sides = np.zeros(len(result.value), bool)
    for t in result.targets:
        if t.by_sides is not None:
            by_sides |= t.by_sides
    return by_sides


def derivative_at_kinks(t: Target) -> np.ndarray:
    """t's derivative as judged per point: AD's, or where it was judged by its sides, the
    left and right derivatives' (which agree)."""
    if t.by_sides is None or not t.by_sides.any():
        return t.ad
    return np.where(t.by_sides, (t.left + t.right) / 2, t.ad)


def _kink_rows(targets, points) -> list[Row]:
    return [_row(t, points, int(index)) for t in targets
            for index in np.flatnonzero(t.status == "no derivative")]


def _nothing_counted(f, n, expected_mode, targets=(), order=1, points=None) -> str:
    for t in targets:
        nowhere = t.expectation is not None and not np.any(np.isfinite(t.expected))
        constant = nowhere and _constant_infinity(t)
        if constant:
            return f"the expected {t.label} is not finite at any of the {_s(n)} given: " \
                   f"{constant}"
    what = (f"are {_finite_parts_words(order, True)} finite (and not 0 by underflow)"
            if expected_mode else "are f and its derivative finite (and not 0 by "
            "underflow) with finite differences that settle")
    head = f"at none of the {_s(n)} given {what}"
    which = "" if points is None else \
        _given_not_finite(points, n) or _which_failed(f, targets, order, points, n)
    head, then = (f"{head}: {which}", "; ") if which else (head, ": ")
    # the variables to look along: those differentiated in, or given several values; the
    # others (a parameter, a = 3) keep theirs
    varied = [v for v in f.variables if any(v in path(t, order) for t in targets)
              or points is None or not _one_value(points[v])] or list(f.variables)
    fixed = {} if points is None else {v: points[v][0] for v in f.variables
                                       if v not in varied}
    given = [] if points is None else np.ravel(points[varied[0]])
    near = float(np.median(given)) if len(given) and np.isfinite(given).all() else 1.0
    advice = _domain_advice(f, targets, order, fixed, varied, near)
    if advice is None:
        return f"{head}{then}try other points, or random ones from a domain where they are " \
               f"({_any_domain()})"
    if not advice:
        return f"{head}{';' if which else ','} and adcli found no domain where they are, " \
               f"{_TRIED}"
    return f"{head}{then}try other points, or random ones from a domain where they are, " \
           f"e.g. {advice}"


def _given_not_finite(points, n: int) -> str:
    """Where every point given has a coordinate nan or inf (--at x=inf), that, in words
    ("" otherwise): f's nan or inf there is the point's, not an underflow or a domain."""
    bad = {v: ~np.isfinite(p) for v, p in points.items()}
    if not bad or not np.all(np.logical_or.reduce(list(bad.values()))):
        return ""
    if n == 1:
        said = listing([f"{v} = {float(p[0])}" for v, p in points.items() if bad[v][0]])
        return f"the point was given {said}, not a finite value (check compares finite ones)"
    names = listing([v for v, b in bad.items() if b.any()])
    return f"every point was given a value nan or inf (in {names}), not a finite one (check " \
        "compares finite ones)"


def _unsettled_words(r: CheckResult, unsettled: int) -> str:
    """Why finite differences settle at none of the points: where that is an overflow
    within their step at each, that (do not settle would send one looking at f's shape)."""
    over = [t for t in r.targets if _overflowing(t).any()]
    if not over or int(np.sum(np.any([_overflowing(t) for t in over], axis=0))) != unsettled:
        return "finite differences do not settle"
    of = list(dict.fromkeys(_differenced_label(t, r.order, r.expression) for t in over))
    return f"{listing(of)} overflow{'s' * (len(of) == 1)} to inf within the " \
           "finite-difference step"


def _s(count: int, word: str = "point") -> str:
    return f"{count} {word}{'s' * (count != 1)}"


def _labels(targets) -> str:
    return listing([t.label for t in targets])


def _summary(r: CheckResult) -> str:
    if r.verdict == "cannot tell" and r.no_derivative:
        return f"cannot tell: the derivative does not exist at the {_s(r.no_derivative)} checked"
    poles = _straddled(r.targets, r.status)
    if r.verdict == "cannot tell" and poles:
        where = f"the {_s(poles)}" if poles == len(r.value) else \
            f"{poles} of the {_s(len(r.value))}"
        return f"cannot tell: finite differences straddle a pole at {where} checked"
    unknown = _sides_unknown(r.targets, r.status)
    if r.verdict == "cannot tell" and unknown == len(r.value):
        return f"cannot tell: whether {_labels(r.targets)} exist{'s' * (len(r.targets) == 1)} " \
               f"is not known at the {_s(unknown)} checked (a kink lies beside " \
               f"{'it' if unknown == 1 else 'them'})"
    unsettled = _unsettled(r.targets, r.status)
    if r.verdict == "cannot tell" and unsettled and \
            not any(t.lost is not None and t.lost.any() for t in r.targets):
        where = f"the {_s(unsettled)}" if unsettled == len(r.value) else \
            f"{unsettled} of the {_s(len(r.value))}"
        return f"cannot tell: {_unsettled_words(r, unsettled)} at {where} checked"
    blinded = _blinded(r.targets, r.status)
    if r.verdict == "cannot tell" and blinded:
        where = f"the {_s(blinded)}" if blinded == len(r.value) else \
            f"{blinded} of the {_s(len(r.value))}"
        of = _differenced_label(r.targets[0], r.order, r.expression)
        return f"cannot tell: {of} is wrong in float64 at {where} checked, so finite " \
               "differences of it witness nothing"
    if r.verdict == "cannot tell" and not r.expected_mode:
        return f"cannot tell: rounding may leave no digit of adcli's {_labels(r.targets)} " \
               f"at the {_s(len(r.value))} checked"
    if r.verdict == "cannot tell":
        lost = "f" if r.order == 0 else "adcli's derivative"    # (as the note says it)
        return (f"cannot tell: rounding leaves no digit of {lost} "
                f"or the expectation at the {_s(len(r.value))} checked")
    what = _labels(r.targets)
    largest = f"largest relative difference {r.largest_difference:.2g}"
    if not r.expected_mode:
        # (points where it is 0 to within rounding are said apart, as "N more": the
        # relative difference is over the rest)
        rest = r.counted - int(np.sum(_flat_points(r.targets, r.status))) or r.counted
        head = (f"adcli's derivative agrees with finite differences for {what} at "
                f"{rest}/{rest} points, {_flat_words(r, largest)}"
                if r.verdict == "matches" else
                f"adcli's derivative and finite differences disagree for {what} at "
                f"{r.differing} of {_s(r.counted)}")
    elif r.verdict == "matches":
        head = f"matches {what} at {r.counted}/{r.counted} points, {largest}{_within(r)}" \
            + _unsettled_fd(r)
    else:
        head = f"differs from {what} at {r.differing} of {_s(r.counted)}"
        if len(r.targets) > 1:
            parts = [f"{t.label} at {int(np.sum(t.status == 'differs'))}"
                     if np.any(t.status == "differs") else f"{t.label} matches"
                     for t in r.targets]
            head = f"differs at {r.differing} of {_s(r.counted)} ({'; '.join(parts)})"
        head += _unsettled_fd(r)
    if r.no_derivative:
        where = "where the derivative does not exist"
        head += (f", except at {_s(r.no_derivative)} {where}" if r.verdict == "matches"
                 else f", and {_s(r.no_derivative)} {where}")
    return head


def _flat_words(r: CheckResult, largest: str) -> str:
    """The match's size: the largest relative difference, or where f's central
    differences vanish (_flat) or converge to 0 (_towards_zero), that its derivative is 0
    to within rounding (relative to a derivative of 0, a difference means nothing)."""
    flat = int(np.sum(_flat_points(r.targets, r.status)))
    if not flat:
        return largest
    # (at order 2 and above, what is differenced is adcli's derivative one order lower)
    what = "f" if r.order == 1 else "the derivative one order lower"
    kinds = _flat_kinds(r.targets)
    if flat == r.counted:
        doing = " or ".join(("vanishing to within its rounding", "converging to 0")[k]
                            for k in kinds)
        return f"0 to within rounding, the central differences of {what} {doing} there"
    do = " or ".join(("vanish to within its rounding", "converge to 0")[k] for k in kinds)
    return f"{largest}, and 0 to within rounding at {flat} more where the central " \
           f"differences of {what} {do}"


def _flat_kinds(targets) -> list[int]:
    """How the central differences bounded the derivatives judged by a bound (_flat): 0
    where they vanish, 1 where they converge to 0 (_towards_zero), each said once."""
    kinds = set()
    for t in targets:
        flat = np.isfinite(t.flat) & _judged(t)
        kinds |= set(np.unique(t.converging[flat].astype(int)).tolist())
    return sorted(kinds)


def _unsettled_fd(r: CheckResult) -> str:
    """Where finite differences did not settle at points judged against an expectation:
    the verdict there rests on AD and its rounding bound, and their number witnesses
    nothing (-93 beside AD's 0.1, shown so: a reader would take it for a third opinion)."""
    where = np.zeros(len(r.value), bool)
    for t in r.targets:
        if t.unsettled is not None:
            where |= t.unsettled & _judged(t)
    count = int(np.count_nonzero(where))
    if not count:
        return ""
    which, decided = ("that point", "it") if r.counted == 1 else \
        ("any of them", "them") if count == r.counted else \
        (f"{count} of them", "it" if count == 1 else "those")
    return f"; finite differences did not settle at {which}: AD and its rounding bound " \
           f"alone decided {decided}"


def _within(r: CheckResult) -> str:
    """What beyond --rtol the matches needed, as the verdict says it: a match that holds
    only thanks to --atol is the user's allowance, not rounding."""
    needed = {int(a) for t in r.targets if t.allowance is not None
              for a in t.allowance[t.status == "match"]}
    said = [words for level, words in ((1, "the rounding error of the formulas"),
                                       (2, f"--atol {r.atol:g}")) if level in needed]
    return f" (within {' and '.join(said)})" if said else ""


def _notes(r: CheckResult) -> list[str]:
    notes = []
    if r.expected_mode:
        bad = [t for t in r.targets if t.fd_disagrees is not None and t.fd_disagrees.any()]
        for t in bad:
            notes.append(
                f"{_disagree(r, t, t.fd_disagrees, ' where f is smooth')}: a pole or a "
                "feature narrower than the differences' steps, or else a bug in adcli or a "
                "kink it does not know about: please report that")
        for t in r.targets:
            at_pole = t.pole != ""
            if at_pole.any():
                notes.append(
                    f"{_disagree(r, t, at_pole)}: {t.pole[np.flatnonzero(at_pole)[0]]}; "
                    "across a pole or a feature narrower than the differences' steps they "
                    "witness nothing, and the expectation was judged by AD alone")
        notes += _blind_notes(r) + _overflow_notes(r)
    else:
        notes += [note for t in r.targets for note in _flat_notes(r, t)]
        notes += _ad_sides_notes(r)
    notes += _earlier_kinks(r)
    reasons: dict[str, int] = {}
    for index in np.flatnonzero(r.status == "skipped"):
        why = next(t.why[index] for t in r.targets if t.why[index])
        reasons[why] = reasons.get(why, 0) + 1
    for why, count in reasons.items():
        notes.append(f"{_s(count)} not counted: {why}")
    return notes


def _ad_sides_notes(r: CheckResult) -> list[str]:
    """Where AD was judged against its own left and right derivatives at a kink
    (_judged_by_ad_sides): what stands in the finite differences' column there."""
    notes = []
    for t in r.targets:
        at = t.ad_sides & _judged(t) if t.ad_sides is not None else None
        if at is not None and at.any():
            notes.append(f"{t.label} at {int(at.sum())} of {_s(r.counted)} was judged "
                         "against its left and right derivatives, which agree (a kink, "
                         "where finite differences do not settle): their value is shown "
                         "as the finite differences'")
    return notes


def _long_double_notes(r: CheckResult, found: _Found) -> list[str]:
    """Where long double's number stood in for float64's (_by_long_double): f's value (at order
    1 and above; at order 0 it is the number checked) and each derivative checked, at
    how many points, and the first point's two numbers."""
    said = [] if r.order == 0 else [
        _long_double_note(r, "the value of f", found.value_wide, r.value, found.value_float64,
                          "value", "value", "")]
    for t in r.targets:
        # (without an expectation, compared only where the differences witness: _by_long_double)
        compared = " and compared with the expectation" if r.expected_mode else \
            " and compared with finite differences" if (t.wide & ~t.blind).any() else ""
        said.append(_long_double_note(r, t.label, t.wide, t.ad, t.float64,
                                      "value" if r.order == 0 else "derivative",
                                      "f" if r.order == 0 else "AD", compared))
    return [note for note in said if note]


def _long_double_note(r: CheckResult, label: str, wide, numbers, float64, number: str,
                      what: str, compared: str) -> str:
    if wide is None or not wide.any():
        return ""
    n, k = len(r.value), int(np.flatnonzero(wide)[0])
    at = ", ".join(f"{v}={float(p[k])!r}" for v, p in r.points.items())
    from .report import RECOMPUTED, number_digits

    return LONG_DOUBLE.format(label=label, where=f"{int(wide.sum())} of {_s(n)}",
                              recomputed=RECOMPUTED, wide=number_digits(numbers[k]),
                              shown=number_digits(float64[k]),
                              first=f" (first at {at})" if n > 1 else "", number=number,
                              what=what, compared=compared)


def _blind_notes(r: CheckResult) -> list[str]:
    """Where finite differences witness nothing, the function they difference being wrong
    in float64 (_by_long_double), and the expectation was judged by AD alone: one note for the
    derivatives that share the reason."""
    blind: dict[str, tuple[list[str], np.ndarray]] = {}
    for t in r.targets:
        at = t.blind & _judged(t) if t.blind is not None else None
        if at is not None and at.any():
            labels, where = blind.get(t.blind_why, ([], at))
            blind[t.blind_why] = ([*labels, t.label], where | at)
    return [f"{listing(labels)} at {int(where.sum())} of {_s(r.counted)} "
            f"{'was' if len(labels) == 1 else 'were'} judged by AD alone: {why}"
            for why, (labels, where) in blind.items()]


def _overflow_notes(r: CheckResult) -> list[str]:
    """Where finite differences are no number, the function they difference overflowing
    within their step, and the expectation was judged by AD alone (inf in the table)."""
    notes = []
    for t in r.targets:
        if t.overflow is not None and t.overflow.any():
            of = _differenced_label(t, r.order, r.expression)
            notes.append(f"{t.label} at {int(t.overflow.sum())} of {_s(r.counted)} was "
                         f"judged by AD alone: {OVERFLOWED.format(of=of)}")
    return notes


def _flat_notes(r: CheckResult, t: Target) -> list[str]:
    """How t was judged where f's central differences vanish (_flat) or converge to 0
    (_towards_zero): the bound they give, and AD 0 within its rounding, or beyond the
    bound (a wrong rule: AD is on trial)."""
    names = path(t, r.order)
    of = "f" if len(names) == 1 else f"adcli's {_path_label(names[:-1], r.expression)}"
    # (vanishing central differences: of an f constant there, or symmetric about x)
    hows = [(f"the central differences of {of} vanish to within its rounding over every "
             f"step ({of} constant there, or symmetric about the point)",
             "the difference there and its rounding"),
            (f"the central differences of {of} converge to 0 as the step shrinks (their "
             "extrapolation is 0 to within its error)", "the difference there and its "
             "rounding, or the extrapolation's error where that is larger")]
    notes = []
    for kind, (how, over) in enumerate(hows):
        flat = np.isfinite(t.flat) & _judged(t) & (t.converging == bool(kind))
        good, bad = flat & (t.status == "match"), flat & (t.status == "differs")
        for at, verb in ((good, "is 0 to within its own rounding error"),
                         (bad, "is beyond that and its own rounding error")):
            if at.any():
                head = f"{t.label} is 0 to within rounding at {_s(int(at.sum()))}" \
                    if at is good else _disagree(r, t, bad)
                notes.append(_flat_note(t, at, head, how, over, verb, at is good))
    return notes


def _flat_note(t: Target, at, head: str, how: str, over: str, verb: str, good: bool) -> str:
    return (f"{head}: there {how}, which bounds |{t.label}| by {np.max(t.fd_error[at]):.2g} "
            f"at most (over the finest step, h = {np.min(t.flat[at]):.2g}: {over}), and "
            f"adcli's {verb} ({_largest_ad(t.ad[at])}; the relative difference shown is "
            "|AD| over the size of its terms)" + ("" if good else
            ": a feature narrower than the finest step, or else a bug in adcli or a kink "
            "it does not know about: please report that"))


def _largest_ad(ad) -> str:
    largest = float(np.max(np.abs(ad)))
    return "AD is exactly 0" if largest == 0 else f"|AD| at most {largest:.2g}"


def _disagree(r: CheckResult, t: Target, where, smooth: str = "") -> str:
    """AD and finite differences disagreeing at the points ``where``, shown at the first."""
    index = int(np.flatnonzero(where)[0])
    at = ", ".join(f"{v}={float(p[index])!r}" for v, p in r.points.items())
    return (f"adcli's {t.label} and finite differences disagree at {int(where.sum())} of "
            f"{_s(r.counted)}{smooth} (at {at}: AD {float(t.ad[index])!r}, finite "
            f"differences {float(t.fd[index])!r})")


def _earlier_kinks(r: CheckResult) -> list[str]:
    """Where a derivative does not exist because a lower one does not (∂f/∂y at a kink in
    y, for ∂²f/∂x∂y): which, since the left and right derivatives shown are that one's."""
    notes = []
    for t in r.targets:
        steps, f = path(t, r.order), r.expression
        for j in range(len(steps) - 1):
            count = int(np.sum((t.status == "no derivative") & (t.kink_step == j)))
            if count:
                below = _path_label(steps[:j], f) if j else "f"
                notes.append(f"{t.label} does not exist at {_s(count)} because "
                             f"{_path_label(steps[:j + 1], f)} does not (a kink in "
                             f"{steps[j]}): the left and right derivatives shown there are "
                             f"{below}'s in {steps[j]}")
    return notes


def _path_label(steps, f: Expression) -> str:
    """The label of the derivative along ``steps`` (path's order: y, x is ∂²/∂x∂y)."""
    if len(set(steps)) > 1:
        return mixed_label(steps[::-1])
    return label_for(steps[0], len(steps), partial=len(f.variables) > 1)


# ----- diagnosis -------------------------------------------------------------------------

def _few_own_points(r: CheckResult) -> bool:
    """Only the user's own points, too few for a claim either way: a diagnosis needs
    three, and a wrong formula can match at one (3x^2 is x^3's 6x at x = 2), a slip's
    form at a few (3x is x^3's 3x^2 with the exponent kept at -1, 0, 1). Not for a
    big expression: sampling costs about the square of its size (the chunks shrink as it
    grows), 5 minutes at 100,000 nodes, against ~1 s at 3,000."""
    nodes = len(r.expression.nodes) + sum(len(t.expectation.nodes) for t in r.targets
                                          if t.expectation is not None)
    return (r.verdict in ("differs", "matches") and r.expected_mode and not r.sampled
            and r.counted < FEW_POINTS and bool(r.expression.variables)
            and nodes <= WIDER_NODES)


def _look_wider(r: CheckResult, targets, seed, domain) -> None:
    """The check again at the user's points and DEFAULT_SAMPLES random ones beside them:
    where it differs, the diagnosis from them all (every claim must hold at every point
    it is made from, the user's included); where it matches, whether the formula does
    beyond the user's points. Said in a note, with the seed. The verdict stays the one at
    the user's points."""
    varied = {n for t in targets for n in t.names or [t.name]} \
        if all(t.name for t in targets) else set(r.expression.variables)
    fixed = _parameters(r, varied)
    wider = _wider(r, targets, fixed, seed, domain)
    if wider is None:
        return
    kept = ", ".join(f"{v}={float(value)!r}" for v, value in fixed.items())
    where = (f"{DEFAULT_SAMPLES} random ones{' with ' + kept if kept else ''}"
             f"{'' if seed is None else f' (seed {seed})'}")
    # where the expectation is undefined at the user's points is said of them alone
    own = [d for d in r.diagnosis if d.startswith(UNDEFINED_CLAIM)]
    claims = [d for d in wider.diagnosis if not d.startswith(UNDEFINED_CLAIM)]
    if r.verdict == "differs" and (claims or not own):
        r.diagnosis = own + claims
    if r.verdict == "differs" and claims:
        r.notes.append(f"the diagnosis holds at your {_s(r.counted)} and at {where}: "
                       f"{_s(r.counted)} alone cannot tell a slip from a coincidence")
    elif r.verdict == "matches" and wider.verdict == "differs" and \
            any(set(t.expectation.variables) & varied for t in targets if t.expectation):
        row = _plain_row(wider)
        at = ", ".join(f"{v}={x!r}" for v, x in row.at.items())
        r.notes.append(f"it matches at your {_s(r.counted)} only, not at "
                       f"{wider.differing} of {where}: at {at}, the expectation is "
                       f"{row.expected!r} and adcli's {row.label} {row.ad!r}")
        r.notes += [f"over these {_s(wider.counted)}: {claim}" for claim in wider.diagnosis]


def _plain_row(r: CheckResult) -> Row:
    """A row at the differing point nearest 1 in size, as the slips' claims pick theirs:
    the largest relative difference is often at an extreme point (-x e^{-x^2} for
    e^{-x^2/2}'s derivative at x = -23.8: 8.3e-246 against 1.4e-122), no number to
    work out by hand, where near 1 the two differ plainly."""
    from .slips import _plain_point

    differs = [t.status == "differs" for t in r.targets]
    index = _plain_point(r.points, slice(None), r.expression.variables,
                         np.any(differs, axis=0))
    return _row(next(t for t, d in zip(r.targets, differs) if d[index]), r.points, index)


def _parameters(r: CheckResult, varied) -> dict:
    """A variable not differentiated in, with one value at every point of the user's, is
    a parameter the expectation may have been worked out for (a = 3 in 6x for a x^2)."""
    return {v: r.points[v][0] for v in r.expression.variables
            if v not in varied and _one_value(r.points[v])}


def _one_value(values) -> bool:
    """Whether every point has the same value: a parameter (a = 3), not a variable."""
    return np.unique(values).size == 1


def _wider(r: CheckResult, targets, fixed, seed, domain) -> CheckResult | None:
    """The check at the user's points, judged as typed, and DEFAULT_SAMPLES random ones
    (None: no random points could be found where everything is finite)."""
    f, order = r.expression, r.order
    try:
        extra, _, _ = _sample(f, targets, order, fixed,
                              [v for v in f.variables if v not in fixed], DEFAULT_SAMPLES,
                              seed, domain or {})
        points = {v: np.concatenate([r.points[v], extra[v]]) for v in f.variables}
        return _judge(f, targets, order, points, _found(f, targets, order, points, True),
                      r.rtol, r.atol, sampled=True, seed=seed,
                      typed=len(r.value))
    except ValuesError:
        return None
