"""adcli trace: the tables the AD literature draws, with the engine's own numbers.

Reverse mode (the default): the primal trace v1..vn, then the adjoint trace from v̄n = 1
down, each adjoint as the sum of what every user of the step handed back. Forward mode:
each step's tangent v̇i beside its value. Rows are written as they are laid out (nothing
holds the whole table), and ``--limit`` keeps the first and last rows of each table and
says what it left out.
"""
from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass

import click
import numpy as np

from .. import tracing
from ..options import Whole
from ..errors import (AdcliError, NonFiniteError, ValuesError, escape, fold_words, listing,
                      terminal_width, warn)
from ..diagnostics import Diagnostics
from ..render import finite_json, number_json, number_text, pair_text
from ..report import Report, point_warnings, why
from .base import Command, free_symbol

MARK = "◀ first"  # beside the first step whose value (or adjoint, or tangent) is nan or inf
APPROX = "≈ "     # before a total that the rounded terms beside it do not add up to


class Trace(Command):
    name = "trace"
    summary = "How reverse mode differentiated EXPRESSION, step by step."
    help = ("How reverse mode differentiated EXPRESSION, step by step: the primal trace "
            "v1..vn, then the adjoint trace from v̄n = 1 down (--mode forward: each step's "
            "tangent v̇i along one --wrt variable).")
    examples = ('adcli trace "x1*x2 + sin(x1)" --at x1=2,x2=5',
                'adcli trace "x1*x2 + sin(x1)" --at x1=2,x2=5 --mode forward --wrt x1')
    formats = ("table", "json")
    own_output = True
    options = (
        click.option("--mode", type=click.Choice(["reverse", "forward"]), default="reverse",
                     show_default=True, help="reverse: values, then adjoints; forward: "
                     "values with tangents along the --wrt variable."),
        click.option("--limit", type=Whole(2, None), metavar="N",
                     help="Table format: show N rows of each trace (the first and the last "
                     "ones, and the first non-finite one) and say how many were left out."),
    )

    @classmethod
    def main(cls, texts, wrt=None, **options):
        # check_wrt gets the expression's names when --wrt is not given: say which it was
        return super().main(texts, wrt, wrt_given=wrt is not None, **options)

    @property
    def forward(self) -> bool:
        return self.options.get("mode") == "forward"

    def check_wrt(self, names):
        if not self.forward or len(names) == 1:
            return
        if self.options.get("wrt_given") and names:
            raise ValuesError(f"--mode forward takes one --wrt variable, not {listing(names)}: "
                              "one forward pass carries one tangent (one column of the "
                              "Jacobian), so trace each variable in a run of its own")
        has = listing(self.names) or "no variables"
        raise ValuesError(f"--mode forward follows one variable and the expression has "
                          f"{has}: name one with --wrt")

    def trace(self, point: dict[str, float]) -> tracing.Trace:
        expression = self.expressions[0]
        if self.forward:
            return tracing.forward(expression, point, self.wrt[0])
        return tracing.reverse(expression, point, self.wrt)

    def write(self, source, out, err, fmt, digits, strict):
        layout = (JsonTrace if fmt == "json" else TextTrace)(self, out, digits,
                                                               self.options.get("limit"))
        trouble, kinks, apart = [], Report(), []
        try:
            for point, extra in points(source, self.expressions[0]):
                trace = self.trace(point)
                grad = grad_at(self.expressions[0], point, self.wrt)
                said = grad.diagnostics
                if self.forward:
                    apart += judged_in_forward_mode(said, self.expressions[0], trace, grad)
                trouble += nonfinite_messages(trace, said)
                trace.diagnostics = kept(said)
                layout.write(trace, extra)
                kinks.add(trace.diagnostics, 1)
        except AdcliError:
            if layout.written:  # the traces before a bad row are results: a whole document
                layout.close()
            raise
        layout.close()
        report_nonfinite(trouble, strict, err)
        warn_kinks(kinks, err)
        if apart:
            warn(err, apart[0] + (f" ({len(apart) - 1} more point(s) likewise)"
                                  if len(apart) > 1 else ""))


# What grad's warnings say that a trace's own marks do not: a nan or inf is the marked
# step's warning (nonfinite_messages), in the trace's names.
SAID_BY_GRAD = ("kink", "range", "unsure", "rounding", "lost")


def grad_at(expression, point: dict[str, float], wrt):
    """``adcli grad --wrt`` at the point, whose diagnostics are the warnings under the
    trace: what grad finds there, a kink only on the way to a derivative asked for (abs(y)
    is none of d/dx's), and no kink or edge that float64 sat on only because a step
    underflowed (sqrt(x^2) at 1e-170: grad's long double witness gives the true numbers
    instead). The table's rows still say what each step met, in float64. In forward mode,
    judged_in_forward_mode makes the warnings of the derivative judge forward's number."""
    return expression._partials(dict(point), tuple(wrt), 1)


def judged_in_forward_mode(said: Diagnostics, expression, trace: tracing.Trace,
                           grad) -> list[str]:
    """Make the warnings that judge d/d wrt judge the number forward mode shows, where it
    is not grad's to the last bit (expm1(x)/x at 1e-8: 0.499999974756804, grad's
    0.4999999850988388): they are then Taylor mode's (``Expression.nth_derivative(wrt,
    1)``'s, whose sweep is the trace's jvp), as long as that gives the trace's number. Where it does not (a step left
    float64's range, and Taylor mode swept the line at another scale), grad's warnings
    stay, and the words returned say that they judge grad's number, not the one shown.
    ``grad``: grad_at's result, whose diagnostics ``said`` are."""
    name, tangent = trace.wrt[0], trace.output.tangent
    if name not in expression.variables:
        return []
    reverse = scalar_of(grad.gradient[name])
    if same_number(reverse, tangent):
        return []
    taylor = expression._evaluate(dict(trace.point), lambda run: run.nth(name, 1))
    if same_number(scalar_of(taylor.derivative), tangent):
        said.judged_by(taylor.diagnostics, name)
        return []
    if not any((name, what) in said.masks for what in said.JUDGING):
        return []
    return [f"d/d{name} at {where(trace.point)}: the warning of d/d{name} above judges "
            f"grad's (reverse mode's) number, {number_text(reverse)}; this forward trace's, "
            f"{number_text(tangent)}, is another, from steps that left float64's range too, "
            "and no witness checked it: it may be wrong as well"]


def scalar_of(array) -> float:
    return float(np.ravel(array)[0])


def same_number(a: float, b: float) -> bool:
    """Equal to the last bit, the sign of 0 too, or both nan."""
    return repr(a) == repr(b)


def kept(said: Diagnostics) -> Diagnostics:
    """grad's diagnostics but those of a nan or inf (the marked step's warning says it)."""
    for what in {what for _, what in said.masks} - set(SAID_BY_GRAD):
        said.drop(what)
    return said


def points(source, expression):
    """Each point of the source, one at a time, as {name: float}, with its points file's
    other columns (an id, a label: {name: cell}), which say which row it is."""
    for chunk in source.chunks():
        for i in range(chunk.n):
            yield ({v: float(chunk.values[v][i]) for v in expression.variables},
                   {name: cells[i] for name, cells in chunk.extra.items()})


def where(point: dict[str, float]) -> str:
    """The point's coordinates, all their digits (--digits rounds results, never points)."""
    return ", ".join(f"{n}={number_text(v)}" for n, v in point.items()) or "the point"


def nonfinite_messages(trace: tracing.Trace, said: Diagnostics | None = None) -> list[str]:
    """The first step whose value, adjoint or tangent is nan or inf, in words, with why
    in grad's words where one function made it so (``said``: grad's diagnostics there),
    and the marks that point at them as the table prints them (◀ first nan)."""
    kind = "tangent" if trace.mode == "forward" else "adjoint"
    found, marks = [], []
    for what, step in (("value", trace.first_nonfinite_value()),
                       (kind, getattr(trace, f"first_nonfinite_{kind}")())):
        if step is None:
            continue
        number = number_text(getattr(step, what))
        name = f"{step.id} = {step.text()}" if what == "value" else getattr(step, f"{what}_id")
        found.append(f"{name} is {number}: the first non-finite "
                     f"{what}{cause(trace, step, what, said)}")
        marks += [] if f"{MARK} {number}" in marks else [f"{MARK} {number}"]
    return [f"at {where(trace.point)}: {'; '.join(found)} (marked {' and '.join(marks)})"] \
        if found else []


def cause(trace: tracing.Trace, step: tracing.Step, kind: str,
          said: Diagnostics | None = None) -> str:
    """", where '^' has a nan or inf derivative (a base of 0 or less, ...)": the function
    to blame, in the words of grad's warning, or "". Where grad's long double run found
    the function's edge only an underflow's doing (``said`` has a "range" warning and
    does not blame it), the edge is float64's, not f's, and the clause says so."""
    from ..functions import PRIMITIVES

    found = trace.nonfinite_cause(step, kind)
    if not found:
        return ""
    clause = f", where {PRIMITIVES[found[0]].label()} {why(*found)}"
    if said is not None and found not in said.masks and \
            any(what == "range" for _, what in said.masks):
        clause += (", met only because a step before it overflowed or underflowed in float64 "
                   "(see the long double run's warnings)")
    return clause


def warn_kinks(report: Report, err) -> None:
    """Where a derivative shown is a convention (abs at 0): one line per function."""
    for message in report.messages():
        warn(err, message)


def report_nonfinite(messages: list[str], strict: bool, err) -> None:
    """One line for the first point that went wrong (and how many others did)."""
    if not messages:
        return
    message = messages[0]
    if len(messages) > 1:
        message += f"; {len(messages) - 1} more point(s) have non-finite steps"
    if strict:
        raise NonFiniteError(message + " (--strict)")
    warn(err, message)


# ----- which rows a table shows --------------------------------------------------------

@dataclass(frozen=True)
class Gap:
    """Rows (or terms of a sum) left out by --limit: how many, the first and the last."""

    count: int
    first: object
    last: object


def shown(rows: list, limit: int | None, keep=None) -> list:
    """The rows to show, in order, with a Gap where --limit left some out: the first
    half and the last half of the limit, plus ``keep`` (the marked row) wherever it is."""
    if limit is None or len(rows) <= limit:
        return list(rows)
    head, tail = (limit + 1) // 2, limit // 2
    chosen = set(range(head)) | set(range(len(rows) - tail, len(rows)))
    if keep is not None:
        chosen.add(next(i for i, row in enumerate(rows) if row is keep))
    result, previous = [], -1
    for i in sorted(chosen):
        if i > previous + 1:
            result.append(Gap(i - previous - 1, rows[previous + 1], rows[i - 1]))
        result.append(rows[i])
        previous = i
    return result


# A short relation, kept on one line when words are folded: "v2 > 0", "v1 = 0.5," (a
# name and a number apart would read as two statements), and "tangent 0".
RELATION = re.compile(r"\S+ (?:[=<>≤≥≠≈]|\+=) \S+|tangent \d\S*|\S+")


def phrases(text: str, width: int) -> list[str]:
    """The words of text to fold between, a relation one of them where it fits ``width``."""
    return [words for match in RELATION.finditer(text)
            for words in ([match.group()] if cells(match.group()) <= width
                          else match.group().split())]


def cells(text: str) -> int:
    """Terminal columns: a combining mark (the bar of v̄) takes none, a wide character two."""
    return sum(0 if unicodedata.combining(c) else
               2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text: str, width: int) -> str:
    return text + " " * max(0, width - cells(text))


# ----- the text tables -----------------------------------------------------------------

class TextTrace:
    """The literature's layout: one equation per row, the primal values aligned."""

    def __init__(self, command: Trace, out, digits, limit):
        self.command, self.out, self.digits, self.limit = command, out, digits, limit
        self.started = False
        self.approximate = False     # whether this trace's adjoints have a "≈" row
        self.width = terminal_width(out)
        # the output's name, never a variable's or a --let name's (∂f/∂f would be one)
        e = command.expressions[0]
        self.symbol = free_symbol([*e.variables, *e.names.values()])

    @property
    def written(self) -> bool:
        return self.started

    def num(self, value: float) -> str:
        return number_text(value, self.digits)

    def value(self, step: tracing.Step) -> str:
        """A step's value: an input's is a coordinate of the point, never rounded."""
        return number_text(step.value) if step.kind == "input" else self.num(step.value)

    def line(self, text: str = "", pieces: list[list[str]] | None = None,
             note: str | None = None) -> None:
        """A row as it is, or, if a terminal is narrower, folded at its "="s (``pieces``)
        or else between words: never inside a number, as the terminal would. A ``note``
        (in words) follows the row, or goes under it, folded between words."""
        text, note = text.rstrip(), f"({note})" if note else ""
        if self.width and cells(f"{text}  {note}") > self.width:
            from ..tables import fold

            if cells(text) > self.width:
                text = "\n".join(folded(pieces, self.width) if pieces else
                                 fold(phrases(text, self.width - 2), self.width, cells))
            if note:
                text += "".join(f"\n    {line}" for line in fold(
                    phrases(note, self.width - 4), self.width - 4, cells, ""))
        elif note:
            text += f"  {note}"
        self.out.write(text + "\n")

    def heading(self, text: str) -> None:
        """A heading, its lines hanging under the text after its label, as grad's (read as:)."""
        if self.width and cells(text) > self.width:
            from ..tables import hanging

            text = "\n".join(hanging(text, self.width))
        self.out.write(text + "\n")

    def close(self) -> None:
        self.out.flush()

    def write(self, trace: tracing.Trace, extra: dict | None = None) -> None:
        if not self.started:
            from ..tables import shorten

            self.heading(f"read as: {shorten(trace.expression.parsed)}")
            self.started = True
        self.at(trace.point, extra or {})
        if trace.mode == "forward":
            self.tangents(trace)
        else:
            self.primal(trace)
            self.adjoints(trace)
        self.gradient(trace)
        self.out.flush()

    def at(self, point: dict[str, float], extra: dict) -> None:
        """The point, after its row's other columns (id=p1), folded (on a terminal
        narrower than it) between its name=value pairs."""
        pairs = [(name, escape(pair_text(cell))) for name, cell in extra.items()] + \
            [(name, number_text(value)) for name, value in point.items()]
        if not pairs:   # (2 + 3: no variable, no column; "at the point" named none)
            return
        self.line()
        text = f"at {', '.join(f'{n}={v}' for n, v in pairs)}"
        if self.width and cells(text) > self.width:
            from ..tables import fold_pairs

            text = "\n".join(fold_pairs("at", pairs, self.width, cells))
        self.out.write(text + "\n")

    def gap(self, gap: Gap, name=lambda step: step.id) -> None:
        """"⋮ 9 row(s), v6 … v14, left out by --limit 6", in the rows' column: folded (on a
        narrower terminal) under the text after its "⋮", "--limit 6" kept whole."""
        rows = f"1 row, {name(gap.first)}" if gap.count == 1 else \
            f"{gap.count} row(s), {name(gap.first)} … {name(gap.last)}"
        self.folded_words(["  ⋮", *f"{rows}, left out by".split(), f"--limit {self.limit}"])

    def folded_words(self, words: list[str]) -> None:
        """A line of the table in words (the first indented as rows are), folded on a
        narrower terminal between them, the lines after the first 4 columns in."""
        from ..tables import fold

        lines = fold(words, self.width, cells, "    ") if self.width else [" ".join(words)]
        self.out.write("\n".join(lines) + "\n")

    def mark(self, value: float, first: bool) -> str:
        return f"  {MARK} {self.num(value)}" if first else ""

    def primal(self, trace: tracing.Trace) -> None:
        self.line()
        self.line("primal trace")
        bad = trace.first_nonfinite_value()
        rows = shown(trace.steps, self.limit, bad)
        equations = self.equations([r for r in rows if not isinstance(r, Gap)], bad)
        for row in rows:
            if isinstance(row, Gap):
                self.gap(row)
            else:
                self.line(*equations[row])

    def equations(self, steps: list[tracing.Step], bad) -> dict:
        """Each step's ``vi = text = value`` line and its pieces, the values aligned if
        every line then fits the terminal; else none is padded (folded rows among aligned
        ones would read as two tables)."""
        id_width = max(cells(s.id) for s in steps)
        values = {s: f"{self.value(s)}{self.mark(s.value, s is bad)}" for s in steps}

        def lines(text_width: int) -> dict:
            return {s: f"  {pad(s.id, id_width)} = {pad(s.text(), text_width)} = {values[s]}"
                    for s in steps}

        aligned = lines(max(cells(s.text()) for s in steps))
        if self.width and any(cells(line) > self.width for line in aligned.values()):
            aligned = lines(0)
        return {s: (line, [[pad(s.id, id_width), s.text(), values[s]]])
                for s, line in aligned.items()}

    def adjoints(self, trace: tracing.Trace) -> None:
        self.line()
        order = trace.adjoint_order()
        if not order:
            self.line("adjoint trace: none (the expression depends on no variable)")
            return
        self.line("adjoint trace")
        bad = trace.first_nonfinite_adjoint()
        id_width = max(cells(s.adjoint_id) for s in order[:1] + order[-1:])
        self.approximate = False
        for row in shown(order, self.limit, bad):
            if isinstance(row, Gap):
                self.gap(row, lambda step: step.adjoint_id)
                continue
            sides, note = self.adjoint(trace, row)
            sides[-1] += self.mark(row.adjoint, row is bad)
            self.line(f"  {pad(row.adjoint_id, id_width)} = {equation(sides)}",
                      [[pad(row.adjoint_id, id_width), *sides]], note)
        if self.approximate:
            first, *words = approximate_note(self.digits).split()
            self.folded_words([f"  {first}", *words])

    def adjoint(self, trace: tracing.Trace,
                step: tracing.Step) -> tuple[list[str], str | None]:
        """``rule + rule = term + term = sum``: the sum written out where a value feeds
        several operations (the sides of that equation, after the adjoint's name), the
        terms in the order the engine adds them; and a note where a convention makes a
        term 0 that its rule does not."""
        total = self.num(step.adjoint)
        if step is trace.output:
            return [f"{total}  (seed)"], None
        if not step.contributions:
            return [f"{total}  (no gradient flows back to it)"], None
        terms = shown(step.contributions, self.limit)
        rules = {t: trace.term(t) for t in terms if not isinstance(t, Gap)}
        text = self.sum([t if isinstance(t, Gap) else rules[t].text for t in terms])
        note = tracing.adjoint_note(list(rules.values()), len(step.contributions) == 1,
                                    self.digits)
        if len(step.contributions) == 1:
            return [text, total], note
        numbers = [t if isinstance(t, Gap) else self.num(t.value) for t in terms]
        if not any(isinstance(t, Gap) for t in terms) and \
                not adds_up(numbers, total, self.digits):
            total, self.approximate = APPROX + total, True
        return [text, self.sum(numbers), total], note

    def sum(self, terms: list) -> str:
        """Terms joined with + (and -), a term left out by --limit as "(k more terms)"."""
        return tracing.join_terms([f"({t.count} more term{'s' * (t.count > 1)})"
                                   if isinstance(t, Gap) else t for t in terms])

    def tangents(self, trace: tracing.Trace) -> None:
        self.line()
        w = trace.wrt[0]
        seeded = trace.inputs().get(w)
        seed = (f"seed {seeded.tangent_id} = 1 for {w}, every other input's tangent 0"
                if seeded else f"{w} is not in the expression: every tangent is 0")
        self.line(f"primal and tangent trace ({seed})")
        bad_value, bad_tangent = trace.first_nonfinite_value(), trace.first_nonfinite_tangent()
        rows = shown(trace.steps, self.limit, bad_value or bad_tangent)
        steps = [r for r in rows if not isinstance(r, Gap)]
        equations = self.equations(steps, bad_value)
        id_width = max(cells(s.tangent_id) for s in steps)
        tangents, notes = {}, {}
        for step in steps:
            sides, notes[step] = self.tangent(trace, step, bad_tangent)
            tangents[step] = [pad(step.tangent_id, id_width), *sides]
        # One layout for the whole table: each tangent beside its value, or each under it
        # (a mix reads as two tables interleaved).
        value_width = max(cells(line) for line, _ in equations.values())
        beside = {s: f"{pad(equations[s][0], value_width)}   {' = '.join(tangents[s])}"
                  for s in steps}
        together = not self.width or all(cells(line) <= self.width for line in beside.values())
        for row in rows:
            if isinstance(row, Gap):
                self.gap(row)
            elif together:
                self.line(beside[row], note=notes[row])
            else:
                self.line(*equations[row])
                self.line("  " + " = ".join(tangents[row]), [tangents[row]], notes[row])

    def tangent(self, trace: tracing.Trace, step: tracing.Step,
                bad) -> tuple[list[str], str | None]:
        """The sides of v̇'s equation after its name (the rule and the tangent, with its
        mark), and what the rule does not say: a term left out as 0, a convention."""
        mark = self.mark(step.tangent, step is bad)
        if step.kind == "operation":
            rule, note = trace.tangent_text(step, self.digits)
            # Every term left out: no rule to write but its 0 ("v̇3 = 0 = 0.0" says it twice)
            tangent = self.num(step.tangent) + mark
            return ([rule, tangent] if trace.tangent_terms(step)[0] else [tangent]), note
        seeded = step.kind == "input" and step.name in trace.wrt
        return [self.num(step.tangent) + ("  (seed)" if seeded else "") + mark], None

    def gradient(self, trace: tracing.Trace) -> None:
        if not trace.wrt:
            return
        self.line()
        self.line("gradient" if trace.mode == "reverse" else "derivative")
        inputs = trace.inputs()
        for name, value in trace.gradient().items():
            if trace.mode == "forward":
                via = [trace.output.tangent_id]
            else:
                via = [inputs[name].adjoint_id] if name in inputs else []
            # folded at its "="s, as the adjoint rows are: between words it lost its indent
            sides = [f"∂{self.symbol}/∂{name}", *via, self.num(value)]
            self.partial(sides)

    def partial(self, sides: list[str]) -> None:
        """A row of the gradient, folded as the adjoint rows are; where a name is too wide
        for that (∂f/∂ and it fill the terminal), between words, still 2 columns in."""
        row = " = ".join(sides)
        if self.width and cells(f"  {row}") > self.width and \
                any(cells(line) > self.width for line in folded([sides], self.width)):
            self.out.write("  " + fold_words(row, self.width - 2).replace("\n", "\n  ") + "\n")
        else:
            self.line(f"  {row}", [sides])


def folded(pieces: list[list[str]], width: int) -> list[str]:
    """A row too wide for the terminal, as lines the terminal will not break inside a
    number: each piece (a name, then the sides of its equation) starts a line, each side
    goes under the first "=" when it does not fit beside it (or follows a side that did
    not fit on one line: "= nan" after its last term would read as that term's), cut
    before its "+" and "-" terms where it is wider than that; only where a term does not
    fit under the "=" does the side start less deep (``side_indent``). A term wider than
    the terminal is cut between its operations (``term_lines``), the terms after it
    starting lines of their own."""
    lines = []
    for name, *sides in pieces:
        line = f"  {name} ="
        indent = " " * (cells(line) - 1)  # continuation lines start under its "="
        broken = False
        for k, side in enumerate(sides):
            sign, side = relation(side)
            if k and not broken and cells(f"{line} {sign} {side}") <= width:
                line += f" {sign} {side}"
                continue
            column = indent     # where this side's folded terms go on (under its first)
            if k:
                lines.append(line)
                column = side_indent(indent, sign, side, width)
                line = column + sign
            broken = cut = False
            for n, term in enumerate(terms(side)):
                if n and (cut or cells(f"{line} {term}") > width):
                    lines.append(line)
                    line, broken = column + " ", True
                *done, line = term_lines(f"{line} ", term, width)
                lines += done
                cut = bool(done)
                broken = broken or cut
        lines.append(line)
    return lines


def side_indent(indent: str, sign: str, side: str, width: int) -> str:
    """Where a side that starts a line of its own starts: under the "=" (``indent``) if
    each of its terms fits there, its sum then folded at its terms, aligned; else (one
    long number: -1.2345678901234568e-300 at 30 columns) 4 columns in, or 2, the deepest
    that keeps each term whole (a sum's terms then go on under its first). Never at the
    2 columns rows start at where 4 will do: "  = 0.3299" under "  ∂f/∂alpha = v̄1" would
    read as a row of its own."""
    first, *rest = terms(side)
    return next((column for column in (indent, "    ", "  ")
                 if cells(f"{column}{sign} {first}") <= width
                 and all(cells(f"{column}  {term}") <= width for term in rest)), indent)


def terms(side: str) -> list[str]:
    """A side's terms: cut before each "+" and "-" between them, none inside parentheses
    (there, "+ (v1^2)))" would read as a term of its own)."""
    pieces, depth, start = [], 0, 0
    for m in re.finditer(r"[()]| (?=[+-] )", side):
        if m.group() != " ":
            depth += 1 if m.group() == "(" else -1
        elif depth == 0:
            pieces.append(side[start:m.start()])
            start = m.end()
    return pieces + [side[start:]]


# Where a term may be cut: after "·", "(", "/" or ",", or at a space, but never at the one
# after an operator's sign ("v2 -" would leave "1" its own). Numbers and names hold none.
BREAK = re.compile(r"(?<=[·(/,])(?! )|(?<![-+=≈ ]) (?! )")
# A cut after these ends an operand: at one depth, better than one after "(" or "/".
BETWEEN = re.compile(r"[·,]$")


def term_lines(start: str, term: str, width: int) -> list[str]:
    """``start`` followed by ``term``, as lines no wider than ``width`` where the term can
    be cut so (only between its operations, never inside a number or a name), the lines
    after the first indented 2 columns past where the term starts (2 in, on a terminal too
    narrow for that to hold its widest piece, less). A piece that fits nowhere stays whole."""
    column = cells(start) + (2 if term[:2] in ("+ ", "- ") else 0)
    cuts = [0, *(m.start() for m in BREAK.finditer(term)), len(term)]
    widest = max(cells(term[a:b].strip()) for a, b in zip(cuts, cuts[1:]))
    indent = " " * max(2, min(column + 2, width - widest))
    lines, line = [], start
    while cells(line + term) > width:
        room = width - cells(line)
        cuts = [m.start() for m in BREAK.finditer(term)
                if 0 < m.start() and cells(term[:m.start()].rstrip()) <= room]
        if not cuts:
            break
        # of the cuts that fill half the line, the one fewest parentheses deep (the
        # operation grouping the most), then after a "·" or ",", then the farthest
        full = [c for c in cuts if cells(term[:c]) * 2 >= room] or cuts[-1:]
        at = min(full, key=lambda c: (term.count("(", 0, c) - term.count(")", 0, c),
                                      not BETWEEN.search(term[:c]), -c))
        lines.append(line + term[:at].rstrip())
        line, term = indent, term[at:].lstrip()
    return lines + [line + term]


def relation(side: str) -> tuple[str, str]:
    """The sign before a side of an equation and the side: "≈" where it is marked so."""
    return ("≈", side[len(APPROX):]) if side.startswith(APPROX) else ("=", side)


def equation(sides: list[str]) -> str:
    """Sides joined by "=", or by "≈" before a side marked so."""
    text = sides[0]
    for side in sides[1:]:
        sign, side = relation(side)
        text += f" {sign} {side}"
    return text


def adds_up(terms: list[str], total: str, digits: int | None) -> bool:
    """Whether ``terms`` as printed, added up by hand, give ``total`` as printed, to its
    digits (a tie rounded either way). Rounded each on its own (--digits), they may not:
    -0.528 + 1.32 is 0.792, and the adjoint, float64's sum, rounds to 0.791. All digits
    always do: the float sum left to right is the adjoint, whatever the decimals say."""
    from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, localcontext

    if digits is None:
        return True
    numbers = [Decimal(t) for t in [*terms, total]]
    if not all(n.is_finite() for n in numbers):
        return True                   # nan or inf: nothing to work out by hand
    with localcontext() as exact:
        exact.prec = 1000             # the exact sum of float64 texts: ~650 digits at most
        hand = sum(numbers[:-1], Decimal(0))
    for rounding in (ROUND_HALF_EVEN, ROUND_HALF_UP):
        with localcontext() as context:
            context.prec, context.rounding = digits, rounding
            if +hand == numbers[-1]:
                return True
    return False


def approximate_note(digits: int) -> str:
    """What a "≈" before an adjoint says, under the table."""
    # (the adjoint is float64's sum of the terms, left to right: at 17 digits it may
    # differ from their exact sum, 0.60000000000000009 for 0.6000000000000000333)
    return (f"≈: the adjoint, float64's sum of the terms, rounded to {digits} "
            f"digit{'s' * (digits != 1)}; the terms as rounded add up to a little more or less")


# ----- JSON ----------------------------------------------------------------------------

class JsonTrace:
    """One JSON object, written node by node: ``points`` holds one trace per point."""

    def __init__(self, command: Trace, out, digits, limit):
        self.command, self.out, self.digits = command, out, digits
        self.ascii = "utf" not in (getattr(out, "encoding", None) or "utf-8").lower()
        self.count = 0
        self.warnings: list[dict] = []   # kinks, as every command's JSON lists them

    @property
    def written(self) -> bool:
        return self.count > 0

    def dump(self, value) -> str:
        if self.digits is not None:   # (json's own writes a rounded number's repr)
            from .. import jsontext

            return jsontext.dumps(value, ensure_ascii=self.ascii, allow_nan=False)
        return json.dumps(value, ensure_ascii=self.ascii, allow_nan=False)

    def _extra(self, value) -> str:
        from .. import jsontext

        return jsontext.dumps(value, ensure_ascii=self.ascii, allow_nan=False)

    def num(self, value):
        return None if value is None else number_json(value, self.digits)

    def write(self, trace: tracing.Trace, extra: dict | None = None) -> None:
        if self.count == 0:
            self.head()
        # (jsontext: a JSON Lines number passed through keeps its text, which json's
        # encoder would write as its float's repr)
        passed = f', "extra": {self._extra(finite_json(extra))}' if extra else ""
        at = {n: number_json(v) for n, v in trace.point.items()}  # never rounded
        self.out.write(("," if self.count else "") + "\n" + '{"at": ' + self.dump(at)
                       + passed + ', "nodes": [')
        for i, step in enumerate(trace.steps):
            self.out.write(("," if i else "") + "\n  " + self.dump(self.node(trace, step)))
        bad = {"value": trace.first_nonfinite_value()}
        bad.update({"tangent": trace.first_nonfinite_tangent()} if trace.mode == "forward"
                   else {"adjoint": trace.first_nonfinite_adjoint()})
        tail = {"output": trace.output.id,
                "gradient": {n: self.num(v) for n, v in trace.gradient().items()},
                "first_nonfinite": {k: s and s.id for k, s in bad.items()}}
        self.out.write("], " + self.dump(tail)[1:])
        self.count += 1
        # as the point's: which row of a points file it was (grad's and eval's have it)
        passed = {"extra": finite_json(extra)} if extra else {}
        self.warnings += [{"at": at, **passed, "function": function, "kind": kind,
                           "why": why}
                          for _, function, kind, why in point_warnings(trace.diagnostics)]

    def node(self, trace: tracing.Trace, step: tracing.Step) -> dict:
        value = number_json(step.value) if step.kind == "input" else self.num(step.value)
        node = {"id": step.id, "operation": step.kind if step.kind != "operation" else step.name,
                "text": step.text(), "inputs": [o.id for o in step.operands], "value": value}
        if trace.mode == "forward":
            node["tangent"] = self.num(step.tangent)
            if step.kind == "operation":
                node["tangent_rule"], note = trace.tangent_text(step, self.digits)
                if note:
                    node["tangent_note"] = note
            return node
        node["adjoint"] = self.num(step.adjoint)
        node["contributions"] = [self.contribution(trace, c) for c in step.contributions]
        return node

    def contribution(self, trace: tracing.Trace, contribution: tracing.Contribution) -> dict:
        rule = trace.term(contribution)
        found = {"from": contribution.source.id, "rule": rule.text,
                 "value": self.num(contribution.value)}
        note = tracing.adjoint_note([rule], True, self.digits)
        return {**found, "note": note} if note else found

    def head(self) -> None:
        e = self.command.expressions[0]
        head = {"expression": e.text, "parsed": e.parsed,
                "mode": "forward" if self.command.forward else "reverse",
                "variables": list(self.command.wrt)}
        if self.command.cautions:  # as every command's JSON has them (render.JsonWriter)
            head["cautions"] = self.command.cautions
        self.out.write(self.dump(head)[:-1] + ', "points": [')

    def close(self) -> None:
        if self.count == 0:  # no points (an empty points file): still one JSON object
            self.head()
        warnings = f', "warnings": {self.dump(self.warnings)}' if self.warnings else ""
        self.out.write(f"]{warnings}}}\n")
        self.out.flush()
