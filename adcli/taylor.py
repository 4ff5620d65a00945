"""Taylor mode: derivatives of any order, and forward mode (JVP), from one sweep over the
node list with truncated Taylor series (each primitive's ``taylor`` rule).

Along a line through the point (x + t for the variable differentiated, the others fixed)
every node's value is a series in t: row k of a node's series is its k-th derivative in t
divided by k!. One sweep gives every order up to K at once, for a cost that grows like
K^2 per node, where nested reverse passes grow like 3^K. Row 1 alone is forward mode.

A rule's arithmetic can make nan of a term that is exactly 0 (0·inf: a fixed argument's
rows against exp(1000)) or overflow on the way to a finite row; those entries, and only
those, are redone from the primitive's backward with exact zeros (``_redo_from_backward``).
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .diagnostics import inside
from .errors import ValuesError
from .functions import _GradientGraph, _aligned, _constant_series, _weights


class JVP(NamedTuple):
    """A forward-mode pass: the output's value and tangent, and every node's (in the order
    of ``expression.nodes``; a number's are 0-d)."""

    value: np.ndarray
    tangent: np.ndarray
    values: list[np.ndarray]
    tangents: list[np.ndarray]


def taylor_derivative(expression, values: dict, name: str, order: int,
                      diagnostics=None) -> np.ndarray:
    """The ``order``-th derivative in ``name`` at every point, shaped like the points.
    With ``diagnostics``, each function whose series turned non-finite from finite inputs
    is blamed there, at those points."""
    rows = taylor_coefficients(expression, values, name, order, diagnostics)
    return _times_factorial(rows[order], order)


def taylor_coefficients(expression, values: dict, name: str, order: int,
                        diagnostics=None) -> np.ndarray:
    """Rows 0..order of the output's series along ``name``: row k is d^k/d name^k / k!.
    Shape (order + 1, *points)."""
    order = _order(order)
    arrays, point = _points(expression, values, {})
    shape = arrays[0].shape if arrays else ()
    seeds = {v: _seed(a, order + 1, v == name) for v, a in zip(expression.variables, arrays)}
    with _quiet():
        series = _sweep(expression.nodes, seeds, order + 1, keep=False,
                        diagnostics=diagnostics)[-1]
    rows = np.broadcast_to(series, (order + 1,) + shape).copy()
    return rows.reshape(order + 1) if point else rows


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


def _sweep(nodes, seeds: dict, length: int, keep: bool, diagnostics=None) -> list:
    """Every node's series in evaluation order. Without ``keep``, a series is dropped after
    its last use, so memory follows the widest point of the expression, not its size."""
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
                    _blame(diagnostics, node.function, computed[i], args)
            else:   # nothing here moves along the line: its value is all there is
                computed[i] = _constant_series(function.forward(*[a[0] for a in args]), length)
            for j in node.args:
                if last_use.get(j) == i:
                    computed[j] = None
    return computed


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
    redone = _exact(function, [a[:, where] for a in full], moving)
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
    shorter, so this nests at most as deep as the order. Points along axis 1 only."""
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
            series = _series(f, [graph.series(v, rows) for v in inputs], moving)
        else:
            series = _constant_series(output.data, rows)
        graph.known[id(output)] = series


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


def _seed(array, length: int, moving: bool):
    seed = _constant_series(array, length)
    if moving and length > 1:
        seed[1] = 1.0
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
