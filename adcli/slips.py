"""What a wrong expectation shows: the slips a hand derivation makes, each claimed only
where it holds at every counted point (``check`` calls ``diagnose`` once it differs).

Each claim compares the expectation with the true derivative rebuilt with one thing
changed: another order, a constant factor, another variable's partial, an inner node's
derivative (reverse mode has every df/du from its one pass), a rule's term left out or
altered (a forward-mode sweep gives each node's tangent, so each input's term), a
function's derivative taken at the variable or from another row of the table; or f'
turned over whole: 1/f', f'/f, and (f')^2 for f''.
"""
from __future__ import annotations

import itertools
import math
import re

import numpy as np

from .checking import (DEFAULT_RTOL, MIN_FOR_DIAGNOSIS, UNDEFINED_CLAIM, Target, _bound,
                       _close, _expectation, _judged, derivative_values, label_for, mixed_label,
                       path, undefined)
from .errors import AdcliError, listing
from .functions import CALLABLE, cos

SLIP_NODES = 2000      # nodes of f up to which every g(u) is searched for a slip, not the root
# The rules' names (u and v of u·v, g of g(u)) are written as these placeholders, then as
# letters f does not use (for f of u and v, "for u = u^2" would name two things one way).
U, V, G = "\ue000", "\ue001", "\ue002"
RULE_NAMES = (("u", "v"), ("p", "q"), ("g", "h"), ("r", "s"), ("a", "b"), ("m", "n"))
FUNCTION_NAMES = ("g", "h", "k", "φ", "ψ")
WITHOUT_LN = " without the factor ln("    # (2^x's written 2^x: f itself, said so alone)
POWER_RULE_ALONE = "; this is the power rule "  # (x^x's written x·x^(x-1): not f itself)
SIGN_ERROR = "×-1 everywhere: a sign error"
MIXED_TOO = ": differentiated in {} too"    # (x^2 y^3's ∂/∂x written 6x y^2: _mixed_instead)


def diagnose(f, targets, order, points, found, status) -> list[str]:
    claims = _claims(f, targets, order, points, found, status)
    if not claims:
        return claims
    u, v, g = _rule_letters(f, targets)
    return [c.replace(U, u).replace(V, v).replace(G, g) for c in claims]


def _rule_letters(f, targets) -> tuple[str, str, str]:
    """Letters for a rule's u, v and g that no name in f or an expectation uses (as
    written: a --let definition's name too)."""
    import re

    texts = [f.text, *(t.expectation.text for t in targets if t.expectation is not None)]
    taken = {*f.variables, *(n for text in texts for n in re.findall(r"[^\W\d_]\w*", text))}
    u, v = next((pair for pair in RULE_NAMES if not taken & set(pair)), ("U", "V"))
    g = next((n for n in FUNCTION_NAMES if n not in taken | {u, v}), "G")
    return u, v, g


def _fill(template: str, d: str, x: str) -> str:
    """A rule's words: {d} the derivative's sign, {x} the variable, {u} {v} {g} names."""
    return template.format(d=d, x=x, u=U, v=V, g=G)


def _chain_rule(d: str, x: str) -> str:
    return _fill("{d}{g}({u})/{d}{x} = {g}'({u})·({d}{u}/{d}{x})", d, x)


def _claims(f, targets, order, points, found, status) -> list[str]:
    counted = (status == "match") | (status == "differs")
    # (a variable given one value and not differentiated in is a parameter, a = 3: no
    # partial in it is a slip's)
    differentiated = {n for t in targets if t.name is not None for n in path(t, order)}
    found_any = []
    for i, t in enumerate(targets):
        if t.expectation is None or not np.any(t.status == "differs"):
            continue
        # (not where the expectation was judged against f's left and right derivatives:
        # AD, which every claim below compares with, is a kink's convention there)
        where = counted & _judged(t) & ~t.by_sides
        # A claim must be certain: it is checked at the default tolerance, whatever
        # --rtol/--atol loosened the verdict to.
        tolerance = (DEFAULT_RTOL, 0.0)
        # The expectation read otherwise, as a caution on stderr says it may be meant
        # (1/2 x^(-1/2) is 1/(2x^(-1/2))): where that reading matches, it is the slip, and
        # a diagnosis of the reading as written would be of what was not meant (its nan
        # too: 1/√2 x, read 1/sqrt(2x), is nan for x < 0, and (1/√2)·x is not).
        otherwise = _read_otherwise(t, points, where, found.ad[i][where],
                                    found.ad_scale[i][where], tolerance) \
            if where.sum() >= MIN_FOR_DIAGNOSIS and np.any(where & (t.status == "differs")) \
            else None
        if otherwise:
            found_any.append(otherwise)
            continue
        gone = where & undefined(found.expected[i], found.expected_scale[i])
        if gone.any():      # said first; the claims below are about the rest
            found_any += _undefined(t, points, where, gone, found.ad[i])
            where &= ~gone
        if where.sum() < MIN_FOR_DIAGNOSIS or not np.any(where & (t.status == "differs")):
            continue
        e, e_scale = found.expected[i][where], found.expected_scale[i][where]
        a, a_scale = found.ad[i][where], found.ad_scale[i][where]
        if t.name is not None and not f.moving(path(t, order))[-1]:    # d/dx (e^2) = 2e
            found_any.append(f"the derivative of a constant is 0: {f.text} does not depend "
                             f"on {t.name}")
            continue
        # (where its other readings were tried and differ too, the reading is no slip of
        # its own: 1/2 x^2 for x^3/3's x^2 is wrong read either way)
        tried = READ_TRIED if _read_tried(t.expectation) else ""
        cautions = [f"the expectation was read as written: {c}{tried}"
                    for c in t.expectation.cautions]
        # Right on one side, wrong in sign on the other: an absolute value lost or added
        # (ln|x|'s derivative written 1/|x|), said rather than a rule that holds by it.
        sign = _sign_in_part(f, t, e, e_scale, a, a_scale, points, where, tolerance)
        if sign:
            found_any += _of_reading(t, tried, sign) + cautions
            continue
        # A constant factor is said after the rule that explains it (e^(3x)'s derivative
        # written e^(3x) is 1/3 of it because the chain rule's 3 is missing).
        multiple = _multiple(t, e, e_scale, a, a_scale, tolerance,
                             _parameter_logs(f, points, where, differentiated)
                             + _base_logs(f, t.expectation),
                             lambda c: _parameter_power(f, t, order, c, points, where,
                                                        differentiated, tolerance))
        # A factor of f free of the variables differentiated in, left out (x^2·y's ∂/∂x
        # written 2x): said instead of the bare number a held factor's value makes it
        # (sin(a)·x^2's ×7.086 at a = 3), but not instead of a parameter's power that names
        # it already (×1/a (a = 3)), nor beside swapped partials (below): one line for one
        # slip.
        held = multiple
        left_out = [] if t.name is None or _names_parameter(multiple) else \
            _dropped_factor(f, t, order, e, e_scale, a, a_scale, points, where, tolerance)
        multiple = left_out or multiple
        # Another order is said beside the claims of a rule (e^(3x)'s written e^(3x) is f
        # itself, and the chain rule's 3 left out): it is a coincidence as often as the
        # slip; but above the finer ones, as the README ranks them (x e^x's written x e^x is
        # f itself, and the product rule's term e^x left out: said as f itself). Two or
        # three too many only where no factor explains it (cos's derivative written sin is
        # -1 times it, and its third derivative) and the expectation is no constant (x^3's 6).
        far = not multiple and np.ptp(e) > 0
        if f.has_diff:
            orders = []
        elif t.name is None:
            orders = _derivative_instead(f, t, e, e_scale, points, where, tolerance, far)
        elif t.names:
            orders = _other_mixed(f, t, e, e_scale, found.value[where], points, where,
                                  tolerance)
        else:
            orders = _another_derivative(f, t, order, e, e_scale, a, a_scale, found.value[where],
                                         points, where, tolerance, far)
        claims = _offset(e, e_scale, a, a_scale, tolerance) if order == 0 else []
        inner = []
        if order == 1:
            sweep = _sweep(f, t, points, where)
            claims += _numerator_swapped(f, t, multiple, sweep)
            swapped = _swapped(f, t, e, e_scale, found, points, where, differentiated,
                              tolerance)
            inner = _inner(f, t, e, e_scale, a, found, sweep, where, tolerance)
            if swapped and t.ordinary:
                # (d/dx a^x written x a^(x-1): to who wrote d/dx, a is a constant, and
                # the power rule on a^x is the slip made; ∂f/∂a is that by coincidence;
                # so is ∂f/∂c of sin(3x + c), whose d/dx written cos(3x + c) lacks du/dx)
                swapped = _power_rule(f, t, e, e_scale, a, sweep, found, points, where,
                                      tolerance) or ([] if inner else swapped)
            claims += swapped
            claims += inner
            quotient = _quotient(f, t, e, e_scale, a, a_scale, sweep, tolerance)
            claims += quotient
            claims += _outer_at_x(f, t, e, e_scale, a, sweep, found, points, where,
                                  tolerance)
            # (after a claim above, another function's rule is the coincidence: atan(x^2)'s
            # derivative with atan' taken at x is log1p(x^2)'s too; and not beside the
            # quotient rule's v^2 left out, which says what was written: 1/√x's -1/(2√x) is
            # -v' over v^2 without v^2, not √x' taken as √x/2)
            claims += [] if quotient else _misremembered(f, t, e, e_scale, a, sweep, found,
                                                          where, tolerance)
            claims += [] if claims else _outer_missing(f, t, e, e_scale, a, sweep, found,
                                                       where, tolerance)
            # (another order too: sin's written -sin(x) is cos' and sin'' alike, and the
            # README ranks the order first)
            claims += [] if claims or orders else _other_function(f, e, e_scale, a, sweep,
                                                                  found, where, tolerance)
            # (the README ranks a power's exponent kept or raised, and its like, below the
            # quotient rule: 1/x^2's derivative written -2/x is over v, not x^2's 2x^3)
            for lower in (lambda: _power_rule(f, t, e, e_scale, a, sweep, found, points, where,
                                              tolerance),
                          lambda: _exponent_kept(f, t, e, e_scale, a, sweep, found, where,
                                                 tolerance),
                          lambda: _inside_only(f, t, e, e_scale, a, sweep, found, where,
                                               tolerance),
                          # (nor this: (2x)^(3/2)/3's f'' (2x)^(-1/2) is f' lowered by two)
                          lambda: [] if orders else _exponent_lowered(f, t, e, e_scale, a,
                                                                      sweep, found, where,
                                                                      tolerance),
                          # (not beside another order: (2x)^(3/2)/3's f'' is (2x)^(-1/2)
                          # as (2x)^(3/2 - 1) with the sign lost is)
                          lambda: [] if orders else _exponent_sign(f, t, e, e_scale, a, sweep,
                                                                   found, where, tolerance),
                          # (nor these: 1/sqrt(x)'s written 2 sqrt(x) is an
                          # antiderivative, and 1/(dv/dx) for v = sqrt(x) by its chance)
                          lambda: [] if orders else _inner_itself(f, t, e, e_scale, a, sweep,
                                                                  found, where, tolerance),
                          lambda: [] if orders else _reciprocal(f, t, e, e_scale, a, sweep,
                                                                found, where, tolerance)):
                claims = claims or lower()
            # The finer claims, each only when nothing above holds: terms of a sum each
            # right or without its chain factor (sin(2x) + cos(3x) as cos(2x) - sin(3x)),
            # one term off (x e^x's
            # derivative written e^x is that, before it is u'v'), the derivatives
            # multiplied, which of the terms written are right, a constant too many.
            # f' turned over only where no rule above explains the expectation (e^(x^2)'s
            # written 2x is f'/f, but the slip is exp' left out) and no other order does.
            # But a sum's terms each right and some left out outrank another order and a
            # constant too many, which then hold by coincidence (e^x - 4x's written e^x is
            # f'' as e^x is its own derivative; the slip is -4 left out).
            dropped = [] if claims or not (multiple or orders) else \
                _dropped_terms(f, t, points, where, sweep, tolerance)
            if dropped:
                claims, orders = dropped, []
            # (not f' turned over where a caution's reading was tried: 1/2 x, read 1/(2x),
            # is x^2's 1/f' by the reading's chance; the reading leads, and says the slip)
            for finer in (lambda: [] if tried else _upside_down(f, t, e, e_scale, a, a_scale,
                                                                found, sweep, points, where,
                                                                tolerance),
                          lambda: _sum_chain(f, t, points, where, sweep, tolerance),
                          lambda: _one_term(f, t, e, e_scale, a, a_scale, found, where,
                                            sweep, tolerance),
                          lambda: _combined(f, t, e, e_scale, a, sweep, found, where,
                                            tolerance),
                          lambda: _terms(f, t, points, where, sweep, tolerance),
                          lambda: _offset(e, e_scale, a, a_scale, tolerance, t.label)):
                if not multiple and not orders:
                    claims = claims or finer()
        elif order == 2 and not multiple and not f.has_diff and not t.names:
            # ((f')^2 first: it has no factor to fit, as a term off by one has; and not where
            # another order is f' squared too: x^2/4's is f itself)
            # (one forward sweep of three Taylor coefficients serves both second-order looks)
            seeds, series = _second_sweep(f, t, points, where)
            claims += ([] if orders else _squared(f, t, e, e_scale, a, a_scale, points, where,
                                                  tolerance)) or \
                _second_terms(f, t, e, e_scale, a, a_scale, series, tolerance) or \
                ([] if orders or not t.ordinary else
                 _chain_once_words(f, t, e, e_scale, a, a_scale, points, where, tolerance)) or \
                ([] if orders else
                 _second_exponent(f, t, e, e_scale, a, seeds, series, tolerance))
        if order >= 2 and not claims and not multiple and not orders:
            # (a constant too many, as at order 1, last there too: x^3's d²/dx² written
            # 6x + 1; a term off by a factor, or another order, is the finer story)
            claims = _offset(e, e_scale, a, a_scale, tolerance, t.label)
        # A rule's slip that explains the expectation explains the factor too: the factor
        # is what the rule left out, not one dropped (y sin(xy)'s ∂/∂x written y cos(xy)
        # lacks the chain rule's ∂u/∂x, which is y; x e^y's ∂/∂y written e^y is ∂f/∂x,
        # swapped partials).
        if claims and left_out:
            multiple = held
        elif left_out:
            # (a mixed partial beside it holds by the linearity in y that the factor y
            # dropped makes: x^2 y + y^3's ∂/∂x written 2x is ∂²f/∂x∂y only so)
            orders = [line for line in orders if not _mixed_too(f, line)]
        claims, multiple, orders = _one_story(t, order, claims, inner, multiple, orders)
        found_any += _of_reading(t, tried, claims + multiple + orders) + cautions
    return found_any


def _of_reading(t, tried: str, lines: list[str]) -> list[str]:
    """The lines of the expectation as read, each naming that reading where another was
    tried and differs too, as the caution's line names the other: -1/2 x^(-1/2) for
    x^(-1/2)'s derivative, read (-1)/(2x^(-1/2)), raises the exponent, and read the other
    way keeps it; two lines of one expectation that would seem to contradict each other."""
    e = t.expectation
    return [f"read as written, {_part(e, len(e.nodes) - 1)}: {line}" for line in lines] \
        if tried else lines


def _mixed_too(f, line: str) -> bool:
    """Whether a line is _mixed_instead's: differentiated in another variable too."""
    return any(line.endswith(MIXED_TOO.format(y)) for y in f.variables)


def _one_story(t, order, claims, inner, multiple, orders):
    """Of a rule's claims and another order's, those that do not contradict each other.
    f itself for e^(3x)'s written e^(3x) holds as exactly as d/du of e^u with du/dx left
    out, since e^u is its own derivative: one observation, said the simpler way (its 1/3
    too, which that u explained). An antiderivative beside a rule's slip is a coincidence:
    sin(-x)'s written cos(-x) is d/du of sin(u), -f', and -f' is an antiderivative of f
    only because sin'' = -sin, not because the two were given the other way round. So is
    2^x's written 2^x: its ln(2) left out, and the ×1/ln(2) that explains, are f itself
    said twice more (one line, not three). But the power rule on a varying exponent, as
    written, is the finer story: x^x's written x·x^(x-1) is x^x by chance (v = u), and
    what was done is the power rule (said alone)."""
    if orders == [_itself(t)] and _power_rule_alone(claims):
        orders = []
    elif orders == [_itself(t)] and (inner or _without_ln(claims)):
        claims = [c for c in claims if c not in inner and not _without_ln([c])]
        multiple = multiple if claims else []
    elif orders == [_itself(t)] and order >= 2 and not _sign_error(multiple):
        # (e^(3x)'s d²/dx² written e^(3x) is 1/9 of it as du/dx = 3 was left out of both
        # differentiations: f itself says it, as at order 1, where no rule is looked for;
        # but cos's written cos is likelier a minus lost, said beside it. A -1/9, sin(3x)'s,
        # is no lost minus alone: f itself again)
        multiple = []
    elif claims and orders == _antiderivative_words(t):
        orders = []
    elif _sign_error(multiple) and orders == _antiderivative_words(t):
        # Two stories no number tells apart, said as one: cos's written sin is likelier a
        # minus lost, sin's written -cos likelier integrated (∫ sin = -cos).
        multiple, orders = [f"{multiple[0]}; or else it is an antiderivative of f, its own "
                            f"{t.label} being f (are the two given the other way round?)"], []
    return claims, multiple, orders


def _sign_error(multiple) -> bool:
    """Whether the constant factor said is -1: f' with its sign lost, which makes the
    expectation an antiderivative too wherever f'' = -f (cos's written sin, sin's -cos)."""
    return any(c.startswith(SIGN_ERROR) for c in multiple)


def _power_rule_alone(claims) -> bool:
    """Whether a claim is the power rule written for a power whose exponent varies
    (_power_rule's, of x^x's x·x^(x-1))."""
    return any(POWER_RULE_ALONE in c for c in claims)


def _without_ln(claims) -> bool:
    """Whether a claim is a constant base's power without its ln (_power_rule's)."""
    return any(c.startswith("this differentiates ") and WITHOUT_LN in c for c in claims)


def _sign_in_part(f, t, e, e_scale, a, a_scale, points, where, tolerance) -> list[str]:
    """f' where it matches and -f' where it differs: an absolute value lost (acsc's
    derivative written -1/(x sqrt(x^2 - 1)), right for x > 0 only)."""
    same = _close(e, a, e_scale, a_scale, *tolerance)
    flipped = _close(e, -a, e_scale, a_scale, *tolerance) & (a != 0)
    if same.all() or not same.any() or not np.all(same | flipped) or \
            flipped.sum() < MIN_FOR_DIAGNOSIS:
        return []
    # (the classic: right for x > 0, |x| written x; or one side of |u|'s kink, x < 1 of
    # |x - 1|, whose u is then the one to suspect; |x| only where the flip is x's own sign:
    # acos(cos t)'s is sin t's, no part of f, and no cause is guessed)
    side, x = _kink(f, points, where, flipped) or _variable_side(points, where, flipped) \
        or _part_side(f, points, where, flipped) or (None, None)
    which = f"where {side}" if side else f"at {int(flipped.sum())} of {len(e)} points"
    why = f" (an absolute value lost or added, |{x}| written {x} or {x} written |{x}|?)" \
        if x else ""
    return [f"the sign is wrong {which} and right elsewhere: -{t.label} there{why}"]


def _kink(f, points, where, chosen) -> tuple[str, str] | None:
    """(the side, u) where the ``chosen`` counted points are just those on one side of
    the kink of an absolute value |u| in f: "x < 1" where u is linear in the one variable
    that varies and its root a short fraction, else "u < 0"; or None."""
    if f.has_diff:
        return None
    from .taylor import jvp

    with np.errstate(all="ignore"):
        values = jvp(f, {v: points[v][where] for v in f.variables}, {}).values
    inside = [node.args[0] for node in f.nodes if node.name == "abs" and len(node.args) == 1]
    return _signed(f, values, inside, points, where, chosen)


def _signed(f, values, parts, points, where, chosen) -> tuple[str, str] | None:
    """(the side, u) for the first of the ``parts`` of f (node indices, with their
    ``values``) whose sign is one at the ``chosen`` counted points and not at the others."""
    for k in parts:
        u = np.broadcast_to(values[k], chosen.shape)
        for sign, test in (("<", np.less), (">", np.greater)):
            if np.all(test(u[chosen], 0)) and not np.any(test(u[~chosen], 0)):
                text = _part(f, k)
                return _root_side(u, sign, points, where) or f"{text} {sign} 0", text
    return None


def _variable_side(points, where, chosen) -> tuple[str, str] | None:
    """("x < 0", x) where the ``chosen`` counted points are just those of one sign of the
    variable x (of a parameter y, not the variable differentiated in: |y| is suspected)."""
    side = _side(points, where, chosen)
    return (side, side.split()[0]) if side else None


def _part_side(f, points, where, chosen) -> tuple[str, str] | None:
    """_kink's (the side, u) for any part u of f that varies, not only an absolute
    value's: sqrt(sin(x)^2) is |sin(x)|, its derivative's sign sin(x)'s. Up to SLIP_NODES
    nodes, inner parts first (the smallest that says it)."""
    if f.has_diff or len(f.nodes) > SLIP_NODES:
        return None
    from .taylor import jvp

    with np.errstate(all="ignore"):
        values = jvp(f, {v: points[v][where] for v in f.variables}, {}).values
    parts = [k for k, node in enumerate(f.nodes) if f.varying[k] and node.kind != "variable"]
    return _signed(f, values, parts, points, where, chosen)


def _root_side(u, sign: str, points, where) -> str | None:
    """"x < c" for u < 0 (sign "<") where u = m·x + b at every point, x the one variable
    that varies, and c = -b/m a short fraction; else None."""
    moving = [v for v in points if np.ptp(points[v][where]) > 0]
    if len(moving) != 1:
        return None
    x = np.asarray(points[moving[0]][where], dtype=float)
    lo, hi = int(np.argmin(x)), int(np.argmax(x))
    m = (u[hi] - u[lo]) / (x[hi] - x[lo])
    b = u[lo] - m * x[lo]
    if m == 0 or not np.all(_close(u, m * x + b, np.abs(u), np.abs(m * x) + abs(b),
                                   DEFAULT_RTOL, 0.0)):
        return None
    from fractions import Fraction

    root = -b / m
    simple = Fraction(root).limit_denominator(DENOMINATOR)
    if abs(simple - root) > 1e-9 * max(1.0, abs(root)):
        return None
    flip = {"<": ">", ">": "<"}
    return f"{moving[0]} {sign if m > 0 else flip[sign]} {_nice(float(simple))}"


# A factor's fraction, at most: a term of sin(300x)'s derivative written cos(300x) is
# 1/300 of it (a random factor is never within 1e-10 of so short a fraction).
DENOMINATOR = 1000
PART_CHARS = 80  # a sub-expression named in a diagnosis, at most (its middle elided)


def _part(f, index: int) -> str:
    """Node ``index`` of f as text for a diagnosis: a term of a 10^4-term sum is named
    without printing the other terms."""
    from .printer import render

    text = render(f.nodes, root=index)
    if len(text) <= PART_CHARS:
        return text
    half = (PART_CHARS - 3) // 2
    return f"{text[:half]} … {text[-half:]}"


def _nice(c: float, extra=()) -> str:
    """A factor as people write it: 2, -1, 1/2, 1/3 (rounding error dropped): a fraction
    (denominator up to DENOMINATOR) that close, else a decimal of up to six digits, or a
    constant's multiple (extra's, a parameter's ln(b), before _CONSTANTS)."""
    from fractions import Fraction  # ~3 ms: only once a claim is worded

    # (a short fraction first, as the README promises: 1/2 and 1/7 alike, not 0.5 and 1/7)
    simple = Fraction(c).limit_denominator(DENOMINATOR)
    if abs(simple - c) <= 1e-10 * abs(c):
        return str(simple)
    short = float(f"{c:.6g}")
    if abs(short - c) <= 1e-10 * abs(c):
        return f"{short:.6g}"
    return _with_constant(c, extra) or f"{c:.12g}"


# Constants a factor is likely made of: 2^x's derivative without its ln(2) is 1/ln(2)
# times it; sin(pi x)'s without its pi, 1/pi; a 45° or 30° angle's value, √2 or √3.
_CONSTANTS = (("π", math.pi), ("ln(2)", math.log(2)), ("ln(10)", math.log(10)), ("e", math.e),
              ("√2", math.sqrt(2)), ("√3", math.sqrt(3)))


def _with_constant(c: float, extra=()) -> str | None:
    """c as a short fraction times or over one of _CONSTANTS or its square (1/ln(2),
    3π/2, 1/(6π), 1/ln(2)^2), if it is one."""
    from fractions import Fraction

    for (name, k), power in itertools.product((*extra, *_CONSTANTS), (1, 2)):
        written = name if power == 1 else f"{name}^2"
        sep = "" if len(name) == 1 else "·"      # 3π, 3·ln(2)
        for times, r in ((True, c / k ** power), (False, c * k ** power)):
            simple = Fraction(r).limit_denominator(12)
            if simple == 0 or abs(simple - r) > 1e-10 * abs(r):
                continue
            p, q = simple.numerator, simple.denominator
            if times:
                top = {1: written, -1: f"-{written}"}.get(p, f"{p}{sep}{written}")
                return top if q == 1 else f"{top}/{q}"
            return f"{p}/{written}" if q == 1 else f"{p}/({q}{sep}{written})"
    return None


def _constant(v, v_scale, tolerance) -> float | None:
    """The one value of v, up to the rounding its formula can make (cosh(x)^2 - sinh(x)^2
    is 1, though at x = 20 its float is 0): its value where it rounds least; else None."""
    best = int(np.argmin(v_scale))
    one = np.full_like(v, v[best])
    if np.all(_close(v, one, v_scale, np.full_like(v, v_scale[best]), *tolerance)):
        return float(v[best])
    return None


def _offset(e, e_scale, a, a_scale, tolerance, label: str | None = None) -> list[str]:
    """e = a + c for a constant c != 0: at order 0 (no label), an identity off by c, as
    antiderivatives right, or, both constants, the two values (an identity that holds with
    another constant); above, a constant term too many (d/dx of 5x^2 + 3 written 10x + 3)."""
    c = float(np.median(e - a))
    if c == 0 or not np.isfinite(c):
        return []
    shifted = a + c
    if not np.all(_close(e, shifted, e_scale, a_scale + abs(c), *tolerance)):
        return []
    constant = _constant(a, a_scale, tolerance)
    if label is not None:
        if constant is not None:  # any two constants differ by one: no clue
            return []
        sign = "-" if c < 0 else "+"
        return [f"the expectation is {label} {sign} {_nice(abs(c))} at every point"]
    if constant is not None:    # no antiderivatives (of 0?): an identity's constant wrong
        other = _constant(e, e_scale, tolerance)
        if other is None or _nice(other) == _nice(constant):
            return []
        return [f"f is {_nice(constant)} at every point, the expectation {_nice(other)}"]
    # (--order 0 checks an identity or a simplification step too, where a constant off is
    # the slip: worded so that it does not read as acceptance)
    return [f"the two differ by the constant {_nice(c)} everywhere: as an identity this is "
            "wrong; as an antiderivative it is right up to the constant"]


def _parameter_logs(f, points, where, differentiated) -> list[tuple[str, float, str]]:
    """ln(b) for each variable b of f held at one positive value and not differentiated in,
    with its value: log_b(x)'s derivative written 1/x is ln(b) times it, for b = 3 too."""
    logs = []
    for name in (n for n in f.variables if n not in differentiated):
        values = np.ravel(points[name][where])
        if values.size and np.ptp(values) == 0 and values[0] > 0 and values[0] != 1:
            logs.append((f"ln({name})", math.log(values[0]), f"{name} = {values[0]:.12g}"))
    return logs


def _base_logs(*expressions) -> list[tuple[str, float, str]]:
    """ln(b) for each number b > 0 (not 1, 2, 10 or e: _CONSTANTS has those) that is the
    base of a power or a logarithm in the expressions: (log_3 x)' written ln(3)/x is ln(3)^2
    times it, (3^x)' written 3^x ln(3)^2, ln(3) times it."""
    from .functions import Log, Pow

    bases = {}
    for e in expressions:
        for node in e.nodes:
            if node.function in (Log, Pow) and node.args:
                base = e.nodes[node.args[0]]
                if base.kind == "number" and base.value > 0 and \
                        base.value not in (1.0, 2.0, 10.0, math.e):
                    bases[f"ln({base.value:g})"] = math.log(base.value)
    return [(name, k, "") for name, k in bases.items()]


def _multiple(t, e, e_scale, a, a_scale, tolerance, logs=(), by_parameter=None) -> list[str]:
    nonzero = a != 0
    # two constants: no clue (cosh(x)^2 - sinh(x)^2 is one, its floats not all 1)
    if nonzero.sum() < MIN_FOR_DIAGNOSIS or _constant(a, a_scale, tolerance) is not None:
        return []
    c = float(np.median(e[nonzero] / a[nonzero]))
    if not np.isfinite(c) or c == 0 or abs(c - 1) <= 1e-9:
        return []
    if not np.all(_close(e, c * a, e_scale, abs(c) * a_scale, *tolerance)):
        return []
    c = _settled(c, e[nonzero], e_scale[nonzero], a[nonzero], a_scale[nonzero], tolerance)
    if c is None:
        return []
    named = by_parameter(c) if by_parameter else None
    if named:   # (a parameter's 1/a, as its ln(b), before the 1/3 its value a = 3 gives)
        text, held = named[0], [named[1]]
    else:
        text = _nice(c, [(name, k) for name, k, _ in logs])
        held = [value for name, _, value in logs if name in text and value]
    if text == "-1":
        return [f"{SIGN_ERROR} (the expectation is -{t.label} at every point)"]
    return [f"×{text} everywhere: the expectation is {text} times {t.label} at every point"
            + (f" ({', '.join(held)})" if held else "")]


def _parameter_power(f, t, order, c, points, where, differentiated,
                     tolerance) -> tuple[str, str] | None:
    """The factor c as ±a^k (k = ±1, ±2) for the one parameter a (held at one value, not
    differentiated in) that fits, where the expectation is that power's multiple of the
    derivative at another value of a too: (the words, "a = 3"), else None. arctan(x/a)'s
    derivative written without its 1/a is ×1/a at a = 3 and at 3.75; a·sin(2x)'s written
    without its 2 is ×1/2 at a = 2, and at 2.5 too: no power of a, but a coincidence."""
    fits = []
    for name in (n for n in f.variables if n not in differentiated):
        values = np.ravel(points[name][where])
        if not values.size or np.ptp(values) > 0 or abs(values[0]) in (0.0, 1.0):
            continue
        for k, sign in itertools.product((1, -1, 2, -2), (1, -1)):
            if abs(sign * values[0] ** k - c) <= 1e-10 * abs(c):
                fits.append((name, float(values[0]), k, sign))
    if len(fits) != 1:      # (a = 3 and b = 9, 1/9: either, and naming one is a guess)
        return None
    name, value, k, sign = fits[0]
    other = PARAMETER_MOVED * value
    if not _multiple_at(f, t, order, {name: other}, sign * other ** k, points, where,
                        tolerance):
        return None
    power = name if abs(k) == 1 else f"{name}^2"
    return ("-" if sign < 0 else "") + (power if k > 0 else f"1/{power}"), \
        f"{name} = {value:.12g}"


PARAMETER_MOVED = 1.25  # a parameter's value times this: where its power is tried again


def _names_parameter(multiple) -> bool:
    """Whether _multiple's claim names the parameter held that makes it: ×1/a (a = 3)."""
    return any(re.search(r"\(\S+ = [^()]+\)$", line) for line in multiple)


def _dropped_factor(f, t, order, e, e_scale, a, a_scale, points, where,
                    tolerance) -> list[str]:
    """f (or the one term of its sum that varies, _moving_term) a product with factors free
    of the variables differentiated in (y, for ∂/∂x of x^2·y), and the expectation its
    derivative over them at every point: each such factor treated as if it vanished, not
    kept as the constant it is. Tried for each one alone, then all of them together; where
    the factor is held at one value, only if it explains the expectation at another value
    too (a·x^2's written a·x at a = 2 is 1/a of it by chance: the slip is the power rule's
    2)."""
    if f.has_diff:
        return []
    free = _free_factors(f, path(t, order))
    tries = [[one] for one in free] + ([free] if len(free) > 1 else [])
    if not tries or not np.any(e != 0):
        return []
    at = {v: points[v][where] for v in f.variables}
    values = _sweep(f, t, points, where).values
    for factors in tries:
        k = _factor_values(values, factors, len(e))
        if k is None or not np.all(_close(a, k * e, a_scale, np.abs(k) * e_scale, *tolerance)):
            continue
        if np.ptp(k) == 0 and not _dropped_elsewhere(f, t, order, factors, at, points,
                                                       where, tolerance):
            continue
        return [_dropped_words(f, t, factors, path(t, order))]
    return []


def _free_factors(f, names) -> list[tuple[int, bool]]:
    """(node, whether it divides) for each factor of _moving_term's product (through its
    signs and quotients) that holds a variable, but none of ``names``."""
    moving, varying = f.moving(names), f.moving(f.variables)
    factors, stack = [], [(_moving_term(f, names)[0], False)]
    while stack:
        j, over = stack.pop()
        node = f.nodes[j]
        if node.kind == "infix" and node.name in ("mul", "div"):
            top, bottom = node.args
            stack += [(bottom, over != (node.name == "div")), (top, over)]
        elif node.kind == "prefix" and node.name == "neg":
            stack.append((node.args[0], over))
        elif varying[j] and not moving[j]:
            factors.append((j, over))
    return factors


def _moving_term(f, names) -> tuple[int, bool]:
    """The one term of f's sum that moves in ``names`` (x^2·y of x^2·y + y^3, whose other
    terms' derivative is 0: their factors are no factors of f'), else f's root; and whether
    the sum subtracts it."""
    moving, j, minus = f.moving(names), len(f.nodes) - 1, False
    while f.nodes[j].kind == "infix" and f.nodes[j].name in _SUMS:
        inputs = [k for k, i in enumerate(f.nodes[j].args) if moving[i]]
        if len(inputs) != 1:
            break
        minus ^= f.nodes[j].name == "sub" and inputs == [1]
        j = f.nodes[j].args[inputs[0]]
    return j, minus


def _factor_values(values, factors, n: int) -> np.ndarray | None:
    """The product of the factors at the counted points, or None where it is no factor
    to speak of: not finite, 0, or ±1 at every point."""
    with np.errstate(all="ignore"):
        k = np.ones(n)
        for j, over in factors:
            v = np.broadcast_to(values[j], (n,))
            k = k / v if over else k * v
    if not np.all(np.isfinite(k)) or np.any(k == 0) or np.all(np.abs(k) == 1):
        return None
    return k


def _dropped_elsewhere(f, t, order, factors, at, points, where, tolerance) -> bool:
    """Whether the factors, held at one value, explain the expectation with every parameter
    in them moved by PARAMETER_MOVED too."""
    from .taylor import jvp

    n = int(np.count_nonzero(where))
    held = {v for j, _ in factors for v in f.variables if f.moving([v])[j]}
    moved = {v: PARAMETER_MOVED * float(np.ravel(at[v])[0]) for v in held}
    try:
        with np.errstate(all="ignore"):
            values = jvp(f, {**at, **{v: np.full(n, c) for v, c in moved.items()}},
                         {t.name: 1.0}).values
    except AdcliError:
        return False
    k = _factor_values(values, factors, n)
    return k is not None and np.ptp(k) == 0 and \
        _multiple_at(f, t, order, moved, 1 / float(k[0]), points, where, tolerance)


def _dropped_words(f, t, factors, names) -> str:
    """The rule that keeps them, written out with the expectation: ∂/∂x (x^2·y) = y·2x."""
    texts = [f"1/{_operand(f, j)}" if over else _operand(f, j) for j, over in factors]
    e = t.expectation
    written = "·".join([*texts, _operand(e, len(e.nodes) - 1)])
    said, one = _few(texts, "factors"), len(texts) == 1
    stays = "is a constant factor, and it stays" if one else \
        "are constant factors, and they stay"
    term, minus = _moving_term(f, names)
    whole = f"-{_operand(f, term)}" if minus else _part(f, term)
    # (of a sum, the term it is a factor of: the others' derivative, 0, was right)
    of = "" if term == len(f.nodes) - 1 else f" of the term {whole}"
    return (f"this drops the factor{'' if one else 's'} {said}{of}: for {t.label}, {said} "
            f"{stays} ({t.label} ({whole}) = {written})")


def _operand(expression, index: int) -> str:
    """Node ``index`` as _part names it, in parentheses as a factor of a product needs."""
    text, node = _part(expression, index), expression.nodes[index]
    whole = node.kind in ("variable", "constant", "number", "call", "ref") or \
        node.name == "pow"
    return text if whole else f"({text})"


def _multiple_at(f, t, order, moved: dict, c: float, points, where, tolerance) -> bool:
    """Whether the expectation is c times the derivative checked at every counted point,
    with the parameters ``moved`` given those values."""
    n = int(np.count_nonzero(where))
    at = {v: points[v][where] for v in points}
    at.update({name: np.full(n, value) for name, value in moved.items()})
    try:
        with np.errstate(all="ignore"):
            truth = np.broadcast_to(derivative_values(f, path(t, order), at), (n,))
            e, e_scale = _expectation(t.expectation, at, n)
    except AdcliError:
        return False
    return bool(np.all(np.isfinite(truth)) and np.any(truth != 0) and
                np.all(_close(e, c * truth, e_scale, np.abs(c * truth), *tolerance)))


def _settled(c: float, e, e_scale, a, a_scale, tolerance) -> float | None:
    """The factor c = e/a as its digits are known: c itself where rounding leaves its
    ratio sure to _nice's 1e-10 at some point; else the one fraction p/q (q up to
    SETTLED_DENOMINATOR) within rounding at every point, or None: digits of rounding
    noise are no factor (5(1 - tanh(x)^2) against sech(x)^2 at x near 17 is 4.98 at the
    median, and 5), and where 16/3 and 53/10 both fit, neither is said."""
    from fractions import Fraction

    relative = _bound(e_scale, abs(c) * a_scale) / np.abs(c * a)
    if np.min(relative) <= 1e-10:
        best = int(np.argmin(relative))
        return c if abs(e[best] / a[best] - c) <= 1e-10 * abs(c) else float(e[best] / a[best])
    fits = {Fraction(p, q) for q in range(1, SETTLED_DENOMINATOR + 1) if (p := round(c * q))
            and np.all(_close(e, p / q * a, e_scale, abs(p / q) * a_scale, *tolerance))}
    return float(fits.pop()) if len(fits) == 1 else None


SETTLED_DENOMINATOR = 12


def _stands_for(e, e_scale, w, w_scale, a, a_scale, tolerance) -> bool:
    """Whether the expectation e is w at every point: w a function of f' (= a) that is
    finite, no constant (two constants are no clue) and not f' itself (1/f' where f' = 1)."""
    return bool(np.all(np.isfinite(w)) and np.all(np.isfinite(w_scale))
                and _constant(w, w_scale, tolerance) is None
                and not np.all(_close(w, a, w_scale, a_scale, *tolerance))
                and np.all(_close(e, w, e_scale, w_scale, *tolerance)))


def _upside_down(f, t, e, e_scale, a, a_scale, found, sweep, points, where,
                 tolerance) -> list[str]:
    """f' turned over: 1/f' (asin's derivative written sqrt(1 - x^2), ln's written x), or
    f'/f, logarithmic differentiation not multiplied back by f (x^x's written ln(x) + 1).
    Said only where just one holds: for x·(x/4), 2/x is both."""
    d, x = _d(t), t.name
    claims = []
    with np.errstate(all="ignore"):
        inverse, inverse_scale = 1 / a, a_scale / a ** 2 + np.abs(1 / a)
    if _stands_for(e, e_scale, inverse, inverse_scale, a, a_scale, tolerance):
        claims.append(f"the expectation is 1/({d}f/{d}{x}) at every point: the reciprocal "
                      "of the derivative, as if the inverse-function rule were turned "
                      "upside down")
    ln = _log_derivative(f, e, e_scale, a, a_scale, found, sweep, points, where, tolerance)
    if ln:
        claims.append(f"the expectation is {d}/{d}{x} {ln} = ({d}f/{d}{x})/f at every "
                      "point: logarithmic differentiation, not yet multiplied by f "
                      f"({_part(f, len(f.nodes) - 1)})")
    return claims if len(claims) == 1 else []


def _log_derivative(f, e, e_scale, a, a_scale, found, sweep, points, where,
                    tolerance) -> str | None:
    """"ln f" (or "ln|f|", where f < 0 somewhere) where the expectation is f'/f, for f
    whose logarithm one takes to differentiate it; else None."""
    if not _logarithmic(f, sweep):
        return None
    # (f's own rounding, which f'/f carries, is worked out only once f'/f is near: it
    # costs a pass over f)
    with np.errstate(all="ignore"):
        value = found.value[where]
        ratio = a / value
        rough = a_scale / np.abs(value) + np.abs(ratio)
    if not np.all(np.isfinite(ratio)) or not np.all(_close(e, ratio, e_scale, rough, 1e-6,
                                                           0.0)):
        return None
    n = int(np.count_nonzero(where))
    with np.errstate(all="ignore"):
        value, scale = _expectation(f, {v: points[v][where] for v in f.variables}, n)
        ratio = a / value
        ratio_scale = (a_scale + np.abs(ratio) * scale) / np.abs(value) + np.abs(ratio)
    if not _stands_for(e, e_scale, ratio, ratio_scale, a, a_scale, tolerance):
        return None
    return "ln f" if np.all(value > 0) else "ln|f|"


def _logarithmic(f, sweep) -> bool:
    """Whether f is u·v, u/v or u^v with u and v both varying: where logarithmic
    differentiation is the method (x^3's 3/x, or (x+1)'s 1/(x+1), is d/dx ln f by
    chance: no one takes logarithms there)."""
    root = f.nodes[-1]
    return sweep is not None and root.name in ("mul", "div", "pow") and \
        len(root.args) == 2 and all(np.any(sweep.tangents[j] != 0) for j in root.args)


def _squared(f, t, e, e_scale, a, a_scale, points, where, tolerance) -> list[str]:
    """At order 2, (f')^2 for f'' (x^3's second derivative written 9x^4)."""
    if t.name is None or np.any(e < 0):     # (no square: no pass over f to find f')
        return []
    try:
        with np.errstate(all="ignore"):
            first = derivative_values(f, (t.name,), {v: points[v][where] for v in f.variables})
    except AdcliError:  # past the growth budget: no claim, the verdict stands
        return []
    with np.errstate(all="ignore"):
        square = np.broadcast_to(first ** 2, e.shape)
    if not _stands_for(e, e_scale, square, 3 * square, a, a_scale, tolerance):
        return []
    d, x = _d(t), t.name
    return [f"the expectation is ({d}f/{d}{x})² at every point, not {d}²f/{d}{x}²: the "
            "second derivative is the derivative of the first, not its square"]


def _numerator_swapped(f, t, multiple, sweep) -> list[str]:
    """-f' for f = u/v: the quotient rule's numerator written u·v' - u'·v, the classic
    order slip (said before the sign error it makes), for u and v that both vary: x^2/2
    has no v', and 1/cos(x) no u', so no second term to swap."""
    if f.nodes[-1].name != "div" or not multiple or not multiple[0].startswith("×-1 ") \
            or sweep is None or \
            not all(np.any(sweep.tangents[j] != 0) for j in f.nodes[-1].args):
        return []
    d, x = _d(t), t.name
    u, v = (_part(f, j) for j in f.nodes[-1].args)
    return [f"the quotient rule's numerator is ({d}{U}/{d}{x})·{V} - {U}·({d}{V}/{d}{x}), for "
            f"{U} = {u} and {V} = {v}; this has its terms the other way round, "
            f"{U}·({d}{V}/{d}{x}) - ({d}{U}/{d}{x})·{V}, which flips the sign of the whole"]


def _other_order(f, t, order, e, e_scale, points, where, tolerance, far=True) -> list[str]:
    """The expectation is f itself, or a derivative in the same variable of another
    order than the one asked (3x^2 checked as the second derivative of x^3), up to three
    orders too many (one, unless ``far``)."""
    at = {v: points[v][where] for v in f.variables}
    for k in range(order + (4 if far else 2)):
        if k == order:
            continue
        try:
            with np.errstate(all="ignore"):
                d = f.float64_nth_derivative(t.name, k, at)
        except AdcliError:  # past the growth budget: no claim, the verdict stands
            return []
        d = d.value if k == 0 else d.derivative
        if np.any(d != 0) and np.all(_close(e, d, e_scale, np.abs(d), *tolerance)):
            label = label_for(t.name, k, partial=len(f.variables) > 1)  # as _targets
            if k == 0:
                return [_itself(t)]
            times = "one time too many" if k == order + 1 else \
                f"{k - order} times too many" if k > order else \
                "one time too few" if k == order - 1 else f"{order - k} times too few"
            return [f"the expectation is {label} at every point, not {t.label}: "
                    f"differentiated {times}"]
    return []


def _derivative_instead(f, t, e, e_scale, points, where, tolerance, far) -> list[str]:
    """At order 0, the expectation is a derivative of f (x^3 checked against 3x^2 with
    --order 0): in the one variable, of those that vary, in which one matches."""
    from dataclasses import replace

    found = []
    for name in f.variables:
        if np.ptp(points[name][where]) > 0:     # (not a parameter held at one value)
            found += _other_order(f, replace(t, name=name), 0, e, e_scale, points, where,
                                  tolerance, far)
    return found if len(found) == 1 else []


def _itself_but(t, e, e_scale, value, tolerance) -> list[str]:
    """The expectation is f + c for a constant c != 0, f not a constant: f not
    differentiated, its constant term changed (7x + 3's derivative written 7x)."""
    c = float(np.median(e - value))
    if c == 0 or not np.isfinite(c) or np.ptp(value) == 0 or \
            not np.all(_close(e, value + c, e_scale, np.abs(value) + abs(c), *tolerance)):
        return []
    return [f"the expectation is f {'-' if c < 0 else '+'} {_nice(abs(c))} at every point, "
            f"not {t.label}: f was not differentiated, only its constant changed"]


def _itself(t) -> str:
    return f"the expectation is f itself at every point, not {t.label}: nothing was " \
        "differentiated"


def _another_derivative(f, t, order, e, e_scale, a, a_scale, value, points, where,
                        tolerance, far) -> list[str]:
    """A derivative in one variable whose expectation is another derivative: of another
    order in that variable, an antiderivative, or of the same order taken (partly) in
    another variable (∂²f/∂x∂y or ∂²f/∂y² for ∂²f/∂x²). Said only where just one of them
    matches: for x e^y, ∂f/∂x and ∂²f/∂x∂y are one function, and naming either would be
    a guess."""
    same = _other_order(f, t, order, e, e_scale, points, where, tolerance, far) or \
        _antiderivative(t, order, value, points, where, tolerance) or \
        _itself_but(t, e, e_scale, value, tolerance)
    others = _other_variables(f, t, order, e, e_scale, a, a_scale, points, where, tolerance)
    if others is None:  # (not looked for: what was claimed before they were, stands)
        return same
    return same + others if len(same) + len(others) == 1 else []


_COUNTS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
# Derivatives in another variable tried, at most: one nested reverse pass each (f of 13
# variables at order 2 has 24); above, none is, and nothing is claimed of them.
OTHER_DERIVATIVES = 24


def _other_variables(f, t, order, e, e_scale, a, a_scale, points, where,
                     tolerance) -> list[str] | None:
    """Each derivative of the order checked, in t's variable x and one other y, that the
    expectation is at every point: ∂²f/∂x∂y or ∂²f/∂y² for ∂²f/∂x² (None: too many to try,
    or past the growth budget). One equal to the derivative checked at every point is
    none: for sin(x + y), ∂²f/∂y² is ∂²f/∂x², and an expectation close to it is no slip."""
    if len(f.variables) < 2:
        return []
    if order == 1:
        return _mixed_instead(f, t, e, e_scale, a, a_scale, points, where, tolerance)
    if (len(f.variables) - 1) * order > OTHER_DERIVATIVES:
        return None
    at = {v: points[v][where] for v in f.variables}
    x, matched = t.name, []
    for y, j in itertools.product([v for v in f.variables if v != x], range(1, order + 1)):
        if j == 1 and t.ordinary and _chain_once(f, x, y, at, e, e_scale, a, a_scale,
                                                 tolerance) is not None:
            continue
        names = (x,) * (order - j) + (y,) * j       # as Leibniz writes them: y's first
        found = _is_other(f, names, at, e, e_scale, a, a_scale, tolerance)
        if found is None:
            return None
        if found:
            label = mixed_label(names) if j < order else label_for(y, order, partial=True)
            why = f"differentiated in {y}, not in {x}" if j == order else \
                f"{_count(j)} of the {_count(order)} differentiations " \
                f"{'is' if j == 1 else 'are'} in {y}, not in {x}"
            matched.append(f"the expectation is {label} at every point, not {t.label}: {why}")
    return matched


def _chain_once(f, x: str, y: str, at: dict, e, e_scale, a, a_scale, tolerance):
    """du/dx where ∂²f/∂x∂y, where d²/dx² was asked (y a constant to who wrote it), is the
    chain rule's du/dx left out in one of the two differentiations: y enters as u = c·x + y
    does (∂f/∂x = r·∂f/∂y, r = du/dx not 1), and f'' is r times the expectation; else
    None. So sin(3t + c)'s written -3 sin(3t + c) is the 3 said once, not ∂²f/∂t∂c, as
    at order 1 its cos(3t + c) is no ∂f/∂c."""
    try:
        with np.errstate(all="ignore"):
            slope, other = (np.broadcast_to(derivative_values(f, (v,), at), e.shape)
                            for v in (x, y))
    except AdcliError:
        return None
    with np.errstate(all="ignore"):
        r = slope / other
    if not np.all(np.isfinite(r)) or np.all(np.abs(r - 1) <= 1e-9) or \
            not np.all(_close(a, r * e, a_scale, np.abs(r) * e_scale, *tolerance)):
        return None
    return r


def _chain_once_words(f, t, e, e_scale, a, a_scale, points, where, tolerance) -> list[str]:
    """_chain_once's slip said, where no factor says it (ω drawn at random: A sin(ωt + φ)'s
    x'' written -Aω sin(ωt + φ) is no constant times it): the argument u = ωt + φ whose
    du/dt is the factor missing, ∂f/∂u differentiated once more."""
    from .taylor import jvp

    at = {v: points[v][where] for v in f.variables}
    for y in (v for v in f.variables if v != t.name):
        r = _chain_once(f, t.name, y, at, e, e_scale, a, a_scale, tolerance)
        if r is None:
            continue
        with np.errstate(all="ignore"):
            run = jvp(f, at, {t.name: 1.0})
        for j, node in enumerate(f.nodes):
            k = _inner_input(f, node, run.tangents)
            if k is None or node.kind != "call":
                continue
            u = node.args[k]
            if np.all(_close(np.broadcast_to(run.tangents[u], r.shape), r,
                             np.abs(run.tangents[u]), np.abs(r), *tolerance)):
                d = _d(t)
                return [f"this is {d}/{d}{t.name} of the derivative of f with respect to "
                        f"{U} = {_part(f, u)} ({node.name}'s argument): the chain rule's "
                        f"factor {d}{U}/{d}{t.name} is missing from one of the two "
                        "differentiations"]
    return []


def _mixed_instead(f, t, e, e_scale, a, a_scale, points, where,
                   tolerance) -> list[str] | None:
    """Each ∂²f/∂x∂y the expectation for ∂f/∂x is at every point: y differentiated in too
    (x^2 y^3's written 6x y^2), as a mixed partial's expectation may leave one out
    (_other_mixed). None: too many to try, or past the growth budget."""
    if len(f.variables) - 1 > OTHER_DERIVATIVES:
        return None
    at = {v: points[v][where] for v in f.variables}
    matched = []
    for y in (v for v in f.variables if v != t.name):
        if _linear_in(f, y, at):
            # f = g(x)·y + h(x): ∂²f/∂x∂y = g' is ∂f/∂x with the factor y dropped, the
            # likelier slip (x^2 y's written 2x; x e^y's ∂/∂y, e^y, is ∂f/∂x: swapped)
            continue
        names = (t.name, y)
        found = _is_other(f, names, at, e, e_scale, a, a_scale, tolerance)
        if found is None:
            return None
        if found:
            matched.append(f"the expectation is {mixed_label(names)} at every point, not "
                           f"{t.label}{MIXED_TOO.format(y)}")
    return matched


def _linear_in(f, y: str, at: dict) -> bool:
    """Whether ∂²f/∂y² is 0 at every point (f linear in y there)."""
    try:
        with np.errstate(all="ignore"):
            return bool(np.all(derivative_values(f, (y, y), at) == 0))
    except AdcliError:
        return False


def _is_other(f, names, at, e, e_scale, a, a_scale, tolerance) -> bool | None:
    """Whether the expectation e is the derivative in ``names`` (Leibniz's order) at every
    point, where that one is not the derivative checked (a) and not 0 everywhere; None past
    the growth budget (none is claimed)."""
    try:
        with np.errstate(all="ignore"):
            d = np.broadcast_to(derivative_values(f, names[::-1], at), e.shape)
    except AdcliError:
        return None
    return bool(np.any(d != 0) and np.all(_close(e, d, e_scale, np.abs(d), *tolerance)) and
                not np.all(_close(d, a, np.abs(d), a_scale, *tolerance)))


def _count(n: int) -> str:
    return _COUNTS[n] if n < len(_COUNTS) else str(n)


def _other_mixed(f, t, e, e_scale, value, points, where, tolerance) -> list[str]:
    """A mixed partial's expectation that is another derivative: f itself, one
    differentiation left out (∂f/∂x for ∂²f/∂x∂y), or all of them in one variable
    (∂²f/∂x²). Said only where just one of them matches: for sin(x + y), ∂f/∂x and
    ∂f/∂y are one function, and naming either would be a guess."""
    at = {v: points[v][where] for v in f.variables}
    matched = []
    for names, why in _mixed_relatives(t.names):
        try:
            with np.errstate(all="ignore"):
                d = np.broadcast_to(derivative_values(f, names[::-1], at) if names else
                                    value, e.shape)
        except AdcliError:  # past the growth budget: no claim, the verdict stands
            return []
        if np.any(d != 0) and np.all(_close(e, d, e_scale, np.abs(d), *tolerance)):
            matched.append((names, why))
    if len(matched) != 1:
        return []
    ((names, why),) = matched
    what = "f itself" if not names else mixed_label(names) if len(set(names)) > 1 else \
        label_for(names[0], len(names), partial=True)
    return [f"the expectation is {what} at every point, not {t.label}: {why}"]


def _mixed_relatives(names):
    """(names, why) of the derivatives a mixed partial's expectation may be instead."""
    yield (), "nothing was differentiated"
    for v in dict.fromkeys(names):
        fewer = list(names)
        fewer.remove(v)
        yield tuple(fewer), (f"not differentiated in {v}" if names.count(v) == 1 else
                             f"differentiated in {v} one time too few")
    for v in dict.fromkeys(names):
        others = listing([w for w in dict.fromkeys(names) if w != v])
        yield (v,) * len(names), f"differentiated in {v} alone, not in {others}"


def _antiderivative(t, order, value, points, where, tolerance) -> list[str]:
    """The expectation's own derivative is f (``value``, at the counted points): an
    antiderivative, not f' (check "2x" "x^2", f and its derivative the other way round)."""
    g = t.expectation
    if order != 1 or g.has_diff or t.name not in g.variables:
        return []
    try:
        with np.errstate(all="ignore"):
            slope = g.float64_nth_derivative(t.name, 1,
                                             {v: points[v][where] for v in g.variables})
    except AdcliError:
        return []
    slope = np.broadcast_to(slope.derivative, value.shape)
    if np.ptp(value) == 0 or not np.all(_close(slope, value, np.abs(slope), np.abs(value),
                                                *tolerance)):
        return []
    return _antiderivative_words(t)


def _antiderivative_words(t) -> list[str]:
    return [f"the expectation's own {t.label} is f: it is an antiderivative of f, not its "
            f"derivative (are the two given the other way round?)"]


def _swapped(f, t, e, e_scale, found, points, where, differentiated,
             tolerance) -> list[str]:
    """The expectation for x is ∂f/∂y: swapped partials, for y that varies or is
    differentiated in (a^x's derivative written x a^(x-1) with a = 3 fixed by --at is no
    partial in a, but the power rule)."""
    claims = []
    for other, g in found.gradient.items():
        if other == t.name or (other not in differentiated
                               and np.ptp(points[other][where]) == 0):
            continue
        a, a_scale = g[where], found.gradient_scale[other][where]
        if np.all(_close(e, a, e_scale, a_scale, *tolerance)):
            claims.append(f"the expectation for {t.name} matches ∂f/∂{other} instead: "
                          "swapped partials?")
    return claims


def _inner(f, t, e, e_scale, a, found, sweep, where, tolerance) -> list[str]:
    """The expectation equals df/du for an inner node u, the argument of a function, the
    base of a power or a denominator (1/(3x+2)'s derivative written -1/(3x+2)^2): the
    chain rule's du/dx is missing. Reverse mode has every df/du from its one pass. Only
    where f' is df/du·du/dx, u its one route from x, and du/dx is not 1 (log(x+1)
    sin(x+1)'s written sin(x+1)/(x+1) is the product rule's term left out)."""
    nodes = f.nodes
    parents = {arg: p for p, node in enumerate(nodes) for arg in node.args}
    for index in reversed(range(len(nodes) - 1)):
        u = _adjoint(found, index, where)
        parent = parents.get(index)
        # (-u inside: e^(-kt)'s written -e^(-kt) keeps the minus of d(-u)/dt and drops
        # the k of du/dt, u = kt; its df/du, said of u)
        negation = parent if parent in parents and nodes[parent].kind == "prefix" and \
            nodes[parent].name == "neg" else None
        owner, input_ = (parent, index) if negation is None else (parents[negation], negation)
        if u is None or nodes[index].kind == "variable" or \
                not _inside(nodes, owner, input_, sweep):
            continue
        if np.ptp(u) > 0 and np.all(_close(e, u, e_scale, np.abs(u), *tolerance)) and \
                _only_route(a, u, sweep, index, tolerance):
            return [_inner_words(f, index, owner, t, negation)]
        # (-k)*t as exp(-k*t) reads it: -(kt) inside, the minus kept as above
        signed = _negated_product(f, index) if negation is None else None
        if signed and np.ptp(u) > 0 and np.all(_close(e, -u, e_scale, np.abs(u), *tolerance)) \
                and _only_route(a, u, sweep, index, tolerance):
            return [_inner_words(f, index, owner, t, index, signed)]
    return []


def _negated_product(f, index: int) -> str | None:
    """u's text for a product (-k)*t or a quotient (-t)/tau, which is -u (exp(-k*t), read
    exp((-k)*t); exp(-t/tau), a time constant's decay); else None."""
    node = f.nodes[index]
    if node.name not in ("mul", "div") or node.kind != "infix":
        return None
    first = f.nodes[node.args[0]]
    if first.kind != "prefix" or first.name != "neg":
        return None
    return f"{_part(f, first.args[0])}{'*' if node.name == 'mul' else '/'}" \
        f"{_part(f, node.args[1])}"


def _inside(nodes, parent: int | None, index: int, sweep) -> bool:
    """Whether node ``index`` is the argument of a function, the base or exponent of a
    power, or the denominator of c/u, c not moving with x (whose derivative is then
    d/du times du/dx alone)."""
    owner = None if parent is None else nodes[parent]
    return owner is not None and (owner.kind == "call" or owner.name == "pow" or
                                  owner.name == "div" and owner.args[1] == index
                                  and sweep is not None
                                  and not np.any(sweep.tangents[owner.args[0]] != 0))


def _only_route(a, adjoint, sweep, index: int, tolerance) -> bool:
    """Whether node ``index`` is f's one route from x (f' = df/du·du/dx there) and du/dx
    is not 1 everywhere (where leaving it out changes nothing); True without a sweep."""
    if sweep is None:
        return True
    tangent = np.broadcast_to(sweep.tangents[index], np.shape(a))
    with np.errstate(all="ignore"):
        through = adjoint * tangent
    return bool(np.any(tangent != 1) and
                np.all(_close(through, a, np.abs(through), np.abs(a), *tolerance)))


def _inner_words(f, index: int, parent: int, t: Target, negation: int | None = None,
                 shown: str | None = None) -> str:
    """``negation``: the node -u that is the input of ``parent`` (e^(-kt)'s -(kt));
    ``shown``: u as written where the node is -u itself ((-k)*t: k*t)."""
    u = shown or _part(f, index)
    factor = f"{_d(t)}{U}/{_d(t)}{t.name}"     # ∂u/∂x where the check is of a partial
    owner = f.nodes[parent]
    input_ = index if negation is None else negation
    if owner.kind == "call" and owner.name != "pow":
        what, role = owner.name, "its argument"
    elif owner.name == "div":
        what, role = "the quotient", "its denominator"
    else:
        what, role = "the power", "its base" if owner.args[0] == input_ else "its exponent"
    if negation is not None:
        root = parent == len(f.nodes) - 1
        head = f"of {what} with respect to {U} = {u}, {role}" if root else \
            f"of f with respect to {U} = {u} ({role.replace('its', 'the')} of {what}"
        return (f"this is the derivative {head} being -{U}{'' if root else ')'}: the minus "
                f"sign is kept, and the chain rule's factor {factor} is missing")
    if parent == len(f.nodes) - 1:
        return (f"this is the derivative of {what} with respect to {role} {U} = {u}; the "
                f"chain rule's factor {factor} is missing")
    return (f"this is the derivative of f with respect to {U} = {u} "
            f"({role.replace('its', 'the')} of {what}); the chain rule's factor {factor} "
            "is missing")


def _quotient(f, t, e, e_scale, a, a_scale, sweep, tolerance) -> list[str]:
    """f = u/v by the quotient rule with v^2 written v (e = f'·v) or left out (e = f'·v^2)."""
    root = f.nodes[-1]
    # (for v that varies with the variable: ln(x)/ln(b)'s ln(b) is a constant factor's)
    if root.name != "div" or sweep is None or not np.any(sweep.tangents[root.args[1]] != 0):
        return []
    v = sweep.values[root.args[1]]
    for power in (1, 2):
        with np.errstate(all="ignore"):
            w = np.broadcast_to(v ** power, e.shape)
        if np.ptp(w) > 0 and np.all(_close(e, a * w, e_scale, a_scale * np.abs(w),
                                           *tolerance)):
            v_text = _part(f, root.args[1])
            if power == 1:
                return [f"the quotient rule divides by {V}^2, for {V} = {v_text}; this divides "
                        f"by {V} only (it is {t.label} times {V} at every point)"]
            return [f"the quotient rule's division by {V}^2 is missing, for {V} = {v_text} "
                    f"(this is {t.label} times {V}^2 at every point)"]
    return _quotient_factor(f, t, e, e_scale, a, a_scale, sweep, tolerance)


def _quotient_factor(f, t, e, e_scale, a, a_scale, sweep, tolerance) -> list[str]:
    """f = u/v, v a product of constants and one factor w that moves (q/(4π·ε_0·r)), and
    the expectation f'·w: the v-only slip of k/r's -k/r, the constants kept as they were
    (-q/(4π·ε_0·r)), so v^2's w^2 written w."""
    bottom = f.nodes[-1].args[1]
    factors, stack = [], [bottom]
    while stack:
        j = stack.pop()
        node = f.nodes[j]
        if node.name == "mul" and node.kind == "infix":
            stack += node.args
        else:
            factors.append(j)
    moving = [j for j in factors if np.any(sweep.tangents[j] != 0)]
    if len(moving) != 1 or moving[0] == bottom:
        return []
    w = np.broadcast_to(sweep.values[moving[0]], e.shape)
    if np.ptp(w) == 0 or not np.all(_close(e, a * w, e_scale, a_scale * np.abs(w),
                                           *tolerance)):
        return []
    w_text = _part(f, moving[0])
    return [f"the quotient rule divides by {V}^2, for {V} = {_part(f, bottom)}, so by "
            f"{w_text} twice; this divides by {w_text} once only (it is {t.label} times "
            f"{w_text} at every point)"]


def _sweep(f, t, points, where):
    """One forward-mode sweep along t at the counted points: every node's value and
    tangent (taylor.JVP), or None where f holds diff() (no Taylor rule for it)."""
    from .taylor import jvp

    if f.has_diff:
        return None
    with np.errstate(all="ignore"):
        return jvp(f, {v: points[v][where] for v in f.variables}, {t.name: 1.0})


def _calls(f, sweep, found, where):
    """Each node g(u) of one argument with its df/dg at the counted points (1 at the root),
    the root first (the root alone above SLIP_NODES: ~45 rules are tried at each), or
    nothing where there is no sweep."""
    if sweep is None:
        return
    last = len(f.nodes) - 1
    for index in range(last, -1 if last < SLIP_NODES else last - 1, -1):
        node = f.nodes[index]
        if node.kind != "call" or len(node.args) != 1:
            continue
        if index == last:
            yield index, node, 1.0
        elif (adjoint := _adjoint(found, index, where)) is not None:
            yield index, node, adjoint


def _replaced(e, e_scale, a, adjoint, right, wrong, tolerance) -> bool:
    """Whether e is f' = a with one node's derivative ``right`` taken as ``wrong``:
    e = a + df/dnode·(wrong - right) at every point (and not f' itself, or a constant)."""
    with np.errstate(all="ignore"):
        whole, replaced = adjoint * right, adjoint * wrong
        # Where the node's term is all of f' (f's root), a - term is 0 exactly; elsewhere
        # the guess is as good as the subtraction, whose rounding is a share of |a| and of
        # the term (e^(x^2)'s 1.7e20 at x = 6.6, beside e^(2x)'s 5.4e5).
        if np.array_equal(whole, a):
            guess, scale = replaced, np.abs(replaced)
        else:
            guess = a - whole + replaced
            scale = np.abs(a) + np.abs(whole) + np.abs(replaced)
        guess = np.broadcast_to(guess, e.shape)
    # (an infinite guess would be close to anything: its rounding scale is inf; and a
    # wrong rule whose values are negligible beside f' is a term left out, said so
    # elsewhere: coth'(x^2 + 40) is 1e-34)
    with np.errstate(all="ignore"):
        felt = np.any(np.abs(replaced) > 1e-6 * (np.abs(a) + np.abs(whole)))
    return bool(np.all(np.isfinite(guess)) and np.ptp(guess) > 0 and not np.all(guess == a)
                and felt and np.all(_close(e, guess, e_scale, scale, *tolerance)))


def _outer_at_x(f, t, e, e_scale, a, sweep, found, points, where, tolerance) -> list[str]:
    """A node g(u) differentiated as g'(x)·du/dx, the outer derivative taken at the
    variable instead of at u (sin(3x) as 3cos(x))."""
    x = points[t.name][where]
    for index, node, adjoint in _calls(f, sweep, found, where):
        arg = node.args[0]
        if f.nodes[arg].kind == "variable":
            continue
        with np.errstate(all="ignore"):
            wrong = node.function().taylor(np.stack([x, np.ones_like(x)]))[1] \
                * sweep.tangents[arg]
        if _replaced(e, e_scale, a, adjoint, sweep.tangents[index], wrong, tolerance):
            d = _d(t)
            return [f"this takes {node.name}'s derivative at {t.name}, not at its argument "
                    f"{U} = {_part(f, arg)}: the chain rule is "
                    f"{node.name}'({U})·{d}{U}/{d}{t.name}"]
    return []


def _outer_missing(f, t, e, e_scale, a, sweep, found, where, tolerance) -> list[str]:
    """f' without one function's factor g'(u) of the chain: only the inside
    differentiated (sin(x^2)'s written 2x), or a link of a longer chain left out
    (sin(cos(x^2))'s written -2x cos(cos(x^2)), cos's -sin(x^2) missing)."""
    for index, node, adjoint in _calls(f, sweep, found, where):
        outer = _outer_derivative(f, node, sweep)
        if outer is None or np.ptp(outer[0]) == 0:
            continue
        g_prime, u = outer
        # g(u)'s term of f' with du/dx for g'(u)·du/dx, the other routes from x as they are
        # (x|x-1|'s written 2x-1 is no abs' left out: |x-1|'s own term is gone too)
        if _replaced(e, e_scale, a, adjoint, sweep.tangents[index], sweep.tangents[u],
                     tolerance):
            d = _d(t)
            return [f"the factor {node.name}'({U}) is missing, for {node.name}({U}) and {U} = "
                    f"{_part(f, u)}: the chain rule multiplies the derivative of every "
                    f"function in the chain, {_chain_rule(d, t.name)}"]
    return []


# Functions whose rules a student mixes up: one family of the table (abs's rule, sign(u),
# is a factor's sign, and log1p and expm1 are log and exp written for accuracy: in none)
_FAMILIES = (frozenset({"sin", "cos", "tan", "cot", "sec", "csc"}),
             frozenset({"sinh", "cosh", "tanh", "coth", "sech", "csch"}),
             frozenset({"asin", "acos", "atan", "acot", "asec", "acsc"}),
             frozenset({"asinh", "acosh", "atanh"}),
             frozenset({"exp", "log", "log2", "log10"}),
             frozenset({"sqrt", "cbrt"}), frozenset({"sigmoid", "softplus"}))


def _confusable(own: str, other: str) -> bool:
    """Whether ``other``'s rule is one a student takes for ``own``'s: of one family, or
    its hyperbolic twin (atan's and atanh's differ by a sign); not any function whose rule
    equals by an identity (atanh's at sin x is 1/cos x, ln's taken at du/dx)."""
    twins = {own, own + "h", own.removesuffix("h")}
    return other in twins or any({own, other} <= family for family in _FAMILIES)


def _other_function(f, e, e_scale, a, sweep, found, where, tolerance) -> list[str]:
    """A node g(u) differentiated as h'(u)·du/dx for another function h: a rule from the
    table misremembered (atan's derivative written as atanh's, 1/(1 - x^2))."""
    for index, node, adjoint in _calls(f, sweep, found, where):
        own, arg = type(node.function()), node.args[0]
        u = np.stack(np.broadcast_arrays(sweep.values[arg], sweep.tangents[arg]))
        for name, cls in sorted(CALLABLE.items()):
            if cls is own or cls.arity != 1 or name != cls.name or \
                    not _confusable(own.name, name):
                continue
            with np.errstate(all="ignore"):
                wrong = cls().taylor(u)[1]
            # (sign's rule, 0, would only say a term was left out: _one_term's claim)
            if np.any(wrong != 0) and _replaced(e, e_scale, a, adjoint,
                                                sweep.tangents[index], wrong, tolerance):
                inner = _part(f, arg)
                name = _spelled_as(name, node.name, own.name)
                return [f"this is the derivative of {name}({inner}), not of "
                        f"{node.name}({inner}): the two rules mixed up"
                        + _log_base(node.name, name, inner, f.nodes[arg].kind)]
    return []


def _spelled_as(name: str, written: str, own: str) -> str:
    """Function ``name`` as the user's family spells it: arcsin beside arccos (written for
    acos), arsinh beside arcosh, arctan beside arccot; else as adcli names it."""
    if not (own.startswith("a") and name.startswith("a") and written.startswith("ar")):
        return name
    # (arc of arccos, ar of arcosh; arcctg, which ends otherwise, is of the arc family)
    prefix = written.removesuffix(own[1:]) if written.endswith(own[1:]) else "arc"
    for spelled in (prefix + name[1:], "arc" + name[1:]):
        if getattr(CALLABLE.get(spelled), "name", None) == name:
            return spelled
    return name


def _log_base(own: str, other: str, inner: str, kind: str) -> str:
    """Where log's rule was taken for log10's or log2's: that log is ln here (\\log x
    means log10 x in many a textbook), and how to write the other."""
    if own != "log" or other not in ("log10", "log2"):
        return ""
    base = other.removeprefix("log")
    arg = f" {inner}" if kind == "variable" else f"({inner})"
    return (f"; adcli's log is the natural logarithm, ln: for base {base}, write "
            f"{other}{arg} or log_{base}{arg}")


# sqrt(u)'s derivative written sqrt(u)/2: the value of 1/2(u)^(-1/2) as the rules read it,
# 1/(2u^(-1/2)), which checking says of as likely meant, (1/2)*u^(-1/2), where it can
HALF_SQRT = "the power rule lowers the exponent 1/2 by one, to -1/2"

# A rule of the table remembered wrongly, by function: g'(u) as remembered, written, and
# what is wrong with it; then the rule. Claimed where it stands for g'(u) at every point.
_MISREMEMBERED = {
    "sqrt": ([(lambda u: 0.5 / u, f"1/(2{U})", "the square root is left out of the "
                                                "denominator"),
              (lambda u: 1 / np.sqrt(u), f"1/sqrt({U})", "the 1/2 is left out"),
              (lambda u: np.sqrt(u) / 2, f"sqrt({U})/2", HALF_SQRT)],
             f"1/(2·sqrt({U}))"),
    # (cos as sec computes it, reduced in long double past 2^26: np.cos is 2e-11 off there)
    "tan": ([(lambda u: 1 / cos(u), f"sec({U})", "the square is left out")], f"sec({U})^2"),
    "exp": ([(lambda u: u * np.exp(u - 1), f"{U}·e^({U}-1)", "the power rule is for a constant "
                                                             "exponent")], f"e^{U}, itself"),
}


def _misremembered(f, t, e, e_scale, a, sweep, found, where, tolerance) -> list[str]:
    """A node g(u) differentiated with a wrong form of g's rule (sqrt(x)'s as 1/(2x))."""
    for index, node, adjoint in _calls(f, sweep, found, where):
        if node.name not in _MISREMEMBERED:
            continue
        arg = node.args[0]
        forms, rule = _MISREMEMBERED[node.name]
        d, plain = _d(t), f.nodes[arg].kind == "variable"
        for (remembered, written, why), chain in itertools.product(forms, (True, False)):
            if plain and not chain:
                continue
            with np.errstate(all="ignore"):
                wrong = remembered(sweep.values[arg]) * (sweep.tangents[arg] if chain else 1)
            if not _replaced(e, e_scale, a, adjoint, sweep.tangents[index], wrong, tolerance):
                continue
            if plain:   # sqrt(x) as 1/(2x)
                form = written.replace(U, t.name)
                if index == len(f.nodes) - 1:   # the expectation is that form, as written
                    form = _as_read(t.expectation, form)
                return [f"this differentiates {node.name}({t.name}) as {form}: {why}; "
                        f"{node.name}'s derivative is {rule.replace(U, t.name)}"]
            times = f"·{d}{U}/{d}{t.name}" if chain else ""
            missing = "" if chain else f"; and the chain rule's factor {d}{U}/{d}{t.name} is " \
                                       "missing"
            return [f"this differentiates {node.name}({U}) as {written}{times}, for {U} = "
                    f"{_part(f, arg)}: {why}; {node.name}'s derivative is {rule}{missing}"]
    return []


def _as_read(e, form: str) -> str:
    """A form a claim names (1/sqrt(x)), equal to the expectation ``e``: as it was read,
    then the form where they are written otherwise (x^(-1/2), that is 1/sqrt(x)): a
    diagnosis speaks of what was written, not of a rewriting of it."""
    from .parser import parse

    try:
        same = parse(form.replace("·", "*")).parsed == e.parsed
    except AdcliError:
        same = False
    return form if same else f"{e.parsed}, that is {form}"


def _one_term(f, t, e, e_scale, a, a_scale, found, where, run, tolerance) -> list[str]:
    """The expectation is f' with one term of a rule with several (a product's, a
    quotient's, a power's with a varying exponent, a sum's) left out, its sign flipped, or
    off by a constant factor: e = a + (λ - 1)·term at every point. The term through input
    k of node p is df/dp (the reverse pass's adjoint) times dp/du_k du_k/dx: p's Taylor
    rule with every other input's tangent set to 0, after one forward-mode sweep."""
    if run is None:  # diff()'s nodes are reverse passes, with no Taylor rule
        return []
    for p, node in enumerate(f.nodes):
        adjoint = _adjoint(found, p, where)
        moving = [k for k, j in enumerate(node.args) if np.any(run.tangents[j] != 0)]
        if adjoint is None or len(moving) < 2:
            continue
        off = [(k, _term_factor(e, e_scale, a, a_scale, adjoint * _input_term(node, run, k),
                                tolerance)) for k in moving]
        off = [(k, factor) for k, factor in off if factor is not None]
        if not off:
            continue
        # (a term left out or of the wrong sign, the others exactly right, before a term off
        # by a multiple: all hold where the terms are proportional, and sin^2 x + cos^2 x's
        # written 2 sin x cos x is du/dx with dv/dx = -du/dx missing, not 2 du/dx)
        k, factor = min(off, key=lambda kf: (kf[1] != 0, kf[1] != -1))
        if node.name in _SUMS:
            j, minus = _summand(f, node.args[k], e, e_scale, a, a_scale, found, where,
                                run, factor, tolerance)
            if j != node.args[k]:
                # (the sign the sum gives it: 5 - x^3's term is -du/dx, u = x^3)
                return [_summand_words(f, j, t, factor,
                                       minus != (node.name == "sub" and k == 1))]
        # (within the product and quotient rules only, whose term the chain's factor
        # hides in; a sum's term off by 1/c is said as that)
        chain = _chain_left_out(f, node.args[k], run, factor) \
            if node.name in ("mul", "div") else None
        return [_term_words(f, p, k, t, factor, chain)]
    return []


_SUMS = ("add", "sub")


def _summand(f, j: int, e, e_scale, a, a_scale, found, where, run, factor,
             tolerance) -> tuple[int, bool]:
    """The smallest term of the sum at node j that is off by ``factor`` as the whole is,
    and whether the sum subtracts it there (an odd number of '-' on the way down): into a
    sum, or a negation, the one input that moves, or the one whose own term is off so (L's
    five terms: the one in θ_2 whose sign is wrong, not the four above it, whose
    derivatives are 0 or right)."""
    minus = False
    while f.nodes[j].name in _SUMS or f.nodes[j].name == "neg":
        node = f.nodes[j]
        moving = [(i, node.name == "neg" or (node.name == "sub" and k == 1))
                  for k, i in enumerate(node.args) if np.any(run.tangents[i] != 0)]
        if len(moving) != 1:
            moving = [(i, flips) for i, flips in moving
                      if _off_by(e, e_scale, a, a_scale, found, where, run, i, tolerance)
                      == factor][:1]
        if not moving:
            return j, minus
        j, flips = moving[0]
        minus ^= flips
    return j, minus


def _off_by(e, e_scale, a, a_scale, found, where, run, i: int, tolerance):
    """The factor node i's own term of the derivative is off by, as _term_factor says."""
    adjoint = _adjoint(found, i, where)
    return None if adjoint is None else \
        _term_factor(e, e_scale, a, a_scale, adjoint * run.tangents[i], tolerance)


def _summand_words(f, j: int, t: Target, factor, minus: bool = False) -> str:
    d = _d(t)
    return (f"the term {'-' if minus else ''}{d}{U}/{d}{t.name} {_wrongly(factor)}, for "
            f"{U} = {_part(f, j)}: {d}/{d}{t.name} of a sum is the sum of its terms' "
            "derivatives")


def _chain_left_out(f, j: int, run, factor) -> int | None:
    """The inner node w of a chain g(w) inside input j whose dw/dx is a constant c with
    the term 1/c of what it should be: the chain rule's factor left out there, not the
    term's sign or size got wrong (x e^(-x)'s term x·e^(-x) lacks d(-x)/dx = -1); else
    None."""
    if factor == 0:
        return None
    stack = [j]
    while stack:
        q = stack.pop()
        stack += f.nodes[q].args
        m = _inner_input(f, f.nodes[q], run.tangents)
        if m is None:
            continue
        w = f.nodes[q].args[m]
        c = np.ravel(run.tangents[w])
        if c.size and np.ptp(c) == 0 and c[0] not in (0, 1) and \
                abs(c[0] * float(factor) - 1) <= 1e-9:
            return w
    return None


def _input_term(node, run, k: int) -> np.ndarray:
    """dp/du_k·du_k/dx for node p: its Taylor rule with every other input's tangent 0."""
    series = [np.stack(np.broadcast_arrays(run.values[j], run.tangents[j]))
              for j in node.args]
    alone = [s if i == k else np.stack([s[0], np.zeros_like(s[1])])
             for i, s in enumerate(series)]
    with np.errstate(all="ignore"):
        return node.function().taylor(*alone)[1]


def _term_factor(e, e_scale, a, a_scale, term, tolerance):
    """λ != 1 with e = a + (λ - 1)·term at every point (a simple Fraction when one is
    that close), else None."""
    from fractions import Fraction  # ~3 ms (decimal too): only when a term is looked at

    nonzero = term != 0
    # (a constant term off by a factor is a constant too many: _terms and _offset say so;
    # constant to within rounding too: x^2's u''·2 swept at 30 points spans 7e-16)
    if nonzero.sum() < MIN_FOR_DIAGNOSIS or np.ptp(term) <= 1e-12 * np.max(np.abs(term)):
        return None
    with np.errstate(all="ignore"):
        if not np.any(np.abs(term) > 1e-6 * np.abs(a)):  # too small for its factor to show
            return None
        factor = float(np.median(1 + (e[nonzero] - a[nonzero]) / term[nonzero]))
    if not np.isfinite(factor) or abs(factor - 1) <= 1e-9:
        return None
    simple = Fraction(factor).limit_denominator(DENOMINATOR)
    if abs(simple - factor) <= 1e-9 * max(1.0, abs(factor)):
        factor = simple
    off = float(factor) - 1
    if np.all(_close(e, a + off * term, e_scale, a_scale + abs(off) * np.abs(term),
                     *tolerance)):
        return factor
    return None


_RULES = {  # a rule's terms, by its node's primitive: (term 0, term 1, the rule)
    "mul": ("({d}{u}/{d}{x})·{v}", "{u}·({d}{v}/{d}{x})",
            "{d}({u}·{v})/{d}{x} = ({d}{u}/{d}{x})·{v} + {u}·({d}{v}/{d}{x})"),
    "div": ("({d}{u}/{d}{x})/{v}", "-{u}·({d}{v}/{d}{x})/{v}^2",
            "{d}({u}/{v})/{d}{x} = ({d}{u}/{d}{x})/{v} - {u}·({d}{v}/{d}{x})/{v}^2"),
    "pow": ("{v}·{u}^({v}-1)·({d}{u}/{d}{x})", "{u}^{v}·ln({u})·({d}{v}/{d}{x})",
            "{d}({u}^{v})/{d}{x} = {v}·{u}^({v}-1)·({d}{u}/{d}{x}) + "
            "{u}^{v}·ln({u})·({d}{v}/{d}{x})"),
    "add": ("{d}{u}/{d}{x}", "{d}{v}/{d}{x}",
            "{d}({u} + {v})/{d}{x} = {d}{u}/{d}{x} + {d}{v}/{d}{x}"),
    "sub": ("{d}{u}/{d}{x}", "-{d}{v}/{d}{x}",
            "{d}({u} - {v})/{d}{x} = {d}{u}/{d}{x} - {d}{v}/{d}{x}"),
}
_RULE_NAMES = {"mul": "the product rule's term", "div": "the quotient rule's term",
               "pow": "the power's term", "add": "the term", "sub": "the term"}


def _wrongly(factor) -> str:
    """How a term off by ``factor`` is: missing, of the wrong sign, or a multiple."""
    # (named as a whole answer's factor is: 1/e, π, ln(2), not their floats)
    return ("is missing" if factor == 0 else "has the wrong sign" if factor == -1 else
            f"is {_nice(float(factor))} times what it should be")


def _applied(node, inputs: list[str]) -> str:
    """A node written with its inputs' texts: sin(u), u^5, 1/u."""
    if node.kind == "call":
        return f"{node.name}({', '.join(inputs)})"
    return node.function.symbol.join(inputs)


def _term_words(f, p: int, k: int, t: Target, factor, chain: int | None = None) -> str:
    d = _d(t)
    wrong = _wrongly(factor) if chain is None else \
        f"lacks the chain rule's factor {d}({_part(f, chain)})/{d}{t.name} = " \
        f"{_nice(1 / float(factor))} inside {_part(f, f.nodes[p].args[k])}"
    node = f.nodes[p]
    inputs = [_part(f, j) for j in node.args]
    rule = _RULES.get(node.name) if len(inputs) == 2 else None
    if rule is None:
        return f"the term through input {k + 1} of {node.name}, {inputs[k]}, {wrong}"
    term, whole = (_fill(text, d, t.name) for text in (rule[k], rule[2]))
    return (f"{_RULE_NAMES[node.name]} {term} {wrong}: for {U} = {inputs[0]} and "
            f"{V} = {inputs[1]}, {whole}")


def _along(node, inputs, k: int, length: int = 2):
    """The rows of node's Taylor rule with input k moving by 1 from ``inputs[k]`` and the
    others held at theirs (arrays at the counted points): g, g', g''/2, ... there."""
    shape = np.broadcast_shapes(*(np.shape(x) for x in inputs))
    series = []
    for i, x in enumerate(inputs):
        s = np.zeros((length,) + shape)
        s[0] = x
        if i == k:
            s[1] = 1.0
        series.append(s)
    with np.errstate(all="ignore"):
        return node.function().taylor(*series)


def _inner_input(f, node, tangents) -> int | None:
    """k where node is g(u) with u = input k its one moving input and not a variable (a
    call, or a power with a constant base or exponent); else None."""
    if node.kind != "call" and node.name != "pow":  # (sums, products: no outside)
        return None
    moving = [k for k, j in enumerate(node.args) if np.any(tangents[j] != 0)]
    if len(moving) != 1 or f.nodes[node.args[moving[0]]].kind == "variable":
        return None
    return moving[0]


def _second_terms(f, t, e, e_scale, a, a_scale, series, tolerance) -> list[str]:
    """At order 2, one term of a second-order rule left out, its sign flipped or off by a
    factor, in a term of the sum f is: (u·v)'' = u''v + 2u'v' + uv'' with the 2 forgotten,
    or g(u)'' = g''(u)·u'^2 + g'(u)·u'' without its second term (sin(x^2)'' written
    -4x^2 sin(x^2)). The pieces come from ``series`` (_second_sweep's)."""
    # (an expectation of 0 leaves out every term at once: that one of them "is missing",
    # sin(x)'s own d²/dx² for sin x, only restates that the answer written is 0)
    if not np.any(e):
        return []
    with np.errstate(all="ignore"):
        for sign, j in _summands(f.nodes, len(f.nodes) - 1):
            for name, term in _second_pieces(f.nodes[j], series):
                factor = _term_factor(e, e_scale, a, a_scale, sign * term, tolerance)
                if factor is not None:
                    return [_second_words(f, j, name, t, factor, series)]
    return []


def _second_sweep(f, t, points, where) -> tuple[dict, list]:
    """Each variable's Taylor series of three coefficients along t at the counted points,
    and every node's, swept from them."""
    from .taylor import _sweep as taylor_sweep

    seeds = {}
    for v in f.variables:
        seed = np.zeros((3,) + points[v][where].shape)
        seed[0], seed[1] = points[v][where], 1.0 if v == t.name else 0.0
        seeds[v] = seed
    with np.errstate(all="ignore"):
        return seeds, taylor_sweep(f.nodes, seeds, 3, keep=True)


def _second_exponent(f, t, e, e_scale, a, seeds, series, tolerance) -> list[str]:
    """At order 2, a power k·u^c of u linear along the variable, its exponent lowered by
    one only over the two differentiations: 1/x's d²/dx² written 2/x^2, not 2/x^3;
    ∂²/∂y² of x^2·y^3 written 6x^2·y^2. The expectation is checked against f'' swept with
    that one power's second derivative so taken (the rest of f's rules as they are)."""
    from types import SimpleNamespace

    sweep = SimpleNamespace(values=[s[0] for s in series], tangents=[s[1] for s in series])
    # (a sweep of f for each power tried: a sum of 10^4 powers is not swept 10^4 times)
    for p, base, c, k in itertools.islice(_second_powers(f, sweep), SECOND_POWERS):
        u = series[base]
        if c in (0, 1) or np.any(u[2] != 0):     # (u'' = 0: u^c'' is its one term)
            continue
        with np.errstate(all="ignore"):
            once = k * c * (c - 1) / 2 * u[0] ** (c - 1) * u[1] ** 2
            wrong = 2 * _with_coefficient(f, seeds, p, once)[2]
        wrong = np.broadcast_to(wrong, e.shape)
        if _stands_for(e, e_scale, wrong, np.abs(wrong), a, np.abs(a), tolerance):
            return [_second_exponent_words(f, t, p, base, c, k)]
    return []


SECOND_POWERS = 20  # powers of f tried by _second_exponent, at most


def _second_powers(f, sweep):
    """_constant_powers', and k/u for u no power (1/x as x^(-1))."""
    yield from _constant_powers(f, sweep)
    for p, node in enumerate(f.nodes):
        if node.name != "div" or node.kind != "infix":
            continue
        top, bottom = node.args
        k = np.ravel(sweep.values[top])
        if f.nodes[bottom].name != "pow" and not np.any(sweep.tangents[top] != 0) and \
                np.ptp(k) == 0 and k[0] != 0 and np.any(sweep.tangents[bottom] != 0):
            yield p, bottom, -1.0, float(k[0])


def _with_coefficient(f, seeds, p: int, coefficient) -> np.ndarray:
    """f's Taylor series (its root's) with node p's second coefficient replaced."""
    from .taylor import _sweep as taylor_sweep

    # (a watch sees each node that is neither a variable nor a number, in order)
    watched = [i for i, node in enumerate(f.nodes)
               if node.kind != "variable" and node.function is not None]
    seen = iter(watched)

    def watch(function, series, args):
        if next(seen, None) != p:
            return None
        shape = np.broadcast_shapes(series.shape[1:], np.shape(coefficient))
        altered = np.array(np.broadcast_to(series, series.shape[:1] + shape), dtype=float)
        altered[2] = coefficient
        return altered

    return taylor_sweep(f.nodes, seeds, 3, keep=True, watch=watch)[-1]


def _second_exponent_words(f, t, p: int, base: int, c: float, k: float) -> str:
    d, power = _d(t), _times(k, c)
    n = _nice(k * c * (c - 1))
    n = f"({n})" if "/" in n else n
    said = "" if f.nodes[p].name == "pow" else f", {power},"    # 1/x, u^(-1), by one
    du = f"({d}{U}/{d}{t.name})^2"
    return (f"this lowers the exponent of {_part(f, p)}{said} by one only: differentiated "
            f"twice, the power rule lowers it by two, {d}²({power})/{d}{t.name}² = "
            f"{_times(n, c - 2)}·{du}, not {_times(n, c - 1)}·{du}, for {U} = "
            f"{_part(f, base)}")


def _second_pieces(node, series):
    """(name, values) of each term of node's second derivative by its rule: a product's
    three, or the two of a function of one moving argument (a call, a constant power)."""
    moving = [k for k, j in enumerate(node.args) if np.any(series[j][1:] != 0)]
    if node.name == "mul" and node.kind == "infix" and len(moving) == 2:
        (u0, u1, u2), (v0, v1, v2) = (series[j] for j in node.args)
        return [("uu", 2 * u2 * v0), ("uv", 2 * u1 * v1), ("vv", 2 * u0 * v2)]
    if len(moving) != 1:
        return []
    (k,) = moving
    u = series[node.args[k]]
    g = _along(node, [series[j][0] for j in node.args], k, 3)  # g', g''/2 at u
    return [("outer", 2 * g[2] * u[1] ** 2), ("inner", g[1] * 2 * u[2])]


_SECOND = {  # a term's text, and the rule; {d}: d or ∂, {x}: the variable
    "uu": "({d}²{u}/{d}{x}²)·{v}", "uv": "2·({d}{u}/{d}{x})·({d}{v}/{d}{x})",
    "vv": "{u}·({d}²{v}/{d}{x}²)",
    "mul": "{d}²({u}·{v})/{d}{x}² = ({d}²{u}/{d}{x}²)·{v} + 2·({d}{u}/{d}{x})·({d}{v}/{d}{x}) + "
           "{u}·({d}²{v}/{d}{x}²)",
    "outer": "{g}''({u})·({d}{u}/{d}{x})^2", "inner": "{g}'({u})·({d}²{u}/{d}{x}²)",
    "call": "{d}²{g}({u})/{d}{x}² = {g}''({u})·({d}{u}/{d}{x})^2 + {g}'({u})·({d}²{u}/{d}{x}²)",
}


def _second_words(f, j: int, name: str, t: Target, factor, series) -> str:
    wrong = _wrongly(factor)
    node = f.nodes[j]
    d = _d(t)
    term = _fill(_SECOND[name], d, t.name)
    if node.name == "mul":
        u, v = (_part(f, i) for i in node.args)
        return (f"the product rule's term {term} {wrong}: for {U} = {u} and {V} = {v}, "
                + _fill(_SECOND["mul"], d, t.name))
    k = next(i for i, a in enumerate(node.args) if np.any(series[a][1:] != 0))
    inner = f.nodes[node.args[k]]
    if inner.kind == "variable" and inner.name == t.name:   # (no chain: sin(x)'' itself)
        return f"{d}²/{d}{t.name}² of {_part(f, j)} {wrong}"
    g = _applied(node, _with_u(f, node, k))
    return (f"the chain rule's term {term} {wrong}: for {G}({U}) = {g} and {U} = "
            f"{_part(f, node.args[k])}, " + _fill(_SECOND["call"], d, t.name))


def _d(t) -> str:
    """The derivative sign of t's label, so that a rule's words name the derivatives as the
    headline does (label_for): ∂ for f of several variables, else d."""
    return "∂" if t.label.startswith("∂") else "d"


def _moving_pairs(f, run):
    """Each node of two inputs that both move along the direction: (index, node)."""
    for p, node in enumerate(f.nodes):
        if len(node.args) == 2 and all(np.any(run.tangents[j] != 0) for j in node.args):
            yield p, node


def _adjoint(found, p: int, where):
    """df/dnode p at the counted points (the reverse pass's), or None where not kept."""
    adjoint = found.adjoints[p] if found.adjoints else None
    return None if adjoint is None else adjoint[where]


def _combined(f, t, e, e_scale, a, sweep, found, where, tolerance) -> list[str]:
    """A product's or quotient's derivative written as the product or quotient of the
    derivatives: d(x^3 sin x)/dx as 3x^2 cos x."""
    if sweep is None:
        return []
    d = _d(t)
    for p, node in _moving_pairs(f, sweep):
        adjoint = _adjoint(found, p, where)
        if node.name not in ("mul", "div") or adjoint is None:
            continue
        du, dv = (sweep.tangents[j] for j in node.args)
        with np.errstate(all="ignore"):
            wrong = du * dv if node.name == "mul" else du / dv
        if _replaced(e, e_scale, a, adjoint, sweep.tangents[p], wrong, tolerance):
            u, v = (_part(f, j) for j in node.args)
            verb, op = ("multiplies", "·") if node.name == "mul" else ("divides", "/")
            rule = _fill(_RULES[node.name][2], d, t.name)
            return [f"this {verb} the derivatives, ({d}{U}/{d}{t.name}){op}"
                    f"({d}{V}/{d}{t.name}), for {U} = {u} and {V} = {v}: the rule is {rule}"]
    return []


def _power_rule(f, t, e, e_scale, a, sweep, found, points, where, tolerance) -> list[str]:
    """The power rule n·u^(n-1) used on a power whose exponent varies: on a constant base
    (2^x differentiated as x·2^(x-1), with or without the exponent's dv/dx), or on a
    varying base as written (x^x's as x·x^(x-1)); or the rule for a constant base,
    u^v·ln(u)·dv/dx, without its ln(u) (2^x's written 2^x)."""
    if sweep is None:
        return []
    d = _d(t)
    for p, node in enumerate(f.nodes):
        if node.name != "pow" or len(node.args) != 2:
            continue
        base, power = node.args
        adjoint = _adjoint(found, p, where)
        if adjoint is None or not np.any(sweep.tangents[power] != 0):
            continue
        if np.any(sweep.tangents[base] != 0):
            if _varying_base(f, t, p, e, e_scale, a, adjoint, sweep, points, where, tolerance):
                return [_term_words(f, p, 1, t, 0) + f"{POWER_RULE_ALONE}"
                        f"{_fill(_RULES['pow'][0], d, t.name)} alone, on {_part(f, p)}, whose "
                        "exponent varies: that rule is for a constant exponent"]
            continue
        u, v, dv = sweep.values[base], sweep.values[power], sweep.tangents[power]
        with np.errstate(all="ignore"):
            rule, own = v * u ** (v - 1), u ** v * dv
        ours = f"for a constant base {U} = {_part(f, base)}, {d}({U}^{V})/{d}{t.name} = " \
               f"{U}^{V}·ln({U})·({d}{V}/{d}{t.name})"
        for wrong in (rule * dv, rule):
            if _replaced(e, e_scale, a, adjoint, sweep.tangents[p], wrong, tolerance):
                return [f"this is the power rule {V}·{U}^({V}-1) on {_part(f, p)}, whose exponent "
                        f"varies: that rule is for a constant exponent; {ours}"]
        if _replaced(e, e_scale, a, adjoint, sweep.tangents[p], own, tolerance):
            return [f"this differentiates {_part(f, p)}{WITHOUT_LN}{_part(f, base)}): {ours}"]
    return []


def _varying_base(f, t, p: int, e, e_scale, a, adjoint, sweep, points, where,
                  tolerance) -> bool:
    """Whether the expectation is f' with power p = u^v, u and v both varying,
    differentiated by the power rule v·u^(v-1)·du/dx alone, and u^(v-1) is written in it:
    what was done shows there (x^x's x·x^(x-1), which is x^x too, as f itself would be
    said; written x^x, nothing was differentiated)."""
    base, power = f.nodes[p].args
    u, v = sweep.values[base], sweep.values[power]
    with np.errstate(all="ignore"):
        rule = v * u ** (v - 1) * sweep.tangents[base]
    return _replaced(e, e_scale, a, adjoint, sweep.tangents[p], rule, tolerance) and \
        _written_power(t, points, where, u, v - 1, tolerance)


def _written_power(t, points, where, base, exponent, tolerance) -> bool:
    """Whether the expectation has a power in it with this base and exponent at every
    counted point (x^(x-1) in x·x^(x-1), however it is spelled: x^{x-1}, x^(-1+x))."""
    e_expr = t.expectation
    if e_expr.has_diff:     # (no Taylor rule for diff()'s nodes)
        return False
    from .taylor import jvp

    with np.errstate(all="ignore"):
        run = jvp(e_expr, {v: points[v][where] for v in e_expr.variables}, {})
    shape = np.shape(base)
    for node in e_expr.nodes:
        if node.name != "pow" or len(node.args) != 2:
            continue
        b, c = (np.broadcast_to(run.values[j], shape) for j in node.args)
        if np.all(_close(b, base, np.abs(b), np.abs(base), *tolerance)) and \
                np.all(_close(c, exponent, np.abs(c), np.abs(exponent), *tolerance)):
            return True
    return False


def _exponent_kept(f, t, e, e_scale, a, sweep, found, where, tolerance) -> list[str]:
    """The power rule c·u^(c-1) written with the exponent kept, c·u^c (x^3's derivative as
    3x^3), or raised, c·u^(c+1) (x^-2's as -2x^-1: toward zero, as if it were lowered);
    of k/u^c as the rule takes it, k·u^(-c) (1/x^2's written -2/x^2 keeps x^(-2)'s)."""
    if sweep is None:
        return []
    for p, base, c, k in _constant_powers(f, sweep):
        adjoint = _adjoint(found, p, where)
        if adjoint is None:
            continue
        for shift, what in ((0, "keeps the exponent of {}"), (1, "raises the exponent of {}")):
            words = _shifted(f, t, p, base, c, k, shift, what, e, e_scale, a, adjoint, sweep,
                             tolerance)
            if words:
                return words
        divided = _exponent_divided(f, t, p, base, c, k, e, e_scale, a, adjoint, sweep,
                                    tolerance) or \
            _power_dropped(f, t, p, base, c, k, e, e_scale, a, adjoint, sweep, tolerance)
        if divided:
            return divided
    return _parameter_kept(f, t, e, e_scale, a, sweep, found, where, tolerance)


def _shifted(f, t, p: int, base: int, c: float, k: float, shift: int, what: str, e, e_scale,
             a, adjoint, sweep, tolerance) -> list[str]:
    """The power rule's c·u^(c-1) for power p = k·u^c written c·u^(c+shift)."""
    d = _d(t)
    u, du = sweep.values[base], sweep.tangents[base]
    with np.errstate(all="ignore"):
        wrong = k * c * u ** (c + shift) * du
    if not _replaced(e, e_scale, a, adjoint, sweep.tangents[p], wrong, tolerance):
        return []
    n, du = _nice(k * c), f"({d}{U}/{d}{t.name})"
    power = _times(k, c)
    said = "" if f.nodes[p].name == "pow" else f", {power}"    # 1/(x^2), u^(-2)
    said += "," if said and shift < 0 else ""                   # 1/(x^2), u^(-2), by two
    return [f"this {what.format(_part(f, p) + said)}: the power rule lowers it by one, "
            f"{d}({power})/{d}{t.name} = {_times(n, c - 1)}·{du}, "
            f"not {_times(n, c + shift)}·{du}, for {U} = {_part(f, base)}"]


def _exponent_lowered(f, t, e, e_scale, a, sweep, found, where, tolerance) -> list[str]:
    """The power rule c·u^(c-1) written with a whole exponent lowered by two, c·u^(c-2)
    (x^3's derivative as 3x, x^4's as 4x^2). Not where that leaves u^0 (u^2's 2·du/dx:
    u^(c-1) dropped, _power_dropped's), nor for u^1, nor a fractional c: x^(3/2)'s
    (3/2)x^(-1/2) is the sign of c - 1 lost (_exponent_sign's story, the likelier slip),
    and lowering by three (x^2's 2/x) is no slip anyone makes."""
    if sweep is None:
        return []
    for p, base, c, k in _constant_powers(f, sweep):
        adjoint = _adjoint(found, p, where)
        if adjoint is None or c in (1, 2) or c != round(c):
            continue
        words = _shifted(f, t, p, base, c, k, -2, "lowers the exponent of {} by two",
                         e, e_scale, a, adjoint, sweep, tolerance)
        if words:
            return words
    return []


def _exponent_divided(f, t, p: int, base: int, c: float, k: float, e, e_scale, a, adjoint,
                      sweep, tolerance) -> list[str]:
    """The power rule's exponent c put under u^(c-1), not before it: x^2's derivative as
    x/2, x^3's as x^2/3 (integration's division by the exponent, borrowed), where
    (1/2)*x or 1/3 x^2, read as likely meant, is what was written."""
    if abs(c) == 1 or c == 0:   # (u^(-1)'s -1 divides as it multiplies; u^0 has no
        return []               # exponent to divide by: no slip shows)
    d = _d(t)
    u, du = sweep.values[base], sweep.tangents[base]
    with np.errstate(all="ignore"):
        wrong = k / c * u ** (c - 1) * du
    if not _replaced(e, e_scale, a, adjoint, sweep.tangents[p], wrong, tolerance):
        return []
    du, power = f"({d}{U}/{d}{t.name})", _times(k, c)
    said = "" if f.nodes[p].name == "pow" else f", {power}"
    under = _nice(k / c)
    under = f"({under})" if "/" in under else under    # ((1/2)·u, not 1/2·u: 1/(2u)?)
    return [f"this divides by the exponent of {_part(f, p)}{said}: the power rule "
            f"multiplies by it, {d}({power})/{d}{t.name} = {_times(_nice(k * c), c - 1)}·{du}, "
            f"not {_times(under, c - 1)}·{du}, for {U} = {_part(f, base)}"]


def _power_dropped(f, t, p: int, base: int, c: float, k: float, e, e_scale, a, adjoint,
                   sweep, tolerance) -> list[str]:
    """The power rule c·u^(c-1)·du/dx written c·du/dx, u^(c-1) dropped (cos(x)^3's as
    -3 sin x). Said before g'(du/dx) for g(u) = u^2, which is 2·du/dx as well: a
    coincidence of c = 2, where the slip is the factor u left out."""
    if c in (0, 1):     # (u^1's rule is du/dx: nothing to drop)
        return []
    d = _d(t)
    with np.errstate(all="ignore"):
        wrong = k * c * sweep.tangents[base]
    if not _replaced(e, e_scale, a, adjoint, sweep.tangents[p], wrong, tolerance):
        return []
    du, power, n = _power_rule_words(t, c, k)
    said = "" if f.nodes[p].name == "pow" else f", as {power},"
    what = f"{U} = {_part(f, base)}" if c == 2 else _times(1, c - 1)
    return [f"the power rule on {_part(f, p)}{said} gives {d}({power})/{d}{t.name} = "
            f"{_times(n, c - 1)}·{du} for {U} = {_part(f, base)}: this drops the factor "
            f"{what}, writing {n}·{du}"]


def _power_rule_words(t, c: float, k: float) -> tuple[str, str, str]:
    """(du/dx, k·u^c, its rule's coefficient k·c) in words, the coefficient bracketed where
    it is a fraction: (2/3)·u^(-1/3), not 2/3·u^(-1/3), which reads as 2/(3u^(-1/3))."""
    d, n = _d(t), _nice(k * c)
    return f"({d}{U}/{d}{t.name})", _times(k, c), f"({n})" if "/" in n else n


def _exponent_sign(f, t, e, e_scale, a, sweep, found, where, tolerance) -> list[str]:
    """A fractional exponent c lowered to 1 - c, not c - 1 (x^(2/3)'s derivative written
    (2/3)x^(1/3)): the subtraction's sign lost. (Not for a whole c, where 2/x for x^2's
    2x is no sign lost in a subtraction anyone makes.)"""
    if sweep is None:
        return []
    for p, base, c, k in _constant_powers(f, sweep):
        adjoint = _adjoint(found, p, where)
        if adjoint is None or c == int(c) or c == 0.5:  # (x^(1/2)'s 1/2: the exponent kept)
            continue
        u, du = sweep.values[base], sweep.tangents[base]
        with np.errstate(all="ignore"):
            wrong = k * c * u ** (1 - c) * du
        if _replaced(e, e_scale, a, adjoint, sweep.tangents[p], wrong, tolerance):
            return _exponent_sign_words(f, t, p, base, c, k)
    return []


def _exponent_sign_words(f, t, p: int, base: int, c: float, k: float) -> list[str]:
    d = _d(t)
    du, power, n = _power_rule_words(t, c, k)
    said = "" if f.nodes[p].name == "pow" else f", {power}"
    return [f"this lowers the exponent of {_part(f, p)}{said} to {_nice(1 - c)}, not "
            f"{_nice(c)} - 1 = {_nice(c - 1)}: the sign of the difference is lost; "
            f"{d}({power})/{d}{t.name} = {_times(n, c - 1)}·{du}, not {_times(n, 1 - c)}·{du}, "
            f"for {U} = {_part(f, base)}"]


def _inner_itself(f, t, e, e_scale, a, sweep, found, where, tolerance) -> list[str]:
    """A function g(u) differentiated as g'(u)·u, the chain rule's du/dx taken as u itself
    (e^(5x)'s written 5x·e^(5x)): a call, or a power of a constant base."""
    if sweep is None:
        return []
    d = _d(t)
    for p, node in enumerate(f.nodes):
        k = _inner_input(f, node, sweep.tangents)
        adjoint = None if k is None or (node.name == "pow" and k == 0) else \
            _adjoint(found, p, where)
        if adjoint is None:
            continue
        u = node.args[k]
        g_prime = _along(node, [sweep.values[j] for j in node.args], k)[1]
        if np.array_equal(*np.broadcast_arrays(sweep.values[u], sweep.tangents[u])):
            continue    # (u = du/dx, as for e^x inside: no telling them apart)
        with np.errstate(all="ignore"):
            wrong = g_prime * sweep.values[u]
        if _replaced(e, e_scale, a, adjoint, sweep.tangents[p], wrong, tolerance):
            return [f"this multiplies {G}'({U}) by {U} itself, not by its derivative "
                    f"{d}{U}/{d}{t.name}, for {G}({U}) = {_applied(node, _with_u(f, node, k))} "
                    f"and {U} = {_part(f, u)}: the chain rule is {_chain_rule(d, t.name)}"]
    return []


def _reciprocal(f, t, e, e_scale, a, sweep, found, where, tolerance) -> list[str]:
    """k/v differentiated as k/(dv/dx), the derivative of the denominator turned over
    (1/x^2's written 1/(2x))."""
    if sweep is None:
        return []
    d = _d(t)
    for p, node in enumerate(f.nodes):
        if node.name != "div" or node.kind != "infix":
            continue
        top, bottom = node.args
        k = np.ravel(sweep.values[top])
        adjoint = _adjoint(found, p, where)
        if adjoint is None or np.any(sweep.tangents[top] != 0) or np.ptp(k) != 0 or \
                k[0] == 0 or not np.any(sweep.tangents[bottom] != 0):
            continue
        with np.errstate(all="ignore"):
            wrong = k[0] / sweep.tangents[bottom]
        if _replaced(e, e_scale, a, adjoint, sweep.tangents[p], wrong, tolerance):
            n, dv = _nice(float(k[0])), f"({d}{V}/{d}{t.name})"
            minus = {"1": "-", "-1": ""}.get(n, f"{_nice(-float(k[0]))}·")
            return [f"this is {n}/{dv} for {V} = {_part(f, bottom)}: the derivative of "
                    f"{n}/{V} is not {n} over the derivative of {V}; "
                    f"{d}({n}/{V})/{d}{t.name} = {minus}{dv}/{V}^2"]
    return []


def _parameter_kept(f, t, e, e_scale, a, sweep, found, where, tolerance) -> list[str]:
    """_exponent_kept's slips where the exponent is a parameter n, held along x but drawn
    at random (x^n's derivative written n·x^n)."""
    d = _d(t)
    for p, node in enumerate(f.nodes):
        if node.name != "pow" or node.kind != "infix":
            continue
        base, exponent = node.args
        adjoint = _adjoint(found, p, where)
        n = sweep.values[exponent]
        if adjoint is None or np.any(sweep.tangents[exponent] != 0) or np.ptp(n) == 0 \
                or not np.any(sweep.tangents[base] != 0):
            continue
        u, du = sweep.values[base], sweep.tangents[base]
        c = _part(f, exponent)
        c = c if f.nodes[exponent].kind == "variable" else f"({c})"
        for shift, what, kept in ((0, "keeps the exponent", c), (1, "raises the exponent",
                                                                 f"({c}+1)")):
            with np.errstate(all="ignore"):
                wrong = n * u ** (n + shift) * du
            if _replaced(e, e_scale, a, adjoint, sweep.tangents[p], wrong, tolerance):
                du = f"({d}{U}/{d}{t.name})"
                return [f"this {what} of {_part(f, p)}: the power rule lowers it by one, "
                        f"{d}({U}^{c})/{d}{t.name} = {c}·{U}^({c}-1)·{du}, not "
                        f"{c}·{U}^{kept}·{du}, for {U} = {_part(f, base)}"]
    return []


def _constant_powers(f, sweep):
    """(node, its base u, exponent c, factor k) for each node of f that is k·u^c, u moving,
    c and k constant: a power u^c (k = 1), or k/u^c, which the power rule takes as
    k·u^(-c) (1/x^2 as x^(-2)). The power under such a quotient is left to it: x^2's
    derivative written 2x^2 in 1/x^2 is x^(-2)'s written -2x^(-2), one slip, said as the
    student who wrote -2/x^2 for 1/x^2 made it."""
    def power(j):   # (u, c) for node j = u^c, else None
        node = f.nodes[j]
        if node.name != "pow" or node.kind != "infix":
            return None
        base, exponent = node.args
        c = sweep.values[exponent]
        if np.any(sweep.tangents[exponent] != 0) or np.ptp(c) != 0 \
                or not np.any(sweep.tangents[base] != 0):
            return None
        return base, float(np.ravel(c)[0])

    over = {}   # the quotients k/u^c, by their denominator
    for p, node in enumerate(f.nodes):
        top = node.args[0] if node.name == "div" and node.kind == "infix" else None
        if top is not None and not np.any(sweep.tangents[top] != 0) and \
                np.ptp(sweep.values[top]) == 0 and np.ravel(sweep.values[top])[0] != 0 and \
                power(node.args[1]):
            over[node.args[1]] = p
    quotients = {p: j for j, p in over.items()}
    for p in range(len(f.nodes)):
        if p in quotients:
            base, c = power(quotients[p])
            yield p, base, -c, float(np.ravel(sweep.values[f.nodes[p].args[0]])[0])
        elif p not in over and (found := power(p)):
            yield p, *found, 1.0


def _times(k: float | str, c: float) -> str:
    """k·u^c as written: 2·u^(-3), 3·u, u^2 (k 1), -u^2, 2 (c 0)."""
    k = k if isinstance(k, str) else _nice(k)
    if c == 0:
        return k
    power = U if c == 1 else f"{U}^{_exponent(c)}"
    return power if k == "1" else f"-{power}" if k == "-1" else f"{k}·{power}"


def _exponent(c: float) -> str:
    """An exponent as written after ^: 2, or (-2), (1/2) in parentheses."""
    text = _nice(c)
    return text if text.isdigit() else f"({text})"


def _inside_only(f, t, e, e_scale, a, sweep, found, where, tolerance) -> list[str]:
    """A function of a moving inner part u differentiated as the function of du/dx, the
    outside left as it is (e^(x^2)'s derivative written e^(2x), sin(x)^2's cos(x)^2), or
    as its derivative at du/dx (sin(x^2)'s written cos(2x), ln(x^2+1)'s 1/(2x))."""
    if sweep is None:
        return []
    d = _d(t)
    for p, node in enumerate(f.nodes):
        k = _inner_input(f, node, sweep.tangents)
        adjoint = None if k is None else _adjoint(found, p, where)
        if adjoint is None:
            continue
        u = node.args[k]
        value, slope = np.broadcast_arrays(sweep.values[u], sweep.tangents[u])
        if np.ptp(slope) == 0 or np.array_equal(value, slope):
            continue    # du/dx = 1 or du/dx = u: g(du/dx) is then g'(u) or g(u) by chance
        # g at du/dx, and g' at du/dx, the others fixed
        at_inner = _along(node, [sweep.tangents[j] if i == k else sweep.values[j]
                                 for i, j in enumerate(node.args)], k)
        inner = f"{d}{U}/{d}{t.name}"
        g = _applied(node, [(inner if node.kind == "call" else f"({inner})") if i == k
                            else _part(f, j) for i, j in enumerate(node.args)])
        rule = f"the chain rule is {_chain_rule(d, t.name)}"
        for row, what, how in (
                (0, f"this is {g}", "the inner derivative put inside, the outside not "
                                    "differentiated"),
                (1, f"this is {G}'({inner})", f"the outside's derivative taken at {inner}, "
                                              f"not at {U}")):
            if _replaced(e, e_scale, a, adjoint, sweep.tangents[p], at_inner[row], tolerance):
                return [f"{what} for {G}({U}) = {_applied(node, _with_u(f, node, k))} and {U} = "
                        f"{_part(f, u)}: {how}; {rule}"]
    return []


def _with_u(f, node, k: int) -> list[str]:
    """The texts of node's inputs with input k written u."""
    return [U if i == k else _part(f, j) for i, j in enumerate(node.args)]


def _terms(f, t, points, where, sweep, tolerance) -> list[str]:
    """The expectation's terms, as written, against the terms of f's rule at its root
    (a product's two, a quotient's two, a sum's one per term): which are right, and which
    written term is not the rule's term it stands for, with its value at one point."""
    found = _side_by_side(f, t, points, where, sweep, tolerance)
    if found is None:
        return []
    heading, rule, written = found
    right, rest, left = _matched(written, rule, tolerance)
    if not right:
        return []
    said = _few(right, "terms are right")
    if not rest:
        return [f"{heading}: {said}; {_few([rule[k][0] for k in left])} "
                f"{'is' if len(left) == 1 else 'are'} missing"]
    texts = _few([text for text, _ in rest], joint=" + ").replace("+ -", "- ")
    if not left:
        return [f"{heading}: {said}; {texts} {'is' if len(rest) == 1 else 'are'} extra"]
    names = _few([rule[k][0] for k in left], joint=" + ").replace("+ -", "- ")
    got, should = sum(w for _, w in rest), sum(rule[k][1] for k in left)
    i = _plain_point(points, where, f.variables, ~_close(got, should, np.abs(got),
                                                         np.abs(should), *tolerance))
    at = ", ".join(f"{v} = {points[v][where][i]:.6g}" for v in f.variables)
    got, should = _told_apart(got[i], should[i])
    return [f"{heading}: {said}, but {texts} is not {names} (at {at}: "
            f"{got}, where {names} = {should})"]


def _told_apart(x: float, y: float) -> tuple[str, str]:
    """Two values that differ, each to as many digits (6 to 17) as show that they do:
    3.1415927 beside π is 3.14159 and 3.14159 to six."""
    for digits in range(6, 18):
        shown = f"{x:.{digits}g}", f"{y:.{digits}g}"
        if shown[0] != shown[1]:
            return shown
    return shown


def _dropped_terms(f, t, points, where, sweep, tolerance) -> list[str]:
    """_terms' words where f is a sum, every written term is the derivative of one of its
    terms, and the others' derivatives are left out; else nothing."""
    if f.nodes[-1].name not in ("add", "sub", "neg"):
        return []
    found = _side_by_side(f, t, points, where, sweep, tolerance)
    if found is None:
        return []
    _, rule, written = found
    right, rest, left = _matched(written, rule, tolerance)
    return _terms(f, t, points, where, sweep, tolerance) if right and left and not rest \
        else []


SUM_CHAIN_TERMS = 50  # a sum's terms, at most, paired with the written terms one by one


def _sum_chain(f, t, points, where, sweep, tolerance) -> list[str]:
    """f a sum, and every written term either a term's derivative or, for a term g(u),
    g'(u) alone: the chain rule's du/dx missing there (in one term or in several, each a
    slip of its own, which the claims about f' as a whole cannot untangle)."""
    root = f.nodes[-1]
    e_expr = t.expectation
    if sweep is None or e_expr.has_diff or root.name not in ("add", "sub", "neg"):
        return []
    summands = _summands(f.nodes, len(f.nodes) - 1)
    if len(summands) > SUM_CHAIN_TERMS:
        return []
    from .taylor import jvp

    with np.errstate(all="ignore"):
        e_run = jvp(e_expr, {v: points[v][where] for v in e_expr.variables}, {})
    written = [(text, w) for text, w in _written_terms(e_expr, e_run.values) if np.any(w != 0)]
    choices = [(sign * sweep.tangents[j], None) for sign, j in summands]
    outer = [_outer_derivative(f, f.nodes[j], sweep) for _, j in summands]
    used, slips = set(), []
    for text, w in written:
        k = next((k for k, (sign, j) in enumerate(summands) if k not in used and any(
            c is not None and np.all(_close(w, c, np.abs(w), np.abs(c), *tolerance))
            for c in (choices[k][0], None if outer[k] is None else sign * outer[k][0]))),
            None)
        if k is None:
            return []
        used.add(k)
        sign, j = summands[k]
        if outer[k] is not None and not np.all(_close(w, choices[k][0], np.abs(w),
                                                       np.abs(choices[k][0]), *tolerance)):
            # (d, not ∂, for a partial too: the term as a function of u alone)
            slips.append(f"{text} is d/d{U} of {_part(f, j)} for {U} = {_part(f, outer[k][1])}")
    missing = [k for k, (sign, j) in enumerate(summands)
               if k not in used and np.any(sweep.tangents[j] != 0)]
    if not slips or missing:
        return []
    d = _d(t)
    return [f"{t.label} of a sum is the sum of its terms' derivatives, each by the chain rule "
            f"{_chain_rule(d, t.name)}: the factor {d}{U}/{d}{t.name} "
            f"is missing where {_few(slips, 'terms')}"]


def _outer_derivative(f, node, sweep):
    """(g'(u), u) for a node g(u) of one moving inner argument u that is not a variable
    (a call, or a power with a constant base or exponent), else None."""
    k = _inner_input(f, node, sweep.tangents)
    if k is None:
        return None
    return _along(node, [sweep.values[j] for j in node.args], k)[1], node.args[k]


def _side_by_side(f, t, points, where, sweep, tolerance):
    """(heading, rule terms, written terms), each term a (words, values) pair at the
    counted points, none all 0; or None where there are too few to pair."""
    e_expr = t.expectation
    if sweep is None or e_expr.has_diff:
        return None
    from .taylor import jvp

    with np.errstate(all="ignore"):
        e_run = jvp(e_expr, {v: points[v][where] for v in e_expr.variables}, {})
    rule, written = _rule_terms(f, t, sweep), _written_terms(e_expr, e_run.values)
    heading = _rule_heading(f, t)
    if e_expr.nodes[-1].name == "div" and f.nodes[-1].name == "div":
        # (u'v - uv')/v^2 written as one fraction: its numerator's terms against the
        # rule's terms times v^2
        v2 = np.asarray(sweep.values[f.nodes[-1].args[1]]) ** 2
        bottom = e_run.values[e_expr.nodes[-1].args[1]]
        if np.all(_close(bottom, v2, np.abs(bottom), np.abs(v2), *tolerance)):
            rule = [(name.replace(f")/{V}^2", ")").replace(f")/{V}", f")·{V}"), r * v2)
                    for name, r in rule]
            written = _written_terms(e_expr, e_run.values, e_expr.nodes[-1].args[0])
            heading += f", over {V}^2; in the numerator"
    n = np.count_nonzero(where)
    rule = [(name, np.broadcast_to(r, (n,))) for name, r in rule if np.any(r != 0)]
    written = [(text, np.broadcast_to(w, (n,))) for text, w in written if np.any(w != 0)]
    # (a rule of two terms; a sum's one written term is right or not: 2x for x^2 - 3x's
    # derivative is x^2's, and -3x's is missing)
    enough = 1 if f.nodes[-1].name in ("add", "sub", "neg") else 2
    return (heading, rule, written) if len(rule) >= enough and len(written) >= enough \
        else None


def _undefined(t, points, where, gone, ad) -> list[str]:
    """The expectation nan (outside its domain) at counted points where f' is finite."""
    names = [v for v in points if np.ptp(points[v][where]) > 0] or list(points)
    k = _plain_point(points, where, names, gone[where])
    at = ", ".join(f"{v} = {points[v][where][k]:.6g}" for v in names)
    total = int(where.sum())
    side = _side(points, where, gone[where])     # a formula right for x > 0 only
    which = f"the {int(gone.sum())} of {total} points with {side}" if side else \
        f"{int(gone.sum())} of {total} point{'s' * (total != 1)}"
    return [f"{UNDEFINED_CLAIM}{which}, where {t.label} is finite (at {at}: "
            f"{t.label} = {ad[where][k]:.6g}): it is undefined there"
            f"{_where_defined(t, where & ~gone)}, so it is not {t.label}"
            + _real_root(t.expectation, points, where & gone)]


def _where_defined(t, rest) -> str:
    """Where the expectation is defined and differs too, how often: 2√x for x^2's 2x is
    nan for x < 0 and wrong for x > 0, not a formula right on half the line, though no
    rule's claim holds there to say so. Where it matches there, nothing."""
    n = int(np.count_nonzero(rest))
    differs = int(np.count_nonzero(rest & (t.status == "differs")))
    if not differs:
        return ""
    return f", and where it is defined it differs too, at {differs} of {n} point{'s' * (n != 1)}"


def _real_root(e, points, gone) -> str:
    """Where a fractional power of a negative base is what made the expectation nan, as
    f's own note says it for f: the real root to write instead (x^{-2/3} for cbrt's
    derivative is nan where x < 0 in numpy's power, as a student rarely means)."""
    from .checking import _data, _negative_power
    from .expression import _Run

    n = int(gone.sum())
    with np.errstate(all="ignore"):
        nodes = _Run(e, [points[v][gone] for v in e.variables], (n,),
                     watching=False).forward_nodes()
        hint = _negative_power(e, nodes, np.isnan(_data(nodes[-1], n)))
    return f" ({hint})" if hint else ""


def _side(points, where, chosen) -> str | None:
    """"x < 0" (or "x > 0") where the ``chosen`` counted points are just those of that
    sign of a variable, else None."""
    for v in points:
        x = points[v][where]
        for sign, test in (("<", np.less), (">", np.greater)):
            if np.all(test(x[chosen], 0)) and not np.any(test(x[~chosen], 0)):
                return f"{v} {sign} 0"
    return None


def _plain_point(points, where, names, differs) -> int:
    """Of the points where ``differs``, the one with coordinates nearest 1 in size (the
    easiest to work out by hand)."""
    with np.errstate(all="ignore"):
        size = sum(np.abs(np.log(np.abs(points[v][where]))) for v in names)
    return int(np.argmin(np.where(differs, np.nan_to_num(size, nan=np.inf), np.inf)))


def _matched(written, rule, tolerance):
    """Each written term paired with a rule term of the same value at every point: the
    pairs as words, the written terms left over, the rule terms' indices left over. The
    candidates come from the values at the first point, sorted: a sum of 10^4 terms is
    not compared 10^8 times."""
    keys = np.array([r[0] for _, r in rule])
    order = np.argsort(keys, kind="stable")
    keys, free = keys[order], np.ones(len(rule), bool)
    right, rest = [], []
    for text, w in written:
        reach = 1e-8 * abs(w[0])  # wider than _close allows: a superset, then checked
        lo = np.searchsorted(keys, w[0] - reach, side="left")
        hi = np.searchsorted(keys, w[0] + reach, side="right")
        k = next((k for k in order[lo:hi] if free[k] and np.all(_close(
            w, rule[k][1], np.abs(w), np.abs(rule[k][1]), *tolerance))), None)
        if k is None:
            rest.append((text, w))
        else:
            free[k] = False
            right.append(f"{text} is {rule[k][0]}")
    return right, rest, [k for k in range(len(rule)) if free[k]]


FEW = 3  # terms named in a list, at most: the others are counted


def _few(items: list[str], what: str = "terms", joint: str = " and ") -> str:
    """Up to FEW items in words, the last after ``joint`` (", " between the others unless
    the joint is a sign); more are counted (a sum of 10^4 terms is not listed)."""
    sep = joint if joint.strip() in "+-" else ", "
    if len(items) > FEW:
        items = items[:FEW - 1] + [f"{len(items) - FEW + 1} more {what}"]
    return sep.join(items[:-1]) + (joint if len(items) > 1 else "") + items[-1]


def _rule_heading(f, t) -> str:
    root = f.nodes[-1]
    d = _d(t)
    if root.name in ("mul", "div", "pow"):
        u, v = (_part(f, j) for j in root.args)
        return f"for {U} = {u} and {V} = {v}, {_fill(_RULES[root.name][2], d, t.name)}"
    return f"{t.label} of a sum is the sum of its terms' derivatives"


def _rule_terms(f, t, sweep) -> list:
    """(name, value) of each term of the rule at f's root: a product's, quotient's or
    power's two (each input's tangent alone through the root's Taylor rule), or the
    derivative of each term of a sum."""
    d = _d(t)
    root = f.nodes[-1]
    if root.name in ("mul", "div", "pow") and len(root.args) == 2:
        return [(_fill(_RULES[root.name][k], d, t.name), _input_term(root, sweep, k))
                for k in range(2)]
    return [(f"{d}/{d}{t.name} of {'-' if sign < 0 else ''}{_part(f, j)}",
             sign * sweep.tangents[j]) for sign, j in _summands(f.nodes, len(f.nodes) - 1)]


def _written_terms(e_expr, values, root: int | None = None) -> list:
    """(text, value) of each term of the expectation's sum (or of node ``root``'s)."""
    root = len(e_expr.nodes) - 1 if root is None else root
    return [(("-" if sign < 0 else "") + _part(e_expr, j), sign * values[j])
            for sign, j in _summands(e_expr.nodes, root)]


def _summands(nodes, root: int) -> list:
    """(sign, node) of each term of the sum at ``root``, in the order written; a node that
    is no sum is one term."""
    terms, stack = [], [(1, root)]
    while stack:
        sign, j = stack.pop()
        node = nodes[j]
        if node.name in ("add", "sub") and node.kind == "infix":
            left, right = node.args
            stack += [(sign if node.name == "add" else -sign, right), (sign, left)]
        elif node.name == "neg":
            stack.append((-sign, node.args[0]))
        else:
            terms.append((sign, j))
    return terms


# ----- the expectation read otherwise ------------------------------------------------------

READING_CHARS = 400  # an expectation up to which its other readings are looked for
READ_MATCHES = ", the expectation matches"   # how the words of a reading that matches end
READ_TRIED = "; read the other way, it differs too"  # how the words of one that differs end


def _read_otherwise(t, points, where, a, a_scale, tolerance) -> str | None:
    """Where the expectation has a reading the parser cautions of (1/2 x, x^1/2, e^2x) and
    read as the caution says it was likely meant, it matches f' at every counted point:
    the words for that. Two such readings are tried together too (1/2 x^-1/2, both a
    divisor written side by side and a power without parentheses, is (1/2)*x^(-1/2))."""
    e = t.expectation
    if len(e.text) > READING_CHARS or not (e.cautions or "/" in e.text):
        return None
    n = int(np.count_nonzero(where))

    def matches(other) -> bool:
        if not set(other.variables) <= set(points):
            return False
        with np.errstate(all="ignore"):
            value, scale = _expectation(other, {v: points[v][where] for v in points}, n)
        return bool(np.all(_close(value, a, scale, a_scale, *tolerance)))

    for reading, other in _unspaced_readings(e):
        if matches(other):
            return (f"{reading.written} is read as {reading.read}: a product written side "
                    f"by side binds tighter than '/'; as {reading.meant}, the expectation "
                    "matches")
    for readings, other in _other_readings(e) if e.cautions else ():
        if matches(other):
            written = " and ".join(r.written for r in readings)
            meant = " and ".join(r.meant for r in readings)
            one = len(readings) == 1
            return (f"{written} {'is' if one else 'are'} read otherwise than "
                    f"{'it was' if one else 'they were'} likely meant (see the "
                    f"warning{'' if _cautions(readings) == 1 else 's'}); as {meant}, the "
                    "expectation matches")
    return None


def _cautions(readings) -> int:
    """How many cautions' readings ``readings`` take (two for a reading of a reading)."""
    return sum(getattr(r, "cautions", 1) for r in readings)


def _read_tried(e) -> bool:
    """Whether _read_otherwise tried a reading of e's cautions (none of which matched)."""
    return bool(e.cautions) and len(e.text) <= READING_CHARS and bool(_offered(e))


def _fullest_reading(e):
    """(the words, e so read) for the reading _other_readings offers that takes the most
    of e's cautions (1/2 x^-1/2's two together), or None: "the other way" of one that was
    wrong either way, to say what is wrong with it so read."""
    best = None
    for readings, other in _other_readings(e):
        if best is None or _cautions(readings) > _cautions(best[0]):
            best = readings, other
    return best and (" and ".join(r.meant for r in best[0]), best[1])


def _unspaced_readings(e):
    """(the words, the expectation so read) for each number divided by a product written
    side by side from a number, with no space: 1/2x^(-1/2) is 1/(2x^(-1/2)) by the rules,
    as 1/2x is 1/(2x), and no caution says it (it is as often meant); where f' is
    (1/2)*x^(-1/2) and not what was read, the reading is the slip, not "sqrt(x)'s
    derivative as sqrt(x)/2", the value of what was written. ``reading``: as written, as
    read, and as likely meant (not the parser's OtherReading: no warning offers it).
    (Not where --let names are in it: their nodes' places are in their own texts.)"""
    from types import SimpleNamespace

    from .parser import _NUMBER_THEN_BRACKET, _factor_end, _run_after, parse
    from .printer import as_operand, render

    nodes, text = e.nodes, e.text
    for index, node in enumerate([] if e.names else nodes):
        if node.name != "div" or node.kind != "infix":
            continue
        top, bottom = node.args
        end = _factor_end(text, node.position + 1)
        # (1/2(x^2+1)^(-1/2)·2x: the run from the number on, its bracket a factor after it)
        number = re.compile(_NUMBER_THEN_BRACKET).match(text, node.position + 1)
        if number is not None and end is not None and not text[end:end + 1].isspace():
            end = number.end()
        if end is None or not _a_number(nodes, top) or text[end:end + 1].isspace():
            continue
        factors, first = _run_after(e, bottom, end)
        if not factors or nodes[first].kind != "number":
            continue
        over, n = as_operand(nodes, top), as_operand(nodes, first)
        rest = [as_operand(nodes, j) for j in reversed(factors)]
        try:
            other = parse(f"{text[:end]}*{text[end:]}")
        except AdcliError:
            continue
        yield SimpleNamespace(written=f"{over}/{n}{' '.join(rest)}",
                              read=render(nodes, root=index),
                              meant=f"({over}/{n})*{'*'.join(rest)}", at=end), other


def _a_number(nodes, k: int) -> bool:
    """A number, or a number negated (-1/2(x^2+1)^(-3/2)·2x: the minus is the top's)."""
    node = nodes[k]
    return node.kind == "number" or (node.kind == "prefix" and node.name == "neg"
                                     and nodes[node.args[0]].kind == "number")


def _other_readings(e):
    """(the readings taken, the expectation so read) for each reading a caution offers,
    then for each two of them taken together (the second as the first's text offers it),
    then every function's wide argument narrowed at once (sin x e^x + cos x e^x)."""
    from types import SimpleNamespace

    from .parser import parse

    singles = []
    for reading in _offered(e):
        try:
            singles.append(([reading], parse(reading.text)))
        except AdcliError:
            continue
    yield from singles
    for (first,), once in singles:
        for second in _offered(once):
            try:
                twice = parse(second.text)
            except AdcliError:
                continue
            # (one reading, from what was typed to the last: the first's words are of a
            # halfway reading, (1/2)*x^(-1) of 1/2 x^-1/2, and the second's may be too)
            yield [SimpleNamespace(written=e.text.strip(), meant=twice.parsed,
                                   cautions=2)], twice
    wide = _wide_readings(e)
    if len(wide) > 1:
        try:
            yield wide, parse(_narrowed(e.parsed, wide))
        except AdcliError:
            pass


def _offered(e) -> list:
    """The readings e's cautions offer: the parser's (1/2 x, x^1/2, e^2x) and the reader's
    of a function's wide argument (sin x e^x)."""
    from .parser import other_readings

    return [*other_readings(e), *_wide_readings(e)]


# The reader's caution of a function written without parentheses over several factors
_WIDE = re.compile(r"(?P<written>.+): a function written without parentheses takes every "
                   r"factor after it, so this is (?P<read>.+); for (?P<meant>.+), write .+",
                   re.DOTALL)


def _wide_readings(e) -> list:
    """The reading each caution of a function's wide argument offers (\\sin x e^x, read
    sin(x*e^x), meant sin(x)*e^x), with its text: e as read with that one function
    narrowed (the caution names the function as read, a part of e's reading; of the
    text as typed it does not say where the argument ends)."""
    from types import SimpleNamespace

    readings = []
    for caution in e.cautions:
        found = _WIDE.fullmatch(caution)
        if found is None or found["read"] not in e.parsed:
            continue
        reading = SimpleNamespace(written=found["written"], read=found["read"],
                                  meant=found["meant"])
        reading.text = _narrowed(e.parsed, [reading])
        readings.append(reading)
    return readings


def _narrowed(parsed: str, readings) -> str:
    """e as read (its printed form) with each function's argument as the readings meant."""
    for reading in readings:
        parsed = parsed.replace(reading.read, f"({reading.meant})", 1)
    return parsed
