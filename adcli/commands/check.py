"""adcli check: verify a hand derivation. A verdict, the worst points with three
witnesses (the expectation, AD, finite differences), a diagnosis, and exit status 1 when
it differs or cannot tell (the derivative exists at none of the points, finite differences
straddle a pole at each or settle at none, or rounding leaves no digit at any: no pass); 3 under --strict when a value at a point is nan or inf. The
work is ``adcli.check``; this module reads the options and lays out its result (a verdict
and tables do not fit the points-table columns of other commands)."""
from __future__ import annotations

import re
import sys
import warnings

import click
import numpy as np

from ..errors import (ValuesError, did_you_mean, escape, listing, no_value_for, quiet, quote,
                      say, warn)
from ..options import Whole
from ..expression import MAX_ORDER
from .base import Command

_DEFAULT_SPREAD = "magnitudes 1e-3 to 1e3, either sign"


class Check(Command):
    name = "check"
    help = ("Is EXPECTED the derivative of EXPRESSION? Compares them (and finite "
            "differences) at random or given points; exit 1 when they differ, or when "
            "no point can be judged (cannot tell: the derivative exists at none, finite "
            "differences straddle a pole at each or settle at none, or rounding leaves no "
            "digit).")
    examples = ('adcli check "x^2 sin x" "2x sin x + x^2 cos x"',
                'adcli check "x^2 y" --expect x="2x y" --expect y="x^2"',
                'adcli check "sin(x)^2 + cos(x)^2" "1" --order 0')
    many = True   # EXPRESSION and, optionally, EXPECTED
    metavar = "EXPRESSION [EXPECTED]"
    formats = ("table", "json", "jsonl", "csv", "tsv", "plain")  # its own layouts (_FORMATS)
    options = (
        click.option("--expect", multiple=True, metavar="NAME[,NAME...]=EXPR",
                     help="The expected partial derivative in NAME (repeatable); x,y=EXPR "
                     "is the mixed partial ∂²f/∂x∂y, of order the number of names."),
        click.option("--order", type=Whole(0, MAX_ORDER), default=None,
                     help="Which derivative: 1, unless EXPECTED's left side (d²/dx² f) or "
                     "--expect x,y= names another; 0 checks an identity "
                     "(EXPRESSION = EXPECTED)."),
        click.option("--samples", type=Whole(1, 10_000), default=30,
                     show_default=True, help="Random points, for variables without --at "
                     "(when no --grid or --points)."),
        click.option("--seed", type=Whole(0, None), default=0, show_default=True,
                     help="Seed of the random points."),
        click.option("--domain", multiple=True, metavar="NAME=LO:HI",
                     help=f"Draw NAME uniformly from [LO, HI] (default: {_DEFAULT_SPREAD})."),
        click.option("--rtol", type=click.FloatRange(0, None), metavar="FLOAT", default=1e-9,
                     callback=lambda ctx, param, value: _finite(value),
                     show_default=True, help="Relative tolerance, on top of the rounding "
                     "error each formula can make."),
        click.option("--atol", type=click.FloatRange(0, None), metavar="FLOAT", default=0.0,
                     callback=lambda ctx, param, value: _finite(value),
                     show_default=True, help="Absolute tolerance."),
    )

    @classmethod
    def main(cls, texts, wrt=None, *, at=(), grid=(), points_file=None, skip_bad_rows=False,
             points_format=None, columns=None, no_header=False,
             fmt="table", digits=None, strict=False, expect=(), order=None, samples=30, seed=0,
             domain=(), rtol=1e-9, atol=0.0, let=(), out=None, err=None) -> int:
        from .. import checking
        from ..definitions import from_pairs, unused
        from ..parser import define
        from ..pipeline import refuse_constant_columns

        out, err = out or sys.stdout, err or sys.stderr
        if len(texts) not in (1, 2):
            raise ValuesError(f"check takes EXPRESSION and optionally EXPECTED, got "
                              f"{len(texts)} arguments (quote each expression)")
        if no_header and fmt not in ("csv", "tsv"):
            raise ValuesError(f"--no-header is for --format csv or tsv, not {fmt}")
        definitions = define(from_pairs(let)) if let else None
        texts = _split_equation(texts, checking.applied_operand)
        f = _function(texts[0], definitions, checking.applied_operand)
        if order is None and len(texts) == 2:   # d²y/dx² = 6x says the order itself
            order = checking.written_order(texts[1])
        expected = texts[1] if len(texts) == 2 else None
        expectations = _expectations(expect)
        # a constant F with d/dx written or --wrt x is a function of x (--at x=1 is its)
        f = checking.constant_in(f, expected, expectations, 1 if order is None else order,
                                 wrt)
        given, extra, source = _points(f, at, grid, points_file, skip_bad_rows, strict, err,
                                       points_format, columns, identity=order == 0)
        spans = _known(f, _domains(domain, err), "--domain", strict, err)
        spoken = checking.FROM_CLI.set(True)     # (advice names options, not keywords)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            try:
                result = checking.check(f, expected, expect=expectations or None, order=order,
                                        wrt=wrt, at=given, samples=samples, seed=seed,
                                        domain=spans, rtol=rtol, atol=atol,
                                        definitions=definitions)
            except ValuesError as error:    # (1e400 read as inf may be why it failed)
                for message in getattr(error, "cautions", ()):
                    warn(err, message)
                raise
            finally:
                checking.FROM_CLI.reset(spoken)
        if source is not None:  # (the expectations are read by check: e^x for exp(x))
            refuse_constant_columns([t.expectation for t in result.targets
                                     if t.expectation is not None], source)
        for message in unused(definitions) if definitions is not None else ():
            warn(err, message)
        _report(result, fmt, out, digits, extra, not no_header)
        if fmt in _ROWS_ONLY:  # the verdict and its words go to people, not in the rows
            for line in [result.summary, *(f"diagnosis: {d}" for d in result.diagnosis),
                         *(f"note: {n}" for n in result.notes)]:
                say(err, line)
        _warnings(result, err)
        if strict:
            _strict(result, extra)
        return result.exit_code


def _report(result, fmt, out, digits, extra, header) -> None:
    """The report on ``out``. A reader that stops early (``| head``) has what it wants, but
    check's exit status is its verdict, decided before a line is written: it must not
    become the 0 that other commands exit with then (a wrong derivative would pass in a
    pipefail script). The rest of the report goes nowhere, and the run goes on: its words
    on stderr, --strict's judgement, the verdict's status."""
    try:
        _FORMATS[fmt](result, out, digits, extra=extra, header=header)
        out.flush()     # (a report the buffer holds meets the closed pipe here, not at exit)
    except BrokenPipeError:
        quiet(out)


def _strict(result, extra) -> None:
    """--strict: exit 3 when f's value, adcli's derivative or the expectation is nan or
    inf at a point checked, as every command's results (the report is written whole
    first: a verdict is not a stream of points to stop in)."""
    from ..errors import NonFiniteError

    found = [(result.value, "f")]
    for t in result.targets:
        if result.order:
            found.append((t.ad, f"adcli's {t.label}"))
        if t.expected is not None:
            found.append((t.expected, f"the expected {t.label}"))
    bad = np.logical_or.reduce([~np.isfinite(values) for values, _ in found])
    if not bad.any():
        return
    i, n = int(np.argmax(bad)), len(bad)
    said = [f"{what} is {_text(values[i], None)}" for values, what in found
            if not np.isfinite(values[i])]
    more = int(bad.sum()) - 1
    others = f", and a value is nan or inf at {more} more point{'s' * (more != 1)}" \
        if more else ""
    raise NonFiniteError(f"{listing(said)} at {_point_words(result, extra, i)} (point "
                         f"{i + 1} of {n}){others} (--strict)")


def _point_words(result, extra, i: int) -> str:
    """Point i as name=value pairs: its passed-through columns, then its coordinates."""
    from ..render import pair_text

    pairs = [(n, pair_text(values[i])) for n, values in extra.items()] + \
        [(n, _text(p[i], None)) for n, p in result.points.items()]
    return ", ".join(f"{n}={v}" for n, v in pairs) or "the point"


# ----- reading the options ------------------------------------------------------------------

def _finite(value: float) -> float:
    """--rtol, --atol: a tolerance of nan or inf decides nothing (FloatRange lets both by)."""
    if not np.isfinite(value):
        raise click.BadParameter(f"{value} is not a finite number")
    return value


def _quoted(text: str) -> str:
    """User text quoted as a POSIX shell reads it back as typed, for a suggestion to paste
    (repr doubles LaTeX's backslashes): in single quotes, where nothing is special; with a
    quote in it (f'(x)), in double quotes, where \\, ", $ and ` are escaped."""
    if "'" not in text:
        return f"'{escape(text)}'"
    return '"' + re.sub(r'([\\"$`])', r"\\\1", escape(text)) + '"'


def _known(f, values: dict, option: str, strict: bool, err) -> dict:
    """Drop (with a warning; an error under --strict) names f does not use. A name that
    is one of f's letters spelled otherwise (omega for ω) is an error, as grad's: f's own
    would be drawn at random, and the value given believed used."""
    from ..checking import run_into
    from ..expression import letter_hint

    for name in [n for n in values if n not in f.variables]:
        message = f"{option}: '{name}' does not appear in the expression"
        letter = letter_hint(name, f.variables)
        if letter:
            raise ValuesError(message + letter)
        # (e^{ax} with a given: 'ax' is one name, not a typo of a)
        hint = run_into(name, f.variables)
        hint = f": {hint}" if hint else did_you_mean(name, f.variables)
        if strict:  # (said so, as grad's: the warning's words alone read as if it went on)
            raise ValuesError(f"{message}: refused under --strict{hint}")
        message += hint
        warn(err, message)
        del values[name]
    return values


def _expectations(pairs) -> dict:
    from ..parser import is_name, normal_name

    expected = {}
    for pair in pairs:
        left, equals, text = pair.partition("=")
        names = [name.strip() for name in left.split(",")]
        if not equals or not all(map(is_name, names)) or not text.strip():
            raise ValuesError(f"--expect {_quoted(pair)} is not of the form NAME=EXPRESSION (or "
                              "NAME,NAME=EXPRESSION for a mixed partial, x,y= for ∂²f/∂x∂y)")
        names = tuple(map(normal_name, names))
        if names in expected:
            raise ValuesError(f"--expect {','.join(names)}= is given more than once")
        expected[names] = text
    return expected


def _split_equation(texts: list[str], operand) -> list[str]:
    """check "d/dx (x^2) = 2x", one equation whose left side applies d/dx to f, as check
    "x^2" "d/dx (x^2) = 2x"."""
    if len(texts) == 1 and "=" not in texts[0]:
        _related(texts[0], operand)
    if len(texts) != 1 or "=" not in texts[0]:
        return texts
    from ..reader import without_math

    # (split as written inside $...$ or an align's line: d/dx (x^2) &= 2x \\)
    left, _, right = without_math(texts[0]).partition("=")
    f = operand(left)
    if f and "=" in right:     # d/dx (x^2) = 2x = 2*x: which side is the expectation?
        from ..errors import ExpressionError

        raise ExpressionError("the equation has more than one '=': give one, d/dx (F) = "
                              "..., or F and the right-hand side apart", texts[0],
                              len(left) + 1 + right.index("="))
    if texts[0].count("=") != 1:
        return texts
    if f == "":
        raise ValuesError(f"{texts[0].partition('=')[0].strip()} does not say of what: give "
                          f"the function first, check F {_quoted(texts[0])}, or write d/dx "
                          "applied to it (d/dx (x^2) = 2x)")
    if f is None:
        _no_derivative_named(texts[0], left, right, len(left))
        return texts
    return [f, texts[0]]


def _related(text: str, operand) -> None:
    """x^2 \\to 2x, x^2 → 2x: "differentiates to", with no derivative on the left, is said
    as _no_derivative_named says it, in one round (the parser's advice to write '=' in the
    relation's place would only lead to that error)."""
    from ..reader import RELATION

    found = re.search(RELATION, text)
    if found and operand(text[:found.start()]) is None:
        _no_derivative_named(text, text[:found.start()], text[found.end():], found.start())


def _no_derivative_named(text: str, left: str, right: str, at: int) -> None:
    """check "x^2 = 2x", written as one does on paper for "x^2 differentiates to 2x": the
    left side is an expression naming no derivative (y = x^2 and f(x) = x^2 are left to the
    parser, which says to give the right-hand side alone). Say both ways that check reads."""
    from ..errors import ExpressionError
    from ..parser import is_name, parse

    bare = re.match(r"\s*([^\W\d]\w*)\s*(\([\w\s,]*\))?\s*\Z", left)
    if bare and is_name(bare[1]):
        return
    _written_backwards(text, left.strip(), right.strip(), at)
    try:
        variables = parse(left).variables
        parse(right)
    except ExpressionError:
        return
    f, g = left.strip(), right.strip()
    # (t^2 = 2t: d/dt; of several, x or t as calculus names them, a*x^2's x, not a)
    named = [v for v in ("x", "t") if v in variables] or variables or ["x"]
    d = f"d/d{named[0]}"
    raise ExpressionError(f"the left side names no derivative: write {d} applied to it, "
                          f"{d} ({escape(f)}) = {escape(g)}, or give the function and its "
                          f"derivative apart, check {_quoted(f)} {_quoted(g)}", text, at)


def _written_backwards(text: str, left: str, right: str, at: int) -> None:
    """3x^2 = dy/dx given alone: the right side names the derivative (the advice to give
    3x^2 and dy/dx apart led into another error, and 2x = f'(x) met the parser's)."""
    from ..checking import _left_side
    from ..errors import ExpressionError

    if _left_side(right) is not None:
        raise ExpressionError(f"the left side names no derivative, and the right side, "
                              f"{escape(right)}, names one: written the other way round? give "
                              f"the function first, and the derivative on the left, check F "
                              f"{_quoted(f'{right} = {left}')}", text, at)


def _function(text: str, definitions, operand):
    """f parsed; written with d/dx applied (d/dx (x^2)), the error says to give it alone."""
    from ..errors import ExpressionError
    from ..parser import parse

    try:
        return parse(text, definitions)
    except ExpressionError as error:
        f = operand(text)
        if not f or "is not read as a derivative" not in error.message:
            raise
        raise ValuesError(f"check's EXPRESSION is the function itself: give {f.strip()} "
                          f"alone, the derivative as EXPECTED, or the whole equation as one "
                          f"argument ({text.strip()} = ...)") from None


def _domains(options, err) -> dict:
    """--domain's spans by name as the expression reads it (x_{1} is x_1, \\alpha is α),
    as --at's are; a bound beyond float64's range is warned of as --at's is (1e-400 read
    as 0, 1e400 as inf), before the span it makes is judged."""
    from ..parser import is_name, normal_name
    from ..points import constant_value, split_top_level

    spans = {}
    for text in options:
        name, equals, span = text.partition("=")
        name, parts = name.strip(), split_top_level(span, ":")
        if not equals or not is_name(name) or len(parts) != 2:
            raise ValuesError(f"--domain {_quoted(text)} is not of the form NAME=LO:HI")
        name = normal_name(name)
        if name in spans:   # (x_{1} and x_1 are one name: one span would go unseen)
            raise ValuesError(f"--domain {_quoted(text)}: {name} is given more than once")
        said: list[str] = []
        lo, hi = (constant_value(p, f"--domain {name}", said) for p in parts)
        for message in said:
            warn(err, message)
        if not (np.isfinite(lo) and np.isfinite(hi) and lo <= hi):
            raise ValuesError(f"--domain {_quoted(text)}: LO and HI must be finite with LO <= HI")
        spans[name] = (lo, hi)
    return spans


def _refuse_constant(f, source) -> None:
    """A constant f compared (--order 0) over rows (--points, --grid): adcli.check takes
    points by f's variables, and it has none, so the rows could only be dropped. (Its
    derivative adcli.check refuses itself: none to check.)"""
    option = "--points" if source.stream is not None else "--grid"
    rows = "row of the points file" if source.stream is not None else "point of --grid"
    raise ValuesError(f"{quote(f.text)} has no variables: check compares a constant once, "
                      f"not at each {rows} (leave out {option})")


def _points(f, at, grid, points_file, skip_bad_rows, strict, err, points_format=None,
            columns=None, identity=False):
    """The values the user gave: whole points (--grid, --points, or --at for every
    variable), or fixed values with the rest sampled by adcli.check; the columns of
    a points file that are not variables, passed through as read (ids: rows stay
    identifiable), by name; and the points' source where there is a points file (its
    columns named as a constant an expectation uses are refused once check has read it).
    ``identity``: --order 0 (a constant f over rows is then refused here)."""
    from ..pipeline import refuse_constant_columns, warn_skipped
    from ..points import PointSource, only_with_points, parse_values

    only_with_points(points_file, points_format, columns, skip_bad_rows)
    fixed, axes, said = parse_values(at, grid)
    for message in said:
        warn(err, message)
    source = PointSource(fixed=fixed, grid=axes, stream=points_file,
                         skip_bad_rows=skip_bad_rows, stream_format=points_format,
                         columns=None if columns is None else columns.split(","))
    source.check()
    refuse_constant_columns([f], source)    # (as grad: e*x over a column e)
    names = source.names()
    if not source.grid and source.stream is None:
        return _known(f, dict(source.fixed), "--at", strict, err), {}, None
    if not f.variables:
        if identity:
            _refuse_constant(f, source)
        return {}, {}, None
    missing = [v for v in f.variables if v not in names]
    if missing:     # (grad's hints: omega given for ω, a typo, xy run together)
        from ..pipeline import value_hints

        hints = value_hints(missing, [n for n in names if n not in f.variables])
        raise no_value_for(missing, [*hints, "or leave out --grid and --points for random "
                                              "points"])
    source.use(f.variables)
    names = [*source.fixed, *source.grid, *source.variables]
    try:
        chunks = list(source.chunks())
    finally:    # what the file held that was not read as written, as other commands say
        warn_skipped(source, err)
    columns = {n: np.concatenate([c.values[n] for c in chunks]) if chunks else np.zeros(0)
               for n in names}
    if not chunks or not len(next(iter(columns.values()), [])):
        raise ValuesError("no points to check: the points file has no rows")
    extra = {n: [v for c in chunks for v in c.extra[n]] for n in source.extra_names}
    for name in source.fixed:   # (one value given, --at n=3 beside --grid: a parameter, as
        columns[name] = columns[name][:1]   # check reads one value, not a column of them)
    return _known(f, columns, "--at/--grid/--points", strict, err), extra, \
        (source if source.stream is not None else None)


def _warnings(result, err) -> None:
    from ..report import Report

    report = Report()
    diagnostics, passed = _kinks_split(result)
    report.add(diagnostics, len(result.value))
    for message in [*result.cautions, *report.messages(), *passed]:
        warn(err, message)


def _kinks_split(result):
    """The diagnostics without the kinks f is differentiable at (x|x| at 0: abs's
    convention decided nothing there, so "its derivative there is a convention" would be
    false of f), and those kinks in words, per function."""
    from ..checking import differentiable_at_kinks, judged_by_sides
    from ..diagnostics import Diagnostics
    from ..report import merged, reason

    n, smooth = len(result.value), differentiable_at_kinks(result)
    by_sides = judged_by_sides(result)
    kept, passed = {}, []
    for (name, what), mask in merged(result.diagnostics).items():
        mask = np.broadcast_to(np.ravel(mask), (n,))
        # (where AD's convention decided nothing, and where the expectation was judged
        # against the sides instead of it: each said as such)
        for where in (mask & smooth & ~by_sides, mask & smooth & by_sides):
            if what == "kink" and where.any():
                count = int(np.count_nonzero(where))
                passed.append(f"{_label(name)} is not differentiable at {count} of {n} "
                              f"point{'s' * (n != 1)} ({reason(name, what)}), "
                              f"{_differentiable_words(result, where)}")
        if what == "kink":
            mask = mask & ~smooth
        if mask.any():
            kept[(name, what)] = mask
    return Diagnostics((n,), kept), passed


def _label(name: str) -> str:
    from ..functions import PRIMITIVES

    return PRIMITIVES[name].label()


def _differentiable_words(result, where) -> str:
    """"but f is differentiable there: its left and right derivatives agree (0)"; for a
    partial or higher derivative, that it exists (f may have ∂/∂x and not ∂/∂y)."""
    from ..checking import derivative_at_kinks, judged_by_sides

    targets = result.targets
    if len(result.expression.variables) == 1 and result.order == 1:
        head = "but f is differentiable there"
    else:
        labels = listing([t.label for t in targets])
        head = f"but f's {labels} exist{'s' * (len(targets) == 1)} there"
    values = {float(f"{v:.6g}") + 0.0 for t in targets
              for v in derivative_at_kinks(t)[where]}
    value = f" ({next(iter(values)):.6g})" if len(values) == 1 else ""
    whose = "their" if len(targets) > 1 else "its"
    said = f"{head}: {whose} left and right derivatives agree{value}"
    if not judged_by_sides(result)[where].any():
        return said
    conventions = {float(f"{v:.6g}") + 0.0 for t in targets for v in t.ad[where & t.by_sides]}
    convention = f", {next(iter(conventions)):.6g}" if len(conventions) == 1 else ""
    judged = [t.label for t in targets if t.by_sides[where].any()]
    whom = "the expectation was" if len(targets) == 1 else \
        f"the expected {listing(judged)} {'was' if len(judged) == 1 else 'were'}"
    return (f"{said}, and {whom} judged against {'that' if value else 'them'}, "
            f"not against adcli's derivative{convention} (a convention)")


# ----- laying out the result -------------------------------------------------------------

def _text(value, digits) -> str:
    from ..render import number_text

    return "" if value is None else number_text(value, digits)


def _num(value, digits):
    from ..render import number_json

    return None if value is None else number_json(value, digits)


def _headline(result) -> list[str]:
    lines = [f"read as: {result.expression.parsed}"]
    for t in result.targets:
        if t.expectation is not None:
            lines.append(f"expected {t.label}: {t.expectation.parsed}")
    return lines


KINKS_SHOWN = 20  # rows of the table of points where the derivative does not exist


def _where(result) -> str:
    n = len(result.value)
    if result.sampled:
        return f"{n} random point{'s' * (n != 1)} (seed {result.seed})"
    return f"{n} point{'s' * (n != 1)}"


def _checked(result) -> str:
    """What the worst rows are the worst of: the points, or, with several derivatives, each
    derivative at each point (a row is one derivative at one point)."""
    if len(result.targets) > 1:
        return f"{listing([t.label for t in result.targets])} at {_where(result)}"
    return _where(result)


def _names(rows) -> list[str]:
    """A row's point by its number among those checked (two rows may share one: a point's
    ∂/∂x and ∂/∂y), for a table laid out a column per row."""
    return [f"point {row.index + 1}" for row in rows]


def _columns(result, rows, headers, fields, digits, extra):
    """The identifying columns (a points file's passed through, the point's coordinates,
    never rounded: they name it; which derivative) and the value columns, laid out by
    adcli.tables so that no digit is cut on a narrow terminal."""
    from ..render import extra_text
    from ..tables import Column

    keys = [Column(name, [extra_text(values[row.index]) for row in rows], "left")
            for name, values in extra.items()]
    keys += [Column(name, [_text(row.at[name], None) for row in rows])
             for name in result.points]
    if len(result.targets) > 1:
        keys.append(Column("derivative", [row.label for row in rows]))
    values = [Column(header, [_cell(row, field, digits) for row in rows])
              for header, field in zip(headers, fields)]
    return keys, values


UNSETTLED = " (did not settle)"


def _cell(row, field: str, digits) -> str:
    """A value of a row, finite differences that did not settle marked so: beside AD's
    0.1, a bare -93.3 would read as a third opinion, where it witnesses nothing."""
    text = _text(getattr(row, field), digits)
    return text + UNSETTLED if field == "fd" and row.unsettled else text


def _worst_columns(result, digits, extra):
    if result.order == 0:  # an identity: f's value against the expected, no differences
        headers, fields = ["expected", "f"], ["expected", "ad"]
    elif result.expected_mode:
        headers = ["expected", "AD", "finite differences"]
        fields = ["expected", "ad", "fd"]
    else:
        headers, fields = ["AD", "finite differences"], ["ad", "fd"]
    keys, values = _columns(result, result.worst, headers, fields, digits, extra)
    from ..tables import Column

    values.append(Column("relative difference",
                         [f"{row.difference:.2g}" + (" of its terms" if row.flat else "")
                          for row in result.worst]))
    return keys, values


def _kink_columns(result, digits, extra):
    headers = [*(["expected"] if result.expected_mode else []), "AD", "left derivative",
               "right derivative"]
    fields = [*(["expected"] if result.expected_mode else []), "ad", "left", "right"]
    return _columns(result, result.kinks[:KINKS_SHOWN], headers, fields, digits, extra)


def _render_table(result, out, digits, extra, header=True) -> None:
    from ..tables import console as make_console, print_heading, print_points

    console = make_console(out)
    print_heading(console, [*_headline(result), result.summary])
    if result.worst:
        shown = len(result.worst)
        print_heading(console, [f"the {shown} worst of {_checked(result)}" if shown > 1
                                else f"the worst of {_checked(result)}"])
        print_points(console, *_worst_columns(result, digits, extra),
                     names=_names(result.worst))
    if result.kinks:
        print_heading(console, ["where the derivative does not exist"])
        print_points(console, *_kink_columns(result, digits, extra),
                     names=_names(result.kinks[:KINKS_SHOWN]))
    # (prose: folded, never cut to its head and tail as a long reading is)
    print_heading(console, [*(f"diagnosis: {line}" for line in result.diagnosis),
                            *(f"note: {line}" for line in result.notes)], whole=True)


def _render_plain(result, out, digits, extra, header=True) -> None:
    lines = [result.summary, *(f"diagnosis: {d}" for d in result.diagnosis),
             *(f"note: {n}" for n in result.notes)]
    out.write("\n".join(lines) + "\n")


# (finite_difference_error, as json's: whether the differences settled, -93 +- 2.7e4 not,
# is the reader's to see beside the number, which stays a number)
_CSV_COLUMNS = ("derivative", "expected", "ad", "finite_difference", "finite_difference_error",
                "relative_difference", "status")


def _free(column: str, taken) -> str:
    """A result column's name, with "_" after it while a variable has it (a variable
    named expected): a header names each column once, as grad's f_ does."""
    while column in taken:
        column += "_"
    return column


def _render_csv(result, out, digits, extra, header=True) -> None:
    from ..render import CsvWriter

    _render_rows(CsvWriter, result, out, digits, extra, header)


def _render_tsv(result, out, digits, extra, header=True) -> None:
    from ..render import TsvWriter

    _render_rows(TsvWriter, result, out, digits, extra, header)


def _render_rows(writer, result, out, digits, extra, header) -> None:
    """A row per point and derivative: a points file's other columns as read, the
    coordinates whole, then the results (rounded to --digits); each field and line quoted
    or escaped as grad's CSV or TSV (``writer``) has them (a lone CR, a '#' or '{' first:
    every row reads back as written)."""
    from ..render import check_writable, extra_text, narrow

    def row(fields) -> None:
        out.write(writer.guarded(writer.separator.join(map(writer.field, fields))) + "\n")

    names = list(result.points)
    encoding = narrow(out)
    if encoding is not None:    # (as grad's: a name or cell the encoding cannot hold)
        check_writable([*extra, *names], encoding, "a column name")
        for column, values in extra.items():
            check_writable(list(map(extra_text, values)), encoding,
                           f"a value of column {quote(column)}")
    if header:
        taken = [*extra, *names]
        row([*taken, *(_free(c, taken) for c in _CSV_COLUMNS)])
    labels = [_ascii_label(t, result.order) for t in result.targets]
    for i in range(len(result.value)):
        point = [*(extra_text(values[i]) for values in extra.values()),
                 *(_text(result.points[n][i], None) for n in names)]
        for t, label in zip(result.targets, labels):
            expected = None if t.expected is None else t.expected[i]
            row([*point, label, *(_text(v, digits) for v in (expected, t.ad[i], t.fd[i],
                                                              t.fd_error[i], t.difference[i])),
                 t.status[i]])


def _ascii_label(t, order: int) -> str:
    """A derivative named in ASCII, as grad's and hessian's headers name theirs without
    their f (d/dx, d2/dx^2 as grad --order 2's d2f/dx^2, d2/dx dy as hessian's d2f/dx dy),
    one scheme whatever the number of variables: machine formats are read by programs,
    which ∂ and ² would not match with d/dx."""
    if order == 0 or t.name is None:
        return "f"
    if t.names:
        return f"d{len(t.names)}/" + " ".join(f"d{n}" for n in t.names)
    return f"d/d{t.name}" if order == 1 else f"d{order}/d{t.name}^{order}"


def _passed_json(extra, i: int) -> dict:
    """Point i's passed-through columns, as grad's "extra" (none: no key)."""
    from ..render import finite_json

    return {"extra": {n: finite_json(values[i]) for n, values in extra.items()}} \
        if extra else {}


def _row_json(row, digits, result, fields, extra) -> dict:
    entry = {"at": {n: _num(v, None) for n, v in row.at.items()},
             **_passed_json(extra, row.index), "derivative": row.derivative}
    for key, field in fields:
        entry[key] = _num(getattr(row, field), digits)
    return entry


def _point_json(result, i: int, digits, extra) -> dict:
    derivatives = {}
    for t in result.targets:
        kink = t.status[i] == "no derivative" or bool(t.by_sides[i])   # (its sides judged)
        derivatives[t.derivative] = {
            "expected": None if t.expected is None else _num(t.expected[i], digits),
            "ad": _num(t.ad[i], digits),
            "finite_difference": _num(t.fd[i], digits),
            "finite_difference_error": _num(t.fd_error[i], digits),
            "relative_difference": _num(t.difference[i], digits),
            "status": t.status[i],
            "left": _num(t.left[i], digits) if kink else None,
            "right": _num(t.right[i], digits) if kink else None,
        }
    return {"at": {n: _num(p[i], None) for n, p in result.points.items()},
            **_passed_json(extra, i),
            "value": _num(result.value[i], digits), "status": result.status[i],
            "derivatives": derivatives}


def _render_jsonl(result, out, digits, extra, header=True) -> None:
    """A line per point, each an element of json's "points", with its own "warnings" (as
    json's, without "at") last, as other commands' jsonl; the verdict, diagnosis and
    notes go to stderr, as csv's."""
    from ..checking import differentiable_at_kinks
    from ..report import point_warnings

    smooth, warned = differentiable_at_kinks(result), {}
    for i, function, kind, why in point_warnings(result.diagnostics):
        warned.setdefault(i, []).append({"function": function, "kind": kind,
                                         "why": _point_why(result, smooth, i, kind, why)})
    for i in range(len(result.value)):
        point = _point_json(result, i, digits, extra)
        if i in warned:
            point["warnings"] = warned[i]
        _dump(point, out)


def _dump(value, out) -> None:
    """One JSON text and its line break (non-ASCII kept where the output takes it)."""
    from .. import jsontext   # (writes a --digits number as CSV does: 4.67e+10)

    utf = "utf" in (getattr(out, "encoding", None) or "utf-8").lower()
    out.write(jsontext.dumps(value, ensure_ascii=not utf, allow_nan=False) + "\n")


_CONVENTION = ": its derivative there is a convention, not a fact"   # report._WHY's kink


def _point_why(result, smooth, i: int, kind: str, why: str) -> str:
    """A point's warning in JSON, as stderr says it: at a kink f is differentiable at
    (``smooth``), that it is (not that the derivative there is a convention)."""
    if kind != "kink" or not why.endswith(_CONVENTION) or not smooth[i]:
        return why
    one = np.zeros(len(result.value), bool)
    one[i] = True
    return f"{why[:-len(_CONVENTION)]}, {_differentiable_words(result, one)}"


def _render_json(result, out, digits, extra, header=True) -> None:
    from ..checking import differentiable_at_kinks
    from ..report import point_warnings

    f = result.expression
    document = {
        "expression": f.text, "parsed": f.parsed, "variables": list(f.variables),
        "order": result.order,
        "checks": [{"derivative": t.derivative, "label": t.label,
                    "expected": None if t.expectation is None else
                    {"expression": t.expectation.text if t.written is None else t.written,
                     "parsed": t.expectation.parsed}}
                   for t in result.targets],
        "verdict": result.verdict, "summary": result.summary,
        "counted": result.counted, "differing": result.differing,
        "no_derivative": result.no_derivative, "skipped": result.skipped,
        "largest_relative_difference": _num(result.largest_difference, digits),
        "rtol": result.rtol, "atol": result.atol,
        "points_from": "random" if result.sampled else "given", "seed": result.seed,
        "diagnosis": result.diagnosis, "notes": result.notes, "cautions": result.cautions,
        "worst": [_row_json(r, digits, result, [("expected", "expected"), ("ad", "ad"),
                                                ("finite_difference", "fd"),
                                                ("relative_difference", "difference")],
                            extra)
                  for r in result.worst],
        "kinks": [_row_json(r, digits, result, [("expected", "expected"), ("ad", "ad"),
                                                ("left", "left"), ("right", "right")],
                            extra)
                  for r in result.kinks],
        "points": [_point_json(result, i, digits, extra) for i in range(len(result.value))],
    }
    at, smooth = document["points"], differentiable_at_kinks(result)
    found = [{"at": at[i]["at"], **_passed_json(extra, i), "function": function,
              "kind": kind, "why": _point_why(result, smooth, i, kind, why)}
             for i, function, kind, why in point_warnings(result.diagnostics)]
    if found:
        document["warnings"] = found
    _dump(document, out)


_FORMATS = {"table": _render_table, "json": _render_json, "jsonl": _render_jsonl,
            "csv": _render_csv, "tsv": _render_tsv, "plain": _render_plain}
_ROWS_ONLY = ("csv", "tsv", "jsonl")    # stdout holds the rows alone
