"""One command from start to finish: parse, gather points, compute chunk by chunk, render,
and report warnings on stderr. The CLI calls ``run``; everything here raises AdcliError."""
from __future__ import annotations

import contextlib
import gc
import re
import sys
import warnings

import numpy as np

from .errors import (AdcliError, AdcliWarning, ExpressionError, NonFiniteError, ValuesError,
                     closest, did_you_mean, escape, no_header, no_value_for, warn)
from .definitions import from_pairs, unused
from .diagnostics import Diagnostics, mark_inputs
from .expression import (constant_named, letter_words, missing_note, name_hint,
                         not_differentiated)
from .functions import CONSTANTS
from .parser import define, is_name, normal_name, parse
from .points import PointSource, chunk_size_for, only_with_points, parse_values
from .progress import Progress
from .reader import one_name
from .render import FORMATS, Rows, number_text
from .report import Report, warned


def run(command_class, texts, wrt=None, **options) -> None:
    # nan/inf are results here, reported by adcli's own warnings: numpy's must not leak.
    # The API's AdcliWarnings neither: the CLI checks names itself and says so on stderr
    # (and jacobian passes each expression every name of --wrt, used or not).
    with np.errstate(all="ignore"), warnings.catch_warnings(), _no_cycle_collection():
        warnings.simplefilter("ignore", RuntimeWarning)
        warnings.simplefilter("ignore", AdcliWarning)
        _run(command_class, texts, wrt, **options)


@contextlib.contextmanager
def _no_cycle_collection():
    """Graphs hold no reference cycles (a Function sees its output through a weak
    reference), so reference counting frees them; the cycle collector would only rescan
    hundreds of thousands of live nodes, over and over, on big expressions (~25%)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _run(command_class, texts, wrt, *, at=(), grid=(), points_file=None, points_format=None,
         columns=None, skip_bad_rows=False, fmt="table", digits=None, no_header=False,
         strict=False, out=None, err=None, width=None, let=(), **options) -> None:
    out, err = out or sys.stdout, err or sys.stderr
    if no_header and not getattr(FORMATS.get(fmt), "has_header", False):
        raise ValuesError(f"--no-header is for --format csv or tsv, not {fmt}")
    # (for check_wrt, which gets the expression's names when --wrt is not given: its
    # advice differs for --wrt x,y and for an expression in x and y)
    options.setdefault("wrt_given", wrt is not None)
    command_class = command_class.select(**options)
    definitions = define(from_pairs(let)) if let else None
    expressions = [_parsed(text, definitions, i, len(texts)) for i, text in enumerate(texts, 1)]
    command = command_class(expressions, [], **options)
    # (once each: a --let definition two expressions use has its cautions in both)
    command.cautions = list(dict.fromkeys(c for e in expressions for c in e.cautions))
    for message in unused(definitions):
        warn(err, message)
    if definitions is not None and wrt is not None:
        _not_differentiated(definitions, [w.strip() for w in wrt.split(",")], expressions)
    command.wrt = _wrt(command, wrt, strict, err)
    source = _source(command, at, grid, points_file, points_format, columns, skip_bad_rows,
                     err)
    if definitions is not None:
        _not_defined(definitions, source.names(), source)
    command.check_source(source)    # (before the names': plot's grid axis is one of them)
    if not (command.values_optional and not source.names()):
        _check_names(command, source, strict, err)
    # (after the names' check: its error says what a caution would, 'sinx' is one name;
    # and a name given a value, --at cost=3, is meant as one)
    given = {*source.names(), *command.wrt}
    command.cautions = [c for c in command.cautions
                        if not any(c.startswith(one_name(name)) for name in given)]
    for caution in command.cautions:
        warn(err, caution)
    source.use(command.names, named=command.wrt)
    if command.own_output:
        try:
            command.write(source, out, err, fmt, digits, strict)
        finally:
            warn_skipped(source, err)
        return
    # (a --let name too: f1 = sin(x) must not head the column of the expression f1 + f2)
    command.name_outputs([*command.names, *source.extra_names,
                          *(definitions.linked if definitions is not None else ())])
    output = command.writer(fmt, out, err, digits, header=not no_header, width=width)
    report = Report()
    output.pass_through(source.extra_names)
    progress = Progress(err, source.total, allowed=not (output.streams and _is_tty(out)))
    try:
        with progress:
            for chunk in source.chunks():
                _compute(command, chunk, output, report, strict, source)
                progress.advance(chunk.n)
    except AdcliError:
        # What was done before the stop is results: written whole, and their warnings
        # said (nan, inf and kinks always are) before the error that stopped the run.
        if output.written:
            output.close()
        _warn_results(source, output, report, err)
        raise
    except BaseException:
        warn_skipped(source, err)
        raise
    output.close()
    _warn_results(source, output, report, err)


def _warn_results(source: PointSource, output, report: Report, err) -> None:
    """What stderr says of a run's points, stopped or not: what the points file held
    that was not read as written, then the output's notes and the results' diagnostics."""
    warn_skipped(source, err)
    for message in [*output.notes(), *report.messages()]:
        warn(err, message)


def _parsed(text: str, definitions, i: int, count: int):
    """Expression i of ``count`` parsed; an error in one of several names it, f1, f2, ...
    (as jacobian's columns do)."""
    try:
        return parse(text, definitions)
    except ExpressionError as error:
        if count == 1:
            raise
        raise ExpressionError(f"f{i}: {error.message}", error.text, error.position) from None


def _source(command, at, grid, points_file, points_format, columns, skip_bad_rows, err):
    only_with_points(points_file, points_format, columns, skip_bad_rows)
    names = None if columns is None else columns.split(",")
    # diff() builds bigger graphs than the node list says: smaller chunks keep memory near
    # chunk_size_for's aim.
    growth = max([e.diff_growth for e in command.expressions], default=1.0)
    fixed, axes, said = parse_values(at, grid, command.grid_count)
    for message in said:
        warn(err, message)
    return PointSource(fixed=fixed, grid=axes,
                       stream=points_file,
                       skip_bad_rows=skip_bad_rows, stream_format=points_format,
                       columns=names, chunk_size=chunk_size_for(command.graph_size() * growth))


def _not_differentiated(definitions, names, expressions) -> None:
    """--wrt names variables, never a definition (--let): one is differentiated by the
    variables it is made of."""
    for name in [n for n in names if n in definitions.names]:
        raise ValuesError(not_differentiated(name, expressions))


def _not_defined(definitions, names, source) -> None:
    """A name is a definition (--let) or a variable, never both; a points file's column
    so named is said as such (its values would otherwise be given to no one)."""
    for name in [n for n in names if n in definitions.names]:
        held = source.holding(name)
        if held is not None:
            raise ValuesError(f"{held}, and '{name}' is defined by --let, so it is not a "
                              "variable: rename it (it then passes through), or "
                              "the definition")
        option = "--at" if name in source.fixed else "--grid"   # named as given
        raise ValuesError(f"{source.given_as(name)[0]}: '{name}' is defined by --let, so "
                          "it is not a variable and cannot be given a value: leave it "
                          f"out of {option}, or rename the definition")


def _compute(command, chunk, output, report: Report, strict: bool, source) -> None:
    columns, diagnostics = command.compute(chunk.values, chunk.n)
    values = {name: chunk.values[name] for name in command.names}
    not_finite = ~np.logical_and.reduce([np.isfinite(c) for c in columns]) if columns \
        else np.zeros(chunk.n, bool)
    found = bool(not_finite.any())
    if found:
        mark_inputs(diagnostics, values, not_finite)
    rows = Rows(values, columns, chunk.n, chunk.extra, warned(diagnostics))
    first = int(np.argmax(not_finite)) if strict and found else None
    if first is None:
        report.add(diagnostics, chunk.n, found)
        output.write(rows)
        return
    # --strict writes the points before the first and stops: stderr's counts are of
    # those points, as the output's are (not of the chunk's points after the stop).
    read = report.points + chunk.n
    report.add(_head(diagnostics, first), first)   # (all finite before the first)
    output.write(rows.head(first))
    where = _where(source, read, chunk.n - first, command.names, rows.at, first)
    raise NonFiniteError(report.stopped(diagnostics, first, where))


def _head(diagnostics: Diagnostics, k: int) -> Diagnostics:
    """The diagnostics of the first k points (masks and first points alike; as
    Diagnostics keeps them, no mask that marks none of them)."""
    masks = {key: np.ravel(mask)[:k] for key, mask in diagnostics.masks.items()}
    return Diagnostics((k,), {key: mask for key, mask in masks.items() if mask.any()},
                       {n: f for n, f in diagnostics.unsure.items() if f.index < k},
                       {n: f for n, f in diagnostics.wider.items() if f.index < k},
                       {key: {f: np.ravel(v)[:k] for f, v in fields.items()}
                        for key, fields in diagnostics.numbers.items()},
                       {n: f for n, f in diagnostics.rounded.items() if f.index < k})


def _where(source: PointSource, read: int, left: int, names, at: dict, i: int) -> str:
    """Point i of a chunk, ``left`` points before the end of the ``read`` so far: its line
    in the points file (else its count there) and its coordinates, or its coordinates."""
    point = ", ".join(f"{n}={number_text(at[n][i])}" for n in names)
    if source.stream is None:
        return point or "the point"
    line = source.line_of(read)
    place = f"point {read - left + 1} of the points file" if line is None else \
        f"points file line {line - left + 1}"
    return f"{place} ({point})" if point else place


def _is_tty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def warn_skipped(source: PointSource, err) -> None:
    """What the points file held that was not read as written."""
    if source.beyond:
        warn(err, source.beyond)
    if source.left_out:
        warn(err, source.left_out)
    if source.skipped:
        count = len(source.skipped)
        warn(err, f"skipped {count} bad row{'s' * (count != 1)} of the points file; "
                   f"first: {source.skipped[0]}")
    if source.commented:
        count = len(source.commented)
        warn(err, f"points file line {source.commented[0]}"
                  f"{f' (and {count - 1} more)' if count > 1 else ''} starts with '#', so it "
                  "was skipped as a comment, though it reads as a row: to read such a row, "
                  "quote its first field in CSV (\"#1\",...), as adcli's CSV output does")


def _wrt(command, wrt: str | None, strict: bool, err) -> list[str]:
    if not command.differentiates:
        return []
    if wrt is None:  # (the expression's own names: the parser made them, never "--wrt")
        command.check_wrt(list(command.names))
        return list(command.names)
    names = [w.strip() for w in wrt.split(",")]
    for name in names:
        if not is_name(name):
            raise ValuesError(f"--wrt {wrt!r}: {_not_a_name(name)}")
    normal = list(map(normal_name, names))
    twice = [name for i, name in enumerate(normal) if name in normal[:i]]
    if twice:   # (named: in a long list the repeat is not easy to see)
        raise ValuesError(f"--wrt {wrt!r}: '{twice[0]}' is given twice; give each variable "
                          "once")
    names = [normal_name(name) for name in names]
    for name in names:
        if name in CONSTANTS:
            raise ValuesError(f"--wrt {name}: {name} is a constant, not a variable")
        if name not in command.names:
            _unused(strict, err, f"--wrt {name}: '{name}' does not appear in the expression, "
                                 "so its derivative is 0", name_hint(name, command.names))
    command.check_wrt(names)
    return names


def _not_a_name(text: str) -> str:
    """Why an item of --wrt is no variable's name, as --wrt x,pi says pi is a constant."""
    from .reader import is_function_name

    if not text:
        return "a name is empty (a comma too many?)"
    if constant_named(text) is not None:    # (π, as pi: --wrt pi says so before this)
        return f"{escape(text)} is a constant, not a variable"
    if is_function_name(text):
        return f"'{escape(text)}' is a function, not a variable"
    parts = re.split(r"[\s.;:/|]+", text)
    if len(parts) > 1 and all(map(is_name, parts)):     # x.y, x y, x;y: a typed separator
        return (f"'{escape(text)}' is not a name: separate names with commas, "
                f"--wrt {','.join(parts)}")
    if text[0].isdigit():
        return f"'{escape(text)}' is not a name: a name starts with a letter"
    return f"'{escape(text)}' is not a name (a letter, then letters, digits or '_')"


def _check_names(command, source: PointSource, strict: bool, err) -> None:
    source.check()
    refuse_constant_columns(command.expressions, source)
    given = source.names()
    missing = [n for n in command.names if n not in given]
    if missing:
        unwritable = source.unwritable(missing)
        if unwritable:  # (a column df/dx the expression's df/dx was meant to name)
            raise no_value_for(missing, unwritable, notation=False)
        hints = list(dict.fromkeys(value_hints(missing, given)))  # (x1 and x₁: one hint)
        if source.stream is not None and not hints:
            columns = source.written_header()
            headerless = no_header(missing, columns, source.commented_header)
            if headerless is not None:
                raise headerless
            hints.append("the points file has columns "
                         + ", ".join(f"'{escape(c)}'" for c in columns) + _separator_hint(columns))
        raise no_value_for(missing, hints, texts=[e.text for e in command.expressions],
                           given=given)
    for name in [*source.fixed, *source.grid]:   # a points file's other columns pass through
        if name not in command.names:
            _unused(strict, err, f"a value was given for '{name}', which does not appear in "
                                 "the expression", did_you_mean(name, command.names))


def refuse_constant_columns(expressions, source: PointSource) -> None:
    """A column named as a constant an expression uses (e, pi) is an error: the constant
    would be used and the column passed through, in silence, whichever was meant."""
    named = source.constant_columns()
    if not named:       # (nearly always: the nodes of a big expression are not looked at)
        return
    used = {node.name for e in expressions for node in e.nodes if node.kind == "constant"}
    for column, constant in named.items():
        if constant in used:
            raise source.constant_clash(column)


def _separator_hint(columns: list[str]) -> str:
    """'x;y' read as one column: a spreadsheet's CSV in a locale that writes decimal
    commas separates its fields with semicolons, which no points format does."""
    if any(";" in c for c in columns):
        return ("; its fields look separated by ';': adcli reads commas, tabs or spaces "
                "between fields, and a decimal point, not a comma")
    return ""


def value_hints(missing: list[str], given: list[str]) -> list[str]:
    """Why a name may lack a value: two names run together (2ex is 2 times a variable
    "ex", not 2*e*x), or a given name that is a typo (or a different case) of it."""
    hints, explained = [], set()
    for name in missing:
        if name in ("inf", "nan"):      # values, not constants of the language
            hints.append(f"{name} is a value, not a constant of the language: give it to a "
                         f"variable (--at x={name})"
                         + (", or write 1e999 in the expression" if name == "inf" else ""))
            continue
        hint = missing_note(name, given)
        if hint:
            hints.append(hint)
            explained.update(g for g in given if g in name)
    for name in given:
        if name in explained:
            continue
        if letters := letter_words(name, missing):     # alpha for α, α for alpha
            hints.append(letters)
        elif match := closest(name, missing):
            hints.append(f"'{escape(name)}' was given: did you mean '{match}'?")
    return hints


def _unused(strict: bool, err, message: str, hint: str = "") -> None:
    """A name the expression does not use: likely a typo, so an error under --strict,
    which it names (the warning's words alone read as if the run went on)."""
    if strict:
        raise ValuesError(f"{message}: refused under --strict{hint}")
    warn(err, message + hint)
