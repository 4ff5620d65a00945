"""Taylor mode: derivatives of any order, and forward mode (JVP), from one sweep over the
node list with truncated Taylor series (each primitive's ``taylor`` rule).

Along a line through the point (x + t for the variable differentiated, the others fixed)
every node's value is a series in t: row k of a node's series is its k-th derivative in t
divided by k!. One sweep gives every order up to K at once, for a cost that grows like
K^2 per node, where nested reverse passes grow like 3^K. Row 1 alone is forward mode.

A rule's arithmetic can make nan of a term that is exactly 0 (0·inf: a fixed argument's
rows against exp(1000)) or overflow on the way to a finite row; those entries, and only
those, are redone from the primitive's backward with exact zeros (``_redo_from_backward``).

Row k is f^(k)/k!, below float64's normal range for a derivative well inside it where k!
is large (row 20 of exp(x) at -705 is 2.7e-325, f^(20) = 6.6e-307): where the sweep raised
an underflow or overflow flag, the points whose steps left the range are swept again
along x + 2^m t, whose rows are 2^(mk) times these to the bit (``_rescaled``).
"""
from __future__ import annotations

import contextvars
import math
from typing import NamedTuple

import numpy as np

from .diagnostics import Diagnostics, inside
from .errors import ValuesError
from .functions import _GradientGraph, _aligned, _constant_series, _weights, nudging_rows


class JVP(NamedTuple):
    """A forward-mode pass: the output's value and tangent, and every node's (in the order
    of ``expression.nodes``; a number's are 0-d)."""

    value: np.ndarray
    tangent: np.ndarray
    values: list[np.ndarray]
    tangents: list[np.ndarray]


class Nth(NamedTuple):
    """The ``order``-th derivative, and ``lost``: where no scale of the line kept every
    step of the sweep inside float64's normal range (``_rescaled``), so that the number
    may be wrong. Only where the number is a normal float: nan and inf are warned of as
    such, and below the normal range a number's error is counted in units of 2^-1074, not
    relative to it (exp(-x) at 740: every derivative is -e^-740 to within a unit, exp(x) at
    -800 0, as their values are; adcli.wider.contradicts)."""

    derivative: np.ndarray
    lost: np.ndarray


def taylor_derivative(expression, values: dict, name: str, order: int,
                      diagnostics=None) -> np.ndarray:
    """The ``order``-th derivative in ``name`` at every point, shaped like the points.
    With ``diagnostics``, each function whose series turned non-finite from finite inputs
    is blamed there, at those points."""
    return taylor_nth(expression, values, name, order, diagnostics).derivative


def taylor_nth(expression, values: dict, name: str, order: int, diagnostics=None) -> Nth:
    """``taylor_derivative``'s number, with where it may be wrong (``Nth``)."""
    order = _order(order)
    arrays, point = _points(expression, values, {})
    flags = _RangeFlags()
    blamed = None if diagnostics is None else Diagnostics(arrays[0].shape if arrays else ())
    with flags.counting():
        rows = _output(expression, arrays, name, order + 1, diagnostics=blamed)
        derivative = _times_factorial(rows[order], order)
        lost = redone = np.zeros(derivative.shape, dtype=bool)
        if flags.raised and order:  # (rare: the common path pays for the flags only)
            derivative, unsure, redone = _rescaled(expression, arrays, name, order,
                                                   derivative, flags.under)
            lost = unsure & _normal(derivative)
    if diagnostics is not None:
        # a point swept again in range to a finite number has no blame: the number stands
        # (1e-300 log x at 1e-40, where log's row 8 overflowed along x + t)
        stands = redone & np.isfinite(derivative)
        kept = {key: mask & ~stands for key, mask in blamed.masks.items()}
        blamed.masks = {key: mask for key, mask in kept.items() if mask.any()}
        _factorial_overflowed(blamed, name, order, rows[order], derivative, redone)
        diagnostics.merge(blamed)
    return Nth(derivative.reshape(()), lost.reshape(())) if point else Nth(derivative, lost)


def _factorial_overflowed(blamed, name: str, order: int, row, derivative, redone) -> None:
    """Blame the last step where it alone overflowed: row ``order`` is a float and times
    order! is not (1/x at 1e-9, order 30: 1e279 times 2.7e32), though no function's rows
    did; keyed by the derivative ("x^30", as ``lost`` is), for no function made it."""
    from .reruns import nth_named

    over = np.isinf(derivative) & np.isfinite(row) & ~redone
    if over.any():
        blamed._or((nth_named(name, order), "overflow"), over)


def taylor_coefficients(expression, values: dict, name: str, order: int,
                        diagnostics=None) -> np.ndarray:
    """Rows 0..order of the output's series along ``name``: row k is d^k/d name^k / k!.
    Shape (order + 1, *points)."""
    order = _order(order)
    arrays, point = _points(expression, values, {})
    with _quiet():
        rows = _output(expression, arrays, name, order + 1, diagnostics=diagnostics).copy()
    return rows.reshape(order + 1) if point else rows


def _output(expression, arrays, name: str, length: int, scale=1.0, diagnostics=None,
            watch=None) -> np.ndarray:
    """The output's rows 0..length-1 along ``name`` + ``scale`` t (a number, or one per
    point), shaped (length, *points): a view, broadcast where the output is constant."""
    shape = arrays[0].shape if arrays else ()
    seeds = {v: _seed(a, length, v == name, scale)
             for v, a in zip(expression.variables, arrays)}
    series = _sweep(expression.nodes, seeds, length, keep=False, diagnostics=diagnostics,
                    watch=watch)[-1]
    return np.broadcast_to(series, (length,) + shape)


class Nudged(NamedTuple):
    """A nudged sweep's derivative, ``kept`` where some line of it stayed in float64's
    range, and ``unjudged`` where none did though no value on the way (which no line
    moves) left the range: the nudge carried rows out of range on every line, and the
    number shown, from a line that stayed in range, has no witness (sin(x)/x at 1e-300,
    order 2: y_1, 0 for cos x = 1, moved by 4 ulps is 4e284, and y_2 = 4e584 h^2
    overflows for every h at which sin's row 2, -5e-301 h^2, does not underflow)."""

    derivative: np.ndarray
    kept: np.ndarray
    unjudged: np.ndarray


def nudged_derivative(expression, arrays, name: str, order: int, nudge, rows) -> Nudged:
    """The ``order``-th derivative at the points ``arrays`` (1-d) by a sweep along x + t
    whose every series ``nudge(function, series, args)`` moves (adcli.rounding's witness),
    and every row a rule makes inside, ``rows(row, where)`` (functions.nudging_rows: a
    recurrence's own rows, which the step's series alone would move only after they were
    used). Where that sweep left float64's range, it is searched along x + 2^m t as the
    number shown was (_rescaled), every line nudged alike: in range both scale to the bit,
    so any clean line witnesses the shown one, found on whichever line. The search is per
    point, so that a point's witness does not depend on the other points of the run (an
    underflow flagged at 1e-300 made x = 0's exact zero rows unwitnessed)."""
    n = len(arrays[0]) if arrays else 1
    flags = _RangeFlags()
    with nudging_rows(rows), flags.counting():
        watch = _watched(expression, arrays, name, order, np.ones(n), nudge=nudge)
        derivative = _times_factorial(watch.row, order)
        if not flags.raised:    # (no line searched, as taylor_nth searches none)
            left = watch.low | watch.high | watch.fixed
            return Nudged(derivative, ~left, np.zeros(n, dtype=bool))
        derivative, unsure, _ = _rescaled(expression, arrays, name, order, derivative,
                                          flags.under, nudge=nudge, watch=watch)
    return Nudged(derivative, ~unsure, unsure & ~watch.fixed)


def _quiet():
    """nan and inf are results here: numpy says nothing, but a caller counting overflow
    and underflow flags (expression._Flags, for grad --order N) still sees them."""
    kept = {k: "call" if v == "call" else "ignore" for k, v in np.geterr().items()}
    return np.errstate(**kept)


def jvp(expression, values: dict, tangents: dict) -> JVP:
    """Forward mode: value and directional derivative along ``tangents`` (a value per
    variable; missing ones are 0), with every node's value and tangent for a trace."""
    unknown = expression.unknown_names(tangents)
    if unknown:
        raise ValuesError("; ".join(unknown))
    names = expression.variables
    arrays, point = _points(expression, values, tangents)
    seeds = {}
    for i, v in enumerate(names):
        seed = np.zeros((2,) + arrays[i].shape)
        seed[0], seed[1] = arrays[i], arrays[len(names) + i]
        seeds[v] = seed
    with np.errstate(all="ignore"):
        series = _sweep(expression.nodes, seeds, 2, keep=True)
    shape = arrays[0].shape if arrays else ()
    value, tangent = (np.broadcast_to(series[-1][i], shape).copy() for i in (0, 1))
    node_values, node_tangents = [s[0] for s in series], [s[1] for s in series]
    if point:
        value, tangent = value.reshape(()), tangent.reshape(())
        node_values = [a.reshape(()) for a in node_values]
        node_tangents = [a.reshape(()) for a in node_tangents]
    return JVP(value, tangent, node_values, node_tangents)


def _sweep(nodes, seeds: dict, length: int, keep: bool, diagnostics=None,
           watch=None) -> list:
    """Every node's series in evaluation order. Without ``keep``, a series is dropped after
    its last use, so memory follows the widest point of the expression, not its size.
    ``watch(function, series, args)`` sees every function's series as it is made.

    A single point is swept as two copies of it (``_lone``), everything else seeing the
    one: numpy sums a row of one point's products in another order than one of several
    (tanh(x)'s f^(12) at -2.88 was 2 ulps off alone, exact beside x = 1)."""
    shape = _lone(seeds)
    if shape is None:
        return _sweep_points(nodes, seeds, length, keep, diagnostics, watch)
    one = _one_of_two(shape)
    seeds = {v: _two_of_one(s) for v, s in seeds.items()}
    computed = _sweep_points(nodes, seeds, length, keep, diagnostics, watch, one)
    return [None if s is None else one(s) for s in computed]


def _lone(seeds: dict):
    """The points' shape where every seed holds one point ((1,), (1, 1)), else None."""
    shapes = {s.shape[1:] for s in seeds.values()}
    if len(shapes) == 1:
        shape = shapes.pop()
        if len(shape) and math.prod(shape) == 1:
            return shape
    return None


def _two_of_one(s: np.ndarray) -> np.ndarray:
    """A one-point series as two columns of it; a series of no points (a number's) as is."""
    return np.repeat(s.reshape(len(s), 1), 2, axis=1) if s.ndim > 1 else s


def _one_of_two(shape):
    """The first column of a series swept as two, shaped for the one point again."""
    def one(s):
        return s[:, :1].reshape(s.shape[:1] + shape) if s.ndim > 1 else s
    return one


def _sweep_points(nodes, seeds: dict, length: int, keep: bool, diagnostics=None,
                  watch=None, one=None) -> list:
    """_sweep's, on seeds of two points or more, or of ``one`` point swept as two: the
    watch and the blame see (and a watch hands back) that one's series (``one(series)``)."""
    last_use = {}
    if not keep:
        for i, node in enumerate(nodes):
            for j in node.args:
                last_use[j] = i
    computed, varying = [None] * len(nodes), [False] * len(nodes)
    for i, node in enumerate(nodes):
        if node.kind == "variable":
            # A variable held fixed does not move: sqrt(y) at y = 0 is then a constant,
            # not a rule dividing 0 by 0 (d^2/dx^2 of sqrt(y)*x^2 is 0 there, not nan).
            seed = computed[i] = seeds[node.name]
            varying[i] = length > 1 and bool(np.any(seed[1:]))
        elif node.function is None:
            computed[i] = _constant_series(node.value, length)
        else:
            args = [computed[j] for j in node.args]
            function = node.function()
            varying[i] = any(varying[j] for j in node.args)
            if varying[i]:
                computed[i] = _series(function, args, [varying[j] for j in node.args])
                if diagnostics is not None:
                    _blame(diagnostics, node.function, *_seen(one, computed[i], args))
            else:   # nothing here moves along the line: its value is all there is
                computed[i] = _constant_series(function.forward(*[a[0] for a in args]), length)
            if watch is not None:   # (a watch may hand back the series moved: rounding.py)
                moved = watch(node.function, *_seen(one, computed[i], args))
                if moved is not None:
                    computed[i] = moved if one is None else _two_of_one(moved)
            for j in node.args:
                if last_use.get(j) == i:
                    computed[j] = None
    return computed


def _seen(one, series, args):
    """A series and its arguments', as a watch sees them (``one``: _sweep_points')."""
    if one is None:
        return series, args
    return one(series), [one(a) for a in args]


def _series(function, args, moving) -> np.ndarray:
    """One primitive's series from its arguments' (``moving``: which of them move at all):
    its own rule, then the limits and exact zeros that the rule's arithmetic misses."""
    y = function.taylor(*args)
    if not all(np.isfinite(a[0]).all() for a in args):
        _constant_at_infinity(y, args)
    if not np.isfinite(y[1:]).all():    # the only cost on the common path: one check
        _redo_from_backward(function, y, args, moving)
    return y


def _constant_at_infinity(y, args) -> None:
    """Rows 1.. of y are 0 where every argument that moves is infinite and y is finite:
    such an argument is infinite all along the line (inf + t u_1 is inf), the others stay
    put, so y is a constant there (2 coth(y + csc x) at x = 0 is 2 for every y), whatever
    the rules make of inf in their rows (atan's 1/(u^2 + 1) gives inf/inf)."""
    fixed = np.isfinite(y[0])
    for a in args:
        moves = np.any(a[1:] != 0, axis=0)
        fixed = fixed & (~moves | np.isinf(a[0]))
    if fixed.any():
        y[1:] = np.where(fixed, 0.0, y[1:])


def _redo_from_backward(function, y, args, moving) -> None:
    """Redo, at the points where they are, the entries of rows 1.. of y that came out nan,
    or inf from finite arguments, by the rule from backward with exact zeros (``_exact``).

    A nan here from arguments whose rows 1.. have none is made by the rule, mostly as 0·inf:
    a row that is exactly 0 (the rows of an argument that does not move, x + t's rows from
    t^2 on) times an infinite value (exp(x) at x = 1000, y = inf), or times a nan value
    whose slope is fine (log(x)*y at x = -1 along x is y/x). The term is 0, and the reverse
    passes never form it. An inf from finite arguments may be an overflow on the way to a
    finite row (x^102.6 at 1000: r·y_0 before the division by a_0), which backward's
    formula, r·a^(r-1), does not meet: that entry takes the redone value where it is finite.
    Left as they are: a nan that came with an argument's rows (it was redone there), and
    the rows of a y that is nan at finite arguments (sqrt(-1)): f is undefined there."""
    shape = y.shape[1:]
    full = [np.broadcast_to(_aligned(a, len(shape)), (len(a),) + shape) for a in args]
    clean, finite, defined = (np.ones(shape, dtype=bool) for _ in range(3))
    for a in full:
        clean &= ~np.isnan(a[1:]).any(axis=0)
        finite &= np.isfinite(a).all(axis=0)
        defined &= np.isfinite(a[0])
    where = (clean & np.isnan(y[1:]).any(axis=0)) | (finite & np.isinf(y[1:]).any(axis=0))
    where &= ~(defined & np.isnan(y[0]))
    if not where.any():
        return
    old = y[:, where]
    picked = [a[:, where] for a in full]
    if old.shape[1] == 1:   # one point redone as two, as a sweep of one (_sweep)
        redone = _exact(function, [_two_of_one(a) for a in picked], moving)[:, :1]
    else:
        redone = _exact(function, picked, moving)
    better = np.isnan(old) | (np.isinf(old) & np.isfinite(redone))
    better[0] = False
    y[:, where] = np.where(better, redone, old)


def _exact(function, args, moving) -> np.ndarray:
    """The series of y = f(args) by the rule from backward, k y_k = sum_i sum_j j x_(i,j)
    g_(i,k-j) with g_i = df/dx_i, as ``functions._taylor_from_backward`` has it, but with
    a term that has a known 0 in it left out, even where its other factor is inf or nan.
    Each g_i's series comes from the steps of backward's graph, each step's series as the
    sweep makes a node's (``_series``: its rule, redone here where it went non-finite), so
    gy's zero rows do not meet y = inf there either. Each level runs on series one row
    shorter, so this nests at most as deep as the order. Points along axis 1 only.

    Every level meets the steps of the levels below again, on the same rows (1/x at
    1e-300, whose rows all overflow: -y/x's redo reruns -y'/x per row, and so on down):
    within the outermost redo, a step is run once per rows it is given (``_steps_run``),
    so that the cost grows like a power of the order, not exponentially."""
    if _steps_run.get() is None:
        token = _steps_run.set({})
        try:
            return _exact(function, args, moving)
        finally:
            _steps_run.reset(token)
    graph = _GradientGraph(function, args, moving)
    y = graph.y
    if len(y) == 1 or not graph.roots:
        return y
    moved = {id(v) for v, m in zip(graph.inputs, moving) if m} | {id(graph.output)}
    weights = [(_weights(args[i]), _known_zeros(args[i], True, gradient=False))
               for i, _ in graph.roots]
    _run(graph, graph.fixed, len(y) - 1, moved)
    for k in range(1, len(y)):
        _run(graph, graph.rerun, k, moved)     # the steps on y need its rows up to k - 1
        terms = []
        for (w, w_known), (_, v) in zip(weights, graph.roots):
            g = _aligned(graph.series(v, len(y)), 1)   # every row there is, for _known_zeros
            g_known = _known_zeros(g, id(v) in moved, gradient=True)
            terms.append(_exact_dot(w[1:k + 1], w_known[1:k + 1], g[:k], g_known[:k]))
        y[k] = sum(terms) / k
    return y


def _run(graph, steps, rows: int, moved: set) -> None:
    """Each step's series from its inputs' (the first ``rows`` rows), as the sweep makes a
    node's; a step on nothing that moves is a constant (gy * a: no 0·inf in its rows)."""
    for f, inputs, output in steps:
        moving = [id(v) in moved for v in inputs]
        if any(moving):
            moved.add(id(output))
            series = _step_series(f, [graph.series(v, rows) for v in inputs], moving)
        else:
            series = _constant_series(output.data, rows)
        graph.known[id(output)] = series


# The steps run within the outermost _exact: (function, series in) -> series out.
_steps_run = contextvars.ContextVar("adcli_steps_run", default=None)
_GRAPH_STATE = {"inputs", "output", "generation", "rule_of"}   # no part of a step's rule


def _step_series(f, inputs, moving) -> np.ndarray:
    """``_series(f, inputs, moving)``, or a copy of it where this redo made it before:
    a rule's rows depend on its class, its own parameters (pow_diff's order) and the
    rows given, never on where in a graph it sits."""
    try:
        params = tuple(sorted((k, v) for k, v in vars(f).items() if k not in _GRAPH_STATE))
        key = (type(f), params, tuple(moving),
               tuple((a.shape, a.tobytes()) for a in inputs))
        hash(key)
    except TypeError:   # (a parameter that is no value: run it every time)
        return _series(f, inputs, moving)
    made = _steps_run.get()
    if key not in made:
        made[key] = _series(f, inputs, moving)
    return made[key].copy()


def _known_zeros(s, moves: bool, gradient: bool):
    """Where the 0s in the rows of series s are exact: every row from 1 on of a series that
    does not move (an argument held fixed, a number, gy); of one that moves, where its value
    is not nan, a 0 with only 0s after it and a row from 1 on that is not 0 before it (x + t's
    rows from t^2 on, 2 x's), or for a ``gradient``, flat from row 1 on after a value that is
    not 0 (2, x^2's gradient along x^2's line): an argument that came out flat may be an
    underflow upstream (exp(x)*(1 + exp(y - 801)) has d/dy = e^200 at x = 1000, y = 1).

    Not a 0 before a row that is not 0: such a series is not a polynomial, and a 0 of it
    at this point only (the odd rows of an even function at 0) may meet a pole whose term
    is not 0 (atanh(exp(-x^2)) at x = 0: f'' is +inf, the terms kept make it -inf). Not a
    series that is 0 all through: a limit 1/inf, say (log u at u = e^1000 y, along y, has
    u_1 g_1 = -1/y^2 with g = 1/u). And never row 0, a value, for the same reasons."""
    if moves:
        nonzero = s != 0
        known = ~np.logical_or.accumulate(nonzero[::-1], axis=0)[::-1]
        known &= nonzero[0 if gradient else 1:].any(axis=0) & ~np.isnan(s[0])
    else:
        known = np.ones(s.shape, dtype=bool)
    known[0] = False
    return known


def _exact_dot(w, w_known, g, g_known):
    """sum_j w_j g_(k-j), j = 1..k, where a term with a known 0 in it is 0, even 0·inf
    (``w_known``, ``g_known``: where their 0s are exact). Only a nan term can be one."""
    g, g_known = g[::-1], g_known[::-1]
    terms = w * g
    undefined = np.isnan(terms)
    if undefined.any():
        zero = ((w == 0) & w_known) | ((g == 0) & g_known)
        terms[undefined & zero] = 0.0
    return terms.sum(axis=0)


def _blame(diagnostics, function, series, args) -> None:
    """Blame ``function`` where its derivative rows went non-finite while its inputs'
    series and its own value stayed finite."""
    rows = ~np.isfinite(series[1:])
    bad = rows.any(axis=0)
    if not bad.any():
        return
    fine = np.isfinite(series[0])
    for a in args:
        fine = fine & np.isfinite(a).all(axis=0)
    # "overflow" where the first row to go non-finite is an inf and the inputs are inside
    # the domain (log'' = -1/x^2 at x = 1e-200), as the reverse passes' watcher says it
    first = np.take_along_axis(series[1:], rows.argmax(axis=0)[None], axis=0)[0]
    over = bad & fine & np.isinf(first) & inside(function, [a[0] for a in args])
    diagnostics.add(function, "overflow", over)
    diagnostics.add(function, "derivative", bad & fine & ~over)


def _seed(array, length: int, moving: bool, scale=1.0):
    seed = _constant_series(array, length)
    if moving and length > 1:
        seed[1] = scale
    return seed


def _points(expression, values: dict, tangents: dict):
    """The variables' values (then tangents) broadcast together, a single point as an array
    of one as the tape computes it (numpy's scalar and vector paths can differ in the last
    bit), and whether it was a single point."""
    expression.check_values(values)
    names = expression.variables
    given = [values[v] for v in names] + [tangents.get(v, 0.0) for v in names]
    try:
        arrays = np.broadcast_arrays(*[np.asarray(a, dtype=np.float64) for a in given])
    except ValueError:
        shapes = " and ".join(str(np.shape(a)) for a in given)
        raise ValuesError(f"the values' shapes {shapes} do not broadcast together") from None
    point = bool(arrays) and arrays[0].ndim == 0
    if point:
        arrays = [a.reshape(1) for a in arrays]
    return arrays, point


def _order(order) -> int:
    whole = isinstance(order, (int, float, np.integer, np.floating)) \
        and not isinstance(order, bool) and float(order).is_integer()
    if not whole or order < 0:
        raise ValuesError(f"the order of a derivative is a whole number >= 0, not {order!r}")
    return int(order)


def _times_factorial(row: np.ndarray, order: int) -> np.ndarray:
    """row * order!, with order! rounded once while it fits a float."""
    if order <= 170:
        return row * float(math.factorial(order))
    for k in range(2, order + 1):   # beyond 170! only the product may still be finite
        row = row * float(k)
    return row


# ----- points whose sweep left float64's normal range -----------------------------------
# Every rule multiplies rows whose indices add up to the row it makes, divides by a row 0
# or by a whole number, and adds rows of one index: along x + h t, with h = 2^m, every
# series' row k is h^k times its row along x + t, to the bit, as long as no step leaves
# the normal range (tests/test_taylor_underflow.py holds every rule to it). Row k is
# f^(k) h^k/k!, which for h >= order lies between |f^(k)| and e^h |f^(k)| (k! <= h^k, and
# h^k/k! is a term of e^h): a node whose derivatives are normal floats has normal rows
# there, unless they are within e^h of the largest float.

_TINY = float(np.finfo(np.float64).tiny)
_LOWEST, _HIGHEST = -1022, 1023     # the exponents m whose 2^m is a normal float
_UNKNOWN = 4096                     # |m| of a side not met yet: beyond any m tried


class _RangeFlags:
    """Whether numpy raised an overflow or underflow flag while ``counting()``, quiet as
    under _quiet otherwise; every flag is passed on to a caller that counts it too
    (expression._Flags, around the sweep)."""

    _MODES = {"overflow": "over", "underflow": "under", "divide by zero": "divide"}

    def __init__(self):
        self.raised = self.under = False

    def __call__(self, error: str, flag: int) -> None:
        self.raised = self.raised or error in ("overflow", "underflow")
        self.under = self.under or error == "underflow"
        if self.passed.get(self._MODES.get(error, "invalid")) == "call":
            self.outer(error, flag)

    def counting(self):
        self.passed, self.outer = np.geterr(), np.geterrcall()
        quiet = {k: "call" if v == "call" else "ignore" for k, v in self.passed.items()}
        return np.errstate(**{**quiet, "over": "call", "under": "call"}, call=self)


class _Range:
    """A sweep's watch: per point (flat), ``low`` where a function's row from 1 on came out
    subnormal, on its way below the range (a larger h lifts row k by h^k), ``high`` where
    one is inf or nan from finite arguments and a finite value (a smaller h lowers it),
    ``fixed`` where a value, which no h moves, is subnormal, overflowed, or is 0 from
    arguments finite and not 0 by a function without exact zeros (exp(-800)).

    A row from 1 on that underflowed to 0 in one step, with no subnormal on its way
    (1e-293 * 1e-131), is seen only against other lines (``seen``): per function, in the
    order of the sweep, where its rows were not 0 (nor nan) along some line tried, at the
    points searched, of which this sweep's are ``points``. Rows in range scale by 2^(m k)
    to the bit, so one that is 0 here and was not there left the range: ``low``. Where
    a row from 1 on is 0 with a moving argument (``zero``), it may be such a one, or an
    exact 0 (row 3 of x^2): only other lines tell (_search's ``probe``)."""

    def __init__(self, n: int, seen: list | None = None, points=None, total: int = 0):
        self.low, self.high, self.fixed, self.zero = (np.zeros(n, dtype=bool)
                                                      for _ in range(4))
        self.row = None     # the output's row asked for (_watched)
        self.seen, self.points, self.total, self.calls = seen, points, total, 0

    def __call__(self, function, series, args) -> None:
        size = np.abs(series)
        subnormal = (size > 0) & (size < _TINY)
        finite, zeroed = True, (size[0] == 0) & (not function.exact_zeros)
        moving = False
        for a in args:
            finite = finite & np.isfinite(a).all(axis=0)
            zeroed = zeroed & (a[0] != 0) & np.isfinite(a[0])
            moving = moving | (a[1:] != 0).any(axis=0)
        self.zero |= (size[1:] == 0).any(axis=0) & moving
        self.fixed |= subnormal[0] | (np.isinf(size[0]) & finite) | zeroed
        self.low |= subnormal[1:].any(axis=0)
        self.high |= ~np.isfinite(size[1:]).all(axis=0) & finite & np.isfinite(size[0])
        if self.seen is not None:
            self._vanished(size[1:])

    def _vanished(self, size) -> None:
        rows = np.broadcast_to(size.reshape(len(size), -1), (len(size), len(self.low)))
        if self.calls == len(self.seen):
            self.seen.append(np.zeros((len(size), self.total), dtype=bool))
        seen = self.seen[self.calls]
        before = seen[:, self.points]
        self.low |= (before & (rows == 0)).any(axis=0)
        seen[:, self.points] = before | ((rows != 0) & ~np.isnan(rows))
        self.calls += 1


def _rescaled(expression, arrays, name: str, order: int, derivative: np.ndarray,
              under: bool, nudge=None, watch=None):
    """The derivative again where the sweep along x + t left the range at a point, from a
    sweep along x + 2^m t whose rows did not (``redone``); ``unsure`` where no such m was
    found, or a value on the way was out of range (1e300 exp(x) at -720: exp's 1.9e-313
    keeps 43 bits, whatever m), and the number shown may be wrong (see ``Nth``). Every
    sweep's series moved by ``nudge`` (nudged_derivative's), if given; ``watch``: the
    sweep along x + t's, if it was watched already.

    Each point's m is searched: where rows underflowed, first m0 = ceil(log2 order), the
    smallest h >= order, then fourfold further up; where they overflowed, down from -m0
    alike; once both sides are met, halfway between, until a sweep stays in range or no
    m is left between (rows of e^-x below the range and of e^x above it, exp(x) exp(-x)
    at 705). The points that stayed in range keep their numbers, to the bit."""
    shape = derivative.shape
    flat = [np.broadcast_to(a, shape).reshape(-1) for a in arrays]
    derivative = derivative.reshape(-1).copy()
    if watch is None:
        watch = _watched(expression, flat, name, order, np.ones(derivative.size), nudge=nudge)
    unsure, redone = watch.fixed.copy(), np.zeros(derivative.size, dtype=bool)
    # a row that underflowed to 0 in one step (log's row 2 at 1e300: -1e-600 / 2) shows
    # no subnormal: where an underflow was flagged, a 0 row is looked at on other lines
    probe = under & watch.zero & ~(watch.low | watch.high | watch.fixed)
    at = np.flatnonzero(watch.low | watch.high | probe)
    # the points searched at once: what they saw (_Range.seen) held in _SEEN bytes
    block = max(1, _SEEN // ((len(expression.nodes) + 1) * order))
    for start in range(0, at.size, block):
        some = at[start:start + block]
        _search(expression, flat, name, order, some, watch.low[some], watch.high[some],
                derivative, unsure, redone, probe[some], watch.fixed[some], nudge)
    return derivative.reshape(shape), unsure.reshape(shape), redone.reshape(shape)


def _normal(derivative: np.ndarray) -> np.ndarray:
    """Where a number is a normal float: elsewhere its error is no fraction of it (Nth)."""
    size = np.abs(derivative)
    return (size >= _TINY) & (size < np.inf)


_SEEN = 2**25


def _search(expression, flat, name: str, order: int, at, low, high, derivative, unsure,
            redone, probe, fixed, nudge=None) -> None:
    """_rescaled's search of m at the points ``at`` (indices into ``flat``), whose sweep
    along x + t underflowed (``low``) or overflowed (``high``): the derivative found, into
    ``derivative`` there, ``redone`` where it was, ``unsure`` where no m was left.

    At the points ``probe`` a row was 0 where an underflow was flagged. There, and where
    rows underflowed, lines lifted ever higher are looked at first, so that a row which is
    0 on a line only for having left the range is known by the lines where it is not (log's
    row 5 of x^2 log x at 1e44 is 0 along x + 2^12 t too, and that line is not clean); an
    exact 0 is 0 on every line, and there the first m tried gives the same number, to the
    bit. Where no m is left, the number may be wrong (unsure), even where what vanished was
    negligible (x log x + sin x at 1e100, order 8): no line tells that apart. There, at a
    point ``fixed`` (a value out of range on every line) whose line x + t only underflowed,
    the number is the highest line's that only underflowed (``_lifted``), whose rows lost
    the least; elsewhere x + t's stands, said to be unsure where it is a normal float
    (x^2 exp(-1/x) at 4.64e41, order 7: -5e-247 along x + t, 0 on a higher line, 3.9e-331
    as it is, and no line tells that 0 from a wrong one)."""
    lo = np.where(low | probe, 0, -_UNKNOWN)      # the largest m whose rows underflowed
    hi = np.where(high, 0, _UNKNOWN)              # the smallest m whose rows overflowed
    seen, points, total = [], np.arange(at.size), at.size
    first = max(1, math.ceil(math.log2(order)))
    looked = low | probe
    if looked.any():     # (only there: a line lifted lowers no overflowed row)
        some, where = at[looked], points[looked]
        for m in _probes(first, order):
            _watched(expression, [a[some] for a in flat], name, order,
                     np.full(some.size, 2.0**m), _Range(some.size, seen, where, total), nudge)
    line = _watched(expression, [a[at] for a in flat], name, order, np.ones(total),
                    _Range(total, seen, points, total), nudge)      # what x + t's rows saw
    searched = ~probe | line.low        # a probed point whose 0s were exact: its number stands
    lifted = np.where(looked & ~high & fixed, np.nan, np.inf)  # (_lifted)
    at, lo, hi, points, lifted = (a[searched] for a in (at, lo, hi, points, lifted))
    while at.size:
        m = _next_exponent(lo, hi, first)
        left = (m > lo) & (m < hi)              # else no m is left between them
        unsure[at[~left]] = True
        kept = ~left & np.isfinite(lifted)
        derivative[at[kept]] = lifted[kept]
        at, lo, hi, m, points, lifted = (a[left] for a in (at, lo, hi, m, points, lifted))
        if not at.size:
            break
        watch = _watched(expression, [a[at] for a in flat], name, order, np.ldexp(1.0, m),
                         _Range(at.size, seen, points, total), nudge)
        # a row not finite where x + t's was: this line went too high, whatever the
        # watch saw (x^3's rows at 1e200 are inf on every line, and so not "high")
        high = watch.high | (~np.isfinite(watch.row) & np.isfinite(derivative[at]))
        clean = ~(watch.low | high)
        derivative[at[clean]] = _unscaled(watch.row[clean], order, m[clean])
        redone[at[clean]] = True
        lifted = _lifted(lifted, watch.row, order, m, watch.low & ~high)
        lo, hi = np.where(watch.low, m, lo), np.where(high, m, hi)
        at, lo, hi, points, lifted = (a[~clean] for a in (at, lo, hi, points, lifted))


def _lifted(lifted, row, order: int, m, under):
    """The derivative from the highest line yet on which rows only underflowed, at the
    points whose line x + t did no worse (``lifted`` not inf there): where no line is
    clean, it stands for x + t's. An underflow in row k of a node along x + 2^m t costs
    its k-th derivative at most 2^-1075 k!/2^(mk), less the higher the line: exp(x) at
    -740, order 60, whose value is subnormal on every line, is 0 along x + t (row 60 is
    e^-740/60!) and 4.2e-322, as it is, along x + 2^42 t (row 1 subnormal, row 60 not)."""
    take = under & ~np.isinf(lifted)
    found = _unscaled(np.where(take, row, 0.0), order, m)
    return np.where(take & np.isfinite(found), found, lifted)


def _watched(expression, flat, name: str, order: int, scale, watch=None,
             nudge=None) -> _Range:
    """A sweep along x + scale t at the points ``flat`` (one array per variable), watched
    (by ``watch``, or a new _Range), every series then moved by ``nudge`` if given; its
    row ``order`` is kept as the watch's ``row``."""
    watch = _Range(len(scale)) if watch is None else watch
    seen = watch if nudge is None else _and_nudged(watch, nudge)
    watch.row = _output(expression, flat, name, order + 1, scale, watch=seen)[order]
    return watch


def _and_nudged(watch: _Range, nudge):
    """``watch`` sees each series as the rule made it; the sweep goes on with it nudged."""
    def seen(function, series, args):
        watch(function, series, args)
        return nudge(function, series, args)
    return seen


def _probes(first: int, order: int) -> list[int]:
    """Lines lifted fourfold further each time, from 2^first to 2^(2200/order) (at most the
    largest float): row k of the highest is 2^(2200 k/order) times x + t's, past the
    underflow of a float64 product of two normal rows where k is near the order; beyond,
    the rows overflow on every line, and each overflowed row is redone from backward
    (_redo_from_backward), under a second per line at order 30."""
    top = max(first, min(_HIGHEST, 2200 // order))
    steps = [first]
    while steps[-1] < top:
        steps.append(min(4 * steps[-1], top))
    return steps


def _next_exponent(lo, hi, first: int):
    """The next m to try at each point, from the largest m whose rows underflowed (lo)
    and the smallest whose rows overflowed (hi): outwards by fourfold steps while one
    side is unknown, then halfway between; within 2^m's range."""
    up = np.where(lo == 0, first, 4 * lo)
    down = np.where(hi == 0, -first, 4 * hi)
    m = np.where(hi == _UNKNOWN, up, np.where(lo == -_UNKNOWN, down, (lo + hi) // 2))
    return np.clip(m, _LOWEST, _HIGHEST)


def _unscaled(row, order: int, m):
    """order! row / 2^(m order): the derivative from row ``order`` of the sweep along
    x + 2^m t. The exponents are added apart from the mantissas, so that no product on
    the way leaves the range; the one rounding is row * order!'s, so that where both
    sweeps stayed in range the two numbers are the same bits."""
    mantissa, exponent = np.frexp(row)
    f_mantissa, f_exponent = _factorial_parts(order)
    return np.ldexp(mantissa * f_mantissa, exponent + (f_exponent - m * order))


def _factorial_parts(order: int) -> tuple[float, int]:
    """order! as a mantissa in [0.5, 1) and a power of 2: rounded once while it fits a
    float, as _times_factorial has it; beyond, from its leading 64 bits."""
    whole = math.factorial(order)
    shift = max(whole.bit_length() - 64, 0) if order > 170 else 0
    mantissa, exponent = math.frexp(float(whole >> shift))
    return mantissa, exponent + shift
