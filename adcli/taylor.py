"""Taylor mode: derivatives of any order, and forward mode (JVP), from one sweep over the
node list with truncated Taylor series (each primitive's ``taylor`` rule).

Along a line through the point (x + t for the variable differentiated, the others fixed)
every node's value is a series in t: row k of a node's series is its k-th derivative in t
divided by k!. One sweep gives every order up to K at once, for a cost that grows like
K^2 per node, where nested reverse passes grow like 3^K. Row 1 alone is forward mode.
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .errors import ValuesError
from .functions import _constant_series, _taylor_from_backward


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
    with np.errstate(all="ignore"):
        series = _sweep(expression.nodes, seeds, order + 1, keep=False,
                        diagnostics=diagnostics)[-1]
    rows = np.broadcast_to(series, (order + 1,) + shape).copy()
    return rows.reshape(order + 1) if point else rows


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
                computed[i] = function.taylor(*args)
                fixed = [not varying[j] for j in node.args]
                if any(fixed):
                    _without_fixed_terms(function, computed[i], args, fixed)
                if not all(np.isfinite(a[0]).all() for a in args):
                    _constant_at_infinity(computed[i], args)
                if diagnostics is not None:
                    _blame(diagnostics, node.function, computed[i], args)
            else:   # nothing here moves along the line: its value is all there is
                computed[i] = _constant_series(function.forward(*[a[0] for a in args]), length)
            for j in node.args:
                if last_use.get(j) == i:
                    computed[j] = None
    return computed


def _without_fixed_terms(function, y, args, fixed) -> None:
    """Redo the entries of rows 1.. of y that came out nan, leaving out the terms of the
    arguments that do not move. Their rows are exactly 0, but a recurrence that multiplies
    them by another argument's infinite (or nan) value makes nan of a term that is 0:
    x*y at x = inf along x has the term 0·inf. The reverse pass never forms it (y gets no
    gradient), and neither does the rule from backward, which skips an argument whose
    rows are all 0: it is used only where that means exactly the fixed arguments. (An
    inf is kept: 0·inf gives nan, never inf.)"""
    bad = np.isnan(y[1:])
    if not bad.any():
        return
    if not all(np.any(a[1:]) for a, f in zip(args, fixed) if not f):
        return  # a moving argument whose rows came out 0 is not a known 0: keep the nan
    redone = _taylor_from_backward(function, args)
    y[1:] = np.where(bad, redone[1:], y[1:])


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


def _blame(diagnostics, function, series, args) -> None:
    """Blame ``function`` where its derivative rows went non-finite while its inputs'
    series and its own value stayed finite."""
    bad = ~np.isfinite(series[1:]).all(axis=0)
    if not bad.any():
        return
    fine = np.isfinite(series[0])
    for a in args:
        fine = fine & np.isfinite(a).all(axis=0)
    diagnostics.add(function, "derivative", bad & fine)


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
