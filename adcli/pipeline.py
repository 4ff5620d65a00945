"""One command from start to finish: parse, gather points, compute chunk by chunk, render,
and report warnings on stderr. The CLI calls ``run``; everything here raises AdcliError."""
from __future__ import annotations

import contextlib
import gc
import sys
import warnings

import numpy as np

from .errors import NonFiniteError, ValuesError, closest, did_you_mean, listing
from .parser import is_name, parse
from .points import PointSource, chunk_size_for, parse_at, parse_grid
from .render import Rows
from .report import Report, point_warnings


def run(command_class, texts, wrt=None, **options) -> None:
    # nan/inf are results here, reported by adcli's own warnings: numpy's must not leak.
    with np.errstate(all="ignore"), warnings.catch_warnings(), _no_cycle_collection():
        warnings.simplefilter("ignore", RuntimeWarning)
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


def _run(command_class, texts, wrt, *, at=(), grid=(), points_file=None,
         skip_bad_rows=False, fmt="table", digits=None, strict=False, out=None, err=None,
         **options) -> None:
    out, err = out or sys.stdout, err or sys.stderr
    command_class = command_class.select(**options)
    expressions = [parse(text) for text in texts]
    command = command_class(expressions, [], **options)
    command.wrt = _wrt(command, wrt, strict, err)
    source = PointSource(fixed=parse_at(at), grid=parse_grid(grid, command.grid_count),
                         stream=points_file, skip_bad_rows=skip_bad_rows,
                         chunk_size=chunk_size_for(command.graph_size()))
    if not (command.values_optional and not source.names()):
        _check_names(command, source, strict, err)
    if command.own_output:
        try:
            command.write(source, out, err, fmt, digits, strict)
        finally:
            _warn_skipped(source, err)
        return
    command.check_source(source)
    output, report = command.writer(fmt, out, err, digits), Report()
    try:
        for chunk in source.chunks():
            n = len(next(iter(chunk.values()))) if chunk else 1
            columns, diagnostics = command.compute(chunk, n)
            if report.add(diagnostics, n, columns) and strict:
                messages = report.messages(kinks=False) or ["a result is nan or inf"]
                raise NonFiniteError("; ".join(messages) + " (--strict)")
            output.write(Rows({name: chunk[name] for name in command.names}, columns, n,
                              point_warnings(diagnostics)))
        output.close()
    except NonFiniteError:
        raise  # its message already names what went non-finite
    else:
        for message in report.messages():
            _warn(err, message)
    finally:
        _warn_skipped(source, err)


def _warn_skipped(source: PointSource, err) -> None:
    if source.skipped:
        _warn(err, f"skipped {len(source.skipped)} bad row(s) of the points file; "
                   f"first: {source.skipped[0]}")


def _warn(err, message: str) -> None:
    err.write(f"adcli: warning: {message}\n")


def _wrt(command, wrt: str | None, strict: bool, err) -> list[str]:
    if not command.differentiates:
        return []
    names = command.names if wrt is None else [w.strip() for w in wrt.split(",")]
    if not all(map(is_name, names)) or len(set(names)) != len(names):
        raise ValuesError(f"--wrt {wrt!r}: give distinct variable names separated by commas")
    for name in names:
        if name not in command.names:
            _unused(strict, err, f"--wrt {name}: '{name}' does not appear in the expression, "
                                 f"so its derivative is 0{did_you_mean(name, command.names)}")
    command.check_wrt(names)
    return names


def _check_names(command, source: PointSource, strict: bool, err) -> None:
    source.check()
    given = source.names()
    missing = [n for n in command.names if n not in given]
    if missing:
        typos = [f"'{n}' was given: did you mean '{match}'?"
                 for n in given if n not in command.names and (match := closest(n, missing))]
        raise ValuesError(f"no value given for {listing(missing)}: add --at "
                          + ",".join(f"{n}=..." for n in missing)
                          + "".join(f" ({typo})" for typo in typos))
    for name in given:
        if name not in command.names:
            _unused(strict, err, f"a value was given for '{name}', which does not appear in "
                                 f"the expression{did_you_mean(name, command.names)}")


def _unused(strict: bool, err, message: str) -> None:
    """A name the expression does not use: likely a typo, so an error under --strict."""
    if strict:
        raise ValuesError(message)
    _warn(err, message)
