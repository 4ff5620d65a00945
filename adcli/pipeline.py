"""One command from start to finish: parse, gather points, compute chunk by chunk, render,
and report warnings on stderr. The CLI calls ``run``; everything here raises AdcliError."""
from __future__ import annotations

import contextlib
import gc
import sys
import warnings

import numpy as np

from .errors import NonFiniteError, ValuesError, closest, did_you_mean, listing
from .parser import parse
from .points import PointSource, chunk_size_for, is_name, parse_at, parse_grid
from .render import writer
from .results import Job, compute


def run(kind, texts, wrt, **options) -> None:
    # nan/inf are results here, reported by adcli's own warnings: numpy's must not leak.
    with np.errstate(all="ignore"), warnings.catch_warnings(), _no_cycle_collection():
        warnings.simplefilter("ignore", RuntimeWarning)
        _run(kind, texts, wrt, **options)


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


def _run(kind, texts, wrt, *, order=1, at=(), grid=(), points_file=None, skip_bad_rows=False,
         fmt="table", digits=None, strict=False, out=None, err=None) -> None:
    out, err = out or sys.stdout, err or sys.stderr
    expressions = [parse(text) for text in texts]
    job = Job(kind, expressions, [], order=order, strict=strict)
    job.wrt = _wrt(job, wrt, err)
    source = PointSource(fixed=parse_at(at), grid=parse_grid(grid), stream=points_file,
                         skip_bad_rows=skip_bad_rows,
                         chunk_size=chunk_size_for(_graph_size(job)))
    _check_names(job, source, err)
    output = writer(fmt, job, out, digits)
    try:
        for chunk in source.chunks():
            output.write(compute(job, chunk))
        output.close()
    except NonFiniteError:
        raise  # its message already names what went non-finite
    else:
        for message in job.diagnostics.messages():
            _warn(err, message)
    finally:
        if source.skipped:
            _warn(err, f"skipped {len(source.skipped)} bad row(s) of the points file; "
                       f"first: {source.skipped[0]}")


def _graph_size(job: Job) -> int:
    """Roughly how many arrays one point's evaluation holds: the expression's nodes, times
    about 3 per order for n-th derivatives (each pass rebuilds a bigger graph)."""
    nodes = sum(len(e.nodes) for e in job.expressions)
    return nodes * 3 ** job.order if job.kind == "derivative" else nodes


def _warn(err, message: str) -> None:
    err.write(f"adcli: warning: {message}\n")


def _wrt(job: Job, wrt: str | None, err) -> list[str]:
    if job.kind == "eval":
        return []
    names = job.names if wrt is None else [w.strip() for w in wrt.split(",")]
    if not all(map(is_name, names)) or len(set(names)) != len(names):
        raise ValuesError(f"--wrt {wrt!r}: give distinct variable names separated by commas")
    for name in names:
        if name not in job.names:
            _unused(job, err, f"--wrt {name}: '{name}' does not appear in the expression, "
                              f"so its derivative is 0{did_you_mean(name, job.names)}")
    if job.kind == "derivative" and len(names) != 1:
        listed = ", ".join(names) or "no variables"
        raise ValuesError(f"--order {job.order} differentiates in one variable and the "
                          f"expression has {listed}: name one with --wrt")
    return names


def _check_names(job: Job, source: PointSource, err) -> None:
    source.check()
    given = source.names()
    missing = [n for n in job.names if n not in given]
    if missing:
        typos = [f"'{n}' was given: did you mean '{match}'?"
                 for n in given if n not in job.names and (match := closest(n, missing))]
        raise ValuesError(f"no value given for {listing(missing)}: add --at "
                          + ",".join(f"{n}=..." for n in missing)
                          + "".join(f" ({typo})" for typo in typos))
    for name in given:
        if name not in job.names:
            _unused(job, err, f"a value was given for '{name}', which does not appear in the "
                              f"expression{did_you_mean(name, job.names)}")


def _unused(job: Job, err, message: str) -> None:
    """A name the expression does not use: likely a typo, so an error under --strict."""
    if job.strict:
        raise ValuesError(message)
    _warn(err, message)
